"""TACTICA Combat phase kernels (docs/rules/tactica.md TT-B.7.4), the chapter convention of
envs/tactica (begin_combat / legal_combat / apply_combat on game b of a batch).

Decisions, asked of S["current"] (stages fixed in envs/tactica/actions.py):

    STAGE_COMBAT_SELECT  A_HEX of an enemy troop or summon some friendly troop with its
                         combat action unspent can reach (TT-B.7.4.2), or A_PASS: the
                         player's combat actions are over (R2: the first player acts fully,
                         then the other).
    STAGE_ATTACK_JOIN    A_HEX of a further friendly troop that can reach the target, or
                         A_PASS to resolve; the first attacker is chosen here too, so A_PASS
                         is legal only once one troop has joined (R28).

Resolution (TT-B.7.4.3-7.4.6) uses envs/tactica/combat.py's arithmetic. The card window
(Retreat, attacker / defender cards, Negate), Rescue and Engineer are not built yet: an
attack resolves as soon as its attackers are declared.

Geometry comes as one battlefield's slices (bf = S["battle"] - 1): neighbours, distance,
lof_crossed, lof_edges (envs/tactica/battlefield.py), with int64 game index b.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactica import combat
from envs.tactica.actions import A_HEX, A_PASS, STAGE_ATTACK_JOIN, STAGE_COMBAT_SELECT
from envs.tactica.battlefield import (
    FEATURE_LANDMARK,
    FEATURE_SPIRE,
    FEATURE_WALL,
    line_of_fire_clear,
)
from envs.tactica.piles import card_name, card_owner, move_card
from envs.tactica.state import (
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_HOSTAGE,
    PLACE_LOST,
    PLACE_RESUPPLY,
    PLACE_UNDER,
    STAGE_PHASE_DONE,
    SUMMON_LOST,
)
from envs.tactica.tables import COMBAT_MELEE, PHASE_COMBAT

NO_TARGET = -1

# --- who stands where ------------------------------------------------------------------------


@njit
def troop_controller(S, b: int, card: int) -> int:
    """The seat a troop fights for: its owner, or the player whose BETRAYER token it bears
    (TT-A.9.3, R21)."""
    for p in range(N_PLAYERS):
        if S["betrayer_token"][b, p] == card:
            return np.int64(p)
    return card_owner(card)


@njit
def _troop_kind(tb, card: int) -> int:
    return np.int64(tb.card_troop[card_name(tb, card)])


@njit
def _landmark_mods(S, tb, b: int, h: int, out: np.ndarray) -> None:
    """out[0..3] = OFF, DEF, range modifiers and BLOCK of the landmark on hex h (0 if none)
    (TT-B.2.7: the face-up side's numbers)."""
    out[0] = 0
    out[1] = 0
    out[2] = 0
    out[3] = 0
    if S["hex_feature"][b, h] != FEATURE_LANDMARK:
        return
    p = S["hex_feature_owner"][b, h]
    j = S["hex_feature_card"][b, h]
    lm = tb.army_landmark[j]
    side = S["landmark_side"][b, p, j]
    out[0] = tb.landmark_off_mod[lm, side]
    out[1] = tb.landmark_def_mod[lm, side]
    out[2] = tb.landmark_range_mod[lm, side]
    out[3] = tb.landmark_block[lm, side]


@njit
def fire_blocks(S, tb, b: int, out: np.ndarray) -> None:
    """out[h] = hex h stops a line of fire (TT-B.2.8): a wall, a spire or a BLOCK landmark."""
    mods = np.zeros(4, np.int64)
    for h in range(MAX_HEXES):
        k = S["hex_feature"][b, h]
        if k == FEATURE_LANDMARK:
            _landmark_mods(S, tb, b, h, mods)
            out[h] = mods[3] != 0
        else:
            out[h] = k == FEATURE_WALL or k == FEATURE_SPIRE


@njit
def _enemy_unit_at(S, b: int, h: int, p: int) -> bool:
    """Hex h holds a troop or summon fighting against seat p (TT-B.7.4.2 targets)."""
    t = S["hex_troop"][b, h]
    if t >= 0:
        return troop_controller(S, b, t) != p
    s = S["hex_summon"][b, h]
    return s >= 0 and s != p


@njit
def can_attack(
    S, tb, distance, lof_crossed, lof_edges, b: int, card: int, target: int, blocks
) -> bool:
    """TT-B.7.4.1-7.4.2: troop `card` may take part in an attack on the unit on hex
    `target`: its combat action is unspent and it reaches the target, a melee troop when
    adjacent, a ranged troop within its range (+ the range modifier of the landmark it
    stands on, e.g. Hill) with a clear line of fire (TT-B.2.8)."""
    if S["troop_fought"][b, card]:
        return False
    x = np.int64(S["card_hex"][b, card])
    d = np.int64(distance[x, target])
    kind = _troop_kind(tb, card)
    if tb.troop_combat[kind] == COMBAT_MELEE:
        return d == 1
    mods = np.zeros(4, np.int64)
    _landmark_mods(S, tb, b, x, mods)
    reach = np.int64(tb.troop_range[kind]) + mods[2]
    if d < 1 or d > reach:
        return False
    return combat_line_clear(lof_crossed, lof_edges, x, target, blocks)


@njit
def combat_line_clear(lof_crossed, lof_edges, a: int, t: int, blocks) -> bool:
    """Line of fire from a to t (battlefield.line_of_fire_clear with int64 hexes)."""
    return line_of_fire_clear(lof_crossed, lof_edges, np.int64(a), np.int64(t), blocks)


@njit
def _has_attacker(S, tb, distance, lof_crossed, lof_edges, b: int, p: int, target: int, blocks):
    for x in range(MAX_HEXES):
        c = S["hex_troop"][b, x]
        if c < 0 or troop_controller(S, b, c) != p or S["troop_attacking"][b, c]:
            continue
        if can_attack(S, tb, distance, lof_crossed, lof_edges, b, c, target, blocks):
            return True
    return False


# --- the chapter's kernels ---------------------------------------------------------------------


@njit
def _list_select(S, tb, distance, lof_crossed, lof_edges, b: int, out) -> int:
    p = np.int64(S["current"][b])
    blocks = np.zeros(MAX_HEXES, np.bool_)
    fire_blocks(S, tb, b, blocks)
    n = 0
    for y in range(MAX_HEXES):
        if _enemy_unit_at(S, b, y, p) and _has_attacker(
            S, tb, distance, lof_crossed, lof_edges, b, p, y, blocks
        ):
            out[n] = A_HEX + y
            n += 1
    out[n] = A_PASS
    return n + 1


@njit
def _list_join(S, tb, distance, lof_crossed, lof_edges, b: int, out) -> int:
    p = np.int64(S["current"][b])
    target = np.int64(S["attack_target"][b])
    blocks = np.zeros(MAX_HEXES, np.bool_)
    fire_blocks(S, tb, b, blocks)
    n = 0
    joined = False
    for x in range(MAX_HEXES):
        c = S["hex_troop"][b, x]
        if c < 0 or troop_controller(S, b, c) != p:
            continue
        if S["troop_attacking"][b, c]:
            joined = True
        elif can_attack(S, tb, distance, lof_crossed, lof_edges, b, c, target, blocks):
            out[n] = A_HEX + x
            n += 1
    if joined:  # R28: the attack needs one attacker before it can be resolved
        out[n] = A_PASS
        n += 1
    return n


@njit
def legal_combat(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, out) -> int:
    """The legal actions of game b's current Combat decision, in increasing order, written
    to out[:n] (int16[N_ACTIONS]); returns n (0 outside this chapter's stages)."""
    stage = S["stage"][b]
    if stage == STAGE_COMBAT_SELECT:
        return _list_select(S, tb, distance, lof_crossed, lof_edges, b, out)
    if stage == STAGE_ATTACK_JOIN:
        return _list_join(S, tb, distance, lof_crossed, lof_edges, b, out)
    return np.int64(0)


@njit
def _ask_select(S, tb, distance, lof_crossed, lof_edges, b: int) -> None:
    """Ask the current player for an attack. A player with none to declare (FOG, TT-A.7.2,
    or no troop in reach) passes at once, a single-choice decision taken automatically; a
    player who passed is done and the other acts, then the phase ends (R2)."""
    S["attack_target"][b] = NO_TARGET
    buf = np.empty(MAX_HEXES + 1, np.int16)
    while S["combat_players_done"][b] < N_PLAYERS:
        p = S["current"][b]
        S["stage"][b] = STAGE_COMBAT_SELECT
        if not S["no_combat"][b, p]:
            if _list_select(S, tb, distance, lof_crossed, lof_edges, b, buf) > 1:
                return
        _player_done(S, b)
    S["stage"][b] = STAGE_PHASE_DONE


@njit
def _player_done(S, b: int) -> None:
    """The current player's combat actions are over; the other player is asked next."""
    S["combat_players_done"][b] += 1
    if S["combat_players_done"][b] < N_PLAYERS:
        S["current"][b] = 1 - S["current"][b]


@njit
def begin_combat(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int) -> None:
    """Start game b's Combat phase: every troop and summon has its combat action (TT-B.7.4.1)
    and nobody has participated in capturing yet this turn; the first player acts first."""
    S["phase"][b] = PHASE_COMBAT
    for c in range(N_CARD_IDS):
        S["troop_fought"][b, c] = False
        S["troop_capturing"][b, c] = False
        S["troop_attacking"][b, c] = False
    for p in range(N_PLAYERS):
        S["summon_fought"][b, p] = False
    S["combat_players_done"][b] = 0
    S["current"][b] = S["first_player"][b]
    _ask_select(S, tb, distance, lof_crossed, lof_edges, b)


@njit
def _capture_troop(S, tb, b: int, target: int, capturer: int) -> None:
    """TT-B.7.4.6: the captured troop's training cards go to its owner's RESUPPLY, the troop
    to the capturer's hostage pile; a betrayer goes to its owner's LOST pile (TT-A.9.4)."""
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] == PLACE_UNDER and S["card_under"][b, c] == target:
            move_card(S, tb, b, np.int64(c), np.int64(PLACE_RESUPPLY), np.int64(-1))
    if S["troop_betrayer"][b, target]:
        move_card(S, tb, b, target, np.int64(PLACE_LOST), np.int64(-1))
    else:
        move_card(S, tb, b, target, np.int64(PLACE_HOSTAGE), capturer)


