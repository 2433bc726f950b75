"""TACTICA state record (envs/tactica/state.py): the card ids, the empty record, and a war
reset from (seed, game index) (TT-B.1, TT-B.5.1, TT-B.6.2)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactica import piles
from envs.tactica import state as st
from envs.tactica.tables import PILE_TACTICS, PILE_TROOP, load_tables

TABLES = load_tables()
TB = TABLES.arrays
I = np.int64  # noqa: E741 - the kernels take int64 indices (one signature each)


def _war(seed: int = 11, game_index: int = 0, batch: int = 1, b: int = 0) -> np.ndarray:
    S = st.allocate(batch)
    piles.reset_war(S, TB, I(b), I(seed), I(game_index))
    return S


def test_army_slots_follow_the_card_list() -> None:
    # TT-B.1.1: one army is the card list of army.yaml, one id per card, both armies alike
    assert TB.n_army_cards == 37 == int(np.sum(TABLES.card_count))
    names = [TABLES.card_names[piles.card_name(TB, I(c))] for c in range(TB.n_army_cards)]
    assert names[:9] == ["Foot"] * 8 + ["Champion"]
    assert names.count("Training") == 6 and names.count("Negate") == 3
    for k in range(TB.n_army_cards):
        assert piles.card_name(TB, I(k)) == piles.card_name(TB, I(st.MAX_ARMY_CARDS + k))
        assert piles.card_owner(I(k)) == 0 and piles.card_owner(I(st.MAX_ARMY_CARDS + k)) == 1
    assert not piles.card_used(TB, I(TB.n_army_cards))
    assert not piles.card_used(TB, I(st.N_CARD_IDS))


def test_the_battlefield_capacity_is_eleven_rows_of_nine_hexes() -> None:
    # TT-B.2.1: the First Battle is the largest map (11 x 9); state reserves one cell per hex
    rows, cols = (int(x) for x in TABLES.battlefield_shape.max(axis=0))
    assert (rows, cols) == (st.HEX_ROWS, st.HEX_COLUMNS)
    assert st.MAX_HEXES == 99 == st.STATE_DTYPE["hex_troop"].shape[0]


def test_allocate_gives_empty_two_player_records() -> None:
    S = st.allocate(3)
    assert S.shape == (3,) and S.dtype == st.STATE_DTYPE
    assert (S["num_players"] == 2).all()
    assert (S["card_place"] == st.PLACE_NONE).all() and (S["hex_troop"] == -1).all()
    assert (S["battle_result"] == st.BATTLE_NOT_PLAYED).all()
    assert st.bytes_per_game() == st.STATE_DTYPE.itemsize
    with pytest.raises(ValueError, match="num_envs"):
        st.allocate(0)


def test_reset_war_puts_every_draw_card_in_its_pile() -> None:
    # TT-B.5.1, TT-B.6.2: troop pile = troop + training cards (20), tactics pile = tactics
    # cards (17), for each player; Barracks, RESUPPLY, LOST and hostage piles empty
    S = _war()
    assert piles.cards_in_one_place(S, TB, I(0))
    assert piles.feature_error(S, TB, I(0)) == piles.FEATURES_CONSISTENT
    assert (S["summon_card_place"][0, :, : TB.summon_cards] == st.SUMMON_ASIDE).all()
    for p in range(2):
        for q, want in ((PILE_TROOP, 20), (PILE_TACTICS, 17)):
            n = S["pile_count"][0, p, q]
            assert n == want
            ids = S["pile"][0, p, q, :n]
            assert {piles.card_pile(TB, I(c)) for c in ids} == {q}
            assert {piles.card_owner(I(c)) for c in ids} == {p}
        for place in (st.PLACE_BARRACKS, st.PLACE_RESUPPLY, st.PLACE_LOST, st.PLACE_HOSTAGE):
            assert piles.place_count(S, TB, I(0), I(p), I(place)) == 0
    assert S["battle"][0] == 1 and S["turn"][0] == 0 and S["stage"][0] == st.STAGE_SETUP
    assert S["first_player"][0] in (0, 1) and S["current"][0] == S["first_player"][0]


def test_reset_war_shuffles_the_piles() -> None:
    # TT-B.5.1 "shuffled": not in id order, and the two players' piles differ
    S = _war()
    troop0 = S["pile"][0, 0, PILE_TROOP, :20]
    assert not np.array_equal(troop0, np.arange(20))
    assert not np.array_equal(troop0 + st.MAX_ARMY_CARDS, S["pile"][0, 1, PILE_TROOP, :20])


def test_same_seed_and_game_index_give_the_same_piles_bit_for_bit() -> None:
    # ARCHITECTURE.md 4: the same (seed, game index) in any slot of any batch size
    a = _war(seed=5, game_index=3)
    b = _war(seed=5, game_index=3, batch=4, b=2)
    assert a[0].tobytes() == b[2].tobytes()
    other = _war(seed=5, game_index=4)
    assert not np.array_equal(a["pile"][0], other["pile"][0])
    assert not np.array_equal(a["rng"][0], other["rng"][0])


def test_a_reused_slot_resets_to_the_same_war() -> None:
    # a slot that played (auto-reset in a batch) starts the same war as a fresh one
    S = _war(seed=2, game_index=9)
    fresh = S.copy()
    for c in range(5):
        piles.move_card(S, TB, I(0), I(S["pile"][0, 0, 0, 19 - c]), I(st.PLACE_LOST), I(-1))
    piles.start_battle(S, TB, I(0))
    piles.reset_war(S, TB, I(0), I(2), I(9))
    assert S.tobytes() == fresh.tobytes()


def test_an_army_beyond_the_state_capacity_is_refused() -> None:
    # the card ids' stride is MAX_ARMY_CARDS: a deck file with more draw cards must fail on
    # load of the record, naming the capacity, not overflow the state
    from dataclasses import replace

    from envs.tactica.tables import build_arrays

    counts = np.array(TABLES.card_count, dtype=np.int8)
    counts[0] += st.MAX_ARMY_CARDS - TB.n_army_cards + 1
    with pytest.raises(ValueError, match="draw cards per army exceed the capacity 40"):
        build_arrays(replace(TABLES, card_count=counts))
    counts[0] -= 1  # exactly at capacity is fine
    assert build_arrays(replace(TABLES, card_count=counts))["n_army_cards"][0] == 40
