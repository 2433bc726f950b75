"""`tacsim balance --recost`: propose integer costs from the implied worths, replay under them,
repeat (issue 10). Generic over the ruleset contract: the ruleset's `write_costs` writes a rule
folder with other costs and `cost_bounds` says which integers it accepts.

Round r plays N self-play games under rule folder OUT/round_<r>/config (round 0: the current
costs, copied), fits them with agents/balance.py (fit_logit, implied_vp) and proposes

    target_u = cost_u + D (worth_u - cost_u)        (D = --damping, default 1)

rounded to integers with each budget kept exactly: the items of each category whose deal size
is fixed (the categories the fit centres) keep their category's sum of costs, the other items
share one budget (their sum). The targets are first moved by one common shift so that, held
inside cost_bounds, they sum to the budget (a unit whose worth is below the lowest cost takes
the lowest and the others pay for it evenly, keeping their differences), then rounded by the
largest-remainder method (floors, then +1 to the largest fractional parts). Implied worths are
anchored at their category's mean cost, so in a centred category with no unit at a bound the
targets already sum to the budget and only the rounding is corrected.

Stops: (1) every unit's 95% interval holds its current cost (converged); (2) the proposal is
the current costs: every rounded target is already the cost, and another round would replay
the very same games (same seed, same tables); (3) no worth can be estimated (slope <= 0);
(4) R rounds played: the suggestion is then the last proposal, not yet played.

Every round uses the same seed: the same deals and dice in each round (common random
numbers), so a change between rounds comes from the costs, not from fresh noise.

Damping. In TAC a unit's cost is also what it scores while alive (11.1), so its worth moves
with its cost: worth(c) ~ w0 + beta (c - c0). The undamped step shrinks the error by beta per
round; moving halfway shrinks it by (1 + beta) / 2, which is slower whenever 0 < beta < 1 and
only helps where beta < 0 or beta > 1 (overshoot). D = 1 is the default; --damping 0.5 is there
for rulesets or agents where the history shows oscillation (a cost going back and forth; TAC's
heuristic agent shoots the unit worth most VP, so a unit made cheaper is left alive and wins
more: beta < 0, docs/reports/tac_recost_heuristic*/). A damped proposal that rounds back to the
current costs while the full step would move is replaced by the full step, so damping never
stops the loop short of the undamped fixed point.

Resuming: each round is a self-play run (resumable) and the fits are recomputed from its
records, so rerunning the same command continues where it stopped; OUT/recost.json records the
parameters and a rerun with other ones into the same OUT is refused.
"""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from agents import balance, records
from agents.cli import UsageError

DEFAULT_ROUNDS = 4
RECOST_FILE = "recost.json"
TIMING_FILE = "selfplay_time.json"  # in round_<r>/: how long the call that played it took
FREE_POOL = -1  # budget pool of the items whose category has no fixed deal size


# --- integer costs ---------------------------------------------------------------------------


def _shift_to_budget(t: np.ndarray, budget: int, lo: int, hi: int) -> np.ndarray:
    """clip(t + s, lo, hi) with the one shift s that makes it sum to budget (bisection: the sum
    grows monotonically with s, from n*lo to n*hi)."""
    a, b = lo - t.max(), hi - t.min()
    for _ in range(200):
        s = (a + b) / 2
        if np.clip(t + s, lo, hi).sum() < budget:
            a = s
        else:
            b = s
    return np.clip(t + (a + b) / 2, lo, hi)


def integer_costs(
    target: np.ndarray, pools: np.ndarray, budgets: dict[int, int], bounds: tuple[int, int]
) -> np.ndarray:
    """Integers near `target` with sum over each pool p exactly budgets[p], each within bounds.

    Per pool: shift every target by one amount so that, clipped to the bounds, they sum to the
    budget (water-filling: an item held at a bound gives its excess to the others evenly, so
    their differences are kept), take the floors, then hand out the missing units one by one to
    the largest fractional parts: the largest-remainder method. ValueError when a budget cannot
    be met inside the bounds."""
    target = np.asarray(target, dtype=float)
    pools = np.asarray(pools)
    if not np.all(np.isfinite(target)):
        raise ValueError(f"targets must be finite, got {target}")
    lo, hi = bounds
    out = np.zeros(len(target), dtype=np.int64)
    for p in np.unique(pools):
        idx = np.flatnonzero(pools == p)
        budget = int(budgets[int(p)])
        if not len(idx) * lo <= budget <= len(idx) * hi:
            raise ValueError(
                f"budget {budget} of {len(idx)} items cannot be met with costs {lo}..{hi}"
            )
        t = _shift_to_budget(target[idx], budget, lo, hi)
        c = np.floor(t + 1e-9).astype(np.int64)
        frac = t - c
        for _ in range(len(idx) * (hi - lo) + 1):
            short = budget - int(c.sum())
            if short == 0:
                break
            if short > 0:
                free = np.flatnonzero(c < hi)
                j = free[np.argmax(frac[free])]  # first of the largest: stable on ties
                c[j] += 1
                frac[j] -= 1.0
            else:
                free = np.flatnonzero(c > lo)
                j = free[np.argmin(frac[free])]
                c[j] -= 1
                frac[j] += 1.0
        out[idx] = c
    return out


