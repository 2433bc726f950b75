"""Tactics David rule data: configs/tactics_david/*.yaml -> read-only numpy tables.

Seed: 004_10748bf01204f971.txt (Rule Book, Unit and Item Book, Battlefield Book V3.2).
This module loads every table except the units and abilities (those are
envs/tactics_david/unit_tables.py, loaded here as ``tables.units`` when present) and checks
the cross-references between all of them. Vocabularies are explained in
docs/rules/tactics_david.md; every integer code below indexes its vocabulary tuple, so later
numba kernels can index the arrays with them.
"""

from __future__ import annotations

import dataclasses
import hashlib
import importlib.util
import os
import pickle
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

import numpy as np
from pydantic import BaseModel, ConfigDict

from envs.core.config import (
    CONFIG_ROOT,
    ConfigError,
    Entry,
    load_entries,
    load_mapping,
    readonly,
    require_known,
)

# --- closed vocabularies (index = integer code in the tables) ------------------------------

UNIT_TYPES = ("Physical", "Magical", "Ethereal")  # Rule Book "Unit Type/Attack Type"
ATTACK_MODES = ("Melee", "Ranged")  # "Attack Mode"
CLASS_CODES = ("L", "M", "H")  # Item List "Users"; Unit List "Class"
MOVEMENT_TYPES = ("Land", "Hover", "Soar", "Aqua")  # "Movement Type"
ITEM_TYPES = ("Weapon", "Accessory", "Expendable")  # "Items"

STATUS_CATEGORIES = ("ailment", "buff", "dead")
STATUS_TRIGGERS = (
    "always",
    "on_engagement",
    "before_disengagement",
    "end_of_each_turn",
    "on_enemy_killed",
    "on_attacked",
)
STATUS_EFFECTS = (
    "disengage",
    "no_combat_phase",
    "acquire_dead",
    "halve_base_strength",
    "halve_base_movement",
    "no_charge",
    "flee_to_nearest_ally",
    "discard_self",
    "no_attack_of_own_type",
    "add_base_strength",
    "not_engageable",
    "discard_other_statuses",
    "no_combat_lock",
    "add_roll_to_base_movement",
    "reroll_once_per_turn",
    "advance_on_nearest_enemy",
    "adjacent_enemies_acquire_fearful",
    "no_phases",
    "double_base_strength",
    "reflect_magical_attack",
    "rotate_clockwise_by_roll",
)
ROLLS = ("none", "1D3", "1D6")
ROLL_SIDES = {"none": 0, "1D3": 3, "1D6": 6}

SPECIAL_EFFECTS = (
    "swarm_stack_loses_one_unit",
    "engaged_while_dead",
    "charge_capped_at_base_movement",
)

ITEM_USES = ("passive", "use_item_procedure", "any_time", "start_of_owner_turn")
ITEM_EFFECTS = (
    "remove_statuses",
    "refuse_acquired_status",
    "add_base_strength",
    "add_movement",
    "add_range",
    "add_to_rolls",
    "choose_unit_type",
    "count_as_status",
    "set_attack_type",
    "set_attack_area",
    "extra_movement_procedure",
)
ITEM_TARGETS = ("self", "adjacent", "self_or_adjacent", "enemies_within", "allies_within")
ITEM_PROCEDURES = ("any", "attack", "defend")  # attack/defend include the resulting Duel
AMOUNT_ALL = -1  # item_amount code for "as many as there are" (Elixir)

CHARGE_RULES = ("free", "within_only", "never")
ATTACK_SIDES = ("front", "any")
MATCHUPS = (
    "normal",
    "defender_replaces_die_with_d3",
    "defender_adds_d3",
    "defender_cannot_die",
)
AREA_MODES = ("melee", "ranged")
BRIDGE_AXES = ("east_west", "north_south")
MAX_AREA_CELLS = 9  # largest invented area (RE, 3x3)
NO_PLAYER = -1

INVENTION_RE = re.compile(r"^I\d+$")

UnitTypeName = Literal["Physical", "Magical", "Ethereal"]
MovementTypeName = Literal["Land", "Hover", "Soar", "Aqua"]
ClassCode = Literal["L", "M", "H"]


class _Row(BaseModel):
    """A nested row inside an entry (no name/origin)."""

    model_config = ConfigDict(extra="forbid", frozen=True)


# --- row models ----------------------------------------------------------------------------


class StatusEffect(_Row):
    trigger: Literal[STATUS_TRIGGERS]  # type: ignore[valid-type]
    roll: Literal["1D3", "1D6"] | None = None
    results: list[int] = []  # die results that fire the effect; empty = no roll
    effect: Literal[STATUS_EFFECTS]  # type: ignore[valid-type]
    amount: int = 0


class Status(Entry):
    number: int
    category: Literal[STATUS_CATEGORIES]  # type: ignore[valid-type]
    afflicts: list[UnitTypeName]  # unit types that may carry it (immunities left out)
    aliases: list[str] = []  # the seed's other spellings ("Fear", "Posioned")
    cancels: list[str] = []  # statuses discarded when this one is acquired
    effects: list[StatusEffect]
    text: str


class Special(Entry):
    number: int
    effect: Literal[SPECIAL_EFFECTS]  # type: ignore[valid-type]
    statuses: list[str]
    text: str


