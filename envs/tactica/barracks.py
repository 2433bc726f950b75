"""TACTICA start of turn and the advanced Barracks phase as numba kernels (docs/rules/tactica.md
TT-B.8.4, TT-A.4.1-4.6, TT-A.5, TT-A.6, TT-A.7, TT-A.8, TT-A.9.1, TT-A.10.1-10.4).

The chapter convention (begin_/legal_/apply_, see envs/tactica/actions.py for the stages). A
turn starts with the surrender round (TT-B.8.4, both games): the first player, then the other,
may forfeit the battle (R47). In the advanced game the decree round follows (TT-A.4.1, 4.3):
the first player enacts at most one decree or passes, then the other. S["phase"] is
PHASE_BARRACKS during both rounds (the basic game's surrender round is the start of its turn).

    stage                  action          meaning
    STAGE_SURRENDER        A_PASS          fight on
                           A_SURRENDER     forfeit the battle: the opponent wins it (TT-B.8.4)
    STAGE_DECREE           A_DECREE + d    enact decree d (tables.decree_names order)
                           A_PASS          enact none
    STAGE_PROMOTION_TROOP  A_HEX + h       the qualifying troop on hex h gets a training level
    STAGE_SUMMON_SIDE      A_SIDE + s      the next summon card goes face-up as summon s
    STAGE_SUMMON_HEX       A_HEX + h       the spire's base goes on hex h (first card only)

Enacting (TT-A.4.2, R10, R44): the player's Barracks is shown (hand_shown, shown_counts: a
public snapshot for the observation chapter), the cards the requirement names go to RESUPPLY,
then the effect: flags for the opponent (no_cards, no_combat, no_movement) or for the player
(betrayal_muster), which last until the end of this turn's Resolution (TT-A.4.6: the
Resolution chapter clears them), or a follow-up decision (PROMOTION, SUMMON). A decree is
offered only when it is enactable and has an effect (R30, R46, R16); a follow-up with one
legal action is taken automatically.

Seats are state.py's 0 and 1; setup.py's spire placement (battlefield.access_ok) converts.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import shuffle_prefix
from envs.tactica.actions import (
    A_DECREE,
    A_HEX,
    A_PASS,
    A_SIDE,
    A_SURRENDER,
    N_SIDES,
    STAGE_DECREE,
    STAGE_PROMOTION_TROOP,
    STAGE_SUMMON_HEX,
    STAGE_SUMMON_SIDE,
    STAGE_SURRENDER,
)
from envs.tactica.decrees import decree_requirement_met
from envs.tactica.muster import _first_card
from envs.tactica.piles import barracks_counts, card_owner, hostage_count, move_card
from envs.tactica.resolution import surrender
from envs.tactica.setup import _piece_hexes, _put_feature
from envs.tactica.state import (
    FEATURE_SPIRE,
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_BATTLEFIELD,
    PLACE_RESUPPLY,
    PLACE_TROOP_PILE,
    PLACE_UNDER,
    STAGE_PHASE_DONE,
    SUMMON_ASIDE,
    SUMMON_IN_SPIRE,
)
from envs.tactica.tables import (
    CARD_TRAINING,
    DECREE_MUSTER_BETRAYER,
    DECREE_OPPONENT_NO_COMBAT,
    DECREE_OPPONENT_NO_MOVEMENT,
    DECREE_OPPONENT_PLAYS_NO_CARDS,
    DECREE_PLACE_SUMMON,
    DECREE_TRAIN_CAPTURER,
    MAX_CARDS,
    PHASE_BARRACKS,
    PILE_TROOP,
)

NO_SUMMON_CARD = -1
NO_SIDE = -1  # _piece_hexes' face argument, unused for a spire


# --- what a decree needs and spends -------------------------------------------------------------


@njit
def _training_name(tb) -> int:
    """The draw card of type training (Training), -1 if the army has none."""
    for c in range(tb.n_cards):
        if tb.card_type[c] == CARD_TRAINING:
            return np.int64(c)
    return np.int64(-1)


@njit
def _promotable(S, tb, b: int, c: int, p: int) -> bool:
    """R13, R46: troop card c is p's own (not a betrayer, R35) on the battlefield, took part in a
    capture in the previous turn, and is below the most training (TT-A.6.2: never above 2x)."""
    return (
        S["card_place"][b, c] == PLACE_BATTLEFIELD
        and card_owner(c) == p
        and not S["troop_betrayer"][b, c]
        and S["troop_captured_last_turn"][b, c]
        and S["troop_training"][b, c] < tb.max_training
    )


@njit
def promotion_candidates(S, tb, b: int, p: int) -> int:
    """How many troops PROMOTION could train for p (the capturers the requirement counts)."""
    n = np.int64(0)
    for c in range(N_CARD_IDS):
        if _promotable(S, tb, b, c, p):
            n += 1
    return n


@njit
def requirement_discards(tb, d: int, counts: np.ndarray, out: np.ndarray) -> None:
    """R44: out[c] = copies of draw card c that enacting decree d spends from a Barracks with
    these counts (met requirement assumed): one copy of each named card; for N unique cards one
    copy of each of the first N names held, in card order; for a pair a second copy of a named
    card when the Barracks holds one (R12: the pair reuses it), else two copies of the first
    name held twice."""
    for c in range(tb.n_cards):
        out[c] = tb.decree_cards[d, c]
    taken = np.int64(0)
    for c in range(tb.n_cards):
        if taken >= tb.decree_unique_cards[d]:
            break
        if counts[c] > 0:
            if out[c] < 1:
                out[c] = 1
            taken += 1
    if not tb.decree_pair[d]:
        return
    for c in range(tb.n_cards):  # the pair reuses a named card (fewest cards spent)
        if tb.decree_cards[d, c] == 1 and counts[c] >= 2:
            out[c] = 2
            return
    for c in range(tb.n_cards):
        if counts[c] - out[c] >= 2:
            out[c] += 2
            return


@njit_inline
def _promotion_card_available(S, tb, b: int, p: int, spent_training: int) -> bool:
    """I23, R46: a training card in p's RESUPPLY (counting one the requirement just spent) or
    in p's troop pile."""
    if spent_training > 0:
        return True
    name = _training_name(tb)
    if name < 0:
        return False
    return (
        _first_card(S, tb, b, p, PLACE_RESUPPLY, -1, name) >= 0
        or _first_card(S, tb, b, p, PLACE_TROOP_PILE, -1, name) >= 0
    )


