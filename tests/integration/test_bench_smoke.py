"""The benchmark script runs and writes complete results (benchmarks/bench_tac.py).

Speed is never asserted here (ARCHITECTURE.md 8): these tests run `--quick` (tiny sizes)
and check that every section of issue 2 section 5 is measured and written as valid JSON
and markdown, that targets are judged the right way round, and that bad options fail
without writing anything.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "benchmarks" / "bench_tac.py"

SECTIONS = (
    "schema",
    "command",
    "git",
    "machine",
    "load_average_start",
    "load_average_end",
    "load_average_by_section",
    "targets",
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


def _load_bench():
    spec = importlib.util.spec_from_file_location("bench_tac_under_test", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(SCRIPT), *args],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
    )


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path_factory.mktemp("bench")
    return _run("--quick", "--out", str(out), "--threads", "1,2"), out


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
    m = quick_report["machine"]
    for key in ("cpu", "cores", "ram_bytes", "os", "python", "versions"):
        assert m[key], key
    assert {"numpy", "numba"} <= set(m["versions"])


def test_batch_grid_covers_every_size_thread_observation_and_chooser_setting(quick_report):
    rows = quick_report["batch"]["rows"]
    seen = {(r["num_envs"], r["observations"], r["actions"]) for r in rows}
    settings = {(True, "numpy"), (False, "numpy"), (False, "kernel")}
    assert seen == {(B, obs, how) for B in (1, 64) for obs, how in settings}
    assert len(rows) == 12  # 2 sizes x 3 (observations, action chooser) x threads 1 and 2
    for r in rows:
        assert r["decisions"] == r["steps"] * r["num_envs"]
        assert r["decisions_per_s"] > 0 and r["games_per_s"] > 0
    assert quick_report["batch"]["action_choice"]


def test_aec_compares_with_connect_four_in_the_same_run(quick_report):
    aec = quick_report["aec"]
    for name in ("tac_v1", "connect_four_v3"):
        assert aec[name]["games"] >= 1 and aec[name]["steps"] > 0
    ratio = aec["tac_v1"]["steps_per_s"] / aec["connect_four_v3"]["steps_per_s"]
    assert aec["ratio_steps_per_s"] == pytest.approx(ratio)


def test_jit_disabled_run_is_compared_game_by_game(quick_report):
    nj = quick_report["nojit"]
    assert nj["worker"]["disable_jit"] is True
    # whether they agree depends on numba's cache (a stale one runs old rules), so the test
    # checks the verdict is computed, not its value
    same = nj["worker"]["selfplay"]["lengths"] == nj["jit_lengths"]
    assert nj["same_results"] is same
    assert len(nj["jit_lengths"]) == nj["worker"]["selfplay"]["games"]


def test_start_memory_and_skipped_sections_are_recorded(quick_report):
    cached = quick_report["compile_cached"]
    assert cached["runs"] and cached["start_s_median"] > 0
    assert quick_report["compile_cold"]["skipped"] == "--quick"
    assert quick_report["million"]["skipped"] == "--quick"
    assert quick_report["state"]["bytes_per_game"] > 0
    for row in quick_report["memory"]["rows"]:
        assert row["peak_rss_bytes"] >= row["env_arrays_bytes"] > 0


def test_summary_rows_carry_targets_and_verdicts(quick_report):
    texts = {t["text"] for t in quick_report["targets"].values()}
    rows = quick_report["summary"]
    assert len(rows) >= 10
    for row in rows:
        assert row["target"] is None or row["target"] in texts
        if row["target"] is None or row["value"] is None:
            assert row["pass"] is None
        else:
            assert isinstance(row["pass"], bool)


def test_markdown_names_machine_commit_and_targets(quick_run, quick_report):
    _, out = quick_run
    md = next(out.glob("tac_*_quick.md")).read_text()
    assert quick_report["git"]["commit"] in md
    assert quick_report["machine"]["cpu"] in md
    assert "| Figure | Value | Target | Pass | Note |" in md
    # --quick measures neither a million games nor 100,000 concurrent ones
    full_size_only = {"million_games_s", "peak_rss_100k_bytes"}
    for key, target in quick_report["targets"].items():
        if key not in full_size_only:
            assert target["text"] in md, key


def test_targets_are_judged_the_right_way_round():
    bench = _load_bench()
    assert bench.check_target("batch_games_per_s", 9_999) is False
    assert bench.check_target("batch_games_per_s", 10_000) is True
    assert bench.check_target("cached_start_s", 2.5) is False
    assert bench.check_target("cached_start_s", 1.5) is True
    assert bench.check_target("bytes_per_game", 4097) is False
    assert bench.check_target("jit_speedup", None) is None


def test_random_action_routine_picks_only_legal_actions_uniformly():
    import numpy as np

    bench = _load_bench()
    masks = np.zeros((3, 10), dtype=np.int8)
    masks[0, [2, 5]] = 1
    masks[1, 9] = 1
    masks[2, :] = 1
    choose = bench.random_actions_factory(3, 10, seed=1)
    picks = np.array([choose(masks) for _ in range(4000)])
    assert set(picks[:, 0]) == {2, 5}
    assert set(picks[:, 1]) == {9}
    counts = np.bincount(picks[:, 2], minlength=10)
    assert counts.min() > 300  # every one of the 10 legal actions drawn (expected 400)


def test_bench_subcommand_registers_on_a_cli():
    bench = _load_bench()
    parser = argparse.ArgumentParser(prog="tacsim")
    bench.add_parser(parser.add_subparsers(dest="command"))
    args = parser.parse_args(["bench", "--quick", "--threads", "1"])
    assert args.quick is True and args.threads == "1"
    assert callable(args.func)


def test_tacsim_cli_offers_bench():
    from agents.cli import build_parser

    args = build_parser().parse_args(["bench", "--quick", "--seed", "3"])
    assert args.func.__name__ == "run_from_args" and args.seed == 3


@pytest.mark.parametrize("option", [("--threads", "0"), ("--batch-sizes", "64,x")])
def test_bad_option_exits_non_zero_and_writes_nothing(tmp_path, option):
    proc = _run("--quick", "--out", str(tmp_path / "out"), *option)
    assert proc.returncode == 2
    assert "must be positive integers" in proc.stderr and option[0] in proc.stderr
    assert not (tmp_path / "out").exists()
