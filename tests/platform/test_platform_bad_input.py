"""Bad input to every entry point, for every registered ruleset (ARCHITECTURE.md sections 5,
7 and 8): unknown and data-only rulesets, player counts outside the ruleset's range, bad seeds
and batch sizes, malformed action arrays, non-integer actions, and illegal actions (a
ValueError naming the action and the decision, nothing changed; or the penalty mode)."""

from __future__ import annotations

import numpy as np
import pytest
from _platform import DATA_ONLY, EDGE_CASES, RULESETS, game_rng, illegal, pick

import envs
from envs import get_ruleset, make_batch, make_env, registry
from envs.registry import UnknownRuleset
from tests.integration.rulesets import register_data_only

ENTRY_POINTS = {
    "make_env": lambda name: make_env(name),
    "make_batch": lambda name: make_batch(name, 2),
    "get_ruleset": lambda name: envs.get_ruleset(name),
}

# ---------------------------------------------------------------- which ruleset


@pytest.mark.parametrize("entry", ENTRY_POINTS.values(), ids=ENTRY_POINTS.keys())
@pytest.mark.parametrize("name", ["chess", "", "TAC", "tac_v1"])
def test_unknown_ruleset_is_refused(entry, name) -> None:
    with pytest.raises(UnknownRuleset, match=f"unknown ruleset {name!r}") as exc:
        entry(name)
    for known in registry.names():
        assert known in str(exc.value)  # the message says what exists


@pytest.mark.parametrize("entry", ENTRY_POINTS.values(), ids=ENTRY_POINTS.keys())
@pytest.mark.parametrize("name", DATA_ONLY)
def test_data_only_ruleset_is_refused(entry, name, monkeypatch) -> None:
    register_data_only(monkeypatch)
    with pytest.raises(UnknownRuleset, match=f"ruleset {name!r} is data only") as exc:
        entry(name)
    for playable in registry.names(playable_only=True):
        assert playable in str(exc.value)
    assert isinstance(exc.value, ValueError)


def test_registry_lists_every_ruleset_with_its_state() -> None:
    listed = envs.rulesets()
    assert set(listed) == set(registry.names())
    # the tools take a ruleset in progress as they take a playable one (envs/registry.py)
    assert {n for n, s in listed.items() if s in ("playable", "in progress")} == set(
        registry.names(playable_only=True)
    )


# ---------------------------------------------------------------- players, seeds, sizes


def _constructors(name: str) -> dict:
    return {
        "make_env": lambda n: make_env(name, num_players=n),
        "make_batch": lambda n: make_batch(name, 4, num_players=n),
    }


@pytest.mark.parametrize("name", RULESETS)
def test_players_outside_the_range_are_refused(name: str) -> None:
    rs = get_ruleset(name)
    lo, hi = rs.min_players, rs.max_players
    for what, make in _constructors(name).items():
        for n in (lo - 1, 0, -2, hi + 1, float(lo), str(lo), None, lo + 0.5):
            with pytest.raises(ValueError, match=rf"num_players must be an integer {lo}\.\.{hi}"):
                make(n)
        for n in (lo, hi):
            make(n)  # the bounds are accepted
        assert what


@pytest.mark.parametrize("name", RULESETS)
def test_bad_seeds_and_sizes_are_refused(name: str) -> None:
    for seed in (-1, 1.5, "3", None):
        with pytest.raises(ValueError, match="seed"):
            make_batch(name, 2, seed=seed)
    for num_envs in (0, -3, 2.0, "4"):
        with pytest.raises(ValueError, match="num_envs"):
            make_batch(name, num_envs)
    with pytest.raises(ValueError, match="threads"):
        make_batch(name, 2, threads=0)
    env = make_env(name).unwrapped
    for seed in (-3, 2.5, "1"):
        with pytest.raises(ValueError, match="seed"):
            env.reset(seed=seed)
    with pytest.raises(ValueError, match="game_index"):
        env.reset(seed=0, options={"game_index": -1})
    with pytest.raises(ValueError, match="illegal_action"):
        make_env(name, illegal_action="ignore")
    with pytest.raises(ValueError, match="render_mode"):
        make_env(name, render_mode="rgb_array")


# ---------------------------------------------------------------- actions


