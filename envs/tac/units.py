"""Seed chapters 2.2 (rows) and 3 (units): Combat Team slots, rows, hit points, weapons.

`tb` is the TacArrays tables tuple, `S` the TacState; `b` a game, `p` a seat.
"""

from __future__ import annotations

from envs.core.deck import pile_push_bottom
from envs.core.jit import njit
from envs.tac.state import (
    DEF_EMPTY,
    MAX_DEFENCES,
    MAX_TEAM,
    MAX_UNDER,
    MOBILE,
    N_ROWS,
    STATIC,
)
from envs.tac.tables import (
    CLASS_ARTY,
    CLASS_INFANTRY,
    CLASS_TANK,
    HEAVY,
    MISSILE,
    S_INF_HP,
)


@njit
def team_size(S, b, p):
    n = 0
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0:
            n += 1
    return n


@njit
def row_count(S, b, p):
    """Rows in use (rows are compact, so this is the last row + 1)."""
    r = 0
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0 and S["team_row"][b, p, t] + 1 > r:
            r = S["team_row"][b, p, t] + 1
    return r


@njit
def units_in_row(S, b, p, row):
    n = 0
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0 and S["team_row"][b, p, t] == row:
            n += 1
    return n


@njit
def compact_rows(S, b, p):
    """2.2: the row nearest the opponents is always the Frontline, the next the Reserve Line.

    Empty rows close up; laid defences follow their row (10.4), and a defence whose row
    disappeared protects nothing and is discarded.
    """
    used = [False, False, False]
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0:
            used[S["team_row"][b, p, t]] = True
    new_index = [-1, -1, -1]
    nxt = 0
    for r in range(N_ROWS):
        if used[r]:
            new_index[r] = nxt
            nxt += 1
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0:
            S["team_row"][b, p, t] = new_index[S["team_row"][b, p, t]]
    for d in range(MAX_DEFENCES):
        if S["defence_state"][b, p, d] != DEF_EMPTY:
            r = new_index[S["defence_row"][b, p, d]]
            if r < 0:
                discard_card(S, b, S["defence_card"][b, p, d])
                S["defence_card"][b, p, d] = -1
                S["defence_state"][b, p, d] = DEF_EMPTY
                S["defence_used"][b, p, d] = False
                S["defence_revealed"][b, p, d] = False
            else:
                S["defence_row"][b, p, d] = r


@njit
def discard_card(S, b, card):
    if card >= 0:
        S["discard"][b, S["discard_count"][b]] = card
        S["discard_count"][b] += 1


@njit
def effective_hit_points(tb, unit_type, mode):
    """3.5: Infantry in Static Mode have two hit points; otherwise the card's value."""
    if tb.unit_class[unit_type] == CLASS_INFANTRY and mode == STATIC:
        return tb.settings[S_INF_HP]
    return tb.unit_hit_points[unit_type]


@njit
def is_tank(tb, unit_type):
    return tb.unit_class[unit_type] == CLASS_TANK


@njit
def can_use_own_weapons(tb, unit_type, mode):
    """3.6: Infantry in Mobile Mode ride in vehicles and cannot use their own weapons."""
    return not (tb.unit_class[unit_type] == CLASS_INFANTRY and mode == MOBILE)


@njit
def air_defence_count(S, tb, b, p):
    """3.9 / 8.2: each unit with Air-Def lowers air to-hit by 1 (Mobile infantry: 3.6)."""
    n = 0
    mode = S["mode"][b, p]
    for t in range(MAX_TEAM):
        u = S["team_type"][b, p, t]
        if u >= 0 and tb.unit_air_defence[u] and can_use_own_weapons(tb, u, mode):
            n += 1
    return n


@njit
def firing_units(S, tb, b, p, weapon_type, weight):
    """4.3 / 5.2 / 6.1-6.2: units able to fire this weapon now (one card per unit).

    Heavy weapons fire from the Frontline or Reserve Line, light ones from the Frontline.
    Missiles fire only in Static mode (7.3).
    """
    mode = S["mode"][b, p]
    if weapon_type == MISSILE and mode == MOBILE:
        return 0
    last_row = 1 if weight == HEAVY else 0
    n = 0
    for t in range(MAX_TEAM):
        u = S["team_type"][b, p, t]
        if (
            u >= 0
            and S["team_row"][b, p, t] <= last_row
            and tb.unit_weapons[u, weapon_type, weight]
            and can_use_own_weapons(tb, u, mode)
        ):
            n += 1
    return n


