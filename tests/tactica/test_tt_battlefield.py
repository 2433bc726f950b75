"""TACTICA battlefield geometry (docs/rules/tactica.md TT-B.2, TT-B.6.6, TT-B.7.3, TT-A.10.9,
TT-A.11.3-11.5; Readings R24-R27): hand-built positions on the real battlefields with answers
derived by hand, and hypothesis properties of the tables and kernels.

Hex index on a 9-wide map without holes: 9 * row + col. Odd rows sit half a hex right::

    row 0:   0   1   2   3   4   5   6   7   8
    row 1:     9  10  11  12  13  14  15  16  17
    row 2:  18  19  20  21  22  23  24  25  26
    row 3:    27  28  29  30  31  32  33  34  35
    row 4:  36  37  38  39  40  41  42  43  44
"""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.legendary_battles import geometry as lbg
from envs.tactica import battlefield as bf
from envs.tactica.tables import HEX_NONE, HEX_OPEN, load_tables

H = bf.MAX_HEXES
TABLES = load_tables()
GEO = TABLES.battlefield
FIRST, SECOND, THIRD = (TABLES.battlefield_index[n] for n in TABLES.battlefield_names)
SEAT_1, SEAT_2 = 1, 2
FAST = settings(max_examples=60, deadline=None)

# ------------------------------------------------------------------ helpers


def _board() -> dict[str, np.ndarray]:
    """Empty per-hex occupancy arrays: what the engine's state will hold for one game."""
    return {
        "kind": np.zeros(H, np.int8),
        "block": np.zeros(H, bool),
        "feature_owner": np.zeros(H, np.int8),
        "unit_owner": np.zeros(H, np.int8),
    }


def _place(board: dict, h: int, kind: int, owner: int = 0, block: bool = False) -> None:
    board["kind"][h] = kind
    board["block"][h] = block
    board["feature_owner"][h] = owner


def _clear(b: int, a: int, c: int, blocking: list[int]) -> bool:
    blocks = np.zeros(H, bool)
    blocks[blocking] = True
    return bool(
        bf.line_of_fire_clear(
            GEO.lof_crossed[b], GEO.lof_edges[b], np.int64(a), np.int64(c), blocks
        )
    )


def _troop_moves(board: dict, seat: int, start: int, steps: int, b: int = FIRST) -> np.ndarray:
    passable, stops, may_end = (np.zeros(H, bool) for _ in range(3))
    bf.troop_masks(
        board["kind"], board["block"], board["unit_owner"], np.int64(seat), passable, stops, may_end
    )
    out = np.zeros(H, np.int64)
    n = bf.reachable_hexes(
        GEO.neighbours[b], np.int64(start), np.int64(steps), passable, stops, may_end, out
    )
    assert n == int((out >= 0).sum())
    return out


def _summon_moves(board: dict, start: int, steps: int, b: int = FIRST) -> np.ndarray:
    passable, stops, may_end = (np.zeros(H, bool) for _ in range(3))
    bf.summon_masks(board["kind"], board["unit_owner"], passable, stops, may_end)
    out = np.zeros(H, np.int64)
    bf.reachable_hexes(
        GEO.neighbours[b], np.int64(start), np.int64(steps), passable, stops, may_end, out
    )
    return out


def _access(board: dict, b: int = FIRST) -> bool:
    return bool(
        bf.access_ok(
            GEO.neighbours[b],
            GEO.wall_zone[b],
            board["kind"],
            board["block"],
            board["feature_owner"],
            np.zeros((2, H), bool),
            np.zeros(H, np.int64),
        )
    )


def _hex(col: int, row: int, b: int = FIRST) -> int:
    return GEO.hex_index(b, col, row)


# ------------------------------------------------------------------ TT-B.2.1, TT-B.2.3: layout


def test_battlefields_are_the_three_maps_of_the_war() -> None:
    assert [int(x) for x in GEO.n_hexes] == [99, 81, 63]
    assert [int(x) for x in GEO.n_rows] == [11, 9, 7]
    assert [int(x) for x in GEO.n_cols] == [9, 9, 9]


