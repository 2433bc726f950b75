"""Training sb3-contrib MaskablePPO on a registered ruleset against one of its in-kernel
agents (issue 2, section 4; any playable ruleset of envs/registry.py, default tac).

- `SingleAgentEnv`: a gymnasium.Env over the ruleset's AEC env (one game at a time). The
  learner plays one seat; every decision of the other seats (their turns, their reactions in
  the learner's turn) is played inside `step` by a numba agent of the ruleset until the
  learner must decide again. Reward only at the end (the ruleset's scheme; TAC: +1 win, -1
  loss, 0 tie). `action_masks()` serves sb3-contrib's MaskablePPO / ActionMasker.
- `agents.vec_env.BatchVecEnv`: N games per kernel call, the opponents played inside the
  kernels (the fast path and the default: 64 envs; `--vec batch`, or auto for more than
  one env). `--opponent self`: `PoolVecEnv`, whose opponents are earlier checkpoints of the
  learner (agents/snapshots.py: snapshots every `--snapshot-every`, a pool of `--pool`).
- `train(TrainConfig)`: MaskablePPO (MlpPolicy) on a BatchVecEnv, or on a
  DummyVecEnv/SubprocVecEnv of SingleAgentEnvs (`--vec aec`), with TensorBoard logs in
  OUT/tb, checkpoints in OUT/checkpoints, the model in OUT/model.zip, what it was trained on
  in OUT/config.json, then `evaluate` against every agent of the ruleset with Wilson 95%
  intervals in OUT/eval.json.
- `add_parser(subparsers)`: the `tacsim train` subcommand; `main(argv)`: the same as a script
  (scripts/train.py).

torch, stable-baselines3 and the ruleset's kernels are imported only when training or
evaluating, so importing this module (the `tacsim` CLI does) stays cheap. Nothing here
imports a ruleset's package: the ruleset comes from the registry by name.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import gymnasium as gym
import numpy as np

from agents.stats import wilson_interval

LEARNER_SEAT_HELP = "'alternate' or a seat number"
VEC_KINDS = ("auto", "batch", "aec")  # auto: batch for more than one env, else aec
SELF = "self"  # --opponent self: earlier checkpoints of the learner (agents/snapshots.py)


def _ruleset(
    ruleset: Any, config_dir: str | Path | None = None, options: dict[str, str] | None = None
):
    """A Ruleset from a Ruleset (as it is: it carries its options) or a registry name with
    `options` (UnknownRuleset or a bad option: a ValueError)."""
    from envs.core.ruleset import Ruleset
    from envs.registry import get

    if isinstance(ruleset, Ruleset):
        return ruleset
    return get(str(ruleset), config_dir, options)


# --------------------------------------------------------------------------------------------
# The single-agent env
# --------------------------------------------------------------------------------------------
class SingleAgentEnv(gym.Env):
    """A ruleset as a single-agent gymnasium env: the learner against an in-kernel agent.

    `ruleset`: a Ruleset or a registry name (with `options`). Games: `seed` picks the game family and game k
    of it is the AEC env's `reset(seed, options={"game_index": k})`. The game index starts at
    0 and advances by one at every reset; `reset(seed=s)` restarts the family s at game 0,
    `reset(options={"game_index": k})` jumps to game k. With `learner_seat="alternate"` the
    learner plays seat k % P in game k.

    Illegal actions: "penalty" (default, PettingZoo's TerminateIllegalWrapper convention)
    ends the game with reward -1 and the message in `info["illegal_action"]`, so any action
    of the action space is a valid `step` argument; "raise" raises the env's ValueError.
    """

    metadata = {"render_modes": ["ansi"], "render_fps": 1}

    def __init__(
        self,
        ruleset: Any = "tac",
        opponent: str = "heuristic",
        seed: int = 0,
        learner_seat: str | int = "alternate",
        illegal_action: str = "penalty",
        render_mode: str | None = None,
        config_dir: str | Path | None = None,
        num_players: int = 2,
        options: dict[str, str] | None = None,
    ):
        super().__init__()
        from agents.kernel_agents import KernelAgent
        from envs.core.aec import AECEnvBase

        rs = _ruleset(ruleset, config_dir, options)
        rs.check_players(num_players)
        if opponent not in rs.agents:
            raise ValueError(
                f"unknown opponent {opponent!r}; known: {', '.join(sorted(rs.agents))}"
            )
        if learner_seat != "alternate" and (
            isinstance(learner_seat, bool)
            or not isinstance(learner_seat, (int, np.integer))
            or not 0 <= learner_seat < num_players
        ):
            raise ValueError(
                f"learner_seat must be 'alternate' or 0..{num_players - 1}, got {learner_seat!r}"
            )
        if not isinstance(seed, (int, np.integer)) or isinstance(seed, bool) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be 'ansi' or None, got {render_mode!r}")
        self.ruleset = rs
        self.num_players = int(num_players)
        self.opponent_name = opponent
        self.learner_seat_rule = learner_seat
        self.render_mode = render_mode
        self._aec = AECEnvBase(
            rs,
            num_players=self.num_players,
            render_mode="ansi" if render_mode else None,
            illegal_action=illegal_action,
        )
        self._opponent = KernelAgent(rs, opponent)
        first = self._aec.possible_agents[0]
        self.observation_space = self._aec.observation_space(first)["observation"]
        self.action_space = self._aec.action_space(first)
        self._family = int(seed)
        self._next_game = 0
        self.game_index = -1  # the game being played (-1: none yet)
        self.learner_seat = 0
        self._learner = first
        self._mask = np.zeros(self.action_space.n, dtype=bool)
        self._done = True
        self._opponent_decisions = 0

    # gymnasium API ----------------------------------------------------------------------
    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)  # seeds self.np_random (unused: all chance is in the game)
        if seed is not None:
            if seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
            self._family = int(seed)
            self._next_game = 0
        if options and "game_index" in options:
            k = int(options["game_index"])
            if k < 0:
                raise ValueError(f"game_index must be >= 0, got {k}")
            self._next_game = k
        while True:
            self.game_index = self._next_game
            self._next_game += 1
            if self.learner_seat_rule == "alternate":
                self.learner_seat = self.game_index % self.num_players
            else:
                self.learner_seat = int(self.learner_seat_rule)
            self._learner = self._aec.possible_agents[self.learner_seat]
            self._aec.reset(seed=self._family, options={"game_index": self.game_index})
            self._opponent_decisions = 0
            self._play_opponent()
            # a game decided before the learner's first decision gives it nothing to learn
            # from; take the next one (does not happen under the TAC rules: 8 rounds)
            if not self._aec.terminations[self._learner]:
                break
        self._done = False
        obs = self._observe()
        return obs, self._info()

    def step(self, action: Any) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("step() called after the game ended; call reset() first")
        self._aec.step(int(action))
        self._play_opponent()
        terminated = bool(self._aec.terminations[self._learner])
        reward = float(self._aec.rewards[self._learner]) if terminated else 0.0
        self._done = terminated
        obs = self._observe()
        info = self._info()
        if terminated:
            final = self._aec.infos[self._learner]
            if "illegal_action" in final:
                info["illegal_action"] = final["illegal_action"]
            else:
                seats = self._aec.possible_agents
                field_name = self.ruleset.record.score_field
                # "score", not infos[field_name]: a ruleset's step_info may reuse that key
                # (TACTICA's war_points holds both seats' points there)
                info[field_name] = [int(self._aec.infos[a]["score"]) for a in seats]
                info["winner"] = int(final["winner"])
                info["decisions"] = int(final["decisions"])
            # SB3 logs the mean of `is_success` at episode ends as rollout/success_rate
            info["is_success"] = reward > 0
        return obs, reward, terminated, False, info

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's current decision (all False once the game ended)."""
        return self._mask.copy()

    def render(self) -> str | None:
        if self.render_mode is None:
            gym.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        return self._aec.render()

    def close(self) -> None:
        self._aec.close()

    # internals --------------------------------------------------------------------------
    def _play_opponent(self) -> None:
        """Play the opponent's decisions until the learner decides or the game is over."""
        aec = self._aec
        while True:
            current = aec.agent_selection
            if aec.terminations[current] or current == self._learner:
                return
            aec.step(self._opponent.act(aec))
            self._opponent_decisions += 1

    def _observe(self) -> np.ndarray:
        seen = self._aec.observe(self._learner)
        self._mask = seen["action_mask"].astype(bool)
        return seen["observation"]

    def _info(self) -> dict[str, Any]:
        return {
            "seed": self._family,
            "game_index": self.game_index,
            "learner_seat": self.learner_seat,
            "opponent": self.opponent_name,
            "opponent_decisions": self._opponent_decisions,
        }


def mask_fn(env: gym.Env) -> np.ndarray:
    """ActionMasker's mask function (module level, so SubprocVecEnv can pickle it)."""
    return env.unwrapped.action_masks()


# --------------------------------------------------------------------------------------------
# Statistics
# --------------------------------------------------------------------------------------------
def derive_seed(seed: int, *keys: int) -> int:
    """A game-family seed for a purpose (keys) that does not collide with seed + i."""
    return int(np.random.SeedSequence([seed, *keys]).generate_state(1, np.uint32)[0])


# --------------------------------------------------------------------------------------------
# Training and evaluation
# --------------------------------------------------------------------------------------------
@dataclass
class TrainConfig:
    """Everything a run depends on; written to OUT/config.json."""

    out: Path
    timesteps: int
    ruleset: str = "tac"
    # the ruleset's options (e.g. TACTICA's game=basic); resolved by `tacsim train`
    options: dict[str, str] = field(default_factory=dict)
    opponent: str = "random"  # an in-kernel agent, or SELF
    seed: int = 0
    # 64 games per kernel call on the batched path (the default since issue 10): one env
    # would mean the AEC path, 18.6x slower to step (docs/training.md, throughput)
    n_envs: int = 64
    vec: str = "auto"  # batch (BatchVecEnv), aec (SingleAgentEnvs); auto: batch if n_envs > 1
    vec_env: str = "auto"  # aec path: auto = DummyVecEnv for one env, SubprocVecEnv for more
    learner_seat: str | int = "alternate"
    n_steps: int = 128  # per env and rollout (64 x 128 = 8,192 steps per rollout)
    # 5 epochs of 512-sample minibatches: on the shared 2-core machine SB3's default of 10
    # epochs of 64 (or 256) made the update phase take 4x the rollout; 5 x 512 doubled the
    # steps/s (163 against 79, measured in one process under the same load)
    batch_size: int = 512
    n_epochs: int = 5
    learning_rate: float = 3e-4
    gamma: float = 0.99
    gae_lambda: float = 0.95
    ent_coef: float = 0.01
    net_arch: list[int] = field(default_factory=lambda: [256, 256])
    checkpoint_every: int = 50_000  # timesteps; 0: no checkpoints
    # --opponent self: a snapshot every `snapshot_every` timesteps (0: every two rollouts;
    # must be whole rollouts), the pool holds the last `pool_size`, and until the first
    # snapshot the in-kernel `pool_start` agent is the opponent
    snapshot_every: int = 0
    pool_size: int = 5
    pool_start: str = "random"
    eval_games: int = 200  # per opponent
    eval_deterministic: bool = True
    torch_threads: int = 0  # 0: auto (1, see configure_torch)
    progress_bar: bool = True
    verbose: int = 0

    def command(self) -> str:
        """The `tacsim train` command line that reproduces this run (default options omitted)."""
        d = TrainConfig(out=self.out, timesteps=self.timesteps)
        parts = ["tacsim train", f"--ruleset {self.ruleset}", f"--opponent {self.opponent}"]
        parts += [f"--option {k}={v}" for k, v in self.options.items()]
        parts += [f"--timesteps {self.timesteps}", f"--seed {self.seed}", f"--out {self.out}"]
        for name, flag in (
            ("n_envs", "--num-envs"),
            ("vec", "--vec"),
            ("learner_seat", "--learner-seat"),
            ("n_steps", "--n-steps"),
            ("batch_size", "--batch-size"),
            ("n_epochs", "--n-epochs"),
            ("learning_rate", "--learning-rate"),
            ("ent_coef", "--ent-coef"),
            ("checkpoint_every", "--checkpoint-every"),
            ("snapshot_every", "--snapshot-every"),
            ("pool_size", "--pool"),
            ("pool_start", "--pool-start"),
            ("eval_games", "--eval-games"),
            ("torch_threads", "--threads"),
        ):
            if name in ("snapshot_every", "pool_size", "pool_start") and self.opponent != SELF:
                continue
            if name == "snapshot_every" and self.opponent == SELF:
                parts.append(f"{flag} {self.snapshot_steps()}")
            elif getattr(self, name) != getattr(d, name):
                parts.append(f"{flag} {getattr(self, name)}")
        return " ".join(parts)

    def rollout_steps(self) -> int:
        return self.n_steps * self.n_envs

    def snapshot_steps(self) -> int:
        """Timesteps between self-play snapshots (`snapshot_every`, 0: two rollouts)."""
        return self.snapshot_every or 2 * self.rollout_steps()

    def vec_kind(self) -> str:
        """batch or aec: what `vec` means for this number of envs."""
        if self.vec == "auto":
            return "batch" if self.n_envs > 1 else "aec"
        return self.vec

    def rules(self):
        """The Ruleset this run trains on: the named ruleset with the run's options."""
        return _ruleset(self.ruleset, options=self.options)

    def validate(self) -> None:
        rs = self.rules()  # unknown or data-only, a bad option: a ValueError
        if self.opponent not in rs.agents and self.opponent != SELF:
            known = ", ".join([*sorted(rs.agents), SELF])
            raise ValueError(f"unknown opponent {self.opponent!r}; known: {known}")
        if self.vec not in VEC_KINDS:
            raise ValueError(f"vec must be one of {', '.join(VEC_KINDS)}, got {self.vec!r}")
        if self.learner_seat != "alternate" and (
            isinstance(self.learner_seat, bool)
            or not isinstance(self.learner_seat, int)
            or not 0 <= self.learner_seat < 2
        ):
            raise ValueError(f"learner_seat must be 'alternate', 0 or 1, got {self.learner_seat!r}")
        for name in ("timesteps", "n_envs", "n_steps", "batch_size", "n_epochs"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 1:
                raise ValueError(f"{name} must be an integer >= 1, got {value!r}")
        for name in ("seed", "checkpoint_every", "eval_games", "torch_threads"):
            value = getattr(self, name)
            if not isinstance(value, int) or value < 0:
                raise ValueError(f"{name} must be an integer >= 0, got {value!r}")
        if self.vec_kind() == "aec" and self.learner_seat != "alternate":
            raise ValueError("--learner-seat applies to --vec batch (the aec path alternates)")
        if self.opponent == SELF:
            self._validate_self_play(rs)
        if self.vec_env not in ("auto", "dummy", "subproc"):
            raise ValueError(f"vec_env must be auto, dummy or subproc, got {self.vec_env!r}")
        if not self.net_arch or any(int(w) < 1 for w in self.net_arch):
            raise ValueError(f"net_arch must be positive layer widths, got {self.net_arch!r}")

    def _validate_self_play(self, rs) -> None:
        if self.vec_kind() != "batch":
            raise ValueError(
                "--opponent self needs the batched path (--vec batch or auto with --num-envs "
                f">= 2), got --vec {self.vec} with --num-envs {self.n_envs}"
            )
        if isinstance(self.pool_size, bool) or not isinstance(self.pool_size, int):
            raise ValueError(f"--pool must be an integer >= 1, got {self.pool_size!r}")
        if self.pool_size < 1:
            raise ValueError(f"--pool must be >= 1, got {self.pool_size}")
        if not isinstance(self.snapshot_every, int) or self.snapshot_every < 0:
            raise ValueError(f"--snapshot-every must be >= 1, got {self.snapshot_every!r}")
        rollout = self.rollout_steps()
        if self.snapshot_steps() % rollout:
            raise ValueError(
                f"--snapshot-every must be a multiple of the rollout, --n-steps x --num-envs = "
                f"{rollout} (snapshots are taken between rollouts), got {self.snapshot_every}"
            )
        if self.pool_start not in rs.agents:
            known = ", ".join(sorted(rs.agents))
            raise ValueError(f"unknown --pool-start agent {self.pool_start!r}; known: {known}")

    def trained_on(self) -> dict[str, Any]:
        """What a saved model of this run expects: a loader checks these before playing it."""
        rs = self.rules()
        num_players = 2
        return {
            "ruleset": rs.name,
            "options": dict(rs.options),
            "env_name": rs.env_name,
            "num_players": num_players,
            "observation_size": int(rs.observation_size(num_players)),
            "n_actions": int(rs.n_actions),
            "fingerprint": rs.fingerprint(),
        }


def _require_training_extra() -> None:
    try:
        import sb3_contrib  # noqa: F401
        import stable_baselines3  # noqa: F401
        import torch  # noqa: F401
    except ImportError as exc:
        raise RuntimeError(
            f"training needs the 'train' extra (pip install 'tacsim[train]'): {exc}"
        ) from exc


def configure_torch(threads: int = 0) -> int:
    """CPU only, one thread by default. Measured on the shared 2-core machine under load:
    a batch-1 policy forward (the rollout's per-step cost) took 0.23 ms on 1 thread and
    2.9 ms on 2 (OpenMP workers waiting on busy cores), while 2 threads only halve the
    minibatch updates, which are a small share of the time."""
    import numba
    import torch

    # start numba's thread pool first: with its OpenMP layer, the first parallel kernel
    # launch resets the OpenMP thread count torch shares (torch went from 1 to 2 threads
    # at the env's first reset, and a 20x256 tanh from 17 us to 0.5-1.9 ms on this machine)
    numba.get_num_threads()
    n = threads if threads > 0 else 1
    torch.set_num_threads(n)
    try:
        torch.set_num_interop_threads(1)
    except RuntimeError:  # already set, or torch already ran parallel work in this process
        pass
    return n


def _make_env(ruleset: str, opponent: str, seed: int, options: dict[str, str] | None = None):
    # by name and options, not a Ruleset: SubprocVecEnv pickles the thunk to its workers
    def thunk() -> gym.Env:
        from sb3_contrib.common.wrappers import ActionMasker
        from stable_baselines3.common.monitor import Monitor

        env = SingleAgentEnv(ruleset, opponent=opponent, seed=seed, options=options)
        return ActionMasker(Monitor(env), mask_fn)

    return thunk


def make_vec_env(
    opponent: str,
    n_envs: int,
    seed: int,
    kind: str = "auto",
    ruleset: Any = "tac",
    vec: str = "aec",
    learner_seat: str | int = "alternate",
    pool_start: str = "random",
    options: dict[str, str] | None = None,
):
    """n_envs masked games of `ruleset` against `opponent`.

    vec="aec": SingleAgentEnvs in a DummyVecEnv/SubprocVecEnv (`kind`); env i plays game
    family seed + i (SB3 seeds them that way too). vec="batch": one BatchVecEnv (family
    `seed`, slot b starts game b) under VecMonitor, which logs episode rewards and lengths;
    with opponent SELF a PoolVecEnv whose pool starts as [pool_start] (the self-play
    callback fills it with snapshots). `ruleset`: a name (with `options`) or a Ruleset."""
    if vec == "batch":
        from stable_baselines3.common.vec_env import VecMonitor

        from agents.vec_env import BatchVecEnv, PoolVecEnv

        rs = _ruleset(ruleset, options=options)
        if opponent == SELF:
            env = PoolVecEnv(rs, n_envs, pool=[pool_start], seed=seed, learner_seat=learner_seat)
        else:
            env = BatchVecEnv(rs, n_envs, opponent=opponent, seed=seed, learner_seat=learner_seat)
        return VecMonitor(env, info_keywords=("is_success",))
    if opponent == SELF:
        raise ValueError("--opponent self needs the batched path (vec='batch')")
    from stable_baselines3.common.vec_env import DummyVecEnv, SubprocVecEnv

    rs = _ruleset(ruleset, options=options)
    thunks = [_make_env(rs.name, opponent, seed + i, dict(rs.options)) for i in range(n_envs)]
    if kind == "subproc" or (kind == "auto" and n_envs > 1):
        return SubprocVecEnv(thunks)
    return DummyVecEnv(thunks)


def _progress_bar_available() -> bool:
    try:
        from stable_baselines3.common.callbacks import ProgressBarCallback

        ProgressBarCallback()
    except ImportError:
        return False
    return True


def evaluate(
    model: Any,
    opponent: str,
    games: int,
    seed: int,
    deterministic: bool = True,
    ruleset: Any = "tac",
) -> dict[str, Any]:
    """Play `games` games of family `seed` (games 0..games-1, the model in seat k % 2 of
    game k) against `opponent`; wins, losses, ties and the win rate with its Wilson 95%
    interval."""
    env = SingleAgentEnv(ruleset, opponent=opponent, seed=seed, learner_seat="alternate")
    wins = losses = ties = 0
    seat_wins = [0, 0]
    seat_games = [0, 0]
    decisions = 0
    for k in range(games):
        obs, info = env.reset(seed=seed if k == 0 else None)
        seat = info["learner_seat"]
        done = False
        reward = 0.0
        while not done:
            action, _ = model.predict(
                obs, action_masks=env.action_masks(), deterministic=deterministic
            )
            obs, reward, done, _, info = env.step(int(action))
            decisions += 1
            if "illegal_action" in info:
                raise RuntimeError(f"the model chose an illegal action: {info['illegal_action']}")
        seat_games[seat] += 1
        if reward > 0:
            wins += 1
            seat_wins[seat] += 1
        elif reward < 0:
            losses += 1
        else:
            ties += 1
    lo, hi = wilson_interval(wins, games)
    return {
        "opponent": opponent,
        "games": games,
        "wins": wins,
        "losses": losses,
        "ties": ties,
        "win_rate": wins / games if games else 0.0,
        "win_rate_ci95": [lo, hi],
        "win_rate_by_seat": [
            seat_wins[s] / seat_games[s] if seat_games[s] else None for s in (0, 1)
        ],
        "games_by_seat": seat_games,
        "learner_decisions": decisions,
        "seed": seed,
        "deterministic": deterministic,
    }


def evaluate_both(
    model: Any, games: int, seed: int, deterministic: bool = True, ruleset: Any = "tac"
) -> dict[str, dict[str, Any]]:
    """`evaluate` against every fast agent of the ruleset (not the searching ones: see
    `tacsim ladder` for those) on the same game family (paired deals)."""
    rs = _ruleset(ruleset)
    return {
        name: evaluate(model, name, games, seed, deterministic, rs) for name in rs.baseline_agents
    }


def _write_json(path: Path, data: dict[str, Any]) -> None:
    """Write to a temporary file then rename, so a reader never sees half a file."""
    tmp = path.with_suffix(path.suffix + ".tmp")
    tmp.write_text(json.dumps(data, indent=2) + "\n")
    tmp.replace(path)


def format_results(results: dict[str, dict[str, Any]]) -> str:
    lines = []
    for name, r in results.items():
        lo, hi = r["win_rate_ci95"]
        lines.append(
            f"vs {name:<9} win rate {r['win_rate']:.3f} (95% CI {lo:.3f}-{hi:.3f}) "
            f"over {r['games']} games: {r['wins']} won, {r['losses']} lost, {r['ties']} tied"
        )
    return "\n".join(lines)


def make_model(venv, config: TrainConfig, tensorboard_log: str | None = None):
    """MaskablePPO with the config's hyperparameters on a VecEnv (CPU)."""
    from sb3_contrib import MaskablePPO

    return MaskablePPO(
        "MlpPolicy",
        venv,
        learning_rate=config.learning_rate,
        n_steps=config.n_steps,
        batch_size=config.batch_size,
        n_epochs=config.n_epochs,
        gamma=config.gamma,
        gae_lambda=config.gae_lambda,
        ent_coef=config.ent_coef,
        policy_kwargs={"net_arch": list(config.net_arch)},
        tensorboard_log=tensorboard_log,
        seed=config.seed,
        device="cpu",
        verbose=config.verbose,
    )


def train(config: TrainConfig) -> dict[str, Any]:
    """Train, save OUT/model.zip, evaluate against both baselines, write OUT/eval.json."""
    config.validate()
    _require_training_extra()
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")  # CPU only, whatever the machine has
    from stable_baselines3.common.callbacks import CheckpointCallback

    threads = configure_torch(config.torch_threads)
    out = Path(config.out)
    out.mkdir(parents=True, exist_ok=True)
    # what the model was trained on sits beside it, for loaders (e.g. `ppo:PATH` players)
    _write_json(out / "config.json", {**asdict(config), "out": str(out), **config.trained_on()})

    venv = make_vec_env(
        config.opponent,
        config.n_envs,
        config.seed,
        config.vec_env,
        ruleset=config.rules(),
        vec=config.vec_kind(),
        learner_seat=config.learner_seat,
        pool_start=config.pool_start,
    )
    model = make_model(venv, config, tensorboard_log=str(out / "tb"))
    callbacks = []
    selfplay = None
    if config.opponent == SELF:
        from agents.snapshots import make_selfplay_callback

        selfplay = make_selfplay_callback(
            venv.unwrapped,
            out,
            config.snapshot_steps(),
            config.pool_size,
            config.pool_start,
            seed=config.seed,
        )
        callbacks.append(selfplay)
    if config.checkpoint_every > 0:
        callbacks.append(
            CheckpointCallback(
                save_freq=max(config.checkpoint_every // config.n_envs, 1),
                save_path=str(out / "checkpoints"),
                name_prefix="model",
            )
        )
    progress = config.progress_bar and _progress_bar_available()
    start = time.perf_counter()
    try:
        model.learn(
            total_timesteps=config.timesteps,
            callback=callbacks or None,
            tb_log_name="MaskablePPO",
            progress_bar=progress,
        )
    finally:
        venv.close()
    train_s = time.perf_counter() - start
    model.save(str(out / "model.zip"))

    eval_seed = derive_seed(config.seed, 2)  # a family no training env played
    start = time.perf_counter()
    results = evaluate_both(
        model, config.eval_games, eval_seed, config.eval_deterministic, config.rules()
    )
    eval_s = time.perf_counter() - start
    summary = {
        "ruleset": config.ruleset,
        "trained_against": config.opponent,
        "timesteps": int(model.num_timesteps),
        "seed": config.seed,
        "n_envs": config.n_envs,
        "vec": config.vec_kind(),
        "train_steps_per_s": round(int(model.num_timesteps) / train_s, 1),
        "torch_threads": threads,
        "train_wall_s": round(train_s, 1),
        "eval_wall_s": round(eval_s, 1),
        "model": str(out / "model.zip"),
        "command": config.command(),
        "opponents": results,
        **config.trained_on(),
    }
    if selfplay is not None:
        pool_env = venv.unwrapped
        summary["self_play"] = {
            "snapshot_every": config.snapshot_steps(),
            "pool_size": config.pool_size,
            "pool_start": config.pool_start,
            "snapshots": list(selfplay.snapshots),
            "final_pool": pool_env.pool_names,
            "policy_decisions": int(pool_env.policy_decisions),
            "opponent_decisions": int(pool_env.opponent_decisions),
            "rollouts": selfplay.history,
        }
    _write_json(out / "eval.json", summary)
    return summary


# --------------------------------------------------------------------------------------------
# Command line: `tacsim train` and scripts/train.py
# --------------------------------------------------------------------------------------------
def _int_at_least(minimum: int):
    def parse(text: str) -> int:
        try:
            value = int(text)
        except ValueError:
            raise argparse.ArgumentTypeError(f"expected an integer, got {text!r}") from None
        if value < minimum:
            raise argparse.ArgumentTypeError(f"must be >= {minimum}, got {value}")
        return value

    return parse


def _seat(text: str) -> str | int:
    if text == "alternate":
        return text
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected 'alternate' or a seat, got {text!r}") from None


def add_arguments(p: argparse.ArgumentParser) -> None:
    d = TrainConfig(out=Path("."), timesteps=1)
    from agents.cli import add_option_argument, add_ruleset_argument

    add_ruleset_argument(p)
    add_option_argument(p)
    p.add_argument(
        "--opponent",
        default=d.opponent,
        help="in-kernel agent of the ruleset to train against (tac: random, heuristic), or "
        "'self': earlier checkpoints of the learner (batched path; see --snapshot-every, --pool)",
    )
    p.add_argument("--timesteps", type=_int_at_least(1), required=True, help="learner decisions")
    p.add_argument("--seed", type=_int_at_least(0), default=d.seed)
    p.add_argument("--out", type=Path, required=True, help="run folder (model, tb/, eval.json)")
    p.add_argument(
        "--num-envs",
        "--n-envs",
        dest="n_envs",
        type=_int_at_least(1),
        default=d.n_envs,
        help=f"games stepped together (default {d.n_envs}; 1 means the AEC path under --vec auto)",
    )
    p.add_argument(
        "--vec",
        choices=VEC_KINDS,
        default=d.vec,
        help="batch: BatchVecEnv (opponents inside the kernels); aec: one SingleAgentEnv per "
        "env in a Dummy/SubprocVecEnv; auto (default): batch when --num-envs > 1",
    )
    p.add_argument(
        "--learner-seat",
        type=_seat,
        default=d.learner_seat,
        help="batched path: 'alternate' (default: slot i of N learns seat i*P//N) or a seat",
    )
    p.add_argument(
        "--vec-env", choices=("auto", "dummy", "subproc"), default=d.vec_env, help=argparse.SUPPRESS
    )
    p.add_argument("--n-steps", type=_int_at_least(1), default=d.n_steps, help="rollout per env")
    p.add_argument("--batch-size", type=_int_at_least(1), default=d.batch_size)
    p.add_argument("--n-epochs", type=_int_at_least(1), default=d.n_epochs)
    p.add_argument("--learning-rate", type=float, default=d.learning_rate)
    p.add_argument("--ent-coef", type=float, default=d.ent_coef)
    p.add_argument(
        "--checkpoint-every",
        type=_int_at_least(0),
        default=d.checkpoint_every,
        help="timesteps between checkpoints (0: none)",
    )
    p.add_argument(
        "--snapshot-every",
        type=_int_at_least(1),
        default=None,
        help="--opponent self: timesteps between snapshots, a multiple of --n-steps x "
        "--num-envs (default: two rollouts)",
    )
    p.add_argument(
        "--pool",
        type=_int_at_least(1),
        default=None,
        help=f"--opponent self: the last K snapshots are the opponents (default {d.pool_size})",
    )
    p.add_argument(
        "--pool-start",
        default=None,
        help=f"--opponent self: in-kernel agent played until the first snapshot "
        f"(default {d.pool_start})",
    )
    p.add_argument(
        "--eval-games", type=_int_at_least(0), default=d.eval_games, help="games per opponent"
    )
    p.add_argument(
        "--threads", type=_int_at_least(0), default=0, help="torch threads (0: auto = 1)"
    )
    p.add_argument("--no-progress", action="store_true", help="no progress bar")
    p.add_argument("--verbose", type=int, default=0, help="SB3 verbosity (0, 1, 2)")


def run(args: argparse.Namespace) -> int:
    """Run `tacsim train`; UsageError (agents.cli prints it, exit 2) on bad input, before
    anything is written; 1 when the training extra is missing."""
    from agents.cli import UsageError, check_ruleset

    # unknown or data-only ruleset, a bad option: UsageError
    rs = check_ruleset(args.ruleset, args.options)
    d = TrainConfig(out=args.out, timesteps=args.timesteps)
    self_play_flags = {
        "--snapshot-every": args.snapshot_every,
        "--pool": args.pool,
        "--pool-start": args.pool_start,
    }
    given = [flag for flag, value in self_play_flags.items() if value is not None]
    if given and args.opponent != SELF:
        raise UsageError(f"{', '.join(given)}: only with --opponent {SELF}")
    config = TrainConfig(
        out=args.out,
        timesteps=args.timesteps,
        ruleset=args.ruleset,
        options=dict(rs.options),
        opponent=args.opponent,
        seed=args.seed,
        n_envs=args.n_envs,
        vec=args.vec,
        vec_env=args.vec_env,
        learner_seat=args.learner_seat,
        n_steps=args.n_steps,
        batch_size=args.batch_size,
        n_epochs=args.n_epochs,
        learning_rate=args.learning_rate,
        ent_coef=args.ent_coef,
        checkpoint_every=args.checkpoint_every,
        snapshot_every=args.snapshot_every if args.snapshot_every is not None else 0,
        pool_size=args.pool if args.pool is not None else d.pool_size,
        pool_start=args.pool_start if args.pool_start is not None else d.pool_start,
        eval_games=args.eval_games,
        torch_threads=args.threads,
        progress_bar=not args.no_progress,
        verbose=args.verbose,
    )
    try:
        config.validate()
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    try:
        summary = train(config)
    except RuntimeError as exc:
        print(f"tacsim train: error: {exc}", file=sys.stderr)
        return 1
    against = config.opponent
    if config.opponent == SELF:
        sp = summary["self_play"]
        against = (
            f"earlier checkpoints ({len(sp['snapshots'])} snapshots, pool of "
            f"{config.pool_size}, {sp['policy_decisions']} opponent decisions by policies)"
        )
    print(
        f"trained {summary['timesteps']} timesteps against {against} in "
        f"{summary['train_wall_s']:.0f} s; model: {summary['model']}"
    )
    print(format_results(summary["opponents"]))
    print(f"results: {Path(config.out) / 'eval.json'}")
    return 0


DESCRIPTION = (
    "Train sb3-contrib MaskablePPO on a 2-player ruleset (default tac) against one of its "
    "in-kernel agents or against its own earlier checkpoints (--opponent self), log to "
    "TensorBoard (OUT/tb), save OUT/model.zip, then evaluate against every agent of the "
    "ruleset (OUT/eval.json). By default 64 games are stepped per kernel call (BatchVecEnv); "
    "--num-envs 1 or --vec aec runs one AEC env per game."
)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `train` on the `tacsim` command's subparsers."""
    p = subparsers.add_parser(
        "train", help="train MaskablePPO on a ruleset", description=DESCRIPTION
    )
    add_arguments(p)
    p.set_defaults(func=run)
    return p


def main(argv: list[str] | None = None) -> int:
    """scripts/train.py: the same options as `tacsim train`."""
    parser = argparse.ArgumentParser(prog="train", description=DESCRIPTION)
    add_arguments(parser)
    from agents.cli import UsageError

    try:
        return run(parser.parse_args(argv))
    except UsageError as exc:
        print(f"train: error: {exc}", file=sys.stderr)
        return 2
