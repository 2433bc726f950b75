"""TAC baseline agents, the same logic from numba (self-play) and from Python (AEC env).

Agent ids used inside kernels: AGENT_RANDOM, AGENT_HEURISTIC. `AGENTS` maps CLI names to ids.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.tac.heuristic import heuristic_action, heuristic_from_legal
from envs.core.jit import njit, njit_parallel
from envs.core.rng import randint
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import CHUNK
from envs.tac.state import STAGE_GAME_OVER
from envs.tac.turn import random_from_legal, random_legal_action

AGENT_RANDOM = 0
AGENT_HEURISTIC = 1
AGENTS = {"random": AGENT_RANDOM, "heuristic": AGENT_HEURISTIC}


@njit
def choose_action(S, tb, b, agent, buf):
    """Action of agent id `agent` for the current decision of game b."""
    if agent == AGENT_HEURISTIC:
        return heuristic_action(S, tb, b, buf)
    return random_legal_action(S, tb, b, buf)


@njit
def choose_from_legal(S, tb, b, agent, buf, n):
    """As choose_action, when buf already holds the n legal actions."""
    if agent == AGENT_HEURISTIC:
        return heuristic_from_legal(S, tb, b, buf, n)
    return random_from_legal(S, b, buf, n)


def agent_id(name: str) -> int:
    if name not in AGENTS:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(AGENTS))}")
    return AGENTS[name]


class TacKernelAgent:
    """A numba agent driving a tac_v1 AEC env (reads the env's full state, acts for the
    current player only through what the rules allow it to know: both baselines use only
    public information and their own hand)."""

    def __init__(self, name: str):
        self.name = name
        self.id = agent_id(name)
        self._buf = np.empty(N_ACTIONS, dtype=np.int16)

    def act(self, env) -> int:
        raw = env.unwrapped
        return int(choose_action(raw.state_arrays, raw.ruleset.tables, 0, self.id, self._buf))


class MaskedRandomAgent:
    """Uniform over the action mask of an observation (any ruleset), seeded."""

    def __init__(self, seed: int | None = None):
        self.rng = np.random.default_rng(seed)

    def act_on_mask(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        if legal.size == 0:
            raise ValueError("no legal action in the mask")
        return int(self.rng.choice(legal))


@njit
def random_from_mask(S, b, mask_row):
    """Uniform among the legal actions of a mask row, drawn from game b's agent RNG: the
    k-th set entry for k uniform in [0, count). Reads the mask the env already holds instead
    of listing the legal actions again."""
    count = 0
    for a in range(mask_row.shape[0]):
        count += mask_row[a]
    k = randint(S["agent_rng"], b, count)
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit
def _act_in_slots(S, tba, masks, first, last, seat_agents, out):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    tb = tba[0]
    for b in range(first, last):
        if S["stage"][b] != STAGE_GAME_OVER:
            agent = seat_agents[S["current"][b]]
            if agent == AGENT_RANDOM:
                out[b] = random_from_mask(S, b, masks[b])
            else:
                out[b] = choose_action(S, tb, b, agent, buf)


@njit_parallel
def batch_actions(S, tba, masks, seat_agents, out):
    """The action of every game's current player, seat s played by agent seat_agents[s]
    (draws from each game's own agent RNG, so results do not depend on the batch). The
    random agent picks from the env's masks; its choices follow mask order, so they differ
    from the in-kernel self-play random agent's (both uniform over the legal actions)."""
    B = S.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)
        _act_in_slots(S, tba, masks, c * CHUNK, min(B, (c + 1) * CHUNK), seat_agents, out)


def act_batch(env, agents: str | list[str], out: np.ndarray | None = None) -> np.ndarray:
    """Actions for every game of a tac_v1.BatchEnv from numba baselines, in one kernel call.

    `agents` is one agent name for every seat, or one name per seat.
    """
    names = [agents] * env.num_players if isinstance(agents, str) else list(agents)
    if len(names) != env.num_players:
        raise ValueError(f"need one agent per seat ({env.num_players}), got {len(names)}")
    seat_agents = np.array([agent_id(n) for n in names], dtype=np.int8)
    if out is None:
        out = np.zeros(env.num_envs, dtype=np.int64)
    batch_actions(env.state, env.tables.arrays_batch, env.masks, seat_agents, out)
    return out
