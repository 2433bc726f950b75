"""Resolving cards: the resolution stack and the effect steps of the card-effect table
(FC Golden Rules "Sequential Events", "Exactly As Written", "One At A Time"; I3, I4; R12, R13).

A card part played on a unit is pushed as a frame (state.py). Its phases, in order:

    PH_CANCEL_W   the opponent's Cancel window (trigger enemy_action_played / _situation_played)
    PH_STEP       run the next effect step, or finish the card (-> its owner's discard pile)
    PH_MOVE       the mover declares its path (FC "Measuring Movement", R41): the next
                  position, or the path is complete (no unit moves)  (STAGE_MOVE)
    PH_WALK       the mover walks the declared path: the next position (PH_CONTACT_W first
                  when it makes contact), or, once walked or blocked, PH_FACE
    PH_CONTACT_W  the contacted unit's owner: enemy_contact window before the mover enters
    PH_MOVE_W     the mover's opponent: enemy_unit_moves window after each position entered
                  (the rest of the path declared and seen: R42), then PH_WALK
    PH_FACE       the unit faces a side (after a move, Stand To)     (STAGE_FACING)
    PH_TARGET     the attacker's player picks the target             (STAGE_TARGET)
    PH_RANGED_W   the target's owner: ranged_attack_on_unit window, before the flip
    PH_RANGED_FLIP
    PH_MELEE_W1   the target's owner: melee_attack_on_unit window, before the flip
    PH_MELEE_W2   the attacker's owner: unit_attack_declared window (e.g. Battle Fury)
    PH_MELEE_FLIP
    PH_MELEE_W3   the target's owner: melee_attack_resolved_on_unit window (Counterattack)
    PH_ENTER      the mover enters fr_aux: sharing an enemy's zone stops all movement
    PH_VOLLEY     an "all available" card: the player names the next unit that attacks the
                  same target (fr_aux while it attacks), or none more
    PH_AERIAL_SIDE an Aerial attack's target chosen: its player picks the adjacent zone it is
                  placed partly in (its entry zone, LB-3.5.5), then it attacks in melee (I8)
                                                                       (STAGE_AERIAL_SIDE)
    PH_INFILTRATE the Infiltrator's player picks where it enters, then its facing (FC I9)
                                                                       (STAGE_INFILTRATE)
    PH_CC_TARGET  the mover entered a zone of several enemies: its player picks the one it is
                  in contact with, its original target                 (STAGE_CC_TARGET)
    PH_TP_PLACE   a Target Point attack: its player places the point (STAGE_TARGET_POINT); the
                  top card of its deck gives the Random Drift (FC I6), PH_DRIFT_TIE when the
                  drift meets two positions equally (STAGE_DRIFT_TIE, the reference unit's
                  owner); then every unit within the radius and LOS of the final point is
                  attacked in slot order: PH_TP_NEXT, PH_TP_W (its owner's window), PH_TP_FLIP
    PH_NEXT       step done

A Situation played in a window is pushed above and resolves first (an Interrupt "takes effect
immediately", a Cancel "prior to the original card"); then the lower frame runs its phase
again, so its window is asked again until its player passes (any number of Situations). A
cancelled card or one whose unit ceased its activity (Table 6) runs no further step.
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
)
from envs.tactical_assault.actions import (
    STAGE_AERIAL_SIDE,
    STAGE_CC_TARGET,
    STAGE_DRIFT_TIE,
    STAGE_FACING,
    STAGE_INFILTRATE,
    STAGE_MOVE,
    STAGE_RUN,
    STAGE_TARGET,
    STAGE_TARGET_POINT,
    STAGE_VOLLEY,
    STAGE_WINDOW,
)
from envs.tactical_assault.cards import flip
from envs.tactical_assault.combat import resolve_attack, resolve_point_attack, withdraw
from envs.tactical_assault.geometry import line_of_sight
from envs.tactical_assault.plays import (
    TRIG_ACTION_PLAYED,
    TRIG_ATTACK_DECLARED,
    TRIG_ENEMY_CONTACT,
    TRIG_ENEMY_MOVES,
    TRIG_MELEE_ON,
    TRIG_MELEE_RESOLVED,
    TRIG_RANGED_ON,
    TRIG_SITUATION_PLAYED,
    aerial_target_ok,
    can_step,
    contacts_enemy,
    covers,
    crossing_cost,
    in_close_combat,
    melee_target_ok,
    new_occ,
    occupancy,
    part_holder,
    pos_state,
    ranged_target_ok,
)
from envs.tactical_assault.state import (
    FR_CANCELLED,
    FR_CEASED,
    MAX_UNITS,
    PLACE_DISCARD,
    PLACE_PLAYED,
    STATUS_OUT_OF_ACTION,
    STATUS_SHAKEN,
    WHERE_EXITED,
    WHERE_OFF,
    WHERE_ON,
)

PH_CANCEL_W = 0
PH_STEP = 1
PH_MOVE = 2
PH_CONTACT_W = 3
PH_MOVE_W = 4
PH_FACE = 5
PH_TARGET = 6
PH_RANGED_W = 7
PH_RANGED_FLIP = 8
PH_MELEE_W1 = 9
PH_MELEE_W2 = 10
PH_MELEE_FLIP = 11
PH_MELEE_W3 = 12
PH_NEXT = 13
PH_ENTER = 14  # the mover enters the position fr_aux (an enemy's: Close Combat)
PH_VOLLEY = 15  # "all available" (I12): the next unit to join the attack     (STAGE_VOLLEY)
PH_AERIAL_SIDE = 18  # the Aerial unit's player picks the zone it attacks from (STAGE_AERIAL_SIDE)
PH_INFILTRATE = 17  # the Infiltrator's player picks where it enters (FC I9) (STAGE_INFILTRATE)
PH_CC_TARGET = 16  # the mover entered a zone of several enemies: its player picks which one
# is its original target (LB "Multiple unit close combat: moving into")  (STAGE_CC_TARGET)
PH_TP_PLACE = 19  # the attacker's player places the Target Point (FC I14) (STAGE_TARGET_POINT)
PH_DRIFT_TIE = 20  # the reference unit's owner picks between equal drift positions (I6)
#                                                                         (STAGE_DRIFT_TIE)
PH_TP_NEXT = 21  # the next unit the Target Point attack reaches (fr_tp_mask), or done
PH_TP_W = 22  # that unit's owner: ranged_attack_on_unit window, before the flip
PH_TP_FLIP = 23
PH_WALK = 24  # the mover walks its declared path to the next position (FC R41, R42)
N_PHASES = 25  # one more than the last PH_*: the size of the observation's phase one-hot


@njit
def push(S, tb, b, p, k, play, u, forced):
    """Seat p plays card k's part `play` on its unit u; the frame starts at its Cancel window.
    An Action uses the unit's Action for the turn even if it is cancelled (R13)."""
    i = np.int64(S["depth"][b])
    S["depth"][b] = i + 1
    S["card_place"][b, p, k] = PLACE_PLAYED
    S["fr_player"][b, i] = p
    S["fr_card"][b, i] = k
    S["fr_play"][b, i] = play
    S["fr_unit"][b, i] = u
    S["fr_step"][b, i] = 0
    S["fr_phase"][b, i] = PH_CANCEL_W
    S["fr_target"][b, i] = forced
    S["fr_shift"][b, i] = 0
    S["fr_left"][b, i] = 0
    S["fr_moved"][b, i] = 0
    S["fr_flags"][b, i] = 0
    S["fr_contact"][b, i] = 0
    S["fr_aux"][b, i] = -1
    S["mv_len"][b, i] = 0
    if tb.play_part[play] == PART_ACTION:
        S["unit_acted"][b, u] = 1
    S["stage"][b] = STAGE_RUN


