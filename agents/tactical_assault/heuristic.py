"""A numba heuristic for Tactical Assault: scores each legal action from what the acting
player may know (its own hand, the public units and ground, the scenario's tables) and plays
the best, ties broken by the game's agent RNG (S["agent_rng"]).

Rules of thumb, by decision (stages of envs/tactical_assault/actions.py):
- forces by points: add the strongest type that fits (melee + ranged + protection levels per
  point), never stop while a unit fits;
- the objective, from the scenario's end conditions (the tables record's vc_* fields): an exit
  zone for the side that wins by leaving the map, else a zone to hold when the scenario has
  some (both sides go there: one side holds, the other contests), else the nearest enemy
  unit; deploy, move and choose zones to get closer to it by the way the ground lets a unit
  go (objective_field: walls, cliffs, rivers, elevation), take the exit;
- the side that wins by being somewhere: in its last LATE_TURNS turns it moves before it
  attacks; the holding side's unit standing in a zone to hold is the last one to take a melee
  attack (that would carry it out of the zone); it fills the zones to hold deepest first
  (objective_field);
- the way opened: a unit that can remove Obstacles (a Sapper) with an enemy Obstacle on its
  way to the objective goes within reach of it first (clearer_field), removes it before any
  attack, keeps a card that removes one (either part) at the end of the turn and never plays
  its other part, is the first to be recovered when Shaken or Out Of Action and the first
  unit deployed;
- play a card rather than pass: attacks first, then recovery, defence and moves
  (KIND_VALUE of its effect steps); answer every play window that answers something (an
  attack, a contact) a Situation fits, and pass the general windows: a card played there is
  missing from p's own turn (the hand is replenished only at its end, FC 1.10);
- a card goes on the unit that uses it best: attacks on the strongest attacker of that kind,
  a contact attack first on a unit that reaches an enemy standing in a zone to hold or on its
  way there; moves on the nearest unit not yet there, or, for the side that wins by being
  somewhere, on the unit the move brings nearest by the most (move_gain); attacks go at the
  most valuable, least protected target; face the side that sees the most enemy units;
- discard every card left at the end of the turn (fresh cards), but one that removes an
  Obstacle while the way is staked; join every "all available" attack.
The lookahead (issue 7; look_from_legal): the side that wins by being somewhere picks the card
part to play, the unit to play it on and each next position of its move paths by playing
each legal choice out on a copy of the game's record (the rules of thumb make the copy's
further decisions of that card part, the opponent passes every window) and valuing the result
from the scenario's end conditions (evaluate: zones held, the way of each unit to the zones it
lacks past the enemy's Obstacles, the Sapper's way to the Obstacle, points eliminated, Shaken
units), averaged over LOOK_SAMPLES dice streams where a die or a flipped card decides; ties
go to the rules of thumb's score. Other sides (Fantasy Cards' Standard Game, a side that wins by fighting) play
by the rules of thumb alone.
It reads no hidden field: only the legal list, its own hand (through the legal list), the
public units and the tables record; the lookahead's copy draws its dice from the agent's own
RNG stream (never the game's), lists no Situations of the opponent's hand and stops before
the end of the turn draws from a deck.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint, shuffle_prefix
from envs.tactical_assault.actions import (
    A_ACTION,
    A_DISCARD,
    A_EXIT,
    A_FACING,
    A_PASS,
    A_POS,
    A_SITUATION,
    A_UNIT,
    STAGE_CHOOSE_FORCE,
    STAGE_DEPLOY_UNIT,
    STAGE_DISCARD,
    STAGE_DRIFT_TIE,
    STAGE_FACING,
    STAGE_GAME_OVER,
    STAGE_MAIN,
    STAGE_MOVE,
    STAGE_PLAY_UNIT,
    STAGE_TARGET,
    STAGE_TARGET_POINT,
    STAGE_VOLLEY,
    STAGE_WINDOW,
)
from envs.tactical_assault.plays import covers, fits, fp_zone
from envs.tactical_assault.state import (
    MAX_POS,
    MAX_UNITS,
    PLACE_DECK,
    PLACE_HAND,
    STATE_DTYPE,
    STATUS_SHAKEN,
    WHERE_ON,
)
from envs.tactical_assault.tables import MAX_STEPS
from envs.tactical_assault.turn import apply_action, legal_actions

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
# a place to be at the end (hold zones, an exit): in p's last LATE_TURNS turns a move card is
# worth more than any attack (KIND_VALUE). Measured on Crossroads of Hallin's Raiders, 2,000
# games: last 4 turns 24.9 %, last 6 turns 22.9 %, never 23.6 %, every turn 15.5 %; again
# with the scenario plan below (Crossroads / Siege seat 1): 3 turns 38.6 / 36.5 %, 4 turns
# 39.5 / 37.0 %, 5 turns 38.0 / 35.7 %, 7 turns 38.5 / 25.5 % (before the stair's defender)
LATE_TURNS = 4
LATE_MOVE_VALUE = 75
KIND_CLEAR = 9  # remove obstacle
KIND_RECOVER = 5
KIND_BACK = 6  # back in action
# The scenario's plan (issue 7; 2,000 games per seat against random, seat 1 of Crossroads of
# Hallin / of Siege of the Ridge Fort, each added to the ones before it: before 24.5 / 9.1 %):
# - an enemy Obstacle on a unit's way to the objective (a stake at the only stair) and a unit
#   that can remove it (a Sapper): that unit takes the move cards until it is within reach,
#   removing it outranks any attack (CLEAR_VALUE), and a card that removes it is kept at the
#   end of the turn (the deck holds four); the holding side fills the zones to hold deepest
#   first (HOLD_DEPTH_W); a contact attack goes on a unit that reaches an enemy standing in a
#   zone to hold (CONTACT_BONUS): 34.5 / 21.7 % together (Sapper alone: Siege 20.4 %; without
#   the depth 25.4 % at Crossroads, without the contact bonus 29.0 %);
# - a side that wins by being somewhere moves the unit a move card brings nearest by the most
#   (move_gain: what the ground, friends and enemies let it reach), not the nearest: 40.3 /
#   24.8 % (for the side that seeks the nearest enemy it lost 1-3 points: Fantasy Cards,
#   Greywater Ford's defenders, so they keep the nearest unit first);
# - the contact bonus also for an enemy standing on the way (the stair's defender): 39.5 /
#   35.6 %;
# - a Shaken or Out Of Action Sapper recovered first while the way is staked: Siege 37.0 %.
# Tried and dropped (2,000 games per seat): keeping pure move cards for the last turns (40.4 /
# 24.7 %) and not playing one that brings no unit nearer (38.6 / 25.0 %); a melee attack from
# a zone held in Close Combat (no change); a bonus for attacks on the key unit (Siege 35.4 %);
# Recover first for units off their place in the last turns (39.8 / 37.1 %, Greywater Ford
# side 0 down 0.5); ranged attacks first by units already in place (39.0 / 36.9 %).
CLEAR_VALUE = 90
SAPPER_FIRST = 10_000  # above any other move-card unit score of _unit_for_play
# a free zone to hold one zone deeper (from the side's deployment area) counts HOLD_DEPTH_W
# zones of movement nearer: a unit in a zone steps on into a free deeper one and leaves its
# zone to those behind (2, 3 and 5 played alike: 34.5 %)
HOLD_DEPTH_W = 2
CONTACT_BONUS = 300  # above any melee rating difference (melee * 10 + protection)
BLAST_FRIEND = 3  # a unit of p's own within a Target Point's radius counts 3 times its worth
BLAST_DRIFT = 1  # ... once within a drift of it
GAIN_W = 100  # a move card goes on the unit it brings nearest by the most, then the nearest


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
def _places_late(S, tb, b, p):
    """p's scenario is won by being somewhere (zones to hold at the turn limit, an exit edge)
    and p is in its last LATE_TURNS turns: getting there now outranks fighting."""
    if tb.vc_exit_side != p and tb.vc_hold_side != p:
        return False
    return S["turns_of"][b, p] > tb.sc_turn_limit - LATE_TURNS


@njit
def _hold_depth(tb, p, z):
    """Zones from seat p's deployment area to position z (how deep into the field it lies)."""
    best = FAR
    for d in range(tb.g_n_pos):
        if tb.sc_deploy[p, d] and tb.g_dist[d, z] < best:
            best = tb.g_dist[d, z]
    return np.int64(best)


