"""The special characteristics of unit types (FC PART III "Unit Type & Characteristics"):
the War Machine's linear-terrain rule (FC "War Machine" NOTE; LB reading R21)."""

from __future__ import annotations

import numpy as np
import pytest
from ta_helpers import card_with, hand, legal, record, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, plays, state, turn

ROWS = [". . . . . . ."] * 7
OURS = [
    {"type": "INFANTRY", "label": "I", "zone": [0, 0], "facing": "S"},
    {"type": "WAR MACHINE", "label": "W", "zone": [1, 0], "facing": "S"},
]
THEIRS = [
    {"type": "INFANTRY", "label": "i", "zone": [0, 6], "facing": "N"},
    {"type": "WAR MACHINE", "label": "w", "zone": [1, 6], "facing": "N"},
]
INF, WM, EINF, EWM = 0, 1, 2, 3
N, E, S_, W = 0, 1, 2, 3
ADVANCE = card_with(action="Advance")
DEAD = (13, 10, 35, 38, 57, 53)


@pytest.fixture(scope="module")
def tbs(tmp_path_factory):
    """Two maps: a Cliff (impassable linear terrain) and a Wall (+1 to cross) along the south
    side of zone (3, 3)."""
    return {
        name: record(
            ROWS,
            tmp_path_factory.mktemp(name),
            units0=OURS,
            units1=THEIRS,
            linear=[{"terrain": name, "sides": [[3, 3, "S"]]}],
        )
        for name in ("Cliff", "Wall")
    }


def z(c, r):
    return r * 7 + c


def put(S, u, c, r, facing=S_):
    S["unit_where"][0, u] = state.WHERE_ON
    S["unit_pos"][0, u] = z(c, r)
    S["unit_facing"][0, u] = facing


@pytest.mark.parametrize(
    ("terrain", "machine", "at", "mover", "want"),
    [
        ("Cliff", None, None, INF, -1),  # impassable linear terrain
        ("Cliff", WM, (3, 3), INF, 1),  # a friendly War Machine on this side of it
        ("Cliff", WM, (3, 4), INF, 1),  # ... or on the far side
        ("Cliff", EWM, (3, 4), INF, -1),  # an enemy War Machine does not help
        ("Cliff", WM, (2, 3), INF, -1),  # not in contact with that side
        ("Cliff", WM, (3, 3), WM, -1),  # the War Machine itself crosses nothing "through" it
        ("Wall", None, None, INF, 2),  # +1 to cross a Wall
        ("Wall", WM, (3, 4), INF, 1),  # its penalty ignored
    ],
)
def test_war_machine_lets_friendly_units_ignore_linear_terrain(
    tbs, terrain, machine, at, mover, want
):
    """FC "War Machine" NOTE: a friendly unit crossing linear terrain through a War Machine
    in contact with it ignores the terrain's movement penalty, even Impassable (R21: the War
    Machine stands in one of the two zones the side separates)."""
    tb = tbs[terrain]
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, 1, 0)
    for u in range(4):
        S["unit_where"][0, u] = state.WHERE_OFF
        S["unit_pos"][0, u] = -1
    if mover == WM:
        put(S, WM, 3, 3)
    else:
        put(S, INF, 3, 2)
    if machine is not None and machine != mover:
        put(S, machine, *at)
    assert plays.crossing_cost(S, tb, 0, mover, z(3, 3), S_) == want


