"""TACTICA Movement kernels (envs/tactica/movement.py) on hand-built states: TT-B.7.3.1-7.3.2,
TT-A.8.2 (MUD), TT-A.11.2, TT-A.11.4-11.6 (summons), TT-A.13.3 (Burrow), and a seeded random loop of
Recruitment, Mustering and Movement that keeps every invariant."""

from __future__ import annotations

import numpy as np
from tt_board import (
    B0,
    CARD,
    NB,
    TABLES,
    TB,
    I,
    battle,
    hand,
    ids,
    ok,
    put_spire,
    to,
)

from envs.tactica import movement, muster
from envs.tactica import state as st
from envs.tactica.actions import (
    A_CARD,
    A_HEX,
    A_PASS,
    A_SACRIFICE,
    N_ACTIONS,
    STAGE_MOVE_DEST,
    STAGE_MOVE_SELECT,
    STAGE_MUSTER,
    STAGE_RECRUIT,
)

DIST = TABLES.battlefield.distance[0]
OURAN, CTHON = TABLES.summon_names.index("Ouran"), TABLES.summon_names.index("Cthon")
BURROW = TABLES.sacrifice_names.index("Burrow")


def legal(S) -> list[int]:
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    n = movement.legal_movement(S, TB, NB, B0, out)
    return [int(a) for a in out[:n]]


def act(S, a: int) -> None:
    assert a in legal(S), (a, legal(S))
    movement.apply_movement(S, TB, NB, B0, I(a))


def begin(S) -> None:
    movement.begin_movement(S, TB, NB, B0)


def summon(S, p: int, h: int, face: int) -> None:
    """p's summon card 0 on hex h with `face` up; the other summon cards LOST."""
    for s in range(TB.summon_cards):
        S["summon_card_place"][0, p, s] = st.SUMMON_LOST
        S["summon_card_side"][0, p, s] = face
    S["summon_card_place"][0, p, 0] = st.SUMMON_ON_BATTLEFIELD
    S["summon_card"][0, p] = 0
    S["summon_hex"][0, p] = h
    S["hex_summon"][0, h] = p


def within(h: int, n: int) -> set[int]:
    return {y for y in range(st.MAX_HEXES) if 0 < DIST[h, y] <= n}


def test_each_troop_moves_once_up_to_its_move_value() -> None:
    S = battle()
    foot = ids(0, "Foot")[0]
    to(S, foot, st.PLACE_BATTLEFIELD, 40)
    begin(S)
    assert S["stage"][0] == STAGE_MOVE_SELECT and legal(S) == [A_HEX + 40, A_PASS]
    act(S, A_HEX + 40)
    assert S["stage"][0] == STAGE_MOVE_DEST
    move = int(TB.troop_move[TABLES.troop_index["Foot"]])
    assert {a - A_HEX for a in legal(S)} == within(40, move)
    act(S, A_HEX + 42)
    assert S["hex_troop"][0, 42] == foot and S["troop_moved"][0, foot]
    # its one movement action is spent and seat 1 has nothing: the phase is over
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    ok(S)


def test_a_troop_passes_friendly_troops_but_not_enemy_troops() -> None:
    S = battle()
    foot = ids(0, "Foot")
    to(S, foot[0], st.PLACE_BATTLEFIELD, 40)
    to(S, foot[1], st.PLACE_BATTLEFIELD, 41)  # friendly, east
    to(S, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 39)  # enemy, west
    begin(S)
    act(S, A_HEX + 40)
    ends = {a - A_HEX for a in legal(S)}
    assert 42 in ends and 41 not in ends  # through the friend, not onto it
    assert 38 not in ends and 39 not in ends  # the enemy blocks the way west


def test_troops_mustered_this_turn_may_move() -> None:
    S = battle()
    (foot,) = hand(S, 0, "Foot")
    muster.begin_mustering(S, TB, NB, B0)
    muster.apply_mustering(S, TB, NB, B0, I(A_CARD + CARD["Foot"]))
    muster.apply_mustering(S, TB, NB, B0, I(A_HEX + 10))
    begin(S)
    assert legal(S) == [A_HEX + 10, A_PASS]


