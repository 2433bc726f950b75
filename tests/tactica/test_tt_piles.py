"""TACTICA pile kernels (envs/tactica/piles.py) on hand-built states: moving cards keeps the
piles' order, RESUPPLY rebuilds an empty pile (TT-B.5.3), LOST cards never come back
(TT-B.5.4, TT-B.6.2), Recruitment (TT-B.7.1), and the conservation check, which must hold
after random sequences of moves and catch corrupted states."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactica import decrees, piles
from envs.tactica import state as st
from envs.tactica.tables import (
    CARD_TACTICS,
    CARD_TRAINING,
    CARD_TROOP,
    PILE_TACTICS,
    PILE_TROOP,
    load_tables,
)

TABLES = load_tables()
TB = TABLES.arrays
I = np.int64  # noqa: E741 - the kernels take int64 indices (one signature each)
B0 = I(0)


def _war(seed: int = 3, game_index: int = 0) -> np.ndarray:
    S = st.allocate(1)
    piles.reset_war(S, TB, B0, I(seed), I(game_index))
    return S


def _ids(p: int, name: str) -> list[int]:
    """Card ids of player p's copies of `name`."""
    c = TABLES.card_index[name]
    return [p * st.MAX_ARMY_CARDS + k for k in range(TB.n_army_cards) if TB.army_card[k] == c]


def _move(S, card: int, place: int, where: int = -1) -> None:
    piles.move_card(S, TB, B0, I(card), I(place), I(where))


def _pile(S, p: int, q: int) -> list[int]:
    return [int(c) for c in S["pile"][0, p, q, : S["pile_count"][0, p, q]]]


def _in_place(S, p: int, place: int) -> set[int]:
    ids = range(p * st.MAX_ARMY_CARDS, p * st.MAX_ARMY_CARDS + TB.n_army_cards)
    return {c for c in ids if S["card_place"][0, c] == place}


def _empty_pile_to_resupply(S, p: int, q: int) -> None:
    for c in _pile(S, p, q):
        _move(S, c, st.PLACE_RESUPPLY)


# --- moving cards --------------------------------------------------------------------------


def test_taking_a_card_from_a_pile_keeps_the_order_of_the_others() -> None:
    S = _war()
    before = _pile(S, 0, PILE_TACTICS)
    _move(S, before[5], st.PLACE_BARRACKS)
    assert _pile(S, 0, PILE_TACTICS) == before[:5] + before[6:]
    assert piles.cards_in_one_place(S, TB, B0)


def test_draw_top_takes_the_top_of_the_pile() -> None:
    # "top at count-1"
    S = _war()
    before = _pile(S, 1, PILE_TROOP)
    got = piles.draw_top(S, TB, B0, I(1), I(PILE_TROOP), I(st.PLACE_BARRACKS), I(-1))
    assert got == before[-1] and S["card_place"][0, got] == st.PLACE_BARRACKS
    assert _pile(S, 1, PILE_TROOP) == before[:-1]
    for c in before[:-1]:
        _move(S, c, st.PLACE_RESUPPLY)
    assert piles.draw_top(S, TB, B0, I(1), I(PILE_TROOP), I(st.PLACE_BARRACKS), I(-1)) == -1


def test_a_card_goes_only_into_the_pile_of_its_kind() -> None:
    # TT-B.5.1: troop and training cards in the troop pile, tactics cards in the tactics pile
    S = _war()
    press = _ids(0, "Press")[0]
    _move(S, press, st.PLACE_RESUPPLY)
    with pytest.raises(ValueError, match="pile of its kind"):
        _move(S, press, st.PLACE_TROOP_PILE)
    _move(S, press, st.PLACE_TACTICS_PILE)
    assert _pile(S, 0, PILE_TACTICS)[-1] == press


