"""Before the first Turn: armies, the Item Deck, who goes first, deployment (TD-1.2-1.3, TD-5,
TD-6, TD-12.3).

Encodings of this chapter (actions.py):

    stage              action        meaning
    STAGE_FIRST        A_SEAT + p    the roll-off winner (I7) lets seat p take the first Turn
    STAGE_DEPLOY_UNIT  A_UNIT + k    the deploying player's reserve unit k is placed next
    STAGE_DEPLOY_CELL  A_CELL + c    ... on free space c of the player's Deployment area
    STAGE_BUY          A_PIECE + i   (army_building=players) the next piece's top unit, row i
                       A_END         the pieces are done: the army's Items follow
    STAGE_BUY_STACK    A_PIECE + i   the piece's next lower member (a Stacked Unit, TD-17)
                       A_END         buy the piece as it is
    STAGE_BUY_ITEM     A_PIECE + i   the Item bought next, items.yaml row i (TD-6.1.1, R141)
                       A_END         the army is done (seat 0, then seat 1, then the roll-off)
    STAGE_BUY_ITEM_UNIT A_UNIT + k   ... equipped to the army's unit k

Armies: each army is a random legal army under the purchase limit and the army type of the
`army` option (free, or a Strict type: army.py, TD-6): pieces are bought one at a time, each
uniformly among the pieces the army may still take, until none fits (or MAX_UNITS are bought;
I12). With the `stacks` option one purchase in army.STACK_SHARE is drawn among the legal
Stacked Units (TD-17, I25). With the `items` option (default `random`) Items are bought too
(TD-6.1.1, I40): one purchase in army.ITEM_SHARE is an Item, uniformly among those whose
Purchase Cost fits and that a unit already bought may equip (its Users, a free slot of its
Type), equipped to one of those units drawn uniformly; a purchase whose kind does not fit
takes the other kind, and the army is done when neither fits. With the option
`army_building=players` the players build their armies instead, piece by piece, as decisions
(STAGE_BUY, R71): only pieces the army type still allows are offered; then Items, each equipped
to a unit of the army (STAGE_BUY_ITEM, R141). A bought Item is a copy from outside the Item
Deck (I10): army_bought counts it, and its Purchase Cost counts in army_cost (not in its
unit's unit_cost).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint, roll_d6, seed_stream, shuffle_prefix
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_PIECE,
    A_SEAT,
    A_UNIT,
    STAGE_BUY,
    STAGE_BUY_ITEM,
    STAGE_BUY_ITEM_UNIT,
    STAGE_BUY_STACK,
    STAGE_DEPLOY_CELL,
    STAGE_DEPLOY_UNIT,
    STAGE_FIRST,
)
from envs.tactics_david.army import ARMY_FAMILY, ARMY_FREE, ARMY_THEMED, ITEM_SHARE, STACK_SHARE
from envs.tactics_david.grid import may_stop
from envs.tactics_david.items import equip, may_equip
from envs.tactics_david.state import (
    MAX_MEMBERS,
    MAX_PROFILE_SLOTS,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_PLAYERS,
    N_STATUSES,
    N_UNIT_IDS,
    N_USE_COUNTERS,
    PLACE_NONE,
    PLACE_RESERVE,
)
from envs.tactics_david.units import begin_turn, put, unit_class
from envs.tactics_david.work_belt import free_slot

STREAM_RULES = 0
STREAM_AGENT = 1


@njit
def add_unit(S, tb, b: int, p: int, profile: int) -> int:
    """Seat p buys one unit of units.yaml row `profile` into its next army slot; its id."""
    k = np.int64(S["army_size"][b, p])
    u = p * MAX_UNITS + k
    S["army_size"][b, p] = k + 1
    S["unit_member"][b, u, 0] = profile
    S["unit_n_members"][b, u] = 1
    S["unit_place"][b, u] = PLACE_RESERVE
    for s in range(4):
        S["unit_strength"][b, u, s] = tb.u_strength[profile, s]
    S["unit_cost"][b, u] = tb.u_cost[profile]
    S["unit_type"][b, u] = tb.u_type[profile]
    S["unit_attack_type"][b, u] = tb.u_type[profile]  # TD-3.3: Attack Type = Unit Type
    S["army_cost"][b, p] += tb.u_cost[profile]
    return u


@njit
def add_stack(S, tb, b: int, p: int, o: int) -> int:
    """Seat p buys piece o of the tables record (a unit or a Stacked Unit, army.py) into its
    next army slot; its id. A stack's Strength Ratings add side by side, its cost is the sum
    plus 6 or 12 (TD-17.3), its types come from the top member (TD-17.4, R25)."""
    u = add_unit(S, tb, b, p, np.int64(tb.of_member[o, 0]))
    S["army_bought"][b, p, tb.of_member[o, 0]] += 1
    n = np.int64(tb.of_n[o])
    for m in range(1, n):
        prof = np.int64(tb.of_member[o, m])
        S["unit_member"][b, u, m] = prof
        for s in range(4):
            S["unit_strength"][b, u, s] += tb.u_strength[prof, s]
        S["army_bought"][b, p, prof] += 1
    S["unit_n_members"][b, u] = n
    S["army_cost"][b, p] += tb.of_cost[o] - S["unit_cost"][b, u]
    S["unit_cost"][b, u] = tb.of_cost[o]
    return u


@njit
def _in_piece(tb, o: int, prof: int) -> bool:
    for m in range(tb.of_n[o]):
        if tb.of_member[o, m] == prof:
            return True
    return False


@njit
def _may_buy(S, tb, b: int, p: int, o: int, left: int, fam: int, light: int, med: int, heavy: int):
    """Whether seat p may buy piece o now (army.py's rules, checked as the army grows: each
    purchase keeps the army legal, so the finished army is, TD-6.1-6.8)."""
    if tb.of_cost[o] > left:
        return False
    mode = np.int64(tb.opt_army)
    if mode == ARMY_FREE:
        return True
    cls = tb.of_class[o]
    if cls == 1 and light < tb.strict_lights * (med + 1):  # TD-6.4
        return False
    if cls == 2 and med < tb.strict_mediums * (heavy + 1):
        return False
    for m in range(tb.of_n[o]):
        prof = np.int64(tb.of_member[o, m])
        same = 0
        for k in range(tb.of_n[o]):
            if tb.of_member[o, k] == prof:
                same += 1
        if S["army_bought"][b, p, prof] + same > tb.strict_max_copies:  # TD-6.5
            return False
        f = np.int64(tb.u_family[prof])
        root = np.int64(tb.fam_root[f])
        if S["army_bought"][b, p, root] == 0 and not _in_piece(tb, o, root):  # TD-6.3
            return False
        if mode == ARMY_FAMILY and fam >= 0 and f != fam:  # TD-6.8
            return False
        par = np.int64(tb.u_parent[prof])
        if mode == ARMY_THEMED and par >= 0:  # TD-6.7
            if S["army_bought"][b, p, par] == 0 and not _in_piece(tb, o, par):
                return False
    return True


@njit
def class_counts(S, tb, b: int, p: int):
    """Seat p's units by class (Light, Medium or Medium Stacked, Heavy or Heavy Stacked; R4),
    the counts the Strict rules read (TD-6.4)."""
    light = 0
    med = 0
    heavy = 0
    for k in range(S["army_size"][b, p]):
        cls = unit_class(S, tb, b, p * MAX_UNITS + k)
        if cls == 0:
            light += 1
        elif cls == 1:
            med += 1
        else:
            heavy += 1
    return light, med, heavy


@njit
def item_fits(S, tb, b: int, u: int, i: int) -> bool:
    """Whether Item i may be bought for unit u of its army: u is one of its Users (TD-19.3,
    items.may_equip) with a free slot of the Item's Type (TD-19.1, TD-17.5: one of each Type;
    a second with Work Belt, work_belt.free_slot, R109). The unit is in reserve: bought, not
    brought into play by an ability (I39)."""
    if S["unit_place"][b, u] != PLACE_RESERVE or not may_equip(S, tb, b, u, i):
        return False
    return free_slot(S, tb, b, u, np.int64(tb.it_type[i])) >= 0


@njit
def _item_units(S, tb, b: int, p: int, i: int) -> int:
    """How many of seat p's units Item i may be bought for (item_fits)."""
    n = 0
    for k in range(S["army_size"][b, p]):
        if item_fits(S, tb, b, p * MAX_UNITS + k, i):
            n += 1
    return n


