"""TACTICA rule data: loading, cross-checks and the loader's error messages."""

from __future__ import annotations

import itertools
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import yaml

from envs.core.config import CONFIG_ROOT, ConfigError
from envs.tactica.reference import decree_requirement_met
from envs.tactica.tables import (
    CARD_TRAINING,
    CARD_TROOP,
    COMBAT_MELEE,
    COMBAT_RANGED,
    HEX_ZONE_1,
    HEX_ZONE_2,
    PHASE_BARRACKS,
    PHASE_RECRUITMENT,
    PHASE_RESOLUTION,
    PILE_TACTICS,
    PILE_TROOP,
    TIMING_COUNTER,
    Tables,
    load_tables,
)

SRC = CONFIG_ROOT / "tactica"


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


def _norm(text: str) -> str:
    return " ".join(text.split())


# The seed's basic COMBAT PHASE texts, transcribed from 003_2f16ffdbafd9a58e.txt (Part 3,
# "ADVANCED PRESS CARD", "ADVANCED SAVED CARD", "ADVANCED ENGINEER CARD"), typos kept.
SEED_BASIC_TEXT = {
    "Press": "COMBAT PHASE: In the basic game, troop cards gain +1 OFF when attacking an adjacent "
    "enemy troop card. Press card returned to BARRACKS in RESOLUTION.",
    "Saved": "COMBAT PHASE: May be played only on melee troops, which gains +1 DEF for each "
    "adjacent melee troop card. Example: Champion is adjacent to 1 untrained Foot (1), one 1x "
    "trained foot (1), and two 2x trained Foot (2). Champion enjoys a +4 DEF If Champion "
    "survives combat, swap the positions of Champion and one \u201cdefending\u201d Foot. If "
    "Champion is captured, one defending trained Foot is also captured. Saved card sent to "
    "RESUPPLY in RESOLUTION.",
    "Engineer": "COMBAT PHASE: A single battleground feature (landmark card, wall card)can be "
    "removed from the battle (and the war!). Target card goes to its owner\u2019s LOST pile. "
    "Any bonuses and/or penalties immediately vanish with respect to combat resolution. "
    "Engineer card sent to RESUPPLY in RESOLUTION.",
}


def test_basic_press_saved_engineer_texts_are_the_seeds_words() -> None:
    rows = yaml.safe_load((SRC / "tactics.yaml").read_text(encoding="utf-8"))["entries"]
    by_name = {r["name"]: r for r in rows}
    for name, seed_text in SEED_BASIC_TEXT.items():
        assert by_name[name]["origin"] == "seed"
        assert _norm(by_name[name]["text"]) == _norm(seed_text), name


def test_press_returns_to_barracks_and_saved_engineer_go_to_resupply(tables: Tables) -> None:
    # "Press card returned to BARRACKS", "Saved card sent to RESUPPLY", "Engineer card sent to
    # RESUPPLY" (seed texts); the codes must follow the texts.
    rows = yaml.safe_load((SRC / "tactics.yaml").read_text(encoding="utf-8"))["entries"]
    for row in rows:
        says_barracks = "returned to BARRACKS" in row["text"]
        assert (row["after_use"] == "barracks") == says_barracks, row["name"]


def test_troop_pile_holds_troop_and_training_cards_only(tables: Tables) -> None:
    in_troop_pile = tables.card_pile == PILE_TROOP
    is_troopish = (tables.card_type == CARD_TROOP) | (tables.card_type == CARD_TRAINING)
    assert np.array_equal(in_troop_pile, is_troopish)
    assert set(np.flatnonzero(tables.card_pile == PILE_TACTICS)) == {
        tables.card_index[n] for n in tables.tactic_names
    }


def test_piles_can_fill_a_barracks_and_draws_cover_every_card(tables: Tables) -> None:
    # TT-B.5.1/TT-B.7.1: each pile alone can refill a whole Barracks.
    limit = tables.rules.barracks_limit
    for pile in (PILE_TROOP, PILE_TACTICS):
        assert int(tables.card_count[tables.card_pile == pile].sum()) >= limit


def test_foot_and_champion_are_melee_and_there_are_ranged_troops(tables: Tables) -> None:
    # Seed: Saved is for "Champion or Foot troops (melee troops only)"; Press mentions ranged.
    assert tables.troop_combat[tables.troop_index["Foot"]] == COMBAT_MELEE
    assert tables.troop_combat[tables.troop_index["Champion"]] == COMBAT_MELEE
    ranged = tables.troop_combat == COMBAT_RANGED
    assert ranged.any()
    assert (tables.troop_range[ranged] > 1).all() and (tables.troop_range[~ranged] == 1).all()


def test_max_training_is_two(tables: Tables) -> None:
    # PROMOTION: "2xTraining is still the maximum for any troop card".
    assert tables.rules.max_training == 2


