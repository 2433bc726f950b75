"""TACTICA combat kernels (envs/tactica/combat.py): the seed's worked examples, rule tests
named after the rules, and hypothesis cross-checks against envs/tactica/reference.py."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.tactica import combat
from envs.tactica import reference as ref
from envs.tactica.tables import (
    MAX_TROOPS,
    SIDE_HIGH,
    SIDE_LOW,
    build_arrays,
    load_tables,
)

TABLES = load_tables()
TB = TABLES.arrays
TROOPS = TABLES.troop_names
FOOT, CHAMPION, ARCHER, CROSSBOW = (
    TABLES.troop_index[n] for n in ("Foot", "Champion", "Archer", "Crossbow")
)
HILL_HOLLOW = TABLES.landmark_index["Hill/Hollow"]
RIDGE_MARSH = TABLES.landmark_index["Ridge/Marsh"]
OURAN, CTHON = TABLES.summon_index["Ouran"], TABLES.summon_index["Cthon"]
AEGIS, TEMPEST, DEVOUR, BURROW = (
    TABLES.sacrifice_index[n] for n in ("Aegis", "Tempest", "Devour", "Burrow")
)
UNTRAINED, ONE_X, TWO_X = ("Foot", 0), ("Foot", 1), ("Foot", 2)
MAX_LEVEL = TABLES.rules.max_training
HYPO = settings(max_examples=150, deadline=None)  # the first call compiles the kernel


def _neighbours(neighbours: list[tuple[str, int]]) -> tuple[int, np.ndarray, np.ndarray]:
    troop = np.array([TABLES.troop_index[n] for n, _ in neighbours], dtype=np.int64)
    training = np.array([lv for _, lv in neighbours], dtype=np.int64)
    return len(neighbours), troop, training


def _saved(target: str, neighbours: list[tuple[str, int]], advanced: bool) -> int:
    return combat.saved_def_bonus(
        TB, TABLES.troop_index[target], *_neighbours(neighbours), advanced
    )


def _candidates(target: str, neighbours: list[tuple[str, int]], advanced: bool) -> list[int]:
    n, troop, training = _neighbours(neighbours)
    out = np.full(max(n, 1), -1, dtype=np.int64)
    k = combat.saved_extra_capture_candidates(
        TB, TABLES.troop_index[target], n, troop, training, advanced, out
    )
    return out[:k].tolist()


def _defending(target: str, neighbours: list[tuple[str, int]], advanced: bool) -> list[int]:
    n, troop, _ = _neighbours(neighbours)
    out = np.full(max(n, 1), -1, dtype=np.int64)
    k = combat.saved_defending_troops(TB, TABLES.troop_index[target], n, troop, advanced, out)
    return out[:k].tolist()


# --- the kernels' record mirrors the tables ----------------------------------------------


def test_kernel_record_mirrors_the_tables() -> None:
    assert TB.n_troops == len(TROOPS) and TB.n_decrees == len(TABLES.decree_names)
    n = len(TROOPS)
    for name in ("troop_combat", "troop_off", "troop_def", "troop_move", "troop_range"):
        assert (getattr(TB, name)[:n] == getattr(TABLES, name)).all(), name
        assert (getattr(TB, name)[n:] == 0).all(), name  # padding
    assert (TB.landmark_def_mod[: len(TABLES.landmark_names)] == TABLES.landmark_def_mod).all()
    c = len(TABLES.card_names)
    assert (TB.decree_cards[: len(TABLES.decree_names), :c] == TABLES.decree_cards).all()
    assert (TB.card_troop[c:] == -1).all()
    assert TB.foot_troop == FOOT and TB.champion_troop == CHAMPION
    assert TB.max_training == TABLES.rules.max_training == 2
    assert TB.spire_def == TABLES.rules.spire_def
    assert list(TB.battle_points[: TABLES.rules.battles_per_war]) == [1, 2, 3]
    # the two forms share one record: the batch one is what parallel kernels take
    assert TABLES.arrays_batch.shape == (1,) and TABLES.arrays_batch[0]["spire_def"] == 4


def test_kernel_record_rejects_tables_over_capacity() -> None:
    big = dataclasses.replace(TABLES, troop_names=tuple(f"T{i}" for i in range(MAX_TROOPS + 1)))
    with pytest.raises(ValueError, match="troop_names exceed the capacity"):
        build_arrays(big)


# --- the seed's worked examples -------------------------------------------------------------


def test_advanced_press_example_2x_training_on_foot_is_plus_three() -> None:
    # "bonus to OFF equal to 1 + training level (e.g. 2x training on Foot = +3 OFF)"
    assert combat.press_off_bonus(TB, 2, True, True) == 3
    with_press = combat.troop_attack_off(TB, FOOT, 2, 1, True, True, True, 0)
    without = combat.troop_attack_off(TB, FOOT, 2, 1, True, False, True, 0)
    assert (without, with_press) == (4, 7)


def test_basic_saved_example_champion_gets_plus_four() -> None:
    # "Champion is adjacent to 1 untrained Foot (1), one 1x trained foot (1), and two 2x
    # trained Foot (2). Champion enjoys a +4 DEF"
    assert _saved("Champion", [UNTRAINED, ONE_X, TWO_X, TWO_X], False) == 4


def test_advanced_saved_foot_example_gets_plus_five() -> None:
    # "1 untrained Foot (0), one 1x trained foot (1), and two 2x trained Foot (4) ... +5 DEF"
    assert _saved("Foot", [UNTRAINED, ONE_X, TWO_X, TWO_X], True) == 5


@pytest.mark.parametrize(
    ("neighbours", "bonus"),
    [
        ([UNTRAINED, ONE_X, TWO_X, TWO_X], 9),  # R5: "(3 each)" = two 2x Foot, the seed's +9
        ([UNTRAINED, ONE_X, TWO_X], 6),  # one 2x Foot, as written: +6 by the rule
    ],
)
def test_advanced_saved_champion_example_reading_r5(
    neighbours: list[tuple[str, int]], bonus: int
) -> None:
    assert _saved("Champion", neighbours, True) == bonus


# --- rule tests -------------------------------------------------------------------------------


def test_basic_press_gives_plus_one_only_to_troops_adjacent_to_the_target() -> None:
    assert combat.press_off_bonus(TB, 2, True, False) == 1
    assert combat.press_off_bonus(TB, 2, False, False) == 0
    # an Archer 2 hexes away gains nothing from a basic Press
    assert combat.troop_attack_off(TB, ARCHER, 0, 2, True, True, False, 0) == 2


def test_advanced_press_applies_to_ranged_troops_at_any_range() -> None:
    # TT-A.1.2: "This card DOES apply to ranged troops"
    for distance in (2, 3):
        assert combat.troop_attack_off(TB, ARCHER, 1, distance, True, True, True, 0) == 3 + 2


def test_advanced_press_softens_offsets_or_more_than_offsets_the_ranged_penalty() -> None:
    # TT-A.1.2 with I13's -2: untrained softens it, 1x offsets it, 2x more than offsets it
    for level, vs_no_penalty in ((0, -1), (1, 0), (2, 1)):
        pressed = combat.troop_attack_off(TB, ARCHER, level, 1, True, True, True, 0)
        printed = int(TABLES.troop_off[ARCHER]) + level
        assert pressed - printed == vs_no_penalty


def test_ranged_troop_loses_two_off_only_against_an_adjacent_melee_troop() -> None:
    assert combat.troop_attack_off(TB, CROSSBOW, 0, 1, True, False, True, 0) == 3 - 2
    assert combat.troop_attack_off(TB, CROSSBOW, 0, 2, True, False, True, 0) == 3
    assert combat.troop_attack_off(TB, CROSSBOW, 0, 1, False, False, True, 0) == 3  # a summon
    assert combat.troop_attack_off(TB, FOOT, 0, 1, True, False, True, 0) == 2  # melee: none


def test_each_troop_adds_at_least_zero_off() -> None:
    # Archer beside a melee target, standing on Marsh: 2 - 2 - 1 counts as 0, not -1
    marsh = int(TABLES.landmark_off_mod[RIDGE_MARSH, SIDE_LOW])
    assert marsh == -1
    assert combat.troop_attack_off(TB, ARCHER, 0, 1, True, False, True, marsh) == 0
    n = 2
    troops = np.array([ARCHER, FOOT], dtype=np.int64)
    zeros = np.zeros(n, dtype=np.int64)
    terrain = np.array([marsh, 0], dtype=np.int64)
    total = combat.attack_total_off(
        TB, n, troops, zeros, np.ones(n, np.int64), terrain, True, False, True
    )
    assert total == 0 + 2


def test_training_adds_one_off_and_one_def_per_level() -> None:
    # TT-B.3.3
    for level in range(MAX_LEVEL + 1):
        assert combat.troop_attack_off(TB, FOOT, level, 1, True, False, False, 0) == 2 + level
        assert combat.target_total_def(TB, FOOT, level, 0, 0) == 2 + level


def test_attack_total_off_is_the_sum_over_the_troops_taking_part() -> None:
    # TT-B.7.4.3: 1x Foot adjacent (2+1), 2x Archer at 3 hexes (2+2), Crossbow adjacent to the
    # melee target (3-2); advanced Press adds 2, 3 and 1
    troops = np.array([FOOT, ARCHER, CROSSBOW], dtype=np.int64)
    training = np.array([1, 2, 0], dtype=np.int64)
    distance = np.array([1, 3, 1], dtype=np.int64)
    terrain = np.zeros(3, dtype=np.int64)
    args = (TB, 3, troops, training, distance, terrain, True)
    assert combat.attack_total_off(*args, False, True) == 3 + 4 + 1
    assert combat.attack_total_off(*args, True, True) == 3 + 4 + 1 + 2 + 3 + 1
    assert combat.attack_total_off(*args, True, False) == 3 + 4 + 1 + 1 + 0 + 1  # basic Press


def test_target_total_def_adds_training_terrain_and_saved() -> None:
    # TT-B.7.4.4: 1x Champion on a Hill with Saved +5
    hill = int(TABLES.landmark_def_mod[HILL_HOLLOW, SIDE_HIGH])
    assert combat.target_total_def(TB, CHAMPION, 1, hill, 5) == 4 + 1 + 1 + 5


def test_captured_only_when_total_off_exceeds_total_def() -> None:
    # TT-B.7.4.5: equal forces stall
    assert not combat.is_captured(5, 5)
    assert combat.is_captured(6, 5)
    assert not combat.is_captured(0, 0)


def test_basic_saved_counts_every_adjacent_melee_troop_not_ranged() -> None:
    assert _saved("Foot", [("Champion", 0), ("Archer", 2), ("Crossbow", 0), TWO_X], False) == 2


def test_advanced_saved_counts_only_adjacent_foot() -> None:
    neighbours = [("Archer", 2), ("Champion", 2), ONE_X]
    assert _saved("Foot", neighbours, True) == 1
    assert _saved("Champion", neighbours, True) == 2
    assert _defending("Champion", neighbours, True) == [2]
    assert _defending("Foot", neighbours, False) == [1, 2]


def test_saved_only_on_melee_troops_and_in_the_advanced_game_only_champion_or_foot() -> None:
    for advanced in (False, True):
        assert combat.saved_may_be_played_on(TB, FOOT, advanced)
        assert combat.saved_may_be_played_on(TB, CHAMPION, advanced)
        assert not combat.saved_may_be_played_on(TB, ARCHER, advanced)
        assert not combat.saved_may_be_played_on(TB, CROSSBOW, advanced)
        # no bonus and no defenders on a troop it may not be played on
        assert _saved("Crossbow", [TWO_X, TWO_X], advanced) == 0
        assert _defending("Archer", [TWO_X], advanced) == []


def test_saved_foot_still_captured_takes_one_trained_defending_foot_r6() -> None:
    neighbours = [UNTRAINED, ("Champion", 1), ONE_X, ("Archer", 2), TWO_X]
    assert _candidates("Foot", neighbours, True) == [2, 4]
    assert _candidates("Foot", neighbours, False) == [2, 4]  # basic: a trained Foot too
    assert _candidates("Champion", neighbours, False) == [2, 4]
    assert _candidates("Foot", [UNTRAINED, UNTRAINED], True) == []  # nothing more happens


def test_advanced_saved_champion_still_captured_takes_any_defending_foot_r6() -> None:
    neighbours = [UNTRAINED, ("Champion", 1), ONE_X, ("Archer", 2), TWO_X]
    assert _candidates("Champion", neighbours, True) == [0, 2, 4]


def test_summons_ignore_terrain_of_their_targets() -> None:
    # TT-A.11.3 / TT-A.11.7: Cthon (OFF 5) against a 2x Foot on a Hill counts DEF 4, not 5
    assert combat.summon_attack_off(TB, CTHON) == 5
    assert combat.summon_target_def(TB, FOOT, 2) == 4
    assert combat.is_captured(
        combat.summon_attack_off(TB, CTHON), combat.summon_target_def(TB, FOOT, 2)
    )
    hill = int(TABLES.landmark_def_mod[HILL_HOLLOW, SIDE_HIGH])
    assert not combat.is_captured(5, combat.target_total_def(TB, FOOT, 2, hill, 0))


def test_troops_attack_a_summon_against_its_printed_def() -> None:
    # TT-A.11.8: Ouran DEF 6, Cthon DEF 3; the ranged penalty is only against melee troops
    assert combat.summon_total_def(TB, OURAN) == 6
    assert combat.summon_total_def(TB, CTHON) == 3
    assert combat.summon_attack_off(TB, OURAN) == 3


def test_a_spire_is_razed_against_def_four() -> None:
    # TT-A.11.9
    assert combat.spire_total_def(TB) == 4
    assert combat.is_captured(5, combat.spire_total_def(TB))
    assert not combat.is_captured(4, combat.spire_total_def(TB))


def test_aegis_gives_the_guarded_troop_plus_three_def() -> None:
    # TT-A.12.2: the bonus is added to the guarded troop's total DEF
    assert combat.aegis_def_bonus(TB, AEGIS) == 3
    for other in (TEMPEST, DEVOUR, BURROW, -1):
        assert combat.aegis_def_bonus(TB, other) == 0
    total = combat.target_total_def(TB, FOOT, 0, 0, 0) + combat.aegis_def_bonus(TB, AEGIS)
    assert total == 5


def test_tempest_lets_ouran_attack_three_hexes_away() -> None:
    # TT-A.12.1 / TT-A.12.3; Tempest is Ouran's: it does nothing for Cthon
    assert combat.summon_attack_range(TB, OURAN, -1) == 1
    assert combat.summon_attack_range(TB, OURAN, TEMPEST) == 3
    assert combat.summon_attack_range(TB, CTHON, TEMPEST) == 1
    assert combat.summon_attack_range(TB, OURAN, AEGIS) == 1


def test_burrow_lets_cthon_move_four_more_hexes() -> None:
    # TT-A.13.1 / TT-A.13.3: 4 + 4 = 8 hexes; Ouran moves 2
    assert combat.summon_move(TB, CTHON, -1) == 4
    assert combat.summon_move(TB, CTHON, BURROW) == 8
    assert combat.summon_move(TB, OURAN, BURROW) == 2
    assert combat.summon_move(TB, CTHON, DEVOUR) == 4


# --- cross-checks: kernel == reference.py ----------------------------------------------------

troop_names = st.sampled_from(TROOPS)
levels = st.integers(0, MAX_LEVEL)
neighbour_lists = st.lists(st.tuples(troop_names, levels), max_size=6)


@st.composite
def attackers(draw) -> tuple[str, int, int, int]:
    """(troop, training, distance within its printed range, OFF modifier of its hex)."""
    troop = draw(troop_names)
    distance = draw(st.integers(1, int(TABLES.troop_range[TABLES.troop_index[troop]])))
    mods = sorted({0, *TABLES.landmark_off_mod.ravel().tolist()})
    return troop, draw(levels), distance, draw(st.sampled_from(mods))


@HYPO
@given(
    attacker=attackers(),
    target_melee=st.booleans(),
    press=st.booleans(),
    advanced=st.booleans(),
)
def test_troop_attack_off_matches_reference(attacker, target_melee, press, advanced) -> None:
    troop, level, distance, terrain = attacker
    want = ref.troop_attack_off(
        TABLES,
        troop,
        level,
        distance=distance,
        target_melee=target_melee,
        press=press,
        advanced=advanced,
        terrain_off_mod=terrain,
    )
    got = combat.troop_attack_off(
        TB, TABLES.troop_index[troop], level, distance, target_melee, press, advanced, terrain
    )
    assert got == want
    adjacent = distance == 1
    assert combat.press_off_bonus(TB, level, adjacent, advanced) == ref.press_off_bonus(
        TABLES, level, adjacent=adjacent, advanced=advanced
    )


@HYPO
@given(
    group=st.lists(attackers(), min_size=1, max_size=6),
    target_melee=st.booleans(),
    press=st.booleans(),
    advanced=st.booleans(),
)
def test_attack_total_off_matches_reference(group, target_melee, press, advanced) -> None:
    want = sum(
        ref.troop_attack_off(
            TABLES,
            t,
            lv,
            distance=d,
            target_melee=target_melee,
            press=press,
            advanced=advanced,
            terrain_off_mod=m,
        )
        for t, lv, d, m in group
    )
    troops = np.array([TABLES.troop_index[t] for t, *_ in group], dtype=np.int64)
    training, distance, terrain = (
        np.array([g[i] for g in group], dtype=np.int64) for i in (1, 2, 3)
    )
    got = combat.attack_total_off(
        TB, len(group), troops, training, distance, terrain, target_melee, press, advanced
    )
    assert got == want


@HYPO
@given(
    troop=troop_names,
    level=levels,
    terrain=st.sampled_from(sorted({0, *TABLES.landmark_def_mod.ravel().tolist()})),
    saved=st.integers(0, 12),
)
def test_target_total_def_matches_reference(troop, level, terrain, saved) -> None:
    want = ref.target_total_def(TABLES, troop, level, terrain_def_mod=terrain, saved_bonus=saved)
    assert combat.target_total_def(TB, TABLES.troop_index[troop], level, terrain, saved) == want


@HYPO
@given(target=troop_names, neighbours=neighbour_lists, advanced=st.booleans())
def test_saved_kernels_match_reference(target, neighbours, advanced) -> None:
    allowed = ref.saved_may_be_played_on(TABLES, target, advanced=advanced)
    assert combat.saved_may_be_played_on(TB, TABLES.troop_index[target], advanced) == allowed
    if not allowed:
        with pytest.raises(ValueError):
            ref.saved_def_bonus(TABLES, target, neighbours, advanced=advanced)
        assert _saved(target, neighbours, advanced) == 0
        assert _candidates(target, neighbours, advanced) == []
        return
    assert _saved(target, neighbours, advanced) == ref.saved_def_bonus(
        TABLES, target, neighbours, advanced=advanced
    )
    assert _defending(target, neighbours, advanced) == ref.defending_troops(
        TABLES, target, neighbours, advanced=advanced
    )
    assert _candidates(target, neighbours, advanced) == ref.saved_extra_capture_candidates(
        TABLES, target, neighbours, advanced=advanced
    )


@HYPO
@given(off=st.integers(0, 40), def_=st.integers(-2, 40))
def test_is_captured_matches_reference(off, def_) -> None:
    assert combat.is_captured(off, def_) == ref.is_captured(off, def_)
