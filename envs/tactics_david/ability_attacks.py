"""Attacks and Ranged Hits made by an ability (branch tdabE; TD-22.2.199 Voodoo Doll,
TD-22.2.200 Chant; R118-R119).

- An ability makes an Attack: a row notes its target in ``S["aa_unit"]`` (effects._apply_effect,
  `special_attack` `front_vs_front`), and once the hook is over ``ability_attack`` makes the
  Attack Procedure of the ability's unit against it through combat's own procedures
  (``combat._attack_area`` on that one space: the defender's "may" rows, Lucky, the Duels, a
  kill, a Combat Lock, the `after` rows). ``S["aa_cell"]`` keeps the space while a defender's
  pause is asked (``combat.resume_procedure`` strikes it again from its cursor); ``RES_FRONT``
  in ``S["fx_res"]`` makes ``combat.sides_and_strengths`` oppose the target's Front Strength
  Rating to itself (Voodoo Doll, R119). The Combat Phase goes on afterwards ("D: Combat Pha.",
  R55).
- Autofire (R120): an enemy unit that ends its Movement Phase in the Range Area of a unit with
  an `extra_procedure` `attack` row (``tb.ab_autofire_row``), in any of its facings, is
  attacked at once by it (``autofire``, called by turn.step before ``movement.end_movement``):
  a Ranged Attack (``combat._fire``: Ranged Hit, then the Ranged Area of Attack), the unit
  turned to the facing that reaches it; ``RES_AUTOFIRE`` keeps the attacker from starting a
  Duel (``combat.contest``). ``S["aa_fire"]`` marks the attack while a pause inside it is asked
  (``combat.resume_procedure`` then returns to the scan: GO_END_MOVEMENT); ``S["aa_fired"]``
  the units that have fired at it.
- Lob (R121): its target, then the equipped Item it sends to the bottom of the Item Deck, are
  the player's picks on STAGE_EFFECT (``RESUME_LOB``: ``legal_lob`` / ``answer_lob``); the
  Item's Type, ``S["aa_sent"]``, is what the rows' condition `sent_item_type` reads as the
  ability's rows run (effects.run_hook, H_COMBAT, the target as the row's pick).
- Steal (R122): the unit it loots is the player's pick (``RESUME_STEAL``), then the Loot
  Procedure is Item Phase 2's (``items._loot``: a roll per Item, a full slot asked on
  STAGE_LOOT) with the row's threshold in ``S["aa_steal"]``; it ends in the Combat Phase.
- A Ranged Hit made by an ability on each chosen unit (`roll: ranged_hit`, the row's
  threshold as its Range Modifier): Chant's allies and the Status each discards are the
  player's picks on STAGE_EFFECT (``RESUME_CHANT``: ``legal_chant`` / ``answer_chant``); the
  Ranged Hit of each then decides whether that Status goes (R118).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import roll_d
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_PIECE,
    A_STATUS,
    GO_NONE,
    STAGE_COMBAT,
)
from envs.tactics_david.combat import _attack_area, _fire, ranged_target_ok
from envs.tactics_david.effects import (
    _alive,
    _pickable,
    _team_ok,
    ability_on,
    distance,
    replaced_attack_row,
    run_hook,
    steal_ok,
    target_ok,
)
from envs.tactics_david.grid import MAX_AREA_OUT, on_forest_edge
from envs.tactics_david.items import _loot, enemy_roll_modifier, refresh_attack_type
from envs.tactics_david.pause import PZ_NONE
from envs.tactics_david.record import H_COMBAT, MODE_RANGED, PERM_FLOOD
from envs.tactics_david.state import N_STATUSES, N_UNIT_IDS, RES_AUTOFIRE, RES_FRONT
from envs.tactics_david.teams import clear_picks
from envs.tactics_david.units import (
    deck_to_bottom,
    discard_status,
    has_flag,
    has_permission,
    in_play,
    named_by_space,
    side_of,
)
from envs.tactics_david.work_belt import held_slot


@njit
def ability_attack(S, tb, b: int, u: int) -> int:
    """Unit u's ability makes its Attack on the unit noted in S["aa_unit"] (Voodoo Doll:
    that unit's Front Strength Rating against its own Front, Duels as usual; R119), then the
    Combat Phase goes on (STAGE_COMBAT). Returns GO_NONE; a defender's pause (R72) leaves
    STAGE_PAUSE, and combat.resume_procedure finishes the Attack."""
    d = np.int64(S["aa_unit"][b])
    S["aa_unit"][b] = -1
    S["stage"][b] = STAGE_COMBAT
    if d < 0 or not in_play(S, tb, b, d):
        return GO_NONE
    cells = np.empty(MAX_AREA_OUT, dtype=np.int64)
    cells[0] = S["unit_cell"][b, d]
    S["aa_cell"][b] = cells[0]
    S["fx_res"][b] = RES_FRONT
    S["pz_target"][b] = -1
    clear_picks(S, b)
    if _attack_area(S, tb, b, u, cells, np.int64(1), np.int64(0), False, np.int64(0), PZ_NONE,
                    np.int64(0)):  # fmt: skip
        return GO_NONE  # paused: combat.resume_procedure goes on
    S["aa_cell"][b] = -1
    S["fx_res"][b] = 0
    clear_picks(S, b)
    return GO_NONE


@njit
def legal_chant(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_CHANT: after an ally is picked, the Statuses it holds (A_STATUS +
    s: the one it may discard); otherwise the allies the row may pick (within its radius, this
    unit excluded, RA8) that hold a Status and are not picked yet (A_CELL + c), while fewer
    than the row's most are picked, and A_END (the player stops: "may")."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    k = np.int64(S["aa_n"][b])
    n = 0
    if k > 0 and S["aa_st"][b, k - 1] < 0:  # the Status of the ally just picked
        v = np.int64(S["aa_pick"][b, k - 1])
        for s in range(N_STATUSES):
            if S["unit_status"][b, v, s] != 0 and not (np.int64(tb.r_except[row]) >> s) & 1:
                out[n] = A_STATUS + s
                n += 1
        return n
    if k < min(max(np.int64(tb.r_max[row]), 1), S["aa_pick"].shape[1]):
        for v in range(N_UNIT_IDS):
            if not _chant_ok(S, tb, b, u, row, v):
                continue
            dup = False
            for j in range(k):
                if S["aa_pick"][b, j] == v:
                    dup = True
            if not dup:
                out[n] = A_CELL + S["unit_cell"][b, v]
                n += 1
    out[n] = A_END
    return n + 1


@njit
def _chant_ok(S, tb, b: int, u: int, row: int, v: int) -> bool:
    """Unit v may be picked by unit u's Chant row: in play, of the row's team, within its
    radius, holding a Status it may discard."""
    if v == u or not _pickable(S, tb, b, row, v) or not _team_ok(S, tb, b, row, u, v):
        return False
    if not named_by_space(S, b, v):  # its space's action picks it (R145)
        return False
    if distance(S, tb, b, u, v) > tb.r_radius[row]:
        return False
    for s in range(N_STATUSES):
        if S["unit_status"][b, v, s] != 0 and not (np.int64(tb.r_except[row]) >> s) & 1:
            return True
    return False


@njit
def answer_chant(S, tb, b: int, a: int) -> bool:
    """Apply a RESUME_CHANT choice; True while more is asked. Once the player stops (A_END)
    or has picked the most, a Ranged Hit Procedure is made on each picked ally with the row's
    threshold as its Range Modifier (the ability unit's D6s, each changed by an enemy
    Necklace of Negativity, TD-25.6) against its distance in grid spaces (R118); a hit
    discards the Status picked for it. The Combat Phase goes on."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    k = np.int64(S["aa_n"][b])
    if a >= A_CELL and a < A_CELL + S["cell_unit"].shape[1]:
        S["aa_pick"][b, k] = S["cell_unit"][b, a - A_CELL, 0]
        S["aa_st"][b, k] = -1
        S["aa_n"][b] = k + 1
        return True
    if a >= A_STATUS and a < A_STATUS + N_STATUSES:
        S["aa_st"][b, k - 1] = a - A_STATUS
        if k < min(max(np.int64(tb.r_max[row]), 1), S["aa_pick"].shape[1]):
            return True
    mod = enemy_roll_modifier(S, tb, b, u)
    for j in range(k):
        v = np.int64(S["aa_pick"][b, j])
        s = np.int64(S["aa_st"][b, j])
        hit = np.int64(tb.r_thr[row])
        for _ in range(tb.ranged_hit_dice):
            hit += roll_d(S["rng"], b, 6) + mod
        hit = max(hit, np.int64(tb.ranged_hit_min))
        if s >= 0 and hit >= distance(S, tb, b, u, v) and S["unit_status"][b, v, s] != 0:
            discard_status(S, tb, b, v, s)
        S["aa_pick"][b, j] = -1
        S["aa_st"][b, j] = -1
    S["aa_n"][b] = 0
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["stage"][b] = STAGE_COMBAT
    return False


