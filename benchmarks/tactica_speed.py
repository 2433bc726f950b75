"""TACTICA kernel speed: in-kernel self-play decisions/s over whole wars (the ruleset's
play_chunk, heuristic against random_fighter, WARS wars per timed call, the default
threads), advanced and basic game; optionally the same figures of a baseline checkout,
measured alternately round by round in one run (a shared machine's load then weighs on
both alike), and the cold compile of each start-up path (harness.py's start worker in a
fresh process with an empty numba cache).

    PYTHONPATH=. python -m benchmarks.tactica_speed --rounds 3 --baseline /tmp/base --cold

Writes benchmarks/results/tactica_speed_<UTC date>_<short commit>.json and .md (machine,
commit, command, load averages). Speed is measured here only; tests assert none.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WARS = 1000  # wars per timed play_chunk call (the measurement)
GAMES = ("advanced", "basic")
PATHS = ("selfplay", "aec", "batch")
TARGET_DECISIONS_S = 500_000  # the target: advanced game, 2 threads
TARGET_COLD_S = 60.0


def worker_selfplay(game: str, reps: int) -> dict[str, Any]:
    """In this process (PYTHONPATH = the checkout measured): reps timed calls of 1000 wars."""
    import numba
    import numpy as np

    from envs import get_ruleset

    rs = get_ruleset("tactica", options={"game": game})
    S = rs.allocate(WARS, 2)
    ids = np.array([rs.agent_id("heuristic"), rs.agent_id("random_fighter")], dtype=np.int8)
    rs.play_chunk(S[:2], rs.tables_batch, 0, np.arange(2), ids)  # compile or load
    rates, decisions = [], 0
    for _ in range(reps):
        t = time.perf_counter()
        res = rs.play_chunk(S, rs.tables_batch, 0, np.arange(WARS), ids)
        dt = time.perf_counter() - t
        decisions = int(res.length.sum())
        rates.append(decisions / dt)
    return {
        "game": game,
        "threads": numba.get_num_threads(),
        "decisions_per_call": decisions,
        "decisions_s": rates,
        # the wars themselves: equal between checkouts when no rule or RNG draw changed
        "winner_sum": int(res.winner.sum()),
        "points_sum": int(res.score.sum()),
    }


def _run(cmd: list[str], checkout: Path, extra_env: dict[str, str]) -> dict[str, Any]:
    env = dict(os.environ, PYTHONPATH=str(checkout), **extra_env)
    env.pop("NUMBA_DISABLE_JIT", None)
    proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    if proc.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed in {checkout}:\n{proc.stderr[-3000:]}")
    return json.loads(proc.stdout.strip().splitlines()[-1])


def selfplay(checkout: Path, game: str, reps: int) -> dict[str, Any]:
    """reps timed calls in a fresh process on `checkout`. The numba cache is the usual one
    (envs/core/jit.py keys its folders by a hash of the sources, so checkouts do not mix);
    a compile on the first run is outside the timing."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", game, "--reps", str(reps)]
    return _run(cmd, checkout, {})


def cold_compile(checkout: Path, path: str) -> dict[str, Any]:
    """One path started with an empty numba cache (harness.py's start worker, which the
    baseline checkout has too)."""
    params = {"ruleset": "tactica", "players": 2, "agent": "heuristic", "path": path}
    cmd = [sys.executable, str(checkout / "benchmarks" / "harness.py"), "--worker", "start"]
    cmd += ["--worker-params", json.dumps(params)]
    with tempfile.TemporaryDirectory(prefix="tt-cold-") as cache:
        out = _run(cmd, checkout, {"NUMBA_CACHE_DIR": cache})
    return {"path": path, "compile_s": out["compile_s"], "first_s": out["first_s"]}


