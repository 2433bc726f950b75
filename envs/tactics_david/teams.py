"""Unit Teams as numba leaves (TD-9.7, TD-18; branch tdteams).

Two units of one player may share a Grid Space as a Unit Team (TD-18.1). The state keeps
``unit_team[u]`` (the partner, -1 none), ``cell_unit[cell, 0..1]`` (both members) and
``unit_team_side[u]``: the side of the space (FACE_*) the member stands on after the
Orientation Procedure; its partner stands on the opposite side (TD-9.7: side by side
north-south or east-west). Encodings (actions.py)::

    stage             action      meaning
    STAGE_ORIENT      A_FACE + d  the member that moved in stands on side d (its partner on
                                  the opposite side), asked of the owner (TD-9.7, TD-18.2)
    STAGE_TEAM_PICK   A_FACE + d  the member on side d receives the attack (TD-18.6)
    STAGE_MOVE        A_UNFORM    the Engaged member leaves its Team: its next Movement
                                  Procedure moves it alone (TD-18.3)

Forming (TD-18.2): the Engaged unit's Movement Procedure may end on the space of one own unit
that is not Dead, has not entered its Combat Phase this Turn, is not Locked in Combat and is
in no Team (movement.reach asks may_join); the Orientation Procedure follows, then a Facing
Procedure may, and both units' Movement Phases are over for this Turn (unit_no_move, R81).
Moving (TD-18.4): a member's Movement or Charging Procedure moves both (move_team) at the
lower Movement Rating, as Land unless both share a Movement Type (team_mtype), and a charge
needs both to face the same way. Defending (TD-18.6): every attack strikes one member of a
Team (team_struck); combat.py asks the choosing player through STAGE_TEAM_PICK.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.actions import A_FACE, STAGE_MOVE
from envs.tactics_david.effects import ability_on
from envs.tactics_david.record import TEAM_CARRY, TEAM_CIRCUMVENT
from envs.tactics_david.state import MAX_UNITS, N_UNIT_IDS
from envs.tactics_david.units import ability_count, ability_prof, in_play, is_dead, side_of

LAND = 0  # tables.MOVEMENT_TYPES index of "Land" (a mixed Team's Movement Type, TD-18.4)
SOAR = 2  # ... of "Soar" (Carry)


@njit
def team_bits(S, tb, b: int, u: int) -> int:
    """The record.TEAM_* bits of unit u's acting abilities (every member of a stack): Carry,
    Ride, Circumvent (TD-22.2)."""
    bits = np.int64(0)
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof >= 0 and ability_on(S, tb, b, u, prof):
            bits |= np.int64(tb.ab_team[prof])
    return bits


@njit
def moves_as_team(S, tb, b: int, u: int) -> bool:
    """Whether a move of unit u takes its Team partner along (TD-18.4): it is in a Team whose
    partner is in play (a survivor of a Dead partner leaves alone, TD-18.7) and it is not the
    Engaged member leaving the Team (A_UNFORM, TD-18.3)."""
    v = np.int64(S["unit_team"][b, u])
    if v < 0 or not in_play(S, tb, b, v):
        return False
    return not (S["eng_solo"][b] and S["engaged"][b] == u)


@njit
def team_mtype(S, tb, b: int, u: int) -> int:
    """The Movement Type unit u moves with: its top member's, or for a Team moving together
    Land unless both members share a type (TD-18.4); a member whose partner has Carry counts
    as Soar (TD-22.2.134)."""
    m = np.int64(tb.u_mtype[S["unit_member"][b, u, 0]])
    if moves_as_team(S, tb, b, u):
        v = np.int64(S["unit_team"][b, u])
        mv = np.int64(tb.u_mtype[S["unit_member"][b, v, 0]])
        if team_bits(S, tb, b, v) & TEAM_CARRY:
            m = np.int64(SOAR)
        if team_bits(S, tb, b, u) & TEAM_CARRY:
            mv = np.int64(SOAR)
        if mv != m:
            return np.int64(LAND)
    return m


@njit
def may_join(S, tb, b: int, u: int, c: int) -> bool:
    """Whether unit u's Movement Procedure may end on space c by forming a Unit Team with the
    own unit there (TD-18.2): u is the Engaged unit and moves alone; c holds exactly one unit,
    of u's player, not Dead, not entered its Combat Phase this Turn, not Locked in Combat, in
    no Team."""
    if S["engaged"][b] != u or moves_as_team(S, tb, b, u):
        return False
    v = np.int64(S["cell_unit"][b, c, 0])
    if v < 0 or v == u or S["cell_unit"][b, c, 1] >= 0 or v // MAX_UNITS != u // MAX_UNITS:
        return False
    if S["unit_ctrl"][b, u] >= 0 or S["unit_ctrl"][b, v] >= 0:
        return False  # tdabI: a Possessed unit forms no Team (R138)
    return (
        not is_dead(S, tb, b, v)
        and not S["unit_fought"][b, v]
        and S["unit_lock"][b, v] < 0
        and S["unit_team"][b, v] < 0
    )


@njit
def move_team(S, b: int, u: int, cell: int) -> None:
    """Move unit u's whole Team to the empty space `cell`, keeping each member's slot and side
    (TD-18.4). The partner counts as moved and its Movement Phase allows no more movement
    this Turn (R81)."""
    old = np.int64(S["unit_cell"][b, u])
    v = np.int64(S["unit_team"][b, u])
    for slot in range(2):
        S["cell_unit"][b, cell, slot] = S["cell_unit"][b, old, slot]
        S["cell_unit"][b, old, slot] = -1
    S["unit_cell"][b, u] = cell
    S["unit_cell"][b, v] = cell
    S["unit_moved"][b, v] = 1
    S["unit_no_move"][b, v] = 1


@njit
def partner_left_dead(S, tb, b: int, u: int) -> bool:
    """Unit u, in play, shares its space with a Team partner that is Dead: it must move to
    another space at its first opportunity (TD-18.7)."""
    v = np.int64(S["unit_team"][b, u])
    return v >= 0 and is_dead(S, tb, b, v) and in_play(S, tb, b, u)


@njit
def attack_edge(tb, bf: int, cell: int, from_cell: int) -> int:
    """The side (FACE_*) of `cell` an attack from `from_cell` comes in by: the axis of the
    larger offset (north-south on a tie), -1 for the same space."""
    cols = np.int64(tb.bf_cols[bf])
    dr = from_cell // cols - cell // cols
    dc = from_cell % cols - cell % cols
    if dr == 0 and dc == 0:
        return -1
    if abs(dr) >= abs(dc):
        return 0 if dr < 0 else 2
    return 3 if dc < 0 else 1


@njit
def team_struck(S, tb, b: int, a: int, c: int) -> int:
    """The member of the Team on space c that an attack by unit a strikes, or -1 when c holds
    no Team of two units in play (every unit there is attacked). Only one member is ever
    attacked (TD-18.6): the one picked in STAGE_TEAM_PICK (unit_team_hit); else the only
    member exposed on the side the attack comes from; else (both exposed and nobody asked:
    an ability's area attack) the member that held the space first, cell_unit[c, 0] (R84)."""
    u0 = np.int64(S["cell_unit"][b, c, 0])
    u1 = np.int64(S["cell_unit"][b, c, 1])
    if u0 < 0 or u1 < 0 or not in_play(S, tb, b, u0) or not in_play(S, tb, b, u1):
        return -1
    if S["unit_team_hit"][b, u0]:
        return u0
    if S["unit_team_hit"][b, u1]:
        return u1
    e = attack_edge(tb, np.int64(S["battlefield"][b]), c, np.int64(S["unit_cell"][b, a]))
    if e >= 0:
        hidden = (e + 2) % 4
        if S["unit_team_side"][b, u0] == hidden:
            return u1
        if S["unit_team_side"][b, u1] == hidden:
            return u0
    return u0


@njit
def pick_cell(S, tb, b: int, a: int, cells, n: int, ranged: bool) -> int:
    """The first space among cells[:n] holding an enemy Team of two units in play whose
    attacked member is still to be chosen (TD-18.6), -1 when none: for a Ranged Attack every
    such Team (the defending player chooses), for a melee attack a Team both of whose members
    are exposed to the side the attack comes from (the attacking player chooses); for an
    attacker with Circumvent every such Team (it chooses, TD-22.2.172)."""
    bf = np.int64(S["battlefield"][b])
    for i in range(n):
        c = np.int64(cells[i])
        u0 = np.int64(S["cell_unit"][b, c, 0])
        u1 = np.int64(S["cell_unit"][b, c, 1])
        if u0 < 0 or u1 < 0 or side_of(S, b, u0) == side_of(S, b, a):
            continue
        if not in_play(S, tb, b, u0) or not in_play(S, tb, b, u1):
            continue
        if S["unit_team_hit"][b, u0] or S["unit_team_hit"][b, u1]:
            continue
        if ranged or team_bits(S, tb, b, a) & TEAM_CIRCUMVENT:
            return c  # Circumvent: its own choice whatever the exposure (TD-22.2.172)
        e = attack_edge(tb, bf, c, np.int64(S["unit_cell"][b, a]))
        hidden = (e + 2) % 4
        if e < 0 or (S["unit_team_side"][b, u0] != hidden and S["unit_team_side"][b, u1] != hidden):
            return c
    return -1


@njit
def clear_picks(S, b: int) -> None:
    """Forget the members picked for the attack (after it, or before a new one)."""
    for u in range(N_UNIT_IDS):
        S["unit_team_hit"][b, u] = 0


@njit
def legal_orient(S, tb, b: int, out) -> int:
    """STAGE_ORIENT (TD-9.7): the side of the space the member that moved in stands on."""
    for d in range(4):
        out[d] = A_FACE + d
    return 4


@njit
def apply_orient(S, tb, b: int, a: int) -> None:
    """The Orientation Procedure (TD-9.7): the Engaged member stands on side a - A_FACE, its
    partner opposite; the Movement Phase goes on (a Facing Procedure may follow, TD-18.2)."""
    u = np.int64(S["engaged"][b])
    v = np.int64(S["unit_team"][b, u])
    d = np.int64(a - A_FACE)
    S["unit_team_side"][b, u] = d
    S["unit_team_side"][b, v] = (d + 2) % 4
    S["stage"][b] = STAGE_MOVE