def test_hexes_are_indexed_row_major() -> None:
    for b in (FIRST, SECOND, THIRD):
        for h in range(int(GEO.n_hexes[b])):
            col, row = int(GEO.hex_col[b, h]), int(GEO.hex_row[b, h])
            assert h == 9 * row + col == int(GEO.hex_at[b, row, col])
        assert np.all(GEO.hex_col[b, int(GEO.n_hexes[b]) :] == -1)


def test_wall_zones_are_the_top_and_bottom_rows() -> None:
    for b in (FIRST, SECOND, THIRD):
        last = int(GEO.n_rows[b]) - 1
        assert np.flatnonzero(GEO.wall_zone[b, 0]).tolist() == list(range(9))
        assert np.flatnonzero(GEO.wall_zone[b, 1]).tolist() == list(range(9 * last, 9 * last + 9))


def test_a_hole_has_no_hex_and_distance_goes_around_it() -> None:
    # rows "...", ".#.", "...": indices 0 1 2 / 3 _ 4 / 5 6 7. From (0,1) to (2,1) the straight
    # way crosses the hole (grid distance 2); stepping over real hexes takes 3:
    # (0,1) -> (1,0) -> (2,0) -> (2,1).
    hexes = np.full((1, 3, 3), HEX_OPEN, np.int8)
    hexes[0, 1, 1] = HEX_NONE
    geo = bf.build_geometry(hexes, np.array([[3, 3]], np.int8))
    assert int(geo.n_hexes[0]) == 8
    assert int(geo.hex_at[0, 1, 1]) == -1 and geo.hex_index(0, 2, 1) == 4
    with pytest.raises(ValueError, match="no hex at"):
        geo.hex_index(0, 1, 1)
    assert int(geo.distance[0, 3, 4]) == 3
    assert int(geo.distance[0, 3, 8]) == bf.FAR  # padding


def test_a_battlefield_larger_than_the_capacity_is_refused() -> None:
    hexes = np.zeros((1, bf.MAX_ROWS + 1, 9), np.int8)
    with pytest.raises(ValueError, match="MAX_ROWS"):
        bf.build_geometry(hexes, np.array([[bf.MAX_ROWS + 1, 9]], np.int8))


# ------------------------------------------------------------------ TT-B.2.2: adjacency, distance


def test_adjacent_hexes_share_an_edge() -> None:
    # (4,2) = 22 (even row): NE 13, E 23, SE 31, SW 30, W 21, NW 12;
    # (4,3) = 31 (odd row):  NE 23, E 32, SE 41, SW 40, W 30, NW 22; corner 0: E 1, SE 9.
    assert GEO.neighbours[FIRST, 22].tolist() == [13, 23, 31, 30, 21, 12]
    assert GEO.neighbours[FIRST, 31].tolist() == [23, 32, 41, 40, 30, 22]
    assert GEO.neighbours[FIRST, 0].tolist() == [-1, 1, 9, -1, -1, -1]
    grid = lbg.make_grid("hex", 9, 11)
    for h in range(99):
        for k, y in enumerate(GEO.neighbours[FIRST, h]):
            if y >= 0:
                # neighbours' centres are one apart and the side runs between them both ways
                assert np.isclose(np.hypot(*(grid.centre[y] - grid.centre[h])), 1.0)
                assert int(GEO.neighbours[FIRST, y, (k + 3) % 6]) == h


def test_distance_is_the_fewest_steps() -> None:
    d = GEO.distance[FIRST]
    assert int(d[0, 8]) == 8  # along row 0
    assert int(d[0, 90]) == 10  # (0,0) to (0,10): zig-zag straight down
    assert int(d[0, 98]) == 13  # (0,0) to (8,10): 5 diagonal-right steps gain 5 columns
    assert int(d[22, 22]) == 0
    for b, (rows, cols) in enumerate(TABLES.battlefield_shape):
        n = int(GEO.n_hexes[b])
        full = lbg.distance_matrix(lbg.make_grid("hex", int(cols), int(rows)))
        assert np.array_equal(GEO.distance[b, :n, :n], full)  # no holes: the grid distance


