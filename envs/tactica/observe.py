"""What each TACTICA player may see (ARCHITECTURE.md section 6), as one float32 vector.

Seats are relative: "me" is the observer, "opp" the other seat. Cards appear by NAME
(``Tables.card_names`` index), never by id: copies are identical, and determinize
(envs/tactica/hidden.py) swaps the ids of cards the observer cannot see. Hidden from `me`:
the opponent's Barracks (TT-B.5.2: only its size shows; its names show to the picker during
STAGE_SPY_PICK only, TT-B.4.5), and the order of both players' face-down piles (TT-B.5.1:
only their sizes show, even to the owner). Public: RESUPPLY, LOST, hostages, cards in play,
the battlefield, the Barracks snapshot a decree showed (barracks.py hand_shown/shown_counts).

Layout (C = MAX_CARDS 24 card names, T = MAX_TROOPS 8, L = MAX_LANDMARKS 8, M = MAX_SUMMONS 4,
X = MAX_SACRIFICES 8, D = MAX_DECREES 8, H = MAX_HEXES 99; counts are divided by SCALE_*):

| part          | size         | content |
|---------------|--------------|---------|
| global        | GLOBAL_SIZE  | stage one-hot (N_STAGE_SLOTS); I decide; my seat (0 or 1: hexes are absolute, seat 0's wall zone is row 0); phase+1 one-hot (N_PHASE_SLOTS); turn/turn_limit; battle one-hot (3); I go first; advanced; war points me, opp; per battle: I won, opp won, drawn |
| turn, per seat (me, opp) | 2 x SEAT_TURN_SIZE | muster actions left; decree enacted one-hot (D, none = zeros); no cards; no combat; no movement; betrayal muster; hand shown; shown Barracks by name (C); sacrifices made; Movement sacrifice one-hot (X); Combat sacrifice one-hot (X) |
| in progress   | PROGRESS_SIZE | muster kind one-hot (4); muster card name (C); move_from hex (H); attack target hex (H); target is mine; press; saved; combat active is me / opp; combat players done; pending card name (C) and its owner is me / opp; card window stage one-hot (N_STAGE_SLOTS); rescuer hex (H); rescue card name (C); summon attacking; Aegis one-hot (X); sacrifice paying one-hot (X) |
| per hex (xH)  | HEX_SIZE     | feature wall / landmark / spire x owner me, opp (6); landmark kind (L); landmark side high, low; spire height; troop mine, opp; troop kind (T); training; betrayer; moved; fought; capturing; captured last turn; attacking; summon mine, opp; summon kind (M); summon moved; summon fought |
| per seat (me, opp) | 2 x SEAT_SIZE | Barracks size; troop pile size; tactics pile size; by name (C each): RESUPPLY, LOST, hostages this seat holds (the other seat's cards), in play; walls lost; landmarks lost; per summon card (4): place one-hot (4), side one-hot (M) |
| my Barracks   | C            | copies of each name in my Barracks |
| spied Barracks | C           | the opponent's Barracks by name, only at STAGE_SPY_PICK with me the picker, else zeros |
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactica.actions import STAGE_SPY_PICK
from envs.tactica.battlefield import FEATURE_LANDMARK, FEATURE_SPIRE, FEATURE_WALL
from envs.tactica.state import (
    BATTLE_DRAWN,
    MAX_BATTLES_PER_WAR,
    MAX_HEXES,
    N_CARD_IDS,
    PLACE_BARRACKS,
    PLACE_HOSTAGE,
    PLACE_IN_PLAY,
    PLACE_LOST,
    PLACE_RESUPPLY,
    SUMMON_LOST,
)
from envs.tactica.tables import (
    MAX_ARMY_CARDS,
    MAX_CARDS,
    MAX_DECREES,
    MAX_LANDMARK_CARDS,
    MAX_LANDMARKS,
    MAX_SACRIFICES,
    MAX_SUMMON_CARDS,
    MAX_SUMMONS,
    MAX_TROOPS,
    MAX_WALLS,
)

N_STAGE_SLOTS = 96  # stage numbers (actions.py and the chapters' own) are below this
N_PHASE_SLOTS = 8  # S["phase"] + 1: deployment (-1) and tables' PHASE_* codes
N_MUSTER_KINDS = 4  # muster.MUSTER_TROOP .. MUSTER_CARD
N_SUMMON_PLACES = SUMMON_LOST + 1  # state.SUMMON_ASIDE .. SUMMON_LOST
SCALE_COUNT = 4.0  # copies of one name
SCALE_PILE = float(MAX_ARMY_CARDS)  # cards in a pile or Barracks
SCALE_POINTS = 10.0  # war points

GLOBAL_SIZE = N_STAGE_SLOTS + 2 + N_PHASE_SLOTS + 1 + MAX_BATTLES_PER_WAR + 2 + 2
GLOBAL_SIZE += 3 * MAX_BATTLES_PER_WAR
SEAT_TURN_SIZE = 1 + MAX_DECREES + 5 + MAX_CARDS + 1 + 2 * MAX_SACRIFICES
PROGRESS_SIZE = N_MUSTER_KINDS + MAX_CARDS + MAX_HEXES + MAX_HEXES + 1 + 2 + 2 + 1
PROGRESS_SIZE += MAX_CARDS + 2 + N_STAGE_SLOTS + MAX_HEXES + MAX_CARDS + 1 + 2 * MAX_SACRIFICES
HEX_SIZE = 6 + MAX_LANDMARKS + 2 + 1 + 2 + MAX_TROOPS + 7 + 2 + MAX_SUMMONS + 2
SEAT_SIZE = 3 + 4 * MAX_CARDS + 2 + MAX_SUMMON_CARDS * (N_SUMMON_PLACES + MAX_SUMMONS)


def observation_size() -> int:
    """Length of the float32 vector observe writes (the module docstring's table)."""
    return (
        GLOBAL_SIZE
        + 2 * SEAT_TURN_SIZE
        + PROGRESS_SIZE
        + MAX_HEXES * HEX_SIZE
        + 2 * SEAT_SIZE
        + 2 * MAX_CARDS
    )


@njit
def _name(tb, card):
    return np.int64(tb.army_card[card % MAX_ARMY_CARDS])


@njit
def _one_hot(out, i, k, n):
    """out[i + k] = 1 when 0 <= k < n (k < 0: none, all zeros)."""
    if 0 <= k < n:
        out[i + k] = 1.0


@njit
def _rel(p, me):
    """0 for the observer's seat, 1 for the other."""
    return np.int64(0 if p == me else 1)


@njit
def observe(S, tb, b, me, out):
    """Write player `me`'s observation of game b into out (float32[observation_size()]);
    returns the length written (== observation_size())."""
    out[:] = 0.0
    opp = 1 - me
    seats = (me, opp)
    stage = np.int64(S["stage"][b])
    i = 0
    # --- global
    _one_hot(out, i, stage, N_STAGE_SLOTS)
    i += N_STAGE_SLOTS
    out[i] = 1.0 if S["current"][b] == me else 0.0
    out[i + 1] = me
    i += 2
    _one_hot(out, i, np.int64(S["phase"][b]) + 1, N_PHASE_SLOTS)
    i += N_PHASE_SLOTS
    out[i] = S["turn"][b] / max(tb.turn_limit, 1)
    i += 1
    _one_hot(out, i, np.int64(S["battle"][b]) - 1, MAX_BATTLES_PER_WAR)
    i += MAX_BATTLES_PER_WAR
    out[i] = 1.0 if S["first_player"][b] == me else 0.0
    out[i + 1] = S["advanced"][b]
    i += 2
    out[i] = S["war_points"][b, me] / SCALE_POINTS
    out[i + 1] = S["war_points"][b, opp] / SCALE_POINTS
    i += 2
    for k in range(MAX_BATTLES_PER_WAR):
        r = S["battle_result"][b, k]
        if r == me:
            out[i] = 1.0
        elif r == opp:
            out[i + 1] = 1.0
        elif r == BATTLE_DRAWN:
            out[i + 2] = 1.0
        i += 3
    # --- the turn's per-seat state
    for p in seats:
        out[i] = S["muster_actions_left"][b, p] / 3.0
        i += 1
        _one_hot(out, i, np.int64(S["decree_enacted"][b, p]), MAX_DECREES)
        i += MAX_DECREES
        out[i] = S["no_cards"][b, p]
        out[i + 1] = S["no_combat"][b, p]
        out[i + 2] = S["no_movement"][b, p]
        out[i + 3] = S["betrayal_muster"][b, p]
        out[i + 4] = S["hand_shown"][b, p]
        i += 5
        for c in range(MAX_CARDS):  # public snapshot of a shown Barracks (TT-A.4.2)
            out[i + c] = S["shown_counts"][b, p, c] / SCALE_COUNT
        i += MAX_CARDS
        out[i] = S["sacrifices_made"][b, p]
        i += 1
        _one_hot(out, i, np.int64(S["move_sacrifice"][b, p]), MAX_SACRIFICES)
        i += MAX_SACRIFICES
        _one_hot(out, i, np.int64(S["combat_sacrifice"][b, p]), MAX_SACRIFICES)
        i += MAX_SACRIFICES
    # --- the decision in progress (muster, move, attack, card windows)
    _one_hot(out, i, np.int64(S["muster_kind"][b]), N_MUSTER_KINDS)
    i += N_MUSTER_KINDS
    mc = np.int64(S["muster_card"][b])
    if mc >= 0:  # chosen by name at STAGE_MUSTER: public
        out[i + _name(tb, mc)] = 1.0
    i += MAX_CARDS
    _one_hot(out, i, np.int64(S["move_from"][b]), MAX_HEXES)
    i += MAX_HEXES
    target = np.int64(S["attack_target"][b])
    _one_hot(out, i, target, MAX_HEXES)
    i += MAX_HEXES
    tc = np.int64(S["attack_target_card"][b])
    out[i] = 1.0 if tc >= 0 and tc // MAX_ARMY_CARDS == me else 0.0
    out[i + 1] = S["attack_press"][b]
    out[i + 2] = S["attack_saved"][b]
    i += 3
    ca = S["combat_active"][b]
    if ca >= 0:
        out[i + _rel(ca, me)] = 1.0
    i += 2
    out[i] = S["combat_players_done"][b] / 2.0
    i += 1
    pc = np.int64(S["pending_card"][b])
    if pc >= 0:  # played face up (TT-B.4.1)
        out[i + _name(tb, pc)] = 1.0
        out[i + MAX_CARDS + _rel(pc // MAX_ARMY_CARDS, me)] = 1.0
    i += MAX_CARDS + 2
    if pc >= 0:
        _one_hot(out, i, np.int64(S["card_window"][b]), N_STAGE_SLOTS)
    i += N_STAGE_SLOTS
    rescuer = np.int64(S["rescuer"][b])
    if rescuer >= 0:
        _one_hot(out, i, np.int64(S["card_hex"][b, rescuer]), MAX_HEXES)
    i += MAX_HEXES
    rc = np.int64(S["rescue_card"][b])
    if rc >= 0:
        out[i + _name(tb, rc)] = 1.0
    i += MAX_CARDS
    out[i] = S["summon_attacking"][b]
    i += 1
    _one_hot(out, i, np.int64(S["attack_aegis"][b]), MAX_SACRIFICES)
    i += MAX_SACRIFICES
    _one_hot(out, i, np.int64(S["sacrifice_paying"][b]), MAX_SACRIFICES)
    i += MAX_SACRIFICES
    # --- the battlefield, hex by hex
    for h in range(MAX_HEXES):
        f = S["hex_feature"][b, h]
        fo = S["hex_feature_owner"][b, h]
        if fo >= 0:
            r = _rel(fo, me)
            if f == FEATURE_WALL:
                out[i + r] = 1.0
            elif f == FEATURE_LANDMARK:
                out[i + 2 + r] = 1.0
                j = np.int64(S["hex_feature_card"][b, h])
                if j >= 0:
                    _one_hot(out, i + 6, np.int64(tb.army_landmark[j]), MAX_LANDMARKS)
                    _one_hot(out, i + 6 + MAX_LANDMARKS, np.int64(S["landmark_side"][b, fo, j]), 2)
            elif f == FEATURE_SPIRE:
                out[i + 4 + r] = 1.0
                out[i + 6 + MAX_LANDMARKS + 2] = S["spire_height"][b, fo] / MAX_SUMMON_CARDS
        k = i + 6 + MAX_LANDMARKS + 3
        t = np.int64(S["hex_troop"][b, h])
        if t >= 0:
            out[k + _rel(t // MAX_ARMY_CARDS, me)] = 1.0
            _one_hot(out, k + 2, np.int64(tb.card_troop[_name(tb, t)]), MAX_TROOPS)
            j = k + 2 + MAX_TROOPS
            out[j] = S["troop_training"][b, t] / 2.0
            out[j + 1] = S["troop_betrayer"][b, t]
            out[j + 2] = S["troop_moved"][b, t]
            out[j + 3] = S["troop_fought"][b, t]
            out[j + 4] = S["troop_capturing"][b, t]
            out[j + 5] = S["troop_captured_last_turn"][b, t]
            out[j + 6] = S["troop_attacking"][b, t]
        k += 2 + MAX_TROOPS + 7
        s = np.int64(S["hex_summon"][b, h])
        if s >= 0:
            out[k + _rel(s, me)] = 1.0
            sc = np.int64(S["summon_card"][b, s])
            if sc >= 0:
                _one_hot(out, k + 2, np.int64(S["summon_card_side"][b, s, sc]), MAX_SUMMONS)
            out[k + 2 + MAX_SUMMONS] = S["summon_moved"][b, s]
            out[k + 3 + MAX_SUMMONS] = S["summon_fought"][b, s]
        i += HEX_SIZE
    # --- per seat: sizes and the face-up places by name
    for p in seats:
        base = p * MAX_ARMY_CARDS
        nb = 0
        for k in range(tb.n_army_cards):
            if S["card_place"][b, base + k] == PLACE_BARRACKS:
                nb += 1
        out[i] = nb / SCALE_PILE  # TT-B.5.2: the size is public
        out[i + 1] = S["pile_count"][b, p, 0] / SCALE_PILE
        out[i + 2] = S["pile_count"][b, p, 1] / SCALE_PILE
        i += 3
        for c in range(N_CARD_IDS):
            if c % MAX_ARMY_CARDS >= tb.n_army_cards:
                continue
            place = S["card_place"][b, c]
            n = _name(tb, c)
            if c // MAX_ARMY_CARDS == p:
                if place == PLACE_RESUPPLY:
                    out[i + n] += 1.0 / SCALE_COUNT
                elif place == PLACE_LOST:
                    out[i + MAX_CARDS + n] += 1.0 / SCALE_COUNT
                elif place == PLACE_IN_PLAY:
                    out[i + 3 * MAX_CARDS + n] += 1.0 / SCALE_COUNT
            elif place == PLACE_HOSTAGE and S["card_holder"][b, c] == p:
                out[i + 2 * MAX_CARDS + n] += 1.0 / SCALE_COUNT
        i += 4 * MAX_CARDS
        nw = 0
        for w in range(MAX_WALLS):
            nw += S["wall_lost"][b, p, w]
        nl = 0
        for j in range(MAX_LANDMARK_CARDS):
            nl += S["landmark_lost"][b, p, j]
        out[i] = nw / MAX_WALLS
        out[i + 1] = nl / MAX_LANDMARK_CARDS
        i += 2
        for j in range(MAX_SUMMON_CARDS):
            _one_hot(out, i, np.int64(S["summon_card_place"][b, p, j]), N_SUMMON_PLACES)
            _one_hot(
                out, i + N_SUMMON_PLACES, np.int64(S["summon_card_side"][b, p, j]), MAX_SUMMONS
            )
            i += N_SUMMON_PLACES + MAX_SUMMONS
    # --- my Barracks, and the opponent's while I pick a card for a Spy (TT-B.4.5)
    spying = stage == STAGE_SPY_PICK and S["current"][b] == me
    for c in range(N_CARD_IDS):
        if c % MAX_ARMY_CARDS >= tb.n_army_cards or S["card_place"][b, c] != PLACE_BARRACKS:
            continue
        if c // MAX_ARMY_CARDS == me:
            out[i + _name(tb, c)] += 1.0 / SCALE_COUNT
        elif spying:
            out[i + MAX_CARDS + _name(tb, c)] += 1.0 / SCALE_COUNT
    i += 2 * MAX_CARDS
    return i
