"""TACTICA Recruitment and Mustering as numba kernels (docs/rules/tactica.md TT-B.7.1,
TT-B.7.2, TT-B.3.5, TT-B.4.5, TT-B.4.9, TT-A.5.2-5.4, TT-A.9.2, TT-A.10.6-10.8).

The chapter convention (begin_/legal_/apply_, see envs/tactica/actions.py for the stages):
in each phase the turn's first player takes all their actions, then the other player
(TT-B.7.0.2, I9). A decision with a single legal action is taken automatically (as TAC
does): a Recruitment with one pile to draw from, a Mustering with nothing but A_PASS left.

Encodings of this chapter (actions.py fixes the layout; these are their meanings here):

    stage                 action            meaning
    STAGE_RECRUIT         A_PILE + k        draw the top card of pile k (0 troop, 1 tactics)
    STAGE_MUSTER          A_HEX + h         muster the top summon card of one's complete
                                            spire standing on hex h (TT-A.10.6)
                          A_CARD + n        play Barracks card name n: a troop (-> MUSTER_HEX),
                                            Training (-> TRAIN_TROOP), Spy (-> SPY_PICK),
                                            Crown (-> CROWN_PICK); the lowest id of that
                                            name is the copy used (copies are identical)
                          A_DECREE + d      d = the BETRAYAL! decree: muster a betrayer
                                            (TT-A.9.2, -> BETRAYER_PICK)
                          A_PASS            end one's Mustering (the rest of the 3 actions
                                            are given up)
    STAGE_MUSTER_HEX      A_HEX + h         the hex the troop / betrayer / summon goes to
    STAGE_TRAIN_TROOP     A_HEX + h         the troop (on hex h) the training card goes under
    STAGE_SPY_PICK        A_CARD + n        a card name in the opponent's Barracks: the
                                            opponent sends one copy to RESUPPLY
    STAGE_CROWN_PICK      A_CARD + n        a troop name of one's own hostages: one copy back
                                            into one's Barracks
    STAGE_BETRAYER_PICK   A_CARD + n        a troop name among the hostages one holds
    STAGE_MUSTER_NEGATE   A_CARD + n        (37, this module's) the opponent answers a Spy or
                                            Crown with Negate (n = Negate), or A_PASS
                                            (TT-B.4.7); asked whatever their Barracks holds,
                                            closed only by TACTICA! against them (TT-A.5.2)

A muster action is spent when it is chosen at STAGE_MUSTER; an option is listed only when
its follow-up decision has a legal action, so no follow-up list is ever empty.

STAGE_MUSTER_NEGATE lies in Mustering's 30-39 block and is defined here, not in the shared
actions.py; `current` is the answering opponent while it is asked.

Observation chapter: STAGE_SPY_PICK's legal list names the opponent's Barracks card names;
the picker may see the opponent's Barracks during that decision only (TT-B.4.5).

Seats here are state.py's 0 and 1; battlefield.py's unit_owner arrays use seat + 1.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.actions import (
    A_CARD,
    A_DECREE,
    A_HEX,
    A_PASS,
    A_PILE,
    STAGE_BETRAYER_PICK,
    STAGE_CROWN_PICK,
    STAGE_MUSTER,
    STAGE_MUSTER_HEX,
    STAGE_RECRUIT,
    STAGE_SPY_PICK,
    STAGE_TRAIN_TROOP,
)
from envs.tactica.piles import (
    card_name,
    card_owner,
    move_card,
    recruit_draw,
    recruit_piles_available,
)
from envs.tactica.state import (
    FEATURE_LANDMARK,
    FEATURE_NONE,
    FEATURE_WALL,
    MAX_ARMY_CARDS,
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_BATTLEFIELD,
    PLACE_HOSTAGE,
    PLACE_IN_PLAY,
    PLACE_RESUPPLY,
    PLACE_UNDER,
    STAGE_PHASE_DONE,
    SUMMON_ASIDE,
    SUMMON_ON_BATTLEFIELD,
)
from envs.tactica.tables import (
    CARD_TACTICS,
    CARD_TRAINING,
    CARD_TROOP,
    DECREE_MUSTER_BETRAYER,
    EFFECT_NEGATE_CARD,
    EFFECT_RANSOM_HOSTAGE,
    EFFECT_SPY_DISCARD,
    PHASE_MUSTERING,
    PHASE_RECRUITMENT,
    TIMING_MUSTER,
)

# S["muster_kind"]: what the pending muster action places at STAGE_MUSTER_HEX
MUSTER_NONE = -1
MUSTER_TROOP = 0  # a troop card from the Barracks (TT-B.7.2.2)
MUSTER_SUMMON = 1  # the top summon card of the spire (TT-A.10.6)
MUSTER_BETRAYER = 2  # an enemy hostage as a betrayer (TT-A.9.2)
MUSTER_CARD = 3  # a Spy or Crown played, waiting for the Negate window (TT-B.4.7)

STAGE_MUSTER_NEGATE = 37  # the opponent may Negate the muster card just played (this chapter's)


# --- small facts shared with movement.py ------------------------------------------------------


@njit
def troop_seat(S, b: int, card: int) -> int:
    """The seat a troop on the battlefield fights for: its owner, or the other seat for a
    betrayer (TT-A.9.3: "the player's troop for the rest of this battle")."""
    owner = card_owner(card)
    if S["troop_betrayer"][b, card]:
        return np.int64(N_PLAYERS - 1 - owner)
    return owner


@njit
def hex_blocks(S, tb, b: int, h: int) -> bool:
    """Hex h holds a landmark whose face-up side has BLOCK (TT-B.2.7)."""
    if S["hex_feature"][b, h] != FEATURE_LANDMARK:
        return False
    p = S["hex_feature_owner"][b, h]
    j = S["hex_feature_card"][b, h]
    return tb.landmark_block[tb.army_landmark[j], S["landmark_side"][b, p, j]] != 0


@njit
def troops_of(S, b: int, p: int) -> int:
    """Troops fighting for seat p on the battlefield (the 10-troop cap, TT-B.7.2.2; a betrayer
    counts for the player it fights for)."""
    n = np.int64(0)
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] == PLACE_BATTLEFIELD and troop_seat(S, b, c) == p:
            n += 1
    return n


@njit
def _next_to_own_wall(S, neighbours: np.ndarray, b: int, h: int, p: int) -> bool:
    """Hex h is adjacent to a wall card of seat p (TT-B.3.5, TT-B.7.2.2)."""
    for k in range(neighbours.shape[1]):
        y = neighbours[h, k]
        if y >= 0 and S["hex_feature"][b, y] == FEATURE_WALL and S["hex_feature_owner"][b, y] == p:
            return True
    return False


@njit_inline
def _troop_may_stand(S, tb, b: int, h: int) -> bool:
    """Hex h holds no troop or summon, and no feature but a landmark without BLOCK (TT-B.2.4)."""
    if S["hex_troop"][b, h] >= 0 or S["hex_summon"][b, h] >= 0:
        return False
    kind = S["hex_feature"][b, h]
    return kind == FEATURE_NONE or (kind == FEATURE_LANDMARK and not hex_blocks(S, tb, b, h))


@njit
def _muster_hex_ok(S, tb, neighbours: np.ndarray, b: int, h: int, p: int, kind: int) -> bool:
    """Hex h may receive p's pending muster of `kind`."""
    if kind == MUSTER_SUMMON:
        # TT-A.10.6/10.8: adjacent to the spire's hex; a summon ends on no feature (TT-A.11.5)
        spire = S["spire_hex"][b, p]
        if S["hex_feature"][b, h] != FEATURE_NONE:
            return False
        if S["hex_troop"][b, h] >= 0 or S["hex_summon"][b, h] >= 0:
            return False
        for k in range(neighbours.shape[1]):
            if neighbours[h, k] == spire:
                return True
        return False
    # TT-B.7.2.2, TT-A.9.2: an empty hex adjacent to a friendly wall card
    return _troop_may_stand(S, tb, b, h) and _next_to_own_wall(S, neighbours, b, h, p)


