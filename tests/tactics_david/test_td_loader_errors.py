"""Bad-input tests for envs/tactics_david/tables.py: every error names file, entry and field."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from envs.core.config import ConfigError
from envs.tactics_david.tables import load_tables


def _edit(path: Path, old: str, new: str, count: int = 1) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, old
    path.write_text(text.replace(old, new, count), encoding="utf-8")


def _edit_yaml(path: Path, change) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")


def _fails(config: Path, file: str, entry: str | None, field: str, message: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_tables(config)
    err = info.value
    assert err.path.endswith(file)
    assert err.entry == entry
    assert err.field == field
    assert re.search(message, err.message), err.message


def test_missing_field(config_copy: Path) -> None:
    _edit_yaml(config_copy / "items.yaml", lambda d: d["entries"][2].pop("purchase_cost"))
    _fails(config_copy, "items.yaml", "2 'Mega Potion'", "purchase_cost", "missing")


def test_wrong_type(config_copy: Path) -> None:
    _edit_yaml(config_copy / "terrain_pieces.yaml", lambda d: d["entries"][5].update(height="x"))
    _fails(config_copy, "terrain_pieces.yaml", "5 'Fence'", "height", "integer")


def test_bad_origin(config_copy: Path) -> None:
    _edit_yaml(config_copy / "specials.yaml", lambda d: d["entries"][1].update(origin="made up"))
    _fails(config_copy, "specials.yaml", "1 'Relentless'", "origin", "seed")


def test_duplicate_name(config_copy: Path) -> None:
    _edit_yaml(config_copy / "statuses.yaml", lambda d: d["entries"][1].update(name="Paralyzed"))
    _fails(config_copy, "statuses.yaml", "1 'Paralyzed'", "name", "duplicate")


def test_unknown_field(config_copy: Path) -> None:
    _edit_yaml(config_copy / "attack_areas.yaml", lambda d: d["entries"][0].update(colour="red"))
    _fails(config_copy, "attack_areas.yaml", "0 'MA'", "colour", "unknown field")


def test_wrong_kind(config_copy: Path) -> None:
    _edit(config_copy / "families.yaml", "kind: tactics_david.families", "kind: tactics_david.x")
    _fails(config_copy, "families.yaml", None, "kind", "expected")


def test_unknown_status_in_item(config_copy: Path) -> None:
    _edit(
        config_copy / "items.yaml",
        "except_statuses: [Dead, Petrified]",
        "except_statuses: [Dead, Stoned]",
    )
    _fails(
        config_copy,
        "items.yaml",
        "0 'Potion'",
        "effects.0.except_statuses",
        "unknown status 'Stoned'",
    )


def test_unknown_status_in_special(config_copy: Path) -> None:
    _edit(
        config_copy / "specials.yaml",
        "statuses: [Dead, Paralyzed, Frozen]",
        "statuses: [Dead, Sleepy]",
    )
    _fails(config_copy, "specials.yaml", "1 'Relentless'", "statuses", "unknown status 'Sleepy'")


def test_unknown_cancelled_status(config_copy: Path) -> None:
    _edit(config_copy / "statuses.yaml", "cancels: [Enraged]", "cancels: [Angry]")
    _fails(config_copy, "statuses.yaml", "5 'Fearful'", "cancels", "unknown status 'Angry'")


def test_unknown_attack_area_in_item(config_copy: Path) -> None:
    _edit(config_copy / "items.yaml", "attack_area: RH", "attack_area: RZ")
    _fails(config_copy, "items.yaml", "22 'Rod of Hailfire'", "effects.0.attack_area", "RZ")


def test_unknown_root_in_item(config_copy: Path) -> None:
    _edit(config_copy / "items.yaml", "root: Pup", "root: Kitten")
    _fails(config_copy, "items.yaml", "20 'Whip'", "effects.0.root", "Kitten")


def test_status_roll_result_outside_die(config_copy: Path) -> None:
    _edit(
        config_copy / "statuses.yaml", "roll: 1D3, results: [1, 2, 3]", "roll: 1D3, results: [1, 4]"
    )
    _fails(config_copy, "statuses.yaml", "13 'Haste'", "effects.0", "outside 1..3")


def test_status_number_out_of_order(config_copy: Path) -> None:
    _edit(config_copy / "statuses.yaml", "    number: 2\n", "    number: 7\n")
    _fails(config_copy, "statuses.yaml", "1 'Blinded'", "number", "expected 2")


def test_invented_row_without_invention_id(config_copy: Path) -> None:
    _edit_yaml(config_copy / "attack_areas.yaml", lambda d: d["entries"][3].update(invention=None))
    _fails(config_copy, "attack_areas.yaml", "3 'MD'", "invention", "needs an id")


def test_melee_area_not_attached(config_copy: Path) -> None:
    _edit_yaml(config_copy / "attack_areas.yaml", lambda d: d["entries"][1].update(cells=[[2, 0]]))
    _fails(config_copy, "attack_areas.yaml", "1 'MB'", "cells", "next to the unit")


def test_ranged_area_target_outside_cells(config_copy: Path) -> None:
    _edit_yaml(config_copy / "attack_areas.yaml", lambda d: d["entries"][12].update(target=[5, 5]))
    _fails(config_copy, "attack_areas.yaml", "12 'RB'", "target", "target among the cells")


def test_unit_tree_unknown_parent(config_copy: Path) -> None:
    _edit(
        config_copy / "unit_tree.yaml",
        "number: 13, parent: Soldier",
        "number: 13, parent: Sargeant",
    )
    _fails(
        config_copy, "unit_tree.yaml", "12 'Warrior'", "parent", "unknown parent unit 'Sargeant'"
    )


def test_unit_tree_cycle(config_copy: Path) -> None:
    _edit(
        config_copy / "unit_tree.yaml",
        "{name: Soldier, origin: seed, invention: null, number: 1, parent: null}",
        "{name: Soldier, origin: invented, invention: I5, number: 1, parent: Warrior}",
    )
    _fails(config_copy, "unit_tree.yaml", "0 'Soldier'", "parent", "cycle")


def test_family_root_is_not_a_root(config_copy: Path) -> None:
    _edit(config_copy / "families.yaml", "root_unit: Pup,", "root_unit: Hound,")
    _fails(config_copy, "families.yaml", "5 'Pup'", "root_unit", "unknown root unit 'Hound'")


def test_battlefield_size_not_a_seed_size(config_copy: Path) -> None:
    _edit(config_copy / "battlefields.yaml", "size: [14, 11]", "size: [12, 11]")
    _fails(config_copy, "battlefields.yaml", "0 'Bramble Creek Crossing'", "size", "not a seed")


def test_battlefield_row_too_short(config_copy: Path) -> None:
    _edit(config_copy / "battlefields.yaml", '"FF....~~...FFF"', '"FF....~~...FF"')
    _fails(
        config_copy, "battlefields.yaml", "0 'Bramble Creek Crossing'", "terrain", "11 rows of 14"
    )


def test_battlefield_unknown_terrain_symbol(config_copy: Path) -> None:
    _edit(config_copy / "battlefields.yaml", '"FF....~~...FFF"', '"FF..?.~~...FFF"')
    _fails(
        config_copy, "battlefields.yaml", "0 'Bramble Creek Crossing'", "terrain", "'\\?' at 0,4"
    )


def test_battlefield_unknown_piece(config_copy: Path) -> None:
    _edit(config_copy / "battlefields.yaml", "T: Tree 1,", "T: Tree 9,")
    _fails(config_copy, "battlefields.yaml", "0 'Bramble Creek Crossing'", "piece_legend", "Tree 9")


def test_battlefield_deployment_zones_overlap(config_copy: Path) -> None:
    _edit(
        config_copy / "battlefields.yaml",
        "{player: 1, rows: [0, 10], cols: [12, 13]}",
        "{player: 1, rows: [0, 10], cols: [1, 13]}",
    )
    _fails(
        config_copy, "battlefields.yaml", "0 'Bramble Creek Crossing'", "deployment.1", "overlap"
    )


def test_rules_missing_constant(config_copy: Path) -> None:
    _edit(config_copy / "rules.yaml", "charge_test_pass: 7", "")
    _fails(config_copy, "rules.yaml", None, "charge_test_pass", "missing")


def test_unknown_terrain_type_of_piece(config_copy: Path) -> None:
    _edit(config_copy / "terrain_pieces.yaml", "terrain_type: Road", "terrain_type: Lava")
    _fails(
        config_copy,
        "terrain_pieces.yaml",
        "4 'Bridge'",
        "terrain_type",
        "unknown terrain type 'Lava'",
    )


def test_statuses_disagree_with_unit_tables(config_copy: Path) -> None:
    # The units helper's ability texts are checked against STATUSES; a renamed status must fail.
    _edit(config_copy / "statuses.yaml", "name: Confused", "name: Dizzy")
    _fails(config_copy, "statuses.yaml", None, "name", "unit_tables.STATUSES")


def test_unit_tree_number_disagrees_with_units(config_copy: Path) -> None:
    # Swap two tree rows' names so numbers no longer match units.yaml.
    def swap(d: dict) -> None:
        e = d["entries"]
        e[1]["name"], e[2]["name"] = e[2]["name"], e[1]["name"]
        e[1]["parent"], e[2]["parent"] = "Soldier", "Paladin"

    _edit_yaml(config_copy / "unit_tree.yaml", swap)
    _fails(config_copy, "unit_tree.yaml", "1 'Paladin'", "number", "differs from units.yaml")