def test_within_n_hexes_includes_distance_n() -> None:
    out = np.zeros(H, bool)
    assert bf.hexes_within(GEO.distance[FIRST], np.int64(22), np.int64(1), out) == 7
    assert np.flatnonzero(out).tolist() == [12, 13, 21, 22, 23, 30, 31]
    assert bf.hexes_within(GEO.distance[FIRST], np.int64(22), np.int64(2), out) == 19
    assert bf.hexes_within(GEO.distance[FIRST], np.int64(0), np.int64(1), out) == 3
    assert bf.within(GEO.distance[FIRST], np.int64(0), np.int64(8), np.int64(8))
    assert not bf.within(GEO.distance[FIRST], np.int64(0), np.int64(8), np.int64(7))


# ------------------------------------------------------------------ TT-B.2.8: line of fire


def test_line_of_fire_blocked_by_a_wall_between() -> None:
    # (0,2)=18 to (4,2)=22 along row 2 crosses 19, 20, 21; a wall on 20 blocks, a wall on
    # (2,1)=11 above the row does not (the row-1 hexes end above the line).
    assert GEO.lof_crossed[FIRST, 18, 22, :4].tolist() == [19, 20, 21, -1]
    assert _clear(FIRST, 18, 22, [])
    assert not _clear(FIRST, 18, 22, [20])
    assert _clear(FIRST, 18, 22, [11, 29])


def test_the_end_hexes_do_not_block() -> None:
    assert _clear(FIRST, 18, 22, [18, 22])


def test_blocking_hexes_are_walls_spires_and_block_landmarks() -> None:
    board = _board()
    _place(board, 19, bf.FEATURE_WALL, SEAT_1)
    _place(board, 20, bf.FEATURE_SPIRE, SEAT_2)
    _place(board, 21, bf.FEATURE_LANDMARK, SEAT_1, block=True)  # RIDGE
    _place(board, 23, bf.FEATURE_LANDMARK, SEAT_1, block=False)  # HILL
    board["unit_owner"][24] = SEAT_2  # a troop: never blocks
    blocks = np.zeros(H, bool)
    bf.blocks_fire(board["kind"], board["block"], blocks)
    assert np.flatnonzero(blocks).tolist() == [19, 20, 21]


def test_line_along_an_edge_blocked_only_if_both_hexes_block() -> None:
    # (4,2)=22 straight down to (4,4)=40: the line leaves 22 at its bottom corner, runs along
    # the edge between (3,3)=30 and (4,3)=31, and enters 40 at its top corner.
    #      22
    #    30 | 31
    #      40
    assert GEO.lof_crossed[FIRST, 22, 40, 0] == -1
    assert GEO.lof_edges[FIRST, 22, 40, :2].tolist() == [[30, 31], [-1, -1]]
    assert _clear(FIRST, 22, 40, [30])
    assert _clear(FIRST, 22, 40, [31])
    assert not _clear(FIRST, 22, 40, [30, 31])
    # twice as long: (4,0)=4 to 40 crosses 22 and runs along edges 12|13 and 30|31
    assert GEO.lof_crossed[FIRST, 4, 40, :2].tolist() == [22, -1]
    assert GEO.lof_edges[FIRST, 4, 40, :3].tolist() == [[12, 13], [30, 31], [-1, -1]]
    assert _clear(FIRST, 4, 40, [12, 31])
    assert not _clear(FIRST, 4, 40, [12, 13])


def test_a_hex_touched_only_at_a_corner_does_not_block() -> None:
    # (0,0)=0 to (4,1)=13 passes exactly through the corner where 1, 2 and 10 meet (going from
    # 1 into 2) and the corner where 3, 11 and 12 meet (going from 11 into 12) (R24):
    #    0   1 . 2   3   4
    #          10  11 . 12  13
    assert sorted(GEO.lof_crossed[THIRD, 0, 13][GEO.lof_crossed[THIRD, 0, 13] >= 0]) == [
        1,
        2,
        11,
        12,
    ]
    assert _clear(THIRD, 0, 13, [3, 10])
    assert not _clear(THIRD, 0, 13, [2])


