"""Seed chapter 4 (game turns) with 2.5-2.9: the decision flow of a whole game.

A game is a sequence of decisions (ARCHITECTURE.md section 5). `advance` runs everything
automatic until someone must decide; `legal_actions` lists what they may do; `apply_action`
does one decision and advances. All three work on game b of a batch.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint, roll_n_or_lower
from envs.tac.actions import (
    A_ARTY,
    A_ATTACK,
    A_ATTACK_DONE,
    A_BACK,
    A_DAMAGE_CONTROL,
    A_DEFEND,
    A_DEPLOY,
    A_END_TURN,
    A_FORWARD,
    A_HQ_DONE,
    A_LAY,
    A_MODE,
    A_NO_DEFENCE,
    A_PLACE,
    A_PURPLE,
    A_REINFORCE,
    A_REPAIR,
    A_REPOSITION_DONE,
    A_UPGRADE,
    N_OPPONENTS,
)
from envs.tac.attacks import (
    DESTROYED,
    air_to_hit,
    card_attack_kind,
    damage_to_unit,
    last_target_row,
    modified_damage,
    roll_arty_hit,
)
from envs.tac.defences import (
    SEVERAL_OPEN,
    defence_applies,
    face_up_air_supremacy,
    free_defence_slot,
    has_face_down,
    is_open,
    open_defence_for,
)
from envs.tac.scoring import any_team_destroyed, finish_game
from envs.tac.setup import draw_player_orders, refill_hand
from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_DOWN,
    DEF_FACE_UP,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DEFENCES,
    MAX_TEAM,
    MOBILE,
    N_ROWS,
    STAGE_ATTACK,
    STAGE_DAMAGE_CONTROL,
    STAGE_DEFENCE,
    STAGE_DEPLOY,
    STAGE_ENDING,
    STAGE_GAME_OVER,
    STAGE_HQ,
    STAGE_MODE,
    STAGE_OPEN_DEFENCE,
    STAGE_REPOSITION,
    STATIC,
)
from envs.tac.tables import (
    AIR_SUPERIORITY,
    AIR_SUPREMACY,
    ATTACK_AIR,
    ATTACK_ARTY,
    ATTACK_GUN,
    BLACK,
    BLUE,
    CLASS_TANK,
    HQ_REINFORCE,
    HQ_REPAIR,
    HQ_UPGRADE,
    PURPLE,
    RED,
    S_AIR_SUP,
    S_AP,
    S_ROUNDS,
    S_STATIC_MOVES,
)
from envs.tac.units import (
    air_defence_count,
    arty_units,
    clear_under,
    compact_rows,
    discard_card,
    effective_hit_points,
    firing_units,
    free_slot,
    keep_under,
    place_unit,
    remove_unit,
    row_count,
    units_in_row,
    upgrade_position,
    upgrade_unit,
)

# ---------------------------------------------------------------- helpers


@njit
def opponent_seat(S, b, p, o):
    """Opponent o (0-based) of seat p: the seat o+1 places after p in seat order."""
    return (p + 1 + o) % S["num_players"][b]


@njit
def hand_slot_of(S, tb, b, p, colour, hq):
    """First hand slot holding a card of `colour` (and HQ kind `hq` for blue), or -1."""
    for h in range(HAND_SLOTS):
        c = S["hand"][b, p, h]
        if c >= 0:
            ct = tb.card_type[c]
            if tb.card_type_colour[ct] == colour and (hq < 0 or tb.card_type_hq[ct] == hq):
                return h
    return -1


@njit
def attack_ap_cost(S, tb, b, card_type):
    """5.2 / 7.4: each card costs its AP, but Mobile's first Gun attack is free."""
    if card_attack_kind(tb, card_type) == ATTACK_GUN and S["free_gun"][b]:
        return 0
    return tb.card_type_ap_cost[card_type]


# ---------------------------------------------------------------- deployment (2.2)


@njit
def next_to_deploy(S, b, p):
    """2.2: seat p's lowest slot whose unit is not yet deployed, or -1."""
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0 and not S["deployed"][b, p, t]:
            return t
    return -1


