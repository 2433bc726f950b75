"""TACTICA filling the ruleset contract (envs/core/ruleset.py): what the generic tools use.

Options (`ruleset(options=...)`, `--option KEY=VALUE` on the command line), each set of
options its own Ruleset with its own fingerprint (records and replays name them):

| option    | choices (default first) | what it sets in the tables record |
|-----------|-------------------------|-----------------------------------|
| `game`    | advanced, basic         | `game_advanced`: Part 3's changes, Barracks phase, decrees, spires (TT-A.0.1) |
| `episode` | war, battle             | `battles_per_war`: one episode is a war of three battles (TT-B.9) or the First Battle alone |
| `armies`  | standard, varied        | `lost_at_start`: "varied" sends each draw card to LOST before battle 1 with probability 15 %, so armies differ (balance runs; not a rule) |
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache, partial
from pathlib import Path

import numpy as np

from envs.core.ruleset import PLAYABLE, RecordSpec, Ruleset, resolve_options
from envs.tactica.actions import N_ACTIONS, STAGE_NAMES, describe
from envs.tactica.state import N_PLAYERS, STATE_DTYPE, allocate
from envs.tactica.tables import Tables, load_tables

NAME = "tactica"
ENV_NAME = "tactica_v0"
TITLE = "TACTICA"
SEED_FILE = "003_2f16ffdbafd9a58e.txt"
STATUS = PLAYABLE
OPTION_CHOICES = {
    "game": ("advanced", "basic"),
    "episode": ("war", "battle"),
    "armies": ("standard", "varied"),
}
VARIED_LOST_PER_MILLE = 150  # armies=varied: each draw card LOST before battle 1 with p 0.15


def decision_name(S: np.ndarray, b: int) -> str:
    stage = int(S["stage"][b])
    return f"{STAGE_NAMES.get(stage, f'stage {stage}')} by player_{int(S['current'][b])}"


def kernel_tables(tables: Tables, options: Mapping[str, str]) -> np.ndarray:
    """A copy of the tables record with the options set (module docstring)."""
    tba = tables.arrays_batch.copy()
    tba["game_advanced"] = options["game"] == "advanced"
    if options["episode"] == "battle":
        tba["battles_per_war"] = 1
    tba["lost_at_start"] = VARIED_LOST_PER_MILLE if options["armies"] == "varied" else 0
    return tba


def _allocate(num_envs: int, num_players: int = N_PLAYERS) -> np.ndarray:
    if num_players != N_PLAYERS:
        raise ValueError(f"{NAME}: num_players must be {N_PLAYERS}, got {num_players}")
    return allocate(num_envs)


def _check_state(tba: np.ndarray, S: np.ndarray, b: int) -> list[str]:
    from envs.tactica.invariants import CODE_NAMES, OK, check_invariants
    from envs.tactica.kernels import legal

    b = np.int64(b)
    n_legal = legal(S, tba[0], b, np.empty(N_ACTIONS, dtype=np.int16))
    code = int(check_invariants(S, tba[0], b, np.int64(n_legal)))
    return [] if code == OK else [CODE_NAMES[code]]


def _fuzz(tba: np.ndarray, num_players: int, n_games: int, seed: int = 0):
    """Random games checked at every decision: ({broken invariant: games}, first failure
    (game index, decision) or None, decisions played)."""
    from envs.tactica.invariants import CODE_NAMES, run_random_games

    if num_players != N_PLAYERS:
        raise ValueError(f"{NAME}: num_players must be {N_PLAYERS}, got {num_players}")
    counts, first, decisions = run_random_games(tba, n_games, seed)
    broken = {CODE_NAMES[c]: int(n) for c, n in enumerate(counts) if n}
    return broken, first, decisions


def _legal_mask(tba: np.ndarray, S: np.ndarray, b: int, out: np.ndarray) -> None:
    from envs.tactica.kernels import fill_mask

    fill_mask(S, tba[0], np.int64(b), out, np.empty(N_ACTIONS, dtype=np.int16))


def _resample_hidden(tba: np.ndarray, S, me, rng):
    from envs.tactica.hidden import resample_hidden

    return resample_hidden(S, me, rng, tba[0])


def _render_text(tables: Tables, S: np.ndarray, me: int, b: int = 0) -> str:
    from envs.tactica.render import render_text

    return render_text(S, tables, me, b)


def _render_image(tables: Tables, S: np.ndarray, me: int, b: int = 0, path=None):
    from envs.tactica.picture import render_image  # matplotlib loads only for a picture

    return render_image(tables, S, me, b, path)


def step_info(S: np.ndarray, b: int, seat: int) -> dict:
    """The war so far for the AEC env's infos: the battle being fought, each finished
    battle's winner (-1 drawn) and this seat's reward for it (+1 won, -1 lost, 0 drawn),
    and both seats' war points (TT-B.9.1). Rewards proper come at the end of the war."""
    results = [int(r) for r in S["battle_result"][b] if r != -2]  # BATTLE_NOT_PLAYED
    return {
        "battle": int(S["battle"][b]),
        "battle_results": results,
        "battle_rewards": [0.0 if r < 0 else (1.0 if r == seat else -1.0) for r in results],
        "war_points_by_seat": [int(x) for x in S["war_points"][b]],
    }


