"""Tables 1-6 and the Standard Game, spot-checked against the seed's own text.

Expected values below are transcribed by hand from shared/seeds/000_966979c4608810fc.txt,
not computed from the YAML, so a wrong row in configs/fantasy_cards/ fails here.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.fantasy_cards.tables import (
    ELIMINATED,
    FALL_BACK,
    NO_EFFECT,
    OUT_OF_ACTION,
    SHAKEN,
    load_tables,
)


@pytest.fixture(scope="module")
def t():
    return load_tables()


# Table 3 in the seed's own order and spelling.
TABLE_3_NAMES = [
    "AERIAL", "ARCHER", "ARTILLERY", "CAVALRY", "CIVILIAN", "CHARIOT", "COMMAND", "CREATURE",
    "INFANTRY", "INFILTRATOR", "LEGENDARY", "MILITIA", "MONSTROUS", "OBSTACLE", "RIDER",
    "SAPPER", "SKIRMISH", "SORCEROUS", "SWARM", "WAR MACHINE",
]  # fmt: skip

# (unit, ranged attack, ranged distance, protection, melee attack, points), "-" = None
TABLE_3_ROWS = [
    ("ARCHER", "Moderate", "Long", "Light", "Light", 3),
    ("ARTILLERY", "Very Heavy", "Long", "Very Light", "Very Light", 3),
    ("CAVALRY", None, None, "Moderate", "Heavy", 4),
    ("CIVILIAN", "Very Light", "Medium", "Very Light", "Very Light", 1),
    ("MONSTROUS", "Heavy", "Medium", "Very Heavy", "Heavy", 6),
    ("OBSTACLE", None, None, None, None, 2),
    ("SKIRMISH", "Light", "Short", "Light", "Moderate", 3),
    ("SORCEROUS", "Very Heavy", "Very Long", "Moderate", "Very Light", 6),
    ("SWARM", None, None, "Very Light", "Heavy", 2),
    ("WAR MACHINE", None, None, "Heavy", "Moderate", 3),
]


def test_table_3_names_are_the_seeds_twenty_unit_types_in_order(t):
    assert list(t.unit_type_names) == TABLE_3_NAMES


@pytest.mark.parametrize("row", TABLE_3_ROWS, ids=[r[0] for r in TABLE_3_ROWS])
def test_table_3_row_matches_seed(t, row):
    name, ranged, distance, protection, melee, points = row
    u = t.unit_type_index[name]
    rating = {None: 0, **t.rating_index}
    assert t.unit_ranged_attack[u] == rating[ranged]
    assert t.unit_range_distance[u] == (-1 if distance is None else t.distance_index[distance])
    assert t.unit_protection[u] == rating[protection]
    assert t.unit_melee_attack[u] == rating[melee]
    assert t.unit_points[u] == points


def test_ratings_run_from_very_light_to_very_heavy(t):
    # PART III "Ranged Rating": "a scale which goes from Very Light to Very Heavy"
    assert t.rating_index["Very Light"] < t.rating_index["Light"] < t.rating_index["Moderate"]
    assert t.rating_index["Moderate"] < t.rating_index["Heavy"] < t.rating_index["Very Heavy"]


def test_only_aerial_and_infiltrator_start_off_the_battlefield(t):
    # PART III "Aerial" NOTE and "Infiltrator" NOTE
    off = {n for n, s in zip(t.unit_type_names, t.unit_starts_on_battlefield, strict=True) if not s}
    assert off == {"AERIAL", "INFILTRATOR"}


def test_table_2_each_distance_is_half_the_next(t):
    # "Very Short: Half Short Distance" ... "Very Long: Length of the Shortest Edge"
    assert list(t.distance_names) == ["Very Short", "Short", "Medium", "Long", "Very Long"]
    fractions = 0.5 ** t.distance_halvings.astype(float)
    assert fractions[-1] == 1.0
    assert np.allclose(fractions[:-1], fractions[1:] / 2)


def test_table_1_sequence_of_play_order(t):
    steps = [(s.stage, s.text) for s in t.sequence_of_play]
    assert steps[:3] == [
        ("start_of_game", "Shuffle Deck"),
        ("start_of_game", "Draw Hand (Six Cards)"),
        ("start_of_game", "Play Any Situations"),
    ]
    assert [text for stage, text in steps[3:6]] == [
        "Play Actions & Situations Or Discard",
        "Replenish Hand At End Of Player's Turn",
        "May Play Newly Acquired Situations",
    ]
    assert steps[6][1].startswith("Let Player 2 Know It Is Now Their Turn")


def test_table_4_ranged_modifiers(t):
    shifts = dict(zip(t.ranged_modifier_names, t.ranged_modifier_shift.tolist(), strict=True))
    assert shifts == {
        "Attacker's Ranged Rating Higher Than Target's Protection Rating": 1,
        "Target's Protection Rating Higher Than Attacker's Ranged Rating": -1,
        "Extreme Range": -1,
        "LOS Drawn to Target Outside of Target's Line Of Sight Arc": 1,
        "Target is Obstructed or In Cover": -1,
        "Target's Elevation is Higher Than Attacker's or Target is an Aerial Unit": -1,
        "Target is in Close Combat": -1,
    }


def test_table_5_melee_modifiers(t):
    shifts = dict(zip(t.melee_modifier_names, t.melee_modifier_shift.tolist(), strict=True))
    assert shifts == {
        "Attacker's Melee Rating Higher Than Target's Protection Rating": 1,
        "Target's Protection Rating Higher Than Attacker's Melee Rating": -1,
        "Target is Shaken or Out Of Action": 1,
        "Attacker is Aerial Unit or Contacts Target Outside of Target's LOS Arc": 1,
        "Target is In Cover": -1,
    }


def test_table_6_step_up_runs_from_no_effect_to_eliminated(t):
    # Table 6 lists Eliminated at the top, No Effect at the bottom, with Step Up / Step Down
    assert [t.result_index[n] for n in RESULTS_BOTTOM_UP] == [
        NO_EFFECT, FALL_BACK, SHAKEN, OUT_OF_ACTION, ELIMINATED,
    ]  # fmt: skip
    assert NO_EFFECT < FALL_BACK < SHAKEN < OUT_OF_ACTION < ELIMINATED


RESULTS_BOTTOM_UP = ["No Effect", "Fall Back", "Shaken", "Out Of Action", "Eliminated"]


def test_fall_back_is_not_a_status(t):
    # PART V "Multiple Combat Results": "Fall Back is not a 'status'"
    assert not t.result_status[FALL_BACK]
    assert t.result_status[SHAKEN] and t.result_status[OUT_OF_ACTION]


def test_shaken_and_out_of_action_block_cards_until_removed(t):
    # Table 6: "until a Recover ... / until a Back In Action is played on it first"
    assert t.result_blocks_cards[SHAKEN] and t.result_blocks_cards[OUT_OF_ACTION]
    assert not t.result_blocks_cards[FALL_BACK]
    kinds = {code: t.result_removed_by[code] for code in (SHAKEN, OUT_OF_ACTION, ELIMINATED)}
    assert kinds[ELIMINATED] == -1  # "There is no way to remove this status"
    assert kinds[SHAKEN] != kinds[OUT_OF_ACTION] and min(kinds[SHAKEN], kinds[OUT_OF_ACTION]) >= 0


def test_standard_game_numbers(t):
    g = t.standard_game
    assert (g.unit_points, g.victory_points_eliminated, g.game_minutes) == (36, 18, 90)
    assert (g.deck_size, g.hand_size, g.deploy_min_distance) == (72, 6, "Medium")
    assert g.battlefield_shape == "square"
    # PART II: half of a side's points eliminated loses; 18 is half of 36
    assert g.victory_points_eliminated * 2 == g.unit_points
    # "30 minutes per 12 Unit Points": 36 points -> 90 minutes, the Standard Game's length
    assert g.minutes_per_12_points * g.unit_points // 12 == g.game_minutes


def test_campaign_points(t):
    c = t.campaign
    assert (c.winner_points, c.loser_points, c.draw_points) == (9, 6, 3)
    assert (c.promotion_award_cost, c.swap_cost_per_unit_point) == (3, 1)


def test_arrays_are_read_only(t):
    with pytest.raises(ValueError):
        t.unit_points[0] = 99
    with pytest.raises(ValueError):
        t.play_on[0, 0] = True
