"""TAC seed chapter 10: Defence (Black) cards, plus their laying (4.6) and use (4.4).

Each test builds the situation on a real state and drives it with legal_actions /
apply_action (see conftest.py).
"""

from __future__ import annotations

import pytest

from envs.tac import actions as A
from envs.tac.state import (
    DEF_FACE_DOWN,
    DEF_FACE_UP,
    MOBILE,
    STAGE_DEFENCE,
    STAGE_ENDING,
    STAGE_MODE,
    STAGE_OPEN_DEFENCE,
    STATIC,
)

FILLER = "Evasive Maneuvers"  # a black card kept in the attacker's hand (Ending Phase waits)


def _damage(g, p, t) -> int:
    return int(g.S["team_damage"][0, p, t])


def _discarded(g, card: int) -> bool:
    return card in g.S["discard"][0, : g.S["discard_count"][0]]


def _card_of_slot(g, p, d) -> int:
    return int(g.S["defence_card"][0, p, d])


# ---------------------------------------------------------------- 10.1 the five defences


def test_there_are_five_defence_cards(tables):
    """10.1: Air Superiority, Air Supremacy, High Cover, Evasive Maneuvers, Tactical Smoke."""
    names = {c.name for c in tables.cards if c.colour == "black"}
    assert names == {
        "Air Superiority",
        "Air Supremacy",
        "High Cover",
        "Evasive Maneuvers",
        "Tactical Smoke",
    }


# ---------------------------------------------------------------- 10.2 / 4.6 laying


def test_a_defence_in_hand_protects_nothing(game):
    """10.2: a defence must already be laid down to work."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, ["Tactical Smoke", "High Cover"])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 3


def test_laying_face_down_costs_one_ap_and_face_up_costs_none(game):
    """4.6 / 10.2: face-down defences cost 1 AP each, face-up ones 0; only as many face-down
    as AP left over."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_hand(0, ["Tactical Smoke", "High Cover", "Air Superiority"])
    g.to_ending(0)
    assert int(g.S["ap"][0]) == 4
    g.act(g.lay(0, 1, face_down=True))
    assert int(g.S["ap"][0]) == 3
    g.act(g.lay(1, 0, face_down=False))
    assert int(g.S["ap"][0]) == 3
    g.S["ap"][0] = 0  # as if the Attack Phase had spent every AP
    assert not g.is_legal(g.lay(2, 0, face_down=True))
    assert g.is_legal(g.lay(2, 0, face_down=False))
    assert g.defence_names(0) == [
        ("Tactical Smoke", 1, DEF_FACE_DOWN),
        ("High Cover", 0, DEF_FACE_UP),
    ]


def test_defences_are_laid_only_on_existing_rows(game):
    """10.4: a defence is placed on a unit of the row it protects."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_hand(0, ["Tactical Smoke"])
    g.to_ending(0)
    assert g.is_legal(g.lay(0, 1, False)) and not g.is_legal(g.lay(0, 2, False))


# ---------------------------------------------------------------- 10.3 duration


def test_defences_last_until_the_owners_next_turn(game):
    """10.3 / 4.2: an unused defence stays through the other players' turns and is discarded
    at the start of its owner's next turn."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    card = _card_of_slot(g, 1, g.lay_defence(1, "Tactical Smoke", 0, face_down=False))
    g.to_ending(0)
    assert g.defence_names(1) == [("Tactical Smoke", 0, DEF_FACE_UP)]  # through seat 0's turn
    g.act(A.A_END_TURN)
    assert g.defence_names(1) == []  # the owner's turn started: removed and discarded
    assert g.stage == STAGE_MODE and int(g.S["active"][0]) == 1
    assert _discarded(g, card)


# ---------------------------------------------------------------- 10.4 / 10.5 rows, absorbing


def test_a_defence_protects_only_its_row(game):
    """10.4: Tactical Smoke on the Reserve Line does not cover the Frontline."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 1)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Tactical Smoke", 1, face_down=False)
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (3, 0)


def test_a_defence_absorbs_every_attack_on_its_row_then_is_used_up(game):
    """10.5: one card absorbs several attacks on its row in one Resolution, then is discarded."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "High Cover", 0, face_down=False)
    card = _card_of_slot(g, 1, d)
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (0, 0)
    assert g.defence_names(1) == [] and _discarded(g, card)


