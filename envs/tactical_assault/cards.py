"""Decks, hands and discard piles (FC Golden Rules "Playing & Discarding", "Recycling";
Table 1 "Shuffle Deck", "Draw Hand", "Replenish Hand"; PART V Step 5 "Reveal Combat Results").

Every card of a player is in exactly one place (state.py: card_place); the deck's order is
deck[p, 0:deck_count[p]], top last.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import shuffle_prefix
from envs.tactical_assault.state import (
    PLACE_DECK,
    PLACE_DISCARD,
    PLACE_HAND,
)


@njit
def shuffle_deck(S, tb, b, p):
    """Every card of p into p's deck, shuffled (Table 1 "Shuffle Deck")."""
    n = np.int64(tb.n_cards)
    for k in range(n):
        S["deck"][b, p, k] = k
        S["card_place"][b, p, k] = PLACE_DECK
        S["card_new"][b, p, k] = 0
    S["deck_count"][b, p] = n
    shuffle_prefix(S["rng"], b, S["deck"][b, p], n)


@njit
def hand_count(S, tb, b, p):
    n = 0
    for k in range(tb.n_cards):
        if S["card_place"][b, p, k] == PLACE_HAND:
            n += 1
    return n


@njit
def take_top(S, tb, b, p):
    """Take the top card of p's deck (returns its id; its place is the caller's to set).
    An empty deck is first rebuilt from the discard pile, shuffled (Recycling, R17); -1 if
    there is no card at all."""
    if S["deck_count"][b, p] == 0:
        n = 0
        for k in range(tb.n_cards):
            if S["card_place"][b, p, k] == PLACE_DISCARD:
                S["deck"][b, p, n] = k
                S["card_place"][b, p, k] = PLACE_DECK
                n += 1
        if n == 0:
            return -1
        S["deck_count"][b, p] = n
        S["reshuffles"][b, p] += 1
        shuffle_prefix(S["rng"], b, S["deck"][b, p], n)
    top = np.int64(S["deck_count"][b, p]) - 1
    k = np.int64(S["deck"][b, p, top])
    S["deck"][b, p, top] = -1
    S["deck_count"][b, p] = top
    return k


@njit
def replenish(S, tb, b, p):
    """Draw back up to the hand size; the cards drawn are marked new ("May Play Newly
    Acquired Situations")."""
    for k in range(tb.n_cards):
        S["card_new"][b, p, k] = 0
    n = hand_count(S, tb, b, p)
    while n < tb.hand_size:
        k = take_top(S, tb, b, p)
        if k < 0:
            return
        S["card_place"][b, p, k] = PLACE_HAND
        S["card_new"][b, p, k] = 1
        n += 1


@njit
def flip(S, tb, b, p):
    """Reveal the top card of p's deck for a Combat Result; it goes to the discard pile
    (PART V Step 5). Returns the card's Combat Result code (No Effect if p has no card)."""
    k = take_top(S, tb, b, p)
    if k < 0:
        return 0
    S["card_place"][b, p, k] = PLACE_DISCARD
    return np.int64(tb.card_result[k])
