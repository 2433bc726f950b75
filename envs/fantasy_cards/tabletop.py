"""The Fantasy Cards tabletop as the Tactical Assault core sees it (FC reading R28).

The battlefield is a square grid of cells one Very Short Distance wide: the Standard Game's
square table (FC PART VI "Battlefield Size") is 16 x 16 cells, Very Long (its edge) 16 cells.
Positions are cell centres; a unit stands in one cell and two units never share one
(PART IV "Sharing Space"). The grid becomes the ``g_*`` arrays of the tables record, as a zone
map does in envs/legendary_battles/zones.py:

- distances (``g_dist``) centre to centre, Euclidean, in half-cells rounded up; Table 2 in the
  same unit (Very Short 2 .. Very Long 32); Extreme Range reaches one half-cell further;
- 8 directions (N, NE, E, .. NW, clockwise): neighbours, facings and LOS Arcs (the front 180
  degrees of the facing, its edge included); a move steps to a neighbour, 2 half-cells
  orthogonally, 3 diagonally, doubled into a cell of Covering / Obstructing / Hindering
  terrain and again up Steep ground (R23); linear terrain lies on cell sides and adds its cost
  (Very Short per unit of its ``move_cost``) when crossed orthogonally; a diagonal step may
  not pass a corner that linear terrain touches (R31);
- contact (``g_contact``): neighbouring cells, 8-neighbourhood (R28);
- each cell's outline is its square with the side midpoints as extra corners, so that polygon
  side ``2e`` and ``2e + 1`` are the two halves of cell edge e (N, E, S, W) and linear terrain
  on an edge marks both for the core's one LOS kernel;
- Fall Back routes (``g_fb_route``): the cells the line from the attacker's centre through
  the target's centre enters after the target's, in order (a corner passed exactly is a
  diagonal step, so there are no equal options on the tabletop).

The battlefield file (``configs/fantasy_cards/battlefield.yaml``, kind
``fantasy_cards.battlefield``) uses the terrain types of the Tactical Assault terrain table
(configs/legendary_battles/terrain.yaml: FC PART IV's effects, shapes and elevations). Every
error names the file, the entry and the field.
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from envs.core.config import CONFIG_ROOT, ConfigError, Origin, read_yaml
from envs.fantasy_cards import tables as fct
from envs.legendary_battles import geometry as geo
from envs.legendary_battles import tables as lbt
from envs.tactical_assault import tables as tat
from envs.tactical_assault.state import MAX_DIRS, MAX_POS, MAX_UNITS

KIND = "fantasy_cards.battlefield"
STANDARD_PATH = CONFIG_ROOT / "fantasy_cards" / "battlefield.yaml"
TERRAIN_PATH = lbt.DEFAULT_DIR / "terrain.yaml"
CELLS = 16  # cells along the shortest edge: Very Long = 16 Very Short (Table 2)
HALF = 2  # distances are held in half-cells
DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
STEP = ((0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1))
EDGES = ("N", "E", "S", "W")  # cell edges; edge e is polygon sides 2e and 2e + 1
EDGE_STEP = ((0, -1), (1, 0), (0, 1), (-1, 0))
# outline: NW corner, N midpoint, NE corner, E midpoint, ... (clockwise on the page, y down)
_OUTLINE = (
    (-0.5, -0.5),
    (0, -0.5),
    (0.5, -0.5),
    (0.5, 0),
    (0.5, 0.5),
    (0, 0.5),
    (-0.5, 0.5),
    (-0.5, 0),
)
ORTHOGONAL_COST = 2  # half-cells
DIAGONAL_COST = 3  # 2 * sqrt(2) = 2.83, rounded up (R28)


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


class PlacedUnit(_Strict):
    """A unit of a fixed force: placed at `cell` [col, row] facing one of DIRECTIONS, or
    deployed by the players (FC "Deploy Forces") when `cell` is left out."""

    type: str
    cell: tuple[int, int] | None = None
    facing: str | None = None


class TabletopForce(_Strict):
    """A side's force: `points` to choose units with (FC "Select The Units"), or `units`."""

    points: int | None = Field(default=None, ge=1, le=200)
    units: list[PlacedUnit] = []


class Battlefield(_Strict):
    """One battlefield file (kind fantasy_cards.battlefield)."""

    name: str
    origin: Origin
    refs: list[str] = []
    text: str
    legend: dict[str, str]
    terrain: str
    elevation: str | None = None
    linear_terrain: list[lbt.LinearRun] = []
    forces: list[TabletopForce] = Field(min_length=2, max_length=2)
    shape: Literal["square"] = "square"


