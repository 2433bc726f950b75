"""The numba invariant check (invariants.check_codes) the fuzzer runs at every decision: it
passes every state of real games and names each kind of corruption, as the Python
violations() does (the two must agree, or the fuzzer checks something else than the tests)."""

from __future__ import annotations

import numpy as np
import pytest

from envs import make_env
from envs.tactics_david import invariants as inv
from envs.tactics_david import state as st
from envs.tactics_david.ruleset import ruleset


def _states(seed: int) -> list[np.ndarray]:
    env = make_env("tactics_david").unwrapped
    env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    states = []
    while not env.terminations[env.agent_selection]:
        states.append(env.state())
        legal = np.flatnonzero(env.observe(env.agent_selection)["action_mask"])
        env.step(int(rng.choice(legal)))
    return states + [env.state()]


@pytest.fixture(scope="module")
def tb():
    return ruleset().tables_batch.view(np.recarray)[0]


@pytest.fixture(scope="module")
def mid_game() -> np.ndarray:
    """A state with units on the battlefield and two cards or more in the Item Deck."""
    for S in _states(31):
        on_field = (S["unit_place"][0] == st.PLACE_FIELD).sum()
        if on_field >= 4 and S["deck_count"][0] >= 2 and S["turn"][0] >= 2:
            return S
    raise AssertionError("no game reached a position with units on the field")


def test_real_states_pass_both_checks(tb):
    for seed in (3, 4):
        for S in _states(seed):
            assert inv.check_codes(S, tb, 0) == inv.OK, inv.violations(S, tb, 0)
            assert inv.check_state(S, tb, 0) == []


def _field_unit(S, p=0) -> int:
    return int(
        next(
            u
            for u in range(p * st.MAX_UNITS, (p + 1) * st.MAX_UNITS)
            if S["unit_place"][0, u] == st.PLACE_FIELD
        )
    )


def _wrong_slot_item(S, tb):
    u = _field_unit(S)
    item = int(S["deck"][0, 0])
    S["deck"][0, 0] = S["deck"][0, S["deck_count"][0] - 1]  # moved, not copied
    S["deck_count"][0] -= 1
    S["deck"][0, S["deck_count"][0]] = -1
    S["unit_item"][0, u, (int(tb.it_type[item]) + 1) % st.N_ITEM_SLOTS] = item


def _moved_without_its_space(S, tb):
    u = _field_unit(S)
    c = int(S["unit_cell"][0, u])
    S["unit_cell"][0, u] = next(
        x
        for x in range(int(tb.bf_rows[S["battlefield"][0]] * tb.bf_cols[S["battlefield"][0]]))
        if x != c and S["cell_unit"][0, x, 0] < 0 and tb.bf_height[S["battlefield"][0], x] == 0
    )


def _locked_with_an_ally(S, tb):
    u = _field_unit(S)
    v = next(w for w in range(st.MAX_UNITS) if w != u and S["unit_place"][0, w] != st.PLACE_NONE)
    S["unit_lock"][0, u] = v
    S["unit_lock"][0, v] = u


def _possessed_past_its_turn(S, tb):
    """tdabI: a unit still under the other seat's control when its owner's Turn has come."""
    u = _field_unit(S)
    first = int(S["first_player"][0])
    owner_turn = first if int(S["turn"][0]) % 2 == 1 else 1 - first
    p = u // st.MAX_UNITS
    if owner_turn != p:  # make it its owner's Turn
        S["turn"][0] += 1
    S["unit_ctrl"][0, u] = 1 - p


CORRUPTIONS = {
    "turn": lambda S, tb: S["current"].__setitem__(0, 5),
    "result": lambda S, tb: S["score"].__setitem__((0, 1), 7),
    "place": lambda S, tb: S["unit_place"].__setitem__((0, 0), st.PLACE_NONE),  # bought
    "strength": lambda S, tb: S["unit_strength"].__setitem__(
        (0, _field_unit(S), 2), tb.strength_min - 1
    ),
    "status": lambda S, tb: S["unit_status"].__setitem__((0, _field_unit(S), 0), -2),
    "item": _wrong_slot_item,
    "space": _moved_without_its_space,
    "lock": _locked_with_an_ally,
    "army": lambda S, tb: S["army_cost"].__setitem__((0, 1), S["army_cost"][0, 1] + 1),
    "deck": lambda S, tb: S["deck"].__setitem__((0, 0), S["deck"][0, 1]),
    "control": _possessed_past_its_turn,
    # tdabH: a space flooded with no Floodplains unit in Water to flood it (R124)
    "flood": lambda S, tb: S["flood"].__setitem__((0, 0), 1 - S["flood"][0, 0]),
}


def test_every_code_has_a_corruption_here():
    assert set(CORRUPTIONS) == set(inv.CODE_NAMES[1:])


@pytest.mark.parametrize("what", list(CORRUPTIONS))
def test_each_corruption_gets_its_code_and_a_sentence(what, tb, mid_game):
    bad = mid_game.copy()
    CORRUPTIONS[what](bad, tb)
    assert inv.CODE_NAMES[inv.check_codes(bad, tb, 0)] == what
    assert inv.check_state(bad, tb, 0) != []


def test_the_fuzzer_reports_a_broken_invariant(monkeypatch):
    """The fuzzer counts what check_codes finds and says what broke first (here a check made
    to fail on a game's first state: every game is reported once, not once per decision)."""
    rs = ruleset()
    real = inv.check_batch

    def broken_at_the_start(S, tba):
        codes = real(S, tba)
        codes[S["decisions"] == 0] = inv.BAD_ARMY
        return codes

    monkeypatch.setattr(inv, "check_batch", broken_at_the_start)
    broken, first, decisions = inv.fuzz(rs.tables_batch, 20, seed=5, batch=8)
    assert broken == {"army": 20}
    assert first is not None and first[1] == 0
    assert decisions > 20 * 20
    monkeypatch.setattr(inv, "check_batch", real)
    assert inv.fuzz(rs.tables_batch, 20, seed=5, batch=8)[::2] == ({}, decisions)


def test_the_fuzzer_reports_a_game_left_without_a_legal_action(monkeypatch):
    """A game whose legal-action mask is empty before its end is reported once (it cannot go
    on, so it leaves the batch) and the other games still play to their end: here the step
    kernel is made to empty the mask of every game at its 10th decision."""
    from envs.tactics_david import kernels

    rs = ruleset()
    real = kernels.step_batch

    def empties_the_mask(S, tba, actions, masks, *rest):
        real(S, tba, actions, masks, *rest)
        masks[S["decisions"] == 10] = 0

    monkeypatch.setattr(kernels, "step_batch", empties_the_mask)
    broken, first, decisions = inv.fuzz(rs.tables_batch, 20, seed=5, batch=8)
    assert broken == {inv.NO_LEGAL_ACTION: 20}
    assert first is not None and first[1:] == (10, inv.NO_LEGAL_ACTION)
    assert decisions == 20 * 10
