"""Empty state records, the one way every ruleset's `allocate` makes a batch (state.py of
each ruleset names its fields; ARCHITECTURE.md section 3)."""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np


def empty_states(
    dtype: np.dtype, num_envs: int, neg_one_fields: Iterable[str] = (), **fixed: int
) -> np.ndarray:
    """`num_envs` zeroed records of `dtype`, with every field of `neg_one_fields` set to -1
    (the "none" marker of an index field) and each keyword field set to its value (e.g.
    ``num_players=2, stage=STAGE_GAME_OVER``). Not a started game: the ruleset's reset is."""
    if int(num_envs) < 1:
        raise ValueError(f"num_envs must be >= 1, got {num_envs}")
    S = np.zeros(int(num_envs), dtype=dtype)
    for name in neg_one_fields:
        S[name] = -1
    for name, value in fixed.items():
        S[name] = value
    return S
