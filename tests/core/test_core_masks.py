"""envs/core/masks.py: the legal list an agent kernel reads from a BatchEnv's mask."""

from __future__ import annotations

import numpy as np

from envs.core.masks import legal_from_mask, write_mask


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


def test_write_mask_marks_exactly_the_listed_actions_and_clears_the_rest():
    mask = np.ones(10, dtype=np.int8)  # the previous decision's mask
    buf = np.array([7, 0, 3, -1, -1], dtype=np.int16)  # past n: not read
    write_mask(mask, buf, 3)
    assert np.flatnonzero(mask).tolist() == [0, 3, 7]
    write_mask(mask, buf, 0)  # game over: nothing legal
    assert not mask.any()


def test_write_mask_and_legal_from_mask_round_trip():
    rng = np.random.default_rng(3)
    mask = np.zeros(50, dtype=np.int8)
    for _ in range(20):
        legal = np.sort(rng.choice(50, size=rng.integers(0, 50), replace=False))
        write_mask(mask, legal.astype(np.int64), len(legal))
        out = np.empty(50, dtype=np.int64)
        assert out[: legal_from_mask(mask, out)].tolist() == legal.tolist()