@njit
def _next_summon_card(S, tb, b: int, p: int) -> int:
    """R16: p's lowest summon card still aside (not stacked, not on the battlefield, not LOST),
    NO_SUMMON_CARD if none."""
    for s in range(tb.summon_cards):
        if S["summon_card_place"][b, p, s] == SUMMON_ASIDE:
            return np.int64(s)
    return np.int64(NO_SUMMON_CARD)


@njit
def _base_hexes(S, tb, neighbours, distance, wall_zone, b: int, p: int, out, limit) -> int:
    """TT-A.10.2: empty open hexes within spire_wall_distance of one of p's walls whose spire
    leaves every wall and spire reachable (TT-A.10.9) -- the setup rule for spires, reused;
    counting stops at `limit` (setup._piece_hexes)."""
    return _piece_hexes(
        S,
        tb,
        neighbours,
        distance,
        wall_zone,
        b,
        p,
        np.int64(FEATURE_SPIRE),
        np.int64(NO_SIDE),
        out,
        np.int64(limit),
    )


@njit_inline
def _summon_enactable(S, tb, neighbours, distance, wall_zone, b: int, p: int) -> bool:
    """TT-A.10.1 (R16): a summon card aside, and a spire to stack it on (standing, or kept off
    the battlefield, R45) or a hex for the base (TT-A.10.2)."""
    if _next_summon_card(S, tb, b, p) < 0:
        return False
    if S["spire_height"][b, p] > 0:
        return True
    hexes = np.zeros(MAX_HEXES, dtype=np.bool_)
    return _base_hexes(S, tb, neighbours, distance, wall_zone, b, p, hexes, 1) > 0


@njit
def decree_enactable(S, tb, neighbours, distance, wall_zone, b: int, p: int, d: int) -> bool:
    """Whether p may enact decree d now: its requirement is met (decrees.py, TT-A.4-10) and
    its effect can happen (PROMOTION: a troop and a training card, R46; SUMMON: R16, R45)."""
    counts = np.zeros(MAX_CARDS, dtype=np.int64)
    barracks_counts(S, tb, b, p, counts)
    capturers = promotion_candidates(S, tb, b, p)
    hostages = hostage_count(S, b, p)
    return _enactable(S, tb, neighbours, distance, wall_zone, b, p, d, counts, capturers, hostages)


@njit
def _enactable(
    S, tb, neighbours, distance, wall_zone, b: int, p: int, d: int, counts, capturers, hostages
) -> bool:
    """decree_enactable given p's Barracks counts, capturers and hostages (the same for every
    decree of one decision: legal_barracks counts them once)."""
    if not decree_requirement_met(tb, d, counts, capturers, hostages):
        return False
    effect = tb.decree_effect[d]
    if effect == DECREE_TRAIN_CAPTURER:
        spent = np.zeros(MAX_CARDS, dtype=np.int64)
        requirement_discards(tb, d, counts, spent)
        name = _training_name(tb)
        return _promotion_card_available(S, tb, b, p, spent[name] if name >= 0 else 0)
    if effect == DECREE_PLACE_SUMMON:
        return _summon_enactable(S, tb, neighbours, distance, wall_zone, b, p)
    return True


