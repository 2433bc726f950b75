"""Self-play against earlier checkpoints (`tacsim train --opponent self`).

- `SnapshotPolicy`: a saved MaskablePPO (a checkpoint zip) as a frozen `BatchPolicy` of
  agents.vec_env.PoolVecEnv: masked action probabilities from the network (torch, CPU, no
  gradients), one action sampled per row with the snapshot's own numpy RNG (or the most
  likely one with `deterministic=True`), so an opponent's choices depend on the run's seed
  only and not on torch's global RNG, which the learner draws from.
- `SelfPlayCallback`: the SB3 callback that every `snapshot_every` timesteps saves
  OUT/checkpoints/step_<n>.zip (the policy after learning from n timesteps), loads it as a
  SnapshotPolicy and makes the last `pool_size` snapshots the env's opponent pool (until
  the first snapshot: the in-kernel `start_agent`). It logs the pool size, the learner's
  win rate against the pool (games finished in each rollout) and the decisions taken by
  policies to TensorBoard (`selfplay/...`), and one line per snapshot to stdout.

torch and SB3 are imported when a snapshot is loaded or the callback is made, never at
import time.
"""

from __future__ import annotations

from collections import deque
from pathlib import Path
from typing import Any

import numpy as np

from agents.policy import masked_probabilities, sample_actions


class SnapshotPolicy:
    """A checkpoint of the learner playing opponent seats (see the module docstring)."""

    def __init__(
        self,
        path: str | Path,
        name: str | None = None,
        seed: int = 0,
        deterministic: bool = False,
    ):
        from sb3_contrib import MaskablePPO

        self.path = Path(path)
        if not self.path.is_file():
            raise ValueError(f"no saved model at {self.path}")
        self.name = name or self.path.stem
        self.model = MaskablePPO.load(str(self.path), device="cpu")
        self.policy = self.model.policy
        self.policy.set_training_mode(False)
        self.rng = np.random.default_rng(seed)
        self.deterministic = deterministic
        self.n_actions = int(self.model.action_space.n)

    def __repr__(self) -> str:
        return f"SnapshotPolicy({self.name!r})"

    def probabilities(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Masked action probabilities, float64[n, n_actions] (0 on illegal actions)."""
        return masked_probabilities(self.policy, obs, np.asarray(masks).astype(bool))

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        p = self.probabilities(obs, masks)
        if self.deterministic:
            return p.argmax(axis=1).astype(np.int64)
        return sample_actions(p, self.rng).astype(np.int64)


def snapshot_path(out: str | Path, step: int) -> Path:
    return Path(out) / "checkpoints" / f"step_{step}.zip"


def _make_callback_class():
    from stable_baselines3.common.callbacks import BaseCallback

    class SelfPlayCallback(BaseCallback):
        """Snapshots into the opponent pool; see the module docstring."""

        def __init__(
            self,
            pool_env: Any,
            out: str | Path,
            snapshot_every: int,
            pool_size: int,
            start_agent: str,
            seed: int = 0,
            verbose: int = 0,
        ):
            super().__init__(verbose)
            self.pool_env = pool_env
            self.out = Path(out)
            self.snapshot_every = int(snapshot_every)
            self.start_agent = start_agent
            self.seed = int(seed)
            self.pool: deque[SnapshotPolicy] = deque(maxlen=int(pool_size))
            self.snapshots: list[str] = []
            self.rollout_games = 0
            self.rollout_wins = 0
            self.since_snapshot = [0, 0]  # games, wins
            self.history: list[dict[str, Any]] = []  # one row per rollout

        def pool_entries(self) -> list:
            return list(self.pool) if self.pool else [self.start_agent]

        def _on_training_start(self) -> None:
            self.pool_env.set_pool(self.pool_entries())

        def _on_rollout_start(self) -> None:
            n = int(self.num_timesteps)
            if n > 0 and n % self.snapshot_every == 0 and f"step_{n}" not in self.snapshots:
                self._snapshot(n, add_to_pool=True)

        def _on_step(self) -> bool:
            dones = self.locals["dones"]
            infos = self.locals["infos"]
            for i in np.flatnonzero(dones):
                self.rollout_games += 1
                self.rollout_wins += int(bool(infos[i].get("is_success", False)))
            return True

        def _on_rollout_end(self) -> None:
            env = self.pool_env
            rate = self.rollout_wins / self.rollout_games if self.rollout_games else float("nan")
            self.logger.record("selfplay/pool_size", len(env.pool_names))
            self.logger.record("selfplay/snapshots", len(self.snapshots))
            self.logger.record("selfplay/games", self.rollout_games)
            if self.rollout_games:
                self.logger.record("selfplay/win_rate_vs_pool", rate)
            self.logger.record("selfplay/policy_decisions", env.policy_decisions)
            self.history.append(
                {
                    "timesteps": int(self.num_timesteps),
                    "pool": env.pool_names,
                    "games": self.rollout_games,
                    "wins": self.rollout_wins,
                    "policy_decisions": int(env.policy_decisions),
                }
            )
            self.since_snapshot[0] += self.rollout_games
            self.since_snapshot[1] += self.rollout_wins
            self.rollout_games = self.rollout_wins = 0

        def _on_training_end(self) -> None:
            n = int(self.num_timesteps)
            if n % self.snapshot_every == 0 and f"step_{n}" not in self.snapshots:
                self._snapshot(n, add_to_pool=False)  # the last one: saved, never played

        def _snapshot(self, n: int, add_to_pool: bool) -> None:
            path = snapshot_path(self.out, n)
            path.parent.mkdir(parents=True, exist_ok=True)
            self.model.save(str(path))
            self.snapshots.append(path.stem)
            games, wins = self.since_snapshot
            before = ", ".join(self.pool_env.pool_names)
            if add_to_pool:
                seed = int(np.random.SeedSequence([self.seed, 11, n]).generate_state(1)[0])
                self.pool.append(SnapshotPolicy(path, seed=seed))
                self.pool_env.set_pool(self.pool_entries())
            rate = f"{wins / games:.3f}" if games else "n/a"
            after = ", ".join(self.pool_env.pool_names) if add_to_pool else "(training over)"
            print(
                f"step {n}: saved {path}; win rate vs pool [{before}] since the last "
                f"snapshot {rate} ({wins}/{games} games); pool now: {after}",
                flush=True,
            )
            self.since_snapshot = [0, 0]

    return SelfPlayCallback


def make_selfplay_callback(
    pool_env: Any,
    out: str | Path,
    snapshot_every: int,
    pool_size: int,
    start_agent: str,
    seed: int = 0,
):
    """A SelfPlayCallback (the class needs SB3, imported here)."""
    if snapshot_every < 1:
        raise ValueError(f"snapshot_every must be >= 1, got {snapshot_every}")
    if pool_size < 1:
        raise ValueError(f"pool size must be >= 1, got {pool_size}")
    return _make_callback_class()(pool_env, out, snapshot_every, pool_size, start_agent, seed)
