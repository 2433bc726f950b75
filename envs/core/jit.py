"""The one place njit flags are set (ARCHITECTURE.md section 9)."""

from __future__ import annotations

import numba

# cache=True: compiled kernels are kept in __pycache__ so a second start is fast.
# Kernels that loop over the batch use `njit_parallel` and numba.prange.
njit = numba.njit(cache=True, nogil=True)
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)


def njit_fn(fn):
    """Decorator form of :data:`njit` (kept for readability at definitions)."""
    return njit(fn)


def njit_parallel_fn(fn):
    return njit_parallel(fn)