@pytest.mark.parametrize("machine", [False, True])
def test_a_move_crosses_a_cliff_through_a_friendly_war_machine(tbs, machine):
    """An Advance (Medium) from north of the Cliff: without a War Machine the zone beyond it
    is out of reach; with ours standing there the Infantry may pass through it (R17) and end
    beyond."""
    tb = tbs["Cliff"]
    S = started(tb)
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])
    put(S, INF, 3, 3)
    put(S, EINF, 0, 6, N)
    put(S, EWM, 6, 6, N)
    if machine:
        put(S, WM, 3, 4)
    else:
        put(S, WM, 6, 0)
    hand(S, 0, [ADVANCE, *[k for k in DEAD if k != ADVANCE][:5]])
    hand(S, 1, list(DEAD))
    turn.apply_action(S, tb, 0, A.A_ACTION + ADVANCE)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_MOVE
    assert (A.A_POS + z(3, 4) in legal(S, tb)) == machine
    if machine:
        turn.apply_action(S, tb, 0, A.A_POS + z(3, 4))  # declared (FC R41): nothing moves
        assert A.A_PASS not in legal(S, tb)  # the path may not end on the War Machine
        assert A.A_POS + z(3, 5) in legal(S, tb)
        turn.apply_action(S, tb, 0, A.A_POS + z(3, 5))
        turn.apply_action(S, tb, 0, A.A_PASS)  # the path is complete: the walk begins
        assert np.int64(S["unit_pos"][0, INF]) == z(3, 4)
        while S["stage"][0] == A.STAGE_WINDOW:
            turn.apply_action(S, tb, 0, A.A_PASS)
        assert np.int64(S["unit_pos"][0, INF]) == z(3, 5)


INFIL = card_with(situation="Infiltration")
FORCES0 = [
    {"type": "INFANTRY", "label": "I", "zone": [0, 0], "facing": "S"},
    {"type": "INFILTRATOR", "label": "F"},
]
FORCES1 = [
    {"type": "INFANTRY", "label": "i", "zone": [3, 9], "facing": "N"},
    {"type": "MILITIA", "label": "m", "zone": [7, 9], "facing": "N"},
]
F = 1


ROWS10 = [" ".join(["."] * 10)] * 10  # a 10 x 10 map: Short is more than one zone


@pytest.fixture(scope="module")
def tb_inf(tmp_path_factory):
    return record(ROWS10, tmp_path_factory.mktemp("infil"), units0=FORCES0, units1=FORCES1)


def z10(c, r):
    return r * 10 + c


def test_infiltrator_enters_with_infiltration_at_least_short_from_every_enemy(tb_inf):
    """FC "Infiltrator" NOTE and I9: the Infiltrator is not deployed; the Infiltration
    Situation places it anywhere at least a Short Distance from every enemy unit, on no other
    unit, facing any direction; from then on it is an ordinary Ground unit."""
    tb = tb_inf
    S = started(tb)
    assert S["unit_where"][0, F] == state.WHERE_OFF  # never offered at deployment
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])
    hand(S, 0, [INFIL, *[k for k in DEAD if k != INFIL][:5]])
    hand(S, 1, list(DEAD))
    assert A.A_SITUATION + INFIL in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_SITUATION + INFIL)
    assert legal(S, tb) == [A.A_UNIT + F]  # only the Infiltrator can use it
    turn.apply_action(S, tb, 0, A.A_UNIT + F)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_INFILTRATE and S["current"][0] == 0
    short = int(tb.g_dist_units[1])  # Table 2 codes: Very Short 0, Short 1, ...
    assert short >= 2
    on = [v for v in range(4) if S["unit_where"][0, v] == state.WHERE_ON]
    enemies = [int(S["unit_pos"][0, v]) for v in on if S["unit_side"][0, v] == 1]
    taken = {int(S["unit_pos"][0, v]) for v in on}
    want = {
        A.A_POS + q
        for q in range(100)
        if q not in taken and all(int(tb.g_dist[q, e]) >= short for e in enemies)
    }
    got = set(legal(S, tb))
    assert got == want
    assert A.A_POS + z10(3, 8) not in got  # next to their Infantry
    assert A.A_POS + z10(0, 0) not in got  # our Infantry stands there
    assert A.A_POS + z10(5, 9) in got  # between them, a Short Distance from both
    far = z10(9, 0)
    assert A.A_POS + far in got
    turn.apply_action(S, tb, 0, A.A_POS + far)
    assert S["stage"][0] == A.STAGE_FACING
    turn.apply_action(S, tb, 0, A.A_FACING + W)
    assert S["unit_where"][0, F] == state.WHERE_ON and S["unit_pos"][0, F] == far
    assert S["unit_facing"][0, F] == W
    assert S["card_place"][0, 0, INFIL] == state.PLACE_DISCARD
    assert invariants.check(S, tb, 0) == ""


