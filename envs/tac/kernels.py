"""Batch kernels: reset, step, masks and in-kernel self-play over many games at once.

Everything here loops over games with numba.prange; every game uses only its own state
row and its own RNG, so results do not depend on batch size or thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.core.jit import njit, njit_parallel
from envs.core.masks import write_mask
from envs.tac.actions import N_ACTIONS
from envs.tac.observe import observe
from envs.tac.setup import reset_game
from envs.tac.state import STAGE_GAME_OVER
from envs.tac.turn import advance, apply_action, legal_actions


@njit
def reset_one(S, tb, b, seed, game_index, buf):
    reset_game(S, tb, b, seed, game_index)  # ends in the deployment stage (2.2)
    return advance(S, tb, b, buf)


# Parallel kernels hand each thread chunks of CHUNK games, so the scratch list of legal
# actions is allocated once per chunk rather than once per game and step.
CHUNK = 64


@njit
def reset_and_mask(S, tba, b, seed, game_index, mask_row, buf):
    """reset_one + its mask with the tables as a 1-element array (numba cannot pass a
    record into a parallel loop body, so parallel kernels call these array-only helpers)."""
    write_mask(mask_row, buf, reset_one(S, tba[0], b, seed, game_index, buf))


@njit
def step_one(S, tba, b, a, mask_row, buf):
    write_mask(mask_row, buf, apply_action(S, tba[0], b, a, buf))


@njit
def observe_one(S, tba, b, me, out):
    observe(S, tba[0], b, me, out)


@njit
def fill_mask(S, tb, b, mask_row, buf):
    mask_row[:] = 0
    if S["stage"][b] == STAGE_GAME_OVER:
        return
    n = legal_actions(S, tb, b, buf)
    for i in range(n):
        mask_row[buf[i]] = 1


@njit_parallel
def reset_batch(S, tba, seed, game_indices, masks):
    """Parallel kernels take the tables as a 1-element record array `tba` and use tba[0]
    inside the loop (numba cannot pass a record into a parallel loop body)."""
    B = game_indices.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)  # one int64 signature for every callee (see envs/core/jit.py)
        buf = np.empty(N_ACTIONS, dtype=np.int16)
        for b in range(c * CHUNK, min(B, (c + 1) * CHUNK)):
            reset_and_mask(S, tba, b, seed, game_indices[b], masks[b], buf)


@njit_parallel
def check_actions(S, masks, actions):
    """Index of the first game whose action is not legal, or -1 (nothing is changed)."""
    B = actions.shape[0]
    bad = np.full(B, False)
    for bi in prange(B):
        b = np.int64(bi)
        a = actions[b]
        if S["stage"][b] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or masks[b, a] == 0:
            bad[b] = True
    for b in range(B):
        if bad[b]:
            return b
    return -1


@njit
def report_if_over(S, b, rewards, terminated, final_vp, final_length):
    """A game that has ended reports its rewards, victory points and length in row b."""
    if S["stage"][b] == STAGE_GAME_OVER:
        terminated[b] = True
        rewards[b, :] = S["rewards"][b, :]
        final_vp[b, :] = S["victory_points"][b, :]
        final_length[b] = S["decisions"][b]


@njit_parallel
def step_batch(S, tba, actions, masks, rewards, terminated, final_vp, final_length):
    """Apply one legal action per game; games that end report rewards and stay over."""
    B = actions.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)  # one int64 signature for every callee (see envs/core/jit.py)
        buf = np.empty(N_ACTIONS, dtype=np.int16)
        for b in range(c * CHUNK, min(B, (c + 1) * CHUNK)):
            rewards[b, :] = 0.0
            terminated[b] = False
            step_one(S, tba, b, actions[b], masks[b], buf)
            report_if_over(S, b, rewards, terminated, final_vp, final_length)


@njit_parallel
def autoreset_batch(S, tba, seed, terminated, next_index, masks):
    """Start a new game in every finished slot; game indices follow slot order, so a seed's
    sequence of games is fixed by the batch size and the actions alone."""
    B = terminated.shape[0]
    new_index = np.full(B, -1, dtype=np.int64)
    nxt = next_index
    for b in range(B):
        if terminated[b]:
            new_index[b] = nxt
            nxt += 1
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)  # one int64 signature for every callee (see envs/core/jit.py)
        buf = np.empty(N_ACTIONS, dtype=np.int16)
        for b in range(c * CHUNK, min(B, (c + 1) * CHUNK)):
            if new_index[b] >= 0:
                reset_and_mask(S, tba, b, seed, new_index[b], masks[b], buf)
    return nxt


@njit_parallel
def observe_batch(S, tba, players, out):
    """Observation of players[b] in game b, for every b."""
    for bi in prange(players.shape[0]):
        b = np.int64(bi)
        observe_one(S, tba, b, players[b], out[b])


@njit
def aec_step(S, tba, a, mask_row):
    """Game 0 of a batch of one: apply a legal action, refresh the mask.

    Returns 1 if the action is illegal (nothing changed), 2 if the game is now over, else 0
    (envs.core.aec's AEC_ILLEGAL / AEC_GAME_OVER / AEC_OK)."""
    if S["stage"][0] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or mask_row[a] == 0:
        return 1
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    b = np.int64(0)  # not the literal 0: that would compile every callee once more
    write_mask(mask_row, buf, apply_action(S, tba[0], b, a, buf))
    return 2 if S["stage"][0] == STAGE_GAME_OVER else 0


@njit
def aec_observe(S, tba, me, out):
    observe(S, tba[0], np.int64(0), me, out)
