"""TACTICA observation and hidden information (envs/tactica/observe.py, hidden.py).

What is secret (TT-B.5.1 piles face down, their order hidden from everyone; TT-B.5.2 the
Barracks secret, its size public; TT-B.4.5 a Spy shows the opponent's Barracks to the picker):
at many decisions of random wars, for both observers, resampling the hidden parts leaves the
observer's observation unchanged, and the deciding player's legal actions too; the controls
check that the observation does see what it must (my Barracks, the spied Barracks)."""

from __future__ import annotations

import numpy as np

from envs.tactica import turn
from envs.tactica.actions import A_SURRENDER, N_ACTIONS, STAGE_MUSTER_HEX, STAGE_SPY_PICK
from envs.tactica.hidden import determinize, resample_hidden
from envs.tactica.observe import observation_size, observe
from envs.tactica.piles import conservation_error, feature_error, reset_war
from envs.tactica.state import (
    PLACE_BARRACKS,
    PLACE_LOST,
    STAGE_GAME_OVER,
    allocate,
)
from envs.tactica.tables import MAX_ARMY_CARDS, load_tables

TABLES = load_tables()
TB = TABLES.arrays
GEO = TABLES.battlefield
GEOM = (GEO.neighbours, GEO.distance, GEO.wall_zone, GEO.lof_crossed, GEO.lof_edges)
MAX_DECISIONS = 20_000


def _obs(S, me):
    out = np.empty(observation_size(), dtype=np.float32)
    n = observe(S, TB, np.int64(0), np.int64(me), out)
    assert n == observation_size()
    return out


def _legal(S):
    out = np.empty(N_ACTIONS, dtype=np.int16)
    n = turn.legal_actions(S, TB, *GEOM, np.int64(0), out)
    return out[:n].copy()


def _random_war(seed, advanced, rng, visit):
    """Random legal play of one war; visit(S) at every decision."""
    S = allocate(1)
    S["advanced"][0] = advanced
    b = np.int64(0)
    reset_war(S, TB, b, np.int64(seed), np.int64(0))
    turn.advance(S, TB, *GEOM, b)
    for _ in range(MAX_DECISIONS):
        if S["stage"][0] == STAGE_GAME_OVER:
            return
        visit(S)
        legal = _legal(S)
        if len(legal) > 1 and legal[-1] == A_SURRENDER and rng.random() > 0.01:
            legal = legal[:-1]
        turn.apply_action(S, TB, *GEOM, b, np.int64(legal[rng.integers(len(legal))]))
    raise AssertionError("war not over")


def _barracks_names(S, p):
    names = []
    for k in range(int(TB.n_army_cards)):
        c = p * MAX_ARMY_CARDS + k
        if S["card_place"][0, c] == PLACE_BARRACKS:
            names.append(int(TB.army_card[k]))
    return sorted(names)


def test_resampling_the_hidden_parts_changes_neither_observation_nor_the_deciders_legal_actions():
    """TT-B.5.1, TT-B.5.2, TT-B.4.5: nothing `me` sees moves; the resampled world is a valid
    state (every card in one place) and does change what `me` cannot see."""
    rng = np.random.default_rng(3)
    seen = {"checked": 0, "changed": 0, "spy": 0}

    def visit(S):
        if rng.random() > 0.15 and S["stage"][0] != STAGE_SPY_PICK:
            return
        for me in (0, 1):
            R = resample_hidden(S, me, rng, TB)
            assert conservation_error(R, TB, np.int64(0)) == 0
            assert feature_error(R, TB, np.int64(0)) == 0
            assert np.array_equal(_obs(R, me), _obs(S, me)), f"stage {S['stage'][0]} me {me}"
            assert _barracks_names(R, me) == _barracks_names(S, me)
            spying = S["stage"][0] == STAGE_SPY_PICK and S["current"][0] == me
            if spying:
                seen["spy"] += 1
                assert _barracks_names(R, 1 - me) == _barracks_names(S, 1 - me)
            if S["current"][0] == me:
                assert np.array_equal(_legal(R), _legal(S)), f"stage {S['stage'][0]}"
            seen["checked"] += 1
            if R["card_place"].tobytes() != S["card_place"].tobytes() or (
                R["pile"].tobytes() != S["pile"].tobytes()
            ):
                seen["changed"] += 1

    for seed, advanced in ((1, False), (2, True), (4, True)):
        _random_war(seed, advanced, rng, visit)
    assert seen["checked"] > 200
    assert seen["spy"] > 0  # Spy picks were reached (every one is checked)
    assert seen["changed"] > seen["checked"] // 2  # the resampling does redraw something


def _mid_war_state(seed=7, decisions=60):
    """A state some way into a random war, with cards in both Barracks."""
    rng = np.random.default_rng(seed)
    S = allocate(1)
    S["advanced"][0] = True
    b = np.int64(0)
    reset_war(S, TB, b, np.int64(seed), np.int64(0))
    turn.advance(S, TB, *GEOM, b)
    for _ in range(decisions):
        legal = _legal(S)
        legal = legal[legal != A_SURRENDER] if len(legal) > 1 else legal
        turn.apply_action(S, TB, *GEOM, b, np.int64(legal[rng.integers(len(legal))]))
    assert _barracks_names(S, 0) and _barracks_names(S, 1)
    return S


