"""Status Affects (TD-20): the statuses.yaml rows as the kernels read them. Roll-dependent rules
are checked against the die the game is about to roll (a copy of the game's RNG predicts it),
over seeds until both outcomes were seen, so each test fails if the rule's threshold breaks."""

from __future__ import annotations

from envs.core.rng import roll_d
from envs.tactics_david import combat, movement, units
from envs.tactics_david.actions import (
    A_CELL,
    A_CHARGE,
    A_END,
    A_FACE,
    A_STATUS,
    A_STRIKE,
    STAGE_COMBAT,
    STAGE_EFFECT,
    STAGE_ENGAGE,
    STAGE_MOVE,
)
from envs.tactics_david.state import STATUS_PERMANENT
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
    position,
    record,
    unit,
)

ST = TABLES.status_index
DEAD = ST["Dead"]


def _give(S, tb, u, name, turns=STATUS_PERMANENT) -> bool:
    return bool(units.apply_status(S, tb, B0, I(u), I(ST[name]), I(turns)))


def _has(S, u, name) -> bool:
    return bool(S["unit_status"][0, u, ST[name]] != 0)


def _next_roll(S, sides: int = 6) -> int:
    """The next die the game will roll (on a copy of its RNG)."""
    rng = S["rng"].copy()
    return int(roll_d(rng, B0, I(sides)))


def _board(seed: int, tb=None):
    """Seat 0: a Knight at (5,5) facing east and a Soldier at (9,1); seat 1: a Knight at
    (1,12). Returns (S, tb, knight, soldier, enemy)."""
    tb = record() if tb is None else tb
    S = position(tb, seed=seed)
    k = unit(S, tb, 0, "Knight", 5, 5, E)
    s = unit(S, tb, 0, "Soldier", 9, 1, N)
    e = unit(S, tb, 1, "Knight", 1, 12, W)
    return S, tb, k, s, e


def _outcomes(check, seeds=range(1, 80)) -> set:
    """Run check(seed) -> the roll it saw, over seeds; the set of rolls seen."""
    return {check(seed) for seed in seeds}


# --- acquiring, discarding, data-driven modifiers --------------------------------------------


def test_afflicts_one_of_each_and_durations():
    """TD-20.1 / TD-20.23: a Status only afflicts its Unit Types; one of each kind (the longer
    duration stays); a duration in Turns runs out at the end of Turns."""
    S, tb, k, _, e = _board(1)
    mage = unit(S, tb, 0, "Blade Master", 7, 7, N)  # Magical
    angel = unit(S, tb, 0, "Angel", 8, 8, N)  # Ethereal
    assert not _give(S, tb, mage, "Pumped") and not _has(S, mage, "Pumped")
    assert not _give(S, tb, k, "Silenced") and not _give(S, tb, angel, "Poisoned")
    assert not _give(S, tb, angel, "Burned") and not _give(S, tb, angel, "Lucky")
    assert _give(S, tb, k, "Pumped", 2) and _give(S, tb, k, "Pumped", 1)
    assert S["unit_status"][0, k, ST["Pumped"]] == 2
    units.end_turn(S, tb, B0)
    assert S["unit_status"][0, k, ST["Pumped"]] == 1
    units.end_turn(S, tb, B0)
    assert not _has(S, k, "Pumped")
    assert _give(S, tb, k, "Haste") and S["unit_status"][0, k, ST["Haste"]] == STATUS_PERMANENT


def test_dead_units_acquire_nothing_and_dead_discards_all():
    """TD-20.15: acquiring Dead discards every other Status; a Dead unit takes no other."""
    S, tb, k, _, _ = _board(1)
    _give(S, tb, k, "Pumped")
    _give(S, tb, k, "Burned")
    assert _give(S, tb, k, "Dead")
    assert [s for s in range(20) if S["unit_status"][0, k, s]] == [DEAD]
    assert not _give(S, tb, k, "Haste")


def test_fearful_and_enraged_cancel_each_other():
    """TD-20.8 / TD-20.18 `cancels`: acquiring one discards the other."""
    S, tb, k, _, _ = _board(1)
    _give(S, tb, k, "Fearful")
    _give(S, tb, k, "Enraged")
    assert _has(S, k, "Enraged") and not _has(S, k, "Fearful")
    _give(S, tb, k, "Fearful")
    assert _has(S, k, "Fearful") and not _has(S, k, "Enraged")


