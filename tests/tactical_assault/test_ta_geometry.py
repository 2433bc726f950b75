"""The core's geometry kernels over the zone ground agree with the Legendary Battles
geometry (LB PART III "Line of sight", "Units & line-of-sight arcs")."""

from __future__ import annotations

import numpy as np
import pytest

from envs.fantasy_cards.tables import load_tables as load_fc
from envs.legendary_battles import geometry as geo
from envs.legendary_battles.tables import load_tables as load_lb
from envs.legendary_battles.zones import fill_ground
from envs.tactical_assault import geometry, tables
from envs.tactical_assault.state import MAX_POS


def _ground(name):
    sa = load_lb().scenarios[name]
    rec = tables.card_record(load_fc())
    fill_ground(rec[0], sa)
    return sa, tables.as_tb(rec)


@pytest.mark.parametrize(
    "name", ["Crossroads of Hallin", "Greywater Ford", "Siege of the Ridge Fort"]
)
def test_line_of_sight_matches_the_zone_geometry(name):
    """Squares and hexes, woods, buildings, walls, hedges, a palisade, elevation: every
    sampled pair with random blocking units gives the same LOS, Obstructed and In Cover."""
    sa, tb = _ground(name)
    g = sa.grid
    n = g.n_zones
    rng = np.random.default_rng(5)
    short = int(sa.distances[1])
    for _ in range(400):
        a, b = (int(x) for x in rng.integers(n, size=2))
        blockers = rng.random(n) < 0.12
        blockers[[a, b]] = False
        want = geo.line_of_sight(g, sa.los_terrain, a, b, blockers, short)
        occ = np.zeros(MAX_POS, dtype=np.uint8)
        occ[:n] = blockers
        bits = geometry.line_of_sight(tb, occ, a, b)
        got = (
            bool(bits & geometry.LOS_EXISTS),
            bool(bits & geometry.LOS_OBSTRUCTED),
            bool(bits & geometry.LOS_IN_COVER),
        )
        assert got == (want.exists, want.obstructed, want.in_cover), (a, b)


def _uncull(rec: np.ndarray) -> np.ndarray:
    """A copy of a tables record whose speed-up fields (tables.derive_ground) cull nothing:
    line_of_sight then tests every position, as before they existed."""
    full = rec.copy()
    full.setflags(write=True)
    r = full[0]
    r["g_bbox"][:, 0:2] = -np.inf
    r["g_bbox"][:, 2:4] = np.inf
    r["g_radius"][:] = np.inf
    r["g_ysorted"][:] = -np.inf
    r["g_max_height"] = np.inf
    return full


@pytest.mark.parametrize("name", ["fantasy_cards", "Greywater Ford"])
def test_culled_line_of_sight_equals_the_full_scan(name):
    """The positions line_of_sight skips (boxes, radii, rows: derive_ground) never change its
    result: random pairs and random units (Obstacles too) on the FC tabletop and a zone map."""
    if name == "fantasy_cards":
        from envs.fantasy_cards.tabletop import standard_record

        rec = standard_record()
    else:
        sa = load_lb().scenarios[name]
        rec = tables.card_record(load_fc())
        fill_ground(rec[0], sa)
    tb, full = tables.as_tb(rec), tables.as_tb(_uncull(rec))
    n = int(tb.g_n_pos)
    rng = np.random.default_rng(11)
    seen = set()
    for _ in range(1500):
        a, b = (int(x) for x in rng.integers(n, size=2))
        occ = np.zeros(MAX_POS, dtype=np.uint8)
        occ[:n] = rng.choice(3, size=n, p=[0.88, 0.09, 0.03])
        occ[[a, b]] = 0
        bits = geometry.line_of_sight(tb, occ, a, b)
        assert bits == geometry.line_of_sight(full, occ, a, b), (a, b)
        seen.add(bits)
    assert len(seen) >= 3  # blocked, clear and Obstructed lines were all drawn


def test_units_block_line_of_sight_and_obscured_targets():
    """LB "LOS through units": a unit on the line blocks; LB "LOS to other than center
    point": a target seen only off-centre is Obscured (Obstructed, R11)."""
    sa, tb = _ground("Crossroads of Hallin")
    g = sa.grid
    a, b, mid = g.zone(3, 7), g.zone(7, 7), g.zone(5, 7)
    occ = np.zeros(MAX_POS, dtype=np.uint8)
    assert geometry.line_of_sight(tb, occ, a, b) == geometry.LOS_EXISTS
    occ[mid] = 1
    assert geometry.line_of_sight(tb, occ, a, b) == 0
    occ[:] = 0
    occ[g.zone(5, 6)] = 1  # beside the line: the centre line passes, off-centre points too
    assert geometry.line_of_sight(tb, occ, a, b) == geometry.LOS_EXISTS


def test_distance_bands_are_table_2_in_zones(crossroads):
    """LB "Calculating battlefield distances": 10 zones on the short side -> 10/5/3/2/1."""
    assert list(crossroads.g_dist_units) == [1, 2, 3, 5, 10]
    a = 0
    assert geometry.in_band(crossroads, a, 2, 1) and not geometry.in_band(crossroads, a, 3, 1)


@pytest.mark.parametrize("name", ["fantasy_cards", "Siege of the Ridge Fort"])
def test_los_tables_give_the_traced_line_of_sight(name):
    """line_of_sight_fast (the ground's LOS tables, tables.derive_los) gives line_of_sight's
    bits exactly: random pairs and random units and Obstacles on the FC tabletop and a zone
    map with elevation and linear terrain; lines blocked, open, Obstructed, In Cover, and a
    unit-free ground (the tables alone) all drawn."""
    if name == "fantasy_cards":
        from envs.fantasy_cards.tabletop import standard_record

        rec = standard_record()
    else:
        sa = load_lb().scenarios[name]
        rec = tables.card_record(load_fc())
        fill_ground(rec[0], sa)
    tb = tables.as_tb(rec)
    assert tb.g_los_ready == 1
    n = int(tb.g_n_pos)
    rng = np.random.default_rng(17)
    seen = set()
    for i in range(3000):
        a, b = (int(x) for x in rng.integers(n, size=2))
        occ = np.zeros(MAX_POS, dtype=np.uint8)
        if i % 3:
            occ[:n] = rng.choice(3, size=n, p=[0.85, 0.11, 0.04])
            occ[[a, b]] = 0
        bits = geometry.line_of_sight_fast(tb, occ, a, b)
        assert bits == geometry.line_of_sight(tb, occ, a, b), (a, b)
        seen.add(bits)
    assert {0, geometry.LOS_EXISTS, geometry.LOS_EXISTS | geometry.LOS_OBSTRUCTED} <= seen
