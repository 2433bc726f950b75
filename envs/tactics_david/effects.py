"""The ability effect interpreter (TD-3.14, TD-22.2): the 270 rows of abilities.yaml as data.

The design is docs/rules/tactics_david.md, "The effect interpreter". No ability is a branch of
the rules kernels: the rows sit in the tables record (record._ability_rows: ``tb.r_*``, sorted
into hooks ``tb.hk_*``), and the kernels call two functions:

- ``run_hook(S, tb, b, hook, unit, other)`` at the moments the rows name (record.H_*): before
  an Attack/Defend/Escape (combat.contest), after it (combat.attack_unit), on Engagement and at
  the end of a Turn (turn.py). It runs the hook's rows of `unit`'s abilities (every member of a
  stack, R25; ``unit = -1``: of every unit on the battlefield) in order: the conditions
  (``conditions_hold``, one switch over the condition kinds), the roll, the selector (one
  switch) and the effect (one switch over the effect kinds). Then the Dead hooks of the units
  that acquired the Dead Status meanwhile (``units.kill`` queues them in ``S["fx_dead"]``).
- ``collect_modifiers(S, tb, b, a, d, a_side, d_side, escape, mods)``: the `during`/`always`
  rows of every ability in play plus the lasting effects that touch the attacker a or the
  defender d, as a small int array that ``combat.contest`` reads (strength per side, extra
  dice, dice replaced, automatic wins, halving).

Lasting effects (`until_disengaged`, `turn`, `procedure_and_duel` ...) are slots of
``S["fx_*"]`` (row, unit, amount rolled once, UNTIL_*), ended by ``expire``; movement changes
among them are read by ``movement.movement_rating`` through ``active_sum``.

The compile cost grows with the number of kinds, not of abilities: four kernels (run_hook,
collect_modifiers, conditions_hold, active_sum) whatever the number of abilities implemented.
A row whose condition, selector, roll or effect kind is not interpreted yet does nothing; the
rules doc's TD-22 table says which abilities work (status "implemented").
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import A_CELL, A_END, A_STATUS
from envs.tactics_david.control import stack_under, summon_cells
from envs.tactics_david.floodplains import unit_terrain
from envs.tactics_david.grid import (
    MAX_AREA_OUT,
    REL_TO_SIDE,
    area_cells,
    line_of_sight,
    offset_cell,
    range_distance,
)
from envs.tactics_david.items import (
    ITEM_SWAP_FROM_DECK,
    ITEM_TAKE_EXPENDABLE,
    K_ITEM,
    item_sum,
    legal_deck_pick,
    set_unit_type,
    unit_area,
)
from envs.tactics_david.record import (
    H_COMBAT,
    H_DEAD,
    H_ENGAGE_AURA,
    H_IMMUNE,
    H_MOD,
    H_RANGED_HIT,
    H_REPLACES,
)
from envs.tactics_david.replace import replace_unit
from envs.tactics_david.state import (
    AB_OFF_BLIGHT,
    MAX_CELLS,
    MAX_DECK,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
    PROC_CHARGE,
    RES_ATT_KILLED_ENEMY,
    RES_ATT_WON,
    RES_BACK,
    RES_KILLED,
    RES_NEGATED,
    RES_NO_LOCK,
    RES_RANGED,
    RESUME_GRAPPLE,
    RESUME_GUIDE,
    STATUS_PERMANENT,
    UNTIL_AFTER_COMBAT,
    UNTIL_DISENGAGED,
    UNTIL_PROCEDURE,
    UNTIL_THEN_APPLY,
    UNTIL_TURN,
    USE_COMBAT_ABILITY,
    USE_DISENGAGED,
)
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    apply_status,
    dead_only_by_attack,
    discard_status,
    kill,
    move_to,
    named_by_space,
    remove_from_game,
    side_of,
    unlock,
)

NO_SOURCE = -2  # run_hook's `unit` that runs no rows, only the queued Dead hooks


def _c(name: str) -> int:
    return ut.CONDITIONS.index(name)


def _s(name: str) -> int:
    return ut.SELECTORS.index(name)


def _k(name: str) -> int:
    return ut.EFFECT_KINDS.index(name)


def _m(kind: str, mode: str) -> int:
    return ut.EFFECT_MODES[kind].index(mode)


def _p(name: str) -> int:
    return 1 << ut.PROCEDURES.index(name)


P_ATTACK = _p("Attack")
P_DEFEND = _p("Defend")
P_DUEL = _p("Duel")
P_ESCAPE = _p("Escape")
# conditions (unit_tables.CONDITIONS)
C_OPP_BASE_GREATER = _c("opposing_base_strength_greater")
C_OPP_BACK_GREATER = _c("opposing_back_strength_greater")
C_OPP_UNIT_IS = _c("opposing_unit_is")
C_OPP_ROOT_IN = _c("opposing_root_in")
C_OPP_DECLARED = _c("opposing_declared_root")  # tdabC: Hired Hit (control.py, RA5)
C_OPP_MODE = _c("opposing_attack_mode")
C_OPP_TYPE = _c("opposing_attack_type")
C_ATTACKER_ADJACENT = _c("attacker_adjacent")
C_ON_BACK = _c("attacked_on_back")
C_BY_RANGED = _c("attacked_by_ranged")
C_SELF_ATTACKER = _c("self_is_attacker")
C_SELF_DEFENDER = _c("self_is_defender")
C_WON_DEFEND = _c("won_defend")
C_CHARGED = _c("charged_this_turn")
C_KILLED_TARGET = _c("killed_target")
C_TARGET_SURVIVED = _c("target_survived")
C_KILLED_ENEMY = _c("killed_enemy")
C_OPPONENTS_TURN = _c("opponents_turn")
C_ON_TERRAIN = _c("self_on_terrain")
C_NOT_ON_TERRAIN = _c("self_not_on_terrain")
C_HAS_STATUS = _c("self_has_status")
C_NOT_STATUS = _c("self_not_status")
C_NOT_LOCKED = _c("not_combat_locked")
C_T_CLASS = _c("target_class_in")
C_T_TYPE = _c("target_unit_type")
C_T_NOT_TYPE = _c("target_not_unit_type")
C_T_MODE = _c("target_attack_mode")
C_T_ROOT = _c("target_root_in")
C_T_MTYPE = _c("target_movement_type")
C_T_STATUS = _c("target_has_status")
C_T_ANY_STATUS = _c("target_has_any_status")
C_T_NOT_LOCKED = _c("target_not_combat_locked")
C_T_NOT_ENGAGED = _c("target_not_engaged")  # tdabC: Summon
C_T_CORE_LOWER = _c("target_core_lower")
C_T_CORE_NOT_LOWER = _c("target_core_not_lower")
C_ADJ_DEAD = _c("adjacent_dead_unit")
C_LOCKED_WITH_SELF = _c("locked_with_self")
C_T_BACKED = _c("target_backed")
C_AREA_UNMODIFIED = _c("attack_area_unmodified")
C_COUNTERS = _c("counters_exhausted")
C_ACQUIRED = _c("status_acquired")  # tdabA: from the previous row of this hook (R103)
C_SENT_TYPE = _c("sent_item_type")  # tdabE: Lob's Item sent to the deck (S["aa_sent"], R121)
# selectors
SEL_SELF = _s("self")
SEL_OPPOSING = _s("opposing_unit")
SEL_KILLER = _s("killer")
SEL_VICTIMS = _s("victims")
SEL_ATTACKED = _s("attacked_units")
SEL_WITHIN = _s("units_within")
SEL_TARGET_WITHIN = _s("target_within")
SEL_TARGET_IN_RANGE = _s("target_in_range")
SEL_UNITS_IN_RANGE = _s("units_in_range")
SEL_ATTACK_AREA = _s("attack_area")
SEL_ALLY_FRONT = _s("ally_in_front")
SEL_ALL = _s("all_units")
SEL_TEAM_PARTNER = _s("team_partner")  # branch tdteams: its Unit Team partner (TD-18)
SEL_SAME = _s("same_target")
TEAM_ALLY = ut.TEAMS.index("ally")
TEAM_ENEMY = ut.TEAMS.index("enemy")
# rolls and compares
ROLL_NONE = ut.ROLLS.index("none")
ROLL_1D6 = ut.ROLLS.index("1D6")
ROLL_2D6 = ut.ROLLS.index("2D6")
ROLL_PROC = ut.ROLLS.index("procedure_roll")
ROLL_RANGED_HIT = ut.ROLLS.index("ranged_hit")  # tdabE: Chant (ability_attacks.py, R118)
CMP_NONE = ut.COMPARES.index("none")
CMP_GE = ut.COMPARES.index("ge")
CMP_LE = ut.COMPARES.index("le")
CMP_EQ = ut.COMPARES.index("eq")
CMP_BETWEEN = ut.COMPARES.index("between")
CMP_LE_ALLIES = ut.COMPARES.index("le_count_allies")
# effect kinds and their modes
K_GAIN = _k("gain_status")
GAIN_PLAIN = _m("gain_status", "")
GAIN_PERMANENT = _m("gain_status", "permanent")
GAIN_ON_DISENGAGE = _m("gain_status", "on_disengagement")
GAIN_APPLICABLE = _m("gain_status", "applicable_one")
GAIN_AFTER_COMBAT = _m("gain_status", "after_combat_phase")  # tdabA
GAIN_CHOICE = _m("gain_status", "player_choice")  # tdabA: chosen after the roll (R98)
GAIN_TRANSFERRED = _m("gain_status", "transferred")  # tdabA: Crystal Power (R102)
ITEM_DISCARD_WA = _m("item", "discard_weapon_or_accessory")  # tdabA: Bite (R98)
ITEM_DISCARD_N = _m("item", "discard_items")  # tdabD: Incineration (guard.py, R108)
ITEM_MAY_EQUIP = _m("item", "may_equip")  # tdabA: Make Bread (R103)
ITEM_SEND_OWN = _m("item", "send_own_item_to_deck")  # tdabE: Lob (ability_attacks.py, R121)
ITEM_LOOT_ANY = _m("item", "loot_any")  # tdabE: Steal (ability_attacks.py, R122)
K_DISCARD = _k("discard_status")
DISCARD_LISTED = _m("discard_status", "listed")
DISCARD_ALL = _m("discard_status", "all")
DISCARD_ONE = _m("discard_status", "choose_one")
DISCARD_ANY = _m("discard_status", "choose_any")
K_STRENGTH = _k("strength_change")
STR_FIXED = _m("strength_change", "fixed")
STR_DICE = _m("strength_change", "dice")
STR_PER_UNIT = _m("strength_change", "per_unit_within")
STR_PER_ENEMY_AREA = _m("strength_change", "per_enemy_in_attack_area")
STR_PER_SPACE = _m("strength_change", "per_space_moved")
K_HALF = _k("strength_multiply")
K_DICE = _k("dice_change")
DICE_ADD = _m("dice_change", "add")
DICE_DROP_LOWEST = _m("dice_change", "add_drop_lowest")
DICE_BEST_OF_3 = _m("dice_change", "roll_three_keep_one")
DICE_BASE_D3 = _m("dice_change", "replace_d6_with_d3")
K_MOVE = _k("movement_change")
MOVE_FIXED = _m("movement_change", "fixed")
MOVE_DICE = _m("movement_change", "dice")
K_AUTO_WIN = _k("auto_win")
AUTO_PLAIN = _m("auto_win", "")
AUTO_NO_LOCK = _m("auto_win", "no_duel_no_lock")
K_SPECIAL = _k("special_attack")
SPECIAL_NO_DUEL = _m("special_attack", "no_duel")
SPECIAL_FRONT = _m("special_attack", "front_vs_front")  # tdabE: Voodoo Doll (R119)
K_NEGATE = _k("negate_attack")
K_REMOVE = _k("remove_from_game")
K_REPLACE = _k("replace_unit")
REPLACE_THIS_PLAYER = _m("replace_unit", "this_player")
REPLACE_OWNER = _m("replace_unit", "owner")
K_SET_TYPE = _k("set_unit_type")
SET_TYPE_FIXED = _m("set_unit_type", "fixed")
K_ROTATE = _k("rotate")
K_RANGE = _k("range_change")
K_STACK = _k("stack_under")  # tdabC: Host, Curse, Alter (control.py)
K_DISABLE = _k("disable_ability")  # tdabC: Ghoul Blight
K_REPOSITION = _k("reposition")  # tdabC: Summon (R129)
REPOS_SUMMON = _m("reposition", "summon_into_range_area")
REPOS_PULL = _m("reposition", "pull_to_self")  # tdabF: Grapple Tentacle (possess.py, R133)
K_EXTRA = _k("extra_procedure")  # tdabC: False Guide (R131)
EXTRA_GUIDE = _m("extra_procedure", "movement_and_facing")
K_PROHIBIT = _k("attack_prohibited")
K_IGNORE = _k("ignore_statuses")  # tdabD: Soothe (R106)
K_CONTROL = _k("control")  # tdabI: Possess, this Turn (R137)
PROHIBIT_BY_THIS = _m("attack_prohibited", "by_this_unit")
RANGE_RATING = _m("range_change", "rating")
RANGE_MODIFIER = _m("range_change", "modifier")
DUR_PROCEDURE = ut.DURATIONS.index("procedure")
DUR_PROC_DUEL = ut.DURATIONS.index("procedure_and_duel")
DUR_TURN = ut.DURATIONS.index("turn")

# collect_modifiers' array: mods[role, phase, M_*], role 0 the attacker (or escaper), 1 the
# defender; phase 0 the Attack/Defend (or Escape) roll, 1 the Duel rolls
M_STR = 0  # M_STR + side: added to that Strength Rating (F/L/R/B)
M_D3 = 4  # extra D3s rolled
M_D4 = 5  # extra D4s
M_D6 = 6  # extra D6s
M_DROP_LOWEST = 7  # one more D6, then the lowest D6 is discarded (Sure Strike)
M_BEST_OF_3 = 8  # the base D6 is the best of 3 D6 (Three Heads, R40)
M_BASE_D3 = 9  # its D6s are rolled as D3s (Squeeze; dice gained from abilities stay)
M_AUTO_WIN = 10  # wins automatically (TD-3.14: the defender's wins a conflict, R38)
M_HALVE = 11  # Strength Ratings halved, rounding down (R19)
N_MODS = 12
MAX_NONCUM = 16


@njit
def ability_on(S, tb, b: int, u: int, prof: int) -> bool:
    """Whether member profile `prof` of unit u acts: an implemented ability
    (record.IMPLEMENTED_ABILITIES), its unit on the battlefield, and not Dead if the ability
    says "(Not with Dead Status)"."""
    if S["unit_place"][b, u] != PLACE_FIELD or not tb.ab_active[prof]:
        return False
    if S["unit_ab_off"][b, u] != 0:  # Ghoul Blight, Curse (control.py)
        return False
    return not (tb.ab_not_dead[prof] and S["unit_status"][b, u, tb.status_dead] != 0)


@njit
def distance(S, tb, b: int, u: int, v: int) -> int:
    """Orthogonal steps between the spaces of units u and v (RA1, I11)."""
    cols = np.int64(tb.bf_cols[S["battlefield"][b]])
    cu = np.int64(S["unit_cell"][b, u])
    cv = np.int64(S["unit_cell"][b, v])
    return abs(cu // cols - cv // cols) + abs(cu % cols - cv % cols)


@njit
def _in_set(tb, row: int, k: int, idx: int) -> bool:
    return (np.int64(tb.r_cond_bits[row, k, idx // 64]) >> np.int64(idx % 64)) & 1 != 0


@njit
def _members_in_set(S, tb, b: int, u: int, row: int, k: int, root: bool) -> bool:
    """Any member of unit u is (root False: a unit of / root True: of a root in) the set."""
    for m in range(S["unit_n_members"][b, u]):
        prof = np.int64(S["unit_member"][b, u, m])
        if _in_set(tb, row, k, np.int64(tb.u_family[prof]) if root else prof):
            return True
    return False


@njit
def conditions_hold(S, tb, b: int, row: int, src: int, tgt: int, opp: int, my_side: int,
                    opp_side: int) -> bool:  # fmt: skip
    """Whether every condition of ability row `row` holds (docs/rules/
    tactics_david_abilities.md, "Conditions"): `src` is the unit whose ability it is, `tgt`
    the unit selected, `opp` the other unit of the procedure in progress (-1 none), the
    sides those two use in it (-1 unknown). A condition kind not interpreted yet fails."""
    for k in range(3):
        c = np.int64(tb.r_cond[row, k])
        if c < 0:
            break
        ok = False
        if c == C_OPP_BASE_GREATER:
            ok = (
                opp >= 0
                and my_side >= 0
                and S["unit_strength"][b, opp, opp_side] > S["unit_strength"][b, src, my_side]
            )
        elif c == C_OPP_BACK_GREATER:
            ok = opp >= 0 and S["unit_strength"][b, opp, 3] > S["unit_strength"][b, src, 3]
        elif c == C_OPP_UNIT_IS:
            ok = opp >= 0 and _members_in_set(S, tb, b, opp, row, k, False)
        elif c == C_OPP_ROOT_IN:
            ok = opp >= 0 and _members_in_set(S, tb, b, opp, row, k, True)
        elif c == C_OPP_DECLARED:  # a member of the Root its player declared (RA5)
            d = np.int64(S["unit_root_decl"][b, src])
            if opp >= 0 and d >= 0:
                for m in range(S["unit_n_members"][b, opp]):
                    if tb.u_family[S["unit_member"][b, opp, m]] == d:
                        ok = True
        elif c == C_OPP_MODE:
            ok = opp >= 0 and _in_set(tb, row, k, np.int64(tb.u_mode[S["unit_member"][b, opp, 0]]))
        elif c == C_OPP_TYPE:
            ok = opp >= 0 and _in_set(tb, row, k, np.int64(S["unit_attack_type"][b, opp]))
        elif c == C_ATTACKER_ADJACENT:
            a = np.int64(S["fx_att"][b])
            ok = a >= 0 and distance(S, tb, b, a, src) == 1
        elif c == C_ON_BACK:
            ok = S["fx_res"][b] & RES_BACK != 0
        elif c == C_BY_RANGED:
            ok = S["fx_res"][b] & RES_RANGED != 0
        elif c == C_SELF_ATTACKER:
            ok = S["fx_att"][b] == src
        elif c == C_SELF_DEFENDER:
            ok = S["fx_def"][b] == src
        elif c == C_WON_DEFEND:
            ok = S["fx_def"][b] == src and S["fx_res"][b] & (RES_ATT_WON | RES_NEGATED) == 0
        elif c == C_CHARGED:
            ok = S["engaged"][b] == src and S["eng_procedure"][b] == PROC_CHARGE
        elif c == C_KILLED_TARGET:
            ok = S["fx_att"][b] == src and S["fx_res"][b] & RES_KILLED != 0
        elif c == C_TARGET_SURVIVED:
            ok = S["fx_res"][b] & (RES_KILLED | RES_NEGATED) == 0
        elif c == C_KILLED_ENEMY:
            ok = S["fx_att"][b] == tgt and S["fx_res"][b] & RES_ATT_KILLED_ENEMY != 0
        elif c == C_OPPONENTS_TURN:
            ok = S["current"][b] != side_of(S, b, src)
        elif c == C_ON_TERRAIN or c == C_NOT_ON_TERRAIN:
            tt = unit_terrain(S, tb, b, src)  # tdabH: Floodplains (R124, R136)
            ok = _in_set(tb, row, k, tt) == (c == C_ON_TERRAIN)
        elif c == C_HAS_STATUS or c == C_NOT_STATUS:
            has = False
            for s in range(N_STATUSES):
                if S["unit_status"][b, src, s] != 0 and _in_set(tb, row, k, s):
                    has = True
            ok = has == (c == C_HAS_STATUS)
        elif c == C_NOT_LOCKED:
            ok = S["unit_lock"][b, src] < 0
        elif c == C_T_CLASS:
            ok = _in_set(tb, row, k, np.int64(tb.u_class[S["unit_member"][b, tgt, 0]]))
        elif c == C_T_TYPE or c == C_T_NOT_TYPE:
            ok = _in_set(tb, row, k, np.int64(S["unit_type"][b, tgt])) == (c == C_T_TYPE)
        elif c == C_T_MODE:
            ok = _in_set(tb, row, k, np.int64(tb.u_mode[S["unit_member"][b, tgt, 0]]))
        elif c == C_T_ROOT:
            ok = _members_in_set(S, tb, b, tgt, row, k, True)
        elif c == C_T_MTYPE:
            ok = _in_set(tb, row, k, np.int64(tb.u_mtype[S["unit_member"][b, tgt, 0]]))
        elif c == C_T_STATUS or c == C_T_ANY_STATUS:
            for s in range(N_STATUSES):
                if S["unit_status"][b, tgt, s] != 0 and _in_set(tb, row, k, s):
                    ok = True
        elif c == C_T_NOT_LOCKED:
            ok = S["unit_lock"][b, tgt] < 0
        elif c == C_T_NOT_ENGAGED:  # not Engaged this Turn, not Locked, not Dead (Summon)
            ok = (
                S["unit_engaged"][b, tgt] == 0
                and S["unit_lock"][b, tgt] < 0
                and S["unit_status"][b, tgt, tb.status_dead] == 0
            )
        elif c == C_T_CORE_LOWER or c == C_T_CORE_NOT_LOWER:
            ct = np.int64(0)
            cs = np.int64(0)
            for side in range(4):
                ct += S["unit_strength"][b, tgt, side]
                cs += S["unit_strength"][b, src, side]
            ok = (ct < cs) == (c == C_T_CORE_LOWER)
        elif c == C_ADJ_DEAD:
            for v in range(N_UNIT_IDS):
                if (
                    v != src
                    and S["unit_place"][b, v] == PLACE_FIELD
                    and S["unit_status"][b, v, tb.status_dead] != 0
                    and distance(S, tb, b, v, src) == 1
                ):
                    ok = True
        elif c == C_AREA_UNMODIFIED:  # no Item changed its Attack Area (Skewer)
            ok = unit_area(S, tb, b, src) == tb.u_area[S["unit_member"][b, src, 0]]
        elif c == C_LOCKED_WITH_SELF:
            ok = S["unit_lock"][b, tgt] == src
        elif c == C_T_BACKED:  # a unit beyond the target, opposite the side attacked (R59)
            ok = tgt == opp and opp_side >= 0 and _backed(S, tb, b, tgt, opp_side)
        elif c == C_SENT_TYPE:  # tdabE: the Item Lob sent has that Item Type (R121)
            i = np.int64(S["aa_sent"][b])
            ok = i >= 0 and _in_set(tb, row, k, np.int64(tb.it_type[i]))
        elif c == C_ACQUIRED:  # tdabA: a unit acquired one from the previous row (R103)
            for s in range(N_STATUSES):
                if (np.int64(S["au_acq"][b]) >> s) & 1 and _in_set(tb, row, k, s):
                    ok = True
        elif c == C_COUNTERS:  # Hatch: the Disengagement with no counter left (values[0]+1)
            d = np.int64(S["unit_uses"][b, src, USE_DISENGAGED]) - 1
            ok = d >= 0 and d < 256 and _in_set(tb, row, k, d)
        if not ok:
            return False
    return True


@njit
def _backed(S, tb, b: int, u: int, side: int) -> bool:
    """A unit stands in direct contact with unit u on the edge opposite its `side` (F/L/R/B)."""
    rel = 0
    for k in range(4):
        if REL_TO_SIDE[k] == side:
            rel = k
    edge = (np.int64(S["unit_facing"][b, u]) + rel) % 4  # the edge attacked, as a direction
    c = offset_cell(
        tb, np.int64(S["battlefield"][b]), np.int64(S["unit_cell"][b, u]), (edge + 2) % 4, 1, 0
    )
    return c >= 0 and S["cell_unit"][b, c, 0] >= 0


@njit
def _roll(S, tb, b: int, row: int, src: int) -> int:
    """The row's roll (1 D6, 2 D6), 0 for none or a roll kind not interpreted yet."""
    r = np.int64(tb.r_roll[row])
    if r == ROLL_1D6:
        return roll_d(S["rng"], b, 6)
    if r == ROLL_2D6:
        return roll_d(S["rng"], b, 6) + roll_d(S["rng"], b, 6)
    if r == ROLL_PROC:  # the procedure's own dice, unmodified (Headshot, R58)
        return np.int64(S["fx_proc_roll"][b])
    return np.int64(0)


