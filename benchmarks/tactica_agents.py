"""TACTICA heuristic against the random agents: win rate per seat over whole wars, basic and
advanced game (the ruleset's play_chunk, agents/tactica/selfplay.py; seat s of war g is played
by agent (s + g) % 2, so half the wars have the heuristic in each seat).

    PYTHONPATH=. python -m benchmarks.tactica_agents --wars 4000 --seed 1
"""

from __future__ import annotations

import argparse
import json
import time

import numpy as np

from agents.stats import wilson_interval
from envs.registry import get

CHUNK = 1000  # wars per kernel call


def measure(wars: int, seed: int, opponent: str, advanced: bool) -> dict:
    rs = get("tactica", options={"game": "advanced" if advanced else "basic"})
    agents = np.array([rs.agent_id("heuristic"), rs.agent_id(opponent)], dtype=np.int8)
    wins = np.zeros(2, dtype=np.int64)
    draws = np.zeros(2, dtype=np.int64)
    played = np.zeros(2, dtype=np.int64)
    S = rs.allocate(CHUNK, 2)
    for first in range(0, wars, CHUNK):
        idx = np.arange(first, min(wars, first + CHUNK))
        res = rs.play_chunk(S, rs.tables_batch, seed, idx, agents)
        if (res.length < 0).any():
            raise RuntimeError("a war did not end (kernel bug)")
        for seat in (0, 1):
            mine = res.seat_agent[:, seat] == 0
            played[seat] += mine.sum()
            wins[seat] += (res.winner[mine] == seat).sum()
            draws[seat] += (res.winner[mine] < 0).sum()
    out = {"opponent": opponent, "advanced": advanced, "wars": wars, "seed": seed}
    for seat in (0, 1):
        lo, hi = wilson_interval(int(wins[seat]), int(played[seat]))
        out[f"seat{seat}"] = {
            "wars": int(played[seat]),
            "wins": int(wins[seat]),
            "draws": int(draws[seat]),
            "win_rate": round(float(wins[seat] / played[seat]), 4),
            "wilson95": [round(float(lo), 4), round(float(hi), 4)],
        }
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--wars", type=int, default=4000, help="wars per game mode and opponent")
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    if args.wars < 2:
        raise SystemExit(f"--wars must be at least 2, got {args.wars}")
    for opponent in ("random", "random_fighter"):
        for advanced in (False, True):
            t = time.perf_counter()
            r = measure(args.wars, args.seed, opponent, advanced)
            r["seconds"] = round(time.perf_counter() - t, 1)
            print(json.dumps(r))


if __name__ == "__main__":
    main()
