"""TACTICA's in-kernel agents (ids used inside kernels): AGENT_RANDOM (uniform over the
legal actions, surrender included), AGENT_RANDOM_FIGHTER (the same, never surrendering) and
AGENT_HEURISTIC (agents/tactica/heuristic.py). Both
draw from the game's own agent RNG S["agent_rng"], so a war does not depend on the batch.
`AGENTS` maps CLI names to ids, as agents/tac/baselines.py does for TAC."""

from __future__ import annotations

import numpy as np

from agents.tactica.heuristic import heuristic_from_legal
from envs.core.jit import njit
from envs.core.rng import randint
from envs.tactica import turn
from envs.tactica.actions import A_SURRENDER

AGENT_RANDOM = 0
AGENT_HEURISTIC = 1
# uniform over the legal actions but never surrenders: a random player that offers the
# heuristic more than free battles (random surrenders about half the times it is asked)
AGENT_RANDOM_FIGHTER = 2
AGENTS = {
    "random": AGENT_RANDOM,
    "heuristic": AGENT_HEURISTIC,
    "random_fighter": AGENT_RANDOM_FIGHTER,
}


@njit
def choose_from_legal(S, distance, b, agent, buf, n) -> int:
    """Action of agent id `agent` when buf[:n] holds game b's legal actions (n > 0);
    `distance` is the battle's hex distance table."""
    if agent == AGENT_HEURISTIC:
        return heuristic_from_legal(S, distance, b, buf, n)
    if agent == AGENT_RANDOM_FIGHTER and n > 1 and buf[n - 1] == A_SURRENDER:
        n -= 1  # the legal list is increasing: surrender, the last action, is left out
    return np.int64(buf[randint(S["agent_rng"], b, n)])


@njit
def choose_action(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b, agent, buf):
    """Action of agent id `agent` for game b's current decision (geometry stacked by
    battle, Tables.battlefield); -1 when no decision is asked (the war is over)."""
    n = turn.legal_actions(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b, buf)
    if n == 0:
        return np.int64(-1)
    bf = np.int64(S["battle"][b] - 1)
    return choose_from_legal(S, distance[bf], b, agent, buf, n)
