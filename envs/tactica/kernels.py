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

from envs.core.jit import njit, njit_inline
from envs.core.masks import write_mask
from envs.core.threads import over_games
from envs.tactica import turn
from envs.tactica.actions import N_ACTIONS
from envs.tactica.observe import observe
from envs.tactica.piles import reset_war
from envs.tactica.state import STAGE_GAME_OVER

# --- one game: the turn kernels with the record's geometry ------------------------------------


@njit_inline
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


@njit_inline
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


@njit_inline
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


@njit_inline
def fill_mask(S, tb, b, mask_row, buf):
    """The mask of game b computed from its state alone (the contract's legal_mask)."""
    write_mask(mask_row, buf, legal(S, tb, b, buf))


@njit_inline
def reset_and_mask(S, tba, b, seed, game_index, mask_row, buf):
    write_mask(mask_row, buf, start(S, tba[0], b, seed, game_index, buf))


@njit_inline
def step_one(S, tba, b, a, mask_row, buf):
    write_mask(mask_row, buf, apply(S, tba[0], b, a, buf))


@njit
def report_if_over(S, b, rewards, terminated, final_points, final_length):
    """A game that has ended reports its rewards, war points and length in row b."""
    if S["stage"][b] == STAGE_GAME_OVER:
        terminated[b] = True
        # element by element: a slice copy compiles numba's shape-mismatch error path (1.6 s)
        for s in range(rewards.shape[1]):
            rewards[b, s] = S["rewards"][b, s]
            final_points[b, s] = S["war_points"][b, s]
        final_length[b] = S["decisions"][b]


# --- the contract's batch kernels ----------------------------------------------------------------


@njit
def reset_slots(first, step, S, tba, seed, new_index, masks):
    """A new game new_index[b] in every slot b >= 0 of first, first + step, ... with
    new_index[b] >= 0 (the one kernel behind reset_batch and autoreset_batch: the reset call
    tree is compiled once; envs.core.threads.over_games runs it on every thread)."""
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    for b in range(first, new_index.shape[0], step):
        if new_index[b] >= 0:
            reset_and_mask(S, tba, b, seed, new_index[b], masks[b], buf)


def _reset(S, tba, seed, new_index, masks):
    over_games(reset_slots, new_index.shape[0], S, tba, np.int64(seed), new_index, masks)


def reset_batch(S, tba, seed, game_indices, masks):
    """The contract's reset: game game_indices[b] in slot b."""
    _reset(S, tba, seed, np.ascontiguousarray(game_indices, dtype=np.int64), masks)


@njit
def check_actions(S, masks, actions):
    """Index of the first game whose action is not legal, or -1 (nothing is changed)."""
    for b in range(actions.shape[0]):
        a = actions[b]
        if S["stage"][b] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or masks[b, a] == 0:
            return b
    return -1


@njit
def step_games(
    first, step, S, tba, actions, masks, rewards, terminated, final_points, final_length
):
    """Apply one legal action in each game first, first + step, ...; games that end report
    rewards and stay over."""
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    for b in range(first, actions.shape[0], step):
        rewards[b, :] = 0.0
        terminated[b] = False
        step_one(S, tba, b, np.int64(actions[b]), masks[b], buf)
        report_if_over(S, b, rewards, terminated, final_points, final_length)


def step_batch(S, tba, actions, masks, rewards, terminated, final_points, final_length):
    """The contract's step: one legal action per game, on every thread."""
    over_games(
        step_games,
        actions.shape[0],
        S,
        tba,
        actions,
        masks,
        rewards,
        terminated,
        final_points,
        final_length,
    )


def autoreset_batch(S, tba, seed, terminated, next_index, masks):
    """Start a new game in every finished slot; game indices follow slot order (so a seed's
    sequence of games is fixed by the batch size and the actions alone). Returns the next
    index."""
    finished = np.flatnonzero(terminated)
    if finished.size == 0:
        return next_index
    new_index = np.full(terminated.shape[0], -1, dtype=np.int64)
    new_index[finished] = next_index + np.arange(finished.size, dtype=np.int64)
    _reset(S, tba, seed, new_index, masks)
    return int(next_index + finished.size)


@njit_inline
def observe_one(S, tba, b, me, out):
    observe(S, tba[0], b, np.int64(me), out)


@njit
def observe_games(first, step, S, tba, players, out):
    for b in range(first, players.shape[0], step):
        observe_one(S, tba, b, players[b], out[b])


def observe_batch(S, tba, players, out):
    """Observation of players[b] in game b, for every b."""
    over_games(observe_games, players.shape[0], S, tba, players, out)


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