@njit
def _any_muster_hex(S, tb, neighbours: np.ndarray, b: int, p: int, kind: int) -> bool:
    for h in range(MAX_HEXES):
        if _muster_hex_ok(S, tb, neighbours, b, h, p, kind):
            return True
    return False


@njit
def _trainable(S, tb, neighbours: np.ndarray, b: int, h: int, p: int) -> bool:
    """TT-B.7.2.3, TT-B.3.4-3.5: hex h holds p's own troop card (R35: not a betrayer), below
    the most training, adjacent to a friendly wall card."""
    c = S["hex_troop"][b, h]
    if c < 0 or card_owner(c) != p or S["troop_betrayer"][b, c]:
        return False
    if S["troop_training"][b, c] >= tb.max_training:
        return False
    return _next_to_own_wall(S, neighbours, b, h, p)


@njit_inline
def spire_complete(S, tb, b: int, p: int) -> bool:
    """TT-A.10.5 (R33): p's spire stands and every summon card of p not LOST has been stacked
    (none is still aside); it stays so while cards leave it by mustering."""
    if S["spire_hex"][b, p] < 0 or S["spire_height"][b, p] <= 0:
        return False
    for s in range(tb.summon_cards):
        if S["summon_card_place"][b, p, s] == SUMMON_ASIDE:
            return False
    return True