@pytest.mark.parametrize("name", RULESETS)
def test_batch_env_refuses_malformed_action_arrays(name: str) -> None:
    env = make_batch(name, 3, seed=0)
    r = env.reset()
    state, masks = env.state.tobytes(), env.masks.copy()
    good = np.array([pick(m, np.random.default_rng(0)) for m in r.action_mask])
    for actions in (
        good[:2],
        good.reshape(3, 1),
        good.astype(np.float64),
        good.astype(str),
        np.concatenate([good, good]),
        good[0],
        [float(x) for x in good],
    ):
        with pytest.raises(ValueError, match="actions must be an integer array"):
            env.step(actions)
    assert env.state.tobytes() == state and np.array_equal(env.masks, masks)
    env.step(good.astype(np.int32))  # any integer dtype of the right shape is accepted


@pytest.mark.parametrize("name", RULESETS)
@pytest.mark.parametrize("action", [None, 1.0, "3", np.float32(2.0), [1]])
def test_non_integer_action_raises_in_aec(name: str, action) -> None:
    env = make_env(name).unwrapped
    env.reset(seed=0)
    before = env.state_arrays.tobytes()
    with pytest.raises(ValueError, match="action must be an integer"):
        env.step(action)
    assert env.state_arrays.tobytes() == before


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_illegal_action_raises_and_changes_nothing_in_aec(name: str, num_players: int) -> None:
    rs = get_ruleset(name)
    env = make_env(name, num_players=num_players).unwrapped
    env.reset(seed=3)
    rng, bad_rng = game_rng(3, 0), np.random.default_rng(1)
    tried = 0
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        mask = env.observe(agent)["action_mask"]
        if tried < 200:
            for a in (illegal(mask, bad_rng), -1, rs.n_actions):
                before = env.state_arrays.tobytes()
                obs_before = env.observe(agent)
                decision = rs.decision_name(env.state_arrays, 0)
                with pytest.raises(ValueError) as exc:
                    env.step(a)
                msg = str(exc.value)
                assert rs.describe_action(a) in msg and decision in msg and agent in msg
                assert "nothing was changed" in msg
                assert env.state_arrays.tobytes() == before
                assert env.agent_selection == agent
                after = env.observe(agent)
                assert np.array_equal(after["observation"], obs_before["observation"])
                assert np.array_equal(after["action_mask"], obs_before["action_mask"])
                tried += 1
        env.step(pick(mask, rng))
    assert tried >= 60  # illegal actions were tried all through a game


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_illegal_action_raises_and_changes_nothing_in_batch_env(
    name: str, num_players: int
) -> None:
    rs = get_ruleset(name)
    B = 6
    env = make_batch(name, B, num_players, seed=4)
    r = env.reset()
    bad_rng = np.random.default_rng(2)
    rngs = [game_rng(4, g) for g in range(B)]
    for step in range(120):
        good = np.array([pick(r.action_mask[b], rngs[b]) for b in range(B)], dtype=np.int64)
        victim = step % B
        for wrong in (illegal(r.action_mask[victim], bad_rng), -1, rs.n_actions):
            bad = good.copy()
            bad[victim] = wrong
            state, masks = env.state.tobytes(), env.masks.copy()
            decision = rs.decision_name(env.state, victim)
            with pytest.raises(ValueError) as exc:
                env.step(bad)
            msg = str(exc.value)
            assert f"game {victim}" in msg and rs.describe_action(wrong) in msg
            assert decision in msg
            assert env.state.tobytes() == state  # no game moved, not even the legal ones
            assert np.array_equal(env.masks, masks)
        r = env.step(good)
        for b in np.flatnonzero(r.terminated):
            rngs[b] = game_rng(4, int(r.game_index[b]))


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_penalty_mode_ends_the_game_with_the_penalty_to_the_offender(
    name: str, num_players: int
) -> None:
    env = make_env(name, num_players=num_players, illegal_action="penalty").unwrapped
    env.reset(seed=8)
    rng = game_rng(8, 0)
    for _ in range(30):  # some way into the game
        if env.terminations[env.agent_selection]:
            break
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))
    assert not env.terminations[env.agent_selection]
    offender = env.agent_selection
    before = env.state_arrays.tobytes()
    env.step(illegal(env.observe(offender)["action_mask"], np.random.default_rng(0)))
    assert env.state_arrays.tobytes() == before  # the game state itself is not touched
    assert all(env.terminations.values())
    assert "is illegal" in env.infos[offender]["illegal_action"]
    final = {}
    for agent in env.agent_iter():
        _, reward, terminated, _, _ = env.last()
        assert terminated
        final[agent] = reward
        env.step(None)
    assert final[offender] == env.illegal_reward == -1.0
    assert all(r == 0.0 for a, r in final.items() if a != offender)
    assert set(final) == set(env.possible_agents)
