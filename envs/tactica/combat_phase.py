"""TACTICA Combat phase kernels (docs/rules/tactica.md TT-B.7.4, TT-B.4), the chapter
convention of envs/tactica (begin_combat / legal_combat / apply_combat on game b).

Decisions, asked of S["current"] (stages fixed in envs/tactica/actions.py); the active player
(S["combat_active"]) takes all their combat actions, then the other (R2):

    STAGE_COMBAT_SELECT    A_HEX of an enemy troop, summon or spire that a friendly troop
                           (or, for a troop, the player's summon) with its combat action
                           unspent can reach (TT-B.7.4.2, TT-A.11.7-11.9), or of a friendly troop
                           that may rescue (TT-B.7.4.7); A_CARD of an Engineer
                           as a combat action of its own (TT-B.7.4.8); A_PASS: done.
    STAGE_ATTACK_JOIN      A_HEX of a further friendly troop that can reach the target (or
                           of the summon, which attacks alone), or A_PASS to close the
                           declaration (only once one attacker joined, R39).
    STAGE_RETREAT_WINDOW   defender: A_CARD Retreat (TT-B.4.8) or A_PASS.
    STAGE_RETREAT_HEX      defender: the empty hex next to the target it steps to.
    STAGE_ATTACKER_CARD    attacker: A_CARD of an attacker or combat card, or A_PASS.
    STAGE_DEFENDER_CARD    defender: A_CARD of a defender or combat card, or A_PASS.
    STAGE_NEGATE_WINDOW    the other player: A_CARD Negate (TT-B.4.7) or A_PASS.
    STAGE_ENGINEER_TARGET  the Engineer's player: A_HEX of the feature removed (TT-B.4.4).
    STAGE_SAVED_SWAP       defender: A_HEX of a defending troop to swap with, or A_PASS (R6).
    STAGE_SAVED_CAPTURE    attacker: A_HEX of the defending troop captured too (R6).
    STAGE_RESCUE_HEX       rescue (TT-B.7.4.7, chosen in STAGE_COMBAT_SELECT as A_HEX of the
                           rescuer): first A_CARD of the hostage's name, then A_HEX of where it
                           is placed; each step is taken automatically when it is no choice (R42).

Card windows are asked whatever the asked player's Barracks holds (A_PASS always legal), so
asking reveals nothing; only TACTICA! (S["no_cards"], public) closes a player's windows, and
no window opens on an attack a summon makes or suffers (TT-A.11.1, R19) nor on razing a
spire (R43).

Sacrifices (TT-A.11.6, TT-A.11.10; paid through envs/tactica/sacrifice.py, as Movement's Burrow):

    STAGE_COMBAT_SELECT    also A_SACRIFICE of Tempest (Ouran, TT-A.12.3: attack range 3 this
                           turn) or Devour (Cthon, TT-A.13.2: its captive goes to LOST), before
                           the summon's combat action (R71).
    STAGE_AEGIS_WINDOW     Ouran's owner, when an enemy attack on a friendly troop within 2 hexes
                           of Ouran is about to be resolved (after the card window, and on a
                           summon's attack too): A_SACRIFICE Aegis (+3 DEF, TT-A.12.2) or A_PASS;
                           asked whatever the Barracks holds, not closed by TACTICA! (R70).
    STAGE_SACRIFICE_PAIR   the sacrificing player: A_CARD of the name whose pair pays (R36),
                           asked only when two names could pay.
Played cards go to PLACE_IN_PLAY (the Resolution chapter sends them on); a negated card
goes to its owner's RESUPPLY at once (TT-B.4.7).

Geometry comes as one battlefield's slices (bf = S["battle"] - 1): neighbours, distance,
lof_crossed, lof_edges (envs/tactica/battlefield.py); b and hexes are int64.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.tactica import combat
from envs.tactica.actions import (
    A_CARD,
    A_HEX,
    A_PASS,
    A_SACRIFICE,
    N_ACTIONS,
    N_CARD_NAMES,
    STAGE_AEGIS_WINDOW,
    STAGE_ATTACK_JOIN,
    STAGE_ATTACKER_CARD,
    STAGE_COMBAT_SELECT,
    STAGE_DEFENDER_CARD,
    STAGE_ENGINEER_TARGET,
    STAGE_NEGATE_WINDOW,
    STAGE_RESCUE_HEX,
    STAGE_RETREAT_HEX,
    STAGE_RETREAT_WINDOW,
    STAGE_SAVED_CAPTURE,
    STAGE_SAVED_SWAP,
)
from envs.tactica.battlefield import (
    FEATURE_LANDMARK,
    FEATURE_NONE,
    FEATURE_SPIRE,
    FEATURE_WALL,
    NO_SEAT,
    blocks_fire,
    line_of_fire_clear,
    troop_masks,
)
from envs.tactica.piles import card_name, card_owner, move_card
from envs.tactica.sacrifice import (
    STAGE_SACRIFICE_PAIR,
    has_pair,
    list_pairs,
    only_pair,
    pay_pair,
    sacrifice_allowed,
)
from envs.tactica.state import (
    MAX_ARMY_CARDS,
    MAX_HEXES,
    N_CARD_IDS,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_BATTLEFIELD,
    PLACE_HOSTAGE,
    PLACE_IN_PLAY,
    PLACE_LOST,
    PLACE_RESUPPLY,
    PLACE_UNDER,
    STAGE_PHASE_DONE,
    SUMMON_LOST,
)
from envs.tactica.tables import (
    COMBAT_MELEE,
    EFFECT_NEGATE_CARD,
    EFFECT_PRESS_OFF_BONUS,
    EFFECT_REMOVE_FEATURE,
    EFFECT_RETREAT_TROOP,
    EFFECT_SAVED_DEF_BONUS,
    PHASE_COMBAT,
    SACRIFICE_CAPTURE_TO_LOST,
    SACRIFICE_EXTEND_ATTACK_RANGE,
    SACRIFICE_GUARD_DEF_BONUS,
    TIMING_ATTACKER,
    TIMING_COMBAT,
    TIMING_DEFENDER,
)

NO_TARGET = -1
NO_CARD = -1
NO_SACRIFICE = -1
MAX_NEIGHBOURS = 6

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
    out[:] = 0
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


@njit_inline
def _landmark_range_mod(S, tb, b: int, h: int) -> int:
    """The range modifier of the landmark on hex h (_landmark_mods' out[2]), 0 if none."""
    if S["hex_feature"][b, h] != FEATURE_LANDMARK:
        return np.int64(0)
    p = S["hex_feature_owner"][b, h]
    j = S["hex_feature_card"][b, h]
    return np.int64(tb.landmark_range_mod[tb.army_landmark[j], S["landmark_side"][b, p, j]])


@njit
def _feature_block(S, tb, b: int, out: np.ndarray) -> None:
    """out[h] = the landmark on hex h shows its BLOCK side (TT-B.2.7; _landmark_mods' out[3])."""
    for h in range(MAX_HEXES):
        out[h] = False
        if S["hex_feature"][b, h] == FEATURE_LANDMARK:
            p = S["hex_feature_owner"][b, h]
            j = S["hex_feature_card"][b, h]
            out[h] = tb.landmark_block[tb.army_landmark[j], S["landmark_side"][b, p, j]] != 0


@njit
def fire_blocks(S, tb, b: int, out: np.ndarray) -> None:
    """out[h] = hex h stops a line of fire (battlefield.blocks_fire on game b's features)."""
    block = np.zeros(MAX_HEXES, np.bool_)
    _feature_block(S, tb, b, block)
    blocks_fire(S["hex_feature"][b], block, out)


@njit_inline
def _enemy_unit_at(S, b: int, h: int, p: int) -> bool:
    """Hex h holds a troop or summon fighting against seat p (TT-B.7.4.2 targets) or an
    enemy spire (TT-A.11.9: razing)."""
    t = S["hex_troop"][b, h]
    if t >= 0:
        return troop_controller(S, b, t) != p
    s = S["hex_summon"][b, h]
    if s >= 0:
        return s != p
    return S["hex_feature"][b, h] == FEATURE_SPIRE and S["hex_feature_owner"][b, h] != p


@njit
def summon_can_attack(S, tb, distance, b: int, p: int, target: int) -> bool:
    """TT-A.11.7: player p's summon on the battlefield, its combat action unspent, may attack
    the enemy troop on hex `target` within its attack range (no line of fire needed), 3 after
    a Tempest this turn (TT-A.12.3)."""
    if S["summon_hex"][b, p] < 0 or S["summon_fought"][b, p] or S["hex_troop"][b, target] < 0:
        return False
    kind = np.int64(S["summon_card_side"][b, p, S["summon_card"][b, p]])
    reach = combat.summon_attack_range(tb, kind, np.int64(S["combat_sacrifice"][b, p]))
    return distance[S["summon_hex"][b, p], target] <= reach


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
    if S["hex_feature"][b, target] == FEATURE_SPIRE:  # razing: adjacent troops (TT-A.11.9)
        return d == 1
    kind = _troop_kind(tb, card)
    if tb.troop_combat[kind] == COMBAT_MELEE:
        return d == 1
    reach = np.int64(tb.troop_range[kind]) + _landmark_range_mod(S, tb, b, x)
    if d < 1 or d > reach:
        return False
    return line_of_fire_clear(lof_crossed, lof_edges, x, np.int64(target), blocks)


@njit_inline
def _attackers(S, b: int, p: int, cards: np.ndarray) -> int:
    """cards[:n] = the troops fighting for p that are not in the attack yet (the candidates
    _has_attacker tries, listed once per decision); n."""
    n = 0
    for x in range(MAX_HEXES):
        c = S["hex_troop"][b, x]
        if c < 0 or troop_controller(S, b, c) != p or S["troop_attacking"][b, c]:
            continue
        cards[n] = c
        n += 1
    return np.int64(n)


@njit_inline
def _has_attacker(
    S, tb, distance, lof_crossed, lof_edges, b: int, p: int, target: int, blocks, cards, n: int
):
    """A troop of cards[:n] (_attackers) or p's summon may attack the unit on `target`."""
    for i in range(n):
        if can_attack(S, tb, distance, lof_crossed, lof_edges, b, cards[i], target, blocks):
            return True
    return summon_can_attack(S, tb, distance, b, p, target)


# --- cards -------------------------------------------------------------------------------------


@njit
def _barracks_card(S, tb, b: int, p: int, name: int) -> int:
    """A copy of draw card `name` in player p's Barracks, or NO_CARD."""
    for k in range(tb.n_army_cards):
        c = p * MAX_ARMY_CARDS + k
        if tb.army_card[k] == name and S["card_place"][b, c] == PLACE_BARRACKS:
            return np.int64(c)
    return np.int64(NO_CARD)


@njit
def _effect(tb, name: int) -> int:
    """EFFECT_* of draw card `name`, -1 if it is no tactics card."""
    k = tb.card_tactic[name]
    return np.int64(-1) if k < 0 else np.int64(tb.tactic_effect[k])


@njit_inline
def _timing(tb, name: int) -> int:
    k = tb.card_tactic[name]
    return np.int64(-1) if k < 0 else np.int64(tb.tactic_timing[k])


@njit
def _engineer_target(S, b: int, h: int) -> bool:
    """TT-B.4.4, R9, TT-A.3.2: an Engineer may remove the wall or landmark card on hex h,
    friendly or enemy, or (advanced game) the top card of a spire."""
    k = S["hex_feature"][b, h]
    if k == FEATURE_WALL or k == FEATURE_LANDMARK:
        return True
    return k == FEATURE_SPIRE and S["advanced"][b] != 0


@njit_inline
def _any_engineer_target(S, b: int) -> bool:
    for h in range(MAX_HEXES):
        if _engineer_target(S, b, h):
            return True
    return False


@njit_inline
def _target_kind(S, tb, b: int) -> int:
    """Troop kind of the declared target, -1 for a summon."""
    t = S["hex_troop"][b, S["attack_target"][b]]
    return np.int64(-1) if t < 0 else _troop_kind(tb, t)


@njit
def _usable(S, tb, b: int, name: int, window: int) -> bool:
    """Draw card `name` may be played in `window` (TT-B.4.1 timings): attacker cards
    (Press) in the attacker's window, defender cards (Saved, on a melee troop: TT-B.4.3,
    TT-A.2.1) in the defender's, combat cards (Engineer, with a feature to remove) in
    either and as a combat action of its own (TT-B.7.4.8)."""
    timing = _timing(tb, name)
    effect = _effect(tb, name)
    if timing == TIMING_COMBAT:
        return effect == EFFECT_REMOVE_FEATURE and _any_engineer_target(S, b)
    if window == STAGE_ATTACKER_CARD and timing == TIMING_ATTACKER:
        return effect == EFFECT_PRESS_OFF_BONUS
    if window == STAGE_DEFENDER_CARD and timing == TIMING_DEFENDER:
        kind = _target_kind(S, tb, b)
        return (
            effect == EFFECT_SAVED_DEF_BONUS
            and kind >= 0
            and combat.saved_may_be_played_on(tb, kind, S["advanced"][b] != 0)
        )
    return False


@njit_inline
def _troop_may_hold(S, tb, b: int, seat: int, may_end) -> None:
    """may_end[h] = a troop of `seat` could stand on hex h now (battlefield.troop_masks)."""
    block = np.zeros(MAX_HEXES, np.bool_)
    _feature_block(S, tb, b, block)
    owner = np.full(MAX_HEXES, NO_SEAT, np.int8)
    for h in range(MAX_HEXES):
        t = S["hex_troop"][b, h]
        if t >= 0:
            owner[h] = troop_controller(S, b, t) + 1  # battlefield.py seats are 1 and 2
        elif S["hex_summon"][b, h] >= 0:
            owner[h] = S["hex_summon"][b, h] + 1
    passable = np.zeros(MAX_HEXES, np.bool_)
    stops = np.zeros(MAX_HEXES, np.bool_)
    troop_masks(S["hex_feature"][b], block, owner, np.int64(seat + 1), passable, stops, may_end)


@njit
def _retreat_hexes(S, tb, neighbours, b: int, out) -> int:
    """TT-B.4.8: the empty hexes next to the target that it could enter (battlefield.
    troop_masks for its seat), written to out in increasing order; returns how many."""
    y = np.int64(S["attack_target"][b])
    seat = np.int64(troop_controller(S, b, S["hex_troop"][b, y]))
    return _holdable_hexes_next_to(S, tb, neighbours, b, seat, y, out)


@njit
def _holdable_hexes_next_to(S, tb, neighbours, b: int, seat: int, x: int, out) -> int:
    """The hexes next to hex x that a troop of `seat` may end on (battlefield.troop_masks),
    written to out in increasing order; returns how many."""
    may_end = np.zeros(MAX_HEXES, np.bool_)
    _troop_may_hold(S, tb, b, seat, may_end)
    near = np.zeros(MAX_HEXES, np.bool_)
    for k in range(neighbours.shape[1]):
        h = neighbours[x, k]
        if h >= 0 and may_end[h]:
            near[h] = True
    return _hexes_of(near, out)


@njit
def _hexes_of(mask, out) -> int:
    """The hexes set in mask, written to out in increasing order; returns how many."""
    n = 0
    for h in range(MAX_HEXES):
        if mask[h]:
            out[n] = h
            n += 1
    return n


@njit
def _list_cards(S, tb, neighbours, b: int, p: int, window: int, out, n: int) -> int:
    """Append A_CARD of every card name in p's Barracks usable in `window`."""
    scratch = np.empty(MAX_HEXES, np.int64)
    for name in range(min(np.int64(tb.n_cards), N_CARD_NAMES)):
        if _barracks_card(S, tb, b, p, name) == NO_CARD:
            continue
        if window == STAGE_NEGATE_WINDOW:
            ok = _effect(tb, name) == EFFECT_NEGATE_CARD
        elif window == STAGE_RETREAT_WINDOW:
            ok = (
                _effect(tb, name) == EFFECT_RETREAT_TROOP
                and _retreat_hexes(S, tb, neighbours, b, scratch) > 0
            )
        else:
            ok = _usable(S, tb, b, name, window)
        if ok:
            out[n] = A_CARD + name
            n += 1
    return n


@njit
def _friendly_neighbours(S, tb, neighbours, b: int, y: int, seat: int, cards, kinds, training):
    """Troops of `seat` adjacent to hex y (Saved's candidates, R4): card ids, kinds and
    training in the first n entries; returns n."""
    n = 0
    for k in range(neighbours.shape[1]):
        h = neighbours[y, k]
        if h < 0:
            continue
        c = S["hex_troop"][b, h]
        if c >= 0 and troop_controller(S, b, c) == seat:
            cards[n] = c
            kinds[n] = _troop_kind(tb, c)
            training[n] = S["troop_training"][b, c]
            n += 1
    return n


@njit
def _saved_candidates(S, tb, neighbours, b: int, stage: int, out) -> int:
    """Hexes of the defending troops a Saved target may swap with (STAGE_SAVED_SWAP) or that
    the capturing player may capture too (STAGE_SAVED_CAPTURE), increasing (R6)."""
    y = np.int64(S["attack_target"][b])
    defender = 1 - np.int64(S["combat_active"][b])
    cards = np.empty(MAX_NEIGHBOURS, np.int64)
    kinds = np.empty(MAX_NEIGHBOURS, np.int64)
    training = np.empty(MAX_NEIGHBOURS, np.int64)
    pos = np.empty(MAX_NEIGHBOURS, np.int64)
    n = _friendly_neighbours(S, tb, neighbours, b, y, defender, cards, kinds, training)
    kind = _troop_kind(tb, np.int64(S["attack_target_card"][b]))
    advanced = S["advanced"][b] != 0
    if stage == STAGE_SAVED_SWAP:
        m = combat.saved_defending_troops(tb, kind, n, kinds, advanced, pos)
    else:
        m = combat.saved_extra_capture_candidates(tb, kind, n, kinds, training, advanced, pos)
    near = np.zeros(MAX_HEXES, np.bool_)
    for i in range(m):
        near[S["card_hex"][b, cards[pos[i]]]] = True
    return _hexes_of(near, out)


# --- rescue (TT-B.7.4.7) ---------------------------------------------------------------------


@njit
def _hostage_of(S, tb, b: int, p: int, name: int) -> int:
    """A card of player p named `name` (NO_CARD: any name) in the opponent's hostage pile."""
    for k in range(tb.n_army_cards):
        c = p * MAX_ARMY_CARDS + k
        if (
            S["card_place"][b, c] == PLACE_HOSTAGE
            and S["card_holder"][b, c] == 1 - p
            and (name == NO_CARD or tb.army_card[k] == name)
        ):
            return np.int64(c)
    return np.int64(NO_CARD)


@njit_inline
def may_rescue(S, neighbours, b: int, card: int, p: int) -> bool:
    """TT-B.7.4.7: troop `card` of player p may rescue: its combat action is unspent, it
    stands next to an enemy wall card, and the opponent holds one of p's troops hostage."""
    if S["troop_fought"][b, card] or troop_controller(S, b, card) != p:
        return False
    x = S["card_hex"][b, card]
    near_wall = False
    for k in range(neighbours.shape[1]):
        h = neighbours[x, k]
        if h >= 0 and S["hex_feature"][b, h] == FEATURE_WALL and S["hex_feature_owner"][b, h] != p:
            near_wall = True
    if not near_wall:
        return False
    for c in range(N_CARD_IDS):
        if (
            S["card_place"][b, c] == PLACE_HOSTAGE
            and S["card_holder"][b, c] == 1 - p
            and card_owner(c) == p
        ):
            return True
    return False


@njit
def _rescue_hexes(S, tb, neighbours, b: int, out) -> int:
    """The empty hexes next to the rescuer the rescued troop may be placed on, increasing."""
    p = np.int64(S["combat_active"][b])
    x = np.int64(S["card_hex"][b, S["rescuer"][b]])
    return _holdable_hexes_next_to(S, tb, neighbours, b, p, x, out)


@njit
def _hostage_names(S, tb, b: int, p: int, out) -> int:
    """Troop names of p's cards in the opponent's hostage pile, increasing."""
    n = 0
    for name in range(min(np.int64(tb.n_cards), N_CARD_NAMES)):
        if tb.card_troop[name] >= 0 and _hostage_of(S, tb, b, p, name) != NO_CARD:
            out[n] = name
            n += 1
    return n


# --- sacrifices in Combat (TT-A.11.6, TT-A.11.10, TT-A.12.2-12.3, TT-A.13.2) -----------------


@njit
def _summon_kind(S, b: int, p: int) -> int:
    """Summon index of p's summon on the battlefield, -1 if none is there."""
    if S["summon_hex"][b, p] < 0:
        return np.int64(-1)
    return np.int64(S["summon_card_side"][b, p, S["summon_card"][b, p]])


@njit_inline
def _summon_has_target(S, tb, distance, b: int, p: int, sacrifice: int) -> bool:
    """p's summon could attack an enemy troop with `sacrifice` in force (TT-A.11.7)."""
    reach = combat.summon_attack_range(tb, _summon_kind(S, b, p), sacrifice)
    x = S["summon_hex"][b, p]
    for y in range(MAX_HEXES):
        t = S["hex_troop"][b, y]
        if t >= 0 and troop_controller(S, b, t) != p and distance[x, y] <= reach:
            return True
    return False


@njit
def _before_action_sacrifice_ok(S, tb, distance, b: int, p: int, x: int) -> bool:
    """Tempest (TT-A.12.3) and Devour (TT-A.13.2) are made before the summon's combat action:
    p's own summon is on the battlefield with its combat action unspent (TT-A.11.10), no
    sacrifice made for it this turn, a pair to pay (TT-A.11.6), and (R71) an enemy troop it
    could attack with the sacrifice in force. Not playing a card: TACTICA! does not bar it."""
    effect = tb.sacrifice_effect[x]
    if tb.sacrifice_phase[x] != PHASE_COMBAT or not (
        effect == SACRIFICE_EXTEND_ATTACK_RANGE or effect == SACRIFICE_CAPTURE_TO_LOST
    ):
        return False
    kind = _summon_kind(S, b, p)
    if kind < 0 or kind != tb.sacrifice_summon[x] or S["summon_fought"][b, p]:
        return False
    if not sacrifice_allowed(S, tb, b, p) or not has_pair(S, tb, b, p):
        return False
    return _summon_has_target(S, tb, distance, b, p, np.int64(x))


@njit
def _aegis_offered(S, tb, distance, b: int) -> int:
    """The Aegis sacrifice (TT-A.12.2) the defender may make now the declared attack is about
    to be resolved, or NO_SACRIFICE: the target is a troop, the defender's Ouran stands within
    its reach (2 hexes) and has made no sacrifice this turn (TT-A.11.10). Whether the Barracks
    holds a pair is not asked: the window opens whatever it holds (R70)."""
    y = np.int64(S["attack_target"][b])
    if y < 0 or S["hex_troop"][b, y] < 0:
        return np.int64(NO_SACRIFICE)
    q = 1 - np.int64(S["combat_active"][b])
    kind = _summon_kind(S, b, q)
    if kind < 0 or not sacrifice_allowed(S, tb, b, q):
        return np.int64(NO_SACRIFICE)
    for x in range(tb.n_sacrifices):
        if (
            tb.sacrifice_phase[x] == PHASE_COMBAT
            and tb.sacrifice_effect[x] == SACRIFICE_GUARD_DEF_BONUS
            and tb.sacrifice_summon[x] == kind
            and distance[S["summon_hex"][b, q], y] <= tb.sacrifice_reach[x]
        ):
            return np.int64(x)
    return np.int64(NO_SACRIFICE)


# --- legal actions -----------------------------------------------------------------------------


@njit
def _list_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, out) -> int:
    p = np.int64(S["current"][b])
    n = 0
    if not S["no_combat"][b, p]:  # FOG (TT-A.7.2): no combat action at all
        blocks = np.zeros(MAX_HEXES, np.bool_)
        fire_blocks(S, tb, b, blocks)
        cards = np.empty(MAX_HEXES, np.int8)  # card ids as hex_troop holds them
        m = _attackers(S, b, p, cards)
        for y in range(MAX_HEXES):
            t = S["hex_troop"][b, y]
            if _enemy_unit_at(S, b, y, p):
                ok = _has_attacker(
                    S, tb, distance, lof_crossed, lof_edges, b, p, y, blocks, cards, m
                )
            else:  # a friendly troop: it may rescue (TT-B.7.4.7)
                ok = t >= 0 and may_rescue(S, neighbours, b, t, p)
            if ok:
                out[n] = A_HEX + y
                n += 1
        if not S["no_cards"][b, p]:  # TT-B.7.4.8: an Engineer as a combat action of its own
            n = _list_cards(S, tb, neighbours, b, p, STAGE_COMBAT_SELECT, out, n)
        for x in range(tb.n_sacrifices):  # Tempest, Devour: before the summon's action
            if _before_action_sacrifice_ok(S, tb, distance, b, p, x):
                out[n] = A_SACRIFICE + x
                n += 1
    out[n] = A_PASS
    return n + 1


