"""`tacsim replay` (agents/replay.py): self-play games replayed through act_one reproduce
every recorded result; tampered records are reported (exit 1); bad input is one line (exit
2); frames and GIFs are written."""

from __future__ import annotations

import contextlib
import dataclasses
import io
import json
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from PIL import Image
from rich.console import Console

from agents import cli, records
from agents.play import check_setup, play_game
from agents.replay import load_run_games, replay_game
from tests.integration.rulesets import DATA_ONLY

GAMES = 100
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def selfplay(out: Path, players: int, agents: str, games: int = GAMES, seed: int = 5) -> Path:
    rc, _, err = run_cli(
        "selfplay", "--ruleset", "tac", "--players", str(players), "--games", str(games),
        "--agents", agents, "--seed", str(seed), "--out", str(out), "--chunk", "50",
    )  # fmt: skip
    assert rc == 0, err
    return out


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    root = tmp_path_factory.mktemp("replay_runs")
    return {
        "hr": selfplay(root / "hr", 2, "heuristic,random"),
        "rh": selfplay(root / "rh", 2, "random,heuristic", seed=6),
        "three": selfplay(root / "three", 3, "heuristic,random,heuristic", seed=7),
    }


def play_saved(path: Path, seats: str = "human,heuristic", lines=None, seed: int = 4) -> dict:
    lines = list(lines) if lines is not None else None

    def answer(prompt: str) -> str:
        if lines is None:
            return "1"
        if not lines:
            raise EOFError
        return lines.pop(0)

    con = Console(file=io.StringIO(), width=120)
    play_game(check_setup("tac", seats.count(",") + 1, seats, seed, 0, path), answer, con)
    return json.loads(path.read_text())


@pytest.mark.parametrize("name", ["hr", "rh", "three"])
def test_every_selfplay_game_is_reproduced(runs, name):
    recs = load_run_games(runs[name])
    assert len(recs) == GAMES
    seat_agents = {tuple(r.seats) for r in recs}
    if name == "three":  # three agents over three seats, every rotation
        assert len(seat_agents) == 3
    else:  # both seat orders of the two agents
        assert len(seat_agents) == 2
    failed = [c.message(r) for r in recs if not (c := replay_game(r)).reproduced]
    assert failed == []
    rc, out, err = run_cli("replay", "--run", str(runs[name]), "--all")
    assert rc == 0, err
    assert f"reproduced: all {GAMES} games" in out


def test_one_game_prints_every_decision_and_the_board(runs):
    rec = load_run_games(runs["hr"], [3])[0]
    rc, out, err = run_cli("replay", "--run", str(runs["hr"]), "--game", "3")
    assert rc == 0, err
    lines = out.splitlines()
    decision_lines = [ln for ln in lines if ln[:5].strip().isdigit()]
    assert len(decision_lines) == rec.length
    assert "GAME OVER" in out and "seen by P0" in out
    assert lines[-1].startswith("reproduced: run") and f"{rec.length} decisions" in lines[-1]
    rc, out, _ = run_cli("replay", "--run", str(runs["hr"]), "--game", "3", "--quiet")
    assert rc == 0
    rc, out, _ = run_cli(
        "replay", "--ruleset", "tac", "--run", str(runs["hr"]), "--game", "3", "--quiet"
    )
    assert rc == 0 and out.count("\n") == 1 and out.startswith("reproduced:")


def test_step_mode_waits_for_enter_at_each_decision(runs):
    import argparse

    from agents.replay import run_replay

    rec = load_run_games(runs["rh"], [1])[0]
    prompts: list[str] = []
    args = argparse.Namespace(
        run=runs["rh"], game=1, all=False, saved=None, step=True, quiet=False, seat=1,
        frames=None, gif=None,
    )  # fmt: skip
    out = io.StringIO()
    assert run_replay(args, lambda p: prompts.append(p) or "", out) == 0
    assert len(prompts) == rec.length
    assert "seen by P1" in out.getvalue() and "seen by P0" not in out.getvalue()

    def stop_after_3(p):
        prompts.append(p)
        if len(prompts) > rec.length + 3:
            raise EOFError
        return ""

    assert run_replay(args, stop_after_3, io.StringIO()) == 130


