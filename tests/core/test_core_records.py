"""envs.core.records.empty_states: every ruleset's allocate."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core.records import empty_states

DT = np.dtype([("a", np.int8, (3,)), ("b", np.int16), ("num_players", np.int8)])


def test_markers_and_fixed_fields() -> None:
    S = empty_states(DT, 4, ("a",), num_players=2, b=7)
    assert S.shape == (4,)
    assert (S["a"] == -1).all() and (S["b"] == 7).all() and (S["num_players"] == 2).all()


@pytest.mark.parametrize("n", [0, -3])
def test_no_empty_batch(n: int) -> None:
    with pytest.raises(ValueError, match="num_envs must be >= 1"):
        empty_states(DT, n)


def test_unknown_field_is_refused() -> None:
    with pytest.raises((ValueError, KeyError)):
        empty_states(DT, 2, ("nope",))