@njit_inline
def _list_join(S, tb, distance, lof_crossed, lof_edges, b: int, out) -> int:
    p = np.int64(S["current"][b])
    target = np.int64(S["attack_target"][b])
    blocks = np.zeros(MAX_HEXES, np.bool_)
    fire_blocks(S, tb, b, blocks)
    n = 0
    joined = S["summon_attacking"][b] != 0
    for x in range(MAX_HEXES):
        c = S["hex_troop"][b, x]
        if c >= 0 and troop_controller(S, b, c) == p and S["troop_attacking"][b, c]:
            joined = True
    if not S["summon_attacking"][b]:  # a summon attacks alone (TT-A.11.7)
        for x in range(MAX_HEXES):
            c = S["hex_troop"][b, x]
            if c >= 0:
                ok = (
                    troop_controller(S, b, c) == p
                    and not S["troop_attacking"][b, c]
                    and can_attack(S, tb, distance, lof_crossed, lof_edges, b, c, target, blocks)
                )
            else:
                ok = (
                    not joined
                    and S["hex_summon"][b, x] == p
                    and summon_can_attack(S, tb, distance, b, p, target)
                )
            if ok:
                out[n] = A_HEX + x
                n += 1
    if joined:  # R39: the attack needs one attacker before it can be resolved
        out[n] = A_PASS
        n += 1
    return n


