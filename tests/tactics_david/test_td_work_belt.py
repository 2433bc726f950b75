"""tdabG: Work Belt's second Item slot per Type (TD-22.2.57, R109, R123; work_belt.py), read
everywhere Items are read: Trade, Loot, the Use Item Procedure, Item Acquisition, Alchemy,
Lob, Incineration's and Bite's discards, the Revival Stone, the observation, both invariant
checkers and the text view. The Tinkerer has Work Belt; the Rogue (the same 2/3/3/2 Light
Physical Melee unit) has not."""

from __future__ import annotations

import numpy as np

from envs.tactics_david import guard, items, units
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_BELT,
    A_CELL,
    A_END,
    A_SIDE,
    A_TRADE,
    A_UNIT,
    A_USE_ITEM,
    STAGE_ACQUIRE,
    STAGE_ITEM,
    STAGE_ITEM_TARGET,
    STAGE_LOOT,
    STAGE_TRADE,
)
from envs.tactics_david.invariants import BAD_ITEM, OK, check_codes, violations
from envs.tactics_david.observe import observation_size, observe
from envs.tactics_david.view import unit_line
from envs.tactics_david.work_belt import action_slot, slot_action, trade_action, trade_slots
from tests.tactics_david.td_board import (
    B0,
    S_,
    TABLES,
    E,
    I,
    W,
    act,
    cell,
    engage,
    legal,
    position,
    record,
    unit,
)

IT = TABLES.item_index
ST = TABLES.status_index
T = st.N_ITEM_TYPES
WEAPON, ACCESSORY, EXPENDABLE = 0, 1, 2


def _take(S, tb, u: int, name: str, slot: int | None = None) -> None:
    """Unit u gets the Item `name` out of the Item Deck: equipped (items.equip) or put in
    `slot`."""
    i = IT[name]
    deck = [int(x) for x in S["deck"][0, : S["deck_count"][0]] if x != i]
    S["deck"][0] = -1
    S["deck"][0, : len(deck)] = deck
    S["deck_count"][0] = len(deck)
    if slot is None:
        items.equip(S, tb, B0, I(u), I(i))
    else:
        S["unit_item"][0, u, slot] = i
        items.refresh_attack_type(S, tb, B0, I(u))


def _board(seed: int = 1):
    tb = record()
    S = position(tb, seed=seed)
    w = unit(S, tb, 0, "Tinkerer", 5, 5, E)
    r = unit(S, tb, 0, "Rogue", 6, 5, E)
    unit(S, tb, 1, "Knight", 0, 13, W)
    return S, tb, w, r


def test_action_names_of_the_second_slots():
    """A_TRADE + t / A_SIDE + t name the first slot of Type t, A_BELT + t the second; the
    Trade's four pairs of slots have four distinct actions."""
    for t in range(T):
        assert action_slot(slot_action(I(t), I(A_SIDE)), I(A_SIDE)) == t
        assert slot_action(I(t + T), I(A_SIDE)) == A_BELT + t
        assert action_slot(slot_action(I(t + T), I(A_TRADE)), I(A_TRADE)) == t + T
        pairs = [tuple(int(x) for x in trade_slots(trade_action(I(t), I(j)))) for j in range(4)]
        assert pairs == [(t, t), (t + T, t), (t, t + T), (t + T, t + T)]
        assert len({int(trade_action(I(t), I(j))) for j in range(4)}) == 4


