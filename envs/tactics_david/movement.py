"""The Movement Phase as numba kernels (TD-2.7-2.14, TD-3.5-3.9, TD-9, TD-16.3).

Encodings of this chapter (actions.py):

    stage              action        meaning
    STAGE_MOVE         A_CELL + c    Movement Procedure ending on space c (reachable within the
                                     Movement Rating, TD-9.2; Slow halving, TD-2.14)
                       A_CHARGE      Charging Procedure in the facing direction (TD-9.3-9.5)
                       A_FACE + d    Facing Procedure: face d (TD-9.6; once per Movement Phase,
                                     before or after the Movement Procedure, R26)
                       A_ESCAPE      Escape Procedure out of a Combat Lock (TD-9.8)
                       A_UNIT + k    the Whip: ally k makes an extra Movement Procedure
                                     (TD-25.9, R37), asked next in STAGE_WHIP
                       A_END         End Movement Phase (TD-9.9)
    STAGE_WHIP         A_CELL + c    the Whip's ally ends its extra Movement Procedure on c
                       A_END         ... or stays
    STAGE_CHARGE_DIST  A_CELL + c    a passed charge stops on space c of its line (TD-9.5)
                       A_END         ... or where it stands

A Movement or Charging Procedure, a Facing Procedure or an Escape is "entering the Movement
Phase" (R27): a Ranged Unit that did any of them may attack only by Ranged Melee (TD-14.2).
A unit Locked in Combat may only try to Escape (TD-9.8); after a won Escape it may go on
moving but not enter the Combat Phase.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d
from envs.tactics_david.actions import (
    A_CELL,
    A_CHARGE,
    A_END,
    A_ESCAPE,
    A_FACE,
    A_UNFORM,
    A_UNIT,
    GO_DISENGAGE,
    GO_END_MOVEMENT,
    GO_ITEM_PHASE_2,
    GO_NONE,
    STAGE_CHARGE_DIST,
    STAGE_COMBAT,
    STAGE_MOVE,
    STAGE_ORIENT,
    STAGE_WHIP,
)
from envs.tactics_david.combat import begin_procedure, contest
from envs.tactics_david.effects import K_MOVE, ability_on, active_sum, expire, run_hook
from envs.tactics_david.floodplains import unit_terrain
from envs.tactics_david.grid import may_step, may_stop, offset_cell, terrain
from envs.tactics_david.items import item_sum
from envs.tactics_david.possess import ask_shed
from envs.tactics_david.record import (
    CHARGE_NEVER,
    CHARGE_WITHIN_ONLY,
    H_BEFORE_ESCAPE,
    PERM_CHARGE,
    PERM_CHARGE_ANY_PATH,
    PERM_CHARGE_WATER,
    PERM_FLOOD,
    PERM_IGNORE_FOREST,
    PERM_THROUGH_PIECES,
    SP_HULKING,
    TEAM_ANY_PATH,
    TEAM_RIDE,
)
from envs.tactics_david.state import (
    FORCE_FLEE,
    FORCE_NONE,
    LOCK_MARKER,
    MAX_CELLS,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_UNIT_IDS,
    PLACE_FIELD,
    PROC_CHARGE,
    PROC_ESCAPED,
    PROC_MOVE,
    PROC_NONE,
    UNTIL_PROCEDURE,
)
from envs.tactics_david.teams import (
    may_join,
    move_team,
    moves_as_team,
    partner_left_dead,
    team_bits,
    team_mtype,
)
from envs.tactics_david.trails import trail_moved, trail_stops
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    dead_only_by_attack,
    has_flag,
    has_permission,
    has_special,
    in_play,
    kill,
    may_act,
    move_to,
    side_of,
    unlock,
)
from envs.tactics_david.work_belt import held_slot

MAX_CHARGE_LINE = 32  # spaces on a charge line (longest battlefield side is 22)
MOVED_TEAM = 1  # _go: the unit formed a Unit Team (TD-18.2)
MOVED_STOP = 2  # _go: a Mucous Trail marker ends its Movement Phase (tdabB, TD-22.2.70)


@njit
def movement_rating(S, tb, b: int, u: int) -> int:
    """The Movement Rating of unit u for this Movement Phase: the top member's base rating plus
    this Turn's Haste roll (TD-20.16), its Items (Boots +1, TD-25.6) and its abilities'
    lasting movement changes (effects.active_sum), halved by Frozen (TD-20.7, R19, additions first: R32),
    then the terrain modifier of its space (Road +1, Forest -1; R14), -1 for an Aqua unit off
    Water (TD-3.8); never below 0."""
    top = S["unit_member"][b, u, 0]
    mtype = np.int64(tb.u_mtype[top])
    tt = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
    base = np.int64(tb.u_move[top]) + S["unit_move_bonus"][b, u] + item_sum(S, b, u, tb.it_move)
    base += active_sum(S, tb, b, u, K_MOVE, -1)  # abilities' lasting changes (TD-22.2)
    if has_flag(S, b, u, tb.st_move_halve):
        base = base // 2
    m = base + tb.t_move_mod[tt]
    if tt == tb.forest_terrain and has_permission(S, tb, b, u, PERM_IGNORE_FOREST):
        m -= tb.t_move_mod[tt]  # Forager: Forest does not change it (TD-22.2.109, R115)
    if tt != tb.water_terrain:
        m += tb.m_off_water[mtype]
    return max(m, 0)


@njit
def move_rating(S, tb, b: int, u: int) -> int:
    """The Movement Rating unit u moves with: its own, or for a Unit Team moving together the
    lower of the two members' (TD-18.4), a member whose partner has Ride (or Ride the
    Lightning) having its partner's rating (TD-22.2.167)."""
    m = movement_rating(S, tb, b, u)
    if moves_as_team(S, tb, b, u):
        v = np.int64(S["unit_team"][b, u])
        mv = movement_rating(S, tb, b, v)
        mu = m
        if team_bits(S, tb, b, v) & TEAM_RIDE:
            mu = mv
        if team_bits(S, tb, b, u) & TEAM_RIDE:
            mv = m
        m = min(mu, mv)
    return m


