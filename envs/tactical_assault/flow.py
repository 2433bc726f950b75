"""The game around the cards: reset, deployment, reinforcements, turns, the general play
windows and victory (FC PART II "Getting Ready" .. "Begin Play", Table 1, "Determine Victory
Conditions"; LB I3, I8).

General windows (R12; no trigger, Situations timed ``any_time``), kept in gw_kind/gw_left:

    GW_START  start of game ("Play Any Situations"): the player who placed first is asked
              first, then the players alternate until both pass in a row
    GW_AFTER  after a card of the active player resolves: the other player's chance to play
              a card in between (One At A Time); a pass returns to the active player
    GW_NEW    end of turn, after replenishing: the active player "May Play Newly Acquired
              Situations" (only the cards just drawn)
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint, seed_stream
from envs.tactical_assault.actions import (
    STAGE_CHOOSE_FORCE,
    STAGE_DEPLOY_UNIT,
    STAGE_DISCARD,
    STAGE_GAME_OVER,
    STAGE_MAIN,
    STAGE_WINDOW,
)
from envs.tactical_assault.cards import replenish, shuffle_deck
from envs.tactical_assault.plays import covers, fp_zone
from envs.tactical_assault.state import (
    MAX_POS,
    MAX_UNITS,
    N_PLAYERS,
    N_UNIT_TYPES,
    SCORE_DRAW,
    SCORE_LOSS,
    SCORE_WIN,
    WHERE_ELIMINATED,
    WHERE_OFF,
    WHERE_ON,
    WHERE_UNUSED,
)
from envs.tactical_assault.tables import (
    AT_LIMIT_HOLD_ZONES,
    AT_LIMIT_MOST_UNITS,
    AT_LIMIT_SIDE_0,
)

GW_START = 0
GW_AFTER = 1
GW_NEW = 2

DEPLOY_NONE = 0
DEPLOY_START = 1  # the initial deployment (LB I8)
DEPLOY_REINFORCE = 2  # reinforcements entering at the start of their side's turn (LB I3)


@njit
def reset_game(S, tb, b, seed, game_index):
    """Set game b up: forces, decks, hands, who places first; ask the first decision."""
    seed_stream(S["rng"], b, seed, game_index, 0)
    seed_stream(S["agent_rng"], b, seed, game_index, 1)
    S["game_index"][b] = game_index
    S["num_players"][b] = N_PLAYERS
    S["decisions"][b] = 0
    S["winner"][b] = -1
    for p in range(N_PLAYERS):
        S["rewards"][b, p] = 0.0
        S["points_total"][b, p] = 0
        S["points_lost"][b, p] = 0
        S["units_lost"][b, p] = 0
        S["units_exited"][b, p] = 0
        S["turns_of"][b, p] = 0
        S["reshuffles"][b, p] = 0
        S["score"][b, p] = 0
        for t in range(N_UNIT_TYPES):
            S["force"][b, p, t] = 0
    for u in range(MAX_UNITS):
        used = u < tb.sc_n_units
        S["unit_side"][b, u] = tb.sc_unit_side[u] if used else -1
        S["unit_type"][b, u] = tb.sc_unit_type[u] if used else -1
        pos = np.int64(tb.sc_unit_pos[u]) if used else -1
        S["unit_pos"][b, u] = pos
        if not used:
            S["unit_where"][b, u] = WHERE_UNUSED
        elif pos >= 0:
            S["unit_where"][b, u] = WHERE_ON
        else:
            S["unit_where"][b, u] = WHERE_OFF
        S["unit_facing"][b, u] = tb.sc_unit_facing[u] if used else 0
        S["unit_status"][b, u] = 0
        S["unit_acted"][b, u] = 0
        S["unit_pass"][b, u] = 0
        S["unit_pass_dist"][b, u] = 0
        S["unit_entry"][b, u] = -1
        S["unit_cc_target"][b, u] = -1
        S["unit_arrives"][b, u] = tb.sc_unit_arrives[u] if used else 0
        if used:
            S["points_total"][b, tb.sc_unit_side[u]] += tb.type_points[tb.sc_unit_type[u]]
            S["force"][b, tb.sc_unit_side[u], tb.sc_unit_type[u]] += 1
    S["active"][b] = -1
    S["turn"][b] = 0
    S["sel_card"][b] = -1
    S["sel_part"][b] = -1
    S["sel_unit"][b] = -1
    S["gw_left"][b] = 0
    S["gw_kind"][b] = 0
    S["ending"][b] = 0
    S["win_trigger"][b] = 0
    S["win_unit"][b] = -1
    S["win_enemy"][b] = -1
    S["depth"][b] = 0
    # every frame and Fall Back field as allocate leaves it: nothing of the last game stays
    # in a reused slot (the AEC env reuses its one record, BatchEnv its slots)
    for i in range(S["fr_player"].shape[1]):
        S["fr_player"][b, i] = -1
        S["fr_card"][b, i] = -1
        S["fr_play"][b, i] = -1
        S["fr_unit"][b, i] = -1
        S["fr_target"][b, i] = -1
        S["fr_step"][b, i] = 0
        S["fr_phase"][b, i] = 0
        S["fr_shift"][b, i] = 0
        S["fr_left"][b, i] = 0
        S["fr_moved"][b, i] = 0
        S["fr_flags"][b, i] = 0
        S["fr_contact"][b, i] = 0
        S["fr_from"][b, i] = 0
        S["fr_start"][b, i] = 0
        S["fr_last_ok"][b, i] = 0
        S["fr_aux"][b, i] = 0
        S["fr_tp_mask"][b, i] = 0
        S["mv_len"][b, i] = 0
        S["mv_left"][b, i] = 0
        S["mv_exit"][b, i] = 0
        for t in range(S["mv_path"].shape[2]):
            S["mv_path"][b, i, t] = -1
    S["fb_unit"][b] = -1
    S["fb_from"][b] = -1
    S["fb_through"][b] = -1
    S["fb_k"][b] = 0
    S["fb_left"][b] = 0
    S["fb_enter_first"][b] = -1
    S["fb_origin"][b] = -1
    S["fb_depth"][b] = 0
    S["fb_ask"][b] = 0
    S["fb_last_ok"][b] = -1
    S["settle_zone"][b] = -1
    S["out_unit"][b] = -1
    S["out_zone"][b] = -1
    # FC "Deploy Forces": each player draws a card at random, the higher number places first
    # (R18: drawn and put back before the shuffle; I11: equal numbers draw again)
    first = np.int64(tb.sc_deploy_first)
    while first < 0:
        n0 = tb.card_number[randint(S["rng"], b, tb.n_cards)]
        n1 = tb.card_number[randint(S["rng"], b, tb.n_cards)]
        if n0 != n1:
            first = 0 if n0 > n1 else 1
    S["placed_first"][b] = first
    for p in range(N_PLAYERS):
        shuffle_deck(S, tb, b, p)  # Table 1 "Shuffle Deck"
        replenish(S, tb, b, p)  # "Draw Hand (Six Cards)"
        for k in range(tb.n_cards):
            S["card_new"][b, p, k] = 0
    S["deploy_next"][b] = first
    S["deploying"][b] = DEPLOY_START
    next_chooser(S, tb, b, 0)


@njit
def next_chooser(S, tb, b, p):
    """Seats p.. with a force by points choose it (LB I8, R23: seat 0 first, then seat 1; each
    sees only its own choice); then deployment begins."""
    for q in range(p, N_PLAYERS):
        if tb.sc_force_points[q] > 0:
            S["stage"][b] = STAGE_CHOOSE_FORCE
            S["current"][b] = q
            return
    begin_deploy(S, tb, b)


@njit
def choose_ok(S, tb, b, p, t):
    """Seat p may add a unit of type t: allowed, within the points left, a slot free."""
    if tb.sc_allowed[p, t] == 0:
        return False
    if S["points_total"][b, p] + tb.type_points[t] > tb.sc_force_points[p]:
        return False
    return S["unit_side"][b, MAX_UNITS - 1] < 0


@njit
def choose_unit(S, tb, b, p, t):
    """Add a unit of type t to p's force in the first free slot (deployed later, LB I8)."""
    for u in range(MAX_UNITS):
        if S["unit_side"][b, u] < 0:
            S["unit_side"][b, u] = p
            S["unit_type"][b, u] = t
            S["unit_where"][b, u] = WHERE_OFF
            S["unit_pos"][b, u] = -1
            S["unit_arrives"][b, u] = 0
            S["points_total"][b, p] += tb.type_points[t]
            S["force"][b, p, t] += 1
            return


