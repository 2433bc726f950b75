"""TAC self-play inside numba: each game played start to end by one thread (the contract's
play_chunk, envs/core/ruleset.py).

Seat s of game g is played by agent position (s + g) % n_agents of the run's agent list,
so with agents A,B each agent plays every seat equally often across consecutive games. The
kernel records the position (what the run's records name), and plays the agent id there.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.tac.baselines import choose_from_legal
from envs.core.jit import njit, njit_parallel
from envs.core.ruleset import ChunkResults
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import reset_one
from envs.tac.state import MAX_PLAYERS, STAGE_GAME_OVER
from envs.tac.turn import apply_action


@njit
def play_one_game(S, tba, i, seed, g, agent_ids, seat_agent):
    """Game g in slot i to the end (tables as a 1-element array: see kernels.reset_batch)."""
    tb = tba[0]
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    n_agents = agent_ids.shape[0]
    n_legal = reset_one(S, tb, i, seed, g, buf)
    P = S["num_players"][i]
    for s in range(MAX_PLAYERS):
        seat_agent[i, s] = (s + g) % n_agents if s < P else -1
    while S["stage"][i] != STAGE_GAME_OVER:
        agent = agent_ids[seat_agent[i, S["current"][i]]]
        a = choose_from_legal(S, tb, i, agent, buf, n_legal)
        n_legal = apply_action(S, tb, i, np.int64(a), buf)


@njit_parallel
def play_games(
    S,
    tba,
    seed,
    game_indices,
    agent_ids,
    seat_agent,
    out_winner,
    out_vp,
    out_rewards,
    out_length,
    out_rounds,
    out_dealt,
):
    """Play games game_indices[i] in state slot i. S must hold len(game_indices) games."""
    n = game_indices.shape[0]
    U = out_dealt.shape[2]
    for ii in prange(n):
        i = np.int64(ii)
        play_one_game(S, tba, i, seed, game_indices[i], agent_ids, seat_agent)
        P = S["num_players"][i]
        out_winner[i] = S["winner"][i]
        for s in range(P):
            out_vp[i, s] = S["victory_points"][i, s]
            out_rewards[i, s] = S["rewards"][i, s]
            for u in range(U):
                out_dealt[i, s, u] = S["dealt"][i, s, u]
        out_length[i] = S["decisions"][i]
        out_rounds[i] = min(S["round"][i], 127)


def play_chunk(
    S: np.ndarray, tba: np.ndarray, seed: int, game_indices: np.ndarray, agent_ids: np.ndarray
) -> ChunkResults:
    """Whole games game_indices in the first len(game_indices) slots of S."""
    n = len(game_indices)
    n_units = int(tba[0].n_unit_types)
    res = ChunkResults.empty(n, MAX_PLAYERS, n_units)
    play_games(
        S[:n],
        tba,
        seed,
        np.ascontiguousarray(game_indices, dtype=np.int64),
        np.ascontiguousarray(agent_ids, dtype=np.int8),
        res.seat_agent,
        res.winner,
        res.score,
        res.rewards,
        res.length,
        res.rounds,
        res.force,
    )
    return res