@njit
def item_buyable(S, tb, b: int, p: int, i: int) -> bool:
    """Whether seat p may buy Item i now: its Purchase Cost fits what the purchase limit leaves
    (TD-6.1, TD-6.1.1) and a unit of the army may be equipped with it (item_fits)."""
    left = np.int64(S["purchase_limit"][b]) - S["army_cost"][b, p]
    return tb.it_cost[i] <= left and _item_units(S, tb, b, p, i) > 0


@njit
def buy_item(S, tb, b: int, p: int, u: int, i: int) -> None:
    """Seat p buys a copy of Item i (from outside the Item Deck, I10, R141) equipped to its
    unit u, at the Item's Purchase Cost (TD-6.1.1); army_bought counts it."""
    equip(S, tb, b, u, i)
    S["army_cost"][b, p] += tb.it_cost[i]
    S["army_bought"][b, p, tb.n_profiles + i] += 1


@njit
def _random_item(S, tb, b: int, p: int) -> bool:
    """Seat p buys an Item at random (I40): uniformly among the Items it may buy
    (item_buyable), then uniformly among the units it may be bought for; False if none."""
    count = 0
    for i in range(tb.n_items):
        if item_buyable(S, tb, b, p, i):
            count += 1
    if count == 0:
        return False
    pick = randint(S["rng"], b, count)
    for i in range(tb.n_items):
        if not item_buyable(S, tb, b, p, i):
            continue
        if pick > 0:
            pick -= 1
            continue
        k = randint(S["rng"], b, _item_units(S, tb, b, p, i))
        for u in range(p * MAX_UNITS, p * MAX_UNITS + S["army_size"][b, p]):
            if item_fits(S, tb, b, u, i):
                if k == 0:
                    buy_item(S, tb, b, p, u, i)
                    return True
                k -= 1
    return False