@njit
def deploy_unit(S, tb, b, row):
    """2.2 "Players then arrange these units into up to 3 rows": the deploying seat puts its
    next unit in `row`. When its last unit is placed its rows close up (the nearest is the
    Frontline) and the next seat deploys; after the last seat the first turn starts.

    Seats deploy one at a time in seat order (ours): nobody sees another's rows before all
    have deployed (observe.observe), so the order gives no one an advantage."""
    p = np.int64(S["current"][b])
    t = next_to_deploy(S, b, p)
    S["team_row"][b, p, t] = row
    S["deployed"][b, p, t] = True
    if next_to_deploy(S, b, p) >= 0:
        return
    compact_rows(S, b, p)
    for q in range(p + 1, S["num_players"][b]):
        if next_to_deploy(S, b, np.int64(q)) >= 0:
            S["current"][b] = q
            S["active"][b] = q
            return
    start_turn(S, tb, b)


# ---------------------------------------------------------------- turn flow


@njit
def start_turn(S, tb, b):
    """4.2: the Preparation Phase opens: last turn's defences are discarded."""
    p = S["order"][b, S["turn"][b]]
    S["active"][b] = p
    S["current"][b] = p
    for d in range(MAX_DEFENCES):
        if S["defence_state"][b, p, d] != DEF_EMPTY:
            discard_card(S, b, S["defence_card"][b, p, d])
            S["defence_card"][b, p, d] = -1
            S["defence_state"][b, p, d] = DEF_EMPTY
            S["defence_used"][b, p, d] = False
            S["defence_revealed"][b, p, d] = False
    S["ap"][b] = tb.settings[S_AP]
    S["free_gun"][b] = False
    S["repositions"][b] = 0
    S["moved"][b] = False
    S["weapon_uses"][b] = 0
    S["arty_uses"][b] = 0
    S["attack_count"][b] = 0
    S["cursor"][b] = 0
    S["stage"][b] = STAGE_MODE


@njit
def next_turn(S, tb, b):
    """4.7 / 2.8 / 2.9: next player; a new round after the last; the game ends after the
    last round."""
    S["turn"][b] += 1
    if S["turn"][b] >= S["num_players"][b]:
        S["turn"][b] = 0
        S["round"][b] += 1
        if S["round"][b] > tb.settings[S_ROUNDS]:
            finish_game(S, tb, b)
            return
        if S["round"][b] % 2 == 1:  # 2.6 / 2.8: new orders at odd rounds
            draw_player_orders(S, b)
    start_turn(S, tb, b)


@njit
def advance(S, tb, b, buf):
    """Run automatic steps until a decision with a real choice, or the game's end.

    Returns the number of legal actions, which are left in buf (0 when the game is over).
    The active player's decisions with a single legal action (nothing to choose) are taken
    automatically; a defender is always asked while holding a face-down defence, even if
    none applies, so that bluffs stay hidden (10.8).
    """
    while True:
        st = S["stage"][b]
        if st == STAGE_GAME_OVER:
            return 0
        if st == STAGE_DEFENCE:
            if not find_defence_decision(S, tb, b):
                begin_resolution(S, tb, b)
                if not continue_resolution(S, tb, b):
                    continue
            return legal_actions(S, tb, b, buf)
        n = legal_actions(S, tb, b, buf)
        if n == 1 and st != STAGE_DAMAGE_CONTROL:
            a = np.int64(buf[0])  # one signature for do_action
            if a == A_HQ_DONE or a == A_REPOSITION_DONE or a == A_ATTACK_DONE or a == A_END_TURN:
                do_action(S, tb, b, a)
                continue
        return n


# ---------------------------------------------------------------- defence phase (4.4)


