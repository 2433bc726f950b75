"""Determinism of every playable ruleset (ARCHITECTURE.md sections 4, 8 and 11): the AEC env
and a BatchEnv play identical games for the same seed and actions (observations, masks,
players to act, rewards, lengths); game k of a seed is the same game at batch sizes 1, 7 and
64 and on 1 and 2 numba threads; the same seed reproduces bit for bit.

Actions come from a numpy RNG seeded by (seed, game index) that reads the mask, so both APIs
choose the same actions exactly when they show the same masks."""

from __future__ import annotations

import hashlib

import numba
import numpy as np
import pytest
from _platform import CASES, EDGE_CASES, game_rng, pick

from envs import get_ruleset, make_batch, make_env

SEED = 9

Trajectory = tuple[list[str], tuple[float, ...], int]  # step digests, final rewards, length


def _step_digest(obs: np.ndarray, mask: np.ndarray, player: int, action: int) -> str:
    h = hashlib.sha1(np.ascontiguousarray(obs, dtype=np.float32).tobytes())
    h.update(np.ascontiguousarray(mask, dtype=np.int8).tobytes())
    h.update(np.array([player, action], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


def batch_trajectories(
    name: str, batch: int, num_players: int, n_games: int, threads: int
) -> dict[int, Trajectory]:
    """Games 0..n_games-1 of SEED played in a BatchEnv (with auto-reset)."""
    env = make_batch(name, batch, num_players, seed=SEED, threads=threads)
    assert numba.get_num_threads() == min(threads, numba.config.NUMBA_NUM_THREADS)
    r = env.reset()
    rngs: dict[int, np.random.Generator] = {}
    steps: dict[int, list[str]] = {}
    done: dict[int, Trajectory] = {}
    while len(done) < n_games:
        games = r.game_index.copy()
        actions = np.empty(batch, dtype=np.int64)
        for b in range(batch):
            g = int(games[b])
            a = pick(r.action_mask[b], rngs.setdefault(g, game_rng(SEED, g)))
            actions[b] = a
            digest = _step_digest(r.observation[b], r.action_mask[b], int(r.current_player[b]), a)
            steps.setdefault(g, []).append(digest)
        r = env.step(actions)
        for b in range(batch):
            g = int(games[b])
            if r.terminated[b]:
                if g < n_games:
                    rewards = tuple(float(x) for x in r.rewards[b])
                    done[g] = (steps.pop(g), rewards, int(r.final_length[b]))
                assert int(r.game_index[b]) != g  # the slot took a new game
            else:
                assert not r.rewards[b].any(), "rewards only at the end of a game"
    return done


def aec_trajectory(env, game_index: int) -> Trajectory:
    env.reset(seed=SEED, options={"game_index": game_index})
    rng = game_rng(SEED, game_index)
    steps: list[str] = []
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        obs = env.observe(agent)
        a = pick(obs["action_mask"], rng)
        steps.append(
            _step_digest(obs["observation"], obs["action_mask"], env.agent_name_mapping[agent], a)
        )
        env.step(a)
        if not env.terminations[agent]:
            assert not any(env.rewards.values()), "rewards only at the end of a game"
    rewards = tuple(float(env.rewards[a]) for a in env.possible_agents)
    return steps, rewards, int(env.infos[env.possible_agents[0]]["decisions"])


@pytest.fixture(autouse=True)
def _restore_threads():
    before = numba.get_num_threads()
    yield
    numba.set_num_threads(before)


def _first_difference(a: Trajectory, b: Trajectory) -> str:
    for i, (x, y) in enumerate(zip(a[0], b[0], strict=False)):
        if x != y:
            return f"decision {i}"
    return f"lengths {len(a[0])} vs {len(b[0])}, rewards {a[1]} vs {b[1]}, ends {a[2]} vs {b[2]}"


def _games(name: str, num_players: int) -> dict[int, int]:
    """Games compared per batch size: slots auto-reset at batch 7, and at the fewest players
    games 64.. start in reused slots at batch 64; few at batch 1, where each step is three
    kernel launches."""
    if num_players == get_ruleset(name).min_players:
        return {1: 3, 7: 10, 64: 66}
    return {1: 1, 7: 9, 64: 4}


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_aec_and_batch_env_play_identical_games(name: str, num_players: int) -> None:
    games = _games(name, num_players)
    env = make_env(name, num_players=num_players).unwrapped
    n_max = max(games.values())
    reference = {g: aec_trajectory(env, g) for g in range(n_max)}
    for steps, _, length in reference.values():
        assert len(steps) == length  # one AEC step per decision
    assert len({t[0][-1] for t in reference.values()}) == n_max  # distinct games
    for threads in (1, 2):
        for batch, n_games in games.items():
            got = batch_trajectories(name, batch, num_players, n_games, threads)
            for g in range(n_games):
                assert got[g] == reference[g], (
                    f"{name} {num_players} players, batch {batch}, {threads} thread(s): game "
                    f"{g} differs from the AEC env at {_first_difference(got[g], reference[g])}"
                )


def _batch_run(name: str, num_players: int, steps: int, threads: int) -> tuple[bytes, bytes]:
    """State and every step's arrays of a BatchEnv driven by seeded random actions."""
    env = make_batch(name, 32, num_players, seed=SEED, threads=threads)
    r = env.reset()
    rng = np.random.default_rng(0)
    h = hashlib.sha256()
    for _ in range(steps):
        a = np.array([pick(r.action_mask[b], rng) for b in range(32)], dtype=np.int64)
        r = env.step(a)
        for x in (r.observation, r.action_mask, r.current_player, r.rewards, r.terminated):
            h.update(np.ascontiguousarray(x).tobytes())
        h.update(np.ascontiguousarray(r.final_score).tobytes())
        h.update(np.ascontiguousarray(r.game_index).tobytes())
    return env.state.tobytes(), h.digest()


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_the_same_seed_reproduces_bit_for_bit(name: str, num_players: int) -> None:
    first = _batch_run(name, num_players, 300, threads=2)
    assert _batch_run(name, num_players, 300, threads=2) == first
    assert _batch_run(name, num_players, 300, threads=1) == first
    env = make_env(name, num_players=num_players).unwrapped
    a = aec_trajectory(env, 5)
    env2 = make_env(name, num_players=num_players).unwrapped
    assert aec_trajectory(env2, 5) == a
    # and another seed is another game
    other = make_batch(name, 32, num_players, seed=SEED + 1).reset().observation
    assert not np.array_equal(
        other, make_batch(name, 32, num_players, seed=SEED).reset().observation
    )


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_a_reset_after_a_finished_game_equals_a_fresh_reset(name: str, num_players: int) -> None:
    """Nothing of a finished game survives the reset: the AEC env reuses its one record and
    BatchEnv its slots, so a stale field (a paused choice, a scratch list) can make a game
    depend on the game played before it in the same slot. Every field of the record, not
    only what the rules read today, must be as a fresh reset leaves it."""
    used = make_env(name, num_players=num_players).unwrapped
    fresh = make_env(name, num_players=num_players).unwrapped
    for g in range(3):
        used.reset(seed=SEED, options={"game_index": g})
        fresh.reset(seed=SEED, options={"game_index": g})
        a, b = used.state_arrays, fresh.state_arrays
        kept = [f for f in a.dtype.names if not np.array_equal(a[f], b[f])]
        assert kept == [], f"{name}: game {g}'s reset kept {kept} from the game before"
        rng = game_rng(SEED, g)
        while not used.terminations[used.agent_selection]:
            used.step(pick(used.observe(used.agent_selection)["action_mask"], rng))