@njit
def _roll_ok(S, tb, b: int, row: int, src: int, r: int) -> bool:
    """Whether roll r meets the row's compare and threshold (no roll: always)."""
    cmp = np.int64(tb.r_compare[row])
    if cmp == CMP_NONE:
        return True
    if tb.r_roll[row] > ROLL_PROC:
        return False  # a Ranged Hit made by the ability: not interpreted yet
    t = np.int64(tb.r_thr[row])
    if cmp == CMP_GE:
        return r >= t
    if cmp == CMP_LE:
        return r <= t
    if cmp == CMP_EQ:
        return r == t
    if cmp == CMP_BETWEEN:
        return t <= r and r <= tb.r_thr_hi[row]
    if cmp == CMP_LE_ALLIES:  # allies within t spaces, this unit excluded (RA7)
        n = 0
        p = side_of(S, b, src)
        for v in range(N_UNIT_IDS):
            if v == src or side_of(S, b, v) != p:
                continue
            if _alive(S, tb, b, v) and distance(S, tb, b, v, src) <= t:
                n += 1
        return r <= n
    return False


@njit
def _alive(S, tb, b: int, v: int) -> bool:
    return S["unit_place"][b, v] == PLACE_FIELD and S["unit_status"][b, v, tb.status_dead] == 0