def load_battlefield(path: Path | str) -> Battlefield:
    """Parse one battlefield file (schema only; compile_battlefield cross-checks it)."""
    path = Path(path)
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(path, None, None, "top level must be a mapping")
    label = f"'{doc['name']}'" if isinstance(doc.get("name"), str) else "battlefield"
    if doc.get("kind") != KIND:
        raise ConfigError(path, label, "kind", f"expected {KIND!r}, found {doc.get('kind')!r}")
    try:
        return Battlefield.model_validate({k: v for k, v in doc.items() if k != "kind"})
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        msg = {"missing": "missing required field", "extra_forbidden": "unknown field"}.get(
            err["type"], err["msg"]
        )
        raise ConfigError(path, label, field, msg) from None


def cell(col: int, row: int) -> int:
    """Position index of cell (col, row)."""
    return row * CELLS + col


def _route_offsets(dx: np.ndarray, dy: np.ndarray, n: int) -> tuple[np.ndarray, np.ndarray]:
    """For each line from (0, 0) through (dx[i], dy[i]) (not both 0), the cells (as offsets
    from (dx, dy)) it enters beyond (dx, dy), in order: out[0][i, k], out[1][i, k]. A grid
    walk with exact integer arithmetic, stepping diagonally where the line passes exactly
    through a corner; every line at once (this runs at every start)."""
    sx, sy = np.sign(dx), np.sign(dy)
    cx, cy = dx.copy(), dy.copy()
    ox = np.empty((len(dx), n), dtype=np.int64)
    oy = np.empty((len(dx), n), dtype=np.int64)
    for k in range(n):
        # parameter s (the line is s * (dx, dy)) where it leaves the current cell in x and y:
        # tx = (2 cx + sx) / (2 dx), both terms of sx's sign, so tx < ty compares the
        # cross products of their absolute values
        tx_ty = np.abs(2 * cx + sx) * np.abs(2 * dy)  # tx * |2 dx| |2 dy|
        ty_tx = np.abs(2 * cy + sy) * np.abs(2 * dx)
        x_first = (sy == 0) | ((sx != 0) & (tx_ty < ty_tx))
        y_first = ~x_first & ((sx == 0) | (ty_tx < tx_ty))
        cx += np.where(y_first, 0, sx)  # x alone, or both through a corner
        cy += np.where(x_first, 0, sy)
        ox[:, k] = cx - dx
        oy[:, k] = cy - dy
    return ox, oy


def _fill_routes(r: np.ndarray) -> None:
    """g_fb_route: for attacker cell a and target cell t, the cells entered after t (the route
    stops, -1, where it leaves the table). Array operations over every (a, t) pair at once:
    this runs at every start (the cached start is judged, benchmarks/README.md)."""
    n = tat.FB_LEN
    m = CELLS * CELLS
    cols = np.arange(m) % CELLS
    rows = np.arange(m) // CELLS
    w = 2 * CELLS - 1
    d = np.arange(w * w)
    dx, dy = d // w - (CELLS - 1), d % w - (CELLS - 1)  # every (dx, dy), by d
    dx[dx == 0] += (dy[dx == 0] == 0) * 1  # (0, 0) has no line: any stand-in, never used
    ox, oy = _route_offsets(dx, dy, n)
    ox, oy = ox.reshape(w, w, n), oy.reshape(w, w, n)
    i = cols[None, :] - cols[:, None] + (CELLS - 1)  # [a, t]: t - a
    j = rows[None, :] - rows[:, None] + (CELLS - 1)
    c = ox[i, j] + cols[None, :, None]
    rr = oy[i, j] + rows[None, :, None]
    # the walk moves monotonically away from t, so a step on the table has every earlier
    # step on it too: the route stops at its first step off the table
    on = (c >= 0) & (c < CELLS) & (rr >= 0) & (rr < CELLS)
    on[np.arange(m), np.arange(m)] = False  # a == t: no line
    r["g_fb_route"][:m, :m, :, 0] = np.where(on, rr * CELLS + c, -1)