def test_equip_fills_the_second_slot_only_with_work_belt():
    """items.equip (Item Acquisition, Make Bread, Chemistry): a free second slot with Work
    Belt; else (no Work Belt, or both full) the first slot's Item goes to the deck's bottom.
    Both Weapons' bonuses add (R109)."""
    S, tb, w, r = _board()
    for u in (w, r):
        _take(S, tb, u, "Sword" if u == w else "Spear")
    _take(S, tb, w, "Axe")
    _take(S, tb, r, "Flail")
    assert (
        S["unit_item"][0, w, WEAPON] == IT["Sword"]
        and S["unit_item"][0, w, WEAPON + T] == IT["Axe"]
    )
    assert S["unit_item"][0, r, WEAPON] == IT["Flail"] and S["unit_item"][0, r, WEAPON + T] == -1
    assert S["deck"][0, 0] == IT["Spear"]
    assert items.item_sum(S, B0, I(w), tb.it_str_attack) == 2
    assert items.item_sum(S, B0, I(r), tb.it_str_attack) == 1
    _take(S, tb, w, "War Hammer")  # both full: the first slot's Sword goes (R123)
    assert S["unit_item"][0, w, WEAPON] == IT["War Hammer"] and S["deck"][0, 0] == IT["Sword"]
    assert violations(S, tb) == []


def test_attack_area_and_attack_type_of_two_are_the_first_slots():
    """R123: of two Weapons setting an Attack Area, or two Accessories setting an Attack
    Type, the Item in the first slot decides."""
    S, tb, w, _ = _board()
    _take(S, tb, w, "Axe", WEAPON + T)
    assert items.unit_area(S, tb, B0, I(w)) == tb.it_area[IT["Axe"]]
    _take(S, tb, w, "Spear", WEAPON)
    assert items.unit_area(S, tb, B0, I(w)) == tb.it_area[IT["Spear"]]
    _take(S, tb, w, "Talisman", ACCESSORY + T)
    _take(S, tb, w, "Ring of the Dead", ACCESSORY)
    assert S["unit_attack_type"][0, w] == tb.it_attack_type[IT["Ring of the Dead"]]
    S["unit_item"][0, w, ACCESSORY] = -1
    items.refresh_attack_type(S, tb, B0, I(w))
    assert S["unit_attack_type"][0, w] == tb.it_attack_type[IT["Talisman"]]


def test_trade_into_and_out_of_the_second_slots():
    """TD-8.2 with Work Belt: the Tinkerer holding a Sword may take the Rogue's Axe into its
    second slot (A_BELT + 0) besides swapping (A_TRADE + 0); the Rogue could only swap. Then
    it gives the Sword back; a second slot never takes an Item while the first is empty."""
    S, tb, w, r = _board()
    _take(S, tb, w, "Sword")
    _take(S, tb, r, "Axe")
    acts = engage(S, tb, w)
    assert A_CELL + cell(tb, 6, 5) in acts
    acts = act(S, tb, A_CELL + cell(tb, 6, 5))
    assert S["stage"][0] == STAGE_TRADE
    assert acts == [A_TRADE + WEAPON, trade_action(I(WEAPON), I(1)), A_END]
    act(S, tb, trade_action(I(WEAPON), I(1)))  # take the Axe into the second slot
    assert list(S["unit_item"][0, w, [WEAPON, WEAPON + T]]) == [IT["Sword"], IT["Axe"]]
    assert S["unit_item"][0, r, WEAPON] == -1
    acts = legal(S, tb)
    assert acts == [A_TRADE + WEAPON, trade_action(I(WEAPON), I(1)), A_END]  # give either
    act(S, tb, A_TRADE + WEAPON)
    assert S["unit_item"][0, r, WEAPON] == IT["Sword"] and S["unit_item"][0, w, WEAPON] == -1
    # its first slot empty, its second full: a take goes to the first slot only
    assert legal(S, tb) == [A_TRADE + WEAPON, trade_action(I(WEAPON), I(1)), A_END]
    assert violations(S, tb) == []


def _to_item_phase_2(S, tb, u: int) -> None:
    """Engage u and end its Item Phase and Movement Phase (no enemy near): Item Phase 2."""
    engage(S, tb, u)
    for _ in range(3):
        if S["stage"][0] == STAGE_ITEM and S["eng_item_phase"][0] == 2:
            return
        act(S, tb, A_END)
    assert S["stage"][0] == STAGE_ITEM and S["eng_item_phase"][0] == 2