@njit
def _window(S, b, seat, trigger, unit, enemy):
    S["stage"][b] = STAGE_WINDOW
    S["current"][b] = seat
    S["win_trigger"][b] = trigger
    S["win_unit"][b] = unit
    S["win_enemy"][b] = enemy


@njit
def finish(S, b):
    """The top card has resolved: it goes to its owner's discard pile. Returns its owner."""
    i = np.int64(S["depth"][b]) - 1
    p = np.int64(S["fr_player"][b, i])
    S["card_place"][b, p, S["fr_card"][b, i]] = PLACE_DISCARD
    S["fr_player"][b, i] = -1
    S["fr_card"][b, i] = -1
    S["fr_play"][b, i] = -1
    S["fr_unit"][b, i] = -1
    S["fr_target"][b, i] = -1
    S["depth"][b] = i
    return p


@njit
def _done(S, tb, b):
    """The top card ends: an Aerial unit it placed on the battlefield is withdrawn (FC I8),
    then the card goes to the discard pile (finish)."""
    i = np.int64(S["depth"][b]) - 1
    u = np.int64(S["fr_unit"][b, i])
    play = np.int64(S["fr_play"][b, i])
    if (
        u >= 0
        and S["unit_type"][b, u] == tb.type_aerial
        and S["unit_where"][b, u] == WHERE_ON
        and tb.step_kind[play, 0] == EFFECT_AERIAL_ATTACK
    ):
        withdraw(S, tb, b, u)
    return finish(S, b)