CLEAR = card_with(action="Clear Obstacle")
STAND_TO = card_with(action="Stand To")
FORCES_OB0 = [
    {"type": "INFANTRY", "label": "I", "zone": [0, 0], "facing": "S"},
    {"type": "SAPPER", "label": "S", "zone": [1, 0], "facing": "S"},
    {"type": "OBSTACLE", "label": "O", "zone": [6, 0]},
]
FORCES_OB1 = [
    {"type": "ARCHER", "label": "a", "zone": [0, 6], "facing": "N"},
    {"type": "OBSTACLE", "label": "o", "zone": [6, 6]},
]
OI, OS, OO, OA, OE = 0, 1, 2, 3, 4


@pytest.fixture(scope="module")
def tb_ob(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("obst"), units0=FORCES_OB0, units1=FORCES_OB1)


def _main0(S, tb):
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


@pytest.mark.parametrize("obstacle", [OO, OE])
def test_an_obstacle_is_impassable_to_both_sides_and_takes_no_cards(tb_ob, obstacle):
    """FC "Obstacles" NOTE (LB-3.4.13): no unit enters an Obstacle's zone, friend or foe, with
    or without contact; a friendly ordinary unit's zone may be passed through (R17); an
    Obstacle never has a card played on it."""
    tb = tb_ob
    S = started(tb)
    put(S, OI, 3, 2)
    put(S, obstacle, 3, 3)
    for contact in (False, True):
        assert plays.can_step(S, tb, 0, OI, z(3, 2), S_, 5, contact) == -1
    put(S, obstacle, 6, 6 if obstacle == OE else 0)
    put(S, OS, 3, 3)  # an ordinary friendly unit instead: passable
    assert plays.can_step(S, tb, 0, OI, z(3, 2), S_, 5, False) == 1
    for k in (CLEAR, STAND_TO):
        play = int(tb.card_action[k])
        assert not plays.can_take_cards(S, tb, 0, play, obstacle)
    assert plays.can_take_cards(S, tb, 0, int(tb.card_action[STAND_TO]), OS)


def test_los_through_an_obstacle_is_obstructed_not_blocked(tb_ob):
    """FC "LOS Is Drawn Through An Obstacle": not blocked, the target is Obstructed; through
    an ordinary unit's zone LOS is blocked (LB "LOS through units")."""
    tb = tb_ob
    S = started(tb)
    put(S, OA, 3, 1, S_)
    put(S, OI, 3, 3, N)
    put(S, OO, 3, 2)
    occ = plays.new_occ()
    plays.occupancy(S, tb, 0, occ)
    from envs.fantasy_cards.tables import RANGE_DISTANCE_CODE
    from envs.tactical_assault.geometry import LOS_EXISTS, LOS_OBSTRUCTED

    bits = plays.sight(S, tb, 0, occ, OA, OI, RANGE_DISTANCE_CODE)
    assert bits & LOS_EXISTS and bits & LOS_OBSTRUCTED
    put(S, OO, 6, 0)
    put(S, OS, 3, 2)  # a Sapper there instead blocks LOS
    plays.occupancy(S, tb, 0, occ)
    assert plays.sight(S, tb, 0, occ, OA, OI, RANGE_DISTANCE_CODE) == 0


