"""Abilities of other units that offer the Engaged unit's player a choice "upon their Unit
Engagement" (branch tdabA, TD-22.2.n): Research (061), Doing Science (062), Dragon Flight (194).

Their rows are `always` rows of the hook H_ENGAGE_AURA that are `optional` ("may") or part
of a `choice_group` ("may either a) ... or b) ..."); ``effects.run_hook`` skips such rows, so
they are asked here, one at a time, of the Engaged unit's player (the current player: the
unit is theirs) as a STAGE_EFFECT decision with ``S["eff_next"] = RESUME_AURA``:

    ask_aura     after the aura hook of turn.apply_engage: the next row (units in id order,
                 their rows in hook order, after the cursor S["au_src"], S["au_i"]) that
                 reaches the Engaged unit; none left: the Engagement goes on (R96)
    legal_aura   the answers: A_STATUS + s, a listed Status the unit has, to discard it
                 (Research); A_SIDE + k, the k-th row of the choice group (Doing Science:
                 0 Movement, 1 Strength); A_ABILITY, use the row (Dragon Flight); A_END, decline
    answer_aura  acts on the answer, then asks the next row (True) or hands back (False)

Only the kinds these rows use are acted on here (discard_status `listed`, movement_change,
strength_change), and only such rows are asked, so no row acts by half. Compile cost: three
small functions below turn.py's STAGE_EFFECT dispatch and apply_engage, each one call site.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import (
    A_ABILITY,
    A_BELT,
    A_CELL,
    A_END,
    A_SIDE,
    A_STATUS,
    GO_NONE,
    STAGE_COMBAT,
    STAGE_EFFECT,
    STAGE_GAME_OVER,
    STAGE_PAUSE,
)
from envs.tactics_david.effects import (
    DISCARD_LISTED,
    GAIN_TRANSFERRED,
    ITEM_MAY_EQUIP,
    K_DISCARD,
    K_GAIN,
    K_IGNORE,
    K_ITEM,
    K_MOVE,
    K_STRENGTH,
    SEL_WITHIN,
    _alive,
    _amount,
    _pickable,
    _team_ok,
    ability_on,
    add_active,
    conditions_hold,
    distance,
    replaced_attack_row,
    target_ok,
)
from envs.tactics_david.items import equip
from envs.tactics_david.record import H_COMBAT, H_ENGAGE_AURA, TEAM_PACK
from envs.tactics_david.replace import replace_unit
from envs.tactics_david.state import (
    N_ITEM_TYPES,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
    RESUME_AURA,
    RESUME_CHOICE,
    RESUME_PACK,
    RESUME_PICK2,
    STATUS_PERMANENT,
    UNTIL_AFTER_COMBAT,
    UNTIL_DISENGAGED,
    UNTIL_TURN,
)
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    apply_status,
    deck_to_bottom,
    discard_status,
    named_by_space,
    side_of,
)
from envs.tactics_david.work_belt import action_slot, slot_action

DUR_TURN = ut.DURATIONS.index("turn")
MAX_GROUP = 4  # rows of one choice group (A_SIDE + k, k < 4)


@njit
def _reaches(S, tb, b: int, row: int, src: int, u: int) -> bool:
    """Whether aura row `row` of unit src is one to ask for the Engaged unit u: a kind this
    module acts on, a `units_within` row whose team and radius cover u, its conditions
    holding (Dragon Flight: of the Egg Root), and, for a discard, u has a listed Status."""
    if not (tb.r_optional[row] or tb.r_group[row] != 0) or tb.r_sel[row] != SEL_WITHIN:
        return False
    kind = np.int64(tb.r_kind[row])
    discard = kind == K_DISCARD and tb.r_mode[row] == DISCARD_LISTED
    if not (discard or kind == K_MOVE or kind == K_STRENGTH):
        return False
    if not _pickable(S, tb, b, row, u) or not _team_ok(S, tb, b, row, src, u):
        return False
    if u != src and distance(S, tb, b, u, src) > tb.r_radius[row]:
        return False
    if discard:
        bits = np.int64(tb.r_statuses[row])
        has = False
        for s in range(N_STATUSES):
            if S["unit_status"][b, u, s] != 0 and (bits >> s) & 1:
                has = True
        if not has:
            return False
    return conditions_hold(S, tb, b, row, src, u, -1, -1, -1)


@njit
def ask_aura(S, tb, b: int, u: int) -> bool:
    """Ask the next aura row that offers the Engaged unit u a choice (after the cursor
    au_src/au_m/au_i; au_src -1: from the start): STAGE_EFFECT, RESUME_AURA, True. None left:
    the cursor is cleared and False (the Engagement goes on). A choice group is asked once,
    at its first row."""
    started = S["au_src"][b] < 0
    for src in range(N_UNIT_IDS):
        for m in range(ability_count(S, b, src)):
            prof = ability_prof(S, b, src, m)
            if prof < 0 or not ability_on(S, tb, b, src, prof):
                continue
            start = np.int64(tb.hk_start[H_ENGAGE_AURA, prof])
            for i in range(start, start + tb.hk_count[H_ENGAGE_AURA, prof]):
                if not started:  # the cursor names the member too: two may share (R144)
                    started = src == S["au_src"][b] and m == S["au_m"][b] and i == S["au_i"][b]
                    continue
                row = np.int64(tb.hk_rows[i])
                g = tb.r_group[row]
                if g != 0 and i > start and tb.r_group[tb.hk_rows[i - 1]] == g:
                    continue  # a later row of a group already asked at its first
                if not _reaches(S, tb, b, row, src, u):
                    continue
                S["au_src"][b] = src
                S["au_m"][b] = m
                S["au_i"][b] = i
                S["eff_unit"][b] = u
                S["eff_status"][b] = -1
                S["eff_next"][b] = RESUME_AURA
                S["stage"][b] = STAGE_EFFECT
                return True
    S["au_src"][b] = -1
    S["au_m"][b] = 0
    S["au_i"][b] = 0
    return False


@njit
def legal_aura(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_AURA: the answers to the aura row asked (module docstring)."""
    u = np.int64(S["eff_unit"][b])
    src = np.int64(S["au_src"][b])
    i = np.int64(S["au_i"][b])
    row = np.int64(tb.hk_rows[i])
    n = 0
    if tb.r_group[row] != 0:
        end = (
            tb.hk_start[H_ENGAGE_AURA, tb.r_ability[row]]
            + tb.hk_count[H_ENGAGE_AURA, tb.r_ability[row]]
        )
        for k in range(MAX_GROUP):
            if i + k >= end or tb.r_group[tb.hk_rows[i + k]] != tb.r_group[row]:
                break
            if _reaches(S, tb, b, np.int64(tb.hk_rows[i + k]), src, u):
                out[n] = A_SIDE + k
                n += 1
    elif tb.r_kind[row] == K_DISCARD:
        bits = np.int64(tb.r_statuses[row])
        for s in range(N_STATUSES):
            if S["unit_status"][b, u, s] != 0 and (bits >> s) & 1:
                out[n] = A_STATUS + s
                n += 1
    else:
        out[n] = A_ABILITY
        n += 1
    out[n] = A_END
    return n + 1


