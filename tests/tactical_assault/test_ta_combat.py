"""Combat resolution: Tables 4, 5 and 6, Fall Back, Recover / Back In Action, victory
(FC PART V, PART II "Determine Victory Conditions"; LB "Fall back movement", "Close combat")."""

from __future__ import annotations

import numpy as np
import pytest
from ta_helpers import hand, legal, record, stack_top, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import combat, flow, invariants, plays, state, turn

ROWS = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . W .",
    ". . . . . . .",
]
ELEV = ["0 0 0 0 0 0 0"] * 6 + ["0 0 0 0 0 0 1g"]
OURS = [
    {"type": "ARCHER", "label": "A", "zone": [0, 0], "facing": "S"},
    {"type": "INFANTRY", "label": "I", "zone": [1, 0], "facing": "S"},
]
THEIRS = [
    {"type": "INFANTRY", "label": "i", "zone": [0, 6], "facing": "N"},
    {"type": "MILITIA", "label": "m", "zone": [1, 6], "facing": "N"},
]
ARCHER, INF, EINF, MILITIA = 0, 1, 2, 3
N, E, S_, W = 0, 1, 2, 3
DEAD = (13, 10, 35, 38, 57, 53)
NO_EFFECT, FALL_BACK, SHAKEN, OOA, ELIM = 13, 35, 0, 39, 12  # a card of each Combat Result


@pytest.fixture(scope="module")
def tb(tmp_path_factory):
    return record(
        ROWS, tmp_path_factory.mktemp("combat"), units0=OURS, units1=THEIRS, elevation=ELEV
    )


def z(tb, c, r):
    return r * 7 + c  # a full 7 x 7 square map: zone = row * 7 + col


def put(S, u, tb, c, r, facing, entry=None):
    S["unit_where"][0, u] = state.WHERE_ON
    S["unit_pos"][0, u] = z(tb, c, r)
    S["unit_facing"][0, u] = facing
    S["unit_entry"][0, u] = -1 if entry is None else z(tb, *entry)


def run_fb(S, tb, choice=-1):
    """Run a Fall Back to its end or to a choice (the enemy_unit_moves windows after each
    position entered are left to the kernels' callers: here nobody interrupts)."""
    r = combat.fall_back_step(S, tb, 0, choice)
    while r == -3:
        r = combat.fall_back_step(S, tb, 0, -1)
    return r


def occ_of(S, tb):
    o = plays.new_occ()
    plays.occupancy(S, tb, 0, o)
    return o


RANGE = 5  # RANGE_DISTANCE_CODE: the unit's own Range Distance


@pytest.mark.parametrize(
    ("case", "want"),
    [
        ("open", 1),  # Moderate Ranged > Light Protection: Up One
        ("from_behind", 2),  # + LOS drawn outside the target's arc: Up One
        ("in_woods", 0),  # + the target is In Cover: Down One
        ("higher", 0),  # + the target's elevation is higher: Down One
        ("in_close_combat", 0),  # + the target is in Close Combat: Down One
    ],
)
def test_ranged_attack_shifts_table_4(tb, case, want):
    S = started(tb)
    put(S, EINF, tb, 0, 6, N)
    if case == "open":
        put(S, ARCHER, tb, 3, 0, S_)
        put(S, MILITIA, tb, 3, 3, N)
    elif case == "from_behind":
        put(S, ARCHER, tb, 3, 0, S_)
        put(S, MILITIA, tb, 3, 3, S_)
    elif case == "in_woods":
        put(S, ARCHER, tb, 5, 1, S_)
        put(S, MILITIA, tb, 5, 5, N)
    elif case == "higher":
        put(S, ARCHER, tb, 6, 2, S_)
        put(S, MILITIA, tb, 6, 6, N)
    else:
        put(S, ARCHER, tb, 3, 0, S_)
        put(S, MILITIA, tb, 3, 3, N)
        put(S, INF, tb, 3, 3, N, entry=(3, 2))
    put(S, INF, tb, 6, 0, S_) if case != "in_close_combat" else None
    occ = occ_of(S, tb)
    assert plays.ranged_target_ok(S, tb, 0, occ, ARCHER, MILITIA, RANGE)
    assert combat.ranged_shift(S, tb, 0, ARCHER, MILITIA, RANGE, occ) == want


