"""Whole games on a shipped Legendary Battles scenario (Crossroads of Hallin) by the rules
built so far: deployment, reinforcements, the first-turn rule, the turn limit and its hold-the-
zones rule, and random play with every invariant checked after every decision."""

from __future__ import annotations

import numpy as np
from ta_helpers import legal

from envs.legendary_battles.tables import load_tables as load_lb
from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, state, turn

SA = load_lb().scenarios["Crossroads of Hallin"]
LABEL = {lbl: i for i, lbl in enumerate(SA.unit_label)}


def play_random(tb, seed: int, check: bool = True, stop=None):
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, seed, seed)
    rng = np.random.default_rng(seed)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    trace = []
    while S["stage"][0] != A.STAGE_GAME_OVER:
        if stop is not None and stop(S):
            break
        n = turn.legal_actions(S, tb, 0, out)
        assert n > 0, A.STAGE_NAMES[int(S["stage"][0])]
        assert len(set(out[:n].tolist())) == n
        a = int(out[rng.integers(n)])
        trace.append(a)
        turn.apply_action(S, tb, 0, a)
        if check:
            msg = invariants.check(S, tb, 0)
            assert msg == "", (seed, len(trace), msg)
        assert len(trace) < 20_000
    return S, trace


def test_random_whole_games_keep_every_invariant(crossroads):
    results = []
    for seed in range(12):
        S, trace = play_random(crossroads, seed)
        assert S["winner"][0] in (-1, 0, 1)
        assert S["rewards"][0].sum() == 0
        results.append((int(S["winner"][0]), int(S["turn"][0]), len(trace)))
    # games end by the turn limit (10 turns each) or earlier by a victory condition
    assert all(t <= 20 for _, t, _ in results)


def test_deployment_places_units_alternately_in_their_areas(crossroads):
    """LB I8: units without a zone are placed one at a time, alternating, in their side's
    deployment area; the side that placed first is decided by FC's card draw."""
    S = state.allocate(1)
    flow.reset_game(S, crossroads, 0, 3, 0)
    first = int(S["placed_first"][0])
    seats = []
    while S["deploying"][0] == flow.DEPLOY_START:
        assert S["stage"][0] == A.STAGE_DEPLOY_UNIT
        seats.append(int(S["current"][0]))
        acts = legal(S, crossroads)
        turn.apply_action(S, crossroads, 0, acts[0])
        u = int(S["sel_unit"][0])
        zones = [a - A.A_POS for a in legal(S, crossroads)]
        assert zones and all(SA.deployment[seats[-1], z] for z in zones)
        turn.apply_action(S, crossroads, 0, A.A_POS + zones[-1])
        assert S["stage"][0] == A.STAGE_FACING
        turn.apply_action(S, crossroads, 0, A.A_FACING + 2)
        assert S["unit_pos"][0, u] == zones[-1] and S["unit_facing"][0, u] == 2
    # Watch places 2 (M, N; K and L are reinforcements), Raiders 7: alternate, then the rest
    assert seats[0] == first
    assert seats.count(0) == 2 and seats.count(1) == 7
    assert seats[:4] == [first, 1 - first, first, 1 - first]
    assert S["unit_where"][0, LABEL["K"]] == state.WHERE_OFF
    # then the start-of-game Situations window, the player who placed first asked first
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == first


def test_raiders_take_the_first_turn_and_riders_arrive_on_turn_4(crossroads):
    """Scenario rules (LB I3): first_turn (the Raiders), reinforcements (K and L enter the
    north edge at the start of the Watch's 4th turn)."""

    def at_watch_turn_4(S):
        return S["active"][0] == 0 and S["turns_of"][0, 0] == 4

    S, trace = play_random(crossroads, 11, check=False, stop=at_watch_turn_4)
    if S["stage"][0] == A.STAGE_GAME_OVER:
        return  # decided before (random play); other seeds cover the arrival
    assert S["stage"][0] == A.STAGE_DEPLOY_UNIT and S["deploying"][0] == flow.DEPLOY_REINFORCE
    assert set(legal(S, crossroads)) == {A.A_UNIT + LABEL["K"], A.A_UNIT + LABEL["L"]}
    turn.apply_action(S, crossroads, 0, A.A_UNIT + LABEL["K"])
    zones = [a - A.A_POS for a in legal(S, crossroads)]
    assert zones and all(SA.grid.row[z] == 0 for z in zones)
    S2 = state.allocate(1)
    flow.reset_game(S2, crossroads, 0, 11, 11)
    while S2["stage"][0] != A.STAGE_MAIN:
        turn.apply_action(S2, crossroads, 0, legal(S2, crossroads)[-1])
    assert S2["active"][0] == 1 and S2["turns_of"][0].tolist() == [0, 1]


