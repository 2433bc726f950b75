"""Hidden information through the contract (ARCHITECTURE.md section 6): at many decisions of
random games, for every observer, ``ruleset.resample_hidden(S, me, rng)`` gives another state
that `me` cannot tell apart from S; `me`'s observation, render_text and (where the ruleset
action mask must not change. Controls: every resample really changed
the state, and most change what another player sees (so the resampler moves what is hidden
from `me`, not nothing)."""

from __future__ import annotations

import numpy as np
import pytest
from _platform import CASES, RULESETS, game_rng, pick

from envs import get_ruleset, make_env

SEED = 31


def _observe(env, S: np.ndarray, me: int) -> np.ndarray:
    """me's observation of state S (computed by the env's own kernel)."""
    rs = env.ruleset
    out = np.zeros(rs.observation_size(env.num_players), dtype=np.float32)
    rs.aec_observe(S, rs.tables_batch, me, out)
    return out


def _view(env, S: np.ndarray, me: int) -> tuple[np.ndarray, str]:
    return _observe(env, S, me), env.ruleset.render_text(S, me, 0)


def _decision_states(name: str, num_players: int, n_games: int, every: int, at_least: int):
    """(env, state copy) at every `every`-th decision of random games: n_games of them, more
    while fewer than `at_least` states were given (some rulesets' random games are short:
    a TACTICA random player often surrenders a battle at once), and at most `at_least` from
    one game (others' are long: a random Tactics David game is thousands of decisions)."""
    env = make_env(name, num_players=num_players).unwrapped
    given = 0
    for g in range(1000):
        if g >= n_games and given >= at_least:
            return
        env.reset(seed=SEED, options={"game_index": g})
        rng = game_rng(SEED, g)
        from_this_game = 0
        for i, _agent in enumerate(env.agent_iter()):
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            if i % every == 0:
                if from_this_game == at_least:
                    break
                from_this_game += 1
                given += 1
                yield env, env.state()
            env.step(pick(obs["action_mask"], rng))


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_observation_and_render_unchanged_when_only_hidden_state_changes(
    name: str, num_players: int
) -> None:
    rs = get_ruleset(name)
    rng = np.random.default_rng(num_players)
    checked = changed_state = redrawn = other_sees_change = 0
    # the RNG words every ruleset's state carries (envs/core/rng.py): a fresh draw of them
    # hides future dice; the control below asks for more than that
    words = [f for f in ("rng", "agent_rng") if f in rs.state_dtype.names]
    rest = [f for f in rs.state_dtype.names if f not in words]
    stages = set()
    for env, S in _decision_states(name, num_players, n_games=3, every=4, at_least=80):
        stages.add(int(S["stage"][0]))
        for me in range(num_players):
            base = _view(env, S, me)
            for _ in range(2):
                S2 = rs.resample_hidden(S, me, rng)
                assert S2.dtype == S.dtype and S2.shape == S.shape
                assert np.array_equal(S["stage"], S2["stage"])
                obs, text = _view(env, S2, me)
                where = (
                    f"stage {int(S['stage'][0])}, decision {int(S['decisions'][0])}, observer {me}"
                )
                assert np.array_equal(obs, base[0]), f"observation leaks hidden state ({where})"
                assert text == base[1], f"render leaks hidden state ({where})"
                assert rs.check_state(S2, 0) == [], f"resample broke the state ({where})"
                checked += 1
                changed_state += not np.array_equal(S2.view(np.uint8), S.view(np.uint8))
                redrawn += any(not np.array_equal(S2[f], S[f]) for f in rest)
                others = [q for q in range(num_players) if q != me]
                other_sees_change += any(
                    not np.array_equal(_observe(env, S2, q), _observe(env, S, q)) for q in others
                )
    assert checked > 300
    assert changed_state == checked  # every resample really changed the hidden state
    # ... mostly more than the RNG words: hidden cards, hands, deck orders were redrawn
    assert redrawn > 0.5 * checked
    # ... and another player can see the change: sometimes always, and often where hands are
    # private (Ruleset.private_share: TAC ~100 %, TACTICA ~36 %, its pile orders being hidden
    # from everyone; a ruleset whose hidden things are mostly hidden from everyone, like an
    # Item Deck's order, declares a lower share)
    assert other_sees_change > 0
    assert other_sees_change >= rs.private_share * checked
    assert len(stages) >= 3  # several kinds of decision were sampled


@pytest.mark.parametrize("name", RULESETS)
def test_action_mask_unchanged_when_only_hidden_state_changes(name: str) -> None:
    rs = get_ruleset(name)
    rng = np.random.default_rng(7)
    checked = 0
    for num_players in range(rs.min_players, rs.max_players + 1):
        for env, S in _decision_states(
            name,
            num_players,
            n_games=2,
            every=3,
            at_least=110 // (rs.max_players - rs.min_players + 1),
        ):
            me = int(S["current"][0])
            base = np.zeros(rs.n_actions, dtype=np.int8)
            rs.legal_mask(S, 0, base)
            assert np.array_equal(base, env._mask[0])  # the same mask as the env's
            mask = np.zeros_like(base)
            rs.legal_mask(rs.resample_hidden(S, me, rng), 0, mask)
            assert np.array_equal(mask, base), f"mask leaks hidden state ({num_players}p)"
            checked += 1
    assert checked > 100
