"""What one Tactical Assault player may see, as one flat float32 vector (both rulesets).

Seats are relative: "me" is the observer, "opp" the other seat. Hidden from `me` (issue 7;
docs/rules/fantasy_cards.md R34): the opponent's hand (only its size shows) and the order of
BOTH decks (a player's own deck order is hidden from that player too: only the sizes show; the
contents of one's own deck follow from the public places of the other cards). While forces are
chosen by points (STAGE_CHOOSE_FORCE, LB R23) the units chosen so far are hidden from the other
player until deployment: the opponent's force and points total read as zeros, and no chosen
unit slot is shown, not even one's own (slot numbers would tell how many units the opponent
chose first); one's own choice shows as counts by type. Public: units, their statuses,
positions and facing, discard piles, the cards on the resolution stack, the card part chosen to
be played (FC R34: a card is laid face up on its unit, the two decisions are one act), the play
window and the stage.

Layout (S = N_STAGE_SLOTS, C = MAX_CARDS 72, T = N_UNIT_TYPES 20, G = N_TRIGGERS, F = frame,
U = unit row; a count is divided by the SCALE_* beside it):

| part      | size             | content |
|-----------|------------------|---------|
| global    | GLOBAL_SIZE      | stage one-hot (S); I decide; my seat; active is me / opp; I placed first; turn / (2 x limit); my and opp's turns begun / limit; deploying one-hot (3); general window kind one-hot (3) and passes left / 2; ending the turn; window trigger one-hot (G); stack depth / MAX_STACK; chosen part (Action, Situation); chosen card one-hot (C); a Fall Back is moving; its zones left; its window due; points total me / opp, points lost me / opp (/ SCALE_POINTS); units lost me / opp, units exited me / opp (/ SCALE_UNITS) |
| cards     | CARD_SIZE        | per card of mine (C each): in hand, newly drawn, discarded, on the stack; per card of the opponent's: discarded, on the stack; then my hand size, opp hand size (/ hand size), my deck size, opp deck size (/ C), reshuffles me / opp (/ 4) |
| stack     | MAX_STACK x F    | per frame: used; mine; opp's; play one-hot (MAX_PLAYS); effect step one-hot (MAX_STEPS); phase one-hot (N_PHASES); (shift + 4) / 8; zones left / 8; zones moved / 8; cancelled; ceased; may end in contact |
| forces    | 2 x T            | my force, the opponent's (units of each type / SCALE_FORCE) |
| units     | MAX_UNITS x U    | per unit slot: shown; mine; opp's; type one-hot (T); off / on / eliminated / exited; centre x, y (/ map extent); facing one-hot (MAX_DIRS); Shaken; Out Of Action; had its Action; holds an Action / a Situation pass-along; in Close Combat; turns until it arrives / limit; it is: the top frame's unit, its target, the window's unit, the window's enemy, the unit being placed or turned, falling back, moving out |
| positions | MAX_POS x P_SIZE | per position: my units, opp's units (/ 2); standable; my deployment area; opp's; my arrival area; a zone to hold; an exit zone; a zone being settled or moved out of; the zone a move is about to enter; on a declared move path still to be walked (FC R41: laid out for all players to see), the declared path's end |
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.fantasy_cards.tables import TRIGGERS
from envs.tactical_assault.actions import STAGE_CHOOSE_FORCE, STAGE_WINDOW
from envs.tactical_assault.resolve import N_PHASES, PH_CONTACT_W, PH_MOVE, PH_MOVE_W, PH_WALK
from envs.tactical_assault.state import (
    FR_CANCELLED,
    FR_CEASED,
    MAX_CARDS,
    MAX_DIRS,
    MAX_POS,
    MAX_STACK,
    MAX_UNITS,
    N_UNIT_TYPES,
    PLACE_DISCARD,
    PLACE_HAND,
    PLACE_PLAYED,
    STATUS_OUT_OF_ACTION,
    STATUS_SHAKEN,
    WHERE_ON,
)
from envs.tactical_assault.tables import MAX_PLAYS, MAX_STEPS

N_STAGE_SLOTS = 20  # actions.STAGE_* are below this
N_TRIGGERS = len(TRIGGERS)
SCALE_POINTS = 36.0  # the Standard Game's force (FC "Select the units")
SCALE_UNITS = 16.0
SCALE_FORCE = 8.0

GLOBAL_SIZE = N_STAGE_SLOTS + 5 + 3 + 3 + 3 + 1 + 1 + N_TRIGGERS + 1 + 2 + MAX_CARDS + 3 + 8
CARD_SIZE = 6 * MAX_CARDS + 6
FRAME_SIZE = 3 + MAX_PLAYS + MAX_STEPS + N_PHASES + 3 + 3
UNIT_SIZE = 3 + N_UNIT_TYPES + 4 + 2 + MAX_DIRS + 2 + 1 + 2 + 1 + 1 + 7
POS_SIZE = 12


def observation_size() -> int:
    """Length of the float32 vector observe writes (the module docstring's table)."""
    return (
        GLOBAL_SIZE
        + CARD_SIZE
        + MAX_STACK * FRAME_SIZE
        + 2 * N_UNIT_TYPES
        + MAX_UNITS * UNIT_SIZE
        + MAX_POS * POS_SIZE
    )


@njit
def _one_hot(out, i, k, n):
    """out[i + k] = 1 when 0 <= k < n (k < 0: none, all zeros)."""
    if 0 <= k < n:
        out[i + k] = 1.0


@njit
def observe(S, tb, b, me, out):
    """Write player `me`'s observation of game b into out (float32[observation_size()]);
    returns the length written."""
    out[:] = 0.0
    opp = 1 - me
    stage = np.int64(S["stage"][b])
    choosing = stage == STAGE_CHOOSE_FORCE  # LB R23: chosen forces hidden until deployment
    limit = max(np.float32(tb.sc_turn_limit), np.float32(1.0))
    i = 0
    # --- global
    _one_hot(out, i, stage, N_STAGE_SLOTS)
    i += N_STAGE_SLOTS
    out[i] = 1.0 if S["current"][b] == me else 0.0
    out[i + 1] = me
    out[i + 2] = 1.0 if S["active"][b] == me else 0.0
    out[i + 3] = 1.0 if S["active"][b] == opp else 0.0
    out[i + 4] = 1.0 if S["placed_first"][b] == me else 0.0
    i += 5
    out[i] = S["turn"][b] / (2.0 * limit)
    out[i + 1] = S["turns_of"][b, me] / limit
    out[i + 2] = S["turns_of"][b, opp] / limit
    i += 3
    _one_hot(out, i, np.int64(S["deploying"][b]), 3)
    i += 3
    if stage == STAGE_WINDOW and S["win_trigger"][b] == 0:
        _one_hot(out, i, np.int64(S["gw_kind"][b]), 3)
        out[i + 3] = S["gw_left"][b] / 2.0
    i += 4
    out[i] = S["ending"][b]
    i += 1
    if stage == STAGE_WINDOW:
        _one_hot(out, i, np.int64(S["win_trigger"][b]), N_TRIGGERS)
    i += N_TRIGGERS
    out[i] = S["depth"][b] / MAX_STACK
    i += 1
    sc = np.int64(S["sel_card"][b])
    if sc >= 0:  # a card part chosen, its unit asked next: laid face up (FC R34)
        _one_hot(out, i, np.int64(S["sel_part"][b]), 2)
        out[i + 2 + sc] = 1.0
    i += 2 + MAX_CARDS
    if S["fb_unit"][b] >= 0:
        out[i] = 1.0
        out[i + 1] = S["fb_left"][b] / 8.0
        out[i + 2] = S["fb_ask"][b]
    i += 3
    out[i] = S["points_total"][b, me] / SCALE_POINTS
    if not choosing:
        out[i + 1] = S["points_total"][b, opp] / SCALE_POINTS
    out[i + 2] = S["points_lost"][b, me] / SCALE_POINTS
    out[i + 3] = S["points_lost"][b, opp] / SCALE_POINTS
    out[i + 4] = S["units_lost"][b, me] / SCALE_UNITS
    out[i + 5] = S["units_lost"][b, opp] / SCALE_UNITS
    out[i + 6] = S["units_exited"][b, me] / SCALE_UNITS
    out[i + 7] = S["units_exited"][b, opp] / SCALE_UNITS
    i += 8
    # --- cards: my hand and the public places; never a deck's order
    n_mine = 0
    n_theirs = 0
    for k in range(tb.n_cards):
        place = S["card_place"][b, me, k]
        if place == PLACE_HAND:
            out[i + k] = 1.0
            out[i + MAX_CARDS + k] = S["card_new"][b, me, k]
            n_mine += 1
        elif place == PLACE_DISCARD:
            out[i + 2 * MAX_CARDS + k] = 1.0
        elif place == PLACE_PLAYED:
            out[i + 3 * MAX_CARDS + k] = 1.0
        place = S["card_place"][b, opp, k]
        if place == PLACE_HAND:
            n_theirs += 1  # only the count (issue 7)
        elif place == PLACE_DISCARD:
            out[i + 4 * MAX_CARDS + k] = 1.0
        elif place == PLACE_PLAYED:
            out[i + 5 * MAX_CARDS + k] = 1.0
    i += 6 * MAX_CARDS
    hs = max(np.float32(tb.hand_size), np.float32(1.0))
    out[i] = n_mine / hs
    out[i + 1] = n_theirs / hs
    out[i + 2] = S["deck_count"][b, me] / MAX_CARDS
    out[i + 3] = S["deck_count"][b, opp] / MAX_CARDS
    out[i + 4] = S["reshuffles"][b, me] / 4.0
    out[i + 5] = S["reshuffles"][b, opp] / 4.0
    i += 6
    # --- the resolution stack (face-up cards being resolved)
    for f in range(MAX_STACK):
        if f < S["depth"][b]:
            out[i] = 1.0
            out[i + 1 + (0 if S["fr_player"][b, f] == me else 1)] = 1.0
            j = i + 3
            _one_hot(out, j, np.int64(S["fr_play"][b, f]), MAX_PLAYS)
            j += MAX_PLAYS
            _one_hot(out, j, np.int64(S["fr_step"][b, f]), MAX_STEPS)
            j += MAX_STEPS
            _one_hot(out, j, np.int64(S["fr_phase"][b, f]), N_PHASES)
            j += N_PHASES
            out[j] = max(S["fr_shift"][b, f] + 4, 0) / 8.0  # -4..+4 -> 0..1 (>= 0)
            out[j + 1] = S["fr_left"][b, f] / 8.0
            out[j + 2] = S["fr_moved"][b, f] / 8.0
            fl = S["fr_flags"][b, f]
            out[j + 3] = 1.0 if fl & FR_CANCELLED else 0.0
            out[j + 4] = 1.0 if fl & FR_CEASED else 0.0
            out[j + 5] = S["fr_contact"][b, f]
        i += FRAME_SIZE
    # --- forces by type (the opponent's hidden while forces are chosen)
    for t in range(N_UNIT_TYPES):
        out[i + t] = S["force"][b, me, t] / SCALE_FORCE
        if not choosing:
            out[i + N_UNIT_TYPES + t] = S["force"][b, opp, t] / SCALE_FORCE
    i += 2 * N_UNIT_TYPES
    # --- unit slots
    top = np.int64(S["depth"][b]) - 1
    top_unit = np.int64(S["fr_unit"][b, top]) if top >= 0 else -1
    top_target = np.int64(S["fr_target"][b, top]) if top >= 0 else -1
    cx = np.float32(1.0)
    cy = np.float32(1.0)
    for z in range(tb.g_n_pos):
        cx = max(cx, np.float32(tb.g_centre[z, 0]) + 1.0)
        cy = max(cy, np.float32(tb.g_centre[z, 1]) + 1.0)
    for u in range(MAX_UNITS):
        side = S["unit_side"][b, u]
        if side < 0 or (choosing and u >= tb.sc_n_units):
            i += UNIT_SIZE
            continue
        out[i] = 1.0
        out[i + 1 + (0 if side == me else 1)] = 1.0
        j = i + 3
        _one_hot(out, j, np.int64(S["unit_type"][b, u]), N_UNIT_TYPES)
        j += N_UNIT_TYPES
        where = np.int64(S["unit_where"][b, u])
        _one_hot(out, j, where, 4)
        j += 4
        if where == WHERE_ON:
            pos = np.int64(S["unit_pos"][b, u])
            out[j] = max(tb.g_centre[pos, 0], 0.0) / cx
            out[j + 1] = max(tb.g_centre[pos, 1], 0.0) / cy
            _one_hot(out, j + 2, np.int64(S["unit_facing"][b, u]), MAX_DIRS)
        j += 2 + MAX_DIRS
        st = S["unit_status"][b, u]
        out[j] = 1.0 if st & STATUS_SHAKEN else 0.0
        out[j + 1] = 1.0 if st & STATUS_OUT_OF_ACTION else 0.0
        out[j + 2] = S["unit_acted"][b, u]
        pa = S["unit_pass"][b, u]
        out[j + 3] = 1.0 if pa & 1 else 0.0
        out[j + 4] = 1.0 if pa & 2 else 0.0
        out[j + 5] = 1.0 if S["unit_entry"][b, u] >= 0 else 0.0
        arrives = np.int64(S["unit_arrives"][b, u]) - np.int64(S["turns_of"][b, side])
        out[j + 6] = max(arrives, 0) / limit
        j += 7
        out[j] = 1.0 if u == top_unit else 0.0
        out[j + 1] = 1.0 if u == top_target else 0.0
        out[j + 2] = 1.0 if u == S["win_unit"][b] else 0.0
        out[j + 3] = 1.0 if u == S["win_enemy"][b] else 0.0
        out[j + 4] = 1.0 if u == S["sel_unit"][b] else 0.0
        out[j + 5] = 1.0 if u == S["fb_unit"][b] else 0.0
        out[j + 6] = 1.0 if u == S["out_unit"][b] else 0.0
        i += UNIT_SIZE
    # --- positions
    for u in range(MAX_UNITS):
        if S["unit_where"][b, u] == WHERE_ON:
            pos = np.int64(S["unit_pos"][b, u])
            out[i + pos * POS_SIZE + (0 if S["unit_side"][b, u] == me else 1)] += 0.5
    aux = np.int64(S["fr_aux"][b, top]) if top >= 0 else -1
    for z in range(tb.g_n_pos):
        j = i + z * POS_SIZE
        out[j + 2] = tb.g_standable[z]
        out[j + 3] = tb.sc_deploy[me, z]
        out[j + 4] = tb.sc_deploy[opp, z]
        out[j + 5] = tb.sc_arrive_zone[me, z]
        out[j + 6] = tb.vc_hold[z]
        out[j + 7] = tb.vc_exit[z]
        if z == S["settle_zone"][b] or z == S["out_zone"][b]:
            out[j + 8] = 1.0
        if z == aux and S["fr_phase"][b, top] == PH_CONTACT_W:
            out[j + 9] = 1.0
    for f in range(np.int64(S["depth"][b])):  # FC R41: every path being declared or walked
        ph = S["fr_phase"][b, f]
        if ph != PH_MOVE and ph != PH_WALK and ph != PH_MOVE_W and ph != PH_CONTACT_W:
            continue
        ln = np.int64(S["mv_len"][b, f])
        for t in range(np.int64(S["fr_moved"][b, f]), ln):
            out[i + np.int64(S["mv_path"][b, f, t]) * POS_SIZE + 10] = 1.0
        if ln > 0:
            out[i + np.int64(S["mv_path"][b, f, ln - 1]) * POS_SIZE + 11] = 1.0
    i += MAX_POS * POS_SIZE
    return i
