"""Turns and Engagements (TD-7, TD-12.4), the Dead Status (TD-20.15) and terrain on ranged
attacks (TD-2.7, TD-2.12)."""

from __future__ import annotations

from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_STRIKE,
    A_UNIT,
    STAGE_ACQUIRE,
    STAGE_ENGAGE,
    STAGE_MOVE,
)
from envs.tactics_david.state import MAX_UNITS
from tests.tactics_david.td_board import (
    S_,
    TABLES,
    E,
    W,
    act,
    cell,
    engage,
    legal,
    paint,
    position,
    record,
    unit,
)

DEAD = int(TABLES.status_index["Dead"])


def test_engage_each_unit_once_then_the_turn_passes():
    """TD-7.1-7.4, TD-12.4: the Attacking Player Engages units one at a time, each at most once;
    with none left the Turn ends and the other player attacks."""
    tb = record()
    S = position(tb)
    a = unit(S, tb, 0, "Knight", 5, 2, E)
    b = unit(S, tb, 0, "Soldier", 8, 2, E)
    c = unit(S, tb, 1, "Knight", 5, 12, W)
    assert legal(S, tb) == [A_UNIT + a, A_UNIT + b, A_END]
    engage(S, tb, a)
    assert S["stage"][0] == STAGE_MOVE and S["engaged"][0] == a
    act(S, tb, A_END)  # no Movement; the Combat Phase has nothing to attack
    assert S["stage"][0] == STAGE_ENGAGE and legal(S, tb) == [A_UNIT + b, A_END]
    engage(S, tb, b)
    after = act(S, tb, A_END)  # the last unit Disengaged: the Turn ends by itself
    assert S["current"][0] == 1 and S["turn"][0] == 2
    assert after == [A_UNIT + c % MAX_UNITS, A_END]
    act(S, tb, A_END)  # the player may end the Turn without Engaging
    assert S["current"][0] == 0 and S["turn"][0] == 3 and not S["unit_engaged"][0].any()


def test_dead_units_are_not_engaged():
    """TD-20.15 / TD-10.3: a killed unit stays on its space with only the Dead Status (its
    other Statuses discarded) and is never Engaged again."""
    tb = record()
    burned = TABLES.status_index["Burned"]
    for seed in range(30):
        S = position(tb, seed=seed, current=1)
        v = unit(S, tb, 0, "Soldier", 5, 6, E)  # its back to the Paladin
        other = unit(S, tb, 0, "Knight", 0, 0, S_)
        p = unit(S, tb, 1, "Paladin", 5, 5, E)
        S["unit_status"][0, v, burned] = 2
        engage(S, tb, p)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        if S["unit_status"][0, v, DEAD] == 0:
            continue
        assert S["unit_status"][0, v].tolist() == [-1 if s == DEAD else 0 for s in range(20)]
        assert S["unit_cell"][0, v] == cell(tb, 5, 6)
        if S["stage"][0] == STAGE_ACQUIRE:  # the kill won an Item: decline it (TD-12.2)
            act(S, tb, A_END)
        assert S["current"][0] == 0  # the Paladin's Turn ended by itself
        assert legal(S, tb) == [A_UNIT + other, A_END]
        return
    raise AssertionError("the Paladin never killed the Soldier")


def test_water_shortens_the_range():
    """TD-2.7 / R14: a unit on Water has -1 Range Rating (Hunter: 5 -> 4)."""
    tb = record()
    S = position(tb)
    h = unit(S, tb, 0, "Hunter", 5, 2, E)
    unit(S, tb, 1, "Soldier", 5, 7, W)  # distance 5
    engage(S, tb, h)
    assert A_CELL + cell(tb, 5, 7) in act(S, tb, A_END)
    paint(tb, 5, 2, terrain="Water")
    S = position(tb)
    h = unit(S, tb, 0, "Hunter", 5, 2, E)
    unit(S, tb, 1, "Soldier", 5, 7, W)
    unit(S, tb, 1, "Soldier", 5, 6, W)  # distance 4: still in range
    engage(S, tb, h)
    got = act(S, tb, A_END)
    assert A_CELL + cell(tb, 5, 7) not in got and A_CELL + cell(tb, 5, 6) in got


def test_ranged_attack_from_the_forest_edge_only():
    """TD-2.12 / R15: from Forest only on its outermost edge."""
    tb = record()
    for r in range(3, 8):
        for c in range(0, 5):
            paint(tb, r, c, terrain="Forest")
    for col, can in ((2, False), (4, True)):
        S = position(tb)
        h = unit(S, tb, 0, "Hunter", 5, col, E)
        unit(S, tb, 1, "Soldier", 5, col + 3, W)
        engage(S, tb, h)
        got = act(S, tb, A_END)
        assert (A_CELL + cell(tb, 5, col + 3) in got) == can, col
