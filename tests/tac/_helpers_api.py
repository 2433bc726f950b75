"""Helpers shared by the TAC API-level tests (test_tac_api, test_golden, test_hidden_info).
Plain functions, no fixtures: tests/tac/conftest.py belongs to the rule tests."""

from __future__ import annotations

import numpy as np

from envs.tac import tac_v1


def pick(mask: np.ndarray, rng: np.random.Generator) -> int:
    """A uniform legal action of `mask`, drawn from a seeded numpy RNG."""
    legal = np.flatnonzero(mask)
    assert legal.size > 0, "a decision with no legal action"
    return int(legal[rng.integers(legal.size)])


def game_rng(seed: int, game_index: int) -> np.random.Generator:
    """The action chooser of game `game_index` of `seed`: the same whatever slot plays it."""
    return np.random.default_rng([seed, game_index, 0x7AC])


def play_aec_game(
    env: tac_v1.raw_env, seed: int, game_index: int = 0, on_decision=None
) -> dict[str, float]:
    """Play one whole game in the AEC env with `game_rng` actions; returns final rewards.

    on_decision(env, agent, obs) is called before each decision (obs from env.last()).
    """
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