def test_the_first_player_moves_fully_then_the_other() -> None:
    S = battle(first=1)
    to(S, ids(0, "Foot")[0], st.PLACE_BATTLEFIELD, 40)
    to(S, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 60)
    to(S, ids(1, "Foot")[1], st.PLACE_BATTLEFIELD, 62)
    begin(S)
    assert S["current"][0] == 1 and legal(S) == [A_HEX + 60, A_HEX + 62, A_PASS]
    act(S, A_HEX + 60)
    act(S, A_HEX + 70)
    assert S["current"][0] == 1 and legal(S) == [A_HEX + 62, A_PASS]
    act(S, A_PASS)
    assert S["current"][0] == 0 and legal(S) == [A_HEX + 40, A_PASS]
    act(S, A_PASS)
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_mud_takes_away_the_opponents_movement_actions() -> None:
    S = battle()
    to(S, ids(0, "Foot")[0], st.PLACE_BATTLEFIELD, 40)
    summon(S, 0, 50, CTHON)
    hand(S, 0, "Spy", "Spy")  # a pair for Burrow: MUD takes it away too (R37)
    to(S, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 60)
    S["no_movement"][0, 0] = True
    begin(S)
    assert S["current"][0] == 1 and legal(S) == [A_HEX + 60, A_PASS]


def test_a_summon_passes_walls_and_troops_and_ends_on_an_empty_hex() -> None:
    S = battle()
    summon(S, 0, 11, OURAN)  # between wall 2 and the row below
    for k, h in enumerate((12, 20, 21)):
        to(S, ids(1, "Foot")[k], st.PLACE_BATTLEFIELD, h)
    to(S, ids(0, "Foot")[0], st.PLACE_BATTLEFIELD, 10)
    begin(S)
    assert legal(S) == [A_HEX + 10, A_HEX + 11, A_PASS]
    act(S, A_HEX + 11)
    ends = {a - A_HEX for a in legal(S)}
    move = int(TB.summon_move[OURAN])
    assert ends == within(11, move) - {2, 6, 10, 12, 20, 21}  # no wall, no troop
    act(S, A_HEX + 1)  # across wall 2
    assert S["summon_hex"][0, 0] == 1 and S["hex_summon"][0, 1] == 0 and S["summon_moved"][0, 0]
    ok(S)


def test_a_summon_passes_an_enemy_summon_but_never_ends_on_it() -> None:
    # TT-A.11.2: a summon never blocks a summon. Hex 23 is the only hex between 22 and 24
    S = battle()
    summon(S, 0, 22, OURAN)  # move 2
    summon(S, 1, 23, CTHON)
    assert {int(y) for y in NB[22] if y >= 0} & {int(y) for y in NB[24] if y >= 0} == {23}
    begin(S)
    act(S, A_HEX + 22)
    ends = {a - A_HEX for a in legal(S)}
    assert 24 in ends and 23 not in ends
    act(S, A_HEX + 24)
    assert S["summon_hex"][0].tolist() == [24, 23]
    ok(S)


def test_burrow_pays_a_chosen_pair_and_gives_cthon_four_more_hexes() -> None:
    S = battle()
    summon(S, 0, 40, CTHON)
    feet = hand(S, 0, "Foot", "Foot")
    spies = hand(S, 0, "Spy", "Spy")
    begin(S)
    assert legal(S) == [A_HEX + 40, A_SACRIFICE + BURROW, A_PASS]
    act(S, A_SACRIFICE + BURROW)
    assert legal(S) == [A_CARD + CARD["Foot"], A_CARD + CARD["Spy"]]
    act(S, A_CARD + CARD["Spy"])
    assert sorted(S["card_place"][0, spies]) == sorted([st.PLACE_LOST, st.PLACE_RESUPPLY])
    assert all(S["card_place"][0, c] == st.PLACE_BARRACKS for c in feet)
    # one sacrifice per summon per turn (TT-A.11.10): Burrow is gone, the Foot pair stays
    assert legal(S) == [A_HEX + 40, A_PASS]
    act(S, A_HEX + 40)
    reach = int(TB.summon_move[CTHON]) + int(TB.sacrifice_param[BURROW])
    walls = {2, 6, 92, 96}  # a summon ends on no wall (TT-A.11.5)
    assert {a - A_HEX for a in legal(S)} == within(40, reach) - walls
    ok(S)


