"""Tactics David observation and hidden information (envs/tactics_david/observe.py, hidden.py).

What is public (TD-2.1: units on the battlefield with their Status and Item cards) and what is
hidden (R54: the opponent's reserve; the Item Deck's order from both): changes to public parts
change both players' observations, changes to hidden parts change nobody's (or only the
owner's), and resample_hidden keeps the observer's observation while redrawing the rest."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactics_david import kernels as K
from envs.tactics_david import state as st
from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS, STAGE_DEPLOY_UNIT, STAGE_ENGAGE
from envs.tactics_david.hidden import resample_hidden
from envs.tactics_david.invariants import violations
from envs.tactics_david.observe import N_STAGE_SLOTS, observation_size, observe
from envs.tactics_david.record import build_record
from tests.tactics_david.td_board import TABLES

TB = build_record(TABLES, battlefield=0)
B0 = np.int64(0)


def _obs(S, me):
    out = np.full(observation_size(), -1.0, dtype=np.float32)
    assert observe(S, TB, B0, np.int64(me), out) == observation_size()
    return out


def _play(decisions, seed=3):
    """A game after `decisions` random decisions (numpy RNG)."""
    rng = np.random.default_rng(seed)
    S = st.allocate(1)
    buf = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.start_one(S, TB, B0, np.int64(seed), np.int64(0), buf)
    for _ in range(decisions):
        n = K.apply_one(S, TB, B0, np.int64(buf[rng.integers(n)]), buf)
    return S


def _deploying():
    """A game in deployment with units of both seats in reserve and some on the field."""
    S = _play(5)  # first player, then two units deployed (a unit and its space each)
    assert S["stage"][0] == STAGE_DEPLOY_UNIT
    for p in (0, 1):
        assert (S["unit_place"][0, p * st.MAX_UNITS : (p + 1) * st.MAX_UNITS] == 1).sum() >= 2
    return S


def _on_field(S, p):
    return next(
        u
        for u in range(p * st.MAX_UNITS, (p + 1) * st.MAX_UNITS)
        if S["unit_place"][0, u] == st.PLACE_FIELD
    )


def test_observation_is_finite_non_negative_and_fills_its_size():
    S = _play(200)
    for me in (0, 1):
        o = _obs(S, me)
        assert np.isfinite(o).all() and (o >= 0).all() and (o <= 2.0).all()


def test_status_and_item_cards_on_the_battlefield_are_public():
    """TD-2.1: a Status or an Item on a unit on the battlefield changes both players'
    observations (whoever owns the unit)."""
    S = _play(200)
    assert S["stage"][0] != 9
    for p in (0, 1):
        u = _on_field(S, p)
        R = S.copy()
        R["unit_status"][0, u, TABLES.status_index["Poisoned"]] = 2
        T = S.copy()
        T["unit_item"][0, u, 0] = -1 if S["unit_item"][0, u, 0] >= 0 else 0
        for me in (0, 1):
            assert not np.array_equal(_obs(R, me), _obs(S, me))
            assert not np.array_equal(_obs(T, me), _obs(S, me))


def test_the_opponents_reserve_is_hidden_and_my_own_is_not():
    """R54: what a unit in reserve is shows to its owner only; the number in reserve to both."""
    S = _deploying()
    for p in (0, 1):
        u = next(
            u
            for u in range(p * st.MAX_UNITS, (p + 1) * st.MAX_UNITS)
            if S["unit_place"][0, u] == st.PLACE_RESERVE
        )
        R = S.copy()
        other = (int(S["unit_member"][0, u, 0]) + 1) % int(TB.n_profiles)
        R["unit_member"][0, u, 0] = other
        R["unit_strength"][0, u] = TB.u_strength[other]
        assert not np.array_equal(_obs(R, p), _obs(S, p))  # the owner sees it
        assert np.array_equal(_obs(R, 1 - p), _obs(S, 1 - p))  # the opponent does not
        R = S.copy()  # one unit fewer in reserve: both see that
        R["unit_place"][0, u] = st.PLACE_REMOVED
        assert not np.array_equal(_obs(R, 1 - p), _obs(S, 1 - p))


def test_the_item_deck_order_is_hidden_from_both_but_its_contents_are_public():
    S = _play(50)
    n = int(S["deck_count"][0])
    assert n > 2
    R = S.copy()
    R["deck"][0, :n] = R["deck"][0, :n][::-1]
    T = S.copy()  # the top card gone from the deck: its contents change
    T["deck_count"][0] = n - 1
    for me in (0, 1):
        assert np.array_equal(_obs(R, me), _obs(S, me))
        assert not np.array_equal(_obs(T, me), _obs(S, me))


@pytest.mark.parametrize("decisions", [3, 6, 9, 300, 2000])
def test_resample_hidden_keeps_the_observers_view_and_redraws_the_rest(decisions):
    """Both observers: the observation and (when it decides) the legal actions stay; the state
    stays sound; the opponent's reserve (in deployment) and the deck order are redrawn."""
    S = _play(decisions)
    rng = np.random.default_rng(decisions)
    for me in (0, 1):
        base = _obs(S, me)
        mask = np.zeros(N_ACTIONS, dtype=np.int8)
        K.fill_mask(S, TB, B0, mask, np.zeros(MAX_LEGAL, dtype=np.int64))
        seen_other = 0
        for _ in range(4):
            R = resample_hidden(S, me, rng, TB)
            assert np.array_equal(_obs(R, me), base)
            assert violations(R, TB, 0) == []
            if S["deck_count"][0] >= 6:  # 1 in 720 at worst to come back in the same order
                assert R["deck"][0].tolist() != S["deck"][0].tolist()
            if S["current"][0] == me:
                got = np.zeros(N_ACTIONS, dtype=np.int8)
                K.fill_mask(R, TB, B0, got, np.zeros(MAX_LEGAL, dtype=np.int64))
                assert np.array_equal(got, mask)
            seen_other += not np.array_equal(_obs(R, 1 - me), _obs(S, 1 - me))
        reserve = (S["unit_place"][0, (1 - me) * st.MAX_UNITS :][: st.MAX_UNITS] == 1).sum()
        if reserve >= 2:
            assert seen_other > 0  # the opponent's own reserve was redrawn
    if decisions > 100:
        assert S["stage"][0] != STAGE_DEPLOY_UNIT