@njit
def _relax(tb, dist):
    """Bellman-Ford sweeps over dist's seeds along the sides the ground lets a unit cross
    (g_entry_cost: linear terrain, river, elevation): a few per map (costs are small)."""
    n = np.int64(tb.g_n_pos)
    changed = True
    while changed:
        changed = False
        for x in range(n):
            for k in range(tb.g_n_dirs):
                y = tb.g_neighbour[x, k]
                c = np.int64(tb.g_entry_cost[x, k])
                if y >= 0 and c >= 0 and dist[y] < FAR:
                    d = dist[y] + max(c, 1)
                    if d < dist[x]:
                        dist[x] = d
                        changed = True


@njit
def objective_field(S, tb, b, p, self_u, dist):
    """dist[z]: movement from position z to seat p's objective for unit self_u (the places
    objective_distance measures to), along the sides the ground lets a unit cross; FAR where
    none is reachable. The holding side's free zones to hold are seeded deepest first
    (HOLD_DEPTH_W per zone of depth, _hold_depth): the front zones are taken by the units
    that get there first, the near ones left to those behind."""
    n = np.int64(tb.g_n_pos)
    found = False
    deep = np.int64(0)
    if tb.vc_hold_side == p and tb.vc_exit_side != p:
        for z in range(n):
            if tb.vc_hold[z]:
                deep = max(deep, _hold_depth(tb, p, z))
    for z in range(n):
        dist[z] = FAR
        if tb.vc_exit_side == p:
            if tb.vc_exit[z]:
                dist[z] = 0
                found = True
        elif tb.vc_hold[z] and not _friend_at(S, b, p, z, self_u):
            dist[z] = 0
            if deep > 0:
                dist[z] = HOLD_DEPTH_W * (deep - _hold_depth(tb, p, z))
            found = True
    if not found:
        for v in range(MAX_UNITS):
            if S["unit_side"][b, v] == 1 - p and S["unit_where"][b, v] == WHERE_ON:
                dist[S["unit_pos"][b, v]] = 0
    _relax(tb, dist)


@njit
def _clears(tb, t):
    """Unit type t may be played a card part that removes an Obstacle (a Sapper)."""
    for q in range(tb.n_plays):
        if tb.play_on[q, t]:
            for j in range(MAX_STEPS):
                if tb.step_kind[q, j] == KIND_CLEAR:
                    return True
    return False


@njit
def _clear_reach(tb):
    """The furthest a card part removes an Obstacle from (Table 2 distance in positions)."""
    r = np.int64(0)
    for q in range(tb.n_plays):
        for j in range(MAX_STEPS):
            if tb.step_kind[q, j] == KIND_CLEAR:
                r = max(r, np.int64(tb.g_dist_units[tb.step_distance[q, j]]))
    return r


@njit
def obstacle_in_way(S, tb, b, p, u, field):
    """The nearest enemy Obstacle on a shortest way (within a zone) from unit u to seat p's
    objective (field: objective_field for u), or -1."""
    z = np.int64(S["unit_pos"][b, u])
    if S["unit_where"][b, u] != WHERE_ON or field[z] >= FAR:
        return -1
    best = -1
    bd = FAR
    for v in range(MAX_UNITS):
        if (
            S["unit_side"][b, v] == 1 - p
            and S["unit_where"][b, v] == WHERE_ON
            and S["unit_type"][b, v] == tb.type_obstacle
        ):
            o = np.int64(S["unit_pos"][b, v])
            d = np.int64(tb.g_dist[z, o])
            if field[o] < FAR and d + field[o] <= field[z] + 1 and d < bd:
                best = v
                bd = d
    return best


@njit
def clearer_field(S, tb, b, p, u, dist):
    """A unit that can remove Obstacles (a Sapper) with an enemy Obstacle in its way: dist
    becomes the way to the positions within reach of that Obstacle; True if so (dist holds
    u's objective_field otherwise)."""
    objective_field(S, tb, b, p, u, dist)
    if not _clears(tb, np.int64(S["unit_type"][b, u])):
        return False
    v = obstacle_in_way(S, tb, b, p, u, dist)
    if v < 0:
        return False
    o = np.int64(S["unit_pos"][b, v])
    reach = _clear_reach(tb)
    for z in range(tb.g_n_pos):
        dist[z] = 0 if z != o and tb.g_dist[z, o] <= reach else FAR
    # a place another unit stands in is no place to remove it from: the Sapper cannot end
    # its move there (friends drawn to the stair stood in every one of them)
    for w in range(MAX_UNITS):
        if w == u or S["unit_where"][b, w] != WHERE_ON:
            continue
        y = np.int64(S["unit_pos"][b, w])
        dist[y] = FAR
        for f in range(tb.sc_fp_n[w]):
            c = fp_zone(tb, w, y, f)
            if c >= 0:
                dist[c] = FAR
    _relax(tb, dist)
    return True


