"""TACTICA Movement as numba kernels (docs/rules/tactica.md TT-B.7.3.1-7.3.2, TT-A.8.2,
TT-A.11.3-11.6, TT-A.13.3).

The chapter convention (begin_/legal_/apply_, envs/tactica/actions.py): the turn's first
player takes all their movement actions, then the other player (TT-B.7.0.2, I9). A player
left with nothing but A_PASS passes automatically; a player under MUD has no Movement at all.

Encodings of this chapter:

    stage                  action           meaning
    STAGE_MOVE_SELECT      A_HEX + h        the friendly troop (betrayer included) or summon on
                                            hex h takes its movement action; listed only if it
                                            has not moved and has a hex to end on
                           A_SACRIFICE + x  make sacrifice x of the Movement phase (Burrow,
                                            TT-A.13.3) before the summon's movement action
                           A_PASS           end one's Movement
    STAGE_MOVE_DEST        A_HEX + h        the hex the mover ends on (battlefield.
                                            reachable_hexes with troop_masks / summon_masks)
    STAGE_SACRIFICE_PAIR   A_CARD + n       the pair the sacrifice pays: two Barracks cards of
    (42, this module's)                     name n, one to LOST, one to RESUPPLY (TT-A.11.6,
                                            R18); asked only when two names could pay

STAGE_SACRIFICE_PAIR and the pair-paying code live in envs/tactica/sacrifice.py, shared with
the Combat chapter's sacrifices (Aegis, Tempest, Devour).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.actions import (
    A_CARD,
    A_HEX,
    A_PASS,
    A_SACRIFICE,
    STAGE_MOVE_DEST,
    STAGE_MOVE_SELECT,
)
from envs.tactica.battlefield import (
    NO_SEAT,
    has_destination,
    reachable_hexes,
    summon_masks,
    troop_masks,
)
from envs.tactica.combat import summon_move
from envs.tactica.muster import hex_blocks, next_player, troop_seat
from envs.tactica.piles import card_name, move_card
from envs.tactica.sacrifice import (
    STAGE_SACRIFICE_PAIR,
    has_pair,
    list_pairs,
    only_pair,
    pay_pair,
    sacrifice_allowed,
)
from envs.tactica.state import (
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_BATTLEFIELD,
    STAGE_PHASE_DONE,
)
from envs.tactica.tables import PHASE_MOVEMENT, SACRIFICE_EXTRA_MOVE


@njit
def _unit_arrays(S, tb, b: int, block: np.ndarray, unit_owner: np.ndarray) -> None:
    """The battlefield as battlefield.troop_masks / summon_masks read it: BLOCK landmarks and
    the seat (+ 1) of the troop or summon on each hex."""
    for y in range(MAX_HEXES):
        block[y] = hex_blocks(S, tb, b, y)
        c = S["hex_troop"][b, y]
        if c >= 0:
            unit_owner[y] = troop_seat(S, b, np.int64(c)) + 1
        elif S["hex_summon"][b, y] >= 0:
            unit_owner[y] = S["hex_summon"][b, y] + 1
        else:
            unit_owner[y] = NO_SEAT


@njit
def _unit_masks(S, tb, b: int, h: int, block, unit_owner, masks: np.ndarray) -> int:
    """Movement masks (masks[0] passable, [1] stops, [2] may end) of the troop or summon on
    hex h; returns how many steps it moves."""
    c = S["hex_troop"][b, h]
    if c >= 0:
        seat = troop_seat(S, b, np.int64(c))
        troop_masks(S["hex_feature"][b], block, unit_owner, seat + 1, masks[0], masks[1], masks[2])
        return np.int64(tb.troop_move[tb.card_troop[card_name(tb, np.int64(c))]])
    p = S["hex_summon"][b, h]
    summon_masks(S["hex_feature"][b], unit_owner, masks[0], masks[1], masks[2])
    face = S["summon_card_side"][b, p, S["summon_card"][b, p]]
    return summon_move(tb, np.int64(face), np.int64(S["move_sacrifice"][b, p]))


@njit
def _destinations(S, tb, neighbours: np.ndarray, b: int, h: int, dist: np.ndarray) -> int:
    """dist[y] > 0 where the troop or summon on hex h may end its move (TT-B.7.3.1-7.3.2,
    TT-A.11.3-11.5); returns how many such hexes."""
    block = np.empty(MAX_HEXES, dtype=np.bool_)
    unit_owner = np.empty(MAX_HEXES, dtype=np.int8)  # battlefield.py seats: seat + 1
    masks = np.empty((3, MAX_HEXES), dtype=np.bool_)
    _unit_arrays(S, tb, b, block, unit_owner)
    steps = _unit_masks(S, tb, b, h, block, unit_owner, masks)
    return reachable_hexes(neighbours, np.int64(h), steps, masks[0], masks[1], masks[2], dist)


@njit_inline
def _unmoved(S, b: int, h: int, p: int) -> bool:
    """Hex h holds a troop or summon of seat p that has not used its movement action."""
    c = S["hex_troop"][b, h]
    if c >= 0:
        return troop_seat(S, b, np.int64(c)) == p and not S["troop_moved"][b, c]
    return S["hex_summon"][b, h] == p and not S["summon_moved"][b, p]


@njit
def _movers(S, tb, neighbours: np.ndarray, b: int, p: int, out: np.ndarray, first: bool) -> int:
    """out[:n] = A_HEX + h for each hex h holding a unit of seat p that has not moved and has
    somewhere to go (increasing); n. With `first`, stops at the first one. The battlefield
    arrays are built once; the masks once for p's troops (they share a seat) and once for
    the summon, and each unit's search stops at its first destination."""
    block = np.empty(MAX_HEXES, dtype=np.bool_)
    unit_owner = np.empty(MAX_HEXES, dtype=np.int8)  # battlefield.py seats: seat + 1
    masks = np.empty((2, 3, MAX_HEXES), dtype=np.bool_)  # [troop, summon] masks
    troop_masks_built = False
    dist = np.empty(MAX_HEXES, dtype=np.int64)
    queue = np.empty(MAX_HEXES, dtype=np.int64)
    _unit_arrays(S, tb, b, block, unit_owner)
    n = 0
    for h in range(MAX_HEXES):
        if not _unmoved(S, b, h, p):
            continue
        c = S["hex_troop"][b, h]
        if c < 0:
            m = masks[1]
            steps = _unit_masks(S, tb, b, h, block, unit_owner, m)
        else:
            m = masks[0]
            if not troop_masks_built:  # a troop's masks depend only on its seat, p
                _unit_masks(S, tb, b, h, block, unit_owner, m)
                troop_masks_built = True
            steps = np.int64(tb.troop_move[tb.card_troop[card_name(tb, np.int64(c))]])
        if has_destination(neighbours, np.int64(h), steps, m[0], m[1], m[2], dist, queue):
            out[n] = A_HEX + h
            n += 1
            if first:
                break
    return np.int64(n)


