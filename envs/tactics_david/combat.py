"""The Combat Phase as numba kernels (TD-10, TD-13, TD-14, TD-15, TD-16, TD-24).

Encodings of this chapter (actions.py):

    stage              action        meaning
    STAGE_COMBAT       A_STRIKE + s  attack through the Melee Area of Attack (a Ranged Unit: the
                                     Ranged Melee Procedure, area MA, TD-10.5) with strength
                                     side s; Physical and Ethereal attack types: front only
                                     (TD-13.1-13.3); an enemy must be in the area (TD-15.3)
                       A_CELL + c    Ranged Attack on the enemy unit on space c (TD-14.2,
                                     TD-15.1, TD-15.4, TD-15.7; not a Locked unit, TD-16.2);
                                     a Magical attacker then picks its side (STAGE_RANGED_SIDE)
                       A_END         End Combat Phase without attacking (not while Locked and
                                     able to attack: TD-16.3)
    STAGE_RANGED_SIDE  A_SIDE + s    the Magical Ranged Attack's side (TD-13.2)
    STAGE_TEAM_PICK    A_FACE + d    the member of an enemy Unit Team on side d of its space
                                     receives the attack (TD-18.6; teams.py): asked of the
                                     attacker (melee, both members exposed) or of the
                                     defending player (ranged), before the attack is made

An attack hits every unit in the Area of Attack, friend or foe (TD-15.2), each in its own
Attack and Defend Procedures (R28), on the side the attacker's front faces (Physical,
Ethereal) or the same-named side the attacker chose (Magical). After its Combat Phase the unit
goes on to Item Phase 2 (items.py).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_END,
    A_FACE,
    A_SIDE,
    A_STRIKE,
    GO_AFTER_ATTACK,
    GO_END_MOVEMENT,
    GO_ITEM_PHASE_2,
    GO_NONE,
    STAGE_COMBAT,
    STAGE_EFFECT,
    STAGE_GAME_OVER,
    STAGE_RANGED_SIDE,
    STAGE_TEAM_PICK,
)
from envs.tactics_david.auras import ask_pending
from envs.tactics_david.effects import (
    ITEM_LOOT_ANY,
    ITEM_SEND_OWN,
    K_RANGE,
    K_SPECIAL,
    M_AUTO_WIN,
    M_BASE_D3,
    M_BEST_OF_3,
    M_D3,
    M_D4,
    M_D6,
    M_DROP_LOWEST,
    M_HALVE,
    M_STR,
    N_MODS,
    RANGE_MODIFIER,
    ROLL_RANGED_HIT,
    SEL_ATTACK_AREA,
    SEL_TARGET_IN_RANGE,
    SEL_TARGET_WITHIN,
    ability_on,
    active_sum,
    alerted,
    attack_prohibited,
    attack_twice,
    collect_modifiers,
    dead_immune,
    expire,
    is_combat_row,
    may_use_ability,
    range_rating,
    ranged_hit_bonus,
    replaced_attack_row,
    run_hook,
    status_choice,
)
from envs.tactics_david.floodplains import unit_terrain
from envs.tactics_david.grid import (
    MAX_AREA_OUT,
    REL_TO_SIDE,
    area_cells,
    line_of_sight,
    offset_cell,
    on_forest_edge,
    range_distance,
)
from envs.tactics_david.guard import guard_offer, guard_take, pierce_cell
from envs.tactics_david.items import K_ITEM, enemy_roll_modifier, item_sum, unit_area
from envs.tactics_david.pause import (
    PZ_DEFEND_MAY,
    PZ_GUARD,
    PZ_LUCKY_ATTACK,
    PZ_LUCKY_HIT,
    PZ_NONE,
    PZ_RETRY_HIT,
    PZF_CANNOT_DIE,
    PZF_RETRIED,
    begin_pause,
    end_pause,
    find_defend_may,
    is_lucky,
    retry_row,
    take_may,
    use_chosen,
)
from envs.tactics_david.possess import ask_grapple, strike_markers
from envs.tactics_david.record import (
    ATTACK_SIDE_FRONT,
    H_AFTER_ATTACK,
    H_AFTER_AURA,
    H_AFTER_BREATH,
    H_AFTER_DEFEND,
    H_AFTER_DUEL,
    H_BEFORE_ATTACK,
    H_BEFORE_DEFEND,
    H_COMBAT,
    H_LOCK,
    H_RANGED_HIT,
    H_REPLACES,
    MATCH_ADD_D3,
    MATCH_CANNOT_DIE,
    MATCH_REPLACE_D3,
    MODE_RANGED,
    PERM_ATTACK_AFTER_MOVE,
    PERM_FLOOD,
    TEAM_CIRCUMVENT,
    TRIG_ENEMY_KILLED,
    TYPES_ASSASSINATE,
    TYPES_MATCH_ATTACKER,
)
from envs.tactics_david.state import (
    FORCE_ADVANCE,
    LOCK_MARKER,
    MAX_CELLS,
    MAX_REFLECT,
    MAX_UNITS,
    N_STATUSES,
    PLACE_FIELD,
    RES_ATT_KILLED_ENEMY,
    RES_ATT_WON,
    RES_AUTOFIRE,
    RES_BACK,
    RES_DUEL,
    RES_FRONT,
    RES_KILLED,
    RES_NEGATED,
    RES_NO_LOCK,
    RES_RANGED,
    RES_SPECIAL,
    RESUME_ABILITY,
    RESUME_AFTER_ATTACK,
    RESUME_CHANT,
    RESUME_DECK,
    RESUME_GRAPPLE,
    RESUME_LOB,
    RESUME_PLACE,
    RESUME_STATUS,
    RESUME_STEAL,
    SIDE_BACK,
    SIDE_FRONT,
    UNTIL_PROCEDURE,
    USE_ATTACKS,
    USE_COMBAT_ABILITY,
)
from envs.tactics_david.teams import clear_picks, pick_cell, team_bits, team_struck
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    has_flag,
    has_permission,
    in_play,
    is_dead,
    kill,
    may_lock,
    run_status_rows,
    side_of,
    unit_class,
    unlock,
)

PROC_NONE = 0  # strength's procedure: neither (a plain rating)
PROC_ATTACK = 1
PROC_DEFEND = 2
PROC_BREATH = 3  # an ability's special attack: its row's amount is the Base Strength (R56)
MAX_DUELS = 32  # Duel rounds before the last result decides (a safety bound; R10)


@njit
def strength(S, tb, b: int, u: int, side: int, proc: int) -> int:
    """Strength Rating of unit u on `side` (F/L/R/B): its base rating with its Statuses'
    modifier columns, additions first (Pumped, Enchanted, Summoned +1), then halved (Burned)
    and doubled (Petrified) (TD-20.6/10/12/14/20, R19, R32); halved again (rounding down)
    while Locked in Combat with a Terrain Piece against its back edge (TD-16.4, R19); never
    below the minimum (TD-3.10). Items add to the base ratings in an Attack (PROC_ATTACK:
    weapons) or a Defend (PROC_DEFEND: Shield) Procedure and its Duel (TD-25.5). Abilities come
    with the next part."""
    s = np.int64(S["unit_strength"][b, u, side])
    if S["au_pack"][b] >= 0 and u == S["engaged"][b]:  # tdabA: Spider Pack combined (R101)
        s += S["unit_strength"][b, S["au_pack"][b], side]
    if proc == PROC_BREATH:
        s = np.int64(tb.r_amount[replaced_attack_row(S, tb, b, u)])
    if proc == PROC_ATTACK or proc == PROC_BREATH:
        s += item_sum(S, b, u, tb.it_str_attack)
    elif proc == PROC_DEFEND:
        s += item_sum(S, b, u, tb.it_str_defend)
    halve = False
    double = False
    for t in range(N_STATUSES):
        if S["unit_status"][b, u, t] != 0 and not (S["gd_ignore"][b, u] >> t) & 1:  # (R106)
            s += tb.st_str_add[t]
            halve = halve or tb.st_str_halve[t] != 0
            double = double or tb.st_str_double[t] != 0
    if halve:
        s = max(s, 0) // 2
    if double:
        s = s * 2
    if S["unit_lock"][b, u] >= 0:
        bf = np.int64(S["battlefield"][b])
        behind = offset_cell(tb, bf, np.int64(S["unit_cell"][b, u]), S["unit_facing"][b, u], -1, 0)
        if behind >= 0 and tb.bf_height[bf, behind] >= 0:
            s = s // 2
    return max(s, np.int64(tb.strength_min))


@njit
def _defender_side(S, tb, b: int, a: int, d: int, side: int) -> int:
    """The side of unit d that unit a's attack is made against (as sides_and_strengths)."""
    if S["fx_res"][b] & RES_FRONT:  # tdabE: Voodoo Doll: against its Front (R119)
        return SIDE_FRONT
    if tb.type_attack_side[S["unit_attack_type"][b, a]] == ATTACK_SIDE_FRONT:
        edge = (np.int64(S["unit_facing"][b, a]) + 2) % 4
        return REL_TO_SIDE[(edge - S["unit_facing"][b, d]) % 4]
    return side


