"""Tactics David through the contract (envs/tactics_david/ruleset.py, kernels.py,
tactics_david_v0.py): the options, the renders (text and PNG, hiding what R54 hides), the
final scores and results, and check_state's own checks."""

from __future__ import annotations

import numpy as np
import pytest

from envs import get_ruleset, make_env
from envs.tactics_david import state as st
from envs.tactics_david.actions import STAGE_DEPLOY_UNIT, STAGE_GAME_OVER

HEURISTIC = 1  # agents/tactics_david/baselines.AGENT_HEURISTIC


def test_the_battlefield_option_fixes_the_battlefield_and_has_its_own_fingerprint():
    rs = get_ruleset("tactics_david")
    assert rs.option_choices["battlefield"] == (
        "random",
        "bramble_creek_crossing",
        "deaths_highway",
    )
    prints = {rs.fingerprint()}
    for k, choice in enumerate(rs.option_choices["battlefield"][1:]):
        one = get_ruleset("tactics_david", options={"battlefield": choice})
        prints.add(one.fingerprint())
        S = one.allocate(6, 2)
        one.play_chunk(S, one.tables_batch, 1, np.arange(6), np.array([HEURISTIC], np.int8))
        assert (S["battlefield"] == k).all()
    assert len(prints) == 3
    S = rs.allocate(30, 2)
    rs.play_chunk(S, rs.tables_batch, 1, np.arange(30), np.array([HEURISTIC], np.int8))
    assert set(S["battlefield"].tolist()) == {0, 1}  # random: both are drawn
    with pytest.raises(ValueError, match="option battlefield must be one of random"):
        get_ruleset("tactics_david", options={"battlefield": "moon"})
    with pytest.raises(ValueError, match=r"num_players must be an integer 2\.\.2"):
        make_env("tactics_david", num_players=3)


def _aec_game(seed=2, stop=None):
    """An AEC game played by the heuristic; returns the env stopped where stop(S) holds."""
    env = make_env("tactics_david", render_mode="ansi")
    env.reset(seed=seed)
    raw = env.unwrapped
    rs = raw.ruleset
    while not env.terminations[env.agent_selection]:
        if stop is not None and stop(raw.state_arrays):
            break
        env.step(int(rs.act_one(raw.state_arrays, rs.tables_batch, 0, HEURISTIC)))
    return env, raw, rs


def test_a_game_ends_with_scores_results_and_infos():
    env, raw, rs = _aec_game()
    S = raw.state_arrays
    assert S["stage"][0] == STAGE_GAME_OVER
    assert rs.check_state(S, 0) == []
    w = int(S["winner"][0])
    assert w in (0, 1) and S["score"][0, 1 - w] < S["score"][0, w]
    assert S["score"][0, 1 - w] == 0 or S["turn"][0] == 30  # wiped out, or the limit (I14)
    info = env.infos[f"player_{w}"]
    assert info["score"] == int(S["score"][0, w]) and env.rewards[f"player_{w}"] == 1.0


