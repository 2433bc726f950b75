"""Combat resolution (FC PART V "Ranged Attacks", "Melee Attacks", "Combat Results", Tables 4-6)
and the unit statuses and moves it imposes (Fall Back, Close Combat on a zone map).

An attack: sum the Table 4 or 5 shifts (tables rmod_shift / mmod_shift, by condition), add the
card's own and the Interrupts' shifts, flip the top card of the attacker's deck (discarded),
shift its Combat Result (Step Up = +1 towards Eliminated, clamped at the ends: R3) and apply it.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.fantasy_cards.tables import ELIMINATED, FALL_BACK, OUT_OF_ACTION, SHAKEN
from envs.tactical_assault.cards import flip
from envs.tactical_assault.geometry import LOS_IN_COVER, LOS_OBSTRUCTED, in_arc, line_of_sight
from envs.tactical_assault.plays import (
    covers,
    crossing_cost,
    fits,
    in_close_combat,
    new_occ,
    occupancy,
    reserved,
    sight,
)
from envs.tactical_assault.state import (
    FR_CEASED,
    MAX_DIRS,
    MAX_UNITS,
    STATUS_OUT_OF_ACTION,
    STATUS_SHAKEN,
    WHERE_ELIMINATED,
    WHERE_OFF,
    WHERE_ON,
)

# fct.RANGED_CONDITIONS / MELEE_CONDITIONS codes
R_RATING_HIGHER, R_PROTECTION_HIGHER, R_EXTREME, R_OUTSIDE_ARC, R_OBSTRUCTED_COVER = 0, 1, 2, 3, 4
R_TARGET_HIGHER_OR_AERIAL, R_TARGET_IN_CC = 5, 6
M_RATING_HIGHER, M_PROTECTION_HIGHER, M_TARGET_SHAKEN_OOA, M_AERIAL_OR_OUTSIDE_ARC = 0, 1, 2, 3
M_TARGET_IN_COVER = 4
SHORT = 1  # Table 2 code of the Short Distance (Fall Back, FC Table 6)


@njit
def ranged_shift(S, tb, b, u, v, code, occ):
    """Net Table 4 shift of a Ranged Attack by u on v (all shifts cumulative, R4)."""
    tu = S["unit_type"][b, u]
    tv = S["unit_type"][b, v]
    s = 0
    if tb.type_ranged[tu] > tb.type_protection[tv]:
        s += tb.rmod_shift[R_RATING_HIGHER]
    if tb.type_protection[tv] > tb.type_ranged[tu]:
        s += tb.rmod_shift[R_PROTECTION_HIGHER]
    bits = sight(S, tb, b, occ, u, v, code)
    if bits & 8:
        s += tb.rmod_shift[R_EXTREME]
    a = np.int64(S["unit_pos"][b, u])
    c = np.int64(S["unit_pos"][b, v])
    if not in_arc(tb, c, np.int64(S["unit_facing"][b, v]), a):
        s += tb.rmod_shift[R_OUTSIDE_ARC]
    if bits & (LOS_OBSTRUCTED | LOS_IN_COVER):
        s += tb.rmod_shift[R_OBSTRUCTED_COVER]
    if tb.g_ground[c] > tb.g_ground[a] or tv == tb.type_aerial:
        s += tb.rmod_shift[R_TARGET_HIGHER_OR_AERIAL]
    if in_close_combat(S, tb, b, v):
        s += tb.rmod_shift[R_TARGET_IN_CC]
    return np.int64(s)


@njit
def contact_outside_arc(S, tb, b, u, v):
    """u contacts v from outside v's LOS Arc (LB "Sharing a zone: unit positions"): a unit that
    entered the shared zone is partly in its entry zone; the arc of the unit that entered is
    judged from its own entry zone towards the shared zone (reading R19 of Legendary Battles)."""
    pos = np.int64(S["unit_pos"][b, v])
    fv = np.int64(S["unit_facing"][b, v])
    pu = np.int64(S["unit_pos"][b, u])
    if pu != pos:
        return not in_arc(tb, pos, fv, pu)  # the tabletop: u's cell outside v's arc (R28)
    eu = np.int64(S["unit_entry"][b, u])
    if eu >= 0:
        return not in_arc(tb, pos, fv, eu)
    ev = np.int64(S["unit_entry"][b, v])
    if ev >= 0:
        return not in_arc(tb, ev, fv, pos)
    return False


@njit
def melee_shift(S, tb, b, u, v):
    """Net Table 5 shift of a Melee Attack by u on v."""
    tu = S["unit_type"][b, u]
    tv = S["unit_type"][b, v]
    s = 0
    if tb.type_melee[tu] > tb.type_protection[tv]:
        s += tb.mmod_shift[M_RATING_HIGHER]
    if tb.type_protection[tv] > tb.type_melee[tu]:
        s += tb.mmod_shift[M_PROTECTION_HIGHER]
    if S["unit_status"][b, v] & (STATUS_SHAKEN | STATUS_OUT_OF_ACTION):
        s += tb.mmod_shift[M_TARGET_SHAKEN_OOA]
    if tu == tb.type_aerial or contact_outside_arc(S, tb, b, u, v):
        s += tb.mmod_shift[M_AERIAL_OR_OUTSIDE_ARC]
    if tb.g_covering[S["unit_pos"][b, v]]:
        s += tb.mmod_shift[M_TARGET_IN_COVER]
    return np.int64(s)


@njit
def final_result(card_result, shift):
    """Table 6 with R3: shifts summed, then clamped at No Effect and Eliminated."""
    r = card_result + shift
    if r < 0:
        return 0
    if r > ELIMINATED:
        return ELIMINATED
    return r


@njit
def cease(S, b, v):
    """v "immediately ceases its current activity" (Table 6): every card being resolved on it
    stops."""
    for i in range(S["depth"][b]):
        if S["fr_unit"][b, i] == v:
            S["fr_flags"][b, i] |= FR_CEASED


@njit
def eliminate(S, tb, b, v):
    """v is Eliminated (Table 6), or left the battlefield (FC "Fall Back" NOTE): it counts as
    Eliminated for victory."""
    pos = np.int64(S["unit_pos"][b, v])
    side = S["unit_side"][b, v]
    S["unit_where"][b, v] = WHERE_ELIMINATED
    S["unit_pos"][b, v] = -1
    S["unit_entry"][b, v] = -1
    S["unit_cc_target"][b, v] = -1
    S["points_lost"][b, side] += tb.type_points[S["unit_type"][b, v]]
    S["units_lost"][b, side] += 1
    cease(S, b, v)
    if pos >= 0:
        settle(S, tb, b, pos)


@njit
def move_out_options(S, tb, b, v, z, out):
    """The positions v may move out of shared position z to (LB "Loss of original target",
    R18): its entry position if empty, else the empty standable positions next to z nearest
    its entry position. Writes them to out[:n], returns n (0: none is free)."""
    e = np.int64(S["unit_entry"][b, v])
    best_d = 1 << 30
    n = 0
    for k in range(tb.g_n_dirs):
        y = np.int64(tb.g_neighbour[z, k])
        if y < 0 or tb.g_standable[y] == 0:
            continue
        free = fits(S, tb, b, v, y)  # an oversized unit's other zones too (LB R28)
        for w in range(MAX_UNITS):
            if w != v and covers(S, tb, b, w, y):
                free = False
                break
        if not free:
            continue
        d = 0 if y == e else 1 + (np.int64(tb.g_dist[y, e]) if e >= 0 else 0)
        if d < best_d:
            best_d = d
            n = 0
        if d == best_d:
            out[n] = y
            n += 1
    return n


@njit
def place_out(S, b, v, y):
    """v has moved out of its shared position to y: alone there, out of Close Combat."""
    S["unit_pos"][b, v] = y
    S["unit_entry"][b, v] = -1
    S["unit_cc_target"][b, v] = -1


@njit
def _move_out(S, tb, b, v, z):
    """v leaves shared position z (move_out_options). Returns 1 when it moved, 0 when no
    position is free, 2 when several are equally near: its owner picks (R18: S["out_unit"] and
    S["out_zone"] are set, turn.advance asks, then the zone is settled again)."""
    opts = np.zeros(MAX_DIRS, dtype=np.int64)
    n = move_out_options(S, tb, b, v, z, opts)
    if n == 0:
        return 0
    if n > 1:
        S["out_unit"][b] = v
        S["out_zone"][b] = z
        return 2
    place_out(S, b, v, opts[0])
    return 1


@njit
def settle(S, tb, b, z):
    """After a unit left position z (Eliminated, Fallen Back): the winner of the Close Combat
    holds z alone (LB "Winning close combat"); a unit whose original target is gone while
    enemies remain moves back out (LB "Multiple unit close combat: loss of original target");
    of several friendly units left with no enemy, the one that was there first stays, or if
    none was, the one its side picks (S["settle_zone"] is set and turn.advance asks), and the
    others move out."""
    for _ in range(MAX_UNITS):
        n0 = 0
        n1 = 0
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z:
                if S["unit_side"][b, w] == 0:
                    n0 += 1
                else:
                    n1 += 1
        if n0 + n1 == 0:
            return
        if n0 == 0 or n1 == 0:
            break
        moved = False
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] != WHERE_ON or S["unit_pos"][b, w] != z:
                continue
            t = np.int64(S["unit_cc_target"][b, w])
            if S["unit_entry"][b, w] >= 0 and (
                t < 0 or S["unit_where"][b, t] != WHERE_ON or S["unit_pos"][b, t] != z
            ):
                r = _move_out(S, tb, b, w, z)
                if r == 2:
                    return  # its owner picks where it goes; settled again after (turn.py)
                if r == 1:
                    moved = True
                    break
                # nowhere to go: it takes another enemy in the zone as its target
                for x in range(MAX_UNITS):
                    if (
                        S["unit_where"][b, x] == WHERE_ON
                        and S["unit_pos"][b, x] == z
                        and S["unit_side"][b, x] != S["unit_side"][b, w]
                    ):
                        S["unit_cc_target"][b, w] = x
                        break
        if not moved:
            return
    stay = -1
    for w in range(MAX_UNITS):
        if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z:
            if S["unit_entry"][b, w] < 0:
                stay = w  # it was in the zone when the Close Combat began: it remains
    if stay < 0 and n0 + n1 > 1:
        S["settle_zone"][b] = z  # the side picks the unit that remains (turn.py asks)
        return
    if stay < 0:
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z:
                stay = w  # the last unit in the zone remains
    keep_only(S, tb, b, z, stay)


@njit
def keep_only(S, tb, b, z, stay):
    """`stay` remains alone in position z; the other units there move out (LB "Loss of
    original target"). `stay` is marked first, so that a settle run again after an owner's
    choice of where one of them goes (R18) keeps the same unit."""
    S["unit_entry"][b, stay] = -1
    S["unit_cc_target"][b, stay] = -1
    for w in range(MAX_UNITS):
        if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z and w != stay:
            if _move_out(S, tb, b, w, z) == 2:
                return


@njit
def begin_fall_back(S, tb, b, v, u, apos):
    """v must Fall Back a Short Distance directly away from its attacker u at position `apos`
    (Table 6, R7: or from the Target Point at `apos`) along the line from apos through v's
    position and beyond (LB "Determining the route"); when they share a zone, the line through
    the shared zone and the entry zone (LB R6). A Fall Back already under way (of v or another
    unit) ends where it is first ("Fall Back ... can be imposed more than one time")."""
    if S["fb_unit"][b] >= 0:
        end_fall_back(S, tb, b, False)
    pos = np.int64(S["unit_pos"][b, v])
    S["fb_unit"][b] = v
    S["fb_k"][b] = 0
    S["fb_left"][b] = tb.g_dist_units[SHORT]
    S["fb_enter_first"][b] = -1
    S["fb_origin"][b] = pos
    S["fb_last_ok"][b] = -1
    S["fb_depth"][b] = S["depth"][b]
    S["fb_ask"][b] = 0
    if apos == pos:
        ev = np.int64(S["unit_entry"][b, v])
        eu = np.int64(S["unit_entry"][b, u])
        if ev >= 0:  # v entered the zone: back out through its entry zone and beyond
            S["fb_enter_first"][b] = ev
            S["fb_from"][b] = pos
            S["fb_through"][b] = ev
        elif eu >= 0:
            S["fb_from"][b] = eu
            S["fb_through"][b] = pos
        else:
            S["fb_unit"][b] = -1  # no direction to fall back in
    else:
        S["fb_from"][b] = apos
        S["fb_through"][b] = pos


@njit
def _side_to(tb, z, y):
    for k in range(tb.g_n_dirs):
        if tb.g_neighbour[z, k] == y:
            return k
    return -1


@njit
def _blocked(S, tb, b, v, y):
    """0: v may end in y; 1: pass only (a friendly unit there); 2: stop before it (enemy)."""
    if tb.sc_fp_n[v] > 0 and not fits(S, tb, b, v, y):
        return 2  # LB R28: a footprint stops short of whatever its other zones would meet
    side = S["unit_side"][b, v]
    out = 0
    for w in range(MAX_UNITS):
        if w != v and covers(S, tb, b, w, y):
            if S["unit_side"][b, w] != side or S["unit_type"][b, w] == tb.type_obstacle:
                return 2  # an enemy, or an Obstacle (Impassable): stop before it
            out = 1
    return out


@njit
def end_fall_back(S, tb, b, off_map):
    """The Fall Back is over: off the map the unit is Eliminated (FC "Fall Back" NOTE);
    otherwise it ends on the last position it entered where it may end (I9: a friendly unit's
    position is passed, not ended in), and the zone it left is settled."""
    v = np.int64(S["fb_unit"][b])
    S["fb_unit"][b] = -1
    S["fb_ask"][b] = 0
    if v < 0:
        return
    origin = np.int64(S["fb_origin"][b])
    if S["unit_where"][b, v] != WHERE_ON:
        settle(S, tb, b, origin)  # eliminated on the way (e.g. by Opportunity Fire)
        return
    if off_map:
        eliminate(S, tb, b, v)
        settle(S, tb, b, origin)
        return
    end = np.int64(S["fb_last_ok"][b])
    if end < 0:
        end = origin
    S["unit_pos"][b, v] = end
    if end != origin:
        S["unit_entry"][b, v] = -1
        S["unit_cc_target"][b, v] = -1
        settle(S, tb, b, origin)


@njit
def fall_back_step(S, tb, b, choice):
    """Move the falling-back unit one position along its route (LB "Moving the unit"), or end
    the Fall Back when its movement is spent, an obstruction stops it (I9) or the route leaves
    the map. `choice` answers a pending choice between two equal positions (-1 none).
    Returns 0 when the Fall Back is over, -2 when its owner must choose between the two
    options g_fb_route[fb_from, fb_through, fb_k] (LB "Making decisions"), -3 when the unit
    entered a position (its opponent's enemy_unit_moves window comes next: I3)."""
    v = np.int64(S["fb_unit"][b])
    if v < 0:
        return 0
    if S["unit_where"][b, v] != WHERE_ON:
        end_fall_back(S, tb, b, False)
        return 0
    cur = np.int64(S["unit_pos"][b, v])
    left = np.int64(S["fb_left"][b])
    fr = np.int64(S["fb_from"][b])
    th = np.int64(S["fb_through"][b])
    if left <= 0:
        end_fall_back(S, tb, b, False)
        return 0
    if S["fb_enter_first"][b] >= 0:
        nxt = np.int64(S["fb_enter_first"][b])
    else:
        k = np.int64(S["fb_k"][b])
        if k >= tb.g_fb_route.shape[2] or tb.g_fb_route[fr, th, k, 0] < 0:
            end_fall_back(S, tb, b, True)  # the route leaves the map (LB R10, I9)
            return 0
        o0 = np.int64(tb.g_fb_route[fr, th, k, 0])
        o1 = np.int64(tb.g_fb_route[fr, th, k, 1])
        nxt = o0
        if o1 >= 0:
            if choice != o0 and choice != o1:
                return -2
            nxt = choice
    side = _side_to(tb, cur, nxt)
    cost = crossing_cost(S, tb, b, v, cur, side) if side >= 0 else -1
    blk = _blocked(S, tb, b, v, nxt)
    if tb.g_cc_share == 0 and reserved(S, b, v, nxt):
        blk = 2  # the tabletop: another moving unit's place to go back to (plays.reserved)
    if cost < 0 or cost > left or blk == 2 or tb.g_standable[nxt] == 0:
        end_fall_back(S, tb, b, False)  # I9: stop short of the obstruction
        return 0
    S["fb_left"][b] = left - cost
    if S["fb_enter_first"][b] >= 0:
        S["fb_enter_first"][b] = -1
    else:
        S["fb_k"][b] += 1
    S["unit_pos"][b, v] = nxt
    if blk == 0:
        S["fb_last_ok"][b] = nxt
    S["fb_ask"][b] = 1
    return -3


@njit
def withdraw(S, tb, b, v):
    """Aerial unit v leaves the battlefield, keeping its statuses (FC I8: after its card, or
    at once on a Fall Back result, FC "Fall Back" NOTE); the zone it shared is settled."""
    pos = np.int64(S["unit_pos"][b, v])
    S["unit_where"][b, v] = WHERE_OFF
    S["unit_pos"][b, v] = -1
    S["unit_entry"][b, v] = -1
    S["unit_cc_target"][b, v] = -1
    cease(S, b, v)
    if pos >= 0:
        settle(S, tb, b, pos)


@njit
def apply_result(S, tb, b, u, v, result):
    """Apply a final Combat Result by attacker u on v (Table 6, "Multiple Combat Results")."""
    if result == 0:
        return
    cease(S, b, v)
    if result == FALL_BACK and S["unit_type"][b, v] == tb.type_aerial:
        withdraw(S, tb, b, v)
    elif result == FALL_BACK:
        begin_fall_back(S, tb, b, v, u, np.int64(S["unit_pos"][b, u]))
    elif result == SHAKEN:
        S["unit_status"][b, v] |= STATUS_SHAKEN
    elif result == OUT_OF_ACTION:
        S["unit_status"][b, v] |= STATUS_OUT_OF_ACTION
    elif result == ELIMINATED:
        eliminate(S, tb, b, v)


@njit
def resolve_attack(S, tb, b, u, v, ranged, code, extra_shift):
    """Flip and apply one attack of u on v; returns the final result (-1: no attack, the target
    is gone: "Stop Once Eliminated")."""
    if S["unit_where"][b, v] != WHERE_ON or S["unit_where"][b, u] != WHERE_ON:
        return -1
    if ranged:
        occ = new_occ()
        occupancy(S, tb, b, occ)
        s = ranged_shift(S, tb, b, u, v, code, occ)
    else:
        s = melee_shift(S, tb, b, u, v)
    card = flip(S, tb, b, np.int64(S["unit_side"][b, u]))
    r = final_result(card, s + extra_shift)
    apply_result(S, tb, b, u, v, r)
    return r


@njit
def point_shift(S, tb, b, u, v, f, rad, occ):
    """Net Table 4 shift of u's Target Point attack, its point at f, on v (FC I14, R16): as
    a Ranged Attack, with range, LOS and LOS Arc judged from the point; Extreme Range when v's
    centre is outside the radius `rad` (in the ground's units) but its base reaches it."""
    tu = S["unit_type"][b, u]
    tv = S["unit_type"][b, v]
    c = np.int64(S["unit_pos"][b, v])
    s = 0
    if tb.type_ranged[tu] > tb.type_protection[tv]:
        s += tb.rmod_shift[R_RATING_HIGHER]
    if tb.type_protection[tv] > tb.type_ranged[tu]:
        s += tb.rmod_shift[R_PROTECTION_HIGHER]
    if tb.g_dist[f, c] > rad:
        s += tb.rmod_shift[R_EXTREME]
    if not in_arc(tb, c, np.int64(S["unit_facing"][b, v]), f):
        s += tb.rmod_shift[R_OUTSIDE_ARC]
    if line_of_sight(tb, occ, f, c) & (LOS_OBSTRUCTED | LOS_IN_COVER):
        s += tb.rmod_shift[R_OBSTRUCTED_COVER]
    if tb.g_ground[c] > tb.g_ground[S["unit_pos"][b, u]] or tv == tb.type_aerial:
        s += tb.rmod_shift[R_TARGET_HIGHER_OR_AERIAL]
    if in_close_combat(S, tb, b, v):
        s += tb.rmod_shift[R_TARGET_IN_CC]
    return np.int64(s)


@njit
def resolve_point_attack(S, tb, b, u, v, f, rad, extra_shift):
    """Flip and apply u's Target Point attack (point f) on v; Fall Back moves directly away
    from the point (Table 6, R7), from the attacker when v stands on it. Returns the final
    result, -1 when there is no attack (v or u gone)."""
    if S["unit_where"][b, v] != WHERE_ON or S["unit_where"][b, u] != WHERE_ON:
        return -1
    occ = new_occ()
    occupancy(S, tb, b, occ)
    s = point_shift(S, tb, b, u, v, f, rad, occ)
    card = flip(S, tb, b, np.int64(S["unit_side"][b, u]))
    r = final_result(card, s + extra_shift)
    if r == FALL_BACK and S["unit_type"][b, v] != tb.type_aerial and S["unit_pos"][b, v] != f:
        cease(S, b, v)
        begin_fall_back(S, tb, b, v, u, f)
    else:
        apply_result(S, tb, b, u, v, r)
    return r
