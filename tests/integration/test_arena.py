"""The arena (agents/arena.py) and trained policies as players (agents/policy.py).

Checked against what the arena does not produce: the ruleset's own play_chunk (the Python
loop must play the same games when every seat is the deterministic heuristic), the deals of
play_chunk (a policy's games use the same deals), and the AEC env (a recorded policy game,
replayed one decision at a time with the policy acting on the env's own observations, ends
as recorded)."""

from __future__ import annotations

import contextlib
import io
import json
import shutil
import zipfile

import numpy as np
import pytest

from agents import cli, policy, records
from agents.arena import Arena
from agents.kernel_agents import KernelAgent
from envs import get_ruleset, make_env

RULESET, SEED = "tac", 11
FIELDS = ("seat_agent", "winner", "score", "rewards", "length", "rounds", "force")


@pytest.fixture(scope="module")
def rs():
    return get_ruleset(RULESET)


@pytest.mark.parametrize("players", [2, 3])
def test_python_loop_plays_the_same_games_as_play_chunk_for_the_heuristic(rs, players):
    arena = Arena(rs, players, ["heuristic"] * players)
    idx = np.arange(40, 40 + 120 * players)
    kernel = arena.play(SEED, idx)
    loop = arena.play(SEED, idx, python_loop=True)
    for f in FIELDS:
        assert np.array_equal(getattr(kernel, f), getattr(loop, f)), f
    assert (kernel.length > 0).all() and (kernel.rounds >= 1).all()


def test_python_loop_with_the_random_agent_keeps_the_deals(rs):
    """TAC's random agent picks by mask order in act_batch and by legal-list order in
    play_chunk (agents/tac/baselines.py): both uniform, so the games differ, but the deals
    and the seats are the same."""
    arena = Arena(rs, 2, ["random", "heuristic"])
    idx = np.arange(200)
    kernel = arena.play(SEED, idx)
    loop = arena.play(SEED, idx, python_loop=True)
    assert np.array_equal(kernel.force, loop.force)
    assert np.array_equal(kernel.seat_agent, loop.seat_agent)
    heur = np.argmax(loop.seat_agent[:, :2] == 1, axis=1)
    assert (loop.winner == heur).mean() > 0.75  # the heuristic still wins most


def test_seat_agents_rotate_with_the_game_index(rs):
    res = Arena(rs, 3, ["heuristic", "random"]).play(0, np.arange(7, 13), python_loop=True)
    expected = (np.arange(3)[None, :] + np.arange(7, 13)[:, None]) % 2
    assert np.array_equal(res.seat_agent[:, :3], expected)
    assert (res.seat_agent[:, 3:] == -1).all()


@pytest.fixture(scope="module")
def policy_games(rs, tiny_ppo):
    arena = Arena(rs, 2, ["heuristic", f"ppo:{tiny_ppo}"])
    assert arena.has_policy
    idx = np.arange(60)
    return idx, arena.play(SEED, idx)


def test_a_policy_plays_whole_games_on_the_same_deals(rs, policy_games):
    idx, res = policy_games
    ref = Arena(rs, 2, ["heuristic", "heuristic"]).play(SEED, idx)
    assert np.array_equal(res.force, ref.force)  # the deal depends on the seed and index only
    assert np.array_equal(res.seat_agent[:, :2], np.stack([idx % 2, (idx + 1) % 2], axis=1))
    assert set(res.winner.tolist()) <= {-1, 0, 1}
    assert (res.length > 0).all() and (res.rounds >= 1).all()
    # the round counter is one past the last round after a full game (records clip it)
    assert (res.rounds <= rs.record.rounds_cap + 1).all()
    decided = res.winner >= 0
    rows = np.flatnonzero(decided)
    assert (res.rewards[rows, res.winner[decided]] > 0).all()
    # the 128-step policy is no match for the heuristic
    heur_seat = np.argmax(res.seat_agent[:, :2] == 0, axis=1)
    assert (res.winner == heur_seat).mean() > 0.6


def test_recorded_policy_games_replay_in_the_aec_env(rs, tiny_ppo, policy_games):
    idx, res = policy_games
    ppo = policy.load(f"ppo:{tiny_ppo}", rs, 2)
    heuristic = KernelAgent(rs, "heuristic")
    for g in (0, 1, 5):
        env = make_env(RULESET, num_players=2)
        env.reset(seed=SEED, options={"game_index": int(idx[g])})
        info = {}
        for agent in env.agent_iter():
            obs, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            seat = env.unwrapped.agent_name_mapping[agent]
            if res.seat_agent[g, seat] == 0:
                env.step(heuristic.act(env))
            else:
                mask = obs["action_mask"][None, :]
                env.step(int(ppo.act(obs["observation"][None, :], mask)[0]))
        assert info["winner"] == res.winner[g], f"game {g}"
        assert info["decisions"] == res.length[g], f"game {g}"


