"""TAC seed chapter 4 (Game Turns): the five phases, Preparation (mode, HQ cards,
repositioning), the Resolution and the Ending Phase; 2.2's row naming rule.

Each test builds the situation on a real state and drives it with legal_actions /
apply_action (see conftest.py).
"""

from __future__ import annotations

from envs.tac import actions as A
from envs.tac.state import (
    DEF_FACE_UP,
    MOBILE,
    PILE_TANK,
    STAGE_ATTACK,
    STAGE_DEFENCE,
    STAGE_ENDING,
    STAGE_HQ,
    STAGE_MODE,
    STAGE_REPOSITION,
    STATIC,
)

FILLER = "Tactical Smoke"  # a black card kept in the attacker's hand (Ending Phase waits)


def _rows(g, p) -> list[int]:
    return [int(g.S["team_row"][0, p, t]) for t in range(12) if g.S["team_type"][0, p, t] >= 0]


def _set_pile_top(g, cat: int, name: str) -> None:
    n = int(g.S["pile_count"][0, cat])
    g.S["pile"][0, cat, n - 1] = g.unit(name)


# ---------------------------------------------------------------- 4.1 the five phases


def test_a_turn_runs_the_five_phases_in_order(game):
    """4.1-4.6: Preparation (mode, HQ, repositioning), Attack, Defence, Resolution, Ending;
    then the next player's turn (4.7)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Damage Control / Repair", "Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.S["team_damage"][0, 0, 1] = 1
    d = g.lay_defence(1, "High Cover", 0, face_down=True)
    g.begin_turn(0)
    seen = [g.stage]
    g.act(A.A_MODE + STATIC)
    seen.append(g.stage)
    g.act(A.A_HQ_DONE)
    seen.append(g.stage)
    g.act(A.A_REPOSITION_DONE)
    seen.append(g.stage)
    g.act(g.attack(1, 1, 0))
    g.end_attacks()
    seen.append(g.stage)
    g.act(A.A_DEFEND + d)  # the Resolution follows at once
    seen.append(g.stage)
    g.act(A.A_END_TURN)
    assert seen == [
        STAGE_MODE,
        STAGE_HQ,
        STAGE_REPOSITION,
        STAGE_ATTACK,
        STAGE_DEFENCE,
        STAGE_ENDING,
    ]
    assert g.stage == STAGE_MODE and int(g.S["active"][0]) == 1


def test_attack_cards_are_played_only_in_the_attack_phase(game):
    """4.3: red, orange and purple cards can only be used in the Attack Phase."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_team(1, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "A-10 Strike", "x2", "Upgrade", FILLER])
    g.set_hand(1, [])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    for stage in (STAGE_HQ, STAGE_REPOSITION):
        assert g.stage == stage
        assert not any(A.A_ATTACK <= a <= A.A_ATTACK_DONE for a in g.legal())
        g.act(A.A_HQ_DONE if stage == STAGE_HQ else A.A_REPOSITION_DONE)
    g.end_attacks()
    assert g.stage == STAGE_ENDING
    assert not any(A.A_ATTACK <= a <= A.A_ATTACK_DONE for a in g.legal())


# ---------------------------------------------------------------- 4.2 preparation


def test_own_defences_are_discarded_at_the_start_of_the_turn(game):
    """4.2: defence cards laid in this player's previous turn are removed and discarded."""
    g = game
    d = g.lay_defence(0, "Tactical Smoke", 0, face_down=True)
    card = int(g.S["defence_card"][0, 0, d])
    g.begin_turn(0)
    assert g.defence_names(0) == []
    assert card in g.S["discard"][0, : g.S["discard_count"][0]]


def test_mode_chosen_stays_until_the_players_next_turn(game):
    """2.3 / 4.2: the mode chosen at the start of a turn holds through the other players'
    turns and can be switched at the start of the next one."""
    g = game
    for p in (0, 1):
        g.set_team(p, [("Armoured Car", 0)])
        g.set_hand(p, [])
    g.begin_turn(0)
    g.act(A.A_MODE + MOBILE)
    g.act(A.A_REPOSITION_DONE)  # nothing else to do: the turn passes
    assert int(g.S["active"][0]) == 1 and g.stage == STAGE_MODE
    assert int(g.S["mode"][0, 0]) == MOBILE
    g.act(A.A_MODE + STATIC)  # seat 1's turn passes too
    assert int(g.S["round"][0]) == 2 and int(g.S["active"][0]) == 0
    assert int(g.S["mode"][0, 0]) == MOBILE
    g.act(A.A_MODE + STATIC)  # round 2: seat 0 switches
    assert int(g.S["mode"][0, 0]) == STATIC


