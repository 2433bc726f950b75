"""`tacsim balance`: how much each item (TAC: unit type) is worth in winning, against its
listed cost (TAC: victory points), for any playable ruleset. The ruleset's RecordSpec
(envs/core/ruleset.py) names the items, their listed costs and the groups dealt together;
the text below says it for TAC.

Data: self-play records (agents/records.py) where one agent plays every seat (random by
default), so the only systematic difference between the seats is the deal.

Model. For 2 players one row per decisive game: y = "seat 0 won", x_u = seat 0's dealt count
of unit type u minus seat 1's. For P > 2 one row per seat of each decisive game: y = "this seat
won", x_u = its count minus the mean of the other seats' counts (the P rows of a game are not
independent, so those intervals are approximate). Draws (ties after 11.2) are left out.
    P(y = 1) = logistic(a + sum_u b_u x_u)
fit by maximum likelihood (Newton-Raphson) with an L2 ridge RIDGE = 1e-3 on the b's
(not on a). The ridge only keeps Newton finite when a tiny sample separates perfectly: with
n rows it shrinks a coefficient by a relative ~RIDGE / (n Var(x) p(1-p)), under 1e-5 for
n >= 1,000. 95% intervals: b +- 1.96 se, se from the inverse (penalised) Fisher information.

Identification. TAC deals a fixed number of cards per category (2.1: 2 tanks + 5 light units
each), so within a category the x_u of a row sum to zero and only differences between unit
types of the same category can be estimated ("a Main Battle Tank instead of a Medium Tank").
For every category where that holds the fit imposes sum_u b_u = 0 over the category (it works
in a basis of that subspace), so b_u is the value of u relative to the category's average type.

Victory-point equivalents. The listed VP are centred the same way (v_u = VP_u minus the
category's mean listed VP; not centred in a category without the constraint). The slope
k = sum v_u b_u / sum v_u^2 (least squares through the origin of b on v) is the log-odds one
listed VP is worth. A unit's implied VP is mean listed VP of its category + b_u / k; its 95%
interval comes from the delta method over the full covariance of the b's (k included). A unit
is flagged when that interval excludes its listed VP.

Around it: --agent puts any self-play agent in every seat; --precision X plays a pilot (the
run's first chunks) and prints the games each unit's interval needs to be +-X (games_needed:
standard errors scale as 1/sqrt(games); a 20,000-game pilot of TAC predicted the half-widths
at 1,000,000 games within 6%); --recost (agents/recost.py) re-costs to parity;
--compare (agents/balance_compare.py) fits one run per agent.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from agents import records
from agents.cli import UsageError

RIDGE = 1e-3
Z95 = 1.959963984540054  # standard normal 97.5% quantile
DEFAULT_GAMES = 100_000
MAX_NEWTON = 100


@dataclass
class LogitFit:
    coef: np.ndarray  # [U] b_u
    cov: np.ndarray  # [U, U]
    intercept: float
    intercept_se: float
    n_rows: int
    constrained: list[int]  # category ids with sum_u b_u = 0 imposed
    iterations: int

    @property
    def se(self) -> np.ndarray:
        return np.sqrt(np.maximum(np.diag(self.cov), 0.0))

    def ci(self) -> tuple[np.ndarray, np.ndarray]:
        return self.coef - Z95 * self.se, self.coef + Z95 * self.se


def _constraint_basis(X: np.ndarray, categories: np.ndarray) -> tuple[np.ndarray, list[int]]:
    """Orthonormal basis B of the coefficients allowed: sum_u b_u = 0 over each category whose
    counts sum to zero in every row (otherwise that direction is not identified)."""
    from scipy.linalg import null_space

    U = X.shape[1]
    rows, constrained = [], []
    for g in np.unique(categories):
        ind = (categories == g).astype(float)
        if np.allclose(X @ ind, 0.0, atol=1e-9):
            rows.append(ind)
            constrained.append(int(g))
    if not rows:
        return np.eye(U), constrained
    return null_space(np.array(rows)), constrained


def fit_logit(
    X: np.ndarray, y: np.ndarray, categories: np.ndarray, ridge: float = RIDGE
) -> LogitFit:
    """Maximum-likelihood logistic regression of y on X with an intercept (Newton-Raphson)."""
    X = np.asarray(X, dtype=float)
    y = np.asarray(y, dtype=float)
    n, _ = X.shape
    if n == 0:
        raise ValueError("no rows to fit (every game a draw?)")
    B, constrained = _constraint_basis(X, np.asarray(categories))
    Z = np.hstack([np.ones((n, 1)), X @ B])
    penalty = np.full(Z.shape[1], ridge)
    penalty[0] = 0.0  # the intercept is not shrunk
    theta = np.zeros(Z.shape[1])
    it = 0
    while True:
        it += 1
        eta = Z @ theta
        p = 1.0 / (1.0 + np.exp(-eta))
        grad = Z.T @ (y - p) - penalty * theta
        H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(penalty)
        step = np.linalg.solve(H, grad)
        theta += step
        if np.max(np.abs(step)) < 1e-10:
            break
        if it == MAX_NEWTON:
            raise RuntimeError(f"logistic fit did not converge in {MAX_NEWTON} Newton steps")
    p = 1.0 / (1.0 + np.exp(-(Z @ theta)))
    H = (Z * (p * (1 - p))[:, None]).T @ Z + np.diag(penalty)
    cov_theta = np.linalg.inv(H)
    coef = B @ theta[1:]
    cov = B @ cov_theta[1:, 1:] @ B.T
    return LogitFit(coef, cov, float(theta[0]), float(np.sqrt(cov_theta[0, 0])), n, constrained, it)


@dataclass
class ImpliedVP:
    slope: float  # log-odds per listed VP
    slope_se: float
    value: np.ndarray  # [U] implied VP (nan when the slope is not positive)
    lo: np.ndarray
    hi: np.ndarray
    verdict: list[str]


def implied_vp(fit: LogitFit, listed: np.ndarray, categories: np.ndarray) -> ImpliedVP:
    """Coefficients in listed-VP units (module docstring), with delta-method intervals."""
    listed = np.asarray(listed, dtype=float)
    categories = np.asarray(categories)
    anchor = np.zeros_like(listed)
    for g in fit.constrained:
        anchor[categories == g] = listed[categories == g].mean()
    v = listed - anchor
    U = len(listed)
    nan = np.full(U, np.nan)
    if float(v @ v) == 0.0:
        return ImpliedVP(nan[0], nan[0], nan, nan, nan, ["n/a (listed VP all equal)"] * U)
    w = v / float(v @ v)
    k = float(w @ fit.coef)
    k_se = float(np.sqrt(max(w @ fit.cov @ w, 0.0)))
    if k <= 0:
        return ImpliedVP(k, k_se, nan, nan, nan, ["n/a (slope <= 0)"] * U)
    value = anchor + fit.coef / k
    # d(b_u / k)/d b_j = delta_uj / k - b_u w_j / k^2
    J = np.eye(U) / k - np.outer(fit.coef, w) / k**2
    se = np.sqrt(np.maximum(np.diag(J @ fit.cov @ J.T), 0.0))
    lo, hi = value - Z95 * se, value + Z95 * se
    verdict = [
        "worth more than listed"
        if lo[u] > listed[u]
        else "worth less than listed"
        if hi[u] < listed[u]
        else "consistent"
        for u in range(U)
    ]
    return ImpliedVP(k, k_se, value, lo, hi, verdict)


# --- records -> design ----------------------------------------------------------------------


@dataclass
class Design:
    X: np.ndarray  # [rows, U]
    y: np.ndarray  # [rows]
    game: np.ndarray  # [rows] game_index of each row
    games: int  # games read
    draws: int  # games left out


def design_from_table(table, players: int, stems: list[str]) -> Design:
    """Rows of the model (module docstring) from a records table (pyarrow)."""
    winner = table.column("winner").to_numpy().astype(np.int64)
    gidx = table.column("game_index").to_numpy().astype(np.int64)
    deals = np.stack(
        [
            np.stack(
                [table.column(records.force_column(s, st)).to_numpy() for st in stems], axis=1
            ).astype(float)
            for s in range(players)
        ],
        axis=1,
    )  # [n, P, U]
    decisive = winner >= 0
    games, draws = len(winner), int((~decisive).sum())
    deals, winner, gidx = deals[decisive], winner[decisive], gidx[decisive]
    if players == 2:
        return Design(deals[:, 0] - deals[:, 1], (winner == 0).astype(float), gidx, games, draws)
    total = deals.sum(axis=1, keepdims=True)
    others_mean = (total - deals) / (players - 1)
    X = (deals - others_mean).reshape(-1, deals.shape[2])
    y = (winner[:, None] == np.arange(players)[None, :]).astype(float).reshape(-1)
    return Design(X, y, np.repeat(gidx, players), games, draws)


def informative_games(d: Design) -> np.ndarray:
    """Per unit type: games where its counts differ between the seats."""
    return np.array(
        [len(np.unique(d.game[d.X[:, u] != 0])) for u in range(d.X.shape[1])], dtype=np.int64
    )


# --- report -----------------------------------------------------------------------------------


@dataclass
class UnitInfo:
    names: list[str]
    categories: np.ndarray  # [U] category id
    category_names: list[str]
    listed_vp: np.ndarray  # [U]
    # the report's words (RecordSpec.headers): item column, group column, short cost unit
    headers: tuple[str, str, str] = ("Unit", "Category", "VP")
    notes: tuple[str, ...] = ()  # one per item, in a column of its own when given
    notes_header: str = ""


def ruleset_items(spec) -> UnitInfo:
    """The items of a ruleset's RecordSpec as the report uses them."""
    return UnitInfo(
        list(spec.items),
        np.asarray(spec.groups),
        list(spec.group_names),
        np.asarray(spec.costs, dtype=float),
        tuple(spec.headers),
        tuple(spec.item_notes),
        spec.notes_header,
    )


