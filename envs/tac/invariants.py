"""Whole-state invariants of a TAC game, checked after every decision of random games.

`check_invariants(S, tb, b)` returns OK (0) or the code of the first invariant game b breaks.
`random_games_check(...)` plays many random games in parallel (prange over games, the
game's own agent RNG picks a uniform legal action) and checks every decision.

| code                  | invariant (seed section) |
|-----------------------|--------------------------|
| INV_CARD_ID           | every card id in a place is a real card, 0..N-1 |
| INV_CARD_LOST         | every Action card is somewhere (draw, discard, hands, defences, under units, declared attacks and purples) |
| INV_CARD_DUPLICATED   | no Action card is in two places |
| INV_CARD_PLACE        | a card's place fits its colour: defences black (10), under units red (4.5), attacks red/orange, modifiers purple (5.4) |
| INV_PILE_LAYOUT       | piles hold cards in 0..count-1 and -1 above; reinforcement piles hold their category (2.1) |
| INV_UNIT_COUNT        | per unit type: units in teams + both reinforcement piles == the config count |
| INV_DAMAGE            | live units: 0 <= damage < effective hit points (3.2, 3.5); empty slots clean |
| INV_UNDER             | cards kept under a unit: only under live units, never more than its damage (4.5) |
| INV_AP                | 0 <= AP <= action_points (4.3) |
| INV_ROWS              | rows 0..rows-1 all used, at most 3 (2.2); Mobile repositioning and the deploying player may leave gaps until done |
| INV_HAND              | at most hand_size cards in a hand (2.4); seats beyond num_players hold nothing |
| INV_DEFENCE           | laid defences lie on an existing row (10.4), with a consistent slot state |
| INV_TEAM              | while the game runs, every Combat Team has a unit (2.9) |
| INV_FLOW              | stage, seats, round, attack count and cursor in range; a decision has a legal action; deployment in seat order (2.2) |
| INV_SCORE             | at game end: victory points are the living units' (11.1), winner and rewards follow 11.2 |
"""

from __future__ import annotations

import numpy as np
from numba import prange

from envs.core.jit import njit, njit_parallel
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import reset_one
from envs.tac.scoring import undamaged_units
from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_DOWN,
    DEF_FACE_UP,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DECK,
    MAX_DEFENCES,
    MAX_PILE,
    MAX_PLAYERS,
    MAX_TEAM,
    MAX_UNDER,
    MOBILE,
    N_ROWS,
    STAGE_DEPLOY,
    STAGE_GAME_OVER,
    STAGE_REPOSITION,
)
from envs.tac.tables import (
    BLACK,
    CAT_TANK,
    MAX_ACTION_CARDS,
    MAX_UNIT_TYPES,
    ORANGE,
    PURPLE,
    RED,
    S_AP,
    S_HAND,
    S_ROUNDS,
    Tables,
)
from envs.tac.turn import apply_action, legal_actions, random_legal_action
from envs.tac.units import effective_hit_points

OK = 0
INV_CARD_ID = 1
INV_CARD_LOST = 2
INV_CARD_DUPLICATED = 3
INV_CARD_PLACE = 4
INV_PILE_LAYOUT = 5
INV_UNIT_COUNT = 6
INV_DAMAGE = 7
INV_UNDER = 8
INV_AP = 9
INV_ROWS = 10
INV_HAND = 11
INV_DEFENCE = 12
INV_TEAM = 13
INV_FLOW = 14
INV_SCORE = 15
N_CODES = 16
CODE_NAMES = (
    "ok",
    "card id out of range",
    "card lost",
    "card duplicated",
    "card in a place its colour cannot be",
    "pile layout",
    "unit count",
    "damage out of range",
    "cards under a unit",
    "action points out of range",
    "rows not compact",
    "hand too large",
    "defence slot",
    "empty Combat Team in a running game",
    "decision flow",
    "score",
)

# A game longer than this is stuck (8 rounds x 5 turns of at most ~60 decisions each).
MAX_DECISIONS = 20000
# Place tags for the card census (which colour a place may hold).
_ANY, _DEFENCE, _UNDER, _ATTACK, _MODIFIER = 0, 1, 2, 3, 4


@njit
def _see(tb, seen, card, place):
    """Count one occurrence of `card`; returns an error code or OK."""
    n_cards = tb.n_cards
    if card < 0 or card >= n_cards:
        return INV_CARD_ID
    seen[card] += 1
    colour = tb.card_type_colour[tb.card_type[card]]
    if place == _DEFENCE and colour != BLACK:
        return INV_CARD_PLACE
    if place == _UNDER and colour != RED:
        return INV_CARD_PLACE
    if place == _ATTACK and colour != RED and colour != ORANGE:
        return INV_CARD_PLACE
    if place == _MODIFIER and colour != PURPLE:
        return INV_CARD_PLACE
    return OK