@njit
def _summon_ready(S, tb, neighbours: np.ndarray, b: int, p: int) -> bool:
    """TT-A.10.6-10.7: p may muster a summon now (complete spire, none of p's on the field)."""
    if S["summon_card"][b, p] >= 0 or not spire_complete(S, tb, b, p):
        return False
    return _any_muster_hex(S, tb, neighbours, b, p, MUSTER_SUMMON)


@njit
def _first_card(S, tb, b: int, p: int, place: int, holder: int, name: int) -> int:
    """Lowest id of p's army of draw card `name` in `place` (held by `holder` for hostages),
    -1 if none."""
    for k in range(tb.n_army_cards):
        c = p * MAX_ARMY_CARDS + k
        if S["card_place"][b, c] != place or tb.army_card[k] != name:
            continue
        if place == PLACE_HOSTAGE and S["card_holder"][b, c] != holder:
            continue
        return np.int64(c)
    return np.int64(-1)


@njit_inline
def _betrayal_decree(tb) -> int:
    for d in range(tb.n_decrees):
        if tb.decree_effect[d] == DECREE_MUSTER_BETRAYER:
            return np.int64(d)
    return np.int64(-1)


@njit
def _negate_name(tb) -> int:
    """The draw card that counters a tactics card (Negate, TT-B.4.7), -1 if none."""
    for name in range(tb.n_cards):
        if tb.card_type[name] == CARD_TACTICS:
            if tb.tactic_effect[tb.card_tactic[name]] == EFFECT_NEGATE_CARD:
                return np.int64(name)
    return np.int64(-1)


@njit
def _pick_stage(tb, card: int) -> int:
    """The decision that carries out the played muster card (Spy or Crown)."""
    if tb.tactic_effect[tb.card_tactic[card_name(tb, card)]] == EFFECT_SPY_DISCARD:
        return np.int64(STAGE_SPY_PICK)
    return np.int64(STAGE_CROWN_PICK)


@njit
def next_player(S, b: int) -> bool:
    """The current player has finished the phase: hand it to the other player if the first
    player just finished (TT-B.7.0.2); returns False when both have finished."""
    p = S["current"][b]
    if p == S["first_player"][b]:
        S["current"][b] = N_PLAYERS - 1 - p
        return True
    return False


# --- Recruitment (TT-B.7.1) -------------------------------------------------------------------


@njit
def _recruit_next(S, tb, b: int) -> None:
    """Draw automatically while only one pile is open; ask when both are (TT-B.7.1)."""
    open_piles = np.zeros(2, dtype=np.bool_)
    while True:
        p = np.int64(S["current"][b])
        n = recruit_piles_available(S, tb, b, p, open_piles)
        if n == 2:
            S["stage"][b] = STAGE_RECRUIT
            return
        if n == 1:
            recruit_draw(S, tb, b, p, np.int64(0 if open_piles[0] else 1))
            continue
        if not next_player(S, b):
            S["stage"][b] = STAGE_PHASE_DONE
            return


@njit_inline
def begin_recruitment(S, tb, b: int) -> None:
    """Start the Recruitment phase of game b with the turn's first player."""
    S["phase"][b] = PHASE_RECRUITMENT
    S["current"][b] = S["first_player"][b]
    _recruit_next(S, tb, b)


