"""Fantasy Cards rule data: configs/fantasy_cards/*.yaml -> read-only numpy tables.

Seed: Tactical Assault: Fantasy Cards, edition 1.4 (shared/seeds/000_966979c4608810fc.txt).
Tables 1-6 are the seed's; the unit classes, the card-effect table, the 72-card deck and
the Random Drift table are invented (docs/rules/fantasy_cards.md, section "Invented").

Integer codes below are what later numba kernels index with. A missing rating or distance
(a "-" in Table 3) is ``NONE`` (-1 for distances, 0 for ratings, whose levels start at 1).
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

import numpy as np
from pydantic import BaseModel, ConfigDict, Field

from envs.core.config import (
    CONFIG_ROOT,
    ConfigError,
    Entry,
    load_entries,
    load_mapping,
    readonly,
    require_known,
)

FC_CONFIG = CONFIG_ROOT / "fantasy_cards"

# Unit types the rules single out by name (Table 3 spelling, reading R1).
AERIAL = "AERIAL"
COMMAND = "COMMAND"
INFILTRATOR = "INFILTRATOR"
OBSTACLE = "OBSTACLE"
SAPPER = "SAPPER"

NONE = -1  # no distance / no step / no reference
RATING_NONE = 0  # Table 3 "-": no such rating

# Table 6, in scale order: Step Up is +1 (reading R3).
NO_EFFECT, FALL_BACK, SHAKEN, OUT_OF_ACTION, ELIMINATED = 0, 1, 2, 3, 4
RESULT_NAMES = ("No Effect", "Fall Back", "Shaken", "Out Of Action", "Eliminated")

# Closed vocabularies of the card-effect table (I3, I4). The tuple order is the code.
PARTS = ("action", "situation")
TIMINGS = ("action", "any_time", "interrupt", "cancel")
TRIGGERS = (
    "none",
    "enemy_unit_moves",
    "enemy_contact",
    "ranged_attack_on_unit",
    "melee_attack_on_unit",
    "melee_attack_resolved_on_unit",
    "unit_attack_declared",
    "enemy_action_played",
    "enemy_situation_played",
)
CONDITIONS = (
    "none",
    "on_battlefield",
    "off_battlefield",
    "in_close_combat",
    "not_in_close_combat",
    "shaken",
    "out_of_action",
)
EFFECT_KINDS = (
    "move",
    "melee_attack",
    "ranged_attack",
    "target_point_attack",
    "aerial_attack",
    "recover",
    "back_in_action",
    "infiltrate",
    "pass_along",
    "remove_obstacle",
    "change_facing",
    "cancel_card",
    "shift_attack",
)
DIRECTIONS = ("any", "away_from_enemy")
WHATS = ("action", "situation")
# `range` of an attack: a Table 2 distance name, or the unit's own Range Distance (with the
# Extreme Range step of PART V "Ranged Attacks", step 3).
RANGE_DISTANCE = "range_distance"
RANGE_DISTANCE_CODE = 5  # after the five Table 2 distance codes 0..4
DRIFT_REFERENCES = ("none", "attacking_unit", "nearest_other_unit")
RANGED_CONDITIONS = (
    "attack_rating_higher",
    "protection_higher",
    "extreme_range",
    "outside_target_los_arc",
    "target_obstructed_or_in_cover",
    "target_higher_or_aerial",
    "target_in_close_combat",
)
MELEE_CONDITIONS = (
    "attack_rating_higher",
    "protection_higher",
    "target_shaken_or_out_of_action",
    "attacker_aerial_or_outside_target_los_arc",
    "target_in_cover",
)
STAGES = ("start_of_game", "turn")

PART_ACTION, PART_SITUATION = 0, 1
TIMING_ACTION, TIMING_ANY_TIME, TIMING_INTERRUPT, TIMING_CANCEL = 0, 1, 2, 3
(
    EFFECT_MOVE,
    EFFECT_MELEE_ATTACK,
    EFFECT_RANGED_ATTACK,
    EFFECT_TARGET_POINT_ATTACK,
    EFFECT_AERIAL_ATTACK,
    EFFECT_RECOVER,
    EFFECT_BACK_IN_ACTION,
    EFFECT_INFILTRATE,
    EFFECT_PASS_ALONG,
    EFFECT_REMOVE_OBSTACLE,
    EFFECT_CHANGE_FACING,
    EFFECT_CANCEL_CARD,
    EFFECT_SHIFT_ATTACK,
) = range(len(EFFECT_KINDS))

MAX_STEPS = 4  # most effects one Action or Situation may list

# Which parameters each effect kind takes: True = required, False = optional.
EFFECT_PARAMS: dict[str, dict[str, bool]] = {
    "move": {"distance": True, "contact": False, "direction": False},
    "melee_attack": {"shift": False},
    "ranged_attack": {"range": True, "shift": False},
    "target_point_attack": {"range": True, "radius": True, "shift": False},
    "aerial_attack": {"shift": False},
    "recover": {},
    "back_in_action": {},
    "infiltrate": {"min_enemy_distance": True},
    "pass_along": {"what": True, "distance": True},
    "remove_obstacle": {"distance": True},
    "change_facing": {},
    "cancel_card": {"range": True},
    "shift_attack": {"shift": True},
}
ATTACKS_NEEDING_RANGED_RATING = ("ranged_attack", "target_point_attack")


# ----------------------------------------------------------------------------- row models
class SequenceStep(Entry):
    stage: Literal["start_of_game", "turn"]
    order: int = Field(ge=1)
    text: str


class Distance(Entry):
    halvings: int = Field(ge=0, le=4)
    text: str


class Rating(Entry):
    level: int = Field(ge=1, le=5)


class UnitType(Entry):
    ranged_attack: str | None
    range_distance: str | None
    protection: str | None
    melee_attack: str | None
    points: int = Field(ge=0)
    starts_on_battlefield: bool
    note: str
    text: str


class UnitClass(Entry):
    members: list[str] = Field(min_length=1)


class CombatResult(Entry):
    rank: int = Field(ge=0, le=4)
    status: bool
    ceases_activity: bool
    blocks_cards: bool
    removed_by: Literal["none", "recover", "back_in_action"]
    text: str


class RangedModifier(Entry):
    condition: Literal[RANGED_CONDITIONS]  # type: ignore[valid-type]
    shift: Literal[-1, 1]
    text: str


class MeleeModifier(Entry):
    condition: Literal[MELEE_CONDITIONS]  # type: ignore[valid-type]
    shift: Literal[-1, 1]
    text: str


class DriftRow(Entry):
    distance: str | None
    reference: Literal[DRIFT_REFERENCES]  # type: ignore[valid-type]


class Effect(BaseModel):
    """One step of an Action or Situation; which parameters apply depends on `kind`."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    kind: Literal[EFFECT_KINDS]  # type: ignore[valid-type]
    distance: str | None = None
    contact: bool = False
    direction: Literal[DIRECTIONS] = "any"  # type: ignore[valid-type]
    range: str | None = None
    radius: str | None = None
    shift: int = Field(default=0, ge=-2, le=2)
    what: Literal[WHATS] | None = None  # type: ignore[valid-type]
    min_enemy_distance: str | None = None


