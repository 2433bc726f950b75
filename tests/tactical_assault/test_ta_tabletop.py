"""The Tactical Assault core on the Fantasy Cards tabletop (FC reading R28): whole random
Standard Games with every invariant, deployment a Medium Distance apart, contact by
neighbouring cells (moves, Close Combat, Aerial attacks), LOS over template terrain, Fall
Back along the attack line."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from ta_helpers import card_with, hand, legal, stack_top, started

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fantasy_cards"))
from fc_tabletop_helpers import tb_of, unit  # noqa: E402

from envs.fantasy_cards import tabletop as tt  # noqa: E402
from envs.tactical_assault import actions as A  # noqa: E402
from envs.tactical_assault import combat, flow, geometry, invariants, plays, state, turn  # noqa: E402

C = tt.cell
D = {name: k for k, name in enumerate(tt.DIRECTIONS)}
INF0, AER0, INF1, ARCH1 = 0, 1, 2, 3


@pytest.fixture(scope="module")
def duel(tmp_path_factory):
    """Side 0: INFANTRY at (5, 5) facing E; side 1: INFANTRY at (9, 5) facing W, ARCHER at
    (12, 12); a Woods cell at (7, 9), a Wheat Field at (7, 12)."""
    rows = [" ".join(["."] * 16)] * 16
    grid = [r.split() for r in rows]
    grid[9][7] = "W"
    grid[12][7] = "F"
    return tb_of(
        tmp_path_factory.mktemp("duel"),
        rows=[" ".join(r) for r in grid],
        units0=[unit("INFANTRY", 5, 5, "E"), {"type": "AERIAL"}],
        units1=[unit("INFANTRY", 9, 5, "W"), unit("ARCHER", 12, 12, "W")],
    )


def _main_of(S, tb, p):
    """Make seat p the active player at its main decision."""
    if int(S["active"][0]) != p:
        flow.start_turn(S, tb, 0, p)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


def _pass_windows(S, tb):
    while S["stage"][0] == A.STAGE_WINDOW:
        turn.apply_action(S, tb, 0, A.A_PASS)


def test_random_standard_games_keep_every_invariant(standard):
    """Random whole Standard Games (forces chosen by points, deployment, turns, victory) on the
    tabletop: every invariant after every decision, units never share a cell with an enemy."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, standard, 0, 2026, 0, 300, out)
    assert (games, bad, code) == (300, -1, invariants.OK)
    assert decisions > 300 * 300