@njit
def _pickable(S, tb, b: int, row: int, v: int) -> bool:
    """Unit v may be picked by row `row`'s selector: in play; a Dead unit on the battlefield
    instead when the row is about Dead units (tb.r_dead_ok: Raise Dead, Grave Riser "Units
    ... who have the Dead Status", so its `same_target` rows pick them only; R90)."""
    if S["unit_place"][b, v] != PLACE_FIELD:
        return False
    if tb.r_dead_ok[row] == 2:  # tdabA: a discard of Dead (Recover) picks either (R99)
        return True
    return (S["unit_status"][b, v, tb.status_dead] != 0) == (tb.r_dead_ok[row] != 0)


@njit
def _team_ok(S, tb, b: int, row: int, src: int, v: int) -> bool:
    team = tb.r_team[row]
    if v == src:
        return bool(tb.r_self[row])
    if team == TEAM_ALLY:
        return side_of(S, b, v) == side_of(S, b, src)  # this Turn's sides (R137)
    if team == TEAM_ENEMY:
        return side_of(S, b, v) != side_of(S, b, src)
    return True


@njit
def _enemies_in_area(S, tb, b: int, u: int) -> int:
    """Enemy units in play in unit u's Melee Attack Area as placed now (Unholy Strength)."""
    cells = np.empty(16, dtype=np.int64)
    bf = np.int64(S["battlefield"][b])
    n = area_cells(
        tb, bf, S["flood"][b], unit_area(S, tb, b, u), np.int64(S["unit_cell"][b, u]),
        np.int64(S["unit_facing"][b, u]), False, cells,
    )  # fmt: skip
    count = 0
    for i in range(n):
        for slot in range(2):
            v = S["cell_unit"][b, cells[i], slot]
            if v >= 0 and side_of(S, b, v) != side_of(S, b, u) and _alive(S, tb, b, v):
                count += 1
    return count


