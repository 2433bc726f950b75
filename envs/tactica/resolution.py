"""TACTICA Resolution, winning a battle and the war as numba kernels (docs/rules/tactica.md
TT-B.7.5, TT-B.8.1-8.5, TT-B.9.1, TT-A.1.3, TT-A.2.6, TT-A.3.3, TT-A.4.6).

The chapter convention (begin_/legal_/apply_, envs/tactica/actions.py). TT-B.7.5 in order:
(1) every tactics card in play goes where its text says (tables' after_use: Press back to its
owner's Barracks, the others to RESUPPLY); (2) each player, the turn's first player first,
discards any cards from the Barracks and must discard down to the Barracks limit (7);
(3) victory is checked (TT-B.8); (4) the turn ends: this turn's decree effects are cleared
(TT-A.4.6), "participated in capturing" becomes "in the previous turn" (PROMOTION, R13), the
first player passes (TT-B.7.0.2, I9), turn + 1.

Actions of this chapter (layout: envs/tactica/actions.py)::

    stage            actions       meaning
    STAGE_DISCARD    A_CARD + n    discard one copy of card name n from the Barracks to
                                   RESUPPLY (the lowest card id of that name, R31)
                     A_PASS        done discarding; legal only with the Barracks at the
                                   limit or below (TT-B.7.5)

A player with an empty Barracks is skipped (A_PASS would be their only action).

Where the Resolution leaves the game: STAGE_PHASE_DONE when the battle goes on (the turn
dispatcher begins the next turn); STAGE_SETUP when the battle ended and the next battle has
begun (piles.start_battle; the dispatcher calls setup.begin_setup); STAGE_GAME_OVER when the
war is over (winner, rewards). A surrender (TT-B.8.4, asked by the Barracks chapter at the
start of a turn) ends the battle at once through :func:`surrender`.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica.actions import A_CARD, A_PASS, STAGE_DISCARD
from envs.tactica.muster import next_player, troops_of
from envs.tactica.piles import card_name, hostage_count, move_card, place_count, start_battle
from envs.tactica.state import (
    BATTLE_DRAWN,
    FEATURE_WALL,
    MAX_ARMY_CARDS,
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_IN_PLAY,
    PLACE_RESUPPLY,
    STAGE_GAME_OVER,
    STAGE_PHASE_DONE,
)
from envs.tactica.tables import AFTER_USE_BARRACKS, MAX_CARDS, PHASE_RESOLUTION

BATTLE_GOES_ON = -3  # battle_outcome: no victory condition met (distinct from BATTLE_DRAWN)
REWARD_WIN = 1.0  # rewards of the war (R61), as TAC's scoring: win +1, loss -1, draw 0
REWARD_LOSS = -1.0


# --- (1) played cards go home (TT-B.7.5, TT-A.1.3, TT-A.2.6, TT-A.3.3) -------------------------


@njit_inline
def return_played_cards(S, tb, b: int) -> None:
    """Every tactics card in play goes where its text says: AFTER_USE_BARRACKS (Press, TT-A.1.3)
    to its owner's Barracks, the others to RESUPPLY (TT-A.2.6 Saved, TT-A.3.3 Engineer)."""
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] != PLACE_IN_PLAY:
            continue
        after = tb.tactic_after_use[tb.card_tactic[card_name(tb, np.int64(c))]]
        place = PLACE_BARRACKS if after == AFTER_USE_BARRACKS else PLACE_RESUPPLY
        move_card(S, tb, b, np.int64(c), np.int64(place), np.int64(-1))


# --- (2) discards (TT-B.7.5) -------------------------------------------------------------------


@njit_inline
def _discard_options(S, tb, b: int, p: int, out: np.ndarray) -> int:
    """STAGE_DISCARD's legal actions for seat p: each card name held, then A_PASS when the
    Barracks is at the limit or below."""
    counts = np.zeros(MAX_CARDS, dtype=np.int64)
    held = 0
    for k in range(tb.n_army_cards):
        if S["card_place"][b, p * MAX_ARMY_CARDS + k] == PLACE_BARRACKS:
            counts[tb.army_card[k]] += 1
            held += 1
    n = 0
    for name in range(tb.n_cards):
        if counts[name] > 0:
            out[n] = A_CARD + name
            n += 1
    if held <= tb.barracks_limit:
        out[n] = A_PASS
        n += 1
    return np.int64(n)


