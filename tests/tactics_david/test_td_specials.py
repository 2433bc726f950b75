"""Specials (TD-23): Swarm, Relentless, Hulking as specials.yaml rows read by the kernels."""

from __future__ import annotations

from envs.core.rng import roll_d
from envs.tactics_david import units
from envs.tactics_david.actions import (
    A_CHARGE,
    A_END,
    A_UNIT,
    STAGE_CHARGE_DIST,
    STAGE_ITEM,
    STAGE_MOVE,
)
from envs.tactics_david.invariants import violations
from envs.tactics_david.state import MAX_UNITS
from tests.tactics_david.td_board import (
    B0,
    TABLES,
    UNIT,
    E,
    I,
    W,
    act,
    engage,
    legal,
    position,
    record,
    unit,
)

ST = TABLES.status_index
DEAD = ST["Dead"]


def test_swarm_stack_loses_one_member_instead_of_dying():
    """TD-23.1 / R36: a Stacked Unit of Swarm units acquiring Dead loses one member (strengths
    drop by its own) and stays in play without Dead; a single Swarm unit dies."""
    tb = record()
    S = position(tb)
    s = unit(S, tb, 0, "Soldier", 5, 5, E)  # Swarm
    unit(S, tb, 1, "Knight", 1, 12, W)
    S["unit_member"][0, s, 1] = UNIT["Soldier"]  # a stack of two Soldiers (TD-17: summed)
    S["unit_n_members"][0, s] = 2
    S["unit_strength"][0, s] = 2 * TABLES.units.strength[UNIT["Soldier"]]
    units.kill(S, tb, B0, I(s), I(1))
    assert units.in_play(S, tb, B0, I(s)) and S["unit_n_members"][0, s] == 1
    assert list(S["unit_strength"][0, s]) == list(TABLES.units.strength[UNIT["Soldier"]])
    assert S["kills_turn"][0, 1] == 1
    units.kill(S, tb, B0, I(s), I(1))
    assert not units.in_play(S, tb, B0, I(s))


def test_relentless_is_engaged_while_dead_and_stays_paralyzed_and_frozen():
    """TD-23.2: a Relentless unit acquiring Dead keeps Dead, acquires Paralyzed and Frozen for
    good, and may still be Engaged."""
    tb = record()
    S = position(tb)
    dk = unit(S, tb, 0, "Death Knight", 5, 5, E)
    unit(S, tb, 0, "Soldier", 9, 1, E)
    unit(S, tb, 1, "Knight", 1, 12, W)
    units.kill(S, tb, B0, I(dk), I(1))
    held = sorted(s for s in range(20) if S["unit_status"][0, dk, s])
    assert held == sorted([DEAD, ST["Paralyzed"], ST["Frozen"]])
    assert violations(S, tb) == []
    assert A_UNIT + dk % MAX_UNITS in legal(S, tb)
    ordinary = unit(S, tb, 0, "Knight", 8, 8, E)
    units.kill(S, tb, B0, I(ordinary), I(1))
    assert A_UNIT + ordinary % MAX_UNITS not in legal(S, tb)


def test_hulking_charges_no_farther_than_its_base_movement():
    """TD-23.3: a Hulking unit's passed charge stops within its base Movement Rating, while
    another unit may go Movement Rating + the Charge Roll."""

    def farthest(name, seed):
        tb = record()
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, name, 5, 0, E)
        unit(S, tb, 1, "Knight", 0, 13, W)
        engage(S, tb, u)
        assert S["stage"][0] == STAGE_MOVE
        rng = S["rng"].copy()
        test = int(roll_d(rng, B0, I(6))) + int(roll_d(rng, B0, I(6)))
        acts = act(S, tb, A_CHARGE)
        if S["stage"][0] != STAGE_CHARGE_DIST:
            return None, test
        cols = [(a % 14) for a in acts if a != A_END]
        return max(cols), test

    base = int(TABLES.units.movement_rating[UNIT["Diamond Golem"]])
    seen = []
    for seed in range(1, 30):
        far, test = farthest("Diamond Golem", seed)
        if far is not None:
            seen.append(far)
            assert far <= base
    assert seen and max(seen) == base
    other = [farthest("Knight", seed)[0] for seed in range(1, 30)]
    assert max(x for x in other if x is not None) > int(
        TABLES.units.movement_rating[UNIT["Knight"]]
    )


def test_a_relentless_dead_unit_acts_but_may_not_trade():
    """TD-23.2 with TD-8.2: Engaged while Dead (Paralyzed may still stop it), but a Dead unit
    may not Trade, so its Item Phase offers nothing and passes."""
    moved = 0
    for seed in range(1, 20):
        tb = record()
        S = position(tb, seed=seed)
        dk = unit(S, tb, 0, "Death Knight", 5, 5, E)
        ally = unit(S, tb, 0, "Soldier", 5, 6, W)
        unit(S, tb, 1, "Knight", 1, 12, W)
        S["deck_count"][0] -= 1  # the top card goes to the ally (one card of each, I10)
        items_top = int(S["deck"][0, S["deck_count"][0]])
        S["deck"][0, S["deck_count"][0]] = -1
        S["unit_item"][0, ally, TABLES.item_type[items_top]] = items_top
        units.kill(S, tb, B0, I(dk), I(1))
        engage(S, tb, dk)
        assert S["stage"][0] != STAGE_ITEM
        moved += int(S["stage"][0] == STAGE_MOVE)
    assert moved > 0
