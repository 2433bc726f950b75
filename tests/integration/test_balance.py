"""`tacsim balance`: the logistic fit, VP equivalents, and the report (agents/balance.py)."""

from __future__ import annotations

import contextlib
import io
import json
from types import SimpleNamespace

import numpy as np
import pytest
from scipy.optimize import minimize

from agents import balance, cli, records
from envs.core.ruleset import ChunkResults

TANKS = ["Main Battle Tank", "Medium Tank", "Command Tank"]
LIGHTS = ["Infantry", "Car", "IFV", "Air-Def", "ATGM", "Arty", "Jeep"]
NAMES = TANKS + LIGHTS
CATS = np.array([0] * len(TANKS) + [1] * len(LIGHTS))


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def fixed_size_deals(rng, n: int, players: int) -> np.ndarray:
    """[n, P, U] counts: 2 tank cards and 5 light cards per seat, as TAC deals (2.1)."""
    d = np.zeros((n, players, len(NAMES)), dtype=np.int8)
    for s in range(players):
        for i in rng.integers(0, len(TANKS), size=(2, n)):
            d[np.arange(n), s, i] += 1
        for i in rng.integers(len(TANKS), len(NAMES), size=(5, n)):
            d[np.arange(n), s, i] += 1
    return d


def fake_records(dealt: np.ndarray, winner: np.ndarray):
    """A records table from made-up results, through the same writer as self-play."""
    n, P, _ = dealt.shape
    res = ChunkResults(
        seat_agent=np.zeros((n, P), dtype=np.int8),
        winner=winner.astype(np.int8),
        score=np.zeros((n, P), dtype=np.int16),
        rewards=np.zeros((n, P), dtype=np.float32),
        length=np.ones(n, dtype=np.int32),
        rounds=np.full(n, 9, dtype=np.int8),
        force=dealt,
    )
    spec = SimpleNamespace(items=tuple(NAMES), rounds_cap=8)
    return records.games_table(0, np.arange(n), P, ["random"], res, spec)


def logistic(z):
    return 1.0 / (1.0 + np.exp(-z))


def test_regression_recovers_a_planted_unit_effect_from_records():
    rng = np.random.default_rng(11)
    n, effect = 20_000, 0.8  # log-odds per Main Battle Tank more than the opponent
    dealt = fixed_size_deals(rng, n, 2)
    diff = dealt[:, 0, 0].astype(float) - dealt[:, 1, 0]
    seat0_wins = rng.random(n) < logistic(effect * diff)
    winner = np.where(seat0_wins, 0, 1)
    winner[:300] = -1  # draws are left out
    stems = records.unit_columns(NAMES)
    d = balance.design_from_table(fake_records(dealt, winner), 2, stems)
    assert d.draws == 300 and len(d.y) == n - 300
    fit = balance.fit_logit(d.X, d.y, CATS)
    assert fit.constrained == [0, 1]  # both categories have a fixed deal size
    lo, hi = fit.ci()
    assert int(np.argmax(fit.coef)) == 0
    assert lo[0] > 0  # significant
    # within the tank category only differences are identified: the true centred values are
    # recovered (within 3.3 standard errors: three 95% intervals miss one 14% of the time)
    true_tank = np.array([effect, 0, 0]) - effect / 3
    assert np.all(np.abs(fit.coef[:3] - true_tank) < 3.3 * fit.se[:3])
    # the light units carry no effect: each interval covers 0
    assert np.all((lo[3:] <= 0) & (0 <= hi[3:]))
    assert abs(fit.coef[CATS == 0].sum()) < 1e-9 and abs(fit.coef[CATS == 1].sum()) < 1e-9


