"""Tactical Assault's batch kernels: the contract's reset, step, masks and observations over
many games at once (envs/core/ruleset.py), over the turn dispatcher (turn.py).

Both rulesets (Legendary Battles, Fantasy Cards) run these same compiled kernels: everything
that differs between them (the ground, the forces, the victory conditions) is data of the
tables record `tba` (a 1-element record array, tables.py), never a branch or a type. Kernels
are keyed in numba's cache by this package (envs/core/jit.py), so the second ruleset loads
what the first compiled.

Every game uses only its own state row and its own RNGs, so results do not depend on batch
size or thread count. Batch kernels are serial loops over games first, first + step, ... run
on threads by envs.core.threads.over_games (docs/adding_a_ruleset.md).
"""

from __future__ import annotations

import threading

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.masks import write_mask
from envs.core.threads import over_games
from envs.tactical_assault import turn
from envs.tactical_assault.actions import N_ACTIONS, STAGE_GAME_OVER
from envs.tactical_assault.flow import reset_game
from envs.tactical_assault.observe import observe
from envs.tactical_assault.state import N_PLAYERS

# --- one game ----------------------------------------------------------------------------------


@njit_inline
def apply(S, tb, b, a, out):
    """Apply legal action a to game b, advance to the next decision; returns its legal
    actions in out[:n] and n (0 once the game is over)."""
    turn.apply_action(S, tb, b, a)
    return turn.legal_actions(S, tb, b, out)


@njit_inline
def start(S, tb, b, seed, game_index, out):
    """A new game in slot b from (seed, game_index) alone; returns the first decision's legal
    actions in out[:n] and n."""
    reset_game(S, tb, b, seed, game_index)
    return turn.legal_actions(S, tb, b, out)


# --- masks -------------------------------------------------------------------------------------


@njit
def fill_mask(S, tb, b, mask_row, buf):
    """The mask of game b computed from its state alone (the contract's legal_mask)."""
    write_mask(mask_row, buf, turn.legal_actions(S, tb, b, buf))


@njit
def report_if_over(S, b, rewards, terminated, final_score, final_length):
    """A game that has ended reports its rewards, score and length in row b."""
    if S["stage"][b] == STAGE_GAME_OVER:
        terminated[b] = True
        # element by element: a slice copy compiles numba's shape-mismatch error path
        for s in range(rewards.shape[1]):
            rewards[b, s] = S["rewards"][b, s]
            final_score[b, s] = S["score"][b, s]
        final_length[b] = S["decisions"][b]


# --- the contract's batch kernels ----------------------------------------------------------------

MODE_RESET = 0  # run_games: index[b] >= 0 starts game index[b] in slot b (others untouched)
MODE_STEP = 1  # run_games: index[b] is the (legal) action of game b
_ZERO, _ONE, _MODE_STEP = np.int64(0), np.int64(1), np.int64(MODE_STEP)


@njit
def run_games(
    first, step, S, tba, mode, seed, index, masks, rewards, terminated, final_score, final_length
):
    """The one kernel behind reset_batch, autoreset_batch, step_batch and aec_step, over games
    first, first + step, ...: MODE_RESET starts game index[b] in every slot b with
    index[b] >= 0; MODE_STEP applies action index[b] in every game b (games that end report
    rewards, score and length and stay over). One kernel, not one per operation: each numba
    entry point links and compiles the whole rules tree again (legal_actions under reset and
    step alike), so a separate reset kernel cost the BatchEnv and AEC paths ~4 s of cold
    compile (benchmarks/results/compile_legendary_battles_batch_*)."""
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    tb = tba[0]
    for b in range(first, index.shape[0], step):
        i = np.int64(b)
        if mode == MODE_RESET:
            if index[b] >= 0:
                write_mask(masks[b], buf, start(S, tb, i, seed, index[b], buf))
            continue
        for s in range(rewards.shape[1]):
            rewards[b, s] = 0.0
        terminated[b] = False
        write_mask(masks[b], buf, apply(S, tb, i, np.int64(index[b]), buf))
        report_if_over(S, i, rewards, terminated, final_score, final_length)


def _outcome_rows(n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """rewards, terminated, final_score, final_length rows for n games, of BatchEnv's dtypes
    (envs/core/batch.py), so that every caller of run_games shares its one signature."""
    return (
        np.zeros((n, N_PLAYERS), dtype=np.float32),
        np.zeros(n, dtype=np.bool_),
        np.zeros((n, N_PLAYERS), dtype=np.int16),
        np.zeros(n, dtype=np.int32),
    )


def _reset(S, tba, seed, new_index, masks):
    over_games(
        run_games,
        new_index.shape[0],
        S,
        tba,
        np.int64(MODE_RESET),
        np.int64(seed),
        new_index,
        masks,
        *_outcome_rows(0),
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
        S,
        tba,
        np.int64(MODE_STEP),
        np.int64(0),
        np.ascontiguousarray(actions, dtype=np.int64),
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


_aec_scratch = threading.local()  # per thread: the action slot and write-only outcome rows


def aec_step(S, tba, a, mask_row):
    """Game 0 of a batch of one: apply a legal action, refresh the mask. Returns 1 if the
    action is illegal (nothing changed), 2 if the game is now over, else 0. The step itself
    is run_games' (one compiled rules tree for reset and step, on the AEC path too); its
    arguments are kept per thread, so a step allocates nothing (AEC steps/s)."""
    a = int(a)
    if S["stage"][0] == STAGE_GAME_OVER or a < 0 or a >= N_ACTIONS or mask_row[a] == 0:
        return 1
    scratch = getattr(_aec_scratch, "args", None)
    if scratch is None:
        scratch = _aec_scratch.args = (np.zeros(1, dtype=np.int64), *_outcome_rows(1))
    scratch[0][0] = a
    run_games(
        _ZERO, _ONE, S, tba, _MODE_STEP, _ZERO, scratch[0], mask_row.reshape(1, -1), *scratch[1:]
    )
    return 2 if S["stage"][0] == STAGE_GAME_OVER else 0


@njit
def aec_observe(S, tba, me, out):
    observe(S, tba[0], np.int64(0), np.int64(me), out)
