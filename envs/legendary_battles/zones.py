"""A Legendary Battles scenario reduced to the Tactical Assault tables record (its ground and
its forces), so the one Tactical Assault core plays it (envs/tactical_assault/).

The zone map becomes the ``g_*`` arrays: positions are zones, distances are counted in zones
(LB "Zones for distances"), sides carry the movement costs of tables.compile_scenario, LOS
terrain is geometry.LosTerrain, LOS Arcs and Fall Back routes are tabulated from the geometry
of geometry.py. The scenario's forces and rules become the ``sc_*`` and ``vc_*`` fields.

Oversized units (footprints) are the ``sc_fp_*`` fields (LB R28); an oversized unit placed
by its player is not playable yet (a ValueError names the scenario and the unit). Forces chosen by points are chosen by the players
before deployment (flow.py); ``units_exit`` lets units leave the map (turn.py, LB R22). An INFILTRATOR starts off the battlefield (the loader
refuses a zone for it) and enters with the Infiltration Situation (FC I9).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from envs.fantasy_cards import tables as fct
from envs.legendary_battles import geometry as geo
from envs.legendary_battles.tables import (
    DeployFirst,
    FirstTurn,
    HalfPointsEliminated,
    HoldZones,
    NoUnitsLeft,
    PointsEliminated,
    Reinforcements,
    ScenarioArrays,
    UnitEliminated,
    UnitsExit,
    load_tables,
)
from envs.tactical_assault import tables as tat
from envs.tactical_assault.state import MAX_DIRS, MAX_POS, MAX_UNITS


def _area_mask(sa: ScenarioArrays, area) -> np.ndarray:
    g = sa.grid
    mask = np.zeros(g.n_zones, dtype=bool)
    if area.cols is not None or area.rows is not None:
        c0, c1 = area.cols or (0, g.width - 1)
        r0, r1 = area.rows or (0, g.height - 1)
        mask |= (g.col >= c0) & (g.col <= c1) & (g.row >= r0) & (g.row <= r1)
    for c, r in area.zones:
        mask[g.zone(c, r)] = True
    return mask


def _edge_mask(sa: ScenarioArrays, edge: str) -> np.ndarray:
    """The zones on map edge `edge` (LB R22: a unit leaves the map from one of them)."""
    g = sa.grid
    if edge == "N":
        return g.row == 0
    if edge == "S":
        return g.row == g.height - 1
    if edge == "W":
        return g.col == 0
    return g.col == g.width - 1


def _standable(sa: ScenarioArrays, z: int) -> bool:
    """A unit may stand in zone z: some side lets a unit enter it (not Impassable terrain)."""
    g = sa.grid
    for k in range(g.n_sides):
        y = int(g.neighbour[z, k])
        if y >= 0:
            back = int(np.flatnonzero(g.neighbour[y] == z)[0])
            if sa.entry_cost[y, back] >= 0:
                return True
    return False


def fill_ground(r: np.ndarray, sa: ScenarioArrays) -> None:
    """Write the zone map of `sa` into record row `r` (the g_* fields)."""
    g = sa.grid
    n, nd = g.n_zones, g.n_sides
    if n > MAX_POS:
        raise ValueError(f"scenario {sa.scenario.name!r}: {n} zones exceed the capacity {MAX_POS}")
    r["g_n_pos"] = n
    r["g_n_dirs"] = nd
    r["g_dist_units"][:] = sa.distances
    r["g_extreme_extra"] = 0  # LB R19: a one-zone unit is all at its zone's centre
    r["g_dist"][:n, :n] = geo.distance_matrix(g)
    r["g_contact"][:n, :n] = np.eye(n, dtype=np.uint8)  # in contact: sharing a zone
    r["g_cc_share"] = 1
    r["g_centre"][:n] = g.centre
    r["g_vertex"][:n, :nd] = g.vertex
    r["g_normal"][:n, :nd] = g.normal
    r["g_offset"][:n, :nd] = g.offset
    r["g_neighbour"][:n, :nd] = g.neighbour
    r["g_entry_cost"][:n, :nd] = sa.entry_cost
    r["g_wm_cost"][:n, :nd] = sa.wm_entry_cost
    r["g_standable"][:n] = [_standable(sa, z) for z in range(n)]
    if 2 * int(sa.distances[1]) > tat.FB_LEN:
        raise ValueError(
            f"scenario {sa.scenario.name!r}: a Short Distance of {sa.distances[1]} zones needs "
            f"Fall Back routes longer than {tat.FB_LEN} steps"
        )
    t = sa.los_terrain
    r["g_ground"][:n] = t.ground
    r["g_top"][:n] = t.top
    r["g_covering"][:n] = t.covering
    r["g_obstructing"][:n] = t.obstructing
    r["g_template"][:n] = t.template
    r["g_side_covering"][:n, :nd] = t.side_covering
    r["g_side_obstructing"][:n, :nd] = t.side_obstructing
    r["g_side_top"][:n, :nd] = t.side_top
    for p in range(n):
        for f in range(nd):
            for o in range(n):
                r["g_arc"][p, f, o] = geo.in_los_arc(g, p, f, o)
    for a in range(n):
        for b in range(n):
            if a == b:
                continue
            line = geo.line_route(g, a, b)  # geo.fall_back_route, geo.random_drift_route
            i = line.index((b,))
            for k, options in enumerate(line[i + 1 :][: tat.FB_LEN]):
                r["g_fb_route"][a, b, k, 0] = options[0]
                if len(options) > 1:
                    r["g_fb_route"][a, b, k, 1] = options[1]
            # a Target Point at a drifting towards a unit at b (LB "Random drift movement"):
            # the zones the line enters, stopped on b (FC I6)
            for d in range(tat.N_DRIFT):
                options = line[min(int(sa.distances[d]), i + 1) - 1]
                r["g_drift"][a, b, d, 0] = options[0]
                if len(options) > 1:
                    r["g_drift"][a, b, d, 1] = options[1]
    tat.derive_ground(r)


def fill_forces(r: np.ndarray, sa: ScenarioArrays, type_index: dict[str, int]) -> None:
    """Write the scenario's forces, special rules and end conditions into record row `r`."""
    sc = sa.scenario
    name = sc.name

    def unsupported(what: str) -> ValueError:
        return ValueError(f"scenario {name!r}: {what} is not playable yet (issue 7, next part)")

    for i, s in enumerate(sc.sides):
        if s.force.points is not None:
            # LB I8: chosen by the player before deployment (flow.STAGE_CHOOSE_FORCE)
            r["sc_force_points"][i] = s.force.points
            allowed = s.force.allowed_types or list(type_index)
            for t in allowed:
                r["sc_allowed"][i, type_index[t]] = 1
    nu = len(sa.unit_label)
    if nu > MAX_UNITS:
        raise ValueError(f"scenario {name!r}: {nu} units exceed the capacity {MAX_UNITS}")
    units = [u for s in sc.sides for u in s.force.units]
    types = [u.type for u in units]
    for i, u in enumerate(units):
        # LB "Oversized (multi-zone) units": the footprint's directions as side steps
        if not u.footprint:
            continue
        if u.zone is None:
            raise unsupported(f"an oversized unit deployed by its player ({u.label!r})")
        if len(u.footprint) > tat.MAX_FP:
            raise ValueError(
                f"scenario {name!r}: unit {u.label!r} covers {len(u.footprint)} zones beyond "
                f"its centre, more than the capacity {tat.MAX_FP}"
            )
        r["sc_fp_n"][i] = len(u.footprint)
        for f, d in enumerate(u.footprint):
            steps = [d] if d in sa.grid.sides else [d[0], d[1]]  # a square's corner: N+E
            for j, side in enumerate(steps):
                r["sc_fp_step"][i, f, j] = sa.grid.side_index(side)
    r["sc_n_units"] = nu
    r["sc_unit_side"][:nu] = sa.unit_side
    r["sc_unit_type"][:nu] = [type_index[t] for t in types]
    r["sc_unit_pos"][:nu] = sa.unit_zone
    r["sc_unit_facing"][:nu] = np.maximum(sa.unit_facing, 0)
    n = sa.grid.n_zones
    r["sc_deploy"][:, :n] = sa.deployment
    label = {lbl: i for i, lbl in enumerate(sa.unit_label)}
    for rule in sc.special_rules:
        if isinstance(rule, FirstTurn):
            r["sc_first_turn"] = rule.side
        elif isinstance(rule, DeployFirst):
            r["sc_deploy_first"] = rule.side
        elif isinstance(rule, Reinforcements):
            for lbl in rule.units:
                r["sc_unit_arrives"][label[lbl]] = rule.turn
            r["sc_arrive_zone"][rule.side, :n] |= _area_mask(sa, rule.zones)
    eog = sc.end_of_game
    r["sc_turn_limit"] = eog.turn_limit
    for cond in eog.conditions:
        if isinstance(cond, HalfPointsEliminated):
            r["vc_half_points"] = 1
        elif isinstance(cond, NoUnitsLeft):
            r["vc_no_units"] = 1
        elif isinstance(cond, PointsEliminated):
            r["vc_points_side"] = cond.side
            r["vc_points"] = cond.points
        elif isinstance(cond, UnitEliminated):
            r["vc_unit"] = label[cond.unit]
        elif isinstance(cond, HoldZones):
            r["vc_hold_side"] = cond.side
            r["vc_hold"][:n] = _area_mask(sa, cond.zones)
        elif isinstance(cond, UnitsExit):
            r["vc_exit_side"] = cond.side
            r["vc_exit_count"] = cond.count
            r["vc_exit"][:n] = _edge_mask(sa, cond.edge)
        else:
            raise unsupported(f"the end condition {cond.kind!r}")
    r["vc_at_limit"] = tat.AT_LIMIT_NAMES.index(eog.at_turn_limit)