@njit
def _random_piece(S, tb, b: int, p: int, n_all: int, fam: int) -> bool:
    """Seat p buys a piece at random (I12): a Stacked Unit one purchase in STACK_SHARE when
    stacks are drawn and one fits (I25), else a unit, uniformly among those _may_buy allows;
    False if none fits."""
    n_single = np.int64(tb.n_profiles)
    left = np.int64(S["purchase_limit"][b]) - S["army_cost"][b, p]
    light, med, heavy = class_counts(S, tb, b, p)
    lo = np.int64(0)
    hi = n_single
    if n_all > n_single and randint(S["rng"], b, STACK_SHARE) == 0:
        lo = n_single
        hi = n_all
    count = 0
    for o in range(lo, hi):
        if _may_buy(S, tb, b, p, o, left, fam, light, med, heavy):
            count += 1
    if count == 0 and hi > n_single:  # no stack fits: a single unit then
        lo = np.int64(0)
        hi = n_single
        for o in range(lo, hi):
            if _may_buy(S, tb, b, p, o, left, fam, light, med, heavy):
                count += 1
    if count == 0:
        return False
    pick = randint(S["rng"], b, count)
    for o in range(lo, hi):
        if _may_buy(S, tb, b, p, o, left, fam, light, med, heavy):
            if pick == 0:
                add_stack(S, tb, b, p, o)
                return True
            pick -= 1
    return False


