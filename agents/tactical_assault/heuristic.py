"""A numba heuristic for Tactical Assault: scores each legal action from what the acting
player may know (its own hand, the public units and ground, the scenario's tables) and plays
the best, ties broken by the game's agent RNG (S["agent_rng"]).

Rules of thumb, by decision (stages of envs/tactical_assault/actions.py):
- forces by points: add the strongest type that fits (melee + ranged + protection levels per
  point), never stop while a unit fits;
- the objective: an exit zone for the side that wins by leaving the map, else a zone to hold
  when the scenario has some (both sides go there: one side holds, the other contests), else
  the nearest enemy unit; deploy, move and choose zones to get closer to it, take the exit;
- play a card rather than pass: attacks first, then recovery, defence and moves
  (KIND_VALUE of its effect steps); answer every play window a Situation fits;
- a card goes on the unit that uses it best: attacks on the strongest attacker of that kind,
  moves on the unit furthest from the objective; attacks go at the most valuable, least
  protected target; face the side that sees the most enemy units;
- discard every card left at the end of the turn (fresh cards); join every "all available"
  attack.
It reads no hidden field: only the legal list, its own hand (through the legal list), the
public units and the tables record.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint
from envs.tactical_assault.actions import (
    A_ACTION,
    A_EXIT,
    A_FACING,
    A_PASS,
    A_POS,
    A_SITUATION,
    A_UNIT,
    STAGE_CHOOSE_FORCE,
    STAGE_DISCARD,
    STAGE_FACING,
    STAGE_MAIN,
    STAGE_MOVE,
    STAGE_PLAY_UNIT,
    STAGE_TARGET,
    STAGE_VOLLEY,
    STAGE_WINDOW,
)
from envs.tactical_assault.state import MAX_UNITS, STATUS_SHAKEN, WHERE_ON
from envs.tactical_assault.tables import MAX_STEPS

# value of a card by the kinds of its effect steps (fantasy_cards.tables.EFFECT_KINDS order:
# move, melee, ranged, target point, aerial, recover, back in action, infiltrate, pass along,
# remove obstacle, change facing, cancel, shift attack); a card is worth its best step
KIND_VALUE = np.array([40, 70, 70, 60, 60, 50, 50, 40, 20, 15, 10, 45, 45], dtype=np.int64)
KIND_MOVE = 0
KIND_MELEE = 1
KIND_RANGED = 2
FAR = 10_000  # distance when there is no objective
SCORE_PASS = 0
SCORE_ACT = 1000  # doing something rather than passing


@njit
def _friend_at(S, b, p, z, self_u):
    """A unit of seat p other than self_u stands at position z."""
    for v in range(MAX_UNITS):
        if v != self_u and S["unit_side"][b, v] == p and S["unit_where"][b, v] == WHERE_ON:
            if S["unit_pos"][b, v] == z:
                return True
    return False


@njit
def objective_distance(S, tb, b, p, z, self_u):
    """Zones from position z to seat p's objective for unit self_u (module docstring): the
    nearest exit zone (the exiting side), else the nearest zone to hold that no other unit of
    p stands in, else the nearest enemy unit; FAR if none."""
    best = FAR
    if tb.vc_exit_side == p:
        for e in range(tb.g_n_pos):
            if tb.vc_exit[e] and tb.g_dist[z, e] < best:
                best = tb.g_dist[z, e]
        return best
    for h in range(tb.g_n_pos):
        if tb.vc_hold[h] and tb.g_dist[z, h] < best and not _friend_at(S, b, p, h, self_u):
            best = tb.g_dist[z, h]
    if best < FAR:
        return best
    for v in range(MAX_UNITS):
        if S["unit_side"][b, v] == 1 - p and S["unit_where"][b, v] == WHERE_ON:
            d = tb.g_dist[z, S["unit_pos"][b, v]]
            if d < best:
                best = d
    return best


@njit
def _card_value(tb, play):
    best = 0
    for j in range(MAX_STEPS):
        k = tb.step_kind[play, j]
        if k >= 0 and KIND_VALUE[k] > best:
            best = KIND_VALUE[k]
    return best


@njit
def _has_kind(tb, play, kind):
    for j in range(MAX_STEPS):
        if tb.step_kind[play, j] == kind:
            return True
    return False


@njit
def _sel_play(S, tb, b):
    k = np.int64(S["sel_card"][b])
    if S["sel_part"][b] == 0:  # PART_ACTION
        return np.int64(tb.card_action[k])
    return np.int64(tb.card_situation[k])


@njit
def _unit_for_play(S, tb, b, p, play, u):
    """How well unit u uses the chosen card part."""
    t = np.int64(S["unit_type"][b, u])
    if _has_kind(tb, play, KIND_MELEE):
        return np.int64(tb.type_melee[t]) * 10 + np.int64(tb.type_protection[t])
    if _has_kind(tb, play, KIND_RANGED):
        return np.int64(tb.type_ranged[t]) * 10 + np.int64(tb.type_protection[t])
    if _has_kind(tb, play, KIND_MOVE) and S["unit_where"][b, u] == WHERE_ON:
        d = objective_distance(S, tb, b, p, np.int64(S["unit_pos"][b, u]), u)
        return 0 if d == 0 else 200 - min(d, 199)  # the nearest unit not yet there first
    return 0


@njit
def _enemies_in_arc(S, tb, b, p, pos, f):
    n = 0
    for v in range(MAX_UNITS):
        if S["unit_side"][b, v] == 1 - p and S["unit_where"][b, v] == WHERE_ON:
            if tb.g_arc[pos, f, S["unit_pos"][b, v]]:
                n += 1
    return n


@njit
def _type_value(tb, t):
    """What a Table 3 type is worth in a force chosen by points: its ranged rating times its
    reach (fire from afar every turn a Fire card comes), then melee and protection; 0 for a
    type that cannot fight (an Obstacle)."""
    if tb.type_protection[t] == 0:
        return 0  # an Obstacle: never attacked, never fights
    reach = np.int64(tb.type_range[t]) + 1  # -1 (none) .. 4 (Very Long) -> 0 .. 5
    return (
        10 * np.int64(tb.type_ranged[t]) * reach
        + 3 * np.int64(tb.type_melee[t])
        + 3 * np.int64(tb.type_protection[t])
    )


@njit
def _score(S, tb, b, p, stage, a):
    """Score of legal action a at this decision (module docstring)."""
    if a == A_EXIT:
        return 10 * SCORE_ACT
    if stage == STAGE_CHOOSE_FORCE:
        if a == A_PASS:
            return SCORE_PASS
        return SCORE_ACT + _type_value(tb, a - A_UNIT)
    if stage == STAGE_DISCARD:
        # every card left found no use for its Action this turn and would clog the hand:
        # discard them all and draw six fresh (keeping those whose Situation answers an
        # attack won fewer games: 10 % against 25 % as the Raiders of Crossroads of Hallin)
        return SCORE_ACT if a == A_PASS else SCORE_ACT + 1
    if stage == STAGE_MAIN or stage == STAGE_WINDOW:
        if a == A_PASS:
            return SCORE_PASS
        if a < A_SITUATION:
            return SCORE_ACT + _card_value(tb, np.int64(tb.card_action[a - A_ACTION]))
        v = _card_value(tb, np.int64(tb.card_situation[a - A_SITUATION]))
        if stage == STAGE_MAIN:
            return SCORE_ACT + v - 100  # Actions first: Situations also answer windows
        return SCORE_ACT + v
    if stage == STAGE_PLAY_UNIT:
        return SCORE_ACT + _unit_for_play(S, tb, b, p, _sel_play(S, tb, b), a - A_UNIT)
    if stage == STAGE_TARGET:
        v = a - A_UNIT
        t = np.int64(S["unit_type"][b, v])
        s = SCORE_ACT + 10 * np.int64(tb.type_points[t]) - 3 * np.int64(tb.type_protection[t])
        if S["unit_status"][b, v] & STATUS_SHAKEN:
            s += 5
        if S["unit_where"][b, v] == WHERE_ON and tb.vc_hold[S["unit_pos"][b, v]]:
            s += 100  # it stands in a zone to hold: clear it (or keep it)
        return s
    if stage == STAGE_VOLLEY:
        return SCORE_PASS if a == A_PASS else SCORE_ACT
    if stage == STAGE_FACING:
        u = np.int64(S["sel_unit"][b])
        pos = np.int64(S["unit_pos"][b, u])
        f = a - A_FACING
        s = SCORE_ACT + 100 * _enemies_in_arc(S, tb, b, p, pos, f)
        y = tb.g_neighbour[pos, f]
        if y >= 0:
            s -= min(objective_distance(S, tb, b, p, np.int64(y), u), 99)
        return s
    if stage == STAGE_MOVE:
        i = np.int64(S["depth"][b]) - 1
        u = np.int64(S["fr_unit"][b, i])
        ln = np.int64(S["mv_len"][b, i])  # the path declared so far ends here (FC R41)
        end = np.int64(S["mv_path"][b, i, ln - 1]) if ln > 0 else np.int64(S["unit_pos"][b, u])
        if a == A_PASS:  # the path ends unless a zone gets closer
            return SCORE_ACT - 2 * objective_distance(S, tb, b, p, end, u)
        return SCORE_ACT - 2 * objective_distance(S, tb, b, p, np.int64(a - A_POS), u) - 1
    if A_POS <= a < A_FACING:
        u = np.int64(S["sel_unit"][b])
        return SCORE_ACT - min(objective_distance(S, tb, b, p, np.int64(a - A_POS), u), 999)
    if a == A_PASS:
        return SCORE_PASS
    return SCORE_ACT  # a unit to place, a receiver, the stayer, ...: all alike here


@njit
def heuristic_from_legal(S, tb, b, buf, n):
    """Best-scored action among buf[:n] (the legal list), ties uniform from the agent RNG."""
    p = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    best = -(10**12)
    ties = 0
    choice = np.int64(buf[0])
    for i in range(n):
        a = np.int64(buf[i])
        s = _score(S, tb, b, p, stage, a)
        if s > best:
            best = s
            ties = 1
            choice = a
        elif s == best:
            ties += 1
            if randint(S["agent_rng"], b, ties) == 0:  # reservoir: uniform among the ties
                choice = a
    return choice
