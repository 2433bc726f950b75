"""TACTICA Combat phase (envs/tactica/combat_phase.py) on hand-built states: who may attack
what (TT-B.7.4.1-7.4.2), declaring the attackers (R39), capture (TT-B.7.4.5-7.4.6), the
order of the players (R2), FOG (TT-A.7.2), betrayers (TT-A.9.3-9.4), the card window and the
tactics timings (TT-B.4.1), rescue, training leaving with its troop (TT-B.3.6), summons and
razing, summons never touching a summon or a spire (TT-A.11.2), and the Combat sacrifices
Aegis, Tempest and Devour (TT-A.11.6, TT-A.11.10, TT-A.12.2-12.3, TT-A.13.2, R70, R71); plus
random play inside the phase keeping the card and feature invariants."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactica import combat_phase as cp
from envs.tactica import muster, piles, resolution
from envs.tactica import state as st
from envs.tactica.actions import (
    A_CARD,
    A_HEX,
    A_PASS,
    A_PILE,
    A_SACRIFICE,
    N_ACTIONS,
    STAGE_AEGIS_WINDOW,
    STAGE_ATTACK_JOIN,
    STAGE_ATTACKER_CARD,
    STAGE_COMBAT_SELECT,
    STAGE_DEFENDER_CARD,
    STAGE_ENGINEER_TARGET,
    STAGE_NEGATE_WINDOW,
    STAGE_RESCUE_HEX,
    STAGE_RETREAT_HEX,
    STAGE_RETREAT_WINDOW,
    STAGE_SAVED_CAPTURE,
    STAGE_SAVED_SWAP,
)
from envs.tactica.battlefield import FEATURE_LANDMARK, FEATURE_WALL
from envs.tactica.sacrifice import STAGE_SACRIFICE_PAIR
from envs.tactica.tables import CARD_TROOP, PHASE_COMBAT, load_tables

TABLES = load_tables()
TB = TABLES.arrays
GEO = TABLES.battlefield
BF = 0  # battle 1 (reset_war starts it): an 11 x 9 field, hex = 9 * row + column
G = (GEO.neighbours[BF], GEO.distance[BF], GEO.lof_crossed[BF], GEO.lof_edges[BF])
I = np.int64  # noqa: E741 - the kernels take int64 indices (one signature each)
B0 = I(0)


def _hex(col: int, row: int) -> int:
    return GEO.hex_index(BF, col, row)


def _war() -> np.ndarray:
    S = st.allocate(1)
    piles.reset_war(S, TB, B0, I(5), I(0))
    return S


def _free(S, p: int, name: str) -> int:
    """A copy of `name` of player p still in a pile."""
    c = TABLES.card_index[name]
    for k in range(TB.n_army_cards):
        card = p * st.MAX_ARMY_CARDS + k
        if TB.army_card[k] == c and S["card_place"][0, card] in (
            st.PLACE_TROOP_PILE,
            st.PLACE_TACTICS_PILE,
        ):
            return card
    raise AssertionError(f"no free {name} of player {p}")


def _troop(S, p: int, name: str, col: int, row: int, training: int = 0) -> int:
    card = _free(S, p, name)
    piles.move_card(S, TB, B0, I(card), I(st.PLACE_BATTLEFIELD), I(_hex(col, row)))
    for _ in range(training):
        piles.move_card(S, TB, B0, I(_free(S, p, "Training")), I(st.PLACE_UNDER), I(card))
    return card


def _begin(S, first: int = 0) -> None:
    S["first_player"][0] = first
    cp.begin_combat(S, TB, *G, B0)


def _legal(S) -> list[int]:
    out = np.zeros(N_ACTIONS, np.int16)
    n = cp.legal_combat(S, TB, *G, B0, out)
    return [int(a) for a in out[:n]]


def _apply(S, a: int) -> None:
    assert a in _legal(S), (a, _legal(S))
    cp.apply_combat(S, TB, *G, B0, I(a))


WINDOWS = (STAGE_RETREAT_WINDOW, STAGE_ATTACKER_CARD, STAGE_DEFENDER_CARD)


def _pass_windows(S) -> None:
    """Decline the card window (asked whatever the hands hold): Retreat, attacker, defender."""
    while S["stage"][0] in WINDOWS:
        _apply(S, A_PASS)


def _declare(S, target: tuple[int, int], *attackers: tuple[int, int]) -> None:
    _apply(S, A_HEX + _hex(*target))
    for x in attackers:
        _apply(S, A_HEX + _hex(*x))
    _apply(S, A_PASS)


def _card(name: str) -> int:
    return A_CARD + TABLES.card_index[name]


def _to_barracks(S, p: int, name: str) -> int:
    card = _free(S, p, name)
    piles.move_card(S, TB, B0, I(card), I(st.PLACE_BARRACKS), I(-1))
    return card


def _invariants_hold(S) -> bool:
    return (
        piles.conservation_error(S, TB, B0) == piles.CONSERVED
        and piles.feature_error(S, TB, B0) == piles.FEATURES_CONSISTENT
    )


# --- who may attack what (TT-B.7.4.1-7.4.2) ---------------------------------------------------


def test_a_melee_troop_attacks_only_an_adjacent_enemy() -> None:
    S = _war()
    _troop(S, 0, "Foot", 4, 5)
    _troop(S, 1, "Foot", 5, 5)  # adjacent
    _troop(S, 1, "Foot", 7, 5)  # 3 hexes away
    _begin(S)
    assert S["phase"][0] == PHASE_COMBAT
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 0)
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]


def test_a_ranged_troop_attacks_within_its_range() -> None:
    S = _war()
    _troop(S, 0, "Archer", 1, 5)  # range 3
    _troop(S, 1, "Foot", 4, 5)  # 3 hexes away
    _troop(S, 1, "Foot", 5, 5)  # 4 hexes away
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(4, 5), A_PASS]


def test_a_ranged_attack_needs_a_clear_line_of_fire() -> None:
    S = _war()
    _troop(S, 0, "Archer", 1, 5)
    _troop(S, 1, "Foot", 4, 5)
    h = _hex(2, 5)  # a wall of player 1 between them (TT-B.2.8)
    S["hex_feature"][0, h] = FEATURE_WALL
    S["hex_feature_owner"][0, h] = 1
    S["hex_feature_card"][0, h] = 0
    S["wall_hex"][0, 1, 0] = h
    assert _invariants_hold(S)
    _begin(S)
    # nobody can attack: both players pass automatically
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_a_hill_adds_its_range_modifier_to_a_ranged_troop() -> None:
    S = _war()
    _troop(S, 0, "Archer", 1, 5)
    _troop(S, 1, "Foot", 5, 5)  # 4 hexes away: out of range 3
    S["first_player"][0] = 0
    _begin(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    S = _war()
    h = _hex(1, 5)
    hill = TABLES.landmark_index["Hill/Hollow"]
    j = int(np.flatnonzero(TB.army_landmark[: TB.n_landmark_cards] == hill)[0])
    S["hex_feature"][0, h] = FEATURE_LANDMARK
    S["hex_feature_owner"][0, h] = 0
    S["hex_feature_card"][0, h] = j
    S["landmark_hex"][0, 0, j] = h
    S["landmark_side"][0, 0, j] = 0  # Hill: range +1
    _troop(S, 0, "Archer", 1, 5)
    _troop(S, 1, "Foot", 5, 5)
    assert _invariants_hold(S)
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]


# --- declaring and resolving (TT-B.7.4.2, TT-B.7.4.5-7.4.6, R39) ------------------------------


def test_capture_when_total_off_exceeds_total_def() -> None:
    S = _war()
    a1 = _troop(S, 0, "Foot", 3, 5)
    a2 = _troop(S, 0, "Foot", 5, 5)
    t = _troop(S, 1, "Foot", 4, 5, training=1)  # DEF 2 + 1 = 3
    tr = int(np.flatnonzero(S["card_under"][0] == t)[0])
    _begin(S)
    _apply(S, A_HEX + _hex(4, 5))
    assert S["stage"][0] == STAGE_ATTACK_JOIN
    # R39: the first attacker is declared like the others; no resolving without one
    assert _legal(S) == [A_HEX + _hex(3, 5), A_HEX + _hex(5, 5)]
    _apply(S, A_HEX + _hex(3, 5))
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]
    _apply(S, A_HEX + _hex(5, 5))
    assert _legal(S) == [A_PASS]
    _apply(S, A_PASS)
    _pass_windows(S)  # OFF 2 + 2 = 4 > DEF 3
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE and S["card_holder"][0, t] == 0
    assert S["card_place"][0, tr] == st.PLACE_RESUPPLY  # training to its owner's RESUPPLY
    assert S["hex_troop"][0, _hex(4, 5)] == -1
    for a in (a1, a2):
        assert S["troop_fought"][0, a] and S["troop_capturing"][0, a]
    assert S["stage"][0] == st.STAGE_PHASE_DONE  # nobody else can attack
    assert _invariants_hold(S)


def test_equal_totals_do_not_capture_and_the_attackers_are_spent() -> None:
    S = _war()
    a = _troop(S, 0, "Foot", 3, 5)
    t = _troop(S, 1, "Foot", 4, 5)
    _begin(S)
    _apply(S, A_HEX + _hex(4, 5))
    _apply(S, A_HEX + _hex(3, 5))
    _apply(S, A_PASS)
    _pass_windows(S)  # OFF 2, DEF 2: the target survives combat
    assert S["card_place"][0, t] == st.PLACE_BATTLEFIELD
    assert S["troop_fought"][0, a] and not S["troop_capturing"][0, a]
    blocks = np.zeros(st.MAX_HEXES, np.bool_)
    cp.fire_blocks(S, TB, B0, blocks)
    assert not cp.can_attack(S, TB, *G[1:], B0, I(a), I(_hex(4, 5)), blocks)
    # player 0 has nothing left to do; player 1's Foot still has its combat action
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)
    assert _legal(S) == [A_HEX + _hex(3, 5), A_PASS]


def test_a_troop_that_spent_its_combat_action_cannot_join_another_attack() -> None:
    S = _war()
    _troop(S, 0, "Foot", 4, 5)
    _troop(S, 1, "Foot", 5, 5)
    _troop(S, 1, "Foot", 4, 4)  # also adjacent (the row above)
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(4, 4), A_HEX + _hex(5, 5), A_PASS]
    _declare(S, (5, 5), (4, 5))
    _pass_windows(S)
    assert S["current"][0] == 1  # player 0's only troop is spent: its turn ends


def test_the_first_player_acts_fully_then_the_other() -> None:
    S = _war()
    _troop(S, 0, "Foot", 4, 5)
    _troop(S, 1, "Foot", 5, 5)
    _begin(S, first=1)
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)
    _apply(S, A_PASS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 0)
    _apply(S, A_PASS)
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_fog_the_opponent_takes_no_combat_action() -> None:
    S = _war()
    _troop(S, 0, "Foot", 4, 5)
    _troop(S, 1, "Foot", 5, 5)
    S["no_combat"][0, 0] = True  # player 1 enacted FOG
    _begin(S, first=0)
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)
    _apply(S, A_PASS)
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_a_captured_betrayer_goes_to_its_owners_lost_pile() -> None:
    S = _war()
    betrayer = _troop(S, 1, "Foot", 4, 5)  # player 1's card fighting for player 0
    S["troop_betrayer"][0, betrayer] = True
    S["betrayer_token"][0, 0] = betrayer
    assert cp.troop_controller(S, B0, I(betrayer)) == 0
    _troop(S, 1, "Foot", 3, 5)
    _troop(S, 1, "Foot", 5, 5)
    _begin(S, first=1)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert S["card_place"][0, betrayer] == st.PLACE_LOST
    assert S["betrayer_token"][0, 0] == -1
    assert _invariants_hold(S)


def test_troops_capture_a_summon_and_its_card_goes_to_lost() -> None:
    S = _war()
    h = _hex(4, 5)
    cthon = TABLES.summon_index["Cthon"]  # DEF 3
    S["summon_card_place"][0, 1, 0] = st.SUMMON_ON_BATTLEFIELD
    S["summon_card_side"][0, 1, 0] = cthon
    S["summon_card"][0, 1] = 0
    S["summon_hex"][0, 1] = h
    S["hex_summon"][0, h] = 1
    assert _invariants_hold(S)
    _troop(S, 0, "Foot", 3, 5)
    _troop(S, 0, "Foot", 5, 5)
    _begin(S)
    assert _legal(S) == [A_HEX + h, A_PASS]  # a summon is a target like a troop
    _apply(S, A_HEX + h)
    _apply(S, A_HEX + _hex(3, 5))
    _apply(S, A_HEX + _hex(5, 5))
    _apply(S, A_PASS)  # OFF 4 > DEF 3
    assert S["summon_card_place"][0, 1, 0] == st.SUMMON_LOST
    assert S["summon_hex"][0, 1] == -1 and S["hex_summon"][0, h] == -1
    assert _invariants_hold(S)


# --- the card window (TT-B.7.4.5, TT-B.4) --------------------------------------------------------


def _duel(S) -> tuple[int, int]:
    """Player 0's Foot on (3, 5) declares an attack on player 1's Foot on (4, 5)."""
    a = _troop(S, 0, "Foot", 3, 5)
    t = _troop(S, 1, "Foot", 4, 5)
    return a, t


def test_card_windows_are_asked_whatever_the_hand_holds() -> None:
    S = _war()  # both Barracks empty
    _duel(S)
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    for stage, seat in (
        (STAGE_RETREAT_WINDOW, 1),
        (STAGE_ATTACKER_CARD, 0),
        (STAGE_DEFENDER_CARD, 1),
    ):
        assert (S["stage"][0], S["current"][0]) == (stage, seat)
        assert _legal(S) == [A_PASS]
        _apply(S, A_PASS)


def test_tactica_closes_the_card_windows_of_the_barred_player() -> None:
    S = _war()
    _duel(S)
    _to_barracks(S, 1, "Retreat")
    S["no_cards"][0, 1] = True  # player 0 enacted TACTICA!: player 1 plays no card
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    assert (S["stage"][0], S["current"][0]) == (STAGE_ATTACKER_CARD, 0)
    _apply(S, A_PASS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)  # resolved, 2 vs 2


def test_retreat_moves_the_target_away_and_cancels_the_attack() -> None:
    S = _war()
    a, t = _duel(S)
    retreat = _to_barracks(S, 1, "Retreat")
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    assert _legal(S) == [_card("Retreat"), A_PASS]
    _apply(S, _card("Retreat"))
    assert (S["stage"][0], S["current"][0]) == (STAGE_RETREAT_HEX, 1)  # no Negate window
    free = sorted(
        int(h) for h in GEO.neighbours[BF, _hex(4, 5)] if h >= 0 and S["hex_troop"][0, h] < 0
    )
    assert _legal(S) == [A_HEX + h for h in free]
    _apply(S, A_HEX + free[0])
    assert S["card_hex"][0, t] == free[0] and S["card_place"][0, retreat] == st.PLACE_IN_PLAY
    assert S["troop_fought"][0, a] and not S["troop_capturing"][0, a]
    assert _invariants_hold(S)


def test_press_gives_adjacent_attackers_one_more_off() -> None:
    S = _war()
    _, t = _duel(S)
    press = _to_barracks(S, 0, "Press")
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    _apply(S, A_PASS)  # no Retreat
    assert _legal(S) == [_card("Press"), A_PASS]
    _apply(S, _card("Press"))
    assert (S["stage"][0], S["current"][0]) == (STAGE_NEGATE_WINDOW, 1)
    assert _legal(S) == [A_PASS]  # asked with no Negate in hand
    _apply(S, A_PASS)
    _pass_windows(S)  # OFF 2 + 1 = 3 > DEF 2
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    assert S["card_place"][0, press] == st.PLACE_IN_PLAY


def test_negate_cancels_a_press_which_goes_to_resupply_at_once() -> None:
    S = _war()
    _, t = _duel(S)
    press = _to_barracks(S, 0, "Press")
    negate = _to_barracks(S, 1, "Negate")
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    _apply(S, A_PASS)
    _apply(S, _card("Press"))
    assert _legal(S) == [_card("Negate"), A_PASS]
    _apply(S, _card("Negate"))
    assert S["card_place"][0, press] == st.PLACE_RESUPPLY
    assert S["card_place"][0, negate] == st.PLACE_IN_PLAY
    assert (S["stage"][0], S["current"][0]) == (STAGE_DEFENDER_CARD, 1)
    _apply(S, A_PASS)  # OFF 2, DEF 2
    assert S["card_place"][0, t] == st.PLACE_BATTLEFIELD


def _saved_setup(S, training: int = 0) -> tuple[int, int]:
    """Player 1's Foot on (4, 5) with a friendly Foot on (5, 5); player 0's Champion on
    (3, 5) attacks it. Returns (target, defending Foot)."""
    t = _troop(S, 1, "Foot", 4, 5)
    d = _troop(S, 1, "Foot", 5, 5, training=training)
    _troop(S, 0, "Champion", 3, 5)
    _to_barracks(S, 1, "Saved")
    return t, d


def test_saved_target_that_survives_may_swap_with_a_defending_foot() -> None:
    S = _war()
    t, d = _saved_setup(S)
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    _apply(S, A_PASS)
    _apply(S, A_PASS)
    assert _legal(S) == [_card("Saved"), A_PASS]
    _apply(S, _card("Saved"))
    _apply(S, A_PASS)  # player 0 does not negate; OFF 3 vs DEF 2 + 1: survives
    assert (S["stage"][0], S["current"][0]) == (STAGE_SAVED_SWAP, 1)
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]
    _apply(S, A_HEX + _hex(5, 5))
    assert S["card_hex"][0, t] == _hex(5, 5) and S["card_hex"][0, d] == _hex(4, 5)
    assert _invariants_hold(S)


def test_saved_target_still_captured_takes_a_trained_defending_foot_with_it() -> None:
    S = _war()
    t, d = _saved_setup(S, training=1)
    helper = _troop(S, 0, "Foot", 4, 6)
    assert GEO.distance[BF, _hex(4, 6), _hex(4, 5)] == 1
    _begin(S)
    _declare(S, (4, 5), (3, 5), (4, 6))
    _apply(S, A_PASS)
    _apply(S, A_PASS)
    _apply(S, _card("Saved"))
    _apply(S, A_PASS)  # OFF 3 + 2 = 5 > DEF 2 + 1
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    assert (S["stage"][0], S["current"][0]) == (STAGE_SAVED_CAPTURE, 0)
    assert _legal(S) == [A_HEX + _hex(5, 5)]
    _apply(S, A_HEX + _hex(5, 5))
    assert S["card_place"][0, d] == st.PLACE_HOSTAGE and S["card_holder"][0, d] == 0
    assert S["troop_capturing"][0, helper]
    assert _invariants_hold(S)


def test_advanced_saved_champion_captured_takes_even_an_untrained_defending_foot() -> None:
    S = _war()
    S["advanced"][0] = True
    t = _troop(S, 1, "Champion", 4, 5)
    d = _troop(S, 1, "Foot", 5, 5)  # untrained: +1 DEF to the Champion (TT-A.2.4)
    _troop(S, 0, "Champion", 3, 5)
    for x in ((4, 6), (4, 4)):
        _troop(S, 0, "Foot", *x)
    _to_barracks(S, 1, "Saved")
    _begin(S)
    _declare(S, (4, 5), (3, 5), (4, 6), (4, 4))
    _apply(S, A_PASS)
    _apply(S, A_PASS)
    _apply(S, _card("Saved"))
    _apply(S, A_PASS)  # OFF 3 + 2 + 2 = 7 > DEF 4 + 1
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    assert _legal(S) == [A_HEX + _hex(5, 5)]  # any defending Foot (TT-A.2.5, R6)
    _apply(S, A_HEX + _hex(5, 5))
    assert S["card_place"][0, d] == st.PLACE_HOSTAGE


def test_advanced_saved_champion_that_survives_may_swap_with_a_defending_foot() -> None:
    S = _war()
    S["advanced"][0] = True
    t = _troop(S, 1, "Champion", 4, 5)
    d = _troop(S, 1, "Foot", 5, 5)
    _troop(S, 0, "Champion", 3, 5)
    _troop(S, 0, "Foot", 4, 6)
    _to_barracks(S, 1, "Saved")
    _begin(S)
    _declare(S, (4, 5), (3, 5), (4, 6))
    _apply(S, A_PASS)
    _apply(S, A_PASS)
    _apply(S, _card("Saved"))
    _apply(S, A_PASS)  # OFF 3 + 2 = 5 vs DEF 4 + 1: survives
    assert (S["stage"][0], S["current"][0]) == (STAGE_SAVED_SWAP, 1)
    _apply(S, A_HEX + _hex(5, 5))
    assert S["card_hex"][0, t] == _hex(5, 5) and S["card_hex"][0, d] == _hex(4, 5)


def test_fog_leaves_the_defence_windows_open() -> None:
    S = _war()
    _duel(S)
    S["no_combat"][0, 1] = True  # player 0 enacted FOG on player 1
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    assert (S["stage"][0], S["current"][0]) == (STAGE_RETREAT_WINDOW, 1)
    _apply(S, A_PASS)
    _apply(S, A_PASS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_DEFENDER_CARD, 1)


def test_an_advanced_engineer_removes_only_the_top_card_of_a_spire() -> None:
    S = _war()
    S["advanced"][0] = True
    h = _hex(4, 8)
    for s_ in range(2):  # a spire of two summon cards of player 1
        S["summon_card_place"][0, 1, s_] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, 1, s_] = 0
        S["spire_card"][0, 1, s_] = s_
    S["spire_height"][0, 1] = 2
    S["spire_hex"][0, 1] = h
    S["hex_feature"][0, h] = st.FEATURE_SPIRE
    S["hex_feature_owner"][0, h] = 1
    S["hex_feature_card"][0, h] = 0
    assert _invariants_hold(S)
    _to_barracks(S, 0, "Engineer")
    _begin(S)
    _apply(S, _card("Engineer"))
    _apply(S, A_PASS)
    assert _legal(S) == [A_HEX + h]
    _apply(S, A_HEX + h)
    assert S["spire_height"][0, 1] == 1 and S["summon_card_place"][0, 1, 1] == st.SUMMON_LOST
    assert S["summon_card_place"][0, 1, 0] == st.SUMMON_IN_SPIRE
    assert S["hex_feature"][0, h] == st.FEATURE_SPIRE
    assert _invariants_hold(S)


def _place_landmark(S, p: int, h: int, name: str, side: int) -> None:
    k = TABLES.landmark_index[name]
    j = int(np.flatnonzero(TB.army_landmark[: TB.n_landmark_cards] == k)[0])
    S["hex_feature"][0, h] = FEATURE_LANDMARK
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = j
    S["landmark_hex"][0, p, j] = h
    S["landmark_side"][0, p, j] = side


def test_an_engineer_in_the_window_removes_the_hill_and_its_def_at_once() -> None:
    S = _war()
    _place_landmark(S, 1, _hex(4, 5), "Hill/Hollow", 0)  # Hill: DEF +1
    t = _troop(S, 1, "Foot", 4, 5)
    _troop(S, 0, "Champion", 3, 5)
    _to_barracks(S, 0, "Engineer")
    _begin(S)
    _declare(S, (4, 5), (3, 5))
    _apply(S, A_PASS)
    _apply(S, _card("Engineer"))
    _apply(S, A_PASS)  # not negated
    assert (S["stage"][0], S["current"][0]) == (STAGE_ENGINEER_TARGET, 0)
    assert _legal(S) == [A_HEX + _hex(4, 5)]
    _apply(S, A_HEX + _hex(4, 5))
    assert S["landmark_lost"][0, 1].any() and S["hex_feature"][0, _hex(4, 5)] == 0
    _pass_windows(S)  # OFF 3 > DEF 2 (without the Hill's +1 it would have been 3)
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    assert _invariants_hold(S)


def test_an_engineer_may_be_played_as_a_combat_action_of_its_own() -> None:
    S = _war()
    h = _hex(4, 10)
    S["hex_feature"][0, h] = FEATURE_WALL
    S["hex_feature_owner"][0, h] = 1
    S["hex_feature_card"][0, h] = 0
    S["wall_hex"][0, 1, 0] = h
    engineer = _to_barracks(S, 0, "Engineer")
    _begin(S)
    assert _legal(S) == [_card("Engineer"), A_PASS]
    _apply(S, _card("Engineer"))
    _apply(S, A_PASS)  # player 1 does not negate
    assert _legal(S) == [A_HEX + h]
    _apply(S, A_HEX + h)
    assert S["wall_lost"][0, 1, 0] and S["wall_hex"][0, 1, 0] == -1
    assert S["card_place"][0, engineer] == st.PLACE_IN_PLAY
    assert S["stage"][0] == st.STAGE_PHASE_DONE  # nothing else to do for either player
    assert _invariants_hold(S)


def test_an_advanced_engineer_may_remove_a_friendly_feature_too() -> None:
    S = _war()
    S["advanced"][0] = True
    own, enemy = _hex(2, 0), _hex(6, 10)
    _enemy_wall(S, 0, own)  # player 0's own wall
    _enemy_wall(S, 1, enemy)
    _to_barracks(S, 0, "Engineer")
    _begin(S)
    _apply(S, _card("Engineer"))
    _apply(S, A_PASS)
    assert _legal(S) == [A_HEX + own, A_HEX + enemy]
    _apply(S, A_HEX + own)
    assert S["wall_lost"][0, 0, 0] and not S["wall_lost"][0, 1, 0]
    assert _invariants_hold(S)


# --- rescue (TT-B.7.4.7) -------------------------------------------------------------------------


def _enemy_wall(S, p: int, h: int, w: int = 0) -> None:
    S["hex_feature"][0, h] = FEATURE_WALL
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = w
    S["wall_hex"][0, p, w] = h


def _hostage(S, p: int, name: str) -> int:
    """One of player p's troops, held by the opponent."""
    card = _free(S, p, name)
    piles.move_card(S, TB, B0, I(card), I(st.PLACE_HOSTAGE), I(1 - p))
    return card


