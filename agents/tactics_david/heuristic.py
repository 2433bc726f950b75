"""A numba heuristic for Tactics David: scores each legal action from what the acting player
may know (the public battlefield and its own army; R54) and plays the best, ties broken by the
game's agent RNG (S["agent_rng"]).

The rules of thumb, by decision (stages of envs/tactics_david/actions.py):
- army building (army_building=players): buy the dearest unit that may still be bought until
  none fits, single units only, no Items (A_END is preferred in STAGE_BUY_ITEM);
- take the first Turn; deploy each unit on the space of its Deployment area nearest to the
  enemy's Deployment area;
- Engage every unit before ending the Turn, the one nearest to an enemy first;
- in the Movement Phase, end as near to the nearest enemy unit as possible and face it: a
  Movement Procedure to the space nearest an enemy, a Facing Procedure toward it, End Movement
  Phase when neither gets nearer; a charge stops on the space nearest an enemy; no charges,
  Escapes or Whips of its own choosing;
- attack whenever an attack is offered (a strike with the unit's strongest side, a Ranged
  Attack on any target); a Magical Ranged Attack picks the target's weakest side;
- Items: equip an acquired Item, otherwise end the Item Phases; discard a Status when a
  "may discard" is asked.
Not modelled: the dice odds of an attack, terrain, Items' uses, protecting weak units.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_END,
    A_FACE,
    A_PIECE,
    A_SEAT,
    A_SIDE,
    A_STATUS,
    A_STRIKE,
    A_UNIT,
    STAGE_ACQUIRE,
    STAGE_BUY,
    STAGE_BUY_STACK,
    STAGE_CHARGE_DIST,
    STAGE_COMBAT,
    STAGE_DEPLOY_CELL,
    STAGE_EFFECT,
    STAGE_ENGAGE,
    STAGE_FIRST,
    STAGE_MOVE,
    STAGE_PAUSE,
    STAGE_RANGED_SIDE,
    STAGE_WHIP,
)
from envs.tactics_david.pause import PZ_LUCKY_ATTACK
from envs.tactics_david.state import MAX_CELLS, MAX_UNITS, N_STATUSES, PLACE_FIELD

FAR = 1000  # distance when there is no enemy unit on the battlefield
SCORE_NEVER = -(10**6)
SCORE_END = 0
SCORE_ACT = 10_000  # attacking, Engaging a unit: preferred to ending
DIST_WEIGHT = 10  # per step nearer the nearest enemy
FACE_BONUS = 3  # facing the nearest enemy
MOVE_BONUS = 2  # a Movement Procedure before the Facing Procedure may still face it


@njit
def _nearest_enemy(S, tb, b, me, c, cols):
    """(steps, space) from space c to the nearest enemy unit on the battlefield, not Dead
    (I11's orthogonal steps); (FAR, -1) when there is none."""
    best = np.int64(FAR)
    where = np.int64(-1)
    for v in range((1 - me) * MAX_UNITS, (2 - me) * MAX_UNITS):
        if S["unit_place"][b, v] != PLACE_FIELD or S["unit_status"][b, v, tb.status_dead] != 0:
            continue
        if S["unit_ctrl"][b, v] == me:  # Possessed by me this Turn (R137): not an enemy now
            continue
        w = np.int64(S["unit_cell"][b, v])
        d = abs(w // cols - c // cols) + abs(w % cols - c % cols)
        if d < best:
            best = d
            where = w
    return best, where


@njit
def _toward(c, w, cols):
    """The facing (FACE_N/E/S/W) from space c toward space w (the longer axis first)."""
    dr = w // cols - c // cols
    dc = w % cols - c % cols
    if abs(dr) >= abs(dc):
        return np.int64(0 if dr < 0 else 2)
    return np.int64(1 if dc > 0 else 3)


@njit
def _place_value(S, tb, b, me, c, facing, cols):
    """How good it is for a unit to stand on space c facing `facing`: near an enemy, facing it."""
    d, w = _nearest_enemy(S, tb, b, me, c, cols)
    v = -DIST_WEIGHT * d
    if w >= 0 and facing == _toward(c, w, cols):
        v += FACE_BONUS
    return v


@njit
def _deploy_value(tb, bf, me, c, cols, cells):
    """Minus the steps from space c to the nearest space of the enemy's Deployment area."""
    best = np.int64(FAR)
    for w in range(cells):
        if tb.bf_deploy[bf, w] == 1 - me:
            d = abs(w // cols - c // cols) + abs(w % cols - c % cols)
            if d < best:
                best = d
    return -best


@njit
def _score(S, tb, b, me, stage, a, cols, cells):
    """Score of legal action a at this decision (module docstring)."""
    u = np.int64(S["engaged"][b])
    if stage == STAGE_FIRST:
        return SCORE_ACT if a == A_SEAT + me else SCORE_END
    if stage == STAGE_BUY:  # buy while anything fits, the dearest unit first
        return SCORE_END if a == A_END else SCORE_ACT + tb.u_cost[a - A_PIECE]
    if stage == STAGE_BUY_STACK:  # no stacks of its own choosing
        return SCORE_ACT if a == A_END else SCORE_END
    if stage == STAGE_DEPLOY_CELL:
        return _deploy_value(tb, np.int64(S["battlefield"][b]), me, a - A_CELL, cols, cells)
    if stage == STAGE_ENGAGE:
        if a == A_END:
            return SCORE_END
        v = me * MAX_UNITS + (a - A_UNIT)
        if a < A_UNIT:  # a unit it Possessed this Turn, named by its space (R137)
            v = np.int64(S["cell_unit"][b, a - A_CELL, 0])
        d, _ = _nearest_enemy(S, tb, b, me, np.int64(S["unit_cell"][b, v]), cols)
        return SCORE_ACT - d
    if stage == STAGE_MOVE:
        here = np.int64(S["unit_cell"][b, u])
        facing = np.int64(S["unit_facing"][b, u])
        if a == A_END:
            return _place_value(S, tb, b, me, here, facing, cols)
        if a < A_UNIT:  # a Movement Procedure ending on a - A_CELL, facing as it is
            c = a - A_CELL
            bonus = MOVE_BONUS if not S["eng_faced"][b] else 0
            return _place_value(S, tb, b, me, c, facing, cols) - FACE_BONUS + bonus
        if A_FACE <= a < A_FACE + 4:
            return _place_value(S, tb, b, me, here, a - A_FACE, cols)
        return SCORE_NEVER  # charge, Escape, Whip: not of its own choosing
    if stage == STAGE_CHARGE_DIST or stage == STAGE_WHIP:
        if a == A_END:
            mover = u if stage == STAGE_CHARGE_DIST else np.int64(S["whip_unit"][b])
            return -DIST_WEIGHT * _nearest_enemy(S, tb, b, me, S["unit_cell"][b, mover], cols)[0]
        return -DIST_WEIGHT * _nearest_enemy(S, tb, b, me, a - A_CELL, cols)[0]
    if stage == STAGE_COMBAT:
        if a == A_END:
            return SCORE_END
        if A_STRIKE <= a < A_STRIKE + 4:
            return SCORE_ACT + S["unit_strength"][b, u, a - A_STRIKE]
        return SCORE_ACT  # a Ranged Attack
    if stage == STAGE_RANGED_SIDE:
        c = np.int64(S["pending_target"][b])
        v = np.int64(S["cell_unit"][b, c, 0]) if c >= 0 else -1
        if v >= 0:
            return -S["unit_strength"][b, v, a - A_SIDE]
        return SCORE_END
    if stage == STAGE_ACQUIRE:
        return SCORE_END if a == A_END else SCORE_ACT
    if stage == STAGE_EFFECT:  # discard a Status; take an aura's offer (tdabA: A_ABILITY, A_SIDE)
        if a == A_ABILITY or (a >= A_SIDE and a < A_SIDE + 4):
            return SCORE_ACT
        return SCORE_ACT if a >= A_STATUS and a < A_STATUS + N_STATUSES else SCORE_END
    if stage == STAGE_PAUSE:  # a simple rule: reroll a failed attack only; else use it
        if S["pz_at"][b] == PZ_LUCKY_ATTACK and S["pz_att"][b] > S["pz_dfn"][b]:
            return SCORE_ACT if a == A_END else SCORE_END
        return SCORE_END if a == A_END else SCORE_ACT
    # Item Phases, Trade, Loot, Item targets: end when it may, else anything
    return SCORE_ACT if a == A_END else SCORE_END


@njit
def heuristic_from_legal(S, tb, b, buf, n):
    """Best-scored action among buf[:n] (the legal list), ties uniform from the agent RNG."""
    me = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    cells = min(np.int64(tb.bf_rows[bf]) * cols, MAX_CELLS)
    best = np.int64(-(10**9))
    ties = 0
    choice = np.int64(buf[0])
    for i in range(n):
        a = np.int64(buf[i])
        s = np.int64(_score(S, tb, b, me, stage, a, cols, cells))
        if s > best:
            best = s
            ties = 1
            choice = a
        elif s == best:
            ties += 1
            if randint(S["agent_rng"], b, ties) == 0:  # reservoir: uniform among the ties
                choice = a
    return choice
