"""A trained policy as a player: `ppo:PATH` names a MaskablePPO model written by `tacsim train`.

PATH is the model file (OUT/model.zip, or a checkpoint OUT/checkpoints/model_N_steps.zip) or
the training folder OUT (then OUT/model.zip). The model is loaded on the CPU and checked
against the ruleset it is asked to play: its observation size and action count must be the
ruleset's for that number of players, and when the training folder's config.json names a
ruleset (a player count, the ruleset's options) they must match too. `Policy.act` maps a
batch of observations and action masks to actions (deterministic by default: the most
probable legal action) and raises if the model ever picks an action its mask forbids.

torch and sb3-contrib (the `train` extra) are imported only when a model is loaded, so the
`tacsim` command and kernel-only self-play never pay for them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Any

import numpy as np

PREFIX = "ppo:"
MODEL_FILE = "model.zip"  # what `tacsim train` writes into OUT
CONFIG_FILE = "config.json"  # the TrainConfig that `tacsim train` writes into OUT
PREDICT_BATCH = 4096  # observations per forward pass (bounds the memory of a large chunk)


def is_policy_name(name: str) -> bool:
    """Whether an agent name names a trained policy (`ppo:PATH`) rather than a kernel agent."""
    return name.startswith(PREFIX)


def model_path(name: str) -> Path:
    """The model file a `ppo:PATH` agent name points to; ValueError if there is none."""
    if not is_policy_name(name):
        raise ValueError(f"{name!r} is not a trained policy (expected {PREFIX}PATH)")
    raw = name[len(PREFIX) :]
    if not raw:
        raise ValueError(f"{name!r}: give the model after '{PREFIX}' ({PREFIX}OUT/model.zip)")
    path = Path(raw).expanduser()
    if path.is_dir():
        path = path / MODEL_FILE
    elif (
        not path.exists() and path.suffix != ".zip" and path.with_name(path.name + ".zip").exists()
    ):
        path = path.with_name(path.name + ".zip")  # SB3 adds .zip when it saves
    if not path.is_file():
        raise ValueError(f"{name}: no model file at {path}")
    return path.resolve()


def training_config(path: Path) -> dict[str, Any] | None:
    """The config.json `tacsim train` wrote next to the model (OUT/ for OUT/model.zip and
    OUT/checkpoints/*.zip), or None when there is none."""
    folders = [path.parent]
    if path.parent.name == "checkpoints":
        folders.append(path.parent.parent)
    for folder in folders:
        f = folder / CONFIG_FILE
        if f.is_file():
            try:
                data = json.loads(f.read_text())
            except (OSError, json.JSONDecodeError):
                return None
            return data if isinstance(data, dict) else None
    return None


def _options_text(options: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in options.items()) or "none"


def _import_maskable_ppo():
    from agents.cli import UsageError

    try:
        from sb3_contrib import MaskablePPO
    except ImportError as exc:
        raise UsageError(
            f"ppo:PATH agents need the 'train' extra (pip install 'tacsim[train]'): {exc}"
        ) from None
    return MaskablePPO


def masked_probabilities(sb3_policy: Any, obs: np.ndarray, legal: np.ndarray) -> np.ndarray:
    """float64[B, N] action probabilities of a MaskablePPO policy network with the illegal
    actions at 0. The action head's logits as MaskableActorCriticPolicy.get_distribution
    computes them, without building torch distributions (their logsumexp took 6 ms a call
    on this machine, 95% of an opponent step); masking and softmax in numpy."""
    import torch

    # numba's OpenMP kernels reset the thread count torch shares with them: take one
    # thread again (see _load_cached) before every forward pass
    if torch.get_num_threads() != 1:
        torch.set_num_threads(1)
    with torch.no_grad():
        obs_t = sb3_policy.obs_to_tensor(np.asarray(obs, dtype=np.float32))[0]
        features = sb3_policy.extract_features(obs_t, sb3_policy.pi_features_extractor)
        logits = sb3_policy.action_net(sb3_policy.mlp_extractor.forward_actor(features))
        logits = logits.cpu().numpy().astype(np.float64)
    logits = np.where(legal, logits, -np.inf)
    logits -= logits.max(axis=1, keepdims=True)
    p = np.exp(logits)
    return p / p.sum(axis=1, keepdims=True)


def sample_actions(p: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """One action per row of probabilities p, never one of probability 0."""
    cum = p.cumsum(axis=1)
    u = rng.random(p.shape[0])[:, None] * cum[:, -1:]
    return (cum > u).argmax(axis=1)


@dataclass
class Policy:
    """A loaded MaskablePPO model playing one ruleset with a fixed number of players."""

    name: str  # the agent name, ppo:PATH as given
    path: Path  # the model file
    model: Any  # sb3_contrib.MaskablePPO on the CPU
    ruleset: str
    num_players: int
    observation_size: int
    n_actions: int
    deterministic: bool = True
    rng: np.random.Generator = field(default_factory=lambda: np.random.default_rng(0))

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """Actions int64[B] for observations float32[B, D] and masks int8/bool[B, N] (one
        decision of the policy's seat in each of B games). RuntimeError if the model picks
        an action its mask forbids."""
        obs = np.asarray(obs, dtype=np.float32)
        masks = np.asarray(masks)
        if obs.ndim != 2 or obs.shape[1] != self.observation_size:
            raise ValueError(
                f"{self.name}: observations must be [B, {self.observation_size}], got {obs.shape}"
            )
        if masks.shape != (obs.shape[0], self.n_actions):
            raise ValueError(
                f"{self.name}: masks must be [{obs.shape[0]}, {self.n_actions}], got {masks.shape}"
            )
        legal = masks.astype(bool)
        out = np.empty(obs.shape[0], dtype=np.int64)
        for lo in range(0, obs.shape[0], PREDICT_BATCH):
            hi = min(lo + PREDICT_BATCH, obs.shape[0])
            p = masked_probabilities(self.model.policy, obs[lo:hi], legal[lo:hi])
            # deterministic: the most likely legal action, what model.predict(...,
            # deterministic=True) returns; else one draw per row from the masked distribution
            out[lo:hi] = p.argmax(axis=1) if self.deterministic else sample_actions(p, self.rng)
        ok = (out >= 0) & (out < self.n_actions)
        ok[ok] = legal[np.flatnonzero(ok), out[ok]]
        if not ok.all():
            b = int(np.flatnonzero(~ok)[0])
            raise RuntimeError(
                f"{self.name} chose action {int(out[b])}, which its mask forbids "
                f"(row {b} of {len(out)}, {int(legal[b].sum())} legal actions)"
            )
        return out


def load(name: str, ruleset: Any, num_players: int) -> Policy:
    """The policy `ppo:PATH` checked against `ruleset` (a Ruleset) with `num_players` seats.

    ValueError (one line naming the file and the mismatch) for a missing file, a file that is
    not a MaskablePPO model, or a model of another ruleset, player count, observation size or
    action count; agents.cli.UsageError when the `train` extra is not installed."""
    path = model_path(name)
    st = path.stat()
    want = int(ruleset.observation_size(num_players))
    policy = _load_cached(
        str(path),
        st.st_mtime_ns,
        st.st_size,
        ruleset.name,
        int(num_players),
        want,
        int(ruleset.n_actions),
        tuple(dict(getattr(ruleset, "options", {}) or {}).items()),
    )
    # one model object per file, whichever spelling of PATH named it
    return Policy(
        name=name,
        path=policy.path,
        model=policy.model,
        ruleset=policy.ruleset,
        num_players=policy.num_players,
        observation_size=policy.observation_size,
        n_actions=policy.n_actions,
    )


@lru_cache(maxsize=16)
def _load_cached(
    path_s: str,
    _mtime: int,
    _size: int,
    ruleset: str,
    num_players: int,
    want: int,
    n_actions: int,
    options: tuple[tuple[str, str], ...] = (),
) -> Policy:
    """Load and check one model file against a ruleset's name, observation size `want` and
    action count (cached on the file's path, time and size: a rewritten file is loaded
    again)."""
    path = Path(path_s)
    config = training_config(path)
    if config is not None:
        trained_on = config.get("ruleset")
        if trained_on is not None and trained_on != ruleset:
            raise ValueError(
                f"{path} was trained on ruleset {trained_on!r}, not {ruleset!r} (its {CONFIG_FILE})"
            )
        trained_players = config.get("num_players", config.get("players"))
        if trained_players is not None and int(trained_players) != num_players:
            raise ValueError(
                f"{path} was trained for {trained_players} players, not {num_players} "
                f"(its {CONFIG_FILE})"
            )
        trained_options = config.get("options")
        # a config.json written before options existed names none: nothing to compare
        if trained_options is not None and dict(trained_options) != dict(options):
            raise ValueError(
                f"{path} was trained under {ruleset} options {_options_text(trained_options)}, "
                f"not {_options_text(dict(options))} (its {CONFIG_FILE})"
            )
    MaskablePPO = _import_maskable_ppo()
    # one torch thread, as training does (agents.training.configure_torch): a 100-game
    # forward pass took 330 ms on 2 threads of the shared 2-core machine and 7-15 ms on one
    from agents.training import configure_torch

    configure_torch(0)
    try:
        model = MaskablePPO.load(str(path), device="cpu")
    except Exception as exc:  # a zip of something else, a truncated file, another algorithm
        first = str(exc).splitlines()[0] if str(exc) else ""
        raise ValueError(
            f"{path}: not a MaskablePPO model ({type(exc).__name__}: {first})"
        ) from None
    obs_shape = tuple(getattr(model.observation_space, "shape", None) or ())
    n = getattr(model.action_space, "n", None)
    if obs_shape != (want,):
        raise ValueError(
            f"{path} takes observations of shape {obs_shape}, but {ruleset} with "
            f"{num_players} players gives ({want},): a model of other rules or player count"
        )
    if n is None or int(n) != n_actions:
        raise ValueError(
            f"{path} has {n} actions, but {ruleset} has {n_actions}: a model of other rules"
        )
    return Policy(
        name=f"{PREFIX}{path}",
        path=path,
        model=model,
        ruleset=ruleset,
        num_players=num_players,
        observation_size=want,
        n_actions=int(n),
    )
