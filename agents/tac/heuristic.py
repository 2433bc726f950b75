"""A TAC heuristic: score every legal action by its expected value, take the best.

Numba-callable (`heuristic_action`) so self-play never leaves compiled code, and wrapped
for Python by :class:`TacHeuristicAgent`. Its rules of thumb, by decision:

- deploy (2.2): tanks in the Frontline (Armour, and both their guns fire from there), units
  whose best weapon is heavy (Heavy Missile) in the Reserve Line, within range but out of
  light weapons' reach, units that need no range (Arty, Air-Def vehicles: their value is their
  role) in the Rear Line, light-weapon units in the Frontline.
- mode: Static (missiles and arty fire; High Cover works) unless the team has no missile or
  arty units and at least two gun units in range, then Mobile (free gun, +1 gun range).
- HQ: reinforce from the pile whose top is worth more; repair the most valuable damaged unit;
  upgrade the unit whose least gain (over the better units its pile holds) is largest.
- reposition: keep heavy-weapon units in the first two rows and light-weapon units in the
  Frontline; move units with no weapons (arty) to the rear.
- attack: expected victory points removed: a kill is worth the target's VP, damage is worth
  its share of the target's hit points; air attacks scaled by the chance to hit after
  Air-Def, arty by its to-hit; purple cards go on the strongest red card.
- defence: always absorb when a laid defence applies; among several open defences pick the
  one that costs least: one already absorbing this phase, Air Supremacy (never used up), a
  revealed card (it stays, face-up), a certain stop before Air Superiority's roll; always
  play Damage Control.
- ending: lay the defences that work in the current mode on the row with most VP, face-down
  while AP are left.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import next_u64
from envs.tac.actions import (
    A_ARTY,
    A_ATTACK,
    A_ATTACK_DONE,
    A_BACK,
    A_DAMAGE_CONTROL,
    A_DEFEND,
    A_DEPLOY,
    A_END_TURN,
    A_FORWARD,
    A_HQ_DONE,
    A_LAY,
    A_MODE,
    A_NO_DEFENCE,
    A_PLACE,
    A_PURPLE,
    A_REINFORCE,
    A_REPAIR,
    A_REPOSITION_DONE,
    A_UPGRADE,
    N_OPPONENTS,
)
from envs.tac.attacks import (
    air_to_hit,
    arty_to_hit,
    card_attack_kind,
    damage_to_unit,
    modified_damage,
)
from envs.tac.defences import defence_stops
from envs.tac.state import (
    MAX_ATTACKS,
    MAX_TEAM,
    MOBILE,
    N_ROWS,
    STAGE_OPEN_DEFENCE,
    STATIC,
)
from envs.tac.tables import (
    AIR_SUPERIORITY,
    AIR_SUPREMACY,
    ATTACK_AIR,
    ATTACK_ARTY,
    ATTACK_GUN,
    ATTACK_MISSILE,
    CLASS_AIR_DEFENCE,
    CLASS_ARTY,
    CLASS_TANK,
    GUN,
    HEAVY,
    LIGHT,
    MISSILE,
)
from envs.tac.turn import legal_actions, next_to_deploy, opponent_seat
from envs.tac.units import air_defence_count, effective_hit_points, is_better_unit

NEG = -1.0e9


@njit
def unit_value(tb, u):
    return float(tb.unit_victory_points[u])


@njit
def expected_attack_value(S, tb, b, p, kind, card_type, q, t, purple_type):
    """Expected VP taken from seat q's slot t by this attack."""
    u = S["team_type"][b, q, t]
    mode = S["mode"][b, q]
    hp = effective_hit_points(tb, u, mode)
    left = hp - S["team_damage"][b, q, t]
    vp = unit_value(tb, u)
    if kind == ATTACK_ARTY:
        return vp * arty_to_hit(tb, mode) / 6.0
    dmg = damage_to_unit(tb, kind, modified_damage(tb, card_type, purple_type), u, mode)
    if dmg <= 0:
        return -1.0
    value = vp if dmg >= left else vp * dmg / hp
    if kind == ATTACK_AIR:
        th = air_to_hit(tb, card_type, air_defence_count(S, tb, b, q))
        if th <= 0:
            return -1.0
        value *= min(th, 6) / 6.0
    return value


