"""The abilities as rules (TD-22.2.n): one test per implemented ability, each building a
position where the ability matters and checking the outcome against the seed's text.

``ABILITY_TESTS`` maps an ability name to its check; ``test_ability`` runs it for every ability
whose row in docs/rules/tactics_david.md is done ("implemented", or "reading chosen (R#)"),
and ``test_doc_and_checks_agree`` keeps the doc, this dict and record.IMPLEMENTED_ABILITIES
from drifting. Dice: ``peek`` reads the dice the next kernel call will roll from a copy of
the game's RNG, so each check knows the roll and asserts the outcome that roll must give
(over several seeds, so both branches are seen).
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest

from envs.core.rng import roll_d
from envs.tactics_david import effects as fx
from envs.tactics_david import unit_tables as ut
from envs.tactics_david.actions import (
    A_ABILITY,
    A_CELL,
    A_CHARGE,
    A_END,
    A_ESCAPE,
    A_FACE,
    A_PIECE,
    A_SIDE,
    A_STATUS,
    A_STRIKE,
    A_TRADE,
    A_TYPE,
    A_UNIT,
    STAGE_ACQUIRE,
    STAGE_CHARGE_DIST,
    STAGE_COMBAT,
    STAGE_DECLARE,
    STAGE_EFFECT,
    STAGE_ENGAGE,
    STAGE_LOOT,
    STAGE_MOVE,
    STAGE_PAUSE,
    STAGE_RANGED_SIDE,
    STAGE_TEAM_PICK,
)
from envs.tactics_david.auras import after_combat_phase
from envs.tactics_david.combat import (
    PROC_ATTACK,
    _attack_area,
    _fire,
    attack_unit,
    begin_procedure,
    contest,
    defence_dice,
    matchup_types,
    ranged_target_ok,
    sides_and_strengths,
)
from envs.tactics_david.combat import strength as combat_strength
from envs.tactics_david.effects import (
    K_MOVE,
    M_AUTO_WIN,
    M_BASE_D3,
    M_BEST_OF_3,
    M_D3,
    M_D6,
    M_DROP_LOWEST,
    M_HALVE,
    M_STR,
)
from envs.tactics_david.floodplains import refresh_flood
from envs.tactics_david.grid import area_cells, line_of_sight
from envs.tactics_david.invariants import violations
from envs.tactics_david.items import may_equip, unit_area
from envs.tactics_david.movement import charge_line, may_charge, movement_rating, reach
from envs.tactics_david.record import (
    H_AFTER_ATTACK,
    H_AFTER_BREATH,
    H_AFTER_DEFEND,
    H_AFTER_DUEL,
    H_BEFORE_ATTACK,
    H_BEFORE_DEFEND,
    H_BEFORE_DISENGAGE,
    H_BEFORE_ESCAPE,
    H_DEAD,
    H_END_TURN,
    H_LOCK,
    H_RANGED_HIT,
    IMPLEMENTED_ABILITIES,
    PERM_ATTACK_AFTER_MOVE,
)
from envs.tactics_david.state import (
    LOCK_MARKER,
    MAX_CELLS,
    MAX_UNITS,
    PLACE_FIELD,
    PLACE_REMOVED,
    PROC_CHARGE,
    RES_ATT_KILLED_ENEMY,
    RES_ATT_WON,
    RES_BACK,
    RES_DUEL,
    RES_FRONT,
    RES_KILLED,
    RES_NEGATED,
    RES_RANGED,
    RES_SPECIAL,
    STATUS_PERMANENT,
    UNTIL_DISENGAGED,
    UNTIL_PROCEDURE,
)
from envs.tactics_david.teams import team_mtype
from envs.tactics_david.units import apply_status, begin_turn, has_permission, kill, move_to
from tests.tactics_david.td_board import (
    B0,
    S_,
    TABLES,
    E,
    I,
    N,
    W,
    act,
    cell,
    engage,
    legal,
    paint,
    position,
    record,
    unit,
)

DOC = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactics_david.md"
HOLDER = dict(zip(TABLES.units.ability_names, TABLES.units.unit_names, strict=True))
ST = TABLES.status_index
NEUTRAL = "Rogue"  # 2/3/3/2, Light, Physical Melee; On The Run acts only in an Escape
UNIT_IX = TABLES.units.unit_index
SEEDS = range(1, 41)


def holder(S, tb, p: int, ability: str, row: int, col: int, facing: int) -> int:
    """Put the unit whose ability is `ability` (ability n belongs to unit n)."""
    return unit(S, tb, p, HOLDER[ability], row, col, facing)


def peek(S, *sides: int) -> list[int]:
    """The next rolls of game 0's rules RNG with these die sizes, without using them."""
    copy = S.copy()
    return [int(roll_d(copy["rng"], B0, I(s))) for s in sides]


def mods(S, tb, a: int, d: int, a_side: int = 0, d_side: int = 0, escape: bool = False):
    """effects.collect_modifiers for an attack of a on d (roles set as combat.contest does)."""
    S["fx_att"][0] = a
    S["fx_def"][0] = d
    m = np.zeros((2, 2, fx.N_MODS), dtype=np.int64)
    fx.collect_modifiers(S, tb, B0, I(a), I(d), I(a_side), I(d_side), escape, m)
    return m


def strengths(m, role: int, phase: int) -> list[int]:
    return [int(x) for x in m[role, phase, M_STR : M_STR + 4]]


def hook(S, tb, h: int, u: int, other: int = -1) -> None:
    fx.run_hook(S, tb, B0, I(h), I(u), I(other))


def has(S, u: int, status: str) -> bool:
    return bool(S["unit_status"][0, u, ST[status]] != 0)


def set_procedure(S, a: int, d: int, res: int = 0) -> None:
    """The Attack/Defend in progress, as combat.contest leaves it for the `after` rows."""
    S["fx_att"][0] = a
    S["fx_def"][0] = d
    S["fx_res"][0] = res


def both_ways(outcomes: set) -> None:
    assert len(outcomes) >= 2, f"only {outcomes} seen: the seeds never tried both branches"


def _pair(tb, seed: int, a_name: str, d_name: str, a_facing: int = E, d_facing: int = W):
    """Attacker (seat 0) on (5,5), defender (seat 1) on (5,6), facing each other by default."""
    S = position(tb, seed=seed)
    a = unit(S, tb, 0, a_name, 5, 5, a_facing)
    d = unit(S, tb, 1, d_name, 5, 6, d_facing)
    return S, a, d


# --- strength, dice and wins in Attack / Defend / Duel (collect_modifiers, contest) --------


def _before_bonus(ability: str, h: int, role: int, sides: int, exp_of_roll, faces=(1, 1, 1, 1)):
    tb = record()
    seen = set()
    for seed in SEEDS:
        if role == 1:
            S, a, d = _pair(tb, seed, NEUTRAL, HOLDER[ability])
            src, opp = d, a
        else:
            S, a, d = _pair(tb, seed, HOLDER[ability], NEUTRAL)
            src, opp = a, d
        (r,) = peek(S, sides)
        hook(S, tb, h, src, opp)
        bonus = exp_of_roll(r)
        seen.add(bonus)
        m = mods(S, tb, a, d)
        assert strengths(m, role, 0) == [bonus * f for f in faces], (ability, r)
        assert strengths(m, 1 - role, 0) == [0, 0, 0, 0]
        yield S, tb, a, d, src, m, bonus
    both_ways(seen)


def t_cry_for_help():
    for S, tb, a, d, _src, m, bonus in _before_bonus(
        "Cry For Help", H_BEFORE_DEFEND, 1, 6, lambda r: int(r >= 3)
    ):
        assert strengths(m, 1, 1) == [bonus] * 4  # "and resulting Duel Procedure"
        fx.expire(S, B0, I(UNTIL_PROCEDURE), I(-1))  # the procedure ends: so does the bonus
        assert strengths(mods(S, tb, a, d), 1, 0) == [0] * 4


def t_reinforce():
    for _S, _tb, _a, _d, _src, m, _bonus in _before_bonus(
        "Reinforce", H_BEFORE_DEFEND, 1, 6, lambda r: 1
    ):
        assert strengths(m, 1, 1) == [1] * 4
        return


def t_fortify():
    seen = set()
    for _S, _tb, _a, _d, _src, m, bonus in _before_bonus(
        "Fortify", H_BEFORE_DEFEND, 1, 3, lambda r: r
    ):
        assert strengths(m, 1, 1) == [bonus] * 4 and 1 <= bonus <= 3
        seen.add(bonus)
    assert seen == {1, 2, 3}


def t_hit_the_wall():
    seen = set()
    for _S, _tb, _a, _d, _src, m, bonus in _before_bonus(
        "Hit The Wall", H_BEFORE_DEFEND, 1, 6, lambda r: r
    ):
        assert strengths(m, 1, 1) == [bonus] * 4
        seen.add(bonus)
    assert len(seen) >= 4


def t_tail_whip():
    for _S, _tb, _a, _d, _src, m, bonus in _before_bonus(
        "Tail Whip", H_BEFORE_DEFEND, 1, 6, lambda r: int(r >= 4), faces=(0, 1, 1, 1)
    ):
        assert strengths(m, 1, 1) == [0, bonus, bonus, bonus]


def t_battle_cry():
    for S, tb, a, d, src, _m, bonus in _before_bonus(
        "Battle Cry", H_BEFORE_ATTACK, 0, 6, lambda r: int(r >= 3)
    ):
        fx.expire(S, B0, I(UNTIL_PROCEDURE), I(-1))  # lasts until Disengaged
        assert strengths(mods(S, tb, a, d), 0, 0) == [bonus] * 4
        fx.expire(S, B0, I(UNTIL_DISENGAGED), I(src))
        assert strengths(mods(S, tb, a, d), 0, 0) == [0] * 4


def t_steamroller():
    tb = record()
    seen = set()
    for seed in SEEDS[:12]:
        S, a, d = _pair(tb, seed, HOLDER["Steamroller"], NEUTRAL)
        hook(S, tb, H_BEFORE_ATTACK, a, d)  # no charge this Turn: nothing
        assert strengths(mods(S, tb, a, d), 0, 0) == [0] * 4
        S["engaged"][0] = a
        S["eng_procedure"][0] = PROC_CHARGE
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_ATTACK, a, d)
        fx.expire(S, B0, I(UNTIL_PROCEDURE), I(-1))
        assert strengths(mods(S, tb, a, d), 0, 0) == [r] * 4
        seen.add(r)
    assert len(seen) >= 3


def t_supervised():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        a = holder(S, tb, 0, "Supervised", 5, 5, E)
        d = unit(S, tb, 1, NEUTRAL, 5, 6, W)
        unit(S, tb, 0, NEUTRAL, 3, 4, E)  # 3 steps: counts
        unit(S, tb, 0, NEUTRAL, 6, 5, E)  # 1 step: counts
        unit(S, tb, 0, NEUTRAL, 1, 5, E)  # 4 steps: too far
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_ATTACK, a, d)
        bonus = int(r <= 2)  # 1 D6 <= the 2 allies within 3 (RA7)
        assert strengths(mods(S, tb, a, d), 0, 0) == [bonus] * 4, r
        seen.add(bonus)
    both_ways(seen)


def t_unholy_strength():
    tb = record()
    S = position(tb)
    a = holder(S, tb, 0, "Unholy Strength", 5, 5, E)
    cells = np.empty(16, dtype=np.int64)
    n = area_cells(
        tb, I(0), S["flood"][0], unit_area(S, tb, B0, I(a)), I(cell(tb, 5, 5)), I(E), False, cells
    )
    assert n >= 2
    d = -1
    for c in cells[:2]:
        v = unit(S, tb, 1, NEUTRAL, int(c) // 14, int(c) % 14, W)
        d = v if d < 0 else d
    unit(S, tb, 1, NEUTRAL, 0, 0, W)  # far away: not in the area
    hook(S, tb, H_BEFORE_ATTACK, a, d)
    fx.expire(S, B0, I(UNTIL_PROCEDURE), I(-1))
    assert strengths(mods(S, tb, a, d), 0, 0) == [2] * 4  # +1 per enemy in its area, kept


def t_vigor():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Vigor"], "Hoplite")  # front 4 against front 8
    m = mods(S, tb, a, d)
    assert strengths(m, 0, 0) == [1] * 4 and strengths(m, 0, 1) == [1] * 4
    m = mods(S, tb, d, a)  # defending against the stronger front
    assert strengths(m, 1, 0) == [1] * 4
    S, a, d = _pair(tb, 1, HOLDER["Vigor"], NEUTRAL)  # front 4 against 2: no bonus
    assert strengths(mods(S, tb, a, d), 0, 0) == [0] * 4


def t_holy_might():
    tb = record()
    S = position(tb)
    p = holder(S, tb, 0, "Holy Might", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 5, 7, E)  # 2 steps away
    far = unit(S, tb, 0, NEUTRAL, 2, 5, E)  # 3 steps away
    foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
    m = mods(S, tb, ally, foe)
    assert strengths(m, 0, 0) == [1, 0, 0, 0]  # front only, in its Attack Procedure
    assert strengths(m, 0, 1) == [0] * 4  # not the Duel
    assert strengths(mods(S, tb, far, foe), 0, 0) == [0] * 4
    assert strengths(mods(S, tb, p, foe), 0, 0) == [1, 0, 0, 0]  # "This Unit and ..."
    assert strengths(mods(S, tb, foe, ally), 1, 0) == [0] * 4  # not when defending
    kill(S, tb, B0, I(p), I(1))  # Not with Dead Status
    assert strengths(mods(S, tb, ally, foe), 0, 0) == [0] * 4


def t_blood_frenzy():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Blood Frenzy"], NEUTRAL)
    m = mods(S, tb, a, d)
    assert m[0, 0, M_D3] == 0 and m[0, 1, M_D3] == 1
    m = mods(S, tb, d, a)
    assert m[1, 0, M_D3] == 0 and m[1, 1, M_D3] == 1


def _cide(ability: str, victim: str):
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER[ability], victim)
    m = mods(S, tb, a, d)
    assert m[0, 0, M_D3] == 1 and m[0, 1, M_D3] == 0
    assert mods(S, tb, d, a)[1, 0, M_D3] == 0  # attacked by it: no extra die
    S, a, d = _pair(tb, 1, HOLDER[ability], NEUTRAL)
    assert mods(S, tb, a, d)[0, 0, M_D3] == 0


def t_ninjacute():
    _cide("Ninjacute", "Ninja")


def t_vikingcide():
    _cide("Vikingcide", "Viking")


def t_piratecide():
    _cide("Piratecide", "Pirate")


def t_on_the_run():
    tb = record()
    seen = set()
    for seed in SEEDS[:20]:
        S = position(tb, seed=seed, turn=2)
        a = holder(S, tb, 0, "On The Run", 5, 5, E)
        d = unit(S, tb, 1, "Gargantuan", 5, 6, W)  # front 9: a Rogue rarely escapes it
        S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
        unit(S, tb, 0, NEUTRAL, 0, 0, S_)
        engage(S, tb, a)
        (r,) = peek(S, 6)
        act(S, tb, A_ESCAPE)
        escaped = S["unit_status"][0, a, ST["Dead"]] == 0
        if r >= 2:  # it automatically wins the Escape
            assert escaped and S["unit_lock"][0, a] == -1
        seen.add(r >= 2)
        assert (S["fx_row"][0] >= 0).sum() == 0  # only for that Escape
    both_ways(seen)
    for seed in SEEDS:  # the automatic win is the Escape's, never an Attack's
        S, a, d = _pair(tb, seed, HOLDER["On The Run"], NEUTRAL)
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_ESCAPE, a, d)
        assert mods(S, tb, a, d, escape=True)[0, 0, M_AUTO_WIN] == (r >= 2)
        assert mods(S, tb, a, d)[0, 0, M_AUTO_WIN] == 0


def t_sure_strike():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Sure Strike"], NEUTRAL)
    m = mods(S, tb, a, d)
    assert m[0, 0, M_DROP_LOWEST] == 1 and m[0, 1, M_DROP_LOWEST] == 1
    m = mods(S, tb, d, a)
    assert m[1, 0, M_DROP_LOWEST] == 0 and m[1, 1, M_DROP_LOWEST] == 0


def t_parry():
    tb = record()
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Parry"])
    m = mods(S, tb, a, d)
    assert m[1, 1, M_AUTO_WIN] == 1 and m[1, 0, M_AUTO_WIN] == 0
    assert mods(S, tb, d, a)[0, 1, M_AUTO_WIN] == 0  # attacking: no
    duels = 0
    for seed in SEEDS:  # a Gargantuan (front 9) attacks the Fencer: every Duel is the Fencer's
        S, a, d = _pair(tb, seed, "Gargantuan", HOLDER["Parry"])
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        engage(S, tb, a)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        if S["fx_res"][0] & RES_DUEL:
            duels += 1
            assert S["unit_status"][0, d, ST["Dead"]] == 0
    assert duels > 5


def t_duel_striker():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Duel Striker"], NEUTRAL)
    assert mods(S, tb, a, d)[0, 1, M_D6] == 1 and mods(S, tb, a, d)[0, 0, M_D6] == 0
    assert mods(S, tb, d, a)[1, 1, M_D6] == 0


def t_duel_defender():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Duel Defender"], NEUTRAL)
    assert mods(S, tb, a, d)[0, 1, M_D6] == 0
    assert mods(S, tb, d, a)[1, 1, M_D6] == 1 and mods(S, tb, d, a)[1, 0, M_D6] == 0


def t_beast_friend():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Beast Friend", 5, 5, E)
    hound = unit(S, tb, 0, "Hound", 5, 7, E)  # Pup root, 2 steps
    soldier = unit(S, tb, 0, "Soldier", 4, 6, E)
    far = unit(S, tb, 0, "Hound", 1, 5, E)  # 4 steps
    foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
    m = mods(S, tb, hound, foe)
    assert strengths(m, 0, 0) == [1] * 4 and strengths(m, 0, 1) == [1] * 4
    assert strengths(mods(S, tb, soldier, foe), 0, 0) == [0] * 4
    assert strengths(mods(S, tb, far, foe), 0, 0) == [0] * 4
    holder(S, tb, 0, "Beast Friend", 6, 7, E)  # "not accumulative"
    assert strengths(mods(S, tb, hound, foe), 0, 0) == [1] * 4


def t_beast_slayer():
    tb = record()
    S, a, d = _pair(tb, 1, "Hound", HOLDER["Beast Slayer"])
    m = mods(S, tb, a, d)
    assert strengths(m, 0, 0) == [-1] * 4 and strengths(m, 0, 1) == [-1] * 4
    assert strengths(mods(S, tb, d, a), 1, 0) == [-1] * 4  # the Pup defending against it
    S, a, d = _pair(tb, 1, "Soldier", HOLDER["Beast Slayer"])
    assert strengths(mods(S, tb, a, d), 0, 0) == [0] * 4


def t_force_field():
    tb = record()
    S = position(tb)
    ff = holder(S, tb, 0, "Force Field", 5, 5, E)
    d = unit(S, tb, 0, NEUTRAL, 5, 7, E)  # 2 steps
    a = unit(S, tb, 1, NEUTRAL, 4, 6, W)  # 2 steps, attacking
    m = mods(S, tb, a, d)
    assert strengths(m, 1, 0) == [1] * 4 and strengths(m, 1, 1) == [1] * 4
    assert strengths(m, 0, 0) == [0] * 4 and strengths(m, 0, 1) == [0] * 4
    assert strengths(mods(S, tb, a, ff), 1, 0) == [0] * 4  # not this Unit (RA8)
    far = unit(S, tb, 0, NEUTRAL, 5, 8, E)
    assert strengths(mods(S, tb, a, far), 1, 0) == [0] * 4


def t_growth():
    tb = record()
    S = position(tb)
    g = holder(S, tb, 0, "Growth", 5, 5, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 6, W)
    unit(S, tb, 0, NEUTRAL, 4, 4, E)  # 2 steps
    unit(S, tb, 1, NEUTRAL, 7, 5, E)  # 2 steps
    unit(S, tb, 1, NEUTRAL, 8, 5, E)  # 3 steps: not counted
    m = mods(S, tb, g, foe)
    assert strengths(m, 0, 0) == [3] * 4 and strengths(m, 0, 1) == [3] * 4
    assert strengths(mods(S, tb, foe, g), 1, 0) == [3] * 4


def t_brown_nosing():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Brown Nosing", 5, 5, N)
    front = unit(S, tb, 0, NEUTRAL, 4, 5, E)
    back = unit(S, tb, 0, NEUTRAL, 6, 5, E)
    foe = unit(S, tb, 1, NEUTRAL, 4, 6, W)
    assert strengths(mods(S, tb, front, foe), 0, 0) == [2] * 4
    assert strengths(mods(S, tb, foe, front), 1, 0) == [2] * 4
    assert strengths(mods(S, tb, back, foe), 0, 0) == [0] * 4


def t_titan_armor():
    tb = record()
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Titan Armor"])
    m = mods(S, tb, a, d)
    assert m[1, 0, M_D6] == 1 and m[1, 1, M_D6] == 1
    assert mods(S, tb, d, a)[0, 0, M_D6] == 0


def t_stoupid_strong():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Stoupid Strong"], "Titanium Golem")  # back 3 < 5
    m = mods(S, tb, a, d)
    assert m[0, 0, M_D6] == 1 and m[0, 1, M_D6] == 1
    S, a, d = _pair(tb, 1, HOLDER["Stoupid Strong"], NEUTRAL)  # back 2
    assert mods(S, tb, a, d)[0, 0, M_D6] == 0


def t_three_heads():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Three Heads"], NEUTRAL)
    m = mods(S, tb, a, d)
    assert m[0, 0, M_BEST_OF_3] == 1 and m[0, 1, M_BEST_OF_3] == 0
    assert mods(S, tb, d, a)[1, 0, M_BEST_OF_3] == 1


