"""Bad input to tac_v1 (ARCHITECTURE.md sections 5 and 7; issue 2, section 6): players
outside 2..5, illegal actions (ValueError naming the action and the decision, state left
unchanged; or the penalty mode), and broken rule-data files (ConfigError naming the file,
the entry and the field)."""

from __future__ import annotations

import shutil
from pathlib import Path

import numpy as np
import pytest
import yaml
from _helpers_api import game_rng, pick

from envs.core.config import CONFIG_ROOT, ConfigError
from envs.tac import tac_v1
from envs.tac.actions import N_ACTIONS, describe
from envs.tac.state import STAGE_NAMES
from envs.tac.tables import load_tables

# ---------------------------------------------------------------- players outside 2..5

CONSTRUCTORS = {
    "env": lambda n: tac_v1.env(num_players=n),
    "raw_env": lambda n: tac_v1.raw_env(num_players=n),
    "BatchEnv": lambda n: tac_v1.BatchEnv(4, num_players=n),
}


@pytest.mark.parametrize("make", CONSTRUCTORS.values(), ids=CONSTRUCTORS.keys())
@pytest.mark.parametrize("num_players", [0, 1, 6, -2, 2.0, "3", None, 3.5])
def test_players_outside_two_to_five_are_refused(make, num_players) -> None:
    with pytest.raises(ValueError, match=r"num_players must be an integer 2\.\.5") as exc:
        make(num_players)
    assert repr(num_players) in str(exc.value)


@pytest.mark.parametrize("make", CONSTRUCTORS.values(), ids=CONSTRUCTORS.keys())
@pytest.mark.parametrize("num_players", [2, 5])
def test_players_at_the_bounds_are_accepted(make, num_players) -> None:
    make(num_players)


