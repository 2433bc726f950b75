"""Tactics David battlefield geometry as numba leaves (TD-2, TD-3.5-3.7, TD-15, TD-26).

Pure functions of the tables record and a battlefield index `bf`: neighbours, steps a Movement
Type may take, the Range Area, Line of Sight and the cells of an Attack Area. Grid Spaces are
``cell = row * cols + col`` (state.py); facings FACE_N/E/S/W; an offset [forward, right] is
taken relative to a facing (attack_areas.yaml).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.record import AXIS_EAST_WEST

# row and column step of each facing (N, E, S, W)
DROW = np.array([-1, 0, 1, 0], dtype=np.int64)
DCOL = np.array([0, 1, 0, -1], dtype=np.int64)
# strength side (units.yaml order F, L, R, B) of an edge at relative direction
# (edge - facing) % 4 = 0 front, 1 right, 2 back, 3 left
REL_TO_SIDE = np.array([0, 2, 3, 1], dtype=np.int64)
MAX_AREA_OUT = 40  # cells of one attack area: 9 + a ray across the longest battlefield
LOS_SAMPLES_PER_SPACE = 16


@njit
def offset_cell(tb, bf: int, cell: int, facing: int, fwd: int, right: int) -> int:
    """The space [fwd, right] from `cell` for a unit facing `facing`, -1 off the battlefield."""
    cols = np.int64(tb.bf_cols[bf])
    r = cell // cols + fwd * DROW[facing] + right * DROW[(facing + 1) % 4]
    c = cell % cols + fwd * DCOL[facing] + right * DCOL[(facing + 1) % 4]
    if r < 0 or c < 0 or r >= tb.bf_rows[bf] or c >= cols:
        return -1
    return r * cols + c


@njit
def may_step(tb, bf: int, mtype: int, a: int, b: int, d: int) -> bool:
    """Whether a unit of Movement Type `mtype` may move from space a onto or over the
    neighbouring space b (direction d): the piece on b is no higher than it may pass over
    (TD-3.5-3.7), and a Bridge's sides (height 1) are crossed only by types that pass over
    height 1; the others enter and leave a Bridge along its axis (R18)."""
    if tb.bf_height[bf, b] > tb.m_pass_over[mtype]:
        return False
    if tb.m_pass_over[mtype] < 1 and (tb.bf_bridge[bf, a] or tb.bf_bridge[bf, b]):
        along_ew = d == 1 or d == 3
        return along_ew == (tb.bf_axis[bf] == AXIS_EAST_WEST)
    return True


@njit
def may_stop(tb, bf: int, mtype: int, cell: int) -> bool:
    """Whether a unit of Movement Type `mtype` may occupy `cell` (its piece no higher than
    the type may occupy: only the Bridge, height 0, among pieces; TD-2.3)."""
    return tb.bf_height[bf, cell] <= tb.m_occupy[mtype]


@njit
def rise_run(tb, bf: int, a: int, facing: int, t: int):
    """(Rise, Run) of space t from a unit on space a facing `facing` (TD-15.1)."""
    cols = np.int64(tb.bf_cols[bf])
    dr = t // cols - a // cols
    dc = t % cols - a % cols
    rise = dr * DROW[facing] + dc * DCOL[facing]
    run = abs(dr * DROW[(facing + 1) % 4] + dc * DCOL[(facing + 1) % 4])
    return rise, run


@njit
def range_distance(tb, bf: int, a: int, facing: int, t: int, rating: int) -> int:
    """Rise + Run of t when it lies in the Range Area of a unit on a facing `facing` with this
    Range Rating (Rise >= 1, Run <= Rise, Rise + Run <= rating; R7), else -1."""
    rise, run = rise_run(tb, bf, a, facing, t)
    if rise < 1 or run > rise or rise + run > rating:
        return -1
    return rise + run


@njit
def terrain(tb, bf: int, fl, cell: int) -> int:
    """The Terrain Type of space `cell` now (TD-2.5): Water where the game's flood mask `fl`
    (S["flood"][b]) marks it (Floodplains, TD-22.2.131, R124), else the battlefield's. Every
    reader of a space's Terrain Type goes through this (or floodplains.unit_terrain)."""
    if fl[cell] != 0:
        return np.int64(tb.water_terrain)
    return np.int64(tb.bf_terrain[bf, cell])


