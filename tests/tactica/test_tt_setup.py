"""TACTICA initial deployment (envs/tactica/setup.py; docs/rules/tactica.md TT-B.6.1,
TT-B.6.3-6.7, TT-A.10.3, TT-A.10.9, R28, R29) on hand-built states, plus a seeded random
deployment over whole wars whose invariants must hold after every decision."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactica import battlefield as bfl
from envs.tactica import piles, setup
from envs.tactica import state as st
from envs.tactica.actions import (
    A_HEX,
    A_SIDE,
    N_ACTIONS,
    STAGE_CHOOSE_LANDMARK,
    STAGE_FIRST_PLAYER,
    STAGE_PLACE_LANDMARK,
    STAGE_PLACE_SPIRE,
    STAGE_PLACE_WALL,
)
from envs.tactica.tables import SIDE_HIGH, SIDE_LOW, build_arrays, load_tables

TABLES = load_tables()
TB = TABLES.arrays
GEO = TABLES.battlefield
I = np.int64  # noqa: E741 - the kernels take int64 indices (one signature each)
B0 = I(0)
RIDGE = 1  # landmark card j of Ridge/Marsh (army order: Hill/Hollow, Ridge/Marsh)
HILL = 0


def _geo(S) -> tuple:
    bf = setup.battlefield_index(TABLES, int(S["battle"][0]))
    return GEO.neighbours[bf], GEO.distance[bf], GEO.wall_zone[bf]


def _war(seed: int = 3) -> np.ndarray:
    S = st.allocate(1)
    piles.reset_war(S, TB, B0, I(seed), I(0))
    return S


def _legal(S, tb=TB) -> list[int]:
    out = np.zeros(N_ACTIONS, np.int16)
    n = setup.legal_setup(S, tb, *_geo(S), B0, out)
    return [int(a) for a in out[:n]]


def _apply(S, a: int, tb=TB) -> None:
    assert a in _legal(S, tb), (a, int(S["stage"][0]))
    setup.apply_setup(S, tb, *_geo(S), B0, I(a))


def _begin(S, tb=TB) -> None:
    setup.begin_setup(S, tb, *_geo(S), B0)


def _hexes(actions: list[int]) -> set[int]:
    return {a - A_HEX for a in actions if A_HEX <= a < A_HEX + st.MAX_HEXES}


def _real(S) -> set[int]:
    _, dist, _ = _geo(S)
    return {h for h in range(st.MAX_HEXES) if dist[h, h] == 0}


def _place_walls(S, hexes_by_seat: dict[int, list[int]]) -> None:
    """Play the wall round with the given hexes, in the order the kernels ask."""
    todo = {p: list(h) for p, h in hexes_by_seat.items()}
    while S["stage"][0] == STAGE_PLACE_WALL:
        p = int(S["current"][0])
        _apply(S, A_HEX + todo[p].pop(0))


def _next_battle(S, result: int) -> None:
    """End the current battle with `result` (a seat or BATTLE_DRAWN) and open the next."""
    S["battle_result"][0, S["battle"][0] - 1] = result
    piles.start_battle(S, TB, B0)


def _give_spire(S, p: int, sides: list[int]) -> None:
    """p's spire holds summon cards 0.. with these faces up (as SUMMON decrees leave it)."""
    for i, side in enumerate(sides):
        S["spire_card"][0, p, i] = i
        S["summon_card_place"][0, p, i] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, p, i] = side
    S["spire_height"][0, p] = len(sides)


# --- TT-B.6.1 -------------------------------------------------------------------------------


def test_battle_n_is_fought_on_the_battlefield_whose_battle_is_n():
    for battle in (1, 2, 3):
        bf = setup.battlefield_index(TABLES, battle)
        assert int(TABLES.battlefield_battle[bf]) == battle
    assert int(GEO.n_rows[setup.battlefield_index(TABLES, 1)]) == 11
    assert int(GEO.n_rows[setup.battlefield_index(TABLES, 3)]) == 7
    with pytest.raises(ValueError, match="battle 4"):
        setup.battlefield_index(TABLES, 4)


