"""PettingZoo API conformance of tac_v1 (issue 2, section 3): api_test and seed_test for
every player count, spaces, ansi render, the env() wrapper and the end-of-game rewards."""

from __future__ import annotations

import numpy as np
import pytest
from _helpers_api import game_rng, pick, play_aec_game
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers

from envs.tac import tac_v1
from envs.tac.actions import N_ACTIONS
from envs.tac.observe import observation_size
from envs.tac.tables import default_tables

PLAYER_COUNTS = [2, 3, 4, 5]


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_api_test(num_players: int) -> None:
    # num_cycles * num_players decisions is more than a whole game, so play_test also sees
    # the termination of every agent
    api_test(tac_v1.env(num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_pettingzoo_seed_test(num_players: int) -> None:
    seed_test(lambda: tac_v1.env(num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize("num_players", [2, 5])
def test_seed_and_game_index_choose_the_game(num_players: int) -> None:
    """seed_test passes for an env that ignores its seed; this one checks that it does not."""
    env = tac_v1.raw_env(num_players=num_players)

    def first_obs(seed: int, game_index: int = 0) -> np.ndarray:
        env.reset(seed=seed, options={"game_index": game_index})
        return np.concatenate(
            [env.observe(a)["observation"] for a in env.possible_agents]
            + [env.state_arrays.view(np.uint8)]
        )

    a = first_obs(1)
    assert np.array_equal(a, first_obs(1))
    assert not np.array_equal(a, first_obs(2))
    assert not np.array_equal(a, first_obs(1, game_index=1))


@pytest.mark.parametrize("num_players", PLAYER_COUNTS)
def test_spaces(num_players: int) -> None:
    env = tac_v1.raw_env(num_players=num_players)
    env.reset(seed=0)
    n_obs = observation_size(default_tables().arrays, num_players)
    assert env.possible_agents == [f"player_{i}" for i in range(num_players)]
    for agent in env.possible_agents:
        osp = env.observation_space(agent)
        assert isinstance(osp, spaces.Dict)
        assert set(osp.spaces) == {"observation", "action_mask"}
        assert osp["observation"].shape == (n_obs,)
        assert osp["observation"].dtype == np.float32
        assert osp["action_mask"].shape == (N_ACTIONS,)
        assert osp["action_mask"].dtype == np.int8
        asp = env.action_space(agent)
        assert isinstance(asp, spaces.Discrete) and asp.n == N_ACTIONS
    rng = np.random.default_rng(num_players)
    for _ in range(60):
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            if agent == env.agent_selection:
                assert obs["action_mask"].sum() >= 1
            else:  # PettingZoo classic: only the agent to act has legal actions
                assert obs["action_mask"].sum() == 0
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))


@pytest.mark.parametrize("num_players", [2, 4])
def test_render_ansi_names_the_acting_player(num_players: int) -> None:
    env = tac_v1.raw_env(num_players=num_players, render_mode="ansi")
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    seen_agents = set()
    for _ in range(400):
        if env.terminations[env.agent_selection]:
            break
        k = env.agent_name_mapping[env.agent_selection]
        seen_agents.add(k)
        text = env.render()
        assert isinstance(text, str)
        lines = text.splitlines()
        # the table as the acting player sees it, and who is to decide what
        assert f"seen by P{k}" in lines[0], text
        assert lines[1].startswith(f"P{k} to "), text
        assert "your hand:" in text
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))
    assert len(seen_agents) == num_players  # defenders and every active player were shown


def test_render_without_mode_returns_none() -> None:
    env = tac_v1.raw_env(num_players=2)
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        assert env.render() is None


def test_env_wrapper_enforces_order_and_plays_a_game() -> None:
    e = tac_v1.env(num_players=3)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert isinstance(e.unwrapped, tac_v1.raw_env)
    with pytest.raises(Exception, match="reset"):
        e.step(0)  # stepping before reset is refused by the wrapper
    final = play_aec_game(e, seed=11)
    assert set(final) == {"player_0", "player_1", "player_2"}
    assert e.agents == []


def _rewards_of_games(num_players: int, n_games: int) -> list[tuple[dict, dict]]:
    """Play n_games; assert every reward before the end is 0; return (final rewards,
    final infos) per game."""
    env = tac_v1.raw_env(num_players=num_players)
    out = []
    for g in range(n_games):
        env.reset(seed=100 + g)
        rng = game_rng(100, g)
        final, infos = {}, {}
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, info = env.last()
            assert not truncated
            if terminated:
                final[agent] = reward
                infos[agent] = info
                env.step(None)
                continue
            assert reward == 0.0, "rewards come only at the end of the game"
            assert all(r == 0.0 for r in env.rewards.values())
            env.step(pick(obs["action_mask"], rng))
        out.append((final, infos))
    return out


def test_two_player_rewards_are_plus_minus_one_or_zero_zero() -> None:
    results = _rewards_of_games(2, 25)
    kinds = set()
    for final, infos in results:
        r = (final["player_0"], final["player_1"])
        assert r in {(1.0, -1.0), (-1.0, 1.0), (0.0, 0.0)}, r
        kinds.add(r)
        vp = [infos[a]["victory_points"] for a in ("player_0", "player_1")]
        winner = infos["player_0"]["winner"]
        if r == (0.0, 0.0):
            assert winner == -1 and vp[0] == vp[1]  # 11.2: a tie only with equal VP
        else:
            assert winner == (0 if r[0] > 0 else 1)
            assert vp[winner] >= vp[1 - winner]  # 11.2: the winner has the most VP
    assert (1.0, -1.0) in kinds and (-1.0, 1.0) in kinds  # both seats can win


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_multiplayer_reward_scheme(num_players: int) -> None:
    """tac_v1 docstring: the single winner +1, every other -1; players still tied after the
    tie-break get 0 and the rest -1."""
    for final, infos in _rewards_of_games(num_players, 6):
        r = np.array([final[f"player_{i}"] for i in range(num_players)])
        vp = np.array([infos[f"player_{i}"]["victory_points"] for i in range(num_players)])
        assert set(r.tolist()) <= {1.0, 0.0, -1.0}
        top = np.flatnonzero(r > -1.0)
        assert top.size >= 1
        assert np.all(vp[top] == vp.max())  # only players with the most VP can share the top
        if (r == 1.0).any():
            assert top.size == 1 and r[top[0]] == 1.0
            assert infos["player_0"]["winner"] == top[0]
        else:
            assert top.size >= 2 and np.all(r[top] == 0.0)
            assert infos["player_0"]["winner"] == -1
