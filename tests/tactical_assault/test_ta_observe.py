"""Tactical Assault observation and hidden information (envs/tactical_assault/observe.py,
hidden.py): FC R34 (my hand by card, the opponent's as a count, no deck's order, not even my
own), LB R23 (forces chosen by points hidden from the other side until deployment), and the
public things the observation must show (units, statuses, facing: LB-4.1, LB-4.2)."""

from __future__ import annotations

from functools import partial

import numpy as np
from ta_helpers import hand, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, state, turn
from envs.tactical_assault.hidden import resample_hidden
from envs.tactical_assault.observe import observation_size, observe


def _obs_tb(S, me, tb):
    out = np.full(observation_size(), -7.0, dtype=np.float32)
    n = observe(S, tb, np.int64(0), np.int64(me), out)
    assert n == observation_size()
    assert (out >= 0.0).all()  # the env's Box(low=0)
    return out


def _swap_with_deck(S, p, k_hand, k_deck):
    """Card k_hand of p's hand and card k_deck of p's deck change places."""
    i = int(np.flatnonzero(S["deck"][0, p, : S["deck_count"][0, p]] == k_deck)[0])
    S["deck"][0, p, i] = k_hand
    S["card_place"][0, p, k_hand] = state.PLACE_DECK
    S["card_place"][0, p, k_deck] = state.PLACE_HAND


def test_my_hand_shows_the_opponents_only_as_a_count(crossroads):
    """FC R34: a player sees its own hand card by card, the opponent's as a count."""
    _obs = partial(_obs_tb, tb=crossroads)
    S = started(crossroads)
    base = [_obs(S, me) for me in (0, 1)]
    for p in (0, 1):
        T = S.copy()
        k_hand = int(np.flatnonzero(T["card_place"][0, p] == state.PLACE_HAND)[0])
        k_deck = int(T["deck"][0, p, 0])
        _swap_with_deck(T, p, k_hand, k_deck)
        assert np.array_equal(_obs(T, 1 - p), base[1 - p])  # the opponent sees nothing
        assert not np.array_equal(_obs(T, p), base[p])  # the owner sees the new card
        # the hand's size is public
        T = S.copy()
        T["card_place"][0, p, k_hand] = state.PLACE_DISCARD
        assert not np.array_equal(_obs(T, 1 - p), base[1 - p])


def test_no_deck_order_shows_not_even_the_owners(crossroads):
    """Issue 7, FC R34: a player's own deck order is hidden from that player too."""
    _obs = partial(_obs_tb, tb=crossroads)
    S = started(crossroads)
    for p in (0, 1):
        T = S.copy()
        n = int(T["deck_count"][0, p])
        T["deck"][0, p, :n] = T["deck"][0, p, :n][::-1]
        assert not np.array_equal(T["deck"], S["deck"])
        for me in (0, 1):
            assert np.array_equal(_obs(T, me), _obs(S, me))


def test_units_statuses_and_facing_are_public(crossroads):
    """LB-4.1 / LB-4.2: a unit's type, side, zone, facing and status tokens are seen by both."""
    _obs = partial(_obs_tb, tb=crossroads)
    S = started(crossroads)
    u = int(np.flatnonzero(S["unit_where"][0] == state.WHERE_ON)[0])
    for change in (
        lambda T: T["unit_status"][0].__setitem__(u, state.STATUS_SHAKEN),
        lambda T: T["unit_facing"][0].__setitem__(u, (int(T["unit_facing"][0, u]) + 1) % 4),
        lambda T: T["unit_pos"][0].__setitem__(u, int(T["unit_pos"][0, u]) + 1),
    ):
        T = S.copy()
        change(T)
        for me in (0, 1):
            assert not np.array_equal(_obs(T, me), _obs(S, me))


def _choosing(greywater, seat: int, picks: int = 3) -> np.ndarray:
    """Greywater Ford reset, seat 0 having chosen `picks` units, and seat `seat` to choose."""
    S = state.allocate(1)
    flow.reset_game(S, greywater, 0, 3, 0)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    for _ in range(picks):
        assert S["stage"][0] == A.STAGE_CHOOSE_FORCE and S["current"][0] == 0
        turn.legal_actions(S, greywater, 0, out)
        assert out[1] == A.A_UNIT + 1  # ARCHER (Table 3 order; AERIAL would stay off-map)
        turn.apply_action(S, greywater, 0, int(out[1]))
    if seat == 1:
        turn.apply_action(S, greywater, 0, A.A_PASS)
        assert S["stage"][0] == A.STAGE_CHOOSE_FORCE and S["current"][0] == 1
    return S


