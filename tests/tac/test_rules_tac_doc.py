"""docs/rules/tac.md is complete: every clause names a kernel and a test that exist, no
placeholder is left, every Reading and Invented id is defined and used, every name the doc lists
as data exists in configs/tac. Each check is a function of the doc text, and is also run on
deliberately broken copies to show it can fail."""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "tac.md"
TESTS = Path(__file__).resolve().parent
SEED_SECTIONS = [str(i) for i in range(1, 12)]
STATUS = re.compile(r"^(implemented|not implemented|reading chosen \(R\d+\)|invented \(I\d+\))$")
PLACEHOLDERS = ("TBD", "TODO", "???", "to be decided")


def clause_rows(text: str) -> list[list[str]]:
    """The cells of every clause-table row (| TAC-x.y | ... |)."""
    rows = []
    for line in text.splitlines():
        if line.startswith("| TAC-"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
    return rows


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    nxt = text.find("\n## ", start + 1)
    return text[start : nxt if nxt >= 0 else len(text)]


def problems(text: str) -> list[str]:
    """Every way the doc falls short; empty when it is complete."""
    out: list[str] = []
    for p in PLACEHOLDERS:
        if p in text:
            out.append(f"placeholder {p!r}")
    rows = clause_rows(text)
    if not rows:
        return out + ["no clause rows"]
    ids = [r[0] for r in rows]
    for i in {x for x in ids if ids.count(x) > 1}:
        out.append(f"duplicate clause id {i}")
    sections = {i.split("-")[1].split(".")[0] for i in ids}
    for s in SEED_SECTIONS:
        if s not in sections:
            out.append(f"seed section {s} has no clause")
    test_defs = {
        f.name: set(re.findall(r"^def (test_\w+)\(", f.read_text(), re.M))
        for f in TESTS.glob("test_*.py")
    }
    for r in rows:
        if len(r) != 6:
            out.append(f"{r[0]}: {len(r)} cells, want 6")
            continue
        cid, _, rule, status, kernels, tests = r
        if not rule:
            out.append(f"{cid}: empty rule")
        if not STATUS.match(status):
            out.append(f"{cid}: bad status {status!r}")
        if status == "not implemented":
            continue
        for k in [x.strip() for x in kernels.split(",")]:
            mod, _, fn = k.partition(".")
            try:
                found = hasattr(importlib.import_module(f"envs.tac.{mod}"), fn) and fn
            except ImportError:
                found = False
            if not found:
                out.append(f"{cid}: kernel {k!r} does not exist")
        for t in [x.strip() for x in tests.split(",")]:
            fname, _, tname = t.partition("::")
            if tname not in test_defs.get(fname, set()):
                out.append(f"{cid}: test {t!r} does not exist")
    tables = "\n".join("|".join(r) for r in rows)
    for kind, title in (("R", "Readings"), ("I", "Invented")):
        defined = re.findall(rf"^### ({kind}\d+)$", section(text, title), re.M)
        for d in {x for x in defined if defined.count(x) > 1}:
            out.append(f"{d} defined twice")
        used = set(re.findall(rf"\b({kind}\d+)\b", tables))
        for u in sorted(used - set(defined)):
            out.append(f"{u} used in a clause table but not defined")
        for d in sorted(set(defined) - used):
            out.append(f"{d} defined but no clause refers to it")
    return out


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text()


def test_rules_doc_is_complete(doc):
    assert problems(doc) == []


def test_rules_doc_has_its_sections(doc):
    for title in ("Clauses", "Readings", "Invented", "Data"):
        assert f"\n## {title}\n" in doc


def test_every_unit_and_card_is_explained_in_the_doc(doc, tables):
    """The Invented tables list every unit and card of configs/tac, and name nothing else."""
    invented = section(doc, "Invented")
    for u in tables.units:
        assert f"| {u.name} |" in invented, u.name
    for c in tables.cards:
        assert c.name in invented, c.name
    listed_units = set(re.findall(r"^\| ([^|]+?) \| (?:tank|light) \|", invented, re.M))
    assert listed_units == {u.name for u in tables.units}


def test_every_vocabulary_value_of_the_data_is_in_the_doc(doc, tables):
    """Each class, weapon, colour, defence, HQ kind and modifier used in the YAML is named in
    the Data section."""
    data = section(doc, "Data")
    values = {u.class_ for u in tables.units} | {w.name for w in tables.weapons}
    for c in tables.cards:
        values |= {c.colour} | {v for v in (c.defence, c.hq, c.modifier) if v}
    for v in sorted(values):
        assert f"`{v}`" in data, v


def test_every_setting_of_game_yaml_is_in_the_doc(doc, tables):
    data = section(doc, "Data")
    for name in type(tables.settings).model_fields:
        assert f"`{name}`" in data, name


# ---------------------------------------------------------------- the checks can fail


@pytest.mark.parametrize(
    ("old", "new", "complaint"),
    [
        ("| units.compact_rows |", "| units.compact_rowz |", "kernel 'units.compact_rowz'"),
        (
            "test_rules_tac_units.py::test_tanks_are_immune_to_arty |",
            "test_rules_tac_units.py::test_tanks_can_fly |",
            "test 'test_rules_tac_units.py::test_tanks_can_fly'",
        ),
        ("| TAC-4.7 |", "| TAC-4.6 |", "duplicate clause id TAC-4.6"),
        ("reading chosen (R19)", "reading chosen (R99)", "R99 used"),
        ("reading chosen (R19)", "implemented", "R19 defined but"),
        ("| implemented | scoring.victory_points", "| done | scoring.victory_points", "bad status"),
        ("### I10\n", "### I10\nTBD\n", "placeholder 'TBD'"),
    ],
)
def test_broken_doc_is_reported(doc, old, new, complaint):
    assert old in doc
    broken = doc.replace(old, new, 1)
    assert any(complaint in p for p in problems(broken)), problems(broken)


def test_doc_without_a_seed_section_is_reported(doc):
    broken = "\n".join(line for line in doc.splitlines() if not line.startswith("| TAC-9."))
    assert "seed section 9 has no clause" in problems(broken)
