"""TAC - Tactical Armoured Combat, version 0.

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over
the same numba kernels. Rules: docs/rules/tac.md; data: configs/tac/*.yaml.

Agents: `player_0` .. `player_{P-1}`, P = `num_players` in 2..5.

Decisions. Every choice is one AEC step by one agent: in the active player's turn,
choosing the Tactical Mode, each HQ card, each repositioning, each attack (a card and its
target), each purple card, each defence laid; in the Defence phase each defender decides,
attack by attack, whether to reveal a face-down defence (a defender holding any face-down
card is always asked, so bluffs stay hidden); a defender may play Damage Control from hand
against an arty hit. Steps with a single possible choice are taken automatically.

Actions: `Discrete(N_ACTIONS)`; the index layout is the table in envs/tac/actions.py.

Observation: `Dict(observation=Box(float32, observation_size(P)), action_mask=Box(int8, N))`,
layout in envs/tac/observe.py. It holds only what that player may know.

Rewards, at the end of the game only (11.2): the single winner +1 and every other player
-1; if two or more players are still tied after the tie-break (undamaged units), each of
them gets 0 and the rest -1. `infos` then holds each player's victory points.

Version history: v0, first release.
"""

from __future__ import annotations

from pathlib import Path

from envs.core.aec import AECEnvBase
from envs.core.batch import BatchEnv as _BatchEnv
from envs.tac.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


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
        rs = ruleset(config_dir)
        self.tables = rs.tables
        super().__init__(
            rs, num_players=num_players, render_mode=render_mode, illegal_action=illegal_action
        )


def env(**kwargs) -> raw_env:
    """The AEC env with PettingZoo's order-enforcing wrapper (illegal actions still raise)."""
    from pettingzoo.utils import wrappers

    return wrappers.OrderEnforcingWrapper(raw_env(**kwargs))


class BatchEnv(_BatchEnv):
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
        rs = ruleset(config_dir)
        self.tables = rs.tables
        super().__init__(rs, num_envs, num_players, seed, observations, threads)