@njit
def enter(S, tb, b, i, u, y):
    """Frame i's mover u enters neighbouring position y (paying its cost). Into an enemy's
    position: the units share it and are in Close Combat, u recorded as entering from its
    position and targeting that enemy; all movement stops (LB "Entering close combat",
    "Sharing a zone", "Multiple unit close combat: moving into": with several enemies there,
    the mover's player picks its target next, PH_CC_TARGET)."""
    pos = np.int64(S["unit_pos"][b, u])
    cost = -1
    for k in range(tb.g_n_dirs):
        if tb.g_neighbour[pos, k] == y:
            if tb.g_cc_share == 0:
                # the tabletop: the step is checked again (a window before it may have moved
                # units: R28, R31)
                left = np.int64(S["fr_left"][b, i])
                cost = can_step(S, tb, b, u, pos, k, left, S["fr_contact"][b, i] != 0)
            else:
                cost = crossing_cost(S, tb, b, u, pos, k)
    if cost < 0 or cost > S["fr_left"][b, i] or S["unit_where"][b, u] != WHERE_ON:
        _stop_moving(S, tb, b, i, u)  # blocked since it was declared (R42): the walk ends
        S["fr_phase"][b, i] = PH_FACE
        return
    if tb.g_cc_share == 0:
        # the tabletop (R28, R31): cells are never shared; a cell in contact with an enemy
        # is Close Combat and all movement stops there
        S["fr_left"][b, i] -= cost
        S["fr_moved"][b, i] += 1
        S["unit_pos"][b, u] = y
        if contacts_enemy(S, tb, b, u, y) >= 0:
            S["fr_last_ok"][b, i] = y
            S["fr_phase"][b, i] = PH_NEXT
            return
        alone = True
        for w in range(MAX_UNITS):
            if w != u and S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == y:
                alone = False
        if alone:
            S["fr_last_ok"][b, i] = y
        S["fr_phase"][b, i] = PH_MOVE_W
        return
    h = part_holder(S, tb, b, u, y)
    if h >= 0:
        y = np.int64(S["unit_pos"][b, h])  # LB R28: it shares the oversized unit's centre zone
    target = -1
    n_enemy = 0
    for w in range(MAX_UNITS):
        if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == y:
            if S["unit_side"][b, w] != S["unit_side"][b, u]:
                n_enemy += 1
                if target < 0 or S["unit_entry"][b, w] < 0:
                    target = w  # until its player picks (PH_CC_TARGET): the first occupant
    S["fr_left"][b, i] -= cost
    S["fr_moved"][b, i] += 1
    S["unit_pos"][b, u] = y
    if target >= 0:
        S["unit_entry"][b, u] = pos
        S["unit_cc_target"][b, u] = target
        S["fr_phase"][b, i] = PH_CC_TARGET if n_enemy > 1 else PH_NEXT
    else:
        alone = True
        for w in range(MAX_UNITS):
            if w != u and covers(S, tb, b, w, y):
                alone = False
        if alone:
            S["fr_last_ok"][b, i] = y
        S["fr_phase"][b, i] = PH_MOVE_W


