"""Oversized (multi-zone) units on the core (LB "Zone contents", "Oversized units", "LOS to
oversized units"; reading R28 of Legendary Battles): a Monstrous unit covering three zones in
a column, and Siege of the Ridge Fort played through the env."""

from __future__ import annotations

import numpy as np
import pytest
from ta_helpers import FC, compile_doc, hand, legal, scenario_doc, started

from envs import get_ruleset
from envs.legendary_battles import geometry as geo
from envs.legendary_battles.zones import scenario_record
from envs.tactical_assault import actions as A
from envs.tactical_assault import combat, flow, invariants, plays, state, tables, turn

OPEN = [". . . . . . ."] * 7
OURS = [
    {"type": "ARCHER", "label": "A", "zone": [0, 0], "facing": "S"},
    {"type": "INFANTRY", "label": "I", "zone": [1, 0], "facing": "S"},
]
THEIRS = [
    {"type": "MONSTROUS", "label": "d", "zone": [3, 3], "facing": "N", "footprint": ["N", "S"]},
    {"type": "MILITIA", "label": "m", "zone": [6, 6], "facing": "N"},
]
ARCHER, INF, DRAGON, MILITIA = 0, 1, 2, 3
N, E, S_, W = 0, 1, 2, 3
DEAD = (13, 10, 35, 38, 57, 53)
ASSAULT = 2


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    sa = compile_doc(
        scenario_doc(OPEN, units0=OURS, units1=THEIRS), tmp_path_factory.mktemp("oversized")
    )
    return sa, tables.as_tb(scenario_record(sa, FC))


def z(c, r):
    return r * 7 + c


def put(S, u, c, r, facing=N):
    S["unit_where"][0, u] = state.WHERE_ON
    S["unit_pos"][0, u] = z(c, r)
    S["unit_facing"][0, u] = facing
    S["unit_entry"][0, u] = -1


def test_the_footprint_is_in_the_record_and_every_zone_holds_the_unit(built):
    """LB "Zone contents": each zone holding part of the oversized unit holds a full unit: it
    blocks LOS (occupancy), another unit meets an enemy there (pos_state), holds it."""
    _, tb = built
    assert tb.sc_fp_n[DRAGON] == 2 and tb.sc_fp_n[ARCHER] == 0
    S = started(tb)
    occ = plays.new_occ()
    plays.occupancy(S, tb, 0, occ)
    assert {int(p) for p in np.flatnonzero(occ)} >= {z(3, 2), z(3, 3), z(3, 4)}
    for c, r in ((3, 2), (3, 3), (3, 4)):
        assert plays.covers(S, tb, 0, DRAGON, z(c, r))
        assert plays.pos_state(S, tb, 0, INF, z(c, r)) == 2
    assert not plays.covers(S, tb, 0, DRAGON, z(3, 5))
    assert plays.part_holder(S, tb, 0, INF, z(3, 2)) == DRAGON
    assert plays.part_holder(S, tb, 0, INF, z(3, 3)) == -1  # its centre zone