def _movement_shield(ability: str, kin: str, other: str):
    tb = record()
    S = position(tb)
    holder(S, tb, 0, ability, 5, 5, E)
    friend = unit(S, tb, 0, kin, 5, 7, E)
    plain = unit(S, tb, 0, other, 4, 6, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
    m = mods(S, tb, foe, friend)
    assert strengths(m, 1, 0) == [1] * 4 and strengths(m, 1, 1) == [1] * 4
    assert strengths(mods(S, tb, friend, foe), 0, 0) == [0] * 4  # Defend only
    assert strengths(mods(S, tb, foe, plain), 1, 0) == [0] * 4
    return S, tb, foe


def t_tidal_shield():
    S, tb, foe = _movement_shield("Tidal Shield", "Merman", "Soldier")  # Aqua / Land
    assert strengths(mods(S, tb, foe, 0), 1, 0) == [1] * 4  # "This Unit and ..."


def t_flock():
    _movement_shield("Flock", "Fly", "Soldier")  # Soar / Land


def t_squeeze():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Squeeze", 5, 5, E)
    near = unit(S, tb, 1, NEUTRAL, 5, 6, W)
    far = unit(S, tb, 1, NEUTRAL, 5, 7, W)
    ally = unit(S, tb, 0, NEUTRAL, 4, 5, W)
    m = mods(S, tb, ally, near)
    assert m[1, 0, M_BASE_D3] == 1 and m[1, 1, M_BASE_D3] == 1
    assert mods(S, tb, ally, far)[1, 0, M_BASE_D3] == 0
    assert mods(S, tb, near, ally)[1, 0, M_BASE_D3] == 0  # enemies only


def t_carapace():
    tb = record()
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Carapace"])
    S["fx_res"][0] = RES_RANGED
    assert mods(S, tb, a, d)[1, 0, M_D3] == 1
    S["fx_res"][0] = 0
    assert mods(S, tb, a, d)[1, 0, M_D3] == 0


def t_dragon_might():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Dragon Might", 5, 5, E)
    drake = unit(S, tb, 0, "Baby Dragon", 5, 8, E)  # Egg root, 3 steps
    soldier = unit(S, tb, 0, "Soldier", 4, 6, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 9, W)
    assert strengths(mods(S, tb, drake, foe), 0, 0) == [1] * 4
    assert strengths(mods(S, tb, foe, drake), 1, 1) == [1] * 4
    assert strengths(mods(S, tb, soldier, foe), 0, 0) == [0] * 4


def t_dragon_rage():
    tb = record()
    for foe, bonus in (("Hound", 1), ("Baby Dragon", 1), ("Beast Man", 1), ("Soldier", 0)):
        S, a, d = _pair(tb, 1, HOLDER["Dragon Rage"], foe)
        assert strengths(mods(S, tb, a, d), 0, 0) == [bonus] * 4, foe
        assert strengths(mods(S, tb, d, a), 1, 1) == [bonus] * 4, foe


def t_just_mud():
    tb = record()
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Just Mud"])
    S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
    assert mods(S, tb, a, d, escape=True)[0, 0, M_HALVE] == 1  # escaping from it: halved
    assert mods(S, tb, a, d)[0, 0, M_HALVE] == 0  # not in an Attack
    assert fx.dead_immune(S, tb, B0, I(d), I(a))
    for seed in SEEDS[:10]:  # it never dies from its lock partner's Attack
        S, a, d = _pair(tb, seed, "Gargantuan", HOLDER["Just Mud"])
        S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        engage(S, tb, a)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        assert S["unit_status"][0, d, ST["Dead"]] == 0
    S, a, d = _pair(tb, 1, "Gargantuan", HOLDER["Just Mud"])  # not Locked: it may die
    assert not fx.dead_immune(S, tb, B0, I(d), I(a))


def t_indestructable():
    tb = record()
    for seed in SEEDS[:10]:  # a Physical Attack never kills it
        S, a, d = _strike(tb, seed, "Gargantuan", HOLDER["Indestructable"])
        assert not has(S, d, "Dead")
    S, a, d = _pair(tb, 1, "Gargantuan", HOLDER["Indestructable"])
    assert fx.dead_immune(S, tb, B0, I(d), I(a))
    S, a, d = _pair(tb, 1, "Blade Master", HOLDER["Indestructable"])  # a Magical one may
    assert not fx.dead_immune(S, tb, B0, I(d), I(a))


# --- Statuses after an Attack / Defend / Duel (run_hook) ----------------------------------


def _strike(tb, seed: int, a_name: str, d_name: str, d_facing: int = E):
    """a_name (seat 0) strikes d_name (seat 1) standing in front of it, its back turned."""
    S, a, d = _pair(tb, seed, a_name, d_name, E, d_facing)
    unit(S, tb, 1, NEUTRAL, 0, 0, S_)
    unit(S, tb, 0, NEUTRAL, 9, 0, N)
    engage(S, tb, a)
    act(S, tb, A_END)
    act(S, tb, A_STRIKE)
    return S, a, d


def t_bone_snap():
    tb = record()
    outcomes = set()
    for seed in SEEDS[:15]:
        S, a, d = _strike(tb, seed, HOLDER["Bone Snap"], NEUTRAL)
        dead = has(S, d, "Dead")
        assert dead != has(S, d, "Crippled")  # Dead, or survived and Crippled
        outcomes.add(dead)
        S, a, d = _strike(tb, seed, HOLDER["Bone Snap"], "Apprentice")  # Magical: not applicable
        assert not has(S, d, "Crippled")
    both_ways(outcomes)


def t_rabies():
    tb = record()
    outcomes = set()
    for seed in SEEDS[:15]:
        S, a, d = _strike(tb, seed, HOLDER["Rabies"], NEUTRAL)
        dead = has(S, d, "Dead")
        assert dead != has(S, d, "Poisoned")
        outcomes.add(dead)
        S, a, d = _strike(tb, seed, NEUTRAL, HOLDER["Rabies"])  # the Wolf defends
        assert has(S, a, "Poisoned")
    both_ways(outcomes)


def t_trapped():
    tb = record()
    caught = 0
    for seed in SEEDS[:10]:
        S, a, d = _strike(tb, seed, NEUTRAL, HOLDER["Trapped!"], W)
        assert has(S, a, "Paralyzed") or has(S, d, "Dead")  # a Melee attacker (Not with Dead)
        caught += has(S, a, "Paralyzed")
    assert caught > 0
    S = position(tb)
    archer = unit(S, tb, 0, "Archer", 5, 2, E)
    d = holder(S, tb, 1, "Trapped!", 5, 4, W)
    unit(S, tb, 1, NEUTRAL, 0, 0, S_)
    engage(S, tb, archer)
    act(S, tb, A_END)
    act(S, tb, A_CELL + cell(tb, 5, 4))  # a Ranged Attack
    assert not has(S, archer, "Paralyzed")
    del d


def t_gone_wild():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Gone Wild"], NEUTRAL)
    set_procedure(S, a, d, 0)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert not has(S, a, "Enraged")
    set_procedure(S, a, d, RES_KILLED | RES_ATT_KILLED_ENEMY)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert has(S, a, "Enraged") and has(S, a, "Pumped") and has(S, a, "Haste")


def t_exit_wound():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Exit Wound"], NEUTRAL)
    set_procedure(S, a, d, RES_RANGED | RES_KILLED)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert not has(S, d, "Poisoned")
    set_procedure(S, a, d, RES_RANGED)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert has(S, d, "Poisoned")


def t_counter_clause():
    tb = record()
    outcomes = set()
    for seed in SEEDS[:25]:  # Physical never kills Ethereal; the Phantom wins or loses its roll
        S, a, d = _strike(tb, seed, NEUTRAL, HOLDER["Counter Clause"])
        won = not S["fx_res"][0] & RES_ATT_WON
        assert has(S, a, "Dead") == won and not has(S, d, "Dead")
        outcomes.add(won)
    both_ways(outcomes)
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Counter Clause"])
    set_procedure(S, a, d, RES_ATT_WON)
    hook(S, tb, H_AFTER_DEFEND, d, a)
    assert not has(S, a, "Dead")


def _rolled_status(ability, h, role, status, hit, sides=6, victim=NEUTRAL, res=0):
    """The ability's unit (attacker for role 0, defender for role 1) rolls; the other unit
    acquires `status` exactly when hit(roll)."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        if role == 0:
            S, a, d = _pair(tb, seed, HOLDER[ability], victim)
            src, opp = a, d
        else:
            S, a, d = _pair(tb, seed, victim, HOLDER[ability])
            src, opp = d, a
        set_procedure(S, a, d, res)
        (r,) = peek(S, sides)
        hook(S, tb, h, src, opp)
        assert has(S, opp, status) == hit(r), (ability, r)
        seen.add(hit(r))
    both_ways(seen)


def t_plague():
    _rolled_status("Plague", H_AFTER_DEFEND, 1, "Poisoned", lambda r: r >= 3)
    tb = record()
    S, a, d = _pair(tb, 1, "Archer", HOLDER["Plague"])  # a Ranged attacker: never
    for _ in range(10):
        hook(S, tb, H_AFTER_DEFEND, d, a)
    assert not has(S, a, "Poisoned")


def t_oil_spurt():
    _rolled_status("Oil Spurt", H_AFTER_ATTACK, 0, "Blinded", lambda r: r >= 4)


def t_razors_charge():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, HOLDER["Razor's Charge"], NEUTRAL)
        hook(S, tb, H_BEFORE_ATTACK, a, d)  # no charge: nothing
        assert not has(S, d, "Dead")
        S["engaged"][0] = a
        S["eng_procedure"][0] = PROC_CHARGE
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_ATTACK, a, d)
        assert has(S, d, "Dead") == (r >= 4)
        seen.add(r >= 4)
    both_ways(seen)


def t_whiptail():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Whiptail"], E, E)  # its back to a
        set_procedure(S, a, d, 0)  # on its front: nothing
        hook(S, tb, H_BEFORE_DEFEND, d, a)
        assert not has(S, a, "Dead")
        set_procedure(S, a, d, RES_BACK)
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_DEFEND, d, a)
        assert has(S, a, "Dead") == (r >= 5)
        seen.add(r >= 5)
    both_ways(seen)


def _duel_status(ability: str, status: str):
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER[ability], NEUTRAL)
    set_procedure(S, a, d, RES_DUEL)
    hook(S, tb, H_AFTER_DUEL, a, d)
    assert has(S, d, status)
    S = position(tb)
    a = holder(S, tb, 0, ability, 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 5, 6, W)  # an ally in a Duel with it: not an enemy
    set_procedure(S, a, ally, RES_DUEL)
    hook(S, tb, H_AFTER_DUEL, a, ally)
    assert not has(S, ally, status)


def t_bug_zapper():
    _duel_status("Bug Zapper", "Paralyzed")


def t_fire_flight():
    _duel_status("Fire Flight", "Burned")


def t_ignore_consequence():
    tb = record()
    seen = set()
    for seed in range(1, 120):
        S, a, d = _pair(tb, seed, HOLDER["Ignore Consequence"], NEUTRAL)
        r = sum(peek(S, 6, 6))
        hook(S, tb, H_BEFORE_ATTACK, a, d)
        want = {
            "d dead": r >= 10,
            "d para": 6 <= r <= 9,
            "a para": 4 <= r <= 5,
            "a dead": r <= 3,
        }
        got = {
            "d dead": has(S, d, "Dead"),
            "d para": has(S, d, "Paralyzed"),
            "a para": has(S, a, "Paralyzed"),
            "a dead": has(S, a, "Dead"),
        }
        assert got == want, r
        seen.add(next((k for k, v in want.items() if v), "none"))
    assert len(seen) == 4


# --- the end of a Turn --------------------------------------------------------------------


def _aura(ability: str, status: str, radius: int, team: str, hit, each: bool = True):
    """End of Turn: units (`team` of the holder) within `radius` acquire `status` when
    hit(roll) (one roll per unit, in id order); a unit out of reach never."""
    tb = record()
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        holder(S, tb, 0, ability, 5, 5, E)
        near_foe = unit(S, tb, 1, NEUTRAL, 5, 5 + radius, W)
        near_ally = unit(S, tb, 0, NEUTRAL, 5, 5 - radius, W)
        far = unit(S, tb, 1, NEUTRAL, 5, 6 + radius, W)
        picked = [near_ally] if team == "any" else []
        picked = sorted(picked + [near_foe])
        rolls = dict(zip(picked, peek(S, *[6] * len(picked)), strict=True))
        hook(S, tb, H_END_TURN, -1, -1)
        for v in picked:
            assert has(S, v, status) == hit(rolls[v]), (ability, v, rolls[v])
            seen.add(hit(rolls[v]))
        if team == "enemy":
            assert not has(S, near_ally, status)
        assert not has(S, far, status)
    both_ways(seen)


def t_deathly_miasma():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Deathly Miasma", 5, 5, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 6, W)
    diag = unit(S, tb, 1, NEUTRAL, 4, 4, W)
    ally = unit(S, tb, 0, NEUTRAL, 6, 5, W)
    act(S, tb, A_END)  # the Turn ends: the aura acts
    assert has(S, foe, "Fearful") and not has(S, diag, "Fearful")
    assert not has(S, ally, "Fearful")


def t_static_wave():
    _aura("Static Wave", "Paralyzed", 1, "any", lambda r: r <= 2)


def t_blizzard():
    _aura("Blizzard", "Frozen", 3, "enemy", lambda r: r >= 5)


def t_black_disease():
    _aura("Black Disease", "Poisoned", 1, "any", lambda r: r >= 5)


def t_spirits_cry():
    tb = record()
    seen = set()
    for seed in SEEDS[:20]:
        S = position(tb, seed=seed)
        holder(S, tb, 0, "Spirits Cry", 5, 5, E)
        ghost = unit(S, tb, 1, "Ghost", 5, 8, W)  # Ethereal, 3 steps
        phys = unit(S, tb, 0, NEUTRAL, 5, 2, W)  # Physical: Summoned is not applicable
        r_ghost, r_phys = peek(S, 6, 6)[::-1] if phys < ghost else peek(S, 6, 6)
        del r_phys
        hook(S, tb, H_END_TURN, -1, -1)
        assert has(S, ghost, "Summoned") == (r_ghost >= 3)
        assert not has(S, phys, "Summoned")
        seen.add(r_ghost >= 3)
    both_ways(seen)


# --- the Dead Status acquired -------------------------------------------------------------


def t_deus_ex_machina():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Deus Ex Machina"])
        r = sum(peek(S, 6, 6))
        S["fx_cause"][0] = a
        kill(S, tb, B0, I(d), I(0))
        hook(S, tb, H_DEAD, fx.NO_SOURCE)
        assert has(S, d, "Dead") == (r < 8)
        seen.add(r >= 8)
    both_ways(seen)


def t_haunt():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Haunt"])
        (r,) = peek(S, 6)
        S["fx_cause"][0] = a  # a kills the Ghost
        kill(S, tb, B0, I(d), I(0))
        hook(S, tb, H_DEAD, fx.NO_SOURCE)
        assert has(S, a, "Fearful") == (r >= 4)
        seen.add(r >= 4)
    both_ways(seen)


def _kin(ability: str, status: str):
    tb = record()
    S = position(tb)
    dying = holder(S, tb, 0, ability, 5, 5, E)
    bug = unit(S, tb, 0, "Fly", 5, 8, E)  # Bitty Bug root, 3 steps
    far_bug = unit(S, tb, 0, "Fly", 1, 5, E)  # 4 steps
    soldier = unit(S, tb, 0, "Soldier", 4, 5, E)
    foe = unit(S, tb, 1, "Gargantuan", 5, 4, E)
    S["fx_cause"][0] = foe
    kill(S, tb, B0, I(dying), I(1))
    hook(S, tb, H_DEAD, fx.NO_SOURCE)
    assert has(S, bug, status) and not has(S, far_bug, status)
    assert not has(S, soldier, status)


def t_loss_of_kin():
    _kin("Loss of Kin", "Pumped")


def t_swarm_call():
    _kin("Swarm Call", "Haste")


# --- Unit Engagement ----------------------------------------------------------------------


def _engaged_rating(S, tb, u: int) -> int:
    engage(S, tb, u)
    assert S["stage"][0] == STAGE_MOVE
    return int(movement_rating(S, tb, B0, I(u)))


def t_synchronize():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Synchronize", 5, 5, E)
    holder(S, tb, 0, "Synchronize", 6, 6, E)  # two: "not accumulative"
    unit(S, tb, 1, NEUTRAL, 9, 12, W)  # an enemy: the game goes on
    ally = unit(S, tb, 0, NEUTRAL, 5, 7, E)
    base = int(movement_rating(S, tb, B0, I(ally)))
    assert _engaged_rating(S, tb, ally) == base + 1
    act(S, tb, A_END)  # Disengaged: lasts the Turn
    assert int(movement_rating(S, tb, B0, I(ally))) == base + 1
    far = unit(S, tb, 0, NEUTRAL, 1, 1, E)
    assert _engaged_rating(S, tb, far) == base


def t_flash_flood():
    tb = record()
    S = position(tb)
    holder(S, tb, 0, "Flash Flood", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 4, 6, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 6, W)  # an enemy near it gains nothing
    base = int(movement_rating(S, tb, B0, I(ally)))
    assert _engaged_rating(S, tb, ally) == base + 1
    act(S, tb, A_END)  # until Disengaged
    assert int(movement_rating(S, tb, B0, I(ally))) == base
    assert fx.active_sum(S, tb, B0, I(foe), I(K_MOVE), I(-1)) == 0


def _moon(ability: str, check):
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 5, E)
        foe = unit(S, tb, 1, NEUTRAL, 9, 12, W)
        apply_status(S, tb, B0, I(u), I(ST["Enraged"]), I(-1))
        (r,) = peek(S, 6)
        engage(S, tb, u)
        if r >= 5:
            assert has(S, u, "Enraged")
        elif r <= 2:
            assert not has(S, u, "Enraged")
        else:
            assert has(S, u, "Enraged")  # kept
        check(S, tb, u, foe, r)
        seen.add((r >= 5, r >= 4, r <= 2))
    assert len(seen) >= 3


def t_moon_rage():
    def check(S, tb, u, foe, r):
        assert fx.active_sum(S, tb, B0, I(u), I(K_MOVE), I(-1)) == (1 if r >= 4 else 0)

    _moon("Moon Rage", check)


def t_harvest_moon_rage():
    def check(S, tb, u, foe, r):
        assert strengths(mods(S, tb, u, foe), 0, 0) == [2 if r >= 4 else 0] * 4

    _moon("Harvest Moon Rage", check)


def t_pulverize():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Pulverize", 5, 5, E)
        foe = unit(S, tb, 1, NEUTRAL, 5, 6, W)
        (r,) = peek(S, 6)
        engage(S, tb, u)
        assert strengths(mods(S, tb, u, foe), 0, 0) == [2 if r >= 5 else 0] * 4
        seen.add(r >= 5)
    both_ways(seen)


def t_sprint():
    tb = record()
    S = position(tb)
    u = holder(S, tb, 0, "Sprint", 5, 5, E)
    engage(S, tb, u)
    assert fx.active_sum(S, tb, B0, I(u), I(K_MOVE), I(-1)) == 1
    tb = record()
    paint(tb, 5, 5, terrain="Road")
    S = position(tb)
    u = holder(S, tb, 0, "Sprint", 5, 5, E)
    engage(S, tb, u)
    assert fx.active_sum(S, tb, B0, I(u), I(K_MOVE), I(-1)) == 0  # not on Field


def t_cold_blooded():
    tb = record()
    seen = set()
    for seed in SEEDS[:20]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Cold Blooded", 5, 5, E)
        (r,) = peek(S, 6)
        engage(S, tb, u)
        assert fx.active_sum(S, tb, B0, I(u), I(K_MOVE), I(-1)) == (2 if r >= 3 else -1)
        seen.add(r >= 3)
    both_ways(seen)


def t_vicious_snapper():
    tb = record()
    S = position(tb)
    u = holder(S, tb, 0, "Vicious Snapper", 5, 5, E)
    engage(S, tb, u)
    assert has(S, u, "Haste") and has(S, u, "Pumped")
    tb = record()
    paint(tb, 5, 5, terrain="Water")
    S = position(tb)
    u = holder(S, tb, 0, "Vicious Snapper", 5, 5, E)
    for s in ("Haste", "Pumped"):
        apply_status(S, tb, B0, I(u), I(ST[s]), I(-1))
    engage(S, tb, u)
    assert not has(S, u, "Haste") and not has(S, u, "Pumped")


def t_chill():
    tb = record()
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Chill", 5, 5, E)
        foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)  # 3 steps
        ghost = unit(S, tb, 1, "Ghost", 4, 5, W)  # Ethereal: never
        far = unit(S, tb, 1, NEUTRAL, 5, 9, W)
        r_foe, _ = peek(S, 6, 6)  # one roll per unit within 3, in id order (foe first)
        engage(S, tb, u)
        assert has(S, foe, "Frozen") == (r_foe >= 5)
        assert not has(S, ghost, "Frozen") and not has(S, far, "Frozen")
        seen.add(r_foe >= 5)
    both_ways(seen)


def t_dissolve_composure():
    tb = record()
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Dissolve Composure", 5, 5, E)
        sick = unit(S, tb, 1, NEUTRAL, 5, 8, W)
        well = unit(S, tb, 1, NEUTRAL, 4, 5, W)
        apply_status(S, tb, B0, I(sick), I(ST["Poisoned"]), I(-1))
        r_sick, _ = peek(S, 6, 6)
        engage(S, tb, u)
        assert has(S, sick, "Fearful") == (r_sick >= 4)
        assert not has(S, well, "Fearful")
        seen.add(r_sick >= 4)
    both_ways(seen)


# --- immunities ---------------------------------------------------------------------------


def t_resilient():
    tb = record()
    S, a, d = _pair(tb, 1, NEUTRAL, HOLDER["Resilient"])
    for s in ("Poisoned", "Paralyzed", "Burned", "Pumped"):
        assert not apply_status(S, tb, B0, I(d), I(ST[s]), I(-1))
    kill(S, tb, B0, I(d), I(0))  # "except for the Dead Status"
    assert has(S, d, "Dead")


# --- "R: Attack Pro.": the ability instead of the Attack (A_ABILITY, then the picks) -------


def _combat(S, tb, u: int) -> list[int]:
    """Engage u and end its Movement Phase at once: its Combat Phase's legal actions."""
    engage(S, tb, u)
    return act(S, tb, A_END)


def _target_ability(
    ability: str,
    want,  # roll -> the set of Statuses the target acquires
    checked: tuple[str, ...],
    target: str = NEUTRAL,
    at=(5, 4),
    out=(5, 0),
    enemy_only: bool = False,
    sides: int = 6,
    seeds=SEEDS[:30],
    more: bool = False,
    ally_offered: bool | None = None,
    roll_index: int = 0,
):
    """The holder on (5,2) facing east uses its ability on the `target` unit on `at`: the
    target is offered, the unit on `out` is not (outside the Range Area or radius), an ally
    in reach only when the row's team allows; then the target's Statuses follow the roll."""
    tb = record()
    seen = set()
    for seed in seeds:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 2, E)
        t = unit(S, tb, 1, target, *at, W)
        unit(S, tb, 1, NEUTRAL, *out, E)
        ally = unit(S, tb, 0, NEUTRAL, 4, 3, E)  # Rise 1, Run 1; 2 steps
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)  # the game goes on whatever happens
        assert A_ABILITY in _combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT
        assert A_CELL + cell(tb, *at) in got and A_CELL + cell(tb, *out) not in got
        offered = (not enemy_only) if ally_offered is None else ally_offered
        assert (A_CELL + cell(tb, 4, 3) in got) == offered, got
        r = peek(S, sides, sides)[roll_index]
        after = act(S, tb, A_CELL + cell(tb, *at))
        if more:  # "up to 2 Units": one picked, the player stops
            assert A_END in after and A_CELL + cell(tb, 4, 3) in after
            act(S, tb, A_END)
        w = want(r)
        for name in checked:
            assert has(S, t, name) == (name in w), (ability, r, name)
        assert not S["unit_status"][0, ally].any()
        assert S["unit_fought"][0, u] and S["stage"][0] != STAGE_EFFECT
        seen.add(frozenset(w))
    return seen


def t_enchanting():
    seen = _target_ability(
        "Enchanting", lambda r: {"Enchanted"} if r >= 4 else set(), ("Enchanted",),
        target="Apprentice", at=(5, 6), out=(5, 8),
    )  # fmt: skip
    assert len(seen) == 2


def t_preservatives():
    seen = _target_ability("Preservatives", lambda r: {"Frozen"} if r >= 4 else set(), ("Frozen",))
    assert len(seen) == 2


def t_black_magic():
    def want(r):
        return {"Confused"} if r == 6 else ({"Poisoned"} if r in (4, 5) else set())

    seen = _target_ability("Black Magic", want, ("Confused", "Poisoned"), more=True)
    assert len(seen) == 3
    tb = record()  # two picks: one roll each (RA21)
    for seed in SEEDS[:20]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Black Magic", 5, 2, E)
        t1 = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        t2 = unit(S, tb, 1, NEUTRAL, 4, 4, W)
        _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        act(S, tb, A_CELL + cell(tb, 4, 4))
        r2, r1 = peek(S, 6, 6)  # in the order picked
        act(S, tb, A_CELL + cell(tb, 5, 4))
        for t, r in ((t1, r1), (t2, r2)):
            assert has(S, t, "Confused") == (r == 6) and has(S, t, "Poisoned") == (r in (4, 5))


def t_natural_fury():
    def want(r):
        return {"Frozen"} if r == 6 else ({"Burned"} if r in (4, 5) else set())

    seen = _target_ability("Natural Fury", want, ("Frozen", "Burned"), more=True)
    assert len(seen) == 3


def t_bio_re_engineering():
    seen = _target_ability(
        "Bio Re-Engineering", lambda r: {"Haste"} if r >= 4 else set(), ("Haste",), more=True
    )
    assert len(seen) == 2


def t_sprite_spirit():
    _target_ability(
        "Sprite Spirit", lambda r: {"Summoned"}, ("Summoned",), target="Ghost", seeds=SEEDS[:2]
    )


def t_fairy_flame():
    _target_ability(
        "Fairy Flame", lambda r: {"Enchanted"}, ("Enchanted",), target="Apprentice", seeds=SEEDS[:2]
    )


def t_impish_bulk():
    _target_ability("Impish Bulk", lambda r: {"Pumped"}, ("Pumped",), seeds=SEEDS[:2])


def t_venom():
    seen = _target_ability("Venom", lambda r: {"Poisoned"} if r >= 3 else set(), ("Poisoned",))
    assert len(seen) == 2


def t_nightmare():
    seen = _target_ability(
        "Nightmare", lambda r: {"Confused"} if r >= 4 else set(), ("Confused",), enemy_only=True
    )
    assert len(seen) == 2


def t_curse_banshee():
    def want(r):
        if r >= 5:
            return {"Poisoned"}
        return {"Blinded"} if r in (3, 4) else ({"Crippled"} if r == 2 else set())

    seen = _target_ability("CURSE", want, ("Poisoned", "Blinded", "Crippled"), enemy_only=True)
    assert len(seen) == 4


def t_micro_shine():
    _target_ability(
        "Micro Shine", lambda r: {"Reflective"}, ("Reflective",), at=(5, 3), out=(5, 0),
        seeds=SEEDS[:2], ally_offered=False,
    )  # fmt: skip


def t_random_cannon():
    def want(r):
        return {6: {"Dead"}, 5: {"Frozen"}, 4: {"Burned"}, 3: {"Poisoned"}}.get(r, set())

    seen = _target_ability("Random Cannon", want, ("Dead", "Frozen", "Burned", "Poisoned"))
    assert len(seen) == 5


def t_acid_shock():
    seen = _target_ability("Acid Shock", lambda r: {"Blinded"} if r >= 4 else set(), ("Blinded",))
    assert len(seen) == 2


def t_weird_cloud_bomb():
    seen = _target_ability(
        "Weird Cloud Bomb",
        lambda r: {x for x, k in (("Haste", 2), ("Lucky", 4), ("Poisoned", 5)) if r >= k},
        ("Haste", "Lucky", "Poisoned"),
    )
    assert len(seen) == 4


def t_eek():
    # the Giant Spider's Core Strength is 17: a Rogue (10) is lower (3+), a Titanium Golem
    # (23) is not (5+)
    for target, k, which in ((NEUTRAL, 3, 0), ("Titanium Golem", 5, 1)):
        seen = _target_ability(  # the second row rolls its own die
            "EEK!", lambda r, k=k: {"Petrified"} if r >= k else set(), ("Petrified",),
            target=target, at=(5, 3), out=(5, 0), ally_offered=False, roll_index=which,
        )  # fmt: skip
        assert len(seen) == 2


def t_tricked():
    tb = record()
    for seed in SEEDS[:8]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Tricked", 5, 2, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        ally = unit(S, tb, 0, NEUTRAL, 4, 3, E)
        got = act(S, tb, A_ABILITY) if A_ABILITY in _combat(S, tb, u) else []
        assert A_CELL + cell(tb, 5, 4) in got and A_CELL + cell(tb, 4, 3) not in got
        (r,) = peek(S, 4)
        act(S, tb, A_CELL + cell(tb, 5, 4))
        assert S["unit_facing"][0, t] == (W + r) % 4  # clockwise, 1 D4 times
        del ally