@njit
def find_defence_decision(S, tb, b):
    """Walk the declared attacks from the cursor: a single open defence that applies
    triggers automatically (4.4); stop at the first attack to which several open defences
    apply (the defender chooses one, STAGE_OPEN_DEFENCE, 10.5) or, when none applies, whose
    defender holds a face-down card. Returns True if a decision is needed (current set to
    the defender)."""
    while S["cursor"][b] < S["attack_count"][b]:
        k = S["cursor"][b]
        d = S["attack_target"][b, k]
        row = S["team_row"][b, d, S["attack_slot"][b, k]]
        kind = S["attack_kind"][b, k]
        slot = open_defence_for(S, tb, b, d, kind, row)
        if slot == SEVERAL_OPEN:
            # 10.5 "the Defender can elect": he chooses which open defence absorbs (ours:
            # the options are public cards, so asking reveals nothing)
            S["current"][b] = d
            S["stage"][b] = STAGE_OPEN_DEFENCE
            return True
        if slot >= 0:
            S["attack_defence"][b, k] = slot
        elif has_face_down(S, b, d):
            S["current"][b] = d
            return True
        S["cursor"][b] += 1
    return False


# ---------------------------------------------------------------- resolution phase (4.5)


@njit
def begin_resolution(S, tb, b):
    S["cursor"][b] = 0
    S["current"][b] = S["active"][b]


@njit
def has_repair_card(S, tb, b, d):
    return hand_slot_of(S, tb, b, d, BLUE, HQ_REPAIR) >= 0


@njit
def continue_resolution(S, tb, b):
    """Roll every attack from the cursor (4.5, all simultaneous: damage is applied only at
    the end). Returns True when paused for a Damage Control decision (9.3)."""
    while S["cursor"][b] < S["attack_count"][b]:
        k = S["cursor"][b]
        S["cursor"][b] += 1
        d = S["attack_target"][b, k]
        slot = S["attack_slot"][b, k]
        u = S["team_type"][b, d, slot]
        kind = S["attack_kind"][b, k]
        card = S["attack_card"][b, k]
        S["attack_damage"][b, k] = 0
        dslot = S["attack_defence"][b, k]
        if dslot >= 0:
            dtype = tb.card_type_defence[tb.card_type[S["defence_card"][b, d, dslot]]]
            if dtype == AIR_SUPERIORITY:
                # 10.9: negates Close Air Support, stops the others on a roll of 1-3
                if tb.card_type_is_close_air_support[tb.card_type[card]] or roll_n_or_lower(
                    S["rng"], b, tb.settings[S_AIR_SUP]
                ):
                    S["defence_used"][b, d, dslot] = True
                    continue
            else:
                S["defence_used"][b, d, dslot] = True
                continue
        if kind == ATTACK_ARTY:
            if roll_arty_hit(S["rng"], b, tb, S["mode"][b, d]):
                S["attack_damage"][b, k] = DESTROYED
                # 9.3: the defender is asked after every arty hit, holding Damage Control or
                # not, so that the pause itself tells nobody what is in the hand (ours)
                S["current"][b] = d
                S["stage"][b] = STAGE_DAMAGE_CONTROL
                S["cursor"][b] = k  # the decision is about attack k
                return True
            continue
        ct = tb.card_type[card]
        if kind == ATTACK_AIR:
            # 3.9: Air-Def units count even if destroyed in this Resolution (damage is applied
            # only after every attack is rolled)
            if not roll_n_or_lower(S["rng"], b, air_to_hit(tb, ct, air_defence_count(S, tb, b, d))):
                continue
            dmg = modified_damage(tb, ct, -1)
        else:
            pt = -1
            if S["attack_purple"][b, k] >= 0:
                pt = tb.card_type[S["attack_purple"][b, k]]
            dmg = modified_damage(tb, ct, pt)
        S["attack_damage"][b, k] = min(damage_to_unit(tb, kind, dmg, u, S["mode"][b, d]), 100)
    apply_resolution(S, tb, b)
    return False


