"""Attack areas (Unit and Item Book "Attack Area List"; Rule Book "Conditions").

The shapes are invented (rules doc I1-I4); these tests check them against every seed text
that constrains them.
"""

from __future__ import annotations

from envs.tactics_david.reference import area_cells_on_grid, in_range_area
from envs.tactics_david.tables import Tables


def _cells(tables: Tables, code: str) -> list[tuple[int, int]]:
    a = tables.area_index[code]
    return [tuple(int(x) for x in tables.area_cells[a, k]) for k in range(tables.area_n_cells[a])]


def test_attack_area_list_has_ma_to_mk_and_ra_to_ri(tables: Tables) -> None:
    melee = [f"M{c}" for c in "ABCDEFGHIJK"]
    ranged = [f"R{c}" for c in "ABCDEFGHI"]
    assert tables.area_names == tuple(melee + ranged)
    assert tables.area_is_ranged.tolist() == [False] * 11 + [True] * 9


def test_every_referenced_attack_area_exists(tables: Tables) -> None:
    u = tables.units
    used_by_units = {tables.area_names[a] for a in u.attack_area.tolist()}
    used_by_abilities = {tables.area_names[a] for a in u.eff_attack_area.tolist() if a >= 0}
    used_by_items = {tables.area_names[a] for a in tables.item_eff_attack_area.tolist() if a >= 0}
    used = used_by_units | used_by_abilities | used_by_items
    assert used <= set(tables.area_names)
    # Lightning Cry names MF; the weapons MA, MB, MC, MD; the Rod of Hailfire RH.
    assert "MF" in used_by_abilities
    assert used_by_items == {"MA", "MB", "MC", "MD", "RH"}
    assert set(tables.area_names) - used == {"MG", "MI", "RG"}  # Invented I2


def test_melee_areas_are_attached_to_the_unit(tables: Tables) -> None:
    # "A Melee Unit's Area of Attack ... is always directly attached to their Grid Space."
    for code in tables.area_names[:11]:
        cells = _cells(tables, code)
        assert (0, 0) not in cells
        assert any(max(abs(f), abs(r)) == 1 for f, r in cells), code


def test_ma_is_the_ranged_melee_space(tables: Tables) -> None:
    # "Ranged Melee Procedure": "1 single Grid Space located ... directly to the front".
    assert _cells(tables, "MA") == [(1, 0)]


def test_skewer_area_holds_the_unit_behind_the_first(tables: Tables) -> None:
    # Skewer (Spearman, MB): "any other Unit within this Unit's Attack Area also acquires Dead".
    spearman = tables.units.unit_index["Spearman"]
    assert tables.area_names[tables.units.attack_area[spearman]] == "MB"
    assert {(1, 0), (2, 0)} <= set(_cells(tables, "MB"))


def test_abilities_counting_units_in_the_area_have_several_spaces(tables: Tables) -> None:
    # Make Bread (Giant), Unholy Strength (Abomination): "each Unit within ... Attack Area".
    u = tables.units
    for unit in ("Giant", "Abomination"):
        code = tables.area_names[u.attack_area[u.unit_index[unit]]]
        assert len(_cells(tables, code)) > 1, unit


def test_pierce_reaches_beyond_a_single_space_area(tables: Tables) -> None:
    # Pierce (Crossbowman, RA): "any Unit behind that Unit" must be outside the area (R11).
    u = tables.units
    code = tables.area_names[u.attack_area[u.unit_index["Crossbowman"]]]
    assert code == "RA" and _cells(tables, code) == [(0, 0)]


def test_ranged_areas_contain_their_target_space(tables: Tables) -> None:
    for a in range(11, len(tables.area_names)):
        target = tuple(int(x) for x in tables.area_target[a])
        assert target in _cells(tables, tables.area_names[a])


def test_range_area_figures_5_1_to_5_6() -> None:
    # Range Rating 5: (rise, run) of figs 5.1-5.5 are inside, fig 5.6 is outside.
    for rise, run in [(5, 0), (4, 1), (3, 2), (2, 2), (1, 1)]:
        assert in_range_area(rise, run, 5)
        assert in_range_area(rise, -run, 5)
    assert not in_range_area(2, 3, 5)
    assert not in_range_area(0, 0, 5)


def test_rh_figures_6_2_to_6_4(tables: Tables) -> None:
    # Reading R8: (column, row) with the attacker on 1,1 facing increasing rows, range 5.
    def rise_run(col: int, row: int) -> tuple[int, int]:
        return row - 1, col - 1

    fig62, fig63, fig64 = rise_run(2, 3), rise_run(2, 5), rise_run(3, 5)
    assert in_range_area(*fig62, 5) and in_range_area(*fig63, 5)
    assert not in_range_area(*fig64, 5)
    # Fig 6.3: other Units in the area are hit "even though they are outside the Range Area".
    cells = area_cells_on_grid(tables, "RH", *fig63)
    assert any(not in_range_area(rise, run, 5) for rise, run in cells)
    # Fig 6.2: the black dot is one particular space; the area holds more than it.
    assert len(cells) > 1


def test_an_area_continues_forever(tables: Tables) -> None:
    # "An arrow indicates that the Attack Area continues forever": RI (Gorgon Gaze, I4).
    cont = {tables.area_names[a] for a in range(20) if tables.area_continues[a].any()}
    assert cont == {"RI"}
    assert tables.area_continues[tables.area_index["RI"]].tolist() == [1, 0]
    u = tables.units
    assert tables.area_names[u.attack_area[u.unit_index["Gorgon"]]] == "RI"
