"""Where a ruleset's cold compile goes: every numba function compiled on one start-up path,
with its time including and excluding the functions it made numba compile first.

    python -m benchmarks.compile_profile --ruleset tactica --path aec [--top 40] [--json F]
    python -m benchmarks.compile_profile --ruleset tactics_david --path selfplay --split

The paths are the harness's cold-compile paths, run by the harness's own code
(benchmarks/harness.py, worker_start: ``selfplay``, ``aec``, ``batch``) with the ruleset's
benchmark agent. The compile runs in this process against an
empty numba cache (a temporary folder, removed afterwards), so what it prints is a cold
compile; the harness's ``cold_compile_s`` is the judged figure, this is the diagnosis.

How to read it (docs/adding_a_ruleset.md, "Habits that keep compile time bounded"): numba
compiles a callee before its caller, and each function's module links the machine code of
everything it calls, so "excl" is the function's own typing and lowering plus LLVM over its
whole call tree. A function with a large excl high in the tree is a level that compiles its
subtree again; many functions with small excl cost numba's per-function overhead.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

PATHS = ("selfplay", "aec", "batch")


def _run_path(name: str, path: str, players: int, options: dict[str, str] | None) -> None:
    """The harness's own start-up path (benchmarks/harness.py, worker_start), its agent."""
    from benchmarks.harness import load_spec, worker_start

    agent = load_spec(name).agent
    worker_start(
        {"ruleset": name, "players": players, "agent": agent, "path": path, "options": options}
    )


def timed_compile(run: Callable[[], Any]) -> dict[str, Any]:
    """Call run() (NUMBA_CACHE_DIR must already be an empty folder) and time every function
    numba compiles meanwhile: {"total_s", "cpu_s", "n_functions", "functions": [{name, count,
    incl_s, excl_s}]}, functions by excl time, largest first."""
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
        run()
    finally:
        event.unregister("numba:compile", listener)
    total, cpu = time.perf_counter() - t0, time.process_time() - c0
    functions = [
        {"name": k, "count": int(v[0]), "incl_s": v[1], "excl_s": v[2]}
        for k, v in sorted(rows.items(), key=lambda kv: -kv[1][2])
    ]
    return {"total_s": total, "cpu_s": cpu, "n_functions": len(functions), "functions": functions}


def _patched(owner: Any, name: str, wrap: Callable[[Callable[..., Any]], Callable[..., Any]]):
    """Replace owner.name by wrap(original); returns an undo function (no-op if numba has no
    such attribute: these are numba internals, so the split is best-effort)."""
    original = getattr(owner, name, None)
    if original is None:
        return lambda: None
    setattr(owner, name, wrap(original))
    return lambda: setattr(owner, name, original)


def split_compile(run: Callable[[], Any]) -> dict[str, Any]:
    """timed_compile, plus where the time goes inside numba (--split): CPU seconds of LLVM
    per module finalised (optimisation + machine code of the module with every callee linked
    in) and of each inline="always" expansion (numba copies the callee's IR per call site),
    exclusive of nested expansions. `function_emissions` counts the functions each module
    held: their sum over the number of distinct functions is how often a callee's code is
    optimised and emitted again, once per level above it."""
    from numba.core import codegen, inline_closurecall

    import envs.core.jit  # noqa: F401 - its own patch of _optimize_final_module goes under ours

    modules: list[tuple[float, str, int]] = []
    inlines: dict[str, list[float]] = defaultdict(lambda: [0, 0.0])
    stack: list[float] = []
    linked: dict[int, int] = {}

    def wrap_finalize(orig: Callable[..., Any]) -> Callable[..., Any]:
        def finalize(self: Any) -> Any:
            t = time.process_time()
            try:
                return orig(self)
            finally:
                modules.append((time.process_time() - t, self.name, linked.pop(id(self), 0)))

        return finalize

    def wrap_optimize(orig: Callable[..., Any]) -> Callable[..., Any]:
        def optimize_final_module(self: Any) -> Any:
            # callees are linked in by now, not yet inlined away by LLVM
            linked[id(self)] = sum(1 for f in self._final_module.functions if not f.is_declaration)
            return orig(self)

        return optimize_final_module

    def wrap_inline(orig: Callable[..., Any]) -> Callable[..., Any]:
        def inline_function(self: Any, caller_ir: Any, block: Any, i: Any, fn: Any, *a: Any):
            stack.append(0.0)
            t = time.process_time()
            try:
                return orig(self, caller_ir, block, i, fn, *a)
            finally:
                dt = time.process_time() - t
                nested = stack.pop()
                row = inlines[getattr(fn, "__qualname__", str(fn))]
                row[0] += 1
                row[1] += dt - nested
                if stack:
                    stack[-1] += dt

        return inline_function

    undo = [
        _patched(codegen.CPUCodeLibrary, "finalize", wrap_finalize),
        _patched(codegen.CPUCodeLibrary, "_optimize_final_module", wrap_optimize),
        _patched(inline_closurecall.InlineWorker, "inline_function", wrap_inline),
    ]
    try:
        res = timed_compile(run)
    finally:
        for u in undo:
            u()
    modules.sort(reverse=True)
    res["llvm"] = {
        "cpu_s": sum(m[0] for m in modules),
        "modules": len(modules),
        "function_emissions": sum(m[2] for m in modules),
        "largest": [{"cpu_s": t, "module": name, "functions": n} for t, name, n in modules],
    }
    res["inline"] = {
        "cpu_s": sum(v[1] for v in inlines.values()),
        "expansions": sorted(
            ({"function": k, "count": int(v[0]), "cpu_s": v[1]} for k, v in inlines.items()),
            key=lambda r: -r["cpu_s"],
        ),
    }
    return res


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


