"""Abilities of other units that offer the Engaged unit's player a choice "upon their Unit
Engagement" (branch tdabA, TD-22.2.n): Research (061), Doing Science (062), Dragon Flight (194).

Their rows are `always` rows of the hook H_ENGAGE_AURA that are `optional` ("may") or part
of a `choice_group` ("may either a) ... or b) ..."); ``effects.run_hook`` skips such rows, so
they are asked here, one at a time, of the Engaged unit's player (the current player: the
unit is theirs) as a STAGE_EFFECT decision with ``S["eff_next"] = RESUME_AURA``:

    ask_aura     after the aura hook of turn.apply_engage: the next row (units in id order,
                 their rows in hook order, after the cursor S["au_src"], S["au_i"]) that
                 reaches the Engaged unit; none left: the Engagement goes on (R96)
    legal_aura   the answers: A_STATUS + s, a listed Status the unit has, to discard it
                 (Research); A_SIDE + k, the k-th row of the choice group (Doing Science:
                 0 Movement, 1 Strength); A_ABILITY, use the row (Dragon Flight); A_END, decline
    answer_aura  acts on the answer, then asks the next row (True) or hands back (False)

Only the kinds these rows use are acted on here (discard_status `listed`, movement_change,
strength_change), and only such rows are asked, so no row acts by half. Compile cost: three
small functions below turn.py's STAGE_EFFECT dispatch and apply_engage, each one call site.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import A_ABILITY, A_END, A_SIDE, A_STATUS, STAGE_EFFECT
from envs.tactics_david.effects import (
    DISCARD_LISTED,
    K_DISCARD,
    K_MOVE,
    K_STRENGTH,
    SEL_WITHIN,
    _amount,
    _pickable,
    _team_ok,
    ability_on,
    add_active,
    conditions_hold,
    distance,
)
from envs.tactics_david.record import H_ENGAGE_AURA
from envs.tactics_david.state import (
    N_STATUSES,
    N_UNIT_IDS,
    RESUME_AURA,
    UNTIL_DISENGAGED,
    UNTIL_TURN,
)
from envs.tactics_david.units import discard_status

DUR_TURN = ut.DURATIONS.index("turn")
MAX_GROUP = 4  # rows of one choice group (A_SIDE + k, k < 4)


@njit
def _reaches(S, tb, b: int, row: int, src: int, u: int) -> bool:
    """Whether aura row `row` of unit src is one to ask for the Engaged unit u: a kind this
    module acts on, a `units_within` row whose team and radius cover u, its conditions
    holding (Dragon Flight: of the Egg Root), and, for a discard, u has a listed Status."""
    if not (tb.r_optional[row] or tb.r_group[row] != 0) or tb.r_sel[row] != SEL_WITHIN:
        return False
    kind = np.int64(tb.r_kind[row])
    discard = kind == K_DISCARD and tb.r_mode[row] == DISCARD_LISTED
    if not (discard or kind == K_MOVE or kind == K_STRENGTH):
        return False
    if not _pickable(S, tb, b, row, u) or not _team_ok(tb, row, src, u):
        return False
    if u != src and distance(S, tb, b, u, src) > tb.r_radius[row]:
        return False
    if discard:
        bits = np.int64(tb.r_statuses[row])
        has = False
        for s in range(N_STATUSES):
            if S["unit_status"][b, u, s] != 0 and (bits >> s) & 1:
                has = True
        if not has:
            return False
    return conditions_hold(S, tb, b, row, src, u, -1, -1, -1)


@njit
def ask_aura(S, tb, b: int, u: int) -> bool:
    """Ask the next aura row that offers the Engaged unit u a choice (after the cursor
    au_src/au_i; au_src -1: from the start): STAGE_EFFECT, RESUME_AURA, True. None left:
    the cursor is cleared and False (the Engagement goes on). A choice group is asked once,
    at its first row."""
    started = S["au_src"][b] < 0
    for src in range(N_UNIT_IDS):
        for m in range(S["unit_n_members"][b, src]):
            prof = np.int64(S["unit_member"][b, src, m])
            if prof < 0 or not ability_on(S, tb, b, src, prof):
                continue
            start = np.int64(tb.hk_start[H_ENGAGE_AURA, prof])
            for i in range(start, start + tb.hk_count[H_ENGAGE_AURA, prof]):
                if not started:
                    started = src == S["au_src"][b] and i == S["au_i"][b]
                    continue
                row = np.int64(tb.hk_rows[i])
                g = tb.r_group[row]
                if g != 0 and i > start and tb.r_group[tb.hk_rows[i - 1]] == g:
                    continue  # a later row of a group already asked at its first
                if not _reaches(S, tb, b, row, src, u):
                    continue
                S["au_src"][b] = src
                S["au_i"][b] = i
                S["eff_unit"][b] = u
                S["eff_status"][b] = -1
                S["eff_next"][b] = RESUME_AURA
                S["stage"][b] = STAGE_EFFECT
                return True
    S["au_src"][b] = -1
    S["au_i"][b] = 0
    return False


@njit
def legal_aura(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_AURA: the answers to the aura row asked (module docstring)."""
    u = np.int64(S["eff_unit"][b])
    src = np.int64(S["au_src"][b])
    i = np.int64(S["au_i"][b])
    row = np.int64(tb.hk_rows[i])
    n = 0
    if tb.r_group[row] != 0:
        end = (
            tb.hk_start[H_ENGAGE_AURA, tb.r_ability[row]]
            + tb.hk_count[H_ENGAGE_AURA, tb.r_ability[row]]
        )
        for k in range(MAX_GROUP):
            if i + k >= end or tb.r_group[tb.hk_rows[i + k]] != tb.r_group[row]:
                break
            if _reaches(S, tb, b, np.int64(tb.hk_rows[i + k]), src, u):
                out[n] = A_SIDE + k
                n += 1
    elif tb.r_kind[row] == K_DISCARD:
        bits = np.int64(tb.r_statuses[row])
        for s in range(N_STATUSES):
            if S["unit_status"][b, u, s] != 0 and (bits >> s) & 1:
                out[n] = A_STATUS + s
                n += 1
    else:
        out[n] = A_ABILITY
        n += 1
    out[n] = A_END
    return n + 1


@njit
def answer_aura(S, tb, b: int, a: int) -> bool:
    """Act on the answer to the aura row asked, then ask the next one; True while a question
    is asked, False once none is left (eff_* cleared: the Engagement goes on)."""
    u = np.int64(S["eff_unit"][b])
    src = np.int64(S["au_src"][b])
    row = np.int64(tb.hk_rows[S["au_i"][b]])
    if a >= A_STATUS and a < A_STATUS + N_STATUSES:  # Research: discard it; the other too?
        discard_status(S, tb, b, u, a - A_STATUS)
        if _reaches(S, tb, b, row, src, u):
            return True  # another listed Status is left: asked again
    elif a != A_END:
        if a >= A_SIDE and a < A_SIDE + MAX_GROUP:  # the chosen row of the group
            row = np.int64(tb.hk_rows[S["au_i"][b] + a - A_SIDE])
        S["fx_cause"][b] = src
        until = UNTIL_TURN if tb.r_duration[row] == DUR_TURN else UNTIL_DISENGAGED
        add_active(S, tb, b, row, u, _amount(S, tb, b, row, src), until)
        S["fx_cause"][b] = -1
    if ask_aura(S, tb, b, u):
        return True
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    return False
