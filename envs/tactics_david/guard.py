"""Statuses and death inside procedures (branch tdabD): the questions a rule asks of a player
while a Status or the Dead Status is being acquired in the middle of a procedure.

Unwavering (TD-22.2.18, R104): an ally within its radius that is acquiring Fearful may roll
1 D6 first; 3 or more and it does not acquire Fearful. `units.apply_status` (and the Team
partner's Fearful in `units.kill`) reach the acquisition from many procedures, so the
acquisition waits in ``S["gd_fear"]`` (units.fear_deferred: nothing of Fearful happens yet, not
even its discarding Enraged) and turn.step asks the unit's player at the next hand-off, as
Giant's Bread is asked (R74): ``ask_question`` saves the stage and the hand-off it
interrupts, ``answer_question`` rolls (A_ABILITY) or not (A_END), gives the Status unless the
roll kept it away, and restores them.

Incineration (TD-22.2.190, R108): the Items an attacked unit must discard are counted in
``S["gd_disc"]`` by the effect row (effects._apply_effect) and its player picks them, one at a
time, with the same question at the next hand-off (A_SIDE + slot).

Guard (TD-22.2.103, R140; R105 before tdabJ): a unit that would acquire the Dead Status, with
an allied Guard unit within its radius that can acquire Paralyzed or Frozen (units.guard_unit):
its player chooses the Guard unit's Status (A_STATUS + s) or the death (A_END). A defender that
lost its Defend Procedure is asked inside the procedure (combat.attack_unit, PZ_GUARD, the
results kept as for Lucky); every other death waits in ``S["gd_die"]`` (units.kill,
units.guard_defers) and is asked here at the next hand-off (Q_GUARD, before the other
questions).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.actions import (
    A_ABILITY,
    A_END,
    A_SIDE,
    A_STATUS,
    GO_END_MOVEMENT,
    GO_ITEM_PHASE_1,
    GO_ITEM_PHASE_2,
    GO_NONE,
    STAGE_ENGAGE,
    STAGE_GAME_OVER,
    STAGE_LOOT,
    STAGE_MOVE,
    STAGE_PAUSE,
)
from envs.tactics_david.effects import NO_SOURCE, _roll, _roll_ok, run_hook
from envs.tactics_david.grid import offset_cell
from envs.tactics_david.record import H_DEAD
from envs.tactics_david.state import (
    N_ITEM_SLOTS,
    N_UNIT_IDS,
    PLACE_FIELD,
    RES_KILLED,
    STATUS_PERMANENT,
)
from envs.tactics_david.units import (
    apply_status,
    deathmatch_over,
    deck_to_bottom,
    guard_can,
    guard_unit,
    in_play,
    kill,
    may_act,
    side_of,
)
from envs.tactics_david.work_belt import action_slot, slot_action

Q_FEAR = 0  # gd_q: Unwavering's roll (R104)
Q_DISCARD = 1  # gd_q: an Item to discard (Incineration, R108)
Q_GUARD = 2  # gd_q: tdabJ: a death an allied Guard unit may take on (R140)


@njit
def ask_question(S, tb, b: int, go: int) -> bool:
    """At a hand-off of turn.step: tdabJ: first the first unit (id order) whose Dead Status
    waits for Guard (gd_die; of its player: A_STATUS + s, the Guard unit takes s, or A_END,
    it dies; R140); else the first unit (id order) whose Fearful waits for its
    Unwavering roll is asked (STAGE_PAUSE, of its player: A_ABILITY roll, A_END acquire it);
    else the first unit that still must discard Items (gd_disc): with no more Items than that it discards them all unasked, else its player
    picks one (A_SIDE + slot). The stage and the hand-off `go` it interrupts are kept. A unit
    no longer in play forgets its Fearful (off the battlefield, its discards); every unit
    forgets both once the game is over."""
    if S["gd_seat"][b] >= 0:
        return False
    over = S["stage"][b] == STAGE_GAME_OVER
    ask = -1
    q = Q_GUARD  # tdabJ: a death waiting for Guard first (R140)
    for u in range(N_UNIT_IDS):
        if S["gd_die"][b, u] == 0:
            continue
        if over or not in_play(S, tb, b, u):
            S["gd_die"][b, u] = 0
            S["gd_die_by"][b, u] = -1
        elif ask < 0:
            ask = u
    if ask < 0:
        q = Q_FEAR
    for u in range(N_UNIT_IDS):
        if S["gd_fear"][b, u] == 0:
            continue
        if over or not in_play(S, tb, b, u):
            S["gd_fear"][b, u] = 0
        elif ask < 0:
            ask = u
    if ask < 0:
        q = Q_DISCARD
        for u in range(N_UNIT_IDS):
            n = np.int64(S["gd_disc"][b, u])
            if n == 0:
                continue
            held = 0
            for slot in range(N_ITEM_SLOTS):
                if S["unit_item"][b, u, slot] >= 0:
                    held += 1
            if over or S["unit_place"][b, u] != PLACE_FIELD or held <= n:
                for slot in range(N_ITEM_SLOTS):  # no choice: every Item it holds goes
                    i = np.int64(S["unit_item"][b, u, slot])
                    if i >= 0 and not over and S["unit_place"][b, u] == PLACE_FIELD:
                        deck_to_bottom(S, b, i)
                        S["unit_item"][b, u, slot] = -1
                S["gd_disc"][b, u] = 0
            elif ask < 0:
                ask = u
    if ask < 0:
        return False
    S["gd_q"][b] = q
    S["gd_unit"][b] = ask
    S["gd_seat"][b] = S["current"][b]
    S["gd_stage"][b] = S["stage"][b]
    S["gd_go"][b] = go
    S["current"][b] = side_of(S, b, ask)
    S["stage"][b] = STAGE_PAUSE
    return True


@njit
def dying(S, b: int) -> bool:
    """tdabJ: whether a unit's Dead Status waits for the Guard question (gd_die; R140)."""
    for u in range(S["gd_die"].shape[1]):
        if S["gd_die"][b, u] != 0:
            return True
    return False