@njit
def _enemy_on(S, b: int, cell: int, p: int) -> bool:
    v = S["cell_unit"][b, cell, 0]
    return v >= 0 and side_of(S, b, np.int64(v)) != p


@njit
def reach(S, tb, b: int, u: int, dest) -> None:
    """dest[c] = 1 for every space unit u may end a Movement Procedure on (TD-9.2): orthogonal
    steps up to its Movement Rating through allied but not enemy units (Dead ones included),
    over pieces its Movement Type passes (TD-3.5-3.7), onto an empty space it may occupy. Once
    it enters or starts on Slow terrain the rest of its rating is halved, rounding down, once
    (TD-2.14, R19). Search over (space, halved yet) keeping the most movement left. A Unit
    Team moves together (teams.py: the lower rating, Land unless both share a type; TD-18.4);
    the Engaged unit may also end on an own unit's space to form a Team (TD-18.2)."""
    bf = np.int64(S["battlefield"][b])
    p = side_of(S, b, u)
    cells = np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]
    mtype = team_mtype(S, tb, b, u)
    start = np.int64(S["unit_cell"][b, u])
    best = np.full((2, MAX_CELLS), -1, dtype=np.int64)
    m = move_rating(S, tb, b, u)
    through = has_permission(S, tb, b, u, PERM_THROUGH_PIECES)  # Transpose
    forest = np.int64(-1)  # Forager: Forest is no Slow terrain for it (R115)
    if has_permission(S, tb, b, u, PERM_IGNORE_FOREST):
        forest = np.int64(tb.forest_terrain)
    fl = S["flood"][b]  # tdabH: the flooded spaces are Water (R124)
    wet = has_permission(S, tb, b, u, PERM_FLOOD)  # Floodplains: every space it is on (R136)
    t0 = unit_terrain(S, tb, b, u)
    if tb.t_slow[t0, mtype] and t0 != forest:
        best[1, start] = m // 2
    else:
        best[0, start] = m
    for c in range(cells):
        dest[c] = 0
    for level in range(m, 0, -1):
        for h in range(2):
            for c in range(cells):
                if best[h, c] != level:
                    continue
                if c != start and trail_stops(S, tb, b, c, mtype):
                    continue  # a Mucous Trail marker ends its Movement Phase here (TD-22.2.70)
                for d in range(4):
                    nb = offset_cell(tb, bf, c, d, 1, 0)
                    if nb < 0 or _enemy_on(S, b, nb, p):
                        continue
                    if not through and not may_step(tb, bf, mtype, c, nb, d):
                        continue
                    left = level - 1
                    h2 = h
                    tn = np.int64(tb.water_terrain) if wet else terrain(tb, bf, fl, nb)
                    if h == 0 and tb.t_slow[tn, mtype] and tn != forest:
                        left = left // 2
                        h2 = 1
                    if left > best[h2, nb]:
                        best[h2, nb] = left
    for c in range(cells):
        if (
            c != start
            and (best[0, c] >= 0 or best[1, c] >= 0)
            and (S["cell_unit"][b, c, 0] < 0 or may_join(S, tb, b, u, c))
            and may_stop(tb, bf, mtype, c)
        ):
            dest[c] = 1


