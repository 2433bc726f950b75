"""`tacsim play` (agents/play.py): a scripted person plays whole games; bad input is asked
again; end of input and Ctrl-C save the game so far; bad command lines are one-line errors
and write nothing."""

from __future__ import annotations

import contextlib
import io
import json
import sys

import pytest
from rich.console import Console

from agents import cli
from agents.play import STOPPED, check_setup, play_game
from agents.session import Table
from envs.registry import get
from tests.integration.rulesets import DATA_ONLY

SEED = 3


def run_cli(*argv: str, stdin: str | None = None) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    old_stdin = sys.stdin
    if stdin is not None:
        sys.stdin = io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            rc = cli.main(list(argv))
    finally:
        sys.stdin = old_stdin
    return rc, out.getvalue(), err.getvalue()


class Script:
    """Scripted input: the given lines, then `then` forever (None: end of input)."""

    def __init__(self, lines, then: str | None = "1"):
        self.lines = list(lines)
        self.then = then
        self.prompts: list[str] = []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if self.lines:
            line = self.lines.pop(0)
            if isinstance(line, BaseException):
                raise line
            return line
        if self.then is None:
            raise EOFError
        return self.then


def console() -> tuple[Console, io.StringIO]:
    buf = io.StringIO()
    return Console(file=buf, width=140, color_system=None), buf


def first_legal_game(seats: list[str], seed: int = SEED) -> list[int]:
    """The actions of the game where every human takes the first legal action, played
    directly on a Table (the reference for what play_game must do)."""
    t = Table(get("tac"), seats, seed, 0)
    while not t.over:
        t.take(t.legal_actions()[0] if t.is_human(t.current) else t.agent_action())
    return [m.action for m in t.moves]


def test_scripted_human_plays_a_whole_game_and_the_saved_file_replays(tmp_path):
    save = tmp_path / "game.json"
    con, buf = console()
    outcome = play_game(check_setup("tac", 2, "human,heuristic", SEED, 0, save), Script([]), con)
    assert outcome.status == 0 and outcome.complete
    data = json.loads(save.read_text())
    rs = get("tac")
    assert data["ruleset"] == "tac" and data["env_name"] == rs.env_name
    assert data["fingerprint"] == rs.fingerprint()
    assert (data["players"], data["seed"], data["game_index"]) == (2, SEED, 0)
    assert data["seats"] == ["human", "heuristic"] and data["complete"] is True
    result = data["result"]
    assert result["decisions"] == len(data["actions"]) > 10
    assert result["winner"] in (-1, 0, 1) and len(result["scores"]) == 2
    assert len(result["rewards"]) == 2
    assert {m["seat"] for m in data["actions"]} == {0, 1}
    for m in data["actions"]:
        assert m["description"] == rs.describe_action(m["action"])
        assert m["agent"] == data["seats"][m["seat"]]
    # the human took the first legal action each time
    assert [m["action"] for m in data["actions"]] == first_legal_game(["human", "heuristic"])
    text = buf.getvalue()
    assert "seen by P0" in text and "seen by P1" not in text  # only the human's own view
    assert "winner:" in text and str(save) in text
    rc, out, err = run_cli("replay", "--saved", str(save), "--quiet")
    assert rc == 0, err
    assert out.startswith("reproduced:") and f"{result['decisions']} decisions" in out


def test_bad_input_is_asked_again_and_the_game_goes_on(tmp_path):
    save = tmp_path / "g.json"
    con, buf = console()
    script = Script(["x", "", "999", "0", "-1", "1.5", "2"], then=None)
    outcome = play_game(check_setup("tac", 2, "human,random", SEED, 0, save), script, con)
    text = buf.getvalue()
    assert "'x' is not a number" in text and "type a number from 1 to 3" in text
    assert "999 is not in 1..3" in text and "0 is not in 1..3" in text
    assert "'1.5' is not a number" in text
    # the first decision (deploy the first unit: Frontline, Reserve or Rear Line, 2.2) took
    # the 2nd option, then input ended
    data = json.loads(save.read_text())
    assert data["actions"][0]["seat"] == 0 and data["actions"][0]["action"] == 1
    assert outcome.status == STOPPED and not outcome.complete
    assert len(script.prompts) == 8


