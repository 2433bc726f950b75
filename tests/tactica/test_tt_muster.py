"""TACTICA Recruitment and Mustering kernels (envs/tactica/muster.py) on hand-built states:
TT-B.7.1, TT-B.7.2.1-7.2.4, TT-B.3.5, TT-B.4.5, TT-B.4.9, TT-A.5.2, TT-A.5.4, TT-A.9.2,
TT-A.10.6-10.8, and a seeded random Mustering loop that keeps every invariant."""

from __future__ import annotations

import numpy as np
from tt_board import (  # noqa: F401 - re-exported names the muster tests use
    B0,
    CARD,
    NB,
    NEXT_TO_WALLS_0,
    TABLES,
    TB,
    WALLS,
    I,
    battle,
    hand,
    ids,
    ok,
    put_feature,
    put_spire,
    to,
)

from envs.tactica import muster, piles
from envs.tactica import state as st
from envs.tactica.actions import (
    A_CARD,
    A_DECREE,
    A_HEX,
    A_PASS,
    A_PILE,
    N_ACTIONS,
    STAGE_BETRAYER_PICK,
    STAGE_CROWN_PICK,
    STAGE_MUSTER,
    STAGE_MUSTER_HEX,
    STAGE_RECRUIT,
    STAGE_SPY_PICK,
    STAGE_TRAIN_TROOP,
)
from envs.tactica.tables import PILE_TACTICS


def legal(S) -> list[int]:
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    n = muster.legal_mustering(S, TB, NB, B0, out)
    return [int(a) for a in out[:n]]


def act(S, a: int) -> None:
    assert a in legal(S), (a, legal(S))
    muster.apply_mustering(S, TB, NB, B0, I(a))


def begin(S) -> None:
    muster.begin_mustering(S, TB, NB, B0)


# --- Recruitment (TT-B.7.1) -------------------------------------------------------------------


def test_recruitment_draws_to_seven_first_player_then_the_other() -> None:
    S = battle(first=1)
    muster.begin_recruitment(S, TB, B0)
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    seen = []
    while S["stage"][0] == STAGE_RECRUIT:
        n = muster.legal_recruitment(S, TB, B0, out)
        assert list(out[:n]) == [A_PILE, A_PILE + 1]  # both piles hold cards: a choice
        seen.append(int(S["current"][0]))
        muster.apply_recruitment(S, TB, B0, I(A_PILE + PILE_TACTICS * (len(seen) % 2)))
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert seen == [1] * 7 + [0] * 7  # the first player draws all their cards first
    for p in range(2):
        assert piles.place_count(S, TB, B0, I(p), I(st.PLACE_BARRACKS)) == 7
    ok(S)


def test_recruitment_draws_automatically_when_only_one_pile_is_open() -> None:
    S = battle()
    for p in range(2):  # no tactics card left anywhere for either player
        for c in range(p * st.MAX_ARMY_CARDS, p * st.MAX_ARMY_CARDS + TB.n_army_cards):
            if S["card_place"][0, c] == st.PLACE_TACTICS_PILE:
                to(S, c, st.PLACE_LOST)
    muster.begin_recruitment(S, TB, B0)
    assert S["stage"][0] == st.STAGE_PHASE_DONE  # nothing to choose: no decision asked
    for p in range(2):
        assert piles.place_count(S, TB, B0, I(p), I(st.PLACE_BARRACKS)) == 7
    ok(S)


# --- Mustering (TT-B.7.2) ---------------------------------------------------------------------


def test_a_troop_is_mustered_next_to_a_friendly_wall_only() -> None:
    S = battle()
    (foot, _) = hand(S, 0, "Foot", "Foot")
    begin(S)
    assert legal(S) == [A_CARD + CARD["Foot"], A_PASS]
    act(S, A_CARD + CARD["Foot"])
    assert S["stage"][0] == STAGE_MUSTER_HEX
    assert {a - A_HEX for a in legal(S)} == NEXT_TO_WALLS_0
    act(S, A_HEX + 10)
    assert S["hex_troop"][0, 10] == foot and S["card_place"][0, foot] == st.PLACE_BATTLEFIELD
    assert S["muster_actions_left"][0, 0] == 2
    ok(S)