def test_spire_is_three_summon_cards_within_three_hexes(tables: Tables) -> None:
    assert tables.rules.summon_cards == 3
    assert tables.rules.spire_wall_distance == 3
    assert set(tables.summon_names) == {"Ouran", "Cthon"}


def test_barracks_phase_comes_right_before_recruitment_and_after_resolution(
    tables: Tables,
) -> None:
    order = list(tables.phase_order)
    assert order[0] == PHASE_BARRACKS and order[1] == PHASE_RECRUITMENT
    assert order[-1] == PHASE_RESOLUTION
    assert tables.phase_advanced_only[order.index(PHASE_BARRACKS)]
    assert tables.phase_advanced_only.sum() == 1


def test_negate_and_retreat_are_counter_cards(tables: Tables) -> None:
    counters = {
        n for i, n in enumerate(tables.tactic_names) if tables.tactic_timing[i] == TIMING_COUNTER
    }
    assert counters == {"Negate", "Retreat"}


def test_every_wall_zone_fits_the_walls_and_battles_are_numbered(tables: Tables) -> None:
    walls = tables.feature_count[tables.feature_names.index("Wall")]
    for b in range(len(tables.battlefield_names)):
        hexes = tables.battlefield_hexes[b]
        assert (hexes == HEX_ZONE_1).sum() >= walls
        assert (hexes == HEX_ZONE_2).sum() >= walls
    assert sorted(tables.battlefield_battle) == [1, 2, 3]
    # I1: later battles are fought on fields that are no longer, so armies start closer.
    rows = [
        tables.battlefield_shape[list(tables.battlefield_battle).index(n)][0] for n in (1, 2, 3)
    ]
    assert rows == sorted(rows, reverse=True)


def test_tables_are_read_only(tables: Tables) -> None:
    with pytest.raises(ValueError):
        tables.troop_off[0] = 9
    with pytest.raises(ValueError):
        tables.battlefield_hexes[0, 0, 0] = 0


def _army_multiset(tables: Tables) -> Counter[str]:
    return Counter({n: int(c) for n, c in zip(tables.card_names, tables.card_count, strict=True)})


def _some_barracks_meets(tables: Tables, decree: str) -> bool:
    """Search Barracks of at most barracks_limit cards drawable from one army."""
    army = _army_multiset(tables)
    names = sorted(army)
    limit = tables.rules.barracks_limit
    # Multisets with at most 2 copies of a name suffice for every requirement shape.
    pool = [n for n in names for _ in range(min(2, army[n]))]
    for size in range(1, limit + 1):
        for combo in itertools.combinations(pool, size):
            if decree_requirement_met(tables, decree, combo, capturers=1, hostages=1):
                return True
    return False


def test_every_decree_can_be_met_by_a_barracks_from_one_army(tables: Tables) -> None:
    # Each decree's requirement must be reachable with the counts in army.yaml.
    for decree in tables.decree_names:
        assert _some_barracks_meets(tables, decree), decree


# --- bad input: every loader error kind names the file, the entry and the field ----------


def _broken(tmp_path: Path, file: str, edit: Callable[[dict], None]) -> Path:
    dst = tmp_path / "tactica"
    shutil.copytree(SRC, dst)
    path = dst / file
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    edit(doc)
    path.write_text(yaml.safe_dump(doc, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return dst


def _expect(cfg: Path, file: str, entry: str | None, field: str | None) -> ConfigError:
    with pytest.raises(ConfigError) as info:
        load_tables(cfg)
    err = info.value
    assert err.path.endswith(file)
    msg = str(err)
    assert file in msg
    if entry is None:
        assert err.entry is None
    else:
        assert err.entry is not None and entry in err.entry and entry in msg
    assert err.field == field
    if field is not None:
        assert f"field '{field}'" in msg
    return err


def _entry(doc: dict, name: str) -> dict:
    return next(e for e in doc["entries"] if e["name"] == name)


def test_missing_field_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "troops.yaml", lambda d: _entry(d, "Champion").pop("defense"))
    err = _expect(cfg, "troops.yaml", "'Champion'", "defense")
    assert "missing" in str(err)


def test_wrong_type_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "summons.yaml", lambda d: _entry(d, "Cthon").update(move="fast"))
    _expect(cfg, "summons.yaml", "'Cthon'", "move")


def test_unknown_vocabulary_value_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "tactics.yaml", lambda d: _entry(d, "Spy").update(timing="whenever"))
    _expect(cfg, "tactics.yaml", "'Spy'", "timing")


def test_unknown_card_in_decree_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "decrees.yaml", lambda d: _entry(d, "FOG").update(cards=["Spy", "Fog"]))
    err = _expect(cfg, "decrees.yaml", "'FOG'", "cards")
    assert "'Fog'" in str(err)


