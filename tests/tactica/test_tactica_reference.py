"""The seed's worked examples (Part 3) and the decree requirements, over the rule data."""

from __future__ import annotations

import pytest

from envs.tactica.reference import (
    decree_requirement_met,
    defending_troops,
    is_captured,
    press_off_bonus,
    saved_def_bonus,
    saved_extra_capture_candidates,
    saved_may_be_played_on,
    troop_attack_off,
)
from envs.tactica.tables import Tables, load_tables


@pytest.fixture(scope="module")
def tables() -> Tables:
    return load_tables()


UNTRAINED, ONE_X, TWO_X = ("Foot", 0), ("Foot", 1), ("Foot", 2)


# --- "ADVANCED SAVED CARD" ------------------------------------------------------------------


def test_basic_saved_example_champion_gets_plus_four(tables: Tables) -> None:
    # "Champion is adjacent to 1 untrained Foot (1), one 1x trained foot (1), and two 2x
    # trained Foot (2). Champion enjoys a +4 DEF"
    neighbours = [UNTRAINED, ONE_X, TWO_X, TWO_X]
    assert saved_def_bonus(tables, "Champion", neighbours, advanced=False) == 4


def test_basic_saved_counts_every_adjacent_melee_troop_not_ranged(tables: Tables) -> None:
    # "+1 DEF for each adjacent melee troop card": a Champion counts, an Archer does not.
    neighbours = [("Champion", 0), ("Archer", 2), ("Crossbow", 0), TWO_X]
    assert saved_def_bonus(tables, "Foot", neighbours, advanced=False) == 2


def test_advanced_saved_foot_example_gets_plus_five(tables: Tables) -> None:
    # "Foot is adjacent to 1 untrained Foot (0), one 1x trained foot (1), and two 2x trained
    # Foot (4). This Foot card enjoys a +5 DEF"
    neighbours = [UNTRAINED, ONE_X, TWO_X, TWO_X]
    assert saved_def_bonus(tables, "Foot", neighbours, advanced=True) == 5


@pytest.mark.parametrize(
    ("neighbours", "bonus"),
    [
        # Reading R5: the seed's "+9" needs two 2x trained Foot ("(3 each)") ...
        ([UNTRAINED, ONE_X, TWO_X, TWO_X], 9),
        # ... while the literal "one 2x trained foot card" gives 1 + 2 + 3 = +6 by the rule.
        ([UNTRAINED, ONE_X, TWO_X], 6),
    ],
)
def test_advanced_saved_champion_example_reading_r5(
    tables: Tables, neighbours: list[tuple[str, int]], bonus: int
) -> None:
    assert saved_def_bonus(tables, "Champion", neighbours, advanced=True) == bonus


def test_advanced_saved_counts_only_foot(tables: Tables) -> None:
    # "adjacent friendly Foot card" / "each adjacent foot card": a 2x Archer adds nothing.
    neighbours = [("Archer", 2), ("Champion", 2), ONE_X]
    assert saved_def_bonus(tables, "Foot", neighbours, advanced=True) == 1
    assert saved_def_bonus(tables, "Champion", neighbours, advanced=True) == 2


def test_saved_only_on_melee_troops(tables: Tables) -> None:
    # "May be played only on melee troops" / "only on Champion or Foot troops".
    for advanced in (False, True):
        assert saved_may_be_played_on(tables, "Foot", advanced=advanced)
        assert saved_may_be_played_on(tables, "Champion", advanced=advanced)
        assert not saved_may_be_played_on(tables, "Archer", advanced=advanced)
        with pytest.raises(ValueError, match="Saved may not be played"):
            saved_def_bonus(tables, "Crossbow", [TWO_X], advanced=advanced)


def test_saved_extra_capture_basic_and_foot_need_trained_champion_any(tables: Tables) -> None:
    # Basic: "one defending trained Foot"; advanced Foot: "one defending trained troop";
    # advanced Champion: "one defending Foot" (reading R6).
    neighbours = [UNTRAINED, ("Archer", 1), ONE_X]
    assert saved_extra_capture_candidates(tables, "Champion", neighbours, advanced=False) == [2]
    assert saved_extra_capture_candidates(tables, "Foot", neighbours, advanced=True) == [2]
    assert saved_extra_capture_candidates(tables, "Champion", neighbours, advanced=True) == [0, 2]
    assert defending_troops(tables, "Champion", neighbours, advanced=True) == [0, 2]


def test_training_above_two_is_rejected(tables: Tables) -> None:
    with pytest.raises(ValueError, match="training level 3"):
        saved_def_bonus(tables, "Foot", [("Foot", 3)], advanced=True)


# --- "ADVANCED PRESS CARD" ------------------------------------------------------------------