def test_places_refuse_cards_of_the_wrong_kind() -> None:
    S = _war()
    with pytest.raises(ValueError, match="only troop cards"):
        _move(S, _ids(0, "Training")[0], st.PLACE_BATTLEFIELD, 4)
    with pytest.raises(ValueError, match="only tactics cards"):
        _move(S, _ids(0, "Foot")[0], st.PLACE_IN_PLAY)
    with pytest.raises(ValueError, match="held by the other player"):
        _move(S, _ids(0, "Foot")[0], st.PLACE_HOSTAGE, 0)
    with pytest.raises(ValueError, match="under a troop on the battlefield"):
        _move(S, _ids(0, "Training")[0], st.PLACE_UNDER, _ids(0, "Foot")[0])
    assert piles.cards_in_one_place(S, TB, B0)


def test_training_cards_follow_their_troop_and_leave_before_it() -> None:
    # TT-B.3.3, TT-B.3.6: a troop's training level is the cards under it
    S = _war()
    foot, (t1, t2) = _ids(0, "Foot")[0], _ids(0, "Training")[:2]
    _move(S, foot, st.PLACE_BATTLEFIELD, 3)
    _move(S, t1, st.PLACE_UNDER, foot)
    _move(S, t2, st.PLACE_UNDER, foot)
    assert S["troop_training"][0, foot] == 2
    with pytest.raises(ValueError, match="most training"):  # TT-B.3.4: at most 2 levels
        _move(S, _ids(0, "Training")[2], st.PLACE_UNDER, foot)
    _move(S, foot, st.PLACE_BATTLEFIELD, 12)  # a movement keeps the training
    assert S["hex_troop"][0, 3] == -1 and S["hex_troop"][0, 12] == foot
    assert S["troop_training"][0, foot] == 2 and piles.cards_in_one_place(S, TB, B0)
    with pytest.raises(ValueError, match="training cards under a troop"):
        _move(S, foot, st.PLACE_HOSTAGE, 1)
    _move(S, t1, st.PLACE_RESUPPLY)
    _move(S, t2, st.PLACE_RESUPPLY)
    _move(S, foot, st.PLACE_HOSTAGE, 1)
    assert S["hex_troop"][0, 12] == -1 and S["card_holder"][0, foot] == 1
    assert piles.hostage_count(S, B0, I(1)) == 1 and piles.cards_in_one_place(S, TB, B0)


# --- RESUPPLY (TT-B.5.3) -------------------------------------------------------------------


def test_a_pile_rebuilt_from_resupply_holds_exactly_the_resupply_cards_of_its_kind() -> None:
    S = _war()
    _empty_pile_to_resupply(S, 0, PILE_TROOP)
    spy = _ids(0, "Spy")[0]
    _move(S, spy, st.PLACE_RESUPPLY)  # a tactics card in RESUPPLY stays there
    _move(S, _ids(0, "Foot")[0], st.PLACE_LOST)  # a LOST troop is not rebuilt
    _move(S, _ids(0, "Archer")[0], st.PLACE_BARRACKS)  # nor one in the Barracks
    want = {c for c in _in_place(S, 0, st.PLACE_RESUPPLY) if piles.card_pile(TB, I(c)) == 0}
    assert len(want) == 18
    n = piles.rebuild_pile(S, TB, B0, I(0), I(PILE_TROOP))
    assert n == 18 and set(_pile(S, 0, PILE_TROOP)) == want
    assert _in_place(S, 0, st.PLACE_RESUPPLY) == {spy}
    assert _pile(S, 0, PILE_TROOP) != sorted(want)  # shuffled
    assert piles.cards_in_one_place(S, TB, B0)


def test_rebuilding_leaves_a_pile_that_is_not_empty_alone() -> None:
    S = _war()
    _move(S, _ids(0, "Press")[0], st.PLACE_RESUPPLY)
    before = _pile(S, 0, PILE_TACTICS)
    assert piles.rebuild_pile(S, TB, B0, I(0), I(PILE_TACTICS)) == len(before)
    assert _pile(S, 0, PILE_TACTICS) == before


