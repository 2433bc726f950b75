"""Unit Teams (TD-9.7, TD-18.1-18.7) on hand-built positions (envs/tactics_david/teams.py)."""

from __future__ import annotations

import numpy as np

from envs.core.rng import roll_d
from envs.tactics_david import invariants as inv
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_CELL,
    A_CHARGE,
    A_END,
    A_FACE,
    A_STRIKE,
    A_UNFORM,
    A_UNIT,
    STAGE_COMBAT,
    STAGE_ENGAGE,
    STAGE_MOVE,
    STAGE_ORIENT,
    STAGE_TEAM_PICK,
)
from envs.tactics_david.teams import team_struck
from envs.tactics_david.units import kill
from tests.tactics_david.td_board import (
    B0,
    S_,
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


def _dest(tb, actions: list[int]) -> set[tuple[int, int]]:
    cols = int(tb.bf_cols[0])
    return {divmod(a - A_CELL, cols) for a in actions if A_CELL <= a < A_UNIT}


def _diamond(r0, c0, k, rows=11, cols=14):
    return {(r, c) for r in range(rows) for c in range(cols) if 0 < abs(r - r0) + abs(c - c0) <= k}


def _fresh_turn(S, current: int = 0) -> None:
    """Start a new Turn of `current` by hand (nothing Engaged or moved yet)."""
    for f in ("unit_engaged", "unit_moved", "unit_fought", "unit_no_move", "unit_no_combat"):
        S[f][0] = 0
    S["turn"][0] += 1
    S["current"][0] = current
    S["engaged"][0] = -1
    S["stage"][0] = STAGE_ENGAGE


def _form(S, tb, u: int, v: int, side: int) -> None:
    """Engage u, move it onto v's space (a Team, TD-18.2), stand it on `side` (TD-9.7)."""
    engage(S, tb, u)
    act(S, tb, A_CELL + int(S["unit_cell"][0, v]))
    assert S["stage"][0] == STAGE_ORIENT
    act(S, tb, A_FACE + side)


def test_a_team_is_formed_by_moving_onto_an_own_unit():
    """TD-18.1, TD-18.2, TD-9.7: the Engaged unit's Movement Procedure may end on an own
    unit's space; both then share it as a Team, the owner chooses the orientation (4 ways:
    which side the mover takes), a Facing Procedure may follow, and neither moves again."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 5, N)
    v = unit(S, tb, 0, "Soldier", 5, 7, N)
    x = unit(S, tb, 1, "Knight", 9, 9, N)  # an enemy's space is never a destination
    dest = _dest(tb, engage(S, tb, u))
    assert (5, 7) in dest and (9, 9) not in dest
    nxt = act(S, tb, A_CELL + cell(tb, 5, 7))
    assert S["stage"][0] == STAGE_ORIENT and S["current"][0] == 0
    assert sorted(nxt) == [A_FACE + d for d in range(4)]
    nxt = act(S, tb, A_FACE + E)  # the mover on the east side, its partner on the west
    c = cell(tb, 5, 7)
    assert S["unit_team"][0, u] == v and S["unit_team"][0, v] == u
    assert sorted(S["cell_unit"][0, c].tolist()) == sorted([u, v])
    assert S["unit_team_side"][0, u] == E and S["unit_team_side"][0, v] == W
    # the Movement Phase is over but for a Facing Procedure (TD-18.2)
    assert S["stage"][0] == STAGE_MOVE and _dest(tb, nxt) == set() and A_CHARGE not in nxt
    assert set(nxt) == {A_FACE + E, A_FACE + S_, A_FACE + W, A_END}
    assert inv.violations(S, tb, 0) == [] and inv.check_codes(S, tb, 0) == inv.OK
    # the partner's Movement Phase this Turn allows no movement either
    act(S, tb, A_END)
    while S["stage"][0] != STAGE_ENGAGE:
        act(S, tb, A_END)
    nxt = engage(S, tb, v)
    while S["stage"][0] != STAGE_MOVE:
        nxt = act(S, tb, A_END)
    assert _dest(tb, nxt) == set() and A_CHARGE not in nxt and A_UNFORM not in nxt
    assert x >= 0


def test_no_team_with_a_dead_fought_locked_or_teamed_unit():
    """TD-18.2: not with a Dead unit, one that entered its Combat Phase this Turn, one in
    Combat Lock; TD-18.1: no more than two units."""
    tb = record()
    for how in ("dead", "fought", "locked", "teamed", "none"):
        S = position(tb)
        u = unit(S, tb, 0, "Knight", 5, 5, N)
        v = unit(S, tb, 0, "Soldier", 5, 7, N)
        if how == "dead":
            S["unit_status"][0, v, tb.status_dead] = -1
        elif how == "fought":
            S["unit_fought"][0, v] = 1
        elif how == "locked":
            x = unit(S, tb, 1, "Knight", 4, 7, S_)
            S["unit_lock"][0, v] = x
            S["unit_lock"][0, x] = v
        elif how == "teamed":
            w = unit(S, tb, 0, "Soldier", 5, 8, W)
            _form(S, tb, w, v, E)
            _fresh_turn(S)
        assert ((5, 7) in _dest(tb, engage(S, tb, u))) == (how == "none"), how


def test_a_team_moves_together_at_the_lower_rating():
    """TD-18.4: a member's Movement Procedure moves both, at the lower Movement Rating
    (Knight 4 with Soldier 3: 3); the partner counts as moved."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 5, N)
    v = unit(S, tb, 0, "Soldier", 5, 6, N)
    _form(S, tb, u, v, N)
    _fresh_turn(S)
    nxt = engage(S, tb, u)
    assert _dest(tb, nxt) == _diamond(5, 6, 3)
    act(S, tb, A_CELL + cell(tb, 2, 6))
    c = cell(tb, 2, 6)
    assert S["unit_cell"][0, u] == c and S["unit_cell"][0, v] == c
    assert S["unit_team"][0, u] == v and S["unit_team_side"][0, u] == N
    assert (S["cell_unit"][0, cell(tb, 5, 6)] == -1).all()
    assert S["unit_moved"][0, v] == 1 and inv.violations(S, tb, 0) == []


def test_a_mixed_team_moves_as_land():
    """TD-18.4: unless both share a Movement Type the Team is Land: a Hover Angel crosses a
    height-1 piece alone, not in a Team with a Knight."""
    tb = record()
    for r in range(11):
        paint(tb, r, 8, height=1)
    S = position(tb)
    a = unit(S, tb, 0, "Angel", 5, 6, E)
    k = unit(S, tb, 0, "Knight", 5, 7, E)
    assert (5, 9) in _dest(tb, engage(S, tb, a))
    S = position(tb)
    a = unit(S, tb, 0, "Angel", 5, 6, E)
    k = unit(S, tb, 0, "Knight", 5, 5, E)
    _form(S, tb, k, a, W)
    _fresh_turn(S)
    dest = _dest(tb, engage(S, tb, a))
    assert dest and all(c < 8 for _, c in dest)


def test_a_team_charges_only_facing_one_way():
    """TD-18.4: a Charging Procedure needs both members facing the same direction."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 5, N)
    v = unit(S, tb, 0, "Knight", 5, 6, E)
    _form(S, tb, u, v, N)
    _fresh_turn(S)
    assert A_CHARGE not in engage(S, tb, u)
    S["unit_facing"][0, v] = N
    assert A_CHARGE in legal(S, tb)


def test_a_member_unforms_before_either_moves():
    """TD-18.3: before either member entered its Movement Phase this Turn, the Engaged one
    may leave (A_UNFORM) and move alone, at its own rating; the Team is no more."""
    tb = record()
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 5, N)
    v = unit(S, tb, 0, "Soldier", 5, 6, N)
    _form(S, tb, u, v, N)
    _fresh_turn(S)
    nxt = engage(S, tb, u)
    assert A_UNFORM in nxt
    nxt = act(S, tb, A_UNFORM)
    assert _dest(tb, nxt) == _diamond(5, 6, 4) and A_UNFORM not in nxt
    act(S, tb, A_CELL + cell(tb, 1, 6))
    assert S["unit_team"][0, u] == -1 and S["unit_team"][0, v] == -1
    assert S["unit_team_side"][0, v] == -1 and S["unit_cell"][0, v] == cell(tb, 5, 6)
    assert S["cell_unit"][0, cell(tb, 5, 6)].tolist() == [v, -1]
    assert inv.violations(S, tb, 0) == []
    # not once a member has entered its Movement Phase this Turn
    S = position(tb)
    u = unit(S, tb, 0, "Knight", 5, 5, N)
    v = unit(S, tb, 0, "Soldier", 5, 6, N)
    _form(S, tb, u, v, N)
    _fresh_turn(S)
    S["unit_moved"][0, v] = 1
    assert A_UNFORM not in engage(S, tb, u)


def _team_beside_enemy(tb, side_of_k: int):
    """Seat 0's Knight k and Soldier s in a Team on (5, 6), k on side_of_k; seat 1's Knight
    e on (5, 5) facing east (its front space is the Team's)."""
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 7, W)
    s = unit(S, tb, 0, "Soldier", 5, 6, W)
    e = unit(S, tb, 1, "Knight", 5, 5, E)
    _form(S, tb, k, s, side_of_k)
    return S, k, s, e


def test_melee_strikes_the_exposed_member():
    """TD-18.6: a melee attack from the west on a Team standing east-west strikes only the
    western member; standing north-south, both are exposed (teams.team_struck)."""
    tb = record()
    c = I(cell(tb, 5, 6))
    S, k, s, e = _team_beside_enemy(tb, W)
    assert team_struck(S, tb, B0, I(e), c) == k
    S, k, s, e = _team_beside_enemy(tb, E)
    assert team_struck(S, tb, B0, I(e), c) == s
    S["unit_team_hit"][0, k] = 1  # picked (STAGE_TEAM_PICK) overrides exposure
    assert team_struck(S, tb, B0, I(e), c) == k


def _attack_from_west(S, tb, e: int) -> list[int]:
    _fresh_turn(S, 1)
    engage(S, tb, e)
    while S["stage"][0] != STAGE_COMBAT:
        act(S, tb, A_END)
    S["unit_strength"][0, e] = 100  # the attacked member dies for sure
    return act(S, tb, A_STRIKE + 0)


def test_melee_on_a_team_exposed_one_side_hits_one_member():
    """TD-18.6: only the exposed member is attacked: the other one stays alive, no choice."""
    tb = record()
    S, k, s, e = _team_beside_enemy(tb, W)
    _attack_from_west(S, tb, e)
    assert S["stage"][0] != STAGE_TEAM_PICK
    assert S["unit_status"][0, k, tb.status_dead] != 0
    assert S["unit_status"][0, s, tb.status_dead] == 0


def test_melee_on_a_team_both_exposed_the_attacker_chooses():
    """TD-18.6: both members exposed (the Team stands north-south, the attack comes from the
    west): the attacking player picks the member (STAGE_TEAM_PICK), only it is attacked."""
    tb = record()
    for pick_side in (N, S_):
        S, k, s, e = _team_beside_enemy(tb, N)
        nxt = _attack_from_west(S, tb, e)
        assert S["stage"][0] == STAGE_TEAM_PICK and S["current"][0] == 1
        assert sorted(nxt) == sorted([A_FACE + N, A_FACE + S_])
        act(S, tb, A_FACE + pick_side)
        hit, spared = (k, s) if pick_side == N else (s, k)
        assert S["unit_status"][0, hit, tb.status_dead] != 0
        assert S["unit_status"][0, spared, tb.status_dead] == 0
        assert S["stage"][0] != STAGE_TEAM_PICK and S["team_action"][0] == -1


def test_ranged_on_a_team_the_defender_chooses():
    """TD-18.6: a Ranged Attack on a Team: the defending player picks the member."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 8, 7, W)
    s = unit(S, tb, 0, "Soldier", 8, 6, W)
    _form(S, tb, k, s, W)  # east-west: would decide a melee from the west
    a = unit(S, tb, 1, "Archer", 5, 6, S_)
    _fresh_turn(S, 1)
    nxt = engage(S, tb, a)
    while S["stage"][0] != STAGE_COMBAT:
        nxt = act(S, tb, A_END)
    target = A_CELL + cell(tb, 8, 6)
    assert target in nxt
    nxt = act(S, tb, target)
    assert S["stage"][0] == STAGE_TEAM_PICK and S["current"][0] == 0
    assert sorted(nxt) == sorted([A_FACE + W, A_FACE + E])
    act(S, tb, A_FACE + E)  # the defender exposes its Soldier (the east member)
    assert S["stage"][0] != STAGE_TEAM_PICK and S["team_action"][0] == -1
    assert S["unit_status"][0, k, tb.status_dead] == 0  # never attacked


def test_team_members_are_never_locked():
    """TD-18.7: a Team member face to face with a surviving attacker is not Locked."""
    tb = record()
    S, k, s, e = _team_beside_enemy(tb, W)
    S["unit_facing"][0, k] = W
    S["unit_strength"][0, k] = 100  # it survives
    _attack_from_west(S, tb, e)
    S["unit_strength"][0, e] = 100
    assert S["unit_lock"][0, k] == -1 and S["unit_lock"][0, e] == -1


def test_the_survivor_of_a_dead_partner_must_leave_and_may_fear():
    """TD-18.7: when one member becomes Dead the other acquires Fearful if 1 D6 < 5, and at
    its next Movement Phase it must move to another space (no End Movement Phase while a
    move is possible); leaving ends the Team."""
    tb = record()
    seen = set()
    for seed in range(12):
        S = position(tb, seed=seed)
        k = unit(S, tb, 0, "Knight", 5, 5, N)
        s = unit(S, tb, 0, "Soldier", 5, 6, N)
        _form(S, tb, k, s, N)
        roll = roll_d(S["rng"].copy(), B0, I(6))
        kill(S, tb, B0, I(k), I(1))
        fearful = S["unit_status"][0, s, tb.status_fearful] != 0
        assert fearful == (roll < 5), (seed, roll)
        seen.add(bool(fearful))
        assert inv.violations(S, tb, 0) == []
        S["unit_status"][0, s, tb.status_fearful] = 0
        _fresh_turn(S)
        nxt = engage(S, tb, s)
        while S["stage"][0] != STAGE_MOVE:
            nxt = act(S, tb, A_END)
        assert A_END not in nxt and _dest(tb, nxt) == _diamond(5, 6, 3)
        act(S, tb, A_CELL + cell(tb, 5, 9))
        assert S["unit_team"][0, s] == -1 and S["unit_team"][0, k] == -1
        assert S["cell_unit"][0, cell(tb, 5, 6)].tolist() == [k, -1]
        assert inv.violations(S, tb, 0) == []
    assert seen == {True, False}


def test_broken_teams_are_caught_by_both_checks():
    """The invariants know Teams: partners of one side, on one space, opposite sides."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 5, N)
    s = unit(S, tb, 0, "Soldier", 5, 6, N)
    _form(S, tb, k, s, N)
    assert inv.check_codes(S, tb, 0) == inv.OK
    for corrupt in ("side", "owner"):
        bad = S.copy()
        if corrupt == "side":
            bad["unit_team_side"][0, s] = E
        else:
            bad["unit_team"][0, s] = k + st.MAX_UNITS
        assert inv.check_codes(bad, tb, 0) == inv.BAD_SPACE, corrupt
        assert inv.violations(bad, tb, 0) != [], corrupt


def test_random_games_form_teams():
    """Teams are reachable in random self-play (TD-18.2: a random agent forms one by moving
    onto an own unit) and keep the invariants (invariants.violations, checked for a while
    after the first Team is formed)."""
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import MAX_LEGAL

    tb = record(blank=False, turn_limit=30)
    rng = np.random.default_rng(3)
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    formed = 0
    checked = 0
    for g in range(20):
        n = K.start_one(S, tb, B0, I(7), I(g), out)
        while n > 0 and checked < 300:
            n = K.apply_one(S, tb, B0, I(out[rng.integers(n)]), out)
            formed += S["stage"][0] == STAGE_ORIENT
            if formed:
                assert inv.violations(S, tb, 0) == []
                checked += 1
        if checked >= 300:
            break
    assert formed > 0


def test_a_team_charges_at_the_lower_rating():
    """TD-18.4 with TD-9.5: a Team's passed charge goes up to the lower Movement Rating (a
    Soldier's 3 beside a Knight's 4) + 1 D6, along the line both face."""
    tb = record()
    passed = 0
    for seed in range(1, 15):
        S = position(tb, seed=seed)
        u = unit(S, tb, 0, "Knight", 5, 2, E)
        v = unit(S, tb, 0, "Soldier", 5, 3, E)
        _form(S, tb, u, v, N)
        _fresh_turn(S)
        engage(S, tb, u)
        copy = S.copy()
        t1, t2, roll = (int(roll_d(copy["rng"], B0, I(6))) for _ in range(3))
        nxt = act(S, tb, A_CHARGE)
        if t1 + t2 < 7:
            continue
        passed += 1
        assert S["charge_max"][0] == 3 + roll
        assert _dest(tb, nxt) == {(5, 3 + k) for k in range(1, 3 + roll + 1)}
    assert passed > 0


def test_a_team_member_uses_an_item_on_itself():
    """TD-8.3 with TD-18.1: a member that joined a Team (the space's second slot) still picks
    its own space to use its Potion on itself, not its partner."""
    from envs.tactics_david.actions import A_STATUS, A_USE_ITEM, STAGE_ITEM
    from envs.tactics_david.items import equip
    from envs.tactics_david.units import apply_status
    from tests.tactics_david.td_board import TABLES

    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 5, N)
    s = unit(S, tb, 0, "Soldier", 5, 6, N)
    _form(S, tb, k, s, N)  # the Knight holds the second slot of (5, 6)
    _fresh_turn(S)
    potion = TABLES.item_index["Potion"]  # out of the Item Deck, onto the Knight (I10)
    deck = [int(i) for i in S["deck"][0, : S["deck_count"][0]] if i != potion]
    S["deck"][0] = -1
    S["deck"][0, : len(deck)] = deck
    S["deck_count"][0] = len(deck)
    equip(S, tb, B0, I(k), I(potion))
    apply_status(S, tb, B0, I(k), I(TABLES.status_index["Burned"]), I(-1))
    assert S["cell_unit"][0, cell(tb, 5, 6)].tolist() == [s, k]
    acts = engage(S, tb, k)
    assert S["stage"][0] == STAGE_ITEM and A_USE_ITEM in acts
    acts = act(S, tb, A_USE_ITEM)
    assert A_CELL + cell(tb, 5, 6) in acts
    acts = act(S, tb, A_CELL + cell(tb, 5, 6))
    burned = TABLES.status_index["Burned"]
    if A_STATUS + burned in acts:  # the Status the Potion removes, if still asked
        act(S, tb, A_STATUS + burned)
    assert S["unit_status"][0, k, burned] == 0
