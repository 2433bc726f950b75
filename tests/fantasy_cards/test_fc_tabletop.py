"""The tabletop as data (FC reading R28, envs/fantasy_cards/tabletop.py): Table 2 in half-cells,
centre-to-centre distances, contact, movement costs over terrain, LOS Arcs, Fall Back routes,
and the battlefield file's validation."""

from __future__ import annotations

import pytest
from fc_tabletop_helpers import CLEAR_ROWS, battlefield_doc, tb_of, unit, write

from envs.core.config import ConfigError
from envs.fantasy_cards import tabletop as tt
from envs.tactical_assault import tables

C = tt.cell
D = {name: k for k, name in enumerate(tt.DIRECTIONS)}


def test_table_2_is_whole_cells_of_the_16_cell_square_table():
    """FC "Determine Battlefield Scale" / Table 2: Very Long is the shortest edge (16 cells),
    each shorter distance half the one above; held in half-cells (R28)."""
    tb = tables.as_tb(tt.standard_record())
    assert tb.g_n_pos == 256 and tb.g_n_dirs == 8
    assert tb.g_dist_units.tolist() == [2, 4, 8, 16, 32]  # VS 1, S 2, M 4, L 8, VL 16 cells
    assert tb.g_extreme_extra == 1
    assert tb.g_cc_share == 0


def test_measuring_is_centre_to_centre_in_half_cells_rounded_up():
    """FC "Measuring": centre to centre; Euclidean, in half-cells rounded up, so "within" a
    Table 2 distance is decided exactly (R28)."""
    tb = tables.as_tb(tt.standard_record())
    assert tb.g_dist[C(5, 5), C(6, 5)] == 2  # one cell: a Very Short Distance
    assert tb.g_dist[C(5, 5), C(6, 6)] == 3  # 1.41 cells
    assert tb.g_dist[C(0, 0), C(3, 4)] == 10  # 5 cells
    assert tb.g_dist[C(0, 0), C(15, 0)] == 30
    # within a Short Distance (2 cells): (2, 0) yes, (2, 1) = 2.24 cells no
    assert tb.g_dist[C(5, 5), C(7, 5)] <= tb.g_dist_units[1]
    assert tb.g_dist[C(5, 5), C(7, 6)] > tb.g_dist_units[1]


def test_contact_is_the_8_neighbourhood():
    """R28: units never share a cell; neighbouring cells (corners too) are in contact."""
    tb = tables.as_tb(tt.standard_record())
    p = C(5, 5)
    near = {C(c, r) for c in (4, 5, 6) for r in (4, 5, 6)} - {p}
    assert {int(q) for q in range(256) if tb.g_contact[p, q]} == near
    assert tb.g_contact[p, p] == 0


def test_move_costs_orthogonal_diagonal_terrain_and_slopes(tmp_path):
    """R28, R23, R31: a step costs 2 half-cells, a diagonal 3; into Covering / Obstructing /
    Hindering terrain double; up a Steep slope double again, a Gradual one no more; Stark
    ground higher than a Low unit only by a climb route; Impassable never."""
    rows = [list(r.split()) for r in CLEAR_ROWS]
    rows[5][6] = "W"  # Woods east of (5, 5)
    rows[4][6] = "S"  # Swamp north-east
    rows[6][5] = "L"  # Lava Flow south
    elev = [["0"] * 16 for _ in range(16)]
    elev[4][5] = "1s"  # a Steep rise north
    elev[6][4] = "2g"  # a Gradual rise south-west
    elev[6][6] = "2k"  # a Stark rise south-east
    elev[10][9] = elev[10][11] = "2k"  # Stark either side of (10, 10), Stairs to the west
    tb = tb_of(
        tmp_path,
        rows=[" ".join(r) for r in rows],
        elevation="\n".join(" ".join(r) for r in elev) + "\n",
        linear_terrain=[{"terrain": "Stairs", "sides": [[10, 10, "W"]]}],
    )
    cost = tb.g_entry_cost[C(5, 5)]
    assert cost[D["N"]] == 4  # up the Steep slope: 2 x 2
    assert cost[D["NE"]] == 6  # diagonal into Swamp: 3 x 2
    assert cost[D["E"]] == 4  # into Woods
    assert cost[D["S"]] == -1  # Lava Flow: Impassable
    assert cost[D["SW"]] == 3  # "Gradual Elevation": no penalty of its own
    assert cost[D["SE"]] == -1  # "Stark Elevation": two levels up, no route
    assert cost[D["W"]] == 2
    assert tb.g_entry_cost[C(10, 10), D["E"]] == -1  # two levels up, Stark
    assert tb.g_entry_cost[C(10, 10), D["W"]] == 2  # ... unless by a specific route (Stairs)
    assert tb.g_standable[C(5, 6)] == 0
    assert tb.g_entry_cost[C(5, 4), D["S"]] == 2  # down the slope: no penalty