@njit
def _enemy_obstacle_in_reach(S, tb, b, p):
    """A unit of p that can remove Obstacles and has not acted has an enemy Obstacle within
    reach."""
    reach = _clear_reach(tb)
    for u in range(MAX_UNITS):
        if (
            S["unit_side"][b, u] == p
            and S["unit_where"][b, u] == WHERE_ON
            and not S["unit_acted"][b, u]
            and _clears(tb, np.int64(S["unit_type"][b, u]))
        ):
            z = S["unit_pos"][b, u]
            for v in range(MAX_UNITS):
                if (
                    S["unit_side"][b, v] == 1 - p
                    and S["unit_where"][b, v] == WHERE_ON
                    and S["unit_type"][b, v] == tb.type_obstacle
                    and tb.g_dist[z, S["unit_pos"][b, v]] <= reach
                ):
                    return True
    return False


@njit
def _staked(S, tb, b, p):
    """An enemy Obstacle stands on the battlefield."""
    for v in range(MAX_UNITS):
        if (
            S["unit_side"][b, v] == 1 - p
            and S["unit_where"][b, v] == WHERE_ON
            and S["unit_type"][b, v] == tb.type_obstacle
        ):
            return True
    return False


@njit
def _sapper_down(S, tb, b, p):
    """An enemy Obstacle stands and a unit of p that can remove it is Shaken or Out Of
    Action (it takes no card but the one that lifts its status)."""
    if not _staked(S, tb, b, p):
        return False
    for u in range(MAX_UNITS):
        if (
            S["unit_side"][b, u] == p
            and S["unit_where"][b, u] == WHERE_ON
            and S["unit_status"][b, u] != 0
            and not S["unit_acted"][b, u]
            and _clears(tb, np.int64(S["unit_type"][b, u]))
        ):
            return True
    return False


@njit
def _clear_part(S, tb, b, p, k):
    """The part of card k (0 its Action, 1 its Situation) that removes an Obstacle, while an
    enemy Obstacle stands and p has a unit on the battlefield that part may be played on (a
    Sapper); -1 if none."""
    if not _staked(S, tb, b, p):
        return -1
    for part in range(2):
        play = np.int64(tb.card_action[k]) if part == 0 else np.int64(tb.card_situation[k])
        if not _has_kind(tb, play, KIND_CLEAR):
            continue
        for u in range(MAX_UNITS):
            if S["unit_side"][b, u] == p and S["unit_where"][b, u] == WHERE_ON:
                if tb.play_on[play, S["unit_type"][b, u]]:
                    return part
    return -1


@njit
def _keeps_clear(S, tb, b, p, k):
    """Card k removes an Obstacle (either part) while one of the enemy's stands and p has a
    unit that can remove it (_clear_part): keep the card at the end of the turn (the deck
    holds few such cards; a hand is discarded whole otherwise)."""
    return _clear_part(S, tb, b, p, k) >= 0


@njit
def _wastes_clear(S, tb, b, p, a):
    """Action a plays the other part of a card kept to remove the Obstacle (_keeps_clear):
    its Situation where its Action removes it, or its Action where its Situation does."""
    if a < A_SITUATION:
        return _clear_part(S, tb, b, p, np.int64(a - A_ACTION)) == 1
    if a < A_DISCARD:
        return _clear_part(S, tb, b, p, np.int64(a - A_SITUATION)) == 0
    return False


@njit
def _reaches_held_enemy(S, tb, b, p, u, play):
    """Unit u, moved by play's contact move, can reach an enemy standing in a zone to hold."""
    if S["unit_where"][b, u] != WHERE_ON:
        return False
    reach = np.int64(-1)
    for j in range(MAX_STEPS):
        if tb.step_kind[play, j] == KIND_MOVE and tb.step_contact[play, j]:
            reach = max(reach, np.int64(tb.g_dist_units[tb.step_distance[play, j]]))
    if reach < 0:
        return False
    z = np.int64(S["unit_pos"][b, u])
    field = np.empty(MAX_POS, dtype=np.int64)
    if tb.vc_hold_side == p or tb.vc_exit_side == p:
        objective_field(S, tb, b, p, u, field)
    else:
        field[z] = FAR
    for v in range(MAX_UNITS):
        if S["unit_side"][b, v] == 1 - p and S["unit_where"][b, v] == WHERE_ON:
            y = np.int64(S["unit_pos"][b, v])
            if tb.g_dist[z, y] > reach or tb.type_protection[S["unit_type"][b, v]] == 0:
                continue
            if tb.vc_hold[y]:
                return True
            # or it stands on u's way to a place to be (a stair, a ford)
            if field[z] < FAR and field[y] < field[z] and tb.g_dist[z, y] + field[y] <= field[z]:
                return True
    return False


@njit
def _dist(S, tb, b, p, z, u, field, use_field):
    """Way from z to p's objective for u: the field's where it reaches, else as the crow
    flies (objective_distance)."""
    if use_field and field[z] < FAR:
        return np.int64(field[z])
    return objective_distance(S, tb, b, p, z, u)


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
        s = np.int64(tb.type_melee[t]) * 10 + np.int64(tb.type_protection[t])
        if _reaches_held_enemy(S, tb, b, p, u, play):
            s += CONTACT_BONUS
        return s
    if _has_kind(tb, play, KIND_RANGED):
        return np.int64(tb.type_ranged[t]) * 10 + np.int64(tb.type_protection[t])
    if _has_kind(tb, play, KIND_RECOVER) or _has_kind(tb, play, KIND_BACK):
        return 100 if _clears(tb, t) and _staked(S, tb, b, p) else 0
    if _has_kind(tb, play, KIND_MOVE) and S["unit_where"][b, u] == WHERE_ON:
        field = np.empty(MAX_POS, dtype=np.int64)
        clearer = _clears(tb, t)
        if clearer and clearer_field(S, tb, b, p, u, field) and field[S["unit_pos"][b, u]] > 0:
            return SAPPER_FIRST  # not yet within reach of the Obstacle in its way
        d = objective_distance(S, tb, b, p, np.int64(S["unit_pos"][b, u]), u)
        if tb.vc_hold_side == p or tb.vc_exit_side == p:
            if not clearer:
                objective_field(S, tb, b, p, u, field)
            g = move_gain(S, tb, b, p, u, _move_allowance(tb, play), field)
            if g <= 0:
                return 0  # it gets no nearer with this card (there, stuck or blocked)
            # the unit this card brings nearest by the most, then the nearest
            return GAIN_W * min(g, 99) + 99 - min(d, 99)
        return 0 if d == 0 else 200 - min(d, 199)  # the nearest unit not yet there first
    return 0


