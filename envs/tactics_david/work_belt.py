"""tdabG: Work Belt (TD-22.2.57, R109, R123): a second Item slot per Type.

``S["unit_item"][b, u, s]`` has N_ITEM_SLOTS = 2 * N_ITEM_TYPES slots: slot s holds an Item of
Type s % N_ITEM_TYPES, the first slot of Type t is t and the second is t + N_ITEM_TYPES. Every
reader of a unit's Items loops over all its slots (the strength bonuses add, item_sum; the
first slot's Weapon or Accessory decides a single value, R123), so only the places that PUT an
Item somewhere ask how many slots of a Type the unit has (``capacity``: 2 with Work Belt,
PERM_ITEM_BELT, else 1) and which one is free (``free_slot``).

Actions naming a second slot (actions.py, A_BELT): ``slot_action`` / ``action_slot`` turn a
slot into the action that names it and back (A_TRADE + t or A_SIDE + t name the first slot of
Type t, A_BELT + t the second); ``trade_action`` / ``trade_slots`` the Trade's pairs of slots.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.actions import A_BELT, A_TRADE
from envs.tactics_david.record import PERM_ITEM_BELT
from envs.tactics_david.state import N_ITEM_TYPES
from envs.tactics_david.units import has_permission


@njit
def capacity(S, tb, b: int, u: int) -> int:
    """How many Items of each Type unit u may hold: 2 with an acting Work Belt, else 1
    (TD-19.1). An Item it holds beyond that (its Work Belt gone) stays (R109)."""
    if has_permission(S, tb, b, u, PERM_ITEM_BELT):
        return np.int64(2)
    return np.int64(1)


@njit
def free_slot(S, tb, b: int, u: int, t: int) -> int:
    """The first empty slot of Type t unit u may fill now, -1 if none."""
    for k in range(capacity(S, tb, b, u)):
        s = t + k * N_ITEM_TYPES
        if S["unit_item"][b, u, s] < 0:
            return np.int64(s)
    return np.int64(-1)


@njit
def held_slot(S, b: int, u: int, i: int) -> int:
    """The first slot of unit u holding Item i, -1 if none."""
    for s in range(S["unit_item"].shape[2]):
        if S["unit_item"][b, u, s] == i:
            return np.int64(s)
    return np.int64(-1)


@njit
def slot_action(s: int, base: int) -> int:
    """The action naming slot s where `base` + t names the first slot of Type t."""
    if s < N_ITEM_TYPES:
        return np.int64(base + s)
    return np.int64(A_BELT + s - N_ITEM_TYPES)


@njit
def action_slot(a: int, base: int) -> int:
    """The slot action a names (slot_action's inverse)."""
    if a >= A_BELT:
        return np.int64(a - A_BELT + N_ITEM_TYPES)
    return np.int64(a - base)


@njit
def trade_action(t: int, j: int) -> int:
    """The Trade action for Type t and pair j: bit 0 the Engaged unit's second slot, bit 1 the
    partner's second slot (j = 0: both first slots, A_TRADE + t)."""
    if j == 0:
        return np.int64(A_TRADE + t)
    return np.int64(A_BELT + (j - 1) * N_ITEM_TYPES + t)


@njit
def trade_slots(a: int):
    """(the Engaged unit's slot, the partner's slot) a Trade action exchanges."""
    if a < A_BELT:
        t = np.int64(a - A_TRADE)
        return t, t
    j = np.int64((a - A_BELT) // N_ITEM_TYPES + 1)
    t = np.int64((a - A_BELT) % N_ITEM_TYPES)
    return t + (j & 1) * N_ITEM_TYPES, t + (j >> 1) * N_ITEM_TYPES
