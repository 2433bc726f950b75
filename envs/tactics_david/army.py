"""Army building (TD-6, TD-17): the army types, the pieces an army may buy and the check of a
whole army, in plain Python.

A *piece* is what one army slot holds: a single unit of units.yaml or a Stacked Unit (2-3
members, TD-17). `offers(tables)` lists every piece the rules allow, singles first (piece i =
units.yaml row i), then every legal stack (R70: a unit may stack with another of its own kind,
0 Lines of Lineage apart; a stack is named top first, its lower members in units.yaml order,
since only the top member's profile matters, TD-17.4). record.py copies the list into the
tables record (`tb.of_*`), where setup.random_army draws armies from it.

`check_army(tables, army, army_type, limit, items)` checks a whole army, its bought Items
included, and raises ValueError naming the rule it breaks (TD-6.x, TD-17.x, TD-19.x); the
kernels' random armies are tested against it. An army's Items are (piece index, Item) pairs:
each Item is a copy bought for that piece at its Purchase Cost (TD-6.1.1, R141), which must be
one of its Users (TD-19.3) and holds one Item of each Type (TD-19.1, TD-17.5; two with Work
Belt, R109). This is the plain-Python reference; the kernels ask items.may_equip and
work_belt.free_slot (setup.item_fits).

Army types (the `army` option, TD-6.2; the Strict rules TD-6.3-6.5 hold for all but `free`):

| type   | rules |
|--------|-------|
| free   | any pieces within the purchase limit (TD-6.1) |
| mixed  | the Strict rules (TD-6.6) |
| themed | Strict, and every unit's parent on the unit tree is in the army (TD-6.7, I5) |
| family | Strict, and every unit from one Root family (TD-6.8, I5) |
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import numpy as np

from envs.tactics_david.reference import stack_strengths
from envs.tactics_david.tables import Tables

ARMY_TYPES = ("free", "mixed", "themed", "family")
ARMY_FREE, ARMY_MIXED, ARMY_THEMED, ARMY_FAMILY = range(4)
ARMY_BUILDING = ("random", "players")  # the `army_building` option: drawn, or decisions
STACK_CHOICES = ("none", "random")  # the `stacks` option: random armies hold no stacks, or some
# one purchase in STACK_SHARE is a Stacked Unit when stacks are drawn (I25)
STACK_SHARE = 4
# the `items` option: random armies buy Items too (the seed's armies, TD-6.1.1), or none
ITEM_CHOICES = ("random", "none")
# one purchase in ITEM_SHARE is an Item when Items are drawn (I40)
ITEM_SHARE = 4


def offers(tables: Tables) -> list[tuple[int, ...]]:
    """Every piece an army may buy, as units.yaml rows top first (module docstring)."""
    u = tables.units
    n = len(u.unit_names)
    points = tables.class_stacking_points[u.unit_class].astype(int)
    limit = int(tables.rules.stacking_points_max)
    near = int(tables.rules.stack_lineage_max)
    idx = np.array([tables.tree_index[name] for name in u.unit_names])
    lin = tables.lineage[np.ix_(idx, idx)].astype(int)
    close = (lin >= 0) & (lin <= near)
    out: list[tuple[int, ...]] = [(i,) for i in range(n)]
    for top in range(n):
        for i in np.flatnonzero(close[top] & (points[top] + points <= limit)):
            out.append((top, int(i)))
    for top in range(n):
        # the lower two members i <= j: each pair close, 3 stacking points at most
        cand = np.flatnonzero(close[top] & (points[top] + points < limit))
        for a, i in enumerate(cand):
            for j in cand[a:]:
                if points[top] + points[i] + points[j] <= limit and close[i, j]:
                    out.append((top, int(i), int(j)))
    return out


def piece_cost(tables: Tables, piece: Sequence[int]) -> int:
    """Purchase Cost of a piece (rows top first): a unit's, or a stack's sum + 6/+12 (TD-17.3)."""
    u = tables.units
    if len(piece) == 1:
        return int(u.cost[piece[0]])
    return sum(int(u.cost[i]) for i in piece) + int(tables.rules.stack_cost_bonus[len(piece)])


def piece_class(tables: Tables, piece: Sequence[int]) -> int:
    """0 Light, 1 Medium or Medium Stacked, 2 Heavy or Heavy Stacked (stacks by their stacking
    points, R4)."""
    u = tables.units
    if len(piece) == 1:
        return int(u.unit_class[piece[0]])
    points = sum(int(tables.class_stacking_points[u.unit_class[i]]) for i in piece)
    return 1 if points == 2 else 2


def _names(tables: Tables, piece: Sequence[int]) -> str:
    return " + ".join(tables.units.unit_names[i] for i in piece)


def check_army(
    tables: Tables,
    army: Sequence[Sequence[str]],
    army_type: str = "free",
    limit: int = 100,
    items: Sequence[tuple[int, str]] = (),
) -> int:
    """Check an army (pieces, each a list of unit names top first, and its bought Items as
    (piece index, Item name) pairs) under `army_type` and the purchase `limit`; its total
    Purchase Cost. Raises ValueError naming the rule broken."""
    if army_type not in ARMY_TYPES:
        raise ValueError(f"TD-6.2: army type {army_type!r} is not one of {ARMY_TYPES}")
    u = tables.units
    pieces: list[tuple[int, ...]] = []
    for k, piece in enumerate(army):
        if not 1 <= len(piece) <= 3:
            raise ValueError(f"TD-17.1: piece {k} has {len(piece)} units; a stack holds 2 or 3")
        for name in piece:
            if name not in u.unit_index:
                raise ValueError(f"TD-6.1: piece {k}: unknown unit {name!r}")
        if len(piece) > 1:
            try:
                stack_strengths(tables, list(reversed(piece)))  # bottom first there
            except ValueError as err:
                raise ValueError(f"TD-17.1/17.2: piece {k} ({' + '.join(piece)}): {err}") from err
        pieces.append(tuple(int(u.unit_index[name]) for name in piece))
    bought = []
    for k, (piece, name) in enumerate(items):
        if name not in tables.item_index:
            raise ValueError(f"TD-6.1.1: bought Item {k}: unknown Item {name!r}")
        bought.append((piece, int(tables.item_index[name])))
    return check_pieces(tables, pieces, ARMY_TYPES.index(army_type), limit, bought)


def item_users_allow(tables: Tables, piece: Sequence[int], item: int) -> bool:
    """TD-19.3 in plain Python (items.may_equip in the kernels): the piece's class (a stack's by
    R4) is among the Item's Users, and the Rod of Hailfire's Unit Type and Attack Mode are its
    top unit's ("Magical Ranged Unit")."""
    u = tables.units
    top = piece[0]
    want_type = int(tables.item_user_unit_type[item])
    want_mode = int(tables.item_user_attack_mode[item])
    return (
        bool(tables.item_users[item, piece_class(tables, piece)])
        and (want_type < 0 or int(u.unit_type[top]) == want_type)
        and (want_mode < 0 or int(u.attack_mode[top]) == want_mode)
    )


