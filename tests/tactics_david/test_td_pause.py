"""Decisions inside a procedure (R72, envs/tactics_david/pause.py): Lucky (TD-20.17) and
Giant's Bread (TD-25.4), played through the kernels: the procedure pauses with its dice kept,
the player the rule names answers, and the procedure goes on from where it stopped."""

from __future__ import annotations

import numpy as np

from envs.core.rng import roll_d
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_END,
    A_STATUS,
    A_STRIKE,
    STAGE_ENGAGE,
    STAGE_PAUSE,
)
from envs.tactics_david.combat import contest
from envs.tactics_david.invariants import violations
from envs.tactics_david.pause import PZ_LUCKY_ATTACK, PZ_LUCKY_HIT, is_lucky
from envs.tactics_david.state import MAX_UNITS, STATUS_PERMANENT
from envs.tactics_david.units import apply_status
from tests.tactics_david.td_board import (
    B0,
    TABLES,
    E,
    I,
    W,
    act,
    cell,
    engage,
    legal,
    position,
    record,
    unit,
)

ST = TABLES.status_index
ITEM = {name: i for i, name in enumerate(TABLES.item_names)}
SEEDS = range(1, 41)


def _lucky_pair(tb, seed: int, lucky: bool = True):
    """A Lucky Soldier (seat 0) on (5,5) facing a Soldier (seat 1) on (5,6); a far enemy so
    a kill does not end the game."""
    S = position(tb, seed=seed)
    a = unit(S, tb, 0, "Soldier", 5, 5, E)
    d = unit(S, tb, 1, "Soldier", 5, 6, W)
    unit(S, tb, 1, "Soldier", 0, 13, W)
    if lucky:
        apply_status(S, tb, B0, I(a), I(ST["Lucky"]), I(STATUS_PERMANENT))
    return S, a, d


def _dead(S, u: int) -> bool:
    return bool(S["unit_status"][0, u, ST["Dead"]] != 0)


def test_lucky_pauses_the_attack_with_its_result_kept():
    """The Attack and Defend are rolled, then the attacking player is asked (STAGE_PAUSE):
    keeping the result gives exactly the kept result (kill iff attack > defence), and the
    game goes on."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _lucky_pair(tb, seed)
        engage(S, tb, a)
        act(S, tb, A_END)
        assert act(S, tb, A_STRIKE) == [A_ABILITY, A_END]
        assert S["stage"][0] == STAGE_PAUSE and S["current"][0] == 0
        assert S["pz_at"][0] == PZ_LUCKY_ATTACK
        won = int(S["pz_att"][0]) > int(S["pz_dfn"][0])
        assert not _dead(S, d)  # the result has not acted yet
        act(S, tb, A_END)
        assert _dead(S, d) == won
        assert S["stage"][0] != STAGE_PAUSE
        assert S["pz_lucky_turn"][0, a] == 0  # not used: kept for another procedure
        assert violations(S, tb) == []
        seen.add(won)
    assert seen == {True, False}


def test_lucky_rerolls_the_whole_contest_once_per_turn():
    """Rerolling rolls the Attack and Defend (and their Duels) again from the dice that come
    next (R73): the outcome is the one a fresh contest gives from that RNG; the Lucky unit
    may not reroll again this Turn, but may next Turn."""
    tb = record()
    changed = 0
    for seed in SEEDS:
        S, a, d = _lucky_pair(tb, seed)
        engage(S, tb, a)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        kept = int(S["pz_att"][0]) > int(S["pz_dfn"][0])
        copy = S.copy()
        att, dfn, _ = contest(copy, tb, B0, I(a), I(d), I(0), False, False)
        turn = int(S["turn"][0])
        act(S, tb, A_ABILITY)
        assert _dead(S, d) == (att > dfn)
        changed += kept != (att > dfn)
        assert S["pz_lucky_turn"][0, a] == turn
        S["current"][0] = 0
        S["turn"][0] = turn
        assert not is_lucky(S, tb, B0, I(a))  # once during its owner's Turn
        S["turn"][0] = turn + 2  # its owner's next Turn
        assert is_lucky(S, tb, B0, I(a))
        assert violations(S, tb) == []
    assert changed > 0


def test_lucky_only_in_its_owners_turn_and_never_ethereal():
    """A Lucky defender in the other player's Turn is not asked; an Ethereal unit may not be
    Lucky (the Status does not take, and a held one does not count); a unit without Lucky is
    never asked."""
    tb = record()
    S, a, d = _lucky_pair(tb, 3, lucky=False)
    apply_status(S, tb, B0, I(d), I(ST["Lucky"]), I(STATUS_PERMANENT))
    assert S["unit_status"][0, d, ST["Lucky"]] != 0 and not is_lucky(S, tb, B0, I(d))
    engage(S, tb, a)
    act(S, tb, A_END)
    assert act(S, tb, A_STRIKE) != [A_ABILITY, A_END] and S["stage"][0] != STAGE_PAUSE
    S = position(tb, seed=3)
    g = unit(S, tb, 0, "Ghost", 5, 5, E)
    assert not apply_status(S, tb, B0, I(g), I(ST["Lucky"]), I(STATUS_PERMANENT))
    S["unit_status"][0, g, ST["Lucky"]] = STATUS_PERMANENT  # given anyway: still not Lucky
    assert not is_lucky(S, tb, B0, I(g))


def test_lucky_rerolls_the_ranged_hit():
    """A Lucky Hunter's Ranged Hit pauses after its 2 D6 (PZ_LUCKY_HIT, the dice kept); a
    reroll rolls them again: at Rise 5 with Range Modifier 0 the shot hits on 5 or more."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Hunter", 5, 0, E)
        t = unit(S, tb, 1, "Soldier", 5, 5, W)
        unit(S, tb, 1, "Soldier", 0, 13, W)
        apply_status(S, tb, B0, I(u), I(ST["Lucky"]), I(STATUS_PERMANENT))
        engage(S, tb, u)
        assert A_CELL + cell(tb, 5, 5) in act(S, tb, A_END)
        assert act(S, tb, A_CELL + cell(tb, 5, 5)) == [A_ABILITY, A_END]
        assert S["pz_at"][0] == PZ_LUCKY_HIT
        first = int(S["pz_att"][0])
        copy = S.copy()
        again = sum(int(roll_d(copy["rng"], B0, I(6))) for _ in range(2))
        nxt = act(S, tb, A_ABILITY)
        assert S["stage"][0] != STAGE_PAUSE or nxt == [A_ABILITY, A_END]
        hit = again >= 5
        rolled_on = not np.array_equal(S["rng"][0], copy["rng"][0])  # the area's attack rolled
        assert rolled_on == hit, (first, again)
        seen.add(hit)
        assert _dead(S, t) is False or hit
    assert seen == {True, False}