@njit
def legal_combat(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, out) -> int:
    """The legal actions of game b's current Combat decision, in increasing order, written
    to out[:n] (int16[N_ACTIONS]); returns n (0 outside this chapter's stages)."""
    stage = np.int64(S["stage"][b])
    p = np.int64(S["current"][b])
    hexes = np.empty(MAX_HEXES, np.int64)
    if stage == STAGE_COMBAT_SELECT:
        return _list_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b, out)
    if stage == STAGE_ATTACK_JOIN:
        return _list_join(S, tb, distance, lof_crossed, lof_edges, b, out)
    if (
        stage == STAGE_RETREAT_WINDOW
        or stage == STAGE_ATTACKER_CARD
        or stage == STAGE_DEFENDER_CARD
        or stage == STAGE_NEGATE_WINDOW
    ):
        n = _list_cards(S, tb, neighbours, b, p, stage, out, 0)
        out[n] = A_PASS  # a window is asked whatever the hand holds (ARCHITECTURE.md 5)
        return n + 1
    if stage == STAGE_AEGIS_WINDOW:  # R70: asked whatever the Barracks holds
        n = 0
        x = _aegis_offered(S, tb, distance, b)
        if x >= 0 and has_pair(S, tb, b, p):
            out[n] = A_SACRIFICE + x
            n += 1
        out[n] = A_PASS
        return n + 1
    if stage == STAGE_SACRIFICE_PAIR:  # which pair pays (R36)
        return list_pairs(S, tb, b, p, out)
    n = 0
    if stage == STAGE_RETREAT_HEX:
        n = _retreat_hexes(S, tb, neighbours, b, hexes)
    elif stage == STAGE_ENGINEER_TARGET:
        for h in range(MAX_HEXES):
            if _engineer_target(S, b, h):
                hexes[n] = h
                n += 1
    elif stage == STAGE_SAVED_SWAP or stage == STAGE_SAVED_CAPTURE:
        n = _saved_candidates(S, tb, neighbours, b, stage, hexes)
    elif stage == STAGE_RESCUE_HEX and S["rescue_card"][b] < 0:  # which hostage (R42)
        m = _hostage_names(S, tb, b, p, hexes)
        for i in range(m):
            out[i] = A_CARD + hexes[i]
        return m
    elif stage == STAGE_RESCUE_HEX:
        n = _rescue_hexes(S, tb, neighbours, b, hexes)
    else:
        return np.int64(0)
    for i in range(n):
        out[i] = A_HEX + hexes[i]
    if stage == STAGE_SAVED_SWAP:  # the swap is optional (R6)
        out[n] = A_PASS
        n += 1
    return n