def tampered_run(src: Path, dst: Path, game: int, column: str, change) -> Path:
    shutil.copytree(src, dst)
    for path in records.finished_chunks(dst).values():
        t = pq.read_table(path)
        idx = t.column("game_index").to_pylist()
        if game in idx:
            col = t.column(column).to_pylist()
            col[idx.index(game)] = change(col[idx.index(game)])
            i = t.schema.get_field_index(column)
            t = t.set_column(i, t.schema.field(i), pa.array(col, type=t.schema.field(i).type))
            pq.write_table(t, path)
    return dst


@pytest.mark.parametrize(
    "column, change, needle",
    [
        ("winner", lambda w: 1 - w, "winner: recorded"),
        ("score_0", lambda s: s + 1, "score of player_0: recorded"),
        ("score_1", lambda s: s - 2, "score of player_1: recorded"),
        ("length", lambda n: n + 1, "length: recorded"),
        ("agent_0", lambda a: "random" if a == "heuristic" else "heuristic", "not reproduced"),
    ],
)
def test_a_tampered_record_is_not_reproduced(runs, tmp_path, column, change, needle):
    run = tampered_run(runs["hr"], tmp_path / "t", 4, column, change)
    rc, out, err = run_cli("replay", "--run", str(run), "--game", "4", "--quiet")
    assert rc == 1 and needle in err and err.count("\n") == 1, err
    assert run_cli("replay", "--run", str(run), "--game", "5", "--quiet")[0] == 0
    rc, _, err = run_cli("replay", "--run", str(run), "--all")
    assert rc == 1 and "game 4" in err


def test_a_tampered_saved_game_is_not_reproduced(tmp_path):
    saved = tmp_path / "g.json"
    data = play_saved(saved)
    assert data["complete"]
    assert run_cli("replay", "--saved", str(saved), "--quiet")[0] == 0

    def variant(name, edit):
        d = json.loads(json.dumps(data))
        edit(d)
        p = tmp_path / f"{name}.json"
        p.write_text(json.dumps(d))
        return run_cli("replay", "--saved", str(p), "--quiet")

    rc, _, err = variant("winner", lambda d: d["result"].update(winner=1 - d["result"]["winner"]))
    assert rc == 1 and "winner: recorded" in err
    rc, _, err = variant("score", lambda d: d["result"]["scores"].__setitem__(0, 99))
    assert rc == 1 and "score of player_0: recorded 99" in err

    # an agent's saved action changed: the replayed agent does not agree with it
    k = next(i for i, m in enumerate(data["actions"]) if m["agent"] == "heuristic")

    def change_agent_action(d):
        d["actions"][k]["action"] = (d["actions"][k]["action"] + 1) % 10

    rc, _, err = variant("agent", change_agent_action)
    assert rc == 1 and f"decision {k + 1}: player_1 (heuristic) chose" in err
    # a human's saved action changed to another legal one changes the game
    h = [i for i, m in enumerate(data["actions"]) if m["agent"] == "human"]
    first_mode = h[0]  # Static (0) or Mobile (1): both legal
    rc, _, err = variant(
        "human",
        lambda d: d["actions"][first_mode].update(action=1 - d["actions"][first_mode]["action"]),
    )
    assert rc == 1 and "not reproduced" in err
    rc, _, err = variant("short", lambda d: d["actions"].pop())
    assert rc == 1 and "not over" in err
    rc, _, err = variant("long", lambda d: d["actions"].append(dict(d["actions"][-1])))
    assert rc == 1 and "ended after" in err


def test_frames_and_gif_of_a_saved_game(tmp_path):
    saved = tmp_path / "short.json"
    data = play_saved(saved, lines=["1"] * 3)
    n = len(data["actions"])
    assert n >= 3 and not data["complete"]
    frames, gif = tmp_path / "frames", tmp_path / "out" / "game.gif"
    rc, out, err = run_cli(
        "replay", "--saved", str(saved), "--quiet", "--frames", str(frames), "--gif", str(gif)
    )
    assert rc == 0, err
    pngs = sorted(frames.iterdir())
    assert [p.name for p in pngs] == [f"frame-{i:05d}.png" for i in range(n + 1)]
    for p in pngs:
        assert p.read_bytes()[:8] == PNG_MAGIC
        with Image.open(p) as im:
            im.verify()
    with Image.open(gif) as im:
        assert im.format == "GIF" and im.n_frames == n + 1