@njit
def _amount(S, tb, b: int, row: int, src: int) -> int:
    """A strength or movement change's amount: fixed, a roll of its dice, or counted."""
    mode = np.int64(tb.r_mode[row])
    kind = np.int64(tb.r_kind[row])
    if tb.r_dice[row] > 0 and (
        (kind == K_STRENGTH and mode == STR_DICE) or (kind == K_MOVE and mode == MOVE_DICE)
    ):
        return roll_d(S["rng"], b, np.int64(tb.r_dice[row]))
    if kind == K_STRENGTH and mode == STR_PER_UNIT:
        n = 0
        for v in range(N_UNIT_IDS):
            if v != src and _alive(S, tb, b, v) and distance(S, tb, b, v, src) <= tb.r_radius[row]:
                n += 1
        return n * np.int64(tb.r_amount[row])
    if kind == K_STRENGTH and mode == STR_PER_ENEMY_AREA:
        return _enemies_in_area(S, tb, b, src) * max(np.int64(tb.r_amount[row]), 1)
    if kind == K_STRENGTH and mode == STR_PER_SPACE:  # Dungball: moved in its Engagement (R92)
        if S["engaged"][b] != src:
            return np.int64(0)
        return np.int64(S["eng_moved"][b]) * np.int64(tb.r_amount[row])
    return np.int64(tb.r_amount[row])


@njit
def add_active(S, tb, b: int, row: int, u: int, amount: int, until: int) -> None:
    """A lasting effect of ability row `row` on unit u (a free slot; none left: it is lost).
    A `non_cumulative` row is granted once whatever the number of its sources."""
    free = -1
    for k in range(S["fx_row"].shape[1]):
        r = np.int64(S["fx_row"][b, k])
        if r < 0:
            if free < 0:
                free = k
        elif tb.r_noncum[row] and r == row and S["fx_unit"][b, k] == u:
            return
    if free >= 0:
        S["fx_row"][b, free] = row
        S["fx_unit"][b, free] = u
        S["fx_amount"][b, free] = max(min(amount, 127), -128)
        S["fx_until"][b, free] = until


@njit
def expire(S, b: int, until: int, u: int) -> None:
    """End the lasting effects of kind `until` (UNTIL_*) on unit u (-1: on every unit)."""
    for k in range(S["fx_row"].shape[1]):
        if S["fx_row"][b, k] >= 0 and S["fx_until"][b, k] == until:
            if u < 0 or S["fx_unit"][b, k] == u:
                S["fx_row"][b, k] = -1
                S["fx_unit"][b, k] = -1


@njit
def disengaged(S, tb, b: int, u: int) -> None:
    """Unit u is Disengaged: the Statuses an ability gave it "upon that Unit's Disengagement"
    arrive (Divine Justice's Dead: a kill by that ability's player, R44), and such waiting
    effects on units out of play are dropped; its "until Disengaged" effects end."""
    for k in range(S["fx_row"].shape[1]):
        row = np.int64(S["fx_row"][b, k])
        if row < 0 or S["fx_until"][b, k] != UNTIL_THEN_APPLY:
            continue
        v = np.int64(S["fx_unit"][b, k])
        if v != u and _alive(S, tb, b, v):
            continue
        S["fx_row"][b, k] = -1
        S["fx_unit"][b, k] = -1
        if v != u:
            continue
        S["fx_cause"][b] = S["fx_amount"][b, k]  # the ability's unit caused it
        bits = np.int64(tb.r_statuses[row])
        for s in range(N_STATUSES):
            if (bits >> s) & 1:
                if s == tb.status_dead:
                    if not dead_only_by_attack(S, tb, b, v):
                        kill(S, tb, b, v, side_of(S, b, np.int64(S["fx_amount"][b, k])))
                else:
                    apply_status(S, tb, b, v, s, STATUS_PERMANENT)
    expire(S, b, UNTIL_DISENGAGED, u)


@njit
def active_sum(S, tb, b: int, u: int, kind: int, mode: int) -> int:
    """Sum of the lasting effects of effect kind `kind` (and mode `mode`, -1 any) on unit u:
    movement changes, Range Rating and Range Modifier changes."""
    total = np.int64(0)
    for k in range(S["fx_row"].shape[1]):
        r = np.int64(S["fx_row"][b, k])
        if r >= 0 and S["fx_unit"][b, k] == u and tb.r_kind[r] == kind:
            if mode < 0 or tb.r_mode[r] == mode:
                total += S["fx_amount"][b, k]
    return total


@njit
def range_rating(S, tb, b: int, u: int) -> int:
    """Range Rating of unit u: its top member's, with its Items (Binoculars +1, TD-25.6), its
    abilities' lasting changes (Holy Guidance) and its space's terrain modifier (Water -1,
    R14); never below 0."""
    tt = unit_terrain(S, tb, b, u)  # tdabH: Floodplains (R124, R136)
    r = np.int64(tb.u_range[S["unit_member"][b, u, 0]]) + item_sum(S, b, u, tb.it_range)
    r += active_sum(S, tb, b, u, K_RANGE, RANGE_RATING)
    return max(r + tb.t_range_mod[tt], 0)


@njit
def _until(tb, row: int) -> int:
    d = np.int64(tb.r_duration[row])
    if d == DUR_PROCEDURE or d == DUR_PROC_DUEL:
        return UNTIL_PROCEDURE
    if d == DUR_TURN:
        return UNTIL_TURN
    return UNTIL_DISENGAGED