def t_holy_guidance():
    tb = record()
    for seed in SEEDS[:8]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Holy Guidance", 5, 2, E)
        ally = unit(S, tb, 0, "Archer", 4, 3, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        base = int(fx.range_rating(S, tb, B0, I(ally)))
        _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        r3, r4 = peek(S, 3, 4)
        act(S, tb, A_CELL + cell(tb, 4, 3))
        assert int(fx.range_rating(S, tb, B0, I(ally))) == base + r3
        assert fx.active_sum(S, tb, B0, I(ally), I(fx.K_RANGE), I(fx.RANGE_MODIFIER)) == r4
        act(S, tb, A_END)  # this Turn only
        assert int(fx.range_rating(S, tb, B0, I(ally))) == base


def t_summoning_spell():
    tb = record()
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Summoning Spell", 5, 2, E)
        ghost = unit(S, tb, 1, "Ghost", 5, 5, W)  # in the Range Area
        phys = unit(S, tb, 1, NEUTRAL, 4, 4, W)  # in it, but Physical
        behind = unit(S, tb, 1, "Ghost", 5, 0, E)
        _combat(S, tb, u)
        r_ghost, _ = peek(S, 6, 6)  # every unit in the area, in id order
        act(S, tb, A_ABILITY)  # no pick: every unit in the area
        assert has(S, ghost, "Summoned") == (r_ghost >= 4)
        assert not has(S, phys, "Summoned") and not has(S, behind, "Summoned")
        seen.add(r_ghost >= 4)
    both_ways(seen)


def t_lightning_cry():
    tb = record()
    mf = int(TABLES.area_index["MF"])
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Lightning Cry", 5, 5, E)
        cells = np.empty(16, dtype=np.int64)
        n = area_cells(tb, I(0), S["flood"][0], I(mf), I(cell(tb, 5, 5)), I(E), False, cells)
        inside = [unit(S, tb, 1, NEUTRAL, int(c) // 14, int(c) % 14, W) for c in cells[:2]]
        outside = unit(S, tb, 1, NEUTRAL, 5, 3, W)
        assert n >= 2
        _combat(S, tb, u)
        rolls = peek(S, 6, 6)
        act(S, tb, A_ABILITY)
        for v, r in zip(inside, rolls, strict=True):
            assert has(S, v, "Paralyzed") == (r >= 4)
            seen.add(r >= 4)
        assert not has(S, outside, "Paralyzed")
    both_ways(seen)


# --- permissions, renewed Statuses, Statuses on a later Disengagement ------------------------


def t_reckless():
    tb = record()
    for name, fires in ((HOLDER["Reckless"], True), ("Archer", False)):
        S = position(tb)
        u = unit(S, tb, 0, name, 5, 2, E)
        unit(S, tb, 1, NEUTRAL, 5, 5, W)
        engage(S, tb, u)
        act(S, tb, A_CELL + cell(tb, 5, 3))  # a Movement Procedure
        got = act(S, tb, A_END)
        assert (A_CELL + cell(tb, 5, 5) in got) == fires, name


def t_transpose():
    tb = record()
    for r in range(int(tb.bf_rows[0])):
        paint(tb, r, 6, height=3)  # a wall of height-3 pieces
    for name, passes in ((HOLDER["Transpose"], True), ("Angel Knight", False)):  # both Hover
        S = position(tb)
        u = unit(S, tb, 0, name, 5, 5, E)
        dest = np.zeros(MAX_CELLS, dtype=np.int64)
        reach(S, tb, B0, I(u), dest)
        assert bool(dest[cell(tb, 5, 7)]) == passes, name  # through, onto the far side
        assert not dest[cell(tb, 5, 6)]  # never onto a piece
        assert bool(may_charge(S, tb, B0, I(u))) == passes  # "may also perform a Charge"


def t_slither():
    tb = record()
    paint(tb, 5, 5, terrain="Water")
    for name, n in ((HOLDER["Slither"], 3), ("Merman", 0)):  # both Aqua
        S = position(tb)
        u = unit(S, tb, 0, name, 5, 5, E)
        line = np.zeros(64, dtype=np.int64)
        k = int(charge_line(S, tb, B0, I(u), line))
        assert k >= n and (k > 0) == (n > 0), name  # out of the Water onto Field
        assert k == 0 or line[0] == cell(tb, 5, 6)


def t_super_serial():
    tb = record()
    S = position(tb)
    mbp = holder(S, tb, 0, "Super Serial", 5, 5, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 6, W)
    ally = unit(S, tb, 0, NEUTRAL, 5, 3, E)  # 2 steps
    far = unit(S, tb, 1, NEUTRAL, 5, 8, W)  # 3 steps
    act(S, tb, A_END)  # the end of the Turn
    assert has(S, mbp, "Feared")  # "permanently has the Feared Status"
    assert has(S, foe, "Fearful")  # Feared: enemies in contact (TD-20.19), Fearful over Enraged
    assert has(S, ally, "Enraged") and not has(S, far, "Enraged")
    S["unit_status"][0, mbp, ST["Feared"]] = 0  # discarded: it comes back
    act(S, tb, A_END)
    assert has(S, mbp, "Feared")


def t_divine_justice():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Divine Justice"])
        bystander = unit(S, tb, 0, NEUTRAL, 0, 0, S_)
        r = sum(peek(S, 6, 6))
        S["fx_cause"][0] = a  # a kills the Angel Knight
        kill(S, tb, B0, I(d), I(0))
        hook(S, tb, H_DEAD, fx.NO_SOURCE)
        assert not has(S, a, "Dead")  # not yet: "upon that Unit's Disengagement"
        fx.disengaged(S, tb, B0, I(bystander))
        assert not has(S, a, "Dead")
        fx.disengaged(S, tb, B0, I(a))
        assert has(S, a, "Dead") == (r >= 6)
        seen.add(r >= 6)
    both_ways(seen)


# --- the Dead Status by an Attack only; removal from the game; Skewer -----------------------


def t_skewer():
    tb = record()
    S, a, d = _pair(tb, 1, HOLDER["Skewer"], NEUTRAL)
    behind = unit(S, tb, 0, NEUTRAL, 5, 7, W)  # in its area MB, an ally: "any other Unit"
    set_procedure(S, a, d, 0)  # no kill: nothing
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert not has(S, behind, "Dead")
    S["fx_cause"][0] = a
    kill(S, tb, B0, I(d), I(0))
    set_procedure(S, a, d, RES_KILLED | RES_ATT_KILLED_ENEMY)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert has(S, behind, "Dead")
    S, a, d = _pair(tb, 1, HOLDER["Skewer"], NEUTRAL)  # a Flail changes its area: no Skewer
    side = unit(S, tb, 1, NEUTRAL, 4, 6, W)  # in the Flail's area MC
    S["unit_item"][0, a, 0] = TABLES.item_names.index("Flail")
    kill(S, tb, B0, I(d), I(0))
    set_procedure(S, a, d, RES_KILLED | RES_ATT_KILLED_ENEMY)
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert not has(S, side, "Dead")


def t_feast():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, HOLDER["Feast"], NEUTRAL)
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        r = sum(peek(S, 6, 6))
        hook(S, tb, H_LOCK, a, d)  # a Combat Lock would form
        removed = S["unit_place"][0, d] == PLACE_REMOVED
        assert removed == (r >= 7)
        if removed:
            assert S["cell_unit"][0, cell(tb, 5, 6), 0] == -1 and S["unit_cell"][0, d] == -1
            assert violations(S, tb, 0) == []
        seen.add(removed)
    both_ways(seen)
    for seed in SEEDS[:25]:  # through real attacks: no lock ever with a removed unit
        S, a, d = _strike(tb, seed, NEUTRAL, HOLDER["Feast"], W)
        assert S["unit_place"][0, a] != PLACE_REMOVED or S["unit_lock"][0, d] == -1
        assert violations(S, tb, 0) == []


def t_soul_reap():
    tb = record()
    outcomes = set()
    for seed in SEEDS[:20]:
        S, a, d = _strike(tb, seed, HOLDER["Soul Reap"], NEUTRAL)
        dead = has(S, d, "Dead")
        assert dead == (S["unit_place"][0, d] == PLACE_REMOVED)  # killed: removed
        assert violations(S, tb, 0) == []
        outcomes.add(dead)
    both_ways(outcomes)


def t_oblivious():
    tb = record()
    seen = 0
    for seed in range(1, 200):  # Ignore Consequence's 10+ would kill the defender
        S, a, d = _pair(tb, seed, HOLDER["Ignore Consequence"], HOLDER["Oblivious"])
        r = sum(peek(S, 6, 6))
        hook(S, tb, H_BEFORE_ATTACK, a, d)
        assert not has(S, d, "Dead")
        seen += r >= 10
    assert seen > 0
    kills = 0
    for seed in SEEDS[:30]:  # an Attack still kills it
        S, a, d = _strike(tb, seed, "Blade Master", HOLDER["Oblivious"])
        kills += has(S, d, "Dead")
    assert kills > 0


def t_cute_and_cuddly():
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Cute and Cuddly"])
        set_procedure(S, a, d, 0)
        r = sum(peek(S, 6, 6))
        hook(S, tb, H_BEFORE_DEFEND, d, a)
        assert bool(S["fx_res"][0] & RES_NEGATED) == (r >= 8)  # the attack does not happen
        seen.add(r >= 8)
    both_ways(seen)
    for seed in SEEDS[:20]:  # through real attacks: a negated attack neither kills nor locks
        S, a, d = _pair(tb, seed, "Gargantuan", HOLDER["Cute and Cuddly"])
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        engage(S, tb, a)
        act(S, tb, A_END)
        r = sum(peek(S, 6, 6))  # the Pup's roll comes first
        act(S, tb, A_STRIKE)
        if r >= 8:
            assert not has(S, d, "Dead") and S["unit_lock"][0, d] == -1


# --- "D: Combat Pha.": used once besides the Attack (A_ABILITY, the picks; R55) --------------


def _combat_phase_ability(
    ability: str,
    want,  # roll -> the set of Statuses the target has afterwards
    checked: tuple[str, ...],
    target: str = NEUTRAL,
    at=(5, 3),
    out=(5, 0),
    enemy_only: bool = True,
    given: tuple[str, ...] = (),
    seeds=SEEDS[:30],
):
    """The holder on (5,2) facing east, the `target` on `at` facing it (with the Statuses
    `given`): A_ABILITY is offered, the target is, the unit on `out` is not, the ally on (4,3)
    only when the row's team allows; after the pick the target's Statuses follow the roll and
    the Combat Phase goes on, the ability not offered again (once per Engagement) and the
    unit still free to attack."""
    tb = record()
    seen = set()
    for seed in seeds:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 2, E)
        t = unit(S, tb, 1, target, *at, W)
        for name in given:
            S["unit_status"][0, t, ST[name]] = STATUS_PERMANENT
        unit(S, tb, 1, NEUTRAL, *out, E)
        ally = unit(S, tb, 0, NEUTRAL, 4, 3, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        assert A_ABILITY in _combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT
        assert A_CELL + cell(tb, *at) in got and A_CELL + cell(tb, *out) not in got
        assert (A_CELL + cell(tb, 4, 3) in got) == (not enemy_only), got
        r = peek(S, 6)[0]
        after = act(S, tb, A_CELL + cell(tb, *at))
        w = want(r)
        for name in checked:
            assert has(S, t, name) == (name in w), (ability, r, name)
        assert not S["unit_status"][0, ally].any()
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after, after
        assert any(a != A_END for a in after)  # its Attack is still to come
        seen.add(frozenset(w))
    return seen


def t_manipulation():
    seen = _combat_phase_ability(
        "Manipulation", lambda r: {"Silenced"} if r >= 3 else set(), ("Silenced",),
        target="Apprentice", out=(5, 4),
    )  # fmt: skip
    assert len(seen) == 2


def t_minds_eye():
    seen = _combat_phase_ability(
        "Mind's Eye", lambda r: {"Blinded"} if r >= 5 else set(), ("Blinded",), at=(5, 4)
    )
    assert len(seen) == 2


def t_venom_web():
    seen = _combat_phase_ability(
        "Venom Web", lambda r: {"Poisoned"} if r >= 4 else set(), ("Poisoned",), at=(5, 4),
        enemy_only=False,
    )  # fmt: skip
    assert len(seen) == 2


def t_acid_web():
    # the one Status the target's Unit Type allows (RA18): a Physical unit is Crippled
    seen = _combat_phase_ability(
        "Acid Web", lambda r: {"Crippled"} if r >= 4 else set(),
        ("Crippled", "Silenced", "Banished"), at=(5, 4), enemy_only=False,
    )  # fmt: skip
    assert len(seen) == 2
    seen = _combat_phase_ability(
        "Acid Web", lambda r: {"Silenced"} if r >= 4 else set(),
        ("Crippled", "Silenced", "Banished"), target="Apprentice", at=(5, 4), enemy_only=False,
    )  # fmt: skip
    assert len(seen) == 2


def t_web():
    seen = _combat_phase_ability(
        "Web", lambda r: {"Frozen"} if r >= 5 else set(), ("Frozen",), at=(5, 4),
        enemy_only=False,
    )  # fmt: skip
    assert len(seen) == 2


def t_dispel():
    seen = _combat_phase_ability(
        "Dispel", lambda r: {"Poisoned"} if r >= 4 else {"Poisoned", "Haste"},
        ("Haste", "Poisoned"), at=(5, 4), enemy_only=False, given=("Haste", "Poisoned"),
    )  # fmt: skip
    assert len(seen) == 2


def t_island_spring():
    # no roll: every Status but Dead goes; the ally 2 spaces away may be picked, (5,6) may not
    _combat_phase_ability(
        "Island Spring", lambda r: set(), ("Poisoned", "Frozen", "Blinded"), out=(5, 6),
        enemy_only=False, given=("Poisoned", "Frozen", "Blinded"), seeds=SEEDS[:3],
    )  # fmt: skip


def t_fit_of_laughter():
    """Every enemy in the Range Area and in Line of Sight rolls (one roll each, in id order):
    5+ Crippled; an ally in range, an enemy behind a Forest and one outside it are untouched;
    the Combat Phase goes on."""
    tb = record()
    paint(tb, 4, 4, terrain="Forest")
    seen = set()
    for seed in SEEDS[:25]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Fit of Laughter", 5, 2, E)
        e1 = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        e2 = unit(S, tb, 1, NEUTRAL, 6, 4, W)
        hidden = unit(S, tb, 1, NEUTRAL, 4, 5, W)  # in range, the Forest on (4,4) between
        behind = unit(S, tb, 1, NEUTRAL, 5, 0, E)
        ally = unit(S, tb, 0, NEUTRAL, 4, 3, E)
        assert fx.in_range_area(S, tb, B0, I(u), I(hidden), False)
        assert not fx.in_range_area(S, tb, B0, I(u), I(hidden), True)
        assert A_ABILITY in _combat(S, tb, u)
        r1, r2 = peek(S, 6, 6)
        after = act(S, tb, A_ABILITY)
        assert has(S, e1, "Crippled") == (r1 >= 5) and has(S, e2, "Crippled") == (r2 >= 5)
        for v in (hidden, behind, ally):
            assert not has(S, v, "Crippled")
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after
        seen.add((r1 >= 5, r2 >= 5))
    assert len(seen) >= 3


def test_combat_phase_ability_while_locked():
    """A "D: Combat Pha." ability goes with the Attack, so a unit Locked in Combat may use it
    (R55) and must still attack its opponent; an "R: Attack Pro." one replaces the Attack and
    is not offered while Locked (TD-16.3)."""
    tb = record()
    S = position(tb, seed=3)
    u = holder(S, tb, 0, "Manipulation", 5, 2, E)
    v = unit(S, tb, 1, "Apprentice", 5, 3, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    S["unit_lock"][0, u] = v
    S["unit_lock"][0, v] = u
    got = _combat(S, tb, u)
    assert A_ABILITY in got and A_END not in got
    act(S, tb, A_ABILITY)
    after = act(S, tb, A_CELL + cell(tb, 5, 3))
    assert A_ABILITY not in after and A_END not in after and A_STRIKE in after
    S = position(tb, seed=3)
    u = holder(S, tb, 0, "Venom", 5, 2, E)
    v = unit(S, tb, 1, NEUTRAL, 5, 3, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    S["unit_lock"][0, u] = v
    S["unit_lock"][0, v] = u
    got = _combat(S, tb, u)
    assert A_ABILITY not in got and A_STRIKE in got


# --- the breaths: an Attack with the row's Base Strength, no Duel, then Statuses (R56) -------


def _breath(ability: str, amount: int, statuses: tuple[str, ...], k: int):
    tb = record()
    area = unit_area
    seen = set()
    hit = set()
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 5, E)
        cells = np.empty(16, dtype=np.int64)
        n = area_cells(
            tb, I(0), S["flood"][0], area(S, tb, B0, I(u)), I(cell(tb, 5, 5)), I(E), False, cells
        )
        assert n >= 2
        inside = [unit(S, tb, 1, "Titanium Golem", int(c) // 14, int(c) % 14, W) for c in cells[:2]]
        outside = unit(S, tb, 1, NEUTRAL, 5, 3, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        # the breath's strength is the row's (1 or 2), not the printed front
        S["fx_res"][0] = RES_SPECIAL
        a_str, _ = sides_and_strengths(S, tb, B0, I(u), I(inside[0]), I(0), False)
        assert a_str == amount
        S["fx_res"][0] = 0
        a_str, _ = sides_and_strengths(S, tb, B0, I(u), I(inside[0]), I(0), False)
        assert a_str == int(S["unit_strength"][0, u, 0]) != amount
        # each unit attacked rolls once after its attack: k+ gives the Statuses
        set_procedure(S, u, inside[0], RES_SPECIAL)
        r = peek(S, 6)[0]
        hook(S, tb, H_AFTER_BREATH, u, inside[0])
        for name in statuses:
            # a Status the Unit Type is immune to is not acquired (Silenced: Magical only)
            can = bool(tb.st_afflicts[ST[name], S["unit_type"][0, inside[0]]])
            assert has(S, inside[0], name) == (r >= k and can), (ability, r, name)
            S["unit_status"][0, inside[0], ST[name]] = 0
        seen.add(r >= k)
        # the whole breath: A_ABILITY attacks every unit in the area, no Duel follows
        assert A_ABILITY in _combat(S, tb, u)
        act(S, tb, A_ABILITY)  # the Combat Phase ends: the Turn passes (no other unit)
        assert S["current"][0] == 1
        hit.update(v for v in inside if any(has(S, v, name) for name in statuses))
        assert not any(has(S, outside, name) for name in statuses)
    both_ways(seen)
    assert len(hit) == 2  # each unit in the area was breathed on in some game
    # no Duel: against the Golem's front the defence is out of the breath's reach at once
    # (the Duel condition, R10), yet no Duel follows; an ordinary attack on it does duel
    duels = {True: 0, False: 0}
    for seed in SEEDS:
        for special in (True, False):
            S, a, d = _pair(tb, seed, HOLDER[ability], "Titanium Golem")
            begin_procedure(S, tb, B0, I(a), I(d), I(0))
            S["fx_res"][0] = RES_SPECIAL if special else 0
            contest(S, tb, B0, I(a), I(d), I(0), False, False)
            duels[special] += bool(S["fx_res"][0] & RES_DUEL)
    assert duels[True] == 0 and duels[False] > 0
    # an ordinary Attack of the dragon gives no Statuses (the rows follow the breath only)
    for seed in SEEDS[:10]:
        S, a, d = _pair(tb, seed, HOLDER[ability], NEUTRAL)
        set_procedure(S, a, d, 0)
        hook(S, tb, H_AFTER_ATTACK, a, d)
        assert not S["unit_status"][0, d].any()


def t_frost_breath():
    _breath("Frost Breath", 1, ("Frozen",), 4)


def t_glacial_breath():
    _breath("Glacial Breath", 2, ("Frozen", "Silenced"), 4)


def t_sandstorm_breath():
    _breath("Sandstorm Breath", 1, ("Blinded",), 4)


def t_erosion_breath():
    _breath("Erosion Breath", 2, ("Blinded", "Crippled"), 4)


def t_bright_breath():
    _breath("Bright Breath", 1, ("Confused",), 4)


def t_radiant_breath():
    _breath("Radiant Breath", 2, ("Petrified",), 5)


def t_outsmart():
    """B: Defend: on 4+ this unit wins its Defend Procedure automatically, no Duel, and no
    Combat Lock forms though the two face each other in contact; otherwise nothing."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        a = unit(S, tb, 1, "Titanium Golem", 5, 5, E)
        d = holder(S, tb, 0, "Outsmart", 5, 6, W)
        unit(S, tb, 0, NEUTRAL, 0, 13, S_)
        S["current"][0] = 1
        r = peek(S, 6)[0]
        attack_unit(S, tb, B0, I(a), I(d), I(0), False, I(0), I(0))
        if r >= 4:
            assert not has(S, d, "Dead") and S["unit_lock"][0, d] < 0
            assert S["unit_lock"][0, a] < 0
        seen.add(r >= 4)
        assert not S["fx_row"][0].max() >= 0  # the win lasted this procedure only
    both_ways(seen)


# --- Statuses the player chooses to discard (STAGE_EFFECT, RESUME_STATUS; R57) ---------------


def _statuses_of(S, u: int) -> set[str]:
    return {name for name, k in ST.items() if S["unit_status"][0, u, k] != 0}


def t_picking_up_the_pieces():
    """Only next to a Dead unit; the player may discard one of this unit's Statuses (or
    none); the Combat Phase goes on."""
    tb = record()
    for dead_near, pick in ((True, "Blinded"), (True, None), (False, None)):
        S = position(tb, seed=2)
        u = holder(S, tb, 0, "Picking up the Pieces", 5, 2, E)
        d = unit(S, tb, 1, NEUTRAL, 4, 2 if dead_near else 0, E)
        unit(S, tb, 1, NEUTRAL, 5, 3, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        S["unit_status"][0, d, ST["Dead"]] = STATUS_PERMANENT
        got = _combat(S, tb, u)
        assert (A_ABILITY in got) == dead_near
        if not dead_near:
            continue
        for name in ("Blinded", "Pumped"):
            S["unit_status"][0, u, ST[name]] = STATUS_PERMANENT
        got = act(S, tb, A_ABILITY)
        assert sorted(got) == sorted([A_STATUS + ST["Blinded"], A_STATUS + ST["Pumped"], A_END])
        after = act(S, tb, A_END if pick is None else A_STATUS + ST[pick])
        want = {"Blinded", "Pumped"} - ({pick} if pick else set())
        assert _statuses_of(S, u) == want
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after


def t_repair():
    """A unit in direct contact not Locked in Combat (friend or foe) may discard one Status
    of the player's choice, never Dead."""
    tb = record()
    S = position(tb, seed=2)
    u = holder(S, tb, 0, "Repair", 5, 2, E)
    t = unit(S, tb, 0, NEUTRAL, 4, 2, E)
    locked = unit(S, tb, 1, NEUTRAL, 6, 2, E)
    other = unit(S, tb, 0, NEUTRAL, 6, 3, W)
    S["unit_lock"][0, locked] = other
    S["unit_lock"][0, other] = locked
    far = unit(S, tb, 1, NEUTRAL, 5, 4, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    got = act(S, tb, A_ABILITY) if A_ABILITY in _combat(S, tb, u) else []
    assert A_CELL + cell(tb, 4, 2) in got
    assert A_CELL + cell(tb, 6, 2) not in got and A_CELL + cell(tb, 5, 4) not in got
    for name in ("Blinded", "Pumped"):
        S["unit_status"][0, t, ST[name]] = STATUS_PERMANENT
    got = act(S, tb, A_CELL + cell(tb, 4, 2))
    assert sorted(got) == sorted([A_STATUS + ST["Blinded"], A_STATUS + ST["Pumped"], A_END])
    after = act(S, tb, A_STATUS + ST["Pumped"])
    assert _statuses_of(S, t) == {"Blinded"} and not S["unit_status"][0, far].any()
    assert A_ABILITY not in after


def t_bandages():
    """The target in direct contact discards one Status (not Dead, not Petrified): the player
    must choose one when it has one."""
    tb = record()
    S = position(tb, seed=2)
    u = holder(S, tb, 0, "Bandages", 5, 2, E)
    t = unit(S, tb, 0, NEUTRAL, 4, 2, E)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    _combat(S, tb, u)
    for name in ("Blinded", "Petrified"):
        S["unit_status"][0, t, ST[name]] = STATUS_PERMANENT
    act(S, tb, A_ABILITY)
    got = act(S, tb, A_CELL + cell(tb, 4, 2))
    assert got == [A_STATUS + ST["Blinded"]]  # Petrified may not go; no "may": no A_END
    act(S, tb, A_STATUS + ST["Blinded"])
    assert _statuses_of(S, t) == {"Petrified"}


def t_rectify():
    """Instead of its Attack: the target in the Range Area and Line of Sight discards the
    Statuses the player chooses (at least one, never Dead or Petrified) if 1 D6 >= 3."""
    tb = record()
    seen = set()
    for seed in SEEDS[:20]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Rectify", 5, 2, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        unit(S, tb, 1, NEUTRAL, 5, 0, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        _combat(S, tb, u)
        for name in ("Blinded", "Pumped", "Burned", "Petrified"):
            S["unit_status"][0, t, ST[name]] = STATUS_PERMANENT
        got = act(S, tb, A_ABILITY)
        assert A_CELL + cell(tb, 5, 4) in got and A_CELL + cell(tb, 5, 0) not in got
        got = act(S, tb, A_CELL + cell(tb, 5, 4))
        want = {A_STATUS + ST[x] for x in ("Blinded", "Pumped", "Burned")}
        assert set(got) == want  # at least one must be chosen
        got = act(S, tb, A_STATUS + ST["Blinded"])
        assert set(got) == want - {A_STATUS + ST["Blinded"]} | {A_END}
        act(S, tb, A_STATUS + ST["Pumped"])
        r = peek(S, 6)[0]
        act(S, tb, A_END)
        left = {"Burned", "Petrified"} if r >= 3 else {"Blinded", "Pumped", "Burned", "Petrified"}
        assert _statuses_of(S, t) == left, (r, _statuses_of(S, t))
        assert S["current"][0] == 1  # it replaced the Attack: the Turn passed
        seen.add(r >= 3)
    both_ways(seen)


# --- the Ranged Hit Procedure's dice (H_RANGED_HIT; R58) -------------------------------------


def _shot(tb, seed: int, ability: str, rise: int):
    """The holder on (5,0) facing east, a Rogue `rise` spaces ahead; the copy of the RNG
    the check rolls the Ranged Hit's dice from."""
    S = position(tb, seed=seed)
    u = holder(S, tb, 0, ability, 5, 0, E)
    t = unit(S, tb, 1, NEUTRAL, 5, rise, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    return S, u, t


def _missed(S, copy) -> bool:
    """A missed Ranged Hit rolls nothing after its dice: the RNG is where the copy is."""
    return bool(np.array_equal(S["rng"][0], copy["rng"][0]))


def t_perfect_shot():
    """+1 D3 to the Ranged Hit: at Rise + Run 6 (Range Modifier 0) 2 D6 + 1 D3 >= 6 hits;
    some shots hit only thanks to the D3."""
    tb = record()
    saved = 0
    for seed in SEEDS:
        S, u, t = _shot(tb, seed, "Perfect Shot", 6)
        copy = S.copy()
        d1, d2, d3 = (int(roll_d(copy["rng"], B0, I(k))) for k in (6, 6, 3))
        _fire(S, tb, B0, I(u), I(cell(tb, 5, 6)), I(0), I(0), I(0))
        assert _missed(S, copy) == (d1 + d2 + d3 < 6), (d1, d2, d3)
        saved += d1 + d2 < 6 <= d1 + d2 + d3
    assert saved > 0
    S, u, t = _shot(tb, 1, "Fit of Laughter", 3)  # another Ranged unit (Jester): no D3
    copy = S.copy()
    assert fx.ranged_hit_bonus(S, tb, B0, I(u), I(0)) == 0 and _missed(S, copy)


def t_headshot():
    """The Ranged Hit's 2 D6, unmodified, summing 10 or more: the targeted unit acquires the
    Dead Status (hit or miss, R58); at Rise 9 with Range Modifier +2 a sum of 6 or less misses
    and the target is untouched."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, u, t = _shot(tb, seed, "Headshot", 9)
        d1, d2 = peek(S, 6, 6)
        _fire(S, tb, B0, I(u), I(cell(tb, 5, 9)), I(0), I(0), I(0))
        if d1 + d2 >= 10:
            assert has(S, t, "Dead")
        elif d1 + d2 <= 6:
            assert not S["unit_status"][0, t].any()
        seen.add(d1 + d2 >= 10)
    both_ways(seen)
    for total, dead in ((9, False), (10, True), (12, True)):
        S, u, t = _shot(tb, 1, "Headshot", 9)
        S["fx_proc_roll"][0] = total  # the unmodified sum, as _fire leaves it
        hook(S, tb, H_RANGED_HIT, u, t)
        assert has(S, t, "Dead") == dead


# --- auras on a kill; the defender backed by a unit (R59) ------------------------------------


def t_vampiric_aura():
    """A unit (this one or an ally within 3) whose Attack gives an enemy the Dead Status
    acquires Lucky; the others do not, nor does anyone when the attack does not kill, nor an
    ally 4 spaces away."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        for col in (3, 8):  # the killer 2 / 4 spaces from the holder
            S = position(tb, seed=seed)
            h = holder(S, tb, 0, "Vampiric Aura", 5, col - 2 if col == 3 else 4, E)
            a = unit(S, tb, 0, "Titanium Golem", 5, col, E)
            d = unit(S, tb, 1, NEUTRAL, 5, col + 1, W)
            unit(S, tb, 1, NEUTRAL, 0, 13, S_)
            assert fx.distance(S, tb, B0, I(h), I(a)) == (2 if col == 3 else 4)
            attack_unit(S, tb, B0, I(a), I(d), I(0), False, I(0), I(0))
            killed = has(S, d, "Dead")
            assert has(S, a, "Lucky") == (killed and col == 3), (seed, col, killed)
            assert not has(S, h, "Lucky")
            seen.add((killed, col))
    assert len(seen) == 4
    for seed in SEEDS[:10]:  # the holder's own kill
        S = position(tb, seed=seed)
        h = holder(S, tb, 0, "Vampiric Aura", 5, 5, E)
        d = unit(S, tb, 1, "Soldier", 5, 6, W)
        attack_unit(S, tb, B0, I(h), I(d), I(0), False, I(0), I(0))
        assert has(S, h, "Lucky") == has(S, d, "Dead")


def t_overwhelm():
    """An enemy this unit attacks with a unit in direct contact beyond the side attacked has
    its Strength Ratings halved in the Attack and its Duel; not without one, not an ally."""
    tb = record()
    for d_facing, back, want in ((W, (5, 7), True), (W, None, False), (N, (5, 7), True),
                                 (N, (4, 6), False)):  # fmt: skip
        S, a, d = _pair(tb, 1, HOLDER["Overwhelm"], NEUTRAL, E, d_facing)
        if back:
            unit(S, tb, 1, NEUTRAL, *back, E)
        d_side = 0 if d_facing == W else 1  # face to face: front; facing north: its left
        m = mods(S, tb, a, d, 0, d_side)
        assert [int(m[1, ph, M_HALVE]) for ph in range(2)] == [int(want)] * 2, (d_facing, back)
        assert not m[0, :, M_HALVE].any()
    S, a, d = _pair(tb, 1, HOLDER["Overwhelm"], NEUTRAL)
    # an ally it attacks (its area hits friends too, TD-15.2) is not halved
    ally = unit(S, tb, 0, NEUTRAL, 6, 5, N)
    unit(S, tb, 1, NEUTRAL, 7, 5, N)
    assert not mods(S, tb, a, ally, 0, 3)[1, :, M_HALVE].any()


def t_ink_shot():
    """It wins its Escape automatically (even from a Gargantuan), and the enemy units in
    direct contact with it as it escapes acquire Blinded; an ally in contact and an enemy two
    spaces away do not."""
    tb = record()
    for seed in SEEDS[:10]:
        S = position(tb, seed=seed, turn=2)
        a = holder(S, tb, 0, "Ink Shot", 5, 5, E)
        d = unit(S, tb, 1, "Gargantuan", 5, 6, W)
        side = unit(S, tb, 1, NEUTRAL, 4, 5, S_)
        far = unit(S, tb, 1, NEUTRAL, 5, 3, E)
        ally = unit(S, tb, 0, NEUTRAL, 6, 5, N)
        S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
        engage(S, tb, a)
        act(S, tb, A_ESCAPE)
        assert not has(S, a, "Dead") and S["unit_lock"][0, a] == -1
        assert has(S, d, "Blinded") and has(S, side, "Blinded")
        assert not has(S, far, "Blinded") and not has(S, ally, "Blinded")
    S, a, d = _pair(tb, 1, HOLDER["Ink Shot"], NEUTRAL)  # an Attack: no automatic win
    assert mods(S, tb, a, d)[0, 0, M_AUTO_WIN] == 0
    assert mods(S, tb, a, d, escape=True)[0, 0, M_AUTO_WIN] == 1


def t_alerted():
    """An enemy within 4 spaces of the Alerted unit may be targeted by its allies' Ranged
    Attacks beyond their Range Rating (the Range Area's shape and Line of Sight still hold);
    not farther from it, not by the Alerted unit itself, not with it Dead."""
    tb = record()
    far_target = (5, 9)  # Rise 9: beyond the Longbowman's Range Rating 6
    for at, ally, want in (((4, 8), True, True), ((0, 0), True, False), ((4, 8), False, False)):
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Perfect Shot", 5, 0, E)  # a Longbowman
        t = unit(S, tb, 1, NEUTRAL, *far_target, W)
        h = holder(S, tb, 0 if ally else 1, "Alerted", *at, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        assert fx.distance(S, tb, B0, I(h), I(t)) <= 4 or at == (0, 0)
        got = _combat(S, tb, u)
        assert (A_CELL + cell(tb, *far_target) in got) == want, (at, ally)
    S = position(tb, seed=1)
    u = holder(S, tb, 0, "Perfect Shot", 5, 0, E)
    t = unit(S, tb, 1, NEUTRAL, *far_target, W)
    h = holder(S, tb, 0, "Alerted", 4, 8, E)
    S["unit_status"][0, h, ST["Dead"]] = STATUS_PERMANENT  # "(Not with Dead Status)"
    assert not fx.alerted(S, tb, B0, I(u), I(t))
    S["unit_status"][0, h, ST["Dead"]] = 0
    assert fx.alerted(S, tb, B0, I(u), I(t)) and not fx.alerted(S, tb, B0, I(h), I(t))


# --- Unit Teams (branch tdteams, TD-18; teams.py) ------------------------------------------


def _team(S, tb, u: int, v: int, side_u: int = N) -> None:
    """u joins v's space as a Unit Team (units.move_to), u on side side_u (TD-9.7)."""
    move_to(S, B0, I(u), I(int(S["unit_cell"][0, v])))
    S["unit_team_side"][0, u] = side_u
    S["unit_team_side"][0, v] = (side_u + 2) % 4


def _team_dest(S, tb, u: int) -> set[tuple[int, int]]:
    S["engaged"][0] = u
    dest = np.zeros(MAX_CELLS, dtype=np.uint8)
    reach(S, tb, B0, I(u), dest)
    cols = int(tb.bf_cols[0])
    return {divmod(int(c), cols) for c in np.flatnonzero(dest)}


def t_carry():
    """Its Team partner has the Soar Movement Type while in the Team: a Knight teamed with
    the Griffin (Soar) moves as Soar, over a wall of height-2 pieces no Land unit passes; not
    once the Griffin is Dead (the survivor moves alone) or outside the Team."""
    tb = record()
    for r in range(11):
        paint(tb, r, 8, height=2)
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 6, E)
    g = holder(S, tb, 0, "Carry", 5, 5, E)
    assert all(c < 8 for _, c in _team_dest(S, tb, k))  # alone: Land
    _team(S, tb, g, k)
    assert team_mtype(S, tb, B0, I(k)) == 2  # Soar (tables.MOVEMENT_TYPES)
    assert (5, 9) in _team_dest(S, tb, k)
    S["unit_status"][0, g, ST["Dead"]] = STATUS_PERMANENT  # "(Not with Dead Status)"
    assert all(c < 8 for _, c in _team_dest(S, tb, k))


def t_ride():
    """Its Team partner has its Movement Rating: the Metal Horse (6) with a Soldier (3) moves
    6, where a Knight (4) with the Soldier moves 3 (the lower rating, TD-18.4)."""
    tb = record()
    for name, rating in (("Knight", 3), (HOLDER["Ride"], 6)):
        S = position(tb)
        s = unit(S, tb, 0, "Soldier", 5, 6, N)
        h = unit(S, tb, 0, name, 5, 5, N)
        _team(S, tb, h, s)
        assert movement_rating(S, tb, B0, I(s)) == 3
        want = {
            (r, c) for r in range(11) for c in range(14) if 0 < abs(r - 5) + abs(c - 6) <= rating
        }
        assert _team_dest(S, tb, s) == want, name
        assert _team_dest(S, tb, h) == want, name


def t_circumvent():
    """It chooses which member of a Unit Team it attacks: from the west against a Team
    standing east-west (only the western member exposed, TD-18.6) it is still asked
    (STAGE_TEAM_PICK) and its pick is the one attacked; a unit without it is not asked."""
    tb = record()
    for name, asked in ((NEUTRAL, False), (HOLDER["Circumvent"], True)):
        S = position(tb)
        k = unit(S, tb, 1, "Knight", 5, 7, W)
        s = unit(S, tb, 1, "Soldier", 5, 6, W)
        _team(S, tb, k, s, E)  # the Knight on the east side: hidden from the west
        a = unit(S, tb, 0, name, 5, 5, E)
        S["unit_strength"][0, a] = 100
        got = _combat(S, tb, a)
        nxt = act(S, tb, A_STRIKE)
        assert (S["stage"][0] == STAGE_TEAM_PICK) == asked, name
        if asked:
            assert S["current"][0] == 0 and sorted(nxt) == [A_FACE + E, A_FACE + W]
            act(S, tb, A_FACE + E)  # the hidden Knight
            assert has(S, k, "Dead") and not has(S, s, "Dead")
        else:
            assert has(S, s, "Dead") and not has(S, k, "Dead")
        assert A_STRIKE in got


def _partner_bonus(ability: str, amount: int, status: str, at_least: int):
    """A unit in a Team with the holder gains `amount` on its Base Strength Ratings (not the
    holder, not an enemy, not outside the Team); before the holder is Disengaged, 1 D6 >=
    `at_least` gives the partner `status`."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        k = unit(S, tb, 0, "Knight", 5, 5, E)
        e = unit(S, tb, 1, NEUTRAL, 5, 6, W)
        h = holder(S, tb, 0, ability, 5, 4, E)
        assert strengths(mods(S, tb, k, e), 0, 0) == [0] * 4
        _team(S, tb, h, k)
        assert strengths(mods(S, tb, k, e), 0, 0) == [amount] * 4
        assert strengths(mods(S, tb, e, k), 1, 0) == [amount] * 4  # defending too
        assert strengths(mods(S, tb, h, e), 0, 0) == [0] * 4
        (r,) = peek(S, 6)
        hook(S, tb, H_BEFORE_DISENGAGE, h)
        seen.add(r >= at_least)
        assert has(S, k, status) == (r >= at_least), (seed, r)
        S["unit_status"][0, h, ST["Dead"]] = STATUS_PERMANENT  # "(Not with Dead Status)"
        assert strengths(mods(S, tb, k, e), 0, 0) == [0] * 4
    both_ways(seen)


def t_teamwork():
    _partner_bonus("Teamwork?", 1, "Poisoned", 5)


def t_partners():
    _partner_bonus("Partners?", 2, "Dead", 6)
    # in play: the roll comes as the holder's Engagement ends (turn.step's Disengagement)
    tb = record()
    kills = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        k = unit(S, tb, 0, "Knight", 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, W)
        h = holder(S, tb, 0, "Partners?", 5, 4, E)
        _team(S, tb, h, k)
        engage(S, tb, h)
        while S["engaged"][0] == h:
            act(S, tb, A_END)
        kills.add(has(S, k, "Dead"))
        if has(S, k, "Dead"):  # then the holder must leave the space (TD-18.7)
            assert S["unit_team"][0, h] == k
    both_ways(kills)


def t_ride_the_lightning():
    """Its Team partner has its Movement Rating (Rolling Thunder: 7) and its Team's passed
    charge may end anywhere within the charge distance by any path (R94), not only on the
    straight line ahead; a charge of a Team without it stays on its line."""
    tb = record()
    S = position(tb)
    s = unit(S, tb, 0, "Soldier", 5, 6, E)
    h = holder(S, tb, 0, "Ride the Lightning", 5, 5, E)
    _team(S, tb, h, s)
    assert len(_team_dest(S, tb, s)) == len(
        [1 for r in range(11) for c in range(14) if 0 < abs(r - 5) + abs(c - 6) <= 7]
    )
    for name, any_path in ((HOLDER["Ride the Lightning"], True), ("Knight", False)):
        passed = 0
        for seed in SEEDS[:12]:
            S = position(tb, seed=seed)
            s = unit(S, tb, 0, "Soldier", 5, 6, E)
            h = unit(S, tb, 0, name, 5, 5, E)
            _team(S, tb, h, s)
            unit(S, tb, 1, NEUTRAL, 0, 13, W)
            engage(S, tb, h)
            nxt = act(S, tb, A_CHARGE)
            if S["stage"][0] != STAGE_CHARGE_DIST:
                continue  # stumbled
            passed += 1
            cols = int(tb.bf_cols[0])
            rows = {(a - A_CELL) // cols for a in nxt if A_CELL <= a < A_CELL + MAX_CELLS}
            assert (rows != {5}) == any_path, (name, rows)
            off = [a for a in nxt if A_CELL <= a < A_CELL + MAX_CELLS and (a - A_CELL) // cols != 5]
            if any_path:
                act(S, tb, off[0])
                c = off[0] - A_CELL
                assert S["unit_cell"][0, h] == c and S["unit_cell"][0, s] == c
        assert passed > 0


# --- tdrest: the Ranged dragons' breaths, a Ranged Attack on a picked space (R88) ------------


def _ranged_breath(ability: str, amount: int, statuses: tuple[str, ...], k: int):
    """The holder on (5,0) facing east: A_ABILITY asks a space among its Ranged Attack's
    targets (not a unit out of Range), the Magical ones a side too; the breath's strength is
    the row's, each unit attacked rolls k+ for the Statuses, no Duel; a missed Ranged Hit
    does nothing. No breath after moving (TD-14.2) or with no target in Range."""
    tb = record()
    magical = ut.UNIT_TYPES[TABLES.units.unit_type[UNIT_IX[HOLDER[ability]]]] == "Magical"
    seen = set()
    hit = 0
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 0, E)
        t = unit(S, tb, 1, "Titanium Golem", 5, 3, W)  # Rise 3: the Ranged Hit always hits
        far = unit(S, tb, 1, NEUTRAL, 0, 13, S_)  # out of its Range Area
        # the breath's strength is the row's, not the printed one
        S["fx_res"][0] = RES_SPECIAL
        a_str, _ = sides_and_strengths(S, tb, B0, I(u), I(t), I(0), False)
        assert a_str == amount
        S["fx_res"][0] = 0
        # each unit attacked rolls once after its Attack: k+ gives the Statuses
        set_procedure(S, u, t, RES_SPECIAL | RES_RANGED)
        r = peek(S, 6)[0]
        hook(S, tb, H_AFTER_BREATH, u, t)
        for name in statuses:
            can = bool(tb.st_afflicts[ST[name], S["unit_type"][0, t]])
            assert has(S, t, name) == (r >= k and can), (ability, r, name)
            S["unit_status"][0, t, ST[name]] = 0
        seen.add(r >= k)
        # the whole breath: A_ABILITY, then the space (the Ranged Attack's targets only)
        got = _combat(S, tb, u)
        assert A_ABILITY in got and A_CELL + cell(tb, 5, 3) in got
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT
        assert got == [A_CELL + cell(tb, 5, 3)]
        got = act(S, tb, A_CELL + cell(tb, 5, 3))
        if magical:  # a Magical Attack Type: the side is asked, as for any Ranged Attack
            assert S["stage"][0] == STAGE_RANGED_SIDE
            act(S, tb, A_SIDE + 0)
        assert S["current"][0] == 1  # the Combat Phase is over: the Turn passed
        assert not S["unit_status"][0, far].any()
        hit += any(has(S, t, name) for name in statuses)
        assert S["fx_res"][0] == 0
    both_ways(seen)
    assert hit > 0
    # no Duel follows the breath, as after a melee breath (R56)
    for seed in SEEDS[:10]:
        S, a, d = _pair(tb, seed, HOLDER[ability], "Titanium Golem")
        begin_procedure(S, tb, B0, I(a), I(d), I(0))
        S["fx_res"][0] = RES_SPECIAL | RES_RANGED
        contest(S, tb, B0, I(a), I(d), I(0), False, False)
        assert not S["fx_res"][0] & RES_DUEL
    # at its Range Rating (Rise r): the Ranged Hit needs 2 D6 + Range Modifier >= r; a miss
    # does nothing, a hit attacks (the RNG moves on past the Ranged Hit's dice)
    top = UNIT_IX[HOLDER[ability]]
    rise, rmod = int(tb.u_range[top]), int(tb.u_rmod[top])
    misses = hits = 0
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, ability, 5, 0, E)
        t = unit(S, tb, 1, NEUTRAL, 5, rise, W)
        assert A_ABILITY in _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        if magical:
            act(S, tb, A_CELL + cell(tb, 5, rise))
            copy = S.copy()
            act(S, tb, A_SIDE + 0)
        else:
            copy = S.copy()
            act(S, tb, A_CELL + cell(tb, 5, rise))
        d1, d2 = (int(roll_d(copy["rng"], B0, I(6))) for _ in range(2))
        if d1 + d2 + rmod < rise:
            misses += 1
            assert not S["unit_status"][0, t].any() and S["unit_place"][0, t] == PLACE_FIELD
            assert _missed(S, copy)
        else:
            hits += 1
            assert not _missed(S, copy)
    assert misses > 0 and hits > 0
    # not after moving (a Ranged Attack, TD-14.2), nor with no enemy in its Range Area
    S = position(tb, seed=1)
    u = holder(S, tb, 0, ability, 5, 0, E)
    unit(S, tb, 1, NEUTRAL, 5, 3, W)
    engage(S, tb, u)
    act(S, tb, A_CELL + cell(tb, 6, 0))
    got = act(S, tb, A_END)  # its Combat Phase offers nothing but A_END (applied at once)
    assert S["stage"][0] != STAGE_COMBAT or A_ABILITY not in got
    assert S["unit_fought"][0, u] == 0
    S = position(tb, seed=1)
    u = holder(S, tb, 0, ability, 5, 0, E)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    assert A_ABILITY not in _combat(S, tb, u)


def t_flame_breath():
    _ranged_breath("Flame Breath", 1, ("Burned",), 4)


def t_magma_breath():
    _ranged_breath("Magma Breath", 2, ("Burned", "Banished"), 4)


def t_toxic_breath():
    _ranged_breath("Toxic Breath", 1, ("Poisoned",), 4)


def t_nightmare_breath():
    _ranged_breath("Nightmare Breath", 2, ("Fearful",), 4)


def t_gorgon_gaze():
    """R: Attack Pro.: the player picks a space the Gorgon's Ranged Attack could target
    (Range 2); its Attack Area RI is placed there: the target and the ray beyond it (I4).
    Each unit in it, friend or foe, rolls: 5+ Petrified; a unit off the ray never is. No
    Ranged Hit is made, and having moved does not forbid it (R89)."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Gorgon Gaze", 5, 0, E)
        ally = unit(S, tb, 0, NEUTRAL, 5, 6, W)  # on the ray, out of Range
        t = unit(S, tb, 1, NEUTRAL, 5, 2, W)
        off = unit(S, tb, 1, NEUTRAL, 4, 1, W)  # in Range, off the ray
        got = _combat(S, tb, u)
        assert A_ABILITY in got
        assert act(S, tb, A_ABILITY) == sorted([A_CELL + cell(tb, 5, 2), A_CELL + cell(tb, 4, 1)])
        r_ally, r_t = peek(S, 6, 6)  # one roll per unit, in unit order
        act(S, tb, A_CELL + cell(tb, 5, 2))
        assert has(S, ally, "Petrified") == (r_ally >= 5)
        assert has(S, t, "Petrified") == (r_t >= 5)
        assert not has(S, off, "Petrified")
        assert S["stage"][0] not in (STAGE_EFFECT, STAGE_COMBAT)  # the Combat Phase is over
        assert S["pending_target"][0] == -1
        seen.add(r_t >= 5)
    both_ways(seen)
    # having moved: still offered (not a Ranged Attack, R47); no unit in Range: not offered
    S = position(tb, seed=1)
    u = holder(S, tb, 0, "Gorgon Gaze", 5, 0, E)
    unit(S, tb, 1, NEUTRAL, 5, 3, W)
    engage(S, tb, u)
    act(S, tb, A_CELL + cell(tb, 5, 1))
    assert A_ABILITY in act(S, tb, A_END)
    S = position(tb, seed=1)
    u = holder(S, tb, 0, "Gorgon Gaze", 5, 0, E)
    unit(S, tb, 1, NEUTRAL, 5, 5, W)
    assert A_ABILITY not in _combat(S, tb, u)


# --- tdrest: replacing a unit by another (replace.replace_unit; R90, I39) --------------------


def _on(S, tb, row: int, col: int) -> int:
    return int(S["cell_unit"][0, cell(tb, row, col), 0])


def _is(S, u: int, name: str) -> bool:
    return int(S["unit_member"][0, u, 0]) == UNIT_IX[name] and S["unit_n_members"][0, u] == 1


def t_raise_dead():
    """R: Attack Pro.: the player picks a Dead unit in the Lich's Range Area (no living one);
    4+: it is replaced by a Zombie facing the same way under the Lich's player's control, not
    Dead, not Engaged this Turn, costing nothing (I39); the old unit leaves the game."""
    tb = record()
    seen = set()
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Raise Dead", 5, 0, E)
        dead = unit(S, tb, 1, NEUTRAL, 5, 3, S_)
        kill(S, tb, B0, I(dead), I(-1))
        alive = unit(S, tb, 1, NEUTRAL, 5, 5, W)
        cost = [int(x) for x in S["army_cost"][0]]
        assert A_ABILITY in _combat(S, tb, u)
        assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 5, 3)]  # the Dead unit only
        r = peek(S, 6)[0]
        act(S, tb, A_CELL + cell(tb, 5, 3))
        z = _on(S, tb, 5, 3)
        if r >= 4:
            assert z // 20 == 0 and z != u and _is(S, z, "Zombie")
            assert S["unit_facing"][0, z] == S_ and not has(S, z, "Dead")
            assert S["unit_cost"][0, z] == 0
            assert S["current"][0] == 1  # the Zombie could not be Engaged: the Turn ended
            assert S["unit_place"][0, dead] == PLACE_REMOVED
        else:
            assert z == dead and has(S, dead, "Dead")
        assert S["unit_place"][0, alive] == PLACE_FIELD and _is(S, alive, NEUTRAL)
        assert [int(x) for x in S["army_cost"][0]] == cost
        assert violations(S, tb, 0) == []
        seen.add(r >= 4)
    both_ways(seen)


def t_polymorph():
    """R: Attack Pro.: a unit in Range and Line of Sight; 6 Slime, 5 Pup, 4 Egg, each staying
    its owner's (same unit, same Purchase Cost, its Statuses and Items gone) and Confused;
    3 or less nothing."""
    tb = record()
    want = {6: "Slime", 5: "Pup", 4: "Egg"}
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Polymorph", 5, 0, E)
        t = unit(S, tb, 1, "Titanium Golem", 5, 3, W)
        apply_status(S, tb, B0, I(t), I(ST["Pumped"]), I(STATUS_PERMANENT))
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        cost = int(S["unit_cost"][0, t])
        assert A_ABILITY in _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        r = peek(S, 6)[0]
        act(S, tb, A_CELL + cell(tb, 5, 3))
        assert _on(S, tb, 5, 3) == t and S["unit_cost"][0, t] == cost
        if r >= 4:
            assert _is(S, t, want[r]) and not has(S, t, "Pumped")
            can = bool(tb.st_afflicts[ST["Confused"], S["unit_type"][0, t]])
            assert has(S, t, "Confused") == can
            assert list(S["unit_strength"][0, t]) == list(tb.u_strength[UNIT_IX[want[r]]])
        else:
            assert _is(S, t, "Titanium Golem") and has(S, t, "Pumped")
        assert violations(S, tb, 0) == []
        seen.add(r)
    assert {4, 5, 6} <= seen and min(seen) <= 3


def t_grave_riser():
    """A: Unit Engagement: 5+ on one D6: every Dead unit within 3 Grid Spaces (either army's)
    is replaced by a Skeleton under this player's control, Dead (RA15); a Dead unit farther
    away and a living one stay."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Grave Riser", 5, 5, E)
        foe = unit(S, tb, 1, NEUTRAL, 5, 7, W)
        own = unit(S, tb, 0, NEUTRAL, 4, 5, S_)
        far = unit(S, tb, 1, NEUTRAL, 5, 10, W)
        alive = unit(S, tb, 1, NEUTRAL, 6, 5, N)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        for v in (foe, own, far):
            kill(S, tb, B0, I(v), I(-1))
        r = peek(S, 6)[0]
        engage(S, tb, u)
        a, o = _on(S, tb, 5, 7), _on(S, tb, 4, 5)
        if r >= 5:
            assert a // 20 == 0 and _is(S, a, "Skeleton") and has(S, a, "Dead")
            assert S["unit_place"][0, foe] == PLACE_REMOVED
            assert o == own and _is(S, own, "Skeleton") and has(S, own, "Dead")
        else:
            assert a == foe and o == own and _is(S, own, NEUTRAL)
        assert _is(S, far, NEUTRAL) and _is(S, alive, NEUTRAL) and not has(S, alive, "Dead")
        assert violations(S, tb, 0) == []
        seen.add(r >= 5)
    both_ways(seen)


def t_infect():
    """All: a unit this Zombie's Attack gives the Dead Status is, on 4+ (one roll per
    victim), replaced by a Zombie under this player's control, which acquires the Dead
    Status (RA15); a unit that survived is not."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, HOLDER["Infect"], NEUTRAL)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        kill(S, tb, B0, I(d), I(0))
        set_procedure(S, a, d, RES_KILLED | RES_ATT_KILLED_ENEMY)
        r = peek(S, 6)[0]
        hook(S, tb, H_AFTER_ATTACK, a, d)
        z = _on(S, tb, 5, 6)
        if r >= 4:
            assert z // 20 == 0 and z != a and _is(S, z, "Zombie") and has(S, z, "Dead")
            assert S["unit_place"][0, d] == PLACE_REMOVED
        else:
            assert z == d and has(S, d, "Dead")
        assert violations(S, tb, 0) == []
        seen.add(r >= 4)
    both_ways(seen)
    S, a, d = _pair(tb, 1, HOLDER["Infect"], NEUTRAL)
    set_procedure(S, a, d, 0)  # the defender survived
    hook(S, tb, H_AFTER_ATTACK, a, d)
    assert _on(S, tb, 5, 6) == d and _is(S, d, NEUTRAL)
    # a Unit Team member is never replaced by the other player's Zombie: its partner shares
    # the space, which holds only one player's units (TD-18.1, R95); it stays Dead
    replaced = 0
    for seed in SEEDS[:12]:
        S, a, d = _pair(tb, seed, HOLDER["Infect"], NEUTRAL)
        mate = unit(S, tb, 1, "Knight", 6, 6, N)
        _team(S, tb, mate, d)
        kill(S, tb, B0, I(d), I(0))
        set_procedure(S, a, d, RES_KILLED | RES_ATT_KILLED_ENEMY)
        replaced += peek(S, 6)[0] >= 4
        hook(S, tb, H_AFTER_ATTACK, a, d)
        assert has(S, d, "Dead") and S["unit_place"][0, d] == PLACE_FIELD
        assert sorted(S["cell_unit"][0, cell(tb, 5, 6)]) == sorted([d, mate])
        assert violations(S, tb, 0) == []
    assert replaced > 0  # the roll would have replaced it


def t_hatch():
    """Two counters, one removed at each Disengagement: at the third, when none can be
    removed, the Egg is replaced by a Baby Dragon (same unit, owner, space, facing) that
    acquires Pumped and Haste (RA13); not before."""
    tb = record()
    S = position(tb, seed=3)
    egg = holder(S, tb, 0, "Hatch", 5, 5, E)
    unit(S, tb, 0, NEUTRAL, 9, 0, N)  # a second unit: the Turn goes on after the Egg's
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    for k in range(3):
        S["unit_engaged"][0, egg] = 0
        S["stage"][0] = STAGE_ENGAGE
        S["current"][0] = 0
        engage(S, tb, egg)
        while S["engaged"][0] == egg:  # end its phases at once
            act(S, tb, A_END)
        if k < 2:
            assert _is(S, egg, "Egg") and not has(S, egg, "Pumped"), k
        else:
            assert _on(S, tb, 5, 5) == egg and _is(S, egg, "Baby Dragon")
            assert has(S, egg, "Pumped") and has(S, egg, "Haste")
            assert S["unit_facing"][0, egg] == E and S["unit_place"][0, egg] == PLACE_FIELD
    assert violations(S, tb, 0) == []


def t_ctrl_alt_del():
    """May be Engaged with the Dead Status (a Dead unit without it may not); then 5+ on one
    D6 discards the Dead Status and its phases follow, otherwise it is Disengaged at once
    (R91)."""
    tb = record()
    seen = set()
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Ctrl Alt Del", 5, 5, E)
        other = unit(S, tb, 0, NEUTRAL, 9, 0, N)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        kill(S, tb, B0, I(u), I(-1))
        kill(S, tb, B0, I(other), I(-1))
        got = legal(S, tb)
        assert A_UNIT + u % 20 in got and A_UNIT + other % 20 not in got
        r = peek(S, 6)[0]
        engage(S, tb, u)
        if r >= 5:
            assert not has(S, u, "Dead") and S["engaged"][0] == u
        else:
            assert has(S, u, "Dead") and S["engaged"][0] != u and S["unit_engaged"][0, u]
        seen.add(r >= 5)
    both_ways(seen)


def t_dungball():
    """D: Attack Pro.: +1 to its Front Strength Rating in its Attack per Grid Space it moved
    in this Engagement (orthogonal steps, R92): 3 after moving 3, 1 after 1; nothing before
    moving, on its other sides, or when it defends (not Engaged)."""
    tb = record()
    for steps in (3, 1):
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Dungball", 5, 5 - steps, E)
        d = unit(S, tb, 1, "Titanium Golem", 5, 6, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        engage(S, tb, u)
        assert strengths(mods(S, tb, u, d), 0, 0) == [0, 0, 0, 0]
        act(S, tb, A_CELL + cell(tb, 5, 5))
        assert S["eng_moved"][0] == steps
        assert strengths(mods(S, tb, u, d), 0, 0) == [steps, 0, 0, 0]
        assert strengths(mods(S, tb, u, d), 0, 1) == [0, 0, 0, 0]  # not in the Duel
        assert strengths(mods(S, tb, d, u), 1, 0) == [0, 0, 0, 0]  # defending: nothing
    S = position(tb, seed=1)
    u = holder(S, tb, 0, "Dungball", 5, 5, E)
    d = unit(S, tb, 1, "Titanium Golem", 5, 6, W)
    S["eng_moved"][0] = 4  # another unit's moves (the Golem Engaged) do not count
    S["engaged"][0] = d
    assert strengths(mods(S, tb, u, d), 0, 0) == [0, 0, 0, 0]


def _two_attacks(whisperer_at, attacker: str, seed: int):
    """The attacker (seat 0) on (5,5) facing a Titanium Golem on (5,6), a Beast Whisperer at
    `whisperer_at` (None: none): the legal actions after its first Attack (None: the Combat
    Phase ended) and whether both were still in play."""
    tb = record()
    S = position(tb, seed=seed)
    u = unit(S, tb, 0, attacker, 5, 5, E)
    if whisperer_at is not None:
        holder(S, tb, 0, "Beast Whisperer", *whisperer_at, S_)
    g = unit(S, tb, 1, "Titanium Golem", 5, 6, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    got = _combat(S, tb, u)
    assert A_STRIKE in got
    got = act(S, tb, A_STRIKE)
    # both still in play (else no second strike could be offered, and nothing was asked)
    alive = not has(S, u, "Dead") and not has(S, g, "Dead")
    if S["stage"][0] == STAGE_COMBAT and S["engaged"][0] == u:
        return S, tb, got, alive
    return S, tb, None, alive


def t_beast_whisperer():
    """A Pup-root ally within 3 Grid Spaces may Attack (and Duel) twice in its Combat Phase:
    after its first Attack the Combat Phase goes on with an Attack or End offered, after the
    second it ends (R93). Not a Pup-root unit, not a Pup 4 spaces away, not without it."""
    seconds = 0
    for seed in SEEDS[:20]:
        S, tb, got, alive = _two_attacks((3, 5), "Pup", seed)
        if not alive:
            continue
        assert got is not None and A_STRIKE in got and A_END in got
        act(S, tb, A_STRIKE)
        assert not (S["stage"][0] == STAGE_COMBAT and S["engaged"][0] == 0)
        seconds += 1
    assert seconds > 0
    for seed in SEEDS[:10]:
        for at, name in (((1, 5), "Pup"), (None, "Pup"), ((3, 5), NEUTRAL)):
            _, _, got, _ = _two_attacks(at, name, seed)
            assert got is None, (at, name)


# --- "may" rows asked inside a procedure (STAGE_PAUSE, envs/tactics_david/pause.py; R72) ----


def _melee_on(tb, seed: int, d_name: str, d_facing: int = W, attacker: str = NEUTRAL):
    """Seat 0's attacker on (5,5) facing east, engaged and striking seat 1's `d_name` on (5,6)
    (a far seat-1 unit keeps the game going); the legal actions after the strike."""
    S = position(tb, seed=seed)
    a = unit(S, tb, 0, attacker, 5, 5, E)
    d = unit(S, tb, 1, d_name, 5, 6, d_facing)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    engage(S, tb, a)
    act(S, tb, A_END)
    return S, a, d, act(S, tb, A_STRIKE)


def _shot_on(tb, seed: int, shooter: str = "Hunter", rise: int = 4, d_name: str = NEUTRAL):
    """Seat 0's Ranged `shooter` on (5,0) facing east, engaged and shooting seat 1's `d_name`
    `rise` spaces ahead; the legal actions after the shot (STAGE_PAUSE if asked)."""
    S = position(tb, seed=seed)
    u = unit(S, tb, 0, shooter, 5, 0, E)
    t = unit(S, tb, 1, d_name, 5, rise, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    engage(S, tb, u)
    act(S, tb, A_END)
    return S, u, t, act(S, tb, A_CELL + cell(tb, 5, rise))


def _paused(S, seat: int) -> bool:
    return bool(S["stage"][0] == STAGE_PAUSE and S["current"][0] == seat)


def t_sword_dance():
    """Attacked by a Melee attack, the defender's player may make a Facing Procedure before
    the Defend: asked of seat 1 with the three other facings; facing the attacker front to
    front, a surviving Samurai is Locked in Combat (TD-16.1), which it is not when it keeps
    its facing. Not asked against a Ranged Attack."""
    tb = record()
    locked = 0
    for seed in SEEDS[:20]:
        for turn_to in (W, None):
            S, a, d, got = _melee_on(tb, seed, "Samurai", d_facing=N)
            assert _paused(S, 1) and got == [A_FACE + E, A_FACE + S_, A_FACE + W, A_END]
            act(S, tb, A_END if turn_to is None else A_FACE + turn_to)
            assert S["unit_facing"][0, d] == (N if turn_to is None else W)
            if not has(S, d, "Dead"):
                assert (S["unit_lock"][0, d] == a) == (turn_to is not None)
                locked += turn_to is not None
    assert locked > 0
    for seed in SEEDS[:10]:
        S, u, t, _ = _shot_on(tb, seed, d_name="Samurai")
        assert S["stage"][0] != STAGE_PAUSE or S["current"][0] == 0


def t_warning_signs():
    """An ally within 3 of the Detector receiving a Ranged Attack may make a Facing Procedure
    before its Defend (asked of its player once the shot hits): it then defends facing the
    way chosen; a unit 4 spaces away is not asked, nor is one attacked in Melee."""
    tb = record()
    asked = 0
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Hunter", 5, 0, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, N)
        holder(S, tb, 1, "Warning Signs", 5, 7, N)  # 3 spaces from the target
        engage(S, tb, u)
        act(S, tb, A_END)
        got = act(S, tb, A_CELL + cell(tb, 5, 4))
        if S["stage"][0] != STAGE_PAUSE:
            continue  # missed
        asked += 1
        assert _paused(S, 1) and A_FACE + W in got and A_FACE + N not in got
        act(S, tb, A_FACE + W)
        assert S["unit_facing"][0, t] == W
    assert asked > 5
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Hunter", 5, 0, E)
        unit(S, tb, 1, NEUTRAL, 5, 4, N)
        holder(S, tb, 1, "Warning Signs", 5, 8, N)  # 4 spaces: too far
        engage(S, tb, u)
        act(S, tb, A_END)
        act(S, tb, A_CELL + cell(tb, 5, 4))
        assert S["stage"][0] != STAGE_PAUSE
    S, a, d, _ = _melee_on(tb, 1, "Detector")
    assert S["stage"][0] != STAGE_PAUSE


def t_impenetrable():
    """The Turtle Fortress or an ally within 2 receiving a Ranged Attack may negate it on a
    1 D6 of 3 or more: used, a roll of 3+ leaves the target untouched (no Attack rolled),
    1-2 lets the attack go on; declined, the attack goes on. Not against a Melee attack."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        for use in (True, False):
            S = position(tb, seed=seed)
            u = unit(S, tb, 0, "Hunter", 5, 0, E)
            t = unit(S, tb, 1, NEUTRAL, 5, 3, W)
            holder(S, tb, 1, "Impenetrable", 3, 3, N)  # 2 spaces away
            unit(S, tb, 1, NEUTRAL, 0, 13, S_)
            engage(S, tb, u)
            act(S, tb, A_END)
            got = act(S, tb, A_CELL + cell(tb, 5, 3))
            if S["stage"][0] != STAGE_PAUSE:
                continue
            assert _paused(S, 1) and got == [A_ABILITY, A_END]
            (r,) = peek(S, 6)
            copy = S.copy()
            roll_d(copy["rng"], B0, I(6))
            act(S, tb, A_ABILITY if use else A_END)
            negated = use and r >= 3
            if negated:
                assert not has(S, t, "Dead") and np.array_equal(S["rng"][0], copy["rng"][0])
            seen.add((use, negated, has(S, t, "Dead")))
    assert (True, True, False) in seen and (False, False, True) in seen
    S, a, d, _ = _melee_on(tb, 1, HOLDER["Impenetrable"])
    assert S["stage"][0] != STAGE_PAUSE


def t_slip():
    """Attacked by a unit in direct contact, the Slime may (1 D6 >= 4) move directly behind
    the attacker facing it: the attack on it does not happen (R75) and no lock forms; on
    1-3 it stays and is attacked. Not asked when the space behind is taken."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d, got = _melee_on(tb, seed, "Slime")
        assert _paused(S, 1) and got == [A_ABILITY, A_END]
        (r,) = peek(S, 6)
        act(S, tb, A_ABILITY)
        if r >= 4:
            assert S["unit_cell"][0, d] == cell(tb, 5, 4) and S["unit_facing"][0, d] == E
            assert not has(S, d, "Dead") and S["unit_lock"][0, d] == -1
        else:
            assert S["unit_cell"][0, d] == cell(tb, 5, 6)
        seen.add(r >= 4)
    both_ways(seen)
    S = position(tb, seed=1)
    a = unit(S, tb, 0, NEUTRAL, 5, 5, E)
    unit(S, tb, 0, NEUTRAL, 5, 4, E)  # the space behind the attacker is taken
    holder(S, tb, 1, "Slip", 5, 6, W)
    engage(S, tb, a)
    act(S, tb, A_END)
    act(S, tb, A_STRIKE)
    assert S["stage"][0] != STAGE_PAUSE


def t_phase_shift():
    """The Monk may (1 D6 >= 4) move to any side of the attacker and face it: offered the free
    spaces beside the attacker (and its own); moved, the attack on it does not happen
    (R75); on 1-3 it stays where it was."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d, got = _melee_on(tb, seed, "Monk")
        sides = {cell(tb, 4, 5), cell(tb, 6, 5), cell(tb, 5, 4), cell(tb, 5, 6)}
        assert _paused(S, 1) and set(got) == {A_CELL + c for c in sides} | {A_END}
        (r,) = peek(S, 6)
        act(S, tb, A_CELL + cell(tb, 4, 5))
        if r >= 4:
            assert S["unit_cell"][0, d] == cell(tb, 4, 5) and S["unit_facing"][0, d] == S_
            assert not has(S, d, "Dead")
        else:
            assert S["unit_cell"][0, d] == cell(tb, 5, 6)
        seen.add(r >= 4)
    both_ways(seen)


def t_target_practice():
    """A missed Ranged Hit may be performed again, once: the Archer (Range Modifier -1) at
    Rise 5 hits on 2 D6 - 1 >= 5; the retry rolls 2 D6 afresh and a second miss ends the
    Combat Phase with no further question; declined, nothing more is rolled."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, u, t, got = _shot_on(tb, seed, shooter="Archer", rise=5)
        if S["stage"][0] != STAGE_PAUSE:
            continue  # hit at once
        assert _paused(S, 0) and got == [A_ABILITY, A_END]
        copy = S.copy()
        act(S, tb, A_END)
        assert np.array_equal(S["rng"][0], copy["rng"][0])  # the miss stands
        S = copy.copy()
        d1, d2 = peek(S, 6, 6)
        act(S, tb, A_ABILITY)
        assert S["stage"][0] != STAGE_PAUSE  # one retry only
        seen.add(d1 + d2 - 1 >= 5)
        fresh = copy.copy()
        roll_d(fresh["rng"], B0, I(6))
        roll_d(fresh["rng"], B0, I(6))
        # missed again: nothing rolled after the two dice; hit: the Attack rolled on
        assert np.array_equal(S["rng"][0], fresh["rng"][0]) == (d1 + d2 - 1 < 5)
    both_ways(seen)


# --- type changes in the Attack/Defend contest (combat.matchup_types; R76) -------------------

PHYS, MAG, ETH = 0, 1, 2  # tables.UNIT_TYPES order


def t_blob_wall():
    """In its Defend the Blob Knight's Unit Type is the attacker's Attack Type (a Magical or
    Ethereal attack meets it as the normal matchup, TD-13.4), and it rolls an extra D3; a
    plain Physical defender keeps its type against the same attack."""
    tb = record()
    assert TABLES.units.unit_type[TABLES.units.unit_index["Blob Knight"]] == PHYS
    for attacker, t in (("Monk", MAG), ("Ghost", ETH), (NEUTRAL, PHYS)):
        S, a, d = _pair(tb, 1, attacker, HOLDER["Blob Wall"])
        assert tuple(int(x) for x in matchup_types(S, tb, B0, I(a), I(d), False)) == (t, t)
        assert tuple(int(x) for x in matchup_types(S, tb, B0, I(a), I(d), True))[1] == PHYS
        assert mods(S, tb, a, d)[1, 0, M_D3] == 1 and mods(S, tb, a, d)[0, 0, M_D3] == 0
        S, a, d = _pair(tb, 1, attacker, "Soldier")
        assert int(matchup_types(S, tb, B0, I(a), I(d), False)[1]) == PHYS


def t_assassinate():
    """The Assassin attacks a Physical unit with an Ethereal Attack Type, an Ethereal unit with
    a Magical one and a Magical unit with a Physical one: so it can kill a Ghost (Magical
    against Ethereal), which a Physical attack never does (TD-13.4)."""
    tb = record()
    for defender, want in (("Soldier", ETH), ("Ghost", MAG), ("Monk", PHYS)):
        S, a, d = _pair(tb, 1, HOLDER["Assassinate"], defender)
        assert int(matchup_types(S, tb, B0, I(a), I(d), False)[0]) == want
        assert int(matchup_types(S, tb, B0, I(a), I(d), True)[0]) == PHYS  # not an Escape
    kills = {HOLDER["Assassinate"]: 0, "Soldier": 0}
    for name in kills:
        for seed in SEEDS:
            S, a, d = _pair(tb, seed, name, "Ghost")
            attack_unit(S, tb, B0, I(a), I(d), I(0), False, I(0), I(0))
            kills[name] += has(S, d, "Dead")
    assert kills[HOLDER["Assassinate"]] > 0 and kills["Soldier"] == 0


def t_chimaeric_reaction():
    """Before its Defend the Chimera rolls 1 D6: 5-6 it becomes Physical, 3-4 Magical, 1-2
    Ethereal (for good, its Attack Type following, TD-3.3)."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, NEUTRAL, HOLDER["Chimaeric Reaction"])
        (r,) = peek(S, 6)
        set_procedure(S, a, d)
        hook(S, tb, H_BEFORE_DEFEND, d, a)
        want = PHYS if r >= 5 else (MAG if r >= 3 else ETH)
        assert S["unit_type"][0, d] == want and S["unit_attack_type"][0, d] == want, r
        seen.add(want)
    assert seen == {PHYS, MAG, ETH}


# --- units that may not be attacked (effects.attack_prohibited; R77) -------------------------


def _strikes(tb, attacker: str, d_name: str, setup=None) -> list[int]:
    """The Combat Phase's strikes offered to seat 0's `attacker` on (5,5) facing east with
    seat 1's `d_name` on (5,6) facing west."""
    S = position(tb, seed=1)
    a = unit(S, tb, 0, attacker, 5, 5, E)
    unit(S, tb, 1, d_name, 5, 6, W)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    engage(S, tb, a)
    return [x for x in act(S, tb, A_END) if A_STRIKE <= x < A_STRIKE + 4]


def t_oversized():
    """Enemy units in direct contact may not attack the Oversized unit: no strike is offered
    to an adjacent enemy (its area holding no other enemy) nor is it hit by one; a Ranged
    unit 3 spaces away may still target it."""
    tb = record()
    big = HOLDER["Oversized"]
    assert _strikes(tb, NEUTRAL, big) == [] and _strikes(tb, NEUTRAL, NEUTRAL) != []
    S, a, d = _pair(tb, 1, NEUTRAL, big)
    assert fx.attack_prohibited(S, tb, B0, I(a), I(d))
    S = position(tb, seed=1)
    h = unit(S, tb, 0, "Hunter", 5, 3, E)
    unit(S, tb, 1, big, 5, 6, W)
    assert ranged_target_ok(S, tb, B0, I(h), I(cell(tb, 5, 6)))
    for seed in SEEDS[:10]:  # an area attack by an adjacent enemy passes it by
        S2, a2, d2 = _pair(tb, seed, NEUTRAL, big)
        cells = np.array([cell(tb, 5, 6)] + [0] * 15, dtype=np.int64)
        _attack_area(S2, tb, B0, I(a2), cells, I(1), I(0), False, I(0), I(0), I(0))
        assert not has(S2, d2, "Dead") and S2["unit_lock"][0, d2] == -1


def t_climb_tree():
    """In Forest the Climb Tree unit may not be attacked by a Physical Melee unit; on Field it
    may, and in Forest a Magical Melee unit may still attack it."""
    tb = record()
    monkey = HOLDER["Climb Tree"]
    assert _strikes(tb, NEUTRAL, monkey) != []  # on Field
    paint(tb, 5, 6, terrain="Forest")
    assert TABLES.units.unit_type[TABLES.units.unit_index[NEUTRAL]] == PHYS
    assert _strikes(tb, NEUTRAL, monkey) == []
    assert _strikes(tb, "Monk", monkey) != []  # Magical
    assert _strikes(tb, NEUTRAL, NEUTRAL) != []  # another unit in Forest


# --- another Facing after a charge (movement._after_charge; R78) ------------------------------


def _charged(tb, seed: int, name: str):
    """Seat 0's `name` on (5,1) facing east charges (an enemy far off); the legal actions once
    the charge is over (a passed charge stops as far as it may)."""
    S = position(tb, seed=seed)
    u = unit(S, tb, 0, name, 5, 1, E)
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    engage(S, tb, u)
    got = act(S, tb, A_CHARGE)
    if S["stage"][0] == STAGE_CHARGE_DIST:
        got = act(S, tb, max(got))
    return S, u, got


def t_maneuver():
    """After its charge (passed or stumbled) the Black Knight may make another Facing
    Procedure before its Movement Phase ends (even after facing before the charge): offered
    the three other facings and A_END; a unit without the ability goes straight on to its
    Combat Phase."""
    tb = record()
    for seed in SEEDS[:10]:
        S, u, got = _charged(tb, seed, HOLDER["Maneuver"])
        assert S["stage"][0] == STAGE_MOVE
        assert got == [A_FACE + N, A_FACE + S_, A_FACE + W, A_END]
        act(S, tb, A_FACE + N)
        assert S["unit_facing"][0, u] == N and S["stage"][0] != STAGE_MOVE
        S, u, got = _charged(tb, seed, NEUTRAL)
        assert S["stage"][0] != STAGE_MOVE and A_FACE + N not in got


# --- tdabA: another unit's "may" rows upon the Engaged unit's Engagement (auras.py, R96) ----


def t_research():
    """A unit (of either army) Engaged in direct contact with the Researcher may discard its
    Petrified or Frozen Status, its player's choice (A_STATUS + s, asked again for the other
    one; A_END keeps it); one two spaces away is not asked; the Researcher may not be
    Petrified or Frozen. Discarding Petrified lets the unit act this Turn."""
    tb = record()
    S = position(tb)
    r = holder(S, tb, 0, "Research", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 5, 6, E)
    far = unit(S, tb, 0, NEUTRAL, 5, 7, E)
    foe = unit(S, tb, 1, NEUTRAL, 4, 5, S_)
    for u in (ally, far, foe):
        apply_status(S, tb, B0, I(u), I(ST["Frozen"]), I(-1))
    apply_status(S, tb, B0, I(ally), I(ST["Petrified"]), I(-1))
    assert not apply_status(S, tb, B0, I(r), I(ST["Frozen"]), I(-1))
    assert not apply_status(S, tb, B0, I(r), I(ST["Petrified"]), I(-1))
    got = engage(S, tb, ally)
    assert S["stage"][0] == STAGE_EFFECT
    assert got == [A_STATUS + ST["Frozen"], A_STATUS + ST["Petrified"], A_END]
    got = act(S, tb, A_STATUS + ST["Petrified"])
    assert S["stage"][0] == STAGE_EFFECT and got == [A_STATUS + ST["Frozen"], A_END]
    act(S, tb, A_END)  # keeps Frozen; free of Petrified it enters its Movement Phase
    assert not has(S, ally, "Petrified") and has(S, ally, "Frozen")
    assert S["stage"][0] == STAGE_MOVE and S["engaged"][0] == ally
    act(S, tb, A_END)
    while S["stage"][0] != STAGE_ENGAGE:
        act(S, tb, A_END)
    engage(S, tb, far)  # two spaces away: not asked
    assert S["stage"][0] == STAGE_MOVE and has(S, far, "Frozen")
    S2 = position(tb, current=1)  # the enemy's own Engagement: its player decides
    holder(S2, tb, 0, "Research", 5, 5, E)
    foe = unit(S2, tb, 1, NEUTRAL, 4, 5, S_)
    apply_status(S2, tb, B0, I(foe), I(ST["Frozen"]), I(-1))
    assert engage(S2, tb, foe) == [A_STATUS + ST["Frozen"], A_END]
    assert S2["current"][0] == 1
    act(S2, tb, A_STATUS + ST["Frozen"])
    assert not has(S2, foe, "Frozen") and S2["stage"][0] == STAGE_MOVE
    S3 = position(tb)  # without the Researcher: Petrified stays, Disengaged at once
    u = unit(S3, tb, 0, NEUTRAL, 5, 6, E)
    unit(S3, tb, 1, NEUTRAL, 9, 12, W)
    apply_status(S3, tb, B0, I(u), I(ST["Petrified"]), I(-1))
    (roll,) = peek(S3, 6)
    engage(S3, tb, u)
    if roll < 6:
        assert has(S3, u, "Petrified") and S3["stage"][0] == STAGE_ENGAGE


def t_doing_science():
    """Units within 3 Grid Spaces of the Scientist (itself included, either army) upon their
    Engagement may take +1 Movement Rating or +1 Base Strength Ratings until Disengaged, the
    Engaged unit's player choosing (A_SIDE + 0 / + 1) or declining (A_END)."""
    tb = record()
    S = position(tb)
    sci = holder(S, tb, 0, "Doing Science", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 5, 8, E)
    far = unit(S, tb, 0, NEUTRAL, 5, 9, E)
    foe = unit(S, tb, 1, NEUTRAL, 2, 5, S_)
    base = int(movement_rating(S, tb, B0, I(ally)))
    got = engage(S, tb, ally)
    assert S["stage"][0] == STAGE_EFFECT and got == [A_SIDE + 0, A_SIDE + 1, A_END]
    act(S, tb, A_SIDE + 0)
    assert S["stage"][0] == STAGE_MOVE
    assert int(movement_rating(S, tb, B0, I(ally))) == base + 1
    mods = np.zeros((2, 2, fx.N_MODS), dtype=np.int64)
    fx.collect_modifiers(S, tb, B0, I(ally), I(foe), I(0), I(0), False, mods)
    assert mods[0, 0, M_STR] == 0
    act(S, tb, A_END)
    while S["stage"][0] != STAGE_ENGAGE:
        act(S, tb, A_END)
    assert int(movement_rating(S, tb, B0, I(ally))) == base  # until Disengaged
    engage(S, tb, sci)  # its own ability: Strength this time
    act(S, tb, A_SIDE + 1)
    fx.collect_modifiers(S, tb, B0, I(sci), I(foe), I(0), I(0), False, mods)
    assert list(mods[0, 0, M_STR : M_STR + 4]) == [1, 1, 1, 1]
    assert int(movement_rating(S, tb, B0, I(sci))) == int(tb.u_move[S["unit_member"][0, sci, 0]])
    act(S, tb, A_END)
    while S["stage"][0] != STAGE_ENGAGE:
        act(S, tb, A_END)
    engage(S, tb, far)  # 4 spaces away: not asked
    assert S["stage"][0] == STAGE_MOVE
    S2 = position(tb, current=1)  # an enemy within 3 is offered it too; it may decline
    holder(S2, tb, 0, "Doing Science", 5, 5, E)
    foe = unit(S2, tb, 1, NEUTRAL, 2, 5, S_)
    base = int(movement_rating(S2, tb, B0, I(foe)))
    assert engage(S2, tb, foe) == [A_SIDE + 0, A_SIDE + 1, A_END]
    act(S2, tb, A_END)
    assert S2["stage"][0] == STAGE_MOVE and int(movement_rating(S2, tb, B0, I(foe))) == base


def t_dragon_flight():
    """Allied units of the Egg Root within 3 Grid Spaces of the Dragon Master may add 1 D3 to
    their Movement Rating until Disengaged (asked: A_ABILITY or A_END); an ally of another
    Root, an enemy Egg and an Egg 4 spaces away are not asked."""
    tb = record()
    for seed in SEEDS[:8]:
        S = position(tb, seed=seed)
        holder(S, tb, 0, "Dragon Flight", 5, 5, E)
        egg = unit(S, tb, 0, "Baby Dragon", 5, 7, E)
        other = unit(S, tb, 0, NEUTRAL, 6, 5, E)
        far = unit(S, tb, 0, "Baby Dragon", 1, 5, E)
        unit(S, tb, 1, "Baby Dragon", 4, 5, S_)
        base = int(movement_rating(S, tb, B0, I(egg)))
        assert engage(S, tb, egg) == [A_ABILITY, A_END]
        (d3,) = peek(S, 3)
        act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_MOVE
        assert int(movement_rating(S, tb, B0, I(egg))) == base + d3
        act(S, tb, A_END)
        while S["stage"][0] != STAGE_ENGAGE:
            act(S, tb, A_END)
        assert int(movement_rating(S, tb, B0, I(egg))) == base
        for u in (other, far):
            engage(S, tb, u)
            assert S["stage"][0] == STAGE_MOVE
            act(S, tb, A_END)
            while S["stage"][0] != STAGE_ENGAGE:
                act(S, tb, A_END)
    S2 = position(tb, current=1)  # the enemy's Egg is not the Dragon Master's ally
    holder(S2, tb, 0, "Dragon Flight", 5, 5, E)
    foe = unit(S2, tb, 1, "Baby Dragon", 4, 5, S_)
    engage(S2, tb, foe)
    assert S2["stage"][0] == STAGE_MOVE


# --- tdabA: Statuses given after the unit's Combat Phase (auras.after_combat_phase, R97) ----


def t_petrifying_peck():
    """The Cockatrice's own attack die (unmodified, RA14) showing 5 or 6: the unit it attacked
    acquires the Petrified Status once the Cockatrice's Combat Phase is over, not during it;
    4 or less: nothing."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S, a, d = _pair(tb, seed, HOLDER["Petrifying Peck"], "Stone Golem")
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        unit(S, tb, 0, NEUTRAL, 9, 0, N)
        engage(S, tb, a)
        act(S, tb, A_END)
        (die,) = peek(S, 6)
        act(S, tb, A_STRIKE)
        assert S["fx_proc_roll"][0] == die  # the attack's first die
        if has(S, d, "Dead"):
            continue
        assert S["engaged"][0] != a or S["stage"][0] != STAGE_COMBAT
        assert has(S, d, "Petrified") == (die >= 5)
        seen.add(die >= 5)
    both_ways(seen)
    for die in (4, 5, 6):  # the moment: after the Combat Phase, not at the attack
        S, a, d = _pair(tb, 1, HOLDER["Petrifying Peck"], "Stone Golem")
        set_procedure(S, a, d)
        S["fx_proc_roll"][0] = die
        hook(S, tb, H_AFTER_ATTACK, a, d)
        assert not has(S, d, "Petrified")
        after_combat_phase(S, tb, B0, I(d))  # another unit's Combat Phase: not yet
        assert not has(S, d, "Petrified")
        after_combat_phase(S, tb, B0, I(a))
        assert has(S, d, "Petrified") == (die >= 5)


# --- tdabA: a choice made once the ability's roll succeeded (auras.ask_pending, R98) ---------


def _to_ability(S, tb, u: int, target_cell: int) -> list[int]:
    """Engage u, end its Movement Phase, use its Combat Phase ability on the unit on
    target_cell; the legal actions then."""
    engage(S, tb, u)
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_COMBAT
    act(S, tb, A_ABILITY)
    assert S["stage"][0] == STAGE_EFFECT
    return act(S, tb, A_CELL + target_cell)


def t_hex():
    """The Witch targets a unit in its Range Area in Line of Sight: on 4 it acquires a Status
    of the Witch's player's choosing, on 5 or 6 a second, different one; never Dead or
    Petrified, and only Statuses its Unit Type may carry (a Physical unit: no Silenced); on 3
    or less nothing. The choice comes after the roll, with no A_END."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        w = holder(S, tb, 0, "Hex", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 8, W)
        (r,) = peek(S, 6)
        r_after = None
        got = _to_ability(S, tb, w, cell(tb, 5, 8))
        seen.add(min(max(r - 3, 0), 2))
        if r < 4:
            assert S["stage"][0] != STAGE_EFFECT and not S["unit_status"][0, t].any()
            continue
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
        assert A_END not in got and A_STATUS + ST["Burned"] in got
        for no in ("Dead", "Petrified", "Silenced"):
            assert A_STATUS + ST[no] not in got
        r_after = act(S, tb, A_STATUS + ST["Burned"])
        assert has(S, t, "Burned")
        if r == 4:
            assert S["stage"][0] != STAGE_EFFECT
            assert int(S["unit_status"][0, t].astype(bool).sum()) == 1
        else:
            assert S["stage"][0] == STAGE_EFFECT and A_STATUS + ST["Burned"] not in r_after
            act(S, tb, A_STATUS + ST["Crippled"])
            assert has(S, t, "Crippled") and S["stage"][0] != STAGE_EFFECT
    assert seen == {0, 1, 2}


def t_bite():
    """The Spider targets a unit in direct contact: on 3 or more it discards its Weapon or its
    Accessory, the Spider's player choosing (A_SIDE + slot; the Item goes to the bottom of the
    Item Deck), its Expendable kept; on 1 or 2 nothing; a target with neither: no choice."""
    tb = record()
    names = TABLES.item_names
    weapon, acc, exp = (
        next(i for i in range(len(names)) if TABLES.item_type[i] == k) for k in range(3)
    )
    seen = set()
    for seed in SEEDS[:16]:
        S = position(tb, seed=seed)
        sp = holder(S, tb, 0, "Bite", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 6, S_)
        S["unit_item"][0, t, :3] = [weapon, acc, exp]
        (r,) = peek(S, 6)
        got = _to_ability(S, tb, sp, cell(tb, 5, 6))
        seen.add(r >= 3)
        if r < 3:
            assert S["stage"][0] != STAGE_EFFECT and list(S["unit_item"][0, t, :3]) == [
                weapon,
                acc,
                exp,
            ]
            continue
        assert S["stage"][0] == STAGE_EFFECT and got == [A_SIDE + 0, A_SIDE + 1]
        slot = seed % 2
        act(S, tb, A_SIDE + slot)
        kept = [weapon, acc, exp]
        assert S["deck"][0, 0] == kept[slot]
        kept[slot] = -1
        assert list(S["unit_item"][0, t, :3]) == kept and S["stage"][0] != STAGE_EFFECT
    both_ways(seen)
    for seed in SEEDS[:8]:  # only an Expendable: nothing to choose
        S = position(tb, seed=seed)
        sp = holder(S, tb, 0, "Bite", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 6, S_)
        S["unit_item"][0, t, 2] = exp
        _to_ability(S, tb, sp, cell(tb, 5, 6))
        assert S["stage"][0] != STAGE_EFFECT and S["unit_item"][0, t, 2] == exp


def t_recover():
    """The Priest targets a unit in its Range Area in Line of Sight, Dead or not: on 4 or more
    the target's player may discard its Dead Status (A_STATUS + Dead or A_END), on 5 or 6 its
    Petrified Status; asked of that unit's player (an enemy's too), then the turn goes back.
    On 3 or less (or 4 for Petrified) nothing is asked."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        pr = holder(S, tb, 0, "Recover", 5, 5, E)
        ally = unit(S, tb, 0, NEUTRAL, 5, 8, W)
        unit(S, tb, 1, NEUTRAL, 9, 12, W)  # an enemy: the game goes on
        kill(S, tb, B0, I(ally), I(1))
        (r,) = peek(S, 6)
        got = _to_ability(S, tb, pr, cell(tb, 5, 8))
        seen.add(r >= 4)
        if r < 4:
            assert S["stage"][0] != STAGE_EFFECT and has(S, ally, "Dead")
            continue
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
        assert got == [A_STATUS + ST["Dead"], A_END]
        act(S, tb, A_STATUS + ST["Dead"])
        assert not has(S, ally, "Dead") and S["stage"][0] != STAGE_EFFECT
    both_ways(seen)
    seen = set()
    for seed in SEEDS:  # an enemy's Petrified: on 5 or 6 its player decides, and keeps it
        S = position(tb, seed=seed)
        pr = holder(S, tb, 0, "Recover", 5, 5, E)
        foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
        unit(S, tb, 0, NEUTRAL, 0, 0, S_)  # another unit to Engage: the Turn goes on
        apply_status(S, tb, B0, I(foe), I(ST["Petrified"]), I(-1))
        (r,) = peek(S, 6)
        got = _to_ability(S, tb, pr, cell(tb, 5, 8))
        seen.add(r >= 5)
        if r < 5:
            assert S["stage"][0] != STAGE_EFFECT and has(S, foe, "Petrified")
            continue
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 1
        assert got == [A_STATUS + ST["Petrified"], A_END]
        act(S, tb, A_END)
        assert has(S, foe, "Petrified") and S["current"][0] == 0
        assert S["stage"][0] != STAGE_EFFECT
    both_ways(seen)


# --- tdabA: Downgrade's "may" once its unit is Dead (auras.ask_downgrade, R100) -------------


def t_downgrade():
    """When the Corpse Hybrid acquires the Dead Status it rolls 1 D6: on 3 or more its player
    is asked at the next hand-off (STAGE_PAUSE, whoever's Turn: A_ABILITY or A_END) whether it
    discards the Dead Status and is replaced by a fresh Skeleton of its own on its space and
    facing; the interrupted decision then goes on. On 1 or 2 it stays Dead, nothing asked."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        hy = holder(S, tb, 1, "Downgrade", 5, 6, W)
        a = unit(S, tb, 0, NEUTRAL, 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 0, S_)
        kill(S, tb, B0, I(hy), I(0))
        (r,) = peek(S, 6)
        hook(S, tb, H_DEAD, fx.NO_SOURCE)  # its queued Dead rows roll now
        seen.add(r >= 3)
        got = engage(S, tb, a)
        if r < 3:
            assert S["stage"][0] == STAGE_MOVE and has(S, hy, "Dead")
            continue
        assert S["stage"][0] == STAGE_PAUSE and S["current"][0] == 1
        assert got == [A_ABILITY, A_END]
        if seed % 2:
            act(S, tb, A_END)
            assert has(S, hy, "Dead") and S["unit_member"][0, hy, 0] == UNIT_IX[HOLDER["Downgrade"]]
        else:
            act(S, tb, A_ABILITY)
            assert not has(S, hy, "Dead") and S["unit_member"][0, hy, 0] == UNIT_IX["Skeleton"]
            assert S["unit_cell"][0, hy] == cell(tb, 5, 6) and S["unit_facing"][0, hy] == W
            assert S["unit_place"][0, hy] == PLACE_FIELD
        assert S["current"][0] == 0 and S["stage"][0] == STAGE_MOVE and S["engaged"][0] == a
    both_ways(seen)


# --- tdabA: Spider Pack's "may combine" in the partner's Combat Phase (auras.ask_pack, R101) --


def t_spider_pack():
    """A unit in a Unit Team with the Wolf Spider is asked as its Combat Phase begins whether
    it combines the Spider's Strength Ratings with its own (A_ABILITY / A_END): yes, its
    Strength Ratings are the sum, side by side, until its Combat Phase ends; no, unchanged. A
    unit not teamed with it is not asked, nor is the Spider (its partner has no Spider Pack)."""
    tb = record()
    for accept in (True, False):
        S = position(tb)
        k = unit(S, tb, 0, "Knight", 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 5, 6, W)
        h = holder(S, tb, 0, "Spider Pack", 5, 4, E)
        lone = unit(S, tb, 0, "Knight", 7, 5, E)
        unit(S, tb, 1, NEUTRAL, 7, 6, W)
        _team(S, tb, h, k)
        base = [int(combat_strength(S, tb, B0, I(k), I(sd), I(PROC_ATTACK))) for sd in range(4)]
        spider = [int(S["unit_strength"][0, h, sd]) for sd in range(4)]
        engage(S, tb, k)
        got = act(S, tb, A_END)  # no movement: its Combat Phase asks first
        assert S["stage"][0] == STAGE_EFFECT and got == [A_ABILITY, A_END]
        act(S, tb, A_ABILITY if accept else A_END)
        assert S["stage"][0] == STAGE_COMBAT
        now = [int(combat_strength(S, tb, B0, I(k), I(sd), I(PROC_ATTACK))) for sd in range(4)]
        want = [x + y for x, y in zip(base, spider, strict=True)] if accept else base
        assert now == want
        while S["engaged"][0] == k:
            act(S, tb, A_END)
        after = [int(combat_strength(S, tb, B0, I(k), I(sd), I(PROC_ATTACK))) for sd in range(4)]
        assert after == base
        engage(S, tb, lone)
        act(S, tb, A_END)
        assert S["stage"][0] == STAGE_COMBAT  # not in its Team: not asked
        act(S, tb, A_END)
        while S["stage"][0] != STAGE_ENGAGE:
            act(S, tb, A_END)
        if S["current"][0] == 0 and A_UNIT + h % MAX_UNITS in legal(S, tb):
            engage(S, tb, h)
            while S["stage"][0] == STAGE_MOVE:
                act(S, tb, A_END)
            assert S["stage"][0] != STAGE_EFFECT  # its partner has no Spider Pack


# --- tdabA: Crystal Power's second target (auras.ask_second, R102) --------------------------


def t_crystal_power():
    """Once in its Combat Phase the Crystal Golem targets a unit within 5 Grid Spaces that has
    a Status (a unit with none is not offered), its player chooses one of its Statuses to
    discard (or stops, "may"), then picks another unit in its Range Area in Line of Sight
    (not the first), which acquires that Status; the Combat Phase goes on."""
    tb = record()
    S = position(tb)
    g = holder(S, tb, 0, "Crystal Power", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 5, 3, E)
    bare = unit(S, tb, 0, NEUTRAL, 4, 5, E)
    foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
    apply_status(S, tb, B0, I(ally), I(ST["Poisoned"]), I(-1))
    apply_status(S, tb, B0, I(foe), I(ST["Pumped"]), I(-1))
    engage(S, tb, g)
    act(S, tb, A_END)
    got = act(S, tb, A_ABILITY)
    assert S["stage"][0] == STAGE_EFFECT
    assert A_CELL + cell(tb, 5, 3) in got and A_CELL + cell(tb, 5, 8) in got
    assert A_CELL + cell(tb, 4, 5) not in got  # no Status to take
    got = act(S, tb, A_CELL + cell(tb, 5, 3))
    assert got == [A_STATUS + ST["Poisoned"], A_END]
    got = act(S, tb, A_STATUS + ST["Poisoned"])
    assert S["stage"][0] == STAGE_EFFECT and A_CELL + cell(tb, 5, 8) in got
    assert A_CELL + cell(tb, 5, 3) not in got and A_END not in got
    act(S, tb, A_CELL + cell(tb, 5, 8))
    assert not has(S, ally, "Poisoned") and has(S, foe, "Poisoned") and has(S, foe, "Pumped")
    assert not S["unit_status"][0, bare].any()
    assert S["stage"][0] == STAGE_COMBAT  # a "D: Combat Pha." ability: the phase goes on
    S = position(tb)  # from the enemy to the ally: the Pumped changes sides
    g = holder(S, tb, 0, "Crystal Power", 5, 5, E)
    ally = unit(S, tb, 0, NEUTRAL, 4, 8, W)
    foe = unit(S, tb, 1, NEUTRAL, 5, 8, W)
    apply_status(S, tb, B0, I(foe), I(ST["Pumped"]), I(-1))
    engage(S, tb, g)
    act(S, tb, A_END)
    act(S, tb, A_ABILITY)
    act(S, tb, A_CELL + cell(tb, 5, 8))
    got = act(S, tb, A_STATUS + ST["Pumped"])
    assert A_CELL + cell(tb, 5, 8) not in got and A_CELL + cell(tb, 4, 8) in got
    act(S, tb, A_CELL + cell(tb, 4, 8))
    assert has(S, ally, "Pumped") and not has(S, foe, "Pumped")


# --- tdabA: Make Bread's Giant's Bread (status_acquired, item may_equip; R103) -------------


def t_make_bread():
    """On 3 or more every unit in the Giant's Attack Area acquires Crippled; if one did, the
    Giant's player may equip the Giant's Bread from the Item Deck (A_ABILITY / A_END; it
    leaves the deck). On 1 or 2 nothing; a unit already Crippled acquires nothing, and then
    no Bread is offered."""
    tb = record()
    bread = TABLES.item_names.index("Giant's Bread")
    seen = set()
    for seed in SEEDS[:16]:
        for crippled in (False, True):
            S = position(tb, seed=seed)
            g = holder(S, tb, 0, "Make Bread", 5, 5, E)
            d = unit(S, tb, 1, NEUTRAL, 5, 6, W)
            unit(S, tb, 1, NEUTRAL, 0, 13, W)
            if crippled:
                apply_status(S, tb, B0, I(d), I(ST["Crippled"]), I(-1))
            engage(S, tb, g)
            act(S, tb, A_END)
            n = int(S["deck_count"][0])
            assert bread in list(S["deck"][0, :n])
            (r,) = peek(S, 6)
            got = act(S, tb, A_ABILITY)
            seen.add(r >= 3)
            assert has(S, d, "Crippled") == (crippled or r >= 3)
            if crippled or r < 3:
                assert S["stage"][0] != STAGE_EFFECT and bread not in list(S["unit_item"][0, g])
                continue
            assert S["stage"][0] == STAGE_EFFECT and got == [A_ABILITY, A_END]
            act(S, tb, A_ABILITY if seed % 2 else A_END)
            if seed % 2:
                assert S["unit_item"][0, g, 2] == bread and S["deck_count"][0] == n - 1
                assert bread not in list(S["deck"][0, : n - 1])
            else:
                assert bread not in list(S["unit_item"][0, g]) and S["deck_count"][0] == n
            assert S["stage"][0] != STAGE_EFFECT
    both_ways(seen)


# --- tdabC: stacking under an enemy unit, disabled abilities (control.py, R125-R127) --------


def _stack_case(ability: str, seed: int, target: str = NEUTRAL):
    """The holder (seat 0) on (5,2) facing east, the enemy `target` on (5,3) facing it, an
    enemy on (5,5) (two spaces away: not offered), an ally and an enemy far off (the armies
    stay in play); Combat Phase: A_ABILITY, then the adjacent enemy is the only pick."""
    tb = record()
    S = position(tb, seed=seed)
    u = holder(S, tb, 0, ability, 5, 2, E)
    t = unit(S, tb, 1, target, 5, 3, W)
    unit(S, tb, 1, NEUTRAL, 5, 5, W)
    unit(S, tb, 0, NEUTRAL, 0, 0, S_)
    unit(S, tb, 1, NEUTRAL, 9, 13, N)
    assert A_ABILITY in _combat(S, tb, u)
    assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 5, 3)]
    return S, tb, u, t


def _members(S, u: int) -> list[int]:
    return [int(m) for m in S["unit_member"][0, u] if m >= 0]


def t_host():
    """R: Attack Pro.: 4+ on one D6: the Parasite stacks under the adjacent enemy; the stack
    comes under this Player's control (a new unit of its army, costing nothing, I39; not
    Engaged this Turn, R90) with its Base Strength Ratings halved and no Stacking bonus (the
    Parasite's ratings are not added, R125); else nothing happens."""
    seen = set()
    for seed in SEEDS[:30]:
        S, tb, u, t = _stack_case("Host", seed)
        base = [int(x) for x in S["unit_strength"][0, t]]
        costs = [int(x) for x in S["army_cost"][0]]
        r = peek(S, 6)[0]
        nxt = act(S, tb, A_CELL + cell(tb, 5, 3))
        w = _on(S, tb, 5, 3)
        if r >= 4:
            assert w // 20 == 0 and w not in (u, t)
            assert _members(S, w) == [UNIT_IX[NEUTRAL], UNIT_IX[HOLDER["Host"]]]
            assert [int(x) for x in S["unit_strength"][0, w]] == [
                max(s // 2, int(tb.strength_min)) for s in base
            ]
            assert S["unit_cost"][0, w] == 0 and S["unit_facing"][0, w] == W
            assert S["unit_place"][0, u] == PLACE_REMOVED == S["unit_place"][0, t]
            assert S["cell_unit"][0, cell(tb, 5, 2), 0] == -1  # the Parasite left its space
            assert A_UNIT + w % 20 not in nxt  # it may not be Engaged this Turn
        else:
            assert w == t and _members(S, t) == [UNIT_IX[NEUTRAL]]
            assert [int(x) for x in S["unit_strength"][0, t]] == base
            assert _on(S, tb, 5, 2) == u
        assert [int(x) for x in S["army_cost"][0]] == costs
        assert violations(S, tb, 0) == []
        seen.add(r >= 4)
    both_ways(seen)


def t_curse():
    """R: Attack Pro.: 3+ on one D6: the Host stacks under the adjacent enemy (a Paladin with
    Holy Might): the stack stays its owner's, with the same Strength Ratings (no Stacking
    bonus), and none of its members' abilities acts any more (Holy Might's +1 is gone)."""
    seen = set()
    for seed in SEEDS[:30]:
        S, tb, u, t = _stack_case("Curse", seed, target=HOLDER["Holy Might"])
        foe = unit(S, tb, 0, NEUTRAL, 7, 3, N)
        assert strengths(mods(S, tb, t, foe), 0, 0) == [1, 0, 0, 0]
        base = [int(x) for x in S["unit_strength"][0, t]]
        r = peek(S, 6)[0]
        act(S, tb, A_CELL + cell(tb, 5, 3))
        assert _on(S, tb, 5, 3) == t and [int(x) for x in S["unit_strength"][0, t]] == base
        if r >= 3:
            assert _members(S, t) == [UNIT_IX[HOLDER["Holy Might"]], UNIT_IX[HOLDER["Curse"]]]
            assert S["unit_place"][0, u] == PLACE_REMOVED
            assert strengths(mods(S, tb, t, foe), 0, 0) == [0] * 4
            for m in _members(S, t):
                assert not fx.ability_on(S, tb, B0, I(t), I(m))
        else:
            assert _members(S, t) == [UNIT_IX[HOLDER["Holy Might"]]] and _on(S, tb, 5, 2) == u
            assert strengths(mods(S, tb, t, foe), 0, 0) == [1, 0, 0, 0]
        assert violations(S, tb, 0) == []
        seen.add(r >= 3)
    both_ways(seen)


def t_alter():
    """R: Attack Pro.: 3+ on one D6: the unit stacks under the adjacent enemy, which stays
    its owner's with no Stacking bonus, and this Player chooses its new Unit Type (one of the
    other two, R126; its Attack Type follows, TD-3.3); else nothing and no choice."""
    seen = set()
    for seed in SEEDS[:30]:
        S, tb, u, t = _stack_case("Alter", seed)
        old = int(S["unit_type"][0, t])
        base = [int(x) for x in S["unit_strength"][0, t]]
        r = peek(S, 6)[0]
        nxt = act(S, tb, A_CELL + cell(tb, 5, 3))
        if r >= 3:
            assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
            others = [k for k in range(3) if k != old]
            assert sorted(nxt) == [A_TYPE + k for k in others]
            new = others[seed % 2]
            act(S, tb, A_TYPE + new)
            assert S["unit_type"][0, t] == new == S["unit_attack_type"][0, t]
            assert _members(S, t) == [UNIT_IX[NEUTRAL], UNIT_IX[HOLDER["Alter"]]]
            assert _on(S, tb, 5, 3) == t and S["unit_place"][0, u] == PLACE_REMOVED
        else:
            assert S["stage"][0] != STAGE_EFFECT
            assert S["unit_type"][0, t] == old and _members(S, t) == [UNIT_IX[NEUTRAL]]
        assert [int(x) for x in S["unit_strength"][0, t]] == base
        assert violations(S, tb, 0) == []
        seen.add(r >= 3)
    both_ways(seen)


def t_ghoul_blight():
    """R: Attack Pro.: a unit within 3 Grid Spaces in Line of Sight from any side (RA16: one
    behind the Ghoul too; one 4 spaces away is not offered) has its ability disabled until it
    is next Engaged (R127): the Paladin's Holy Might gives no +1 until then."""
    tb = record()
    for seed in SEEDS[:3]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Ghoul Blight", 5, 5, E)
        t = unit(S, tb, 1, HOLDER["Holy Might"], 5, 3, E)  # behind the Ghoul, 2 spaces
        unit(S, tb, 1, NEUTRAL, 5, 9, W)  # 4 spaces ahead
        foe = unit(S, tb, 0, NEUTRAL, 8, 3, N)
        assert strengths(mods(S, tb, t, foe), 0, 0) == [1, 0, 0, 0]
        assert A_ABILITY in _combat(S, tb, u)
        assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 5, 3)]
        act(S, tb, A_CELL + cell(tb, 5, 3))
        assert strengths(mods(S, tb, t, foe), 0, 0) == [0] * 4
        for _ in range(20):  # to the opponent's Turn: its units' Engagement
            if S["current"][0] == 1 and S["stage"][0] == STAGE_ENGAGE:
                break
            moves = legal(S, tb)
            act(S, tb, A_END if A_END in moves else moves[0])
        assert S["current"][0] == 1 and S["stage"][0] == STAGE_ENGAGE
        assert strengths(mods(S, tb, t, foe), 0, 0) == [0] * 4  # still disabled
        engage(S, tb, t)
        assert strengths(mods(S, tb, t, foe), 0, 0) == [1, 0, 0, 0]
        assert violations(S, tb, 0) == []


def t_hired_hit():
    """At the start of its Player's first Turn (the second player's: Turn 2) the player
    declares a Root for each Mercenary, one by one (RA5, STAGE_DECLARE); the Mercenary then
    gains +3 to its Strength Ratings in its Attack Procedure (not the Duel, not defending)
    against a unit of that Root only; the Root is kept, not asked again."""
    tb = record()
    pal = UNIT_IX[HOLDER["Holy Might"]]
    for declare_paladins in (True, False):
        S = position(tb, seed=3)
        m1 = holder(S, tb, 1, "Hired Hit", 5, 5, W)
        m2 = holder(S, tb, 1, "Hired Hit", 0, 13, S_)
        p = unit(S, tb, 0, HOLDER["Holy Might"], 5, 4, E)
        unit(S, tb, 0, "Tinkerer", 0, 0, S_)  # another Root (its Work Belt: no Items here)
        root = int(tb.u_family[pal])
        other = int(tb.u_family[UNIT_IX["Tinkerer"]])
        assert root != other
        moves = act(S, tb, A_END)  # seat 0's Turn ends: seat 1's first Turn begins
        assert S["stage"][0] == STAGE_DECLARE and S["current"][0] == 1
        assert A_UNIT + root in moves and A_UNIT + other in moves
        act(S, tb, A_UNIT + (root if declare_paladins else other))  # the first Mercenary's
        assert S["stage"][0] == STAGE_DECLARE  # the second one's is asked too (RA5)
        nxt = act(S, tb, A_UNIT + root)
        assert S["stage"][0] == STAGE_ENGAGE and A_UNIT + m1 % 20 in nxt
        want = 3 if declare_paladins else 0
        m = mods(S, tb, m1, p)
        assert strengths(m, 0, 0) == [want] * 4 and strengths(m, 0, 1) == [0] * 4
        assert strengths(mods(S, tb, m2, p), 0, 0) == [3] * 4
        assert strengths(mods(S, tb, p, m1), 1, 0) == [0] * 4  # defending: nothing
        assert int(S["unit_root_decl"][0, m1]) == (root if declare_paladins else other)


def t_summon():
    """R: Attack Pro.: the player picks an allied Light or Medium unit within 7 Grid Spaces,
    not Engaged this Turn, not Locked, not Dead (RA3; a Heavy, an Engaged one and an enemy are
    not offered), then an empty space of the Summoner's Range Area in Line of Sight with no
    enemy in Direct or Diagonal contact (R129); the unit moves there and counts as having
    moved; an Ethereal one acquires the Summoned Status."""
    tb = record()
    for name, ethereal in ((NEUTRAL, False), (HOLDER["Ghoul Blight"], True)):
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Summon", 5, 0, E)
        v = unit(S, tb, 0, name, 2, 2, S_)
        unit(S, tb, 0, HOLDER["Holy Might"], 8, 1, N)  # Heavy: not offered
        done = unit(S, tb, 0, NEUTRAL, 7, 2, N)
        S["unit_engaged"][0, done] = 1  # Engaged this Turn: not offered
        unit(S, tb, 1, NEUTRAL, 5, 6, W)
        assert A_ABILITY in _combat(S, tb, u)
        assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 2, 2)]
        spaces = act(S, tb, A_CELL + cell(tb, 2, 2))
        assert S["stage"][0] == STAGE_EFFECT
        assert A_CELL + cell(tb, 5, 3) in spaces and A_CELL + cell(tb, 5, 4) in spaces
        for r, c in ((5, 5), (4, 5), (6, 5), (4, 6), (4, 7), (5, 0), (5, 6), (2, 0)):
            assert A_CELL + cell(tb, r, c) not in spaces, (r, c)  # by an enemy, or out
        act(S, tb, A_CELL + cell(tb, 5, 3))
        assert S["unit_cell"][0, v] == cell(tb, 5, 3) and _on(S, tb, 5, 3) == v
        assert S["cell_unit"][0, cell(tb, 2, 2), 0] == -1
        assert S["unit_moved"][0, v] == 1 and S["unit_engaged"][0, v] == 0
        assert has(S, v, "Summoned") == ethereal
        assert S["stage"][0] == STAGE_ENGAGE  # the Summoner's Combat Phase is over
        assert violations(S, tb, 0) == []


def t_blood_sacrifice():
    """R: Attack Pro.: the player first picks an allied Light unit within 6 Grid Spaces (a
    Heavy ally, an ally 7 away and the enemies are not offered), then may pick an enemy Light
    unit in the Blood Mage's Range Area in Line of Sight (or stop, A_END; R130): each picked
    unit acquires the Dead Status; only the enemy counts as a kill (TD-12.1)."""
    tb = record()
    for take_enemy in (True, False):
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Blood Sacrifice", 5, 0, E)
        ally = unit(S, tb, 0, NEUTRAL, 2, 2, S_)  # 5 away, Light
        unit(S, tb, 0, NEUTRAL, 0, 2, S_)  # 7 away
        unit(S, tb, 0, HOLDER["Holy Might"], 8, 1, N)  # Heavy
        foe = unit(S, tb, 1, NEUTRAL, 5, 4, W)  # Light, in Range
        unit(S, tb, 1, HOLDER["Holy Might"], 5, 3, W)  # Heavy, in Range: not offered
        unit(S, tb, 1, NEUTRAL, 0, 13, W)  # Light, out of Range
        assert A_ABILITY in _combat(S, tb, u)
        assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 2, 2)]
        assert sorted(act(S, tb, A_CELL + cell(tb, 2, 2))) == sorted(
            [A_CELL + cell(tb, 5, 4), A_END]
        )
        act(S, tb, A_CELL + cell(tb, 5, 4) if take_enemy else A_END)
        assert has(S, ally, "Dead") and has(S, foe, "Dead") == take_enemy
        assert int(S["kills_turn"][0, 0]) == int(take_enemy)
        assert not has(S, u, "Dead")
        assert violations(S, tb, 0) == []


