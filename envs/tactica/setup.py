"""TACTICA initial deployment (docs/rules/tactica.md TT-B.6.1, TT-B.6.3-6.7, TT-A.10.3, TT-A.10.9).

A battle opens (piles.start_battle) in STAGE_SETUP with first_player set: drawn at random for
battle 1 and after a drawn battle, else the previous battle's loser, who is asked here. Then
walls go down, then landmark cards and spires, each round alternating from the first player
(TT-B.6.4, TT-B.6.5); when both are done the stage is STAGE_PHASE_DONE and the turn
dispatcher begins turn 1 (TT-B.6.7). The chapter convention (begin_/legal_/apply_setup) is in
the phase briefs; every kernel takes one battlefield's geometry slices
(``geo.neighbours[bf]``, ``geo.distance[bf]``, ``geo.wall_zone[bf]``, bf from
:func:`battlefield_index`) and int64 scalars.

Actions of this chapter (layout: envs/tactica/actions.py)::

    stage                   actions                 meaning
    STAGE_FIRST_PLAYER      A_SIDE + 0              "I go first" (the asked loser)
                            A_SIDE + 1              "you go first"
    STAGE_PLACE_WALL        A_HEX + h               the next wall card goes on hex h
    STAGE_CHOOSE_LANDMARK   A_SIDE + s              face s (SIDE_HIGH 0 / SIDE_LOW 1) up for
                                                    the next landmark card (R28)
    STAGE_PLACE_LANDMARK    A_HEX + h               that landmark card goes on hex h
    STAGE_PLACE_SPIRE       A_HEX + h               the player's spire goes on hex h

Order of pieces (R28): each player's wall cards not LOST in slot order; then each player's
landmark cards not LOST in army order (tb.army_landmark), followed by their spire if they
have one (spire_height > 0). A player with no piece left in a round is skipped; the other
places the rest. A piece that has no legal hex when its turn comes is left off the
battlefield for this battle (R29); the order then moves on as if it had been placed.

Geometry seats: battlefield.access_ok counts seats 1 and 2 (NO_SEAT = 0); the state's seats
are 0 and 1, converted in :func:`_feature_arrays`.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.actions import (
    A_HEX,
    A_SIDE,
    N_SIDES,
    STAGE_CHOOSE_LANDMARK,
    STAGE_FIRST_PLAYER,
    STAGE_PLACE_LANDMARK,
    STAGE_PLACE_SPIRE,
    STAGE_PLACE_WALL,
)
from envs.tactica.battlefield import (
    NO_SEAT,
    _troop_can_enter,
    reach_from_zone,
    touches,
    zone_separators,
)
from envs.tactica.state import (
    BATTLE_DRAWN,
    FEATURE_LANDMARK,
    FEATURE_NONE,
    FEATURE_SPIRE,
    FEATURE_WALL,
    MAX_HEXES,
    MAX_LANDMARK_CARDS,
    MAX_WALLS,
    N_PLAYERS,
    STAGE_PHASE_DONE,
)
from envs.tactica.tables import Tables

CHOOSE_ME_FIRST = 0  # A_SIDE + 0 at STAGE_FIRST_PLAYER: the asked player goes first
CHOOSE_YOU_FIRST = 1  # A_SIDE + 1: the other player goes first
NO_PIECE = -1  # _next_piece: the player has nothing left to place in this round
SPIRE_PIECE = MAX_LANDMARK_CARDS  # setup_piece_next value naming the spire (after landmarks)
NO_SIDE = -1  # a wall or spire has no face to choose
ALL = MAX_HEXES  # _piece_hexes' limit for the whole list


# --- TT-B.6.1: which battlefield ---------------------------------------------------------------


@njit
def battlefield_of(battlefield_battle: np.ndarray, battle: np.int64) -> np.int64:
    """TT-B.6.1: index of the battlefield whose `battle` is `battle` (Tables.battlefield_battle),
    -1 if none."""
    for bf in range(battlefield_battle.shape[0]):
        if battlefield_battle[bf] == battle:
            return np.int64(bf)
    return np.int64(-1)


def battlefield_index(tables: Tables, battle: int) -> int:
    """TT-B.6.1 for Python callers: the battlefield of battle `battle` (1-based); ValueError
    naming the battle if no battlefield is listed for it."""
    bf = int(battlefield_of(tables.battlefield_battle, np.int64(battle)))
    if bf < 0:
        raise ValueError(
            f"no battlefield for battle {battle}: battlefields.yaml lists battles "
            f"{sorted(int(x) for x in tables.battlefield_battle)}"
        )
    return bf


# --- what may stand where ------------------------------------------------------------------


@njit
def _real(distance: np.ndarray, h: np.int64) -> bool:
    """Hex h exists on this battlefield (padding is FAR from itself)."""
    return distance[h, h] == 0


@njit
def _open(distance: np.ndarray, wall_zone: np.ndarray, h: np.int64) -> bool:
    """An open hex ('.' in battlefields.yaml): on the map and in no wall zone."""
    return _real(distance, h) and not wall_zone[0, h] and not wall_zone[1, h]


@njit_inline
def _empty(S, b: np.int64, h: np.int64) -> bool:
    """No feature, troop or summon on h (TT-B.2.4)."""
    return (
        S["hex_feature"][b, h] == FEATURE_NONE
        and S["hex_troop"][b, h] == -1
        and S["hex_summon"][b, h] == -1
    )


@njit_inline
def _feature_arrays(S, tb, b: np.int64, kind: np.ndarray, block: np.ndarray, owner: np.ndarray):
    """The features of game b as battlefield.access_ok reads them: kind (FEATURE_*), block
    (a landmark whose face-up side has BLOCK, TT-B.2.7) and owner in seats 1 / 2."""
    for h in range(MAX_HEXES):
        k = S["hex_feature"][b, h]
        p = S["hex_feature_owner"][b, h]
        kind[h] = k
        owner[h] = NO_SEAT if p < 0 else p + 1
        block[h] = False
        if k == FEATURE_LANDMARK:
            j = S["hex_feature_card"][b, h]
            block[h] = tb.landmark_block[tb.army_landmark[j], S["landmark_side"][b, p, j]] != 0


@njit_inline
def _far_from_walls(S, distance: np.ndarray, b: np.int64, h: np.int64, d: np.int64) -> bool:
    """TT-B.6.5: h is at distance d or more from every wall card on the battlefield."""
    for p in range(N_PLAYERS):
        for w in range(MAX_WALLS):
            x = S["wall_hex"][b, p, w]
            if x >= 0 and distance[h, x] < d:
                return False
    return True


@njit_inline
def _near_own_wall(S, distance: np.ndarray, b: np.int64, p: np.int64, h: np.int64, d) -> bool:
    """TT-A.10.3: h is within d hexes of one of p's wall cards."""
    for w in range(MAX_WALLS):
        x = S["wall_hex"][b, p, w]
        if x >= 0 and distance[h, x] <= d:
            return True
    return False


