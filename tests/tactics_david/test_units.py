"""Tactics David unit table (Unit and Item Book V3.2, "Unit List"): data and loader checks."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml

from envs.core.config import CONFIG_ROOT, ConfigError
from envs.tactics_david.unit_tables import (
    ATTACK_AREAS,
    CLASS_CORE_RANGE,
    SPECIALS,
    load_unit_tables,
    load_units,
)

TD = CONFIG_ROOT / "tactics_david"
UNITS = TD / "units.yaml"


@pytest.fixture(scope="module")
def units():
    return load_units(UNITS)


@pytest.fixture(scope="module")
def tables():
    return load_unit_tables(TD)


def test_unit_list_has_202_units_numbered_in_order(units):
    assert len(units) == 202
    assert [u.number for u in units] == list(range(1, 203))
    assert len({u.name for u in units}) == 202


def test_core_strength_is_the_sum_of_the_four_sides(units):
    for u in units:
        s = u.strength
        assert u.core_strength == s.front + s.left + s.right + s.back, u.name


# Rule Book, "Unit Class": Light 4-12, Medium 13-18, Heavy 19-24 ("Generally"). Two seed rows
# print a class outside their core range; reading RU3 keeps the printed class.
CLASS_EXCEPTIONS = {"Dreadnaught": ("Medium", 19), "Assassin": ("Heavy", 17)}


def test_class_matches_core_strength_range_except_the_pinned_rows(units):
    breaking = {}
    for u in units:
        lo, hi = CLASS_CORE_RANGE[u.unit_class]
        if not lo <= u.core_strength <= hi:
            breaking[u.name] = (u.unit_class, u.core_strength)
    assert breaking == CLASS_EXCEPTIONS
    for name in CLASS_EXCEPTIONS:
        assert "RU3" in next(u for u in units if u.name == name).reading


@pytest.mark.parametrize(
    ("number", "name", "special", "ability"),
    [
        (48, "Apprentice", "Swarm", "Study"),
        (60, "Contraption", "Swarm", "Synchronize"),
        (69, "Slime", "Swarm", "Slip"),
        (73, "Bitty Bug", "Swarm", "Manuever"),
        (127, "Snake", "Swarm", "Shed"),
        (136, "Kraken", "Hulking", "Grapple Tentacle"),
        (139, "Turtle Fortress", "Hulking", "Impenetrable"),
    ],
)
def test_unit_whose_special_dropped_its_ability_takes_it_from_the_ability_list(
    units, number, name, special, ability
):
    u = units[number - 1]
    assert (u.name, u.special, u.ability) == (name, special, ability)
    assert ability not in u.text  # the seed row really lacks it
    assert "RU1" in u.reading


def test_exactly_the_rows_without_an_ability_cell_carry_reading_ru1(units):
    dropped = {u.name for u in units if u.ability not in u.text and u.number != 94}
    assert dropped == {u.name for u in units if "RU1" in u.reading}


def test_text_row_matches_the_structured_fields(units):
    """The raw seed row kept in `text` agrees with number, name, sides, core and cost."""
    for u in units:
        cells = u.text.split("\t")
        assert int(cells[0]) == u.number and cells[1] == u.name
        s = u.strength
        assert [int(c) for c in cells[5:10]] == [s.front, s.left, s.right, s.back, u.core_strength]
        assert int(cells[10]) == u.movement_rating and cells[11] == u.movement_type
        assert int(cells[-1]) == u.purchase_cost
        assert u.attack_area in cells or "RU4" in u.reading
        assert (u.special is None) == (not any(c in SPECIALS for c in cells))


def test_crystal_golem_ranged_area_reads_rh(units):
    golem = units[85]
    assert golem.attack_mode == "Ranged" and "\tMH\t" in golem.text
    assert golem.attack_area == "RH" and golem.reading == ["RU4"]


def test_ranged_units_have_range_rating_and_melee_units_none(units):
    for u in units:
        if u.attack_mode == "Ranged":
            assert u.range_rating is not None and u.range_modifier is not None
            assert u.attack_area.startswith("R"), u.name
        else:
            assert u.range_rating is None and u.range_modifier is None
            assert u.attack_area.startswith("M"), u.name


def test_seed_stack_example_soldier_warrior_spearman(tables):
    """Rule Book "Unit Stacking", fig. 8.1: Spearman on top -> 10/5/6/4, cost 37."""
    idx = [tables.unit_index[n] for n in ("Soldier", "Warrior", "Spearman")]
    front, left, right, back = tables.strength[idx].sum(axis=0)
    assert (front, left, right, back) == (10, 5, 6, 4)
    assert int(tables.cost[idx].sum()) + 12 == 37
    names = [tables.ability_names[tables.ability[i]] for i in idx]
    assert names == ["Cry For Help", "Battle Cry", "Skewer"]


def test_tables_are_read_only_small_dtypes(tables):
    assert tables.strength.shape == (202, 4) and tables.strength.dtype == np.int8
    assert tables.cost.dtype == np.int16
    for arr in (tables.strength, tables.cost, tables.unit_class, tables.eff_kind):
        assert not arr.flags.writeable
    assert tables.unit_names[tables.unit_index["Lich"]] == "Lich"
    assert ATTACK_AREAS[tables.attack_area[tables.unit_index["Lich"]]] == "RH"
    assert tables.range_rating[tables.unit_index["Soldier"]] == -1


# --- bad input -------------------------------------------------------------------------------


def _broken(tmp_path: Path, mutate, upto: int = 202) -> Path:
    """A broken copy; `upto` keeps only the first rows (the row error is raised first)."""
    doc = yaml.load(UNITS.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    mutate(doc["entries"])
    doc["entries"] = doc["entries"][:upto]
    path = tmp_path / "units.yaml"
    path.write_text(yaml.dump(doc, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return path


def _expect(path: Path, entry: str, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        load_units(path)
    msg = str(err.value)
    assert str(path) in msg and f"entry {entry}" in msg and f"field '{field}'" in msg, msg


def test_missing_field_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[4].pop("purchase_cost"), upto=5)
    _expect(path, "4 'Angel'", "purchase_cost")


def test_wrong_type_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[1]["strength"].update(front="four"), upto=2)
    _expect(path, "1 'Knight'", "strength.front")


def test_unknown_attack_area_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[2].update(attack_area="MZ"), upto=3)
    _expect(path, "2 'Paladin'", "attack_area")


def test_duplicate_name_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[3].update(name="Soldier"), upto=4)
    _expect(path, "3 'Soldier'", "name")


def test_bad_origin_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[0].update(origin="guessed"), upto=1)
    _expect(path, "0 'Soldier'", "origin")


def test_number_out_of_order_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[9].update(number=99), upto=10)
    _expect(path, "9 'Death Knight'", "number")


def test_core_strength_not_the_sum_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[5].update(core_strength=15), upto=6)
    _expect(path, "5 'Black Knight'", "core_strength")


def test_melee_unit_with_range_rating_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[0].update(range_rating=3), upto=1)
    _expect(path, "0 'Soldier'", "range_rating")


def test_unknown_special_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: es[0].update(special="Swarming"), upto=1)
    _expect(path, "0 'Soldier'", "special")


def test_unit_count_other_than_202_is_rejected(tmp_path):
    path = _broken(tmp_path, lambda es: None, upto=201)
    with pytest.raises(ConfigError) as err:
        load_units(path)
    assert str(path) in str(err.value) and "field 'entries'" in str(err.value)