@njit
def apply_resolution(S, tb, b):
    """4.5 / 5.3: apply all damage at once; destroyed units to their piles; cards kept under
    surviving units or discarded; used defences discarded or turned face-up (10.5, 10.7)."""
    P = S["num_players"][b]
    n = S["attack_count"][b]
    for k in range(n):
        dmg = S["attack_damage"][b, k]
        d = S["attack_target"][b, k]
        slot = S["attack_slot"][b, k]
        if dmg == DESTROYED:
            S["team_damage"][b, d, slot] = 100
        elif dmg > 0:
            S["team_damage"][b, d, slot] = min(S["team_damage"][b, d, slot] + dmg, 100)
    for p in range(P):
        for t in range(MAX_TEAM):
            u = S["team_type"][b, p, t]
            if u >= 0 and S["team_damage"][b, p, t] >= effective_hit_points(tb, u, S["mode"][b, p]):
                S["team_damage"][b, p, t] = 100  # mark: destroyed below, after cards are placed
    for k in range(n):
        d = S["attack_target"][b, k]
        slot = S["attack_slot"][b, k]
        card = S["attack_card"][b, k]
        if card >= 0:
            survived = S["team_damage"][b, d, slot] < 100
            if (
                survived
                and S["attack_damage"][b, k] > 0
                and tb.card_type_colour[tb.card_type[card]] == RED
            ):
                keep_under(S, b, d, slot, card)
            else:
                discard_card(S, b, card)
        discard_card(S, b, S["attack_purple"][b, k])
        S["attack_card"][b, k] = -1
        S["attack_purple"][b, k] = -1
        S["attack_defence"][b, k] = -1
    for p in range(P):
        for t in range(MAX_TEAM):
            if S["team_type"][b, p, t] >= 0 and S["team_damage"][b, p, t] >= 100:
                remove_unit(S, tb, b, p, t)
        for dd in range(MAX_DEFENCES):
            if S["defence_state"][b, p, dd] == DEF_EMPTY:
                continue
            is_supremacy = (
                tb.card_type_defence[tb.card_type[S["defence_card"][b, p, dd]]] == AIR_SUPREMACY
            )
            if S["defence_revealed"][b, p, dd]:
                S["defence_state"][b, p, dd] = DEF_FACE_UP  # 10.7 continues face-up
            elif S["defence_used"][b, p, dd] and not is_supremacy:
                discard_card(S, b, S["defence_card"][b, p, dd])  # 10.5 used up
                S["defence_card"][b, p, dd] = -1
                S["defence_state"][b, p, dd] = DEF_EMPTY
            S["defence_used"][b, p, dd] = False
            S["defence_revealed"][b, p, dd] = False
        compact_rows(S, b, p)
    S["attack_count"][b] = 0
    S["cursor"][b] = 0
    S["current"][b] = S["active"][b]
    if any_team_destroyed(S, b):
        finish_game(S, tb, b)
    else:
        S["stage"][b] = STAGE_ENDING


# ---------------------------------------------------------------- legal actions


