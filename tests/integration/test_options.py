"""Ruleset options through the tools (`--option KEY=VALUE`): self-play records name them and
a resume under others is refused, replay reads them from the records, play saves them,
balance runs under them, bad options are one-line errors that write nothing, TAC refuses any
option, and policies and training runs record the options they were trained under.

TACTICA games are used with episode=battle (one battle, about 30 decisions) so a run takes
well under a second once the kernels are compiled (the first run compiles them)."""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path

import numpy as np
import pytest

from agents import cli, records
from envs.registry import get

BASIC_BATTLE = ("--option", "game=basic", "--option", "episode=battle")
RESOLVED = {"armies": "standard", "episode": "battle", "game": "basic"}
GAMES, CHUNK = 30, 10


def run_cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = cli.main(list(argv))
    return rc, out.getvalue(), err.getvalue()


def selfplay_args(out: Path, *options: str, games: int = GAMES) -> list[str]:
    return [
        "selfplay", "--ruleset", "tactica", "--games", str(games), "--chunk", str(CHUNK),
        "--agents", "heuristic,random", "--seed", "11", "--out", str(out), *options,
    ]  # fmt: skip


def snapshot(folder: Path) -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for p in sorted(folder.rglob("*"))}


@pytest.fixture(scope="module")
def basic_battle(tmp_path_factory):
    out = tmp_path_factory.mktemp("options") / "basic_battle"
    rc, stdout, err = run_cli(*selfplay_args(out, *BASIC_BATTLE))
    assert rc == 0, err
    return out, stdout


def test_selfplay_records_name_the_options_and_the_games_follow_them(basic_battle):
    out, stdout = basic_battle
    run = json.loads((out / "run.json").read_text())
    assert run["params"]["options"] == RESOLVED  # every option, the defaults included
    assert run["tables"] == get("tactica", None, RESOLVED).fingerprint()
    assert run["tables"] != get("tactica").fingerprint()
    assert "options armies=standard, episode=battle, game=basic" in stdout
    games = records.read_games(out)
    assert games.num_rows == GAMES
    # episode=battle: every episode is the First Battle alone, never a war of three
    assert set(games.column("rounds").to_pylist()) == {1}


def test_the_printed_resume_command_carries_the_options(basic_battle):
    from agents.selfplay import make_params

    p = make_params(
        "tactica", 2, GAMES, "heuristic,random", 11, CHUNK, None, list(BASIC_BATTLE[1::2])
    )
    assert p.options == RESOLVED
    line = p.command(basic_battle[0])
    assert all(f"--option {k}={v}" in line for k, v in RESOLVED.items())


def test_a_resume_under_other_options_is_refused_and_writes_nothing(basic_battle):
    out, _ = basic_battle
    before = snapshot(out)
    rc, stdout, err = run_cli(*selfplay_args(out, "--option", "game=basic"))  # war, not battle
    assert rc == 2 and stdout == ""
    assert "holds a different run (options:" in err and "'episode': 'war'" in err
    assert len(err.strip().splitlines()) == 1
    assert snapshot(out) == before
    rc, _, err = run_cli(*selfplay_args(out, *BASIC_BATTLE))  # the same options: nothing to do
    assert rc == 0, err
    assert snapshot(out) == before


def test_replay_reads_the_options_from_the_run_and_reproduces_every_game(basic_battle):
    out, _ = basic_battle
    rc, stdout, err = run_cli("replay", "--run", str(out), "--all", "--quiet")
    assert rc == 0, err + stdout
    assert f"reproduced: all {GAMES} games of {out}" in stdout


