"""Legendary Battles through the contract (envs/legendary_battles/ruleset.py,
legendary_battles_v0.py, envs/tactical_assault/kernels.py): the scenario option, scenarios of
one's own through config_dir, clear errors, one compiled core for every scenario, the
pictures, and the result checks of check_state."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest

from envs import get_ruleset, make_env
from envs.legendary_battles.tables import DEFAULT_DIR

NAME = "legendary_battles"


def _random_game(rs, seed: int = 1, game: int = 0) -> np.ndarray:
    S = rs.allocate(1, 2)
    res = rs.play_chunk(S, rs.tables_batch, seed, np.array([game]), np.array([0], np.int8))
    assert res.length[0] > 0
    return S


def test_the_scenario_option_chooses_the_scenario():
    default = get_ruleset(NAME)
    assert default.options == {"scenario": "greywater_ford"}
    assert default.option_choices["scenario"][:2] == ("greywater_ford", "crossroads_of_hallin")
    cross = get_ruleset(NAME, options={"scenario": "crossroads_of_hallin"})
    assert cross.fingerprint() != default.fingerprint()
    assert cross.tables_batch[0]["sc_force_points"].sum() == 0  # fixed forces
    assert (default.tables_batch[0]["sc_force_points"] == [30, 24]).all()  # chosen by points
    S = _random_game(cross)
    assert S["force"][0].sum() == 15  # 8 Watch + 7 Raiders
    assert (
        cross.record.costs[int(np.flatnonzero(np.array(cross.record.items) == "LEGENDARY")[0])] == 6
    )


def test_bad_options_and_unplayable_scenarios_are_refused_by_name():
    with pytest.raises(ValueError, match=r"option scenario must be one of .*\(or a scenario file"):
        get_ruleset(NAME, options={"scenario": "nowhere"})
    with pytest.raises(ValueError, match="unknown option 'map'"):
        get_ruleset(NAME, options={"map": "x"})
    assert get_ruleset(NAME, options={"scenario": "siege_of_the_ridge_fort"})  # LB R28
    with pytest.raises(ValueError, match="holds no terrain.yaml"):
        get_ruleset(NAME, config_dir=Path(__file__).parent)


def _own_folder(tmp_path: Path, text_edit) -> Path:
    folder = tmp_path / "lb"
    shutil.copytree(DEFAULT_DIR, folder)
    src = (folder / "scenarios" / "crossroads_of_hallin.yaml").read_text()
    (folder / "scenarios" / "my_crossroads.yaml").write_text(text_edit(src))
    return folder


def test_a_scenario_of_ones_own_through_config_dir(tmp_path):
    folder = _own_folder(
        tmp_path,
        lambda t: t.replace("name: Crossroads of Hallin", "name: My Crossroads").replace(
            "turn_limit: 10", "turn_limit: 5"
        ),
    )
    rs = get_ruleset(NAME, config_dir=folder, options={"scenario": "my_crossroads"})
    assert "my_crossroads" in rs.option_choices["scenario"]
    S = _random_game(rs)
    assert S["turn"][0] <= 10 and rs.tables_batch[0]["sc_turn_limit"] == 5
    bad = _own_folder(tmp_path / "bad", lambda t: t.replace("turn_limit: 10", "turn_limit: x"))
    with pytest.raises(ValueError, match="crossroads_of_hallin.yaml|my_crossroads.yaml"):
        get_ruleset(NAME, config_dir=bad)


def test_a_scenario_of_ones_own_by_its_file_path(tmp_path):
    """`scenario=PATH.yaml` plays that file on the rule folder's terrain: the only choice of
    the option, its record from the file (a turn limit of 5 here), through the registry and
    the AEC env; a missing file or a bad field is refused naming the file (and the field)."""
    src = (DEFAULT_DIR / "scenarios" / "crossroads_of_hallin.yaml").read_text()
    mine = tmp_path / "my_crossroads.yaml"
    mine.write_text(src.replace("turn_limit: 10", "turn_limit: 5"))
    rs = get_ruleset(NAME, options={"scenario": str(mine)})
    assert rs.option_choices["scenario"] == (str(mine),)
    assert rs.tables_batch[0]["sc_turn_limit"] == 5
    shipped = get_ruleset(NAME, options={"scenario": "crossroads_of_hallin"}).tables_batch
    assert shipped[0]["sc_turn_limit"] == 10
    S = _random_game(rs)
    assert S["turn"][0] <= 10 and rs.check_state(S, 0) == []
    env = make_env(NAME, options={"scenario": str(mine)}).unwrapped
    env.reset(seed=0)
    assert env.possible_agents == ["player_0", "player_1"]
    with pytest.raises(ValueError, match="no such scenario file"):
        get_ruleset(NAME, options={"scenario": str(tmp_path / "nowhere.yaml")})
    bad = tmp_path / "bad.yaml"
    bad.write_text(src.replace("turn_limit: 10", "turn_limit: x"))
    with pytest.raises(ValueError, match=r"bad\.yaml.*Crossroads of Hallin.*turn_limit"):
        get_ruleset(NAME, options={"scenario": str(bad)})
    with pytest.raises(ValueError, match="unknown option 'map'"):
        get_ruleset(NAME, options={"scenario": str(mine), "map": "x"})


def test_every_scenario_runs_on_the_same_compiled_kernels():
    """The ground and the forces are data of the tables record: a second scenario compiles
    nothing new (one signature per contract kernel)."""
    from envs.tactical_assault import kernels

    cross = get_ruleset(NAME, options={"scenario": "crossroads_of_hallin"})
    grey = get_ruleset(NAME)
    env = make_env(NAME, options={"scenario": "crossroads_of_hallin"}).unwrapped
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    n_sigs = (len(kernels.run_games.signatures), len(kernels.aec_observe.signatures))
    env = make_env(NAME).unwrapped
    env.reset(seed=0)
    env.step(int(np.flatnonzero(env.observe(env.agent_selection)["action_mask"])[0]))
    assert (len(kernels.run_games.signatures), len(kernels.aec_observe.signatures)) == n_sigs
    assert cross.tables_batch.dtype == grey.tables_batch.dtype


def test_render_text_and_png_show_units_facing_statuses(tmp_path):
    rs = get_ruleset(NAME, options={"scenario": "crossroads_of_hallin"})
    S = _random_game(rs, seed=3)
    u = int(np.flatnonzero(S["unit_where"][0] == 1)[0])
    S["unit_status"][0, u] = 1
    text = rs.render_text(S, 0, 0)
    assert "Shaken" in text and "facing" in text and "your hand" in text
    assert "game over" in text
    path = rs.render_image(S, 0, 0, tmp_path / "game.png")
    assert Path(path).read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_check_state_follows_the_scenario_result():
    """A finished game's winner must follow its end conditions: in Crossroads of Hallin the
    turn limit gives the game to the Raiders only if they hold the crossroads (LB I3)."""
    rs = get_ruleset(NAME, options={"scenario": "crossroads_of_hallin"})
    for g in range(6):
        S = _random_game(rs, seed=5, game=g)
        assert rs.check_state(S, 0) == []
        bad = S.copy()
        bad["winner"][0] = 1 - int(S["winner"][0]) if S["winner"][0] >= 0 else 0
        assert rs.check_state(bad, 0) == ["result"]


def test_scenario_records_are_kept_on_disk(tmp_path, monkeypatch):
    """Building a scenario's record takes seconds: it is kept next to the numba cache, keyed
    by its sources, and rebuilt when the file is unreadable."""
    from envs.fantasy_cards.tables import load_tables as load_fc
    from envs.legendary_battles import ruleset as lbr

    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path))
    tables, fc = lbr._tables(None), load_fc()
    args = (tables, "Greywater Ford", None, fc)
    built = lbr._scenario_record(*args)
    files = list((tmp_path / "tables").glob("legendary_battles-greywater_ford-*.npy"))
    assert len(files) == 1
    assert lbr._scenario_record(*args).tobytes() == built.tobytes()  # loaded from disk
    files[0].write_bytes(b"not a record")
    assert lbr._scenario_record(*args).tobytes() == built.tobytes()  # rebuilt
    assert get_ruleset(NAME).tables_batch.tobytes() == built.tobytes()
