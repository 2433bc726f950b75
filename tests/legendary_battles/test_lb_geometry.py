"""Zone geometry: Legendary Battles PART III "Distances", "Line of sight", "Units &
line-of-sight arcs", "Fall back movement", "Random drift movement", "Terrain templates"."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.legendary_battles import geometry as geo

SQ = geo.make_grid("square", 7, 6)
HX = geo.make_grid("hex", 7, 6)


def cr(grid: geo.Grid, zones) -> list[tuple[int, int]]:
    return [(int(grid.col[z]), int(grid.row[z])) for z in zones]


def route_cr(grid: geo.Grid, steps) -> list[list[tuple[int, int]]]:
    return [sorted(cr(grid, s)) for s in steps]


zone_triples = st.tuples(st.integers(0, 41), st.integers(0, 41), st.integers(0, 41))


@settings(max_examples=200, deadline=None)
@given(zone_triples, st.sampled_from([SQ, HX]))
def test_distance_in_zones_is_symmetric_and_obeys_triangle_inequality(t, grid):
    a, b, c = t
    assert geo.distance(grid, a, b) == geo.distance(grid, b, a)
    assert geo.distance(grid, a, c) <= geo.distance(grid, a, b) + geo.distance(grid, b, c)
    assert (geo.distance(grid, a, b) == 0) == (a == b)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 41), st.integers(0, 41), st.sampled_from([SQ, HX]))
def test_distance_is_the_fewest_side_crossings(a, b, grid):
    # Breadth-first search over zones sharing a side (reading R2) gives the same count.
    seen = {a: 0}
    frontier = [a]
    while frontier:
        nxt = []
        for z in frontier:
            for y in grid.neighbour[z]:
                if y >= 0 and int(y) not in seen:
                    seen[int(y)] = seen[z] + 1
                    nxt.append(int(y))
        frontier = nxt
    assert geo.distance(grid, a, b) == seen[b]
    assert geo.distance_matrix(grid)[a, b] == seen[b]


def test_adjacent_zones_share_a_side_and_square_corners_do_not_count():
    z = SQ.zone
    assert geo.are_adjacent(SQ, z(2, 2), z(2, 1))
    assert not geo.are_adjacent(SQ, z(2, 2), z(3, 3))  # corner only
    assert geo.distance(SQ, z(2, 2), z(3, 3)) == 2
    h = HX.zone
    # odd-r hexes: an even row's NE neighbour is (c, r-1), an odd row's is (c+1, r-1)
    assert sorted(cr(HX, HX.neighbour[h(2, 2)])) == [(1, 1), (1, 2), (1, 3), (2, 1), (2, 3), (3, 2)]
    assert sorted(cr(HX, HX.neighbour[h(2, 3)])) == [(1, 3), (2, 2), (2, 4), (3, 2), (3, 3), (3, 4)]


def test_neighbours_are_mutual_across_opposite_sides():
    for grid in (SQ, HX):
        n = grid.n_sides
        for z in range(grid.n_zones):
            for k in range(n):
                y = grid.neighbour[z, k]
                if y >= 0:
                    assert grid.neighbour[y, (k + n // 2) % n] == z


def test_battlefield_distances_count_zones_along_the_shortest_side_and_round_up():
    # "Calculating battlefield distances": Very Long = shortest side; halves round up.
    assert geo.battlefield_distances(12) == {
        "Very Long": 12,
        "Long": 6,
        "Medium": 3,
        "Short": 2,
        "Very Short": 1,
    }
    assert geo.battlefield_distances(9) == {
        "Very Long": 9,
        "Long": 5,
        "Medium": 3,
        "Short": 2,
        "Very Short": 1,
    }
    assert geo.shortest_side_zones(SQ) == 6


def test_effect_radius_does_not_count_the_origin_zone():
    assert geo.zones_in_radius(SQ, SQ.zone(3, 3), 1).sum() == 5
    assert geo.zones_in_radius(HX, HX.zone(3, 3), 1).sum() == 7
    assert geo.zones_in_radius(HX, HX.zone(3, 3), 0).sum() == 1


def test_partial_zones_off_map_have_no_zone():
    g = geo.make_grid("square", 3, 3, {(2, 2)})
    assert g.n_zones == 8 and g.zone(2, 2) == -1
    assert g.neighbour[g.zone(2, 1), g.side_index("S")] == -1


def test_fall_back_route_continues_the_line_from_attacker_through_target():
    z = SQ.zone
    steps = geo.fall_back_route(SQ, z(1, 2), z(2, 2))
    assert route_cr(SQ, steps) == [[(3, 2)], [(4, 2)], [(5, 2)], [(6, 2)]]


def test_route_through_a_corner_offers_the_owner_both_zones_touched():
    # "Moving the unit" + "Making decisions": the diagonal line touches (1,0) and (0,1) at a
    # corner; the unit enters one of them (owner's choice, reading R10).
    z = SQ.zone
    steps = geo.line_route(SQ, z(0, 0), z(1, 1))
    assert route_cr(SQ, steps)[:3] == [[(0, 1), (1, 0)], [(1, 1)], [(1, 2), (2, 1)]]


def test_route_along_a_hex_side_offers_both_hexes():
    h = HX.zone
    steps = geo.line_route(HX, h(2, 4), h(2, 2))
    assert route_cr(HX, steps) == [[(1, 3), (2, 3)], [(2, 2)], [(1, 1), (2, 1)], [(2, 0)]]


def test_random_drift_route_runs_from_target_zone_through_reference_unit():
    z = SQ.zone
    steps = geo.random_drift_route(SQ, z(0, 3), z(3, 3))
    assert route_cr(SQ, steps) == [[(1, 3)], [(2, 3)], [(3, 3)], [(4, 3)], [(5, 3)], [(6, 3)]]


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 41), st.integers(0, 41), st.sampled_from([SQ, HX]))
def test_every_route_step_is_adjacent_to_the_one_before(a, b, grid):
    if a == b:
        return
    steps = geo.line_route(grid, a, b)
    assert (b,) in steps
    prev = [a]
    for s in steps:
        assert all(any(geo.are_adjacent(grid, p, z) for p in prev) for z in s)
        prev = list(s)


def test_los_arc_touches_three_sides_and_corners_beside_them():
    z = SQ.zone
    n = SQ.side_index("N")
    assert geo.los_arc_sides(SQ, n).tolist() == [True, True, False, True]
    assert geo.in_los_arc(SQ, z(3, 3), n, z(3, 0))
    assert not geo.in_los_arc(SQ, z(3, 3), n, z(3, 5))  # through the back side
    assert geo.in_los_arc(SQ, z(3, 3), n, z(5, 5))  # SE corner, beside the E side
    assert not geo.in_los_arc(SQ, z(3, 3), n, z(4, 5))
    h = HX.zone
    e = HX.side_index("E")
    assert geo.los_arc_sides(HX, e).sum() == 3
    assert geo.in_los_arc(HX, h(3, 2), e, h(5, 2))
    assert not geo.in_los_arc(HX, h(3, 2), e, h(0, 2))


def test_terrain_templates_join_zones_sharing_sides_of_identical_terrain():
    g = geo.make_grid("square", 4, 3)
    # 0 Clear, 1 Woods: two woods groups touching only at a corner are two templates.
    terr = np.array([1, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 0], dtype=np.int16)
    tid = geo.terrain_templates(g, terr, np.array([False, True]))
    assert tid[0] == tid[1] >= 0
    assert tid[6] >= 0 and tid[6] != tid[0]
    assert tid[2] == -1


def test_zones_crossed_leave_out_corners_and_sides_only_touched():
    # Square (0,0) -> (2,2): the diagonal goes through (1,1) and only touches the corners of
    # (1,0) and (0,1). Hex (0,0) -> (0,2) runs along the west side of (0,1) and crosses nothing
    # between its ends (used by TACTICA's line of fire, docs/rules/tactica.md R24).
    crossed = geo.zones_crossed(SQ, SQ.zone(0, 0), SQ.zone(2, 2))
    assert sorted(cr(SQ, np.flatnonzero(crossed))) == [(0, 0), (1, 1), (2, 2)]
    touched = geo.zones_touched(SQ, SQ.zone(0, 0), SQ.zone(2, 2))
    assert touched[SQ.zone(1, 0)] and touched[SQ.zone(0, 1)]
    crossed = geo.zones_crossed(HX, HX.zone(0, 0), HX.zone(0, 2))
    assert sorted(cr(HX, np.flatnonzero(crossed))) == [(0, 0), (0, 2)]


def test_a_line_runs_along_a_side_only_for_more_than_a_point():
    # Hex (4,2) -> (4,4): along the side shared by (3,3) (its E side) and (4,3) (its W side);
    # the corners it passes do not count as running along the sides that meet there.
    along = geo.sides_run_along(HX, HX.centre[HX.zone(4, 2)], HX.centre[HX.zone(4, 4)])
    hits = sorted((cr(HX, [z])[0], HX.sides[k]) for z, k in zip(*np.nonzero(along), strict=True))
    assert hits == [((3, 3), "E"), ((4, 3), "W")]
    # a line along a square side: (0,0) -> (2,0) runs along no side (it crosses zone middles)
    assert not geo.sides_run_along(SQ, SQ.centre[0], SQ.centre[2]).any()