def test_other_bad_constructor_arguments() -> None:
    with pytest.raises(ValueError, match="illegal_action"):
        tac_v1.raw_env(illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        tac_v1.raw_env(render_mode="rgb_array")
    with pytest.raises(ValueError, match="num_envs"):
        tac_v1.BatchEnv(0, 2)
    with pytest.raises(ValueError, match="seed"):
        tac_v1.BatchEnv(2, 2, seed=-1)
    env = tac_v1.raw_env()
    with pytest.raises(ValueError, match="seed"):
        env.reset(seed=-3)


# ---------------------------------------------------------------- illegal actions


def _illegal(mask: np.ndarray, rng: np.random.Generator) -> int:
    illegal = np.flatnonzero(mask == 0)
    return int(illegal[rng.integers(illegal.size)])


@pytest.mark.parametrize("num_players", [2, 4])
def test_illegal_action_raises_and_changes_nothing_in_aec(num_players: int) -> None:
    env = tac_v1.raw_env(num_players=num_players)
    env.reset(seed=3)
    rng, bad_rng = game_rng(3, 0), np.random.default_rng(1)
    tried = 0
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        if tried < 200:
            for a in (_illegal(mask, bad_rng), -1, N_ACTIONS):
                before = env.state_arrays.tobytes()
                obs_before = env.observe(agent)
                decision = STAGE_NAMES[int(env.state_arrays["stage"][0])]
                with pytest.raises(ValueError) as exc:
                    env.step(a)
                msg = str(exc.value)
                assert describe(a) in msg and f"action {a}" in msg
                assert decision in msg and agent in msg
                assert env.state_arrays.tobytes() == before
                assert env.agent_selection == agent
                after = env.observe(agent)
                assert np.array_equal(after["observation"], obs_before["observation"])
                assert np.array_equal(after["action_mask"], obs_before["action_mask"])
                tried += 1
        env.step(pick(mask, rng))
    assert tried >= 150  # illegal actions were tried all through a game


@pytest.mark.parametrize("action", [None, 1.0, "3", np.float32(2.0)])
def test_non_integer_action_raises(action) -> None:
    env = tac_v1.raw_env()
    env.reset(seed=0)
    before = env.state_arrays.tobytes()
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(action)
    assert env.state_arrays.tobytes() == before


def test_illegal_action_raises_and_changes_nothing_in_batch_env() -> None:
    B = 6
    env = tac_v1.BatchEnv(B, 3, seed=4)
    r = env.reset()
    bad_rng = np.random.default_rng(2)
    rngs = [game_rng(4, g) for g in range(B)]
    for step in range(120):
        good = np.array([pick(r.action_mask[b], rngs[b]) for b in range(B)], dtype=np.int64)
        victim = step % B
        bad = good.copy()
        bad[victim] = _illegal(r.action_mask[victim], bad_rng)
        state, masks = env.state.tobytes(), env.masks.copy()
        decision = STAGE_NAMES[int(env.state["stage"][victim])]
        with pytest.raises(ValueError) as exc:
            env.step(bad)
        msg = str(exc.value)
        assert f"game {victim}" in msg and describe(int(bad[victim])) in msg and decision in msg
        assert env.state.tobytes() == state  # no game moved, not even the legal ones
        assert np.array_equal(env.masks, masks)
        r = env.step(good)
        for b in np.flatnonzero(r.terminated):
            rngs[b] = game_rng(4, int(r.game_index[b]))


def test_batch_env_refuses_malformed_action_arrays() -> None:
    env = tac_v1.BatchEnv(3, 2, seed=0)
    env.reset()
    state = env.state.tobytes()
    for actions in (np.zeros(2, dtype=np.int64), np.zeros((3, 1), np.int64), np.zeros(3)):
        with pytest.raises(ValueError, match="actions must be an integer array"):
            env.step(actions)
    assert env.state.tobytes() == state


@pytest.mark.parametrize("num_players", [2, 3])
def test_penalty_mode_ends_the_game_with_minus_one_to_the_offender(num_players: int) -> None:
    env = tac_v1.raw_env(num_players=num_players, illegal_action="penalty")
    env.reset(seed=8)
    rng = game_rng(8, 0)
    for _ in range(30):  # some way into the game
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))
    offender = env.agent_selection
    before = env.state_arrays.tobytes()
    env.step(_illegal(env.observe(offender)["action_mask"], np.random.default_rng(0)))
    assert env.state_arrays.tobytes() == before  # the game state itself is not touched
    assert all(env.terminations.values())
    assert "is illegal" in env.infos[offender]["illegal_action"]
    final = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        final[agent] = reward
        env.step(None)
    assert final[offender] == -1.0
    assert all(r == 0.0 for a, r in final.items() if a != offender)
    assert set(final) == set(env.possible_agents)


# ---------------------------------------------------------------- broken rule data


@pytest.fixture
def tac_dir(tmp_path: Path) -> Path:
    d = tmp_path / "tac"
    shutil.copytree(CONFIG_ROOT / "tac", d)
    return d


def _edit(path: Path, change) -> None:
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    change(doc)
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")


def _entry(doc: dict, name: str) -> tuple[int, dict]:
    for i, e in enumerate(doc["entries"]):
        if e["name"] == name:
            return i, e
    raise AssertionError(name)


def _expect(tac_dir: Path, file: str, entry: str | None, field: str) -> ConfigError:
    with pytest.raises(ConfigError) as exc:
        load_tables(tac_dir)
    err = exc.value
    msg = str(err)
    assert Path(err.path).name == file and file in msg
    assert err.field == field and f"field '{field}'" in msg
    if entry is not None:
        assert err.entry == entry and f"entry {entry}" in msg
    return err


def test_copied_config_loads(tac_dir: Path) -> None:
    """The control: the unbroken copy loads (so each failure below is the edit's doing)."""
    assert load_tables(tac_dir).n_unit_types > 0