@njit
def _capture_summon(S, b: int, h: int) -> None:
    """TT-A.11.8: a captured summon card goes to its owner's LOST pile."""
    q = S["hex_summon"][b, h]
    S["summon_card_place"][b, q, S["summon_card"][b, q]] = SUMMON_LOST
    S["summon_card"][b, q] = -1
    S["summon_hex"][b, q] = -1
    S["hex_summon"][b, h] = -1


@njit
def resolve_attack(S, tb, distance, b: int) -> bool:
    """Resolve game b's declared attack (TT-B.7.4.3-7.4.6); returns whether the target was
    captured. Every participant spends its combat action; on a capture each has
    participated in capturing."""
    p = np.int64(S["current"][b])
    y = np.int64(S["attack_target"][b])
    kinds = np.zeros(N_CARD_IDS, np.int64)
    training = np.zeros(N_CARD_IDS, np.int64)
    dist = np.zeros(N_CARD_IDS, np.int64)
    terrain = np.zeros(N_CARD_IDS, np.int64)
    mods = np.zeros(4, np.int64)
    n = 0
    for c in range(N_CARD_IDS):
        if not S["troop_attacking"][b, c]:
            continue
        x = np.int64(S["card_hex"][b, c])
        kinds[n] = _troop_kind(tb, c)
        training[n] = S["troop_training"][b, c]
        dist[n] = distance[x, y]
        _landmark_mods(S, tb, b, x, mods)
        terrain[n] = mods[0]
        n += 1
    t = np.int64(S["hex_troop"][b, y])
    advanced = S["advanced"][b] != 0
    if t >= 0:
        tk = _troop_kind(tb, t)
        _landmark_mods(S, tb, b, y, mods)
        total_def = combat.target_total_def(
            tb, tk, np.int64(S["troop_training"][b, t]), mods[1], np.int64(0)
        )
        target_melee = tb.troop_combat[tk] == COMBAT_MELEE
    else:  # a summon (TT-A.11.8): printed DEF, no terrain
        q = S["hex_summon"][b, y]
        summon = np.int64(S["summon_card_side"][b, q, S["summon_card"][b, q]])
        total_def = combat.summon_total_def(tb, summon)
        target_melee = False
    total_off = combat.attack_total_off(
        tb, n, kinds, training, dist, terrain, target_melee, False, advanced
    )
    captured = combat.is_captured(total_off, total_def)
    if captured:
        if t >= 0:
            _capture_troop(S, tb, b, t, p)
        else:
            _capture_summon(S, b, y)
    for c in range(N_CARD_IDS):
        if S["troop_attacking"][b, c]:
            S["troop_attacking"][b, c] = False
            S["troop_fought"][b, c] = True
            if captured:
                S["troop_capturing"][b, c] = True
    S["attack_target"][b] = NO_TARGET
    return captured


@njit
def apply_combat(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, a: int) -> None:
    """Apply legal action `a` to game b's current Combat decision, then ask the next one
    (or set STAGE_PHASE_DONE)."""
    stage = S["stage"][b]
    if stage == STAGE_COMBAT_SELECT:
        if a == A_PASS:
            _player_done(S, b)
            _ask_select(S, tb, distance, lof_crossed, lof_edges, b)
            return
        S["attack_target"][b] = a - A_HEX
        S["stage"][b] = STAGE_ATTACK_JOIN
        return
    if stage == STAGE_ATTACK_JOIN:
        if a == A_PASS:
            resolve_attack(S, tb, distance, b)
            _ask_select(S, tb, distance, lof_crossed, lof_edges, b)
            return
        S["troop_attacking"][b, S["hex_troop"][b, a - A_HEX]] = True
        return


__all__ = [
    "apply_combat",
    "begin_combat",
    "can_attack",
    "fire_blocks",
    "legal_combat",
    "resolve_attack",
    "troop_controller",
]
