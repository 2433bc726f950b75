"""The Movement Phase (TD-2.7-2.14, TD-3.5-3.9, TD-9, TD-26.3) on hand-built positions."""

from __future__ import annotations

from envs.tactics_david.actions import (
    A_CELL,
    A_CHARGE,
    A_END,
    A_FACE,
    A_STRIKE,
    A_UNIT,
    STAGE_CHARGE_DIST,
    STAGE_MOVE,
)
from tests.tactics_david.td_board import (
    S_,
    E,
    N,
    W,
    act,
    cell,
    engage,
    paint,
    position,
    record,
    unit,
)


def _dest(tb, actions: list[int]) -> set[tuple[int, int]]:
    cols = int(tb.bf_cols[0])
    return {divmod(a - A_CELL, cols) for a in actions if A_CELL <= a < A_UNIT}


def _diamond(r0, c0, k, rows=11, cols=14):
    return {(r, c) for r in range(rows) for c in range(cols) if 0 < abs(r - r0) + abs(c - c0) <= k}


def test_movement_rating_in_orthogonal_steps():
    """TD-3.9 / TD-9.2: up to the Movement Rating (Knight: 4), never diagonal."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 7, N)
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 7, 4)


def test_through_allies_not_enemies():
    """TD-9.2: allies are passed but not stopped on; enemies (Dead ones too, R30) block."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Soldier", 5, 1, E)  # Soldier: Movement Rating 3
    v = unit(S, tb, 0, "Knight", 5, 2, N)
    S["unit_fought"][0, v] = 1  # no Unit Team with it this Turn (TD-18.2)
    dest = _dest(tb, engage(S, tb, u))
    assert (5, 2) not in dest and (5, 4) in dest
    S = position(tb)
    u = unit(S, tb, 0, "Soldier", 5, 0, E)
    for r, c in ((4, 0), (6, 0), (5, 1)):
        unit(S, tb, 1, "Knight", r, c, W)
    S["unit_status"][0, 1 * 20 + 2, tb.status_dead] = -1  # the one at (5, 1) is Dead
    assert _dest(tb, engage(S, tb, u)) == set()


def test_slow_terrain_halves_the_rest_once():
    """TD-2.14 / R19: entering Forest halves what is left (4 - 1 = 3 -> 1); TD-2.11: starting
    in Forest costs 1 and halves at once (4 - 1 = 3 -> 1)."""
    tb = record()
    for c in range(3, 14):
        paint(tb, 5, c, terrain="Forest")
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 2, E)
    dest = _dest(tb, engage(S, tb, u))
    assert (5, 3) in dest and (5, 4) in dest and (5, 5) not in dest
    assert (4, 5) in dest  # around the Forest on Field: not halved
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 8, E)
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 8, 1)


def test_road_adds_one():
    """TD-2.10: a unit starting on Road has +1 Movement Rating."""
    tb = record()
    paint(tb, 5, 7, terrain="Road")
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 7, N)
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 7, 5)


def test_aqua_off_water_and_water_slow():
    """TD-3.8: an Aqua unit Engaged off Water has -1; TD-2.8: Water is Slow, not for Aqua."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Merman", 5, 7, N)
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 7, 3)
    tb = record()
    for r in range(11):
        for c in range(14):
            paint(tb, r, c, terrain="Water")
    S = position(tb)
    u = unit(S, tb, 0, "Merman", 5, 7, N)
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 7, 4)
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 7, N)  # Land on Water: halved at once, 4 -> 2
    assert _dest(tb, engage(S, tb, u)) == _diamond(5, 7, 2)


def test_piece_heights_by_movement_type():
    """TD-3.5-3.7 / TD-2.3: Land passes no piece, Hover passes height 1, Soar heights 1-2; no
    type stops on a piece."""
    for height, movers in ((1, {"Angel", "Hawkman"}), (2, {"Hawkman"}), (3, set())):
        tb = record()
        for r in range(11):
            paint(tb, r, 7, height=height)
        for name in ("Knight", "Angel", "Hawkman"):
            S = position(tb)
            u = unit(S, tb, 0, name, 5, 6, E)
            dest = _dest(tb, engage(S, tb, u))
            assert (5, 7) not in dest
            assert ((5, 8) in dest) == (name in movers), (height, name)


def test_bridge_entered_along_its_axis():
    """TD-26.3 / R18: Land units enter an east-west Bridge only from east or west; Hover may
    cross its sides."""
    tb = record()
    b = cell(tb, 5, 7)
    tb.bf_height[0, b] = 0
    tb.bf_bridge[0, b] = 1
    S = position(tb)
    u = unit(S, tb, 0, "Soldier", 5, 6, E)
    assert (5, 7) in _dest(tb, engage(S, tb, u))
    paint(tb, 5, 6, height=2)  # Trees at both ends: a Land unit from the north is stuck
    paint(tb, 5, 8, height=2)
    S = position(tb)
    u = unit(S, tb, 0, "Soldier", 4, 7, S_)
    dest = _dest(tb, engage(S, tb, u))
    assert (5, 7) not in dest
    S = position(tb)
    u = unit(S, tb, 0, "Angel", 4, 7, S_)
    assert (5, 7) in _dest(tb, engage(S, tb, u))


def test_movement_then_facing_then_done():
    """TD-9.1: one Movement Procedure, no Charge after it; TD-9.6: one Facing Procedure."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 7, N)
    engage(S, tb, u)
    nxt = act(S, tb, A_CELL + cell(tb, 3, 7))
    assert S["unit_cell"][0, u] == cell(tb, 3, 7)
    assert A_CHARGE not in nxt and _dest(tb, nxt) == set()
    assert sorted(nxt) == [A_FACE + E, A_FACE + 2, A_FACE + W, A_END]
    act(S, tb, A_FACE + W)
    assert S["unit_facing"][0, u] == W and S["unit_moved"][0, u]