def budget_pools(groups: np.ndarray, constrained: list[int]) -> np.ndarray:
    """Each item's budget pool: its category when the fit centred it, else FREE_POOL."""
    groups = np.asarray(groups)
    return np.where(np.isin(groups, constrained), groups, FREE_POOL)


def pool_budgets(costs: np.ndarray, pools: np.ndarray) -> dict[int, int]:
    return {int(p): int(np.asarray(costs)[pools == p].sum()) for p in np.unique(pools)}


def propose_costs(
    costs: np.ndarray,
    worth: np.ndarray,
    pools: np.ndarray,
    budgets: dict[int, int],
    bounds: tuple[int, int],
    damping: float = 1.0,
) -> np.ndarray:
    """The next integer costs: `damping` of the way from each cost to its implied worth."""
    costs = np.asarray(costs, dtype=float)
    return integer_costs(costs + damping * (np.asarray(worth) - costs), pools, budgets, bounds)


# --- one round -------------------------------------------------------------------------------


@dataclass
class Round:
    index: int
    costs: np.ndarray  # int[U], the costs played
    worth: np.ndarray  # [U] implied worth (in cost units)
    lo: np.ndarray
    hi: np.ndarray
    slope: float
    slope_se: float
    games: int
    decisive: int
    runs: Path
    config: Path
    timing: dict | None = None  # the self-play timing of the call that played it (TIMING_FILE)

    @property
    def inside(self) -> np.ndarray:
        return (self.lo <= self.costs) & (self.costs <= self.hi)

    @property
    def abs_error(self) -> np.ndarray:
        return np.abs(self.worth - self.costs)

    def summary(self) -> dict:
        err = self.abs_error
        return {
            "mean_abs_error": float(np.mean(err)),
            "max_abs_error": float(np.max(err)),
            "outside_ci": int((~self.inside).sum()),
        }


@dataclass
class Recost:
    rounds: list[Round]
    names: list[str]
    groups: np.ndarray
    group_names: list[str]
    listed: np.ndarray  # int[U] the costs of the source tables
    suggested: np.ndarray  # int[U]
    suggested_played: bool  # whether a round played the suggested costs
    converged: bool
    stop: str


def _timing(outcome) -> dict:
    import os

    import numba

    return {
        "games_played": outcome.games_played,
        "seconds": round(outcome.seconds, 1),
        "warmup_seconds": round(outcome.warmup_seconds, 1),
        "threads": numba.get_num_threads(),
        "cpus": os.cpu_count(),
    }


def _fmt_timing(t: dict | None) -> str:
    if t is None:
        return "n/a"
    return (
        f"{t['seconds']:.0f} s for {t['games_played']:,} games "
        f"({t['games_played'] / max(t['seconds'], 1e-9):,.0f}/s, {t['threads']} threads)"
    )


def _fmt_costs(names: list[str], costs) -> str:
    return ", ".join(f"{n} {int(c)}" for n, c in zip(names, costs, strict=True))


def _config_costs(ruleset: str, config: Path, options: dict | None = None) -> np.ndarray:
    from agents.selfplay import load_ruleset

    return load_ruleset(ruleset, config, options).record.costs.astype(np.int64)


@dataclass(frozen=True)
class RecostParams:
    ruleset: str
    players: int
    games: int | None  # None: from --precision's pilot
    agent: str
    seed: int
    chunk: int | None
    damping: float
    source: str | None  # the rule folder re-costed (None: embedded)
    # the ruleset's options, resolved (every round plays under them)
    options: dict[str, str] = field(default_factory=dict)

    def record(self) -> dict:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def default_runs_root(p: RecostParams, out: Path) -> Path:
    """runs/recost/<ruleset>_<out>_p<P>_seed<S>_<agent>: keyed by the report folder too,
    because each round's run names its rule folder, which lives in the report folder."""
    return Path("runs/recost") / (
        f"{p.ruleset}_{records.slug(str(out))}_p{p.players}_seed{p.seed}_{records.slug(p.agent)}"
    )


