"""Benchmarks of any playable ruleset, through the ruleset contract only.

Run from the repository root::

    python benchmarks/harness.py                    # every playable ruleset, full run
    python benchmarks/harness.py --ruleset tac      # one ruleset
    python benchmarks/harness.py --quick            # tiny sizes: proves the harness works
    python benchmarks/harness.py --ruleset tactica --option game=basic   # under options
    tacsim bench [--ruleset NAME] [--quick] ...     # the same, through the CLI

The harness takes a :class:`~envs.core.ruleset.Ruleset` from the registry and measures, in
one run (so comparisons share one machine state and are reported as ratios): the in-kernel
self-play path (``play_chunk``) on 1 and 2 threads, BatchEnv decisions/s and games/s by
batch size and threads, the AEC env against PettingZoo's connect_four_v3, the same kernels
under ``NUMBA_DISABLE_JIT=1``, state bytes per game and peak memory, cold compile per path
(self-play, AEC, BatchEnv; each in a fresh process with an empty numba cache) and the
cached start, and a million games end to end through ``tacsim selfplay``. A file
``benchmarks/<ruleset>.py`` (see benchmarks/tac.py) adds the ruleset's targets and sizes.

It writes ``benchmarks/results/<ruleset>_<date>_<shortcommit>.json`` and ``.md`` per
ruleset and ``latest.json`` / ``latest.md`` for the whole run (a ``--quick`` run writes
``..._quick`` files and leaves ``latest`` alone). benchmarks/README.md describes every
figure. Speed is measured here and only here: tests never assert timings.

The module imports only the standard library at the top (`tacsim` imports it on every
start), so the subprocess workers (``--worker NAME``) time their own imports.
"""

from __future__ import annotations

import argparse
import datetime as _dt
import importlib
import importlib.util
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
from types import SimpleNamespace
from typing import Any

Options = dict[str, str] | None  # a ruleset's options (None: its defaults)

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "benchmarks" / "results"
SCHEMA = "tacsim-bench/2"
RUN_SCHEMA = "tacsim-bench-run/1"
PATHS = ("selfplay", "aec", "batch")  # the three start-up paths

# Targets of every ruleset (ARCHITECTURE.md 11: compile time is a cost every user pays).
# A ruleset file's TARGETS are added to these and may override them.
GENERIC_TARGETS: dict[str, dict[str, Any]] = {
    "cold_compile_s": {"op": "max", "value": 60.0, "text": "<= 60 s per path"},
    "cached_start_s": {"op": "max", "value": 1.0, "text": "<= 1 s"},
}

# Sizes of a full run when the ruleset file does not name its own.
DEFAULT_SPEC: dict[str, Any] = {
    "PLAYERS": 2,
    "AGENT": "random",
    "BATCH_SIZES": (1, 64, 1024, 16384),
    "SELFPLAY_GAMES": {1: 20_000, 2: 50_000},
    "NOJIT_GAMES": 6,
    "MEMORY_NUM_ENVS": 100_000,
    "MILLION_GAMES": 1_000_000,
    "TARGETS": {},
}
QUICK_SIZES: dict[str, Any] = {
    "BATCH_SIZES": (1, 64),
    "SELFPLAY_GAMES": {1: 64, 2: 128},
    "NOJIT_GAMES": 1,
    "MEMORY_NUM_ENVS": 2_000,
}

ACTION_CHOICE_DOC = (
    "Uniform among legal actions, vectorised over the batch in numpy: "
    "flat = flatnonzero(masks viewed as bool) lists every legal (game, action) pair as a "
    "sorted flat index, edges = searchsorted(flat, [0, N, 2N, ..., B*N]) gives each game's "
    "run of legal actions (starts = edges[:-1], counts = diff(edges)), and game b takes "
    "flat[starts[b] + floor(u_b * counts[b])] - b * N with u_b ~ U[0, 1) from one numpy "
    "Generator (N = n_actions). Its time is inside decisions/s (the env-only column "
    "excludes it). Rows with actions=kernel use the ruleset's act_batch instead (one "
    "parallel kernel call picks every game's action from the game's own agent RNG)."
)


# --------------------------------------------------------------------------------------
# the ruleset's spec (benchmarks/<ruleset>.py) and targets


def load_spec(name: str) -> SimpleNamespace:
    """The sizes and targets of ruleset `name`: benchmarks/<name>.py over the defaults."""
    values = dict(DEFAULT_SPEC)
    module_name = f"benchmarks.{name}"
    found = importlib.util.find_spec(module_name) is not None
    if found:
        module = importlib.import_module(module_name)
        for key in DEFAULT_SPEC:
            if hasattr(module, key):
                values[key] = getattr(module, key)
    targets = {**GENERIC_TARGETS, **values["TARGETS"]}
    return SimpleNamespace(
        **{k.lower(): v for k, v in values.items() if k != "TARGETS"},
        targets=targets,
        file=f"benchmarks/{name}.py" if found else None,
    )


def check_target(targets: dict, key: str | None, value: float | None) -> bool | None:
    """True/False against targets[key]; None where there is no figure or no target."""
    if value is None or key is None or key not in targets:
        return None
    t = targets[key]
    return bool(value >= t["value"]) if t["op"] == "min" else bool(value <= t["value"])


# --------------------------------------------------------------------------------------
# small helpers


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
        "python_executable": sys.executable,
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
        "branch": git("rev-parse", "--abbrev-ref", "HEAD"),
        "dirty": bool(status) if status is not None else None,
        "changed_paths": len(status.splitlines()) if status else 0,
    }


def load_average() -> list[float] | None:
    try:
        return [round(x, 2) for x in os.getloadavg()]
    except OSError:
        return None


def setup_numba_cache(choice: str) -> dict[str, Any]:
    """Where numba's cache is for this run and its subprocesses: "auto" is tacsim's own
    (envs/core/jit.py: one folder per ruleset key and source hash); a folder given here
    becomes the cache root (NUMBA_CACHE_DIR). Must run before a kernel module is imported."""
    if choice != "auto":
        Path(choice).mkdir(parents=True, exist_ok=True)
        os.environ["NUMBA_CACHE_DIR"] = str(Path(choice).resolve())
    return {
        "mode": "auto" if choice == "auto" else "folder",
        "root": os.environ.get("NUMBA_CACHE_DIR"),
    }


