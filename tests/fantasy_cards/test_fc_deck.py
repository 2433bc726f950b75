"""The invented 72-card deck and card-effect table (doc sections I1-I6)."""

from __future__ import annotations

import itertools
from math import comb
from pathlib import Path

import numpy as np
import pytest
import yaml

from envs.fantasy_cards.deck_stats import (
    activating_action_cards,
    prob_hand_holds,
    shifted_result_probabilities,
)
from envs.fantasy_cards.tables import (
    CONDITIONS,
    EFFECT_KINDS,
    FC_CONFIG,
    PART_ACTION,
    PART_SITUATION,
    TIMINGS,
    TRIGGERS,
    load_tables,
)


@pytest.fixture(scope="module")
def t():
    return load_tables()


def _kinds(t, play: str) -> list[str]:
    p = t.play_index[play]
    return [EFFECT_KINDS[k] for k in t.step_kind[p] if k >= 0]


def _on(t, play: str) -> set[str]:
    p = t.play_index[play]
    return {n for n, ok in zip(t.unit_type_names, t.play_on[p], strict=True) if ok}


def test_deck_has_72_distinct_cards_numbered_1_to_72(t):
    # PART II "Confirm The Decks": "exactly 72 numbered cards ... only one of each card"
    assert sorted(t.card_number.tolist()) == list(range(1, 73))
    assert len(set(t.card_names)) == 72


def test_every_card_has_an_action_a_situation_and_a_combat_result(t):
    assert (t.play_part[t.card_action] == PART_ACTION).all()
    assert (t.play_part[t.card_situation] == PART_SITUATION).all()
    assert ((t.card_result >= 0) & (t.card_result <= 4)).all()


def test_every_unit_type_but_obstacle_is_activated_by_some_action(t):
    acts = activating_action_cards(t)
    for u, name in enumerate(t.unit_type_names):
        if name != "OBSTACLE":
            assert acts[u] > 0, name


def test_obstacle_takes_no_cards_and_is_removed_by_a_sapper(t):
    # PART III "Obstacles" NOTE: no Actions or Situations; "can only be removed by a Sapper"
    obstacle = t.unit_type_index["OBSTACLE"]
    assert not t.play_on[:, obstacle].any()
    removers = [n for n in t.play_names if "remove_obstacle" in _kinds(t, n)]
    assert removers and all(_on(t, n) == {"SAPPER"} for n in removers)
    deck_plays = set(t.card_action.tolist()) | set(t.card_situation.tolist())
    assert any(t.play_index[n] in deck_plays for n in removers)


def test_every_unit_type_but_obstacle_may_take_some_situation(t):
    on = t.play_on[t.card_situation].any(axis=0)
    assert [n for n, ok in zip(t.unit_type_names, on, strict=True) if not ok] == ["OBSTACLE"]


def test_every_play_of_the_effect_table_is_in_the_deck(t):
    used = set(t.card_action.tolist()) | set(t.card_situation.tolist())
    assert used == set(range(len(t.play_names)))


def _play(t, name):
    return t.plays[t.play_index[name]]


def test_cautious_advance_is_a_short_move_action(t):
    # PART IV "Distance Moved": "a Cautious Advance Action ... (e.g. a Short Distance)"
    p = _play(t, "Cautious Advance")
    assert p.part == "action" and p.effects[0].kind == "move"
    assert p.effects[0].distance == "Short" and not p.effects[0].contact


def test_assault_may_end_in_contact_and_attacks_in_melee(t):
    # PART IV "Contacting Enemy Units": "unless the card ... specifically allows it (e.g. the
    # Assault Action)"
    p = _play(t, "Assault")
    assert p.part == "action"
    assert p.effects[0].kind == "move" and p.effects[0].contact
    assert p.effects[1].kind == "melee_attack"


def test_opportunity_fire_interrupts_enemy_movement(t):
    # PART IV "Measuring Movement": opportunities "to interact with the unit along the way"
    p = _play(t, "Opportunity Fire")
    assert (p.part, p.timing, p.trigger) == ("situation", "interrupt", "enemy_unit_moves")
    assert p.effects[0].kind == "ranged_attack"


def test_infiltration_is_a_situation_bringing_on_infiltrators(t):
    # PART III "Infiltrator" NOTE: "brought on using the Infiltration Situation"
    p = _play(t, "Infiltration")
    assert p.part == "situation" and p.condition == "off_battlefield"
    assert _on(t, "Infiltration") == {"INFILTRATOR"} and _kinds(t, "Infiltration") == ["infiltrate"]