def test_reinforcements_bring_the_pile_top_into_the_last_row(game):
    """4.2 HQ (reading I6): Reinforcements take the top unit of the chosen pile into the
    team's last row, for 1 AP; the card is discarded."""
    g = game
    g.set_team(0, [("Armoured Car", 0), ("Self-Propelled Artillery", 1)])
    g.set_team(1, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    card = g.set_hand(0, ["Reinforcements", "Heavy Gun 4", FILLER])[0]
    _set_pile_top(g, PILE_TANK, "Command Tank")
    n = int(g.S["pile_count"][0, PILE_TANK])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    assert not g.is_legal(g.attack(1, 1, 0))
    g.act(A.A_REINFORCE + PILE_TANK)
    assert g.unit_name(0, 2) == "Command Tank" and int(g.S["team_row"][0, 0, 2]) == 1
    assert int(g.S["pile_count"][0, PILE_TANK]) == n - 1
    assert int(g.S["ap"][0]) == 3
    assert card in g.S["discard"][0, : g.S["discard_count"][0]]
    # 4.2: reinforcements can be used immediately: the new tank's Heavy Gun fires this turn
    assert g.stage == STAGE_REPOSITION  # no blue card left: the HQ step ended by itself
    g.act(A.A_REPOSITION_DONE)
    assert g.is_legal(g.attack(1, 1, 0))


def test_repair_removes_damage_and_the_cards_under_the_unit(game):
    """4.2 / 9.3 Damage Control / Repair: the unit's damage is removed and the attack cards
    under it are discarded; 1 AP in one's own turn."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    under = g.take_card("Heavy Gun 4")
    g.S["team_damage"][0, 0, 0] = 3
    g.S["under"][0, 0, 0, 0] = under
    g.set_hand(0, ["Damage Control / Repair", FILLER])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    assert g.legal() == [A.A_REPAIR + 0, A.A_HQ_DONE]  # only damaged units can be repaired
    g.act(A.A_REPAIR + 0)
    assert int(g.S["team_damage"][0, 0, 0]) == 0
    assert int(g.S["under"][0, 0, 0, 0]) == -1
    assert under in g.S["discard"][0, : g.S["discard_count"][0]]
    assert int(g.S["ap"][0]) == 3


def _set_pile(g, cat: int, top_down: list[str]) -> None:
    """Reorder pile `cat` so that its top cards are `top_down` (first = top); the pile keeps
    its cards (each name must be in it)."""
    n = int(g.S["pile_count"][0, cat])
    rest = [int(u) for u in g.S["pile"][0, cat, :n]]
    for name in top_down:
        rest.remove(g.unit(name))
    g.S["pile"][0, cat, :n] = rest + [g.unit(name) for name in reversed(top_down)]


def test_upgrade_takes_the_first_better_unit_from_the_top_of_its_pile(game):
    """4.2 HQ (invented I7): Upgrade replaces a unit, in its row, by the first unit from the
    top of its pile that is better (more victory points, no fewer hit points), skipping the
    others; the old unit goes to the bottom of that pile; 1 AP."""
    g = game
    g.set_team(0, [("Armoured Car", 0), ("Medium Tank", 1)])
    g.set_hand(0, ["Upgrade", FILLER])
    _set_pile(g, PILE_TANK, ["Medium Tank", "Command Tank", "Main Battle Tank"])
    n = int(g.S["pile_count"][0, PILE_TANK])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    g.act(A.A_UPGRADE + 1)
    assert g.unit_name(0, 1) == "Command Tank"  # the Medium Tank on top is not better
    assert int(g.S["team_row"][0, 0, 1]) == 1
    assert int(g.S["pile_count"][0, PILE_TANK]) == n
    top = [int(g.S["pile"][0, PILE_TANK, n - 1 - i]) for i in range(2)]
    assert top == [g.unit("Medium Tank"), g.unit("Main Battle Tank")]  # the rest keep order
    assert int(g.S["pile"][0, PILE_TANK, 0]) == g.unit("Medium Tank")  # old unit at the bottom
    assert int(g.S["ap"][0]) == 3
    assert g.unit_name(0, 0) == "Armoured Car"  # the light pile was not used


def test_upgrade_keeps_the_damage_and_the_cards_under_the_unit(game):
    """4.2 HQ (I7): an Upgrade is no Repair: the damage and the cards kept under the unit
    (4.5) carry over to the new unit."""
    g = game
    g.set_team(0, [("Medium Tank", 0)])
    under = g.take_card("Heavy Gun 4")
    g.S["team_damage"][0, 0, 0] = 3
    g.S["under"][0, 0, 0, 0] = under
    g.set_hand(0, ["Upgrade", FILLER])
    _set_pile(g, PILE_TANK, ["Main Battle Tank"])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    g.act(A.A_UPGRADE + 0)
    assert g.unit_name(0, 0) == "Main Battle Tank"
    assert int(g.S["team_damage"][0, 0, 0]) == 3
    assert int(g.S["under"][0, 0, 0, 0]) == under


def test_upgrade_never_makes_a_unit_worse(tables, make_game):
    """4.2 "Upgrade units" (I7): for every unit type, an Upgrade is legal exactly when its
    pile holds a better unit (strictly more victory points, no fewer hit points), and the
    unit it brings is better."""
    units = tables.units
    upgraded = refused = 0
    for u, unit in enumerate(units):
        for seed in range(3):
            g = make_game(seed=seed)
            g.set_team(0, [(unit.name, 0), ("Armoured Car", 0)])
            g.set_hand(0, ["Upgrade", FILLER])
            cat = int(g.tb.unit_category[u])
            n = int(g.S["pile_count"][0, cat])
            pile = [int(x) for x in g.S["pile"][0, cat, :n]]

            def better(v: int, unit=unit) -> bool:
                return (
                    units[v].victory_points > unit.victory_points
                    and units[v].hit_points >= unit.hit_points
                )

            g.begin_turn(0)
            g.act(A.A_MODE + STATIC)
            if not any(better(v) for v in pile):
                assert A.A_UPGRADE + 0 not in g.legal()
                refused += 1
                continue
            g.act(A.A_UPGRADE + 0)
            new = int(g.S["team_type"][0, 0, 0])
            assert better(new), (unit.name, units[new].name)
            # the first better unit from the top
            assert new == next(v for v in reversed(pile) if better(v))
            upgraded += 1
    assert upgraded > 0 and refused > 0


def test_upgrade_is_illegal_when_the_pile_holds_no_better_unit(game):
    """4.2 (I7): a Main Battle Tank (the most victory points and hit points of the tanks)
    cannot be upgraded, even with another tank on top of the pile."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Upgrade", FILLER])
    _set_pile(g, PILE_TANK, ["Command Tank"])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    assert A.A_UPGRADE + 0 not in g.legal()