def t_false_guide():
    """D: Combat Pha.: the player picks an enemy within 3 Grid Spaces; 3+ on one D6: this
    player moves it (a Movement Procedure by its own rating, or it stays) and turns it (a
    Facing Procedure), then the Combat Phase goes on, and the Lost Soul may not Attack it
    this Turn (its strike is not offered, R77/R131); below 3 nothing happens."""
    tb = record()
    seen = set()
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "False Guide", 5, 2, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 3, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, W)  # far off
        unit(S, tb, 0, NEUTRAL, 9, 0, N)  # an ally still to Engage: the Turn goes on
        moves = _combat(S, tb, u)
        assert A_ABILITY in moves and A_STRIKE in moves
        assert act(S, tb, A_ABILITY) == [A_CELL + cell(tb, 5, 3)]
        r = peek(S, 6)[0]
        nxt = act(S, tb, A_CELL + cell(tb, 5, 3))
        if r >= 3:
            assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
            m = int(tb.u_move[UNIT_IX[NEUTRAL]])  # its own rating
            assert A_END in nxt and A_CELL + cell(tb, 5, 3 + m) in nxt
            assert A_CELL + cell(tb, 5, 4 + m) not in nxt and A_CELL + cell(tb, 5, 2) not in nxt
            go = seed % 2 == 0
            assert act(S, tb, A_CELL + cell(tb, 5, 7) if go else A_END) == [
                A_FACE + d for d in range(4)
            ]
            act(S, tb, A_FACE + N)
            assert S["unit_cell"][0, t] == cell(tb, 5, 7 if go else 3)
            assert S["unit_facing"][0, t] == N
            # it may not attack the target (not even where it stayed, in its Attack Area):
            # nothing but A_END was left, so its Combat Phase ended by itself
            assert fx.attack_prohibited(S, tb, B0, I(u), I(t))
            assert S["stage"][0] == STAGE_ENGAGE and S["current"][0] == 0
            assert not has(S, t, "Dead")
            act(S, tb, A_END)  # the Turn ends: so does the ban
            assert not fx.attack_prohibited(S, tb, B0, I(u), I(t))
        else:
            assert S["stage"][0] == STAGE_COMBAT and A_STRIKE in nxt
            assert S["unit_cell"][0, t] == cell(tb, 5, 3)
        assert violations(S, tb, 0) == []
        seen.add(r >= 3)
    both_ways(seen)