@lru_cache(maxsize=16)
def _build(config_dir: str | None, option_items: tuple[tuple[str, str], ...]) -> Ruleset:
    # kernels are imported here, not at module top: listing the registry loads no numba code
    from agents.tactica import baselines, selfplay
    from envs.tactica import kernels
    from envs.tactica.observe import observation_size

    options = dict(option_items)
    tables = load_tables() if config_dir is None else load_tables(Path(config_dir))
    tba = kernel_tables(tables, options)
    n_cards = len(tables.card_names)
    copies = np.asarray(tables.card_count, dtype=np.int64)
    record = RecordSpec(
        item_label="draw card",
        items=tuple(tables.card_names),
        # no point costs in TACTICA: every copy is listed at 1 card, so a card's implied worth
        # is in average cards (its win coefficient over the mean coefficient, agents/balance)
        costs=np.ones(n_cards, dtype=np.float64),
        # with armies=varied every copy is LOST at start on its own, so no group has a fixed
        # size and nothing is centred; the groups only name each card's pile
        groups=np.asarray(tables.card_pile, dtype=np.int64),
        group_names=("troop pile", "tactics pile"),
        cost_label="cards (1 = an average card)",
        score_field="war_points",
        score_label="war points",
        force_verb="given",  # each army as it starts the war (armies=varied: cards LOST)
        rounds_cap=int(tba[0]["battles_per_war"]),
        force_field="army",
        rounds_field="battle",
        headers=("Card", "Pile", "cards"),
        item_notes=tuple(str(int(n)) for n in copies),
        notes_header="Copies per army",
    )
    return Ruleset(
        name=NAME,
        env_name=ENV_NAME,
        title=TITLE,
        seed_file=SEED_FILE,
        rules_doc="docs/rules/tactica.md",
        min_players=N_PLAYERS,
        max_players=N_PLAYERS,
        n_actions=N_ACTIONS,
        describe_action=describe,
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
        act_batch=baselines.batch_actions,
        opponents_batch=baselines.opponents_batch,
        play_chunk=selfplay.play_chunk,
        record=record,
        check_state=partial(_check_state, tba),
        fuzz=partial(_fuzz, tba),
        resample_hidden=partial(_resample_hidden, tba),
        render_text=partial(_render_text, tables),
        render_image=partial(_render_image, tables),
        config_dir=config_dir,
        option_choices=OPTION_CHOICES,
        options=options,
        step_info=step_info,
        # a war is ~1,200 random decisions: the shared test fuzzes 1,000 of them; the
        # 100,000-battle and 10,000-war runs are benchmarks/fuzz.py's (benchmarks/results/)
        fuzz_games=1_000,
    )


def ruleset(
    config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """TACTICA's Ruleset with `options` (module docstring); `config_dir` loads another set of
    TACTICA tables (configs/tactica layout)."""
    resolved = resolve_options(NAME, OPTION_CHOICES, options)
    path = None if config_dir is None else str(Path(config_dir).resolve())
    return _build(path, tuple(sorted(resolved.items())))