def test_hq_cards_need_an_action_point(game):
    """4.2 / 4.3: a blue card costs 1 AP in one's own turn: with 0 AP none can be played."""
    g = game
    g.set_team(0, [("Armoured Car", 0)])
    g.set_hand(0, ["Reinforcements", "Upgrade", FILLER])
    g.begin_turn(0)
    g.S["ap"][0] = 0
    g.act(A.A_MODE + STATIC)
    assert g.stage != STAGE_HQ  # nothing to choose: the HQ step passed by itself


def test_static_team_repositions_up_to_three_units_one_row_each(game):
    """4.2: in Static mode up to three units move, each one row up or down."""
    g = game
    team = [("Armoured Car", 0)] * 3 + [("Armoured Car", 1)] * 3
    g.set_team(0, team)
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, ["Light Gun 2", FILLER])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    assert g.stage == STAGE_REPOSITION
    assert not any(A.A_PLACE <= a < A.A_REPOSITION_DONE for a in g.legal())  # no free placing
    g.act(A.A_BACK + 0)
    assert not g.is_legal(A.A_BACK + 0) and not g.is_legal(A.A_FORWARD + 0)  # moved once
    g.act(A.A_FORWARD + 3)
    g.act(A.A_BACK + 1)
    assert _rows(g, 0) == [1, 1, 0, 0, 1, 1]
    assert g.stage == STAGE_ATTACK  # three moves made: the step ended by itself


def test_static_move_can_create_a_new_row(game):
    """4.2: with fewer than 3 rows a unit may move up into a new Frontline or down into a new
    last row; a lone unit cannot leave its row empty to do it."""
    g = game
    g.set_team(0, [("Armoured Car", 0), ("Armoured Car", 0)])
    g.set_hand(0, [FILLER])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    g.act(A.A_BACK + 1)
    assert _rows(g, 0) == [0, 1]
    assert not g.is_legal(A.A_FORWARD + 0)  # alone: a "new" Frontline would leave its row empty
    g2 = type(g).new(g.tables)
    g2.set_team(0, [("Armoured Car", 0), ("Armoured Car", 0), ("Armoured Car", 1)])
    g2.set_hand(0, [FILLER])
    g2.begin_turn(0)
    g2.act(A.A_MODE + STATIC)
    g2.act(A.A_FORWARD + 0)  # a new Frontline: the others are now one row further back
    assert _rows(g2, 0) == [0, 1, 2]


