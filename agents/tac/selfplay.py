"""TAC self-play inside numba: each game played start to end by one thread.

`play_games` fills one result row per game. Seat s of game g is played by
seat_agents[(s + g) % len(seat_agents)], so with agents A,B each agent plays every seat
equally often across consecutive games.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.tac.baselines import choose_from_legal
from envs.core.jit import njit, njit_parallel
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import reset_one
from envs.tac.state import MAX_PLAYERS, STAGE_GAME_OVER
from envs.tac.turn import apply_action


@njit
def play_one_game(S, tba, i, seed, g, agents, out_agents):
    """Game g in slot i to the end (tables as a 1-element array: see kernels.reset_batch)."""
    tb = tba[0]
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    n_agents = agents.shape[0]
    n_legal = reset_one(S, tb, i, seed, g, buf)
    P = S["num_players"][i]
    for s in range(MAX_PLAYERS):
        out_agents[i, s] = agents[(s + g) % n_agents] if s < P else -1
    while S["stage"][i] != STAGE_GAME_OVER:
        a = choose_from_legal(S, tb, i, out_agents[i, S["current"][i]], buf, n_legal)
        n_legal = apply_action(S, tb, i, a, buf)


@njit_parallel
def play_games(
    S,
    tba,
    seed,
    game_indices,
    agents,
    out_agents,
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
        play_one_game(S, tba, i, seed, game_indices[i], agents, out_agents)
        P = S["num_players"][i]
        out_winner[i] = S["winner"][i]
        for s in range(P):
            out_vp[i, s] = S["victory_points"][i, s]
            out_rewards[i, s] = S["rewards"][i, s]
            for u in range(U):
                out_dealt[i, s, u] = S["dealt"][i, s, u]
        out_length[i] = S["decisions"][i]
        out_rounds[i] = min(S["round"][i], 127)


class GameResults:
    """Result arrays for a chunk of games (numpy, one row per game)."""

    def __init__(self, n: int, n_unit_types: int):
        self.agents = np.full((n, MAX_PLAYERS), -1, dtype=np.int8)
        self.winner = np.zeros(n, dtype=np.int8)
        self.victory_points = np.zeros((n, MAX_PLAYERS), dtype=np.int16)
        self.rewards = np.zeros((n, MAX_PLAYERS), dtype=np.float32)
        self.length = np.zeros(n, dtype=np.int32)
        self.rounds = np.zeros(n, dtype=np.int8)
        self.dealt = np.zeros((n, MAX_PLAYERS, n_unit_types), dtype=np.int8)


def run_chunk(S, tba, seed: int, game_indices: np.ndarray, agents: np.ndarray, n_unit_types: int):
    res = GameResults(len(game_indices), n_unit_types)
    play_games(
        S,
        tba,
        seed,
        game_indices,
        agents,
        res.agents,
        res.winner,
        res.victory_points,
        res.rewards,
        res.length,
        res.rounds,
        res.dealt,
    )
    return res
