"""Self-play against earlier checkpoints (issue 10): PoolVecEnv's policy opponents in the
batched path, the snapshot pool of `tacsim train --opponent self`, reproducibility and bad
input. A few hundred steps each."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

from agents.training import TrainConfig, train
from agents.vec_env import BatchVecEnv, PoolVecEnv
from envs.registry import get

N = 8


@pytest.fixture(scope="module")
def rs():
    return get("tac")


class LowestLegal:
    """A Python batch policy: the lowest legal action; records what it was asked."""

    def __init__(self, name: str = "lowest"):
        self.name = name
        self.rows = 0
        self.calls = 0
        self.obs_size: set[int] = set()

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        assert obs.dtype == np.float32 and obs.shape[0] == masks.shape[0] > 0
        assert masks.any(axis=1).all()  # only games with a decision to take
        self.calls += 1
        self.rows += obs.shape[0]
        self.obs_size.add(obs.shape[1])
        return masks.argmax(axis=1)


def _lowest(env) -> np.ndarray:
    return env.action_masks().argmax(axis=1)


def _learner_decides_everywhere(env: BatchVecEnv) -> None:
    assert np.array_equal(env.state["current"], env.seats)  # never asked out of turn
    assert env.action_masks().any(axis=1).all()


def test_policy_opponents_play_between_learner_steps(rs):
    policy = LowestLegal()
    env = PoolVecEnv(rs, N, pool=[policy], seed=3)
    env.reset()
    _learner_decides_everywhere(env)
    rng = np.random.default_rng(0)
    learner_steps = np.zeros(N, dtype=np.int64)
    games = 0
    for _ in range(250):
        masks = env.action_masks()
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        _, rewards, dones, infos = env.step(actions)
        learner_steps += 1
        _learner_decides_everywhere(env)
        assert not rewards[~dones].any()
        for i in np.flatnonzero(dones):
            info = infos[i]
            seat = env.seats[i]
            expected = 1.0 if info["winner"] == seat else (0.0 if info["winner"] == -1 else -1.0)
            assert rewards[i] == expected and info["opponent"] == "lowest"
            # every decision of the game: the learner's steps or the policy's
            assert info["decisions"] - learner_steps[i] > 0
            learner_steps[i] = 0
            games += 1
    assert games > 0
    assert policy.calls > 0 and policy.rows == env.policy_decisions > 0
    # with only a policy in the pool every opponent decision is the policy's
    assert env.policy_decisions == env.opponent_decisions
    assert policy.obs_size == {rs.observation_size(2)}


def test_kernel_opponents_in_a_mixed_pool_play_as_in_the_kernel_path(rs):
    """Slots that drew the heuristic play their first game exactly as BatchVecEnv's
    heuristic path does (the sub-batch copy and write-back change nothing)."""
    policy = LowestLegal()
    mixed = PoolVecEnv(rs, N, pool=["heuristic", policy], seed=7)
    pure = BatchVecEnv(rs, N, opponent="heuristic", seed=7)
    a, b = mixed.reset(), pure.reset()
    heur = mixed.slot_entry == mixed._entries.index("heuristic")
    assert heur.any() and (~heur).any()  # this seed draws both kinds
    live = heur.copy()
    for _ in range(200):
        assert np.array_equal(a[live], b[live])
        assert np.array_equal(mixed.action_masks()[live], pure.action_masks()[live])
        actions = _lowest(mixed)
        a, ra, da, ia = mixed.step(actions)
        b, rb, db, ib = pure.step(np.where(live, actions, _lowest(pure)))
        for i in np.flatnonzero(live & da):
            assert db[i] and ra[i] == rb[i] and ia[i]["decisions"] == ib[i]["decisions"]
            assert ia[i]["opponent"] == "heuristic"
        live &= ~da
        if not live.any():
            break
    assert not live.any()
    assert policy.rows > 0


def test_one_kernel_agent_in_the_pool_is_the_kernel_path(rs):
    pool = PoolVecEnv(rs, N, pool=["heuristic"], seed=5)
    base = BatchVecEnv(rs, N, opponent="heuristic", seed=5)
    assert np.array_equal(pool.reset(), base.reset())
    for _ in range(60):
        a, ra, da, _ = pool.step(_lowest(pool))
        b, rb, db, _ = base.step(_lowest(base))
        assert np.array_equal(a, b) and np.array_equal(ra, rb) and np.array_equal(da, db)
    assert pool.policy_decisions == 0


def test_pool_draws_are_seeded_and_set_pool_applies_to_new_games(rs):
    def draws(seed: int) -> list:
        p, q = LowestLegal("p"), LowestLegal("q")
        env = PoolVecEnv(rs, N, pool=[p, q, "random"], seed=seed)
        env.reset()
        seen = [env.slot_entry.copy()]
        for _ in range(120):
            env.step(_lowest(env))
            seen.append(env.slot_entry.copy())
        return seen

    a, b, c = draws(1), draws(1), draws(2)
    assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    assert any(not np.array_equal(x, y) for x, y in zip(a, c, strict=True))

    env = PoolVecEnv(rs, N, pool=["random"], seed=4)
    env.reset()
    new = LowestLegal("new")
    env.set_pool([new])
    assert env.pool_names == ["new"]
    running = env.slot_entry.copy()
    assert (running == 0).all()  # running games keep the opponent they drew
    for _ in range(200):
        _, _, dones, infos = env.step(_lowest(env))
        for i in np.flatnonzero(dones):
            assert infos[i]["opponent"] in ("random", "new")
        _learner_decides_everywhere(env)
    assert new.rows > 0 and (env.slot_entry == 1).any()


class Illegal(LowestLegal):
    def act(self, obs, masks):
        return (masks == 0).argmax(axis=1)


@pytest.mark.parametrize(
    "pool, message",
    [
        ([], "at least one"),
        (["grandmaster"], "unknown agent"),
        ([object()], "neither an agent name nor a policy"),
    ],
)
def test_bad_pools_are_refused(rs, pool, message):
    with pytest.raises(ValueError, match=message):
        PoolVecEnv(rs, N, pool=pool)


def test_an_illegal_policy_action_is_an_error(rs):
    env = PoolVecEnv(rs, N, pool=[Illegal("cheat")], seed=0)
    with pytest.raises(RuntimeError, match="opponent cheat chose .* illegal"):
        env.reset()
        for _ in range(5):
            env.step(_lowest(env))


# --- tacsim train --opponent self ---------------------------------------------------------
SMALL = ["--num-envs", "8", "--n-steps", "32", "--batch-size", "128", "--n-epochs", "1"]


def _tacsim(argv: list[str]) -> int:
    from agents.cli import main

    return main(["train", *argv])


@pytest.fixture(scope="module")
def self_play_run(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("selfplay") / "run"
    argv = ["--opponent", "self", "--timesteps", "1024", "--snapshot-every", "256", "--pool", "2"]
    argv += [*SMALL, "--eval-games", "2", "--checkpoint-every", "0", "--no-progress"]
    assert _tacsim([*argv, "--seed", "5", "--out", str(out)]) == 0
    return out


def test_self_play_snapshots_at_the_right_steps_and_fills_the_pool(self_play_run, capsys):
    ckpt = self_play_run / "checkpoints"
    assert sorted(p.name for p in ckpt.iterdir()) == [
        "step_1024.zip",
        "step_256.zip",
        "step_512.zip",
        "step_768.zip",
    ]
    result = json.loads((self_play_run / "eval.json").read_text())
    sp = result["self_play"]
    assert sp["snapshot_every"] == 256 and sp["pool_size"] == 2
    assert sp["final_pool"] == ["step_512", "step_768"]  # the last two that were played
    assert sp["policy_decisions"] > 0
    pools = [r["pool"] for r in sp["rollouts"]]
    assert pools == [["random"], ["step_256"], ["step_256", "step_512"], ["step_512", "step_768"]]
    # the first rollout plays no policy, the later ones do
    decided = [r["policy_decisions"] for r in sp["rollouts"]]
    assert decided[0] == 0 and decided[1] > 0 and decided == sorted(decided)
    assert set(result["opponents"]) == {"random", "heuristic"}  # evaluated as before
    assert "--opponent self" in result["command"] and "--snapshot-every 256" in result["command"]
    events = list((self_play_run / "tb").rglob("events.out.tfevents.*"))
    assert events and "selfplay/win_rate_vs_pool" in events[0].read_bytes().decode("latin-1")


def test_the_saved_model_records_what_it_was_trained_on(self_play_run, rs):
    config = json.loads((self_play_run / "config.json").read_text())
    assert config["ruleset"] == "tac" and config["env_name"] == rs.env_name
    assert config["num_players"] == 2
    assert config["observation_size"] == rs.observation_size(2)
    assert config["n_actions"] == rs.n_actions
    assert config["opponent"] == "self" and config["pool_size"] == 2


def test_a_snapshot_policy_plays_only_legal_actions(self_play_run, rs):
    from agents.snapshots import SnapshotPolicy

    policy = SnapshotPolicy(self_play_run / "checkpoints" / "step_256.zip", seed=1)
    env = PoolVecEnv(rs, N, pool=[policy], seed=9)
    obs = env.reset()
    masks = env.masks.copy()
    p = policy.probabilities(obs, masks)
    assert np.allclose(p.sum(axis=1), 1.0) and not p[masks == 0].any()
    greedy = SnapshotPolicy(policy.path, deterministic=True)
    assert np.array_equal(greedy.act(obs, masks), p.argmax(axis=1))
    for _ in range(100):  # raises if the policy ever picks an illegal action
        env.step(_lowest(env))
    assert env.policy_decisions > 0
    with pytest.raises(ValueError, match="no saved model"):
        SnapshotPolicy(self_play_run / "nothing.zip")


def test_the_same_seed_gives_the_same_first_rollouts(tmp_path):
    def run(seed: int, name: str) -> tuple[dict, np.ndarray]:
        config = TrainConfig(
            out=tmp_path / name,
            timesteps=768,
            opponent="self",
            seed=seed,
            n_envs=8,
            n_steps=32,
            batch_size=128,
            n_epochs=1,
            snapshot_every=256,
            pool_size=2,
            checkpoint_every=0,
            eval_games=0,
            progress_bar=False,
        )
        summary = train(config)
        from sb3_contrib import MaskablePPO

        model = MaskablePPO.load(str(tmp_path / name / "model.zip"), device="cpu")
        params = np.concatenate([p.detach().numpy().ravel() for p in model.policy.parameters()])
        return summary["self_play"]["rollouts"], params

    a, pa = run(2, "a")
    b, pb = run(2, "b")
    c, pc = run(3, "c")
    assert a == b and np.array_equal(pa, pb)
    assert a[1]["policy_decisions"] > 0
    assert not np.array_equal(pa, pc)


@pytest.mark.parametrize(
    "argv, message",
    [
        (["--opponent", "self", "--pool", "0"], "--pool: must be >= 1"),
        (["--opponent", "self", "--snapshot-every", "100"], "multiple of the rollout"),
        (["--opponent", "self", "--vec", "aec"], "needs the batched path"),
        (["--opponent", "self", "--num-envs", "1"], "needs the batched path"),
        (["--opponent", "self", "--pool-start", "nobody"], "unknown --pool-start agent"),
        (["--opponent", "random", "--pool", "3"], "--pool: only with --opponent self"),
        (["--snapshot-every", "256"], "--snapshot-every: only with --opponent self"),
    ],
)
def test_self_play_bad_input_is_one_line_and_exit_2(argv, message, tmp_path, capsys):
    out = tmp_path / "run"
    full = [*SMALL, *argv, "--timesteps", "256", "--out", str(out)]
    assert _tacsim(full) == 2
    err = capsys.readouterr().err
    assert message in err and err.count("\n") == 1
    assert not out.exists()