@njit
def autofire(S, tb, b: int) -> bool:
    """The Engaged unit m ends its Movement Phase: each enemy unit (in id order) whose
    Autofire is active and that may make a Ranged Attack on m regardless of its Facing
    (_autofire_facing) attacks it at once, turned to that facing (R120). Returns True when a
    pause inside one of the attacks is asked (combat.resume_procedure comes back here through
    GO_END_MOVEMENT, the units that fired marked in aa_fired); False once every one has fired
    (or m is out of play): then the Movement Phase ends as usual."""
    m = np.int64(S["engaged"][b])
    if m >= 0:
        for f in range(N_UNIT_IDS):
            if not _alive(S, tb, b, m):
                break  # m died: no more attacks on it
            if side_of(S, b, f) == side_of(S, b, m) or (np.int64(S["aa_fired"][b]) >> f) & 1:
                continue
            face = _autofire_facing(S, tb, b, f, m)
            if face < 0:
                continue
            S["aa_fired"][b] |= np.uint64(1) << np.uint64(f)
            S["unit_facing"][b, f] = face
            S["aa_fire"][b] = f
            S["fx_res"][b] = RES_AUTOFIRE
            cell = np.int64(S["unit_cell"][b, m])
            if _fire(S, tb, b, f, cell, np.int64(0), PZ_NONE, np.int64(0)):
                return True  # paused: combat.resume_procedure goes on
            S["aa_fire"][b] = -1
            S["fx_res"][b] = 0
            clear_picks(S, b)
    S["aa_fired"][b] = 0
    return False