@njit
def charge_line(S, tb, b: int, u: int, out) -> int:
    """The spaces a charge of unit u can pass, in order, into out[:n] (TD-9.3-9.5, TD-2.8,
    TD-2.13, R15): straight ahead in its facing, stopping before the edge, a piece it may not
    pass, an enemy unit, a Forest space (no charge into Forest), or a change into or out of a
    Water space (charges stay within Water). Allied units are passed, not stopped on."""
    bf = np.int64(S["battlefield"][b])
    p = side_of(S, b, u)
    mtype = team_mtype(S, tb, b, u)  # a Unit Team's (TD-18.4)
    facing = np.int64(S["unit_facing"][b, u])
    c = np.int64(S["unit_cell"][b, u])
    t0 = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
    wet = has_permission(S, tb, b, u, PERM_FLOOD)  # its every space counts as Water (R136)
    through = has_permission(S, tb, b, u, PERM_THROUGH_PIECES)  # Transpose
    water = has_permission(S, tb, b, u, PERM_CHARGE_WATER)  # Slither
    forest = has_permission(S, tb, b, u, PERM_IGNORE_FOREST)  # Forager (R115)
    n = 0
    while n < MAX_CHARGE_LINE:
        nb = offset_cell(tb, bf, c, facing, 1, 0)
        if nb < 0 or _enemy_on(S, b, nb, p):
            break
        if not through and not may_step(tb, bf, mtype, c, nb, facing):
            break
        tt = np.int64(tb.water_terrain) if wet else terrain(tb, bf, S["flood"][b], nb)
        if tb.t_charge[tt] == CHARGE_NEVER and not (forest and tt == tb.forest_terrain):
            break
        if (
            not water
            and (tb.t_charge[tt] == CHARGE_WITHIN_ONLY or tb.t_charge[t0] == CHARGE_WITHIN_ONLY)
            and (tt != t0)
        ):
            break
        out[n] = nb
        n += 1
        c = nb
        if trail_stops(S, tb, b, nb, mtype):
            break  # a Mucous Trail marker ends the charge here (TD-22.2.70)
    return n


@njit
def may_charge(S, tb, b: int, u: int) -> bool:
    """A Charging Procedure is possible: the Movement Type may charge (not Hover, TD-3.6) and
    the unit does not stand on terrain that forbids charging (Forest, TD-2.13), and no Status
    forbids it (Frozen, TD-20.7). A Unit Team charges with its Movement Type and only when
    both members face the same direction (TD-18.4)."""
    tt = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
    if moves_as_team(S, tb, b, u):
        if S["unit_facing"][b, S["unit_team"][b, u]] != S["unit_facing"][b, u]:
            return False
    forest = tt == tb.forest_terrain and has_permission(S, tb, b, u, PERM_IGNORE_FOREST)
    return (
        (tb.m_may_charge[team_mtype(S, tb, b, u)] or has_permission(S, tb, b, u, PERM_CHARGE))
        and (tb.t_charge[tt] != CHARGE_NEVER or forest)  # Forager (R115)
        and not has_flag(S, b, u, tb.st_no_charge)
    )