@njit
def _apply_effect(S, tb, b: int, row: int, src: int, v: int) -> int:
    """Ability row `row` of unit src acts on unit v (one switch over the effect kinds; a kind
    or mode not interpreted yet does nothing); returns the unit on v's space afterwards (v,
    or the unit that replaced it, replace.replace_unit)."""
    kind = np.int64(tb.r_kind[row])
    mode = np.int64(tb.r_mode[row])
    bits = np.int64(tb.r_statuses[row])
    if kind == K_GAIN and (mode == GAIN_PLAIN or mode == GAIN_PERMANENT or mode == GAIN_APPLICABLE):
        for s in range(N_STATUSES):
            if not (bits >> s) & 1:
                continue
            if mode == GAIN_APPLICABLE and not tb.st_afflicts[s, S["unit_type"][b, v]]:
                continue
            if s == tb.status_dead:
                if not dead_only_by_attack(S, tb, b, v):  # Oblivious (R53)
                    kill(S, tb, b, v, side_of(S, b, src))  # an ability's kill counts (R44)
            else:
                had = S["unit_status"][b, v, s] != 0  # tdabA: already held: not acquired
                if apply_status(S, tb, b, v, s, STATUS_PERMANENT) and not had:
                    S["au_acq"][b] |= np.int32(1) << np.int32(s)  # status_acquired (R103)
            if mode == GAIN_APPLICABLE:
                break
    elif kind == K_GAIN and mode == GAIN_ON_DISENGAGE:  # Divine Justice: later (disengaged)
        add_active(S, tb, b, row, v, src, UNTIL_THEN_APPLY)  # the amount: whose ability
    elif kind == K_GAIN and mode == GAIN_TRANSFERRED:  # tdabA: the Status the player chose
        for s in range(N_STATUSES):  # and the previous row discarded (Crystal Power, R102)
            if (np.int64(S["fx_st_pick"][b]) >> s) & 1 and s != tb.status_dead:
                apply_status(S, tb, b, v, s, STATUS_PERMANENT)
    elif kind == K_GAIN and mode == GAIN_AFTER_COMBAT:  # tdabA: Petrifying Peck (R97)
        add_active(S, tb, b, row, v, src, UNTIL_AFTER_COMBAT)  # auras.after_combat_phase
    elif (kind == K_GAIN and mode == GAIN_CHOICE) or (
        kind == K_ITEM and (mode == ITEM_DISCARD_WA or mode == ITEM_MAY_EQUIP)
    ):
        S["au_pend_row"][b] = row  # tdabA: the player chooses once the hook is over (R98)
        S["au_pend_unit"][b] = v
        S["au_pend_n"][b] += 1
    elif kind == K_DISCARD and (mode == DISCARD_ONE or mode == DISCARD_ANY):
        chosen = np.int64(S["fx_st_pick"][b]) & ~np.int64(tb.r_except[row])  # the player's (R57)
        for s in range(N_STATUSES):
            if S["unit_status"][b, v, s] != 0 and (chosen >> s) & 1:
                discard_status(S, tb, b, v, s)
    elif kind == K_DISCARD and mode == DISCARD_LISTED and tb.r_optional[row]:
        for s in range(N_STATUSES):  # tdabA: Recover; the target's player decides (R99)
            if S["unit_status"][b, v, s] != 0 and (bits >> s) & 1:
                S["au_pend_offer"][b] |= np.int32(1) << np.int32(s)
                S["au_pend_unit"][b] = v
    elif kind == K_ITEM and mode == ITEM_DISCARD_N:  # tdabD: Incineration; its player picks
        S["gd_disc"][b, v] = min(np.int64(S["gd_disc"][b, v]) + tb.r_amount[row], 100)  # (R108)
    elif kind == K_IGNORE:  # tdabD: Soothe; the target's player picks which (R106)
        for s in range(N_STATUSES):
            if S["unit_status"][b, v, s] != 0 and s != tb.status_dead:
                S["au_pend_offer"][b] |= np.int32(1) << np.int32(s)
                S["au_pend_unit"][b] = v
                S["au_pend_row"][b] = row
    elif kind == K_DISCARD and (mode == DISCARD_LISTED or mode == DISCARD_ALL):
        keep = np.int64(0) if mode == DISCARD_LISTED else np.int64(tb.r_except[row])
        for s in range(N_STATUSES):
            if S["unit_status"][b, v, s] == 0:
                continue
            if (mode == DISCARD_LISTED and (bits >> s) & 1) or (
                mode == DISCARD_ALL and not (keep >> s) & 1
            ):
                discard_status(S, tb, b, v, s)
    elif kind == K_STRENGTH or kind == K_MOVE or kind == K_AUTO_WIN:
        if kind == K_AUTO_WIN and mode == AUTO_NO_LOCK:  # Outsmart: and no Combat Lock forms
            S["fx_res"][b] |= RES_NO_LOCK
        add_active(S, tb, b, row, v, _amount(S, tb, b, row, src), _until(tb, row))
    elif kind == K_RANGE:
        add_active(S, tb, b, row, v, roll_d(S["rng"], b, np.int64(tb.r_dice[row])), _until(tb, row))
    elif kind == K_ROTATE:  # clockwise, a roll of its dice times; no longer face to face (R33)
        turns = roll_d(S["rng"], b, np.int64(tb.r_dice[row]))
        S["unit_facing"][b, v] = (np.int64(S["unit_facing"][b, v]) + turns) % 4
        unlock(S, b, v)
    elif kind == K_NEGATE:
        S["fx_res"][b] |= RES_NEGATED
    elif kind == K_REMOVE:
        remove_from_game(S, b, v)
    elif kind == K_REPLACE and (mode == REPLACE_THIS_PLAYER or mode == REPLACE_OWNER):
        return replace_unit(S, tb, b, row, src, v)
    elif kind == K_SET_TYPE and mode == SET_TYPE_FIXED and tb.r_utype[row] >= 0:
        set_unit_type(S, tb, b, v, np.int64(tb.r_utype[row]))  # Chimaeric Reaction
    elif kind == K_STACK:  # Host, Curse, Alter (control.py, R125)
        return stack_under(S, tb, b, row, src, v)
    elif kind == K_DISABLE:  # Ghoul Blight: until v is next Engaged (R127)
        S["unit_ab_off"][b, v] |= AB_OFF_BLIGHT
    elif kind == K_REPOSITION and mode == REPOS_SUMMON:  # to the space picked (R129)
        c = np.int64(S["pending_target"][b])
        if c >= 0 and S["cell_unit"][b, c, 0] < 0:
            move_to(S, b, v, c)
            S["unit_moved"][b, v] = 1  # "counts as having moved that Turn"
    elif kind == K_REPOSITION and mode == REPOS_PULL:  # tdabF: asked once the rows have run
        S["eff_unit"][b] = src  # (possess.ask_grapple, R133)
        S["eff_next"][b] = RESUME_GRAPPLE
    elif kind == K_EXTRA and mode == EXTRA_GUIDE:  # asked once the rows have run (R131)
        S["eff_unit"][b] = v
        S["eff_next"][b] = RESUME_GUIDE
    elif kind == K_PROHIBIT and mode == PROHIBIT_BY_THIS:  # this Turn (False Guide)
        S["unit_no_attack"][b, src] = v
    elif kind == K_CONTROL:  # tdabI: Possess: this Player's until its Turn ends (R137, R138)
        p = side_of(S, b, src)
        if p != side_of(S, b, v) and S["unit_team"][b, v] < 0 and S["unit_lock"][b, v] < 0:
            S["unit_ctrl"][b, v] = p  # turn.step gives it back after the End of Turn rows
    elif kind == K_SPECIAL and mode == SPECIAL_FRONT:  # tdabE: Voodoo Doll's Attack on v,
        S["aa_unit"][b] = v  # made once the hook is over (ability_attacks.ability_attack)
    return v


@njit
def run_hook(S, tb, b: int, hook: int, unit: int, other: int) -> None:
    """Run the rows of `hook` (record.H_*) of unit `unit`'s abilities (-1: of every unit on the
    battlefield, in id order; NO_SOURCE: none), `other` being the other unit of the procedure
    (the killer for H_DEAD; for H_ENGAGE_AURA the Engaged unit, the only one the rows may
    pick). Rows of one ability run in order; a `shared_roll` row reuses the previous row's
    roll, a `same_target` row the previous row's picks. Then the Dead hooks of the units that
    acquired the Dead Status meanwhile (queued by units.kill), until none is left."""
    picked = np.empty(N_UNIT_IDS, dtype=np.int64)
    rolls = np.zeros(N_UNIT_IDS, dtype=np.int64)  # the roll each pick is judged by
    S["au_acq"][b] = 0  # tdabA: Statuses acquired from this run's rows (R103)
    h = hook
    first = unit
    opp = other
    for _ in range(4 * N_UNIT_IDS):  # a bound: every queued Dead hook runs once
        lo = first if first >= 0 else 0
        hi = first + 1 if first >= 0 else (N_UNIT_IDS if first == -1 else 0)
        for src in range(lo, hi):
            for m in range(ability_count(S, b, src)):
                prof = ability_prof(S, b, src, m)
                if prof < 0 or not ability_on(S, tb, b, src, prof):
                    continue
                start = np.int64(tb.hk_start[h, prof])
                n = 0
                for i in range(start, start + tb.hk_count[h, prof]):
                    row = np.int64(tb.hk_rows[i])
                    chosen = h == H_REPLACES or h == H_COMBAT  # the player used it (A_ABILITY)
                    if not chosen and (tb.r_optional[row] or tb.r_group[row] != 0):
                        if h == H_DEAD and tb.r_kind[row] == K_REPLACE and S["au_dg_unit"][b] < 0:
                            # tdabA: Downgrade rolls now; its "may" is asked at the next
                            # hand-off (auras.ask_downgrade, R100)
                            if _roll_ok(S, tb, b, row, src, _roll(S, tb, b, row, src)):
                                S["au_dg_unit"][b] = src
                                S["au_dg_row"][b] = row
                        continue  # a player's choice: asked elsewhere (pause.py) or not yet
                    S["fx_cause"][b] = src
                    if not tb.r_shared[row] and not tb.r_each[row]:
                        r = _roll(S, tb, b, row, src)
                        rolls[:] = r  # one roll for every pick (a shared row keeps them)
                    # the selector (one switch): picked[:n]
                    sel = tb.r_sel[row]
                    if sel == SEL_SAME:
                        pass  # the previous row's picks
                    elif sel == SEL_SELF:
                        picked[0] = src
                        n = 1
                    elif sel == SEL_OPPOSING or sel == SEL_KILLER or sel == SEL_ATTACKED:
                        n = 0
                        if opp >= 0 and S["unit_place"][b, opp] == PLACE_FIELD:
                            if sel == SEL_KILLER or _team_ok(S, tb, b, row, src, opp):
                                picked[0] = opp
                                n = 1
                    elif sel == SEL_VICTIMS:  # the unit this one's Attack just killed
                        n = 0
                        if (
                            S["fx_att"][b] == src
                            and opp >= 0
                            and S["fx_res"][b] & RES_KILLED
                            and S["unit_status"][b, opp, tb.status_dead] != 0
                        ):
                            picked[0] = opp
                            n = 1
                    elif sel == SEL_WITHIN or sel == SEL_ALL or sel == SEL_ALLY_FRONT:
                        n = 0
                        front = -1
                        if sel == SEL_ALLY_FRONT:
                            front = offset_cell(
                                tb, np.int64(S["battlefield"][b]),
                                np.int64(S["unit_cell"][b, src]),
                                np.int64(S["unit_facing"][b, src]), 1, 0,
                            )  # fmt: skip
                        for v in range(N_UNIT_IDS):
                            if not _pickable(S, tb, b, row, v) or not _team_ok(
                                S, tb, b, row, src, v
                            ):
                                continue
                            if h == H_ENGAGE_AURA and v != opp:
                                continue
                            if sel == SEL_WITHIN and distance(S, tb, b, v, src) > tb.r_radius[row]:
                                continue
                            if sel == SEL_ALLY_FRONT and S["unit_cell"][b, v] != front:
                                continue
                            picked[n] = v
                            n += 1
                    elif (h == H_REPLACES or h == H_COMBAT) and (
                        sel == SEL_TARGET_WITHIN or sel == SEL_TARGET_IN_RANGE
                    ):
                        n = 0  # the player's picks (STAGE_EFFECT), still valid targets
                        two = tb.r_kind[row] == K_GAIN and tb.r_mode[row] == GAIN_TRANSFERRED
                        for j in range(1 if two else S["fx_n_pick"][b]):  # tdabA: or its own
                            v = np.int64(S["au_pick2"][b] if two else S["fx_pick"][b, j])  # (R102)
                            if target_ok(S, tb, b, src, row, v):
                                picked[n] = v
                                n += 1
                    elif sel == SEL_TEAM_PARTNER:  # its Unit Team partner in play (TD-18)
                        n = 0
                        v = np.int64(S["unit_team"][b, src])
                        if v >= 0 and _alive(S, tb, b, v):
                            picked[0] = v
                            n = 1
                    elif sel == SEL_UNITS_IN_RANGE or sel == SEL_ATTACK_AREA:
                        n = 0
                        for v in range(N_UNIT_IDS):
                            if (
                                v == src
                                or not _alive(S, tb, b, v)
                                or not _team_ok(S, tb, b, row, src, v)
                            ):
                                continue
                            if sel == SEL_UNITS_IN_RANGE:
                                ok = in_range_area(S, tb, b, src, v, tb.r_los[row] != 0)
                            else:
                                ok = in_attack_area(S, tb, b, src, row, v)
                            if ok:
                                picked[n] = v
                                n += 1
                    else:
                        n = 0  # a chosen target outside an ability's replaced Attack: not yet
                    for j in range(n):
                        v = picked[j]
                        if tb.r_each[row] and not tb.r_shared[row]:
                            rolls[j] = _roll(S, tb, b, row, src)  # one roll per unit (RA21)
                        if not _roll_ok(S, tb, b, row, src, rolls[j]):
                            continue
                        if not conditions_hold(S, tb, b, row, src, v, opp, -1, -1):
                            continue
                        picked[j] = _apply_effect(S, tb, b, row, src, v)  # a replaced unit's
                        # successor is the next `same_target` row's pick (R90)
        S["fx_cause"][b] = -1
        k = np.int64(S["fx_n_dead"][b])
        if k == 0:
            return
        S["fx_n_dead"][b] = k - 1  # the next queued Dead hook
        h = H_DEAD
        first = np.int64(S["fx_dead"][b, k - 1])
        opp = np.int64(S["fx_dead_by"][b, k - 1])