@njit
def _home_ok(
    neighbours: np.ndarray,
    homes: np.ndarray,
    n_homes: np.int64,
    reached: np.ndarray,
    removed: np.int64,
) -> bool:
    """Every feature hex homes[:n_homes] touches a hex marked in `reached` other than
    `removed` (TT-B.6.6)."""
    for i in range(n_homes):
        if not touches(neighbours, reached, np.int64(homes[i]), removed):
            return False
    return True


@njit
def _piece_hexes(
    S,
    tb,
    neighbours: np.ndarray,
    distance: np.ndarray,
    wall_zone: np.ndarray,
    b: np.int64,
    p: np.int64,
    piece: np.int64,
    side: np.int64,
    out: np.ndarray,
    limit: np.int64,
) -> np.int64:
    """out[h] = player p may put `piece` on h; returns how many hexes, stopping at `limit`
    (1: is there one; out is then complete only when fewer were found). piece: FEATURE_WALL,
    FEATURE_LANDMARK (with face `side` up) or FEATURE_SPIRE. Every placement must leave each
    wall and spire reachable (TT-B.6.6, TT-A.10.9), exactly battlefield.access_ok with the
    piece put on h, computed without a search per hex: the searches of the battlefield as it
    stands (one per seat) and its separators (battlefield.zone_separators) decide every
    candidate but a separator, which gets a search of its own."""
    kind = np.empty(MAX_HEXES, dtype=np.int8)
    block = np.empty(MAX_HEXES, dtype=np.bool_)
    owner = np.empty(MAX_HEXES, dtype=np.int8)
    flags = np.empty((6, MAX_HEXES), dtype=np.bool_)
    ints = np.empty((6, MAX_HEXES), dtype=np.int64)
    homes = np.empty((N_PLAYERS, MAX_HEXES), dtype=np.int64)
    n_homes = np.zeros(N_PLAYERS, dtype=np.int64)
    passable = flags[0]
    queue = ints[5]
    _feature_arrays(S, tb, b, kind, block, owner)
    new_block = False
    if piece == FEATURE_LANDMARK:
        j = S["setup_piece_next"][b, p]
        new_block = tb.landmark_block[tb.army_landmark[j], side] != 0
    # a wall, a spire or a BLOCK landmark closes its hex to troops; an empty hex is open
    closes = piece != FEATURE_LANDMARK or new_block
    for h in range(MAX_HEXES):
        passable[h] = _troop_can_enter(np.int64(kind[h]), block[h])
        if owner[h] != NO_SEAT and (kind[h] == FEATURE_WALL or kind[h] == FEATURE_SPIRE):
            q = owner[h] - 1
            homes[q, n_homes[q]] = h
            n_homes[q] += 1
    # for each seat q: the hexes the other seat's troops reach (flags[1 + q]), whether q's
    # features all have access now (base_ok) and q's separators (flags[3 + q]); flags[5]
    # and ints are scratch
    base_ok = True
    for q in range(N_PLAYERS):
        zone = np.int64(N_PLAYERS - 1 - q)
        reach_from_zone(neighbours, wall_zone, passable, zone, np.int64(-1), flags[1 + q], queue)
        if not _home_ok(neighbours, homes[q], n_homes[q], flags[1 + q], np.int64(-1)):
            base_ok = False
        if closes:
            zone_separators(neighbours, wall_zone, passable, zone, flags[3 + q], ints[:5])
    new_home = piece != FEATURE_LANDMARK  # a wall or spire of p: its access is protected too
    n = np.int64(0)
    for h in range(MAX_HEXES):
        out[h] = False
    for h in range(MAX_HEXES):
        if n >= limit:
            break
        if not _real(distance, h) or not _empty(S, b, h):
            continue
        if piece == FEATURE_WALL:
            ok = wall_zone[p, h]  # TT-B.6.4: one's own wall zone
        elif piece == FEATURE_LANDMARK:
            ok = _open(distance, wall_zone, h) and _far_from_walls(
                S, distance, b, h, np.int64(tb.landmark_wall_distance)
            )  # TT-B.6.5
        else:
            ok = _open(distance, wall_zone, h) and _near_own_wall(
                S, distance, b, p, h, np.int64(tb.spire_wall_distance)
            )  # TT-B.6.5, TT-A.10.3
        if not ok:
            continue
        # TT-B.6.6 / TT-A.10.9: every wall and spire keeps access with the piece on h
        if not closes:
            ok = base_ok  # an open landmark changes no route and needs no access itself
        else:
            for q in range(N_PLAYERS):
                reached = flags[1 + q]
                mine = new_home and q == p
                if n_homes[q] == 0 and not mine:
                    continue
                if reached[h] and flags[3 + q, h]:
                    # h cuts some hexes off: search again without it
                    reached = flags[5]
                    reach_from_zone(
                        neighbours,
                        wall_zone,
                        passable,
                        np.int64(N_PLAYERS - 1 - q),
                        np.int64(h),
                        reached,
                        queue,
                    )
                ok = _home_ok(neighbours, homes[q], n_homes[q], reached, np.int64(h)) and (
                    not mine or touches(neighbours, reached, np.int64(h), np.int64(h))
                )
                if not ok:
                    break
        out[h] = ok
        if ok:
            n += 1
    return n