def test_a_sapper_clears_an_obstacle_within_a_short_distance(tb_ob):
    """FC "Sappers", I13: Clear Obstacle removes one Obstacle (either side) whose centre is
    within a Short Distance of the Sapper; its player picks which; the Obstacle is removed, not
    Eliminated (no points or units lost, R2). Out of reach the card is not offered."""
    tb = tb_ob
    S = started(tb)
    _main0(S, tb)
    hand(S, 0, [CLEAR, *[k for k in DEAD if k != CLEAR][:5]])
    hand(S, 1, list(DEAD))
    put(S, OS, 3, 6, N)  # far from both Obstacles
    assert A.A_ACTION + CLEAR not in legal(S, tb)
    short = int(tb.g_dist_units[1])
    put(S, OS, 6, 6 - short - 1 if 6 - short - 1 >= 0 else 0, N)
    if tb.g_dist[int(S["unit_pos"][0, OS]), z(6, 6)] > short:
        assert A.A_ACTION + CLEAR not in legal(S, tb)
    put(S, OS, 6, 5, N)  # next to their Obstacle
    lost = S["points_lost"][0].copy(), S["units_lost"][0].copy()
    turn.apply_action(S, tb, 0, A.A_ACTION + CLEAR)
    turn.apply_action(S, tb, 0, A.A_UNIT + OS)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_TARGET and legal(S, tb) == [A.A_UNIT + OE]
    turn.apply_action(S, tb, 0, A.A_UNIT + OE)
    assert S["unit_where"][0, OE] == state.WHERE_OFF and S["unit_pos"][0, OE] == -1
    assert (S["points_lost"][0] == lost[0]).all() and (S["units_lost"][0] == lost[1]).all()
    assert S["unit_where"][0, OO] == state.WHERE_ON
    assert invariants.check(S, tb, 0) == ""


def test_an_obstacle_is_deployed_like_a_unit_without_a_facing(tmp_path):
    """FC "Obstacles" NOTE: placed at the start of a battle as other units; it has no LOS Arc,
    so no facing is asked after its position."""
    units0 = [FORCES_OB0[0], {"type": "OBSTACLE", "label": "O"}]
    units1 = [{"type": "ARCHER", "label": "a"}]
    tb = record(ROWS, tmp_path, units0=units0, units1=units1)
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, 3, 0)
    for _ in range(20):
        if S["stage"][0] == A.STAGE_DEPLOY_UNIT and A.A_UNIT + 1 in legal(S, tb):
            break
        turn.apply_action(S, tb, 0, legal(S, tb)[0])
    turn.apply_action(S, tb, 0, A.A_UNIT + 1)
    assert S["stage"][0] == A.STAGE_DEPLOY_POS
    turn.apply_action(S, tb, 0, legal(S, tb)[0])
    assert S["unit_where"][0, 1] == state.WHERE_ON
    assert S["stage"][0] != A.STAGE_FACING
    assert invariants.check(S, tb, 0) == ""


AERIAL_ATTACK = card_with(action="Aerial Attack")
FORCES_AIR0 = [
    {"type": "INFANTRY", "label": "I", "zone": [0, 0], "facing": "S"},
    {"type": "AERIAL", "label": "Y"},
]
FORCES_AIR1 = [
    {"type": "MILITIA", "label": "m", "zone": [3, 6], "facing": "N"},
    {"type": "ARCHER", "label": "a", "zone": [6, 6], "facing": "N"},
]
AI, AY, AM, AA = 0, 1, 2, 3
NO_EFFECT, FALL_BACK = 13, 35


@pytest.fixture(scope="module")
def tb_air(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("air"), units0=FORCES_AIR0, units1=FORCES_AIR1)


