"""Slow, plain-Python reference versions of TACTICA's card arithmetic, over the rule data.

They exist so the seed's worked examples (Part 3, "ADVANCED PRESS CARD", "ADVANCED SAVED
CARD") and the decree requirements ("BARRACKS PHASE and DECREES") can be checked before the
numba kernels exist, and later cross-check those kernels. Clause ids refer to
docs/rules/tactica.md.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from envs.tactica.tables import COMBAT_MELEE, COMBAT_RANGED, Tables

# A neighbouring troop as Saved sees it: (troop card name, training level).
Neighbour = tuple[str, int]


def _troop(tables: Tables, name: str) -> int:
    if name not in tables.troop_index:
        raise ValueError(f"unknown troop card {name!r}; known: {list(tables.troop_names)}")
    return tables.troop_index[name]


def _training(tables: Tables, level: int) -> int:
    top = tables.rules.max_training
    if not 0 <= level <= top:
        raise ValueError(f"training level {level} outside 0..{top} (TT-B.3.4)")
    return level


def _is_melee(tables: Tables, name: str) -> bool:
    return int(tables.troop_combat[_troop(tables, name)]) == COMBAT_MELEE


def press_off_bonus(tables: Tables, training: int, *, adjacent: bool, advanced: bool) -> int:
    """OFF one attacking troop gains from a Press card (TT-B.4.2, TT-A.1.1, reading R3).

    Basic: +1, only when attacking an adjacent enemy troop. Advanced: 1 + training level, for
    every troop in the attack, adjacent or not ("This card DOES apply to ranged troops").
    """
    _training(tables, training)
    if advanced:
        return 1 + training
    return 1 if adjacent else 0


def troop_attack_off(
    tables: Tables,
    troop: str,
    training: int,
    *,
    distance: int,
    target_melee: bool,
    press: bool,
    advanced: bool,
    terrain_off_mod: int = 0,
) -> int:
    """OFF one troop adds to an attack (TT-B.7.4.3): printed OFF + training + terrain, minus
    the ranged troop's penalty against an adjacent melee troop (I13), plus Press if played."""
    t = _troop(tables, troop)
    _training(tables, training)
    if not 1 <= distance <= int(tables.troop_range[t]):
        raise ValueError(
            f"{troop} cannot attack at distance {distance} (range {tables.troop_range[t]})"
        )
    off = int(tables.troop_off[t]) + training * tables.rules.training_off_per_level
    off += terrain_off_mod
    if int(tables.troop_combat[t]) == COMBAT_RANGED and distance == 1 and target_melee:
        off -= tables.rules.ranged_adjacent_melee_penalty
    if press:
        off += press_off_bonus(tables, training, adjacent=distance == 1, advanced=advanced)
    return max(off, 0)


def target_total_def(
    tables: Tables, troop: str, training: int, *, terrain_def_mod: int = 0, saved_bonus: int = 0
) -> int:
    """The target's total DEF (TT-B.7.4.4): printed DEF + training + terrain + Saved bonus."""
    t = _troop(tables, troop)
    _training(tables, training)
    per_level = tables.rules.training_def_per_level
    return int(tables.troop_def[t]) + training * per_level + terrain_def_mod + saved_bonus


def saved_may_be_played_on(tables: Tables, target: str, *, advanced: bool) -> bool:
    """Basic: any melee troop. Advanced: "only on Champion or Foot troops" (TT-A.2.1)."""
    if advanced:
        _troop(tables, target)
        return target in ("Champion", "Foot")
    return _is_melee(tables, target)


def defending_troops(
    tables: Tables, target: str, neighbours: Sequence[Neighbour], *, advanced: bool
) -> list[int]:
    """Indices into `neighbours` of the "defending" troops of a Saved card (reading R4):
    the adjacent friendly troops the card counts. Basic: melee troops; advanced: Foot."""
    if not saved_may_be_played_on(tables, target, advanced=advanced):
        raise ValueError(f"Saved may not be played on {target!r}")
    out = []
    for i, (name, level) in enumerate(neighbours):
        _training(tables, level)
        counted = name == "Foot" if advanced else _is_melee(tables, name)
        if counted:
            out.append(i)
    return out


def saved_def_bonus(
    tables: Tables, target: str, neighbours: Sequence[Neighbour], *, advanced: bool
) -> int:
    """DEF a Saved card gives `target`, whose adjacent friendly troops are `neighbours`.

    Basic (TT-B.4.3): +1 for each adjacent melee troop card.
    Advanced Foot (TT-A.2.2): +1 for each level of training on adjacent Foot.
    Advanced Champion (TT-A.2.3): +1 for each adjacent Foot, +1 more for each of their levels.
    """
    defenders = [
        neighbours[i] for i in defending_troops(tables, target, neighbours, advanced=advanced)
    ]
    if not advanced:
        return len(defenders)
    if target == "Foot":
        return sum(level for _, level in defenders)
    return sum(1 + level for _, level in defenders)


def saved_extra_capture_candidates(
    tables: Tables, target: str, neighbours: Sequence[Neighbour], *, advanced: bool
) -> list[int]:
    """Which defending troops may be captured with a Saved troop that is still captured
    (reading R6): basic and advanced Foot, a trained one; advanced Champion, any Foot."""
    defenders = defending_troops(tables, target, neighbours, advanced=advanced)
    if advanced and target == "Champion":
        return defenders
    return [i for i in defenders if neighbours[i][1] > 0 and neighbours[i][0] == "Foot"]


def is_captured(total_off: int, total_def: int) -> bool:
    """TT-B.7.4.5: a target is captured when the attack's total OFF exceeds its total DEF."""
    return total_off > total_def


def unique_cards(barracks: Sequence[str]) -> int:
    """Number of different card names in a Barracks (reading R11)."""
    return len(set(barracks))


def has_pair(barracks: Sequence[str]) -> bool:
    """Whether a Barracks holds two cards of one name (reading R12)."""
    return any(n >= 2 for n in Counter(barracks).values())


def decree_requirement_met(
    tables: Tables,
    decree: str,
    barracks: Sequence[str],
    *,
    capturers: int = 0,
    hostages: int = 0,
) -> bool:
    """Whether a Barracks (card names) and board meet a decree's requirement (TT-A.4.x).

    `capturers`: friendly troops on the battlefield that took part in a capture last turn;
    `hostages`: enemy troops in the player's hostage pile. A pair may reuse a named card
    (reading R12: "which could include the negate card!").
    """
    if decree not in tables.decree_index:
        raise ValueError(f"unknown decree {decree!r}; known: {list(tables.decree_names)}")
    for name in barracks:
        if name not in tables.card_index:
            raise ValueError(f"unknown card {name!r} in Barracks")
    d = tables.decree_index[decree]
    have = Counter(barracks)
    if unique_cards(barracks) < int(tables.decree_unique_cards[d]):
        return False
    named = [tables.card_names[c] for c in tables.decree_cards[d].nonzero()[0]]
    if any(have[n] < 1 for n in named):
        return False
    if bool(tables.decree_pair[d]) and not has_pair(barracks):
        return False
    if bool(tables.decree_capturer[d]) and capturers < 1:
        return False
    if bool(tables.decree_hostage[d]) and hostages < 1:
        return False
    return True