# --- the order of pieces (R28, R29) ---------------------------------------------------------


@njit_inline
def _next_wall(S, tb, b: np.int64, p: np.int64) -> np.int64:
    """p's next wall slot still to place (not LOST, TT-B.6.4), NO_PIECE if none."""
    w = S["setup_wall_next"][b, p]
    while w < tb.n_walls:
        if not S["wall_lost"][b, p, w]:
            return np.int64(w)
        w += 1
    return np.int64(NO_PIECE)


@njit_inline
def _next_landmark_piece(S, tb, b: np.int64, p: np.int64) -> np.int64:
    """p's next piece of the landmark round: a landmark card j not LOST (army order), then
    SPIRE_PIECE if p has a spire (TT-B.6.5, TT-A.10.3); NO_PIECE when done."""
    j = S["setup_piece_next"][b, p]
    while j < tb.n_landmark_cards:
        if not S["landmark_lost"][b, p, j]:
            return np.int64(j)
        j += 1
    if j <= SPIRE_PIECE and S["spire_height"][b, p] > 0 and S["spire_hex"][b, p] < 0:
        return np.int64(SPIRE_PIECE)
    return np.int64(NO_PIECE)


@njit_inline
def _has_wall_hex(S, tb, neighbours, distance, wall_zone, b, p, buf) -> bool:
    return (
        _piece_hexes(
            S,
            tb,
            neighbours,
            distance,
            wall_zone,
            b,
            p,
            np.int64(FEATURE_WALL),
            np.int64(NO_SIDE),
            buf,
            np.int64(1),
        )
        > 0
    )