@njit
def _autofire_facing(S, tb, b: int, f: int, m: int) -> int:
    """The facing from which unit f's Autofire attacks unit m (its own first, then N, E, S,
    W), -1 none: f has an active Autofire, is a Ranged unit alive and not Locked in Combat, on
    a Forest edge if in Forest, may attack with its own Attack Type (TD-20.9), and in that
    facing it could make a Ranged Attack on m (combat.ranged_target_ok: an enemy not Locked
    in Combat, not barred from it, in its Range Area and Line of Sight). Leaves f facing its
    own way."""
    row = np.int64(-1)
    for k in range(S["unit_n_members"][b, f]):
        prof = np.int64(S["unit_member"][b, f, k])
        if prof >= 0 and tb.ab_autofire_row[prof] >= 0 and ability_on(S, tb, b, f, prof):
            row = np.int64(tb.ab_autofire_row[prof])
    if row < 0 or not _alive(S, tb, b, f) or S["unit_lock"][b, f] >= 0:
        return -1
    if tb.u_mode[S["unit_member"][b, f, 0]] != MODE_RANGED:
        return -1
    if S["unit_attack_type"][b, f] == S["unit_type"][b, f] and has_flag(
        S, b, f, tb.st_no_own_attack
    ):
        return -1
    if not on_forest_edge(
        tb, np.int64(S["battlefield"][b]), S["flood"][b], np.int64(S["unit_cell"][b, f])
    ) and not has_permission(S, tb, b, f, PERM_FLOOD):  # Floodplains: it stands in Water (R136)
        return -1
    c = np.int64(S["unit_cell"][b, m])
    own = np.int64(S["unit_facing"][b, f])
    for k in range(5):
        face = own if k == 0 else np.int64(k - 1)
        S["unit_facing"][b, f] = face
        if ranged_target_ok(S, tb, b, f, c):
            S["unit_facing"][b, f] = own
            return face
    S["unit_facing"][b, f] = own
    return -1


