"""Clauses the core already ran without a test of their own: the Golden Rules over whole games
(FC "No Activity Without A Card", "'May' Is Optional"), when a unit moves, Impassable zones,
Fall Back stopping short, terrain in a shared zone, units off the battlefield (the path of a
move laid out whole before it is walked: test_ta_paths.py), and who begins the Standard Game (FC PART I, II, IV, V, VI;
LB PART III)."""

from __future__ import annotations

import numpy as np
import pytest
from ta_helpers import FC, TYPE, hand, legal, record, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import combat, flow, plays, state, turn

ROWS = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . Q .",
    ". . . . . . .",
    ". . . . . W .",
    ". . . . . . .",
]
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
DEAD = (13, 10, 35, 38, 57, 53)  # cards whose Action and Situation do nothing here
ASSAULT = 2  # Assault (move a Short Distance, may end in contact) | Counterattack
ADVANCE = 12  # Advance: move a Medium Distance (2 zones on this map)
RANGE = 5  # plays.RANGE_DISTANCE_CODE


@pytest.fixture(scope="module")
def tb(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("clauses"), units0=OURS, units1=THEIRS)


def z(c, r):
    return r * 7 + c


def put(S, u, c, r, facing, entry=None):
    S["unit_where"][0, u] = state.WHERE_ON
    S["unit_pos"][0, u] = z(c, r)
    S["unit_facing"][0, u] = facing
    S["unit_entry"][0, u] = -1 if entry is None else z(*entry)


def seat0_main(S, tb):
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


def occ_of(S, tb):
    o = plays.new_occ()
    plays.occupancy(S, tb, 0, o)
    return o


def test_an_empty_hand_leaves_every_unit_idle(tb):
    """FC "Overview Of Play" / "When To Move": without a card no unit may act or move; the
    only decision left to a player with no card is to end the turn."""
    S = started(tb)
    p = int(S["active"][0])
    hand(S, p, [])
    assert legal(S, tb) == [A.A_PASS]
    before = S["unit_pos"][0].copy()
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert (S["unit_pos"][0] == before).all()


UNIT_FIELDS = ("unit_where", "unit_pos", "unit_facing", "unit_status")


@pytest.mark.parametrize("ground", ["crossroads", "standard"])
def test_no_unit_acts_without_a_card_in_whole_games(request, ground):
    """The Golden Rules hold for both players through whole random games (FC "Golden Rules",
    "Review Golden Rules", "No Activity Without A Card", "When To Move"): a unit's place,
    facing or status changes only while units are being placed (deployment, reinforcements)
    or while a card is in play (chosen, on the stack, played in a window, or its Fall Back
    running)."""
    tb = request.getfixturevalue(ground)
    rng = np.random.default_rng(7)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    changes = [0, 0]
    for seed in range(4):
        S = state.allocate(1)
        flow.reset_game(S, tb, 0, seed, 0)
        for _ in range(3000):
            turn.advance(S, tb, 0)
            if S["stage"][0] == A.STAGE_GAME_OVER:
                break
            n = turn.legal_actions(S, tb, 0, out)
            a = int(out[rng.integers(n)])
            before = {f: S[f][0].copy() for f in UNIT_FIELDS}
            card_in_play = (
                S["depth"][0] > 0 or S["sel_card"][0] >= 0 or S["fb_unit"][0] >= 0
            ) or S["stage"][0] == A.STAGE_WINDOW
            placing = bool(S["deploying"][0])
            stage = int(S["stage"][0])
            turn.apply_action(S, tb, 0, a)
            changed = any((S[f][0] != before[f]).any() for f in UNIT_FIELDS)
            if changed:
                changes[int(placing or S["deploying"][0])] += 1
                assert card_in_play or placing or S["deploying"][0], (seed, stage, a)
    assert changes[0] > 50 and changes[1] > 10  # units did act (through cards) and were placed


def test_may_is_the_players_choice(tb):
    """FC "'May' Is Optional": an Assault "may end in contact": the enemy's zone, an empty
    zone and stopping are all offered to the moving unit's player, and the opponent's window
    may be passed."""
    S = started(tb)
    seat0_main(S, tb)
    put(S, INF, 3, 2, S_)
    put(S, MILITIA, 3, 3, N)
    hand(S, 0, [ASSAULT, *DEAD[:5]])
    turn.apply_action(S, tb, 0, A.A_ACTION + ASSAULT)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    assert S["stage"][0] == A.STAGE_WINDOW and A.A_PASS in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_MOVE
    got = legal(S, tb)
    assert A.A_POS + z(3, 3) in got  # into contact
    assert A.A_POS + z(2, 2) in got  # elsewhere
    assert A.A_PASS in got  # "up to": stop


def test_no_unit_ever_enters_an_impassable_zone(tb):
    """LB-3.4.7 / FC "Impassable": the Quicksand zone (5, 3) is not standable and is never a
    move option, whatever the movement left, contact or not; a Fall Back stops short of it."""
    S = started(tb)
    assert tb.g_standable[z(5, 3)] == 0
    scratch = np.zeros(8, dtype=np.int64)
    best = np.zeros(plays.MAX_POS, dtype=np.int64)
    put(S, INF, 5, 2, S_)
    for contact in (False, True):
        n = plays.move_options(S, tb, 0, INF, z(5, 2), 6, contact, scratch, best, 8)
        options = {int(tb.g_neighbour[z(5, 2), scratch[i]]) for i in range(n)}
        assert z(5, 3) not in options and z(4, 2) in options