@njit
def _stop_moving(S, tb, b, i, u):
    """A move stopped (the unit ceased its activity) while passing through a friendly unit's
    position: the unit goes back to the last position of its path it may end in (FC "Sharing
    Space"; reading R24 of Fantasy Cards)."""
    if S["fr_moved"][b, i] == 0 or S["unit_where"][b, u] != WHERE_ON:
        return
    if in_close_combat(S, tb, b, u):
        return
    pos = np.int64(S["unit_pos"][b, u])
    for w in range(MAX_UNITS):
        if w != u and covers(S, tb, b, w, pos):  # a friend's zone, or a part of one (LB R28)
            S["unit_pos"][b, u] = S["fr_last_ok"][b, i]
            return


@njit_inline
def walk(S, tb, b, i, u, p):
    """Frame i's mover u (of seat p) takes the next position of its declared path (FC
    "Measuring Movement"; readings R41, R42 of Fantasy Cards): checked again as a step now (a
    reaction may have moved units since it was declared); into contact the contacted unit's
    owner is asked first (PH_CONTACT_W). A path walked to its end, or blocked, ends the walk:
    on a friend's position the unit goes back to the last position it may end in (R24); a
    path declared to leave the map leaves it (R22)."""
    if S["unit_where"][b, u] != WHERE_ON:
        S["fr_phase"][b, i] = PH_NEXT
        return
    m = np.int64(S["fr_moved"][b, i])
    pos = np.int64(S["unit_pos"][b, u])
    left = np.int64(S["fr_left"][b, i])
    if m >= S["mv_len"][b, i]:
        if (
            S["mv_exit"][b, i]
            and tb.vc_exit_side == p
            and tb.vc_exit[pos]
            and left >= 1
            and pos_state(S, tb, b, u, pos) == 0
        ):
            S["unit_where"][b, u] = WHERE_EXITED  # R22: off the map, not Eliminated
            S["unit_pos"][b, u] = -1
            S["units_exited"][b, p] += 1
            S["fr_phase"][b, i] = PH_NEXT
            return
        _stop_moving(S, tb, b, i, u)
        S["fr_phase"][b, i] = PH_FACE
        return
    y = np.int64(S["mv_path"][b, i, m])
    contact = S["fr_contact"][b, i] != 0
    cost = -1
    for k in range(tb.g_n_dirs):
        if tb.g_neighbour[pos, k] == y:
            cost = can_step(S, tb, b, u, pos, k, left, contact)
    play = np.int64(S["fr_play"][b, i])
    j = np.int64(S["fr_step"][b, i])
    if tb.step_direction[play, j] != 0 and pos_state(S, tb, b, u, y) != 0:
        cost = -1  # R29: directly away stops short of any unit
    if cost < 0:
        _stop_moving(S, tb, b, i, u)
        S["fr_phase"][b, i] = PH_FACE
        return
    if pos_state(S, tb, b, u, y) == 2 or (
        tb.g_cc_share == 0 and contacts_enemy(S, tb, b, u, y) >= 0
    ):
        S["fr_aux"][b, i] = y
        S["fr_phase"][b, i] = PH_CONTACT_W
    else:
        enter(S, tb, b, i, u, y)


@njit
def _shooter(S, b, i, u):
    """The unit making frame i's Ranged Attack: a unit that joined an "all available" attack
    (fr_aux), else the unit the card was played on."""
    w = np.int64(S["fr_aux"][b, i])
    return w if w >= 0 else u