def test_an_open_defence_triggers_automatically(game):
    """4.4: a face-up defence that applies absorbs without asking the defender."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Tactical Smoke", 0, face_down=False)
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_ENDING  # never a Defence decision
    assert _damage(g, 1, 0) == 0


def test_single_open_defence_triggers_by_itself(game):
    """4.4 "Defences that are already open are automatically triggered": with one open
    defence that applies the defender is not asked, even while holding a face-down card
    that also applies; the open card absorbs."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "High Cover", 0, face_down=False)
    g.lay_defence(1, "Tactical Smoke", 0, face_down=True)
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_ENDING  # no decision asked of seat 1
    assert _damage(g, 1, 0) == 0
    # High Cover absorbed and is used up (10.5); the face-down card was never asked about
    assert g.defence_names(1) == [("Tactical Smoke", 0, DEF_FACE_DOWN)]


@pytest.mark.parametrize("choice", [0, 1])
def test_defender_chooses_which_open_defence_absorbs(game, choice):
    """10.5 "the Defender can elect to use a laid-down defence card": when two open
    defences apply to one attack the defender elects which absorbs it, whatever the order
    they were laid in; the other stays. One of them must absorb (4.4: open defences trigger
    automatically), so there is no "take the attack"."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    slots = [
        g.lay_defence(1, "High Cover", 0, face_down=False),
        g.lay_defence(1, "Tactical Smoke", 0, face_down=False),
    ]
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_OPEN_DEFENCE and int(g.S["current"][0]) == 1
    assert sorted(g.legal()) == [A.A_DEFEND + d for d in slots]
    g.act(A.A_DEFEND + slots[choice])
    assert g.stage == STAGE_ENDING
    assert _damage(g, 1, 0) == 0
    kept = ["High Cover", "Tactical Smoke"][1 - choice]
    assert g.defence_names(1) == [(kept, 0, DEF_FACE_UP)]  # the chosen one is used up


def test_open_defence_choice_offers_only_the_open_defences_that_apply(game):
    """10.5 (reading R1): the choice among open defences lists the open cards that apply to
    this attack; a face-down card cannot be revealed instead and an open card that does not
    apply (High Cover, Mobile defender) is not offered. The question is about public cards
    only, so asking it reveals nothing."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    smoke = g.lay_defence(1, "Tactical Smoke", 0, face_down=False)
    g.lay_defence(1, "High Cover", 0, face_down=False)  # Static only: seat 1 is Mobile
    evasive = g.lay_defence(1, "Evasive Maneuvers", 0, face_down=False)
    g.lay_defence(1, "Tactical Smoke", 0, face_down=True)
    g.to_attack(0, modes={1: MOBILE})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_OPEN_DEFENCE
    assert sorted(g.legal()) == [A.A_DEFEND + smoke, A.A_DEFEND + evasive]


def test_defender_chooses_again_for_each_attack(game):
    """10.5: the choice is made attack by attack; a card that has absorbed stays open for
    the rest of the phase (used up only at the end of the Resolution)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    first = g.lay_defence(1, "High Cover", 0, face_down=False)
    second = g.lay_defence(1, "Tactical Smoke", 0, face_down=False)
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    g.act(A.A_DEFEND + second)
    assert g.stage == STAGE_OPEN_DEFENCE and int(g.S["cursor"][0]) == 1
    g.act(A.A_DEFEND + first)
    assert g.stage == STAGE_ENDING
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (0, 0)
    assert g.defence_names(1) == []  # both absorbed: both used up


# ---------------------------------------------------------------- 10.6 / 10.7 face-down


def test_defender_may_decline_a_face_down_defence(game):
    """10.6: declining lets the damage through, and the card stays, still face-down."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "High Cover", 0, face_down=True)
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_DEFENCE and int(g.S["current"][0]) == 1
    assert sorted(g.legal()) == [A.A_DEFEND + d, A.A_NO_DEFENCE]
    g.act(A.A_NO_DEFENCE)
    assert _damage(g, 1, 0) == 3
    assert g.defence_names(1) == [("High Cover", 0, DEF_FACE_DOWN)]


