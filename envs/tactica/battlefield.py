"""TACTICA battlefield geometry: static tables per battlefield and small numba kernels.

The first chapter of the TACTICA engine (issue 9). Everything that depends only on the hex
map (docs/rules/tactica.md TT-B.2) is computed once, in numpy, from battlefields.yaml when a
:class:`~envs.tactica.tables.Tables` is first asked for ``tables.battlefield``; later kernels
(setup, muster, movement, combat) read these arrays and call the kernels below with masks
built from their state. Hex maths (odd-r centres, sides, line clipping) is reused from
envs/legendary_battles/geometry.py.

Hex layout (odd-r, pointy-top; row 0 is seat 1's wall zone at the top)::

     / \\ / \\ / \\                 hex index: row-major over real hexes ('#' has none),
    | 0 | 1 | 2 | ...  row 0        so on a 9-wide map without holes
     \\ / \\ / \\ / \\                 index = 9 * row + col
      | 9 |10 |11 | ... row 1
     / \\ / \\ / \\ /               neighbour sides, in this order (NEIGHBOUR_SIDES):
    |18 |19 |20 | ...  row 2        0 NE, 1 E, 2 SE, 3 SW, 4 W, 5 NW

Arrays are stacked over battlefields (axis 0, ``tables.battlefield_names`` order) and padded
to MAX_HEXES; a kernel takes one battlefield's slice (``geo.neighbours[bf]``) and int64 hex
indices. Padding: -1 in index arrays, FAR in distances, so padded hexes are never adjacent,
within reach or on a line.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import numpy as np

from envs.core.config import readonly
from envs.core.jit import njit, njit_inline
from envs.legendary_battles import geometry as lbg
from envs.tactica.tables import (
    GEO_HEXES,
    GEO_LOF_CROSSED,
    GEO_LOF_EDGES,
    GEO_SIDES,
    HEX_NONE,
    HEX_ZONE_1,
    HEX_ZONE_2,
)

# --- capacities (the largest battlefield is 11 rows x 9 columns; the tables record holds the
# geometry at these shapes, envs/tactica/tables.py) --------------------------------------------
MAX_ROWS = 11
MAX_COLS = 9
MAX_HEXES = GEO_HEXES  # 99 = MAX_ROWS * MAX_COLS
N_SIDES = GEO_SIDES
NEIGHBOUR_SIDES = lbg.HEX_SIDES  # ("NE", "E", "SE", "SW", "W", "NW")
MAX_LOF_CROSSED = GEO_LOF_CROSSED  # hexes whose inside one line of fire crosses (ends excluded)
MAX_LOF_EDGES = GEO_LOF_EDGES  # hex edges one line of fire runs along
SEATS = 2
NO_HEX = -1
FAR = 9999  # distance to or from a padded (non-existent) hex

# --- per-hex occupancy codes (what later state arrays hold; the masks below read them) -------
FEATURE_NONE = 0
FEATURE_WALL = 1
FEATURE_LANDMARK = 2
FEATURE_SPIRE = 3
NO_SEAT = 0  # unit_owner / feature_owner of an empty hex; seats are 1 and 2


@dataclass(frozen=True)
class BattlefieldGeometry:
    """Static geometry of every battlefield (read-only arrays, battlefield axis first)."""

    n_hexes: np.ndarray  # int16[B] real hexes of each battlefield
    n_rows: np.ndarray  # int16[B] rows of each battlefield
    n_cols: np.ndarray  # int16[B] columns of each battlefield
    hex_at: np.ndarray  # int16[B, MAX_ROWS, MAX_COLS] hex index at (row, col), -1: no hex
    hex_col: np.ndarray  # int16[B, MAX_HEXES] column of each hex, -1 padding
    hex_row: np.ndarray  # int16[B, MAX_HEXES] row of each hex, -1 padding
    wall_zone: np.ndarray  # bool[B, SEATS, MAX_HEXES] hex is in seat (index + 1)'s wall zone
    neighbours: np.ndarray  # int16[B, MAX_HEXES, N_SIDES] hex across each side, -1 none
    distance: np.ndarray  # int16[B, MAX_HEXES, MAX_HEXES] fewest steps (TT-B.2.2), FAR padding
    # line of fire (TT-B.2.8) for the ordered pair (a, b), end hexes excluded:
    lof_crossed: np.ndarray  # int16[B, H, H, MAX_LOF_CROSSED] hexes it crosses inside, -1 pad
    lof_edges: np.ndarray  # int16[B, H, H, MAX_LOF_EDGES, 2] hex pairs it runs between, -1 pad

    def hex_index(self, bf: int, col: int, row: int) -> int:
        """Index of the hex at (col, row) on battlefield bf; ValueError if there is none."""
        if not (0 <= row < int(self.n_rows[bf]) and 0 <= col < int(self.n_cols[bf])):
            raise ValueError(f"no hex at (col={col}, row={row}) on battlefield {bf}")
        h = int(self.hex_at[bf, row, col])
        if h < 0:
            raise ValueError(f"no hex at (col={col}, row={row}) on battlefield {bf}")
        return h


def _bfs_distances(neighbours: np.ndarray, n: int) -> np.ndarray:
    """Fewest steps between hexes of one map, stepping only onto real hexes."""
    dist = np.full((n, n), FAR, dtype=np.int16)
    for s in range(n):
        dist[s, s] = 0
        frontier = [s]
        d = 0
        while frontier:
            d += 1
            nxt = []
            for h in frontier:
                for y in neighbours[h]:
                    if y >= 0 and dist[s, y] == FAR:
                        dist[s, y] = d
                        nxt.append(int(y))
            frontier = nxt
    return dist


def cached_geometry(hexes: np.ndarray, shapes: np.ndarray) -> BattlefieldGeometry:
    """build_geometry, kept on disk: building the lines of fire takes about a second in
    Python, a start should take less in all. The file lives beside the ruleset's compiled
    kernels (envs/core/jit.cache_dir, whose name hashes this module's source) and is named
    after a hash of the battlefields, so a changed map or geometry code is never read from a
    stale file; an unreadable or unwritable cache only costs the build."""
    import hashlib
    import os

    from envs.core.jit import cache_dir

    h = hashlib.sha256(np.ascontiguousarray(hexes).tobytes())
    h.update(np.ascontiguousarray(shapes).tobytes())
    h.update(str((hexes.shape, hexes.dtype, shapes.shape, shapes.dtype)).encode())
    names = [f.name for f in dataclasses.fields(BattlefieldGeometry)]
    try:
        path = cache_dir("tactica") / f"geometry-{h.hexdigest()[:16]}.npz"
        with np.load(path, allow_pickle=False) as z:
            return BattlefieldGeometry(**{n: readonly(z[n]) for n in names})
    except (OSError, KeyError, ValueError):
        pass
    geo = build_geometry(hexes, shapes)
    try:
        tmp = path.with_name(f"{path.stem}.{os.getpid()}.tmp.npz")
        np.savez(tmp, **{n: getattr(geo, n) for n in names})
        tmp.replace(path)  # never a half-written file under the final name
    except (OSError, NameError):
        pass
    return geo


def build_geometry(hexes: np.ndarray, shapes: np.ndarray) -> BattlefieldGeometry:
    """Geometry of every battlefield from ``Tables.battlefield_hexes`` (int8[B, R, C] HEX_*
    codes) and ``Tables.battlefield_shape`` (int8[B, 2] rows, columns)."""
    nb = int(hexes.shape[0])
    n_hexes = np.zeros(nb, dtype=np.int16)
    hex_at = np.full((nb, MAX_ROWS, MAX_COLS), NO_HEX, dtype=np.int16)
    hex_col = np.full((nb, MAX_HEXES), NO_HEX, dtype=np.int16)
    hex_row = np.full((nb, MAX_HEXES), NO_HEX, dtype=np.int16)
    wall_zone = np.zeros((nb, SEATS, MAX_HEXES), dtype=bool)
    neighbours = np.full((nb, MAX_HEXES, N_SIDES), NO_HEX, dtype=np.int16)
    distance = np.full((nb, MAX_HEXES, MAX_HEXES), FAR, dtype=np.int16)
    lof_crossed = np.full((nb, MAX_HEXES, MAX_HEXES, MAX_LOF_CROSSED), NO_HEX, dtype=np.int16)
    lof_edges = np.full((nb, MAX_HEXES, MAX_HEXES, MAX_LOF_EDGES, 2), NO_HEX, dtype=np.int16)
    for bf in range(nb):
        rows, cols = int(shapes[bf, 0]), int(shapes[bf, 1])
        if rows > MAX_ROWS or cols > MAX_COLS:
            raise ValueError(
                f"battlefield {bf} is {rows} x {cols} hexes, more than MAX_ROWS x MAX_COLS "
                f"= {MAX_ROWS} x {MAX_COLS}"
            )
        codes = hexes[bf, :rows, :cols]
        off = {(c, r) for r in range(rows) for c in range(cols) if codes[r, c] == HEX_NONE}
        grid = lbg.make_grid("hex", cols, rows, off)
        n = grid.n_zones
        n_hexes[bf] = n
        hex_at[bf, :rows, :cols] = grid.zone_index
        hex_col[bf, :n] = grid.col
        hex_row[bf, :n] = grid.row
        zone_codes = codes[grid.row, grid.col]
        wall_zone[bf, 0, :n] = zone_codes == HEX_ZONE_1
        wall_zone[bf, 1, :n] = zone_codes == HEX_ZONE_2
        neighbours[bf, :n] = grid.neighbour
        distance[bf, :n, :n] = _bfs_distances(grid.neighbour, n)
        _lines_of_fire(grid, lof_crossed[bf], lof_edges[bf])
    return BattlefieldGeometry(
        n_hexes=readonly(n_hexes),
        n_rows=readonly(shapes[:, 0], np.int16),
        n_cols=readonly(shapes[:, 1], np.int16),
        hex_at=readonly(hex_at),
        hex_col=readonly(hex_col),
        hex_row=readonly(hex_row),
        wall_zone=readonly(wall_zone),
        neighbours=readonly(neighbours),
        distance=readonly(distance),
        lof_crossed=readonly(lof_crossed),
        lof_edges=readonly(lof_edges),
    )


def _lines_of_fire(grid: lbg.Grid, crossed: np.ndarray, edges: np.ndarray) -> None:
    """Fill one battlefield's line-of-fire lists (both orders of each pair: a line is the
    same set of points either way). A hex met only at a corner is in neither list (R24); an
    edge on the map's border is left out, as no hex beyond it can block (R24)."""
    n = grid.n_zones
    for a in range(n):
        for b in range(a + 1, n):
            inside = lbg.zones_crossed(grid, a, b)
            inside[[a, b]] = False
            xs = np.flatnonzero(inside)
            along = lbg.sides_run_along(grid, grid.centre[a], grid.centre[b])
            pairs = sorted(
                {
                    (min(z, int(grid.neighbour[z, k])), max(z, int(grid.neighbour[z, k])))
                    for z, k in zip(*np.nonzero(along), strict=True)
                    if grid.neighbour[z, k] >= 0
                }
            )
            if len(xs) > MAX_LOF_CROSSED or len(pairs) > MAX_LOF_EDGES:
                raise ValueError(
                    f"line of fire {a}-{b} crosses {len(xs)} hexes and runs along "
                    f"{len(pairs)} edges: raise MAX_LOF_CROSSED / MAX_LOF_EDGES"
                )
            for i, j in ((a, b), (b, a)):
                crossed[i, j, : len(xs)] = xs
                for k, p in enumerate(pairs):
                    edges[i, j, k] = p


