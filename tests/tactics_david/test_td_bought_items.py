"""Items bought with the army (TD-6.1.1, R141, R142, I40): the random armies' Items, the players'
Item decisions, army.check_army on Items, the copies in the invariant checkers, the self-play
record and what stays hidden."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.batch import BatchEnv
from envs.tactics_david import army as A
from envs.tactics_david import combat, effects, items, movement, units
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_END,
    A_PIECE,
    A_SEAT,
    A_UNIT,
    MAX_LEGAL,
    STAGE_BUY,
    STAGE_BUY_ITEM,
    STAGE_BUY_ITEM_UNIT,
    STAGE_BUY_STACK,
    STAGE_DEPLOY_CELL,
    STAGE_DEPLOY_UNIT,
    STAGE_FIRST,
)
from envs.tactics_david.hidden import resample_hidden
from envs.tactics_david.invariants import BAD_ARMY, BAD_DECK, OK, check_batch, violations
from envs.tactics_david.observe import observation_size, observe
from envs.tactics_david.record import build_record
from envs.tactics_david.ruleset import ruleset
from tests.tactics_david.td_board import B0, TABLES, I, N, position, record, unit
from tests.tactics_david.test_td_army import _buy
from tests.tactics_david.test_td_setup import _start

UNIT = TABLES.units.unit_index
IT = TABLES.item_index
N_ITEMS = len(TABLES.item_names)
N0 = len(TABLES.units.unit_names)  # army_bought: Item i at N0 + i
WEAPON = 0  # the Weapon slot (Type 0, state.py)


def _fits(pieces, items, j: int, i: int) -> bool:
    """Whether Item i could still be bought for piece j (army.py's reference rules)."""
    same = sum(1 for k, x in items if k == j and TABLES.item_type[x] == TABLES.item_type[i])
    return A.item_users_allow(TABLES, pieces[j], i) and same < A.item_capacity(TABLES, pieces[j])


def _obs(S, tb, me: int) -> np.ndarray:
    out = np.zeros(observation_size(), dtype=np.float32)
    observe(S, tb, B0, I(me), out)
    return out


def _item_game(tb, seed: int, seat: int = 1):
    """The first game of `seed` whose seat `seat` bought an Item: (S, its first Item's unit)."""
    for g in range(40):
        S, _ = _start(seed, g, tb)
        for u in range(seat * st.MAX_UNITS, (seat + 1) * st.MAX_UNITS):
            if (S["unit_item"][0, u] >= 0).any():
                return S, u
    raise AssertionError("no army bought an Item")


@pytest.mark.parametrize("army_type", ["free", "mixed"])
def test_random_armies_buy_legal_items(army_type):
    """TD-6.1.1 / I40 over many seeds: each Item is on a unit of its Users, one of each Type
    (two with Work Belt), counted in army_cost within the limit; check_army agrees; an army
    stops only when no Item fits any unit (the points left go to Items); the Item Deck still
    holds its own 23 cards (a bought Item is a copy, I10); many armies hold Items."""
    kind = A.ARMY_TYPES.index(army_type)
    tb = build_record(TABLES, army=kind, stacks=1, items=1)
    armies = holding = bought = 0
    for g in range(30):
        S, _ = _start(50, g, tb)
        assert violations(S, tb) == []
        deck = sorted(S["deck"][0, : S["deck_count"][0]].tolist())
        assert deck == list(range(N_ITEMS))
        for p in range(2):
            pieces, got = A.state_army(S, 0, p), A.state_items(S, 0, p)
            cost = A.check_pieces(TABLES, pieces, kind, 100, got)
            assert cost == S["army_cost"][0, p] <= 100
            counts = np.bincount([i for _, i in got], minlength=N_ITEMS)
            assert (S["army_bought"][0, p, N0 : N0 + N_ITEMS] == counts).all()
            left = 100 - cost
            for i in range(N_ITEMS):
                if TABLES.item_cost[i] <= left:
                    assert not any(_fits(pieces, got, j, i) for j in range(len(pieces)))
            armies += 1
            holding += bool(got)
            bought += len(got)
    assert holding > armies // 2 and bought > armies


def test_items_none_buys_no_items():
    """I40: with items=none the random armies hold no Item and spend the limit on units."""
    tb = build_record(TABLES, items=0)
    for g in range(10):
        S, _ = _start(50, g, tb)
        assert (S["unit_item"][0] < 0).all() and not S["army_bought"][0, :, N0:].any()
        for p in range(2):
            k = int(S["army_size"][0, p])
            assert S["army_cost"][0, p] == S["unit_cost"][0, p * st.MAX_UNITS :][:k].sum()
            assert 100 - S["army_cost"][0, p] < tb.min_cost or k == st.MAX_UNITS


def test_items_option_reaches_the_record():
    assert ruleset().options["items"] == "random" and ruleset().tables_batch[0].opt_items == 1
    assert ruleset(options={"items": "none"}).tables_batch[0].opt_items == 0
    with pytest.raises(ValueError, match="items"):
        ruleset(options={"items": "all"})
    with pytest.raises(ValueError, match="items"):
        build_record(TABLES, items=2)


def _build(S, tb, seat_pieces, seat_items):
    """Both seats build their armies by decisions (R71, R142): pieces (units.yaml names, single
    units), then Items as (Item name, army slot)."""
    for p in range(2):
        assert S["stage"][0] == STAGE_BUY and S["current"][0] == p
        for name in seat_pieces[p]:
            _buy(S, tb, A_PIECE + UNIT[name])
            if S["stage"][0] == STAGE_BUY_STACK:
                _buy(S, tb, A_END)
        _buy(S, tb, A_END)
        for name, k in seat_items[p]:
            assert S["stage"][0] == STAGE_BUY_ITEM
            _buy(S, tb, A_PIECE + IT[name])
            _buy(S, tb, A_UNIT + k)
        if S["stage"][0] == STAGE_BUY_ITEM:
            _buy(S, tb, A_END)


def _deploy(S, tb):
    """The first player and the deployment, each by the first legal action."""
    from tests.tactics_david.td_board import legal

    while S["stage"][0] in (STAGE_FIRST, STAGE_DEPLOY_UNIT, STAGE_DEPLOY_CELL):
        _buy(S, tb, A_SEAT if S["stage"][0] == STAGE_FIRST else legal(S, tb)[0])


def test_bought_items_act_in_play():
    """TD-6.1.1 with TD-25.5 / TD-25.6: a Sword bought for a Knight adds 1 to its Attack (the
    other Knight has none), Boots bought for a Knight add 1 to its Movement Rating, once the
    game is on."""
    tb = build_record(TABLES, buy=1)
    S, _ = _start(5, 0, tb)
    _build(S, tb, (["Knight"], ["Knight"]), ([("Sword", 0)], [("Boots", 0)]))
    _deploy(S, tb)
    assert S["turn"][0] == 1
    mine, theirs = 0, st.MAX_UNITS
    assert S["unit_item"][0, mine, WEAPON] == IT["Sword"]
    assert S["army_cost"][0].tolist() == [8 + 4, 8 + 3]
    attack = int(combat.strength(S, tb, B0, I(mine), I(0), I(combat.PROC_ATTACK)))
    fast = int(movement.movement_rating(S, tb, B0, I(theirs)))
    S["unit_item"][0, [mine, theirs]] = -1
    assert attack == int(combat.strength(S, tb, B0, I(mine), I(0), I(combat.PROC_ATTACK))) + 1
    assert fast == int(movement.movement_rating(S, tb, B0, I(theirs))) + 1


def test_players_buy_items_after_their_pieces():
    """R142: after its pieces a player is offered exactly the Items that fit what the limit
    leaves and some unit of its army may equip (Users, a free slot of the Type), then the units
    that Item fits; the cost counts; the limit and the slots narrow the offers."""
    tb = build_record(TABLES, buy=1, purchase_limit=30)
    S, _ = _start(5, 0, tb)
    for name in ("Soldier", "Apprentice"):  # L Physical Melee, L Magical Ranged: 6 + 12
        _buy(S, tb, A_PIECE + UNIT[name])
        if S["stage"][0] == STAGE_BUY_STACK:
            _buy(S, tb, A_END)
    legal = _buy(S, tb, A_END)
    assert S["stage"][0] == STAGE_BUY_ITEM and S["current"][0] == 0
    pieces = A.state_army(S, 0, 0)

    def offers(left, got):
        fit = [
            A_PIECE + i
            for i in range(N_ITEMS)
            if TABLES.item_cost[i] <= left and any(_fits(pieces, got, j, i) for j in range(2))
        ]
        return set(fit) | {A_END}

    assert set(legal) == offers(12, [])
    assert A_PIECE + IT["Rod of Hailfire"] in legal  # the Apprentice is a Magical Ranged Unit
    assert A_PIECE + IT["Mega Potion"] not in legal  # Users M, H only (TD-19.3)
    legal = _buy(S, tb, A_PIECE + IT["Rod of Hailfire"])
    assert S["stage"][0] == STAGE_BUY_ITEM_UNIT and legal == [A_UNIT + 1]
    legal = _buy(S, tb, A_UNIT + 1)
    assert S["unit_item"][0, 1, WEAPON] == IT["Rod of Hailfire"]
    assert S["army_cost"][0, 0] == 18 + 8 and S["army_bought"][0, 0, N0 + IT["Rod of Hailfire"]]
    assert set(legal) == offers(4, [(1, IT["Rod of Hailfire"])])
    assert A_PIECE + IT["Sword"] in legal and A_PIECE + IT["Axe"] not in legal  # 4 and 5 points
    legal = _buy(S, tb, A_PIECE + IT["Sword"])
    assert legal == [A_UNIT + 0]  # the Apprentice's Weapon slot is taken (TD-19.1)
    legal = _buy(S, tb, A_UNIT + 0)
    # nothing is left to spend: seat 0's army is done unasked, seat 1 builds
    assert S["stage"][0] == STAGE_BUY and S["current"][0] == 1 and S["army_cost"][0, 0] == 30
    assert sorted(S["deck"][0, : S["deck_count"][0]].tolist()) == list(range(N_ITEMS))
    assert violations(S, tb) == []


def test_an_illegal_item_purchase_raises_and_changes_nothing():
    """R142 through the batched API: an Item a unit of the army may not equip (the Mega Potion
    for an army of Light units), one over the limit, and an A_UNIT for a unit it does not
    fit raise ValueError and leave the state as it was."""
    rs = ruleset(options={"army_building": "players", "battlefield": "bramble_creek_crossing"})
    env = BatchEnv(rs, 1, 2, seed=5)
    env.reset()
    for name in ("Soldier", "Archer"):
        env.step(np.array([A_PIECE + UNIT[name]]))
        if env.state["stage"][0] == STAGE_BUY_STACK:
            env.step(np.array([A_END]))  # the unit alone
    env.step(np.array([A_END]))
    assert env.state["stage"][0] == STAGE_BUY_ITEM
    for bad in (A_PIECE + IT["Mega Potion"], A_PIECE + N_ITEMS, A_UNIT + 0):
        before = env.state.copy()
        with pytest.raises(ValueError, match="illegal"):
            env.step(np.array([bad]))
        assert env.state.tobytes() == before.tobytes()
    env.step(np.array([A_PIECE + IT["Binoculars"]]))  # Users L, M, H
    assert env.state["stage"][0] == STAGE_BUY_ITEM_UNIT
    env.step(np.array([A_UNIT + 1]))  # the Archer
    env.step(np.array([A_PIECE + IT["Binoculars"]]))  # a second copy, for the Soldier
    before = env.state.copy()
    with pytest.raises(ValueError, match="illegal"):
        env.step(np.array([A_UNIT + 1]))  # the Archer has its Accessory already
    assert env.state.tobytes() == before.tobytes()
    env.step(np.array([A_UNIT + 0]))
    assert env.state["army_bought"][0, 0, N0 + IT["Binoculars"]] == 2
    assert env.state["army_cost"][0, 0] == 6 + 9 + 3 + 3


@pytest.mark.parametrize(
    "army, bought, rule",
    [
        ([["Soldier"]], [(0, "Nothing")], "TD-6.1.1"),
        ([["Soldier"]], [(1, "Sword")], "TD-6.1.1"),
        ([["Soldier"]], [(0, "Mega Potion")], "TD-19.3"),  # Users M, H
        ([["Soldier"]], [(0, "Rod of Hailfire")], "TD-19.3"),  # not Magical Ranged
        ([["Archer"]], [(0, "Rod of Hailfire")], "TD-19.3"),  # Ranged but Physical
        ([["Soldier"]], [(0, "Sword"), (0, "Axe")], "TD-19.1"),  # two Weapons
        ([["Tinkerer"]], [(0, "Sword"), (0, "Axe"), (0, "Flail")], "TD-19.1"),  # Work Belt: 2
        ([["Knight"]] * 12, [(0, "Sword"), (1, "Potion")], "TD-6.1"),  # 96 + 4 + 3 = 103
    ],
)
def test_check_army_names_the_item_rule(army, bought, rule):
    with pytest.raises(ValueError, match=rule.replace(".", r"\.") + r"\b"):
        A.check_army(TABLES, army, "free", 100, bought)


def test_legal_item_armies_pass():
    """The same rules let these through: Work Belt's two Weapons (R109), the Rod of Hailfire
    on a Magical Ranged Unit, the Mega Potion on two Archers stacked (Medium Stacked, R4), an
    army of exactly the limit, and two copies of one Item on two units (R141)."""
    assert A.check_army(TABLES, [["Tinkerer"]], "free", 100, [(0, "Sword"), (0, "Axe")]) == 18
    assert A.check_army(TABLES, [["Apprentice"]], "free", 100, [(0, "Rod of Hailfire")]) == 20
    stack = [["Archer", "Archer"]]
    assert A.check_army(TABLES, stack, "free", 100, [(0, "Mega Potion")]) == 9 + 9 + 6 + 7
    assert A.check_army(TABLES, [["Knight"]] * 12, "free", 100, [(3, "Sword")]) == 100
    two = [(0, "Shield"), (1, "Shield")]
    assert A.check_army(TABLES, [["Soldier"], ["Soldier"]], "mixed", 100, two) == 18


def test_invariants_count_bought_copies():
    """R141 in both invariant checkers: a bought copy discarded to the bottom of the Item Deck
    leaves the state sound (its Item now has two cards in the deck); a card out of nowhere, or
    an Item's cost missing from the army's, is caught."""
    rs = ruleset(options={"battlefield": "bramble_creek_crossing"})
    tb = rs.tables_batch[0]
    S, u = _item_game(tb, 60)
    s = int(np.flatnonzero(S["unit_item"][0, u] >= 0)[0])
    i = int(S["unit_item"][0, u, s])
    assert violations(S, tb) == [] and check_batch(S, rs.tables_batch)[0] == OK
    S["unit_item"][0, u, s] = -1
    units.deck_to_bottom(S, B0, I(i))  # used or replaced: to the deck (TD-19.2)
    deck = S["deck"][0, : S["deck_count"][0]].tolist()
    assert deck.count(i) == 2 and len(deck) == N_ITEMS + 1
    assert violations(S, tb) == [] and check_batch(S, rs.tables_batch)[0] == OK
    bad = S.copy()
    units.deck_to_bottom(bad, B0, I(i))  # a third card no army bought
    assert check_batch(bad, rs.tables_batch)[0] == BAD_DECK
    assert any(v.startswith("items:") for v in violations(bad, tb))
    bad = S.copy()
    bad["army_cost"][0, 1] -= TABLES.item_cost[i]  # the Item bought for free
    assert check_batch(bad, rs.tables_batch)[0] == BAD_ARMY
    assert any("army_cost" in v for v in violations(bad, tb))


def test_a_copy_in_the_deck_is_offered_once():
    """R141: with two cards of the Potion in the Item Deck, Chemistry ("take an Expendable
    Item from the Item Deck") offers the Potion once."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 5, N)
    S["engaged"][0] = k
    S["army_bought"][0, 1, N0 + IT["Potion"]] = 1
    units.deck_to_bottom(S, B0, I(IT["Potion"]))
    rows = np.flatnonzero((tb.r_kind == items.K_ITEM) & (tb.r_mode == items.ITEM_TAKE_EXPENDABLE))
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = int(items.legal_deck_pick(S, tb, B0, I(rows[0]), out))
    picks = out[:n].tolist()
    assert picks.count(A_PIECE + IT["Potion"]) == 1 and len(picks) == len(set(picks)) > 1


def test_the_record_lists_the_items():
    """`tacsim balance` sees the Items: RecordSpec items are the units then the Items (group
    "Item", their Purchase Costs), and play_chunk's armies count the Items bought."""
    rs = ruleset(options={"turn_limit": "30"})
    spec = rs.record
    names = list(TABLES.units.unit_names) + list(TABLES.item_names)
    assert list(spec.items) == names and len(spec.costs) == len(names)
    assert spec.costs[N0 + IT["Rod of Hailfire"]] == 8 and spec.costs[UNIT["Knight"]] == 8
    assert {spec.group_names[g] for g in spec.groups[N0:]} == {"Item"}
    assert spec.group_names[spec.groups[UNIT["Knight"]]] == "Light"
    S = rs.allocate(4)
    res = rs.play_chunk(S, rs.tables_batch, 3, np.arange(4), np.zeros(1, dtype=np.int8))
    assert res.force.shape == (4, 2, len(names))
    assert res.force[:, :, N0:].sum() > 0
    assert (res.force == S["army_bought"][:, :, : len(names)]).all()


def test_reserve_items_are_hidden_until_deployed():
    """R54 / TD-2.1 for bought Items: taking an Item off an opponent's reserve unit does not
    change my observation; the resampled state redraws the opponent's reserve Items (legal, my
    view the same); once deployed, the Item shows."""
    tb = build_record(TABLES, items=1)
    S, u = _item_game(tb, 61)
    mine = _obs(S, tb, 0)
    off = S.copy()
    off["unit_item"][0, u] = -1
    assert (_obs(off, tb, 0) == mine).all() and (_obs(off, tb, 1) != _obs(S, tb, 1)).any()
    rng = np.random.default_rng(2)
    changed = 0
    for _ in range(6):
        R = resample_hidden(S, 0, rng, tb, TABLES)
        assert (_obs(R, tb, 0) == mine).all() and violations(R, tb) == []
        pieces, got = A.state_army(R, 0, 1), A.state_items(R, 0, 1)
        assert A.check_pieces(TABLES, pieces, A.ARMY_FREE, 100, got) == R["army_cost"][0, 1]
        changed += got != A.state_items(S, 0, 1)
    assert changed > 0
    _deploy(S, tb)
    assert S["unit_place"][0, u] == st.PLACE_FIELD
    off = S.copy()
    off["unit_item"][0, u] = -1
    assert (_obs(off, tb, 0) != _obs(S, tb, 0)).any()


def test_resample_keeps_a_seen_copy_where_it_was():
    """R116 with R141: seat 0 saw two cards by Study, the second now on top; another card of
    that Item (a bought copy) lies at the bottom. The resampled deck never brings that copy
    second from the top, where seat 0 would see it."""
    tb = record()
    S = position(tb)
    y = IT["Whip"]
    S["army_bought"][0, 1, N0 + y] = 1  # seat 1 bought a Whip, now discarded
    units.deck_to_bottom(S, B0, I(y))
    n = int(S["deck_count"][0])
    deck = S["deck"][0]
    j = deck[1:n].tolist().index(y) + 1  # the deck's own Whip to the top
    deck[j], deck[n - 1] = deck[n - 1], deck[j]
    S["deck_seen"][0, 0] = [IT["Sword"], y]  # the Sword was drawn since
    assert deck[0] == y and deck[n - 2] != y
    mine = _obs(S, tb, 0)
    rng = np.random.default_rng(4)
    for _ in range(60):
        R = resample_hidden(S, 0, rng, tb)
        assert (_obs(R, tb, 0) == mine).all()
        assert R["deck"][0, n - 1] == y and R["deck"][0, n - 2] != y


@pytest.mark.parametrize(
    "options",
    [{}, {"army_building": "players"}, {"army": "themed", "stacks": "random"}],
)
def test_games_with_bought_items_keep_the_invariants(options):
    """Whole random games with bought Items (random armies, players' random purchases, Strict
    armies with stacks) break no invariant and always have a legal action."""
    problems, example, decisions = ruleset(options=options).fuzz(2, 3, 7)
    assert problems == {} and example is None and decisions > 0


def test_the_item_being_acquired_is_known_to_its_player():
    """R143 (TD-12.2): while a player is asked which unit equips the Item it acquires (the Item
    Deck's top card, drawn), its observation shows that Item and its resampled states keep it
    on top (the same legal units); the other player sees neither, and its resample may move
    the card."""
    from envs.tactics_david.actions import STAGE_ACQUIRE
    from envs.tactics_david.observe import BUY_SIZE
    from tests.tactics_david.td_board import E, W, act, legal
    from tests.tactics_david.test_td_items import _top

    tb = record()
    S = position(tb)
    unit(S, tb, 0, "Knight", 5, 5, E)
    unit(S, tb, 1, "Knight", 1, 12, W)
    S["kills_turn"][0, 0] = 5  # acquired without a roll (TD-12.1)
    _top(S, "Mega Potion")  # Users M, H: the Light Knight may not equip it
    _top(S, "Sword")
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_ACQUIRE and S["current"][0] == 0
    mine, theirs = _obs(S, tb, 0), _obs(S, tb, 1)
    item = observation_size() - BUY_SIZE + 3 + 1  # the buy block's Item one-hot
    assert mine[item + IT["Sword"]] == 1 and mine[item : item + N_ITEMS].sum() == 1
    assert not theirs[item : item + N_ITEMS].any()
    rng = np.random.default_rng(5)
    n = int(S["deck_count"][0])
    moved = 0
    for _ in range(20):
        R = resample_hidden(S, 0, rng, tb)
        assert R["deck"][0, n - 1] == IT["Sword"] and legal(R, tb) == legal(S, tb)
        assert (_obs(R, tb, 0) == mine).all()
        moved += resample_hidden(S, 1, rng, tb)["deck"][0, n - 1] != IT["Sword"]
    assert moved > 0


def test_a_stack_of_two_scientists_asks_each_aura_once():
    """R144 (TD-17.4, R96): a stack of two Scientists has Doing Science twice, so its own
    Engagement asks the aura's choice twice, once per member (+1 Movement, then +1 Strength),
    and then goes on; before, the second member's question came back without end."""
    from envs.tactics_david.actions import A_SIDE, STAGE_EFFECT
    from envs.tactics_david.setup import add_stack
    from envs.tactics_david.state import RESUME_AURA
    from tests.tactics_david.td_board import act, cell, engage
    from tests.tactics_david.test_td_army import _offer

    tb = record()
    S = position(tb)
    u = int(add_stack(S, tb, B0, I(0), I(_offer(tb, ["Scientist", "Scientist"]))))
    units.put(S, B0, I(u), I(cell(tb, 5, 5)))
    unit(S, tb, 1, "Knight", 1, 12, N)
    move = int(movement.movement_rating(S, tb, B0, I(u)))
    legal = engage(S, tb, u)
    asked = []
    while S["stage"][0] == STAGE_EFFECT and S["eff_next"][0] == RESUME_AURA:
        asked.append(int(S["au_m"][0]))
        assert len(asked) <= 2, asked
        legal = act(S, tb, A_SIDE + len(asked) - 1)  # a) Movement first, then b) Strength
    assert asked == [0, 1] and legal
    assert int(movement.movement_rating(S, tb, B0, I(u))) == move + 1
    gained = effects.active_sum(S, tb, B0, I(u), I(effects.K_STRENGTH), I(-1))
    assert gained == 1  # b) +1 to its Base Strength Ratings until Disengaged


def test_a_swarm_stack_become_light_drops_the_items_it_may_not_use():
    """R146 (TD-23.1, TD-17.5): two Soldiers stacked (Swarm) are Medium Stacked and may be bought
    the Mega Potion (Users M, H); losing a member they are a Light unit, so the Mega Potion
    goes to the bottom of the Item Deck while the Shield stays; every card is still counted."""
    from envs.tactics_david.setup import add_stack, buy_item
    from tests.tactics_david.td_board import E, W, cell
    from tests.tactics_david.test_td_army import _offer

    tb = record()
    S = position(tb)
    s = int(add_stack(S, tb, B0, I(0), I(_offer(tb, ["Soldier", "Soldier"]))))
    buy_item(S, tb, B0, I(0), I(s), I(IT["Mega Potion"]))
    buy_item(S, tb, B0, I(0), I(s), I(IT["Shield"]))
    units.put(S, B0, I(s), I(cell(tb, 5, 5)))
    S["unit_facing"][0, s] = E
    unit(S, tb, 1, "Knight", 1, 12, W)
    assert S["army_cost"][0, 0] == 6 + 6 + 6 + 7 + 3 and violations(S, tb) == []
    units.kill(S, tb, B0, I(s), I(1))
    assert units.in_play(S, tb, B0, I(s)) and S["unit_n_members"][0, s] == 1
    assert IT["Mega Potion"] not in S["unit_item"][0, s] and IT["Shield"] in S["unit_item"][0, s]
    assert S["deck"][0, 0] == IT["Mega Potion"] and violations(S, tb) == []


def test_a_revived_unit_drops_the_items_it_may_not_use():
    """R146 (TD-25.3, TD-11.2 / R35): a Loot's swap may leave a Mega Potion (Users M, H) on a
    Dead Light unit; when it discards the Dead Status (Pheonix Down, Revival Stone) the Mega
    Potion goes to the bottom of the Item Deck, its Shield stays."""
    from tests.tactics_david.test_td_items import _take

    tb = record()
    S = position(tb)
    s = unit(S, tb, 0, "Soldier", 5, 5, N)
    unit(S, tb, 1, "Knight", 1, 12, N)
    _take(S, tb, s, "Shield")
    units.kill(S, tb, B0, I(s), I(1))
    _take(S, tb, s, "Mega Potion")  # as a looter's swap leaves it on the Dead unit (R35)
    assert violations(S, tb) == []  # a Dead holder may hold it
    units.discard_status(S, tb, B0, I(s), I(tb.status_dead))
    assert list(S["unit_item"][0, s, :3]) == [-1, IT["Shield"], -1]
    assert S["deck"][0, 0] == IT["Mega Potion"] and violations(S, tb) == []


def test_steal_gives_its_target_only_an_item_it_may_use():
    """R146 (Steal, R122; TD-11.2 / R35): a Medium looter swaps its Mega Potion for a living
    Light enemy's Potion; the enemy may not use the Mega Potion (Users M, H), so it goes to the
    bottom of the Item Deck instead of staying on the enemy."""
    from envs.tactics_david.actions import A_TRADE, STAGE_LOOT
    from tests.tactics_david.td_board import E, W, act
    from tests.tactics_david.test_td_items import _take

    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Centurion", 5, 5, E)  # Medium
    v = unit(S, tb, 1, "Soldier", 5, 6, W)  # Light, alive
    _take(S, tb, u, "Mega Potion")
    _take(S, tb, v, "Potion")
    S["engaged"][0] = u
    S["eng_item_phase"][0] = 2
    S["loot_from"][0] = v
    S["loot_slot"][0] = 2
    S["stage"][0] = STAGE_LOOT
    act(S, tb, A_TRADE + 2)  # swap: the Potion to the looter
    assert S["unit_item"][0, u, 2] == IT["Potion"] and S["unit_item"][0, v, 2] == -1
    assert S["deck"][0, 0] == IT["Mega Potion"] and violations(S, tb) == []