def test_a_troop_may_be_mustered_on_a_landmark_without_block_not_with_block() -> None:
    S = battle()
    hand(S, 0, "Foot")
    lm = TABLES.landmark_index["Ridge/Marsh"]
    j_block = next(j for j in range(TB.n_landmark_cards) if TB.army_landmark[j] == lm)
    j_open = next(j for j in range(TB.n_landmark_cards) if TB.army_landmark[j] != lm)
    put_feature(S, 1, st.FEATURE_LANDMARK, 1, j_block)
    S["landmark_hex"][0, 1, j_block] = 1
    S["landmark_side"][0, 1, j_block] = 0  # RIDGE, BLOCK
    put_feature(S, 3, st.FEATURE_LANDMARK, 1, j_open)
    S["landmark_hex"][0, 1, j_open] = 3
    S["landmark_side"][0, 1, j_open] = 0
    begin(S)
    act(S, A_CARD + CARD["Foot"])
    hexes = {a - A_HEX for a in legal(S)}
    assert 3 in hexes and 1 not in hexes
    ok(S)


def test_three_muster_actions_then_the_other_player() -> None:
    S = battle()
    hand(S, 0, "Foot", "Foot", "Foot", "Foot")
    hand(S, 1, "Archer")
    begin(S)
    for h in (1, 3, 5):
        assert S["current"][0] == 0
        act(S, A_CARD + CARD["Foot"])
        act(S, A_HEX + h)
    # the fourth Foot stays in the Barracks: the other player musters now
    assert S["current"][0] == 1 and S["stage"][0] == STAGE_MUSTER
    assert legal(S) == [A_CARD + CARD["Archer"], A_PASS]
    act(S, A_PASS)
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert piles.place_count(S, TB, B0, I(0), I(st.PLACE_BARRACKS)) == 1


def test_at_most_ten_troops_on_the_battlefield() -> None:
    S = battle()
    feet = ids(0, "Foot")
    extra = ids(0, "Archer") + ids(0, "Crossbow")
    for k, c in enumerate((feet[:7] + extra)[:10]):
        to(S, c, st.PLACE_BATTLEFIELD, 40 + k)
    hand(S, 0, "Foot")
    begin(S)
    # 10 troops already: nothing to muster, the player passes automatically
    assert S["current"][0] == 1 or S["stage"][0] == st.STAGE_PHASE_DONE
    S["current"][0] = 0
    S["muster_actions_left"][0, 0] = 3
    S["stage"][0] = STAGE_MUSTER
    assert legal(S) == [A_PASS]


def test_training_goes_under_a_wall_adjacent_troop_below_two_levels() -> None:
    S = battle()
    feet = ids(0, "Foot")
    to(S, feet[0], st.PLACE_BATTLEFIELD, 10)  # next to wall 2
    to(S, feet[1], st.PLACE_BATTLEFIELD, 40)  # far from every wall
    to(S, feet[2], st.PLACE_BATTLEFIELD, 14)  # next to wall 6, already 2x trained
    for t in ids(0, "Training")[:2]:
        to(S, t, st.PLACE_UNDER, feet[2])
    to(S, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 11)  # an enemy next to my wall
    (train,) = hand(S, 0, "Training")
    begin(S)
    act(S, A_CARD + CARD["Training"])
    assert S["stage"][0] == STAGE_TRAIN_TROOP
    assert legal(S) == [A_HEX + 10]
    act(S, A_HEX + 10)
    assert S["card_under"][0, train] == feet[0] and S["troop_training"][0, feet[0]] == 1
    ok(S)


def test_spy_sends_the_chosen_card_of_the_opponents_barracks_to_resupply() -> None:
    S = battle()
    (spy,) = hand(S, 0, "Spy")
    (_, negate) = hand(S, 1, "Foot", "Negate")
    begin(S)
    act(S, A_CARD + CARD["Spy"])
    assert S["stage"][0] == muster.STAGE_MUSTER_NEGATE and S["current"][0] == 1
    assert legal(S) == [A_CARD + CARD["Negate"], A_PASS]
    act(S, A_PASS)  # the opponent lets the Spy through
    assert S["stage"][0] == STAGE_SPY_PICK and S["card_place"][0, spy] == st.PLACE_IN_PLAY
    assert S["current"][0] == 0
    assert legal(S) == [A_CARD + CARD["Foot"], A_CARD + CARD["Negate"]]
    act(S, A_CARD + CARD["Negate"])
    assert S["card_place"][0, negate] == st.PLACE_RESUPPLY
    ok(S)