@njit
def _sacrifice_ok(S, tb, b: int, p: int, x: int) -> bool:
    """TT-A.13.3, TT-A.11.6, TT-A.11.10: sacrifice x is a Movement one (Burrow) of p's summon
    on the battlefield, made before its movement action, at most one per turn, with a pair
    to pay."""
    if tb.sacrifice_phase[x] != PHASE_MOVEMENT or tb.sacrifice_effect[x] != SACRIFICE_EXTRA_MOVE:
        return False
    s = S["summon_card"][b, p]
    if s < 0 or S["summon_moved"][b, p]:
        return False
    if S["summon_card_side"][b, p, s] != tb.sacrifice_summon[x]:
        return False
    return sacrifice_allowed(S, tb, b, p) and has_pair(S, tb, b, p)


@njit_inline
def _select_options(S, tb, neighbours: np.ndarray, b: int, p: int, out: np.ndarray) -> int:
    """STAGE_MOVE_SELECT's legal actions for seat p, increasing, A_PASS last."""
    n = _movers(S, tb, neighbours, b, p, out, False)
    for x in range(tb.n_sacrifices):
        if _sacrifice_ok(S, tb, b, p, x):
            out[n] = A_SACRIFICE + x
            n += 1
    out[n] = A_PASS
    return np.int64(n + 1)