# --- the rounds -------------------------------------------------------------------------------


@njit_inline
def begin_barracks(S, tb, neighbours, distance, wall_zone, b: int) -> None:
    """Start of turn for game b: the surrender round from the first player (TT-B.8.4); the
    decree round follows in the advanced game (TT-A.4.1). Clears this turn's decree record and
    shown hands (the effect flags are cleared by Resolution, TT-A.4.6)."""
    S["phase"][b] = PHASE_BARRACKS
    for p in range(N_PLAYERS):
        S["decree_enacted"][b, p] = -1
        S["hand_shown"][b, p] = False
        for c in range(MAX_CARDS):
            S["shown_counts"][b, p, c] = 0
    S["current"][b] = S["first_player"][b]
    S["stage"][b] = STAGE_SURRENDER


@njit_inline
def _begin_decrees(S, b: int) -> None:
    """TT-A.4.1, 4.3: advanced only; the first player decides first."""
    if not S["advanced"][b]:
        S["stage"][b] = STAGE_PHASE_DONE
        return
    S["current"][b] = S["first_player"][b]
    S["stage"][b] = STAGE_DECREE


@njit
def _next_decree_player(S, b: int) -> None:
    """TT-A.4.3: after the first player's decision the other decides; then the phase is done."""
    p = S["current"][b]
    if p == S["first_player"][b]:
        S["current"][b] = N_PLAYERS - 1 - p
        S["stage"][b] = STAGE_DECREE
    else:
        S["stage"][b] = STAGE_PHASE_DONE


@njit_inline
def legal_barracks(S, tb, neighbours, distance, wall_zone, b: int, out: np.ndarray) -> int:
    """The legal actions of game b's current start-of-turn / Barracks decision, increasing."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    n = np.int64(0)
    if stage == STAGE_SURRENDER:  # TT-B.8.4
        out[0] = A_PASS
        out[1] = A_SURRENDER
        return np.int64(2)
    if stage == STAGE_DECREE:  # TT-A.4.3: at most one decree, or none
        counts = np.zeros(MAX_CARDS, dtype=np.int64)
        barracks_counts(S, tb, b, p, counts)
        capturers = promotion_candidates(S, tb, b, p)
        hostages = hostage_count(S, b, p)
        for d in range(tb.n_decrees):
            if _enactable(
                S, tb, neighbours, distance, wall_zone, b, p, d, counts, capturers, hostages
            ):
                out[n] = A_DECREE + d
                n += 1
        out[n] = A_PASS
        return n + 1
    if stage == STAGE_PROMOTION_TROOP:  # TT-A.6.3: the player chooses the one troop
        for h in range(MAX_HEXES):
            c = S["hex_troop"][b, h]
            if c >= 0 and _promotable(S, tb, b, np.int64(c), p):
                out[n] = A_HEX + h
                n += 1
        return n
    if stage == STAGE_SUMMON_SIDE:  # TT-A.10.2, 10.4: either side face-up
        for s in range(N_SIDES):
            out[s] = A_SIDE + s
        return np.int64(N_SIDES)
    if stage == STAGE_SUMMON_HEX:  # TT-A.10.2
        hexes = np.zeros(MAX_HEXES, dtype=np.bool_)
        _base_hexes(S, tb, neighbours, distance, wall_zone, b, p, hexes, MAX_HEXES)
        for h in range(MAX_HEXES):
            if hexes[h]:
                out[n] = A_HEX + h
                n += 1
        return n
    return n


@njit
def _promote(S, tb, b: int, p: int, troop: int) -> None:
    """TT-A.6.2, I23: one training card under `troop`, from p's RESUPPLY, else from p's troop
    pile, which is then shuffled."""
    name = _training_name(tb)
    card = _first_card(S, tb, b, p, PLACE_RESUPPLY, -1, name)
    if card >= 0:
        move_card(S, tb, b, card, PLACE_UNDER, troop)
        return
    card = _first_card(S, tb, b, p, PLACE_TROOP_PILE, -1, name)
    move_card(S, tb, b, card, PLACE_UNDER, troop)
    shuffle_prefix(S["rng"], b, S["pile"][b, p, PILE_TROOP], S["pile_count"][b, p, PILE_TROOP])


@njit
def _place_base(S, tb, b: int, p: int, h: int) -> None:
    """TT-A.10.2: the next summon card (its side already chosen) is the spire's base on h."""
    s = _next_summon_card(S, tb, b, p)
    S["spire_card"][b, p, 0] = s
    S["spire_height"][b, p] = 1
    S["summon_card_place"][b, p, s] = SUMMON_IN_SPIRE
    S["spire_hex"][b, p] = h
    _put_feature(S, b, h, np.int64(FEATURE_SPIRE), p, np.int64(0))