@njit
def legal_question(S, tb, b: int, out) -> int:
    """The question ask_question asked (STAGE_PAUSE): roll or not (A_ABILITY, A_END), or
    the Item the unit discards, by slot (A_SIDE + slot; no A_END: it must), or Guard's
    Statuses and A_END (tdabJ)."""
    if S["gd_q"][b] == Q_FEAR:
        out[0] = A_ABILITY
        out[1] = A_END
        return 2
    u = np.int64(S["gd_unit"][b])
    if S["gd_q"][b] == Q_GUARD:  # tdabJ: the Guard unit's Statuses, or the death (R140)
        return legal_guard(S, tb, b, guard_unit(S, tb, b, u), out)
    n = 0
    for slot in range(N_ITEM_SLOTS):
        if S["unit_item"][b, u, slot] >= 0:
            out[n] = slot_action(slot, A_SIDE)  # tdabG: A_BELT + t, a second slot (Work Belt)
            n += 1
    return n


@njit
def answer_question(S, tb, b: int, a: int) -> int:
    """Unwavering: roll its die (A_ABILITY) or not (A_END); unless the roll met the row (1 D6
    of 3 or more) the unit acquires Fearful now, with every consequence of it
    (units.apply_status). Incineration: the Item in that slot goes to the bottom of the Item
    Deck (TD-19.2). Then the stage, seat and hand-off the question interrupted come back
    (the GO_* to run next; turn.step asks again if more is waiting)."""
    u = np.int64(S["gd_unit"][b])
    died = False
    if S["gd_q"][b] == Q_DISCARD:
        slot = action_slot(a, A_SIDE)
        deck_to_bottom(S, b, np.int64(S["unit_item"][b, u, slot]))
        S["unit_item"][b, u, slot] = -1
        S["gd_disc"][b, u] -= 1
    elif S["gd_q"][b] == Q_GUARD:  # tdabJ (R140)
        seat = np.int64(S["gd_die"][b, u]) - 2
        by = np.int64(S["gd_die_by"][b, u])
        S["gd_die"][b, u] = 0
        S["gd_die_by"][b, u] = -1
        g = guard_unit(S, tb, b, u)
        if a != A_END and g >= 0:
            apply_status(S, tb, b, g, a - A_STATUS, np.int64(STATUS_PERMANENT))
        else:
            cause = S["fx_cause"][b]
            S["fx_cause"][b] = by  # its Dead hooks name the unit that caused it
            S["gd_die_now"][b] = u
            kill(S, tb, b, u, seat)  # with every consequence of the Dead Status now
            S["fx_cause"][b] = cause
            died = True
    else:
        row = np.int64(S["gd_row"][b])
        turns = np.int64(S["gd_fear"][b, u])
        S["gd_fear"][b, u] = 0
        kept_away = False
        if a == A_ABILITY:
            kept_away = _roll_ok(S, tb, b, row, u, _roll(S, tb, b, row, u))
        if not kept_away:
            apply_status(S, tb, b, u, np.int64(tb.status_fearful), turns)
    S["gd_unit"][b] = -1
    S["current"][b] = S["gd_seat"][b]
    S["gd_seat"][b] = -1
    S["stage"][b] = S["gd_stage"][b]
    go = np.int64(S["gd_go"][b])
    if died:  # tdabJ: what the death changes in what follows (R140)
        run_hook(S, tb, b, H_DEAD, NO_SOURCE, -1)  # its Dead hooks act now
        st = np.int64(S["stage"][b])
        if (
            u == S["engaged"][b]
            and not may_act(S, tb, b, u)
            and (go == GO_NONE or go == GO_ITEM_PHASE_1 or go == GO_END_MOVEMENT)
            and st >= STAGE_MOVE
            and st <= STAGE_LOOT
        ):
            go = np.int64(GO_ITEM_PHASE_2)  # the Engaged unit died: its Engagement ends
        elif st == STAGE_ENGAGE and go == GO_NONE:
            deathmatch_over(S, tb, b)  # the win check the Disengagement made
    return go


