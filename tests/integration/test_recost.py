"""Re-costing (agents/recost.py), games needed for a precision, balance by agent, and TAC's
write_costs (envs/tac/costs.py)."""

from __future__ import annotations

import contextlib
import io
import itertools
import json
import re
from pathlib import Path

import numpy as np
import pytest

from agents import balance, cli, records, recost
from envs.registry import get

NAMES = [
    "Main Battle Tank",
    "Medium Tank",
    "Command Tank",
    "Mechanised Infantry",
    "Air-Def Infantry",
    "Armoured Car",
    "Infantry Fighting Vehicle",
    "Air-Def Vehicle",
    "ATGM Vehicle",
    "Self-Propelled Artillery",
]


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def tac_listed() -> np.ndarray:
    return get("tac").record.costs.astype(np.int64)


# --- integer costs ---------------------------------------------------------------------------


@pytest.mark.parametrize("seed", range(20))
def test_integer_costs_keep_every_budget_exactly_and_stay_in_bounds(seed):
    rng = np.random.default_rng(seed)
    U = int(rng.integers(2, 12))
    pools = rng.integers(-1, 3, size=U)
    listed = rng.integers(1, 8, size=U)
    budgets = recost.pool_budgets(listed, pools)
    target = listed + rng.normal(0, 3, size=U)  # some far outside the bounds
    c = recost.integer_costs(target, pools, budgets, (1, 20))
    assert c.dtype.kind == "i"
    assert np.all((1 <= c) & (c <= 20))
    for p, b in budgets.items():
        assert int(c[pools == p].sum()) == b


def test_integer_costs_round_to_nearest_when_the_targets_sum_to_the_budget():
    target = np.array([5.8, 3.1, 5.1, 3.7, 2.4, 1.2, 4.2, 1.6, 3.2, 0.6])
    pools = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    listed = np.array([5, 4, 5, 2, 2, 2, 3, 2, 3, 3])
    target[:3] += (14 - target[:3].sum()) / 3  # centred as implied_vp does
    target[3:] += (17 - target[3:].sum()) / 7
    c = recost.integer_costs(target, pools, recost.pool_budgets(listed, pools), (1, 20))
    # 0.6 would round to 1 anyway; the floor of 1 holds it there
    assert c.tolist() == [6, 3, 5, 4, 2, 1, 4, 2, 3, 1]
    assert c[:3].sum() == 14 and c[3:].sum() == 17


def test_integer_costs_refuse_a_budget_the_bounds_cannot_meet():
    with pytest.raises(ValueError, match="budget 2 of 3 items"):
        recost.integer_costs(np.zeros(3), np.zeros(3, dtype=int), {0: 2}, (1, 20))


def test_damping_moves_part_of_the_way():
    c = recost.propose_costs(
        np.array([2, 6]), np.array([6.0, 2.0]), np.array([0, 0]), {0: 8}, (1, 20), damping=0.5
    )
    assert c.tolist() == [4, 4]


# --- TAC's write_costs -----------------------------------------------------------------------


def test_write_costs_changes_only_the_victory_points_and_loads(tmp_path):
    rs = get("tac")
    new = dict(zip(NAMES, [6, 3, 5, 4, 2, 1, 4, 2, 3, 1], strict=True))
    dst = rs.write_costs(None, tmp_path / "cfg", new)
    again = get("tac", dst)  # through the validating loader
    assert dict(zip(again.record.items, again.record.costs.tolist(), strict=True)) == new
    src = (Path(rs.tables.config_dir) / "units.yaml").read_text().splitlines()
    out = (dst / "units.yaml").read_text().splitlines()
    assert len(src) == len(out)
    changed = [(a, b) for a, b in zip(src, out, strict=True) if a != b]
    assert len(changed) == 6  # the six units whose cost moved; comments and order kept
    for a, b in changed:  # only the number after victory_points differs
        vp = re.compile(r"victory_points: \d+")
        assert vp.sub("", a) == vp.sub("", b) and vp.search(a).group() != vp.search(b).group()
    for f in ("game.yaml", "weapons.yaml", "action_cards.yaml"):
        assert (dst / f).read_bytes() == (Path(rs.tables.config_dir) / f).read_bytes()
    assert again.fingerprint() != rs.fingerprint()


def test_write_costs_edits_block_style_rows_too():
    from envs.tac.costs import rewrite_victory_points

    text = "entries:\n  - name: A Tank  # x\n    victory_points: 5\n  - name: 'B'\n    victory_points: 2\n"
    assert rewrite_victory_points(text, {"A Tank": 7, "B": 1}) == text.replace(
        ": 5", ": 7"
    ).replace(": 2", ": 1")


