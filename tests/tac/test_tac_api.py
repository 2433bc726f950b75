"""TAC's own face of the PettingZoo API (tac_v1 docstring; issue 2, section 3): the ansi render
names the acting player, and the reward scheme of 11.2. What every ruleset must do (api_test,
seed_test, spaces, the wrapper, rewards only at the end) is tests/platform/test_platform_api.py.
"""

from __future__ import annotations

import numpy as np
import pytest
from _helpers_api import pick, play_to_the_end

from envs.tac import tac_v1


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


def _rewards_of_games(num_players: int, n_games: int) -> list[tuple[dict, dict]]:
    """Play n_games (every reward before the end is 0); (final rewards, final infos) each."""
    env = tac_v1.raw_env(num_players=num_players)
    return [play_to_the_end(env, 100, g) for g in range(n_games)]


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
