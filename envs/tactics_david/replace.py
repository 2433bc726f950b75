"""Replacing a unit by another (the `replace_unit` effect kind, TD-22.2; R90, I39).

Raise Dead, Infect and Grave Riser bring a unit under this Player's control in place of a Dead
unit; Polymorph replaces a unit by another that stays with its owner. One kernel serves them:
``replace_unit(S, tb, b, row, src, v)``, called by ``effects._apply_effect`` (its one caller).

- The same owner (mode `owner`, or `this_player` on one of this Player's own units): the unit
  keeps its id, its army slot and its Purchase Cost (what was paid, I39), and takes the new
  unit's profile; Polymorph's unit is the same unit for the Turn (Engaged or not as before),
  a unit raised by this Player may not be Engaged this Turn (R90).
- Another owner (`this_player` on an enemy unit): the new unit takes a new slot of this
  Player's army (none free, or the unit is a Unit Team member whose partner shares its space:
  nothing happens, R95), costs nothing (it was not bought, I39), and may
  not be Engaged this Turn (Raise Dead's text, read for all three, R90); the old unit leaves
  the game as a removed unit (R53).
Either way the unit on the space is fresh: its Statuses and lasting effects are gone, its
Items go to the bottom of the Item Deck (I39), it leaves any Combat Lock, and it faces as
the old one did.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.setup import add_unit
from envs.tactics_david.state import MAX_UNITS, N_ITEM_SLOTS, N_STATUSES, PLACE_FIELD
from envs.tactics_david.units import deck_to_bottom, put, remove_from_game, side_of, unlock

MODE_THIS_PLAYER = ut.EFFECT_MODES["replace_unit"].index("this_player")


@njit  # two callers: effects._apply_effect, auras.answer_downgrade (tdabA)
def replace_unit(S, tb, b: int, row: int, src: int, v: int) -> int:
    """Unit v is replaced by a fresh unit of profile tb.r_unit[row] on its space (module
    docstring); returns the id of the unit now there (v, or the new one; v when nothing
    happens)."""
    prof = np.int64(tb.r_unit[row])
    if prof < 0 or S["unit_place"][b, v] != PLACE_FIELD:
        return v
    p = v // MAX_UNITS
    if tb.r_mode[row] == MODE_THIS_PLAYER:
        p = side_of(S, b, src)  # this Player: its controller (tdabI, R137)
    # the old unit's Items to the bottom of the deck, its lasting effects end
    for slot in range(N_ITEM_SLOTS):
        it = np.int64(S["unit_item"][b, v, slot])
        if it >= 0:
            S["unit_item"][b, v, slot] = -1
            deck_to_bottom(S, b, it)
    for k in range(S["fx_row"].shape[1]):
        if S["fx_unit"][b, k] == v:
            S["fx_row"][b, k] = -1
            S["fx_unit"][b, k] = -1
    unlock(S, b, v)
    w = v
    if p != v // MAX_UNITS:  # under another Player's control: a new unit of its army
        if S["army_size"][b, p] >= MAX_UNITS or S["unit_team"][b, v] >= 0:
            # no slot left, or a Team member: its partner's space cannot hold the other
            # Player's unit (TD-18.1, R95): nothing happens
            return v
        cell = np.int64(S["unit_cell"][b, v])
        facing = S["unit_facing"][b, v]
        remove_from_game(S, b, v)
        w = add_unit(S, tb, b, p, prof)
        S["army_cost"][b, p] -= S["unit_cost"][b, w]  # not bought (I39)
        S["unit_cost"][b, w] = 0
        put(S, b, w, cell)
        S["unit_facing"][b, w] = facing
        S["unit_engaged"][b, w] = 1  # not Engaged the Turn it comes (R90)
        return w
    for m in range(S["unit_member"].shape[2]):
        S["unit_member"][b, w, m] = -1
    S["unit_member"][b, w, 0] = prof
    S["unit_n_members"][b, w] = 1
    S["unit_shape"][b, w] = -1  # tdabC: no Nature Shape to undo (control.py)
    for s in range(4):
        S["unit_strength"][b, w, s] = tb.u_strength[prof, s]
    S["unit_type"][b, w] = tb.u_type[prof]
    S["unit_attack_type"][b, w] = tb.u_type[prof]
    for s in range(N_STATUSES):
        S["unit_status"][b, w, s] = 0
    if src != v:  # a unit replacing itself (Hatch) keeps its counters for its next rows
        for k in range(S["unit_uses"].shape[2]):
            S["unit_uses"][b, w, k] = 0
    S["unit_move_bonus"][b, w] = 0
    S["unit_no_reacquire"][b, w] = 0
    S["unit_kills"][b, w] = 0
    if tb.r_mode[row] == MODE_THIS_PLAYER:
        S["unit_engaged"][b, w] = 1  # not Engaged the Turn it comes (R90)
    return w