def test_unit_missing_field(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "Medium Tank")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i].pop("hit_points"))
    err = _expect(tac_dir, "units.yaml", f"{i} 'Medium Tank'", "hit_points")
    assert "missing" in err.message


def test_unit_wrong_type(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "ATGM Vehicle")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i].update(victory_points="many"))
    _expect(tac_dir, "units.yaml", f"{i} 'ATGM Vehicle'", "victory_points")


def test_unit_naming_an_unknown_weapon(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "units.yaml").read_text()), "Armoured Car")
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][i]["weapons"].append("railgun"))
    err = _expect(tac_dir, "units.yaml", f"{i} 'Armoured Car'", "weapons")
    assert "railgun" in err.message


def test_card_naming_an_unknown_weapon(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "Heavy Gun 4")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].update(weapon="laser"))
    err = _expect(tac_dir, "action_cards.yaml", f"{i} 'Heavy Gun 4'", "weapon")
    assert "laser" in err.message


def test_card_missing_field_of_its_colour(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "A-10 Strike")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].pop("to_hit"))
    _expect(tac_dir, "action_cards.yaml", f"{i} 'A-10 Strike'", "to_hit")


def test_card_wrong_type(tac_dir: Path) -> None:
    i, _ = _entry(yaml.safe_load((tac_dir / "action_cards.yaml").read_text()), "x2")
    _edit(tac_dir / "action_cards.yaml", lambda d: d["entries"][i].update(count=[3]))
    _expect(tac_dir, "action_cards.yaml", f"{i} 'x2'", "count")


@pytest.mark.parametrize("file", ["units.yaml", "action_cards.yaml", "weapons.yaml"])
def test_bad_origin(tac_dir: Path, file: str) -> None:
    doc = yaml.safe_load((tac_dir / file).read_text())
    name = doc["entries"][1]["name"]
    _edit(tac_dir / file, lambda d: d["entries"][1].update(origin="rulebook"))
    _expect(tac_dir, file, f"1 '{name}'", "origin")


@pytest.mark.parametrize("file", ["units.yaml", "action_cards.yaml", "weapons.yaml"])
def test_duplicate_name(tac_dir: Path, file: str) -> None:
    doc = yaml.safe_load((tac_dir / file).read_text())
    first = doc["entries"][0]["name"]
    n = len(doc["entries"])
    _edit(tac_dir / file, lambda d: d["entries"].append(dict(d["entries"][0])))
    err = _expect(tac_dir, file, f"{n} '{first}'", "name")
    assert "duplicate" in err.message


def test_weapon_bad_literal(tac_dir: Path) -> None:
    _edit(tac_dir / "weapons.yaml", lambda d: d["entries"][0].update(weight="medium"))
    name = yaml.safe_load((tac_dir / "weapons.yaml").read_text())["entries"][0]["name"]
    _expect(tac_dir, "weapons.yaml", f"0 '{name}'", "weight")


def test_game_settings_missing_and_wrong_fields(tac_dir: Path) -> None:
    """game.yaml is one object, not a list of entries: the error names file and field."""
    original = (tac_dir / "game.yaml").read_text()
    _edit(tac_dir / "game.yaml", lambda d: d.pop("rounds"))
    err = _expect(tac_dir, "game.yaml", None, "rounds")
    assert "missing" in err.message
    (tac_dir / "game.yaml").write_text(original)
    _edit(tac_dir / "game.yaml", lambda d: d.update(action_points="four"))
    _expect(tac_dir, "game.yaml", None, "action_points")


def test_env_with_a_broken_config_dir_raises_config_error(tac_dir: Path) -> None:
    _edit(tac_dir / "units.yaml", lambda d: d["entries"][0].update(origin="made-up"))
    with pytest.raises(ConfigError, match="units.yaml"):
        tac_v1.raw_env(num_players=2, config_dir=tac_dir)
    with pytest.raises(ConfigError, match="units.yaml"):
        tac_v1.BatchEnv(2, 2, config_dir=tac_dir)
