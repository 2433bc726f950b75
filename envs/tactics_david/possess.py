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

Learn (166, R134): on its Engagement (after its own Engagement rows, the auras' questions and
Study) its player may pick a unit in its Range Area (``ask_learn``: STAGE_EFFECT with
``eff_next = RESUME_LEARN``; ``legal_learn``: A_CELL + the unit's space, A_END none;
``answer_learn``). The unit then has the picked unit's ability (its top member's) besides its
own until the end of this Player's Turn: ``S["unit_ab_copy"]`` holds that profile, and every
scan of a unit's abilities reads it through the one accessor pair ``units.ability_count`` /
``units.ability_prof`` (the hooks, the modifiers, the permissions, the immunities, the Combat
Phase ability, the trails, ...); turn.step clears it after the End of Turn rows.

Shed (127, R135): its `auto_win` Escape row is data (effects.collect_modifiers). When a unit
with Shed wins an Escape from an enemy (movement.apply_move), ``ask_shed`` asks its player
whether to leave a Marker on the space it escaped from (STAGE_EFFECT, RESUME_SHED: A_ABILITY
yes, A_END no; ``answer_shed``); its Movement Phase then goes on. The enemy stays Locked in
Combat, with the Marker: ``unit_lock`` holds LOCK_MARKER (so every "Locked in Combat" rule
holds for it as it is: no movement but an Escape, Engaged before the Turn may end, no Ranged
Attack, halved against a Terrain Piece behind, no Trade) and ``unit_shed_cell`` the
Marker's space. An Escape from the Marker wins at once (movement.apply_move); an Attack
whose area holds the Marker removes it (``strike_markers``, combat.apply_combat; the locked
unit's strike is offered for it, combat.legal_combat), and so does anything that ends the
lock (units.unlock).

Possess (147, R137-R139): its row (`control`, effects._apply_effect) sets ``S["unit_ctrl"][v]``
to this Player's seat: the unit stays in its owner's army (id, slot, Purchase Cost, score) but
acts for the possessing Player this Turn: ``units.side_of`` is the seat every allied/enemy
check and every "whose decision" reads. This Player Engages it by its space in STAGE_ENGAGE
(A_CELL + c, ``legal_possessed``; its own units keep A_UNIT + slot), once, like its own units.
turn.step gives every possessed unit back after the End of Turn rows (the one place control
ends). A Unit Team member or a unit Locked in Combat does not come under control, and a
possessed unit forms no Team and no Combat Lock (R138).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_END,
    STAGE_COMBAT,
    STAGE_EFFECT,
    STAGE_MOVE,
)
from envs.tactics_david.effects import ability_on, target_ok
from envs.tactics_david.grid import may_stop
from envs.tactics_david.record import H_BEFORE_ESCAPE, H_ENGAGE
from envs.tactics_david.state import (
    LOCK_MARKER,
    MAX_CELLS,
    N_UNIT_IDS,
    RESUME_GRAPPLE,
    RESUME_GRAPPLE_CELL,
    RESUME_LEARN,
    RESUME_SHED,
)
from envs.tactics_david.teams import team_mtype
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    in_play,
    may_act,
    move_to,
    named_by_space,
    unlock,
)

GRAPPLE_RADIUS = 3  # "Units within 3 Grid Spaces of this Unit" (RA1: orthogonal steps)
K_COPY = ut.EFFECT_KINDS.index("copy_ability")
K_CUSTOM = ut.EFFECT_KINDS.index("custom")


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


@njit
def ask_grapple(S, tb, b: int) -> None:
    """The pull noted by the row (eff_next RESUME_GRAPPLE): asked if a unit is to be pulled,
    else dropped (the Combat Phase goes on)."""
    buf = np.empty(N_UNIT_IDS, dtype=np.int64)
    if grapple_units(S, tb, b, np.int64(S["eff_unit"][b]), buf) > 0:
        S["stage"][b] = STAGE_EFFECT
    else:
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0


@njit
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


@njit
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


@njit
def learn_row(S, tb, b: int, u: int) -> int:
    """The `copy_ability` Engagement row of unit u's own acting abilities (Learn), -1 none
    (or one already used: it has a copied ability this Turn)."""
    if S["unit_ab_copy"][b, u] >= 0:
        return -1
    for m in range(S["unit_n_members"][b, u]):
        prof = np.int64(S["unit_member"][b, u, m])
        if prof < 0 or not ability_on(S, tb, b, u, prof):
            continue
        start = np.int64(tb.hk_start[H_ENGAGE, prof])
        for i in range(start, start + tb.hk_count[H_ENGAGE, prof]):
            row = np.int64(tb.hk_rows[i])
            if tb.r_kind[row] == K_COPY:
                return row
    return -1