def item_capacity(tables: Tables, piece: Sequence[int]) -> int:
    """Items of each Type a piece may hold (TD-19.1, TD-17.5): 2 when a member has Work Belt
    (an `item` `capacity_two` row, R109), else 1 (work_belt.capacity in the kernels)."""
    from envs.tactics_david import unit_tables as ut

    u = tables.units
    belt = (ut.EFFECT_KINDS.index("item"), ut.EFFECT_MODE_NAMES.index("capacity_two"))
    for m in piece:
        for e in range(int(u.effect_offset[m]), int(u.effect_offset[m + 1])):
            if (int(u.eff_kind[e]), int(u.eff_mode[e])) == belt:
                return 2
    return 1


def _check_items(tables: Tables, pieces, items) -> int:
    """The bought Items of check_pieces (module docstring); their Purchase Cost."""
    held: Counter[tuple[int, int]] = Counter()
    for k, (j, i) in enumerate(items):
        if not 0 <= j < len(pieces) or not 0 <= i < len(tables.item_names):
            raise ValueError(f"TD-6.1.1: bought Item {k} ({j}, {i}) names no piece or Item")
        name = tables.item_names[i]
        if not item_users_allow(tables, pieces[j], i):
            raise ValueError(
                f"TD-19.3: {name} bought for piece {j} ({_names(tables, pieces[j])}), not one"
                " of its Users"
            )
        kind = int(tables.item_type[i])
        held[j, kind] += 1
        if held[j, kind] > item_capacity(tables, pieces[j]):
            raise ValueError(
                f"TD-19.1/17.5: piece {j} ({_names(tables, pieces[j])}) holds"
                f" {held[j, kind]} Items of one Type (one of each, two with Work Belt)"
            )
    return sum(int(tables.item_cost[i]) for _, i in items)