def test_loot_into_a_free_second_slot_or_swap_either():
    """TD-11.2 with Work Belt: a looted Weapon goes into the free second slot (no question);
    with both slots full the player swaps it with either (A_TRADE + t, A_BELT + t) or sends
    it to the Item Deck's bottom (A_END)."""
    S, tb, w, _ = _board()
    dead = unit(S, tb, 0, "Soldier", 4, 5, S_)
    _take(S, tb, dead, "Axe")
    _take(S, tb, w, "Sword")
    units.kill(S, tb, B0, I(dead), I(1))
    _to_item_phase_2(S, tb, w)
    act(S, tb, A_CELL + cell(tb, 4, 5))  # an allied Dead unit: no roll
    assert S["stage"][0] == STAGE_ITEM
    assert list(S["unit_item"][0, w, [WEAPON, WEAPON + T]]) == [IT["Sword"], IT["Axe"]]
    # both full now: another Dead ally's Spear asks
    S, tb, w, _ = _board()
    dead = unit(S, tb, 0, "Soldier", 4, 5, S_)
    _take(S, tb, dead, "Spear")
    _take(S, tb, w, "Sword")
    _take(S, tb, w, "Axe")
    units.kill(S, tb, B0, I(dead), I(1))
    _to_item_phase_2(S, tb, w)
    acts = act(S, tb, A_CELL + cell(tb, 4, 5))
    assert S["stage"][0] == STAGE_LOOT and acts == [A_TRADE + WEAPON, A_BELT + WEAPON, A_END]
    act(S, tb, A_BELT + WEAPON)  # the Axe stays with the Dead Soldier
    assert list(S["unit_item"][0, w, [WEAPON, WEAPON + T]]) == [IT["Sword"], IT["Spear"]]
    assert S["unit_item"][0, dead, WEAPON] == IT["Axe"]
    assert violations(S, tb) == []


def test_use_either_expendable():
    """TD-8.3 with Work Belt: two Potions; the one in the second slot is used by A_BELT + 2
    and goes to the Item Deck's bottom, the first stays."""
    S, tb, w, _ = _board()
    _take(S, tb, w, "Potion")
    _take(S, tb, w, "Super Potion")
    assert S["unit_item"][0, w, EXPENDABLE + T] == IT["Super Potion"]
    units.apply_status(S, tb, B0, I(w), I(ST["Burned"]), I(st.STATUS_PERMANENT))
    acts = engage(S, tb, w)
    assert A_USE_ITEM in acts and A_BELT + EXPENDABLE in acts
    act(S, tb, A_BELT + EXPENDABLE)
    assert S["stage"][0] == STAGE_ITEM_TARGET and S["wb_use"][0] == EXPENDABLE + T
    act(S, tb, A_CELL + cell(tb, 5, 5))
    assert S["unit_status"][0, w, ST["Burned"]] == 0 and S["stage"][0] == STAGE_ITEM
    assert S["unit_item"][0, w, EXPENDABLE + T] == -1 and S["deck"][0, 0] == IT["Super Potion"]
    assert S["unit_item"][0, w, EXPENDABLE] == IT["Potion"] and S["wb_use"][0] == -1
    assert violations(S, tb) == []


def test_discards_name_the_second_slots():
    """Incineration's discard (guard.py, R108) offers each held slot, a second one as
    A_BELT + t; the answer empties that slot."""
    S, tb, w, _ = _board()
    _take(S, tb, w, "Sword")
    _take(S, tb, w, "Axe")
    S["gd_q"][0] = guard.Q_DISCARD
    S["gd_unit"][0] = w
    out = np.zeros(16, dtype=np.int64)
    n = guard.legal_question(S, tb, B0, out)
    assert list(out[:n]) == [A_SIDE + WEAPON, A_BELT + WEAPON]
    S["gd_disc"][0, w] = 1
    guard.answer_question(S, tb, B0, I(A_BELT + WEAPON))
    assert S["unit_item"][0, w, WEAPON + T] == -1 and S["deck"][0, 0] == IT["Axe"]
    assert S["unit_item"][0, w, WEAPON] == IT["Sword"]


