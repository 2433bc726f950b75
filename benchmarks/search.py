"""How strong and how fast a search agent is: win rate against another agent, and decisions/s.

    python benchmarks/search.py                                   # TAC: mcts vs heuristic, 2,000 games
    python benchmarks/search.py --agent mcts800 --games 500
    python benchmarks/search.py --quick                           # mcts50, 8 games: proves it works

Any playable ruleset whose in-kernel agents include the search agent. Two figures:

- strength: `--games` games of `--seed` through the ruleset's `play_chunk` (whole games
  inside numba, all threads), the two agents alternating seats game by game (seat s of game g
  is agents[(s + g) % 2], as `tacsim selfplay` does), so each plays each seat equally often;
  the searcher's win rate with its 95% Wilson interval, overall and per seat, draws apart;
- speed: the searcher's decisions per second on one thread, timed call by call through the
  contract's `act_one` in `--timing-games` games played to the end in the AEC env (decisions
  with a single legal action are answered without search and counted apart), and the games/s
  of the strength run.

Writes benchmarks/results/search_<ruleset>_<date>_<commit>.json and .md (machine, commit,
command, load averages).
"""

from __future__ import annotations

import argparse
import datetime as _dt
import json
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from benchmarks.harness import git_info, load_average, machine_info  # noqa: E402


def play_strength(rs, agent: str, opponent: str, games: int, seed: int, chunk: int) -> dict:
    import numpy as np
    from tqdm import tqdm

    from agents.stats import wilson_interval

    ids = np.array([rs.agent_id(agent), rs.agent_id(opponent)], dtype=np.int8)
    S = rs.allocate(chunk, 2)
    wins = np.zeros(2, dtype=np.int64)  # by the searcher's seat
    seat_games = np.zeros(2, dtype=np.int64)
    draws = decisions = 0
    t0 = time.perf_counter()
    with tqdm(total=games, unit="game", desc=f"{agent} vs {opponent}", file=sys.stderr) as bar:
        for first in range(0, games, chunk):
            idx = np.arange(first, min(first + chunk, games), dtype=np.int64)
            res = rs.play_chunk(S[: len(idx)], rs.tables_batch, seed, idx, ids)
            seat = np.argmax(res.seat_agent[:, :2] == 0, axis=1)  # position 0 = the searcher
            for s in (0, 1):
                seat_games[s] += int((seat == s).sum())
                wins[s] += int(((seat == s) & (res.winner == seat)).sum())
            draws += int((res.winner < 0).sum())
            decisions += int(res.length.sum())
            bar.update(len(idx))
    seconds = time.perf_counter() - t0
    total = int(wins.sum())
    lo, hi = wilson_interval(total, games)
    by_seat = []
    for s in (0, 1):
        slo, shi = wilson_interval(int(wins[s]), int(seat_games[s]))
        by_seat.append(
            {
                "seat": s,
                "games": int(seat_games[s]),
                "wins": int(wins[s]),
                "win_rate": wins[s] / seat_games[s] if seat_games[s] else None,
                "ci95": [slo, shi],
            }
        )
    return {
        "games": games,
        "wins": total,
        "draws": draws,
        "losses": games - total - draws,
        "win_rate": total / games,
        "ci95": [lo, hi],
        "by_seat": by_seat,
        "seconds": seconds,
        "games_per_s": games / seconds,
        "decisions": decisions,
    }


def time_decisions(rs, agent: str, opponent: str, games: int, seed: int) -> dict:
    """The searcher's act_one calls timed one by one in AEC games (one thread)."""
    import numba
    import numpy as np

    from agents.kernel_agents import KernelAgent
    from envs import make_env

    numba.set_num_threads(1)
    players = [KernelAgent(rs, agent), KernelAgent(rs, opponent)]
    searched = trivial = 0
    search_seconds = 0.0
    for g in range(games):
        env = make_env(rs.name, num_players=2)
        env.reset(seed=seed, options={"game_index": g})
        for name in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                env.step(None)
                continue
            seat = int(name.split("_")[1])
            who = players[(seat + g) % 2]
            if who.name != agent:
                env.step(who.act(env))
                continue
            t0 = time.perf_counter()
            a = who.act(env)
            dt = time.perf_counter() - t0
            if int(np.asarray(obs["action_mask"]).sum()) > 1:
                searched += 1
                search_seconds += dt
            else:
                trivial += 1
            env.step(a)
    return {
        "games": games,
        "threads": 1,
        "searched_decisions": searched,
        "single_choice_decisions": trivial,
        "search_seconds": search_seconds,
        "searched_decisions_per_s": searched / search_seconds if search_seconds else None,
        "ms_per_searched_decision": 1000 * search_seconds / searched if searched else None,
    }