# ----------------------------------------------------------------------------------------------
# Kernels: one battlefield's slice of the arrays above, int64 hex indices, masks bool[H]
# (H = MAX_HEXES; entries of padded hexes are never read).


@njit_inline
def blocks_fire(feature_kind: np.ndarray, feature_block: np.ndarray, out: np.ndarray) -> None:
    """out[h] = hex h stops a line of fire (TT-B.2.5, TT-B.2.7, TT-A.11.9): it holds a wall, a
    spire or a landmark whose face-up side has BLOCK. Troops and summons never block
    (TT-B.2.8). feature_kind: int8[H] FEATURE_*; feature_block: bool[H]."""
    for h in range(out.shape[0]):
        k = feature_kind[h]
        out[h] = (
            k == FEATURE_WALL or k == FEATURE_SPIRE or (k == FEATURE_LANDMARK and feature_block[h])
        )


@njit_inline
def line_of_fire_clear(
    lof_crossed: np.ndarray, lof_edges: np.ndarray, a: np.int64, b: np.int64, blocks: np.ndarray
) -> bool:
    """TT-B.2.8: the line between the centres of a and b passes through no blocking hex (its
    inside; end hexes excluded), and where it runs along an edge, not both hexes of that edge
    block. lof_crossed, lof_edges: one battlefield's slice; blocks: bool[H] (blocks_fire)."""
    for k in range(lof_crossed.shape[2]):
        h = lof_crossed[a, b, k]
        if h < 0:
            break
        if blocks[h]:
            return False
    for k in range(lof_edges.shape[2]):
        h = lof_edges[a, b, k, 0]
        if h < 0:
            break
        if blocks[h] and blocks[lof_edges[a, b, k, 1]]:
            return False
    return True