def test_a_troop_next_to_an_enemy_wall_rescues_a_hostage_onto_a_hex_beside_it() -> None:
    S = _war()
    _enemy_wall(S, 1, _hex(4, 10))
    far = _troop(S, 0, "Foot", 4, 7)  # not next to the wall: no rescue
    rescuer = _troop(S, 0, "Foot", 4, 9)
    assert GEO.distance[BF, _hex(4, 9), _hex(4, 10)] == 1
    _hostage(S, 0, "Foot")
    champion = _hostage(S, 0, "Champion")
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(4, 9), A_PASS]
    _apply(S, A_HEX + _hex(4, 9))
    assert (S["stage"][0], S["current"][0]) == (STAGE_RESCUE_HEX, 0)
    assert _legal(S) == [_card("Foot"), _card("Champion")]  # which hostage (R42)
    _apply(S, _card("Champion"))
    free = sorted(
        int(h)
        for h in GEO.neighbours[BF, _hex(4, 9)]
        if h >= 0 and S["hex_troop"][0, h] < 0 and S["hex_feature"][0, h] == 0
    )
    assert _legal(S) == [A_HEX + h for h in free]
    _apply(S, A_HEX + free[0])
    assert S["card_hex"][0, champion] == free[0] and S["troop_training"][0, champion] == 0
    assert S["troop_fought"][0, rescuer] and S["troop_fought"][0, champion]  # R42
    assert not S["troop_fought"][0, far]
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert _invariants_hold(S)