def report_table(units: UnitInfo, fit: LogitFit, imp: ImpliedVP, used: np.ndarray) -> str:
    lo, hi = fit.ci()
    item, group, cost = units.headers
    note_head, note_rule = (f" {units.notes_header} |", "---:|") if units.notes else ("", "")
    lines = [
        f"| {item} | {group} |{note_head} Listed {cost} | Coefficient (95% CI) "
        f"| Implied {cost} (95% CI) | Verdict | Games used |",
        f"|---|---|{note_rule}---:|---|---|---|---:|",
    ]
    for u, name in enumerate(units.names):
        implied = (
            "n/a"
            if np.isnan(imp.value[u])
            else f"{imp.value[u]:.2f} [{imp.lo[u]:.2f}, {imp.hi[u]:.2f}]"
        )
        note = f" {units.notes[u]} |" if units.notes else ""
        lines.append(
            f"| {name} | {units.category_names[units.categories[u]]} |{note} "
            f"{units.listed_vp[u]:g} "
            f"| {fit.coef[u]:+.3f} [{lo[u]:+.3f}, {hi[u]:+.3f}] | {implied} "
            f"| {imp.verdict[u]} | {used[u]:,} |"
        )
    return "\n".join(lines)


MAX_LABELS = 30  # units named on the plot: beyond this many the labels would cover the points