@njit
def answer_aura(S, tb, b: int, a: int) -> bool:
    """Act on the answer to the aura row asked, then ask the next one; True while a question
    is asked, False once none is left (eff_* cleared: the Engagement goes on)."""
    u = np.int64(S["eff_unit"][b])
    src = np.int64(S["au_src"][b])
    row = np.int64(tb.hk_rows[S["au_i"][b]])
    if a >= A_STATUS and a < A_STATUS + N_STATUSES:  # Research: discard it; the other too?
        discard_status(S, tb, b, u, a - A_STATUS)
        if _reaches(S, tb, b, row, src, u):
            return True  # another listed Status is left: asked again
    elif a != A_END:
        if a >= A_SIDE and a < A_SIDE + MAX_GROUP:  # the chosen row of the group
            row = np.int64(tb.hk_rows[S["au_i"][b] + a - A_SIDE])
        S["fx_cause"][b] = src
        until = UNTIL_TURN if tb.r_duration[row] == DUR_TURN else UNTIL_DISENGAGED
        add_active(S, tb, b, row, u, _amount(S, tb, b, row, src), until)
        S["fx_cause"][b] = -1
    if ask_aura(S, tb, b, u):
        return True
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    return False


@njit
def after_combat_phase(S, tb, b: int, u: int) -> None:
    """Unit u's Combat Phase is over (turn.step, at the hand-off to Item Phase 2 or to its
    Disengagement): the Statuses its abilities' rows gave "after this Unit's Combat Phase"
    (Petrifying Peck's Petrified: `gain_status` `after_combat_phase`, held in fx slots with
    UNTIL_AFTER_COMBAT and fx_amount = u) are acquired by the units still alive (R97)."""
    S["au_pack"][b] = -1  # Spider Pack's combination ends with the Combat Phase (R101)
    S["au_pack_asked"][b] = 0
    for k in range(S["fx_row"].shape[1]):
        row = np.int64(S["fx_row"][b, k])
        if row < 0 or S["fx_until"][b, k] != UNTIL_AFTER_COMBAT or S["fx_amount"][b, k] != u:
            continue
        v = np.int64(S["fx_unit"][b, k])
        S["fx_row"][b, k] = -1
        S["fx_unit"][b, k] = -1
        if not _alive(S, tb, b, v):
            continue
        bits = np.int64(tb.r_statuses[row])
        for s in range(N_STATUSES):
            if (bits >> s) & 1:
                apply_status(S, tb, b, v, s, STATUS_PERMANENT)