def test_unknown_summon_in_sacrifice_is_reported(tmp_path: Path) -> None:
    cfg = _broken(
        tmp_path, "sacrifices.yaml", lambda d: _entry(d, "Burrow").update(summon="Kraken")
    )
    _expect(cfg, "sacrifices.yaml", "'Burrow'", "summon")


def test_duplicate_name_is_reported(tmp_path: Path) -> None:
    def dup(d: dict) -> None:
        d["entries"][1]["name"] = d["entries"][0]["name"]

    _expect(_broken(tmp_path, "troops.yaml", dup), "troops.yaml", "1 'Foot'", "name")


def test_bad_origin_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "landmarks.yaml", lambda d: d["entries"][0].update(origin="folklore"))
    _expect(cfg, "landmarks.yaml", "'Hill/Hollow'", "origin")


def test_invented_row_without_invented_id_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "summons.yaml", lambda d: _entry(d, "Ouran").update(ref="R2"))
    _expect(cfg, "summons.yaml", "'Ouran'", "ref")


def test_unknown_field_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "landmarks.yaml", lambda d: d["entries"][1]["low"].update(wet=True))
    _expect(cfg, "landmarks.yaml", "'Ridge/Marsh'", "low.wet")


def test_counter_card_without_counters_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "tactics.yaml", lambda d: _entry(d, "Negate").update(counters=None))
    _expect(cfg, "tactics.yaml", "'Negate'", "counters")


def test_card_in_wrong_pile_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "army.yaml", lambda d: _entry(d, "Training").update(pile="tactics"))
    _expect(cfg, "army.yaml", "'Training'", "pile")


def test_troop_card_missing_from_army_is_reported(tmp_path: Path) -> None:
    def drop(d: dict) -> None:
        d["entries"] = [e for e in d["entries"] if e["name"] != "Crossbow"]

    _expect(_broken(tmp_path, "army.yaml", drop), "troops.yaml", "'Crossbow'", "name")


def test_army_card_unknown_to_tactics_file_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "army.yaml", lambda d: _entry(d, "Crown").update(name="Sceptre"))
    _expect(cfg, "tactics.yaml", "'Crown'", "name")


def test_ragged_battlefield_row_is_reported(tmp_path: Path) -> None:
    cfg = _broken(
        tmp_path,
        "battlefields.yaml",
        lambda d: _entry(d, "Second Battle")["rows"].__setitem__(3, "...."),
    )
    _expect(cfg, "battlefields.yaml", "'Second Battle'", "rows.3")


def test_unknown_hex_character_is_reported(tmp_path: Path) -> None:
    cfg = _broken(
        tmp_path,
        "battlefields.yaml",
        lambda d: _entry(d, "Third Battle")["rows"].__setitem__(2, "..X......"),
    )
    err = _expect(cfg, "battlefields.yaml", "'Third Battle'", "rows.2")
    assert "'X'" in str(err)


def test_battle_points_must_match_battles(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "rules.yaml", lambda d: d.update(battle_points=[1, 2]))
    _expect(cfg, "rules.yaml", None, "battle_points")


def test_wrong_kind_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "phases.yaml", lambda d: d.update(kind="tactica.phase"))
    _expect(cfg, "phases.yaml", None, "kind")


def test_unknown_phase_is_reported(tmp_path: Path) -> None:
    cfg = _broken(tmp_path, "phases.yaml", lambda d: _entry(d, "Movement").update(name="Marching"))
    _expect(cfg, "phases.yaml", "'Marching'", "name")


def test_pile_totals_stated_in_the_doc_match_the_data(tables: Tables) -> None:
    # docs/rules/tactica.md, "Card list": "troop pile 20 cards, tactics pile 17 cards, feature
    # cards 8 (...) and 1 token". The doc's numbers must follow army.yaml.
    import re

    from envs.core.doccheck import ROOT
    from envs.tactica.tables import CARD_TOKEN

    text = (ROOT / "docs" / "rules" / "tactica.md").read_text(encoding="utf-8")
    m = re.search(
        r"troop pile (\d+) cards, tactics pile (\d+) cards, feature\s+cards (\d+) .*? and (\d+) token",
        text,
        re.S,
    )
    assert m is not None
    troop, tactics, feature, token = (int(g) for g in m.groups())
    assert troop == int(tables.card_count[tables.card_pile == PILE_TROOP].sum())
    assert tactics == int(tables.card_count[tables.card_pile == PILE_TACTICS].sum())
    is_token = tables.feature_type == CARD_TOKEN
    assert feature == int(tables.feature_count[~is_token].sum())
    assert token == int(tables.feature_count[is_token].sum())