def _labelled(units: UnitInfo, imp: ImpliedVP) -> np.ndarray:
    """The units the plot names: all of them when few; else the flagged ones ("worth more /
    less than listed") that differ most from their listed cost, so a
    designer reads the outliers (the table in balance.md has every unit)."""
    ok = np.flatnonzero(~np.isnan(imp.value))
    if ok.size <= MAX_LABELS:
        return ok
    flagged = np.array([u for u in ok if imp.verdict[u].startswith("worth")], dtype=np.int64)
    gap = np.abs(imp.value[flagged] - units.listed_vp[flagged])
    return flagged[np.argsort(-gap, kind="stable")[:MAX_LABELS]]


def write_plot(
    path: Path, units: UnitInfo, imp: ImpliedVP, title: str, cost_label: str = "victory points"
) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(8, 6))
    x = units.listed_vp.astype(float).copy()
    # spread units that share a listed VP so their bars and labels do not overlap
    for vp in np.unique(x):
        same = np.flatnonzero(units.listed_vp == vp)
        x[same] = vp + (np.arange(len(same)) - (len(same) - 1) / 2) * 0.08
    ok = ~np.isnan(imp.value)
    lo_all = np.nanmin(np.concatenate([units.listed_vp, imp.lo[ok]])) if ok.any() else 0
    hi_all = np.nanmax(np.concatenate([units.listed_vp, imp.hi[ok]])) if ok.any() else 1
    line = np.array([min(lo_all, units.listed_vp.min()) - 0.5, hi_all + 0.5])
    ax.plot(line, line, color="grey", linestyle="--", label="implied = listed")
    if ok.any():
        yerr = np.vstack([imp.value - imp.lo, imp.hi - imp.value])[:, ok]
        ax.errorbar(x[ok], imp.value[ok], yerr=yerr, fmt="o", capsize=3, label="implied, 95% CI")
        named = _labelled(units, imp)
        texts = [ax.text(x[u], imp.value[u], units.names[u], fontsize=8) for u in named]
        if texts:
            from adjustText import adjust_text

            # labels pushed apart (and off the points and bars), each with a line to its point
            adjust_text(
                texts,
                x=x[ok],
                y=imp.value[ok],
                ax=ax,
                arrowprops={"arrowstyle": "-", "color": "grey", "lw": 0.5},
            )
    ax.set_xlabel(f"listed {cost_label}")
    ax.set_ylabel(f"implied {cost_label} (from winning)")
    ax.set_title(title)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