@njit
def within(distance: np.ndarray, a: np.int64, b: np.int64, n: np.int64) -> bool:
    """TT-B.2.2: hex b is within n hexes of a (at distance n or less)."""
    return distance[a, b] <= n


@njit
def hexes_within(distance: np.ndarray, a: np.int64, n: np.int64, out: np.ndarray) -> np.int64:
    """out[h] = h is within n hexes of a (a itself included); returns how many are."""
    count = 0
    for h in range(out.shape[0]):
        out[h] = distance[a, h] <= n
        if out[h]:
            count += 1
    return count


@njit
def _spread(
    neighbours: np.ndarray,
    steps: np.int64,
    passable: np.ndarray,
    stops: np.ndarray,
    dist: np.ndarray,
    queue: np.ndarray,
    may_end: np.ndarray,
    first: bool,
) -> bool:
    """Breadth-first spread from the hexes with dist == 0 (the sources; dist is -1 elsewhere):
    dist[h] becomes the fewest steps to enter h, up to `steps`. A hex is entered only if it is
    passable; a move goes on from a source or from an entered hex that does not stop it.
    With `first`, stops and returns True on entering the first hex where may_end; otherwise
    returns False. queue: int64[H] scratch (each hex is queued once)."""
    tail = 0
    for h in range(dist.shape[0]):
        if dist[h] == 0:
            queue[tail] = h
            tail += 1
    head = 0
    while head < tail:
        h = queue[head]
        head += 1
        d = dist[h]
        if d >= steps or (d > 0 and stops[h]):
            continue
        for k in range(neighbours.shape[1]):
            y = neighbours[h, k]
            if y >= 0 and dist[y] < 0 and passable[y]:
                dist[y] = d + 1
                if first and may_end[y]:
                    return True
                queue[tail] = y
                tail += 1
    return False