def compile_battlefield(
    bf: Battlefield, path: Path, fc: fct.Tables, terrain: list[lbt.TerrainType]
) -> np.ndarray:
    """Cross-check a battlefield against the terrain types and Table 3 and build its 1-element
    tables record (cards and Table 3 from `fc`, the ground, the forces, the Standard Game)."""
    path = Path(path)
    label = f"'{bf.name}'"

    def fail(field: str, msg: str):
        raise ConfigError(path, label, field, msg)

    tindex = {t.name: i for i, t in enumerate(terrain)}
    for sym, tname in bf.legend.items():
        if sym == "_" or len(sym) != 1:
            fail(f"legend.{sym}", "legend keys are single characters other than '_'")
        if tname not in tindex:
            fail(f"legend.{sym}", f"unknown terrain {tname!r}")
        if terrain[tindex[tname]].shape != "template":
            fail(f"legend.{sym}", f"{tname!r} is linear terrain; cells hold template terrain")
    toks = lbt._parse_grid_text(bf.terrain, CELLS, CELLS, lambda s: fail("terrain", s))
    n = CELLS * CELLS
    if n > MAX_POS:
        raise ValueError(f"battlefield {bf.name!r}: {n} cells exceed the capacity {MAX_POS}")
    zone_terrain = np.zeros(n, dtype=np.int16)
    for rr, row in enumerate(toks):
        for c, tok in enumerate(row):
            if tok not in bf.legend:
                fail("terrain", f"cell ({c}, {rr}): symbol {tok!r} is not in the legend")
            zone_terrain[cell(c, rr)] = tindex[bf.legend[tok]]
    ground = np.zeros(n, dtype=np.int8)
    ground_class = np.zeros(n, dtype=np.int8)
    if bf.elevation is not None:
        etoks = lbt._parse_grid_text(bf.elevation, CELLS, CELLS, lambda s: fail("elevation", s))
        for rr, row in enumerate(etoks):
            for c, tok in enumerate(row):
                if not lbt._LEVEL_TOKEN.match(tok):
                    fail(
                        "elevation",
                        f"cell ({c}, {rr}): {tok!r} is not 0 or a level 1-5 and a class g/s/k",
                    )
                if tok != "0":
                    ground[cell(c, rr)] = int(tok[0])
                    ground_class[cell(c, rr)] = lbt.CLASS_LETTERS[tok[1]]
    # linear terrain on cell edges; both cells sharing an edge carry it
    edge_terrain = np.full((n, 4), -1, dtype=np.int16)
    for i, run in enumerate(bf.linear_terrain):
        f = f"linear_terrain.{i}"
        if run.terrain not in tindex:
            fail(f + ".terrain", f"unknown terrain {run.terrain!r}")
        ti = tindex[run.terrain]
        if terrain[ti].shape != "linear":
            fail(f + ".terrain", f"{run.terrain!r} is template terrain, not linear")
        for j, (c, rr, s) in enumerate(run.sides):
            if s not in EDGES:
                fail(f"{f}.sides.{j}", f"side {s!r} is not one of {', '.join(EDGES)}")
            if not (0 <= c < CELLS and 0 <= rr < CELLS):
                fail(f"{f}.sides.{j}", f"cell ({c}, {rr}) is not on the table")
            e = EDGES.index(s)
            if edge_terrain[cell(c, rr), e] >= 0:
                fail(f"{f}.sides.{j}", f"side {s} of cell ({c}, {rr}) already has linear terrain")
            edge_terrain[cell(c, rr), e] = ti
            c2, r2 = c + EDGE_STEP[e][0], rr + EDGE_STEP[e][1]
            if 0 <= c2 < CELLS and 0 <= r2 < CELLS:
                edge_terrain[cell(c2, r2), (e + 2) % 4] = ti

    rec = tat.card_record(fc)
    r = rec[0]
    _fill_ground(r, terrain, zone_terrain, ground, ground_class, edge_terrain)
    _fill_forces(r, bf, fail, fc)
    return rec