class ItemEffect(_Row):
    effect: Literal[ITEM_EFFECTS]  # type: ignore[valid-type]
    target: Literal[ITEM_TARGETS]  # type: ignore[valid-type]
    amount: int | Literal["all"] = 0
    radius: int = 0
    procedure: Literal["attack", "defend"] | None = None
    statuses: list[str] = []
    except_statuses: list[str] = []
    attack_area: str | None = None
    attack_type: UnitTypeName | None = None
    root: str | None = None


class Item(Entry):
    number: int
    item_type: Literal[ITEM_TYPES]  # type: ignore[valid-type]
    users: list[ClassCode]
    user_unit_type: UnitTypeName | None = None
    user_attack_mode: Literal["Melee", "Ranged"] | None = None
    purchase_cost: int
    use: Literal[ITEM_USES]  # type: ignore[valid-type]
    effects: list[ItemEffect]
    text: str


class TerrainType(Entry):
    symbol: str
    movement_modifier: int
    range_modifier: int
    defend_base_die: Literal["D6", "D4"]
    defend_extra_die: Literal["D3"] | None
    slow: bool
    slow_exempt: list[MovementTypeName]
    charge: Literal[CHARGE_RULES]  # type: ignore[valid-type]
    blocks_line_of_sight: bool
    ranged_attack_from_edge_only: bool
    soar_end_roll_dead: list[int]
    text: str


class TerrainPiece(Entry):
    symbol: str
    height: int
    side_height: int | None
    terrain_type: str | None
    text: str


class MovementType(Entry):
    pass_over_height: int
    occupy_height: int
    may_charge: bool
    movement_modifier_off_water: int
    text: str


class UnitClass(Entry):
    code: ClassCode
    core_min: int
    core_max: int
    stacking_points: int
    ranged_melee_strength: int
    text: str


class UnitTypeRow(Entry):
    code: Literal["P", "M", "E"]
    attack_side: Literal[ATTACK_SIDES]  # type: ignore[valid-type]
    versus: dict[UnitTypeName, Literal[MATCHUPS]]  # type: ignore[valid-type]
    text: str


class AttackArea(Entry):
    invention: str | None
    number: int
    mode: Literal[AREA_MODES]  # type: ignore[valid-type]
    cells: list[tuple[int, int]]
    target: tuple[int, int] | None
    continues: tuple[int, int] | None
    note: str


class Family(Entry):
    number: int
    root_unit: str
    text: str


class TreeNode(Entry):
    invention: str | None
    number: int
    parent: str | None


class Deployment(_Row):
    player: int
    rows: tuple[int, int]
    cols: tuple[int, int]


class Battlefield(Entry):
    invention: str | None
    size: tuple[int, int]  # columns, rows
    suggested_players: int
    purchase_limit: tuple[int, int]
    text: str
    bridge_axis: Literal[BRIDGE_AXES]  # type: ignore[valid-type]
    piece_legend: dict[str, str]
    terrain: list[str]
    pieces: list[str]
    deployment: list[Deployment]


class ItemAcquisition(_Row):
    kills: int
    roll_at_least: int


class Rules(_Row):
    battlefield_sizes: list[tuple[int, int]]
    terrain_heights: list[int]
    line_of_sight_block_height: int
    charge_test_dice: int
    charge_test_pass: int
    stumble_dice: int
    charge_roll_dice: int
    attack_dice: int
    defend_dice: int
    duel_extra_dice: int
    ranged_hit_dice: int
    ranged_hit_min_result: int
    loot_roll_at_least: int
    trade_max_gap: int
    item_acquisition: list[ItemAcquisition]
    stacking_points_max: int
    stack_cost_bonus: dict[int, int]
    stack_lineage_max: int
    team_size_max: int
    team_partner_dead_fearful_below: int
    strict_max_copies: int
    strict_lights_per_medium: int
    strict_mediums_per_heavy: int
    strength_min: int


# --- the compiled tables -------------------------------------------------------------------


@dataclass(frozen=True)
class BattlefieldMap:
    """One battlefield as arrays of shape [rows, columns] (row 0 = north)."""

    name: str
    terrain: np.ndarray  # int8[R, C], index into Tables.terrain_names
    piece: np.ndarray  # int8[R, C], index into Tables.piece_names, -1 = no Terrain Piece
    height: np.ndarray  # int8[R, C], Height Level of the piece (0 where none)
    deployment: np.ndarray  # int8[R, C], deploying player 0/1, NO_PLAYER elsewhere
    bridge_axis: int  # index into BRIDGE_AXES
    purchase_limit: tuple[int, int]  # the suggested purchase limit (low, high)