def test_policy_refuses_models_that_do_not_fit(rs, tiny_ppo, tmp_path):
    with pytest.raises(ValueError, match="no model file"):
        policy.load(f"ppo:{tmp_path / 'nothing'}", rs, 2)
    with pytest.raises(ValueError, match="no model file"):
        policy.load(f"ppo:{tmp_path}", rs, 2)  # a folder without model.zip
    with pytest.raises(ValueError, match="give the model"):
        policy.model_path("ppo:")
    # a model file is found from the folder, the file, or the file without .zip
    file = policy.model_path(f"ppo:{tiny_ppo}")
    assert file == policy.model_path(f"ppo:{tiny_ppo / 'model.zip'}")
    assert file == policy.model_path(f"ppo:{tiny_ppo / 'model'}")
    # 3 players: training's config.json names 2 players
    with pytest.raises(ValueError, match="trained for 2 players, not 3"):
        policy.load(f"ppo:{tiny_ppo}", rs, 3)
    # without that record, the network's input size tells: TAC's 3-player observation is
    # larger than the model's input
    bare = tmp_path / "bare"
    bare.mkdir()
    shutil.copy(tiny_ppo / "model.zip", bare / "model.zip")
    with pytest.raises(ValueError, match="takes observations of shape"):
        policy.load(f"ppo:{bare}", rs, 3)
    # the training config names another ruleset
    other = tmp_path / "other"
    shutil.copytree(tiny_ppo, other)
    config = json.loads((other / "config.json").read_text())
    (other / "config.json").write_text(json.dumps({**config, "ruleset": "tactica"}))
    with pytest.raises(ValueError, match="trained on ruleset 'tactica', not 'tac'"):
        policy.load(f"ppo:{other}", rs, 2)
    # a zip that is not a model
    junk = tmp_path / "junk.zip"
    with zipfile.ZipFile(junk, "w") as z:
        z.writestr("hello.txt", "not a model")
    with pytest.raises(ValueError, match="not a MaskablePPO model"):
        policy.load(f"ppo:{junk}", rs, 2)


def test_a_model_of_another_game_is_refused(rs, tmp_path):
    """A MaskablePPO of a 4-input, 3-action game (no config.json): its spaces name it."""
    import gymnasium as gym
    from sb3_contrib import MaskablePPO

    class Tiny(gym.Env):
        observation_space = gym.spaces.Box(0, 1, (4,), np.float32)
        action_space = gym.spaces.Discrete(3)

        def reset(self, *, seed=None, options=None):
            return np.zeros(4, np.float32), {}

        def step(self, action):
            return np.zeros(4, np.float32), 0.0, True, False, {}

    MaskablePPO("MlpPolicy", Tiny(), n_steps=8, batch_size=8, device="cpu").save(tmp_path / "m")
    with pytest.raises(ValueError, match=r"takes observations of shape \(4,\)"):
        policy.load(f"ppo:{tmp_path / 'm.zip'}", rs, 2)


def test_a_policy_that_picks_an_illegal_action_raises(rs, tiny_ppo, monkeypatch):
    ppo = policy.load(f"ppo:{tiny_ppo}", rs, 2)
    obs = np.zeros((3, ppo.observation_size), dtype=np.float32)
    masks = np.zeros((3, rs.n_actions), dtype=np.int8)
    masks[:, 5] = 1
    assert (ppo.act(obs, masks) == 5).all()  # the only legal action
    # a network whose probabilities ignore the mask (all mass on action 7)
    fixed = np.zeros((3, rs.n_actions))
    fixed[:, 7] = 1.0
    monkeypatch.setattr(policy, "masked_probabilities", lambda *_: fixed)
    with pytest.raises(RuntimeError, match="chose action 7, which its mask forbids"):
        ppo.act(obs, masks)
    with pytest.raises(ValueError, match="observations must be"):
        ppo.act(obs[:, :10], masks)


def _tacsim(argv: list[str]) -> tuple[int, str]:
    err = io.StringIO()
    with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(err):
        code = cli.main(argv)
    return code, err.getvalue()


def test_selfplay_with_a_policy_writes_ordinary_records(tiny_ppo, tmp_path):
    out = tmp_path / "run"
    agents = f"ppo:{tiny_ppo},heuristic"
    argv = ["selfplay", "--ruleset", RULESET, "--games", "30", "--agents", agents]
    argv += ["--seed", str(SEED), "--out", str(out), "--chunk", "10"]
    code, err = _tacsim(argv)
    assert code == 0, err
    t = records.read_games(out)
    assert t.num_rows == 30 and t.column("game_index").to_pylist() == list(range(30))
    a0 = t.column("agent_0").to_pylist()
    assert a0 == [f"ppo:{tiny_ppo}" if g % 2 == 0 else "heuristic" for g in range(30)]
    # the same games as the arena plays directly
    rs = get_ruleset(RULESET)
    res = Arena(rs, 2, [f"ppo:{tiny_ppo}", "heuristic"]).play(SEED, np.arange(30))
    assert t.column("winner").to_pylist() == res.winner.tolist()
    assert t.column("length").to_pylist() == res.length.tolist()
    # rerunning resumes: nothing left to play, the records unchanged
    assert _tacsim(argv)[0] == 0
    assert records.read_games(out).equals(t)


@pytest.mark.parametrize(
    "agents, message",
    [
        ("heuristic,ppo:/no/such/model", "no model file at /no/such/model"),
        ("heuristic,grandmaster", "unknown agent 'grandmaster'"),
    ],
)
def test_selfplay_refuses_a_bad_policy_before_writing(agents, message, tmp_path):
    out = tmp_path / "run"
    code, err = _tacsim(["selfplay", "--games", "10", "--agents", agents, "--out", str(out)])
    assert code == 2 and message in err and len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_selfplay_refuses_a_policy_for_another_player_count(tiny_ppo, tmp_path):
    out = tmp_path / "run"
    argv = ["selfplay", "--players", "3", "--games", "10", "--agents", f"heuristic,ppo:{tiny_ppo}"]
    code, err = _tacsim([*argv, "--out", str(out)])
    assert code == 2 and "trained for 2 players, not 3" in err
    assert not out.exists()


def test_the_ruleset_names_its_record_fields(rs):
    S = rs.allocate(1, 2)
    spec = rs.record
    assert S[spec.force_field].shape[-1] >= len(spec.items)
    assert S[spec.rounds_field].shape == (1,)
