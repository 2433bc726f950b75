"""TAC - Tactical Armoured Combat, version 1.

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over
the same numba kernels. Rules: docs/rules/tac.md; data: configs/tac/*.yaml.

Agents: `player_0` .. `player_{P-1}`, P = `num_players` in 2..5.

Decisions. Every choice is one AEC step by one agent. The game opens with the deployment
(2.2): seat 0, then seat 1, ... places each of its dealt units in a row (one step per unit,
lowest slot first); nobody sees another player's rows until all have deployed, so deploying
in seat order is as good as deploying at once. Then, in the active player's turn: choosing
the Tactical Mode, each HQ card, each repositioning, each attack (a card and its target),
each purple card, each defence laid. In the Defence phase a single open defence that applies
absorbs by itself (4.4); when two or more open defences apply to one attack the defender
elects which one absorbs it (10.5; one of them must, and a face-down card cannot be revealed
instead); otherwise the defender decides, attack by attack, whether to reveal a face-down
defence (a defender holding any face-down card is always asked, so bluffs stay hidden). A
defender may play Damage Control from hand against an arty hit. Steps with a single possible
choice that only end a step are taken automatically. An Upgrade (4.2) replaces a unit by the
first strictly better unit (more victory points, no fewer hit points) from the top of its
pile, keeping its damage, and is legal only when the pile holds one: it never makes a unit
worse.

Actions: `Discrete(N_ACTIONS)`; the index layout is the table in envs/tac/actions.py.

Observation: `Dict(observation=Box(float32, observation_size(P)), action_mask=Box(int8, N))`,
layout in envs/tac/observe.py. It holds only what that player may know.

Rewards, at the end of the game only (11.2): the single winner +1 and every other player
-1; if two or more players are still tied after the tie-break (undamaged units), each of
them gets 0 and the rest -1. `infos` then holds each player's victory points.

Version history:
- v0: first release (fixed starting rows, lowest-slot open defence, Upgrade = pile top).
- v1: deployment stage, defender chooses among open defences, Upgrade never worse.
"""

from __future__ import annotations

from functools import lru_cache, partial
from pathlib import Path

import numpy as np

from envs.core.aec import AECEnvBase
from envs.core.batch import BatchEnvBase, Ruleset
from envs.tac import kernels
from envs.tac.actions import N_ACTIONS, describe
from envs.tac.observe import observation_size
from envs.tac.render import render_text
from envs.tac.state import MAX_PLAYERS, MIN_PLAYERS, STAGE_NAMES, allocate
from envs.tac.tables import Tables, default_tables, load_tables

NAME = "tac_v1"


def _decision_name(S: np.ndarray, b: int) -> str:
    return f"{STAGE_NAMES[int(S['stage'][b])]} by player_{int(S['current'][b])}"


@lru_cache(maxsize=8)
def _ruleset_for(config_dir: str | None) -> tuple[Ruleset, Tables]:
    tables = default_tables() if config_dir is None else load_tables(Path(config_dir))
    rs = Ruleset(
        name=NAME,
        min_players=MIN_PLAYERS,
        max_players=MAX_PLAYERS,
        n_actions=N_ACTIONS,
        observation_size=partial(observation_size, tables.arrays),
        tables=tables.arrays,
        tables_batch=tables.arrays_batch,
        allocate=allocate,
        reset_batch=kernels.reset_batch,
        check_actions=kernels.check_actions,
        step_batch=kernels.step_batch,
        autoreset_batch=kernels.autoreset_batch,
        observe_batch=kernels.observe_batch,
        describe_action=describe,
        decision_name=_decision_name,
    )
    return rs, tables


def ruleset(config_dir: str | Path | None = None) -> Ruleset:
    return _ruleset_for(None if config_dir is None else str(config_dir))[0]


class raw_env(AECEnvBase):  # noqa: N801 (PettingZoo naming)
    """One TAC game as a PettingZoo AECEnv. `config_dir` loads another set of TAC tables."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
    }

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        config_dir: str | Path | None = None,
    ):
        rs, tables = _ruleset_for(None if config_dir is None else str(config_dir))
        self.tables = tables
        super().__init__(
            rs,
            kernels.aec_step,
            kernels.aec_observe,
            lambda S, me: render_text(S, me, tables),
            num_players=num_players,
            render_mode=render_mode,
            illegal_action=illegal_action,
        )


def env(**kwargs) -> raw_env:
    """The AEC env with PettingZoo's order-enforcing wrapper (illegal actions still raise)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class BatchEnv(BatchEnvBase):
    """`num_envs` TAC games stepped together; see envs/core/batch.py for the arrays."""

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        seed: int = 0,
        observations: bool = True,
        threads: int | None = None,
        config_dir: str | Path | None = None,
    ):
        rs, tables = _ruleset_for(None if config_dir is None else str(config_dir))
        self.tables = tables
        super().__init__(rs, num_envs, num_players, seed, observations, threads)

    def render(self, b: int = 0) -> str:
        return render_text(self.state, int(self.state["current"][b]), self.tables, b)
