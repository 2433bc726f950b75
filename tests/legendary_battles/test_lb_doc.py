"""docs/rules/legendary_battles.md is playable-complete and agrees with the data."""

from __future__ import annotations

import re
import typing
from pathlib import Path

import yaml

from envs.legendary_battles import tables as T

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "legendary_battles.md"
CONFIG = ROOT / "configs" / "legendary_battles"
STATUSES = ("to implement", "reading chosen", "invented")


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", text, flags=re.M | re.S)
    return m.group(1) if m else ""


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


def doc_problems(text: str) -> list[str]:
    """Everything that keeps the doc from being playable-complete (empty when fine)."""
    problems = []
    for bad in ("TBD", "TODO", "???", "to be decided"):
        if bad.lower() in text.lower():
            problems.append(f"contains {bad!r}")
    clauses = _section(text, "Clauses")
    rows = [ln for ln in clauses.splitlines() if ln.startswith("| LB-")]
    if not rows:
        problems.append("no clause rows")
    ids = [ln.split("|")[1].strip() for ln in rows]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        problems.append(f"duplicate clause ids {sorted(dup)}")
    for ln in rows:
        cells = [c.strip() for c in ln.strip().strip("|").split("|")]
        if len(cells) != 6:
            problems.append(f"{cells[0]}: {len(cells)} columns")
            continue
        status = cells[3]
        if not status.startswith(STATUSES):
            problems.append(f"{cells[0]}: bad status {status!r}")
        if status.startswith("reading chosen") and not re.search(r"\bR\d+\b", status):
            problems.append(f"{cells[0]}: reading chosen without R#")
        if status.startswith("invented") and not re.search(r"\bI\d+\b", status):
            problems.append(f"{cells[0]}: invented without I#")
    defined_r = set(re.findall(r"^- \*\*(R\d+)\*\*", _section(text, "Readings"), flags=re.M))
    defined_i = set(re.findall(r"^- \*\*(I\d+)\*\*", _section(text, "Invented"), flags=re.M))
    tables_text = "\n".join(ln for ln in text.splitlines() if ln.startswith("|"))
    used = set(re.findall(r"\b([RI]\d+)\b", tables_text))
    for ref in sorted(used - defined_r - defined_i):
        problems.append(f"{ref} referenced but not defined")
    for ref in sorted((defined_r | defined_i) - used):
        problems.append(f"{ref} defined but never referenced from a table")
    return problems


def test_rules_doc_is_playable_complete():
    assert doc_problems(DOC.read_text(encoding="utf-8")) == []


def test_doc_checker_catches_a_broken_copy():
    text = DOC.read_text(encoding="utf-8")
    broken = text.replace("- **I9**", "- **I99**", 1)
    broken = broken.replace("| LB-3.2.3 |", "| LB-3.2.2 |", 1)
    broken = broken.replace("| to implement |", "| maybe |", 1)
    broken += "\nTBD\n"
    problems = doc_problems(broken)
    assert any("I9 referenced but not defined" in p for p in problems)
    assert any("I99 defined but never referenced" in p for p in problems)
    assert any("duplicate clause ids" in p for p in problems)
    assert any("bad status" in p for p in problems)
    assert any("'TBD'" in p for p in problems)


def test_every_terrain_type_is_listed_in_the_doc_and_every_listed_one_exists():
    text = DOC.read_text(encoding="utf-8")
    data = _section(text, "Data")
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
    missing = [v for v in sorted(vocab) if f"`{v}`" not in text]
    assert missing == []


def test_refs_in_the_yaml_are_defined_in_the_doc():
    text = DOC.read_text(encoding="utf-8")
    defined = set(re.findall(r"^- \*\*([RI]\d+)\*\*", text, flags=re.M))
    refs: set[str] = set()
    for e in yaml.safe_load((CONFIG / "terrain.yaml").read_text(encoding="utf-8"))["entries"]:
        refs |= set(e["refs"])
    for path in (CONFIG / "scenarios").glob("*.yaml"):
        refs |= set(yaml.safe_load(path.read_text(encoding="utf-8")).get("refs", []))
    assert refs and refs <= defined
