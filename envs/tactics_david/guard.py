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

Guard (TD-22.2.103, R105): a defender that lost its Defend Procedure and would acquire the
Dead Status, with an allied Guard unit within its radius that can acquire Paralyzed or Frozen,
pauses the procedure before the Dead Status (combat.attack_unit, PZ_GUARD, the results kept as
for Lucky): its player chooses the Guard unit's Status (A_STATUS + s) or the death (A_END).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactics_david.actions import (
    A_ABILITY,
    A_END,
    A_SIDE,
    A_STATUS,
    STAGE_GAME_OVER,
    STAGE_PAUSE,
)
from envs.tactics_david.effects import _roll, _roll_ok
from envs.tactics_david.grid import offset_cell
from envs.tactics_david.state import (
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_UNIT_IDS,
    PLACE_FIELD,
    RES_KILLED,
    STATUS_PERMANENT,
)
from envs.tactics_david.units import (
    ability_immune,
    apply_status,
    deck_to_bottom,
    in_play,
    swarm_stack,
)
from envs.tactics_david.work_belt import action_slot, slot_action

Q_FEAR = 0  # gd_q: Unwavering's roll (R104)
Q_DISCARD = 1  # gd_q: an Item to discard (Incineration, R108)


@njit_inline  # one caller (turn.step)
def ask_question(S, tb, b: int, go: int) -> bool:
    """At a hand-off of turn.step: the first unit (id order) whose Fearful waits for its
    Unwavering roll is asked (STAGE_PAUSE, of its player: A_ABILITY roll, A_END acquire it);
    else the first unit that still must discard Items (gd_disc): with no more Items than that it discards them all unasked, else its player
    picks one (A_SIDE + slot). The stage and the hand-off `go` it interrupts are kept. A unit
    no longer in play forgets its Fearful (off the battlefield, its discards); every unit
    forgets both once the game is over."""
    if S["gd_seat"][b] >= 0:
        return False
    over = S["stage"][b] == STAGE_GAME_OVER
    ask = -1
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
    S["current"][b] = ask // MAX_UNITS
    S["stage"][b] = STAGE_PAUSE
    return True


@njit
def legal_question(S, tb, b: int, out) -> int:
    """The question ask_question asked (STAGE_PAUSE): roll or not (A_ABILITY, A_END), or
    the Item the unit discards, by slot (A_SIDE + slot; no A_END: it must)."""
    if S["gd_q"][b] == Q_FEAR:
        out[0] = A_ABILITY
        out[1] = A_END
        return 2
    u = np.int64(S["gd_unit"][b])
    n = 0
    for slot in range(N_ITEM_SLOTS):
        if S["unit_item"][b, u, slot] >= 0:
            out[n] = slot_action(slot, A_SIDE)  # tdabG: A_BELT + t, a second slot (Work Belt)
            n += 1
    return n


@njit_inline  # one caller (turn.step)
def answer_question(S, tb, b: int, a: int) -> int:
    """Unwavering: roll its die (A_ABILITY) or not (A_END); unless the roll met the row (1 D6
    of 3 or more) the unit acquires Fearful now, with every consequence of it
    (units.apply_status). Incineration: the Item in that slot goes to the bottom of the Item
    Deck (TD-19.2). Then the stage, seat and hand-off the question interrupted come back
    (the GO_* to run next; turn.step asks again if more is waiting)."""
    u = np.int64(S["gd_unit"][b])
    if S["gd_q"][b] == Q_DISCARD:
        slot = action_slot(a, A_SIDE)
        deck_to_bottom(S, b, np.int64(S["unit_item"][b, u, slot]))
        S["unit_item"][b, u, slot] = -1
        S["gd_disc"][b, u] -= 1
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
    return np.int64(S["gd_go"][b])


# --- Guard (TD-22.2.103, R105): an ally's death taken as Paralyzed or Frozen ------------------


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


@njit_inline  # one caller (combat.attack_unit)
def guard_offer(S, tb, b: int, d: int) -> bool:
    """Defender d has lost and would acquire the Dead Status: the first allied unit (id order)
    whose acting Guard reaches it (the row's radius, orthogonal steps) and that can acquire
    Paralyzed or Frozen is noted in pz_src; returns whether there is one (R105). A Swarm
    stack would lose a member, not acquire the Dead Status: nothing to offer."""
    if swarm_stack(S, tb, b, d):
        return False
    cols = np.int64(tb.bf_cols[S["battlefield"][b]])
    cd = np.int64(S["unit_cell"][b, d])
    p = d // MAX_UNITS
    par = np.int64(tb.status_paralyzed)
    fro = np.int64(tb.status_frozen)
    for k in range(MAX_UNITS):
        g = p * MAX_UNITS + k
        if g == d or not in_play(S, tb, b, g) or S["unit_ab_off"][b, g] != 0:
            continue
        if not guard_can(S, tb, b, g, par) and not guard_can(S, tb, b, g, fro):
            continue
        cg = np.int64(S["unit_cell"][b, g])
        dist = abs(cd // cols - cg // cols) + abs(cd % cols - cg % cols)
        for m in range(S["unit_n_members"][b, g]):
            prof = np.int64(S["unit_member"][b, g, m])
            if prof < 0 or not tb.ab_active[prof]:
                continue
            row = np.int64(tb.ab_guard_row[prof])
            if row >= 0 and dist <= tb.r_radius[row]:
                S["pz_src"][b] = g
                return True
    return False


@njit
def legal_guard(S, tb, b: int, out) -> int:
    """The Guard question (STAGE_PAUSE, PZ_GUARD): the Statuses the Guard unit (pz_src) can
    acquire instead (A_STATUS + Paralyzed / Frozen), or A_END: the defender dies."""
    g = np.int64(S["pz_src"][b])
    n = 0
    for s in (np.int64(tb.status_paralyzed), np.int64(tb.status_frozen)):
        if guard_can(S, tb, b, g, s):
            out[n] = A_STATUS + s
            n += 1
    out[n] = A_END
    return n + 1


@njit_inline  # one caller (combat.attack_unit)
def guard_take(S, tb, b: int, act: int) -> bool:
    """The answer to the Guard question: the Guard unit acquires the chosen Status (until
    discarded) and the defender does not acquire the Dead Status; A_END: it does. Returns
    whether the defender was saved."""
    if act == A_END:
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