def test_a_rescued_troop_goes_to_the_barracks_when_no_hex_beside_the_rescuer_is_free() -> None:
    S = _war()
    _enemy_wall(S, 1, _hex(4, 10))
    _troop(S, 0, "Foot", 4, 9)
    for h in GEO.neighbours[BF, _hex(4, 9)]:
        if h >= 0 and S["hex_feature"][0, h] == 0:
            col, row = int(GEO.hex_col[BF, h]), int(GEO.hex_row[BF, h])
            _troop(S, 1, "Foot", col, row)
    hostage = _hostage(S, 0, "Champion")
    S["no_combat"][0, 1] = True  # keep player 1's Foot out of it
    _begin(S)
    assert A_HEX + _hex(4, 9) in _legal(S)
    _apply(S, A_HEX + _hex(4, 9))  # one hostage, no free hex: nothing left to choose
    assert S["card_place"][0, hostage] == st.PLACE_BARRACKS
    # the rescuer, player 0's only troop, is spent; player 1 is under FOG
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert _invariants_hold(S)


# --- summons and spires (TT-A.11.7, TT-A.11.9) ---------------------------------------------------


def _summon(S, p: int, h: int, name: str) -> None:
    S["summon_card_place"][0, p, 0] = st.SUMMON_ON_BATTLEFIELD
    S["summon_card_side"][0, p, 0] = TABLES.summon_index[name]
    S["summon_card"][0, p] = 0
    S["summon_hex"][0, p] = h
    S["hex_summon"][0, h] = p