@njit_inline
def _enact(S, tb, neighbours, distance, wall_zone, b: int, p: int, d: int) -> None:
    """TT-A.4.2 (R10, R44): show the Barracks, spend the requirement's cards to RESUPPLY, then
    the decree's effect."""
    counts = np.zeros(MAX_CARDS, dtype=np.int64)
    barracks_counts(S, tb, b, p, counts)
    S["hand_shown"][b, p] = True
    for c in range(tb.n_cards):
        S["shown_counts"][b, p, c] = counts[c]
    spent = np.zeros(MAX_CARDS, dtype=np.int64)
    requirement_discards(tb, d, counts, spent)
    for c in range(tb.n_cards):
        for _ in range(spent[c]):
            card = _first_card(S, tb, b, p, PLACE_BARRACKS, -1, np.int64(c))
            move_card(S, tb, b, card, PLACE_RESUPPLY, -1)
    S["decree_enacted"][b, p] = d
    opp = N_PLAYERS - 1 - p
    effect = tb.decree_effect[d]
    if effect == DECREE_OPPONENT_PLAYS_NO_CARDS:  # TT-A.5.2; both enacting: both (TT-A.5.5)
        S["no_cards"][b, opp] = True
    elif effect == DECREE_OPPONENT_NO_COMBAT:  # TT-A.7.2
        S["no_combat"][b, opp] = True
    elif effect == DECREE_OPPONENT_NO_MOVEMENT:  # TT-A.8.2
        S["no_movement"][b, opp] = True
    elif effect == DECREE_MUSTER_BETRAYER:  # TT-A.9.2: read by muster.py
        S["betrayal_muster"][b, p] = True
    elif effect == DECREE_TRAIN_CAPTURER:  # TT-A.6.2-6.3: choose the troop (auto if one)
        if promotion_candidates(S, tb, b, p) == 1:
            for c in range(N_CARD_IDS):
                if _promotable(S, tb, b, np.int64(c), p):
                    _promote(S, tb, b, p, np.int64(c))
                    break
        else:
            S["stage"][b] = STAGE_PROMOTION_TROOP
            return
    elif effect == DECREE_PLACE_SUMMON:  # TT-A.10.2, 10.4: the face first
        S["stage"][b] = STAGE_SUMMON_SIDE
        return
    _next_decree_player(S, b)


@njit
def apply_barracks(S, tb, neighbours, distance, wall_zone, b: int, a: int) -> None:
    """Apply legal action a of game b's current decision, then ask the next one (or
    STAGE_PHASE_DONE at the end of the phase or after a surrender)."""
    stage = S["stage"][b]
    p = np.int64(S["current"][b])
    if stage == STAGE_SURRENDER:
        if a == A_SURRENDER:  # TT-B.8.4: the opponent wins the battle, which ends at once
            # (resolution.surrender: war points, then the next battle's STAGE_SETUP or the
            # end of the war)
            surrender(S, tb, b, p)
        elif p == S["first_player"][b]:
            S["current"][b] = N_PLAYERS - 1 - p
        else:
            _begin_decrees(S, b)
        return
    if stage == STAGE_DECREE:
        if a == A_PASS:  # TT-A.4.3: enacting is optional
            _next_decree_player(S, b)
        else:
            _enact(S, tb, neighbours, distance, wall_zone, b, p, np.int64(a - A_DECREE))
        return
    if stage == STAGE_PROMOTION_TROOP:  # TT-A.6.3
        _promote(S, tb, b, p, np.int64(S["hex_troop"][b, a - A_HEX]))
        _next_decree_player(S, b)
        return
    if stage == STAGE_SUMMON_SIDE:
        s = _next_summon_card(S, tb, b, p)
        S["summon_card_side"][b, p, s] = a - A_SIDE
        height = S["spire_height"][b, p]
        if height > 0:  # TT-A.10.4 (R45: also on a spire kept off the battlefield)
            S["spire_card"][b, p, height] = s
            S["spire_height"][b, p] = height + 1
            S["summon_card_place"][b, p, s] = SUMMON_IN_SPIRE
            _next_decree_player(S, b)
            return
        hexes = np.zeros(MAX_HEXES, dtype=np.bool_)
        n = _base_hexes(S, tb, neighbours, distance, wall_zone, b, p, hexes, 2)
        if n == 1:  # a single legal hex: taken automatically (2: enough to know)
            for h in range(MAX_HEXES):
                if hexes[h]:
                    _place_base(S, tb, b, p, np.int64(h))
            _next_decree_player(S, b)
        else:
            S["stage"][b] = STAGE_SUMMON_HEX
        return
    # STAGE_SUMMON_HEX: TT-A.10.2
    _place_base(S, tb, b, p, np.int64(a - A_HEX))
    _next_decree_player(S, b)
