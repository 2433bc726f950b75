"""Items (TD-8, TD-12, TD-19, TD-25): the items.yaml rows as the kernels read them, the Use Item
Procedure in the Item Phase, Item Acquisition at the end of a Turn, and the Item Deck."""

from __future__ import annotations

from envs.core.rng import roll_d
from envs.tactics_david import combat, items, movement, units
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_STATUS,
    A_STRIKE,
    A_TRADE,
    A_TYPE,
    A_UNIT,
    A_USE_ITEM,
    STAGE_ACQUIRE,
    STAGE_ITEM,
    STAGE_ITEM_STATUS,
    STAGE_LOOT,
    STAGE_MOVE,
    STAGE_TRADE,
)
from envs.tactics_david.invariants import violations
from envs.tactics_david.state import MAX_UNITS, STATUS_PERMANENT
from tests.tactics_david.td_board import (
    B0,
    S_,
    TABLES,
    E,
    I,
    N,
    W,
    act,
    cell,
    engage,
    position,
    record,
    unit,
)

IT = TABLES.item_index
ST = TABLES.status_index
ATTACK, DEFEND = combat.PROC_ATTACK, combat.PROC_DEFEND


def _take(S, tb, u, name):
    """Unit u equips the Item `name`, taken out of the Item Deck (one card of each, I10)."""
    i = IT[name]
    deck = [int(x) for x in S["deck"][0, : S["deck_count"][0]] if x != i]
    S["deck"][0] = -1
    S["deck"][0, : len(deck)] = deck
    S["deck_count"][0] = len(deck)
    items.equip(S, tb, B0, I(u), I(i))


def _top(S, name):
    """Swap the Item `name` to the top of the Item Deck."""
    n = int(S["deck_count"][0])
    deck = S["deck"][0]
    j = [int(x) for x in deck[:n]].index(IT[name])
    deck[j], deck[n - 1] = deck[n - 1], deck[j]


def _board(seed=1):
    tb = record()
    S = position(tb, seed=seed)
    k = unit(S, tb, 0, "Knight", 5, 5, E)  # 4/3/3/2, Movement 4
    e = unit(S, tb, 1, "Knight", 1, 12, W)
    return S, tb, k, e


def _str(S, tb, u, side, proc):
    return int(combat.strength(S, tb, B0, I(u), I(side), I(proc)))


def test_weapons_and_shield_add_strength_in_their_procedure():
    """TD-25.5: weapons +1 (War Hammer +2) in Attack, Shield +1 in Defend; one Item of each
    type: a second Weapon replaces the first, which goes to the bottom of the deck (TD-19.1)."""
    S, tb, k, _ = _board()
    _take(S, tb, k, "Sword")
    assert _str(S, tb, k, 0, ATTACK) == 5 and _str(S, tb, k, 0, DEFEND) == 4
    _take(S, tb, k, "Shield")
    assert _str(S, tb, k, 0, ATTACK) == 5 and _str(S, tb, k, 0, DEFEND) == 5
    _take(S, tb, k, "War Hammer")
    assert _str(S, tb, k, 0, ATTACK) == 6 and S["deck"][0, 0] == IT["Sword"]
    assert violations(S, tb) == []


def test_a_weapon_sets_the_attack_area():
    """TD-19.4 / TD-25.5: the Axe's MD (front and flanks) replaces the Knight's MA; an enemy on
    the flank can then be struck."""
    S, tb, k, e = _board()
    S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
    units.put(S, B0, I(e), I(cell(tb, 6, 5)))  # south of the Knight facing east: its right
    engage(S, tb, k)
    assert A_STRIKE not in act(S, tb, A_END)
    S, tb, k, e = _board()
    S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
    units.put(S, B0, I(e), I(cell(tb, 6, 5)))
    _take(S, tb, k, "Axe")
    engage(S, tb, k)
    assert act(S, tb, A_END)[0] == A_STRIKE


def test_boots_binoculars_and_attack_type_items():
    """TD-25.6 Boots +1 Movement, Binoculars +1 Range; TD-25.7 Talisman makes the Attack Type
    Magical (any side), taking it off restores the Unit Type's."""
    S, tb, k, _ = _board()
    _take(S, tb, k, "Boots")
    assert int(movement.movement_rating(S, tb, B0, I(k))) == 5
    archer = unit(S, tb, 0, "Archer", 8, 8, N)
    before = int(combat.range_rating(S, tb, B0, I(archer)))
    _take(S, tb, archer, "Binoculars")
    assert int(combat.range_rating(S, tb, B0, I(archer))) == before + 1
    _take(S, tb, k, "Talisman")  # replaces Boots (both Accessories)
    assert S["unit_attack_type"][0, k] == 1 and S["unit_type"][0, k] == 0
    _take(S, tb, k, "Gauntlets")
    assert S["unit_attack_type"][0, k] == 0


