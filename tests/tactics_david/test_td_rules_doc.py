"""docs/rules/tactics_david.md is playable-complete (common brief, "Rules doc convention").

`doc_problems` lists what is wrong with a doc text; it is run on the real doc (no problems) and
on deliberately broken copies (each must be caught), so the check itself can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from envs.core.config import CONFIG_ROOT
from envs.tactics_david.tables import Tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactics_david.md"
TD_CONFIG = CONFIG_ROOT / "tactics_david"
STATUSES = ("to implement", "reading chosen", "invented")
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


def _section(text: str, title: str) -> str:
    m = re.search(rf"^## {title}\n(.*?)(?=^## |\Z)", text, re.S | re.M)
    return m.group(1) if m else ""


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


def doc_problems(text: str, vocabulary: set[str], data: dict[str, set[str]]) -> list[str]:
    problems = []
    for bad in ("TBD", "TODO", "???", "to be decided"):
        if bad.lower() in text.lower():
            problems.append(f"contains {bad!r}")
    rows = [line for line in text.splitlines() if line.startswith("| TD-")]
    ids = [row.split("|")[1].strip() for row in rows]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        problems.append(f"duplicate clause ids {sorted(dup)}")
    for row in rows:
        cols = [c.strip() for c in row.strip().strip("|").split("|")]
        if len(cols) != 6:
            problems.append(f"{cols[0]}: {len(cols)} columns")
            continue
        status = cols[3]
        if not status.startswith(STATUSES):
            problems.append(f"{cols[0]}: bad status {status!r}")
        refs = set(re.findall(r"\b[RI]\d+\b", status))
        if status.startswith(("reading chosen", "invented")) and not refs:
            problems.append(f"{cols[0]}: status without R#/I#")
        if cols[4] != "—" or cols[5] != "—":
            problems.append(f"{cols[0]}: Kernel/Test must be — for now")
    referenced = set(re.findall(r"\b[RI]\d+\b", "\n".join(rows)))
    defined_r = re.findall(r"^- \*\*(R\d+)\*\*", _section(text, "Readings"), re.M)
    defined_i = re.findall(r"^- \*\*(I\d+)\*\*", _section(text, "Invented"), re.M)
    defined = set(defined_r) | set(defined_i)
    if len(defined) != len(defined_r) + len(defined_i):
        problems.append("an R#/I# is defined twice")
    if referenced - defined:
        problems.append(f"referenced but not defined: {sorted(referenced - defined)}")
    if defined - referenced:
        problems.append(f"defined but never referenced: {sorted(defined - referenced)}")
    for inv in data.get("inventions", set()) - defined:
        problems.append(f"data names undefined invention {inv}")
    data_section = _section(text, "Data")
    for file, names in data.items():
        if not file.endswith(".yaml"):
            continue
        m = re.search(
            rf"^#### {re.escape(file)} .*?^Entries: (.*?)(?=\n\n|\n#)", data_section, re.S | re.M
        )
        if not m:
            problems.append(f"Data: no entry list for {file}")
            continue
        listed = set(re.findall(r"`([^`]+)`", m.group(1)))
        if listed != names:
            problems.append(f"Data {file}: listed {sorted(listed ^ names)} differ from the data")
    explained = set(re.findall(r"`([^`]+)`", _section(text, "Vocabulary")))
    explained |= {v.strip() for e in explained for v in e.split(",")}
    missing = vocabulary - explained
    if missing:
        problems.append(f"vocabulary not explained: {sorted(missing)}")
    for link in re.findall(r"\]\(([^)]+)\)", text):
        if not (DOC.parent / link).exists():
            problems.append(f"broken link {link}")
    return problems


def _data() -> dict[str, set[str]]:
    data = {name: _entry_names(name) for name in LISTED_FILES}
    inventions: set[str] = set()
    for f in TD_CONFIG.glob("*.yaml"):
        inventions |= set(re.findall(r"invention: (I\d+)", f.read_text(encoding="utf-8")))
    data["inventions"] = inventions
    return data


def test_rules_doc_is_playable_complete() -> None:
    assert doc_problems(DOC.read_text(encoding="utf-8"), _vocabulary_used(), _data()) == []


def test_doc_check_catches_broken_copies() -> None:
    text = DOC.read_text(encoding="utf-8")
    vocab, data = _vocabulary_used(), _data()
    broken = {
        "TBD": text.replace("## Readings", "## Readings\n\nTBD"),
        "duplicate": text.replace("| TD-1.2 |", "| TD-1.1 |"),
        "not defined": text.replace(
            '| TD-1.3 | "Typical Game Flow" step 6 |', "| TD-1.3 | x (R99) |"
        ),
        "never referenced": text.replace("invented (I7)", "to implement"),
        "bad status": text.replace("| to implement | — | — |", "| maybe | — | — |", 1),
        "differ from the data": text.replace("`Boots`, ", ""),
        "vocabulary not explained": text.replace("| `flee_to_nearest_ally` |", "| flee |"),
        "broken link": text.replace("(tactics_david/attack_areas.png)", "(nowhere.png)"),
    }
    for expected, copy in broken.items():
        assert copy != text, expected
        problems = doc_problems(copy, vocab, data)
        assert any(expected in p for p in problems), (expected, problems)


def test_doc_check_catches_undefined_invention_in_data() -> None:
    data = _data()
    data["inventions"] = data["inventions"] | {"I99"}
    problems = doc_problems(DOC.read_text(encoding="utf-8"), _vocabulary_used(), data)
    assert any("I99" in p for p in problems)


def test_doc_lists_every_status_clause(tables: Tables) -> None:
    text = DOC.read_text(encoding="utf-8")
    for name in tables.status_names:
        assert re.search(rf"^\| TD-20\.\d+ \| {name} \|", text, re.M), name
