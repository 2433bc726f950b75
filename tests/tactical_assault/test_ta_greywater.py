"""Greywater Ford: forces chosen by points by the players (LB I8, R23), the units_exit end
condition (LB I3, R22), and random whole games with every invariant checked."""

from __future__ import annotations

import numpy as np

from envs.core.rng import randint
from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, state, turn


def _legal(S, tb) -> list[int]:
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    n = turn.legal_actions(S, tb, 0, out)
    return [int(x) for x in out[:n]]


def test_forces_are_chosen_by_points_by_each_player(greywater):
    tb = greywater
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, 5, 0)
    # the Northmarch Host (30 points, any Table 3 type) chooses first, unit by unit
    assert (S["stage"][0], S["current"][0]) == (A.STAGE_CHOOSE_FORCE, 0)
    assert (S["unit_side"][0] == -1).all()
    legal = _legal(S, tb)
    assert A.A_PASS not in legal  # at least one unit
    assert {a - A.A_UNIT for a in legal} == {t for t in range(20) if tb.type_points[t] <= 30}
    dear = max(range(20), key=lambda t: int(tb.type_points[t]))
    turn.apply_action(S, tb, 0, A.A_UNIT + dear)
    assert S["unit_side"][0, 0] == 0 and S["unit_type"][0, 0] == dear
    assert S["unit_where"][0, 0] == state.WHERE_OFF
    left = 30 - int(tb.type_points[dear])
    assert S["points_total"][0, 0] == 30 - left
    legal = _legal(S, tb)
    assert A.A_PASS in legal
    assert {a - A.A_UNIT for a in legal if a != A.A_PASS} == {
        t for t in range(20) if tb.type_points[t] <= left
    }
    turn.apply_action(S, tb, 0, A.A_PASS)
    # the Fen Wardens: 24 points, only their allowed types (no MONSTROUS, CAVALRY, ...)
    assert (S["stage"][0], S["current"][0]) == (A.STAGE_CHOOSE_FORCE, 1)
    allowed = {t for t in range(20) if tb.sc_allowed[1, t]}
    assert len(allowed) == 12
    assert {a - A.A_UNIT for a in _legal(S, tb)} == {t for t in allowed if tb.type_points[t] <= 24}
    cheap = min(allowed, key=lambda t: int(tb.type_points[t]))
    while True:
        legal = _legal(S, tb)
        if A.A_UNIT + cheap not in legal:
            break
        turn.apply_action(S, tb, 0, A.A_UNIT + cheap)
    assert S["points_total"][0, 1] <= 24 < S["points_total"][0, 1] + tb.type_points[cheap]
    turn.apply_action(S, tb, 0, A.A_PASS)
    # deployment: the Wardens place first (Wardens Were Waiting), only the chosen units
    assert (S["stage"][0], S["current"][0]) == (A.STAGE_DEPLOY_UNIT, 1)
    mine = {a - A.A_UNIT for a in _legal(S, tb)}
    assert mine == {u for u in range(state.MAX_UNITS) if S["unit_side"][0, u] == 1} - {
        u for u in range(state.MAX_UNITS) if S["unit_type"][0, u] == tb.type_aerial
    } - {u for u in range(state.MAX_UNITS) if S["unit_type"][0, u] == tb.type_infiltrator}


def test_units_exit_across_the_east_edge_and_win(greywater):
    """Random games until a Northmarch unit on the east edge may leave the map (A_EXIT):
    it leaves, is not Eliminated, and three such units win the game for side 0."""
    tb = greywater
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    exits = 0
    for g in range(1000):
        if exits:
            break
        flow.reset_game(S, tb, 0, 7, g)
        while S["stage"][0] != A.STAGE_GAME_OVER:
            n = turn.legal_actions(S, tb, 0, out)
            legal = out[:n]
            if A.A_EXIT in legal:
                assert S["stage"][0] == A.STAGE_MOVE and S["current"][0] == 0
                u = int(S["fr_unit"][0, S["depth"][0] - 1])
                assert tb.vc_exit[S["unit_pos"][0, u]]
                lost = S["points_lost"][0].copy()
                before = int(S["units_exited"][0, 0])
                turn.apply_action(S, tb, 0, A.A_EXIT)
                assert S["unit_where"][0, u] == state.WHERE_EXITED
                assert S["units_exited"][0, 0] == before + 1
                assert (S["points_lost"][0] == lost).all()
                assert invariants.check(S, tb, 0) == ""
                exits += 1
                if S["units_exited"][0, 0] >= 3:
                    assert S["winner"][0] == 0
                continue
            turn.apply_action(S, tb, 0, int(legal[randint(S["agent_rng"], 0, n)]))
    assert exits > 0, "no exit came up"
    flow.reset_game(S, tb, 0, 7, 0)  # a fresh game: two units leaving do not end it, a third does
    while S["stage"][0] != A.STAGE_MAIN:
        n = turn.legal_actions(S, tb, 0, out)
        turn.apply_action(S, tb, 0, int(out[randint(S["agent_rng"], 0, n)]))
    S["units_exited"][0] = (2, 0)
    assert not flow.check_victory(S, tb, 0)
    S["units_exited"][0] = (3, 0)
    assert flow.check_victory(S, tb, 0) and S["winner"][0] == 0


def test_fuzzer_plays_greywater_ford_with_every_invariant(greywater):
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, greywater, 0, 3, 0, 300, out)
    assert (games, bad, code) == (300, -1, invariants.OK)
    assert decisions > 300 * 100