@njit
def legal_actions(S, tb, b, out):
    """Write the legal action indices of game b into out; return how many."""
    st = S["stage"][b]
    p = S["current"][b]
    n = 0
    if st == STAGE_DEPLOY:
        for r in range(N_ROWS):  # 2.2: up to 3 rows
            out[r] = A_DEPLOY + r
        return N_ROWS
    if st == STAGE_MODE:
        out[0] = A_MODE + STATIC
        out[1] = A_MODE + MOBILE
        return 2
    if st == STAGE_HQ:
        return legal_hq(S, tb, b, p, out)
    if st == STAGE_REPOSITION:
        return legal_reposition(S, tb, b, p, out)
    if st == STAGE_ATTACK:
        return legal_attack(S, tb, b, p, out)
    if st == STAGE_DEFENCE:
        k = S["cursor"][b]
        d = S["attack_target"][b, k]
        row = S["team_row"][b, d, S["attack_slot"][b, k]]
        for slot in range(MAX_DEFENCES):
            if (
                S["defence_state"][b, d, slot] == DEF_FACE_DOWN
                and not S["defence_revealed"][b, d, slot]
            ):
                if defence_applies(S, tb, b, d, slot, S["attack_kind"][b, k], row):
                    out[n] = A_DEFEND + slot
                    n += 1
        out[n] = A_NO_DEFENCE
        return n + 1
    if st == STAGE_OPEN_DEFENCE:
        # 10.5: every open defence that applies; one of them must absorb (4.4)
        k = S["cursor"][b]
        d = S["attack_target"][b, k]
        row = S["team_row"][b, d, S["attack_slot"][b, k]]
        for slot in range(MAX_DEFENCES):
            if is_open(S, b, d, slot) and defence_applies(
                S, tb, b, d, slot, S["attack_kind"][b, k], row
            ):
                out[n] = A_DEFEND + slot
                n += 1
        return n
    if st == STAGE_DAMAGE_CONTROL:
        d = S["attack_target"][b, S["cursor"][b]]
        if has_repair_card(S, tb, b, d):
            out[n] = A_DAMAGE_CONTROL
            n += 1
        out[n] = A_DAMAGE_CONTROL + 1
        return n + 1
    if st == STAGE_ENDING:
        rows = row_count(S, b, p)
        if free_defence_slot(S, b, p) >= 0:
            for h in range(HAND_SLOTS):
                c = S["hand"][b, p, h]
                if c >= 0 and tb.card_type_colour[tb.card_type[c]] == BLACK:
                    for r in range(rows):
                        out[n] = A_LAY + (h * N_ROWS + r) * 2
                        n += 1
                        if S["ap"][b] >= 1:  # 4.6: face-down costs 1 AP
                            out[n] = A_LAY + (h * N_ROWS + r) * 2 + 1
                            n += 1
        out[n] = A_END_TURN
        return n + 1
    return 0


@njit
def legal_hq(S, tb, b, p, out):
    """4.2: blue cards: reinforce, repair, upgrade (each costs its AP)."""
    n = 0
    for hq in range(3):
        h = hand_slot_of(S, tb, b, p, BLUE, hq)
        if h < 0 or S["ap"][b] < tb.card_type_ap_cost[tb.card_type[S["hand"][b, p, h]]]:
            continue
        if hq == HQ_REINFORCE:
            if free_slot(S, b, p) >= 0:
                for cat in range(2):
                    if S["pile_count"][b, cat] > 0:
                        out[n] = A_REINFORCE + cat
                        n += 1
        elif hq == HQ_REPAIR:
            for t in range(MAX_TEAM):
                if S["team_type"][b, p, t] >= 0 and S["team_damage"][b, p, t] > 0:
                    out[n] = A_REPAIR + t
                    n += 1
        elif hq == HQ_UPGRADE:
            # I7: only when the pile holds a better unit (public: the piles hold every unit
            # card not in a team)
            for t in range(MAX_TEAM):
                u = S["team_type"][b, p, t]
                if u >= 0 and upgrade_position(S, tb, b, u) >= 0:
                    out[n] = A_UPGRADE + t
                    n += 1
    out[n] = A_HQ_DONE
    return n + 1


@njit
def legal_reposition(S, tb, b, p, out):
    """4.2: Static moves up to 3 units one row each; Mobile places any units in any rows."""
    n = 0
    rows = row_count(S, b, p)
    if S["mode"][b, p] == STATIC:
        if S["repositions"][b] < tb.settings[S_STATIC_MOVES]:
            for t in range(MAX_TEAM):
                if S["team_type"][b, p, t] < 0 or S["moved"][b, t]:
                    continue
                r = S["team_row"][b, p, t]
                alone = units_in_row(S, b, p, r) == 1
                # forward: to row r-1, or a new Frontline if fewer than 3 rows (4.2)
                if r > 0 or (rows < N_ROWS and not alone):
                    out[n] = A_FORWARD + t
                    n += 1
                # back: to row r+1, or a new last row if fewer than 3 rows
                if r < rows - 1 or (rows < N_ROWS and not alone):
                    out[n] = A_BACK + t
                    n += 1
    else:
        for t in range(MAX_TEAM):
            if S["team_type"][b, p, t] >= 0 and not S["moved"][b, t]:
                for r in range(N_ROWS):
                    if r != S["team_row"][b, p, t]:
                        out[n] = A_PLACE + t * N_ROWS + r
                        n += 1
    out[n] = A_REPOSITION_DONE
    return n + 1


