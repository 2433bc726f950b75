"""Zone-map geometry for Legendary Battles, in plain numpy.

The seed (Legendary Battles, PART III "Rules for the map") plays Fantasy Cards on a map of
zones: squares or hexes. Everything here is pure geometry over zone centres and zone sides;
the game kernels of a later issue will read the arrays built here.

Zone layouts (column ``c``, row ``r``; row 0 is the top of the map, "North")::

    square                               hex (pointy-top, odd rows shifted right: "odd-r")
    +---+---+---+                         / \\ / \\ / \\
    |0,0|1,0|2,0|   sides N E S W          |0,0|1,0|2,0|      sides NE E SE SW W NW
    +---+---+---+   (clockwise from N)      \\ / \\ / \\ / \\
    |0,1|1,1|2,1|                            |0,1|1,1|2,1|
    +---+---+---+                             \\ / \\ / \\ /

Side ``k`` of a zone runs from its vertex ``k`` to vertex ``k+1`` (clockwise on the page).
Zone centres: square ``(c, r)``; hex ``(c + 0.5 * (r odd), r * sqrt(3) / 2)``, so that
neighbouring centres are 1 apart on both grids.

Readings used here (docs/rules/legendary_battles.md): zones are adjacent when they share a
side (R2); distance in zones is the fewest side-crossings on the full grid (R2); a line
"touches" a zone when it meets any part of the closed zone, corners included (R9); routes
take the zones whose inside the line crosses and, where two of them meet only at a corner or
along a side, one of the zones touched there, chosen by the owner (R10).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

SQUARE = 0
HEX = 1
SHAPES = {"square": SQUARE, "hex": HEX}

# Side names in side-index order (clockwise from the top).
SQUARE_SIDES = ("N", "E", "S", "W")
HEX_SIDES = ("NE", "E", "SE", "SW", "W", "NW")
# Directions an oversized unit's footprint may extend in: sides, and on squares the corners.
SQUARE_DIRECTIONS = ("N", "E", "S", "W", "NE", "SE", "SW", "NW")
HEX_DIRECTIONS = HEX_SIDES

_SQ3 = float(np.sqrt(3.0))
_EPS = 1e-9
_INSIDE = 1e-7

# (dc, dr) of the neighbour through each side/direction.
_SQUARE_STEP = {
    "N": (0, -1),
    "E": (1, 0),
    "S": (0, 1),
    "W": (-1, 0),
    "NE": (1, -1),
    "SE": (1, 1),
    "SW": (-1, 1),
    "NW": (-1, -1),
}
# odd-r offset: the step depends on the parity of the row.
_HEX_STEP_EVEN = {
    "NE": (0, -1),
    "E": (1, 0),
    "SE": (0, 1),
    "SW": (-1, 1),
    "W": (-1, 0),
    "NW": (-1, -1),
}
_HEX_STEP_ODD = {
    "NE": (1, -1),
    "E": (1, 0),
    "SE": (1, 1),
    "SW": (0, 1),
    "W": (-1, 0),
    "NW": (0, -1),
}


def side_names(shape: int) -> tuple[str, ...]:
    return SQUARE_SIDES if shape == SQUARE else HEX_SIDES


def direction_names(shape: int) -> tuple[str, ...]:
    return SQUARE_DIRECTIONS if shape == SQUARE else HEX_DIRECTIONS


def step(shape: int, col: int, row: int, direction: str) -> tuple[int, int]:
    """The (col, row) one zone away through `direction` (a side, or a square's corner)."""
    if shape == SQUARE:
        dc, dr = _SQUARE_STEP[direction]
    else:
        dc, dr = (_HEX_STEP_ODD if row & 1 else _HEX_STEP_EVEN)[direction]
    return col + dc, row + dr


def zone_centre(shape: int, col: float, row: float) -> tuple[float, float]:
    if shape == SQUARE:
        return float(col), float(row)
    return float(col) + 0.5 * (int(row) & 1), float(row) * _SQ3 / 2.0


def _polygon(shape: int, cx: float, cy: float) -> np.ndarray:
    if shape == SQUARE:
        off = [(-0.5, -0.5), (0.5, -0.5), (0.5, 0.5), (-0.5, 0.5)]
    else:
        s = 1.0 / _SQ3  # hex side length for a centre spacing of 1
        off = [(0.0, -s), (0.5, -s / 2), (0.5, s / 2), (0.0, s), (-0.5, s / 2), (-0.5, -s / 2)]
    return np.array([(cx + dx, cy + dy) for dx, dy in off], dtype=np.float64)


def _ro(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


@dataclass(frozen=True)
class Grid:
    """The zones of one map: indices, centres, sides and neighbours (read-only arrays).

    zone_index[row, col]: zone index, -1 where the map has no zone (its centre is off the map).
    col[Z], row[Z]: the grid position of each zone. centre[Z, 2]: zone centre (x, y).
    vertex[Z, S, 2]: polygon corners; side k runs vertex k -> vertex k+1.
    neighbour[Z, S]: the zone across side k, -1 at the map edge.
    normal[Z, S, 2], offset[Z, S]: outward unit normals; a point p is inside zone z when
    normal[z, k] . p - offset[z, k] <= 0 for every side k.
    """

    shape: int
    width: int
    height: int
    zone_index: np.ndarray
    col: np.ndarray
    row: np.ndarray
    centre: np.ndarray
    vertex: np.ndarray
    neighbour: np.ndarray
    normal: np.ndarray
    offset: np.ndarray
    _axial: np.ndarray = field(repr=False)

    @property
    def n_zones(self) -> int:
        return int(self.col.shape[0])

    @property
    def n_sides(self) -> int:
        return 4 if self.shape == SQUARE else 6

    @property
    def sides(self) -> tuple[str, ...]:
        return side_names(self.shape)

    def zone(self, col: int, row: int) -> int:
        """Index of the zone at (col, row), -1 if there is none."""
        if 0 <= col < self.width and 0 <= row < self.height:
            return int(self.zone_index[row, col])
        return -1

    def side_index(self, name: str) -> int:
        return self.sides.index(name)


def make_grid(
    shape: int | str, width: int, height: int, off_map: set[tuple[int, int]] | None = None
) -> Grid:
    """Build the zones of a `width` x `height` map; `off_map` (col, row) have no zone (R1)."""
    shape = SHAPES[shape] if isinstance(shape, str) else int(shape)
    off = off_map or set()
    zone_index = np.full((height, width), -1, dtype=np.int16)
    cols, rows = [], []
    for r in range(height):
        for c in range(width):
            if (c, r) in off:
                continue
            zone_index[r, c] = len(cols)
            cols.append(c)
            rows.append(r)
    n = len(cols)
    n_sides = 4 if shape == SQUARE else 6
    names = side_names(shape)
    centre = np.array(
        [zone_centre(shape, c, r) for c, r in zip(cols, rows, strict=True)], dtype=np.float64
    ).reshape(n, 2)
    vertex = np.array([_polygon(shape, x, y) for x, y in centre], dtype=np.float64).reshape(
        n, n_sides, 2
    )
    neighbour = np.full((n, n_sides), -1, dtype=np.int16)
    for z in range(n):
        for k, name in enumerate(names):
            c2, r2 = step(shape, cols[z], rows[z], name)
            if 0 <= c2 < width and 0 <= r2 < height:
                neighbour[z, k] = zone_index[r2, c2]
    a = vertex
    b = np.roll(vertex, -1, axis=1)
    e = b - a
    normal = np.stack([e[..., 1], -e[..., 0]], axis=-1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    mid = (a + b) / 2.0
    flip = np.einsum("zsk,zsk->zs", normal, mid - centre[:, None, :]) < 0
    normal[flip] *= -1.0
    offset = np.einsum("zsk,zsk->zs", normal, a)
    col_a = np.array(cols, dtype=np.int16)
    row_a = np.array(rows, dtype=np.int16)
    if shape == SQUARE:
        axial = np.stack([col_a, row_a], axis=1).astype(np.int32)
    else:
        q = col_a.astype(np.int32) - (row_a.astype(np.int32) - (row_a.astype(np.int32) & 1)) // 2
        axial = np.stack([q, row_a.astype(np.int32)], axis=1)
    return Grid(
        shape=shape,
        width=width,
        height=height,
        zone_index=_ro(zone_index),
        col=_ro(col_a),
        row=_ro(row_a),
        centre=_ro(centre),
        vertex=_ro(vertex),
        neighbour=_ro(neighbour),
        normal=_ro(normal),
        offset=_ro(offset),
        _axial=_ro(axial),
    )


# ----------------------------------------------------------------------------------------------
# Adjacency and distance ("Distances": "Zones for distances", "Calculating battlefield
# distances", "Measuring an effect radius")


def are_adjacent(grid: Grid, a: int, b: int) -> bool:
    """Zones sharing a side (R2: squares touching only at a corner are not adjacent)."""
    return bool(np.any(grid.neighbour[a] == b))


def distance(grid: Grid, a: int, b: int) -> int:
    """Distance in zones: the fewest zone sides crossed going from a to b on the full grid."""
    qa, ra = grid._axial[a]
    qb, rb = grid._axial[b]
    dq, dr = int(qb - qa), int(rb - ra)
    if grid.shape == SQUARE:
        return abs(dq) + abs(dr)
    return (abs(dq) + abs(dr) + abs(dq + dr)) // 2


def distance_matrix(grid: Grid) -> np.ndarray:
    """distance(a, b) for every pair, int16[Z, Z]."""
    q = grid._axial[:, 0][:, None] - grid._axial[:, 0][None, :]
    r = grid._axial[:, 1][:, None] - grid._axial[:, 1][None, :]
    if grid.shape == SQUARE:
        d = np.abs(q) + np.abs(r)
    else:
        d = (np.abs(q) + np.abs(r) + np.abs(q + r)) // 2
    return _ro(d.astype(np.int16))


def zones_in_radius(grid: Grid, origin: int, radius: int) -> np.ndarray:
    """bool[Z]: the zones an effect of `radius` zones reaches. The origin zone is not counted
    in the radius ("Measuring an effect radius"), so radius 1 is the origin and its
    neighbours."""
    return distance_matrix(grid)[origin] <= radius


def shortest_side_zones(grid: Grid) -> int:
    """Zones counted along the shortest side of the full map ("Calculating battlefield
    distances"): partial zones whose centre shows count as full zones."""
    return min(grid.width, grid.height)


def battlefield_distances(shortest_side: int) -> dict[str, int]:
    """Fantasy Cards Table 2 in zones: Very Long is the shortest side; each shorter distance
    halves the one above; a distance that ends in a partial zone rounds up (R3)."""
    names = ("Very Long", "Long", "Medium", "Short", "Very Short")
    out = {}
    for halvings, name in enumerate(names):
        # ceil(shortest_side / 2**halvings) in integers
        out[name] = max(1, -(-shortest_side // (1 << halvings)))
    return out


# ----------------------------------------------------------------------------------------------
# Lines between zone centres ("Line of sight": "Drawing LOS"; "Fall back movement";
# "Random drift movement")


def _clip(grid: Grid, p0: np.ndarray, d: np.ndarray, t_max: float) -> tuple[np.ndarray, np.ndarray]:
    """Cyrus-Beck clip of p0 + t d, t in [0, t_max], against every closed zone polygon.

    Returns (t_in[Z], t_out[Z]); t_in > t_out where the line misses the zone."""
    f0 = np.einsum("zsk,k->zs", grid.normal, p0) - grid.offset  # signed distance at t=0
    dn = np.einsum("zsk,k->zs", grid.normal, d)
    t_in = np.zeros(grid.n_zones)
    t_out = np.full(grid.n_zones, t_max)
    par = np.abs(dn) < 1e-12
    miss = np.any(par & (f0 > _EPS), axis=1)
    with np.errstate(divide="ignore", invalid="ignore"):
        t_side = (_EPS - f0) / dn
    t_out = np.minimum(t_out, np.where(~par & (dn > 0), t_side, np.inf).min(axis=1))
    t_in = np.maximum(t_in, np.where(~par & (dn < 0), t_side, -np.inf).max(axis=1))
    t_in[miss] = np.inf
    return t_in, t_out


def _crosses_inside(
    grid: Grid, p0: np.ndarray, d: np.ndarray, t_in: np.ndarray, t_out: np.ndarray
) -> np.ndarray:
    """bool[Z]: the chord passes through the zone's inside, not only a corner or a side."""
    tm = (t_in + t_out) / 2.0
    ok = t_out - t_in > 1e-6
    pm = p0[None, :] + np.where(ok, tm, 0.0)[:, None] * d[None, :]
    f = np.einsum("zsk,zk->zs", grid.normal, pm) - grid.offset
    return ok & (f.max(axis=1) < -_INSIDE)


def zones_touched(grid: Grid, a: int, b: int) -> np.ndarray:
    """bool[Z]: zones the straight line from a's centre to b's centre touches, any part of the
    closed zone counting, corners and sides included (R9). a and b themselves are included."""
    p0 = grid.centre[a]
    d = grid.centre[b] - p0
    t_in, t_out = _clip(grid, p0, d, 1.0)
    return t_in <= t_out


def zones_crossed(grid: Grid, a: int, b: int) -> np.ndarray:
    """bool[Z]: zones whose inside the straight line from a's centre to b's centre passes
    through; a zone met only at a corner or along a side is not crossed. a and b are
    included (the line starts and ends inside them)."""
    p0 = grid.centre[a]
    d = grid.centre[b] - p0
    t_in, t_out = _clip(grid, p0, d, 1.0)
    return _crosses_inside(grid, p0, d, t_in, t_out)


def sides_run_along(grid: Grid, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    """bool[Z, S]: zone sides that the segment p0-p1 runs along for a positive length (the
    segment lies on the side's line and overlaps it by more than a point)."""
    a = grid.vertex
    e = np.roll(grid.vertex, -1, axis=1) - a
    d = p1 - p0
    dd = float(d @ d)
    w0 = a - p0
    w1 = w0 + e
    # both side ends on the segment's line (cross products ~ 0, scaled by |d|)
    norm = float(np.sqrt(dd))
    on0 = np.abs(w0[..., 0] * d[1] - w0[..., 1] * d[0]) / norm <= 1e-9
    on1 = np.abs(w1[..., 0] * d[1] - w1[..., 1] * d[0]) / norm <= 1e-9
    s0 = np.einsum("zsk,k->zs", w0, d) / dd
    s1 = np.einsum("zsk,k->zs", w1, d) / dd
    lo = np.maximum(np.minimum(s0, s1), 0.0)
    hi = np.minimum(np.maximum(s0, s1), 1.0)
    return on0 & on1 & (hi - lo > 1e-6)


def sides_touched(grid: Grid, p0: np.ndarray, p1: np.ndarray) -> np.ndarray:
    """bool[Z, S]: zone sides the segment p0-p1 meets, the sides' end corners included
    ("LOS & linear terrain": "including the adjacent corners")."""
    a = grid.vertex
    e = np.roll(grid.vertex, -1, axis=1) - a
    d = p1 - p0
    w = a - p0  # [Z,S,2]
    denom = d[0] * e[..., 1] - d[1] * e[..., 0]
    cw_e = w[..., 0] * e[..., 1] - w[..., 1] * e[..., 0]
    cw_d = w[..., 0] * d[1] - w[..., 1] * d[0]
    tol = 1e-9
    with np.errstate(divide="ignore", invalid="ignore"):
        t = cw_e / denom
        u = cw_d / denom
    proper = (np.abs(denom) > 1e-12) & (t >= -tol) & (t <= 1 + tol) & (u >= -tol) & (u <= 1 + tol)
    # Parallel and collinear: overlap of projections on d.
    coll = (np.abs(denom) <= 1e-12) & (np.abs(cw_d) <= 1e-9)
    dd = float(d @ d)
    s0 = np.einsum("zsk,k->zs", w, d) / dd
    s1 = np.einsum("zsk,k->zs", w + e, d) / dd
    lo, hi = np.minimum(s0, s1), np.maximum(s0, s1)
    overlap = coll & (hi >= -tol) & (lo <= 1 + tol)
    return proper | overlap


def line_route(grid: Grid, start: int, through: int) -> list[tuple[int, ...]]:
    """The zones a line from `start`'s centre through `through`'s centre and beyond enters,
    in order, up to the map edge ("Moving the unit", "Moving the Target Point").

    Each step is a tuple of zones: one zone, or two or more equal options where the line
    passes exactly through a corner or along a side between two zones it crosses (R10); the
    owner chooses ("Making decisions"). `start` is not part of the route. The route stops
    where the next zone would be off the map."""
    if start == through:
        raise ValueError("a route needs two different zones")
    p0 = grid.centre[start]
    d = grid.centre[through] - p0
    span = np.ptp(grid.centre, axis=0).sum() + 2.0
    t_max = span / float(np.hypot(*d)) + 1.0
    t_in, t_out = _clip(grid, p0, d, t_max)
    touched = t_in <= t_out
    inside = _crosses_inside(grid, p0, d, t_in, t_out)
    order = [int(z) for z in np.argsort(t_in, kind="stable") if inside[z] and z != start]
    steps: list[tuple[int, ...]] = []
    prev = start
    for z in order:
        if not are_adjacent(grid, prev, z):
            lo, hi = t_out[prev] - 1e-6, t_in[z] + 1e-6
            options = tuple(
                int(y)
                for y in np.flatnonzero(touched & ~inside)
                if t_in[y] <= hi
                and t_out[y] >= lo
                and are_adjacent(grid, prev, int(y))
                and are_adjacent(grid, int(y), z)
            )
            if not options:
                break  # a gap: the line leaves the map here
            steps.append(options)
        steps.append((z,))
        prev = z
    return steps


def fall_back_route(grid: Grid, attacker: int, target: int) -> list[tuple[int, ...]]:
    """Fall Back route: the line from the attacker's zone centre through the target's zone
    centre and beyond; the target enters the zones after its own ("Determining the route")."""
    steps = line_route(grid, attacker, target)
    i = steps.index((target,))
    return steps[i + 1 :]


def random_drift_route(grid: Grid, target_zone: int, reference_zone: int) -> list[tuple[int, ...]]:
    """Random Drift route of a Target Point: from the initial target zone through the centre
    of the reference unit's zone and beyond ("Random drift movement")."""
    return line_route(grid, target_zone, reference_zone)


# ----------------------------------------------------------------------------------------------
# LOS arcs ("Units & line-of-sight arcs")


def los_arc_sides(grid: Grid, facing: int) -> np.ndarray:
    """bool[S]: the three zone sides a unit facing side `facing` has in its LOS Arc: the facing
    side and the two beside it ("Line-of-sight arcs"). On squares only the back side is out."""
    s = grid.n_sides
    arc = np.zeros(s, dtype=bool)
    for k in (facing - 1, facing, facing + 1):
        arc[k % s] = True
    return arc


def in_los_arc(grid: Grid, zone: int, facing: int, other: int) -> bool:
    """Whether the line from `zone`'s centre to `other`'s centre leaves `zone` through a side in
    the LOS Arc of a unit in `zone` facing `facing`, corners beside such a side counting as in
    the arc ("LOS & zone corners")."""
    if other == zone:
        return True
    arc = los_arc_sides(grid, facing)
    p0 = grid.centre[zone]
    p1 = grid.centre[other]
    hit = np.zeros(grid.n_sides, dtype=bool)
    a = grid.vertex[zone]
    e = np.roll(a, -1, axis=0) - a
    d = p1 - p0
    for k in range(grid.n_sides):
        denom = d[0] * e[k, 1] - d[1] * e[k, 0]
        if abs(denom) < 1e-12:
            continue
        w = a[k] - p0
        t = (w[0] * e[k, 1] - w[1] * e[k, 0]) / denom
        u = (w[0] * d[1] - w[1] * d[0]) / denom
        if t >= 0 and -1e-9 <= u <= 1 + 1e-9:
            hit[k] = True
    return bool(np.any(hit & arc))


# ----------------------------------------------------------------------------------------------
# Terrain templates ("Terrain templates")


def terrain_templates(grid: Grid, zone_terrain: np.ndarray, is_template: np.ndarray) -> np.ndarray:
    """int16[Z]: template id of each zone; zones sharing a side and of the identical terrain type
    form one Terrain Template. Zones whose terrain is not template terrain get -1."""
    tid = np.full(grid.n_zones, -1, dtype=np.int16)
    nxt = 0
    for z0 in range(grid.n_zones):
        if tid[z0] >= 0 or not is_template[zone_terrain[z0]]:
            continue
        stack = [z0]
        tid[z0] = nxt
        while stack:
            z = stack.pop()
            for y in grid.neighbour[z]:
                if y >= 0 and tid[y] < 0 and zone_terrain[y] == zone_terrain[z0]:
                    tid[y] = nxt
                    stack.append(int(y))
        nxt += 1
    return _ro(tid)


# ----------------------------------------------------------------------------------------------
# Line of sight ("Line of sight"; Fantasy Cards PART V "Line of Sight")


@dataclass(frozen=True)
class LosTerrain:
    """What a map holds for LOS, per zone and per zone side (built by tables.compile_scenario).

    ground[Z]: elevation level of the zone's ground (0 ground, 1 Low .. 5 Extremely High).
    top[Z]: the zone's highest elevation, max(ground, height of its terrain) (FC "Multiple
    elevations stacked"). covering[Z], obstructing[Z]: the zone's template terrain effects.
    template[Z]: terrain template id (-1: not template terrain).
    side_covering[Z, S], side_obstructing[Z, S]: linear terrain effects on each zone side;
    side_top[Z, S]: the linear terrain's highest elevation.
    """

    ground: np.ndarray
    top: np.ndarray
    covering: np.ndarray
    obstructing: np.ndarray
    template: np.ndarray
    side_covering: np.ndarray
    side_obstructing: np.ndarray
    side_top: np.ndarray


@dataclass(frozen=True)
class Los:
    """Result of a LOS check: `exists`; `obstructed` (LOS crosses Obstructing terrain, or only
    reaches a point other than the centre: "Obscured", R11); `in_cover` (target In Cover)."""

    exists: bool
    obstructed: bool = False
    in_cover: bool = False


_NO_LOS = Los(False)


def _los_to_point(
    grid: Grid,
    terrain: LosTerrain,
    a: int,
    b: int,
    point: np.ndarray,
    blockers: np.ndarray,
    short_distance: int,
) -> Los:
    p0 = grid.centre[a]
    d = point - p0
    t_in, t_out = _clip(grid, p0, d, 1.0)
    between = t_in <= t_out
    between[a] = False
    between[b] = False
    # "LOS through units": any part of a zone holding a unit blocks.
    if np.any(between & blockers):
        return _NO_LOS
    u = max(int(terrain.ground[a]), int(terrain.ground[b]))
    level_top = int(terrain.ground[a]) == int(terrain.ground[b])
    # Terrain the higher unit looks over (its top below the unit) has no effect (FC "LOS is
    # drawn to or from elevated terrain"; R12).
    counts = between & (terrain.top >= u)
    # Elevated ground as high as the higher unit blocks, except a level top both units stand on.
    high_ground = counts & (terrain.ground > 0) & ~(level_top & (terrain.ground == u))
    if np.any(high_ground):
        return _NO_LOS
    in_cover = False
    cov = counts & terrain.covering
    if np.any(cov):
        # "LOS is drawn within covering terrain template": both units in one template and within
        # a Short Distance of each other.
        tpl = int(terrain.template[a])
        same = (
            tpl >= 0
            and tpl == int(terrain.template[b])
            and bool(terrain.covering[a])
            and distance(grid, a, b) <= short_distance
            and bool(np.all(terrain.template[cov] == tpl))
        )
        if not same:
            return _NO_LOS
        in_cover = True
    obstructed = bool(np.any(counts & terrain.obstructing))
    # The target's own zone: Covering -> In Cover (the unit is at the template's edge);
    # Obstructing -> Obstructed (R13). The attacker's own zone has no effect.
    if terrain.covering[b]:
        in_cover = True
    if terrain.obstructing[b]:
        obstructed = True
    # "LOS & linear terrain": any side met, its corners included.
    sides = sides_touched(grid, p0, point) & (terrain.side_top >= u)
    if np.any(sides & terrain.side_covering):
        return _NO_LOS
    if np.any(sides & terrain.side_obstructing):
        obstructed = True
    return Los(True, obstructed, in_cover)


def _inner_points(grid: Grid, z: int) -> np.ndarray:
    """Points of zone z other than its centre: corners and side midpoints pulled 5% inwards."""
    v = grid.vertex[z]
    pts = np.concatenate([v, (v + np.roll(v, -1, axis=0)) / 2.0])
    c = grid.centre[z]
    return c + 0.95 * (pts - c)


def line_of_sight(
    grid: Grid,
    terrain: LosTerrain,
    a: int,
    b: int,
    blockers: np.ndarray,
    short_distance: int,
) -> Los:
    """LOS from the centre of zone a to zone b ("Drawing LOS": centre point to centre point).

    blockers[Z]: zones holding a unit that blocks this LOS (the caller leaves out the units in
    a and b: "LOS into a shared zone: the other unit"). If the centre of b cannot be seen but
    another point of b can, the target is Obscured ("LOS to other than center point")."""
    if a == b:
        return Los(True)
    res = _los_to_point(grid, terrain, a, b, grid.centre[b], blockers, short_distance)
    if res.exists:
        return res
    for p in _inner_points(grid, b):
        res = _los_to_point(grid, terrain, a, b, p, blockers, short_distance)
        if res.exists:
            return Los(True, True, res.in_cover)
    return _NO_LOS


def los_to_unit(
    grid: Grid,
    terrain: LosTerrain,
    a: int,
    unit_zones: list[int],
    blockers: np.ndarray,
    short_distance: int,
) -> Los:
    """LOS to a unit occupying `unit_zones` (its centre zone first: "Oversized units").

    No part of the unit blocks LOS to its centre zone; if only another of its zones can be
    seen, the unit is Obscured ("LOS to oversized units")."""
    own = np.zeros(grid.n_zones, dtype=bool)
    own[unit_zones] = True
    free = blockers & ~own
    res = line_of_sight(grid, terrain, a, unit_zones[0], free, short_distance)
    if res.exists:
        return res
    for z in unit_zones[1:]:
        others = blockers.copy()
        others[z] = False
        res = line_of_sight(grid, terrain, a, z, others, short_distance)
        if res.exists:
            return Los(True, True, res.in_cover)
    return _NO_LOS