def test_revealed_defence_absorbs_the_later_attacks_of_the_same_phase(game):
    """4.4 / 10.5 (reading R10): once revealed, the card is open and absorbs the next attacks
    on its row without another question."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "Tactical Smoke", 0, face_down=True)
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    g.act(A.A_DEFEND + d)
    assert g.stage == STAGE_ENDING  # no second Defence decision
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (0, 0)


def test_face_down_defence_absorbs_two_resolutions(make_game):
    """10.7: a face-down card used to absorb turns face-up and absorbs again in the next
    Resolution (seat 2's turn, before the owner's), then is used up."""
    g = make_game(num_players=3)
    for p in (0, 2):
        g.set_team(p, [("Main Battle Tank", 0)])
        g.set_hand(p, ["Heavy Gun 4", FILLER])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(1, [])
    d = g.lay_defence(1, "Tactical Smoke", 0, face_down=True)
    card = _card_of_slot(g, 1, d)
    g.to_attack(0, order=[0, 2, 1])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    g.act(A.A_DEFEND + d)
    assert _damage(g, 1, 0) == 0
    assert g.defence_names(1) == [("Tactical Smoke", 0, DEF_FACE_UP)]
    g.act(A.A_END_TURN)
    assert int(g.S["active"][0]) == 2
    g.set_hand(2, ["Heavy Gun 4", FILLER])
    g.prepare()
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 0  # absorbed again, automatically
    assert g.defence_names(1) == [] and _discarded(g, card)


def test_face_up_defence_absorbs_one_resolution_only(make_game):
    """10.7: a card laid face-up is used up after its first Resolution."""
    g = make_game(num_players=3)
    for p in (0, 2):
        g.set_team(p, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Tactical Smoke", 0, face_down=False)
    g.to_attack(0, order=[0, 2, 1])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    g.act(A.A_END_TURN)
    g.set_hand(2, ["Heavy Gun 4", FILLER])
    g.prepare()
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 3


# ---------------------------------------------------------------- 10.8 bluffing


def test_bluffing_with_a_useless_face_down_card(game):
    """10.8: a Mobile team's face-down High Cover has no effect, yet the defender is asked
    (so the bluff is not exposed) and can only decline; the card stays hidden."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "High Cover", 0, face_down=True)
    g.to_attack(0, modes={1: MOBILE})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_DEFENCE and int(g.S["current"][0]) == 1
    assert g.legal() == [A.A_NO_DEFENCE]
    g.act(A.A_NO_DEFENCE)
    assert _damage(g, 1, 0) == 3
    assert g.defence_names(1) == [("High Cover", 0, DEF_FACE_DOWN)]


def test_bluff_can_be_laid_in_any_mode(game):
    """10.8: a Mobile team may lay High Cover face-down (the kernel never checks usefulness)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_hand(0, ["High Cover"])
    g.to_ending(0, mode=MOBILE)
    assert g.is_legal(g.lay(0, 0, face_down=True))


# ---------------------------------------------------------------- 10.9 Air Superiority


def test_air_superiority_negates_close_air_support_automatically(game):
    """10.9: Close Air Support is negated with no roll (the die would have hit) and the card
    is used up."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_hand(0, ["Close Air Support", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "Air Superiority", 1, face_down=False)
    card = _card_of_slot(g, 1, d)
    g.to_attack(0)
    g.set_dice([6, 1])  # a Superiority roll of 6 would fail; CAS needs none
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 0
    assert _discarded(g, card)


@pytest.mark.parametrize(("rolls", "stopped"), [([3, 1], True), ([1, 1], True), ([4, 1], False)])
def test_air_superiority_stops_other_air_attacks_on_one_to_three(game, rolls, stopped):
    """10.9: against other air cards Air Superiority rolls: 1-3 stops the attack (used up);
    otherwise the attack rolls to hit as usual and the card stays."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Air Superiority", 0, face_down=False)
    g.to_attack(0)
    g.set_dice(rolls)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == (0 if stopped else 4)
    assert (g.defence_names(1) == []) is stopped


def test_air_superiority_rolls_separately_for_each_attack(game):
    """10.9: one roll per air card: rolls 2 (stopped), then 5 (not stopped) and 1 (hits)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, ["A-10 Strike", "A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Air Superiority", 0, face_down=False)
    g.to_attack(0)
    g.set_dice([2, 5, 1])
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (0, 4)