def test_los_to_an_oversized_unit_matches_the_zone_geometry(built):
    """LB "LOS to oversized units": no part of the unit blocks LOS to its centre zone; LOS
    only to another of its zones makes it Obscured. The kernel agrees with
    geometry.los_to_unit from every free zone, with two other units on the map."""
    sa, tb = built
    g = sa.grid
    S = started(tb)
    put(S, MILITIA, 2, 2)
    put(S, INF, 4, 5)
    centre = z(3, 3)
    unit = [centre, z(3, 2), z(3, 4)]
    seen = {"clear": 0, "obscured": 0, "through_own_part": 0}
    for a in range(g.n_zones):
        if any(plays.covers(S, tb, 0, w, a) for w in (INF, DRAGON, MILITIA)):
            continue
        put(S, ARCHER, a % 7, a // 7)
        occ = plays.new_occ()
        plays.occupancy(S, tb, 0, occ)
        before = occ.copy()
        bits = plays._los_oversized(tb, occ, ARCHER, DRAGON, a, centre)
        assert (occ == before).all()  # restored
        blockers = np.zeros(g.n_zones, dtype=bool)
        blockers[[z(2, 2), z(4, 5), *unit]] = True
        want = geo.los_to_unit(g, sa.los_terrain, a, unit, blockers, int(sa.distances[1]))
        assert bool(bits & plays.LOS_EXISTS) == want.exists, a
        if want.exists:
            assert bool(bits & plays.LOS_OBSTRUCTED) == want.obstructed, a
            seen["obscured" if want.obstructed else "clear"] += 1
        if a in (z(3, 0), z(3, 6)) and want.exists and not want.obstructed:
            seen["through_own_part"] += 1
    assert all(seen.values()), seen


def _options(S, tb, u, left=4):
    scratch = np.zeros(8, dtype=np.int64)
    best = np.zeros(plays.MAX_POS, dtype=np.int64)
    pos = S["unit_pos"][0, u]
    n = plays.move_options(S, tb, 0, u, pos, left, False, scratch, best, 8)
    return {int(tb.g_neighbour[pos, scratch[i]]) for i in range(n)}


def test_an_oversized_unit_moves_only_where_all_its_zones_fit(built):
    """LB R28: the centre zone pays the move; each other zone must be on the map, standable and
    hold no other unit, friend or enemy."""
    _, tb = built
    S = started(tb)
    assert _options(S, tb, DRAGON) == {z(3, 2), z(4, 3), z(2, 3), z(3, 4)}
    put(S, INF, 4, 2)  # an enemy where the north part would go moving east
    put(S, MILITIA, 3, 0)  # a friend two zones north: moving north its part would cover it?
    assert z(4, 3) not in _options(S, tb, DRAGON)
    assert z(3, 2) in _options(S, tb, DRAGON)  # north part onto (3, 1): free
    put(S, MILITIA, 3, 1)
    assert z(3, 2) not in _options(S, tb, DRAGON)  # a friend under the north part
    put(S, DRAGON, 3, 1)
    assert z(3, 0) not in _options(S, tb, DRAGON)  # the north part would leave the map


def test_a_unit_entering_any_zone_of_it_shares_its_centre_zone_in_close_combat(built):
    """LB "Zone contents" and "Entering close combat" (R28): our Infantry's Assault enters the
    north part (3, 2); it is recorded in the centre zone (3, 3) with (3, 1) as its entry zone,
    in Close Combat with the Monstrous unit, and attacks it."""
    _, tb = built
    S = started(tb)
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])
    put(S, INF, 3, 1, S_)
    hand(S, 0, [ASSAULT, *DEAD[:5]])
    turn.apply_action(S, tb, 0, A.A_ACTION + ASSAULT)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    assert S["stage"][0] == A.STAGE_MOVE and A.A_POS + z(3, 2) in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_POS + z(3, 2))
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1  # enemy_contact
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_pos"][0, INF] == z(3, 3) and S["unit_entry"][0, INF] == z(3, 1)
    assert plays.in_contact(S, tb, 0, INF, DRAGON)
    assert S["stage"][0] == A.STAGE_TARGET and legal(S, tb) == [A.A_UNIT + DRAGON]
    assert invariants.check(S, tb, 0) == ""


def test_a_footprint_falls_back_only_where_it_fits(built):
    """LB "Fall back movement" with a footprint (R28): the centre follows the route; a unit
    under the zone another part would enter stops it short."""
    _, tb = built
    S = started(tb)
    put(S, ARCHER, 3, 0, S_)
    combat.apply_result(S, tb, 0, ARCHER, DRAGON, 1)
    r = combat.fall_back_step(S, tb, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, tb, 0, -1)
    moved = int(S["unit_pos"][0, DRAGON])
    assert moved in (z(3, 4), z(3, 5))  # away along the column (a Short Distance)
    S = started(tb)
    put(S, ARCHER, 3, 0, S_)
    put(S, INF, 3, 5)  # under the south part's next zone
    combat.apply_result(S, tb, 0, ARCHER, DRAGON, 1)
    r = combat.fall_back_step(S, tb, 0, -1)
    while r == -3:
        r = combat.fall_back_step(S, tb, 0, -1)
    assert S["unit_pos"][0, DRAGON] == z(3, 3)


