"""envs.core.threads.over_games: serial batch kernels run on threads."""

from __future__ import annotations

import numba
import numpy as np
import pytest

from envs.core.jit import njit
from envs.core.threads import over_games


@njit
def _mark(first, step, seen, who):
    for b in range(first, seen.shape[0], step):
        seen[b] += 1
        who[b] = first
    return first


@pytest.mark.parametrize("n", [1, 2, 3, 64, 1001])
@pytest.mark.parametrize("threads", [1, 2])
def test_every_game_once(n: int, threads: int) -> None:
    seen = np.zeros(n, dtype=np.int64)
    who = np.full(n, -1, dtype=np.int64)
    before = numba.get_num_threads()
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    try:
        used = min(numba.get_num_threads(), n)
        results = over_games(_mark, n, seen, who)
    finally:
        numba.set_num_threads(before)
    assert (seen == 1).all()
    # thread t takes games t, t + T, ...: interleaved, so long and short games mix
    assert (who == np.arange(n) % used).all()
    assert results == list(range(used))


def _boom(first, step, out):
    raise ValueError(f"thread {first} of {step}")


def test_errors_reach_the_caller() -> None:
    with pytest.raises(ValueError, match="thread 0"):
        over_games(_boom, 5, np.zeros(5))
