"""Units on the battlefield and the Turn's frame (TD-4, TD-7, TD-10.3, TD-12.4, TD-20.15).

Small kernels the chapters share: placing and lifting units, the Dead Status, the Engagement's
end, the Turn's start and end, and the end of the game (Deathmatch, TD-4.2; the turn-limited
variant, I8; the safety cap, I13).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.actions import STAGE_ENGAGE, STAGE_GAME_OVER
from envs.tactics_david.state import (
    MAX_UNITS,
    N_PLAYERS,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
    STATUS_PERMANENT,
    TURN_CAP,
)


@njit
def is_dead(S, tb, b: int, u: int) -> bool:
    return S["unit_status"][b, u, tb.status_dead] != 0


@njit
def in_play(S, tb, b: int, u: int) -> bool:
    """On the battlefield and without the Dead Status."""
    return S["unit_place"][b, u] == PLACE_FIELD and S["unit_status"][b, u, tb.status_dead] == 0


@njit
def put(S, b: int, u: int, cell: int) -> None:
    """Stand unit u on an empty space (a Unit Team's second slot comes with TD-18)."""
    S["cell_unit"][b, cell, 0] = u
    S["unit_cell"][b, u] = cell
    S["unit_place"][b, u] = PLACE_FIELD


@njit
def move_to(S, b: int, u: int, cell: int) -> None:
    """Move unit u from its space to an empty space."""
    old = S["unit_cell"][b, u]
    if S["cell_unit"][b, old, 0] == u:
        S["cell_unit"][b, old, 0] = S["cell_unit"][b, old, 1]
        S["cell_unit"][b, old, 1] = -1
    elif S["cell_unit"][b, old, 1] == u:
        S["cell_unit"][b, old, 1] = -1
    S["cell_unit"][b, cell, 0] = u
    S["unit_cell"][b, u] = cell


@njit
def unlock(S, b: int, u: int) -> None:
    """End the Combat Lock unit u is in (both sides)."""
    v = S["unit_lock"][b, u]
    if v >= 0:
        S["unit_lock"][b, v] = -1
    S["unit_lock"][b, u] = -1


@njit
def kill(S, tb, b: int, u: int, killer_seat: int) -> None:
    """Unit u acquires the Dead Status (TD-10.3): it stays on its space, discards every other
    Status (TD-20.15) and leaves any Combat Lock. A kill of an enemy counts for Item
    Acquisition (TD-12.1)."""
    if S["unit_status"][b, u, tb.status_dead] != 0:
        return
    for s in range(N_STATUSES):
        S["unit_status"][b, u, s] = 0
    S["unit_status"][b, u, tb.status_dead] = STATUS_PERMANENT
    unlock(S, b, u)
    if killer_seat >= 0 and killer_seat != u // MAX_UNITS:
        S["kills_turn"][b, killer_seat] += 1


@njit
def finish(S, b: int, winner: int) -> None:
    """The game is over: winner (or -1 drawn) and the rewards."""
    S["winner"][b] = winner
    S["stage"][b] = STAGE_GAME_OVER
    S["engaged"][b] = -1
    for p in range(N_PLAYERS):
        if winner < 0:
            S["rewards"][b, p] = 0.0
        else:
            S["rewards"][b, p] = 1.0 if p == winner else -1.0


@njit
def deathmatch_over(S, tb, b: int) -> bool:
    """Deathmatch (TD-4.2): a player none of whose units is in play has lost; both at once is
    a draw. Ends the game and returns True when so."""
    alive = np.zeros(N_PLAYERS, dtype=np.int64)
    for u in range(N_UNIT_IDS):
        if in_play(S, tb, b, u):
            alive[u // MAX_UNITS] += 1
    if alive[0] > 0 and alive[1] > 0:
        return False
    if alive[0] == 0 and alive[1] == 0:
        finish(S, b, -1)
    else:
        finish(S, b, 0 if alive[0] > 0 else 1)
    return True


@njit
def begin_turn(S, tb, b: int, p: int) -> None:
    """Player p starts a Turn as the Attacking Player (TD-7.1, TD-12.4)."""
    S["turn"][b] += 1
    S["current"][b] = p
    S["engaged"][b] = -1
    for u in range(N_UNIT_IDS):
        S["unit_engaged"][b, u] = 0
        S["unit_moved"][b, u] = 0
        S["unit_fought"][b, u] = 0
        S["unit_no_combat"][b, u] = 0
    for q in range(N_PLAYERS):
        S["kills_turn"][b, q] = 0
    S["stage"][b] = STAGE_ENGAGE


@njit
def end_turn(S, tb, b: int) -> None:
    """End Player's Turn (TD-12.4): the other player's Turn begins, unless the turn-limited
    variant's last Turn was played (I8: the higher Purchase Cost of units in play wins) or the
    safety cap is reached (I13: a draw)."""
    turn = np.int64(S["turn"][b])
    limit = np.int64(tb.opt_turn_limit)
    if limit > 0 and turn >= limit:
        score = np.zeros(N_PLAYERS, dtype=np.int64)
        for u in range(N_UNIT_IDS):
            if in_play(S, tb, b, u):
                score[u // MAX_UNITS] += S["unit_cost"][b, u]
        if score[0] == score[1]:
            finish(S, b, -1)
        else:
            finish(S, b, 0 if score[0] > score[1] else 1)
        return
    if turn >= TURN_CAP:
        finish(S, b, -1)
        return
    begin_turn(S, tb, b, 1 - np.int64(S["current"][b]))


@njit
def disengage(S, tb, b: int) -> None:
    """End Unit Engagement (TD-7.3, TD-11.3): the player may Engage another unit, unless the
    game has just been won."""
    S["engaged"][b] = -1
    S["pending_target"][b] = -1
    if not deathmatch_over(S, tb, b):
        S["stage"][b] = STAGE_ENGAGE