def test_a_scenario_file_as_the_option_is_recorded_and_replayed(tmp_path):
    """Legendary Battles' `--option scenario=PATH.yaml` (a scenario of one's own): the run
    names the file, its tables are that file's, replay reads it back and reproduces every
    game; a missing file is a one-line error that writes nothing."""
    from envs.legendary_battles.tables import DEFAULT_DIR

    mine = tmp_path / "my_crossroads.yaml"
    src = (DEFAULT_DIR / "scenarios" / "crossroads_of_hallin.yaml").read_text()
    mine.write_text(src.replace("turn_limit: 10", "turn_limit: 4"))
    out = tmp_path / "run"
    argv = ["selfplay", "--ruleset", "legendary_battles", "--games", "6", "--chunk", "3"]
    rc, stdout, err = run_cli(*argv, "--out", str(out), "--option", f"scenario={mine}")
    assert rc == 0, err
    run = json.loads((out / "run.json").read_text())
    assert run["params"]["options"] == {"scenario": str(mine)}
    assert run["tables"] == get("legendary_battles", None, {"scenario": str(mine)}).fingerprint()
    assert (
        run["tables"]
        != get("legendary_battles", None, {"scenario": "crossroads_of_hallin"}).fingerprint()
    )
    rc, stdout, err = run_cli("replay", "--run", str(out), "--all", "--quiet")
    assert rc == 0, err + stdout
    assert f"reproduced: all 6 games of {out}" in stdout
    none = tmp_path / "none"
    rc, stdout, err = run_cli(*argv, "--out", str(none), "--option", "scenario=nowhere.yaml")
    assert rc == 2 and "no such scenario file" in err and len(err.strip().splitlines()) == 1
    assert not none.exists()


