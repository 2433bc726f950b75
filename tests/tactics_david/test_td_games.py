"""Whole random games by the rules built so far (issue 8, step 4): the invariant check after
every decision, games that end, and the same seed giving the same game."""

from __future__ import annotations

import pytest

from envs.tactics_david.driver import play_random_games
from envs.tactics_david.record import build_record
from tests.tactics_david.td_board import TABLES


@pytest.mark.parametrize("battlefield", [0, 1])
def test_random_games_keep_the_invariants(battlefield):
    tb = build_record(TABLES, battlefield=battlefield, turn_limit=30)
    results = play_random_games(tb, games=8, seed=battlefield)
    assert all(r.turns <= 30 for r in results)
    assert sum(r.kills for r in results) > 0  # units fight and die
    assert {r.winner for r in results} <= {-1, 0, 1}


def test_deathmatch_games_end_by_wiping_out_an_army():
    """TD-4.2 without a turn limit: every random game ends with one army dead (or both)."""
    tb = build_record(TABLES, battlefield=0, purchase_limit=30)
    results = play_random_games(tb, games=4, seed=3, check=False)
    assert all(r.winner in (-1, 0, 1) and r.kills > 0 for r in results)


def test_same_seed_same_games():
    tb = build_record(TABLES, battlefield=0, turn_limit=10)
    a = play_random_games(tb, games=3, seed=5, check=False)
    b = play_random_games(tb, games=3, seed=5, check=False)
    c = play_random_games(tb, games=3, seed=6, check=False)
    assert a == b and a != c


def test_driver_refuses_negative_games():
    with pytest.raises(ValueError, match="-1"):
        play_random_games(build_record(TABLES), games=-1, seed=0)
