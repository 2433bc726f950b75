"""Action masks in numba kernels, for every ruleset."""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit


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
