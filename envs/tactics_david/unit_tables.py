"""Tactics David units and abilities: YAML rows -> read-only numpy tables.

Seed: 004_10748bf01204f971.txt, Unit and Item Book V3.2 ("Unit List", "Ability List").
configs/tactics_david/units.yaml holds the 202 units, configs/tactics_david/abilities.yaml the 202
abilities as rows of a small effect table (ARCHITECTURE.md section 7). The vocabulary of triggers,
procedures, conditions, selectors and effect kinds is explained in
docs/rules/tactics_david_abilities.md; envs/tactics_david/tables.py calls :func:`load_unit_tables`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from envs.core.config import CONFIG_ROOT, ConfigError, Entry, load_entries

# --- closed vocabularies transcribed from the seed ------------------------------------------

# Rule Book, "Status Affects": the seed lists these 20 (issue 3 says 23; see the doc, RA0).
STATUSES: tuple[str, ...] = (
    "Paralyzed", "Blinded", "Poisoned", "Burned", "Frozen", "Fearful", "Crippled", "Pumped",
    "Silenced", "Enchanted", "Banished", "Summoned", "Dead", "Haste", "Lucky", "Enraged",
    "Feared", "Petrified", "Reflective", "Confused",
)  # fmt: skip
# Unit and Item Book, "Attack Area List" 001-020.
ATTACK_AREAS: tuple[str, ...] = tuple(f"M{c}" for c in "ABCDEFGHIJK") + tuple(
    f"R{c}" for c in "ABCDEFGHI"
)
SPECIALS: tuple[str, ...] = ("Swarm", "Relentless", "Hulking")  # "Special List"
ROOTS: tuple[str, ...] = (
    "Soldier", "Archer", "Apprentice", "Slime", "Beast Man", "Pup", "Egg", "Ghost", "Zombie",
    "Contraption", "Bitty Bug",
)  # fmt: skip  # "Unit Tree": the 11 roots
UNIT_CLASSES = ("Light", "Medium", "Heavy")
UNIT_TYPES = ("Physical", "Magical", "Ethereal")
ATTACK_MODES = ("Melee", "Ranged")
MOVEMENT_TYPES = ("Land", "Hover", "Soar", "Aqua")
TERRAIN_TYPES = ("Field", "Water", "Road", "Forest")
ITEM_TYPES = ("Weapon", "Accessory", "Expendable")
# Rule Book, "Unit Class": core strength ranges.
CLASS_CORE_RANGE: dict[str, tuple[int, int]] = {
    "Light": (4, 12),
    "Medium": (13, 18),
    "Heavy": (19, 24),
}
N_UNITS = 202

UnitClass = Literal["Light", "Medium", "Heavy"]
UnitType = Literal["Physical", "Magical", "Ethereal"]
AttackMode = Literal["Melee", "Ranged"]
MovementType = Literal["Land", "Hover", "Soar", "Aqua"]
Status = Literal[
    "Paralyzed", "Blinded", "Poisoned", "Burned", "Frozen", "Fearful", "Crippled", "Pumped",
    "Silenced", "Enchanted", "Banished", "Summoned", "Dead", "Haste", "Lucky", "Enraged",
    "Feared", "Petrified", "Reflective", "Confused",
]  # fmt: skip
AttackArea = Literal[
    "MA", "MB", "MC", "MD", "ME", "MF", "MG", "MH", "MI", "MJ", "MK",
    "RA", "RB", "RC", "RD", "RE", "RF", "RG", "RH", "RI",
]  # fmt: skip
Special = Literal["Swarm", "Relentless", "Hulking"]

# --- effect-table vocabulary (explained in docs/rules/tactics_david_abilities.md) ----------

TRIGGERS = ("before", "during", "after", "replaces", "always")
Trigger = Literal["before", "during", "after", "replaces", "always"]

PROCEDURES = (
    "Attack", "Defend", "Duel", "Escape", "Charge", "Movement", "Ranged Hit", "Combat Phase",
    "Unit Engagement", "Disengagement", "Combat Lock", "End of Turn",
    "Acquiring Dead Status", "Acquiring Fearful Status",
)  # fmt: skip
Procedure = Literal[
    "Attack", "Defend", "Duel", "Escape", "Charge", "Movement", "Ranged Hit", "Combat Phase",
    "Unit Engagement", "Disengagement", "Combat Lock", "End of Turn",
    "Acquiring Dead Status", "Acquiring Fearful Status",
]  # fmt: skip

CONDITIONS = (
    "opposing_base_strength_greater", "opposing_back_strength_greater", "opposing_unit_is",
    "opposing_root_in", "opposing_declared_root", "opposing_attack_mode", "opposing_attack_type",
    "attacker_adjacent", "attacked_on_back", "attacked_by_ranged", "self_is_attacker",
    "self_is_defender", "won_defend", "missed", "charged_this_turn", "killed_target",
    "target_survived", "killed_enemy", "attack_area_unmodified", "opponents_turn",
    "self_on_terrain", "self_not_on_terrain", "self_has_status", "self_not_status",
    "not_combat_locked", "in_unit_team", "target_class_in", "target_unit_type",
    "target_not_unit_type", "target_attack_mode", "target_root_in", "target_movement_type",
    "target_has_status", "target_has_any_status", "target_not_combat_locked",
    "target_not_engaged", "target_core_lower", "target_core_not_lower", "target_backed",
    "target_ended_movement", "adjacent_dead_unit", "locked_with_self", "from_ability",
    "sent_item_type", "status_acquired", "counters_exhausted",
)  # fmt: skip
ConditionKind = Literal[
    "opposing_base_strength_greater", "opposing_back_strength_greater", "opposing_unit_is",
    "opposing_root_in", "opposing_declared_root", "opposing_attack_mode", "opposing_attack_type",
    "attacker_adjacent", "attacked_on_back", "attacked_by_ranged", "self_is_attacker",
    "self_is_defender", "won_defend", "missed", "charged_this_turn", "killed_target",
    "target_survived", "killed_enemy", "attack_area_unmodified", "opponents_turn",
    "self_on_terrain", "self_not_on_terrain", "self_has_status", "self_not_status",
    "not_combat_locked", "in_unit_team", "target_class_in", "target_unit_type",
    "target_not_unit_type", "target_attack_mode", "target_root_in", "target_movement_type",
    "target_has_status", "target_has_any_status", "target_not_combat_locked",
    "target_not_engaged", "target_core_lower", "target_core_not_lower", "target_backed",
    "target_ended_movement", "adjacent_dead_unit", "locked_with_self", "from_ability",
    "sent_item_type", "status_acquired", "counters_exhausted",
]  # fmt: skip
# What a condition's `values` name: checked against the seed's vocabularies on load.
CONDITION_VALUE_KIND: dict[str, str] = {
    "opposing_unit_is": "unit",
    "opposing_root_in": "root",
    "opposing_attack_mode": "attack_mode",
    "opposing_attack_type": "unit_type",
    "self_on_terrain": "terrain",
    "self_not_on_terrain": "terrain",
    "self_has_status": "status",
    "self_not_status": "status",
    "target_class_in": "unit_class",
    "target_unit_type": "unit_type",
    "target_not_unit_type": "unit_type",
    "target_attack_mode": "attack_mode",
    "target_root_in": "root",
    "target_movement_type": "movement_type",
    "target_has_status": "status",
    "target_has_any_status": "status",
    "sent_item_type": "item_type",
    "status_acquired": "status",
    "counters_exhausted": "count",
}

ROLLS = ("none", "1D6", "2D6", "procedure_roll", "ranged_hit")
Roll = Literal["none", "1D6", "2D6", "procedure_roll", "ranged_hit"]
COMPARES = ("none", "ge", "le", "eq", "between", "le_count_allies")
Compare = Literal["none", "ge", "le", "eq", "between", "le_count_allies"]

SELECTORS = (
    "self", "opposing_unit", "killer", "victims", "attacked_units", "units_within",
    "target_within", "target_in_range", "units_in_range", "attack_area", "team_partner",
    "unit_behind_target", "ally_in_front", "any_unit", "all_units", "same_target",
)  # fmt: skip
Selector = Literal[
    "self", "opposing_unit", "killer", "victims", "attacked_units", "units_within",
    "target_within", "target_in_range", "units_in_range", "attack_area", "team_partner",
    "unit_behind_target", "ally_in_front", "any_unit", "all_units", "same_target",
]  # fmt: skip
TEAMS = ("any", "ally", "enemy")
Team = Literal["any", "ally", "enemy"]

# Effect kinds and the modes each one accepts ("" = no mode).
EFFECT_MODES: dict[str, tuple[str, ...]] = {
    "gain_status": ("", "on_disengagement", "after_combat_phase", "permanent", "player_choice",
                    "applicable_one", "transferred"),
    "discard_status": ("listed", "choose_one", "choose_any", "all"),
    "status_immunity": ("listed", "all_except"),
    "ignore_statuses": ("",),
    "strength_change": ("fixed", "dice", "per_unit_within", "per_enemy_in_attack_area",
                        "per_space_moved", "add_this_units_strength"),
    "strength_multiply": ("half",),
    "dice_change": ("add", "add_drop_lowest", "roll_three_keep_one", "replace_d6_with_d3"),
    "movement_change": ("fixed", "dice", "equal_to_this_unit"),
    "range_change": ("rating", "modifier"),
    "extra_procedure": ("facing", "loot", "attack_twice", "ranged_hit_retry", "defend_again",
                        "attack", "movement_and_facing"),
    "reposition": ("summon_into_range_area", "any_side_of_attacker", "behind_attacker",
                   "pull_to_self"),
    "rotate": ("clockwise",),
    "auto_win": ("", "no_duel_no_lock"),
    "negate_attack": ("",),
    "attack_prohibited": ("against_this_unit", "by_this_unit"),
    "remove_from_game": ("",),
    "replace_unit": ("this_player", "owner", "temporary"),
    "stack_under": ("take_control", "disable_abilities", "change_unit_type"),
    "control": ("",),
    "item": ("look_top_two", "capacity_two", "acquisition_as_three_kills", "swap_from_deck",
             "take_expendable", "loot_any", "discard_weapon_or_accessory", "discard_items",
             "send_own_item_to_deck", "may_equip"),
    "set_unit_type": ("match_attacker", "fixed"),
    "set_attack_type": ("assassinate_cycle",),
    "set_movement_type": ("",),
    "special_attack": ("no_duel", "front_vs_front"),
    "permission": ("attack_after_move", "charge_any_path", "move_through_terrain_pieces",
                   "charge_allowed", "charge_through_water", "engage_while_dead",
                   "ignore_range_rating", "ignore_forest", "choose_team_target"),
    "trail_marker": ("end_movement", "status"),
    "disable_ability": ("",),
    "copy_ability": ("",),
    "disengage": ("",),
    "custom": ("",),
}  # fmt: skip
EFFECT_KINDS: tuple[str, ...] = tuple(EFFECT_MODES)
EffectKind = Literal[
    "gain_status", "discard_status", "status_immunity", "ignore_statuses", "strength_change",
    "strength_multiply", "dice_change", "movement_change", "range_change", "extra_procedure",
    "reposition", "rotate", "auto_win", "negate_attack", "attack_prohibited", "remove_from_game",
    "replace_unit", "stack_under", "control", "item", "set_unit_type", "set_attack_type",
    "set_movement_type", "special_attack", "permission", "trail_marker", "disable_ability",
    "copy_ability", "disengage", "custom",
]  # fmt: skip
EFFECT_MODE_NAMES: tuple[str, ...] = tuple(
    sorted({m for modes in EFFECT_MODES.values() for m in modes if m})
)

DICE = ("none", "1D3", "1D4", "1D6")
Dice = Literal["none", "1D3", "1D4", "1D6"]
SIDES = ("all", "front", "flank_and_back")
Sides = Literal["all", "front", "flank_and_back"]
DURATIONS = (
    "instant", "procedure", "procedure_and_duel", "until_disengaged", "turn", "while_active",
    "until_next_engagement",
)  # fmt: skip
Duration = Literal[
    "instant", "procedure", "procedure_and_duel", "until_disengaged", "turn", "while_active",
    "until_next_engagement",
]  # fmt: skip

READING_RE = re.compile(r"^R[AU]\d+$")


# --- row models -----------------------------------------------------------------------------


class Strength(BaseModel):
    """Strength Ratings per side (Rule Book, "Strength Ratings")."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    front: int
    left: int
    right: int
    back: int