@njit
def random_army(S, tb, b: int, p: int) -> None:
    """A random legal army for seat p under the purchase limit and the army type (module
    docstring; TD-6, TD-17, I12, I25), with Items when the `items` option draws them (I40):
    one purchase in ITEM_SHARE is an Item, if one fits, else a piece; the other purchases a
    piece, if one fits, else an Item; the army is done when neither fits."""
    for i in range(S["army_bought"].shape[2]):
        S["army_bought"][b, p, i] = 0
    n_all = np.int64(tb.n_offers) if tb.opt_stacks != 0 else np.int64(tb.n_profiles)
    fam = np.int64(-1)
    if tb.opt_army == ARMY_FAMILY:
        fam = randint(S["rng"], b, np.int64(tb.n_families))
    items = tb.opt_items != 0
    while True:
        item_first = items and randint(S["rng"], b, ITEM_SHARE) == 0
        if item_first and _random_item(S, tb, b, p):
            continue
        if S["army_size"][b, p] < MAX_UNITS and _random_piece(S, tb, b, p, n_all, fam):
            continue
        if items and not item_first and _random_item(S, tb, b, p):
            continue
        return


@njit
def reset_game(S, tb, b: int, seed: int, game_index: int) -> None:
    """A new game in slot b from (seed, game_index): battlefield, purchase limit, random
    armies, the shuffled Item Deck (I10) and the first-player roll-off (I7), which asks its
    winner STAGE_FIRST."""
    seed_stream(S["rng"], b, seed, game_index, STREAM_RULES)
    seed_stream(S["agent_rng"], b, seed, game_index, STREAM_AGENT)
    S["game_index"][b] = game_index
    S["num_players"][b] = N_PLAYERS
    S["decisions"][b] = 0
    S["winner"][b] = -1
    S["turn"][b] = 0
    S["first_player"][b] = -1
    S["engaged"][b] = -1
    S["eng_procedure"][b] = 0
    S["eng_faced"][b] = 0
    S["charge_max"][b] = 0
    S["pending_target"][b] = -1
    S["deploy_unit"][b] = -1
    S["eff_unit"][b] = -1
    for p in range(N_PLAYERS):
        S["rewards"][b, p] = 0.0
        S["army_cost"][b, p] = 0
        S["army_size"][b, p] = 0
        S["kills_turn"][b, p] = 0
    for u in range(N_UNIT_IDS):
        for m in range(MAX_MEMBERS):
            S["unit_member"][b, u, m] = -1
        S["unit_n_members"][b, u] = 0
        S["unit_place"][b, u] = PLACE_NONE
        S["unit_cell"][b, u] = -1
        S["unit_facing"][b, u] = 0
        S["unit_cost"][b, u] = 0
        for s in range(4):
            S["unit_strength"][b, u, s] = 0
        for s in range(N_STATUSES):
            S["unit_status"][b, u, s] = 0
        for s in range(N_ITEM_SLOTS):
            S["unit_item"][b, u, s] = -1
        for s in range(N_USE_COUNTERS):
            S["unit_uses"][b, u, s] = 0
        S["unit_lock"][b, u] = -1
        S["unit_lock_turn"][b, u] = 0
        S["unit_team"][b, u] = -1
        S["unit_engaged"][b, u] = 0
        S["unit_moved"][b, u] = 0
        S["unit_fought"][b, u] = 0
        S["unit_no_combat"][b, u] = 0
        S["unit_kills"][b, u] = 0
        S["unit_move_bonus"][b, u] = 0
        S["unit_no_reacquire"][b, u] = 0
        S["unit_team_side"][b, u] = -1  # Unit Teams (teams.py)
        S["unit_no_move"][b, u] = 0
        S["unit_team_hit"][b, u] = 0
    S["eng_solo"][b] = 0
    S["team_action"][b] = -1
    S["eng_force"][b] = 0
    S["eng_item_phase"][b] = 0
    S["item_target"][b] = -1
    S["item_left"][b] = 0
    S["trade_partner"][b] = -1
    S["whip_unit"][b] = -1
    S["eng_whipped"][b] = 0
    S["eng_moved"][b] = 0
    S["loot_from"][b] = -1
    S["loot_slot"][b] = -1
    S["refl_count"][b] = 0
    # no paused choice, no lasting ability effect, nothing queued (effects.py): every field as
    # state.allocate leaves it, so a reset after a finished game equals a fresh one
    S["eff_unit"][b] = -1
    S["eff_status"][b] = 0
    S["eff_next"][b] = 0
    S["eff_out"][b] = 0
    for k in range(S["fx_row"].shape[1]):
        S["fx_row"][b, k] = -1
        S["fx_unit"][b, k] = -1
        S["fx_amount"][b, k] = 0
        S["fx_until"][b, k] = 0
    S["fx_cause"][b] = -1
    S["fx_att"][b] = -1
    S["fx_def"][b] = -1
    S["fx_res"][b] = 0
    S["fx_st_pick"][b] = 0  # tdbuy: a game that ended in a procedure leaves nothing behind
    S["fx_proc_roll"][b] = 0
    for k in range(S["fx_dead"].shape[1]):
        S["fx_dead"][b, k] = -1
        S["fx_dead_by"][b, k] = -1
    S["fx_n_dead"][b] = 0
    for k in range(S["fx_pick"].shape[1]):
        S["fx_pick"][b, k] = -1
    S["fx_n_pick"][b] = 0
    # tdpause: no procedure paused, no Lucky used, no Giant's Bread pending (pause.py)
    S["pz_at"][b] = 0
    S["pz_seat"][b] = 0
    S["pz_side"][b] = 0
    S["pz_rm"][b] = 0
    S["pz_i"][b] = 0
    S["pz_att"][b] = 0
    S["pz_dfn"][b] = 0
    S["pz_flags"][b] = 0
    S["pz_a"][b] = -1
    S["pz_d"][b] = -1
    S["pz_target"][b] = -1
    S["pz_row"][b] = -1
    S["pz_src"][b] = -1
    S["pz_use_row"][b] = -1
    S["pz_use_src"][b] = -1
    S["pz_use_arg"][b] = -1
    S["pz_bread_stage"][b] = 0
    S["pz_bread_go"][b] = 0
    S["pz_bread_seat"][b] = 0
    S["pz_bread_unit"][b] = -1
    # tdabA: no aura, choice, Downgrade or Spider Pack question pending (auras.py)
    S["au_src"][b] = -1
    S["au_i"][b] = 0
    S["au_m"][b] = 0  # tdbuy (R144)
    S["au_pend_row"][b] = -1
    S["au_pend_unit"][b] = -1
    S["au_pend_n"][b] = 0
    S["au_pend_offer"][b] = 0
    S["au_seat"][b] = -1
    S["au_dg_unit"][b] = -1
    S["au_dg_row"][b] = 0
    S["au_dg_seat"][b] = -1
    S["au_dg_stage"][b] = 0
    S["au_dg_go"][b] = 0
    S["au_pack"][b] = -1
    S["au_pack_asked"][b] = 0
    S["au_pick2"][b] = -1
    S["au_acq"][b] = 0
    S["gd_unit"][b] = -1  # tdabD: no Unwavering roll asked (guard.py)
    S["gd_seat"][b] = -1
    S["gd_stage"][b] = 0
    S["gd_row"][b] = 0
    S["gd_pierce"][b] = -1
    S["gd_q"][b] = 0
    S["gd_go"][b] = 0
    S["gd_die_now"][b] = -1  # tdabJ
    S["aa_unit"][b] = -1  # tdabE: no ability's Attack or Chant pick pending (ability_attacks.py)
    S["aa_cell"][b] = -1
    S["aa_n"][b] = 0
    S["aa_fire"][b] = -1
    S["aa_fired"][b] = 0
    S["aa_sent"][b] = -1
    S["aa_steal"][b] = 0
    S["wb_use"][b] = -1  # tdabG: no Use Item Procedure in progress
    S["wb_acq"][b] = -1  # tdabG: no acquired Item waiting for a slot
    for k in range(S["aa_pick"].shape[1]):
        S["aa_pick"][b, k] = -1
        S["aa_st"][b, k] = -1
    for u in range(N_UNIT_IDS):
        S["pz_lucky_turn"][b, u] = 0
        S["pz_bread"][b, u] = 0
        S["unit_ab_off"][b, u] = 0  # tdabC (control.py)
        S["unit_root_decl"][b, u] = -1
        S["unit_no_attack"][b, u] = -1
        S["unit_shape"][b, u] = -1
        S["unit_ab_copy"][b, u] = -1  # tdabF: no copied ability (Learn, R134)
        S["unit_shed_cell"][b, u] = -1  # tdabF: not Locked with a Shed Marker (R135)
        S["unit_ctrl"][b, u] = -1  # tdabI: under its owner's control (R137)
        S["gd_fear"][b, u] = 0  # tdabD
        S["gd_ignore"][b, u] = 0
        S["gd_disc"][b, u] = 0
        S["gd_die"][b, u] = 0  # tdabJ: no death waits for Guard (R140)
        S["gd_die_by"][b, u] = -1
    for c in range(S["cell_unit"].shape[1]):
        S["cell_unit"][b, c, 0] = -1
        S["cell_unit"][b, c, 1] = -1
        S["trail_unit"][b, c] = -1  # tdabB: no trail marker (trails.py)
        S["flood"][b, c] = 0  # tdabH: no space flooded (floodplains.py)
    S["flood_on"][b] = 0
    for p in range(N_PLAYERS):  # tdabB: no Item card seen by Study (R116)
        S["deck_seen"][b, p, 0] = -1
        S["deck_seen"][b, p, 1] = -1
    bf = np.int64(tb.opt_battlefield)
    if bf < 0:
        bf = randint(S["rng"], b, np.int64(tb.n_battlefields))
    S["battlefield"][b] = bf
    limit = np.int64(tb.opt_purchase_limit)
    S["purchase_limit"][b] = limit if limit > 0 else tb.bf_limit[bf]
    S["buy_n"][b] = 0
    S["buy_item"][b] = -1
    for m in range(MAX_MEMBERS):
        S["buy_member"][b, m] = -1
    for p in range(N_PLAYERS):
        if tb.opt_buy == 0:
            random_army(S, tb, b, p)
        else:
            for i in range(S["army_bought"].shape[2]):
                S["army_bought"][b, p, i] = 0
    # the Item Deck: one card of each item, shuffled (I10)
    for i in range(S["deck"].shape[1]):
        S["deck"][b, i] = -1
    for i in range(tb.n_items):
        S["deck"][b, i] = i
    S["deck_count"][b] = tb.n_items
    shuffle_prefix(S["rng"], b, S["deck"][b], np.int64(tb.n_items))
    if tb.opt_buy != 0:  # the players build their armies first, seat 0 then seat 1 (R71)
        S["current"][b] = 0
        S["stage"][b] = STAGE_BUY
        return
    roll_off(S, b)