@njit
def blocks_los(tb, bf: int, fl, cell: int) -> bool:
    """A space that blocks Line of Sight: a Terrain Piece of height >= 2 or Forest (TD-15.7);
    `fl` is the game's flood mask (terrain)."""
    return (
        tb.bf_height[bf, cell] >= tb.los_block_height or tb.t_blocks_los[terrain(tb, bf, fl, cell)]
    )


@njit
def line_of_sight(tb, bf: int, fl, a: int, facing: int, t: int) -> bool:
    """Line of Sight from a unit on a (facing `facing`) to space t ahead of it (TD-15.7): the
    line from the middle of its front edge to the middle of t's nearest parallel edge passes no
    space that blocks (the two end spaces excluded, so a target in Forest can be seen: TD-2.12).
    The line is sampled LOS_SAMPLES_PER_SPACE times per space of length. `fl`: the game's flood
    mask (S["flood"][b]: a flooded Forest space is Water and blocks nothing, R124)."""
    cols = np.int64(tb.bf_cols[bf])
    x0 = a % cols + 0.5 + 0.5 * DCOL[facing]
    y0 = a // cols + 0.5 + 0.5 * DROW[facing]
    x1 = t % cols + 0.5 - 0.5 * DCOL[facing]
    y1 = t // cols + 0.5 - 0.5 * DROW[facing]
    n = np.int64((abs(x1 - x0) + abs(y1 - y0)) * LOS_SAMPLES_PER_SPACE) + 1
    for k in range(n):
        f = (k + 0.5) / n
        c = np.int64(np.floor(x0 + f * (x1 - x0)))
        r = np.int64(np.floor(y0 + f * (y1 - y0)))
        if r < 0 or c < 0 or r >= tb.bf_rows[bf] or c >= cols:
            continue
        cell = r * cols + c
        if cell != a and cell != t and blocks_los(tb, bf, fl, cell):
            return False
    return True


@njit
def on_forest_edge(tb, bf: int, fl, cell: int) -> bool:
    """A space from which a Ranged Attack may be made when its terrain allows attacks only from
    its edge (Forest): one of its orthogonal neighbours has another terrain (R15). `fl`: the
    game's flood mask (terrain)."""
    tt = terrain(tb, bf, fl, cell)
    if not tb.t_edge_only[tt]:
        return True
    for d in range(4):
        n = offset_cell(tb, bf, cell, d, 1, 0)
        if n >= 0 and terrain(tb, bf, fl, n) != tt:
            return True
    return False


@njit
def area_cells(tb, bf: int, fl, area: int, origin: int, facing: int, ranged: bool, out) -> int:
    """The spaces of Attack Area `area` into out[:n]; n.

    Melee use (ranged False, TD-15.3): offsets from the attacker's space `origin`. Ranged use
    (TD-15.4): offsets from the target space `origin`; a melee code used at range (R13) also
    holds the target space itself. Forward is `facing` either way. A `continues` area goes on
    from its last cell to the battlefield edge, stopping after the first space that blocks Line
    of Sight (I9; `fl`: the game's flood mask, terrain). Spaces off the battlefield are left
    out."""
    n = 0
    last = origin
    if ranged and not tb.area_ranged[area]:
        out[n] = origin
        n += 1
    for k in range(tb.area_n_cells[area]):
        c = offset_cell(
            tb, bf, origin, facing, np.int64(tb.area_cells[area, k, 0]), tb.area_cells[area, k, 1]
        )
        if c >= 0:
            dup = False
            for j in range(n):
                dup = dup or out[j] == c
            if not dup:
                out[n] = c
                n += 1
            last = c
    fwd = np.int64(tb.area_continues[area, 0])
    right = np.int64(tb.area_continues[area, 1])
    if fwd != 0 or right != 0:
        c = last
        while n < MAX_AREA_OUT:
            if c != origin and blocks_los(tb, bf, fl, c):
                break
            c = offset_cell(tb, bf, c, facing, fwd, right)
            if c < 0:
                break
            out[n] = c
            n += 1
    return n