@dataclass(frozen=True)
class Tables:
    """Every Tactics David table except units/abilities (``units``, loaded when present)."""

    rules: Rules
    # statuses ("Status Affects")
    status_names: tuple[str, ...]
    status_index: dict[str, int]  # includes the seed's alias spellings
    status_category: np.ndarray  # int8[S], index into STATUS_CATEGORIES
    status_afflicts: np.ndarray  # bool[S, 3], by UNIT_TYPES
    status_cancels: np.ndarray  # bool[S, S]: acquiring row s discards column t
    status_effect_offset: np.ndarray  # int16[S+1], rows of status s: offset[s]..offset[s+1]
    status_eff_trigger: np.ndarray  # int8[E], index into STATUS_TRIGGERS
    status_eff_roll: np.ndarray  # int8[E], index into ROLLS
    status_eff_results: np.ndarray  # uint8[E], bit r set = die result r fires the effect
    status_eff_kind: np.ndarray  # int8[E], index into STATUS_EFFECTS
    status_eff_amount: np.ndarray  # int8[E]
    # specials ("Special List")
    special_names: tuple[str, ...]
    special_index: dict[str, int]
    special_effect: np.ndarray  # int8[3], index into SPECIAL_EFFECTS
    special_statuses: np.ndarray  # int32[3], bit s = status s
    # items ("Item List")
    item_names: tuple[str, ...]
    item_index: dict[str, int]
    item_type: np.ndarray  # int8[I], index into ITEM_TYPES
    item_users: np.ndarray  # bool[I, 3], by CLASS_CODES
    item_user_unit_type: np.ndarray  # int8[I], -1 = any
    item_user_attack_mode: np.ndarray  # int8[I], -1 = any
    item_cost: np.ndarray  # int16[I]
    item_use: np.ndarray  # int8[I], index into ITEM_USES
    item_effect_offset: np.ndarray  # int16[I+1]
    item_eff_kind: np.ndarray  # int8[F], index into ITEM_EFFECTS
    item_eff_target: np.ndarray  # int8[F], index into ITEM_TARGETS
    item_eff_amount: np.ndarray  # int8[F], AMOUNT_ALL = every one
    item_eff_radius: np.ndarray  # int8[F]
    item_eff_procedure: np.ndarray  # int8[F], index into ITEM_PROCEDURES
    item_eff_statuses: np.ndarray  # int32[F], bit s = status s
    item_eff_except_statuses: np.ndarray  # int32[F]
    item_eff_attack_area: np.ndarray  # int8[F], -1 = none
    item_eff_attack_type: np.ndarray  # int8[F], -1 = none
    item_eff_root: np.ndarray  # int8[F], family index, -1 = none
    # terrain ("Terrain Types", "Terrain Pieces")
    terrain_names: tuple[str, ...]
    terrain_index: dict[str, int]
    terrain_symbol: tuple[str, ...]
    terrain_movement_modifier: np.ndarray  # int8[T]
    terrain_range_modifier: np.ndarray  # int8[T]
    terrain_defend_base_sides: np.ndarray  # int8[T], 6 or 4
    terrain_defend_extra_sides: np.ndarray  # int8[T], 3 = an extra D3, 0 = none
    terrain_slow: np.ndarray  # bool[T]
    terrain_slow_exempt: np.ndarray  # bool[T, 4], by MOVEMENT_TYPES
    terrain_charge: np.ndarray  # int8[T], index into CHARGE_RULES
    terrain_blocks_los: np.ndarray  # bool[T]
    terrain_ranged_edge_only: np.ndarray  # bool[T]
    terrain_soar_dead_results: np.ndarray  # uint8[T], bit r = D6 result r kills a Soar unit
    piece_names: tuple[str, ...]
    piece_index: dict[str, int]
    piece_height: np.ndarray  # int8[P]
    piece_side_height: np.ndarray  # int8[P], -1 = same as height
    piece_terrain: np.ndarray  # int8[P], terrain type the space counts as, -1 = unchanged
    # movement types, classes, unit types
    movement_names: tuple[str, ...]
    movement_pass_over_height: np.ndarray  # int8[4]
    movement_occupy_height: np.ndarray  # int8[4]
    movement_may_charge: np.ndarray  # bool[4]
    movement_off_water_modifier: np.ndarray  # int8[4]
    class_names: tuple[str, ...]
    class_core_min: np.ndarray  # int8[3]
    class_core_max: np.ndarray  # int8[3]
    class_stacking_points: np.ndarray  # int8[3]
    class_ranged_melee_strength: np.ndarray  # int8[3]
    unit_type_attack_side: np.ndarray  # int8[3], index into ATTACK_SIDES
    matchup: np.ndarray  # int8[3, 3]: [attack type, defender unit type] -> MATCHUPS index
    # attack areas ("Attack Area List")
    area_names: tuple[str, ...]
    area_index: dict[str, int]
    area_is_ranged: np.ndarray  # bool[A]
    area_n_cells: np.ndarray  # int8[A]
    area_cells: np.ndarray  # int8[A, MAX_AREA_CELLS, 2] (forward, right), padded with 0
    area_target: np.ndarray  # int8[A, 2], the black-dot cell (ranged), (0, 0) for melee
    area_continues: np.ndarray  # int8[A, 2], direction of the arrow, (0, 0) = none
    # families and unit trees ("Unit Tree")
    family_names: tuple[str, ...]
    family_index: dict[str, int]
    family_root: np.ndarray  # int16[11], tree node of the Root Unit
    tree_names: tuple[str, ...]  # unit names in unit-number order
    tree_index: dict[str, int]
    tree_number: np.ndarray  # int16[N]
    tree_parent: np.ndarray  # int16[N], -1 = root
    tree_family: np.ndarray  # int8[N]
    tree_depth: np.ndarray  # int8[N], 0 = Root Unit
    lineage: np.ndarray  # int8[N, N], Lines of Lineage between two units, -1 = other family
    # battlefields (Battlefield Book)
    battlefield_names: tuple[str, ...]
    battlefield_index: dict[str, int]
    battlefields: tuple[BattlefieldMap, ...]
    # units and abilities (unit_tables.py), None until that module exists
    units: Any = None