@njit
def in_range_area(S, tb, b: int, u: int, v: int, los: bool) -> bool:
    """Unit v stands in unit u's Range Area (TD-15.1; its Range Rating, R7), and in its Line
    of Sight if `los` (TD-15.7)."""
    bf = np.int64(S["battlefield"][b])
    a = np.int64(S["unit_cell"][b, u])
    facing = np.int64(S["unit_facing"][b, u])
    c = np.int64(S["unit_cell"][b, v])
    if range_distance(tb, bf, a, facing, c, range_rating(S, tb, b, u)) < 0:
        return False
    return not los or line_of_sight(tb, bf, S["flood"][b], a, facing, c)


@njit
def in_attack_area(S, tb, b: int, u: int, row: int, v: int) -> bool:
    """Unit v stands in unit u's Attack Area as placed for a melee attack now, or in the
    area the row names (Lightning Cry's MF); a Ranged Area of Attack placed on the target
    space the player picked, S["pending_target"] (Gorgon Gaze, R89; none picked: no unit)."""
    area = np.int64(tb.r_area[row]) if tb.r_area[row] >= 0 else unit_area(S, tb, b, u)
    origin = np.int64(S["unit_cell"][b, u])
    if tb.area_ranged[area]:
        origin = np.int64(S["pending_target"][b])
        if origin < 0:
            return False
    cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
    n = area_cells(
        tb, np.int64(S["battlefield"][b]), S["flood"][b], area, origin,
        np.int64(S["unit_facing"][b, u]), tb.area_ranged[area] != 0, cells,
    )  # fmt: skip
    for i in range(n):
        if cells[i] == S["unit_cell"][b, v]:
            return True
    return False


@njit
def target_ok(S, tb, b: int, u: int, row: int, v: int) -> bool:
    """Whether unit u's ability row `row` may pick unit v: another unit in play, of the row's
    team, within its radius (`target_within`) or in its Range Area (`target_in_range`), in
    Line of Sight when the row says so."""
    if v < 0 or v == u or not _pickable(S, tb, b, row, v) or not _team_ok(S, tb, b, row, u, v):
        return False
    if tb.r_sel[row] == SEL_TARGET_IN_RANGE:
        return in_range_area(S, tb, b, u, v, tb.r_los[row] != 0)
    if distance(S, tb, b, u, v) > tb.r_radius[row]:
        return False
    if not tb.r_los[row]:
        return True
    bf = np.int64(S["battlefield"][b])
    if tb.r_kind[row] == K_DISABLE:  # Ghoul Blight: from any side (RA16)
        for f in range(4):
            if line_of_sight(
                tb, bf, S["flood"][b], np.int64(S["unit_cell"][b, u]), np.int64(f),
                np.int64(S["unit_cell"][b, v]),
            ):  # fmt: skip
                return True
        return False
    return line_of_sight(
        tb, bf, S["flood"][b], np.int64(S["unit_cell"][b, u]), np.int64(S["unit_facing"][b, u]),
        np.int64(S["unit_cell"][b, v]),
    )  # fmt: skip


@njit
def replaced_attack_row(S, tb, b: int, u: int) -> int:
    """The first "R: Attack Pro." row of unit u's acting abilities (its top member's first),
    else the first "D: Combat Pha." row, -1 none: the ability it may use in its Combat Phase
    (A_ABILITY), instead of its Attack (R: H_REPLACES) or besides it (D: H_COMBAT, R55)."""
    for h in (H_REPLACES, H_COMBAT):
        for m in range(ability_count(S, b, u)):
            prof = ability_prof(S, b, u, m)
            if prof >= 0 and ability_on(S, tb, b, u, prof) and tb.hk_count[h, prof] > 0:
                return np.int64(tb.hk_rows[tb.hk_start[h, prof]])
    return -1


@njit
def is_combat_row(tb, row: int) -> bool:
    """Whether ability row `row` (of replaced_attack_row) is a "D: Combat Pha." row, used
    besides the Attack, not an "R: Attack Pro." one (no ability has both, R55)."""
    return tb.hk_count[H_REPLACES, tb.r_ability[row]] == 0


@njit
def may_use_ability(S, tb, b: int, u: int) -> bool:
    """Unit u may use its "R: Attack Pro." ability in its Combat Phase: it has one and is not
    Locked in Combat (it must attack its opponent, TD-16.3); a "D: Combat Pha." ability once
    per Engagement, Locked or not (R55); an ability that targets needs a unit to pick (R47)."""
    row = replaced_attack_row(S, tb, b, u)
    if row < 0:
        return False
    if is_combat_row(tb, row):
        if S["unit_uses"][b, u, USE_COMBAT_ABILITY]:
            return False
    elif S["unit_lock"][b, u] >= 0:
        return False
    sel = tb.r_sel[row]
    mode = tb.r_mode[row]
    if tb.r_kind[row] == K_ITEM and mode == ITEM_LOOT_ANY:  # tdabE: Steal: a unit to loot
        for v in range(N_UNIT_IDS):
            if steal_ok(S, tb, b, u, v):
                return True
        return False
    if tb.r_kind[row] == K_ITEM and mode == ITEM_SEND_OWN:  # tdabE: Lob: an Item to send
        held = False  # and a target for its next row (R121)
        for t in range(S["unit_item"].shape[2]):
            held = held or S["unit_item"][b, u, t] >= 0
        if held:
            for v in range(N_UNIT_IDS):
                if target_ok(S, tb, b, u, row + 1, v):
                    return True
        return False
    if tb.r_kind[row] == K_ITEM and (mode == ITEM_TAKE_EXPENDABLE or mode == ITEM_SWAP_FROM_DECK):
        # tdabB: Chemistry, Alchemy: an Item it may take from the deck (R117); Bite's and Make
        # Bread's `item` rows are not offered by it (R98, R103)
        buf = np.empty(MAX_DECK, dtype=np.int64)
        return legal_deck_pick(S, tb, b, row, buf) > 0
    if sel == SEL_SELF:  # its own conditions (Picking up the Pieces: a Dead unit next to it)
        return conditions_hold(S, tb, b, row, u, u, -1, -1, -1)
    if sel != SEL_TARGET_WITHIN and sel != SEL_TARGET_IN_RANGE:
        return True
    for v in range(N_UNIT_IDS):
        if pick_ok(S, tb, b, u, row, v):
            return True
    return False