@njit
def _move_allowance(tb, play):
    """The longest move of play's steps, in positions (Table 2 distance)."""
    r = np.int64(0)
    for j in range(MAX_STEPS):
        if tb.step_kind[play, j] == KIND_MOVE:
            r = max(r, np.int64(tb.g_dist_units[tb.step_distance[play, j]]))
    return r


@njit
def move_gain(S, tb, b, p, u, allowance, field):
    """How much nearer to its objective (field) unit u of seat p can end a move of
    `allowance`: positions reached paying the sides' costs (g_entry_cost), passing friends
    but ending on none, stopped by enemies; an oversized unit's footprint must fit at every
    position (plays.fits). 0 if it gets no nearer."""
    n = np.int64(tb.g_n_pos)
    occ = np.zeros(MAX_POS, dtype=np.int64)  # 1 a friend covers it, 2 an enemy
    for v in range(MAX_UNITS):
        if v == u or S["unit_where"][b, v] != WHERE_ON:
            continue
        w = 1 if S["unit_side"][b, v] == p else 2
        y = np.int64(S["unit_pos"][b, v])
        occ[y] = max(occ[y], w)
        for f in range(tb.sc_fp_n[v]):
            c = fp_zone(tb, v, y, f)
            if c >= 0:
                occ[c] = max(occ[c], w)
    z0 = np.int64(S["unit_pos"][b, u])
    cost = np.full(MAX_POS, FAR, dtype=np.int64)
    cost[z0] = 0
    best = np.int64(field[z0])
    for _ in range(allowance):  # each sweep moves at least one more position
        changed = False
        for x in range(n):
            if cost[x] >= allowance or (x != z0 and occ[x] == 2):
                continue
            for k in range(tb.g_n_dirs):
                y = np.int64(tb.g_neighbour[x, k])
                c = np.int64(tb.g_entry_cost[x, k])
                if y < 0 or c < 0 or occ[y] == 2 or cost[x] + max(c, 1) >= cost[y]:
                    continue
                if cost[x] + max(c, 1) > allowance or tb.g_standable[y] == 0:
                    continue
                if tb.sc_fp_n[u] > 0 and not fits(S, tb, b, u, y):
                    continue
                cost[y] = cost[x] + max(c, 1)
                changed = True
                if occ[y] == 0 and field[y] < best:
                    best = np.int64(field[y])
        if not changed:
            break
    return np.int64(field[z0]) - best


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
def target_worth(S, tb, b, v):
    """What an attack's target v is worth: the most valuable, least protected first, and one
    standing in a zone to hold (clear it, or keep it) above all."""
    t = np.int64(S["unit_type"][b, v])
    s = 10 * np.int64(tb.type_points[t]) - 3 * np.int64(tb.type_protection[t])
    if S["unit_where"][b, v] == WHERE_ON and tb.vc_hold[S["unit_pos"][b, v]]:
        s += 100
    return s


@njit
def blast_value(S, tb, b, p, z):
    """What the Target Point attack being resolved is worth to seat p with its point at z
    (FC I14): it attacks every unit, friend or foe, within its radius (LOS aside), so each
    enemy there counts as an attack's target does (target_worth) and each unit of p's own
    counts BLAST_FRIEND times against it, and BLAST_DRIFT times within a drift of it (the
    point drifts up to the longest Random Drift, I6, most often toward the attacker)."""
    i = np.int64(S["depth"][b]) - 1
    play = np.int64(S["fr_play"][b, i])
    j = np.int64(S["fr_step"][b, i])
    reach = np.int64(tb.g_dist_units[tb.step_radius[play, j]]) + np.int64(tb.g_extreme_extra)
    drift = np.int64(0)
    for r in range(tb.drift_distance.shape[0]):
        if tb.drift_distance[r] >= 0:
            drift = max(drift, np.int64(tb.g_dist_units[tb.drift_distance[r]]))
    s = np.int64(0)
    for v in range(MAX_UNITS):
        t = np.int64(S["unit_type"][b, v])
        if S["unit_where"][b, v] != WHERE_ON or tb.type_protection[t] == 0:
            continue  # an Obstacle is never attacked
        d = np.int64(tb.g_dist[z, S["unit_pos"][b, v]])
        worth = 10 * np.int64(tb.type_points[t])
        if S["unit_side"][b, v] != p:
            if d <= reach:
                s += target_worth(S, tb, b, v)
        elif d <= reach:
            s -= BLAST_FRIEND * worth
        elif d <= reach + drift:
            s -= BLAST_DRIFT * worth
    return s