def _median(xs: list[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2


def to_markdown(r: dict[str, Any]) -> str:
    m, g = r["machine"], r["git"]
    lines = [
        f"# TACTICA kernel speed ({r['date']}, commit {g['short']}"
        f"{' + changes' if g['dirty'] else ''})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, numba "
        f"{m['versions']['numba']}. Load average at start / end: {r['load_start']} / "
        f"{r['load_end']} (a shared machine: read the figures next to the load).",
        f"Command: `{r['command']}`",
        "",
        f"In-kernel self-play, heuristic vs random_fighter, {WARS} wars per call, median of "
        "the calls (rounds alternate between the checkouts):",
        "",
        "| game | checkout | threads | decisions/call | decisions/s (median) | all calls |",
        "|---|---|---|---|---|---|",
    ]
    for game in r["games"]:
        for who, res in r["selfplay"][game].items():
            rates = [x for round_ in res for x in round_["decisions_s"]]
            lines.append(
                f"| {game} | {who} | {res[0]['threads']} | {res[0]['decisions_per_call']:,} | "
                f"{_median(rates):,.0f} | {', '.join(f'{x:,.0f}' for x in rates)} |"
            )
    lines += ["", f"Target: >= {TARGET_DECISIONS_S:,} decisions/s (advanced game, 2 threads)."]
    if r["cold"]:
        lines += [
            "",
            "Cold compile (empty numba cache, one fresh process per path; harness.py start "
            "worker, compile = first calls - the same calls again):",
            "",
            "| path | checkout | compile s |",
            "|---|---|---|",
        ]
        for path in PATHS:
            for who, res in r["cold"][path].items():
                lines.append(f"| {path} | {who} | {res['compile_s']:.1f} |")
        lines += ["", f"Target: <= {TARGET_COLD_S:.0f} s per path."]
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--rounds", type=int, default=3, help="alternating rounds per checkout")
    p.add_argument("--reps", type=int, default=2, help="timed calls per round")
    p.add_argument("--baseline", type=Path, help="another checkout measured alternately")
    p.add_argument("--cold", action="store_true", help="also the cold compile of each path")
    p.add_argument("--games", default=",".join(GAMES), help="advanced,basic")
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    p.add_argument("--worker", choices=GAMES, help=argparse.SUPPRESS)
    args = p.parse_args(argv)
    if args.worker:
        print(json.dumps(worker_selfplay(args.worker, args.reps)))
        return 0
    games = [g for g in args.games.split(",") if g]
    bad = [g for g in games if g not in GAMES]
    if bad or args.rounds < 1 or args.reps < 1:
        p.error(f"--games takes {', '.join(GAMES)}; --rounds and --reps at least 1")
    if args.baseline is not None and not (args.baseline / "envs" / "tactica").is_dir():
        p.error(f"--baseline {args.baseline} is no tacsim checkout with envs/tactica")
    sys.path.insert(0, str(ROOT))
    from benchmarks.harness import git_info, load_average, machine_info

    checkouts = {"this": ROOT}
    if args.baseline is not None:
        checkouts["baseline"] = args.baseline.resolve()
    report: dict[str, Any] = {
        "schema": "tacsim-tactica-speed/1",
        "date": _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "command": "python -m benchmarks.tactica_speed " + " ".join(argv or sys.argv[1:]),
        "machine": machine_info(),
        "git": git_info(),
        "checkouts": {k: str(v) for k, v in checkouts.items()},
        "games": games,
        "load_start": load_average(),
        "selfplay": {g: {who: [] for who in checkouts} for g in games},
        "cold": {},
    }
    for rnd in range(args.rounds):
        for game in games:
            for who, path in checkouts.items():
                res = selfplay(path, game, args.reps)
                res["load"] = load_average()
                report["selfplay"][game][who].append(res)
                print(f"round {rnd} {game} {who}: {[round(x) for x in res['decisions_s']]}")
    if args.cold:
        for path in PATHS:
            report["cold"][path] = {}
            for who, checkout in checkouts.items():
                report["cold"][path][who] = cold_compile(checkout, path)
                print(f"cold {path} {who}: {report['cold'][path][who]['compile_s']:.1f} s")
    report["load_end"] = load_average()
    args.out.mkdir(parents=True, exist_ok=True)
    stem = f"tactica_speed_{_dt.datetime.now(_dt.UTC):%Y-%m-%d}_{report['git']['short']}"
    (args.out / f"{stem}.json").write_text(json.dumps(report, indent=1) + "\n")
    (args.out / f"{stem}.md").write_text(to_markdown(report))
    print(to_markdown(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
