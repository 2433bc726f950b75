"""Legendary Battles data: terrain types and scenarios, loaded and compiled to numpy arrays.

configs/legendary_battles/terrain.yaml      kind legendary_battles.terrain   (TerrainType rows)
configs/legendary_battles/scenarios/*.yaml  kind legendary_battles.scenario  (one Scenario each)

Units are Fantasy Cards unit types, named exactly as Fantasy Cards Table 3 prints them
(``UNIT_TYPES`` below, checked against configs/fantasy_cards/unit_types.yaml when that file
exists). Every error names the file, the entry (the terrain row, or the scenario) and the
field. The clauses these encode are in docs/rules/legendary_battles.md.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationError

from envs.core.config import CONFIG_ROOT, ConfigError, Entry, load_entries, read_yaml, readonly
from envs.legendary_battles import geometry as geo

TERRAIN_KIND = "legendary_battles.terrain"
SCENARIO_KIND = "legendary_battles.scenario"
DEFAULT_DIR = CONFIG_ROOT / "legendary_battles"
FANTASY_CARDS_UNIT_TYPES = CONFIG_ROOT / "fantasy_cards" / "unit_types.yaml"

# Fantasy Cards Table 3 "Unit Type & Characteristics", names as printed, with point values
# and whether the unit starts the game on the battlefield (PART III unit descriptions:
# Aerial units are never placed; Infiltrators enter by the Infiltration Situation).
UNIT_TYPES: dict[str, int] = {
    "AERIAL": 3,
    "ARCHER": 3,
    "ARTILLERY": 3,
    "CAVALRY": 4,
    "CIVILIAN": 1,
    "CHARIOT": 4,
    "COMMAND": 3,
    "CREATURE": 2,
    "INFANTRY": 3,
    "INFILTRATOR": 3,
    "LEGENDARY": 6,
    "MILITIA": 2,
    "MONSTROUS": 6,
    "OBSTACLE": 2,
    "RIDER": 3,
    "SAPPER": 2,
    "SKIRMISH": 3,
    "SORCEROUS": 6,
    "SWARM": 2,
    "WAR MACHINE": 3,
}
OFF_BATTLEFIELD_TYPES = frozenset({"AERIAL", "INFILTRATOR"})

# Enumerations (integer codes the kernels will index by).
TEMPLATE, LINEAR = 0, 1
EFFECTS = ("covering", "obstructing", "hindering", "impassable", "elevated")
LEVELS = ("None", "Low", "Medium", "High", "Very High", "Extremely High")
CLASSES = ("None", "Gradual", "Steep", "Stark")
CLASS_NONE, GRADUAL, STEEP, STARK = 0, 1, 2, 3
CLASS_LETTERS = {"g": GRADUAL, "s": STEEP, "k": STARK}
DISTANCES = ("Very Short", "Short", "Medium", "Long", "Very Long")
UNIT_HEIGHT = 1  # every Table 3 unit is Low (FC "Low elevation": "most fighting units"; I6)
NO_ZONE = -1

Effect = Literal["covering", "obstructing", "hindering", "impassable", "elevated"]
Level = Literal["None", "Low", "Medium", "High", "Very High", "Extremely High"]
ElevationClass = Literal["None", "Gradual", "Steep", "Stark"]
RefId = Annotated[str, Field(pattern=r"^[RI][0-9]+$")]


class TerrainType(Entry):
    """One row of terrain.yaml."""

    shape: Literal["template", "linear"]
    effects: list[Effect]
    height: Level
    elevation_class: ElevationClass
    move_cost: int | None = Field(ge=0, le=9)
    climb_route: bool
    symbol: str = Field(min_length=1, max_length=1)
    colour: str = Field(pattern=r"^#[0-9a-fA-F]{6}$")
    refs: list[RefId]
    text: str


# ----------------------------------------------------------------------------------------------
# The scenario format


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)


Coord = tuple[int, int]
SideRef = tuple[int, int, str]


class LinearRun(_Strict):
    """One linear terrain feature: a terrain type laid along zone sides [col, row, side]."""

    terrain: str
    sides: list[SideRef] = Field(min_length=1)


class MapSpec(_Strict):
    """The zone map. `terrain` and `elevation` are text grids, one line per row and one
    whitespace-separated token per zone (hex rows may be indented to look like hexes)."""

    shape: Literal["square", "hex"]
    width: int = Field(ge=2, le=64)
    height: int = Field(ge=2, le=64)
    legend: dict[str, str]
    terrain: str
    elevation: str | None = None
    partial_zones: list[Coord] = []
    linear_terrain: list[LinearRun] = []


class Area(_Strict):
    """A set of zones: the box `cols` x `rows` (inclusive ranges; a missing range is the
    whole map) when either is given, plus the listed `zones`."""

    cols: tuple[int, int] | None = None
    rows: tuple[int, int] | None = None
    zones: list[Coord] = []


class UnitSpec(_Strict):
    """A unit of a fixed force list."""

    type: str
    label: str = Field(pattern=r"^[A-Za-z0-9]$")
    zone: Coord | None = None
    facing: str | None = None
    footprint: list[str] = []


class Force(_Strict):
    """A side's force: a fixed `units` list, or `points` to choose units with before the game
    (optionally only from `allowed_types`)."""

    points: int | None = Field(default=None, ge=1, le=200)
    allowed_types: list[str] = []
    units: list[UnitSpec] = []


class SideSpec(_Strict):
    name: str
    deployment: Area
    force: Force


class FirstTurn(_Strict):
    kind: Literal["first_turn"]
    name: str
    text: str
    side: int = Field(ge=0, le=1)


class Reinforcements(_Strict):
    kind: Literal["reinforcements"]
    name: str
    text: str
    side: int = Field(ge=0, le=1)
    turn: int = Field(ge=1)
    units: list[str] = Field(min_length=1)
    zones: Area


class TerrainCost(_Strict):
    kind: Literal["terrain_cost"]
    name: str
    text: str
    terrain: str
    move_cost: int | None = Field(ge=0, le=9)


class DeployFirst(_Strict):
    kind: Literal["deploy_first"]
    name: str
    text: str
    side: int = Field(ge=0, le=1)


SpecialRule = Annotated[
    FirstTurn | Reinforcements | TerrainCost | DeployFirst, Field(discriminator="kind")
]


class HalfPointsEliminated(_Strict):
    kind: Literal["half_points_eliminated"]


class NoUnitsLeft(_Strict):
    kind: Literal["no_units_left"]


class PointsEliminated(_Strict):
    kind: Literal["points_eliminated"]
    side: int = Field(ge=0, le=1)
    points: int = Field(ge=1)


class UnitEliminated(_Strict):
    kind: Literal["unit_eliminated"]
    unit: str


class HoldZones(_Strict):
    kind: Literal["hold_zones"]
    side: int = Field(ge=0, le=1)
    zones: Area


class UnitsExit(_Strict):
    kind: Literal["units_exit"]
    side: int = Field(ge=0, le=1)
    edge: Literal["N", "E", "S", "W"]
    count: int = Field(ge=1)


EndCondition = Annotated[
    HalfPointsEliminated | NoUnitsLeft | PointsEliminated | UnitEliminated | HoldZones | UnitsExit,
    Field(discriminator="kind"),
]


class EndOfGame(_Strict):
    turn_limit: int = Field(ge=1, le=200)
    conditions: list[EndCondition] = Field(min_length=1)
    at_turn_limit: Literal["most_units_eliminated", "side_0_wins", "side_1_wins", "hold_zones"]


class Scenario(Entry):
    """One scenario file (kind legendary_battles.scenario)."""

    refs: list[RefId] = []
    summary: str
    game: Literal["fantasy_cards"]
    map: MapSpec
    sides: list[SideSpec] = Field(min_length=2, max_length=2)
    special_rules: list[SpecialRule] = []
    end_of_game: EndOfGame


# ----------------------------------------------------------------------------------------------
# Compiled arrays


@dataclass(frozen=True)
class ScenarioArrays:
    """A scenario compiled for the kernels (Z zones, S sides per zone, U units, P = 2 sides).

    zone_terrain[Z] int16: terrain index. ground[Z] int8: elevation level of the zone's ground
    (0..5). ground_class[Z] int8: CLASS_* of that ground. partial[Z] bool: printed in part.
    side_terrain[Z, S] int16: linear terrain index on each side, -1 none (both zones agree).
    template[Z] int16: Terrain Template id, -1 for Clear. entry_cost[Z, S] int8: zones of
    movement for a Low unit to move from the zone across side s, -1 not allowed (units aside).
    wm_entry_cost[Z, S] int8: the same with the side's linear terrain ignored (FC "War Machine"
    NOTE: a friendly unit crossing through a War Machine in contact with it; reading R21).
    deployment[P, Z] bool. points[P] int16: force points, -1 for a fixed list.
    unit_side[U] int8, unit_type[U] int16, unit_zone[U] int16 (centre zone, -1 unplaced),
    unit_facing[U] int8 (side index, -1), unit_zones[U, Z] bool (every zone the unit covers).
    distances[5] int16: Very Short..Very Long in zones. turn_limit: the end-of-game turn.
    """

    scenario: Scenario
    grid: geo.Grid
    zone_terrain: np.ndarray
    ground: np.ndarray
    ground_class: np.ndarray
    partial: np.ndarray
    side_terrain: np.ndarray
    template: np.ndarray
    entry_cost: np.ndarray
    wm_entry_cost: np.ndarray
    deployment: np.ndarray
    points: np.ndarray
    unit_side: np.ndarray
    unit_type: np.ndarray
    unit_zone: np.ndarray
    unit_facing: np.ndarray
    unit_zones: np.ndarray
    unit_label: tuple[str, ...]
    distances: np.ndarray
    los_terrain: geo.LosTerrain
    turn_limit: int
    # facings as compass directions (the Fantasy Cards tabletop's 8, FC R28) rather than the
    # zone's sides; None on a Legendary Battles map
    directions: tuple[str, ...] | None = None

    def distance_zones(self, name: str) -> int:
        return int(self.distances[DISTANCES.index(name)])


@dataclass(frozen=True)
class Tables:
    """Terrain arrays (T terrain types) and the compiled scenarios."""

    terrain: tuple[TerrainType, ...]
    terrain_index: dict[str, int]
    terrain_shape: np.ndarray  # int8[T]: TEMPLATE or LINEAR
    terrain_effect: np.ndarray  # bool[T, 5]: EFFECTS columns
    terrain_height: np.ndarray  # int8[T]: LEVELS index
    terrain_class: np.ndarray  # int8[T]: CLASSES index
    terrain_move_cost: np.ndarray  # int8[T]: -1 impassable
    terrain_climb_route: np.ndarray  # bool[T]
    unit_type_index: dict[str, int]  # Table 3 name -> index (Table 3 order)
    unit_points: np.ndarray  # int16[20]
    scenarios: dict[str, ScenarioArrays]


# ----------------------------------------------------------------------------------------------
# Loading


def load_terrain(path: Path) -> list[TerrainType]:
    rows = load_entries(path, TERRAIN_KIND, TerrainType)
    for i, t in enumerate(rows):
        label = f"{i} '{t.name}'"
        impassable = "impassable" in t.effects
        if impassable != (t.move_cost is None):
            raise ConfigError(
                path, label, "move_cost", "must be null exactly when the terrain is impassable"
            )
        if t.shape == "template" and not impassable:
            # LB "Moving into hindering & covering terrain": clear 1, terrain 2 (R4).
            want = 2 if set(t.effects) & {"covering", "obstructing", "hindering"} else 1
            if t.move_cost != want:
                raise ConfigError(
                    path, label, "move_cost", f"template terrain with these effects costs {want}"
                )
        if t.shape == "linear" and not impassable:
            want = 1 if set(t.effects) & {"covering", "obstructing", "hindering"} else 0
            if t.move_cost != want:
                raise ConfigError(
                    path,
                    label,
                    "move_cost",
                    f"linear terrain with these effects costs {want} extra",
                )
        if t.climb_route and t.shape != "linear":
            raise ConfigError(
                path, label, "climb_route", "only linear terrain can be a climb route"
            )
        if t.origin == "invented" and not any(r.startswith("I") for r in t.refs):
            raise ConfigError(
                path, label, "refs", "an invented row must cite its Invented decision (I#)"
            )
    if "Clear" not in {t.name for t in rows}:
        raise ConfigError(path, None, "entries", "a 'Clear' terrain type is required")
    return rows


def fantasy_cards_unit_names(path: Path = FANTASY_CARDS_UNIT_TYPES) -> list[str] | None:
    """Names in configs/fantasy_cards/unit_types.yaml, or None when that file does not exist."""
    if not Path(path).exists():
        return None
    doc = read_yaml(path)
    entries = doc.get("entries", []) if isinstance(doc, dict) else []
    return [e["name"] for e in entries if isinstance(e, dict) and "name" in e]


def _scenario_label(raw: object) -> str:
    name = raw.get("name") if isinstance(raw, dict) else None
    return f"'{name}'" if name is not None else "scenario"


def load_scenario(path: Path | str) -> Scenario:
    """Parse and validate one scenario file (schema only; cross-checks in compile_scenario)."""
    path = Path(path)
    doc = read_yaml(path)
    if not isinstance(doc, dict):
        raise ConfigError(path, None, None, "top level must be a mapping")
    label = _scenario_label(doc)
    if doc.get("kind") != SCENARIO_KIND:
        raise ConfigError(
            path, label, "kind", f"expected {SCENARIO_KIND!r}, found {doc.get('kind')!r}"
        )
    body = {k: v for k, v in doc.items() if k != "kind"}
    try:
        return Scenario.model_validate(body)
    except ValidationError as exc:
        err = exc.errors()[0]
        field = ".".join(str(p) for p in err["loc"]) or None
        msg = {"missing": "missing required field", "extra_forbidden": "unknown field"}.get(
            err["type"], err["msg"]
        )
        raise ConfigError(path, label, field, msg) from None


def _parse_grid_text(text: str, width: int, height: int, err) -> list[list[str]]:
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if len(lines) != height:
        err(f"has {len(lines)} rows, the map has height {height}")
    rows = []
    for r, ln in enumerate(lines):
        toks = ln.split()
        if len(toks) != width:
            err(f"row {r} has {len(toks)} zones, the map has width {width}")
        rows.append(toks)
    return rows


_LEVEL_TOKEN = re.compile(r"^(0|[1-5][gsk])$")


def compile_scenario(
    sc: Scenario,
    path: Path,
    terrain: list[TerrainType],
    unit_names: set[str] | None = None,
) -> ScenarioArrays:
    """Cross-check a scenario against the terrain types and Table 3 and build its arrays."""
    label = f"'{sc.name}'"
    tindex = {t.name: i for i, t in enumerate(terrain)}
    known_units = set(UNIT_TYPES) if unit_names is None else unit_names

    def fail(field: str, msg: str):
        raise ConfigError(path, label, field, msg)

    m = sc.map
    shape = geo.SHAPES[m.shape]
    sides = geo.side_names(shape)
    dirs = geo.direction_names(shape)

    # Terrain legend and grid ("Classifying terrain zones"). '_' marks a place with no zone.
    for sym, tname in m.legend.items():
        if sym == "_" or len(sym) != 1:
            fail(f"map.legend.{sym}", "legend keys are single characters other than '_'")
        if tname not in tindex:
            fail(f"map.legend.{sym}", f"unknown terrain {tname!r}")
        if terrain[tindex[tname]].shape != "template":
            fail(f"map.legend.{sym}", f"{tname!r} is linear terrain; zones hold template terrain")
    toks = _parse_grid_text(m.terrain, m.width, m.height, lambda s: fail("map.terrain", s))
    off_map = set()
    for r, row in enumerate(toks):
        for c, tok in enumerate(row):
            if tok == "_":
                off_map.add((c, r))
            elif tok not in m.legend:
                fail("map.terrain", f"zone ({c}, {r}): symbol {tok!r} is not in the legend")
    grid = geo.make_grid(shape, m.width, m.height, off_map)
    nz, ns = grid.n_zones, grid.n_sides

    def zone_of(coord: tuple[int, int], field: str) -> int:
        z = grid.zone(coord[0], coord[1])
        if z < 0:
            fail(field, f"zone {tuple(coord)} is not on the map")
        return z

    zone_terrain = np.zeros(nz, dtype=np.int16)
    for z in range(nz):
        zone_terrain[z] = tindex[m.legend[toks[grid.row[z]][grid.col[z]]]]

    ground = np.zeros(nz, dtype=np.int8)
    ground_class = np.zeros(nz, dtype=np.int8)
    if m.elevation is not None:
        etoks = _parse_grid_text(m.elevation, m.width, m.height, lambda s: fail("map.elevation", s))
        for z in range(nz):
            c, r = int(grid.col[z]), int(grid.row[z])
            tok = etoks[r][c]
            if not _LEVEL_TOKEN.match(tok):
                fail(
                    "map.elevation",
                    f"zone ({c}, {r}): {tok!r} is not 0 or a level 1-5 and a class g/s/k",
                )
            if tok != "0":
                ground[z] = int(tok[0])
                ground_class[z] = CLASS_LETTERS[tok[1]]

    partial = np.zeros(nz, dtype=bool)
    for i, coord in enumerate(m.partial_zones):
        z = zone_of(coord, f"map.partial_zones.{i}")
        c, r = coord
        if 0 < c < m.width - 1 and 0 < r < m.height - 1:
            fail(f"map.partial_zones.{i}", f"zone {tuple(coord)} is not on the map edge")
        partial[z] = True

    # Linear terrain on zone sides ("Linear terrain"): both zones sharing the side carry it.
    side_terrain = np.full((nz, ns), -1, dtype=np.int16)
    for i, run in enumerate(m.linear_terrain):
        f = f"map.linear_terrain.{i}"
        if run.terrain not in tindex:
            fail(f + ".terrain", f"unknown terrain {run.terrain!r}")
        ti = tindex[run.terrain]
        if terrain[ti].shape != "linear":
            fail(f + ".terrain", f"{run.terrain!r} is template terrain, not linear")
        for j, (c, r, s) in enumerate(run.sides):
            if s not in sides:
                fail(f"{f}.sides.{j}", f"side {s!r} is not one of {', '.join(sides)}")
            z = zone_of((c, r), f"{f}.sides.{j}")
            k = sides.index(s)
            if side_terrain[z, k] >= 0:
                fail(f"{f}.sides.{j}", f"side {s} of zone ({c}, {r}) already has linear terrain")
            side_terrain[z, k] = ti
            y = grid.neighbour[z, k]
            if y >= 0:
                side_terrain[y, (k + ns // 2) % ns] = ti

    # Special terrain costs ("Special terrain costs") override terrain.yaml.
    move_cost = np.array(
        [-1 if t.move_cost is None else t.move_cost for t in terrain], dtype=np.int16
    )
    for i, rule in enumerate(sc.special_rules):
        if isinstance(rule, TerrainCost):
            if rule.terrain not in tindex:
                fail(f"special_rules.{i}.terrain", f"unknown terrain {rule.terrain!r}")
            move_cost[tindex[rule.terrain]] = -1 if rule.move_cost is None else rule.move_cost

    is_template = np.array([t.shape == "template" and t.name != "Clear" for t in terrain])
    template = geo.terrain_templates(grid, zone_terrain, is_template)
    entry_cost = _entry_costs(
        grid, terrain, move_cost, zone_terrain, ground, ground_class, side_terrain
    )
    wm_entry_cost = _entry_costs(
        grid, terrain, move_cost, zone_terrain, ground, ground_class, side_terrain, True
    )

    def area(a: Area, field: str) -> np.ndarray:
        mask = np.zeros(nz, dtype=bool)
        if a.cols is not None or a.rows is not None:
            c0, c1 = a.cols or (0, m.width - 1)
            r0, r1 = a.rows or (0, m.height - 1)
            if not (0 <= c0 <= c1 < m.width and 0 <= r0 <= r1 < m.height):
                fail(field, "cols/rows range outside the map")
            mask |= (grid.col >= c0) & (grid.col <= c1) & (grid.row >= r0) & (grid.row <= r1)
        for j, coord in enumerate(a.zones):
            mask[zone_of(coord, f"{field}.zones.{j}")] = True
        if not mask.any():
            fail(field, "names no zone")
        return mask

    deployment = np.stack(
        [area(s.deployment, f"sides.{p}.deployment") for p, s in enumerate(sc.sides)]
    )
    if np.any(deployment[0] & deployment[1]):
        fail("sides.1.deployment", "overlaps side 0's deployment zone")

    # Forces and units ("Zone contents", "Oversized (multi-zone) units").
    points = np.full(2, -1, dtype=np.int16)
    u_side, u_type, u_zone, u_face, u_zones, u_label = [], [], [], [], [], []
    occupied = np.full(nz, -1, dtype=np.int32)
    type_order = list(UNIT_TYPES)
    for p, s in enumerate(sc.sides):
        f = f"sides.{p}.force"
        if (s.force.points is None) == (not s.force.units):
            fail(f, "give exactly one of 'points' or 'units'")
        for j, name in enumerate(s.force.allowed_types):
            if name not in known_units:
                fail(
                    f"{f}.allowed_types.{j}", f"unknown unit type {name!r} (Fantasy Cards Table 3)"
                )
        if s.force.points is not None:
            points[p] = s.force.points
        for j, u in enumerate(s.force.units):
            uf = f"{f}.units.{j}"
            if u.type not in known_units:
                fail(f"{uf}.type", f"unknown unit type {u.type!r} (Fantasy Cards Table 3)")
            if u.label in u_label:
                fail(f"{uf}.label", f"duplicate unit label {u.label!r}")
            mask = np.zeros(nz, dtype=bool)
            centre, facing = NO_ZONE, -1
            if u.zone is not None:
                if u.type in OFF_BATTLEFIELD_TYPES:
                    fail(f"{uf}.zone", f"{u.type} units do not start on the battlefield")
                centre = zone_of(u.zone, f"{uf}.zone")
                if u.type != "OBSTACLE":
                    if u.facing is None:
                        fail(f"{uf}.facing", "a placed unit needs a facing (its LOS Arc)")
                    if u.facing not in sides:
                        fail(
                            f"{uf}.facing", f"facing {u.facing!r} is not one of {', '.join(sides)}"
                        )
                    facing = sides.index(u.facing)
                elif u.facing is not None:
                    fail(f"{uf}.facing", "Obstacles have no LOS Arc")
                mask[centre] = True
                for d in u.footprint:
                    if d not in dirs:
                        fail(f"{uf}.footprint", f"direction {d!r} is not one of {', '.join(dirs)}")
                    c2, r2 = geo.step(shape, u.zone[0], u.zone[1], d)
                    y = grid.zone(c2, r2)
                    if y < 0:
                        fail(f"{uf}.footprint", f"direction {d} leaves the map")
                    mask[y] = True
                for z in np.flatnonzero(mask):
                    if occupied[z] >= 0:
                        fail(
                            f"{uf}.zone",
                            f"zone ({grid.col[z]}, {grid.row[z]}) already holds unit {u_label[occupied[z]]!r}",
                        )
                    if move_cost[zone_terrain[z]] < 0:
                        fail(
                            f"{uf}.zone",
                            f"zone ({grid.col[z]}, {grid.row[z]}) is impassable terrain",
                        )
                    occupied[z] = len(u_label)
            else:
                if u.facing is not None:
                    fail(f"{uf}.facing", "only a placed unit has a facing")
                for d in u.footprint:
                    if d not in dirs:
                        fail(f"{uf}.footprint", f"direction {d!r} is not one of {', '.join(dirs)}")
            if u.footprint and len(set(u.footprint)) != len(u.footprint):
                fail(f"{uf}.footprint", "a direction is listed twice")
            u_side.append(p)
            u_type.append(type_order.index(u.type) if u.type in type_order else -1)
            u_zone.append(centre)
            u_face.append(facing)
            u_zones.append(mask)
            u_label.append(u.label)

    labels_by_side = [{u.label for u in s.force.units} for s in sc.sides]
    placed = {lbl for lbl, z in zip(u_label, u_zone, strict=True) if z >= 0}
    for i, rule in enumerate(sc.special_rules):
        if isinstance(rule, Reinforcements):
            for j, lbl in enumerate(rule.units):
                if lbl not in labels_by_side[rule.side]:
                    fail(f"special_rules.{i}.units.{j}", f"side {rule.side} has no unit {lbl!r}")
                if lbl in placed:
                    fail(
                        f"special_rules.{i}.units.{j}", f"unit {lbl!r} is already placed on the map"
                    )
            area(rule.zones, f"special_rules.{i}.zones")
            if rule.turn > sc.end_of_game.turn_limit:
                fail(f"special_rules.{i}.turn", "after the turn limit")
    firsts = [r for r in sc.special_rules if isinstance(r, FirstTurn)]
    if len(firsts) > 1:
        fail("special_rules", "more than one first_turn rule")
    for i, cond in enumerate(sc.end_of_game.conditions):
        if isinstance(cond, UnitEliminated) and cond.unit not in u_label:
            fail(f"end_of_game.conditions.{i}.unit", f"no unit labelled {cond.unit!r}")
        if isinstance(cond, HoldZones):
            area(cond.zones, f"end_of_game.conditions.{i}.zones")
    if sc.end_of_game.at_turn_limit == "hold_zones" and not any(
        isinstance(c, HoldZones) for c in sc.end_of_game.conditions
    ):
        fail("end_of_game.at_turn_limit", "'hold_zones' needs a hold_zones condition")
    if sc.origin == "invented" and not any(r.startswith("I") for r in sc.refs):
        fail("refs", "an invented scenario must cite its Invented decision (I#)")

    nu = len(u_label)
    dist = geo.battlefield_distances(geo.shortest_side_zones(grid))
    distances = np.array([dist[n] for n in DISTANCES], dtype=np.int16)
    height = np.array([LEVELS.index(t.height) for t in terrain], dtype=np.int8)
    eff = np.array([[e in t.effects for e in EFFECTS] for t in terrain], dtype=bool)
    has_side = side_terrain >= 0
    st = np.where(has_side, side_terrain, 0)
    los = geo.LosTerrain(
        ground=readonly(ground.copy()),
        top=readonly(np.maximum(ground, height[zone_terrain])),
        covering=readonly(eff[zone_terrain, 0].copy()),
        obstructing=readonly(eff[zone_terrain, 1].copy()),
        template=template,
        side_covering=readonly(has_side & eff[st, 0]),
        side_obstructing=readonly(has_side & eff[st, 1]),
        side_top=readonly(np.maximum(height[st], ground[:, None]) * has_side),
    )
    return ScenarioArrays(
        scenario=sc,
        grid=grid,
        zone_terrain=readonly(zone_terrain),
        ground=readonly(ground),
        ground_class=readonly(ground_class),
        partial=readonly(partial),
        side_terrain=readonly(side_terrain),
        template=template,
        entry_cost=readonly(entry_cost),
        wm_entry_cost=readonly(wm_entry_cost),
        deployment=readonly(deployment),
        points=readonly(points),
        unit_side=readonly(np.array(u_side, dtype=np.int8)),
        unit_type=readonly(np.array(u_type, dtype=np.int16)),
        unit_zone=readonly(np.array(u_zone, dtype=np.int16)),
        unit_facing=readonly(np.array(u_face, dtype=np.int8)),
        unit_zones=readonly(np.array(u_zones, dtype=bool).reshape(nu, nz)),
        unit_label=tuple(u_label),
        distances=readonly(distances),
        los_terrain=los,
        turn_limit=sc.end_of_game.turn_limit,
    )


def _entry_costs(
    grid: geo.Grid,
    terrain: list[TerrainType],
    move_cost: np.ndarray,
    zone_terrain: np.ndarray,
    ground: np.ndarray,
    ground_class: np.ndarray,
    side_terrain: np.ndarray,
    ignore_linear: bool = False,
) -> np.ndarray:
    """Zones of movement to cross side s of zone z into its neighbour (LB "Movement"):
    the entered zone's cost (clear 1, terrain 2), doubled when climbing Steep ground (I6), plus
    1 for Hindering/Covering/Obstructing linear terrain on the side; -1 where not allowed
    (impassable zone or side, the map edge, or Stark ground higher than a Low unit can climb
    without a climb route). `ignore_linear`: the linear terrain's extra cost and impassability
    are ignored (a War Machine in contact with it, FC "War Machine" NOTE; its role as a climb
    route stays)."""
    ns = grid.n_sides
    cost = np.full((grid.n_zones, ns), -1, dtype=np.int8)
    for z in range(grid.n_zones):
        for k in range(ns):
            y = int(grid.neighbour[z, k])
            if y < 0:
                continue
            c = int(move_cost[zone_terrain[y]])
            if c < 0:
                continue
            rise = int(ground[y]) - int(ground[z])
            lt = int(side_terrain[z, k])
            route = lt >= 0 and terrain[lt].climb_route
            if rise > 0 and ground_class[y] == STEEP:
                c *= 2
            if rise > UNIT_HEIGHT and ground_class[y] == STARK and not route:
                continue
            if lt >= 0 and not ignore_linear:
                extra = int(move_cost[lt])
                if extra < 0:
                    continue
                c += extra
            cost[z, k] = c
    return cost


def load_tables(
    config_dir: Path = DEFAULT_DIR,
    unit_types_path: Path | None = FANTASY_CARDS_UNIT_TYPES,
    scenario_files: Sequence[Path] | None = None,
) -> Tables:
    """Load terrain.yaml and every scenario in scenarios/ (or, given `scenario_files`, those
    files instead), validated and compiled.

    Unit types must be Table 3 names (UNIT_TYPES) and, when `unit_types_path` names an
    existing Fantasy Cards unit_types.yaml, also entries of that file."""
    config_dir = Path(config_dir)
    terrain = load_terrain(config_dir / "terrain.yaml")
    fc_names = None if unit_types_path is None else fantasy_cards_unit_names(unit_types_path)
    unit_names = set(UNIT_TYPES) if fc_names is None else set(UNIT_TYPES) & set(fc_names)
    scenarios: dict[str, ScenarioArrays] = {}
    seen: dict[str, Path] = {}
    if scenario_files is None:
        scenario_files = sorted((config_dir / "scenarios").glob("*.yaml"))
    for path in scenario_files:
        sc = load_scenario(path)
        if sc.name in seen:
            raise ConfigError(
                path, f"'{sc.name}'", "name", f"duplicate of scenario in {seen[sc.name]}"
            )
        seen[sc.name] = path
        scenarios[sc.name] = compile_scenario(sc, path, terrain, unit_names)
    eff = np.array([[e in t.effects for e in EFFECTS] for t in terrain], dtype=bool)
    return Tables(
        terrain=tuple(terrain),
        terrain_index={t.name: i for i, t in enumerate(terrain)},
        terrain_shape=readonly(
            np.array(
                [TEMPLATE if t.shape == "template" else LINEAR for t in terrain], dtype=np.int8
            )
        ),
        terrain_effect=readonly(eff),
        terrain_height=readonly(np.array([LEVELS.index(t.height) for t in terrain], dtype=np.int8)),
        terrain_class=readonly(
            np.array([CLASSES.index(t.elevation_class) for t in terrain], dtype=np.int8)
        ),
        terrain_move_cost=readonly(
            np.array([-1 if t.move_cost is None else t.move_cost for t in terrain], dtype=np.int8)
        ),
        terrain_climb_route=readonly(np.array([t.climb_route for t in terrain], dtype=bool)),
        unit_type_index={n: i for i, n in enumerate(UNIT_TYPES)},
        unit_points=readonly(np.array(list(UNIT_TYPES.values()), dtype=np.int16)),
        scenarios=scenarios,
    )
