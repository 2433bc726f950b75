"""What the shared platform tests use: the cases (every playable ruleset of envs.registry at
every player count it allows) and ruleset-free helpers to play games with seeded actions.

A new engine is tested by registering it: nothing here names a ruleset."""

from __future__ import annotations

import numpy as np
import pytest

from envs import registry
from tests.integration.rulesets import DATA_ONLY as DATA_ONLY_EXAMPLE

PLAYABLE = registry.names(playable_only=True)
# the data-only example of the refusal tests: a real one while the registry has one, else a
# made-up entry the test registers (tests/integration/rulesets.py: register_data_only)
DATA_ONLY = [DATA_ONLY_EXAMPLE]


def _counts(name: str) -> range:
    rs = registry.get(name)
    return range(rs.min_players, rs.max_players + 1)


# (ruleset, players) for every playable ruleset and every player count it allows
CASES = [pytest.param(n, p, id=f"{n}-{p}p") for n in PLAYABLE for p in _counts(n)]
# (ruleset, fewest players) and (ruleset, most players): the cheaper tests' cases
EDGE_CASES = [
    pytest.param(n, p, id=f"{n}-{p}p")
    for n in PLAYABLE
    for p in sorted({_counts(n)[0], _counts(n)[-1]})
]
RULESETS = [pytest.param(n, id=n) for n in PLAYABLE]


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal action of `mask`, drawn from a seeded numpy RNG."""
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "a decision with no legal action"
    return int(legal[rng.integers(legal.size)])


def illegal(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform action the mask forbids."""
    bad = np.flatnonzero(mask == 0)
    assert bad.size > 0, "every action is legal here"
    return int(bad[rng.integers(bad.size)])


def game_rng(seed: int, game_index: int) -> np.random.Generator:
    """The action chooser of game `game_index` of `seed`: the same whatever slot plays it."""
    return np.random.default_rng([seed, game_index, 0x7AC])


def play_aec_game(env, seed: int, game_index: int = 0, on_decision=None) -> dict[str, float]:
    """Play one whole game in an AEC env with `game_rng` actions; the final rewards.
    on_decision(env, agent, obs) is called before each decision (obs from env.last())."""
    env.reset(seed=seed, options={"game_index": game_index})
    rng = game_rng(seed, game_index)
    final: dict[str, float] = {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        if terminated or truncated:
            final[agent] = reward
            env.step(None)
            continue
        if on_decision is not None:
            on_decision(env, agent, obs)
        env.step(pick(obs["action_mask"], rng))
    return final


def play_to_the_end(env, seed: int, game_index: int) -> tuple[dict, dict]:
    """Play one game with `game_rng` actions, asserting that every reward before the end is 0;
    the final (rewards, infos) of every agent."""
    env.reset(seed=seed, options={"game_index": game_index})
    rng = game_rng(seed, game_index)
    final, infos = {}, {}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, info = env.last()
        assert not truncated
        if terminated:
            final[agent], infos[agent] = reward, info
            env.step(None)
            continue
        assert reward == 0.0, "rewards come only at the end of the game"
        assert not any(env.rewards.values())
        env.step(pick(obs["action_mask"], rng))
    return final, infos
