"""Items (TD-8, TD-11, TD-12, TD-19, TD-25): equipping, the Item Deck, the items' modifiers,
the Item Phase / Item Phase 2 (Use Item Procedure) and Item Acquisition, as numba kernels.

Every item is data: record.py derives per-item columns (``tb.it_*``) from items.yaml's effect
rows, and the kernels read them (``item_sum``), so Shield, the weapons, Boots and Binoculars are
one mechanism. Encodings (actions.py)::

    stage              action        meaning
    STAGE_ITEM         A_USE_ITEM    Use Item Procedure with the Expendable Item (TD-8.3)
                       A_END         End Item Phase (Item Phase: on to the Movement Phase;
                                     Item Phase 2: the unit is Disengaged, TD-11.3)
    STAGE_ITEM_TARGET  A_CELL + c    the unit on space c the Item is used on (itself or one in
                                     direct contact, per the Item's target)
    STAGE_ITEM_STATUS  A_STATUS + s  remove Status s (as many as the Item removes)
    STAGE_ACQUIRE      A_UNIT + k    the unit equipping the Item acquired (TD-12.2)
                       A_END         decline it (the card stays on top of the Item Deck)

Every Item card is in exactly one place: a unit's slot of its type or the Item Deck
(invariants.py checks it).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d, shuffle_prefix
from envs.tactics_david import tables as T
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import (
    A_BELT,
    A_CELL,
    A_END,
    A_PIECE,
    A_STATUS,
    A_TRADE,
    A_TYPE,
    A_UNIT,
    A_USE_ITEM,
    GO_DISENGAGE,
    GO_END_TURN,
    GO_NONE,
    STAGE_ACQUIRE,
    STAGE_COMBAT,
    STAGE_GAME_OVER,
    STAGE_ITEM,
    STAGE_ITEM_STATUS,
    STAGE_ITEM_TARGET,
    STAGE_LOOT,
    STAGE_MOVE,
    STAGE_TRADE,
)
from envs.tactics_david.grid import offset_cell
from envs.tactics_david.record import (
    TARGET_ADJACENT,
    TARGET_SELF,
    USE_PROCEDURE,
)
from envs.tactics_david.state import (
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_ITEM_TYPES,
    N_PLAYERS,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
)
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    deathmatch_over,
    deck_to_bottom,
    discard_status,
    drop_unusable_items,
    in_play,
    is_dead,
    may_act,
    may_equip,  # TD-19.3 (in units.py since tdbuy: units.kill asks it too)
    named_by_space,
    side_of,
)
from envs.tactics_david.work_belt import (
    action_slot,
    capacity,
    free_slot,
    trade_action,
    trade_slots,
)


@njit
def item_sum(S, b: int, u: int, col) -> int:
    """Sum of the item column `col` (a tb.it_* array) over unit u's equipped Items."""
    total = np.int64(0)
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i >= 0:
            total += col[i]
    return total


@njit
def unit_area(S, tb, b: int, u: int) -> int:
    """Unit u's Attack Area: its Weapon's if the Weapon sets one (TD-19.4; of two, Work Belt,
    the first slot's, R123), else its top member's."""
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i >= 0 and tb.it_area[i] >= 0:
            return np.int64(tb.it_area[i])
    return np.int64(tb.u_area[S["unit_member"][b, u, 0]])