def tiny_picture(S, me, b=0, path=None) -> bytes:
    """A stand-in for render_image: one 8x8 PNG per decision count (matplotlib takes ~0.2 s
    a frame; the frame bookkeeping of a whole game is what is checked here)."""
    d = int(S["decisions"][b])
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), (d % 256, d // 256, 40 * int(me))).save(buf, format="PNG")
    return buf.getvalue()


def test_frames_of_a_whole_selfplay_game(runs, tmp_path, monkeypatch):
    import agents.replay
    from envs.registry import get

    monkeypatch.setattr(
        agents.replay,
        "check_ruleset",
        lambda name: dataclasses.replace(get(name), render_image=tiny_picture),
    )
    rec = load_run_games(runs["three"], [2])[0]
    frames, gif = tmp_path / "frames", tmp_path / "whole.gif"
    rc, _, err = run_cli(
        "replay", "--run", str(runs["three"]), "--game", "2", "--quiet",
        "--frames", str(frames), "--gif", str(gif),
    )  # fmt: skip
    assert rc == 0, err
    assert len(list(frames.glob("frame-*.png"))) == rec.length + 1
    with Image.open(gif) as im:
        assert im.n_frames == rec.length + 1
    with Image.open(frames / f"frame-{rec.length:05d}.png") as im:  # the final position
        assert im.getpixel((0, 0))[:2] == (rec.length % 256, rec.length // 256)


def test_bad_input_is_one_line_exit_2(runs, tmp_path):
    saved = tmp_path / "ok.json"
    data = play_saved(saved, lines=["1"])
    other_env = tmp_path / "other_env.json"
    other_env.write_text(json.dumps({**data, "env_name": "tac_v0"}))
    other_rules = tmp_path / "other_rules.json"
    other_rules.write_text(json.dumps({**data, "fingerprint": "0123456789abcdef"}))
    not_json = tmp_path / "not.json"
    not_json.write_text("{")
    empty = tmp_path / "empty"
    empty.mkdir()
    other_run = tmp_path / "other_run"
    shutil.copytree(runs["hr"], other_run)
    run_file = json.loads((other_run / "run.json").read_text())
    (other_run / "run.json").write_text(json.dumps({**run_file, "tables": "feedfacefeedface"}))
    old_format = tmp_path / "old_format"
    shutil.copytree(runs["hr"], old_format)
    (old_format / "run.json").write_text(json.dumps({**run_file, "format": 1}))
    cases = [
        (["--run", str(tmp_path / "nope"), "--game", "1"], "no such folder"),
        (["--run", str(empty), "--game", "1"], "has no run.json"),
        (["--run", str(runs["hr"]), "--game", str(GAMES)], f"game {GAMES} is not in"),
        (["--run", str(runs["hr"]), "--game", "-3"], "game index >= 0"),
        (["--run", str(runs["hr"])], "needs --game"),
        (["--run", str(other_run), "--game", "1"], "other tac rule tables"),
        (["--run", str(old_format), "--game", "1"], "record format 1"),
        (["--saved", str(other_env)], "is a tac_v0 game, not tac_v1"),
        (["--saved", str(other_rules)], "other tac rule tables"),
        (["--saved", str(not_json)], "not a saved game"),
        (["--saved", str(tmp_path / "missing.json")], "no such file"),
        ([], "give either --run"),
        (["--saved", str(saved), "--frames", str(saved)], "not an empty folder"),
        (["--saved", str(saved), "--seat", "7"], "--seat must be 0 to 1"),
        (["--ruleset", "nope", "--saved", str(saved)], "unknown ruleset 'nope'"),
        (
            ["--ruleset", DATA_ONLY, "--saved", str(saved)],
            f"ruleset '{DATA_ONLY}' is data only",
        ),
        (["--ruleset", DATA_ONLY, "--run", str(runs["hr"]), "--all"], "is data only"),
    ]
    for argv, needle in cases:
        before = sorted(p.name for p in tmp_path.iterdir())
        rc, out, err = run_cli("replay", *argv)
        assert rc == 2, (argv, err)
        assert needle in err and err.count("\n") == 1 and err.startswith("tacsim replay: error:")
        assert sorted(p.name for p in tmp_path.iterdir()) == before  # nothing written