@njit
def weapon_needs_row(tb, u):
    """Deepest row from which unit type u can still fire its best weapon (6.1-6.2)."""
    if tb.unit_class[u] == CLASS_ARTY:
        return N_ROWS - 1
    if tb.unit_weapons[u, GUN, HEAVY] or tb.unit_weapons[u, MISSILE, HEAVY]:
        return 1
    if tb.unit_weapons[u, GUN, LIGHT] or tb.unit_weapons[u, MISSILE, LIGHT]:
        return 0
    return N_ROWS - 1


@njit
def deploy_row(tb, u):
    """2.2 / 6.1-6.2: the row the heuristic deploys unit type u in."""
    if tb.unit_class[u] == CLASS_TANK:
        return 0
    if tb.unit_class[u] == CLASS_AIR_DEFENCE:
        return N_ROWS - 1  # Air-Def works from any row (3.9)
    return weapon_needs_row(tb, u)


@njit
def upgrade_gain(S, tb, b, u):
    """Least victory points an Upgrade of unit type u gains, over the better units its pile
    holds (the piles' contents are public, their order is not)."""
    cat = tb.unit_category[u]
    least = 1.0e9
    for i in range(S["pile_count"][b, cat]):
        v = S["pile"][b, cat, i]
        if is_better_unit(tb, v, u):
            least = min(least, unit_value(tb, v) - unit_value(tb, u))
    return least if least < 1.0e8 else 0.0


@njit
def open_defence_score(S, tb, b, p, slot):
    """Which of several open defences absorbs (10.5): the one whose use costs least."""
    score = 1.0
    for k in range(S["attack_count"][b]):
        if S["attack_target"][b, k] == p and S["attack_defence"][b, k] == slot:
            score += 1.0  # already absorbing this phase: used up anyway
            break
    dk = tb.card_type_defence[tb.card_type[S["defence_card"][b, p, slot]]]
    if dk == AIR_SUPREMACY:
        score += 0.8  # never runs out (10.10)
    if S["defence_revealed"][b, p, slot]:
        score += 0.4  # turns face-up and stays (10.7)
    if dk != AIR_SUPERIORITY:
        score += 0.2  # a certain stop, no roll (10.9)
    return score


