"""Training wiring (issue 2, section 4): the single-agent env, `tacsim train` end to end on a
few hundred timesteps, the saved model, the evaluation file and bad input."""

from __future__ import annotations

import argparse
import json
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from agents.kernel_agents import KernelAgent
from agents.training import SingleAgentEnv, add_parser, main
from envs.tac import tac_v1
from tests.integration.rulesets import DATA_ONLY


def _first_legal_game(env: SingleAgentEnv, **reset_kwargs) -> tuple[list, float, dict]:
    """Play one game taking the lowest legal action; the observations, reward, last info."""
    obs, info = env.reset(**reset_kwargs)
    seen = [obs.copy()]
    done = False
    reward = 0.0
    while not done:
        obs, reward, done, truncated, info = env.step(int(np.flatnonzero(env.action_masks())[0]))
        assert not truncated
        seen.append(obs.copy())
    return seen, reward, info


def test_single_agent_env_passes_gymnasium_env_checker():
    with warnings.catch_warnings():
        # tac_v1's Box is [0, inf): the checker only warns about the unbounded maximum
        warnings.simplefilter("ignore", UserWarning)
        check_env(SingleAgentEnv(opponent="heuristic", seed=3))
        check_env(SingleAgentEnv(opponent="random", seed=4, learner_seat=1))


def test_opponent_decisions_are_played_until_the_learner_decides():
    env = SingleAgentEnv(opponent="heuristic", seed=11, illegal_action="raise")
    obs, info = env.reset()
    learner_steps = 0
    done = False
    while not done:
        # the wrapped AEC env waits on the learner at every decision the learner sees
        assert env._aec.agent_selection == env._aec.possible_agents[info["learner_seat"]]
        mask = env.action_masks()
        assert mask.dtype == bool and mask.any()
        obs, reward, done, _, info = env.step(int(np.flatnonzero(mask)[-1]))
        learner_steps += 1
    # every decision of the game was taken by the learner or inside step by the opponent
    assert learner_steps + info["opponent_decisions"] == info["decisions"]
    assert info["opponent_decisions"] > 0
    assert reward in (-1.0, 0.0, 1.0)
    assert info["is_success"] == (reward > 0)
    assert not env.action_masks().any()
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_learner_seat_alternates_with_the_game_index():
    env = SingleAgentEnv(opponent="random", seed=2)
    seats = [env.reset()[1]["learner_seat"] for _ in range(4)]
    games = env.game_index
    assert seats == [0, 1, 0, 1] and games == 3
    fixed = SingleAgentEnv(opponent="random", seed=2, learner_seat=1)
    assert {fixed.reset()[1]["learner_seat"] for _ in range(3)} == {1}


def test_reset_replays_the_same_games_from_a_seed():
    a = SingleAgentEnv(opponent="heuristic", seed=0)
    b = SingleAgentEnv(opponent="heuristic", seed=0)
    game_a, reward_a, _ = _first_legal_game(a, seed=21)
    game_b, reward_b, _ = _first_legal_game(b, seed=21)
    assert reward_a == reward_b and len(game_a) == len(game_b)
    assert all(np.array_equal(x, y) for x, y in zip(game_a, game_b, strict=True))
    # the next reset plays the next game of the family, the same as jumping to it
    next_a, _, info_a = _first_legal_game(a)
    jump, _, info_j = _first_legal_game(
        SingleAgentEnv(opponent="heuristic", seed=21), options={"game_index": 1}
    )
    assert info_a["game_index"] == info_j["game_index"] == 1
    assert all(np.array_equal(x, y) for x, y in zip(next_a, jump, strict=True))
    assert not np.array_equal(next_a[0], game_a[0])


def test_first_observation_is_the_aec_envs_view_of_the_same_game():
    env = SingleAgentEnv(opponent="heuristic", seed=5, learner_seat=1)
    obs, _ = env.reset(options={"game_index": 3})
    raw = tac_v1.raw_env(num_players=2)
    raw.reset(seed=5, options={"game_index": 3})
    opponent = KernelAgent(tac_v1.ruleset(), "heuristic")
    while raw.agent_selection != "player_1":
        raw.step(opponent.act(raw))
    assert np.array_equal(obs, raw.observe("player_1")["observation"])
    assert np.array_equal(env.action_masks(), raw.observe("player_1")["action_mask"] == 1)


def test_illegal_action_penalty_ends_the_game_and_raise_mode_raises():
    env = SingleAgentEnv(opponent="random", seed=1)
    env.reset()
    illegal = int(np.flatnonzero(~env.action_masks())[0])
    _, reward, done, _, info = env.step(illegal)
    assert done and reward == -1.0 and "illegal" in info["illegal_action"]
    strict = SingleAgentEnv(opponent="random", seed=1, illegal_action="raise")
    strict.reset()
    with pytest.raises(ValueError, match="illegal"):
        strict.step(illegal)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponent": "grandmaster"}, "unknown opponent"),
        ({"learner_seat": 2}, "learner_seat"),
        ({"seed": -1}, "seed"),
    ],
)
def test_single_agent_env_rejects_bad_arguments(kwargs, message):
    with pytest.raises(ValueError, match=message):
        SingleAgentEnv(**kwargs)