def test_the_text_render_shows_the_battlefield_and_hides_the_opponents_reserve():
    env, raw, rs = _aec_game(
        stop=lambda S: (
            S["stage"][0] == STAGE_DEPLOY_UNIT
            and S["turn"][0] == 0
            and (S["unit_place"][0] == st.PLACE_FIELD).sum() >= 4
        )
    )
    S = raw.state_arrays
    names = rs.tables.units.unit_names
    me = int(S["current"][0])
    text = rs.render_text(S, me, 0)
    assert text.startswith("Tactics David  ") and "to decide: deploy: unit" in text
    assert "unit(s) in reserve" in text  # the opponent's reserve, as a count
    for u in range(st.N_UNIT_IDS):
        name = names[int(S["unit_member"][0, u, 0])] if S["unit_member"][0, u, 0] >= 0 else None
        if name is None or S["unit_place"][0, u] != st.PLACE_RESERVE:
            continue
        line = f"{name} ({int(S['unit_cost'][0, u])}) in reserve"
        assert (line in text) == (u // st.MAX_UNITS == me)
    assert env.render() == rs.render_text(S, int(S["current"][0]), 0)


def test_the_png_shows_units_on_the_battlefield(tmp_path):
    _, raw, rs = _aec_game(stop=lambda S: S["turn"][0] >= 3)
    png = rs.render_image(raw.state_arrays, 0, 0)
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and len(png) > 10_000
    path = rs.render_image(raw.state_arrays, 1, 0, tmp_path / "game.png")
    assert path.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_check_state_catches_wrong_scores_and_results():
    _, raw, rs = _aec_game(seed=4)
    S = raw.state_arrays
    assert rs.check_state(S, 0) == []
    bad = S.copy()
    bad["score"][0, 0] += 5
    assert any("scores" in v for v in rs.check_state(bad, 0))
    bad = S.copy()
    bad["winner"][0] = 1 - bad["winner"][0]
    assert any("winner" in v for v in rs.check_state(bad, 0))
    bad = S.copy()
    bad["stage"][0] = 4  # a game going on may not hold a result
    assert any("before the game is over" in v for v in rs.check_state(bad, 0))


def test_one_game_from_python_plays_as_the_batch_kernels_do_and_compiles_nothing_new():
    """kernels.start_one / apply_one (tests' way to drive one game) go through run_games: the
    same game as reset_batch / step_batch, and no new signature of run_games."""
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS

    rs = get_ruleset("tactics_david")
    tba = rs.tables_batch
    S_one, S_batch = st.allocate(1), st.allocate(1)
    masks = np.zeros((1, N_ACTIONS), dtype=np.int8)
    rs.reset_batch(S_batch, tba, 5, np.array([3]), masks)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.start_one(S_one, tba[0], np.int64(0), np.int64(5), np.int64(3), out)
    sigs = len(K.run_games.signatures)
    rng = np.random.default_rng(0)
    rewards = np.zeros((1, 2), dtype=np.float32)
    term = np.zeros(1, dtype=np.bool_)
    score, length = np.zeros((1, 2), dtype=np.int16), np.zeros(1, dtype=np.int32)
    steps = 0
    while n > 0 and steps < 400:
        assert sorted(set(out[:n].tolist())) == np.flatnonzero(masks[0]).tolist()
        a = int(out[rng.integers(n)])
        n = K.apply_one(S_one, tba[0], np.int64(0), np.int64(a), out)
        rs.step_batch(S_batch, tba, np.array([a]), masks, rewards, term, score, length)
        assert S_one.tobytes() == S_batch.tobytes()
        steps += 1
    assert steps > 20
    assert len(K.run_games.signatures) == sigs
    with pytest.raises(ValueError, match="tables batch"):
        K.start_one(S_one, tba[0].copy(), np.int64(0), np.int64(5), np.int64(3), out)


def test_no_decision_lists_an_action_twice():
    """Every legal-action list is a set (R145: a Unit Team's space was listed once per member
    when an ability picks a target by its space). Random games until the Team case came up."""
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import MAX_LEGAL, STAGE_EFFECT

    tba = get_ruleset("tactics_david").tables_batch
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    effect_lists = 0
    for g in range(12):
        S = st.allocate(1)
        n = K.start_one(S, tba[0], np.int64(0), np.int64(5), np.int64(g), out)
        rng = np.random.default_rng(g)
        while n > 0:
            listed = out[:n].tolist()
            assert len(set(listed)) == n, (g, int(S["stage"][0]), listed)
            effect_lists += int(S["stage"][0] == STAGE_EFFECT)
            n = K.apply_one(S, tba[0], np.int64(0), np.int64(listed[rng.integers(n)]), out)
        assert S["stage"][0] == STAGE_GAME_OVER  # no list was empty before the end
    assert effect_lists > 0