@njit
def resolve_reflections(S, tb, b: int, a: int) -> None:
    """After unit a's Combat Phase each queued reflection (TD-20.21): a defends against an
    attack of the same Strength Rating on the same side of its own, strength + 1 D6 against
    its strength + defending dice (terrain, Magical against its Unit Type); no Duel, no lock
    (R34). Killed: the reflecting unit's side counts the kill."""
    for k in range(S["refl_count"][b]):
        if not in_play(S, tb, b, a):
            break
        att = np.int64(S["refl_strength"][b, k])
        for _ in range(tb.attack_dice):
            att += roll_d(S["rng"], b, 6)
        base, extra, more, cannot_die = defence_dice(
            tb,
            np.int64(tb.type_magical),
            np.int64(S["unit_type"][b, a]),
            unit_terrain(S, tb, b, a),  # tdabH: Floodplains (R124, R136)
        )
        side = np.int64(S["refl_side"][b, k])
        dfn = strength(S, tb, b, a, side, PROC_DEFEND) + roll_d(S["rng"], b, base)
        for _ in range(np.int64(tb.defend_dice) - 1):
            dfn += roll_d(S["rng"], b, 6)
        if extra > 0:
            dfn += roll_d(S["rng"], b, extra)
        if more > 0:
            dfn += roll_d(S["rng"], b, more)
        if att > dfn and not cannot_die:
            kill(S, tb, b, a, side_of(S, b, np.int64(S["refl_from"][b, k])))
    S["refl_count"][b] = 0


@njit
def duel_condition(att: int, dfn: int, att_str: int, att_max: int, def_str: int, def_max: int):
    """The Duel condition (TD-10.6, R10): one result is out of the other side's reach even with
    its highest roll: the attack beats the defender's best, or the defence holds against the
    attacker's best."""
    return att > def_str + def_max or dfn >= att_str + att_max


@njit
def sides_and_strengths(S, tb, b: int, a: int, d: int, side: int, ranged_melee: bool):
    """(attacking strength, defending strength) of unit a attacking unit d. A Physical or
    Ethereal Attack Type attacks with the front (TD-13.1, TD-13.3) on the defender's edge that
    faces the attacker's front (TD-15.3); a Magical one with its chosen `side` against the
    defender's same-named side (TD-13.2). A Ranged Melee attack's strength is the class's
    (Light 1, Medium 2, Heavy 3; TD-10.5)."""
    if S["fx_res"][b] & RES_FRONT:  # tdabE: Voodoo Doll: d's Front against its Front (R119)
        return strength(S, tb, b, d, SIDE_FRONT, PROC_NONE), strength(
            S, tb, b, d, SIDE_FRONT, PROC_DEFEND
        )
    atype = np.int64(S["unit_attack_type"][b, a])
    if tb.type_attack_side[atype] == ATTACK_SIDE_FRONT:
        a_side = SIDE_FRONT
        edge = (np.int64(S["unit_facing"][b, a]) + 2) % 4
        d_side = REL_TO_SIDE[(edge - S["unit_facing"][b, d]) % 4]
    else:
        a_side = side
        d_side = side
    if ranged_melee:
        a_str = np.int64(tb.class_ranged_melee[unit_class(S, tb, b, a)])
    elif S["fx_res"][b] & RES_SPECIAL:
        a_str = strength(S, tb, b, a, a_side, PROC_BREATH)
    else:
        a_str = strength(S, tb, b, a, a_side, PROC_ATTACK)
    return a_str, strength(S, tb, b, d, d_side, PROC_DEFEND)


@njit
def defence_dice(tb, atype: int, dtype: int, terrain: int):
    """The defending dice besides Duel D6s: (base die sides, extra die sides, matchup die
    sides, the defender cannot die). The base die is the terrain's (D6; Road D4, TD-2.10), the
    extra die the terrain's (Water, Forest: D3; TD-2.7, TD-2.11), then the Unit Type/Attack
    Type matchup (TD-13.4): a D3 replaces the base die, or one more D3, or no death."""
    base = np.int64(tb.t_def_base[terrain])
    extra = np.int64(tb.t_def_extra[terrain])
    more = np.int64(0)
    match = tb.matchup[atype, dtype]
    if match == MATCH_REPLACE_D3:
        base = 3
    elif match == MATCH_ADD_D3:
        more = 3
    return base, extra, more, match == MATCH_CANNOT_DIE


