"""What a Tactics David player cannot know (R54), redrawn: the contract's resample_hidden.

`resample_hidden(S, me, rng, tb)` returns another one-game state that player `me` cannot tell
apart from S (the same observation and render, and, when `me` decides, the same legal
actions):

- the units the opponent still holds in reserve are another random army part: each reserve
  slot gets a units.yaml row, uniformly among the rows whose cost still lets the remaining
  slots be filled with the cheapest unit, so the whole army stays within the purchase limit
  (TD-6.1) and keeps its size (the number of cards in reserve is public). The slots, and the
  unit picked to be deployed next, stay where they are; only what they hold changes;
- the Item Deck is reordered (its order is hidden from both players, I10; its contents are
  public: every Item not on a unit);
- the rules and agent RNG words are drawn afresh (future dice are hidden from everyone).

Plain Python (numpy): the hidden-information test is its only caller; a search agent would
need a numba version of the same draw.
"""

from __future__ import annotations

import numpy as np

from envs.tactics_david.state import (
    MAX_MEMBERS,
    MAX_UNITS,
    N_PLAYERS,
    PLACE_RESERVE,
)


def _redraw_reserve(S: np.ndarray, tb, p: int, rng: np.random.Generator) -> None:
    """Seat p's reserve units (game 0) redrawn within the purchase limit (module docstring)."""
    g = S[0]
    slots = [
        k
        for k in range(int(g["army_size"][p]))
        if g["unit_place"][p * MAX_UNITS + k] == PLACE_RESERVE
    ]
    if not slots:
        return
    n = int(tb.n_profiles)
    cost = np.asarray(tb.u_cost[:n], dtype=np.int64)
    cheapest = int(cost.min())
    kept = sum(
        int(g["unit_cost"][p * MAX_UNITS + k])
        for k in range(int(g["army_size"][p]))
        if k not in slots
    )
    budget = int(g["purchase_limit"]) - kept
    for j, k in enumerate(slots):
        room = budget - cheapest * (len(slots) - j - 1)
        choices = np.flatnonzero(cost <= room)
        prof = int(choices[rng.integers(choices.size)])
        budget -= int(cost[prof])
        u = p * MAX_UNITS + k
        S["unit_member"][0, u, :] = -1
        S["unit_member"][0, u, 0] = prof
        S["unit_n_members"][0, u] = 1
        S["unit_strength"][0, u, :] = tb.u_strength[prof, :]
        S["unit_cost"][0, u] = cost[prof]
        S["unit_type"][0, u] = tb.u_type[prof]
        S["unit_attack_type"][0, u] = tb.u_type[prof]  # TD-3.3, as setup.add_unit
    units = range(p * MAX_UNITS, p * MAX_UNITS + int(g["army_size"][p]))
    S["army_cost"][0, p] = sum(int(S["unit_cost"][0, u]) for u in units)
    S["army_bought"][0, p, :] = 0
    for u in units:
        for m in range(MAX_MEMBERS):
            prof = int(S["unit_member"][0, u, m])
            if prof >= 0:
                S["army_bought"][0, p, prof] += 1


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator, tb) -> np.ndarray:
    """Another one-game state that `me` cannot tell apart from S (module docstring); S is a
    batch of one and is not changed. `tb` is the tables record (record.build_record)."""
    if me not in range(N_PLAYERS):
        raise ValueError(f"me must be seat 0 or 1, got {me}")
    S = S.copy()
    _redraw_reserve(S, tb, 1 - me, rng)
    n = int(S["deck_count"][0])
    S["deck"][0, :n] = rng.permutation(np.sort(S["deck"][0, :n]))
    S["rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    S["agent_rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    return S