def test_forces_chosen_by_points_stay_hidden_until_deployment(greywater):
    """LB R23: while seat 1 chooses, seat 0's choice (types, count, points) is unseen by
    seat 1; seat 0 sees its own choice; at deployment both forces show."""
    _obs = partial(_obs_tb, tb=greywater)
    S = _choosing(greywater, seat=1)
    mine = [u for u in range(state.MAX_UNITS) if S["unit_side"][0, u] == 0]
    assert len(mine) == 3
    T = S.copy()
    old = int(T["unit_type"][0, mine[0]])
    new = next(t for t in range(20) if greywater.sc_allowed[0, t] and t != old)
    T["unit_type"][0, mine[0]] = new
    T["force"][0, 0, old] -= 1
    T["force"][0, 0, new] += 1
    T["points_total"][0, 0] += int(greywater.type_points[new] - greywater.type_points[old])
    assert np.array_equal(_obs(T, 1), _obs(S, 1))
    assert not np.array_equal(_obs(T, 0), _obs(S, 0))
    # once deployment begins the forces show
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    for X in (S, T):
        turn.legal_actions(X, greywater, 0, out)
        turn.apply_action(X, greywater, 0, int(out[1]))  # seat 1 adds an ARCHER
        turn.apply_action(X, greywater, 0, A.A_PASS)  # and is done
        assert X["stage"][0] == A.STAGE_DEPLOY_UNIT
    assert not np.array_equal(_obs(T, 1), _obs(S, 1))


def test_resample_redeals_only_what_the_player_cannot_know(crossroads, greywater):
    _obs = partial(_obs_tb, tb=crossroads)
    rng = np.random.default_rng(0)
    S = started(crossroads)
    hand(S, 0, [1, 2, 3])
    for me in (0, 1):
        opp = 1 - me
        R = resample_hidden(S, me, rng, crossroads)
        assert np.array_equal(R["card_place"][0, me], S["card_place"][0, me])  # my hand stays
        n = int(S["deck_count"][0, me])
        assert sorted(R["deck"][0, me, :n]) == sorted(S["deck"][0, me, :n])
        assert (R["card_place"][0, opp] == 1).sum() == (S["card_place"][0, opp] == 1).sum()
        assert not np.array_equal(R["card_place"][0, opp], S["card_place"][0, opp])
        assert np.array_equal(_obs(R, me), _obs(S, me))
    # while seat 1 chooses its force, seat 0's choice is redrawn within its points
    _obs = partial(_obs_tb, tb=greywater)
    S = _choosing(greywater, seat=1, picks=4)
    R = resample_hidden(S, 1, rng, greywater)
    assert R["points_total"][0, 0] <= greywater.sc_force_points[0]
    assert (R["unit_side"][0] == 0).sum() == 4
    assert R["force"][0, 0].sum() == 4
    assert np.array_equal(_obs(R, 1), _obs(S, 1))


def test_the_chosen_card_is_face_up(crossroads):
    """FC R34: the card part chosen to be played (its unit asked next) is seen by both."""
    _obs = partial(_obs_tb, tb=crossroads)
    S = started(crossroads)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    n = turn.legal_actions(S, crossroads, 0, out)
    a = int(out[0])
    assert a < A.A_DISCARD and n > 1
    turn.apply_action(S, crossroads, 0, a)
    assert S["stage"][0] == A.STAGE_PLAY_UNIT
    p = int(S["current"][0])
    sel = int(S["sel_card"][0])
    other = [k for k in np.flatnonzero(S["card_place"][0, p] == state.PLACE_HAND) if k != sel]
    T = S.copy()
    T["sel_card"][0] = other[0]
    assert not np.array_equal(_obs(T, 1 - p), _obs(S, 1 - p))


def test_every_phase_has_its_own_place_in_the_phase_one_hot():
    """The frame's phase one-hot is as long as there are phases: a phase numbered past it
    would show as no phase at all (observe._one_hot drops out-of-range values)."""
    from envs.tactical_assault import resolve
    from envs.tactical_assault.observe import N_PHASES

    phases = {v for k, v in vars(resolve).items() if k.startswith("PH_") and isinstance(v, int)}
    assert phases == set(range(N_PHASES))