def _spire(S, p: int, h: int, height: int) -> None:
    for k in range(height):
        S["summon_card_place"][0, p, k] = st.SUMMON_IN_SPIRE
        S["summon_card_side"][0, p, k] = 0
        S["spire_card"][0, p, k] = k
    S["spire_height"][0, p] = height
    S["spire_hex"][0, p] = h
    S["hex_feature"][0, h] = st.FEATURE_SPIRE
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = 0


def test_a_summon_attacks_alone_against_def_without_terrain() -> None:
    S = _war()
    S["advanced"][0] = True
    _summon(S, 0, _hex(4, 5), "Cthon")  # OFF 5
    _place_landmark(S, 1, _hex(5, 5), "Hill/Hollow", 0)  # DEF +1, ignored by summons
    t = _troop(S, 1, "Foot", 5, 5, training=2)  # DEF 2 + 2 = 4 (5 with the Hill)
    _troop(S, 0, "Foot", 6, 5)
    assert _invariants_hold(S)
    _begin(S)
    _apply(S, A_HEX + _hex(5, 5))
    assert _legal(S) == [A_HEX + _hex(4, 5), A_HEX + _hex(6, 5)]
    _apply(S, A_HEX + _hex(4, 5))
    assert _legal(S) == [A_PASS]  # no troop joins a summon
    _apply(S, A_PASS)  # no card window on a summon's attack (R19): OFF 5 > DEF 4
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE and S["card_holder"][0, t] == 0
    assert S["summon_fought"][0, 0]
    assert _invariants_hold(S)