@njit
def score_action(S, tb, b, p, a):
    if a < A_MODE:
        u = S["team_type"][b, p, next_to_deploy(S, b, np.int64(p))]
        return -float(abs(a - A_DEPLOY - deploy_row(tb, u)))
    if a == A_HQ_DONE or a == A_REPOSITION_DONE or a == A_ATTACK_DONE or a == A_END_TURN:
        return 0.0
    if a == A_NO_DEFENCE:
        return 0.0
    if a < A_REINFORCE:
        guns = 0
        static_only = 0
        for t in range(MAX_TEAM):
            u = S["team_type"][b, p, t]
            if u >= 0:
                if tb.unit_class[u] == CLASS_ARTY or tb.unit_weapons[u, MISSILE, HEAVY]:
                    static_only += 1
                if tb.unit_weapons[u, GUN, HEAVY] or tb.unit_weapons[u, GUN, LIGHT]:
                    guns += 1
        want = MOBILE if (static_only == 0 and guns >= 2) else STATIC
        return 1.0 if a - A_MODE == want else 0.5
    if a < A_REPAIR:
        cat = a - A_REINFORCE
        top = S["pile"][b, cat, S["pile_count"][b, cat] - 1]
        return 1.0 + unit_value(tb, top)
    if a < A_UPGRADE:
        t = a - A_REPAIR
        u = S["team_type"][b, p, t]
        return unit_value(tb, u) * S["team_damage"][b, p, t] / tb.unit_hit_points[u]
    if a < A_HQ_DONE:
        t = a - A_UPGRADE
        return upgrade_gain(S, tb, b, S["team_type"][b, p, t]) - 0.5
    if a < A_REPOSITION_DONE:
        if a < A_BACK:
            t = a - A_FORWARD
            new_row = S["team_row"][b, p, t] - 1
        elif a < A_PLACE:
            t = a - A_BACK
            new_row = S["team_row"][b, p, t] + 1
        else:
            t = (a - A_PLACE) // N_ROWS
            new_row = (a - A_PLACE) % N_ROWS
        need = weapon_needs_row(tb, S["team_type"][b, p, t])
        row = S["team_row"][b, p, t]
        if row > need and new_row < row and new_row >= 0:
            return 0.5
        if need == N_ROWS - 1 and new_row > row:
            return 0.3
        return -1.0
    if a < A_ARTY:
        i = a - A_ATTACK
        h = i // (N_OPPONENTS * MAX_TEAM)
        o = (i // MAX_TEAM) % N_OPPONENTS
        t = i % MAX_TEAM
        ct = tb.card_type[S["hand"][b, p, h]]
        kind = card_attack_kind(tb, ct)
        v = expected_attack_value(S, tb, b, p, kind, ct, opponent_seat(S, b, p, o), t, -1)
        if kind == ATTACK_GUN and S["free_gun"][b]:
            v += 0.1
        return v
    if a < A_PURPLE:
        i = a - A_ARTY
        return expected_attack_value(
            S, tb, b, p, ATTACK_ARTY, -1, opponent_seat(S, b, p, i // MAX_TEAM), i % MAX_TEAM, -1
        )
    if a < A_ATTACK_DONE:
        i = a - A_PURPLE
        k = i % MAX_ATTACKS
        pt = tb.card_type[S["hand"][b, p, i // MAX_ATTACKS]]
        ct = tb.card_type[S["attack_card"][b, k]]
        q = S["attack_target"][b, k]
        t = S["attack_slot"][b, k]
        kind = S["attack_kind"][b, k]
        gain = expected_attack_value(S, tb, b, p, kind, ct, q, t, pt) - expected_attack_value(
            S, tb, b, p, kind, ct, q, t, -1
        )
        return gain if gain > 0 else -1.0
    if a < A_NO_DEFENCE:
        if S["stage"][b] == STAGE_OPEN_DEFENCE:
            return open_defence_score(S, tb, b, p, a - A_DEFEND)
        return 1.0  # A_DEFEND: absorbing is free
    if a < A_LAY:
        return 1.0 if a == A_DAMAGE_CONTROL else 0.0
    i = a - A_LAY
    face_down = i % 2
    r = (i // 2) % N_ROWS
    h = i // (2 * N_ROWS)
    ct = tb.card_type[S["hand"][b, p, h]]
    dk = tb.card_type_defence[ct]
    mode = S["mode"][b, p]
    useful = (
        defence_stops(dk, ATTACK_GUN, mode)
        or defence_stops(dk, ATTACK_MISSILE, mode)
        or defence_stops(dk, ATTACK_AIR, mode)
        or defence_stops(dk, ATTACK_ARTY, mode)
    )
    if not useful:
        return -1.0
    row_vp = 0.0
    for t in range(MAX_TEAM):
        u = S["team_type"][b, p, t]
        if u >= 0 and S["team_row"][b, p, t] == r:
            row_vp += unit_value(tb, u)
    return 0.1 + row_vp / 10.0 + 0.5 * face_down


@njit
def heuristic_action(S, tb, b, buf):
    """The best-scoring legal action (ties broken by the game's agent RNG)."""
    return heuristic_from_legal(S, tb, b, buf, legal_actions(S, tb, b, buf))


@njit
def heuristic_from_legal(S, tb, b, buf, n):
    """The best-scoring of the n legal actions in buf."""
    p = S["current"][b]
    best = NEG
    best_a = buf[0]
    ties = 0
    for i in range(n):
        a = buf[i]
        s = score_action(S, tb, b, p, a)
        if s > best + 1e-9:
            best = s
            best_a = a
            ties = 1
        elif abs(s - best) <= 1e-9:
            ties += 1
            # reservoir choice among equal scores
            if (next_u64(S["agent_rng"], b) >> np.uint64(33)) % np.uint64(ties) == 0:
                best_a = a
    return best_a