def test_recover_and_back_in_action_remove_their_statuses(t):
    # Table 6 and PART V NOTE "using the appropriate Action"
    assert _play(t, "Recover").part == "action" and _kinds(t, "Recover") == ["recover"]
    assert _play(t, "Recover").condition == "shaken"
    assert _kinds(t, "Back In Action") == ["back_in_action"]
    assert _play(t, "Back In Action").condition == "out_of_action"


def test_target_point_attacks_exist_with_a_radius(t):
    # PART V "Target Points & LOS"; drift per random_drift.yaml
    tp = [n for n in t.play_names if "target_point_attack" in _kinds(t, n)]
    assert "Bombard" in tp
    assert any(_play(t, n).part == "action" for n in tp)
    assert (t.drift_distance >= 0).any() and (t.drift_distance < 0).any()


def test_command_passes_along_actions_and_situations(t):
    # PART I "Only If Usable" NOTE and "Passed Equals Played"
    passes = {
        (_play(t, n).part, e.what)
        for n in t.play_names
        for e in _play(t, n).effects
        if e.kind == "pass_along"
    }
    assert ("situation", "action") in passes  # the seed's own example
    assert ("situation", "situation") in passes
    assert all(_on(t, n) == {"COMMAND"} for n in t.play_names if "pass_along" in _kinds(t, n))


def test_aerial_attacks_exist_as_action_and_situation(t):
    aerial = [n for n in t.play_names if "aerial_attack" in _kinds(t, n)]
    assert {_play(t, n).part for n in aerial} == {"action", "situation"}
    assert all(_on(t, n) == {"AERIAL"} for n in aerial)


def test_interrupts_and_cancels_exist(t):
    timings = {TIMINGS[k] for k in t.play_timing}
    assert {"interrupt", "cancel"} <= timings
    cancels = [n for n in t.play_names if _play(t, n).timing == "cancel"]
    assert {_play(t, n).trigger for n in cancels} == {
        "enemy_action_played",
        "enemy_situation_played",
    }


def test_every_vocabulary_value_is_used_or_none(t):
    # a vocabulary value nobody uses is dead weight in the doc and the kernels
    assert set(t.play_trigger.tolist()) == set(range(len(TRIGGERS)))
    assert set(t.play_condition.tolist()) >= set(range(1, len(CONDITIONS)))
    used_kinds = set(t.step_kind[t.step_kind >= 0].tolist())
    assert used_kinds == set(range(len(EFFECT_KINDS)))


def test_ranged_attacks_only_on_units_with_a_ranged_rating(t):
    # PART III "Range Distance": no Ranged Attack, no range distance
    for p, name in enumerate(t.play_names):
        if {"ranged_attack", "target_point_attack"} & set(_kinds(t, name)):
            assert (t.unit_ranged_attack[t.play_on[p]] > 0).all(), name


def test_another_deck_file_can_be_loaded(t, tmp_path: Path):
    doc = yaml.safe_load((FC_CONFIG / "deck.yaml").read_text())
    for row in doc["entries"]:
        row["combat_result"] = "No Effect"
        row["action"] = "Fire"
    path = tmp_path / "my_deck.yaml"
    path.write_text(yaml.safe_dump(doc))
    other = load_tables(deck_path=path)
    assert (other.card_result == 0).all()
    assert (other.card_action == other.play_index["Fire"]).all()
    assert other.unit_type_names == t.unit_type_names


def test_hand_probability_matches_enumeration():
    # brute force over every 3-card hand from an 8-card deck holding 2 marked cards
    deck, hand, marked = 8, 3, {0, 1}
    hits = sum(bool(marked & set(h)) for h in itertools.combinations(range(deck), hand))
    assert prob_hand_holds(len(marked), hand, deck) == pytest.approx(hits / comb(deck, hand))


def test_shift_clamps_at_the_ends_of_the_scale(t):
    # reading R3: a shift past Eliminated stays Eliminated, past No Effect stays No Effect
    assert shifted_result_probabilities(t, 4)[4] == pytest.approx(1.0)
    assert shifted_result_probabilities(t, -4)[0] == pytest.approx(1.0)
    base = np.bincount(t.card_result, minlength=5) / 72
    assert np.allclose(shifted_result_probabilities(t, 0), base)
