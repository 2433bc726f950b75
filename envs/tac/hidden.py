"""What a TAC player cannot know: one determinisation kernel, used twice.

`determinize(S, tb, b, me, rng)` turns game b into another state that player `me` cannot tell
apart from it, as another deal consistent with everything public: other players' hands are
shuffled together with the draw pile (2.4: face down), other players' face-down defences
change type among black cards (10.8: the defender need not reveal them), the reinforcement
piles are reordered below their face-up top cards (2.1), during the deployment other
players' placed units move to other rows (2.2: hidden until all have deployed), and the dice
and agent RNG states are drawn afresh (the future dice are hidden from everyone).

Users: the contract's `resample_hidden(S, me, rng)` (the shared hidden-information test checks
that `me`'s observation, action mask and render do not change) and the information-set search
agent (agents/tac/mcts.py), which samples the worlds it searches with it, so the test of the
one is a test of what the other may see.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import next_u64, randint, shuffle_prefix
from envs.tac.state import (
    DEF_FACE_DOWN,
    HAND_SLOTS,
    MAX_DECK,
    MAX_DEFENCES,
    MAX_PLAYERS,
    MAX_TEAM,
    N_ROWS,
    STAGE_DEPLOY,
)
from envs.tac.tables import BLACK

# pool slot kinds
_HAND, _DRAW = 0, 1


@njit
def _fresh_words(rng, words, b):
    """Both words of game b's generator `words` drawn from `rng` (never the all-zero state)."""
    words[b, 0] = next_u64(rng, 0)
    words[b, 1] = next_u64(rng, 0) | np.uint64(1)


@njit
def resample_deployment_rows(S, b, me, rng):
    """Every other player's deployed units go to other rows (2.2: hidden until all have
    deployed); a seat that has finished deploying keeps compact rows (0, 1, ... used)."""
    P = S["num_players"][b]
    for q in range(P):
        if q == me:
            continue
        used = np.zeros(N_ROWS, dtype=np.bool_)
        for t in range(MAX_TEAM):
            if S["team_type"][b, q, t] >= 0 and S["deployed"][b, q, t]:
                r = randint(rng, 0, N_ROWS)
                S["team_row"][b, q, t] = r
                used[r] = True
        if q != S["current"][b]:  # finished: close up the rows, keeping their order
            rank = np.zeros(N_ROWS, dtype=np.int8)
            k = 0
            for r in range(N_ROWS):
                rank[r] = k
                if used[r]:
                    k += 1
            for t in range(MAX_TEAM):
                if S["team_type"][b, q, t] >= 0 and S["deployed"][b, q, t]:
                    S["team_row"][b, q, t] = rank[S["team_row"][b, q, t]]


@njit
def determinize(S, tb, b, me, rng):
    """In place: game b becomes a state `me` cannot tell apart from it (module docstring).
    `rng` is a uint64[1, 2] generator (row 0) owned by the caller."""
    P = S["num_players"][b]
    # the pool: other players' hand cards, the draw pile and others' face-down defences
    n_slots = MAX_PLAYERS * HAND_SLOTS + MAX_DECK
    slot_kind = np.empty(n_slots, dtype=np.int8)
    slot_a = np.empty(n_slots, dtype=np.int64)
    slot_b = np.empty(n_slots, dtype=np.int64)
    pool = np.empty(n_slots + MAX_PLAYERS * MAX_DEFENCES, dtype=np.int8)
    n = 0
    for q in range(P):
        if q == me:
            continue
        for h in range(HAND_SLOTS):
            if S["hand"][b, q, h] >= 0:
                slot_kind[n] = _HAND
                slot_a[n] = q
                slot_b[n] = h
                pool[n] = S["hand"][b, q, h]
                n += 1
    for i in range(S["draw_count"][b]):
        slot_kind[n] = _DRAW
        slot_a[n] = i
        slot_b[n] = 0
        pool[n] = S["draw"][b, i]
        n += 1
    m = n
    for q in range(P):
        if q == me:
            continue
        for d in range(MAX_DEFENCES):
            if S["defence_state"][b, q, d] == DEF_FACE_DOWN and not S["defence_revealed"][b, q, d]:
                pool[m] = S["defence_card"][b, q, d]
                m += 1
    # sorted first, so that the world drawn depends only on what `me` knows (which cards
    # are unseen), never on where they really are: the search's choices then depend on the
    # information set alone (tests/agents/test_tac_mcts.py checks it)
    pool[:m] = np.sort(pool[:m])
    shuffle_prefix(rng, 0, pool, m)
    # face-down defences take black cards (any of them: their type is hidden); the rest of
    # the pool fills the hands and the draw pile in its new order
    taken = np.zeros(m, dtype=np.bool_)
    for q in range(P):
        if q == me:
            continue
        for d in range(MAX_DEFENCES):
            if S["defence_state"][b, q, d] == DEF_FACE_DOWN and not S["defence_revealed"][b, q, d]:
                for j in range(m):
                    if not taken[j] and tb.card_type_colour[tb.card_type[pool[j]]] == BLACK:
                        taken[j] = True
                        S["defence_card"][b, q, d] = pool[j]
                        break
    k = 0
    for j in range(m):
        if taken[j]:
            continue
        if slot_kind[k] == _HAND:
            S["hand"][b, slot_a[k], slot_b[k]] = pool[j]
        else:
            S["draw"][b, slot_a[k]] = pool[j]
        k += 1
    # reinforcement piles: only the top card is face up (2.1)
    for cat in range(2):
        c = S["pile_count"][b, cat]
        if c > 2:
            S["pile"][b, cat, : c - 1] = np.sort(S["pile"][b, cat, : c - 1])
            shuffle_prefix(rng, 0, S["pile"][b, cat], c - 1)
    if S["stage"][b] == STAGE_DEPLOY:
        resample_deployment_rows(S, b, me, rng)
    _fresh_words(rng, S["rng"], b)
    _fresh_words(rng, S["agent_rng"], b)


def _generator(rng: np.random.Generator) -> np.ndarray:
    words = rng.integers(1, 2**63, size=(1, 2), dtype=np.uint64)
    return words


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator, tb) -> np.ndarray:
    """Another one-game state that `me` cannot tell apart from S (the contract's
    resample_hidden; S is a batch of one and is not changed)."""
    S = S.copy()
    determinize(S, tb, np.int64(0), np.int64(me), _generator(rng))
    return S


def resample_deployment(S: np.ndarray, me: int, rng: np.random.Generator) -> None:
    """In place, game 0: only the deployment rows part of the determinisation."""
    resample_deployment_rows(S, np.int64(0), np.int64(me), _generator(rng))