def _bread_holder(tb, seed: int):
    """Seat 1's Soldier on (5,6) holding Giant's Bread, attacked by seat 0's Soldier."""
    S = position(tb, seed=seed)
    a = unit(S, tb, 0, "Soldier", 5, 5, E)
    d = unit(S, tb, 1, "Soldier", 5, 6, W)
    unit(S, tb, 1, "Soldier", 0, 13, W)
    _equip(S, d, ITEM["Giant's Bread"])
    return S, a, d


def _equip(S, u: int, item: int) -> None:
    """Unit u holds `item` in its Expendable slot, taken out of the Item Deck."""
    n = int(S["deck_count"][0])
    cards = [int(c) for c in S["deck"][0, :n] if c != item]
    S["deck"][0, :] = -1
    S["deck"][0, : len(cards)] = cards
    S["deck_count"][0] = len(cards)
    S["unit_item"][0, u, 2] = item


def test_giants_bread_discards_the_dead_status_the_moment_it_is_acquired():
    """A holder killed by an Attack is asked at once, before the attacking player's next
    decision, by its own player (seat 1), in the attacking player's Turn: discarding Dead
    leaves it in play and sends the Bread to the bottom of the Item Deck; keeping it leaves
    it Dead. Then the game goes on."""
    tb = record()
    asked = 0
    for seed in SEEDS:
        for use in (True, False):
            S, a, d = _bread_holder(tb, seed)
            engage(S, tb, a)
            act(S, tb, A_END)
            got = act(S, tb, A_STRIKE)
            if not _dead(S, d):
                assert S["stage"][0] != STAGE_PAUSE
                continue
            asked += 1
            assert S["stage"][0] == STAGE_PAUSE and S["current"][0] == 1
            assert S["turn"][0] == 1 and S["engaged"][0] == a
            assert got == [A_STATUS + ST["Dead"], A_END]
            deck = int(S["deck_count"][0])
            nxt = act(S, tb, A_STATUS + ST["Dead"] if use else A_END)
            assert _dead(S, d) != use
            assert S["stage"][0] != STAGE_PAUSE and nxt
            if use:
                assert S["unit_item"][0, d, 2] == -1
                assert S["deck_count"][0] == deck + 1
                assert S["deck"][0, 0] == ITEM["Giant's Bread"]  # the bottom
            else:
                assert S["unit_item"][0, d, 2] == ITEM["Giant's Bread"]
            assert violations(S, tb) == []
    assert asked > 10


def test_giants_bread_refuses_any_status_and_resumes_the_hand_off():
    """A Status acquired between decisions (here Fearful, given outside the kernels) is asked
    about at the next hand-off (Engagement -> Item Phase), of the holder's player; discarding
    it removes only that Status, and the Engagement goes on for the player whose Turn it is.
    A unit without the Bread is never asked."""
    tb = record()
    S, a, d = _bread_holder(tb, 5)
    e = unit(S, tb, 0, "Soldier", 9, 9, E)
    apply_status(S, tb, B0, I(d), I(ST["Fearful"]), I(STATUS_PERMANENT))
    apply_status(S, tb, B0, I(e), I(ST["Fearful"]), I(STATUS_PERMANENT))  # no Bread: no ask
    assert S["pz_bread"][0, d] == 1 << ST["Fearful"] and S["pz_bread"][0, e] == 0
    before = legal(S, tb)
    assert S["stage"][0] == STAGE_ENGAGE
    got = act(S, tb, before[0]) if before[0] != A_END else None
    assert got == [A_STATUS + ST["Fearful"], A_END]
    assert S["current"][0] == 1
    act(S, tb, A_STATUS + ST["Fearful"])
    assert S["unit_status"][0, d, ST["Fearful"]] == 0
    assert S["unit_status"][0, e, ST["Fearful"]] != 0
    assert S["current"][0] == 0 and S["engaged"][0] == a % MAX_UNITS
    assert violations(S, tb) == []
