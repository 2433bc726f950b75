"""The ground as the core sees it: one small set of kernels over the tables' ``g_*`` arrays.

Both rulesets reduce their geometry to the same arrays (tables.py): positions with centres
and outlines, sides with neighbours and movement costs, a distance matrix, terrain per
position and per side, LOS Arcs and Fall Back routes. These kernels are all the core knows of
the ground, so one compiled core serves a zone map and a tabletop alike:

    distance(tb, a, b)                      distance in the ground's units
    in_band(tb, a, b, code)                 within a Table 2 distance
    line_of_sight(tb, occ, a, b)            LOS_* bits from a's centre to position b
    in_arc(tb, p, facing, other)            other is in the LOS Arc of a unit at p
    entry_cost(tb, p, k)                    movement to cross side k of p (-1 not allowed)

LOS follows envs/legendary_battles/geometry.line_of_sight (LB PART III "Line of sight", FC PART
V "Line of Sight"; readings LB R9, R11-R13) with the units' positions given as ``occ``; a test
checks the two agree.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactical_assault.state import MAX_DIRS, MAX_POS

LOS_EXISTS = 1
LOS_OBSTRUCTED = 2  # Obstructing terrain crossed, or only a non-centre point seen (LB R11)
LOS_IN_COVER = 4

_EPS = 1e-9
_TOL = 1e-9


@njit
def distance(tb, a, b):
    return np.int64(tb.g_dist[a, b])


@njit
def in_band(tb, a, b, code):
    """Position b is within Table 2 distance `code` of a (centre to centre, FC "Measuring")."""
    return tb.g_dist[a, b] <= tb.g_dist_units[code]


@njit
def in_arc(tb, p, facing, other):
    return tb.g_arc[p, facing, other] != 0


@njit
def entry_cost(tb, p, k):
    return np.int64(tb.g_entry_cost[p, k])


@njit
def _segment_meets_side(tb, z, k, p0x, p0y, dx, dy):
    """The segment p0 + t d (t in [0, 1]) meets side k of z, its end corners included."""
    nd = tb.g_n_dirs
    ax = tb.g_vertex[z, k, 0]
    ay = tb.g_vertex[z, k, 1]
    k2 = (k + 1) % nd
    ex = tb.g_vertex[z, k2, 0] - ax
    ey = tb.g_vertex[z, k2, 1] - ay
    wx = ax - p0x
    wy = ay - p0y
    denom = dx * ey - dy * ex
    cw_e = wx * ey - wy * ex
    cw_d = wx * dy - wy * dx
    if abs(denom) > 1e-12:
        t = cw_e / denom
        u = cw_d / denom
        return t >= -_TOL and t <= 1 + _TOL and u >= -_TOL and u <= 1 + _TOL
    if abs(cw_d) > 1e-9:
        return False
    dd = dx * dx + dy * dy
    s0 = (wx * dx + wy * dy) / dd
    s1 = ((wx + ex) * dx + (wy + ey) * dy) / dd
    lo = min(s0, s1)
    hi = max(s0, s1)
    return hi >= -_TOL and lo <= 1 + _TOL


@njit
def _los_point(tb, occ, a, b, px, py, cells):
    """LOS_* bits of the line from a's centre to point (px, py) of position b. cells (a bit
    per position, or size 0: not wanted, e.g. occ[:0], a view that allocates nothing) gets the positions the line meets, a and b aside;
    complete when the result is not 0 (los_tables)."""
    n = tb.g_n_pos
    nd = tb.g_n_dirs
    p0x = tb.g_centre[a, 0]
    p0y = tb.g_centre[a, 1]
    dx = px - p0x
    dy = py - p0y
    ga = np.int64(tb.g_ground[a])
    gb = np.int64(tb.g_ground[b])
    u = max(ga, gb)
    level_top = ga == gb
    tpl = np.int64(tb.g_template[a])
    any_cov = False
    cov_same = True
    obstructed = False
    # the line's box: a position whose (widened) box misses it cannot meet the line
    lox = min(p0x, px)
    hix = max(p0x, px)
    loy = min(p0y, py)
    hiy = max(p0y, py)
    len2 = dx * dx + dy * dy
    # positions by the tops of their boxes (derive_ground): those overlapping the line's rows
    # only; the result does not depend on the order positions are visited in
    # the first whose top is at least loy - g_max_height (a plain binary search: numba's
    # np.searchsorted compiles into every caller of this leaf, seconds of cold compile)
    key = loy - tb.g_max_height
    lo = 0
    hi = n
    while lo < hi:
        mid = (lo + hi) // 2
        if tb.g_ysorted[mid] < key:
            lo = mid + 1
        else:
            hi = mid
    for i in range(lo, n):
        z = np.int64(tb.g_yorder[i])
        bb = tb.g_bbox[z]
        if bb[1] > hiy:
            break
        if z == a or z == b or bb[0] > hix or bb[2] < lox or bb[3] < loy:
            continue
        # z's centre farther from the line than its radius: it cannot meet the line
        cross = dx * (tb.g_centre[z, 1] - p0y) - dy * (tb.g_centre[z, 0] - p0x)
        if cross * cross > tb.g_radius[z] * tb.g_radius[z] * len2:
            continue
        t_in = 0.0
        t_out = 1.0
        miss = False
        for k in range(nd):
            f0 = tb.g_normal[z, k, 0] * p0x + tb.g_normal[z, k, 1] * p0y - tb.g_offset[z, k]
            dn = tb.g_normal[z, k, 0] * dx + tb.g_normal[z, k, 1] * dy
            if abs(dn) < 1e-12:
                if f0 > _EPS:
                    miss = True
                    break
            else:
                ts = (_EPS - f0) / dn
                if dn > 0:
                    t_out = min(t_out, ts)
                else:
                    t_in = max(t_in, ts)
        if miss or t_in > t_out:
            continue
        if cells.shape[0] > 0:
            cells[z >> 3] |= np.uint8(1 << (z & 7))
        if occ[z] == 2:
            obstructed = True  # FC "LOS Is Drawn Through An Obstacle"
        elif occ[z]:
            return 0  # "LOS through units"
        if tb.g_top[z] < u:
            continue  # looked over (LB R12)
        gz = np.int64(tb.g_ground[z])
        if gz > 0 and not (level_top and gz == u):
            return 0  # raised ground as high as the higher unit
        if tb.g_covering[z]:
            any_cov = True
            if tb.g_template[z] != tpl:
                cov_same = False
        if tb.g_obstructing[z]:
            obstructed = True
    in_cover = False
    if any_cov:
        # "LOS is drawn within covering terrain template"
        same = (
            tpl >= 0
            and tpl == tb.g_template[b]
            and tb.g_covering[a] != 0
            and tb.g_dist[a, b] <= tb.g_dist_units[1]
            and cov_same
        )
        if not same:
            return 0
        in_cover = True
    if tb.g_covering[b]:
        in_cover = True
    if tb.g_obstructing[b]:
        obstructed = True
    for i in range(tb.g_n_lsides):  # the sides with linear terrain (derive_ground)
        z = np.int64(tb.g_lside[i]) // MAX_DIRS
        k = np.int64(tb.g_lside[i]) % MAX_DIRS
        if tb.g_side_top[z, k] < u:
            continue
        bb = tb.g_bbox[z]
        if bb[0] > hix or bb[2] < lox or bb[1] > hiy or bb[3] < loy:
            continue
        cov = tb.g_side_covering[z, k] != 0
        if _segment_meets_side(tb, z, k, p0x, p0y, dx, dy):
            if cov:
                return 0
            obstructed = True
    bits = LOS_EXISTS
    if obstructed:
        bits |= LOS_OBSTRUCTED
    if in_cover:
        bits |= LOS_IN_COVER
    return bits


@njit
def line_of_sight(tb, occ, a, b):
    """LOS_* bits from the centre of position a to position b ("Drawing LOS": centre to centre).

    occ[P]: positions holding a unit that blocks (units in a and b never do: "LOS into a shared
    zone: the other unit"). If b's centre cannot be seen but another point of b can (its
    corners and side midpoints, 5% inside), the target is Obscured = Obstructed (LB R11)."""
    if a == b:
        return LOS_EXISTS
    bits = _los_point(tb, occ, a, b, tb.g_centre[b, 0], tb.g_centre[b, 1], occ[:0])
    if bits:
        return bits
    nd = tb.g_n_dirs
    cx = tb.g_centre[b, 0]
    cy = tb.g_centre[b, 1]
    for j in range(2 * nd):
        k = j % nd
        if j < nd:
            px = tb.g_vertex[b, k, 0]
            py = tb.g_vertex[b, k, 1]
        else:
            k2 = (k + 1) % nd
            px = (tb.g_vertex[b, k, 0] + tb.g_vertex[b, k2, 0]) / 2.0
            py = (tb.g_vertex[b, k, 1] + tb.g_vertex[b, k2, 1]) / 2.0
        px = cx + 0.95 * (px - cx)
        py = cy + 0.95 * (py - cy)
        bits = _los_point(tb, occ, a, b, px, py, occ[:0])
        if bits:
            return bits | LOS_OBSTRUCTED
    return 0


@njit
def los_tables(tb, centre, any_point, cells):
    """The ground's LOS with no unit on it, for every pair of positions (tables.derive_los):
    centre[a, b] the LOS_* bits of the centre-to-centre line (0: terrain blocks it);
    any_point[a, b] line_of_sight(a, b) (0: terrain hides every point of b from a); cells[a, b]
    a bit per position the centre line meets (where centre[a, b] is not 0)."""
    n = np.int64(tb.g_n_pos)
    occ = np.zeros(MAX_POS, dtype=np.uint8)
    for a in range(n):
        for b in range(n):
            if a == b:
                centre[a, b] = LOS_EXISTS
                any_point[a, b] = LOS_EXISTS
                continue
            row = cells[a, b]
            bits = _los_point(tb, occ, a, b, tb.g_centre[b, 0], tb.g_centre[b, 1], row)
            centre[a, b] = bits
            if bits == 0:
                row[:] = 0
                any_point[a, b] = line_of_sight(tb, occ, a, b)
            else:
                any_point[a, b] = bits


@njit
def line_of_sight_fast(tb, occ, a, b):
    """line_of_sight(tb, occ, a, b), the same bits, from the ground's LOS tables where they
    decide it (tables.derive_los; g_los_ready): units only ever block or obstruct a line, so
    a line terrain blocks at every point stays blocked, and a centre line terrain leaves open
    that meets no unit is open with terrain's bits (an Obstacle met: Obstructed, as in
    _los_point). Otherwise (a unit on the centre line) the lines are traced."""
    if a == b:
        return LOS_EXISTS
    if tb.g_los_ready == 0:
        return line_of_sight(tb, occ, a, b)
    if tb.g_los_any[a, b] == 0:
        return 0
    bits = np.int64(tb.g_los_centre[a, b])
    if bits == 0:
        return line_of_sight(tb, occ, a, b)
    for i in range(MAX_POS >> 3):
        m = np.int64(tb.g_los_cells[a, b, i])
        if m == 0:
            continue
        for j in range(8):
            if (m >> j) & 1:
                o = occ[(i << 3) + j]
                if o == 2:
                    bits |= LOS_OBSTRUCTED  # FC "LOS Is Drawn Through An Obstacle"
                elif o != 0:
                    return line_of_sight(tb, occ, a, b)  # a unit on the centre line
    return bits