def t_nature_shape():
    """A: Unit Engagement: the player may have the Druid act as a Hound, Wolf or Bear (or
    not, A_END) until its next Engagement (R132): it has that unit's Strength Ratings, Unit
    Type and Movement Rating meanwhile; its next Engagement makes it a Druid again and asks
    anew."""
    tb = record()
    druid = UNIT_IX[HOLDER["Nature Shape"]]
    forms = [UNIT_IX[n] for n in ("Hound", "Wolf", "Bear")]
    for pick in (*forms, None):
        S = position(tb, seed=2)
        u = holder(S, tb, 0, "Nature Shape", 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, W)
        moves = engage(S, tb, u)
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
        assert sorted(moves) == sorted([A_PIECE + f for f in forms] + [A_END])
        act(S, tb, A_END if pick is None else A_PIECE + pick)
        now = druid if pick is None else pick
        assert int(S["unit_member"][0, u, 0]) == now
        assert list(S["unit_strength"][0, u]) == list(tb.u_strength[now])
        assert S["unit_type"][0, u] == tb.u_type[now]
        assert movement_rating(S, tb, B0, I(u)) == tb.u_move[now]
        assert S["stage"][0] != STAGE_EFFECT
        for _ in range(40):  # to its player's next Turn (the form lasts meanwhile)
            if S["current"][0] == 0 and S["stage"][0] == STAGE_ENGAGE and S["turn"][0] > 1:
                break
            moves = legal(S, tb)
            act(S, tb, A_END if A_END in moves else moves[0])
        assert S["current"][0] == 0 and S["stage"][0] == STAGE_ENGAGE
        assert int(S["unit_member"][0, u, 0]) == now
        engage(S, tb, u)  # its next Engagement: a Druid again, asked again
        assert int(S["unit_member"][0, u, 0]) == druid
        assert list(S["unit_strength"][0, u]) == list(tb.u_strength[druid])
        assert S["unit_type"][0, u] == tb.u_type[druid]
        assert S["stage"][0] == STAGE_EFFECT
        assert violations(S, tb, 0) == []


