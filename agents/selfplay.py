"""Batched self-play driver behind `tacsim selfplay`: whole games inside numba, chunk by chunk.

Works for every playable ruleset of the registry (envs/registry.py). Game indices 0..N-1 are
split into chunks of K: chunk c plays indices [c*K, (c+1)*K) with the ruleset's `play_chunk`
kernel (prange over games, every core) and is written as one Parquet file by `agents.records`
(atomically). Seat s of game g is played by agents[(s + g) % len(agents)]; the kernel records
which position of the list played each seat, and the records name that agent.

Resuming: DIR/run.json holds the parameters. Rerunning with the same DIR and parameters
plays only the chunks not on disk; a finished chunk is never replayed, an unfinished one is
replayed whole, so no game is duplicated or lost. Different parameters (different rule
tables, other ruleset options) in the same DIR are refused. Ctrl-C stops between chunks'
writes: every file with a final name is a complete chunk.
"""

from __future__ import annotations

import contextlib
import sys
import time
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from agents import policy, records
from agents.cli import UsageError
from agents.stats import wilson_interval

if TYPE_CHECKING:
    from agents.ray_backend import RaySession

DEFAULT_CHUNK = 10_000
MAX_SEED = 2**63 - 1  # seeds travel to the kernels as int64
RUN_FORMAT = 2  # bump when the record layout changes (2: score_s, force_s_<item>)