def test_a_fall_back_stops_short_of_a_unit_or_impassable_ground(tb):
    """FC "Fall Back" NOTE (obstruction), reading R36: the route is the attack line;
    Impassable ground on it stops the unit just short; a friend on it is passed, and the unit
    ends on the last zone it entered where it may end."""
    S = started(tb)
    put(S, ARCHER, 5, 0, S_)
    put(S, MILITIA, 5, 2, N)  # the Quicksand (5, 3) is next on its route
    combat.apply_result(S, tb, 0, ARCHER, MILITIA, 1)
    r = combat.fall_back_step(S, tb, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, tb, 0, -1)
    assert S["unit_pos"][0, MILITIA] == z(5, 2) and S["unit_where"][0, MILITIA] == 1
    S = started(tb)
    put(S, ARCHER, 2, 0, S_)
    put(S, MILITIA, 2, 2, N)
    put(S, EINF, 2, 3, N)  # a friend right behind: passed, but the Short Distance (1 zone)
    combat.apply_result(S, tb, 0, ARCHER, MILITIA, 1)  # ends there, so it stays where it was
    r = combat.fall_back_step(S, tb, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, tb, 0, -1)
    assert S["unit_pos"][0, MILITIA] == z(2, 2) and S["unit_pos"][0, EINF] == z(2, 3)


def test_a_target_sharing_a_zone_takes_the_zones_terrain(tb):
    """LB "LOS into a shared zone: terrain effects": the Militia in Close Combat in the Woods
    (5, 5) is In Cover as well as in Close Combat: Moderate Ranged on Light Protection is Up
    One, Down One for each (Table 4), net Down One."""
    S = started(tb)
    put(S, ARCHER, 5, 1, S_)
    put(S, MILITIA, 5, 5, N)
    put(S, INF, 6, 0, S_)
    occ = occ_of(S, tb)
    alone = combat.ranged_shift(S, tb, 0, ARCHER, MILITIA, RANGE, occ)
    put(S, INF, 5, 5, N, entry=(5, 4))
    occ = occ_of(S, tb)
    assert plays.ranged_target_ok(S, tb, 0, occ, ARCHER, MILITIA, RANGE)
    assert alone == 0
    assert combat.ranged_shift(S, tb, 0, ARCHER, MILITIA, RANGE, occ) == -1


def test_units_off_the_battlefield_draw_no_los_to_units_on_it(tb):
    """FC "Units Not On Battlefield & LOS" (R22; LB-3.9.11): a unit off the battlefield neither
    draws LOS to nor is seen by a unit on it, so it is never a Ranged Attack's target."""
    S = started(tb)
    put(S, ARCHER, 3, 0, S_)
    put(S, MILITIA, 3, 3, N)
    occ = occ_of(S, tb)
    assert plays.sight(S, tb, 0, occ, ARCHER, MILITIA, RANGE) != 0
    S["unit_where"][0, MILITIA] = state.WHERE_OFF
    assert plays.sight(S, tb, 0, occ, ARCHER, MILITIA, RANGE) == 0
    assert not plays.ranged_target_ok(S, tb, 0, occ, ARCHER, MILITIA, RANGE)
    S["unit_where"][0, MILITIA] = state.WHERE_ON
    S["unit_where"][0, ARCHER] = state.WHERE_OFF
    assert plays.sight(S, tb, 0, occ, ARCHER, MILITIA, RANGE) == 0


def test_the_standard_game_begins_with_the_player_who_did_not_place_first(standard):
    """FC PART VI "Begin Play" (as PART II): on the tabletop too."""
    INFANTRY = TYPE["INFANTRY"]
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    for seed in range(3):
        S = state.allocate(1)
        flow.reset_game(S, standard, 0, seed, 0)
        for _ in range(400):  # forces of Infantry; deploy at the first place; pass windows
            if S["stage"][0] == A.STAGE_MAIN:
                break
            n = turn.legal_actions(S, standard, 0, out)
            a = int(out[n - 1]) if out[n - 1] == A.A_PASS else int(out[0])
            if S["stage"][0] == A.STAGE_CHOOSE_FORCE and A.A_UNIT + INFANTRY in out[:n]:
                a = A.A_UNIT + INFANTRY
            turn.apply_action(S, standard, 0, a)
        assert S["stage"][0] == A.STAGE_MAIN
        assert S["active"][0] == 1 - S["placed_first"][0]
        assert S["turns_of"][0].sum() == 1


def test_unit_point_values_make_the_force_and_its_losses(tb):
    """FC "Point Value" (Table 3): a side's force is worth its units' point values, and an
    Eliminated unit adds its own value to the points its side has lost."""
    pts = FC.unit_points
    S = started(tb)
    assert S["points_total"][0].tolist() == [
        pts[TYPE["ARCHER"]] + pts[TYPE["INFANTRY"]],
        pts[TYPE["INFANTRY"]] + pts[TYPE["MILITIA"]],
    ]
    combat.eliminate(S, tb, 0, MILITIA)
    assert S["points_lost"][0].tolist() == [0, pts[TYPE["MILITIA"]]]
    combat.eliminate(S, tb, 0, ARCHER)
    assert S["points_lost"][0].tolist() == [pts[TYPE["ARCHER"]], pts[TYPE["MILITIA"]]]
