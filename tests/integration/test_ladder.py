"""`tacsim ladder` (agents/ladder.py): the round robin, its numbers and its bad input.

Checked against facts the ladder does not produce: the heuristic beats the random agent in
about 89% of TAC games (tests/integration/test_selfplay_agents.py measures it through the
records), so it must lead the matrix and the ratings and take all the Nash mass; every pair's
records (read back from disk) show each agent in each seat equally often and the same deals;
Nash averaging on hand-built games with known equilibria."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
from pathlib import Path

import numpy as np
import pytest

from agents import cli, ladder, records, selfplay
from tests.integration.rulesets import DATA_ONLY

RULESET = "tac"


def _tacsim(argv: list[str]) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, out.getvalue(), err.getvalue()


def _ladder(out: Path, agents: str, games: int, chunk: int, seed: int = 3) -> dict:
    argv = ["ladder", "--ruleset", RULESET, "--agents", agents, "--games", str(games)]
    argv += ["--chunk", str(chunk), "--seed", str(seed), "--out", str(out)]
    code, _, err = _tacsim(argv)
    assert code == 0, err
    return json.loads((out / "ladder.json").read_text())


# --- Nash averaging on games with known answers -------------------------------------------------


def test_rock_paper_scissors_gives_the_uniform_mixture():
    W = np.array([[0.5, 1.0, 0.0], [0.0, 0.5, 1.0], [1.0, 0.0, 0.5]])
    nash = ladder.nash_average(W)
    assert np.allclose(nash.mixture, 1 / 3, atol=1e-6)
    assert abs(nash.value) < 1e-9
    assert np.allclose(nash.skill, 0, atol=1e-6)


def test_a_dominated_agent_gets_no_mass_and_equals_share_it_evenly():
    # A and B draw even, both beat C: every mix of A and B is an equilibrium, the
    # maximum-entropy one is half and half
    W = np.array([[0.5, 0.5, 0.9], [0.5, 0.5, 0.8], [0.1, 0.2, 0.5]])
    nash = ladder.nash_average(W)
    assert np.allclose(nash.mixture, [0.5, 0.5, 0.0], atol=1e-4)
    assert nash.support.tolist() == [True, True, False]
    assert nash.skill[2] < -0.5 and np.allclose(nash.skill[:2], 0, atol=1e-6)


def test_rps_with_a_weak_fourth_agent_and_a_chain():
    rps = np.array([[0.5, 0.7, 0.3], [0.3, 0.5, 0.7], [0.7, 0.3, 0.5]])
    W = np.full((4, 4), 0.5)
    W[:3, :3] = rps
    W[:3, 3], W[3, :3] = 0.6, 0.4  # everyone beats the fourth
    nash = ladder.nash_average(W)
    assert np.allclose(nash.mixture, [1 / 3, 1 / 3, 1 / 3, 0], atol=1e-5)
    chain = np.array([[0.5, 0.6, 0.9], [0.4, 0.5, 0.7], [0.1, 0.3, 0.5]])  # A > B > C
    assert np.allclose(ladder.nash_average(chain).mixture, [1, 0, 0], atol=1e-6)


def test_max_entropy_nash_of_general_zero_sum_games():
    p, v = ladder.max_entropy_nash(np.array([[2.0, -1.0], [-1.0, 1.0]]))
    assert np.allclose(p, [0.4, 0.6], atol=1e-6) and abs(v - 0.2) < 1e-9
    p, v = ladder.max_entropy_nash(np.array([[1.0, -1.0], [-1.0, 1.0]]))
    assert np.allclose(p, [0.5, 0.5], atol=1e-6) and abs(v) < 1e-9


def test_nash_average_refuses_bad_matrices():
    with pytest.raises(ValueError, match="square"):
        ladder.nash_average(np.zeros((2, 3)))
    with pytest.raises(ValueError, match=r"\[0, 1\]"):
        ladder.nash_average(np.array([[0.5, 1.2], [-0.2, 0.5]]))


def test_score_interval_is_wilson_without_draws_and_brackets_the_score_with_them():
    from agents.stats import wilson_interval

    assert ladder.score_interval(30, 40) == wilson_interval(30, 40)
    lo, hi = ladder.score_interval(30.5, 40)
    assert lo < 30.5 / 40 < hi and 0 <= lo and hi <= 1


# --- the ladder over real games -----------------------------------------------------------------


@pytest.fixture(scope="module")
def hvr(tmp_path_factory) -> tuple[Path, dict]:
    out = tmp_path_factory.mktemp("ladder") / "hvr"
    return out, _ladder(out, "random,heuristic", games=400, chunk=200)


def test_the_heuristic_leads_the_matrix_ratings_and_nash(hvr):
    _, r = hvr
    assert r["agents"] == ["random", "heuristic"]
    W = np.array(r["win_rate"]["matrix"])
    assert W[1, 0] > 0.8  # about 0.89 in TAC
    lo, hi = r["win_rate"]["ci95"][1][0]
    assert lo < W[1, 0] < hi and lo > 0.75
    mu, ordinal = r["ratings"]["mu"], r["ratings"]["ordinal"]
    assert mu[1] > mu[0] and ordinal[1] > ordinal[0]
    assert r["ranking"] == ["heuristic", "random"]
    assert np.allclose(r["nash"]["mixture"], [0, 1])
    assert r["nash"]["support"] == ["heuristic"]
    assert r["nash"]["skill"][0] < 0 and abs(r["nash"]["skill"][1]) < 1e-9


def test_the_matrix_is_consistent_and_counts_every_game(hvr):
    _, r = hvr
    W = np.array(r["win_rate"]["matrix"])
    off = ~np.eye(2, dtype=bool)
    assert np.allclose((W + W.T)[off], 1.0)
    games, wins, draws = (np.array(r["win_rate"][k]) for k in ("games", "wins", "draws"))
    assert games[0, 1] == 400 and wins[0, 1] + wins[1, 0] + draws[0, 1] == 400
    assert np.isclose(W[1, 0], (wins[1, 0] + draws[1, 0] / 2) / 400)


def test_every_agent_played_every_seat_per_the_records(hvr):
    out, r = hvr
    t = records.read_games(out / "runs" / "random__heuristic")
    seats = np.stack([t.column(f"agent_{s}").to_pylist() for s in range(2)], axis=1)
    for name in ("random", "heuristic"):
        for s in range(2):
            assert (seats[:, s] == name).sum() == 200
    assert r["seats"]["games"] == [[200, 200], [200, 200]]
    # the per-seat scores of the heuristic match the records
    heur_seat = np.argmax(seats == "heuristic", axis=1)
    winner = np.asarray(t.column("winner").to_pylist())
    score = np.where(winner < 0, 0.5, (winner == heur_seat).astype(float))
    for s in range(2):
        assert np.isclose(r["seats"]["score"][1][s], score[heur_seat == s].mean())


def test_the_report_files_and_a_rerun_gives_the_same_numbers(hvr):
    out, r = hvr
    md = (out / "ladder.md").read_text()
    assert "## Win-rate matrix" in md and "Nash" in md and "tacsim ladder --ruleset tac" in md
    assert (out / "ladder.png").stat().st_size > 10_000
    code, stdout, err = _tacsim(
        ["ladder", "--agents", "random,heuristic", "--games", "400", "--chunk", "200"]
        + ["--seed", "3", "--out", str(out)]
    )
    assert code == 0, err
    assert json.loads((out / "ladder.json").read_text()) == r  # resumed: nothing replayed
    assert "heuristic" in stdout.splitlines()[1]  # best first


def test_an_interrupted_ladder_resumes(tmp_path, monkeypatch):
    out = tmp_path / "lad"
    argv = ["ladder", "--agents", "heuristic,random", "--games", "40", "--chunk", "20"]
    argv += ["--out", str(out)]
    real = selfplay._play_chunk
    calls = []

    def stop_on_second(ctx, indices):
        calls.append(len(indices))
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(ctx, indices)

    monkeypatch.setattr(selfplay, "_play_chunk", stop_on_second)
    code, _, err = _tacsim(argv)
    assert code == 130 and "Resume with" in err
    assert not (out / "ladder.json").exists()
    assert len(records.finished_chunks(out / "runs" / "heuristic__random")) == 1
    monkeypatch.setattr(selfplay, "_play_chunk", real)
    code, _, err = _tacsim(argv)
    assert code == 0, err
    r = json.loads((out / "ladder.json").read_text())
    assert r["win_rate"]["games"][0][1] == 40


def test_a_ladder_with_a_trained_policy(tiny_ppo, tmp_path):
    out = tmp_path / "lad"
    ppo = f"ppo:{tiny_ppo}"
    r = _ladder(out, f"heuristic,random,{ppo}", games=40, chunk=20)
    assert r["agents"] == ["heuristic", "random", ppo]
    W = np.array(r["win_rate"]["matrix"])
    off = ~np.eye(3, dtype=bool)
    assert np.allclose((W + W.T)[off], 1.0)
    assert np.array(r["win_rate"]["games"])[off].tolist() == [40] * 6
    assert r["ranking"][0] == "heuristic" and r["nash"]["support"] == ["heuristic"]
    runs = sorted(p.name for p in (out / "runs").iterdir())
    assert runs[0] == "heuristic__ppo-tiny_ppo0-run-" + runs[0].rsplit("-", 1)[1]
    assert len(runs) == 3
    # paired deals: every pair's game k was dealt the same units
    deal_cols = [c for c in records.read_games(out / "runs" / runs[0]).column_names if "force" in c]
    deals = [records.read_games(out / "runs" / d, ["game_index", *deal_cols]) for d in runs]
    assert all(t.equals(deals[0]) for t in deals[1:])
    for d in runs:
        t = records.read_games(out / "runs" / d)
        for s in range(2):
            names = t.column(f"agent_{s}").to_pylist()
            assert len(set(names)) == 2 and names.count(names[0]) == 20


@pytest.mark.parametrize(
    "agents, extra, message",
    [
        ("heuristic,grandmaster", [], "unknown agent 'grandmaster'"),
        ("heuristic,heuristic", [], "are the same agent"),
        ("heuristic", [], "at least two agents"),
        ("heuristic,ppo:/no/such/model.zip", [], "no model file at /no/such/model.zip"),
        ("heuristic,random", ["--players", "3"], "two-player games only"),
        ("heuristic,random", ["--games", "0"], "games must be at least 1"),
        ("heuristic,random", ["--ruleset", DATA_ONLY], "data only"),
        ("heuristic,random", ["--option", "game=basic"], "tac has no options"),
        ("heuristic,random", ["--ruleset", "tactica", "--option", "game=easy"], "advanced, basic"),
        ("heuristic,random", ["--chunk", "0"], "chunk must be at least 1"),
        ("heuristic,random", ["--threads", "0"], "threads must be"),
    ],
)
def test_bad_input_is_refused_before_anything_is_written(agents, extra, message, tmp_path):
    out = tmp_path / "lad"
    code, _, err = _tacsim(["ladder", "--agents", agents, "--out", str(out), *extra])
    assert code == 2, err
    assert message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_policies_that_do_not_fit_are_refused(tiny_ppo, tmp_path):
    same = f"ppo:{tiny_ppo},ppo:{tiny_ppo / 'model.zip'}"
    code, _, err = _tacsim(["ladder", "--agents", same, "--out", str(tmp_path / "a")])
    assert code == 2 and "are the same agent" in err
    other = tmp_path / "other"
    shutil.copytree(tiny_ppo, other)
    config = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "ruleset": "tactica"}))
    code, _, err = _tacsim(
        ["ladder", "--agents", f"heuristic,ppo:{other}", "--out", str(tmp_path / "b")]
    )
    assert code == 2 and "trained on ruleset 'tactica', not 'tac'" in err
    assert not (tmp_path / "a").exists() and not (tmp_path / "b").exists()


def test_a_pair_folder_of_another_run_is_refused_before_any_game(tmp_path):
    out = tmp_path / "lad"
    _ladder(out, "heuristic,random", games=20, chunk=20)
    argv = ["ladder", "--agents", "heuristic,random", "--games", "30", "--out", str(out)]
    code, _, err = _tacsim(argv)
    assert code == 2 and "holds a run with other games" in err