@njit
def _check_cards(S, tb, b, seen):
    """Census of every Action card over every place it can be."""
    P = S["num_players"][b]
    seen[:] = 0
    # per-game views taken once: field lookups inside the loops are slow
    draw, n_draw = S["draw"][b], S["draw_count"][b]
    discard, n_discard = S["discard"][b], S["discard_count"][b]
    hand, defence, under = S["hand"][b], S["defence_card"][b], S["under"][b]
    for i in range(MAX_DECK):
        c = draw[i]
        if i < n_draw:
            e = _see(tb, seen, c, _ANY)
            if e != OK:
                return e
        elif c != -1:
            return INV_PILE_LAYOUT
        c = discard[i]
        if i < n_discard:
            e = _see(tb, seen, c, _ANY)
            if e != OK:
                return e
        elif c != -1:
            return INV_PILE_LAYOUT
    for p in range(MAX_PLAYERS):
        for h in range(HAND_SLOTS):
            c = hand[p, h]
            if c >= 0:
                if p >= P:
                    return INV_HAND
                e = _see(tb, seen, c, _ANY)
                if e != OK:
                    return e
            elif c != -1:
                return INV_CARD_ID
        for d in range(MAX_DEFENCES):
            c = defence[p, d]
            if c != -1:
                e = _see(tb, seen, c, _DEFENCE)
                if e != OK:
                    return e
        for t in range(MAX_TEAM):
            for i in range(MAX_UNDER):
                c = under[p, t, i]
                if c != -1:
                    e = _see(tb, seen, c, _UNDER)
                    if e != OK:
                        return e
    n_att = S["attack_count"][b]
    cards, purples = S["attack_card"][b], S["attack_purple"][b]
    for k in range(MAX_ATTACKS):
        c = cards[k]
        pc = purples[k]
        if k >= n_att:
            if c != -1 or pc != -1:
                return INV_CARD_PLACE  # cards left on an attack that no longer exists
            continue
        if c != -1:
            e = _see(tb, seen, c, _ATTACK)
            if e != OK:
                return e
        if pc != -1:
            if c < 0 or tb.card_type_colour[tb.card_type[c]] != RED:
                return INV_CARD_PLACE  # 5.4: a purple card only modifies a red card
            e = _see(tb, seen, pc, _MODIFIER)
            if e != OK:
                return e
    for i in range(tb.n_cards):  # duplicates first: a copied card usually replaced another
        if seen[i] > 1:
            return INV_CARD_DUPLICATED
    for i in range(tb.n_cards):
        if seen[i] == 0:
            return INV_CARD_LOST
    return OK


@njit
def _check_units(S, tb, b, counts):
    """Unit conservation (2.1, 4.5): teams + reinforcement piles == the unit deck."""
    U = tb.n_unit_types
    counts[:] = 0
    for cat in range(2):
        n = S["pile_count"][b, cat]
        if n < 0 or n > MAX_PILE:
            return INV_PILE_LAYOUT
        for i in range(MAX_PILE):
            u = S["pile"][b, cat, i]
            if i < n:
                if u < 0 or u >= U:
                    return INV_PILE_LAYOUT
                if (tb.unit_category[u] == CAT_TANK) != (cat == 0):
                    return INV_PILE_LAYOUT
                counts[u] += 1
            elif u != -1:
                return INV_PILE_LAYOUT
    for p in range(MAX_PLAYERS):
        for t in range(MAX_TEAM):
            u = S["team_type"][b, p, t]
            if u >= U or u < -1:
                return INV_UNIT_COUNT
            if u >= 0:
                counts[u] += 1
    for u in range(U):
        if counts[u] != tb.unit_count[u]:
            return INV_UNIT_COUNT
    return OK


