"""envs/core/config.py: every rule-data error names the file, the entry and the field
(ARCHITECTURE.md section 7). A small model stands in for a ruleset's table."""

from __future__ import annotations

from pathlib import Path
from typing import Literal

import pytest
from pydantic import BaseModel, ConfigDict

from envs.core.config import (
    ConfigError,
    Entry,
    load_entries,
    load_mapping,
    read_yaml,
    require_known,
)


class Weapon(Entry):
    damage: int
    kind: Literal["gun", "missile"]
    tags: list[str] = []


class Settings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)
    rounds: int
    name: str


GOOD = """kind: test.weapons
entries:
  - {name: Gun, origin: seed, damage: 4, kind: gun}
  - {name: Missile, origin: invented, damage: 2, kind: missile, tags: [heavy]}
"""


def write(tmp_path: Path, text: str, name: str = "weapons.yaml") -> Path:
    p = tmp_path / name
    p.write_text(text, encoding="utf-8")
    return p


def expect(path: Path, entry: str | None, field: str | None, words: str, fn) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        fn()
    err = exc.value
    msg = str(err)
    assert err.path == str(path) and msg.startswith(str(path))
    assert err.entry == entry and err.field == field
    if entry is not None:
        assert f"entry {entry}" in msg
    if field is not None:
        assert f"field '{field}'" in msg
    assert words in msg
    return err


def test_good_file_loads(tmp_path: Path) -> None:
    rows = load_entries(write(tmp_path, GOOD), "test.weapons", Weapon)
    assert [r.name for r in rows] == ["Gun", "Missile"]
    assert rows[1].tags == ["heavy"] and rows[1].origin == "invented"


@pytest.mark.parametrize(
    ("replace", "entry", "field", "words"),
    [
        ("damage: 4, ", "0 'Gun'", "damage", "missing required field"),  # missing field
        ("damage: 4", "0 'Gun'", "damage", "valid integer"),  # wrong type (below)
        ("kind: gun", "0 'Gun'", "kind", "'gun' or 'missile'"),  # not in the vocabulary
        ("origin: seed", "0 'Gun'", "origin", "'seed' or 'invented'"),  # bad origin
        ("kind: gun}", "0 'Gun'", "colour", "unknown field"),  # extra field
    ],
)
def test_row_errors_name_file_entry_field(tmp_path, replace, entry, field, words) -> None:
    bad = {
        "damage: 4, ": "",
        "damage: 4": "damage: four",
        "kind: gun": "kind: laser",
        "origin: seed": "origin: rulebook",
        "kind: gun}": "kind: gun, colour: red}",
    }[replace]
    path = write(tmp_path, GOOD.replace(replace, bad, 1))
    expect(path, entry, field, words, lambda: load_entries(path, "test.weapons", Weapon))


def test_nested_field_is_named_with_its_index(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("tags: [heavy]", "tags: [heavy, [x]]"))
    expect(
        path,
        "1 'Missile'",
        "tags.1",
        "valid string",
        lambda: load_entries(path, "test.weapons", Weapon),
    )


def test_duplicate_name(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("name: Missile", "name: Gun"))
    expect(
        path,
        "1 'Gun'",
        "name",
        "duplicate of entry 0",
        lambda: load_entries(path, "test.weapons", Weapon),
    )


def test_entry_without_a_name_is_labelled_by_index(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD.replace("name: Missile, ", ""))
    expect(path, "1", "name", "missing", lambda: load_entries(path, "test.weapons", Weapon))


def test_entry_that_is_not_a_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD + "  - just a string\n")
    expect(path, "2", None, "must be a mapping", lambda: load_entries(path, "test.weapons", Weapon))


@pytest.mark.parametrize(
    ("text", "field", "words"),
    [
        (
            "kind: test.units\nentries: [{name: A, origin: seed}]\n",
            "kind",
            "expected 'test.weapons'",
        ),
        ("kind: test.weapons\nentries: []\n", "entries", "non-empty list"),
        ("kind: test.weapons\n", "entries", "non-empty list"),
        ("- a\n- b\n", None, "top level must be a mapping"),
        ("kind: [unclosed\n", None, "not valid YAML"),
    ],
)
def test_file_level_errors(tmp_path: Path, text: str, field, words: str) -> None:
    path = write(tmp_path, text)
    expect(path, None, field, words, lambda: load_entries(path, "test.weapons", Weapon))


def test_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "nope.yaml"
    expect(path, None, None, "cannot read file", lambda: read_yaml(path))


def test_load_mapping(tmp_path: Path) -> None:
    path = write(tmp_path, "kind: test.game\nrounds: 8\nname: TAC\n", "game.yaml")
    assert load_mapping(path, "test.game", Settings).rounds == 8
    bad = write(tmp_path, "kind: test.game\nname: TAC\n", "game.yaml")
    expect(
        bad,
        None,
        "rounds",
        "missing required field",
        lambda: load_mapping(bad, "test.game", Settings),
    )
    bad = write(tmp_path, "kind: test.game\nrounds: eight\nname: TAC\n", "game.yaml")
    expect(bad, None, "rounds", "valid integer", lambda: load_mapping(bad, "test.game", Settings))
    bad = write(tmp_path, "kind: test.other\nrounds: 8\nname: TAC\n", "game.yaml")
    expect(
        bad, None, "kind", "expected 'test.game'", lambda: load_mapping(bad, "test.game", Settings)
    )


def test_require_known_names_the_unknown_reference(tmp_path: Path) -> None:
    path = write(tmp_path, GOOD)
    rows = load_entries(path, "test.weapons", Weapon)
    require_known(path, rows, "tags", ["heavy"], "tag")  # known: no error
    err = expect(
        path,
        "1 'Missile'",
        "tags",
        "unknown tag 'heavy'",
        lambda: require_known(path, rows, "tags", ["light"], "tag"),
    )
    assert err.message == "unknown tag 'heavy'"
    expect(
        path,
        "0 'Gun'",
        "kind",
        "unknown weapon kind 'gun'",
        lambda: require_known(path, rows, "kind", ["missile"], "weapon kind"),
    )


def test_config_error_message_format() -> None:
    err = ConfigError("configs/x.yaml", "3 'Tank'", "hit_points", "must be >= 1")
    assert str(err) == "configs/x.yaml: entry 3 'Tank': field 'hit_points': must be >= 1"
    assert isinstance(err, ValueError)
    assert str(ConfigError("f.yaml", None, None, "bad")) == "f.yaml: bad"
