"""TACTICA card places and piles as numba kernels (docs/rules/tactica.md TT-B.5, TT-B.6.2,
TT-B.7.1, TT-B.9.2).

Every kernel takes the state batch `S` (envs/tactica/state.py), the tables' record `tb`
(``Tables.arrays``) and the game `b`, then int64 scalars. Cards move only through
:func:`move_card`, which keeps the pointers (card_hex, card_holder, card_under, hex_troop,
troop_training) and the order of the face-down piles in step; :func:`conservation_error`
checks that every card is in exactly one place. Shuffles draw from the game's own RNG
(``S["rng"][b]``), so the same (seed, game index) gives the same piles whatever the batch.
"""

from __future__ import annotations

import numpy as np

from envs.core.deck import pile_push_top, pile_remove_at
from envs.core.jit import njit, njit_inline
from envs.core.rng import randint, seed_stream, shuffle_prefix
from envs.tactica.state import (
    BATTLE_DRAWN,
    BATTLE_NOT_PLAYED,
    FEATURE_LANDMARK,
    FEATURE_NONE,
    FEATURE_SPIRE,
    FEATURE_WALL,
    MAX_ARMY_CARDS,
    MAX_BATTLES_PER_WAR,
    MAX_HEXES,
    MAX_LANDMARK_CARDS,
    MAX_SUMMON_CARDS,
    MAX_WALLS,
    N_CARD_IDS,
    N_DRAW_PILES,
    N_PLACES,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_BATTLEFIELD,
    PLACE_HOSTAGE,
    PLACE_IN_PLAY,
    PLACE_LOST,
    PLACE_NONE,
    PLACE_RESUPPLY,
    PLACE_TACTICS_PILE,
    PLACE_TROOP_PILE,
    PLACE_UNDER,
    STAGE_SETUP,
    SUMMON_ASIDE,
    SUMMON_IN_SPIRE,
    SUMMON_LOST,
    SUMMON_ON_BATTLEFIELD,
)
from envs.tactica.tables import CARD_TACTICS, CARD_TRAINING, CARD_TROOP

RULES_STREAM = 0  # S["rng"]: shuffles, first player
AGENT_STREAM = 1  # S["agent_rng"]: agents playing inside kernels

# conservation_error codes: what is wrong first (0 = every card in exactly one place)
CONSERVED = 0
ERR_UNUSED_ID = 1  # an id past tb.n_army_cards has a place or a pointer
ERR_BAD_PLACE = 2  # a used card has no valid place
ERR_PILE_COUNT = 3  # a pile count outside 0..MAX_ARMY_CARDS, or a slot past it not -1
ERR_PILE_ENTRY = 4  # a pile slot holds a card of another owner, kind or place
ERR_PILE_MEMBERS = 5  # a card twice in a pile, or placed in a pile but not in it
ERR_POINTER = 6  # card_hex / card_holder / card_under set where its place has none
ERR_HEX = 7  # card_hex and hex_troop disagree
ERR_HOLDER = 8  # a hostage held by nobody or by its own owner
ERR_UNDER = 9  # training under a card that is not a troop on the battlefield, or counts off
ERR_KIND = 10  # a card in a place its kind cannot be (a tactics card on a hex...)
CONSERVATION_ERRORS = (
    "conserved",
    "unused card id in use",
    "card without a valid place",
    "pile count out of range",
    "wrong card in a pile",
    "pile membership",
    "pointer set for a place without one",
    "card_hex and hex_troop disagree",
    "bad hostage holder",
    "training cards under a troop",
    "card kind not allowed in its place",
)


# --- what a card id is ---------------------------------------------------------------------