@njit_inline
def reachable_hexes(
    neighbours: np.ndarray,
    start: np.int64,
    steps: np.int64,
    passable: np.ndarray,
    stops: np.ndarray,
    may_end: np.ndarray,
    out: np.ndarray,
) -> np.int64:
    """Hexes a mover on `start` can end a move of up to `steps` steps on (TT-B.7.3.1-2,
    TT-A.11.3-5): out[h] = fewest steps to reach h, or -1 where it cannot end there. The
    move enters only `passable` hexes, ends at once on entering a `stops` hex (a landmark,
    for troops), and may end only where `may_end`; `start` itself is never listed (staying
    is not a move). out: int64[H]. Returns how many hexes are listed. Masks: troop_masks,
    summon_masks."""
    for h in range(out.shape[0]):
        out[h] = -1
    out[start] = 0
    queue = np.empty(out.shape[0], dtype=np.int64)
    _spread(neighbours, steps, passable, stops, out, queue, may_end, False)
    out[start] = -1
    count = 0
    for h in range(out.shape[0]):
        if out[h] > 0 and not may_end[h]:
            out[h] = -1
        elif out[h] > 0:
            count += 1
    return count


@njit_inline
def has_destination(
    neighbours: np.ndarray,
    start: np.int64,
    steps: np.int64,
    passable: np.ndarray,
    stops: np.ndarray,
    may_end: np.ndarray,
    dist: np.ndarray,
    queue: np.ndarray,
) -> bool:
    """reachable_hexes(...) > 0, stopping at the first hex the mover may end on. dist, queue:
    int64[H] scratch."""
    for h in range(dist.shape[0]):
        dist[h] = -1
    dist[start] = 0
    return _spread(neighbours, steps, passable, stops, dist, queue, may_end, True)


