"""docs/rules/tac.md against TAC's data: every unit and card of configs/tac is explained in
the doc, every vocabulary value and setting of the YAML is named. The generic completeness
check (kernels and tests exist, readings defined and used, no placeholder) is
envs/core/doccheck.py, run on every ruleset by tests/platform/test_platform_rules_doc.py."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DOC = ROOT / "docs" / "rules" / "tac.md"


def section(text: str, title: str) -> str:
    start = text.index(f"\n## {title}\n")
    nxt = text.find("\n## ", start + 1)
    return text[start : nxt if nxt >= 0 else len(text)]


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC.read_text()


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