def test_a_line_along_the_map_border_is_not_blocked_by_the_border_hex() -> None:
    # (0,0)=0 straight down to (0,2)=18 runs along the west edge of (0,1)=9, beyond which there
    # is no hex (R24).
    assert GEO.lof_crossed[FIRST, 0, 18, 0] == -1 and GEO.lof_edges[FIRST, 0, 18, 0, 0] == -1
    assert _clear(FIRST, 0, 18, [9])


def test_adjacent_hexes_always_have_a_line_of_fire() -> None:
    everything = list(range(99))
    for h in range(99):
        for y in GEO.neighbours[FIRST, h]:
            if y >= 0:
                assert _clear(FIRST, h, int(y), everything)


# ------------------------------------------------------------------ TT-B.7.3: troop movement


def test_a_troop_moves_up_to_its_move_value() -> None:
    out = _troop_moves(_board(), SEAT_1, 22, 1)
    assert np.flatnonzero(out >= 0).tolist() == [12, 13, 21, 23, 30, 31]
    out = _troop_moves(_board(), SEAT_1, 22, 2)
    assert int((out == 2).sum()) == 12 and int((out >= 0).sum()) == 18
    assert out[22] == -1  # staying is not a move


def test_entering_a_landmark_ends_the_move() -> None:
    # (4,2)=22 -> (6,2)=24 in two steps goes only through (5,2)=23 (their one shared neighbour).
    board = _board()
    assert _troop_moves(board, SEAT_1, 22, 2)[24] == 2
    _place(board, 23, bf.FEATURE_LANDMARK, SEAT_2)  # HILL, no BLOCK
    out = _troop_moves(board, SEAT_1, 22, 2)
    assert out[23] == 1  # the troop may end on it
    assert out[24] == -1  # but goes no further
    # starting on a landmark does not stop the move
    out = _troop_moves(board, SEAT_1, 23, 2)
    assert out[24] == 1 and out[25] == 2


@pytest.mark.parametrize(
    "kind, block",
    [(bf.FEATURE_WALL, False), (bf.FEATURE_SPIRE, False), (bf.FEATURE_LANDMARK, True)],
)
def test_troops_cannot_enter_walls_spires_or_block_landmarks(kind: int, block: bool) -> None:
    board = _board()
    _place(board, 23, kind, SEAT_1, block)  # even the troop's own seat's feature
    out = _troop_moves(board, SEAT_1, 22, 2)
    assert out[23] == -1 and out[24] == -1
    assert out[13] == 1  # other ways stay open


def test_troops_pass_through_friendly_but_not_enemy_troops() -> None:
    board = _board()
    board["unit_owner"][23] = SEAT_1
    out = _troop_moves(board, SEAT_1, 22, 2)
    assert out[23] == -1 and out[24] == 2  # through, but not ending on the friend's hex
    board["unit_owner"][23] = SEAT_2
    out = _troop_moves(board, SEAT_1, 22, 2)
    assert out[23] == -1 and out[24] == -1


def test_an_enemy_summon_stops_a_troop_like_an_enemy_troop() -> None:
    board = _board()
    board["unit_owner"][23] = SEAT_2  # the hex holds seat 2's summon (R25)
    assert _troop_moves(board, SEAT_1, 22, 2)[24] == -1


# ------------------------------------------------------------------ TT-A.11.3-11.5: summons


def test_summons_pass_through_walls_and_troops() -> None:
    for setup in (
        lambda b: _place(b, 23, bf.FEATURE_WALL, SEAT_2),
        lambda b: b["unit_owner"].__setitem__(23, SEAT_2),
        lambda b: b["unit_owner"].__setitem__(23, SEAT_1),
    ):
        board = _board()
        setup(board)
        out = _summon_moves(board, 22, 2)
        assert out[23] == -1 and out[24] == 2