@njit
def card_owner(card: int) -> int:
    """The player whose army card id `card` comes from (TT-B.1.3)."""
    return np.int64(card // MAX_ARMY_CARDS)


@njit
def card_name(tb, card: int) -> int:
    """The draw card (``Tables.card_names`` index) card id `card` is a copy of."""
    return np.int64(tb.army_card[card % MAX_ARMY_CARDS])


@njit
def card_pile(tb, card: int) -> int:
    """The pile (PILE_TROOP / PILE_TACTICS) card id `card` is shuffled into (TT-B.5.1)."""
    return np.int64(tb.card_pile[card_name(tb, card)])


@njit
def card_used(tb, card: int) -> bool:
    """Whether card id `card` names a card of the army (ids past n_army_cards are unused)."""
    return 0 <= card < N_CARD_IDS and card % MAX_ARMY_CARDS < tb.n_army_cards


# --- moving cards --------------------------------------------------------------------------


@njit_inline
def _leave(S, b: int, card: int) -> None:
    """Take `card` out of its place, keeping the pile order and the pointers in step."""
    place = S["card_place"][b, card]
    owner = card_owner(card)
    if place == PLACE_TROOP_PILE or place == PLACE_TACTICS_PILE:
        pile = S["pile"][b, owner, place]
        n = np.int64(S["pile_count"][b, owner, place])
        for i in range(n):
            if pile[i] == card:
                S["pile_count"][b, owner, place] = pile_remove_at(pile, n, i)
                break
    elif place == PLACE_BATTLEFIELD:
        if S["troop_training"][b, card] != 0:
            raise ValueError("move_card: move the training cards under a troop before the troop")
        S["hex_troop"][b, S["card_hex"][b, card]] = -1
        S["card_hex"][b, card] = -1
        S["troop_moved"][b, card] = False
        S["troop_fought"][b, card] = False
        S["troop_capturing"][b, card] = False
        S["troop_captured_last_turn"][b, card] = False
        if S["troop_betrayer"][b, card]:
            S["troop_betrayer"][b, card] = False
            for p in range(N_PLAYERS):
                if S["betrayer_token"][b, p] == card:
                    S["betrayer_token"][b, p] = -1  # the token returns to its player
    elif place == PLACE_HOSTAGE:
        S["card_holder"][b, card] = -1
    elif place == PLACE_UNDER:
        S["troop_training"][b, S["card_under"][b, card]] -= 1
        S["card_under"][b, card] = -1
    S["card_place"][b, card] = PLACE_NONE


@njit
def move_card(S, tb, b: int, card: int, place: int, where: int) -> None:
    """Move `card` to `place` (PLACE_*). `where` is the hex (PLACE_BATTLEFIELD), the holding
    seat (PLACE_HOSTAGE) or the troop card id (PLACE_UNDER), else ignored (-1). A card put
    in a pile goes on top; a card taken from a pile leaves the others in order. A troop
    moved from hex to hex keeps its training and flags; a troop leaving the battlefield must
    have no training cards under it. Raises ValueError on a move the places forbid."""
    if not card_used(tb, card):
        raise ValueError("move_card: unused card id")
    owner = card_owner(card)
    kind = tb.card_type[card_name(tb, card)]
    if place == PLACE_TROOP_PILE or place == PLACE_TACTICS_PILE:
        if card_pile(tb, card) != place:
            raise ValueError("move_card: a card goes only into the pile of its kind")
    elif place == PLACE_BATTLEFIELD:
        if kind != CARD_TROOP:
            raise ValueError("move_card: only troop cards stand on the battlefield")
        if where < 0 or where >= MAX_HEXES:
            raise ValueError("move_card: hex out of range")
        if S["hex_troop"][b, where] >= 0:
            raise ValueError("move_card: the hex already holds a troop")
        if S["card_place"][b, card] == PLACE_BATTLEFIELD:  # a move on the battlefield
            S["hex_troop"][b, S["card_hex"][b, card]] = -1
            S["hex_troop"][b, where] = card
            S["card_hex"][b, card] = where
            return
    elif place == PLACE_HOSTAGE:
        if kind != CARD_TROOP or where == owner or where < 0 or where >= N_PLAYERS:
            raise ValueError("move_card: a hostage is a troop card held by the other player")
    elif place == PLACE_UNDER:
        if kind != CARD_TRAINING or not card_used(tb, where):
            raise ValueError("move_card: a training card goes under a troop on the battlefield")
        if S["card_place"][b, where] != PLACE_BATTLEFIELD:
            raise ValueError("move_card: a training card goes under a troop on the battlefield")
        if S["troop_training"][b, where] >= tb.max_training:
            raise ValueError("move_card: the troop already has the most training (TT-B.3.4)")
    elif place == PLACE_IN_PLAY:
        if kind != CARD_TACTICS:
            raise ValueError("move_card: only tactics cards are played")
    elif place != PLACE_BARRACKS and place != PLACE_RESUPPLY and place != PLACE_LOST:
        raise ValueError("move_card: unknown place")
    _leave(S, b, card)
    if place == PLACE_TROOP_PILE or place == PLACE_TACTICS_PILE:
        S["pile_count"][b, owner, place] = pile_push_top(
            S["pile"][b, owner, place], S["pile_count"][b, owner, place], card
        )
    elif place == PLACE_BATTLEFIELD:
        S["card_hex"][b, card] = where
        S["hex_troop"][b, where] = card
    elif place == PLACE_HOSTAGE:
        S["card_holder"][b, card] = where
    elif place == PLACE_UNDER:
        S["card_under"][b, card] = where
        S["troop_training"][b, where] += 1
    S["card_place"][b, card] = place


@njit_inline
def draw_top(S, tb, b: int, p: int, pile: int, place: int, where: int) -> int:
    """Move the top card of player p's `pile` to `place` (move_card's `where`); returns its
    id, or -1 if the pile is empty (nothing moves; rebuilding is the caller's choice)."""
    n = S["pile_count"][b, p, pile]
    if n == 0:
        return np.int64(-1)
    card = np.int64(S["pile"][b, p, pile, n - 1])
    move_card(S, tb, b, card, place, where)
    return card


@njit_inline
def rebuild_pile(S, tb, b: int, p: int, pile: int) -> int:
    """TT-B.5.3: player p's empty `pile` is rebuilt from the cards of that pile's kind in
    p's RESUPPLY, shuffled with the game's RNG. Returns the pile's count (unchanged, and
    nothing moves, if the pile was not empty)."""
    if S["pile_count"][b, p, pile] > 0:
        return np.int64(S["pile_count"][b, p, pile])
    for k in range(tb.n_army_cards):
        card = p * MAX_ARMY_CARDS + k
        if S["card_place"][b, card] == PLACE_RESUPPLY and card_pile(tb, card) == pile:
            move_card(S, tb, b, card, pile, -1)
    n = np.int64(S["pile_count"][b, p, pile])
    shuffle_prefix(S["rng"], b, S["pile"][b, p, pile], n)
    return n


# --- counting ------------------------------------------------------------------------------


@njit
def place_count(S, tb, b: int, p: int, place: int) -> int:
    """Cards of player p's army in `place` (e.g. the Barracks size, the LOST pile's size)."""
    n = np.int64(0)
    for k in range(tb.n_army_cards):
        if S["card_place"][b, p * MAX_ARMY_CARDS + k] == place:
            n += 1
    return n


@njit_inline
def resupply_count(S, tb, b: int, p: int, pile: int) -> int:
    """Cards in player p's RESUPPLY that rebuild `pile` (TT-B.5.3)."""
    n = np.int64(0)
    for k in range(tb.n_army_cards):
        card = p * MAX_ARMY_CARDS + k
        if S["card_place"][b, card] == PLACE_RESUPPLY and card_pile(tb, card) == pile:
            n += 1
    return n


@njit
def hostage_count(S, b: int, p: int) -> int:
    """Enemy troop cards in player p's hostage pile (TT-B.5.5, TT-A.9.1, TT-B.8.3)."""
    n = np.int64(0)
    for card in range(N_CARD_IDS):
        if S["card_place"][b, card] == PLACE_HOSTAGE and S["card_holder"][b, card] == p:
            n += 1
    return n


@njit
def barracks_counts(S, tb, b: int, p: int, out: np.ndarray) -> int:
    """Player p's Barracks as the count vector decrees.py takes: out[c] (int64, length >=
    tb.n_cards) = copies of draw card c held. Returns the Barracks size."""
    for c in range(tb.n_cards):
        out[c] = 0
    n = np.int64(0)
    for k in range(tb.n_army_cards):
        if S["card_place"][b, p * MAX_ARMY_CARDS + k] == PLACE_BARRACKS:
            out[tb.army_card[k]] += 1
            n += 1
    return n


# --- the conservation invariant ------------------------------------------------------------


@njit
def conservation_error(S, tb, b: int) -> int:
    """First broken card invariant of game b (ERR_* code), CONSERVED if every used card is in
    exactly one place with its pointers in step (docstring of envs/tactica/state.py)."""
    in_pile = np.zeros(N_CARD_IDS, dtype=np.int64)
    for p in range(N_PLAYERS):
        for q in range(N_DRAW_PILES):
            n = S["pile_count"][b, p, q]
            if n < 0 or n > MAX_ARMY_CARDS:
                return ERR_PILE_COUNT
            for i in range(MAX_ARMY_CARDS):
                c = S["pile"][b, p, q, i]
                if i >= n:
                    if c != -1:
                        return ERR_PILE_COUNT
                    continue
                if not card_used(tb, c) or card_owner(c) != p or card_pile(tb, c) != q:
                    return ERR_PILE_ENTRY
                if S["card_place"][b, c] != q:
                    return ERR_PILE_ENTRY
                in_pile[c] += 1
    training = np.zeros(N_CARD_IDS, dtype=np.int64)
    for c in range(N_CARD_IDS):
        place = S["card_place"][b, c]
        hx = S["card_hex"][b, c]
        holder = S["card_holder"][b, c]
        under = S["card_under"][b, c]
        if not card_used(tb, c):
            if place != PLACE_NONE or hx != -1 or holder != -1 or under != -1:
                return ERR_UNUSED_ID
            continue
        if place < 0 or place >= N_PLACES:
            return ERR_BAD_PLACE
        kind = tb.card_type[card_name(tb, c)]
        if place == PLACE_TROOP_PILE or place == PLACE_TACTICS_PILE:
            if in_pile[c] != 1:
                return ERR_PILE_MEMBERS
        elif in_pile[c] != 0:
            return ERR_PILE_MEMBERS
        if (hx != -1) != (place == PLACE_BATTLEFIELD):
            return ERR_POINTER
        if (holder != -1) != (place == PLACE_HOSTAGE):
            return ERR_POINTER
        if (under != -1) != (place == PLACE_UNDER):
            return ERR_POINTER
        if place == PLACE_BATTLEFIELD:
            if kind != CARD_TROOP:
                return ERR_KIND
            if hx < 0 or hx >= MAX_HEXES or S["hex_troop"][b, hx] != c:
                return ERR_HEX
        elif place == PLACE_HOSTAGE:
            if kind != CARD_TROOP:
                return ERR_KIND
            if holder < 0 or holder >= N_PLAYERS or holder == card_owner(c):
                return ERR_HOLDER
        elif place == PLACE_UNDER:
            if kind != CARD_TRAINING:
                return ERR_KIND
            if not card_used(tb, under) or S["card_place"][b, under] != PLACE_BATTLEFIELD:
                return ERR_UNDER
            training[under] += 1
        elif place == PLACE_IN_PLAY:
            if kind != CARD_TACTICS:
                return ERR_KIND
    for h in range(MAX_HEXES):
        c = S["hex_troop"][b, h]
        if c != -1:
            if not card_used(tb, c) or S["card_place"][b, c] != PLACE_BATTLEFIELD:
                return ERR_HEX
            if S["card_hex"][b, c] != h:
                return ERR_HEX
    for c in range(N_CARD_IDS):
        if S["troop_training"][b, c] != training[c] or training[c] > tb.max_training:
            return ERR_UNDER
    return CONSERVED


@njit
def cards_in_one_place(S, tb, b: int) -> bool:
    """Whether every card of game b is in exactly one place (conservation_error == CONSERVED)."""
    return conservation_error(S, tb, b) == CONSERVED


# --- feature cards, spires and summons ----------------------------------------------------

# feature_error codes (0 = consistent)
FEATURES_CONSISTENT = 0
ERR_WALL = 1  # a wall card lost and placed, past n_walls, or its hex does not point back
ERR_LANDMARK = 2  # the same for a landmark card
ERR_SPIRE = 3  # spire cards, height, summon card places or the spire's hex disagree
ERR_SUMMON = 4  # the summon on the battlefield and hex_summon disagree
ERR_HEX_FEATURE = 5  # a hex names a feature its owner's arrays do not place there
ERR_HEX_SHARED = 6  # a troop on a wall or spire hex, or a troop and a summon on one hex
FEATURE_ERRORS = (
    "consistent",
    "wall card",
    "landmark card",
    "spire",
    "summon",
    "hex feature",
    "two things on one hex",
)


@njit
def _feature_at(S, b: int, h: int, kind: int, p: int, j: int) -> bool:
    return (
        S["hex_feature"][b, h] == kind
        and S["hex_feature_owner"][b, h] == p
        and S["hex_feature_card"][b, h] == j
    )


@njit_inline
def feature_error(S, tb, b: int) -> int:
    """First broken feature-card invariant of game b (ERR_* code above), FEATURES_CONSISTENT
    if every wall, landmark and summon card of each player is in one place (aside, on one
    hex that names it back, LOST, in the spire once, or the one summon on the battlefield)
    and no hex holds two things TT-B.2.4 forbids."""
    for p in range(N_PLAYERS):
        for w in range(MAX_WALLS):
            h = S["wall_hex"][b, p, w]
            if w >= tb.n_walls and (h != -1 or S["wall_lost"][b, p, w]):
                return ERR_WALL
            if h != -1 and (S["wall_lost"][b, p, w] or h < 0 or h >= MAX_HEXES):
                return ERR_WALL
            if h != -1 and not _feature_at(S, b, h, FEATURE_WALL, p, w):
                return ERR_WALL
        for j in range(MAX_LANDMARK_CARDS):
            h = S["landmark_hex"][b, p, j]
            if j >= tb.n_landmark_cards and (h != -1 or S["landmark_lost"][b, p, j]):
                return ERR_LANDMARK
            if h != -1 and (S["landmark_lost"][b, p, j] or h < 0 or h >= MAX_HEXES):
                return ERR_LANDMARK
            if h != -1 and not _feature_at(S, b, h, FEATURE_LANDMARK, p, j):
                return ERR_LANDMARK
        # spire: bottom..top, each summon card in it once and marked SUMMON_IN_SPIRE
        height = S["spire_height"][b, p]
        if height < 0 or height > tb.summon_cards:
            return ERR_SPIRE
        in_spire = np.zeros(MAX_SUMMON_CARDS, dtype=np.int64)
        for i in range(MAX_SUMMON_CARDS):
            sc = S["spire_card"][b, p, i]
            if i >= height:
                if sc != -1:
                    return ERR_SPIRE
                continue
            if sc < 0 or sc >= tb.summon_cards or S["summon_card_side"][b, p, sc] < 0:
                return ERR_SPIRE
            in_spire[sc] += 1
        on_field = -1
        for sc in range(MAX_SUMMON_CARDS):
            place = S["summon_card_place"][b, p, sc]
            if sc >= tb.summon_cards:
                if place != -1:
                    return ERR_SPIRE
                continue
            if in_spire[sc] != (1 if place == SUMMON_IN_SPIRE else 0):
                return ERR_SPIRE  # in the spire exactly when marked so, and only once
            if place == SUMMON_ON_BATTLEFIELD:
                if on_field != -1 or S["summon_card_side"][b, p, sc] < 0:
                    return ERR_SUMMON
                on_field = sc
            elif place != SUMMON_IN_SPIRE and place != SUMMON_ASIDE and place != SUMMON_LOST:
                return ERR_SPIRE
        h = S["spire_hex"][b, p]
        if h != -1 and (height == 0 or h < 0 or h >= MAX_HEXES):
            return ERR_SPIRE
        if h != -1 and not _feature_at(S, b, h, FEATURE_SPIRE, p, 0):
            return ERR_SPIRE
        if S["summon_card"][b, p] != on_field:
            return ERR_SUMMON
        h = S["summon_hex"][b, p]
        if (h != -1) != (on_field != -1):
            return ERR_SUMMON
        if h != -1 and (h < 0 or h >= MAX_HEXES or S["hex_summon"][b, h] != p):
            return ERR_SUMMON
    for h in range(MAX_HEXES):
        kind = S["hex_feature"][b, h]
        p = S["hex_feature_owner"][b, h]
        j = S["hex_feature_card"][b, h]
        if kind == FEATURE_NONE:
            if p != -1 or j != -1:
                return ERR_HEX_FEATURE
        elif p < 0 or p >= N_PLAYERS or j < 0:
            return ERR_HEX_FEATURE
        elif kind == FEATURE_WALL:
            if j >= MAX_WALLS or S["wall_hex"][b, p, j] != h:
                return ERR_HEX_FEATURE
        elif kind == FEATURE_LANDMARK:
            if j >= MAX_LANDMARK_CARDS or S["landmark_hex"][b, p, j] != h:
                return ERR_HEX_FEATURE
        elif kind == FEATURE_SPIRE:
            if j != 0 or S["spire_hex"][b, p] != h:
                return ERR_HEX_FEATURE
        else:
            return ERR_HEX_FEATURE
        q = S["hex_summon"][b, h]
        if q != -1 and (q < 0 or q >= N_PLAYERS or S["summon_hex"][b, q] != h):
            return ERR_SUMMON
        if S["hex_troop"][b, h] != -1:
            if q != -1 or kind == FEATURE_WALL or kind == FEATURE_SPIRE:
                return ERR_HEX_SHARED
    return FEATURES_CONSISTENT


# --- battles and the war -------------------------------------------------------------------


@njit
def start_battle(S, tb, b: int) -> None:
    """Start the next battle of the war (battle 1 after reset_war).

    TT-B.9.2 for draw cards: a betrayer goes to its owner's LOST pile (TT-A.9.5); every other
    draw card not LOST (Barracks, RESUPPLY, in play, on the battlefield, under a troop,
    hostages) returns to its owner. TT-B.6.2: each player's troop pile and tactics pile are
    all their draw cards not LOST, shuffled; Barracks, RESUPPLY and hostage piles are empty.
    TT-B.9.2-9.3 for feature cards: walls and landmark cards not LOST are taken back off the
    battlefield; a summon on the battlefield goes back on top of its spire with the same
    side up; the spire keeps its cards and is placed again at deployment. The battle opens
    in STAGE_SETUP with turn 0; TT-B.6.3: the first player of battle 1, or after a drawn
    battle, is drawn at random, else the loser of the previous battle is asked (current) and
    first_player holds them until the setup kernels let them choose."""
    # betrayers first: the only draw cards that a battle's end sends to LOST (TT-A.9.5)
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] == PLACE_BATTLEFIELD and S["troop_betrayer"][b, c]:
            S["card_place"][b, c] = PLACE_LOST
    for p in range(N_PLAYERS):
        for q in range(N_DRAW_PILES):
            S["pile"][b, p, q, :] = -1
            S["pile_count"][b, p, q] = 0
    for c in range(N_CARD_IDS):
        S["card_hex"][b, c] = -1
        S["card_holder"][b, c] = -1
        S["card_under"][b, c] = -1
        S["troop_training"][b, c] = 0
        S["troop_betrayer"][b, c] = False
        S["troop_moved"][b, c] = False
        S["troop_fought"][b, c] = False
        S["troop_capturing"][b, c] = False
        S["troop_captured_last_turn"][b, c] = False
        if not card_used(tb, c) or S["card_place"][b, c] == PLACE_LOST:
            continue
        q = card_pile(tb, c)
        p = card_owner(c)
        S["card_place"][b, c] = q
        S["pile_count"][b, p, q] = pile_push_top(S["pile"][b, p, q], S["pile_count"][b, p, q], c)
    for p in range(N_PLAYERS):
        for q in range(N_DRAW_PILES):
            shuffle_prefix(S["rng"], b, S["pile"][b, p, q], S["pile_count"][b, p, q])
        S["betrayer_token"][b, p] = -1
        # feature cards back off the battlefield (TT-B.9.2); LOST ones stay lost
        for w in range(MAX_WALLS):
            S["wall_hex"][b, p, w] = -1
        for j in range(MAX_LANDMARK_CARDS):
            S["landmark_hex"][b, p, j] = -1
        # TT-B.9.3: the summon goes back on top of its spire, same side up
        s = S["summon_card"][b, p]
        if s >= 0:
            h = S["spire_height"][b, p]
            S["spire_card"][b, p, h] = s
            S["spire_height"][b, p] = h + 1
            S["summon_card_place"][b, p, s] = SUMMON_IN_SPIRE
        S["summon_card"][b, p] = -1
        S["summon_hex"][b, p] = -1
        S["spire_hex"][b, p] = -1
        S["summon_moved"][b, p] = False
        S["summon_fought"][b, p] = False
        S["sacrifices_made"][b, p] = 0
        S["muster_actions_left"][b, p] = 0
        S["decree_enacted"][b, p] = -1
        S["no_cards"][b, p] = False
        S["no_combat"][b, p] = False
        S["no_movement"][b, p] = False
        S["betrayal_muster"][b, p] = False
    for h in range(MAX_HEXES):
        S["hex_feature"][b, h] = FEATURE_NONE
        S["hex_feature_owner"][b, h] = -1
        S["hex_feature_card"][b, h] = -1
        S["hex_troop"][b, h] = -1
        S["hex_summon"][b, h] = -1
    battle = S["battle"][b] + 1
    S["battle"][b] = battle
    S["turn"][b] = 0
    S["phase"][b] = -1
    S["stage"][b] = STAGE_SETUP
    previous = BATTLE_DRAWN if battle == 1 else S["battle_result"][b, battle - 2]
    if previous == BATTLE_DRAWN:
        first = randint(S["rng"], b, N_PLAYERS)
    else:
        first = N_PLAYERS - 1 - previous  # the loser chooses (TT-B.6.3)
    S["first_player"][b] = first
    S["current"][b] = first