@njit
def legal_lob(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_LOB: first the units the ability's target row may pick (in its
    Range Area and Line of Sight: effects.target_ok of the row after its `item` row; A_CELL +
    c), then the Items equipped to the unit (A_PIECE + item). A_ABILITY was offered only with
    both (effects.may_use_ability); using it commits to them (R121)."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    n = 0
    if S["aa_n"][b] == 0:
        for v in range(N_UNIT_IDS):
            if target_ok(S, tb, b, u, row + 1, v):
                out[n] = A_CELL + S["unit_cell"][b, v]
                n += 1
        return n
    for t in range(S["unit_item"].shape[2]):
        i = S["unit_item"][b, u, t]
        if i >= 0 and held_slot(S, b, u, np.int64(i)) == t:  # tdabG: two alike, one action
            out[n] = A_PIECE + i
            n += 1
    return n


@njit
def answer_lob(S, tb, b: int, a: int) -> bool:
    """Apply a RESUME_LOB choice; True while the Item is still to pick. The Item goes to the
    bottom of the Item Deck (its unit's Attack Type follows its Items, TD-25.7), then the
    ability's rows run with the picked target (S["fx_pick"]) and the Item in S["aa_sent"]: the
    Status of its Type (Expendable Paralyzed, Accessory Confused, Weapon Dead: a kill by this
    player, R44). The Combat Phase goes on."""
    u = np.int64(S["engaged"][b])
    if S["aa_n"][b] == 0:
        S["aa_pick"][b, 0] = S["cell_unit"][b, a - A_CELL, 0]
        S["aa_n"][b] = 1
        return True
    i = np.int64(a - A_PIECE)
    S["unit_item"][b, u, held_slot(S, b, u, i)] = -1  # tdabG: whichever slot (Work Belt)
    deck_to_bottom(S, b, i)
    refresh_attack_type(S, tb, b, u)
    S["aa_sent"][b] = i
    S["fx_pick"][b, 0] = S["aa_pick"][b, 0]
    S["fx_n_pick"][b] = 1
    run_hook(S, tb, b, H_COMBAT, u, np.int64(-1))
    S["aa_sent"][b] = -1
    S["aa_pick"][b, 0] = -1
    S["aa_n"][b] = 0
    S["fx_n_pick"][b] = 0
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["stage"][b] = STAGE_COMBAT
    return False


@njit
def legal_steal(S, tb, b: int, out) -> int:
    """STAGE_EFFECT, RESUME_STEAL: the space of each unit the Engaged unit's Steal may loot
    (effects.steal_ok; A_ABILITY was offered only with one)."""
    u = np.int64(S["engaged"][b])
    n = 0
    for v in range(N_UNIT_IDS):
        if steal_ok(S, tb, b, u, v):
            out[n] = A_CELL + S["unit_cell"][b, v]
            n += 1
    return n


@njit
def answer_steal(S, tb, b: int, a: int) -> None:
    """The unit on space a - A_CELL is looted by the Engaged unit: the Loot Procedure
    (items._loot) succeeding on the row's threshold (2+) for each of its Items (R122); its
    Combat Phase goes on once the Loot is over (a full slot first asks STAGE_LOOT)."""
    u = np.int64(S["engaged"][b])
    row = replaced_attack_row(S, tb, b, u)
    S["eff_unit"][b] = -1
    S["eff_next"][b] = 0
    S["loot_from"][b] = S["cell_unit"][b, a - A_CELL, 0]
    S["aa_steal"][b] = max(np.int64(tb.r_thr[row]), 1)
    _loot(S, tb, b, u, np.int64(0))
