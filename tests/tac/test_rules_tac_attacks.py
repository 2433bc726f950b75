"""TAC seed chapters 5-9: ground attacks, purple cards, ranges, tactical modes, air and arty.

Each test builds the situation on a real state and drives it with legal_actions /
apply_action (see conftest.py).
"""

from __future__ import annotations

import pytest

from envs.tac import actions as A
from envs.tac.state import MOBILE, STAGE_DAMAGE_CONTROL, STAGE_ENDING, STATIC

FILLER = "High Cover"  # a black card kept in the attacker's hand so the Ending Phase waits


def _damage(g, p, t) -> int:
    return int(g.S["team_damage"][0, p, t])


def _discarded(g, card: int) -> bool:
    return card in g.S["discard"][0, : g.S["discard_count"][0]]


# ---------------------------------------------------------------- 5.2 weapon symbols, AP


@pytest.mark.parametrize("tanks", [1, 2])
def test_each_card_needs_its_own_weapon_symbol(game, tanks):
    """4.3 / 5.2: one Heavy Gun card per unit with a Heavy Gun: one tank fires one, two
    tanks fire two."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)] * tanks)
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 0), ("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 3", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    fired = 0
    for h in range(3):
        if g.stage == STAGE_ENDING or not g.is_legal(g.attack(h, 1, h)):
            break
        g.act(g.attack(h, 1, h))
        fired += 1
    assert fired == tanks


def test_a_tank_fires_one_heavy_and_one_light_gun_card(game):
    """5.2 (reading R4): each symbol allows one card, so one tank (Heavy Gun + Light Gun)
    may play one card of each kind, not two of one."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Light Gun 2", "Light Gun 1", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 1))
    assert g.stage == STAGE_ENDING  # the second Light Gun card had no symbol left