def test_ranged_attack_needs_range_arc_and_sight(tb):
    """PART V Steps 1-3 (R11: only attacks that pass are offered): out of range (Long = 4
    zones here), outside the attacker's own arc, or behind another unit: no attack."""
    S = started(tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, MILITIA, tb, 3, 5, N)  # 5 zones: beyond Long (4)
    assert not plays.ranged_target_ok(S, tb, 0, occ_of(S, tb), ARCHER, MILITIA, RANGE)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, ARCHER, tb, 3, 0, N)  # facing away
    assert not plays.ranged_target_ok(S, tb, 0, occ_of(S, tb), ARCHER, MILITIA, RANGE)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, INF, tb, 3, 1, S_)  # a unit on the line
    assert not plays.ranged_target_ok(S, tb, 0, occ_of(S, tb), ARCHER, MILITIA, RANGE)


@pytest.mark.parametrize(
    ("case", "want"),
    [
        ("front", 1),  # Heavy Melee > Light Protection
        ("shaken", 2),  # + target Shaken
        ("behind", 2),  # + contact from outside the target's arc
        ("woods", 0),  # + target In Cover
    ],
)
def test_melee_attack_shifts_table_5(tb, case, want):
    S = started(tb)
    if case == "woods":
        put(S, MILITIA, tb, 5, 5, N)
        put(S, INF, tb, 5, 5, S_, entry=(5, 4))
    elif case == "behind":
        put(S, MILITIA, tb, 3, 3, N)
        put(S, INF, tb, 3, 3, N, entry=(3, 4))
    else:
        put(S, MILITIA, tb, 3, 3, N)
        put(S, INF, tb, 3, 3, S_, entry=(3, 2))
        if case == "shaken":
            S["unit_status"][0, MILITIA] = state.STATUS_SHAKEN
    assert plays.melee_target_ok(S, 0, tb, INF, MILITIA)
    assert combat.melee_shift(S, tb, 0, INF, MILITIA) == want


def test_combat_results_scale_clamps_at_both_ends():
    """Table 6 with R3: Step Up moves towards Eliminated; the scale stops at its ends."""
    assert combat.final_result(0, -2) == 0
    assert combat.final_result(1, 1) == 2
    assert combat.final_result(3, 3) == 4


def test_results_statuses_and_elimination(tb):
    """Table 6: Shaken and Out Of Action are statuses (a repeat is ignored), Eliminated
    removes the unit and counts its points; Stop Once Eliminated: no more flips for it."""
    S = started(tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, MILITIA, tb, 3, 3, S_)  # from behind: net +2
    stack_top(S, 0, [SHAKEN, NO_EFFECT])  # No Effect + 2 = Shaken
    assert combat.resolve_attack(S, tb, 0, ARCHER, MILITIA, True, RANGE, 0) == 2
    assert S["unit_status"][0, MILITIA] == state.STATUS_SHAKEN
    assert combat.resolve_attack(S, tb, 0, ARCHER, MILITIA, True, RANGE, -2) == 2  # Shaken again
    assert S["unit_status"][0, MILITIA] == state.STATUS_SHAKEN
    stack_top(S, 0, [OOA])
    assert combat.resolve_attack(S, tb, 0, ARCHER, MILITIA, True, RANGE, -2) == 3
    assert S["unit_status"][0, MILITIA] == state.STATUS_SHAKEN | state.STATUS_OUT_OF_ACTION
    stack_top(S, 0, [ELIM])
    assert combat.resolve_attack(S, tb, 0, ARCHER, MILITIA, True, RANGE, -2) == 4
    assert S["unit_where"][0, MILITIA] == state.WHERE_ELIMINATED
    assert S["points_lost"][0].tolist() == [0, 2] and S["units_lost"][0].tolist() == [0, 1]
    deck = int(S["deck_count"][0, 0])
    assert combat.resolve_attack(S, tb, 0, ARCHER, MILITIA, True, RANGE, 0) == -1
    assert S["deck_count"][0, 0] == deck
    assert invariants.check(S, tb, 0) == ""