def test_summons_pass_through_landmarks_and_block_without_stopping() -> None:
    for block in (False, True):
        board = _board()
        _place(board, 23, bf.FEATURE_LANDMARK, SEAT_1, block)
        out = _summon_moves(board, 22, 2)
        assert out[23] == -1  # may not end on a landmark
        assert out[24] == 2  # entering it did not end the move


def test_summons_do_not_pass_through_spires() -> None:
    board = _board()
    _place(board, 23, bf.FEATURE_SPIRE, SEAT_1)
    out = _summon_moves(board, 22, 2)
    assert out[23] == -1 and out[24] == -1


# ------------------------------------------------------------------ TT-B.6.6, TT-A.10.9: access


def test_walls_on_an_open_field_can_be_reached() -> None:
    board = _board()
    for h in (1, 4, 7):
        _place(board, h, bf.FEATURE_WALL, SEAT_1)
    for h in (91, 94, 97):
        _place(board, h, bf.FEATURE_WALL, SEAT_2)
    _place(board, 40, bf.FEATURE_SPIRE, SEAT_2)
    assert _access(board)  # routes 9 or more hexes long count: a route takes many moves


def test_a_wall_sealed_in_by_walls_and_a_block_landmark_breaks_access() -> None:
    # seat 1's wall in the corner (0,0)=0 has two neighbours: (1,0)=1 and (0,1)=9.
    #    [W0] [W1]  2
    #       [9]  10
    board = _board()
    _place(board, 0, bf.FEATURE_WALL, SEAT_1)
    _place(board, 1, bf.FEATURE_WALL, SEAT_1)
    _place(board, 9, bf.FEATURE_LANDMARK, SEAT_2, block=True)  # RIDGE
    assert not _access(board)
    board["block"][9] = False  # MARSH: troops may enter it, access is back
    assert _access(board)
    _place(board, 9, bf.FEATURE_SPIRE, SEAT_2)
    assert not _access(board)


def test_access_to_a_spire_counts() -> None:
    # seat 2's spire on (0,5)=45 (odd row): neighbours 37, 46, 55, 54, 36; fence it with
    # features a troop cannot enter.
    board = _board()
    _place(board, 45, bf.FEATURE_SPIRE, SEAT_2)
    fence = [int(y) for y in GEO.neighbours[FIRST, 45] if y >= 0]
    assert sorted(fence) == [36, 37, 46, 54, 55]
    for h in fence[:-1]:
        _place(board, h, bf.FEATURE_LANDMARK, SEAT_1, block=True)
    assert _access(board)
    _place(board, fence[-1], bf.FEATURE_LANDMARK, SEAT_1, block=True)
    assert not _access(board)


def test_access_is_checked_from_the_opposing_wall_zone() -> None:
    # Row 9 (81..89) filled with BLOCK landmarks cuts seat 2's zone (row 10) off: seat 1's wall
    # on (4,0)=4 is still reachable from seat 1's own zone, but no seat 2 troop can come near.
    # One MARSH in the row opens a route again, however long.
    board = _board()
    _place(board, 4, bf.FEATURE_WALL, SEAT_1)
    for h in range(81, 90):
        _place(board, h, bf.FEATURE_LANDMARK, 0, block=True)
    assert not _access(board)
    board["block"][81] = False
    assert _access(board)


# ------------------------------------------------------------------ properties

battlefields = st.sampled_from([FIRST, SECOND, THIRD])


@st.composite
def two_hexes(draw):
    b = draw(battlefields)
    n = int(GEO.n_hexes[b])
    return b, draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1)), draw(st.integers(0, n - 1))


@FAST
@given(two_hexes())
def test_distance_is_a_metric(case) -> None:
    b, x, y, z = case
    d = GEO.distance[b]
    assert d[x, y] == d[y, x]
    assert d[x, z] <= d[x, y] + d[y, z]
    assert (d[x, y] == 0) == (x == y)
    assert (d[x, y] == 1) == (y in GEO.neighbours[b, x])


