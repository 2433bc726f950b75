"""Units on the battlefield and the Turn's frame (TD-4, TD-7, TD-10.3, TD-12.4, TD-20).

Small kernels the chapters share: placing and lifting units, the Dead Status, the Engagement's
end, the Turn's start and end, and the end of the game (Deathmatch, TD-4.2; the turn-limited
variant, I8; the safety cap, I13).

Statuses (TD-20) are data: ``apply_status`` / ``discard_status`` are the only ways a Status
comes and goes (abilities and items call them too), ``has_flag`` reads a per-status modifier
column of the tables record (``tb.st_no_charge`` ...), and ``run_status_rows`` interprets the
statuses.yaml rows of one trigger (Engagement, before Disengagement, an enemy killed) with one
switch over the effect kinds. Rows of one Status under one trigger share a single roll (R32).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d
from envs.tactics_david.actions import STAGE_ENGAGE, STAGE_GAME_OVER
from envs.tactics_david.grid import offset_cell
from envs.tactics_david.record import (
    EFF_ACQUIRE_DEAD,
    EFF_ADD_ROLL_MOVE,
    EFF_ADVANCE,
    EFF_DISCARD_SELF,
    EFF_DISENGAGE,
    EFF_FLEE,
    EFF_NO_COMBAT_PHASE,
    EFF_ROTATE,
    PERM_ENGAGE_DEAD,
    SCORE_KILLS,
    SP_RELENTLESS,
    SP_SWARM,
    TRIG_BEFORE_DISENGAGEMENT,
    TRIG_ENEMY_KILLED,
    TRIG_ENGAGEMENT,
    USE_OWNER_TURN,
)
from envs.tactics_david.state import (
    FORCE_ADVANCE,
    FORCE_FLEE,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_PLAYERS,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
    PLACE_REMOVED,
    PLACE_RESERVE,
    RESUME_AFTER_ATTACK,
    STATUS_PERMANENT,
    TURN_CAP,
)


@njit
def is_dead(S, tb, b: int, u: int) -> bool:
    return S["unit_status"][b, u, tb.status_dead] != 0


@njit
def side_of(S, b: int, u: int) -> int:
    """The seat unit u acts for now: the player who Possessed it for this Turn
    (`unit_ctrl`, TD-22.2.147, R137), else its owner u // MAX_UNITS. Allied/enemy checks and
    "whose decision" read this; army slots, scores and purchases read the owner."""
    c = np.int64(S["unit_ctrl"][b, u])
    return c if c >= 0 else u // MAX_UNITS


@njit
def in_play(S, tb, b: int, u: int) -> bool:
    """On the battlefield and without the Dead Status."""
    return S["unit_place"][b, u] == PLACE_FIELD and S["unit_status"][b, u, tb.status_dead] == 0


@njit
def named_by_space(S, b: int, v: int) -> bool:
    """Whether an action naming v's Grid Space (A_CELL + c) picks v: the space's first unit,
    so a Unit Team's space is offered once, for the member it picks (R145)."""
    return S["cell_unit"][b, S["unit_cell"][b, v], 0] == v


@njit
def seat_scores(S, tb, b: int, out) -> None:
    """Each seat's score in out[0..1] as the turn-limited variant counts it (TD-4.3, option
    turn_score): the Purchase Cost of its units in play (I8), or the enemy units it has killed
    (I30: a bought enemy unit that was deployed and is no longer in play, Dead or removed)."""
    for p in range(N_PLAYERS):
        out[p] = 0
    for u in range(N_UNIT_IDS):
        p = u // MAX_UNITS
        if u % MAX_UNITS >= S["army_size"][b, p]:
            continue
        if tb.opt_turn_score == SCORE_KILLS:
            if S["unit_place"][b, u] != PLACE_RESERVE and not in_play(S, tb, b, u):
                out[1 - p] += 1
        elif in_play(S, tb, b, u):
            out[p] += S["unit_cost"][b, u]


@njit
def has_special(S, tb, b: int, u: int, kind: int) -> bool:
    """Whether unit u's top member has the Special of kind SP_* (TD-23)."""
    sp = tb.u_special[S["unit_member"][b, u, 0]]
    return sp >= 0 and tb.sp_kind[sp] == kind


