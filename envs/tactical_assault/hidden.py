"""What a Tactical Assault player cannot know: `resample_hidden` (the contract's; the shared
hidden-information test, tests/platform/test_platform_hidden_info.py).

`resample_hidden(S, me, rng, tb)` returns a copy of a one-game state that player `me` cannot
tell apart from it (the same observation and render; when `me` decides, the same legal
actions), FC R34 and LB R23:

- the opponent's hand and deck are redealt from the pool of the opponent's cards `me` has not
  seen (hand and deck together; the hand keeps its size, the deck its size, in a fresh order).
  The card part the opponent chose to play (S["sel_card"], still in the hand while its unit is
  asked) is face up and stays. As many of the new hand's cards as before are marked newly
  drawn (that count follows from the public discards);
- `me`'s own deck is reordered (its order is hidden from its owner too; its contents are not:
  every other card of `me`'s is in a place `me` sees);
- while forces are chosen by points (STAGE_CHOOSE_FORCE) the units the opponent chose so far are
  redrawn: as many units (slots are shared: their number decides whether a unit still fits),
  each a type the opponent may choose, within the opponent's points;
- the rules and agent RNG words are drawn afresh (future shuffles are hidden from everyone).

Pools are sorted before they are shuffled, so the state drawn depends only on what `me` knows.
Python and numpy: it serves the test and the tools, no kernel calls it.
"""

from __future__ import annotations

import numpy as np

from envs.tactical_assault.actions import STAGE_CHOOSE_FORCE
from envs.tactical_assault.state import MAX_UNITS, PLACE_DECK, PLACE_HAND


def _fresh_words(rng: np.random.Generator) -> np.ndarray:
    w = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    w[1] |= np.uint64(1)
    return w


def _redeal(S: np.ndarray, tb, opp: int, rng: np.random.Generator) -> None:
    """The opponent's hand (less a chosen card) and deck, redealt together."""
    n = int(tb.n_cards)
    places = S["card_place"][0, opp, :n]
    pinned = int(S["sel_card"][0]) if int(S["current"][0]) == opp else -1
    hand = [k for k in np.flatnonzero(places == PLACE_HAND) if k != pinned]
    deck_n = int(S["deck_count"][0, opp])
    pool = np.sort(np.array(hand + list(np.flatnonzero(places == PLACE_DECK)), dtype=np.int64))
    n_new = int(sum(S["card_new"][0, opp, k] for k in hand))
    rng.shuffle(pool)
    new_hand, new_deck = pool[: len(hand)], pool[len(hand) :]
    assert len(new_deck) == deck_n
    for k in pool:
        S["card_new"][0, opp, k] = 0
    S["card_place"][0, opp, new_hand] = PLACE_HAND
    S["card_new"][0, opp, new_hand[rng.permutation(len(new_hand))[:n_new]]] = 1
    S["card_place"][0, opp, new_deck] = PLACE_DECK
    S["deck"][0, opp, :] = -1
    S["deck"][0, opp, :deck_n] = new_deck


def _reorder_deck(S: np.ndarray, p: int, rng: np.random.Generator) -> None:
    n = int(S["deck_count"][0, p])
    deck = np.sort(S["deck"][0, p, :n].astype(np.int64))
    rng.shuffle(deck)
    S["deck"][0, p, :n] = deck


def _rechoose(S: np.ndarray, tb, opp: int, rng: np.random.Generator) -> None:
    """The opponent's units chosen by points so far, redrawn (same number, LB R23)."""
    slots = [u for u in range(int(tb.sc_n_units), MAX_UNITS) if int(S["unit_side"][0, u]) == opp]
    if not slots:
        return
    points = np.asarray(tb.type_points, dtype=np.int64)
    allowed = np.flatnonzero(np.asarray(tb.sc_allowed[opp]) != 0)
    cheapest = int(points[allowed].min())
    fixed = int(S["points_total"][0, opp]) - sum(int(points[S["unit_type"][0, u]]) for u in slots)
    left = int(tb.sc_force_points[opp]) - fixed
    for i, u in enumerate(slots):
        still = len(slots) - i - 1  # units after this one, at least the cheapest each
        fits = allowed[points[allowed] <= left - still * cheapest]
        t = int(rng.choice(fits))
        old = int(S["unit_type"][0, u])
        S["force"][0, opp, old] -= 1
        S["force"][0, opp, t] += 1
        S["unit_type"][0, u] = t
        left -= int(points[t])
    S["points_total"][0, opp] = int(tb.sc_force_points[opp]) - left


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator, tb) -> np.ndarray:
    """Another one-game state that `me` cannot tell apart from S (module docstring; S is a
    batch of one and is not changed). `tb` is the tables record (tables.as_tb)."""
    if me not in (0, 1):
        raise ValueError(f"me must be seat 0 or 1, got {me}")
    S = S.copy()
    opp = 1 - me
    _redeal(S, tb, opp, rng)
    _reorder_deck(S, me, rng)
    if int(S["stage"][0]) == STAGE_CHOOSE_FORCE:
        _rechoose(S, tb, opp, rng)
    S["rng"][0] = _fresh_words(rng)
    S["agent_rng"][0] = _fresh_words(rng)
    return S
