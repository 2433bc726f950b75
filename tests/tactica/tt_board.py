"""Hand-built TACTICA positions shared by the chapter tests (muster, movement, barracks,
resolution, render): a fresh war's battle 1 with walls placed and every card in its pile, and
small helpers that put cards, features and spires where a test needs them."""

from __future__ import annotations

import numpy as np

from envs.tactica import piles
from envs.tactica import state as st
from envs.tactica.tables import load_tables

TABLES = load_tables()
TB = TABLES.arrays
NB = TABLES.battlefield.neighbours[0]  # the First Battle
I = np.int64  # noqa: E741 - the kernels take int64 indices (one signature each)
B0 = I(0)
CARD = TABLES.card_index
# seat 0's walls on row 0 (hexes 2 and 6), seat 1's on row 10 (hexes 92 and 96)
WALLS = {0: (2, 6), 1: (92, 96)}
NEXT_TO_WALLS_0 = {1, 3, 10, 11, 5, 7, 14, 15}


def battle(first: int = 0, advanced: bool = False, turn: int = 1) -> np.ndarray:
    """Battle 1 of a fresh war, walls placed, no card dealt (all in the piles)."""
    S = st.allocate(1)
    piles.reset_war(S, TB, B0, I(5), I(0))
    for p, hexes in WALLS.items():
        for w, h in enumerate(hexes):
            put_feature(S, h, st.FEATURE_WALL, p, w)
            S["wall_hex"][0, p, w] = h
    S["turn"][0] = turn
    S["advanced"][0] = advanced
    S["first_player"][0] = first
    S["current"][0] = first
    return S


def put_feature(S, h: int, kind: int, p: int, j: int) -> None:
    S["hex_feature"][0, h] = kind
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = j


def ids(p: int, name: str) -> list[int]:
    """Card ids of player p's copies of `name`."""
    c = CARD[name]
    return [p * st.MAX_ARMY_CARDS + k for k in range(TB.n_army_cards) if TB.army_card[k] == c]


def to(S, card: int, place: int, where: int = -1) -> None:
    piles.move_card(S, TB, B0, I(card), I(place), I(where))


def hand(S, p: int, *names: str) -> list[int]:
    """Move one copy per name (in order) from p's piles into p's Barracks; returns the ids."""
    out = []
    for name in names:
        c = next(c for c in ids(p, name) if S["card_place"][0, c] in (0, 1))
        to(S, c, st.PLACE_BARRACKS)
        out.append(c)
    return out


def put_spire(S, p: int, h: int, sides: list[int]) -> None:
    """A spire of p on hex h holding summon cards 0.. with these face-up summon indices."""
    put_feature(S, h, st.FEATURE_SPIRE, p, 0)
    S["spire_hex"][0, p] = h
    for s, side in enumerate(sides):
        S["spire_card"][0, p, s] = s
        S["summon_card_place"][0, p, s] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, p, s] = side
    S["spire_height"][0, p] = len(sides)


def ok(S) -> None:
    """Every card in exactly one place, every feature card consistent."""
    assert piles.conservation_error(S, TB, B0) == 0
    assert piles.feature_error(S, TB, B0) == 0