@njit
def nearest_distance(S, tb, b: int, u: int, c: int, allies: bool) -> int:
    """Orthogonal steps (I11) from space c to the nearest other unit in play of u's side
    (allies) or of the other side; a large number when there is none."""
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    p = side_of(S, b, u)
    best = np.int64(1 << 20)
    for v in range(N_UNIT_IDS):
        if v == u or (side_of(S, b, v) == p) != allies or not in_play(S, tb, b, v):
            continue
        w = np.int64(S["unit_cell"][b, v])
        d = abs(w // cols - c // cols) + abs(w % cols - c % cols)
        best = min(best, d)
    return best


@njit
def _charge_toward(S, tb, b: int, u: int, d: int, allies: bool, here: int) -> bool:
    """Whether a charge of u facing d would head toward its nearest ally/enemy: charging is
    possible and the line's first space is nearer to it than u's space (R33)."""
    if not may_charge(S, tb, b, u):
        return False
    old = S["unit_facing"][b, u]
    S["unit_facing"][b, u] = d
    line = np.empty(MAX_CHARGE_LINE, dtype=np.int64)
    n = charge_line(S, tb, b, u, line)
    S["unit_facing"][b, u] = old
    return n > 0 and nearest_distance(S, tb, b, u, line[0], allies) < here


@njit
def _legal_forced(S, tb, b: int, u: int, out) -> int:
    """Legal actions of a Movement Phase a Status forces (R33), before its Movement or Charge
    Procedure. Fearful (FORCE_FLEE, TD-20.8): a charge toward the nearest ally, turning first
    if needed; if no such charge exists, a Movement Procedure ending nearer to it. Enraged
    (FORCE_ADVANCE, TD-20.18): a charge or a Movement Procedure toward the closest enemy (or
    turning to charge it). Nothing possible: only A_END. Returns -1 when nothing forces (no
    such unit on the battlefield)."""
    allies = S["eng_force"][b] == FORCE_FLEE
    bf = np.int64(S["battlefield"][b])
    here = nearest_distance(S, tb, b, u, np.int64(S["unit_cell"][b, u]), allies)
    if here >= (1 << 20):
        return -1
    n = 0
    facing = np.int64(S["unit_facing"][b, u])
    if _charge_toward(S, tb, b, u, facing, allies, here):
        out[n] = A_CHARGE
        n += 1
    if not S["eng_faced"][b]:
        for d in range(4):
            if d != facing and _charge_toward(S, tb, b, u, d, allies, here):
                out[n] = A_FACE + d
                n += 1
    if n == 0 or not allies:
        dest = np.empty(MAX_CELLS, dtype=np.uint8)
        reach(S, tb, b, u, dest)
        for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
            if dest[c] and nearest_distance(S, tb, b, u, c, allies) < here:
                out[n] = A_CELL + c
                n += 1
    if n == 0:
        out[0] = A_END
        n = 1
    return n


@njit
def _stop_along(S, tb, b: int, u: int, line, n: int, k: int) -> int:
    """The farthest space among the first k of the line where u may stop, -1 none."""
    bf = np.int64(S["battlefield"][b])
    mtype = team_mtype(S, tb, b, u)
    for i in range(min(k, n) - 1, -1, -1):
        c = line[i]
        if S["cell_unit"][b, c, 0] < 0 and may_stop(tb, bf, mtype, c):
            return c
    return -1


@njit
def _charge_any_path(S, tb, b: int, u: int, out) -> int:
    """STAGE_CHARGE_DIST for a Unit Team with Ride the Lightning (TD-22.2.168, R94): the
    passed charge's distance along any orthogonal path, not only the straight line: through
    allies, not enemies, over what its Movement Type passes, never into a space where charging
    is forbidden (Forest, TD-2.13), stopping on a free space it may occupy; or where it
    stands (A_END)."""
    bf = np.int64(S["battlefield"][b])
    cells = np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]
    mtype = team_mtype(S, tb, b, u)
    p = side_of(S, b, u)
    start = np.int64(S["unit_cell"][b, u])
    left = np.full(MAX_CELLS, -1, dtype=np.int64)
    left[start] = np.int64(S["charge_max"][b])
    wet = has_permission(S, tb, b, u, PERM_FLOOD)  # tdabH: Floodplains (R136)
    forest = np.int64(-1)  # Forager (R115)
    if has_permission(S, tb, b, u, PERM_IGNORE_FOREST):
        forest = np.int64(tb.forest_terrain)
    for level in range(np.int64(S["charge_max"][b]), 0, -1):
        for c in range(cells):
            if left[c] != level:
                continue
            if c != start and trail_stops(S, tb, b, c, mtype):
                continue  # a Mucous Trail marker ends the charge here (TD-22.2.70)
            for d in range(4):
                nb = offset_cell(tb, bf, c, d, 1, 0)
                if nb < 0 or _enemy_on(S, b, nb, p) or left[nb] >= level - 1:
                    continue
                if not may_step(tb, bf, mtype, c, nb, d):
                    continue
                tn = np.int64(tb.water_terrain) if wet else terrain(tb, bf, S["flood"][b], nb)
                if tb.t_charge[tn] == CHARGE_NEVER and tn != forest:
                    continue
                left[nb] = level - 1
    n = 0
    for c in range(cells):
        if c != start and left[c] >= 0 and S["cell_unit"][b, c, 0] < 0:
            if may_stop(tb, bf, mtype, c):
                out[n] = A_CELL + c
                n += 1
    out[n] = A_END
    return n + 1


