"""Saved states (replays, bug reports) of every playable ruleset: ``save_states`` /
``load_states`` round-trip bit for bit, the loaded state plays on exactly as the original,
and a file of another env, of other rule tables, or not a state file at all is refused."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest
from _platform import EDGE_CASES, RULESETS, pick

from envs import get_ruleset, make_batch


def _midgame(name: str, num_players: int, steps: int = 40):
    env = make_batch(name, 5, num_players, seed=3)
    r = env.reset()
    rng = np.random.default_rng(1)
    for _ in range(steps):
        r = env.step(np.array([pick(m, rng) for m in r.action_mask], dtype=np.int64))
    return env


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_saved_states_load_bit_for_bit_and_play_on_alike(tmp_path, name, num_players) -> None:
    rs = get_ruleset(name)
    env = _midgame(name, num_players)
    path = rs.save_states(tmp_path / "states", env.state)
    assert path.exists() and path.suffix == ".npz"
    S = rs.load_states(path)
    assert S.dtype == rs.state_dtype
    assert S.tobytes() == env.state.tobytes()
    # the loaded games go on exactly as the originals
    twin = make_batch(name, 5, num_players, seed=3)
    twin.reset()
    twin.state[:] = S
    twin.masks[:] = env.masks
    rng1, rng2 = np.random.default_rng(2), np.random.default_rng(2)
    for _ in range(30):
        a = np.array([pick(m, rng1) for m in env.masks], dtype=np.int64)
        b = np.array([pick(m, rng2) for m in twin.masks], dtype=np.int64)
        env.step(a)
        twin.step(b)
        assert twin.state.tobytes() == env.state.tobytes()


@pytest.mark.parametrize("name", RULESETS)
def test_another_envs_file_is_refused(tmp_path, name) -> None:
    rs = get_ruleset(name)
    env = _midgame(name, rs.min_players, 5)
    other = dataclasses.replace(rs, env_name=rs.env_name + "_other")
    path = other.save_states(tmp_path / "other", env.state)
    with pytest.raises(ValueError, match=f"holds {rs.env_name}_other states, not {rs.env_name}"):
        rs.load_states(path)
    with pytest.raises(ValueError, match="not"):
        other.load_states(rs.save_states(tmp_path / "mine", env.state))


@pytest.mark.parametrize("name", RULESETS)
def test_a_file_of_other_rule_tables_is_refused(tmp_path, name) -> None:
    rs = get_ruleset(name)
    env = _midgame(name, rs.min_players, 5)
    tables = np.array(rs.tables_batch, copy=True)
    tables.view(np.uint8)[0] ^= 1  # one byte of the tables differs
    changed = dataclasses.replace(rs, tables_batch=tables)
    assert changed.fingerprint() != rs.fingerprint()
    path = changed.save_states(tmp_path / "changed", env.state)
    with pytest.raises(ValueError, match="other rule tables"):
        rs.load_states(path)


@pytest.mark.parametrize("name", RULESETS)
def test_what_is_not_a_state_file_is_refused(tmp_path, name) -> None:
    rs = get_ruleset(name)
    np.savez(tmp_path / "x.npz", something=np.zeros(3))
    with pytest.raises(ValueError, match="not a tacsim state file"):
        rs.load_states(tmp_path / "x.npz")
    with pytest.raises(ValueError, match="dtype differs"):
        rs.save_states(tmp_path / "y", np.zeros(3))
    # a file whose states have another layout under the right name and fingerprint
    np.savez(
        tmp_path / "z.npz",
        state=np.zeros(2, dtype=[("a", "i4")]),
        env_name=np.array(rs.env_name),
        fingerprint=np.array(rs.fingerprint()),
    )
    with pytest.raises(ValueError, match="layout differs"):
        rs.load_states(tmp_path / "z.npz")