def test_one_revival_stone_of_two():
    """A Dead holder of two Revival Stones discards Dead with one; the other stays."""
    S, tb, w, _ = _board()
    _take(S, tb, w, "Revival Stone")
    units.kill(S, tb, B0, I(w), I(1))
    S["unit_item"][0, w, EXPENDABLE + T] = IT["Revival Stone"]  # a second one (one card: test)
    units.begin_turn(S, tb, B0, I(0))
    assert S["unit_status"][0, w, ST["Dead"]] == 0
    assert (S["unit_item"][0, w] == IT["Revival Stone"]).sum() == 1


def test_the_second_slots_are_public_checked_and_shown():
    """A second-slot Item changes both players' observations (TD-2.1); both invariant
    checkers accept it in its Type's second slot and flag it in another Type's; the text
    view lists it."""
    S, tb, w, _ = _board()
    _take(S, tb, w, "Sword")
    _take(S, tb, w, "Axe")
    R = S.copy()
    R["unit_item"][0, w, WEAPON + T] = -1
    for me in (0, 1):
        a = np.zeros(observation_size(), dtype=np.float32)
        c = np.zeros(observation_size(), dtype=np.float32)
        observe(S, tb, B0, I(me), a)
        observe(R, tb, B0, I(me), c)
        assert not np.array_equal(a, c)
    assert violations(S, tb) == []
    assert _code(S, tb) == OK
    bad = S.copy()
    bad["unit_item"][0, w, ACCESSORY + T] = bad["unit_item"][0, w, WEAPON + T]
    bad["unit_item"][0, w, WEAPON + T] = -1
    assert any("not its type's" in v for v in violations(bad, tb))
    assert _code(bad, tb) == BAD_ITEM
    assert "Sword" in unit_line(S, TABLES, 0, w) and "Axe" in unit_line(S, TABLES, 0, w)


def _code(S, tb) -> int:
    return int(check_codes(S, tb, B0))


def test_acquisition_into_two_full_slots_asks_which():
    """TD-12.2 with Work Belt: the acquired Item meets both Weapon slots full: its player picks
    the slot it replaces (A_TRADE + 0 the first, A_BELT + 0 the second; the unit is flagged
    in the observation), that Item goes to the Item Deck's bottom, then the Turn ends."""
    for second in (False, True):
        S, tb, w, _ = _board()
        _take(S, tb, w, "Sword")
        _take(S, tb, w, "Axe")
        n = int(S["deck_count"][0])
        k = [int(x) for x in S["deck"][0, :n]].index(IT["Spear"])
        S["deck"][0, k], S["deck"][0, n - 1] = S["deck"][0, n - 1], S["deck"][0, k]
        S["kills_turn"][0, 0] = 5
        act(S, tb, A_END)
        acts = act(S, tb, A_UNIT + w % st.MAX_UNITS)
        assert S["stage"][0] == STAGE_ACQUIRE and acts == [A_TRADE + WEAPON, A_BELT + WEAPON]
        a = np.zeros(observation_size(), dtype=np.float32)
        R = S.copy()
        R["wb_acq"][0] = -1
        c = np.zeros(observation_size(), dtype=np.float32)
        observe(S, tb, B0, I(0), a)
        observe(R, tb, B0, I(0), c)
        assert not np.array_equal(a, c)
        act(S, tb, A_BELT + WEAPON if second else A_TRADE + WEAPON)
        kept = [IT["Spear"], IT["Axe"]] if not second else [IT["Sword"], IT["Spear"]]
        assert list(S["unit_item"][0, w, [WEAPON, WEAPON + T]]) == kept
        assert S["deck"][0, 0] == (IT["Axe"] if second else IT["Sword"])
        assert S["current"][0] == 1 and S["wb_acq"][0] == -1
        assert violations(S, tb) == []
