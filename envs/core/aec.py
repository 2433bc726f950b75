"""The PettingZoo AEC face shared by every ruleset: one game, a batch of one.

It calls the ruleset's kernels on a one-game state, so there is no second copy of any
rule. Agents are `player_0`..`player_{P-1}`; observations follow PettingZoo classic
(`Dict(observation=Box, action_mask=Box(int8))`); rewards come at the end of the game.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import numba
import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers import OrderEnforcingWrapper

from envs.core.batch import threads_for
from envs.core.ruleset import Ruleset

ILLEGAL_MODES = ("raise", "penalty")
# what a ruleset's one-game step kernel returns
AEC_OK, AEC_ILLEGAL, AEC_GAME_OVER = 0, 1, 2


class AECEnvBase(AECEnv):
    """One game of any registered ruleset as a PettingZoo AECEnv (ruleset modules subclass
    it to set `metadata["name"]`). It uses the ruleset's one-game kernels
    aec_step(S, tables_batch, action, mask_row) -> AEC_OK / AEC_ILLEGAL / AEC_GAME_OVER and
    aec_observe(S, tables_batch, seat, out)."""

    metadata: dict[str, Any] = {"render_modes": ["ansi", "human"], "is_parallelizable": False}

    def __init__(
        self,
        ruleset: Ruleset,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
    ):
        super().__init__()
        ruleset.check_players(num_players)
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, got {render_mode!r}"
            )
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}"
            )
        self.ruleset = ruleset
        # numba types a record array (np.recarray, Tactics David's tables) as the structured
        # array it views, but its dispatcher types an ndarray subclass in Python, about 1.3 us
        # per argument of every call; a plain view is typed in C (the same compiled kernel).
        # Under NUMBA_DISABLE_JIT the kernels need the recarray's attribute access.
        tables = ruleset.tables_batch
        self._tables = tables if numba.config.DISABLE_JIT else tables.view(np.ndarray)
        self._aec_step = ruleset.aec_step
        self._aec_observe = ruleset.aec_observe
        self.num_players = int(num_players)
        self._obs_size = ruleset.observation_size(self.num_players)
        self.render_mode = render_mode
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.possible_agents = [f"player_{i}" for i in range(self.num_players)]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        n = ruleset.n_actions
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(
                    low=0.0,
                    high=np.inf,
                    shape=(ruleset.observation_size(self.num_players),),
                    dtype=np.float32,
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(n,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(n) for a in self.possible_agents}
        self.state_arrays = ruleset.allocate(1, self.num_players)
        self._mask = np.zeros((1, n), dtype=np.int8)
        self._seed = 0
        self.game_index = 0

    # PettingZoo API -------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """seed picks the game family; options={'game_index': k} plays game k of it (the
        same game BatchEnv plays as game k)."""
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
            self._seed = int(seed)
        else:
            self._seed = int(np.random.SeedSequence().generate_state(1)[0])
        # other keys are ignored: PettingZoo treats options as free-form (its api_test passes
        # {"options": 1})
        options = options or {}
        self.game_index = int(options.get("game_index", 0))
        if self.game_index < 0:
            raise ValueError(f"game_index must be >= 0, got {self.game_index}")
        with threads_for(1):  # a parallel kernel on one game: thread hand-off only
            self.ruleset.reset_batch(
                self.state_arrays,
                self._tables,
                self._seed,
                np.array([self.game_index], dtype=np.int64),
                self._mask,
            )
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self._add_step_info()
        self.agent_selection = self.possible_agents[int(self.state_arrays["current"][0])]

    def _add_step_info(self) -> None:
        """The ruleset's per-step infos (Ruleset.step_info), e.g. TACTICA's battles so far."""
        if self.ruleset.step_info is not None:
            for i, a_ in enumerate(self.agents):
                self.infos[a_].update(self.ruleset.step_info(self.state_arrays, 0, i))

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        me = self.agent_name_mapping[agent]
        obs = np.zeros(self._obs_size, dtype=np.float32)
        self._aec_observe(self.state_arrays, self._tables, me, obs)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask = self._mask[0].copy()
        else:
            mask = np.zeros(self.ruleset.n_actions, dtype=np.int8)
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent}: action must be an integer, got {action!r}")
        self._cumulative_rewards[agent] = 0.0
        a = int(action)
        code = self._aec_step(self.state_arrays, self._tables, a, self._mask[0])
        if code == AEC_ILLEGAL:
            message = (
                f"{self.ruleset.name}: {agent}: {self.ruleset.describe_action(a)} is illegal in "
                f"decision '{self.ruleset.decision_name(self.state_arrays, 0)}' "
                f"({int(self._mask[0].sum())} legal actions); nothing was changed"
            )
            if self.illegal_action == "raise":
                raise ValueError(message)
            # penalty mode (PettingZoo TerminateIllegalWrapper convention): game over
            for a_ in self.agents:
                self.rewards[a_] = 0.0
                self.terminations[a_] = True
                self.infos[a_] = {"illegal_action": message}
            self.rewards[agent] = self.illegal_reward
            self._accumulate_rewards()
            return
        S = self.state_arrays
        if code == AEC_GAME_OVER:
            for i, a_ in enumerate(self.agents):
                self.rewards[a_] = float(S["rewards"][0, i])
                self.terminations[a_] = True
                score = int(S[self.ruleset.record.score_field][0, i])
                self.infos[a_] = {
                    "score": score,
                    self.ruleset.record.score_field: score,  # e.g. "victory_points"
                    "winner": int(S["winner"][0]),
                    "decisions": int(S["decisions"][0]),
                }
            self._accumulate_rewards()
        self._add_step_info()
        # rewards come only at the end: during the game they stay 0 from reset()
        self.agent_selection = self.possible_agents[int(S["current"][0])]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        me = self.agent_name_mapping[self.agent_selection]
        text = self.ruleset.render_text(self.state_arrays, me, 0)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """The full game state (all hidden information): a copy of the one-game record."""
        return self.state_arrays.copy()


class RulesetAECEnv(AECEnvBase):
    """The AEC env of a ruleset's PettingZoo-style module (envs/<name>/<name>_vN.py): the
    module subclasses it as `raw_env`, setting `metadata` (with its env name) and
    `ruleset_fn`, the module's `ruleset(config_dir, options)`."""

    ruleset_fn: Callable[..., Ruleset]

    def __init__(
        self,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        config_dir: str | Path | None = None,
        options: dict | None = None,
    ):
        rs = type(self).ruleset_fn(config_dir, options)  # checks the options
        self.tables = rs.tables
        super().__init__(
            rs, num_players=num_players, render_mode=render_mode, illegal_action=illegal_action
        )


class RulesetOrderEnforcingWrapper(OrderEnforcingWrapper):
    """PettingZoo's OrderEnforcingWrapper with `last` and `step` reaching the env directly.

    The inherited `last` (AECEnv.last run on the wrapper) fetches agent_selection, the
    observation and four dicts through the wrapper's __getattr__, one Python call per name:
    3.6 us of a Tactics David AEC step of about 19 us (AEC steps/s, issue 8). These two make
    the same checks (an error before reset, a warning for a step after the game) and then
    call the env's own `last` and `step`; every other method and attribute is PettingZoo's."""

    def last(self, observe: bool = True):
        if not self._has_reset:
            # what the inherited last raises: it reads agent_selection first
            raise AttributeError("agent_selection cannot be accessed before reset")
        return self.env.last(observe)

    def step(self, action) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        elif not self.env.agents:
            self._has_updated = True
            EnvLogger.warn_step_after_terminated_truncated()
        else:
            self._has_updated = True
            self.env.step(action)


def order_enforced(env: AECEnvBase) -> RulesetOrderEnforcingWrapper:
    """The env inside PettingZoo's order-enforcing wrapper (what a module's `env()` returns;
    illegal actions still raise)."""
    return RulesetOrderEnforcingWrapper(env)