def test_rebuilt_piles_follow_the_games_rng() -> None:
    def rebuilt(seed: int) -> list[int]:
        S = _war(seed=seed)
        _empty_pile_to_resupply(S, 1, PILE_TACTICS)
        piles.rebuild_pile(S, TB, B0, I(1), I(PILE_TACTICS))
        return _pile(S, 1, PILE_TACTICS)

    assert rebuilt(8) == rebuilt(8)
    assert rebuilt(8) != rebuilt(9)


# --- Recruitment (TT-B.7.1) ----------------------------------------------------------------


def test_recruitment_stops_at_the_barracks_limit_of_seven() -> None:
    S = _war()
    out = np.zeros(2, dtype=np.bool_)
    drawn = []
    while piles.recruit_piles_available(S, TB, B0, I(0), out):
        drawn.append(piles.recruit_draw(S, TB, B0, I(0), I(len(drawn) % 2)))
    assert TB.barracks_limit == 7 and len(drawn) == 7 and min(drawn) >= 0
    assert _in_place(S, 0, st.PLACE_BARRACKS) == set(drawn)
    assert not out.any()
    assert piles.recruit_draw(S, TB, B0, I(0), I(PILE_TROOP)) == -1
    assert piles.place_count(S, TB, B0, I(0), I(st.PLACE_BARRACKS)) == 7


def test_recruitment_draws_the_top_of_the_chosen_pile() -> None:
    S = _war()
    top = _pile(S, 1, PILE_TACTICS)[-1]
    assert piles.recruit_draw(S, TB, B0, I(1), I(PILE_TACTICS)) == top
    assert TB.card_type[piles.card_name(TB, I(top))] == CARD_TACTICS


def test_recruitment_rebuilds_an_empty_pile_from_resupply() -> None:
    S = _war()
    _empty_pile_to_resupply(S, 0, PILE_TACTICS)
    assert S["pile_count"][0, 0, PILE_TACTICS] == 0
    out = np.zeros(2, dtype=np.bool_)
    assert piles.recruit_piles_available(S, TB, B0, I(0), out) == 2
    got = piles.recruit_draw(S, TB, B0, I(0), I(PILE_TACTICS))
    assert got >= 0 and S["card_place"][0, got] == st.PLACE_BARRACKS
    assert S["pile_count"][0, 0, PILE_TACTICS] == 16
    assert piles.resupply_count(S, TB, B0, I(0), I(PILE_TACTICS)) == 0


def test_recruitment_refuses_an_empty_pile_whose_resupply_is_empty_too() -> None:
    S = _war()
    for c in _pile(S, 0, PILE_TACTICS):
        _move(S, c, st.PLACE_LOST)
    out = np.zeros(2, dtype=np.bool_)
    assert piles.recruit_piles_available(S, TB, B0, I(0), out) == 1
    assert list(out) == [True, False]
    assert piles.recruit_draw(S, TB, B0, I(0), I(PILE_TACTICS)) == -1
    assert piles.place_count(S, TB, B0, I(0), I(st.PLACE_BARRACKS)) == 0
    # ... and ends when both piles and RESUPPLY are empty, below the limit
    for c in _pile(S, 0, PILE_TROOP)[:-3]:
        _move(S, c, st.PLACE_LOST)
    while piles.recruit_piles_available(S, TB, B0, I(0), out):
        assert piles.recruit_draw(S, TB, B0, I(0), I(PILE_TROOP)) >= 0
    assert piles.place_count(S, TB, B0, I(0), I(st.PLACE_BARRACKS)) == 3


def test_barracks_counts_match_the_decree_count_vector() -> None:
    S = _war()
    for c in _ids(0, "Spy") + _ids(0, "Negate")[:1] + _ids(0, "Foot")[:2]:
        _move(S, c, st.PLACE_BARRACKS)
    out = np.zeros(TB.n_cards, dtype=np.int64)
    assert piles.barracks_counts(S, TB, B0, I(0), out) == 5
    want = decrees.barracks_counts(TABLES, ["Spy", "Spy", "Negate", "Foot", "Foot"])
    assert np.array_equal(out, want)
    assert piles.barracks_counts(S, TB, B0, I(1), out) == 0 and not out.any()


