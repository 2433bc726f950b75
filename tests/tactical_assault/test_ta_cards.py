"""Cards, hands, decks and play windows (FC PART I Golden Rules, Table 1, R5, R11-R13, R17)."""

from __future__ import annotations

import numpy as np
import pytest
from ta_helpers import hand, legal, record, stack_top, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import cards, invariants, state, turn

CLEAR6 = [". . . . . ."] * 6
OURS = [
    {"type": "ARCHER", "label": "A", "zone": [2, 1], "facing": "S"},
    {"type": "INFANTRY", "label": "I", "zone": [4, 1], "facing": "S"},
]
THEIRS = [
    {"type": "SORCEROUS", "label": "s", "zone": [2, 4], "facing": "N"},
    {"type": "INFANTRY", "label": "i", "zone": [4, 4], "facing": "N"},
]
FIRE = 6  # Fire | Clear The Way | No Effect
FIRE_CONFUSION = 8  # Fire | Confusion | Fall Back
STAND_TO = 23  # Stand To | Take Cover | No Effect
RECOVER = 36  # Recover | Reposition | No Effect
DEAD = (13, 10, 35, 38, 57, 53)  # nothing here can use these cards (Gallop, Bombard, Aerial, ..)


@pytest.fixture(scope="module")
def tb(tmp_path_factory):
    return record(CLEAR6, tmp_path_factory.mktemp("cards"), units0=OURS, units1=THEIRS)


def main_of(S, p):
    """Make seat p the active player at its main decision."""
    S["active"][0] = p
    S["stage"][0] = A.STAGE_MAIN
    S["current"][0] = p
    S["unit_acted"][0] = 0
    S["ending"][0] = 0


def test_start_of_game_six_cards_every_card_in_one_place(tb):
    """Table 1 "Shuffle Deck", "Draw Hand (Six Cards)"; every card in exactly one place."""
    S = started(tb)
    for p in (0, 1):
        places = S["card_place"][0, p]
        assert (places == state.PLACE_HAND).sum() == 6
        assert S["deck_count"][0, p] == 66
        assert sorted(S["deck"][0, p, :66]) == sorted(np.flatnonzero(places == state.PLACE_DECK))
    assert invariants.check(S, tb, 0) == ""
    # the two decks are shuffled independently
    assert not (S["deck"][0, 0, :66] == S["deck"][0, 1, :66]).all()


def test_recycling_reshuffles_the_discard_pile_when_the_deck_runs_out(tb):
    """FC "Recycling", R17: an empty deck is rebuilt from the discard pile, even mid-turn."""
    S = started(tb)
    held = list(np.flatnonzero(S["card_place"][0, 0] == state.PLACE_HAND))
    S["card_place"][0, 0][S["card_place"][0, 0] == state.PLACE_DECK] = state.PLACE_DISCARD
    S["deck"][0, 0] = -1
    S["deck_count"][0, 0] = 0
    k = cards.take_top(S, tb, 0, 0)
    assert k >= 0 and k not in held
    assert S["deck_count"][0, 0] == 65 and S["reshuffles"][0, 0] == 1
    assert (S["card_place"][0, 0] == state.PLACE_DISCARD).sum() == 0


def test_flip_reveals_the_top_card_and_discards_it(tb):
    """PART V Step 5: the top card of the attacker's deck gives the Combat Result and goes to
    the discard pile."""
    S = started(tb)
    stack_top(S, 0, [12])  # Advance | Swoop | Eliminated
    assert cards.flip(S, tb, 0, 0) == 4
    assert S["card_place"][0, 0, 12] == state.PLACE_DISCARD


def test_end_of_turn_discard_then_replenish_to_six(tb):
    """FC "Playing & Discarding": discard any unused cards, then draw back up to six; the new
    cards alone may be played in the "newly acquired Situations" window."""
    S = started(tb)
    p = int(S["active"][0])
    hand(S, p, [FIRE, STAND_TO, RECOVER, *DEAD[:3]])
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_DISCARD
    assert set(legal(S, tb)) == {A.A_DISCARD + k for k in (FIRE, STAND_TO, RECOVER, *DEAD[:3])} | {
        A.A_PASS
    }
    turn.apply_action(S, tb, 0, A.A_DISCARD + FIRE)
    turn.apply_action(S, tb, 0, A.A_DISCARD + RECOVER)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["card_place"][0, p, FIRE] == state.PLACE_DISCARD
    assert (S["card_place"][0, p] == state.PLACE_HAND).sum() == 6
    assert S["card_new"][0, p].sum() == 2
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == p
    for a in legal(S, tb):
        assert a == A.A_PASS or S["card_new"][0, p, a - A.A_SITUATION]
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["active"][0] == 1 - p and S["stage"][0] == A.STAGE_MAIN


