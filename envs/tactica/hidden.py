"""What a TACTICA player cannot know: one determinisation kernel (as envs/tac/hidden.py).

`determinize(S, tb, b, me, rng)` turns game b into another state that player `me` cannot tell
apart from it (same `observe`, and, when `me` decides, the same legal actions):

- the opponent's Barracks (TT-B.5.2: secret, its size public) is redrawn, together with the
  opponent's two face-down piles, from the pool of the opponent's cards `me` has not seen:
  each pile keeps its (public) size and takes only cards of its own kind (TT-B.5.1), the
  Barracks takes the rest. While `me` picks a card for a Spy (STAGE_SPY_PICK) the opponent's
  Barracks is shown to `me` (TT-B.4.5): it stays, and only the piles' orders are redrawn;
- `me`'s own piles are reordered (TT-B.5.1: face down, their order hidden from the owner
  too; their contents are known: every other card of `me`'s is seen by `me`);
- the rules and agent RNG words are drawn afresh (future shuffles are hidden from everyone).

The card a Mustering action has chosen by name (S["muster_card"], still in the Barracks
during STAGE_MUSTER_HEX / STAGE_TRAIN_TROOP) is public and stays. Pools are sorted before
the shuffle, so the world drawn depends only on what `me` knows, never on where the cards
really are (the information-set search may then rely on it, as TAC's does).

Reading left open by the brief: the Barracks snapshot a decree showed (hand_shown /
shown_counts) is public and stays in the state, but the opponent's current Barracks is
redrawn without regard to it (a player who remembers the snapshot knows more than this
sampler assumes; the observation and the legal actions are unchanged either way).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import next_u64, shuffle_prefix
from envs.tactica.actions import STAGE_SPY_PICK
from envs.tactica.state import N_DRAW_PILES, PLACE_BARRACKS
from envs.tactica.tables import MAX_ARMY_CARDS


@njit
def _fresh_words(rng, words, b):
    """Both words of game b's generator `words` drawn from `rng` (never the all-zero state)."""
    words[b, 0] = next_u64(rng, 0)
    words[b, 1] = next_u64(rng, 0) | np.uint64(1)


@njit
def _reorder_pile(S, b, p, k, rng):
    """Player p's pile k in a fresh order (sorted first: the result ignores the old order)."""
    n = S["pile_count"][b, p, k]
    if n > 1:
        S["pile"][b, p, k, :n] = np.sort(S["pile"][b, p, k, :n])
        shuffle_prefix(rng, 0, S["pile"][b, p, k], n)


@njit_inline
def _redraw_unseen(S, tb, b, p, rng):
    """Player p's Barracks (less a chosen muster card) and both piles, redrawn together."""
    base = p * MAX_ARMY_CARDS
    pinned = np.int64(S["muster_card"][b])
    pool = np.empty(MAX_ARMY_CARDS, dtype=np.int8)
    m = 0
    for k in range(tb.n_army_cards):
        c = base + k
        if S["card_place"][b, c] == PLACE_BARRACKS and c != pinned:
            pool[m] = c
            m += 1
    for k in range(N_DRAW_PILES):
        for j in range(S["pile_count"][b, p, k]):
            pool[m] = S["pile"][b, p, k, j]
            m += 1
    pool[:m] = np.sort(pool[:m])
    shuffle_prefix(rng, 0, pool, m)
    taken = np.zeros(m, dtype=np.bool_)
    # each pile keeps its size and takes the first cards of its kind in the new order
    for k in range(N_DRAW_PILES):
        filled = 0
        n = S["pile_count"][b, p, k]
        for j in range(m):
            if filled == n:
                break
            c = np.int64(pool[j])
            if not taken[j] and tb.card_pile[tb.army_card[c % MAX_ARMY_CARDS]] == k:
                taken[j] = True
                S["pile"][b, p, k, filled] = c
                S["card_place"][b, c] = k  # PLACE_TROOP_PILE / PLACE_TACTICS_PILE == k
                filled += 1
    for j in range(m):
        if not taken[j]:
            S["card_place"][b, pool[j]] = PLACE_BARRACKS


@njit
def determinize(S, tb, b, me, rng):
    """In place: game b becomes a state `me` cannot tell apart from it (module docstring).
    `rng` is a uint64[1, 2] generator (row 0) owned by the caller."""
    opp = 1 - me
    if S["stage"][b] == STAGE_SPY_PICK and S["current"][b] == me:
        for k in range(N_DRAW_PILES):  # the opponent's Barracks is in view (TT-B.4.5)
            _reorder_pile(S, b, opp, k, rng)
    else:
        _redraw_unseen(S, tb, b, opp, rng)
    for k in range(N_DRAW_PILES):
        _reorder_pile(S, b, me, k, rng)
    _fresh_words(rng, S["rng"], b)
    _fresh_words(rng, S["agent_rng"], b)


def _generator(rng: np.random.Generator) -> np.ndarray:
    return rng.integers(1, 2**63, size=(1, 2), dtype=np.uint64)


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator, tb) -> np.ndarray:
    """Another one-game state that `me` cannot tell apart from S (the contract's
    resample_hidden; S is a batch of one and is not changed). `tb` is Tables.arrays."""
    if me not in (0, 1):
        raise ValueError(f"me must be seat 0 or 1, got {me}")
    S = S.copy()
    determinize(S, tb, np.int64(0), np.int64(me), _generator(rng))
    return S
