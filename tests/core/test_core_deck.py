"""envs/core/deck.py: piles as fixed arrays, top at count-1 (draw, discard, recycle)."""

from __future__ import annotations

import numpy as np

from envs.core import deck as D
from envs.core.rng import seed_stream


def pile(cards: list[int], capacity: int = 10) -> tuple[np.ndarray, int]:
    arr = np.full(capacity, -1, dtype=np.int8)
    arr[: len(cards)] = cards
    return arr, len(cards)


def new_rng(seed: int = 1) -> np.ndarray:
    rng = np.zeros((1, 2), dtype=np.uint64)
    seed_stream(rng, 0, seed, 0, 0)
    return rng


def test_push_top_then_pop_top_is_last_in_first_out() -> None:
    arr, n = pile([])
    for c in (4, 7, 2):
        n = D.pile_push_top(arr, n, c)
    assert n == 3 and arr[:3].tolist() == [4, 7, 2]
    popped = []
    for _ in range(3):
        c, n = D.pile_pop_top(arr, n)
        popped.append(int(c))
    assert popped == [2, 7, 4] and n == 0
    assert (arr == -1).all()  # popped places are cleared


def test_pop_from_an_empty_pile_returns_minus_one() -> None:
    arr, n = pile([])
    c, n = D.pile_pop_top(arr, n)
    assert c == -1 and n == 0


def test_push_bottom_puts_the_card_under_the_pile() -> None:
    """4.5: destroyed units go to the bottom of their reinforcement pile."""
    arr, n = pile([1, 2, 3])
    n = D.pile_push_bottom(arr, n, 9)
    assert n == 4 and arr[:4].tolist() == [9, 1, 2, 3] and arr[4] == -1
    top, n = D.pile_pop_top(arr, n)
    assert top == 3  # the top is unchanged


def test_remove_at_keeps_the_order_of_the_rest() -> None:
    arr, n = pile([5, 6, 7, 8])
    n = D.pile_remove_at(arr, n, 1)
    assert n == 3 and arr[:4].tolist() == [5, 7, 8, -1]
    n = D.pile_remove_at(arr, n, 2)
    assert n == 2 and arr[:3].tolist() == [5, 7, -1]


def test_recycle_shuffles_the_discard_under_the_draw_pile() -> None:
    """2.4: when the draw pile runs out the discard pile is shuffled into a new one; cards
    still in the draw pile stay where they are, under the recycled ones."""
    draw, nd = pile([1, 2], capacity=12)
    discard, nx = pile([10, 11, 12, 13, 14, 15], capacity=12)
    nd, nx = D.recycle(new_rng(), 0, draw, nd, discard, nx)
    assert (nd, nx) == (8, 0)
    assert draw[:2].tolist() == [1, 2]
    assert sorted(draw[2:8].tolist()) == [10, 11, 12, 13, 14, 15]
    assert (discard == -1).all() and (draw[8:] == -1).all()


def test_recycle_order_depends_on_the_rng_and_is_reproducible() -> None:
    orders = []
    for seed in (1, 1, 2):
        draw, nd = pile([], capacity=12)
        discard, nx = pile(list(range(10)), capacity=12)
        D.recycle(new_rng(seed), 0, draw, nd, discard, nx)
        orders.append(draw[:10].tolist())
    assert orders[0] == orders[1]
    assert orders[0] != orders[2]
    assert orders[0] != list(range(10))


def test_recycle_of_an_empty_discard_changes_nothing() -> None:
    draw, nd = pile([3, 4])
    discard, nx = pile([])
    assert D.recycle(new_rng(), 0, draw, nd, discard, nx) == (2, 0)
    assert draw[:3].tolist() == [3, 4, -1]
