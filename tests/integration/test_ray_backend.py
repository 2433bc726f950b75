"""`--backend ray` of `tacsim selfplay` / `tacsim balance` (agents/ray_backend.py).

One two-worker local Ray instance for the module (started through the backend's own
`connect`, so its loopback-only setup is what is tested), shut down at the end; the runs in
between find it initialised and use it.
"""

from __future__ import annotations

import contextlib
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("ray", reason="the ray extra: pip install -e '.[ray]'")

from agents import cli, ray_backend, records  # noqa: E402

GAMES, CHUNK, SEED = 2000, 500, 11
REPO = Path(__file__).resolve().parents[2]


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def selfplay_argv(out: Path, *extra: str) -> list[str]:
    return [
        "selfplay",
        "--ruleset",
        "tac",
        "--games",
        str(GAMES),
        "--agents",
        "random,heuristic",
        "--seed",
        str(SEED),
        "--chunk",
        str(CHUNK),
        "--out",
        str(out),
        *extra,
    ]


def selfplay(out: Path, *extra: str) -> tuple[int, str, str]:
    return run_cli(*selfplay_argv(out, *extra))


@pytest.fixture(scope="module")
def ray_session():
    session = ray_backend.connect(None, 2)
    assert session.connected_here and session.slots == 2
    yield session
    session.close()
    assert not session.ray.is_initialized()


@pytest.fixture(scope="module")
def local_run(tmp_path_factory):
    """The reference: one uninterrupted run on the local backend."""
    out = tmp_path_factory.mktemp("local") / "run"
    rc, _, err = selfplay(out)
    assert rc == 0, err
    return records.read_games(out)


def assert_same_games(out: Path, reference) -> None:
    t = records.read_games(out)
    assert t.column_names == reference.column_names
    assert t.column("game_index").to_pylist() == list(range(GAMES))  # each game exactly once
    for name in reference.column_names:
        assert t.column(name).equals(reference.column(name)), name
    assert t.schema.metadata == reference.schema.metadata


def chunk_files(out: Path) -> list[str]:
    return sorted(p.name for p in out.iterdir() if p.name.endswith(".parquet"))


def test_local_ray_instance_listens_on_loopback_only(ray_session, tmp_path):
    import psutil  # Ray ships it (ray/thirdparty_files, on the path once ray is imported)

    rc, _, err = selfplay(tmp_path / "run", "--backend", "ray")  # the task workers up too
    assert rc == 0, err

    ours = {p.pid: p for p in psutil.Process().children(recursive=True)}
    listening = [
        (c.laddr.ip, ours[c.pid].name())
        for c in psutil.net_connections(kind="inet")
        if c.status == psutil.CONN_LISTEN and c.pid in ours
    ]
    assert any("gcs_server" in name for _, name in listening)  # the check sees Ray's servers
    assert any("raylet" in name for _, name in listening)
    loopback = {"127.0.0.1", "::1", "::ffff:127.0.0.1"}
    assert [(ip, n) for ip, n in listening if ip not in loopback] == []
    assert ray_session.ray.cluster_resources()["CPU"] == 2


def test_ray_writes_the_same_records_as_local(ray_session, local_run, tmp_path):
    rc, stdout, err = selfplay(tmp_path / "ray", "--backend", "ray")
    assert rc == 0, err
    assert "ray: running on the Ray instance of this process" in err
    assert f"games: {GAMES:,} on disk of {GAMES:,}" in stdout
    assert chunk_files(tmp_path / "ray") == [f"games-{c:06d}.parquet" for c in range(4)]
    assert not [p for p in (tmp_path / "ray").iterdir() if p.name.startswith(".")]
    assert_same_games(tmp_path / "ray", local_run)
    assert ray_backend.LAST_STATS.tasks == 4 and ray_backend.LAST_STATS.rows == GAMES


@pytest.mark.parametrize("first,then", [("local", "ray"), ("ray", "local")])
def test_a_run_started_on_one_backend_resumes_on_the_other(
    ray_session, local_run, tmp_path, first, then
):
    out = tmp_path / "run"
    rc, _, err = selfplay(out, "--backend", first, "--max-chunks", "1")
    assert rc == 0, err
    assert len(chunk_files(out)) == 1
    rc, stdout, err = selfplay(out, "--backend", then)
    assert rc == 0, err
    assert f"games: {GAMES:,} on disk of {GAMES:,}; {GAMES - CHUNK:,} played now" in stdout
    assert_same_games(out, local_run)


def test_a_killed_worker_is_retried_without_losing_or_duplicating_a_game(
    ray_session, local_run, tmp_path, monkeypatch
):
    marker = tmp_path / "killed-once"
    monkeypatch.setenv(ray_backend.KILL_MARKER_ENV, str(marker))
    rc, _, err = selfplay(tmp_path / "ray", "--backend", "ray")
    assert rc == 0, err
    assert marker.exists()  # a worker process did die mid-task (after playing, before returning)
    assert ray_backend.LAST_STATS.tasks == 4
    assert_same_games(tmp_path / "ray", local_run)