def _fill_ground(r, terrain, zone_terrain, ground, ground_class, edge_terrain) -> None:
    """The g_* fields of the tabletop (module docstring)."""
    n = CELLS * CELLS
    cols = np.arange(n) % CELLS
    rows = np.arange(n) // CELLS
    r["g_n_pos"] = n
    r["g_n_dirs"] = len(DIRECTIONS)
    r["g_cc_share"] = 0
    very_long = CELLS * HALF
    r["g_dist_units"][:] = [-(-very_long // (1 << h)) for h in (4, 3, 2, 1, 0)]
    r["g_extreme_extra"] = 1  # a target's base: half a cell around its centre (R28)
    dxm = cols[None, :] - cols[:, None]
    dym = rows[None, :] - rows[:, None]
    r["g_dist"][:n, :n] = np.ceil(HALF * np.hypot(dxm, dym) - 1e-9).astype(np.int16)
    r["g_contact"][:n, :n] = (np.maximum(abs(dxm), abs(dym)) == 1).astype(np.uint8)
    centre = np.stack([cols, rows], axis=1).astype(np.float64)
    r["g_centre"][:n] = centre
    outline = np.array(_OUTLINE, dtype=np.float64)
    vertex = centre[:, None, :] + outline[None, :, :]
    r["g_vertex"][:n] = vertex
    e = np.roll(vertex, -1, axis=1) - vertex
    normal = np.stack([-e[..., 1], e[..., 0]], axis=-1)
    normal /= np.linalg.norm(normal, axis=-1, keepdims=True)
    mid = (vertex + np.roll(vertex, -1, axis=1)) / 2.0
    flip = np.einsum("zsk,zsk->zs", normal, mid - centre[:, None, :]) < 0
    normal[flip] *= -1.0
    r["g_normal"][:n] = normal
    r["g_offset"][:n] = np.einsum("zsk,zsk->zs", normal, vertex)

    move_cost = np.array([-1 if t.move_cost is None else t.move_cost for t in terrain])
    climb = np.array([t.climb_route for t in terrain])
    height = np.array([lbt.LEVELS.index(t.height) for t in terrain], dtype=np.int8)
    eff = np.array([[x in t.effects for x in lbt.EFFECTS] for t in terrain], dtype=bool)
    r["g_standable"][:n] = move_cost[zone_terrain] >= 0
    for z in range(n):
        c, rr = int(cols[z]), int(rows[z])
        for k, (dx, dy) in enumerate(STEP):
            c2, r2 = c + dx, rr + dy
            if not (0 <= c2 < CELLS and 0 <= r2 < CELLS):
                continue
            y = cell(c2, r2)
            r["g_neighbour"][z, k] = y
            mult = int(move_cost[zone_terrain[y]])
            if mult < 0:
                continue
            diagonal = dx != 0 and dy != 0
            cost = (DIAGONAL_COST if diagonal else ORTHOGONAL_COST) * mult
            rise = int(ground[y]) - int(ground[z])
            if rise > 0 and ground_class[y] == lbt.STEEP:
                cost *= 2
            if diagonal:
                # the corner passed: the edges of z and y that meet there (R31)
                touched = (
                    edge_terrain[z, EDGES.index("N" if dy < 0 else "S")],
                    edge_terrain[z, EDGES.index("E" if dx > 0 else "W")],
                    edge_terrain[y, EDGES.index("S" if dy < 0 else "N")],
                    edge_terrain[y, EDGES.index("W" if dx > 0 else "E")],
                )
                if any(t >= 0 for t in touched):
                    continue
                if rise > lbt.UNIT_HEIGHT and ground_class[y] == lbt.STARK:
                    continue
                r["g_entry_cost"][z, k] = cost
                r["g_wm_cost"][z, k] = cost
                continue
            lt = int(edge_terrain[z, EDGES.index(DIRECTIONS[k])])
            route = lt >= 0 and bool(climb[lt])
            if rise > lbt.UNIT_HEIGHT and ground_class[y] == lbt.STARK and not route:
                continue
            r["g_wm_cost"][z, k] = cost
            if lt >= 0:
                extra = int(move_cost[lt])
                if extra < 0:
                    continue
                cost += extra * HALF  # Very Short per unit of the linear terrain's cost
            r["g_entry_cost"][z, k] = cost

    geo_grid = geo.make_grid(geo.SQUARE, CELLS, CELLS)
    is_template = np.array([t.shape == "template" and t.name != "Clear" for t in terrain])
    r["g_template"][:n] = geo.terrain_templates(geo_grid, zone_terrain, is_template)
    r["g_ground"][:n] = ground
    r["g_top"][:n] = np.maximum(ground, height[zone_terrain])
    r["g_covering"][:n] = eff[zone_terrain, 0]
    r["g_obstructing"][:n] = eff[zone_terrain, 1]
    has = edge_terrain >= 0
    st = np.where(has, edge_terrain, 0)
    for e in range(4):
        for half in (2 * e, 2 * e + 1):
            r["g_side_covering"][:n, half] = has[:, e] & eff[st[:, e], 0]
            r["g_side_obstructing"][:n, half] = has[:, e] & eff[st[:, e], 1]
            r["g_side_top"][:n, half] = np.maximum(height[st[:, e]], ground) * has[:, e]
    # LOS Arcs: the front 180 degrees of the facing, its edge included (FC I10)
    for f, (fx, fy) in enumerate(STEP):
        front = (dxm * fx + dym * fy) >= 0  # [p, o]
        r["g_arc"][:n, f, :n] = front
    _fill_routes(r)
    # Random Drift (FC I6): the cell holding the point a Very Short / Short Distance from P
    # along the line to R, or R itself when it is nearer (no point falls on a cell edge)
    length = np.hypot(dxm, dym)
    with np.errstate(divide="ignore", invalid="ignore"):
        for d in range(tat.N_DRIFT):
            reach = r["g_dist_units"][d] / HALF  # cells
            fx = np.rint(cols[:, None] + reach * dxm / length).astype(np.int64)
            fy = np.rint(rows[:, None] + reach * dym / length).astype(np.int64)
            near = r["g_dist"][:n, :n] <= r["g_dist_units"][d]
            drift = np.where(near, np.arange(n)[None, :], fy * CELLS + fx)
            r["g_drift"][:n, :n, d, 0] = np.where(length > 0, drift, -1)
    tat.derive_ground(r)


def _fill_forces(r, bf: Battlefield, fail, fc: fct.Tables) -> None:
    """The forces, FC "Deploy Forces" and the Standard Game's victory conditions."""
    sg = fc.standard_game
    n = CELLS * CELLS
    types = fc.unit_type_index
    occupied: dict[int, str] = {}
    u = 0
    for p, force in enumerate(bf.forces):
        f = f"forces.{p}"
        if (force.points is None) == (not force.units):
            fail(f, "give exactly one of 'points' or 'units'")
        if force.points is not None:
            r["sc_force_points"][p] = force.points  # chosen by the player (FC-2.3)
            r["sc_allowed"][p, :] = 1
        for j, unit in enumerate(force.units):
            uf = f"{f}.units.{j}"
            if unit.type not in types:
                fail(f"{uf}.type", f"unknown unit type {unit.type!r} (Fantasy Cards Table 3)")
            if u >= MAX_UNITS:
                fail(uf, f"more than {MAX_UNITS} units")
            t = types[unit.type]
            pos, facing = -1, 0
            if unit.cell is not None:
                c, rr = unit.cell
                if not fc.unit_starts_on_battlefield[t]:
                    fail(f"{uf}.cell", f"{unit.type} units do not start on the battlefield")
                if not (0 <= c < CELLS and 0 <= rr < CELLS):
                    fail(f"{uf}.cell", f"cell ({c}, {rr}) is off the table (0..{CELLS - 1})")
                pos = cell(c, rr)
                if pos in occupied:
                    fail(f"{uf}.cell", f"cell ({c}, {rr}) already holds {occupied[pos]}")
                if not r["g_standable"][pos]:
                    fail(f"{uf}.cell", f"cell ({c}, {rr}) is impassable terrain")
                occupied[pos] = f"unit {p}.{j}"
                if t == types[fct.OBSTACLE]:
                    if unit.facing is not None:
                        fail(f"{uf}.facing", "Obstacles have no LOS Arc")
                elif unit.facing not in DIRECTIONS:
                    fail(f"{uf}.facing", f"a placed unit faces one of {', '.join(DIRECTIONS)}")
                else:
                    facing = DIRECTIONS.index(unit.facing)
            elif unit.facing is not None:
                fail(f"{uf}.facing", "only a placed unit has a facing")
            r["sc_unit_side"][u] = p
            r["sc_unit_type"][u] = t
            r["sc_unit_pos"][u] = pos
            r["sc_unit_facing"][u] = facing
            u += 1
    r["sc_n_units"] = u
    r["sc_deploy"][:, :n] = 1  # "anywhere on the battlefield"
    r["sc_deploy_min"] = fc.distance_index[sg.deploy_min_distance]
    r["sc_turn_limit"] = sg.turn_limit_per_player  # I15
    r["vc_half_points"] = 1  # FC-2.7 / FC-6.4
    r["vc_no_units"] = 1
    r["vc_at_limit"] = tat.AT_LIMIT_MOST_UNITS  # R10


def battlefield_record(path: Path | str, fc: fct.Tables | None = None) -> np.ndarray:
    """The 1-element tables record that plays the battlefield file `path` on the Tactical
    Assault core (the Standard Game's rules)."""
    path = Path(path)
    fc = fc if fc is not None else _fc_tables()
    if len(DIRECTIONS) > MAX_DIRS:
        raise ValueError(f"{len(DIRECTIONS)} directions exceed the capacity {MAX_DIRS}")
    return compile_battlefield(load_battlefield(path), path, fc, _terrain())


@lru_cache(maxsize=1)
def standard_record() -> np.ndarray:
    """The Standard Game's record (configs/fantasy_cards/battlefield.yaml), built once per
    process; read-only."""
    rec = battlefield_record(STANDARD_PATH)
    rec.setflags(write=False)
    return rec


@lru_cache(maxsize=1)
def _fc_tables() -> fct.Tables:
    return fct.load_tables()


@lru_cache(maxsize=1)
def _terrain() -> list[lbt.TerrainType]:
    return lbt.load_terrain(TERRAIN_PATH)
