"""PettingZoo conformance of every playable ruleset at every player count (ARCHITECTURE.md
section 8): api_test and seed_test on envs.make_env, the seed and game index choose the game,
spaces, ansi render, the order-enforcing wrapper, and rewards that come at the end of a game
and agree with its winner and scores."""

from __future__ import annotations

import numpy as np
import pytest
from _platform import CASES, EDGE_CASES, RULESETS, pick, play_aec_game, play_to_the_end
from gymnasium import spaces
from pettingzoo.test import api_test, seed_test
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger

from envs import get_ruleset, make_env


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_pettingzoo_api_test(name: str, num_players: int) -> None:
    # num_cycles * num_players decisions is more than a whole game, so play_test also sees
    # the termination of every agent
    api_test(make_env(name, num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_pettingzoo_seed_test(name: str, num_players: int) -> None:
    seed_test(lambda: make_env(name, num_players=num_players), num_cycles=1000)


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_seed_and_game_index_choose_the_game(name: str, num_players: int) -> None:
    """seed_test passes for an env that ignores its seed; this one checks that it does not."""
    env = make_env(name, num_players=num_players).unwrapped

    def first_obs(seed: int, game_index: int = 0) -> np.ndarray:
        env.reset(seed=seed, options={"game_index": game_index})
        return np.concatenate(
            [env.observe(a)["observation"].view(np.uint8) for a in env.possible_agents]
            + [env.state().view(np.uint8)]
        )

    a = first_obs(1)
    assert np.array_equal(a, first_obs(1))
    assert not np.array_equal(a, first_obs(2))
    assert not np.array_equal(a, first_obs(1, game_index=1))


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_spaces(name: str, num_players: int) -> None:
    rs = get_ruleset(name)
    env = make_env(name, num_players=num_players).unwrapped
    env.reset(seed=0)
    assert env.possible_agents == [f"player_{i}" for i in range(num_players)]
    for agent in env.possible_agents:
        osp = env.observation_space(agent)
        assert isinstance(osp, spaces.Dict)
        assert set(osp.spaces) == {"observation", "action_mask"}
        assert osp["observation"].shape == (rs.observation_size(num_players),)
        assert osp["observation"].dtype == np.float32
        assert osp["action_mask"].shape == (rs.n_actions,)
        assert osp["action_mask"].dtype == np.int8
        asp = env.action_space(agent)
        assert isinstance(asp, spaces.Discrete) and asp.n == rs.n_actions
    rng = np.random.default_rng(num_players)
    for _ in range(60):
        if env.terminations[env.agent_selection]:
            break
        for agent in env.possible_agents:
            obs = env.observe(agent)
            assert env.observation_space(agent).contains(obs)
            if agent == env.agent_selection:
                assert obs["action_mask"].sum() >= 1
            else:  # PettingZoo classic: only the agent to act has legal actions
                assert obs["action_mask"].sum() == 0
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_render_ansi_is_the_acting_players_picture(name: str, num_players: int) -> None:
    rs = get_ruleset(name)
    env = make_env(name, num_players=num_players, render_mode="ansi").unwrapped
    env.reset(seed=5)
    rng = np.random.default_rng(0)
    for _ in range(50):
        if env.terminations[env.agent_selection]:
            break
        me = env.agent_name_mapping[env.agent_selection]
        text = env.render()
        assert isinstance(text, str) and text
        assert text == rs.render_text(env.state_arrays, me, 0)
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))


@pytest.mark.parametrize("name", RULESETS)
def test_render_without_mode_returns_none(name: str) -> None:
    env = make_env(name).unwrapped
    env.reset(seed=0)
    with pytest.warns(UserWarning):
        assert env.render() is None


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_env_wrapper_enforces_order_and_plays_a_game(name: str, num_players: int) -> None:
    e = make_env(name, num_players=num_players)
    assert isinstance(e, wrappers.OrderEnforcingWrapper)
    assert e.unwrapped.ruleset.name == name
    with pytest.raises(Exception, match="reset"):
        e.step(0)  # stepping before reset is refused by the wrapper
    final = play_aec_game(e, seed=11)
    assert set(final) == {f"player_{i}" for i in range(num_players)}
    assert e.agents == []


@pytest.mark.parametrize("name", RULESETS)
def test_order_enforcing_shortcuts_behave_as_pettingzoos_wrapper(name: str) -> None:
    """envs.core.aec's wrapper answers last() and step() without PettingZoo's per-attribute
    __getattr__ (AEC speed): the same errors before reset, the same warning for a step after
    the game, and the same game, step for step, as PettingZoo's own OrderEnforcingWrapper."""
    ours = make_env(name)
    stock = wrappers.OrderEnforcingWrapper(make_env(name).unwrapped)
    assert type(ours) is not wrappers.OrderEnforcingWrapper  # the shortcut is in use
    for e in (ours, stock):
        with pytest.raises(AttributeError, match="agent_selection cannot be accessed before reset"):
            e.last()
        with pytest.raises(Exception, match="reset"):
            e.step(0)
        e.reset(seed=5)
    rng_a, rng_b = np.random.default_rng(1), np.random.default_rng(1)
    for agent_a, agent_b in zip(ours.agent_iter(), stock.agent_iter(), strict=True):
        assert agent_a == agent_b
        (obs_a, r_a, term_a, trunc_a, info_a) = ours.last()
        (obs_b, r_b, term_b, trunc_b, info_b) = stock.last()
        assert (r_a, term_a, trunc_a, info_a) == (r_b, term_b, trunc_b, info_b)
        assert np.array_equal(obs_a["observation"], obs_b["observation"])
        assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
        assert ours.last(observe=False)[0] is None
        done = term_a or trunc_a
        ours.step(None if done else pick(obs_a["action_mask"], rng_a))
        stock.step(None if done else pick(obs_b["action_mask"], rng_b))
    assert ours.agents == stock.agents == []
    for e in (ours, stock):  # a step after the game: PettingZoo's warning, nothing played
        EnvLogger.flush()
        e.step(0)
        assert len(EnvLogger.mqueue) == 1 and "called after all agents" in EnvLogger.mqueue[0]
    EnvLogger.flush()


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_rewards_come_at_the_end_and_follow_the_winner(name: str, num_players: int) -> None:
    """Rewards are 0 until the game ends; then infos hold each seat's score and the winner,
    the winner (if any) has the highest reward and a score no other seat beats, and a draw
    gives no seat more than the others."""
    rs = get_ruleset(name)
    env = make_env(name, num_players=num_players).unwrapped
    winners = set()
    for g in range(32):  # at least 8 games, more until two seats have won (random games)
        if g >= 8 and len(winners - {-1}) >= 2:
            break
        final, infos = play_to_the_end(env, 100, g)
        agents = [f"player_{i}" for i in range(num_players)]
        r = np.array([final[a] for a in agents])
        score = np.array([infos[a]["score"] for a in agents])
        assert all(infos[a][rs.record.score_field] == infos[a]["score"] for a in agents)
        winner = infos[agents[0]]["winner"]
        assert all(infos[a]["winner"] == winner for a in agents)
        assert -1 <= winner < num_players
        winners.add(winner)
        if winner >= 0:
            assert r[winner] == r.max() and (r < r[winner]).sum() == num_players - 1
            assert score[winner] == score.max()
        else:
            assert (r == r.max()).sum() >= 2  # nobody wins a draw outright
    assert len(winners - {-1}) >= 2  # more than one seat can win