# --- battles (TT-B.6.2, TT-B.9.2) ----------------------------------------------------------


def test_lost_cards_never_come_back_at_start_battle() -> None:
    # TT-B.5.4, TT-B.6.2
    S = _war()
    lost = _ids(0, "Champion") + _ids(0, "Crown")[:1] + _ids(1, "Foot")[:3]
    for c in lost:
        _move(S, c, st.PLACE_LOST)
    for battle in (2, 3):
        piles.start_battle(S, TB, B0)
        assert S["battle"][0] == battle
        for c in lost:
            assert S["card_place"][0, c] == st.PLACE_LOST
        assert S["pile_count"][0, 0, PILE_TROOP] == 19
        assert S["pile_count"][0, 0, PILE_TACTICS] == 16
        assert S["pile_count"][0, 1, PILE_TROOP] == 17
        assert piles.cards_in_one_place(S, TB, B0)


def test_start_battle_brings_every_card_not_lost_home_to_its_pile() -> None:
    # TT-B.6.2, TT-B.9.2: Barracks, RESUPPLY and hostage piles empty; hostages home;
    # training off the battlefield; a betrayer to its owner's LOST pile (TT-A.9.5)
    S = _war()
    foot0, foot1 = _ids(0, "Foot")[0], _ids(1, "Foot")[0]
    _move(S, foot0, st.PLACE_BATTLEFIELD, 2)
    _move(S, _ids(0, "Training")[0], st.PLACE_UNDER, foot0)
    _move(S, foot1, st.PLACE_HOSTAGE, 0)
    betrayer = _ids(1, "Archer")[0]
    _move(S, betrayer, st.PLACE_BATTLEFIELD, 40)
    S["troop_betrayer"][0, betrayer] = True
    S["betrayer_token"][0, 0] = betrayer
    _move(S, _ids(0, "Press")[0], st.PLACE_IN_PLAY)
    _move(S, _ids(1, "Saved")[0], st.PLACE_RESUPPLY)
    _move(S, _ids(1, "Spy")[0], st.PLACE_BARRACKS)
    S["battle_result"][0, 0] = 1  # seat 1 won battle 1: seat 0 chooses the first player
    piles.start_battle(S, TB, B0)
    assert piles.cards_in_one_place(S, TB, B0)
    assert S["card_place"][0, betrayer] == st.PLACE_LOST
    assert (S["hex_troop"][0] == -1).all() and (S["troop_training"][0] == 0).all()
    assert (S["betrayer_token"][0] == -1).all() and not S["troop_betrayer"][0].any()
    for p in range(2):
        for place in (st.PLACE_BARRACKS, st.PLACE_RESUPPLY, st.PLACE_IN_PLAY):
            assert not _in_place(S, p, place)
        assert piles.hostage_count(S, B0, I(p)) == 0
    assert S["pile_count"][0, 0].tolist() == [20, 17]
    assert S["pile_count"][0, 1].tolist() == [19, 17]
    assert S["battle"][0] == 2 and S["first_player"][0] == 0 and S["current"][0] == 0


def test_a_summon_on_the_battlefield_goes_back_on_top_of_its_spire() -> None:
    # TT-B.9.3: the spire keeps its cards and sides; the summon re-forms the top
    S = _war()
    S["spire_card"][0, 1, :2] = [0, 1]
    S["spire_height"][0, 1] = 2
    S["summon_card_place"][0, 1, :3] = [st.SUMMON_IN_SPIRE, st.SUMMON_IN_SPIRE, 2]
    S["summon_card_side"][0, 1, :3] = [0, 1, 1]
    S["summon_card"][0, 1] = 2
    S["summon_hex"][0, 1] = 50
    S["hex_summon"][0, 50] = 1
    S["spire_hex"][0, 1] = 60
    piles.start_battle(S, TB, B0)
    assert S["spire_card"][0, 1, :3].tolist() == [0, 1, 2] and S["spire_height"][0, 1] == 3
    assert S["summon_card_place"][0, 1, 2] == st.SUMMON_IN_SPIRE
    assert S["summon_card_side"][0, 1, :3].tolist() == [0, 1, 1]
    assert S["summon_card"][0, 1] == -1 and S["spire_hex"][0, 1] == -1
    assert (S["hex_summon"][0] == -1).all()