def _plural(word: str) -> str:
    """English plural of a group column's name ("class" -> "classes", "weight" -> "weights")."""
    return word + ("es" if word.endswith(("s", "x", "ch", "sh")) else "s")


def write_report(
    out_dir: Path,
    units: UnitInfo,
    design: Design,
    fit: LogitFit,
    imp: ImpliedVP,
    run_line: str,
    spec=None,
) -> str:
    """Write balance.md and balance.png into out_dir; return the markdown table."""
    out_dir.mkdir(parents=True, exist_ok=True)
    used = informative_games(design)
    table = report_table(units, fit, imp, used)
    cons = ", ".join(units.category_names[g] for g in fit.constrained) or "none"
    flagged = [units.names[u] for u, v in enumerate(imp.verdict) if v.startswith("worth")]
    item, group, cost = units.headers
    cost_words = "victory points" if spec is None else spec.cost_label
    what = "unit type" if spec is None else spec.item_label
    verb = "dealt" if spec is None else spec.force_verb
    md = "\n".join(
        [
            f"# {item} balance: value in winning vs listed {cost_words}",
            "",
            run_line,
            f"Games used: {design.games - design.draws:,} decisive of {design.games:,} "
            f"({design.draws:,} draws left out); {fit.n_rows:,} model rows.",
            "",
            "Method (agents/balance.py): logistic regression of the win on the seat's counts "
            f"of each {what} ({verb}) minus the opponents' (mean), maximum likelihood with an "
            f"L2 ridge of {RIDGE:g} (negligible), 95% intervals from the inverse Fisher "
            f"information. Coefficients are log-odds per extra {what}; {_plural(group.lower())} with "
            f"a fixed size ({cons}) are centred: a coefficient is relative to its "
            f"{group.lower()}'s average {what}. "
            f"One unit of listed {cost} is worth k = {imp.slope:.4f} ± {Z95 * imp.slope_se:.4f} "
            f"log-odds (through-origin fit of the centred coefficients on the centred listed "
            f"{cost}); implied {cost} = category mean listed {cost} + coefficient / k "
            f"(delta-method interval). A {item.lower()} is flagged when its implied interval "
            f"excludes its listed {cost}.",
            "",
            table,
            "",
            "Flagged: " + (", ".join(flagged) if flagged else "none"),
            "",
            f"![implied vs listed {cost}](balance.png)",
            "",
        ]
    )
    (out_dir / "balance.md").write_text(md)
    title = "units: implied vs listed VP"
    cost_label = "victory points"
    if spec is not None:
        # "per <label>": a label such as "unit or Item" has no plain plural
        title = f"implied vs listed {spec.cost_label}, per {spec.item_label}"
        cost_label = spec.cost_label
    write_plot(out_dir / "balance.png", units, imp, title, cost_label)
    return table


# --- fitting a run ------------------------------------------------------------------------


@dataclass
class RunFit:
    """A self-play run's balance estimate (what the report shows)."""

    ruleset: object  # the Ruleset the run played under (its config folder)
    units: UnitInfo
    design: Design
    fit: LogitFit
    imp: ImpliedVP


