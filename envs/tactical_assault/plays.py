"""Who may have which card played on it: the Golden Rules "Only If Usable", "One Action Per
Turn", the statuses of Table 6 (R6), conditions and triggers of the card-effect table (FC I1-I4),
and the options of each decision that follow from them (targets, move steps).

Windows (R12, I3): a general window offers Situations timed ``any_time`` with no trigger; a
triggered window offers the Situations whose trigger is the event (an Interrupt or a Cancel,
or Counterattack's ``melee_attack_resolved_on_unit``). The Situation is played on the unit the
event concerns (``win_unit``) when the event is about that unit (attacked, attacking,
contacted), on any own unit otherwise (a unit that reacts to a mover or to an enemy card).
A window is always asked and passing is always legal, so being asked tells nothing about
the asked player's hand.

Every effect kind of the card-effect table is run by the core (a kind it did not know would
make a play unusable, so it would never be offered).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.fantasy_cards.tables import (
    EFFECT_AERIAL_ATTACK,
    EFFECT_BACK_IN_ACTION,
    EFFECT_CANCEL_CARD,
    EFFECT_CHANGE_FACING,
    EFFECT_INFILTRATE,
    EFFECT_MELEE_ATTACK,
    EFFECT_MOVE,
    EFFECT_PASS_ALONG,
    EFFECT_RANGED_ATTACK,
    EFFECT_RECOVER,
    EFFECT_REMOVE_OBSTACLE,
    EFFECT_SHIFT_ATTACK,
    EFFECT_TARGET_POINT_ATTACK,
    PART_ACTION,
    RANGE_DISTANCE_CODE,
    TIMING_ACTION,
    TIMING_ANY_TIME,
    TRIGGERS,
)
from envs.tactical_assault.geometry import (
    LOS_EXISTS,
    LOS_OBSTRUCTED,
    in_arc,
    line_of_sight,
    line_of_sight_fast,
)
from envs.tactical_assault.state import (
    MAX_DIRS,
    MAX_POS,
    MAX_UNITS,
    PLACE_HAND,
    STATUS_OUT_OF_ACTION,
    STATUS_SHAKEN,
    WHERE_OFF,
    WHERE_ON,
)
from envs.tactical_assault.tables import MAX_FP

TRIG_NONE = TRIGGERS.index("none")
TRIG_ENEMY_MOVES = TRIGGERS.index("enemy_unit_moves")
TRIG_ENEMY_CONTACT = TRIGGERS.index("enemy_contact")
TRIG_RANGED_ON = TRIGGERS.index("ranged_attack_on_unit")
TRIG_MELEE_ON = TRIGGERS.index("melee_attack_on_unit")
TRIG_MELEE_RESOLVED = TRIGGERS.index("melee_attack_resolved_on_unit")
TRIG_ATTACK_DECLARED = TRIGGERS.index("unit_attack_declared")
TRIG_ACTION_PLAYED = TRIGGERS.index("enemy_action_played")
TRIG_SITUATION_PLAYED = TRIGGERS.index("enemy_situation_played")

# fct.CONDITIONS codes
COND_NONE, COND_ON, COND_OFF, COND_IN_CC, COND_NOT_IN_CC, COND_SHAKEN, COND_OOA = range(7)


@njit
def on_field(S, b, u):
    return S["unit_where"][b, u] == WHERE_ON


@njit
def fp_zone(tb, u, p, f):
    """The zone of part f of oversized unit slot u when its centre zone is p (-1 off the map;
    LB "Oversized (multi-zone) units", tables sc_fp_step)."""
    y = np.int64(tb.g_neighbour[p, tb.sc_fp_step[u, f, 0]])
    k2 = np.int64(tb.sc_fp_step[u, f, 1])
    if y >= 0 and k2 >= 0:
        y = np.int64(tb.g_neighbour[y, k2])
    return y


@njit
def covers(S, tb, b, v, y):
    """Unit v is on the battlefield and covers position y: its own (centre) position, or a
    zone of an oversized unit's footprint (LB "Zone contents": every zone holding part of an
    oversized unit holds a full unit)."""
    if S["unit_where"][b, v] != WHERE_ON:
        return False
    p = np.int64(S["unit_pos"][b, v])
    if p == y:
        return True
    for f in range(tb.sc_fp_n[v]):
        if fp_zone(tb, v, p, f) == y:
            return True
    return False


@njit
def fits(S, tb, b, u, p):
    """Oversized unit u may have its centre zone at p as far as its other zones go (LB R28):
    each is on the map, standable and covered by no other unit. True for a one-zone unit."""
    for f in range(tb.sc_fp_n[u]):
        y = fp_zone(tb, u, p, f)
        if y < 0 or tb.g_standable[y] == 0:
            return False
        for w in range(MAX_UNITS):
            if w != u and covers(S, tb, b, w, y):
                return False
    return True


@njit
def part_holder(S, tb, b, u, y):
    """The enemy oversized unit of which y is a part zone (not its centre), or -1 (LB R28: a
    unit moving into such a zone shares the oversized unit's centre zone)."""
    side = S["unit_side"][b, u]
    for w in range(MAX_UNITS):
        if (
            tb.sc_fp_n[w] > 0
            and S["unit_side"][b, w] != side
            and S["unit_pos"][b, w] != y
            and covers(S, tb, b, w, y)
        ):
            return w
    return -1


@njit
def in_close_combat(S, tb, b, u):
    """u is in physical contact with an enemy unit that may be attacked (FC "Melee Attacks"
    Step 1): sharing its zone on a zone map (LB "Sharing a zone"), in a neighbouring cell on
    the tabletop (tables g_contact; FC R28). An Obstacle is never in Close Combat (R2)."""
    if S["unit_where"][b, u] != WHERE_ON:
        return False
    pos = S["unit_pos"][b, u]
    side = S["unit_side"][b, u]
    for v in range(MAX_UNITS):
        if (
            S["unit_where"][b, v] == WHERE_ON
            and S["unit_side"][b, v] != side
            and tb.g_contact[pos, S["unit_pos"][b, v]] != 0
            and tb.type_protection[S["unit_type"][b, v]] != 0
            and tb.type_protection[S["unit_type"][b, u]] != 0
        ):
            return True
    return False


@njit
def in_contact(S, tb, b, u, v):
    """Units u and v are both on the battlefield and in physical contact (g_contact)."""
    return (
        S["unit_where"][b, u] == WHERE_ON
        and S["unit_where"][b, v] == WHERE_ON
        and tb.g_contact[S["unit_pos"][b, u], S["unit_pos"][b, v]] != 0
        and u != v
    )


@njit
def contacts_enemy(S, tb, b, u, y):
    """A unit of u's side standing at y would be in contact with an enemy unit that may be
    attacked: the first such enemy (by slot), or -1."""
    side = S["unit_side"][b, u]
    for v in range(MAX_UNITS):
        if (
            S["unit_where"][b, v] == WHERE_ON
            and S["unit_side"][b, v] != side
            and tb.g_contact[y, S["unit_pos"][b, v]] != 0
            and tb.type_protection[S["unit_type"][b, v]] != 0
        ):
            return v
    return -1


@njit
def reserved(S, b, u, y):
    """The tabletop: y is where a moving unit other than u would be put back if its move or
    Fall Back stopped now, while it stands elsewhere (a Fall Back ends on the last position it
    may end in, or where it began: combat.end_fall_back; a move stopped on a friend's position
    goes back: R24). No other unit may enter or be placed there meanwhile (R28: never two
    units in one cell)."""
    v = np.int64(S["fb_unit"][b])
    if v >= 0 and v != u and S["unit_where"][b, v] == WHERE_ON:
        end = S["fb_last_ok"][b] if S["fb_last_ok"][b] >= 0 else S["fb_origin"][b]
        if end == y and S["unit_pos"][b, v] != y:
            return True
    for i in range(S["depth"][b]):
        w = np.int64(S["fr_unit"][b, i])
        if w < 0 or w == u or S["unit_where"][b, w] != WHERE_ON:
            continue
        if S["fr_moved"][b, i] > 0 and S["fr_last_ok"][b, i] == y and S["unit_pos"][b, w] != y:
            for x in range(MAX_UNITS):  # w stands on a friend's position: it would go back
                if (
                    x != w
                    and S["unit_where"][b, x] == WHERE_ON
                    and S["unit_pos"][b, x] == S["unit_pos"][b, w]
                ):
                    return True
    return False


# occ (new_occ, occupancy): MAX_POS position entries, then a cache of the LOS traced between
# units while the units stand still: occ[LOS_CACHE + u * MAX_UNITS + v] = 1 + the LOS bits from
# u's position to v's (sight), 0 not traced yet; then occ[CC_CACHE + u] = 1 + whether u is in
# Close Combat (in_cc), 0 not asked yet. occupancy() marks both stale (occ[LOS_STALE]); the
# first use clears a stale cache (fresh_caches), so listings that ask nothing pay nothing.
LOS_STALE = MAX_POS
LOS_CACHE = MAX_POS + 1
CC_CACHE = LOS_CACHE + MAX_UNITS * MAX_UNITS
OCC_SIZE = CC_CACHE + MAX_UNITS


@njit
def occupancy(S, tb, b, occ):
    """occ[P] = 1 where a unit stands (LOS blockers: "LOS through units"), 2 where an Obstacle
    stands (FC "LOS Is Drawn Through An Obstacle": not blocked, the target is Obstructed); the
    LOS cache marked stale (LOS_CACHE). Call it again once a unit has moved."""
    occ[:MAX_POS] = 0
    occ[LOS_STALE] = 1
    for v in range(MAX_UNITS):
        if S["unit_where"][b, v] == WHERE_ON:
            o = 2 if S["unit_type"][b, v] == tb.type_obstacle else 1
            p = np.int64(S["unit_pos"][b, v])
            occ[p] = o
            for f in range(tb.sc_fp_n[v]):  # LB "LOS through units": every zone it covers
                occ[fp_zone(tb, v, p, f)] = o


@njit
def new_occ():
    """No unit on any position, the caches stale (only the positions are written: every
    listing makes one)."""
    occ = np.empty(OCC_SIZE, dtype=np.uint8)
    occ[:LOS_CACHE] = 0
    occ[LOS_STALE] = 1
    return occ


@njit
def fresh_caches(occ):
    """Clear occ's caches (LOS, Close Combat) if occupancy() marked them stale."""
    if occ[LOS_STALE]:
        occ[LOS_CACHE:] = 0
        occ[LOS_STALE] = 0


@njit
def in_cc(S, tb, b, u, occ):
    """in_close_combat(S, tb, b, u), asked once per listing (occ's Close Combat cache): a
    listing asks it of each unit for every card that names a condition or a move."""
    fresh_caches(occ)
    c = occ[CC_CACHE + u]
    if c == 0:
        c = 2 if in_close_combat(S, tb, b, u) else 1
        occ[CC_CACHE + u] = c
    return c == 2


@njit
def sight(S, tb, b, occ, u, v, code):
    """Whether unit u can draw LOS within Table 2 distance `code` (RANGE_DISTANCE_CODE: u's
    Range Distance, with Extreme Range) to unit v, through u's LOS Arc. Returns LOS_* bits
    (0 none), plus 8 when only Extreme Range reaches (FC Step 3)."""
    if S["unit_where"][b, u] != WHERE_ON or S["unit_where"][b, v] != WHERE_ON:
        return 0
    t = S["unit_type"][b, u]
    extra = 0
    if code == RANGE_DISTANCE_CODE:
        code = np.int64(tb.type_range[t])
        if code < 0:
            return 0
        extra = np.int64(tb.g_extreme_extra)
    a = np.int64(S["unit_pos"][b, u])
    c = np.int64(S["unit_pos"][b, v])
    d = np.int64(tb.g_dist[a, c])
    reach = np.int64(tb.g_dist_units[code])
    if d > reach + extra:
        return 0
    if not in_arc(tb, a, np.int64(S["unit_facing"][b, u]), c):
        return 0
    fresh_caches(occ)
    key = LOS_CACHE + u * MAX_UNITS + v  # the same pair is asked once per card and step
    if occ[key] == 0:
        if tb.sc_fp_n[u] > 0 or tb.sc_fp_n[v] > 0:  # an oversized unit (LB R28)
            occ[key] = 1 + _los_oversized(tb, occ, u, v, a, c)
        else:
            occ[key] = 1 + line_of_sight_fast(tb, occ, a, c)
    bits = np.int64(occ[key]) - 1
    if bits == 0:
        return 0
    if d > reach:
        bits |= 8
    return bits


@njit_inline
def _los_oversized(tb, occ, u, v, a, c):
    """LOS from u at a to v at c when either covers several zones (LB "LOS to oversized
    units"): no part of either blocks the line to v's centre zone; failing that, LOS to
    another zone of v (the rest of v blocking) makes v Obscured (= Obstructed, LB R11).
    occ is restored before returning."""
    nu = np.int64(tb.sc_fp_n[u])
    nv = np.int64(tb.sc_fp_n[v])
    zu = np.full(MAX_FP, -1, dtype=np.int64)
    zv = np.full(MAX_FP, -1, dtype=np.int64)
    ou = np.zeros(MAX_FP, dtype=np.uint8)
    ov = np.zeros(MAX_FP, dtype=np.uint8)
    for f in range(nu):
        zu[f] = fp_zone(tb, u, a, f)
        ou[f] = occ[zu[f]]
        occ[zu[f]] = 0
    for f in range(nv):
        zv[f] = fp_zone(tb, v, c, f)
        ov[f] = occ[zv[f]]
        occ[zv[f]] = 0
    bits = line_of_sight(tb, occ, a, c)
    if bits == 0 and nv > 0:
        oc = occ[c]
        occ[c] = 1
        for f in range(nv):
            for g in range(nv):
                occ[zv[g]] = 1 if g != f else 0
            got = line_of_sight(tb, occ, a, zv[f])
            if got != 0:
                bits = got | LOS_OBSTRUCTED
                break
        occ[c] = oc
    for f in range(nv):
        occ[zv[f]] = ov[f]
    for f in range(nu):
        occ[zu[f]] = ou[f]
    return bits


@njit
def ranged_target_ok(S, tb, b, occ, u, v, code):
    """v is a viable target of a Ranged Attack by u (PART V Steps 1-3; R4: a unit with no
    Protection, an Obstacle, is never attacked)."""
    if (
        S["unit_side"][b, u] == S["unit_side"][b, v]
        or tb.type_protection[S["unit_type"][b, v]] == 0
    ):
        return False
    if tb.type_ranged[S["unit_type"][b, u]] == 0:
        return False
    return sight(S, tb, b, occ, u, v, code) & LOS_EXISTS != 0


@njit
def melee_target_ok(S, b, tb, u, v):
    """v is an enemy in contact with u (PART V "Melee Attacks" Step 1)."""
    return (
        S["unit_side"][b, u] != S["unit_side"][b, v]
        and in_contact(S, tb, b, u, v)
        and tb.type_protection[S["unit_type"][b, v]] != 0
    )


@njit
def crossing_cost(S, tb, b, u, pos, k):
    """Movement unit u pays to cross side k of `pos` (-1 not allowed). A friendly War Machine
    (not u itself) standing on either side of it lets u ignore the side's linear terrain, even
    Impassable (FC "War Machine" NOTE; LB reading R21): g_wm_cost instead of g_entry_cost."""
    cost = np.int64(tb.g_entry_cost[pos, k])
    wm = np.int64(tb.g_wm_cost[pos, k])
    if wm == cost:
        return cost
    y = np.int64(tb.g_neighbour[pos, k])
    side = S["unit_side"][b, u]
    for w in range(MAX_UNITS):
        if (
            w != u
            and S["unit_where"][b, w] == WHERE_ON
            and S["unit_side"][b, w] == side
            and S["unit_type"][b, w] == tb.type_war_machine
            and (S["unit_pos"][b, w] == pos or S["unit_pos"][b, w] == y)
        ):
            return wm
    return cost


@njit
def infiltrate_ok(S, tb, b, p, z, d):
    """An Infiltrator of seat p may be placed at z (FC I9): standable, no unit there, its
    centre at least Table 2 distance `d` from every enemy unit on the battlefield."""
    if tb.g_standable[z] == 0 or (tb.g_cc_share == 0 and reserved(S, b, -1, z)):
        return False
    for v in range(MAX_UNITS):
        if S["unit_where"][b, v] != WHERE_ON:
            continue
        if S["unit_pos"][b, v] == z:
            return False
        if S["unit_side"][b, v] != p and tb.g_dist[z, S["unit_pos"][b, v]] < tb.g_dist_units[d]:
            return False
    return True


@njit
def obstacle_in_reach(S, tb, b, u, v, d):
    """Obstacle v (of either side) is on the battlefield with its centre within Table 2
    distance `d` of u's (FC I13: what a Sapper's remove_obstacle may remove)."""
    return (
        S["unit_where"][b, v] == WHERE_ON
        and S["unit_type"][b, v] == tb.type_obstacle
        and S["unit_where"][b, u] == WHERE_ON
        and tb.g_dist[S["unit_pos"][b, u], S["unit_pos"][b, v]] <= tb.g_dist_units[d]
    )


@njit
def aerial_target_ok(S, tb, b, u, v):
    """Aerial unit u may attack v (FC I8): an enemy on the battlefield that may be attacked (not
    an Obstacle); no LOS or range is needed (R22). Not while v passes through a friendly
    unit's position in a move (R30: placed at a point of its path where it stands alone or in
    Close Combat)."""
    if (
        S["unit_where"][b, v] != WHERE_ON
        or S["unit_side"][b, v] == S["unit_side"][b, u]
        or tb.type_protection[S["unit_type"][b, v]] == 0
    ):
        return False
    for w in range(MAX_UNITS):
        if (
            w != v
            and S["unit_where"][b, w] == WHERE_ON
            and S["unit_pos"][b, w] == S["unit_pos"][b, v]
            and S["unit_side"][b, w] == S["unit_side"][b, v]
            and not in_close_combat(S, tb, b, v)
        ):
            return False
    if tb.g_cc_share == 0:
        return aerial_cells(S, tb, b, v, np.zeros(MAX_DIRS, dtype=np.int64)) > 0  # R30
    return True


@njit
def aerial_cells(S, tb, b, v, out):
    """The tabletop (R30, R28): the free standable cells next to v's, where an Aerial unit
    attacking v may be placed (out[:n]); a cell also in contact with another enemy counts."""
    z = np.int64(S["unit_pos"][b, v])
    n = 0
    for k in range(tb.g_n_dirs):
        y = np.int64(tb.g_neighbour[z, k])
        if y < 0 or tb.g_standable[y] == 0:
            continue
        free = not reserved(S, b, -1, y)
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == y:
                free = False
                break
        if free and n < out.shape[0]:
            out[n] = y
            n += 1
    return n


@njit
def can_step(S, tb, b, u, pos, k, left, contact):
    """Unit u at `pos` may cross side k now with `left` zones of movement: the cost is paid,
    the next position is standable, holds no enemy unless the card allows contact
    (FC "Contacting Enemy Units", LB "Moving through zones containing enemy units").
    Returns the cost, or -1."""
    y = np.int64(tb.g_neighbour[pos, k])
    if y < 0:
        return -1
    cost = crossing_cost(S, tb, b, u, pos, k)
    if cost < 0 or cost > left or tb.g_standable[y] == 0:
        return -1
    if tb.sc_fp_n[u] > 0 and (not fits(S, tb, b, u, y) or part_holder(S, tb, b, u, y) >= 0):
        return -1  # LB R28: its other zones free; another oversized unit only at its centre
    side = S["unit_side"][b, u]
    occupied = False
    for v in range(MAX_UNITS):
        if v != u and covers(S, tb, b, v, y):
            if S["unit_type"][b, v] == tb.type_obstacle:
                return -1  # FC "Obstacles": Impassable, for friends too
            if S["unit_side"][b, v] != side:
                if not contact or tb.type_protection[S["unit_type"][b, v]] == 0:
                    return -1
                if tb.g_cc_share == 0:
                    return -1  # the tabletop: never through any part of an enemy (FC-4.7)
            occupied = True  # on the tabletop only a friend gets here
    if tb.g_cc_share == 0 and reserved(S, b, u, y):
        return -1
    if tb.g_cc_share == 0 and contacts_enemy(S, tb, b, u, y) >= 0:
        # the tabletop (R31): entering contact ends the move, so only a contact move may,
        # and not onto a friend's cell it could not end on (Sharing Space)
        if not contact or occupied:
            return -1
    return cost


@njit
def pos_state(S, tb, b, u, y):
    """0 empty, 1 holds a friendly unit (other than u), 2 holds an enemy unit (any zone an
    oversized unit covers counts: LB "Zone contents")."""
    side = S["unit_side"][b, u]
    out = 0
    for v in range(MAX_UNITS):
        if v != u and covers(S, tb, b, v, y):
            if S["unit_side"][b, v] != side:
                return 2
            out = 1
    return out


@njit
def can_end_from(S, tb, b, u, pos, left, contact, best):
    """Some legal end of the move is reachable from `pos` with `left` movement: an empty
    position, or an enemy's when contact is allowed (R17: a unit may pass friendly zones but not
    end in one). best[P] is scratch."""
    st = pos_state(S, tb, b, u, pos)
    if st == 0 or st == 2:
        return True
    n = np.int64(tb.g_n_pos)
    for z in range(n):
        best[z] = -1
    best[pos] = left
    changed = True
    while changed:
        changed = False
        for z in range(n):
            lz = np.int64(best[z])
            if lz <= 0 or pos_state(S, tb, b, u, z) != 1:
                continue  # only friendly positions are passed through
            for k in range(tb.g_n_dirs):
                c = can_step(S, tb, b, u, z, k, lz, contact)
                if c < 0:
                    continue
                y = np.int64(tb.g_neighbour[z, k])
                if lz - c > best[y]:
                    best[y] = lz - c
                    changed = True
                    if pos_state(S, tb, b, u, y) != 1:
                        return True
    return False


@njit
def move_options(S, tb, b, u, pos, left, contact, out, best, most):
    """Sides k the moving unit may cross next from `pos` (its position, or the end of the path
    declared so far: FC R41) (out[:n]), the first `most` of them (1: can it move at all); see
    can_step and can_end_from."""
    n = 0
    for k in range(tb.g_n_dirs):
        c = can_step(S, tb, b, u, pos, k, left, contact)
        if c < 0:
            continue
        y = np.int64(tb.g_neighbour[pos, k])
        if can_end_from(S, tb, b, u, y, left - c, contact, best):
            out[n] = k
            n += 1
            if n >= most:
                break
    return n


@njit
def away_options(S, tb, b, u, pos, origin, start, k, left, out):
    """Positions (out[:n]) a unit at `pos` (or its declared path's end: FC R41) moving
    "directly away" from the enemy at `origin` may enter as step k of its route: the positions
    the line from origin through its starting position `start` enters next (two when the line
    meets them equally: its player's choice, LB "Making decisions"), payable and empty (reading
    R29 of Fantasy Cards: it stops short of any unit)."""
    if origin == start or k >= tb.g_fb_route.shape[2]:
        return 0
    n = 0
    for o in range(2):
        y = np.int64(tb.g_fb_route[origin, start, k, o])
        if y < 0:
            continue
        for side in range(tb.g_n_dirs):
            if tb.g_neighbour[pos, side] == y:
                c = can_step(S, tb, b, u, pos, side, left, False)
                if c >= 0 and pos_state(S, tb, b, u, y) == 0:
                    out[n] = y
                    n += 1
    return n


@njit
def volley_joiner_ok(S, tb, b, p, play, v, w, occ):
    """w may join the "all available" attack of `play` on target v (I12, R20): a friendly unit
    of a type the card names, that may have cards played on it, has not used its Action this
    turn and can make the card's Ranged Attack on v."""
    if S["unit_side"][b, w] != p or S["unit_where"][b, w] != WHERE_ON:
        return False
    if tb.play_on[play, S["unit_type"][b, w]] == 0 or S["unit_acted"][b, w]:
        return False
    if not can_take_cards(S, tb, b, play, w):
        return False
    return ranged_target_ok(S, tb, b, occ, w, v, np.int64(tb.step_range[play, 0]))


@njit
def can_take_cards(S, tb, b, play, u):
    """Table 6 and R6: a Shaken or Out Of Action unit may have only the card that removes one
    of its statuses played on it; an Eliminated unit none."""
    if S["unit_where"][b, u] != WHERE_ON and S["unit_where"][b, u] != WHERE_OFF:
        return False
    if S["unit_type"][b, u] == tb.type_obstacle:
        return False  # FC "Obstacles": no Actions or Situations, passed along or not
    st = S["unit_status"][b, u]
    if st == 0:
        return True
    k0 = tb.step_kind[play, 0]
    if k0 == EFFECT_RECOVER and st & STATUS_SHAKEN:
        return True
    if k0 == EFFECT_BACK_IN_ACTION and st & STATUS_OUT_OF_ACTION:
        return True
    return False


@njit
def condition_ok(S, tb, b, cond, u, occ):
    if cond == COND_ON:
        return S["unit_where"][b, u] == WHERE_ON
    if cond == COND_OFF:
        return S["unit_where"][b, u] == WHERE_OFF
    if cond == COND_IN_CC:
        return in_cc(S, tb, b, u, occ)
    if cond == COND_NOT_IN_CC:
        return S["unit_where"][b, u] == WHERE_ON and not in_cc(S, tb, b, u, occ)
    if cond == COND_SHAKEN:
        return S["unit_status"][b, u] & STATUS_SHAKEN != 0
    if cond == COND_OOA:
        return S["unit_status"][b, u] & STATUS_OUT_OF_ACTION != 0
    return True


@njit
def usable(S, tb, b, p, play, u, occ, scratch, best):
    """Play `play` may be played by seat p on its unit u now (Only If Usable, FC I1-I4). A
    unit holding a pass-along for this part (I7) may have any such card played on it when
    some friendly unit within the pass-along's distance could use it (FC "Only If Usable"
    NOTE: passing along counts as using it)."""
    if S["unit_side"][b, u] != p:
        return False
    if holds_pass(S, tb, b, play, u):
        for r in range(MAX_UNITS):
            if pass_receiver_ok(S, tb, b, p, play, u, r, occ, scratch, best):
                return True
        return False
    return usable_direct(S, tb, b, p, play, u, occ, scratch, best, False)


@njit
def holds_pass(S, tb, b, play, u):
    """u holds a pass-along for the part of `play` (I7) and may have cards played on it."""
    bit = 1 if tb.play_part[play] == PART_ACTION else 2
    return S["unit_pass"][b, u] & bit != 0 and S["unit_status"][b, u] == 0


@njit
def pass_receiver_ok(S, tb, b, p, play, u, r, occ, scratch, best):
    """r may receive `play` passed along by u: a friendly unit within the pass-along's
    distance of u that can use the whole card, whatever types the card names (I7)."""
    if r == u or S["unit_side"][b, r] != p:
        return False
    if S["unit_where"][b, u] != WHERE_ON or S["unit_where"][b, r] != WHERE_ON:
        return False
    d = np.int64(S["unit_pass_dist"][b, u])
    if tb.g_dist[S["unit_pos"][b, u], S["unit_pos"][b, r]] > tb.g_dist_units[d]:
        return False
    return usable_direct(S, tb, b, p, play, r, occ, scratch, best, True)


@njit
def usable_direct(S, tb, b, p, play, u, occ, scratch, best, any_type):
    """`usable` without pass-alongs; any_type: the card need not name u's type (I7)."""
    if S["unit_side"][b, u] != p:
        return False
    if not any_type and tb.play_on[play, S["unit_type"][b, u]] == 0:
        return False
    if not can_take_cards(S, tb, b, play, u):
        return False
    if tb.play_timing[play] == TIMING_ACTION and S["unit_acted"][b, u]:
        return False  # One Action Per Turn
    trig = np.int64(tb.play_trigger[play])
    forced = -1
    if trig != TRIG_NONE:
        if trig != np.int64(S["win_trigger"][b]):
            return False
        if (
            trig == TRIG_ENEMY_CONTACT
            or trig == TRIG_RANGED_ON
            or trig == TRIG_MELEE_ON
            or trig == TRIG_ATTACK_DECLARED
            or trig == TRIG_MELEE_RESOLVED
        ):
            if u != S["win_unit"][b]:
                return False
        if trig == TRIG_ENEMY_MOVES:
            forced = np.int64(S["win_unit"][b])
        elif trig == TRIG_MELEE_RESOLVED or trig == TRIG_ENEMY_CONTACT:
            forced = np.int64(S["win_enemy"][b])
    # the cheap checks above first (windows ask about many cards and units): same answer
    if not condition_ok(S, tb, b, np.int64(tb.play_condition[play]), u, occ):
        return False
    for j in range(tb.step_kind.shape[1]):
        kind = tb.step_kind[play, j]
        if kind < 0:
            break
        if kind == EFFECT_MOVE:
            if tb.step_direction[play, j] != 0:
                # away_from_enemy (Evade): away from the enemy of the event, at least a step
                if forced < 0 or S["unit_where"][b, forced] != WHERE_ON:
                    return False
                if S["unit_where"][b, u] != WHERE_ON or in_cc(S, tb, b, u, occ):
                    return False
                left = np.int64(tb.g_dist_units[tb.step_distance[play, j]])
                start = np.int64(S["unit_pos"][b, u])
                origin = np.int64(S["unit_pos"][b, forced])
                if away_options(S, tb, b, u, start, origin, start, 0, left, scratch) == 0:
                    return False
            elif j == 0:
                if S["unit_where"][b, u] != WHERE_ON or in_cc(S, tb, b, u, occ):
                    return False
                left = np.int64(tb.g_dist_units[tb.step_distance[play, j]])
                if (
                    move_options(
                        S,
                        tb,
                        b,
                        u,
                        np.int64(S["unit_pos"][b, u]),
                        left,
                        tb.step_contact[play, j] != 0,
                        scratch,
                        best,
                        np.int64(1),
                    )
                    == 0
                ):
                    return False
        elif kind == EFFECT_MELEE_ATTACK:
            if j == 0:
                # the event's unit alone when there is one (forced), else any enemy
                found = False
                for v in range(max(forced, 0), forced + 1 if forced >= 0 else MAX_UNITS):
                    if S["unit_where"][b, v] == WHERE_ON and melee_target_ok(S, b, tb, u, v):
                        found = True
                        break
                if not found:
                    return False
        elif kind == EFFECT_RANGED_ATTACK:
            code = np.int64(tb.step_range[play, j])
            found = False
            for v in range(max(forced, 0), forced + 1 if forced >= 0 else MAX_UNITS):
                # ranged_target_ok's first checks read here: a call per slot costs more
                if S["unit_where"][b, v] == WHERE_ON and S["unit_side"][b, v] != p:
                    if ranged_target_ok(S, tb, b, occ, u, v, code):
                        found = True
                        break
            if not found:
                return False
        elif kind == EFFECT_RECOVER:
            if S["unit_status"][b, u] & STATUS_SHAKEN == 0:
                return False
        elif kind == EFFECT_BACK_IN_ACTION:
            if S["unit_status"][b, u] & STATUS_OUT_OF_ACTION == 0:
                return False
        elif kind == EFFECT_CHANGE_FACING:
            if S["unit_where"][b, u] != WHERE_ON:
                return False
        elif kind == EFFECT_SHIFT_ATTACK:
            pass
        elif kind == EFFECT_PASS_ALONG:
            if S["unit_where"][b, u] != WHERE_ON:
                return False
        elif kind == EFFECT_AERIAL_ATTACK:
            if S["unit_where"][b, u] != WHERE_OFF:
                return False
            found = False
            for v in range(max(forced, 0), forced + 1 if forced >= 0 else MAX_UNITS):
                if S["unit_where"][b, v] == WHERE_ON and aerial_target_ok(S, tb, b, u, v):
                    found = True
                    break
            if not found:
                return False
        elif kind == EFFECT_REMOVE_OBSTACLE:
            d = np.int64(tb.step_distance[play, j])
            found = False
            for v in range(MAX_UNITS):
                if S["unit_where"][b, v] == WHERE_ON and obstacle_in_reach(S, tb, b, u, v, d):
                    found = True
                    break
            if not found:
                return False
        elif kind == EFFECT_INFILTRATE:
            if S["unit_where"][b, u] != WHERE_OFF:
                return False
            d = np.int64(tb.step_min_enemy_distance[play, j])
            found = False
            for z in range(tb.g_n_pos):
                if infiltrate_ok(S, tb, b, p, z, d):
                    found = True
                    break
            if not found:
                return False
        elif kind == EFFECT_TARGET_POINT_ATTACK:
            # FC I14: a point in range and LOS; the unit's own position always is one
            if S["unit_where"][b, u] != WHERE_ON:
                return False
            code = np.int64(tb.step_range[play, j])
            if code == RANGE_DISTANCE_CODE and tb.type_range[S["unit_type"][b, u]] < 0:
                return False
        elif kind == EFFECT_CANCEL_CARD:
            w = np.int64(S["win_unit"][b])
            if w < 0 or sight(S, tb, b, occ, u, w, np.int64(tb.step_range[play, j])) == 0:
                return False
        else:
            return False  # not yet run by the core (module docstring)
    return True


@njit
def playable_on_some_unit(S, tb, b, p, play, occ, scratch, best):
    # a play triggered by an event about one unit is usable on that unit only (usable_direct),
    # or on a unit holding a pass-along that may hand it on (usable): the others are skipped
    trig = np.int64(tb.play_trigger[play])
    only = -1
    if (
        trig == TRIG_ENEMY_CONTACT
        or trig == TRIG_RANGED_ON
        or trig == TRIG_MELEE_ON
        or trig == TRIG_ATTACK_DECLARED
        or trig == TRIG_MELEE_RESOLVED
    ):
        only = np.int64(S["win_unit"][b])
    for u in range(MAX_UNITS):
        if S["unit_side"][b, u] != p or not may_be_usable(S, tb, b, play, u):
            continue
        if only >= 0 and u != only and not holds_pass(S, tb, b, play, u):
            continue
        if usable(S, tb, b, p, play, u, occ, scratch, best):
            return True
    return False


@njit_inline
def may_be_usable(S, tb, b, play, u):
    """usable's first checks of own unit u, for loops over the unit slots to read before
    calling it (a call per slot costs more than the checks): False only where usable is
    False (no pass-along held, and the card does not name u's type or u has had its Action)."""
    if S["unit_pass"][b, u] != 0:
        return True
    if tb.play_on[play, S["unit_type"][b, u]] == 0:
        return False
    return not (tb.play_timing[play] == TIMING_ACTION and S["unit_acted"][b, u])


@njit
def window_fits(S, tb, b, p, k, general, new_only):
    """Card k of p's hand may be offered in the window asked now (by its Situation's timing and
    trigger); usability is checked separately."""
    if S["card_place"][b, p, k] != PLACE_HAND:
        return False
    play = np.int64(tb.card_situation[k])
    if general:
        if new_only and S["card_new"][b, p, k] == 0:
            return False
        return tb.play_timing[play] == TIMING_ANY_TIME and tb.play_trigger[play] == TRIG_NONE
    return np.int64(tb.play_trigger[play]) == np.int64(S["win_trigger"][b])


@njit
def point_in_sight(S, tb, b, occ, u, z, code):
    """Unit u may place a Target Point at position z (FC I14): within Table 2 distance `code`
    (RANGE_DISTANCE_CODE: its Range Distance) of its centre, in its LOS Arc and its LOS."""
    if code == RANGE_DISTANCE_CODE:
        code = np.int64(tb.type_range[S["unit_type"][b, u]])
        if code < 0:
            return False
    a = np.int64(S["unit_pos"][b, u])
    if tb.g_dist[a, z] > tb.g_dist_units[code]:
        return False
    if not in_arc(tb, a, np.int64(S["unit_facing"][b, u]), z):
        return False
    return line_of_sight_fast(tb, occ, a, z) != 0