def to_markdown(r: dict) -> str:
    s, t = r["strength"], r["timing"]
    lines = [
        f"# Search agent: {r['agent']} vs {r['opponent']} ({r['env']})",
        "",
        f"Commit {r['git']['short']}{' (dirty)' if r['git']['dirty'] else ''}, "
        f"{r['machine']['cpu']}, {r['machine']['cores']} cores; "
        f"load average {r['load_before']} before, {r['load_after']} after.",
        f"Command: `{r['command']}`",
        "",
        "| figure | value |",
        "|---|---|",
        f"| games (seats alternate game by game) | {s['games']:,} |",
        f"| {r['agent']} win rate, 95% CI | {s['win_rate']:.3f} "
        f"[{s['ci95'][0]:.3f}, {s['ci95'][1]:.3f}] ({s['wins']:,} won, {s['losses']:,} lost, "
        f"{s['draws']:,} drawn) |",
    ]
    for row in s["by_seat"]:
        lines.append(
            f"| ... in seat {row['seat']} | {row['win_rate']:.3f} "
            f"[{row['ci95'][0]:.3f}, {row['ci95'][1]:.3f}] over {row['games']:,} games |"
        )
    lines += [
        f"| strength run: games/s (all threads, both agents' decisions) | "
        f"{s['games_per_s']:,.1f} ({s['decisions'] / s['seconds']:,.0f} decisions/s) |",
        f"| searched decisions/s, one thread ({t['games']} AEC games) | "
        f"{t['searched_decisions_per_s']:,.1f} ({t['ms_per_searched_decision']:.1f} ms each; "
        f"{t['single_choice_decisions']} single-choice decisions answered without search) |",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="tac")
    p.add_argument("--agent", default="mcts", help="the search agent (default mcts)")
    p.add_argument("--opponent", default="heuristic")
    p.add_argument("--games", type=int, default=2000)
    p.add_argument("--seed", type=int, default=0)
    p.add_argument("--chunk", type=int, default=100, help="games per play_chunk call")
    p.add_argument("--timing-games", type=int, default=4)
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--out", type=Path, default=ROOT / "benchmarks" / "results")
    p.add_argument("--quick", action="store_true", help="mcts50, 8 games, 1 timing game")
    args = p.parse_args(argv)
    if args.quick:
        args.agent, args.games, args.chunk, args.timing_games = "mcts50", 8, 8, 1
    if args.games < 1 or args.chunk < 1 or args.timing_games < 0:
        p.error("--games and --chunk must be >= 1, --timing-games >= 0")

    import numba

    import envs
    from envs.registry import UnknownRuleset

    try:
        rs = envs.get_ruleset(args.ruleset)
        rs.agent_id(args.agent)
        rs.agent_id(args.opponent)
    except (UnknownRuleset, ValueError) as e:
        print(f"search.py: error: {e}", file=sys.stderr)
        return 2
    if args.threads is not None:
        numba.set_num_threads(args.threads)
    report: dict[str, Any] = {
        "env": rs.env_name,
        "agent": args.agent,
        "opponent": args.opponent,
        "command": " ".join(["python benchmarks/search.py", *(argv or sys.argv[1:])]),
        "machine": machine_info(),
        "git": git_info(),
        "date": _dt.datetime.now(_dt.UTC).isoformat(timespec="seconds"),
        "load_before": load_average(),
    }
    t0 = time.perf_counter()
    rs.play_chunk(rs.allocate(1, 2), rs.tables_batch, 0, [10**9], [0])  # compile or load
    report["warmup_seconds"] = time.perf_counter() - t0
    report["strength"] = play_strength(
        rs, args.agent, args.opponent, args.games, args.seed, args.chunk
    )
    report["timing"] = time_decisions(rs, args.agent, args.opponent, args.timing_games, args.seed)
    report["load_after"] = load_average()
    md = to_markdown(report)
    if not args.quick:
        args.out.mkdir(parents=True, exist_ok=True)
        stem = f"search_{args.ruleset}_{report['date'][:10]}_{report['git']['short']}"
        (args.out / f"{stem}.json").write_text(json.dumps(report, indent=2) + "\n")
        (args.out / f"{stem}.md").write_text(md)
        print(f"wrote {args.out / stem}.json and .md", file=sys.stderr)
    print(md)
    return 0


if __name__ == "__main__":
    sys.exit(main())
