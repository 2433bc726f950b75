"""Armies, the Item Deck, who goes first and deployment (TD-1.3, TD-5, TD-6.1, TD-12.3)."""

from __future__ import annotations

import numpy as np

from envs.tactics_david import kernels as K
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_CELL,
    A_SEAT,
    A_UNIT,
    MAX_LEGAL,
    STAGE_DEPLOY_CELL,
    STAGE_DEPLOY_UNIT,
    STAGE_ENGAGE,
    STAGE_FIRST,
)
from envs.tactics_david.record import build_record
from tests.tactics_david.td_board import B0, TABLES, I

TB = build_record(TABLES)


def _start(seed: int, game: int = 0, tb=TB):
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.start_one(S, tb, B0, I(seed), I(game), out)
    return S, [int(a) for a in out[:n]]


def test_random_armies_are_legal_and_full():
    """TD-6.1: each army's Purchase Cost is within the limit, and the random builder stops only
    when no further unit is affordable (I12)."""
    sizes = set()
    for g in range(30):
        S, _ = _start(3, g)
        for p in range(2):
            k = int(S["army_size"][0, p])
            ids = [p * st.MAX_UNITS + i for i in range(k)]
            cost = int(S["unit_cost"][0, ids].sum())
            assert cost == S["army_cost"][0, p] <= S["purchase_limit"][0] == 100
            assert 100 - cost < TB.min_cost or k == st.MAX_UNITS
            assert (S["unit_place"][0, ids] == st.PLACE_RESERVE).all()
            members = S["unit_member"][0, ids, 0]
            assert (S["unit_strength"][0, ids] == TB.u_strength[members]).all()
            sizes.add(k)
    assert len(sizes) > 3  # armies differ


def test_purchase_limit_option():
    tb = build_record(TABLES, purchase_limit=50)
    S, _ = _start(3, 0, tb)
    assert S["purchase_limit"][0] == 50 and (S["army_cost"][0] <= 50).all()


def test_item_deck_holds_each_item_once():
    """TD-12.3 / I10: one card of each of the 23 Items, shuffled per game."""
    decks = set()
    for g in range(5):
        S, _ = _start(9, g)
        deck = S["deck"][0, : S["deck_count"][0]]
        assert sorted(deck.tolist()) == list(range(len(TABLES.item_names)))
        decks.add(tuple(deck.tolist()))
    assert len(decks) == 5


def test_roll_off_winner_chooses_first_player():
    """TD-1.3 / I7: the roll-off winner is asked, and may give the first Turn to either."""
    winners = set()
    for g in range(12):
        S, legal = _start(5, g)
        assert S["stage"][0] == STAGE_FIRST
        assert S["current"][0] == S["roll_winner"][0]
        assert legal == [A_SEAT, A_SEAT + 1]
        winners.add(int(S["roll_winner"][0]))
    assert winners == {0, 1}
    S, _ = _start(5, 0)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    K.apply_one(S, TB, B0, I(A_SEAT + 1), out)
    assert S["first_player"][0] == 1 and S["current"][0] == 1
    assert S["stage"][0] == STAGE_DEPLOY_UNIT


def test_deployment_alternates_inside_each_zone():
    """TD-5.1-5.2 / R23: first player first, one unit at a time, only free spaces of the own
    Deployment area without Terrain Pieces, facing the other zone; then Turn 1 begins."""
    rng = np.random.default_rng(0)
    S, legal = _start(11, 0)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.apply_one(S, TB, B0, I(A_SEAT + 0), out)
    order = []
    zone = TABLES.battlefields[0].deployment.reshape(-1)
    height = TB.bf_height[0]
    while S["stage"][0] in (STAGE_DEPLOY_UNIT, STAGE_DEPLOY_CELL):
        p = int(S["current"][0])
        legal = [int(a) for a in out[:n]]
        if S["stage"][0] == STAGE_DEPLOY_UNIT:
            order.append(p)
            a = int(rng.choice(legal))
            u = p * st.MAX_UNITS + a - A_UNIT
        else:
            cells = [a - A_CELL for a in legal]
            free = [
                c
                for c in range(zone.size)
                if zone[c] == p and S["cell_unit"][0, c, 0] < 0 and height[c] <= 0
            ]
            assert cells == free
            a = int(rng.choice(legal))
        n = K.apply_one(S, TB, B0, I(a), out)
        if S["stage"][0] != STAGE_DEPLOY_CELL and a >= A_CELL and a < A_UNIT:
            assert S["unit_cell"][0, u] == a - A_CELL
            assert S["unit_facing"][0, u] == TB.bf_deploy_facing[0, p]
    sizes = S["army_size"][0]
    expect = []
    left = [int(sizes[0]), int(sizes[1])]
    p = 0
    while left[0] or left[1]:
        if left[p] == 0:
            p = 1 - p
        expect.append(p)
        left[p] -= 1
        p = 1 - p
    assert order == expect
    assert S["stage"][0] == STAGE_ENGAGE and S["current"][0] == 0 and S["turn"][0] == 1