@njit
def roll_off(S, b: int) -> None:
    """Who goes first: a D6 each, ties reroll, the higher roll chooses (I7): STAGE_FIRST."""
    while True:
        r0 = roll_d6(S["rng"], b)
        r1 = roll_d6(S["rng"], b)
        if r0 != r1:
            break
    S["roll_winner"][b] = 0 if r0 > r1 else 1
    S["current"][b] = S["roll_winner"][b]
    S["stage"][b] = STAGE_FIRST


@njit
def _legal_buy(S, tb, b: int, p: int, out) -> int:
    """STAGE_BUY: the top units of the pieces seat p may still buy (setup._may_buy) and A_END
    once it holds a unit (or can buy none); STAGE_BUY_STACK: the next lower members of the
    stacks that begin with the piece so far, and A_END when that piece may be bought as it
    is (TD-6, TD-17; lower members come in units.yaml order, R71)."""
    light, med, heavy = class_counts(S, tb, b, p)
    left = np.int64(S["purchase_limit"][b]) - S["army_cost"][b, p]
    fam = np.int64(-1)
    if S["army_size"][b, p] > 0:  # Family: the family of the army's first unit
        fam = np.int64(tb.u_family[S["unit_member"][b, p * MAX_UNITS, 0]])
    seen = np.zeros(MAX_PROFILE_SLOTS, dtype=np.uint8)
    k = np.int64(S["buy_n"][b])
    end_ok = S["stage"][b] == STAGE_BUY and (S["army_size"][b, p] > 0)
    if k == 0 and S["army_size"][b, p] >= MAX_UNITS:
        out[0] = A_END
        return 1
    for o in range(tb.n_offers):
        if tb.of_n[o] < k:
            continue
        same = True
        for m in range(k):
            if tb.of_member[o, m] != S["buy_member"][b, m]:
                same = False
                break
        if not same:
            continue
        nxt = -1 if tb.of_n[o] == k else np.int64(tb.of_member[o, k])
        if (nxt < 0 and end_ok) or (nxt >= 0 and seen[nxt] != 0):
            continue
        if _may_buy(S, tb, b, p, o, left, fam, light, med, heavy):
            if nxt < 0:
                end_ok = True
            else:
                seen[nxt] = 1
    n = 0
    for i in range(tb.n_profiles):
        if seen[i] != 0:
            out[n] = A_PIECE + i
            n += 1
    if end_ok or n == 0:
        out[n] = A_END
        n += 1
    return n