def fit_run(runs: Path, params) -> RunFit:
    """Fit every game on disk in `runs` (self-play with `params`) against the listed costs of
    the rule tables the run played under."""
    from agents.selfplay import load_ruleset

    rs = load_ruleset(params.ruleset, params.config, params.options)
    units = ruleset_items(rs.record)
    stems = records.unit_columns(units.names)
    cols = ["game_index", "winner"] + [
        records.force_column(s, st) for s in range(params.players) for st in stems
    ]
    design = design_from_table(records.read_games(runs, cols), params.players, stems)
    fit = fit_logit(design.X, design.y, units.categories)
    return RunFit(rs, units, design, fit, implied_vp(fit, units.listed_vp, units.categories))


# --- how many games a precision needs ---------------------------------------------------------

DEFAULT_PILOT = 20_000
DEFAULT_MAX_GAMES = 10_000_000


def games_needed(halfwidth: np.ndarray, games: int, precision: float) -> np.ndarray:
    """Games for each 95% half-width to reach `precision`, from half-widths measured over
    `games` games: a standard error scales as 1/sqrt(games), so n = games * (h / X)^2
    (rounded up; nan half-widths give -1: not estimable)."""
    if precision <= 0:
        raise ValueError(f"precision must be > 0, got {precision}")
    h = np.asarray(halfwidth, dtype=float)
    n = np.ceil(games * (h / precision) ** 2 - 1e-9)
    return np.where(np.isfinite(n), n, -1).astype(np.int64)


def precision_table(rf: RunFit, games: int, precision: float) -> tuple[str, int]:
    """Per unit the games its implied-cost interval needs for +-precision; and the most."""
    half = (rf.imp.hi - rf.imp.lo) / 2
    need = games_needed(half, games, precision)
    lines = [
        f"games needed for a 95% interval of +-{precision:g} {rf.ruleset.record.cost_label} "
        f"(from {games:,} games):",
        f"  {'unit':<28}{'half-width now':>16}{'games needed':>16}",
    ]
    for u, name in enumerate(rf.units.names):
        shown = "n/a" if need[u] < 0 else f"{need[u]:,}"
        lines.append(f"  {name:<28}{half[u]:>16.3f}{shown:>16}")
    most = -1 if (need < 0).any() else int(need.max())
    lines.append(
        f"  {'all units':<28}{np.nanmax(half):>16.3f}{most if most < 0 else f'{most:,}':>16}"
    )
    return "\n".join(lines), most


def _link_chunks(src: Path, dst: Path, n_chunks: int) -> None:
    """Put the finished chunks 0..n_chunks-1 of run `src` into run `dst` (hard links, or
    copies across file systems): same seed, agents, chunk size and tables, so they are the
    same games and count toward dst."""
    import os
    import shutil

    have = records.finished_chunks(dst)
    for c, path in records.finished_chunks(src).items():
        if c < n_chunks and c not in have:
            target = records.chunk_path(dst, c)
            try:
                os.link(path, target)
            except OSError:
                shutil.copyfile(path, target)


