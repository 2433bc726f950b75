"""BatchVecEnv (agents/vec_env.py): the SB3 VecEnv contract, masks and seats, opponents
inside the kernels, reward timing, reproducibility, illegal actions, and `tacsim train`
on the batched path end to end. A few hundred steps each."""

from __future__ import annotations

import json

import numpy as np
import pytest
from gymnasium import spaces
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported

from agents.training import SingleAgentEnv
from agents.vec_env import BatchVecEnv, learner_seats
from envs.registry import get
from tests.integration.rulesets import DATA_ONLY

N = 8


@pytest.fixture(scope="module")
def rs():
    return get("tac")


def _chooser(seed: int):
    rng = np.random.default_rng(seed)

    def choose(masks: np.ndarray) -> np.ndarray:
        return np.array([rng.choice(np.flatnonzero(row)) for row in masks], dtype=np.int64)

    return choose


def _check_learner_decides(env: BatchVecEnv) -> None:
    S = env.state
    assert np.array_equal(S["current"], env.seats)  # every slot waits on its learner
    masks = env.action_masks()
    assert masks.dtype == bool and masks.shape == (env.num_envs, env.action_space.n)
    assert masks.any(axis=1).all()
    assert np.array_equal(np.stack(env.env_method("action_masks")), masks)
    assert np.array_equal(get_action_masks(env), masks)


def test_learner_seats_alternate_in_blocks():
    assert learner_seats(8, 2, "alternate").tolist() == [0, 0, 0, 0, 1, 1, 1, 1]
    assert learner_seats(5, 2, "alternate").tolist() == [0, 0, 0, 1, 1]
    assert learner_seats(3, 2, 1).tolist() == [1, 1, 1]
    with pytest.raises(ValueError, match="learner_seat"):
        learner_seats(3, 2, 2)


def test_vec_env_contract_shapes_dtypes_and_terminal_observation(rs):
    env = BatchVecEnv(rs, N, opponent="heuristic", seed=3)
    assert isinstance(env.action_space, spaces.Discrete) and env.action_space.n == rs.n_actions
    assert env.observation_space.shape == (rs.observation_size(2),)
    assert is_masking_supported(env)
    assert env.get_attr("render_mode") == [None] * N
    obs = env.reset()
    assert obs.shape == (N, *env.observation_space.shape) and obs.dtype == np.float32
    assert all(env.observation_space.contains(o) for o in obs)
    assert len(env.reset_infos) == N
    choose = _chooser(0)
    ended = 0
    for _ in range(300):
        _check_learner_decides(env)
        obs, rewards, dones, infos = env.step(choose(env.action_masks()))
        assert obs.shape == (N, *env.observation_space.shape) and obs.dtype == np.float32
        assert rewards.shape == (N,) and rewards.dtype == np.float32
        assert dones.shape == (N,) and dones.dtype == np.bool_
        assert isinstance(infos, list) and len(infos) == N
        for i in range(N):
            assert ("terminal_observation" in infos[i]) == bool(dones[i])
            if dones[i]:
                t = infos[i]["terminal_observation"]
                assert t.shape == env.observation_space.shape and t.dtype == np.float32
                assert not np.array_equal(t, obs[i])  # obs[i] is already the next game's
                ended += 1
    assert ended > 0
    _check_learner_decides(env)


def test_opponents_move_inside_the_kernel_and_rewards_come_at_game_ends(rs):
    env = BatchVecEnv(rs, N, opponent="random", seed=5)
    env.reset()
    # games where the opponent opens: it has decided before the learner's first view
    assert (env.state["decisions"] > 0).any()
    learner_steps = np.zeros(N, dtype=np.int64)
    choose = _chooser(1)
    games = 0
    for _ in range(400):
        obs, rewards, dones, infos = env.step(choose(env.action_masks()))
        learner_steps += 1
        assert set(np.unique(rewards)) <= {-1.0, 0.0, 1.0}
        assert not rewards[~dones].any()  # reward only when the game ends
        for i in np.flatnonzero(dones):
            info = infos[i]
            seat = env.seats[i]
            winner = info["winner"]
            expected = 1.0 if winner == seat else (0.0 if winner == -1 else -1.0)
            assert rewards[i] == expected and info["is_success"] == (expected > 0)
            # the game's decisions = the learner's steps + the opponent's in-kernel decisions
            opponent = info["decisions"] - learner_steps[i]
            assert opponent > 0 and learner_steps[i] > 0
            assert info["learner_seat"] == seat
            games += 1
            learner_steps[i] = 0
        # fresh games: the learner decides again (the opponent moved first where it must)
        _check_learner_decides(env)
    assert games > 0
    assert env.opponent_decisions > 0 and (env.state["decisions"] >= 0).all()