def test_strength_modifiers_from_the_table():
    """TD-20.6 Burned halves, TD-20.10/12/14 Pumped/Enchanted/Summoned +1, TD-20.20
    Petrified doubles; additions before halving and doubling (R32), rounding down (R19)."""
    S, tb, k, _, _ = _board(1)  # Knight 4/3/3/2

    def st(side=0):
        return int(combat.strength(S, tb, B0, I(k), I(side), I(0)))

    assert st() == 4
    _give(S, tb, k, "Pumped")
    assert st() == 5 and st(3) == 3
    _give(S, tb, k, "Burned")
    assert st() == 2 and st(1) == 2  # (4 + 1) // 2, (3 + 1) // 2
    units.discard_status(S, tb, B0, I(k), I(ST["Burned"]))
    _give(S, tb, k, "Petrified")
    assert st() == 10
    mage = unit(S, tb, 0, "Blade Master", 7, 7, N)  # 4/6/4/4
    _give(S, tb, mage, "Enchanted")
    assert int(combat.strength(S, tb, B0, I(mage), I(1), I(0))) == 7
    angel = unit(S, tb, 0, "Angel", 8, 8, N)  # 2/3/1/1
    _give(S, tb, angel, "Summoned")
    assert int(combat.strength(S, tb, B0, I(angel), I(0), I(0))) == 3


def test_frozen_halves_movement_and_forbids_charges():
    """TD-20.7: base Movement Rating halved (rounding down), no Charge Procedure."""
    S, tb, k, _, _ = _board(1)  # Knight: Movement Rating 4
    assert int(movement.movement_rating(S, tb, B0, I(k))) == 4
    _give(S, tb, k, "Frozen")
    assert int(movement.movement_rating(S, tb, B0, I(k))) == 2
    engage(S, tb, k)
    acts = legal(S, tb)
    assert A_CHARGE not in acts
    assert A_CELL + cell(tb, 5, 7) in acts and A_CELL + cell(tb, 5, 8) not in acts


# --- on Engagement ---------------------------------------------------------------------------


def test_paralyzed_disengages_on_one_or_two():
    """TD-20.3: on Engagement 1 D6 < 3 and the unit is Disengaged at once."""

    def check(seed):
        S, tb, k, _, _ = _board(seed)
        _give(S, tb, k, "Paralyzed")
        r = _next_roll(S)
        engage(S, tb, k)
        if r < 3:
            assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
            assert S["unit_engaged"][0, k] == 1
        else:
            assert S["stage"][0] == STAGE_MOVE and S["engaged"][0] == k
        return r < 3

    assert _outcomes(check) == {True, False}


def test_blinded_keeps_the_unit_out_of_the_combat_phase():
    """TD-20.4: on Engagement 1 D6 < 3: no Combat Phase this Turn."""

    def check(seed):
        S, tb, k, _, e = _board(seed)
        S["unit_cell"][0, e] = -1  # move the enemy in front of the Knight
        S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
        units.put(S, B0, I(e), I(cell(tb, 5, 6)))
        _give(S, tb, k, "Blinded")
        r = _next_roll(S)
        engage(S, tb, k)
        act(S, tb, A_END)  # end the Movement Phase
        if r < 3:
            assert S["stage"][0] == STAGE_ENGAGE
        else:
            assert S["stage"][0] == STAGE_COMBAT and A_STRIKE in legal(S, tb)
        return r < 3

    assert _outcomes(check) == {True, False}


def test_poisoned_dies_on_a_one():
    """TD-20.5: on Engagement 1 D6 < 2: the unit acquires Dead."""

    def check(seed):
        S, tb, k, _, _ = _board(seed)
        _give(S, tb, k, "Poisoned")
        r = _next_roll(S)
        engage(S, tb, k)
        assert (S["unit_status"][0, k, DEAD] != 0) == (r == 1)
        return r == 1

    assert _outcomes(check, range(1, 120)) == {True, False}


def test_haste_adds_a_d3_to_movement_this_turn():
    """TD-20.16: on Engagement roll 1 D3 and add it to the base Movement Rating (this Turn)."""
    seen = set()
    for seed in range(1, 40):
        S, tb, k, _, _ = _board(seed)
        _give(S, tb, k, "Haste")
        r = _next_roll(S, 3)
        engage(S, tb, k)
        assert int(movement.movement_rating(S, tb, B0, I(k))) == 4 + r
        seen.add(r)
        units.end_turn(S, tb, B0)
        assert int(movement.movement_rating(S, tb, B0, I(k))) == 4
    assert seen == {1, 2, 3}