@njit
def _score(S, tb, b, p, stage, a, field, use_field):
    """Score of legal action a at this decision (module docstring)."""
    if a == A_EXIT:
        return 10 * SCORE_ACT
    if stage == STAGE_CHOOSE_FORCE:
        if a == A_PASS:
            return SCORE_PASS
        return SCORE_ACT + _type_value(tb, a - A_UNIT)
    if stage == STAGE_DEPLOY_UNIT:
        # the unit that opens the way (a Sapper, an enemy Obstacle standing) is placed first:
        # FC deployment alternates, and the places nearest the objective go first
        u = a - A_UNIT
        if _clears(tb, np.int64(S["unit_type"][b, u])) and _staked(S, tb, b, p):
            return SCORE_ACT + SAPPER_FIRST
        return SCORE_ACT
    if stage == STAGE_DISCARD:
        # every card left found no use for its Action this turn and would clog the hand:
        # discard them all and draw six fresh (keeping those whose Situation answers an
        # attack won fewer games: 10 % against 25 % as the Raiders of Crossroads of Hallin)
        if a == A_PASS:
            return SCORE_ACT
        if _keeps_clear(S, tb, b, p, np.int64(a - A_DISCARD)):
            return SCORE_ACT - 1  # kept for the Sapper: the one card that opens the way
        return SCORE_ACT + 1
    if stage == STAGE_MAIN or stage == STAGE_WINDOW:
        if a == A_PASS:
            return SCORE_PASS
        if a < A_SITUATION:
            play = np.int64(tb.card_action[a - A_ACTION])
            if _has_kind(tb, play, KIND_MOVE) and _places_late(S, tb, b, p):
                return SCORE_ACT + LATE_MOVE_VALUE
            if _has_kind(tb, play, KIND_CLEAR):
                if _enemy_obstacle_in_reach(S, tb, b, p):
                    return SCORE_ACT + CLEAR_VALUE
            if (_has_kind(tb, play, KIND_RECOVER) or _has_kind(tb, play, KIND_BACK)) and (
                _sapper_down(S, tb, b, p)
            ):
                return SCORE_ACT + CLEAR_VALUE  # the unit that opens the way back in play
            return SCORE_ACT + _card_value(tb, play)
        v = _card_value(tb, np.int64(tb.card_situation[a - A_SITUATION]))
        if stage == STAGE_WINDOW and S["win_trigger"][b] == 0:
            # a general window (no attack, no contact to answer): the card stays for p's own
            # turn, when the hand is not replenished before it is played (FC 1.10)
            return SCORE_PASS - 1
        if stage == STAGE_MAIN:
            return SCORE_ACT + v - 100  # Actions first: Situations also answer windows
        return SCORE_ACT + v
    if stage == STAGE_PLAY_UNIT:
        u = a - A_UNIT
        play = _sel_play(S, tb, b)
        s = SCORE_ACT + _unit_for_play(S, tb, b, p, play, u)
        if (
            tb.vc_hold_side == p
            and S["unit_where"][b, u] == WHERE_ON
            and tb.vc_hold[S["unit_pos"][b, u]]
            and _has_kind(tb, play, KIND_MELEE)
        ):
            s -= 500  # a melee attack would take it out of the zone it holds
        return s
    if stage == STAGE_TARGET:
        v = a - A_UNIT
        s = SCORE_ACT + target_worth(S, tb, b, v)
        if S["unit_side"][b, v] == p:
            s -= SCORE_ACT  # an Obstacle of one's own (remove obstacle reaches either side's)
        if S["unit_status"][b, v] & STATUS_SHAKEN:
            s += 5
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
            return SCORE_ACT - 2 * _dist(S, tb, b, p, end, u, field, use_field)
        return SCORE_ACT - 2 * _dist(S, tb, b, p, np.int64(a - A_POS), u, field, use_field) - 1
    if (stage == STAGE_TARGET_POINT or stage == STAGE_DRIFT_TIE) and A_POS <= a < A_FACING:
        return SCORE_ACT + blast_value(S, tb, b, p, np.int64(a - A_POS))
    if A_POS <= a < A_FACING:
        u = np.int64(S["sel_unit"][b])
        return SCORE_ACT - min(_dist(S, tb, b, p, np.int64(a - A_POS), u, field, use_field), 999)
    if a == A_PASS:
        return SCORE_PASS
    return SCORE_ACT  # a unit to place, a receiver, the stayer, ...: all alike here


@njit
def _decision_field(S, tb, b, p, stage, buf, field):
    """A decision that places one unit (a path's next position, a deployment) measures the
    way to the objective once, for that unit, into field (clearer_field); True if so."""
    u = -1
    if stage == STAGE_MOVE:
        u = np.int64(S["fr_unit"][b, np.int64(S["depth"][b]) - 1])
    elif A_POS <= buf[0] < A_FACING and stage != STAGE_TARGET_POINT and stage != STAGE_DRIFT_TIE:
        u = np.int64(S["sel_unit"][b])
    if u < 0:
        return False
    clearer_field(S, tb, b, p, u, field)
    return True


@njit
def base_from_legal(S, tb, b, buf, n):
    """The rules of thumb alone (module docstring): best-scored action among buf[:n] (the
    legal list), ties uniform from the agent RNG. A decision that places one unit (a path's next position, a deployment) measures the way
    to the objective once, for that unit (objective_field)."""
    p = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    field = np.empty(MAX_POS, dtype=np.int64)
    use_field = _decision_field(S, tb, b, p, stage, buf, field)
    best = -(10**12)
    ties = 0
    choice = np.int64(buf[0])
    for i in range(n):
        a = np.int64(buf[i])
        s = _score(S, tb, b, p, stage, a, field, use_field)
        if s > best:
            best = s
            ties = 1
            choice = a
        elif s == best:
            ties += 1
            if randint(S["agent_rng"], b, ties) == 0:  # reservoir: uniform among the ties
                choice = a
    return choice