def check_pieces(
    tables: Tables,
    pieces: Sequence[Sequence[int]],
    army_type: int,
    limit: int,
    items: Sequence[tuple[int, int]] = (),
):
    """check_army on pieces given as units.yaml rows top first (stacks assumed legal) and Items
    as (piece index, items.yaml row) pairs; the army's Purchase Cost, Items included."""
    u = tables.units
    cost = sum(piece_cost(tables, p) for p in pieces) + _check_items(tables, pieces, items)
    if cost > limit:
        raise ValueError(f"TD-6.1: the army costs {cost}, over its purchase limit {limit}")
    if army_type == ARMY_FREE:
        return cost
    rules = tables.rules
    copies = Counter(i for p in pieces for i in p)
    for i, n in copies.items():
        if n > rules.strict_max_copies:
            raise ValueError(
                f"TD-6.5 (Strict): {n} copies of {u.unit_names[i]}, at most"
                f" {rules.strict_max_copies}"
            )
    classes = Counter(piece_class(tables, p) for p in pieces)
    lights = sum(1 for p in pieces if len(p) == 1 and u.unit_class[p[0]] == 0)
    if lights < rules.strict_lights_per_medium * classes[1]:
        raise ValueError(
            f"TD-6.4 (Strict): {classes[1]} Medium (or Medium Stacked) Units need"
            f" {rules.strict_lights_per_medium * classes[1]} Light Units, the army has {lights}"
        )
    if classes[1] < rules.strict_mediums_per_heavy * classes[2]:
        raise ValueError(
            f"TD-6.4 (Strict): {classes[2]} Heavy (or Heavy Stacked) Units need"
            f" {rules.strict_mediums_per_heavy * classes[2]} Medium Units, the army has"
            f" {classes[1]}"
        )
    family = [int(tables.tree_family[tables.tree_index[name]]) for name in u.unit_names]
    for p in pieces:
        for i in p:
            root = tables.tree_names[tables.family_root[family[i]]]
            if copies[u.unit_index[root]] == 0:
                raise ValueError(
                    f"TD-6.3 (Strict): {u.unit_names[i]} needs its Root Unit {root} in the army"
                )
    if army_type == ARMY_THEMED:
        for p in pieces:
            for i in p:
                parent = int(tables.tree_parent[tables.tree_index[u.unit_names[i]]])
                if parent >= 0 and copies[u.unit_index[tables.tree_names[parent]]] == 0:
                    raise ValueError(
                        f"TD-6.7 (Themed): {u.unit_names[i]} needs its parent"
                        f" {tables.tree_names[parent]} in the army"
                    )
    if army_type == ARMY_FAMILY:
        fams = {family[i] for p in pieces for i in p}
        if len(fams) > 1:
            names = sorted(tables.family_names[f] for f in fams)
            raise ValueError(f"TD-6.8 (Family): units of {len(fams)} families {names}")
    return cost


def _bought_units(S: np.ndarray, b: int, p: int) -> list[int]:
    """Seat p's bought units' ids; not a unit an ability brought into play under its control,
    which was not bought (cost 0, I39)."""
    from envs.tactics_david.state import MAX_UNITS, PLACE_NONE

    out = []
    for k in range(int(S["army_size"][b, p])):
        u = p * MAX_UNITS + k
        if S["unit_place"][b, u] != PLACE_NONE and S["unit_cost"][b, u] != 0:
            out.append(u)
    return out


def state_army(S: np.ndarray, b: int, p: int) -> list[tuple[int, ...]]:
    """Seat p's pieces in game b of a state batch, as units.yaml rows top first (its bought
    units, _bought_units)."""
    return [tuple(int(m) for m in S["unit_member"][b, u] if m >= 0) for u in _bought_units(S, b, p)]


def state_items(S: np.ndarray, b: int, p: int) -> list[tuple[int, int]]:
    """The Items seat p's pieces hold in game b, as check_pieces' (index in state_army's list,
    items.yaml row) pairs: before the first Turn, the Items the army bought (R141)."""
    return [
        (j, int(i))
        for j, u in enumerate(_bought_units(S, b, p))
        for i in S["unit_item"][b, u]
        if i >= 0
    ]
