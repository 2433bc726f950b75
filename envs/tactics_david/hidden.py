"""What a Tactics David player cannot know (R54), redrawn: the contract's resample_hidden.

`resample_hidden(S, me, rng, tb)` returns another one-game state that player `me` cannot tell
apart from S (the same observation and render, and, when `me` decides, the same legal
actions):

- the units the opponent still holds in reserve are another random army part: each reserve
  slot gets a piece (a unit, or with the `stacks` option one time in four a Stacked Unit,
  army.py), uniformly among those whose cost still lets the remaining slots be filled with
  the cheapest unit, so the whole army stays within the purchase limit (TD-6.1) and keeps its
  size (the number of cards in reserve is public). Under a Strict army type the reserve
  changes by random swaps that each keep the army legal (army.check_pieces). The slots, and the
  unit picked to be deployed next, stay where they are; only what they hold changes;
- the Items bought for those reserve units (R141) are drawn again too, when the army may hold
  Items at this point (the `items` option for random armies; players once their pieces are
  bought): after each Item, another one time in ITEM_SHARE - 1 out of ITEM_SHARE, each
  uniformly among the Items that still fit the purchase limit and a reserve unit
  (setup.item_buyable, setup.item_fits, bought by setup.buy_item: the kernels' own rules);
- the piece the opponent is buying (army_building=players) becomes another top unit it may
  buy, with no lower member yet (the observation shows only that a piece is being bought);
  the Item it is buying (STAGE_BUY_ITEM_UNIT) another Item it may buy; if the redrawn army
  leaves it none, the redraw is tried again (REDRAW_TRIES), then the reserve is kept;
- the Item Deck is reordered (its order is hidden from both players, I10; its contents are
  public: every Item not on a unit), but for the top cards `me` saw by Study (R116) or is
  acquiring (STAGE_ACQUIRE: the top card, shown to the acquiring player, TD-12.2), and so
  that a second card of an Item `me` saw (a bought copy, R141) does not come where `me` would
  see it (a few tries, else the order is kept); the other seat's Study knowledge becomes the
  cards now lying where it knew its cards;
- the rules and agent RNG words are drawn afresh (future dice are hidden from everyone).

Plain Python (numpy): the hidden-information test is its only caller; a search agent would
need a numba version of the same draw.
"""

from __future__ import annotations

import numpy as np

from envs.tactics_david.actions import STAGE_ACQUIRE
from envs.tactics_david.army import (
    ARMY_FREE,
    ITEM_SHARE,
    STACK_SHARE,
    check_pieces,
    state_army,
    state_items,
)
from envs.tactics_david.state import (
    MAX_MEMBERS,
    MAX_UNITS,
    N_PLAYERS,
    PLACE_RESERVE,
)

STRICT_STEPS = 300  # swaps tried on a Strict army's reserve
REDRAW_TRIES = 20  # redraws of the opponent's reserve, of the Item Deck's order


def _set_piece(S, tb, u: int, o: int) -> None:
    """Army slot u (game 0) holds piece o of the tables record, as setup.add_stack sets it."""
    n = int(tb.of_n[o])
    S["unit_member"][0, u, :] = -1
    S["unit_member"][0, u, :n] = tb.of_member[o, :n]
    S["unit_n_members"][0, u] = n
    S["unit_strength"][0, u, :] = tb.u_strength[tb.of_member[o, :n]].sum(axis=0)
    S["unit_cost"][0, u] = tb.of_cost[o]
    top = int(tb.of_member[o, 0])
    S["unit_type"][0, u] = tb.u_type[top]
    S["unit_attack_type"][0, u] = tb.u_type[top]  # TD-3.3, as setup.add_unit


def _propose(tb, room: int, rng: np.random.Generator) -> int:
    """A random piece costing at most `room`: a stack one time in STACK_SHARE when stacks are
    drawn (and one fits), else a unit; -1 when none fits."""
    n_single = int(tb.n_profiles)
    cost = np.asarray(tb.of_cost[: int(tb.n_offers)], dtype=np.int64)
    if tb.opt_stacks and rng.integers(STACK_SHARE) == 0:
        choices = np.flatnonzero(cost[n_single:] <= room) + n_single
        if choices.size:
            return int(choices[rng.integers(choices.size)])
    choices = np.flatnonzero(cost[:n_single] <= room)
    return int(choices[rng.integers(choices.size)]) if choices.size else -1


