"""Checks that docs/rules/tactica.md is playable-complete against configs/tactica/.

Each function takes the document's text (and where needed the config folder) and returns a
list of problems, empty when the check passes, so tests can run them on the real document and
on deliberately broken copies.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from envs.core.config import CONFIG_ROOT
from envs.tactica import tables as tt

DOC_PATH = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactica.md"

FORBIDDEN = ("TBD", "TODO", "???", "to be decided")
CLAUSE_ID = re.compile(r"^TT-[AB]\.\d+(?:\.\d+)*$")
CLAUSE_REF = re.compile(r"\bTT-[AB]\.\d+(?:\.\d+)*\b")
REF_ID = re.compile(r"\b([RI][1-9]\d*)\b")
STATUS = re.compile(r"^(to implement|reading chosen \(R\d+(, R\d+)*\)|invented \(I\d+(, I\d+)*\))$")
HEADING_ID = re.compile(r"^#+ (TT-[AB]\.\d+(?:\.\d+)*) ", re.MULTILINE)
BACKTICKED = re.compile(r"`([^`]+)`")


def section(text: str, title: str) -> str:
    """The body of the `## title` section (up to the next `## ` heading)."""
    out: list[str] = []
    inside = False
    for line in text.splitlines():
        if line.startswith("## "):
            inside = line[3:].strip() == title
            continue
        if inside:
            out.append(line)
    return "\n".join(out)


def table_rows(text: str) -> list[list[str]]:
    """Cells of every markdown table body row (header and separator rows skipped)."""
    rows = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if not (s.startswith("|") and s.endswith("|")):
            continue
        if re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", s):
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if re.fullmatch(r"\|(\s*:?-+:?\s*\|)+", nxt):
            continue  # header row
        rows.append([c.strip() for c in s[1:-1].split("|")])
    return rows


def clause_rows(text: str) -> list[list[str]]:
    return [r for r in table_rows(section(text, "Clauses")) if CLAUSE_ID.match(r[0])]


def forbidden_markers(text: str) -> list[str]:
    low = text.lower()
    return [f"forbidden marker {m!r}" for m in FORBIDDEN if m.lower() in low]


def clause_problems(text: str) -> list[str]:
    """Clause ids unique, six cells, valid status, Kernel/Test still '—'."""
    problems = []
    seen: set[str] = set()
    rows = clause_rows(text)
    if not rows:
        return ["no clause rows found"]
    for row in rows:
        cid = row[0]
        if cid in seen:
            problems.append(f"duplicate clause id {cid}")
        seen.add(cid)
        if len(row) != 6:
            problems.append(f"{cid}: {len(row)} cells, expected 6")
            continue
        if not STATUS.match(row[3]):
            problems.append(f"{cid}: bad status {row[3]!r}")
        if row[4] != "—" or row[5] != "—":
            problems.append(f"{cid}: Kernel and Test must be '—' for now")
    return problems


def dangling_clause_refs(text: str) -> list[str]:
    """Every TT-x.y named anywhere in the document is a defined clause."""
    defined = {r[0] for r in clause_rows(text)} | set(HEADING_ID.findall(text))
    used = set(CLAUSE_REF.findall(text))
    return [f"reference to undefined clause {c}" for c in sorted(used - defined)]


def _defined_ids(text: str, title: str, prefix: str) -> list[str]:
    return [
        r[0] for r in table_rows(section(text, title)) if re.fullmatch(prefix + r"[1-9]\d*", r[0])
    ]


def yaml_refs(config_dir: Path) -> dict[str, set[str]]:
    """ref ids used by the rows of each YAML table file."""
    out: dict[str, set[str]] = {}
    for path in sorted(config_dir.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        for row in doc.get("entries", []) if isinstance(doc, dict) else []:
            if isinstance(row, dict) and row.get("ref"):
                out.setdefault(str(row["ref"]), set()).add(path.name)
    return out


def reference_problems(text: str, config_dir: Path = CONFIG_ROOT / "tactica") -> list[str]:
    """R#/I# used in clause tables are defined, defined ones are used, YAML refs defined."""
    problems = []
    defined: dict[str, list[str]] = {
        "R": _defined_ids(text, "Readings", "R"),
        "I": _defined_ids(text, "Invented", "I"),
    }
    for ids in defined.values():
        dup = sorted({i for i in ids if ids.count(i) > 1})
        problems += [f"{i} defined twice" for i in dup]
    defined_set = set(defined["R"]) | set(defined["I"])
    used: set[str] = set()
    for row in clause_rows(text):
        for cell in row[2:4]:
            used.update(REF_ID.findall(cell))
    problems += [
        f"{i} referenced in a clause table but not defined" for i in sorted(used - defined_set)
    ]
    problems += [
        f"{i} defined but never referenced by a clause" for i in sorted(defined_set - used)
    ]
    for ref, files in sorted(yaml_refs(config_dir).items()):
        if ref not in defined_set:
            problems.append(f"{ref} used by {sorted(files)} but not defined in the document")
    return problems


