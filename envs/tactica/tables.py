"""TACTICA rule data: configs/tactica/*.yaml -> read-only numpy tables.

The seed keeps only Part 3 (the advanced game); the basic game these tables describe is
rebuilt in docs/rules/tactica.md (clauses TT-B.x, Invented I1-I24). Every enumeration used by
later numba kernels is a module-level integer code: the position of its value in the matching
``Literal`` below (e.g. ``TIMING_COUNTER == TIMINGS.index("counter")``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path
from typing import TYPE_CHECKING, Literal, get_args

import numpy as np
from pydantic import BaseModel, ConfigDict, Field, ValidationInfo, field_validator

from envs.core.config import (
    CONFIG_ROOT,
    ConfigError,
    Entry,
    load_entries,
    load_mapping,
    readonly,
    require_known,
)

if TYPE_CHECKING:
    from envs.tactica.battlefield import BattlefieldGeometry

# --- closed vocabularies (each value is explained in docs/rules/tactica.md, "Data") ---------

Combat = Literal["melee", "ranged"]
CardType = Literal["troop", "training", "tactics", "wall", "landmark", "summon", "token"]
Pile = Literal["troop", "tactics", "feature"]
Timing = Literal["attacker", "defender", "combat", "muster", "counter"]
Counters = Literal["tactics_card", "attack"]
TacticEffect = Literal[
    "press_off_bonus",
    "saved_def_bonus",
    "remove_feature",
    "spy_discard",
    "negate_card",
    "retreat_troop",
    "ransom_hostage",
]
AfterUse = Literal["barracks", "resupply"]
SacrificeEffect = Literal["guard_def_bonus", "extend_attack_range", "capture_to_lost", "extra_move"]
DecreeEffect = Literal[
    "opponent_plays_no_cards",
    "train_capturer",
    "opponent_no_combat",
    "opponent_no_movement",
    "muster_betrayer",
    "place_summon",
]
PhaseName = Literal["Barracks", "Recruitment", "Mustering", "Movement", "Combat", "Resolution"]
Layout = Literal["odd-r"]
CaptureRule = Literal["off_greater_than_def"]

COMBATS: tuple[str, ...] = get_args(Combat)
CARD_TYPES: tuple[str, ...] = get_args(CardType)
PILES: tuple[str, ...] = get_args(Pile)
TIMINGS: tuple[str, ...] = get_args(Timing)
COUNTERS: tuple[str, ...] = get_args(Counters)
TACTIC_EFFECTS: tuple[str, ...] = get_args(TacticEffect)
AFTER_USES: tuple[str, ...] = get_args(AfterUse)
SACRIFICE_EFFECTS: tuple[str, ...] = get_args(SacrificeEffect)
DECREE_EFFECTS: tuple[str, ...] = get_args(DecreeEffect)
PHASE_NAMES: tuple[str, ...] = get_args(PhaseName)
LAYOUTS: tuple[str, ...] = get_args(Layout)
CAPTURE_RULES: tuple[str, ...] = get_args(CaptureRule)

COMBAT_MELEE, COMBAT_RANGED = range(2)
(
    CARD_TROOP,
    CARD_TRAINING,
    CARD_TACTICS,
    CARD_WALL,
    CARD_LANDMARK,
    CARD_SUMMON,
    CARD_TOKEN,
) = range(7)
PILE_TROOP, PILE_TACTICS, PILE_FEATURE = range(3)
TIMING_ATTACKER, TIMING_DEFENDER, TIMING_COMBAT, TIMING_MUSTER, TIMING_COUNTER = range(5)
COUNTERS_NONE = -1
COUNTERS_TACTICS_CARD, COUNTERS_ATTACK = range(2)
(
    EFFECT_PRESS_OFF_BONUS,
    EFFECT_SAVED_DEF_BONUS,
    EFFECT_REMOVE_FEATURE,
    EFFECT_SPY_DISCARD,
    EFFECT_NEGATE_CARD,
    EFFECT_RETREAT_TROOP,
    EFFECT_RANSOM_HOSTAGE,
) = range(7)
AFTER_USE_BARRACKS, AFTER_USE_RESUPPLY = range(2)
(
    SACRIFICE_GUARD_DEF_BONUS,
    SACRIFICE_EXTEND_ATTACK_RANGE,
    SACRIFICE_CAPTURE_TO_LOST,
    SACRIFICE_EXTRA_MOVE,
) = range(4)
(
    DECREE_OPPONENT_PLAYS_NO_CARDS,
    DECREE_TRAIN_CAPTURER,
    DECREE_OPPONENT_NO_COMBAT,
    DECREE_OPPONENT_NO_MOVEMENT,
    DECREE_MUSTER_BETRAYER,
    DECREE_PLACE_SUMMON,
) = range(6)
(
    PHASE_BARRACKS,
    PHASE_RECRUITMENT,
    PHASE_MUSTERING,
    PHASE_MOVEMENT,
    PHASE_COMBAT,
    PHASE_RESOLUTION,
) = range(6)
SIDE_HIGH, SIDE_LOW = range(2)

# Battlefield hex codes (battlefields.yaml legend). Seats are 1 and 2; code = seat number.
HEX_NONE = -1
HEX_OPEN = 0
HEX_ZONE_1 = 1
HEX_ZONE_2 = 2
HEX_LEGEND: dict[str, int] = {"#": HEX_NONE, ".": HEX_OPEN, "1": HEX_ZONE_1, "2": HEX_ZONE_2}

# which pile each card type waits in before a battle (TT-B.5)
PILE_OF_CARD_TYPE: dict[str, str] = {
    "troop": "troop",
    "training": "troop",
    "tactics": "tactics",
    "wall": "feature",
    "landmark": "feature",
    "summon": "feature",
    "token": "feature",
}

_REF = re.compile(r"^[RI][1-9][0-9]*$")
Stat = Field(ge=0, le=20)


# --- row models ---------------------------------------------------------------------------


class TTEntry(Entry):
    """A TACTICA row: `ref` names the Reading (R#) or Invented (I#) entry behind it."""

    ref: str | None = None

    @field_validator("ref")
    @classmethod
    def _ref_matches_origin(cls, v: str | None, info: ValidationInfo) -> str | None:
        if v is not None and not _REF.match(v):
            raise ValueError("must look like R<number> or I<number>")
        if info.data.get("origin") == "invented" and (v is None or not v.startswith("I")):
            raise ValueError("an invented row must name its Invented id (I<number>)")
        return v


class TroopRow(TTEntry):
    combat: Combat
    offense: int = Stat  # OFF
    defense: int = Stat  # DEF
    move: int = Field(ge=0, le=10)
    range: int = Field(ge=1, le=10)
    text: str


class TacticsRow(TTEntry):
    timing: Timing
    counters: Counters | None
    effect: TacticEffect
    after_use: AfterUse
    text: str
    advanced_text: str | None


class ArmyRow(TTEntry):
    card_type: CardType
    pile: Pile
    count: int = Field(ge=1, le=40)
    text: str


class LandmarkSide(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    side: str
    off_mod: int = Field(ge=-5, le=5)
    def_mod: int = Field(ge=-5, le=5)
    range_mod: int = Field(ge=-5, le=5)
    block: bool


class LandmarkRow(TTEntry):
    high: LandmarkSide
    low: LandmarkSide


class SummonRow(TTEntry):
    offense: int = Stat  # OFF
    defense: int = Stat  # DEF
    move: int = Field(ge=0, le=10)
    attack_range: int = Field(ge=1, le=10)
    text: str


class SacrificeRow(TTEntry):
    summon: str
    phase: PhaseName
    effect: SacrificeEffect
    param: int = Field(ge=0, le=20)
    reach: int = Field(ge=0, le=10)
    text: str


class DecreeRow(TTEntry):
    unique_cards: int = Field(ge=0, le=20)
    cards: list[str]
    pair: bool
    capturer: bool
    hostage: bool
    effect: DecreeEffect
    requirement_text: str
    effect_text: str
    notes: list[str]


class BattlefieldRow(TTEntry):
    battle: int = Field(ge=1, le=9)
    layout: Layout
    rows: list[str] = Field(min_length=3, max_length=40)


class PhaseRow(TTEntry):
    advanced_only: bool
    text: str


class RulesModel(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    barracks_limit: int = Field(ge=1, le=20)
    muster_actions: int = Field(ge=1, le=10)
    max_troops_on_battlefield: int = Field(ge=1, le=40)
    max_training: int = Field(ge=0, le=5)
    training_off_per_level: int = Field(ge=0, le=5)
    training_def_per_level: int = Field(ge=0, le=5)
    ranged_adjacent_melee_penalty: int = Field(ge=0, le=10)
    capture_rule: CaptureRule
    turn_limit: int = Field(ge=1, le=100)
    rout_from_turn: int = Field(ge=1, le=100)
    ransom_hostages: int = Field(ge=1, le=40)
    battles_per_war: int = Field(ge=1, le=9)
    battle_points: list[int]
    decrees_per_barracks_phase: int = Field(ge=0, le=6)
    summon_cards: int = Field(ge=1, le=9)
    spire_wall_distance: int = Field(ge=1, le=20)
    spire_def: int = Stat
    sacrifices_per_summon_per_turn: int = Field(ge=0, le=9)
    landmark_wall_distance: int = Field(ge=1, le=20)


# --- the compiled tables ------------------------------------------------------------------


@dataclass(frozen=True)
class Tables:
    """Every TACTICA rule table as read-only arrays plus name -> index lookups.

    Index spaces: troop (troops.yaml order), card (the draw cards: army.yaml rows in the troop
    and tactics piles, in file order), tactic, landmark, summon, sacrifice, decree,
    battlefield, phase (play order of phases.yaml).
    """

    troop_names: tuple[str, ...]
    troop_index: dict[str, int]
    troop_combat: np.ndarray  # int8[T] COMBAT_* code
    troop_off: np.ndarray  # int8[T]
    troop_def: np.ndarray  # int8[T]
    troop_move: np.ndarray  # int8[T] hexes per movement action
    troop_range: np.ndarray  # int8[T] attack range in hexes (1 = adjacent)

    card_names: tuple[str, ...]  # draw cards (can be in a Barracks)
    card_index: dict[str, int]
    card_type: np.ndarray  # int8[C] CARD_* code
    card_pile: np.ndarray  # int8[C] PILE_* code
    card_count: np.ndarray  # int8[C] copies per army
    card_troop: np.ndarray  # int8[C] troop index, -1 if not a troop card
    card_tactic: np.ndarray  # int8[C] tactic index, -1 if not a tactics card

    feature_names: tuple[str, ...]  # army rows in the feature pile
    feature_type: np.ndarray  # int8[F] CARD_* code
    feature_count: np.ndarray  # int8[F] copies per army

    tactic_names: tuple[str, ...]
    tactic_index: dict[str, int]
    tactic_timing: np.ndarray  # int8[K] TIMING_* code
    tactic_counters: np.ndarray  # int8[K] COUNTERS_* code, COUNTERS_NONE if not a counter card
    tactic_effect: np.ndarray  # int8[K] EFFECT_* code
    tactic_after_use: np.ndarray  # int8[K] AFTER_USE_* code

    landmark_names: tuple[str, ...]
    landmark_index: dict[str, int]
    landmark_side_names: tuple[tuple[str, str], ...]  # [L][SIDE_HIGH, SIDE_LOW]
    landmark_off_mod: np.ndarray  # int8[L, 2]
    landmark_def_mod: np.ndarray  # int8[L, 2]
    landmark_range_mod: np.ndarray  # int8[L, 2]
    landmark_block: np.ndarray  # bool[L, 2] BLOCK feature

    summon_names: tuple[str, ...]
    summon_index: dict[str, int]
    summon_off: np.ndarray  # int8[S]
    summon_def: np.ndarray  # int8[S]
    summon_move: np.ndarray  # int8[S]
    summon_attack_range: np.ndarray  # int8[S]

    sacrifice_names: tuple[str, ...]
    sacrifice_index: dict[str, int]
    sacrifice_summon: np.ndarray  # int8[X] summon index
    sacrifice_phase: np.ndarray  # int8[X] PHASE_* code
    sacrifice_effect: np.ndarray  # int8[X] SACRIFICE_* code
    sacrifice_param: np.ndarray  # int8[X]
    sacrifice_reach: np.ndarray  # int8[X]

    decree_names: tuple[str, ...]
    decree_index: dict[str, int]
    decree_unique_cards: np.ndarray  # int8[D] distinct card names needed (0 = none)
    decree_cards: np.ndarray  # bool[D, C] named cards needed, one each
    decree_pair: np.ndarray  # bool[D] a pair is needed
    decree_capturer: np.ndarray  # bool[D] a troop that helped capture last turn is needed
    decree_hostage: np.ndarray  # bool[D] an enemy troop in the hostage pile is needed
    decree_effect: np.ndarray  # int8[D] DECREE_* code

    battlefield_names: tuple[str, ...]
    battlefield_index: dict[str, int]
    battlefield_battle: np.ndarray  # int8[B] which battle of the war (1-based)
    battlefield_shape: np.ndarray  # int8[B, 2] (rows, columns)
    battlefield_hexes: np.ndarray  # int8[B, Rmax, Cmax] HEX_* code, HEX_NONE as padding

    phase_order: np.ndarray  # int8[P] PHASE_* codes in play order
    phase_advanced_only: np.ndarray  # bool[P] in play order

    battle_points: np.ndarray  # int8[battles_per_war]
    rules: RulesModel

    # The numba-facing record (TT_TABLE_FIELDS), built on first use from the fields above.
    @cached_property
    def arrays_batch(self) -> np.ndarray:
        """The kernels' tables as a 1-element record array (what parallel kernels take)."""
        return build_arrays(self)

    @cached_property
    def arrays(self) -> np.record:
        """The same record as a np.record scalar: the `tb` argument of serial kernels."""
        return self.arrays_batch.view(np.recarray)[0]

    @cached_property
    def battlefield(self) -> BattlefieldGeometry:
        """Static hex geometry of every battlefield (neighbours, distances, lines of fire),
        built on first use (about a second; then loaded from the disk cache, see
        battlefield.cached_geometry) and kept with these tables."""
        from envs.tactica.battlefield import cached_geometry  # imports this module

        return cached_geometry(self.battlefield_hexes, self.battlefield_shape)


def _names(rows: list) -> tuple[str, ...]:
    return tuple(r.name for r in rows)


def _index(names: tuple[str, ...]) -> dict[str, int]:
    return {n: i for i, n in enumerate(names)}


def _label(rows: list, i: int) -> str:
    return f"{i} '{rows[i].name}'"


def _check_army(
    path: Path, army: list[ArmyRow], kind: str, known: dict[str, Path], tables: dict[str, list]
) -> None:
    """Army rows of `kind` and the rows of the per-kind file must name the same cards."""
    of_kind = [r.name for r in army if r.card_type == kind]
    src = known[kind]
    for i, row in enumerate(tables[kind]):
        if row.name not in of_kind:
            raise ConfigError(src, _label(tables[kind], i), "name", f"not in army.yaml as {kind}")
    listed = {r.name for r in tables[kind]}
    for i, row in enumerate(army):
        if row.card_type == kind and row.name not in listed:
            raise ConfigError(path, _label(army, i), "name", f"unknown {kind} card {row.name!r}")


def load_tables(config_dir: Path = CONFIG_ROOT / "tactica") -> Tables:
    """Load, validate and compile every TACTICA table in `config_dir`."""
    config_dir = Path(config_dir)
    p = {
        n: config_dir / f"{n}.yaml"
        for n in (
            "troops",
            "tactics",
            "army",
            "landmarks",
            "summons",
            "sacrifices",
            "decrees",
            "battlefields",
            "phases",
            "rules",
        )
    }
    rules = load_mapping(p["rules"], "tactica.rules", RulesModel)
    troops = load_entries(p["troops"], "tactica.troops", TroopRow)
    tactics = load_entries(p["tactics"], "tactica.tactics", TacticsRow)
    army = load_entries(p["army"], "tactica.army", ArmyRow)
    landmarks = load_entries(p["landmarks"], "tactica.landmarks", LandmarkRow)
    summons = load_entries(p["summons"], "tactica.summons", SummonRow)
    sacrifices = load_entries(p["sacrifices"], "tactica.sacrifices", SacrificeRow)
    decrees = load_entries(p["decrees"], "tactica.decrees", DecreeRow)
    battlefields = load_entries(p["battlefields"], "tactica.battlefields", BattlefieldRow)
    phases = load_entries(p["phases"], "tactica.phases", PhaseRow)

    # rules: one war point value per battle (TT-B.9)
    if len(rules.battle_points) != rules.battles_per_war:
        raise ConfigError(
            p["rules"],
            None,
            "battle_points",
            f"needs {rules.battles_per_war} values (one a battle)",
        )

    # army: each card waits in the pile its type belongs to (TT-B.5)
    for i, row in enumerate(army):
        if row.pile != PILE_OF_CARD_TYPE[row.card_type]:
            want = PILE_OF_CARD_TYPE[row.card_type]
            raise ConfigError(
                p["army"], _label(army, i), "pile", f"a {row.card_type} card belongs in {want!r}"
            )
    for kind in ("training", "wall", "summon", "token"):
        n = sum(1 for r in army if r.card_type == kind)
        if n != 1:
            raise ConfigError(
                p["army"], None, "card_type", f"needs exactly one {kind!r} row, found {n}"
            )
    summon_row = next(r for r in army if r.card_type == "summon")
    if summon_row.count != rules.summon_cards:
        i = army.index(summon_row)
        raise ConfigError(
            p["army"],
            _label(army, i),
            "count",
            f"rules.yaml says {rules.summon_cards} summon cards",
        )
    known = {"troop": p["troops"], "tactics": p["tactics"], "landmark": p["landmarks"]}
    per_kind = {"troop": troops, "tactics": tactics, "landmark": landmarks}
    for kind in known:
        _check_army(p["army"], army, kind, known, per_kind)

    # tactics: a counter card says what it counters, and only a counter card does (TT-B.4)
    for i, row in enumerate(tactics):
        if (row.timing == "counter") != (row.counters is not None):
            raise ConfigError(
                p["tactics"],
                _label(tactics, i),
                "counters",
                "must be set exactly when timing is 'counter'",
            )

    # landmarks: side names are unique over all landmark cards
    seen_sides: set[str] = set()
    for i, row in enumerate(landmarks):
        for key in ("high", "low"):
            side = getattr(row, key).side
            if side in seen_sides:
                raise ConfigError(
                    p["landmarks"], _label(landmarks, i), f"{key}.side", f"duplicate side {side!r}"
                )
            seen_sides.add(side)

    draw = [r for r in army if r.pile != "feature"]
    feature = [r for r in army if r.pile == "feature"]
    card_names = _names(draw)
    require_known(p["decrees"], decrees, "cards", card_names, "card")
    for i, row in enumerate(decrees):
        if row.unique_cards > len(card_names):
            raise ConfigError(
                p["decrees"], _label(decrees, i), "unique_cards", "more than there are card names"
            )
        if len(set(row.cards)) != len(row.cards):
            raise ConfigError(p["decrees"], _label(decrees, i), "cards", "names a card twice")
    summon_names = _names(summons)
    require_known(p["sacrifices"], sacrifices, "summon", summon_names, "summon")

    # phases: the six phases of the seed, each once
    names = [r.name for r in phases]
    for i, name in enumerate(names):
        if name not in PHASE_NAMES:
            raise ConfigError(p["phases"], _label(phases, i), "name", f"unknown phase {name!r}")
    missing = [n for n in PHASE_NAMES if n not in names]
    if missing:
        raise ConfigError(p["phases"], None, "entries", f"missing phase(s) {missing}")

    # battlefields: rectangular hex maps, legend characters only, one per battle of the war
    walls = next(r.count for r in army if r.card_type == "wall")
    shapes = []
    for i, row in enumerate(battlefields):
        width = len(row.rows[0])
        for r, line in enumerate(row.rows):
            if len(line) != width:
                raise ConfigError(
                    p["battlefields"],
                    _label(battlefields, i),
                    f"rows.{r}",
                    f"has {len(line)} hexes, row 0 has {width}",
                )
            bad = sorted(set(line) - set(HEX_LEGEND))
            if bad:
                raise ConfigError(
                    p["battlefields"],
                    _label(battlefields, i),
                    f"rows.{r}",
                    f"unknown hex character(s) {bad}",
                )
        for seat in ("1", "2"):
            zone = sum(line.count(seat) for line in row.rows)
            if zone < walls:
                raise ConfigError(
                    p["battlefields"],
                    _label(battlefields, i),
                    "rows",
                    f"wall zone {seat} has {zone} hexes, fewer than the {walls} wall cards",
                )
        shapes.append((len(row.rows), width))
    battles = sorted(r.battle for r in battlefields)
    if battles != list(range(1, rules.battles_per_war + 1)):
        raise ConfigError(
            p["battlefields"],
            None,
            "battle",
            f"need one battlefield for each battle 1..{rules.battles_per_war}, found {battles}",
        )

    rmax = max(s[0] for s in shapes)
    cmax = max(s[1] for s in shapes)
    hexes = np.full((len(battlefields), rmax, cmax), HEX_NONE, dtype=np.int8)
    for b, row in enumerate(battlefields):
        for r, line in enumerate(row.rows):
            hexes[b, r, : len(line)] = [HEX_LEGEND[ch] for ch in line]
    hexes.setflags(write=False)

    troop_names = _names(troops)
    tactic_names = _names(tactics)
    troop_index = _index(troop_names)
    tactic_index = _index(tactic_names)
    summon_index = _index(summon_names)
    card_index = _index(card_names)
    decree_cards = np.zeros((len(decrees), len(card_names)), dtype=bool)
    for d, row in enumerate(decrees):
        for c in row.cards:
            decree_cards[d, card_index[c]] = True
    decree_cards.setflags(write=False)
    lm_sides = [(r.high, r.low) for r in landmarks]

    return Tables(
        troop_names=troop_names,
        troop_index=troop_index,
        troop_combat=readonly([COMBATS.index(r.combat) for r in troops], np.int8),
        troop_off=readonly([r.offense for r in troops], np.int8),
        troop_def=readonly([r.defense for r in troops], np.int8),
        troop_move=readonly([r.move for r in troops], np.int8),
        troop_range=readonly([r.range for r in troops], np.int8),
        card_names=card_names,
        card_index=card_index,
        card_type=readonly([CARD_TYPES.index(r.card_type) for r in draw], np.int8),
        card_pile=readonly([PILES.index(r.pile) for r in draw], np.int8),
        card_count=readonly([r.count for r in draw], np.int8),
        card_troop=readonly([troop_index.get(r.name, -1) for r in draw], np.int8),
        card_tactic=readonly([tactic_index.get(r.name, -1) for r in draw], np.int8),
        feature_names=_names(feature),
        feature_type=readonly([CARD_TYPES.index(r.card_type) for r in feature], np.int8),
        feature_count=readonly([r.count for r in feature], np.int8),
        tactic_names=tactic_names,
        tactic_index=tactic_index,
        tactic_timing=readonly([TIMINGS.index(r.timing) for r in tactics], np.int8),
        tactic_counters=readonly(
            [COUNTERS_NONE if r.counters is None else COUNTERS.index(r.counters) for r in tactics],
            np.int8,
        ),
        tactic_effect=readonly([TACTIC_EFFECTS.index(r.effect) for r in tactics], np.int8),
        tactic_after_use=readonly([AFTER_USES.index(r.after_use) for r in tactics], np.int8),
        landmark_names=_names(landmarks),
        landmark_index=_index(_names(landmarks)),
        landmark_side_names=tuple((h.side, lo.side) for h, lo in lm_sides),
        landmark_off_mod=readonly([(h.off_mod, lo.off_mod) for h, lo in lm_sides], np.int8),
        landmark_def_mod=readonly([(h.def_mod, lo.def_mod) for h, lo in lm_sides], np.int8),
        landmark_range_mod=readonly([(h.range_mod, lo.range_mod) for h, lo in lm_sides], np.int8),
        landmark_block=readonly([(h.block, lo.block) for h, lo in lm_sides], bool),
        summon_names=summon_names,
        summon_index=summon_index,
        summon_off=readonly([r.offense for r in summons], np.int8),
        summon_def=readonly([r.defense for r in summons], np.int8),
        summon_move=readonly([r.move for r in summons], np.int8),
        summon_attack_range=readonly([r.attack_range for r in summons], np.int8),
        sacrifice_names=_names(sacrifices),
        sacrifice_index=_index(_names(sacrifices)),
        sacrifice_summon=readonly([summon_index[r.summon] for r in sacrifices], np.int8),
        sacrifice_phase=readonly([PHASE_NAMES.index(r.phase) for r in sacrifices], np.int8),
        sacrifice_effect=readonly([SACRIFICE_EFFECTS.index(r.effect) for r in sacrifices], np.int8),
        sacrifice_param=readonly([r.param for r in sacrifices], np.int8),
        sacrifice_reach=readonly([r.reach for r in sacrifices], np.int8),
        decree_names=_names(decrees),
        decree_index=_index(_names(decrees)),
        decree_unique_cards=readonly([r.unique_cards for r in decrees], np.int8),
        decree_cards=decree_cards,
        decree_pair=readonly([r.pair for r in decrees], bool),
        decree_capturer=readonly([r.capturer for r in decrees], bool),
        decree_hostage=readonly([r.hostage for r in decrees], bool),
        decree_effect=readonly([DECREE_EFFECTS.index(r.effect) for r in decrees], np.int8),
        battlefield_names=_names(battlefields),
        battlefield_index=_index(_names(battlefields)),
        battlefield_battle=readonly([r.battle for r in battlefields], np.int8),
        battlefield_shape=readonly(shapes, np.int8),
        battlefield_hexes=hexes,
        phase_order=readonly([PHASE_NAMES.index(n) for n in names], np.int8),
        phase_advanced_only=readonly([r.advanced_only for r in phases], bool),
        battle_points=readonly(rules.battle_points, np.int8),
        rules=rules,
    )


# --- the numba-facing record (envs/tactica/combat.py, decrees.py) --------------------------

# Like envs/tac/tables.py: one numpy record of fixed-size arrays, a single pointer for numba.
# Arrays are padded to these capacities; the n_* fields say how much of each is used.
MAX_TROOPS = 8
MAX_CARDS = 24  # draw cards (a Barracks holds only these)
MAX_TACTICS = 16
MAX_LANDMARKS = 8
MAX_SUMMONS = 4
MAX_SACRIFICES = 8
MAX_DECREES = 8
MAX_BATTLES = 9
MAX_ARMY_CARDS = 40  # draw cards of one army (37 in army.yaml); stride of the state's card ids
MAX_WALLS = 4  # wall cards of one army
MAX_LANDMARK_CARDS = 4  # landmark cards of one army
MAX_SUMMON_CARDS = 4  # summon cards of one army (a spire's height)
MAX_BATTLEFIELDS = 3  # battlefields of a war (one per battle, stacked by battle)
# the battlefield geometry's shapes (envs/tactica/battlefield.py; 11 x 9 = 99 hexes)
GEO_HEXES = 99
GEO_SIDES = 6
GEO_LOF_CROSSED = 16
GEO_LOF_EDGES = 8

# RulesModel numbers copied to scalar fields of the record (capture_rule as its code)
RULE_NUMBERS = (
    "barracks_limit",
    "muster_actions",
    "max_troops_on_battlefield",
    "max_training",
    "training_off_per_level",
    "training_def_per_level",
    "ranged_adjacent_melee_penalty",
    "turn_limit",
    "rout_from_turn",
    "ransom_hostages",
    "battles_per_war",
    "decrees_per_barracks_phase",
    "summon_cards",
    "spire_wall_distance",
    "spire_def",
    "sacrifices_per_summon_per_turn",
    "landmark_wall_distance",
)

TT_TABLE_FIELDS = [
    ("n_troops", np.int16, ()),  # troop kinds used in the troop_* arrays
    ("n_cards", np.int16, ()),  # draw-card names used in card_* and decree_cards[:, :]
    ("n_tactics", np.int16, ()),  # tactics cards used in tactic_*
    ("n_landmarks", np.int16, ()),  # landmark cards used in landmark_*
    ("n_summons", np.int16, ()),  # summons used in summon_*
    ("n_sacrifices", np.int16, ()),  # sacrifices used in sacrifice_*
    ("n_decrees", np.int16, ()),  # decrees used in decree_*
    ("foot_troop", np.int16, ()),  # troop index of Foot (advanced Saved, TT-A.2), -1 if none
    ("champion_troop", np.int16, ()),  # troop index of Champion (TT-A.2), -1 if none
    ("troop_combat", np.int8, (MAX_TROOPS,)),  # [T] COMBAT_MELEE / COMBAT_RANGED
    ("troop_off", np.int8, (MAX_TROOPS,)),  # [T] printed OFF
    ("troop_def", np.int8, (MAX_TROOPS,)),  # [T] printed DEF
    ("troop_move", np.int8, (MAX_TROOPS,)),  # [T] hexes per movement action
    ("troop_range", np.int8, (MAX_TROOPS,)),  # [T] attack range in hexes (1 = adjacent)
    ("card_type", np.int8, (MAX_CARDS,)),  # [C] CARD_* code of each draw card
    ("card_troop", np.int8, (MAX_CARDS,)),  # [C] troop index, -1 if not a troop card
    ("card_tactic", np.int8, (MAX_CARDS,)),  # [C] tactic index, -1 if not a tactics card
    ("card_pile", np.int8, (MAX_CARDS,)),  # [C] PILE_TROOP / PILE_TACTICS it is shuffled into
    ("card_count", np.int8, (MAX_CARDS,)),  # [C] copies per army
    # one army's draw cards one by one (envs/tactica/state.py card ids): slot k of an army is a
    # copy of draw card army_card[k]; slots run through card_names in order, card_count each
    ("n_army_cards", np.int16, ()),  # draw cards per army (sum of card_count)
    ("army_card", np.int8, (MAX_ARMY_CARDS,)),  # [N] draw card (card index) of army slot k
    ("n_walls", np.int16, ()),  # wall cards per army
    ("n_landmark_cards", np.int16, ()),  # landmark cards per army
    ("army_landmark", np.int8, (MAX_LANDMARK_CARDS,)),  # [M] landmark index of landmark card j
    ("tactic_timing", np.int8, (MAX_TACTICS,)),  # [K] TIMING_* code
    ("tactic_counters", np.int8, (MAX_TACTICS,)),  # [K] COUNTERS_* code, COUNTERS_NONE (-1)
    ("tactic_effect", np.int8, (MAX_TACTICS,)),  # [K] EFFECT_* code
    ("tactic_after_use", np.int8, (MAX_TACTICS,)),  # [K] AFTER_USE_* code
    ("landmark_off_mod", np.int8, (MAX_LANDMARKS, 2)),  # [L, SIDE_HIGH/SIDE_LOW] OFF modifier
    ("landmark_def_mod", np.int8, (MAX_LANDMARKS, 2)),  # [L, side] DEF modifier
    ("landmark_range_mod", np.int8, (MAX_LANDMARKS, 2)),  # [L, side] range modifier (ranged)
    ("landmark_block", np.uint8, (MAX_LANDMARKS, 2)),  # [L, side] 1 = BLOCK feature
    ("summon_off", np.int8, (MAX_SUMMONS,)),  # [S] OFF
    ("summon_def", np.int8, (MAX_SUMMONS,)),  # [S] DEF
    ("summon_move", np.int8, (MAX_SUMMONS,)),  # [S] hexes per movement action
    ("summon_attack_range", np.int8, (MAX_SUMMONS,)),  # [S] attack range in hexes
    ("sacrifice_summon", np.int8, (MAX_SACRIFICES,)),  # [X] summon index it belongs to
    ("sacrifice_phase", np.int8, (MAX_SACRIFICES,)),  # [X] PHASE_* code it is made in
    ("sacrifice_effect", np.int8, (MAX_SACRIFICES,)),  # [X] SACRIFICE_* code
    ("sacrifice_param", np.int8, (MAX_SACRIFICES,)),  # [X] its number (DEF, range, hexes)
    ("sacrifice_reach", np.int8, (MAX_SACRIFICES,)),  # [X] hexes from the summon, 0 = unused
    ("decree_unique_cards", np.int8, (MAX_DECREES,)),  # [D] distinct card names needed
    ("decree_cards", np.int8, (MAX_DECREES, MAX_CARDS)),  # [D, C] copies of each named card
    ("decree_pair", np.uint8, (MAX_DECREES,)),  # [D] 1 = a pair is needed (TT-A.4.5)
    ("decree_capturer", np.uint8, (MAX_DECREES,)),  # [D] 1 = a capturer is needed (TT-A.6.1)
    ("decree_hostage", np.uint8, (MAX_DECREES,)),  # [D] 1 = a hostage is needed (TT-A.9.1)
    ("decree_effect", np.int8, (MAX_DECREES,)),  # [D] DECREE_* code
    ("capture_rule", np.int16, ()),  # CAPTURE_RULES index (off_greater_than_def)
    *[(name, np.int16, ()) for name in RULE_NUMBERS],  # rules.yaml numbers, same names
    ("battle_points", np.int8, (MAX_BATTLES,)),  # [battles_per_war] war points per battle
    # --- the env's options (envs/tactica/ruleset.py sets them on a copy of the record) ---
    ("game_advanced", np.uint8, ()),  # 1: every war is the advanced game (TT-A.0.1)
    # per mille of each army's draw cards sent to LOST before battle 1 (balance option
    # "armies=varied": random deck compositions); 0 = the army as army.yaml lists it
    ("lost_at_start", np.int16, ()),
    # --- the battlefield geometry (Tables.battlefield), stacked by battle: the contract's
    # kernels take the tables alone, so the geometry travels inside the record ---
    ("geo_neighbours", np.int16, (MAX_BATTLEFIELDS, GEO_HEXES, GEO_SIDES)),
    ("geo_distance", np.int16, (MAX_BATTLEFIELDS, GEO_HEXES, GEO_HEXES)),
    ("geo_wall_zone", np.uint8, (MAX_BATTLEFIELDS, 2, GEO_HEXES)),  # numba: no bool nested arrays
    ("geo_lof_crossed", np.int16, (MAX_BATTLEFIELDS, GEO_HEXES, GEO_HEXES, GEO_LOF_CROSSED)),
    ("geo_lof_edges", np.int16, (MAX_BATTLEFIELDS, GEO_HEXES, GEO_HEXES, GEO_LOF_EDGES, 2)),
]
TT_TABLES_DTYPE = np.dtype(TT_TABLE_FIELDS)

_CAPACITIES = {
    "troop_names": MAX_TROOPS,
    "card_names": MAX_CARDS,
    "tactic_names": MAX_TACTICS,
    "landmark_names": MAX_LANDMARKS,
    "summon_names": MAX_SUMMONS,
    "sacrifice_names": MAX_SACRIFICES,
    "decree_names": MAX_DECREES,
}


def build_arrays(t: Tables) -> np.ndarray:
    """The numba record of `t` as a 1-element array (dtype TT_TABLES_DTYPE).

    Raises ValueError when a table outgrows its capacity (MAX_*)."""
    for field, cap in _CAPACITIES.items():
        if len(getattr(t, field)) > cap:
            raise ValueError(f"{len(getattr(t, field))} {field} exceed the capacity {cap}")
    army_card = np.repeat(np.arange(len(t.card_names)), np.asarray(t.card_count, dtype=np.int64))
    if len(army_card) > MAX_ARMY_CARDS:
        raise ValueError(
            f"{len(army_card)} draw cards per army exceed the capacity {MAX_ARMY_CARDS}"
        )
    army_landmark = [
        t.landmark_index[name]
        for name, kind, n in zip(t.feature_names, t.feature_type, t.feature_count, strict=True)
        if kind == CARD_LANDMARK
        for _ in range(n)
    ]
    walls = sum(
        int(n) for kind, n in zip(t.feature_type, t.feature_count, strict=True) if kind == CARD_WALL
    )
    for what, n, cap in (
        ("wall cards", walls, MAX_WALLS),
        ("landmark cards", len(army_landmark), MAX_LANDMARK_CARDS),
        ("summon cards", t.rules.summon_cards, MAX_SUMMON_CARDS),
    ):
        if n > cap:
            raise ValueError(f"{n} {what} per army exceed the capacity {cap}")
    if len(t.battle_points) > MAX_BATTLES:
        raise ValueError(f"{len(t.battle_points)} battles exceed the capacity {MAX_BATTLES}")
    rec = np.zeros(1, dtype=TT_TABLES_DTYPE)
    for name in ("card_troop", "card_tactic", "tactic_counters", "army_card", "army_landmark"):
        rec[name] = -1
    rec["n_army_cards"] = len(army_card)
    rec["army_card"][0, : len(army_card)] = army_card
    rec["n_walls"] = walls
    rec["n_landmark_cards"] = len(army_landmark)
    rec["army_landmark"][0, : len(army_landmark)] = army_landmark
    rec["n_troops"] = len(t.troop_names)
    rec["n_cards"] = len(t.card_names)
    rec["n_tactics"] = len(t.tactic_names)
    rec["n_landmarks"] = len(t.landmark_names)
    rec["n_summons"] = len(t.summon_names)
    rec["n_sacrifices"] = len(t.sacrifice_names)
    rec["n_decrees"] = len(t.decree_names)
    rec["foot_troop"] = t.troop_index.get("Foot", -1)
    rec["champion_troop"] = t.troop_index.get("Champion", -1)
    rec["capture_rule"] = CAPTURE_RULES.index(t.rules.capture_rule)
    for name in RULE_NUMBERS:
        rec[name] = getattr(t.rules, name)
    columns = {
        name: getattr(t, name)
        for name in (
            "troop_combat",
            "troop_off",
            "troop_def",
            "troop_move",
            "troop_range",
            "card_type",
            "card_troop",
            "card_tactic",
            "card_pile",
            "card_count",
            "tactic_timing",
            "tactic_counters",
            "tactic_effect",
            "tactic_after_use",
            "landmark_off_mod",
            "landmark_def_mod",
            "landmark_range_mod",
            "landmark_block",
            "summon_off",
            "summon_def",
            "summon_move",
            "summon_attack_range",
            "sacrifice_summon",
            "sacrifice_phase",
            "sacrifice_effect",
            "sacrifice_param",
            "sacrifice_reach",
            "decree_unique_cards",
            "decree_cards",
            "decree_pair",
            "decree_capturer",
            "decree_hostage",
            "decree_effect",
            "battle_points",
        )
    }
    for name, values in columns.items():
        values = np.asarray(values)
        rec[name][(0, *(slice(0, n) for n in values.shape))] = values
    geo = t.battlefield
    if geo.distance.shape[0] > MAX_BATTLEFIELDS:
        raise ValueError(
            f"{geo.distance.shape[0]} battlefields exceed the capacity {MAX_BATTLEFIELDS}"
        )
    for name in ("neighbours", "distance", "wall_zone", "lof_crossed", "lof_edges"):
        values = getattr(geo, name)
        rec["geo_" + name][0, : values.shape[0]] = values
    # np.record gives attribute access (tb.troop_off) in Python and numba alike; the batch form
    # stays a plain ndarray that keeps the record dtype (envs/tac/tables.py does the same)
    return rec.view(np.recarray).view(np.ndarray)
