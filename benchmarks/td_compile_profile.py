"""Where Tactics David's cold compile of start/legal/apply goes (the ruleset is not
registered yet, so benchmarks/compile_profile.py, which runs the harness's paths of a
registered ruleset, cannot profile it; this is the same numba-event listener over the
one-game kernels).

    PYTHONPATH=. python -m benchmarks.td_compile_profile [--top 25] [--json F] [--out DIR]

--out DIR writes td_compile_<UTC date>_<short commit>.json and .md there (with the machine,
its load average and the commit), as benchmarks/results/ keeps figures.

It compiles against an empty temporary numba cache (removed afterwards), so the total is a
cold compile. "excl" is a function's own typing and lowering plus LLVM over its whole call
tree (docs/adding_a_ruleset.md, "Habits that keep compile time bounded").
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any


def _compile_kernels() -> None:
    """Compile start, legal and apply by calling each once (one random game's first steps)."""
    import numpy as np

    from envs.tactics_david import kernels as K
    from envs.tactics_david import state as st
    from envs.tactics_david.actions import MAX_LEGAL
    from envs.tactics_david.record import build_record
    from envs.tactics_david.tables import load_tables

    tb = build_record(load_tables())
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.int64(0)
    n = K.start(S, tb, b, np.int64(0), np.int64(0), out)
    K.legal(S, tb, b, out)
    K.apply(S, tb, b, np.int64(out[n - 1]), out)


def profile() -> dict[str, Any]:
    """Compile cold (NUMBA_CACHE_DIR already an empty folder) and time every function."""
    from numba.core import event

    stack: list[list[Any]] = []
    rows: dict[str, list[float]] = defaultdict(lambda: [0, 0.0, 0.0])

    class Listener(event.Listener):
        def on_start(self, ev: event.Event) -> None:
            fn = ev.data["dispatcher"].py_func
            stack.append([f"{fn.__module__}.{fn.__qualname__}", time.perf_counter(), 0.0])

        def on_end(self, ev: event.Event) -> None:
            fname, t0, children = stack.pop()
            dt = time.perf_counter() - t0
            r = rows[fname]
            r[0] += 1
            r[1] += dt
            r[2] += dt - children
            if stack:
                stack[-1][2] += dt

    listener = Listener()
    event.register("numba:compile", listener)
    t0, c0 = time.perf_counter(), time.process_time()
    try:
        _compile_kernels()
    finally:
        event.unregister("numba:compile", listener)
    functions = [
        {"name": k, "count": int(v[0]), "incl_s": v[1], "excl_s": v[2]}
        for k, v in sorted(rows.items(), key=lambda kv: -kv[1][2])
    ]
    return {
        "total_s": time.perf_counter() - t0,
        "cpu_s": time.process_time() - c0,
        "n_functions": len(functions),
        "functions": functions,
    }


def _machine() -> dict[str, Any]:
    import platform
    import subprocess

    import numba

    commit = subprocess.run(
        ["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True, check=False
    ).stdout.strip()
    return {
        "commit": commit or "unknown",
        "date_utc": time.strftime("%Y-%m-%d %H:%M", time.gmtime()),
        "machine": platform.platform(),
        "cpus": os.cpu_count(),
        "load_average_1m": os.getloadavg()[0],
        "python": platform.python_version(),
        "numba": numba.__version__,
    }


def _write(out: Path, res: dict[str, Any], top: int) -> Path:
    m = res["machine"]
    stem = out / f"td_compile_{m['date_utc'][:10]}_{m['commit']}"
    out.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".json").write_text(json.dumps(res, indent=1))
    lines = [
        "# Tactics David: cold compile of start + legal + apply",
        "",
        f"Commit {m['commit']}, {m['date_utc']} UTC, {m['machine']}, {m['cpus']} CPUs, load "
        f"average {m['load_average_1m']:.2f} at the end, Python {m['python']}, numba "
        f"{m['numba']}. Command: `PYTHONPATH=. python -m benchmarks.td_compile_profile`.",
        "",
        f"**{res['total_s']:.1f} s wall, {res['cpu_s']:.1f} s CPU, {res['n_functions']} "
        "functions compiled.**",
        "",
        "| excl s | incl s | function |",
        "|---:|---:|---|",
    ]
    lines += [
        f"| {f['excl_s']:.2f} | {f['incl_s']:.2f} | {f['name']} |" for f in res["functions"][:top]
    ]
    stem.with_suffix(".md").write_text("\n".join(lines) + "\n")
    return stem


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--top", type=int, default=25, help="functions listed (by excl time)")
    p.add_argument("--json", type=Path, default=None, help="also write the whole table here")
    p.add_argument("--out", type=Path, default=None, help="write JSON + markdown results here")
    args = p.parse_args(argv)
    if "envs" in sys.modules:
        raise SystemExit("run td_compile_profile in a fresh interpreter (envs already imported)")
    with tempfile.TemporaryDirectory(prefix="tacsim-compile-") as cache:
        os.environ["NUMBA_CACHE_DIR"] = cache  # before envs/core/jit.py decorates anything
        res = profile()
    print(
        f"start+legal+apply cold: {res['total_s']:.1f} s wall, {res['cpu_s']:.1f} s CPU, "
        f"{res['n_functions']} functions"
    )
    print(f"{'excl s':>7} {'incl s':>7} {'n':>3}  function")
    for f in res["functions"][: args.top]:
        print(f"{f['excl_s']:7.2f} {f['incl_s']:7.2f} {f['count']:3d}  {f['name']}")
    res["machine"] = _machine()
    if args.json:
        args.json.write_text(json.dumps(res, indent=1))
    if args.out:
        print(f"wrote {_write(args.out, res, args.top)}.json/.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