def test_fall_back_moves_directly_away_along_the_attack_line(tb):
    """Table 6 "Fall Back", R7, LB "Determining the route": a Short Distance (1 zone here)
    from the attacker's zone through the target's and beyond."""
    S = started(tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, MILITIA, tb, 3, 3, N)
    combat.apply_result(S, tb, 0, ARCHER, MILITIA, 1)
    assert run_fb(S, tb, -1) == 0
    assert S["unit_pos"][0, MILITIA] == z(tb, 3, 4)
    assert S["unit_facing"][0, MILITIA] == N  # I10: Fall Back does not turn the unit


def test_fall_back_off_the_map_eliminates_and_an_enemy_stops_it(tb):
    """FC "Fall Back" NOTEs and LB I9: leaving the battlefield counts as Eliminated; an enemy
    unit on the route stops the unit short of it."""
    S = started(tb)
    put(S, ARCHER, tb, 3, 3, S_)
    put(S, MILITIA, tb, 3, 6, N)  # on the south edge
    combat.apply_result(S, tb, 0, ARCHER, MILITIA, 1)
    run_fb(S, tb, -1)
    assert S["unit_where"][0, MILITIA] == state.WHERE_ELIMINATED
    assert S["points_lost"][0, 1] == 2
    S = started(tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, EINF, tb, 3, 2, N)
    put(S, INF, tb, 3, 3, N)  # the Archer's friend behind the target: an enemy of it
    combat.apply_result(S, tb, 0, ARCHER, EINF, 1)
    run_fb(S, tb, -1)
    assert S["unit_pos"][0, EINF] == z(tb, 3, 2)


def test_defender_falling_back_leaves_the_winner_alone_in_the_zone(tb):
    """LB "Determining the route - shared zone" (R6) and "Winning close combat": the defender
    falls back away from the entry zone; the attacker holds the zone."""
    S = started(tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 3, S_, entry=(3, 2))
    S["unit_cc_target"][0, INF] = MILITIA
    combat.apply_result(S, tb, 0, INF, MILITIA, 1)
    run_fb(S, tb, -1)
    assert S["unit_pos"][0, MILITIA] == z(tb, 3, 4)
    assert S["unit_pos"][0, INF] == z(tb, 3, 3) and S["unit_entry"][0, INF] == -1
    assert invariants.check(S, tb, 0) == ""


def test_recover_and_back_in_action_remove_their_status_in_either_order(tb):
    """Table 6 NOTE: either status may be removed first (R6: one Action per turn each)."""
    S = started(tb)
    a = int(S["active"][0])
    u = ARCHER if a == 0 else EINF
    S["unit_status"][0, u] = state.STATUS_SHAKEN | state.STATUS_OUT_OF_ACTION
    hand(S, a, [37, *DEAD[:5]])  # Back In Action
    turn.apply_action(S, tb, 0, A.A_ACTION + 37)
    assert legal(S, tb) == [A.A_UNIT + u]
    turn.apply_action(S, tb, 0, A.A_UNIT + u)
    while S["stage"][0] != A.STAGE_MAIN:
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_status"][0, u] == state.STATUS_SHAKEN
    hand(S, a, [36, *DEAD[:5]])  # Recover: the unit has had its Action this turn
    assert A.A_ACTION + 36 not in legal(S, tb)