@njit
def _apply_buy(S, tb, b: int, p: int, a: int) -> None:
    """A decision of STAGE_BUY / STAGE_BUY_STACK (_legal_buy): a piece's top unit, its next
    lower member, the piece bought (A_END in STAGE_BUY_STACK, or its third member) or the
    pieces done (A_END in STAGE_BUY: the army's Items follow, STAGE_BUY_ITEM, R141)."""
    k = np.int64(S["buy_n"][b])
    if S["stage"][b] == STAGE_BUY and a == A_END:  # the pieces are done: Items next (R141)
        S["stage"][b] = STAGE_BUY_ITEM
        return
    if a != A_END:
        S["buy_member"][b, k] = a - A_PIECE
        k += 1
        S["buy_n"][b] = k
        S["stage"][b] = STAGE_BUY_STACK
        if k < MAX_MEMBERS:
            return
    for o in range(tb.n_offers):  # the piece bought: its row of the offers
        if tb.of_n[o] != k:
            continue
        same = True
        for m in range(k):
            if tb.of_member[o, m] != S["buy_member"][b, m]:
                same = False
        if same:
            add_stack(S, tb, b, p, o)
            break
    for m in range(MAX_MEMBERS):
        S["buy_member"][b, m] = -1
    S["buy_n"][b] = 0
    S["stage"][b] = STAGE_BUY


