"""Broken TAC rule-data files (ARCHITECTURE.md sections 5 and 7; issue 2, section 6): a
ConfigError naming the file, the entry and the field. Bad input to the API (player counts,
seeds, action arrays, illegal actions, penalty mode) is tested for every ruleset in
tests/platform/test_platform_bad_input.py."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from envs.core.config import CONFIG_ROOT, ConfigError
from envs.tac import tac_v1
from envs.tac.tables import load_tables

# ---------------------------------------------------------------- broken rule data


@pytest.fixture
def tac_dir(tmp_path: Path) -> Path:
    d = tmp_path / "tac"
    shutil.copytree(CONFIG_ROOT / "tac", d)
    return d


def _edit(path: Path, change) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


def _entry(doc: dict, name: str) -> tuple[int, dict]:
    for i, e in enumerate(doc["entries"]):
        if e["name"] == name:
            return i, e
    raise AssertionError(name)


def _expect(tac_dir: Path, file: str, entry: str | None, field: str) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        load_tables(tac_dir)
    err = exc.value
    msg = str(err)
    assert Path(err.path).name == file and file in msg
    assert err.field == field and f"field '{field}'" in msg
    if entry is not None:
        assert err.entry == entry and f"entry {entry}" in msg
    return err


def test_copied_config_loads(tac_dir: Path) -> None:
    """The control: the unbroken copy loads (so each failure below is the edit's doing)."""
    assert load_tables(tac_dir).n_unit_types > 0


def test_unit_missing_field(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "Medium Tank")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i].pop("hit_points"))
    err = _expect(tac_dir, "units.yaml", f"{i} 'Medium Tank'", "hit_points")
    assert "missing" in err.message


def test_unit_wrong_type(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "ATGM Vehicle")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i].update(victory_points="many"))
    _expect(tac_dir, "units.yaml", f"{i} 'ATGM Vehicle'", "victory_points")


def test_unit_naming_an_unknown_weapon(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "Armoured Car")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i]["weapons"].append("railgun"))
    err = _expect(tac_dir, "units.yaml", f"{i} 'Armoured Car'", "weapons")
    assert "railgun" in err.message


def test_card_naming_an_unknown_weapon(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "Heavy Gun 4")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].update(weapon="laser"))
    err = _expect(tac_dir, "action_cards.yaml", f"{i} 'Heavy Gun 4'", "weapon")
    assert "laser" in err.message


def test_card_missing_field_of_its_colour(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "A-10 Strike")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].pop("to_hit"))
    _expect(tac_dir, "action_cards.yaml", f"{i} 'A-10 Strike'", "to_hit")


def test_card_wrong_type(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "x2")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].update(count=[3]))
    _expect(tac_dir, "action_cards.yaml", f"{i} 'x2'", "count")


@pytest.mark.parametrize("file", ["units.yaml", "action_cards.yaml", "weapons.yaml"])
def test_bad_origin(tac_dir: Path, file: str) -> None:
    doc = yaml.safe_load((tac_dir / file).read_text())
    name = doc["entries"][1]["name"]
    _edit(tac_dir / file, lambda d: d["entries"][1].update(origin="rulebook"))
    _expect(tac_dir, file, f"1 '{name}'", "origin")


@pytest.mark.parametrize("file", ["units.yaml", "action_cards.yaml", "weapons.yaml"])
def test_duplicate_name(tac_dir: Path, file: str) -> None:
    doc = yaml.safe_load((tac_dir / file).read_text())
    first = doc["entries"][0]["name"]
    n = len(doc["entries"])
    _edit(tac_dir / file, lambda d: d["entries"].append(dict(d["entries"][0])))
    err = _expect(tac_dir, file, f"{n} '{first}'", "name")
    assert "duplicate" in err.message


def test_weapon_bad_literal(tac_dir: Path) -> None:
    _edit(tac_dir / "weapons.yaml", lambda d: d["entries"][0].update(weight="medium"))
    name = yaml.safe_load((tac_dir / "weapons.yaml").read_text())["entries"][0]["name"]
    _expect(tac_dir, "weapons.yaml", f"0 '{name}'", "weight")


def test_game_settings_missing_and_wrong_fields(tac_dir: Path) -> None:
    """game.yaml is one object, not a list of entries: the error names file and field."""
    original = (tac_dir / "game.yaml").read_text()
    _edit(tac_dir / "game.yaml", lambda d: d.pop("rounds"))
    err = _expect(tac_dir, "game.yaml", None, "rounds")
    assert "missing" in err.message
    (tac_dir / "game.yaml").write_text(original)
    _edit(tac_dir / "game.yaml", lambda d: d.update(action_points="four"))
    _expect(tac_dir, "game.yaml", None, "action_points")


def test_env_with_a_broken_config_dir_raises_config_error(tac_dir: Path) -> None:
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][0].update(origin="made-up"))
    with pytest.raises(ConfigError, match="units.yaml"):
        tac_v1.raw_env(num_players=2, config_dir=tac_dir)
    with pytest.raises(ConfigError, match="units.yaml"):
        tac_v1.BatchEnv(2, 2, config_dir=tac_dir)
