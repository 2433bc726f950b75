"""docs/rules/tactica.md is playable-complete: every check passes on the real document and
fails on a deliberately broken copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

from envs.core.config import CONFIG_ROOT
from envs.tactica import doccheck as dc

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


@pytest.fixture(scope="module")
def doc() -> str:
    return dc.DOC_PATH.read_text(encoding="utf-8")


def test_doc_passes_every_check(doc: str) -> None:
    assert dc.all_problems(doc) == []


def test_every_seed_term_is_in_the_glossary(doc: str) -> None:
    assert dc.missing_glossary_terms(doc, SEED_TERMS) == []


def test_seed_terms_list_has_no_duplicates() -> None:
    low = [t.lower() for t in SEED_TERMS]
    assert len(low) == len(set(low))


def test_every_seed_section_has_a_clause_table(doc: str) -> None:
    # Part 3's own sections, in the seed's words.
    sections = {r[1] for r in dc.clause_rows(doc)}
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
    for row in dc.clause_rows(doc):
        if row[0].startswith("TT-B."):
            assert not row[3].startswith("to implement"), row[0]


# --- each check fails on a broken copy ------------------------------------------------------


def test_forbidden_marker_is_caught(doc: str) -> None:
    assert dc.forbidden_markers(doc.replace("Rout:", "Rout (TBD):")) != []
    assert dc.forbidden_markers(doc + "\nwhat happens here is to be decided\n") != []


def test_duplicate_clause_id_is_caught(doc: str) -> None:
    broken = doc.replace("| TT-B.8.2 |", "| TT-B.8.1 |")
    assert "duplicate clause id TT-B.8.1" in dc.clause_problems(broken)


def test_bad_status_is_caught(doc: str) -> None:
    broken = doc.replace("| invented (I16) | — | — |", "| maybe | — | — |", 1)
    assert any("bad status 'maybe'" in p for p in dc.clause_problems(broken))


def test_dangling_clause_reference_is_caught(doc: str) -> None:
    broken = doc.replace("(wall-adjacent rule, TT-B.3.5;", "(wall-adjacent rule, TT-B.3.99;")
    assert dc.dangling_clause_refs(broken) == ["reference to undefined clause TT-B.3.99"]


def test_undefined_reading_is_caught(doc: str) -> None:
    broken = doc.replace("| reading chosen (R13) |", "| reading chosen (R99) |")
    assert "R99 referenced in a clause table but not defined" in dc.reference_problems(broken)


def test_unreferenced_invented_entry_is_caught(doc: str) -> None:
    broken = doc.replace("| invented (I23) |", "| to implement |")
    assert "I23 defined but never referenced by a clause" in dc.reference_problems(broken)


def test_yaml_ref_missing_from_doc_is_caught(doc: str) -> None:
    lines = [ln for ln in doc.splitlines() if not ln.startswith("| I24 |")]
    broken = "\n".join(lines).replace("invented (I24)", "invented (I21)")
    problems = dc.reference_problems(broken)
    assert any(p.startswith("I24 used by") and "army.yaml" in p for p in problems)


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
    problems = dc.data_problems(doc, cfg)
    assert "summons.yaml: Data lists unknown entry 'Cthon'" in problems
    assert "summons.yaml: entry 'Nyx' missing from Data" in problems


def test_undocumented_field_and_file_are_caught(doc: str, tmp_path: Path) -> None:
    cfg = _copy_configs(tmp_path)
    path = cfg / "rules.yaml"
    path.write_text(path.read_text(encoding="utf-8") + "\nmorale: 3\n", encoding="utf-8")
    (cfg / "weather.yaml").write_text("kind: tactica.weather\nentries: []\n", encoding="utf-8")
    problems = dc.data_problems(doc, cfg)
    assert "rules.yaml: field 'morale' not described in Data" in problems
    assert "weather.yaml is not described in Data" in problems


def test_unexplained_vocabulary_value_is_caught(doc: str) -> None:
    broken = doc.replace("| `timing` | `counter` |", "| `timing` | `counterr` |")
    assert dc.vocabulary_problems(broken) == [
        "vocabulary value timing='counter' not explained in Data"
    ]


def test_card_list_disagreeing_with_army_is_caught(doc: str) -> None:
    broken = doc.replace("| Foot | troop | troop | 8 |", "| Foot | troop | troop | 9 |")
    problems = dc.card_list_problems(broken)
    assert len(problems) == 1 and "'Foot'" in problems[0]


def test_missing_glossary_term_is_caught(doc: str) -> None:
    broken = doc.replace("| viable route |", "| possible route |")
    assert dc.missing_glossary_terms(broken, SEED_TERMS) == ["viable route"]


def test_glossary_pointing_nowhere_is_caught(doc: str) -> None:
    broken = doc.replace(
        "| Ouran | The sky-warden summon. | TT-A.12.1 |", "| Ouran | x | TT-A.12.9 |"
    )
    assert dc.glossary_clause_problems(broken) == [
        "glossary term 'Ouran' points to unknown clause 'TT-A.12.9'"
    ]
