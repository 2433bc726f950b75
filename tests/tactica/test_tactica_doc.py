"""docs/rules/tactica.md agrees with configs/tactica/ and the seed's vocabulary: every check
passes on the real document and fails on a deliberately broken copy.

The clause tables, statuses, R#/I# (also the YAML's `ref`), clause references and links are
checked by the shared rules-doc check (envs/core/doccheck.py,
tests/platform/test_platform_rules_doc.py); what is TACTICA's own (the Data table of files,
kinds, entries and fields; vocabularies; the card list; the glossary) is here.
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from envs.core import doccheck
from envs.core.config import CONFIG_ROOT
from envs.core.doccheck import section, table_rows
from envs.tactica import tables as tt

DOC_PATH = doccheck.ROOT / "docs" / "rules" / "tactica.md"
BACKTICKED = re.compile(r"`([^`]+)`")

# The terms the seed (003_2f16ffdbafd9a58e.txt, Part 3) uses, extracted by reading it whole:
# every game term, phase, pile, card, decree and quality it names. Each must be defined in the
# doc's Glossary (case-insensitive). Kept by hand on purpose: it is the seed's vocabulary, not
# ours, so the test fails if the doc drops a term the seed relies on.
SEED_TERMS = [
    "advanced game", "basic game", "beginning game", "beginner rules",
    "battlefield", "hex", "adjacent", "within 3 hexes", "route", "viable route",
    "friendly", "enemy", "owner",
    "troop card", "Foot", "Champion", "melee troops", "ranged troops", "OFF", "DEF",
    "negatives against adjacent melee troops",
    "training", "training cards", "training level", "untrained", "1x trained", "2x trained",
    "wall-adjacent rule",
    "tactics cards", "tactic", "Press card", "Saved card", "Engineer card", "Spy card",
    "Negate card", "counter cards", "Crown",
    "defending", "survives combat", "swap the positions", "captured", "captured enemy troop",
    "participated in capturing", "rescued",
    "battleground feature", "feature card", "wall card", "landmark card", "terrain modifiers",
    "RIDGE", "BLOCK",
    "troop pile", "tactics pile", "Barracks", "hand", "resupply their hand", "RESUPPLY",
    "LOST pile", "hostage pile",
    "battle", "war", "turn", "initial deployment",
    "BARRACKS phase", "RECRUITMENT phase", "MUSTERING phase", "MOVEMENT phase", "COMBAT phase",
    "RESOLUTION phase",
    "muster action", "mustering actions", "mustering", "movement actions", "end movement",
    "pass through", "combat actions", "combat resolution", "bonuses and/or penalties",
    "playing a card", "decree", "enact", "show their hand", "requirement", "discard",
    "battlefield effect", "unique cards", "pair",
    "TACTICA!", "PROMOTION", "FOG", "MUD", "BETRAYAL!", "BETRAYER token", "SUMMON decree",
    "summon card", "summon token", "face-up", "summoning spire", "spire card", "exposed",
    "complete", "summon", "Ouran", "Cthon", "sacrifices", "special abilities",
]  # fmt: skip

SRC = CONFIG_ROOT / "tactica"


def clause_rows(text: str) -> list[list[str]]:
    return doccheck.clause_rows(text, doccheck.CONVENTIONS["tactica"])


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


def all_problems(text: str, config_dir: Path = SRC) -> list[str]:
    return (
        data_problems(text, config_dir)
        + vocabulary_problems(text)
        + card_list_problems(text, config_dir)
        + glossary_clause_problems(text)
    )


@pytest.fixture(scope="module")
def doc() -> str:
    return DOC_PATH.read_text(encoding="utf-8")


def test_doc_passes_every_check(doc: str) -> None:
    assert all_problems(doc) == []


def test_every_seed_term_is_in_the_glossary(doc: str) -> None:
    assert missing_glossary_terms(doc, SEED_TERMS) == []


def test_seed_terms_list_has_no_duplicates() -> None:
    low = [t.lower() for t in SEED_TERMS]
    assert len(low) == len(set(low))


def test_every_seed_section_has_a_clause_table(doc: str) -> None:
    # Part 3's own sections, in the seed's words.
    sections = {r[1] for r in clause_rows(doc)}
    for name in (
        "PART 3: THE ADVANCED GAME",
        "ADVANCED PRESS CARD",
        "ADVANCED SAVED CARD",
        "ADVANCED ENGINEER CARD",
        "BARRACKS PHASE and DECREES",
        "TACTICA!",
        "PROMOTION",
        "FOG",
        "MUD",
        "BETRAYAL!",
        "SUMMON",
        "Summons' common qualities",
    ):
        assert name in sections, name


def test_basic_clauses_are_all_invented_or_readings(doc: str) -> None:
    for row in clause_rows(doc):
        if row[0].startswith("TT-B."):
            assert not row[3].startswith("to implement"), row[0]


# --- each check fails on a broken copy ------------------------------------------------------


def _copy_configs(tmp_path: Path) -> Path:
    dst = tmp_path / "tactica"
    shutil.copytree(SRC, dst)
    return dst


def test_data_entry_missing_from_data_is_caught(doc: str, tmp_path: Path) -> None:
    cfg = _copy_configs(tmp_path)
    path = cfg / "summons.yaml"
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    data["entries"][1]["name"] = "Nyx"
    path.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    problems = data_problems(doc, cfg)
    assert "summons.yaml: Data lists unknown entry 'Cthon'" in problems
    assert "summons.yaml: entry 'Nyx' missing from Data" in problems


def test_undocumented_field_and_file_are_caught(doc: str, tmp_path: Path) -> None:
    cfg = _copy_configs(tmp_path)
    path = cfg / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\nmorale: 3\n", encoding="utf-8")
    (cfg / "weather.yaml").write_text("kind: tactica.weather\nentries: []\n", encoding="utf-8")
    problems = data_problems(doc, cfg)
    assert "rules.yaml: field 'morale' not described in Data" in problems
    assert "weather.yaml is not described in Data" in problems


def test_unexplained_vocabulary_value_is_caught(doc: str) -> None:
    broken = doc.replace("| `timing` | `counter` |", "| `timing` | `counterr` |")
    assert vocabulary_problems(broken) == [
        "vocabulary value timing='counter' not explained in Data"
    ]


def test_card_list_disagreeing_with_army_is_caught(doc: str) -> None:
    broken = doc.replace("| Foot | troop | troop | 8 |", "| Foot | troop | troop | 9 |")
    problems = card_list_problems(broken)
    assert len(problems) == 1 and "'Foot'" in problems[0]


def test_missing_glossary_term_is_caught(doc: str) -> None:
    broken = doc.replace("| viable route |", "| possible route |")
    assert missing_glossary_terms(broken, SEED_TERMS) == ["viable route"]


def test_glossary_pointing_nowhere_is_caught(doc: str) -> None:
    broken = doc.replace(
        "| Ouran | The sky-warden summon. | TT-A.12.1 |", "| Ouran | x | TT-A.12.9 |"
    )
    assert glossary_clause_problems(broken) == [
        "glossary term 'Ouran' points to unknown clause 'TT-A.12.9'"
    ]