ABILITY_TESTS: dict[str, Callable[[], None]] = {
    "Cry For Help": t_cry_for_help,
    "Vigor": t_vigor,
    "Holy Might": t_holy_might,
    "Deus Ex Machina": t_deus_ex_machina,
    "Blood Frenzy": t_blood_frenzy,
    "Deathly Miasma": t_deathly_miasma,
    "Bone Snap": t_bone_snap,
    "Battle Cry": t_battle_cry,
    "Ninjacute": t_ninjacute,
    "Vikingcide": t_vikingcide,
    "On The Run": t_on_the_run,
    "Sure Strike": t_sure_strike,
    "Parry": t_parry,
    "Duel Striker": t_duel_striker,
    "Duel Defender": t_duel_defender,
    "Reinforce": t_reinforce,
    "Fortify": t_fortify,
    "Steamroller": t_steamroller,
    "Hit The Wall": t_hit_the_wall,
    "Beast Friend": t_beast_friend,
    "Trapped!": t_trapped,
    "Gone Wild": t_gone_wild,
    "Beast Slayer": t_beast_slayer,
    "Piratecide": t_piratecide,
    "Exit Wound": t_exit_wound,
    "Supervised": t_supervised,
    "Synchronize": t_synchronize,
    "Force Field": t_force_field,
    "Growth": t_growth,
    "Static Wave": t_static_wave,
    "Brown Nosing": t_brown_nosing,
    "Just Mud": t_just_mud,
    "Resilient": t_resilient,
    "Indestructable": t_indestructable,
    "Titan Armor": t_titan_armor,
    "Moon Rage": t_moon_rage,
    "Rabies": t_rabies,
    "Cold Blooded": t_cold_blooded,
    "Stoupid Strong": t_stoupid_strong,
    "Ignore Consequence": t_ignore_consequence,
    "Unholy Strength": t_unholy_strength,
    "Flash Flood": t_flash_flood,
    "Tidal Shield": t_tidal_shield,
    "Flock": t_flock,
    "Three Heads": t_three_heads,
    "Harvest Moon Rage": t_harvest_moon_rage,
    "Blizzard": t_blizzard,
    "Spirits Cry": t_spirits_cry,
    "Razor's Charge": t_razors_charge,
    "Sprint": t_sprint,
    "Whiptail": t_whiptail,
    "Squeeze": t_squeeze,
    "Vicious Snapper": t_vicious_snapper,
    "Tail Whip": t_tail_whip,
    "Haunt": t_haunt,
    "Chill": t_chill,
    "Counter Clause": t_counter_clause,
    "Black Disease": t_black_disease,
    "Plague": t_plague,
    "Oil Spurt": t_oil_spurt,
    "Pulverize": t_pulverize,
    "Dissolve Composure": t_dissolve_composure,
    "Loss of Kin": t_loss_of_kin,
    "Carapace": t_carapace,
    "Swarm Call": t_swarm_call,
    "Bug Zapper": t_bug_zapper,
    "Fire Flight": t_fire_flight,
    "Dragon Might": t_dragon_might,
    "Dragon Rage": t_dragon_rage,
    "Tricked": t_tricked,
    "Enchanting": t_enchanting,
    "Preservatives": t_preservatives,
    "Black Magic": t_black_magic,
    "Summoning Spell": t_summoning_spell,
    "Natural Fury": t_natural_fury,
    "Bio Re-Engineering": t_bio_re_engineering,
    "Sprite Spirit": t_sprite_spirit,
    "Fairy Flame": t_fairy_flame,
    "Impish Bulk": t_impish_bulk,
    "Lightning Cry": t_lightning_cry,
    "Venom": t_venom,
    "Nightmare": t_nightmare,
    "CURSE": t_curse_banshee,
    "Micro Shine": t_micro_shine,
    "Random Cannon": t_random_cannon,
    "EEK!": t_eek,
    "Acid Shock": t_acid_shock,
    "Weird Cloud Bomb": t_weird_cloud_bomb,
    "Holy Guidance": t_holy_guidance,
    "Reckless": t_reckless,
    "Transpose": t_transpose,
    "Slither": t_slither,
    "Super Serial": t_super_serial,
    "Divine Justice": t_divine_justice,
    "Skewer": t_skewer,
    "Feast": t_feast,
    "Soul Reap": t_soul_reap,
    "Oblivious": t_oblivious,
    "Cute and Cuddly": t_cute_and_cuddly,
    "Manipulation": t_manipulation,
    "Mind's Eye": t_minds_eye,
    "Fit of Laughter": t_fit_of_laughter,
    "Island Spring": t_island_spring,
    "Dispel": t_dispel,
    "Venom Web": t_venom_web,
    "Acid Web": t_acid_web,
    "Web": t_web,
    "Frost Breath": t_frost_breath,
    "Glacial Breath": t_glacial_breath,
    "Sandstorm Breath": t_sandstorm_breath,
    "Erosion Breath": t_erosion_breath,
    "Bright Breath": t_bright_breath,
    "Radiant Breath": t_radiant_breath,
    "Outsmart": t_outsmart,
    "Picking up the Pieces": t_picking_up_the_pieces,
    "Repair": t_repair,
    "Bandages": t_bandages,
    "Rectify": t_rectify,
    "Perfect Shot": t_perfect_shot,
    "Headshot": t_headshot,
    "Vampiric Aura": t_vampiric_aura,
    "Overwhelm": t_overwhelm,
    "Ink Shot": t_ink_shot,
    "Alerted": t_alerted,
    # Unit Teams (branch tdteams)
    "Carry": t_carry,
    "Ride": t_ride,
    "Ride the Lightning": t_ride_the_lightning,
    "Circumvent": t_circumvent,
    "Teamwork?": t_teamwork,
    "Partners?": t_partners,
    "Flame Breath": t_flame_breath,
    "Magma Breath": t_magma_breath,
    "Toxic Breath": t_toxic_breath,
    "Nightmare Breath": t_nightmare_breath,
    "Gorgon Gaze": t_gorgon_gaze,
    "Raise Dead": t_raise_dead,
    "Polymorph": t_polymorph,
    "Grave Riser": t_grave_riser,
    "Infect": t_infect,
    "Hatch": t_hatch,
    "Ctrl Alt Del": t_ctrl_alt_del,
    "Dungball": t_dungball,
    "Beast Whisperer": t_beast_whisperer,
    "Sword Dance": t_sword_dance,
    "Warning Signs": t_warning_signs,
    "Impenetrable": t_impenetrable,
    "Slip": t_slip,
    "Phase Shift": t_phase_shift,
    "Target Practice": t_target_practice,
    "Blob Wall": t_blob_wall,
    "Assassinate": t_assassinate,
    "Chimaeric Reaction": t_chimaeric_reaction,
    "Oversized": t_oversized,
    "Climb Tree": t_climb_tree,
    "Maneuver": t_maneuver,
    "Research": t_research,
    "Doing Science": t_doing_science,
    "Dragon Flight": t_dragon_flight,
    "Petrifying Peck": t_petrifying_peck,
    "Hex": t_hex,
    "Bite": t_bite,
    "Recover": t_recover,
    "Downgrade": t_downgrade,
    "Spider Pack": t_spider_pack,
    "Crystal Power": t_crystal_power,
    "Make Bread": t_make_bread,
    # tdabC: stacking under an enemy, disabled abilities (control.py)
    "Host": t_host,
    "Curse": t_curse,
    "Alter": t_alter,
    "Ghoul Blight": t_ghoul_blight,
    "Hired Hit": t_hired_hit,
    "Summon": t_summon,
    "Blood Sacrifice": t_blood_sacrifice,
    "False Guide": t_false_guide,
    "Nature Shape": t_nature_shape,
}


# --- branch tdabB: trails (trails.py; R110-R112) ----------------------------------------------


def _trail_laid(tb, seed: int, owner_name: str, mover_name: str):
    """Seat 0's `owner_name` on (5,2) facing east moves to (5,5) (Movement Procedure); seat 1's
    `mover_name` waits on (4,3). Then seat 1's Turn, its mover Engaged. A trail leaves markers
    on (5,2), (5,3), (5,4): the space left and those passed, not the end space (R110)."""
    S = position(tb, seed=seed)
    owner = unit(S, tb, 0, owner_name, 5, 2, E)
    mover = unit(S, tb, 1, mover_name, 4, 3, S_)
    engage(S, tb, owner)
    act(S, tb, A_CELL + cell(tb, 5, 5))
    S["stage"][0] = STAGE_ENGAGE
    S["current"][0] = 1
    S["engaged"][0] = -1
    engage(S, tb, mover)
    return S, owner, mover