# --- the flow of the phase ------------------------------------------------------------------
#
# The phase goes on from one step to the next until a decision is asked: a step returns the
# step that follows (and its argument) instead of calling it, and apply_combat's loop runs
# them. So every step is one level below apply_combat, rather than each step compiling every
# step after it again (docs/adding_a_ruleset.md, "Habits that keep compile time bounded").

GO_NONE = 0  # a decision is asked (or the phase is over): stop
GO_ASK_SELECT = 1  # _ask_select
GO_NEXT_WINDOW = 2  # _next_window(arg = the window just over)
GO_AEGIS_OR_RESOLVE = 3  # _aegis_or_resolve
GO_MAKE_SACRIFICE = 4  # _make_sacrifice(arg = the sacrifice)
GO_SACRIFICE_PAID = 5  # _sacrifice_paid(arg = the paying name)
GO_RESOLVE_AND_GO_ON = 6  # _resolve_and_go_on
GO_PLAY = 7  # _play(arg = the draw-card name played)
GO_CARD_TAKES_EFFECT = 8  # _card_takes_effect
GO_RESCUE_GO_ON = 9  # _rescue_go_on
GO_RESCUE_DONE = 10  # _rescue_done
GO_AFTER_DECLARATION = 11  # _after_declaration


@njit
def _ask_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int) -> None:
    """Ask the active player for their next combat action. A player with none to take
    (FOG, TT-A.7.2, or no troop in reach and no Engineer) passes at once, a single-choice
    decision taken automatically; then the other player acts, then the phase ends (R2)."""
    S["attack_target"][b] = NO_TARGET
    S["attack_target_card"][b] = NO_CARD
    S["attack_press"][b] = False
    S["attack_saved"][b] = False
    S["attack_aegis"][b] = NO_SACRIFICE
    buf = np.empty(N_ACTIONS, np.int16)
    while S["combat_players_done"][b] < N_PLAYERS:
        S["current"][b] = S["combat_active"][b]
        S["stage"][b] = STAGE_COMBAT_SELECT
        if _list_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b, buf) > 1:
            return
        _player_done(S, b)
    S["stage"][b] = STAGE_PHASE_DONE
    S["combat_active"][b] = -1


