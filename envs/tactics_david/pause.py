"""Decisions inside a procedure (R72): one pause-and-resume mechanism for the rules that ask a
player something after some dice are rolled and before the procedure ends.

A procedure pauses by `begin_pause(S, b, at, seat)`: ``S["pz_at"]`` says where it resumes
(PZ_*), ``S["current"]`` becomes the seat the rule names (the old one is kept in pz_seat) and
the stage is STAGE_PAUSE. What the procedure had done is kept in the record: the attacker and
defender (pz_a, pz_d), the side and Ranged Melee arguments, the Ranged Attack's target space
(pz_target; -1 a Melee area), the area cursor (pz_i: which defender of the Area of Attack was
being attacked, TD-15.2), the results already rolled (pz_att, pz_dfn, pz_flags) and the
ability row asked about (pz_row, pz_src). The answer is applied by ``combat.resume_procedure``,
the one resume switch over PZ_*, which restores the seat and goes on where the procedure
stopped (the rest of that defender's procedure, then the rest of the area).

Where a procedure may pause (combat.py):

    PZ_DEFEND_MAY    a defender's Attack, before the `before` rows: a "may" row of the defender
                     or of an ally that covers it (Sword Dance, Phase Shift, Slip,
                     Impenetrable, Warning Signs) is asked of the defender's player; the row
                     acts (its roll, its effect) in its place among the `before` Defend rows
    PZ_LUCKY_ATTACK  a defender's Attack and Defend (with its Duels) rolled, before the result
                     acts: a Lucky unit of the attacking player in it may reroll (TD-20.17)
    PZ_LUCKY_HIT     the Ranged Hit Procedure's dice rolled, before they act: Lucky again
    PZ_RETRY_HIT     a Ranged Hit missed: Target Practice may perform it again
    PZ_GUARD         a defender lost and would acquire the Dead Status: an allied Guard unit
                     may acquire Paralyzed or Frozen instead (guard.py, R140), asked of the
                     defender's player with the results kept (other deaths: guard.Q_GUARD)

Giant's Bread (TD-25.4) is a pause of its own kind, since a Status is acquired anywhere
(units.apply_status, units.kill): the acquisition is noted (``S["pz_bread"]``, units.
note_acquired) and turn.step asks the holder's player at the first hand-off after it, before
any later step (the end of the game included) acts: ``ask_bread`` saves the stage and the
hand-off it interrupted and ``answer_bread`` restores them (R74).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_END,
    A_FACE,
    A_STATUS,
    STAGE_COMBAT,
    STAGE_GAME_OVER,
    STAGE_PAUSE,
)
from envs.tactics_david.effects import (
    K_NEGATE,
    SEL_SELF,
    SEL_WITHIN,
    _alive,
    _roll,
    _roll_ok,
    _team_ok,
    ability_on,
    conditions_hold,
    distance,
)
from envs.tactics_david.grid import may_stop, offset_cell
from envs.tactics_david.guard import legal_guard
from envs.tactics_david.record import H_BEFORE_DEFEND, H_RANGED_HIT
from envs.tactics_david.state import (
    MAX_CELLS,
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_STATUSES,
    N_UNIT_IDS,
    PLACE_FIELD,
    RES_NEGATED,
)
from envs.tactics_david.units import (
    ability_count,
    ability_prof,
    deck_to_bottom,
    discard_status,
    move_to,
    side_of,
    unlock,
)

# S["pz_at"]: where the paused procedure resumes (module docstring)
PZ_NONE = 0
PZ_LUCKY_ATTACK = 1
PZ_LUCKY_HIT = 2
PZ_RETRY_HIT = 3
PZ_DEFEND_MAY = 4
PZ_GUARD = 5  # tdabD: a defender that would die, an allied Guard may take it on (guard.py)
# S["pz_flags"]
PZF_CANNOT_DIE = 1  # the kept result cannot kill the defender (TD-13.4, immunities)
PZF_RETRIED = 2  # Target Practice's retry was made in this Ranged Attack

K_EXTRA = ut.EFFECT_KINDS.index("extra_procedure")
EXTRA_FACING = ut.EFFECT_MODES["extra_procedure"].index("facing")
EXTRA_RETRY = ut.EFFECT_MODES["extra_procedure"].index("ranged_hit_retry")
K_REPOS = ut.EFFECT_KINDS.index("reposition")
REPOS_ANY_SIDE = ut.EFFECT_MODES["reposition"].index("any_side_of_attacker")
REPOS_BEHIND = ut.EFFECT_MODES["reposition"].index("behind_attacker")


@njit
def begin_pause(S, b: int, at: int, seat: int) -> None:
    """Pause the procedure in progress at `at` and ask `seat` (STAGE_PAUSE)."""
    S["pz_at"][b] = at
    S["pz_seat"][b] = S["current"][b]
    S["current"][b] = seat
    S["stage"][b] = STAGE_PAUSE


@njit
def is_lucky(S, tb, b: int, u: int) -> bool:
    """Whether unit u may use its Lucky reroll now (TD-20.17): it holds a Status that rerolls
    (Lucky), its Unit Type may carry it (Ethereal Units may not be Lucky), it is its owner's
    Turn and it has not rerolled this Turn."""
    if u < 0 or u // MAX_UNITS != S["current"][b] or not _alive(S, tb, b, u):
        return False
    if S["pz_lucky_turn"][b, u] == S["turn"][b]:
        return False
    t = S["unit_type"][b, u]
    for s in range(N_STATUSES):
        if S["unit_status"][b, u, s] != 0 and tb.st_reroll[s] and tb.st_afflicts[s, t]:
            if not (S["gd_ignore"][b, u] >> s) & 1:  # tdabD: Soothe (R106)
                return True
    return False


@njit
def retry_row(S, tb, b: int, u: int) -> bool:
    """Whether one of unit u's abilities may perform a missed Ranged Hit again (Target
    Practice's optional `ranged_hit_retry` row)."""
    for m in range(ability_count(S, b, u)):
        prof = ability_prof(S, b, u, m)
        if prof < 0 or not ability_on(S, tb, b, u, prof):
            continue
        start = np.int64(tb.hk_start[H_RANGED_HIT, prof])
        for i in range(start, start + tb.hk_count[H_RANGED_HIT, prof]):
            row = np.int64(tb.hk_rows[i])
            if tb.r_kind[row] == K_EXTRA and tb.r_mode[row] == EXTRA_RETRY:
                return True
    return False