def _arr(values: list, dtype: type) -> np.ndarray:
    return readonly(np.array(values, dtype=dtype))


def _label(i: int, row: Entry) -> str:
    return f"{i} '{row.name}'"


def _bits(names: list[str], index: dict[str, int]) -> int:
    out = 0
    for n in names:
        out |= 1 << index[n]
    return out


def _result_bits(results: list[int]) -> int:
    out = 0
    for r in results:
        out |= 1 << r
    return out


def _check_inventions(path: Path, rows: list[Any]) -> None:
    """`origin: invented` rows name their Invented id (I#); seed rows name none."""
    for i, row in enumerate(rows):
        inv = row.invention
        if row.origin == "invented" and (inv is None or not INVENTION_RE.match(inv)):
            raise ConfigError(path, _label(i, row), "invention", "invented row needs an id I<n>")
        if row.origin == "seed" and inv is not None:
            raise ConfigError(path, _label(i, row), "invention", "seed row must not name one")


def _check_numbers(path: Path, rows: list[Any]) -> None:
    """Seed index numbers run 1..n in file order."""
    for i, row in enumerate(rows):
        if row.number != i + 1:
            raise ConfigError(path, _label(i, row), "number", f"expected {i + 1}")


# --- loaders per file ----------------------------------------------------------------------


def _load_statuses(path: Path) -> list[Status]:
    rows = load_entries(path, "tactics_david.statuses", Status)
    _check_numbers(path, rows)
    names = {r.name for r in rows}
    seen_alias: set[str] = set()
    for i, row in enumerate(rows):
        for a in row.aliases:
            if a in names or a in seen_alias:
                raise ConfigError(path, _label(i, row), "aliases", f"alias {a!r} is already used")
            seen_alias.add(a)
        if not row.afflicts:
            raise ConfigError(path, _label(i, row), "afflicts", "must name a unit type")
        for k, eff in enumerate(row.effects):
            field = f"effects.{k}"
            sides = ROLL_SIDES[eff.roll or "none"]
            if (eff.roll is None) != (not eff.results):
                raise ConfigError(path, _label(i, row), field, "roll and results go together")
            if any(not 1 <= r <= sides for r in eff.results):
                raise ConfigError(path, _label(i, row), field, f"result outside 1..{sides}")
    require_known(path, rows, "cancels", names, "status")
    return rows


def _load_items(
    path: Path, status_index: dict[str, int], areas: set[str], families: set[str]
) -> list[Item]:
    rows = load_entries(path, "tactics_david.items", Item)
    _check_numbers(path, rows)
    for i, row in enumerate(rows):
        if not row.users:
            raise ConfigError(path, _label(i, row), "users", "must name a unit class")
        for k, eff in enumerate(row.effects):
            where = (path, _label(i, row))
            for field in ("statuses", "except_statuses"):
                for s in getattr(eff, field):
                    if s not in status_index:
                        raise ConfigError(*where, f"effects.{k}.{field}", f"unknown status {s!r}")
            if eff.attack_area is not None and eff.attack_area not in areas:
                msg = f"unknown attack area {eff.attack_area!r}"
                raise ConfigError(*where, f"effects.{k}.attack_area", msg)
            if eff.root is not None and eff.root not in families:
                raise ConfigError(*where, f"effects.{k}.root", f"unknown root {eff.root!r}")
            if eff.effect == "set_attack_area" and eff.attack_area is None:
                raise ConfigError(*where, f"effects.{k}.attack_area", "set_attack_area needs one")
    return rows


def _load_areas(path: Path) -> list[AttackArea]:
    rows = load_entries(path, "tactics_david.attack_areas", AttackArea)
    _check_numbers(path, rows)
    _check_inventions(path, rows)
    for i, row in enumerate(rows):
        where = (path, _label(i, row))
        if not row.cells or len(row.cells) > MAX_AREA_CELLS:
            raise ConfigError(*where, "cells", f"needs 1..{MAX_AREA_CELLS} cells")
        if len(set(row.cells)) != len(row.cells):
            raise ConfigError(*where, "cells", "a cell is listed twice")
        if row.name[0] != ("M" if row.mode == "melee" else "R"):
            raise ConfigError(*where, "mode", f"code {row.name} does not match mode {row.mode}")
        if row.mode == "melee":
            # "Melee Area of Attack": always directly attached to the unit's space.
            if row.target is not None:
                raise ConfigError(*where, "target", "melee areas have no target cell")
            if (0, 0) in row.cells:
                raise ConfigError(*where, "cells", "the unit's own space is not attacked")
            if any(max(abs(f), abs(r)) != 1 for f, r in row.cells[:1]):
                raise ConfigError(*where, "cells", "a melee area starts next to the unit")
        elif row.target is None or row.target not in row.cells:
            raise ConfigError(*where, "target", "ranged areas need their target among the cells")
        if row.continues is not None and max(abs(row.continues[0]), abs(row.continues[1])) != 1:
            raise ConfigError(*where, "continues", "must be a unit step")
    return rows