@njit
def _player_done(S, b: int) -> None:
    """The active player's combat actions are over; the other player acts next."""
    S["combat_players_done"][b] += 1
    S["combat_active"][b] = 1 - S["combat_active"][b]


@njit
def _open_window(S, b: int, stage: int, seat: int) -> bool:
    """Ask `seat` the card window `stage` unless TACTICA! bars them from cards (TT-A.5.2)."""
    if S["no_cards"][b, seat]:
        return False
    S["stage"][b] = stage
    S["current"][b] = seat
    return True


@njit
def _after_declaration(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int
) -> tuple[int, int]:
    """TT-B.7.4.5: the card window opens with the defender's Retreat; an attack on a summon
    has no window (R19) and resolves at once."""
    if S["attack_target_card"][b] < 0 or S["summon_attacking"][b]:  # R19, R43
        return GO_AEGIS_OR_RESOLVE, 0
    defender = 1 - np.int64(S["combat_active"][b])
    if not _open_window(S, b, STAGE_RETREAT_WINDOW, defender):
        return GO_NEXT_WINDOW, STAGE_RETREAT_WINDOW
    return GO_NONE, 0


@njit
def _next_window(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, done_window: int
) -> tuple[int, int]:
    """Open the window after `done_window` (Retreat, attacker card, defender card), or resolve
    the attack; a standalone Engineer (done_window STAGE_COMBAT_SELECT) returns to the
    active player's next combat action."""
    attacker = np.int64(S["combat_active"][b])
    if done_window == STAGE_COMBAT_SELECT:
        return GO_ASK_SELECT, 0
    if done_window == STAGE_RETREAT_WINDOW:
        if _open_window(S, b, STAGE_ATTACKER_CARD, attacker):
            return GO_NONE, 0
        done_window = STAGE_ATTACKER_CARD
    if done_window == STAGE_ATTACKER_CARD:
        if _open_window(S, b, STAGE_DEFENDER_CARD, 1 - attacker):
            return GO_NONE, 0
    return GO_AEGIS_OR_RESOLVE, 0