def test_an_aerial_attack_places_the_unit_attacks_in_melee_and_withdraws_it(tb_air):
    """FC "Aerial" and I8: the Aerial unit is never deployed; Aerial Attack places it in
    contact with any enemy on the battlefield (no range or LOS), partly in the adjacent zone
    its player picks (LB-3.5.5, its entry zone), and it makes a Melee Attack (Table 5: the
    Aerial attacker Up One; Moderate on Light Up One: No Effect + 2 = Shaken); when the card
    has resolved it is withdrawn from the battlefield."""
    from ta_helpers import stack_top

    tb = tb_air
    S = started(tb)
    assert S["unit_where"][0, AY] == state.WHERE_OFF
    _main0(S, tb)
    hand(S, 0, [AERIAL_ATTACK, *[k for k in DEAD if k != AERIAL_ATTACK][:5]])
    hand(S, 1, list(DEAD))
    stack_top(S, 0, [NO_EFFECT])
    turn.apply_action(S, tb, 0, A.A_ACTION + AERIAL_ATTACK)
    assert legal(S, tb) == [A.A_UNIT + AY]
    turn.apply_action(S, tb, 0, A.A_UNIT + AY)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_TARGET
    assert set(legal(S, tb)) == {A.A_UNIT + AM, A.A_UNIT + AA}  # any enemy, no LOS or range
    turn.apply_action(S, tb, 0, A.A_UNIT + AM)
    assert S["stage"][0] == A.STAGE_AERIAL_SIDE and S["current"][0] == 0
    assert set(legal(S, tb)) == {A.A_POS + z(2, 6), A.A_POS + z(4, 6), A.A_POS + z(3, 5)}
    turn.apply_action(S, tb, 0, A.A_POS + z(3, 5))
    assert S["unit_where"][0, AY] == state.WHERE_ON and S["unit_pos"][0, AY] == z(3, 6)
    assert S["unit_entry"][0, AY] == z(3, 5) and S["unit_cc_target"][0, AY] == AM
    assert invariants.check(S, tb, 0) == ""
    while S["stage"][0] == A.STAGE_WINDOW and S["depth"][0] > 0:
        turn.apply_action(S, tb, 0, A.A_PASS)  # the attack's windows
    assert S["unit_status"][0, AM] == state.STATUS_SHAKEN
    assert S["unit_where"][0, AY] == state.WHERE_OFF and S["unit_pos"][0, AY] == -1
    assert S["card_place"][0, 0, AERIAL_ATTACK] == state.PLACE_DISCARD
    assert invariants.check(S, tb, 0) == ""


def test_a_fall_back_result_withdraws_an_aerial_unit_at_once(tb_air):
    """FC "Fall Back" NOTE (Aerial), I8: an Aerial unit that must Fall Back is withdrawn from
    the battlefield (no Fall Back move); its enemy is left alone in the zone."""
    from envs.tactical_assault import combat

    tb = tb_air
    S = started(tb)
    put(S, AM, 3, 6, N)
    put(S, AY, 3, 6, N)
    S["unit_entry"][0, AY] = z(3, 5)
    S["unit_cc_target"][0, AY] = AM
    combat.apply_result(S, tb, 0, AM, AY, combat.FALL_BACK)
    assert S["unit_where"][0, AY] == state.WHERE_OFF and S["fb_unit"][0] == -1
    assert S["unit_pos"][0, AM] == z(3, 6)
    assert invariants.check(S, tb, 0) == ""


def test_an_aerial_units_statuses_stay_with_it_off_the_battlefield(tb_air):
    """FC "Combat Results" NOTE (R15): a Shaken Aerial unit withdrawn keeps its status; off
    the battlefield it may have only a Recover played on it, not another Aerial Attack."""
    from envs.tactical_assault import combat

    tb = tb_air
    S = started(tb)
    put(S, AM, 3, 6, N)
    put(S, AY, 3, 6, N)
    S["unit_entry"][0, AY] = z(3, 5)
    S["unit_status"][0, AY] = state.STATUS_SHAKEN
    combat.withdraw(S, tb, 0, AY)
    assert S["unit_where"][0, AY] == state.WHERE_OFF
    assert S["unit_status"][0, AY] == state.STATUS_SHAKEN
    recover = int(tb.card_action[card_with(action="Recover")])
    assert plays.can_take_cards(S, tb, 0, recover, AY)
    assert not plays.can_take_cards(S, tb, 0, int(tb.card_action[AERIAL_ATTACK]), AY)