def _swap_barracks_card(S, p):
    """Swap one of p's Barracks cards with a card of another name from p's piles."""
    R = S.copy()
    for k in range(int(TB.n_army_cards)):
        c = p * MAX_ARMY_CARDS + k
        if R["card_place"][0, c] != PLACE_BARRACKS:
            continue
        for pile in (0, 1):
            n = int(R["pile_count"][0, p, pile])
            for j in range(n):
                d = int(R["pile"][0, p, pile, j])
                if TB.army_card[d % MAX_ARMY_CARDS] != TB.army_card[k]:
                    R["pile"][0, p, pile, j] = c
                    R["card_place"][0, c] = pile
                    R["card_place"][0, d] = PLACE_BARRACKS
                    assert conservation_error(R, TB, np.int64(0)) == 0
                    return R
    raise AssertionError("no swap found")


def test_my_barracks_is_in_my_observation_and_the_opponents_is_not():
    """TT-B.5.2: a change to my Barracks changes my observation; a change to the opponent's
    Barracks (same size) is invisible to me, outside a Spy pick."""
    S = _mid_war_state()
    for me in (0, 1):
        assert not np.array_equal(_obs(_swap_barracks_card(S, me), me), _obs(S, me))
        if not (S["stage"][0] == STAGE_SPY_PICK and S["current"][0] == me):
            assert np.array_equal(_obs(_swap_barracks_card(S, 1 - me), me), _obs(S, me))


def test_barracks_size_and_public_places_are_visible_to_both():
    """TT-B.5.2 (size public), TT-B.5.4 (LOST face up): moving a Barracks card to LOST
    changes both observations."""
    S = _mid_war_state()
    c = next(k for k in range(int(TB.n_army_cards)) if S["card_place"][0, k] == PLACE_BARRACKS)
    R = S.copy()
    R["card_place"][0, c] = PLACE_LOST
    for me in (0, 1):
        assert not np.array_equal(_obs(R, me), _obs(S, me))


def test_the_spy_picker_sees_the_opponents_barracks_and_resampling_keeps_it():
    """TT-B.4.5: during STAGE_SPY_PICK the picker sees the opponent's Barracks names (a
    change to it changes the picker's observation) and resampling for the picker keeps it."""
    S = _mid_war_state()
    S["stage"][0] = STAGE_SPY_PICK  # the stage alone gates the view; the picker is current
    picker = int(S["current"][0])
    other = 1 - picker
    assert not np.array_equal(_obs(_swap_barracks_card(S, other), picker), _obs(S, picker))
    rng = np.random.default_rng(0)
    for _ in range(5):
        R = resample_hidden(S, picker, rng, TB)
        assert _barracks_names(R, other) == _barracks_names(S, other)
        assert np.array_equal(_obs(R, picker), _obs(S, picker))
    # the other seat is not spying: its observation of the picker's Barracks stays hidden
    assert np.array_equal(_obs(_swap_barracks_card(S, picker), other), _obs(S, other))


def test_determinize_depends_only_on_what_me_knows():
    """Sorted pool, then shuffle: two states `me` cannot tell apart give the same world from
    the same generator (the search may rely on it)."""
    S = _mid_war_state()
    for me in (0, 1):
        T = _swap_barracks_card(S, 1 - me)
        A, B = S.copy(), T.copy()
        determinize(A, TB, np.int64(0), np.int64(me), np.array([[5, 7]], dtype=np.uint64))
        determinize(B, TB, np.int64(0), np.int64(me), np.array([[5, 7]], dtype=np.uint64))
        assert A.tobytes() == B.tobytes()
        assert conservation_error(A, TB, np.int64(0)) == 0


def test_resample_hidden_rejects_a_bad_seat():
    S = allocate(1)
    reset_war(S, TB, np.int64(0), np.int64(1), np.int64(0))
    try:
        resample_hidden(S, 2, np.random.default_rng(0), TB)
    except ValueError as e:
        assert "2" in str(e)
    else:
        raise AssertionError("seat 2 accepted")


def test_the_troop_chosen_for_mustering_stays_in_the_barracks_when_resampled():
    """TT-B.7.2.2: the troop named at STAGE_MUSTER is public while its hex is chosen
    (STAGE_MUSTER_HEX); resampling for the other seat keeps that very card in the Barracks."""
    rng = np.random.default_rng(5)
    found = []

    def visit(S):
        if S["stage"][0] == STAGE_MUSTER_HEX and S["muster_card"][0] >= 0 and len(found) < 20:
            card = int(S["muster_card"][0])
            other = 1 - int(S["current"][0])
            for _ in range(3):
                R = resample_hidden(S, other, rng, TB)
                assert R["card_place"][0, card] == PLACE_BARRACKS
                assert conservation_error(R, TB, np.int64(0)) == 0
            found.append(card)

    _random_war(6, True, rng, visit)
    assert found