def check_out_dir(out: Path, p: RecostParams) -> None:
    """Refuse an --out holding another re-costing (before anything is written)."""
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    f = out / RECOST_FILE
    if f.is_file():
        old = json.loads(f.read_text())
        # a recost.json written before options existed: its ruleset had none
        diffs = [
            f"{k}: {old.get(k, {} if k == 'options' else None)!r} vs {v!r}"
            for k, v in p.record().items()
            if old.get(k, {} if k == "options" else None) != v
        ]
        if diffs:
            raise UsageError(
                f"{out} holds a re-costing with other parameters ({'; '.join(diffs)}): "
                "rerun with the same ones to resume, or choose another --out"
            )


def run_recost(
    p: RecostParams,
    rounds: int,
    out: Path,
    runs_root: Path,
    threads: int | None = None,
    progress: bool = True,
    precision: float | None = None,
    pilot: int = balance.DEFAULT_PILOT,
    max_games: int = balance.DEFAULT_MAX_GAMES,
) -> Recost | None:
    """The re-costing loop (module docstring). None when interrupted (finished work kept)."""
    from agents.selfplay import load_ruleset, make_params, run_selfplay

    rs = load_ruleset(p.ruleset, p.source, p.options)
    if rs.write_costs is None:
        raise UsageError(f"{p.ruleset}: the ruleset cannot write re-costed rule tables yet")
    spec = rs.record
    listed = spec.costs.astype(np.int64)
    if not np.array_equal(listed, spec.costs):
        raise UsageError(f"{p.ruleset}: listed costs are not integers: {spec.costs}")
    if rounds < 1:
        raise UsageError(f"rounds must be at least 1, got {rounds}")
    check_out_dir(out, p)
    # validate the self-play parameters (agent, players, seed, chunk) before writing anything
    make_params(
        p.ruleset, p.players, 1 if p.games is None else p.games, (p.agent,) * p.players,
        p.seed, p.chunk, options=p.options,
    )  # fmt: skip
    out.mkdir(parents=True, exist_ok=True)
    (out / RECOST_FILE).write_text(json.dumps(p.record(), indent=2) + "\n")
    names = list(spec.items)
    games, chunk = p.games, p.chunk
    costs = listed.copy()
    history: list[Round] = []
    pools = budgets = None
    stop, suggested, converged = "", None, False
    for r in range(rounds):
        config = out / f"round_{r}" / "config"
        if config.is_dir():
            on_disk = _config_costs(p.ruleset, config, p.options)
            if not np.array_equal(on_disk, costs):
                raise UsageError(
                    f"{config} has costs {on_disk.tolist()}, this run proposes {costs.tolist()}: "
                    "choose another --out"
                )
        else:
            rs.write_costs(p.source, config, dict(zip(names, costs.tolist(), strict=True)))
        if games is None:  # round 0 with --precision: a pilot sets the games of every round
            assert precision is not None
            base = make_params(
                p.ruleset,
                p.players,
                max_games,
                (p.agent,) * p.players,
                p.seed,
                p.chunk,
                config,
                p.options,
            )
            planned = balance.plan_games(
                base,
                lambda g: runs_root / f"round_0_n{g}",
                precision,
                False,
                pilot,
                max_games,
                lambda g: runs_root / f"round_0_pilot{g}",
                threads,
            )
            if planned is None:
                return None
            games, chunk = planned[0].games, planned[0].chunk
        params = make_params(
            p.ruleset, p.players, games, (p.agent,) * p.players, p.seed, chunk, config, p.options
        )
        if precision is not None and p.games is not None and r == 0:
            if balance.plan_games(
                params, lambda g: runs_root / f"round_0_n{g}", precision, True, pilot,
                max_games, lambda g: runs_root / f"round_0_n{g}", threads,
            ) is None:  # fmt: skip
                return None
        runs = runs_root / f"round_{r}_n{games}"
        if progress:
            print(f"round {r}: costs {_fmt_costs(names, costs)}", file=sys.stderr)
        outcome = run_selfplay(params, runs, threads=threads, progress=progress)
        timing_file = out / f"round_{r}" / TIMING_FILE
        if outcome.games_played:
            timing_file.write_text(json.dumps(_timing(outcome), indent=2) + "\n")
        if not outcome.complete:
            return None
        rf = balance.fit_run(runs, params)
        balance.write_report(
            out / f"round_{r}",
            rf.units,
            rf.design,
            rf.fit,
            rf.imp,
            balance.run_line_of(rf, runs, params) + f" Re-costing round {r}.",
            spec,
        )
        rnd = Round(
            r,
            costs.copy(),
            rf.imp.value,
            rf.imp.lo,
            rf.imp.hi,
            rf.imp.slope,
            rf.imp.slope_se,
            games,
            games - rf.design.draws,
            runs,
            config,
            json.loads(timing_file.read_text()) if timing_file.is_file() else None,
        )
        history.append(rnd)
        s = rnd.summary()
        if progress:
            print(
                f"round {r}: mean |worth - cost| {s['mean_abs_error']:.3f}, max "
                f"{s['max_abs_error']:.3f}, {s['outside_ci']} of {len(names)} outside their "
                "95% interval",
                file=sys.stderr,
            )
        if np.isnan(rnd.worth).any():
            stop = f"round {r}: worth not estimable (slope {rnd.slope:.4f} <= 0)"
            break
        if rnd.inside.all():
            stop, converged = f"round {r}: every cost inside its unit's 95% interval", True
            break
        if pools is None:
            pools = budget_pools(rf.units.categories, rf.fit.constrained)
            budgets = pool_budgets(listed, pools)
        proposal = propose_costs(costs, rnd.worth, pools, budgets, rs.cost_bounds, p.damping)
        if p.damping < 1 and np.array_equal(proposal, costs):
            # a damped step shorter than the integer grid would stall short of the fixed point
            proposal = propose_costs(costs, rnd.worth, pools, budgets, rs.cost_bounds, 1.0)
        if np.array_equal(proposal, costs):
            stop = (
                f"round {r}: the rounded worths are the current costs (a fixed point: "
                "another round would replay the same games)"
            )
            break
        if r == rounds - 1:
            stop = f"{rounds} round(s) played; the suggestion is the last proposal, not yet played"
            suggested = proposal
            break
        costs = proposal
    if suggested is None:  # stopped on a played round: its costs are the suggestion
        suggested = history[-1].costs
    played = bool(np.array_equal(suggested, history[-1].costs))
    return Recost(
        history,
        names,
        np.asarray(spec.groups),
        list(spec.group_names),
        listed,
        np.asarray(suggested, dtype=np.int64),
        played,
        converged,
        stop,
    )


