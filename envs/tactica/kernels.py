"""TACTICA's batch kernels: the contract's reset, step, masks and observations over many
games at once (envs/core/ruleset.py), over the turn dispatcher (envs/tactica/turn.py).

The contract's kernels take the tables alone (`tba`, a 1-element record array); TACTICA's
battlefield geometry travels inside that record (the ``geo_*`` fields of
envs/tactica/tables.py), so `legal`, `apply` and `start` below hand the turn kernels the
record's geometry. The env's options are record fields too: ``game_advanced`` (the advanced
game, TT-A.0.1), ``battles_per_war`` (1 for a one-battle episode) and ``lost_at_start``
(varied armies for balance runs). One game is one episode: a war, or a single battle.

Every game uses only its own state row and its own RNGs, so results do not depend on batch
size or thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.core.jit import njit, njit_parallel
from envs.tactica import turn
from envs.tactica.actions import N_ACTIONS
from envs.tactica.observe import observe
from envs.tactica.piles import reset_war
from envs.tactica.state import STAGE_GAME_OVER

# Parallel kernels hand each thread chunks of CHUNK games, so the scratch list of legal
# actions is allocated once per chunk rather than once per game and step.
CHUNK = 64


# --- one game: the turn kernels with the record's geometry ------------------------------------


@njit
def legal(S, tb, b, out):
    """The legal actions of game b's decision into out[:n]; n (0 once the game is over)."""
    return turn.legal_actions(
        S,
        tb,
        tb.geo_neighbours,
        tb.geo_distance,
        tb.geo_wall_zone,
        tb.geo_lof_crossed,
        tb.geo_lof_edges,
        b,
        out,
    )


@njit
def apply(S, tb, b, a, out):
    """Apply legal action a to game b, advance to the next decision; returns its legal
    actions in out[:n] and n."""
    turn.apply_action(
        S,
        tb,
        tb.geo_neighbours,
        tb.geo_distance,
        tb.geo_wall_zone,
        tb.geo_lof_crossed,
        tb.geo_lof_edges,
        b,
        a,
    )
    # turn.legal_actions rather than legal(): one wrapper fewer to compile on the self-play
    # path (numba optimises each kernel with everything it calls linked in)
    return turn.legal_actions(
        S,
        tb,
        tb.geo_neighbours,
        tb.geo_distance,
        tb.geo_wall_zone,
        tb.geo_lof_crossed,
        tb.geo_lof_edges,
        b,
        out,
    )


@njit
def start(S, tb, b, seed, game_index, out):
    """A new episode in slot b from (seed, game_index) alone, in the options of `tb`; returns
    the first decision's legal actions in out[:n] and n."""
    S["advanced"][b] = tb.game_advanced
    reset_war(S, tb, b, seed, game_index)
    turn.advance(
        S,
        tb,
        tb.geo_neighbours,
        tb.geo_distance,
        tb.geo_wall_zone,
        tb.geo_lof_crossed,
        tb.geo_lof_edges,
        b,
    )
    return turn.legal_actions(  # as in apply()
        S,
        tb,
        tb.geo_neighbours,
        tb.geo_distance,
        tb.geo_wall_zone,
        tb.geo_lof_crossed,
        tb.geo_lof_edges,
        b,
        out,
    )


@njit
def battlefield_distance(S, tb, b):
    """The hex distances of the battlefield game b is fought on (agents read them)."""
    return tb.geo_distance[np.int64(S["battle"][b] - 1)]


# --- masks -------------------------------------------------------------------------------------


@njit
def write_mask(mask_row, buf, n):
    """The mask of the n legal actions listed in buf (all zero when n is 0: game over)."""
    mask_row[:] = 0
    for i in range(n):
        mask_row[buf[i]] = 1


@njit
def fill_mask(S, tb, b, mask_row, buf):
    """The mask of game b computed from its state alone (the contract's legal_mask)."""
    write_mask(mask_row, buf, legal(S, tb, b, buf))


@njit
def reset_and_mask(S, tba, b, seed, game_index, mask_row, buf):
    write_mask(mask_row, buf, start(S, tba[0], b, seed, game_index, buf))


@njit
def step_one(S, tba, b, a, mask_row, buf):
    write_mask(mask_row, buf, apply(S, tba[0], b, a, buf))


@njit
def report_if_over(S, b, rewards, terminated, final_points, final_length):
    """A game that has ended reports its rewards, war points and length in row b."""
    if S["stage"][b] == STAGE_GAME_OVER:
        terminated[b] = True
        rewards[b, :] = S["rewards"][b, :]
        final_points[b, :] = S["war_points"][b, :]
        final_length[b] = S["decisions"][b]


# --- the contract's batch kernels ----------------------------------------------------------------


@njit_parallel
def reset_slots(S, tba, seed, new_index, masks):
    """A new game new_index[b] in every slot b with new_index[b] >= 0 (the one parallel
    kernel behind reset_batch and autoreset_batch: the reset call tree is compiled once)."""
    B = new_index.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)  # one int64 signature for every callee (see envs/core/jit.py)
        buf = np.empty(N_ACTIONS, dtype=np.int16)
        for b in range(c * CHUNK, min(B, (c + 1) * CHUNK)):
            if new_index[b] >= 0:
                reset_and_mask(S, tba, b, np.int64(seed), new_index[b], masks[b], buf)


def reset_batch(S, tba, seed, game_indices, masks):
    """The contract's reset: game game_indices[b] in slot b."""
    reset_slots(S, tba, np.int64(seed), np.ascontiguousarray(game_indices, dtype=np.int64), masks)


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


@njit_parallel
def step_batch(S, tba, actions, masks, rewards, terminated, final_points, final_length):
    """Apply one legal action per game; games that end report rewards and stay over."""
    B = actions.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)
        buf = np.empty(N_ACTIONS, dtype=np.int16)
        for b in range(c * CHUNK, min(B, (c + 1) * CHUNK)):
            rewards[b, :] = 0.0
            terminated[b] = False
            step_one(S, tba, b, np.int64(actions[b]), masks[b], buf)
            report_if_over(S, b, rewards, terminated, final_points, final_length)


def autoreset_batch(S, tba, seed, terminated, next_index, masks):
    """Start a new game in every finished slot; game indices follow slot order (so a seed's
    sequence of games is fixed by the batch size and the actions alone). Returns the next
    index."""
    finished = np.flatnonzero(terminated)
    if finished.size == 0:
        return next_index
    new_index = np.full(terminated.shape[0], -1, dtype=np.int64)
    new_index[finished] = next_index + np.arange(finished.size, dtype=np.int64)
    reset_slots(S, tba, np.int64(seed), new_index, masks)
    return int(next_index + finished.size)


@njit
def observe_one(S, tba, b, me, out):
    observe(S, tba[0], b, np.int64(me), out)


@njit_parallel
def observe_batch(S, tba, players, out):
    """Observation of players[b] in game b, for every b."""
    for bi in prange(players.shape[0]):
        b = np.int64(bi)
        observe_one(S, tba, b, players[b], out[b])


@njit
def aec_step(S, tba, a, mask_row):
    """Game 0 of a batch of one: apply a legal action, refresh the mask. Returns 1 if the
    action is illegal (nothing changed), 2 if the game is now over, else 0."""
    if S["stage"][0] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or mask_row[a] == 0:
        return 1
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    step_one(S, tba, np.int64(0), np.int64(a), mask_row, buf)
    return 2 if S["stage"][0] == STAGE_GAME_OVER else 0


@njit
def aec_observe(S, tba, me, out):
    observe_one(S, tba, np.int64(0), me, out)