@njit
def legal_move(S, tb, b: int, out) -> int:
    """Legal actions of STAGE_MOVE and STAGE_CHARGE_DIST (module docstring)."""
    u = np.int64(S["engaged"][b])
    n = 0
    if S["stage"][b] == STAGE_CHARGE_DIST:
        if (
            moves_as_team(S, tb, b, u)
            and (
                (team_bits(S, tb, b, u) | team_bits(S, tb, b, np.int64(S["unit_team"][b, u])))
                & TEAM_ANY_PATH
            )
            or has_permission(S, tb, b, u, PERM_CHARGE_ANY_PATH)
        ):
            return _charge_any_path(S, tb, b, u, out)  # Ride the Lightning (R94), Manuever
        line = np.empty(MAX_CHARGE_LINE, dtype=np.int64)
        k = charge_line(S, tb, b, u, line)
        bf = np.int64(S["battlefield"][b])
        mtype = team_mtype(S, tb, b, u)
        for i in range(min(k, np.int64(S["charge_max"][b]))):
            c = line[i]
            if S["cell_unit"][b, c, 0] < 0 and may_stop(tb, bf, mtype, c):
                out[n] = A_CELL + c
                n += 1
        out[n] = A_END
        return n + 1
    if S["stage"][b] == STAGE_WHIP:
        dest = np.empty(MAX_CELLS, dtype=np.uint8)
        reach(S, tb, b, np.int64(S["whip_unit"][b]), dest)
        bf = np.int64(S["battlefield"][b])
        for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
            if dest[c]:
                out[n] = A_CELL + c
                n += 1
        out[n] = A_END
        return n + 1
    proc = S["eng_procedure"][b]
    if S["unit_lock"][b, u] >= 0:
        # Locked in Combat: only the Escape Procedure, not in the Turn the lock began (TD-9.8);
        # a fleeing Fearful unit must Escape first (TD-20.8)
        if S["unit_lock_turn"][b, u] < S["turn"][b]:
            out[n] = A_ESCAPE
            n += 1
            if S["eng_force"][b] == FORCE_FLEE:
                return n
        out[n] = A_END
        return n + 1
    leave = partner_left_dead(S, tb, b, u) and proc == PROC_NONE  # TD-18.7
    if (
        S["eng_force"][b] != FORCE_NONE
        and (proc == PROC_NONE or proc == PROC_ESCAPED)
        and not leave
    ):
        k = _legal_forced(S, tb, b, u, out)
        if k >= 0:
            return k
    if S["unit_no_move"][b, u]:
        proc = PROC_CHARGE  # its Team was formed or moved this Turn: no more movement (R81)
    if (
        proc == PROC_NONE
        and not S["eng_solo"][b]
        and moves_as_team(S, tb, b, u)
        and not S["unit_moved"][b, u]
        and not S["unit_moved"][b, S["unit_team"][b, u]]
    ):
        out[n] = A_UNFORM  # neither member has entered its Movement Phase (TD-18.3)
        n += 1
    if proc == PROC_NONE or proc == PROC_ESCAPED:
        dest = np.empty(MAX_CELLS, dtype=np.uint8)
        reach(S, tb, b, u, dest)
        bf = np.int64(S["battlefield"][b])
        for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
            if dest[c]:
                out[n] = A_CELL + c
                n += 1
        if may_charge(S, tb, b, u):
            out[n] = A_CHARGE
            n += 1
    if not S["eng_faced"][b]:
        for d in range(4):
            if d != S["unit_facing"][b, u]:
                out[n] = A_FACE + d
                n += 1
    if proc == PROC_CHARGE:  # after a charge only Maneuver's Facing is left (R78)
        out[n] = A_END
        return n + 1
    if not S["eng_whipped"][b]:
        n = _whip_allies(S, tb, b, u, out, n)
    if leave:
        # the survivor of a Dead partner must move away now if it can (TD-18.7, R82): its
        # Movement Phase ends only once it has, or when no Movement or charge is possible
        for i in range(n):
            if out[i] < A_UNIT or out[i] == A_CHARGE:
                return n
    out[n] = A_END
    return n + 1


