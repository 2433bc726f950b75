"""The Ray backend of `tacsim selfplay` / `tacsim balance` (`--backend ray`).

The run is the same as on the local backend (agents/selfplay.py): chunk c of a run plays game
indices [c*K, (c+1)*K) with the ruleset's `play_chunk`, so game k of a seed is the same game
on either backend. Each chunk not yet on disk is one Ray task; a task runs in a Ray worker
process (numba on one thread there: one task per worker CPU), builds the run's RunContext once
per worker, plays its chunk and returns the records table. Only the DRIVER writes, each table
with `records.write_chunk` (atomic rename) as results arrive, so the folder is exactly what the
local backend writes: a run can be started on one backend and resumed on the other, Ctrl-C
keeps every finished chunk, and a task retried after its worker died (Ray retries it,
`max_retries`) can neither duplicate nor half-write a chunk.

Where Ray runs:

- no ``--address``: a local Ray instance started here with ``--workers`` CPUs (default: all),
  dashboard off, every Ray server bound to 127.0.0.1 (see `start_local`), a small object store;
  shut down at the end. Only an instance started here is shut down.
- ``--address auto`` / ``HOST:PORT``: join a running cluster (`ray start --head` ...); every node
  must have the same tacsim code and rule tables as the driver (checked: a task reports its
  source hash and table fingerprint and a mismatch stops the run before it writes).
- a Ray instance already initialised in this process (tests, notebooks) is used as it is.

Ray is imported only here and only for ``--backend ray``; without it the backend answers with
a one-line error naming the extra to install.
"""

from __future__ import annotations

import contextlib
import ipaddress
import logging
import os
import socket
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from agents.cli import UsageError

BACKENDS = ("local", "ray")
OBJECT_STORE_BYTES = 256 * 2**20  # results are small (~100 bytes a game) and taken at once
MAX_RETRIES = 3  # a task whose worker process died is run again, at most this often
CONNECT_TIMEOUT_S = 5.0  # TCP check of --address HOST:PORT (ray.init would wait for minutes)
# test-only hook: a file path; the first task to find it absent creates it and kills its worker
KILL_MARKER_ENV = "TACSIM_TEST_RAY_KILL_MARKER"
_REPO_ROOT = Path(__file__).resolve().parents[1]


def check_options(
    backend: str, address: str | None, workers: int | None, threads: int | None = None
) -> None:
    """UsageError (one line) for a bad backend choice; imports nothing."""
    if backend not in BACKENDS:
        raise UsageError(f"backend must be one of {', '.join(BACKENDS)}, got {backend!r}")
    if backend == "local":
        if address is not None:
            raise UsageError(f"--address {address} needs --backend ray")
        if workers is not None:
            raise UsageError(f"--workers {workers} needs --backend ray (local: --threads)")
        return
    if workers is not None and workers < 1:
        raise UsageError(f"workers must be at least 1, got {workers}")
    if threads is not None:
        raise UsageError(
            "--threads is for the local backend; with --backend ray each worker plays on one "
            "thread (choose the number of workers with --workers)"
        )
    if address is not None and address != "auto":
        host, sep, port = address.rpartition(":")
        if not sep or not host or not port.isdigit() or not 0 < int(port) < 65536:
            raise UsageError(f"--address must be auto or HOST:PORT, got {address!r}")


def command_flags(backend: str, address: str | None, workers: int | None) -> str:
    """The backend flags for a resume hint (the backend is not part of the run itself)."""
    if backend == "local":
        return ""
    return (
        " --backend ray"
        + (f" --address {address}" if address else "")
        + (f" --workers {workers}" if workers else "")
    )


def import_ray():
    try:
        import ray
    except ImportError:
        raise UsageError("--backend ray needs Ray: pip install 'tacsim[ray]'") from None
    return ray


# --- connecting -----------------------------------------------------------------------------


@dataclass
class RaySession:
    """A connection to Ray for one run: how many chunks may be in flight, and whether this
    session connected (`close` then disconnects; ray.shutdown stops only an instance that
    this process started, a joined cluster keeps running)."""

    ray: Any
    slots: int
    connected_here: bool
    where: str
    start_seconds: float = 0.0

    def close(self) -> None:
        if self.connected_here and self.ray.is_initialized():
            self.ray.shutdown()


