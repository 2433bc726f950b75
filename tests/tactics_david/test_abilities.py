"""Tactics David abilities ("Ability List") as effect rows; vocabulary documented in
docs/rules/tactics_david_abilities.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

from envs.core.config import CONFIG_ROOT, ConfigError
from envs.tactics_david import unit_tables as ut

TD = CONFIG_ROOT / "tactics_david"
ABILITIES = TD / "abilities.yaml"
DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactics_david_abilities.md"


@pytest.fixture(scope="module")
def units():
    return ut.load_units(TD / "units.yaml")


@pytest.fixture(scope="module")
def abilities(units):
    return ut.load_abilities(ABILITIES, units)


def test_ability_list_has_202_abilities_indexed_like_the_units(abilities, units):
    assert len(abilities) == 202
    assert [a.number for a in abilities] == list(range(1, 203))
    assert [a.name for a in abilities] == [u.ability for u in units]


def test_every_ability_is_structured_or_custom_with_a_why(abilities):
    for a in abilities:
        assert a.effects, a.name
        for e in a.effects:
            assert (e.effect == "custom") == bool(e.why), a.name


def test_custom_share_is_well_under_20_percent(abilities):
    custom = [a.name for a in abilities if any(e.effect == "custom" for e in a.effects)]
    print(f"custom abilities: {len(custom)}/202 = {len(custom) / 202:.1%}: {custom}")
    assert len(custom) / len(abilities) < 0.10
    assert custom == ["Guard", "Shed", "Floodplains"]


OCCURS_TRIGGER = {"B": "before", "D": "during", "A": "after", "R": "replaces"}
# Every "B:/D:/A:/R:" ability keeps its seed timing in at least one row.
TRIGGER_EXCEPTIONS: set[str] = set()


def test_occurs_column_letter_matches_a_row_trigger(abilities):
    off = set()
    for a in abilities:
        if a.occurs.startswith("All"):
            continue
        want = OCCURS_TRIGGER[a.occurs[0]]
        if not any(e.trigger == want for e in a.effects):
            off.add(a.name)
    assert off == TRIGGER_EXCEPTIONS


def test_every_status_the_text_names_is_encoded(abilities):
    """Statuses named in the seed text (besides Dead, often a condition) appear in the rows."""
    for a in abilities:
        if any(e.effect == "custom" for e in a.effects):
            continue
        named = set(re.findall(r"(\w+) Status", a.text)) & set(ut.STATUSES)
        if "Posioned" in a.text:
            named.add("Poisoned")  # RA19
        used: set[str] = set()
        for e in a.effects:
            used |= set(e.statuses) | set(e.except_statuses)
            for c in e.conditions:
                used |= set(c.values)
        assert named - {"Dead"} <= used, (a.name, named - used)


def test_replace_unit_rows_name_seed_units(abilities, units):
    names = {u.name for u in units}
    replaced = {e.unit for a in abilities for e in a.effects if e.effect == "replace_unit"}
    assert replaced <= names
    assert {"Zombie", "Skeleton", "Slime", "Pup", "Egg", "Baby Dragon"} <= replaced


def test_breath_abilities_attack_with_base_strength_one_or_two(abilities):
    breaths = [a for a in abilities if a.name.endswith("Breath")]
    assert len(breaths) == 10
    for a in breaths:
        base = int(re.search(r"Base Strength Rating of (\d)", a.text).group(1))
        assert a.effects[0].effect == "special_attack" and a.effects[0].amount == base


def test_effect_table_offsets_cover_every_row():
    t = ut.load_unit_tables(TD)
    assert t.effect_offset[0] == 0 and int(t.effect_offset[-1]) == len(t.eff_kind)
    assert (t.effect_offset[1:] > t.effect_offset[:-1]).all()
    cry = t.ability_index["Cry For Help"]
    row = t.effect_offset[cry]
    assert ut.TRIGGERS[t.eff_trigger[row]] == "before"
    assert t.eff_procedures[row] == 1 << ut.PROCEDURES.index("Defend")
    assert (t.eff_roll[row], t.eff_threshold[row]) == (ut.ROLLS.index("1D6"), 3)
    assert t.ability_not_with_dead[t.ability_index["Holy Might"]]


# --- vocabulary and readings documented -----------------------------------------------------


def vocabulary_gaps(doc: str) -> set[str]:
    """Vocabulary values with no backticked mention in the doc."""
    terms = (
        set(ut.TRIGGERS) | set(ut.PROCEDURES) | set(ut.CONDITIONS) | set(ut.ROLLS)
        | set(ut.COMPARES) | set(ut.SELECTORS) | set(ut.TEAMS) | set(ut.EFFECT_KINDS)
        | set(ut.EFFECT_MODE_NAMES) | set(ut.DICE) | set(ut.SIDES) | set(ut.DURATIONS)
        | set(ut.Effect.model_fields)
    )  # fmt: skip
    mentioned = set(re.findall(r"`([^`]+)`", doc))
    return {t for t in terms if t not in mentioned}


def reading_gaps(doc: str, yaml_texts: list[str]) -> tuple[set[str], set[str]]:
    """(ids used in data but not defined, ids defined but used nowhere else)."""
    table = re.findall(r"^\| (R[AU]\d+) \|", doc, flags=re.M)
    defined = set(table)
    body = re.sub(r"^\| R[AU]\d+ \|", "", doc, flags=re.M)
    used = set()
    for text in yaml_texts:
        used |= set(re.findall(r"\bR[AU]\d+\b", text))
    referenced = used | set(re.findall(r"\bR[AU]\d+\b", body))
    return used - defined, defined - referenced


def test_every_vocabulary_value_is_explained_in_the_doc():
    assert vocabulary_gaps(DOC.read_text(encoding="utf-8")) == set()


def test_vocabulary_check_fails_on_a_doc_missing_a_term():
    doc = DOC.read_text(encoding="utf-8").replace("`pull_to_self`", "pull to self")
    assert vocabulary_gaps(doc) == {"pull_to_self"}


def test_every_reading_is_defined_and_referenced():
    texts = [ABILITIES.read_text(encoding="utf-8"), (TD / "units.yaml").read_text(encoding="utf-8")]
    doc = DOC.read_text(encoding="utf-8")
    assert reading_gaps(doc, texts) == (set(), set())
    broken = doc.replace("| RA13 |", "| RAX |")
    assert "RA13" in reading_gaps(broken, texts)[0]


def test_doc_has_no_placeholders():
    doc = DOC.read_text(encoding="utf-8")
    for bad in ("TBD", "TODO", "???", "to be decided"):
        assert bad not in doc


def test_statuses_and_areas_transcribed_from_the_seed():
    assert len(ut.STATUSES) == len(set(ut.STATUSES)) == 20
    assert ut.ATTACK_AREAS[0] == "MA" and ut.ATTACK_AREAS[10] == "MK"
    assert ut.ATTACK_AREAS[11] == "RA" and ut.ATTACK_AREAS[-1] == "RI"
    assert len(ut.ROOTS) == 11


# --- bad input -------------------------------------------------------------------------------


def _broken(tmp_path: Path, mutate, upto: int = 202) -> Path:
    """A broken copy; `upto` keeps only the first rows (the row error is raised first)."""
    doc = yaml.load(ABILITIES.read_text(encoding="utf-8"), Loader=yaml.CSafeLoader)
    mutate(doc["entries"])
    doc["entries"] = doc["entries"][:upto]
    path = tmp_path / "abilities.yaml"
    path.write_text(yaml.dump(doc, Dumper=yaml.CSafeDumper, sort_keys=False), encoding="utf-8")
    return path


def _expect(path: Path, units, entry: str, field: str) -> None:
    with pytest.raises(ConfigError) as err:
        ut.load_abilities(path, units)
    msg = str(err.value)
    assert str(path) in msg and f"entry {entry}" in msg and f"field '{field}'" in msg, msg


def test_missing_field_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[0]["effects"][0].pop("selector"), upto=1)
    _expect(path, units, "0 'Cry For Help'", "effects.0.selector")


def test_wrong_type_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[0]["effects"][0].update(threshold="three"), upto=1)
    _expect(path, units, "0 'Cry For Help'", "effects.0.threshold")


def test_unknown_status_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[9]["effects"][0].update(statuses=["Scared"]), upto=10)
    _expect(path, units, "9 'Deathly Miasma'", "effects.0.statuses.0")


def test_unknown_status_in_condition_is_rejected(tmp_path, units):
    def mutate(es):
        es[52]["effects"][0]["conditions"][0]["values"] = ["Deceased"]

    path = _broken(tmp_path, mutate, upto=53)
    _expect(path, units, "52 'Raise Dead'", "effects.0.conditions.0.values")


def test_unknown_attack_area_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[105]["effects"][0].update(attack_area="MZ"), upto=106)
    _expect(path, units, "105 'Lightning Cry'", "effects.0.attack_area")


def test_duplicate_name_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[1].update(name="Cry For Help"), upto=2)
    _expect(path, units, "1 'Cry For Help'", "name")


def test_number_and_ability_index_mismatch_is_rejected(tmp_path, units):
    def swap(es):
        es[3], es[4] = es[4], es[3]

    path = _broken(tmp_path, swap, upto=5)
    _expect(path, units, "3 'Deus Ex Machina'", "number")

    def renumber(es):
        es[3], es[4] = es[4], es[3]
        es[3]["number"], es[4]["number"] = 4, 5

    path = _broken(tmp_path, renumber, upto=5)
    _expect(path, units, "3 'Deus Ex Machina'", "name")


def test_mode_not_of_the_effect_kind_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[0]["effects"][0].update(mode="half"), upto=1)
    _expect(path, units, "0 'Cry For Help'", "effects.0.mode")


def test_custom_without_why_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[102]["effects"][0].pop("why"), upto=103)
    _expect(path, units, "102 'Guard'", "effects.0.why")


def test_unknown_replacement_unit_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[52]["effects"][0].update(unit="Mummy"), upto=53)
    _expect(path, units, "52 'Raise Dead'", "effects.0.unit")


def test_unknown_effect_kind_is_rejected(tmp_path, units):
    path = _broken(tmp_path, lambda es: es[0]["effects"][0].update(effect="heal"), upto=1)
    _expect(path, units, "0 'Cry For Help'", "effects.0.effect")


def test_shared_roll_on_first_row_is_rejected(tmp_path, units):
    path = _broken(
        tmp_path, lambda es: es[0]["effects"][0].update(shared_roll=True, roll="none"), upto=1
    )
    _expect(path, units, "0 'Cry For Help'", "effects.0.shared_roll")