@njit
def _landmark_face_ok(S, tb, neighbours, distance, wall_zone, b, p, side, buf) -> bool:
    return (
        _piece_hexes(
            S,
            tb,
            neighbours,
            distance,
            wall_zone,
            b,
            p,
            np.int64(FEATURE_LANDMARK),
            side,
            buf,
            np.int64(1),
        )
        > 0
    )


@njit
def _ready_wall(S, tb, neighbours, distance, wall_zone, b, p, buf) -> bool:
    """Point setup_wall_next[p] at p's next wall that has a legal hex, leaving off those
    that have none (R29); False when p has no wall left to place."""
    while True:
        w = _next_wall(S, tb, b, p)
        if w == NO_PIECE:
            S["setup_wall_next"][b, p] = tb.n_walls
            return False
        S["setup_wall_next"][b, p] = w
        if _has_wall_hex(S, tb, neighbours, distance, wall_zone, b, p, buf):
            return True
        S["setup_wall_next"][b, p] = w + 1  # R29: this wall stays off the battlefield


@njit
def _ready_landmark_piece(S, tb, neighbours, distance, wall_zone, b, p, buf) -> bool:
    """Point setup_piece_next[p] at p's next landmark card (a face of which has a legal hex)
    or spire (with a legal hex), leaving off those with none (R29); False when p is done."""
    while True:
        j = _next_landmark_piece(S, tb, b, p)
        if j == NO_PIECE:
            S["setup_piece_next"][b, p] = SPIRE_PIECE + 1
            return False
        S["setup_piece_next"][b, p] = j
        if j == SPIRE_PIECE:
            n = _piece_hexes(
                S,
                tb,
                neighbours,
                distance,
                wall_zone,
                b,
                p,
                np.int64(FEATURE_SPIRE),
                np.int64(NO_SIDE),
                buf,
                np.int64(1),
            )
            if n > 0:
                return True
        else:
            for s in range(N_SIDES):
                if _landmark_face_ok(
                    S, tb, neighbours, distance, wall_zone, b, p, np.int64(s), buf
                ):
                    return True
        S["setup_piece_next"][b, p] = j + 1  # R29: this piece stays off the battlefield


