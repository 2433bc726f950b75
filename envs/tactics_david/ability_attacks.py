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
- A Ranged Hit made by an ability on each chosen unit (`roll: ranged_hit`, the row's
  threshold as its Range Modifier): Chant's allies and the Status each discards are the
  player's picks on STAGE_EFFECT (``RESUME_CHANT``: ``legal_chant`` / ``answer_chant``); the
  Ranged Hit of each then decides whether that Status goes (R118).
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit, njit_inline
from envs.core.rng import roll_d
from envs.tactics_david.actions import A_CELL, A_END, A_STATUS, GO_NONE, STAGE_COMBAT
from envs.tactics_david.combat import _attack_area
from envs.tactics_david.effects import _pickable, _team_ok, distance, replaced_attack_row
from envs.tactics_david.grid import MAX_AREA_OUT
from envs.tactics_david.items import enemy_roll_modifier
from envs.tactics_david.pause import PZ_NONE
from envs.tactics_david.state import N_STATUSES, N_UNIT_IDS, RES_FRONT
from envs.tactics_david.teams import clear_picks
from envs.tactics_david.units import discard_status, in_play


@njit_inline  # one caller (turn.apply_effect_choice)
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


@njit_inline  # one caller (turn.legal_effect_choice)
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
    if v == u or not _pickable(S, tb, b, row, v) or not _team_ok(tb, row, u, v):
        return False
    if distance(S, tb, b, u, v) > tb.r_radius[row]:
        return False
    for s in range(N_STATUSES):
        if S["unit_status"][b, v, s] != 0 and not (np.int64(tb.r_except[row]) >> s) & 1:
            return True
    return False


@njit_inline  # one caller (turn.apply_effect_choice)
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