def _cache_info(base: dict[str, Any], name: str) -> dict[str, Any]:
    from envs.core import jit

    return {
        **base,
        "dirs": {k: str(jit.cache_dir(k)) for k in (jit.CORE, name)},
        "source_hashes": {k: jit.source_hash(k) for k in (jit.CORE, name)},
    }


def _median(xs: Sequence[float]) -> float:
    s = sorted(xs)
    n = len(s)
    return s[n // 2] if n % 2 else 0.5 * (s[n // 2 - 1] + s[n // 2])


def _log(msg: str, report: dict | None = None, section: str | None = None) -> None:
    """Progress on stderr; with a section name, the load average then goes in the report."""
    print(f"[bench {time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)
    if report is not None and section is not None:
        report.setdefault("load_average_by_section", {})[section] = load_average()


def _set_threads(threads: int) -> int:
    import numba

    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    return numba.get_num_threads()


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


def kernel_actions_factory(env, agent: str) -> Callable:
    """The ruleset's act_batch: every game's action in one kernel call (on the calling
    thread below envs.core.batch.SERIAL_BELOW games, like BatchEnv's own kernels)."""
    import numpy as np

    from envs.core.batch import threads_for

    rs = env.ruleset
    seat_agents = np.full(env.num_players, rs.agent_id(agent), dtype=np.int8)
    out = np.zeros(env.num_envs, dtype=np.int64)

    def choose(_masks):
        with threads_for(env.num_envs):  # as BatchEnv runs its own kernels
            rs.act_batch(env.state, rs.tables_batch, env.masks, seat_agents, out)
        return out

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
        self.one_game(seed + 10_000_000)

    def one_game(self, game_seed: int) -> tuple[int, int]:
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
            s, d = self.one_game(self.seed + self.games)
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


def bench_aec(
    name: str, players: int, seconds: float, seed: int, rounds: int, options: Options = None
) -> dict:
    import envs

    c4, c4_note = import_connect_four()
    ours = AecRandomLoop(lambda: envs.make_env(name, num_players=players, options=options), seed)
    ref = AecRandomLoop(lambda: c4.env(), seed)
    env_name = ours.env.unwrapped.ruleset.env_name
    # interleaved rounds, so both envs see the same (shared-machine) load
    for _ in range(rounds):
        ours.run_for(seconds / rounds)
        ref.run_for(seconds / rounds)
    ours_r, ref_r = ours.result(), ref.result()
    return {
        "loop": (
            "for agent in env.agent_iter(): obs, r, term, trunc, info = env.last(); "
            "action = None if term or trunc else uniform random legal from "
            'obs["action_mask"]; env.step(action)  -- envs.make_env(ruleset) and '
            "connect_four_v3.env() (both with PettingZoo's wrappers), reset(seed=k) for game "
            "k; timed in interleaved rounds (ruleset, connect four, ruleset, ...) of whole games"
        ),
        "env_name": env_name,
        "rounds": rounds,
        "env": ours_r,
        "connect_four_v3": ref_r,
        "connect_four_note": c4_note,
        "ratio_steps_per_s": ours_r["steps_per_s"] / ref_r["steps_per_s"],
    }


def bench_batch_one(
    name: str,
    players: int,
    num_envs: int,
    threads: int,
    observations: bool,
    seconds: float,
    min_steps: int,
    warmup_steps: int,
    seed: int,
    chooser: str = "numpy",
    agent: str = "random",
    max_seconds: float = float("inf"),
    options: Options = None,
) -> dict:
    """chooser: "numpy" (the vectorised random agent, ACTION_CHOICE_DOC) or "kernel" (the
    ruleset's act_batch over the whole batch in one call). Timed steps run until `seconds`
    and `min_steps` are both reached, or `max_seconds` (warm-up likewise): on a busy
    machine a 2-thread row can be 100x slower than usual, and the run must still end."""
    import envs

    env = envs.make_batch(name, num_envs, players, seed, observations=observations, options=options)
    used_threads = _set_threads(threads)
    if chooser == "kernel":
        choose = kernel_actions_factory(env, agent)
    else:
        choose = random_actions_factory(num_envs, env.ruleset.n_actions, seed)
    st = env.reset()
    t0 = time.perf_counter()
    for _ in range(warmup_steps):
        st = env.step(choose(st.action_mask))
        if time.perf_counter() - t0 > max_seconds:
            break
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
        if t3 - t0 >= seconds and (steps >= min_steps or t3 - t0 >= max_seconds):
            break
    elapsed = t3 - t0
    decisions = steps * num_envs
    return {
        "num_envs": num_envs,
        "threads": used_threads,
        "observations": observations,
        "actions": chooser,
        "steps": steps,
        "capped": steps < min_steps,  # stopped by max_seconds before min_steps
        "decisions": decisions,
        "games_finished": finished,
        "games_finished_per_s": finished / elapsed,
        "seconds": elapsed,
        "decisions_per_s": decisions / elapsed,
        "env_only_decisions_per_s": decisions / t_step,
        "choose_fraction": t_choose / elapsed,
    }


def play_games(
    name: str,
    players: int,
    agent: str,
    seed: int,
    first_game: int,
    games: int,
    options: Options = None,
):
    """Games first_game.. of `seed` in one play_chunk call (the agent in every seat) and
    the seconds the call took (allocation outside the timing)."""
    import numpy as np

    import envs

    rs = envs.get_ruleset(name, None, options)
    S = rs.allocate(games, players)
    idx = np.arange(first_game, first_game + games, dtype=np.int64)
    agent_ids = np.full(players, rs.agent_id(agent), dtype=np.int8)
    t0 = time.perf_counter()
    res = rs.play_chunk(S, rs.tables_batch, seed, idx, agent_ids)
    return res, time.perf_counter() - t0


def bench_selfplay_one(
    name: str,
    players: int,
    agent: str,
    threads: int,
    games: int,
    seed: int,
    options: Options = None,
):
    used = _set_threads(threads)
    play_games(name, players, agent, seed, 10_000_000, 4, options)  # warm-up (threads started)
    res, elapsed = play_games(name, players, agent, seed, 0, games, options)
    decisions = int(res.length.sum())
    return {
        "threads": used,
        "agents": f"{agent} in every seat",
        "games": games,
        "decisions": decisions,
        "seconds": elapsed,
        "games_per_s": games / elapsed,
        "decisions_per_s": decisions / elapsed,
        "mean_game_length": decisions / games,
    }


def warm_kernels(name: str, players: int, agent: str, seed: int, options: Options = None) -> float:
    """Load (or compile) every kernel the timed loops call, outside any timing: BatchEnv
    with and without observations until a game ends (auto-reset), act_batch, play_chunk
    and one AEC game."""
    import envs

    t0 = time.perf_counter()
    for obs in (True, False):
        env = envs.make_batch(name, 4, players, seed, observations=obs, options=options)
        choose = kernel_actions_factory(env, agent)
        st = env.reset()
        for _ in range(100_000):
            st = env.step(choose(st.action_mask))
            if st.terminated.any():
                break
    play_games(name, players, agent, seed, 0, 2, options)
    AecRandomLoop(lambda: envs.make_env(name, num_players=players, options=options), seed)
    return time.perf_counter() - t0


def bench_million(
    name: str, players: int, agent: str, games: int, seed: int, options: Options = None
) -> dict:
    """`tacsim selfplay` end to end in a fresh process (start-up, cached kernels, play on
    all threads, Parquet written, summary printed); a 100-game run first, so kernels only
    the CLI uses are in the cache."""
    out = Path(tempfile.mkdtemp(prefix="tacsim_bench_million_"))

    def cli(n: int, folder: Path) -> tuple[list[str], float]:
        args = ["selfplay", "--ruleset", name, "--players", str(players), "--games", str(n)]
        args += [x for k, v in (options or {}).items() for x in ("--option", f"{k}={v}")]
        args += ["--agents", f"{agent},{agent}", "--seed", str(seed), "--out", str(folder)]
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
        return args, wall

    try:
        _, warm_s = cli(100, out / "warmup")
        args, wall = cli(games, out / "run")
        return {
            "method": "`tacsim selfplay` (python -m agents.cli) in a fresh process, default "
            "chunking, all threads",
            "command": "tacsim " + " ".join(args[:-1] + ["<tmpdir>"]),
            "games": games,
            "seconds": wall,
            "games_per_s": games / wall,
            "warmup_run_s": warm_s,
            "bytes_written": sum(p.stat().st_size for p in (out / "run").rglob("*") if p.is_file()),
        }
    except Exception as e:  # the other figures are still wanted
        return {"error": str(e)[-1000:], "games": games}
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
    import envs

    options = p.get("options")
    envs.get_ruleset(p["ruleset"], None, options)  # imports outside the timing
    res, sp_s = play_games(
        p["ruleset"], p["players"], p["agent"], p["seed"], 0, p["games"], options
    )
    lengths = [int(x) for x in res.length]
    b = bench_batch_one(
        p["ruleset"], p["players"], p["num_envs"], 1, True, 0.0, p["steps"], 1, p["seed"],
        options=options,
    )  # fmt: skip
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
    """One start-up path in a fresh process: import, make, first call(s); then the same
    work again in the same process (compiled by then), so compile = first - again.

    paths: "selfplay" (play_chunk on one game: `tacsim selfplay`'s kernels), "aec"
    (make_env, reset, first step, then the rest of one game through env.step), "batch"
    (make_batch(64), reset, a few steps with act_batch). With NUMBA_CACHE_DIR an empty
    folder this is a cold compile; with the usual cache, a cached start."""
    t0 = time.perf_counter()
    import numpy as np

    import envs

    name, players, agent, path = p["ruleset"], p["players"], p["agent"], p["path"]
    options = p.get("options")
    t_import = time.perf_counter()
    out: dict[str, Any] = {"path": path, "import_s": t_import - t0}

    def aec_once() -> tuple[float, float, float]:
        ta = time.perf_counter()
        env = envs.make_env(name, num_players=players, options=options)
        env.reset(seed=0)
        tb = time.perf_counter()
        mask = env.observe(env.agent_selection)["action_mask"]
        env.step(int(np.flatnonzero(mask)[0]))
        tc = time.perf_counter()
        rng = np.random.default_rng(0)
        for _agent in env.agent_iter():
            obs, _r, term, trunc, _info = env.last()
            if term or trunc:
                env.step(None)
            else:
                legal = np.flatnonzero(obs["action_mask"])
                env.step(int(legal[rng.integers(legal.size)]))
        td = time.perf_counter()
        return tb - ta, tc - tb, td - tc

    def batch_once() -> tuple[float, float]:
        ta = time.perf_counter()
        env = envs.make_batch(name, 64, players, 0, options=options)
        choose = kernel_actions_factory(env, agent)
        st = env.reset()
        tb = time.perf_counter()
        for _ in range(8):
            st = env.step(choose(st.action_mask))
        return tb - ta, time.perf_counter() - tb

    def selfplay_once() -> tuple[float, float]:
        ta = time.perf_counter()
        rs = envs.get_ruleset(name, None, options)
        S = rs.allocate(1, players)
        ids = np.full(players, rs.agent_id(agent), dtype=np.int8)
        tb = time.perf_counter()
        rs.play_chunk(S, rs.tables_batch, 0, np.zeros(1, dtype=np.int64), ids)
        return tb - ta, time.perf_counter() - tb

    if path == "aec":
        make_s, step_s, game_s = aec_once()
        out.update(make_s=make_s, first_step_s=step_s, rest_of_game_s=game_s)
        out["start_s"] = out["import_s"] + make_s + step_s  # the judged cached start
        first = make_s + step_s + game_s
        again = sum(aec_once())
    elif path == "batch":
        make_s, step_s = batch_once()
        out.update(make_s=make_s, first_step_s=step_s)
        out["start_s"] = out["import_s"] + make_s + step_s
        first = make_s + step_s
        again = sum(batch_once())
    elif path == "selfplay":
        make_s, step_s = selfplay_once()
        out.update(make_s=make_s, first_step_s=step_s)
        out["start_s"] = out["import_s"] + make_s + step_s
        first = make_s + step_s
        again = sum(selfplay_once())
    else:
        raise ValueError(f"unknown path {path!r}")
    out["first_s"] = first  # make + first calls (+ one game for aec), import excluded
    out["again_s"] = again  # the same work once compiled: run time
    out["compile_s"] = max(first - again, 0.0)
    out["total_s"] = time.perf_counter() - t0
    return out


def worker_memory(p: dict) -> dict:
    """Peak RSS of a process holding p['num_envs'] concurrent games, reset and stepped once."""
    import resource

    import envs

    def status(field: str) -> int | None:
        try:
            for line in Path("/proc/self/status").read_text().splitlines():
                if line.startswith(field + ":"):
                    return int(line.split()[1]) * 1024
        except OSError:
            pass
        return None

    name, players, options = p["ruleset"], p["players"], p.get("options")
    # warm the kernels on a tiny batch so the baseline includes the compiled code
    small = envs.make_batch(name, 2, players, 0, observations=p["observations"], options=options)
    st = small.reset()
    small.step(random_actions_factory(2, small.ruleset.n_actions, 0)(st.action_mask))
    peak_life_before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
    # Linux: writing 5 to clear_refs resets the peak RSS (VmHWM), so the peak below is that
    # of the env phase, not of a compile (LLVM) that a stale cache may have caused above.
    try:
        Path("/proc/self/clear_refs").write_text("5")
        reset_ok = True
    except OSError:
        reset_ok = False
    base = status("VmRSS")
    n = p["num_envs"]
    env = envs.make_batch(
        name, n, players, p["seed"], observations=p["observations"], options=options
    )
    st = env.reset()
    st = env.step(random_actions_factory(n, env.ruleset.n_actions, p["seed"])(st.action_mask))
    arrays = env.state.nbytes + env.masks.nbytes
    if p["observations"]:
        arrays += st.observation.nbytes
    peak_life = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux: KiB
    peak_env = status("VmHWM") if reset_ok else None
    return {
        "num_envs": n,
        "observations": p["observations"],
        "rss_before_bytes": base,
        "rss_after_bytes": status("VmRSS"),
        "peak_rss_bytes": peak_env if peak_env is not None else peak_life,
        "peak_rss_scope": "env phase (VmHWM after clear_refs)"
        if peak_env is not None
        else "whole process (ru_maxrss)",
        # clear_refs also resets ru_maxrss, so the life peak is the larger of the two
        "peak_rss_process_life_bytes": max(peak_life, peak_life_before),
        "env_arrays_bytes": arrays,
    }


WORKERS: dict[str, Callable[[dict], dict]] = {
    "nojit": worker_nojit,
    "start": worker_start,
    "memory": worker_memory,
}


# --------------------------------------------------------------------------------------
# one ruleset's run


def run_ruleset(name: str, args: argparse.Namespace, cache_base: dict[str, Any]) -> dict:
    quick = args.quick
    seed = args.seed
    spec = load_spec(name)
    if quick:
        for key, value in QUICK_SIZES.items():
            setattr(spec, key.lower(), value)
    if args.batch_sizes:
        spec.batch_sizes = tuple(int(x) for x in args.batch_sizes.split(","))
    if args.million_games:
        spec.million_games = args.million_games
    seconds = args.seconds if args.seconds is not None else (0.05 if quick else 2.0)
    threads_list = [int(x) for x in args.threads.split(",")]
    P, agent = spec.players, spec.agent
    t_run = time.perf_counter()

    import envs

    options = getattr(args, "resolved_options", None) or None
    rs = envs.get_ruleset(name, None, options)
    opts = ", ".join(f"{k}={v}" for k, v in rs.options.items())
    report: dict[str, Any] = {
        "schema": SCHEMA,
        "ruleset": name,
        "options": dict(rs.options),
        "env_name": rs.env_name,
        "benchmark": f"{rs.env_name}{f' ({opts})' if opts else ''}, {P} players, "
        f"agent {agent!r} in every seat",
        "spec_file": spec.file,
        "quick": quick,
        "command": args.command_line,
        "started_utc": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "git": git_info(),
        "load_average_start": load_average(),
        "targets": spec.targets,
        "sizes": {
            "players": P,
            "agent": agent,
            "batch_sizes": list(spec.batch_sizes),
            "threads": threads_list,
            "selfplay_games": {str(k): v for k, v in spec.selfplay_games.items()},
            "nojit_games": spec.nojit_games,
            "memory_num_envs": spec.memory_num_envs,
            "million_games": spec.million_games,
            "seconds_per_batch_row": seconds,
        },
        "numba_cache": _cache_info(cache_base, name),
    }
    _log(f"{name}: machine info")
    report["machine"] = machine_info()
    S1 = rs.allocate(1, P)
    report["state"] = {
        "bytes_per_game": int(rs.state_dtype.itemsize),
        "allocate_1_game_bytes": int(S1.nbytes),
        "observation_floats": int(rs.observation_size(P)),
        "n_actions": int(rs.n_actions),
    }
    _log(f"{name}: warm-up (kernel cache load, or compile if the cache is cold)")
    report["warmup_s"] = warm_kernels(name, P, agent, seed, options)
    import numba

    report["machine"]["numba_threading_layer"] = numba.threading_layer()

    # 1. in-kernel self-play first: it also gives the mean game length for games/s below
    _log(f"{name}: self-play (play_chunk)", report, "selfplay")
    sp_rows = [
        bench_selfplay_one(name, P, agent, t, spec.selfplay_games.get(t, 128), seed, options)
        for t in threads_list
    ]
    mean_len = sum(r["decisions"] for r in sp_rows) / sum(r["games"] for r in sp_rows)
    report["selfplay"] = {
        "kernel": "ruleset.play_chunk: each game start to end inside numba, games spread "
        f"over the threads, agent {agent!r} (the game's own agent RNG) in every seat",
        "rows": sp_rows,
    }

    # 2. BatchEnv grid
    _log(f"{name}: BatchEnv grid", report, "batch")
    rows = []
    for threads in threads_list:
        for B in spec.batch_sizes:
            for obs, chooser in ((True, "numpy"), (False, "numpy"), (False, "kernel")):
                # full run: 200 warm-up steps and at least 150 timed ones (both longer than
                # most games), so the window holds auto-resets at about their steady rate
                r = bench_batch_one(
                    name,
                    P,
                    B,
                    threads,
                    obs,
                    seconds,
                    3 if quick else 150,
                    2 if quick else 200,
                    seed,
                    chooser,
                    agent,
                    max_seconds=max(4 * seconds, 1.0),
                    options=options,
                )
                r["games_per_s"] = r["decisions_per_s"] / mean_len
                rows.append(r)
                _log(
                    f"  B={B} threads={threads} obs={obs} actions={chooser}: "
                    f"{r['decisions_per_s']:,.0f} decisions/s"
                )
    report["batch"] = {
        "num_players": P,
        "action_choice": ACTION_CHOICE_DOC,
        "games_per_s_definition": (
            f"decisions/s divided by the mean decisions per game of {P}-player games "
            f"({mean_len:.2f}, from the self-play section of this run)"
        ),
        "mean_game_length": mean_len,
        "rows": rows,
    }

    # 3. AEC vs connect_four_v3
    _log(f"{name}: AEC env vs connect_four_v3", report, "aec")
    report["aec"] = bench_aec(
        name,
        P,
        seconds=0.2 if quick else max(seconds * 4, 1.0),
        seed=seed,
        rounds=1 if quick else 8,
        options=options,
    )

    # 4. JIT disabled
    _log(f"{name}: NUMBA_DISABLE_JIT=1 subprocess", report, "nojit")
    base = {"ruleset": name, "players": P, "agent": agent, "seed": seed, "options": options}
    nojit = run_worker(
        "nojit",
        {**base, "games": spec.nojit_games, "num_envs": 64, "steps": 2 if quick else 20},
        {"NUMBA_DISABLE_JIT": "1"},
    )
    _set_threads(1)
    res, _ = play_games(name, P, agent, seed, 0, spec.nojit_games, options)
    jit_lengths = [int(x) for x in res.length]
    sp1 = next((r for r in sp_rows if r["threads"] == 1), sp_rows[0])
    sp_best = max(sp_rows, key=lambda r: r["decisions_per_s"])
    b64 = next(
        (r for r in rows if r["num_envs"] == 64 and r["threads"] == 1 and r["observations"]),
        None,
    )
    nj_sp = nojit["selfplay"]["decisions_per_s"]
    report["nojit"] = {
        "worker": nojit,
        "same_results": jit_lengths == nojit["selfplay"]["lengths"],
        "jit_lengths": jit_lengths,
        "speedup_selfplay_1_thread": sp1["decisions_per_s"] / nj_sp,
        "speedup_selfplay_best": sp_best["decisions_per_s"] / nj_sp,
        "speedup_batch_64_1_thread": (
            b64["decisions_per_s"] / nojit["batch"]["decisions_per_s"] if b64 else None
        ),
    }

    # 5. compile: cold (an empty NUMBA_CACHE_DIR per path) and cached start
    if args.skip_cold:
        report["compile_cold"] = {"skipped": "--quick" if quick else "--skip-cold"}
    else:
        cold: dict[str, Any] = {}
        for path in PATHS:
            _log(
                f"{name}: cold compile, {path} path (empty NUMBA_CACHE_DIR)", report, f"cold_{path}"
            )
            cache = tempfile.mkdtemp(prefix="tacsim_bench_numba_cache_")
            try:
                cold[path] = run_worker("start", {**base, "path": path}, {"NUMBA_CACHE_DIR": cache})
            finally:
                shutil.rmtree(cache, ignore_errors=True)
        report["compile_cold"] = cold
    _log(f"{name}: cached start subprocesses", report, "compile_cached")
    n_runs = 1 if quick else 5
    cached: dict[str, Any] = {}
    for path in PATHS:
        runs = [run_worker("start", {**base, "path": path}) for _ in range(n_runs)]
        cached[path] = {
            "runs": runs,
            "start_s_median": _median([r["start_s"] for r in runs]),
            "process_wall_s_median": _median([r["process_wall_s"] for r in runs]),
        }
    report["compile_cached"] = cached

    # 6. memory
    _log(f"{name}: memory subprocesses", report, "memory")
    report["memory"] = {
        "rows": [
            run_worker("memory", {**base, "num_envs": spec.memory_num_envs, "observations": obs})
            for obs in (True, False)
        ],
        "target_num_envs": load_spec(name).memory_num_envs,
        "method": "a fresh process warms the kernels on a 2-game BatchEnv, resets its peak RSS "
        "(5 written to /proc/self/clear_refs), then holds a BatchEnv of num_envs games "
        "after reset() and one step() with random actions; peak RSS = VmHWM of the whole "
        "process (interpreter, numpy, numba, compiled kernels and the env's arrays); the "
        "process-life peak (ru_maxrss, imports and cache load included) is reported beside it",
    }

    # 7. a million games end to end, records written
    if quick or args.skip_million:
        report["million"] = {"skipped": "--quick" if quick else "--skip-million"}
    else:
        _log(f"{name}: {spec.million_games:,} games end to end", report, "million")
        report["million"] = bench_million(name, P, agent, spec.million_games, seed, options)

    report["load_average_end"] = load_average()
    report["finished_utc"] = _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds")
    report["duration_s"] = time.perf_counter() - t_run
    report["summary"] = summarise(report)
    return report


def summarise(r: dict) -> list[dict]:
    """One row per headline figure: the figure, its target and pass/fail (None: no target)."""
    targets = r["targets"]

    def row(figure: str, value, unit: str, key: str | None, note: str = "") -> dict:
        has = key is not None and key in targets
        return {
            "figure": figure,
            "key": key,
            "value": value,
            "unit": unit,
            "target": targets[key]["text"] if has else None,
            "pass": check_target(targets, key, value) if has else None,
            "note": note,
        }

    out = []
    sp = max(r["selfplay"]["rows"], key=lambda x: x["decisions_per_s"])
    sp_cfg = f"play_chunk, threads={sp['threads']}"
    out.append(
        row(
            "Self-play decisions/s (in kernel)",
            sp["decisions_per_s"],
            "1/s",
            "selfplay_decisions_per_s",
            sp_cfg,
        )
    )
    out.append(
        row(
            "Self-play games/s (in kernel)",
            sp["games_per_s"],
            "1/s",
            "selfplay_games_per_s",
            sp_cfg,
        )
    )
    best = max(r["batch"]["rows"], key=lambda x: x["decisions_per_s"])
    cfg = (
        f"B={best['num_envs']}, threads={best['threads']}, observations={best['observations']}, "
        f"actions={best['actions']}"
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
        why = f"skipped ({m['skipped']})" if "skipped" in m else f"failed: {m.get('error')}"
        out.append(row("Games end to end (`tacsim selfplay`)", None, "s", "million_games_s", why))
    a = r["aec"]
    out.append(
        row(
            f"AEC steps/s, {a['env_name']} / connect_four_v3",
            a["ratio_steps_per_s"],
            "x",
            "aec_vs_connect_four",
            f"{a['env']['steps_per_s']:,.0f} vs {a['connect_four_v3']['steps_per_s']:,.0f} steps/s",
        )
    )
    nj = r["nojit"]
    out.append(
        row(
            "JIT speedup, self-play, 1 thread vs NUMBA_DISABLE_JIT=1",
            nj["speedup_selfplay_1_thread"],
            "x",
            "jit_speedup",
            f"same games: {nj['same_results']}",
        )
    )
    out.append(
        row(
            "JIT speedup, self-play, best threads vs NUMBA_DISABLE_JIT=1",
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
    cold = r["compile_cold"]
    for path in PATHS:
        c = cold.get(path)
        if c is None:
            out.append(
                row(
                    f"Cold compile, {path} path",
                    None,
                    "s",
                    "cold_compile_s",
                    f"skipped ({cold.get('skipped')})",
                )
            )
        else:
            out.append(
                row(
                    f"Cold compile, {path} path",
                    c["compile_s"],
                    "s",
                    "cold_compile_s",
                    f"first {c['first_s']:.1f} s - again {c['again_s']:.2f} s; "
                    f"whole process {c['process_wall_s']:.1f} s",
                )
            )
    cc = r["compile_cached"]
    out.append(
        row(
            "Cached start: import + make env + first step (AEC, median)",
            cc["aec"]["start_s_median"],
            "s",
            "cached_start_s",
            f"whole process {cc['aec']['process_wall_s_median']:.2f} s; "
            f"BatchEnv path {cc['batch']['start_s_median']:.2f} s, "
            f"self-play path {cc['selfplay']['start_s_median']:.2f} s",
        )
    )
    out.append(row("State bytes per game", r["state"]["bytes_per_game"], "B", "bytes_per_game"))
    for mrow in r["memory"]["rows"]:
        at_target_size = mrow["num_envs"] == r["memory"]["target_num_envs"]
        out.append(
            row(
                f"Peak RSS, {mrow['num_envs']:,} concurrent games, "
                f"observations={mrow['observations']}",
                mrow["peak_rss_bytes"],
                "B",
                "peak_rss_bytes" if at_target_size else None,
                ""
                if at_target_size
                else f"the target is for {r['memory']['target_num_envs']:,} games",
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
    nc = r["numba_cache"]
    targets = r["targets"]
    L = [
        f"# Benchmark: {r['ruleset']} ({r['env_name']}){' (quick)' if r['quick'] else ''}: "
        f"{r['started_utc']}",
        "",
        f"Command: `{r['command']}`",
        "",
        "| | |",
        "|---|---|",
        *(
            [f"| ruleset options | {', '.join(f'{k}={v}' for k, v in r['options'].items())} |"]
            if r.get("options")
            else []
        ),
        f"| commit | `{g['commit']}` ({g.get('branch')})"
        f"{' (working tree has uncommitted changes)' if g['dirty'] else ''} |",
        f"| ruleset file | {r['spec_file'] or '— (harness defaults, generic targets only)'} |",
        f"| CPU | {m['cpu']} |",
        f"| cores | {m['cores']} (numba threads available: {m['numba_threads_available']}, "
        f"threading layer: {m.get('numba_threading_layer')}) |",
        f"| RAM | {(m['ram_bytes'] or 0) / 2**30:.1f} GiB |",
        f"| OS | {m['os']} |",
        f"| Python | {m['python']} ({m['python_executable']}) |",
        "| versions | " + ", ".join(f"{k} {v}" for k, v in m["versions"].items()) + " |",
        f"| load average (1, 5, 15 min) | start {r['load_average_start']}, "
        f"end {r['load_average_end']} |",
        "| load average by section (1 min) | "
        + ", ".join(f"{k} {v[0] if v else '?'}" for k, v in r["load_average_by_section"].items())
        + " |",
        f"| numba cache | {nc['mode']}: "
        + ", ".join(f"{k} `{v}`" for k, v in nc["dirs"].items())
        + " |",
        f"| duration | {r['duration_s']:.0f} s (warm-up: kernel cache load "
        f"{r['warmup_s']:.1f} s, compile included if the cache was cold) |",
        "",
        "## Figures against the targets",
        "",
        "| Figure | Value | Target | Pass | Note |",
        "|---|---|---|---|---|",
    ]
    for s in r["summary"]:
        L.append(
            f"| {s['figure']} | {_fmt(s['value'], s['unit'])} | {s['target'] or '—'} | "
            f"{_pass(s['pass'])} | {s['note']} |"
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
        L += [
            "",
            f"Thread scaling ({r1['threads']} -> {r2['threads']}): "
            f"{r2['decisions_per_s'] / r1['decisions_per_s']:.2f}x.",
        ]
    mi = r["million"]
    L += ["", "### Games end to end (`tacsim selfplay`)", ""]
    if "seconds" in mi:
        L.append(
            f"{mi['games']:,} games in {mi['seconds']:.1f} s ({mi['games_per_s']:,.0f} games/s), "
            f"{mi['bytes_written']:,} bytes of records; `{mi['command']}`; method: {mi['method']}."
        )
    elif "skipped" in mi:
        L.append(f"Skipped ({mi['skipped']}).")
    else:
        L.append(f"Failed: {mi.get('error')}")
    b = r["batch"]
    L += [
        "",
        f"## BatchEnv ({b['num_players']} players, random actions)",
        "",
        f"Actions: {b['action_choice']}",
        "",
        f"games/s = {b['games_per_s_definition']}. Env-only = time inside `BatchEnv.step` "
        "(action check, step, auto-reset, observation).",
        "",
        "| batch | threads | observations | actions | decisions/s | games/s "
        "| env-only decisions/s | action choice share | steps | finished games/s (counted) "
        "| decisions/s target | games/s target |",
        "|---|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for x in b["rows"]:
        L.append(
            f"| {x['num_envs']:,} | {x['threads']} | {x['observations']} | {x['actions']} | "
            f"{x['decisions_per_s']:,.0f} | {x['games_per_s']:,.0f} | "
            f"{x['env_only_decisions_per_s']:,.0f} | {x['choose_fraction']:.0%} | {x['steps']}{' (capped)' if x['capped'] else ''} | "
            f"{x['games_finished_per_s']:,.0f} | "
            f"{_pass(check_target(targets, 'batch_decisions_per_s', x['decisions_per_s']))} | "
            f"{_pass(check_target(targets, 'batch_games_per_s', x['games_per_s']))} |"
        )
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
    for label, x in ((a["env_name"], a["env"]), ("connect_four_v3", a["connect_four_v3"])):
        L.append(
            f"| {label} | {x['games']} | {x['steps']:,} | {x['steps_per_s']:,.0f} | "
            f"{x['decisions_per_s']:,.0f} | {x['steps_per_game']:.1f} |"
        )
    L += ["", f"Ratio (steps/s): {a['ratio_steps_per_s']:.2f}x."]
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
        f"| self-play play_chunk, {w['selfplay']['games']} games | "
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
    L += [
        "",
        "The no-JIT games are the same games as the JIT ones (same decisions per game): "
        f"{nj['same_results']}.",
    ]
    if not nj["same_results"]:
        L.append(
            "**Warning**: JIT and no-JIT games differ: stale compiled kernels, or the JIT "
            "changes behaviour."
        )
    cold, cc = r["compile_cold"], r["compile_cached"]
    L += [
        "",
        "## Start-up and compile (fresh subprocesses)",
        "",
        "Paths: **selfplay** = `ruleset.play_chunk` on one game (`tacsim selfplay`'s kernels); "
        "**aec** = `envs.make_env` + `reset`, first `step`, then the rest of one game through "
        "`env.step`; **batch** = `envs.make_batch(64)` + `reset`, 8 steps with `act_batch`. "
        "*first* = make + first calls (import excluded); *again* = the same work repeated in "
        "the same process (compiled: run time); compile = first - again. Cold: "
        "NUMBA_CACHE_DIR an empty folder, one per path. Cached: the usual cache; start = "
        "import + make + first step (for aec: without the rest of the game), and its compile "
        "column is the cache load plus numba's one-time set-up; median of "
        f"{len(cc['aec']['runs'])} runs.",
        "",
        "| path | start | import | make | first step | first | again | compile | whole process |",
        "|---|---|---|---|---|---|---|---|---|",
    ]

    def start_row(label: str, x: dict) -> str:
        return (
            f"| {label} | {x['start_s']:.2f} s | {x['import_s']:.2f} s | {x['make_s']:.2f} s | "
            f"{x['first_step_s']:.2f} s | {x['first_s']:.2f} s | {x['again_s']:.2f} s | "
            f"{x['compile_s']:.2f} s | {x['process_wall_s']:.2f} s |"
        )

    for path in PATHS:
        if path in cold:
            L.append(start_row(f"{path}, cold", cold[path]))
        else:
            L.append(f"| {path}, cold: skipped ({cold.get('skipped')}) | | | | | | | | |")
        runs = cc[path]["runs"]
        for i, x in enumerate(runs):
            L.append(start_row(f"{path}, cached run {i + 1}", x))
    L += [
        "",
        "## State and memory",
        "",
        f"State: {r['state']['bytes_per_game']:,} bytes per game (one `state_dtype` record); "
        f"observation {r['state']['observation_floats']:,} float32; "
        f"{r['state']['n_actions']:,} actions.",
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


def _write(path: Path, text: str) -> Path:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text)
    tmp.replace(path)  # never a half-written results file
    return path


def write_results(reports: list[dict], out_dir: Path, update_latest: bool) -> list[Path]:
    """<ruleset>_<date>_<short>[_quick][_runN].json/.md per ruleset; latest.json/.md for the run."""
    out_dir.mkdir(parents=True, exist_ok=True)
    written = []
    mds = []
    for report in reports:
        date = report["started_utc"][:10]
        # options in the name: a run under other options never overwrites the default's
        tag = "-".join([report["ruleset"], *report.get("options", {}).values()])
        stem = f"{tag}_{date}_{report['git']['short']}"
        stem += "_quick" if report["quick"] else ""
        # a second run of the same commit on the same day (another cache, another load) is kept
        # beside the first, never over it
        base, n = stem, 2
        while (out_dir / f"{stem}.json").exists() or (out_dir / f"{stem}.md").exists():
            stem, n = f"{base}_run{n}", n + 1
        md = to_markdown(report)
        mds.append(md)
        written.append(_write(out_dir / f"{stem}.json", json.dumps(report, indent=2) + "\n"))
        written.append(_write(out_dir / f"{stem}.md", md))
    if update_latest:
        run = {
            "schema": RUN_SCHEMA,
            "command": reports[0]["command"] if reports else None,
            "rulesets": [r["ruleset"] for r in reports],
            "reports": {r["ruleset"]: r for r in reports},
        }
        written.append(_write(out_dir / "latest.json", json.dumps(run, indent=2) + "\n"))
        written.append(_write(out_dir / "latest.md", "\n\n".join(mds)))
    return written


# --------------------------------------------------------------------------------------
# command line


def _add_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument(
        "--ruleset",
        default=None,
        help="ruleset to measure (default: every playable ruleset; `tacsim rulesets` lists them)",
    )
    p.add_argument(
        "--option",
        dest="options",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="an option of the --ruleset measured, repeatable (e.g. tactica's game=basic; "
        "`tacsim rulesets` lists them)",
    )
    p.add_argument("--quick", action="store_true", help="tiny sizes: proves the harness works")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="results folder")
    p.add_argument("--seed", type=int, default=0)
    p.add_argument(
        "--seconds", type=float, default=None, help="time per BatchEnv figure (default 2)"
    )
    p.add_argument(
        "--batch-sizes", default=None, help="default: the ruleset file's (--quick: 1,64)"
    )
    p.add_argument("--threads", default="1,2", help="numba thread counts to measure")
    p.add_argument("--million-games", type=int, default=None, help="default: the ruleset file's")
    p.add_argument("--skip-million", action="store_true", help="leave out the end-to-end run")
    p.add_argument("--skip-cold", action="store_true", help="leave out the cold compiles")
    p.add_argument(
        "--numba-cache",
        default="auto",
        help="auto (default: tacsim's cache, envs/core/jit.py) or a folder to use as the "
        "cache root (NUMBA_CACHE_DIR)",
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
    if args.million_games is not None and args.million_games < 1:
        return f"--million-games must be positive, got {args.million_games}"
    if args.seed < 0:
        return f"--seed must be non-negative, got {args.seed}"
    if args.seconds is not None and args.seconds < 0:
        return f"--seconds must be non-negative, got {args.seconds}"
    return ruleset_error(args.ruleset) or options_error(args)


def options_error(args: argparse.Namespace) -> str | None:
    """Why the --option flags cannot be used (no --ruleset, a bad key or value), or None;
    sets args.resolved_options (every option of the ruleset with its value)."""
    args.resolved_options = {}
    if not getattr(args, "options", None):
        return None
    if args.ruleset is None:
        return "--option needs --ruleset (each ruleset has its own options)"
    from agents.cli import UsageError, check_ruleset

    try:
        args.resolved_options = dict(check_ruleset(args.ruleset, args.options).options)
    except UsageError as e:
        return str(e)
    return None


def ruleset_error(name: str | None) -> str | None:
    """Why `name` cannot be measured (unknown or data only), or None."""
    from envs.registry import UnknownRuleset, entry, names

    if name is None:
        return None if names(playable_only=True) else "no playable ruleset is registered"
    try:
        e = entry(name)
    except UnknownRuleset as err:
        return str(err)
    if not e.playable:
        return (
            f"ruleset {name!r} is data only (no engine to measure); playable: "
            f"{', '.join(names(playable_only=True))}"
        )
    return None


def _measure_and_write(args: argparse.Namespace) -> int:
    from envs.registry import names

    if args.quick:
        args.skip_cold = True
    cache = setup_numba_cache(args.numba_cache)
    rulesets = [args.ruleset] if args.ruleset else names(playable_only=True)
    reports = []
    for name in rulesets:
        reports.append(run_ruleset(name, args, cache))
    paths = write_results(reports, Path(args.out), update_latest=not args.quick)
    for report in reports:
        print(to_markdown(report))
    for p in paths:
        print(f"wrote {p}", file=sys.stderr)
    return 0


def _argv_of(args: argparse.Namespace) -> list[str]:
    """The options of a parsed `tacsim bench`, for the command recorded in the results."""
    out = ["--ruleset", args.ruleset] if args.ruleset else []
    out += [x for o in getattr(args, "options", None) or () for x in ("--option", o)]
    out += ["--quick"] if args.quick else []
    if Path(args.out).resolve() != DEFAULT_OUT:
        out += ["--out", str(args.out)]
    defaults = {"seed": 0, "threads": "1,2", "numba_cache": "auto"}
    for flag in ("seed", "seconds", "batch_sizes", "threads", "million_games", "numba_cache"):
        value = getattr(args, flag)
        if value is not None and value != defaults.get(flag):
            out += ["--" + flag.replace("_", "-"), str(value)]
    out += ["--skip-million"] if args.skip_million else []
    out += ["--skip-cold"] if args.skip_cold and not args.quick else []
    return out


def _command_line(prog: str, argv: list[str]) -> str:
    pp = os.environ.get("PYTHONPATH")
    prefix = f"PYTHONPATH={pp} " if pp else ""
    return prefix + " ".join([prog, *argv])


def run_from_args(args: argparse.Namespace) -> int:
    """`tacsim bench` (agents/cli.py): bad options raise agents.cli.UsageError (exit 2)."""
    message = check_args(args)
    if message:
        from agents.cli import UsageError

        raise UsageError(message)
    args.command_line = _command_line("tacsim bench", _argv_of(args))
    return _measure_and_write(args)


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `bench` on a CLI's subparsers (agents/cli.py)."""
    p = subparsers.add_parser(
        "bench",
        help="benchmarks of every playable ruleset (JSON + markdown in benchmarks/results/)",
        description=__doc__.split("\n\n")[0],
    )
    _add_arguments(p)
    p.set_defaults(func=run_from_args)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    parser = argparse.ArgumentParser(prog="harness", description=__doc__.split("\n\n")[0])
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
        print(f"harness: error: {message}", file=sys.stderr)
        return 2
    args.command_line = _command_line(f"{Path(sys.executable).name} benchmarks/harness.py", argv)
    return _measure_and_write(args)


if __name__ == "__main__":
    if str(ROOT) not in sys.path:  # run as a script from anywhere: the packages live in ROOT
        sys.path.insert(0, str(ROOT))
    sys.exit(main())