def test_slot_plays_the_same_game_as_the_single_agent_env(rs):
    """Slot b holds game b: the same observations, masks and final reward as the AEC path
    with the learner in the same seat and the same actions."""
    env = BatchVecEnv(rs, N, opponent="heuristic", seed=7)
    obs = env.reset()
    for b in (1, N - 1):  # seat 0 and seat 1
        seat = int(env.seats[b])
        single = SingleAgentEnv(opponent="heuristic", seed=7, learner_seat=seat)
        s_obs, info = single.reset(options={"game_index": b})
        assert info["learner_seat"] == seat
        assert np.array_equal(s_obs, obs[b])
        vec = BatchVecEnv(rs, N, opponent="heuristic", seed=7)
        v_obs = vec.reset()
        done = False
        while not done:
            mask = single.action_masks()
            assert np.array_equal(mask, vec.action_masks()[b])
            a = int(np.flatnonzero(mask)[-1])
            actions = vec.action_masks().argmax(axis=1)
            actions[b] = a
            s_obs, s_rew, done, _, s_info = single.step(a)
            v_obs, v_rew, v_done, v_infos = vec.step(actions)
            assert bool(v_done[b]) == done and v_rew[b] == s_rew
            expected = v_infos[b]["terminal_observation"] if done else v_obs[b]
            assert np.array_equal(expected, s_obs)
        assert v_infos[b]["decisions"] == s_info["decisions"]


def test_same_seed_same_trajectory(rs):
    def run(seed: int):
        env = BatchVecEnv(rs, N, opponent="heuristic", seed=seed)
        out = [env.reset()]
        choose = _chooser(9)
        for _ in range(150):
            obs, r, d, _ = env.step(choose(env.action_masks()))
            out += [obs, r, d]
        return out

    a, b, c = run(11), run(11), run(12)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert not np.array_equal(a[0], c[0])


def test_seed_method_sets_the_family_of_the_next_reset(rs):
    a = BatchVecEnv(rs, N, seed=0)
    a.seed(4)
    b = BatchVecEnv(rs, N, seed=4)
    assert np.array_equal(a.reset(), b.reset())


def test_illegal_action_raises_and_changes_nothing_or_ends_the_game(rs):
    env = BatchVecEnv(rs, N, opponent="random", seed=1)
    env.reset()
    before = env.state.copy()
    actions = env.action_masks().argmax(axis=1)
    actions[2] = int(np.flatnonzero(~env.action_masks()[2])[0])
    with pytest.raises(ValueError, match="slot 2: .* is illegal"):
        env.step(actions)
    assert np.array_equal(env.state, before)

    pen = BatchVecEnv(rs, N, opponent="random", seed=1, illegal_action="penalty")
    pen.reset()
    game = int(pen.state["game_index"][2])
    _, rewards, dones, infos = pen.step(actions)
    assert dones[2] and rewards[2] == -1.0 and "illegal" in infos[2]["illegal_action"]
    assert int(pen.state["game_index"][2]) != game  # a fresh game in the slot
    _check_learner_decides(pen)


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"opponent": "grandmaster"}, "unknown agent"),
        ({"learner_seat": 2}, "learner_seat"),
        ({"seed": -1}, "seed"),
        ({"illegal_action": "ignore"}, "illegal_action"),
    ],
)
def test_bad_arguments(rs, kwargs, message):
    with pytest.raises(ValueError, match=message):
        BatchVecEnv(rs, N, **kwargs)


def test_tacsim_train_on_the_batched_path_end_to_end(tmp_path, capsys):
    from agents.cli import main

    out = tmp_path / "run"
    argv = ["train", "--num-envs", "8", "--timesteps", "512", "--n-steps", "64"]
    argv += ["--batch-size", "128", "--n-epochs", "1", "--eval-games", "2"]
    argv += ["--checkpoint-every", "0", "--no-progress", "--out", str(out)]
    assert main(argv) == 0
    result = json.loads((out / "eval.json").read_text())
    assert result["vec"] == "batch" and result["n_envs"] == 8 and result["timesteps"] >= 512
    assert set(result["opponents"]) == {"random", "heuristic"}
    assert "--num-envs 8" in result["command"]
    assert (out / "model.zip").stat().st_size > 0


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--ruleset", "chess"], "unknown ruleset 'chess'"),
        (["--ruleset", DATA_ONLY], "data only"),
    ],
)
def test_tacsim_train_refuses_unknown_and_data_only_rulesets(argv, message, tmp_path, capsys):
    from agents.cli import main

    out = tmp_path / "run"
    assert main(["train", *argv, "--timesteps", "10", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()


def test_training_throughput_benchmark_runs_and_writes_its_tables(tmp_path):
    """benchmarks/training_throughput.py --quick measures both paths and writes JSON and
    markdown (it once imported a module that had been removed, unnoticed)."""
    import json

    from benchmarks.training_throughput import main as bench_main

    assert bench_main(["--quick", "--out", str(tmp_path)]) == 0
    (js,) = tmp_path.glob("training_tac_*_quick.json")
    (md,) = tmp_path.glob("training_tac_*_quick.md")
    report = json.loads(js.read_text())
    text = md.read_text()
    assert "BatchVecEnv" in text and "AEC path" in text
    for part in ("raw", "learn"):
        for path in ("aec", "batch"):
            assert report[part][path]["steps_per_s"] > 0, (part, path)
