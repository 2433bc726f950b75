"""Line of sight between zone centres (Legendary Battles PART III "Line of sight", "LOS to
oversized units"; Fantasy Cards PART V "Line of Sight") and movement costs ("Movement")."""

from __future__ import annotations

import numpy as np
from lb_helpers import build, compile_doc, scenario_doc

from envs.legendary_battles import geometry as geo

OPEN7 = [". . . . . . ."] * 7


def los(sa, a, b, blockers=(), short=2):
    g = sa.grid
    mask = np.zeros(g.n_zones, dtype=bool)
    for c, r in blockers:
        mask[g.zone(c, r)] = True
    return geo.line_of_sight(g, sa.los_terrain, g.zone(*a), g.zone(*b), mask, short)


def test_los_on_open_ground_exists(tmp_path):
    sa = build(OPEN7, tmp_path)
    assert los(sa, (0, 0), (6, 3)) == geo.Los(True, False, False)


def test_los_through_covering_terrain_zone_is_blocked(tmp_path):
    rows = list(OPEN7)
    rows[3] = ". . . W . . ."
    sa = build(rows, tmp_path)
    assert not los(sa, (0, 3), (6, 3)).exists
    assert los(sa, (0, 2), (6, 2)).exists


def test_los_touching_a_covering_zone_at_a_corner_is_blocked(tmp_path):
    # "LOS & terrain zones": any part of a terrain zone counts (reading R9).
    rows = list(OPEN7)
    rows[0] = ". W . . . . ."
    sa = build(rows, tmp_path)
    # The centre line touches (1,0) at a corner: only other points of (2,2) are seen.
    assert los(sa, (0, 0), (2, 2)) == geo.Los(True, True, False)
    rows[1] = "W . . . . . ."
    sa = build(rows, tmp_path)
    assert not los(sa, (0, 0), (2, 2)).exists


def test_los_running_along_the_side_of_a_terrain_zone_is_affected(tmp_path):
    rows = [". . . . . .", ". . . . . .", ". . . . . .", ". W . . . .", ". . . . . ."]
    sa = build(rows, tmp_path, shape="hex")
    # (2,4) to (2,2) runs along the side between (1,3) and (2,3): (1,3) is Woods, so the
    # centre cannot be seen; a point of (2,2) right of the line can (Obscured).
    assert los(sa, (2, 4), (2, 2)) == geo.Los(True, True, False)
    rows[3] = ". W W . . ."
    sa = build(rows, tmp_path, shape="hex")
    assert not los(sa, (2, 4), (2, 2)).exists


def test_los_through_a_zone_holding_any_unit_is_blocked(tmp_path):
    sa = build(OPEN7, tmp_path)
    assert not los(sa, (0, 3), (6, 3), blockers=[(3, 3)]).exists
    # The other unit sharing the target's zone does not block (caller leaves it out).
    assert los(sa, (0, 3), (6, 3), blockers=[]).exists


def test_los_only_to_other_than_centre_point_makes_the_target_obscured(tmp_path):
    sa = build(OPEN7, tmp_path)
    res = los(sa, (0, 0), (2, 1), blockers=[(1, 1)])
    assert res.exists and res.obstructed
    assert not los(sa, (0, 0), (2, 1), blockers=[(1, 1), (1, 0)]).exists


def test_target_in_covering_zone_is_in_cover_and_in_obstructing_zone_is_obstructed(tmp_path):
    rows = list(OPEN7)
    rows[3] = ". . . . . W f"
    sa = build(rows, tmp_path)
    assert los(sa, (0, 2), (5, 3)).in_cover
    assert not los(sa, (0, 2), (5, 3)).obstructed
    res = los(sa, (6, 0), (6, 3))
    assert res.exists and res.obstructed and not res.in_cover


def test_los_within_covering_template_needs_short_distance(tmp_path):
    rows = list(OPEN7)
    rows[3] = "W W W W W . ."
    sa = build(rows, tmp_path)
    assert los(sa, (0, 3), (2, 3), short=2) == geo.Los(True, False, True)
    assert not los(sa, (0, 3), (3, 3), short=2).exists
    assert not los(sa, (0, 3), (5, 3), short=9).exists  # target outside the template


def test_los_across_linear_terrain_takes_its_effect(tmp_path):
    linear = [
        {"terrain": "Wall", "sides": [[2, 1, "E"]]},
        {"terrain": "Palisade", "sides": [[2, 3, "E"]]},
        {"terrain": "Stream", "sides": [[2, 5, "E"]]},
    ]
    sa = build(OPEN7, tmp_path, linear=linear)
    wall = los(sa, (0, 1), (5, 1))
    assert wall.exists and wall.obstructed
    assert not los(sa, (0, 3), (5, 3)).exists
    assert los(sa, (0, 5), (5, 5)) == geo.Los(True, False, False)