# --- a choice made once an ability's roll succeeded (Hex, Bite; R98) -------------------------


@njit
def _in_deck(S, b: int, item: int) -> int:
    """Where Item `item` lies in the Item Deck (deck[0] the bottom), -1 not there."""
    for k in range(S["deck_count"][b]):
        if S["deck"][b, k] == item:
            return k
    return -1


@njit
def _choices(S, tb, b: int, out) -> int:
    """The answers to the pending choice (au_pend_*): Hex (`gain_status` `player_choice`) a
    Status the target lacks, its Unit Type may carry and the row does not except (A_STATUS +
    s); Bite (`item` `discard_weapon_or_accessory`) its equipped Weapon or Accessory by
    slot (A_SIDE + slot)."""
    row = np.int64(S["au_pend_row"][b])
    v = np.int64(S["au_pend_unit"][b])
    n = 0
    offer = np.int64(S["au_pend_offer"][b])
    if offer != 0 and v >= 0:  # Recover: the Statuses it may discard, or keep them (R99)
        for s in range(N_STATUSES):
            if (offer >> s) & 1 and S["unit_status"][b, v, s] != 0:
                out[n] = A_STATUS + s
                n += 1
        if n > 0:
            out[n] = A_END
            n += 1
        return n
    if row < 0 or v < 0 or not _alive(S, tb, b, v):
        return 0
    if tb.r_kind[row] == K_ITEM and tb.r_mode[row] == ITEM_MAY_EQUIP:
        if _in_deck(S, b, np.int64(tb.r_item[row])) >= 0:  # Make Bread: equip it? (R103)
            out[0] = A_ABILITY
            out[1] = A_END
            n = 2
        return n
    if tb.r_kind[row] == K_ITEM:
        for slot in range(S["unit_item"].shape[2]):  # Weapon, Accessory (TD-19.1), each slot
            if slot % N_ITEM_TYPES < 2 and S["unit_item"][b, v, slot] >= 0:  # tdabG: Work Belt
                out[n] = slot_action(slot, A_SIDE)
                n += 1
        return n
    t = np.int64(S["unit_type"][b, v])
    for s in range(N_STATUSES):
        if (
            S["unit_status"][b, v, s] == 0
            and tb.st_afflicts[s, t]
            and not (np.int64(tb.r_except[row]) >> s) & 1
        ):
            out[n] = A_STATUS + s
            n += 1
    return n


@njit
def ask_pending(S, tb, b: int, u: int) -> bool:
    """After unit u's ability acted (turn.apply_effect_choice): if a row noted a choice
    (effects._apply_effect) and it has answers, ask u's player (STAGE_EFFECT, RESUME_CHOICE)
    and return True; else clear it and return False."""
    out = np.empty(N_STATUSES + 1, dtype=np.int64)
    pending = S["au_pend_n"][b] > 0 or S["au_pend_offer"][b] != 0
    if pending and _choices(S, tb, b, out) > 0:
        S["eff_unit"][b] = u
        S["eff_status"][b] = -1
        S["eff_next"][b] = RESUME_CHOICE
        S["stage"][b] = STAGE_EFFECT
        if S["au_pend_offer"][b] != 0 and S["au_seat"][b] < 0:  # the target's player (R99)
            S["au_seat"][b] = S["current"][b]
            S["current"][b] = side_of(S, b, np.int64(S["au_pend_unit"][b]))
        return True
    if S["au_seat"][b] >= 0:  # the seat asked goes back
        S["current"][b] = S["au_seat"][b]
        S["au_seat"][b] = -1
    S["au_pend_row"][b] = -1
    S["au_pend_unit"][b] = -1
    S["au_pend_n"][b] = 0
    S["au_pend_offer"][b] = 0
    if S["eff_next"][b] == RESUME_CHOICE:  # our question ends (any other one stays)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
    return False


