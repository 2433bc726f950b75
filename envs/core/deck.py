"""Piles of cards as fixed arrays: pile[..., 0:count], top at index count-1.

A pile is a 1-D int8 view holding card ids, plus its count in another array. These helpers
work on one game's view; the ruleset passes ``pile[b]`` and the count cell. Face-up or
face-down is a property the ruleset keeps beside a pile (who may observe it), not here.
"""

from __future__ import annotations

from envs.core.jit import njit
from envs.core.rng import shuffle_prefix


@njit
def pile_push_top(pile, count, card):
    pile[count] = card
    return count + 1


@njit
def pile_pop_top(pile, count):
    """Returns (card, new count); card -1 when empty."""
    if count == 0:
        return -1, 0
    count -= 1
    card = pile[count]
    pile[count] = -1
    return card, count


@njit
def pile_push_bottom(pile, count, card):
    """Put a card under the pile (e.g. a destroyed unit back to its reinforcement pile)."""
    for i in range(count, 0, -1):
        pile[i] = pile[i - 1]
    pile[0] = card
    return count + 1


@njit
def pile_remove_at(pile, count, index):
    """Remove pile[index], keeping the order of the rest. Returns the new count."""
    for i in range(index, count - 1):
        pile[i] = pile[i + 1]
    pile[count - 1] = -1
    return count - 1


@njit
def recycle(rng, b, draw, draw_count, discard, discard_count):
    """Shuffle the discard pile to form a new draw pile (2.4: reshuffle when it runs out).

    Returns (new draw count, new discard count). Cards already in the draw pile stay under.
    """
    for i in range(discard_count):
        draw[draw_count + i] = discard[i]
        discard[i] = -1
    shuffle_prefix(rng, b, draw[draw_count:], discard_count)
    return draw_count + discard_count, 0