@njit
def to_place(S, tb, b, p, u):
    """Unit u of seat p is to be placed now (deployment or arriving reinforcement)."""
    if S["unit_side"][b, u] != p or S["unit_where"][b, u] != WHERE_OFF:
        return False
    if S["unit_type"][b, u] == tb.type_aerial or S["unit_type"][b, u] == tb.type_infiltrator:
        return False
    if S["deploying"][b] == DEPLOY_START:
        return S["unit_arrives"][b, u] == 0
    return S["unit_arrives"][b, u] > 0 and S["unit_arrives"][b, u] <= S["turns_of"][b, p]


@njit
def place_map(S, tb, b, p, spaced, ok):
    """ok[z] = 1 where position z is free, standable, in p's deployment (or arrival) area and
    in contact with no enemy unit; `spaced`: also at least sc_deploy_min from every enemy unit
    at the start (FC "Deploy Forces"; R32: dropped only when no position is far enough).
    Returns how many. Every position at once: a unit rules out the positions it covers
    (plays.covers) and, an enemy, those near it."""
    n = np.int64(tb.g_n_pos)
    start = S["deploying"][b] == DEPLOY_START
    area = tb.sc_deploy if start else tb.sc_arrive_zone
    dmin = np.int64(tb.sc_deploy_min)
    reach = np.int64(tb.g_dist_units[dmin]) if spaced and start and dmin >= 0 else 0
    for z in range(n):
        ok[z] = 1 if tb.g_standable[z] != 0 and area[p, z] != 0 else 0
    for v in range(MAX_UNITS):
        if S["unit_where"][b, v] != WHERE_ON:
            continue
        y = np.int64(S["unit_pos"][b, v])
        ok[y] = 0
        for f in range(tb.sc_fp_n[v]):
            c = fp_zone(tb, v, y, f)
            if c >= 0:
                ok[c] = 0
        if S["unit_side"][b, v] != p:
            for z in range(n):
                if tb.g_contact[z, y] or tb.g_dist[z, y] < reach:
                    ok[z] = 0
    m = np.int64(0)  # not uint8 (ok's type): with NUMBA_DISABLE_JIT numpy's would wrap at 256
    for z in range(n):
        m += np.int64(ok[z])
    return m