@njit
def target_ok(S, b, q, t, last_row):
    return S["team_type"][b, q, t] >= 0 and S["team_row"][b, q, t] <= last_row


@njit
def legal_attack(S, tb, b, p, out):
    """4.3 / 5 / 6 / 7 / 8 / 9: attacks this player may declare now."""
    n = 0
    P = S["num_players"][b]
    mode = S["mode"][b, p]
    room = S["attack_count"][b] < MAX_ATTACKS
    # 4.3: cards of each weapon [type, weight] still playable this turn
    uses = S["weapon_uses"]
    spare = (
        firing_units(S, tb, b, p, 0, 0) - uses[b, 0, 0],
        firing_units(S, tb, b, p, 0, 1) - uses[b, 0, 1],
        firing_units(S, tb, b, p, 1, 0) - uses[b, 1, 0],
        firing_units(S, tb, b, p, 1, 1) - uses[b, 1, 1],
    )
    for h in range(HAND_SLOTS):
        c = S["hand"][b, p, h]
        if c < 0:
            continue
        ct = tb.card_type[c]
        colour = tb.card_type_colour[ct]
        if colour == PURPLE:
            # 5.4: one purple card on one declared red card
            if S["ap"][b] >= tb.card_type_ap_cost[ct]:
                for k in range(S["attack_count"][b]):
                    if S["attack_purple"][b, k] < 0 and S["attack_card"][b, k] >= 0:
                        if tb.card_type_colour[tb.card_type[S["attack_card"][b, k]]] == RED:
                            out[n] = A_PURPLE + h * MAX_ATTACKS + k
                            n += 1
            continue
        kind = card_attack_kind(tb, ct)
        if kind < 0 or not room or S["ap"][b] < attack_ap_cost(S, tb, b, ct):
            continue
        if colour == RED:
            wt = tb.card_type_weapon_type[ct]
            ww = tb.card_type_weapon_weight[ct]
            if spare[wt * 2 + ww] <= 0:
                continue
            last = last_target_row(wt, ww, mode)
        else:
            last = N_ROWS - 1  # 6.3 / 8.1: air attacks reach every row
        for o in range(P - 1):
            q = opponent_seat(S, b, p, o)
            if kind == ATTACK_AIR and face_up_air_supremacy(S, tb, b, q):
                continue
            for t in range(MAX_TEAM):
                if target_ok(S, b, q, t, last):
                    out[n] = A_ATTACK + (h * N_OPPONENTS + o) * MAX_TEAM + t
                    n += 1
    # 9.1 / 7.3: arty attacks, Static only, one per Arty unit, 1 AP, never on tanks (9.4)
    if room and mode == STATIC and S["ap"][b] >= 1 and S["arty_uses"][b] < arty_units(S, tb, b, p):
        for o in range(P - 1):
            q = opponent_seat(S, b, p, o)
            for t in range(MAX_TEAM):
                u = S["team_type"][b, q, t]
                if u >= 0 and tb.unit_class[u] != CLASS_TANK:
                    out[n] = A_ARTY + o * MAX_TEAM + t
                    n += 1
    out[n] = A_ATTACK_DONE
    return n + 1


@njit
def is_legal(S, tb, b, a, buf):
    n = legal_actions(S, tb, b, buf)
    for i in range(n):
        if buf[i] == a:
            return True
    return False


# ---------------------------------------------------------------- applying a decision


@njit
def apply_action(S, tb, b, a, buf):
    """One decision: the caller has checked it is legal. Then advance to the next one.

    Returns the number of legal actions of the next decision, left in buf."""
    S["decisions"][b] += 1
    do_action(S, tb, b, a)
    return advance(S, tb, b, buf)