# --- the lookahead (issue 7) ------------------------------------------------------------------
# The side that wins by being somewhere (zones to hold, an exit edge) scores each card it may
# play and each unit it may play a card on by playing it out on a copy of the game's record
# (the rules of thumb above make the copy's own decisions, the opponent passes every window)
# and valuing the result from the scenario's end conditions (evaluate). The copy's rules RNG is
# drawn from the agent's own stream, never the game's; nothing in the opponent's hand or either
# deck's order is read: windows are passed without listing the opponent's Situations, and the
# copy stops before the end of the turn draws cards.
# Measured (2,000 games of seat 1 against random, Crossroads of Hallin / Siege of the Ridge
# Fort; rules of thumb alone 39.5 / 37.0 %): the card part and its unit 57.5 / 39.2 %; zones
# held draw the other units too (HELD_SEED) 58.0 / 41.7 %; move paths too 63.1 / 43.9 %; the
# way around the enemy's Obstacles 63.1 / 44.7 %; ties by the rules of thumb's field 64.2 /
# 43.1 %. Tried and dropped: a card valued on its best unit (55.6 / 37.9 %), three dice
# streams per action (58.1 / 41.7 %), a penalty per enemy within 2 zones of a held zone
# (57.3 / 28.7 %), the attack's target by lookahead (62.7 / 45.4 %), a bonus for holding
# every zone (no change), DIST_W 30 (60.3 / 6.1 %) and 5 (62.2 / 44.2 %).
# Second round (lbseat2; 1,000 games with the heuristic as seat 1, Crossroads / Siege; before
# 51.9 / 37.9 %): what is kept below, 69.7 / 52.3 %. Each piece measured by taking it out of a
# first version (4 samples and a bonus per empty or contested zone: 64.7 / 46.2 %): one sample
# 48.3 / 48.2 %, general windows answered 53.7 / 40.8 %, SHARED_W 100 66.3 / 40.3 %,
# HELD_SEED 3 63.5 / 2.1 %, the Sapper deployed in turn (Siege) 42.7 %, Obstacles impassable
# 43.6 %, no CLEARER_W 36.9 %, the kept card's other part played 44.1 %, only a card whose
# Action clears kept 44.9 %; without the zone bonus 66.7 / 49.1 % (dropped), then LOOK_SAMPLES
# 8 69.7 / 52.3 %, 16 67.8 / 51.0 %. Tried on top and dropped (within +-1.5 points): the copy
# played to the end of p's turn in its last one or two turns (69.6 / 51.8, 68.7 / 51.1 %),
# per status of an enemy in a zone to hold (68.0 / 52.7 %), a shared zone valued by melee
# against protection (69.0 / 53.0 %), the attack's target by lookahead (67.8 / 52.5 %), every
# window of the opponent's turn passed (67.1 / 52.1 %), POINT_W 40, HOLD_W 500, DIST_W 15
# (67.3-69.8 / 50.3-53.8 %), CLEARER_W only with a clearing card in hand (Siege 47.8 %), a
# penalty for losing the last Sapper (Siege 53.0 %). At 2,000 games (Crossroads; 10,000
# games: 67.6 %): a card always played rather than passing at the main decision 57.3 %, a
# pass preferred unless a card gains 10 (48.5 %) or a card preferred by 10 (67.8 %), move
# cards kept in the last turns 66.4 %, the opponent's windows passed 67.8 % (all) and 67.5 %
# (all but attacks on p's units).
# Third round (lbseat3; 1,000 games of seat 1, `--games 2000 --seat 1 --seed 1`, Crossroads /
# Siege; as kept 69.7 / 52.3 %), all dropped: melee cards kept at the end of the turn while a
# zone to hold is shared (69.2 / 52.2 %); a penalty per enemy shooter (LOS within its range,
# neither Shaken nor Out Of Action) on the Sapper while the way is staked, 60 and 10 per
# shooter (Siege 36.6 and 45.2 %: it keeps away from the stake); the opponent answering its
# windows on the copy by the rules of thumb from its re-dealt hand (63.0 / 46.7 %, and up to
# twice the time); shooters (ranged rating 2 above melee: Sorcerous, Artillery) not drawn to
# the zones (64.1 / 51.0 %).
# Fourth round (2026-11-25, from games watched turn by turn; seat 1 against random, Siege 1,000
# games, Crossroads 1,000 then 10,000; before 52.3 / 69.7 %, Crossroads 10,000: 67.6 %), kept:
# a Target Point placed by what it hits, friends too (blast_value; a Bombard had fallen on the
# Legion's own Sapper in its first turn): 54.2 / 69.9 %; the Sapper's way to a place no unit
# stands in (clearer_field; friends drawn to the stair stood in all three): 55.3 / 69.9 %,
# Crossroads 10,000: 69.1 %; a zone to hold that a unit of p entered Close Combat from counts
# ENTRY_W (it moves back there when its target goes, and no enemy may enter it), so a Rider
# holding a zone joins the fight next to it: Crossroads 10,000 71.1 % (200), 73.4 % (260),
# 73.1 % (300); Siege 55.3 % (200). Dropped: an attack's target by the mean Table 6 result
# over the deck's cards, shifted for the pair (54.3 / 68.8 %); the loss of the last Sapper
# valued as the Sapper at DIST_CAP, with a friend within a drift counted 3 times (52.4 / 68.0 %).
# Fifth round (2026-11-25; seat 1 of the Siege against random by the AEC path, seeds 0-1999,
# 2,000 games a variant, 2.5 minutes each; before 55.6 %, and 53.0 % on seeds 2000-3999).
# Counted first: a Legion unit alone in the keep when its last turn begins wins 97 % of the
# time; shared, 10-32 %; without the stake at all (the Obstacle taken out of a copy of the
# scenario) the Legion wins 62.3 % (1,000 games), so the Sapper is worth at most 7 points and
# the keep the rest. With the ratings read right (Table 3: protection, then melee) the keep is
# nearly out of reach: the Legion's Infantry attack the Legendary unit (protection Very Heavy,
# in a Building) two down, its melee on them (Heavy against Moderate, cover) is unshifted, and
# its Fall Back from an attack out of the stair is stopped by the Command behind it and the
# cliff (I9). Kept: a Close Combat the unit cannot win counts HOPELESS_W against (_hopeless):
# 57.8 % (30: 55.1, 90: 56.4, 150: 56.2; with any one-down fight counted 54.0 %), 55.1 % on
# seeds 2000-3999; not in the last turn (57.8 %, the same games won), nor the last two (57.6 %);
# Crossroads' seat 1 unchanged (74.5 %, 2,000 games). Dropped, each against 55.6 %: the enemy
# standing on the only way there (the stair) attacked first (54.5 %); own Shaken units next to
# a zone to hold counted 60 more (55.7 %); Assault and Close Combat cards kept at the end of
# the turn (55.3 %); contact reach by the ground's movement costs, not as the crow flies
# (54.1 %; the War Machine below the wall "reached" the stair's defender); SHARED_W 0, -60,
# -200 (56.2, 57.1, 55.5 %; -60 55.9 % on seeds 2000-3999; with HOPELESS_W 56.5 %); a zone to
# hold with an enemy in it counted 150 and 300 against (47.8, 43.8 %: shots at the Legendary
# unit instead of moves); an enemy on the way counted 3 and 6 zones more (53.6, 52.7 %);
# units of melee below Moderate drawn to the zones 3 and 6 per zone, not 10 (54.0, 53.4 %);
# POINT_W 40 and STATUS_W 20 (54.6 %); only the zones held counted in the last turn (55.6 %,
# the same games); a free zone behind the enemy holder, for its Fall Back, counted 40 and 100
# per unit next to it (54.5, 52.8 %); the Sapper, its work done, drawn 2 per zone (56.4 %);
# on top of HOPELESS_W (57.8 %): LATE_TURNS 2 and 6 (58.3, 56.4 %: within the noise, kept 4).
LOOK_SAMPLES = 8  # dice and flipped cards the copy plays each action out on (see look_from_legal)
LOOK_DECISIONS = 64  # decisions of one card part played out on the copy (a runaway guard)
WIN_W = 100_000  # the copy's game ended: won or lost outright
HOLD_W = 300  # a zone to hold that p alone stands in
ENTRY_W = 260  # ... that a unit of p in Close Combat entered its shared zone from
SHARED_W = 30  # ... that p shares with an enemy (Close Combat: lost at the limit)
EXIT_W = 300  # a unit that left the map across the exit edge
DIST_CAP = 30  # zones of movement counted at most (no way at all counts as this far)
DIST_W = 10  # per zone of movement a unit of p stands from the nearest zone p lacks
POINT_W = 20  # per unit point eliminated (the enemy's, less p's own)
HELD_SEED = 0  # a zone p holds already counts this far off for its other units
OBST_STEP = 6  # an enemy Obstacle on the way counts this many zones of movement more
CLEARER_W = 20  # per zone a Sapper stands from within reach of the Obstacle in its way
STATUS_W = 10  # per Shaken or Out Of Action unit (the enemy's, less p's own)
# per unit of p in a Close Combat it cannot win (_hopeless), but not in p's last turn, when
# trying costs nothing: it pins the enemy in the zone to hold, which a random opponent leaves
# by itself now and then, and the enemy's melee on it goes unshifted (Siege: the Legendary
# unit in the keep against the Legion's Infantry). Siege seat 1, 4,000 games: 54.3 % -> 56.5 %
HOPELESS_W = 60


