"""The in-kernel invariant check and fuzzer (invariants.check_codes, invariants.fuzz)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, state


def test_fuzzer_plays_games_with_every_invariant_after_every_decision(crossroads):
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, crossroads, 0, 4, 0, 30, out)
    assert (games, bad, code) == (30, -1, invariants.OK)
    assert decisions > 30 * 100


@pytest.mark.parametrize(
    ("break_it", "code"),
    [
        (lambda S: S["card_place"][0, 0].__setitem__(int(S["deck"][0, 0, 0]), 2), "deck"),
        (lambda S: S["card_place"][0, 1].__setitem__(int(S["deck"][0, 1, 5]), 3), "played"),
        (lambda S: S["points_lost"][0].__setitem__(1, 3), "points"),
        (lambda S: S["unit_pos"][0].__setitem__(1, S["unit_pos"][0, 0]), "sharing"),
        (lambda S: S["unit_pos"][0].__setitem__(0, 200), "position"),
    ],
)
def test_invariant_codes_catch_broken_games(crossroads, break_it, code):
    """Each check can fail, and the numba and Python checks agree."""
    S = state.allocate(1)
    flow.reset_game(S, crossroads, 0, 2, 0)
    assert invariants.check_codes(S, crossroads, 0) == invariants.OK
    assert invariants.check(S, crossroads, 0) == ""
    break_it(S)
    got = invariants.check_codes(S, crossroads, 0)
    assert invariants.CODE_NAMES[got] == code
    assert invariants.check(S, crossroads, 0) != ""


def test_fall_back_out_of_a_multi_unit_close_combat_regression(crossroads):
    """Fuzz find (seed 20261124, game 12686): a Raider Falls Back out of a zone holding two
    Watch units; while it moves (its opponent's windows), the zone it left is settled only when
    the Fall Back ends, and then one Watch unit holds it."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    assert invariants.fuzz(S, crossroads, 0, 20261124, 12686, 1, out)[2:] == (-1, invariants.OK)


def test_unit_eliminated_while_falling_back_regression(crossroads):
    """Fuzz find (seed 20261124, game 84579): a Watch unit Falling Back out of a zone two
    Raiders had entered is Eliminated by Opportunity Fire on the way; the zone it left is
    still settled (the Raiders' side picks the one that remains)."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    assert invariants.fuzz(S, crossroads, 0, 20261124, 84579, 1, out)[2:] == (-1, invariants.OK)