def _marked(S, tb) -> dict[tuple[int, int], int]:
    cols = int(tb.bf_cols[0])
    return {
        (int(c) // cols, int(c) % cols): int(S["trail_unit"][0, c])
        for c in np.nonzero(S["trail_unit"][0] >= 0)[0]
    }


def _reach(S, tb, u: int) -> set[tuple[int, int]]:
    dest = np.zeros(MAX_CELLS, dtype=np.uint8)
    reach(S, tb, B0, I(u), dest)
    cols = int(tb.bf_cols[0])
    return {(int(c) // cols, int(c) % cols) for c in np.nonzero(dest)[0]}


def t_mucous_trail():
    """Markers on the spaces the Slime passed over (not its end space) until it is next
    Engaged; an enemy (Land) entering one must end its Movement Phase there: it may stop on
    (5,3) but not go on to (6,3), and moving onto (5,3) ends its Movement Phase (no Facing
    left); a charge stops on it; Soar is not affected; a unit without the trail leaves none."""
    tb = record()
    S, owner, mover = _trail_laid(tb, 1, HOLDER["Mucous Trail"], NEUTRAL)
    assert _marked(S, tb) == {(5, 2): owner, (5, 3): owner, (5, 4): owner}
    got = _reach(S, tb, mover)
    assert (5, 3) in got and (6, 3) not in got and (6, 4) not in got and (5, 1) in got
    line = np.empty(32, dtype=np.int64)
    assert charge_line(S, tb, B0, I(mover), line) == 1 and line[0] == cell(tb, 5, 3)
    act(S, tb, A_CELL + cell(tb, 5, 3))
    assert S["stage"][0] != STAGE_MOVE  # its Movement Phase ended at once
    S2, _, mover2 = _trail_laid(tb, 1, NEUTRAL, NEUTRAL)
    assert _marked(S2, tb) == {}
    got = _reach(S2, tb, mover2)
    assert (6, 3) in got
    act(S2, tb, A_CELL + cell(tb, 5, 3))
    assert S2["stage"][0] == STAGE_MOVE  # a Facing Procedure may follow
    S3, _, flier = _trail_laid(tb, 1, HOLDER["Mucous Trail"], "Dragonfly")  # Soar
    assert (6, 3) in _reach(S3, tb, flier)
    # the Slime's next Engagement removes its markers
    S["stage"][0] = STAGE_ENGAGE
    S["current"][0] = 0
    S["engaged"][0] = -1
    S["unit_engaged"][0, owner] = 0
    engage(S, tb, owner)
    assert _marked(S, tb) == {}


def _status_trail(ability: str, status: str):
    """An enemy (Land) whose Movement Procedure must pass a marker acquires `status` at its
    end: (4,3) to (6,3) crosses (5,3). To (5,1) a clean path as short exists (R111): nothing;
    to (3,3) nothing. Soar is not affected; without the trail nothing."""

    def check():
        tb = record()
        for dest, gains in (((6, 3), True), ((5, 1), False), ((3, 3), False)):
            S, owner, mover = _trail_laid(tb, 2, HOLDER[ability], NEUTRAL)
            assert _marked(S, tb) == {(5, 2): owner, (5, 3): owner, (5, 4): owner}
            act(S, tb, A_CELL + cell(tb, *dest))
            assert has(S, mover, status) == gains, (ability, dest)
        S, _, mover = _trail_laid(tb, 2, NEUTRAL, NEUTRAL)
        act(S, tb, A_CELL + cell(tb, 6, 3))
        assert not has(S, mover, status)
        S, _, flier = _trail_laid(tb, 2, HOLDER[ability], "Dragonfly")
        act(S, tb, A_CELL + cell(tb, 6, 3))
        assert not has(S, flier, status)

    return check


# --- branch tdabB: item abilities (items.py) -----------------------------------------------


def t_inventory_invention():
    """At the end of its Player's Turn, with no kill, the Item Acquisition is made as though 3
    Units were killed (R113): the top card is offered (STAGE_ACQUIRE, which the player may
    decline) on a D6 >= 3 and not below; never with the unit Dead or in Combat Lock, nor for
    a unit without the ability."""
    tb = record()
    potion = int(TABLES.item_index["Potion"])
    seen = set()
    for seed in SEEDS[:20]:
        for case in ("on", "dead", "locked", "neutral"):
            S = position(tb, seed=seed)
            name = NEUTRAL if case == "neutral" else HOLDER["Inventory Invention"]
            u = unit(S, tb, 0, name, 5, 5, E)
            d = unit(S, tb, 1, NEUTRAL, 5, 6, W)
            S["unit_engaged"][0, u] = 1  # Engaged already: the Turn may end
            if case == "dead":
                kill(S, tb, B0, I(u), I(-1))
            if case == "locked":
                S["unit_lock"][0, u] = d
                S["unit_lock"][0, d] = u
            top = int(S["deck_count"][0]) - 1
            k = int(np.nonzero(S["deck"][0, : top + 1] == potion)[0][0])
            S["deck"][0, k], S["deck"][0, top] = S["deck"][0, top], potion  # anyone may take it
            (r,) = peek(S, 6)
            got = act(S, tb, A_END)  # no more Engagements: Item Acquisition, the Turn ends
            offered = S["stage"][0] == STAGE_ACQUIRE
            assert offered == (case == "on" and r >= 3), (seed, case, r)
            if offered:
                seen.add(r >= 3)
                assert A_END in got  # "may": the player may decline
            elif case == "on":
                seen.add(r >= 3)
    both_ways(seen)


def _study_obs(S, tb, me: int) -> list[int]:
    """The Item cards seat `me`'s observation shows on top of the deck (top, second; -1)."""
    from envs.tactics_david import observe as ob

    out = np.zeros(ob.observation_size(), dtype=np.float32)
    ob.observe(S, tb, B0, I(me), out)
    i = ob.GLOBAL_SIZE - 2 * ob.MAX_ITEMS
    part = out[i : i + 2 * ob.MAX_ITEMS].reshape(2, ob.MAX_ITEMS)
    return [int(np.argmax(r)) if r.any() else -1 for r in part]


def t_study():
    """On its Engagement its Player sees the top two Item Deck cards (its observation only,
    and a resample for it keeps them; R116) and keeps (A_END) or swaps (A_TRADE) them; then
    the Engagement goes on (its Movement Phase). Not while Petrified; not for another unit."""
    from envs.tactics_david.hidden import resample_hidden

    tb = record()
    for answer in (A_TRADE, A_END):
        S = position(tb, seed=4)
        u = holder(S, tb, 0, "Study", 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        n = int(S["deck_count"][0])
        top, second = int(S["deck"][0, n - 1]), int(S["deck"][0, n - 2])
        assert _study_obs(S, tb, 0) == [-1, -1]
        got = engage(S, tb, u)
        assert S["stage"][0] == STAGE_EFFECT and got == [A_TRADE, A_END]
        assert _study_obs(S, tb, 0) == [top, second] and _study_obs(S, tb, 1) == [-1, -1]
        act(S, tb, answer)
        want = [second, top] if answer == A_TRADE else [top, second]
        assert [int(S["deck"][0, n - 1]), int(S["deck"][0, n - 2])] == want
        assert _study_obs(S, tb, 0) == want and _study_obs(S, tb, 1) == [-1, -1]
        assert S["stage"][0] == STAGE_MOVE and S["engaged"][0] == u
        rng = np.random.default_rng(0)
        tops = set()
        for _ in range(10):
            R = resample_hidden(S, 0, rng, tb)
            assert [int(R["deck"][0, n - 1]), int(R["deck"][0, n - 2])] == want
            R = resample_hidden(S, 1, rng, tb)
            tops.add(int(R["deck"][0, n - 1]))
        assert len(tops) > 1  # hidden from the other player
    for name, petrified in ((HOLDER["Study"], True), (NEUTRAL, False)):
        S = position(tb, seed=4)
        u = unit(S, tb, 0, name, 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        if petrified:
            S["unit_status"][0, u, ST["Petrified"]] = STATUS_PERMANENT
        engage(S, tb, u)
        assert S["stage"][0] != STAGE_EFFECT and (S["deck_seen"][0] == -1).all(), name


def _deck_unit(ability: str, held: str | None, seed: int = 5, enemy_at=(0, 13)):
    """Seat 0's holder of `ability` on (5,5) holding `held` (taken out of the Item Deck), an
    enemy far off; the legal actions once its Combat Phase is asked."""
    tb = record()
    S = position(tb, seed=seed)
    u = (
        holder(S, tb, 0, ability, 5, 5, E)
        if ability in HOLDER
        else unit(S, tb, 0, ability, 5, 5, E)
    )
    unit(S, tb, 1, NEUTRAL, *enemy_at, W)
    if held is not None:
        i = TABLES.item_index[held]
        n = int(S["deck_count"][0])
        rest = [int(x) for x in S["deck"][0, :n] if x != i]
        S["deck"][0, : n - 1] = rest
        S["deck"][0, n - 1] = -1
        S["deck_count"][0] = n - 1
        S["unit_item"][0, u, int(tb.it_type[i])] = i
    got = engage(S, tb, u)
    while S["stage"][0] != STAGE_COMBAT and S["engaged"][0] == u:
        got = act(S, tb, A_END)  # (no Combat Phase asked: nothing was offered in it)
    return tb, S, u, got


def _deck(S) -> list[int]:
    return sorted(int(x) for x in S["deck"][0, : int(S["deck_count"][0])])


def t_chemistry():
    """D: Combat Pha. (R55, R117): the Chemist may take an Expendable Item it may equip out of
    the Item Deck (the player picks which: A_PIECE + item) and equips it; the deck is then
    shuffled; its Combat Phase goes on. Not offered when the deck holds no Expendable; a unit
    without the ability has no such action."""
    tb, S, u, got = _deck_unit("Chemistry", None, enemy_at=(5, 6))
    exp = sorted(i for i in _deck(S) if tb.it_type[i] == 2 and fx_may_equip(S, tb, u, i))
    assert A_ABILITY in got and len(exp) >= 2
    before = _deck(S)
    got = act(S, tb, A_ABILITY)
    assert S["stage"][0] == STAGE_EFFECT and sorted(a - A_PIECE for a in got) == exp
    pick = A_PIECE + TABLES.item_index["Elixir"]
    act(S, tb, pick)
    assert S["unit_item"][0, u, 2] == TABLES.item_index["Elixir"]
    assert _deck(S) == [i for i in before if i != TABLES.item_index["Elixir"]]
    got = legal(S, tb)
    assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in got  # once (R55)
    assert A_STRIKE in got  # and its Attack may follow
    assert violations(S, tb, 0) == []
    _, S, _, got = _deck_unit(NEUTRAL, None)
    assert A_ABILITY not in got
    tb, S, u, _ = _deck_unit("Chemistry", None)
    S["deck"][0, :] = -1
    S["deck"][0, 0] = TABLES.item_index["Sword"]  # (a test position: the other cards gone)
    S["deck_count"][0] = 1
    assert A_ABILITY not in legal(S, tb)


def t_alchemy():
    """R: Attack Pro. (R117): the Alchemist swaps an equipped Item for one of the same Type
    from the Item Deck (the player picks it: A_PIECE + item; only Types it holds, Items it may
    equip); its old Item goes into the deck, which is shuffled; no Attack follows. Holding no
    Item it has nothing to swap: not offered."""
    tb, S, u, got = _deck_unit("Alchemy", "Sword")
    assert A_ABILITY in got
    got = act(S, tb, A_ABILITY)
    weapons = sorted(i for i in _deck(S) if tb.it_type[i] == 0 and fx_may_equip(S, tb, u, i))
    assert S["stage"][0] == STAGE_EFFECT and sorted(a - A_PIECE for a in got) == weapons
    before = _deck(S)
    axe = TABLES.item_index["Axe"]
    act(S, tb, A_PIECE + axe)
    assert S["unit_item"][0, u, 0] == axe and S["unit_item"][0, u, 1] == -1
    assert _deck(S) == sorted([i for i in before if i != axe] + [TABLES.item_index["Sword"]])
    assert S["stage"][0] != STAGE_COMBAT  # it replaced the Attack: the Combat Phase is over
    assert violations(S, tb, 0) == []
    _, S, _, got = _deck_unit("Alchemy", None)
    assert A_ABILITY not in got


def fx_may_equip(S, tb, u: int, i: int) -> bool:
    from envs.tactics_david.items import may_equip

    return bool(may_equip(S, tb, B0, I(u), I(i)))


# --- branch tdabB: terrain and movement abilities --------------------------------------------


def t_manuever():
    """Its passed charge may end on any space reachable by an orthogonal path within the
    charge's distance, not only on its straight line (R114), and another Facing Procedure
    follows the charge; a unit without it stops only on its line."""
    tb = record()
    seen = 0
    for seed in SEEDS[:12]:
        rows = {}
        for name in (HOLDER["Manuever"], NEUTRAL):
            S = position(tb, seed=seed)
            u = unit(S, tb, 0, name, 5, 1, E)
            unit(S, tb, 1, NEUTRAL, 0, 13, S_)
            engage(S, tb, u)
            got = act(S, tb, A_CHARGE)
            if S["stage"][0] != STAGE_CHARGE_DIST:
                break  # stumbled (the same dice for both)
            cols = int(tb.bf_cols[0])
            rows[name] = {(a - A_CELL) // cols for a in got if a != A_END}
            if name == NEUTRAL:
                assert rows[name] == {5}
                continue
            assert rows[name] - {5}, seed  # off its line
            off = next(a for a in got if a != A_END and (a - A_CELL) // cols != 5)
            got = act(S, tb, off)
            assert S["unit_cell"][0, u] == off - A_CELL
            assert S["stage"][0] == STAGE_MOVE and A_FACE + N in got  # another Facing
            seen += 1
    assert seen > 0  # some charges passed


def t_forager():
    """Forest does not change its movement (R115): on Forest its Movement Rating keeps the -1
    off and gains +1 (Engaged there), Forest is no Slow terrain for it and it may charge from
    it; a unit without the ability on the same Forest has its rating - 1, halved by Slow, and
    may not charge. On Field the Boar has its plain 3."""
    tb = record()
    for c in range(int(tb.bf_cols[0])):
        paint(tb, 5, c, "Forest")
    m = int(tb.u_move[UNIT_IX[NEUTRAL]]) - 1
    for name, rating, far, charge in (
        (HOLDER["Forager"], 4, (5, 6), True),
        (NEUTRAL, m, (5, 2 + m // 2), False),
    ):
        S = position(tb, seed=1)
        u = unit(S, tb, 0, name, 5, 2, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        got = engage(S, tb, u)
        assert movement_rating(S, tb, B0, I(u)) == rating, name
        reached = _reach(S, tb, u)
        assert far in reached and (5, far[1] + 1) not in reached, (name, sorted(reached))
        assert (A_CHARGE in got) == charge, name
    S = position(tb, seed=1)
    u = unit(S, tb, 0, HOLDER["Forager"], 7, 2, E)  # on Field
    unit(S, tb, 1, NEUTRAL, 0, 13, S_)
    engage(S, tb, u)
    assert movement_rating(S, tb, B0, I(u)) == 3


ABILITY_TESTS.update(
    {
        "Mucous Trail": t_mucous_trail,
        "Stainy Trail": _status_trail("Stainy Trail", "Blinded"),
        "Icy Trail": _status_trail("Icy Trail", "Frozen"),
        "Stinging Trail": _status_trail("Stinging Trail", "Paralyzed"),
        "Toxic Trail": _status_trail("Toxic Trail", "Poisoned"),
        "Inventory Invention": t_inventory_invention,
        "Manuever": t_manuever,
        "Forager": t_forager,
        "Study": t_study,
        "Chemistry": t_chemistry,
        "Alchemy": t_alchemy,
    }
)

# --- tdabF: forced moves, copying, terrain, control (possess.py, R133-R139) ---


def t_grapple_tentacle():
    """D: Combat Pha. (R55): every unit in play within 3 Grid Spaces, either army's, not yet
    in Direct or Diagonal contact, is pulled next to the Kraken, in the order this Player
    picks, each onto the free contact space closest to it (ties: this Player's choice),
    keeping its facing and leaving its Combat Lock (R133); a unit 4 away, a Dead one and one
    already in contact stay. The order matters: two units south compete for one space."""
    tb = record()
    for x_first in (True, False):
        S = position(tb, seed=1)
        k = holder(S, tb, 0, "Grapple Tentacle", 5, 5, E)
        p1 = unit(S, tb, 1, NEUTRAL, 5, 6, W)  # in contact: stays
        a = unit(S, tb, 1, NEUTRAL, 5, 8, N)  # 3 east
        b = unit(S, tb, 0, NEUTRAL, 2, 5, S_)  # an ally 3 north, Locked with l
        lk = unit(S, tb, 1, NEUTRAL, 1, 5, N)  # 4 away
        S["unit_lock"][0, b], S["unit_lock"][0, lk] = lk, b
        x = unit(S, tb, 1, NEUTRAL, 7, 5, E)  # 2 south
        y = unit(S, tb, 1, NEUTRAL, 8, 5, W)  # 3 south
        c = unit(S, tb, 1, NEUTRAL, 7, 7, N)  # 4 away
        dead = unit(S, tb, 1, NEUTRAL, 5, 3, E)
        kill(S, tb, B0, I(dead), I(0))
        facing = S["unit_facing"][0].copy()
        assert A_ABILITY in _combat(S, tb, k)
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
        assert sorted(got) == sorted(A_CELL + int(S["unit_cell"][0, v]) for v in (a, b, x, y))
        if x_first:
            assert act(S, tb, A_CELL + cell(tb, 7, 5)) == [A_CELL + cell(tb, 6, 5)]
            act(S, tb, A_CELL + cell(tb, 6, 5))
            got = act(S, tb, A_CELL + cell(tb, 8, 5))  # y: a tie now
            assert sorted(got) == [A_CELL + cell(tb, 6, 4), A_CELL + cell(tb, 6, 6)]
            act(S, tb, A_CELL + cell(tb, 6, 4))
            got = act(S, tb, A_CELL + cell(tb, 5, 8))  # a: a tie
            assert sorted(got) == [A_CELL + cell(tb, 4, 6), A_CELL + cell(tb, 6, 6)]
            act(S, tb, A_CELL + cell(tb, 4, 6))
            want = {x: (6, 5), y: (6, 4), a: (4, 6)}
        else:
            assert act(S, tb, A_CELL + cell(tb, 8, 5)) == [A_CELL + cell(tb, 6, 5)]
            act(S, tb, A_CELL + cell(tb, 6, 5))
            got = act(S, tb, A_CELL + cell(tb, 7, 5))  # x: a tie now
            assert sorted(got) == [A_CELL + cell(tb, 6, 4), A_CELL + cell(tb, 6, 6)]
            act(S, tb, A_CELL + cell(tb, 6, 6))
            assert act(S, tb, A_CELL + cell(tb, 5, 8)) == [A_CELL + cell(tb, 4, 6)]
            act(S, tb, A_CELL + cell(tb, 4, 6))
            want = {y: (6, 5), x: (6, 6), a: (4, 6)}
        assert act(S, tb, A_CELL + cell(tb, 2, 5)) == [A_CELL + cell(tb, 4, 5)]
        act(S, tb, A_CELL + cell(tb, 4, 5))  # the last one: the Combat Phase goes on
        want.update({b: (4, 5), p1: (5, 6), lk: (1, 5), c: (7, 7), dead: (5, 3)})
        for v, (r, col) in want.items():
            assert S["unit_cell"][0, v] == cell(tb, r, col) and _on(S, tb, r, col) == v, v
        assert (S["unit_facing"][0] == facing).all()
        assert S["unit_lock"][0, b] == -1 and S["unit_lock"][0, lk] == -1
        assert S["stage"][0] == STAGE_COMBAT and A_STRIKE in legal(S, tb)
        assert A_ABILITY not in legal(S, tb)  # once per Engagement (R55)
        assert violations(S, tb, 0) == []


def t_learn():
    """A: Unit Engagement: on its Engagement the Probe's player may pick a unit in its Range
    Area (not one behind it or out of range; A_END: none); the Probe then has that unit's
    ability until the end of this Player's Turn (R134). Copying Reckless lets the Ranged
    Probe fire after moving (TD-14.2 forbids it otherwise); declining leaves it unable to;
    at the end of the Turn the copy ends."""
    tb = record()
    for take in (True, False):
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Learn", 5, 2, E)
        foe = holder(S, tb, 1, "Reckless", 5, 5, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, W)  # out of its Range Area
        unit(S, tb, 0, NEUTRAL, 5, 0, E)  # behind it
        got = engage(S, tb, u)
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 0
        assert sorted(got) == sorted([A_CELL + cell(tb, 5, 5), A_END])
        act(S, tb, A_CELL + cell(tb, 5, 5) if take else A_END)
        assert S["stage"][0] == STAGE_MOVE
        assert int(S["unit_ab_copy"][0, u]) == (UNIT_IX[HOLDER["Reckless"]] if take else -1)
        assert has_permission(S, tb, B0, I(u), I(PERM_ATTACK_AFTER_MOVE)) == take
        act(S, tb, A_CELL + cell(tb, 4, 2))  # a Movement Procedure
        got = act(S, tb, A_END)
        if take:  # it may shoot the Reckless unit though it moved
            assert S["stage"][0] == STAGE_COMBAT and A_CELL + cell(tb, 5, 5) in got
        else:  # nothing left to do: its Combat Phase ended by itself
            assert S["stage"][0] == STAGE_ENGAGE
        while S["stage"][0] != STAGE_ENGAGE:
            act(S, tb, A_END)
        assert S["current"][0] == 0
        act(S, tb, A_END)  # the Turn ends: so does the copy
        assert int(S["unit_ab_copy"][0, u]) == -1
        assert not has_permission(S, tb, B0, I(u), I(PERM_ATTACK_AFTER_MOVE))
        assert has_permission(S, tb, B0, I(foe), I(PERM_ATTACK_AFTER_MOVE))  # its own
        assert violations(S, tb, 0) == []
    for take in (True, False):  # a copied "R: Attack Pro." ability is offered in its place
        S = position(tb, seed=1)
        u = holder(S, tb, 0, "Learn", 5, 2, E)
        holder(S, tb, 1, "Venom", 5, 5, W)
        engage(S, tb, u)
        act(S, tb, A_CELL + cell(tb, 5, 5) if take else A_END)
        assert (A_ABILITY in act(S, tb, A_END)) == take


def t_shed():
    """D: Escape Pro.: the Snake wins its Escape automatically (from a Heavy unit it would
    mostly lose to), then its player may leave a Marker on the space it escaped from (R135):
    the enemy stays Locked in Combat with the Marker (its player must Engage it before the
    Turn may end; no movement but an Escape), its Escape from the Marker wins at once, and
    its Attack on the Marker removes it. Declined: the enemy is free."""
    tb = record()
    for seed in SEEDS[:6]:
        leave = seed % 3 != 0
        S = position(tb, seed=seed, turn=2)
        u = holder(S, tb, 0, "Shed", 5, 5, E)
        e = unit(S, tb, 1, HOLDER["Holy Might"], 5, 6, W)
        S["unit_lock"][0, u], S["unit_lock"][0, e] = e, u
        S["unit_lock_turn"][0, u] = S["unit_lock_turn"][0, e] = 1
        unit(S, tb, 1, NEUTRAL, 0, 13, W)
        assert sorted(engage(S, tb, u)) == sorted([A_ESCAPE, A_END])
        got = act(S, tb, A_ESCAPE)
        assert not has(S, u, "Dead") and S["unit_lock"][0, u] == -1
        assert S["stage"][0] == STAGE_EFFECT and sorted(got) == sorted([A_ABILITY, A_END])
        act(S, tb, A_ABILITY if leave else A_END)
        assert S["stage"][0] == STAGE_MOVE
        assert S["unit_lock"][0, e] == (LOCK_MARKER if leave else -1)
        assert S["unit_shed_cell"][0, e] == (cell(tb, 5, 5) if leave else -1)
        act(S, tb, A_CELL + cell(tb, 3, 5))  # its Movement Phase goes on
        while S["stage"][0] != STAGE_ENGAGE:
            act(S, tb, A_END)
        if S["current"][0] == 0:
            act(S, tb, A_END)  # seat 1's Turn
        assert S["current"][0] == 1 and S["stage"][0] == STAGE_ENGAGE
        assert (A_END in legal(S, tb)) == (not leave)  # Locked: it must be Engaged first
        if leave:
            moves = engage(S, tb, e)
            assert sorted(moves) == sorted([A_ESCAPE, A_END])  # Locked: no movement
            if seed % 2:  # an Escape from the Marker wins at once
                act(S, tb, A_ESCAPE)
                assert S["stage"][0] == STAGE_MOVE and not has(S, e, "Dead")
                assert A_CELL + cell(tb, 5, 8) in legal(S, tb)  # free to move on
            else:  # its Attack on the Marker removes it
                assert A_STRIKE in act(S, tb, A_END)
                act(S, tb, A_STRIKE)
            assert S["unit_lock"][0, e] == -1 and S["unit_shed_cell"][0, e] == -1
        assert violations(S, tb, 0) == []


ABILITY_TESTS.update({"Grapple Tentacle": t_grapple_tentacle, "Learn": t_learn, "Shed": t_shed})

# --- tdabD: statuses and death inside procedures (guard.py) ----------------------------------


def t_unwavering():
    """Unwavering never acquires Fearful. An ally within 3 spaces that is acquiring Fearful
    (here from a Feared enemy in contact at the end of seat 0's Turn) is asked first, of its
    own player, at the next hand-off (STAGE_PAUSE: A_ABILITY rolls 1 D6, A_END does not):
    on 3 or more it does not acquire Fearful, so nothing of Fearful happens (its Enraged stays);
    otherwise, or without the roll, it acquires Fearful, which discards Enraged (R104). An ally
    4 spaces away acquires Fearful at once; then seat 1's Turn goes on."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed, current=0)
        uw = holder(S, tb, 0, "Unwavering", 5, 5, E)
        near = unit(S, tb, 0, NEUTRAL, 5, 8, E)  # 3 spaces from the Unwavering unit
        far = unit(S, tb, 0, NEUTRAL, 9, 5, E)  # 4 spaces
        for r, c in ((5, 4), (5, 9), (9, 6)):  # a Feared enemy touching each
            f = unit(S, tb, 1, NEUTRAL, r, c, W)
            assert apply_status(S, tb, B0, I(f), I(ST["Feared"]), I(-1))
        assert apply_status(S, tb, B0, I(near), I(ST["Enraged"]), I(-1))
        got = act(S, tb, A_END)  # seat 0 ends its Turn: Feared frightens
        assert not has(S, uw, "Fearful") and has(S, far, "Fearful")
        assert S["stage"][0] == STAGE_PAUSE and S["current"][0] == 0, seed
        assert got == [A_ABILITY, A_END]
        assert not has(S, near, "Fearful") and has(S, near, "Enraged")  # nothing yet
        (r,) = peek(S, 6)
        roll = seed % 2 == 1
        act(S, tb, A_ABILITY if roll else A_END)
        kept = roll and r >= 3
        if roll:
            seen.add(kept)
        assert has(S, near, "Fearful") == (not kept), (seed, r)
        assert has(S, near, "Enraged") == kept, (seed, r)
        assert S["stage"][0] == STAGE_ENGAGE and S["current"][0] == 1
        assert S["gd_fear"][0].sum() == 0
    both_ways(seen)


def _guarded(tb, seed: int, g_at=(5, 8), g_has=()):
    """Seat 0's strong attacker on (5,5) strikes seat 1's Rogue on (5,6) (it surely loses);
    seat 1's Guard unit stands on g_at holding the Statuses g_has. The legal actions after."""
    S = position(tb, seed=seed)
    a = unit(S, tb, 0, NEUTRAL, 5, 5, E)
    S["unit_strength"][0, a] = 60
    d = unit(S, tb, 1, NEUTRAL, 5, 6, W)
    g = holder(S, tb, 1, "Guard", g_at[0], g_at[1], W)
    for name in g_has:
        assert apply_status(S, tb, B0, I(g), I(ST[name]), I(-1))
    engage(S, tb, a)
    act(S, tb, A_END)
    return S, a, d, g, act(S, tb, A_STRIKE)


def t_guard():
    """A unit that lost its Defend and would acquire the Dead Status, with an allied Guard
    unit within 2 spaces, is asked before it dies (STAGE_PAUSE, of its own player, seat 1):
    the Guard unit acquires Paralyzed or Frozen instead (the defender lives, not Dead), or
    A_END: it dies. Only the Statuses the Guard unit can still acquire are offered; none (it
    holds both), or 3 spaces away: not asked, the defender dies (R105)."""
    tb = record()
    par, fro = A_STATUS + ST["Paralyzed"], A_STATUS + ST["Frozen"]
    for seed in SEEDS[:9]:
        S, a, d, g, got = _guarded(tb, seed)
        assert _paused(S, 1) and got == [par, fro, A_END], got
        assert not has(S, d, "Dead")
        choice = (A_END, par, fro)[seed % 3]
        act(S, tb, choice)  # the attack goes on (seat 0 then ends its Turn: nothing left)
        assert S["stage"][0] != STAGE_PAUSE and S["unit_place"][0, d] == PLACE_FIELD
        assert has(S, d, "Dead") == (choice == A_END)
        assert has(S, g, "Paralyzed") == (choice == par)
        assert has(S, g, "Frozen") == (choice == fro)
    S, a, d, g, got = _guarded(tb, 1, g_has=("Frozen",))
    assert _paused(S, 1) and got == [par, A_END]
    for g_at, g_has in (((5, 8), ("Paralyzed", "Frozen")), ((5, 9), ())):
        S, a, d, g, got = _guarded(tb, 1, g_at, g_has)
        assert not _paused(S, 1) and has(S, d, "Dead")
    # a Swarm stack would lose a member, not acquire the Dead Status: Guard is not offered
    S = position(tb, seed=1)
    a = unit(S, tb, 0, NEUTRAL, 5, 5, E)
    S["unit_strength"][0, a] = 60
    d = unit(S, tb, 1, "Soldier", 5, 6, W)  # Swarm
    S["unit_member"][0, d, 1] = UNIT_IX["Soldier"]
    S["unit_n_members"][0, d] = 2
    holder(S, tb, 1, "Guard", 5, 8, W)
    engage(S, tb, a)
    act(S, tb, A_END)
    act(S, tb, A_STRIKE)
    assert not _paused(S, 1) and S["unit_n_members"][0, d] == 1 and not has(S, d, "Dead")


def t_soothe():
    """The White Mage targets a unit in its Range Area in Line of Sight (here an enemy): on 3
    or more the target's player (seat 1) picks which of its Statuses' effects it ignores this
    Player's Turn (A_STATUS + s, one at a time; A_END stops; Dead never offered), then the
    Combat Phase goes on. Ignoring Frozen gives back its full Movement Rating and its
    charges while it still holds Frozen; Pumped, not picked, still adds 1. The next Player's
    Turn Frozen acts again. On 1 or 2 nothing is asked (R106)."""
    tb = record()
    seen = set()
    frozen, pumped = A_STATUS + ST["Frozen"], A_STATUS + ST["Pumped"]
    for seed in SEEDS[:12]:
        S = position(tb, seed=seed)
        m = holder(S, tb, 0, "Soothe", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 8, W)
        plain = int(combat_strength(S, tb, B0, I(t), I(0), I(PROC_ATTACK)))
        for name in ("Frozen", "Pumped"):
            assert apply_status(S, tb, B0, I(t), I(ST[name]), I(-1))
        assert movement_rating(S, tb, B0, I(t)) == 2 and not may_charge(S, tb, B0, I(t))
        (r,) = peek(S, 6)
        got = _to_ability(S, tb, m, cell(tb, 5, 8))
        seen.add(r >= 3)
        if r < 3:
            assert S["stage"][0] == STAGE_COMBAT and S["current"][0] == 0
            assert S["gd_ignore"][0, t] == 0
            continue
        assert S["stage"][0] == STAGE_EFFECT and S["current"][0] == 1
        assert got == sorted([frozen, pumped]) + [A_END]
        assert act(S, tb, frozen) == [pumped, A_END]
        act(S, tb, A_END)
        assert S["stage"][0] == STAGE_COMBAT and S["current"][0] == 0
        assert has(S, t, "Frozen") and has(S, t, "Pumped")  # held, Frozen's effect ignored
        m = int(tb.u_move[UNIT_IX[NEUTRAL]])  # its own rating
        assert movement_rating(S, tb, B0, I(t)) == m and may_charge(S, tb, B0, I(t))
        assert int(combat_strength(S, tb, B0, I(t), I(0), I(PROC_ATTACK))) == plain + 1
        begin_turn(S, tb, B0, I(1))
        assert movement_rating(S, tb, B0, I(t)) == m // 2
    both_ways(seen)


def t_pierce():
    """The Crossbowman's Ranged Attack kills the target on (5,3): the unit behind it (5,4), in
    the attacker's facing direction, defends against another Attack Procedure and dies too
    (both Strengths are hopeless); the unit behind that (5,5) does not: once per attack
    (R11, R107). A Ranged unit without Pierce kills the target only."""
    tb = record()
    hits = 0
    for shooter in (HOLDER["Pierce"], "Hunter"):
        for seed in SEEDS[:8]:
            S = position(tb, seed=seed)
            u = unit(S, tb, 0, shooter, 5, 0, E)
            S["unit_strength"][0, u] = 60
            t, b1, b2 = (unit(S, tb, 1, NEUTRAL, 5, c, W) for c in (3, 4, 5))
            unit(S, tb, 1, NEUTRAL, 0, 13, S_)
            engage(S, tb, u)
            act(S, tb, A_END)
            act(S, tb, A_CELL + cell(tb, 5, 3))
            if not has(S, t, "Dead"):
                continue  # the Ranged Hit missed
            hits += 1
            assert has(S, b1, "Dead") == (shooter == HOLDER["Pierce"]), (shooter, seed)
            assert not has(S, b2, "Dead")
    assert hits >= 4


def t_incineration():
    """After the Dragonfly's Attack the attacked unit rolls nothing, the Dragonfly rolls 1 D6:
    4, 5, 6 and the attacked unit must discard 1, 2, 3 Items; its own player (seat 1) picks
    which, one at a time, at the next hand-off (STAGE_PAUSE, A_SIDE + slot, no A_END), and
    each goes to the bottom of the Item Deck; holding no more Items than that, it discards
    them all unasked; 1 to 3 nothing (R108). A real Attack gives the same question."""
    tb = record()
    names = TABLES.item_names
    items = [next(i for i in range(len(names)) if TABLES.item_type[i] == k) for k in range(3)]
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        f = holder(S, tb, 0, "Incineration", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 6, W)
        S["unit_item"][0, t, :3] = items
        set_procedure(S, f, t)
        (r,) = peek(S, 6)
        hook(S, tb, H_AFTER_ATTACK, f, t)
        n = {4: 1, 5: 2, 6: 3}.get(r, 0)
        seen.add(n)
        assert S["gd_disc"][0, t] == n
        got = engage(S, tb, f)
        for k in range(n if n < 3 else 0):
            held = [slot for slot in range(3) if S["unit_item"][0, t, slot] >= 0]
            assert S["stage"][0] == STAGE_PAUSE and S["current"][0] == 1
            assert got == [A_SIDE + slot for slot in held]
            slot = held[(seed + k) % len(held)]
            item = int(S["unit_item"][0, t, slot])
            got = act(S, tb, A_SIDE + slot)
            assert S["unit_item"][0, t, slot] == -1 and S["deck"][0, 0] == item
        left = int((S["unit_item"][0, t] >= 0).sum())
        assert left == 3 - n and S["gd_disc"][0, t] == 0
        assert S["stage"][0] == STAGE_MOVE and S["current"][0] == 0 and S["engaged"][0] == f
    assert seen == {0, 1, 2, 3}
    asked = 0
    for seed in SEEDS[:16]:
        S = position(tb, seed=seed)
        f = holder(S, tb, 0, "Incineration", 5, 5, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 6, W)
        S["unit_strength"][0, t] = 60  # it survives the Attack
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        S["unit_item"][0, t, :3] = items
        engage(S, tb, f)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        if S["stage"][0] == STAGE_PAUSE and S["current"][0] == 1:
            asked += 1
            assert not has(S, t, "Dead") and S["gd_disc"][0, t] in (1, 2)
    assert asked > 0


# --- branch tdabE: attacks and Ranged Hits made by an ability (ability_attacks.py) ---------


def t_voodoo_doll():
    """Voodoo Doll (R119): the Priest picks a unit in its Range Area; on a 5+ that unit
    defends against an Attack whose Base Strength is its own Front Strength Rating, with its
    Front (a Rogue with its back turned: still its Front 2 against 2, never the Priest's
    3): the contest is combat.contest's, Duels included (the same dice on a copy give the same
    outcome); on 1-4 nothing happens. The Combat Phase goes on, the ability used."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Voodoo Doll", 5, 2, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, E)  # its back to the Priest
        unit(S, tb, 1, NEUTRAL, 6, 5, W)  # a target for its Ranged Attack still to come
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)  # the game goes on whatever happens
        assert A_ABILITY in _combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT and A_CELL + cell(tb, 5, 4) in got
        r = peek(S, 6)[0]
        copy = S.copy()
        roll_d(copy["rng"], B0, I(6))  # the ability's roll
        copy["fx_res"][0] = RES_FRONT
        begin_procedure(copy, tb, B0, I(u), I(t), I(0))
        assert sides_and_strengths(copy, tb, B0, I(u), I(t), I(0), False) == (2, 2)
        assert not copy["fx_res"][0] & RES_BACK  # against its Front, not its back
        att, dfn, cannot_die = contest(copy, tb, B0, I(u), I(t), I(0), False, False)
        killed = r >= 5 and att > dfn and not cannot_die
        after = act(S, tb, A_CELL + cell(tb, 5, 4))
        assert has(S, t, "Dead") == killed, (seed, r, att, dfn)
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after
        assert S["aa_unit"][0] == -1 and S["aa_cell"][0] == -1 and S["fx_res"][0] == 0
        seen.add((r >= 5, killed))
    assert seen >= {(False, False), (True, True), (True, False)}, seen
    # a pause inside its Attack (R72): the Lucky Priest's player keeps the result (A_END);
    # the Attack on that one space finishes and the Combat Phase goes on
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Voodoo Doll", 5, 2, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, E)
        unit(S, tb, 1, NEUTRAL, 6, 5, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        S["unit_status"][0, u, ST["Lucky"]] = STATUS_PERMANENT
        _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        if peek(S, 6)[0] < 5:
            continue
        got = act(S, tb, A_CELL + cell(tb, 5, 4))
        assert S["stage"][0] == STAGE_PAUSE and S["aa_cell"][0] == cell(tb, 5, 4), seed
        att, dfn = int(S["pz_att"][0]), int(S["pz_dfn"][0])
        after = act(S, tb, A_END)
        assert has(S, t, "Dead") == (att > dfn)
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after
        assert S["aa_cell"][0] == -1 and S["fx_res"][0] == 0
        break
    else:
        raise AssertionError("no seed rolled 5+")


def t_chant():
    """Chant (R118): the player picks allies within 5 spaces that hold a Status (not the
    enemy, not one 7 spaces away, not one with no Status), one Status each, up to three;
    then a Ranged Hit with Range Modifier -2 (its D6s - 2) is made on each against its
    distance in grid spaces, and a hit discards that Status. The Combat Phase goes on."""
    tb = record()
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Chant", 5, 2, E)
        a1 = unit(S, tb, 0, NEUTRAL, 5, 5, W)  # 3 spaces
        a2 = unit(S, tb, 0, NEUTRAL, 2, 0, E)  # 5 spaces, behind it
        far = unit(S, tb, 0, NEUTRAL, 5, 9, W)  # 7 spaces
        bare = unit(S, tb, 0, NEUTRAL, 6, 2, E)  # no Status
        foe = unit(S, tb, 1, NEUTRAL, 5, 3, W)  # in contact: its Attack is still to come
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        for v, names in ((a1, ("Poisoned", "Frozen")), (a2, ("Blinded",)), (far, ("Poisoned",))):
            for name in names:
                S["unit_status"][0, v, ST[name]] = STATUS_PERMANENT
        S["unit_status"][0, foe, ST["Poisoned"]] = STATUS_PERMANENT
        assert A_ABILITY in _combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert S["stage"][0] == STAGE_EFFECT
        assert sorted(got) == sorted([A_CELL + cell(tb, 5, 5), A_CELL + cell(tb, 2, 0), A_END])
        got = act(S, tb, A_CELL + cell(tb, 5, 5))
        assert sorted(got) == [A_STATUS + ST["Poisoned"], A_STATUS + ST["Frozen"]]
        got = act(S, tb, A_STATUS + ST["Poisoned"])
        assert got == [A_CELL + cell(tb, 2, 0), A_END]
        act(S, tb, A_CELL + cell(tb, 2, 0))
        n = int(tb.ranged_hit_dice)
        dice = peek(S, *([6] * (2 * n)))
        h1 = max(sum(dice[:n]) - 2, int(tb.ranged_hit_min))
        h2 = max(sum(dice[n:]) - 2, int(tb.ranged_hit_min))
        # no other ally to pick: only A_END is left, applied at once (a forced decision)
        after = act(S, tb, A_STATUS + ST["Blinded"])
        assert has(S, a1, "Poisoned") == (h1 < 3) and has(S, a1, "Frozen")
        assert has(S, a2, "Blinded") == (h2 < 5)
        assert (
            has(S, far, "Poisoned")
            and has(S, foe, "Poisoned")
            and not S["unit_status"][0, bare].any()
        )
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after
        seen.add((h1 >= 3, h2 >= 5))
    assert {x[0] for x in seen} == {x[1] for x in seen} == {True, False}, seen


def t_autofire():
    """Autofire (R120): an enemy ending its Movement Phase in the Sentry's Range Area (here
    only when the Sentry faces west, its back-left facing north) is attacked at once in the
    mover's Turn: the Sentry turns to that facing and makes a Ranged Attack (Ranged Hit 2 D6
    + 1 against Rise + Run 3, then front 3 + D6 against the Rogue's front 2 + D6). It may
    not start a Duel: an attack die of 6 is out of the defence's reach, and it kills without a
    Duel. An ally ending there, or an enemy ending out of range, is not attacked."""
    tb = record()
    n = int(tb.ranged_hit_dice)
    seen = set()
    for seed in SEEDS:
        S = position(tb, seed=seed)
        sentry = holder(S, tb, 1, "Autofire", 5, 6, N)
        m = unit(S, tb, 0, NEUTRAL, 5, 1, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        engage(S, tb, m)
        act(S, tb, A_CELL + cell(tb, 5, 3))
        atype, dtype = matchup_types(S, tb, B0, I(sentry), I(m), False)
        assert defence_dice(tb, atype, dtype, I(tb.bf_terrain[0, cell(tb, 5, 3)]))[:3] == (6, 0, 0)
        assert int(tb.attack_dice) == 1 and int(tb.defend_dice) == 1
        dice = peek(S, *([6] * n), 6, 6)
        hit = max(sum(dice[:n]) + 1, int(tb.ranged_hit_min)) >= 3
        a, d = dice[n], dice[n + 1]
        killed = hit and 3 + a > 2 + d
        act(S, tb, A_END)  # the Movement Phase ends
        assert S["unit_facing"][0, sentry] == W, seed
        assert has(S, m, "Dead") == killed, (seed, dice)
        assert S["aa_fire"][0] == -1 and S["aa_fired"][0] == 0 and S["fx_res"][0] == 0
        assert S["stage"][0] != STAGE_PAUSE  # no pause asked: the mover's Turn goes on
        seen.add((killed, a == 6))
    assert seen >= {(True, True), (True, False), (False, False)}, seen
    # a Lucky mover: its own player (the one whose Turn it is) is asked about the reroll,
    # inside the Sentry's Attack; the answer finishes it and the Turn goes on
    for seed in SEEDS:
        S = position(tb, seed=seed)
        holder(S, tb, 1, "Autofire", 5, 6, N)
        m = unit(S, tb, 0, NEUTRAL, 5, 1, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        S["unit_status"][0, m, ST["Lucky"]] = STATUS_PERMANENT
        engage(S, tb, m)
        act(S, tb, A_CELL + cell(tb, 5, 3))
        act(S, tb, A_END)
        if S["stage"][0] != STAGE_PAUSE:
            continue  # the Ranged Hit missed
        assert S["current"][0] == 0 and S["aa_fire"][0] >= 0, seed
        killed = int(S["pz_att"][0]) > int(S["pz_dfn"][0])
        act(S, tb, A_END)  # keep the results
        assert has(S, m, "Dead") == killed and S["aa_fire"][0] == -1 and S["fx_res"][0] == 0
        assert S["stage"][0] != STAGE_PAUSE and S["aa_fired"][0] == 0
        break
    else:
        raise AssertionError("no Ranged Hit hit")
    # an ally of the Sentry ending there (the Sentry's own Turn), or an enemy out of range
    for p, to in ((1, (5, 3)), (0, (5, 1))):
        S = position(tb, seed=1, current=p)
        sentry = holder(S, tb, 1, "Autofire", 5, 6, N)
        m = unit(S, tb, p, NEUTRAL, 5, 0 if to == (5, 1) else 1, E)
        unit(S, tb, 1 - p, NEUTRAL, 0, 13, S_)
        engage(S, tb, m)
        act(S, tb, A_CELL + cell(tb, *to))
        before = S["rng"].copy()
        act(S, tb, A_END)
        assert S["unit_facing"][0, sentry] == N and not has(S, m, "Dead"), p
        assert (S["rng"] == before).all()  # no die rolled: no Ranged Hit made


def _take_from_deck(S, i: int) -> None:
    """Take Item card i out of game 0's Item Deck (so a test may equip it)."""
    n = int(S["deck_count"][0])
    k = [int(x) for x in S["deck"][0, :n]].index(i)
    S["deck"][0, k : n - 1] = S["deck"][0, k + 1 : n].copy()
    S["deck"][0, n - 1] = -1
    S["deck_count"][0] = n - 1


def _to_combat(S, tb, u: int) -> list[int]:
    """Engage u and end its Item Phase (if it holds an Item) and Movement Phase at once."""
    got = engage(S, tb, u)
    while S["stage"][0] != STAGE_COMBAT:
        got = act(S, tb, A_END)
    return got


def t_lob():
    """Lob (R121): offered with an equipped Item and a unit in its Range Area in Line of
    Sight; the player picks the target (not the unit outside it), then one of the three
    equipped Items, which goes to the bottom of the Item Deck; the target acquires Paralyzed
    (Expendable), Confused (Accessory) or Dead (Weapon) and nothing else; the other Items
    stay; the Combat Phase goes on. With no Item it is not offered."""
    tb = record()
    kinds = {"Weapon": "Dead", "Accessory": "Confused", "Expendable": "Paralyzed"}
    for t, (kind, status) in enumerate(kinds.items()):
        S = position(tb, seed=3)
        u = holder(S, tb, 0, "Lob", 5, 2, E)
        v = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        unit(S, tb, 1, NEUTRAL, 5, 0, E)  # behind it: not in its Range Area
        unit(S, tb, 1, NEUTRAL, 6, 5, W)  # the game goes on, a target for its Attack
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        held = {}
        for slot in range(3):
            i = next(int(x) for x in S["deck"][0, : S["deck_count"][0]] if tb.it_type[x] == slot)
            _take_from_deck(S, i)
            S["unit_item"][0, u, slot] = i
            held[slot] = i
        assert [int(TABLES.item_type[i]) for i in held.values()] == [0, 1, 2]
        assert list(kinds) == list(ut.ITEM_TYPES)  # the slot order
        assert A_ABILITY in _to_combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert A_CELL + cell(tb, 5, 4) in got and A_CELL + cell(tb, 5, 0) not in got
        got = act(S, tb, A_CELL + cell(tb, 5, 4))
        assert sorted(got) == sorted(A_PIECE + i for i in held.values())
        n = int(S["deck_count"][0])
        after = act(S, tb, A_PIECE + held[t])
        assert int(S["deck_count"][0]) == n + 1 and int(S["deck"][0, 0]) == held[t], kind
        assert [int(S["unit_item"][0, u, k]) for k in range(3)] == [
            -1 if k == t else held[k] for k in range(3)
        ]
        for name in kinds.values():
            assert has(S, v, name) == (name == status), (kind, name)
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in after
        assert S["aa_sent"][0] == -1
    S = position(tb, seed=3)
    u = holder(S, tb, 0, "Lob", 5, 2, E)
    unit(S, tb, 1, NEUTRAL, 5, 4, W)
    assert A_ABILITY not in _combat(S, tb, u)  # no Item to send


def t_steal():
    """Steal (R122): a Loot Procedure in the Combat Phase on a unit in direct contact, alive
    or Dead, of either side, holding an Item (not one two spaces away, not one with no Item):
    each Item is looted on a D6 of 2+ (the plain Loot needs 3+), equipped at once into a free
    slot; a full slot asks STAGE_LOOT (here A_END: the Item goes to the Item Deck's bottom);
    then the Combat Phase goes on."""
    tb = record()
    seen = set()
    for seed in SEEDS[:30]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Steal", 5, 2, E)
        v = unit(S, tb, 1, NEUTRAL, 5, 3, W)  # in contact, alive
        far = unit(S, tb, 1, NEUTRAL, 5, 4, W)  # two spaces away
        unit(S, tb, 0, NEUTRAL, 4, 2, E)  # in contact, no Item
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        held = []
        for slot in range(3):
            i = next(
                int(x)
                for x in S["deck"][0, : S["deck_count"][0]]
                if tb.it_type[x] == slot and may_equip(S, tb, B0, I(u), I(x))
            )
            _take_from_deck(S, i)
            S["unit_item"][0, v, slot] = i
            held.append(i)
        mine = next(  # the Thief's own Weapon: a full slot
            int(x)
            for x in S["deck"][0, : S["deck_count"][0]]
            if tb.it_type[x] == 0 and may_equip(S, tb, B0, I(u), I(x))
        )
        _take_from_deck(S, mine)
        S["unit_item"][0, u, 0] = mine
        S["unit_item"][0, far, 1] = held[1]  # (a copy, never looted)
        assert A_ABILITY in _to_combat(S, tb, u)
        got = act(S, tb, A_ABILITY)
        assert got == [A_CELL + cell(tb, 5, 3)], got
        rolls = peek(S, 6, 6, 6)
        n = int(S["deck_count"][0])
        got = act(S, tb, A_CELL + cell(tb, 5, 3))
        if rolls[0] >= 2:  # the Weapon slot is full: swap it or send it to the deck
            assert S["stage"][0] == STAGE_LOOT and A_END in got
            got = act(S, tb, A_END)
            assert int(S["deck"][0, 0]) == held[0] and int(S["deck_count"][0]) == n + 1
        assert int(S["unit_item"][0, u, 0]) == mine
        assert int(S["unit_item"][0, v, 0]) == (-1 if rolls[0] >= 2 else held[0])
        for slot in (1, 2):
            ok = rolls[slot] >= 2
            assert int(S["unit_item"][0, u, slot]) == (held[slot] if ok else -1), (seed, rolls)
            assert int(S["unit_item"][0, v, slot]) == (-1 if ok else held[slot])
        assert S["stage"][0] == STAGE_COMBAT and A_ABILITY not in got and S["aa_steal"][0] == 0
        seen.update((r >= 2, r >= 3) for r in rolls)
    assert (True, False) in seen and (False, False) in seen  # a 2 loots (the plain Loot's 3+)


ABILITY_TESTS.update(
    {
        "Unwavering": t_unwavering,
        "Guard": t_guard,
        "Soothe": t_soothe,
        "Pierce": t_pierce,
        "Incineration": t_incineration,
    }
)
ABILITY_TESTS.update(
    {
        "Voodoo Doll": t_voodoo_doll,
        "Chant": t_chant,
        "Autofire": t_autofire,
        "Lob": t_lob,
        "Steal": t_steal,
    }
)


# --- tdabI: control of an enemy unit for a Turn (units.side_of, possess.py, R137-R139) ---
def _mine_on(S, tb, me: int, c: int) -> tuple[bool, bool]:
    """Seat `me`'s observation of space c: (a unit of mine there, a Possessed flag on the
    block of the unit there)."""
    from envs.tactics_david import observe as ob

    out = np.zeros(ob.observation_size(), dtype=np.float32)
    ob.observe(S, tb, B0, I(me), out)
    k = ob.GLOBAL_SIZE + c * ob.CELL_SIZE + 1 + ob.MAX_TERRAINS + 8
    u = int(S["cell_unit"][0, c, 0])
    block = (0 if u // MAX_UNITS == me else MAX_UNITS) + u % MAX_UNITS
    flag = ob.GLOBAL_SIZE + ob.MAX_CELLS * ob.CELL_SIZE + (block + 1) * ob.UNIT_SIZE
    return bool(out[k] == 1.0), bool(out[flag - ob.UNIT_PUBLIC - 1] == 1.0)


def _to_engage(S, tb) -> list[int]:
    """End the Engagement in progress (A_END at each decision): STAGE_ENGAGE's actions."""
    got = legal(S, tb)
    while S["stage"][0] != STAGE_ENGAGE:
        got = act(S, tb, A_END)
    return got


def t_possess():
    """R: Attack Pro.: an enemy in the Range Area and Line of Sight; 4+: it comes under this
    Player's control this Turn (R137): it is an ally now (the observation shows it as this
    Player's, a unit of its own army is an enemy it may Attack: no Combat Lock with it, R138,
    and the kill counts for this Player, R139), this Player Engages it by its space (A_CELL + c)
    once, and after the Turn it is its owner's again (A_UNIT + slot). 3 or less: nothing."""
    from envs.tactics_david.units import side_of

    tb = record()
    seen = set()
    for seed in SEEDS[:24]:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Possess", 5, 0, E)
        t = unit(S, tb, 1, NEUTRAL, 5, 3, E)
        o = unit(S, tb, 1, NEUTRAL, 5, 4, W)  # t's own army, face to face with it
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        w = unit(S, tb, 0, NEUTRAL, 0, 0, S_)  # not Engaged: the Turn does not end by itself
        c = cell(tb, 5, 3)
        assert A_ABILITY in _combat(S, tb, u)
        act(S, tb, A_ABILITY)
        r = peek(S, 6)[0]
        act(S, tb, A_CELL + c)
        got = _to_engage(S, tb)
        assert violations(S, tb, 0) == []
        seen.add(r >= 4)
        if r < 4:
            assert S["unit_ctrl"][0, t] == -1 and side_of(S, B0, I(t)) == 1
            assert A_CELL + c not in got and _mine_on(S, tb, 0, c) == (False, False)
            continue
        assert S["unit_ctrl"][0, t] == 0 and side_of(S, B0, I(t)) == 0
        assert _mine_on(S, tb, 0, c) == (True, True) and _mine_on(S, tb, 1, c) == (False, True)
        assert got == [A_UNIT + w % MAX_UNITS, A_CELL + c, A_END]  # t by its space
        act(S, tb, A_CELL + c)  # this Player Engages it
        assert S["engaged"][0] == t and S["current"][0] == 0
        got = act(S, tb, A_END)  # no Movement Procedure
        assert S["stage"][0] == STAGE_COMBAT and A_STRIKE in got  # its own army's unit
        act(S, tb, A_STRIKE)
        dead = has(S, o, "Dead")
        assert S["kills_turn"][0, 0] == (1 if dead else 0) and S["kills_turn"][0, 1] == 0
        assert S["unit_lock"][0, t] == -1 and S["unit_lock"][0, o] == -1  # no lock (R138)
        got = _to_engage(S, tb)
        assert got == [A_UNIT + w % MAX_UNITS, A_END]  # t once per Turn
        assert violations(S, tb, 0) == []
        while S["current"][0] == 0:  # the Turn ends: Item Acquisition may ask first
            got = act(S, tb, A_END)
        assert S["unit_ctrl"][0, t] == -1 and side_of(S, B0, I(t)) == 1
        assert S["stage"][0] == STAGE_ENGAGE and A_UNIT + t % MAX_UNITS in got
        assert _mine_on(S, tb, 1, c) == (True, False) and _mine_on(S, tb, 0, c) == (False, False)
        assert violations(S, tb, 0) == []
    assert True in seen and False in seen


ABILITY_TESTS["Possess"] = t_possess


# --- tdabH: Floodplains (floodplains.py, R124, R136) ---------------------------------------


def _flood_board():
    """Battlefield 0 blank but for a Water body (5..7, 8) and one Water space (8, 9) touching
    it only diagonally (not connected, R124)."""
    tb = record()
    for r, c in ((5, 8), (6, 8), (7, 8), (8, 9)):
        paint(tb, r, c, terrain="Water")
    return tb


def _flooded(S, tb) -> set[tuple[int, int]]:
    cols = int(tb.bf_cols[0])
    return {(int(c) // cols, int(c) % cols) for c in np.nonzero(S["flood"][0])[0]}


def _refresh(S, tb) -> None:
    refresh_flood(S, tb, B0)


# every space in Direct or Diagonal contact with the body (5..7, 8), less actual Water
_BODY_RING = {(r, c) for r in range(4, 9) for c in range(7, 10)} - {(5, 8), (6, 8), (7, 8), (8, 9)}


def t_floodplains():
    """TD-22.2.131: the Water body the Floodplains unit stands in floods the spaces around it
    (R124); the unit itself counts as occupying Water (R136); the flood follows the unit."""
    tb = _flood_board()
    water, field = TABLES.terrain_index["Water"], TABLES.terrain_index["Field"]
    # the flood: the body joined through Direct contact, not (8, 9) nor past flooded spaces
    S = position(tb)
    holder(S, tb, 1, "Floodplains", 5, 8, W)
    _refresh(S, tb)
    assert _flooded(S, tb) == _BODY_RING
    assert (8, 10) not in _flooded(S, tb) and (9, 10) not in _flooded(S, tb)
    # no flood without the ability (an Aqua unit with another), or off actual Water
    for name, at in (("Merman", (5, 8)), (HOLDER["Floodplains"], (5, 6))):
        S2 = position(tb)
        unit(S2, tb, 1, name, *at, W)
        _refresh(S2, tb)
        assert _flooded(S2, tb) == set(), name
    # a unit moving toward the flood: (4, 7) is Slow Water now (the rest halved, TD-2.14), so
    # (4, 9), 4 steps east over Field without the flood, is out of its reach
    mover = unit(S, tb, 0, NEUTRAL, 4, 5, E)  # Land, Movement Rating 4
    S2 = position(tb)
    dry = unit(S2, tb, 0, NEUTRAL, 4, 5, E)
    assert (4, 9) in _reach(S2, tb, dry)
    assert (4, 9) not in _reach(S, tb, mover) and (4, 8) in _reach(S, tb, mover)
    # the occupant of a flooded space defends with the extra D3 (TD-2.7); same dice otherwise
    seen = set()
    for seed in SEEDS[:15]:
        got = []
        for flood in (True, False):
            S3 = position(tb, seed=seed)
            if flood:
                holder(S3, tb, 1, "Floodplains", 7, 8, W)
            a = unit(S3, tb, 0, "Knight", 5, 6, E)
            d = unit(S3, tb, 1, NEUTRAL, 5, 7, W)
            _refresh(S3, tb)
            _, _, d3 = peek(S3, 6, 6, 3)
            begin_procedure(S3, tb, B0, I(a), I(d), I(PROC_ATTACK))
            att, dfn, _ = contest(S3, tb, B0, I(a), I(d), I(0), False, False)
            got.append((int(dfn), int(S3["fx_res"][0]) & RES_DUEL, d3))
        (f_dfn, f_duel, d3), (n_dfn, n_duel, _) = got
        if not f_duel and not n_duel:
            assert f_dfn - n_dfn == d3, (seed, got)
            seen.add(d3)
    assert seen
    # the Floodplains unit counts as occupying Water on Field: no Aqua -1 off Water (TD-3.8),
    # and it charges onto other terrain as it stays "in Water" (a Merman may not: TD-2.8)
    tb2 = record()
    paint(tb2, 5, 7, terrain="Water")
    for name, rating, passes in ((HOLDER["Floodplains"], 4, True), ("Merman", 3, False)):
        S4 = position(tb2)
        u = unit(S4, tb2, 0, name, 5, 5, E)
        assert movement_rating(S4, tb2, B0, I(u)) == rating, name
        line = np.zeros(64, dtype=np.int64)
        k = int(charge_line(S4, tb2, B0, I(u), line))
        assert (k > 2) == passes and k >= 1, (name, k)  # through (5, 7) onto (5, 8), or stop
    # a flooded Forest is Water: it no longer blocks Line of Sight (TD-2.4, TD-15.7)
    tb3 = record()
    paint(tb3, 5, 5, terrain="Forest")
    paint(tb3, 6, 5, terrain="Water")
    for flood in (False, True):
        S5 = position(tb3)
        if flood:
            holder(S5, tb3, 1, "Floodplains", 6, 5, W)
        _refresh(S5, tb3)
        seen_los = line_of_sight(
            tb3, I(0), S5["flood"][0], I(cell(tb3, 5, 2)), I(E), I(cell(tb3, 5, 8))
        )
        assert bool(seen_los) == flood
    # the observation and the text show the flooded space as Water
    from envs.tactics_david.observe import CELL_SIZE, GLOBAL_SIZE, observation_size, observe
    from envs.tactics_david.view import render_text

    out = np.zeros(observation_size(), dtype=np.float32)
    observe(S, tb, B0, I(0), out)
    i = GLOBAL_SIZE + cell(tb, 4, 7) * CELL_SIZE
    assert out[i + 1 + water] == 1.0 and out[i + 1 + field] == 0.0
    row = next(x for x in render_text(S, TABLES, 0).splitlines() if x.startswith("  4 "))
    assert row.split()[1 + 7] == "~"  # row 4, column 7


def t_floodplains_moves_and_dies():
    """The flood is recomputed when the Floodplains unit moves off or onto actual Water (its
    Movement Procedure, a decision) and when it acquires the Dead Status (R124)."""
    tb = _flood_board()
    S = position(tb, current=1)
    lev = holder(S, tb, 1, "Floodplains", 5, 8, W)
    _refresh(S, tb)
    assert _flooded(S, tb) == _BODY_RING
    engage(S, tb, lev)
    act(S, tb, A_CELL + cell(tb, 5, 5))  # off the Water
    assert _flooded(S, tb) == set()
    S = position(tb, current=1)
    lev = holder(S, tb, 1, "Floodplains", 5, 5, W)
    _refresh(S, tb)
    assert _flooded(S, tb) == set()
    engage(S, tb, lev)
    act(S, tb, A_CELL + cell(tb, 6, 8))  # into the body
    assert _flooded(S, tb) == _BODY_RING
    # Dead: "(Not with Dead Status)": the next decision sees the terrain dry again
    foe = unit(S, tb, 0, NEUTRAL, 1, 1, E)
    kill(S, tb, B0, I(lev), I(0))
    act(S, tb, A_END)
    assert S["unit_status"][0, lev, ST["Dead"]] != 0 and _flooded(S, tb) == set()
    assert foe >= 0


ABILITY_TESTS.update({"Floodplains": lambda: (t_floodplains(), t_floodplains_moves_and_dies())})


# --- branch tdabG: Work Belt (work_belt.py) -------------------------------------------------


def t_work_belt():
    """Work Belt (R109, R123): a second Item of each Type. The Tinkerer and the Rogue (the same
    2/3/3/2 Light Physical Melee unit, no Work Belt) each hold a Sword; the player acquires
    an Axe (5 kills: no roll) for one of them. The Tinkerer holds both: +2 to its Attack
    strengths (each Weapon's +1), the Sword (first slot) keeps the Attack Area MA and the deck
    loses only the Axe; the Rogue's Sword goes to the bottom of the deck (+1, Area MD)."""
    tb = record()
    sword, axe = TABLES.item_index["Sword"], TABLES.item_index["Axe"]
    for name, belt in (("Tinkerer", True), (NEUTRAL, False)):
        S = position(tb, seed=4)
        u = holder(S, tb, 0, "Work Belt", 5, 5, E) if belt else unit(S, tb, 0, name, 5, 5, E)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        base = int(combat_strength(S, tb, B0, I(u), I(0), I(PROC_ATTACK)))
        _take_from_deck(S, sword)
        S["unit_item"][0, u, 0] = sword
        _take_from_deck(S, axe)
        n = int(S["deck_count"][0])
        S["deck"][0, n] = axe  # the Axe on top of the Item Deck
        S["deck_count"][0] = n + 1
        S["kills_turn"][0, 0] = 5
        act(S, tb, A_END)  # end the Turn: Item Acquisition
        assert S["stage"][0] == STAGE_ACQUIRE
        act(S, tb, A_UNIT + u % MAX_UNITS)
        held = sorted(int(i) for i in S["unit_item"][0, u] if i >= 0)
        bonus = int(combat_strength(S, tb, B0, I(u), I(0), I(PROC_ATTACK))) - base
        area = int(unit_area(S, tb, B0, I(u)))
        if belt:
            assert held == sorted([sword, axe]) and bonus == 2 and area == tb.it_area[sword]
            assert int(S["deck_count"][0]) == n
        else:
            assert held == [axe] and bonus == 1 and area == tb.it_area[axe]
            assert int(S["deck_count"][0]) == n + 1 and int(S["deck"][0, 0]) == sword
        assert violations(S, tb) == []


ABILITY_TESTS.update({"Work Belt": t_work_belt})

_ROW = re.compile(r"^\| TD-22\.2\.(\d+) \| [^|]+\| ([^|:]+?): [^|]*\| ([a-z ]+?)(?: \([^)]*\))? \|")


def implemented_in_doc() -> dict[str, str]:
    """Ability name -> status of its TD-22.2.n row in the rules doc (without its R#)."""
    out = {}
    for line in DOC.read_text(encoding="utf-8").splitlines():
        m = _ROW.match(line)
        if m:
            out[m.group(2).strip()] = m.group(3)
    return out


def test_doc_and_checks_agree():
    """Every ability has a TD-22.2.n row; those marked done ("implemented", or "reading
    chosen" with its R#) are exactly those with a check in ABILITY_TESTS."""
    rows = implemented_in_doc()
    assert set(rows) == set(TABLES.units.ability_names)
    marked = {name for name, status in rows.items() if status in ("implemented", "reading chosen")}
    assert marked == set(ABILITY_TESTS)
    assert set(IMPLEMENTED_ABILITIES) == marked  # the kernels run exactly these


def test_defenders_automatic_win_beats_the_attackers():
    """TD-3.14 / R38: when both units' abilities win the procedure automatically, the
    Defending Unit's wins: the attack fails. Parry's row stands for both claims here."""
    tb = record()
    row = int(TABLES.units.effect_offset[TABLES.units.ability_index["Parry"]])
    for seed in SEEDS[:5]:
        S, a, d = _pair(tb, seed, NEUTRAL, NEUTRAL)
        fx.add_active(S, tb, B0, I(row), I(a), I(0), I(UNTIL_PROCEDURE))
        att, dfn, _ = contest(S, tb, B0, I(a), I(d), I(0), False, False)
        assert att > dfn  # the attacker's claim alone wins
        fx.add_active(S, tb, B0, I(row), I(d), I(0), I(UNTIL_PROCEDURE))
        att, dfn, _ = contest(S, tb, B0, I(a), I(d), I(0), False, False)
        assert att < dfn  # both: the defender's


def test_abilities_not_implemented_do_nothing():
    """A `to implement` ability's rows never act, not even the rows the interpreter knows:
    Unwavering's own immunity to Fearful with its ab_active bit cleared, as record.py clears
    it for every ability not in IMPLEMENTED_ABILITIES (tdabD: Unwavering is implemented now,
    so the test clears the bit itself)."""
    tb = record()
    tb.ab_active[TABLES.units.ability_index["Unwavering"]] = 0
    S = position(tb)
    u = holder(S, tb, 0, "Unwavering", 5, 5, E)
    assert apply_status(S, tb, B0, I(u), I(ST["Fearful"]), I(-1))
    assert has(S, u, "Fearful")


@pytest.mark.parametrize("name", sorted(ABILITY_TESTS))
def test_ability(name: str) -> None:
    """The ability works as its text says (TD-22.2.n; one position per ability)."""
    ABILITY_TESTS[name]()


# --- tdabJ: Guard for every death (units.kill waits, guard.ask_question asks; R140) --------


def _guard_answer(S, tb, victim: int, g: int, seat: int, got: list[int], k: int) -> int:
    """The Guard question is asked of `seat` before victim dies (it still lives), offering
    Paralyzed, Frozen and A_END; answer k % 3 (A_END, Paralyzed, Frozen) and check the
    outcome: the victim Dead only on A_END, the Guard unit holding the Status chosen. Returns
    the answer."""
    par, fro = A_STATUS + ST["Paralyzed"], A_STATUS + ST["Frozen"]
    assert _paused(S, seat) and got == [par, fro, A_END], got
    assert not has(S, victim, "Dead") and S["gd_die"][0, victim] != 0
    choice = (A_END, par, fro)[k % 3]
    act(S, tb, choice)
    assert S["stage"][0] != STAGE_PAUSE and S["gd_die"][0].sum() == 0
    assert has(S, victim, "Dead") == (choice == A_END)
    assert has(S, g, "Paralyzed") == (choice == par) and has(S, g, "Frozen") == (choice == fro)
    return choice


def _guard_poisoned() -> None:
    """Poisoned's 1 on the unit's Engagement: its player is asked first; saved, its
    Engagement goes on (the Item Phase, then the Movement Phase: STAGE_MOVE) still Poisoned;
    A_END: it dies and is Disengaged at once. With no Guard in reach it dies unasked."""
    tb = record()
    asked = 0
    for seed in SEEDS:
        for guarded in (True, False):
            S = position(tb, seed=seed)
            p = unit(S, tb, 0, NEUTRAL, 5, 5, E)
            g = holder(S, tb, 0, "Guard", 5, 7, W) if guarded else unit(S, tb, 0, NEUTRAL, 5, 7, W)
            unit(S, tb, 0, NEUTRAL, 0, 0, S_)
            unit(S, tb, 1, NEUTRAL, 0, 13, S_)
            assert apply_status(S, tb, B0, I(p), I(ST["Poisoned"]), I(-1))
            (r,) = peek(S, 6)
            got = engage(S, tb, p)
            if r != 1 or not guarded:
                assert not _paused(S, 0) and has(S, p, "Dead") == (r == 1)
                continue
            choice = _guard_answer(S, tb, p, g, 0, got, asked)
            asked += 1
            if choice == A_END:
                assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
            else:
                assert S["stage"][0] == STAGE_MOVE and S["engaged"][0] == p
                assert has(S, p, "Poisoned")
    assert asked >= 3


def _guard_ability_row() -> None:
    """Random Cannon's 6 (an ability's row gives the Dead Status): the target's player (seat
    1) is asked at the next hand-off; A_END: it dies and the kill counts for seat 0's Item
    Acquisition (R44); saved, nothing counts. Seat 0's Turn goes on."""
    tb = record()
    asked = 0
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = holder(S, tb, 0, "Random Cannon", 5, 2, E)
        unit(S, tb, 0, NEUTRAL, 0, 0, S_)
        t = unit(S, tb, 1, NEUTRAL, 5, 4, W)
        g = holder(S, tb, 1, "Guard", 5, 6, W)
        unit(S, tb, 1, NEUTRAL, 0, 13, S_)
        engage(S, tb, u)
        act(S, tb, A_END)
        act(S, tb, A_ABILITY)
        (r,) = peek(S, 6)
        got = act(S, tb, A_CELL + cell(tb, 5, 4))
        if r != 6:
            assert not _paused(S, 1) and not has(S, t, "Dead")
            continue
        choice = _guard_answer(S, tb, t, g, 1, got, asked)
        asked += 1
        assert S["current"][0] == 0 and S["stage"][0] == STAGE_ENGAGE
        assert S["kills_turn"][0, 0] == (choice == A_END)
    assert asked >= 3


def _guard_soar_water() -> None:
    """A Soar unit ending its Movement Phase on Water dies on 1-2 (TD-2.9, the terrain): its
    player is asked first; saved, its Combat Phase follows (the Knight in front may be
    attacked); A_END: it dies and its Engagement ends (STAGE_ENGAGE)."""
    tb = record()
    paint(tb, 5, 8, terrain="Water")
    asked = 0
    for seed in SEEDS:
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Hawkman", 5, 7, E)
        g = holder(S, tb, 0, "Guard", 4, 9, W)
        unit(S, tb, 0, NEUTRAL, 0, 0, S_)
        unit(S, tb, 1, "Knight", 5, 9, W)
        engage(S, tb, u)
        act(S, tb, A_CELL + cell(tb, 5, 8))
        (r,) = peek(S, 6)
        got = act(S, tb, A_END)
        if r > 2:
            assert not _paused(S, 0) and not has(S, u, "Dead")
            continue
        choice = _guard_answer(S, tb, u, g, 0, got, asked)
        asked += 1
        if choice == A_END:
            assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
        else:
            assert S["stage"][0] == STAGE_COMBAT and S["engaged"][0] == u
    assert asked >= 3


def _guard_escape() -> None:
    """A lost Escape Procedure (TD-9.8: the escaper acquires the Dead Status): its player is
    asked first; either way its Engagement ends as a lost Escape's does (STAGE_ENGAGE);
    saved, it stays Locked in Combat; A_END: it dies, the lock ends and the kill counts for
    the enemy's seat (R140)."""
    tb = record()
    asked = 0
    for seed in SEEDS:
        S = position(tb, seed=seed, turn=2)
        a = unit(S, tb, 0, "Soldier", 5, 5, E)
        d = unit(S, tb, 1, "Paladin", 5, 6, W)
        S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
        S["unit_lock_turn"][0, a] = S["unit_lock_turn"][0, d] = 0
        g = holder(S, tb, 0, "Guard", 5, 3, E)
        unit(S, tb, 0, "Soldier", 0, 0, S_)
        engage(S, tb, a)
        got = act(S, tb, A_ESCAPE)
        if not _paused(S, 0):  # won or tied: free, no death
            assert S["unit_lock"][0, a] == -1 and not has(S, a, "Dead")
            continue
        choice = _guard_answer(S, tb, a, g, 0, got, asked)
        asked += 1
        assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
        assert (S["unit_lock"][0, a] == d) == (choice != A_END)
        assert S["kills_turn"][0, 1] == (choice == A_END)
    assert asked >= 3


GUARD_DEATHS = {
    "poisoned": _guard_poisoned,
    "ability_row": _guard_ability_row,
    "soar_water": _guard_soar_water,
    "escape": _guard_escape,
}


@pytest.mark.parametrize("source", sorted(GUARD_DEATHS))
def test_guard_for_every_death(source: str) -> None:
    """Guard (TD-22.2.103, R140) is offered for the Dead Status from any source, not only an
    Attack's (t_guard): the death waits (units.kill) for the question at the next hand-off."""
    GUARD_DEATHS[source]()