@njit_inline
def reset_war(S, tb, b: int, seed: int, game_index: int) -> None:
    """A new war in slot b: seed the rules and agent RNGs from (seed, game_index)
    (envs/core/rng.seed_stream), no LOST cards, no spire, no war points, then start battle 1.
    `S["advanced"][b]` is an option of the env, set before and kept."""
    seed_stream(S["rng"], b, seed, game_index, RULES_STREAM)
    seed_stream(S["agent_rng"], b, seed, game_index, AGENT_STREAM)
    S["game_index"][b] = game_index
    S["num_players"][b] = N_PLAYERS
    for c in range(N_CARD_IDS):
        # start_battle gathers every card not LOST into its pile; unused ids stay nowhere
        S["card_place"][b, c] = PLACE_RESUPPLY if card_used(tb, c) else PLACE_NONE
        # the balance option "armies=varied" (not a rule, envs/tactica/ruleset.py): each draw
        # card is LOST before battle 1 with probability lost_at_start / 1000, so armies differ
        if tb.lost_at_start > 0 and card_used(tb, c):
            if randint(S["rng"], b, 1000) < tb.lost_at_start:
                S["card_place"][b, c] = PLACE_LOST
    for p in range(N_PLAYERS):
        S["war_points"][b, p] = 0
        S["rewards"][b, p] = 0.0
        S["army"][b, p, :] = 0
        for k in range(tb.n_army_cards):
            if S["card_place"][b, p * MAX_ARMY_CARDS + k] != PLACE_LOST:
                S["army"][b, p, tb.army_card[k]] += 1
        for w in range(MAX_WALLS):
            S["wall_lost"][b, p, w] = False
        for j in range(MAX_LANDMARK_CARDS):
            S["landmark_side"][b, p, j] = 0
            S["landmark_lost"][b, p, j] = False
        for s in range(MAX_SUMMON_CARDS):
            S["summon_card_place"][b, p, s] = SUMMON_ASIDE if s < tb.summon_cards else -1
            S["summon_card_side"][b, p, s] = -1
            S["spire_card"][b, p, s] = -1
        S["spire_height"][b, p] = 0
        S["summon_card"][b, p] = -1
    for k in range(MAX_BATTLES_PER_WAR):
        S["battle_result"][b, k] = BATTLE_NOT_PLAYED
    S["winner"][b] = -1
    S["decisions"][b] = 0
    S["battle"][b] = 0
    # turn-scoped fields the phase kernels set before they read them: cleared here too, so
    # a slot reused for a new war is the same bit for bit as a fresh one (the AEC env and
    # BatchEnv's auto-reset reuse slots)
    S["card_window"][b] = 0
    S["combat_players_done"][b] = 0
    for p in range(N_PLAYERS):
        S["combat_sacrifice"][b, p] = -1
        S["move_sacrifice"][b, p] = -1
        S["hand_shown"][b, p] = False
        S["shown_counts"][b, p, :] = 0
    start_battle(S, tb, b)


