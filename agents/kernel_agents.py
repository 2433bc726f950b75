"""Agents of any registered ruleset from Python: the numba baselines a ruleset registers
(random, heuristic, ...) acting in an AEC env or over a whole BatchEnv, and a masked random
agent that needs nothing but an observation."""

from __future__ import annotations

import numpy as np

from envs.core.batch import BatchEnv, threads_for
from envs.core.ruleset import Ruleset


class KernelAgent:
    """A numba agent of a ruleset driving its AEC env. It reads the env's state but acts
    only on what the rules let the current player know (every registered baseline must use
    only that player's information; the hidden-information tests check the observation)."""

    def __init__(self, ruleset: Ruleset, name: str):
        self.ruleset = ruleset
        self.name = name
        self.id = ruleset.agent_id(name)

    def act(self, env) -> int:
        raw = env.unwrapped
        if raw.ruleset.name != self.ruleset.name:
            raise ValueError(f"a {self.ruleset.name} agent cannot play {raw.ruleset.name}")
        return int(self.ruleset.act_one(raw.state_arrays, raw.ruleset.tables_batch, 0, self.id))


class MaskedRandomAgent:
    """Uniform over the action mask of an observation (any ruleset), seeded."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act_on_mask(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(self.rng.choice(legal))


def refuse_search_agents(ruleset: Ruleset, names, where: str) -> None:
    """The batch kernels (act_batch, opponents_batch) play the fast agents only: a searching
    agent (ruleset.search_agents) is compiled into act_one and play_chunk, not into them."""
    slow = sorted(set(names) & set(ruleset.search_agents))
    if slow:
        raise ValueError(
            f"{where} plays the fast agents ({', '.join(ruleset.baseline_agents)}); "
            f"{', '.join(slow)} search and play through act_one (AEC env, play) or "
            "play_chunk (selfplay, ladder)"
        )


def seat_agent_ids(ruleset: Ruleset, agents: str | list[str], num_players: int) -> np.ndarray:
    """One agent id per seat from one name (every seat) or one name per seat."""
    names = [agents] * num_players if isinstance(agents, str) else list(agents)
    if len(names) != num_players:
        raise ValueError(f"need one agent per seat ({num_players}), got {len(names)}")
    return np.array([ruleset.agent_id(n) for n in names], dtype=np.int8)


def act_batch(env: BatchEnv, agents: str | list[str], out: np.ndarray | None = None) -> np.ndarray:
    """Actions for every game of a BatchEnv from the ruleset's numba baselines, in one
    kernel call. `agents` is one agent name for every seat, or one name per seat."""
    rs = env.ruleset
    seat_agents = seat_agent_ids(rs, agents, env.num_players)
    refuse_search_agents(rs, [agents] if isinstance(agents, str) else agents, "act_batch")
    if out is None:
        out = np.zeros(env.num_envs, dtype=np.int64)
    with threads_for(env.num_envs):  # a small batch on the calling thread
        rs.act_batch(env.state, rs.tables_batch, env.masks, seat_agents, out)
    return out