@njit
def _check_teams(S, tb, b):
    """Damage, cards under units, rows (2.2, 3.2, 3.5, 4.5), defences (10.4), hands (2.4)."""
    P = S["num_players"][b]
    over = S["stage"][b] == STAGE_GAME_OVER
    for p in range(MAX_PLAYERS):
        used = np.zeros(N_ROWS + 1, dtype=np.bool_)
        size = 0
        for t in range(MAX_TEAM):
            u = S["team_type"][b, p, t]
            dmg = S["team_damage"][b, p, t]
            n_under = 0
            for i in range(MAX_UNDER):
                if S["under"][b, p, t, i] >= 0:
                    n_under += 1
            if u < 0:
                if dmg != 0:
                    return INV_DAMAGE
                if n_under > 0:
                    return INV_UNDER
                continue
            if p >= P:
                return INV_TEAM
            size += 1
            if dmg < 0 or dmg >= effective_hit_points(tb, u, S["mode"][b, p]):
                return INV_DAMAGE
            if n_under > dmg:
                return INV_UNDER
            r = S["team_row"][b, p, t]
            if r < 0 or r >= N_ROWS:
                return INV_ROWS
            used[r] = True
        if p >= P:
            continue
        if size == 0 and not over:
            return INV_TEAM
        rows = 0
        gap = False
        for r in range(N_ROWS):
            if used[r]:
                if gap:
                    # 4.2: a Mobile player places units freely; rows close up when done;
                    # 2.2: so does the player deploying
                    if not (
                        S["stage"][b] == STAGE_REPOSITION
                        and p == S["active"][b]
                        and S["mode"][b, p] == MOBILE
                    ) and not (S["stage"][b] == STAGE_DEPLOY and p == S["current"][b]):
                        return INV_ROWS
                rows = r + 1
            else:
                gap = True
        hand_n = 0
        for h in range(HAND_SLOTS):
            if S["hand"][b, p, h] >= 0:
                hand_n += 1
        if hand_n > tb.settings[S_HAND]:
            return INV_HAND
        for d in range(MAX_DEFENCES):
            st = S["defence_state"][b, p, d]
            c = S["defence_card"][b, p, d]
            if st == DEF_EMPTY:
                if c != -1 or S["defence_used"][b, p, d] or S["defence_revealed"][b, p, d]:
                    return INV_DEFENCE
                continue
            if st != DEF_FACE_UP and st != DEF_FACE_DOWN:
                return INV_DEFENCE
            if c < 0:
                return INV_DEFENCE
            r = S["defence_row"][b, p, d]
            if r < 0 or r >= rows:
                return INV_DEFENCE  # 10.4: a defence protects an existing row
            if S["defence_revealed"][b, p, d] and st != DEF_FACE_DOWN:
                return INV_DEFENCE  # only a face-down card can be revealed
    return OK


@njit
def _check_flow(S, tb, b):
    P = S["num_players"][b]
    st = S["stage"][b]
    if P < 2 or P > MAX_PLAYERS or st < 0 or st > STAGE_GAME_OVER:
        return INV_FLOW
    if S["current"][b] < 0 or S["current"][b] >= P or S["active"][b] < 0 or S["active"][b] >= P:
        return INV_FLOW
    rounds = tb.settings[S_ROUNDS]
    if S["round"][b] < 1 or S["round"][b] > rounds + (1 if st == STAGE_GAME_OVER else 0):
        return INV_FLOW
    if S["turn"][b] < 0 or S["turn"][b] >= P:
        return INV_FLOW
    if S["attack_count"][b] < 0 or S["attack_count"][b] > MAX_ATTACKS:
        return INV_FLOW
    if S["cursor"][b] < 0 or S["cursor"][b] > S["attack_count"][b]:
        return INV_FLOW
    for i in range(P):  # 2.6: the player order is a permutation of the seats
        found = 0
        for j in range(P):
            if S["order"][b, j] == i:
                found += 1
        if found != 1:
            return INV_FLOW
    if st == STAGE_DEPLOY:
        # 2.2: seats deploy in seat order, all units of the earlier seats, none of the later
        if S["active"][b] != S["current"][b] or S["round"][b] != 1 or S["turn"][b] != 0:
            return INV_FLOW
        for p in range(P):
            for t in range(MAX_TEAM):
                if S["team_type"][b, p, t] >= 0:
                    if p < S["current"][b] and not S["deployed"][b, p, t]:
                        return INV_FLOW
                    if p > S["current"][b] and S["deployed"][b, p, t]:
                        return INV_FLOW
    elif st != STAGE_GAME_OVER and S["active"][b] != S["order"][b, S["turn"][b]]:
        return INV_FLOW
    if S["ap"][b] < 0 or S["ap"][b] > tb.settings[S_AP]:
        return INV_AP
    return OK


@njit
def _check_score(S, tb, b):
    """11.1 / 11.2 and the reward scheme of tac_v1 (winner +1, others -1; players still tied
    after the tie-break get 0, the others -1)."""
    P = S["num_players"][b]
    best_vp = -1
    for p in range(P):
        vp = 0
        for t in range(MAX_TEAM):
            u = S["team_type"][b, p, t]
            if u >= 0:
                vp += tb.unit_victory_points[u]
        if S["victory_points"][b, p] != vp:
            return INV_SCORE
        if vp > best_vp:
            best_vp = vp
    best_undamaged = -1
    for p in range(P):
        if S["victory_points"][b, p] == best_vp and undamaged_units(S, b, p) > best_undamaged:
            best_undamaged = undamaged_units(S, b, p)
    n_top = 0
    top = -1
    for p in range(P):
        if S["victory_points"][b, p] == best_vp and undamaged_units(S, b, p) == best_undamaged:
            n_top += 1
            top = p
    if S["winner"][b] != (top if n_top == 1 else -1):
        return INV_SCORE
    total = 0.0
    for p in range(P):
        is_top = S["victory_points"][b, p] == best_vp and undamaged_units(S, b, p) == best_undamaged
        want = -1.0
        if is_top:
            want = 1.0 if n_top == 1 else 0.0
        if S["rewards"][b, p] != want:
            return INV_SCORE
        total += S["rewards"][b, p]
    if P == 2 and total != 0.0:  # 2 players: +1/-1 or 0/0
        return INV_SCORE
    for p in range(P, MAX_PLAYERS):
        if S["rewards"][b, p] != 0.0 or S["victory_points"][b, p] != 0:
            return INV_SCORE
    return OK