def test_a_troop_joined_attack_leaves_the_summon_out() -> None:
    S = _war()
    S["advanced"][0] = True
    _summon(S, 0, _hex(4, 5), "Cthon")
    _troop(S, 1, "Foot", 5, 5)
    _troop(S, 0, "Foot", 6, 5)
    _begin(S)
    _apply(S, A_HEX + _hex(5, 5))
    _apply(S, A_HEX + _hex(6, 5))
    assert _legal(S) == [A_PASS]


def test_adjacent_troops_raze_an_enemy_spire_against_def_four() -> None:
    S = _war()
    S["advanced"][0] = True
    h = _hex(4, 5)
    _spire(S, 1, h, 2)
    _troop(S, 0, "Foot", 3, 5)
    _troop(S, 0, "Foot", 5, 5)
    _troop(S, 0, "Archer", 6, 5)  # 2 hexes away: razing needs adjacent troops
    assert _invariants_hold(S)
    _begin(S)
    assert _legal(S) == [A_HEX + h, A_PASS]
    _apply(S, A_HEX + h)
    assert _legal(S) == [A_HEX + _hex(3, 5), A_HEX + _hex(5, 5)]
    _declare_rest = (A_HEX + _hex(3, 5), A_HEX + _hex(5, 5), A_PASS)
    for a in _declare_rest:
        _apply(S, a)  # OFF 2 + 2 = 4, not above DEF 4 (no card window, R43)
    assert S["spire_height"][0, 1] == 2
    S = _war()
    S["advanced"][0] = True
    _spire(S, 1, h, 2)
    _troop(S, 0, "Foot", 3, 5)
    _troop(S, 0, "Champion", 5, 5)
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))  # OFF 2 + 3 = 5 > 4
    assert S["spire_height"][0, 1] == 1 and S["summon_card_place"][0, 1, 1] == st.SUMMON_LOST
    assert _invariants_hold(S)


# --- sacrifices in Combat (TT-A.11.6, TT-A.11.10, TT-A.12.2-12.3, TT-A.13.2, R70, R71) -----------

AEGIS = A_SACRIFICE + TABLES.sacrifice_index["Aegis"]
TEMPEST = A_SACRIFICE + TABLES.sacrifice_index["Tempest"]
DEVOUR = A_SACRIFICE + TABLES.sacrifice_index["Devour"]


def _pair(S, p: int, name: str) -> tuple[int, int]:
    return _to_barracks(S, p, name), _to_barracks(S, p, name)


def _guarded_duel(S, ouran: tuple[int, int]) -> int:
    """Player 0's two Foot (OFF 2 + 2 = 4) attack player 1's untrained Foot (DEF 2) on (4, 5);
    player 1's Ouran stands on `ouran`. Returns the target's card id."""
    _troop(S, 0, "Foot", 3, 5)
    _troop(S, 0, "Foot", 5, 5)
    t = _troop(S, 1, "Foot", 4, 5)
    _summon(S, 1, _hex(*ouran), "Ouran")
    return t


