"""Loading terrain.yaml and the scenarios (envs/legendary_battles/tables.py)."""

from __future__ import annotations

import copy
import re
from pathlib import Path

import pytest
import yaml
from lb_helpers import TERRAIN, compile_doc, scenario_doc, write

from envs.core.config import ConfigError
from envs.legendary_battles.tables import (
    DEFAULT_DIR,
    UNIT_TYPES,
    fantasy_cards_unit_names,
    load_scenario,
    load_tables,
    load_terrain,
)

# the seeds sit beside the repository (../shared/seeds/), as in CI
SEED_FC = Path(__file__).resolve().parents[3] / "shared" / "seeds" / "000_966979c4608810fc.txt"


def test_real_data_loads_with_three_scenarios_on_both_grids():
    t = load_tables(unit_types_path=None)  # the Fantasy Cards file: next test
    assert len(t.scenarios) >= 3
    shapes = {sa.grid.shape for sa in t.scenarios.values()}
    assert shapes == {0, 1}
    oversized = [sa for sa in t.scenarios.values() if (sa.unit_zones.sum(axis=1) > 1).any()]
    assert oversized and all((sa.side_terrain >= 0).any() for sa in oversized)


def test_unknown_unit_type_in_the_fantasy_cards_file_is_rejected(tmp_path):
    fc = tmp_path / "unit_types.yaml"
    names = [n for n in UNIT_TYPES if n != "WAR MACHINE"]
    fc.write_text(
        yaml.safe_dump(
            {"kind": "fantasy_cards.unit_types", "entries": [{"name": n} for n in names]}
        )
    )
    with pytest.raises(ConfigError) as exc:
        load_tables(unit_types_path=fc)
    assert "WAR MACHINE" in str(exc.value) and exc.value.field.endswith(".type")


def test_unit_type_names_are_fantasy_cards_table_3():
    # Transcribed from Table 3 here; the Fantasy Cards data file must agree.
    text = SEED_FC.read_text(encoding="utf-8") if SEED_FC.exists() else None
    if text is not None:
        table = text[text.index("TABLE 3:") : text.index("TABLE 4:")]
        rows = re.findall(r"^([A-Z][A-Z ]+)\t.*\t(\d+)$", table, flags=re.M)
        assert {n: int(p) for n, p in rows} == UNIT_TYPES
    fc = fantasy_cards_unit_names()
    if fc is not None:
        assert sorted(fc) == sorted(UNIT_TYPES)
        load_tables()  # every scenario's unit types are entries of the Fantasy Cards file


def _msg(exc: pytest.ExceptionInfo) -> str:
    return str(exc.value)


# ---- terrain.yaml bad inputs -----------------------------------------------------------------


def _terrain_copy(tmp_path: Path, edit) -> Path:
    doc = yaml.safe_load((DEFAULT_DIR / "terrain.yaml").read_text(encoding="utf-8"))
    edit(doc["entries"])
    path = tmp_path / "terrain.yaml"
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("edit", "field", "words"),
    [
        (lambda e: e[1].pop("shape"), "shape", "missing required field"),
        (lambda e: e[1].update(move_cost="two"), "move_cost", "integer"),
        (lambda e: e[1].update(origin="rulebook"), "origin", "'seed' or 'invented'"),
        (lambda e: e[1].update(effects=["smoky"]), "effects.0", "covering"),
        (lambda e: e[1].update(move_cost=1), "move_cost", "costs 2"),
        (lambda e: e[1].update(move_cost=None), "move_cost", "impassable"),
        (lambda e: e[3].update(refs=["R4"]), "refs", "Invented decision"),
        (lambda e: e[0].update(climb_route=True), "climb_route", "linear"),
        (lambda e: e[2].update(name="Woods"), "name", "duplicate"),
        (lambda e: e[1].update(colour="green"), "colour", "pattern"),
    ],
)
def test_bad_terrain_file_names_file_entry_and_field(tmp_path, edit, field, words):
    path = _terrain_copy(tmp_path, edit)
    with pytest.raises(ConfigError) as exc:
        load_terrain(path)
    assert exc.value.path == str(path)
    assert exc.value.entry is not None and exc.value.field == field
    assert words in _msg(exc)