def test_end_of_input_saves_the_partial_game_and_it_replays(tmp_path):
    save = tmp_path / "partial.json"
    con, buf = console()
    outcome = play_game(
        check_setup("tac", 2, "human,heuristic", SEED, 0, save), Script(["1"] * 5, None), con
    )
    assert outcome.status == STOPPED
    assert "game stopped (end of input)" in buf.getvalue()
    data = json.loads(save.read_text())
    assert data["complete"] is False and data["result"] is None
    humans = [m for m in data["actions"] if m["agent"] == "human"]
    assert len(humans) == 5
    rc, out, _ = run_cli("replay", "--saved", str(save), "--quiet")
    assert rc == 0 and "unfinished" in out


def test_ctrl_c_saves_the_game_so_far(tmp_path):
    save = tmp_path / "ctrl_c.json"
    con, buf = console()
    script = Script(["1", "1", KeyboardInterrupt()])
    outcome = play_game(check_setup("tac", 2, "human,random", SEED, 0, save), script, con)
    assert outcome.status == STOPPED and "interrupted" in buf.getvalue()
    data = json.loads(save.read_text())
    assert [m["agent"] for m in data["actions"]].count("human") == 2


def test_hot_seat_says_whose_turn_it_is(tmp_path):
    save = tmp_path / "hot.json"
    con, buf = console()
    outcome = play_game(
        check_setup("tac", 2, "human,human", SEED, 0, save), Script([""] + ["1"] * 40, None), con
    )
    assert outcome.status == STOPPED
    text = buf.getvalue()
    assert "player_0's turn" in text and "player_1's turn" in text
    assert "seen by P0" in text and "seen by P1" in text
    data = json.loads(save.read_text())
    assert {m["seat"] for m in data["actions"]} == {0, 1}


def test_cli_plays_a_whole_game_from_standard_input(tmp_path):
    save = tmp_path / "cli.json"
    rc, out, err = run_cli(
        "play", "--seats", "random,human", "--seed", "9", "--game-index", "2",
        "--save", str(save), stdin="1\n" * 5000,
    )  # fmt: skip
    assert rc == 0, err
    data = json.loads(save.read_text())
    assert data["complete"] and data["game_index"] == 2 and data["seed"] == 9
    assert "winner:" in out


@pytest.mark.parametrize(
    "argv, needle",
    [
        (["--players", "2", "--seats", "human"], "one name per seat (2 players), got 1"),
        (["--players", "3", "--seats", "human,random"], "one name per seat (3 players)"),
        (["--seats", "human,alphazero"], "unknown seat 'alphazero'"),
        (["--ruleset", "chess", "--seats", "human,random"], "unknown ruleset 'chess'"),
        (["--ruleset", DATA_ONLY, "--seats", "human,random"], "data only"),
        (["--players", "9", "--seats", "human,random"], "players must be 2 to 5"),
        (["--seed", "-4"], "seed must be"),
        (["--game-index", "-1"], "game-index must be"),
    ],
)
def test_bad_command_lines_are_one_line_errors_and_write_nothing(
    tmp_path, monkeypatch, argv, needle
):
    monkeypatch.chdir(tmp_path)
    save = tmp_path / "never.json"
    rc, out, err = run_cli("play", *argv, "--save", str(save), stdin="1\n" * 100)
    assert rc == 2
    assert needle in err and err.count("\n") == 1 and err.startswith("tacsim play: error:")
    assert out == ""
    assert list(tmp_path.iterdir()) == []  # no save file, no runs/play


def test_default_save_goes_under_runs_play(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    rc, out, err = run_cli("play", "--seats", "human,random", "--seed", "1", stdin="")
    assert rc == STOPPED  # end of input at the first question
    files = list((tmp_path / "runs" / "play").glob("*.json"))
    assert len(files) == 1 and json.loads(files[0].read_text())["complete"] is False


def test_an_existing_save_file_is_not_overwritten(tmp_path):
    save = tmp_path / "taken.json"
    save.write_text("mine")
    rc, _, err = run_cli("play", "--seats", "human,random", "--save", str(save), stdin="")
    assert rc == 2 and "exists" in err and save.read_text() == "mine"