def test_air_superiority_covers_every_row_but_not_ground_attacks(game):
    """10.9: laid on the Rear Line it protects the Frontline against air attacks; it never
    absorbs a Gun attack."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0), ("Armoured Car", 2)])
    g.set_hand(0, ["Close Air Support", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Air Superiority", 2, face_down=False)
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    assert (_damage(g, 1, 0), _damage(g, 1, 1)) == (0, 3)


def test_face_down_air_superiority_turns_face_up_after_stopping(game):
    """10.9 / 10.7: a face-down Air Superiority that stops an attack is turned face-up."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Close Air Support", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "Air Superiority", 0, face_down=True)
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    g.act(A.A_DEFEND + d)
    assert _damage(g, 1, 0) == 0
    assert g.defence_names(1) == [("Air Superiority", 0, DEF_FACE_UP)]


# ---------------------------------------------------------------- 10.10 Air Supremacy


def test_air_supremacy_forbids_declaring_air_attacks(game):
    """10.10: no Air Attack can be declared against a player with Air Supremacy showing;
    ground attacks still can; the card does not run out."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["A-10 Strike", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.lay_defence(1, "Air Supremacy", 0, face_down=False)
    g.to_attack(0)
    assert not g.is_legal(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 0))
    g.end_attacks()
    assert g.defence_names(1) == [("Air Supremacy", 0, DEF_FACE_UP)]


def test_face_down_air_supremacy_stops_all_air_attacks_and_stays(make_game):
    """10.10: hidden, it cannot stop declarations; revealed, it stops every air attack on
    any row, stays face-up until its owner's next turn and then blocks declarations."""
    g = make_game(num_players=3)
    for p in (0, 2):
        g.set_team(p, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_hand(0, ["A-10 Strike", "Strike Bomber", FILLER])
    g.set_hand(1, [])
    d = g.lay_defence(1, "Air Supremacy", 1, face_down=True)
    g.to_attack(0, order=[0, 2, 1])
    g.set_dice([1, 1])
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    g.end_attacks()
    g.act(A.A_DEFEND + d)
    assert (_damage(g, 1, 0), g.unit_name(1, 1)) == (0, "Armoured Car")
    assert g.defence_names(1) == [("Air Supremacy", 1, DEF_FACE_UP)]
    g.act(A.A_END_TURN)
    g.set_hand(2, ["A-10 Strike", "Heavy Gun 4", FILLER])
    g.prepare()
    assert not g.is_legal(g.attack(0, 1, 0)) and g.is_legal(g.attack(1, 1, 0))


# ---------------------------------------------------------------- 10.11 the ground defences

GUN, MISSILE, ARTY, AIR = "gun", "missile", "arty", "air"
ABSORBS = {
    # 10.11: (defence, defender mode) -> attack kinds absorbed
    ("High Cover", STATIC): {GUN, MISSILE},
    ("High Cover", MOBILE): set(),
    ("Evasive Maneuvers", STATIC): set(),
    ("Evasive Maneuvers", MOBILE): {GUN, ARTY},
    ("Tactical Smoke", STATIC): {GUN, MISSILE, ARTY, AIR},
    ("Tactical Smoke", MOBILE): {GUN, MISSILE, ARTY, AIR},
}


@pytest.mark.parametrize(("defence", "mode"), list(ABSORBS))
@pytest.mark.parametrize("kind", [GUN, MISSILE, ARTY, AIR])
def test_ground_defences_absorb_their_attack_kinds_in_their_mode(make_game, defence, mode, kind):
    """10.11: High Cover absorbs Gun and Missile attacks, Static only; Evasive Maneuvers Gun
    and Arty, Mobile only; Tactical Smoke Gun, Missile, Arty and Air, in either mode."""
    g = make_game()
    g.set_team(0, [("ATGM Vehicle", 0), ("Main Battle Tank", 0), ("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Infantry Fighting Vehicle", 0), ("Main Battle Tank", 1)])
    card = {GUN: "Heavy Gun 4", MISSILE: "Heavy Missile 5", AIR: "Strike Bomber", ARTY: None}[kind]
    g.set_hand(0, ([card] if card else []) + ["High Cover"])
    g.set_hand(1, [])
    g.lay_defence(1, defence, 0, face_down=False)
    g.to_attack(0, modes={1: mode})
    g.set_dice([1])  # the arty or air attack hits if it is not absorbed
    g.act(g.arty(1, 0) if kind == ARTY else g.attack(0, 1, 0))
    g.end_attacks()
    absorbed = g.unit_name(1, 0) == "Infantry Fighting Vehicle" and _damage(g, 1, 0) == 0
    assert absorbed is (kind in ABSORBS[(defence, mode)])