def test_aegis_window_is_asked_of_ourans_owner_within_two_hexes_whatever_the_barracks_holds():
    S = _war()  # player 1's Barracks is empty: no pair, yet the window is asked (R70)
    t = _guarded_duel(S, (6, 5))  # Ouran 2 hexes from the target
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert (S["stage"][0], S["current"][0]) == (STAGE_AEGIS_WINDOW, 1)
    assert _legal(S) == [A_PASS]
    _apply(S, A_PASS)  # OFF 4 > DEF 2: captured
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    S = _war()
    t = _guarded_duel(S, (7, 5))  # 3 hexes away: out of Aegis's reach, no window
    _pair(S, 1, "Foot")
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE


def test_aegis_gives_the_guarded_troop_three_more_def_and_its_single_pair_pays_at_once() -> None:
    S = _war()
    t = _guarded_duel(S, (6, 5))
    lost, resupply = _pair(S, 1, "Foot")
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert _legal(S) == [AEGIS, A_PASS]
    _apply(S, AEGIS)  # one name could pay: no pair to choose (R36); DEF 2 + 3 = 5 >= OFF 4
    assert S["card_place"][0, t] == st.PLACE_BATTLEFIELD
    assert S["card_place"][0, lost] == st.PLACE_LOST
    assert S["card_place"][0, resupply] == st.PLACE_RESUPPLY  # TT-A.11.6 (R18)
    assert S["sacrifices_made"][0, 1] == 1
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)  # player 0 is spent
    assert _invariants_hold(S)


def test_aegis_pair_is_chosen_when_two_names_could_pay() -> None:
    S = _war()
    _guarded_duel(S, (6, 5))
    _pair(S, 1, "Foot")
    retreats = _pair(S, 1, "Retreat")
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _apply(S, A_PASS)  # no Retreat played
    _pass_windows(S)
    _apply(S, AEGIS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_SACRIFICE_PAIR, 1)
    assert _legal(S) == [_card("Foot"), _card("Retreat")]
    _apply(S, _card("Retreat"))
    assert sorted(S["card_place"][0, list(retreats)]) == sorted([st.PLACE_LOST, st.PLACE_RESUPPLY])
    assert S["stage"][0] == STAGE_COMBAT_SELECT
    assert _invariants_hold(S)


def test_aegis_is_no_card_tactica_leaves_it_but_one_sacrifice_per_turn_closes_it() -> None:
    S = _war()
    t = _guarded_duel(S, (6, 5))
    _pair(S, 1, "Foot")
    S["no_cards"][0, 1] = True  # TACTICA! against player 1: no card window, Aegis still
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert _legal(S) == [AEGIS, A_PASS]
    S = _war()
    t = _guarded_duel(S, (6, 5))
    _pair(S, 1, "Foot")
    S["sacrifices_made"][0, 1] = 1  # Ouran already had its sacrifice this turn (TT-A.11.10)
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))
    _pass_windows(S)
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE  # resolved without asking


def test_aegis_guards_against_a_summons_attack_too() -> None:
    S = _war()
    S["advanced"][0] = True
    _summon(S, 0, _hex(4, 5), "Cthon")  # OFF 5
    t = _troop(S, 1, "Foot", 5, 5, training=2)  # DEF 4
    S["summon_card_place"][0, 1, 0] = st.SUMMON_ON_BATTLEFIELD  # player 1's Ouran, 2 away
    S["summon_card_side"][0, 1, 0] = TABLES.summon_index["Ouran"]
    S["summon_card"][0, 1] = 0
    S["summon_hex"][0, 1] = _hex(7, 5)
    S["hex_summon"][0, _hex(7, 5)] = 1
    _pair(S, 1, "Foot")
    _begin(S)
    _declare(S, (5, 5), (4, 5))  # no card window on a summon's attack (R19), Aegis asked
    assert (S["stage"][0], S["current"][0]) == (STAGE_AEGIS_WINDOW, 1)
    _apply(S, AEGIS)  # DEF 4 + 3 = 7 >= OFF 5
    assert S["card_place"][0, t] == st.PLACE_BATTLEFIELD and S["summon_fought"][0, 0]
    assert _invariants_hold(S)


def test_tempest_lets_ouran_attack_three_hexes_away_without_line_of_fire() -> None:
    S = _war()
    _summon(S, 0, _hex(2, 5), "Ouran")  # OFF 3, range 1
    t = _troop(S, 1, "Foot", 5, 5)  # 3 hexes away, DEF 2
    _enemy_wall(S, 1, _hex(3, 5))  # between them: no line of fire needed
    _troop(S, 1, "Foot", 7, 5)  # 5 hexes away: out of reach even with Tempest
    _begin(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE  # no pair: nothing to do, nothing asked
    S = _war()
    _summon(S, 0, _hex(2, 5), "Ouran")
    t = _troop(S, 1, "Foot", 5, 5)
    _enemy_wall(S, 1, _hex(3, 5))
    _pair(S, 0, "Foot")
    _begin(S)
    assert _legal(S) == [TEMPEST, A_PASS]
    _apply(S, TEMPEST)
    assert S["sacrifices_made"][0, 0] == 1
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]
    _declare(S, (5, 5), (2, 5))  # OFF 3 > DEF 2
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    assert _invariants_hold(S)


def test_tempest_is_offered_only_with_an_enemy_troop_in_its_reach() -> None:
    S = _war()
    _summon(S, 0, _hex(2, 5), "Ouran")
    _troop(S, 1, "Foot", 6, 5)  # 4 hexes away (R71: Tempest would serve nothing)
    _pair(S, 0, "Foot")
    _begin(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE


def test_under_fog_no_tempest_is_offered() -> None:
    S = _war()
    _summon(S, 0, _hex(2, 5), "Ouran")
    _troop(S, 1, "Foot", 5, 5)  # within Tempest's 3 hexes
    _pair(S, 0, "Foot")
    S["no_combat"][0, 0] = True  # FOG: Ouran has no combat action for Tempest to serve (R71)
    _begin(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE and S["sacrifices_made"][0, 0] == 0


def test_devour_sends_cthons_captive_to_its_owners_lost_pile() -> None:
    S = _war()
    _summon(S, 0, _hex(4, 5), "Cthon")  # OFF 5
    t = _troop(S, 1, "Foot", 5, 5, training=1)  # DEF 3
    tr = int(np.flatnonzero(S["card_under"][0] == t)[0])
    _pair(S, 0, "Negate")
    S["no_cards"][0, 0] = True  # TACTICA! does not forbid a sacrifice (TT-A.11.10)
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(5, 5), DEVOUR, A_PASS]
    _apply(S, DEVOUR)
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]  # one sacrifice per summon per turn
    _declare(S, (5, 5), (4, 5))
    assert S["card_place"][0, t] == st.PLACE_LOST  # not player 0's hostage
    assert S["card_place"][0, tr] == st.PLACE_RESUPPLY  # its training as on any capture
    assert _invariants_hold(S)


