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

from envs.core.jit import njit
from envs.tactics_david import ability_attacks, combat, control, items, movement, setup, teams
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_FACE,
    A_PIECE,
    A_STATUS,
    A_TRADE,
    A_TYPE,
    A_UNIT,
    GO_ACQUISITION,
    GO_AFTER_ATTACK,
    GO_DISENGAGE,
    GO_DISENGAGED,
    GO_END_MOVEMENT,
    GO_END_TURN,
    GO_ENGAGE_ROWS,
    GO_ITEM_PHASE_1,
    GO_ITEM_PHASE_2,
    GO_NONE,
    GO_TURN_OVER,
    STAGE_BUY,
    STAGE_BUY_ITEM,
    STAGE_BUY_ITEM_UNIT,
    STAGE_BUY_STACK,
    STAGE_CHARGE_DIST,
    STAGE_COMBAT,
    STAGE_DECLARE,
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
from envs.tactics_david.auras import (
    after_combat_phase,
    answer_aura,
    answer_choice,
    answer_downgrade,
    answer_pack,
    ask_aura,
    ask_downgrade,
    ask_pack,
    ask_pending,
    ask_second,
    legal_aura,
    legal_choice,
    legal_second,
    legal_yes_no,
)
from envs.tactics_david.effects import (
    K_REPOSITION,
    NO_SOURCE,
    REPOS_SUMMON,
    choose_status,
    disengaged,
    expire,
    is_combat_row,
    legal_ability_targets,
    legal_status_choice,
    pick_ability_target,
    range_rating,
    replaced_attack_row,
    run_hook,
    status_choice,
)
from envs.tactics_david.floodplains import refresh_flood
from envs.tactics_david.guard import answer_question, ask_question, dying, legal_question
from envs.tactics_david.pause import answer_bread, ask_bread, legal_pause
from envs.tactics_david.possess import (
    answer_grapple,
    answer_learn,
    answer_shed,
    ask_learn,
    legal_grapple,
    legal_learn,
    legal_possessed,
)
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
    AB_OFF_BLIGHT,
    FORCE_NONE,
    MAX_CELLS,
    MAX_UNITS,
    PLACE_FIELD,
    PROC_NONE,
    RES_SPECIAL,
    RESUME_ABILITY,
    RESUME_AFTER_ATTACK,
    RESUME_ALTER,
    RESUME_AURA,
    RESUME_CHANT,
    RESUME_CHOICE,
    RESUME_DECK,
    RESUME_GRAPPLE,
    RESUME_GRAPPLE_CELL,
    RESUME_GUIDE,
    RESUME_GUIDE_FACE,
    RESUME_LEARN,
    RESUME_LOB,
    RESUME_PACK,
    RESUME_PICK2,
    RESUME_PLACE,
    RESUME_SHAPE,
    RESUME_SHED,
    RESUME_STATUS,
    RESUME_STEAL,
    RESUME_STUDY,
    RESUME_SUMMON,
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
    OUT_GUARD,
    OUT_PAUSE,
    deathmatch_over,
    discard_status,
    disengage,
    end_turn,
    has_flag,
    has_special,
    is_dead,
    may_act,
    move_to,
    run_status_rows,
    unlock,
)

MAX_AUTO = 256  # forced A_END steps in one advance: more than a game can make in a row


@njit
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
    n = legal_possessed(S, tb, b, p, out, n)  # tdabI: its Possessed units, by space (R137)
    if not forced:
        out[n] = A_END
        n += 1
    return n