@dataclass(frozen=True)
class SelfplayParams:
    """What defines a run: a resume must ask for exactly these."""

    ruleset: str
    players: int
    games: int
    agents: tuple[str, ...]
    seed: int
    chunk: int
    config: str | None = None  # rule-table folder (absolute path); None = the embedded one
    # the ruleset's options, resolved: every option with its value (TAC: none)
    options: dict[str, str] = field(default_factory=dict)

    @property
    def n_chunks(self) -> int:
        return -(-self.games // self.chunk)

    def chunk_indices(self, c: int) -> np.ndarray:
        return np.arange(c * self.chunk, min((c + 1) * self.chunk, self.games), dtype=np.int64)

    def command(self, out_dir: Path) -> str:
        """The `tacsim selfplay` line that (re)runs this run."""
        return (
            f"tacsim selfplay --ruleset {self.ruleset} --players {self.players} "
            f"--games {self.games} --agents {','.join(self.agents)} --seed {self.seed} "
            f"--out {out_dir} --chunk {self.chunk}"
            + (f" --config {self.config}" if self.config is not None else "")
            + option_flags(self.options)
        )


def option_flags(options: Mapping[str, str] | None) -> str:
    """` --option k=v ...` for a command line (empty without options)."""
    return "".join(f" --option {k}={v}" for k, v in (options or {}).items())


def describe_options(options: Mapping[str, str] | None) -> str:
    """`game=basic, episode=battle, armies=standard` for reports and summaries ('' if none)."""
    return ", ".join(f"{k}={v}" for k, v in (options or {}).items())


def options_tag(ruleset: str, options: Mapping[str, str] | None = None) -> str:
    """`tactica-standard-battle-basic` (the ruleset and its option values, for default folder
    names; the ruleset alone when it has no options): runs under other options never share
    a folder."""
    return "-".join([ruleset, *(records.slug(v) for v in (options or {}).values())])


def load_ruleset(
    name: str,
    config: str | Path | None = None,
    options: Mapping[str, str] | list[str] | tuple[str, ...] | None = None,
):
    """The playable ruleset `name` (tables from `config`, default the embedded ones) with
    `options` (a dict, or --option KEY=VALUE strings), or a one-line UsageError (unknown or
    data only, a bad option); a broken config folder raises ConfigError."""
    from agents.cli import check_ruleset

    if config is not None and not Path(config).is_dir():
        raise UsageError(f"config folder {config} does not exist")
    return check_ruleset(name, options, config)


def known_agents(ruleset: str, options: Mapping[str, str] | None = None) -> dict[str, int]:
    return dict(load_ruleset(ruleset, options=options).agents)


def make_params(
    ruleset: str,
    players: int,
    games: int,
    agents: str | list[str] | tuple[str, ...],
    seed: int,
    chunk: int | None = None,
    config: str | Path | None = None,
    options: Mapping[str, str] | list[str] | tuple[str, ...] | None = None,
) -> SelfplayParams:
    """Validated run parameters; UsageError (one line, naming the bad value) otherwise.
    `options`: the ruleset's options (a dict or KEY=VALUE strings); the params hold them
    resolved (every option with its value)."""
    config = None if config is None else str(Path(config).resolve())
    rs = load_ruleset(ruleset, config, options)
    if not rs.min_players <= players <= rs.max_players:
        raise UsageError(
            f"{ruleset}: players must be {rs.min_players} to {rs.max_players}, got {players}"
        )
    if games < 1:
        raise UsageError(f"games must be at least 1, got {games}")
    names = tuple(agents.split(",")) if isinstance(agents, str) else tuple(agents)
    known = dict(rs.agents)
    if not 1 <= len(names) <= rs.max_players:
        raise UsageError(f"give 1 to {rs.max_players} agents, got {len(names)}: {','.join(names)}")
    for name in names:
        if policy.is_policy_name(name):
            check_policy(name, rs, players)
        elif name not in known:
            raise UsageError(
                f"unknown agent {name!r} (known: {', '.join(sorted(known))}, or ppo:PATH)"
            )
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed must be 0 to 2**63-1, got {seed}")
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    if chunk < 1:
        raise UsageError(f"chunk must be at least 1, got {chunk}")
    return SelfplayParams(
        ruleset, players, games, names, seed, min(chunk, games), config, dict(rs.options)
    )


def check_policy(name: str, ruleset, players: int) -> None:
    """A `ppo:PATH` agent loads and fits the ruleset and player count; UsageError otherwise
    (agents/policy.py)."""
    try:
        policy.load(name, ruleset, players)
    except ValueError as e:
        raise UsageError(str(e)) from None


def check_threads(threads: int | None) -> None:
    if threads is None:
        return
    import numba

    most = numba.config.NUMBA_NUM_THREADS
    if not 1 <= threads <= most:
        raise UsageError(f"threads must be 1 to {most} on this machine, got {threads}")


# --- the ruleset side: tables and the chunk kernel --------------------------------------


class RunContext:
    """Everything a chunk needs, built once per run: the ruleset, one reused state batch,
    the agent ids."""

    def __init__(self, params: SelfplayParams):
        self.params = params
        self.ruleset = load_ruleset(params.ruleset, params.config, params.options)
        # -1 for a ppo:PATH agent (played by the arena, never by a kernel)
        self.agent_ids = np.array(
            [-1 if policy.is_policy_name(a) else self.ruleset.agent_id(a) for a in params.agents],
            dtype=np.int8,
        )
        self.state = self.ruleset.allocate(params.chunk, params.players)
        self.arena = None  # agents.arena.Arena, built on first play when a policy plays

    @property
    def item_names(self) -> list[str]:
        return list(self.ruleset.record.items)

    def fingerprint(self) -> str:
        """Hash of the rule tables: a resume with changed rule data is refused."""
        return self.ruleset.fingerprint()

    def play(self, indices: np.ndarray):
        if any(policy.is_policy_name(a) for a in self.params.agents):
            # a trained policy among the agents: the arena's Python loop (agents/arena.py)
            from agents.arena import Arena

            if self.arena is None:
                self.arena = Arena(self.ruleset, self.params.players, self.params.agents)
            return self.arena.play(self.params.seed, indices, self.state[: len(indices)])
        rs = self.ruleset
        return rs.play_chunk(
            self.state[: len(indices)], rs.tables_batch, self.params.seed, indices, self.agent_ids
        )


def make_context(params: SelfplayParams) -> RunContext:
    return RunContext(params)


def _play_chunk(ctx: RunContext, indices: np.ndarray):
    """Play one chunk and return its records table (patched in tests to simulate Ctrl-C)."""
    res = ctx.play(indices)
    p = ctx.params
    return records.games_table(p.seed, indices, p.players, list(p.agents), res, ctx.ruleset.record)


# --- the run folder -------------------------------------------------------------------------


def _run_record(params: SelfplayParams, ctx: RunContext) -> dict:
    stems = records.unit_columns(ctx.item_names)
    rs = ctx.ruleset
    return {
        "format": RUN_FORMAT,
        "env": rs.env_name,
        "params": {**asdict(params), "agents": list(params.agents)},
        "tables": ctx.fingerprint(),
        "item_columns": dict(zip(stems, ctx.item_names, strict=True)),
        "score": rs.record.score_label,
        "force": f"{rs.record.item_label} {rs.record.force_verb} to the seat",
    }


def _differences(on_disk: dict, wanted: dict) -> list[str]:
    diffs = []
    if on_disk.get("format") != wanted["format"]:
        diffs.append(f"record format {on_disk.get('format')} vs {wanted['format']}")
    old, new = on_disk.get("params", {}), wanted["params"]
    for key in new:
        # a run written before options existed played its ruleset's only rules: no options
        if old.get(key, {} if key == "options" else None) != new[key]:
            diffs.append(f"{key}: {old.get(key)!r} on disk vs {new[key]!r} asked")
    options_differ = old.get("options", {}) != new.get("options", {})
    if on_disk.get("tables") != wanted["tables"] and not options_differ:
        diffs.append("the rule tables (configs/) changed since the run started")
    return diffs


def prepare_run_dir(out_dir: Path, params: SelfplayParams, ctx: RunContext) -> dict[int, Path]:
    """Check (or create) the run folder; return the finished chunks already on disk.

    Every refusal happens before anything is written."""
    wanted = _run_record(params, ctx)
    if out_dir.exists() and not out_dir.is_dir():
        raise UsageError(f"--out {out_dir} exists and is not a folder")
    on_disk = records.read_run_file(out_dir) if out_dir.is_dir() else None
    if on_disk is None:
        if out_dir.is_dir() and any(not p.name.startswith(".") for p in out_dir.iterdir()):
            raise UsageError(f"--out {out_dir} is not empty and has no run.json: not a run folder")
    else:
        diffs = _differences(on_disk, wanted)
        if diffs:
            raise UsageError(
                f"{out_dir} holds a different run ({'; '.join(diffs)}): "
                "rerun with the same parameters to resume, or choose another --out"
            )
    finished = records.finished_chunks(out_dir) if out_dir.is_dir() else {}
    for c, path in sorted(finished.items()):
        if c >= params.n_chunks:
            raise UsageError(f"{path} is chunk {c} but this run has {params.n_chunks} chunks")
        rows = records.chunk_rows(path)
        if rows != len(params.chunk_indices(c)):
            raise UsageError(
                f"{path} holds {rows} games, expected {len(params.chunk_indices(c))}: "
                "delete it and rerun to replay that chunk"
            )
    out_dir.mkdir(parents=True, exist_ok=True)
    if on_disk is None:
        records.write_run_file(out_dir, wanted)
    records.remove_stale_temporaries(out_dir)
    return finished


# --- the run ------------------------------------------------------------------------------


@dataclass
class Outcome:
    out_dir: Path
    params: SelfplayParams
    games_on_disk: int
    games_played: int  # by this call
    seconds: float  # playing + writing, this call (after the warm-up)
    warmup_seconds: float  # kernel compile or cache load
    interrupted: bool
    complete: bool

    @property
    def games_per_s(self) -> float:
        return self.games_played / self.seconds if self.seconds > 0 else float("nan")


def run_selfplay(
    params: SelfplayParams,
    out_dir: Path | str,
    threads: int | None = None,
    progress: bool = True,
    max_chunks: int | None = None,
    backend: str = "local",
    address: str | None = None,
    workers: int | None = None,
) -> Outcome:
    """Play every chunk of the run not yet on disk (at most `max_chunks` of them).

    backend "local" plays here on `threads` numba threads; "ray" plays one Ray task per chunk
    (agents/ray_backend.py: a local Ray instance of `workers` CPUs, or the cluster at
    `address`). Either way this process writes the same chunk files, so a run can be resumed
    on the other backend. Ctrl-C returns an Outcome with interrupted=True; chunks written
    before it stay."""
    from agents import ray_backend

    out_dir = Path(out_dir)
    check_threads(threads)
    ray_backend.check_options(backend, address, workers, threads)
    if max_chunks is not None and max_chunks < 1:
        raise UsageError(f"max-chunks must be at least 1, got {max_chunks}")
    ctx = make_context(params)
    # Ray first: an unreachable cluster is refused before the run folder is written
    session = ray_backend.connect(address, workers) if backend == "ray" else None
    try:
        return _run_chunks(ctx, out_dir, params, threads, progress, max_chunks, session)
    finally:
        if session is not None:
            session.close()


def _run_chunks(
    ctx: RunContext,
    out_dir: Path,
    params: SelfplayParams,
    threads: int | None,
    progress: bool,
    max_chunks: int | None,
    session: RaySession | None,
) -> Outcome:
    from tqdm import tqdm

    from agents import ray_backend

    finished = prepare_run_dir(out_dir, params, ctx)
    todo = [c for c in range(params.n_chunks) if c not in finished]
    if max_chunks is not None:
        todo = todo[:max_chunks]
    done = sum(len(params.chunk_indices(c)) for c in finished)
    if threads is not None:
        import numba

        numba.set_num_threads(threads)

    played = 0
    interrupted = False
    warmup = 0.0
    bar = tqdm(
        total=params.games,
        initial=done,
        unit="game",
        unit_scale=True,
        desc=f"selfplay {params.ruleset} {params.players}p",
        disable=not progress or not todo,
        file=sys.stderr,
        smoothing=0.3,
    )
    t_start = time.perf_counter()
    try:
        if todo:
            # compile or load the kernels on one game first, so games/s measures play only
            if progress and not jit_cache_is_warm(params.ruleset):
                bar.write(
                    f"compiling the {params.ruleset} numba kernels (first run after install "
                    "or an edit: under a minute; later runs load them in about a second)",
                    file=sys.stderr,
                )
            ctx.play(params.chunk_indices(todo[0])[:1])
            warmup = time.perf_counter() - t_start
        if session is None:
            tables = ((c, _play_chunk(ctx, params.chunk_indices(c))) for c in todo)
        else:  # Ray tasks play; this process writes, as above
            if progress:
                bar.write(ray_backend.describe(session), file=sys.stderr)
            identity = ray_backend.driver_identity(ctx)
            tables = ray_backend.chunk_tables(session, params, todo, identity)
        with contextlib.closing(tables):
            for c, table in tables:
                records.write_chunk(out_dir, c, table)
                played += table.num_rows
                bar.update(table.num_rows)
    except KeyboardInterrupt:
        interrupted = True
    finally:
        bar.close()
    seconds = time.perf_counter() - t_start - warmup
    # count from the folder: a Ctrl-C just after a rename still counts that chunk
    on_disk = sum(len(params.chunk_indices(c)) for c in records.finished_chunks(out_dir))
    return Outcome(
        out_dir, params, on_disk, played, seconds, warmup, interrupted, on_disk == params.games
    )


# --- the summary ----------------------------------------------------------------------------


def jit_cache_is_warm(ruleset: str = "tac") -> bool:
    """Whether numba's cache for these sources holds compiled kernels already."""
    from envs.core.jit import cache_is_warm

    return cache_is_warm(ruleset)


@dataclass
class WinRow:
    label: str
    seat_games: int  # games × seats this agent (or seat) played
    wins: int

    @property
    def rate(self) -> float:
        return self.wins / self.seat_games if self.seat_games else float("nan")

    @property
    def ci(self) -> tuple[float, float]:
        return wilson_interval(self.wins, self.seat_games)


@dataclass
class Summary:
    games: int
    draws: int
    mean_length: float
    mean_rounds: float
    unique_games: int
    by_agent: list[WinRow]
    by_seat: list[WinRow]


def summarize(out_dir: Path | str, players: int) -> Summary:
    """Win counts per agent and per seat over every game on disk (DuckDB, no pandas)."""
    out_dir = Path(out_dir)
    head = records.query(
        out_dir,
        "SELECT count(*) AS n, count(*) FILTER (WHERE winner < 0) AS draws, "
        "avg(length) AS len, avg(rounds) AS rounds, count(DISTINCT game_index) AS uniq "
        "FROM games",
    ).to_pylist()[0]
    seats = " UNION ALL ".join(
        f"SELECT agent_{s} AS agent, {s} AS seat, (winner = {s})::INT AS won FROM games"
        for s in range(players)
    )
    agent_rows = records.query(
        out_dir,
        f"SELECT agent, count(*) AS n, sum(won) AS w FROM ({seats}) GROUP BY agent ORDER BY agent",
    ).to_pylist()
    seat_rows = records.query(
        out_dir,
        f"SELECT seat, count(*) AS n, sum(won) AS w FROM ({seats}) GROUP BY seat ORDER BY seat",
    ).to_pylist()
    return Summary(
        games=head["n"],
        draws=head["draws"],
        mean_length=head["len"],
        mean_rounds=head["rounds"],
        unique_games=head["uniq"],
        by_agent=[WinRow(r["agent"], r["n"], int(r["w"])) for r in agent_rows],
        by_seat=[WinRow(f"seat {r['seat']}", r["n"], int(r["w"])) for r in seat_rows],
    )


def format_summary(outcome: Outcome, summary: Summary) -> str:
    p = outcome.params
    opts = f", options {describe_options(p.options)}" if p.options else ""
    lines = [
        f"run: {outcome.out_dir}  ({p.ruleset}{opts}, {p.players} players, agents "
        f"{','.join(p.agents)}, seed {p.seed})",
        f"games: {summary.games:,} on disk of {p.games:,}"
        + (
            f"; {outcome.games_played:,} played now in {outcome.seconds:.2f} s = "
            f"{outcome.games_per_s:,.0f} games/s (kernel warm-up {outcome.warmup_seconds:.1f} s)"
            if outcome.games_played
            else "; none played now (all chunks already on disk)"
        ),
        f"draws: {summary.draws:,} ({summary.draws / max(summary.games, 1):.2%});"
        f" mean length {summary.mean_length:.1f} decisions, {summary.mean_rounds:.2f} rounds",
        "win rate = wins / seats played, 95% Wilson interval:",
        f"  {'':<14}{'seats':>10}{'wins':>10}{'win rate':>10}   95% CI",
    ]
    for group in (summary.by_agent, summary.by_seat):
        for r in group:
            lo, hi = r.ci
            lines.append(
                f"  {r.label:<14}{r.seat_games:>10,}{r.wins:>10,}{r.rate:>10.4f}   "
                f"[{lo:.4f}, {hi:.4f}]"
            )
    return "\n".join(lines)


def cmd_selfplay(args) -> int:
    """`tacsim selfplay` (see agents/cli.py for the flags)."""
    from agents import ray_backend

    params = make_params(
        args.ruleset,
        args.players,
        args.games,
        args.agents,
        args.seed,
        args.chunk,
        args.config,
        args.options,
    )
    check_threads(args.threads)
    outcome = run_selfplay(
        params,
        args.out,
        threads=args.threads,
        progress=True,
        max_chunks=args.max_chunks,
        backend=args.backend,
        address=args.address,
        workers=args.workers,
    )
    if outcome.games_on_disk:
        print(format_summary(outcome, summarize(outcome.out_dir, params.players)))
    if not outcome.complete:
        why = "interrupted" if outcome.interrupted else "stopped early (--max-chunks)"
        print(
            f"{why}: {outcome.games_on_disk:,} of {params.games:,} games on disk in "
            f"{outcome.out_dir} (every finished chunk is a complete file). Resume with:\n  "
            f"{params.command(outcome.out_dir)}"
            f"{ray_backend.command_flags(args.backend, args.address, args.workers)}",
            file=sys.stderr,
        )
        return 130 if outcome.interrupted else 0
    return 0
