"""The Combat Phase (TD-10, TD-13, TD-14, TD-15, TD-16, TD-24) and the Deathmatch end (TD-4)."""

from __future__ import annotations

import numpy as np

from envs.tactics_david import grid
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_CELL,
    A_END,
    A_ESCAPE,
    A_SIDE,
    A_STRIKE,
    A_UNIT,
    STAGE_ENGAGE,
    STAGE_GAME_OVER,
    STAGE_MOVE,
    STAGE_RANGED_SIDE,
)
from envs.tactics_david.combat import defence_dice, duel_condition, sides_and_strengths
from envs.tactics_david.invariants import check_state
from envs.tactics_david.record import SCORE_KILLS, build_record
from envs.tactics_david.tables import UNIT_TYPES
from tests.tactics_david.td_board import (
    B0,
    S_,
    TABLES,
    TERRAIN,
    UNIT,
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

DEAD = int(TABLES.status_index["Dead"])
PHYS, MAG, ETH = (UNIT_TYPES.index(t) for t in ("Physical", "Magical", "Ethereal"))
NO_FLOOD = np.zeros(st.MAX_CELLS, dtype=np.uint8)  # a game's flood mask with no space flooded


def _dead(S, u) -> bool:
    return bool(S["unit_status"][0, u, DEAD] != 0)


# --- geometry ---------------------------------------------------------------------------------


def test_range_area_matches_figures_5_and_6():
    """TD-15.1 / R7-R8: Range Rating 5 from (1,1) facing increasing rows: Rise/Run 5/0, 4/1,
    3/2, 2/2, 1/1 in (distance Rise + Run), 2/3 out; fig 6.4's (3,5) out, (2,3) and (2,5) in."""
    tb = record()
    a = cell(tb, 1, 1)

    def dist(col, row):
        return int(grid.range_distance(tb, I(0), I(a), I(S_), I(cell(tb, row, col)), I(5)))

    assert [dist(1, 6), dist(2, 5), dist(3, 4), dist(3, 3), dist(2, 2)] == [5, 5, 5, 4, 2]
    assert dist(4, 3) == -1 and dist(1, 1) == -1 and dist(1, 0) == -1
    assert dist(3, 5) == -1 and dist(2, 3) == 3 and dist(2, 5) == 5


def test_line_of_sight_blockers():
    """TD-15.7 / TD-2.4 / TD-2.12: height >= 2 pieces and Forest block; height 1 does not; a
    target standing in Forest is seen."""

    def los(tb):
        return bool(
            grid.line_of_sight(tb, I(0), NO_FLOOD, I(cell(tb, 5, 2)), I(E), I(cell(tb, 5, 8)))
        )

    tb = record()
    assert los(tb)
    paint(tb, 5, 5, height=1)
    assert los(tb)
    paint(tb, 5, 5, height=2)
    assert not los(tb)
    tb = record()
    paint(tb, 5, 5, terrain="Forest")
    assert not los(tb)
    tb = record()
    paint(tb, 5, 8, terrain="Forest")
    assert los(tb)
    paint(tb, 4, 5, height=2)  # beside the line, not on it
    assert los(tb)


def test_attack_area_cells_follow_the_facing():
    """TD-15.3-15.5 / I1-I4 / R13: melee areas hang on the attacker's facing, ranged areas on
    the target space; a `continues` ray stops after the first blocking space (I9)."""
    tb = record()
    out = np.zeros(grid.MAX_AREA_OUT, dtype=np.int64)
    area = TABLES.area_index

    def cells(name, r, c, facing, ranged):
        n = grid.area_cells(
            tb, I(0), NO_FLOOD, I(area[name]), I(cell(tb, r, c)), I(facing), ranged, out
        )
        return sorted(divmod(int(x), 14) for x in out[:n])

    assert cells("MC", 5, 5, N, False) == [(4, 4), (4, 5), (4, 6)]
    assert cells("MC", 5, 5, E, False) == [(4, 6), (5, 6), (6, 6)]
    assert cells("MJ", 5, 5, W, False) == [(5, 4), (5, 6)]
    assert cells("RC", 3, 5, N, True) == [(3, 4), (3, 5), (3, 6)]
    assert cells("MA", 3, 5, N, True) == [(2, 5), (3, 5)]  # R13: target space included
    assert cells("MA", 0, 5, N, False) == []  # off the battlefield
    ri = cells("RI", 5, 3, E, True)
    assert ri[0] == (5, 3) and ri[-1] == (5, 13) and len(ri) == 11
    paint(tb, 5, 7, height=2)
    assert cells("RI", 5, 3, E, True)[-1] == (5, 7)


# --- the procedures ---------------------------------------------------------------------------


def test_duel_condition():
    """TD-10.6 / R10: a result out of reach of the other's best roll starts a Duel."""
    assert duel_condition(13, 5, 7, 6, 2, 6)  # 13 > 2 + 6
    assert not duel_condition(8, 5, 7, 6, 2, 6)  # 8 <= 8: the defender could still hold
    assert duel_condition(4, 13, 1, 6, 7, 6)  # 13 >= 1 + 6: the attack cannot beat it
    assert not duel_condition(4, 6, 1, 6, 2, 6)


def test_defence_dice_by_terrain_and_matchup():
    """TD-10.2, TD-13.4, TD-2.7, TD-2.10, TD-2.11."""
    tb = record()
    f, w, r, fo = (TERRAIN[n] for n in ("Field", "Water", "Road", "Forest"))

    def dice(at, dt, t):
        return tuple(int(x) for x in defence_dice(tb, I(at), I(dt), I(t)))

    assert dice(PHYS, PHYS, f) == (6, 0, 0, 0)
    assert dice(PHYS, MAG, f) == (3, 0, 0, 0)  # a D3 replaces the die
    assert dice(MAG, ETH, f) == (3, 0, 0, 0)
    assert dice(ETH, PHYS, f) == (3, 0, 0, 0)
    assert dice(MAG, PHYS, f) == (6, 0, 3, 0)  # adds 1 D3
    assert dice(PHYS, ETH, f) == (6, 0, 0, 1)  # may never die from it
    assert dice(ETH, MAG, f) == (6, 0, 0, 0) and dice(ETH, ETH, f) == (6, 0, 0, 0)
    assert dice(PHYS, PHYS, r) == (4, 0, 0, 0)  # Road: D4
    assert dice(PHYS, PHYS, w) == (6, 3, 0, 0) and dice(PHYS, PHYS, fo) == (6, 3, 0, 0)


def test_attacked_sides_and_strengths():
    """TD-15.3: the defender's edge facing the attacker's front; TD-13.2: Magical picks its
    side, the defender uses the same-named one; TD-10.5: Ranged Melee strength by class;
    TD-16.4: halved while Locked with a Terrain Piece at its back."""
    tb = record()
    S = position(tb)
    a = unit(S, tb, 0, "Knight", 5, 5, E)  # front 4
    d = unit(S, tb, 1, "Thief", 5, 6, N)  # F/L/R/B 1, 2, 2, 2
    S["unit_strength"][0, d] = (10, 20, 30, 40)

    def st(side=0, rm=False):
        return tuple(int(x) for x in sides_and_strengths(S, tb, B0, I(a), I(d), I(side), rm))

    assert st() == (4, 20)  # attacked on its west edge = its left while it faces north
    S["unit_facing"][0, d] = W
    assert st() == (4, 10)
    S["unit_facing"][0, d] = E
    assert st() == (4, 40)
    S["unit_member"][0, a, 0] = UNIT["Blade Master"]  # a Medium Magical Melee profile
    S["unit_attack_type"][0, a] = MAG
    S["unit_strength"][0, a] = (1, 2, 3, 4)
    assert st(side=3) == (4, 40) and st(side=1) == (2, 20)
    S["unit_member"][0, a, 0] = UNIT["Longbowman"]  # Medium Ranged: Ranged Melee strength 2
    assert st(side=1, rm=True) == (2, 20)
    S["unit_attack_type"][0, a] = PHYS
    S["unit_facing"][0, d] = W
    S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
    assert st() == (1, 10)
    paint(tb, 5, 7, height=2)  # a Tree behind the defender (it faces west)
    assert st() == (1, 5)


def test_strike_sides_by_attack_type():
    """TD-13.1-13.3: Physical and Ethereal strike with the front, Magical with any side."""
    for name, sides in (("Knight", 1), ("Angel", 1), ("Blade Master", 4)):
        tb = record()
        S = position(tb)
        u = unit(S, tb, 0, name, 5, 5, E)
        unit(S, tb, 1, "Soldier", 5, 6, W)
        engage(S, tb, u)
        got = act(S, tb, A_END)
        assert got == [A_STRIKE + s for s in range(sides)] + [A_END], name


def test_physical_never_kills_ethereal():
    """TD-13.4: a Physical attack never gives an Ethereal defender the Dead Status; a Physical
    defender of the same strengths does die sometimes (the control)."""
    kills = {"Angel": 0, "Soldier": 0}
    for seed in range(50):
        for name in kills:
            tb = record()
            S = position(tb, seed=seed)
            u = unit(S, tb, 0, "Paladin", 5, 5, E)
            d = unit(S, tb, 1, name, 5, 6, E)  # its back to the Paladin
            unit(S, tb, 1, "Soldier", 0, 0, S_)
            engage(S, tb, u)
            act(S, tb, A_END)
            act(S, tb, A_STRIKE)
            kills[name] += _dead(S, d)
    assert kills["Angel"] == 0 and kills["Soldier"] > 25


def test_area_attacks_friend_and_foe():
    """TD-15.2: every unit in the area is attacked, allies too; TD-15.3: an enemy must be in
    the area for a melee attack."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Warrior", 5, 5, N)  # MC: three spaces in front
    unit(S, tb, 0, "Soldier", 4, 4, N)
    unit(S, tb, 1, "Soldier", 0, 13, S_)
    engage(S, tb, u)
    act(S, tb, A_END)  # only an ally in the area: no attack, the Combat Phase passes
    assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
    ally_dead = 0
    for seed in range(60):
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Warrior", 5, 5, N)
        ally = unit(S, tb, 0, "Soldier", 4, 4, N)  # struck on its back (1)
        unit(S, tb, 1, "Paladin", 4, 6, S_)
        engage(S, tb, u)
        act(S, tb, A_END)
        act(S, tb, A_STRIKE)
        ally_dead += _dead(S, ally)
    assert ally_dead > 10


def test_combat_lock_face_to_face():
    """TD-16.1: a failed attack face to face in direct contact locks both; not otherwise.
    R29: only enemies lock."""
    locked = 0
    for seed in range(40):
        for d_facing in (W, N):
            tb = record()
            S = position(tb, seed=seed)
            a = unit(S, tb, 0, "Soldier", 5, 5, E)
            d = unit(S, tb, 1, "Paladin", 5, 6, d_facing)
            unit(S, tb, 0, "Soldier", 0, 0, S_)
            engage(S, tb, a)
            act(S, tb, A_END)
            turn = int(S["turn"][0])
            act(S, tb, A_STRIKE)
            if _dead(S, d) or _dead(S, a):
                continue
            if d_facing == W:
                assert S["unit_lock"][0, a] == d and S["unit_lock"][0, d] == a
                assert S["unit_lock_turn"][0, a] == turn
                locked += 1
            else:
                assert S["unit_lock"][0, a] == -1 and S["unit_lock"][0, d] == -1
    assert locked > 20


def _locked_pair(tb, seed=0, since=0):
    S = position(tb, seed=seed, turn=2)
    a = unit(S, tb, 0, "Soldier", 5, 5, E)
    d = unit(S, tb, 1, "Paladin", 5, 6, W)
    S["unit_lock"][0, a], S["unit_lock"][0, d] = d, a
    S["unit_lock_turn"][0, a] = S["unit_lock_turn"][0, d] = since
    unit(S, tb, 0, "Soldier", 0, 0, S_)
    return S, a, d


def test_locked_unit_must_attack_or_escape():
    """TD-16.3: the Turn cannot end while a Locked unit has not been Engaged; Engaged, it may
    only Escape (TD-9.8) or attack, and may not leave the Combat Phase without attacking.
    TD-16.2: a Locked unit is no Ranged target."""
    tb = record()
    S, a, d = _locked_pair(tb)
    h = unit(S, tb, 0, "Hunter", 3, 6, S_)  # the Paladin is 2 ahead, in range and sight
    assert A_END not in legal(S, tb)
    engage(S, tb, h)
    assert [x for x in act(S, tb, A_END) if x < A_UNIT] == []  # no ranged target
    S, a, d = _locked_pair(tb)
    assert engage(S, tb, a) == [A_ESCAPE, A_END]
    assert act(S, tb, A_END) == [A_STRIKE]
    S, a, d = _locked_pair(tb, since=2)  # locked this Turn: no Escape yet
    assert engage(S, tb, a) == [A_STRIKE]  # the Movement Phase had only A_END
    # a Locked Ranged Unit attacks its opponent by Ranged Melee, never another unit by a shot
    S, a, d = _locked_pair(tb)
    S["unit_member"][0, a, 0] = UNIT["Hunter"]
    unit(S, tb, 1, "Soldier", 3, 8, W)  # Rise 2, Run 2 from the Hunter: in range and sight
    engage(S, tb, a)
    assert act(S, tb, A_END) == [A_STRIKE]


def test_escape_frees_or_kills():
    """TD-9.8 / R16: win or tie: free, may move on, no Combat Phase; lose: Dead."""
    outcomes = set()
    for seed in range(40):
        tb = record()
        S, a, d = _locked_pair(tb, seed=seed)
        engage(S, tb, a)
        nxt = act(S, tb, A_ESCAPE)
        if _dead(S, a):
            assert S["stage"][0] == STAGE_ENGAGE and S["unit_lock"][0, d] == -1
            outcomes.add("dead")
        else:
            assert S["stage"][0] == STAGE_MOVE and S["unit_lock"][0, a] == -1
            assert S["unit_lock"][0, d] == -1 and A_CELL + cell(tb, 5, 4) in nxt
            act(S, tb, A_CELL + cell(tb, 5, 4))
            act(S, tb, A_END)
            assert S["stage"][0] == STAGE_ENGAGE  # no Combat Phase after escaping
            outcomes.add("free")
    assert outcomes == {"dead", "free"}


def test_ranged_targets():
    """TD-14.2 / TD-15.1: enemies in the Range Area ahead; TD-2.12: not from inside Forest."""
    tb = record()
    S = position(tb)
    h = unit(S, tb, 0, "Hunter", 5, 2, E)  # Range Rating 5
    near = unit(S, tb, 1, "Soldier", 5, 6, W)  # distance 4
    unit(S, tb, 1, "Soldier", 5, 8, W)  # distance 6: out
    unit(S, tb, 1, "Soldier", 3, 4, W)  # Rise 2, Run 2: in
    unit(S, tb, 1, "Soldier", 5, 0, W)  # behind
    unit(S, tb, 0, "Soldier", 6, 4, W)  # ally
    engage(S, tb, h)
    got = act(S, tb, A_END)
    assert got == [A_CELL + cell(tb, 3, 4), A_CELL + int(S["unit_cell"][0, near]), A_END]
    for r in range(3, 8):
        for c in range(0, 5):
            paint(tb, r, c, terrain="Forest")
    S2 = S.copy()
    S2["stage"][0] = STAGE_ENGAGE
    S2["unit_engaged"][0] = 0
    engage(S2, tb, h)
    assert act(S2, tb, A_END) == [A_END] or S2["stage"][0] == STAGE_ENGAGE


def test_ranged_hit_needs_the_distance_but_never_below_two():
    """TD-10.4 / R6: 2 D6 + Range Modifier >= distance hits, the result never below 2: with a
    Range Modifier of -30 a target 2 away is still hit, one 3 away never."""
    tb = record()
    tb.u_rmod[UNIT["Hunter"]] = -30
    kills = {2: 0, 3: 0}
    for seed in range(40):
        for dist in kills:
            S = position(tb, seed=seed)
            h = unit(S, tb, 0, "Hunter", 5, 2, E)
            d = unit(S, tb, 1, "Thief", 5, 2 + dist, N)  # struck on its left (2)
            unit(S, tb, 1, "Soldier", 0, 0, S_)
            engage(S, tb, h)
            act(S, tb, A_END)
            act(S, tb, A_CELL + cell(tb, 5, 2 + dist))
            kills[dist] += _dead(S, d)
    assert kills[3] == 0 and kills[2] > 10


def test_magical_ranged_attack_asks_its_side():
    """TD-13.2: a Magical Ranged Attack's side is chosen after the target."""
    tb = record()
    S = position(tb)
    m = unit(S, tb, 0, "Mage", 5, 2, E)
    unit(S, tb, 1, "Soldier", 5, 5, W)
    unit(S, tb, 1, "Soldier", 0, 0, S_)
    engage(S, tb, m)
    act(S, tb, A_END)
    got = act(S, tb, A_CELL + cell(tb, 5, 5))
    assert S["stage"][0] == STAGE_RANGED_SIDE and got == [A_SIDE + s for s in range(4)]
    act(S, tb, A_SIDE + 1)
    assert S["stage"][0] == STAGE_ENGAGE


def test_deathmatch_ends_when_the_last_enemy_dies():
    """TD-4.2: killing the last enemy unit wins."""
    for seed in range(30):
        tb = record()
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Paladin", 5, 5, E)
        d = unit(S, tb, 1, "Thief", 5, 6, E)
        engage(S, tb, u)
        act(S, tb, A_END)
        after = act(S, tb, A_STRIKE)
        if _dead(S, d):
            assert after == []
            assert S["stage"][0] == STAGE_GAME_OVER and S["winner"][0] == 0
            assert tuple(S["rewards"][0]) == (1.0, -1.0)
            return
    raise AssertionError("the Paladin never killed the Thief")


def test_turn_limited_variant_scores_surviving_cost():
    """TD-4.3 / I8: after the last Turn the higher Purchase Cost of units in play wins."""
    tb = build_record(TABLES, turn_limit=1)
    S = position(tb)
    unit(S, tb, 0, "Soldier", 5, 5, E)  # cost 6
    unit(S, tb, 1, "Knight", 0, 0, S_)  # cost 8
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_GAME_OVER and S["winner"][0] == 1


def test_turn_limited_variant_scored_by_kills():
    """TD-4.3 "scored by kills" (option turn_score=kills, I30): after the last Turn the seat
    that killed more enemy units wins, whatever the cost left in play; a unit still in the
    reserve was never killed. The same position scored by cost goes the other way."""
    for turn_score, winner, score in ((SCORE_KILLS, 1, [0, 1]), (0, 0, [8, 6])):
        tb = build_record(TABLES, turn_limit=1, turn_score=turn_score)
        S = position(tb)
        unit(S, tb, 0, "Knight", 5, 5, E)  # cost 8, alive
        dead = unit(S, tb, 0, "Soldier", 7, 7, E)  # cost 6, killed
        S["unit_status"][0, dead, tb.status_dead] = -1
        unit(S, tb, 1, "Soldier", 0, 0, S_)  # cost 6, alive
        waiting = unit(S, tb, 1, "Soldier", 2, 2, S_)  # in the reserve: not a kill for seat 0
        S["cell_unit"][0, S["unit_cell"][0, waiting], 0] = -1
        S["unit_cell"][0, waiting] = -1
        S["unit_place"][0, waiting] = st.PLACE_RESERVE
        act(S, tb, A_END)
        assert S["stage"][0] == STAGE_GAME_OVER and S["winner"][0] == winner
        assert S["score"][0].tolist() == score
        assert check_state(S, tb, 0) == []