def test_half_the_points_eliminated_loses(tb):
    """FC "Determine Victory Conditions": half of a side's unit points eliminated loses."""
    S = started(tb)
    S["unit_where"][0, EINF] = state.WHERE_ELIMINATED
    S["unit_pos"][0, EINF] = -1
    S["points_lost"][0, 1] = 3  # of 5
    assert flow.check_victory(S, tb, 0)
    assert S["winner"][0] == 0 and S["rewards"][0].tolist() == [1.0, -1.0]
    assert S["stage"][0] == A.STAGE_GAME_OVER


def _seat0_main(S, tb):
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


@pytest.mark.parametrize(
    ("attacker", "target", "flipped", "status", "counter"),
    [
        # Heavy Melee on Light Protection: Fall Back + 1 = Shaken; a Shaken unit takes no
        # Situation, so Counterattack is not offered (but the window is still asked)
        (INF, MILITIA, FALL_BACK, state.STATUS_SHAKEN, False),
        # Light Melee on Moderate Protection: No Effect; Counterattack is offered
        (ARCHER, EINF, NO_EFFECT, 0, True),
    ],
)
def test_assault_enters_close_combat_then_attacks_and_offers_counterattack(
    tb, attacker, target, flipped, status, counter
):
    """An Assault moves into the enemy's zone (LB "Entering close combat": the units share it,
    movement stops) and makes a Melee Attack; after it the target's owner is asked for
    Counterattack (trigger melee_attack_resolved_on_unit)."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, attacker, tb, 3, 2, S_)
    put(S, target, tb, 3, 3, N)
    hand(S, 0, [2, *DEAD[:5]])  # Assault | Counterattack | Shaken
    hand(S, 1, [47, *DEAD[:5]])  # Close Combat | Counterattack | No Effect
    stack_top(S, 0, [flipped])
    turn.apply_action(S, tb, 0, A.A_ACTION + 2)
    turn.apply_action(S, tb, 0, A.A_UNIT + attacker)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_MOVE
    assert A.A_POS + z(tb, 3, 3) in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_POS + z(tb, 3, 3))
    assert S["stage"][0] == A.STAGE_WINDOW  # enemy_contact window of the target's owner
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_pos"][0, attacker] == z(tb, 3, 3)
    assert S["unit_entry"][0, attacker] == z(tb, 3, 2)
    assert S["stage"][0] == A.STAGE_TARGET and legal(S, tb) == [A.A_UNIT + target]
    turn.apply_action(S, tb, 0, A.A_UNIT + target)
    turn.apply_action(S, tb, 0, A.A_PASS)  # melee_attack_on_unit window (theirs)
    turn.apply_action(S, tb, 0, A.A_PASS)  # unit_attack_declared window (ours)
    assert S["unit_status"][0, target] == status
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
    assert (A.A_SITUATION + 47 in legal(S, tb)) == counter
    assert A.A_PASS in legal(S, tb)
    assert invariants.check(S, tb, 0) == ""


@pytest.mark.parametrize(("take_cover", "status"), [(False, 2), (True, 1)])
def test_take_cover_interrupt_shifts_the_declared_attack(tb, take_cover, status):
    """An Interrupt takes effect inside the card it interrupts (Sequential Events, R13): Take
    Cover, played when the Ranged Attack on the unit is declared, shifts it Down One before
    the Combat Result is flipped (Shaken + 1 = Out Of Action; with Take Cover, Shaken)."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, MILITIA, tb, 3, 3, N)
    hand(S, 0, [6, *DEAD[:5]])  # Fire | Clear The Way | No Effect
    hand(S, 1, [23, *DEAD[:5]])  # Stand To | Take Cover | No Effect
    stack_top(S, 0, [SHAKEN])
    turn.apply_action(S, tb, 0, A.A_ACTION + 6)
    turn.apply_action(S, tb, 0, A.A_UNIT + ARCHER)
    turn.apply_action(S, tb, 0, A.A_PASS)  # Cancel window
    turn.apply_action(S, tb, 0, A.A_UNIT + MILITIA)  # the target
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
    assert A.A_SITUATION + 23 in legal(S, tb)
    if take_cover:
        turn.apply_action(S, tb, 0, A.A_SITUATION + 23)
        assert legal(S, tb) == [A.A_UNIT + MILITIA]  # played on the attacked unit
        turn.apply_action(S, tb, 0, A.A_UNIT + MILITIA)
        turn.apply_action(S, tb, 0, A.A_PASS)  # our Cancel window on Take Cover
        assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1  # asked again
    turn.apply_action(S, tb, 0, A.A_PASS)
    want = state.STATUS_OUT_OF_ACTION if status == 2 else state.STATUS_SHAKEN
    assert S["unit_status"][0, MILITIA] == want
    assert invariants.check(S, tb, 0) == ""