# --- conservation --------------------------------------------------------------------------


def _random_move(S, rng: np.random.Generator) -> None:
    """One random legal move of a random card (draws, discards, rebuilds, musters...)."""
    p = int(rng.integers(2))
    roll = rng.integers(10)
    if roll == 0:
        piles.rebuild_pile(S, TB, B0, I(p), I(rng.integers(2)))
        return
    if roll == 1:
        piles.recruit_draw(S, TB, B0, I(p), I(rng.integers(2)))
        return
    c = p * st.MAX_ARMY_CARDS + int(rng.integers(TB.n_army_cards))
    kind = TB.card_type[piles.card_name(TB, I(c))]
    here = S["card_place"][0, c]
    if here == st.PLACE_BATTLEFIELD and S["troop_training"][0, c] > 0:
        return  # its training cards leave first
    choices = [st.PLACE_BARRACKS, st.PLACE_RESUPPLY, st.PLACE_LOST, piles.card_pile(TB, I(c))]
    if kind == CARD_TROOP:
        choices += [st.PLACE_BATTLEFIELD, st.PLACE_HOSTAGE]
    if kind == CARD_TRAINING:
        choices.append(st.PLACE_UNDER)
    if kind == CARD_TACTICS:
        choices.append(st.PLACE_IN_PLAY)
    place = int(rng.choice(choices))
    where = -1
    if place == st.PLACE_BATTLEFIELD:
        free = np.flatnonzero(S["hex_troop"][0] == -1)
        where = int(rng.choice(free))
    elif place == st.PLACE_HOSTAGE:
        where = 1 - p
    elif place == st.PLACE_UNDER:
        troops = [
            t
            for t in np.flatnonzero(S["card_place"][0] == st.PLACE_BATTLEFIELD)
            if S["troop_training"][0, t] < TB.max_training
        ]
        if not troops:
            return
        where = int(rng.choice(troops))
    _move(S, c, place, where)


@pytest.mark.parametrize("seed", range(6))
def test_every_card_stays_in_exactly_one_place_under_random_moves(seed: int) -> None:
    rng = np.random.default_rng(seed)
    S = _war(seed=seed)
    for step in range(400):
        _random_move(S, rng)
        if step % 150 == 149:
            piles.start_battle(S, TB, B0)
        assert piles.conservation_error(S, TB, B0) == piles.CONSERVED, step
        assert (S["pile_count"][0].sum() + (S["card_place"][0] >= 2).sum()) == 74


