"""What each player may see (ARCHITECTURE.md section 6), as one float32 vector.

Seats are relative: block 0 is the observer, block i the seat i places after it. Hidden
from the observer: other players' hands (only their sizes show), the type of other
players' face-down defences (only that one lies on a row), the draw pile's order and the
reinforcement piles below their face-up top cards (2.1), and, while the deployment (2.2) is
under way, where the other players put their units: their row one-hots stay zero (not yet
deployed) until every player has deployed; the observer's own units show a row once placed.

Layout (U unit types, C card types, T team slots, D defence slots, A attacks, P players: the
size depends on the number of players, so a 2-player game carries no empty seats):

| part          | size                          | content |
|---------------|-------------------------------|---------|
| global        | 10 + 6 + A + 2 + 2 + 2U       | stage one-hot (STAGE_*, 10); round/rounds; I decide; I am active; AP/4; free gun; repositions/3; attack cursor one-hot; draw, discard sizes; pile sizes; pile tops one-hot |
| per seat (xP) | 6 + T(5+U) + D(10)            | present; active; Mobile; order position; hand size; victory points; per slot: present, type one-hot, row one-hot (all zero: not yet deployed, or another player's unit during the deployment), damage; per defence: present, row one-hot, face-down, revealed, type one-hot (hidden when face-down and not mine) |
| my hand       | H*C                           | card type one-hot per hand slot |
| attacks       | A(1 + P + T + C + 3)          | present, target seat one-hot, slot one-hot, card type one-hot (none: arty), arty, purple, absorbed |
"""

from __future__ import annotations

from envs.core.jit import njit
from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_DOWN,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DECK,
    MAX_DEFENCES,
    MAX_PILE,
    MAX_TEAM,
    N_ROWS,
    STAGE_DEPLOY,
)
from envs.tac.tables import S_AP, S_ROUNDS, S_STATIC_MOVES, TacArrays

N_STAGES = 10
N_DEFENCE_KINDS = 5


def observation_size(tb: TacArrays, num_players: int) -> int:
    U = int(tb.n_unit_types)
    C = int(tb.n_card_types)
    P = int(num_players)
    glob = N_STAGES + 6 + MAX_ATTACKS + 2 + 2 + 2 * U
    seat = 6 + MAX_TEAM * (2 + U + N_ROWS) + MAX_DEFENCES * (1 + N_ROWS + 2 + N_DEFENCE_KINDS)
    hand = HAND_SLOTS * C
    attacks = MAX_ATTACKS * (1 + P + MAX_TEAM + C + 3)
    return glob + P * seat + hand + attacks


@njit
def observe(S, tb, b, me, out):
    """Write player `me`'s observation of game b into out (float32[observation_size])."""
    out[:] = 0.0
    U = tb.n_unit_types
    C = tb.n_card_types
    P = S["num_players"][b]
    deploying = S["stage"][b] == STAGE_DEPLOY
    i = 0
    # --- global
    out[i + S["stage"][b]] = 1.0
    i += N_STAGES
    out[i] = S["round"][b] / tb.settings[S_ROUNDS]
    out[i + 1] = 1.0 if S["current"][b] == me else 0.0
    out[i + 2] = 1.0 if S["active"][b] == me else 0.0
    out[i + 3] = S["ap"][b] / tb.settings[S_AP]
    out[i + 4] = S["free_gun"][b]
    out[i + 5] = S["repositions"][b] / max(tb.settings[S_STATIC_MOVES], 1)
    i += 6
    if S["cursor"][b] < MAX_ATTACKS and S["attack_count"][b] > 0:
        out[i + S["cursor"][b]] = 1.0
    i += MAX_ATTACKS
    out[i] = S["draw_count"][b] / MAX_DECK
    out[i + 1] = S["discard_count"][b] / MAX_DECK
    i += 2
    for cat in range(2):
        n = S["pile_count"][b, cat]
        out[i + cat] = n / MAX_PILE
        if n > 0:  # 2.1: the top card of each reinforcement pile is face up
            out[i + 2 + cat * U + S["pile"][b, cat, n - 1]] = 1.0
    i += 2 + 2 * U
    # --- seats, relative to me
    for rel in range(P):
        q = (me + rel) % P
        out[i] = 1.0
        out[i + 1] = 1.0 if S["active"][b] == q else 0.0
        out[i + 2] = S["mode"][b, q]
        for pos in range(P):
            if S["order"][b, pos] == q:
                out[i + 3] = (pos + 1) / P
        hand_n = 0
        for h in range(HAND_SLOTS):
            if S["hand"][b, q, h] >= 0:
                hand_n += 1
        out[i + 4] = hand_n / HAND_SLOTS
        vp = 0
        for t in range(MAX_TEAM):
            u = S["team_type"][b, q, t]
            if u >= 0:
                vp += tb.unit_victory_points[u]
        out[i + 5] = vp / 40.0
        i += 6
        for t in range(MAX_TEAM):
            u = S["team_type"][b, q, t]
            if u >= 0:
                out[i] = 1.0
                out[i + 1 + u] = 1.0
                # 2.2: rows are hidden until all have deployed; my own show once placed
                if not deploying or (q == me and S["deployed"][b, q, t]):
                    out[i + 1 + U + S["team_row"][b, q, t]] = 1.0
                out[i + 1 + U + N_ROWS] = S["team_damage"][b, q, t] / 9.0
            i += 2 + U + N_ROWS
        for d in range(MAX_DEFENCES):
            st = S["defence_state"][b, q, d]
            if st != DEF_EMPTY:
                out[i] = 1.0
                out[i + 1 + S["defence_row"][b, q, d]] = 1.0
                face_down = st == DEF_FACE_DOWN and not S["defence_revealed"][b, q, d]
                out[i + 1 + N_ROWS] = 1.0 if face_down else 0.0
                out[i + 2 + N_ROWS] = S["defence_revealed"][b, q, d]
                if q == me or not face_down:
                    kind = tb.card_type_defence[tb.card_type[S["defence_card"][b, q, d]]]
                    out[i + 3 + N_ROWS + kind] = 1.0
            i += 1 + N_ROWS + 2 + N_DEFENCE_KINDS
    # --- my hand
    for h in range(HAND_SLOTS):
        c = S["hand"][b, me, h]
        if c >= 0:
            out[i + h * C + tb.card_type[c]] = 1.0
    i += HAND_SLOTS * C
    # --- attacks declared this turn (public: cards are placed on their targets, 5.2)
    for k in range(MAX_ATTACKS):
        if k < S["attack_count"][b]:
            out[i] = 1.0
            rel = (S["attack_target"][b, k] - me) % P
            out[i + 1 + rel] = 1.0
            out[i + 1 + P + S["attack_slot"][b, k]] = 1.0
            c = S["attack_card"][b, k]
            base = i + 1 + P + MAX_TEAM
            if c >= 0:
                out[base + tb.card_type[c]] = 1.0
            else:
                out[base + C] = 1.0
            out[base + C + 1] = 1.0 if S["attack_purple"][b, k] >= 0 else 0.0
            out[base + C + 2] = 1.0 if S["attack_defence"][b, k] >= 0 else 0.0
        i += 1 + P + MAX_TEAM + C + 3