def test_fall_back_between_equal_zones_is_the_owners_choice(tb):
    """LB "Fall back movement: Making decisions": the line from (0,0) through (1,1) meets (2,1)
    and (1,2) only at their common corner: the owner of the unit falling back chooses."""
    for pick in ((2, 1), (1, 2)):
        S = started(tb)
        put(S, ARCHER, tb, 0, 0, S_)
        put(S, MILITIA, tb, 1, 1, N)
        combat.apply_result(S, tb, 0, ARCHER, MILITIA, 1)
        assert run_fb(S, tb, -1) == -2
        fr, th, k = S["fb_from"][0], S["fb_through"][0], S["fb_k"][0]
        assert {int(x) for x in tb.g_fb_route[fr, th, k]} == {z(tb, 2, 1), z(tb, 1, 2)}
        assert run_fb(S, tb, z(tb, *pick)) == 0
        assert S["unit_pos"][0, MILITIA] == z(tb, *pick)


def test_move_costs_and_passing_friendly_units(tb):
    """LB "Moving into hindering & covering terrain": woods cost 2 zones of movement; LB
    "Not enough movement left"; R17: a unit may pass a friendly unit's zone but not end in it."""
    S = started(tb)
    scratch = np.zeros(8, dtype=np.int64)
    best = np.zeros(128, dtype=np.int64)

    def options(u, left):
        pos = S["unit_pos"][0, u]
        n = plays.move_options(S, tb, 0, u, pos, left, False, scratch, best, 8)
        return {int(tb.g_neighbour[pos, scratch[i]]) for i in range(n)}

    put(S, INF, tb, 5, 4, S_)
    assert z(tb, 5, 5) not in options(INF, 1)  # Woods: 2 > 1
    assert z(tb, 5, 5) in options(INF, 2)
    put(S, INF, tb, 3, 3, S_)
    put(S, ARCHER, tb, 3, 4, S_)
    assert z(tb, 3, 4) not in options(INF, 1)  # would have to end in the Archer's zone
    assert z(tb, 3, 4) in options(INF, 2)  # may pass through it
    put(S, MILITIA, tb, 3, 2, N)
    assert z(tb, 3, 2) not in options(INF, 2)  # an enemy's zone: only with contact


def test_time_called_most_units_eliminated_wins(tb):
    """FC "Determine Victory Conditions" / R10: on time the player who eliminated more enemy
    units wins (units, not points); equal counts are a Draw."""
    S = started(tb)
    S["units_lost"][0] = [1, 1]
    flow.time_called(S, tb, 0)
    assert S["winner"][0] == -1 and S["rewards"][0].tolist() == [0.0, 0.0]
    S["units_lost"][0] = [0, 1]
    flow.time_called(S, tb, 0)
    assert S["winner"][0] == 0


def test_the_player_who_did_not_place_first_begins(tb):
    """FC "Begin Play" (no first_turn rule in this scenario)."""
    for seed in range(6):
        S = started(tb, seed)
        assert S["active"][0] == 1 - S["placed_first"][0]
        assert S["turns_of"][0].sum() == 1


