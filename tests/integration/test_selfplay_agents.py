"""Self-play records name the agent that really played each seat, whatever the order of
--agents (agents/selfplay.py, agents/records.py).

Checked against facts the record writer does not produce: the heuristic agent beats the
random one (a win rate above 0.8 per the records, in both orders of --agents and in every
seat; a mix-up of names would show the random agent winning instead), with three agents over
three seats every seat is played by each agent equally often and the heuristic wins most; and
recorded games replayed through the AEC env, with agents.kernel_agents.KernelAgent for the
agents the records name, end with the recorded winner, scores and length."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

import numpy as np
import pytest

from agents import cli, records
from agents.kernel_agents import KernelAgent
from envs import get_ruleset, make_env

RULESET, SEED, CHUNK = "tac", 13, 500
TWO = 2000  # games per two-player run
THREE = 1500  # games of the three-player run (a multiple of 3)


def _selfplay(out: Path, agents: str, players: int, games: int) -> dict[str, np.ndarray]:
    argv = ["selfplay", "--ruleset", RULESET, "--players", str(players), "--games", str(games)]
    argv += ["--agents", agents, "--seed", str(SEED), "--out", str(out), "--chunk", str(CHUNK)]
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        assert cli.main(argv) == 0, err.getvalue()
    t = records.read_games(out)
    assert t.num_rows == games
    return {n: np.asarray(t.column(n).to_numpy(zero_copy_only=False)) for n in t.column_names}


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> dict[tuple[str, int], dict[str, np.ndarray]]:
    base = tmp_path_factory.mktemp("selfplay_agents")
    out = {}
    for i, (agents, players, games) in enumerate(
        [
            ("heuristic,random", 2, TWO),
            ("random,heuristic", 2, TWO),
            ("heuristic,random,random", 3, THREE),
        ]
    ):
        out[(agents, players)] = _selfplay(base / f"run{i}", agents, players, games)
    return out


def _seat_agents(c: dict[str, np.ndarray], players: int) -> np.ndarray:
    return np.stack([c[f"agent_{s}"] for s in range(players)], axis=1)


@pytest.mark.parametrize("agents", ["heuristic,random", "random,heuristic"])
def test_heuristic_wins_most_games_per_the_records_in_both_orders(runs, agents) -> None:
    c = runs[(agents, 2)]
    seat = _seat_agents(c, 2)
    assert sorted(set(seat.ravel())) == ["heuristic", "random"]
    assert np.all(seat[:, 0] != seat[:, 1])  # one of each in every game
    heur_seat = np.argmax(seat == "heuristic", axis=1)
    won = c["winner"] == heur_seat
    assert won.mean() > 0.8, f"heuristic win rate {won.mean():.3f} per the records"
    for s in range(2):
        mine = heur_seat == s
        assert mine.sum() == TWO // 2  # each agent takes each seat in half of the games
        assert won[mine].mean() > 0.8, f"seat {s}: heuristic win rate {won[mine].mean():.3f}"
    # winner_agent names the winner's agent
    decided = c["winner"] >= 0
    rows = np.flatnonzero(decided)
    assert list(c["winner_agent"][decided]) == list(seat[rows, c["winner"][decided]])
    assert (c["winner_agent"][decided] == "heuristic").mean() > 0.8


def test_three_agents_share_the_seats_equally_and_the_heuristic_wins_most(runs) -> None:
    c = runs[("heuristic,random,random", 3)]
    seat = _seat_agents(c, 3)
    assert np.all((seat == "heuristic").sum(axis=1) == 1)  # one heuristic in every game
    for s in range(3):
        # each of the three agents of the list plays seat s in a third of the games
        assert (seat[:, s] == "heuristic").sum() == THREE // 3
        assert (seat[:, s] == "random").sum() == 2 * THREE // 3
    heur_seat = np.argmax(seat == "heuristic", axis=1)
    heur_wins = (c["winner"] == heur_seat).sum()
    random_wins = ((c["winner"] >= 0) & (c["winner"] != heur_seat)).sum()
    assert heur_wins > 0.5 * THREE  # more than all other outcomes together
    # per seat played: the heuristic's rate is far above a random agent's
    assert heur_wins / THREE > 3 * random_wins / (2 * THREE)
    for s in range(3):
        mine = heur_seat == s
        assert (c["winner"][mine] == s).mean() > 0.5


@pytest.mark.parametrize(
    ("agents", "players"),
    [("heuristic,random", 2), ("random,heuristic", 2), ("heuristic,random,random", 3)],
)
def test_recorded_games_replay_to_the_recorded_result(runs, agents, players) -> None:
    """Independent of the record writer: the AEC env, driven by the agents the records name
    for each seat, plays the recorded game to the recorded end."""
    c = runs[(agents, players)]
    rs = get_ruleset(RULESET)
    kernel_agents = {name: KernelAgent(rs, name) for name in set(agents.split(","))}
    for g in (0, 1, 2, 3, 7, 1000):
        row = int(np.flatnonzero(c["game_index"] == g)[0])
        seats = [kernel_agents[c[f"agent_{s}"][row]] for s in range(players)]
        env = make_env(RULESET, num_players=players)
        env.reset(seed=SEED, options={"game_index": g})
        info = {}
        for agent in env.agent_iter():
            _, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            env.step(seats[env.unwrapped.agent_name_mapping[agent]].act(env))
        assert info["winner"] == c["winner"][row], f"game {g}"
        assert info["decisions"] == c["length"][row], f"game {g}"
        for s in range(players):
            assert env.unwrapped.state_arrays[rs.record.score_field][0, s] == c[f"score_{s}"][row]


def test_replay_with_the_seat_agents_swapped_differs(runs) -> None:
    """The control of the replay check: naming the other agent for each seat does not
    reproduce the records (so agreeing above means the names are right)."""
    c = runs[("heuristic,random", 2)]
    rs = get_ruleset(RULESET)
    other = {"heuristic": KernelAgent(rs, "random"), "random": KernelAgent(rs, "heuristic")}
    differs = 0
    for g in range(6):
        seats = [other[c[f"agent_{s}"][g]] for s in range(2)]
        env = make_env(RULESET, num_players=2)
        env.reset(seed=SEED, options={"game_index": g})
        info = {}
        for agent in env.agent_iter():
            _, _, terminated, _, info = env.last()
            if terminated:
                env.step(None)
                continue
            env.step(seats[env.unwrapped.agent_name_mapping[agent]].act(env))
        differs += (info["winner"], info["decisions"]) != (c["winner"][g], c["length"][g])
    assert differs >= 5
