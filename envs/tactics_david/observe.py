"""What each Tactics David player may see (ARCHITECTURE.md section 6), as one float32 vector.

Seats are relative: "me" is the observer, "opp" the other seat. Hidden from `me` (R54): the
units the opponent still holds in reserve (before deployment): their slots show as "in
reserve", nothing of what they are or of the Items bought for them (R141); the order of the Item Deck (hidden from both; its contents
are public, every Item not on a unit, I10) and the RNG words. Public (TD-2.1): the
battlefield, every unit on it with its Status and Item cards, and the Engagement in progress.

Every value is >= 0 (the env's observation space is Box(0, inf)). Layout (U = MAX_UNITS 20 army slots per seat, C = MAX_CELLS 308 Grid Spaces, cell numbering of
state.py; counts and ratings are scaled to about 0..1):

| part              | size          | content |
|-------------------|---------------|---------|
| global            | GLOBAL_SIZE   | stage one-hot (N_STAGE_SLOTS); I decide; my seat; first player me / opp; roll-off won by me / opp; turn / 100; Turns left of a turn limit; battlefield one-hot (MAX_BATTLEFIELDS); purchase limit; my army's cost; units in reserve me / opp; kills this Turn me / opp; Engagement procedure one-hot (4); faced; charge distance; Item Phase one-hot (3); Statuses the Item may still remove; whipped; forced move one-hot (3); the Status a "may discard" asks about one-hot (N_STATUSES); the loot slot one-hot (3); reflections pending, each one's Strength Rating and side one-hot (MAX_REFLECT); Item Deck size; Items in the deck (MAX_ITEMS, how many cards of each, not the order); the top and second Item Deck cards as I know them by Study (2 x MAX_ITEMS, mine only, R116) |
| per Grid Space (xC) | CELL_SIZE   | on the battlefield; terrain one-hot (MAX_TERRAINS; as it is now: a space Floodplains floods is Water, R124); Terrain Piece height one-hot (none, 0-3); Bridge; Deployment area mine / opp; unit of mine / opp; Team partner of mine / opp; the pending ranged target; a trail marker of my unit / opp's (trails.py, public) |
| per unit (me x U, then opp x U) | UNIT_SIZE | place one-hot (none, reserve, field, removed); then, unless it is an opponent's unit in reserve: the members' units.yaml rows / 256 (3); members; Strength Ratings F/L/R/B; Unit Type and Attack Type one-hot (3 each); class one-hot (3); ranged; Movement Rating; Movement Type one-hot (4); has a Range Rating; Range Rating; Range Modifier (-10..10 as 0..1); Attack Area one-hot (MAX_AREAS); Special one-hot (N_SPECIALS); Purchase Cost; row, column; facing one-hot (4); Statuses held (N_STATUSES) and their durations (N_STATUSES, permanent = 1); Items held (MAX_ITEMS); Locked in Combat, Turns since; in a Team: its side of the space ((FACE + 1) / 4, 0 none); Engaged, moved, fought, barred from combat this Turn; Movement bonus; no re-acquire; kills; use counters (4); the unit whose ability it acquired by Learn, its units.yaml row / 256 (0 none; tdabF, R134); the space of the Shed Marker it is Locked with, (space + 1) / C (0 none; tdabF, R135); Possessed: under the other seat's control this Turn (tdabI, R137; the per-space "unit of mine / opp" follows control); and always: the Engaged unit, Item target, Trade partner, looted, Whip ally, asked to discard, picked to deploy, reflecting |
| the piece being bought | BUY_SIZE | only while I build my army (option army_building=players): its members' units.yaml rows / 256 (3, top first), members / 3; the Item my decision is about, one-hot (MAX_ITEMS): the one I am buying (STAGE_BUY_ITEM_UNIT, R142) or acquiring (the Item Deck's top card in STAGE_ACQUIRE, TD-12.2) |
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.actions import STAGE_ACQUIRE
from envs.tactics_david.grid import terrain
from envs.tactics_david.record import (
    MAX_AREAS,
    MAX_BATTLEFIELDS,
    MAX_ITEMS,
    MAX_TERRAINS,
    N_CLASSES,
    N_MOVEMENT_TYPES,
    N_SPECIALS,
    N_UNIT_TYPES,
)
from envs.tactics_david.state import (
    MAX_CELLS,
    MAX_MEMBERS,
    MAX_REFLECT,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_PLAYERS,
    N_STATUSES,
    N_USE_COUNTERS,
    PLACE_FIELD,
    PLACE_RESERVE,
    STATUS_PERMANENT,
)
from envs.tactics_david.units import side_of, unit_class

N_STAGE_SLOTS = 26  # stage numbers (actions.STAGE_*) are below this
N_PLACES = 4  # state.PLACE_NONE .. PLACE_REMOVED
N_PROCEDURES = 4  # state.PROC_NONE .. PROC_ESCAPED
N_FORCES = 3  # state.FORCE_NONE .. FORCE_ADVANCE
SCALE_TURN = 100.0
SCALE_COST = 40.0  # a unit's Purchase Cost (5-36)
SCALE_LIMIT = 100.0  # purchase limits
SCALE_RATING = 10.0  # Strength, Movement and Range Ratings
SCALE_DURATION = 5.0  # Turns a Status lasts
SCALE_PROFILE = 256.0  # units.yaml rows

GLOBAL_SIZE = N_STAGE_SLOTS + 2 + 2 + 2 + 1 + 1 + MAX_BATTLEFIELDS + 1 + 1 + 2 + 2
GLOBAL_SIZE += N_PROCEDURES + 1 + 1 + 3 + 1 + 1 + N_FORCES + N_STATUSES + N_ITEM_SLOTS
GLOBAL_SIZE += 1 + MAX_REFLECT * 5 + 1 + MAX_ITEMS
GLOBAL_SIZE += 2 * MAX_ITEMS  # tdabB: the Item cards I know on top of the deck (Study, R116)
CELL_SIZE = 1 + MAX_TERRAINS + 5 + 1 + 2 + 2 + 2 + 1
CELL_SIZE += 2  # tdabB: a trail marker of mine / opp (trails.py)
UNIT_PUBLIC = 9  # the reference flags at the end of a unit's block (tdabG: + wb_acq)
UNIT_SIZE = N_PLACES + MAX_MEMBERS + 1 + 4 + 2 * N_UNIT_TYPES + N_CLASSES + 2
UNIT_SIZE += N_MOVEMENT_TYPES + 3 + MAX_AREAS + N_SPECIALS + 1 + 2 + 4 + 2 * N_STATUSES
UNIT_SIZE += MAX_ITEMS + 3 + 4 + 1 + 1 + 1 + N_USE_COUNTERS + UNIT_PUBLIC
UNIT_SIZE += 2  # tdabF: the ability acquired by Learn (R134), the Shed Marker's space (R135)
UNIT_SIZE += 1  # tdabI: Possessed: under the other seat's control this Turn (R137)
# the piece being bought: members' rows / 256, members / 3; tdbuy: the Item being bought or
# acquired
BUY_SIZE = MAX_MEMBERS + 1 + MAX_ITEMS


def observation_size() -> int:
    """Length of the float32 vector observe writes (the module docstring's table)."""
    return GLOBAL_SIZE + MAX_CELLS * CELL_SIZE + N_PLAYERS * MAX_UNITS * UNIT_SIZE + BUY_SIZE


@njit
def _one_hot(out, i, k, n):
    """out[i + k] = 1 when 0 <= k < n (k < 0: none, all zeros)."""
    if 0 <= k < n:
        out[i + k] = 1.0


@njit
def _rel(p, me):
    """0 for the observer's seat, 1 for the other (-1 stays -1: none)."""
    if p < 0:
        return np.int64(-1)
    return np.int64(0 if p == me else 1)


@njit
def _unit(S, tb, b, me, u, cols, out, i):
    """Unit u's block at out[i:] (UNIT_SIZE; module docstring)."""
    place = np.int64(S["unit_place"][b, u])
    _one_hot(out, i, place, N_PLACES)
    j = i + N_PLACES
    top = np.int64(S["unit_member"][b, u, 0])
    hidden = place == PLACE_RESERVE and u // MAX_UNITS != me  # R54: the opponent's reserve
    if top >= 0 and not hidden:
        for m in range(MAX_MEMBERS):
            out[j + m] = (S["unit_member"][b, u, m] + 1) / SCALE_PROFILE
        j += MAX_MEMBERS
        out[j] = S["unit_n_members"][b, u] / MAX_MEMBERS
        j += 1
        for s in range(4):
            out[j + s] = max(S["unit_strength"][b, u, s], 0) / SCALE_RATING
        j += 4
        _one_hot(out, j, np.int64(S["unit_type"][b, u]), N_UNIT_TYPES)
        j += N_UNIT_TYPES
        _one_hot(out, j, np.int64(S["unit_attack_type"][b, u]), N_UNIT_TYPES)
        j += N_UNIT_TYPES
        _one_hot(out, j, unit_class(S, tb, b, u), N_CLASSES)  # a stack's by R4
        j += N_CLASSES
        out[j] = tb.u_mode[top]
        out[j + 1] = tb.u_move[top] / SCALE_RATING
        j += 2
        _one_hot(out, j, np.int64(tb.u_mtype[top]), N_MOVEMENT_TYPES)
        j += N_MOVEMENT_TYPES
        rng = tb.u_range[top]
        out[j] = 1.0 if rng >= 0 else 0.0
        out[j + 1] = max(rng, 0) / SCALE_RATING
        out[j + 2] = (tb.u_rmod[top] + SCALE_RATING) / (2 * SCALE_RATING)  # -10..10 to 0..1
        j += 3
        _one_hot(out, j, np.int64(tb.u_area[top]), MAX_AREAS)
        j += MAX_AREAS
        _one_hot(out, j, np.int64(tb.u_special[top]), N_SPECIALS)
        j += N_SPECIALS
        out[j] = S["unit_cost"][b, u] / SCALE_COST
        j += 1
        c = np.int64(S["unit_cell"][b, u])
        if place == PLACE_FIELD and c >= 0:
            out[j] = (c // cols) / 22.0
            out[j + 1] = (c % cols) / 22.0
            _one_hot(out, j + 2, np.int64(S["unit_facing"][b, u]), 4)
        j += 6
        for s in range(N_STATUSES):
            d = S["unit_status"][b, u, s]
            if d != 0:
                out[j + s] = 1.0
                out[j + N_STATUSES + s] = 1.0 if d == STATUS_PERMANENT else d / SCALE_DURATION
        j += 2 * N_STATUSES
        for t in range(N_ITEM_SLOTS):
            _one_hot(out, j, np.int64(S["unit_item"][b, u, t]), MAX_ITEMS)
        j += MAX_ITEMS
        v = S["unit_lock"][b, u]
        if v >= 0:
            out[j] = 1.0
            out[j + 1] = max(S["turn"][b] - S["unit_lock_turn"][b, u], 0) / SCALE_RATING
        # in a Unit Team: the side of the space it stands on, (FACE_* + 1) / 4 (TD-9.7)
        if S["unit_team"][b, u] >= 0:
            out[j + 2] = (S["unit_team_side"][b, u] + 1) / 4.0
        j += 3
        out[j] = S["unit_engaged"][b, u]
        out[j + 1] = S["unit_moved"][b, u]
        out[j + 2] = S["unit_fought"][b, u]
        out[j + 3] = S["unit_no_combat"][b, u]
        out[j + 4] = max(S["unit_move_bonus"][b, u], 0) / 6.0
        out[j + 5] = 1.0 if S["unit_no_reacquire"][b, u] != 0 else 0.0
        out[j + 6] = S["unit_kills"][b, u] / SCALE_RATING
        j += 7
        for k in range(N_USE_COUNTERS):
            out[j + k] = S["unit_uses"][b, u, k] / 3.0
        j += N_USE_COUNTERS
        out[j] = (S["unit_ab_copy"][b, u] + 1) / SCALE_PROFILE  # tdabF: Learn's copy (R134)
        out[j + 1] = (S["unit_shed_cell"][b, u] + 1) / MAX_CELLS  # tdabF: a Shed Marker (R135)
        out[j + 2] = 1.0 if S["unit_ctrl"][b, u] >= 0 else 0.0  # tdabI: Possessed (R137)
        j += 3
    else:
        j = i + UNIT_SIZE - UNIT_PUBLIC
    # who the decision in progress is about (public: the player names them as it goes)
    out[j] = 1.0 if S["engaged"][b] == u else 0.0
    out[j + 1] = 1.0 if S["item_target"][b] == u else 0.0
    out[j + 2] = 1.0 if S["trade_partner"][b] == u else 0.0
    out[j + 3] = 1.0 if S["loot_from"][b] == u else 0.0
    out[j + 4] = 1.0 if S["whip_unit"][b] == u else 0.0
    out[j + 5] = 1.0 if S["eff_unit"][b] == u else 0.0
    out[j + 6] = 1.0 if S["deploy_unit"][b] == u else 0.0
    for r in range(S["refl_count"][b]):
        if S["refl_from"][b, r] == u:
            out[j + 7] = 1.0
    out[j + 8] = 1.0 if S["wb_acq"][b] == u else 0.0  # tdabG: whose full slot is asked


@njit
def observe(S, tb, b, me, out):
    """Write player `me`'s observation of game b into out (float32[observation_size()]);
    returns the length written (== observation_size())."""
    out[:] = 0.0
    opp = 1 - me
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    cells = np.int64(tb.bf_rows[bf]) * cols
    limit = max(np.int64(S["purchase_limit"][b]), 1)
    i = 0
    # --- global
    _one_hot(out, i, np.int64(S["stage"][b]), N_STAGE_SLOTS)
    i += N_STAGE_SLOTS
    out[i] = 1.0 if S["current"][b] == me else 0.0
    out[i + 1] = me
    i += 2
    _one_hot(out, i, _rel(S["first_player"][b], me), 2)
    _one_hot(out, i + 2, _rel(S["roll_winner"][b], me), 2)
    i += 4
    out[i] = S["turn"][b] / SCALE_TURN
    tl = np.int64(tb.opt_turn_limit)
    if tl > 0:
        out[i + 1] = max(tl - S["turn"][b], 0) / tl
    i += 2
    _one_hot(out, i, bf, MAX_BATTLEFIELDS)
    i += MAX_BATTLEFIELDS
    out[i] = limit / SCALE_LIMIT
    out[i + 1] = S["army_cost"][b, me] / limit  # the opponent's would tell its reserve (R54)
    i += 2
    for q in range(2):
        p = me if q == 0 else opp
        n = 0
        for k in range(S["army_size"][b, p]):
            if S["unit_place"][b, p * MAX_UNITS + k] == PLACE_RESERVE:
                n += 1
        out[i + q] = n / MAX_UNITS
        out[i + 2 + q] = S["kills_turn"][b, p] / MAX_UNITS
    i += 4
    _one_hot(out, i, np.int64(S["eng_procedure"][b]), N_PROCEDURES)
    i += N_PROCEDURES
    out[i] = S["eng_faced"][b]
    out[i + 1] = S["charge_max"][b] / SCALE_RATING
    i += 2
    _one_hot(out, i, np.int64(S["eng_item_phase"][b]) - 1, 3)  # 1, 2 (0: none)
    i += 3
    out[i] = S["item_left"][b] / SCALE_DURATION
    out[i + 1] = S["eng_whipped"][b]
    i += 2
    _one_hot(out, i, np.int64(S["eng_force"][b]), N_FORCES)
    i += N_FORCES
    if S["eff_unit"][b] >= 0:
        _one_hot(out, i, np.int64(S["eff_status"][b]), N_STATUSES)
    i += N_STATUSES
    if S["loot_from"][b] >= 0:
        _one_hot(out, i, np.int64(S["loot_slot"][b]), N_ITEM_SLOTS)
    i += N_ITEM_SLOTS
    nr = np.int64(S["refl_count"][b])
    out[i] = nr / MAX_REFLECT
    i += 1
    for r in range(MAX_REFLECT):
        if r < nr:
            out[i] = max(S["refl_strength"][b, r], 0) / SCALE_RATING
            _one_hot(out, i + 1, np.int64(S["refl_side"][b, r]), 4)
        i += 5
    nd = np.int64(S["deck_count"][b])
    out[i] = nd / MAX_ITEMS
    i += 1
    for k in range(nd):  # which Items, never where (the order is hidden from both, I10);
        out[i + np.int64(S["deck"][b, k])] += 1.0  # how many of each: bought copies join (R141)
    i += MAX_ITEMS
    for j in range(2):  # a card I saw by Study, while it is still that near the top (R116)
        seen = np.int64(S["deck_seen"][b, me, j])
        for d in range(min(j + 1, nd)):
            if seen >= 0 and S["deck"][b, nd - 1 - d] == seen:
                _one_hot(out, i + d * MAX_ITEMS, seen, MAX_ITEMS)
    i += 2 * MAX_ITEMS
    # --- the battlefield, space by space
    target = np.int64(S["pending_target"][b])
    for c in range(MAX_CELLS):
        if c < cells:
            out[i] = 1.0
            # its Terrain Type now: Water where a Floodplains unit floods it (tdabH, R124)
            _one_hot(out, i + 1, terrain(tb, bf, S["flood"][b], c), MAX_TERRAINS)
            k = i + 1 + MAX_TERRAINS
            _one_hot(out, k, np.int64(tb.bf_height[bf, c]) + 1, 5)
            out[k + 5] = tb.bf_bridge[bf, c]
            _one_hot(out, k + 6, _rel(tb.bf_deploy[bf, c], me), 2)
            u0 = np.int64(S["cell_unit"][b, c, 0])
            if u0 >= 0:
                out[k + 8 + _rel(side_of(S, b, u0), me)] = 1.0
            u1 = np.int64(S["cell_unit"][b, c, 1])
            if u1 >= 0:
                out[k + 10 + _rel(side_of(S, b, u1), me)] = 1.0
            out[k + 12] = 1.0 if c == target else 0.0
            tu = np.int64(S["trail_unit"][b, c])
            if tu >= 0:
                out[k + 13 + _rel(side_of(S, b, tu), me)] = 1.0
        i += CELL_SIZE
    # --- the units: mine, then the opponent's
    for q in range(2):
        p = me if q == 0 else opp
        for k in range(MAX_UNITS):
            _unit(S, tb, b, me, np.int64(p * MAX_UNITS + k), cols, out, i)
            i += UNIT_SIZE
    # --- the piece I am buying (army_building=players; hidden from the opponent, R54)
    if S["current"][b] == me and S["buy_n"][b] > 0:
        for m in range(MAX_MEMBERS):
            out[i + m] = (S["buy_member"][b, m] + 1) / SCALE_PROFILE
        out[i + MAX_MEMBERS] = S["buy_n"][b] / MAX_MEMBERS
    # tdbuy: the Item my decision is about: the one I am buying (STAGE_BUY_ITEM_UNIT, R142)
    # or acquiring, the Item Deck's top card (STAGE_ACQUIRE, TD-12.2: drawn, so I know it)
    if S["current"][b] == me:
        item = np.int64(S["buy_item"][b])
        if S["stage"][b] == STAGE_ACQUIRE and S["deck_count"][b] > 0:
            item = np.int64(S["deck"][b, S["deck_count"][b] - 1])
        _one_hot(out, i + MAX_MEMBERS + 1, item, MAX_ITEMS)
    i += BUY_SIZE
    return i