@njit
def _entered_from(S, b, p, z):
    """A unit of p in Close Combat entered its shared zone from position z: part of it is
    still there (LB "Sharing a zone: unit positions"), no enemy may enter, and it moves back
    when its target goes (LB "loss of original target")."""
    for u in range(MAX_UNITS):
        if S["unit_side"][b, u] == p and S["unit_where"][b, u] == WHERE_ON:
            if S["unit_entry"][b, u] == z:
                return True
    return False


@njit
def _hopeless(S, tb, b, p, u):
    """Unit u of seat p is in a Close Combat it cannot win: an enemy sharing its zone, neither
    Shaken nor Out Of Action, has a protection rating at least two above u's melee rating,
    cover counting one (FC Table 5: each of u's melee attacks on it shifts down twice), and
    the enemy, pinned in the zone with it (LB-3.5.3), no longer leaves it by itself."""
    z = np.int64(S["unit_pos"][b, u])
    for e in range(MAX_UNITS):
        if (
            S["unit_side"][b, e] == 1 - p
            and S["unit_where"][b, e] == WHERE_ON
            and S["unit_pos"][b, e] == z
            and S["unit_status"][b, e] == 0
            and tb.type_protection[S["unit_type"][b, e]] != 0
        ):
            d = np.int64(tb.type_protection[S["unit_type"][b, e]]) - np.int64(
                tb.type_melee[S["unit_type"][b, u]]
            )
            if d + np.int64(tb.g_covering[z]) >= 2:
                return True
    return False


@njit
def evaluate(S, tb, b, p, field):
    """Value of game b for seat p, from public fields only: won or lost outright; zones to
    hold that p stands in alone (or shares) or units p got off the map; the way (field: the
    ground's movement costs, _relax) from each unit of p to the nearest zone to hold p lacks
    or to the exit edge; points eliminated and Shaken / Out Of Action units, both sides."""
    if S["stage"][b] == STAGE_GAME_OVER:
        w = np.int64(S["winner"][b])
        return WIN_W if w == p else (-WIN_W if w == 1 - p else np.int64(0))
    v = POINT_W * (np.int64(S["points_lost"][b, 1 - p]) - np.int64(S["points_lost"][b, p]))
    for u in range(MAX_UNITS):
        if S["unit_where"][b, u] == WHERE_ON and S["unit_status"][b, u] != 0:
            v += STATUS_W if S["unit_side"][b, u] == 1 - p else -STATUS_W
    n = np.int64(tb.g_n_pos)
    for z in range(n):
        field[z] = FAR
    if tb.vc_exit_side == p:
        v += EXIT_W * np.int64(S["units_exited"][b, p])
        for z in range(n):
            if tb.vc_exit[z]:
                field[z] = 0
    else:
        for z in range(n):
            if not tb.vc_hold[z]:
                continue
            mine = False
            enemy = False
            for u in range(MAX_UNITS):
                if covers(S, tb, b, u, z) and S["unit_type"][b, u] != tb.type_obstacle:
                    if S["unit_side"][b, u] == p:
                        mine = True
                    else:
                        enemy = True
            if mine:
                v += SHARED_W if enemy else HOLD_W
                field[z] = HELD_SEED  # the others draw near it too, to fill in
            elif not enemy and _entered_from(S, b, p, z):
                v += ENTRY_W
                field[z] = HELD_SEED
            else:
                field[z] = 0
    # the way past the enemy's Obstacles (only a Sapper removes one): an Obstacle counts
    # OBST_STEP zones more, so the units still draw near the way it closes
    extra = np.zeros(MAX_POS, dtype=np.int64)
    staked = False
    for u in range(MAX_UNITS):
        if (
            S["unit_side"][b, u] == 1 - p
            and S["unit_where"][b, u] == WHERE_ON
            and S["unit_type"][b, u] == tb.type_obstacle
        ):
            extra[S["unit_pos"][b, u]] = OBST_STEP
            staked = True
    changed = True
    while changed:
        changed = False
        for x in range(n):
            for k in range(tb.g_n_dirs):
                y = tb.g_neighbour[x, k]
                c = np.int64(tb.g_entry_cost[x, k])
                if y >= 0 and c >= 0 and field[y] < FAR:
                    d = field[y] + max(c, 1) + extra[y]
                    if d < field[x]:
                        field[x] = d
                        changed = True
    reach = np.empty(MAX_POS, dtype=np.int64)
    for u in range(MAX_UNITS):
        if S["unit_side"][b, u] != p or S["unit_where"][b, u] != WHERE_ON:
            continue
        z = np.int64(S["unit_pos"][b, u])
        if S["turns_of"][b, p] < tb.sc_turn_limit and _hopeless(S, tb, b, p, u):
            v -= HOPELESS_W
        if staked and _clears(tb, np.int64(S["unit_type"][b, u])):
            if clearer_field(S, tb, b, p, u, reach):  # the Sapper: to within reach of it
                v -= CLEARER_W * min(np.int64(reach[z]), DIST_CAP)
        if tb.vc_hold[z] and tb.vc_exit_side != p:
            continue  # it holds its zone
        if S["unit_type"][b, u] != tb.type_obstacle:
            v -= DIST_W * min(np.int64(field[z]), DIST_CAP)
    return v