@njit
def may_act(S, tb, b: int, u: int) -> bool:
    """On the battlefield and able to be Engaged and act: not Dead, or Dead but Relentless
    (TD-23.2), or Dead with an ability that may be Engaged so (Ctrl Alt Del, R91)."""
    if S["unit_place"][b, u] != PLACE_FIELD:
        return False
    return (
        not is_dead(S, tb, b, u)
        or has_special(S, tb, b, u, SP_RELENTLESS)
        or has_permission(S, tb, b, u, PERM_ENGAGE_DEAD)
    )


@njit
def unit_class(S, tb, b: int, u: int) -> int:
    """Unit u's class: 0 Light, 1 Medium, 2 Heavy; a Stacked Unit is Medium Stacked (2
    stacking points) or Heavy Stacked (3), read as Medium and Heavy (TD-17.5, R4)."""
    n = np.int64(S["unit_n_members"][b, u])
    if n <= 1:
        return np.int64(tb.u_class[S["unit_member"][b, u, 0]])
    points = 0
    for m in range(n):
        points += tb.class_points[tb.u_class[S["unit_member"][b, u, m]]]
    return np.int64(1) if points == 2 else np.int64(2)


@njit
def put(S, b: int, u: int, cell: int) -> None:
    """Stand unit u on an empty space (a Unit Team's second slot comes with TD-18)."""
    S["cell_unit"][b, cell, 0] = u
    S["unit_cell"][b, u] = cell
    S["unit_place"][b, u] = PLACE_FIELD


@njit
def leave_team(S, b: int, u: int) -> None:
    """Unit u and its partner are no longer a Unit Team (TD-18.3, TD-18.7)."""
    v = S["unit_team"][b, u]
    if v >= 0:
        S["unit_team"][b, v] = -1
        S["unit_team_side"][b, v] = -1
    S["unit_team"][b, u] = -1
    S["unit_team_side"][b, u] = -1


@njit
def move_to(S, b: int, u: int, cell: int) -> None:
    """Move unit u alone from its space to another: an empty one, or one holding a single
    own unit, with which it then forms a Unit Team (TD-18.2; the callers check that it may;
    the Orientation Procedure follows, provisionally u on the south or east side). A Team
    member moving alone leaves its Team (TD-18.3, TD-18.7)."""
    old = S["unit_cell"][b, u]
    if S["cell_unit"][b, old, 0] == u:
        S["cell_unit"][b, old, 0] = S["cell_unit"][b, old, 1]
        S["cell_unit"][b, old, 1] = -1
    elif S["cell_unit"][b, old, 1] == u:
        S["cell_unit"][b, old, 1] = -1
    leave_team(S, b, u)
    v = S["cell_unit"][b, cell, 0]
    if v >= 0 and v != u:
        S["cell_unit"][b, cell, 1] = u
        S["unit_team"][b, u] = v
        S["unit_team"][b, v] = u
        S["unit_team_side"][b, u] = 2  # FACE_S until the Orientation Procedure (TD-9.7)
        S["unit_team_side"][b, v] = 0
    else:
        S["cell_unit"][b, cell, 0] = u
    S["unit_cell"][b, u] = cell


@njit
def unlock(S, b: int, u: int) -> None:
    """End the Combat Lock unit u is in (both sides; with a Shed Marker: the Marker goes)."""
    v = S["unit_lock"][b, u]
    if v >= 0 and v < N_UNIT_IDS:
        S["unit_lock"][b, v] = -1
    S["unit_lock"][b, u] = -1
    S["unit_shed_cell"][b, u] = -1  # tdabF: a Shed Marker's lock ends with it (R135)


@njit
def may_equip(S, tb, b: int, u: int, i: int) -> bool:
    """Whether unit u may equip Item i: its class is among the Item's Users, and the Rod of
    Hailfire's Unit Type and Attack Mode (TD-19.3)."""
    top = S["unit_member"][b, u, 0]
    if not tb.it_users[i, unit_class(S, tb, b, u)]:
        return False
    if tb.it_user_type[i] >= 0 and tb.u_type[top] != tb.it_user_type[i]:
        return False
    return tb.it_user_mode[i] < 0 or tb.u_mode[top] == tb.it_user_mode[i]


@njit
def drop_unusable_items(S, tb, b: int, u: int) -> None:
    """A stack whose members changed (Alter, Swarm), or a unit that discards the Dead Status:
    the Items it may not use go to the bottom of the Item Deck (TD-17.5, TD-19.3; R146)."""
    for slot in range(S["unit_item"].shape[2]):
        it = np.int64(S["unit_item"][b, u, slot])
        if it >= 0 and not may_equip(S, tb, b, u, it):
            S["unit_item"][b, u, slot] = -1
            deck_to_bottom(S, b, it)