def _cluster_cpus(ray) -> int:
    return max(1, int(ray.cluster_resources().get("CPU", 1)))


def start_local(ray, workers: int) -> None:
    """Start a local Ray instance of `workers` CPUs that listens on loopback only.

    Ray refuses 127.0.0.1 as a node address on Linux (it swaps in the machine's reachable
    address, and its gRPC servers then listen on every interface). Its single-machine mode
    (the one it uses on macOS and Windows, `ray_constants.ENABLE_RAY_CLUSTER` false) keeps the
    node on 127.0.0.1, and the GCS, raylet, workers and runtime-env agent then bind there only
    (tests/integration/test_ray_backend.py checks every listening socket). The dashboard is off.
    """
    with _single_machine_mode():
        ray.init(
            num_cpus=workers,
            include_dashboard=False,
            _node_ip_address="127.0.0.1",
            object_store_memory=OBJECT_STORE_BYTES,
            log_to_driver=False,  # a worker's own output stays in Ray's log folder
            logging_level=logging.ERROR,
        )


@contextlib.contextmanager
def _single_machine_mode() -> Iterator[None]:
    """Ray's macOS/Windows mode for the duration of ray.init: 127.0.0.1 stays 127.0.0.1
    (otherwise Ray swaps in the machine's reachable address, both for a node it starts and
    for an address it joins: joining a loopback-only instance at 127.0.0.1:PORT would then
    wait forever on an address nothing listens on)."""
    from ray._private import ray_constants

    saved = getattr(ray_constants, "ENABLE_RAY_CLUSTER", True)
    ray_constants.ENABLE_RAY_CLUSTER = False
    try:
        yield
    finally:
        ray_constants.ENABLE_RAY_CLUSTER = saved


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return host == "localhost"


def _check_reachable(address: str) -> None:
    host, _, port = address.rpartition(":")
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=CONNECT_TIMEOUT_S):
            pass
    except OSError as e:
        raise UsageError(f"cannot reach a Ray cluster at {address}: {e}") from None


def connect(address: str | None, workers: int | None) -> RaySession:
    """Ray for a run: the instance already running in this process, a cluster (`address`),
    or a local instance started here. UsageError if the cluster cannot be reached."""
    ray = import_ray()
    if address not in (None, "auto"):
        _check_reachable(address)  # also with an instance already up: a wrong address is a typo
    t0 = time.perf_counter()
    if ray.is_initialized():
        return RaySession(
            ray, workers or _cluster_cpus(ray), False, "the Ray instance of this process"
        )
    if address is None:
        n = workers or os.cpu_count() or 1
        start_local(ray, n)
        where = f"a local Ray instance ({n} worker{'s' * (n != 1)}, loopback only, no dashboard)"
        return RaySession(ray, n, True, where, time.perf_counter() - t0)
    host = address.rpartition(":")[0]
    mode = _single_machine_mode() if _is_loopback(host) else contextlib.nullcontext()
    try:
        with mode:
            ray.init(address=address, log_to_driver=False, logging_level=logging.ERROR)
    except ConnectionError as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        raise UsageError(f"cannot join the Ray cluster at {address}: {first}") from None
    slots = workers or _cluster_cpus(ray)
    return RaySession(
        ray,
        slots,
        True,
        f"the Ray cluster at {address} ({slots} chunks at once)",
        time.perf_counter() - t0,
    )


# --- the task (runs in a Ray worker) ---------------------------------------------------------

_WORKER_CONTEXT: tuple[Any, Any, tuple[str, str]] | None = None  # (params, RunContext, identity)


def _identity(ctx) -> tuple[str, str]:
    """What must match the driver's for game k to be the same game: code and rule tables."""
    from envs.core.jit import source_hash

    return source_hash(ctx.params.ruleset), ctx.fingerprint()


def _die_once_for_tests(marker: str) -> None:
    try:
        fd = os.open(marker, os.O_CREAT | os.O_EXCL | os.O_WRONLY)
    except FileExistsError:
        return
    os.close(fd)
    os._exit(1)  # as if the worker process were killed mid-task