def _load_tree(path: Path, families_path: Path) -> tuple[list[TreeNode], list[Family]]:
    nodes = load_entries(path, "tactics_david.unit_tree", TreeNode)
    _check_numbers(path, nodes)
    _check_inventions(path, nodes)
    names = {n.name for n in nodes}
    require_known(path, nodes, "parent", names, "parent unit")
    parent = {n.name: n.parent for n in nodes}
    for i, node in enumerate(nodes):
        seen = {node.name}
        p = node.parent
        while p is not None:
            if p in seen:
                raise ConfigError(path, _label(i, node), "parent", "the tree has a cycle")
            seen.add(p)
            p = parent[p]
    families = load_entries(families_path, "tactics_david.families", Family)
    _check_numbers(families_path, families)
    roots = {n.name for n in nodes if n.parent is None}
    require_known(families_path, families, "root_unit", roots, "root unit")
    named = {f.root_unit for f in families}
    for i, node in enumerate(nodes):
        if node.parent is None and node.name not in named:
            raise ConfigError(path, _label(i, node), "parent", "a root that is no family's root")
    return nodes, families


def _load_battlefields(
    path: Path,
    rules: Rules,
    terrain_symbols: dict[str, int],
    piece_index: dict[str, int],
) -> list[Battlefield]:
    rows = load_entries(path, "tactics_david.battlefields", Battlefield)
    _check_inventions(path, rows)
    sizes = {tuple(s) for s in rules.battlefield_sizes} | {
        (s[1], s[0]) for s in rules.battlefield_sizes
    }
    for i, bf in enumerate(rows):
        where = (path, _label(i, bf))
        cols, nrows = bf.size
        if (cols, nrows) not in sizes:
            raise ConfigError(*where, "size", f"{cols}x{nrows} is not a seed battlefield size")
        for field in ("terrain", "pieces"):
            grid = getattr(bf, field)
            if len(grid) != nrows or any(len(line) != cols for line in grid):
                raise ConfigError(*where, field, f"must be {nrows} rows of {cols} symbols")
        for r, line in enumerate(bf.terrain):
            for c, ch in enumerate(line):
                if ch not in terrain_symbols:
                    raise ConfigError(*where, "terrain", f"unknown symbol {ch!r} at {r},{c}")
        for sym, piece in bf.piece_legend.items():
            if len(sym) != 1 or sym == ".":
                raise ConfigError(*where, "piece_legend", f"bad symbol {sym!r}")
            if piece not in piece_index:
                raise ConfigError(*where, "piece_legend", f"unknown terrain piece {piece!r}")
        for r, line in enumerate(bf.pieces):
            for c, ch in enumerate(line):
                if ch != "." and ch not in bf.piece_legend:
                    raise ConfigError(*where, "pieces", f"symbol {ch!r} at {r},{c} not in legend")
        players = sorted(d.player for d in bf.deployment)
        if players != list(range(bf.suggested_players)):
            raise ConfigError(*where, "deployment", "one zone per suggested player")
        taken: set[tuple[int, int]] = set()
        for k, d in enumerate(bf.deployment):
            (r0, r1), (c0, c1) = d.rows, d.cols
            if not (0 <= r0 <= r1 < nrows and 0 <= c0 <= c1 < cols):
                raise ConfigError(*where, f"deployment.{k}", "zone outside the battlefield")
            zone = {(r, c) for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)}
            if zone & taken:
                raise ConfigError(*where, f"deployment.{k}", "zones overlap")
            taken |= zone
    return rows


def _unit_tables_module() -> Any:
    """envs/tactics_david/unit_tables.py (written in parallel) if it exists yet."""
    if importlib.util.find_spec("envs.tactics_david.unit_tables") is None:
        return None
    import envs.tactics_david.unit_tables as ut

    return ut


def _cross_check_vocabularies(config_dir: Path, ut: Any, t: dict[str, Any]) -> None:
    """unit_tables.py's closed vocabularies must be this module's names, in the same order."""
    pairs = (
        ("statuses.yaml", "STATUSES", t["status_names"]),
        ("attack_areas.yaml", "ATTACK_AREAS", t["area_names"]),
        ("specials.yaml", "SPECIALS", t["special_names"]),
        ("families.yaml", "ROOTS", t["family_names"]),
    )
    for fname, const, ours in pairs:
        theirs = tuple(getattr(ut, const))
        if theirs != tuple(ours):
            missing = sorted(set(theirs) - set(ours)) or sorted(set(ours) - set(theirs))
            msg = f"disagrees with unit_tables.{const} (order or names; {missing})"
            raise ConfigError(config_dir / fname, None, "name", msg)


def _cross_check_units(config_dir: Path, units: Any, t: dict[str, Any]) -> None:
    """Units/abilities against the unit trees and items."""
    tree_path = config_dir / "unit_tree.yaml"
    tree_index = t["tree_index"]
    for name in units.unit_names:
        if name not in tree_index:
            raise ConfigError(tree_path, None, "name", f"unit {name!r} of units.yaml missing")
    for i, name in enumerate(t["tree_names"]):
        if name not in units.unit_index:
            raise ConfigError(tree_path, f"{i} '{name}'", "name", "not a unit of units.yaml")
        if units.unit_index[name] != i:
            raise ConfigError(tree_path, f"{i} '{name}'", "number", "differs from units.yaml")
    for r, item in enumerate(units.effect_items):
        if item is not None and item not in t["item_index"]:
            msg = f"ability effect row {r} names unknown item {item!r}"
            raise ConfigError(config_dir / "abilities.yaml", None, "effects.item", msg)