def _redraw_reserve(S, tb, p: int, rng: np.random.Generator, tables=None) -> None:
    """Seat p's reserve units (game 0) redrawn within the purchase limit (module docstring).

    Free building: each slot in turn gets a random piece that leaves room for the cheapest
    unit in each later slot. A Strict army type (with `tables` given): STRICT_STEPS random
    swaps of one reserve slot's piece, each kept only when army.check_pieces still passes, so
    the army stays legal at every step (the Strict rules leave too few legal armies for a
    direct draw to find one)."""
    g = S[0]
    slots = [
        k
        for k in range(int(g["army_size"][p]))
        if g["unit_place"][p * MAX_UNITS + k] == PLACE_RESERVE
    ]
    if not slots:
        return
    n0 = int(tb.n_profiles)
    for k in slots:  # the reserve's Items are hidden with it (R141): drawn again below
        for s, i in enumerate(S["unit_item"][0, p * MAX_UNITS + k].tolist()):
            if i >= 0:
                S["unit_item"][0, p * MAX_UNITS + k, s] = -1
                S["army_bought"][0, p, n0 + i] -= 1
    ni = int(tb.n_items)
    items_cost = int(S["army_bought"][0, p, n0 : n0 + ni].astype(int) @ tb.it_cost[:ni])
    S["army_cost"][0, p] = items_cost + sum(
        int(g["unit_cost"][p * MAX_UNITS + k]) for k in range(int(g["army_size"][p]))
    )
    limit = int(g["purchase_limit"])
    if tb.opt_army != ARMY_FREE and tables is not None:
        for _ in range(STRICT_STEPS):
            u = p * MAX_UNITS + slots[rng.integers(len(slots))]
            old = int(S["unit_cost"][0, u])
            room = limit - int(S["army_cost"][0, p]) + old
            o = _propose(tb, room, rng)
            if o < 0:
                continue
            keep = S["unit_member"][0, u].copy(), int(S["unit_n_members"][0, u])
            keep_s = S["unit_strength"][0, u].copy()
            keep_t = int(S["unit_type"][0, u]), int(S["unit_attack_type"][0, u])
            _set_piece(S, tb, u, o)
            try:
                army, items = state_army(S, 0, p), state_items(S, 0, p)
                cost = check_pieces(tables, army, int(tb.opt_army), limit, items)
                S["army_cost"][0, p] = cost
            except ValueError:  # refused: the slot keeps its piece
                S["unit_member"][0, u], S["unit_n_members"][0, u] = keep
                S["unit_strength"][0, u] = keep_s
                S["unit_cost"][0, u] = old
                S["unit_type"][0, u], S["unit_attack_type"][0, u] = keep_t
    else:
        cheapest = int(np.asarray(tb.of_cost[: int(tb.n_profiles)]).min())
        kept = sum(
            int(g["unit_cost"][p * MAX_UNITS + k])
            for k in range(int(g["army_size"][p]))
            if k not in slots
        )
        budget = limit - kept - items_cost
        for j, k in enumerate(slots):
            o = _propose(tb, budget - cheapest * (len(slots) - j - 1), rng)
            _set_piece(S, tb, p * MAX_UNITS + k, o)
            budget -= int(tb.of_cost[o])
    units = range(p * MAX_UNITS, p * MAX_UNITS + int(g["army_size"][p]))
    S["army_cost"][0, p] = items_cost + sum(int(S["unit_cost"][0, u]) for u in units)
    S["army_bought"][0, p, :n0] = 0
    for u in units:
        for m in range(MAX_MEMBERS):
            prof = int(S["unit_member"][0, u, m])
            if prof >= 0:
                S["army_bought"][0, p, prof] += 1
    if _may_hold_items(S, tb, p):
        _redraw_items(S, tb, p, rng)


def _may_hold_items(S, tb, p: int) -> bool:
    """Whether seat p's army may hold bought Items now: a random army with the `items` option
    (I40); a player's once its pieces are bought (R141)."""
    from envs.tactics_david.actions import STAGE_BUY, STAGE_BUY_STACK

    if not tb.opt_buy:
        return bool(tb.opt_items)
    stage, current = int(S["stage"][0]), int(S["current"][0])
    return not (current <= p and stage in (STAGE_BUY, STAGE_BUY_STACK))


def _redraw_items(S, tb, p: int, rng: np.random.Generator) -> None:
    """Items bought for seat p's reserve units (module docstring), by the kernels' rules."""
    from envs.tactics_david.setup import buy_item, item_buyable, item_fits

    b, p = np.int64(0), np.int64(p)
    units = [
        np.int64(u)
        for u in range(p * MAX_UNITS, p * MAX_UNITS + int(S["army_size"][0, p]))
        if S["unit_place"][0, u] == PLACE_RESERVE
    ]
    while rng.integers(ITEM_SHARE) != 0:
        fits = [i for i in range(int(tb.n_items)) if item_buyable(S, tb, b, p, np.int64(i))]
        if not fits:
            return
        i = np.int64(fits[rng.integers(len(fits))])
        takers = [u for u in units if item_fits(S, tb, b, u, i)]
        buy_item(S, tb, b, p, takers[rng.integers(len(takers))], i)