@njit
def _troop_can_enter(kind: np.int64, block: bool) -> bool:
    """The features a troop may enter: none, or a landmark without BLOCK (TT-B.2.5, TT-B.2.7,
    TT-A.11.9)."""
    return kind == FEATURE_NONE or (kind == FEATURE_LANDMARK and not block)


@njit
def troop_masks(
    feature_kind: np.ndarray,
    feature_block: np.ndarray,
    unit_owner: np.ndarray,
    seat: np.int64,
    passable: np.ndarray,
    stops: np.ndarray,
    may_end: np.ndarray,
) -> None:
    """Movement masks of a troop of `seat` (TT-B.7.3.2, TT-B.2.4, TT-B.2.6): it passes through
    empty hexes and friendly units, not enemy units, walls, spires or BLOCK landmarks; entering
    a landmark ends its move; it ends only on a hex without a unit. unit_owner: int8[H], the
    seat of the troop or summon on each hex (NO_SEAT: none; a summon counts as a unit, R25)."""
    for h in range(passable.shape[0]):
        owner = unit_owner[h]
        passable[h] = _troop_can_enter(np.int64(feature_kind[h]), feature_block[h]) and (
            owner == NO_SEAT or owner == seat
        )
        stops[h] = feature_kind[h] == FEATURE_LANDMARK
        may_end[h] = passable[h] and owner == NO_SEAT


@njit_inline
def summon_masks(
    feature_kind: np.ndarray,
    unit_owner: np.ndarray,
    passable: np.ndarray,
    stops: np.ndarray,
    may_end: np.ndarray,
) -> None:
    """Movement masks of a summon (TT-A.11.3-11.5): it passes through landmarks (BLOCK
    included), walls, troops and summons of either seat, never stops early, and ends only on a
    hex with no feature and no unit. Spires stay impassable (R25)."""
    for h in range(passable.shape[0]):
        kind = feature_kind[h]
        passable[h] = kind != FEATURE_SPIRE
        stops[h] = False
        may_end[h] = kind == FEATURE_NONE and unit_owner[h] == NO_SEAT


@njit
def _holds_home_feature(kind: np.int64, owner: np.int64, seat: np.int64) -> bool:
    """A wall card or spire of `seat`: the features whose access TT-B.6.6 protects."""
    return owner == seat and (kind == FEATURE_WALL or kind == FEATURE_SPIRE)


@njit
def reach_from_zone(
    neighbours: np.ndarray,
    wall_zone: np.ndarray,
    passable: np.ndarray,
    zone: np.int64,
    removed: np.int64,
    reached: np.ndarray,
    queue: np.ndarray,
) -> None:
    """reached[h] = a troop starting in wall zone `zone` (0 or 1: seat zone + 1) could enter h,
    however many moves it takes, through passable hexes other than `removed` (NO_HEX: none).
    A queue breadth-first search (each hex once), the access part of TT-B.6.6 (access_ok).
    reached: bool[H]; queue: int64[H] scratch."""
    n = reached.shape[0]
    tail = 0
    for h in range(n):
        src = wall_zone[zone, h] and passable[h] and h != removed
        reached[h] = src
        if src:
            queue[tail] = h
            tail += 1
    head = 0
    while head < tail:
        h = queue[head]
        head += 1
        for k in range(neighbours.shape[1]):
            y = neighbours[h, k]
            if y >= 0 and y != removed and not reached[y] and passable[y]:
                reached[y] = True
                queue[tail] = y
                tail += 1


