"""The TAC baselines: legal play from Python and numba, and heuristic strength (issue: the
heuristic must beat random in at least 70% of 10,000 two-player games)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.kernel_agents import KernelAgent, act_batch
from agents.tac.baselines import AGENT_HEURISTIC, AGENT_RANDOM
from agents.tac.selfplay import play_chunk
from envs.tac import tac_v1
from envs.tac.state import allocate
from envs.tac.tables import default_tables

RULESET = tac_v1.ruleset()


def run_chunk(S, tba, seed, indices, agent_ids, _n_units=None):
    return play_chunk(S, tba, seed, indices, agent_ids)


def _winner_agents(res, agent_ids) -> np.ndarray:
    """Agent id of each game's winner (-1 for a draw), from the seats' agent positions."""
    w = res.winner.astype(np.int64)
    pos = res.seat_agent[np.arange(len(w)), np.maximum(w, 0)]
    return np.where(w >= 0, np.asarray(agent_ids)[pos], -1)


def test_heuristic_beats_random_in_at_least_70_percent_of_10000_games():
    tables = default_tables()
    n = 10_000
    S = allocate(n, 2)
    ids = np.array([AGENT_HEURISTIC, AGENT_RANDOM], dtype=np.int8)
    res = run_chunk(S, tables.arrays_batch, 2024, np.arange(n, dtype=np.int64), ids)
    winners = _winner_agents(res, ids)
    rate = float((winners == AGENT_HEURISTIC).mean())
    # seats alternate game by game, so the heuristic played each seat 5,000 times
    assert (ids[res.seat_agent[:, 0]] == AGENT_HEURISTIC).sum() == n // 2
    assert rate >= 0.70, f"heuristic won only {rate:.1%} of {n} games"


def test_random_vs_random_wins_are_balanced_between_seats_when_agents_are_equal():
    tables = default_tables()
    n = 4_000
    S = allocate(n, 2)
    res = run_chunk(
        S,
        tables.arrays_batch,
        7,
        np.arange(n, dtype=np.int64),
        np.array([AGENT_RANDOM], dtype=np.int8),
        len(tables.units),
    )
    decided = res.winner[res.winner >= 0]
    # no seat is hugely favoured: within 10 points of an even split
    assert abs((decided == 0).mean() - 0.5) < 0.10


@pytest.mark.parametrize("name", ["random", "heuristic"])
def test_kernel_agents_only_play_legal_actions_in_the_aec_env(name):
    env = tac_v1.raw_env(num_players=3)
    env.reset(seed=11)
    agent = KernelAgent(RULESET, name)
    steps = 0
    for who in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        if term or trunc:
            env.step(None)
            continue
        a = agent.act(env)
        assert obs["action_mask"][a] == 1, (who, a)
        env.step(a)
        steps += 1
    assert steps > 20


def test_unknown_agent_name_is_rejected_with_the_known_names():
    with pytest.raises(ValueError, match="unknown agent 'genius'.*heuristic.*random"):
        RULESET.agent_id("genius")


@pytest.mark.parametrize("agents", ["random", ["heuristic", "random"]])
def test_act_batch_gives_every_game_a_legal_action_and_does_not_depend_on_the_batch(agents):
    def first_game_actions(num_envs: int) -> list[list[int]]:
        env = tac_v1.BatchEnv(num_envs, 2, seed=5, observations=False)
        step = env.reset()
        played: list[list[int]] = [[] for _ in range(3)]
        done = [False] * 3
        for _ in range(400):
            actions = act_batch(env, agents)
            legal = step.action_mask[np.arange(num_envs), actions]
            assert legal.all(), "act_batch chose an illegal action"
            for b in range(3):
                if not done[b]:
                    played[b].append(int(actions[b]))
            step = env.step(actions)
            for b in range(3):
                done[b] = done[b] or bool(step.terminated[b])
        assert all(done)
        return played

    # games 0-2 sit in slots 0-2 at both sizes: their first games must be played alike
    assert first_game_actions(3) == first_game_actions(40)


def test_act_batch_random_is_uniform_over_the_mask():
    env = tac_v1.BatchEnv(2000, 2, seed=3, observations=False)
    step = env.reset()  # first decision of every game: deploy a unit (2.2), 3 legal rows
    counts = np.bincount(act_batch(env, "random"), minlength=3)[:3]
    assert step.action_mask[:, :3].all() and step.action_mask.sum() == 6000
    assert all(abs(c - 2000 / 3) < 110 for c in counts)  # about 5 standard deviations


def test_act_batch_needs_one_agent_per_seat():
    env = tac_v1.BatchEnv(4, 3, seed=0, observations=False)
    env.reset()
    with pytest.raises(ValueError, match="one agent per seat"):
        act_batch(env, ["random", "random"])