# --- TT-B.6.3 -------------------------------------------------------------------------------


def test_first_player_of_battle_one_is_random_and_places_the_first_wall():
    firsts = set()
    for seed in range(12):
        S = _war(seed)
        _begin(S)
        assert S["stage"][0] == STAGE_PLACE_WALL
        assert S["current"][0] == S["first_player"][0]
        firsts.add(int(S["first_player"][0]))
    assert firsts == {0, 1}


def test_after_a_drawn_battle_the_first_player_is_random_and_nobody_is_asked():
    firsts = set()
    for seed in range(12):
        S = _war(seed)
        _next_battle(S, st.BATTLE_DRAWN)
        _begin(S)
        assert S["stage"][0] == STAGE_PLACE_WALL
        firsts.add(int(S["first_player"][0]))
    assert firsts == {0, 1}


@pytest.mark.parametrize("winner", [0, 1])
@pytest.mark.parametrize("choice", [0, 1])
def test_the_previous_loser_chooses_the_first_player(winner: int, choice: int):
    S = _war()
    _next_battle(S, winner)
    _begin(S)
    loser = 1 - winner
    assert S["stage"][0] == STAGE_FIRST_PLAYER and S["current"][0] == loser
    assert _legal(S) == [A_SIDE + setup.CHOOSE_ME_FIRST, A_SIDE + setup.CHOOSE_YOU_FIRST]
    _apply(S, A_SIDE + choice)
    first = loser if choice == setup.CHOOSE_ME_FIRST else winner
    assert S["first_player"][0] == first
    assert S["stage"][0] == STAGE_PLACE_WALL and S["current"][0] == first


# --- TT-B.6.4 -------------------------------------------------------------------------------


