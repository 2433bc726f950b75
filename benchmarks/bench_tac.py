"""TAC benchmarks: every figure of issue 2 section 5, measured in one run.

Run from the repository root::

    python benchmarks/bench_tac.py            # full run, ~5 minutes on 2 cores
    python benchmarks/bench_tac.py --quick    # tiny sizes: proves the script works

(or `tacsim bench ...` once agents/cli.py registers :func:`add_parser`). It writes
``benchmarks/results/tac_<date>_<shortcommit>.json`` and ``.md`` plus ``latest.json`` /
``latest.md`` (a quick run writes ``..._quick`` files and leaves ``latest`` alone). The
figures, how each is measured and the targets are described in benchmarks/README.md.

Speed is measured here and only here: tests never assert timings (ARCHITECTURE.md 8-9).
Every comparison (AEC vs connect_four_v3, JIT vs NUMBA_DISABLE_JIT=1, 1 vs 2 threads) is
taken in the same run and reported as a ratio. Compile time is reported apart from run
time: every timed loop runs after a warm-up, and compile/start-up is measured in fresh
subprocesses.

The module imports only the standard library at the top, so the subprocess workers
(``--worker NAME``) time their own imports of numpy, numba and the kernels.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import os
import platform
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results"
SCHEMA = "tacsim-bench-tac/1"

# Issue 2, section 5: targets on the 2-core machine. Reported next to each figure, never
# asserted. "min": the figure must be at least the target; "max": at most.
TARGETS: dict[str, dict[str, Any]] = {
    "batch_games_per_s": {"op": "min", "value": 10_000, "text": ">= 10,000 games/s"},
    "batch_decisions_per_s": {
        "op": "min",
        "value": 2_000_000,
        "text": ">= 2,000,000 decisions/s",
    },
    "million_games_s": {"op": "max", "value": 120.0, "text": "< 120 s end to end"},
    "aec_vs_connect_four": {"op": "min", "value": 2.0, "text": ">= 2x connect_four_v3"},
    "jit_speedup": {"op": "min", "value": 100.0, "text": ">= 100x NUMBA_DISABLE_JIT=1"},
    "cached_start_s": {"op": "max", "value": 2.0, "text": "<= 2 s"},
    "bytes_per_game": {"op": "max", "value": 4096, "text": "<= 4 KB (4096 B)"},
    "peak_rss_100k_bytes": {"op": "max", "value": 1_000_000_000, "text": "<= 1 GB (10^9 B)"},
}

ACTION_CHOICE_DOC = (
    "Uniform among legal actions, vectorised over the batch in numpy: "
    "flat = flatnonzero(masks viewed as bool) lists every legal (game, action) pair as a "
    "sorted flat index, edges = searchsorted(flat, [0, N, 2N, ..., B*N]) gives each game's "
    "run of legal actions (starts = edges[:-1], counts = diff(edges)), and game b takes "
    "flat[starts[b] + floor(u_b * counts[b])] - b * N with u_b ~ U[0, 1) from one numpy "
    "Generator (N = N_ACTIONS). Its time is inside decisions/s (the env-only column "
    "excludes it). Rows with actions=kernel use the numba random agent instead "
    "(agents.tac.baselines.act_batch: one parallel kernel call picks every game's action from "
    "the game's own agent RNG)."
)


# --------------------------------------------------------------------------------------
# small helpers


def check_target(key: str, value: float | None) -> bool | None:
    """True/False against TARGETS[key]; None where there is no figure."""
    if value is None:
        return None
    t = TARGETS[key]
    return bool(value >= t["value"]) if t["op"] == "min" else bool(value <= t["value"])


def _subprocess_env(extra: dict[str, str] | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    env.pop("NUMBA_DISABLE_JIT", None)  # NUMBA_CACHE_DIR is inherited (setup_numba_cache)
    if extra:
        env.update(extra)
    return env


def run_worker(
    name: str, params: dict[str, Any], extra_env: dict[str, str] | None = None, timeout=1800
) -> dict[str, Any]:
    """Run `--worker name` in a fresh interpreter; returns its JSON plus `process_wall_s`."""
    cmd = [sys.executable, str(Path(__file__).resolve()), "--worker", name]
    cmd += ["--worker-params", json.dumps(params)]
    t0 = time.perf_counter()
    proc = subprocess.run(
        cmd,
        cwd=ROOT,
        env=_subprocess_env(extra_env),
        capture_output=True,
        text=True,
        timeout=timeout,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(
            f"benchmark worker {name!r} failed (exit {proc.returncode}):\n{proc.stderr[-3000:]}"
        )
    out = json.loads(proc.stdout.strip().splitlines()[-1])
    out["process_wall_s"] = wall
    return out


def machine_info() -> dict[str, Any]:
    import numba
    import numpy

    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    ram = None
    try:
        ram = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        pass
    versions: dict[str, str | None] = {"numpy": numpy.__version__, "numba": numba.__version__}
    for mod in ("pettingzoo", "gymnasium", "pyarrow"):
        try:
            versions[mod] = __import__(mod).__version__
        except ImportError:
            versions[mod] = None
    return {
        "cpu": cpu,
        "cores": os.cpu_count(),
        "numba_threads_available": numba.config.NUMBA_NUM_THREADS,
        "ram_bytes": ram,
        "os": platform.platform(),
        "python": platform.python_version(),
        "versions": versions,
        "hostname": platform.node(),
    }


def git_info() -> dict[str, Any]:
    def git(*args: str) -> str | None:
        try:
            r = subprocess.run(["git", *args], cwd=ROOT, capture_output=True, text=True, timeout=30)
        except (OSError, subprocess.TimeoutExpired):
            return None
        return r.stdout.strip() if r.returncode == 0 else None

    commit = git("rev-parse", "HEAD")
    status = git("status", "--porcelain")
    return {
        "commit": commit,
        "short": commit[:8] if commit else "nogit",
        "dirty": bool(status) if status is not None else None,
        "changed_paths": len(status.splitlines()) if status else 0,
    }


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def setup_numba_cache(choice: str) -> dict[str, Any]:
    """Where numba's cache is for this run and its subprocesses.

    tacsim keeps the cache in a folder per hash of the kernel sources (envs/core/jit.py),
    so an edit never runs stale compiled rules. "auto" uses that; a folder given here
    becomes the cache root (NUMBA_CACHE_DIR) instead. Must run before envs is imported."""
    if choice != "auto":
        Path(choice).mkdir(parents=True, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(Path(choice).resolve())
    from envs.core import jit

    return {
        "mode": "auto" if choice == "auto" else "folder",
        "dir": str(jit.CACHE_DIR),
        "source_hash": jit.SOURCE_HASH,
    }


# --------------------------------------------------------------------------------------
# the measured pieces (numpy, numba and the kernels are imported inside)


def random_actions_factory(num_envs: int, n_actions: int, seed: int) -> Callable:
    """The vectorised random agent of the BatchEnv figures (ACTION_CHOICE_DOC).

    The int8 0/1 mask is read through a bool view: numpy's nonzero has a fast path for
    bools (about 15x faster than on int8 here), and since flatnonzero is sorted, each
    game's legal actions are found by searchsorted instead of a second pass over the mask."""
    import numpy as np

    rng = np.random.default_rng(seed)
    bounds = np.arange(num_envs + 1, dtype=np.int64) * n_actions

    def choose(masks):
        flat = np.flatnonzero(masks.view(np.bool_))
        edges = np.searchsorted(flat, bounds)
        starts = edges[:-1]
        counts = edges[1:] - starts
        pick = starts + (rng.random(num_envs) * counts).astype(np.int64)
        return flat[pick] - bounds[:-1]

    return choose


