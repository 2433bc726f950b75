"""Forced moves, copying, terrain and control by abilities (TD-22.2; branch tdabF).

Grapple Tentacle (136, R133): "D: Combat Pha.", used with A_ABILITY like every such ability
(R55). Its row (`reposition` `pull_to_self`, effects._apply_effect) notes the pull
(``eff_next = RESUME_GRAPPLE``); ``ask_grapple`` asks it if a unit is to be pulled. This
Player picks the next unit (STAGE_EFFECT, A_CELL + its space; ``grapple_units``), then the
space it goes to (``RESUME_GRAPPLE_CELL``; ``grapple_cells``), and so on until no unit is
left to pull; then the Combat Phase goes on (STAGE_COMBAT). The pulled units are every unit
in play (either army's, not Dead) within 3 Grid Spaces (RA1) not yet in Direct or Diagonal
contact and not in a Unit Team (as R95); each goes to a free space in Direct or Diagonal
contact with the Kraken that it may occupy and that is closest to it (the "closest side";
ties: this Player's choice), keeps its facing and leaves any Combat Lock. The 8 spaces
around the unit bound the pulls by 8, the text's maximum. A unit with no such space left
stays. ``legal_grapple`` / ``answer_grapple`` are the two STAGE_EFFECT steps
(turn.legal_effect_choice, turn.apply_effect_choice).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactics_david.actions import A_CELL, STAGE_COMBAT, STAGE_EFFECT
from envs.tactics_david.grid import may_stop
from envs.tactics_david.state import MAX_CELLS, N_UNIT_IDS, RESUME_GRAPPLE, RESUME_GRAPPLE_CELL
from envs.tactics_david.teams import team_mtype
from envs.tactics_david.units import in_play, move_to, unlock

GRAPPLE_RADIUS = 3  # "Units within 3 Grid Spaces of this Unit" (RA1: orthogonal steps)


@njit
def grapple_cells(S, tb, b: int, u: int, v: int, out) -> int:
    """The spaces unit u's Grapple Tentacle may pull unit v to (module docstring): the free
    spaces in Direct or Diagonal contact with u that v may occupy, those fewest orthogonal
    steps from v; into out[:n] (space numbers)."""
    bf = np.int64(S["battlefield"][b])
    cols = np.int64(tb.bf_cols[bf])
    rows = np.int64(tb.bf_rows[bf])
    cu = np.int64(S["unit_cell"][b, u])
    cv = np.int64(S["unit_cell"][b, v])
    mtype = team_mtype(S, tb, b, v)
    best = np.int64(1 << 30)
    n = 0
    for dr in range(-1, 2):
        for dc in range(-1, 2):
            r = cu // cols + dr
            c = cu % cols + dc
            if (dr == 0 and dc == 0) or r < 0 or r >= rows or c < 0 or c >= cols:
                continue
            cell = r * cols + c
            if S["cell_unit"][b, cell, 0] >= 0 or not may_stop(tb, bf, mtype, cell):
                continue
            d = abs(r - cv // cols) + abs(c - cv % cols)
            if d < best:
                best = d
                n = 0
            if d == best:
                out[n] = cell
                n += 1
    return n


@njit
def grapple_units(S, tb, b: int, u: int, out) -> int:
    """The units unit u's Grapple Tentacle has still to pull, into out[:n] (module
    docstring): in play, within 3 Grid Spaces, not in Direct or Diagonal contact, not in a
    Unit Team, with a space to go to."""
    cols = np.int64(tb.bf_cols[S["battlefield"][b]])
    cu = np.int64(S["unit_cell"][b, u])
    cells = np.empty(8, dtype=np.int64)
    n = 0
    for v in range(N_UNIT_IDS):
        if v == u or not in_play(S, tb, b, v) or S["unit_team"][b, v] >= 0:
            continue
        cv = np.int64(S["unit_cell"][b, v])
        dr = abs(cu // cols - cv // cols)
        dc = abs(cu % cols - cv % cols)
        if dr + dc > GRAPPLE_RADIUS or max(dr, dc) <= 1:
            continue
        if grapple_cells(S, tb, b, u, v, cells) > 0:
            out[n] = v
            n += 1
    return n


@njit_inline  # one caller: combat.apply_combat, after the "D: Combat Pha." rows ran
def ask_grapple(S, tb, b: int) -> None:
    """The pull noted by the row (eff_next RESUME_GRAPPLE): asked if a unit is to be pulled,
    else dropped (the Combat Phase goes on)."""
    buf = np.empty(N_UNIT_IDS, dtype=np.int64)
    if grapple_units(S, tb, b, np.int64(S["eff_unit"][b]), buf) > 0:
        S["stage"][b] = STAGE_EFFECT
    else:
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0


@njit_inline  # one caller: turn.legal_effect_choice
def legal_grapple(S, tb, b: int, out) -> int:
    """RESUME_GRAPPLE: the units left to pull, by their spaces; RESUME_GRAPPLE_CELL: the
    spaces the picked unit (fx_pick[0]) may go to."""
    u = np.int64(S["eff_unit"][b])
    buf = np.empty(max(N_UNIT_IDS, MAX_CELLS), dtype=np.int64)
    if S["eff_next"][b] == RESUME_GRAPPLE:
        n = grapple_units(S, tb, b, u, buf)
        for i in range(n):
            out[i] = A_CELL + S["unit_cell"][b, buf[i]]
        return n
    n = grapple_cells(S, tb, b, u, np.int64(S["fx_pick"][b, 0]), buf)
    for i in range(n):
        out[i] = A_CELL + buf[i]
    return n


@njit_inline  # one caller: turn.apply_effect_choice
def answer_grapple(S, tb, b: int, a: int) -> None:
    """The unit picked (then asked where it goes), or the space it goes to: it moves there
    keeping its facing and leaves its Combat Lock; then the next unit, or the Combat Phase
    goes on."""
    if S["eff_next"][b] == RESUME_GRAPPLE:
        S["fx_pick"][b, 0] = S["cell_unit"][b, a - A_CELL, 0]
        S["eff_next"][b] = RESUME_GRAPPLE_CELL
        return
    v = np.int64(S["fx_pick"][b, 0])
    unlock(S, b, v)  # "Units may be removed from Combat Lock"
    move_to(S, b, v, a - A_CELL)
    S["fx_pick"][b, 0] = -1
    buf = np.empty(N_UNIT_IDS, dtype=np.int64)
    if grapple_units(S, tb, b, np.int64(S["eff_unit"][b]), buf) > 0:
        S["eff_next"][b] = RESUME_GRAPPLE
        return
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["stage"][b] = STAGE_COMBAT
