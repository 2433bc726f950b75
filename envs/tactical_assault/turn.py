"""The Tactical Assault game, one decision at a time: `advance`, `legal_actions`,
`apply_action` (the engine brief's shape; actions.py has the encoding).

`apply_action` applies a legal action (the caller checked it) and calls `advance`, which runs
the resolution machine (resolve.py, combat.py: Fall Back moves) until a decision is asked
(S["stage"] != STAGE_RUN) or the game is over. flow.py holds the game around the cards.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import randint
from envs.fantasy_cards.tables import (
    EFFECT_AERIAL_ATTACK,
    EFFECT_MELEE_ATTACK,
    EFFECT_REMOVE_OBSTACLE,
    PART_ACTION,
    PART_SITUATION,
    TIMING_ACTION,
)
from envs.tactical_assault.actions import (
    A_ACTION,
    A_DISCARD,
    A_EXIT,
    A_FACING,
    A_PASS,
    A_POS,
    A_SITUATION,
    A_UNIT,
    STAGE_AERIAL_SIDE,
    STAGE_CC_TARGET,
    STAGE_CHOOSE_FORCE,
    STAGE_DEPLOY_POS,
    STAGE_DEPLOY_UNIT,
    STAGE_DISCARD,
    STAGE_DRIFT_TIE,
    STAGE_FACING,
    STAGE_FALL_BACK_TIE,
    STAGE_GAME_OVER,
    STAGE_INFILTRATE,
    STAGE_MAIN,
    STAGE_MOVE,
    STAGE_MOVE_OUT,
    STAGE_PASS_TO,
    STAGE_PLAY_UNIT,
    STAGE_RUN,
    STAGE_STAYER,
    STAGE_TARGET,
    STAGE_TARGET_POINT,
    STAGE_VOLLEY,
    STAGE_WINDOW,
)
from envs.tactical_assault.combat import (
    fall_back_step,
    keep_only,
    move_out_options,
    place_out,
    settle,
)
from envs.tactical_assault.flow import (
    GW_NEW,
    after_card,
    check_victory,
    choose_ok,
    choose_unit,
    discard_done,
    end_turn,
    general_passed,
    next_chooser,
    place_map,
    placed,
    to_place,
)
from envs.tactical_assault.plays import (
    TRIG_ENEMY_CONTACT,
    TRIG_ENEMY_MOVES,
    TRIG_MELEE_RESOLVED,
    aerial_cells,
    aerial_target_ok,
    away_options,
    can_step,
    contacts_enemy,
    holds_pass,
    infiltrate_ok,
    may_be_usable,
    melee_target_ok,
    move_options,
    new_occ,
    obstacle_in_reach,
    occupancy,
    pass_receiver_ok,
    playable_on_some_unit,
    point_in_sight,
    pos_state,
    ranged_target_ok,
    usable,
    volley_joiner_ok,
    window_fits,
)
from envs.tactical_assault.resolve import (
    PH_AERIAL_SIDE,
    PH_MELEE_W1,
    PH_NEXT,
    PH_RANGED_W,
    PH_WALK,
    land_target_point,
    place_target_point,
    push,
    run_frame,
    window_passed,
)
from envs.tactical_assault.state import (
    MAX_DIRS,
    MAX_PATH,
    MAX_POS,
    MAX_UNITS,
    PLACE_DISCARD,
    PLACE_HAND,
    WHERE_OFF,
    WHERE_ON,
)
from envs.tactical_assault.tables import MAX_STEPS

MAX_RUN = 4096  # machine steps in one advance: more is a bug


@njit_inline
def advance(S, tb, b):
    """Run game b until a decision is asked or the game is over. Inlined into apply_action,
    its one caller: as a function of its own it compiled the resolution machine's whole call
    tree (run_frame's) once more, ~4 s of every cold compile."""
    for _ in range(MAX_RUN):
        if S["stage"][b] != STAGE_RUN:
            return
        v = np.int64(S["out_unit"][b])
        if v >= 0:
            S["stage"][b] = STAGE_MOVE_OUT  # R18: its owner picks among equally near zones
            S["current"][b] = S["unit_side"][b, v]
            return
        z = np.int64(S["settle_zone"][b])
        if z >= 0:
            S["stage"][b] = STAGE_STAYER  # LB "Loss of original target" Note: the side picks
            for w in range(MAX_UNITS):
                if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z:
                    S["current"][b] = S["unit_side"][b, w]
            return
        v = np.int64(S["fb_unit"][b])
        if v >= 0 and S["depth"][b] <= S["fb_depth"][b]:
            if S["fb_ask"][b]:
                # I3: a Fall Back is a move; its opponent may interrupt it where it now is
                S["stage"][b] = STAGE_WINDOW
                S["current"][b] = 1 - S["unit_side"][b, v]
                S["win_trigger"][b] = TRIG_ENEMY_MOVES
                S["win_unit"][b] = v
                S["win_enemy"][b] = -1
                return
            if fall_back_step(S, tb, b, -1) == -2:
                S["stage"][b] = STAGE_FALL_BACK_TIE
                S["current"][b] = S["unit_side"][b, v]
                return
            continue
        if S["depth"][b] == 0:
            return  # unreachable: every flow asks a decision
        q = run_frame(S, tb, b)
        if q >= 0:
            if check_victory(S, tb, b):  # R8: after each card finishes resolving
                return
            if S["depth"][b] == 0:
                after_card(S, tb, b, q)
            else:
                S["stage"][b] = STAGE_RUN
    S["stage"][b] = STAGE_GAME_OVER  # a runaway game stops (a bug if it ever happens)


@njit
def _top(S, b):
    return np.int64(S["depth"][b]) - 1


@njit
def _list_situations(S, tb, b, p, general, new_only, occ, scratch, best, out, n):
    """Append to out[n:] the Situations player p may play now: those that fit the open
    window (plays.window_fits) and are usable on some unit; returns the new count."""
    for k in range(tb.n_cards):
        # window_fits asks this first; read here, the call is made for hand cards only
        if S["card_place"][b, p, k] != PLACE_HAND:
            continue
        if window_fits(S, tb, b, p, k, general, new_only):
            play = np.int64(tb.card_situation[k])
            if playable_on_some_unit(S, tb, b, p, play, occ, scratch, best):
                out[n] = A_SITUATION + k
                n += 1
    return n


@njit_inline
def _window_may_offer(S, tb, b, p):
    """Some card of p's hand fits the open window (plays.window_fits), so its Situations must
    be checked for use; otherwise the window offers only "pass" (self-play's most frequent
    decision: answered without the occupancy and LOS set-up of a full listing)."""
    general = S["win_trigger"][b] == 0
    new_only = general and S["gw_kind"][b] == GW_NEW
    for k in range(tb.n_cards):
        if S["card_place"][b, p, k] == PLACE_HAND and window_fits(
            S, tb, b, p, k, general, new_only
        ):
            return True
    return False


@njit
def legal_actions(S, tb, b, out):
    """The legal actions of game b's current decision into out[:n] (0 once over)."""
    st = S["stage"][b]
    p = np.int64(S["current"][b])
    n = 0
    if st == STAGE_GAME_OVER or st == STAGE_RUN:
        return 0
    if st == STAGE_CHOOSE_FORCE:
        for t in range(tb.type_points.shape[0]):
            if choose_ok(S, tb, b, p, t):
                out[n] = A_UNIT + t
                n += 1
        if n == 0 or S["points_total"][b, p] > 0:  # R23: at least one unit, if one fits
            out[n] = A_PASS
            n += 1
        return n
    if st == STAGE_DEPLOY_UNIT:
        for u in range(MAX_UNITS):
            if to_place(S, tb, b, p, u):
                out[n] = A_UNIT + u
                n += 1
        return n
    if st == STAGE_DEPLOY_POS:
        ok = np.empty(MAX_POS, dtype=np.uint8)
        if place_map(S, tb, b, p, True, ok) == 0:  # none far enough from the enemy (FC R32)
            place_map(S, tb, b, p, False, ok)
        for z in range(tb.g_n_pos):
            if ok[z]:
                out[n] = A_POS + z
                n += 1
        return n
    if st == STAGE_FACING:
        for f in range(tb.g_n_dirs):
            out[n] = A_FACING + f
            n += 1
        return n
    if st == STAGE_DISCARD:
        for k in range(tb.n_cards):
            if S["card_place"][b, p, k] == PLACE_HAND:
                out[n] = A_DISCARD + k
                n += 1
        out[n] = A_PASS
        return n + 1
    if st == STAGE_STAYER:
        z = S["settle_zone"][b]
        for w in range(MAX_UNITS):
            if S["unit_where"][b, w] == WHERE_ON and S["unit_pos"][b, w] == z:
                out[n] = A_UNIT + w
                n += 1
        return n
    if st == STAGE_AERIAL_SIDE:
        i = _top(S, b)
        if tb.g_cc_share == 0:  # the tabletop: a free cell next to the target (R30)
            opts = np.zeros(MAX_DIRS, dtype=np.int64)
            m = aerial_cells(S, tb, b, np.int64(S["fr_target"][b, i]), opts)
            for t in range(m):
                out[t] = A_POS + opts[t]
            return m
        z = np.int64(S["unit_pos"][b, S["fr_target"][b, i]])
        for k in range(tb.g_n_dirs):
            y = tb.g_neighbour[z, k]
            if y >= 0:
                out[n] = A_POS + y
                n += 1
        return n
    if st == STAGE_INFILTRATE:
        i = _top(S, b)
        play = np.int64(S["fr_play"][b, i])
        j = min(np.int64(S["fr_step"][b, i]), MAX_STEPS - 1)
        d = np.int64(tb.step_min_enemy_distance[play, j])
        for z in range(tb.g_n_pos):
            if infiltrate_ok(S, tb, b, p, z, d):
                out[n] = A_POS + z
                n += 1
        return n
    if st == STAGE_MOVE_OUT:
        opts = np.zeros(MAX_DIRS, dtype=np.int64)
        m = move_out_options(S, tb, b, np.int64(S["out_unit"][b]), np.int64(S["out_zone"][b]), opts)
        for t in range(m):
            out[t] = A_POS + opts[t]
        return m
    if st == STAGE_FALL_BACK_TIE:
        fr = S["fb_from"][b]
        th = S["fb_through"][b]
        k = S["fb_k"][b]
        out[0] = A_POS + tb.g_fb_route[fr, th, k, 0]
        out[1] = A_POS + tb.g_fb_route[fr, th, k, 1]
        return 2
    if st == STAGE_WINDOW and not _window_may_offer(S, tb, b, p):
        out[0] = A_PASS  # most windows: no card in the hand fits, so no listing to set up
        return 1
    occ = new_occ()
    occupancy(S, tb, b, occ)
    scratch = np.zeros(MAX_DIRS, dtype=np.int64)
    best = np.empty(MAX_POS, dtype=np.int64)  # plays.can_end_from sets what it reads
    if st == STAGE_MAIN:
        for k in range(tb.n_cards):
            if S["card_place"][b, p, k] != PLACE_HAND:
                continue
            play = np.int64(tb.card_action[k])
            if playable_on_some_unit(S, tb, b, p, play, occ, scratch, best):
                out[n] = A_ACTION + k
                n += 1
        n = _list_situations(S, tb, b, p, True, False, occ, scratch, best, out, n)
        out[n] = A_PASS
        return n + 1
    if st == STAGE_WINDOW:
        general = S["win_trigger"][b] == 0
        new_only = general and S["gw_kind"][b] == GW_NEW
        n = _list_situations(S, tb, b, p, general, new_only, occ, scratch, best, out, n)
        out[n] = A_PASS
        return n + 1
    if st == STAGE_PASS_TO:
        play = _sel_play(S, tb, b)
        c = np.int64(S["sel_unit"][b])
        for r in range(MAX_UNITS):
            if pass_receiver_ok(S, tb, b, p, play, c, r, occ, scratch, best):
                out[n] = A_UNIT + r
                n += 1
        return n
    if st == STAGE_PLAY_UNIT:
        play = _sel_play(S, tb, b)
        for u in range(MAX_UNITS):
            if S["unit_side"][b, u] != p or not may_be_usable(S, tb, b, play, u):
                continue
            if usable(S, tb, b, p, play, u, occ, scratch, best):
                out[n] = A_UNIT + u
                n += 1
        return n
    i = _top(S, b)
    u = np.int64(S["fr_unit"][b, i])
    play = np.int64(S["fr_play"][b, i])
    j = min(np.int64(S["fr_step"][b, i]), MAX_STEPS - 1)
    if st == STAGE_CC_TARGET:
        y = S["unit_pos"][b, u]
        for w in range(MAX_UNITS):
            if (
                S["unit_where"][b, w] == WHERE_ON
                and S["unit_pos"][b, w] == y
                and S["unit_side"][b, w] != p
            ):
                out[n] = A_UNIT + w
                n += 1
        return n
    if st == STAGE_TARGET_POINT:
        code = np.int64(tb.step_range[play, j])
        for z in range(tb.g_n_pos):
            if point_in_sight(S, tb, b, occ, u, z, code):
                out[n] = A_POS + z
                n += 1
        return n
    if st == STAGE_DRIFT_TIE:
        f = S["fr_from"][b, i]
        r = S["fr_start"][b, i]
        d = S["fr_left"][b, i]
        out[0] = A_POS + tb.g_drift[f, r, d, 0]
        out[1] = A_POS + tb.g_drift[f, r, d, 1]
        return 2
    if st == STAGE_VOLLEY:
        v = np.int64(S["fr_target"][b, i])
        for w in range(MAX_UNITS):
            if volley_joiner_ok(S, tb, b, p, play, v, w, occ):
                out[n] = A_UNIT + w
                n += 1
        out[n] = A_PASS
        return n + 1
    if st == STAGE_TARGET:
        ranged = tb.step_kind[play, j] != EFFECT_MELEE_ATTACK
        code = np.int64(tb.step_range[play, j])
        clear = tb.step_kind[play, j] == EFFECT_REMOVE_OBSTACLE
        aerial = tb.step_kind[play, j] == EFFECT_AERIAL_ATTACK
        for v in range(MAX_UNITS):
            if S["unit_where"][b, v] != WHERE_ON:
                continue  # every kind of target is on the battlefield
            if aerial:
                ok = aerial_target_ok(S, tb, b, u, v)
            elif clear:
                ok = obstacle_in_reach(S, tb, b, u, v, np.int64(tb.step_distance[play, j]))
            elif ranged:
                ok = ranged_target_ok(S, tb, b, occ, u, v, code)
            else:
                ok = melee_target_ok(S, b, tb, u, v)
            if ok:
                out[n] = A_UNIT + v
                n += 1
        return n
    if st == STAGE_MOVE:
        # FC R41: the path is declared from its end so far; nothing has moved yet
        ln = np.int64(S["mv_len"][b, i])
        pos = np.int64(S["mv_path"][b, i, ln - 1]) if ln > 0 else np.int64(S["unit_pos"][b, u])
        left = np.int64(S["mv_left"][b, i])
        full = ln >= MAX_PATH
        if tb.step_direction[play, j] != 0:
            m = 0
            if not full:
                m = away_options(
                    S,
                    tb,
                    b,
                    u,
                    pos,
                    np.int64(S["fr_from"][b, i]),
                    np.int64(S["fr_start"][b, i]),
                    ln,
                    left,
                    scratch,
                )
            for t in range(m):
                out[n] = A_POS + scratch[t]
                n += 1
            out[n] = A_PASS  # "up to": the path may end after any position (R29)
            return n + 1
        contact = S["fr_contact"][b, i] != 0
        m = 0
        if not full:
            m = move_options(S, tb, b, u, pos, left, contact, scratch, best, np.int64(MAX_DIRS))
        for t in range(m):
            out[n] = A_POS + tb.g_neighbour[pos, scratch[t]]
            n += 1
        if pos_state(S, tb, b, u, pos) == 0:
            out[n] = A_PASS  # the path is complete: it ends where the unit may end
            n += 1
            if tb.vc_exit_side == p and tb.vc_exit[pos] and left >= 1:
                out[n] = A_EXIT  # R22: off the map across the exit edge, one zone's move
                n += 1
        return n
    return 0


@njit
def apply_action(S, tb, b, a):
    """Apply legal action a to game b's current decision, then advance to the next one."""
    st = S["stage"][b]
    p = np.int64(S["current"][b])
    S["decisions"][b] += 1
    if st == STAGE_CHOOSE_FORCE:
        if a == A_PASS:
            next_chooser(S, tb, b, p + 1)
        else:
            choose_unit(S, tb, b, p, a - A_UNIT)
    elif st == STAGE_DEPLOY_UNIT:
        S["sel_unit"][b] = a - A_UNIT
        S["stage"][b] = STAGE_DEPLOY_POS
    elif st == STAGE_DEPLOY_POS:
        u = np.int64(S["sel_unit"][b])
        S["unit_pos"][b, u] = a - A_POS
        S["unit_where"][b, u] = WHERE_ON
        if S["unit_type"][b, u] == tb.type_obstacle:
            S["sel_unit"][b] = -1  # an Obstacle has no LOS Arc: no facing to choose
            placed(S, tb, b)
        else:
            S["stage"][b] = STAGE_FACING  # I10: placed facing any direction
    elif st == STAGE_AERIAL_SIDE:
        # FC I8, LB-3.5.5: placed in contact with its target, partly in the chosen adjacent
        # zone (its entry zone), facing the target; it is in Close Combat and attacks in melee
        i = _top(S, b)
        u = np.int64(S["fr_unit"][b, i])
        v = np.int64(S["fr_target"][b, i])
        z = np.int64(S["unit_pos"][b, v])
        e = a - A_POS
        S["unit_where"][b, u] = WHERE_ON
        if tb.g_cc_share == 0:
            S["unit_pos"][b, u] = e  # the tabletop: in the chosen cell next to it (R30)
        else:
            S["unit_pos"][b, u] = z
            S["unit_entry"][b, u] = e
            S["unit_cc_target"][b, u] = v
        for k in range(tb.g_n_dirs):
            if tb.g_neighbour[e, k] == z:
                S["unit_facing"][b, u] = k
        S["fr_phase"][b, i] = PH_MELEE_W1
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_INFILTRATE:
        u = np.int64(S["sel_unit"][b])
        S["unit_pos"][b, u] = a - A_POS
        S["unit_where"][b, u] = WHERE_ON  # FC I9: from now on an ordinary Ground unit
        S["stage"][b] = STAGE_FACING  # ... placed facing any direction (I10)
    elif st == STAGE_FACING:
        u = np.int64(S["sel_unit"][b])
        S["unit_facing"][b, u] = a - A_FACING
        S["sel_unit"][b] = -1
        if S["deploying"][b]:
            placed(S, tb, b)
        else:
            S["fr_phase"][b, _top(S, b)] = PH_NEXT
            S["stage"][b] = STAGE_RUN
    elif st == STAGE_MAIN:
        if a == A_PASS:
            end_turn(S, b)
        else:
            _select(S, b, a)
    elif st == STAGE_WINDOW:
        if a == A_PASS:
            if S["win_trigger"][b] == 0:
                general_passed(S, tb, b)
            elif S["fb_ask"][b] and S["fb_unit"][b] >= 0 and S["depth"][b] <= S["fb_depth"][b]:
                S["fb_ask"][b] = 0  # the Fall Back goes on
                S["stage"][b] = STAGE_RUN
            else:
                window_passed(S, b)
        else:
            _select(S, b, a)
    elif st == STAGE_PLAY_UNIT or st == STAGE_PASS_TO:
        k = np.int64(S["sel_card"][b])
        play = _sel_play(S, tb, b)
        u = a - A_UNIT
        if st == STAGE_PLAY_UNIT and holds_pass(S, tb, b, play, u):
            S["sel_unit"][b] = u  # I7: the card passes along to a unit the player picks
            S["stage"][b] = STAGE_PASS_TO
        else:
            if st == STAGE_PASS_TO:
                c = np.int64(S["sel_unit"][b])
                bit = 1 if tb.play_part[play] == PART_ACTION else 2
                S["unit_pass"][b, c] &= ~np.uint8(bit)
                S["sel_unit"][b] = -1
            forced = -1
            if tb.play_timing[play] != TIMING_ACTION:
                trig = tb.play_trigger[play]
                if trig == TRIG_ENEMY_MOVES:
                    forced = np.int64(S["win_unit"][b])
                elif trig == TRIG_MELEE_RESOLVED or trig == TRIG_ENEMY_CONTACT:
                    forced = np.int64(S["win_enemy"][b])
            S["sel_card"][b] = -1
            S["sel_part"][b] = -1
            push(S, tb, b, p, k, play, u, forced)  # Passed Equals Played: on the receiver
    elif st == STAGE_TARGET:
        i = _top(S, b)
        play = np.int64(S["fr_play"][b, i])
        j = np.int64(S["fr_step"][b, i])
        kind = tb.step_kind[play, j]
        if kind == EFFECT_AERIAL_ATTACK:
            S["fr_target"][b, i] = a - A_UNIT
            S["fr_phase"][b, i] = PH_AERIAL_SIDE
        elif kind == EFFECT_REMOVE_OBSTACLE:
            # FC I13: removed, not Eliminated (R2: no points or units lost)
            S["unit_where"][b, a - A_UNIT] = WHERE_OFF
            S["unit_pos"][b, a - A_UNIT] = -1
            S["fr_phase"][b, i] = PH_NEXT
        else:
            S["fr_target"][b, i] = a - A_UNIT
            S["fr_phase"][b, i] = PH_MELEE_W1 if kind == EFFECT_MELEE_ATTACK else PH_RANGED_W
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_MOVE:
        declare(S, tb, b, a, p)
    elif st == STAGE_TARGET_POINT:
        place_target_point(S, tb, b, a - A_POS)  # FC I14, I6
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_DRIFT_TIE:
        land_target_point(S, tb, b, a - A_POS)
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_VOLLEY:
        i = _top(S, b)
        if a == A_PASS:
            S["fr_phase"][b, i] = PH_NEXT
        else:
            w = a - A_UNIT
            S["unit_acted"][b, w] = 1  # R20: each participating unit uses its Action
            S["fr_aux"][b, i] = w
            S["fr_phase"][b, i] = PH_RANGED_W
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_DISCARD:
        if a == A_PASS:
            discard_done(S, tb, b)
        else:
            S["card_place"][b, p, a - A_DISCARD] = PLACE_DISCARD
    elif st == STAGE_STAYER:
        z = np.int64(S["settle_zone"][b])
        S["settle_zone"][b] = -1
        keep_only(S, tb, b, z, a - A_UNIT)
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_MOVE_OUT:
        v = np.int64(S["out_unit"][b])
        z = np.int64(S["out_zone"][b])
        S["out_unit"][b] = -1
        S["out_zone"][b] = -1
        place_out(S, b, v, a - A_POS)
        S["stage"][b] = STAGE_RUN
        settle(S, tb, b, z)  # the others still to move out of z (or the stayer's pick)
    elif st == STAGE_CC_TARGET:
        i = _top(S, b)
        S["unit_cc_target"][b, np.int64(S["fr_unit"][b, i])] = a - A_UNIT
        S["fr_phase"][b, i] = PH_NEXT
        S["stage"][b] = STAGE_RUN
    elif st == STAGE_FALL_BACK_TIE:
        S["stage"][b] = STAGE_RUN
        if fall_back_step(S, tb, b, a - A_POS) == -2:
            S["stage"][b] = STAGE_FALL_BACK_TIE
    advance(S, tb, b)


@njit_inline
def declare(S, tb, b, a, p):
    """The mover declares its path (FC "Measuring Movement", reading R41): A_POS appends the
    next position (its cost taken from the allowance left at the path's end), A_PASS says the
    path is complete, A_EXIT that it ends leaving the map (R22). A position in contact with an
    enemy ends the path (all movement stops there). Nothing moves: once complete the unit walks
    it (resolve.walk), the opponent asked at each position (R42)."""
    i = _top(S, b)
    S["stage"][b] = STAGE_RUN
    if a == A_PASS or a == A_EXIT:
        S["mv_exit"][b, i] = 1 if a == A_EXIT else 0
        S["fr_phase"][b, i] = PH_WALK
        return
    u = np.int64(S["fr_unit"][b, i])
    ln = np.int64(S["mv_len"][b, i])
    pos = np.int64(S["mv_path"][b, i, ln - 1]) if ln > 0 else np.int64(S["unit_pos"][b, u])
    y = a - A_POS
    for k in range(tb.g_n_dirs):
        if tb.g_neighbour[pos, k] == y:
            left = np.int64(S["mv_left"][b, i])
            cost = can_step(S, tb, b, u, pos, k, left, S["fr_contact"][b, i] != 0)
            S["mv_left"][b, i] = left - max(cost, 0)
    S["mv_path"][b, i, ln] = y
    S["mv_len"][b, i] = ln + 1
    if pos_state(S, tb, b, u, y) == 2 or (
        tb.g_cc_share == 0 and contacts_enemy(S, tb, b, u, y) >= 0
    ):
        S["fr_phase"][b, i] = PH_WALK  # contact: the path ends here


@njit
def _sel_play(S, tb, b):
    k = np.int64(S["sel_card"][b])
    if S["sel_part"][b] == PART_ACTION:
        return np.int64(tb.card_action[k])
    return np.int64(tb.card_situation[k])


@njit
def _select(S, b, a):
    """A card part chosen: its unit is asked next (same player)."""
    if a < A_SITUATION:
        S["sel_card"][b] = a - A_ACTION
        S["sel_part"][b] = PART_ACTION
    else:
        S["sel_card"][b] = a - A_SITUATION
        S["sel_part"][b] = PART_SITUATION
    S["stage"][b] = STAGE_PLAY_UNIT


@njit
def random_playout(S, tb, b, out, max_decisions):
    """Play game b to its end (or max_decisions) with uniformly random legal actions drawn
    from the game's own agent RNG (S["agent_rng"]); returns the decisions taken. The fuzzer's
    and the benchmarks' random player (the contract's agents come with the next part)."""
    n_dec = 0
    while S["stage"][b] != STAGE_GAME_OVER and n_dec < max_decisions:
        n = legal_actions(S, tb, b, out)
        if n == 0:
            return -1 - n_dec  # a decision with no legal action: a bug
        apply_action(S, tb, b, out[randint(S["agent_rng"], b, n)])
        n_dec += 1
    return n_dec
