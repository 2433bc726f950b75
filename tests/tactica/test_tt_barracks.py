"""TACTICA start of turn and Barracks phase kernels (envs/tactica/barracks.py) on hand-built
states: TT-B.8.4, TT-A.4.1-4.3, 4.6, TT-A.5, TT-A.6, TT-A.7-8, TT-A.9.1, TT-A.10.1-10.4,
readings R44-R47, and a seeded random Barracks loop that keeps every invariant."""

from __future__ import annotations

import numpy as np
import tt_board as board
from tt_board import B0, CARD, TABLES, TB, I, hand, ids, ok, put_feature, to

from envs.tactica import barracks
from envs.tactica import state as st
from envs.tactica.actions import (
    A_DECREE,
    A_HEX,
    A_PASS,
    A_SIDE,
    A_SURRENDER,
    N_ACTIONS,
    N_DECREES,
    STAGE_DECREE,
    STAGE_PROMOTION_TROOP,
    STAGE_SUMMON_HEX,
    STAGE_SUMMON_SIDE,
    STAGE_SURRENDER,
)
from envs.tactica.tables import PILE_TROOP

GEO = TABLES.battlefield
GEO0 = (GEO.neighbours[0], GEO.distance[0], GEO.wall_zone[0])  # the First Battle
DECREE = {name: i for i, name in enumerate(TABLES.decree_names)}


def battle(first: int = 0, advanced: bool = True) -> np.ndarray:
    """Battle 1 of a fresh war in its second turn (so a capture "last turn" can exist)."""
    return board.battle(first, advanced, turn=2)


def troop(S, p: int, name: str, h: int, captured_last_turn: bool = False) -> int:
    c = next(c for c in ids(p, name) if S["card_place"][0, c] in (0, 1))
    to(S, c, st.PLACE_BATTLEFIELD, h)
    S["troop_captured_last_turn"][0, c] = captured_last_turn
    return c


def names_in(S, p: int, place: int) -> list[str]:
    return sorted(
        TABLES.card_names[TB.army_card[c % st.MAX_ARMY_CARDS]]
        for c in range(p * st.MAX_ARMY_CARDS, (p + 1) * st.MAX_ARMY_CARDS)
        if S["card_place"][0, c] == place
    )


def legal(S) -> list[int]:
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    n = barracks.legal_barracks(S, TB, *GEO0, B0, out)
    return [int(a) for a in out[:n]]


def act(S, a: int) -> None:
    assert a in legal(S), (a, legal(S))
    barracks.apply_barracks(S, TB, *GEO0, B0, I(a))


def begin(S) -> None:
    barracks.begin_barracks(S, TB, *GEO0, B0)


def to_decrees(S) -> None:
    """Begin the turn and let both players fight on (TT-B.8.4)."""
    begin(S)
    act(S, A_PASS)
    act(S, A_PASS)


# --- TT-B.8.4 surrender -----------------------------------------------------------------------


def test_surrender_first_player_first_gives_the_battle_to_the_opponent() -> None:
    S = battle(first=1)
    begin(S)
    assert S["stage"][0] == STAGE_SURRENDER and S["current"][0] == 1
    assert legal(S) == [A_PASS, A_SURRENDER]
    act(S, A_SURRENDER)
    # the battle ends at once (resolution.surrender): seat 0 wins it and its war points,
    # and the next battle opens in its setup
    assert S["battle_result"][0, 0] == 0
    assert list(S["war_points"][0]) == [1, 0]
    assert S["battle"][0] == 2 and S["stage"][0] == st.STAGE_SETUP


def test_surrender_the_second_player_is_asked_after_the_first_fights_on() -> None:
    S = battle(first=0)
    begin(S)
    act(S, A_PASS)
    assert S["stage"][0] == STAGE_SURRENDER and S["current"][0] == 1
    act(S, A_SURRENDER)
    assert S["battle_result"][0, 0] == 0  # seat 0 wins when seat 1 forfeits
    assert S["battle"][0] == 2 and S["stage"][0] == st.STAGE_SETUP