@njit
def _aegis_or_resolve(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int
) -> tuple[int, int]:
    """The attack is about to be resolved, its card window over: Ouran's owner is asked for
    Aegis when it could guard the target (TT-A.12.2, R70); otherwise resolve now."""
    if _aegis_offered(S, tb, distance, b) >= 0:
        S["stage"][b] = STAGE_AEGIS_WINDOW
        S["current"][b] = 1 - S["combat_active"][b]
        return GO_NONE, 0
    return GO_RESOLVE_AND_GO_ON, 0


@njit
def _make_sacrifice(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, x: int
) -> tuple[int, int]:
    """The current player makes sacrifice x: the pair is chosen (R36) unless one name could
    pay, then paid and the effect follows (_sacrifice_paid)."""
    S["sacrifice_paying"][b] = x
    name = only_pair(S, tb, b, np.int64(S["current"][b]))
    if name < 0:
        S["stage"][b] = STAGE_SACRIFICE_PAIR
        return GO_NONE, 0
    return GO_SACRIFICE_PAID, name


@njit
def _sacrifice_paid(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, name: int
) -> tuple[int, int]:
    """TT-A.11.6: the pair `name` pays; Aegis guards the target of the attack now resolved
    (TT-A.12.2); Tempest or Devour holds for the summon's combat action, still to be chosen
    (TT-A.12.3, TT-A.13.2)."""
    p = np.int64(S["current"][b])
    x = np.int64(S["sacrifice_paying"][b])
    pay_pair(S, tb, b, p, name)
    S["sacrifice_paying"][b] = NO_SACRIFICE
    if tb.sacrifice_effect[x] == SACRIFICE_GUARD_DEF_BONUS:
        S["attack_aegis"][b] = x
        return GO_RESOLVE_AND_GO_ON, 0
    S["combat_sacrifice"][b, p] = x
    return GO_ASK_SELECT, 0


@njit
def _spend_attackers(S, b: int, captured: bool) -> None:
    """Every participant spends its combat action (TT-B.7.4.2) and, on a capture, has
    participated in capturing (TT-B.7.4.6)."""
    for c in range(N_CARD_IDS):
        if S["troop_attacking"][b, c]:
            S["troop_attacking"][b, c] = False
            S["troop_fought"][b, c] = True
            if captured:
                S["troop_capturing"][b, c] = True
    if S["summon_attacking"][b]:
        S["summon_attacking"][b] = False
        S["summon_fought"][b, S["combat_active"][b]] = True


@njit
def _resolve_and_go_on(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int
) -> tuple[int, int]:
    captured = resolve_attack(S, tb, neighbours, distance, b)
    if S["attack_saved"][b]:
        stage = STAGE_SAVED_CAPTURE if captured else STAGE_SAVED_SWAP
        hexes = np.empty(MAX_HEXES, np.int64)
        if _saved_candidates(S, tb, neighbours, b, stage, hexes) > 0:
            attacker = np.int64(S["combat_active"][b])
            S["stage"][b] = stage
            S["current"][b] = attacker if captured else 1 - attacker
            return GO_NONE, 0
    return GO_ASK_SELECT, 0


@njit_inline
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
        S["combat_sacrifice"][b, p] = NO_SACRIFICE
    S["sacrifice_paying"][b] = NO_SACRIFICE
    S["combat_players_done"][b] = 0
    S["summon_attacking"][b] = False
    S["combat_active"][b] = S["first_player"][b]
    S["pending_card"][b] = NO_CARD
    S["rescuer"][b] = NO_CARD
    S["rescue_card"][b] = NO_CARD
    _ask_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b)


# --- effects ----------------------------------------------------------------------------------


@njit
def _capture_troop(S, tb, b: int, target: int, capturer: int, devoured: bool) -> None:
    """TT-B.7.4.6: the captured troop's training cards go to its owner's RESUPPLY, the troop
    to the capturer's hostage pile; a betrayer (TT-A.9.4) or a troop Devoured (TT-A.13.2)
    goes to its owner's LOST pile."""
    for c in range(N_CARD_IDS):
        if S["card_place"][b, c] == PLACE_UNDER and S["card_under"][b, c] == target:
            move_card(S, tb, b, np.int64(c), np.int64(PLACE_RESUPPLY), np.int64(-1))
    if S["troop_betrayer"][b, target] or devoured:
        move_card(S, tb, b, target, np.int64(PLACE_LOST), np.int64(-1))
    else:
        move_card(S, tb, b, target, np.int64(PLACE_HOSTAGE), capturer)


@njit_inline
def _capture_summon(S, b: int, h: int) -> None:
    """TT-A.11.8: a captured summon card goes to its owner's LOST pile."""
    q = S["hex_summon"][b, h]
    S["summon_card_place"][b, q, S["summon_card"][b, q]] = SUMMON_LOST
    S["summon_card"][b, q] = -1
    S["summon_hex"][b, q] = -1
    S["hex_summon"][b, h] = -1


@njit
def remove_feature(S, b: int, h: int) -> None:
    """TT-B.4.4 (R9), TT-A.3.1-3.2: the wall or landmark card on hex h goes to its owner's
    LOST pile; from a spire only the top summon card goes (the spire is gone with its last)."""
    kind = S["hex_feature"][b, h]
    p = S["hex_feature_owner"][b, h]
    j = S["hex_feature_card"][b, h]
    if kind == FEATURE_WALL:
        S["wall_hex"][b, p, j] = -1
        S["wall_lost"][b, p, j] = True
    elif kind == FEATURE_LANDMARK:
        S["landmark_hex"][b, p, j] = -1
        S["landmark_lost"][b, p, j] = True
    else:
        top = S["spire_height"][b, p] - 1
        S["summon_card_place"][b, p, S["spire_card"][b, p, top]] = SUMMON_LOST
        S["spire_card"][b, p, top] = -1
        S["spire_height"][b, p] = top
        if top > 0:
            return
        S["spire_hex"][b, p] = -1
    S["hex_feature"][b, h] = FEATURE_NONE
    S["hex_feature_owner"][b, h] = -1
    S["hex_feature_card"][b, h] = -1


