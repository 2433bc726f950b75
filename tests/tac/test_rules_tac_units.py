"""TAC seed chapter 3 (Units): armour, infantry, light vehicles, arty, air defence.

Each test builds the situation on a real state and drives it with legal_actions /
apply_action (see conftest.py).
"""

from __future__ import annotations

import pytest

from envs.tac import actions as A
from envs.tac.state import MOBILE, PILE_LIGHT, PILE_TANK, STAGE_ENDING, STATIC

FILLER = "High Cover"  # a black card kept in the attacker's hand so the Ending Phase waits


def _damage(g, p, t) -> int:
    return int(g.S["team_damage"][0, p, t])


# ---------------------------------------------------------------- 3.2 unit cards


def test_unit_destroyed_at_zero_hit_points_goes_to_the_bottom_of_its_pile(game):
    """3.2 / 4.5: damage reaching the hit points removes the unit; its card goes under its
    reinforcement pile. An Armoured Car (4 HP) hit by Heavy Gun 4."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 1)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    light_before = int(g.S["pile_count"][0, PILE_LIGHT])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_ENDING
    assert g.unit_name(1, 0) is None
    assert int(g.S["pile_count"][0, PILE_LIGHT]) == light_before + 1
    assert int(g.S["pile"][0, PILE_LIGHT, 0]) == g.unit("Armoured Car")


def test_unit_with_hit_points_left_stays_in_play(game):
    """3.2: a unit keeps playing while its damage is below its hit points."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Infantry Fighting Vehicle", 0)])  # 5 HP
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.unit_name(1, 0) == "Infantry Fighting Vehicle"
    assert _damage(g, 1, 0) == 4


# ---------------------------------------------------------------- 3.3 tanks


@pytest.mark.parametrize(
    ("card", "expected"),
    [("Heavy Gun 4", 3), ("Light Missile 2", 1), ("Light Gun 1", 0)],
)
def test_armour_reduces_gun_and_missile_damage_by_one(game, card, expected):
    """3.3 worked example: Heavy Gun 4 does 3 to a tank, Light Missile 2 does 1, Light Gun 1
    does nothing."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Infantry Fighting Vehicle", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, [card, FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == expected


def test_armour_worked_example_three_cards_in_one_turn(game):
    """3.3: all three cards fired at one tank in one turn deal 3 + 1 + 0 = 4."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Infantry Fighting Vehicle", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Light Missile 2", "Light Gun 1", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    for h in range(3):
        g.act(g.attack(h, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 4


def test_armour_ignores_one_point_attacks(game):
    """3.3: an attack of 1 point does nothing to a tank, and its card is not kept under it."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Medium Tank", 0)])
    light_gun = g.set_hand(0, ["Light Gun 1", FILLER])[0]
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 0
    assert light_gun not in g.S["under"][0, 1, 0]
    assert light_gun in g.S["discard"][0, : g.S["discard_count"][0]]


def test_armour_does_not_reduce_air_attacks(game):
    """3.3 names only Gun and Missile attacks: an A-10 Strike (4) that hits does 4 to a tank."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.set_dice([1])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 4


def test_tanks_are_immune_to_arty(game):
    """3.3 / 9.4: tanks cannot be targeted by Arty; other units can."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Main Battle Tank", 0), ("Armoured Car", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    assert not g.is_legal(g.arty(1, 0))
    assert g.is_legal(g.arty(1, 1))


# ---------------------------------------------------------------- 3.4 light units


def test_light_units_include_every_class_the_seed_names(tables):
    """3.4: Infantry, Light Vehicles, Air-Def units, ATGM vehicles and Arty; some Infantry
    have Air-Defence; tanks carry a Heavy Gun and a Light Gun (3.3)."""
    light = {u.class_ for u in tables.units if u.category == "light"}
    assert light == {"infantry", "light_vehicle", "air_defence", "atgm", "arty"}
    assert any(u.class_ == "infantry" and u.air_defence for u in tables.units)
    for u in tables.units:
        if u.category == "tank":
            assert {"heavy_gun", "light_gun"} <= set(u.weapons)


# ---------------------------------------------------------------- 3.5 / 3.6 infantry


def test_static_infantry_take_one_damage_per_card(game):
    """3.5: a Heavy Gun 4 on Static Infantry does 1 point; the infantry survive with 2 HP."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Mechanised Infantry", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.unit_name(1, 0) == "Mechanised Infantry"
    assert _damage(g, 1, 0) == 1


def test_static_infantry_need_two_cards_to_eliminate(game):
    """3.5: two Gun/Missile cards eliminate Static Infantry, even a doubled one would not
    do more than 1 each."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Infantry Fighting Vehicle", 0)])
    g.set_team(1, [("Mechanised Infantry", 0), ("Mechanised Infantry", 0)])
    g.set_hand(0, ["Heavy Gun 4", "x2", "Light Gun 1", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.act(g.purple(1, 0))  # x2 on the Heavy Gun: still 1 point
    g.act(g.attack(2, 1, 1))
    g.end_attacks()
    assert _damage(g, 1, 0) == 1 and _damage(g, 1, 1) == 1

    g2 = type(g).new(g.tables)
    g2.set_team(0, [("Main Battle Tank", 0), ("Infantry Fighting Vehicle", 0)])
    g2.set_team(1, [("Mechanised Infantry", 0), ("Armoured Car", 1)])
    g2.set_hand(0, ["Light Gun 1", "Heavy Gun 4", FILLER])
    g2.set_hand(1, [])
    g2.to_attack(0, modes={1: STATIC})
    g2.act(g2.attack(0, 1, 0))
    g2.act(g2.attack(1, 1, 0))
    g2.end_attacks()
    assert g2.unit_name(1, 0) is None


def test_static_infantry_take_one_damage_from_air_attacks(game):
    """3.5: Air Attacks on Static Infantry also do 1 point per card."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Mechanised Infantry", 2), ("Main Battle Tank", 0)])
    g.set_hand(0, ["Strike Bomber", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: STATIC})
    g.set_dice([1])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 1