def test_another_process_joins_the_instance_by_address(ray_session, local_run, tmp_path):
    """--address HOST:PORT: a second driver joins (here the loopback-only instance of this
    process), writes the same records, and leaves the instance running when it is done."""
    gcs = ray_session.ray.get_runtime_context().gcs_address
    assert gcs.startswith("127.0.0.1:")
    env = {**os.environ, "PYTHONPATH": str(REPO)}
    out = tmp_path / "joined"
    argv = [sys.executable, "-m", "agents.cli", *selfplay_argv(out), "--backend", "ray"]
    proc = subprocess.run(
        [*argv, "--address", gcs], cwd=REPO, env=env, capture_output=True, text=True, timeout=300
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert f"ray: running on the Ray cluster at {gcs}" in proc.stderr
    assert_same_games(out, local_run)
    assert ray_session.ray.is_initialized()
    assert ray_session.ray.cluster_resources()["CPU"] == 2  # still up after the joiner left


def test_ctrl_c_keeps_finished_chunks_and_cancels_the_rest(
    ray_session, local_run, tmp_path, monkeypatch
):
    real_write = records.write_chunk
    calls = []

    def write_then_interrupt(out_dir, chunk, table):
        calls.append(chunk)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real_write(out_dir, chunk, table)

    out = tmp_path / "run"
    monkeypatch.setattr(records, "write_chunk", write_then_interrupt)
    rc, _, err = selfplay(out, "--backend", "ray")
    assert rc == 130, err
    assert "interrupted: 500 of 2,000 games on disk" in err
    assert err.rstrip().endswith(f"--chunk {CHUNK} --backend ray")  # the resume hint
    assert len(chunk_files(out)) == 1
    monkeypatch.setattr(records, "write_chunk", real_write)
    rc, _, err = selfplay(out, "--backend", "ray")
    assert rc == 0, err
    assert_same_games(out, local_run)


def test_a_worker_with_other_code_or_tables_stops_the_run_before_a_chunk_is_written(
    ray_session, tmp_path, monkeypatch
):
    # as if this driver's sources or rule tables differed from the workers'
    monkeypatch.setattr(ray_backend, "driver_identity", lambda ctx: ("0" * 16, "f" * 16))
    out = tmp_path / "run"
    rc, _, err = selfplay(out, "--backend", "ray")
    last = err.strip().splitlines()[-1]  # after the progress bar
    assert rc == 2 and last.startswith("tacsim selfplay: error: a Ray worker runs other tac code")
    assert chunk_files(out) == []


def test_balance_with_ray_writes_its_report(ray_session, tmp_path):
    runs, report = tmp_path / "runs", tmp_path / "report"
    rc, stdout, err = run_cli(
        "balance",
        "--ruleset",
        "tac",
        "--games",
        "2000",
        "--chunk",
        "1000",
        "--runs",
        str(runs),
        "--out",
        str(report),
        "--backend",
        "ray",
    )
    assert rc == 0, err
    assert (report / "balance.md").exists() and (report / "balance.png").exists()
    assert records.read_games(runs).num_rows == 2000
    assert "slope: 1 listed VP" in stdout


@pytest.mark.parametrize(
    "extra,message",
    [
        (["--address", "auto"], "--address auto needs --backend ray"),
        (["--workers", "2"], "--workers 2 needs --backend ray"),
        (["--backend", "ray", "--workers", "0"], "workers must be at least 1, got 0"),
        (["--backend", "ray", "--threads", "1"], "--threads is for the local backend"),
        (["--backend", "ray", "--address", "nowhere"], "--address must be auto or HOST:PORT"),
        (["--backend", "ray", "--address", "127.0.0.1:1"], "cannot reach a Ray cluster at"),
    ],
)
def test_bad_backend_input_is_one_line_and_writes_nothing(ray_session, tmp_path, extra, message):
    out = tmp_path / "run"
    rc, _, err = selfplay(out, *extra)
    assert rc == 2
    assert message in err and len(err.strip().splitlines()) == 1, err
    assert not out.exists()


def test_balance_refuses_backend_flags_without_ray_backend(tmp_path):
    rc, _, err = run_cli("balance", "--runs", str(tmp_path / "r"), "--address", "auto")
    assert rc == 2 and "--address auto needs --backend ray" in err
    assert not (tmp_path / "r").exists()


def test_missing_ray_is_a_one_line_error(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)  # `import ray` now raises ImportError
    rc, _, err = selfplay(tmp_path / "run", "--backend", "ray")
    assert rc == 2 and "pip install 'tacsim[ray]'" in err
    assert not (tmp_path / "run").exists()


def test_workers_inherit_this_code_and_one_numba_thread(monkeypatch):
    monkeypatch.setenv("PYTHONPATH", ".")
    env = ray_backend.worker_env()
    paths = env["PYTHONPATH"].split(os.pathsep)
    assert paths[0] == str(Path(ray_backend.__file__).resolve().parents[1])
    assert str(Path(".").resolve()) in paths  # relative entries made absolute
    assert env["NUMBA_NUM_THREADS"] == "1"