def test_regression_without_fixed_deal_sizes_estimates_each_unit_freely():
    rng = np.random.default_rng(5)
    n = 20_000
    X = rng.poisson(1.0, size=(n, 4)) - rng.poisson(1.0, size=(n, 4))
    beta = np.array([0.6, 0.0, -0.3, 0.0])
    y = (rng.random(n) < logistic(0.2 + X @ beta)).astype(float)
    fit = balance.fit_logit(X, y, np.array([0, 0, 1, 1]))
    lo, hi = fit.ci()
    assert fit.constrained == []
    assert np.all((lo <= beta) & (beta <= hi))
    assert lo[0] > 0 and hi[2] < 0  # the planted effects are significant
    assert lo[1] <= 0 <= hi[1]  # a null unit's interval covers 0
    assert abs(fit.intercept - 0.2) < 3 * fit.intercept_se


def test_newton_fit_is_the_maximum_of_the_penalised_likelihood():
    rng = np.random.default_rng(2)
    X = rng.normal(size=(3000, 3))
    y = (rng.random(3000) < logistic(X @ np.array([0.5, -1.0, 0.0]) - 0.3)).astype(float)
    fit = balance.fit_logit(X, y, np.array([0, 1, 2]))

    def nll(t):
        eta = t[0] + X @ t[1:]
        return np.sum(np.logaddexp(0, eta) - y * eta) + 0.5 * balance.RIDGE * t[1:] @ t[1:]

    ref = minimize(nll, np.zeros(4), method="BFGS", options={"gtol": 1e-8}).x
    assert fit.intercept == pytest.approx(ref[0], abs=1e-4)
    assert fit.coef == pytest.approx(ref[1:], abs=1e-4)


def simulate_fit(seed: int, true_vp: np.ndarray, k: float = 0.25, n: int = 60_000):
    """Games whose log-odds are k per true VP of the deal difference; the fit of them."""
    rng = np.random.default_rng(seed)
    dealt = fixed_size_deals(rng, n, 2)
    X = dealt[:, 0].astype(float) - dealt[:, 1]
    y = (rng.random(n) < logistic(X @ (k * true_vp))).astype(float)
    return balance.fit_logit(X, y, CATS)


LISTED = np.array([5, 4, 5, 2, 2, 2, 3, 2, 3, 3], dtype=float)


def test_implied_vp_is_the_listed_vp_when_winning_value_is_proportional_to_it():
    fit = simulate_fit(3, LISTED)
    imp = balance.implied_vp(fit, LISTED, CATS)
    assert abs(imp.slope - 0.25) < 3.3 * imp.slope_se
    se = (imp.hi - imp.lo) / (2 * balance.Z95)
    assert np.all(np.abs(imp.value - LISTED) < 3.3 * se)


def test_implied_vp_flags_a_unit_that_wins_like_a_bigger_one():
    true_vp = LISTED.copy()
    true_vp[5] = 5.0  # this light unit plays like a 5-VP unit although listed at 2
    fit = simulate_fit(4, true_vp)
    imp = balance.implied_vp(fit, LISTED, CATS)
    assert imp.verdict[5] == "worth more than listed"
    assert imp.lo[5] > LISTED[5]
    se = (imp.hi - imp.lo) / (2 * balance.Z95)
    assert int(np.argmax((imp.value - LISTED) / se)) == 5


def test_a_plot_of_many_units_names_only_the_outliers_most_off_first():
    """202 labels cover the points (Tactics David): past MAX_LABELS units the plot names the
    flagged ones, the largest gap between implied and listed cost first."""
    n = balance.MAX_LABELS + 10
    listed = np.arange(n, dtype=float) + 5
    value = listed.copy()
    value[[3, 17, 33]] += [4.0, -9.0, 2.0]  # three mispriced units, 17 the most
    units = balance.UnitInfo([f"u{i}" for i in range(n)], np.zeros(n, int), ["all"], listed)
    verdict = ["consistent"] * n
    for u in (3, 17, 33):
        verdict[u] = "worth more than listed" if value[u] > listed[u] else "worth less than listed"
    imp = balance.ImpliedVP(1.0, 0.1, value, value - 0.5, value + 0.5, verdict)
    assert balance._labelled(units, imp).tolist() == [17, 3, 33]
    few = balance.UnitInfo(units.names[:5], np.zeros(5, int), ["all"], listed[:5])
    imp5 = balance.ImpliedVP(1.0, 0.1, value[:5], value[:5] - 0.5, value[:5] + 0.5, verdict[:5])
    assert balance._labelled(few, imp5).tolist() == [0, 1, 2, 3, 4]


