"""The self-play results store: one Parquet file per finished chunk of games, read with DuckDB.

A run folder holds

- ``run.json``: the run's parameters (what a resume must match) and the column legend;
- ``games-CCCCCC.parquet``: chunk ``C`` = game indices ``[C*K, (C+1)*K)`` (the last one may be
  shorter), written to a hidden temporary name and renamed into place (``os.replace`` is
  atomic), so a file with the final name is always a complete chunk.

One row per game. Columns (seats ``s`` = 0..P-1 only):

=====================  =========  ===========================================================
column                 type       meaning
=====================  =========  ===========================================================
seed                   int64      the run's seed
game_index             int64      which game of the seed (0..N-1): replayable with the env
players                int8       P
agent_s                string     agent that played seat s (from the kernel's own record)
winner                 int8       winning seat, -1 for a draw
winner_agent           string     agent of the winning seat, null for a draw
score_s                int16      seat s's final score (the ruleset's score: TAC's victory
                                  points, 11.1)
reward_s               float32    seat s's reward
length                 int32      decisions taken in the game (all players, all phases)
rounds                 int8       rounds played (the last one possibly cut short)
force_s_<item>         int8       items of that kind in seat s's force (TAC: unit cards
                                  dealt at setup, 2.1; the ruleset's RecordSpec says what)
=====================  =========  ===========================================================

``<item>`` is the item name in snake case (``Main Battle Tank`` -> ``main_battle_tank``); the
legend is in run.json (``item_columns``) and in each file's schema metadata.

Reading: ``read_games(DIR)`` (a pyarrow Table ordered by game_index) or SQL with
``query(DIR, "SELECT winner_agent, count(*) FROM games GROUP BY 1")``; by hand,
``duckdb.sql("SELECT * FROM 'DIR/*.parquet'")``.
"""

from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

RUN_FILE = "run.json"
CHUNK_PREFIX = "games-"
CHUNK_SUFFIX = ".parquet"
TMP_SUFFIX = ".tmp"
_CHUNK_RE = re.compile(r"^games-(\d{6,})\.parquet$")


def slug(name: str) -> str:
    """Column-safe form of a unit name: lower snake case."""
    s = re.sub(r"[^0-9a-zA-Z]+", "_", name).strip("_").lower()
    if not s:
        raise ValueError(f"unit name {name!r} has no letters or digits")
    return s


def unit_columns(unit_names: list[str]) -> list[str]:
    """Snake-case column stems of the unit types, in table order (checked unique)."""
    stems = [slug(n) for n in unit_names]
    if len(set(stems)) != len(stems):
        raise ValueError(f"unit names collide once in snake case: {unit_names}")
    return stems


def force_column(seat: int, stem: str) -> str:
    return f"force_{seat}_{stem}"


def chunk_path(out_dir: Path, chunk: int) -> Path:
    return Path(out_dir) / f"{CHUNK_PREFIX}{chunk:06d}{CHUNK_SUFFIX}"