@njit
def _wants_to_place(S, tb, b, p):
    for u in range(MAX_UNITS):
        if to_place(S, tb, b, p, u):
            return place_map(S, tb, b, p, False, np.empty(MAX_POS, dtype=np.uint8)) > 0
    return False


@njit
def begin_deploy(S, tb, b):
    """Ask the next placement (units placed one at a time, alternating: LB I8), or end it."""
    p = np.int64(S["deploy_next"][b])
    if S["deploying"][b] == DEPLOY_START and not _wants_to_place(S, tb, b, p):
        p = 1 - p
    if _wants_to_place(S, tb, b, p):
        S["deploy_next"][b] = p
        S["stage"][b] = STAGE_DEPLOY_UNIT
        S["current"][b] = p
        return
    S["deploy_next"][b] = -1
    if S["deploying"][b] == DEPLOY_START:
        S["deploying"][b] = 0
        open_general(S, b, GW_START, np.int64(S["placed_first"][b]), 2)
        return
    # reinforcements that found no empty zone wait a turn (LB I3)
    a = np.int64(S["active"][b])
    for u in range(MAX_UNITS):
        if to_place(S, tb, b, a, u):
            S["unit_arrives"][b, u] += 1
    S["deploying"][b] = 0
    to_main(S, b)


@njit
def placed(S, tb, b):
    """A unit was placed and faced: the other player places next (initial deployment) or the
    same player goes on (reinforcements)."""
    if S["deploying"][b] == DEPLOY_START:
        S["deploy_next"][b] = 1 - S["deploy_next"][b]
    begin_deploy(S, tb, b)