@njit
def _roll_dice(S, tb, b: int, n_own: int, own_sides: int, mods, role: int, ph: int, mod: int):
    """One side's roll besides its base defending dice: n_own of its own dice (D6s, or D3s
    when an ability replaces them, M_BASE_D3) with the abilities' changes (the best of 3 for
    the first, M_BEST_OF_3; one more then the lowest dropped, M_DROP_LOWEST) and the dice the
    abilities add (M_D3, M_D4, M_D6), each rolled result changed by `mod` (Necklace of
    Negativity). Returns (total, highest possible total)."""
    total = np.int64(0)
    low = np.int64(99)
    for i in range(n_own):
        x = roll_d(S["rng"], b, own_sides)
        if i == 0 and role == 0 and mods[role, ph, M_BEST_OF_3]:
            for _ in range(2):
                x = max(x, roll_d(S["rng"], b, own_sides))
        if i == 0 and role == 0 and ph == 0:  # tdabA: the attack's own die (RA14, R97)
            S["fx_proc_roll"][b] = x
        low = min(low, x)
        total += x + mod
    if mods[role, ph, M_DROP_LOWEST] and n_own > 0:
        x = roll_d(S["rng"], b, own_sides)
        total += max(x - low, 0)  # the lowest of the n_own + 1 dice is discarded
    top = n_own * (own_sides + mod)
    for slot, sides in ((M_D3, 3), (M_D4, 4), (M_D6, 6)):
        for _ in range(mods[role, ph, slot]):
            total += roll_d(S["rng"], b, sides) + mod
            top += sides + mod
    return total, top


@njit
def _rated(tb, base: int, mods, role: int, ph: int, side: int) -> int:
    """A Strength Rating with the abilities' additions, then their halving (R19)."""
    s = base + mods[role, ph, M_STR + side]
    if mods[role, ph, M_HALVE]:
        s = max(s, 0) // 2
    return max(s, np.int64(tb.strength_min))


@njit
def begin_procedure(S, tb, b: int, a: int, d: int, side: int) -> None:
    """Unit a's Attack (or Escape) against unit d begins: the procedure the abilities' rows
    read (S["fx_att"], fx_def, fx_res: a Ranged Attack, against the back)."""
    S["fx_att"][b] = a
    S["fx_def"][b] = d
    back = RES_BACK if _defender_side(S, tb, b, a, d, side) == SIDE_BACK else 0
    keep = RES_RANGED | RES_SPECIAL | RES_FRONT | RES_AUTOFIRE
    S["fx_res"][b] = (S["fx_res"][b] & keep) | back


@njit
def before_rows(S, tb, b: int, a: int, d: int, side: int) -> bool:
    """The `before` rows of a's Attack and d's Defend (effects.run_hook), then the "may" row
    the defender's player chose on the pause before them (pause.use_chosen; a new facing
    changes the side attacked); whether the attack still happens: not if one negated it or
    gave the attacker (alive before) or the defender the Dead Status (Razor's Charge,
    Whiptail, Ignore Consequence)."""
    a_dead = is_dead(S, tb, b, a)
    run_hook(S, tb, b, H_BEFORE_ATTACK, a, d)
    run_hook(S, tb, b, H_BEFORE_DEFEND, d, a)
    if S["pz_use_row"][b] >= 0:
        use_chosen(S, tb, b, a, d)
        S["fx_res"][b] &= ~RES_BACK
        if _defender_side(S, tb, b, a, d, side) == SIDE_BACK:
            S["fx_res"][b] |= RES_BACK
    return not (
        S["fx_res"][b] & RES_NEGATED
        or (is_dead(S, tb, b, a) and not a_dead)
        or is_dead(S, tb, b, d)
    )


@njit
def type_bits(S, tb, b: int, u: int) -> int:
    """record.TYPES_* bits of unit u's acting abilities (every member of a stack, R25)."""
    bits = 0
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof >= 0 and ability_on(S, tb, b, u, prof):
            bits |= np.int64(tb.ab_types[prof])
    return bits


@njit
def matchup_types(S, tb, b: int, a: int, d: int, escape: bool):
    """(Attack Type, defender's Unit Type) of a's Attack on d for TD-13.4's matchup: an
    Assassinate attacker's Attack Type cycles by the defender's Unit Type (Physical ->
    Ethereal, Ethereal -> Magical, Magical -> Physical); then a Blob Wall defender's Unit Type
    is that Attack Type (both only in an Attack, not an Escape; R76)."""
    atype = np.int64(S["unit_attack_type"][b, a])
    dtype = np.int64(S["unit_type"][b, d])
    if not escape:
        if type_bits(S, tb, b, a) & TYPES_ASSASSINATE:
            atype = np.int64(tb.type_cycle[dtype])
        if type_bits(S, tb, b, d) & TYPES_MATCH_ATTACKER:
            dtype = atype
    return atype, dtype


@njit
def contest(S, tb, b: int, a: int, d: int, side: int, ranged_melee: bool, escape: bool):
    """Attack Procedure of unit a against Defend Procedure of unit d, Duels included
    (TD-10.1-10.3, TD-10.6): strength + 1 D6 against strength + the defending dice; while the
    Duel condition holds both roll again with one more D6 each, and the last result decides.
    With escape=True it is a's Escape Procedure from d (TD-9.8): only Escape abilities act.
    Abilities (TD-22.2): the caller has set the procedure (begin_procedure) and run the
    `before` rows (they may end it: before_rows); here effects.collect_modifiers' strength,
    dice and automatic wins apply (TD-3.14: the defender's automatic win beats the
    attacker's, R38).
    Returns (attack result, defence result, the defender cannot die from it)."""
    a_side = SIDE_FRONT
    if tb.type_attack_side[S["unit_attack_type"][b, a]] != ATTACK_SIDE_FRONT:
        a_side = side
    d_side = _defender_side(S, tb, b, a, d, side)
    mods = np.zeros((2, 2, N_MODS), dtype=np.int64)
    collect_modifiers(S, tb, b, a, d, a_side, d_side, escape, mods)
    immune = not escape and dead_immune(S, tb, b, d, a)
    a_str, d_str = sides_and_strengths(S, tb, b, a, d, side, ranged_melee)
    atype, dtype = matchup_types(S, tb, b, a, d, escape)
    # the terrain it occupies (tdabH: flooded, or Water for Floodplains itself; R124, R136)
    base, extra, more, cannot_die = defence_dice(tb, atype, dtype, unit_terrain(S, tb, b, d))
    n_att = np.int64(tb.attack_dice)
    n_def = np.int64(tb.defend_dice) - 1  # D6s beyond the base die
    # Necklace of Negativity nearby: each rolled result of that unit changes (TD-25.6)
    a_mod = enemy_roll_modifier(S, tb, b, a)
    d_mod = enemy_roll_modifier(S, tb, b, d)
    att = np.int64(0)
    dfn = np.int64(0)
    S["fx_proc_roll"][b] = 0  # tdabA: no die rolled yet (an automatic win rolls none)
    for duel in range(MAX_DUELS):
        ph = min(duel, 1)
        if duel > 0:
            S["fx_res"][b] |= RES_DUEL
        if mods[1, ph, M_AUTO_WIN]:  # the defender's automatic win decides a conflict (R38)
            return np.int64(0), np.int64(1), cannot_die or immune
        if mods[0, ph, M_AUTO_WIN]:
            S["fx_res"][b] |= RES_ATT_WON
            return np.int64(1), np.int64(0), cannot_die or immune
        as_ = _rated(tb, a_str, mods, 0, ph, a_side)
        ds_ = _rated(tb, d_str, mods, 1, ph, d_side)
        six_a = 3 if mods[0, ph, M_BASE_D3] else 6
        six_d = 3 if mods[1, ph, M_BASE_D3] else 6
        base_d = 3 if mods[1, ph, M_BASE_D3] and base == 6 else base
        rolled, a_top = _roll_dice(S, tb, b, n_att + duel, six_a, mods, 0, ph, a_mod)
        att = as_ + rolled
        x = roll_d(S["rng"], b, base_d)
        if mods[1, ph, M_BEST_OF_3]:  # the defender's first die is its base die
            x = max(x, max(roll_d(S["rng"], b, base_d), roll_d(S["rng"], b, base_d)))
        dfn = ds_ + x + d_mod
        rolled, d_top = _roll_dice(S, tb, b, n_def + duel, six_d, mods, 1, ph, d_mod)
        dfn += rolled
        d_top += base_d + d_mod
        if extra > 0:
            dfn += roll_d(S["rng"], b, extra) + d_mod
            d_top += extra + d_mod
        if more > 0:
            dfn += roll_d(S["rng"], b, more) + d_mod
            d_top += more + d_mod
        if S["fx_res"][b] & RES_SPECIAL:
            break  # a breath: no Duel may follow (R56)
        if S["fx_res"][b] & RES_AUTOFIRE and att > dfn:
            break  # tdabE: Autofire may not start a Duel; its defender may (R120)
        if not duel_condition(att, dfn, as_, a_top, ds_, d_top):
            break
    if att > dfn:
        S["fx_res"][b] |= RES_ATT_WON
    return att, dfn, cannot_die or immune


