"""Tactics David filling the ruleset contract (envs/core/ruleset.py): what the generic tools use.

Playable (envs/registry.py): every clause of docs/rules/tactics_david.md is run (the last:
TD-6.1.1, the Items bought with an army).

Options (`ruleset(options=...)`, `--option KEY=VALUE`), each set its own Ruleset with its own
fingerprint (records and replays name them):

| option        | choices (default first) | what it sets in the tables record |
|---------------|-------------------------|-----------------------------------|
| `battlefield` | random, bramble_creek_crossing, deaths_highway | `opt_battlefield`: each game's battlefield drawn from the game's RNG, or always this one |
| `turn_limit`  | 30, unlimited           | `opt_turn_limit`: a Deathmatch cut after 30 Turns (15 each) and won on the Purchase Cost left in play (I14, I8), or the seed's open-ended Deathmatch (TD-4.2, with I13's safety cap) |
| `army`        | free, mixed, themed, family | `opt_army`: the random armies follow free building or that Strict Army Type (TD-6, army.py) |
| `army_building` | random, players       | `opt_buy`: each army is drawn at random (I12), or the players build their own, piece by piece, as decisions (STAGE_BUY, R71) |
| `stacks`      | none, random            | `opt_stacks`: random armies hold single units only, or buy Stacked Units too (one purchase in four, TD-17, I25) |
| `items`       | random, none            | `opt_items`: random armies buy Items too, each equipped to a unit of the army at its Purchase Cost (one purchase in four, the points left at the end; TD-6.1.1, I40), or none. Players building their armies (`army_building=players`) may always buy Items (R141), as they may always buy Stacked Units |
| `turn_score`  | cost, kills             | `opt_turn_score`: what wins at the turn limit (TD-4.3): the Purchase Cost left in play (I8), or the enemy units killed (I30; what `tacsim balance` should use, since a cost score hands the game to the dearer army) |
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

import numpy as np

from envs.core.ruleset import PLAYABLE, RecordSpec, Ruleset, resolve_options
from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS, STAGE_NAMES, describe
from envs.tactics_david.army import ARMY_BUILDING, ARMY_TYPES, ITEM_CHOICES, STACK_CHOICES
from envs.tactics_david.state import N_PLAYERS, STATE_DTYPE, allocate
from envs.tactics_david.tables import Tables, load_tables_cached

NAME = "tactics_david"
ENV_NAME = "tactics_david_v0"
TITLE = "Tactics David"
SEED_FILE = "004_10748bf01204f971.txt"
STATUS = PLAYABLE  # every clause of its rules doc is run (the last: TD-6.1.1)
RANDOM_BATTLEFIELD = "random"
# random games of 30 Turns are ~340 decisions; the shared invariant test checks this many with
# the numba checker at every decision (invariants.fuzz: ~1,000 games in a few seconds); the
# 100,000-game run is benchmarks/fuzz.py's
FUZZ_GAMES = 1_000


def option_key(name: str) -> str:
    """A battlefield's option value: its name in lower case, words joined by '_'."""
    return name.lower().replace("'", "").replace(" ", "_")


UNLIMITED = "unlimited"
TURN_LIMITS = ("30", UNLIMITED)  # the default first (I14)
TURN_SCORES = ("cost", "kills")  # record.SCORE_COST, SCORE_KILLS (I8, I30)


def option_choices(tables: Tables) -> dict[str, tuple[str, ...]]:
    return {
        "battlefield": (RANDOM_BATTLEFIELD, *(option_key(n) for n in tables.battlefield_names)),
        "turn_limit": TURN_LIMITS,
        "army": ARMY_TYPES,
        "stacks": STACK_CHOICES,
        "items": ITEM_CHOICES,
        "army_building": ARMY_BUILDING,
        "turn_score": TURN_SCORES,
    }


def decision_name(S: np.ndarray, b: int) -> str:
    stage = int(S["stage"][b])
    name = STAGE_NAMES[stage] if 0 <= stage < len(STAGE_NAMES) else f"stage {stage}"
    return f"{name} by player_{int(S['current'][b])}"


def kernel_tables(tables: Tables, options: Mapping[str, str]) -> np.ndarray:
    """The tables record with the options set, as the contract's 1-element record array."""
    from envs.tactics_david.record import TD_TABLES_DTYPE, build_record

    keys = [option_key(n) for n in tables.battlefield_names]
    bf = -1 if options["battlefield"] == RANDOM_BATTLEFIELD else keys.index(options["battlefield"])
    # a recarray: tba[0] has attribute access in plain Python too (NUMBA_DISABLE_JIT=1); numba
    # types it as the plain record array
    tba = np.zeros(1, dtype=TD_TABLES_DTYPE).view(np.recarray)
    limit = 0 if options["turn_limit"] == UNLIMITED else int(options["turn_limit"])
    tba[0] = build_record(
        tables,
        battlefield=bf,
        turn_limit=limit,
        army=ARMY_TYPES.index(options["army"]),
        stacks=STACK_CHOICES.index(options["stacks"]),
        buy=ARMY_BUILDING.index(options["army_building"]),
        turn_score=TURN_SCORES.index(options["turn_score"]),
        items=1 if options["items"] == "random" else 0,
    )
    return tba


def _allocate(num_envs: int, num_players: int = N_PLAYERS) -> np.ndarray:
    if num_players != N_PLAYERS:
        raise ValueError(f"{NAME}: num_players must be {N_PLAYERS}, got {num_players}")
    return allocate(num_envs)


def _record(tba: np.ndarray):
    """The tables record with attribute access for Python code (the same numba type as
    tba[0])."""
    return tba.view(np.recarray)[0]