@njit
def open_general(S, b, kind, seat, left):
    S["stage"][b] = STAGE_WINDOW
    S["current"][b] = seat
    S["win_trigger"][b] = 0
    S["win_unit"][b] = -1
    S["win_enemy"][b] = -1
    S["gw_kind"][b] = kind
    S["gw_left"][b] = left


@njit
def to_main(S, b):
    """Back to the active player: their main decision, or (ending the turn) the newly
    acquired Situations window."""
    a = np.int64(S["active"][b])
    if S["ending"][b]:
        open_general(S, b, GW_NEW, a, 1)
        return
    S["stage"][b] = STAGE_MAIN
    S["current"][b] = a
    S["win_trigger"][b] = 0
    S["win_unit"][b] = -1
    S["win_enemy"][b] = -1


@njit
def after_card(S, tb, b, q):
    """Seat q's card resolved and the stack is empty: the other player's chance (R12)."""
    if S["active"][b] < 0:
        open_general(S, b, GW_START, 1 - q, 2)
    elif q == S["active"][b]:
        open_general(S, b, GW_AFTER, 1 - q, 1)
    else:
        to_main(S, b)


@njit
def general_passed(S, tb, b):
    S["gw_left"][b] -= 1
    if S["gw_left"][b] > 0:
        S["current"][b] = 1 - S["current"][b]
        return
    kind = S["gw_kind"][b]
    if kind == GW_START:
        first = np.int64(tb.sc_first_turn)
        if first < 0:
            first = 1 - S["placed_first"][b]  # FC "Begin Play"
        start_turn(S, tb, b, first)
    elif kind == GW_AFTER:
        to_main(S, b)
    else:
        pass_turn(S, tb, b)


@njit
def start_turn(S, tb, b, p):
    """Seat p's turn begins: Actions are available again to each unit; arriving
    reinforcements are placed first."""
    S["active"][b] = p
    S["turn"][b] += 1
    S["turns_of"][b, p] += 1
    S["ending"][b] = 0
    for u in range(MAX_UNITS):
        S["unit_acted"][b, u] = 0
        S["unit_pass"][b, u] = 0  # I7: a pass-along lasts until the end of the turn
    if check_victory(S, tb, b):
        return
    S["deploying"][b] = DEPLOY_REINFORCE
    S["deploy_next"][b] = p
    begin_deploy(S, tb, b)


@njit
def end_turn(S, b):
    """The active player ends the turn: discards any unused cards (FC "Playing &
    Discarding")."""
    S["ending"][b] = 1
    S["stage"][b] = STAGE_DISCARD
    S["current"][b] = S["active"][b]


@njit
def discard_done(S, tb, b):
    a = np.int64(S["active"][b])
    replenish(S, tb, b, a)  # Table 1 "Replenish Hand At End Of Player's Turn"
    open_general(S, b, GW_NEW, a, 1)