def test_weapon_cards_need_the_symbol_on_a_unit(game):
    """4.3: a Heavy Missile card cannot be played by a team with no Heavy Missile symbol."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Missile 5", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    assert not g.is_legal(g.attack(0, 1, 0))
    assert g.is_legal(g.attack(1, 1, 0))


def test_each_gun_or_missile_card_costs_one_ap_and_ap_limit_attacks(game):
    """4.3 / 5.2: 4 AP per turn, 1 AP per card: a fifth card cannot be played."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)] * 5)
    g.set_team(1, [("Main Battle Tank", 0)] * 4)
    g.set_hand(0, ["Heavy Gun 4"] * 5 + [FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    assert int(g.S["ap"][0]) == 4
    for h in range(4):
        g.act(g.attack(h, 1, h))
        assert int(g.S["ap"][0]) == 3 - h
    assert g.stage == STAGE_ENDING  # 0 AP left: the Attack Phase ended by itself


# ---------------------------------------------------------------- 5.3 cards after resolution


def test_gun_cards_kept_under_damaged_unit_discarded_when_destroyed(game):
    """4.5 / 5.3: a card that damaged a surviving unit lies under it; cards on a destroyed
    unit are discarded."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Armoured Car", 0)])
    hg, hg2 = g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 3", FILLER])[:2]
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))  # tank survives with 3 damage
    g.act(g.attack(1, 1, 1))  # Armoured Car (4 HP) survives with 3
    g.end_attacks()
    assert list(g.S["under"][0, 1, 0][g.S["under"][0, 1, 0] >= 0]) == [hg]
    assert list(g.S["under"][0, 1, 1][g.S["under"][0, 1, 1] >= 0]) == [hg2]

    g2 = type(g).new(g.tables)
    g2.set_team(0, [("Main Battle Tank", 0)])
    g2.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    g2.S["team_damage"][0, 1, 0] = 3
    card = g2.set_hand(0, ["Heavy Gun 4", FILLER])[0]
    g2.set_hand(1, [])
    g2.to_attack(0)
    g2.act(g2.attack(0, 1, 0))
    g2.end_attacks()
    assert g2.unit_name(1, 0) is None
    assert _discarded(g2, card)


# ---------------------------------------------------------------- 5.4 purple cards


@pytest.mark.parametrize(
    ("target", "expected"), [("Main Battle Tank", 5), ("Infantry Fighting Vehicle", 6)]
)
def test_purple_modifier_applies_before_armour(game, target, expected):
    """5.4 worked example: x2 with a Light Missile 3 deals 6; against a tank 5 (Armour after
    the modifier)."""
    g = game
    g.set_team(0, [("Infantry Fighting Vehicle", 0)])
    g.set_team(1, [(target, 0), ("Main Battle Tank", 1)])
    g.set_hand(0, ["Light Missile 3", "x2", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.purple(1, 0))
    g.end_attacks()
    # the Resolution's record of the damage this attack dealt
    assert int(g.S["attack_damage"][0, 0]) == expected
    if target == "Main Battle Tank":
        assert _damage(g, 1, 0) == 5
    else:
        assert g.unit_name(1, 0) is None  # 6 >= 5 HP


def test_purple_add_card_applies_before_armour(game):
    """5.4: Tandem Warhead +2 on a Light Gun 1 makes 3, less Armour 2 on a tank."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Light Gun 1", "Tandem Warhead +2", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.purple(1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == 2


def test_only_one_purple_card_per_red_card(game):
    """5.4: one purple card per red card; purple cards do not modify air or arty attacks;
    a purple card costs no AP (reading R6)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Self-Propelled Artillery", 2)])
    g.set_team(1, [("Medium Tank", 0), ("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Gun 4", "x2", "x2", "A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    assert not any(A.A_PURPLE <= a < A.A_ATTACK_DONE for a in g.legal())  # nothing to modify
    g.act(g.attack(0, 1, 0))  # attack 0: red
    g.act(g.attack(3, 1, 0))  # attack 1: orange
    g.act(g.arty(1, 1))  # attack 2: arty
    assert g.is_legal(g.purple(1, 0)) and g.is_legal(g.purple(2, 0))
    assert not g.is_legal(g.purple(1, 1)) and not g.is_legal(g.purple(1, 2))
    ap = int(g.S["ap"][0])
    g.act(g.purple(1, 0))
    assert int(g.S["ap"][0]) == ap
    assert not g.is_legal(g.purple(2, 0))


# ---------------------------------------------------------------- 6 ranges


@pytest.mark.parametrize(
    ("card", "attacker_row", "reachable"),
    [
        ("Heavy Gun 4", 0, {0, 1}),
        ("Heavy Gun 4", 1, {0, 1}),
        ("Heavy Gun 4", 2, set()),
        ("Heavy Missile 5", 1, {0, 1}),
        ("Light Gun 2", 0, {0}),
        ("Light Gun 2", 1, set()),
        ("Light Missile 2", 0, {0}),
    ],
)
def test_ground_weapon_ranges_in_static_mode(game, card, attacker_row, reachable):
    """6.1: heavy weapons fire from the first two rows at the first two enemy rows.
    6.2: light weapons fire from the Frontline at the enemy Frontline."""
    g = game
    shooter = {"Heavy Gun 4": "Main Battle Tank", "Light Gun 2": "Main Battle Tank"}.get(
        card, "ATGM Vehicle" if "Heavy" in card else "Infantry Fighting Vehicle"
    )
    # the rows in front hold Arty (no weapon symbols), so only the shooter can fire
    team0 = [("Self-Propelled Artillery", r) for r in range(attacker_row)] + [
        (shooter, attacker_row)
    ]
    g.set_team(0, team0)
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 1), ("Armoured Car", 2)])
    g.set_hand(0, [card, "Light Gun 2", FILLER] if card != "Light Gun 2" else [card, FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    s = len(team0) - 1
    assert int(g.S["team_row"][0, 0, s]) == attacker_row
    got = {r for r in range(3) if g.is_legal(g.attack(0, 1, r))}
    assert got == reachable


def test_arty_fires_from_any_row_at_any_row(game):
    """6.3: Arty units fire from any row and hit any row."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1), ("Self-Propelled Artillery", 2)])
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 1), ("Armoured Car", 2)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    assert all(g.is_legal(g.arty(1, t)) for t in range(3))


def test_air_attacks_target_any_row(game):
    """6.3 / 8.1: Air Attacks target units in any row and cost 1 AP."""
    g = game
    g.set_team(0, [("Armoured Car", 0)])
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 1), ("Armoured Car", 2)])
    g.set_hand(0, ["A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, mode=MOBILE)
    assert all(g.is_legal(g.attack(0, 1, t)) for t in range(3))
    g.act(g.attack(0, 1, 2))
    assert int(g.S["ap"][0]) == 3


# ---------------------------------------------------------------- 7 tactical modes


@pytest.mark.parametrize(
    ("card", "attacker_row", "reachable"),
    [("Light Gun 2", 0, {0, 1}), ("Heavy Gun 4", 1, {0, 1, 2}), ("Heavy Gun 4", 2, set())],
)
def test_guns_gain_one_row_of_range_in_mobile_mode(game, card, attacker_row, reachable):
    """7.3: a Light Gun still fires from the first row but hits the first two rows; a Heavy
    Gun still fires from the first two rows but hits all three."""
    g = game
    team0 = [("Armoured Car", r) for r in range(attacker_row)] + [
        ("Main Battle Tank", attacker_row)
    ]
    g.set_team(0, team0)
    g.set_team(1, [("Armoured Car", 0), ("Armoured Car", 1), ("Armoured Car", 2)])
    g.set_hand(0, [card, "A-10 Strike", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, mode=MOBILE)
    got = {r for r in range(3) if g.is_legal(g.attack(0, 1, r))}
    assert got == reachable


def test_no_missile_or_arty_attacks_in_mobile_mode(game):
    """7.3: a Mobile team fires only guns: no missile cards and no arty attacks."""
    legal = {}
    for mode in (STATIC, MOBILE):
        g = type(game).new(game.tables)
        g.set_team(
            0, [("ATGM Vehicle", 0), ("Self-Propelled Artillery", 1), ("Main Battle Tank", 0)]
        )
        g.set_team(1, [("Armoured Car", 0)])
        g.set_hand(0, ["Heavy Missile 5", "Light Missile 3", "Heavy Gun 4", FILLER])
        g.set_hand(1, [])
        g.to_attack(0, mode=mode)
        legal[mode] = (
            g.is_legal(g.attack(0, 1, 0)),
            g.is_legal(g.attack(1, 1, 0)),
            g.is_legal(g.arty(1, 0)),
            g.is_legal(g.attack(2, 1, 0)),
        )
    assert legal == {STATIC: (True, True, True, True), MOBILE: (False, False, False, True)}


def test_mode_is_chosen_once_at_the_start_of_the_turn(game):
    """7.1 / 2.3: the mode is chosen at the start of the turn, for the whole team, and is not
    offered again in that turn."""
    g = game
    g.begin_turn(0)
    assert sorted(g.legal()) == [A.A_MODE, A.A_MODE + 1]
    g.act(A.A_MODE + MOBILE)
    assert int(g.S["mode"][0, 0]) == MOBILE
    assert not any(a in g.legal() for a in (A.A_MODE, A.A_MODE + 1))


def test_first_gun_attack_is_free_in_mobile_mode(game):
    """7.4: the first Gun attack of a Mobile team costs no AP; the next ones cost 1. No free
    attack in Static mode."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, mode=MOBILE)
    g.act(g.attack(0, 1, 0))
    assert int(g.S["ap"][0]) == 4
    g.act(g.attack(1, 1, 0))
    assert int(g.S["ap"][0]) == 3

    g2 = type(g).new(g.tables)
    g2.set_team(0, [("Main Battle Tank", 0)])
    g2.set_team(1, [("Main Battle Tank", 0)])
    g2.set_hand(0, ["Heavy Gun 4", "A-10 Strike", FILLER])
    g2.set_hand(1, [])
    g2.to_attack(0, mode=STATIC)
    g2.act(g2.attack(0, 1, 0))
    assert int(g2.S["ap"][0]) == 3


def test_free_gun_attack_is_not_spent_on_air_attacks(game):
    """7.4: an air attack first still costs 1 AP and leaves the free Gun attack."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["A-10 Strike", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0, mode=MOBILE)
    g.act(g.attack(0, 1, 0))
    assert int(g.S["ap"][0]) == 3
    g.act(g.attack(1, 1, 0))
    assert int(g.S["ap"][0]) == 3


# ---------------------------------------------------------------- 7.2 / 7.4 / 9.2 arty dice


@pytest.mark.parametrize(
    ("defender_mode", "roll", "hits"),
    [
        (STATIC, 1, True),
        (STATIC, 2, True),
        (STATIC, 3, False),
        (MOBILE, 1, True),
        (MOBILE, 2, False),
    ],
)
def test_arty_hits_static_on_one_or_two_and_mobile_on_one(game, defender_mode, roll, hits):
    """7.2 / 7.4 / 9.2: arty hits a Static unit on 1-2, a Mobile unit on 1; a hit destroys
    (9.3)."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Infantry Fighting Vehicle", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [])
    g.to_attack(0, modes={1: defender_mode})
    g.set_dice([roll])
    g.act(g.arty(1, 0))
    g.end_attacks()
    assert (g.unit_name(1, 0) is None) is hits


def test_arty_hit_rate_over_many_games(make_game):
    """9.2 as a statistic: against Static units arty destroys about 2/6 of its targets."""
    hits = 0
    n = 300
    for seed in range(n):
        g = make_game(seed=seed)
        g.set_team(0, [("Self-Propelled Artillery", 1)])
        g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
        g.set_hand(0, [FILLER])
        g.set_hand(1, [])
        g.to_attack(0, modes={1: STATIC})
        g.act(g.arty(1, 0))
        g.end_attacks()
        hits += g.unit_name(1, 0) is None
    assert abs(hits / n - 2 / 6) < 0.1


# ---------------------------------------------------------------- 8 air attacks


@pytest.mark.parametrize("roll", [3, 4])
def test_air_attack_cards_are_discarded_hit_or_miss(game, roll):
    """8.2 / 8.3: roll the card's to-hit (A-10: 3) or lower; the card is discarded either way,
    never kept under the unit."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    card = g.set_hand(0, ["A-10 Strike", FILLER])[0]
    g.set_hand(1, [])
    g.to_attack(0)
    g.set_dice([roll])
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert _damage(g, 1, 0) == (4 if roll <= 3 else 0)
    assert _discarded(g, card)
    assert card not in g.S["under"][0, 1, 0]


def test_air_attack_to_hit_rate_over_many_games(make_game):
    """8.2 as a statistic: a Close Air Support card (to-hit 4) hits about 4/6 of the time."""
    hits = 0
    n = 300
    for seed in range(n):
        g = make_game(seed=seed)
        g.set_team(0, [("Main Battle Tank", 0)])
        g.set_team(1, [("Main Battle Tank", 0)])
        g.set_hand(0, ["Close Air Support", FILLER])
        g.set_hand(1, [])
        g.to_attack(0)
        g.act(g.attack(0, 1, 0))
        g.end_attacks()
        hits += _damage(g, 1, 0) > 0
    assert abs(hits / n - 4 / 6) < 0.1


# ---------------------------------------------------------------- 9.3 Damage Control


def test_damage_control_from_hand_saves_a_unit_hit_by_arty(game):
    """9.3: a successful arty hit destroys the unit unless the defender plays a Damage
    Control / Repair card from hand; it costs the defender no AP (reading R8)."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    dc = g.set_hand(1, ["Damage Control / Repair"])[0]
    g.to_attack(0)
    g.set_dice([1])
    g.act(g.arty(1, 0))
    g.end_attacks()
    assert g.stage == STAGE_DAMAGE_CONTROL and int(g.S["current"][0]) == 1
    ap = int(g.S["ap"][0])
    g.act(A.A_DAMAGE_CONTROL)
    assert g.unit_name(1, 0) == "Armoured Car"
    assert g.hand_names(1)[0] is None and _discarded(g, dc)
    assert int(g.S["ap"][0]) == ap
    assert g.stage == STAGE_ENDING and int(g.S["current"][0]) == 0


def test_declining_damage_control_lets_the_arty_hit_destroy(game):
    """9.3: declining keeps the card in hand; the unit is destroyed."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, ["Damage Control / Repair"])
    g.to_attack(0)
    g.set_dice([1])
    g.act(g.arty(1, 0))
    g.end_attacks()
    g.act(A.A_DAMAGE_CONTROL + 1)
    assert g.unit_name(1, 0) is None
    assert g.hand_names(1)[0] == "Damage Control / Repair"


def test_damage_control_is_asked_even_without_the_card_so_the_hand_stays_hidden(game):
    """9.3 / R8: after an arty hit the defender is always asked; without the card, declining
    is the only legal answer, so the pause reveals nothing about the hand."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, [FILLER])
    g.to_attack(0)
    g.set_dice([1])
    g.act(g.arty(1, 0))  # nothing else is legal: the Attack phase ends by itself
    assert g.stage == STAGE_DAMAGE_CONTROL and int(g.S["current"][0]) == 1
    assert list(g.legal()) == [A.A_DAMAGE_CONTROL + 1]
    g.act(A.A_DAMAGE_CONTROL + 1)
    assert g.unit_name(1, 0) is None


def test_damage_control_is_not_asked_after_an_arty_miss(game):
    """9.3: Damage Control answers a successful hit only."""
    g = game
    g.set_team(0, [("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, [FILLER])
    g.set_hand(1, ["Damage Control / Repair"])
    g.to_attack(0)
    g.set_dice([5])
    g.act(g.arty(1, 0))
    g.end_attacks()
    assert g.stage == STAGE_ENDING
    assert g.unit_name(1, 0) == "Armoured Car"