@pytest.mark.parametrize(
    "change, message",
    [
        ({"Main Battle Tank": 0}, "must be an integer 1..20, got 0"),
        ({"Main Battle Tank": 21}, "must be an integer 1..20, got 21"),
        ({"Main Battle Tank": 2.5}, "got 2.5"),
        ({"Tiger": 3}, "unknown unit type"),
    ],
)
def test_write_costs_refuses_bad_costs_and_leaves_nothing(tmp_path, change, message):
    costs = dict(zip(NAMES, tac_listed().tolist(), strict=True)) | change
    with pytest.raises(ValueError, match=message):
        get("tac").write_costs(None, tmp_path / "cfg", costs)
    assert list(tmp_path.iterdir()) == []


def test_write_costs_refuses_an_existing_folder(tmp_path):
    with pytest.raises(ValueError, match="exists already"):
        get("tac").write_costs(None, tmp_path, dict(zip(NAMES, tac_listed().tolist(), strict=True)))


def test_selfplay_plays_under_a_written_config(tmp_path):
    cfg = get("tac").write_costs(None, tmp_path / "cfg", dict.fromkeys(NAMES, 20))
    runs = tmp_path / "runs"
    rc, out, err = run_cli(
        "selfplay", "--games", "40", "--chunk", "20", "--config", str(cfg), "--out", str(runs)
    )
    assert rc == 0, err
    run = records.read_run_file(runs)
    assert run["params"]["config"] == str(cfg.resolve())
    assert run["tables"] == get("tac", cfg).fingerprint() != get("tac").fingerprint()
    t = records.read_games(runs)
    assert t.num_rows == 40
    # a score is the victory points of the units left alive (11.1): at 20 VP each, every
    # score is a multiple of 20, and some above the old tables' most (2 x 5 + 5 x 3 = 25)
    scores = np.concatenate([t.column(f"score_{s}").to_numpy() for s in range(2)])
    assert np.all(scores % 20 == 0) and scores.max() > 25
    # and replay finds the folder in run.json: every recorded game replays to its result
    rc, out, err = run_cli("replay", "--run", str(runs), "--all", "--quiet")
    assert rc == 0, err


# --- the loop --------------------------------------------------------------------------------


def inject_worth(monkeypatch, worth_of):
    """Replace the fitted worths by worth_of(costs) (the real fit still runs on real games)."""
    real = balance.fit_run

    def fake(runs, params):
        rf = real(runs, params)
        costs = rf.units.listed_vp
        value, half = worth_of(costs)
        rf.imp = balance.ImpliedVP(
            0.1,
            0.01,
            value,
            value - half,
            value + half,
            ["consistent"] * len(value),
        )
        return rf

    monkeypatch.setattr(balance, "fit_run", fake)


def recost_cli(tmp_path, *extra):
    return run_cli(
        "balance", "--recost", "--games", "200", "--chunk", "100", "--runs",
        str(tmp_path / "runs"), "--out", str(tmp_path / "out"), *extra,
    )  # fmt: skip