@njit
def _toward(tb, bf: int, c: int, target: int) -> int:
    """The facing from space c to the orthogonally adjacent space `target`, -1 if none."""
    for f in range(4):
        if offset_cell(tb, bf, c, f, 1, 0) == target:
            return f
    return -1


@njit
def _side_ok(S, tb, b: int, d: int, c: int) -> bool:
    """Whether unit d may be moved onto space c: on the battlefield, free (or its own) and a
    space its Movement Type may occupy (TD-2.3)."""
    if c < 0:
        return False
    if S["cell_unit"][b, c, 0] >= 0 and S["cell_unit"][b, c, 0] != d:
        return False
    bf = np.int64(S["battlefield"][b])
    return may_stop(tb, bf, np.int64(tb.u_mtype[S["unit_member"][b, d, 0]]), c)


@njit
def _behind(S, tb, b: int, a: int) -> int:
    """The space directly behind unit a (-1 off the battlefield)."""
    bf = np.int64(S["battlefield"][b])
    return offset_cell(tb, bf, np.int64(S["unit_cell"][b, a]), S["unit_facing"][b, a], -1, 0)


@njit
def _may_offer(S, tb, b: int, row: int, a: int, d: int) -> bool:
    """Whether the "may" row can act at all for defender d against attacker a (a kind this
    pause interprets, and a space to move to)."""
    kind = np.int64(tb.r_kind[row])
    mode = np.int64(tb.r_mode[row])
    if kind == K_NEGATE or (kind == K_EXTRA and mode == EXTRA_FACING):
        return True
    if kind == K_REPOS and mode == REPOS_BEHIND:
        return _side_ok(S, tb, b, d, _behind(S, tb, b, a))
    if kind == K_REPOS and mode == REPOS_ANY_SIDE:
        bf = np.int64(S["battlefield"][b])
        for f in range(4):
            if _side_ok(S, tb, b, d, offset_cell(tb, bf, np.int64(S["unit_cell"][b, a]), f, 1, 0)):
                return True
    return False