class AecRandomLoop:
    """The issue's random-agent loop over one env, game after game.

    steps = env.step calls (including the None steps of finished agents), decisions = steps
    with an action. One untimed game first (warm-up: JIT, caches)."""

    def __init__(self, make_env: Callable, seed: int):
        import numpy as np

        self.np = np
        self.rng = np.random.default_rng(seed)
        self.env = make_env()
        self.seed = seed
        self.games = self.steps = self.decisions = 0
        self.seconds = 0.0
        self._one_game(seed + 10_000_000)

    def _one_game(self, game_seed: int) -> tuple[int, int]:
        env, np, rng = self.env, self.np, self.rng
        env.reset(seed=game_seed)
        steps = decisions = 0
        for _agent in env.agent_iter():
            obs, _reward, termination, truncation, _info = env.last()
            if termination or truncation:
                action = None
            else:
                legal = np.flatnonzero(obs["action_mask"])
                action = int(legal[rng.integers(legal.size)])
                decisions += 1
            env.step(action)
            steps += 1
        return steps, decisions

    def run_for(self, seconds: float, min_games: int = 1) -> None:
        """Whole games until `seconds` have passed (and at least `min_games`)."""
        t0 = time.perf_counter()
        played = 0
        while True:
            s, d = self._one_game(self.seed + self.games)
            self.steps += s
            self.decisions += d
            self.games += 1
            played += 1
            elapsed = time.perf_counter() - t0
            if played >= min_games and elapsed >= seconds:
                break
        self.seconds += elapsed

    def result(self) -> dict:
        return {
            "games": self.games,
            "steps": self.steps,
            "decisions": self.decisions,
            "seconds": self.seconds,
            "steps_per_s": self.steps / self.seconds,
            "decisions_per_s": self.decisions / self.seconds,
            "games_per_s": self.games / self.seconds,
            "steps_per_game": self.steps / self.games,
        }


def import_connect_four() -> tuple[Any, str | None]:
    """PettingZoo's connect_four_v3, and a note if pygame had to be stubbed.

    connect_four imports pygame at module level but calls it only when rendering; with
    render_mode=None the game logic never touches it, so a stub module changes nothing that
    is timed. The stub is used only when pygame is not installed, and the JSON says so."""
    try:
        from pettingzoo.classic import connect_four_v3

        return connect_four_v3, None
    except ModuleNotFoundError as e:
        if e.name != "pygame":
            raise
    import types

    sys.modules["pygame"] = types.ModuleType("pygame")
    from pettingzoo.classic import connect_four_v3

    return connect_four_v3, "pygame is not installed: a stub module was used (render only)"


def bench_aec(seconds: float, min_games: int, seed: int, rounds: int) -> dict:
    from envs.tac import tac_v1

    c4, c4_note = import_connect_four()
    tac = AecRandomLoop(lambda: tac_v1.env(num_players=2), seed)
    ref = AecRandomLoop(lambda: c4.env(), seed)
    # interleaved rounds, so both envs see the same (shared-machine) load
    for _ in range(rounds):
        tac.run_for(seconds / rounds, min_games)
        ref.run_for(seconds / rounds, min_games)
    tac_r, ref_r = tac.result(), ref.result()
    return {
        "loop": (
            "for agent in env.agent_iter(): obs, r, term, trunc, info = env.last(); "
            "action = None if term or trunc else uniform random legal from "
            'obs["action_mask"]; env.step(action)  -- both envs built by their env() '
            "(PettingZoo wrappers), reset(seed=k) for game k; timed in interleaved rounds "
            "(tac, connect four, tac, ...) of whole games"
        ),
        "rounds": rounds,
        "tac_v1": tac_r,
        "connect_four_v3": ref_r,
        "connect_four_note": c4_note,
        "ratio_steps_per_s": tac_r["steps_per_s"] / ref_r["steps_per_s"],
    }


def bench_batch_one(
    num_envs: int,
    threads: int,
    observations: bool,
    seconds: float,
    min_steps: int,
    warmup_steps: int,
    seed: int,
    chooser: str = "numpy",
) -> dict:
    """chooser: "numpy" (the vectorised random agent, ACTION_CHOICE_DOC) or "kernel" (the
    numba random agent over the whole batch in one call: agents.tac.baselines.act_batch)."""
    import numba
    import numpy as np

    from envs.tac.actions import N_ACTIONS
    from envs.tac.tac_v1 import BatchEnv

    env = BatchEnv(num_envs, 2, seed, observations=observations, threads=threads)
    if chooser == "kernel":
        from agents.tac.baselines import act_batch

        out = np.zeros(num_envs, dtype=np.int64)

        def choose(_masks):
            return act_batch(env, "random", out)
    else:
        choose = random_actions_factory(num_envs, N_ACTIONS, seed)
    st = env.reset()
    for _ in range(warmup_steps):
        st = env.step(choose(st.action_mask))
    steps = finished = 0
    t_choose = t_step = 0.0
    t0 = time.perf_counter()
    while True:
        t1 = time.perf_counter()
        actions = choose(st.action_mask)
        t2 = time.perf_counter()
        st = env.step(actions)
        t3 = time.perf_counter()
        t_choose += t2 - t1
        t_step += t3 - t2
        finished += int(st.terminated.sum())
        steps += 1
        if steps >= min_steps and t3 - t0 >= seconds:
            break
    elapsed = t3 - t0
    decisions = steps * num_envs
    return {
        "num_envs": num_envs,
        "threads": numba.get_num_threads(),
        "observations": observations,
        "actions": chooser,
        "steps": steps,
        "decisions": decisions,
        "games_finished": finished,
        "games_finished_per_s": finished / elapsed,
        "seconds": elapsed,
        "decisions_per_s": decisions / elapsed,
        "env_only_decisions_per_s": decisions / t_step,
        "choose_fraction": t_choose / elapsed,
    }