@njit
def _legal_buy_item(S, tb, b: int, p: int, out) -> int:
    """STAGE_BUY_ITEM: the Items seat p may buy (item_buyable) and A_END (the army is done);
    STAGE_BUY_ITEM_UNIT: its units the Item being bought may be equipped to (item_fits;
    TD-6.1.1, R141)."""
    n = 0
    if S["stage"][b] == STAGE_BUY_ITEM:
        for i in range(tb.n_items):
            if item_buyable(S, tb, b, p, i):
                out[n] = A_PIECE + i
                n += 1
        out[n] = A_END
        return n + 1
    i = np.int64(S["buy_item"][b])
    for k in range(S["army_size"][b, p]):
        if item_fits(S, tb, b, p * MAX_UNITS + k, i):
            out[n] = A_UNIT + k
            n += 1
    return n


@njit
def _apply_buy_item(S, tb, b: int, p: int, a: int) -> None:
    """A decision of STAGE_BUY_ITEM / STAGE_BUY_ITEM_UNIT (_legal_buy_item): the Item to buy,
    the unit it is equipped to (bought then), or the army done (A_END: seat 1 builds next,
    then the roll-off)."""
    if S["stage"][b] == STAGE_BUY_ITEM_UNIT:
        buy_item(S, tb, b, p, p * MAX_UNITS + (a - A_UNIT), np.int64(S["buy_item"][b]))
        S["buy_item"][b] = -1
        S["stage"][b] = STAGE_BUY_ITEM
    elif a != A_END:
        S["buy_item"][b] = a - A_PIECE
        S["stage"][b] = STAGE_BUY_ITEM_UNIT
    elif p == 0:
        S["current"][b] = 1
        S["stage"][b] = STAGE_BUY
    else:
        roll_off(S, b)