# ---- scenario bad inputs ---------------------------------------------------------------------


def _fail(tmp_path: Path, doc: dict) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        compile_doc(doc, tmp_path, "bad.yaml")
    assert exc.value.path == str(tmp_path / "bad.yaml")
    assert exc.value.entry == "'Test Map'"
    return exc.value


ROWS = [". . . .", ". W . .", ". . Q .", ". . . ."]
U0 = [{"type": "INFANTRY", "label": "A", "zone": [0, 0], "facing": "S"}]


def _doc(**kw):
    return scenario_doc(ROWS, units0=copy.deepcopy(U0), **kw)


def test_scenario_missing_field(tmp_path):
    d = _doc()
    del d["summary"]
    e = _fail(tmp_path, d)
    assert e.field == "summary" and "missing required field" in str(e)


def test_scenario_wrong_type(tmp_path):
    d = _doc()
    d["map"]["width"] = "four"
    assert _fail(tmp_path, d).field == "map.width"


def test_scenario_bad_origin(tmp_path):
    d = _doc()
    d["origin"] = "homebrew"
    assert _fail(tmp_path, d).field == "origin"


def test_scenario_unknown_field(tmp_path):
    d = _doc()
    d["map"]["colour"] = "red"
    e = _fail(tmp_path, d)
    assert e.field == "map.colour" and "unknown field" in str(e)


def test_scenario_wrong_kind(tmp_path):
    d = _doc()
    d["kind"] = "legendary_battles.map"
    assert _fail(tmp_path, d).field == "kind"