def test_advanced_press_example_two_x_foot_gets_plus_three(tables: Tables) -> None:
    # "(e.g. 2x training on Foot = +3 OFF)"
    assert press_off_bonus(tables, 2, adjacent=True, advanced=True) == 3


def test_basic_press_is_plus_one_against_adjacent_only(tables: Tables) -> None:
    # "+1 OFF when attacking an adjacent enemy troop card"
    assert press_off_bonus(tables, 2, adjacent=True, advanced=False) == 1
    assert press_off_bonus(tables, 2, adjacent=False, advanced=False) == 0


def test_advanced_press_applies_to_ranged_attacks_at_range(tables: Tables) -> None:
    # Reading R3: "This card DOES apply to ranged troops".
    assert press_off_bonus(tables, 1, adjacent=False, advanced=True) == 2


@pytest.mark.parametrize(
    ("training", "relation"),
    # "may offset negatives" (training 1: exactly) and "may more than offset" (training 2);
    # an untrained ranged troop only softens the penalty.
    [(0, "less"), (1, "equal"), (2, "more")],
)
def test_advanced_press_offsets_ranged_penalty_against_adjacent_melee(
    tables: Tables, training: int, relation: str
) -> None:
    with_press = troop_attack_off(
        tables, "Archer", training, distance=1, target_melee=True, press=True, advanced=True
    )
    at_range = troop_attack_off(
        tables, "Archer", training, distance=2, target_melee=True, press=False, advanced=True
    )
    diff = with_press - at_range
    assert {"less": diff < 0, "equal": diff == 0, "more": diff > 0}[relation]


def test_ranged_penalty_only_against_adjacent_melee(tables: Tables) -> None:
    near_ranged = troop_attack_off(
        tables, "Crossbow", 0, distance=1, target_melee=False, press=False, advanced=False
    )
    near_melee = troop_attack_off(
        tables, "Crossbow", 0, distance=1, target_melee=True, press=False, advanced=False
    )
    assert near_ranged - near_melee == tables.rules.ranged_adjacent_melee_penalty
    with pytest.raises(ValueError, match="cannot attack"):
        troop_attack_off(
            tables, "Foot", 0, distance=2, target_melee=True, press=False, advanced=False
        )


def test_capture_needs_more_off_than_def() -> None:
    assert is_captured(5, 4)
    assert not is_captured(4, 4)


# --- "BARRACKS PHASE and DECREES" -----------------------------------------------------------


@pytest.mark.parametrize(
    ("decree", "barracks", "capturers", "hostages", "met"),
    [
        ("TACTICA!", ["Foot", "Champion", "Archer", "Press", "Saved", "Spy"], 0, 0, True),
        ("TACTICA!", ["Foot", "Foot", "Archer", "Press", "Saved", "Spy"], 0, 0, False),
        ("PROMOTION", ["Foot", "Archer", "Press", "Spy"], 1, 0, True),
        ("PROMOTION", ["Foot", "Archer", "Press", "Spy"], 0, 0, False),
        ("PROMOTION", ["Foot", "Foot", "Press", "Spy"], 1, 0, False),
        # "1 pair (any, which could include the negate card!)"
        ("FOG", ["Spy", "Negate", "Negate"], 0, 0, True),
        ("FOG", ["Spy", "Negate", "Press", "Press"], 0, 0, True),
        ("FOG", ["Spy", "Spy", "Negate"], 0, 0, True),
        ("FOG", ["Spy", "Negate", "Press"], 0, 0, False),
        ("FOG", ["Negate", "Negate", "Press", "Press"], 0, 0, False),
        ("MUD", ["Spy", "Engineer", "Engineer"], 0, 0, True),
        ("MUD", ["Spy", "Negate", "Negate"], 0, 0, False),
        ("BETRAYAL!", ["Crown", "Spy", "Negate"], 0, 1, True),
        ("BETRAYAL!", ["Crown", "Spy", "Negate"], 0, 0, False),
        ("BETRAYAL!", ["Crown", "Spy", "Engineer"], 0, 1, False),
        ("SUMMON", ["Training", "Training"], 0, 0, True),
        ("SUMMON", ["Foot", "Champion", "Press"], 0, 0, False),
    ],
)
def test_decree_requirements(
    tables: Tables, decree: str, barracks: list[str], capturers: int, hostages: int, met: bool
) -> None:
    got = decree_requirement_met(tables, decree, barracks, capturers=capturers, hostages=hostages)
    assert got is met


def test_decree_with_unknown_card_or_name_is_rejected(tables: Tables) -> None:
    with pytest.raises(ValueError, match="unknown card"):
        decree_requirement_met(tables, "SUMMON", ["Dragon", "Dragon"])
    with pytest.raises(ValueError, match="unknown decree"):
        decree_requirement_met(tables, "RAIN", ["Spy"])