@njit
def pass_turn(S, tb, b):
    a = np.int64(S["active"][b])
    for k in range(tb.n_cards):
        S["card_new"][b, a, k] = 0
    if check_victory(S, tb, b):
        return
    if S["turns_of"][b, 0] >= tb.sc_turn_limit and S["turns_of"][b, 1] >= tb.sc_turn_limit:
        time_called(S, tb, b)
        return
    start_turn(S, tb, b, 1 - a)


@njit
def game_over(S, b, winner):
    S["stage"][b] = STAGE_GAME_OVER
    S["winner"][b] = winner
    for p in range(N_PLAYERS):
        if winner < 0:
            S["rewards"][b, p] = 0.0
            S["score"][b, p] = SCORE_DRAW
        elif p == winner:
            S["rewards"][b, p] = 1.0
            S["score"][b, p] = SCORE_WIN
        else:
            S["rewards"][b, p] = -1.0
            S["score"][b, p] = SCORE_LOSS


@njit
def on_battlefield_count(S, tb, b, p):
    """p's units on the battlefield, Obstacles not counted (R8)."""
    n = 0
    for u in range(MAX_UNITS):
        if (
            S["unit_side"][b, u] == p
            and S["unit_where"][b, u] == WHERE_ON
            and S["unit_type"][b, u] != tb.type_obstacle
        ):
            n += 1
    return n


@njit
def loses(S, tb, b, p):
    """Seat p meets a losing condition (FC "Determine Victory Conditions"; LB I3)."""
    e = np.int64(tb.vc_exit_side)
    if e == 1 - p and S["units_exited"][b, e] >= tb.vc_exit_count:
        return True  # units_exit: the enemy got enough units off the map (LB I3, R22)
    if tb.vc_half_points and 2 * S["points_lost"][b, p] >= S["points_total"][b, p]:
        return True
    if tb.vc_no_units and S["active"][b] >= 0 and on_battlefield_count(S, tb, b, p) == 0:
        return True
    if tb.vc_points_side == p and S["points_lost"][b, p] >= tb.vc_points:
        return True
    u = np.int64(tb.vc_unit)
    if u >= 0 and S["unit_side"][b, u] == p and S["unit_where"][b, u] == WHERE_ELIMINATED:
        return True
    return False


@njit
def check_victory(S, tb, b):
    """End the game if a side meets a condition (both at once: a Draw, R8)."""
    l0 = loses(S, tb, b, 0)
    l1 = loses(S, tb, b, 1)
    if not (l0 or l1):
        return False
    if l0 and l1:
        game_over(S, b, -1)
    else:
        game_over(S, b, 1 if l0 else 0)
    return True


@njit
def holds(S, tb, b, p):
    """p holds every vc_hold zone: a unit of p in it and none of the enemy (LB I3)."""
    for z in range(tb.g_n_pos):
        if tb.vc_hold[z] == 0:
            continue
        mine = False
        for u in range(MAX_UNITS):
            if covers(S, tb, b, u, z):  # any zone of an oversized unit (LB "Zone contents")
                if S["unit_side"][b, u] == p:
                    mine = True
                else:
                    return False
        if not mine:
            return False
    return True


@njit
def time_called(S, tb, b):
    """The turn limit: FC "the player that has eliminated the most enemy units wins" (R10:
    equal is a Draw), or the scenario's rule (LB I3)."""
    rule = tb.vc_at_limit
    if rule == AT_LIMIT_MOST_UNITS:
        e0 = S["units_lost"][b, 1]
        e1 = S["units_lost"][b, 0]
        game_over(S, b, -1 if e0 == e1 else (0 if e0 > e1 else 1))
    elif rule == AT_LIMIT_HOLD_ZONES:
        h = np.int64(tb.vc_hold_side)
        game_over(S, b, h if holds(S, tb, b, h) else 1 - h)
    elif rule == AT_LIMIT_SIDE_0:
        game_over(S, b, 0)
    else:
        game_over(S, b, 1)
