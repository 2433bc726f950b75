"""Action masks in numba kernels, for every ruleset."""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit


@njit
def write_mask(mask_row, buf, n):
    """The mask of the n legal actions listed in buf (all zero when n is 0: game over): how
    every ruleset's step kernel turns its legal_actions list into the BatchEnv's mask row. A
    loop, not `mask_row[:] = 0`: numba's slice assignment compiles a dozen functions more."""
    for i in range(mask_row.shape[0]):
        mask_row[i] = 0
    for i in range(n):
        mask_row[buf[i]] = 1


@njit
def legal_from_mask(mask_row, out) -> int:
    """The legal actions a mask row marks, in action order, into out[:n]; returns n. An agent
    kernel of a BatchEnv reads them from the mask its last step wrote instead of calling the
    ruleset's legal_actions again: that function's call tree in the agent kernel's module
    costs seconds of cold compile (docs/adding_a_ruleset.md)."""
    n = np.int64(0)
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            out[n] = a
            n += 1
    return n
