"""The batched API shared by every ruleset: B games advanced by one kernel call.

A ruleset supplies a :class:`~envs.core.ruleset.Ruleset` (its tables and kernels);
:class:`BatchEnv` turns it into arrays-in, arrays-out stepping with auto-reset, in the spirit
of Pgx and EnvPool.
The PettingZoo env of a ruleset is a batch of one over the same kernels (envs/core/aec.py).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

import numba
import numpy as np

from envs.core.ruleset import Ruleset


class BatchStep(NamedTuple):
    observation: np.ndarray | None  # float32[B, obs]  current player's view (None if disabled)
    action_mask: np.ndarray  # int8[B, N]        legal actions of the current player
    current_player: np.ndarray  # int8[B]        seat to act
    rewards: np.ndarray  # float32[B, P]          rewards of games that ended this step
    terminated: np.ndarray  # bool[B]             a game ended (the slot already holds a new one)
    final_score: np.ndarray  # int16[B, P] of games that ended this step (e.g. victory points)
    final_length: np.ndarray  # int32[B]         decisions in games that ended this step
    game_index: np.ndarray  # int64[B]           game now in each slot


# Below this many games a parallel kernel costs more in thread hand-off than it gains
# (measured in benchmarks/: about 1 ms per step at B=1 on 2 threads of a busy 2-core
# machine, 0.04 ms on one; a one-game reset_batch took 16 ms on 2 threads when the other
# core was busy, 4 us on one), so small batches run on the calling thread.
SERIAL_BELOW = 16


class threads_for:
    """Run the enclosed kernel calls on one thread when the batch is small (the AEC env and
    any caller of a ruleset's parallel kernels on a few games use it too)."""

    def __init__(self, num_envs: int):
        self.serial = num_envs < SERIAL_BELOW
        self.saved = 0

    def __enter__(self) -> None:
        if self.serial:
            self.saved = numba.get_num_threads()
            numba.set_num_threads(1)

    def __exit__(self, *exc) -> None:
        if self.serial:
            numba.set_num_threads(self.saved)


def set_threads(threads: int | None) -> None:
    if threads is not None:
        if threads < 1:
            raise ValueError(f"threads must be >= 1, got {threads}")
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))


class BatchEnv:
    """B games of one ruleset, advanced together.

    Game k of a seed (k = 0, 1, 2, ...) is always the same game: slot b starts with game b,
    and finished slots take the next indices in slot order.
    """

    def __init__(
        self,
        ruleset: Ruleset,
        num_envs: int,
        num_players: int,
        seed: int = 0,
        observations: bool = True,
        threads: int | None = None,
    ):
        ruleset.check_players(num_players)
        if not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        set_threads(threads)
        self.ruleset = ruleset
        self.num_envs = int(num_envs)
        self.num_players = int(num_players)
        self.seed = int(seed)
        self.observations = observations
        B = self.num_envs
        self.state = ruleset.allocate(B, self.num_players)
        self.masks = np.zeros((B, ruleset.n_actions), dtype=np.int8)
        self._obs = np.zeros((B, ruleset.observation_size(self.num_players)), dtype=np.float32)
        self._rewards = np.zeros((B, ruleset.max_players), dtype=np.float32)
        self._terminated = np.zeros(B, dtype=np.bool_)
        self._final_vp = np.zeros((B, ruleset.max_players), dtype=np.int16)
        self._final_len = np.zeros(B, dtype=np.int32)
        self.next_game_index = B

    def reset(self) -> BatchStep:
        B = self.num_envs
        with threads_for(B):
            self.ruleset.reset_batch(
                self.state,
                self.ruleset.tables_batch,
                self.seed,
                np.arange(B, dtype=np.int64),
                self.masks,
            )
            self.next_game_index = B
            self._rewards[:] = 0
            self._terminated[:] = False
            return self._result()

    def step(self, actions: np.ndarray) -> BatchStep:
        """One action per game. Raises ValueError (and changes nothing) if any is illegal."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be an integer array of shape ({self.num_envs},), "
                f"got {actions.dtype} {actions.shape}"
            )
        actions = actions.astype(np.int64, copy=False)
        with threads_for(self.num_envs):
            bad = self.ruleset.check_actions(self.state, self.masks, actions)
            if bad >= 0:
                a = int(actions[bad])
                raise ValueError(
                    f"{self.ruleset.name}: game {bad}: {self.ruleset.describe_action(a)} is "
                    f"illegal in decision '{self.ruleset.decision_name(self.state, bad)}' "
                    f"({int(self.masks[bad].sum())} legal actions); nothing was changed"
                )
            tb = self.ruleset.tables_batch
            self.ruleset.step_batch(
                self.state,
                tb,
                actions,
                self.masks,
                self._rewards,
                self._terminated,
                self._final_vp,
                self._final_len,
            )
            if self._terminated.any():
                self.next_game_index = self.ruleset.autoreset_batch(
                    self.state, tb, self.seed, self._terminated, self.next_game_index, self.masks
                )
            return self._result()

    def _result(self) -> BatchStep:
        obs = None
        cur = self.state["current"].copy()
        if self.observations:
            self.ruleset.observe_batch(self.state, self.ruleset.tables_batch, cur, self._obs)
            obs = self._obs
        P = self.num_players
        return BatchStep(
            observation=obs,
            action_mask=self.masks,
            current_player=cur,
            rewards=self._rewards[:, :P],
            terminated=self._terminated,
            final_score=self._final_vp[:, :P],
            final_length=self._final_len,
            game_index=self.state["game_index"],
        )

    def render(self, b: int = 0) -> str:
        """Text picture of game b as its current player sees it."""
        return self.ruleset.render_text(self.state, int(self.state["current"][b]), b)


BatchEnvBase = BatchEnv  # the name ruleset modules subclass
_threads_for = threads_for  # the former name


class RulesetBatchEnv(BatchEnv):
    """The BatchEnv of a ruleset's PettingZoo-style module: the module subclasses it as
    `BatchEnv`, setting `ruleset_fn`, its `ruleset(config_dir, options)`."""

    ruleset_fn: Callable[..., Ruleset]

    def __init__(
        self,
        num_envs: int,
        num_players: int = 2,
        seed: int = 0,
        observations: bool = True,
        threads: int | None = None,
        config_dir: str | Path | None = None,
        options: dict | None = None,
    ):
        rs = type(self).ruleset_fn(config_dir, options)
        self.tables = rs.tables
        super().__init__(rs, num_envs, num_players, seed, observations, threads)