def _redraw_partial_piece(S, tb, p: int, rng: np.random.Generator) -> bool:
    """Seat p is buying a Stacked Unit (STAGE_BUY_STACK): the piece so far is hidden from
    the other seat, so it becomes a random top unit p may buy now, without lower members.
    Buying an Item (STAGE_BUY_ITEM_UNIT, R141): another Item p may buy now. False when there is
    none (the redrawn army leaves nothing to buy)."""
    from envs.tactics_david import kernels
    from envs.tactics_david.actions import (
        A_END,
        A_PIECE,
        MAX_LEGAL,
        STAGE_BUY,
        STAGE_BUY_ITEM,
        STAGE_BUY_ITEM_UNIT,
        STAGE_BUY_STACK,
    )

    stage = int(S["stage"][0])
    if stage not in (STAGE_BUY_STACK, STAGE_BUY_ITEM_UNIT) or S["current"][0] != p:
        return True
    S["stage"][0] = STAGE_BUY if stage == STAGE_BUY_STACK else STAGE_BUY_ITEM
    S["buy_n"][0] = 0
    S["buy_member"][0] = -1
    S["buy_item"][0] = -1
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = kernels.legal(S, tb, np.int64(0), out)
    picks = [int(a) - A_PIECE for a in out[:n] if a >= A_PIECE and a != A_END]
    if not picks:
        return False
    if stage == STAGE_BUY_STACK:
        S["buy_member"][0, 0] = picks[rng.integers(len(picks))]
        S["buy_n"][0] = 1
    else:
        S["buy_item"][0] = picks[rng.integers(len(picks))]
    S["stage"][0] = stage
    return True


def _known_slots(S: np.ndarray, p: int) -> dict[int, int]:
    """Seat p's Study knowledge (R116): seen card j -> its deck index, for each card p saw that
    is still within j of the top (observe.py shows exactly these)."""
    n = int(S["deck_count"][0])
    out = {}
    for j in range(2):
        seen = int(S["deck_seen"][0, p, j])
        for d in range(min(j + 1, n)):
            if seen >= 0 and int(S["deck"][0, n - 1 - d]) == seen:
                out[j] = n - 1 - d
    return out


def _known_positions(S: np.ndarray, p: int) -> set[int]:
    return set(_known_slots(S, p).values())


def _study_view(S: np.ndarray, p: int) -> set[tuple[int, int]]:
    """What seat p's observation shows of its Study knowledge (observe.py): each (j, d) where
    the card p saw j-th lies d <= j from the top."""
    n = int(S["deck_count"][0])
    return {
        (j, d)
        for j in range(2)
        for d in range(min(j + 1, n))
        if S["deck_seen"][0, p, j] >= 0 and S["deck"][0, n - 1 - d] == S["deck_seen"][0, p, j]
    }


def resample_hidden(
    S: np.ndarray, me: int, rng: np.random.Generator, tb, tables=None
) -> np.ndarray:
    """Another one-game state that `me` cannot tell apart from S (module docstring); S is a
    batch of one and is not changed. `tb` is the tables record (record.build_record); `tables`
    (tables.load_tables) lets a Strict army's redraw be checked (army.check_pieces)."""
    if me not in range(N_PLAYERS):
        raise ValueError(f"me must be seat 0 or 1, got {me}")
    original = S
    for _ in range(REDRAW_TRIES):
        S = original.copy()
        _redraw_reserve(S, tb, 1 - me, rng, tables)
        if _redraw_partial_piece(S, tb, 1 - me, rng):
            break
    else:  # no redraw leaves the piece or Item in progress a legal one: the reserve stays
        S = original.copy()
    n = int(S["deck_count"][0])
    # the Item Deck's order, but the cards `me` knows by Study where they are (R116); a second
    # card of one Item (a bought copy, R141) must not come where `me` would see it
    known = _known_positions(S, me)
    if S["stage"][0] == STAGE_ACQUIRE and S["current"][0] == me and n > 0:
        known.add(n - 1)  # the card `me` is acquiring: drawn, so `me` knows it (TD-12.2)
    free = [k for k in range(n) if k not in known]
    seen = _study_view(S, me)
    cards = np.sort(S["deck"][0, free])
    for _ in range(REDRAW_TRIES):
        S["deck"][0, free] = rng.permutation(cards)
        if _study_view(S, me) == seen:
            break
    else:
        S["deck"][0] = original["deck"][0]
    opp = 1 - me  # the other seat's Study knowledge: what now lies where its cards lay
    for j, k in sorted(_known_slots(S, opp).items()):
        S["deck_seen"][0, opp, j] = S["deck"][0, k]
    S["rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    S["agent_rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    return S
