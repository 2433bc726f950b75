"""TAC rule data: configs/tac/*.yaml validated and compiled to read-only numpy tables.

Codes used by the kernels are the module constants below; the YAML names map onto them.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from envs.core.config import CONFIG_ROOT, ConfigError, Entry, load_entries, load_mapping

# Weapon types (3.2) and weights (6.1-6.2).
GUN, MISSILE = 0, 1
HEAVY, LIGHT = 0, 1
# Attack kinds: what a declared attack is, for ranges, armour and defences (5-9, 10.11).
ATTACK_GUN, ATTACK_MISSILE, ATTACK_AIR, ATTACK_ARTY = 0, 1, 2, 3
# Card colours (1.2).
RED, ORANGE, BLACK, BLUE, PURPLE = 0, 1, 2, 3, 4
COLOURS = ("red", "orange", "black", "blue", "purple")
# Defence cards (10.1).
AIR_SUPERIORITY, AIR_SUPREMACY, HIGH_COVER, EVASIVE_MANEUVERS, TACTICAL_SMOKE = 0, 1, 2, 3, 4
DEFENCES = (
    "air_superiority",
    "air_supremacy",
    "high_cover",
    "evasive_maneuvers",
    "tactical_smoke",
)
# HQ cards (4.2).
HQ_REINFORCE, HQ_REPAIR, HQ_UPGRADE = 0, 1, 2
HQ_KINDS = ("reinforce", "repair", "upgrade")
# Purple modifiers (5.4).
MOD_MULTIPLY, MOD_ADD = 0, 1
MODIFIERS = ("multiply", "add")
# Unit categories (2.1) and classes (3.3-3.9).
CAT_TANK, CAT_LIGHT = 0, 1
CATEGORIES = ("tank", "light")
CLASS_TANK, CLASS_INFANTRY, CLASS_LIGHT_VEHICLE, CLASS_AIR_DEFENCE, CLASS_ATGM, CLASS_ARTY = range(
    6
)
CLASSES = ("tank", "infantry", "light_vehicle", "air_defence", "atgm", "arty")

GAME_FILE, WEAPONS_FILE, UNITS_FILE, CARDS_FILE = (
    "game.yaml",
    "weapons.yaml",
    "units.yaml",
    "action_cards.yaml",
)


class GameSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    rounds: int = Field(ge=1, le=50)
    hand_size: int = Field(ge=1, le=7)
    action_points: int = Field(ge=1, le=7)
    tanks_per_player: int = Field(ge=0, le=5)
    light_units_per_player: int = Field(ge=0, le=7)
    max_rows: Literal[3]
    static_repositions: int = Field(ge=0, le=12)
    arty_to_hit_static: int = Field(ge=0, le=6)
    arty_to_hit_mobile: int = Field(ge=0, le=6)
    air_superiority_stops_on: int = Field(ge=0, le=6)
    static_infantry_hit_points: int = Field(ge=1, le=9)
    armour: int = Field(ge=0, le=9)


class WeaponRow(Entry):
    weight: Literal["heavy", "light"]
    type: Literal["gun", "missile"]


class UnitRow(Entry):
    category: Literal["tank", "light"]
    class_: Literal[CLASSES] = Field(alias="class")  # type: ignore[valid-type]
    hit_points: int = Field(ge=1, le=9)
    weapons: list[str]
    air_defence: bool
    victory_points: int = Field(ge=0, le=20)
    count: int = Field(ge=1, le=20)


class CardRow(Entry):
    colour: Literal[COLOURS]  # type: ignore[valid-type]
    count: int = Field(ge=1, le=40)
    ap_cost: int = Field(ge=0, le=4)
    weapon: str | None = None
    damage: int | None = Field(default=None, ge=0, le=20)
    to_hit: int | None = Field(default=None, ge=0, le=6)
    defence: Literal[DEFENCES] | None = None  # type: ignore[valid-type]
    hq: Literal[HQ_KINDS] | None = None  # type: ignore[valid-type]
    modifier: Literal[MODIFIERS] | None = None  # type: ignore[valid-type]
    amount: int | None = Field(default=None, ge=0, le=10)


# Which optional fields each colour needs (the rest must be absent).
_COLOUR_FIELDS = {
    "red": ("weapon", "damage"),
    "orange": ("damage", "to_hit"),
    "black": ("defence",),
    "blue": ("hq",),
    "purple": ("modifier", "amount"),
}
_OPTIONAL = ("weapon", "damage", "to_hit", "defence", "hq", "modifier", "amount")

MAX_UNIT_TYPES = 32
MAX_CARD_TYPES = 40
MAX_ACTION_CARDS = 127  # card ids are int8


# The kernels' tables are one numpy record (np.record) of fixed-size arrays: passed to a
# numba function it is a single pointer, where a tuple of 20 arrays cost ~300 ns per call
# in reference counting. Arrays are padded to the MAX_* capacities; n_* say how much is used.
TABLE_FIELDS = [
    ("n_unit_types", np.int16, ()),
    ("n_card_types", np.int16, ()),
    ("n_cards", np.int16, ()),  # physical Action cards in the deck
    ("unit_category", np.int8, (MAX_UNIT_TYPES,)),  # CAT_*
    ("unit_class", np.int8, (MAX_UNIT_TYPES,)),  # CLASS_*
    ("unit_hit_points", np.int8, (MAX_UNIT_TYPES,)),
    ("unit_weapons", np.uint8, (MAX_UNIT_TYPES, 2, 2)),  # [U, GUN/MISSILE, HEAVY/LIGHT]
    ("unit_air_defence", np.uint8, (MAX_UNIT_TYPES,)),
    ("unit_victory_points", np.int8, (MAX_UNIT_TYPES,)),
    ("unit_count", np.int8, (MAX_UNIT_TYPES,)),
    ("card_type_colour", np.int8, (MAX_CARD_TYPES,)),  # COLOURS index
    ("card_type_weapon_type", np.int8, (MAX_CARD_TYPES,)),  # GUN/MISSILE (red), -1 otherwise
    ("card_type_weapon_weight", np.int8, (MAX_CARD_TYPES,)),  # HEAVY/LIGHT (red), -1 otherwise
    ("card_type_damage", np.int8, (MAX_CARD_TYPES,)),
    ("card_type_to_hit", np.int8, (MAX_CARD_TYPES,)),
    ("card_type_defence", np.int8, (MAX_CARD_TYPES,)),  # DEFENCES index or -1
    ("card_type_hq", np.int8, (MAX_CARD_TYPES,)),  # HQ_KINDS index or -1
    ("card_type_modifier", np.int8, (MAX_CARD_TYPES,)),  # MODIFIERS index or -1
    ("card_type_amount", np.int8, (MAX_CARD_TYPES,)),
    ("card_type_ap_cost", np.int8, (MAX_CARD_TYPES,)),
    ("card_type_is_close_air_support", np.uint8, (MAX_CARD_TYPES,)),  # 10.9
    ("card_type", np.int8, (MAX_ACTION_CARDS,)),  # type of each physical Action card
    ("settings", np.int16, (12,)),  # game.yaml numbers, indexed by S_*
]
TABLES_DTYPE = np.dtype(TABLE_FIELDS)
TacArrays = np.record  # the type of Tables.arrays


SETTING_NAMES = (
    "rounds",
    "hand_size",
    "action_points",
    "tanks_per_player",
    "light_units_per_player",
    "max_rows",
    "static_repositions",
    "arty_to_hit_static",
    "arty_to_hit_mobile",
    "air_superiority_stops_on",
    "static_infantry_hit_points",
    "armour",
)
(
    S_ROUNDS,
    S_HAND,
    S_AP,
    S_TANKS,
    S_LIGHTS,
    S_ROWS,
    S_STATIC_MOVES,
    S_ARTY_STATIC,
    S_ARTY_MOBILE,
    S_AIR_SUP,
    S_INF_HP,
    S_ARMOUR,
) = range(len(SETTING_NAMES))

CLOSE_AIR_SUPPORT = "Close Air Support"


@dataclass(frozen=True)
class Tables:
    settings: GameSettings
    weapons: list[WeaponRow]
    units: list[UnitRow]
    cards: list[CardRow]
    arrays: TacArrays  # np.record: the `tb` of serial kernels
    arrays_batch: np.ndarray  # the same as a 1-element record array: parallel kernels take it
    unit_index: dict[str, int]
    card_index: dict[str, int]
    config_dir: Path

    @property
    def n_unit_types(self) -> int:
        return len(self.units)

    @property
    def n_card_types(self) -> int:
        return len(self.cards)

    @property
    def n_action_cards(self) -> int:
        return int(self.arrays.n_cards)

    @property
    def n_tank_cards(self) -> int:
        return sum(u.count for u in self.units if u.category == "tank")

    @property
    def n_light_cards(self) -> int:
        return sum(u.count for u in self.units if u.category == "light")


def _check_cards(path: Path, cards: list[CardRow], weapons: dict[str, WeaponRow]) -> None:
    for i, c in enumerate(cards):
        label = f"{i} '{c.name}'"
        need = _COLOUR_FIELDS[c.colour]
        for f in _OPTIONAL:
            value = getattr(c, f)
            if f in need and value is None:
                raise ConfigError(path, label, f, f"missing required field for a {c.colour} card")
            if f not in need and value is not None:
                raise ConfigError(path, label, f, f"not allowed on a {c.colour} card")
        if c.weapon is not None and c.weapon not in weapons:
            raise ConfigError(path, label, "weapon", f"unknown weapon {c.weapon!r}")


def load_tables(config_dir: Path | str | None = None) -> Tables:
    """Load and validate configs/tac (or another folder with the same four files)."""
    config_dir = Path(config_dir) if config_dir is not None else CONFIG_ROOT / "tac"
    settings = load_mapping(config_dir / GAME_FILE, "tac.game", GameSettings)
    weapons = load_entries(config_dir / WEAPONS_FILE, "tac.weapons", WeaponRow)
    by_weapon = {w.name: w for w in weapons}
    units_path = config_dir / UNITS_FILE
    units = load_entries(units_path, "tac.units", UnitRow)
    for i, u in enumerate(units):
        for w in u.weapons:
            if w not in by_weapon:
                raise ConfigError(units_path, f"{i} '{u.name}'", "weapons", f"unknown weapon {w!r}")
        if u.category == "tank" and u.class_ != "tank":
            raise ConfigError(
                units_path, f"{i} '{u.name}'", "class", "a tank-pile card must be class tank"
            )
    cards_path = config_dir / CARDS_FILE
    cards = load_entries(cards_path, "tac.action_cards", CardRow)
    _check_cards(cards_path, cards, by_weapon)

    if len(units) > MAX_UNIT_TYPES:
        raise ConfigError(units_path, None, "entries", f"at most {MAX_UNIT_TYPES} unit types")
    if len(cards) > MAX_CARD_TYPES:
        raise ConfigError(cards_path, None, "entries", f"at most {MAX_CARD_TYPES} card types")
    n_cards = sum(c.count for c in cards)
    if n_cards > MAX_ACTION_CARDS:
        raise ConfigError(
            cards_path, None, "count", f"deck of {n_cards} cards; at most {MAX_ACTION_CARDS}"
        )
    n_tanks = sum(u.count for u in units if u.category == "tank")
    n_lights = sum(u.count for u in units if u.category == "light")
    # 2.1: enough unit cards to deal five players (the most the game allows).
    if n_tanks < 5 * settings.tanks_per_player or n_lights < 5 * settings.light_units_per_player:
        raise ConfigError(units_path, None, "count", "too few unit cards to deal five players")
    if n_cards < 5 * settings.hand_size + 10:
        raise ConfigError(cards_path, None, "count", "too few Action cards to deal five hands")

    U = len(units)
    weapons_arr = np.zeros((U, 2, 2), dtype=np.bool_)
    for i, u in enumerate(units):
        for w in u.weapons:
            row = by_weapon[w]
            weapons_arr[
                i, GUN if row.type == "gun" else MISSILE, HEAVY if row.weight == "heavy" else LIGHT
            ] = True

    def opt(value, table=None):
        if value is None:
            return -1
        return table.index(value) if table is not None else value

    card_weapon_type = [
        (GUN if by_weapon[c.weapon].type == "gun" else MISSILE) if c.weapon else -1 for c in cards
    ]
    card_weapon_weight = [
        (HEAVY if by_weapon[c.weapon].weight == "heavy" else LIGHT) if c.weapon else -1
        for c in cards
    ]
    card_type = np.concatenate([np.full(c.count, i, dtype=np.int8) for i, c in enumerate(cards)])
    rec = np.zeros(1, dtype=TABLES_DTYPE)
    rec["card_type_weapon_type"] = -1
    rec["card_type_weapon_weight"] = -1
    rec["card_type_defence"] = -1
    rec["card_type_hq"] = -1
    rec["card_type_modifier"] = -1
    rec["card_type"] = -1
    C = len(cards)
    rec["n_unit_types"] = U
    rec["n_card_types"] = C
    rec["n_cards"] = len(card_type)
    columns = {
        "unit_category": [CATEGORIES.index(u.category) for u in units],
        "unit_class": [CLASSES.index(u.class_) for u in units],
        "unit_hit_points": [u.hit_points for u in units],
        "unit_weapons": weapons_arr,
        "unit_air_defence": [u.air_defence for u in units],
        "unit_victory_points": [u.victory_points for u in units],
        "unit_count": [u.count for u in units],
        "card_type_colour": [COLOURS.index(c.colour) for c in cards],
        "card_type_weapon_type": card_weapon_type,
        "card_type_weapon_weight": card_weapon_weight,
        "card_type_damage": [c.damage if c.damage is not None else 0 for c in cards],
        "card_type_to_hit": [c.to_hit if c.to_hit is not None else 0 for c in cards],
        "card_type_defence": [opt(c.defence, DEFENCES) for c in cards],
        "card_type_hq": [opt(c.hq, HQ_KINDS) for c in cards],
        "card_type_modifier": [opt(c.modifier, MODIFIERS) for c in cards],
        "card_type_amount": [c.amount or 0 for c in cards],
        "card_type_ap_cost": [c.ap_cost for c in cards],
        "card_type_is_close_air_support": [c.name == CLOSE_AIR_SUPPORT for c in cards],
        "card_type": card_type,
        "settings": [getattr(settings, n) for n in SETTING_NAMES],
    }
    for name, values in columns.items():
        values = np.asarray(values)
        rec[name][0, : len(values)] = values
    # np.record gives attribute access (tb.unit_class) in Python and numba alike; the batch
    # form stays a plain ndarray, which numba's dispatcher types faster than a recarray
    rec = rec.view(np.recarray)
    arrays = rec[0]
    rec = rec.view(np.ndarray)  # keeps the np.record dtype, so both forms type alike
    return Tables(
        settings=settings,
        weapons=weapons,
        units=units,
        cards=cards,
        arrays=arrays,
        arrays_batch=rec,
        unit_index={u.name: i for i, u in enumerate(units)},
        card_index={c.name: i for i, c in enumerate(cards)},
        config_dir=config_dir,
    )


_DEFAULT: Tables | None = None


def default_tables() -> Tables:
    """The shipped configs/tac tables, loaded once per process."""
    global _DEFAULT
    if _DEFAULT is None:
        _DEFAULT = load_tables()
    return _DEFAULT
