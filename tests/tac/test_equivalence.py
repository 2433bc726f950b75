"""The PettingZoo env and BatchEnv play identical games (ARCHITECTURE.md sections 1 and 4;
issue 2, section 3): same seed and actions give the same observations, masks, players to act
and rewards, at batch sizes 1, 7 and 64, on 1 and 2 numba threads; game k of a seed is the
same game whatever slot or batch size plays it.

Actions come from a numpy RNG seeded by (seed, game index) and read the mask, so both APIs
choose the same actions exactly when they show the same masks.
"""

from __future__ import annotations

import hashlib

import numba
import numpy as np
import pytest
from _helpers_api import game_rng, pick

from envs.tac import tac_v1

SEED = 9


def _step_digest(obs: np.ndarray, mask: np.ndarray, player: int, action: int) -> str:
    h = hashlib.sha1(np.ascontiguousarray(obs, dtype=np.float32).tobytes())
    h.update(np.ascontiguousarray(mask, dtype=np.int8).tobytes())
    h.update(np.array([player, action], dtype=np.int64).tobytes())
    return h.hexdigest()[:16]


Trajectory = tuple[list[str], tuple[float, ...], int]  # step digests, final rewards, length


def batch_trajectories(
    batch: int, num_players: int, n_games: int, threads: int
) -> dict[int, Trajectory]:
    """Games 0..n_games-1 of SEED played in a BatchEnv (with auto-reset)."""
    env = tac_v1.BatchEnv(batch, num_players, seed=SEED, threads=threads)
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


def aec_trajectory(env: tac_v1.raw_env, game_index: int) -> Trajectory:
    env.reset(seed=SEED, options={"game_index": game_index})
    rng = game_rng(SEED, game_index)
    steps: list[str] = []
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        obs = env.observe(agent)
        a = pick(obs["action_mask"], rng)
        steps.append(_step_digest(obs["observation"], obs["action_mask"], int(agent[7:]), a))
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


# Games compared per batch size: slots auto-reset at batch 7, and (2 players) games
# 64.. start in reused slots at batch 64; few at batch 1, where each step is three parallel
# kernel launches (slow on 2 threads when the cores are busy).
GAMES = {2: {1: 3, 7: 10, 64: 66}, 4: {1: 1, 7: 9, 64: 4}}


@pytest.mark.parametrize("num_players", [2, 4])
def test_aec_and_batch_env_play_identical_games(num_players: int) -> None:
    env = tac_v1.raw_env(num_players=num_players)
    n_max = max(GAMES[num_players].values())
    reference = {g: aec_trajectory(env, g) for g in range(n_max)}
    for steps, _, length in reference.values():
        assert len(steps) == length  # one AEC step per decision
    assert len({t[0][-1] for t in reference.values()}) == n_max  # distinct games
    for threads in (1, 2):
        for batch, n_games in GAMES[num_players].items():
            got = batch_trajectories(batch, num_players, n_games, threads)
            for g in range(n_games):
                assert got[g] == reference[g], (
                    f"{num_players} players, batch {batch}, {threads} thread(s): game {g} "
                    f"differs from the AEC env at {_first_difference(got[g], reference[g])}"
                )
