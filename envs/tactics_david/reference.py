"""Slow, pure-Python reference rules for Tactics David, for cross-checking later kernels.

Only Unit Stacking so far (Rule Book, "Unit Stacking"). It reads the unit data through
``Tables.units`` (envs/tactics_david/unit_tables.py) and the Lines of Lineage through the unit
trees (configs/tactics_david/unit_tree.yaml).
"""

from __future__ import annotations

from dataclasses import dataclass

from envs.tactics_david.tables import Tables

SIDES = ("front", "left", "right", "back")


@dataclass(frozen=True)
class StackProfile:
    """The profile of a Stacked Unit (Rule Book, "Unit Stacking")."""

    units: tuple[str, ...]  # bottom first, top last
    front: int
    left: int
    right: int
    back: int
    purchase_cost: int
    stacking_points: int
    unit_class: str  # "Medium" (2 points) or "Heavy" (3 points): Reading R4
    abilities: tuple[str, ...]  # "may use the Abilities of each unit which make up the stack"
    top: str  # Attack Area, types, movement, Special, Range Rating come from this unit


def stack_strengths(tables: Tables, units: list[str]) -> StackProfile:
    """Profile of the stack `units` (bottom first, the top unit last).

    Raises ValueError when the seed forbids the stack: fewer than 2 units, more than 3
    stacking points (so never a Heavy unit), or two units more than 2 Lines of Lineage apart.
    """
    ut = tables.units
    if ut is None:
        raise ValueError("unit data (units.yaml, abilities.yaml) is not loaded")
    rules = tables.rules
    if len(units) < 2:
        raise ValueError("a Stacked Unit needs at least 2 units")
    idx = []
    for name in units:
        if name not in ut.unit_index:
            raise ValueError(f"unknown unit {name!r}")
        idx.append(ut.unit_index[name])
    points = sum(int(tables.class_stacking_points[ut.unit_class[i]]) for i in idx)
    if points > rules.stacking_points_max:
        raise ValueError(f"{points} stacking points exceed {rules.stacking_points_max}")
    for a in range(len(units)):
        for b in range(a + 1, len(units)):
            ta, tb = tables.tree_index[units[a]], tables.tree_index[units[b]]
            lines = int(tables.lineage[ta, tb])
            if lines < 0 or lines > rules.stack_lineage_max:
                raise ValueError(f"{units[a]} and {units[b]} are not within 2 Lines of Lineage")
    # "Stacked Units add their Strength Ratings together on each side".
    sums = [sum(int(ut.strength[i, k]) for i in idx) for k in range(len(SIDES))]
    cost = sum(int(ut.cost[i]) for i in idx) + rules.stack_cost_bonus[len(units)]
    return StackProfile(
        units=tuple(units),
        front=sums[0],
        left=sums[1],
        right=sums[2],
        back=sums[3],
        purchase_cost=cost,
        stacking_points=points,
        unit_class="Medium" if points == 2 else "Heavy",
        abilities=tuple(ut.ability_names[int(ut.ability[i])] for i in idx),
        top=units[-1],
    )


def in_range_area(rise: int, run: int, range_rating: int) -> bool:
    """Rule Book "Range Area" (Reading R7): Rise >= 1, |Run| <= Rise, Rise + |Run| <= range."""
    run = abs(run)
    return rise >= 1 and run <= rise and rise + run <= range_rating


def area_cells_on_grid(
    tables: Tables, code: str, target_rise: int, target_run: int
) -> list[tuple[int, int]]:
    """(rise, run) of every finite cell of a ranged area whose target space is at (rise, run).

    Rise/run are relative to an attacker facing forward; cells of a `continues` ray are not
    listed (they run on to the battlefield edge, Invented I9).
    """
    a = tables.area_index[code]
    if not tables.area_is_ranged[a]:
        raise ValueError(f"{code} is a melee area")
    tf, tr = (int(x) for x in tables.area_target[a])
    out = []
    for k in range(int(tables.area_n_cells[a])):
        f, r = (int(x) for x in tables.area_cells[a, k])
        out.append((target_rise + f - tf, target_run + r - tr))
    return out