def _tacsim_train(argv: list[str]) -> int:
    """Run `tacsim train ARGV` through add_parser, as agents/cli.py does; the exit code."""
    from agents.cli import UsageError

    parser = argparse.ArgumentParser(prog="tacsim")
    add_parser(parser.add_subparsers(dest="command", required=True))
    try:
        args = parser.parse_args(["train", *argv])
    except SystemExit as exc:  # argparse's own errors
        return int(exc.code)
    try:
        return int(args.func(args))
    except UsageError as exc:  # what agents.cli.main does
        print(f"tacsim train: error: {exc}", file=sys.stderr)
        return 2


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--ruleset", "chess"], "unknown ruleset 'chess'"),
        (["--ruleset", DATA_ONLY], f"ruleset '{DATA_ONLY}' is data only"),
        (["--option", "game=basic"], "tac has no options"),
        (["--ruleset", "tactica", "--option", "armies=mixed"], "standard, varied"),
        (["--vec", "batch", "--learner-seat", "2"], "learner_seat"),
        (["--opponent", "grandmaster"], "unknown opponent 'grandmaster'"),
        (["--timesteps", "0"], "--timesteps: must be >= 1"),
        (["--timesteps", "lots"], "--timesteps: expected an integer"),
        (["--n-envs", "0"], "--n-envs: must be >= 1"),
    ],
)
def test_train_rejects_bad_input_with_exit_code_2(argv, message, tmp_path, capsys):
    base = {"--timesteps": "100", "--out": str(tmp_path / "run")}
    for flag, value in zip(argv[::2], argv[1::2], strict=True):
        base[flag] = value
    flat = [x for pair in base.items() for x in pair]
    assert _tacsim_train(flat) == 2
    assert message in capsys.readouterr().err
    assert not (tmp_path / "run").exists()  # nothing half-written


def test_train_script_rejects_bad_input_with_exit_code_2(tmp_path, capsys):
    out = str(tmp_path / "run")
    assert main(["--opponent", "nobody", "--timesteps", "10", "--out", out]) == 2
    assert "unknown opponent 'nobody'" in capsys.readouterr().err
    with pytest.raises(SystemExit) as exc:
        main(["--timesteps", "-5", "--out", out])
    assert exc.value.code == 2
    assert not (tmp_path / "run").exists()


@pytest.fixture(scope="module")
def trained_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("train") / "run"
    argv = ["--ruleset", "tac", "--opponent", "random", "--timesteps", "256", "--seed", "3"]
    argv += ["--num-envs", "1"]  # the AEC path (one env; the default is 64 batched games)
    argv += ["--out", str(out), "--n-steps", "128", "--batch-size", "64", "--n-epochs", "2"]
    argv += ["--checkpoint-every", "128", "--eval-games", "6", "--no-progress"]
    assert _tacsim_train(argv) == 0
    return out


def test_train_writes_model_checkpoints_and_tensorboard_events(trained_run):
    assert (trained_run / "model.zip").stat().st_size > 0
    assert sorted(p.name for p in (trained_run / "checkpoints").iterdir()) == [
        "model_128_steps.zip",
        "model_256_steps.zip",
    ]
    events = list((trained_run / "tb").rglob("events.out.tfevents.*"))
    assert events and all(p.stat().st_size > 0 for p in events)


def test_train_evaluates_against_both_baselines(trained_run, capsys):
    result = json.loads((trained_run / "eval.json").read_text())
    assert result["timesteps"] >= 256 and result["trained_against"] == "random"
    assert set(result["opponents"]) == {"random", "heuristic"}
    for name, r in result["opponents"].items():
        assert r["opponent"] == name and r["games"] == 6
        assert r["wins"] + r["losses"] + r["ties"] == 6
        assert 0.0 <= r["win_rate"] <= 1.0
        lo, hi = r["win_rate_ci95"]
        assert 0.0 <= lo <= r["win_rate"] <= hi <= 1.0
        assert r["games_by_seat"] == [3, 3]  # seats alternate
    assert "tacsim train --ruleset tac --opponent random --timesteps 256" in result["command"]


def test_saved_model_predicts_only_legal_actions(trained_run):
    from sb3_contrib import MaskablePPO

    model = MaskablePPO.load(str(trained_run / "model.zip"), device="cpu")
    env = SingleAgentEnv(opponent="heuristic", seed=99, illegal_action="raise")
    for deterministic in (True, False):
        obs, _ = env.reset()
        done = False
        while not done:
            mask = env.action_masks()
            action, _ = model.predict(obs, action_masks=mask, deterministic=deterministic)
            assert mask[int(action)]
            obs, _, done, _, _ = env.step(int(action))