@njit
def swarm_stack(S, tb, b: int, u: int) -> bool:
    """Whether unit u is a Stacked Unit all of whose members have Swarm: the Dead Status
    takes a member instead (TD-23.1; kill, and Guard's offer, guard.guard_offer)."""
    n = np.int64(S["unit_n_members"][b, u])
    if n <= 1:
        return False
    for m in range(n):
        sp = tb.u_special[S["unit_member"][b, u, m]]
        if sp < 0 or tb.sp_kind[sp] != SP_SWARM:
            return False
    return True


@njit
def kill(S, tb, b: int, u: int, killer_seat: int) -> None:
    """Unit u acquires the Dead Status (TD-10.3): it stays on its space, discards every other
    Status (TD-20.15) and leaves any Combat Lock. A kill of an enemy counts for Item
    Acquisition (TD-12.1). Specials (TD-23): a Stacked Unit all of whose members have Swarm
    loses one member (its last, R36) instead and stays in play; a Relentless unit also acquires
    Paralyzed and Frozen for good (its Special's `statuses`)."""
    now = S["gd_die_now"][b] == u  # tdabJ: the Guard question was answered: it dies (R140)
    if now:
        S["gd_die_now"][b] = -1
    if S["unit_status"][b, u, tb.status_dead] != 0:
        return
    if not now and guard_defers(S, tb, b, u, killer_seat):
        return  # tdabJ: an allied Guard unit's player is asked first (guard.ask_question)
    n = np.int64(S["unit_n_members"][b, u])
    if n > 1:
        if swarm_stack(S, tb, b, u):
            last = S["unit_member"][b, u, n - 1]
            for side in range(4):
                S["unit_strength"][b, u, side] = max(
                    np.int64(S["unit_strength"][b, u, side]) - tb.u_strength[last, side],
                    np.int64(tb.strength_min),
                )
            S["unit_member"][b, u, n - 1] = -1
            S["unit_n_members"][b, u] = n - 1
            drop_unusable_items(S, tb, b, u)  # tdbuy: Medium Stacked may become Light (R146)
            if killer_seat >= 0 and killer_seat != side_of(S, b, u):
                S["kills_turn"][b, killer_seat] += 1
            return
    for s in range(N_STATUSES):
        S["unit_status"][b, u, s] = 0
    S["unit_status"][b, u, tb.status_dead] = STATUS_PERMANENT
    sp = tb.u_special[S["unit_member"][b, u, 0]]
    if sp >= 0 and tb.sp_kind[sp] == SP_RELENTLESS:
        for s in range(N_STATUSES):
            if (np.int64(tb.sp_statuses[sp]) >> s) & 1:
                S["unit_status"][b, u, s] = STATUS_PERMANENT
    unlock(S, b, u)
    note_acquired(S, tb, b, u, np.int64(tb.status_dead))  # Giant's Bread (pause.py)
    if killer_seat >= 0 and killer_seat != side_of(S, b, u):
        S["kills_turn"][b, killer_seat] += 1
    v = np.int64(S["unit_team"][b, u])
    if v >= 0 and S["unit_status"][b, v, tb.status_dead] == 0:
        # its Team partner must leave the space at its first opportunity (movement.legal_move)
        # and acquires Fearful if 1 D6 < 5 (team_fearful_below; TD-18.7, R83)
        f = np.int64(tb.status_fearful)
        if (
            roll_d(S["rng"], b, 6) < tb.team_fearful_below
            and tb.st_afflicts[f, S["unit_type"][b, v]]
        ):
            if (
                not (S["unit_no_reacquire"][b, v] >> np.int32(f)) & 1
                and not ability_immune(S, tb, b, v, f)
                and not fear_deferred(S, tb, b, v, np.int64(STATUS_PERMANENT))  # tdabD (R104)
            ):
                S["unit_status"][b, v, f] = STATUS_PERMANENT
                for t in range(N_STATUSES):
                    if (tb.st_cancels[f] >> t) & 1:
                        S["unit_status"][b, v, t] = 0
    # its abilities' "A: Acquiring Dead Status" rows wait for the next effects.run_hook
    q = np.int64(S["fx_n_dead"][b])
    if q < S["fx_dead"].shape[1]:
        S["fx_dead"][b, q] = u
        S["fx_dead_by"][b, q] = S["fx_cause"][b]
        S["fx_n_dead"][b] = q + 1