def test_linear_terrain_on_cell_sides_and_the_war_machine_cost(tmp_path):
    """FC "Linear Terrain" on cell sides (R28): a Wall adds a Very Short Distance to cross it
    orthogonally; a diagonal step may not pass a corner it touches (R31); a Cliff is
    Impassable; g_wm_cost ignores the linear terrain (FC "War Machine" NOTE)."""
    lin = [
        {"terrain": "Wall", "sides": [[5, 5, "N"]]},
        {"terrain": "Cliff", "sides": [[5, 5, "E"]]},
    ]
    tb = tb_of(tmp_path, linear_terrain=lin)
    z = C(5, 5)
    assert tb.g_entry_cost[z, D["N"]] == 4 and tb.g_wm_cost[z, D["N"]] == 2
    assert tb.g_entry_cost[C(5, 4), D["S"]] == 4  # both cells carry the side
    assert tb.g_entry_cost[z, D["E"]] == -1 and tb.g_wm_cost[z, D["E"]] == 2
    assert tb.g_entry_cost[z, D["NE"]] == -1 and tb.g_entry_cost[z, D["NW"]] == -1
    assert tb.g_entry_cost[z, D["SW"]] == 3
    # the LOS kernel sees the Wall on both halves of the North edge (Obstructing)
    assert tb.g_side_obstructing[z, 0] == 1 and tb.g_side_obstructing[z, 1] == 1
    assert tb.g_side_obstructing[C(5, 4), 4] == 1 and tb.g_side_obstructing[C(5, 4), 5] == 1


def test_los_arcs_are_the_front_half_of_8_facings():
    """FC "Line Of Sight Arcs" (I10): the front 180 degrees of the facing, edge included."""
    tb = tables.as_tb(tt.standard_record())
    p = C(8, 8)
    north = D["N"]
    assert tb.g_arc[p, north, C(8, 2)] and tb.g_arc[p, north, C(0, 8)]  # ahead, abeam
    assert not tb.g_arc[p, north, C(8, 9)]  # behind
    ne = D["NE"]
    assert tb.g_arc[p, ne, C(15, 8)] and tb.g_arc[p, ne, C(4, 4)]
    assert not tb.g_arc[p, ne, C(7, 8)] and not tb.g_arc[p, ne, C(8, 9)]


def test_fall_back_route_follows_the_line_from_the_attacker():
    """FC "Fall Back" (R7): directly away along the line from the attacker's centre through
    the target's; a corner passed exactly is a diagonal step; the route stops at the edge."""
    tb = tables.as_tb(tt.standard_record())
    r = tb.g_fb_route
    assert r[C(5, 5), C(6, 5), :3, 0].tolist() == [C(7, 5), C(8, 5), C(9, 5)]
    assert r[C(5, 5), C(6, 6), :2, 0].tolist() == [C(7, 7), C(8, 8)]
    assert r[C(5, 5), C(7, 6), :4, 0].tolist() == [C(8, 6), C(8, 7), C(9, 7), C(10, 7)]
    assert (r[..., 1] == -1).all()  # no equal options on the tabletop
    assert r[C(13, 0), C(14, 0), :3, 0].tolist() == [C(15, 0), -1, -1]