@njit
def _discard_next(S, tb, b: int) -> bool:
    """Ask the current player to discard, skipping a player with an empty Barracks; returns
    False when both players are done (TT-B.7.0.2: first player, then the other)."""
    while True:
        p = np.int64(S["current"][b])
        if place_count(S, tb, b, p, np.int64(PLACE_BARRACKS)) > 0:
            S["stage"][b] = STAGE_DISCARD
            return True
        if not next_player(S, b):
            return False


# --- (3) winning a battle (TT-B.8) -------------------------------------------------------------


@njit_inline
def walls_on_battlefield(S, b: int, p: int) -> int:
    """Seat p's wall cards on the battlefield (TT-B.8.1)."""
    n = np.int64(0)
    for h in range(MAX_HEXES):
        if S["hex_feature"][b, h] == FEATURE_WALL and S["hex_feature_owner"][b, h] == p:
            n += 1
    return n


@njit
def battle_outcome(S, tb, b: int) -> int:
    """The victory check at the end of a Resolution phase (TT-B.8.1-8.3, TT-B.8.5): the
    winning seat, BATTLE_DRAWN, or BATTLE_GOES_ON. A seat "prevails" if it wins (ransom) or
    its opponent loses (breach, rout); both prevailing (both win, both lose, or one wins while
    it loses, R60) is a draw. Troops are counted for the seat they fight for (a betrayer for
    its new side, R60)."""
    prevails = np.zeros(N_PLAYERS, dtype=np.bool_)
    for p in range(N_PLAYERS):
        q = N_PLAYERS - 1 - p
        if hostage_count(S, b, p) >= tb.ransom_hostages:  # TT-B.8.3 ransom: p wins
            prevails[p] = True
        if walls_on_battlefield(S, b, q) == 0:  # TT-B.8.1 breach: q loses
            prevails[p] = True
        if S["turn"][b] >= tb.rout_from_turn and troops_of(S, b, q) == 0:  # TT-B.8.2 rout
            prevails[p] = True
    if prevails[0] and prevails[1]:
        return np.int64(BATTLE_DRAWN)  # TT-B.8.5: both win or both lose
    for p in range(N_PLAYERS):
        if prevails[p]:
            return np.int64(p)
    if S["turn"][b] < tb.turn_limit:
        return np.int64(BATTLE_GOES_ON)
    # TT-B.8.5 time: more hostages, then more troops on the battlefield, else a draw
    h0, h1 = hostage_count(S, b, 0), hostage_count(S, b, 1)
    if h0 != h1:
        return np.int64(0 if h0 > h1 else 1)
    t0, t1 = troops_of(S, b, 0), troops_of(S, b, 1)
    if t0 != t1:
        return np.int64(0 if t0 > t1 else 1)
    return np.int64(BATTLE_DRAWN)


# --- the war (TT-B.9.1) ------------------------------------------------------------------------


@njit
def war_winner(S, tb, b: int) -> int:
    """TT-B.9.1: the seat with more war points; on equal points the winner of the last battle
    (battle 3); if that was drawn too, -1 (a drawn war)."""
    w0, w1 = S["war_points"][b, 0], S["war_points"][b, 1]
    if w0 != w1:
        return np.int64(0 if w0 > w1 else 1)
    last = S["battle_result"][b, tb.battles_per_war - 1]
    return np.int64(last if last >= 0 else -1)


