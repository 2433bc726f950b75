"""TAC's information-set search agent (agents/tac/mcts.py over agents/core/mcts.py).

Facts the search code does not produce: it beats the random agent, whose games it never
sees; its choice at a decision is the same in every state its player cannot tell apart from
the real one (the hidden parts resampled by envs/tac/hidden.py, the same agent RNG), so it
reads nothing hidden; and self-play games with it replay move for move through the AEC env.
The >= 60% win rate against the heuristic over 2,000 games is measured by
benchmarks/search.py (too slow for the suite)."""

from __future__ import annotations

import numpy as np

from agents.kernel_agents import KernelAgent
from agents.tac.baselines import AGENT_RANDOM, AGENTS
from agents.tac.mcts import mcts_action
from agents.tac.selfplay import play_chunk
from envs import get_ruleset, make_env
from envs.tac.actions import N_ACTIONS
from envs.tac.hidden import resample_hidden
from envs.tac.state import allocate
from envs.tac.tables import default_tables

TABLES = default_tables()
MCTS50 = AGENTS["mcts50"]


def test_mcts_beats_random_in_at_least_17_of_20_games_in_both_seats():
    n = 20
    S = allocate(n, 2)
    ids = np.array([MCTS50, AGENT_RANDOM], dtype=np.int8)
    res = play_chunk(S, TABLES.arrays_batch, 5, np.arange(n, dtype=np.int64), ids)
    mcts_seat = np.argmax(res.seat_agent[:, :2] == 0, axis=1)  # position 0 = mcts50
    assert set(mcts_seat.tolist()) == {0, 1}
    wins = int((res.winner == mcts_seat).sum())
    assert wins >= 17, f"mcts50 won only {wins} of {n} games against random"


def _search(S: np.ndarray, sims: int) -> int:
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    return int(mcts_action(S, TABLES.arrays, np.int64(0), np.int64(sims), buf))


def test_search_choice_does_not_depend_on_what_its_player_cannot_know():
    """At decisions of random games, the searched action equals the one searched in
    resampled states (other hands, face-down defences, pile orders, dice redrawn) with the
    same agent RNG; a control shows the search does depend on its own hand."""
    env = make_env("tac", num_players=2)
    raw = env.unwrapped
    rng = np.random.default_rng(3)
    checked = own_hand_mattered = 0
    for g in range(4):
        env.reset(seed=9, options={"game_index": g})
        for k, _agent in enumerate(env.agent_iter()):
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            if k % 6 == 0 and int(obs["action_mask"].sum()) > 1:
                S = raw.state_arrays.copy()
                me = int(S["current"][0])
                want = _search(S.copy(), 30)
                for _ in range(2):
                    R = resample_hidden(S, me, rng, TABLES.arrays)
                    R["agent_rng"][0] = S["agent_rng"][0]
                    assert _search(R, 30) == want, f"game {g} decision {k}"
                    checked += 1
                # control: the searcher's own hand is part of what it knows
                own = S.copy()
                hand = own["hand"][0, me]
                cards = hand[hand >= 0]
                if len(cards) and own["draw_count"][0] > 0:
                    own["hand"][0, me, np.flatnonzero(hand >= 0)[0]] = own["draw"][0, 0]
                    own["draw"][0, 0] = cards[0]
                    own_hand_mattered += int(_search(own, 30) != want)
            mask = obs["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
    assert checked >= 20
    assert own_hand_mattered >= 1


def test_self_play_games_with_mcts_replay_through_the_aec_env():
    rs = get_ruleset("tac")
    n = 4
    S = allocate(n, 2)
    ids = np.array([MCTS50, AGENTS["heuristic"]], dtype=np.int8)
    res = play_chunk(S, rs.tables_batch, 21, np.arange(n, dtype=np.int64), ids)
    names = ["mcts50", "heuristic"]
    for g in range(n):
        env = make_env("tac", num_players=2)
        env.reset(seed=21, options={"game_index": g})
        seat_agents = [KernelAgent(rs, names[int(res.seat_agent[g, s])]) for s in range(2)]
        length = 0
        for agent in env.agent_iter():
            _, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            env.step(seat_agents[int(agent.split("_")[1])].act(env))
            length += 1
        S1 = env.unwrapped.state_arrays
        assert length == int(res.length[g])
        assert int(S1["winner"][0]) == int(res.winner[g])
