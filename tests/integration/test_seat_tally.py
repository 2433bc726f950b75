"""benchmarks.seats.SeatTally: the seat-by-seat win rates the agents benchmarks report."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pytest

from benchmarks.seats import SeatTally


def _res(winner, seat_agent, length=None):
    winner = np.asarray(winner)
    return SimpleNamespace(
        winner=winner,
        seat_agent=np.asarray(seat_agent),
        length=np.full(winner.size, 10) if length is None else np.asarray(length),
    )


def test_wins_and_draws_are_counted_for_agent_0_in_each_seat():
    t = SeatTally()
    # agent 0 holds seat 0 in games 0 and 2, seat 1 in games 1 and 3
    t.add(_res([0, 1, -1, 0], [[0, 1], [1, 0], [0, 1], [1, 0]]))
    s0 = t.seat(0)
    assert (s0["games"], s0["wins"], s0["draws"], s0["win_rate"]) == (2, 1, 1, 0.5)
    assert (t.seat(1)["games"], t.seat(1)["wins"], t.seat(1)["draws"]) == (2, 1, 0)
    assert t.decisions == 40
    lo, hi = t.seat(1)["wilson95"]
    assert lo < 0.5 < hi


def test_a_game_that_did_not_end_is_an_error_naming_the_unit():
    with pytest.raises(RuntimeError, match="a war did not end"):
        SeatTally("war").add(_res([0], [[0, 1]], length=[-1]))