def games_table(
    seed: int,
    game_indices: np.ndarray,
    players: int,
    agent_names: list[str],
    results: Any,
    spec: Any,
) -> pa.Table:
    """One row per game from a ChunkResults (envs/core/ruleset.py) of a run whose agent list
    is `agent_names`: results.seat_agent[n, >=P] holds positions in that list, so a record
    names the agent that played the seat whatever the order of the list. `spec` is the
    ruleset's RecordSpec (item names, the round count of a full game)."""
    n = len(game_indices)
    names = np.asarray(agent_names, dtype=object)
    stems = unit_columns(list(spec.items))
    cols: dict[str, pa.Array] = {
        "seed": pa.array(np.full(n, seed, dtype=np.int64)),
        "game_index": pa.array(np.asarray(game_indices, dtype=np.int64)),
        "players": pa.array(np.full(n, players, dtype=np.int8)),
    }
    seat_agent = np.asarray(results.seat_agent)[:, :players]
    if seat_agent.min(initial=0) < 0 or seat_agent.max(initial=0) >= len(names):
        raise ValueError("self-play kernel left a seat without an agent of the run")
    for s in range(players):
        cols[f"agent_{s}"] = pa.array(names[seat_agent[:, s]].tolist(), type=pa.string())
    winner = np.asarray(results.winner, dtype=np.int8)
    cols["winner"] = pa.array(winner)
    win_agent = [None if w < 0 else names[seat_agent[i, w]] for i, w in enumerate(winner.tolist())]
    cols["winner_agent"] = pa.array(win_agent, type=pa.string())
    for s in range(players):
        cols[f"score_{s}"] = pa.array(np.asarray(results.score[:, s], dtype=np.int16))
    for s in range(players):
        cols[f"reward_{s}"] = pa.array(np.asarray(results.rewards[:, s], dtype=np.float32))
    cols["length"] = pa.array(np.asarray(results.length, dtype=np.int32))
    rounds = np.minimum(np.asarray(results.rounds, dtype=np.int16), spec.rounds_cap)
    cols["rounds"] = pa.array(rounds.astype(np.int8))
    for s in range(players):
        for u, stem in enumerate(stems):
            cols[force_column(s, stem)] = pa.array(
                np.ascontiguousarray(results.force[:, s, u], dtype=np.int8)
            )
    legend = dict(zip(stems, spec.items, strict=True))
    return pa.table(cols).replace_schema_metadata(
        {b"tacsim.item_columns": json.dumps(legend).encode()}
    )


def write_chunk(out_dir: Path, chunk: int, table: pa.Table) -> Path:
    """Write a finished chunk atomically: a hidden temporary file, then os.replace."""
    final = chunk_path(out_dir, chunk)
    tmp = final.with_name(f".{final.name}.{os.getpid()}{TMP_SUFFIX}")
    pq.write_table(table, tmp, compression="zstd")
    os.replace(tmp, final)
    return final


def finished_chunks(out_dir: Path) -> dict[int, Path]:
    """Chunk number -> file, for every complete chunk file in out_dir."""
    out: dict[int, Path] = {}
    for p in Path(out_dir).iterdir():
        m = _CHUNK_RE.match(p.name)
        if m:
            out[int(m.group(1))] = p
    return out


def chunk_rows(path: Path) -> int:
    return pq.read_metadata(path).num_rows


def remove_stale_temporaries(out_dir: Path) -> list[Path]:
    """Temporary chunk files left by a killed writer (never renamed, so never counted)."""
    gone = []
    for p in Path(out_dir).glob(f".{CHUNK_PREFIX}*{TMP_SUFFIX}"):
        p.unlink()
        gone.append(p)
    return gone


def write_run_file(out_dir: Path, run: dict) -> None:
    path = Path(out_dir) / RUN_FILE
    tmp = path.with_name(f".{RUN_FILE}.{os.getpid()}{TMP_SUFFIX}")
    tmp.write_text(json.dumps(run, indent=2, sort_keys=True) + "\n")
    os.replace(tmp, path)


def read_run_file(out_dir: Path) -> dict | None:
    path = Path(out_dir) / RUN_FILE
    if not path.exists():
        return None
    return json.loads(path.read_text())


def _glob(out_dir: Path) -> str:
    pattern = str(Path(out_dir) / f"{CHUNK_PREFIX}*{CHUNK_SUFFIX}")
    return pattern.replace("'", "''")


def query(out_dir: Path | str, sql: str) -> pa.Table:
    """Run DuckDB SQL over the run's games, visible as the view `games`."""
    import duckdb

    out_dir = Path(out_dir)
    if not finished_chunks(out_dir):
        raise FileNotFoundError(f"no finished chunk ({CHUNK_PREFIX}*{CHUNK_SUFFIX}) in {out_dir}")
    con = duckdb.connect()
    try:
        con.execute(f"CREATE VIEW games AS SELECT * FROM read_parquet('{_glob(out_dir)}')")
        return con.sql(sql).to_arrow_table()
    finally:
        con.close()


def read_games(out_dir: Path | str, columns: list[str] | None = None) -> pa.Table:
    """Every finished game in out_dir as a pyarrow Table, ordered by game_index."""
    select = "*" if columns is None else ", ".join(f'"{c}"' for c in columns)
    return query(out_dir, f"SELECT {select} FROM games ORDER BY game_index")