@njit
def guard_can(S, tb, b: int, g: int, s: int) -> bool:
    """Whether unit g can acquire Status s now (what units.apply_status would take, without
    its side effects): in play, a Unit Type s afflicts, not refused this Turn, no immunity,
    and not held already (it would acquire nothing new; R105)."""
    if not in_play(S, tb, b, g) or S["unit_status"][b, g, s] != 0:
        return False
    if not tb.st_afflicts[s, S["unit_type"][b, g]]:
        return False
    if (S["unit_no_reacquire"][b, g] >> np.int32(s)) & 1:
        return False
    return not ability_immune(S, tb, b, g, s)


@njit
def reaching_ally(S, tb, b: int, u: int, rows, first: int):
    """The first unit v >= first (id order) allied to u this Turn (side_of: Possess, R137), in
    play, its abilities acting, with a member whose row rows[profile] (an ability's row table:
    tb.ab_guard_row, tb.ab_fear_row) reaches u (the row's radius, orthogonal steps): (v, that
    row), or (-1, -1). Guard (R105) and Unwavering (R104) ask it."""
    cols = np.int64(tb.bf_cols[S["battlefield"][b]])
    cu = np.int64(S["unit_cell"][b, u])
    p = side_of(S, b, u)
    for v in range(first, N_UNIT_IDS):
        if v == u or side_of(S, b, v) != p or not in_play(S, tb, b, v):
            continue
        if S["unit_ab_off"][b, v] != 0:
            continue
        cv = np.int64(S["unit_cell"][b, v])
        dist = abs(cu // cols - cv // cols) + abs(cu % cols - cv % cols)
        for m in range(S["unit_n_members"][b, v]):
            prof = np.int64(S["unit_member"][b, v, m])
            if prof < 0 or not tb.ab_active[prof]:
                continue
            row = np.int64(rows[prof])
            if row >= 0 and dist <= tb.r_radius[row]:
                return v, row
    return -1, -1


@njit
def guard_unit(S, tb, b: int, d: int) -> int:
    """Unit d in play would acquire the Dead Status: the first allied unit (id order) whose
    acting Guard reaches it (the row's radius, orthogonal steps) and that can acquire
    Paralyzed or Frozen (TD-22.2.103, R105), -1 none. A Swarm stack would lose a member, not
    acquire the Dead Status: none."""
    if not in_play(S, tb, b, d) or swarm_stack(S, tb, b, d):
        return -1
    par = np.int64(tb.status_paralyzed)
    fro = np.int64(tb.status_frozen)
    g, _row = reaching_ally(S, tb, b, d, tb.ab_guard_row, 0)
    while g >= 0:
        if guard_can(S, tb, b, g, par) or guard_can(S, tb, b, g, fro):
            return g
        g, _row = reaching_ally(S, tb, b, d, tb.ab_guard_row, g + 1)
    return -1


@njit
def guard_defers(S, tb, b: int, u: int, killer_seat: int) -> bool:
    """tdabJ (R140): unit u would acquire the Dead Status and an allied Guard unit could take
    Paralyzed or Frozen instead: the death waits in S["gd_die"] (with the killer's seat and
    the cause) for the question turn.step asks at the next hand-off (guard.ask_question);
    u stays as it is until then. Returns whether it waits (a death already waiting: yes)."""
    if S["gd_die"][b, u] != 0:
        return True
    if guard_unit(S, tb, b, u) < 0:
        return False
    S["gd_die"][b, u] = killer_seat + 2
    S["gd_die_by"][b, u] = S["fx_cause"][b]
    return True


# run_status_rows outcome bits
OUT_DISENGAGE = 1  # the unit is Disengaged at once (Paralyzed)
OUT_DEAD = 2  # the unit acquired the Dead Status (Poisoned)
OUT_END_MOVE = 4  # the unit counts as moved and its Movement Phase ends (Confused)
OUT_PAUSE = 8  # a "may discard" is asked of the player (S["eff_*"] hold the scan; R34)
# tdabJ: its Dead Status waits for the Guard question (S["eff_*"] hold the scan; R140)
OUT_GUARD = 16


@njit
def has_flag(S, b: int, u: int, flags) -> bool:
    """Whether unit u holds a Status whose modifier column `flags` (a tb.st_* array) is set
    (and whose effects it does not ignore: Soothe, R106)."""
    for s in range(N_STATUSES):
        if S["unit_status"][b, u, s] != 0 and flags[s] != 0 and not (S["gd_ignore"][b, u] >> s) & 1:
            return True
    return False


@njit
def discard_status(S, tb, b: int, u: int, s: int) -> None:
    """Unit u discards Status s. The Dead Status: the Items it holds that it may not use (a
    Loot's swap leaves them on a Dead unit, R35) go to the bottom of the Item Deck (R146)."""
    S["unit_status"][b, u, s] = 0
    if s == tb.status_dead:
        drop_unusable_items(S, tb, b, u)


@njit
def ability_immune(S, tb, b: int, u: int, s: int) -> bool:
    """Whether unit u's abilities keep it from acquiring Status s: their unconditional
    `status_immunity` rows (tb.ab_immune: Unwavering, Research, Resilient; TD-22.2)."""
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not tb.ab_active[prof] or S["unit_ab_off"][b, u] != 0:
            continue
        if tb.ab_not_dead[prof] and S["unit_status"][b, u, tb.status_dead] != 0:
            continue
        if (np.int64(tb.ab_immune[prof]) >> np.int64(s)) & 1:
            return True
    return False


@njit
def dead_only_by_attack(S, tb, b: int, u: int) -> bool:
    """Whether unit u's abilities keep the Dead Status from it unless an Attack gives it
    (Oblivious: not from an ability, a Status or the terrain; R53)."""
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if (
            prof >= 0
            and tb.ab_active[prof]
            and tb.ab_fx_dead_immune[prof]
            and S["unit_ab_off"][b, u] == 0  # Ghoul Blight, Curse (control.py)
        ):
            return True
    return False


@njit
def remove_from_game(S, b: int, u: int) -> None:
    """Unit u is removed from the game (Feast, Soul Reap): off its space, out of any Combat
    Lock; its Item cards leave play with it (R53)."""
    c = S["unit_cell"][b, u]
    if c >= 0:
        if S["cell_unit"][b, c, 0] == u:
            S["cell_unit"][b, c, 0] = S["cell_unit"][b, c, 1]
            S["cell_unit"][b, c, 1] = -1
        elif S["cell_unit"][b, c, 1] == u:
            S["cell_unit"][b, c, 1] = -1
    unlock(S, b, u)
    leave_team(S, b, u)
    S["unit_cell"][b, u] = -1
    S["unit_place"][b, u] = PLACE_REMOVED


@njit
def ability_count(S, b: int, u: int) -> int:
    """tdabF: how many abilities unit u has: one per member (R25), plus the one it acquired
    by Learn until the end of the Turn (`unit_ab_copy`, R134). Every scan of a unit's
    abilities runs m over range(ability_count) and reads ability_prof(S, b, u, m)."""
    n = np.int64(S["unit_n_members"][b, u])
    return n + 1 if S["unit_ab_copy"][b, u] >= 0 else n


@njit
def ability_prof(S, b: int, u: int, m: int) -> int:
    """tdabF: the unit profile (= ability index) of unit u's ability m (ability_count)."""
    if m < S["unit_n_members"][b, u]:
        return np.int64(S["unit_member"][b, u, m])
    return np.int64(S["unit_ab_copy"][b, u])


@njit
def has_permission(S, tb, b: int, u: int, perm: int) -> bool:
    """Whether one of unit u's acting abilities lifts the rule of bit `perm` (record.PERM_*:
    Reckless, Transpose, Slither; TD-22.2)."""
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not tb.ab_active[prof] or S["unit_ab_off"][b, u] != 0:
            continue
        if tb.ab_not_dead[prof] and S["unit_status"][b, u, tb.status_dead] != 0:
            continue
        if np.int64(tb.ab_perm[prof]) & perm:
            return True
    return False


@njit
def apply_status(S, tb, b: int, u: int, s: int, turns: int) -> bool:
    """Unit u acquires Status s for `turns` Turns (STATUS_PERMANENT: until discarded); returns
    whether it took. Nothing happens to a unit out of play, a Dead unit (it discards every other
    Status, TD-20.15), a Unit Type the Status does not afflict (TD-20.23), or a Fearful unit
    that discarded Fearful this Turn (TD-20.8). Held already: one of each kind (TD-20.1), the
    longer duration stays. The Statuses it `cancels` are discarded (Fearful/Enraged); one that
    forbids Combat Lock ends the unit's lock (Petrified, TD-20.20). Dead goes through kill."""
    if S["unit_place"][b, u] != PLACE_FIELD or S["unit_status"][b, u, tb.status_dead] != 0:
        return False
    if s == tb.status_dead:
        kill(S, tb, b, u, -1)
        return True
    if not tb.st_afflicts[s, S["unit_type"][b, u]]:
        return False
    if (S["unit_no_reacquire"][b, u] >> np.int32(s)) & 1:
        return False
    if ability_immune(S, tb, b, u, s):
        return False
    if s == tb.status_fearful and fear_deferred(S, tb, b, u, turns):
        return False  # tdabD: its player's Unwavering roll comes first (guard.ask_question, R104)
    old = np.int64(S["unit_status"][b, u, s])
    if old == STATUS_PERMANENT or turns == STATUS_PERMANENT:
        S["unit_status"][b, u, s] = STATUS_PERMANENT
    else:
        S["unit_status"][b, u, s] = max(old, turns)
    for t in range(N_STATUSES):
        if (tb.st_cancels[s] >> t) & 1:
            discard_status(S, tb, b, u, t)
    if tb.st_no_lock[s]:
        unlock(S, b, u)
    note_acquired(S, tb, b, u, s)
    return True


@njit
def fear_deferred(S, tb, b: int, u: int, turns: int) -> bool:
    """Unwavering (TD-22.2.18, R104): unit u is acquiring Fearful and an allied unit in play
    within its row's radius has Unwavering, so u's player may roll first. The acquisition waits
    in S["gd_fear"] (with its Turns) for the question turn.step asks at the next hand-off
    (guard.ask_question); nothing of Fearful happens before the answer. Returns whether it waits
    (not while that very question is being answered)."""
    if turns == 0 or (S["gd_seat"][b] >= 0 and S["gd_unit"][b] == u):
        return False
    if S["unit_status"][b, u, tb.status_fearful] != 0:
        return False  # already Fearful: nothing is acquired that a roll could keep away
    v, row = reaching_ally(S, tb, b, u, tb.ab_fear_row, 0)
    if v < 0:
        return False
    old = np.int64(S["gd_fear"][b, u])  # the longer of two waiting ones
    if old != STATUS_PERMANENT:
        S["gd_fear"][b, u] = turns if turns == STATUS_PERMANENT else max(old, turns)
    S["gd_row"][b] = row
    return True


@njit
def note_acquired(S, tb, b: int, u: int, s: int) -> None:
    """Unit u has just acquired Status s: if it holds an Item that may discard it (Giant's
    Bread, TD-25.4), note it for the question turn.step asks next (pause.ask_bread, R74)."""
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i >= 0 and tb.it_refuse[i]:
            S["pz_bread"][b, u] |= np.int32(1) << np.int32(s)
            return


@njit
def run_status_rows(S, tb, b: int, u: int, trigger: int, first: int) -> int:
    """Run every statuses.yaml row of `trigger` of the Statuses unit u holds (statuses.yaml
    order): roll the row's die once per Status and trigger (R32), and if the result is one of
    the row's results (or the row has no roll) apply its effect. Returns OUT_* bits for the
    caller (turn.apply_engage) to act on; forced moves go to S["eng_force"].

    The scan starts at Status `first` (0, or where a paused scan resumes). An Engagement
    `discard_self` row is the Status text's "may discard" (Fearful's and Petrified's 6): the
    scan pauses there (OUT_PAUSE; S["eff_*"] say the unit, Status and where to resume) and the
    player answers in STAGE_EFFECT (turn.apply_effect_choice)."""
    out = 0
    for s in range(first, N_STATUSES):
        if S["unit_status"][b, u, s] == 0 or (S["gd_ignore"][b, u] >> s) & 1:  # Soothe (R106)
            continue
        r = np.int64(0)
        for k in range(tb.st_n_eff[s]):
            if tb.st_trigger[s, k] != trigger:
                continue
            die = np.int64(tb.st_die[s, k])
            if die > 0:
                if r == 0:
                    r = roll_d(S["rng"], b, die)
                if not (np.int64(tb.st_results[s, k]) >> r) & 1:
                    continue
            kind = tb.st_kind[s, k]
            if kind == EFF_DISENGAGE:
                out |= OUT_DISENGAGE
            elif kind == EFF_NO_COMBAT_PHASE:
                S["unit_no_combat"][b, u] = 1
            elif kind == EFF_ACQUIRE_DEAD:
                if dead_only_by_attack(S, tb, b, u):  # Oblivious (R53)
                    continue
                kill(S, tb, b, u, -1)
                if S["gd_die"][b, u] != 0 and trigger == TRIG_ENGAGEMENT:  # tdabJ: Guard
                    # is asked first, then the scan goes on (turn.step, GO_ENGAGE_ROWS; R140)
                    S["eff_unit"][b] = u
                    S["eff_next"][b] = s + 1
                    S["eff_out"][b] = out
                    return out | OUT_GUARD
                return out | OUT_DEAD
            elif kind == EFF_FLEE:
                S["eng_force"][b] = FORCE_FLEE
            elif kind == EFF_DISCARD_SELF and trigger == TRIG_ENGAGEMENT:
                S["eff_unit"][b] = u
                S["eff_status"][b] = s
                S["eff_next"][b] = s + 1
                S["eff_out"][b] = out
                return out | OUT_PAUSE
            elif kind == EFF_DISCARD_SELF and trigger == TRIG_ENEMY_KILLED:
                S["eff_unit"][b] = u  # "may discard" after the kill: asked after the attack
                S["eff_status"][b] = s
                S["eff_next"][b] = RESUME_AFTER_ATTACK
            elif kind == EFF_DISCARD_SELF:
                discard_status(S, tb, b, u, s)
                if s == tb.status_fearful:  # overcome: not again this Turn (TD-20.8)
                    S["unit_no_reacquire"][b, u] |= np.int32(1) << np.int32(s)
            elif kind == EFF_ADD_ROLL_MOVE:
                S["unit_move_bonus"][b, u] += r
            elif kind == EFF_ADVANCE:
                S["eng_force"][b] = FORCE_ADVANCE
            elif kind == EFF_ROTATE:
                S["unit_facing"][b, u] = (np.int64(S["unit_facing"][b, u]) + r) % 4
                unlock(S, b, u)  # no longer face to face (R33)
                out |= OUT_END_MOVE
    return out


@njit
def end_of_turn_statuses(S, tb, b: int) -> None:
    """At the end of either player's Turn: enemies in direct contact with a Feared unit (or one
    counting as Feared: Mask of Fear, TD-25.8) acquire Fearful (TD-20.19), then every Status with a duration in Turns counts one down."""
    bf = np.int64(S["battlefield"][b])
    feared = np.int64(1) << np.int64(tb.status_feared)
    for u in range(N_UNIT_IDS):
        if not in_play(S, tb, b, u):
            continue
        if not has_flag(S, b, u, tb.st_feared) and not item_status_bits(S, tb, b, u) & feared:
            continue
        for d in range(4):
            nb = offset_cell(tb, bf, np.int64(S["unit_cell"][b, u]), d, 1, 0)
            if nb < 0:
                continue
            for slot in range(2):
                v = S["cell_unit"][b, nb, slot]
                if v >= 0 and side_of(S, b, v) != side_of(S, b, u) and in_play(S, tb, b, v):
                    apply_status(S, tb, b, np.int64(v), np.int64(tb.status_fearful), -1)
    for u in range(N_UNIT_IDS):
        for s in range(N_STATUSES):
            if S["unit_status"][b, u, s] > 0:
                S["unit_status"][b, u, s] -= 1


@njit
def item_status_bits(S, tb, b: int, u: int) -> int:
    """Statuses unit u counts as having through its Items (bit s; Mask of Fear, TD-25.8)."""
    bits = np.int64(0)
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i >= 0:
            bits |= np.int64(tb.it_count_status[i])
    return bits


@njit
def deck_to_bottom(S, b: int, item: int) -> None:
    """Put an Item card at the bottom of the Item Deck (TD-19.2, TD-12.2; deck[0] is the
    bottom)."""
    n = np.int64(S["deck_count"][b])
    for i in range(n, 0, -1):
        S["deck"][b, i] = S["deck"][b, i - 1]
    S["deck"][b, 0] = item
    S["deck_count"][b] = n + 1


@njit
def may_lock(S, tb, b: int, u: int) -> bool:
    """Whether unit u may be Locked in Combat: not Dead, no Status forbidding it (TD-20.20)."""
    return not is_dead(S, tb, b, u) and not has_flag(S, b, u, tb.st_no_lock)


@njit
def finish(S, b: int, winner: int) -> None:
    """The game is over: winner (or -1 drawn) and the rewards."""
    S["winner"][b] = winner
    S["stage"][b] = STAGE_GAME_OVER
    S["engaged"][b] = -1
    for p in range(N_PLAYERS):
        if winner < 0:
            S["rewards"][b, p] = 0.0
        else:
            S["rewards"][b, p] = 1.0 if p == winner else -1.0


@njit
def deathmatch_over(S, tb, b: int) -> bool:
    """Deathmatch (TD-4.2): a player none of whose units is in play has lost; both at once is
    a draw. Ends the game and returns True when so."""
    alive = np.zeros(N_PLAYERS, dtype=np.int64)
    for u in range(N_UNIT_IDS):
        if in_play(S, tb, b, u):
            alive[u // MAX_UNITS] += 1
    if alive[0] > 0 and alive[1] > 0:
        return False
    if alive[0] == 0 and alive[1] == 0:
        finish(S, b, -1)
    else:
        finish(S, b, 0 if alive[0] > 0 else 1)
    return True


@njit
def begin_turn(S, tb, b: int, p: int) -> None:
    """Player p starts a Turn as the Attacking Player (TD-7.1, TD-12.4)."""
    S["turn"][b] += 1
    S["current"][b] = p
    S["engaged"][b] = -1
    for u in range(N_UNIT_IDS):
        S["unit_engaged"][b, u] = 0
        S["unit_moved"][b, u] = 0
        S["unit_fought"][b, u] = 0
        S["unit_no_combat"][b, u] = 0
        S["unit_move_bonus"][b, u] = 0
        S["unit_no_reacquire"][b, u] = 0
        S["unit_no_move"][b, u] = 0  # Unit Teams (TD-18.2)
        S["gd_ignore"][b, u] = 0  # tdabD: Soothe lasts one Player's Turn (R106)
    for q in range(N_PLAYERS):
        S["kills_turn"][b, q] = 0
    # Revival Stone (TD-25.3): a Dead holder discards Dead at the start of its owner's Turn;
    # the one-time Item goes to the bottom of the Item Deck (R35: "may" is taken)
    for k in range(MAX_UNITS):
        u = p * MAX_UNITS + k
        if S["unit_place"][b, u] != PLACE_FIELD or not is_dead(S, tb, b, u):
            continue
        for slot in range(N_ITEM_SLOTS):
            i = S["unit_item"][b, u, slot]
            if (
                i >= 0
                and tb.it_use[i] == USE_OWNER_TURN
                and tb.it_remove_only[i] >> tb.status_dead & 1
            ):
                S["unit_item"][b, u, slot] = -1
                deck_to_bottom(S, b, np.int64(i))
                discard_status(S, tb, b, u, np.int64(tb.status_dead))
                break  # tdabG: one Stone of two (Work Belt) is enough
    S["stage"][b] = STAGE_ENGAGE


@njit
def end_turn(S, tb, b: int) -> None:
    """End Player's Turn (TD-12.4): the other player's Turn begins, unless the turn-limited
    variant's last Turn was played (the higher score wins: seat_scores, I8 / I30) or the
    safety cap is reached (I13: a draw). Statuses act first (end_of_turn_statuses)."""
    end_of_turn_statuses(S, tb, b)
    turn = np.int64(S["turn"][b])
    limit = np.int64(tb.opt_turn_limit)
    if limit > 0 and turn >= limit:
        score = np.zeros(N_PLAYERS, dtype=np.int64)
        seat_scores(S, tb, b, score)
        if score[0] == score[1]:
            finish(S, b, -1)
        else:
            finish(S, b, 0 if score[0] > score[1] else 1)
        return
    if turn >= TURN_CAP:
        finish(S, b, -1)
        return
    begin_turn(S, tb, b, 1 - np.int64(S["current"][b]))


@njit
def disengage(S, tb, b: int) -> None:
    """End Unit Engagement (TD-7.3, TD-11.3): the player may Engage another unit, unless the
    game has just been won. Just before, the unit rolls its `before_disengagement` rows
    (Crippled, Silenced, Banished: 5-6 discards them, TD-20.9/11/13)."""
    u = np.int64(S["engaged"][b])
    if u >= 0 and may_act(S, tb, b, u):
        run_status_rows(S, tb, b, u, np.int64(TRIG_BEFORE_DISENGAGEMENT), 0)
    S["engaged"][b] = -1
    S["pending_target"][b] = -1
    if not deathmatch_over(S, tb, b):
        S["stage"][b] = STAGE_ENGAGE