@njit
def find_defend_may(S, tb, b: int, a: int, d: int) -> bool:
    """The first optional `before` Defend row (units in id order, rows in order) that covers
    defender d against attacker a: its own (`self`) or a unit's within its radius on d's side
    (`units_within`), its conditions holding and something for it to do. Sets pz_row/pz_src;
    one "may" is asked per Defend (R72)."""
    for src in range(N_UNIT_IDS):
        if not _alive(S, tb, b, src):
            continue
        for m in range(ability_count(S, b, src)):
            prof = ability_prof(S, b, src, m)
            if prof < 0 or not ability_on(S, tb, b, src, prof):
                continue
            start = np.int64(tb.hk_start[H_BEFORE_DEFEND, prof])
            for i in range(start, start + tb.hk_count[H_BEFORE_DEFEND, prof]):
                row = np.int64(tb.hk_rows[i])
                if not tb.r_optional[row]:
                    continue
                sel = tb.r_sel[row]
                if sel == SEL_SELF:
                    if src != d:
                        continue
                elif sel == SEL_WITHIN:
                    if (
                        not _team_ok(S, tb, b, row, src, d)
                        or distance(S, tb, b, src, d) > tb.r_radius[row]
                    ):
                        continue
                else:
                    continue
                if not conditions_hold(S, tb, b, row, src, d, a, -1, -1):
                    continue
                if not _may_offer(S, tb, b, row, a, d):
                    continue
                S["pz_row"][b] = row
                S["pz_src"][b] = src
                return True
    return False


@njit
def use_chosen(S, tb, b: int, a: int, d: int) -> None:
    """The "may" row the defender's player chose (pz_use_row) acts on defender d, in its place
    among the `before` Defend rows: its roll first (asked before the roll: the roll tells the
    player nothing the choice depends on, as R57), then a negated attack (Impenetrable), a
    Facing Procedure to the facing chosen (Sword Dance, Warning Signs; no longer face to
    face, R33), or a move beside or behind the attacker facing it (Phase Shift, Slip): a unit
    that left its space has left the space attacked, so the attack on it does not happen
    (R75)."""
    row = np.int64(S["pz_use_row"][b])
    src = np.int64(S["pz_use_src"][b])
    arg = np.int64(S["pz_use_arg"][b])
    S["pz_use_row"][b] = -1
    S["pz_use_src"][b] = -1
    S["pz_use_arg"][b] = -1
    if not _alive(S, tb, b, d) or not _roll_ok(S, tb, b, row, src, _roll(S, tb, b, row, src)):
        return
    kind = np.int64(tb.r_kind[row])
    bf = np.int64(S["battlefield"][b])
    if kind == K_NEGATE:
        S["fx_res"][b] |= RES_NEGATED
    elif kind == K_EXTRA:
        if S["unit_facing"][b, d] != arg:
            S["unit_facing"][b, d] = arg
            unlock(S, b, d)
    elif kind == K_REPOS:
        c = arg if tb.r_mode[row] == REPOS_ANY_SIDE else _behind(S, tb, b, a)
        if not _side_ok(S, tb, b, d, c):
            return  # the space was taken meanwhile
        f = _toward(tb, bf, c, np.int64(S["unit_cell"][b, a]))
        if f >= 0 and f != S["unit_facing"][b, d]:
            S["unit_facing"][b, d] = f
            unlock(S, b, d)
        if c != S["unit_cell"][b, d]:  # it left the space attacked (R75)
            move_to(S, b, d, c)
            unlock(S, b, d)
            S["fx_res"][b] |= RES_NEGATED