@njit
def _free_deploy_cell(S, tb, b: int, p: int, u: int, out, n: int) -> int:
    """Append to out the spaces of p's Deployment area where unit u may stand (TD-5.1-5.2)."""
    bf = np.int64(S["battlefield"][b])
    cells = np.int64(tb.bf_rows[bf]) * tb.bf_cols[bf]
    mtype = np.int64(tb.u_mtype[S["unit_member"][b, u, 0]])
    for c in range(cells):
        if tb.bf_deploy[bf, c] == p and S["cell_unit"][b, c, 0] < 0 and may_stop(tb, bf, mtype, c):
            out[n] = A_CELL + c
            n += 1
    return n


@njit
def legal_setup(S, tb, b: int, out) -> int:
    """Legal actions of STAGE_FIRST, STAGE_DEPLOY_UNIT, STAGE_DEPLOY_CELL and the buying
    stages."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_BUY or stage == STAGE_BUY_STACK:
        return _legal_buy(S, tb, b, p, out)
    if stage == STAGE_BUY_ITEM or stage == STAGE_BUY_ITEM_UNIT:
        return _legal_buy_item(S, tb, b, p, out)
    if stage == STAGE_FIRST:
        out[0] = A_SEAT
        out[1] = A_SEAT + 1
        return 2
    if stage == STAGE_DEPLOY_UNIT:
        n = 0
        for k in range(S["army_size"][b, p]):
            if S["unit_place"][b, p * MAX_UNITS + k] == PLACE_RESERVE:
                out[n] = A_UNIT + k
                n += 1
        return n
    return _free_deploy_cell(S, tb, b, p, np.int64(S["deploy_unit"][b]), out, 0)


@njit
def _has_reserve(S, b: int, p: int) -> bool:
    for k in range(S["army_size"][b, p]):
        if S["unit_place"][b, p * MAX_UNITS + k] == PLACE_RESERVE:
            return True
    return False


@njit
def apply_setup(S, tb, b: int, a: int) -> None:
    """Apply a setup decision; after the last unit is deployed the first Turn begins."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_BUY or stage == STAGE_BUY_STACK:
        _apply_buy(S, tb, b, p, a)
        return
    if stage == STAGE_BUY_ITEM or stage == STAGE_BUY_ITEM_UNIT:
        _apply_buy_item(S, tb, b, p, a)
        return
    if stage == STAGE_FIRST:
        first = a - A_SEAT
        S["first_player"][b] = first
        S["current"][b] = first
        S["stage"][b] = STAGE_DEPLOY_UNIT
        if not _has_reserve(S, b, first):
            S["current"][b] = 1 - first
        return
    if stage == STAGE_DEPLOY_UNIT:
        S["deploy_unit"][b] = p * MAX_UNITS + (a - A_UNIT)
        S["stage"][b] = STAGE_DEPLOY_CELL
        return
    u = np.int64(S["deploy_unit"][b])
    put(S, b, u, a - A_CELL)
    S["unit_facing"][b, u] = tb.bf_deploy_facing[S["battlefield"][b], p]
    S["deploy_unit"][b] = -1
    # players alternate, one unit at a time; a player with none left is skipped (R23)
    if _has_reserve(S, b, 1 - p):
        S["current"][b] = 1 - p
        S["stage"][b] = STAGE_DEPLOY_UNIT
    elif _has_reserve(S, b, p):
        S["stage"][b] = STAGE_DEPLOY_UNIT
    else:
        begin_turn(S, tb, b, np.int64(S["first_player"][b]))
