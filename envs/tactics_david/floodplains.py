"""Floodplains (TD-22.2.131, branch tdabH): Terrain Types that change during a game.

"This Unit counts as occupying a Water Terrain Type Grid Space. Actual Water Terrain Type Grid
Spaces this Unit occupies and those connected to it force Terrain Type Grid Spaces in Direct and
Diagonal Grid Space Contact to become Water Terrain Type."

The battlefield's terrain (`tb.bf_terrain`) stays fixed; a game adds its flood mask
`S["flood"][b, c]` (1: space c is Water now). Every reader of a space's Terrain Type goes
through `grid.terrain(tb, bf, S["flood"][b], c)`, and every reader of the terrain a unit
occupies through `unit_terrain` (a unit with Floodplains occupies Water wherever it stands,
R136). `refresh_flood` is the one writer: `turn.step` calls it after a decision is applied and
before each phase hand-off, so a Floodplains unit that moved, was placed, died, came back or
lost or gained its ability (Ghoul Blight, Learn, a replacement) changes the terrain from the
next hand-off on (R124).

The flood (R124): the sources are the actual (battlefield) Water spaces an active Floodplains
unit stands on (in play, not Dead: "All (Not with Dead Status)"); the Water spaces connected to a
source are those joined to it through Direct Grid Space contact, space by space, over actual
Water; every space in Direct or Diagonal contact with one of them that is not actual Water
becomes Water. Flooded spaces are not actual Water: they neither connect nor flood further.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david.grid import terrain
from envs.tactics_david.record import PERM_FLOOD
from envs.tactics_david.state import MAX_CELLS, N_UNIT_IDS, PLACE_FIELD
from envs.tactics_david.units import has_permission


@njit
def unit_terrain(S, tb, b: int, u: int) -> int:
    """The Terrain Type unit u occupies: Water for a unit whose Floodplains acts ("counts as
    occupying a Water Terrain Type Grid Space", R136), else its space's (grid.terrain)."""
    if has_permission(S, tb, b, u, PERM_FLOOD):
        return np.int64(tb.water_terrain)
    return terrain(tb, np.int64(S["battlefield"][b]), S["flood"][b], np.int64(S["unit_cell"][b, u]))


@njit
def flood_into(S, tb, b: int, out) -> bool:
    """The flood mask game b's units make now (module docstring, R124) into out[:MAX_CELLS]
    (1: the space is flooded); whether any space floods. refresh_flood writes it into the
    state; invariants.check_codes compares the state's with it."""
    bf = np.int64(S["battlefield"][b])
    water = np.int64(tb.water_terrain)
    rows = np.int64(tb.bf_rows[bf])
    cols = np.int64(tb.bf_cols[bf])
    for c in range(MAX_CELLS):
        out[c] = 0
    seen = np.zeros(MAX_CELLS, dtype=np.uint8)
    todo = np.empty(MAX_CELLS, dtype=np.int64)
    top = 0
    for u in range(N_UNIT_IDS):  # the sources: active Floodplains units on actual Water
        if S["unit_place"][b, u] != PLACE_FIELD:
            continue
        c = np.int64(S["unit_cell"][b, u])
        if c < 0 or tb.bf_terrain[bf, c] != water or seen[c]:
            continue
        if has_permission(S, tb, b, u, PERM_FLOOD):
            seen[c] = 1
            todo[top] = c
            top += 1
    wet = False
    while top > 0:  # the Water body: actual Water joined through Direct contact
        top -= 1
        c = todo[top]
        r0 = c // cols
        c0 = c % cols
        for dr in range(-1, 2):
            for dc in range(-1, 2):
                r = r0 + dr
                k = c0 + dc
                if (dr == 0 and dc == 0) or r < 0 or k < 0 or r >= rows or k >= cols:
                    continue
                n = r * cols + k
                if tb.bf_terrain[bf, n] != water:
                    out[n] = 1  # Direct or Diagonal contact: it becomes Water
                    wet = True
                elif (dr == 0 or dc == 0) and not seen[n]:
                    seen[n] = 1
                    todo[top] = n
                    top += 1
    return wet


@njit
def refresh_flood(S, tb, b: int) -> None:
    """Recompute game b's flood mask S["flood"][b] from where the active Floodplains units
    stand (flood_into). Cheap when nothing floods or did: one pass over the units, whose
    has_permission is read only for those standing on actual Water."""
    if S["flood_on"][b] == 0:
        bf = np.int64(S["battlefield"][b])
        water = np.int64(tb.water_terrain)
        source = False
        for u in range(N_UNIT_IDS):
            if S["unit_place"][b, u] != PLACE_FIELD:
                continue
            c = np.int64(S["unit_cell"][b, u])
            if c >= 0 and tb.bf_terrain[bf, c] == water and has_permission(S, tb, b, u, PERM_FLOOD):
                source = True
                break
        if not source:
            return
    S["flood_on"][b] = 1 if flood_into(S, tb, b, S["flood"][b]) else 0