@njit
def run_frame(S, tb, b):
    """Run the top frame until it asks a decision (stage set) or finishes (returns its
    owner's seat; -1 while it is still running or waiting)."""
    i = np.int64(S["depth"][b]) - 1
    p = np.int64(S["fr_player"][b, i])
    u = np.int64(S["fr_unit"][b, i])
    play = np.int64(S["fr_play"][b, i])
    ph = S["fr_phase"][b, i]
    stopped = S["fr_flags"][b, i] & (FR_CANCELLED | FR_CEASED) != 0
    if ph == PH_CANCEL_W:
        if stopped:
            return _done(S, tb, b)
        trig = TRIG_ACTION_PLAYED if tb.play_part[play] == PART_ACTION else TRIG_SITUATION_PLAYED
        _window(S, b, 1 - p, trig, u, -1)
        return -1
    if stopped:
        _stop_moving(S, tb, b, i, u)
        return _done(S, tb, b)
    j = np.int64(S["fr_step"][b, i])
    if ph == PH_NEXT:
        S["fr_step"][b, i] = j + 1
        S["fr_phase"][b, i] = PH_STEP
        return -1
    if j >= tb.step_kind.shape[1] or tb.step_kind[play, j] < 0:
        return _done(S, tb, b)
    kind = tb.step_kind[play, j]
    v = np.int64(S["fr_target"][b, i])
    if ph == PH_STEP:
        if kind == EFFECT_MOVE:
            if S["unit_where"][b, u] != WHERE_ON or in_close_combat(S, tb, b, u):
                S["fr_phase"][b, i] = PH_NEXT
                return -1
            if tb.step_direction[play, j] != 0:  # away_from_enemy (Evade)
                if v < 0 or S["unit_where"][b, v] != WHERE_ON:
                    S["fr_phase"][b, i] = PH_NEXT
                    return -1
                S["fr_from"][b, i] = S["unit_pos"][b, v]
                S["fr_start"][b, i] = S["unit_pos"][b, u]
            S["fr_left"][b, i] = tb.g_dist_units[tb.step_distance[play, j]]
            S["fr_moved"][b, i] = 0
            S["fr_last_ok"][b, i] = S["unit_pos"][b, u]
            S["fr_contact"][b, i] = tb.step_contact[play, j]
            S["mv_len"][b, i] = 0  # R41: a new path is declared
            S["mv_left"][b, i] = S["fr_left"][b, i]
            S["mv_exit"][b, i] = 0
            for t in range(S["mv_path"].shape[2]):
                S["mv_path"][b, i, t] = -1
            S["fr_phase"][b, i] = PH_MOVE
        elif kind == EFFECT_MELEE_ATTACK or kind == EFFECT_RANGED_ATTACK:
            ranged = kind == EFFECT_RANGED_ATTACK
            code = np.int64(tb.step_range[play, j])
            occ = new_occ()
            occupancy(S, tb, b, occ)
            n = 0
            for w in range(MAX_UNITS):
                if v >= 0 and w != v:
                    continue
                if ranged:
                    ok = ranged_target_ok(S, tb, b, occ, u, w, code)
                else:
                    ok = melee_target_ok(S, b, tb, u, w)
                if ok:
                    n += 1
            if n == 0:
                S["fr_phase"][b, i] = PH_NEXT  # e.g. Assault ended out of contact
            elif v >= 0:
                S["fr_phase"][b, i] = PH_RANGED_W if ranged else PH_MELEE_W1
            else:
                S["fr_phase"][b, i] = PH_TARGET
        elif kind == EFFECT_RECOVER:
            S["unit_status"][b, u] &= ~np.uint8(STATUS_SHAKEN)
            S["fr_phase"][b, i] = PH_NEXT
        elif kind == EFFECT_BACK_IN_ACTION:
            S["unit_status"][b, u] &= ~np.uint8(STATUS_OUT_OF_ACTION)
            S["fr_phase"][b, i] = PH_NEXT
        elif kind == EFFECT_CHANGE_FACING:
            S["fr_phase"][b, i] = PH_FACE
        elif kind == EFFECT_SHIFT_ATTACK:
            if i >= 1:
                S["fr_shift"][b, i - 1] += tb.step_shift[play, j]
            S["fr_phase"][b, i] = PH_NEXT
        elif kind == EFFECT_PASS_ALONG:
            # I7: the next Action / Situation played on u passes to a friendly unit near it
            S["unit_pass"][b, u] |= np.uint8(1 if tb.step_what[play, j] == 0 else 2)
            S["unit_pass_dist"][b, u] = tb.step_distance[play, j]
            S["fr_phase"][b, i] = PH_NEXT
        elif kind == EFFECT_AERIAL_ATTACK:
            if S["unit_where"][b, u] != WHERE_OFF:
                S["fr_phase"][b, i] = PH_NEXT
            elif v >= 0:  # Swoop: the enemy that moves
                ok = aerial_target_ok(S, tb, b, u, v)
                S["fr_phase"][b, i] = PH_AERIAL_SIDE if ok else PH_NEXT
            else:
                S["fr_phase"][b, i] = PH_TARGET
        elif kind == EFFECT_REMOVE_OBSTACLE:
            S["fr_phase"][b, i] = PH_TARGET  # the player picks the Obstacle (FC I13)
        elif kind == EFFECT_INFILTRATE:
            S["fr_phase"][b, i] = PH_INFILTRATE if S["unit_where"][b, u] == WHERE_OFF else PH_NEXT
        elif kind == EFFECT_TARGET_POINT_ATTACK:
            S["fr_phase"][b, i] = PH_TP_PLACE if S["unit_where"][b, u] == WHERE_ON else PH_NEXT
        elif kind == EFFECT_CANCEL_CARD:
            if i >= 1:
                S["fr_flags"][b, i - 1] |= FR_CANCELLED
            S["fr_phase"][b, i] = PH_NEXT
        else:
            S["fr_phase"][b, i] = PH_NEXT  # never offered (plays.py docstring)
        return -1
    if ph == PH_MOVE:
        S["stage"][b] = STAGE_MOVE
        S["current"][b] = p
        return -1
    if ph == PH_CONTACT_W:
        y = np.int64(S["fr_aux"][b, i])
        h = part_holder(S, tb, b, u, y)
        if h >= 0:
            y = np.int64(S["unit_pos"][b, h])  # contact with an oversized unit (LB R28)
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] == WHERE_ON and tb.g_contact[y, S["unit_pos"][b, w]]:
                if S["unit_side"][b, w] != p and tb.type_protection[S["unit_type"][b, w]] != 0:
                    # the first enemy (by slot) the mover would contact (R31 on the tabletop)
                    _window(S, b, 1 - p, TRIG_ENEMY_CONTACT, w, u)
                    return -1
        S["fr_phase"][b, i] = PH_ENTER  # the enemy is gone: the walk goes on (enter checks)
        return -1
    if ph == PH_ENTER:
        y = np.int64(S["fr_aux"][b, i])
        S["fr_aux"][b, i] = -1
        enter(S, tb, b, i, u, y)
        return -1
    if ph == PH_MOVE_W:
        _window(S, b, 1 - p, TRIG_ENEMY_MOVES, u, -1)
        return -1
    if ph == PH_WALK:
        walk(S, tb, b, i, u, p)
        return -1
    if ph == PH_FACE:
        S["stage"][b] = STAGE_FACING
        S["current"][b] = p
        S["sel_unit"][b] = u
        return -1
    if ph == PH_AERIAL_SIDE:
        S["stage"][b] = STAGE_AERIAL_SIDE
        S["current"][b] = p
        return -1
    if ph == PH_INFILTRATE:
        S["stage"][b] = STAGE_INFILTRATE
        S["current"][b] = p
        S["sel_unit"][b] = u
        return -1
    if ph == PH_CC_TARGET:
        S["stage"][b] = STAGE_CC_TARGET
        S["current"][b] = p
        return -1
    if ph == PH_TARGET:
        S["stage"][b] = STAGE_TARGET
        S["current"][b] = p
        return -1
    if ph == PH_RANGED_W:
        _window(S, b, 1 - p, TRIG_RANGED_ON, v, _shooter(S, b, i, u))
        return -1
    if ph == PH_VOLLEY:
        # FC I12 "all available": the player names the next unit to join, or no more
        S["fr_aux"][b, i] = -1
        if S["unit_where"][b, v] != WHERE_ON:
            S["fr_phase"][b, i] = PH_NEXT
            return -1
        S["stage"][b] = STAGE_VOLLEY
        S["current"][b] = p
        return -1
    if ph == PH_MELEE_W1:
        _window(S, b, 1 - p, TRIG_MELEE_ON, v, u)
        return -1
    if ph == PH_MELEE_W2:
        _window(S, b, p, TRIG_ATTACK_DECLARED, u, v)
        return -1
    if ph == PH_RANGED_FLIP or ph == PH_MELEE_FLIP:
        ranged = ph == PH_RANGED_FLIP
        extra = np.int64(tb.step_shift[play, j]) + np.int64(S["fr_shift"][b, i])
        S["fr_shift"][b, i] = 0
        ok = True
        if not ranged and not melee_target_ok(S, b, tb, u, v):
            ok = False  # contact lost before the flip
        att = _shooter(S, b, i, u) if ranged else u
        if ok:
            resolve_attack(S, tb, b, att, v, ranged, np.int64(tb.step_range[play, j]), extra)
        if not ranged and S["unit_where"][b, v] == WHERE_ON and S["unit_where"][b, u] == WHERE_ON:
            S["fr_phase"][b, i] = PH_MELEE_W3
        elif ranged and tb.play_all_available[play]:
            S["fr_phase"][b, i] = PH_VOLLEY
        else:
            S["fr_phase"][b, i] = PH_NEXT
        return -1
    if ph == PH_MELEE_W3:
        _window(S, b, 1 - p, TRIG_MELEE_RESOLVED, v, u)
        return -1
    if ph == PH_TP_PLACE:
        S["stage"][b] = STAGE_TARGET_POINT
        S["current"][b] = p
        return -1
    if ph == PH_DRIFT_TIE:
        S["stage"][b] = STAGE_DRIFT_TIE
        S["current"][b] = S["unit_side"][b, S["fr_aux"][b, i]]
        return -1
    if ph == PH_TP_NEXT:
        # FC I14: the next unit reached, in slot order (each flips its own card)
        m = S["fr_tp_mask"][b, i]
        S["fr_target"][b, i] = -1
        S["fr_phase"][b, i] = PH_NEXT
        for w in range(MAX_UNITS):
            if m & (np.uint64(1) << np.uint64(w)):
                m &= ~(np.uint64(1) << np.uint64(w))
                if S["unit_where"][b, w] == WHERE_ON:
                    S["fr_target"][b, i] = w
                    S["fr_phase"][b, i] = PH_TP_W
                    break
        S["fr_tp_mask"][b, i] = m
        return -1
    if ph == PH_TP_W:
        _window(S, b, S["unit_side"][b, v], TRIG_RANGED_ON, v, u)
        return -1
    if ph == PH_TP_FLIP:
        extra = np.int64(tb.step_shift[play, j]) + np.int64(S["fr_shift"][b, i])
        S["fr_shift"][b, i] = 0
        rad = np.int64(tb.g_dist_units[tb.step_radius[play, j]])
        resolve_point_attack(S, tb, b, u, v, np.int64(S["fr_from"][b, i]), rad, extra)
        S["fr_phase"][b, i] = PH_TP_NEXT
        return -1
    S["fr_phase"][b, i] = PH_NEXT
    return -1