@njit
def attack_unit(S, tb, b: int, a: int, d: int, side: int, ranged_melee: bool, at: int,
                act: int) -> bool:  # fmt: skip
    """One defender's Attack and Defend Procedures: the attack kills when it beats the defence
    (TD-10.3) unless the matchup forbids it (TD-13.4). A defender face to face with the
    attacker in direct contact that survives is Locked in Combat with it (TD-16.1), unless a
    Status forbids either's lock (TD-20.20). A Magical attack on a Reflective defender is
    queued to be reflected after the Combat Phase (TD-20.21); an enemy killed runs the
    attacker's `on_enemy_killed` rows (Enraged, TD-20.18, R34). Then the abilities' `after`
    rows of the Attack, the Defend and a Duel that followed (effects.run_hook) and the end of
    the procedure's lasting effects.

    It may pause (R72; returns True): a "may" of the defender's side is asked before the
    `before` rows (PZ_DEFEND_MAY, of the defender's player), a Lucky unit's reroll once the
    dice are rolled (PZ_LUCKY_ATTACK, the results kept). `at` says where it resumes (PZ_NONE:
    a fresh procedure) and `act` is the answer (A_END: no). One function for all three, so
    the procedure sits at one depth of the call tree (compile time)."""
    if at == PZ_NONE:
        if (
            S["unit_attack_type"][b, a] == tb.type_magical
            and has_flag(S, b, d, tb.st_reflect)
            and S["refl_count"][b] < MAX_REFLECT
        ):
            a_str, _ = sides_and_strengths(S, tb, b, a, d, side, ranged_melee)
            k = np.int64(S["refl_count"][b])
            S["refl_strength"][b, k] = min(a_str, 127)
            S["refl_side"][b, k] = _defender_side(S, tb, b, a, d, side)
            S["refl_from"][b, k] = d
            S["refl_count"][b] = k + 1
        begin_procedure(S, tb, b, a, d, side)
        if find_defend_may(S, tb, b, a, d):
            begin_pause(S, b, PZ_DEFEND_MAY, side_of(S, b, d))  # asked of the defender's player
            return True
    elif at == PZ_DEFEND_MAY:
        take_may(S, b, act)
    att = np.int64(0)
    dfn = np.int64(0)
    cannot_die = True
    roll = True
    if at == PZ_LUCKY_ATTACK or at == PZ_GUARD:  # the kept results, or (Lucky) the whole
        att = np.int64(S["pz_att"][b])  # contest rolled again (R73)
        dfn = np.int64(S["pz_dfn"][b])
        cannot_die = S["pz_flags"][b] & PZF_CANNOT_DIE != 0
        roll = at == PZ_LUCKY_ATTACK and act != A_END
        if roll:
            S["pz_lucky_turn"][b, S["pz_src"][b]] = S["turn"][b]
            S["fx_res"][b] &= ~(RES_DUEL | RES_ATT_WON)
    else:
        roll = before_rows(S, tb, b, a, d, side)
    if roll:  # one call site of the contest (compile time)
        att, dfn, cannot_die = contest(S, tb, b, a, d, side, ranged_melee, False)
        lucky = -1
        if at != PZ_LUCKY_ATTACK:
            lucky = a if is_lucky(S, tb, b, a) else (d if is_lucky(S, tb, b, d) else -1)
        if lucky >= 0:
            S["pz_att"][b] = att
            S["pz_dfn"][b] = dfn
            S["pz_flags"][b] = PZF_CANNOT_DIE if cannot_die else 0
            S["pz_src"][b] = lucky
            begin_pause(S, b, PZ_LUCKY_ATTACK, side_of(S, b, lucky))  # its player (tdabE: R120)
            return True
    if att > dfn and not cannot_die and at == PZ_GUARD:  # tdabD: Guard answered (R105)
        cannot_die = guard_take(S, tb, b, d, act)
    elif att > dfn and not cannot_die and guard_offer(S, tb, b, d):  # asked before Dead
        S["pz_att"][b] = att
        S["pz_dfn"][b] = dfn
        S["pz_flags"][b] = 0
        begin_pause(S, b, PZ_GUARD, side_of(S, b, d))
        return True
    if att > dfn and not cannot_die:
        S["fx_cause"][b] = a
        kill(S, tb, b, d, side_of(S, b, a))
        S["fx_res"][b] |= RES_KILLED
        if side_of(S, b, d) != side_of(S, b, a):
            S["fx_res"][b] |= RES_ATT_KILLED_ENEMY
            S["unit_kills"][b, a] += 1
            run_status_rows(S, tb, b, a, np.int64(TRIG_ENEMY_KILLED), 0)
    elif S["fx_res"][b] & (RES_NEGATED | RES_NO_LOCK) == 0:  # negated: it did not happen
        _maybe_lock(S, tb, b, a, d)
    if S["fx_res"][b] & RES_NEGATED == 0:
        # a breath's `after` rows follow only the breath (R56)
        run_hook(S, tb, b, H_AFTER_BREATH if S["fx_res"][b] & RES_SPECIAL else H_AFTER_ATTACK, a, d)
        run_hook(S, tb, b, H_AFTER_DEFEND, d, a)
        if S["fx_res"][b] & RES_DUEL:
            run_hook(S, tb, b, H_AFTER_DUEL, a, d)
            run_hook(S, tb, b, H_AFTER_DUEL, d, a)
        if S["fx_res"][b] & RES_ATT_KILLED_ENEMY:  # every unit's auras on this kill (R59)
            run_hook(S, tb, b, H_AFTER_AURA, -1, d)
    expire(S, b, UNTIL_PROCEDURE, -1)
    S["fx_att"][b] = -1
    S["fx_def"][b] = -1
    return False