def test_basic_game_has_no_barracks_phase_after_the_surrender_round() -> None:
    S = battle(advanced=False)
    hand(S, 0, "Spy", "Negate", "Negate")
    to_decrees(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert S["battle_result"][0, 0] == st.BATTLE_NOT_PLAYED


# --- TT-A.4 enacting ------------------------------------------------------------------------


def test_decrees_first_player_first_at_most_one_each_and_optional() -> None:
    S = battle(first=1)
    hand(S, 0, "Spy", "Negate", "Negate")
    hand(S, 1, "Spy", "Engineer", "Engineer")
    to_decrees(S)
    assert S["stage"][0] == STAGE_DECREE and S["current"][0] == 1
    # any pair also meets SUMMON (TT-A.10.1)
    assert legal(S) == [A_DECREE + DECREE["MUD"], A_DECREE + DECREE["SUMMON"], A_PASS]
    act(S, A_DECREE + DECREE["MUD"])
    assert S["stage"][0] == STAGE_DECREE and S["current"][0] == 0  # one decree, then the other
    assert legal(S) == [A_DECREE + DECREE["FOG"], A_DECREE + DECREE["SUMMON"], A_PASS]
    act(S, A_PASS)  # enacting is optional
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert list(S["decree_enacted"][0]) == [-1, DECREE["MUD"]]
    assert S["no_movement"][0, 0] and not S["no_movement"][0, 1]  # TT-A.8.2
    assert names_in(S, 0, st.PLACE_BARRACKS) == ["Negate", "Negate", "Spy"]


def test_enacting_shows_the_hand_and_discards_the_named_cards_and_the_pair_to_resupply() -> None:
    S = battle()
    hand(S, 0, "Spy", "Negate", "Negate", "Foot", "Foot", "Press")
    to_decrees(S)
    act(S, A_DECREE + DECREE["FOG"])
    assert S["hand_shown"][0, 0] and not S["hand_shown"][0, 1]
    shown = S["shown_counts"][0, 0]
    assert shown[CARD["Negate"]] == 2 and shown[CARD["Foot"]] == 2 and shown[CARD["Press"]] == 1
    # R44: the pair reuses the second Negate (R12); the Foot pair stays
    assert names_in(S, 0, st.PLACE_RESUPPLY) == ["Negate", "Negate", "Spy"]
    assert names_in(S, 0, st.PLACE_BARRACKS) == ["Foot", "Foot", "Press"]
    assert S["no_combat"][0, 1] and not S["no_combat"][0, 0]  # TT-A.7.2
    ok(S)


def test_a_pair_of_other_cards_is_discarded_when_no_named_card_is_doubled() -> None:
    S = battle()
    hand(S, 0, "Spy", "Negate", "Archer", "Archer", "Foot", "Foot")
    to_decrees(S)
    act(S, A_DECREE + DECREE["FOG"])
    # R44: the first name held twice in card order (Foot before Archer)
    assert names_in(S, 0, st.PLACE_RESUPPLY) == ["Foot", "Foot", "Negate", "Spy"]
    ok(S)


def test_unique_cards_spent_are_the_first_names_in_card_order() -> None:
    S = battle()
    hand(S, 0, "Crown", "Retreat", "Negate", "Spy", "Engineer", "Saved", "Press")
    to_decrees(S)
    act(S, A_DECREE + DECREE["TACTICA!"])
    assert names_in(S, 0, st.PLACE_BARRACKS) == ["Crown"]  # the last name in card order stays
    ok(S)


# --- TT-A.5 TACTICA! --------------------------------------------------------------------------


def test_tactica_the_opponent_may_still_enact_and_both_forbid_both() -> None:
    S = battle()
    six = ("Foot", "Champion", "Archer", "Crossbow", "Press", "Saved")
    hand(S, 0, *six)
    hand(S, 1, *six)
    to_decrees(S)
    act(S, A_DECREE + DECREE["TACTICA!"])
    assert S["no_cards"][0, 1] and not S["no_cards"][0, 0]  # TT-A.5.2
    assert A_DECREE + DECREE["TACTICA!"] in legal(S)  # TT-A.5.3 NOTE1
    act(S, A_DECREE + DECREE["TACTICA!"])
    assert S["no_cards"][0, 0] and S["no_cards"][0, 1]  # TT-A.5.5 NOTE3
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_tactica_needs_six_unique_cards_in_the_barracks() -> None:
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Crossbow", "Press")
    to_decrees(S)
    assert legal(S) == [A_PASS]


# --- TT-A.6 PROMOTION -------------------------------------------------------------------------


def test_promotion_trains_the_chosen_capturer_from_resupply_anywhere_on_the_field() -> None:
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Press")
    far = troop(S, 0, "Foot", 50, captured_last_turn=True)  # nowhere near a wall
    near = troop(S, 0, "Archer", 11, captured_last_turn=True)
    troop(S, 0, "Crossbow", 12)  # took no part in a capture
    tr = ids(0, "Training")[3]
    to(S, tr, st.PLACE_RESUPPLY)
    to_decrees(S)
    act(S, A_DECREE + DECREE["PROMOTION"])
    assert S["stage"][0] == STAGE_PROMOTION_TROOP and legal(S) == [A_HEX + 11, A_HEX + 50]
    act(S, A_HEX + 50)
    assert S["card_place"][0, tr] == st.PLACE_UNDER and S["card_under"][0, tr] == far
    assert S["troop_training"][0, far] == 1 and S["troop_training"][0, near] == 0
    assert S["stage"][0] == STAGE_DECREE and S["current"][0] == 1
    ok(S)


def test_promotion_takes_the_training_card_from_the_troop_pile_when_resupply_has_none() -> None:
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Press")
    c = troop(S, 0, "Crossbow", 40, captured_last_turn=True)
    before = int(S["pile_count"][0, 0, PILE_TROOP])
    to_decrees(S)
    act(S, A_DECREE + DECREE["PROMOTION"])  # one qualifying troop: trained at once
    assert S["troop_training"][0, c] == 1
    assert S["pile_count"][0, 0, PILE_TROOP] == before - 1
    assert S["current"][0] == 1
    ok(S)


def test_promotion_spends_a_training_card_of_the_requirement_first() -> None:
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Training")
    c = troop(S, 0, "Crossbow", 40, captured_last_turn=True)
    for tr in ids(0, "Training"):  # no other training card anywhere
        if S["card_place"][0, tr] != st.PLACE_BARRACKS:
            to(S, tr, st.PLACE_LOST)
    to_decrees(S)
    act(S, A_DECREE + DECREE["PROMOTION"])
    assert S["troop_training"][0, c] == 1  # R46: the Training just discarded is used
    ok(S)


def test_promotion_is_not_enactable_without_a_training_card_or_a_trainable_capturer() -> None:
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Press")
    c = troop(S, 0, "Crossbow", 40, captured_last_turn=True)
    for tr in ids(0, "Training"):
        to(S, tr, st.PLACE_LOST)
    to_decrees(S)
    assert legal(S) == [A_PASS]  # I23: none available
    S = battle()
    hand(S, 0, "Foot", "Champion", "Archer", "Press")
    c = troop(S, 0, "Crossbow", 40, captured_last_turn=True)
    for tr in ids(0, "Training")[:2]:
        to(S, tr, st.PLACE_UNDER, c)  # already 2x: never above (TT-A.6.2)
    to_decrees(S)
    assert legal(S) == [A_PASS]


# --- TT-A.9 BETRAYAL! -------------------------------------------------------------------------


def test_betrayal_needs_a_hostage_and_lets_the_player_muster_a_betrayer() -> None:
    S = battle()
    hand(S, 0, "Crown", "Spy", "Negate")
    to_decrees(S)
    assert legal(S) == [A_PASS]
    S = battle()
    hand(S, 0, "Crown", "Spy", "Negate")
    to(S, ids(1, "Foot")[0], st.PLACE_HOSTAGE, 0)
    to_decrees(S)
    act(S, A_DECREE + DECREE["BETRAYAL!"])
    assert S["betrayal_muster"][0, 0] and not S["betrayal_muster"][0, 1]
    assert names_in(S, 0, st.PLACE_RESUPPLY) == ["Crown", "Negate", "Spy"]


# --- TT-A.10 SUMMON ---------------------------------------------------------------------------


def test_summon_first_time_places_the_base_within_three_hexes_of_an_own_wall() -> None:
    S = battle()
    hand(S, 0, "Foot", "Foot")
    troop(S, 0, "Archer", 20)  # a troop's hex is not empty
    to_decrees(S)
    act(S, A_DECREE + DECREE["SUMMON"])
    assert S["stage"][0] == STAGE_SUMMON_SIDE and legal(S) == [A_SIDE, A_SIDE + 1]
    act(S, A_SIDE + 1)
    assert S["stage"][0] == STAGE_SUMMON_HEX
    hexes = [a - A_HEX for a in legal(S)]
    dist = GEO.distance[0]
    expect = [
        h
        for h in range(st.MAX_HEXES)
        if dist[h, h] == 0
        and not GEO.wall_zone[0][0, h]
        and not GEO.wall_zone[0][1, h]
        and min(dist[h, 2], dist[h, 6]) <= TB.spire_wall_distance
        and h != 20
    ]
    assert hexes == expect
    act(S, A_HEX + 21)
    assert S["spire_hex"][0, 0] == 21 and S["spire_height"][0, 0] == 1
    assert S["summon_card_side"][0, 0, S["spire_card"][0, 0, 0]] == 1
    assert S["hex_feature"][0, 21] == st.FEATURE_SPIRE
    assert names_in(S, 0, st.PLACE_RESUPPLY) == ["Foot", "Foot"]
    ok(S)


def test_summon_later_cards_stack_on_the_spire_with_their_chosen_side() -> None:
    S = battle()
    put_feature(S, 21, st.FEATURE_SPIRE, 0, 0)
    S["spire_hex"][0, 0] = 21
    S["spire_card"][0, 0, 0] = 0
    S["summon_card_place"][0, 0, 0] = st.SUMMON_IN_SPIRE
    S["summon_card_side"][0, 0, 0] = 1
    S["spire_height"][0, 0] = 1
    hand(S, 0, "Spy", "Spy")
    to_decrees(S)
    act(S, A_DECREE + DECREE["SUMMON"])
    act(S, A_SIDE + 0)
    assert S["spire_height"][0, 0] == 2 and S["spire_card"][0, 0, 1] == 1
    assert S["summon_card_side"][0, 0, 1] == 0
    assert S["summon_card_place"][0, 0, 1] == st.SUMMON_IN_SPIRE
    assert S["stage"][0] == STAGE_DECREE and S["current"][0] == 1
    ok(S)


def test_summon_stacks_on_a_spire_kept_off_the_battlefield() -> None:
    S = battle()
    for s in range(2):
        S["spire_card"][0, 0, s] = s
        S["summon_card_place"][0, 0, s] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, 0, s] = 0
    S["spire_height"][0, 0] = 2  # R29: kept, but no hex at setup
    hand(S, 0, "Spy", "Spy")
    to_decrees(S)
    act(S, A_DECREE + DECREE["SUMMON"])
    act(S, A_SIDE + 1)  # R45: no new base, the card goes on the kept spire
    assert S["spire_height"][0, 0] == 3 and S["spire_hex"][0, 0] == -1
    assert not (S["hex_feature"][0] == st.FEATURE_SPIRE).any()
    ok(S)


