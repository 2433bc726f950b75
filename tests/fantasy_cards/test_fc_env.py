"""Fantasy Cards through the contract (envs/fantasy_cards/ruleset.py, fantasy_cards_v0.py,
view.py; the kernels are the Tactical Assault core's): the Standard Game, a battlefield of
one's own through config_dir, clear errors, one compiled core shared with Legendary Battles,
the pictures, and the result checks of check_state."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from envs import get_ruleset, make_env
from envs.fantasy_cards.tables import FC_CONFIG

NAME = "fantasy_cards"


def _random_game(rs, seed: int = 1, game: int = 0) -> np.ndarray:
    S = rs.allocate(1, 2)
    res = rs.play_chunk(S, rs.tables_batch, seed, np.array([game]), np.array([0], np.int8))
    assert res.length[0] > 0
    return S


def test_the_standard_game_is_played_on_the_tabletop():
    rs = get_ruleset(NAME)
    tb = rs.tables_batch[0]
    assert rs.options == {} and rs.option_choices == {}
    assert int(tb["g_n_pos"]) == 256 and int(tb["g_n_dirs"]) == 8  # R28
    assert (tb["sc_force_points"] == [36, 36]).all()  # FC PART VI, chosen by the players
    assert rs.record.items[: len(rs.tables.unit_type_names)] == rs.tables.unit_type_names
    S = _random_game(rs, seed=2)
    assert int(S["stage"][0]) == 0 and S["force"][0].sum() > 0
    assert rs.check_state(S, 0) == []


def test_bad_options_and_folders_are_refused_by_name():
    with pytest.raises(ValueError, match="unknown option 'scenario' \\(options: none\\)"):
        get_ruleset(NAME, options={"scenario": "greywater_ford"})
    with pytest.raises(ValueError, match="holds no battlefield.yaml"):
        get_ruleset(NAME, config_dir=Path(__file__).parent)


def _own_folder(tmp_path: Path, edit) -> Path:
    folder = tmp_path / "fc"
    shutil.copytree(FC_CONFIG, folder)
    bf = folder / "battlefield.yaml"
    bf.write_text(edit(bf.read_text()))
    return folder


def test_a_battlefield_of_ones_own_through_config_dir(tmp_path):
    fixed = (
        "forces:\n"
        "  - units: [{type: INFANTRY, cell: [2, 2], facing: SE}, {type: ARCHER}]\n"
        "  - points: 20\n"
    )
    folder = _own_folder(
        tmp_path,
        lambda t: (
            t.replace("name: Standard Battlefield", "name: My Field").split("\nforces:")[0]
            + "\n"
            + fixed
        ),
    )
    rs = get_ruleset(NAME, config_dir=folder)
    tb = rs.tables_batch[0]
    assert (tb["sc_force_points"] == [0, 20]).all() and int(tb["sc_n_units"]) == 2
    S = _random_game(rs, seed=4)
    assert rs.check_state(S, 0) == []
    assert "My Field" in rs.render_text(S, 0, 0)
    bad = _own_folder(tmp_path / "bad", lambda t: t.replace('"W": Woods', '"W": Nowhere Marsh'))
    with pytest.raises(ValueError, match=r"battlefield.yaml.*'Standard Battlefield'.*legend\.W"):
        get_ruleset(NAME, config_dir=bad)


def test_fantasy_cards_runs_on_the_kernels_legendary_battles_compiled():
    """Both rulesets are data of one tables record type: the second compiles nothing new
    (one signature per contract kernel)."""
    from envs.tactical_assault import kernels

    def one_step(name: str) -> None:
        env = make_env(name).unwrapped
        env.reset(seed=0)
        env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))

    one_step("legendary_battles")
    n_sigs = (len(kernels.run_games.signatures), len(kernels.aec_observe.signatures))
    one_step(NAME)
    assert (len(kernels.run_games.signatures), len(kernels.aec_observe.signatures)) == n_sigs
    assert (
        get_ruleset(NAME).tables_batch.dtype == get_ruleset("legendary_battles").tables_batch.dtype
    )


def test_render_text_and_png_show_units_facing_statuses_and_terrain(tmp_path):
    rs = get_ruleset(NAME)
    S = _random_game(rs, seed=3)
    u = int(np.flatnonzero(S["unit_where"][0] == 1)[0])
    S["unit_status"][0, u] = 1
    S["unit_facing"][0, u] = 1  # NE: a diagonal facing, which LB's square maps lack
    text = rs.render_text(S, 0, 0)
    assert "Shaken" in text and "facing NE" in text and "your hand" in text
    assert "game over" in text and "Woods" in text and "Stream" in text
    path = rs.render_image(S, 0, 0, tmp_path / "game.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_ansi_env_renders_the_tabletop():
    env = make_env(NAME, render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert "Standard Battlefield (square 16x16)" in text and "decision:" in text


def test_check_state_follows_the_standard_game_result():
    """A finished game's winner must follow the Standard Game's conditions (FC-6.4: 18 points
    eliminated, no units left, or most units eliminated when time is called), and no game
    runs past the turn limit (FC-6.6, I15)."""
    rs = get_ruleset(NAME)
    limit = int(rs.tables_batch[0]["sc_turn_limit"])
    assert limit == rs.tables.standard_game.turn_limit_per_player
    for g in range(4):
        S = _random_game(rs, seed=5, game=g)
        assert rs.check_state(S, 0) == []
        assert (S["turns_of"][0] <= limit).all()
        bad = S.copy()
        bad["winner"][0] = 1 - int(S["winner"][0]) if S["winner"][0] >= 0 else 0
        assert rs.check_state(bad, 0) == ["result"]