@njit_inline
def legal_recruitment(S, tb, b: int, out: np.ndarray) -> int:
    """STAGE_RECRUIT: A_PILE + k for each pile the current player may draw from."""
    open_piles = np.zeros(2, dtype=np.bool_)
    recruit_piles_available(S, tb, b, np.int64(S["current"][b]), open_piles)
    n = 0
    for q in range(2):
        if open_piles[q]:
            out[n] = A_PILE + q
            n += 1
    return np.int64(n)


@njit_inline
def apply_recruitment(S, tb, b: int, a: int) -> None:
    """Draw from pile a - A_PILE, then the next draw (or the next player, or the end)."""
    recruit_draw(S, tb, b, np.int64(S["current"][b]), np.int64(a - A_PILE))
    _recruit_next(S, tb, b)


# --- Mustering (TT-B.7.2) ---------------------------------------------------------------------


@njit
def _muster_options(S, tb, neighbours: np.ndarray, b: int, p: int, out: np.ndarray) -> int:
    """STAGE_MUSTER's legal actions for seat p, increasing, A_PASS last."""
    n = 0
    opp = N_PLAYERS - 1 - p
    # TT-A.10.6-10.8: the spire's summon (not a card from the hand: TACTICA! allows it, TT-A.5.4)
    if _summon_ready(S, tb, neighbours, b, p):
        out[n] = A_HEX + S["spire_hex"][b, p]
        n += 1
    if not S["no_cards"][b, p]:  # TT-A.5.2: TACTICA! forbids playing cards from the hand
        room = troops_of(S, b, p) < tb.max_troops_on_battlefield
        troop_hex = room and _any_muster_hex(S, tb, neighbours, b, p, MUSTER_TROOP)
        train_ok = False
        for h in range(MAX_HEXES):
            if _trainable(S, tb, neighbours, b, h, p):
                train_ok = True
                break
        opp_hand = False
        own_hostage = False
        for c in range(N_CARD_IDS):
            if card_owner(c) == opp and S["card_place"][b, c] == PLACE_BARRACKS:
                opp_hand = True
            if (
                card_owner(c) == p
                and S["card_place"][b, c] == PLACE_HOSTAGE
                and S["card_holder"][b, c] == opp
            ):
                own_hostage = True
        for name in range(tb.n_cards):
            if _first_card(S, tb, b, p, PLACE_BARRACKS, -1, name) < 0:
                continue
            kind = tb.card_type[name]
            ok = False
            if kind == CARD_TROOP:
                ok = troop_hex
            elif kind == CARD_TRAINING:
                ok = train_ok
            elif kind == CARD_TACTICS:
                t = tb.card_tactic[name]
                if tb.tactic_timing[t] == TIMING_MUSTER:
                    if tb.tactic_effect[t] == EFFECT_SPY_DISCARD:
                        ok = opp_hand  # TT-B.4.5
                    elif tb.tactic_effect[t] == EFFECT_RANSOM_HOSTAGE:
                        ok = own_hostage  # TT-B.4.9
            if ok:
                out[n] = A_CARD + name
                n += 1
    # TT-A.9.2: one betrayer per BETRAYAL! (a hostage, not a card from the hand, R34)
    d = _betrayal_decree(tb)
    if (
        d >= 0
        and S["betrayal_muster"][b, p]
        and S["betrayer_token"][b, p] < 0
        and troops_of(S, b, p) < tb.max_troops_on_battlefield
        and _any_muster_hex(S, tb, neighbours, b, p, MUSTER_BETRAYER)
    ):
        for c in range(N_CARD_IDS):
            if S["card_place"][b, c] == PLACE_HOSTAGE and S["card_holder"][b, c] == p:
                out[n] = A_DECREE + d
                n += 1
                break
    out[n] = A_PASS
    return np.int64(n + 1)


@njit
def _muster_next(S, tb, neighbours: np.ndarray, b: int) -> None:
    """Ask the current player's next muster action, or move on (TT-B.7.0.2, TT-B.7.2.1); a
    player with actions left but nothing to do but pass passes automatically."""
    S["muster_kind"][b] = MUSTER_NONE
    S["muster_card"][b] = -1
    buf = np.empty(A_PASS + 1, dtype=np.int16)
    while True:
        p = np.int64(S["current"][b])
        if S["muster_actions_left"][b, p] > 0 and _muster_options(S, tb, neighbours, b, p, buf) > 1:
            S["stage"][b] = STAGE_MUSTER
            return
        S["muster_actions_left"][b, p] = 0
        if not next_player(S, b):
            S["stage"][b] = STAGE_PHASE_DONE
            return