@njit
def touches(neighbours: np.ndarray, reached: np.ndarray, h: np.int64, removed: np.int64) -> bool:
    """Hex h has a neighbour other than `removed` marked in `reached` (a feature on h has
    access, TT-B.6.6)."""
    for k in range(neighbours.shape[1]):
        y = neighbours[h, k]
        if y >= 0 and y != removed and reached[y]:
            return True
    return False


@njit_inline
def zone_separators(
    neighbours: np.ndarray,
    wall_zone: np.ndarray,
    passable: np.ndarray,
    zone: np.int64,
    sep: np.ndarray,
    work: np.ndarray,
) -> None:
    """sep[v] = making passable hex v impassable cuts some other hex off from wall zone `zone`
    (the articulation points of the passable hexes joined to one virtual root standing for the
    zone; Hopcroft-Tarjan, one iterative depth-first search). Where sep[v] is False, the hexes
    reachable without v are exactly those reachable with it, less v: setup.py's placements
    use this to test each candidate hex without a new search. sep: bool[H]; work: int64[5, H]
    scratch (discovery order, low point, parent, next side, stack)."""
    n = sep.shape[0]
    n_sides = neighbours.shape[1]
    disc = work[0]
    low = work[1]
    parent = work[2]
    side = work[3]
    stack = work[4]
    root = -2  # parent of the zone's first hexes: the virtual root (discovery time 0)
    for v in range(n):
        sep[v] = False
        disc[v] = -1
    t = 1
    for s in range(n):
        if disc[s] >= 0 or not (wall_zone[zone, s] and passable[s]):
            continue
        disc[s] = t
        low[s] = t
        t += 1
        parent[s] = root
        side[s] = 0
        top = 0
        stack[0] = s
        while top >= 0:
            v = stack[top]
            if side[v] < n_sides:
                y = neighbours[v, side[v]]
                side[v] += 1
                if y < 0 or not passable[y]:
                    continue
                if disc[y] < 0:
                    disc[y] = t
                    # a zone hex is also joined to the root: a back edge to time 0
                    low[y] = 0 if wall_zone[zone, y] else t
                    t += 1
                    parent[y] = v
                    side[y] = 0
                    top += 1
                    stack[top] = y
                elif y != parent[v] and disc[y] < low[v]:
                    low[v] = disc[y]
            else:
                top -= 1
                u = parent[v]
                if u >= 0:
                    if low[v] < low[u]:
                        low[u] = low[v]
                    if low[v] >= disc[u]:
                        sep[u] = True


@njit
def access_ok(
    neighbours: np.ndarray,
    wall_zone: np.ndarray,
    feature_kind: np.ndarray,
    feature_block: np.ndarray,
    feature_owner: np.ndarray,
    masks: np.ndarray,
    dist: np.ndarray,
) -> bool:
    """TT-B.6.6 / TT-A.10.9: every wall card and spire has an adjacent hex that a troop of the
    other seat could reach, however many moves it takes, from that seat's own wall zone
    (R26: the features alone decide; troops on the field do not count, and a landmark only
    ends one move, not the route). wall_zone: bool[SEATS, H] (one battlefield's slice);
    feature_owner: int8[H] seat of each feature; masks: bool[2, H] and dist: int64[H] are
    scratch."""
    n = dist.shape[0]
    passable = masks[0]
    reached = masks[1]
    for h in range(n):
        passable[h] = _troop_can_enter(np.int64(feature_kind[h]), feature_block[h])
    for seat in range(1, SEATS + 1):
        enemy = SEATS + 1 - seat
        wanted = False
        for h in range(n):
            if _holds_home_feature(np.int64(feature_kind[h]), np.int64(feature_owner[h]), seat):
                wanted = True
                break
        if not wanted:
            continue
        # every hex an enemy troop may enter, spreading from its own wall zone
        reach_from_zone(
            neighbours, wall_zone, passable, np.int64(enemy - 1), np.int64(NO_HEX), reached, dist
        )
        for h in range(n):
            if not _holds_home_feature(np.int64(feature_kind[h]), np.int64(feature_owner[h]), seat):
                continue
            if not touches(neighbours, reached, np.int64(h), np.int64(NO_HEX)):
                return False
    return True