@FAST
@given(two_hexes(), st.integers(0, 2**32 - 1))
def test_line_of_fire_is_symmetric_and_only_touched_hexes_matter(case, seed) -> None:
    b, x, y, _ = case
    rng = np.random.default_rng(seed)
    n = int(GEO.n_hexes[b])
    blocks = np.zeros(H, bool)
    blocks[:n] = rng.random(n) < 0.3
    assert _clear(b, x, y, np.flatnonzero(blocks).tolist()) == _clear(
        b, y, x, np.flatnonzero(blocks).tolist()
    )
    # hexes the line does not touch at all never matter
    grid = lbg.make_grid("hex", 9, int(GEO.n_rows[b]))
    if x != y:
        touched = lbg.zones_touched(grid, x, y)
        listed = set(GEO.lof_crossed[b, x, y].tolist()) | set(
            GEO.lof_edges[b, x, y].ravel().tolist()
        )
        assert listed - {-1} <= set(np.flatnonzero(touched).tolist()) - {x, y}
        only_untouched = np.zeros(H, bool)
        only_untouched[:n] = ~touched
        assert _clear(b, x, y, np.flatnonzero(only_untouched).tolist())


@FAST
@given(two_hexes(), st.integers(0, 5), st.integers(0, 2**32 - 1))
def test_reachable_set_grows_with_steps(case, steps, seed) -> None:
    b, start, _, _ = case
    rng = np.random.default_rng(seed)
    board = _board()
    n = int(GEO.n_hexes[b])
    board["kind"][:n] = rng.choice(4, n, p=[0.7, 0.1, 0.1, 0.1])
    board["block"][:n] = rng.random(n) < 0.5
    board["unit_owner"][:n] = rng.choice(3, n, p=[0.7, 0.15, 0.15])
    for moves in (
        lambda s: _troop_moves(board, SEAT_1, start, s, b),
        lambda s: _summon_moves(board, start, s, b),
    ):
        fewer, more = moves(steps), moves(steps + 1)
        assert np.all(more[fewer >= 0] == fewer[fewer >= 0])  # same fewest steps
        assert int((more >= 0).sum()) >= int((fewer >= 0).sum())
        assert np.all((fewer < 0) | (fewer <= steps))
        # never further than the plain distance allows
        reached = np.flatnonzero(fewer >= 0)
        assert np.all(fewer[reached] >= GEO.distance[b, start, reached])


def test_the_geometry_is_cached_on_disk_and_equals_a_fresh_build(monkeypatch):
    """Tables.battlefield loads the geometry from the numba cache folder after the first
    build (a start takes under a second); what it loads is what build_geometry builds."""
    import dataclasses

    from envs.tactica import battlefield as bfm
    from envs.tactica.tables import load_tables

    t = load_tables()
    fresh = bfm.build_geometry(t.battlefield_hexes, t.battlefield_shape)
    bfm.cached_geometry(t.battlefield_hexes, t.battlefield_shape)  # built or loaded: on disk now

    def no_build(*_):
        raise AssertionError("the cached geometry was built again")

    monkeypatch.setattr(bfm, "build_geometry", no_build)
    loaded = bfm.cached_geometry(t.battlefield_hexes, t.battlefield_shape)
    for f in dataclasses.fields(bfm.BattlefieldGeometry):
        a, b = getattr(loaded, f.name), getattr(fresh, f.name)
        assert a.dtype == b.dtype and np.array_equal(a, b), f.name
        assert not a.flags.writeable
    # another map is another file: it is built, not read from this one
    other = t.battlefield_hexes.copy()
    other[0, 0, 0] = other[0, 0, 1] if other[0, 0, 0] != other[0, 0, 1] else other[0, 5, 4]
    with pytest.raises(AssertionError, match="built again"):
        bfm.cached_geometry(other, t.battlefield_shape)
