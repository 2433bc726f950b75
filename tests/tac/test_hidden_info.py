"""Hidden information (ARCHITECTURE.md section 6; issue 2, section 6): an observation never
changes when only what its player cannot know changes.

At many decision points of random games, for every observer, the hidden parts of the state
are resampled as another deal consistent with everything public: other players' hands are
shuffled together with the draw pile (2.4: face down), other players' face-down defences
change type among black cards (10.8: the defender need not reveal them), the reinforcement
piles are reordered below their face-up top cards (2.1), during the deployment (2.2) other
players' units move to other rows, and the dice and agent RNG states change. observe(), the action mask (when the observer is to act) and the ansi render of that
observer must stay identical. Controls show each part of the resampling is visible to the
player it belongs to, and that changing the observer's own hand changes its observation.
"""

from __future__ import annotations

import numpy as np
import pytest
from _helpers_api import game_rng, pick

from envs.tac import tac_v1
from envs.tac.actions import N_ACTIONS
from envs.tac.hidden import resample_deployment
from envs.tac.hidden import resample_hidden as _resample_hidden
from envs.tac.kernels import fill_mask
from envs.tac.render import render_text
from envs.tac.state import DEF_FACE_DOWN, STAGE_DEPLOY
from envs.tac.tables import BLACK, default_tables

TABLES = default_tables()
TB = TABLES.arrays


def _colour(card: int) -> int:
    return int(TB.card_type_colour[TB.card_type[card]])


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator) -> np.ndarray:
    return _resample_hidden(S, me, rng, TB)


def _view(env: tac_v1.raw_env, S: np.ndarray, me: int) -> tuple[np.ndarray, np.ndarray, str]:
    """(observation, mask as the kernels compute it from S, render text) of player `me`."""
    saved = env.state_arrays.copy()
    env.state_arrays[:] = S
    try:
        obs = env.observe(f"player_{me}")["observation"]
    finally:
        env.state_arrays[:] = saved
    mask = np.zeros(N_ACTIONS, dtype=np.int8)
    if int(S["current"][0]) == me:
        fill_mask(S, TB, np.int64(0), mask, np.empty(N_ACTIONS, dtype=np.int16))
    return obs, mask, render_text(S, me, TABLES)


def _decision_states(num_players: int, n_games: int, every: int):
    """(env, state copy) at every `every`-th decision of n_games random games."""
    env = tac_v1.raw_env(num_players=num_players)
    for g in range(n_games):
        env.reset(seed=31, options={"game_index": g})
        rng = game_rng(31, g)
        for i, _agent in enumerate(env.agent_iter()):
            obs, _, terminated, _, _ = env.last()
            if terminated:
                env.step(None)
                continue
            if i % every == 0:
                yield env, env.state_arrays.copy()
            env.step(pick(obs["action_mask"], rng))


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_observation_unchanged_when_only_hidden_cards_change(num_players: int) -> None:
    rng = np.random.default_rng(num_players)
    checked = changed_state = other_sees_change = 0
    seen_stages = set()
    for env, S in _decision_states(num_players, n_games=3, every=4):
        seen_stages.add(int(S["stage"][0]))
        for me in range(num_players):
            base = _view(env, S, me)
            for _ in range(2):
                S2 = resample_hidden(S, me, rng)
                obs, mask, text = _view(env, S2, me)
                where = f"stage {int(S['stage'][0])}, observer {me}"
                assert np.array_equal(obs, base[0]), f"observation leaks hidden cards ({where})"
                assert np.array_equal(mask, base[1]), f"action mask leaks hidden cards ({where})"
                assert text == base[2], f"render leaks hidden cards ({where})"
                checked += 1
                changed_state += not np.array_equal(S2.view(np.uint8), S.view(np.uint8))
                # control: the player whose hand was reshuffled does see the change
                q = (me + 1) % num_players
                other_sees_change += not np.array_equal(_view(env, S2, q)[0], _view(env, S, q)[0])
    assert checked > 300
    assert changed_state == checked  # every resample really changed the hidden state
    assert other_sees_change > 0.8 * checked
    assert (
        len(seen_stages) >= 5
    )  # mode, HQ/reposition, attack, defence, ending decisions all sampled


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_deployment_of_others_is_hidden_during_the_deploy_stage(num_players: int) -> None:
    """2.2 (ours): while players deploy, where another player put units is hidden: resampling
    it changes no observation, mask or render of the observer; the deploying player's own
    placements do show to himself (control)."""
    rng = np.random.default_rng(100 + num_players)
    env = tac_v1.raw_env(num_players=num_players)
    checked = own_seen = 0
    for g in range(4):
        env.reset(seed=5, options={"game_index": g})
        grng = game_rng(5, g)
        while int(env.state_arrays["stage"][0]) == STAGE_DEPLOY:
            S = env.state_arrays.copy()
            for me in range(num_players):
                S2 = S.copy()
                resample_deployment(S2, me, rng)
                base = _view(env, S, me)
                obs, mask, text = _view(env, S2, me)
                assert np.array_equal(obs, base[0]), f"observation shows others' rows ({me})"
                assert np.array_equal(mask, base[1])
                assert text == base[2], "render shows others' rows"
                checked += not np.array_equal(S2["team_row"], S["team_row"])
                q = int(S["current"][0])  # control: the deploying seat sees its own rows
                if q != me and not np.array_equal(S2["team_row"][0, q], S["team_row"][0, q]):
                    own_seen += not np.array_equal(_view(env, S2, q)[0], _view(env, S, q)[0])
            env.step(pick(env.observe(env.agent_selection)["action_mask"], grng))
    assert checked > 50
    assert own_seen > 20