@njit
def take_from_hand(S, b, p, h):
    c = S["hand"][b, p, h]
    S["hand"][b, p, h] = -1
    return c


@njit
def play_hq_card(S, tb, b, p, hq):
    h = hand_slot_of(S, tb, b, p, BLUE, hq)
    c = take_from_hand(S, b, p, h)
    S["ap"][b] -= tb.card_type_ap_cost[tb.card_type[c]]
    discard_card(S, b, c)


@njit
def do_action(S, tb, b, a):
    p = S["current"][b]
    st = S["stage"][b]
    if st == STAGE_DEPLOY:
        deploy_unit(S, tb, b, a - A_DEPLOY)
    elif st == STAGE_MODE:
        S["mode"][b, p] = a - A_MODE
        S["free_gun"][b] = S["mode"][b, p] == MOBILE  # 7.4
        S["stage"][b] = STAGE_HQ
    elif st == STAGE_HQ:
        if a == A_HQ_DONE:
            S["stage"][b] = STAGE_REPOSITION
        elif a < A_REPAIR:
            # Reinforcements (ours): the pile's top unit joins the last row; it may be
            # repositioned at once (4.2 "reinforcements can be used immediately")
            cat = a - A_REINFORCE
            play_hq_card(S, tb, b, p, HQ_REINFORCE)
            cnt = S["pile_count"][b, cat] - 1
            u = S["pile"][b, cat, cnt]
            S["pile"][b, cat, cnt] = -1
            S["pile_count"][b, cat] = cnt
            slot = free_slot(S, b, p)
            place_unit(S, b, p, slot, u, max(row_count(S, b, p) - 1, 0))
        elif a < A_UPGRADE:
            t = a - A_REPAIR
            play_hq_card(S, tb, b, p, HQ_REPAIR)
            clear_under(S, b, p, t)
            S["team_damage"][b, p, t] = 0
        else:
            # Upgrade (ours, I7): the first better unit from the top of the pile replaces
            # it; damage and the cards under it carry over
            play_hq_card(S, tb, b, p, HQ_UPGRADE)
            upgrade_unit(S, tb, b, p, a - A_UPGRADE)
    elif st == STAGE_REPOSITION:
        if a == A_REPOSITION_DONE:
            compact_rows(S, b, p)
            S["stage"][b] = STAGE_ATTACK
        elif a < A_BACK:
            t = a - A_FORWARD
            r = S["team_row"][b, p, t]
            if r > 0:
                S["team_row"][b, p, t] = r - 1
            else:  # a new Frontline: everyone else steps back one row
                for x in range(MAX_TEAM):
                    if x != t and S["team_type"][b, p, x] >= 0:
                        S["team_row"][b, p, x] += 1
            S["moved"][b, t] = True
            S["repositions"][b] += 1
            compact_rows(S, b, p)
        elif a < A_PLACE:
            t = a - A_BACK
            S["team_row"][b, p, t] += 1
            S["moved"][b, t] = True
            S["repositions"][b] += 1
            compact_rows(S, b, p)
        else:
            i = a - A_PLACE
            t = i // N_ROWS
            S["team_row"][b, p, t] = i % N_ROWS
            S["moved"][b, t] = True
            S["repositions"][b] += 1
    elif st == STAGE_ATTACK:
        if a == A_ATTACK_DONE:
            if S["attack_count"][b] == 0:
                S["stage"][b] = STAGE_ENDING
            else:
                S["stage"][b] = STAGE_DEFENCE
                S["cursor"][b] = 0
        elif a < A_ARTY:
            i = a - A_ATTACK
            h = i // (N_OPPONENTS * MAX_TEAM)
            o = (i // MAX_TEAM) % N_OPPONENTS
            t = i % MAX_TEAM
            c = take_from_hand(S, b, p, h)
            ct = tb.card_type[c]
            S["ap"][b] -= attack_ap_cost(S, tb, b, ct)
            kind = card_attack_kind(tb, ct)
            if kind == ATTACK_GUN:
                S["free_gun"][b] = False
            if tb.card_type_colour[ct] == RED:
                S["weapon_uses"][
                    b, tb.card_type_weapon_type[ct], tb.card_type_weapon_weight[ct]
                ] += 1
            declare(S, b, kind, c, opponent_seat(S, b, p, o), t)
        elif a < A_PURPLE:
            i = a - A_ARTY
            S["ap"][b] -= 1
            S["arty_uses"][b] += 1
            declare(S, b, ATTACK_ARTY, -1, opponent_seat(S, b, p, i // MAX_TEAM), i % MAX_TEAM)
        else:
            i = a - A_PURPLE
            c = take_from_hand(S, b, p, i // MAX_ATTACKS)
            S["ap"][b] -= tb.card_type_ap_cost[tb.card_type[c]]
            S["attack_purple"][b, i % MAX_ATTACKS] = c
    elif st == STAGE_DEFENCE:
        k = S["cursor"][b]
        d = S["attack_target"][b, k]
        if a != A_NO_DEFENCE:
            slot = a - A_DEFEND
            S["attack_defence"][b, k] = slot
            S["defence_revealed"][b, d, slot] = True  # 4.4 revealed: now open
        S["cursor"][b] += 1
        S["current"][b] = S["active"][b]
    elif st == STAGE_OPEN_DEFENCE:
        S["attack_defence"][b, S["cursor"][b]] = a - A_DEFEND  # 10.5: the defender's choice
        S["cursor"][b] += 1
        S["current"][b] = S["active"][b]
        S["stage"][b] = STAGE_DEFENCE
    elif st == STAGE_DAMAGE_CONTROL:
        k = S["cursor"][b]
        d = S["attack_target"][b, k]
        if a == A_DAMAGE_CONTROL:
            h = hand_slot_of(S, tb, b, d, BLUE, HQ_REPAIR)
            discard_card(S, b, take_from_hand(S, b, d, h))  # 9.3, no AP: not d's turn
            S["attack_damage"][b, k] = 0
        S["cursor"][b] = k + 1
        S["stage"][b] = STAGE_DEFENCE  # resume resolution (advance: no defences left to ask)
        S["current"][b] = S["active"][b]
        if continue_resolution(S, tb, b):
            return
        if S["stage"][b] == STAGE_DEFENCE:
            S["stage"][b] = STAGE_ENDING
    elif st == STAGE_ENDING:
        if a == A_END_TURN:
            refill_hand(S, tb, b, p)  # 4.6
            next_turn(S, tb, b)
        else:
            i = a - A_LAY
            face_down = i % 2
            r = (i // 2) % N_ROWS
            h = i // (2 * N_ROWS)
            c = take_from_hand(S, b, p, h)
            slot = free_defence_slot(S, b, p)
            S["defence_card"][b, p, slot] = c
            S["defence_row"][b, p, slot] = r
            S["defence_state"][b, p, slot] = DEF_FACE_DOWN if face_down else DEF_FACE_UP
            S["defence_used"][b, p, slot] = False
            S["defence_revealed"][b, p, slot] = False
            if face_down:
                S["ap"][b] -= 1


@njit
def declare(S, b, kind, card, target, slot):
    k = S["attack_count"][b]
    S["attack_kind"][b, k] = kind
    S["attack_card"][b, k] = card
    S["attack_purple"][b, k] = -1
    S["attack_target"][b, k] = target
    S["attack_slot"][b, k] = slot
    S["attack_defence"][b, k] = -1
    S["attack_damage"][b, k] = 0
    S["attack_count"][b] = k + 1


@njit
def random_from_legal(S, b, buf, n):
    """Uniform among the n legal actions in buf, drawn from the game's agent RNG."""
    return buf[randint(S["agent_rng"], b, n)]


@njit
def random_legal_action(S, tb, b, buf):
    """Uniform among legal actions, drawn from the game's agent RNG."""
    n = legal_actions(S, tb, b, buf)
    return random_from_legal(S, b, buf, n)