def test_standard_record_size_and_forces():
    """The Standard Game (FC PART VI): 36 points a side chosen by the players, placed at
    least a Medium Distance from the enemy; the record stays a few MB (R28: 4.6 MB of rules
    and ground, and 2.1 MB of LOS tables, tables.derive_los)."""
    rec = tt.standard_record()
    assert rec.nbytes < 7_000_000
    tb = tables.as_tb(rec)
    assert tb.sc_force_points.tolist() == [36, 36]
    assert tb.sc_deploy_min == 2 and tb.sc_deploy_first == -1
    assert tb.vc_half_points == 1 and tb.vc_no_units == 1 and tb.sc_turn_limit == 30


@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        (
            lambda d: d["forces"].__setitem__(0, {"units": [unit("ARCHER", 16, 3)]}),
            "forces.0.units.0.cell",
            "off the table",
        ),
        (lambda d: d["legend"].__setitem__("W", "Jungle Swamp"), "legend.W", "unknown terrain"),
        (
            lambda d: d["forces"].__setitem__(1, {"units": [unit("ELF", 3, 3)]}),
            "forces.1.units.0.type",
            "unknown unit type",
        ),
        (
            lambda d: d["forces"].__setitem__(0, {"units": [unit("ARCHER", 3, 3, "UP")]}),
            "forces.0.units.0.facing",
            "faces one of",
        ),
        (
            lambda d: d["forces"].__setitem__(0, {"units": [unit("AERIAL", 3, 3)]}),
            "forces.0.units.0.cell",
            "do not start",
        ),
        (lambda d: d.__setitem__("terrain", "\n".join(CLEAR_ROWS[:15])), "terrain", "15 rows"),
        (
            lambda d: d.__setitem__(
                "linear_terrain", [{"terrain": "Woods", "sides": [[1, 1, "N"]]}]
            ),
            "linear_terrain.0.terrain",
            "not linear",
        ),
        (lambda d: d.__setitem__("colour", "red"), "colour", "unknown field"),
        (
            lambda d: d["forces"].__setitem__(0, {"points": 36, "units": [unit("ARCHER", 3, 3)]}),
            "forces.0",
            "exactly one",
        ),
    ],
)
def test_battlefield_errors_name_file_entry_and_field(tmp_path, change, field, message):
    doc = battlefield_doc()
    change(doc)
    path = write(doc, tmp_path)
    with pytest.raises(ConfigError) as err:
        tt.battlefield_record(path)
    assert err.value.path == str(path) and err.value.entry == "'Test Table'"
    assert err.value.field == field and message in err.value.message


def test_random_drift_moves_the_point_along_the_line_to_the_reference():
    """FC I6: the Target Point moves a Very Short or Short Distance along the line from itself
    through the reference unit's centre, and stops on that centre if it would pass it."""
    tb = tables.as_tb(tt.standard_record())
    g = tb.g_drift
    assert g[C(10, 8), C(2, 8), 0, 0] == C(9, 8)  # Very Short: one cell
    assert g[C(10, 8), C(2, 8), 1, 0] == C(8, 8)  # Short: two cells
    assert g[C(10, 10), C(2, 2), 0, 0] == C(9, 9)  # 0.71 cells each way
    assert g[C(10, 10), C(2, 2), 1, 0] == C(9, 9)  # 1.41 cells each way: still (9, 9)
    assert g[C(3, 8), C(2, 8), 1, 0] == C(2, 8)  # would pass the reference: stops on it
    assert g[C(12, 3), C(2, 8), 1, 0] == C(10, 4)  # (10.2, 3.9)
    assert (g[..., 1] == -1).all()  # a point never lands on a cell edge
