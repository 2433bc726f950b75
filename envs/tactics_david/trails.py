"""Trails and their markers, and Study's look at the Item Deck (branch tdabB; TD-22.2.70 Mucous Trail, 077 Stainy, 078 Icy, 079
Stinging and 081 Toxic Trail; R110-R112).

A unit whose ability has a `trail_marker` row (`tb.ab_trail_row`) leaves a marker on the Grid
Spaces it passes over in a Movement or Charging Procedure: the space it left and every space
it went through, not the one it stops on (R110). ``S["trail_unit"][b, c]`` is the unit whose
marker lies on space c (-1 none; one marker a space, the newest, R112); both players see them
(observe.py). The markers stay until that unit is next Engaged (`clear_trail`, called by
turn.apply_engage).

A unit that enters a marked space in a Movement or Charging Procedure (the space it starts on
does not count), unless it moves as Soar or Hover: a Mucous marker ends its Movement Phase on
that space (`trail_stops`: movement.reach and movement.charge_line go no further, and
movement.apply_move ends the phase); the other trails give it their Statuses at the end of
the procedure (`trail_moved`). A Movement Procedure is chosen by its end space only: its path
is one of the shortest in orthogonal steps by the movement rules that avoids every marked
space but the end space, if there is one within its Movement Rating, else a shortest one
(R111); a charge's path is its line.

Study (TD-22.2.48, R116): when its unit is Engaged (not Dead or Petrified), its Player sees
the top two Item Deck cards (`S["deck_seen"][p]`, shown in that player's observation only)
and decides on STAGE_EFFECT (`eff_next` RESUME_STUDY) to keep their order (A_END) or swap
them (A_TRADE); the Engagement then goes on (turn.apply_effect_choice).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import tables as T
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import A_TRADE, STAGE_EFFECT
from envs.tactics_david.grid import may_step, offset_cell
from envs.tactics_david.record import PERM_THROUGH_PIECES
from envs.tactics_david.state import (
    MAX_CELLS,
    N_STATUSES,
    PLACE_FIELD,
    RESUME_STUDY,
    STATUS_PERMANENT,
)
from envs.tactics_david.teams import team_mtype
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    apply_status,
    has_permission,
    side_of,
)

MT_HOVER = T.MOVEMENT_TYPES.index("Hover")
MT_SOAR = T.MOVEMENT_TYPES.index("Soar")
TRAIL_STOP = ut.EFFECT_MODES["trail_marker"].index("end_movement")  # Mucous Trail


@njit
def trail_row(S, tb, b: int, v: int) -> int:
    """The `trail_marker` row of unit v (its first member with an implemented trail), -1."""
    if v < 0:
        return -1
    for m in range(ability_count(S, b, v)):
        prof = ability_prof(S, b, v, m)
        if prof >= 0 and tb.ab_trail_row[prof] >= 0 and tb.ab_active[prof]:
            return np.int64(tb.ab_trail_row[prof])
    return -1


@njit
def trail_stops(S, tb, b: int, c: int, mtype: int) -> bool:
    """A unit moving as Movement Type mtype that enters space c must end its Movement Phase
    there: a Mucous Trail marker lies on it (TD-22.2.70; never for Soar or Hover)."""
    if S["trail_unit"][b, c] < 0 or mtype == MT_HOVER or mtype == MT_SOAR:
        return False
    row = trail_row(S, tb, b, np.int64(S["trail_unit"][b, c]))
    return row >= 0 and tb.r_mode[row] == TRAIL_STOP


@njit
def _path(S, tb, b: int, u: int, start: int, dest: int, mtype: int, limit: int, avoid, out):
    """A shortest path of unit u from start to dest in orthogonal steps, at most `limit`, by the
    movement rules (through allies, not enemies, over what mtype passes; no further than a
    Mucous marker), avoiding the marked spaces but dest when `avoid`: its spaces after start,
    dest last, into out; returns how many (-1: none)."""
    bf = np.int64(S["battlefield"][b])
    p = side_of(S, b, u)
    through = has_permission(S, tb, b, u, PERM_THROUGH_PIECES)  # Transpose
    dist = np.full(MAX_CELLS, -1, dtype=np.int64)
    pred = np.full(MAX_CELLS, -1, dtype=np.int64)
    queue = np.empty(MAX_CELLS, dtype=np.int64)
    dist[start] = 0
    queue[0] = start
    head = 0
    tail = 1
    while head < tail and dist[dest] < 0:
        c = queue[head]
        head += 1
        if dist[c] >= limit or (c != start and trail_stops(S, tb, b, c, mtype)):
            continue
        for d in range(4):
            nb = offset_cell(tb, bf, c, d, 1, 0)
            if nb < 0 or dist[nb] >= 0:
                continue
            v = S["cell_unit"][b, nb, 0]
            if v >= 0 and side_of(S, b, np.int64(v)) != p:
                continue
            if not through and not may_step(tb, bf, mtype, c, nb, d):
                continue
            if avoid and nb != dest and S["trail_unit"][b, nb] >= 0:
                if trail_row(S, tb, b, np.int64(S["trail_unit"][b, nb])) >= 0:
                    continue
            dist[nb] = dist[c] + 1
            pred[nb] = c
            queue[tail] = nb
            tail += 1
    if dist[dest] < 0:
        return -1
    n = 0
    c = dest
    while c != start:
        out[n] = c
        n += 1
        c = pred[c]
    return n


@njit
def trail_moved(S, tb, b: int, u: int, start: int, team: bool, charged: bool, limit: int) -> bool:
    """Unit u (with its Team partner when `team`: they moved together) went from space
    `start` to its space now, by a Movement Procedure within `limit` steps or by a charge:
    the markers it passed act on it (R111: Statuses at the end of the procedure) and its own
    trail marks the spaces it passed over (R110). Returns whether a Mucous marker ends its
    Movement Phase."""
    bf = np.int64(S["battlefield"][b])
    cells = np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]
    dest = np.int64(S["unit_cell"][b, u])
    partner = np.int64(S["unit_team"][b, u]) if team else np.int64(-1)
    marked = False
    for c in range(cells):
        if S["trail_unit"][b, c] >= 0:
            marked = True
            break
    if not marked and trail_row(S, tb, b, u) < 0 and trail_row(S, tb, b, partner) < 0:
        return False
    mtype = team_mtype(S, tb, b, u)  # the type it moves with (a Team's, TD-18.4)
    path = np.empty(MAX_CELLS, dtype=np.int64)
    n = np.int64(-1)
    for attempt in range(2):  # one call site of _path (compile time)
        avoid = not charged and attempt == 0  # first avoiding the markers (R111)
        n = _path(S, tb, b, u, start, dest, mtype, cells if charged else limit, avoid, path)
        if n >= 0 or not avoid:
            break
    stop = False
    gained = np.int64(0)
    if mtype != MT_HOVER and mtype != MT_SOAR:
        for i in range(n):
            row = trail_row(S, tb, b, np.int64(S["trail_unit"][b, path[i]]))
            if row < 0:
                continue
            if tb.r_mode[row] == TRAIL_STOP:
                stop = True
            else:
                gained |= np.int64(tb.r_statuses[row])
    for s in range(N_STATUSES):  # at the end of its Movement or Charge Procedure
        if (gained >> s) & 1:
            apply_status(S, tb, b, u, np.int64(s), np.int64(STATUS_PERMANENT))
            if partner >= 0:
                apply_status(S, tb, b, partner, np.int64(s), np.int64(STATUS_PERMANENT))
    for k in range(2):  # its own trail: the space it left and those it went through (R110)
        v = u if k == 0 else partner
        if v < 0 or S["unit_place"][b, v] != PLACE_FIELD or trail_row(S, tb, b, v) < 0:
            continue
        S["trail_unit"][b, start] = v
        for i in range(1, n):
            S["trail_unit"][b, path[i]] = v
    return stop


@njit
def clear_trail(S, tb, b: int, u: int) -> None:
    """Unit u is Engaged: its trail markers are removed (TD-22.2.70 "until the next time this
    Unit is Engaged")."""
    for c in range(MAX_CELLS):
        if S["trail_unit"][b, c] == u:
            S["trail_unit"][b, c] = -1


@njit
def ask_study(S, tb, b: int, u: int) -> bool:
    """The Engaged unit u has Study and is neither Dead nor Petrified (its row's condition):
    its Player sees the top two Item Deck cards and, with two there, is asked whether to swap
    them (STAGE_EFFECT, RESUME_STUDY). Returns whether it is asked."""
    if S["unit_status"][b, u, tb.status_dead] != 0 or S["deck_count"][b] == 0:
        return False
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or tb.ab_study_row[prof] < 0 or not tb.ab_active[prof]:
            continue
        row = np.int64(tb.ab_study_row[prof])
        for s in range(N_STATUSES):  # self_not_status: Petrified
            if S["unit_status"][b, u, s] != 0 and (
                (np.int64(tb.r_cond_bits[row, 0, s // 64]) >> np.int64(s % 64)) & 1
            ):
                return False
        p = side_of(S, b, u)  # the player deciding (tdabI, R137)
        n = np.int64(S["deck_count"][b])
        for j in range(2):
            S["deck_seen"][b, p, j] = S["deck"][b, n - 1 - j] if j < n else -1
        if n < 2:
            return False
        S["eff_unit"][b] = u
        S["eff_status"][b] = -1
        S["eff_next"][b] = RESUME_STUDY
        S["stage"][b] = STAGE_EFFECT  # asked of the unit's owner, the current player
        return True
    return False


@njit
def answer_study(S, b: int, a: int) -> None:
    """Keep (A_END) or swap (A_TRADE) the top two Item Deck cards; the player knows both."""
    n = np.int64(S["deck_count"][b])
    p = side_of(S, b, np.int64(S["eff_unit"][b]))
    if a == A_TRADE:
        top = S["deck"][b, n - 1]
        S["deck"][b, n - 1] = S["deck"][b, n - 2]
        S["deck"][b, n - 2] = top
        S["deck_seen"][b, p, 0] = S["deck"][b, n - 1]
        S["deck_seen"][b, p, 1] = S["deck"][b, n - 2]
    S["eff_unit"][b] = -1
    S["eff_status"][b] = 0
    S["eff_next"][b] = 0
