"""Whole-state invariants of a TACTICA game, checked after every decision of random games
(the contract's check_state and fuzz, envs/core/ruleset.py).

`check_invariants(S, tb, b)` returns OK (0) or the code of the first invariant game b breaks;
`random_games_check` plays many random games on every thread (envs.core.threads; the game's own
agent RNG picks a uniform legal action, surrender only 1 time in 100 it is offered, so
battles are fought rather than forfeited) and checks every decision.

| code                    | invariant (rules doc clause) |
|-------------------------|------------------------------|
| 1-10 (CARD_CODES)       | every used draw card in exactly one place, pointers in step (piles.conservation_error: TT-B.5, hostages TT-B.5.5, LOST TT-B.5.4) |
| 11-16 (FEATURE_CODES)   | walls, landmarks, spire and summon each in one place, one thing per hex (piles.feature_error: TT-B.2.4-2.7, TT-A.10) |
| INV_FLOW                | stage, seat, battle, turn in range; a decision asked has a legal action (TT-B.7.0) |
| INV_LOST_RETURNED       | a card or feature LOST stays LOST for the rest of the war (TT-B.5.4, TT-B.9.2) |
| INV_WAR_POINTS          | war points = the points of the battles each seat won (TT-B.9.1) |
| INV_RESULT              | at the end: winner and rewards follow TT-B.9.1 (more war points, else the last battle) |
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import randint
from envs.core.threads import over_games
from envs.tactica import kernels
from envs.tactica.actions import A_SURRENDER, N_ACTIONS
from envs.tactica.piles import (
    CONSERVATION_ERRORS,
    FEATURE_ERRORS,
    conservation_error,
    feature_error,
)
from envs.tactica.resolution import war_winner
from envs.tactica.state import (
    MAX_LANDMARK_CARDS,
    MAX_WALLS,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_LOST,
    STAGE_GAME_OVER,
    STAGE_PHASE_DONE,
    STAGE_SETUP,
)

OK = 0
FEATURE_OFFSET = len(CONSERVATION_ERRORS) - 1  # feature codes follow the card codes
INV_FLOW = FEATURE_OFFSET + len(FEATURE_ERRORS)
INV_LOST_RETURNED = INV_FLOW + 1
INV_WAR_POINTS = INV_FLOW + 2
INV_RESULT = INV_FLOW + 3
N_CODES = INV_FLOW + 4
CODE_NAMES = (
    ("ok",)
    + tuple("cards: " + n for n in CONSERVATION_ERRORS[1:])
    + tuple("features: " + n for n in FEATURE_ERRORS[1:])
    + ("flow", "a LOST card came back", "war points", "result")
)
# how often the fuzzer's random player takes a surrender it is offered (1 in SURRENDER_ODDS)
SURRENDER_ODDS = 100


@njit
def lost_count(S, b):
    """Draw cards, walls and landmark cards in the LOST piles of game b (both seats)."""
    n = 0
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] == PLACE_LOST:
            n += 1
    for p in range(N_PLAYERS):
        for w in range(MAX_WALLS):
            n += S["wall_lost"][b, p, w]
        for j in range(MAX_LANDMARK_CARDS):
            n += S["landmark_lost"][b, p, j]
    return n


@njit
def check_invariants(S, tb, b, n_legal):
    """OK or the first broken invariant's code (module docstring) for game b, whose decision
    has n_legal legal actions (kernels.legal; the fuzzer has them from kernels.apply)."""
    code = conservation_error(S, tb, b)
    if code != 0:
        return code
    code = feature_error(S, tb, b)
    if code != 0:
        return FEATURE_OFFSET + code
    stage = S["stage"][b]
    battle = S["battle"][b]
    if battle < 1 or battle > tb.battles_per_war or S["current"][b] < 0:
        return INV_FLOW
    if S["current"][b] >= N_PLAYERS or S["turn"][b] < 0:
        return INV_FLOW
    if stage == STAGE_SETUP or stage == STAGE_PHASE_DONE:
        return INV_FLOW  # advance never leaves a game between decisions
    if stage != STAGE_GAME_OVER and n_legal == 0:
        return INV_FLOW
    points = np.zeros(N_PLAYERS, dtype=np.int64)
    for k in range(tb.battles_per_war):
        r = S["battle_result"][b, k]
        if r >= 0:
            points[r] += tb.battle_points[k]
    for p in range(N_PLAYERS):
        if points[p] != S["war_points"][b, p]:
            return INV_WAR_POINTS
    if stage == STAGE_GAME_OVER:
        w = war_winner(S, tb, b)
        if S["winner"][b] != w:
            return INV_RESULT
        for p in range(N_PLAYERS):
            expected = 0.0 if w < 0 else (1.0 if p == w else -1.0)
            if S["rewards"][b, p] != expected:
                return INV_RESULT
    elif S["winner"][b] != -1 or S["rewards"][b, 0] != 0.0 or S["rewards"][b, 1] != 0.0:
        return INV_RESULT
    return OK


@njit_inline
def random_action(S, b, buf, n):
    """Uniform over buf[:n], a surrender taken only 1 time in SURRENDER_ODDS."""
    a = buf[randint(S["agent_rng"], b, n)]
    if a == A_SURRENDER and n > 1 and randint(S["agent_rng"], b, SURRENDER_ODDS) != 0:
        a = buf[randint(S["agent_rng"], b, n - 1)]  # surrender is the last legal action
    return np.int64(a)


@njit
def _check_one(S, tb, i, seed, g, codes, at, buf):
    n = kernels.start(S, tb, i, seed, g, buf)
    lost = lost_count(S, i)
    code = check_invariants(S, tb, i, n)
    while code == OK and S["stage"][i] != STAGE_GAME_OVER:
        n = kernels.apply(S, tb, i, random_action(S, i, buf, n), buf)
        now = lost_count(S, i)
        code = INV_LOST_RETURNED if now < lost else check_invariants(S, tb, i, n)
        lost = now
        if S["decisions"][i] > 1_000_000:
            code = INV_FLOW  # a runaway game
    codes[i] = code
    at[i] = S["decisions"][i]


@njit
def check_games(first, step, S, tba, seed, first_game, codes, at):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    for i in range(first, S.shape[0], step):
        _check_one(S, tba[0], i, seed, first_game + i, codes, at, buf)


def random_games_check(S, tba, seed, first_game, codes, at):
    """Games first_game.. of `seed` played at random in the slots of S, every decision
    checked: codes[i] (OK or the first broken code), at[i] (decisions played); on every
    thread (envs.core.threads)."""
    over_games(check_games, S.shape[0], S, tba, np.int64(seed), np.int64(first_game), codes, at)


def run_random_games(
    tba: np.ndarray, n_games: int, seed: int = 0, chunk: int = 2048, progress=None
) -> tuple[np.ndarray, tuple[int, int] | None, int]:
    """Play games 0..n_games-1 of `seed` at random with every decision checked, in the
    options of the tables record `tba`. Returns (games broken per code: int64[N_CODES],
    first failing (game index, decision) or None, total decisions played)."""
    from envs.tactica.state import allocate

    counts = np.zeros(N_CODES, dtype=np.int64)
    first: tuple[int, int] | None = None
    decisions = 0
    S = allocate(min(chunk, n_games))
    done = 0
    while done < n_games:
        B = min(chunk, n_games - done)
        codes = np.zeros(B, dtype=np.int8)
        at = np.zeros(B, dtype=np.int32)
        random_games_check(S[:B], tba, seed, done, codes, at)
        counts += np.bincount(codes, minlength=N_CODES).astype(np.int64)
        bad = np.flatnonzero(codes != OK)
        if first is None and bad.size:
            first = (done + int(bad[0]), int(at[bad[0]]))
        decisions += int(at.sum())
        done += B
        if progress is not None:
            progress(B)
    counts[OK] = 0
    return counts, first, decisions