def play_task(params, chunk: int) -> dict[str, Any]:
    """Play one chunk in a Ray worker; the RunContext is built once per worker and run."""
    global _WORKER_CONTEXT
    from agents import selfplay

    t0 = time.perf_counter()
    if _WORKER_CONTEXT is None or _WORKER_CONTEXT[0] != params:
        ctx = selfplay.make_context(params)
        ctx.play(params.chunk_indices(chunk)[:1])  # load the kernels (numba cache), as the driver
        _WORKER_CONTEXT = (params, ctx, _identity(ctx))
    _, ctx, identity = _WORKER_CONTEXT
    warmup_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    table = selfplay._play_chunk(ctx, params.chunk_indices(chunk))
    play_s = time.perf_counter() - t0
    marker = os.environ.get(KILL_MARKER_ENV)
    if marker:
        _die_once_for_tests(marker)
    return {
        "table": table,
        "identity": identity,
        "play_s": play_s,
        "warmup_s": warmup_s,
    }


# --- the driver -------------------------------------------------------------------------------


def worker_env() -> dict[str, str]:
    """Environment of the worker processes: this code first on the path, numba's cache (the
    driver warmed it), one numba thread (Ray gives each task one CPU)."""
    paths = [str(_REPO_ROOT)]
    for p in os.environ.get("PYTHONPATH", "").split(os.pathsep):
        if p and str(Path(p).resolve()) not in paths:
            paths.append(str(Path(p).resolve()))
    env = {"PYTHONPATH": os.pathsep.join(paths), "NUMBA_NUM_THREADS": "1"}
    for name in ("NUMBA_CACHE_DIR", KILL_MARKER_ENV):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


@dataclass
class RunStats:
    """What the last `chunk_tables` saw (benchmarks/ray_scaling.py reads it)."""

    tasks: int = 0
    play_seconds: float = 0.0  # inside the tasks, summed over workers
    warmup_seconds: float = 0.0  # a worker's first task: RunContext and kernel load
    table_bytes: int = 0  # in-memory size of the returned tables
    rows: int = 0
    slots: int = 0


LAST_STATS = RunStats()


def chunk_tables(
    session: RaySession, params, todo: list[int], expected_identity: tuple[str, str]
) -> Iterator[tuple[int, Any]]:
    """(chunk, records table) for every chunk of `todo`, in the order they finish.

    At most `session.slots` tasks are in flight (so --workers caps a cluster run, and results
    never pile up in the object store). Closing the generator (Ctrl-C, an error) cancels the
    tasks still running."""
    global LAST_STATS
    ray = session.ray
    stats = RunStats(slots=session.slots)
    LAST_STATS = stats
    task = ray.remote(play_task).options(
        num_cpus=1,
        max_retries=MAX_RETRIES,
        retry_exceptions=False,  # a bug raises the same way again: report it at once
        runtime_env={"env_vars": worker_env()},
    )
    queue = list(todo)
    pending: dict[Any, int] = {}
    try:
        while queue or pending:
            while queue and len(pending) < session.slots:
                c = queue.pop(0)
                pending[task.remote(params, c)] = c
            ready, _ = ray.wait(list(pending), num_returns=1)
            for ref in ready:
                c = pending.pop(ref)
                out = ray.get(ref)
                if tuple(out["identity"]) != tuple(expected_identity):
                    raise UsageError(
                        f"a Ray worker runs other {params.ruleset} code or rule tables than this "
                        f"driver (source hash, tables {tuple(out['identity'])} vs "
                        f"{tuple(expected_identity)}): install the same tacsim on every node"
                    )
                table = out["table"]
                stats.tasks += 1
                stats.play_seconds += out["play_s"]
                stats.warmup_seconds += out["warmup_s"]
                stats.table_bytes += table.nbytes
                stats.rows += table.num_rows
                yield c, table
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)


def driver_identity(ctx) -> tuple[str, str]:
    return _identity(ctx)


def describe(session: RaySession) -> str:
    """One line for the user: where the chunks run."""
    extra = f" (ready in {session.start_seconds:.1f} s)" if session.connected_here else ""
    return f"ray: running on {session.where}{extra}"