def load_tables(config_dir: Path = CONFIG_ROOT / "tactics_david") -> Tables:
    """Load and cross-check configs/tactics_david into :class:`Tables`."""
    d = Path(config_dir)
    rules = load_mapping(d / "rules.yaml", "tactics_david.rules", Rules)

    statuses = _load_statuses(d / "statuses.yaml")
    status_index = {s.name: i for i, s in enumerate(statuses)}
    for i, s in enumerate(statuses):
        for a in s.aliases:
            status_index[a] = i

    specials = load_entries(d / "specials.yaml", "tactics_david.specials", Special)
    _check_numbers(d / "specials.yaml", specials)
    require_known(d / "specials.yaml", specials, "statuses", status_index, "status")

    areas = _load_areas(d / "attack_areas.yaml")
    nodes, families = _load_tree(d / "unit_tree.yaml", d / "families.yaml")
    family_names = [f.name for f in families]
    items = _load_items(d / "items.yaml", status_index, {a.name for a in areas}, set(family_names))

    mpath = d / "movement_types.yaml"
    movements = load_entries(mpath, "tactics_david.movement_types", MovementType)
    if tuple(m.name for m in movements) != MOVEMENT_TYPES:
        raise ConfigError(mpath, None, "name", f"must be {MOVEMENT_TYPES} in this order")
    cpath = d / "unit_classes.yaml"
    classes = load_entries(cpath, "tactics_david.unit_classes", UnitClass)
    if tuple(c.code for c in classes) != CLASS_CODES:
        raise ConfigError(cpath, None, "code", f"must be {CLASS_CODES} in this order")
    upath = d / "unit_types.yaml"
    utypes = load_entries(upath, "tactics_david.unit_types", UnitTypeRow)
    if tuple(u.name for u in utypes) != UNIT_TYPES:
        raise ConfigError(upath, None, "name", f"must be {UNIT_TYPES} in this order")
    for i, u in enumerate(utypes):
        if set(u.versus) != set(UNIT_TYPES):
            raise ConfigError(upath, _label(i, u), "versus", "must give all three unit types")

    tpath = d / "terrain_types.yaml"
    terrains = load_entries(tpath, "tactics_david.terrain_types", TerrainType)
    symbols: dict[str, int] = {}
    for i, tt in enumerate(terrains):
        if len(tt.symbol) != 1 or tt.symbol in symbols:
            raise ConfigError(tpath, _label(i, tt), "symbol", "one character, unique")
        symbols[tt.symbol] = i
        if any(not 1 <= r <= 6 for r in tt.soar_end_roll_dead):
            raise ConfigError(tpath, _label(i, tt), "soar_end_roll_dead", "D6 results are 1..6")
    terrain_index = {tt.name: i for i, tt in enumerate(terrains)}
    ppath = d / "terrain_pieces.yaml"
    pieces = load_entries(ppath, "tactics_david.terrain_pieces", TerrainPiece)
    require_known(ppath, pieces, "terrain_type", terrain_index, "terrain type")
    for i, p in enumerate(pieces):
        for field in ("height", "side_height"):
            h = getattr(p, field)
            if h is not None and h not in rules.terrain_heights:
                raise ConfigError(ppath, _label(i, p), field, f"height {h} not a Height Level")
    piece_index = {p.name: i for i, p in enumerate(pieces)}

    bpath = d / "battlefields.yaml"
    fields = _load_battlefields(bpath, rules, symbols, piece_index)

    # --- compile ---------------------------------------------------------------------------
    s_rows = [(s, e) for s in statuses for e in s.effects]
    s_off = [0]
    for s in statuses:
        s_off.append(s_off[-1] + len(s.effects))
    cancels = np.zeros((len(statuses), len(statuses)), dtype=bool)
    for i, s in enumerate(statuses):
        for c in s.cancels:
            cancels[i, status_index[c]] = True

    i_rows = [(it, e) for it in items for e in it.effects]
    i_off = [0]
    for it in items:
        i_off.append(i_off[-1] + len(it.effects))
    area_index = {a.name: i for i, a in enumerate(areas)}
    family_index = {f: i for i, f in enumerate(family_names)}

    def opt(v: str | None, index: dict[str, int] | tuple[str, ...]) -> int:
        if v is None:
            return -1
        return index[v] if isinstance(index, dict) else index.index(v)

    cells = np.zeros((len(areas), MAX_AREA_CELLS, 2), dtype=np.int8)
    for a, area in enumerate(areas):
        cells[a, : len(area.cells)] = area.cells

    tree_index = {n.name: i for i, n in enumerate(nodes)}
    n_nodes = len(nodes)
    parent = [opt(n.parent, tree_index) for n in nodes]
    ancestors: list[list[int]] = []  # self first, root last
    for i in range(n_nodes):
        chain = [i]
        while parent[chain[-1]] >= 0:
            chain.append(parent[chain[-1]])
        ancestors.append(chain)
    root_family = {tree_index[f.root_unit]: k for k, f in enumerate(families)}
    lineage = np.full((n_nodes, n_nodes), -1, dtype=np.int8)
    for i in range(n_nodes):
        depth_i = {node: k for k, node in enumerate(ancestors[i])}
        for j in range(n_nodes):
            # Lines of Lineage: steps up to the closest common ancestor and down again.
            for k, node in enumerate(ancestors[j]):
                if node in depth_i:
                    lineage[i, j] = min(127, depth_i[node] + k)
                    break

    maps = []
    for bf in fields:
        terrain = np.array([[symbols[ch] for ch in line] for line in bf.terrain], dtype=np.int8)
        piece = np.array(
            [[opt(bf.piece_legend.get(ch), piece_index) for ch in line] for line in bf.pieces],
            dtype=np.int8,
        )
        height = np.where(piece >= 0, np.array([p.height for p in pieces])[piece], 0)
        deploy = np.full(terrain.shape, NO_PLAYER, dtype=np.int8)
        for dz in bf.deployment:
            deploy[dz.rows[0] : dz.rows[1] + 1, dz.cols[0] : dz.cols[1] + 1] = dz.player
        maps.append(
            BattlefieldMap(
                name=bf.name,
                terrain=readonly(terrain),
                piece=readonly(piece),
                height=readonly(height.astype(np.int8)),
                deployment=readonly(deploy),
                bridge_axis=BRIDGE_AXES.index(bf.bridge_axis),
                purchase_limit=(bf.purchase_limit[0], bf.purchase_limit[1]),
            )
        )

    t: dict[str, Any] = dict(
        rules=rules,
        status_names=tuple(s.name for s in statuses),
        status_index=status_index,
        status_category=_arr([STATUS_CATEGORIES.index(s.category) for s in statuses], np.int8),
        status_afflicts=_arr([[ut in s.afflicts for ut in UNIT_TYPES] for s in statuses], np.bool_),
        status_cancels=readonly(cancels),
        status_effect_offset=_arr(s_off, np.int16),
        status_eff_trigger=_arr([STATUS_TRIGGERS.index(e.trigger) for _, e in s_rows], np.int8),
        status_eff_roll=_arr([ROLLS.index(e.roll or "none") for _, e in s_rows], np.int8),
        status_eff_results=_arr([_result_bits(e.results) for _, e in s_rows], np.uint8),
        status_eff_kind=_arr([STATUS_EFFECTS.index(e.effect) for _, e in s_rows], np.int8),
        status_eff_amount=_arr([e.amount for _, e in s_rows], np.int8),
        special_names=tuple(s.name for s in specials),
        special_index={s.name: i for i, s in enumerate(specials)},
        special_effect=_arr([SPECIAL_EFFECTS.index(s.effect) for s in specials], np.int8),
        special_statuses=_arr([_bits(s.statuses, status_index) for s in specials], np.int32),
        item_names=tuple(it.name for it in items),
        item_index={it.name: i for i, it in enumerate(items)},
        item_type=_arr([ITEM_TYPES.index(it.item_type) for it in items], np.int8),
        item_users=_arr([[c in it.users for c in CLASS_CODES] for it in items], np.bool_),
        item_user_unit_type=_arr([opt(it.user_unit_type, UNIT_TYPES) for it in items], np.int8),
        item_user_attack_mode=_arr(
            [opt(it.user_attack_mode, ATTACK_MODES) for it in items], np.int8
        ),
        item_cost=_arr([it.purchase_cost for it in items], np.int16),
        item_use=_arr([ITEM_USES.index(it.use) for it in items], np.int8),
        item_effect_offset=_arr(i_off, np.int16),
        item_eff_kind=_arr([ITEM_EFFECTS.index(e.effect) for _, e in i_rows], np.int8),
        item_eff_target=_arr([ITEM_TARGETS.index(e.target) for _, e in i_rows], np.int8),
        item_eff_amount=_arr(
            [AMOUNT_ALL if e.amount == "all" else e.amount for _, e in i_rows], np.int8
        ),
        item_eff_radius=_arr([e.radius for _, e in i_rows], np.int8),
        item_eff_procedure=_arr(
            [ITEM_PROCEDURES.index(e.procedure or "any") for _, e in i_rows], np.int8
        ),
        item_eff_statuses=_arr([_bits(e.statuses, status_index) for _, e in i_rows], np.int32),
        item_eff_except_statuses=_arr(
            [_bits(e.except_statuses, status_index) for _, e in i_rows], np.int32
        ),
        item_eff_attack_area=_arr([opt(e.attack_area, area_index) for _, e in i_rows], np.int8),
        item_eff_attack_type=_arr([opt(e.attack_type, UNIT_TYPES) for _, e in i_rows], np.int8),
        item_eff_root=_arr([opt(e.root, family_index) for _, e in i_rows], np.int8),
        terrain_names=tuple(tt.name for tt in terrains),
        terrain_index=terrain_index,
        terrain_symbol=tuple(tt.symbol for tt in terrains),
        terrain_movement_modifier=_arr([tt.movement_modifier for tt in terrains], np.int8),
        terrain_range_modifier=_arr([tt.range_modifier for tt in terrains], np.int8),
        terrain_defend_base_sides=_arr([int(tt.defend_base_die[1:]) for tt in terrains], np.int8),
        terrain_defend_extra_sides=_arr(
            [int(tt.defend_extra_die[1:]) if tt.defend_extra_die else 0 for tt in terrains],
            np.int8,
        ),
        terrain_slow=_arr([tt.slow for tt in terrains], np.bool_),
        terrain_slow_exempt=_arr(
            [[m in tt.slow_exempt for m in MOVEMENT_TYPES] for tt in terrains], np.bool_
        ),
        terrain_charge=_arr([CHARGE_RULES.index(tt.charge) for tt in terrains], np.int8),
        terrain_blocks_los=_arr([tt.blocks_line_of_sight for tt in terrains], np.bool_),
        terrain_ranged_edge_only=_arr(
            [tt.ranged_attack_from_edge_only for tt in terrains], np.bool_
        ),
        terrain_soar_dead_results=_arr(
            [_result_bits(tt.soar_end_roll_dead) for tt in terrains], np.uint8
        ),
        piece_names=tuple(p.name for p in pieces),
        piece_index=piece_index,
        piece_height=_arr([p.height for p in pieces], np.int8),
        piece_side_height=_arr(
            [-1 if p.side_height is None else p.side_height for p in pieces], np.int8
        ),
        piece_terrain=_arr([opt(p.terrain_type, terrain_index) for p in pieces], np.int8),
        movement_names=tuple(m.name for m in movements),
        movement_pass_over_height=_arr([m.pass_over_height for m in movements], np.int8),
        movement_occupy_height=_arr([m.occupy_height for m in movements], np.int8),
        movement_may_charge=_arr([m.may_charge for m in movements], np.bool_),
        movement_off_water_modifier=_arr(
            [m.movement_modifier_off_water for m in movements], np.int8
        ),
        class_names=tuple(c.name for c in classes),
        class_core_min=_arr([c.core_min for c in classes], np.int8),
        class_core_max=_arr([c.core_max for c in classes], np.int8),
        class_stacking_points=_arr([c.stacking_points for c in classes], np.int8),
        class_ranged_melee_strength=_arr([c.ranged_melee_strength for c in classes], np.int8),
        unit_type_attack_side=_arr([ATTACK_SIDES.index(u.attack_side) for u in utypes], np.int8),
        matchup=_arr([[MATCHUPS.index(u.versus[d]) for d in UNIT_TYPES] for u in utypes], np.int8),
        area_names=tuple(a.name for a in areas),
        area_index=area_index,
        area_is_ranged=_arr([a.mode == "ranged" for a in areas], np.bool_),
        area_n_cells=_arr([len(a.cells) for a in areas], np.int8),
        area_cells=readonly(cells),
        area_target=_arr([a.target or (0, 0) for a in areas], np.int8),
        area_continues=_arr([a.continues or (0, 0) for a in areas], np.int8),
        family_names=tuple(family_names),
        family_index=family_index,
        family_root=_arr([tree_index[f.root_unit] for f in families], np.int16),
        tree_names=tuple(n.name for n in nodes),
        tree_index=tree_index,
        tree_number=_arr([n.number for n in nodes], np.int16),
        tree_parent=_arr(parent, np.int16),
        tree_family=_arr([root_family[a[-1]] for a in ancestors], np.int8),
        tree_depth=_arr([len(a) - 1 for a in ancestors], np.int8),
        lineage=readonly(lineage),
        battlefield_names=tuple(bf.name for bf in fields),
        battlefield_index={bf.name: i for i, bf in enumerate(fields)},
        battlefields=tuple(maps),
    )
    ut = _unit_tables_module()
    if ut is not None and (d / "units.yaml").exists() and (d / "abilities.yaml").exists():
        _cross_check_vocabularies(d, ut, t)
        units = ut.load_unit_tables(d)
        _cross_check_units(d, units, t)
        t["units"] = units
    return Tables(**t)