def test_walls_alternate_from_the_first_player_on_empty_hexes_of_their_own_wall_zone():
    S = _war()
    _begin(S)
    first = int(S["first_player"][0])
    _, _, zone = _geo(S)
    asked = []
    while S["stage"][0] == STAGE_PLACE_WALL:
        p = int(S["current"][0])
        asked.append(p)
        legal = _legal(S)
        taken = {int(h) for h in S["wall_hex"][0, p] if h >= 0}
        assert _hexes(legal) == {h for h in range(st.MAX_HEXES) if zone[p, h]} - taken
        assert legal == sorted(legal) and len(_hexes(legal)) == len(legal)
        _apply(S, legal[len(legal) // 2])
    assert asked == [first, 1 - first] * int(TB.n_walls)
    for p in range(2):
        assert all(zone[p, h] for h in S["wall_hex"][0, p, : TB.n_walls])
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT


def test_lost_walls_are_not_placed_and_the_other_player_places_the_rest():
    S = _war()
    lost_seat = int(S["first_player"][0])
    S["wall_lost"][0, lost_seat, 0] = True
    S["wall_lost"][0, lost_seat, 2] = True
    _begin(S)
    asked = []
    while S["stage"][0] == STAGE_PLACE_WALL:
        asked.append(int(S["current"][0]))
        _apply(S, _legal(S)[0])
    other = 1 - lost_seat
    assert asked == [lost_seat, other, other, other]
    assert list(S["wall_hex"][0, lost_seat, :3] >= 0) == [False, True, False]
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT


# --- TT-B.6.5 -------------------------------------------------------------------------------


def test_landmarks_go_on_empty_open_hexes_two_or_more_from_every_wall():
    S = _war()
    _begin(S)
    _place_walls(S, {0: [0, 4, 8], 1: [90, 94, 98]})
    first = int(S["first_player"][0])
    assert S["stage"][0] == STAGE_CHOOSE_LANDMARK and S["current"][0] == first
    assert _legal(S) == [A_SIDE + SIDE_HIGH, A_SIDE + SIDE_LOW]
    _apply(S, A_SIDE + SIDE_LOW)
    assert S["stage"][0] == STAGE_PLACE_LANDMARK
    _, dist, zone = _geo(S)
    walls = [0, 4, 8, 90, 94, 98]
    # by hand: rows 1..9 ("." hexes), not within 1 hex of a wall
    expected = {
        h
        for h in _real(S)
        if not zone[0, h] and not zone[1, h] and all(dist[h, w] >= 2 for w in walls)
    }
    assert 9 not in expected and 13 not in expected and 18 in expected and 10 in expected
    assert _hexes(_legal(S)) == expected
    _apply(S, A_HEX + 40)
    # the Hollow (Hill/Hollow's low face) of the first player is on hex 40
    assert S["landmark_hex"][0, first, HILL] == 40
    assert S["landmark_side"][0, first, HILL] == SIDE_LOW
    assert S["hex_feature"][0, 40] == st.FEATURE_LANDMARK
    # the other player: the same hexes less the one now taken
    assert S["stage"][0] == STAGE_CHOOSE_LANDMARK and S["current"][0] == 1 - first
    _apply(S, A_SIDE + SIDE_HIGH)
    assert _hexes(_legal(S)) == expected - {40}


def test_landmarks_come_in_army_order_alternating_and_lost_ones_are_not_placed():
    S = _war()
    first = int(S["first_player"][0])
    S["landmark_lost"][0, first, HILL] = True
    _begin(S)
    _place_walls(S, {0: [0, 4, 8], 1: [90, 94, 98]})
    placed = []
    while S["stage"][0] != st.STAGE_PHASE_DONE:
        p = int(S["current"][0])
        j = int(S["setup_piece_next"][0, p])
        placed.append((p, j))
        _apply(S, _legal(S)[-1])  # the low face, then the last legal hex
        _apply(S, _legal(S)[-1])
    assert placed == [(first, RIDGE), (1 - first, HILL), (1 - first, RIDGE)]
    assert S["landmark_hex"][0, first, HILL] == -1
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT


# --- TT-A.10.3 ------------------------------------------------------------------------------


def test_an_existing_spire_is_placed_within_three_hexes_of_its_owners_wall_keeping_its_faces():
    S = _war()
    first = int(S["first_player"][0])
    owner = 1 - first
    _give_spire(S, owner, [1, 0])  # Cthon on the bottom, Ouran on top
    _begin(S)
    _place_walls(S, {0: [0, 4, 8], 1: [90, 94, 98]})
    order = []
    while S["stage"][0] != STAGE_PLACE_SPIRE:
        order.append(int(S["current"][0]))
        _apply(S, _legal(S)[0])  # face
        _apply(S, _legal(S)[0])  # hex
    # the spire follows its owner's landmark cards (R28)
    assert order == [first, owner, first, owner] and S["current"][0] == owner
    _, dist, zone = _geo(S)
    own_walls = [int(h) for h in S["wall_hex"][0, owner, :3]]
    expected = {
        h
        for h in _real(S)
        if not zone[0, h]
        and not zone[1, h]
        and S["hex_feature"][0, h] == st.FEATURE_NONE
        and min(dist[h, w] for w in own_walls) <= 3
    }
    assert expected and _hexes(_legal(S)) == expected
    h = max(expected)
    _apply(S, A_HEX + h)
    assert S["stage"][0] == st.STAGE_PHASE_DONE and S["current"][0] == first
    assert S["spire_hex"][0, owner] == h and S["hex_feature"][0, h] == st.FEATURE_SPIRE
    assert list(S["spire_card"][0, owner, :2]) == [0, 1]
    assert list(S["summon_card_side"][0, owner, :2]) == [1, 0]
    assert S["spire_height"][0, owner] == 2
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT


# --- TT-B.6.6 / TT-A.10.9 ---------------------------------------------------------------------


def test_a_spire_that_would_seal_a_wall_in_is_illegal():
    S = _war()
    _give_spire(S, 0, [0])
    _begin(S)
    # seat 0's walls on 0 and 1: hex 0's only other neighbour is 9 (row 1, column 0)
    _place_walls(S, {0: [0, 1, 8], 1: [90, 94, 98]})
    _, dist, zone = _geo(S)
    assert sorted(int(y) for y in GEO.neighbours[0, 0] if y >= 0) == [1, 9]
    while S["stage"][0] != STAGE_PLACE_SPIRE:
        _apply(S, _legal(S)[0])
        _apply(S, _legal(S)[-1])  # landmarks far down the field
    legal = _hexes(_legal(S))
    assert 9 not in legal  # open, empty and next to a wall of its own, but seals wall 0
    assert {10, 18} <= legal


def _put(S, kind: int, p: int, card: int, h: int) -> None:
    S["hex_feature"][0, h] = kind
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = card


def test_a_landmark_that_would_cut_a_spire_off_is_illegal_only_with_its_block_face():
    S = _war()
    _begin(S)
    _place_walls(S, {0: [0, 4, 8], 1: [90, 94, 98]})
    # hand-built: seat 0's spire on hex 18, whose neighbours are 9, 19 and 27; seat 0's Ridge
    # (BLOCK) on 9 and seat 1's spire on 19: only 27 is left to reach the spire from
    assert sorted(int(y) for y in GEO.neighbours[0, 18] if y >= 0) == [9, 19, 27]
    for p, h in ((0, 18), (1, 19)):
        _give_spire(S, p, [0])
        S["spire_hex"][0, p] = h
        _put(S, st.FEATURE_SPIRE, p, 0, h)
    S["landmark_hex"][0, 0, RIDGE] = 9
    S["landmark_side"][0, 0, RIDGE] = SIDE_HIGH
    _put(S, st.FEATURE_LANDMARK, 0, RIDGE, 9)
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT
    # seat 1 places its Ridge/Marsh card
    S["current"][0] = 1
    S["setup_piece_next"][0, 1] = RIDGE
    S["stage"][0] = STAGE_PLACE_LANDMARK
    S["landmark_side"][0, 1, RIDGE] = SIDE_HIGH  # Ridge: BLOCK
    assert 27 not in _hexes(_legal(S)) and 36 in _hexes(_legal(S))
    S["landmark_side"][0, 1, RIDGE] = SIDE_LOW  # Marsh: no BLOCK
    assert {27, 36} <= _hexes(_legal(S))


# --- R29: no legal hex left -------------------------------------------------------------------


def _tables_with(**numbers: int):
    rec = build_arrays(TABLES).view(np.recarray)
    for name, value in numbers.items():
        rec[name] = value
    return rec[0]


def test_a_landmark_with_no_legal_hex_stays_off_the_battlefield_not_lost():
    tb = _tables_with(landmark_wall_distance=99)  # no hex is 99 hexes from a wall
    S = _war()
    setup.begin_setup(S, tb, *_geo(S), B0)
    while S["stage"][0] == STAGE_PLACE_WALL:
        _apply(S, _legal(S, tb)[0], tb)
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert np.all(S["landmark_hex"][0] == -1) and not S["landmark_lost"][0].any()
    assert piles.feature_error(S, tb, B0) == piles.FEATURES_CONSISTENT


def test_walls_with_no_empty_hex_of_the_wall_zone_stay_off_the_battlefield():
    S = _war()
    # hand-built: something stands on seat 0's wall zone but hex 0 (only emptiness counts here)
    for h in range(1, 9):
        S["hex_troop"][0, h] = 0
    _begin(S)
    asked = []
    while S["stage"][0] == STAGE_PLACE_WALL:
        asked.append(int(S["current"][0]))
        assert asked[-1] == 1 or _hexes(_legal(S)) == {0}
        _apply(S, _legal(S)[0])
    assert sorted(asked) == [0, 1, 1, 1]
    assert list(S["wall_hex"][0, 0, :3]) == [0, -1, -1]
    assert not S["wall_lost"][0, 0].any()
    assert S["stage"][0] == STAGE_CHOOSE_LANDMARK


def test_a_spire_with_no_legal_hex_stays_off_the_battlefield_and_keeps_its_cards():
    tb = _tables_with(spire_wall_distance=0)  # no open hex is within 0 hexes of a wall
    S = _war()
    _give_spire(S, 1, [0, 1, 0])
    setup.begin_setup(S, tb, *_geo(S), B0)
    while S["stage"][0] != st.STAGE_PHASE_DONE:
        assert S["stage"][0] != STAGE_PLACE_SPIRE
        legal = _legal(S, tb)
        assert legal
        _apply(S, legal[0], tb)
    assert S["spire_hex"][0, 1] == -1 and S["spire_height"][0, 1] == 3
    assert (S["landmark_hex"][0] >= 0).sum() == 2 * TB.n_landmark_cards
    assert piles.feature_error(S, tb, B0) == piles.FEATURES_CONSISTENT


# --- TT-B.6.7 and random deployment ---------------------------------------------------------


def test_random_deployments_keep_every_invariant_and_end_in_phase_done():
    """Whole wars of random deployments: random LOST walls and landmarks and a random spire;
    after every decision cards are conserved, features consistent, the legal list never
    empty; at the end every placed piece stands where TT-B.6.4-6.6 allow (TT-B.6.7)."""
    rng = np.random.default_rng(9)
    out = np.zeros(N_ACTIONS, np.int16)
    masks = np.zeros((2, st.MAX_HEXES), bool)
    dist_buf = np.zeros(st.MAX_HEXES, np.int64)
    spires = first_player_asked = 0
    for seed in range(4):
        S = _war(seed)
        for battle in range(1, 4):
            if battle > 1:
                _next_battle(S, int(rng.integers(-1, 2)))
            for p in range(2):
                for w in range(int(TB.n_walls)):
                    S["wall_lost"][0, p, w] |= rng.random() < 0.15
                for j in range(int(TB.n_landmark_cards)):
                    S["landmark_lost"][0, p, j] |= rng.random() < 0.15
                if S["spire_height"][0, p] == 0 and rng.random() < 0.5:
                    _give_spire(S, p, list(rng.integers(0, 2, size=int(rng.integers(1, 4)))))
            geo = _geo(S)
            setup.begin_setup(S, TB, *geo, B0)
            first_player_asked += int(S["stage"][0] == STAGE_FIRST_PLAYER)
            steps = 0
            while S["stage"][0] != st.STAGE_PHASE_DONE:
                n = setup.legal_setup(S, TB, *geo, B0, out)
                assert n > 0, (seed, battle, int(S["stage"][0]))
                setup.apply_setup(S, TB, *geo, B0, I(out[rng.integers(n)]))
                assert piles.conservation_error(S, TB, B0) == piles.CONSERVED
                assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT
                steps += 1
                assert steps < 40
            neighbours, dist, zone = geo
            assert S["current"][0] == S["first_player"][0] and S["turn"][0] == 0
            for p in range(2):
                for w in range(int(TB.n_walls)):
                    h = int(S["wall_hex"][0, p, w])
                    assert (h >= 0) == (not S["wall_lost"][0, p, w])
                    assert h < 0 or zone[p, h]
                walls = [int(h) for h in S["wall_hex"][0].ravel() if h >= 0]
                for j in range(int(TB.n_landmark_cards)):
                    h = int(S["landmark_hex"][0, p, j])
                    assert (h >= 0) == (not S["landmark_lost"][0, p, j])
                    assert h < 0 or all(dist[h, x] >= 2 for x in walls)
                h = int(S["spire_hex"][0, p])
                own = [int(x) for x in S["wall_hex"][0, p] if x >= 0]
                assert h < 0 or min(dist[h, x] for x in own) <= 3
                spires += h >= 0
                if own and S["spire_height"][0, p] > 0:
                    assert h >= 0  # these battlefields always leave a hex (else R29)
            kind = np.empty(st.MAX_HEXES, np.int8)
            block = np.empty(st.MAX_HEXES, bool)
            owner = np.empty(st.MAX_HEXES, np.int8)
            setup._feature_arrays(S, TB, B0, kind, block, owner)
            assert bfl.access_ok(neighbours, zone, kind, block, owner, masks, dist_buf)
    assert spires > 0 and first_player_asked > 0  # the loop reached every stage
