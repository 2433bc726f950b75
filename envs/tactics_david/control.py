"""Stacking a unit under an enemy unit (the `stack_under` effect kind, TD-22.2; branch tdabC).

Host (072), Curse (146) and Alter (171) replace their unit's Attack: on their roll the unit
stacks under an enemy unit in Direct Grid Space contact that the player picked. One kernel
serves the three modes: ``stack_under(S, tb, b, row, src, v)``, called by
``effects._apply_effect`` (its one caller). R125-R127 in docs/rules/tactics_david.md:

- The unit src leaves its space and becomes the lowest member(s) of the stack v (all of
  src's members, below v's; the stack never passes MAX_MEMBERS: then nothing happens). No
  Stacking bonus: the stack's Strength Ratings and Purchase Cost stay what they were
  (TD-17.3's sums are the bonus). src's Items go to the bottom of the Item Deck, its lasting
  effects end and it is out of the game (PLACE_REMOVED; its army keeps its cost, I39). Items
  of the stack its new class may not use go to the bottom of the Item Deck too (TD-19.3).
- `take_control` (Host): the stack comes under src's Player's control: it takes a new slot of
  that army (none free, or v is a Unit Team member: nothing happens, as R95), costs nothing
  (not bought, I39), keeps v's Statuses, Items and facing, may not be Engaged this Turn (R90)
  and has its Base Strength Ratings halved (rounding down, R19); v leaves the game.
- `disable_abilities` (Curse): the stack stays its owner's and none of its members'
  abilities act from now on (``unit_ab_off`` bit AB_OFF_CURSE, read by effects.ability_on).
- `change_unit_type` (Alter): the stack stays its owner's; this Player then chooses its new
  Unit Type (STAGE_EFFECT with eff_next RESUME_ALTER, turn.apply_effect_choice).

Hired Hit (031, RA5): at the start of its player's first Turn (before any Engagement) the
player declares a Root for each of its units with the ability, one by one (STAGE_DECLARE,
A_UNIT + r; ``declaring``, ``legal_declare``, ``apply_declare``); the `opposing_declared_root`
condition (effects.conditions_hold) reads ``unit_root_decl``.

Summon (009, R129): the player picks the unit (STAGE_EFFECT, RESUME_ABILITY), then its space
(RESUME_SUMMON, ``summon_cells``); effects._apply_effect moves it there (`reposition`).

Nature Shape (201, R132): on Engagement the player may have the member with the ability act
as one of its rows' units (STAGE_EFFECT, RESUME_SHAPE; ``shape_member``, ``legal_shape``,
``set_shape``) until the unit's next Engagement, which undoes it first (``set_shape(..., -1)``).

Ghoul Blight's `disable_ability` (AB_OFF_BLIGHT, cleared at the unit's next Engagement,
turn.apply_engage) shares the ``unit_ab_off`` field.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import A_END, A_PIECE, A_UNIT, STAGE_ENGAGE
from envs.tactics_david.grid import line_of_sight, may_stop, range_distance
from envs.tactics_david.items import may_equip, set_unit_type
from envs.tactics_david.record import H_ENGAGE, H_MOD
from envs.tactics_david.setup import add_unit
from envs.tactics_david.state import (
    AB_OFF_CURSE,
    MAX_MEMBERS,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_STATUSES,
    PLACE_FIELD,
    PLACE_RESERVE,
    RESUME_ALTER,
)
from envs.tactics_david.units import (
    deck_to_bottom,
    drop_unusable_items,
    put,
    remove_from_game,
    side_of,
    unlock,
)

MODE_TAKE_CONTROL = ut.EFFECT_MODES["stack_under"].index("take_control")
MODE_DISABLE = ut.EFFECT_MODES["stack_under"].index("disable_abilities")
MODE_CHANGE_TYPE = ut.EFFECT_MODES["stack_under"].index("change_unit_type")
C_DECLARED_ROOT = ut.CONDITIONS.index("opposing_declared_root")
K_REPLACE = ut.EFFECT_KINDS.index("replace_unit")
REPLACE_TEMPORARY = ut.EFFECT_MODES["replace_unit"].index("temporary")


@njit
def stack_under(S, tb, b: int, row: int, src: int, v: int) -> int:
    """Unit src stacks under unit v (module docstring); returns the id of the stack now on
    v's space (v, or its new id under src's Player's control)."""
    if v == src or S["unit_place"][b, v] != PLACE_FIELD or S["unit_place"][b, src] != PLACE_FIELD:
        return v
    n = np.int64(S["unit_n_members"][b, v])
    k = np.int64(S["unit_n_members"][b, src])
    if n + k > MAX_MEMBERS:
        return v  # a stack holds at most 3 units (TD-17.1, R125)
    p = side_of(S, b, src)  # this Player: its controller (tdabI, R137)
    mode = np.int64(tb.r_mode[row])
    if mode == MODE_TAKE_CONTROL and (
        S["army_size"][b, p] >= MAX_UNITS or S["unit_team"][b, v] >= 0
    ):
        return v  # no slot for it, or a Team member (R95): nothing happens
    for m in range(k):
        S["unit_member"][b, v, n + m] = S["unit_member"][b, src, m]
    S["unit_n_members"][b, v] = n + k
    for slot in range(N_ITEM_SLOTS):
        it = np.int64(S["unit_item"][b, src, slot])
        if it >= 0:
            S["unit_item"][b, src, slot] = -1
            deck_to_bottom(S, b, it)
    drop_unusable_items(S, tb, b, v)  # its new class (TD-17.5)
    for j in range(S["fx_row"].shape[1]):
        if S["fx_unit"][b, j] == src:
            S["fx_row"][b, j] = -1
            S["fx_unit"][b, j] = -1
    remove_from_game(S, b, src)
    if mode == MODE_DISABLE:
        S["unit_ab_off"][b, v] |= AB_OFF_CURSE
        return v
    if mode == MODE_CHANGE_TYPE:  # asked once the ability's rows have run (R126)
        S["eff_unit"][b] = v
        S["eff_next"][b] = RESUME_ALTER
        return v
    # take_control: the stack joins src's army under a new id
    cell = np.int64(S["unit_cell"][b, v])
    unlock(S, b, v)
    w = add_unit(S, tb, b, p, np.int64(S["unit_member"][b, v, 0]))
    S["army_cost"][b, p] -= S["unit_cost"][b, w]  # not bought (I39)
    S["unit_cost"][b, w] = 0
    for m in range(MAX_MEMBERS):
        S["unit_member"][b, w, m] = S["unit_member"][b, v, m]
    S["unit_n_members"][b, w] = S["unit_n_members"][b, v]
    for s in range(4):  # halved, rounding down (R19)
        S["unit_strength"][b, w, s] = max(
            np.int64(S["unit_strength"][b, v, s]) // 2, np.int64(tb.strength_min)
        )
    S["unit_type"][b, w] = S["unit_type"][b, v]
    S["unit_attack_type"][b, w] = S["unit_attack_type"][b, v]
    for s in range(N_STATUSES):
        S["unit_status"][b, w, s] = S["unit_status"][b, v, s]
    for slot in range(N_ITEM_SLOTS):
        S["unit_item"][b, w, slot] = S["unit_item"][b, v, slot]
        S["unit_item"][b, v, slot] = -1
    S["unit_kills"][b, w] = S["unit_kills"][b, v]
    S["unit_no_reacquire"][b, w] = S["unit_no_reacquire"][b, v]
    S["unit_ab_off"][b, w] = S["unit_ab_off"][b, v]
    S["unit_root_decl"][b, w] = S["unit_root_decl"][b, v]
    S["unit_shape"][b, w] = S["unit_shape"][b, v]
    for j in range(S["fx_row"].shape[1]):
        if S["fx_unit"][b, j] == v:
            S["fx_row"][b, j] = -1
            S["fx_unit"][b, j] = -1
    facing = S["unit_facing"][b, v]
    remove_from_game(S, b, v)
    put(S, b, w, cell)
    S["unit_facing"][b, w] = facing
    S["unit_engaged"][b, w] = 1  # not Engaged the Turn it comes (R90)
    return w