@njit_inline
def begin_mustering(S, tb, neighbours: np.ndarray, b: int) -> None:
    """Start the Mustering phase of game b: each player gets tb.muster_actions actions
    (TT-B.7.2.1), the first player acts first. neighbours: geo.neighbours[bf]."""
    S["phase"][b] = PHASE_MUSTERING
    for p in range(N_PLAYERS):
        S["muster_actions_left"][b, p] = tb.muster_actions
    S["current"][b] = S["first_player"][b]
    _muster_next(S, tb, neighbours, b)


@njit_inline
def legal_mustering(S, tb, neighbours: np.ndarray, b: int, out: np.ndarray) -> int:
    """The legal actions of game b's current Mustering decision, increasing, into out[:n]."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    opp = N_PLAYERS - 1 - p
    if stage == STAGE_MUSTER:
        return _muster_options(S, tb, neighbours, b, p, out)
    n = 0
    if stage == STAGE_MUSTER_HEX:
        kind = np.int64(S["muster_kind"][b])
        for h in range(MAX_HEXES):
            if _muster_hex_ok(S, tb, neighbours, b, h, p, kind):
                out[n] = A_HEX + h
                n += 1
    elif stage == STAGE_TRAIN_TROOP:
        for h in range(MAX_HEXES):
            if _trainable(S, tb, neighbours, b, h, p):
                out[n] = A_HEX + h
                n += 1
    elif stage == STAGE_MUSTER_NEGATE:  # TT-B.4.7: asked whatever the Barracks holds
        neg = _negate_name(tb)
        if neg >= 0 and _first_card(S, tb, b, p, PLACE_BARRACKS, -1, neg) >= 0:
            out[n] = A_CARD + neg
            n += 1
        out[n] = A_PASS
        n += 1
    elif stage == STAGE_SPY_PICK or stage == STAGE_CROWN_PICK or stage == STAGE_BETRAYER_PICK:
        for name in range(tb.n_cards):
            if stage == STAGE_SPY_PICK:
                c = _first_card(S, tb, b, opp, PLACE_BARRACKS, -1, name)
            elif stage == STAGE_CROWN_PICK:
                c = _first_card(S, tb, b, p, PLACE_HOSTAGE, opp, name)
            else:
                c = _first_card(S, tb, b, opp, PLACE_HOSTAGE, p, name)
            if c >= 0:
                out[n] = A_CARD + name
                n += 1
    return np.int64(n)


@njit_inline
def _place_summon(S, tb, b: int, p: int, h: int) -> None:
    """TT-A.10.6-10.8: the spire's top card becomes p's summon on hex h (its face-up side is
    the summon); taking the bottom card leaves the spire gone and its hex empty."""
    height = S["spire_height"][b, p]
    s = S["spire_card"][b, p, height - 1]
    S["spire_card"][b, p, height - 1] = -1
    S["spire_height"][b, p] = height - 1
    S["summon_card_place"][b, p, s] = SUMMON_ON_BATTLEFIELD
    S["summon_card"][b, p] = s
    S["summon_hex"][b, p] = h
    S["hex_summon"][b, h] = p
    S["summon_moved"][b, p] = False
    S["summon_fought"][b, p] = False
    if height == 1:
        spire = S["spire_hex"][b, p]
        S["hex_feature"][b, spire] = FEATURE_NONE
        S["hex_feature_owner"][b, spire] = -1
        S["hex_feature_card"][b, spire] = -1
        S["spire_hex"][b, p] = -1


@njit
def apply_mustering(S, tb, neighbours: np.ndarray, b: int, a: int) -> None:
    """Apply legal action a to game b's current Mustering decision, then ask the next one."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    opp = N_PLAYERS - 1 - p
    if stage == STAGE_MUSTER:
        if a == A_PASS:  # the player gives up their remaining muster actions
            S["muster_actions_left"][b, p] = 0
            _muster_next(S, tb, neighbours, b)
            return
        S["muster_actions_left"][b, p] -= 1  # TT-B.7.2.1: this is one muster action
        if a < A_CARD:  # the spire's hex: muster its summon (TT-A.10.6)
            S["muster_kind"][b] = MUSTER_SUMMON
            S["stage"][b] = STAGE_MUSTER_HEX
        elif a >= A_DECREE:  # BETRAYAL! (TT-A.9.2): one betrayer per decree
            S["betrayal_muster"][b, p] = False
            S["stage"][b] = STAGE_BETRAYER_PICK
        else:
            name = np.int64(a - A_CARD)
            card = _first_card(S, tb, b, p, PLACE_BARRACKS, -1, name)
            kind = tb.card_type[name]
            S["muster_card"][b] = card
            if kind == CARD_TROOP:
                S["muster_kind"][b] = MUSTER_TROOP
                S["stage"][b] = STAGE_MUSTER_HEX
            elif kind == CARD_TRAINING:
                S["stage"][b] = STAGE_TRAIN_TROOP
            else:  # a muster card is played (TT-B.4.1); Resolution sends it home (TT-B.7.5)
                move_card(S, tb, b, card, PLACE_IN_PLAY, -1)
                S["muster_kind"][b] = MUSTER_CARD
                if S["no_cards"][b, opp] or _negate_name(tb) < 0:
                    S["stage"][b] = _pick_stage(tb, card)  # TT-A.5.2: no Negate to answer
                else:  # TT-B.4.7: the opponent may answer it at once
                    S["current"][b] = opp
                    S["stage"][b] = STAGE_MUSTER_NEGATE
        return
    if stage == STAGE_MUSTER_NEGATE:
        card = np.int64(S["muster_card"][b])
        S["current"][b] = card_owner(card)  # the muster goes on with the card's player
        if a == A_PASS:
            S["stage"][b] = _pick_stage(tb, card)
            return
        # TT-B.4.7: Negate is played; the cancelled card goes to its owner's RESUPPLY at once
        negate = _first_card(S, tb, b, p, PLACE_BARRACKS, -1, np.int64(a - A_CARD))
        move_card(S, tb, b, negate, PLACE_IN_PLAY, -1)
        move_card(S, tb, b, card, PLACE_RESUPPLY, -1)
        _muster_next(S, tb, neighbours, b)
        return
    if stage == STAGE_MUSTER_HEX:
        h = np.int64(a - A_HEX)
        kind = S["muster_kind"][b]
        if kind == MUSTER_SUMMON:
            _place_summon(S, tb, b, p, h)
        else:
            card = np.int64(S["muster_card"][b])
            move_card(S, tb, b, card, PLACE_BATTLEFIELD, h)  # TT-B.7.2.2
            if kind == MUSTER_BETRAYER:  # TT-A.9.2: untrained, with p's BETRAYER token
                S["troop_betrayer"][b, card] = True
                S["betrayer_token"][b, p] = card
    elif stage == STAGE_TRAIN_TROOP:  # TT-B.7.2.3
        troop = np.int64(S["hex_troop"][b, a - A_HEX])
        move_card(S, tb, b, np.int64(S["muster_card"][b]), PLACE_UNDER, troop)
    elif stage == STAGE_SPY_PICK:  # TT-B.4.5: the opponent sends the chosen card to RESUPPLY
        card = _first_card(S, tb, b, opp, PLACE_BARRACKS, -1, np.int64(a - A_CARD))
        move_card(S, tb, b, card, PLACE_RESUPPLY, -1)
    elif stage == STAGE_CROWN_PICK:  # TT-B.4.9: ransom one's own hostage into the Barracks
        card = _first_card(S, tb, b, p, PLACE_HOSTAGE, opp, np.int64(a - A_CARD))
        move_card(S, tb, b, card, PLACE_BARRACKS, -1)
    elif stage == STAGE_BETRAYER_PICK:  # TT-A.9.2: which hostage turns
        S["muster_card"][b] = _first_card(S, tb, b, opp, PLACE_HOSTAGE, p, np.int64(a - A_CARD))
        S["muster_kind"][b] = MUSTER_BETRAYER
        S["stage"][b] = STAGE_MUSTER_HEX
        return
    _muster_next(S, tb, neighbours, b)
