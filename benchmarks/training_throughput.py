"""Env steps/s inside training: the AEC path against BatchVecEnv, measured in one run.

    python benchmarks/training_throughput.py                     # ~3-5 minutes on 2 cores
    python benchmarks/training_throughput.py --quick             # tiny sizes, proves it works

Both paths are what `tacsim train` builds (agents/training.py `make_vec_env`) for the same
ruleset, opponent and number of envs N:

- ``aec``: a DummyVecEnv of N ``ActionMasker(Monitor(SingleAgentEnv))``: one game per env,
  the opponent's decisions played one `aec_step` kernel call at a time from Python;
- ``batch``: ``VecMonitor(BatchVecEnv)``: N games per kernel call, the opponents played
  inside ``opponents_batch``.

Two figures per path, in learner steps (env steps: one learner decision in one env; the
opponents' decisions in between are not counted):

- ``raw``: ``venv.step(random legal actions)`` with the masks fetched as MaskablePPO fetches
  them (``get_action_masks(venv)``, i.e. ``env_method("action_masks")``), no learner; the
  masked random choice is vectorised numpy, timed with the step. Rounds alternate aec,
  batch, aec, batch, ... so both see the same machine load; the figure is total steps over
  total time.
- ``learn``: ``MaskablePPO(...).learn(T)`` with the training defaults (MlpPolicy 256-256,
  n_steps 128 per env, batch 512, 5 epochs, torch on one thread), steps/s = timesteps / wall
  time of ``learn``: the learner's cost (policy forward per step, the PPO updates) included.
  A short ``learn`` first (untimed) warms up torch and the kernels.

Writes benchmarks/results/training_<ruleset>_<date>_<commit>.json and .md (machine,
commit, exact command, load averages).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import git_info, load_average, machine_info  # noqa: E402


def _random_masked(num_envs: int, n_actions: int, seed: int):
    import numpy as np

    rng = np.random.default_rng(seed)
    bounds = np.arange(num_envs + 1, dtype=np.int64) * n_actions

    def choose(masks) -> np.ndarray:
        flat = np.flatnonzero(np.ascontiguousarray(masks, dtype=np.bool_))
        edges = np.searchsorted(flat, bounds)
        starts = edges[:-1]
        counts = edges[1:] - starts
        return flat[starts + (rng.random(num_envs) * counts).astype(np.int64)] - bounds[:-1]

    return choose


def _make(kind: str, args: argparse.Namespace):
    from agents.training import make_vec_env

    return make_vec_env(
        args.opponent, args.num_envs, args.seed, "dummy", ruleset=args.ruleset, vec=kind
    )


def raw_round(venv, choose, seconds: float) -> tuple[int, float, int]:
    """Step `venv` with random legal actions for about `seconds`; (steps, time, games)."""
    from sb3_contrib.common.maskable.utils import get_action_masks

    steps = games = 0
    t0 = time.perf_counter()
    while True:
        masks = get_action_masks(venv)
        _, _, dones, _ = venv.step(choose(masks))
        steps += venv.num_envs
        games += int(dones.sum())
        elapsed = time.perf_counter() - t0
        if elapsed >= seconds:
            return steps, elapsed, games


def bench_raw(args: argparse.Namespace) -> dict[str, Any]:
    from envs.registry import get

    n_actions = get(args.ruleset).n_actions
    envs = {kind: _make(kind, args) for kind in ("aec", "batch")}
    out: dict[str, Any] = {}
    for kind, venv in envs.items():
        venv.reset()
        raw_round(venv, _random_masked(args.num_envs, n_actions, 1), 0.5)  # warm-up
        out[kind] = {"steps": 0, "seconds": 0.0, "games": 0}
    choosers = {kind: _random_masked(args.num_envs, n_actions, 2) for kind in envs}
    for _ in range(args.rounds):
        for kind, venv in envs.items():
            s, t, g = raw_round(venv, choosers[kind], args.seconds / args.rounds)
            out[kind]["steps"] += s
            out[kind]["seconds"] += t
            out[kind]["games"] += g
    for r in out.values():
        r["steps_per_s"] = round(r["steps"] / r["seconds"], 1)
        r["seconds"] = round(r["seconds"], 2)
    for venv in envs.values():
        venv.close()
    out["speedup"] = round(out["batch"]["steps_per_s"] / out["aec"]["steps_per_s"], 2)
    return out


def bench_learn(kind: str, args: argparse.Namespace) -> dict[str, Any]:
    from agents.training import TrainConfig, make_model

    config = TrainConfig(
        out=Path("."), timesteps=1, n_steps=args.n_steps, seed=args.seed, verbose=0
    )
    venv = _make(kind, args)
    model = make_model(venv, config)
    rollout = args.n_steps * args.num_envs
    model.learn(total_timesteps=rollout)  # warm-up: one rollout and one update
    t0 = time.perf_counter()
    before = model.num_timesteps
    model.learn(total_timesteps=args.learn_timesteps, reset_num_timesteps=False)
    seconds = time.perf_counter() - t0
    steps = model.num_timesteps - before
    venv.close()
    return {
        "timesteps": int(steps),
        "seconds": round(seconds, 2),
        "steps_per_s": round(steps / seconds, 1),
        "rollout_size": rollout,
    }


def to_markdown(r: dict[str, Any]) -> str:
    raw, learn = r["raw"], r["learn"]
    m, g = r["machine"], r["git"]
    lines = [
        f"# Training throughput: {r['ruleset']}, {r['num_envs']} envs, vs {r['opponent']}",
        "",
        f"- command: `{r['command']}`",
        f"- commit: {g['commit']} (dirty: {g['dirty']}); {r['utc']}",
        f"- machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
        f"numba {m['versions']['numba']}, torch {r['torch']} ({r['torch_threads']} thread)",
        f"- load average: start {r['load_start']}, end {r['load_end']} (shared machine)",
        "",
        "Learner steps per second (one learner decision in one env; opponents' decisions "
        "are played inside each step and not counted).",
        "",
        "| figure | AEC path (DummyVecEnv of SingleAgentEnv) | BatchVecEnv | ratio |",
        "|---|---|---|---|",
        f"| env stepping, random masked actions, no learner | {raw['aec']['steps_per_s']:,.0f} "
        f"| {raw['batch']['steps_per_s']:,.0f} | {raw['speedup']:.1f}x |",
        f"| inside `MaskablePPO.learn` (learner's cost included) | "
        f"{learn['aec']['steps_per_s']:,.0f} | {learn['batch']['steps_per_s']:,.0f} | "
        f"{learn['speedup']:.1f}x |",
        "",
        f"Raw: {raw['aec']['steps']:,} / {raw['batch']['steps']:,} steps in "
        f"{raw['aec']['seconds']} / {raw['batch']['seconds']} s ({r['rounds']} alternating "
        f"rounds each), {raw['aec']['games']} / {raw['batch']['games']} games finished. "
        f"Learn: {learn['aec']['timesteps']:,} / {learn['batch']['timesteps']:,} timesteps "
        f"in {learn['aec']['seconds']} / {learn['batch']['seconds']} s after a one-rollout "
        f"warm-up (n_steps {r['n_steps']} per env).",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="tac")
    p.add_argument("--opponent", default="random")
    p.add_argument("--num-envs", type=int, default=64)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--seconds", type=float, default=20.0, help="raw stepping time per path")
    p.add_argument("--rounds", type=int, default=4, help="alternating rounds of raw stepping")
    p.add_argument("--n-steps", type=int, default=128, help="PPO rollout length per env")
    p.add_argument(
        "--learn-timesteps", type=int, default=32768, help="timed learn() timesteps per path"
    )
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    p.add_argument("--quick", action="store_true", help="tiny sizes; writes *_quick files")
    args = p.parse_args(argv)
    if args.quick:
        args.num_envs, args.seconds, args.rounds = 8, 1.0, 1
        args.n_steps, args.learn_timesteps = 16, 128
    os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
    from agents.training import configure_torch

    threads = configure_torch(0)
    import torch

    command = "python benchmarks/training_throughput.py " + " ".join(
        sys.argv[1:] if argv is None else argv
    )
    report: dict[str, Any] = {
        "ruleset": args.ruleset,
        "opponent": args.opponent,
        "num_envs": args.num_envs,
        "seed": args.seed,
        "rounds": args.rounds,
        "n_steps": args.n_steps,
        "command": command.strip(),
        "utc": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ"),
        "machine": machine_info(),
        "git": git_info(),
        "torch": torch.__version__,
        "torch_threads": threads,
        "load_start": load_average(),
    }
    print("raw stepping ...", flush=True)
    report["raw"] = bench_raw(args)
    print(json.dumps(report["raw"]), flush=True)
    learn: dict[str, Any] = {}
    for kind in ("aec", "batch"):
        print(f"learn ({kind}) ...", flush=True)
        learn[kind] = bench_learn(kind, args)
        print(json.dumps(learn[kind]), flush=True)
    learn["speedup"] = round(learn["batch"]["steps_per_s"] / learn["aec"]["steps_per_s"], 2)
    report["learn"] = learn
    report["load_end"] = load_average()
    args.out.mkdir(parents=True, exist_ok=True)
    date = report["utc"][:10]
    stem = f"training_{args.ruleset}_{date}_{report['git']['short']}"
    if args.quick:
        stem += "_quick"
    (args.out / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
    md = to_markdown(report)
    (args.out / f"{stem}.md").write_text(md)
    print(md)
    print(f"written: {args.out / stem}.json, .md")
    return 0


if __name__ == "__main__":
    sys.exit(main())
