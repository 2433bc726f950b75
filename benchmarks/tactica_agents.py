"""TACTICA heuristic against the random agents: win rate per seat over whole wars, basic and
advanced game (the ruleset's play_chunk, agents/tactica/selfplay.py; seat s of war g is played
by agent (s + g) % 2, so half the wars have the heuristic in each seat).

    PYTHONPATH=. python -m benchmarks.tactica_agents --wars 10000 --seed 1

writes benchmarks/results/tactica_agents_<date>_<commit>.json and .md.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import time
from pathlib import Path

import numpy as np

from benchmarks.seats import SeatTally
from envs.registry import get

CHUNK = 1000  # wars per kernel call


def measure(wars: int, seed: int, opponent: str, advanced: bool) -> dict:
    rs = get("tactica", options={"game": "advanced" if advanced else "basic"})
    agents = np.array([rs.agent_id("heuristic"), rs.agent_id(opponent)], dtype=np.int8)
    tally = SeatTally("war")
    S = rs.allocate(CHUNK, 2)
    for first in range(0, wars, CHUNK):
        idx = np.arange(first, min(wars, first + CHUNK))
        tally.add(rs.play_chunk(S, rs.tables_batch, seed, idx, agents))
    out = {"opponent": opponent, "advanced": advanced, "wars": wars, "seed": seed}
    for seat in (0, 1):
        out[f"seat{seat}"] = tally.seat(seat)
    return out


def markdown(rows: list[dict], machine: dict, git: dict) -> str:
    lines = [
        "# TACTICA: heuristic against the random agents, whole wars",
        "",
        "Seat s of war g is played by agent (s + g) % 2, so the heuristic holds each seat in "
        "half the wars; win rate = wars won by the heuristic in that seat (draws count as "
        "not won), 95% Wilson interval. `random` surrenders about half the times it may; "
        "`random_fighter` never does.",
        "",
        "| game | opponent | seat | wars | heuristic wins | draws | win rate (95% CI) |",
        "|---|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        game = "advanced" if r["advanced"] else "basic"
        for seat in (0, 1):
            x = r[f"seat{seat}"]
            lo, hi = x["wilson95"]
            lines.append(
                f"| {game} | {r['opponent']} | {seat} | {x['wars']:,} | {x['wins']:,} | "
                f"{x['draws']:,} | {x['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] |"
            )
    lines += [
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores; commit {git['short']}"
        f"{' (dirty)' if git.get('dirty') else ''}.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    from benchmarks.harness import DEFAULT_OUT, git_info, machine_info

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wars", type=int, default=4000, help="wars per game mode and opponent")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the JSON + md")
    args = p.parse_args()
    if args.wars < 2:
        raise SystemExit(f"--wars must be at least 2, got {args.wars}")
    rows = []
    for opponent in ("random", "random_fighter"):
        for advanced in (False, True):
            t = time.perf_counter()
            r = measure(args.wars, args.seed, opponent, advanced)
            r["seconds"] = round(time.perf_counter() - t, 1)
            print(json.dumps(r))
            rows.append(r)
    machine, git = machine_info(), git_info()
    stem = f"tactica_agents_{dt.date.today().isoformat()}_{git['short']}"
    args.out.mkdir(parents=True, exist_ok=True)
    doc = {"rows": rows, "wars": args.wars, "seed": args.seed, "machine": machine, "git": git}
    (args.out / f"{stem}.json").write_text(json.dumps(doc, indent=2) + "\n")
    (args.out / f"{stem}.md").write_text(markdown(rows, machine, git))
    print(f"wrote {args.out / stem}.json and .md")


if __name__ == "__main__":
    main()