def test_replay_writes_a_tactica_game_as_frames(basic_battle, tmp_path):
    """`--frames`: one PNG of the hex battlefield per decision plus the end (replays as frames)."""
    out, _ = basic_battle
    games = records.read_games(out)
    lengths = games.column("length").to_pylist()
    k = int(np.argmin(lengths))  # the shortest battle: a few dozen pictures
    game = games.column("game_index").to_pylist()[k]
    frames = tmp_path / "frames"
    rc, stdout, err = run_cli(
        "replay", "--run", str(out), "--game", str(game), "--quiet", "--frames", str(frames)
    )
    assert rc == 0, err + stdout
    pngs = sorted(frames.glob("frame-*.png"))
    assert len(pngs) == lengths[k] + 1
    assert all(p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" for p in pngs)


def test_replay_under_options_other_than_recorded_is_refused(basic_battle, tmp_path):
    out, _ = basic_battle
    copy = tmp_path / "copy"
    copy.mkdir()
    for p in out.iterdir():
        (copy / p.name).write_bytes(p.read_bytes())
    run = json.loads((copy / "run.json").read_text())
    run["params"]["options"]["game"] = "advanced"  # the records say basic, the run file not
    (copy / "run.json").write_text(json.dumps(run))
    rc, _, err = run_cli("replay", "--run", str(copy), "--game", "0", "--quiet")
    assert rc == 2 and "was played under other tactica rule tables" in err


@pytest.mark.parametrize(
    "options, message",
    [
        (["game=easy"], "tactica: option game must be one of advanced, basic, got 'easy'"),
        (["armies=all"], "option armies must be one of standard, varied, got 'all'"),
        (["games=basic"], "unknown option 'games' (tactica options: game=advanced|basic, "),
        (["game"], "an option is KEY=VALUE, got 'game'"),
        (["game="], "an option is KEY=VALUE, got 'game='"),
        (["game=basic", "game=advanced"], "option game given twice"),
    ],
)
@pytest.mark.parametrize("command", ["selfplay", "balance", "play", "ladder"])
def test_a_bad_option_is_one_line_exit_2_and_writes_nothing(tmp_path, command, options, message):
    out = tmp_path / "out"
    flags = [x for o in options for x in ("--option", o)]
    argv = {
        "selfplay": selfplay_args(out, *flags),
        "balance": ["balance", "--ruleset", "tactica", "--games", "10", "--runs", str(out),
                    "--out", str(tmp_path / "rep"), *flags],
        "play": ["play", "--ruleset", "tactica", "--seats", "random,random", "--save",
                 str(out / "g.json"), *flags],
        "ladder": ["ladder", "--ruleset", "tactica", "--agents", "random,heuristic", "--out",
                   str(out), *flags],
    }[command]  # fmt: skip
    rc, stdout, err = run_cli(*argv)
    assert rc == 2 and stdout == ""
    assert message in err and len(err.strip().splitlines()) == 1
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", ["selfplay", "balance", "recost", "play", "ladder"])
def test_tac_refuses_any_option(tmp_path, command):
    out = tmp_path / "out"
    argv = {
        "selfplay": ["selfplay", "--ruleset", "tac", "--games", "4", "--out", str(out)],
        "balance": ["balance", "--ruleset", "tac", "--games", "4", "--runs", str(out)],
        "recost": ["balance", "--recost", "--ruleset", "tac", "--games", "4", "--out", str(out)],
        "play": ["play", "--ruleset", "tac", "--seats", "random,random", "--save", str(out)],
        "ladder": ["ladder", "--ruleset", "tac", "--agents", "random,heuristic", "--out", str(out)],
    }[command]  # fmt: skip
    rc, _, err = run_cli(*argv, "--option", "game=basic")
    assert rc == 2 and "tac has no options, got --option game=basic" in err
    assert list(tmp_path.iterdir()) == []
    with pytest.raises(ValueError, match="unknown option 'game'"):
        get("tac", None, {"game": "basic"})


def test_play_with_options_saves_them_and_the_game_replays(tmp_path):
    saved = tmp_path / "game.json"
    rc, stdout, err = run_cli(
        "play", "--ruleset", "tactica", *BASIC_BATTLE, "--seats", "random,heuristic",
        "--seed", "3", "--save", str(saved),
    )  # fmt: skip
    assert rc == 0, err
    assert "TACTICA, armies=standard, episode=battle, game=basic" in stdout
    data = json.loads(saved.read_text())
    assert data["options"] == RESOLVED
    assert data["fingerprint"] == get("tactica", None, RESOLVED).fingerprint()
    rc, stdout, err = run_cli("replay", "--saved", str(saved), "--quiet")
    assert rc == 0 and "reproduced" in stdout, err + stdout
    data["options"] = {"game": "advanced", "episode": "battle"}  # not what it was played under
    saved.write_text(json.dumps(data))
    rc, _, err = run_cli("replay", "--saved", str(saved), "--quiet")
    assert rc == 2 and "played under other tactica rule tables" in err


def test_balance_runs_under_armies_varied_and_the_report_names_the_options(tmp_path):
    runs, rep = tmp_path / "runs", tmp_path / "rep"
    rc, stdout, err = run_cli(
        "balance", "--ruleset", "tactica", "--option", "armies=varied", "--option",
        "episode=battle", "--games", "60", "--chunk", "30", "--runs", str(runs), "--out", str(rep),
    )  # fmt: skip
    assert rc == 0, err
    named = "options armies=varied, episode=battle, game=advanced"
    md = (rep / "balance.md").read_text()
    assert named in stdout and named in md
    # TACTICA's words: cards listed at 1 (an average card), with each card's copies per army
    assert md.startswith("# Card balance: value in winning vs listed cards (1 = an average card)")
    header = "| Card | Pile | Copies per army | Listed cards | Coefficient (95% CI) |"
    assert header in md and header in stdout
    assert "| Foot | troop pile | 8 | 1 |" in md and "| Crown | tactics pile | 2 | 1 |" in md
    assert json.loads((runs / "run.json").read_text())["params"]["options"]["armies"] == "varied"
    # reusing the run under other options is refused before anything is written
    before = snapshot(tmp_path)
    rc, _, err = run_cli(
        "balance", "--ruleset", "tactica", "--option", "armies=standard", "--runs", str(runs),
        "--out", str(rep),
    )  # fmt: skip
    assert rc == 2 and "holds a run with options armies=varied" in err
    assert snapshot(tmp_path) == before


def test_recost_of_tactica_is_refused_with_its_reason(tmp_path):
    rc, _, err = run_cli(
        "balance", "--recost", "--ruleset", "tactica", "--option", "armies=varied",
        "--games", "10", "--out", str(tmp_path / "rc"), "--runs", str(tmp_path / "runs"),
    )  # fmt: skip
    assert rc == 2 and "cannot write re-costed rule tables" in err
    assert list(tmp_path.iterdir()) == []


def test_default_balance_folders_differ_by_options():
    from agents.balance import default_runs_dir

    a = default_runs_dir("tactica", 2, 0, 100, "random", {"game": "basic", "episode": "war"})
    b = default_runs_dir("tactica", 2, 0, 100, "random", {"game": "advanced", "episode": "war"})
    assert a != b
    assert default_runs_dir("tac", 2, 0, 100) == Path("runs/balance/tac_p2_seed0_n100")


def test_rulesets_lists_each_rulesets_options_and_choices():
    rc, stdout, _ = run_cli("rulesets")
    assert rc == 0
    line = next(x for x in stdout.splitlines() if x.strip().startswith("tactica") and "=" in x)
    assert "game=advanced|basic, episode=war|battle, armies=standard|varied" in line
    assert any(x.split() == ["tac", "none"] for x in stdout.splitlines())


def test_a_policy_trained_under_other_options_is_refused(tmp_path):
    from agents import policy

    rs = get("tactica", None, RESOLVED)
    (tmp_path / "model.zip").write_bytes(b"not read: the config check comes first")
    config = {"ruleset": "tactica", "num_players": 2, "options": {**RESOLVED, "game": "advanced"}}
    (tmp_path / "config.json").write_text(json.dumps(config))
    with pytest.raises(ValueError, match="trained under tactica options .*game=advanced"):
        policy.load(f"ppo:{tmp_path}", rs, 2)
    # the same options pass the check (and fail later, on the fake model file)
    (tmp_path / "config.json").write_text(json.dumps({**config, "options": RESOLVED}))
    with pytest.raises(ValueError, match="not a MaskablePPO model"):
        policy.load(f"ppo:{tmp_path}", rs, 2)


def test_a_training_run_records_its_options_and_command(tmp_path):
    from agents.training import TrainConfig

    config = TrainConfig(out=tmp_path, timesteps=10, ruleset="tactica", options=RESOLVED)
    config.validate()
    assert config.trained_on()["options"] == RESOLVED
    assert config.trained_on()["fingerprint"] == get("tactica", None, RESOLVED).fingerprint()
    assert "--option game=basic" in config.command()
    with pytest.raises(ValueError, match="option game must be one of"):
        TrainConfig(out=tmp_path, timesteps=10, ruleset="tactica", options={"game": "x"}).validate()


def test_train_under_options_records_them_and_its_policy_refuses_others(tmp_path):
    out = tmp_path / "ppo"
    rc, stdout, err = run_cli(
        "train", "--ruleset", "tactica", *BASIC_BATTLE, "--timesteps", "128", "--num-envs", "4",
        "--n-steps", "32", "--batch-size", "64", "--n-epochs", "1", "--eval-games", "1",
        "--checkpoint-every", "0", "--no-progress", "--out", str(out),
    )  # fmt: skip
    assert rc == 0, err
    config = json.loads((out / "config.json").read_text())
    assert config["options"] == RESOLVED
    assert config["fingerprint"] == get("tactica", None, RESOLVED).fingerprint()
    assert "--option game=basic" in json.loads((out / "eval.json").read_text())["command"]
    agents = f"random,ppo:{out}"
    rc, _, err = run_cli(
        *selfplay_args(tmp_path / "war", "--option", "game=basic"), "--agents", agents
    )
    assert rc == 2 and "was trained under tactica options" in err
    assert not (tmp_path / "war").exists()
    rc, _, err = run_cli(
        *selfplay_args(tmp_path / "battle", *BASIC_BATTLE, games=4), "--agents", agents
    )
    assert rc == 0, err


def test_a_tac_run_written_before_options_existed_still_resumes(tmp_path):
    out = tmp_path / "old"
    argv = ["selfplay", "--ruleset", "tac", "--games", "40", "--chunk", "20", "--out", str(out)]
    rc, _, err = run_cli(*argv, "--max-chunks", "1")
    assert rc == 0, err
    run = json.loads((out / "run.json").read_text())
    del run["params"]["options"]  # as an earlier tacsim wrote it
    (out / "run.json").write_text(json.dumps(run))
    rc, _, err = run_cli(*argv)
    assert rc == 0, err
    assert records.read_games(out).num_rows == 40