@njit
def check_invariants_scratch(S, tb, b, seen, counts):
    """check_invariants with caller-owned scratch arrays (int16[MAX_ACTION_CARDS],
    int16[MAX_UNIT_TYPES])."""
    e = _check_flow(S, tb, b)
    if e != OK:
        return e
    e = _check_cards(S, tb, b, seen)
    if e != OK:
        return e
    e = _check_units(S, tb, b, counts)
    if e != OK:
        return e
    e = _check_teams(S, tb, b)
    if e != OK:
        return e
    if S["stage"][b] == STAGE_GAME_OVER:
        return _check_score(S, tb, b)
    return OK


@njit
def check_invariants(S, tb, b):
    """OK (0), or the code of the first invariant that game b of S breaks."""
    seen = np.zeros(tb.n_cards, dtype=np.int16)
    counts = np.zeros(tb.n_unit_types, dtype=np.int16)
    return check_invariants_scratch(S, tb, b, seen, counts)


@njit
def play_checked(S, tb, b, seed, game_index, buf, seen, counts):
    """Play game `game_index` of `seed` in slot b at random, checking every decision.
    Returns (OK or the first code broken, decisions played until then)."""
    reset_one(S, tb, b, seed, game_index, buf)
    code = check_invariants_scratch(S, tb, b, seen, counts)
    while code == OK and S["stage"][b] != STAGE_GAME_OVER:
        if legal_actions(S, tb, b, buf) < 1 or S["decisions"][b] >= MAX_DECISIONS:
            return INV_FLOW, S["decisions"][b]
        a = random_legal_action(S, tb, b, buf)
        apply_action(S, tb, b, a, buf)
        code = check_invariants_scratch(S, tb, b, seen, counts)
    return code, S["decisions"][b]


@njit
def _play_slot(S, tba, b, seed, game_index, codes, at_decision):
    # array-only arguments: numba cannot pass the tables record into a parallel loop body
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    seen = np.zeros(MAX_ACTION_CARDS, dtype=np.int16)
    counts = np.zeros(MAX_UNIT_TYPES, dtype=np.int16)
    code, n = play_checked(S, tba[0], b, seed, game_index, buf, seen, counts)
    codes[b] = code
    at_decision[b] = n


@njit_parallel
def random_games_check(S, tba, seed, first_game, codes, at_decision):
    """Play games first_game .. first_game+B-1 of `seed` in the slots of S (B = len(S)),
    every decision a uniform legal action from the game's agent RNG, and check the
    invariants after the reset and after every decision. `tba` is Tables.arrays_batch.

    codes[b] gets OK or the first code broken (the game stops there), at_decision[b] the
    decision count at which it broke (or the game's length when it did not).
    """
    for bi in prange(S.shape[0]):
        b = np.int64(bi)
        _play_slot(S, tba, b, seed, first_game + b, codes, at_decision)


def run_random_games(
    tables: Tables, num_players: int, n_games: int, seed: int = 0, chunk: int = 4096
) -> tuple[np.ndarray, tuple[int, int] | None, int]:
    """Play games 0..n_games-1 of `seed` at random with every decision checked.

    `tables` is a Tables (only its `arrays_batch` is used). Returns (games broken per code:
    int64[N_CODES], first failing (game index, decision) or None, total decisions played).
    """
    from envs.tac.state import allocate

    counts = np.zeros(N_CODES, dtype=np.int64)
    first: tuple[int, int] | None = None
    decisions = 0
    S = allocate(min(chunk, n_games), num_players)
    done = 0
    while done < n_games:
        B = min(chunk, n_games - done)
        view = S[:B]
        codes = np.zeros(B, dtype=np.int8)
        at = np.zeros(B, dtype=np.int32)
        random_games_check(view, tables.arrays_batch, seed, done, codes, at)
        counts += np.bincount(codes, minlength=N_CODES).astype(np.int64)
        bad = np.flatnonzero(codes != OK)
        if first is None and bad.size:
            first = (done + int(bad[0]), int(at[bad[0]]))
        decisions += int(at.sum())
        done += B
    counts[OK] = 0
    return counts, first, decisions