@njit
def declaring(S, tb, b: int) -> int:
    """The unit whose Hired Hit Root the current player declares now (RA5), -1 none: at the
    start of that player's first Turn (no unit Engaged yet), the first of its units bought
    (on the battlefield or in reserve) with an implemented ability that has an
    `opposing_declared_root` row and no Root declared yet."""
    p = np.int64(S["current"][b])
    first = np.int64(S["turn"][b]) == (1 if S["first_player"][b] == p else 2)
    if not first:
        return -1
    for u in range(p * MAX_UNITS, (p + 1) * MAX_UNITS):
        if S["unit_engaged"][b, u]:
            return -1
    for u in range(p * MAX_UNITS, (p + 1) * MAX_UNITS):
        place = S["unit_place"][b, u]
        if S["unit_root_decl"][b, u] >= 0 or (place != PLACE_FIELD and place != PLACE_RESERVE):
            continue
        for m in range(S["unit_n_members"][b, u]):
            prof = np.int64(S["unit_member"][b, u, m])
            if prof < 0 or not tb.ab_active[prof]:
                continue
            start = np.int64(tb.hk_start[H_MOD, prof])
            for i in range(start, start + tb.hk_count[H_MOD, prof]):
                row = np.int64(tb.hk_rows[i])
                for k in range(tb.r_cond.shape[1]):
                    if tb.r_cond[row, k] == C_DECLARED_ROOT:
                        return u
    return -1