@njit
def _maybe_lock(S, tb, b: int, a: int, d: int) -> None:
    """A surviving defender face to face with the attacker in direct contact is Locked in
    Combat with it (TD-16.1, R29)."""
    bf = np.int64(S["battlefield"][b])
    fa = np.int64(S["unit_facing"][b, a])
    front = offset_cell(tb, bf, np.int64(S["unit_cell"][b, a]), fa, 1, 0)
    if (
        side_of(S, b, d) != side_of(S, b, a)  # only enemies lock (R29)
        and d // MAX_UNITS != a // MAX_UNITS  # tdabI: nor a Possessed unit (R138)
        and front == S["unit_cell"][b, d]
        and S["unit_facing"][b, d] == (fa + 2) % 4
        and not is_dead(S, tb, b, a)
        and not is_dead(S, tb, b, d)
        and S["unit_team"][b, a] < 0
        and S["unit_team"][b, d] < 0
        and S["unit_lock"][b, a] != d
        and may_lock(S, tb, b, a)
        and may_lock(S, tb, b, d)
    ):
        run_hook(S, tb, b, H_LOCK, a, d)  # "B: Combat Lock" (Feast, RA9)
        run_hook(S, tb, b, H_LOCK, d, a)
        if S["unit_place"][b, a] != PLACE_FIELD or S["unit_place"][b, d] != PLACE_FIELD:
            return  # removed from the game: no lock
        for u in (a, d):
            unlock(S, b, u)  # its old lock ends (a Shed Marker's too, R135)
        S["unit_lock"][b, a] = d
        S["unit_lock"][b, d] = a
        S["unit_lock_turn"][b, a] = S["turn"][b]
        S["unit_lock_turn"][b, d] = S["turn"][b]


