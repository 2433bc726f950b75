"""`tacsim selfplay`: records, summary, resume, refusals, Ctrl-C (agents/selfplay.py, records.py)."""

from __future__ import annotations

import contextlib
import io
import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from agents import cli, records, selfplay
from agents.stats import wilson_interval
from envs.tac.tables import default_tables
from tests.integration.rulesets import DATA_ONLY

GAMES, CHUNK, SEED = 2000, 500, 7
REPO = Path(__file__).resolve().parents[2]


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def selfplay_args(out: Path, *extra: str, games: int = GAMES, seed: int = SEED) -> list[str]:
    return [
        "selfplay",
        "--ruleset",
        "tac",
        "--players",
        "2",
        "--games",
        str(games),
        "--agents",
        "random,random",
        "--seed",
        str(seed),
        "--out",
        str(out),
        "--chunk",
        str(CHUNK),
        *extra,
    ]


@pytest.fixture(scope="module")
def full_run(tmp_path_factory):
    """One uninterrupted run shared by the tests that only read it."""
    out = tmp_path_factory.mktemp("selfplay") / "run"
    rc, stdout, stderr = run_cli(*selfplay_args(out))
    assert rc == 0, stderr
    return out, stdout, records.read_games(out)


def chunk_files(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.endswith(".parquet"))