def test_negate_cancels_a_spy_which_goes_to_resupply_at_once() -> None:
    S = battle()
    spy, _ = hand(S, 0, "Spy", "Foot")
    foot, negate = hand(S, 1, "Foot", "Negate")
    begin(S)
    act(S, A_CARD + CARD["Spy"])
    act(S, A_CARD + CARD["Negate"])
    assert S["card_place"][0, spy] == st.PLACE_RESUPPLY  # TT-B.4.7
    assert S["card_place"][0, negate] == st.PLACE_IN_PLAY
    assert S["card_place"][0, foot] == st.PLACE_BARRACKS  # the Spy had no effect
    # the muster action is spent; the Spy's player goes on mustering
    assert S["current"][0] == 0 and S["stage"][0] == STAGE_MUSTER
    assert S["muster_actions_left"][0, 0] == 2
    ok(S)


def test_tactica_against_the_opponent_closes_the_negate_window() -> None:
    S = battle()
    hand(S, 0, "Spy")
    hand(S, 1, "Negate")
    S["no_cards"][0, 1] = True  # TT-A.5.2: they may play no card, counter cards included
    begin(S)
    act(S, A_CARD + CARD["Spy"])
    assert S["stage"][0] == STAGE_SPY_PICK and S["current"][0] == 0


def test_spy_is_not_offered_against_an_empty_barracks() -> None:
    S = battle()
    hand(S, 0, "Spy")
    begin(S)
    assert S["current"][0] == 1 or S["stage"][0] == st.STAGE_PHASE_DONE


def test_crown_ransoms_one_of_your_hostages_into_your_barracks() -> None:
    S = battle()
    hand(S, 0, "Crown")
    champion = ids(0, "Champion")[0]
    to(S, champion, st.PLACE_HOSTAGE, 1)
    to(S, ids(1, "Archer")[0], st.PLACE_HOSTAGE, 0)  # a hostage I hold is not mine to ransom
    begin(S)
    act(S, A_CARD + CARD["Crown"])
    # the Negate window is asked though the opponent's Barracks is empty (asking reveals nothing)
    assert S["stage"][0] == muster.STAGE_MUSTER_NEGATE and legal(S) == [A_PASS]
    act(S, A_PASS)
    assert S["stage"][0] == STAGE_CROWN_PICK
    assert legal(S) == [A_CARD + CARD["Champion"]]
    act(S, A_CARD + CARD["Champion"])
    assert S["card_place"][0, champion] == st.PLACE_BARRACKS
    ok(S)


def test_tactica_forbids_cards_from_the_hand_but_not_a_summon() -> None:
    S = battle()
    hand(S, 0, "Foot", "Training", "Spy")
    hand(S, 1, "Foot")
    put_spire(S, 0, 20, [0, 1, 0])
    S["no_cards"][0, 0] = True
    begin(S)
    assert legal(S) == [A_HEX + 20, A_PASS]  # TT-A.5.2, TT-A.5.4


def test_a_summon_is_mustered_next_to_its_complete_spire_one_at_a_time() -> None:
    S = battle()
    put_spire(S, 0, 20, [0, 1, 1])  # bottom Ouran, then Cthon, top Cthon
    begin(S)
    act(S, A_HEX + 20)
    assert {a - A_HEX for a in legal(S)} == {int(y) for y in NB[20] if y >= 0}
    act(S, A_HEX + 21)
    assert S["summon_card"][0, 0] == 2 and S["summon_hex"][0, 0] == 21
    assert S["summon_card_side"][0, 0, 2] == 1 and S["hex_summon"][0, 21] == 0
    assert S["spire_height"][0, 0] == 2 and S["hex_feature"][0, 20] == st.FEATURE_SPIRE
    ok(S)
    # TT-A.10.7: one summon at a time; nothing else to do: the player is done
    assert S["current"][0] == 1 or S["stage"][0] == st.STAGE_PHASE_DONE
    # once its summon is captured (LOST) the spire, still complete (TT-A.10.5), musters again
    S["hex_summon"][0, 21] = -1
    S["summon_hex"][0, 0] = S["summon_card"][0, 0] = -1
    S["summon_card_place"][0, 0, 2] = st.SUMMON_LOST
    begin(S)
    assert S["current"][0] == 0 and legal(S) == [A_HEX + 20, A_PASS]


