"""Unit Stacking (Rule Book "Unit Stacking"), via the pure-Python reference over units.yaml."""

from __future__ import annotations

import pytest

from envs.tactics_david.reference import stack_strengths
from envs.tactics_david.tables import Tables


def test_seed_stack_example_soldier_warrior_spearman(tables: Tables) -> None:
    # Figure 8.1: front 10, left 5, right 6, back 4; abilities of all three; cost 37.
    s = stack_strengths(tables, ["Soldier", "Warrior", "Spearman"])
    assert (s.front, s.left, s.right, s.back) == (10, 5, 6, 4)
    assert s.purchase_cost == 37
    assert s.abilities == ("Cry For Help", "Battle Cry", "Skewer")
    assert s.top == "Spearman"


def test_two_unit_stack_costs_six_more(tables: Tables) -> None:
    s = stack_strengths(tables, ["Soldier", "Knight"])
    u = tables.units
    base = int(u.cost[u.unit_index["Soldier"]]) + int(u.cost[u.unit_index["Knight"]])
    assert s.purchase_cost == base + 6
    assert s.stacking_points == 2 and s.unit_class == "Medium"


def test_heavy_unit_may_never_be_stacked(tables: Tables) -> None:
    with pytest.raises(ValueError, match="stacking points"):
        stack_strengths(tables, ["Knight", "Paladin"])


def test_light_plus_medium_plus_light_exceeds_three_points(tables: Tables) -> None:
    with pytest.raises(ValueError, match="stacking points"):
        stack_strengths(tables, ["Soldier", "Black Knight", "Knight"])


def test_stack_units_must_be_within_two_lines_of_lineage(tables: Tables) -> None:
    # Soldier -> Knight -> Black Knight -> Bone Knight is 3 lines; other families never match.
    with pytest.raises(ValueError, match="Lineage"):
        stack_strengths(tables, ["Soldier", "Archer"])
    lin = tables.lineage[tables.tree_index["Soldier"], tables.tree_index["Bone Knight"]]
    assert lin == 3


def test_single_unit_is_not_a_stack(tables: Tables) -> None:
    with pytest.raises(ValueError, match="at least 2"):
        stack_strengths(tables, ["Soldier"])


def test_two_lines_apart_may_stack(tables: Tables) -> None:
    # Soldier -> Knight -> Angel: exactly 2 Lines of Lineage.
    assert tables.lineage[tables.tree_index["Soldier"], tables.tree_index["Angel"]] == 2
    s = stack_strengths(tables, ["Soldier", "Angel"])
    assert s.top == "Angel"