def _corruptions():
    """(name, corrupt(S), expected code) on a state with a troop on the battlefield."""

    def dup_in_pile(S):
        S["pile"][0, 0, PILE_TROOP, 0] = S["pile"][0, 0, PILE_TROOP, 1]

    def place_without_pile(S):
        c = S["pile"][0, 1, PILE_TACTICS, 0]
        S["card_place"][0, c] = st.PLACE_BARRACKS

    def count_too_small(S):
        S["pile_count"][0, 0, PILE_TROOP] -= 1

    def foreign_card_in_pile(S):
        S["pile"][0, 0, PILE_TACTICS, 0] = S["pile"][0, 1, PILE_TACTICS, 0]

    def troop_in_tactics_pile(S):
        S["pile"][0, 0, PILE_TACTICS, 0] = S["pile"][0, 0, PILE_TROOP, 0]

    def lost_card_also_in_pile(S):
        S["card_place"][0, S["pile"][0, 0, PILE_TROOP, 3]] = st.PLACE_LOST

    def hex_points_elsewhere(S):
        S["hex_troop"][0, 7] = -1

    def unused_id(S):
        S["card_place"][0, TB.n_army_cards] = st.PLACE_RESUPPLY

    def hostage_of_its_owner(S):
        S["card_place"][0, 9] = st.PLACE_HOSTAGE  # card 9 is seat 0's Archer in the Barracks
        S["card_holder"][0, 9] = 0

    def stray_pointer(S):
        S["card_under"][0, 9] = 0

    def training_count_off(S):
        S["troop_training"][0, 0] = 1

    def three_training_levels(S):  # TT-B.3.4: at most 2, even with the cards to show for it
        for t in _ids(0, "Training")[:3]:
            piles.move_card(S, TB, B0, I(t), I(st.PLACE_RESUPPLY), I(-1))
            S["card_place"][0, t] = st.PLACE_UNDER
            S["card_under"][0, t] = 0
        S["troop_training"][0, 0] = 3

    def tactics_on_battlefield(S):
        c = 20  # seat 0's first Press, in the Barracks
        S["card_place"][0, c] = st.PLACE_BATTLEFIELD
        S["card_hex"][0, c] = 30
        S["hex_troop"][0, 30] = c

    def bad_place(S):
        S["card_place"][0, 9] = 42

    return [
        (dup_in_pile, piles.ERR_PILE_MEMBERS),
        (place_without_pile, piles.ERR_PILE_ENTRY),
        (count_too_small, piles.ERR_PILE_COUNT),
        (foreign_card_in_pile, piles.ERR_PILE_ENTRY),
        (troop_in_tactics_pile, piles.ERR_PILE_ENTRY),
        (lost_card_also_in_pile, piles.ERR_PILE_ENTRY),
        (hex_points_elsewhere, piles.ERR_HEX),
        (unused_id, piles.ERR_UNUSED_ID),
        (hostage_of_its_owner, piles.ERR_HOLDER),
        (stray_pointer, piles.ERR_POINTER),
        (training_count_off, piles.ERR_UNDER),
        (three_training_levels, piles.ERR_UNDER),
        (tactics_on_battlefield, piles.ERR_KIND),
        (bad_place, piles.ERR_BAD_PLACE),
    ]


@pytest.mark.parametrize(
    ("corrupt", "code"), _corruptions(), ids=lambda x: getattr(x, "__name__", "")
)
def test_the_conservation_check_catches_a_corrupted_state(corrupt, code: int) -> None:
    S = _war()
    for c in (0, 9, 20):  # seat 0's first Foot, first Archer, first Press
        _move(S, c, st.PLACE_BARRACKS)
    _move(S, 0, st.PLACE_BATTLEFIELD, 7)
    assert piles.cards_in_one_place(S, TB, B0)
    corrupt(S)
    assert piles.conservation_error(S, TB, B0) == code, piles.CONSERVATION_ERRORS[code]
    assert not piles.cards_in_one_place(S, TB, B0)


# --- feature cards (TT-B.2.4, TT-B.9.2, TT-B.9.3) ------------------------------------------


def _put_feature(S, kind: int, p: int, j: int, h: int) -> None:
    field = {st.FEATURE_WALL: "wall_hex", st.FEATURE_LANDMARK: "landmark_hex"}.get(kind)
    if field is None:
        S["spire_hex"][0, p] = h
    else:
        S[field][0, p, j] = h
    S["hex_feature"][0, h] = kind
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = j