def test_an_incomplete_spire_musters_no_summon() -> None:
    S = battle()
    put_spire(S, 0, 20, [0, 1])  # the third summon card is still aside (TT-A.10.5, R33)
    hand(S, 0, "Foot")
    begin(S)
    assert legal(S) == [A_CARD + CARD["Foot"], A_PASS]


def test_mustering_the_bottom_summon_leaves_the_spire_gone() -> None:
    S = battle()
    put_spire(S, 0, 20, [1])
    for s in (1, 2):  # the other two summon cards were captured: LOST
        S["summon_card_place"][0, 0, s] = st.SUMMON_LOST
        S["summon_card_side"][0, 0, s] = 0
    begin(S)
    act(S, A_HEX + 20)
    assert 20 not in {a - A_HEX for a in legal(S)}  # adjacent to the spire's hex, not on it
    act(S, A_HEX + 29)
    assert S["spire_hex"][0, 0] == -1 and S["spire_height"][0, 0] == 0
    assert S["hex_feature"][0, 20] == st.FEATURE_NONE and S["summon_card"][0, 0] == 0
    ok(S)


def test_betrayal_musters_a_hostage_as_an_untrained_betrayer() -> None:
    S = battle()
    archer = ids(1, "Archer")[0]
    to(S, archer, st.PLACE_HOSTAGE, 0)
    to(S, ids(1, "Foot")[0], st.PLACE_HOSTAGE, 0)
    S["betrayal_muster"][0, 0] = True
    S["no_cards"][0, 0] = True  # the betrayer does not come from the hand (R34)
    begin(S)
    d = TABLES.decree_names.index("BETRAYAL!")
    assert legal(S) == [A_DECREE + d, A_PASS]
    act(S, A_DECREE + d)
    assert S["stage"][0] == STAGE_BETRAYER_PICK
    assert legal(S) == [A_CARD + CARD["Foot"], A_CARD + CARD["Archer"]]
    act(S, A_CARD + CARD["Archer"])
    assert S["stage"][0] == STAGE_MUSTER_HEX
    assert {a - A_HEX for a in legal(S)} == NEXT_TO_WALLS_0
    act(S, A_HEX + 11)
    assert S["hex_troop"][0, 11] == archer and S["troop_betrayer"][0, archer]
    assert S["betrayer_token"][0, 0] == archer and S["troop_training"][0, archer] == 0
    assert muster.troop_seat(S, B0, I(archer)) == 0
    ok(S)
    # one betrayer per BETRAYAL!: the option is gone
    assert S["current"][0] == 1 or S["stage"][0] == st.STAGE_PHASE_DONE


def test_random_mustering_keeps_cards_and_features_consistent() -> None:
    rng = np.random.default_rng(11)
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    for game in range(80):
        S = battle(first=game % 2)
        if game % 3 == 0:
            put_spire(S, game % 2, 30, [0, 1, 0])
        for c in ids(1, "Foot")[:3]:
            to(S, c, st.PLACE_HOSTAGE, 0)
        S["betrayal_muster"][0, 0] = game % 2 == 0
        for _turn in range(4):
            muster.begin_recruitment(S, TB, B0)
            while S["stage"][0] == STAGE_RECRUIT:
                n = muster.legal_recruitment(S, TB, B0, out)
                assert n > 0
                muster.apply_recruitment(S, TB, B0, I(out[rng.integers(n)]))
            ok(S)
            begin(S)
            while S["stage"][0] != st.STAGE_PHASE_DONE:
                assert S["stage"][0] in (
                    STAGE_MUSTER,
                    STAGE_MUSTER_HEX,
                    STAGE_TRAIN_TROOP,
                    STAGE_SPY_PICK,
                    STAGE_CROWN_PICK,
                    STAGE_BETRAYER_PICK,
                    muster.STAGE_MUSTER_NEGATE,
                )
                n = muster.legal_mustering(S, TB, NB, B0, out)
                assert n > 0
                muster.apply_mustering(S, TB, NB, B0, I(out[rng.integers(n)]))
                ok(S)
            for p in range(2):
                assert muster.troops_of(S, B0, I(p)) <= TB.max_troops_on_battlefield
            # played muster cards go back (Resolution's job) so the piles keep turning
            for c in range(st.N_CARD_IDS):
                if S["card_place"][0, c] == st.PLACE_IN_PLAY:
                    to(S, c, st.PLACE_RESUPPLY)
            S["first_player"][0] = 1 - S["first_player"][0]