def test_confused_rotates_clockwise_by_the_roll():
    """TD-20.22: on Engagement 1 D6 >= 4 nothing; else rotate clockwise as many times as
    rolled, count as moved, and the Movement Phase ends."""

    def check(seed):
        S, tb, k, _, _ = _board(seed)
        _give(S, tb, k, "Confused")
        r = _next_roll(S)
        engage(S, tb, k)
        if r <= 3:
            assert S["unit_facing"][0, k] == (E + r) % 4 and S["unit_moved"][0, k] == 1
            assert S["stage"][0] != STAGE_MOVE
        else:
            assert S["unit_facing"][0, k] == E and S["stage"][0] == STAGE_MOVE
        return r <= 3

    assert _outcomes(check) == {True, False}


def test_petrified_breaks_free_on_a_six_and_doubles_strength():
    """TD-20.20 / R34: Disengaged at once unless 1 D6 = 6 on Engagement; then its player
    chooses (STAGE_EFFECT): discard it and act normally, or keep it and stay Disengaged;
    never Locked in Combat: acquiring it ends a lock."""

    def check(seed):
        S, tb, k, _, e = _board(seed)
        _give(S, tb, k, "Petrified")
        r = _next_roll(S)
        acts = engage(S, tb, k)
        if r == 6:
            petrified = A_STATUS + ST["Petrified"]
            assert S["stage"][0] == STAGE_EFFECT and sorted(acts) == [A_END, petrified]
            kept = S.copy()
            act(kept, tb, A_END)
            assert _has(kept, k, "Petrified") and kept["stage"][0] == STAGE_ENGAGE
            act(S, tb, petrified)
            assert not _has(S, k, "Petrified") and S["stage"][0] == STAGE_MOVE
        else:
            assert _has(S, k, "Petrified") and S["stage"][0] == STAGE_ENGAGE
        return r == 6

    assert _outcomes(check, range(1, 120)) == {True, False}
    S, tb, k, _, e = _board(1)
    S["unit_lock"][0, k], S["unit_lock"][0, e] = e, k
    _give(S, tb, k, "Petrified")
    assert S["unit_lock"][0, k] == -1 and S["unit_lock"][0, e] == -1
    assert not units.may_lock(S, tb, B0, I(k))


def test_fearful_flees_toward_the_nearest_ally_or_overcomes_fear():
    """TD-20.8 / R3 / R33 / R34: 1-2 the unit must charge toward the nearest ally (turning
    first); 3-5 acts normally; 6: its player may discard Fearful (STAGE_EFFECT), which it may
    then not regain this Turn; kept, the unit still acts normally."""

    def check(seed):
        S, tb, k, s, _ = _board(seed)  # ally Soldier at (9,1): south-west of the Knight
        _give(S, tb, k, "Fearful")
        r = _next_roll(S)
        acts = engage(S, tb, k)
        if r == 6:
            fearful = A_STATUS + ST["Fearful"]
            assert S["stage"][0] == STAGE_EFFECT and sorted(acts) == [A_END, fearful]
            kept = S.copy()
            acts_kept = act(kept, tb, A_END)
            assert _has(kept, k, "Fearful") and A_END in acts_kept and A_CHARGE in acts_kept
            acts = act(S, tb, fearful)
        if r <= 2:
            assert sorted(acts) == [A_FACE + S_, A_FACE + W]  # turn toward it, then charge
            acts = act(S, tb, A_FACE + S_)
            assert acts == [A_CHARGE]
        else:
            assert A_END in acts and A_CHARGE in acts
            assert _has(S, k, "Fearful") == (r != 6)
            if r == 6:
                assert not _give(S, tb, k, "Fearful")
        return "flee" if r <= 2 else ("normal" if r < 6 else "discard")

    assert _outcomes(check) == {"flee", "normal", "discard"}