def scenario_record(sa: ScenarioArrays, fc: fct.Tables | None = None) -> np.ndarray:
    """The 1-element tables record that plays scenario `sa` on the Tactical Assault core."""
    fc = fc if fc is not None else _fc_tables()
    if sa.grid.n_sides > MAX_DIRS:
        raise ValueError(f"{sa.grid.n_sides} zone sides exceed the capacity {MAX_DIRS}")
    rec = tat.card_record(fc)
    fill_ground(rec[0], sa)
    fill_forces(rec[0], sa, fc.unit_type_index)
    return rec


@lru_cache(maxsize=1)
def _fc_tables() -> fct.Tables:
    return fct.load_tables()


@lru_cache(maxsize=8)
def shipped_record(name: str) -> np.ndarray:
    """The record of a shipped scenario by name (built once per process; do not modify)."""
    scenarios = load_tables().scenarios
    if name not in scenarios:
        raise ValueError(f"unknown scenario {name!r}; shipped: {', '.join(sorted(scenarios))}")
    rec = scenario_record(scenarios[name])
    rec.setflags(write=False)
    return rec


def scenario_path_record(path: str | Path) -> np.ndarray:
    """The record of a user scenario file (validated by the Legendary Battles loader)."""
    from envs.legendary_battles.tables import (
        DEFAULT_DIR,
        compile_scenario,
        load_scenario,
        load_terrain,
    )

    path = Path(path)
    sa = compile_scenario(load_scenario(path), path, load_terrain(DEFAULT_DIR / "terrain.yaml"))
    return scenario_record(sa)