def test_multiple_unit_close_combat_loss_of_original_target(tb):
    """LB "Multiple unit close combat": our Infantry entered the Militia's zone from the north,
    then their Infantry entered it from the south against ours. When the Militia is
    Eliminated, our Infantry has lost its original target while an enemy remains: it moves
    back to its entry zone; their Infantry is then alone and holds the zone."""
    S = started(tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 3, S_, entry=(3, 2))
    put(S, EINF, tb, 3, 3, N, entry=(3, 4))
    S["unit_cc_target"][0, INF] = MILITIA
    S["unit_cc_target"][0, EINF] = INF
    combat.eliminate(S, tb, 0, MILITIA)
    assert S["unit_pos"][0, INF] == z(tb, 3, 2) and S["unit_entry"][0, INF] == -1
    assert S["unit_pos"][0, EINF] == z(tb, 3, 3) and S["unit_entry"][0, EINF] == -1
    assert invariants.check(S, tb, 0) == ""


def test_friendly_units_left_alone_in_a_zone_their_side_picks_who_remains(tb):
    """LB "Loss of original target" Note: several friendly units and no enemy left in a zone,
    none of them there from the start: their side picks the one that remains; the others move
    back out to the zones they entered from."""
    for keep, other, back in ((INF, ARCHER, (2, 3)), (ARCHER, INF, (3, 2))):
        S = started(tb)
        put(S, MILITIA, tb, 3, 3, N)
        put(S, INF, tb, 3, 3, S_, entry=(3, 2))
        put(S, ARCHER, tb, 3, 3, E, entry=(2, 3))
        S["unit_cc_target"][0, [INF, ARCHER]] = MILITIA
        combat.eliminate(S, tb, 0, MILITIA)
        assert S["settle_zone"][0] == z(tb, 3, 3)
        assert invariants.check(S, tb, 0) == ""
        S["stage"][0] = A.STAGE_RUN
        turn.advance(S, tb, 0)
        assert S["stage"][0] == A.STAGE_STAYER and S["current"][0] == 0
        assert set(legal(S, tb)) == {A.A_UNIT + INF, A.A_UNIT + ARCHER}
        turn.apply_action(S, tb, 0, A.A_UNIT + keep)
        assert S["unit_pos"][0, keep] == z(tb, 3, 3) and S["unit_entry"][0, keep] == -1
        assert S["unit_pos"][0, other] == z(tb, *back)
        assert S["settle_zone"][0] == -1


