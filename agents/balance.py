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
"""

from __future__ import annotations

import sys
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


def ruleset_items(spec) -> UnitInfo:
    """The items of a ruleset's RecordSpec as the report uses them."""
    return UnitInfo(
        list(spec.items),
        np.asarray(spec.groups),
        list(spec.group_names),
        np.asarray(spec.costs, dtype=float),
    )


def report_table(units: UnitInfo, fit: LogitFit, imp: ImpliedVP, used: np.ndarray) -> str:
    lo, hi = fit.ci()
    lines = [
        "| Unit | Category | Listed VP | Coefficient (95% CI) | Implied VP (95% CI) "
        "| Verdict | Games used |",
        "|---|---|---:|---|---|---|---:|",
    ]
    for u, name in enumerate(units.names):
        implied = (
            "n/a"
            if np.isnan(imp.value[u])
            else f"{imp.value[u]:.2f} [{imp.lo[u]:.2f}, {imp.hi[u]:.2f}]"
        )
        lines.append(
            f"| {name} | {units.category_names[units.categories[u]]} | {units.listed_vp[u]:g} "
            f"| {fit.coef[u]:+.3f} [{lo[u]:+.3f}, {hi[u]:+.3f}] | {implied} "
            f"| {imp.verdict[u]} | {used[u]:,} |"
        )
    return "\n".join(lines)


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
        for u in np.flatnonzero(ok):
            ax.annotate(
                units.names[u],
                (x[u], imp.value[u]),
                textcoords="offset points",
                xytext=(6, 4),
                fontsize=8,
            )
    ax.set_xlabel(f"listed {cost_label}")
    ax.set_ylabel(f"implied {cost_label} (from winning)")
    ax.set_title(title)
    ax.legend(loc="upper left")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)


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
    md = "\n".join(
        [
            "# Unit balance: value in winning vs listed victory points",
            "",
            run_line,
            f"Games used: {design.games - design.draws:,} decisive of {design.games:,} "
            f"({design.draws:,} draws left out); {fit.n_rows:,} model rows.",
            "",
            "Method (agents/balance.py): logistic regression of the win on the seat's dealt "
            "unit counts minus the opponents' (mean), maximum likelihood with an L2 ridge of "
            f"{RIDGE:g} (negligible), 95% intervals from the inverse Fisher information. "
            f"Coefficients are log-odds per extra card; categories with a fixed deal size "
            f"({cons}) are centred: a coefficient is relative to its category's average unit. "
            f"One listed VP is worth k = {imp.slope:.4f} ± {Z95 * imp.slope_se:.4f} log-odds "
            "(through-origin fit of the centred coefficients on the centred listed VP); "
            "implied VP = category mean listed VP + coefficient / k (delta-method interval). "
            "A unit is flagged when its implied interval excludes its listed VP.",
            "",
            table,
            "",
            "Flagged: " + (", ".join(flagged) if flagged else "none"),
            "",
            "![implied vs listed VP](balance.png)",
            "",
        ]
    )
    (out_dir / "balance.md").write_text(md)
    title = "units: implied vs listed VP"
    cost_label = "victory points"
    if spec is not None:
        title = f"{spec.item_label}s: implied vs listed {spec.cost_label}"
        cost_label = spec.cost_label
    write_plot(out_dir / "balance.png", units, imp, title, cost_label)
    return table


# --- the command --------------------------------------------------------------------------


def default_runs_dir(ruleset: str, players: int, seed: int, games: int) -> Path:
    return Path("runs/balance") / f"{ruleset}_p{players}_seed{seed}_n{games}"


def balance_params(args):
    """Self-play parameters: those of an existing --runs folder, or random in every seat."""
    from agents.selfplay import make_params

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
        params = make_params(
            old["ruleset"], old["players"], old["games"], old["agents"], old["seed"], old["chunk"]
        )
    else:
        players = 2 if args.players is None else args.players
        seed = 0 if args.seed is None else args.seed
        games = DEFAULT_GAMES if args.games is None else args.games
        params = make_params(
            args.ruleset, players, games, ("random",) * max(players, 1), seed, args.chunk
        )
        if runs is None:
            runs = default_runs_dir(params.ruleset, params.players, params.seed, params.games)
    if len(set(params.agents)) != 1:
        raise UsageError(
            f"balance needs runs where one agent plays every seat; {runs} has agents "
            f"{','.join(params.agents)}"
        )
    return params, runs


def cmd_balance(args) -> int:
    """`tacsim balance` (flags in agents/cli.py)."""
    from agents.selfplay import check_threads, run_selfplay

    params, runs = balance_params(args)
    check_threads(args.threads)
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
    from agents.selfplay import load_ruleset

    rs = load_ruleset(params.ruleset)
    spec = rs.record
    units = ruleset_items(spec)
    stems = records.unit_columns(units.names)
    cols = ["game_index", "winner"] + [
        records.force_column(s, st) for s in range(params.players) for st in stems
    ]
    design = design_from_table(records.read_games(runs, cols), params.players, stems)
    fit = fit_logit(design.X, design.y, units.categories)
    imp = implied_vp(fit, units.listed_vp, units.categories)
    run_line = (
        f"Self-play records: `{runs}` ({rs.env_name}, {params.players} players, agent "
        f"{params.agents[0]} in every seat, seed {params.seed}, {params.games:,} games)."
    )
    table = write_report(Path(args.out), units, design, fit, imp, run_line, spec)
    print(run_line)
    print(f"slope: 1 listed VP = {imp.slope:.4f} ± {Z95 * imp.slope_se:.4f} log-odds")
    print(table)
    print(f"wrote {Path(args.out) / 'balance.md'} and {Path(args.out) / 'balance.png'}")
    return 0
