"""Tactics David heuristic against the random agent: win rate per seat over whole Deathmatches
(the ruleset's play_chunk, agents/tactics_david/selfplay.py; seat s of game g is played by
agent (s + g) % 2, so half the games have the heuristic in each seat).

    PYTHONPATH=. python -m benchmarks.tactics_david_agents --games 10000 --seed 1

writes benchmarks/results/tactics_david_agents_<date>_<commit>.json and .md.
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

CHUNK = 1000  # games per kernel call


def measure(games: int, seed: int, battlefield: str) -> dict:
    rs = get("tactics_david", options={"battlefield": battlefield})
    agents = np.array([rs.agent_id("heuristic"), rs.agent_id("random")], dtype=np.int8)
    tally = SeatTally()
    S = rs.allocate(CHUNK, 2)
    for first in range(0, games, CHUNK):
        idx = np.arange(first, min(games, first + CHUNK))
        tally.add(rs.play_chunk(S, rs.tables_batch, seed, idx, agents))
    out = {"battlefield": battlefield, "games": games, "seed": seed, "decisions": tally.decisions}
    for seat in (0, 1):
        out[f"seat{seat}"] = tally.seat(seat)
    return out


def markdown(rows: list[dict], machine: dict, git: dict) -> str:
    lines = [
        "# Tactics David: heuristic against the random agent, whole Deathmatches",
        "",
        "Seat s of game g is played by agent (s + g) % 2, so the heuristic holds each seat in "
        "half the games; win rate = games won by the heuristic in that seat (draws count as "
        "not won), 95% Wilson interval. Armies are random legal ones (I12).",
        "",
        "| battlefield | seat | games | heuristic wins | draws | win rate (95% CI) |",
        "|---|---:|---:|---:|---:|---|",
    ]
    for r in rows:
        for seat in (0, 1):
            x = r[f"seat{seat}"]
            lo, hi = x["wilson95"]
            lines.append(
                f"| {r['battlefield']} | {seat} | {x['games']:,} | {x['wins']:,} | "
                f"{x['draws']:,} | {x['win_rate']:.3f} [{lo:.3f}, {hi:.3f}] |"
            )
    lines += [
        "",
        f"Machine: {machine['cpu']}, {machine['cores']} cores (shared with other jobs while "
        f"measured); commit {git['short']}{' (dirty)' if git.get('dirty') else ''}.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    from benchmarks.harness import DEFAULT_OUT, git_info, machine_info

    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--games", type=int, default=10_000, help="games per battlefield option")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--battlefields", default="random", help="comma-separated option values")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT, help="folder for the JSON + md")
    args = p.parse_args()
    if args.games < 2:
        raise SystemExit(f"--games must be at least 2, got {args.games}")
    rows = []
    for bf in args.battlefields.split(","):
        t = time.perf_counter()
        r = measure(args.games, args.seed, bf.strip())
        r["seconds"] = round(time.perf_counter() - t, 1)
        print(json.dumps(r))
        rows.append(r)
    machine, git = machine_info(), git_info()
    stem = f"tactics_david_agents_{dt.date.today().isoformat()}_{git['short']}"
    args.out.mkdir(parents=True, exist_ok=True)
    doc = {"rows": rows, "games": args.games, "seed": args.seed, "machine": machine, "git": git}
    (args.out / f"{stem}.json").write_text(json.dumps(doc, indent=2) + "\n")
    (args.out / f"{stem}.md").write_text(markdown(rows, machine, git))
    print(f"wrote {args.out / stem}.json and .md")


if __name__ == "__main__":
    main()