def test_time_called_the_raiders_win_only_holding_the_crossroads(crossroads):
    """end_of_game.at_turn_limit: hold_zones: the Raiders win if they hold all four
    crossroads zones (a unit in each, no enemy), else the Watch wins."""
    S = state.allocate(1)
    flow.reset_game(S, crossroads, 0, 1, 0)
    hold = [z for z in range(SA.grid.n_zones) if crossroads.vc_hold[z]]
    raiders = [u for u in range(15) if SA.unit_side[u] == 1]
    for u in range(15):
        S["unit_where"][0, u] = state.WHERE_OFF
        S["unit_pos"][0, u] = -1
    for u, z in zip(raiders, hold, strict=False):
        S["unit_where"][0, u] = state.WHERE_ON
        S["unit_pos"][0, u] = z
    flow.time_called(S, crossroads, 0)
    assert S["winner"][0] == 1
    S["unit_where"][0, LABEL["C"]] = state.WHERE_ON
    S["unit_pos"][0, LABEL["C"]] = hold[0]
    flow.time_called(S, crossroads, 0)
    assert S["winner"][0] == 0


def test_same_seed_same_game(crossroads):
    S1, t1 = play_random(crossroads, 5, check=False)
    S2, t2 = play_random(crossroads, 5, check=False)
    assert t1 == t2
    assert S1.tobytes() == S2.tobytes()


def test_in_kernel_random_playout_finishes_games_reproducibly(crossroads):
    """turn.random_playout: whole games inside numba with the game's own agent RNG; the same
    seed and game index give the same game."""
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    ends = []
    for _rep in range(2):
        S = state.allocate(1)
        row = []
        for g in range(40):
            flow.reset_game(S, crossroads, 0, 17, g)
            d = turn.random_playout(S, crossroads, 0, out, 100_000)
            assert d > 0 and S["stage"][0] == A.STAGE_GAME_OVER
            assert invariants.check(S, crossroads, 0) == ""
            row.append((d, int(S["winner"][0]), S["points_lost"][0].tolist()))
        ends.append(row)
    assert ends[0] == ends[1]


def _deployed(tb, seed=3):
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, seed, 0)
    while S["deploying"][0] == flow.DEPLOY_START:
        turn.apply_action(S, tb, 0, legal(S, tb)[0])
    return S


def test_start_of_game_situations_window_alternates_until_both_pass(crossroads):
    """Table 1 "Play Any Situations" (R12): the player who placed first is asked first, then
    the other; two passes in a row begin the first turn."""
    S = _deployed(crossroads)
    first = int(S["placed_first"][0])
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == first
    turn.apply_action(S, crossroads, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1 - first
    turn.apply_action(S, crossroads, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_MAIN and S["active"][0] == 1  # the Raiders (first_turn)


def test_reinforcements_with_no_empty_zone_wait_a_turn(crossroads):
    """LB I3 reinforcements: units that cannot enter (every zone of the north edge taken)
    wait a turn; with a zone free they are placed there at the start of the next turn."""
    S = _deployed(crossroads)
    north = [z for z in range(SA.grid.n_zones) if SA.grid.row[z] == 0]
    others = [u for u in range(15) if u not in (LABEL["K"], LABEL["L"])]
    for u, zz in zip(others, north, strict=False):  # 13 units fill the 10 north zones
        S["unit_where"][0, u] = state.WHERE_ON
        S["unit_pos"][0, u] = zz
    S["turns_of"][0] = [3, 3]
    flow.start_turn(S, crossroads, 0, 0)
    assert S["stage"][0] == A.STAGE_MAIN
    assert S["unit_arrives"][0, [LABEL["K"], LABEL["L"]]].tolist() == [5, 5]
    assert S["unit_where"][0, LABEL["K"]] == state.WHERE_OFF
    S["unit_pos"][0, others[0]] = SA.grid.zone(5, 5)  # one north zone freed
    S["turns_of"][0] = [4, 4]
    flow.start_turn(S, crossroads, 0, 0)
    assert S["stage"][0] == A.STAGE_DEPLOY_UNIT
    assert set(legal(S, crossroads)) == {A.A_UNIT + LABEL["K"], A.A_UNIT + LABEL["L"]}
    turn.apply_action(S, crossroads, 0, A.A_UNIT + LABEL["K"])
    assert legal(S, crossroads) == [A.A_POS + north[0]]