def test_burrow_is_cthons_before_its_move_with_a_pair_only() -> None:
    S = battle()
    summon(S, 0, 40, OURAN)
    hand(S, 0, "Foot", "Foot")
    begin(S)
    assert A_SACRIFICE + BURROW not in legal(S)  # Ouran has no Burrow
    S = battle()
    summon(S, 0, 40, CTHON)
    hand(S, 0, "Foot", "Spy")  # no pair
    begin(S)
    assert legal(S) == [A_HEX + 40, A_PASS]
    hand(S, 0, "Foot")
    act(S, A_HEX + 40)
    act(S, A_HEX + 41)  # Cthon has moved: too late for Burrow, and nothing else to do
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_a_burrow_pair_of_one_name_is_paid_without_asking() -> None:
    S = battle()
    summon(S, 0, 40, CTHON)
    feet = hand(S, 0, "Foot", "Foot", "Foot")
    begin(S)
    act(S, A_SACRIFICE + BURROW)
    assert S["stage"][0] == STAGE_MOVE_SELECT and S["sacrifices_made"][0, 0] == 1
    assert sorted(S["card_place"][0, feet]) == sorted(
        [st.PLACE_LOST, st.PLACE_RESUPPLY, st.PLACE_BARRACKS]
    )


def test_a_betrayer_moves_for_the_player_it_fights_for() -> None:
    S = battle()
    archer = ids(1, "Archer")[0]
    to(S, archer, st.PLACE_BATTLEFIELD, 40)
    S["troop_betrayer"][0, archer] = True
    S["betrayer_token"][0, 0] = archer
    to(S, ids(0, "Foot")[0], st.PLACE_BATTLEFIELD, 41)  # its new friend
    S["first_player"][0] = S["current"][0] = 1
    begin(S)
    # seat 1, first, has no troop of its own on the field: seat 0 moves both troops
    assert S["current"][0] == 0 and legal(S) == [A_HEX + 40, A_HEX + 41, A_PASS]
    act(S, A_HEX + 40)
    act(S, A_HEX + 49)
    assert S["hex_troop"][0, 49] == archer and S["troop_moved"][0, archer]
    ok(S)


def test_random_turns_keep_cards_and_features_consistent() -> None:
    rng = np.random.default_rng(7)
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    for game in range(48):
        S = battle(first=game % 2)
        put_spire(S, 0, 30, [0, 1, 1])
        put_spire(S, 1, 66, [1, 0, 1])
        S["no_movement"][0, 1] = game % 4 == 3
        for p in range(2):  # hostages both ways: Crown, BETRAYAL! and betrayers on the move
            for c in ids(1 - p, "Foot")[:2]:
                to(S, c, st.PLACE_HOSTAGE, p)
            S["betrayal_muster"][0, p] = True
        for _turn in range(6):
            muster.begin_recruitment(S, TB, B0)
            while S["stage"][0] == STAGE_RECRUIT:
                n = muster.legal_recruitment(S, TB, B0, out)
                muster.apply_recruitment(S, TB, B0, I(out[rng.integers(n)]))
            muster.begin_mustering(S, TB, NB, B0)
            while S["stage"][0] != st.STAGE_PHASE_DONE:
                n = muster.legal_mustering(S, TB, NB, B0, out)
                assert n > 0 and S["stage"][0] >= STAGE_MUSTER
                muster.apply_mustering(S, TB, NB, B0, I(out[rng.integers(n)]))
            begin(S)
            while S["stage"][0] != st.STAGE_PHASE_DONE:
                n = movement.legal_movement(S, TB, NB, B0, out)
                assert n > 0
                movement.apply_movement(S, TB, NB, B0, I(out[rng.integers(n)]))
                ok(S)
            for c in range(st.N_CARD_IDS):
                if S["card_place"][0, c] == st.PLACE_IN_PLAY:
                    to(S, c, st.PLACE_RESUPPLY)
            S["first_player"][0] = 1 - S["first_player"][0]