@njit
def legal_learn(S, tb, b: int, out) -> int:
    """RESUME_LEARN: the units Learn may pick (effects.target_ok: in play, in the Range Area,
    not itself), by their spaces, and A_END (none: "may")."""
    u = np.int64(S["eff_unit"][b])
    row = learn_row(S, tb, b, u)
    n = 0
    if row >= 0:
        for v in range(N_UNIT_IDS):
            if target_ok(S, tb, b, u, row, v) and named_by_space(S, b, v):
                out[n] = A_CELL + S["unit_cell"][b, v]
                n += 1
    out[n] = A_END
    return n + 1


@njit
def ask_learn(S, tb, b: int, u: int) -> bool:
    """The Engaged unit u has Learn and a unit to pick: ask its player (STAGE_EFFECT,
    RESUME_LEARN). Returns whether it is asked."""
    if learn_row(S, tb, b, u) < 0:
        return False
    S["eff_unit"][b] = u
    S["eff_next"][b] = RESUME_LEARN
    out = np.empty(N_UNIT_IDS + 1, dtype=np.int64)
    if legal_learn(S, tb, b, out) == 1:  # nobody in its Range Area: nothing to ask
        S["eff_unit"][b] = -1
        S["eff_next"][b] = 0
        return False
    S["stage"][b] = STAGE_EFFECT
    return True


@njit
def answer_learn(S, tb, b: int, a: int) -> None:
    """Learn answered: the unit acquires the picked unit's ability (its top member's, R134)
    until the end of this Player's Turn, or none (A_END)."""
    u = np.int64(S["eff_unit"][b])
    if a != A_END:
        v = np.int64(S["cell_unit"][b, a - A_CELL, 0])
        S["unit_ab_copy"][b, u] = S["unit_member"][b, v, 0]
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0


@njit
def ask_shed(S, tb, b: int, u: int, v: int) -> None:
    """Unit u won its Escape from enemy unit v: if one of u's acting abilities has Shed's
    Marker row (`custom`, before the Escape), its player is asked whether to leave a Marker
    (STAGE_EFFECT, RESUME_SHED)."""
    if v < 0 or v >= N_UNIT_IDS or not in_play(S, tb, b, v):
        return
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not ability_on(S, tb, b, u, prof):
            continue
        start = np.int64(tb.hk_start[H_BEFORE_ESCAPE, prof])
        for i in range(start, start + tb.hk_count[H_BEFORE_ESCAPE, prof]):
            if tb.r_kind[tb.hk_rows[i]] == K_CUSTOM:
                S["eff_unit"][b] = u
                S["fx_pick"][b, 0] = v
                S["eff_next"][b] = RESUME_SHED
                S["stage"][b] = STAGE_EFFECT
                return


@njit
def answer_shed(S, b: int, a: int) -> None:
    """Shed answered: with A_ABILITY the enemy (fx_pick[0]) is Locked in Combat with a Marker
    on the space the unit escaped from (its space now; the lock keeps its Turn); then the
    unit's Movement Phase goes on."""
    u = np.int64(S["eff_unit"][b])
    v = np.int64(S["fx_pick"][b, 0])
    if a == A_ABILITY and S["unit_lock"][b, v] < 0:
        S["unit_lock"][b, v] = LOCK_MARKER
        S["unit_shed_cell"][b, v] = S["unit_cell"][b, u]
    S["fx_pick"][b, 0] = -1
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["stage"][b] = STAGE_MOVE


@njit
def strike_markers(S, b: int, cells, n: int) -> None:
    """Shed Markers on the spaces cells[:n] are Attacked: each is removed, and the unit
    Locked with it is no longer Locked in Combat (R135)."""
    for w in range(N_UNIT_IDS):
        if S["unit_lock"][b, w] != LOCK_MARKER:
            continue
        for i in range(n):
            if cells[i] == S["unit_shed_cell"][b, w]:
                unlock(S, b, w)
                break


@njit
def legal_possessed(S, tb, b: int, p: int, out, n: int) -> int:
    """Append A_CELL + its space for each unit Player p Possessed this Turn that may act and
    was not Engaged yet this Turn (TD-7.2, R137); returns the new count."""
    for v in range(N_UNIT_IDS):
        if S["unit_ctrl"][b, v] == p and may_act(S, tb, b, v) and not S["unit_engaged"][b, v]:
            out[n] = A_CELL + S["unit_cell"][b, v]
            n += 1
    return n