class Unit(Entry):
    """One row of the "Unit List"."""

    number: int
    unit_class: UnitClass
    unit_type: UnitType
    attack_mode: AttackMode
    strength: Strength
    core_strength: int
    movement_rating: int
    movement_type: MovementType
    range_rating: int | None
    range_modifier: int | None
    attack_area: AttackArea
    special: Special | None
    ability: str
    purchase_cost: int
    text: str
    reading: list[str] = []


class Condition(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: ConditionKind
    values: list[str] = []


class Effect(BaseModel):
    """One row of the ability effect table: when, if, whom, what."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    trigger: Trigger
    procedures: list[Procedure] = []
    conditions: list[Condition] = []
    roll: Roll = "none"
    compare: Compare = "none"
    threshold: int = 0
    threshold_high: int = 0
    shared_roll: bool = False
    roll_each: bool = False
    selector: Selector
    team: Team = "any"
    include_self: bool = False
    radius: int = 0
    line_of_sight: bool = False
    max_targets: int = 0
    effect: EffectKind
    mode: str = ""
    statuses: list[Status] = []
    except_statuses: list[Status] = []
    amount: int = 0
    dice: Dice = "none"
    sides: Sides = "all"
    duration: Duration = "instant"
    unit: str | None = None
    unit_type: UnitType | None = None
    movement_type: MovementType | None = None
    attack_area: AttackArea | None = None
    item: str | None = None
    choice_group: int = 0
    optional: bool = False
    non_cumulative: bool = False
    why: str | None = None
    reading: str | None = None


class Ability(Entry):
    """One row of the "Ability List": seed text plus its effect rows."""

    number: int
    occurs: str
    text: str
    effects: list[Effect]
    reading: list[str] = []


# --- tables ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class UnitTables:
    """Read-only arrays over the 202 units (index = unit number - 1) and the effect table."""

    unit_names: tuple[str, ...]
    unit_index: dict[str, int]
    strength: np.ndarray  # int8[202, 4]: front, left, right, back
    core_strength: np.ndarray  # int8[202]
    unit_class: np.ndarray  # int8[202], index into UNIT_CLASSES
    unit_type: np.ndarray  # int8[202], index into UNIT_TYPES
    attack_mode: np.ndarray  # int8[202], index into ATTACK_MODES
    movement_rating: np.ndarray  # int8[202]
    movement_type: np.ndarray  # int8[202], index into MOVEMENT_TYPES
    range_rating: np.ndarray  # int8[202], -1 for Melee units
    range_modifier: np.ndarray  # int8[202], 0 for Melee units
    attack_area: np.ndarray  # int8[202], index into ATTACK_AREAS
    special: np.ndarray  # int8[202], index into SPECIALS, -1 = none
    ability: np.ndarray  # int16[202], ability index (= unit index)
    cost: np.ndarray  # int16[202]
    ability_names: tuple[str, ...]
    ability_index: dict[str, int]
    ability_not_with_dead: np.ndarray  # bool[202]: Occurs reads "(Not with Dead Status)"
    # Effect table: ability a owns rows effect_offset[a] .. effect_offset[a+1]-1.
    effect_offset: np.ndarray  # int16[203]
    eff_trigger: np.ndarray  # int8[R], index into TRIGGERS
    eff_procedures: np.ndarray  # int32[R], bit p set = PROCEDURES[p]
    eff_condition: np.ndarray  # int8[R, 3], index into CONDITIONS, -1 = none
    eff_condition_value: np.ndarray  # int16[R, 3], index into condition_values, -1 = none
    eff_roll: np.ndarray  # int8[R], index into ROLLS
    eff_compare: np.ndarray  # int8[R], index into COMPARES
    eff_threshold: np.ndarray  # int8[R]
    eff_threshold_high: np.ndarray  # int8[R]
    eff_shared_roll: np.ndarray  # bool[R]
    eff_roll_each: np.ndarray  # bool[R]
    eff_selector: np.ndarray  # int8[R], index into SELECTORS
    eff_team: np.ndarray  # int8[R], index into TEAMS
    eff_include_self: np.ndarray  # bool[R]
    eff_radius: np.ndarray  # int8[R]
    eff_line_of_sight: np.ndarray  # bool[R]
    eff_max_targets: np.ndarray  # int8[R], 0 = every unit selected
    eff_kind: np.ndarray  # int8[R], index into EFFECT_KINDS
    eff_mode: np.ndarray  # int8[R], index into EFFECT_MODE_NAMES, -1 = none
    eff_statuses: np.ndarray  # int32[R], bit s set = STATUSES[s]
    eff_except_statuses: np.ndarray  # int32[R]
    eff_amount: np.ndarray  # int8[R]
    eff_dice: np.ndarray  # int8[R], index into DICE
    eff_sides: np.ndarray  # int8[R], index into SIDES
    eff_duration: np.ndarray  # int8[R], index into DURATIONS
    eff_unit: np.ndarray  # int16[R], unit index, -1 = none
    eff_unit_type: np.ndarray  # int8[R], -1 = none
    eff_movement_type: np.ndarray  # int8[R], -1 = none
    eff_attack_area: np.ndarray  # int8[R], -1 = none
    eff_choice_group: np.ndarray  # int8[R]
    eff_optional: np.ndarray  # bool[R]
    eff_non_cumulative: np.ndarray  # bool[R]
    condition_values: tuple[tuple[str, ...], ...]  # value lists referenced by eff_condition_value
    effect_items: tuple[str | None, ...]  # item name per row (items belong to items.yaml)


def _ro(arr: np.ndarray) -> np.ndarray:
    arr.setflags(write=False)
    return arr


def _label(i: int, row: Entry) -> str:
    return f"{i} '{row.name}'"


def load_units(path: Path) -> list[Unit]:
    """Load units.yaml and check numbering, core strength and readings."""
    units = load_entries(path, "tactics_david.units", Unit)
    for i, u in enumerate(units):
        if u.number != i + 1:
            raise ConfigError(path, _label(i, u), "number", f"expected {i + 1}, found {u.number}")
        s = u.strength
        if u.core_strength != s.front + s.left + s.right + s.back:
            raise ConfigError(path, _label(i, u), "core_strength", "not the sum of the 4 sides")
        ranged = u.attack_mode == "Ranged"
        if ranged != (u.range_rating is not None) or ranged != (u.range_modifier is not None):
            raise ConfigError(
                path, _label(i, u), "range_rating", "set exactly when the Attack Mode is Ranged"
            )
        for r in u.reading:
            if not READING_RE.match(r):
                raise ConfigError(path, _label(i, u), "reading", f"bad reading id {r!r}")
    if len(units) != N_UNITS:  # after the row checks, so a row error names its row first
        raise ConfigError(path, None, "entries", f"expected {N_UNITS} units, found {len(units)}")
    return units


def _check_value(path: Path, label: str, field: str, kind: str, v: str, unit_names: set) -> None:
    known: dict[str, tuple[str, ...] | set] = {
        "unit": unit_names,
        "root": ROOTS,
        "attack_mode": ATTACK_MODES,
        "unit_type": UNIT_TYPES,
        "terrain": TERRAIN_TYPES,
        "status": STATUSES,
        "unit_class": UNIT_CLASSES,
        "movement_type": MOVEMENT_TYPES,
        "item_type": ITEM_TYPES,
    }
    if kind == "count":
        if not v.isdigit():
            raise ConfigError(path, label, field, f"expected a count, found {v!r}")
    elif v not in known[kind]:
        raise ConfigError(path, label, field, f"unknown {kind.replace('_', ' ')} {v!r}")


def load_abilities(path: Path, units: list[Unit]) -> list[Ability]:
    """Load abilities.yaml; ability i must be unit i's ability (Ability List index rule)."""
    abilities = load_entries(path, "tactics_david.abilities", Ability)
    unit_names = {u.name for u in units}
    for i, a in enumerate(abilities):
        label = _label(i, a)
        if a.number != i + 1:
            raise ConfigError(path, label, "number", f"expected {i + 1}, found {a.number}")
        if units[i].ability != a.name:
            raise ConfigError(
                path,
                label,
                "name",
                f"unit {units[i].number} '{units[i].name}' names ability {units[i].ability!r}",
            )
        if not a.effects:
            raise ConfigError(path, label, "effects", "must be a non-empty list")
        for j, e in enumerate(a.effects):
            f = f"effects.{j}"
            if e.mode not in EFFECT_MODES[e.effect]:
                raise ConfigError(path, label, f"{f}.mode", f"not a mode of {e.effect}: {e.mode!r}")
            if (e.effect == "custom") != bool(e.why):
                raise ConfigError(path, label, f"{f}.why", "required exactly for custom effects")
            if e.compare == "between" and not e.threshold <= e.threshold_high:
                raise ConfigError(path, label, f"{f}.threshold_high", "below threshold")
            if (e.roll != "none" or e.shared_roll) != (e.compare != "none"):
                raise ConfigError(path, label, f"{f}.compare", "a roll needs a compare and back")
            if e.shared_roll and (j == 0 or e.roll != "none"):
                raise ConfigError(
                    path, label, f"{f}.shared_roll", "needs an earlier row's roll, no own roll"
                )
            if e.unit is not None and e.unit not in unit_names:
                raise ConfigError(path, label, f"{f}.unit", f"unknown unit {e.unit!r}")
            if e.reading is not None and not READING_RE.match(e.reading):
                raise ConfigError(path, label, f"{f}.reading", f"bad reading id {e.reading!r}")
            if len(e.conditions) > 3:
                raise ConfigError(path, label, f"{f}.conditions", "at most 3 conditions")
            for k, c in enumerate(e.conditions):
                vk = CONDITION_VALUE_KIND.get(c.kind)
                cf = f"{f}.conditions.{k}.values"
                if vk is None and c.values:
                    raise ConfigError(path, label, cf, f"{c.kind} takes no values")
                if vk is not None and not c.values:
                    raise ConfigError(path, label, cf, f"{c.kind} needs values")
                for v in c.values:
                    _check_value(path, label, cf, vk or "", v, unit_names)
    if len(abilities) != N_UNITS:
        raise ConfigError(
            path, None, "entries", f"expected {N_UNITS} abilities, found {len(abilities)}"
        )
    return abilities


def _bits(names: list[str], vocab: tuple[str, ...]) -> int:
    out = 0
    for n in names:
        out |= 1 << vocab.index(n)
    return out


def load_unit_tables(config_dir: Path = CONFIG_ROOT / "tactics_david") -> UnitTables:
    """Load units.yaml and abilities.yaml from `config_dir` into :class:`UnitTables`."""
    config_dir = Path(config_dir)
    units = load_units(config_dir / "units.yaml")
    abilities = load_abilities(config_dir / "abilities.yaml", units)
    n = len(units)

    def arr(values: list, dtype: type) -> np.ndarray:
        return _ro(np.array(values, dtype=dtype))

    rows = [(a, e) for a in abilities for e in a.effects]
    offsets = [0]
    for a in abilities:
        offsets.append(offsets[-1] + len(a.effects))
    value_lists: list[tuple[str, ...]] = []
    cond = np.full((len(rows), 3), -1, dtype=np.int8)
    cond_val = np.full((len(rows), 3), -1, dtype=np.int16)
    for r, (_, e) in enumerate(rows):
        for k, c in enumerate(e.conditions):
            cond[r, k] = CONDITIONS.index(c.kind)
            if c.values:
                t = tuple(c.values)
                if t not in value_lists:
                    value_lists.append(t)
                cond_val[r, k] = value_lists.index(t)
    unit_index = {u.name: i for i, u in enumerate(units)}

    def opt(v: str | None, vocab: tuple[str, ...] | dict[str, int]) -> int:
        if v is None or v == "":
            return -1
        return vocab[v] if isinstance(vocab, dict) else vocab.index(v)

    return UnitTables(
        unit_names=tuple(u.name for u in units),
        unit_index=unit_index,
        strength=arr(
            [[u.strength.front, u.strength.left, u.strength.right, u.strength.back] for u in units],
            np.int8,
        ),
        core_strength=arr([u.core_strength for u in units], np.int8),
        unit_class=arr([UNIT_CLASSES.index(u.unit_class) for u in units], np.int8),
        unit_type=arr([UNIT_TYPES.index(u.unit_type) for u in units], np.int8),
        attack_mode=arr([ATTACK_MODES.index(u.attack_mode) for u in units], np.int8),
        movement_rating=arr([u.movement_rating for u in units], np.int8),
        movement_type=arr([MOVEMENT_TYPES.index(u.movement_type) for u in units], np.int8),
        range_rating=arr(
            [-1 if u.range_rating is None else u.range_rating for u in units], np.int8
        ),
        range_modifier=arr([u.range_modifier or 0 for u in units], np.int8),
        attack_area=arr([ATTACK_AREAS.index(u.attack_area) for u in units], np.int8),
        special=arr([opt(u.special, SPECIALS) for u in units], np.int8),
        ability=arr(list(range(n)), np.int16),
        cost=arr([u.purchase_cost for u in units], np.int16),
        ability_names=tuple(a.name for a in abilities),
        ability_index={a.name: i for i, a in enumerate(abilities)},
        ability_not_with_dead=arr(
            ["Not with Dead Status" in a.occurs for a in abilities], np.bool_
        ),
        effect_offset=arr(offsets, np.int16),
        eff_trigger=arr([TRIGGERS.index(e.trigger) for _, e in rows], np.int8),
        eff_procedures=arr([_bits(list(e.procedures), PROCEDURES) for _, e in rows], np.int32),
        eff_condition=_ro(cond),
        eff_condition_value=_ro(cond_val),
        eff_roll=arr([ROLLS.index(e.roll) for _, e in rows], np.int8),
        eff_compare=arr([COMPARES.index(e.compare) for _, e in rows], np.int8),
        eff_threshold=arr([e.threshold for _, e in rows], np.int8),
        eff_threshold_high=arr([e.threshold_high for _, e in rows], np.int8),
        eff_shared_roll=arr([e.shared_roll for _, e in rows], np.bool_),
        eff_roll_each=arr([e.roll_each for _, e in rows], np.bool_),
        eff_selector=arr([SELECTORS.index(e.selector) for _, e in rows], np.int8),
        eff_team=arr([TEAMS.index(e.team) for _, e in rows], np.int8),
        eff_include_self=arr([e.include_self for _, e in rows], np.bool_),
        eff_radius=arr([e.radius for _, e in rows], np.int8),
        eff_line_of_sight=arr([e.line_of_sight for _, e in rows], np.bool_),
        eff_max_targets=arr([e.max_targets for _, e in rows], np.int8),
        eff_kind=arr([EFFECT_KINDS.index(e.effect) for _, e in rows], np.int8),
        eff_mode=arr([opt(e.mode, EFFECT_MODE_NAMES) for _, e in rows], np.int8),
        eff_statuses=arr([_bits(list(e.statuses), STATUSES) for _, e in rows], np.int32),
        eff_except_statuses=arr(
            [_bits(list(e.except_statuses), STATUSES) for _, e in rows], np.int32
        ),
        eff_amount=arr([e.amount for _, e in rows], np.int8),
        eff_dice=arr([DICE.index(e.dice) for _, e in rows], np.int8),
        eff_sides=arr([SIDES.index(e.sides) for _, e in rows], np.int8),
        eff_duration=arr([DURATIONS.index(e.duration) for _, e in rows], np.int8),
        eff_unit=arr([opt(e.unit, unit_index) for _, e in rows], np.int16),
        eff_unit_type=arr([opt(e.unit_type, UNIT_TYPES) for _, e in rows], np.int8),
        eff_movement_type=arr([opt(e.movement_type, MOVEMENT_TYPES) for _, e in rows], np.int8),
        eff_attack_area=arr([opt(e.attack_area, ATTACK_AREAS) for _, e in rows], np.int8),
        eff_choice_group=arr([e.choice_group for _, e in rows], np.int8),
        eff_optional=arr([e.optional for _, e in rows], np.bool_),
        eff_non_cumulative=arr([e.non_cumulative for _, e in rows], np.bool_),
        condition_values=tuple(value_lists),
        effect_items=tuple(e.item for _, e in rows),
    )
