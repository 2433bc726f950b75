"""The Tactics David game as one decision at a time (TD-1.3, TD-5, TD-7, TD-9, TD-10).

    reset (setup.reset_game) -> STAGE_FIRST (roll-off winner) -> STAGE_DEPLOY_UNIT /
    STAGE_DEPLOY_CELL alternately (setup.py) -> Turn 1 of the first player:
    STAGE_ENGAGE (Engage a unit or end the Turn; this module; Statuses act on Engagement)
      -> Item Phase: STAGE_ITEM (items.py) -> STAGE_MOVE / STAGE_CHARGE_DIST (movement.py)
      -> STAGE_COMBAT / STAGE_RANGED_SIDE (combat.py) -> Item Phase 2: STAGE_ITEM
      -> Disengaged: STAGE_ENGAGE again (units.disengage), or STAGE_GAME_OVER
    A_END in STAGE_ENGAGE ends the Turn: Item Acquisition (STAGE_ACQUIRE, items.py), then
    units.end_turn: the other player's Turn begins.

`legal_actions` lists the actions of the decision asked; `step` applies a legal one
(the caller checked), counts the decision and advances: a decision whose only legal action is
A_END is applied at once, since the rules leave nothing to choose (actions.py).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactics_david import combat, items, movement, setup, teams
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_STATUS,
    A_TRADE,
    A_UNIT,
    GO_ACQUISITION,
    GO_AFTER_ATTACK,
    GO_DISENGAGE,
    GO_END_MOVEMENT,
    GO_END_TURN,
    GO_ITEM_PHASE_1,
    GO_ITEM_PHASE_2,
    GO_NONE,
    STAGE_BUY,
    STAGE_BUY_STACK,
    STAGE_CHARGE_DIST,
    STAGE_COMBAT,
    STAGE_DEPLOY_CELL,
    STAGE_DEPLOY_UNIT,
    STAGE_EFFECT,
    STAGE_ENGAGE,
    STAGE_FIRST,
    STAGE_GAME_OVER,
    STAGE_ITEM,
    STAGE_LOOT,
    STAGE_MOVE,
    STAGE_NONE,
    STAGE_ORIENT,
    STAGE_PAUSE,
    STAGE_RANGED_SIDE,
    STAGE_TEAM_PICK,
    STAGE_WHIP,
)
from envs.tactics_david.effects import (
    NO_SOURCE,
    choose_status,
    disengaged,
    expire,
    is_combat_row,
    legal_ability_targets,
    legal_status_choice,
    pick_ability_target,
    replaced_attack_row,
    run_hook,
    status_choice,
)
from envs.tactics_david.pause import answer_bread, ask_bread, legal_pause
from envs.tactics_david.record import (
    H_BEFORE_DISENGAGE,
    H_COMBAT,
    H_DEAD,
    H_DISENGAGED,
    H_END_TURN,
    H_ENGAGE,
    H_ENGAGE_AURA,
    H_REPLACES,
    SP_RELENTLESS,
    TRIG_ENGAGEMENT,
)
from envs.tactics_david.state import (
    FORCE_NONE,
    MAX_UNITS,
    PROC_NONE,
    RES_SPECIAL,
    RESUME_ABILITY,
    RESUME_AFTER_ATTACK,
    RESUME_DECK,
    RESUME_PLACE,
    RESUME_STATUS,
    RESUME_STUDY,
    UNTIL_DISENGAGED,
    UNTIL_TURN,
    USE_ATTACKS,
    USE_COMBAT_ABILITY,
    USE_DISENGAGED,
)
from envs.tactics_david.trails import answer_study, ask_study, clear_trail
from envs.tactics_david.units import (
    OUT_DEAD,
    OUT_DISENGAGE,
    OUT_END_MOVE,
    OUT_PAUSE,
    deathmatch_over,
    discard_status,
    disengage,
    end_turn,
    has_flag,
    has_special,
    is_dead,
    may_act,
    run_status_rows,
)

MAX_AUTO = 256  # forced A_END steps in one advance: more than a game can make in a row


@njit_inline  # one caller
def legal_engage(S, tb, b: int, out) -> int:
    """STAGE_ENGAGE (TD-7.2-7.4): Engage any own unit in play not yet Engaged this Turn; end
    the Turn, unless a unit Locked in Combat has still to attack or Escape (TD-16.3)."""
    p = np.int64(S["current"][b])
    n = 0
    forced = False
    for k in range(S["army_size"][b, p]):
        u = p * MAX_UNITS + k
        if may_act(S, tb, b, u) and not S["unit_engaged"][b, u]:
            out[n] = A_UNIT + k
            n += 1
            if S["unit_lock"][b, u] >= 0:
                forced = True
    if not forced:
        out[n] = A_END
        n += 1
    return n


@njit_inline  # one caller (step): its ability hooks link no module of their own
def apply_engage(S, tb, b: int, a: int) -> int:
    """Engage a unit or end the Turn. On Engagement its Statuses' `on_engagement` rows run
    (TD-20: Paralyzed, Blinded, Poisoned, Fearful, Haste, Enraged, Petrified, Confused); then
    its Movement Phase is asked, unless it was Disengaged, died, is still Petrified (no
    phases, TD-20.20) or was Confused (moved; its Movement Phase ends, TD-20.22). Returns
    the next step (GO_*)."""
    if a == A_END:
        return GO_ACQUISITION  # Item Acquisition, then End Player's Turn
    u = np.int64(S["current"][b]) * MAX_UNITS + (a - A_UNIT)
    S["engaged"][b] = u
    S["unit_engaged"][b, u] = 1
    S["eng_procedure"][b] = PROC_NONE
    S["eng_faced"][b] = 0
    S["eng_force"][b] = FORCE_NONE
    S["eng_whipped"][b] = 0
    S["eng_solo"][b] = 0  # Unit Teams (TD-18.3)
    S["eng_moved"][b] = 0
    S["refl_count"][b] = 0
    S["unit_uses"][b, u, USE_COMBAT_ABILITY] = 0  # its "D: Combat Pha." ability (R55)
    S["unit_uses"][b, u, USE_ATTACKS] = 0  # its Attacks (R93)
    clear_trail(S, tb, b, u)  # its trail markers are removed (TD-22.2.70)
    # its abilities' Engagement (and Movement-start, R39) rows, then the other units' rows
    # "upon their Unit Engagement" that pick it (TD-22.2), then its Statuses' rows
    run_hook(S, tb, b, H_ENGAGE, u, -1)
    run_hook(S, tb, b, H_ENGAGE_AURA, -1, u)
    if ask_study(S, tb, b, u):  # Study: keep or swap the top two Item cards (R116)
        return GO_NONE
    out = run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), 0)
    return after_engagement_rows(S, tb, b, u, out)


@njit
def after_engagement_rows(S, tb, b: int, u: int, out: int) -> int:
    """What the Engagement rows' outcome `out` leaves unit u, as the next step (GO_*): a
    "may discard" asked (STAGE_EFFECT), Disengaged (dead, Paralyzed, still Petrified: no
    phases, TD-20.20), its Movement Phase over (Confused, TD-20.22), or its Item Phase, then
    its Movement Phase. Called by apply_engage and by apply_effect_choice when the paused scan
    resumes."""
    if out & OUT_PAUSE:
        S["stage"][b] = STAGE_EFFECT  # asked of the unit's owner, the current player
        return GO_NONE
    if out & (OUT_DEAD | OUT_DISENGAGE) or has_flag(S, b, u, tb.st_no_phases):
        return GO_DISENGAGE
    if is_dead(S, tb, b, u) and not has_special(S, tb, b, u, SP_RELENTLESS):
        return GO_DISENGAGE  # Engaged while Dead and still Dead: Disengaged at once (R91)
    if out & OUT_END_MOVE:
        S["unit_moved"][b, u] = 1
        return GO_END_MOVEMENT
    return GO_ITEM_PHASE_1  # the Item Phase, then the Movement Phase


@njit_inline  # one caller
def legal_effect_choice(S, tb, b: int, out) -> int:
    """STAGE_EFFECT (R34): discard the Status (A_STATUS + s) or keep it (A_END); or the
    targets of the ability used instead of the Attack (effects.legal_ability_targets)."""
    if S["eff_next"][b] == RESUME_ABILITY:
        return legal_ability_targets(S, tb, b, out)
    if S["eff_next"][b] == RESUME_STATUS:
        return legal_status_choice(S, tb, b, out)
    if S["eff_next"][b] == RESUME_PLACE:  # a Ranged breath's or gaze's space (R88, R89)
        return combat.legal_place(S, tb, b, out)
    if S["eff_next"][b] == RESUME_DECK:  # Chemistry, Alchemy: the Item taken (R117)
        return items.legal_deck_pick(
            S, tb, b, replaced_attack_row(S, tb, b, np.int64(S["engaged"][b])), out
        )
    if S["eff_next"][b] == RESUME_STUDY:  # Study: swap the top two Item cards, or keep them
        out[0] = A_TRADE
        out[1] = A_END
        return 2
    out[0] = A_STATUS + np.int64(S["eff_status"][b])
    out[1] = A_END
    return 2


@njit_inline  # one caller
def apply_effect_choice(S, tb, b: int, a: int) -> int:
    """Discard the Status or keep it, then resume: the paused Engagement scan at the next
    Status, or the Combat Phase after an attack whose kill allowed the discard (Enraged). Fearful discarded this way may not be acquired again this Turn (TD-20.8)."""
    u = np.int64(S["eff_unit"][b])
    if S["eff_next"][b] == RESUME_DECK:  # Chemistry, Alchemy: the Item taken (R117)
        row = replaced_attack_row(S, tb, b, u)
        items.apply_deck_pick(S, tb, b, u, a)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        if is_combat_row(tb, row):  # Chemistry, "D: Combat Pha.": the phase goes on (R55)
            S["stage"][b] = STAGE_COMBAT
            return GO_NONE
        return GO_AFTER_ATTACK  # Alchemy replaced the Attack
    if S["eff_next"][b] == RESUME_STUDY:  # Study answered: the Engagement goes on (R116)
        answer_study(S, b, a)
        out = run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), 0)
        return after_engagement_rows(S, tb, b, u, out)
    if S["eff_next"][b] == RESUME_PLACE:  # the breath or gaze is made on that space
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        S["stage"][b] = STAGE_COMBAT
        if S["fx_res"][b] & RES_SPECIAL:  # a breath: a Ranged Attack on it (R88)
            return combat.apply_combat(S, tb, b, a)
        S["pending_target"][b] = a - A_CELL  # the gaze's Ranged Area placed on it (R89)
        run_hook(S, tb, b, H_REPLACES, u, -1)
        S["pending_target"][b] = -1
        return GO_AFTER_ATTACK
    if S["eff_next"][b] == RESUME_ABILITY or S["eff_next"][b] == RESUME_STATUS:
        # a target of the Combat Phase ability, or a Status it lets the player choose
        row = replaced_attack_row(S, tb, b, u)
        if S["eff_next"][b] == RESUME_ABILITY:
            if not pick_ability_target(S, tb, b, a):
                return GO_NONE
            if status_choice(tb, row):  # then the Statuses (R57)
                S["eff_next"][b] = RESUME_STATUS
                return GO_NONE
        elif not choose_status(S, tb, b, a):
            return GO_NONE
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        if is_combat_row(tb, row):  # "D: Combat Pha." (R55)
            run_hook(S, tb, b, H_COMBAT, u, -1)
            S["fx_st_pick"][b] = 0
            S["stage"][b] = STAGE_COMBAT  # the Combat Phase goes on
            return GO_NONE
        run_hook(S, tb, b, H_REPLACES, u, -1)
        S["fx_st_pick"][b] = 0
        return GO_AFTER_ATTACK
    s = np.int64(S["eff_status"][b])
    if a != A_END:
        discard_status(S, tb, b, u, s)
        if s == tb.status_fearful:
            S["unit_no_reacquire"][b, u] |= np.int32(1) << np.int32(s)
    S["eff_unit"][b] = -1
    if S["eff_next"][b] == RESUME_AFTER_ATTACK:  # Enraged's kill: the Combat Phase goes on
        return GO_AFTER_ATTACK
    out = np.int64(S["eff_out"][b])
    out |= run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), np.int64(S["eff_next"][b]))
    return after_engagement_rows(S, tb, b, u, out)


@njit
def legal_actions(S, tb, b: int, out) -> int:
    """The legal actions of game b's decision into out[:n]; n (0 once the game is over).
    Called by kernels.legal and by `step` (two callers: its own function)."""
    stage = S["stage"][b]
    if stage == STAGE_GAME_OVER or stage == STAGE_NONE:
        return 0
    if stage == STAGE_FIRST or stage == STAGE_DEPLOY_UNIT or stage == STAGE_DEPLOY_CELL:
        return setup.legal_setup(S, tb, b, out)
    if stage == STAGE_BUY or stage == STAGE_BUY_STACK:
        return setup.legal_setup(S, tb, b, out)
    if stage == STAGE_ENGAGE:
        return legal_engage(S, tb, b, out)
    if stage == STAGE_MOVE or stage == STAGE_CHARGE_DIST or stage == STAGE_WHIP:
        return movement.legal_move(S, tb, b, out)
    if stage == STAGE_COMBAT or stage == STAGE_RANGED_SIDE or stage == STAGE_TEAM_PICK:
        return combat.legal_combat(S, tb, b, out)
    if stage == STAGE_ORIENT:
        return teams.legal_orient(S, tb, b, out)
    if stage >= STAGE_ITEM and stage <= STAGE_LOOT:
        return items.legal_item(S, tb, b, out)
    if stage == STAGE_EFFECT:
        return legal_effect_choice(S, tb, b, out)
    if stage == STAGE_PAUSE:
        return legal_pause(S, tb, b, out)
    return 0


@njit_inline
def step(S, tb, b: int, a: int, out) -> int:
    """Apply legal action a (the caller checked), then apply forced A_END decisions until a
    real one is asked or the game is over; returns that decision's legal actions in out[:n]
    and n (0 once over).

    Inlined into kernels.apply (its one caller), with no wrapper levels between the kernel
    and the chapter functions: the whole rules tree is linked into one module, not once more
    per level (compile time, docs/adding_a_ruleset.md, "Habits that keep compile time
    bounded"). The phase hand-offs run in its inner loop (actions.GO_*)."""
    S["decisions"][b] += 1
    for _ in range(MAX_AUTO):
        stage = S["stage"][b]  # the decision asked, applied (one call site per phase)
        go = np.int64(GO_NONE)
        if stage == STAGE_FIRST or stage == STAGE_DEPLOY_UNIT or stage == STAGE_DEPLOY_CELL:
            setup.apply_setup(S, tb, b, a)
        elif stage == STAGE_BUY or stage == STAGE_BUY_STACK:
            setup.apply_setup(S, tb, b, a)
        elif stage == STAGE_ENGAGE:
            go = apply_engage(S, tb, b, a)
        elif stage == STAGE_MOVE or stage == STAGE_CHARGE_DIST or stage == STAGE_WHIP:
            go = movement.apply_move(S, tb, b, a)
        elif stage >= STAGE_ITEM and stage <= STAGE_LOOT:
            go = items.apply_item(S, tb, b, a)
        elif stage == STAGE_EFFECT:
            go = apply_effect_choice(S, tb, b, a)
        elif stage == STAGE_ORIENT:
            teams.apply_orient(S, tb, b, a)
        elif stage == STAGE_PAUSE and S["pz_bread_unit"][b] >= 0:
            go = answer_bread(S, tb, b, a)  # the hand-off it interrupted comes back (R74)
        elif stage == STAGE_PAUSE:
            go = combat.resume_procedure(S, tb, b, a)  # the paused procedure goes on (R72)
        else:
            go = combat.apply_combat(S, tb, b, a)
        # the phase hand-offs: each step returns the one that follows (actions.GO_*) instead
        # of calling it, so every step is one level below this loop (one call site each).
        # Before each, a Status a Giant's Bread holder acquired is offered to it (R74)
        while True:
            if ask_bread(S, tb, b, go):
                go = GO_NONE  # kept in pz_bread_go, run once the holder has answered
            if go == GO_NONE:
                break
            if go == GO_ITEM_PHASE_1:
                go = items.begin_item_phase(S, tb, b, 1)
            elif go == GO_ITEM_PHASE_2:
                go = items.begin_item_phase(S, tb, b, 2)
            elif go == GO_END_MOVEMENT:
                go = movement.end_movement(S, tb, b)
            elif go == GO_AFTER_ATTACK:
                go = combat.after_attack(S, tb, b, np.int64(S["engaged"][b]))
            elif go == GO_ACQUISITION:
                go = items.begin_acquisition(S, tb, b)
            elif go == GO_END_TURN:
                # the abilities' End of Turn rows (every unit's, TD-22.2); the Turn's lasting
                # effects end; an army they wiped out ends the game (TD-4.2)
                run_hook(S, tb, b, H_END_TURN, -1, -1)
                expire(S, b, UNTIL_TURN, -1)
                expire(S, b, UNTIL_DISENGAGED, -1)
                if not deathmatch_over(S, tb, b):
                    end_turn(S, tb, b)
                go = GO_NONE
            else:  # GO_DISENGAGE
                # its abilities' rows "before ... Disengaged" (Teamwork?, Partners?: R86)
                u = np.int64(S["engaged"][b])
                run_hook(S, tb, b, H_BEFORE_DISENGAGE, u if u >= 0 else NO_SOURCE, -1)
                if S["unit_uses"][b, u, USE_DISENGAGED] < 3:  # Hatch's counters (RA13)
                    S["unit_uses"][b, u, USE_DISENGAGED] += 1
                run_hook(S, tb, b, H_DISENGAGED, u, -1)
                disengaged(S, tb, b, u)  # lasting effects end or act
                run_hook(S, tb, b, H_DEAD, NO_SOURCE, -1)  # Dead hooks still queued
                disengage(S, tb, b)
                go = GO_NONE
        n = legal_actions(S, tb, b, out)
        if n != 1 or out[0] != A_END:
            return n
        a = np.int64(A_END)
    S["stage"][b] = STAGE_GAME_OVER  # unreachable by the rules; stops a runaway game
    return 0