@njit
def resolve_attack(S, tb, neighbours, distance, b: int) -> bool:
    """Resolve game b's declared attack (TT-B.7.4.3-7.4.6) with the Press and Saved in force;
    returns whether the target was captured. Terrain is read now, so a feature an Engineer
    removed in the window no longer counts (TT-B.4.4)."""
    p = np.int64(S["combat_active"][b])
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
    if S["summon_attacking"][b]:  # TT-A.11.7: the summon's OFF against DEF without terrain
        kind = np.int64(S["summon_card_side"][b, p, S["summon_card"][b, p]])
        total_off = combat.summon_attack_off(tb, kind)
        total_def = combat.summon_target_def(
            tb, _troop_kind(tb, t), np.int64(S["troop_training"][b, t])
        ) + combat.aegis_def_bonus(tb, np.int64(S["attack_aegis"][b]))  # a sacrifice, no card
        captured = combat.is_captured(total_off, total_def)
        x = np.int64(S["combat_sacrifice"][b, p])
        if captured:
            devoured = x >= 0 and tb.sacrifice_effect[x] == SACRIFICE_CAPTURE_TO_LOST
            _capture_troop(S, tb, b, t, p, devoured)
        _spend_attackers(S, b, captured)
        return captured
    if t >= 0:
        tk = _troop_kind(tb, t)
        _landmark_mods(S, tb, b, y, mods)
        saved = np.int64(0)
        if S["attack_saved"][b]:
            cards = np.empty(MAX_NEIGHBOURS, np.int64)
            nk = np.empty(MAX_NEIGHBOURS, np.int64)
            nt = np.empty(MAX_NEIGHBOURS, np.int64)
            m = _friendly_neighbours(S, tb, neighbours, b, y, 1 - p, cards, nk, nt)
            saved = combat.saved_def_bonus(tb, tk, m, nk, nt, advanced)
        total_def = combat.target_total_def(
            tb, tk, np.int64(S["troop_training"][b, t]), mods[1], saved
        ) + combat.aegis_def_bonus(tb, np.int64(S["attack_aegis"][b]))  # TT-A.12.2
        target_melee = tb.troop_combat[tk] == COMBAT_MELEE
    elif S["hex_summon"][b, y] < 0:  # razing a spire (TT-A.11.9): DEF 4
        total_def = combat.spire_total_def(tb)
        target_melee = False
    else:  # a summon (TT-A.11.8): printed DEF, no terrain
        q = S["hex_summon"][b, y]
        summon = np.int64(S["summon_card_side"][b, q, S["summon_card"][b, q]])
        total_def = combat.summon_total_def(tb, summon)
        target_melee = False
    press = S["attack_press"][b] != 0
    total_off = combat.attack_total_off(
        tb, n, kinds, training, dist, terrain, target_melee, press, advanced
    )
    captured = combat.is_captured(total_off, total_def)
    if captured:
        if t >= 0:
            _capture_troop(S, tb, b, t, p, False)
        elif S["hex_summon"][b, y] >= 0:
            _capture_summon(S, b, y)
        else:  # the spire's top summon card to its owner's LOST pile
            remove_feature(S, b, y)
    _spend_attackers(S, b, captured)
    return captured


@njit
def _play(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, name: int
) -> tuple[int, int]:
    """The current player plays draw card `name` from the Barracks into play (TT-B.4.1); a
    card that is no counter card may be answered by the other player's Negate (TT-B.4.6-4.7)."""
    p = np.int64(S["current"][b])
    stage = np.int64(S["stage"][b])
    c = _barracks_card(S, tb, b, p, name)
    move_card(S, tb, b, c, np.int64(PLACE_IN_PLAY), np.int64(-1))
    effect = _effect(tb, name)
    if effect == EFFECT_NEGATE_CARD:  # cancels the pending card (TT-B.4.7)
        pending = np.int64(S["pending_card"][b])
        move_card(S, tb, b, pending, np.int64(PLACE_RESUPPLY), np.int64(-1))
        S["pending_card"][b] = NO_CARD
        return GO_NEXT_WINDOW, np.int64(S["card_window"][b])
    if effect == EFFECT_RETREAT_TROOP:  # a counter card: not answered (TT-B.4.6)
        S["stage"][b] = STAGE_RETREAT_HEX
        return GO_NONE, 0
    S["pending_card"][b] = c
    S["card_window"][b] = stage
    if not _open_window(S, b, STAGE_NEGATE_WINDOW, 1 - p):
        return GO_CARD_TAKES_EFFECT, 0
    return GO_NONE, 0


@njit
def _card_takes_effect(
    S, tb, neighbours, distance, lof_crossed, lof_edges, b: int
) -> tuple[int, int]:
    """The pending card was not negated: Press (TT-B.4.2) and Saved (TT-B.4.3) are in force
    on this attack; an Engineer's player now names the feature it removes (R40)."""
    c = np.int64(S["pending_card"][b])
    effect = _effect(tb, card_name(tb, c))
    window = np.int64(S["card_window"][b])
    if effect == EFFECT_REMOVE_FEATURE:
        S["stage"][b] = STAGE_ENGINEER_TARGET
        S["current"][b] = card_owner(c)
        return GO_NONE, 0
    if effect == EFFECT_PRESS_OFF_BONUS:
        S["attack_press"][b] = True
    elif effect == EFFECT_SAVED_DEF_BONUS:
        S["attack_saved"][b] = True
    S["pending_card"][b] = NO_CARD
    return GO_NEXT_WINDOW, window


@njit
def _rescue_go_on(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int) -> tuple[int, int]:
    """Take the rescue's single-choice steps automatically (R42): the only hostage name,
    and the Barracks when no hex next to the rescuer is free (TT-B.7.4.7)."""
    p = np.int64(S["combat_active"][b])
    buf = np.empty(MAX_HEXES, np.int64)
    if S["rescue_card"][b] < 0:
        if _hostage_names(S, tb, b, p, buf) > 1:
            return GO_NONE, 0
        S["rescue_card"][b] = _hostage_of(S, tb, b, p, np.int64(NO_CARD))
    if _rescue_hexes(S, tb, neighbours, b, buf) == 0:
        move_card(S, tb, b, np.int64(S["rescue_card"][b]), np.int64(PLACE_BARRACKS), -1)
        return GO_RESCUE_DONE, 0
    return GO_NONE, 0


