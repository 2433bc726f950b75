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

from envs.core.jit import njit
from envs.core.masks import write_mask
from envs.core.threads import over_games
from envs.tactics_david import turn
from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS, STAGE_GAME_OVER
from envs.tactics_david.observe import observe
from envs.tactics_david.setup import reset_game
from envs.tactics_david.state import (
    MAX_MEMBERS,
    MAX_PROFILE_SLOTS,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_PLAYERS,
    N_UNIT_IDS,
)
from envs.tactics_david.units import seat_scores

# --- one game ----------------------------------------------------------------------------------


@njit
def count_army(S, tb, b: int) -> None:
    """S["army_bought"][b]: the units each seat bought, by units.yaml row (members of a
    Stacked Unit each count), then its Items (n_profiles + items.yaml row), from the armies
    the reset bought (every Item on a unit then is a bought copy, R141)."""
    for p in range(N_PLAYERS):
        for i in range(MAX_PROFILE_SLOTS):
            S["army_bought"][b, p, i] = 0
    for u in range(N_UNIT_IDS):
        for m in range(MAX_MEMBERS):
            prof = S["unit_member"][b, u, m]
            if prof >= 0:
                S["army_bought"][b, u // MAX_UNITS, prof] += 1
        for s in range(N_ITEM_SLOTS):
            i = S["unit_item"][b, u, s]
            if i >= 0:
                S["army_bought"][b, u // MAX_UNITS, tb.n_profiles + i] += 1


@njit
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
    count_army(S, tb, b)
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


# One kernel behind reset, step and the AEC step (run_games' mode): each @njit function that
# reaches the rules tree links it into its own module, and LLVM optimises and emits the whole
# tree again there, so every start-up path (batch: reset + step; AEC: reset + step) compiles
# the tree once in run_games instead of once per kernel (docs/adding_a_ruleset.md, "Habits
# that keep compile time bounded").
MODE_RESET = 0  # a new game new_index[b] in every slot b >= 0 (scalar: the seed)
MODE_STEP = 1  # one legal action index[b] in every game; games that end report
MODE_AEC = 2  # game 0 of a batch of one: check and apply action `scalar` (aec_step)
AEC_OK, AEC_ILLEGAL, AEC_GAME_OVER = 0, 1, 2  # envs/core/aec.py's codes (it imports PettingZoo)


@njit
def run_games(
    first, step, mode, S, tba, scalar, index, masks, rewards, terminated, final_score, final_length
):
    """MODE_RESET: a new game index[b] (from seed `scalar`) in every slot b >= 0 of first,
    first + step, ...; MODE_STEP: apply the legal action index[b] in each of those games, and
    games that end report rewards and stay over; MODE_AEC: game 0, action `scalar`: returns
    AEC_ILLEGAL (nothing changed), AEC_GAME_OVER or AEC_OK. The report arrays are written
    only in MODE_STEP."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    tb = tba[0]
    a = np.int64(scalar)
    if mode == MODE_AEC and (
        S["stage"][0] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or masks[0, a] == 0
    ):
        return AEC_ILLEGAL
    # MODE_AEC: index is a batch of one (game 0)
    for b in range(first, index.shape[0], step):
        if mode == MODE_RESET:
            if index[b] >= 0:
                write_mask(masks[b], buf, start(S, tb, np.int64(b), scalar, index[b], buf))
            continue
        if mode == MODE_STEP:
            a = np.int64(index[b])
            for s in range(rewards.shape[1]):
                rewards[b, s] = 0.0
            terminated[b] = False
        # the one call site of apply: the rules tree is typed once in this kernel
        write_mask(masks[b], buf, apply(S, tb, np.int64(b), a, buf))
        if mode == MODE_STEP:
            report_if_over(S, b, rewards, terminated, final_score, final_length)
    if mode == MODE_AEC and S["stage"][0] == STAGE_GAME_OVER:
        return AEC_GAME_OVER
    return AEC_OK


# the report arrays of the modes that write none (BatchEnv's dtypes: one signature)
_NO_REWARDS = np.zeros((1, N_PLAYERS), dtype=np.float32)
_NO_TERMINATED = np.zeros(1, dtype=np.bool_)
_NO_SCORE = np.zeros((1, N_PLAYERS), dtype=np.int16)
_NO_LENGTH = np.zeros(1, dtype=np.int32)
_NO_INDEX = np.zeros(1, dtype=np.int64)
_ZERO, _ONE, _MODE_AEC = np.int64(0), np.int64(1), np.int64(MODE_AEC)


def _reset(S, tba, seed, new_index, masks):
    over_games(
        run_games,
        new_index.shape[0],
        np.int64(MODE_RESET),
        S,
        tba,
        np.int64(seed),
        new_index,
        masks,
        _NO_REWARDS,
        _NO_TERMINATED,
        _NO_SCORE,
        _NO_LENGTH,
    )


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


def step_batch(S, tba, actions, masks, rewards, terminated, final_score, final_length):
    """The contract's step: one legal action per game, on every thread."""
    over_games(
        run_games,
        actions.shape[0],
        np.int64(MODE_STEP),
        S,
        tba,
        np.int64(0),
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


def aec_step(S, tba, a, mask_row):
    """Game 0 of a batch of one: apply a legal action, refresh the mask (run_games, MODE_AEC).
    Returns AEC_ILLEGAL if the action is illegal (nothing changed), AEC_GAME_OVER if the game
    is now over, else AEC_OK."""
    # the scalars are module constants and `a` a plain int (typed as int64 like them): the
    # conversions cost a microsecond of a ~15 us AEC step
    return run_games(
        _ZERO,
        _ONE,
        _MODE_AEC,
        S,
        tba,
        int(a),
        _NO_INDEX,
        mask_row.reshape(1, -1),
        _NO_REWARDS,
        _NO_TERMINATED,
        _NO_SCORE,
        _NO_LENGTH,
    )


@njit
def aec_observe(S, tba, me, out):
    observe(S, tba[0], np.int64(0), np.int64(me), out)


# --- one game from Python (tests, tools) -------------------------------------------------------
# start and apply are called by run_games and play_games. Called from Python, each would be
# compiled as a kernel of its own, with the whole rules tree typed, linked and emitted once
# more (tens of seconds of a cold test run). These two go through run_games instead.


def _batch_of(tb) -> np.ndarray:
    """The batch of one that the tables record tb was taken from (tba[0])."""
    tba = tb.base
    if not isinstance(tba, np.ndarray) or tba.shape != (1,) or tba.dtype != tb.dtype:
        raise ValueError("tb must be the record of a tables batch of one (tba[0])")
    return tba


def start_one(S, tb, b, seed, game_index, out) -> int:
    """`start` for slot b alone: a new game (seed, game_index); its first decision's legal
    actions in out[:n] and n."""
    B = S.shape[0]
    index = np.full(B, -1, dtype=np.int64)
    index[b] = game_index
    masks = np.zeros((B, N_ACTIONS), dtype=np.int8)
    tba = _batch_of(tb)
    run_games(
        np.int64(b), np.int64(B), np.int64(MODE_RESET), S, tba, np.int64(seed), index, masks,
        _NO_REWARDS, _NO_TERMINATED, _NO_SCORE, _NO_LENGTH,
    )  # fmt: skip
    return int(legal(S, tb, np.int64(b), out))


def apply_one(S, tb, b, a, out) -> int:
    """`apply` for slot b alone (a must be legal: not checked, as in apply); the next
    decision's legal actions in out[:n] and n (0 once the game is over)."""
    B = S.shape[0]
    index = np.zeros(B, dtype=np.int64)
    index[b] = a
    masks = np.zeros((B, N_ACTIONS), dtype=np.int8)
    run_games(
        np.int64(b), np.int64(B), np.int64(MODE_STEP), S, _batch_of(tb), np.int64(0), index,
        masks, np.zeros((B, N_PLAYERS), dtype=np.float32), np.zeros(B, dtype=np.bool_),
        np.zeros((B, N_PLAYERS), dtype=np.int16), np.zeros(B, dtype=np.int32),
    )  # fmt: skip
    return int(legal(S, tb, np.int64(b), out))