def _freeze(obj: Any) -> None:
    """Make every numpy array in a loaded Tables read-only again (pickle drops the flag)."""
    if isinstance(obj, np.ndarray):
        obj.setflags(write=False)
    elif dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        for f in dataclasses.fields(obj):
            _freeze(getattr(obj, f.name))
    elif isinstance(obj, (tuple, list)):
        for v in obj:
            _freeze(v)
    elif isinstance(obj, dict):
        for v in obj.values():
            _freeze(v)


def load_tables_cached(config_dir: Path = CONFIG_ROOT / "tactics_david") -> Tables:
    """load_tables through a pickle in the ruleset's numba cache folder: a cached start skips
    parsing and validating the YAML (about 0.3 s of a 1 s start). The pickle is keyed by the
    YAML files' names and bytes; the folder by the loader's own sources (envs/core/jit.py,
    cache_dir), so an edit of either loads the YAML again. A missing, unreadable or stale
    pickle only costs the load."""
    from envs.core.jit import cache_dir

    d = Path(config_dir)
    h = hashlib.sha256()
    for path in sorted(d.glob("*.yaml")):
        h.update(path.name.encode())
        h.update(path.read_bytes())
    pkl = cache_dir("tactics_david") / f"tables-{h.hexdigest()[:16]}.pkl"
    try:
        tables = pickle.loads(pkl.read_bytes())
        if isinstance(tables, Tables):
            _freeze(tables)
            return tables
    except Exception:  # noqa: BLE001 - any unreadable cache file: load the YAML instead
        pass
    tables = load_tables(d)
    try:
        tmp = pkl.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(pickle.dumps(tables, protocol=pickle.HIGHEST_PROTOCOL))
        os.replace(tmp, pkl)  # atomic: a concurrent start reads the old file or the new one
    except OSError:
        pass
    return tables