@njit
def bread_slot(S, tb, b: int, u: int) -> int:
    """The item slot of unit u holding an Item that discards an acquired Status, -1."""
    for slot in range(N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i >= 0 and tb.it_refuse[i]:
            return slot
    return -1


@njit
def ask_bread(S, tb, b: int, go: int) -> bool:
    """Giant's Bread (TD-25.4, R74): if a holder acquired a Status it still holds since the
    last decision, ask its player now (STAGE_PAUSE), keeping the stage asked and the hand-off
    `go` it interrupts; an acquisition the holder can no longer refuse is forgotten."""
    if S["stage"][b] == STAGE_GAME_OVER or S["pz_bread_unit"][b] >= 0:
        return False
    for u in range(N_UNIT_IDS):
        bits = np.int64(S["pz_bread"][b, u])
        if bits == 0:
            continue
        held = False
        for s in range(N_STATUSES):
            if (bits >> s) & 1 and S["unit_status"][b, u, s] != 0:
                held = True
        if not held or S["unit_place"][b, u] != PLACE_FIELD or bread_slot(S, tb, b, u) < 0:
            S["pz_bread"][b, u] = 0
            continue
        S["pz_bread_unit"][b] = u
        S["pz_bread_stage"][b] = S["stage"][b]
        S["pz_bread_go"][b] = go
        S["pz_bread_seat"][b] = S["current"][b]
        S["current"][b] = side_of(S, b, u)
        S["stage"][b] = STAGE_PAUSE
        return True
    return False


@njit
def answer_bread(S, tb, b: int, a: int) -> int:
    """Discard the chosen Status with the Bread, which goes to the bottom of the Item Deck
    (an Expendable, used up), or keep them all (A_END); then the stage and hand-off the
    question interrupted come back (the GO_* to run next)."""
    u = np.int64(S["pz_bread_unit"][b])
    if a != A_END:
        discard_status(S, tb, b, u, a - A_STATUS)
        slot = bread_slot(S, tb, b, u)
        deck_to_bottom(S, b, np.int64(S["unit_item"][b, u, slot]))
        S["unit_item"][b, u, slot] = -1
    S["pz_bread"][b, u] = 0
    S["pz_bread_unit"][b] = -1
    S["current"][b] = S["pz_bread_seat"][b]
    S["stage"][b] = S["pz_bread_stage"][b]
    return np.int64(S["pz_bread_go"][b])


@njit
def legal_pause(S, tb, b: int, out) -> int:
    """STAGE_PAUSE's legal actions: the Statuses the Bread may discard, or yes (A_ABILITY) to
    Lucky and Target Practice, or the defender's "may": yes, a new facing, or a space beside
    the attacker; A_END (no) always."""
    n = 0
    u = np.int64(S["pz_bread_unit"][b])
    if u >= 0:
        bits = np.int64(S["pz_bread"][b, u])
        for s in range(N_STATUSES):
            if (bits >> s) & 1 and S["unit_status"][b, u, s] != 0:
                out[n] = A_STATUS + s
                n += 1
    elif S["pz_at"][b] == PZ_GUARD:
        return legal_guard(S, tb, b, np.int64(S["pz_src"][b]), out)  # tdabD (R105)
    elif S["pz_at"][b] == PZ_DEFEND_MAY:
        row = np.int64(S["pz_row"][b])
        d = np.int64(S["pz_d"][b])
        kind = np.int64(tb.r_kind[row])
        if kind == K_EXTRA:
            for f in range(4):
                if f != S["unit_facing"][b, d]:
                    out[n] = A_FACE + f
                    n += 1
        elif kind == K_REPOS and tb.r_mode[row] == REPOS_ANY_SIDE:
            a = np.int64(S["pz_a"][b])
            bf = np.int64(S["battlefield"][b])
            for f in range(4):
                c = offset_cell(tb, bf, np.int64(S["unit_cell"][b, a]), f, 1, 0)
                if _side_ok(S, tb, b, d, c):
                    out[n] = A_CELL + c
                    n += 1
        else:
            out[n] = A_ABILITY
            n += 1
    else:
        out[n] = A_ABILITY
        n += 1
    out[n] = A_END
    return n + 1


@njit
def end_pause(S, b: int) -> int:
    """The procedure resumes: the seat asked before the pause comes back, the stage is the
    Combat Phase's again; returns where it resumes (PZ_*)."""
    at = np.int64(S["pz_at"][b])
    S["current"][b] = S["pz_seat"][b]
    S["pz_at"][b] = PZ_NONE
    S["stage"][b] = STAGE_COMBAT
    return at


@njit
def take_may(S, b: int, a: int) -> None:
    """The defender's player answered the "may" (A_END: not used): note the row and the
    answer's argument for use_chosen."""
    if a == A_END:
        return
    S["pz_use_row"][b] = S["pz_row"][b]
    S["pz_use_src"][b] = S["pz_src"][b]
    if a >= A_FACE and a < A_FACE + 4:
        S["pz_use_arg"][b] = a - A_FACE
    elif a >= A_CELL and a < A_CELL + MAX_CELLS:
        S["pz_use_arg"][b] = a - A_CELL
