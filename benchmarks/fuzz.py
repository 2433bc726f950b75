"""The invariant fuzzer of any playable ruleset at full size, recorded: random games checked
at every decision (the contract's ``fuzz``), in blocks with a progress bar, the result
written as JSON + markdown to benchmarks/results/fuzz_<ruleset>_<date>_<commit>.* with the
machine and commit. The test suite fuzzes fewer games (Ruleset.fuzz_games); this is the
run an issue's "fuzz over N games" figure comes from.

    PYTHONPATH=. python -m benchmarks.fuzz --ruleset tactica --option episode=battle --games 100000
    PYTHONPATH=. python -m benchmarks.fuzz --ruleset tactica --games 10000

Block k plays games 0..block-1 of seed `seed + k` (the contract's fuzz plays a seed's first
games), so a run is reproducible from its seed and block size.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import sys
import time
from pathlib import Path

from benchmarks.harness import DEFAULT_OUT, git_info, load_average, machine_info
from envs.core.ruleset import parse_options
from envs.registry import UnknownRuleset, get


def run(ruleset: str, options: dict, players: int | None, games: int, seed: int, block: int):
    """Fuzz `games` games; returns the result dict (broken invariants, first failure)."""
    from tqdm import tqdm

    rs = get(ruleset, options=options)
    P = rs.min_players if players is None else players
    rs.check_players(P)
    t0 = time.perf_counter()
    rs.fuzz(P, 1, seed)  # compile or load from the cache
    compile_s = time.perf_counter() - t0
    broken: dict[str, int] = {}
    first = None
    decisions = 0
    t0 = time.perf_counter()
    with tqdm(total=games, unit="game", desc=f"fuzz {ruleset}") as bar:
        for k, start in enumerate(range(0, games, block)):
            n = min(block, games - start)
            b_broken, b_first, b_decisions = rs.fuzz(P, n, seed + k)
            for name, count in b_broken.items():
                broken[name] = broken.get(name, 0) + count
            if first is None and b_first is not None:
                first = {"seed": seed + k, "game_index": b_first[0], "decision": b_first[1]}
                if len(b_first) > 2:  # what broke, where the ruleset's fuzz says it
                    first["what"] = b_first[2]
            decisions += b_decisions
            bar.update(n)
    seconds = time.perf_counter() - t0
    return {
        "ruleset": ruleset,
        "env_name": rs.env_name,
        "options": dict(rs.options),
        "players": P,
        "games": games,
        "seed": seed,
        "block": block,
        "decisions": decisions,
        "broken": broken,
        "first_failure": first,
        "compile_or_load_s": round(compile_s, 1),
        "run_s": round(seconds, 1),
        "decisions_per_s_checked": round(decisions / seconds) if seconds else None,
    }


def markdown(r: dict, machine: dict, git: dict) -> str:
    opts = ", ".join(f"{k}={v}" for k, v in r["options"].items()) or "none"
    verdict = "no invariant broken" if not r["broken"] else f"BROKEN: {r['broken']}"
    return "\n".join(
        [
            f"# Fuzz: {r['env_name']} ({opts})",
            "",
            f"- {r['games']:,} random games, {r['players']} players, seed {r['seed']} "
            f"(blocks of {r['block']:,}), {r['decisions']:,} decisions, every one checked.",
            f"- Result: **{verdict}**; first failure: {r['first_failure']}.",
            f"- Run {r['run_s']} s ({r['decisions_per_s_checked']:,} checked decisions/s); "
            f"compile or cache load {r['compile_or_load_s']} s.",
            f"- Machine: {machine['cpu']}, {machine['cores']} cores; commit {git['short']}"
            f"{' (dirty)' if git.get('dirty') else ''}.",
            "",
        ]
    )


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--ruleset", required=True)
    p.add_argument("--option", action="append", default=[], metavar="KEY=VALUE")
    p.add_argument("--players", type=int, default=None, help="default: the fewest allowed")
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=2024)
    p.add_argument("--block", type=int, default=10_000, help="games per fuzz call")
    p.add_argument("--out", type=Path, default=DEFAULT_OUT)
    args = p.parse_args(argv)
    if args.games < 1 or args.block < 1:
        p.error("--games and --block must be at least 1")
    try:
        options = parse_options(args.option)
        result = run(args.ruleset, options, args.players, args.games, args.seed, args.block)
    except (ValueError, UnknownRuleset) as e:
        print(f"tacsim fuzz: {e}", file=sys.stderr)
        return 2
    machine, git = machine_info(), git_info()
    result["machine"], result["git"], result["load_average"] = machine, git, load_average()
    stem = "_".join(
        ["fuzz", args.ruleset, *(f"{k}-{v}" for k, v in sorted(options.items()))]
        + [dt.date.today().isoformat(), git["short"]]
    )
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / f"{stem}.json").write_text(json.dumps(result, indent=2) + "\n")
    (args.out / f"{stem}.md").write_text(markdown(result, machine, git))
    print(markdown(result, machine, git))
    return 1 if result["broken"] else 0


if __name__ == "__main__":
    raise SystemExit(main())