@njit_inline
def _can_act(S, tb, neighbours: np.ndarray, b: int, p: int, buf: np.ndarray) -> bool:
    """Seat p has a movement action besides passing (_select_options would list more than
    A_PASS), found without listing them all."""
    if _movers(S, tb, neighbours, b, p, buf, True) > 0:
        return True
    for x in range(tb.n_sacrifices):
        if _sacrifice_ok(S, tb, b, p, x):
            return True
    return False


@njit
def _move_next(S, tb, neighbours: np.ndarray, b: int) -> None:
    """Ask the current player's next movement action, or hand over / end (TT-B.7.0.2). MUD
    (TT-A.8.2, R37) takes away the whole Movement of the player it is enacted against."""
    S["move_from"][b] = -1
    buf = np.empty(A_PASS + 1, dtype=np.int16)
    while True:
        p = np.int64(S["current"][b])
        if not S["no_movement"][b, p] and _can_act(S, tb, neighbours, b, p, buf):
            S["stage"][b] = STAGE_MOVE_SELECT
            return
        if not next_player(S, b):
            S["stage"][b] = STAGE_PHASE_DONE
            return


@njit_inline
def begin_movement(S, tb, neighbours: np.ndarray, b: int) -> None:
    """Start the Movement phase of game b: every troop and summon has its movement action
    (TT-B.7.3.1; troops mustered this turn too). neighbours: geo.neighbours[bf]. Movement is
    the turn's first phase with sacrifices, so the per-turn sacrifice count starts here."""
    S["phase"][b] = PHASE_MOVEMENT
    for c in range(N_CARD_IDS):
        S["troop_moved"][b, c] = False
    for p in range(N_PLAYERS):
        S["summon_moved"][b, p] = False
        S["move_sacrifice"][b, p] = -1
        S["sacrifices_made"][b, p] = 0  # TT-A.11.10: one per summon per turn
    S["current"][b] = S["first_player"][b]
    _move_next(S, tb, neighbours, b)


@njit
def legal_movement(S, tb, neighbours: np.ndarray, b: int, out: np.ndarray) -> int:
    """The legal actions of game b's current Movement decision, increasing, into out[:n]."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_MOVE_SELECT:
        return _select_options(S, tb, neighbours, b, p, out)
    n = 0
    if stage == STAGE_MOVE_DEST:
        dist = np.zeros(MAX_HEXES, dtype=np.int64)
        _destinations(S, tb, neighbours, b, np.int64(S["move_from"][b]), dist)
        for h in range(MAX_HEXES):
            if dist[h] > 0:
                out[n] = A_HEX + h
                n += 1
    elif stage == STAGE_SACRIFICE_PAIR:
        n = list_pairs(S, tb, b, p, out)
    return np.int64(n)


@njit_inline
def apply_movement(S, tb, neighbours: np.ndarray, b: int, a: int) -> None:
    """Apply legal action a to game b's current Movement decision, then ask the next one."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_MOVE_SELECT:
        if a == A_PASS:
            if not next_player(S, b):
                S["stage"][b] = STAGE_PHASE_DONE
                return
        elif a < A_CARD:
            S["move_from"][b] = a - A_HEX
            S["stage"][b] = STAGE_MOVE_DEST
            return
        else:  # a sacrifice: it takes effect once its pair is paid (Burrow: +4 hexes)
            S["move_sacrifice"][b, p] = a - A_SACRIFICE
            name = only_pair(S, tb, b, p)
            if name < 0:
                S["stage"][b] = STAGE_SACRIFICE_PAIR
                return
            pay_pair(S, tb, b, p, name)  # one name only: nothing to choose
    elif stage == STAGE_MOVE_DEST:
        src = np.int64(S["move_from"][b])
        dst = np.int64(a - A_HEX)
        c = S["hex_troop"][b, src]
        if c >= 0:
            move_card(S, tb, b, np.int64(c), PLACE_BATTLEFIELD, dst)
            S["troop_moved"][b, c] = True
        else:
            S["hex_summon"][b, src] = -1
            S["hex_summon"][b, dst] = p
            S["summon_hex"][b, p] = dst
            S["summon_moved"][b, p] = True
    elif stage == STAGE_SACRIFICE_PAIR:
        pay_pair(S, tb, b, p, np.int64(a - A_CARD))
    _move_next(S, tb, neighbours, b)