@njit
def legal_declare(S, tb, b: int, out) -> int:
    """STAGE_DECLARE: every Root family (A_UNIT + r, r a family with a Root Unit)."""
    n = 0
    for r in range(tb.fam_root.shape[0]):
        if tb.fam_root[r] >= 0 and r < MAX_UNITS:
            out[n] = A_UNIT + r
            n += 1
    return n


@njit
def apply_declare(S, tb, b: int, a: int) -> None:
    """The declared Root is the unit's for the rest of the game (RA5); the next Hired Hit
    unit is asked, else the Turn goes on (STAGE_ENGAGE)."""
    u = declaring(S, tb, b)
    if u >= 0:
        S["unit_root_decl"][b, u] = a - A_UNIT
    if declaring(S, tb, b) < 0:
        S["stage"][b] = STAGE_ENGAGE


@njit
def summon_cells(S, tb, b: int, u: int, v: int, rr: int, out) -> int:
    """The spaces Summon (unit u, Range Rating rr) may move unit v to, into out[:n] (R129):
    empty spaces of u's Range Area in its Line of Sight (TD-15.1, TD-15.7) that v's Movement
    Type may stand on, with no enemy of v in play in Direct or Diagonal Grid Space contact."""
    bf = np.int64(S["battlefield"][b])
    rows = np.int64(tb.bf_rows[bf])
    cols = np.int64(tb.bf_cols[bf])
    a = np.int64(S["unit_cell"][b, u])
    facing = np.int64(S["unit_facing"][b, u])
    mtype = np.int64(tb.u_mtype[S["unit_member"][b, v, 0]])
    p = side_of(S, b, v)
    n = 0
    for c in range(rows * cols):
        if S["cell_unit"][b, c, 0] >= 0 or not may_stop(tb, bf, mtype, c):
            continue
        if range_distance(tb, bf, a, facing, c, rr) < 0 or not line_of_sight(
            tb, bf, S["flood"][b], a, facing, c
        ):
            continue
        near = False
        r0 = c // cols
        c0 = c % cols
        for r in range(max(r0 - 1, 0), min(r0 + 2, rows)):
            for k in range(max(c0 - 1, 0), min(c0 + 2, cols)):
                for slot in range(2):
                    w = np.int64(S["cell_unit"][b, r * cols + k, slot])
                    if (
                        w >= 0
                        and side_of(S, b, w) != p
                        and S["unit_status"][b, w, tb.status_dead] == 0
                    ):
                        near = True
        if not near:
            out[n] = c
            n += 1
    return n