def test_face_down_defence_type_is_hidden_from_others_only() -> None:
    """10.8: other players see that a face-down card lies on a row, not what it is; its
    owner sees its type."""
    rng = np.random.default_rng(0)
    found = 0
    for env, S in _decision_states(2, n_games=6, every=1):
        down = np.argwhere(
            (S["defence_state"][0] == DEF_FACE_DOWN) & (S["defence_revealed"][0] == 0)
        )
        for q, d in down:
            card = int(S["defence_card"][0, q, d])
            # exchange the laid card with a black card of another type from the draw pile
            n = int(S["draw_count"][0])
            swap = [
                i
                for i in range(n)
                if _colour(S["draw"][0, i]) == BLACK
                and TB.card_type[S["draw"][0, i]] != TB.card_type[card]
            ]
            if not swap:
                continue
            i = int(rng.choice(swap))
            S2 = S.copy()
            S2["defence_card"][0, q, d], S2["draw"][0, i] = S["draw"][0, i], card
            q = int(q)
            assert not np.array_equal(_view(env, S2, q)[0], _view(env, S, q)[0])
            assert np.array_equal(_view(env, S2, 1 - q)[0], _view(env, S, 1 - q)[0])
            found += 1
        if found >= 20:
            break
    assert found >= 20


@pytest.mark.parametrize("num_players", [2, 4])
def test_changing_my_own_hand_changes_my_observation(num_players: int) -> None:
    checked = 0
    for env, S in _decision_states(num_players, n_games=1, every=9):
        for me in range(num_players):
            hand = S["hand"][0, me]
            h = int(np.flatnonzero(hand >= 0)[0]) if (hand >= 0).any() else -1
            n = int(S["draw_count"][0])
            if h < 0 or n == 0:
                continue
            mine = int(hand[h])
            # a draw-pile card of another type: swapping keeps every card in one place
            j = next(
                (i for i in range(n) if TB.card_type[S["draw"][0, i]] != TB.card_type[mine]),
                None,
            )
            if j is None:
                continue
            S2 = S.copy()
            S2["hand"][0, me, h], S2["draw"][0, j] = S["draw"][0, j], mine
            assert not np.array_equal(_view(env, S2, me)[0], _view(env, S, me)[0])
            checked += 1
    assert checked > 20