def test_selfplay_writes_one_row_per_game_in_one_file_per_chunk(full_run):
    out, _, t = full_run
    assert t.num_rows == GAMES
    assert t.column("game_index").to_pylist() == list(range(GAMES))
    assert chunk_files(out) == [f"games-{c:06d}.parquet" for c in range(GAMES // CHUNK)]
    assert set(t.column("seed").to_pylist()) == {SEED}
    assert set(t.column("players").to_pylist()) == {2}
    assert set(t.column("agent_0").to_pylist()) == {"random"}
    assert not [p for p in out.iterdir() if p.name.startswith(".")]  # no temporaries left


def test_selfplay_columns_name_seats_and_unit_types(full_run):
    out, _, t = full_run
    stems = records.unit_columns([u.name for u in default_tables().units])
    expected = ["seed", "game_index", "players", "agent_0", "agent_1", "winner", "winner_agent"]
    expected += ["score_0", "score_1", "reward_0", "reward_1", "length", "rounds"]
    expected += [f"force_{s}_{st}" for s in range(2) for st in stems]
    assert t.column_names == expected
    assert "force_0_main_battle_tank" in t.column_names
    run = json.loads((out / "run.json").read_text())
    assert run["params"] == {
        "ruleset": "tac",
        "players": 2,
        "games": GAMES,
        "agents": ["random", "random"],
        "seed": SEED,
        "chunk": CHUNK,
        "config": None,  # the embedded rule tables
        "options": {},  # TAC has none
    }
    assert run["format"] == selfplay.RUN_FORMAT == 2
    assert run["env"] == "tac_v1"
    assert run["item_columns"]["main_battle_tank"] == "Main Battle Tank"
    assert run["score"] == "victory points"


def test_winner_is_the_seat_with_most_victory_points_and_reward_one(full_run):
    _, _, t = full_run
    c = {n: np.asarray(t.column(n).to_numpy(zero_copy_only=False)) for n in t.column_names}
    vp = np.stack([c["score_0"], c["score_1"]], axis=1)
    rw = np.stack([c["reward_0"], c["reward_1"]], axis=1)
    won = c["winner"] >= 0
    assert won.mean() > 0.9  # draws need equal VP and equal undamaged units: rare
    w = c["winner"][won]
    rows = np.flatnonzero(won)
    # 11.2: the winner has the most VP (ties broken on undamaged units)
    assert np.all(vp[rows, w] == vp[won].max(axis=1))
    assert np.all(rw[rows, w] == 1.0) and np.all(rw[rows, 1 - w] == -1.0)
    assert np.all(vp[~won, 0] == vp[~won, 1])  # a draw is a VP tie
    assert np.all(rw[~won] == 0.0)
    agents = np.stack([c["agent_0"], c["agent_1"]], axis=1)
    assert list(c["winner_agent"][won]) == list(agents[rows, w])
    assert all(a is None for a in c["winner_agent"][~won])


def test_force_columns_hold_each_seats_deal_of_2_tanks_and_5_light_units(full_run):
    _, _, t = full_run
    tb = default_tables()
    stems = records.unit_columns([u.name for u in tb.units])
    for s in range(2):
        tanks = sum(
            t.column(f"force_{s}_{st}").to_numpy().astype(int)
            for st, u in zip(stems, tb.units, strict=True)
            if u.category == "tank"
        )
        lights = sum(
            t.column(f"force_{s}_{st}").to_numpy().astype(int)
            for st, u in zip(stems, tb.units, strict=True)
            if u.category == "light"
        )
        assert np.all(tanks == tb.settings.tanks_per_player)  # seed 2.1
        assert np.all(lights == tb.settings.light_units_per_player)
    rounds = t.column("rounds").to_numpy()
    assert rounds.min() >= 1 and rounds.max() == tb.settings.rounds  # 2.5: 8 rounds at most
    assert t.column("length").to_numpy().min() > 0


def test_summary_prints_games_rate_draws_and_wilson_intervals(full_run):
    _, stdout, t = full_run
    assert f"games: {GAMES:,} on disk of {GAMES:,}" in stdout
    assert "games/s" in stdout and "draws:" in stdout
    winner = t.column("winner").to_numpy()
    wins0 = int((winner == 0).sum())
    lo, hi = wilson_interval(wins0, GAMES)
    line = next(ln for ln in stdout.splitlines() if ln.strip().startswith("seat 0"))
    assert f"{wins0:,}" in line and f"[{lo:.4f}, {hi:.4f}]" in line
    agent = next(ln for ln in stdout.splitlines() if ln.strip().startswith("random"))
    assert f"{2 * GAMES:,}" in agent and f"{int((winner >= 0).sum()):,}" in agent


def test_wilson_interval_matches_newcombe_1998():
    # Newcombe (1998), Stat. Med. 17:857, Table I, method 3 (score without continuity corr.)
    assert wilson_interval(81, 263) == pytest.approx((0.2553, 0.3662), abs=5e-5)
    assert wilson_interval(15, 148) == pytest.approx((0.0624, 0.1605), abs=5e-5)
    assert wilson_interval(0, 20) == pytest.approx((0.0, 0.1611), abs=5e-5)


def test_resume_after_stopping_early_plays_each_game_once(tmp_path, full_run):
    out = tmp_path / "run"
    rc, _, err = run_cli(*selfplay_args(out, "--max-chunks", "2"))
    assert rc == 0 and "Resume with" in err
    assert chunk_files(out) == ["games-000000.parquet", "games-000001.parquet"]
    first = {p: p.stat().st_mtime_ns for p in out.glob("*.parquet")}
    rc, stdout, _ = run_cli(*selfplay_args(out))
    assert rc == 0
    assert f"{GAMES - 2 * CHUNK:,} played now" in stdout
    assert {p: p.stat().st_mtime_ns for p in first} == first  # finished chunks not replayed
    t = records.read_games(out)
    assert t.num_rows == GAMES
    assert t.column("game_index").to_pylist() == list(range(GAMES))
    # the same games as the uninterrupted run: game g depends only on (seed, g)
    assert t.equals(full_run[2])


def test_rerun_of_a_finished_run_plays_nothing(full_run):
    out, _, _ = full_run
    before = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    rc, stdout, _ = run_cli(*selfplay_args(out))
    assert rc == 0 and "none played now" in stdout
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == before


@pytest.mark.parametrize(
    "flag, value, named",
    [("--seed", "8", "seed"), ("--games", "2500", "games"), ("--agents", "random", "agents")],
)
def test_rerun_with_different_parameters_is_refused(full_run, flag, value, named):
    out, _, _ = full_run
    before = {p: p.stat().st_mtime_ns for p in out.iterdir()}
    args = selfplay_args(out)
    args[args.index(flag) + 1] = value
    rc, _, err = run_cli(*args)
    assert rc == 2
    assert "holds a different run" in err and named in err
    assert {p: p.stat().st_mtime_ns for p in out.iterdir()} == before


def test_a_folder_that_is_not_a_run_is_refused(tmp_path):
    (tmp_path / "notes.txt").write_text("mine")
    rc, _, err = run_cli(*selfplay_args(tmp_path))
    assert rc == 2 and "no run.json" in err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]


def test_a_chunk_file_with_the_wrong_row_count_is_refused(tmp_path, full_run):
    out = tmp_path / "run"
    rc, _, _ = run_cli(*selfplay_args(out, "--max-chunks", "1"))
    assert rc == 0
    t = records.read_games(out).slice(0, 10)
    import pyarrow.parquet as pq

    pq.write_table(t, out / "games-000000.parquet")
    rc, _, err = run_cli(*selfplay_args(out))
    assert rc == 2 and "holds 10 games, expected 500" in err


@pytest.mark.parametrize(
    "flag, value, message",
    [
        ("--ruleset", "chess", "unknown ruleset 'chess' (known: tac, fantasy_cards"),
        ("--ruleset", DATA_ONLY, f"ruleset '{DATA_ONLY}' is data only"),
        ("--option", "game=basic", "tac has no options, got --option game=basic"),
        ("--option", "game", "an option is KEY=VALUE, got 'game'"),
        ("--agents", "random,alphazero", "unknown agent 'alphazero'"),
        ("--agents", "random,", "unknown agent ''"),
        ("--players", "1", "players must be 2 to 5, got 1"),
        ("--players", "6", "players must be 2 to 5, got 6"),
        ("--games", "0", "games must be at least 1, got 0"),
        ("--games", "-5", "games must be at least 1, got -5"),
        ("--chunk", "0", "chunk must be at least 1, got 0"),
        ("--seed", "-1", "seed must be 0 to 2**63-1, got -1"),
        ("--threads", "99", "got 99"),
        ("--threads", "0", "got 0"),
        ("--max-chunks", "0", "max-chunks must be at least 1, got 0"),
        ("--games", "many", "invalid int value: 'many'"),
    ],
)
def test_bad_input_exits_2_with_one_line_and_writes_nothing(tmp_path, flag, value, message):
    out = tmp_path / "run"
    args = selfplay_args(out)
    if flag in args:
        args[args.index(flag) + 1] = value
    else:
        args += [flag, value]
    rc, stdout, err = run_cli(*args)
    assert rc == 2
    assert message in err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()
    assert stdout == ""


def test_console_entry_reports_bad_agent_with_exit_2(tmp_path):
    out = tmp_path / "run"
    proc = subprocess.run(
        [sys.executable, "-m", "agents.cli", *selfplay_args(out)[:-2], "--agents", "rnd"],
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "tacsim selfplay: error: unknown agent 'rnd' (known: heuristic, mcts, mcts50, mcts800, "
        "random, or ppo:PATH)"
    )
    assert not out.exists()


def test_ctrl_c_keeps_finished_chunks_readable_and_resume_completes(tmp_path, monkeypatch):
    out = tmp_path / "run"
    real = selfplay._play_chunk
    calls = []

    def interrupted_after_first_chunk(ctx, indices):
        calls.append(int(indices[0]))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(ctx, indices)

    monkeypatch.setattr(selfplay, "_play_chunk", interrupted_after_first_chunk)
    rc, _, err = run_cli(*selfplay_args(out))
    assert rc == 130
    assert "interrupted: 500 of 2,000 games on disk" in err and "Resume with" in err
    assert "tacsim selfplay --ruleset tac --players 2 --games 2000" in err
    assert chunk_files(out) == ["games-000000.parquet"]
    t = records.read_games(out)
    assert t.column("game_index").to_pylist() == list(range(CHUNK))
    monkeypatch.setattr(selfplay, "_play_chunk", real)
    rc, _, _ = run_cli(*selfplay_args(out))
    assert rc == 0
    assert records.read_games(out).column("game_index").to_pylist() == list(range(GAMES))


def test_stale_temporary_chunk_is_removed_and_never_read(tmp_path):
    out = tmp_path / "run"
    assert run_cli(*selfplay_args(out, "--max-chunks", "1"))[0] == 0
    stale = out / ".games-000001.parquet.999.tmp"
    stale.write_bytes(b"half a parquet file")
    assert records.read_games(out).num_rows == CHUNK  # the glob ignores it
    assert run_cli(*selfplay_args(out))[0] == 0
    assert not stale.exists()
    assert records.read_games(out).num_rows == GAMES


def test_query_runs_sql_over_the_games_view(full_run):
    out, _, t = full_run
    q = records.query(out, "SELECT count(*) AS n, max(game_index) AS m FROM games")
    assert q.to_pylist() == [{"n": GAMES, "m": GAMES - 1}]


def test_plugin_subcommand_is_registered_from_add_parser(tmp_path, monkeypatch):
    (tmp_path / "fake_tacsim_plugin.py").write_text(
        "def add_parser(sub):\n"
        "    p = sub.add_parser('fake')\n"
        "    p.add_argument('--code', type=int, default=0)\n"
        "    p.set_defaults(func=lambda args: args.code)\n"
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setattr(cli, "PLUGINS", ("fake_tacsim_plugin", "no_such_pkg.no_such_module"))
    assert cli.main(["fake", "--code", "7"]) == 7
    # a present but broken plugin is not hidden
    (tmp_path / "broken_tacsim_plugin.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.setattr(cli, "PLUGINS", ("broken_tacsim_plugin",))
    with pytest.raises(ModuleNotFoundError, match="no_such_dependency_xyz"):
        cli.main(["selfplay", "--help"])
