"""TACTICA through the contract (envs/tactica/ruleset.py, kernels.py, tactica_v0.py): the
options do what they say, the war is one episode with per-battle infos, and random battles
and wars keep every invariant (envs/tactica/invariants.py; the full-size runs are
benchmarks/fuzz.py's, recorded in benchmarks/results/)."""

from __future__ import annotations

import numpy as np
import pytest

from envs import get_ruleset, make_env
from envs.tactica.invariants import CODE_NAMES, INV_RESULT, INV_WAR_POINTS
from envs.tactica.state import BATTLE_NOT_PLAYED, PLACE_LOST

FIGHTER = 2  # agents/tactica/baselines.AGENT_RANDOM_FIGHTER


def _play(options: dict, games: int, agents=(FIGHTER,), seed: int = 5):
    rs = get_ruleset("tactica", options=options)
    S = rs.allocate(games, 2)
    res = rs.play_chunk(S, rs.tables_batch, seed, np.arange(games), np.array(agents, np.int8))
    assert (res.length > 0).all()
    return rs, S, res


@pytest.mark.parametrize("game", ["advanced", "basic"])
def test_a_battle_episode_is_the_first_battle_alone_and_a_war_is_three(game):
    _, S, res = _play({"game": game, "episode": "battle"}, 40)
    assert (res.rounds == 1).all() and (S["battle_result"][:, 1:] == BATTLE_NOT_PLAYED).all()
    # the winner of the battle wins the episode: +1 / -1 (0 each when drawn)
    won = S["battle_result"][:, 0]
    assert (res.winner == np.where(won >= 0, won, -1)).all()
    _, S, res = _play({"game": game, "episode": "war"}, 40)
    assert (res.rounds == 3).all() and (S["battle_result"] != BATTLE_NOT_PLAYED).all()


def test_the_game_option_sets_the_advanced_game():
    for game, advanced in (("advanced", 1), ("basic", 0)):
        _, S, _ = _play({"game": game}, 8)
        assert (S["advanced"] == advanced).all()
    # only the advanced game raises summoning spires (TT-A.10)
    _, S, _ = _play({"game": "basic"}, 30)
    assert (S["spire_height"] == 0).all() and (S["summon_card_side"] == -1).all()
    _, S, _ = _play({"game": "advanced"}, 30)
    assert (S["summon_card_side"] >= 0).any()


def test_varied_armies_lose_cards_before_battle_one_and_records_count_them():
    rs, S, res = _play({"armies": "varied", "episode": "battle"}, 200)
    full = np.bincount(rs.tables_batch[0]["army_card"][: rs.tables_batch[0]["n_army_cards"]])
    totals = res.force.sum(axis=2)  # cards each army started with
    assert (totals < full.sum()).mean() > 0.9  # 15 % of 37 cards: almost never none lost
    assert (res.force <= full[None, None, : res.force.shape[2]]).all()
    assert len({tuple(f) for f in res.force[:, 0]}) > 100  # armies differ from war to war
    _, _, std = _play({"episode": "battle"}, 20)
    assert (std.force == full[None, None, : std.force.shape[2]]).all()
    assert (std.force.sum(axis=2) == 37).all()


def test_options_are_checked_and_each_set_has_its_own_fingerprint():
    prints = {
        get_ruleset("tactica", options={"game": g, "episode": e}).fingerprint()
        for g in ("advanced", "basic")
        for e in ("war", "battle")
    }
    assert len(prints) == 4
    with pytest.raises(ValueError, match="option game must be one of advanced, basic"):
        get_ruleset("tactica", options={"game": "expert"})
    with pytest.raises(ValueError, match="unknown option 'length'"):
        get_ruleset("tactica", options={"length": "war"})
    with pytest.raises(ValueError, match="unknown option"):
        get_ruleset("tac", options={"game": "basic"})
    with pytest.raises(ValueError, match=r"num_players must be an integer 2\.\.2"):
        make_env("tactica", num_players=3)


def test_the_aec_war_rewards_only_at_the_end_and_reports_each_battle_in_infos():
    env = make_env("tactica", options={"episode": "war"})
    env.reset(seed=3)
    raw = env.unwrapped
    rs = raw.ruleset
    seen_battles = set()
    final = {}
    for agent in env.agent_iter():
        _, reward, term, trunc, info = env.last()
        if term or trunc:
            final[agent] = (reward, info)
            env.step(None)
            continue
        assert reward == 0.0
        seen_battles.add(info["battle"])
        me = raw.agent_name_mapping[agent]
        results = info["battle_results"]
        assert info["battle_rewards"] == [
            0.0 if r < 0 else (1.0 if r == me else -1.0) for r in results
        ]
        env.step(int(rs.act_one(raw.state_arrays, rs.tables_batch, 0, FIGHTER)))
    assert seen_battles == {1, 2, 3}
    S = raw.state_arrays
    assert sorted(final) == raw.possible_agents
    for i, a in enumerate(raw.possible_agents):
        reward, info = final[a]
        assert len(info["battle_results"]) == 3
        assert info["war_points"] == S["war_points"][0, i] == info["score"]
        assert reward == S["rewards"][0, i] != 0.0 or S["winner"][0] < 0
    assert sum(r for r, _ in final.values()) == 0.0


@pytest.mark.parametrize("game", ["advanced", "basic"])
def test_random_battles_and_wars_keep_every_invariant(game):
    """The fuzzer at test size: 1,000 battles and 100 wars per game (benchmarks/fuzz.py runs
    100,000 battles and 10,000 wars)."""
    for episode, n in (("battle", 1_000), ("war", 100)):
        rs = get_ruleset("tactica", options={"game": game, "episode": episode})
        broken, first, decisions = rs.fuzz(2, n, seed=11)
        assert broken == {} and first is None, (episode, broken, first)
        assert decisions > 100 * n


def test_check_state_catches_a_wrong_result():
    rs = get_ruleset("tactica", options={"armies": "varied", "episode": "battle"})
    S = rs.allocate(1, 2)
    rs.play_chunk(S, rs.tables_batch, 1, np.arange(1), np.array([FIGHTER], np.int8))
    assert rs.check_state(S, 0) == []
    assert (S["card_place"][0] == PLACE_LOST).any()  # varied armies start with LOST cards
    bad = S.copy()
    bad["rewards"][0] = bad["rewards"][0][::-1] if bad["winner"][0] >= 0 else 1.0
    assert rs.check_state(bad, 0) == [CODE_NAMES[INV_RESULT]]
    bad = S.copy()
    bad["war_points"][0, 0] += 1
    assert rs.check_state(bad, 0) == [CODE_NAMES[INV_WAR_POINTS]]


def test_the_env_renders_text_and_a_png_of_the_battlefield():
    env = make_env("tactica", render_mode="ansi")
    env.reset(seed=2)
    raw = env.unwrapped
    rs = raw.ruleset
    for _ in range(60):  # past deployment: walls and landmarks stand on the battlefield
        env.step(int(rs.act_one(raw.state_arrays, rs.tables_batch, 0, FIGHTER)))
    text = env.render()
    assert text.startswith("TACTICA (advanced)  battle 1") and "wall of P0" in text
    assert "your Barracks:" in text  # the viewer's own hand, never the opponent's
    png = rs.render_image(raw.state_arrays, 0, 0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