@njit
def enemy_roll_modifier(S, tb, b: int, u: int) -> int:
    """What unit u adds to each of its rolled results because of enemy Items nearby
    (Necklace of Negativity: -1 within 2 spaces, TD-25.6)."""
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    c = np.int64(S["unit_cell"][b, u])
    total = np.int64(0)
    for v in range(N_UNIT_IDS):
        if side_of(S, b, v) == side_of(S, b, u) or not in_play(S, tb, b, v):
            continue
        w = np.int64(S["unit_cell"][b, v])
        d = abs(w // cols - c // cols) + abs(w % cols - c % cols)
        for slot in range(N_ITEM_SLOTS):
            i = S["unit_item"][b, v, slot]
            if i >= 0 and tb.it_enemy_rolls[i] != 0 and d <= tb.it_enemy_radius[i]:
                total += tb.it_enemy_rolls[i]
    return total


@njit
def refresh_attack_type(S, tb, b: int, u: int) -> None:
    """Unit u's Attack Type: the one its Accessory sets (Gauntlets, Talisman, Ring of the Dead;
    TD-25.7; of two, Work Belt, the first slot's, R123), else its Unit Type's (TD-3.3)."""
    t = np.int64(S["unit_type"][b, u])
    for slot in range(N_ITEM_SLOTS - 1, -1, -1):  # the first slot's last, so it decides
        i = S["unit_item"][b, u, slot]
        if i >= 0 and tb.it_attack_type[i] >= 0:
            t = np.int64(tb.it_attack_type[i])
    S["unit_attack_type"][b, u] = t


@njit
def equip(S, tb, b: int, u: int, i: int) -> None:
    """Unit u equips Item i in its Type's free slot (a second one with Work Belt) or, if none,
    its Type's first slot (TD-12.2, TD-19.1: one Item of each type; R109, R123)."""
    slot = free_slot(S, tb, b, u, np.int64(tb.it_type[i]))
    put_item(S, tb, b, u, i, slot if slot >= 0 else np.int64(tb.it_type[i]))


@njit
def put_item(S, tb, b: int, u: int, i: int, slot: int) -> None:
    """Unit u equips Item i in `slot`; an Item already there goes to the bottom of the Item
    Deck."""
    old = S["unit_item"][b, u, slot]
    if old >= 0:
        deck_to_bottom(S, b, np.int64(old))
    S["unit_item"][b, u, slot] = i
    refresh_attack_type(S, tb, b, u)


# --- the Item Phase (TD-8) and Item Phase 2 (TD-11) ------------------------------------------


@njit
def _removable(S, tb, b: int, v: int, i: int) -> int:
    """Bits of the Statuses of unit v that Item i may remove."""
    bits = np.int64(0)
    for s in range(N_STATUSES):
        if S["unit_status"][b, v, s] == 0:
            continue
        if tb.it_remove_only[i] != 0 and not (np.int64(tb.it_remove_only[i]) >> s) & 1:
            continue
        if (np.int64(tb.it_remove_except[i]) >> s) & 1:
            continue
        bits |= np.int64(1) << s
    return bits


@njit
def _target_ok(S, tb, b: int, u: int, i: int, c: int) -> int:
    """The unit on space c if Item i of unit u may be used on it (itself or a unit in direct
    contact, by the Item's target; something to remove), else -1. On its own space that is
    itself, even beside a Unit Team partner (TD-18)."""
    v = np.int64(S["cell_unit"][b, c, 0])
    if c == S["unit_cell"][b, u]:
        v = u
    if v < 0 or S["unit_place"][b, v] != PLACE_FIELD:
        return -1
    target = tb.it_remove_target[i]
    if v == u:
        if target == TARGET_ADJACENT:
            return -1
    else:
        if target == TARGET_SELF:
            return -1
        bf = np.int64(S["battlefield"][b])
        near = False
        for d in range(4):
            if offset_cell(tb, bf, np.int64(S["unit_cell"][b, u]), d, 1, 0) == c:
                near = True
        if not near:
            return -1
    if _removable(S, tb, b, v, i) == 0:
        return -1
    return v


@njit
def _usable_item(S, tb, b: int, u: int, first: int, last: int) -> int:
    """Slot first..last-1 of unit u's Item usable in a Use Item Procedure now, -1 none (not
    while Locked in Combat, TD-8.3)."""
    if S["unit_lock"][b, u] >= 0 or not may_act(S, tb, b, u):
        return -1
    bf = np.int64(S["battlefield"][b])
    for slot in range(first, last):
        i = S["unit_item"][b, u, slot]
        if i < 0 or tb.it_use[i] != USE_PROCEDURE or tb.it_remove[i] == 0:
            continue
        c0 = np.int64(S["unit_cell"][b, u])
        if _target_ok(S, tb, b, u, np.int64(i), c0) >= 0:
            return slot
        for d in range(4):
            c = offset_cell(tb, bf, c0, d, 1, 0)
            if c >= 0 and _target_ok(S, tb, b, u, np.int64(i), c) >= 0:
                return slot
    return -1


@njit
def legal_item(S, tb, b: int, out) -> int:
    """Legal actions of STAGE_ITEM, STAGE_ITEM_TARGET, STAGE_ITEM_STATUS, STAGE_ACQUIRE."""
    stage = S["stage"][b]
    if stage == STAGE_ACQUIRE:
        return _legal_acquire(S, tb, b, out)
    u = np.int64(S["engaged"][b])
    n = 0
    if stage == STAGE_ITEM:
        if _usable_item(S, tb, b, u, 0, N_ITEM_TYPES) >= 0:
            out[n] = A_USE_ITEM
            n += 1
        for s in range(N_ITEM_TYPES, N_ITEM_SLOTS):  # tdabG: one in a second slot (Work Belt)
            if _usable_item(S, tb, b, u, s, s + 1) >= 0:
                out[n] = A_BELT + s - N_ITEM_TYPES
                n += 1
        n = _legal_partners(S, tb, b, u, out, n)
        if item_sum(S, b, u, tb.it_choose_type) > 0:
            for t in range(3):
                if t != S["unit_type"][b, u]:
                    out[n] = A_TYPE + t
                    n += 1
        out[n] = A_END
        return n + 1
    if stage == STAGE_TRADE:
        v = np.int64(S["trade_partner"][b])
        for t in range(N_ITEM_TYPES):
            for j in range(4):  # tdabG: which of each side's slots of Type t (Work Belt)
                if _exchange_ok(S, tb, b, u, v, t, j):
                    out[n] = trade_action(t, j)
                    n += 1
        out[n] = A_END
        return n + 1
    if stage == STAGE_LOOT:  # swap with its first slot of the Type, or its second (Work Belt)
        t = np.int64(S["loot_slot"][b] % N_ITEM_TYPES)
        for k in range(capacity(S, tb, b, u)):
            out[n] = A_TRADE + t if k == 0 else A_BELT + t
            n += 1
        out[n] = A_END
        return n + 1
    slot = np.int64(S["wb_use"][b])
    i = np.int64(S["unit_item"][b, u, slot])
    if stage == STAGE_ITEM_TARGET:
        bf = np.int64(S["battlefield"][b])
        c0 = np.int64(S["unit_cell"][b, u])
        for d in range(5):
            c = c0 if d == 4 else offset_cell(tb, bf, c0, d, 1, 0)
            if c >= 0 and _target_ok(S, tb, b, u, i, c) >= 0:
                out[n] = A_CELL + c
                n += 1
        return n
    bits = _removable(S, tb, b, np.int64(S["item_target"][b]), i)
    for s in range(N_STATUSES):
        if (bits >> s) & 1:
            out[n] = A_STATUS + s
            n += 1
    return n


@njit
def set_unit_type(S, tb, b: int, u: int, t: int) -> None:
    """Amulet of Shifting (TD-25.7): unit u's Unit Type becomes t for the rest of the game; its
    Attack Type follows (TD-3.3) unless an Accessory sets it; Statuses the new type cannot
    carry are discarded (R35)."""
    S["unit_type"][b, u] = t
    refresh_attack_type(S, tb, b, u)
    for s in range(N_STATUSES):
        if S["unit_status"][b, u, s] != 0 and not tb.st_afflicts[s, t]:
            S["unit_status"][b, u, s] = 0


@njit
def _exchange_ok(S, tb, b: int, u: int, v: int, t: int, j: int) -> bool:
    """Whether u and v may exchange the contents of their slots of Type t named by pair j
    (work_belt.trade_action; give, take or swap): a second slot only with Work Belt, and an
    empty one only when the first is full (else the first takes it, R109); something to move,
    and each receiver may use what it receives (TD-8.2, TD-19.3)."""
    su = t + (j & 1) * N_ITEM_TYPES
    sv = t + (j >> 1) * N_ITEM_TYPES
    x = np.int64(S["unit_item"][b, u, su])
    y = np.int64(S["unit_item"][b, v, sv])
    if x < 0 and y < 0:
        return False
    if su >= N_ITEM_TYPES and (
        capacity(S, tb, b, u) < 2 or (x < 0 and S["unit_item"][b, u, t] < 0)
    ):
        return False
    if sv >= N_ITEM_TYPES and (
        capacity(S, tb, b, v) < 2 or (y < 0 and S["unit_item"][b, v, t] < 0)
    ):
        return False
    if x >= 0 and not may_equip(S, tb, b, v, x):
        return False
    return y < 0 or may_equip(S, tb, b, u, y)


@njit
def _legal_partners(S, tb, b: int, u: int, out, n: int) -> int:
    """Append the Trade partners (TD-8.2, R35: living allies, neither in Combat Lock, at most
    trade_max_steps apart, with something to exchange; one partner per Item Phase) and, in Item
    Phase 2, the Dead units in direct contact holding an Item to Loot (TD-11.2; one per Item
    Phase) as A_CELL + their space."""
    if S["unit_lock"][b, u] >= 0 or is_dead(S, tb, b, u):  # a Relentless Dead unit: no Trade
        trade = False
    else:
        trade = S["trade_partner"][b] < 0
    loot = S["eng_item_phase"][b] == 2 and S["loot_from"][b] < 0
    if not trade and not loot:
        return n
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    c = np.int64(S["unit_cell"][b, u])
    for v in range(N_UNIT_IDS):
        if v == u or S["unit_place"][b, v] != PLACE_FIELD or not named_by_space(S, b, v):
            continue  # a Unit Team's space names its first member (apply_item, R145)
        w = np.int64(S["unit_cell"][b, v])
        d = abs(w // cols - c // cols) + abs(w % cols - c % cols)
        if is_dead(S, tb, b, v):
            if loot and d == 1:
                has = False
                for t in range(N_ITEM_SLOTS):
                    if S["unit_item"][b, v, t] >= 0:
                        has = True
                if has:
                    out[n] = A_CELL + w
                    n += 1
        elif (
            trade
            and side_of(S, b, v) == side_of(S, b, u)
            and d <= tb.trade_max_steps
            and S["unit_lock"][b, v] < 0
        ):
            ok = False
            for t in range(N_ITEM_TYPES):
                for j in range(4):
                    ok = ok or _exchange_ok(S, tb, b, u, v, t, j)
            if ok:
                out[n] = A_CELL + w
                n += 1
    return n


@njit
def _loot(S, tb, b: int, u: int, first: int) -> None:
    """The Loot Procedure from slot `first` on (TD-11.2): for each Item of the Dead unit roll
    1 D6, success on loot_roll or more (an allied Dead unit: no roll). A success is equipped if
    the slot is free; a full slot asks STAGE_LOOT (swap or to the deck); an Item the looter may
    not use goes to the bottom of the Item Deck (R35). Then back to the Item Phase."""
    v = np.int64(S["loot_from"][b])
    steal = np.int64(S["aa_steal"][b])  # tdabE: Steal's Loot in the Combat Phase (R122)
    thr = steal if steal > 0 else np.int64(tb.loot_roll)
    for t in range(first, N_ITEM_SLOTS):
        i = np.int64(S["unit_item"][b, v, t])
        if i < 0:
            continue
        free = side_of(S, b, v) == side_of(S, b, u) and is_dead(S, tb, b, v)  # an allied Dead unit
        if not free and roll_d(S["rng"], b, 6) < thr:
            continue
        s = free_slot(S, tb, b, u, t % N_ITEM_TYPES)  # tdabG: a second one with Work Belt
        if not may_equip(S, tb, b, u, i):
            S["unit_item"][b, v, t] = -1
            deck_to_bottom(S, b, i)
        elif s >= 0:
            S["unit_item"][b, v, t] = -1
            S["unit_item"][b, u, s] = i
            refresh_attack_type(S, tb, b, u)
        else:
            S["loot_slot"][b] = t
            S["stage"][b] = STAGE_LOOT
            return
    S["loot_slot"][b] = -1
    S["stage"][b] = STAGE_COMBAT if steal > 0 else STAGE_ITEM
    S["aa_steal"][b] = 0  # tdabE: Steal's Loot over: its Combat Phase goes on


@njit
def begin_item_phase(S, tb, b: int, phase: int) -> int:
    """Ask the Engaged unit's Item Phase (1) or Item Phase 2 (2); a Dead unit or a won game
    skips Item Phase 2 (the unit is Disengaged). Returns the next step (GO_*)."""
    u = np.int64(S["engaged"][b])
    if phase == 2 and (not may_act(S, tb, b, u) or deathmatch_over(S, tb, b)):
        if S["stage"][b] != STAGE_GAME_OVER:
            return GO_DISENGAGE
        return GO_NONE
    S["eng_item_phase"][b] = phase
    S["trade_partner"][b] = -1
    S["loot_from"][b] = -1
    S["loot_slot"][b] = -1
    S["stage"][b] = STAGE_ITEM
    return GO_NONE


@njit
def _discard_used(S, tb, b: int, u: int, slot: int) -> None:
    """The used Expendable Item goes to the bottom of the Item Deck (TD-19.2)."""
    i = S["unit_item"][b, u, slot]
    S["unit_item"][b, u, slot] = -1
    deck_to_bottom(S, b, np.int64(i))
    S["wb_use"][b] = -1


@njit
def apply_item(S, tb, b: int, a: int) -> int:
    """Apply an action of the Item stages (module docstring); returns the next step (GO_*)."""
    stage = S["stage"][b]
    if stage == STAGE_ACQUIRE:
        if _apply_acquire(S, tb, b, a):
            return GO_NONE  # tdabG: which full slot it replaces is asked (Work Belt)
        return GO_END_TURN
    u = np.int64(S["engaged"][b])
    if stage == STAGE_ITEM:
        if a == A_END:
            if S["eng_item_phase"][b] == 1:
                S["stage"][b] = STAGE_MOVE
                return GO_NONE
            return GO_DISENGAGE
        if a == A_USE_ITEM or a >= A_BELT:  # the Item's slot (tdabG: a second one, A_BELT)
            first = a - A_BELT + N_ITEM_TYPES if a >= A_BELT else 0
            S["wb_use"][b] = _usable_item(S, tb, b, u, first, N_ITEM_SLOTS)
            S["stage"][b] = STAGE_ITEM_TARGET
            return GO_NONE
        if a >= A_TYPE:
            set_unit_type(S, tb, b, u, a - A_TYPE)
            return GO_NONE
        v = np.int64(S["cell_unit"][b, a - A_CELL, 0])
        if is_dead(S, tb, b, v):
            S["loot_from"][b] = v
            _loot(S, tb, b, u, 0)
        else:
            S["trade_partner"][b] = v
            S["stage"][b] = STAGE_TRADE
        return GO_NONE
    if stage == STAGE_TRADE:
        if a == A_END:
            S["stage"][b] = STAGE_ITEM
            return GO_NONE
        v = np.int64(S["trade_partner"][b])
        su, sv = trade_slots(a)  # tdabG: the slots of each side (Work Belt, R109)
        x = S["unit_item"][b, u, su]
        S["unit_item"][b, u, su] = S["unit_item"][b, v, sv]
        S["unit_item"][b, v, sv] = x
        refresh_attack_type(S, tb, b, u)
        refresh_attack_type(S, tb, b, v)
        return GO_NONE
    if stage == STAGE_LOOT:
        v = np.int64(S["loot_from"][b])
        t = np.int64(S["loot_slot"][b])
        if a == A_END:  # the looted Item goes to the bottom of the Item Deck
            deck_to_bottom(S, b, np.int64(S["unit_item"][b, v, t]))
            S["unit_item"][b, v, t] = -1
        else:  # swapped: the looter's Item stays with the Dead unit
            s = action_slot(a, A_TRADE)  # tdabG: its first or second slot of the Type
            x = S["unit_item"][b, u, s]
            S["unit_item"][b, u, s] = S["unit_item"][b, v, t]
            S["unit_item"][b, v, t] = x
            refresh_attack_type(S, tb, b, u)
            if not is_dead(S, tb, b, v):  # Steal's living target (R122): if it may use it
                drop_unusable_items(S, tb, b, v)  # (R146)
                refresh_attack_type(S, tb, b, v)
        _loot(S, tb, b, u, t + 1)
        return GO_NONE
    slot = np.int64(S["wb_use"][b])
    i = np.int64(S["unit_item"][b, u, slot])
    if stage == STAGE_ITEM_TARGET:
        v = np.int64(S["cell_unit"][b, a - A_CELL, 0])
        if a - A_CELL == S["unit_cell"][b, u]:
            v = u  # its own space: itself, not its Team partner (TD-18)
        S["item_target"][b] = v
        bits = _removable(S, tb, b, v, i)
        count = np.int64(0)
        for s in range(N_STATUSES):
            count += (bits >> s) & 1
        if tb.it_remove[i] < 0 or count <= tb.it_remove[i]:
            # all of them go (Elixir, or no more than the Item removes): nothing to choose
            for s in range(N_STATUSES):
                if (bits >> s) & 1:
                    discard_status(S, tb, b, v, s)  # Dead too: Pheonix Down (R146)
            _discard_used(S, tb, b, u, slot)
            S["item_target"][b] = -1
            S["stage"][b] = STAGE_ITEM
            return GO_NONE
        S["item_left"][b] = tb.it_remove[i]
        S["stage"][b] = STAGE_ITEM_STATUS
        return GO_NONE
    # STAGE_ITEM_STATUS: remove the chosen Status
    v = np.int64(S["item_target"][b])
    discard_status(S, tb, b, v, a - A_STATUS)
    S["item_left"][b] -= 1
    if S["item_left"][b] <= 0:
        _discard_used(S, tb, b, u, slot)
        S["item_target"][b] = -1
        S["stage"][b] = STAGE_ITEM
    return GO_NONE


# --- Item Acquisition (TD-12) -------------------------------------------------------------------


@njit
def _eligible(S, tb, b: int, u: int, i: int) -> bool:
    """A unit the acquired Item may go to: in play (not Dead), not in Combat Lock, a User."""
    return in_play(S, tb, b, u) and S["unit_lock"][b, u] < 0 and may_equip(S, tb, b, u, i)


@njit
def begin_acquisition(S, tb, b: int) -> int:
    """End of the Attacking Player's Turn (TD-12.1, R9): with kills this Turn, roll 1 D6
    against the threshold of the kill count (5 or more kills: no roll); on a success the top
    card of the Item Deck is offered (STAGE_ACQUIRE) if one of the player's units may take
    it. Otherwise, or after, the Turn ends (GO_END_TURN)."""
    p = np.int64(S["current"][b])
    kills = np.int64(S["kills_turn"][b, p])
    for k in range(S["army_size"][b, p]):  # tdabB: Inventory Invention (TD-22.2.58, R113)
        u = p * MAX_UNITS + k
        if in_play(S, tb, b, u) and S["unit_lock"][b, u] < 0:
            for m in range(ability_count(S, b, u)):
                prof = ability_prof(S, b, u, m)
                if prof >= 0 and tb.ab_active[prof]:
                    kills = max(kills, np.int64(tb.ab_acq_kills[prof]))
    need = np.int64(7)
    for k in range(tb.acq_kills.shape[0]):
        if kills >= tb.acq_kills[k]:
            need = np.int64(tb.acq_roll[k])
    if kills > 0 and S["deck_count"][b] > 0:
        if need <= 1 or roll_d(S["rng"], b, 6) >= need:
            i = np.int64(S["deck"][b, S["deck_count"][b] - 1])
            for k in range(S["army_size"][b, p]):
                if _eligible(S, tb, b, p * MAX_UNITS + k, i):
                    S["stage"][b] = STAGE_ACQUIRE
                    return GO_NONE
    return GO_END_TURN


@njit
def _legal_acquire(S, tb, b: int, out) -> int:
    p = np.int64(S["current"][b])
    i = np.int64(S["deck"][b, S["deck_count"][b] - 1])
    if S["wb_acq"][b] >= 0:  # tdabG: the Item replaces its first or second full slot (R109)
        out[0] = A_TRADE + tb.it_type[i]
        out[1] = A_BELT + tb.it_type[i]
        return 2
    n = 0
    for k in range(S["army_size"][b, p]):
        if _eligible(S, tb, b, p * MAX_UNITS + k, i):
            out[n] = A_UNIT + k
            n += 1
    out[n] = A_END
    return n + 1


@njit
def _apply_acquire(S, tb, b: int, a: int) -> bool:
    """Equip the top card to the chosen unit (its old Item of that type to the deck's bottom),
    or decline; then the Turn ends (apply_item returns GO_END_TURN). tdabG: a unit with Work
    Belt and both slots of the Type full: its player is asked which of them the Item replaces
    (`wb_acq`, A_TRADE + t the first, A_BELT + t the second; returns True while asking)."""
    if a != A_END:
        n = np.int64(S["deck_count"][b]) - 1
        i = np.int64(S["deck"][b, n])
        u = np.int64(S["wb_acq"][b])
        if u >= 0:
            slot = action_slot(a, A_TRADE)
            S["wb_acq"][b] = -1
        else:
            u = np.int64(S["current"][b]) * MAX_UNITS + (a - A_UNIT)
            slot = free_slot(S, tb, b, u, np.int64(tb.it_type[i]))
            if slot < 0 and capacity(S, tb, b, u) == 2:
                S["wb_acq"][b] = u
                return True
            if slot < 0:
                slot = np.int64(tb.it_type[i])
        S["deck"][b, n] = -1
        S["deck_count"][b] = n
        put_item(S, tb, b, u, i, slot)
    return False


# --- tdabB: Items taken from the Item Deck by an ability (Chemistry, Alchemy; R117) ----------

K_ITEM = ut.EFFECT_KINDS.index("item")
ITEM_TAKE_EXPENDABLE = ut.EFFECT_MODES["item"].index("take_expendable")  # Chemistry
ITEM_SWAP_FROM_DECK = ut.EFFECT_MODES["item"].index("swap_from_deck")  # Alchemy
SLOT_EXPENDABLE = T.ITEM_TYPES.index("Expendable")


@njit
def deck_pick_ok(S, tb, b: int, u: int, row: int, i: int) -> bool:
    """Item i (in the Item Deck) is one unit u may take by its ability row `row`: an Item it
    may equip, Expendable (Chemistry, take_expendable) or of the Type of an Item it holds
    (Alchemy, swap_from_deck)."""
    if not may_equip(S, tb, b, u, i):
        return False
    if tb.r_mode[row] == ITEM_TAKE_EXPENDABLE:
        return tb.it_type[i] == SLOT_EXPENDABLE
    return _held_of_type(S, b, u, np.int64(tb.it_type[i])) >= 0


@njit
def _held_of_type(S, b: int, u: int, t: int) -> int:
    """tdabG: unit u's first slot holding an Item of Type t, -1 (Work Belt: two slots)."""
    for s in range(t, N_ITEM_SLOTS, N_ITEM_TYPES):
        if S["unit_item"][b, u, s] >= 0:
            return np.int64(s)
    return np.int64(-1)


@njit
def legal_deck_pick(S, tb, b: int, row: int, out) -> int:
    """STAGE_EFFECT, RESUME_DECK: A_PIECE + i for each Item i of the deck the Engaged unit may
    take by its row (the deck's contents are public, I10); n = 0: none (the ability is not
    offered then, effects.may_use_ability)."""
    u = np.int64(S["engaged"][b])
    n = 0
    for k in range(S["deck_count"][b]):
        i = np.int64(S["deck"][b, k])
        if deck_pick_ok(S, tb, b, u, row, i) and not _card_below(S, b, k, i):
            out[n] = A_PIECE + i
            n += 1
    return n


@njit
def _card_below(S, b: int, k: int, i: int) -> bool:
    """Whether a card of Item i lies below deck[k] (tdbuy: a bought copy discarded makes two
    cards of one Item, R141; one action names both)."""
    for j in range(k):
        if S["deck"][b, j] == i:
            return True
    return False


@njit
def apply_deck_pick(S, tb, b: int, u: int, a: int, row: int) -> None:
    """Unit u takes Item a - A_PIECE out of the Item Deck and equips it (the Item it held of
    that Type goes into the deck: Alchemy's swap, of two the first slot's, R123); then the
    deck is shuffled (TD-22.2.63, 064), which ends anything Study showed of its order
    (R116)."""
    i = np.int64(a - A_PIECE)
    n = np.int64(S["deck_count"][b])
    k = 0
    while k < n and S["deck"][b, k] != i:
        k += 1
    for j in range(k, n - 1):
        S["deck"][b, j] = S["deck"][b, j + 1]
    S["deck"][b, n - 1] = -1
    S["deck_count"][b] = n - 1
    if tb.r_mode[row] == ITEM_SWAP_FROM_DECK:  # tdabG: a swap, never into a free slot
        put_item(S, tb, b, u, i, _held_of_type(S, b, u, np.int64(tb.it_type[i])))
    else:
        equip(S, tb, b, u, i)
    shuffle_prefix(S["rng"], b, S["deck"][b], np.int64(S["deck_count"][b]))
    for p in range(N_PLAYERS):
        S["deck_seen"][b, p, 0] = -1
        S["deck_seen"][b, p, 1] = -1