def test_recost_stops_at_round_0_when_every_cost_is_inside_its_interval(tmp_path, monkeypatch):
    inject_worth(monkeypatch, lambda c: (c + 0.3, np.full(len(c), 1.0)))
    rc, out, err = recost_cli(tmp_path, "--rounds", "3")
    assert rc == 0, err
    o = tmp_path / "out"
    data = json.loads((o / "balance.json").read_text())
    assert data["converged"] is True and data["suggested_played"] is True
    assert len(data["rounds"]) == 1 and "round 0: every cost inside" in data["stop"]
    assert set(data["units"][0]) == {
        "name", "category", "listed_cost", "last_round_cost", "estimated_worth", "ci_low",
        "ci_high", "suggested_cost",
    }  # fmt: skip
    listed = tac_listed()
    for u, row in enumerate(data["units"]):
        assert row["name"] == NAMES[u]
        assert row["listed_cost"] == row["suggested_cost"] == listed[u]
        assert row["estimated_worth"] == pytest.approx(listed[u] + 0.3)
        assert row["ci_low"] == pytest.approx(listed[u] - 0.7)
    r0 = data["rounds"][0]
    assert r0["games"] == 200 and r0["outside_ci"] == 0
    assert r0["mean_abs_error"] == pytest.approx(0.3)
    assert (o / "round_0" / "balance.md").is_file() and (o / "round_0" / "config").is_dir()
    assert not (o / "round_1").exists()
    assert get("tac", o / "suggested").record.costs.tolist() == listed.tolist()
    assert (o / "convergence.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "every cost inside" in (o / "recost.md").read_text()


def test_recost_moves_costs_to_the_worth_keeping_the_budget(tmp_path, monkeypatch):
    target = np.array([5.8, 3.1, 5.1, 3.7, 2.4, 1.2, 4.2, 1.6, 3.2, 0.6])
    inject_worth(monkeypatch, lambda c: (target, np.full(len(c), 0.05)))
    rc, out, err = recost_cli(tmp_path, "--rounds", "4")
    assert rc == 0, err
    data = json.loads((tmp_path / "out" / "balance.json").read_text())
    want = [6, 3, 5, 4, 2, 1, 4, 2, 3, 1]
    # round 0 plays the listed costs, round 1 the proposal; its proposal is the same costs:
    # a fixed point, so the loop stops there rather than replaying the same games
    assert [list(r["costs"].values()) for r in data["rounds"]] == [tac_listed().tolist(), want]
    assert "fixed point" in data["stop"] and data["converged"] is False
    assert [u["suggested_cost"] for u in data["units"]] == want
    assert sum(want[:3]) == 14 and sum(want[3:]) == 17  # the category budgets
    cfg = tmp_path / "out" / "round_1" / "config"
    assert get("tac", cfg).record.costs.tolist() == want
    # the round's run played under that folder
    run = records.read_run_file(tmp_path / "runs" / "round_1_n200")
    assert run["params"]["config"] == str(cfg.resolve())
    # resumable: the same command again plays nothing new and gives the same answer
    before = (tmp_path / "out" / "balance.json").read_text()
    rc, _, err = recost_cli(tmp_path, "--rounds", "4")
    assert rc == 0, err
    assert (tmp_path / "out" / "balance.json").read_text() == before
    # other parameters into the same --out are refused
    rc, _, err = run_cli(
        "balance", "--recost", "--games", "300", "--chunk", "100", "--runs",
        str(tmp_path / "runs"), "--out", str(tmp_path / "out"),
    )  # fmt: skip
    assert rc == 2 and "other parameters (games: 200 vs 300)" in err


def test_damped_recost_walks_to_the_same_fixed_point_without_stalling(tmp_path, monkeypatch):
    target = np.array([5.8, 3.1, 5.1, 3.7, 2.4, 1.2, 4.2, 1.6, 3.2, 0.6])
    inject_worth(monkeypatch, lambda c: (target, np.full(len(c), 0.05)))
    rc, _, err = recost_cli(tmp_path, "--rounds", "8", "--damping", "0.5")
    assert rc == 0, err
    data = json.loads((tmp_path / "out" / "balance.json").read_text())
    costs = [list(r["costs"].values()) for r in data["rounds"]]
    assert len(costs) >= 3  # half steps: more rounds than the undamped two
    assert costs[1] != [6, 3, 5, 4, 2, 1, 4, 2, 3, 1]
    # each error shrinks or stays; it ends where the undamped loop ends
    err_by_round = [r["mean_abs_error"] for r in data["rounds"]]
    assert all(b <= a + 1e-9 for a, b in itertools.pairwise(err_by_round))
    assert costs[-1] == [6, 3, 5, 4, 2, 1, 4, 2, 3, 1] and "fixed point" in data["stop"]


def test_recost_after_the_last_round_suggests_the_unplayed_proposal(tmp_path, monkeypatch):
    target = np.array([5.8, 3.1, 5.1, 3.7, 2.4, 1.2, 4.2, 1.6, 3.2, 0.6])
    inject_worth(monkeypatch, lambda c: (target, np.full(len(c), 0.05)))
    rc, _, err = recost_cli(tmp_path, "--rounds", "1")
    assert rc == 0, err
    data = json.loads((tmp_path / "out" / "balance.json").read_text())
    assert len(data["rounds"]) == 1 and data["suggested_played"] is False
    assert [u["suggested_cost"] for u in data["units"]] == [6, 3, 5, 4, 2, 1, 4, 2, 3, 1]


# --- games needed ----------------------------------------------------------------------------


def synthetic_fit(rng, n: int, true_vp: np.ndarray, k: float = 0.25):
    cats = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 1])
    deals = np.zeros((n, 2, 10))
    for s in range(2):
        for i in rng.integers(0, 3, size=(2, n)):
            deals[np.arange(n), s, i] += 1
        for i in rng.integers(3, 10, size=(5, n)):
            deals[np.arange(n), s, i] += 1
    X = deals[:, 0] - deals[:, 1]
    y = (rng.random(n) < 1 / (1 + np.exp(-(X @ (k * true_vp))))).astype(float)
    fit = balance.fit_logit(X, y, cats)
    return balance.implied_vp(fit, true_vp, cats)


