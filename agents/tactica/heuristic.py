"""A numba heuristic for TACTICA: scores each legal action from what the acting player may
know (its own Barracks, the public battlefield, walls and war points) and plays the best,
ties broken by the game's agent RNG (S["agent_rng"]).

The rules of thumb, by decision (stages of envs/tactica/actions.py):
- never surrender (STAGE_SURRENDER: pass);
- enact a decree when one is offered (a free effect), muster / train / play cards rather
  than pass, the more useful card first (CARD_VALUE);
- muster and move toward the enemy walls (losing walls loses battles), the hex closest to
  the nearest enemy wall or spire first;
- attack whenever a target is offered, join every attack (more OFF against the same DEF),
  play attacker, defender, Retreat and Negate cards when the window allows;
- discard the least useful card when the Barracks must shrink.
It reads no hidden field: only the legal list (which names its own Barracks cards) and the
public battlefield (walls and spires). Not modelled yet: attack only when total OFF > DEF
(it joins and declares every attack), defending its own walls, choosing between decrees.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import randint
from envs.tactica import kernels
from envs.tactica.actions import (
    A_CARD,
    A_DECREE,
    A_HEX,
    A_PASS,
    A_SACRIFICE,
    A_SURRENDER,
    N_CARD_NAMES,
    N_DECREES,
    N_SACRIFICES,
    STAGE_DISCARD,
    STAGE_MOVE_DEST,
    STAGE_MUSTER_HEX,
    STAGE_SURRENDER,
)
from envs.tactica.state import MAX_HEXES, MAX_WALLS

# usefulness of each draw-card name (tables.card_names order: Foot, Champion, Archer,
# Crossbow, Training, Press, Saved, Engineer, Spy, Negate, Retreat, Crown): what is mustered
# or played first and discarded last
CARD_VALUE = np.array([2, 6, 4, 4, 3, 4, 3, 2, 2, 3, 2, 1], dtype=np.int64)
NO_TARGET = 1000  # distance when the enemy has no wall or spire on the battlefield
# base scores of action kinds (higher is played first)
SCORE_PASS = 0
SCORE_ACT = 100  # doing something rather than passing
SCORE_NEVER = -1000  # surrender


@njit_inline
def _nearest_enemy_target(S, distance, b, me, h) -> int:
    """Distance from hex h to the nearest enemy wall or spire still on the battlefield
    (public: features stand face up, TT-B.2.5)."""
    foe = 1 - me
    best = NO_TARGET
    for w in range(MAX_WALLS):
        wh = S["wall_hex"][b, foe, w]
        if wh >= 0 and not S["wall_lost"][b, foe, w] and S["hex_feature_owner"][b, wh] == foe:
            d = distance[h, wh]
            if 0 <= d < best:
                best = d
    sh = S["spire_hex"][b, foe]
    if sh >= 0:
        d = distance[h, sh]
        if 0 <= d < best:
            best = d
    return best


@njit
def _score(S, distance, b, me, stage, a) -> int:
    """Score of legal action a at this decision (module docstring)."""
    if a == A_SURRENDER:
        return SCORE_NEVER
    if a == A_PASS:
        if stage == STAGE_SURRENDER or stage == STAGE_DISCARD:
            return SCORE_ACT  # fight on; keep cards when the Barracks may stay as it is
        return SCORE_PASS
    if stage == STAGE_DISCARD and A_CARD <= a < A_CARD + N_CARD_NAMES:
        return -CARD_VALUE[a - A_CARD]  # the least useful card goes
    if A_CARD <= a < A_CARD + N_CARD_NAMES:
        return SCORE_ACT + CARD_VALUE[a - A_CARD]
    if A_DECREE <= a < A_DECREE + N_DECREES:
        return SCORE_ACT
    if A_SACRIFICE <= a < A_SACRIFICE + N_SACRIFICES:
        return SCORE_ACT // 2
    if A_HEX <= a < A_HEX + MAX_HEXES:
        if stage == STAGE_MOVE_DEST or stage == STAGE_MUSTER_HEX:
            d = _nearest_enemy_target(S, distance, b, me, a)
            return SCORE_ACT - min(d, SCORE_ACT - 1)
        return SCORE_ACT  # attack a target, join an attack, move or muster a troop
    return SCORE_ACT  # a pile to draw from, a face: all alike to this heuristic


@njit
def heuristic_from_legal(S, distance, b, buf, n) -> int:
    """Best-scored action among buf[:n] (the legal list), ties uniform from the agent RNG.
    `distance` is the battle's hex distance table (Tables.battlefield.distance[bf])."""
    me = S["current"][b]
    stage = S["stage"][b]
    best = -(10**9)
    ties = 0
    choice = buf[0]
    for i in range(n):
        a = np.int64(buf[i])
        s = _score(S, distance, b, me, stage, a)
        if s > best:
            best = s
            ties = 1
            choice = a
        elif s == best:
            ties += 1
            if randint(S["agent_rng"], b, ties) == 0:  # reservoir: uniform among the ties
                choice = a
    return np.int64(choice)


@njit
def heuristic_action(S, tb, b, buf):
    """The heuristic's action for game b's current decision (lists the legal actions; the
    geometry comes from the tables record, envs/tactica/kernels.py)."""
    n = kernels.legal(S, tb, b, buf)
    return heuristic_from_legal(S, kernels.battlefield_distance(S, tb, b), b, buf, n)
