"""Tactics David's kernels: one game (`start`, `legal`, `apply`) and the contract's batch
kernels over many games (envs/core/ruleset.py), as TACTICA's (envs/tactica/kernels.py).

`tb` is the tables record (record.build_record), `tba` the same as a 1-element record array
(the contract's tables); `out`/`buf` an int64 buffer of actions.MAX_LEGAL. The batch kernels
are serial loops over games ``first, first + step, ...`` that envs.core.threads.over_games
runs on every thread (no parallel=True: compile time, docs/adding_a_ruleset.md). Every game
uses only its own state row and its own RNGs, so results do not depend on batch size or
thread count.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.threads import over_games
from envs.tactics_david import turn
from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS, STAGE_GAME_OVER
from envs.tactics_david.observe import observe
from envs.tactics_david.setup import reset_game
from envs.tactics_david.state import (
    MAX_MEMBERS,
    MAX_PROFILE_SLOTS,
    MAX_UNITS,
    N_PLAYERS,
    N_UNIT_IDS,
)
from envs.tactics_david.units import seat_scores

# --- one game ----------------------------------------------------------------------------------


@njit_inline
def count_army(S, b: int) -> None:
    """S["army_bought"][b]: the units each seat bought, by units.yaml row (members of a
    Stacked Unit each count), from the armies the reset bought."""
    for p in range(N_PLAYERS):
        for i in range(MAX_PROFILE_SLOTS):
            S["army_bought"][b, p, i] = 0
    for u in range(N_UNIT_IDS):
        for m in range(MAX_MEMBERS):
            prof = S["unit_member"][b, u, m]
            if prof >= 0:
                S["army_bought"][b, u // MAX_UNITS, prof] += 1


@njit_inline
def write_score(S, tb, b: int) -> None:
    """Each seat's final score (state.py "score"): units.seat_scores, the Purchase Cost of its
    units in play or, with turn_score=kills, the enemy units it killed."""
    score = np.zeros(N_PLAYERS, dtype=np.int64)
    seat_scores(S, tb, b, score)
    for p in range(N_PLAYERS):
        S["score"][b, p] = score[p]


@njit
def start(S, tb, b, seed, game_index, out):
    """A new game in slot b from (seed, game_index) alone; its first decision's legal actions
    in out[:n] and n."""
    reset_game(S, tb, b, seed, game_index)
    count_army(S, b)
    for p in range(N_PLAYERS):
        S["score"][b, p] = 0
    # the reset asks a real decision (the roll-off winner's STAGE_FIRST), so no forced step
    # follows it: start links only the reset and the legal-action tree, not the whole rules
    return turn.legal_actions(S, tb, b, out)


# the legal actions of game b's decision into out[:n]; n (0 once the game is over): the turn
# function itself, not a wrapper that would link the legal-action tree into a module again
legal = turn.legal_actions


@njit
def apply(S, tb, b, a, out):
    """Apply legal action a to game b and advance; the next decision's legal actions in
    out[:n] and n. A game that ends here gets its scores (write_score)."""
    n = turn.step(S, tb, b, a, out)
    if S["stage"][b] == STAGE_GAME_OVER:
        write_score(S, tb, b)
    return n


# --- masks -------------------------------------------------------------------------------------


@njit_inline
def write_mask(mask_row, buf, n):
    """The mask of the n legal actions listed in buf (all zero when n is 0: game over)."""
    for i in range(mask_row.shape[0]):
        mask_row[i] = 0
    for i in range(n):
        mask_row[buf[i]] = 1


@njit
def fill_mask(S, tb, b, mask_row, buf):
    """The mask of game b computed from its state alone (the contract's legal_mask)."""
    write_mask(mask_row, buf, legal(S, tb, b, buf))


@njit
def report_if_over(S, b, rewards, terminated, final_score, final_length):
    """A game that has ended reports its rewards, scores and length in row b."""
    if S["stage"][b] == STAGE_GAME_OVER:
        terminated[b] = True
        for s in range(rewards.shape[1]):  # element by element: no slice-copy error path
            rewards[b, s] = S["rewards"][b, s]
            final_score[b, s] = S["score"][b, s]
        final_length[b] = S["decisions"][b]


# --- the contract's batch kernels --------------------------------------------------------------


@njit
def reset_slots(first, step, S, tba, seed, new_index, masks):
    """A new game new_index[b] in every slot b >= 0 of first, first + step, ... (the one kernel
    behind reset_batch and autoreset_batch)."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    tb = tba[0]
    for b in range(first, new_index.shape[0], step):
        if new_index[b] >= 0:
            write_mask(masks[b], buf, start(S, tb, np.int64(b), seed, new_index[b], buf))


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
def step_games(first, step, S, tba, actions, masks, rewards, terminated, final_score, final_length):
    """Apply one legal action in each game first, first + step, ...; games that end report
    rewards and stay over."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    tb = tba[0]
    for b in range(first, actions.shape[0], step):
        for s in range(rewards.shape[1]):
            rewards[b, s] = 0.0
        terminated[b] = False
        n = apply(S, tb, np.int64(b), np.int64(actions[b]), buf)
        write_mask(masks[b], buf, n)
        report_if_over(S, b, rewards, terminated, final_score, final_length)


def step_batch(S, tba, actions, masks, rewards, terminated, final_score, final_length):
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
        final_score,
        final_length,
    )


def autoreset_batch(S, tba, seed, terminated, next_index, masks):
    """Start a new game in every finished slot; game indices follow slot order. Returns the
    next index."""
    finished = np.flatnonzero(terminated)
    if finished.size == 0:
        return next_index
    new_index = np.full(terminated.shape[0], -1, dtype=np.int64)
    new_index[finished] = next_index + np.arange(finished.size, dtype=np.int64)
    _reset(S, tba, seed, new_index, masks)
    return int(next_index + finished.size)


@njit
def observe_games(first, step, S, tba, players, out):
    tb = tba[0]
    for b in range(first, players.shape[0], step):
        observe(S, tb, np.int64(b), np.int64(players[b]), out[b])


def observe_batch(S, tba, players, out):
    """Observation of players[b] in game b, for every b."""
    over_games(observe_games, players.shape[0], S, tba, players, out)


@njit
def aec_step(S, tba, a, mask_row):
    """Game 0 of a batch of one: apply a legal action, refresh the mask. Returns 1 if the
    action is illegal (nothing changed), 2 if the game is now over, else 0."""
    if S["stage"][0] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or mask_row[a] == 0:
        return 1
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    write_mask(mask_row, buf, apply(S, tba[0], np.int64(0), np.int64(a), buf))
    return 2 if S["stage"][0] == STAGE_GAME_OVER else 0


@njit
def aec_observe(S, tba, me, out):
    observe(S, tba[0], np.int64(0), np.int64(me), out)