def test_devour_is_not_offered_after_burrow_this_turn_nor_once_cthon_has_fought() -> None:
    S = _war()
    _summon(S, 0, _hex(4, 5), "Cthon")
    _troop(S, 1, "Foot", 5, 5)
    _pair(S, 0, "Foot")
    S["sacrifices_made"][0, 0] = 1  # Burrow in this turn's Movement (TT-A.11.10)
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(5, 5), A_PASS]
    S = _war()
    _summon(S, 0, _hex(4, 5), "Cthon")
    _troop(S, 1, "Foot", 5, 5)
    _troop(S, 0, "Foot", 6, 5)
    _troop(S, 1, "Foot", 7, 5)
    _pair(S, 0, "Foot")
    _begin(S)
    _declare(S, (5, 5), (4, 5))  # Cthon spends its combat action (OFF 5 > DEF 2)
    assert DEVOUR not in _legal(S)


# --- training leaves with its troop (TT-B.3.6) ---------------------------------------------------


def test_training_goes_to_its_owners_resupply_when_its_troop_leaves_the_battlefield() -> None:
    S = _war()
    _enemy_wall(S, 0, _hex(4, 0))  # player 1 may rescue next to it
    t = _troop(S, 1, "Foot", 4, 5, training=2)  # DEF 2 + 2 = 4
    under = [int(c) for c in np.flatnonzero(S["card_under"][0] == t)]
    assert len(under) == 2
    champion = _troop(S, 0, "Champion", 3, 5, training=1)
    champion_training = int(np.flatnonzero(S["card_under"][0] == champion)[0])
    _troop(S, 0, "Foot", 5, 5)
    _troop(S, 1, "Foot", 4, 1)  # player 1's rescuer, next to player 0's wall
    _begin(S)
    _declare(S, (4, 5), (3, 5), (5, 5))  # OFF 4 + 2 = 6 > DEF 4: captured
    _pass_windows(S)
    assert S["card_place"][0, t] == st.PLACE_HOSTAGE
    for c in under:  # to its owner's (player 1's) RESUPPLY, not the capturer's
        assert S["card_place"][0, c] == st.PLACE_RESUPPLY and piles.card_owner(I(c)) == 1
    # rescued back, it returns untrained; its training cards stay in RESUPPLY
    assert (S["stage"][0], S["current"][0]) == (STAGE_COMBAT_SELECT, 1)
    _apply(S, A_HEX + _hex(4, 1))
    _apply(S, _legal(S)[0])  # the hex beside the rescuer
    assert S["card_place"][0, t] == st.PLACE_BATTLEFIELD and S["troop_training"][0, t] == 0
    assert all(S["card_place"][0, c] == st.PLACE_RESUPPLY for c in under)
    assert _invariants_hold(S)
    # at the end of the battle every card not LOST goes home to its pile, training too
    piles.start_battle(S, TB, B0)
    assert S["card_place"][0, champion_training] == st.PLACE_TROOP_PILE
    assert S["card_under"][0, champion_training] == -1 and S["troop_training"][0, champion] == 0
    assert _invariants_hold(S)


# --- tactics card timings (TT-B.4.1) ---------------------------------------------------------------

TACTICS = ("Press", "Saved", "Engineer", "Spy", "Negate", "Retreat", "Crown")


def _cards_offered(S) -> set[str]:
    return {TABLES.card_names[a - A_CARD] for a in _legal(S) if A_CARD <= a < A_PILE}


def test_each_tactics_card_is_offered_only_at_its_timing() -> None:
    S = _war()
    _duel(S)
    _enemy_wall(S, 1, _hex(4, 10))  # a feature for an Engineer to remove
    for p in (0, 1):
        for name in TACTICS:
            _to_barracks(S, p, name)
    _begin(S)
    assert _cards_offered(S) == {"Engineer"}  # a combat card as a combat action of its own
    _declare(S, (4, 5), (3, 5))
    assert (S["stage"][0], S["current"][0]) == (STAGE_RETREAT_WINDOW, 1)
    assert _cards_offered(S) == {"Retreat"}  # a counter card answering the attack
    _apply(S, A_PASS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_ATTACKER_CARD, 0)
    assert _cards_offered(S) == {"Press", "Engineer"}  # attacker and combat cards
    _apply(S, _card("Press"))
    assert (S["stage"][0], S["current"][0]) == (STAGE_NEGATE_WINDOW, 1)
    assert _cards_offered(S) == {"Negate"}  # a counter card answering a tactics card
    _apply(S, A_PASS)
    assert (S["stage"][0], S["current"][0]) == (STAGE_DEFENDER_CARD, 1)
    assert _cards_offered(S) == {"Saved", "Engineer"}  # defender and combat cards
    _apply(S, A_PASS)
    # the played Press stays in play until Resolution (then back to the Barracks)
    press = [c for c in range(st.N_CARD_IDS) if S["card_place"][0, c] == st.PLACE_IN_PLAY]
    assert [TABLES.card_names[piles.card_name(TB, I(c))] for c in press] == ["Press"]
    # Spy and Crown are muster cards: offered in Mustering, never in Combat
    _hostage(S, 0, "Foot")
    S["first_player"][0] = 0
    muster.begin_mustering(S, TB, GEO.neighbours[BF], B0)
    out = np.zeros(N_ACTIONS, np.int16)
    n = muster.legal_mustering(S, TB, GEO.neighbours[BF], B0, out)
    offered = {TABLES.card_names[a - A_CARD] for a in out[:n] if A_CARD <= a < A_PILE}
    assert offered == {"Spy", "Crown"}


# --- the betrayer (TT-A.9.3) -----------------------------------------------------------------------


def test_a_betrayer_fights_for_its_player_all_battle_and_cannot_be_rescued_by_its_owner() -> None:
    S = _war()
    _enemy_wall(S, 0, _hex(4, 0))
    betrayer = _troop(S, 1, "Champion", 6, 5)  # player 1's card, turned by player 0's BETRAYAL!
    S["troop_betrayer"][0, betrayer] = True
    S["betrayer_token"][0, 0] = betrayer
    resolution.end_turn(S, B0)  # the decree's turn ends; the betrayer stays player 0's troop
    assert cp.troop_controller(S, B0, I(betrayer)) == 0
    assert muster.troop_seat(S, B0, I(betrayer)) == 0
    _troop(S, 1, "Foot", 4, 1)  # player 1's troop next to player 0's wall
    _begin(S, first=1)
    assert A_HEX + _hex(4, 1) not in _legal(S)  # no rescue: the betrayer is no hostage
    # nor may player 1 ransom it with a Crown
    _to_barracks(S, 1, "Crown")
    _to_barracks(S, 1, "Spy")
    _to_barracks(S, 0, "Foot")
    S["first_player"][0] = 1
    muster.begin_mustering(S, TB, GEO.neighbours[BF], B0)
    out = np.zeros(N_ACTIONS, np.int16)
    n = muster.legal_mustering(S, TB, GEO.neighbours[BF], B0, out)
    assert _card("Spy") in out[:n] and _card("Crown") not in out[:n]
    # with a hostage of theirs, player 1 may rescue it; the betrayer stays where it is
    hostage = _hostage(S, 1, "Foot")
    _begin(S, first=1)
    _apply(S, A_HEX + _hex(4, 1))
    _apply(S, _legal(S)[0])
    assert S["card_place"][0, hostage] == st.PLACE_BATTLEFIELD
    assert S["card_hex"][0, betrayer] == _hex(6, 5)
    assert cp.troop_controller(S, B0, I(betrayer)) == 0
    assert _invariants_hold(S)


