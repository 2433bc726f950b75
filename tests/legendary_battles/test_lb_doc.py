"""docs/rules/legendary_battles.md agrees with the data: terrain, scenarios, vocabulary.

The clause tables, statuses, R#/I# (also those the YAML names in `refs`) and links are checked
by the shared rules-doc check (envs/core/doccheck.py, tests/platform/test_platform_rules_doc.py).
"""

from __future__ import annotations

import typing
from pathlib import Path

import yaml

from envs.core.doccheck import section, unexplained
from envs.legendary_battles import tables as T

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "legendary_battles.md"
CONFIG = ROOT / "configs" / "legendary_battles"


def _literal_values(tp) -> set[str]:
    out: set[str] = set()
    for arg in typing.get_args(tp):
        if isinstance(arg, str):
            out.add(arg)
        else:
            out |= _literal_values(arg)
    return out


def _vocabulary() -> set[str]:
    """Every closed-vocabulary value the YAML may use."""
    vocab = set(T.EFFECTS) | set(T.LEVELS) | set(T.CLASSES)
    vocab |= {"template", "linear", "square", "hex", "fantasy_cards", "g", "s", "k"}
    for model in (
        T.FirstTurn,
        T.Reinforcements,
        T.TerrainCost,
        T.DeployFirst,
        T.HalfPointsEliminated,
        T.NoUnitsLeft,
        T.PointsEliminated,
        T.UnitEliminated,
        T.HoldZones,
        T.UnitsExit,
    ):
        vocab |= _literal_values(model.model_fields["kind"].annotation)
    vocab |= _literal_values(T.EndOfGame.model_fields["at_turn_limit"].annotation)
    vocab |= _literal_values(T.UnitsExit.model_fields["edge"].annotation)
    vocab |= {"N", "E", "S", "W", "NE", "SE", "SW", "NW"}
    return vocab


def test_every_terrain_type_is_listed_in_the_doc_and_every_listed_one_exists():
    text = DOC.read_text(encoding="utf-8")
    data = section(text, "Data")
    listed = set()
    in_table = False
    for ln in data.splitlines():
        if ln.startswith("| Terrain |"):
            in_table = True
            continue
        if in_table and ln.startswith("| ") and not ln.startswith("| ---"):
            listed.add(ln.split("|")[1].strip())
    names = {t.name for t in T.load_terrain(CONFIG / "terrain.yaml")}
    assert listed == names


def test_every_scenario_is_listed_with_its_picture():
    text = DOC.read_text(encoding="utf-8")
    for path in sorted((CONFIG / "scenarios").glob("*.yaml")):
        sc = T.load_scenario(path)
        assert f"`{path.name}`" in text
        stem = path.stem
        assert f"(legendary_battles/{stem}.png)" in text
        assert (DOC.parent / "legendary_battles" / f"{stem}.png").exists()
        assert sc.name in text


def test_every_vocabulary_value_used_in_the_yaml_is_explained_in_the_doc():
    text = DOC.read_text(encoding="utf-8")
    vocab = _vocabulary()
    used: set[str] = set()
    terrain = yaml.safe_load((CONFIG / "terrain.yaml").read_text(encoding="utf-8"))
    for e in terrain["entries"]:
        used |= {e["shape"], e["height"], e["elevation_class"], *e["effects"]}
    for path in (CONFIG / "scenarios").glob("*.yaml"):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        used |= {doc["map"]["shape"], doc["game"], doc["end_of_game"]["at_turn_limit"]}
        used |= {r["kind"] for r in doc.get("special_rules", [])}
        used |= {c["kind"] for c in doc["end_of_game"]["conditions"]}
    assert used <= vocab
    assert unexplained(text, vocab) == []