def test_games_needed_predicts_the_interval_width_at_four_times_the_games():
    rng = np.random.default_rng(7)
    true_vp = np.array([5, 4, 5, 2, 2, 2, 3, 2, 3, 3], dtype=float)
    n = 15_000
    small = synthetic_fit(rng, n, true_vp)
    big = synthetic_fit(rng, 4 * n, true_vp)
    h_small = (small.hi - small.lo) / 2
    h_big = (big.hi - big.lo) / 2
    # half the width at four times the games (se ~ 1/sqrt(n)), per unit within 15%
    assert np.all(np.abs(h_big / (h_small / 2) - 1) < 0.15)
    # and the formula inverts it: the precision reached at 4n asks for about 4n games
    need = balance.games_needed(h_small, n, float(np.max(h_big)))
    assert abs(need.max() / (4 * n) - 1) < 0.3
    assert balance.games_needed(np.array([1.0, np.nan]), 100, 0.5).tolist() == [400, -1]


def test_precision_prints_games_needed_and_plays_that_many(tmp_path):
    runs = tmp_path / "runs"
    rc, out, err = run_cli(
        "balance", "--precision", "3", "--pilot", "1000", "--chunk", "500", "--max-games",
        "1500", "--runs", str(runs), "--out", str(tmp_path / "rep"),
    )  # fmt: skip
    assert rc == 0, err
    assert "games needed for a 95% interval of +-3 victory points (from 1,000 games)" in out
    for name in NAMES:
        assert any(ln.strip().startswith(name) for ln in out.splitlines())
    # the pilot is the first chunks of the run: linked in, not replayed
    pilot = tmp_path / "runs_pilot"
    assert records.read_games(pilot).num_rows == 1000
    games = records.read_run_file(runs)["params"]["games"]
    assert 1000 <= games <= 1500
    assert f"playing {games:,} games" in out
    assert records.read_games(runs).num_rows == games
    assert records.chunk_path(runs, 0).stat().st_ino == records.chunk_path(pilot, 0).stat().st_ino


# --- agents ----------------------------------------------------------------------------------


def test_balance_with_another_agent_and_compare(tmp_path):
    rc, out, err = run_cli(
        "balance", "--agent", "heuristic", "--games", "200", "--chunk", "100", "--runs",
        str(tmp_path / "h"), "--out", str(tmp_path / "rep"),
    )  # fmt: skip
    assert rc == 0, err
    assert records.read_run_file(tmp_path / "h")["params"]["agents"] == ["heuristic"] * 2
    assert "agent heuristic in every seat" in (tmp_path / "rep" / "balance.md").read_text()


def test_compare_writes_one_series_per_agent(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)  # the per-agent runs go to runs/balance/ under here
    rc, out, err = run_cli(
        "balance", "--compare", "random,heuristic", "--games", "300", "--chunk", "150",
        "--out", "cmp",
    )  # fmt: skip
    assert rc == 0, err
    md = (tmp_path / "cmp" / "compare.md").read_text()
    assert "random: implied [95% CI] | heuristic: implied [95% CI]" in md
    for name in NAMES:
        assert f"| {name} |" in md
    assert (tmp_path / "cmp" / "compare.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert (tmp_path / "cmp" / "heuristic" / "balance.md").is_file()
    assert (tmp_path / "runs/balance/tac_p2_seed0_n300_heuristic/run.json").is_file()


# --- bad input -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "args, message",
    [
        (["--rounds", "3"], "--rounds needs --recost"),
        (["--recost", "--rounds", "0"], "rounds must be at least 1, got 0"),
        (["--precision", "0"], "precision must be > 0, got 0.0"),
        (["--precision", "-1", "--recost"], "precision must be > 0, got -1.0"),
        (["--agent", "nobody"], "unknown agent 'nobody'"),
        (["--recost", "--agent", "nobody"], "unknown agent 'nobody'"),
        (["--compare", "random,nobody"], "unknown agent 'nobody'"),
        (["--recost", "--damping", "0"], "damping must be in (0, 1], got 0.0"),
        (["--damping", "0.5"], "--damping needs --recost"),
        (["--pilot", "100"], "--pilot and --max-games need --precision"),
        (["--compare", "random", "--recost"], "separate reports"),
        (["--recost", "--games", "0"], "games must be at least 1, got 0"),
    ],
)
def test_recost_bad_input_exits_2_and_writes_nothing(tmp_path, monkeypatch, args, message):
    monkeypatch.chdir(tmp_path)
    rc, _, err = run_cli("balance", *args, "--runs", "runs", "--out", "rep")
    if "--compare" in args and "--recost" not in args:
        rc, _, err = run_cli("balance", *args, "--out", "rep")
    assert rc == 2 and message in err, err
    assert list(tmp_path.iterdir()) == []