# --- outputs ---------------------------------------------------------------------------------


def balance_json(res: Recost, p: RecostParams, cost_label: str) -> dict:
    """balance.json: per unit listed cost, estimated worth (last round played), its 95%
    interval and the suggested cost; and the history of every round."""
    last = res.rounds[-1]

    def num(x) -> float | None:
        return None if not np.isfinite(x) else round(float(x), 4)

    return {
        "ruleset": p.ruleset,
        "options": dict(p.options),
        "agent": p.agent,
        "players": p.players,
        "seed": p.seed,
        "games_per_round": last.games,
        "damping": p.damping,
        "cost_label": cost_label,
        "converged": res.converged,
        "suggested_played": res.suggested_played,
        "stop": res.stop,
        "units": [
            {
                "name": n,
                "category": res.group_names[res.groups[u]],
                "listed_cost": int(res.listed[u]),
                "last_round_cost": int(last.costs[u]),
                "estimated_worth": num(last.worth[u]),
                "ci_low": num(last.lo[u]),
                "ci_high": num(last.hi[u]),
                "suggested_cost": int(res.suggested[u]),
            }
            for u, n in enumerate(res.names)
        ],
        "rounds": [
            {
                "round": r.index,
                "games": r.games,
                "decisive": r.decisive,
                "runs": str(r.runs),
                "config": str(r.config),
                "slope": num(r.slope),
                "slope_se": num(r.slope_se),
                **r.summary(),
                "selfplay_time": r.timing,
                "costs": {n: int(c) for n, c in zip(res.names, r.costs, strict=True)},
                "worth": {n: num(w) for n, w in zip(res.names, r.worth, strict=True)},
                "ci_low": {n: num(w) for n, w in zip(res.names, r.lo, strict=True)},
                "ci_high": {n: num(w) for n, w in zip(res.names, r.hi, strict=True)},
            }
            for r in res.rounds
        ],
    }