@njit
def _rescue_done(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int) -> tuple[int, int]:
    """The rescuer has spent its combat action; a troop rescued onto the battlefield takes
    none this phase (R42)."""
    S["troop_fought"][b, S["rescuer"][b]] = True
    c = S["rescue_card"][b]
    if S["card_place"][b, c] == PLACE_BATTLEFIELD:
        S["troop_fought"][b, c] = True
    S["rescuer"][b] = NO_CARD
    S["rescue_card"][b] = NO_CARD
    return GO_ASK_SELECT, 0


@njit_inline
def _swap(S, b: int, x: int, y: int) -> None:
    """Swap the troops on hexes x and y; training stays under each (TT-B.4.3)."""
    t = S["hex_troop"][b, x]
    u = S["hex_troop"][b, y]
    S["hex_troop"][b, x] = u
    S["hex_troop"][b, y] = t
    S["card_hex"][b, t] = y
    S["card_hex"][b, u] = x


@njit
def apply_combat(S, tb, neighbours, distance, lof_crossed, lof_edges, b: int, a: int) -> None:
    """Apply legal action `a` to game b's current Combat decision, then ask the next one
    (or set STAGE_PHASE_DONE)."""
    stage = np.int64(S["stage"][b])
    h = np.int64(a - A_HEX)
    go = GO_NONE
    arg = np.int64(0)
    if stage == STAGE_COMBAT_SELECT:
        if a == A_PASS:
            _player_done(S, b)
            go = GO_ASK_SELECT
        elif a >= A_SACRIFICE:  # Tempest or Devour, before the summon's combat action
            x = np.int64(a - A_SACRIFICE)
            go, arg = GO_MAKE_SACRIFICE, x
        elif a >= A_CARD:
            go, arg = GO_PLAY, np.int64(a - A_CARD)
        elif S["hex_troop"][b, h] >= 0 and troop_controller(S, b, S["hex_troop"][b, h]) == np.int64(
            S["combat_active"][b]
        ):
            S["rescuer"][b] = S["hex_troop"][b, h]  # a rescue (TT-B.7.4.7)
            S["rescue_card"][b] = NO_CARD
            S["stage"][b] = STAGE_RESCUE_HEX
            go = GO_RESCUE_GO_ON
        else:
            S["attack_target"][b] = h
            S["attack_target_card"][b] = S["hex_troop"][b, h]
            S["stage"][b] = STAGE_ATTACK_JOIN
    elif stage == STAGE_ATTACK_JOIN:
        if a == A_PASS:
            go = GO_AFTER_DECLARATION
        elif S["hex_troop"][b, h] >= 0:
            S["troop_attacking"][b, S["hex_troop"][b, h]] = True
        else:
            S["summon_attacking"][b] = True
    elif (
        stage == STAGE_RETREAT_WINDOW
        or stage == STAGE_ATTACKER_CARD
        or stage == STAGE_DEFENDER_CARD
    ):
        if a == A_PASS:
            go, arg = GO_NEXT_WINDOW, stage
        else:
            go, arg = GO_PLAY, np.int64(a - A_CARD)
    elif stage == STAGE_NEGATE_WINDOW:
        if a == A_PASS:
            go = GO_CARD_TAKES_EFFECT
        else:
            go, arg = GO_PLAY, np.int64(a - A_CARD)
    elif stage == STAGE_RETREAT_HEX:
        # TT-B.4.8: the troop steps away; the attack is cancelled, its attackers are spent
        move_card(S, tb, b, np.int64(S["attack_target_card"][b]), PLACE_BATTLEFIELD, h)
        _spend_attackers(S, b, False)
        go = GO_ASK_SELECT
    elif stage == STAGE_ENGINEER_TARGET:
        remove_feature(S, b, h)
        window = np.int64(S["card_window"][b])
        S["pending_card"][b] = NO_CARD
        go, arg = GO_NEXT_WINDOW, window
    elif stage == STAGE_SAVED_SWAP:
        if a != A_PASS:
            _swap(S, b, np.int64(S["attack_target"][b]), h)
        go = GO_ASK_SELECT
    elif stage == STAGE_RESCUE_HEX and a >= A_CARD:
        p = np.int64(S["combat_active"][b])
        S["rescue_card"][b] = _hostage_of(S, tb, b, p, np.int64(a - A_CARD))
        go = GO_RESCUE_GO_ON
    elif stage == STAGE_RESCUE_HEX:
        move_card(S, tb, b, np.int64(S["rescue_card"][b]), np.int64(PLACE_BATTLEFIELD), h)
        go = GO_RESCUE_DONE
    elif stage == STAGE_AEGIS_WINDOW:
        if a == A_PASS:
            go = GO_RESOLVE_AND_GO_ON
        else:
            x = np.int64(a - A_SACRIFICE)
            go, arg = GO_MAKE_SACRIFICE, x
    elif stage == STAGE_SACRIFICE_PAIR:
        name = np.int64(a - A_CARD)
        go, arg = GO_SACRIFICE_PAID, name
    elif stage == STAGE_SAVED_CAPTURE:
        _capture_troop(
            S, tb, b, np.int64(S["hex_troop"][b, h]), np.int64(S["combat_active"][b]), False
        )
        go = GO_ASK_SELECT
    # the steps that follow, each returning the next, until a decision is asked
    while go != GO_NONE:
        if go == GO_ASK_SELECT:
            _ask_select(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
            go = GO_NONE
        elif go == GO_NEXT_WINDOW:
            go, arg = _next_window(S, tb, neighbours, distance, lof_crossed, lof_edges, b, arg)
        elif go == GO_AEGIS_OR_RESOLVE:
            go, arg = _aegis_or_resolve(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
        elif go == GO_MAKE_SACRIFICE:
            go, arg = _make_sacrifice(S, tb, neighbours, distance, lof_crossed, lof_edges, b, arg)
        elif go == GO_SACRIFICE_PAID:
            go, arg = _sacrifice_paid(S, tb, neighbours, distance, lof_crossed, lof_edges, b, arg)
        elif go == GO_RESOLVE_AND_GO_ON:
            go, arg = _resolve_and_go_on(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
        elif go == GO_PLAY:
            go, arg = _play(S, tb, neighbours, distance, lof_crossed, lof_edges, b, arg)
        elif go == GO_CARD_TAKES_EFFECT:
            go, arg = _card_takes_effect(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
        elif go == GO_RESCUE_GO_ON:
            go, arg = _rescue_go_on(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
        elif go == GO_RESCUE_DONE:
            go, arg = _rescue_done(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
        else:  # GO_AFTER_DECLARATION
            go, arg = _after_declaration(S, tb, neighbours, distance, lof_crossed, lof_edges, b)