def test_one_action_per_unit_per_turn(tb):
    """FC "One Action Per Turn": after Stand To on the Archer, no other Action may be played on
    it this turn; the Infantry may still have one."""
    S = started(tb)
    main_of(S, 0)
    hand(S, 0, [STAND_TO, 55, FIRE, *DEAD[:3]])  # 55: another Stand To
    assert A.A_ACTION + FIRE in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_ACTION + STAND_TO)
    assert set(legal(S, tb)) == {A.A_UNIT + 0, A.A_UNIT + 1}
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    while S["stage"][0] != A.STAGE_MAIN:  # windows: pass; facing: the first
        acts = legal(S, tb)
        turn.apply_action(S, tb, 0, A.A_PASS if A.A_PASS in acts else acts[0])
    assert S["unit_acted"][0, 0] == 1
    acts = legal(S, tb)
    assert A.A_ACTION + FIRE not in acts  # the Archer, the only Ranged unit, has acted
    turn.apply_action(S, tb, 0, A.A_ACTION + 55)
    assert legal(S, tb) == [A.A_UNIT + 1]


def test_windows_are_asked_whatever_the_hand_holds(tb):
    """R12 / issue 7: the opponent is asked after every card play whether or not it holds a
    usable card, and may always pass; a usable Cancel is offered."""
    for their_hand, offered in (
        (list(DEAD), False),
        ([FIRE_CONFUSION, *DEAD[:5]], True),
    ):
        S = started(tb)
        main_of(S, 0)
        hand(S, 0, [STAND_TO, *DEAD[:5]])
        hand(S, 1, their_hand)
        turn.apply_action(S, tb, 0, A.A_ACTION + STAND_TO)
        turn.apply_action(S, tb, 0, A.A_UNIT + 0)
        assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
        acts = legal(S, tb)
        assert A.A_PASS in acts
        assert (A.A_SITUATION + FIRE_CONFUSION in acts) == offered


def test_a_cancel_negates_the_card_which_still_counts_as_played(tb):
    """FC "Sequential Events", R13: Confusion cancels the Fire before it takes effect: no card
    is flipped, the Fire card is discarded and the Archer's Action is used."""
    S = started(tb)
    main_of(S, 0)
    hand(S, 0, [FIRE, *DEAD[:5]])
    hand(S, 1, [FIRE_CONFUSION, *DEAD[:5]])
    deck0 = int(S["deck_count"][0, 0])
    turn.apply_action(S, tb, 0, A.A_ACTION + FIRE)
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)  # the Archer
    turn.apply_action(S, tb, 0, A.A_SITUATION + FIRE_CONFUSION)
    assert legal(S, tb) == [A.A_UNIT + 2]  # the Sorcerous unit (Archer in its range and LOS)
    turn.apply_action(S, tb, 0, A.A_UNIT + 2)
    while S["stage"][0] == A.STAGE_WINDOW and S["win_trigger"][0] != 0:
        turn.apply_action(S, tb, 0, A.A_PASS)  # Dispel window, then Confusion's own
    assert S["card_place"][0, 0, FIRE] == state.PLACE_DISCARD
    assert S["card_place"][0, 1, FIRE_CONFUSION] == state.PLACE_DISCARD
    assert S["deck_count"][0, 0] == deck0  # no Combat Result was flipped
    assert S["unit_acted"][0, 0] == 1 and S["unit_status"][0].sum() == 0
    assert invariants.check(S, tb, 0) == ""


def test_a_shaken_unit_takes_only_recover(tb):
    """Table 6 "Shaken", R6: no Actions or Situations on a Shaken unit until a Recover."""
    S = started(tb)
    main_of(S, 0)
    S["unit_status"][0, 0] = state.STATUS_SHAKEN
    hand(S, 0, [FIRE, STAND_TO, RECOVER, *DEAD[:3]])
    turn.apply_action(S, tb, 0, A.A_ACTION + STAND_TO)
    assert legal(S, tb) == [A.A_UNIT + 1]  # not the Shaken Archer
    S["stage"][0] = A.STAGE_MAIN
    assert A.A_ACTION + FIRE not in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_ACTION + RECOVER)
    assert legal(S, tb) == [A.A_UNIT + 0]
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    while S["stage"][0] != A.STAGE_MAIN:
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_status"][0, 0] == 0