# --- summons and summons, summons and spires (TT-A.11.2) -------------------------------------------


def _lone_spire(S, p: int, h: int, s: int) -> None:
    """p's one-card spire on hex h made of summon card s."""
    S["summon_card_place"][0, p, s] = st.SUMMON_IN_SPIRE
    S["summon_card_side"][0, p, s] = 0
    S["spire_card"][0, p, 0] = s
    S["spire_height"][0, p] = 1
    S["spire_hex"][0, p] = h
    S["hex_feature"][0, h] = st.FEATURE_SPIRE
    S["hex_feature_owner"][0, h] = p
    S["hex_feature_card"][0, h] = 0


def test_summons_never_attack_a_summon_nor_a_spire() -> None:
    for mine in ("Ouran", "Cthon"):
        S = _war()
        S["advanced"][0] = True
        _summon(S, 0, _hex(4, 5), mine)
        _summon(S, 1, _hex(5, 5), "Cthon")  # adjacent enemy summon
        _lone_spire(S, 1, _hex(3, 5), 1)  # adjacent enemy spire
        _pair(S, 0, "Foot")  # Tempest or Devour could be paid, had they a target
        _pair(S, 1, "Foot")
        assert _invariants_hold(S)
        _begin(S)
        # neither summon has anything to attack; no sacrifice serves a summon against another
        assert S["stage"][0] == st.STAGE_PHASE_DONE
        assert S["sacrifices_made"][0].tolist() == [0, 0]
        assert S["summon_hex"][0].tolist() == [_hex(4, 5), _hex(5, 5)]
        assert S["spire_height"][0, 1] == 1
    # a troop in the same place may attack both: only summons are barred
    S = _war()
    S["advanced"][0] = True
    _troop(S, 0, "Foot", 4, 5)
    _summon(S, 1, _hex(5, 5), "Cthon")
    _lone_spire(S, 1, _hex(3, 5), 1)
    _begin(S)
    assert _legal(S) == [A_HEX + _hex(3, 5), A_HEX + _hex(5, 5), A_PASS]


# --- random play inside the phase ---------------------------------------------------------------


def _beside_troop_of(S, p: int, h: int) -> bool:
    """Hex h is empty and next to a troop of player p."""
    if S["hex_troop"][0, h] >= 0 or S["hex_feature"][0, h] != 0:
        return False
    for y in GEO.neighbours[BF][h]:
        if y >= 0 and S["hex_troop"][0, y] >= 0 and piles.card_owner(S["hex_troop"][0, y]) == p:
            return True
    return False


@pytest.mark.parametrize("seed", range(10))
def test_random_combat_keeps_the_invariants_and_never_runs_out_of_choices(seed: int) -> None:
    rng = np.random.default_rng(seed)
    S = _war()
    troop_names = [n for n in TABLES.card_names if TB.card_type[TABLES.card_index[n]] == CARD_TROOP]
    free_hexes = list(rng.permutation(range(9, 90)))  # rows 1..9, next to the walls too
    for p in (0, 1):
        for _ in range(8):
            name = troop_names[int(rng.integers(len(troop_names)))]
            try:
                card = _free(S, p, name)
            except AssertionError:
                continue
            h = int(free_hexes.pop())
            piles.move_card(S, TB, B0, I(card), I(st.PLACE_BATTLEFIELD), I(h))
            if rng.random() < 0.3:
                piles.move_card(S, TB, B0, I(_free(S, p, "Training")), I(st.PLACE_UNDER), I(card))
    for p in (0, 1):
        for _ in range(5):
            piles.recruit_draw(S, TB, B0, I(p), I(1))  # tactics cards into the Barracks
        for name in ("Foot", "Training"):  # pairs to pay sacrifices with (TT-A.11.6)
            if rng.random() < 0.8:
                try:
                    _pair(S, p, name)
                except AssertionError:  # the pile ran out of copies: no pair of this name
                    pass
        for w in range(TB.n_walls):
            h = _hex(2 * w + 1, 0 if p == 0 else 10)
            S["hex_feature"][0, h] = FEATURE_WALL
            S["hex_feature_owner"][0, h] = p
            S["hex_feature_card"][0, h] = w
            S["wall_hex"][0, p, w] = h
    S["advanced"][0] = rng.random() < 0.5
    for p in (0, 1):  # summons on the battlefield (slot 0) and spires (slots 1, 2)
        if rng.random() < 0.8:
            # beside its own troops (Aegis) or the enemy's (Tempest, Devour)
            side = p if rng.random() < 0.5 else 1 - p
            near = [h for h in free_hexes if _beside_troop_of(S, side, h)]
            h = int(near[0] if near else free_hexes[-1])
            free_hexes.remove(h)
            _summon(S, p, h, ("Ouran", "Cthon")[int(rng.integers(2))])
        if rng.random() < 0.5:
            h = int(free_hexes.pop())
            for k in (1, 2):
                S["summon_card_place"][0, p, k] = st.SUMMON_IN_SPIRE
                S["summon_card_side"][0, p, k] = 0
                S["spire_card"][0, p, k - 1] = k
            S["spire_height"][0, p] = 2
            S["spire_hex"][0, p] = h
            S["hex_feature"][0, h] = st.FEATURE_SPIRE
            S["hex_feature_owner"][0, h] = p
            S["hex_feature_card"][0, h] = 0
    assert _invariants_hold(S)
    S["no_combat"][0, 1] = rng.random() < 0.2
    S["no_cards"][0, 0] = rng.random() < 0.2
    _begin(S, first=int(rng.integers(2)))
    steps = 0
    while S["stage"][0] != st.STAGE_PHASE_DONE:
        legal = _legal(S)
        assert legal, f"no legal action in stage {S['stage'][0]}"
        cp.apply_combat(S, TB, *G, B0, I(legal[int(rng.integers(len(legal)))]))
        assert _invariants_hold(S)
        steps += 1
        assert steps < 200
    assert not S["troop_attacking"][0].any()