@njit
def end_battle(S, tb, b: int, result: int) -> None:
    """Record battle S["battle"]'s result (a seat or BATTLE_DRAWN) and its war points
    (TT-B.9.1: battle n is worth battle_points[n-1] to its winner), then start the next battle
    (piles.start_battle, TT-B.9.2-9.3: STAGE_SETUP) or, after the last battle (all three are
    played, R61), end the war: winner, rewards (+1 / -1, 0 each for a draw), STAGE_GAME_OVER."""
    battle = np.int64(S["battle"][b])
    S["battle_result"][b, battle - 1] = result
    if result >= 0:
        S["war_points"][b, result] += tb.battle_points[battle - 1]
    if battle < tb.battles_per_war:
        start_battle(S, tb, b)
        return
    w = war_winner(S, tb, b)
    S["winner"][b] = w
    for p in range(N_PLAYERS):
        if w < 0:
            S["rewards"][b, p] = 0.0
        else:
            S["rewards"][b, p] = REWARD_WIN if p == w else REWARD_LOSS
    S["stage"][b] = STAGE_GAME_OVER


@njit_inline
def surrender(S, tb, b: int, p: int) -> None:
    """TT-B.8.4: seat p forfeits the battle at the start of a turn; the opponent wins it and
    the battle ends at once (for the Barracks chapter's STAGE_SURRENDER)."""
    end_battle(S, tb, b, np.int64(N_PLAYERS - 1 - p))


# --- (4) the end of the turn -------------------------------------------------------------------


@njit_inline
def end_turn(S, b: int) -> None:
    """The turn ends (TT-B.7.5 step 4): the decree effects of this turn are cleared (TT-A.4.6:
    they last until the end of this Resolution), "participated in capturing" moves to "in the
    previous turn" (PROMOTION, R13), the first player passes (TT-B.7.0.2, I9), turn + 1."""
    for p in range(N_PLAYERS):
        S["decree_enacted"][b, p] = -1
        S["no_cards"][b, p] = False
        S["no_combat"][b, p] = False
        S["no_movement"][b, p] = False
        S["betrayal_muster"][b, p] = False
    for c in range(N_CARD_IDS):
        S["troop_captured_last_turn"][b, c] = S["troop_capturing"][b, c]
        S["troop_capturing"][b, c] = False
    first = N_PLAYERS - 1 - S["first_player"][b]
    S["first_player"][b] = first
    S["current"][b] = first
    S["turn"][b] += 1
    S["stage"][b] = STAGE_PHASE_DONE


@njit
def _finish(S, tb, b: int) -> None:
    """Steps (3) and (4): the victory check, then the end of the battle or of the turn."""
    result = battle_outcome(S, tb, b)
    if result == BATTLE_GOES_ON:
        end_turn(S, b)
    else:
        end_battle(S, tb, b, result)


# --- the chapter's kernels ---------------------------------------------------------------------


@njit
def begin_resolution(S, tb, b: int) -> None:
    """Start the Resolution phase of game b: played cards go home, then the first player's
    discards (or, with both Barracks empty, straight to the victory check)."""
    S["phase"][b] = PHASE_RESOLUTION
    return_played_cards(S, tb, b)
    S["current"][b] = S["first_player"][b]
    if not _discard_next(S, tb, b):
        _finish(S, tb, b)


@njit
def legal_resolution(S, tb, b: int, out: np.ndarray) -> int:
    """The legal actions of game b's STAGE_DISCARD decision, increasing, into out[:n]."""
    if S["stage"][b] != STAGE_DISCARD:
        return np.int64(0)
    return _discard_options(S, tb, b, np.int64(S["current"][b]), out)


@njit_inline
def apply_resolution(S, tb, b: int, a: int) -> None:
    """Discard a copy of card name a - A_CARD, or pass (the next player, or steps 3-4)."""
    p = np.int64(S["current"][b])
    if a != A_PASS:
        name = a - A_CARD
        for k in range(tb.n_army_cards):
            c = p * MAX_ARMY_CARDS + k
            if S["card_place"][b, c] == PLACE_BARRACKS and tb.army_card[k] == name:
                move_card(S, tb, b, np.int64(c), np.int64(PLACE_RESUPPLY), np.int64(-1))
                break
        if place_count(S, tb, b, p, np.int64(PLACE_BARRACKS)) > 0:
            return  # the same player may discard more
    if next_player(S, b) and _discard_next(S, tb, b):
        return
    _finish(S, tb, b)