class CardEffect(Entry):
    named_by_seed: str | None = None
    part: Literal[PARTS]  # type: ignore[valid-type]
    played_on: list[str] = Field(min_length=1)
    timing: Literal[TIMINGS]  # type: ignore[valid-type]
    trigger: Literal[TRIGGERS]  # type: ignore[valid-type]
    condition: Literal[CONDITIONS]  # type: ignore[valid-type]
    all_available: bool = False
    effects: list[Effect] = Field(min_length=1, max_length=MAX_STEPS)
    text: str


class Card(Entry):
    number: int = Field(ge=1)
    action: str
    situation: str
    combat_result: str
    text: str | None = None  # a real deck's printed text, when a user loads one


class StandardGame(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    battlefield_shape: Literal["square"]
    unit_points: int = Field(ge=1)
    victory_points_eliminated: int = Field(ge=1)
    deck_size: int = Field(ge=1)
    hand_size: int = Field(ge=1)
    deploy_min_distance: str
    game_minutes: int = Field(ge=1)
    minutes_per_12_points: int = Field(ge=1)
    turn_limit_per_player: int = Field(ge=1)  # invented (I15)


class Campaign(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    winner_points: int = Field(ge=0)
    loser_points: int = Field(ge=0)
    draw_points: int = Field(ge=0)
    promotion_award_cost: int = Field(ge=1)
    swap_cost_per_unit_point: int = Field(ge=1)


# ----------------------------------------------------------------------------- tables
@dataclass(frozen=True)
class Tables:
    """All Fantasy Cards rule data as read-only arrays plus name -> index dicts."""

    sequence_of_play: tuple[SequenceStep, ...]  # Table 1 steps, stage then order
    distance_names: tuple[str, ...]  # Table 2, Very Short .. Very Long (code 0..4)
    distance_index: dict[str, int]
    distance_halvings: np.ndarray  # int8[5]: distance = Very Long / 2**halvings
    rating_names: tuple[str, ...]  # Very Light .. Very Heavy; code = level 1..5
    rating_index: dict[str, int]  # name -> level
    unit_type_names: tuple[str, ...]  # Table 3 order
    unit_type_index: dict[str, int]
    unit_ranged_attack: np.ndarray  # int8[U] rating level, 0 = none
    unit_range_distance: np.ndarray  # int8[U] distance code, -1 = none
    unit_protection: np.ndarray  # int8[U] rating level, 0 = none (may not be attacked)
    unit_melee_attack: np.ndarray  # int8[U] rating level, 0 = none
    unit_points: np.ndarray  # int16[U]
    unit_starts_on_battlefield: np.ndarray  # bool[U]
    unit_class_names: tuple[str, ...]
    unit_class_index: dict[str, int]
    unit_class_members: np.ndarray  # bool[C, U]
    result_names: tuple[str, ...]  # Table 6 by rank: No Effect .. Eliminated
    result_index: dict[str, int]
    result_status: np.ndarray  # bool[5]
    result_ceases_activity: np.ndarray  # bool[5]
    result_blocks_cards: np.ndarray  # bool[5]
    result_removed_by: np.ndarray  # int8[5] effect-kind code, -1 = never removed
    ranged_modifier_names: tuple[str, ...]  # Table 4 rows
    ranged_modifier_condition: np.ndarray  # int8[R4] index into RANGED_CONDITIONS
    ranged_modifier_shift: np.ndarray  # int8[R4] +1 Up One, -1 Down One
    melee_modifier_names: tuple[str, ...]  # Table 5 rows
    melee_modifier_condition: np.ndarray  # int8[R5] index into MELEE_CONDITIONS
    melee_modifier_shift: np.ndarray  # int8[R5]
    drift_distance: np.ndarray  # int8[5] by Combat Result code, -1 = no drift
    drift_reference: np.ndarray  # int8[5] index into DRIFT_REFERENCES
    play_names: tuple[str, ...]  # card-effect rows (each a named Action or Situation)
    play_index: dict[str, int]
    play_part: np.ndarray  # int8[P] PART_*
    play_timing: np.ndarray  # int8[P] TIMING_*
    play_trigger: np.ndarray  # int8[P] index into TRIGGERS
    play_condition: np.ndarray  # int8[P] index into CONDITIONS
    play_all_available: np.ndarray  # bool[P]
    play_on: np.ndarray  # bool[P, U] unit types it may be played on
    step_kind: np.ndarray  # int8[P, MAX_STEPS] EFFECT_*, -1 = no step
    step_distance: np.ndarray  # int8[P, MAX_STEPS] distance code or -1
    step_contact: np.ndarray  # bool[P, MAX_STEPS] move may end in contact with an enemy
    step_direction: np.ndarray  # int8[P, MAX_STEPS] index into DIRECTIONS
    step_range: np.ndarray  # int8[P, MAX_STEPS] distance code, RANGE_DISTANCE_CODE or -1
    step_radius: np.ndarray  # int8[P, MAX_STEPS] distance code or -1
    step_shift: np.ndarray  # int8[P, MAX_STEPS] result shift, +1 = Up One
    step_what: np.ndarray  # int8[P, MAX_STEPS] index into WHATS or -1
    step_min_enemy_distance: np.ndarray  # int8[P, MAX_STEPS] distance code or -1
    card_names: tuple[str, ...]  # deck order as in the file
    card_number: np.ndarray  # int16[N] printed number
    card_action: np.ndarray  # int16[N] play index of the card's Action
    card_situation: np.ndarray  # int16[N] play index of the card's Situation
    card_result: np.ndarray  # int8[N] Combat Result code
    card_by_number: dict[int, int]  # printed number -> row
    plays: tuple[CardEffect, ...]  # the validated rows, for docs and tools
    cards: tuple[Card, ...]
    unit_types: tuple[UnitType, ...]
    standard_game: StandardGame
    campaign: Campaign


def _label(i: int, name: str) -> str:
    return f"{i} '{name}'"


def _code(path: Path, i: int, name: str, field: str, value: str | None, known: dict, what: str):
    """Index of a name in `known`, or -1 for None; unknown names raise ConfigError."""
    if value is None:
        return NONE
    if value not in known:
        raise ConfigError(path, _label(i, name), field, f"unknown {what} {value!r}")
    return known[value]


def _check_unique(path: Path, rows: list, field: str) -> None:
    seen: dict[object, int] = {}
    for i, row in enumerate(rows):
        value = getattr(row, field)
        if value in seen:
            raise ConfigError(path, _label(i, row.name), field, f"duplicate of entry {seen[value]}")
        seen[value] = i


def _expand_on(
    path: Path, i: int, row: CardEffect, unit_index: dict[str, int], classes: dict[str, list[str]]
) -> list[str]:
    types: list[str] = []
    for target in row.played_on:
        if target in unit_index:
            types.append(target)
        elif target in classes:
            types.extend(classes[target])
        else:
            raise ConfigError(
                path, _label(i, row.name), "played_on", f"unknown unit type or class {target!r}"
            )
    return sorted(set(types), key=unit_index.__getitem__)


def _check_play(path: Path, i: int, row: CardEffect, types: list[str], units: dict) -> None:
    """Rules every Action/Situation must obey (seed PART I, PART III; doc I3, I4)."""
    label = _label(i, row.name)
    if (row.part == "action") != (row.timing == "action"):
        raise ConfigError(path, label, "timing", f"{row.timing!r} does not fit part {row.part!r}")
    if row.timing in ("interrupt", "cancel") and row.trigger == "none":
        raise ConfigError(path, label, "trigger", f"a {row.timing} needs a trigger")
    if row.part == "action" and row.trigger != "none":
        raise ConfigError(
            path, label, "trigger", "an action is played on its own, not on a trigger"
        )
    has_cancel = any(e.kind == "cancel_card" for e in row.effects)
    if (row.timing == "cancel") != has_cancel:
        raise ConfigError(path, label, "effects", "cancel_card is used exactly by cancel timings")
    if row.timing == "cancel" and row.trigger not in (
        "enemy_action_played",
        "enemy_situation_played",
    ):
        raise ConfigError(path, label, "trigger", "a cancel must be triggered by an enemy card")
    if OBSTACLE in types:
        # PART III "Obstacles": "Obstacles may not have any Actions or Situations played on them"
        raise ConfigError(path, label, "played_on", "OBSTACLE may not have Actions or Situations")
    for j, eff in enumerate(row.effects):
        allowed = EFFECT_PARAMS[eff.kind]
        for param in eff.model_fields_set - {"kind"}:
            if param not in allowed:
                raise ConfigError(
                    path, label, f"effects.{j}.{param}", f"not a parameter of {eff.kind!r}"
                )
        for param, required in allowed.items():
            if required and getattr(eff, param) is None:
                raise ConfigError(path, label, f"effects.{j}.{param}", f"required by {eff.kind!r}")
        if eff.kind in ATTACKS_NEEDING_RANGED_RATING:
            for t in types:
                if units[t].ranged_attack is None:
                    raise ConfigError(
                        path,
                        label,
                        "played_on",
                        f"unit type {t!r} has no Ranged Attack for {eff.kind!r}",
                    )


def load_tables(
    config_dir: Path = FC_CONFIG,
    deck_path: Path | None = None,
    effects_path: Path | None = None,
) -> Tables:
    """Load and cross-check every Fantasy Cards table.

    `deck_path` (default config_dir/deck.yaml) may name any deck file of kind
    `fantasy_cards.deck`; `effects_path` (default config_dir/card_effects.yaml) the
    card-effect table its cards name.
    """
    d = Path(config_dir)
    p_seq = d / "sequence_of_play.yaml"
    p_dist = d / "distances.yaml"
    p_rat = d / "ratings.yaml"
    p_units = d / "unit_types.yaml"
    p_cls = d / "unit_classes.yaml"
    p_res = d / "combat_results.yaml"
    p_rmod = d / "ranged_modifiers.yaml"
    p_mmod = d / "melee_modifiers.yaml"
    p_drift = d / "random_drift.yaml"
    p_eff = Path(effects_path) if effects_path is not None else d / "card_effects.yaml"
    p_deck = Path(deck_path) if deck_path is not None else d / "deck.yaml"
    p_std = d / "standard_game.yaml"
    p_camp = d / "campaign.yaml"

    # Table 1
    seq = load_entries(p_seq, "fantasy_cards.sequence_of_play", SequenceStep)
    seen_step: dict[tuple[str, int], int] = {}
    for i, s in enumerate(seq):
        if (s.stage, s.order) in seen_step:
            raise ConfigError(
                p_seq,
                _label(i, s.name),
                "order",
                f"duplicate of entry {seen_step[s.stage, s.order]}",
            )
        seen_step[s.stage, s.order] = i
    seq_sorted = tuple(sorted(seq, key=lambda s: (STAGES.index(s.stage), s.order)))

    # Table 2: ordered by halvings, Very Short (4) first
    dists = load_entries(p_dist, "fantasy_cards.distances", Distance)
    _check_unique(p_dist, dists, "halvings")
    dists = sorted(dists, key=lambda r: -r.halvings)
    dist_index = {r.name: k for k, r in enumerate(dists)}
    dist_with_range = {**dist_index, RANGE_DISTANCE: RANGE_DISTANCE_CODE}

    ratings = load_entries(p_rat, "fantasy_cards.ratings", Rating)
    _check_unique(p_rat, ratings, "level")
    ratings = sorted(ratings, key=lambda r: r.level)
    rating_index = {r.name: r.level for r in ratings}

    # Table 3
    units = load_entries(p_units, "fantasy_cards.unit_types", UnitType)
    unit_index = {u.name: k for k, u in enumerate(units)}
    for name in (AERIAL, COMMAND, INFILTRATOR, OBSTACLE, SAPPER):
        if name not in unit_index:
            raise ConfigError(p_units, None, "name", f"the rules need unit type {name!r}")
    cols: dict[str, list[int]] = {f: [] for f in ("ra", "rd", "pr", "me")}
    for i, u in enumerate(units):
        cols["ra"].append(
            max(
                0,
                _code(p_units, i, u.name, "ranged_attack", u.ranged_attack, rating_index, "rating"),
            )
        )
        cols["rd"].append(
            _code(p_units, i, u.name, "range_distance", u.range_distance, dist_index, "distance")
        )
        cols["pr"].append(
            max(0, _code(p_units, i, u.name, "protection", u.protection, rating_index, "rating"))
        )
        cols["me"].append(
            max(
                0, _code(p_units, i, u.name, "melee_attack", u.melee_attack, rating_index, "rating")
            )
        )
        if (u.ranged_attack is None) != (u.range_distance is None):
            # PART III "Range Distance": no Ranged Attack means no range distance either
            raise ConfigError(
                p_units,
                _label(i, u.name),
                "range_distance",
                "must be given exactly with ranged_attack",
            )
    unit_by_name = {u.name: u for u in units}

    classes = load_entries(p_cls, "fantasy_cards.unit_classes", UnitClass)
    require_known(p_cls, classes, "members", unit_index, "unit type")
    for i, c in enumerate(classes):
        if c.name in unit_index:
            raise ConfigError(
                p_cls, _label(i, c.name), "name", "a class may not reuse a unit type name"
            )
    class_members = {c.name: c.members for c in classes}
    members = np.zeros((len(classes), len(units)), dtype=bool)
    for k, c in enumerate(classes):
        for m in c.members:
            members[k, unit_index[m]] = True

    # Table 6
    results = load_entries(p_res, "fantasy_cards.combat_results", CombatResult)
    _check_unique(p_res, results, "rank")
    for i, r in enumerate(results):
        if r.rank >= len(RESULT_NAMES) or r.name != RESULT_NAMES[r.rank]:
            raise ConfigError(
                p_res, _label(i, r.name), "name", f"rank {r.rank} is not {r.name!r} in Table 6"
            )
    if len(results) != len(RESULT_NAMES):
        raise ConfigError(p_res, None, "entries", f"Table 6 has {len(RESULT_NAMES)} results")
    results = sorted(results, key=lambda r: r.rank)
    result_index = {r.name: r.rank for r in results}

    # Tables 4 and 5
    rmods = load_entries(p_rmod, "fantasy_cards.ranged_modifiers", RangedModifier)
    mmods = load_entries(p_mmod, "fantasy_cards.melee_modifiers", MeleeModifier)

    drift = load_entries(p_drift, "fantasy_cards.random_drift", DriftRow)
    require_known(p_drift, drift, "name", result_index, "combat result")
    if len(drift) != len(result_index):
        raise ConfigError(p_drift, None, "entries", "needs one row per Combat Result")
    drift_distance = np.full(len(result_index), NONE, dtype=np.int8)
    drift_reference = np.zeros(len(result_index), dtype=np.int8)
    for i, row in enumerate(drift):
        code = result_index[row.name]
        drift_distance[code] = _code(
            p_drift, i, row.name, "distance", row.distance, dist_index, "distance"
        )
        drift_reference[code] = DRIFT_REFERENCES.index(row.reference)
        if (row.distance is None) != (row.reference == "none"):
            raise ConfigError(
                p_drift,
                _label(i, row.name),
                "reference",
                "a drift needs both distance and reference",
            )

    # Card-effect table
    plays = load_entries(p_eff, "fantasy_cards.card_effects", CardEffect)
    n_p, n_u = len(plays), len(units)
    play_on = np.zeros((n_p, n_u), dtype=bool)
    step = {
        k: np.full((n_p, MAX_STEPS), NONE, dtype=np.int8)
        for k in ("kind", "distance", "range", "radius", "what", "min_enemy_distance")
    }
    step_shift = np.zeros((n_p, MAX_STEPS), dtype=np.int8)
    step_contact = np.zeros((n_p, MAX_STEPS), dtype=bool)
    step_direction = np.zeros((n_p, MAX_STEPS), dtype=np.int8)
    for i, row in enumerate(plays):
        types = _expand_on(p_eff, i, row, unit_index, class_members)
        _check_play(p_eff, i, row, types, unit_by_name)
        for t in types:
            play_on[i, unit_index[t]] = True
        for j, eff in enumerate(row.effects):
            step["kind"][i, j] = EFFECT_KINDS.index(eff.kind)
            for param in ("distance", "radius", "min_enemy_distance"):
                step[param][i, j] = _code(
                    p_eff,
                    i,
                    row.name,
                    f"effects.{j}.{param}",
                    getattr(eff, param),
                    dist_index,
                    "distance",
                )
            step["range"][i, j] = _code(
                p_eff, i, row.name, f"effects.{j}.range", eff.range, dist_with_range, "range"
            )
            step["what"][i, j] = WHATS.index(eff.what) if eff.what is not None else NONE
            step_shift[i, j] = eff.shift
            step_contact[i, j] = eff.contact
            step_direction[i, j] = DIRECTIONS.index(eff.direction)
    play_index = {p.name: k for k, p in enumerate(plays)}
    for r in results:
        if r.removed_by != "none" and not any(
            e.kind == r.removed_by for p in plays for e in p.effects
        ):
            raise ConfigError(
                p_eff, None, "effects", f"no card effect {r.removed_by!r} removes {r.name!r}"
            )

    # Deck
    std = load_mapping(p_std, "fantasy_cards.standard_game", StandardGame)
    if std.deploy_min_distance not in dist_index:
        raise ConfigError(
            p_std, None, "deploy_min_distance", f"unknown distance {std.deploy_min_distance!r}"
        )
    camp = load_mapping(p_camp, "fantasy_cards.campaign", Campaign)
    cards = load_entries(p_deck, "fantasy_cards.deck", Card)
    _check_unique(p_deck, cards, "number")
    if len(cards) != std.deck_size:
        # PART II "Confirm The Decks": "exactly 72 numbered cards", one of each
        raise ConfigError(
            p_deck, None, "entries", f"a deck has exactly {std.deck_size} cards, found {len(cards)}"
        )
    for i, c in enumerate(cards):
        if c.number > std.deck_size:
            raise ConfigError(p_deck, _label(i, c.name), "number", f"must be 1..{std.deck_size}")
        for field, part in (("action", "action"), ("situation", "situation")):
            value = getattr(c, field)
            if value not in play_index:
                raise ConfigError(p_deck, _label(i, c.name), field, f"unknown {part} {value!r}")
            if plays[play_index[value]].part != part:
                raise ConfigError(
                    p_deck,
                    _label(i, c.name),
                    field,
                    f"{value!r} is not a{'n' if part == 'action' else ''} {part}",
                )
    require_known(p_deck, cards, "combat_result", result_index, "combat result")

    return Tables(
        sequence_of_play=seq_sorted,
        distance_names=tuple(r.name for r in dists),
        distance_index=dist_index,
        distance_halvings=readonly([r.halvings for r in dists], np.int8),
        rating_names=tuple(r.name for r in ratings),
        rating_index=rating_index,
        unit_type_names=tuple(u.name for u in units),
        unit_type_index=unit_index,
        unit_ranged_attack=readonly(cols["ra"], np.int8),
        unit_range_distance=readonly(cols["rd"], np.int8),
        unit_protection=readonly(cols["pr"], np.int8),
        unit_melee_attack=readonly(cols["me"], np.int8),
        unit_points=readonly([u.points for u in units], np.int16),
        unit_starts_on_battlefield=readonly([u.starts_on_battlefield for u in units], bool),
        unit_class_names=tuple(c.name for c in classes),
        unit_class_index={c.name: k for k, c in enumerate(classes)},
        unit_class_members=readonly(members, bool),
        result_names=tuple(r.name for r in results),
        result_index=result_index,
        result_status=readonly([r.status for r in results], bool),
        result_ceases_activity=readonly([r.ceases_activity for r in results], bool),
        result_blocks_cards=readonly([r.blocks_cards for r in results], bool),
        result_removed_by=readonly(
            [EFFECT_KINDS.index(r.removed_by) if r.removed_by != "none" else NONE for r in results],
            np.int8,
        ),
        ranged_modifier_names=tuple(m.name for m in rmods),
        ranged_modifier_condition=readonly(
            [RANGED_CONDITIONS.index(m.condition) for m in rmods], np.int8
        ),
        ranged_modifier_shift=readonly([m.shift for m in rmods], np.int8),
        melee_modifier_names=tuple(m.name for m in mmods),
        melee_modifier_condition=readonly(
            [MELEE_CONDITIONS.index(m.condition) for m in mmods], np.int8
        ),
        melee_modifier_shift=readonly([m.shift for m in mmods], np.int8),
        drift_distance=readonly(drift_distance, np.int8),
        drift_reference=readonly(drift_reference, np.int8),
        play_names=tuple(p.name for p in plays),
        play_index=play_index,
        play_part=readonly([PARTS.index(p.part) for p in plays], np.int8),
        play_timing=readonly([TIMINGS.index(p.timing) for p in plays], np.int8),
        play_trigger=readonly([TRIGGERS.index(p.trigger) for p in plays], np.int8),
        play_condition=readonly([CONDITIONS.index(p.condition) for p in plays], np.int8),
        play_all_available=readonly([p.all_available for p in plays], bool),
        play_on=readonly(play_on, bool),
        step_kind=readonly(step["kind"], np.int8),
        step_distance=readonly(step["distance"], np.int8),
        step_contact=readonly(step_contact, bool),
        step_direction=readonly(step_direction, np.int8),
        step_range=readonly(step["range"], np.int8),
        step_radius=readonly(step["radius"], np.int8),
        step_shift=readonly(step_shift, np.int8),
        step_what=readonly(step["what"], np.int8),
        step_min_enemy_distance=readonly(step["min_enemy_distance"], np.int8),
        card_names=tuple(c.name for c in cards),
        card_number=readonly([c.number for c in cards], np.int16),
        card_action=readonly([play_index[c.action] for c in cards], np.int16),
        card_situation=readonly([play_index[c.situation] for c in cards], np.int16),
        card_result=readonly([result_index[c.combat_result] for c in cards], np.int8),
        card_by_number={c.number: k for k, c in enumerate(cards)},
        plays=tuple(plays),
        cards=tuple(cards),
        unit_types=tuple(units),
        standard_game=std,
        campaign=camp,
    )