def test_a_resampled_reserve_stays_within_the_purchase_limit():
    S = _deploying()
    rng = np.random.default_rng(0)
    for _ in range(50):
        R = resample_hidden(S, 0, rng, TB)
        assert R["army_cost"][0, 1] <= R["purchase_limit"][0]
        assert R["army_size"][0, 1] == S["army_size"][0, 1]
        assert R["army_bought"][0, 1].sum() == S["army_size"][0, 1]
        assert (R["unit_member"][0, : st.MAX_UNITS] == S["unit_member"][0, : st.MAX_UNITS]).all()


def test_resample_hidden_rejects_a_bad_seat():
    with pytest.raises(ValueError, match="2"):
        resample_hidden(_play(0), 2, np.random.default_rng(0), TB)


def test_the_engaging_player_decides_on_public_information():
    """At STAGE_ENGAGE the deciding player's observation says it decides and which stage."""
    rng = np.random.default_rng(1)
    S = _play(400)
    buf = np.zeros(MAX_LEGAL, dtype=np.int64)
    while S["stage"][0] != STAGE_ENGAGE:
        n = K.legal(S, TB, B0, buf)
        K.apply_one(S, TB, B0, np.int64(buf[rng.integers(n)]), buf)
    me = int(S["current"][0])
    o = _obs(S, me)
    decide = N_STAGE_SLOTS  # "I decide" follows the stage one-hot
    assert o[STAGE_ENGAGE] == 1.0 and o[decide] == 1.0
    assert _obs(S, 1 - me)[decide] == 0.0