@pytest.mark.parametrize("defender_mode", [STATIC, MOBILE])
def test_arty_eliminates_infantry_with_one_hit(game, defender_mode):
    """3.5 / 3.6: one successful Arty hit eliminates Infantry in either mode (roll 1)."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 2)])
    g.set_team(1, [("Mechanised Infantry", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: defender_mode})
    g.set_dice([1])
    g.act(g.arty(1, 0))
    g.end_attacks()
    assert g.unit_name(1, 0) is None


def test_mobile_infantry_take_normal_damage(game):
    """3.6: in Mobile Mode the 1-point rule is off: Light Gun 2 does 2 and destroys a
    2-HP Infantry; the same card on Static Infantry does 1."""
    results = {}
    for mode in (STATIC, MOBILE):
        g = type(game).new(game.tables)
        g.set_team(0, [("Main Battle Tank", 0)])
        g.set_team(1, [("Mechanised Infantry", 0), ("Main Battle Tank", 0)])
        g.set_hand(0, ["Light Gun 2", FILLER])
        g.set_hand(1, [])
        g.to_attack(0, modes={1: mode})
        g.act(g.attack(0, 1, 0))
        g.end_attacks()
        results[mode] = (g.unit_name(1, 0), _damage(g, 1, 0))
    assert results[STATIC] == ("Mechanised Infantry", 1)
    assert results[MOBILE][0] is None


def test_mobile_infantry_cannot_use_their_own_weapons(game):
    """3.6: infantry riding in vehicles cannot fire: their Light Gun symbol does not count
    in Mobile Mode."""
    legal = {}
    for mode in (STATIC, MOBILE):
        g = type(game).new(game.tables)
        g.set_team(0, [("Mechanised Infantry", 0), ("Main Battle Tank", 1)])
        g.set_team(1, [("Armoured Car", 0)])
        g.set_hand(0, ["Light Gun 2", "Heavy Gun 4", FILLER])
        g.set_hand(1, [])
        g.to_attack(0, mode=mode)
        legal[mode] = (g.is_legal(g.attack(0, 1, 0)), g.is_legal(g.attack(1, 1, 0)))
    # the tank in the Reserve Line keeps its Heavy Gun; only the infantry's Light Gun goes
    assert legal == {STATIC: (True, True), MOBILE: (False, True)}


def test_mobile_infantry_give_no_air_defence(game):
    """3.6 (reading R3): Air-Def Infantry in Mobile Mode cannot use their weapons, so they do
    not lower the to-hit. A-10 (3) with roll 3: misses a Static Air-Def Infantry team (3-1),
    hits the same team in Mobile."""
    hit = {}
    for mode in (STATIC, MOBILE):
        g = type(game).new(game.tables)
        g.set_team(0, [("Main Battle Tank", 0)])
        g.set_team(1, [("Air-Def Infantry", 1), ("Main Battle Tank", 0)])
        g.set_hand(0, ["A-10 Strike", FILLER])
        g.set_hand(1, [])
        g.to_attack(0, modes={1: mode})
        g.set_dice([3])
        g.act(g.attack(0, 1, 1))
        g.end_attacks()
        hit[mode] = _damage(g, 1, 1) > 0
    assert hit == {STATIC: False, MOBILE: True}


# ---------------------------------------------------------------- 3.7 light vehicles


def test_light_vehicles_have_no_armour(game):
    """3.7: a Light Gun 1 does 1 point to a light vehicle (it would do nothing to a tank)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, ["Light Gun 1", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 1


def test_light_vehicle_missiles_fire_only_in_static_mode(game):
    """3.7 / 7.3: an IFV's Light Missile card is playable in Static, not in Mobile."""
    legal = {}
    for mode in (STATIC, MOBILE):
        g = type(game).new(game.tables)
        g.set_team(0, [("Infantry Fighting Vehicle", 0)])
        g.set_team(1, [("Armoured Car", 0)])
        g.set_hand(0, ["Light Missile 2", "Light Gun 2", FILLER])
        g.set_hand(1, [])
        g.to_attack(0, mode=mode)
        legal[mode] = (g.is_legal(g.attack(0, 1, 0)), g.is_legal(g.attack(1, 1, 0)))
    assert legal == {STATIC: (True, True), MOBILE: (False, True)}


# ---------------------------------------------------------------- 3.8 / 9.1 arty


def test_arty_attack_needs_no_card_and_costs_one_ap(game):
    """3.8 / 9.1: an arty attack uses no Action Card and costs 1 AP."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 0)])
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    ap = int(g.S["ap"][0])
    g.act(g.arty(1, 0))
    assert int(g.S["ap"][0]) == ap - 1
    assert g.hand_names(0)[0] == FILLER


@pytest.mark.parametrize("n_arty", [1, 2])
def test_each_arty_unit_attacks_once_per_turn(game, n_arty):
    """3.8 / 9.1: one arty attack per Arty unit per turn."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 2)] * n_arty)
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 0), ("Armoured Car", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    for i in range(n_arty):
        g.act(g.arty(1, i))
    assert not any(A.A_ARTY <= a < A.A_PURPLE for a in g.legal())
    assert int(g.S["ap"][0]) == 4 - n_arty


# ---------------------------------------------------------------- 3.9 / 8.2 air defence


@pytest.mark.parametrize(
    ("air_def_units", "roll", "hits"),
    [(0, 3, True), (1, 3, False), (1, 2, True), (2, 2, False), (2, 1, True)],
)
def test_each_air_defence_unit_lowers_air_to_hit_by_one(game, air_def_units, roll, hits):
    """3.9 / 8.2 worked example: an A-10 Strike hits on 3 or lower; against an Air-Def
    vehicle and an Air-Def Infantry (-2) only on a 1."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    team = [("Main Battle Tank", 0), ("Air-Def Vehicle", 1), ("Air-Def Infantry", 2)]
    g.set_team(1, team[: 1 + air_def_units])
    g.set_hand(0, ["A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: STATIC})
    g.set_dice([roll])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert (_damage(g, 1, 0) == 4) is hits


def test_air_defence_destroyed_in_the_same_resolution_still_counts(game):
    """3.9: all attacks are simultaneous: an Air-Def vehicle destroyed by a Heavy Gun in this
    Resolution still lowers the A-10's to-hit (3 - 2 = 1), so a roll of 2 misses."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Air-Def Vehicle", 0), ("Air-Def Infantry", 1)])
    g.set_hand(0, ["Heavy Gun 4", "A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: STATIC})
    g.set_dice([2])
    g.act(g.attack(0, 1, 1))  # Heavy Gun 4 destroys the Air-Def Vehicle (3 HP)
    g.act(g.attack(1, 1, 0))  # A-10 on the tank
    g.end_attacks()
    assert g.unit_name(1, 1) is None  # destroyed in this Resolution
    assert _damage(g, 1, 0) == 0  # yet the A-10 needed a 1


def test_reinforcement_piles_hold_tanks_and_light_units_separately(game):
    """3.1: tanks and light units are kept in separate reinforcement piles."""
    tb = game.tb
    S = game.S
    for cat, want in ((PILE_TANK, 0), (PILE_LIGHT, 1)):
        n = int(S["pile_count"][0, cat])
        assert n > 0
        assert all(tb.unit_category[S["pile"][0, cat, i]] == want for i in range(n))