@njit
def apply_engage(S, tb, b: int, a: int) -> int:
    """Engage a unit or end the Turn. On Engagement its Statuses' `on_engagement` rows run
    (TD-20: Paralyzed, Blinded, Poisoned, Fearful, Haste, Enraged, Petrified, Confused); then
    its Movement Phase is asked, unless it was Disengaged, died, is still Petrified (no
    phases, TD-20.20) or was Confused (moved; its Movement Phase ends, TD-20.22). Returns
    the next step (GO_*)."""
    if a == A_END:
        return GO_ACQUISITION  # Item Acquisition, then End Player's Turn
    u = np.int64(S["current"][b]) * MAX_UNITS + (a - A_UNIT)
    if a < A_UNIT:  # tdabI: a Possessed unit, named by its space (R137)
        u = np.int64(S["cell_unit"][b, a - A_CELL, 0])
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
    S["unit_ab_off"][b, u] &= ~np.uint8(AB_OFF_BLIGHT)  # Ghoul Blight ends (R127)
    if S["unit_shape"][b, u] >= 0:  # Nature Shape's form ends (R132)
        control.set_shape(S, tb, b, u, np.int64(-1), np.int64(-1))
    clear_trail(S, tb, b, u)  # its trail markers are removed (TD-22.2.70)
    # its abilities' Engagement (and Movement-start, R39) rows, then the other units' rows
    # "upon their Unit Engagement" that pick it (TD-22.2), then its Statuses' rows
    run_hook(S, tb, b, H_ENGAGE, u, -1)
    run_hook(S, tb, b, H_ENGAGE_AURA, -1, u)
    if ask_aura(S, tb, b, u):  # tdabA: another unit's "may" aura row, asked first (R96)
        return GO_NONE
    if ask_study(S, tb, b, u):  # Study: keep or swap the top two Item cards (R116)
        return GO_NONE
    if ask_learn(S, tb, b, u):  # tdabF: Learn: the unit whose ability it takes (R134)
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
    if out & OUT_GUARD:  # tdabJ: Poisoned's Dead waits for Guard, then the rows go on (R140)
        return GO_ENGAGE_ROWS
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
    if control.shape_member(S, tb, b, u) >= 0:  # Nature Shape: its form first (R132)
        S["eff_unit"][b] = u
        S["eff_next"][b] = RESUME_SHAPE
        S["stage"][b] = STAGE_EFFECT
        return GO_NONE
    return GO_ITEM_PHASE_1  # the Item Phase, then the Movement Phase


@njit
def legal_effect_choice(S, tb, b: int, out) -> int:
    """STAGE_EFFECT (R34): discard the Status (A_STATUS + s) or keep it (A_END); or the
    targets of the ability used instead of the Attack (effects.legal_ability_targets)."""
    if S["eff_next"][b] == RESUME_ABILITY:
        return legal_ability_targets(S, tb, b, out)
    if S["eff_next"][b] == RESUME_STATUS:
        return legal_status_choice(S, tb, b, out)
    if S["eff_next"][b] == RESUME_PLACE:  # a Ranged breath's or gaze's space (R88, R89)
        return combat.legal_place(S, tb, b, out)
    if S["eff_next"][b] == RESUME_AURA:  # tdabA: an aura's choice on Engagement (R96)
        return legal_aura(S, tb, b, out)
    if S["eff_next"][b] == RESUME_CHOICE:  # tdabA: a choice the ability's roll gave (R98)
        return legal_choice(S, tb, b, out)
    if S["eff_next"][b] == RESUME_PACK:  # tdabA: Spider Pack's "may combine" (R101)
        return legal_yes_no(S, tb, b, out)
    if S["eff_next"][b] == RESUME_PICK2:  # tdabA: Crystal Power's second unit (R102)
        return legal_second(S, tb, b, out)
    if S["eff_next"][b] == RESUME_SUMMON:  # where Summon moves its unit (R129)
        u = np.int64(S["eff_unit"][b])
        rr = range_rating(S, tb, b, u)
        n = control.summon_cells(S, tb, b, u, np.int64(S["fx_pick"][b, 0]), rr, out)
        for i in range(n):
            out[i] += A_CELL
        return n
    if S["eff_next"][b] == RESUME_SHAPE:  # Nature Shape's forms, or none (R132)
        return control.legal_shape(S, tb, b, out)
    if S["eff_next"][b] == RESUME_GUIDE:  # False Guide: where its target goes (R131)
        v = np.int64(S["eff_unit"][b])
        n = 0
        if S["unit_lock"][b, v] < 0 and S["unit_team"][b, v] < 0:
            dest = np.zeros(MAX_CELLS, dtype=np.int64)
            movement.reach(S, tb, b, v, dest)
            for c in range(MAX_CELLS):
                if dest[c] and S["cell_unit"][b, c, 0] < 0:
                    out[n] = A_CELL + c
                    n += 1
        out[n] = A_END  # it stays
        return n + 1
    if S["eff_next"][b] == RESUME_GUIDE_FACE:  # ... then its Facing Procedure (R131)
        for d in range(4):
            out[d] = A_FACE + d
        return 4
    if S["eff_next"][b] == RESUME_ALTER:  # Alter's stack: a Unit Type not its own (R126)
        n = 0
        for t in range(3):
            if t != S["unit_type"][b, S["eff_unit"][b]]:
                out[n] = A_TYPE + t
                n += 1
        return n
    if S["eff_next"][b] == RESUME_DECK:  # Chemistry, Alchemy: the Item taken (R117)
        return items.legal_deck_pick(
            S, tb, b, replaced_attack_row(S, tb, b, np.int64(S["engaged"][b])), out
        )
    if S["eff_next"][b] == RESUME_GRAPPLE or S["eff_next"][b] == RESUME_GRAPPLE_CELL:
        return legal_grapple(S, tb, b, out)  # tdabF: Grapple Tentacle (R133)
    if S["eff_next"][b] == RESUME_LEARN:  # tdabF: Learn's unit, or none (R134)
        return legal_learn(S, tb, b, out)
    if S["eff_next"][b] == RESUME_SHED:  # tdabF: Shed: leave a Marker, or not (R135)
        return legal_yes_no(S, tb, b, out)  # A_ABILITY yes, A_END no
    if S["eff_next"][b] == RESUME_CHANT:  # tdabE: Chant's allies and Statuses (R118)
        return ability_attacks.legal_chant(S, tb, b, out)
    if S["eff_next"][b] == RESUME_LOB:  # tdabE: Lob's target, then its Item (R121)
        return ability_attacks.legal_lob(S, tb, b, out)
    if S["eff_next"][b] == RESUME_STEAL:  # tdabE: the unit Steal loots (R122)
        return ability_attacks.legal_steal(S, tb, b, out)
    if S["eff_next"][b] == RESUME_STUDY:  # Study: swap the top two Item cards, or keep them
        out[0] = A_TRADE
        out[1] = A_END
        return 2
    out[0] = A_STATUS + np.int64(S["eff_status"][b])
    out[1] = A_END
    return 2