@njit
def window_passed(S, b):
    """The asked player passed the top frame's window: its phase moves on."""
    i = np.int64(S["depth"][b]) - 1
    ph = S["fr_phase"][b, i]
    if ph == PH_CANCEL_W:
        S["fr_phase"][b, i] = PH_STEP
    elif ph == PH_CONTACT_W:
        S["fr_phase"][b, i] = PH_ENTER
    elif ph == PH_MOVE_W:
        S["fr_phase"][b, i] = PH_WALK
    elif ph == PH_RANGED_W:
        S["fr_phase"][b, i] = PH_RANGED_FLIP
    elif ph == PH_MELEE_W1:
        S["fr_phase"][b, i] = PH_MELEE_W2
    elif ph == PH_MELEE_W2:
        S["fr_phase"][b, i] = PH_MELEE_FLIP
    elif ph == PH_TP_W:
        S["fr_phase"][b, i] = PH_TP_FLIP
    else:
        S["fr_phase"][b, i] = PH_NEXT
    S["stage"][b] = STAGE_RUN


@njit
def place_target_point(S, tb, b, z):
    """The top frame's Target Point is placed at z (FC I14). Random Drift (I6): the attacker
    flips the top card of its own deck (discarded); its Combat Result gives the distance and
    the reference unit (the attacker, or the unit nearest z other than the attacker, the lowest
    slot among equals: R33); the point moves along the line from z through the reference's
    centre, stopping on it (g_drift). Equal positions: the reference unit's owner picks."""
    i = np.int64(S["depth"][b]) - 1
    p = np.int64(S["fr_player"][b, i])
    u = np.int64(S["fr_unit"][b, i])
    r = flip(S, tb, b, p)
    d = np.int64(tb.drift_distance[r])
    ref = tb.drift_reference[r]
    w = -1
    if d >= 0 and ref == 1:  # attacking_unit
        w = u
    elif d >= 0 and ref == 2:  # nearest_other_unit
        best = 1 << 30
        for x in range(MAX_UNITS):
            if x != u and S["unit_where"][b, x] == WHERE_ON:
                dx = np.int64(tb.g_dist[z, S["unit_pos"][b, x]])
                if dx < best:
                    best = dx
                    w = x
    if w < 0 or S["unit_where"][b, w] != WHERE_ON or S["unit_pos"][b, w] == z:
        land_target_point(S, tb, b, z)
        return
    ref_pos = np.int64(S["unit_pos"][b, w])
    if tb.g_drift[z, ref_pos, d, 1] >= 0:
        S["fr_from"][b, i] = z
        S["fr_start"][b, i] = ref_pos
        S["fr_left"][b, i] = d
        S["fr_aux"][b, i] = w
        S["fr_phase"][b, i] = PH_DRIFT_TIE
        return
    land_target_point(S, tb, b, np.int64(tb.g_drift[z, ref_pos, d, 0]))


@njit
def land_target_point(S, tb, b, f):
    """The Target Point ends at f (FC I14, R16): every unit but Obstacles whose centre is
    within the radius of f, or whose base reaches it (Extreme Range), and to which LOS is drawn
    from f, is to be attacked (fr_tp_mask)."""
    i = np.int64(S["depth"][b]) - 1
    play = np.int64(S["fr_play"][b, i])
    j = np.int64(S["fr_step"][b, i])
    S["fr_from"][b, i] = f
    S["fr_aux"][b, i] = -1
    reach = np.int64(tb.g_dist_units[tb.step_radius[play, j]]) + np.int64(tb.g_extreme_extra)
    occ = new_occ()
    occupancy(S, tb, b, occ)
    m = np.uint64(0)
    for v in range(MAX_UNITS):
        if S["unit_where"][b, v] != WHERE_ON or tb.type_protection[S["unit_type"][b, v]] == 0:
            continue
        c = np.int64(S["unit_pos"][b, v])
        if tb.g_dist[f, c] <= reach and line_of_sight(tb, occ, f, c) != 0:
            m |= np.uint64(1) << np.uint64(v)
    S["fr_tp_mask"][b, i] = m
    S["fr_phase"][b, i] = PH_TP_NEXT