def test_summon_is_not_enactable_with_no_summon_card_aside() -> None:
    S = battle()
    put_feature(S, 21, st.FEATURE_SPIRE, 0, 0)
    S["spire_hex"][0, 0] = 21
    for s in range(3):
        S["spire_card"][0, 0, s] = s
        S["summon_card_place"][0, 0, s] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, 0, s] = 0
    S["spire_height"][0, 0] = 3
    hand(S, 0, "Spy", "Spy")
    to_decrees(S)
    assert legal(S) == [A_PASS]


# --- a seeded random Barracks phase -----------------------------------------------------------


def test_random_barracks_phases_keep_every_invariant_and_never_stall() -> None:
    rng = np.random.default_rng(44)
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    enacted = set()
    for _game in range(150):
        S = battle(first=int(rng.integers(2)), advanced=bool(rng.random() < 0.9))
        for p in range(2):
            draw = list(range(p * st.MAX_ARMY_CARDS, p * st.MAX_ARMY_CARDS + TB.n_army_cards))
            for c in rng.permutation(draw)[: int(rng.integers(3, 11))]:
                if S["card_place"][0, c] in (0, 1):
                    to(S, int(c), st.PLACE_BARRACKS)
            free = [h for h in range(20, 80) if S["hex_troop"][0, h] < 0]
            for h in rng.choice(free, size=int(rng.integers(0, 4)), replace=False):
                name = (
                    "Foot"
                    if any(S["card_place"][0, c] in (0, 1) for c in ids(p, "Foot"))
                    else "Archer"
                )
                troop(S, p, name, int(h), captured_last_turn=bool(rng.random() < 0.6))
            if rng.random() < 0.5:
                hostage = [c for c in ids(1 - p, "Foot") if S["card_place"][0, c] in (0, 1)]
                if hostage:
                    to(S, hostage[0], st.PLACE_HOSTAGE, p)
            if rng.random() < 0.3:
                for tr in ids(p, "Training")[:2]:
                    if S["card_place"][0, tr] in (0, 1):
                        to(S, tr, st.PLACE_RESUPPLY)
            if rng.random() < 0.3:  # a one-card spire, standing or kept off the field (R29)
                S["spire_card"][0, p, 0] = 0
                S["summon_card_place"][0, p, 0] = st.SUMMON_IN_SPIRE
                S["summon_card_side"][0, p, 0] = int(rng.integers(2))
                S["spire_height"][0, p] = 1
                h = (12, 84)[p]
                if rng.random() < 0.7 and S["hex_troop"][0, h] < 0:
                    put_feature(S, h, st.FEATURE_SPIRE, p, 0)
                    S["spire_hex"][0, p] = h
        ok(S)
        begin(S)
        steps = 0
        # the phase ends, or a surrender ended the battle (the next one's setup)
        while S["stage"][0] not in (st.STAGE_PHASE_DONE, st.STAGE_SETUP):
            n = barracks.legal_barracks(S, TB, *GEO0, B0, out)
            assert n > 0, S["stage"][0]
            choices = [int(a) for a in out[:n]]
            if S["stage"][0] == STAGE_SURRENDER:
                a = A_SURRENDER if rng.random() < 0.05 else A_PASS
            else:
                a = choices[int(rng.integers(n))]
            if A_DECREE <= a < A_DECREE + N_DECREES:
                enacted.add(a - A_DECREE)
            barracks.apply_barracks(S, TB, *GEO0, B0, I(a))
            ok(S)
            steps += 1
            assert steps < 20
    assert enacted == set(range(TB.n_decrees))  # the loop reaches every decree
