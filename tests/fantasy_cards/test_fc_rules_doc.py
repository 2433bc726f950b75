"""docs/rules/fantasy_cards.md agrees with the data (common brief).

The clause tables, statuses and R#/I# are checked by the shared rules-doc check
(envs/core/doccheck.py, tests/platform/test_platform_rules_doc.py). `data_problems` lists what
the doc gets wrong about configs/fantasy_cards; the real doc must give none, and deliberately
broken copies must each give the expected problem, so the check can fail.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from envs.core.doccheck import section, unexplained
from envs.fantasy_cards import tables as fc
from envs.fantasy_cards.deck_stats import (
    BEGIN_MARK,
    END_MARK,
    frequency_markdown,
    shifted_result_probabilities,
)
from envs.fantasy_cards.tables import FC_CONFIG, load_tables

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "fantasy_cards.md"


def _yaml_names(file: str) -> list[str]:
    return [e["name"] for e in yaml.safe_load((FC_CONFIG / file).read_text())["entries"]]


def _vocabulary_used() -> set[str]:
    """Every closed-vocabulary code that appears in the YAML files."""
    used: set[str] = set()
    for row in yaml.safe_load((FC_CONFIG / "card_effects.yaml").read_text())["entries"]:
        used |= {row["part"], row["timing"], row["trigger"], row["condition"]}
        for eff in row["effects"]:
            used.add(eff["kind"])
            used |= {k for k in eff if k != "kind"}  # parameter names
            for key in ("direction", "what"):
                if key in eff:
                    used.add(eff[key])
            if eff.get("range") == fc.RANGE_DISTANCE:
                used.add(fc.RANGE_DISTANCE)
    for file in ("ranged_modifiers.yaml", "melee_modifiers.yaml"):
        used |= {e["condition"] for e in yaml.safe_load((FC_CONFIG / file).read_text())["entries"]}
    used |= {
        e["reference"]
        for e in yaml.safe_load((FC_CONFIG / "random_drift.yaml").read_text())["entries"]
    }
    used |= {
        e["stage"]
        for e in yaml.safe_load((FC_CONFIG / "sequence_of_play.yaml").read_text())["entries"]
    }
    used |= {
        e["removed_by"]
        for e in yaml.safe_load((FC_CONFIG / "combat_results.yaml").read_text())["entries"]
    }
    return used


def _entry_lists(text: str) -> dict[str, list[str]]:
    """`- `file.yaml`: `A`, `B` ...` lines of the Data section; "`X` to `Y`" is a range."""
    lists: dict[str, list[str]] = {}
    for m in re.finditer(r"^- `([a-z_]+\.yaml)`: (.*)$", section(text, "Data"), re.M):
        file, rest = m.group(1), m.group(2)
        names = re.findall(r"`([^`]+)`", rest)
        rng = re.fullmatch(r"`([^`]+)` to `([^`]+)`.*", rest)
        if rng and (FC_CONFIG / file).exists():
            data = _yaml_names(file)
            if rng.group(1) in data and rng.group(2) in data:
                names = data[data.index(rng.group(1)) : data.index(rng.group(2)) + 1]
        lists[file] = names
    return lists


def data_problems(text: str) -> list[str]:
    """What the Data section and the vocabulary explanations get wrong about configs/
    fantasy_cards (the clause tables are envs/core/doccheck.py's: tests/platform)."""
    problems: list[str] = []
    lists = _entry_lists(text)
    for path in sorted(FC_CONFIG.glob("*.yaml")):
        doc = yaml.safe_load(path.read_text())
        if "entries" not in doc:
            continue
        data = [e["name"] for e in doc["entries"]]
        listed = lists.get(path.name)
        if listed is None:
            problems.append(f"Data section lists no entries of {path.name}")
            continue
        for name in listed:
            if name not in data:
                problems.append(f"{path.name}: doc lists {name!r}, not in the data")
        for name in data:
            if name not in listed:
                problems.append(f"{path.name}: entry {name!r} not listed in the doc")
        for row in doc["entries"]:
            if row.get("origin") == "invented" and not re.search(r"\bI\d+\b", path.read_text()):
                problems.append(f"{path.name}: invented rows without an I# reference")
                break
    for code in unexplained(text, _vocabulary_used()):
        problems.append(f"vocabulary value `{code}` is not explained in the doc")
    return problems


@pytest.fixture(scope="module")
def text() -> str:
    return DOC.read_text(encoding="utf-8")


def test_rules_doc_data_and_vocabulary_are_complete(text):
    assert data_problems(text) == []


def _broken(text: str, old: str, new: str) -> str:
    assert old in text
    return text.replace(old, new, 1)


@pytest.mark.parametrize(
    ("old", "new", "problem"),
    [
        ("`Dispel`\n", "`Dispel`, `Fireball`\n", "'Fireball', not in the data"),
        ("`Very Short`, `Short`, ", "`Very Short`, ", "entry 'Short' not listed"),
        ("`enemy_contact`", "enemy_contact", "`enemy_contact` is not explained"),
    ],
)
def test_data_check_catches_broken_copy(text, old, new, problem):
    problems = data_problems(_broken(text, old, new))
    assert any(problem in p for p in problems), problems


def test_doc_deck_statistics_match_the_data(text):
    block = text.split(BEGIN_MARK, 1)[1].split(END_MARK, 1)[0]
    assert block.strip() == frequency_markdown(load_tables()).strip()


def test_doc_deck_statistics_check_can_fail(tmp_path):
    # a deck with one result changed must change the block
    doc = yaml.safe_load((FC_CONFIG / "deck.yaml").read_text())
    doc["entries"][0]["combat_result"] = "Eliminated"
    path = tmp_path / "deck.yaml"
    path.write_text(yaml.safe_dump(doc))
    assert frequency_markdown(load_tables(deck_path=path)) != frequency_markdown(load_tables())


def test_doc_prose_numbers_match_the_data(text):
    t = load_tables()
    counts = [int((t.card_result == k).sum()) for k in range(5)]
    sentence = (
        f"Combat Results: {counts[0]} No Effect, {counts[1]} Fall Back, {counts[2]} Shaken, "
        f"{counts[3]}\nOut Of Action, {counts[4]} Eliminated."
    )
    assert sentence in text
    eliminated_at_plus_2 = round(100 * shifted_result_probabilities(t, 2)[fc.ELIMINATED])
    assert f"eliminate {eliminated_at_plus_2} % of the time" in text
    no_drift = sum(counts[k] for k in range(5) if t.drift_distance[k] < 0) / 72
    assert f"{round(100 * no_drift)} % of attacks land true" in text
    assert counts[0] * 3 == 72 and counts[4] * 12 == 72  # "one time in three / in twelve"