def _check_state(tba: np.ndarray, S: np.ndarray, b: int) -> list[str]:
    from envs.tactics_david.invariants import check_state

    return check_state(S, _record(tba), int(b))


def _fuzz(tba: np.ndarray, num_players: int, n_games: int, seed: int = 0):
    from envs.tactics_david.invariants import fuzz

    if num_players != N_PLAYERS:
        raise ValueError(f"{NAME}: num_players must be {N_PLAYERS}, got {num_players}")
    return fuzz(tba, n_games, seed)


def _legal_mask(tba: np.ndarray, S: np.ndarray, b: int, out: np.ndarray) -> None:
    from envs.tactics_david.kernels import fill_mask

    fill_mask(S, tba[0], np.int64(b), out, np.empty(MAX_LEGAL, dtype=np.int64))


def _resample_hidden(tba: np.ndarray, tables: Tables, S, me, rng):
    from envs.tactics_david.hidden import resample_hidden

    return resample_hidden(S, me, rng, _record(tba), tables)


def _render_text(tables: Tables, S: np.ndarray, me: int, b: int = 0) -> str:
    from envs.tactics_david.view import render_text

    return render_text(S, tables, me, b)


def _render_image(tables: Tables, S: np.ndarray, me: int, b: int = 0, path=None):
    from envs.tactics_david.render import render_image  # matplotlib loads only for a picture

    return render_image(tables, S, me, b, path)


def _describe(a: int) -> str:
    """describe(a), and a plain name for an action outside the space (error messages)."""
    if not 0 <= int(a) < N_ACTIONS:
        return f"action {int(a)} (outside 0..{N_ACTIONS - 1})"
    return describe(int(a))


@lru_cache(maxsize=4)
def _tables(config_dir: str | None) -> Tables:
    return load_tables_cached() if config_dir is None else load_tables_cached(Path(config_dir))


@lru_cache(maxsize=16)
def _build(config_dir: str | None, option_items: tuple[tuple[str, str], ...]) -> Ruleset:
    # kernels are imported here, not at module top: listing the registry loads no numba code
    from agents.tactics_david import baselines, selfplay
    from envs.tactics_david import kernels
    from envs.tactics_david.observe import observation_size

    options = dict(option_items)
    tables = _tables(config_dir)
    tba = kernel_tables(tables, options)
    units = tables.units
    n = len(units.unit_names) + len(tables.item_names)
    record = RecordSpec(
        item_label="unit or Item",
        # the units, then the Items bought with the armies (army_bought's layout, R141)
        items=tuple(units.unit_names) + tuple(tables.item_names),
        costs=np.concatenate([units.cost, tables.item_cost]).astype(np.float64),
        # armies are random legal ones (I12, I40): no group has a fixed size, the groups only
        # name each unit's class, and the Items' group
        groups=np.concatenate(
            [units.unit_class, np.full(len(tables.item_names), len(tables.class_names))]
        ).astype(np.int64),
        group_names=(*tables.class_names, "Item"),
        cost_label="purchase points",
        score_field="score",
        score_label=(
            "enemy units killed"
            if options["turn_score"] == "kills"
            else "Purchase Cost of the units left in play"
        ),
        force_verb="bought",
        rounds_cap=selfplay.ROUNDS_CAP,
        force_field="army_bought",
        rounds_field="turn",
        headers=("Unit or Item", "Class", "points"),
    )
    assert n <= STATE_DTYPE["army_bought"].shape[-1]
    return Ruleset(
        name=NAME,
        env_name=ENV_NAME,
        title=TITLE,
        seed_file=SEED_FILE,
        rules_doc="docs/rules/tactics_david.md",
        min_players=N_PLAYERS,
        max_players=N_PLAYERS,
        n_actions=N_ACTIONS,
        describe_action=_describe,
        decision_name=decision_name,
        observation_size=lambda num_players=N_PLAYERS: observation_size(),
        state_dtype=STATE_DTYPE,
        allocate=_allocate,
        tables=tables,
        tables_batch=tba,
        reset_batch=kernels.reset_batch,
        check_actions=kernels.check_actions,
        step_batch=kernels.step_batch,
        autoreset_batch=kernels.autoreset_batch,
        observe_batch=kernels.observe_batch,
        aec_step=kernels.aec_step,
        aec_observe=kernels.aec_observe,
        legal_mask=partial(_legal_mask, tba),
        agents=dict(baselines.AGENTS),
        act_one=baselines.act_one,
        act_batch=baselines.act_batch,
        opponents_batch=baselines.opponents_batch,
        play_chunk=selfplay.play_chunk,
        record=record,
        check_state=partial(_check_state, tba),
        fuzz=partial(_fuzz, tba),
        resample_hidden=partial(_resample_hidden, tba, tables),
        render_text=partial(_render_text, tables),
        render_image=partial(_render_image, tables),
        config_dir=config_dir,
        option_choices=option_choices(tables),
        options=options,
        fuzz_games=FUZZ_GAMES,
        # private only: the opponent's reserve before deployment, a few dozen decisions of
        # each game (R54); the Item Deck's order is hidden from both (hidden.py)
        private_share=0.0,
    )


def ruleset(
    config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """Tactics David's Ruleset with `options` (module docstring); `config_dir` loads another
    set of Tactics David tables (configs/tactics_david layout)."""
    path = None if config_dir is None else str(Path(config_dir).resolve())
    resolved = resolve_options(NAME, option_choices(_tables(path)), options)
    return _build(path, tuple(sorted(resolved.items())))