def test_the_invariants_name_a_footprint_off_the_map_or_covered_by_another_unit(built):
    """LB R28 in both invariant checkers (the fuzzer's numba codes and the tests' sentences):
    a zone of the footprint holds no other unit's centre outside a move, and is on the map."""
    _, tb = built
    S = started(tb)
    assert invariants.check(S, tb, 0) == "" and invariants.check_codes(S, tb, 0) == invariants.OK
    put(S, MILITIA, 3, 4)  # a friend's centre under the Dragon's south part
    assert invariants.check_codes(S, tb, 0) == invariants.BAD_SHARING
    assert "footprint" in invariants.check(S, tb, 0)
    S = started(tb)
    put(S, DRAGON, 3, 0)  # its north part off the map
    assert invariants.oversized_code(S, tb, 0) == invariants.BAD_POSITION
    assert "footprint" in invariants.check(S, tb, 0)


def test_siege_of_the_ridge_fort_plays_whole_games_through_the_env():
    """The scenario with a Monstrous unit and a siege tower (oversized) plays through the
    contract: whole random games end, the same seed gives the same game, and no zone is
    covered by two units unless they share a centre zone in Close Combat."""
    rs = get_ruleset("legendary_battles", options={"scenario": "siege_of_the_ridge_fort"})
    tb = tables.as_tb(rs.tables_batch[:1])
    finals = []
    for _ in range(2):
        S = rs.allocate(4, 2)
        res = rs.play_chunk(S, rs.tables_batch, 11, np.arange(4), np.zeros(4, np.int8))
        assert (res.length > 0).all()
        assert (S["stage"] == A.STAGE_GAME_OVER).all()
        finals.append(S.copy())
        for b in range(4):
            assert invariants.check(S, tb, b) == ""
            for p in range(int(tb.g_n_pos)):
                cov = [u for u in range(64) if plays.covers(S, tb, b, u, p)]
                if len(cov) > 1:
                    assert all(S["unit_pos"][b, u] == p for u in cov), (b, p, cov)
    assert finals[0].tobytes() == finals[1].tobytes()


def test_a_stopped_walk_never_leaves_a_unit_on_a_part_of_a_friend():
    """Found by the footprint invariant: in game 45 of seed 2024 on Siege of the Ridge Fort a
    walk stopped on the siege tower's other zone and the unit stayed there (R24 looked only at
    centre zones). Replayed with every invariant checked after every decision."""
    from envs.tactical_assault.actions import N_ACTIONS

    rs = get_ruleset("legendary_battles", options={"scenario": "siege_of_the_ridge_fort"})
    tb = tables.as_tb(rs.tables_batch[:1])
    S = state.allocate(1)
    out = np.zeros(N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, tb, 0, 2024, 40, 10, out)
    assert (games, bad, code) == (10, -1, invariants.OK), invariants.CODE_NAMES[code]
    assert decisions > 0


def test_the_picture_draws_every_zone_where_the_unit_now_stands(built):
    """The map (render.state_view) shows an oversized unit's other zones around its centre
    zone as it is now, not where the scenario placed it."""
    from envs.legendary_battles.render import state_view

    sa, tb = built
    S = started(tb)
    put(S, DRAGON, 4, 3)
    view = state_view(sa, S, 0)
    i = view.unit_label.index("d")
    assert set(np.flatnonzero(view.unit_zones[i]).tolist()) == {z(4, 2), z(4, 3), z(4, 4)}