def test_scenario_unknown_unit_type(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"][0]["type"] = "DRAGON"
    e = _fail(tmp_path, d)
    assert e.field == "sides.0.force.units.0.type" and "DRAGON" in str(e)


def test_scenario_unknown_terrain_in_legend(tmp_path):
    d = _doc()
    d["map"]["legend"] = {**d["map"]["legend"], "X": "Mountain"}
    assert _fail(tmp_path, d).field == "map.legend.X"


def test_scenario_linear_terrain_in_a_zone(tmp_path):
    d = _doc()
    d["map"]["legend"] = {**d["map"]["legend"], "#": "Wall"}
    assert "linear" in str(_fail(tmp_path, d))


def test_scenario_template_terrain_on_a_side(tmp_path):
    d = _doc(linear=[{"terrain": "Woods", "sides": [[0, 0, "E"]]}])
    assert _fail(tmp_path, d).field == "map.linear_terrain.0.terrain"


def test_scenario_bad_side_name(tmp_path):
    d = _doc(linear=[{"terrain": "Wall", "sides": [[0, 0, "NE"]]}])
    assert _fail(tmp_path, d).field == "map.linear_terrain.0.sides.0"


def test_scenario_symbol_not_in_legend(tmp_path):
    d = _doc()
    d["map"]["terrain"] = d["map"]["terrain"].replace("W", "Z")
    assert _fail(tmp_path, d).field == "map.terrain"


def test_scenario_row_count_mismatch(tmp_path):
    d = _doc()
    d["map"]["height"] = 5
    assert "rows" in str(_fail(tmp_path, d))


def test_scenario_bad_elevation_token(tmp_path):
    d = _doc()
    d["map"]["elevation"] = "0 0 0 0\n0 2x 0 0\n0 0 0 0\n0 0 0 0\n"
    assert _fail(tmp_path, d).field == "map.elevation"


def test_scenario_unit_off_the_map(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"][0]["zone"] = [9, 9]
    assert _fail(tmp_path, d).field == "sides.0.force.units.0.zone"


def test_scenario_two_units_in_one_zone(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"].append(
        {"type": "ARCHER", "label": "B", "zone": [0, 0], "facing": "S"}
    )
    e = _fail(tmp_path, d)
    assert e.field == "sides.0.force.units.1.zone" and "already holds" in str(e)


def test_scenario_unit_on_impassable_terrain(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"][0]["zone"] = [2, 2]
    assert "impassable" in str(_fail(tmp_path, d))


def test_scenario_oversized_footprint_off_the_map(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"][0]["footprint"] = ["N"]
    assert _fail(tmp_path, d).field == "sides.0.force.units.0.footprint"


def test_scenario_duplicate_unit_label(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"].append({"type": "ARCHER", "label": "A"})
    assert _fail(tmp_path, d).field == "sides.0.force.units.1.label"


def test_scenario_aerial_unit_placed_on_the_map(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["units"][0]["type"] = "AERIAL"
    assert "do not start on the battlefield" in str(_fail(tmp_path, d))


def test_scenario_force_needs_points_or_units(tmp_path):
    d = _doc()
    d["sides"][0]["force"]["points"] = 10
    assert _fail(tmp_path, d).field == "sides.0.force"


def test_scenario_overlapping_deployment(tmp_path):
    d = _doc()
    d["sides"][1]["deployment"] = {"rows": [0, 3]}
    assert _fail(tmp_path, d).field == "sides.1.deployment"


def test_scenario_reinforcements_name_unknown_unit(tmp_path):
    d = _doc()
    d["special_rules"] = [
        {
            "kind": "reinforcements",
            "name": "R",
            "text": "t",
            "side": 0,
            "turn": 2,
            "units": ["Z"],
            "zones": {"rows": [0, 0]},
        }
    ]
    assert _fail(tmp_path, d).field == "special_rules.0.units.0"


def test_scenario_unknown_special_rule_kind(tmp_path):
    d = _doc()
    d["special_rules"] = [{"kind": "fog", "name": "F", "text": "t"}]
    assert _fail(tmp_path, d).field == "special_rules.0"


def test_scenario_end_condition_names_unknown_unit(tmp_path):
    d = _doc()
    d["end_of_game"]["conditions"].append({"kind": "unit_eliminated", "unit": "Q"})
    assert _fail(tmp_path, d).field == "end_of_game.conditions.1.unit"


def test_scenario_hold_zones_at_turn_limit_needs_a_hold_zones_condition(tmp_path):
    d = _doc()
    d["end_of_game"]["at_turn_limit"] = "hold_zones"
    assert _fail(tmp_path, d).field == "end_of_game.at_turn_limit"


def test_scenario_invented_without_reference(tmp_path):
    d = _doc()
    d["refs"] = []
    assert _fail(tmp_path, d).field == "refs"


def test_duplicate_scenario_names_are_rejected(tmp_path):
    (tmp_path / "scenarios").mkdir()
    (tmp_path / "terrain.yaml").write_text((DEFAULT_DIR / "terrain.yaml").read_text())
    write(_doc(), tmp_path / "scenarios" / "a.yaml")
    write(_doc(), tmp_path / "scenarios" / "b.yaml")
    with pytest.raises(ConfigError) as exc:
        load_tables(tmp_path, unit_types_path=None)
    assert exc.value.path.endswith("b.yaml") and exc.value.field == "name"


def test_scenario_loader_names_the_scenario_in_schema_errors(tmp_path):
    d = _doc()
    d["end_of_game"]["turn_limit"] = 0
    path = write(d, tmp_path / "x.yaml")
    with pytest.raises(ConfigError) as exc:
        load_scenario(path)
    assert exc.value.entry == "'Test Map'" and exc.value.field == "end_of_game.turn_limit"


def test_terrain_rows_and_scenarios_compile_to_read_only_arrays(tmp_path):
    sa = compile_doc(_doc(), tmp_path)
    assert not sa.entry_cost.flags.writeable and not sa.unit_zones.flags.writeable
    assert sa.entry_cost.dtype.name == "int8" and sa.zone_terrain.dtype.name == "int16"
    assert [t.name for t in TERRAIN][0] == "Clear"