def test_a_falling_back_unit_can_be_interrupted_where_it_moves(tb):
    """I3 (enemy_unit_moves: "from any card or a Fall Back"): after each position a unit
    enters while Falling Back, its opponent is asked; Opportunity Fire is offered there."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, ARCHER, tb, 3, 0, S_)
    put(S, MILITIA, tb, 3, 2, N)
    hand(S, 0, [6, 9, *DEAD[:4]])  # Fire; Assault | Opportunity Fire
    hand(S, 1, list(DEAD) + [57])
    stack_top(S, 0, [NO_EFFECT])  # Moderate Ranged on Light Protection: No Effect + 1 = Fall Back
    turn.apply_action(S, tb, 0, A.A_ACTION + 6)
    turn.apply_action(S, tb, 0, A.A_UNIT + ARCHER)
    turn.apply_action(S, tb, 0, A.A_PASS)  # Cancel window
    turn.apply_action(S, tb, 0, A.A_UNIT + MILITIA)
    turn.apply_action(S, tb, 0, A.A_PASS)  # ranged_attack_on_unit window
    assert S["unit_pos"][0, MILITIA] == z(tb, 3, 3)  # fell back one zone (Short = 1)
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 0
    assert S["win_unit"][0] == MILITIA and S["win_trigger"][0] == plays.TRIG_ENEMY_MOVES
    assert A.A_SITUATION + 9 in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["fb_unit"][0] == -1 and S["unit_pos"][0, MILITIA] == z(tb, 3, 3)
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1  # after the Fire card
    assert invariants.check(S, tb, 0) == ""


@pytest.mark.parametrize(("pick", "other"), [(MILITIA, EINF), (EINF, MILITIA)])
def test_moving_into_a_multi_unit_close_combat_the_player_picks_the_target(tb, pick, other):
    """LB "Multiple unit close combat: moving into": our Infantry Assaults into a zone where
    their Militia and Infantry are in Close Combat with our Archer; it is positioned in contact
    with the target its player picks (a decision, not the first occupant). Losing that target
    later moves it back out; losing the other does not (LB "Loss of original target")."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, ARCHER, tb, 3, 3, N)
    put(S, MILITIA, tb, 3, 3, N, entry=(3, 4))
    put(S, EINF, tb, 3, 3, W, entry=(4, 3))
    S["unit_cc_target"][0, [MILITIA, EINF]] = ARCHER
    put(S, INF, tb, 3, 2, S_)
    hand(S, 0, [2, *DEAD[:5]])  # Assault
    hand(S, 1, list(DEAD))
    turn.apply_action(S, tb, 0, A.A_ACTION + 2)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    turn.apply_action(S, tb, 0, A.A_POS + z(tb, 3, 3))
    assert S["stage"][0] == A.STAGE_WINDOW  # their enemy_contact window
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_CC_TARGET and S["current"][0] == 0
    assert set(legal(S, tb)) == {A.A_UNIT + MILITIA, A.A_UNIT + EINF}
    assert invariants.check(S, tb, 0) == ""
    turn.apply_action(S, tb, 0, A.A_UNIT + pick)
    assert S["unit_cc_target"][0, INF] == pick
    assert S["unit_entry"][0, INF] == z(tb, 3, 2)
    assert S["stage"][0] == A.STAGE_TARGET  # the Assault's Melee Attack goes on
    combat.eliminate(S, tb, 0, other)
    assert S["unit_pos"][0, INF] == z(tb, 3, 3)  # still in contact with its target
    combat.eliminate(S, tb, 0, pick)
    assert S["unit_pos"][0, INF] == z(tb, 3, 2) and S["unit_entry"][0, INF] == -1