@njit
def steal_ok(S, tb, b: int, u: int, v: int) -> bool:
    """tdabE: unit u's Steal may loot unit v: another unit on the battlefield in direct Grid
    Space contact, Dead or not, of either side, holding an Item (R122)."""
    if v == u or S["unit_place"][b, v] != PLACE_FIELD or distance(S, tb, b, u, v) != 1:
        return False
    for t in range(S["unit_item"].shape[2]):
        if S["unit_item"][b, v, t] >= 0:
            return True
    return False


@njit
def pick_ok(S, tb, b: int, u: int, row: int, v: int) -> bool:
    """Unit v may be picked for unit u's ability whose first Combat Phase row is `row`: a
    valid target (target_ok) that some row of the ability accepts by its conditions (Repair:
    not Locked in Combat; EEK!: either row), so no pick is wasted on a unit it cannot act on."""
    if not target_ok(S, tb, b, u, row, v):
        return False
    if tb.r_kind[row] == K_REPOSITION and tb.r_mode[row] == REPOS_SUMMON:
        cells = np.empty(MAX_CELLS, dtype=np.int64)  # Summon: a space to move it to (R129)
        if summon_cells(S, tb, b, u, v, range_rating(S, tb, b, u), cells) == 0:
            return False
    h = H_COMBAT if is_combat_row(tb, row) else H_REPLACES
    prof = np.int64(tb.r_ability[row])
    start = np.int64(tb.hk_start[h, prof])
    for i in range(start, start + tb.hk_count[h, prof]):
        r = np.int64(tb.hk_rows[i])
        if tb.r_kind[r] == K_GAIN and tb.r_mode[r] == GAIN_TRANSFERRED:
            continue  # tdabA: Crystal Power's second target is picked apart (R102)
        if conditions_hold(S, tb, b, r, u, v, -1, -1, -1):
            return True
    return False


@njit
def status_choice(tb, row: int) -> bool:
    """Whether the row discards Statuses the player chooses (choose_one, choose_any; R57)."""
    return tb.r_kind[row] == K_DISCARD and (
        tb.r_mode[row] == DISCARD_ONE or tb.r_mode[row] == DISCARD_ANY
    )