@njit
def hide_cards(T, tb, p):
    """What p may not know, drawn afresh on the copy T (a batch of one) from T's rules RNG
    (the agent's stream): p's deck in a new order (a Combat Result is the top card flipped,
    PART V Step 5; p knows the deck's cards, not their order) and the opponent's hand and deck
    dealt again from their cards together (hand and deck keep their sizes). Each pile is laid
    out in card order first, so the copy depends only on which cards it holds."""
    n = np.int64(tb.n_cards)
    for q in range(2):
        m = np.int64(0)
        for k in range(n):
            if T["card_place"][0, q, k] == PLACE_DECK or (
                q != p and T["card_place"][0, q, k] == PLACE_HAND
            ):
                T["deck"][0, q, m] = k
                m += 1
        shuffle_prefix(T["rng"], 0, T["deck"][0, q], m)
        d = np.int64(T["deck_count"][0, q])
        for i in range(m):  # the first d cards the deck, the rest the hand (q != p only)
            T["card_place"][0, q, T["deck"][0, q, i]] = PLACE_DECK if i < d else PLACE_HAND
        for i in range(d, m):
            T["deck"][0, q, i] = -1


@njit
def _finish_part(T, tb, p, buf):
    """Play the copy T (a batch of one) on until the card part just chosen has resolved: p's
    main decision again, the end of its turn or of the game. p's decisions by the rules of
    thumb; every window passed (the opponent's hand is not listed); the opponent's other
    decisions (public: a Fall Back's zone, the unit that stays) by the rules of thumb too."""
    for _ in range(LOOK_DECISIONS):
        st = T["stage"][0]
        if st == STAGE_GAME_OVER or T["active"][0] != p:
            return
        if T["depth"][0] == 0 and (st == STAGE_MAIN or st == STAGE_DISCARD):
            return
        if st == STAGE_WINDOW:
            apply_action(T, tb, 0, A_PASS)
            continue
        n = legal_actions(T, tb, 0, buf)
        if n == 0:
            return
        apply_action(T, tb, 0, base_from_legal(T, tb, np.int64(0), buf, n))


@njit
def _looks(S, tb, b, p, stage):
    """The decision is one the lookahead makes: p wins by being somewhere, it is p's turn, and
    p picks the card part to play (its main decision) or the unit to play it on."""
    if tb.vc_hold_side != p and tb.vc_exit_side != p:
        return False
    if S["active"][b] != p:
        return False
    if stage == STAGE_MAIN:
        return S["depth"][b] == 0
    if stage == STAGE_MOVE:
        return S["fr_player"][b, np.int64(S["depth"][b]) - 1] == p
    return stage == STAGE_PLAY_UNIT


@njit
def look_from_legal(S, tb, b, buf, n):
    """The lookahead's choice among buf[:n] (module section above): the best value of the
    copy after each action (evaluate), ties by the rules of thumb's score (_score), then
    uniform from the agent RNG. Each action is played out on LOOK_SAMPLES rules RNG streams,
    drawn from the agent's, each with its own hide_cards deal, and valued by the sum; the
    same streams for every action (common random numbers: the actions are compared on the
    same dice). An action that rolls no die and flips no card on the first stream would come
    out the same on all of them: it is played out once."""
    p = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    T = np.empty(1, dtype=STATE_DTYPE)
    sub = np.empty(buf.shape[0], dtype=np.int64)
    field = np.empty(MAX_POS, dtype=np.int64)
    base_field = np.empty(MAX_POS, dtype=np.int64)
    use_field = _decision_field(S, tb, b, p, stage, buf, base_field)
    w0 = S["agent_rng"][b, 0] ^ np.uint64(0x9E3779B97F4A7C15)
    w1 = S["agent_rng"][b, 1] | np.uint64(1)
    randint(S["agent_rng"], b, 2)  # the next decision draws other dice
    best_v = -(10**12)
    best_s = -(10**12)
    ties = 0
    choice = np.int64(buf[0])
    for i in range(n):
        a = np.int64(buf[i])
        v = np.int64(0)
        for j in range(LOOK_SAMPLES):
            T[0] = S[b]
            T["rng"][0, 0] = w0 ^ (np.uint64(j) * np.uint64(0x632BE59BD9B4E019))
            T["rng"][0, 1] = w1 + np.uint64(2 * j)
            hide_cards(T, tb, p)
            r0 = T["rng"][0, 0]
            r1 = T["rng"][0, 1]
            d0 = T["deck_count"][0, 0]
            d1 = T["deck_count"][0, 1]
            apply_action(T, tb, 0, a)
            _finish_part(T, tb, p, sub)
            v += evaluate(T, tb, np.int64(0), p, field)
            if (
                j == 0
                and T["rng"][0, 0] == r0
                and T["rng"][0, 1] == r1
                and T["deck_count"][0, 0] == d0
                and T["deck_count"][0, 1] == d1
            ):
                v *= LOOK_SAMPLES  # no die rolled, no card flipped: every sample the same
                break
        s = _score(S, tb, b, p, stage, a, base_field, use_field)
        if v > best_v or (v == best_v and s > best_s):
            best_v = v
            best_s = s
            ties = 1
            choice = a
        elif v == best_v and s == best_s:
            ties += 1
            if randint(S["agent_rng"], b, ties) == 0:
                choice = a
    return choice


@njit
def heuristic_from_legal(S, tb, b, buf, n):
    """The heuristic agent's action among buf[:n] (the legal list): the lookahead where it
    decides (_looks), else the rules of thumb (base_from_legal)."""
    p = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    if stage == STAGE_MAIN or stage == STAGE_WINDOW:
        # the card kept to remove the Obstacle is not spent on its other part
        m = np.int64(0)
        for i in range(n):
            if not _wastes_clear(S, tb, b, p, np.int64(buf[i])):
                buf[m] = buf[i]
                m += 1
        n = m
    if n > 1 and _looks(S, tb, b, p, stage):
        return look_from_legal(S, tb, b, buf, n)
    return base_from_legal(S, tb, b, buf, n)