def test_enraged_must_advance_and_attack_on_contact():
    """TD-20.18 / R33: a Movement or Charge Procedure toward the closest enemy is forced; in
    contact with an enemy it must attack (no End Combat Phase)."""
    S, tb, k, _, e = _board(1)
    _give(S, tb, k, "Enraged")
    acts = engage(S, tb, k)
    assert A_END not in acts
    moves = [a - A_CELL for a in acts if a < 308]
    here = abs(5 - 1) + abs(5 - 12)
    assert moves and all(abs(c // 14 - 1) + abs(c % 14 - 12) < here for c in moves)
    # in contact: must strike
    S, tb, k, _, e = _board(2)
    S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
    units.put(S, B0, I(e), I(cell(tb, 5, 6)))
    _give(S, tb, k, "Enraged")
    acts = engage(S, tb, k)  # nowhere nearer: the Movement Phase ends by itself
    assert acts == [A_STRIKE] and S["stage"][0] == STAGE_COMBAT


# --- always, before Disengagement, end of Turn -------------------------------------------------


def test_crippled_forbids_its_attack_and_wears_off_on_five_or_six():
    """TD-20.9 (and 20.11, 20.13 by the same rows): no attack of the unit's own type; before
    Disengagement 1 D6 of 5-6 discards it."""

    def check(seed):
        S, tb, k, _, e = _board(seed)
        S["cell_unit"][0, cell(tb, 1, 12), 0] = -1
        units.put(S, B0, I(e), I(cell(tb, 5, 6)))
        _give(S, tb, k, "Crippled")
        engage(S, tb, k)
        r = _next_roll(S)
        act(S, tb, A_END)  # Movement Phase over; the Combat Phase has only End: Disengaged
        assert S["stage"][0] == STAGE_ENGAGE and not S["unit_fought"][0, k]
        assert _has(S, k, "Crippled") == (r < 5)
        return r >= 5

    assert _outcomes(check) == {True, False}
    mage = record()
    S = position(mage, seed=3)
    m = unit(S, mage, 0, "Blade Master", 5, 5, E)
    unit(S, mage, 1, "Knight", 5, 6, W)
    _give(S, mage, m, "Silenced")
    engage(S, mage, m)
    acts = act(S, mage, A_END)
    assert not any(A_STRIKE <= a < A_STRIKE + 4 for a in acts)


def test_feared_frightens_adjacent_enemies_at_the_end_of_a_turn():
    """TD-20.19: enemies in direct contact at the end of either player's Turn acquire Fearful;
    an enemy farther away does not."""
    S, tb, k, _, e = _board(1)
    near = unit(S, tb, 1, "Soldier", 4, 5, S_)
    _give(S, tb, k, "Feared")
    units.end_turn(S, tb, B0)
    assert _has(S, near, "Fearful") and not _has(S, e, "Fearful")


def test_reflective_sends_magical_attacks_back():
    """TD-20.21: a Magical attack on a Reflective unit is reflected after the Combat Phase:
    the attacker defends against the same strength on the same side and may die of it; a
    Physical attack is not reflected."""

    def attacker_deaths(name, reflective):
        deaths = 0
        for seed in range(1, 40):
            tb = record()
            S = position(tb, seed=seed)
            a = unit(S, tb, 0, name, 5, 5, E)
            d = unit(S, tb, 1, "Juggernaught", 5, 6, W)  # 6/6/6/3: hard to kill
            unit(S, tb, 1, "Soldier", 9, 9, N)
            if reflective:
                _give(S, tb, d, "Reflective")
            engage(S, tb, a)
            act(S, tb, A_END)
            act(S, tb, A_STRIKE + 1)  # left side (Physical attackers: front only)
            deaths += int(S["unit_status"][0, a, DEAD] != 0)
        return deaths

    assert attacker_deaths("Blade Master", True) > 0
    assert attacker_deaths("Blade Master", False) == 0


def test_enraged_is_discarded_after_killing_an_enemy():
    """TD-20.18 / R34: a unit with Enraged that causes an enemy to acquire Dead may discard
    Enraged: its player is asked once the attack is over (STAGE_EFFECT), keeping it or not;
    while it has not killed, nothing is asked and it keeps it."""
    outcomes = set()
    enraged = A_STATUS + ST["Enraged"]
    for seed in range(1, 30):
        tb = record()
        S = position(tb, seed=seed)
        k = unit(S, tb, 0, "Paladin", 5, 5, E)  # 7 front
        foe = unit(S, tb, 1, "Soldier", 5, 6, W)  # 2 front
        unit(S, tb, 1, "Soldier", 0, 0, S_)
        _give(S, tb, k, "Enraged")
        assert engage(S, tb, k) == [A_STRIKE]
        acts = act(S, tb, A_STRIKE)
        killed = bool(S["unit_status"][0, foe, DEAD] != 0)
        assert (S["stage"][0] == STAGE_EFFECT) == killed
        assert _has(S, k, "Enraged")
        if killed:
            assert sorted(acts) == [A_END, enraged]
            kept = S.copy()
            act(kept, tb, A_END)
            assert _has(kept, k, "Enraged") and kept["stage"][0] != STAGE_EFFECT
            act(S, tb, enraged)
            assert not _has(S, k, "Enraged") and S["stage"][0] != STAGE_EFFECT
        outcomes.add(killed)
    assert outcomes == {True, False}