@njit
def arty_units(S, tb, b, p):
    """3.8 / 9.1: each Arty unit makes one arty attack per turn, from any row."""
    n = 0
    for t in range(MAX_TEAM):
        u = S["team_type"][b, p, t]
        if u >= 0 and tb.unit_class[u] == CLASS_ARTY:
            n += 1
    return n


@njit
def free_slot(S, b, p):
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] < 0:
            return t
    return -1


@njit
def place_unit(S, b, p, slot, unit_type, row):
    S["team_type"][b, p, slot] = unit_type
    S["team_row"][b, p, slot] = row
    S["team_damage"][b, p, slot] = 0


@njit
def clear_under(S, b, p, slot):
    """Discard the Action cards kept under a unit (repair, destruction, upgrade)."""
    for i in range(MAX_UNDER):
        c = S["under"][b, p, slot, i]
        if c >= 0:
            discard_card(S, b, c)
            S["under"][b, p, slot, i] = -1


@njit
def keep_under(S, b, p, slot, card):
    """4.5: a Gun or Missile card that damaged a surviving unit is kept under it."""
    for i in range(MAX_UNDER):
        if S["under"][b, p, slot, i] < 0:
            S["under"][b, p, slot, i] = card
            return
    discard_card(S, b, card)  # cannot happen with hit points <= MAX_UNDER


@njit
def return_to_pile(S, tb, b, unit_type):
    """4.5: destroyed units go to the bottom of their reinforcement pile."""
    cat = tb.unit_category[unit_type]
    S["pile_count"][b, cat] = pile_push_bottom(
        S["pile"][b, cat], S["pile_count"][b, cat], unit_type
    )


@njit
def remove_unit(S, tb, b, p, slot):
    """A destroyed unit leaves the team: its cards to the discard, the card to its pile."""
    u = S["team_type"][b, p, slot]
    clear_under(S, b, p, slot)
    return_to_pile(S, tb, b, u)
    S["team_type"][b, p, slot] = -1
    S["team_row"][b, p, slot] = 0
    S["team_damage"][b, p, slot] = 0


@njit
def is_undamaged(S, b, p, slot):
    return S["team_type"][b, p, slot] >= 0 and S["team_damage"][b, p, slot] == 0


@njit
def is_better_unit(tb, new, old):
    """4.2 Upgrade (ours, I7): a unit type is better when it lists strictly more victory
    points and no fewer hit points."""
    return (
        tb.unit_victory_points[new] > tb.unit_victory_points[old]
        and tb.unit_hit_points[new] >= tb.unit_hit_points[old]
    )


@njit
def upgrade_position(S, tb, b, old):
    """4.2 Upgrade (I7): index in its reinforcement pile of the first unit from the top that
    is better than unit type `old`, or -1 when there is none (the Upgrade is then illegal)."""
    cat = tb.unit_category[old]
    for i in range(S["pile_count"][b, cat] - 1, -1, -1):
        if is_better_unit(tb, S["pile"][b, cat, i], old):
            return i
    return -1


@njit
def upgrade_unit(S, tb, b, p, slot):
    """4.2 Upgrade (I7): the unit is replaced, in its row, by the first better unit from the
    top of its pile; the old unit goes to the bottom of that pile. Damage and the cards under
    the unit carry over, the damage capped one below the new unit's hit points (surplus
    cards under it discarded) so that an Upgrade never destroys."""
    old = S["team_type"][b, p, slot]
    cat = tb.unit_category[old]
    i = upgrade_position(S, tb, b, old)
    n = S["pile_count"][b, cat]
    new = S["pile"][b, cat, i]
    for j in range(i, n - 1):  # the cards above close up: the pile keeps its order
        S["pile"][b, cat, j] = S["pile"][b, cat, j + 1]
    S["pile"][b, cat, n - 1] = -1
    S["pile_count"][b, cat] = n - 1
    return_to_pile(S, tb, b, old)
    S["team_type"][b, p, slot] = new
    cap = effective_hit_points(tb, new, S["mode"][b, p]) - 1
    if S["team_damage"][b, p, slot] > cap:
        S["team_damage"][b, p, slot] = cap
    kept = 0
    for k in range(MAX_UNDER):
        c = S["under"][b, p, slot, k]
        if c >= 0:
            if kept >= S["team_damage"][b, p, slot]:
                discard_card(S, b, c)
                S["under"][b, p, slot, k] = -1
            else:
                kept += 1
