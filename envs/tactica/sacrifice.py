"""TACTICA sacrifices: paying the pair (docs/rules/tactica.md TT-A.11.6, TT-A.11.10, R18, R36),
shared by every chapter with a sacrifice (Movement: Burrow; Combat: Aegis, Tempest, Devour).

A chapter offers a sacrifice as A_SACRIFICE + x, then asks STAGE_SACRIFICE_PAIR (A_CARD + name:
which pair pays) only when two card names could pay, and calls pay_pair with the name.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactica.actions import A_CARD
from envs.tactica.piles import move_card
from envs.tactica.state import MAX_ARMY_CARDS, PLACE_BARRACKS, PLACE_LOST, PLACE_RESUPPLY
from envs.tactica.tables import MAX_CARDS

STAGE_SACRIFICE_PAIR = 42  # which pair pays the sacrifice (Movement's 40-49 block, shared)


@njit
def pair_names(S, tb, b: int, p: int, out: np.ndarray) -> int:
    """out[:n] = the card names of which p's Barracks holds a pair (TT-A.11.6), increasing."""
    counts = np.zeros(MAX_CARDS, dtype=np.int64)
    for k in range(tb.n_army_cards):
        if S["card_place"][b, p * MAX_ARMY_CARDS + k] == PLACE_BARRACKS:
            counts[tb.army_card[k]] += 1
    n = 0
    for name in range(tb.n_cards):
        if counts[name] >= 2:
            out[n] = name
            n += 1
    return np.int64(n)


@njit
def has_pair(S, tb, b: int, p: int) -> bool:
    """p's Barracks holds a pair to pay a sacrifice with (TT-A.11.6)."""
    names = np.zeros(MAX_CARDS, dtype=np.int64)
    return pair_names(S, tb, b, p, names) > 0


@njit
def sacrifice_allowed(S, tb, b: int, p: int) -> bool:
    """TT-A.11.10: p's summon has made fewer sacrifices this turn than allowed (one)."""
    return S["sacrifices_made"][b, p] < tb.sacrifices_per_summon_per_turn


@njit
def only_pair(S, tb, b: int, p: int) -> int:
    """The one card name that could pay p's sacrifice, or -1 if there are several (then the
    player chooses, R36: STAGE_SACRIFICE_PAIR)."""
    names = np.zeros(MAX_CARDS, dtype=np.int64)
    if pair_names(S, tb, b, p, names) > 1:
        return np.int64(-1)
    return np.int64(names[0])


@njit
def list_pairs(S, tb, b: int, p: int, out: np.ndarray) -> int:
    """STAGE_SACRIFICE_PAIR's legal actions: A_CARD + name of every pair, increasing."""
    names = np.zeros(MAX_CARDS, dtype=np.int64)
    k = pair_names(S, tb, b, p, names)
    for i in range(k):
        out[i] = A_CARD + names[i]
    return np.int64(k)


@njit
def pay_pair(S, tb, b: int, p: int, name: int) -> None:
    """TT-A.11.6 (R18): one card of the pair to LOST, the other to RESUPPLY; the sacrifice
    counts against p's summon for this turn (TT-A.11.10)."""
    paid = 0
    for k in range(tb.n_army_cards):
        c = p * MAX_ARMY_CARDS + k
        if paid < 2 and S["card_place"][b, c] == PLACE_BARRACKS and tb.army_card[k] == name:
            move_card(S, tb, b, np.int64(c), PLACE_LOST if paid == 0 else PLACE_RESUPPLY, -1)
            paid += 1
    S["sacrifices_made"][b, p] += 1