def test_facing_counts_as_moving_for_a_ranged_unit():
    """TD-9.6 / TD-14.2 / R27: a Ranged Unit that faced may not shoot, only Ranged Melee."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Hunter", 5, 3, N)
    unit(S, tb, 1, "Soldier", 5, 6, W)
    unit(S, tb, 1, "Soldier", 5, 4, W)
    engage(S, tb, u)
    nxt = act(S, tb, A_FACE + E)  # both enemies now ahead
    assert A_END in nxt and A_FACE + N not in nxt
    combat = act(S, tb, A_END)
    assert combat == [A_STRIKE, A_END]  # no ranged target, only Ranged Melee on (5, 4)


def test_charge_test_and_roll():
    """TD-9.3-9.5: straight ahead only; 2 D6 >= 7 passes (21/36) and offers every space up to
    Movement Rating + 1 D6; a stumble moves 1 D6 along the line and ends the phase."""
    tb = record()
    passed = 0
    trials = 150
    for seed in range(trials):
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Soldier", 5, 0, E)  # Movement Rating 3, 13 spaces of line
        assert A_CHARGE in engage(S, tb, u)
        nxt = act(S, tb, A_CHARGE)
        if S["stage"][0] == STAGE_CHARGE_DIST:
            passed += 1
            k = int(S["charge_max"][0])
            assert 4 <= k <= 9
            assert _dest(tb, nxt) == {(5, c) for c in range(1, k + 1)} and A_END in nxt
        else:
            r, c = divmod(int(S["unit_cell"][0, u]), 14)
            assert r == 5 and 1 <= c <= 6
            assert S["stage"][0] != STAGE_MOVE
    assert 0.45 < passed / trials < 0.72


def test_no_charge_for_hover_or_from_forest_or_into_water():
    """TD-3.6: Hover may not charge; TD-2.13: no charge from Forest; TD-2.8: a charge stops
    before Water."""
    tb = record()
    paint(tb, 5, 3, terrain="Forest")
    for c in range(6, 9):
        paint(tb, 5, c, terrain="Water")
    S = position(tb)
    assert A_CHARGE not in engage(S, tb, unit(S, tb, 0, "Angel", 2, 2, E))
    S = position(tb)
    assert A_CHARGE not in engage(S, tb, unit(S, tb, 0, "Knight", 5, 3, E))
    for seed in range(40):
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Knight", 5, 4, E)
        engage(S, tb, u)
        nxt = act(S, tb, A_CHARGE)
        assert int(S["unit_cell"][0, u]) in (cell(tb, 5, 4), cell(tb, 5, 5))
        assert _dest(tb, nxt) <= {(5, 5)}


def test_soar_ending_on_water_may_die():
    """TD-2.9: a Soar unit ending its Movement Phase on Water dies on a D6 of 1-2."""
    tb = record()
    paint(tb, 5, 8, terrain="Water")
    dead = 0
    trials = 90
    for seed in range(trials):
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Hawkman", 5, 7, E)
        unit(S, tb, 1, "Knight", 0, 0, S_)
        engage(S, tb, u)
        act(S, tb, A_CELL + cell(tb, 5, 8))
        act(S, tb, A_END)
        dead += int(S["unit_status"][0, u, tb.status_dead] != 0)
    assert 0.18 < dead / trials < 0.5
