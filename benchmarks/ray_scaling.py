"""Self-play on the Ray backend against the local backend, measured in one run.

    PYTHONPATH=. python benchmarks/ray_scaling.py            # ~3 minutes on 2 cores
    PYTHONPATH=. python benchmarks/ray_scaling.py --quick    # tiny sizes, proves it works

Every figure goes through `agents.selfplay.run_selfplay`, the code behind `tacsim selfplay`
(same seed, games and chunk size for every backend; each run into a fresh folder):

- ``local``: the local backend on all numba threads;
- ``ray_1`` / ``ray_2``: `--backend ray` on a local Ray instance of 1 and 2 workers (one
  numba thread each). The instance is started apart (``ray_start_s``) and is not in games/s;
  the workers' own start (process, import, numba cache load) is. ``in_task_games_per_s`` is
  games over the seconds spent inside the tasks' play (summed over workers). Each Ray run's
  records are checked equal to the local run's.
- ``tasks``: many tiny chunks (200 chunks of 10 games) on 2 workers and on the local backend
  (1 thread): seconds per task beyond play time = (wall x workers - play seconds inside the
  tasks) / tasks, i.e. the worker time a task costs that is not playing (scheduling, the
  round trip to the driver, the driver writing the file; a worker's one-time kernel load is
  apart, ``worker_warmup_seconds``); and tasks/s the driver sustained.
- ``results``: bytes per game of the Parquet files, of the records table in memory (what a
  task returns), and of that table pickled (what Ray ships); the driver's time to write one
  chunk (the part of the run that does not spread over workers).

Writes benchmarks/results/ray_<date>_<commit>[_quick].json and .md (machine, commit, exact
command, load averages). Measuring 100 machines is not possible here; docs/scaling.md works
from these figures.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import pickle
import shutil
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import (  # noqa: E402
    _write,
    git_info,
    load_average,
    machine_info,
    setup_numba_cache,
)

FULL = {"games": 200_000, "chunk": 10_000, "tiny_chunks": 200, "tiny_games": 10}
QUICK = {"games": 4_000, "chunk": 1_000, "tiny_chunks": 20, "tiny_games": 10}


def _log(msg: str) -> None:
    print(f"[ray bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def _run(params, folder: Path, **kw) -> dict[str, Any]:
    from agents.selfplay import run_selfplay

    t0 = time.perf_counter()
    o = run_selfplay(params, folder, progress=False, **kw)
    wall = time.perf_counter() - t0
    if not o.complete:
        raise RuntimeError(f"run into {folder} did not complete")
    return {
        "games": o.games_played,
        "seconds": o.seconds,
        "games_per_s": o.games_per_s,
        "warmup_s": o.warmup_seconds,
        "call_wall_s": wall,
        "load_average": load_average(),
    }


def _ray_stats(row: dict[str, Any], workers: int) -> dict[str, Any]:
    from agents import ray_backend

    s = ray_backend.LAST_STATS
    row.update(
        tasks=s.tasks,
        play_seconds_in_tasks=s.play_seconds,
        in_task_games_per_s=s.rows / s.play_seconds if s.play_seconds else None,
        worker_warmup_seconds=s.warmup_seconds,
        seconds_per_task_beyond_play=(row["seconds"] * workers - s.play_seconds - s.warmup_seconds)
        / s.tasks,
        tasks_per_s=s.tasks / row["seconds"],
        table_bytes=s.table_bytes,
        rows=s.rows,
    )
    return row


def _same(a: Path, b: Path) -> bool:
    from agents import records

    return records.read_games(a).equals(records.read_games(b))


def measure(sizes: dict[str, int], seed: int, tmp: Path) -> dict[str, Any]:
    from agents import ray_backend, records
    from agents.selfplay import _play_chunk, make_context, make_params

    params = make_params("tac", 2, sizes["games"], "random,random", seed, sizes["chunk"])
    tiny = make_params(
        "tac", 2, sizes["tiny_chunks"] * sizes["tiny_games"], "random,random", seed,
        sizes["tiny_games"],
    )  # fmt: skip
    rows: dict[str, Any] = {}

    _log("warm-up: kernels compiled or loaded (a 100-game local run)")
    warm = make_params("tac", 2, 100, "random,random", seed, 100)
    rows["kernel_warmup"] = _run(warm, tmp / "warm")

    _log(f"local backend, all threads: {params.games:,} games, chunk {params.chunk:,}")
    rows["local"] = _run(params, tmp / "local")

    for workers in (2, 1):
        _log(f"ray, {workers} worker(s): start a local instance")
        session = ray_backend.connect(None, workers)
        try:
            start_s = session.start_seconds
            _log(f"ray, {workers} worker(s): {params.games:,} games")
            row = _run(params, tmp / f"ray_{workers}", backend="ray", workers=workers)
            row = _ray_stats(row, workers)
            row["ray_start_s"] = start_s
            row["records_equal_local"] = _same(tmp / f"ray_{workers}", tmp / "local")
            rows[f"ray_{workers}"] = row
            if workers == 2:
                _log(f"ray, 2 workers: {tiny.n_chunks} tasks of {tiny.chunk} games")
                t = _run(tiny, tmp / "tiny_ray", backend="ray", workers=2)
                rows["tasks_ray_2"] = _ray_stats(t, 2)
        finally:
            session.close()

    _log(f"local backend, 1 thread: {tiny.n_chunks} chunks of {tiny.chunk} games")
    t = _run(tiny, tmp / "tiny_local", threads=1)
    t["seconds_per_chunk"] = t["seconds"] / tiny.n_chunks
    rows["tasks_local_1"] = t
    rows["tasks_ray_2"]["records_equal_local"] = _same(tmp / "tiny_ray", tmp / "tiny_local")

    _log("result volume and the driver's write time")
    files = sorted(records.finished_chunks(tmp / "local").values())
    parquet = sum(p.stat().st_size for p in files)
    table = _play_chunk(make_context(params), params.chunk_indices(0))  # a task's result
    pickled = len(pickle.dumps(table, protocol=5))
    writes = []
    (tmp / "writes").mkdir()
    for i in range(5):
        t0 = time.perf_counter()
        records.write_chunk(tmp / "writes", i, table)
        writes.append(time.perf_counter() - t0)
    write_s = sorted(writes)[len(writes) // 2]
    rows["results"] = {
        "parquet_bytes_per_game": parquet / params.games,
        "table_bytes_per_game": table.nbytes / table.num_rows,
        "pickled_bytes_per_game": pickled / table.num_rows,
        "parquet_bytes_per_million_games": parquet / params.games * 1e6,
        "pickled_bytes_per_million_games": pickled / table.num_rows * 1e6,
        "driver_write_s_per_chunk": write_s,
        "driver_write_games_per_s": params.chunk / write_s,
        "chunk": params.chunk,
    }
    return rows


def to_markdown(r: dict[str, Any]) -> str:
    m, g, x = r["machine"], r["git"], r["rows"]
    loc = x["local"]
    L = [
        f"# Ray backend scaling: tac{' (quick)' if r['quick'] else ''}: {r['started_utc']}",
        "",
        f"Command: `{r['command']}`",
        "",
        "| | |",
        "|---|---|",
        f"| commit | `{g['commit']}` ({g.get('branch')})"
        f"{' (working tree has uncommitted changes)' if g['dirty'] else ''} |",
        f"| CPU | {m['cpu']} ({m['cores']} cores) |",
        f"| Python, Ray | {m['python']}, ray {r['ray_version']} |",
        f"| load average (1, 5, 15 min) | start {r['load_average_start']}, "
        f"end {r['load_average_end']} |",
        f"| sizes | {r['sizes']['games']:,} games (TAC, 2 players, random), chunk "
        f"{r['sizes']['chunk']:,}, seed {r['seed']} |",
        "",
        "| backend | games/s | vs local | seconds | Ray start s | workers' kernel load s "
        "| in-task games/s | records = local |",
        "|---|---|---|---|---|---|---|---|",
        f"| local (all threads) | {loc['games_per_s']:,.0f} | 1.00 | {loc['seconds']:.2f} "
        "| - | - | - | - |",
    ]
    for w in (1, 2):
        row = x[f"ray_{w}"]
        L.append(
            f"| ray, {w} worker{'s' * (w > 1)} | {row['games_per_s']:,.0f} | "
            f"{row['games_per_s'] / loc['games_per_s']:.2f} | {row['seconds']:.2f} | "
            f"{row['ray_start_s']:.1f} | {row['worker_warmup_seconds']:.1f} | "
            f"{row['in_task_games_per_s']:,.0f} | "
            f"{row['records_equal_local']} |"
        )
    tr, tl, res = x["tasks_ray_2"], x["tasks_local_1"], x["results"]
    L += [
        "",
        f"Per-task cost ({tr['tasks']} tasks of {r['sizes']['tiny_games']} games, 2 workers): "
        f"{tr['seconds_per_task_beyond_play'] * 1e3:.1f} ms of worker time per task beyond "
        f"play; the driver sustained {tr['tasks_per_s']:.0f} tasks/s "
        f"(local backend, 1 thread, same chunks: {tl['seconds_per_chunk'] * 1e3:.1f} ms per "
        f"chunk, play and write). Records equal local: {tr['records_equal_local']}.",
        "",
        "| result volume | bytes per game | per million games |",
        "|---|---|---|",
        f"| Parquet on disk (zstd) | {res['parquet_bytes_per_game']:.1f} | "
        f"{res['parquet_bytes_per_million_games'] / 1e6:.1f} MB |",
        f"| records table in memory (a task's result) | {res['table_bytes_per_game']:.1f} | "
        f"{res['table_bytes_per_game']:.0f} MB |",
        f"| that table pickled (what Ray ships) | {res['pickled_bytes_per_game']:.1f} | "
        f"{res['pickled_bytes_per_million_games'] / 1e6:.1f} MB |",
        "",
        f"Driver write of one {res['chunk']:,}-game chunk: "
        f"{res['driver_write_s_per_chunk'] * 1e3:.1f} ms "
        f"({res['driver_write_games_per_s']:,.0f} games/s from one driver thread).",
        "",
    ]
    return "\n".join(L)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--quick", action="store_true", help="tiny sizes (proves the bench works)")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--numba-cache", default="auto", help="auto (tacsim's) or a folder")
    p.add_argument("--out-dir", type=Path, default=ROOT / "benchmarks" / "results")
    args = p.parse_args(argv)
    try:
        import ray
    except ImportError:
        print("ray_scaling: needs Ray: pip install 'tacsim[ray]'", file=sys.stderr)
        return 2
    cache = setup_numba_cache(args.numba_cache)
    sizes = QUICK if args.quick else FULL
    started = _dt.datetime.now(_dt.UTC).strftime("%Y-%m-%dT%H:%M:%SZ")
    report: dict[str, Any] = {
        "schema": 1,
        "started_utc": started,
        "command": "python benchmarks/ray_scaling.py "
        + " ".join(sys.argv[1:] if argv is None else argv),
        "quick": args.quick,
        "seed": args.seed,
        "sizes": sizes,
        "machine": machine_info(),
        "git": git_info(),
        "ray_version": ray.__version__,
        "numba_cache": cache,
        "load_average_start": load_average(),
    }
    tmp = Path(tempfile.mkdtemp(prefix="tacsim_ray_bench_"))
    try:
        report["rows"] = measure(sizes, args.seed, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    report["load_average_end"] = load_average()
    stem = f"ray_{started[:10]}_{report['git']['short']}" + ("_quick" if args.quick else "")
    args.out_dir.mkdir(parents=True, exist_ok=True)
    md = to_markdown(report)
    _write(args.out_dir / f"{stem}.json", json.dumps(report, indent=2) + "\n")
    _write(args.out_dir / f"{stem}.md", md)
    print(md)
    print(f"wrote {args.out_dir / stem}.json and .md", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