# --- Guard (TD-22.2.103, R105): an ally's death taken as Paralyzed or Frozen ------------------


@njit
def guard_offer(S, tb, b: int, d: int) -> bool:
    """Defender d has lost and would acquire the Dead Status: the Guard unit that may take it
    on (units.guard_unit) is noted in pz_src; returns whether there is one (R105)."""
    g = guard_unit(S, tb, b, d)
    if g < 0:
        return False
    S["pz_src"][b] = g
    return True


@njit
def legal_guard(S, tb, b: int, g: int, out) -> int:
    """The Guard question (STAGE_PAUSE: PZ_GUARD, or guard.Q_GUARD): the Statuses the Guard
    unit g can acquire instead (A_STATUS + Paralyzed / Frozen), or A_END: the unit dies
    (g < 0: no Guard unit any more, A_END only)."""
    n = 0
    for s in (np.int64(tb.status_paralyzed), np.int64(tb.status_frozen)):
        if g >= 0 and guard_can(S, tb, b, g, s):
            out[n] = A_STATUS + s
            n += 1
    out[n] = A_END
    return n + 1


@njit
def guard_take(S, tb, b: int, d: int, act: int) -> bool:
    """The answer to the Guard question: the Guard unit acquires the chosen Status (until
    discarded) and the defender d does not acquire the Dead Status; A_END: it does (units.kill
    does not ask again, gd_die_now). Returns whether the defender was saved."""
    if act == A_END:
        S["gd_die_now"][b] = d
        return False
    apply_status(S, tb, b, np.int64(S["pz_src"][b]), act - A_STATUS, np.int64(STATUS_PERMANENT))
    return True


# --- Pierce (TD-22.2.44, TD-24.5, R11, R107): the unit behind a killed defender ---------------


@njit
def pierce_cell(S, tb, b: int, a: int, d: int) -> int:
    """After attacker a's procedure against defender d (combat._attack_area): if it gave d the
    Dead Status (RES_KILLED, d Dead), a's acting Pierce was not used yet in this attack
    (gd_pierce) and the space beyond d in a's facing direction (R11) is on the battlefield,
    that space (its unit is attacked as one more entry of the area); else -1."""
    if S["gd_pierce"][b] >= 0 or not S["fx_res"][b] & RES_KILLED:
        return -1
    if S["unit_status"][b, d, tb.status_dead] == 0 or not in_play(S, tb, b, a):
        return -1
    if S["unit_ab_off"][b, a] != 0:
        return -1
    on = False
    for m in range(S["unit_n_members"][b, a]):
        prof = np.int64(S["unit_member"][b, a, m])
        if prof >= 0 and tb.ab_active[prof] and tb.ab_pierce[prof]:
            on = True
    if not on:
        return -1
    bf = np.int64(S["battlefield"][b])
    return offset_cell(tb, bf, np.int64(S["unit_cell"][b, d]), S["unit_facing"][b, a], 1, 0)