def test_rod_of_hailfire_only_for_magical_ranged_units():
    """TD-19.3 / TD-25.10: the Rod of Hailfire's users; other Items by class."""
    S, tb, k, _ = _board()
    mage = unit(S, tb, 0, "Mage", 8, 8, N)  # Magical Ranged
    rod, mega = IT["Rod of Hailfire"], IT["Mega Potion"]
    assert items.may_equip(S, tb, B0, I(mage), I(rod))
    assert not items.may_equip(S, tb, B0, I(k), I(rod))
    paladin = unit(S, tb, 0, "Paladin", 9, 9, N)  # Heavy
    assert not items.may_equip(S, tb, B0, I(k), I(mega))  # Light: Mega Potion is M, H only
    assert items.may_equip(S, tb, B0, I(paladin), I(mega))


def test_mask_of_fear_counts_as_feared_and_necklace_lowers_enemy_rolls():
    """TD-25.8: enemies next to the Mask's holder acquire Fearful at the end of a Turn;
    TD-25.6: enemies within 2 spaces of the Necklace subtract 1 from their rolls."""
    S, tb, k, e = _board()
    near = unit(S, tb, 1, "Soldier", 5, 6, W)
    _take(S, tb, k, "Mask of Fear")
    units.end_turn(S, tb, B0)
    assert S["unit_status"][0, near, ST["Fearful"]] != 0
    assert S["unit_status"][0, e, ST["Fearful"]] == 0
    _take(S, tb, k, "Necklace of Negativity")  # replaces the Mask
    assert int(items.enemy_roll_modifier(S, tb, B0, I(near))) == -1
    assert int(items.enemy_roll_modifier(S, tb, B0, I(e))) == 0
    assert int(items.enemy_roll_modifier(S, tb, B0, I(k))) == 0


def test_potion_removes_the_chosen_status_and_goes_to_the_deck():
    """TD-8.3 / TD-25.2: in the Item Phase the Potion removes one Status (not Dead/Petrified)
    of the unit or one in direct contact, the player choosing which; then it is discarded to
    the bottom of the Item Deck (TD-19.2)."""
    S, tb, k, _ = _board()
    ally = unit(S, tb, 0, "Soldier", 5, 4, E)
    _take(S, tb, k, "Potion")
    units.apply_status(S, tb, B0, I(k), I(ST["Burned"]), I(STATUS_PERMANENT))
    units.apply_status(S, tb, B0, I(k), I(ST["Frozen"]), I(STATUS_PERMANENT))
    units.apply_status(S, tb, B0, I(ally), I(ST["Petrified"]), I(STATUS_PERMANENT))
    acts = engage(S, tb, k)
    assert S["stage"][0] == STAGE_ITEM  # use the Potion, Trade with the ally, or end
    assert acts == [A_USE_ITEM, A_CELL + cell(tb, 5, 4), A_END]
    acts = act(S, tb, A_USE_ITEM)
    assert acts == [A_CELL + cell(tb, 5, 5)]  # the ally's Petrified may not be removed
    acts = act(S, tb, A_CELL + cell(tb, 5, 5))
    assert S["stage"][0] == STAGE_ITEM_STATUS
    assert sorted(acts) == sorted([A_STATUS + ST["Burned"], A_STATUS + ST["Frozen"]])
    act(S, tb, A_STATUS + ST["Frozen"])
    assert S["unit_status"][0, k, ST["Frozen"]] == 0 and S["unit_status"][0, k, ST["Burned"]]
    assert S["unit_item"][0, k, 2] == -1 and S["deck"][0, 0] == IT["Potion"]
    assert violations(S, tb) == []


def test_elixir_and_pheonix_down():
    """TD-25.2 Elixir removes every Status but Dead/Petrified; TD-25.3 Pheonix Down removes
    Dead from a unit in direct contact."""
    tb = record()
    S = position(tb, seed=1)
    k = unit(S, tb, 0, "Paladin", 5, 5, E)  # Elixir: Medium and Heavy users
    unit(S, tb, 1, "Knight", 1, 12, W)
    ally = unit(S, tb, 0, "Soldier", 5, 4, E)
    _take(S, tb, k, "Elixir")
    for name in ("Burned", "Frozen", "Petrified", "Haste"):
        units.apply_status(S, tb, B0, I(ally), I(ST[name]), I(STATUS_PERMANENT))
    engage(S, tb, k)
    assert act(S, tb, A_USE_ITEM) == [A_CELL + cell(tb, 5, 4)]
    act(S, tb, A_CELL + cell(tb, 5, 4))
    held = [s for s in range(20) if S["unit_status"][0, ally, s]]
    assert held == [ST["Petrified"]] and violations(S, tb) == []
    S, tb, k, _ = _board()
    ally = unit(S, tb, 0, "Soldier", 4, 5, S_)
    units.kill(S, tb, B0, I(ally), I(-1))
    _take(S, tb, k, "Pheonix Down")
    engage(S, tb, k)
    assert act(S, tb, A_USE_ITEM) == [A_CELL + cell(tb, 4, 5)]
    act(S, tb, A_CELL + cell(tb, 4, 5))
    assert units.in_play(S, tb, B0, I(ally))