@njit_inline
def _ask(S, b: np.int64, p: np.int64, landmark_round: bool) -> None:
    """Ask player p for their next piece (already made ready)."""
    S["current"][b] = p
    if not landmark_round:
        S["stage"][b] = STAGE_PLACE_WALL
    elif S["setup_piece_next"][b, p] == SPIRE_PIECE:
        S["stage"][b] = STAGE_PLACE_SPIRE
    else:
        S["stage"][b] = STAGE_CHOOSE_LANDMARK


@njit
def _advance(S, tb, neighbours, distance, wall_zone, b: np.int64, p: np.int64, landmark_round):
    """Whose piece is next after p placed (or, at a round's start with p = the other player,
    the first player): the other player if they have one, else p again (TT-B.6.4: alternating;
    a player who has run out is skipped). After the wall round the landmark round starts from
    the first player; after that the phase is done (TT-B.6.7)."""
    buf = np.empty(MAX_HEXES, dtype=np.bool_)
    while True:
        q = N_PLAYERS - 1 - p
        for x in (q, p):
            if landmark_round:
                ready = _ready_landmark_piece(S, tb, neighbours, distance, wall_zone, b, x, buf)
            else:
                ready = _ready_wall(S, tb, neighbours, distance, wall_zone, b, x, buf)
            if ready:
                _ask(S, b, np.int64(x), landmark_round)
                return
        if landmark_round:
            S["current"][b] = S["first_player"][b]
            S["stage"][b] = STAGE_PHASE_DONE  # TT-B.6.7: turn 1 begins
            return
        landmark_round = True
        p = np.int64(N_PLAYERS - 1 - S["first_player"][b])  # the first player starts (TT-B.6.5)


# --- the chapter's kernels -----------------------------------------------------------------


@njit
def _begin_walls(S, tb, neighbours, distance, wall_zone, b: np.int64) -> None:
    for p in range(N_PLAYERS):
        S["setup_wall_next"][b, p] = 0
        S["setup_piece_next"][b, p] = 0
    other = np.int64(N_PLAYERS - 1 - S["first_player"][b])
    _advance(S, tb, neighbours, distance, wall_zone, b, other, False)


@njit_inline
def begin_setup(S, tb, neighbours, distance, wall_zone, b: np.int64) -> None:
    """Set up initial deployment of game b, called after piles.start_battle (which drew the
    first player at random for battle 1 and after a draw, else put the previous loser in
    first_player and current). TT-B.6.3: the loser is asked at STAGE_FIRST_PLAYER; otherwise
    the wall round starts from the first player. neighbours, distance, wall_zone: the
    battlefield of this battle (battlefield_of / battlefield_index, TT-B.6.1)."""
    S["phase"][b] = -1  # deployment is no phase of a turn (turn 0)
    battle = S["battle"][b]
    previous = BATTLE_DRAWN if battle <= 1 else S["battle_result"][b, battle - 2]
    for p in range(N_PLAYERS):
        S["setup_wall_next"][b, p] = 0
        S["setup_piece_next"][b, p] = 0
    if previous != BATTLE_DRAWN:
        S["current"][b] = N_PLAYERS - 1 - previous  # the loser chooses (TT-B.6.3)
        S["stage"][b] = STAGE_FIRST_PLAYER
        return
    _begin_walls(S, tb, neighbours, distance, wall_zone, b)