def plan_games(
    params,
    runs_for,
    precision: float,
    games_given: bool,
    pilot: int,
    max_games: int,
    pilot_runs_for,
    threads: int | None,
):
    """Play a pilot, print the games the precision needs, and return the run's (params, runs).

    With the games given the pilot is the run's own first chunks. Without, the pilot is a run
    of `pilot` games (whole chunks) in pilot_runs_for(its games): the first chunks of any run
    with these parameters; the
    run's games become what the precision needs (at least the pilot, at most max_games), and
    the pilot's chunks are linked into the run's folder, so they count toward it.
    runs_for(games) / pilot_runs_for(games): the folder of the run / of the pilot run of that
    many games. None when interrupted."""
    from dataclasses import replace

    from agents.selfplay import make_context, prepare_run_dir, run_selfplay

    chunk = params.chunk if games_given else min(params.chunk, pilot)
    n_pilot_chunks = -(-min(pilot, params.games if games_given else pilot) // chunk)
    pilot_params = (
        params
        if games_given
        else replace(params, games=min(n_pilot_chunks * chunk, max_games), chunk=chunk)
    )
    where = runs_for(params.games) if games_given else pilot_runs_for(pilot_params.games)
    done = records.finished_chunks(where) if where.is_dir() else {}
    todo = [c for c in range(n_pilot_chunks) if c not in done]
    if todo:
        print(f"pilot: {min(n_pilot_chunks * chunk, pilot_params.games):,} games in {where}")
        out = run_selfplay(pilot_params, where, threads=threads, max_chunks=len(todo))
        if out.interrupted:
            return None
    on_disk = sum(records.chunk_rows(p) for p in records.finished_chunks(where).values())
    rf = fit_run(where, pilot_params)
    table, most = precision_table(rf, on_disk, precision)
    print(table)
    if games_given:
        if most >= 0:
            verdict = "enough" if params.games >= most else "not enough"
            print(f"--games {params.games:,} is {verdict} for +-{precision:g}")
        return params, where
    if most < 0:
        raise UsageError(
            f"the pilot of {on_disk:,} games cannot estimate every unit's worth "
            "(slope <= 0); give --games"
        )
    games = max(pilot_params.games, min(most, max_games))
    if most > max_games:
        print(f"capped at --max-games {max_games:,} (the precision needs {most:,})")
    final = replace(params, games=games, chunk=chunk)
    runs = runs_for(games)
    print(f"playing {games:,} games in {runs}")
    prepare_run_dir(runs, final, make_context(final))
    _link_chunks(where, runs, n_pilot_chunks)
    return final, runs


# --- the command --------------------------------------------------------------------------


def default_runs_dir(
    ruleset: str,
    players: int,
    seed: int,
    games: int,
    agent: str = "random",
    options: Mapping[str, str] | None = None,
) -> Path:
    from agents.selfplay import options_tag

    suffix = "" if agent == "random" else f"_{records.slug(agent)}"
    name = f"{options_tag(ruleset, options)}_p{players}_seed{seed}_n{games}{suffix}"
    return Path("runs/balance") / name


def check_balance_flags(args) -> None:
    """Flag combinations and ranges, before anything is written (UsageError otherwise)."""
    if args.rounds is not None and not args.recost:
        raise UsageError("--rounds needs --recost")
    if args.damping is not None and not args.recost:
        raise UsageError("--damping needs --recost")
    if args.rounds is not None and args.rounds < 1:
        raise UsageError(f"rounds must be at least 1, got {args.rounds}")
    if args.damping is not None and not 0 < args.damping <= 1:
        raise UsageError(f"damping must be in (0, 1], got {args.damping}")
    if args.precision is not None and not args.precision > 0:
        raise UsageError(f"precision must be > 0, got {args.precision}")
    if args.pilot is not None and args.pilot < 1:
        raise UsageError(f"pilot must be at least 1 game, got {args.pilot}")
    if args.max_games is not None and args.max_games < 1:
        raise UsageError(f"max-games must be at least 1, got {args.max_games}")
    if (args.pilot is not None or args.max_games is not None) and args.precision is None:
        raise UsageError("--pilot and --max-games need --precision")
    if args.compare is not None:
        if args.recost:
            raise UsageError("--compare and --recost are separate reports: give one")
        if args.agent is not None:
            raise UsageError("--compare names the agents; drop --agent")
        if args.runs is not None:
            raise UsageError("--compare plays one run per agent; drop --runs")


def balance_params(args):
    """Self-play parameters: those of an existing --runs folder, or --agent (default random)
    in every seat."""
    from agents.selfplay import describe_options, load_ruleset, make_params

    runs = args.runs
    existing = records.read_run_file(runs) if runs is not None and runs.is_dir() else None
    if existing is not None:
        old = existing["params"]
        for flag, key in (("--games", "games"), ("--seed", "seed"), ("--players", "players")):
            asked = getattr(args, key)
            if asked is not None and asked != old[key]:
                raise UsageError(
                    f"{flag} {asked} but {runs} holds a run with {key} {old[key]}: "
                    f"drop {flag} to reuse it, or choose another --runs"
                )
        if args.ruleset != old["ruleset"]:
            raise UsageError(f"--ruleset {args.ruleset!r} but {runs} holds {old['ruleset']!r}")
        if args.agent is not None and [args.agent] != sorted(set(old["agents"])):
            raise UsageError(
                f"--agent {args.agent} but {runs} holds a run of {','.join(old['agents'])}"
            )
        params = make_params(
            old["ruleset"],
            old["players"],
            old["games"],
            old["agents"],
            old["seed"],
            old["chunk"],
            old.get("config"),
            old.get("options") or None,
        )
        if args.options:
            asked = dict(load_ruleset(args.ruleset, old.get("config"), args.options).options)
            if asked != params.options:
                raise UsageError(
                    f"--option {describe_options(asked)} but {runs} holds a run with options "
                    f"{describe_options(params.options)}: drop --option to reuse it, or "
                    "choose another --runs"
                )
    else:
        players = 2 if args.players is None else args.players
        seed = 0 if args.seed is None else args.seed
        games = DEFAULT_GAMES if args.games is None else args.games
        agent = "random" if args.agent is None else args.agent
        params = make_params(
            args.ruleset,
            players,
            games,
            (agent,) * max(players, 1),
            seed,
            args.chunk,
            options=args.options,
        )
    if len(set(params.agents)) != 1:
        raise UsageError(
            f"balance needs runs where one agent plays every seat; {runs} has agents "
            f"{','.join(params.agents)}"
        )
    return params, runs


def run_line_of(rf: RunFit, runs: Path, params) -> str:
    from agents.selfplay import describe_options

    config = ""
    if params.config is not None:  # shown relative to the working folder when inside it
        path = Path(params.config)
        if path.is_relative_to(Path.cwd()):
            path = path.relative_to(Path.cwd())
        config = f", rule tables `{path}`"
    if params.options:
        config += f", options {describe_options(params.options)}"
    return (
        f"Self-play records: `{runs}` ({rf.ruleset.env_name}, {params.players} players, agent "
        f"{params.agents[0]} in every seat, seed {params.seed}, {params.games:,} games{config})."
    )


def cmd_balance(args) -> int:
    """`tacsim balance` (flags in agents/cli.py)."""
    from agents.selfplay import check_threads, run_selfplay

    check_balance_flags(args)
    if args.compare is not None:
        from agents.balance_compare import cmd_compare

        return cmd_compare(args)
    if args.recost:
        from agents.recost import cmd_recost

        return cmd_recost(args)
    params, runs = balance_params(args)
    check_threads(args.threads)
    agent = params.agents[0]

    def runs_for(games: int) -> Path:
        if runs is not None:
            return runs
        return default_runs_dir(
            params.ruleset, params.players, params.seed, games, agent, params.options
        )

    if args.precision is not None:
        given = args.games is not None or (runs is not None and runs.is_dir())

        def pilot_runs_for(games: int) -> Path:
            if runs is not None:
                return runs.with_name(runs.name + "_pilot")
            return default_runs_dir(
                params.ruleset, params.players, params.seed, games, agent, params.options
            )

        planned = plan_games(
            params,
            runs_for,
            args.precision,
            given,
            args.pilot or DEFAULT_PILOT,
            args.max_games or DEFAULT_MAX_GAMES,
            pilot_runs_for,
            args.threads,
        )
        if planned is None:
            print(
                "interrupted during the pilot; rerun the same command to resume.", file=sys.stderr
            )
            return 130
        params, runs = planned
    runs = runs_for(params.games)
    outcome = run_selfplay(
        params,
        runs,
        threads=args.threads,
        progress=True,
        backend=args.backend,
        address=args.address,
        workers=args.workers,
    )
    if not outcome.complete:
        print(
            f"interrupted: {outcome.games_on_disk:,} of {params.games:,} games on disk in "
            f"{runs}; rerun the same command to resume, then the report is written.",
            file=sys.stderr,
        )
        return 130
    rf = fit_run(runs, params)
    run_line = run_line_of(rf, runs, params)
    table = write_report(
        Path(args.out), rf.units, rf.design, rf.fit, rf.imp, run_line, rf.ruleset.record
    )
    print(run_line)
    cost = rf.units.headers[2]
    print(f"slope: 1 listed {cost} = {rf.imp.slope:.4f} ± {Z95 * rf.imp.slope_se:.4f} log-odds")
    print(table)
    print(f"wrote {Path(args.out) / 'balance.md'} and {Path(args.out) / 'balance.png'}")
    return 0
