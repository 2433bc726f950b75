"""Statuses and death inside procedures (branch tdabD): the questions a rule asks of a player
while a Status or the Dead Status is being acquired in the middle of a procedure.

Unwavering (TD-22.2.18, R104): an ally within its radius that is acquiring Fearful may roll
1 D6 first; 3 or more and it does not acquire Fearful. `units.apply_status` (and the Team
partner's Fearful in `units.kill`) reach the acquisition from many procedures, so the
acquisition waits in ``S["gd_fear"]`` (units.fear_deferred: nothing of Fearful happens yet, not
even its discarding Enraged) and turn.step asks the unit's player at the next hand-off, as
Giant's Bread is asked (R74): ``ask_fear`` saves the stage and the hand-off it interrupts,
``answer_fear`` rolls (A_ABILITY) or not (A_END), gives the Status unless the roll kept it
away, and restores them.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit_inline
from envs.tactics_david.actions import A_ABILITY, STAGE_GAME_OVER, STAGE_PAUSE
from envs.tactics_david.effects import _roll, _roll_ok
from envs.tactics_david.state import MAX_UNITS, N_UNIT_IDS
from envs.tactics_david.units import apply_status, in_play


@njit_inline  # one caller (turn.step)
def ask_fear(S, tb, b: int, go: int) -> bool:
    """At a hand-off of turn.step: the first unit (id order) whose Fearful waits for its
    Unwavering roll is asked (STAGE_PAUSE, of its player: A_ABILITY roll, A_END acquire it),
    keeping the stage and the hand-off `go` it interrupts. A unit no longer in play forgets it;
    so does every unit once the game is over."""
    if S["gd_seat"][b] >= 0:
        return False
    over = S["stage"][b] == STAGE_GAME_OVER
    for u in range(N_UNIT_IDS):
        if S["gd_fear"][b, u] == 0:
            continue
        if over or not in_play(S, tb, b, u):
            S["gd_fear"][b, u] = 0
            continue
        S["gd_unit"][b] = u
        S["gd_seat"][b] = S["current"][b]
        S["gd_stage"][b] = S["stage"][b]
        S["gd_go"][b] = go
        S["current"][b] = u // MAX_UNITS
        S["stage"][b] = STAGE_PAUSE
        return True
    return False


@njit_inline  # one caller (turn.step)
def answer_fear(S, tb, b: int, a: int) -> int:
    """Roll the Unwavering die (A_ABILITY) or not (A_END); unless the roll met the row (1 D6
    of 3 or more) the unit acquires Fearful now, with every consequence of it
    (units.apply_status). Then the stage, seat and hand-off the question interrupted come back
    (the GO_* to run next)."""
    u = np.int64(S["gd_unit"][b])
    row = np.int64(S["gd_row"][b])
    turns = np.int64(S["gd_fear"][b, u])
    S["gd_fear"][b, u] = 0
    kept_away = False
    if a == A_ABILITY:
        kept_away = _roll_ok(S, tb, b, row, u, _roll(S, tb, b, row, u))
    if not kept_away:
        apply_status(S, tb, b, u, np.int64(tb.status_fearful), turns)
    S["gd_unit"][b] = -1
    S["current"][b] = S["gd_seat"][b]
    S["gd_seat"][b] = -1
    S["stage"][b] = S["gd_stage"][b]
    return np.int64(S["gd_go"][b])