def _field_state():
    """A battle in progress: walls, a landmark, a two-card spire and a summon of seat 1."""
    S = _war()
    for w in range(TB.n_walls):
        _put_feature(S, st.FEATURE_WALL, 0, w, 1 + 2 * w)
        _put_feature(S, st.FEATURE_WALL, 1, w, 91 + 2 * w)
    S["wall_lost"][0, 0, TB.n_walls - 1] = True  # removed by an Engineer ...
    S["wall_hex"][0, 0, TB.n_walls - 1] = -1  # ... so off the battlefield
    S["hex_feature"][0, 1 + 2 * (TB.n_walls - 1)] = st.FEATURE_NONE
    S["hex_feature_owner"][0, 1 + 2 * (TB.n_walls - 1)] = -1
    S["hex_feature_card"][0, 1 + 2 * (TB.n_walls - 1)] = -1
    _put_feature(S, st.FEATURE_LANDMARK, 0, 1, 40)
    S["landmark_side"][0, 0, 1] = 1
    S["spire_card"][0, 1, :2] = [2, 0]
    S["spire_height"][0, 1] = 2
    S["summon_card_place"][0, 1, :3] = [st.SUMMON_IN_SPIRE, st.SUMMON_ON_BATTLEFIELD, 1]
    S["summon_card_side"][0, 1, :3] = [0, 1, 0]
    _put_feature(S, st.FEATURE_SPIRE, 1, 0, 75)
    S["summon_card"][0, 1] = 1
    S["summon_hex"][0, 1] = 66
    S["hex_summon"][0, 66] = 1
    _move(S, _ids(0, "Foot")[0], st.PLACE_BATTLEFIELD, 40)  # a troop on a landmark: allowed
    return S


def test_a_consistent_battlefield_passes_the_feature_check() -> None:
    S = _field_state()
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT
    assert piles.cards_in_one_place(S, TB, B0)


def test_start_battle_takes_back_walls_and_landmarks_not_lost() -> None:
    # TT-B.9.2: feature cards not LOST come back for the next battle; LOST ones stay LOST
    S = _field_state()
    piles.start_battle(S, TB, B0)
    assert piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT
    assert (S["wall_hex"][0] == -1).all() and (S["landmark_hex"][0] == -1).all()
    assert S["wall_lost"][0, 0, TB.n_walls - 1] and S["wall_lost"][0].sum() == 1
    assert S["landmark_side"][0, 0, 1] == 1  # the card keeps the side it was placed with
    assert S["spire_card"][0, 1, :3].tolist() == [2, 0, 1]


def _feature_corruptions():
    def lost_wall_on_field(S):
        S["wall_lost"][0, 1, 0] = True

    def wall_hex_not_named(S):
        S["hex_feature"][0, 91] = st.FEATURE_NONE
        S["hex_feature_owner"][0, 91] = -1
        S["hex_feature_card"][0, 91] = -1

    def hex_names_missing_landmark(S):
        S["landmark_hex"][0, 0, 1] = -1

    def spire_card_twice(S):
        S["spire_card"][0, 1, 1] = 2

    def spire_taller_than_cards(S):
        S["spire_height"][0, 1] = 3

    def summon_hex_not_marked(S):
        S["hex_summon"][0, 66] = -1

    def two_summons_on_field(S):
        S["spire_card"][0, 1, :2] = [2, -1]
        S["spire_height"][0, 1] = 1
        S["summon_card_place"][0, 1, 0] = st.SUMMON_ON_BATTLEFIELD

    def spire_card_marked_aside(S):
        S["summon_card_place"][0, 1, 0] = st.SUMMON_ASIDE

    def troop_on_a_wall(S):
        _move(S, _ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 93)

    def troop_and_summon_on_one_hex(S):
        _move(S, _ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 66)

    return [
        (lost_wall_on_field, piles.ERR_WALL),
        (wall_hex_not_named, piles.ERR_WALL),
        (hex_names_missing_landmark, piles.ERR_HEX_FEATURE),
        (spire_card_twice, piles.ERR_SPIRE),
        (spire_taller_than_cards, piles.ERR_SPIRE),
        (summon_hex_not_marked, piles.ERR_SUMMON),
        (two_summons_on_field, piles.ERR_SUMMON),
        (spire_card_marked_aside, piles.ERR_SPIRE),
        (troop_on_a_wall, piles.ERR_HEX_SHARED),
        (troop_and_summon_on_one_hex, piles.ERR_HEX_SHARED),
    ]


@pytest.mark.parametrize(
    ("corrupt", "code"), _feature_corruptions(), ids=lambda x: getattr(x, "__name__", "")
)
def test_the_feature_check_catches_a_corrupted_battlefield(corrupt, code: int) -> None:
    S = _field_state()
    corrupt(S)
    assert piles.feature_error(S, TB, B0) == code, piles.FEATURE_ERRORS[code]