@njit
def apply_effect_choice(S, tb, b: int, a: int) -> int:
    """Discard the Status or keep it, then resume: the paused Engagement scan at the next
    Status, or the Combat Phase after an attack whose kill allowed the discard (Enraged). Fearful discarded this way may not be acquired again this Turn (TD-20.8)."""
    u = np.int64(S["eff_unit"][b])
    if S["eff_next"][b] == RESUME_AURA:  # tdabA: answered; the next aura row, or on (R96)
        if answer_aura(S, tb, b, a):
            return GO_NONE
        if ask_study(S, tb, b, u):  # then its own Study (R116)
            return GO_NONE
        if ask_learn(S, tb, b, u):  # tdabF: then its Learn (R134)
            return GO_NONE
        out = run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), 0)
        return after_engagement_rows(S, tb, b, u, out)
    if S["eff_next"][b] == RESUME_GRAPPLE or S["eff_next"][b] == RESUME_GRAPPLE_CELL:
        answer_grapple(S, tb, b, a)  # tdabF: Grapple Tentacle's next pull (R133)
        return GO_NONE
    if S["eff_next"][b] == RESUME_SHED:  # tdabF: Shed answered: the Movement Phase goes on
        answer_shed(S, b, a)
        return GO_NONE
    if S["eff_next"][b] == RESUME_LEARN:  # tdabF: Learn answered: the Engagement goes on
        answer_learn(S, tb, b, a)
        out = run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), 0)
        return after_engagement_rows(S, tb, b, u, out)
    if S["eff_next"][b] == RESUME_PACK:  # tdabA: Spider Pack answered; the phase goes on
        answer_pack(S, tb, b, a)
        return GO_NONE
    if S["eff_next"][b] == RESUME_CHANT:  # tdabE: another pick, or the Ranged Hits (R118)
        ability_attacks.answer_chant(S, tb, b, a)
        return GO_NONE
    if S["eff_next"][b] == RESUME_LOB:  # tdabE: the Item next, or Lob acts (R121)
        ability_attacks.answer_lob(S, tb, b, a)
        return GO_NONE
    if S["eff_next"][b] == RESUME_STEAL:  # tdabE: Steal's Loot Procedure (R122)
        ability_attacks.answer_steal(S, tb, b, a)
        return GO_NONE
    if S["eff_next"][b] == RESUME_CHOICE:  # tdabA: answered; another, or the phase goes on
        row = np.int64(S["au_pend_row"][b])
        if answer_choice(S, tb, b, a):
            return GO_NONE
        if row >= 0 and is_combat_row(tb, row):  # tdabD: Soothe, a Combat Phase ability
            S["stage"][b] = STAGE_COMBAT
            return GO_NONE
        return GO_AFTER_ATTACK
    if S["eff_next"][b] == RESUME_SHAPE:  # it acts as that unit, or stays itself (R132)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        if a != A_END:
            m = control.shape_member(S, tb, b, u)
            control.set_shape(S, tb, b, u, m, a - A_PIECE)
        return GO_ITEM_PHASE_1
    if S["eff_next"][b] == RESUME_GUIDE:  # False Guide's target moves (R131)
        if a != A_END:
            move_to(S, b, u, a - A_CELL)
        S["eff_next"][b] = RESUME_GUIDE_FACE
        return GO_NONE
    if S["eff_next"][b] == RESUME_GUIDE_FACE:  # ... and faces; the Combat Phase goes on
        if S["unit_facing"][b, u] != a - A_FACE:
            unlock(S, b, u)  # no longer face to face (as R33)
        S["unit_facing"][b, u] = a - A_FACE
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        S["stage"][b] = STAGE_COMBAT
        return GO_NONE
    if S["eff_next"][b] == RESUME_SUMMON:  # Summon's unit goes to that space (R129)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        S["pending_target"][b] = a - A_CELL
        run_hook(S, tb, b, H_REPLACES, u, -1)
        S["pending_target"][b] = -1
        return GO_AFTER_ATTACK
    if S["eff_next"][b] == RESUME_ALTER:  # Alter's stack takes the chosen Unit Type (R126)
        items.set_unit_type(S, tb, b, u, a - A_TYPE)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        return GO_AFTER_ATTACK
    if S["eff_next"][b] == RESUME_DECK:  # Chemistry, Alchemy: the Item taken (R117)
        row = replaced_attack_row(S, tb, b, u)
        items.apply_deck_pick(S, tb, b, u, a, row)
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        if is_combat_row(tb, row):  # Chemistry, "D: Combat Pha.": the phase goes on (R55)
            S["stage"][b] = STAGE_COMBAT
            return GO_NONE
        return GO_AFTER_ATTACK  # Alchemy replaced the Attack
    if S["eff_next"][b] == RESUME_STUDY:  # Study answered: the Engagement goes on (R116)
        answer_study(S, b, a)
        if ask_learn(S, tb, b, u):  # tdabF: then its Learn (R134)
            return GO_NONE
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
    nxt = S["eff_next"][b]
    if nxt == RESUME_ABILITY or nxt == RESUME_STATUS or nxt == RESUME_PICK2:
        # a target of the Combat Phase ability, or a Status it lets the player choose
        row = replaced_attack_row(S, tb, b, u)
        if S["eff_next"][b] == RESUME_ABILITY:
            if not pick_ability_target(S, tb, b, a):
                return GO_NONE
            summon = tb.r_kind[row] == K_REPOSITION and tb.r_mode[row] == REPOS_SUMMON
            if summon and S["fx_n_pick"][b] > 0:  # its unit's space next (R129); A_END with
                S["eff_next"][b] = RESUME_SUMMON  # no unit picked: nothing to summon
                return GO_NONE
            if status_choice(tb, row):  # then the Statuses (R57)
                S["eff_next"][b] = RESUME_STATUS
                return GO_NONE
        elif S["eff_next"][b] == RESUME_PICK2:  # tdabA: Crystal Power's second unit (R102)
            S["au_pick2"][b] = S["cell_unit"][b, a - A_CELL, 0]
        elif not choose_status(S, tb, b, a):
            return GO_NONE
        elif ask_second(S, tb, b, u, row):  # tdabA: then the unit acquiring it (R102)
            return GO_NONE
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        if is_combat_row(tb, row):  # "D: Combat Pha." (R55)
            run_hook(S, tb, b, H_COMBAT, u, -1)
            S["fx_st_pick"][b] = 0
            if S["eff_next"][b] == RESUME_GUIDE:  # False Guide moves its target first
                return GO_NONE
            if S["aa_unit"][b] >= 0:  # tdabE: Voodoo Doll's Attack (R119)
                return ability_attacks.ability_attack(S, tb, b, u)
            S["stage"][b] = STAGE_COMBAT  # the Combat Phase goes on
            if ask_pending(S, tb, b, u):  # tdabD: Soothe's Statuses, the target's player's
                return GO_NONE
            return GO_NONE
        run_hook(S, tb, b, H_REPLACES, u, -1)
        S["fx_st_pick"][b] = 0
        if ask_pending(S, tb, b, u):  # tdabA: a choice its roll gave (Hex, Bite; R98)
            return GO_NONE
        if S["eff_next"][b] == RESUME_ALTER:  # Alter stacked: its player chooses (R126)
            return GO_NONE  # STAGE_EFFECT still asked, of the same player
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
    if stage == STAGE_BUY_ITEM or stage == STAGE_BUY_ITEM_UNIT:  # tdbuy: Items bought (R141)
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
    if stage == STAGE_PAUSE and S["gd_seat"][b] >= 0:  # tdabD: Unwavering, Incineration
        return legal_question(S, tb, b, out)
    if stage == STAGE_PAUSE and S["au_dg_seat"][b] >= 0:  # tdabA: Downgrade asked (R100)
        return legal_yes_no(S, tb, b, out)
    if stage == STAGE_PAUSE:
        return legal_pause(S, tb, b, out)
    if stage == STAGE_DECLARE:  # Hired Hit's Root (RA5)
        return control.legal_declare(S, tb, b, out)
    return 0