def _run_selfplay(tables, seed: int, first_game: int, games: int):
    """Games first_game.. of `seed`, random vs random, one run_chunk call (all threads set)."""
    import numpy as np

    from agents.tac.selfplay import run_chunk
    from envs.tac.state import allocate

    S = allocate(games, 2)
    idx = np.arange(first_game, first_game + games, dtype=np.int64)
    agents = np.zeros(2, dtype=np.int8)  # agent id 0 = random, in both seats
    return run_chunk(S, tables.arrays_batch, seed, idx, agents, tables.n_unit_types)


def bench_selfplay_one(threads: int, games: int, seed: int) -> dict:
    import numba

    from envs.tac.tables import default_tables

    tables = default_tables()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    _run_selfplay(tables, seed, 10_000_000, 4)  # warm-up (compiled already: cache, threads)
    t0 = time.perf_counter()
    res = _run_selfplay(tables, seed, 0, games)
    elapsed = time.perf_counter() - t0
    decisions = int(res.length.sum())
    return {
        "threads": numba.get_num_threads(),
        "agents": "random,random",
        "games": games,
        "decisions": decisions,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "mean_game_length": decisions / games,
    }


def selfplay_lengths(seed: int, games: int) -> tuple[list[int], float]:
    """Decisions per game of games 0..games-1 (random vs random) and the seconds the
    run_chunk call took: the JIT/no-JIT comparison (tables loaded outside the timing)."""
    from envs.tac.tables import default_tables

    tables = default_tables()
    t0 = time.perf_counter()
    res = _run_selfplay(tables, seed, 0, games)
    return [int(x) for x in res.length], time.perf_counter() - t0


def warm_kernels(seed: int) -> float:
    """Load (or compile) every kernel the timed loops call, outside any timing: BatchEnv
    with and without observations until a game ends (auto-reset), and run_chunk."""
    from envs.tac.actions import N_ACTIONS
    from envs.tac.tac_v1 import BatchEnv

    t0 = time.perf_counter()
    for obs in (True, False):
        env = BatchEnv(4, 2, seed, observations=obs)
        choose = random_actions_factory(4, N_ACTIONS, seed)
        st = env.reset()
        for _ in range(100_000):
            st = env.step(choose(st.action_mask))
            if st.terminated.any():
                break
    selfplay_lengths(seed, 2)
    return time.perf_counter() - t0


def _cli_selfplay_available() -> bool:
    try:
        from agents import cli  # noqa: F401
    except Exception:
        return False
    return hasattr(cli, "main")


def million_via_cli(games: int, seed: int, out_dir: Path) -> dict:
    """`tacsim selfplay` end to end in a fresh process (start-up, compile cache, write)."""
    args = ["selfplay", "--ruleset", "tac", "--players", "2", "--games", str(games)]
    args += ["--agents", "random,random", "--seed", str(seed), "--out", str(out_dir)]
    t0 = time.perf_counter()
    proc = subprocess.run(
        [sys.executable, "-m", "agents.cli", *args],
        cwd=ROOT,
        env=_subprocess_env(),
        capture_output=True,
        text=True,
        timeout=3600,
    )
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        raise RuntimeError(f"tacsim selfplay exited {proc.returncode}: {proc.stderr[-2000:]}")
    return {
        "method": "`tacsim selfplay` (python -m agents.cli) in a fresh process, default "
        "chunking, all threads",
        "command": "tacsim " + " ".join(args[:-1] + ["<tmpdir>"]),
        "seconds": wall,
        "stdout_tail": proc.stdout[-1500:],
    }


def million_via_run_chunk(games: int, seed: int, out_dir: Path, chunk: int = 65_536) -> dict:
    """run_chunk over chunks on all threads, each chunk appended to one Parquet file."""
    import numba
    import numpy as np
    import pyarrow as pa
    import pyarrow.parquet as pq

    from agents.tac.selfplay import run_chunk
    from envs.tac.state import allocate
    from envs.tac.tables import default_tables

    numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    tables = default_tables()
    U = tables.n_unit_types
    P = 2
    agents = np.zeros(P, dtype=np.int8)
    path = out_dir / "games.parquet"
    t0 = time.perf_counter()
    writer = None
    done = 0
    S = allocate(min(chunk, games), P)
    while done < games:
        n = min(chunk, games - done)
        if n != len(S):
            S = allocate(n, P)
        idx = np.arange(done, done + n, dtype=np.int64)
        r = run_chunk(S, tables.arrays_batch, seed, idx, agents, U)
        cols = {
            "game_index": pa.array(idx),
            "seed": pa.array(np.full(n, seed, dtype=np.int64)),
            "players": pa.array(np.full(n, P, dtype=np.int8)),
            "winner": pa.array(r.winner),
            "length": pa.array(r.length),
            "rounds": pa.array(r.rounds),
        }
        for s in range(P):
            cols[f"agent_{s}"] = pa.array(r.agents[:, s])
            cols[f"vp_{s}"] = pa.array(r.victory_points[:, s])
            cols[f"reward_{s}"] = pa.array(r.rewards[:, s])
            cols[f"dealt_{s}"] = pa.FixedSizeListArray.from_arrays(
                pa.array(np.ascontiguousarray(r.dealt[:, s, :U]).ravel()), U
            )
        table = pa.table(cols)
        if writer is None:
            writer = pq.ParquetWriter(path, table.schema)
        writer.write_table(table)
        done += n
    writer.close()
    wall = time.perf_counter() - t0
    rows = pq.ParquetFile(path).metadata.num_rows
    return {
        "method": "run_chunk (in process, all threads) + pyarrow ParquetWriter, chunks of "
        f"{chunk} games (fallback: `tacsim selfplay` unavailable or failed)",
        "seconds": wall,
        "rows_written": rows,
        "file_bytes": path.stat().st_size,
    }


