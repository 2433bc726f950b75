"""TACTICA combat arithmetic as numba kernels (docs/rules/tactica.md TT-B.3, TT-B.7.4,
TT-A.1, TT-A.2, TT-A.11-13).

Every kernel takes `tb`, the tables' numba record (``Tables.arrays``), then int64 scalars,
bool flags and int64 arrays; it reads nothing else and raises nothing. The engine's state
kernels gather the values (troop kinds, training, distances, terrain of the hex a troop
stands on, the friendly neighbours of a Saved target) and call these. Preconditions the
engine guarantees, not checked here: indices inside their tables, training in
0..tb.max_training, and that each attacker may take part in the attack (TT-B.7.4.2: in
range, line of fire). The slow plain-Python versions in envs/tactica/reference.py are the
cross-check (tests/tactica/test_tt_combat.py).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.tables import (
    COMBAT_MELEE,
    COMBAT_RANGED,
    SACRIFICE_EXTEND_ATTACK_RANGE,
    SACRIFICE_EXTRA_MOVE,
    SACRIFICE_GUARD_DEF_BONUS,
)

# --- OFF of an attack (TT-B.7.4.3) ---------------------------------------------------------


@njit_inline
def press_off_bonus(tb, training: int, adjacent: bool, advanced: bool) -> int:
    """OFF one attacking troop gains from a Press card (reading R3).

    Basic (TT-B.4.2): +1, only for a troop adjacent to the target. Advanced (TT-A.1.1,
    TT-A.1.2): 1 + training level, for every troop in the attack at any range."""
    if advanced:
        return np.int64(1 + training)
    if adjacent:
        return np.int64(1)
    return np.int64(0)


@njit
def troop_attack_off(
    tb,
    troop: int,
    training: int,
    distance: int,
    target_melee: bool,
    press: bool,
    advanced: bool,
    terrain_off: int,
) -> int:
    """OFF one troop adds to an attack (TT-B.7.4.3): printed OFF + training (TT-B.3.3) + the
    OFF modifier of its hex, minus the ranged troop's penalty against an adjacent melee
    troop (I13), plus the Press bonus if Press was played on this attack; at least 0.
    `distance` is in hexes (1 = adjacent); `target_melee` is False for a summon or spire."""
    off = np.int64(tb.troop_off[troop]) + training * np.int64(tb.training_off_per_level)
    off += terrain_off
    if tb.troop_combat[troop] == COMBAT_RANGED and distance == 1 and target_melee:
        off -= np.int64(tb.ranged_adjacent_melee_penalty)
    if press:
        off += press_off_bonus(tb, training, distance == 1, advanced)
    return max(off, np.int64(0))


@njit
def attack_total_off(
    tb,
    n: int,
    troops: np.ndarray,
    training: np.ndarray,
    distance: np.ndarray,
    terrain_off: np.ndarray,
    target_melee: bool,
    press: bool,
    advanced: bool,
) -> int:
    """The attack's total OFF (TT-B.7.4.3): the sum of troop_attack_off over the first `n`
    participants (int64 arrays: troop kind, training, distance to the target, OFF modifier
    of the hex it stands on). One Press helps every participant (R3)."""
    total = np.int64(0)
    for i in range(n):
        total += troop_attack_off(
            tb,
            troops[i],
            training[i],
            distance[i],
            target_melee,
            press,
            advanced,
            terrain_off[i],
        )
    return total


# --- DEF of the target (TT-B.7.4.4) --------------------------------------------------------


@njit
def target_total_def(tb, troop: int, training: int, terrain_def: int, saved_bonus: int) -> int:
    """The target troop's total DEF (TT-B.7.4.4): printed DEF + training (TT-B.3.3) + the
    DEF modifier of its hex + the Saved bonus (saved_def_bonus, 0 without Saved). Not
    clamped: the clause gives no floor (the lowest the shipped data reaches is 0)."""
    return (
        np.int64(tb.troop_def[troop])
        + training * np.int64(tb.training_def_per_level)
        + terrain_def
        + saved_bonus
    )


@njit
def is_captured(total_off: int, total_def: int) -> bool:
    """TT-B.7.4.5 (capture_rule off_greater_than_def): captured when total OFF > total DEF."""
    return total_off > total_def


# --- Saved (TT-B.4.3, TT-A.2) ---------------------------------------------------------------


@njit
def saved_may_be_played_on(tb, target: int, advanced: bool) -> bool:
    """Basic (TT-B.4.3): any melee troop. Advanced (TT-A.2.1): only a Champion or a Foot."""
    if advanced:
        return target == tb.foot_troop or target == tb.champion_troop
    return tb.troop_combat[target] == COMBAT_MELEE


@njit
def _is_defending(tb, neighbour: int, advanced: bool) -> bool:
    # reading R4: the adjacent friendly troops Saved counts, melee (basic) or Foot (advanced)
    if advanced:
        return neighbour == tb.foot_troop
    return tb.troop_combat[neighbour] == COMBAT_MELEE


@njit_inline
def saved_def_bonus(
    tb,
    target: int,
    n: int,
    neighbour_troop: np.ndarray,
    neighbour_training: np.ndarray,
    advanced: bool,
) -> int:
    """DEF a Saved card gives `target`, whose adjacent friendly troops are the first `n` of
    (neighbour_troop, neighbour_training); 0 if Saved may not be played on it.

    Basic (TT-B.4.3): +1 per adjacent melee troop card. Advanced Foot (TT-A.2.2): +1 per
    training level of adjacent Foot. Advanced Champion (TT-A.2.4, R5): +1 per adjacent Foot
    plus +1 per training level on them."""
    if not saved_may_be_played_on(tb, target, advanced):
        return np.int64(0)
    bonus = np.int64(0)
    for i in range(n):
        if not _is_defending(tb, neighbour_troop[i], advanced):
            continue
        if not advanced:
            bonus += 1
        elif target == tb.foot_troop:
            bonus += neighbour_training[i]
        else:
            bonus += 1 + neighbour_training[i]
    return bonus


@njit
def saved_defending_troops(
    tb,
    target: int,
    n: int,
    neighbour_troop: np.ndarray,
    advanced: bool,
    out: np.ndarray,
) -> int:
    """The "defending" troops of a Saved `target` (R4): writes their positions among the
    first `n` neighbours into `out` (int64, length >= n) and returns how many; 0 if Saved may
    not be played on it."""
    if not saved_may_be_played_on(tb, target, advanced):
        return np.int64(0)
    k = np.int64(0)
    for i in range(n):
        if _is_defending(tb, neighbour_troop[i], advanced):
            out[k] = i
            k += 1
    return k


@njit_inline
def saved_extra_capture_candidates(
    tb,
    target: int,
    n: int,
    neighbour_troop: np.ndarray,
    neighbour_training: np.ndarray,
    advanced: bool,
    out: np.ndarray,
) -> int:
    """Defending troops the capturing player may also capture when a Saved troop is still
    captured (R6; TT-B.4.3, TT-A.2.3, TT-A.2.5): basic and advanced Foot, a trained defending
    Foot; advanced Champion, any defending Foot. Writes their positions among the first `n`
    neighbours into `out` (int64, length >= n) and returns how many (0: nothing more)."""
    k = saved_defending_troops(tb, target, n, neighbour_troop, advanced, out)
    if advanced and target == tb.champion_troop:
        return k
    m = np.int64(0)
    for j in range(k):
        i = out[j]
        if neighbour_troop[i] == tb.foot_troop and neighbour_training[i] > 0:
            out[m] = i
            m += 1
    return m


# --- summons and spires (TT-A.11-13) ---------------------------------------------------------


@njit_inline
def summon_attack_off(tb, summon: int) -> int:
    """A summon's OFF in its attack (TT-A.11.7): its printed OFF alone; no terrain
    (TT-A.11.3), no training, no tactics card (TT-A.11.1), no troop joins it."""
    return np.int64(tb.summon_off[summon])


@njit_inline
def summon_target_def(tb, troop: int, training: int) -> int:
    """DEF of a troop a summon attacks (TT-A.11.7): printed DEF + training, without terrain
    (TT-A.11.3 "features of their targets") and without Saved (no tactics, TT-A.11.1)."""
    return target_total_def(tb, troop, training, 0, 0)


@njit_inline
def summon_total_def(tb, summon: int) -> int:
    """DEF of a summon attacked by troops (TT-A.11.8): printed DEF, no terrain, no training."""
    return np.int64(tb.summon_def[summon])


@njit_inline
def spire_total_def(tb) -> int:
    """DEF a razing attack on a spire must exceed (TT-A.11.9: rules spire_def, 4)."""
    return np.int64(tb.spire_def)


@njit
def aegis_def_bonus(tb, sacrifice: int) -> int:
    """DEF the guarded troop gains from a guard_def_bonus sacrifice (Aegis, TT-A.12.2: +3),
    added to its total DEF for the attack being resolved; 0 for any other sacrifice or -1.
    Whether the troop is within reach is the engine's (geometry)."""
    if sacrifice < 0 or tb.sacrifice_effect[sacrifice] != SACRIFICE_GUARD_DEF_BONUS:
        return np.int64(0)
    return np.int64(tb.sacrifice_param[sacrifice])


@njit
def summon_attack_range(tb, summon: int, sacrifice: int) -> int:
    """A summon's attack range this turn: its printed range, or the param of its own
    extend_attack_range sacrifice made this turn (Tempest, TT-A.12.3: 3). `sacrifice` = -1
    when none was made."""
    if (
        sacrifice >= 0
        and tb.sacrifice_summon[sacrifice] == summon
        and tb.sacrifice_effect[sacrifice] == SACRIFICE_EXTEND_ATTACK_RANGE
    ):
        return np.int64(tb.sacrifice_param[sacrifice])
    return np.int64(tb.summon_attack_range[summon])


@njit_inline
def summon_move(tb, summon: int, sacrifice: int) -> int:
    """Hexes a summon may move this turn: its printed move, plus the param of its own
    extra_move sacrifice made this turn (Burrow, TT-A.13.3: +4). `sacrifice` = -1 if none."""
    move = np.int64(tb.summon_move[summon])
    if (
        sacrifice >= 0
        and tb.sacrifice_summon[sacrifice] == summon
        and tb.sacrifice_effect[sacrifice] == SACRIFICE_EXTRA_MOVE
    ):
        move += np.int64(tb.sacrifice_param[sacrifice])
    return move
