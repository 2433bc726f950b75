"""Terrain clauses of Legendary Battles PART III pinned on small maps (LB-3.3.3, LB-3.3.6,
LB-3.3.7, LB-3.3.8, LB-3.4.10): the loader's zone map (tables.compile_scenario) and the LOS
of geometry.py."""

from __future__ import annotations

import numpy as np
import pytest
import yaml
from lb_helpers import TERRAIN, build, scenario_doc

from envs.core.config import ConfigError
from envs.legendary_battles import geometry as geo
from envs.legendary_battles.tables import compile_scenario, load_scenario

OPEN5 = [". . . . ."] * 5


def _los(sa, a, b):
    g = sa.grid
    return geo.line_of_sight(
        g, sa.los_terrain, g.zone(*a), g.zone(*b), np.zeros(g.n_zones, dtype=bool), 2
    )


def test_a_side_carries_one_linear_terrain_seen_from_both_zones(tmp_path):
    """LB "Linear terrain": a Hedge on the east side of (1, 1) is the west side of (2, 1), so
    both crossings cost one more than the zone entered; a second linear terrain on that side
    is refused."""
    linear = [{"terrain": "Hedge", "sides": [[1, 1, "E"]]}]
    sa = build(OPEN5, tmp_path, linear=linear)
    g = sa.grid
    z, s = g.zone, g.side_index
    assert sa.entry_cost[z(1, 1), s("E")] == 2
    assert sa.entry_cost[z(2, 1), s("W")] == 2
    assert sa.entry_cost[z(1, 2), s("E")] == 1  # the side below: no hedge
    assert sa.side_terrain[z(1, 1), s("E")] == sa.side_terrain[z(2, 1), s("W")] >= 0
    twice = linear + [{"terrain": "Wall", "sides": [[2, 1, "W"]]}]
    doc = scenario_doc(OPEN5, linear=twice)
    p = tmp_path / "twice.yaml"
    p.write_text(yaml.safe_dump(doc, sort_keys=False))
    with pytest.raises(ConfigError, match="already has linear terrain"):
        compile_scenario(load_scenario(p), p, TERRAIN)


def test_gradual_ground_adds_no_movement_cost(tmp_path):
    """FC "Gradual elevation" on a map (LB-3.4.10): climbing onto Low (1) and High (3) gradual
    ground costs what the zone costs on flat ground; Steep ground of the same level doubles."""
    elev = ["0 1g 3g 0 1s"] + ["0 0 0 0 0"] * 4
    sa = build(OPEN5, tmp_path, elevation=elev)
    g = sa.grid
    z, s = g.zone, g.side_index
    assert sa.entry_cost[z(0, 0), s("E")] == 1  # up onto Low gradual ground
    assert sa.entry_cost[z(1, 0), s("E")] == 1  # up again onto High gradual ground
    assert sa.entry_cost[z(3, 0), s("E")] == 2  # Steep: double (LB-3.4.8)
    assert sa.entry_cost[z(1, 1), s("N")] == 1


def test_elevation_levels_and_classes_of_the_map(tmp_path):
    """LB-3.3.7: elevation tokens are a level 0..5 and a class g/s/k (Gradual, Steep, Stark);
    the zone's ground stands at that level."""
    elev = ["0 1g 2s 3k 5g"] + ["0 0 0 0 0"] * 4
    sa = build(OPEN5, tmp_path, elevation=elev)
    g = sa.grid
    assert [int(sa.los_terrain.ground[g.zone(c, 0)]) for c in range(5)] == [0, 1, 2, 3, 5]
    with pytest.raises(ConfigError):
        build(OPEN5, tmp_path, elevation=["0 6g 0 0 0"] + ["0 0 0 0 0"] * 4)


def test_woods_on_a_hill_tops_the_zone_and_still_blocks_its_own_level(tmp_path):
    """FC "Multiple Elevations Stacked" on a map (LB-3.3.8, FC-4.26): Woods (Medium, 2) on a
    Low hill (1): the zone's top is the higher of the two (2). Units on the ground do not see past it; units standing
    on the same Low hill on both sides of the woods do not either (the woods stand on their
    level); a unit on a High (3) hill sees over a Medium hill without woods."""
    rows = [". . . . .", ". . W . .", ". . . . .", ". . . . .", ". . . . ."]
    elev = ["0 0 0 0 0", "1g 1g 1g 1g 1g", "0 0 2g 0 3g", "0 0 0 0 0", "0 0 0 0 0"]
    sa = build(rows, tmp_path, elevation=elev)
    g = sa.grid
    t = sa.los_terrain
    assert int(t.ground[g.zone(2, 1)]) == 1 and int(t.top[g.zone(2, 1)]) == 2
    assert not _los(sa, (0, 1), (4, 1)).exists  # same Low level: the woods block
    # R12: a High (3) unit looks over the Medium (2) hill between it and a ground unit
    assert _los(sa, (0, 2), (4, 2)).exists
    rows_clear = [". . . . ."] * 5
    sa2 = build(rows_clear, tmp_path, elevation=elev)
    assert _los(sa2, (0, 1), (4, 1)).exists  # without the woods the hill top is level