def test_entering_a_zone_of_one_enemy_asks_no_target_choice(tb):
    """With one enemy in the zone entered there is nothing to choose: it is the target."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 2, S_)
    hand(S, 0, [2, *DEAD[:5]])  # Assault
    hand(S, 1, list(DEAD))
    for a in (A.A_ACTION + 2, A.A_UNIT + INF, A.A_PASS, A.A_POS + z(tb, 3, 3), A.A_PASS):
        turn.apply_action(S, tb, 0, a)
    assert S["stage"][0] == A.STAGE_TARGET
    assert S["unit_cc_target"][0, INF] == MILITIA


@pytest.mark.parametrize("pick", [(2, 3), (4, 3), (3, 4)])
def test_moving_out_between_equally_near_zones_the_owner_picks(tb, pick):
    """R18: our Infantry lost its original target (the Militia, Eliminated) while their
    Infantry remains; its entry zone holds our Archer, so it moves to an empty zone next to the
    shared one, nearest its entry zone. Three are equally near: its owner picks (a decision
    asked of seat 0), then their Infantry holds the zone alone."""
    S = started(tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 3, S_, entry=(3, 2))
    put(S, EINF, tb, 3, 3, N, entry=(3, 4))
    put(S, ARCHER, tb, 3, 2, S_)
    S["unit_cc_target"][0, INF] = MILITIA
    S["unit_cc_target"][0, EINF] = INF
    combat.eliminate(S, tb, 0, MILITIA)
    assert S["out_unit"][0] == INF and S["unit_pos"][0, INF] == z(tb, 3, 3)
    assert invariants.check(S, tb, 0) == ""
    assert invariants.check_codes(S, tb, 0) == invariants.OK
    S["stage"][0] = A.STAGE_RUN
    turn.advance(S, tb, 0)
    assert S["stage"][0] == A.STAGE_MOVE_OUT and S["current"][0] == 0
    assert set(legal(S, tb)) == {
        A.A_POS + z(tb, 2, 3),
        A.A_POS + z(tb, 4, 3),
        A.A_POS + z(tb, 3, 4),
    }
    turn.apply_action(S, tb, 0, A.A_POS + z(tb, *pick))
    assert S["unit_pos"][0, INF] == z(tb, *pick) and S["unit_entry"][0, INF] == -1
    assert S["unit_pos"][0, EINF] == z(tb, 3, 3) and S["unit_entry"][0, EINF] == -1
    assert S["out_unit"][0] == -1
    assert invariants.check(S, tb, 0) == ""


def test_friendly_units_left_alone_then_equal_zones_the_side_picks_both(tb):
    """LB "Loss of original target" Note then R18: our Infantry and Archer are left alone in
    the zone; we keep the Archer; the Infantry's entry zone is taken (their Infantry), so we
    also pick which of the equally near zones it moves out to."""
    S = started(tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 3, S_, entry=(3, 2))
    put(S, ARCHER, tb, 3, 3, E, entry=(2, 3))
    put(S, EINF, tb, 3, 2, S_)
    S["unit_cc_target"][0, [INF, ARCHER]] = MILITIA
    combat.eliminate(S, tb, 0, MILITIA)
    S["stage"][0] = A.STAGE_RUN
    turn.advance(S, tb, 0)
    assert S["stage"][0] == A.STAGE_STAYER
    turn.apply_action(S, tb, 0, A.A_UNIT + ARCHER)
    assert S["stage"][0] == A.STAGE_MOVE_OUT and S["current"][0] == 0
    assert set(legal(S, tb)) == {
        A.A_POS + z(tb, 2, 3),
        A.A_POS + z(tb, 4, 3),
        A.A_POS + z(tb, 3, 4),
    }
    assert invariants.check(S, tb, 0) == ""
    turn.apply_action(S, tb, 0, A.A_POS + z(tb, 4, 3))
    assert S["unit_pos"][0, INF] == z(tb, 4, 3)
    assert S["unit_pos"][0, ARCHER] == z(tb, 3, 3) and S["unit_entry"][0, ARCHER] == -1
    assert invariants.check(S, tb, 0) == ""


def test_a_unit_that_moved_out_may_re_enter_against_another_target(tb):
    """LB "Multiple unit close combat: re-entering a zone": our Infantry moved back out when
    its target (the Militia) was Eliminated; with an Assault (the normal means) it may move
    back into the zone against their Infantry, now its target."""
    S = started(tb)
    _seat0_main(S, tb)
    put(S, MILITIA, tb, 3, 3, N)
    put(S, INF, tb, 3, 3, S_, entry=(3, 2))
    put(S, EINF, tb, 3, 3, N, entry=(3, 4))
    S["unit_cc_target"][0, INF] = MILITIA
    S["unit_cc_target"][0, EINF] = INF
    combat.eliminate(S, tb, 0, MILITIA)
    assert S["unit_pos"][0, INF] == z(tb, 3, 2)
    hand(S, 0, [2, *DEAD[:5]])  # Assault
    hand(S, 1, list(DEAD))
    turn.apply_action(S, tb, 0, A.A_ACTION + 2)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert A.A_POS + z(tb, 3, 3) in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_POS + z(tb, 3, 3))
    turn.apply_action(S, tb, 0, A.A_PASS)  # their enemy_contact window
    assert S["unit_pos"][0, INF] == z(tb, 3, 3) and S["unit_cc_target"][0, INF] == EINF
    assert S["unit_entry"][0, INF] == z(tb, 3, 2)
    assert invariants.check(S, tb, 0) == ""