def test_static_repositioning_never_makes_a_fourth_row(game):
    """4.2: at most 3 rows: with three rows nobody moves beyond the Frontline or Rear Line."""
    g = game
    g.set_team(
        0,
        [
            ("Armoured Car", 0),
            ("Armoured Car", 0),
            ("Armoured Car", 1),
            ("Armoured Car", 2),
            ("Armoured Car", 2),
        ],
    )
    g.set_hand(0, [FILLER])
    g.begin_turn(0)
    g.act(A.A_MODE + STATIC)
    legal = g.legal()
    assert A.A_FORWARD + 0 not in legal and A.A_BACK + 3 not in legal
    assert A.A_BACK + 0 in legal and A.A_FORWARD + 3 in legal


def test_mobile_team_places_any_units_in_any_rows(game):
    """4.2: in Mobile mode any number of units go to any rows (at most 3); empty rows close
    up (2.2)."""
    g = game
    team = [("Armoured Car", 0)] * 5
    g.set_team(0, team)
    g.set_hand(0, [FILLER])
    g.begin_turn(0)
    g.act(A.A_MODE + MOBILE)
    for t in range(4):  # more than three units move, straight to the Rear Line
        g.act(A.A_PLACE + t * 3 + 2)
    assert not any(
        A.A_PLACE + t * 3 <= a < A.A_PLACE + t * 3 + 3 for t in range(4) for a in g.legal()
    )
    g.act(A.A_REPOSITION_DONE)
    assert _rows(g, 0) == [1, 1, 1, 1, 0]  # the empty Reserve Line closed up


# ---------------------------------------------------------------- 2.2 row naming


def test_when_the_frontline_empties_the_next_row_becomes_the_frontline(game):
    """2.2: the row nearest the opponents is always the Frontline: destroying the whole
    Frontline moves every row up; defences follow their row, and one on the vanished row is
    discarded (reading R9)."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 1), ("Armoured Car", 2)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    gone = g.lay_defence(1, "Evasive Maneuvers", 0, face_down=False)  # useless when Static
    gone_card = int(g.S["defence_card"][0, 1, gone])
    g.lay_defence(1, "High Cover", 2, face_down=False)
    g.to_attack(0, modes={1: STATIC})
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.unit_name(1, 0) is None
    assert _rows(g, 1) == [0, 1]
    assert g.defence_names(1) == [("High Cover", 1, DEF_FACE_UP)]
    assert gone_card in g.S["discard"][0, : g.S["discard_count"][0]]


# ---------------------------------------------------------------- 4.5 resolution


def test_damage_from_several_cards_adds_up_and_the_cards_lie_under_the_unit(game):
    """4.5: damage accumulates; each Gun or Missile card that did damage is kept under the
    surviving unit to count it."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Infantry Fighting Vehicle", 0)])
    g.set_team(1, [("Main Battle Tank", 0)])
    ids = g.set_hand(0, ["Heavy Gun 4", "Light Missile 3", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 0))
    g.end_attacks()
    assert int(g.S["team_damage"][0, 1, 0]) == 5
    assert sorted(int(c) for c in g.S["under"][0, 1, 0] if c >= 0) == sorted(ids[:2])


def test_all_attacks_of_a_turn_are_resolved_together(game):
    """4.5: attacks are simultaneous: a unit destroyed by an earlier attack of the turn is
    still hit by the later ones (both cards are discarded), and the unit leaves only after."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0), ("Main Battle Tank", 0)])
    ids = g.set_hand(0, ["Heavy Gun 4", "Heavy Gun 3", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.act(g.attack(1, 1, 0))  # the Armoured Car is still a legal target
    g.end_attacks()
    assert g.unit_name(1, 0) is None
    discard = g.S["discard"][0, : g.S["discard_count"][0]]
    assert ids[0] in discard and ids[1] in discard


# ---------------------------------------------------------------- 4.6 / 4.7 ending


def test_hand_is_refilled_to_seven_at_the_end_of_the_turn(game):
    """2.4 / 4.6: after laying defences the player draws back up to 7 cards."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Main Battle Tank", 0), ("Main Battle Tank", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Tactical Smoke", "High Cover"])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    g.act(g.lay(1, 0, face_down=True))
    assert sum(c is not None for c in g.hand_names(0)) == 1
    g.act(A.A_END_TURN)
    assert sum(c is not None for c in g.hand_names(0)) == 7


def test_next_player_in_the_order_takes_the_next_turn(make_game):
    """4.7: once a player finishes, the next one in the player order takes a turn."""
    g = make_game(num_players=4)
    g.set_hand(3, [FILLER])
    g.to_ending(3, order=[3, 1, 0, 2])
    g.act(A.A_END_TURN)
    assert int(g.S["active"][0]) == 1 and g.stage == STAGE_MODE