def write_results(out: Path, label: str, res: dict[str, Any], top: int, command: str) -> Path:
    """benchmarks/results-style JSON + markdown: compile_<label>_<date>_<commit>.json/.md."""
    m = res["machine"]
    stem = out / f"compile_{label}_{m['date_utc'][:10]}_{m['commit']}"
    out.mkdir(parents=True, exist_ok=True)
    stem.with_suffix(".json").write_text(json.dumps(res, indent=1))
    lines = [
        f"# Cold compile: {label}",
        "",
        f"Commit {m['commit']}, {m['date_utc']} UTC, {m['machine']}, {m['cpus']} CPUs, load "
        f"average {m['load_average_1m']:.2f} at the end, Python {m['python']}, numba "
        f"{m['numba']}. Command: `{command}`.",
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


def _parse_options(items: list[str]) -> dict[str, str] | None:
    out: dict[str, str] = {}
    for item in items:
        key, sep, value = item.partition("=")
        if not sep or not key:
            raise SystemExit(f"--option takes KEY=VALUE, got {item!r}")
        out[key] = value
    return out or None


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="tac")
    p.add_argument("--path", choices=PATHS, default="aec")
    p.add_argument("--players", type=int, default=None, help="default: the benchmark's")
    p.add_argument("--option", action="append", default=[], help="KEY=VALUE, repeatable")
    p.add_argument("--top", type=int, default=30, help="functions listed (by excl time)")
    p.add_argument("--json", type=Path, default=None, help="also write the whole table here")
    p.add_argument(
        "--run",
        default=None,
        help="MODULE:FUNCTION, a function of no arguments that compiles what to profile, "
        "instead of a registered ruleset's path (an engine not yet registered)",
    )
    p.add_argument("--out", type=Path, default=None, help="write JSON + markdown results here")
    p.add_argument(
        "--split",
        action="store_true",
        help="also time LLVM per module and numba's inline expansions (patches numba "
        "internals for the run; docs/adding_a_ruleset.md, what the compile is made of)",
    )
    args = p.parse_args(argv)
    options = _parse_options(args.option)
    with tempfile.TemporaryDirectory(prefix="tacsim-compile-") as cache:
        # before envs is imported: envs/core/jit.py reads it when the kernels are decorated
        os.environ["NUMBA_CACHE_DIR"] = cache
        if "envs" in sys.modules:
            raise SystemExit("run compile_profile in a fresh interpreter (envs already imported)")
        if args.run:
            import importlib

            module, _, fn = args.run.partition(":")
            run = getattr(importlib.import_module(module), fn or "compile_kernels")
            label = module.removeprefix("envs.").replace(".", "_")
        else:
            from benchmarks.harness import load_spec
            from envs import registry

            if args.ruleset not in registry.names(playable_only=True):
                raise SystemExit(f"unknown or unplayable ruleset {args.ruleset!r}")
            players = args.players or load_spec(args.ruleset).players

            def run() -> None:
                _run_path(args.ruleset, args.path, players, options)

            label = f"{args.ruleset}_{args.path}"
        result = (split_compile if args.split else timed_compile)(run)
    print(
        f"{label}: cold compile {result['total_s']:.1f} s (cpu {result['cpu_s']:.1f} s), "
        f"{result['n_functions']} functions"
    )
    print(f"{'excl s':>7} {'incl s':>7} {'n':>3}  function")
    for r in result["functions"][: args.top]:
        print(f"{r['excl_s']:7.2f} {r['incl_s']:7.2f} {r['count']:3d}  {r['name']}")
    if args.split:
        llvm, inl = result["llvm"], result["inline"]
        print(
            f"LLVM: {llvm['cpu_s']:.1f} s CPU over {llvm['modules']} modules holding "
            f"{llvm['function_emissions']} functions in all; largest:"
        )
        for m in llvm["largest"][: min(args.top, 10)]:
            print(f"{m['cpu_s']:7.2f} {m['functions']:5d}  {m['module']}")
        print(f"inline expansions: {inl['cpu_s']:.1f} s CPU; largest:")
        for r in inl["expansions"][: min(args.top, 10)]:
            print(f"{r['cpu_s']:7.2f} {r['count']:5d}  {r['function']}")
    result["machine"] = _machine()
    if args.json is not None:
        args.json.write_text(json.dumps(result, indent=1))
    if args.out is not None:
        command = "python -m benchmarks.compile_profile " + " ".join(argv or sys.argv[1:])
        print(f"wrote {write_results(args.out, label, result, args.top, command)}.json/.md")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