def test_deployment_alternates_a_medium_distance_from_the_enemy(standard):
    """FC "Deploy Forces": the first unit anywhere; the players alternate, each later unit at
    least a Medium Distance (4 cells) from every enemy unit (R18), while such a cell exists."""
    S = state.allocate(1)
    flow.reset_game(S, standard, 0, 7, 0)
    infantry = A.A_UNIT + tt._fc_tables().unit_type_index["INFANTRY"]
    while S["stage"][0] == A.STAGE_CHOOSE_FORCE:  # 12 INFANTRY (3 points) each
        ok = legal(S, standard)
        turn.apply_action(S, standard, 0, infantry if infantry in ok else A.A_PASS)
    seats, checked = [], 0
    while S["deploying"][0] == flow.DEPLOY_START:
        p = int(S["current"][0])
        seats.append(p)
        turn.apply_action(S, standard, 0, legal(S, standard)[0])  # the unit
        opts = [a - A.A_POS for a in legal(S, standard)]
        enemies = [
            int(S["unit_pos"][0, v])
            for v in range(state.MAX_UNITS)
            if S["unit_where"][0, v] == state.WHERE_ON and S["unit_side"][0, v] == 1 - p
        ]
        if not enemies:
            assert len(opts) == 256 - sum(S["unit_where"][0] == state.WHERE_ON)
        far = [z for z in range(256) if all(standard.g_dist[z, e] >= 8 for e in enemies)]
        if any(z in far and S["unit_pos"][0].tolist().count(z) == 0 for z in range(256)):
            assert all(z in far for z in opts)
            checked += 1
        turn.apply_action(S, standard, 0, A.A_POS + opts[len(opts) // 2])
        if S["stage"][0] == A.STAGE_FACING:
            turn.apply_action(S, standard, 0, legal(S, standard)[0])
    assert seats[:6] == [seats[0], 1 - seats[0]] * 3
    assert checked >= 4


def test_a_move_never_contacts_an_enemy_unless_the_card_allows_it(duel):
    """FC "Contacting Enemy Units", "Moving Through Enemy Units" on the tabletop (R31):
    Cautious Advance may not enter a cell next to an enemy; Assault may, and its move stops
    there: the units are in Close Combat in neighbouring cells, never in one cell, and the
    Melee Attack follows (FC "Melee Attacks" Step 1)."""
    S = started(duel)
    _main_of(S, duel, 0)
    ca = card_with(action="Cautious Advance")
    assault = card_with(action="Assault")
    hand(S, 0, [ca, assault])
    S["unit_pos"][0, INF0] = C(7, 5)  # two cells from the enemy at (9, 5)
    turn.apply_action(S, duel, 0, A.A_ACTION + ca)
    turn.apply_action(S, duel, 0, A.A_UNIT + INF0)
    _pass_windows(S, duel)
    assert S["stage"][0] == A.STAGE_MOVE
    opts = {a - A.A_POS for a in legal(S, duel) if a != A.A_PASS}
    assert C(8, 5) not in opts and C(8, 4) not in opts and C(8, 6) not in opts
    assert C(6, 5) in opts and C(7, 4) in opts
    turn.apply_action(S, duel, 0, A.A_PASS)  # stop at once
    turn.apply_action(S, duel, 0, A.A_FACING + D["E"])
    _pass_windows(S, duel)
    S["unit_acted"][0, INF0] = 0
    turn.apply_action(S, duel, 0, A.A_ACTION + assault)
    turn.apply_action(S, duel, 0, A.A_UNIT + INF0)
    _pass_windows(S, duel)
    opts = {a - A.A_POS for a in legal(S, duel) if a != A.A_PASS}
    assert {C(8, 4), C(8, 5), C(8, 6)} <= opts
    assert all(z != C(9, 5) for z in opts)  # never into the enemy's cell
    turn.apply_action(S, duel, 0, A.A_POS + C(8, 5))
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1  # enemy_contact
    turn.apply_action(S, duel, 0, A.A_PASS)
    assert S["unit_pos"][0, INF0] == C(8, 5)
    assert plays.in_close_combat(S, duel, 0, INF0) and plays.in_close_combat(S, duel, 0, INF1)
    assert S["stage"][0] == A.STAGE_TARGET and legal(S, duel) == [A.A_UNIT + INF1]
    assert invariants.check(S, duel, 0) == ""


def test_an_aerial_unit_attacks_from_a_free_cell_next_to_its_target(duel):
    """FC I8, R30 on the tabletop: the Aerial unit's player picks a free cell next to the
    target; it is placed there facing the target, in Close Combat, and withdrawn after."""
    S = started(duel)
    _main_of(S, duel, 0)
    k = card_with(action="Aerial Attack")
    hand(S, 0, [k])
    S["unit_pos"][0, INF0] = C(2, 2)
    S["unit_pos"][0, INF1] = C(0, 5)  # on the West edge: 5 free cells around it
    turn.apply_action(S, duel, 0, A.A_ACTION + k)
    turn.apply_action(S, duel, 0, A.A_UNIT + AER0)
    _pass_windows(S, duel)
    assert S["stage"][0] == A.STAGE_TARGET
    turn.apply_action(S, duel, 0, A.A_UNIT + INF1)
    assert S["stage"][0] == A.STAGE_AERIAL_SIDE
    opts = sorted(a - A.A_POS for a in legal(S, duel))
    assert opts == sorted([C(0, 4), C(1, 4), C(1, 5), C(1, 6), C(0, 6)])
    turn.apply_action(S, duel, 0, A.A_POS + C(1, 4))
    assert S["unit_pos"][0, AER0] == C(1, 4) and S["unit_facing"][0, AER0] == D["SW"]
    assert plays.in_close_combat(S, duel, 0, AER0)
    assert invariants.check(S, duel, 0) == ""


def test_los_over_the_tabletop_terrain_and_units(duel):
    """FC "LOS Crosses Covering Terrain" (blocked), "LOS Crosses Obstructing Terrain" (the
    target is Obstructed), "LOS Crosses Through Any Unit" (blocked), on cells (R28)."""
    occ = plays.new_occ()
    assert geometry.line_of_sight(duel, occ, C(5, 9), C(9, 9)) == 0  # Woods at (7, 9)
    bits = geometry.line_of_sight(duel, occ, C(5, 12), C(9, 12))  # Wheat Field at (7, 12)
    assert bits & geometry.LOS_EXISTS and bits & geometry.LOS_OBSTRUCTED
    assert geometry.line_of_sight(duel, occ, C(5, 3), C(9, 3)) == geometry.LOS_EXISTS
    occ[C(7, 3)] = 1
    assert geometry.line_of_sight(duel, occ, C(5, 3), C(9, 3)) == 0
    # seen past the edge of the Woods: the line clips only the cells it crosses
    assert geometry.line_of_sight(duel, plays.new_occ(), C(5, 10), C(9, 10)) == geometry.LOS_EXISTS


def test_fall_back_moves_a_short_distance_directly_away(duel):
    """Table 6 "Fall Back" (R7) on the tabletop: two cells along the attack line (a Short
    Distance), and the unit keeps its facing (I10)."""
    S = started(duel)
    S["unit_pos"][0, INF0] = C(8, 5)
    S["unit_pos"][0, ARCH1] = C(11, 5)
    combat.apply_result(S, duel, 0, INF0, INF1, 1)
    r = combat.fall_back_step(S, duel, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, duel, 0, -1)
    assert S["unit_pos"][0, INF1] == C(10, 5)  # stopped short of the Archer at (11, 5)
    assert S["unit_facing"][0, INF1] == D["W"]
    S["unit_pos"][0, INF1] = C(9, 5)
    S["unit_pos"][0, ARCH1] = C(12, 12)
    combat.apply_result(S, duel, 0, INF0, INF1, 1)
    r = combat.fall_back_step(S, duel, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, duel, 0, -1)
    assert S["unit_pos"][0, INF1] == C(11, 5)


def test_a_friendly_war_machine_lets_a_unit_cross_a_cliff_on_the_tabletop(tmp_path):
    """FC "War Machine" NOTE on the tabletop: a friendly War Machine in contact with the
    linear terrain (on either side of the cell edge) lets a unit cross it, even Impassable."""
    tb = tb_of(
        tmp_path,
        linear_terrain=[{"terrain": "Cliff", "sides": [[5, 5, "N"]]}],
        units0=[unit("INFANTRY", 5, 5, "N"), unit("WAR MACHINE", 5, 4, "S")],
        units1=[unit("INFANTRY", 12, 12, "N")],
    )
    S = started(tb)
    assert plays.crossing_cost(S, tb, 0, 0, C(5, 5), D["N"]) == 2
    assert plays.crossing_cost(S, tb, 0, 1, C(5, 4), D["S"]) == -1  # not through itself
    S["unit_pos"][0, 1] = C(9, 9)
    assert plays.crossing_cost(S, tb, 0, 0, C(5, 5), D["N"]) == -1


@pytest.fixture(scope="module")
def terrain(tmp_path_factory):
    """A Woods template 4 x 3 at cols 6-9, rows 2-4; a Swamp at (7, 7); a High (3) Gradual
    hill at cols 0-1, rows 9-11; single Woods cells at (3, 10), (3, 12) and (2, 13)."""
    grid = [["."] * 16 for _ in range(16)]
    for c in range(6, 10):
        for r in range(2, 5):
            grid[r][c] = "W"
    grid[7][7] = "S"
    grid[10][3] = grid[12][3] = grid[13][2] = "W"
    elev = [["0"] * 16 for _ in range(16)]
    for c in (0, 1):
        for r in (9, 10, 11):
            elev[r][c] = "3g"
    return tb_of(
        tmp_path_factory.mktemp("terrain"),
        rows=[" ".join(r) for r in grid],
        elevation="\n".join(" ".join(r) for r in elev) + "\n",
    )


EX, OB, CO = geometry.LOS_EXISTS, geometry.LOS_OBSTRUCTED, geometry.LOS_IN_COVER


@pytest.mark.parametrize(
    ("a", "b", "want"),
    [
        ((3, 3), (6, 3), EX | CO),  # "LOS Enters Covering Terrain Template": at its edge
        ((3, 3), (7, 3), 0),  # ... deeper in: the line crosses the Woods first
        ((6, 3), (8, 3), EX | CO),  # "... Drawn Within ...": same Woods, a Short Distance
        ((6, 3), (9, 3), 0),  # ... three cells apart: more than a Short Distance
        ((6, 3), (3, 3), EX),  # "LOS Exits Covering Terrain Template": from its edge
        ((7, 3), (3, 3), 0),  # ... from deeper in
        ((5, 7), (9, 7), EX),  # "LOS Crosses Any Hindering Terrain": no effect
        ((1, 10), (6, 10), EX),  # "... To Or From Elevated Terrain": High over Medium Woods
        ((1, 12), (6, 12), 0),  # the same Woods seen from the ground blocks
        ((0, 8), (0, 12), 0),  # "Elevated Terrain": the hill between two Low units blocks
        ((0, 13), (4, 14), EX | OB),  # only a corner of the target is seen: Obstructed
        ((0, 13), (4, 13), 0),  # no part of it
    ],
)
def test_los_cases_of_part_v_on_the_tabletop(terrain, a, b, want):
    """FC PART V "Determining Line Of Sight" and its cases, centre to centre between cells,
    terrain under a cell's centre applying to the whole cell (R28)."""
    assert geometry.line_of_sight(terrain, plays.new_occ(), C(*a), C(*b)) == want


def test_a_move_passes_through_a_friend_and_may_end_next_to_one(tmp_path):
    """FC "Moving Through Friendly Units" (no reduction of distance), "Sharing Space" (never
    ending on one) and "Contacting Friendly Units" (ending in contact is fine) on cells."""
    tb = tb_of(
        tmp_path,
        units0=[unit("INFANTRY", 5, 5, "E"), unit("ARCHER", 6, 5, "E")],
        units1=[unit("INFANTRY", 12, 12, "N")],
    )
    S = started(tb)
    _main_of(S, tb, 0)
    ca = card_with(action="Cautious Advance")  # a Short Distance: 4 half-cells
    hand(S, 0, [ca])
    turn.apply_action(S, tb, 0, A.A_ACTION + ca)
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    _pass_windows(S, tb)
    assert A.A_POS + C(6, 5) in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_POS + C(6, 5))  # declared through the Archer's cell
    opts = legal(S, tb)
    assert A.A_PASS not in opts  # the path may not end on the Archer
    assert A.A_POS + C(7, 5) in opts  # 2 + 2 half-cells: the friend cost nothing extra
    assert A.A_POS + C(7, 6) not in opts  # a diagonal (3) does not fit in what is left
    turn.apply_action(S, tb, 0, A.A_POS + C(7, 5))
    assert legal(S, tb) == [A.A_PASS]  # the movement is spent; the path ends by the Archer
    turn.apply_action(S, tb, 0, A.A_PASS)
    _pass_windows(S, tb)  # walked: the opponent asked at each cell
    assert S["unit_pos"][0, 0] == C(7, 5) and S["unit_pos"][0, 1] == C(6, 5)
    assert invariants.check(S, tb, 0) == ""


def _cards(result: str, n: int, but: set[int]) -> list[int]:
    fc = tt._fc_tables()
    out = [k for k in range(72) if fc.result_names[fc.card_result[k]] == result and k not in but]
    return out[:n]


def test_a_target_point_drifts_then_attacks_every_unit_in_its_radius(tmp_path):
    """FC I14 with I6, R16, R7 on the tabletop. An Artillery unit at (4, 8) places the point
    at (12, 8), its Long Range Distance; the drift card is No Effect: a Short Distance towards
    the attacker, to (10, 8). The INFANTRY at (10, 9) (a Very Short Distance away) and the
    MILITIA at (11, 7) (1.4 cells: only its base is reached, Extreme Range) are attacked, each
    with its own card, in slot order; the CIVILIAN on the placed point (two cells from the
    final one) is not. The INFANTRY's Fall Back moves directly away from the point."""
    tb = tb_of(
        tmp_path,
        units0=[unit("ARTILLERY", 4, 8, "E")],
        units1=[
            unit("INFANTRY", 10, 9, "N"),
            unit("MILITIA", 11, 7, "S"),
            unit("CIVILIAN", 12, 8, "W"),
        ],
    )
    S = started(tb)
    _main_of(S, tb, 0)
    bomb = card_with(action="Bombard")
    hand(S, 0, [bomb])
    drift = _cards("No Effect", 1, {bomb})[0]
    inf_card = _cards("No Effect", 2, {bomb})[1]  # +1 (Very Heavy on Moderate): Fall Back
    mil_card = _cards("Shaken", 1, {bomb})[0]  # +1 (on Light) -1 (Extreme Range): Shaken
    stack_top(S, 0, [mil_card, inf_card, drift])
    turn.apply_action(S, tb, 0, A.A_ACTION + bomb)
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    _pass_windows(S, tb)
    assert S["stage"][0] == A.STAGE_TARGET_POINT
    opts = {a - A.A_POS for a in legal(S, tb)}
    assert C(12, 8) in opts and C(13, 8) not in opts  # 8 cells: Long; 9 is beyond
    assert C(3, 8) not in opts  # behind it: outside its LOS Arc
    turn.apply_action(S, tb, 0, A.A_POS + C(12, 8))
    assert S["card_place"][0, 0, drift] == state.PLACE_DISCARD
    assert S["stage"][0] == A.STAGE_WINDOW and S["win_unit"][0] == 1  # INFANTRY's owner
    _pass_windows(S, tb)  # the ranged window, then the Fall Back's windows
    assert S["unit_pos"][0, 1] == C(10, 11)  # two cells straight away from (10, 8)
    assert S["win_unit"][0] == 2 or S["stage"][0] != A.STAGE_WINDOW
    _pass_windows(S, tb)
    assert S["unit_status"][0, 2] == state.STATUS_SHAKEN
    assert S["unit_status"][0, 1] == 0 and S["unit_status"][0, 3] == 0
    assert S["card_place"][0, 0, inf_card] == S["card_place"][0, 0, mil_card]
    assert S["card_place"][0, 0, mil_card] == state.PLACE_DISCARD
    assert S["unit_pos"][0, 3] == C(12, 8)
    assert invariants.check(S, tb, 0) == ""


def test_no_unit_is_placed_where_a_falling_back_unit_goes_back_regression(standard):
    """Fuzz find (seed 2026, game 47375): a unit Falling Back (Opportunity Fire) through a
    friend's cell is Swooped on; the Aerial unit was placed in the cell the Fall Back began
    in, and when the Aerial attack's own Fall Back ended the first one there, the two enemies
    shared the cell. That cell is now kept for it (plays.reserved)."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    assert invariants.fuzz(S, standard, 0, 2026, 47375, 1, out)[2:] == (-1, invariants.OK)