def test_implied_vp_is_not_given_when_listed_vp_do_not_predict_winning():
    fit = simulate_fit(5, -LISTED)  # higher listed VP loses more often
    imp = balance.implied_vp(fit, LISTED, CATS)
    assert imp.slope < 0
    assert np.all(np.isnan(imp.value)) and set(imp.verdict) == {"n/a (slope <= 0)"}


def test_design_for_more_players_uses_the_opponents_mean():
    dealt = np.zeros((2, 3, len(NAMES)), dtype=np.int8)
    dealt[0, :, 0] = [2, 1, 0]
    dealt[1, :, 0] = [0, 0, 3]
    t = fake_records(dealt, np.array([0, -1]))
    d = balance.design_from_table(t, 3, records.unit_columns(NAMES))
    assert d.draws == 1
    assert d.X[:, 0].tolist() == [2 - 0.5, 1 - 1.0, 0 - 1.5]
    assert d.y.tolist() == [1.0, 0.0, 0.0]


@pytest.fixture(scope="module")
def balance_run(tmp_path_factory):
    base = tmp_path_factory.mktemp("balance")
    runs, report = base / "runs", base / "report"
    rc, stdout, err = run_cli(
        "balance", "--ruleset", "tac", "--games", "2000", "--runs", str(runs), "--out",
        str(report), "--seed", "3", "--chunk", "1000",
    )  # fmt: skip
    assert rc == 0, err
    return runs, report, stdout


def test_balance_writes_markdown_table_and_plot(balance_run):
    runs, report, stdout = balance_run
    md = (report / "balance.md").read_text()
    from envs.tac.tables import default_tables

    units = default_tables().units
    header = "| Unit | Category | Listed VP | Coefficient (95% CI) | Implied VP (95% CI) |"
    assert header in md and header in stdout
    for u in units:
        row = next(ln for ln in md.splitlines() if ln.startswith(f"| {u.name} |"))
        assert f"| {u.victory_points} |" in row
    assert "2,000 games" in md
    png = (report / "balance.png").read_bytes()
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    assert records.read_games(runs).num_rows == 2000


def test_balance_reuses_an_existing_run_without_playing(balance_run, tmp_path):
    runs, _, _ = balance_run
    before = {p: p.stat().st_mtime_ns for p in runs.iterdir()}
    rc, stdout, _ = run_cli("balance", "--runs", str(runs), "--out", str(tmp_path))
    assert rc == 0
    assert "seed 3, 2,000 games" in stdout
    assert {p: p.stat().st_mtime_ns for p in runs.iterdir()} == before
    rc, _, err = run_cli("balance", "--runs", str(runs), "--games", "5000", "--out", str(tmp_path))
    assert rc == 2 and "--games 5000 but" in err


def test_balance_refuses_runs_with_different_agents_per_seat(balance_run, tmp_path):
    runs, _, _ = balance_run
    run = json.loads((runs / "run.json").read_text())
    run["params"]["agents"] = ["random", "heuristic"]
    mixed = tmp_path / "mixed"
    mixed.mkdir()
    (mixed / "run.json").write_text(json.dumps(run))
    rc, _, err = run_cli("balance", "--runs", str(mixed), "--out", str(tmp_path / "rep"))
    assert rc == 2 and "one agent plays every seat" in err
    assert not (tmp_path / "rep").exists()


@pytest.mark.parametrize(
    "args, message",
    [
        (["--ruleset", "chess"], "unknown ruleset 'chess'"),
        (["--games", "0"], "games must be at least 1, got 0"),
        (["--players", "7"], "players must be 2 to 5, got 7"),
    ],
)
def test_balance_bad_input_exits_2_and_writes_nothing(tmp_path, args, message):
    runs, rep = tmp_path / "runs", tmp_path / "rep"
    rc, _, err = run_cli("balance", *args, "--runs", str(runs), "--out", str(rep))
    assert rc == 2 and message in err
    assert not runs.exists() and not rep.exists()