@njit
def legal_choice(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_CHOICE: the answers (no A_END: the text says it happens)."""
    return _choices(S, tb, b, out)


@njit
def answer_choice(S, tb, b: int, a: int) -> bool:
    """Apply the answer: the target acquires that Status, or discards that Item to the bottom
    of the Item Deck (TD-19.2); True while another choice is asked (Hex's second Status)."""
    v = np.int64(S["au_pend_unit"][b])
    if S["au_pend_offer"][b] != 0:  # Recover: discard it (Dead: alive again), or keep all
        row = np.int64(S["au_pend_row"][b])
        if a == A_END:
            S["au_pend_offer"][b] = 0
        elif row >= 0 and tb.r_kind[row] == K_IGNORE:  # tdabD: Soothe ignores it (R106)
            S["gd_ignore"][b, v] |= np.int32(1) << np.int32(a - A_STATUS)
            S["au_pend_offer"][b] &= ~(np.int32(1) << np.int32(a - A_STATUS))
        else:
            discard_status(S, tb, b, v, a - A_STATUS)
            S["au_pend_offer"][b] &= ~(np.int32(1) << np.int32(a - A_STATUS))
        return ask_pending(S, tb, b, np.int64(S["eff_unit"][b]))
    if a == A_ABILITY or a == A_END:  # Make Bread: the Bread leaves the deck, equipped (R103)
        item = np.int64(tb.r_item[S["au_pend_row"][b]])
        k = _in_deck(S, b, item)
        if a == A_ABILITY and k >= 0:
            n = np.int64(S["deck_count"][b])
            for j in range(k, n - 1):
                S["deck"][b, j] = S["deck"][b, j + 1]
            S["deck"][b, n - 1] = -1
            S["deck_count"][b] = n - 1
            equip(S, tb, b, v, item)
        S["au_pend_n"][b] = 0
        return ask_pending(S, tb, b, np.int64(S["eff_unit"][b]))
    if (a >= A_SIDE and a < A_SIDE + 2) or a >= A_BELT:  # tdabG: or a second slot (Work Belt)
        slot = action_slot(a, A_SIDE)
        item = np.int64(S["unit_item"][b, v, slot])
        S["unit_item"][b, v, slot] = -1
        deck_to_bottom(S, b, item)
    else:
        S["fx_cause"][b] = S["eff_unit"][b]
        apply_status(S, tb, b, v, a - A_STATUS, STATUS_PERMANENT)
        S["fx_cause"][b] = -1
    S["au_pend_n"][b] -= 1
    return ask_pending(S, tb, b, np.int64(S["eff_unit"][b]))


# --- Downgrade's "may" once its unit acquired the Dead Status (R100) -------------------------


@njit
def ask_downgrade(S, tb, b: int, go: int) -> bool:
    """At a hand-off of turn.step (after Giant's Bread's question): if a unit's Downgrade roll
    succeeded when it acquired the Dead Status (effects.run_hook noted it in au_dg_*) and it
    is still Dead on the battlefield, ask its player (STAGE_PAUSE, A_ABILITY: be replaced by a
    Skeleton; A_END: stay Dead), keeping the stage and the hand-off `go` it interrupts."""
    v = np.int64(S["au_dg_unit"][b])
    if v < 0 or S["au_dg_seat"][b] >= 0 or S["stage"][b] == STAGE_GAME_OVER:
        return False
    if S["unit_place"][b, v] != PLACE_FIELD or S["unit_status"][b, v, tb.status_dead] == 0:
        S["au_dg_unit"][b] = -1
        return False
    S["au_dg_seat"][b] = S["current"][b]
    S["au_dg_stage"][b] = S["stage"][b]
    S["au_dg_go"][b] = go
    S["current"][b] = side_of(S, b, v)
    S["stage"][b] = STAGE_PAUSE
    return True


@njit
def legal_yes_no(S, tb, b: int, out) -> int:
    """Downgrade's question (STAGE_PAUSE) and Spider Pack's (STAGE_EFFECT, RESUME_PACK):
    A_ABILITY (use it) or A_END."""
    out[0] = A_ABILITY
    out[1] = A_END
    return 2


@njit
def answer_downgrade(S, tb, b: int, a: int) -> int:
    """Use Downgrade (the unit discards the Dead Status and is replaced by a fresh Skeleton
    under its owner's control, replace.replace_unit) or not; then the stage, seat and hand-off
    the question interrupted come back (the GO_* to run next)."""
    v = np.int64(S["au_dg_unit"][b])
    if a == A_ABILITY:
        replace_unit(S, tb, b, np.int64(S["au_dg_row"][b]), v, v)
    S["au_dg_unit"][b] = -1
    S["current"][b] = S["au_dg_seat"][b]
    S["au_dg_seat"][b] = -1
    S["stage"][b] = S["au_dg_stage"][b]
    return np.int64(S["au_dg_go"][b])


# --- Spider Pack: combine the partner's Strength Ratings in this Combat Phase (R101) ----------


@njit
def ask_pack(S, tb, b: int, go: int) -> bool:
    """At a hand-off of turn.step: the Engaged unit's Combat Phase asks its first decision
    (STAGE_COMBAT) and its Unit Team partner, in play, has an acting Spider Pack
    (tb.ab_team TEAM_PACK): ask its player once in this Combat Phase whether it combines the
    partner's Strength Ratings with its own (STAGE_EFFECT, RESUME_PACK; combat.strength)."""
    if go != GO_NONE or S["stage"][b] != STAGE_COMBAT or S["au_pack_asked"][b]:
        return False
    u = np.int64(S["engaged"][b])
    if u < 0:
        return False
    p = np.int64(S["unit_team"][b, u])
    if p < 0 or not _alive(S, tb, b, p):
        return False
    has = False
    for m in range(ability_count(S, b, p)):
        prof = ability_prof(S, b, p, m)
        if prof >= 0 and tb.ab_team[prof] & TEAM_PACK and ability_on(S, tb, b, p, prof):
            has = True
    if not has:
        return False
    S["au_pack_asked"][b] = 1
    S["eff_unit"][b] = u
    S["eff_status"][b] = -1
    S["eff_next"][b] = RESUME_PACK
    S["stage"][b] = STAGE_EFFECT
    return True


@njit
def answer_pack(S, tb, b: int, a: int) -> None:
    """Combine (A_ABILITY) or not (A_END); the Combat Phase goes on."""
    if a == A_ABILITY:
        S["au_pack"][b] = S["unit_team"][b, S["engaged"][b]]
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["stage"][b] = STAGE_COMBAT


# --- Crystal Power: the unit that acquires the Status discarded (R102) ----------------------


@njit
def _second_row(tb, row: int) -> int:
    """The ability's `gain_status` `transferred` row among its Combat Phase rows, -1 none."""
    prof = np.int64(tb.r_ability[row])
    start = np.int64(tb.hk_start[H_COMBAT, prof])
    for i in range(start, start + tb.hk_count[H_COMBAT, prof]):
        r = np.int64(tb.hk_rows[i])
        if tb.r_kind[r] == K_GAIN and tb.r_mode[r] == GAIN_TRANSFERRED:
            return r
    return -1


@njit
def legal_second(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_PICK2: the space of each unit the `transferred` row may pick
    (its Range Area in Line of Sight), other than the first target (A_CELL + c)."""
    u = np.int64(S["engaged"][b])
    r2 = _second_row(tb, replaced_attack_row(S, tb, b, u))
    n = 0
    for v in range(N_UNIT_IDS):
        if v != S["fx_pick"][b, 0] and target_ok(S, tb, b, u, r2, v) and named_by_space(S, b, v):
            out[n] = A_CELL + S["unit_cell"][b, v]
            n += 1
    return n


@njit
def ask_second(S, tb, b: int, u: int, row: int) -> bool:
    """Once the Status to discard is chosen (turn.apply_effect_choice): if the ability gives
    it to another unit (Crystal Power's `transferred` row) and one may be picked, ask its
    player which (STAGE_EFFECT, RESUME_PICK2) and return True."""
    S["au_pick2"][b] = -1
    r2 = _second_row(tb, row)
    if r2 < 0 or S["fx_st_pick"][b] == 0:
        return False
    out = np.empty(N_UNIT_IDS, dtype=np.int64)
    if legal_second(S, tb, b, out) == 0:
        return False
    S["eff_next"][b] = RESUME_PICK2
    return True