def _data_rows(text: str) -> list[list[str]]:
    return [
        r
        for r in table_rows(section(text, "Data"))
        if r[0].startswith("`") and r[0].endswith(".yaml`")
    ]


def data_problems(text: str, config_dir: Path = CONFIG_ROOT / "tactica") -> list[str]:
    """The Data table lists every file, its kind, exactly its entries and all its fields."""
    problems = []
    listed_files = set()
    for row in _data_rows(text):
        file = row[0].strip("`")
        listed_files.add(file)
        path = config_dir / file
        if not path.exists():
            problems.append(f"Data lists {file}, which does not exist")
            continue
        doc = yaml.safe_load(path.read_text(encoding="utf-8"))
        if f"`{doc.get('kind')}`" != row[1]:
            problems.append(f"{file}: Data says kind {row[1]}, file has {doc.get('kind')!r}")
        fields = set(BACKTICKED.findall(row[3]))
        if "entries" in doc:
            names = {str(e["name"]) for e in doc["entries"]}
            listed = set(BACKTICKED.findall(row[2]))
            problems += [f"{file}: Data lists unknown entry {n!r}" for n in sorted(listed - names)]
            problems += [f"{file}: entry {n!r} missing from Data" for n in sorted(names - listed)]
            keys = {k for e in doc["entries"] for k in e}
        else:
            keys = {k for k in doc if k != "kind"}
        problems += [f"{file}: field {k!r} not described in Data" for k in sorted(keys - fields)]
    for path in sorted(config_dir.glob("*.yaml")):
        if path.name not in listed_files:
            problems.append(f"{path.name} is not described in Data")
    return problems


VOCABULARY: dict[str, tuple[str, ...]] = {
    "combat": tt.COMBATS,
    "card_type": tt.CARD_TYPES,
    "pile": tt.PILES,
    "timing": tt.TIMINGS,
    "counters": tt.COUNTERS,
    "effect": tt.TACTIC_EFFECTS,
    "after_use": tt.AFTER_USES,
    "effect (sacrifice)": tt.SACRIFICE_EFFECTS,
    "phase": tt.PHASE_NAMES,
    "effect (decree)": tt.DECREE_EFFECTS,
    "layout": tt.LAYOUTS,
    "capture_rule": tt.CAPTURE_RULES,
    "rows": tuple(tt.HEX_LEGEND),
}


def vocabulary_problems(text: str) -> list[str]:
    """Every value of every closed vocabulary the YAML may use is explained."""
    explained = set()
    for row in table_rows(section(text, "Data")):
        if len(row) == 3 and row[0].startswith("`"):
            field = row[0].replace("`", "")
            explained.add((field, row[1].strip("`")))
    missing = []
    for field, values in VOCABULARY.items():
        for v in values:
            if (field, v) not in explained:
                missing.append(f"vocabulary value {field}={v!r} not explained in Data")
    return missing


def card_list_problems(text: str, config_dir: Path = CONFIG_ROOT / "tactica") -> list[str]:
    """The Card list table agrees with army.yaml (names, types, piles, counts)."""
    rows = yaml.safe_load((config_dir / "army.yaml").read_text(encoding="utf-8"))["entries"]
    army = {r["name"]: (r["card_type"], r["pile"], str(r["count"])) for r in rows}
    body = text.split("##### Card list", 1)[-1].split("####", 1)[0]
    doc = {r[0]: (r[1], r[2], r[3]) for r in table_rows(body) if len(r) == 4}
    problems = []
    for name in sorted(set(army) | set(doc)):
        if army.get(name) != doc.get(name):
            problems.append(
                f"card list {name!r}: doc {doc.get(name)} vs army.yaml {army.get(name)}"
            )
    return problems


def glossary_terms(text: str) -> set[str]:
    return {r[0].replace("`", "").strip().lower() for r in table_rows(section(text, "Glossary"))}


def missing_glossary_terms(text: str, terms: list[str]) -> list[str]:
    have = glossary_terms(text)
    return [t for t in terms if t.lower() not in have]


def glossary_clause_problems(text: str) -> list[str]:
    defined = {r[0] for r in clause_rows(text)}
    return [
        f"glossary term {r[0]!r} points to unknown clause {r[2]!r}"
        for r in table_rows(section(text, "Glossary"))
        if len(r) == 3 and r[2] not in defined
    ]


def all_problems(text: str, config_dir: Path = CONFIG_ROOT / "tactica") -> list[str]:
    return (
        forbidden_markers(text)
        + clause_problems(text)
        + dangling_clause_refs(text)
        + reference_problems(text, config_dir)
        + data_problems(text, config_dir)
        + vocabulary_problems(text)
        + card_list_problems(text, config_dir)
        + glossary_clause_problems(text)
    )