@njit
def _whip_allies(S, tb, b: int, u: int, out, n: int) -> int:
    """Append A_UNIT + k for each ally the engaged unit's Whip may give an extra Movement
    Procedure (TD-25.9, R37: an ally in play of the Whip's root, within its radius in steps,
    not Locked in Combat; once per Movement Phase of the holder)."""
    p = u // MAX_UNITS
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    c = np.int64(S["unit_cell"][b, u])
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i < 0 or tb.it_whip_root[i] < 0 or held_slot(S, b, u, np.int64(i)) != slot:
            continue  # tdabG: two alike (Work Belt) offer each ally once
        for k in range(S["army_size"][b, p]):
            v = p * MAX_UNITS + k
            if v == u or not in_play(S, tb, b, v) or S["unit_lock"][b, v] >= 0:
                continue
            if side_of(S, b, v) != side_of(S, b, u):  # tdabI: its allies this Turn
                continue
            if tb.u_family[S["unit_member"][b, v, 0]] != tb.it_whip_root[i]:
                continue
            w = np.int64(S["unit_cell"][b, v])
            if abs(w // cols - c // cols) + abs(w % cols - c % cols) <= tb.it_whip_radius[i]:
                out[n] = A_UNIT + k
                n += 1
    return n


@njit
def end_movement(S, tb, b: int) -> int:
    """End Movement Phase (TD-9.9): a Soar unit ending it on Water dies on a D6 of 1-2
    (TD-2.9); the unit goes on to its Combat Phase, or to Item Phase 2 (GO_ITEM_PHASE_2) if it
    may not."""
    u = np.int64(S["engaged"][b])
    tt = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
    if S["unit_moved"][b, u] and tb.t_soar_dead[tt] != 0:
        if tb.u_mtype[S["unit_member"][b, u, 0]] == 2:  # Soar (tables.MOVEMENT_TYPES)
            r = roll_d(S["rng"], b, 6)
            if (np.int64(tb.t_soar_dead[tt]) >> r) & 1 and not dead_only_by_attack(S, tb, b, u):
                kill(S, tb, b, u, -1)
    if not may_act(S, tb, b, u) or S["unit_no_combat"][b, u]:
        return GO_ITEM_PHASE_2
    S["stage"][b] = STAGE_COMBAT
    return GO_NONE


@njit
def _after_charge(S, tb, b: int, u: int) -> int:
    """A charge is over (passed or stumbled): the Movement Phase ends (TD-9.4, TD-9.5), unless
    an ability lets the unit make another Facing Procedure first (Maneuver: STAGE_MOVE offers
    the facings and A_END, R78)."""
    if S["unit_place"][b, u] == PLACE_FIELD:
        for m in range(ability_count(S, b, u)):
            prof = ability_prof(S, b, u, m)
            if prof >= 0 and tb.ab_charge_face[prof] and ability_on(S, tb, b, u, prof):
                S["eng_faced"][b] = 0
                S["stage"][b] = STAGE_MOVE
                return GO_NONE
    return GO_END_MOVEMENT


@njit
def apply_move(S, tb, b: int, a: int) -> int:
    """Apply a STAGE_MOVE or STAGE_CHARGE_DIST action (module docstring); returns the next
    step (GO_*)."""
    u = np.int64(S["engaged"][b])
    if S["stage"][b] == STAGE_WHIP:
        w = np.int64(S["whip_unit"][b])
        if a != A_END:
            old = np.int64(S["unit_cell"][b, w])
            team = moves_as_team(S, tb, b, w)
            lim = move_rating(S, tb, b, w)
            if team:
                move_team(S, b, w, a - A_CELL)  # a Team moves together (TD-18.4)
            else:
                move_to(S, b, w, a - A_CELL)
            trail_moved(S, tb, b, w, old, team, False, lim)  # trails (TD-22.2.70, R111)
        S["whip_unit"][b] = -1
        S["stage"][b] = STAGE_MOVE
        return GO_NONE
    if a >= A_UNIT and a < A_UNIT + MAX_UNITS:  # the Whip's ally moves (TD-25.9)
        S["eng_whipped"][b] = 1
        S["whip_unit"][b] = (u // MAX_UNITS) * MAX_UNITS + (a - A_UNIT)
        S["stage"][b] = STAGE_WHIP
        return GO_NONE
    if S["stage"][b] == STAGE_CHARGE_DIST:
        if a != A_END and _go(S, tb, b, u, a - A_CELL) == MOVED_STOP:
            return GO_END_MOVEMENT  # a Mucous Trail marker (TD-22.2.70)
        return _after_charge(S, tb, b, u)
    if a == A_END:
        return GO_END_MOVEMENT
    if a == A_UNFORM:  # its next Movement Procedure moves it alone (TD-18.3)
        S["eng_solo"][b] = 1
        return GO_NONE
    S["unit_moved"][b, u] = 1
    if a == A_ESCAPE:
        v = np.int64(S["unit_lock"][b, u])
        if v == LOCK_MARKER:  # tdabF: Locked with a Shed Marker: it wins at once (R135)
            unlock(S, b, u)
            S["unit_no_combat"][b, u] = 1
            S["eng_procedure"][b] = PROC_ESCAPED
            return GO_NONE
        begin_procedure(S, tb, b, u, v, 0)
        run_hook(S, tb, b, H_BEFORE_ESCAPE, u, v)  # only Escape abilities (TD-9.8)
        att, dfn, _ = contest(S, tb, b, u, v, 0, False, True)
        expire(S, b, UNTIL_PROCEDURE, -1)  # On The Run's win was for this Escape only
        S["fx_cause"][b] = v
        if att >= dfn:  # wins or ties (R16): free, no Combat Phase this Turn
            unlock(S, b, u)
            S["unit_no_combat"][b, u] = 1
            S["eng_procedure"][b] = PROC_ESCAPED
            ask_shed(S, tb, b, u, v)  # tdabF: Shed: leave a Marker? (R135)
        else:
            kill(S, tb, b, u, side_of(S, b, v))
            return GO_DISENGAGE
        return GO_NONE
    if a >= A_FACE and a < A_FACE + 4:
        S["unit_facing"][b, u] = a - A_FACE
        S["eng_faced"][b] = 1
        return GO_NONE
    if a == A_CHARGE:
        S["eng_procedure"][b] = PROC_CHARGE
        line = np.empty(MAX_CHARGE_LINE, dtype=np.int64)
        n = charge_line(S, tb, b, u, line)
        test = 0
        for _ in range(tb.charge_test_dice):
            test += roll_d(S["rng"], b, 6)
        m = move_rating(S, tb, b, u)  # a Unit Team's (TD-18.4)
        t0 = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
        if tb.t_slow[t0, team_mtype(S, tb, b, u)] and not (
            t0 == tb.forest_terrain and has_permission(S, tb, b, u, PERM_IGNORE_FOREST)
        ):
            m = m // 2  # Slow halves the rating a charge adds its roll to (R26; Forager R115)
        cap = np.int64(MAX_CHARGE_LINE)
        if has_special(S, tb, b, u, SP_HULKING):  # never past its base Movement Rating (TD-23.3)
            cap = np.int64(tb.u_move[S["unit_member"][b, u, 0]])
        if test >= tb.charge_test_pass:
            roll = 0
            for _ in range(tb.charge_roll_dice):
                roll += roll_d(S["rng"], b, 6)
            S["charge_max"][b] = min(m + roll, cap)
            S["stage"][b] = STAGE_CHARGE_DIST
            return GO_NONE
        # stumbled: it charges 1 D6 spaces (as far along them as it may stop) and stops
        roll = 0
        for _ in range(tb.stumble_dice):
            roll += roll_d(S["rng"], b, 6)
        c = _stop_along(S, tb, b, u, line, n, min(roll, cap))
        if c >= 0 and _go(S, tb, b, u, c) == MOVED_STOP:
            return GO_END_MOVEMENT  # a Mucous Trail marker (TD-22.2.70)
        return _after_charge(S, tb, b, u)
    S["eng_procedure"][b] = PROC_MOVE
    moved = _go(S, tb, b, u, a - A_CELL)  # Movement Procedure
    if moved == MOVED_TEAM:
        # a Unit Team was formed (TD-18.2): the Orientation Procedure, then a Facing
        # Procedure may follow; both members' Movement Phases are over (R81)
        S["unit_no_move"][b, u] = 1
        S["unit_no_move"][b, S["unit_team"][b, u]] = 1
        S["stage"][b] = STAGE_ORIENT
    elif moved == MOVED_STOP:
        return GO_END_MOVEMENT  # a Mucous Trail marker ends its Movement Phase (TD-22.2.70)
    return GO_NONE


@njit
def _go(S, tb, b: int, u: int, c: int) -> int:
    """Move the Engaged unit u to space c: with its Team partner when they move together
    (TD-18.4), else alone (leaving its Team, TD-18.3/18.7); then the trails act
    (trails.trail_moved). Returns MOVED_TEAM if it formed a Unit Team there (TD-18.2),
    MOVED_STOP if a Mucous Trail marker ends its Movement Phase (TD-22.2.70), else 0."""
    cols = np.int64(tb.bf_cols[S["battlefield"][b]])  # the orthogonal steps count (Dungball, R92)
    old = np.int64(S["unit_cell"][b, u])
    steps = abs(old // cols - c // cols) + abs(old % cols - c % cols)
    S["eng_moved"][b] = min(np.int64(S["eng_moved"][b]) + steps, 127)
    charged = S["eng_procedure"][b] == PROC_CHARGE
    lim = np.int64(0) if charged else np.int64(move_rating(S, tb, b, u))
    if moves_as_team(S, tb, b, u):
        move_team(S, b, u, c)
        return MOVED_STOP if trail_moved(S, tb, b, u, old, True, charged, lim) else 0
    move_to(S, b, u, c)
    S["eng_solo"][b] = 0
    stop = trail_moved(S, tb, b, u, old, False, charged, lim)
    if S["unit_team"][b, u] >= 0:
        return MOVED_TEAM
    return MOVED_STOP if stop else 0
