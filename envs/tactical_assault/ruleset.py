"""The Ruleset (envs/core/ruleset.py) of a Tactical Assault ruleset, built once for both:
Legendary Battles (envs/legendary_battles/ruleset.py) and, once its ground lands, Fantasy
Cards. A ruleset gives its identity, its tables record (the ground and forces as data: one
compiled core serves both) and its pictures; everything else is the core's.

Readings the contract leaves to the ruleset (docs/rules/legendary_battles.md R24):
- score (RecordSpec.score_field): match points, 2 for a win, 1 each for a Draw, 0 for a loss
  (the game's winner follows its scenario's conditions, not a points count); infos also hold
  the unit points each seat eliminated (step_info);
- the record of a seat's force: its units by Table 3 type with their listed point values;
  one group (forces by points may hold any mix, fixed forces differ by scenario);
- rounds: player turns begun (both players' together), at most twice the turn limit.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from functools import partial
from typing import Any

import numpy as np

from envs.core.ruleset import RecordSpec, Ruleset
from envs.tactical_assault.actions import N_ACTIONS, STAGE_NAMES, describe
from envs.tactical_assault.state import N_PLAYERS, N_UNIT_TYPES, STATE_DTYPE, allocate
from envs.tactical_assault.tables import as_tb

# random games the shared invariant test plays (a game is ~400 random decisions)
FUZZ_GAMES = 2_000


@dataclass(frozen=True)
class Identity:
    """What names a Tactical Assault ruleset (the registry entry's words)."""

    name: str
    env_name: str
    title: str
    seed_file: str
    rules_doc: str


def decision_name(S: np.ndarray, b: int) -> str:
    stage = int(S["stage"][b])
    return f"{STAGE_NAMES.get(stage, f'stage {stage}')} by player_{int(S['current'][b])}"


def _allocate(name: str, num_envs: int, num_players: int = N_PLAYERS) -> np.ndarray:
    if num_players != N_PLAYERS:
        raise ValueError(f"{name}: num_players must be {N_PLAYERS}, got {num_players}")
    return allocate(num_envs)


def _check_state(tba: np.ndarray, S: np.ndarray, b: int) -> list[str]:
    from envs.tactical_assault.invariants import CODE_NAMES, OK, check_codes

    code = int(check_codes(S, tba[0], np.int64(b)))
    return [] if code == OK else [CODE_NAMES[code]]


def _fuzz(name: str, tba: np.ndarray, num_players: int, n_games: int, seed: int = 0):
    """Random games checked at every decision: ({broken invariant: games}, first failure
    (game index, decision) or None, decisions played)."""
    from envs.tactical_assault.invariants import CODE_NAMES, fuzz

    if num_players != N_PLAYERS:
        raise ValueError(f"{name}: num_players must be {N_PLAYERS}, got {num_players}")
    S = allocate(1)
    out = np.zeros(N_ACTIONS, dtype=np.int64)
    broken: dict[str, int] = {}
    first = None
    decisions = 0
    g = 0
    while g < n_games:  # after a failure, go on with the next game
        _, dec, bad, code = fuzz(S, tba[0], np.int64(0), np.int64(seed), g, n_games - g, out)
        decisions += int(dec)
        if bad < 0:
            break
        key = "no legal action" if code < 0 else CODE_NAMES[code]
        broken[key] = broken.get(key, 0) + 1
        if first is None:
            first = (int(bad), int(S["decisions"][0]))
        g = int(bad) + 1
    return broken, first, decisions


def _legal_mask(tba: np.ndarray, S: np.ndarray, b: int, out: np.ndarray) -> None:
    from envs.tactical_assault.kernels import fill_mask

    fill_mask(S, tba[0], np.int64(b), out, np.empty(N_ACTIONS, dtype=np.int64))


def _resample_hidden(tba: np.ndarray, S, me, rng):
    from envs.tactical_assault.hidden import resample_hidden

    return resample_hidden(S, me, rng, as_tb(tba))


def step_info(S: np.ndarray, b: int, seat: int) -> dict:
    """What the AEC env adds to infos after every step: the unit points and units each seat
    has eliminated so far (seat order), and player turns begun."""
    return {
        "points_eliminated_by_seat": [int(S["points_lost"][b, 1 - p]) for p in range(N_PLAYERS)],
        "units_eliminated_by_seat": [int(S["units_lost"][b, 1 - p]) for p in range(N_PLAYERS)],
        "turn": int(S["turn"][b]),
    }


def build(
    ident: Identity,
    tables: Any,
    tba: np.ndarray,
    render_text: Callable[[np.ndarray, int, int], str],
    render_image: Callable[..., Any] | None,
    config_dir: str | None,
    option_choices: Mapping[str, tuple[str, ...]],
    options: Mapping[str, str],
    type_names: tuple[str, ...],
) -> Ruleset:
    """The Ruleset of one Tactical Assault ruleset over the tables record `tba` (a writable
    1-element array of tables.TA_TABLES_DTYPE; module docstring for the record's readings)."""
    # kernels are imported here, not at module top: listing the registry loads no numba code
    from agents.tactical_assault import baselines, selfplay
    from envs.tactical_assault import kernels
    from envs.tactical_assault.observe import observation_size

    if len(type_names) != N_UNIT_TYPES:
        raise ValueError(f"{ident.name}: {len(type_names)} unit types, Table 3 has {N_UNIT_TYPES}")
    # a plain ndarray whose dtype is np.record's: tba[0] has attribute access (tb.n_cards) in
    # Python too (NUMBA_DISABLE_JIT=1), and both forms type alike in numba (as envs/tac)
    tba = tba.view(np.recarray).view(np.ndarray)
    rec = tba[0]
    record = RecordSpec(
        item_label="unit type",
        items=tuple(type_names),
        costs=np.asarray(rec["type_points"], dtype=np.float64),
        groups=np.zeros(N_UNIT_TYPES, dtype=np.int64),
        group_names=("unit",),
        cost_label="unit points",
        score_field="score",
        score_label="match points (2 win, 1 draw)",
        force_verb="fielded",
        rounds_cap=2 * int(rec["sc_turn_limit"]),
        force_field="force",
        rounds_field="turn",
        headers=("Unit type", "Group", "points"),
    )
    return Ruleset(
        name=ident.name,
        env_name=ident.env_name,
        title=ident.title,
        seed_file=ident.seed_file,
        rules_doc=ident.rules_doc,
        min_players=N_PLAYERS,
        max_players=N_PLAYERS,
        n_actions=N_ACTIONS,
        describe_action=describe,
        decision_name=decision_name,
        observation_size=lambda num_players=N_PLAYERS: observation_size(),
        state_dtype=STATE_DTYPE,
        allocate=partial(_allocate, ident.name),
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
        act_batch=baselines.batch_actions,
        opponents_batch=baselines.opponents_batch,
        play_chunk=selfplay.play_chunk,
        record=record,
        check_state=partial(_check_state, tba),
        fuzz=partial(_fuzz, ident.name, tba),
        resample_hidden=partial(_resample_hidden, tba),
        render_text=render_text,
        render_image=render_image,
        config_dir=config_dir,
        option_choices=option_choices,
        options=options,
        fuzz_games=FUZZ_GAMES,
        step_info=step_info,
    )
