"""`tacsim balance --compare A,B,...`: how each unit's implied worth moves with who plays.

Balance depends on the players: a unit whose strength needs a plan is worth little to a random
player. For each agent named (any agent self-play accepts, one agent in every seat as in
`tacsim balance`) this plays or reuses one run (runs/balance/<ruleset>_p<P>_seed<S>_n<N>[_<agent>],
the same folder `tacsim balance --agent A` uses), fits it (agents/balance.py) and writes its own
report under OUT/<agent>/, then OUT/compare.md (each unit's implied worth per agent, with the
slope: how many log-odds one listed cost point is worth to that agent) and OUT/compare.png
(one series per agent). Agents are shown in the order given: name them weakest first.
"""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from agents import balance, records
from agents.cli import UsageError


def compare_markdown(
    agents: list[str], fits: list[balance.RunFit], runs: list[Path], games: int
) -> str:
    units = fits[0].units
    label = fits[0].ruleset.record.cost_label
    head = "| Unit | Category | Listed | " + " | ".join(f"{a}: implied [95% CI]" for a in agents)
    spread = len(agents) > 1
    head += " | Spread (max - min) |" if spread else " |"
    lines = [head, "|---|---|---:|" + "---|" * len(agents) + ("---:|" if spread else "")]
    for u, name in enumerate(units.names):
        cells = []
        for f in fits:
            v = f.imp.value[u]
            cells.append(
                "n/a"
                if np.isnan(v)
                else f"{v:.2f} [{f.imp.lo[u]:.2f}, {f.imp.hi[u]:.2f}]"
                + ("" if f.imp.verdict[u] == "consistent" else " *")
            )
        vals = np.array([f.imp.value[u] for f in fits])
        row = (
            f"| {name} | {units.category_names[units.categories[u]]} | "
            f"{units.listed_vp[u]:g} | " + " | ".join(cells)
        )
        if spread:
            row += " | n/a |" if np.isnan(vals).any() else f" | {np.ptp(vals):.2f} |"
        else:
            row += " |"
        lines.append(row)
    rs_options = fits[0].ruleset.options
    opts = (
        f" (options {', '.join(f'{k}={v}' for k, v in rs_options.items())})" if rs_options else ""
    )
    slopes = [
        "| Agent | Run | Decisive games | 1 listed point = log-odds | Units flagged |",
        "|---|---|---:|---|---:|",
    ]
    for a, f, r in zip(agents, fits, runs, strict=True):
        flagged = sum(v.startswith("worth") for v in f.imp.verdict)
        slopes.append(
            f"| {a} | `{r}` | {f.design.games - f.design.draws:,} | "
            f"{f.imp.slope:.4f} ± {balance.Z95 * f.imp.slope_se:.4f} | {flagged} |"
        )
    return "\n".join(
        [
            f"# Implied {label} by agent",
            "",
            f"{fits[0].ruleset.env_name}{opts}, {games:,} games per agent, one agent in every "
            "seat. "
            "Agents in the order given (weakest first). Method: agents/balance.py, per agent; "
            "`*`: the unit's 95% interval excludes its listed cost. Each agent's full report is "
            "in its folder here.",
            "",
            *slopes,
            "",
            *lines,
            "",
            "![implied worth per agent](compare.png)",
            "",
        ]
    )


def write_compare_plot(path: Path, agents: list[str], fits: list[balance.RunFit]) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    units = fits[0].units
    U = len(units.names)
    x = np.arange(U)
    fig, ax = plt.subplots(figsize=(10, 5.5))
    ax.scatter(x, units.listed_vp, marker="_", s=400, color="black", label="listed", zorder=3)
    width = 0.6 / max(len(fits), 1)
    for i, (a, f) in enumerate(zip(agents, fits, strict=True)):
        ok = ~np.isnan(f.imp.value)
        off = (i - (len(fits) - 1) / 2) * width
        yerr = np.vstack([f.imp.value - f.imp.lo, f.imp.hi - f.imp.value])[:, ok]
        ax.errorbar(x[ok] + off, f.imp.value[ok], yerr=yerr, fmt="o", capsize=3, label=a)
    ax.set_xticks(x)
    ax.set_xticklabels(units.names, rotation=35, ha="right", fontsize=8)
    ax.set_ylabel(f"implied {fits[0].ruleset.record.cost_label} (95% CI)")
    ax.set_title("implied worth per agent")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def cmd_compare(args) -> int:
    """`tacsim balance --compare` (flags in agents/cli.py)."""
    from agents.selfplay import check_threads, make_params, run_selfplay

    agents = [a for a in args.compare.split(",") if a]
    if not agents:
        raise UsageError("--compare needs at least one agent, e.g. random,heuristic")
    if len(set(agents)) != len(agents):
        raise UsageError(f"--compare names an agent twice: {args.compare}")
    if args.precision is not None:
        raise UsageError("--precision is not supported with --compare; give --games")
    players = 2 if args.players is None else args.players
    seed = 0 if args.seed is None else args.seed
    games = balance.DEFAULT_GAMES if args.games is None else args.games
    params = [
        make_params(
            args.ruleset, players, games, (a,) * players, seed, args.chunk, options=args.options
        )
        for a in agents
    ]  # every agent checked before anything is played
    check_threads(args.threads)
    out = Path(args.out)
    fits, folders = [], []
    for a, p in zip(agents, params, strict=True):
        runs = balance.default_runs_dir(p.ruleset, p.players, p.seed, p.games, a, p.options)
        print(f"agent {a}: {runs}", file=sys.stderr)
        outcome = run_selfplay(p, runs, threads=args.threads, progress=True)
        if not outcome.complete:
            print(
                "interrupted: finished chunks kept; rerun the same command to resume.",
                file=sys.stderr,
            )
            return 130
        rf = balance.fit_run(runs, p)
        balance.write_report(
            out / records.slug(a),
            rf.units,
            rf.design,
            rf.fit,
            rf.imp,
            balance.run_line_of(rf, runs, p),
            rf.ruleset.record,
        )
        fits.append(rf)
        folders.append(runs)
    md = compare_markdown(agents, fits, folders, games)
    (out / "compare.md").write_text(md)
    write_compare_plot(out / "compare.png", agents, fits)
    print(md)
    print(f"wrote {out / 'compare.md'} and {out / 'compare.png'}")
    return 0
