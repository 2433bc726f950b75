"""TACTICA decree requirements as numba kernels (docs/rules/tactica.md TT-A.4-10).

A Barracks is given as a count vector: `barracks_counts[c]` (int64) is how many cards of draw
card c (``Tables.card_names`` order) the player holds. `capturers` is the number of friendly
troops on the battlefield that took part in a capture in the previous turn (R13), `hostages`
the number of enemy troops in the player's hostage pile; the engine counts both. Kernels take
`tb` (``Tables.arrays``) and raise nothing; :func:`barracks_counts` is the Python entry that
validates card names. Cross-checked against envs/tactica/reference.py
(tests/tactica/test_tt_decrees.py).
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.tables import Tables


def barracks_counts(tables: Tables, cards: Iterable[str]) -> np.ndarray:
    """The count vector (int64[len(card_names)]) of a Barracks given by card names; raises
    ValueError naming an unknown card."""
    counts = np.zeros(len(tables.card_names), dtype=np.int64)
    for name in cards:
        if name not in tables.card_index:
            raise ValueError(f"unknown card {name!r} in Barracks; known: {list(tables.card_names)}")
        counts[tables.card_index[name]] += 1
    return counts


@njit_inline
def unique_cards(tb, barracks_counts: np.ndarray) -> int:
    """Number of different card names in the Barracks (TT-A.4.4, R11)."""
    k = np.int64(0)
    for c in range(tb.n_cards):
        if barracks_counts[c] > 0:
            k += 1
    return k


@njit
def has_pair(tb, barracks_counts: np.ndarray) -> bool:
    """Whether the Barracks holds two cards of one name (TT-A.4.5)."""
    for c in range(tb.n_cards):
        if barracks_counts[c] >= 2:
            return True
    return False


@njit
def decree_requirement_met(
    tb, decree: int, barracks_counts: np.ndarray, capturers: int, hostages: int
) -> bool:
    """Whether the Barracks and board meet decree `decree`'s requirement (decrees.yaml):
    enough unique cards (TACTICA! 6, TT-A.5.1; PROMOTION 4, TT-A.6.1), each named card
    (FOG TT-A.7.1, MUD TT-A.8.1, BETRAYAL! TT-A.9.1), a pair, which may reuse a named card
    (TT-A.4.5, R12; SUMMON), a capturer (TT-A.6.1) and a hostage (TT-A.9.1)."""
    if unique_cards(tb, barracks_counts) < tb.decree_unique_cards[decree]:
        return False
    for c in range(tb.n_cards):
        if barracks_counts[c] < tb.decree_cards[decree, c]:
            return False
    if tb.decree_pair[decree] and not has_pair(tb, barracks_counts):
        return False
    if tb.decree_capturer[decree] and capturers < 1:
        return False
    if tb.decree_hostage[decree] and hostages < 1:
        return False
    return True


@njit
def decrees_met(
    tb, barracks_counts: np.ndarray, capturers: int, hostages: int, out: np.ndarray
) -> int:
    """decree_requirement_met for every decree: writes out[d] (bool, length >= n_decrees)
    and returns how many decrees may be enacted (e.g. for the Barracks phase's action mask)."""
    k = np.int64(0)
    for d in range(tb.n_decrees):
        met = decree_requirement_met(tb, d, barracks_counts, capturers, hostages)
        out[d] = met
        if met:
            k += 1
    return k
