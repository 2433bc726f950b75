"""Batch kernels on Python threads instead of numba's parallel=True.

A ``parallel=True`` kernel costs its whole call tree in machine code four times over (the
kernel, the parfor gufunc and two wrappers each link and compile everything the loop body
calls): for TACTICA that was 8-10 s of cold compile per batch kernel. Every kernel is
compiled ``nogil=True`` (envs/core/jit.py), so plain Python threads run serial kernels in
parallel just as well: a batch kernel is written as a serial loop over the games
``first, first + step, ...`` and :func:`over_games` runs it on ``numba.get_num_threads()``
threads (so ``numba.set_num_threads`` and ``NUMBA_NUM_THREADS`` still say how many), thread t
taking games t, t + T, t + 2T, ... Interleaving keeps the threads' loads even when games
differ in length. A game's result never depends on which thread plays it (each game carries
its own RNG state), so the thread count changes nothing but speed.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numba

_pool: ThreadPoolExecutor | None = None
_pool_lock = threading.Lock()


def _executor() -> ThreadPoolExecutor:
    global _pool
    with _pool_lock:
        if _pool is None:
            _pool = ThreadPoolExecutor(
                max_workers=max(1, numba.config.NUMBA_NUM_THREADS),
                thread_name_prefix="tacsim-games",
            )
        return _pool


def over_games(kernel: Callable[..., Any], n_games: int, *args: Any) -> list[Any]:
    """Run ``kernel(first, step, *args)`` on up to ``numba.get_num_threads()`` threads, thread
    t with first = t and step = the thread count, so that together they cover the games
    0..n_games-1 once each. Returns each call's result, in thread order. With one thread or
    one game the kernel runs in the calling thread."""
    threads = min(int(numba.get_num_threads()), int(n_games))
    if threads <= 1:
        return [kernel(0, 1, *args)]
    futures = [_executor().submit(kernel, t, threads, *args) for t in range(threads)]
    return [f.result() for f in futures]