def write_convergence_plot(path: Path, res: Recost, cost_label: str) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    x = [r.index for r in res.rounds]
    fig, ax = plt.subplots(figsize=(7, 4.5))
    ax.plot(
        x, [r.summary()["mean_abs_error"] for r in res.rounds], "o-", label="mean |worth - cost|"
    )
    ax.plot(x, [r.summary()["max_abs_error"] for r in res.rounds], "s-", label="max |worth - cost|")
    ax.set_xlabel("round")
    ax.set_ylabel(f"|implied worth - cost| ({cost_label})")
    ax.set_xticks(x)
    ax.set_xlim(min(x) - 0.5, max(x) + 0.5)
    ax.set_ylim(bottom=0)
    ax2 = ax.twinx()
    outside = [r.summary()["outside_ci"] for r in res.rounds]
    bars = ax2.bar(x, outside, alpha=0.25, color="red", width=0.3, label="units outside CI")
    ax2.bar_label(bars, fmt="%d", color="darkred")
    ax2.set_ylabel("units whose 95% interval excludes the cost (bars)")
    ax2.set_ylim(0, len(res.names) + 0.5)
    ax.set_zorder(ax2.get_zorder() + 1)  # the lines over the bars
    ax.patch.set_visible(False)
    lines, labels = ax.get_legend_handles_labels()
    ax.legend(
        lines + [bars],
        labels + ["units outside their 95% CI"],
        loc="upper center",
        bbox_to_anchor=(0.5, -0.14),
        ncol=3,
        fontsize=8,
    )
    ax.set_title("re-costing: cost error per round")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def recost_markdown(res: Recost, p: RecostParams, command: str, cost_label: str) -> str:
    from agents.selfplay import describe_options

    rows = [
        "| Round | Games | Decisive | 1 cost = log-odds | Mean abs(worth - cost) "
        "| Max abs(worth - cost) | Outside 95% CI | Self-play time |",
        "|---:|---:|---:|---|---:|---:|---:|---|",
    ]
    for r in res.rounds:
        s = r.summary()
        rows.append(
            f"| {r.index} | {r.games:,} | {r.decisive:,} | {r.slope:.4f} ± {balance.Z95 * r.slope_se:.4f} "
            f"| {s['mean_abs_error']:.3f} | {s['max_abs_error']:.3f} | {s['outside_ci']} "
            f"| {_fmt_timing(r.timing)} |"
        )
    head = (
        "| Unit | Category | Listed | "
        + " | ".join(f"Round {r.index}: cost → worth [95% CI]" for r in res.rounds)
        + " | Suggested |"
    )
    units = [head, "|---|---|---:|" + "---|" * len(res.rounds) + "---:|"]
    for u, n in enumerate(res.names):
        cells = [
            f"{int(r.costs[u])} → {r.worth[u]:.2f} [{r.lo[u]:.2f}, {r.hi[u]:.2f}]"
            + ("" if r.inside[u] else " *")
            for r in res.rounds
        ]
        change = int(res.suggested[u]) - int(res.listed[u])
        units.append(
            f"| {n} | {res.group_names[res.groups[u]]} | {int(res.listed[u])} | "
            + " | ".join(cells)
            + f" | **{int(res.suggested[u])}**{f' ({change:+d})' if change else ''} |"
        )
    pools = sorted(set(res.group_names[g] for g in res.groups))
    budget = ", ".join(
        f"{g} {int(res.listed[np.array([res.group_names[i] == g for i in res.groups])].sum())}"
        for g in pools
    )
    suggested_note = (
        "The suggested costs were played (the last round above)."
        if res.suggested_played
        else "The suggested costs are the proposal from the last round's fit; no round has "
        "played them yet (rerun with more --rounds to check them)."
    )
    return "\n".join(
        [
            f"# Re-costing {p.ruleset}: {cost_label} to match worth in winning",
            "",
            f"Command: `{command}`",
            "",
            f"Agent {p.agent} in every seat, {p.players} players, "
            + (f"options {describe_options(p.options)}, " if p.options else "")
            + f"seed {p.seed} in every round "
            f"(the same deals and dice: common random numbers), {res.rounds[-1].games:,} games "
            f"per round, damping {p.damping:g}.",
            "",
            f"**Stopped:** {res.stop}. {suggested_note}",
            "",
            "Method (agents/recost.py): each round fits the implied worth of every unit in "
            f"{cost_label} (agents/balance.py: logistic regression of the win on the dealt "
            "units, worth = category mean cost + coefficient / slope, 95% delta-method "
            "intervals) under the costs that round played, then proposes the worths rounded "
            f"to integers with each category's total kept ({budget}) by a largest-remainder "
            "correction, inside the costs the rule loader accepts (a unit whose worth is below "
            "the lowest cost gets the lowest and the others of its category pay for it evenly). "
            "The costs are also the "
            "score (units alive count their cost), so each round plays a new game.",
            "",
            "## Rounds",
            "",
            *rows,
            "",
            "![cost error per round](convergence.png)",
            "",
            "## Costs and implied worth per round",
            "",
            "`*`: the 95% interval excludes the cost played that round. Each round's full "
            "report: `round_<r>/balance.md`; its rule folder: `round_<r>/config/`.",
            "",
            *units,
            "",
            "## Suggested costs",
            "",
            "The rule folder with the suggested costs: `suggested/` (its units.yaml is the "
            "suggested YAML).",
            "",
            "| Unit | Listed | Suggested |",
            "|---|---:|---:|",
            *[
                f"| {n} | {int(res.listed[u])} | {int(res.suggested[u])} |"
                for u, n in enumerate(res.names)
            ],
            "",
        ]
    )