def test_los_through_a_linear_side_corner_is_affected(tmp_path):
    # "LOS & linear terrain": the side's adjacent corners count.
    sa = build(OPEN7, tmp_path, linear=[{"terrain": "Palisade", "sides": [[1, 0, "S"]]}])
    # The centre line passes the corner (0.5, 0.5) that ends the palisaded side: Obscured.
    assert los(sa, (0, 0), (2, 2)) == geo.Los(True, True, False)
    assert los(sa, (0, 0), (2, 0)) == geo.Los(True, False, False)


def test_elevated_terrain_blocks_unless_a_unit_is_higher(tmp_path):
    elev = ["0 0 0 0 0 0 0"] * 7
    elev[3] = "0 0 0 1g 0 0 3g"
    elev[5] = "1k 1k 1k 1k 1k 0 0"
    rows = list(OPEN7)
    rows[4] = ". . . . W . ."
    sa = build(rows, tmp_path, elevation=elev)
    assert not los(sa, (0, 3), (5, 3)).exists  # ground units, Low hill between
    assert los(sa, (0, 3), (6, 3)).exists  # target on a Very High... level-3 hill sees over
    assert not los(sa, (0, 4), (6, 4)).exists  # Woods (Medium) between ground units
    assert los(sa, (6, 3), (2, 5)).exists  # level 3 looks over Medium woods and Low ground
    assert los(sa, (0, 5), (4, 5)).exists  # both on one level top: it does not block


def test_los_to_oversized_unit_centre_is_not_blocked_by_its_own_parts(tmp_path):
    sa = build(OPEN7, tmp_path)
    g = sa.grid
    z = g.zone
    blockers = np.zeros(g.n_zones, dtype=bool)
    unit = [z(4, 3), z(3, 3), z(5, 3)]  # centre first; (3,3) lies between
    blockers[unit] = True
    res = geo.los_to_unit(g, sa.los_terrain, z(0, 3), unit, blockers, 2)
    assert res.exists and not res.obstructed
    # With the centre hidden by another unit, another zone of the unit can still be seen.
    blockers[z(4, 2)] = True
    blockers[z(4, 4)] = True
    res = geo.los_to_unit(g, sa.los_terrain, z(4, 0), [z(4, 3), z(3, 3), z(5, 3)], blockers, 2)
    assert res.exists and res.obstructed


def test_movement_costs_clear_one_terrain_two_and_linear_one_more(tmp_path):
    rows = [". W . Q", ". . r .", ". . . ."]
    linear = [{"terrain": "Hedge", "sides": [[0, 1, "E"], [1, 0, "S"]]}]
    sa = build(rows, tmp_path, linear=linear)
    g = sa.grid
    z, s = g.zone, g.side_index

    def cost(c, r, side):
        return int(sa.entry_cost[z(c, r), s(side)])

    assert cost(0, 0, "S") == 1  # into clear
    assert cost(0, 0, "E") == 2  # into woods
    assert cost(0, 1, "E") == 2  # across a hedge into clear
    assert cost(1, 1, "N") == 3  # across a hedge into woods
    assert cost(2, 0, "E") == -1  # quicksand is impassable
    assert cost(1, 1, "E") == 2  # river is hindering
    assert cost(0, 0, "N") == -1  # map edge


def test_steep_climbs_cost_double_and_stark_needs_a_route(tmp_path):
    elev = ["0 1s 0 2k", "0 0 0 2k", "0 0 0 0"]
    linear = [{"terrain": "Stairs", "sides": [[2, 1, "E"]]}]
    sa = build([". . . .", ". . . .", ". . . ."], tmp_path, elevation=elev, linear=linear)
    g = sa.grid
    z, s = g.zone, g.side_index
    assert sa.entry_cost[z(0, 0), s("E")] == 2  # up a Steep slope
    assert sa.entry_cost[z(1, 0), s("W")] == 1  # down it
    assert sa.entry_cost[z(2, 0), s("E")] == -1  # Medium Stark rise, no route
    assert sa.entry_cost[z(2, 1), s("E")] == 1  # by the stairs
    assert sa.entry_cost[z(3, 0), s("W")] == 1  # descending


def test_special_terrain_costs_take_precedence(tmp_path):
    doc = scenario_doc([". r .", ". . ."])
    doc["special_rules"] = [
        {
            "kind": "terrain_cost",
            "name": "Spate",
            "text": "River costs 3.",
            "terrain": "River",
            "move_cost": 3,
        }
    ]
    sa = compile_doc(doc, tmp_path)
    assert sa.entry_cost[sa.grid.zone(0, 0), sa.grid.side_index("E")] == 3
