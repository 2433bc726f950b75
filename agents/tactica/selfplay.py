"""TACTICA whole-war self-play inside numba: each war played start to end by one thread
(the shape of the contract's play_chunk, envs/core/ruleset.py).

Seat s of war g is played by agent position (s + g) % n_agents of the run's agent list (as
TAC's agents/tac/selfplay.py), so with agents A,B each plays both seats equally often over
consecutive wars; the kernel records the position and plays the agent id there. A war is
reset from (seed, game index) alone (piles.reset_war), so it is the same war at any batch
size or thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.tactica.baselines import choose_from_legal
from envs.core.jit import njit, njit_parallel
from envs.core.ruleset import ChunkResults
from envs.tactica import turn
from envs.tactica.actions import N_ACTIONS
from envs.tactica.piles import reset_war
from envs.tactica.state import N_PLAYERS, STAGE_GAME_OVER
from envs.tactica.tables import load_tables

# decisions after which a war is stopped as a runaway (a kernel bug: the rules end every
# war far sooner); such a war is reported with length -1
MAX_DECISIONS = 100_000


@njit
def play_one_war(
    S,
    tba,
    neighbours,
    distance,
    wall_zone,
    lof_crossed,
    lof_edges,
    i,
    seed,
    g,
    agent_ids,
    seat_agent,
):
    """War g in slot i to the end; S["advanced"][i] is set by the caller. The tables come
    as a 1-element array (a record cannot cross numba's parallel loop boundary)."""
    tb = tba[0]
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    n_agents = agent_ids.shape[0]
    reset_war(S, tb, i, seed, g)
    for s in range(N_PLAYERS):
        seat_agent[i, s] = (s + g) % n_agents
    turn.advance(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, i)
    for _ in range(MAX_DECISIONS):
        if S["stage"][i] == STAGE_GAME_OVER:
            return True
        n = turn.legal_actions(
            S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, i, buf
        )
        if n == 0:
            return False
        bf = np.int64(S["battle"][i] - 1)
        agent = agent_ids[seat_agent[i, S["current"][i]]]
        a = choose_from_legal(S, distance[bf], i, agent, buf, n)
        turn.apply_action(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, i, a)
    return False


@njit_parallel
def play_wars(
    S,
    tba,
    neighbours,
    distance,
    wall_zone,
    lof_crossed,
    lof_edges,
    seed,
    game_indices,
    agent_ids,
    seat_agent,
    out_winner,
    out_points,
    out_rewards,
    out_decisions,
    out_battles,
):
    """Play wars game_indices[i] in state slot i (S holds len(game_indices) games; the tables
    as a 1-element record array, as numba's parallel loops take them). Per war:
    winner seat (-1 drawn), war points, rewards, decisions (-1: stopped, a kernel bug) and
    battles fought."""
    n = game_indices.shape[0]
    for ii in prange(n):
        i = np.int64(ii)
        ok = play_one_war(
            S,
            tba,
            neighbours,
            distance,
            wall_zone,
            lof_crossed,
            lof_edges,
            i,
            seed,
            game_indices[i],
            agent_ids,
            seat_agent,
        )
        out_winner[i] = S["winner"][i]
        for s in range(N_PLAYERS):
            out_points[i, s] = S["war_points"][i, s]
            out_rewards[i, s] = S["rewards"][i, s]
        out_decisions[i] = S["decisions"][i] if ok else -1
        out_battles[i] = S["battle"][i]


_TABLES = None


def _tables():
    global _TABLES
    if _TABLES is None:
        _TABLES = load_tables()
    return _TABLES


def play_chunk(
    S: np.ndarray,
    seed: int,
    game_indices: np.ndarray,
    agent_ids: np.ndarray,
    advanced: bool = False,
) -> ChunkResults:
    """Whole wars game_indices in the first len(game_indices) slots of S (basic or
    advanced game). ChunkResults: score = war points, rounds = battles fought, length =
    decisions; force is empty (TACTICA has no per-war force count yet)."""
    n = len(game_indices)
    if S.shape[0] < n:
        raise ValueError(f"state holds {S.shape[0]} games, fewer than the {n} wars asked")
    agent_ids = np.ascontiguousarray(agent_ids, dtype=np.int8)
    if agent_ids.ndim != 1 or len(agent_ids) == 0:
        raise ValueError(f"agent_ids must list at least one agent id, got {agent_ids!r}")
    t = _tables()
    geo = t.battlefield
    res = ChunkResults.empty(n, N_PLAYERS, 0)
    S["advanced"][:n] = advanced
    play_wars(
        S[:n],
        t.arrays_batch,
        geo.neighbours,
        geo.distance,
        geo.wall_zone,
        geo.lof_crossed,
        geo.lof_edges,
        np.int64(seed),
        np.ascontiguousarray(game_indices, dtype=np.int64),
        agent_ids,
        res.seat_agent,
        res.winner,
        res.score,
        res.rewards,
        res.length,
        res.rounds,
    )
    return res
