"""envs/core/masks.py: the legal list an agent kernel reads from a BatchEnv's mask."""

from __future__ import annotations

import numpy as np

from envs.core.masks import legal_from_mask


def test_the_legal_list_is_the_marked_actions_in_action_order():
    mask = np.zeros(12, dtype=np.uint8)
    mask[[9, 2, 5]] = 1
    out = np.full(12, -7, dtype=np.int64)
    assert legal_from_mask(mask, out) == 3
    assert out[:3].tolist() == [2, 5, 9]
    assert (out[3:] == -7).all()  # nothing past n is written


def test_a_finished_game_has_no_legal_action():
    out = np.full(4, -7, dtype=np.int64)
    assert legal_from_mask(np.zeros(4, dtype=np.uint8), out) == 0
    assert (out == -7).all()