def test_revival_stone_at_the_start_of_the_owners_turn():
    """TD-25.3: a Dead holder discards Dead at the start of its owner's Turn; the Stone goes to
    the bottom of the deck."""
    S, tb, k, e = _board()
    _take(S, tb, e, "Revival Stone")
    units.kill(S, tb, B0, I(e), I(0))
    units.end_turn(S, tb, B0)  # seat 1's Turn begins
    assert units.in_play(S, tb, B0, I(e)) and S["unit_item"][0, e, 2] == -1
    assert S["deck"][0, 0] == IT["Revival Stone"] and violations(S, tb) == []


def test_item_acquisition_after_kills():
    """TD-12.1 / R9: 5 kills take the top card without a roll; 1 kill on a D6 >= 5; the player
    equips it to a unit not Dead and not Locked (or declines); the Turn then passes."""
    S, tb, k, e = _board()
    dead = unit(S, tb, 0, "Soldier", 9, 9, N)
    units.kill(S, tb, B0, I(dead), I(1))
    S["kills_turn"][0, 0] = 5
    _top(S, "Sword")
    top = int(S["deck"][0, S["deck_count"][0] - 1])
    n = int(S["deck_count"][0])
    acts = act(S, tb, A_END)
    assert S["stage"][0] == STAGE_ACQUIRE and acts == [A_UNIT + k % MAX_UNITS, A_END]
    act(S, tb, A_UNIT + k % MAX_UNITS)
    assert S["unit_item"][0, k, TABLES.item_type[top]] == top
    assert S["deck_count"][0] == n - 1 and S["current"][0] == 1

    def check(seed):
        S, tb, k, e = _board(seed)
        S["kills_turn"][0, 0] = 1
        _top(S, "Sword")
        r = int(roll_d(S["rng"].copy(), B0, I(6)))
        act(S, tb, A_END)
        assert (S["stage"][0] == STAGE_ACQUIRE) == (r >= 5)
        return r >= 5

    assert {check(seed) for seed in range(1, 40)} == {True, False}


def test_trade_with_one_ally_at_most_one_space_apart():
    """TD-8.2 / R35: give, take or swap Items with one living ally at most one empty space away
    (2 orthogonal steps), neither in Combat Lock; the receiver must be a User."""
    S, tb, k, e = _board()
    near = unit(S, tb, 0, "Soldier", 5, 7, W)  # one space between
    far = unit(S, tb, 0, "Soldier", 5, 9, W)
    other = unit(S, tb, 0, "Soldier", 6, 5, N)
    _take(S, tb, other, "Binoculars")
    _take(S, tb, k, "Sword")
    _take(S, tb, near, "Boots")
    _take(S, tb, far, "Shield")
    acts = engage(S, tb, k)
    assert A_CELL + cell(tb, 5, 7) in acts and A_CELL + cell(tb, 5, 9) not in acts
    acts = act(S, tb, A_CELL + cell(tb, 5, 7))
    assert S["stage"][0] == STAGE_TRADE and acts == [A_TRADE + 0, A_TRADE + 1, A_END]
    act(S, tb, A_TRADE + 0)  # give the Sword
    act(S, tb, A_TRADE + 1)  # take the Boots
    assert S["unit_item"][0, near, 0] == IT["Sword"] and S["unit_item"][0, k, 1] == IT["Boots"]
    act(S, tb, A_END)  # one partner per Item Phase: nothing left but End, the phase ends
    assert S["stage"][0] == STAGE_MOVE
    assert violations(S, tb) == []
    S2, tb2, k2, e2 = _board()
    n2 = unit(S2, tb2, 0, "Soldier", 5, 6, W)
    _take(S2, tb2, n2, "Boots")
    S2["unit_lock"][0, n2], S2["unit_lock"][0, e2] = e2, n2
    assert A_CELL + cell(tb2, 5, 6) not in engage(S2, tb2, k2)