@njit
def _attack_area(S, tb, b: int, a: int, cells, n: int, side: int, ranged_melee: bool,
                 start: int, at: int, act: int) -> bool:  # fmt: skip
    """Attack every unit in play on the area's spaces (TD-15.2), in the area's order (of a
    Unit Team only one member: teams.team_struck, TD-18.6), from the cursor `start` (2 * cell
    index + slot; 0: the whole area). Returns whether a defender's procedure paused (R72):
    the cursor and the attack's arguments are kept for resume_procedure (the caller set
    pz_target), which calls it again from the cursor with `at` and the answer `act` for the
    paused defender (PZ_NONE: a fresh area). Pierce adds the space behind a defender it
    killed as one more entry of the area (guard.pierce_cell; kept in gd_pierce for a resume)."""
    struck = -1
    if start == 0 and at == PZ_NONE:
        S["gd_pierce"][b] = -1  # tdabD: a fresh area: Pierce not used yet (R107)
    elif S["gd_pierce"][b] >= 0 and n < cells.shape[0]:
        cells[n] = S["gd_pierce"][b]  # resumed: the space Pierce added is in the area again
        n += 1
    for k in range(start, 2 * cells.shape[0]):
        if k >= 2 * n:
            break
        c = np.int64(cells[k // 2])
        d = np.int64(S["cell_unit"][b, c, k % 2])
        here = at if k == start else PZ_NONE
        if here != PZ_NONE:
            d = np.int64(S["pz_d"][b])  # the paused defender
        else:
            if k % 2 == 0 or k == start:  # one member of a Team per space, chosen before both
                struck = team_struck(S, tb, b, a, c)
            if d < 0 or d == a or not in_play(S, tb, b, d) or (struck >= 0 and d != struck):
                continue
            if attack_prohibited(S, tb, b, a, d):
                continue
        if attack_unit(S, tb, b, a, d, side, ranged_melee, here, act):
            S["pz_a"][b] = a
            S["pz_d"][b] = d
            S["pz_side"][b] = side
            S["pz_rm"][b] = ranged_melee
            S["pz_i"][b] = k
            return True
        c = pierce_cell(S, tb, b, a, d)  # tdabD: Pierce killed d: the space behind it too
        if c >= 0 and n < cells.shape[0]:
            cells[n] = c
            n += 1
            S["gd_pierce"][b] = c
    return False


@njit
def strike_area(S, tb, b: int, u: int, cells) -> int:
    """The spaces of unit u's Melee Area of Attack, or MA for a Ranged Unit's Ranged Melee."""
    bf = np.int64(S["battlefield"][b])
    top = S["unit_member"][b, u, 0]
    area = np.int64(tb.area_ma) if tb.u_mode[top] == MODE_RANGED else unit_area(S, tb, b, u)
    return area_cells(
        tb,
        bf,
        S["flood"][b],
        area,
        np.int64(S["unit_cell"][b, u]),
        np.int64(S["unit_facing"][b, u]),
        False,
        cells,
    )


PLACE_NO = 0  # ranged_place: the ability is not placed on a target space
PLACE_BREATH = 1  # a Ranged dragon's breath: a Ranged Attack with the row's strength (R88)
PLACE_AREA = 2  # its Ranged Area of Attack placed on the space, no Ranged Hit (R89)


@njit
def ranged_place(S, tb, b: int, u: int) -> int:
    """Whether unit u's Combat Phase ability is placed on a target space the player picks as
    a Ranged Attack's target (PLACE_*): the `special_attack` of a Ranged unit (Flame, Magma,
    Toxic, Nightmare Breath: a Ranged Attack, Ranged Hit included, R88), or a Ranged unit's
    `attack_area` row (Gorgon Gaze: its Ranged Area placed on that space, R89)."""
    row = replaced_attack_row(S, tb, b, u)
    if row < 0 or tb.u_mode[S["unit_member"][b, u, 0]] != MODE_RANGED:
        return PLACE_NO
    if tb.r_kind[row] == K_SPECIAL and not is_combat_row(tb, row):  # not Voodoo Doll's (R119)
        return PLACE_BREATH
    if tb.r_sel[row] == SEL_ATTACK_AREA and not is_combat_row(tb, row):
        return PLACE_AREA
    return PLACE_NO


@njit
def legal_place(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_PLACE: the spaces the Engaged unit's breath or gaze may be placed
    on, those of its Ranged Attack (ranged_target_ok; A_ABILITY was offered only with one)."""
    u = np.int64(S["engaged"][b])
    bf = np.int64(S["battlefield"][b])
    n = 0
    for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
        if ranged_target_ok(S, tb, b, u, c):
            out[n] = A_CELL + c
            n += 1
    return n


@njit
def ranged_target_ok(S, tb, b: int, u: int, c: int) -> bool:
    """Whether unit u may make a Ranged Attack on the unit on space c: an enemy in play, not
    Locked in Combat (TD-16.2), in the Range Area (TD-15.1; its shape with no Range Rating
    limit near an allied Alerted unit, R61), in Line of Sight (TD-15.7)."""
    v = S["cell_unit"][b, c, 0]
    if v >= 0 and not in_play(S, tb, b, v):
        v = S["cell_unit"][b, c, 1]  # a Team's survivor beside its Dead partner (TD-18.7)
    if v < 0 or side_of(S, b, v) == side_of(S, b, u) or not in_play(S, tb, b, v):
        return False
    if S["unit_lock"][b, v] >= 0 or attack_prohibited(S, tb, b, u, v):
        return False
    bf = np.int64(S["battlefield"][b])
    a = np.int64(S["unit_cell"][b, u])
    facing = np.int64(S["unit_facing"][b, u])
    rating = np.int64(127) if alerted(S, tb, b, u, v) else range_rating(S, tb, b, u)
    if range_distance(tb, bf, a, facing, c, rating) < 0:
        return False
    return line_of_sight(tb, bf, S["flood"][b], a, facing, c)


@njit
def legal_combat(S, tb, b: int, out) -> int:
    """Legal actions of STAGE_COMBAT and STAGE_RANGED_SIDE (module docstring)."""
    u = np.int64(S["engaged"][b])
    if S["stage"][b] == STAGE_RANGED_SIDE:
        for s in range(4):
            out[s] = A_SIDE + s
        return 4
    if S["stage"][b] == STAGE_TEAM_PICK:  # the two members of the Team asked about
        cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
        c = _team_pick_cell(S, tb, b, u, cells)
        for slot in range(2):
            out[slot] = A_FACE + S["unit_team_side"][b, S["cell_unit"][b, c, slot]]
        return 2
    n = 0
    top = S["unit_member"][b, u, 0]
    p = side_of(S, b, u)
    if S["unit_attack_type"][b, u] == S["unit_type"][b, u] and has_flag(
        S, b, u, tb.st_no_own_attack
    ):
        out[0] = A_END  # Crippled, Silenced, Banished: no attack of its own type (TD-20.9)
        return 1
    # strikes: an enemy in play in the area (TD-15.3); sides by Attack Type (TD-13)
    cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
    k = strike_area(S, tb, b, u, cells)
    enemy = False
    for i in range(k):
        for slot in range(2):
            v = S["cell_unit"][b, cells[i], slot]
            if v >= 0 and side_of(S, b, v) != p and in_play(S, tb, b, v):
                enemy = enemy or not attack_prohibited(S, tb, b, u, np.int64(v))
        if S["unit_lock"][b, u] == LOCK_MARKER and S["unit_shed_cell"][b, u] == cells[i]:
            enemy = True  # tdabF: the Shed Marker it is Locked with may be Attacked (R135)
    if enemy:
        sides = 1 if tb.type_attack_side[S["unit_attack_type"][b, u]] == ATTACK_SIDE_FRONT else 4
        for s in range(sides):
            out[n] = A_STRIKE + s
            n += 1
    # ranged attacks: not after entering the Movement Phase (TD-14.2), not from inside Forest
    # unless on its edge (TD-2.12), not by a Locked unit, which must attack its opponent
    # (TD-16.3), a unit no Ranged Attack may target (TD-16.2)
    bf = np.int64(S["battlefield"][b])
    shots = 0
    if (
        tb.u_mode[top] == MODE_RANGED
        and (not S["unit_moved"][b, u] or has_permission(S, tb, b, u, PERM_ATTACK_AFTER_MOVE))
        and S["unit_lock"][b, u] < 0
        and (
            on_forest_edge(tb, bf, S["flood"][b], np.int64(S["unit_cell"][b, u]))
            or has_permission(S, tb, b, u, PERM_FLOOD)  # Floodplains: it stands in Water (R136)
        )
    ):
        for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
            if ranged_target_ok(S, tb, b, u, c):
                out[n] = A_CELL + c
                n += 1
                shots += 1
    second = S["unit_uses"][b, u, USE_ATTACKS] > 0  # its second Attack (R93)
    if may_use_ability(S, tb, b, u) and not second:  # "R: Attack Pro.": instead of attacking
        place = ranged_place(S, tb, b, u)
        if place == PLACE_AREA:  # Gorgon Gaze: a space it could target must exist (R89)
            for c in range(np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]):
                if ranged_target_ok(S, tb, b, u, c):
                    shots += 1
                    break
        # a Ranged dragon's breath is a Ranged Attack: only where one may be made (R88)
        if place == PLACE_NO or shots > 0:
            out[n] = A_ABILITY
            n += 1
    if (
        not second
        and enemy
        and S["eng_force"][b] == FORCE_ADVANCE
        and _enemy_in_contact(S, tb, b, u)
    ):
        sides = 1 if tb.type_attack_side[S["unit_attack_type"][b, u]] == ATTACK_SIDE_FRONT else 4
        return sides  # Enraged in contact: must attack (TD-20.18); strikes are out[:sides]
    if n == 0 or S["unit_lock"][b, u] < 0 or second:
        out[n] = A_END
        n += 1
    return n


@njit
def _enemy_in_contact(S, tb, b: int, u: int) -> bool:
    """An enemy unit in play in direct Grid Space contact with unit u."""
    bf = np.int64(S["battlefield"][b])
    for d in range(4):
        nb = offset_cell(tb, bf, np.int64(S["unit_cell"][b, u]), d, 1, 0)
        if nb < 0:
            continue
        v = S["cell_unit"][b, nb, 0]
        if v >= 0 and side_of(S, b, v) != side_of(S, b, u) and in_play(S, tb, b, v):
            return True
    return False


@njit
def _hit_roll(S, tb, b: int, u: int):
    """The Ranged Hit Procedure's roll of unit u (TD-10.4, R6): (result, its dice unmodified)."""
    top = S["unit_member"][b, u, 0]
    hit = np.int64(tb.u_rmod[top]) + active_sum(S, tb, b, u, K_RANGE, RANGE_MODIFIER)
    mod = enemy_roll_modifier(S, tb, b, u)
    dice = np.int64(0)
    for _ in range(tb.ranged_hit_dice):
        x = roll_d(S["rng"], b, 6)
        dice += x
        hit += x + mod
    hit += ranged_hit_bonus(S, tb, b, u, mod)  # Perfect Shot's D3 (R58)
    return max(hit, np.int64(tb.ranged_hit_min)), dice


@njit
def _fire(S, tb, b: int, u: int, target: int, side: int, at: int, act: int) -> bool:
    """A Ranged Attack on the unit on space `target`: the Ranged Hit Procedure (TD-10.4, R6),
    then every unit in the Ranged Area of Attack placed on the target (TD-15.4-15.6).

    It may pause (R72; returns True): a Lucky shooter's player may reroll the Ranged Hit's
    dice before they act (PZ_LUCKY_HIT, R73), Target Practice may perform a missed Ranged Hit
    again once (PZ_RETRY_HIT), a defender of the area may pause (_attack_area). `at` says
    where it resumes (PZ_NONE: a fresh attack), `act` is the answer (A_END: no)."""
    if at == PZ_RETRY_HIT and act == A_END:
        S["fx_res"][b] = 0
        return False  # the miss stands: the Combat Phase ends
    if at == PZ_NONE:
        S["pz_flags"][b] = 0
        S["pz_target"][b] = target
        S["pz_side"][b] = side
        S["pz_a"][b] = u
    elif at == PZ_RETRY_HIT:
        S["pz_flags"][b] |= PZF_RETRIED
    elif act != A_END:  # Lucky: roll again
        S["pz_lucky_turn"][b, u] = S["turn"][b]
    if at == PZ_LUCKY_HIT and act == A_END:
        hit = np.int64(S["pz_att"][b])
        dice = np.int64(S["pz_dfn"][b])
    else:
        hit, dice = _hit_roll(S, tb, b, u)
    if at == PZ_NONE and is_lucky(S, tb, b, u):
        S["pz_att"][b] = hit
        S["pz_dfn"][b] = dice
        begin_pause(S, b, PZ_LUCKY_HIT, side_of(S, b, u))
        return True
    bf = np.int64(S["battlefield"][b])
    a = np.int64(S["unit_cell"][b, u])
    facing = np.int64(S["unit_facing"][b, u])
    rise_plus_run = range_distance(tb, bf, a, facing, target, 127)
    # its abilities on the procedure's own dice (Headshot: the targeted unit, hit or miss, R58)
    S["fx_proc_roll"][b] = min(dice, 127)
    run_hook(S, tb, b, H_RANGED_HIT, u, np.int64(S["cell_unit"][b, target, 0]))
    S["fx_proc_roll"][b] = 0
    if hit < rise_plus_run:
        if not S["pz_flags"][b] & PZF_RETRIED and retry_row(S, tb, b, u):
            begin_pause(S, b, PZ_RETRY_HIT, side_of(S, b, u))
            return True
        S["fx_res"][b] = 0
        return False  # missed: the Combat Phase ends
    cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
    n = area_cells(tb, bf, S["flood"][b], unit_area(S, tb, b, u), target, facing, True, cells)
    # a Ranged Attack (the abilities' attacked_by_ranged); a Ranged breath's kept (R88)
    S["fx_res"][b] = RES_RANGED | (S["fx_res"][b] & (RES_SPECIAL | RES_AUTOFIRE))
    S["pz_target"][b] = target
    if _attack_area(S, tb, b, u, cells, n, side, False, 0, PZ_NONE, 0):
        return True
    S["fx_res"][b] = 0
    return False


@njit
def apply_combat(S, tb, b: int, a: int) -> int:
    """Apply a STAGE_COMBAT or STAGE_RANGED_SIDE action; returns the next step (GO_*): Item
    Phase 2, or after_attack (module docstring)."""
    u = np.int64(S["engaged"][b])
    picked = False
    if S["stage"][b] == STAGE_TEAM_PICK:  # TD-18.6: the member on side a - A_FACE
        cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
        c = _team_pick_cell(S, tb, b, u, cells)
        for slot in range(2):
            m = S["cell_unit"][b, c, slot]
            if S["unit_team_side"][b, m] == a - A_FACE:
                S["unit_team_hit"][b, m] = 1
        if _team_pick_cell(S, tb, b, u, cells) >= 0:
            return GO_NONE  # another Team in the area
        a = np.int64(S["team_action"][b])  # the attack goes on
        S["team_action"][b] = -1
        S["stage"][b] = STAGE_COMBAT
        S["current"][b] = side_of(S, b, u)
        picked = True
    if a == A_END:
        return GO_ITEM_PHASE_2
    S["unit_fought"][b, u] = 1
    if a == A_ABILITY:  # the ability replaces the Attack (R:) or goes with it (D:, R55)
        row = replaced_attack_row(S, tb, b, u)
        combat_phase = is_combat_row(tb, row)
        if combat_phase:
            S["unit_uses"][b, u, USE_COMBAT_ABILITY] = 1
        S["fx_n_pick"][b] = 0
        S["fx_st_pick"][b] = 0
        lob = tb.r_kind[row] == K_ITEM and tb.r_mode[row] == ITEM_SEND_OWN
        steal = tb.r_kind[row] == K_ITEM and tb.r_mode[row] == ITEM_LOOT_ANY
        if tb.r_roll[row] == ROLL_RANGED_HIT or lob or steal:  # tdabE: Chant, Lob, Steal
            S["eff_unit"][b] = u  # their picks first (R118, R121, R122)
            S["eff_next"][b] = RESUME_LOB if lob else (RESUME_STEAL if steal else RESUME_CHANT)
            S["stage"][b] = STAGE_EFFECT
            S["aa_n"][b] = 0
            return GO_NONE
        if tb.r_sel[row] == SEL_TARGET_WITHIN or tb.r_sel[row] == SEL_TARGET_IN_RANGE:
            S["eff_unit"][b] = u
            S["eff_next"][b] = RESUME_ABILITY
            S["stage"][b] = STAGE_EFFECT  # its targets are picked first
            return GO_NONE
        if tb.r_kind[row] == K_ITEM:  # tdabB: Chemistry, Alchemy: the Item first (R117)
            S["eff_unit"][b] = u
            S["eff_next"][b] = RESUME_DECK
            S["stage"][b] = STAGE_EFFECT
            return GO_NONE
        if status_choice(tb, row):  # the Statuses its unit discards are chosen first (R57)
            S["eff_unit"][b] = u
            S["eff_next"][b] = RESUME_STATUS
            S["stage"][b] = STAGE_EFFECT
            return GO_NONE
        if combat_phase:
            run_hook(S, tb, b, H_COMBAT, u, -1)
            if S["eff_next"][b] == RESUME_GRAPPLE:  # tdabF: Grapple Tentacle's pulls (R133)
                ask_grapple(S, tb, b)
            return GO_NONE  # the Combat Phase goes on (STAGE_COMBAT)
        place = ranged_place(S, tb, b, u)
        if place != PLACE_NO:  # a Ranged breath (R88) or gaze (R89): its space is picked
            if place == PLACE_BREATH:
                S["fx_res"][b] = RES_SPECIAL  # kept until it is made on that space
            S["eff_unit"][b] = u
            S["eff_next"][b] = RESUME_PLACE
            S["stage"][b] = STAGE_EFFECT
            return GO_NONE
        if tb.r_kind[row] == K_SPECIAL:  # a breath: its Attack through its Melee Area (R56)
            S["fx_res"][b] = RES_SPECIAL
            cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
            n = strike_area(S, tb, b, u, cells)
            S["pz_target"][b] = -1
            if _attack_area(S, tb, b, u, cells, n, 0, False, 0, PZ_NONE, 0):
                return GO_NONE  # paused (R72): resume_procedure goes on
            S["fx_res"][b] = 0
            return GO_AFTER_ATTACK
        run_hook(S, tb, b, H_REPLACES, u, -1)
        if ask_pending(S, tb, b, u):  # tdabA: a choice the ability gave (Make Bread, R103)
            return GO_NONE
        return GO_AFTER_ATTACK
    if a >= A_STRIKE and a < A_STRIKE + 4:
        S["fx_res"][b] = 0
        cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
        n = strike_area(S, tb, b, u, cells)
        if not picked and _ask_team_pick(S, tb, b, u, a, cells, n, False):
            return GO_NONE
        strike_markers(S, b, cells, n)  # tdabF: Shed Markers in the area are removed (R135)
        top = S["unit_member"][b, u, 0]
        S["pz_target"][b] = -1
        rm = tb.u_mode[top] == MODE_RANGED
        if _attack_area(S, tb, b, u, cells, n, a - A_STRIKE, rm, 0, PZ_NONE, 0):
            return GO_NONE  # paused (R72): resume_procedure goes on
        return _attack_done(S, b, u, True)
    if a < A_CELL + MAX_CELLS:
        S["pending_target"][b] = a - A_CELL
        if tb.type_attack_side[S["unit_attack_type"][b, u]] != ATTACK_SIDE_FRONT:
            S["stage"][b] = STAGE_RANGED_SIDE
            return GO_NONE
    target = np.int64(S["pending_target"][b])
    if not picked:
        cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
        S["team_action"][b] = a
        n = _team_area(S, tb, b, u, cells)
        if _ask_team_pick(S, tb, b, u, a, cells, n, True):
            return GO_NONE
        S["team_action"][b] = -1
    side = a - A_SIDE if a >= A_SIDE and a < A_SIDE + 4 else 0
    if _fire(S, tb, b, u, target, side, PZ_NONE, 0):
        return GO_NONE  # paused (R72)
    return _attack_done(S, b, u, True)


@njit
def _attack_done(S, b: int, u: int, counted: bool) -> int:
    """An Attack (or an ability's attack) of unit u is over: the Team picks are forgotten, and
    a counted one is one more of its Attacks this Engagement (R93); GO_AFTER_ATTACK."""
    clear_picks(S, b)
    if counted:
        S["unit_uses"][b, u, USE_ATTACKS] += 1
    return GO_AFTER_ATTACK


@njit
def resume_procedure(S, tb, b: int, act: int) -> int:
    """The answer `act` to a pause inside a procedure (STAGE_PAUSE, pause.py, R72): the one
    resume switch. The seat asked before the pause comes back; then the paused Ranged Attack
    (_fire: Lucky's reroll, Target Practice's retry) or the paused defender's procedure and
    the rest of the Area of Attack (_attack_area from its cursor: the defender's "may", Lucky's
    reroll of the whole contest, R73) go on. Returns the next step (GO_*), GO_NONE if the
    procedure paused again."""
    at = end_pause(S, b)
    u = np.int64(S["pz_a"][b])
    side = np.int64(S["pz_side"][b])
    target = np.int64(S["pz_target"][b])
    # a melee breath (R56) is an ability, not one of its Attacks (R93)
    counted = target >= 0 or not S["fx_res"][b] & RES_SPECIAL
    if at == PZ_LUCKY_HIT or at == PZ_RETRY_HIT:
        if _fire(S, tb, b, u, target, side, at, act):
            return GO_NONE
        if S["aa_fire"][b] >= 0:  # tdabE: Autofire's Attack over: the next, or on (R120)
            S["aa_fire"][b] = -1
            S["fx_res"][b] = 0
            clear_picks(S, b)
            return GO_END_MOVEMENT
        return _attack_done(S, b, u, counted)
    cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
    if S["aa_cell"][b] >= 0:  # tdabE: an ability's Attack on one unit's space (R119)
        cells[0] = S["aa_cell"][b]
        n = np.int64(1)
    elif target < 0:
        n = strike_area(S, tb, b, u, cells)
    else:
        bf = np.int64(S["battlefield"][b])
        facing = np.int64(S["unit_facing"][b, u])
        n = area_cells(tb, bf, S["flood"][b], unit_area(S, tb, b, u), target, facing, True, cells)
    rm = S["pz_rm"][b] != 0
    if _attack_area(S, tb, b, u, cells, n, side, rm, np.int64(S["pz_i"][b]), at, act):
        return GO_NONE
    S["fx_res"][b] = 0
    if S["aa_cell"][b] >= 0:  # tdabE: Voodoo Doll's Attack over: the Combat Phase goes on
        S["aa_cell"][b] = -1
        clear_picks(S, b)
        return GO_NONE
    if S["aa_fire"][b] >= 0:  # tdabE: Autofire's Attack over: the next, or on (R120)
        S["aa_fire"][b] = -1
        clear_picks(S, b)
        return GO_END_MOVEMENT
    return _attack_done(S, b, u, counted)


@njit
def _team_area(S, tb, b: int, u: int, cells) -> int:
    """The spaces of the attack waiting in S["team_action"] (a strike's Melee Area, or the
    Ranged Area of Attack placed on S["pending_target"]) into cells[:n]; n."""
    a = np.int64(S["team_action"][b])
    if a >= A_STRIKE and a < A_STRIKE + 4:
        return strike_area(S, tb, b, u, cells)
    bf = np.int64(S["battlefield"][b])
    facing = np.int64(S["unit_facing"][b, u])
    target = np.int64(S["pending_target"][b])
    return area_cells(tb, bf, S["flood"][b], unit_area(S, tb, b, u), target, facing, True, cells)


@njit
def _team_pick_cell(S, tb, b: int, u: int, cells) -> int:
    """The space of the next enemy Unit Team whose attacked member is to be picked for the
    attack waiting in S["team_action"] (teams.pick_cell), -1 none."""
    n = _team_area(S, tb, b, u, cells)
    a = np.int64(S["team_action"][b])
    return pick_cell(S, tb, b, u, cells, n, not (a >= A_STRIKE and a < A_STRIKE + 4))


@njit
def _ask_team_pick(S, tb, b: int, u: int, a: int, cells, n: int, ranged: bool) -> bool:
    """Before attack a of unit u on cells[:n]: if an enemy Unit Team there needs its attacked
    member chosen (TD-18.6), ask it (STAGE_TEAM_PICK) of the attacking player (melee) or of
    the defending player (ranged) and return True; the answer resumes the attack."""
    clear_picks(S, b)
    c = pick_cell(S, tb, b, u, cells, n, ranged)
    if c < 0:
        return False
    S["team_action"][b] = a
    S["stage"][b] = STAGE_TEAM_PICK
    if ranged and not team_bits(S, tb, b, u) & TEAM_CIRCUMVENT:  # Circumvent: its own pick
        S["current"][b] = side_of(S, b, np.int64(S["cell_unit"][b, c, 0]))
    return True


@njit
def after_attack(S, tb, b: int, u: int) -> int:
    """The Engaged unit u's attack is over: first a "may discard" its kill noted (Enraged,
    R34) is asked (STAGE_EFFECT; turn.apply_effect_choice returns GO_AFTER_ATTACK again with
    the answer taken), then the reflections are answered (TD-20.21) and Item Phase 2 follows
    (GO_ITEM_PHASE_2)."""
    v = np.int64(S["eff_unit"][b])
    if v >= 0 and S["eff_next"][b] == RESUME_AFTER_ATTACK:
        if (
            S["stage"][b] != STAGE_GAME_OVER
            and S["unit_status"][b, v, S["eff_status"][b]] != 0
            and not is_dead(S, tb, b, v)
        ):
            S["stage"][b] = STAGE_EFFECT
            return GO_NONE
        S["eff_unit"][b] = -1
    if (
        S["stage"][b] != STAGE_GAME_OVER
        and S["unit_uses"][b, u, USE_ATTACKS] == 1
        and in_play(S, tb, b, u)
        and attack_twice(S, tb, b, u)
    ):
        S["stage"][b] = STAGE_COMBAT  # Beast Whisperer: it may attack again (R93)
        return GO_NONE
    resolve_reflections(S, tb, b, u)
    return GO_ITEM_PHASE_2
