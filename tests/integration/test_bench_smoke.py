"""The benchmark harness runs and writes complete results (benchmarks/harness.py).

Speed is never asserted here (ARCHITECTURE.md 8): these tests run `--quick` (tiny sizes)
and check that every section is measured and written as valid JSON and markdown, that
targets are judged the right way round, and that bad options and unknown or data-only
rulesets fail with one line and write nothing.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.integration.rulesets import DATA_ONLY

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "harness.py"

SECTIONS = (
    "schema",
    "ruleset",
    "env_name",
    "command",
    "git",
    "machine",
    "load_average_start",
    "load_average_end",
    "load_average_by_section",
    "targets",
    "sizes",
    "state",
    "warmup_s",
    "selfplay",
    "batch",
    "aec",
    "nojit",
    "compile_cold",
    "compile_cached",
    "memory",
    "million",
    "numba_cache",
    "summary",
)
PATHS = ("selfplay", "aec", "batch")


def _load_harness():
    spec = importlib.util.spec_from_file_location("harness_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str) -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PYTHONPATH"] = str(ROOT) + (
        os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else ""
    )
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("bench")
    return _run("--ruleset", "tac", "--quick", "--out", str(out), "--threads", "1,2"), out


@pytest.fixture(scope="module")
def quick_report(quick_run) -> dict:
    proc, out = quick_run
    assert proc.returncode == 0, proc.stderr[-3000:]
    files = sorted(out.glob("tac_*_quick.json"))
    assert len(files) == 1, [p.name for p in out.iterdir()]
    return json.loads(files[0].read_text())


def test_quick_run_writes_json_and_markdown_but_not_latest(quick_run, quick_report):
    _, out = quick_run
    names = {p.name for p in out.iterdir()}
    stem = f"tac_{quick_report['started_utc'][:10]}_{quick_report['git']['short']}_quick"
    assert names == {stem + ".json", stem + ".md"}  # no latest.*, no leftover .tmp


def test_report_has_every_section(quick_report):
    missing = [k for k in SECTIONS if k not in quick_report]
    assert not missing
    assert quick_report["quick"] is True
    assert quick_report["ruleset"] == "tac" and quick_report["spec_file"] == "benchmarks/tac.py"
    m = quick_report["machine"]
    for key in ("cpu", "cores", "ram_bytes", "os", "python", "versions"):
        assert m[key], key
    assert {"numpy", "numba"} <= set(m["versions"])
    assert "harness.py" in quick_report["command"] and "--quick" in quick_report["command"]


def test_selfplay_rows_for_each_thread_count(quick_report):
    rows = quick_report["selfplay"]["rows"]
    assert [r["threads"] for r in rows] == [1, 2] or len(rows) == 2
    for r in rows:
        assert r["decisions"] > r["games"] > 0 and r["decisions_per_s"] > 0


def test_batch_grid_covers_every_size_thread_observation_and_chooser_setting(quick_report):
    rows = quick_report["batch"]["rows"]
    seen = {(r["num_envs"], r["observations"], r["actions"]) for r in rows}
    settings = {(True, "numpy"), (False, "numpy"), (False, "kernel")}
    assert seen == {(B, obs, how) for B in (1, 64) for obs, how in settings}
    assert len(rows) == 12  # 2 sizes x 3 (observations, action chooser) x threads 1 and 2
    for r in rows:
        assert r["decisions"] == r["steps"] * r["num_envs"]
        assert r["decisions_per_s"] > 0 and r["games_per_s"] > 0


def test_aec_compares_with_connect_four_in_the_same_run(quick_report):
    aec = quick_report["aec"]
    assert aec["env_name"] == quick_report["env_name"]
    for name in ("env", "connect_four_v3"):
        assert aec[name]["games"] >= 1 and aec[name]["steps"] > 0
    ratio = aec["env"]["steps_per_s"] / aec["connect_four_v3"]["steps_per_s"]
    assert aec["ratio_steps_per_s"] == pytest.approx(ratio)


def test_jit_disabled_run_is_compared_game_by_game(quick_report):
    nj = quick_report["nojit"]
    assert nj["worker"]["disable_jit"] is True
    same = nj["worker"]["selfplay"]["lengths"] == nj["jit_lengths"]
    assert nj["same_results"] is same
    assert len(nj["jit_lengths"]) == nj["worker"]["selfplay"]["games"]
    assert nj["speedup_selfplay_1_thread"] > 0


def test_start_memory_and_skipped_sections_are_recorded(quick_report):
    for path in PATHS:
        cached = quick_report["compile_cached"][path]
        assert cached["runs"] and cached["start_s_median"] > 0
        run = cached["runs"][0]
        assert run["path"] == path
        assert run["first_s"] >= 0 and run["again_s"] >= 0 and run["compile_s"] >= 0
    assert quick_report["compile_cold"]["skipped"] == "--quick"
    assert quick_report["million"]["skipped"] == "--quick"
    assert quick_report["state"]["bytes_per_game"] > 0
    for row in quick_report["memory"]["rows"]:
        assert row["peak_rss_bytes"] >= row["env_arrays_bytes"] > 0


def test_summary_rows_carry_targets_and_verdicts(quick_report):
    texts = {t["text"] for t in quick_report["targets"].values()}
    rows = quick_report["summary"]
    assert len(rows) >= 14
    for row in rows:
        assert row["target"] is None or row["target"] in texts
        if row["target"] is None or row["value"] is None:
            assert row["pass"] is None
        else:
            assert isinstance(row["pass"], bool)
    keys = {row["key"] for row in rows}
    assert {"cold_compile_s", "cached_start_s", "aec_vs_connect_four", "jit_speedup"} <= keys


def test_markdown_names_machine_commit_targets_and_every_path(quick_run, quick_report):
    _, out = quick_run
    md = next(out.glob("tac_*_quick.md")).read_text()
    assert quick_report["git"]["commit"] in md
    assert quick_report["machine"]["cpu"] in md
    assert "| Figure | Value | Target | Pass | Note |" in md
    for path in PATHS:
        assert f"| {path}, cached run 1 |" in md and f"{path}, cold: skipped" in md
    # --quick measures neither a million games nor 100,000 concurrent ones
    for key, target in quick_report["targets"].items():
        if key not in {"million_games_s", "peak_rss_bytes"}:
            assert target["text"] in md, key


def test_targets_are_judged_the_right_way_round():
    harness = _load_harness()
    spec = harness.load_spec("tac")
    t = spec.targets
    assert harness.check_target(t, "batch_games_per_s", 9_999) is False
    assert harness.check_target(t, "batch_games_per_s", 10_000) is True
    assert harness.check_target(t, "cached_start_s", 1.5) is False
    assert harness.check_target(t, "cached_start_s", 0.9) is True
    assert harness.check_target(t, "cold_compile_s", 61) is False
    assert harness.check_target(t, "bytes_per_game", 4097) is False
    assert harness.check_target(t, "jit_speedup", None) is None
    assert harness.check_target(t, "no_such_target", 1.0) is None


def test_a_ruleset_without_a_file_gets_defaults_and_generic_targets():
    harness = _load_harness()
    spec = harness.load_spec("no_such_ruleset_file")
    assert spec.file is None
    assert set(spec.targets) == set(harness.GENERIC_TARGETS)
    assert spec.players == 2 and spec.agent == "random"


def test_random_action_routine_picks_only_legal_actions_uniformly():
    import numpy as np

    harness = _load_harness()
    masks = np.zeros((3, 10), dtype=np.int8)
    masks[0, [2, 5]] = 1
    masks[1, 9] = 1
    masks[2, :] = 1
    choose = harness.random_actions_factory(3, 10, seed=1)
    picks = np.array([choose(masks) for _ in range(4000)])
    assert set(picks[:, 0]) == {2, 5}
    assert set(picks[:, 1]) == {9}
    counts = np.bincount(picks[:, 2], minlength=10)
    assert counts.min() > 300  # every one of the 10 legal actions drawn (expected 400)


def test_bench_subcommand_registers_on_a_cli():
    harness = _load_harness()
    parser = argparse.ArgumentParser(prog="tacsim")
    harness.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "--quick", "--threads", "1", "--ruleset", "tac"])
    assert args.quick is True and args.threads == "1" and args.ruleset == "tac"
    assert callable(args.func)


def test_tacsim_cli_offers_bench():
    from agents.cli import build_parser

    args = build_parser().parse_args(["bench", "--quick", "--seed", "3"])
    assert args.func.__name__ == "run_from_args" and args.seed == 3
    assert args.ruleset is None  # every playable ruleset


@pytest.mark.parametrize("option", [("--threads", "0"), ("--batch-sizes", "64,x")])
def test_bad_option_exits_non_zero_and_writes_nothing(tmp_path, option):
    proc = _run("--quick", "--out", str(tmp_path / "out"), *option)
    assert proc.returncode == 2
    assert "must be positive integers" in proc.stderr and option[0] in proc.stderr
    assert not (tmp_path / "out").exists()


def test_unknown_ruleset_is_one_line_exit_2(tmp_path):
    proc = _run("--ruleset", "nope", "--quick", "--out", str(tmp_path / "out"))
    assert proc.returncode == 2
    assert "unknown ruleset" in proc.stderr and len(proc.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_tacsim_bench_refuses_a_data_only_ruleset(tmp_path, capsys):
    """In process: the data-only example may be one the test registers (rulesets.py)."""
    from agents.cli import main

    assert main(["bench", "--ruleset", DATA_ONLY, "--quick", "--out", str(tmp_path / "o")]) == 2
    err = capsys.readouterr().err.strip()
    assert err.startswith("tacsim bench: error:") and "data only" in err
    assert len(err.splitlines()) == 1
    assert not (tmp_path / "o").exists()


@pytest.mark.parametrize(
    ("args", "words"),
    [
        (["--option", "game=basic"], "--option needs --ruleset"),
        (["--ruleset", "tac", "--option", "game=basic"], "tac has no options"),
        (["--ruleset", "tactica", "--option", "game=easy"], "must be one of advanced, basic"),
    ],
)
def test_bad_ruleset_options_are_one_line_exit_2(capsys, tmp_path, args, words):
    from agents.cli import main

    assert main(["bench", *args, "--quick", "--out", str(tmp_path / "out")]) == 2
    err = capsys.readouterr().err.strip()
    assert words in err and len(err.splitlines()) == 1
    assert not (tmp_path / "out").exists()


def test_the_recorded_command_and_file_names_carry_the_options():
    harness = _load_harness()
    args = argparse.Namespace(
        ruleset="tactica", options=["game=basic"], quick=True, out=harness.DEFAULT_OUT,
        seed=0, seconds=None, batch_sizes=None, threads="1,2", million_games=None,
        numba_cache="auto", skip_million=False, skip_cold=False,
    )  # fmt: skip
    assert harness.check_args(args) is None
    assert args.resolved_options == {"game": "basic", "episode": "war", "armies": "standard"}
    assert harness._argv_of(args)[:4] == ["--ruleset", "tactica", "--option", "game=basic"]


def test_compile_profile_times_every_compiled_function():
    """benchmarks/compile_profile.timed_compile: a caller's time includes its callee's, its
    own (excl) does not."""
    import numba

    from benchmarks.compile_profile import timed_compile

    @numba.njit
    def callee(x):
        return x + 1

    @numba.njit
    def caller(x):
        return callee(x) * 2

    res = timed_compile(lambda: caller(1))
    by_name = {f["name"].rsplit(".", 1)[-1]: f for f in res["functions"]}
    assert by_name["caller"]["count"] == 1 and by_name["callee"]["count"] == 1
    assert by_name["caller"]["incl_s"] >= by_name["callee"]["incl_s"]
    assert (
        by_name["caller"]["excl_s"]
        <= by_name["caller"]["incl_s"] - by_name["callee"]["incl_s"] + 1e-6
    )
    assert res["n_functions"] == len(res["functions"]) >= 2


def test_compile_profile_split_counts_linked_modules_and_inline_expansions():
    """--split: the caller's module holds the callee's code again (two modules, three
    function emissions), and an inline="always" callee is an expansion, not a module."""
    import numba

    from benchmarks.compile_profile import split_compile

    @numba.njit
    def leaf(x):
        return x - 1

    @numba.njit(inline="always")
    def folded(x):
        return x * 3

    @numba.njit
    def top(x):
        return leaf(x) + folded(x)

    from numba.core import codegen

    import envs.core.jit  # noqa: F401 - split_compile wraps its finalize

    finalize_before = codegen.CPUCodeLibrary.finalize
    res = split_compile(lambda: top(2))
    names = [m["module"] for m in res["llvm"]["largest"]]
    assert any("top" in n for n in names) and any("leaf" in n for n in names)
    assert not any("folded" in n for n in names)
    by_module = {m["module"]: m["functions"] for m in res["llvm"]["largest"]}
    top_n = next(v for k, v in by_module.items() if "top" in k)
    leaf_n = next(v for k, v in by_module.items() if "leaf" in k)
    assert top_n > leaf_n  # the leaf's code is in top's module again
    assert res["llvm"]["function_emissions"] == sum(by_module.values())
    assert [r["function"].rsplit(".", 1)[-1] for r in res["inline"]["expansions"]] == ["folded"]
    assert res["inline"]["expansions"][0]["count"] == 1
    # the patches are undone: finalize is again what it was before (envs/core/jit.py's, which
    # split_compile imports, or numba's)
    assert codegen.CPUCodeLibrary.finalize is finalize_before
    assert "split_compile" not in codegen.CPUCodeLibrary.finalize.__qualname__


def test_a_second_run_of_the_same_commit_is_written_beside_the_first(quick_report, tmp_path):
    """Two harness runs of one commit on one day (a cold and a warm cache, say) keep both."""
    harness = _load_harness()
    first = harness.write_results([quick_report], tmp_path, update_latest=False)
    second = harness.write_results([quick_report], tmp_path, update_latest=False)
    third = harness.write_results([quick_report], tmp_path, update_latest=False)
    names = [p.name for p in (*first, *second, *third)]
    assert len(set(names)) == 6, names
    assert second[0].name.endswith("_quick_run2.json") and third[1].name.endswith("_run3.md")