# --- Recruitment (TT-B.7.1) ----------------------------------------------------------------


@njit
def recruit_piles_available(S, tb, b: int, p: int, out: np.ndarray) -> int:
    """Which piles player p may draw from now in Recruitment (TT-B.7.1): out[pile] (bool,
    length >= 2) is set when p's Barracks holds fewer than tb.barracks_limit cards and that
    pile, or the RESUPPLY that rebuilds it (TT-B.5.3), has a card. Returns how many; 0 means
    p's Recruitment is over."""
    room = place_count(S, tb, b, p, PLACE_BARRACKS) < tb.barracks_limit
    n = np.int64(0)
    for q in range(N_DRAW_PILES):
        ok = room and (S["pile_count"][b, p, q] > 0 or resupply_count(S, tb, b, p, q) > 0)
        out[q] = ok
        if ok:
            n += 1
    return n


@njit
def recruit_draw(S, tb, b: int, p: int, pile: int) -> int:
    """TT-B.7.1: player p draws one card from `pile` into the Barracks, rebuilding the pile
    from RESUPPLY first when it is empty (TT-B.5.3). Returns the card id, or -1 (nothing
    changes) when the Barracks already holds tb.barracks_limit cards or the pile and its
    RESUPPLY are both empty."""
    if place_count(S, tb, b, p, PLACE_BARRACKS) >= tb.barracks_limit:
        return np.int64(-1)
    if S["pile_count"][b, p, pile] == 0:
        if rebuild_pile(S, tb, b, p, pile) == 0:
            return np.int64(-1)
    return draw_top(S, tb, b, p, pile, PLACE_BARRACKS, -1)