@njit
def legal_status_choice(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_STATUS: the Statuses the unit concerned (the picked target, or
    the ability's own unit) has that the row lets the player choose and that are not chosen
    yet (A_STATUS + s); A_END where the player may stop: a "may" row at once, `choose_any`
    after one, or when nothing is left to choose (R57)."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    sel = tb.r_sel[row]
    v = (
        np.int64(S["fx_pick"][b, 0])
        if sel == SEL_TARGET_WITHIN or sel == SEL_TARGET_IN_RANGE
        else u
    )
    chosen = np.int64(S["fx_st_pick"][b])
    n = 0
    for s in range(N_STATUSES):
        if (
            S["unit_status"][b, v, s] != 0
            and not (np.int64(tb.r_except[row]) >> s) & 1
            and not (chosen >> s) & 1
        ):
            out[n] = A_STATUS + s
            n += 1
    if n == 0 or tb.r_optional[row] or (tb.r_mode[row] == DISCARD_ANY and chosen != 0):
        out[n] = A_END
        n += 1
    return n


@njit
def choose_status(S, tb, b: int, a: int) -> bool:
    """Apply a RESUME_STATUS choice; True when the choice is complete (A_END, or the one
    Status of `choose_one`) and the ability acts."""
    if a == A_END:
        return True
    S["fx_st_pick"][b] |= np.int32(1) << np.int32(a - A_STATUS)
    row = replaced_attack_row(S, tb, b, np.int64(S["engaged"][b]))
    return tb.r_mode[row] == DISCARD_ONE


@njit
def legal_ability_targets(S, tb, b: int, out) -> int:
    """STAGE_EFFECT while the player picks the targets of the ability used instead of the
    Attack: the space of each unit the row may pick and that is not picked yet; A_END once
    one is picked (stop before the most the row allows)."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    n = 0
    k = np.int64(S["fx_n_pick"][b])
    rk = pick_row(tb, row, k)  # the row this pick answers (Blood Sacrifice's second, R130)
    for v in range(N_UNIT_IDS):
        if not pick_ok(S, tb, b, u, rk, v) or not named_by_space(S, b, v):
            continue
        dup = False
        for j in range(k):
            if S["fx_pick"][b, j] == v:
                dup = True
        if not dup:
            out[n] = A_CELL + S["unit_cell"][b, v]
            n += 1
    if k > 0 or n == 0:
        out[n] = A_END
        n += 1
    return n


@njit
def pick_ability_target(S, tb, b: int, a: int) -> bool:
    """Apply a STAGE_EFFECT pick (A_CELL + c: the unit on c; A_END: no more); returns True
    when the picks are complete and the ability acts (effects.run_hook, H_REPLACES)."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    if a != A_END:
        k = np.int64(S["fx_n_pick"][b])
        S["fx_pick"][b, k] = S["cell_unit"][b, a - A_CELL, 0]
        S["fx_n_pick"][b] = k + 1
        more = k + 1 < max(np.int64(tb.r_max[row]), 1) or pick_row(tb, row, k + 1) != row
        if more and k + 1 < S["fx_pick"].shape[1]:
            return False
    return True


@njit
def pick_row(tb, row: int, k: int) -> int:
    """The ability row whose target the player's pick k (0 first) is: `row` (the ability's
    first Combat Phase row), or for k >= 1 the ability's k-th other row that picks a target
    (`target_within` / `target_in_range`) if it has one: Blood Sacrifice's ally, then its
    enemy (R130). Abilities with one such row are unchanged (`max_targets` picks of it)."""
    if k == 0:
        return row
    prof = np.int64(tb.r_ability[row])
    h = H_COMBAT if is_combat_row(tb, row) else H_REPLACES
    start = np.int64(tb.hk_start[h, prof])
    j = 0
    for i in range(start, start + tb.hk_count[h, prof]):
        r = np.int64(tb.hk_rows[i])
        if tb.r_kind[r] == K_GAIN and tb.r_mode[r] == GAIN_TRANSFERRED:
            continue  # Crystal Power's second unit is picked after the Status (R102)
        if r != row and (tb.r_sel[r] == SEL_TARGET_WITHIN or tb.r_sel[r] == SEL_TARGET_IN_RANGE):
            j += 1
            if j == k:
                return r
    return row


@njit
def collect_modifiers(S, tb, b: int, a: int, d: int, a_side: int, d_side: int, escape: bool,
                      mods) -> None:  # fmt: skip
    """Fill mods[role, phase, M_*] (module constants) for an Attack of unit a against unit d
    (or an Escape of a from d): the lasting effects on them, then the `during`/`always`
    modifier rows (hook H_MOD) of every ability in play that picks one of them. A row with
    Attack/Defend procedures counts in the Duel too only for the role it names
    (`procedure_and_duel`: "and resulting Duel")."""
    for x in range(2):
        for y in range(2):
            for z in range(N_MODS):
                mods[x, y, z] = 0
    for k in range(S["fx_row"].shape[1]):
        row = np.int64(S["fx_row"][b, k])
        if row < 0:
            continue
        u = S["fx_unit"][b, k]
        role = 0 if u == a else (1 if u == d else -1)
        if role < 0:
            continue
        kind = tb.r_kind[row]
        procs = np.int64(tb.r_procs[row])
        if escape and kind != K_AUTO_WIN:
            continue  # Escape: no Abilities of the Attack/Defend Procedures (TD-9.8)
        if not escape and kind == K_AUTO_WIN and procs & P_ESCAPE:
            continue
        for ph in range(2):
            if kind == K_STRENGTH:
                for side in range(4):
                    if (tb.r_sides[row] >> side) & 1:
                        mods[role, ph, M_STR + side] += S["fx_amount"][b, k]
            elif kind == K_AUTO_WIN:
                mods[role, ph, M_AUTO_WIN] = 1
    seen = np.full(MAX_NONCUM, -1, dtype=np.int64)
    n_seen = 0
    for src in range(N_UNIT_IDS):
        for m in range(ability_count(S, b, src)):
            prof = ability_prof(S, b, src, m)
            if prof < 0 or not ability_on(S, tb, b, src, prof):
                continue
            start = np.int64(tb.hk_start[H_MOD, prof])
            for i in range(start, start + tb.hk_count[H_MOD, prof]):
                row = np.int64(tb.hk_rows[i])
                procs = np.int64(tb.r_procs[row])
                if escape != (procs & P_ESCAPE != 0):
                    continue
                for role in range(2):
                    t = a if role == 0 else d
                    o = d if role == 0 else a
                    sel = tb.r_sel[row]
                    if sel == SEL_SELF:
                        ok = t == src
                    elif sel == SEL_OPPOSING:
                        ok = o == src and _team_ok(S, tb, b, row, src, t)
                    elif sel == SEL_WITHIN:
                        ok = _team_ok(S, tb, b, row, src, t) and (
                            t == src or distance(S, tb, b, t, src) <= tb.r_radius[row]
                        )
                    elif sel == SEL_ALLY_FRONT:
                        front = offset_cell(
                            tb, np.int64(S["battlefield"][b]), np.int64(S["unit_cell"][b, src]),
                            np.int64(S["unit_facing"][b, src]), 1, 0,
                        )  # fmt: skip
                        ok = (
                            t != src
                            and _team_ok(S, tb, b, row, src, t)
                            and S["unit_cell"][b, t] == front
                        )
                    elif sel == SEL_TEAM_PARTNER:  # Teamwork?, Partners? (TD-18)
                        ok = t != src and S["unit_team"][b, src] == t
                    else:
                        ok = False
                    if not ok:
                        continue
                    # the phases: the procedure of the unit the row names (the ability's own
                    # unit's for `opposing_unit`: Overwhelm's Attack), and the Duel
                    named = 1 - role if sel == SEL_OPPOSING else role
                    own = P_ESCAPE if escape else (P_ATTACK if named == 0 else P_DEFEND)
                    ad = procs & (P_ATTACK | P_DEFEND)
                    main = procs == 0 or procs & own != 0
                    duel = procs == 0 or (procs & P_DUEL != 0 and (ad == 0 or procs & own != 0))
                    duel = duel or (main and tb.r_duration[row] == DUR_PROC_DUEL)
                    if not main and not duel:
                        continue
                    # conditions, from the ability holder's point of view (src)
                    s_opp = o if src == t else (t if src == o else -1)
                    s_side = a_side if src == a else (d_side if src == d else -1)
                    o_side = d_side if src == a else (a_side if src == d else -1)
                    if not conditions_hold(S, tb, b, row, src, t, s_opp, s_side, o_side):
                        continue
                    if tb.r_noncum[row]:
                        dup = False
                        for q in range(n_seen):
                            if seen[q] == row * N_UNIT_IDS + t:
                                dup = True
                        if dup:
                            continue
                        if n_seen < MAX_NONCUM:
                            seen[n_seen] = row * N_UNIT_IDS + t
                            n_seen += 1
                    r = _roll(S, tb, b, row, src)
                    if not _roll_ok(S, tb, b, row, src, r):
                        continue
                    kind = tb.r_kind[row]
                    mode = tb.r_mode[row]
                    amount = _amount(S, tb, b, row, src) if kind == K_STRENGTH else 0
                    for ph in range(2):
                        if (ph == 0 and not main) or (ph == 1 and not duel):
                            continue
                        if kind == K_STRENGTH:
                            for side in range(4):
                                if (tb.r_sides[row] >> side) & 1:
                                    mods[role, ph, M_STR + side] += amount
                        elif kind == K_HALF:
                            mods[role, ph, M_HALVE] = 1
                        elif kind == K_AUTO_WIN:
                            mods[role, ph, M_AUTO_WIN] = 1
                        elif kind == K_DICE and mode == DICE_ADD:
                            sides = tb.r_dice[row]
                            slot = M_D3 if sides == 3 else (M_D4 if sides == 4 else M_D6)
                            mods[role, ph, slot] += 1
                        elif kind == K_DICE and mode == DICE_DROP_LOWEST:
                            mods[role, ph, M_DROP_LOWEST] = 1
                        elif kind == K_DICE and mode == DICE_BEST_OF_3:
                            mods[role, ph, M_BEST_OF_3] = 1
                        elif kind == K_DICE and mode == DICE_BASE_D3:
                            mods[role, ph, M_BASE_D3] = 1


@njit
def alerted(S, tb, b: int, u: int, v: int) -> bool:
    """Whether unit u's Ranged Attack may target unit v whatever u's Range Rating (Alerted:
    v within the radius of an ally of u, not u itself, with the ability; R61)."""
    p = side_of(S, b, u)
    for h in range(N_UNIT_IDS):
        if h == u or side_of(S, b, h) != p or S["unit_place"][b, h] != PLACE_FIELD:
            continue
        for m in range(ability_count(S, b, h)):
            prof = ability_prof(S, b, h, m)
            if (
                prof >= 0
                and tb.ab_alert[prof] > 0
                and ability_on(S, tb, b, h, prof)
                and distance(S, tb, b, h, v) <= tb.ab_alert[prof]
            ):
                return True
    return False


@njit
def attack_twice(S, tb, b: int, u: int) -> bool:
    """Whether unit u may make a second Attack (and Duel) in its Combat Phase: an allied unit
    in play whose ability grants it (Beast Whisperer: u within its radius and of the Pup
    Root, the row's conditions; granted once however many grant it, R93)."""
    p = side_of(S, b, u)
    for h in range(N_UNIT_IDS):
        if side_of(S, b, h) != p:
            continue
        for m in range(ability_count(S, b, h)):
            prof = ability_prof(S, b, h, m)
            if prof < 0 or tb.ab_twice_row[prof] < 0 or not ability_on(S, tb, b, h, prof):
                continue
            row = np.int64(tb.ab_twice_row[prof])
            if (
                _team_ok(S, tb, b, row, h, u)
                and (h == u or distance(S, tb, b, h, u) <= tb.r_radius[row])
                and conditions_hold(S, tb, b, row, h, u, -1, -1, -1)
            ):
                return True
    return False


@njit
def ranged_hit_bonus(S, tb, b: int, u: int, mod: int) -> int:
    """The dice unit u's abilities add to its Ranged Hit Procedure (Perfect Shot's D3, R58),
    rolled, each result changed by `mod` as the procedure's own dice are (Necklace)."""
    total = np.int64(0)
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not ability_on(S, tb, b, u, prof):
            continue
        start = np.int64(tb.hk_start[H_RANGED_HIT, prof])
        for i in range(start, start + tb.hk_count[H_RANGED_HIT, prof]):
            row = np.int64(tb.hk_rows[i])
            if tb.r_kind[row] == K_DICE and tb.r_mode[row] == DICE_ADD:
                total += roll_d(S["rng"], b, np.int64(tb.r_dice[row])) + mod
    return total


@njit
def dead_immune(S, tb, b: int, u: int, attacker: int) -> bool:
    """Whether unit u's abilities keep it from acquiring the Dead Status from this attack:
    its conditional `status_immunity` rows naming Dead (Just Mud: from the unit Locked with
    it; Indestructable: from a Physical Attack), the attacker being the unit concerned."""
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not ability_on(S, tb, b, u, prof):
            continue
        start = np.int64(tb.hk_start[H_IMMUNE, prof])
        for i in range(start, start + tb.hk_count[H_IMMUNE, prof]):
            row = np.int64(tb.hk_rows[i])
            if (np.int64(tb.r_statuses[row]) >> np.int64(tb.status_dead)) & 1 and conditions_hold(
                S, tb, b, row, u, attacker, attacker, -1, -1
            ):
                return True
    return False


__all__ = [
    "H_DEAD",
    "NO_SOURCE",
    "active_sum",
    "collect_modifiers",
    "expire",
    "run_hook",
    "UNTIL_DISENGAGED",
    "UNTIL_PROCEDURE",
    "UNTIL_TURN",
]


@njit
def attack_prohibited(S, tb, b: int, a: int, d: int) -> bool:
    """Whether unit a may not attack unit d (R77): an acting ability of d's forbids it, its
    row's team and radius covering a and its conditions holding with a as the row's target
    (Oversized: an enemy in direct contact; Climb Tree: a Physical Melee enemy while d is in
    Forest); or a may not attack d this Turn (False Guide's target, R131)."""
    if S["unit_no_attack"][b, a] == d:
        return True
    for m in range(ability_count(S, b, d)):
        prof = ability_prof(S, b, d, m)
        if prof < 0 or not ability_on(S, tb, b, d, prof):
            continue
        row = np.int64(tb.ab_prohibit[prof])
        if row < 0 or not _team_ok(S, tb, b, row, d, a):
            continue
        if tb.r_sel[row] == SEL_WITHIN and distance(S, tb, b, a, d) > tb.r_radius[row]:
            continue
        if conditions_hold(S, tb, b, row, d, a, a, -1, -1):
            return True
    return False