def bench_million(games: int, seed: int) -> dict:
    out = Path(tempfile.mkdtemp(prefix="tacsim_bench_million_"))
    try:
        result: dict[str, Any]
        cli_error = None
        if _cli_selfplay_available():
            try:
                # a small run first, so kernels the CLI compiles on its own are in the cache
                # and the timed run is start-up + play + write, not compile
                warm_dir = out / "warmup"
                t0 = time.perf_counter()
                million_via_cli(100, seed, warm_dir)
                warm_s = time.perf_counter() - t0
                shutil.rmtree(warm_dir, ignore_errors=True)
                result = million_via_cli(games, seed, out / "run")
                result["warmup_run_s"] = warm_s
            except Exception as e:  # fall back: the figure is still wanted
                cli_error = str(e)[-500:]
                shutil.rmtree(out, ignore_errors=True)
                out.mkdir()
                result = million_via_run_chunk(games, seed, out)
        else:
            result = million_via_run_chunk(games, seed, out)
        result["cli_error"] = cli_error
        result["games"] = games
        result["games_per_s"] = games / result["seconds"]
        result["bytes_written"] = sum(p.stat().st_size for p in out.rglob("*") if p.is_file())
        return result
    finally:
        shutil.rmtree(out, ignore_errors=True)


# --------------------------------------------------------------------------------------
# subprocess workers


def worker_nojit(p: dict) -> dict:
    """Under NUMBA_DISABLE_JIT=1: the same self-play kernel and BatchEnv loop."""
    import warnings

    import numpy as np

    # the RNG's uint64 arithmetic wraps on purpose; plain numpy warns about it
    warnings.simplefilter("ignore", RuntimeWarning)
    import numba

    assert numba.config.DISABLE_JIT, "NUMBA_DISABLE_JIT=1 was not set"
    from envs.tac.tac_v1 import BatchEnv  # noqa: F401  (imports outside the timing)

    lengths, sp_s = selfplay_lengths(p["seed"], p["games"])
    b = bench_batch_one(p["num_envs"], 1, True, 0.0, p["steps"], 1, p["seed"])
    return {
        "disable_jit": True,
        "selfplay": {
            "games": p["games"],
            "decisions": int(np.sum(lengths)),
            "seconds": sp_s,
            "games_per_s": p["games"] / sp_s,
            "decisions_per_s": float(np.sum(lengths)) / sp_s,
            "lengths": lengths,
        },
        "batch": b,
    }


def worker_start(p: dict) -> dict:
    """Import, make env, first step (AEC); then BatchEnv and optionally run_chunk.

    With NUMBA_CACHE_DIR set to an empty directory this is a cold compile; without it, a
    start with the normal (warm) cache."""
    t0 = time.perf_counter()
    import numpy as np

    from envs.tac import tac_v1

    t_import = time.perf_counter()
    env = tac_v1.env(num_players=2)
    env.reset(seed=0)
    t_env = time.perf_counter()
    mask = env.observe(env.agent_selection)["action_mask"]
    env.step(int(np.flatnonzero(mask)[0]))
    t_step = time.perf_counter()
    out = {
        "import_s": t_import - t0,
        "make_env_s": t_env - t_import,
        "first_step_s": t_step - t_env,
        "start_s": t_step - t0,
    }
    benv = tac_v1.BatchEnv(64, 2, 0)
    st = benv.reset()
    benv.step(np.argmax(st.action_mask, axis=1))
    t_batch = time.perf_counter()
    out["batch_first_step_s"] = t_batch - t_step
    if p.get("run_chunk"):
        from agents.tac.selfplay import run_chunk
        from envs.tac.state import allocate

        tables = benv.tables
        S = allocate(8, 2)
        run_chunk(
            S,
            tables.arrays_batch,
            0,
            np.arange(8, dtype=np.int64),
            np.array([0, 1], dtype=np.int8),
            tables.n_unit_types,
        )
        out["first_run_chunk_s"] = time.perf_counter() - t_batch
    out["total_s"] = time.perf_counter() - t0
    return out


def worker_memory(p: dict) -> dict:
    """Peak RSS of a process holding p['num_envs'] concurrent games, reset and stepped once."""
    import resource

    import numpy as np

    from envs.tac.actions import N_ACTIONS
    from envs.tac.tac_v1 import BatchEnv

    def rss_now() -> int | None:
        try:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None

    # warm the kernels on a tiny batch so the baseline includes the compiled code
    small = BatchEnv(2, 2, 0, observations=p["observations"])
    st = small.reset()
    small.step(np.argmax(st.action_mask, axis=1))

    def hwm() -> int | None:
        try:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None

    peak_life_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    # Linux: writing 5 to clear_refs resets the peak RSS (VmHWM), so the peak below is that
    # of the env phase, not of a compile (LLVM) that a stale cache may have caused above.
    try:
        Path("/proc/self/clear_refs").write_text("5")
        reset_ok = True
    except OSError:
        reset_ok = False
    base = rss_now()
    n = p["num_envs"]
    env = BatchEnv(n, 2, p["seed"], observations=p["observations"])
    st = env.reset()
    choose = random_actions_factory(n, N_ACTIONS, p["seed"])
    st = env.step(choose(st.action_mask))
    arrays = env.state.nbytes + env.masks.nbytes
    if p["observations"]:
        arrays += st.observation.nbytes
    peak_life = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    peak_env = hwm() if reset_ok else None
    return {
        "num_envs": n,
        "observations": p["observations"],
        "rss_before_bytes": base,
        "rss_after_bytes": rss_now(),
        "peak_rss_bytes": peak_env if peak_env is not None else peak_life,
        "peak_rss_scope": "env phase (VmHWM after clear_refs)"
        if peak_env is not None
        else "whole process (ru_maxrss)",
        # clear_refs also resets ru_maxrss, so the life peak is the larger of the two
        "peak_rss_process_life_bytes": max(peak_life, peak_life_before),
        "peak_rss_before_env_bytes": peak_life_before,
        "env_arrays_bytes": arrays,
    }


WORKERS: dict[str, Callable[[dict], dict]] = {
    "nojit": worker_nojit,
    "start": worker_start,
    "memory": worker_memory,
}


# --------------------------------------------------------------------------------------
# the run


