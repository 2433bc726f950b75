"""TAC filling the ruleset contract (envs/core/ruleset.py): what the generic tools use."""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

import numpy as np

from envs.core.ruleset import PLAYABLE, RecordSpec, Ruleset, resolve_options
from envs.tac.actions import N_ACTIONS, describe
from envs.tac.costs import COST_BOUNDS, write_costs
from envs.tac.state import MAX_PLAYERS, MIN_PLAYERS, STAGE_NAMES, STATE_DTYPE, allocate
from envs.tac.tables import CATEGORIES, Tables, default_tables, load_tables

NAME = "tac"
ENV_NAME = "tac_v1"
TITLE = "TAC - Tactical Armoured Combat"
SEED_FILE = "002_d13f74f13daabdd9.txt"
STATUS = PLAYABLE


def decision_name(S: np.ndarray, b: int) -> str:
    return f"{STAGE_NAMES[int(S['stage'][b])]} by player_{int(S['current'][b])}"


def _check_state(tables: Tables, S: np.ndarray, b: int) -> list[str]:
    from envs.tac.invariants import CODE_NAMES, OK, check_invariants

    code = int(check_invariants(S, tables.arrays, np.int64(b)))
    return [] if code == OK else [CODE_NAMES[code]]


def _fuzz(tables: Tables, num_players: int, n_games: int, seed: int = 0):
    """Random games checked at every decision: ({broken invariant: games}, first failure
    (game index, decision) or None, decisions played)."""
    from envs.tac.invariants import CODE_NAMES, run_random_games

    counts, first, decisions = run_random_games(tables, num_players, n_games, seed)
    broken = {CODE_NAMES[c]: int(n) for c, n in enumerate(counts) if n}
    return broken, first, decisions


def _render_text(tables: Tables, S: np.ndarray, me: int, b: int = 0) -> str:
    from envs.tac.render import render_text

    return render_text(S, me, tables, b)


def _render_image(tables: Tables, S: np.ndarray, me: int, b: int = 0, path=None):
    from envs.tac.picture import render_image  # matplotlib loads only when a picture is made

    return render_image(tables, S, me, b, path)


def _legal_mask(tables: Tables, S: np.ndarray, b: int, out: np.ndarray) -> None:
    from envs.tac.actions import N_ACTIONS
    from envs.tac.kernels import fill_mask

    fill_mask(S, tables.arrays, np.int64(b), out, np.empty(N_ACTIONS, dtype=np.int16))


def _resample_hidden(tables: Tables, S, me, rng):
    from envs.tac.hidden import resample_hidden

    return resample_hidden(S, me, rng, tables.arrays)


@lru_cache(maxsize=8)
def _build(config_dir: str | None) -> Ruleset:
    # kernels are imported here, not at module top: `tacsim rulesets` and the registry must
    # not load numba code of a ruleset nobody uses
    from agents.tac import baselines, selfplay
    from envs.tac import kernels
    from envs.tac.observe import observation_size

    tables = default_tables() if config_dir is None else load_tables(Path(config_dir))
    units = tables.units
    record = RecordSpec(
        item_label="unit type",
        items=tuple(u.name for u in units),
        costs=np.array([u.victory_points for u in units], dtype=np.float64),
        groups=np.array([CATEGORIES.index(u.category) for u in units], dtype=np.int64),
        group_names=CATEGORIES,
        cost_label="victory points",
        score_field="victory_points",
        score_label="victory points",
        force_verb="dealt",
        rounds_cap=int(tables.settings.rounds),
        force_field="dealt",
        rounds_field="round",
    )
    return Ruleset(
        name=NAME,
        env_name=ENV_NAME,
        title=TITLE,
        seed_file=SEED_FILE,
        rules_doc="docs/rules/tac.md",
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        n_actions=N_ACTIONS,
        describe_action=describe,
        decision_name=decision_name,
        observation_size=partial(observation_size, tables.arrays),
        state_dtype=STATE_DTYPE,
        allocate=allocate,
        tables=tables,
        tables_batch=tables.arrays_batch,
        reset_batch=kernels.reset_batch,
        check_actions=kernels.check_actions,
        step_batch=kernels.step_batch,
        autoreset_batch=kernels.autoreset_batch,
        observe_batch=kernels.observe_batch,
        aec_step=kernels.aec_step,
        aec_observe=kernels.aec_observe,
        legal_mask=partial(_legal_mask, tables),
        agents=dict(baselines.AGENTS),
        search_agents=frozenset(a for a in baselines.AGENTS if a.startswith("mcts")),
        act_one=baselines.act_one,
        act_batch=baselines.batch_actions,
        opponents_batch=baselines.opponents_batch,
        play_chunk=selfplay.play_chunk,
        record=record,
        check_state=partial(_check_state, tables),
        fuzz=partial(_fuzz, tables),
        resample_hidden=partial(_resample_hidden, tables),
        render_text=partial(_render_text, tables),
        render_image=partial(_render_image, tables),
        config_dir=config_dir,
        write_costs=write_costs,
        cost_bounds=COST_BOUNDS,
    )


def ruleset(
    config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """TAC's Ruleset; `config_dir` loads another set of TAC tables (configs/tac layout). TAC
    has no options (ValueError if any is given)."""
    resolve_options(NAME, {}, options)
    return _build(None if config_dir is None else str(Path(config_dir).resolve()))