@njit
def step(S, tb, b: int, a: int, out) -> int:
    """Apply legal action a (the caller checked), then apply forced A_END decisions until a
    real one is asked or the game is over; returns that decision's legal actions in out[:n]
    and n (0 once over).

    Called by kernels.apply (its one caller). The phase hand-offs run in its inner loop
    (actions.GO_*): each phase's function returns the one that follows instead of calling
    it, so the call tree stays shallow."""
    S["decisions"][b] += 1
    for _ in range(MAX_AUTO):
        stage = S["stage"][b]  # the decision asked, applied (one call site per phase)
        go = np.int64(GO_NONE)
        if stage == STAGE_FIRST or stage == STAGE_DEPLOY_UNIT or stage == STAGE_DEPLOY_CELL:
            setup.apply_setup(S, tb, b, a)
        elif stage == STAGE_BUY or stage == STAGE_BUY_STACK:
            setup.apply_setup(S, tb, b, a)
        elif stage == STAGE_BUY_ITEM or stage == STAGE_BUY_ITEM_UNIT:  # tdbuy: Items (R141)
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
        elif stage == STAGE_PAUSE and S["gd_seat"][b] >= 0:
            go = answer_question(S, tb, b, a)  # tdabD: Unwavering, Incineration (R104, R108)
        elif stage == STAGE_PAUSE and S["au_dg_seat"][b] >= 0:
            go = answer_downgrade(S, tb, b, a)  # tdabA: the hand-off it interrupted (R100)
        elif stage == STAGE_PAUSE and S["pz_bread_unit"][b] >= 0:
            go = answer_bread(S, tb, b, a)  # the hand-off it interrupted comes back (R74)
        elif stage == STAGE_PAUSE:
            go = combat.resume_procedure(S, tb, b, a)  # the paused procedure goes on (R72)
        elif stage == STAGE_DECLARE:
            control.apply_declare(S, tb, b, a)  # Hired Hit's Root (RA5)
        else:
            go = combat.apply_combat(S, tb, b, a)
        # the phase hand-offs: each step returns the one that follows (actions.GO_*) instead
        # of calling it, so every step is one level below this loop (one call site each).
        # Before each, a Status a Giant's Bread holder acquired is offered to it (R74)
        while True:
            refresh_flood(S, tb, b)  # tdabH: the terrain as the units stand now (R124)
            if ask_question(S, tb, b, go):  # tdabD: Unwavering before Fearful acts (R104), the
                # Items Incineration discards (R108)
                go = GO_NONE  # kept in gd_go
            elif ask_bread(S, tb, b, go):
                go = GO_NONE  # kept in pz_bread_go, run once the holder has answered
            elif ask_downgrade(S, tb, b, go):  # tdabA: Downgrade's "may" (R100)
                go = GO_NONE  # kept in au_dg_go
            elif ask_pack(S, tb, b, go):  # tdabA: Spider Pack, as the Combat Phase asks (R101)
                go = GO_NONE
            if go == GO_NONE:
                break
            if go == GO_ITEM_PHASE_1:
                go = items.begin_item_phase(S, tb, b, 1)
            elif go == GO_ITEM_PHASE_2:
                after_combat_phase(S, tb, b, np.int64(S["engaged"][b]))  # tdabA (R97)
                go = items.begin_item_phase(S, tb, b, 2)
            elif go == GO_END_MOVEMENT:
                if ability_attacks.autofire(S, tb, b):  # tdabE: the enemies' Autofire (R120)
                    go = GO_NONE  # paused inside an Attack: resume_procedure comes back here
                else:
                    go = movement.end_movement(S, tb, b)
            elif go == GO_AFTER_ATTACK:
                go = combat.after_attack(S, tb, b, np.int64(S["engaged"][b]))
            elif go == GO_ACQUISITION:
                go = items.begin_acquisition(S, tb, b)
            elif go == GO_ENGAGE_ROWS:  # tdabJ: Guard answered: the Engagement goes on (R140)
                u = np.int64(S["eff_unit"][b])
                S["eff_unit"][b] = -1
                rows = np.int64(S["eff_out"][b])
                if is_dead(S, tb, b, u) or S["unit_place"][b, u] != PLACE_FIELD:
                    rows |= OUT_DEAD
                else:
                    nxt = np.int64(S["eff_next"][b])
                    rows |= run_status_rows(S, tb, b, u, np.int64(TRIG_ENGAGEMENT), nxt)
                go = after_engagement_rows(S, tb, b, u, rows)
            elif go == GO_END_TURN or go == GO_TURN_OVER:
                # the abilities' End of Turn rows (every unit's, TD-22.2); the Turn's lasting
                # effects end; an army they wiped out ends the game (TD-4.2)
                if go == GO_END_TURN:
                    run_hook(S, tb, b, H_END_TURN, -1, -1)
                    for v in range(S["unit_no_attack"].shape[1]):
                        S["unit_no_attack"][b, v] = -1  # False Guide's ban ends (R131)
                        S["unit_ab_copy"][b, v] = -1  # tdabF: Learn's copy ends (R134)
                        S["unit_ctrl"][b, v] = -1  # tdabI: Possess's control ends (R137)
                    expire(S, b, UNTIL_TURN, -1)
                    expire(S, b, UNTIL_DISENGAGED, -1)
                if go == GO_END_TURN and dying(S, b):
                    go = GO_TURN_OVER  # tdabJ: Guard is asked before the win check (R140)
                else:
                    if not deathmatch_over(S, tb, b):
                        end_turn(S, tb, b)
                    go = GO_NONE
            else:  # GO_DISENGAGE (or tdabJ's GO_DISENGAGED: its rows done)
                # its abilities' rows "before ... Disengaged" (Teamwork?, Partners?: R86)
                if go == GO_DISENGAGE:
                    u = np.int64(S["engaged"][b])
                    after_combat_phase(S, tb, b, u)  # tdabA: if it went straight here (R97)
                    run_hook(S, tb, b, H_BEFORE_DISENGAGE, u if u >= 0 else NO_SOURCE, -1)
                    if S["unit_uses"][b, u, USE_DISENGAGED] < 3:  # Hatch's counters (RA13)
                        S["unit_uses"][b, u, USE_DISENGAGED] += 1
                    run_hook(S, tb, b, H_DISENGAGED, u, -1)
                    disengaged(S, tb, b, u)  # lasting effects end or act
                    run_hook(S, tb, b, H_DEAD, NO_SOURCE, -1)  # Dead hooks still queued
                if go == GO_DISENGAGE and dying(S, b):
                    go = GO_DISENGAGED  # tdabJ: Guard is asked before the win check (R140)
                else:
                    disengage(S, tb, b)
                    go = GO_NONE
        if S["stage"][b] == STAGE_ENGAGE and control.declaring(S, tb, b) >= 0:
            S["stage"][b] = STAGE_DECLARE  # a first Turn begins: Hired Hit's Root (RA5)
        n = legal_actions(S, tb, b, out)
        if n != 1 or out[0] != A_END:
            return n
        a = np.int64(A_END)
    S["stage"][b] = STAGE_GAME_OVER  # unreachable by the rules; stops a runaway game
    return 0