def _median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def _log(msg: str, report: dict | None = None, section: str | None = None) -> None:
    """Progress on stderr; with a section name, the load average then goes in the report."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)
    if report is not None and section is not None:
        report.setdefault("load_average_by_section", {})[section] = load_average()


def run_benchmark(args: argparse.Namespace) -> dict:
    quick = args.quick
    seed = args.seed
    seconds = args.seconds if args.seconds is not None else (0.05 if quick else 2.0)
    sizes = args.batch_sizes or ("1,64" if quick else "1,64,1024,16384")
    batch_sizes = [int(x) for x in sizes.split(",")]
    threads_list = [int(x) for x in args.threads.split(",")]
    t_run = time.perf_counter()
    report: dict[str, Any] = {
        "schema": SCHEMA,
        "benchmark": "tac_v1, 2 players, random agents",
        "quick": quick,
        "command": " ".join([getattr(args, "prog", "python benchmarks/bench_tac.py"), *args.argv]),
        "started_utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "git": git_info(),
        "load_average_start": load_average(),
        "targets": TARGETS,
        "numba_cache": getattr(args, "numba_cache_info", None),
    }
    _log("machine info")
    report["machine"] = machine_info()

    from envs.tac.state import bytes_per_game

    report["state"] = {"bytes_per_game": bytes_per_game()}
    _log("warm-up (kernel cache load, or compile if the cache is stale)")
    report["warmup_s"] = warm_kernels(seed)
    import numba

    report["machine"]["numba_threading_layer"] = numba.threading_layer()

    # 1. in-kernel self-play first: it also gives the mean game length for games/s below
    _log("self-play (run_chunk)", report, "selfplay")
    sp_games = {1: 64, 2: 128} if quick else {1: 20_000, 2: 50_000}
    sp_rows = [bench_selfplay_one(t, sp_games.get(t, 128), seed) for t in threads_list]
    mean_len = sum(r["decisions"] for r in sp_rows) / sum(r["games"] for r in sp_rows)
    report["selfplay"] = {
        "kernel": "agents.tac.selfplay.run_chunk: each game start to end inside numba, "
        "prange over games, agent 0 (random, the game's own agent RNG) in both seats",
        "rows": sp_rows,
    }

    # 2. BatchEnv grid
    _log("BatchEnv grid", report, "batch")
    rows = []
    for threads in threads_list:
        for B in batch_sizes:
            for obs, chooser in ((True, "numpy"), (False, "numpy"), (False, "kernel")):
                # full run: 200 warm-up steps and at least 150 timed ones (both longer than
                # most games), so the window holds auto-resets at about their steady rate
                min_steps = 3 if quick else 150
                r = bench_batch_one(
                    B, threads, obs, seconds, min_steps, 2 if quick else 200, seed, chooser
                )
                r["games_per_s"] = r["decisions_per_s"] / mean_len
                rows.append(r)
                _log(
                    f"  B={B} threads={threads} obs={obs} actions={chooser}: "
                    f"{r['decisions_per_s']:,.0f} decisions/s"
                )
    report["batch"] = {
        "num_players": 2,
        "action_choice": ACTION_CHOICE_DOC,
        "games_per_s_definition": (
            "decisions/s divided by the mean decisions per game of random 2-player games "
            f"({mean_len:.2f}, from the self-play section of this run)"
        ),
        "mean_game_length": mean_len,
        "rows": rows,
    }

    # 3. AEC vs connect_four_v3
    _log("AEC env vs connect_four_v3", report, "aec")
    report["aec"] = bench_aec(
        seconds=0.2 if quick else max(seconds * 4, 1.0),
        min_games=1,
        seed=seed,
        rounds=1 if quick else 8,
    )

    # 4. JIT disabled
    _log("NUMBA_DISABLE_JIT=1 subprocess", report, "nojit")
    nj_games = 1 if quick else 6
    nojit = run_worker(
        "nojit",
        {"seed": seed, "games": nj_games, "num_envs": 64, "steps": 2 if quick else 20},
        {"NUMBA_DISABLE_JIT": "1"},
    )
    jit_lengths, _ = selfplay_lengths(seed, nj_games)
    sp1 = next((r for r in sp_rows if r["threads"] == 1), sp_rows[0])
    sp_best = max(sp_rows, key=lambda r: r["decisions_per_s"])
    b64 = next(
        (r for r in rows if r["num_envs"] == 64 and r["threads"] == 1 and r["observations"]),
        None,
    )
    report["nojit"] = {
        "worker": nojit,
        "same_results": jit_lengths == nojit["selfplay"]["lengths"],
        "jit_lengths": jit_lengths,
        "speedup_selfplay_1_thread": sp1["decisions_per_s"] / nojit["selfplay"]["decisions_per_s"],
        "speedup_selfplay_best": sp_best["decisions_per_s"] / nojit["selfplay"]["decisions_per_s"],
        "speedup_batch_64_1_thread": (
            b64["decisions_per_s"] / nojit["batch"]["decisions_per_s"] if b64 else None
        ),
    }

    # 5. compile: cold (empty NUMBA_CACHE_DIR) and cached start
    if args.skip_cold:
        report["compile_cold"] = {"skipped": "--skip-cold" if not quick else "--quick"}
    else:
        _log("cold compile subprocess (empty NUMBA_CACHE_DIR)", report, "compile_cold")
        cache = tempfile.mkdtemp(prefix="tacsim_bench_numba_cache_")
        try:
            cold = run_worker("start", {"run_chunk": True}, {"NUMBA_CACHE_DIR": cache})
        finally:
            shutil.rmtree(cache, ignore_errors=True)
        report["compile_cold"] = cold
    _log("cached start subprocesses", report, "compile_cached")
    runs = [run_worker("start", {}) for _ in range(1 if quick else 3)]
    report["compile_cached"] = {
        "runs": runs,
        "start_s_median": _median([r["start_s"] for r in runs]),
        "process_wall_s_median": _median([r["process_wall_s"] for r in runs]),
    }

    # 6. memory
    _log("memory subprocesses", report, "memory")
    n_mem = 2_000 if quick else 100_000
    report["memory"] = {
        "rows": [
            run_worker("memory", {"num_envs": n_mem, "seed": seed, "observations": obs})
            for obs in (True, False)
        ],
        "method": "a fresh process warms the kernels on a 2-game BatchEnv, resets its peak RSS "
        "(5 written to /proc/self/clear_refs), then holds a BatchEnv of num_envs 2-player games "
        "after reset() and one step() with random actions; peak RSS = VmHWM of the whole "
        "process (interpreter, numpy, numba, compiled kernels and the env's arrays); the "
        "process-life peak (ru_maxrss, imports and cache load included) is reported beside it",
    }

    # 7. a million games end to end, records written
    if quick or args.skip_million:
        report["million"] = {"skipped": "--quick" if quick else "--skip-million"}
    else:
        _log(f"{args.million_games:,} games end to end", report, "million")
        report["million"] = bench_million(args.million_games, seed)

    report["load_average_end"] = load_average()
    report["finished_utc"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    report["duration_s"] = time.perf_counter() - t_run
    report["summary"] = summarise(report)
    return report


def summarise(r: dict) -> list[dict]:
    """One row per target figure: the figure, its target and pass/fail (None: no target)."""

    def row(figure: str, value, unit: str, key: str | None, note: str = "") -> dict:
        return {
            "figure": figure,
            "value": value,
            "unit": unit,
            "target": TARGETS[key]["text"] if key else None,
            "pass": check_target(key, value) if key else None,
            "note": note,
        }

    out = []
    batch_rows = r["batch"]["rows"]
    best = max(batch_rows, key=lambda x: x["decisions_per_s"])
    cfg = (
        f"B={best['num_envs']}, threads={best['threads']}, observations={best['observations']}, "
        f"actions={best.get('actions', 'numpy')}"
    )
    out.append(
        row(
            "BatchEnv decisions/s (best)",
            best["decisions_per_s"],
            "1/s",
            "batch_decisions_per_s",
            cfg,
        )
    )
    out.append(row("BatchEnv games/s (best)", best["games_per_s"], "1/s", "batch_games_per_s", cfg))
    sp = max(r["selfplay"]["rows"], key=lambda x: x["decisions_per_s"])
    sp_cfg = f"run_chunk, threads={sp['threads']}"
    out.append(
        row(
            "In-kernel self-play decisions/s",
            sp["decisions_per_s"],
            "1/s",
            "batch_decisions_per_s",
            sp_cfg,
        )
    )
    out.append(
        row("In-kernel self-play games/s", sp["games_per_s"], "1/s", "batch_games_per_s", sp_cfg)
    )
    m = r["million"]
    if "seconds" in m:
        out.append(
            row(
                f"{m['games']:,} games end to end, records written",
                m["seconds"],
                "s",
                "million_games_s",
                m["method"],
            )
        )
    else:
        out.append(
            row(
                "1,000,000 games end to end",
                None,
                "s",
                "million_games_s",
                f"skipped ({m['skipped']})",
            )
        )
    out.append(
        row(
            "AEC steps/s, tac_v1 / connect_four_v3",
            r["aec"]["ratio_steps_per_s"],
            "x",
            "aec_vs_connect_four",
            f"{r['aec']['tac_v1']['steps_per_s']:,.0f} vs "
            f"{r['aec']['connect_four_v3']['steps_per_s']:,.0f} steps/s",
        )
    )
    nj = r["nojit"]
    out.append(
        row(
            "JIT speedup, self-play kernel, 1 thread vs NUMBA_DISABLE_JIT=1",
            nj["speedup_selfplay_1_thread"],
            "x",
            "jit_speedup",
            f"same games: {nj['same_results']}",
        )
    )
    out.append(
        row(
            "JIT speedup, self-play kernel, best threads vs NUMBA_DISABLE_JIT=1",
            nj["speedup_selfplay_best"],
            "x",
            "jit_speedup",
        )
    )
    if nj["speedup_batch_64_1_thread"] is not None:
        out.append(
            row(
                "JIT speedup, BatchEnv B=64, 1 thread vs NUMBA_DISABLE_JIT=1",
                nj["speedup_batch_64_1_thread"],
                "x",
                "jit_speedup",
            )
        )
    out.append(
        row(
            "Cached start: import + make env + first step (median)",
            r["compile_cached"]["start_s_median"],
            "s",
            "cached_start_s",
            f"whole process {r['compile_cached']['process_wall_s_median']:.2f} s",
        )
    )
    cold = r["compile_cold"]
    if "total_s" in cold:
        out.append(
            row(
                "Cold compile: import + env + first step + BatchEnv + run_chunk",
                cold["total_s"],
                "s",
                None,
                f"AEC start {cold['start_s']:.1f} s (reported, no target)",
            )
        )
    else:
        out.append(row("Cold compile", None, "s", None, f"skipped ({cold['skipped']})"))
    out.append(row("State bytes per game", r["state"]["bytes_per_game"], "B", "bytes_per_game"))
    for mrow in r["memory"]["rows"]:
        key = "peak_rss_100k_bytes" if mrow["num_envs"] == 100_000 else None
        out.append(
            row(
                f"Peak RSS, {mrow['num_envs']:,} concurrent games, "
                f"observations={mrow['observations']}",
                mrow["peak_rss_bytes"],
                "B",
                key,
                "" if key else "target applies to 100,000 games",
            )
        )
    return out


# --------------------------------------------------------------------------------------
# writing


def _fmt(value, unit: str) -> str:
    if value is None:
        return "—"
    if unit == "x":
        return f"{value:,.1f}x"
    if unit == "s":
        return f"{value:,.2f} s"
    if unit == "B":
        return f"{value:,.0f} B ({value / 2**20:,.1f} MiB)" if value > 2**20 else f"{value:,} B"
    return f"{value:,.0f}"


def _pass(p: bool | None) -> str:
    return "—" if p is None else ("pass" if p else "FAIL")


def to_markdown(r: dict) -> str:
    m = r["machine"]
    g = r["git"]
    L = [
        f"# TAC benchmark{' (quick)' if r['quick'] else ''}: {r['started_utc']}",
        "",
        f"Command: `{r['command']}`",
        "",
        "| | |",
        "|---|---|",
        f"| commit | `{g['commit']}`{' (working tree has uncommitted changes)' if g['dirty'] else ''} |",
        f"| CPU | {m['cpu']} |",
        f"| cores | {m['cores']} (numba threads available: {m['numba_threads_available']}, "
        f"threading layer: {m.get('numba_threading_layer')}) |",
        f"| RAM | {(m['ram_bytes'] or 0) / 2**30:.1f} GiB |",
        f"| OS | {m['os']} |",
        f"| Python | {m['python']} |",
        "| versions | " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + " |",
        f"| load average (1, 5, 15 min) | start {r['load_average_start']}, "
        f"end {r['load_average_end']} |",
        "| load average by section (1 min) | "
        + ", ".join(f"{k} {v[0] if v else '?'}" for k, v in r["load_average_by_section"].items())
        + " |",
        f"| numba cache | {(r.get('numba_cache') or {}).get('mode')}: "
        f"{(r.get('numba_cache') or {}).get('dir') or '__pycache__'} (sources "
        f"{(r.get('numba_cache') or {}).get('source_hash')}) |",
        f"| duration | {r['duration_s']:.0f} s (warm-up: kernel cache load "
        f"{r['warmup_s']:.1f} s, compile included if the cache was cold) |",
        "",
        "## Figures against the issue's targets",
        "",
        "| Figure | Value | Target | Pass | Note |",
        "|---|---|---|---|---|",
    ]
    for s in r["summary"]:
        L.append(
            f"| {s['figure']} | {_fmt(s['value'], s['unit'])} | {s['target'] or '—'} | "
            f"{_pass(s['pass'])} | {s['note']} |"
        )
    b = r["batch"]
    L += [
        "",
        "## BatchEnv (2 players, random actions)",
        "",
        f"Actions: {b['action_choice']}",
        "",
        f"games/s = {b['games_per_s_definition']}. Env-only = time inside `BatchEnv.step` "
        "(action check, step, auto-reset, observation).",
        "",
        "| batch | threads | observations | actions | decisions/s | games/s "
        "| env-only decisions/s "
        "| action choice share | steps | finished games/s (counted) | decisions/s target "
        "| games/s target |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for x in b["rows"]:
        L.append(
            f"| {x['num_envs']:,} | {x['threads']} | {x['observations']} | "
            f"{x.get('actions', 'numpy')} | "
            f"{x['decisions_per_s']:,.0f} | {x['games_per_s']:,.0f} | "
            f"{x['env_only_decisions_per_s']:,.0f} | {x['choose_fraction']:.0%} | {x['steps']} | "
            f"{x['games_finished_per_s']:,.0f} | "
            f"{_pass(check_target('batch_decisions_per_s', x['decisions_per_s']))} | "
            f"{_pass(check_target('batch_games_per_s', x['games_per_s']))} |"
        )
    sp = r["selfplay"]
    L += [
        "",
        "## In-kernel self-play (the million-games path)",
        "",
        sp["kernel"] + ".",
        "",
        "| threads | games | decisions/s | games/s | mean decisions/game | seconds |",
        "|---|---|---|---|---|---|",
    ]
    for x in sp["rows"]:
        L.append(
            f"| {x['threads']} | {x['games']:,} | {x['decisions_per_s']:,.0f} | "
            f"{x['games_per_s']:,.0f} | {x['mean_game_length']:.1f} | {x['seconds']:.2f} |"
        )
    if len(sp["rows"]) >= 2:
        r1, r2 = sp["rows"][0], sp["rows"][-1]
        L.append("")
        L.append(
            f"Thread scaling ({r1['threads']} -> {r2['threads']}): "
            f"{r2['decisions_per_s'] / r1['decisions_per_s']:.2f}x."
        )
    mi = r["million"]
    L += ["", "### A million games end to end", ""]
    if "seconds" in mi:
        L.append(
            f"{mi['games']:,} games in {mi['seconds']:.1f} s ({mi['games_per_s']:,.0f} games/s), "
            f"{mi['bytes_written']:,} bytes of records; method: {mi['method']}."
        )
        if mi.get("cli_error"):
            L.append(f" (`tacsim selfplay` failed, so the fallback ran: {mi['cli_error']})")
    else:
        L.append(f"Skipped ({mi['skipped']}).")
    a = r["aec"]
    L += [
        "",
        "## AEC env vs PettingZoo connect_four_v3 (same loop, same run)",
        "",
        f"Loop: `{a['loop']}`",
        "",
        "| env | games | steps | steps/s | decisions/s | steps/game |",
        "|---|---|---|---|---|---|",
    ]
    for name in ("tac_v1", "connect_four_v3"):
        x = a[name]
        L.append(
            f"| {name} | {x['games']} | {x['steps']:,} | {x['steps_per_s']:,.0f} | "
            f"{x['decisions_per_s']:,.0f} | {x['steps_per_game']:.1f} |"
        )
    L.append("")
    L.append(f"Ratio (steps/s): {a['ratio_steps_per_s']:.2f}x.")
    if a["connect_four_note"]:
        L.append(f"Note: {a['connect_four_note']}.")
    nj = r["nojit"]
    w = nj["worker"]
    L += [
        "",
        "## Same kernels with NUMBA_DISABLE_JIT=1 (subprocess)",
        "",
        "| path | no-JIT decisions/s | JIT decisions/s (1 thread) | speedup |",
        "|---|---|---|---|",
        f"| self-play run_chunk, {w['selfplay']['games']} games | "
        f"{w['selfplay']['decisions_per_s']:,.0f} | "
        f"{w['selfplay']['decisions_per_s'] * nj['speedup_selfplay_1_thread']:,.0f} | "
        f"{nj['speedup_selfplay_1_thread']:,.0f}x |",
    ]
    if nj["speedup_batch_64_1_thread"] is not None:
        L.append(
            f"| BatchEnv B=64, observations, {w['batch']['steps']} steps | "
            f"{w['batch']['decisions_per_s']:,.0f} | "
            f"{w['batch']['decisions_per_s'] * nj['speedup_batch_64_1_thread']:,.0f} | "
            f"{nj['speedup_batch_64_1_thread']:,.0f}x |"
        )
    L.append("")
    L.append(
        f"The no-JIT games are the same games as the JIT ones (same decisions per game): "
        f"{nj['same_results']}."
    )
    if not nj["same_results"]:
        L.append(
            "**Warning**: JIT and no-JIT games differ, so the compiled kernels are not the "
            "current source (numba's cache does not see edits in the files a kernel calls; "
            "run with `--numba-cache auto`) or the JIT changes behaviour."
        )
    cc = r["compile_cached"]
    cold = r["compile_cold"]
    L += [
        "",
        "## Start-up and compile (fresh subprocesses)",
        "",
        "| start | import | make env + reset | first step | AEC start total | BatchEnv first "
        "step | run_chunk first call | whole process |",
        "|---|---|---|---|---|---|---|---|",
    ]

    def start_row(label: str, x: dict) -> str:
        rc = x.get("first_run_chunk_s")
        return (
            f"| {label} | {x['import_s']:.2f} s | {x['make_env_s']:.2f} s | "
            f"{x['first_step_s']:.2f} s | {x['start_s']:.2f} s | {x['batch_first_step_s']:.2f} s"
            f" | {'—' if rc is None else f'{rc:.2f} s'} | {x['process_wall_s']:.2f} s |"
        )

    if "total_s" in cold:
        L.append(start_row("cold (empty NUMBA_CACHE_DIR)", cold))
    else:
        L.append(f"| cold: skipped ({cold['skipped']}) | | | | | | | |")
    for i, x in enumerate(cc["runs"]):
        L.append(start_row(f"cached, run {i + 1}", x))
    L += [
        "",
        "## State and memory",
        "",
        f"State: {r['state']['bytes_per_game']:,} bytes per game (one STATE_DTYPE record).",
        "",
        f"Peak memory: {r['memory']['method']}.",
        "",
        "| games | observations | RSS before env | peak RSS | peak scope | peak RSS, "
        "process life | env arrays |",
        "|---|---|---|---|---|---|---|",
    ]
    for x in r["memory"]["rows"]:
        L.append(
            f"| {x['num_envs']:,} | {x['observations']} | "
            f"{(x['rss_before_bytes'] or 0) / 2**20:,.0f} MiB | "
            f"{x['peak_rss_bytes'] / 2**20:,.0f} MiB | {x['peak_rss_scope']} | "
            f"{x['peak_rss_process_life_bytes'] / 2**20:,.0f} MiB | "
            f"{x['env_arrays_bytes'] / 2**20:,.0f} MiB |"
        )
    L.append("")
    return "\n".join(L)


def write_results(report: dict, out_dir: Path, update_latest: bool) -> list[Path]:
    out_dir.mkdir(parents=True, exist_ok=True)
    date = report["started_utc"][:10]
    stem = f"tac_{date}_{report['git']['short']}" + ("_quick" if report["quick"] else "")
    text_json = json.dumps(report, indent=2, sort_keys=False) + "\n"
    text_md = to_markdown(report)
    written = []
    names = [stem] + (["latest"] if update_latest else [])
    for name in names:
        for suffix, text in ((".json", text_json), (".md", text_md)):
            path = out_dir / f"{name}{suffix}"
            tmp = path.with_suffix(suffix + ".tmp")
            tmp.write_text(text)
            tmp.replace(path)  # never a half-written results file
            written.append(path)
    return written


# --------------------------------------------------------------------------------------
# command line


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--quick", action="store_true", help="tiny sizes: proves the script works")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results folder")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--seconds", type=float, default=None, help="time per BatchEnv figure (default 2)"
    )
    p.add_argument("--batch-sizes", default=None, help="default 1,64,1024,16384 (--quick: 1,64)")
    p.add_argument("--threads", default="1,2", help="numba thread counts to measure")
    p.add_argument("--million-games", type=int, default=1_000_000)
    p.add_argument("--skip-million", action="store_true", help="leave out the end-to-end run")
    p.add_argument("--skip-cold", action="store_true", help="leave out the cold compile")
    p.add_argument(
        "--numba-cache",
        default=None,
        help="auto (default: tacsim's cache, one folder per hash of envs/ and agents/, see "
        "envs/core/jit.py) or a folder to use as the cache root",
    )


def check_args(args: argparse.Namespace) -> str | None:
    """The message for bad options, or None (checked before anything is measured or written)."""
    for name in ("batch_sizes", "threads"):
        text = getattr(args, name)
        if text is None:
            continue
        try:
            values = [int(x) for x in text.split(",")]
        except ValueError:
            values = []
        if not values or min(values) < 1:
            flag = "--" + name.replace("_", "-")
            return f"{flag} must be positive integers separated by commas, got {text!r}"
    if args.million_games < 1:
        return f"--million-games must be positive, got {args.million_games}"
    if args.seed < 0:
        return f"--seed must be non-negative, got {args.seed}"
    if args.seconds is not None and args.seconds < 0:
        return f"--seconds must be non-negative, got {args.seconds}"
    return None


def _measure_and_write(args: argparse.Namespace) -> int:
    if args.quick:
        args.skip_cold = True
    cache = args.numba_cache or "auto"
    args.numba_cache_info = setup_numba_cache(cache)
    report = run_benchmark(args)
    paths = write_results(report, Path(args.out), update_latest=not args.quick)
    print(to_markdown(report))
    for p in paths:
        print(f"wrote {p}", file=sys.stderr)
    return 0


def run_from_args(args: argparse.Namespace) -> int:
    """`tacsim bench` (agents/cli.py): bad options raise agents.cli.UsageError (exit 2)."""
    message = check_args(args)
    if message:
        from agents.cli import UsageError

        raise UsageError(message)
    if not hasattr(args, "argv"):
        args.argv = _argv_of(args)
    args.prog = "tacsim bench"
    return _measure_and_write(args)


def _argv_of(args: argparse.Namespace) -> list[str]:
    """The options of a parsed `tacsim bench`, for the command recorded in the results."""
    out = ["--quick"] if args.quick else []
    if Path(args.out).resolve() != DEFAULT_OUT:
        out += ["--out", str(args.out)]
    for flag in ("seed", "seconds", "batch_sizes", "threads", "million_games"):
        value = getattr(args, flag)
        default = {"seed": 0, "threads": "1,2", "million_games": 1_000_000}.get(flag)
        if value is not None and value != default:
            out += ["--" + flag.replace("_", "-"), str(value)]
    out += ["--skip-million"] if args.skip_million else []
    out += ["--skip-cold"] if args.skip_cold and not args.quick else []
    return out


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `bench` on a CLI's subparsers (agents/cli.py)."""
    p = subparsers.add_parser(
        "bench",
        help="TAC benchmarks (JSON + markdown in benchmarks/results/)",
        description=__doc__.split("\n\n")[0],
    )
    _add_arguments(p)
    p.set_defaults(func=run_from_args)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="bench_tac", description=__doc__.split("\n\n")[0])
    _add_arguments(parser)
    parser.add_argument("--worker", choices=sorted(WORKERS), help=argparse.SUPPRESS)
    parser.add_argument("--worker-params", default="{}", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.worker:
        result = WORKERS[args.worker](json.loads(args.worker_params))
        print(json.dumps(result))
        return 0
    message = check_args(args)
    if message:
        print(f"bench_tac: error: {message}", file=sys.stderr)
        return 2
    args.argv = argv
    args.prog = "python benchmarks/bench_tac.py"
    return _measure_and_write(args)


if __name__ == "__main__":
    if str(ROOT) not in sys.path:  # run as a script from anywhere: the packages live in ROOT
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
