"""docs/rules/tactics_david.md agrees with the data (common brief, "Rules doc convention").

The clause tables, statuses, R#/I# (also the YAML's `invention: I#`) and links are checked by
the shared rules-doc check (envs/core/doccheck.py, tests/platform/test_platform_rules_doc.py).
`data_problems` lists what the Data and Vocabulary sections get wrong; it is run on the real doc
(no problems) and on deliberately broken copies (each must be caught).
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from envs.core.config import CONFIG_ROOT
from envs.core.doccheck import section
from envs.tactics_david.tables import Tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactics_david.md"
TD_CONFIG = CONFIG_ROOT / "tactics_david"
# Data files whose `entries` names the doc lists, and YAML keys whose values are vocabulary.
LISTED_FILES = (
    "statuses.yaml",
    "specials.yaml",
    "items.yaml",
    "attack_areas.yaml",
    "families.yaml",
    "terrain_types.yaml",
    "terrain_pieces.yaml",
    "movement_types.yaml",
    "unit_classes.yaml",
    "unit_types.yaml",
    "battlefields.yaml",
)
VOCAB_KEYS = {
    "category",
    "trigger",
    "effect",
    "use",
    "target",
    "procedure",
    "charge",
    "attack_side",
    "mode",
    "bridge_axis",
    "roll",
}


def _vocabulary_used() -> set[str]:
    """Every vocabulary value in my YAML files (including `versus` matchup values)."""
    found: set[str] = set()

    def walk(node: object) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in VOCAB_KEYS and isinstance(v, str):
                    found.add(v)
                elif k == "versus" and isinstance(v, dict):
                    found.update(v.values())
                else:
                    walk(v)
        elif isinstance(node, list):
            for v in node:
                walk(v)

    for name in LISTED_FILES:
        walk(yaml.safe_load((TD_CONFIG / name).read_text(encoding="utf-8")).get("entries"))
    return found


def _entry_names(name: str) -> set[str]:
    doc = yaml.safe_load((TD_CONFIG / name).read_text(encoding="utf-8"))
    return {e["name"] for e in doc["entries"]}


def data_problems(text: str, vocabulary: set[str], data: dict[str, set[str]]) -> list[str]:
    """What the Data and Vocabulary sections get wrong about configs/tactics_david."""
    problems = []
    data_section = section(text, "Data")
    for file, names in data.items():
        m = re.search(
            rf"^#### {re.escape(file)} .*?^Entries: (.*?)(?=\n\n|\n#)", data_section, re.S | re.M
        )
        if not m:
            problems.append(f"Data: no entry list for {file}")
            continue
        listed = set(re.findall(r"`([^`]+)`", m.group(1)))
        if listed != names:
            problems.append(f"Data {file}: listed {sorted(listed ^ names)} differ from the data")
    explained = set(re.findall(r"`([^`]+)`", section(text, "Vocabulary")))
    explained |= {v.strip() for e in explained for v in e.split(",")}
    missing = vocabulary - explained
    if missing:
        problems.append(f"vocabulary not explained: {sorted(missing)}")
    return problems


def _data() -> dict[str, set[str]]:
    return {name: _entry_names(name) for name in LISTED_FILES}


def test_rules_doc_data_and_vocabulary_are_complete() -> None:
    assert data_problems(DOC.read_text(encoding="utf-8"), _vocabulary_used(), _data()) == []


def test_data_check_catches_broken_copies() -> None:
    text = DOC.read_text(encoding="utf-8")
    vocab, data = _vocabulary_used(), _data()
    broken = {
        "differ from the data": text.replace("`Boots`, ", ""),
        "vocabulary not explained": text.replace("| `flee_to_nearest_ally` |", "| flee |"),
    }
    for expected, copy in broken.items():
        assert copy != text, expected
        problems = data_problems(copy, vocab, data)
        assert any(expected in p for p in problems), (expected, problems)


def test_doc_lists_every_status_clause(tables: Tables) -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in tables.status_names:
        assert re.search(rf"^\| TD-20\.\d+ \| {name} \|", text, re.M), name