@njit_inline
def legal_setup(S, tb, neighbours, distance, wall_zone, b: np.int64, out: np.ndarray) -> np.int64:
    """The legal actions of the current setup decision of game b in out[:n], increasing."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    n = np.int64(0)
    if stage == STAGE_FIRST_PLAYER:
        out[0] = A_SIDE + CHOOSE_ME_FIRST
        out[1] = A_SIDE + CHOOSE_YOU_FIRST
        return np.int64(2)
    buf = np.empty(MAX_HEXES, dtype=np.bool_)
    if stage == STAGE_CHOOSE_LANDMARK:
        for s in range(N_SIDES):
            if _landmark_face_ok(S, tb, neighbours, distance, wall_zone, b, p, np.int64(s), buf):
                out[n] = A_SIDE + s
                n += 1
        return n
    if stage == STAGE_PLACE_WALL:
        _piece_hexes(
            S,
            tb,
            neighbours,
            distance,
            wall_zone,
            b,
            p,
            np.int64(FEATURE_WALL),
            np.int64(-1),
            buf,
            np.int64(ALL),
        )
    elif stage == STAGE_PLACE_LANDMARK:
        j = S["setup_piece_next"][b, p]
        side = np.int64(S["landmark_side"][b, p, j])
        _piece_hexes(
            S,
            tb,
            neighbours,
            distance,
            wall_zone,
            b,
            p,
            np.int64(FEATURE_LANDMARK),
            side,
            buf,
            np.int64(ALL),
        )
    elif stage == STAGE_PLACE_SPIRE:
        _piece_hexes(
            S,
            tb,
            neighbours,
            distance,
            wall_zone,
            b,
            p,
            np.int64(FEATURE_SPIRE),
            np.int64(-1),
            buf,
            np.int64(ALL),
        )
    else:
        return n
    for h in range(MAX_HEXES):
        if buf[h]:
            out[n] = A_HEX + h
            n += 1
    return n


@njit
def _put_feature(S, b: np.int64, h: np.int64, kind: np.int64, p: np.int64, card: np.int64) -> None:
    S["hex_feature"][b, h] = kind
    S["hex_feature_owner"][b, h] = p
    S["hex_feature_card"][b, h] = card


@njit_inline
def apply_setup(S, tb, neighbours, distance, wall_zone, b: np.int64, a: np.int64) -> None:
    """Apply legal action a of the current setup decision, then ask the next one (or
    STAGE_PHASE_DONE once every piece is down, TT-B.6.7)."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_FIRST_PLAYER:
        # TT-B.6.3: the previous loser names the first player
        S["first_player"][b] = p if a == A_SIDE + CHOOSE_ME_FIRST else N_PLAYERS - 1 - p
        _begin_walls(S, tb, neighbours, distance, wall_zone, b)
        return
    if stage == STAGE_CHOOSE_LANDMARK:
        # TT-B.6.5: face-up side of the placer's choice; the hex comes next
        j = S["setup_piece_next"][b, p]
        S["landmark_side"][b, p, j] = a - A_SIDE
        S["stage"][b] = STAGE_PLACE_LANDMARK
        return
    h = np.int64(a - A_HEX)
    if stage == STAGE_PLACE_WALL:
        w = S["setup_wall_next"][b, p]
        S["wall_hex"][b, p, w] = h
        _put_feature(S, b, h, np.int64(FEATURE_WALL), p, np.int64(w))
        S["setup_wall_next"][b, p] = w + 1
        _advance(S, tb, neighbours, distance, wall_zone, b, p, False)
        return
    if stage == STAGE_PLACE_LANDMARK:
        j = S["setup_piece_next"][b, p]
        S["landmark_hex"][b, p, j] = h
        _put_feature(S, b, h, np.int64(FEATURE_LANDMARK), p, np.int64(j))
    else:  # STAGE_PLACE_SPIRE: TT-A.10.3, the spire keeps its cards and their faces
        S["spire_hex"][b, p] = h
        _put_feature(S, b, h, np.int64(FEATURE_SPIRE), p, np.int64(0))
    S["setup_piece_next"][b, p] = S["setup_piece_next"][b, p] + 1
    _advance(S, tb, neighbours, distance, wall_zone, b, p, True)