def write_outputs(res: Recost, p: RecostParams, out: Path, command: str) -> None:
    from agents.selfplay import load_ruleset

    rs = load_ruleset(p.ruleset, p.source, p.options)
    label = rs.record.cost_label
    sug = out / "suggested"
    if sug.exists():  # an earlier (shorter) run's suggestion: ours to replace
        shutil.rmtree(sug)
    rs.write_costs(p.source, sug, dict(zip(res.names, res.suggested.tolist(), strict=True)))
    (out / "balance.json").write_text(json.dumps(balance_json(res, p, label), indent=2) + "\n")
    write_convergence_plot(out / "convergence.png", res, label)
    (out / "recost.md").write_text(recost_markdown(res, p, command, label))


def cmd_recost(args) -> int:
    """`tacsim balance --recost` (flags in agents/cli.py)."""
    from agents.selfplay import check_threads

    if args.runs is not None and (args.runs / records.RUN_FILE).is_file():
        raise UsageError(
            f"--runs {args.runs} is one self-play run; with --recost it names the folder "
            "that holds one run per round"
        )
    check_threads(args.threads)
    from agents.selfplay import load_ruleset, option_flags

    # a bad option: UsageError naming it, before anything is written
    options = dict(load_ruleset(args.ruleset, None, args.options).options)
    p = RecostParams(
        ruleset=args.ruleset,
        players=2 if args.players is None else args.players,
        games=args.games
        if args.games is not None or args.precision is not None
        else balance.DEFAULT_GAMES,
        agent="random" if args.agent is None else args.agent,
        seed=0 if args.seed is None else args.seed,
        chunk=args.chunk,
        damping=1.0 if args.damping is None else args.damping,
        source=None,
        options=options,
    )
    rounds = DEFAULT_ROUNDS if args.rounds is None else args.rounds
    runs_root = args.runs if args.runs is not None else default_runs_root(p, Path(args.out))
    command = (
        f"tacsim balance --recost --ruleset {p.ruleset} --players {p.players} "
        f"--agent {p.agent} --seed {p.seed} --rounds {rounds} --damping {p.damping:g} "
        + (f"--games {p.games} " if p.games is not None else f"--precision {args.precision:g} ")
        + f"--out {args.out}"
        + option_flags(p.options)
    )
    res = run_recost(
        p,
        rounds,
        Path(args.out),
        runs_root,
        threads=args.threads,
        precision=args.precision,
        pilot=args.pilot or balance.DEFAULT_PILOT,
        max_games=args.max_games or balance.DEFAULT_MAX_GAMES,
    )
    if res is None:
        print(
            "interrupted: finished chunks kept; rerun the same command to resume.", file=sys.stderr
        )
        return 130
    write_outputs(res, p, Path(args.out), command)
    print(f"stopped: {res.stop}")
    print(f"listed:    {_fmt_costs(res.names, res.listed)}")
    print(f"suggested: {_fmt_costs(res.names, res.suggested)}")
    print(f"wrote {Path(args.out) / 'recost.md'}, balance.json, convergence.png and suggested/")
    return 0