def test_loot_a_dead_unit_in_item_phase_two():
    """TD-11.2: in Item Phase 2 a unit in direct contact with a Dead unit may loot it: an
    allied Dead unit without a roll; the Item is equipped in its free slot, or (slot full) the
    player swaps it or sends it to the bottom of the Item Deck."""
    S, tb, k, e = _board()
    dead = unit(S, tb, 0, "Soldier", 4, 5, S_)
    _take(S, tb, dead, "Boots")
    _take(S, tb, dead, "Sword")
    _take(S, tb, k, "Axe")
    units.kill(S, tb, B0, I(dead), I(1))
    engage(S, tb, k)
    assert S["stage"][0] == STAGE_MOVE
    acts = act(S, tb, A_END)  # no enemy: the Combat Phase ends by itself; Item Phase 2
    assert S["stage"][0] == STAGE_ITEM and S["eng_item_phase"][0] == 2
    assert A_CELL + cell(tb, 4, 5) in acts
    acts = act(S, tb, A_CELL + cell(tb, 4, 5))  # Sword meets the Axe's slot
    assert S["stage"][0] == STAGE_LOOT and acts == [A_TRADE + 0, A_END]
    act(S, tb, A_TRADE + 0)  # swap: the Axe stays with the Dead Soldier
    assert S["unit_item"][0, k, 0] == IT["Sword"] and S["unit_item"][0, dead, 0] == IT["Axe"]
    assert S["unit_item"][0, k, 1] == IT["Boots"] and S["unit_item"][0, dead, 1] == -1
    assert violations(S, tb) == []


def test_looting_an_enemy_needs_three_or_more():
    def check(seed):
        S, tb, k, e = _board(seed)
        S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
        units.put(S, B0, I(e), I(cell(tb, 4, 5)))
        unit(S, tb, 1, "Soldier", 0, 0, S_)
        _take(S, tb, e, "Boots")
        units.kill(S, tb, B0, I(e), I(0))
        engage(S, tb, k)
        act(S, tb, A_END)
        r = int(roll_d(S["rng"].copy(), B0, I(6)))
        act(S, tb, A_CELL + cell(tb, 4, 5))
        assert (S["unit_item"][0, k, 1] == IT["Boots"]) == (r >= 3)
        return r >= 3

    assert {check(seed) for seed in range(1, 40)} == {True, False}


def test_amulet_of_shifting_chooses_the_unit_type():
    """TD-25.7 / R35: in its Item Phase the holder may become any Unit Type; the Attack Type
    follows; Statuses the new type cannot carry are discarded."""
    S, tb, k, _ = _board()
    _take(S, tb, k, "Amulet of Shifting")
    units.apply_status(S, tb, B0, I(k), I(ST["Burned"]), I(STATUS_PERMANENT))
    acts = engage(S, tb, k)
    assert A_TYPE + 1 in acts and A_TYPE + 2 in acts and A_TYPE + 0 not in acts
    act(S, tb, A_TYPE + 2)  # Ethereal: immune to Burned
    assert S["unit_type"][0, k] == 2 and S["unit_attack_type"][0, k] == 2
    assert S["unit_status"][0, k, ST["Burned"]] == 0 and violations(S, tb) == []


def test_whip_gives_a_pup_ally_an_extra_movement_procedure():
    """TD-25.9 / R37: in the holder's Movement Phase one allied Pup-root unit within 2 spaces
    may make an extra Movement Procedure (once); a farther Pup or a non-Pup ally may not."""
    S, tb, k, _ = _board()
    _take(S, tb, k, "Whip")
    pup = unit(S, tb, 0, "Pup", 5, 7, W)
    far = unit(S, tb, 0, "Hound", 8, 8, W)
    other = unit(S, tb, 0, "Soldier", 4, 5, S_)
    engage(S, tb, k)
    assert S["stage"][0] == STAGE_ITEM  # it could trade the Whip away; it keeps it
    acts = act(S, tb, A_END)
    assert A_UNIT + pup % MAX_UNITS in acts
    assert A_UNIT + far % MAX_UNITS not in acts and A_UNIT + other % MAX_UNITS not in acts
    acts = act(S, tb, A_UNIT + pup % MAX_UNITS)
    assert A_CELL + cell(tb, 7, 7) in acts and A_END in acts
    acts = act(S, tb, A_CELL + cell(tb, 7, 7))
    assert S["unit_cell"][0, pup] == cell(tb, 7, 7) and S["stage"][0] == STAGE_MOVE
    assert S["unit_cell"][0, k] == cell(tb, 5, 5) and A_UNIT + pup % MAX_UNITS not in acts
    assert violations(S, tb) == []