@njit
def shape_member(S, tb, b: int, u: int) -> int:
    """The member slot of unit u whose acting ability lets it act as another unit on
    Engagement (Nature Shape's `replace_unit` `temporary` rows, H_ENGAGE), -1 none."""
    if S["unit_ab_off"][b, u] != 0:
        return -1
    for m in range(S["unit_n_members"][b, u]):
        prof = np.int64(S["unit_member"][b, u, m])
        if prof < 0 or not tb.ab_active[prof]:
            continue
        start = np.int64(tb.hk_start[H_ENGAGE, prof])
        for i in range(start, start + tb.hk_count[H_ENGAGE, prof]):
            row = np.int64(tb.hk_rows[i])
            if tb.r_kind[row] == K_REPLACE and tb.r_mode[row] == REPLACE_TEMPORARY:
                return m
    return -1


@njit
def legal_shape(S, tb, b: int, out) -> int:
    """RESUME_SHAPE: each unit its rows name (A_PIECE + i), or A_END (it stays itself)."""
    u = np.int64(S["eff_unit"][b])
    n = 0
    m = shape_member(S, tb, b, u)
    if m >= 0:
        prof = np.int64(S["unit_member"][b, u, m])
        start = np.int64(tb.hk_start[H_ENGAGE, prof])
        for i in range(start, start + tb.hk_count[H_ENGAGE, prof]):
            row = np.int64(tb.hk_rows[i])
            if (
                tb.r_kind[row] == K_REPLACE
                and tb.r_mode[row] == REPLACE_TEMPORARY
                and tb.r_unit[row] >= 0
            ):
                out[n] = A_PIECE + tb.r_unit[row]
                n += 1
    out[n] = A_END
    return n + 1


@njit
def set_shape(S, tb, b: int, u: int, m: int, prof: int) -> None:
    """Member slot m of unit u acts as units.yaml row `prof` (prof -1: the shape taken before
    is undone, m unused). Its Strength Ratings change by the difference of the two profiles
    (Base Strength, side by side; not below the minimum), the top member's Unit Type is taken
    (Statuses it cannot carry are discarded, R35), Items its class may not use go to the
    bottom of the Item Deck (TD-19.3); profile, movement, areas and ability are the member's
    (R132)."""
    if prof < 0:
        code = np.int64(S["unit_shape"][b, u])
        S["unit_shape"][b, u] = -1
        if code < 0:
            return
        m = code % MAX_MEMBERS
        prof = code // MAX_MEMBERS
        if m >= S["unit_n_members"][b, u]:
            return  # that member is gone (Swarm)
    else:
        S["unit_shape"][b, u] = np.int64(S["unit_member"][b, u, m]) * MAX_MEMBERS + m
    old = np.int64(S["unit_member"][b, u, m])
    for s in range(4):
        S["unit_strength"][b, u, s] = max(
            np.int64(S["unit_strength"][b, u, s]) + tb.u_strength[prof, s] - tb.u_strength[old, s],
            np.int64(tb.strength_min),
        )
    S["unit_member"][b, u, m] = prof
    if m == 0:
        set_unit_type(S, tb, b, u, np.int64(tb.u_type[prof]))
    for slot in range(N_ITEM_SLOTS):
        it = np.int64(S["unit_item"][b, u, slot])
        if it >= 0 and not may_equip(S, tb, b, u, it):
            S["unit_item"][b, u, slot] = -1
            deck_to_bottom(S, b, it)
