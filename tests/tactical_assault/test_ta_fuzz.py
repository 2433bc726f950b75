"""The in-kernel invariant check and fuzzer (invariants.check_codes, invariants.fuzz)."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, state, turn


def test_fuzzer_plays_games_with_every_invariant_after_every_decision(crossroads):
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, crossroads, 0, 4, 0, 30, out)
    assert (games, bad, code) == (30, -1, invariants.OK)
    assert decisions > 30 * 100


@pytest.mark.parametrize(
    ("break_it", "code"),
    [
        (lambda S: S["card_place"][0, 0].__setitem__(int(S["deck"][0, 0, 0]), 2), "deck"),
        (lambda S: S["card_place"][0, 1].__setitem__(int(S["deck"][0, 1, 5]), 3), "played"),
        (lambda S: S["points_lost"][0].__setitem__(1, 3), "points"),
        (lambda S: S["unit_pos"][0].__setitem__(1, S["unit_pos"][0, 0]), "sharing"),
        (lambda S: S["unit_pos"][0].__setitem__(0, 200), "position"),
    ],
)
def test_invariant_codes_catch_broken_games(crossroads, break_it, code):
    """Each check can fail, and the numba and Python checks agree."""
    S = state.allocate(1)
    flow.reset_game(S, crossroads, 0, 2, 0)
    assert invariants.check_codes(S, crossroads, 0) == invariants.OK
    assert invariants.check(S, crossroads, 0) == ""
    break_it(S)
    got = invariants.check_codes(S, crossroads, 0)
    assert invariants.CODE_NAMES[got] == code
    assert invariants.check(S, crossroads, 0) != ""


def test_fall_back_out_of_a_multi_unit_close_combat_regression(crossroads):
    """Fuzz find (seed 20261124, game 12686): a Raider Falls Back out of a zone holding two
    Watch units; while it moves (its opponent's windows), the zone it left is settled only when
    the Fall Back ends, and then one Watch unit holds it."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    assert invariants.fuzz(S, crossroads, 0, 20261124, 12686, 1, out)[2:] == (-1, invariants.OK)


def test_unit_eliminated_while_falling_back_regression(crossroads):
    """Fuzz find (seed 20261124, game 84579): a Watch unit Falling Back out of a zone two
    Raiders had entered is Eliminated by Opportunity Fire on the way; the zone it left is
    still settled (the Raiders' side picks the one that remains)."""
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    assert invariants.fuzz(S, crossroads, 0, 20261124, 84579, 1, out)[2:] == (-1, invariants.OK)


def test_fuzzer_on_a_map_with_every_special_unit(tmp_path):
    """Random games on a hand-made map with Aerial units, Infiltrators, Sappers, Obstacles,
    War Machines and a Cliff with one gap: every invariant after every decision; and the
    special decisions do come up (aerial attack side, infiltration, an Obstacle cleared)."""
    from ta_helpers import record

    rows = [" ".join(["."] * 10)] * 10
    ours = [("INFANTRY", "I", 2), ("WAR MACHINE", "W", 4), ("ARCHER", "A", 6), ("SAPPER", "X", 1)]
    theirs = [("INFANTRY", "i", 2), ("WAR MACHINE", "w", 4), ("MILITIA", "m", 6)]
    units0 = [{"type": t, "label": lb, "zone": [c, 0], "facing": "S"} for t, lb, c in ours]
    units1 = [{"type": t, "label": lb, "zone": [c, 9], "facing": "N"} for t, lb, c in theirs]
    units1.append({"type": "SAPPER", "label": "x", "zone": [1, 9], "facing": "N"})
    for units, tag in ((units0, "FYOP"), (units1, "fyop")):
        units += [
            {"type": "INFILTRATOR", "label": tag[0]},
            {"type": "AERIAL", "label": tag[1]},
            {"type": "OBSTACLE", "label": tag[2]},
            {"type": "OBSTACLE", "label": tag[3]},
        ]
    cliff = [{"terrain": "Cliff", "sides": [[c, 4, "S"] for c in range(10) if c != 5]}]
    tb = record(rows, tmp_path, units0=units0, units1=units1, linear=cliff)
    S = state.allocate(1)
    out = np.zeros(A.N_ACTIONS, dtype=np.int64)
    games, decisions, bad, code = invariants.fuzz(S, tb, 0, 11, 0, 200, out)
    assert (games, bad, code) == (200, -1, invariants.OK)
    seen = set()
    cleared = 0
    obstacles = [u for u in range(tb.sc_n_units) if tb.sc_unit_type[u] == tb.type_obstacle]
    assert len(obstacles) == 4
    for g in range(8):
        flow.reset_game(S, tb, 0, 11, g)
        while S["stage"][0] != A.STAGE_GAME_OVER:
            seen.add(int(S["stage"][0]))
            n = turn.legal_actions(S, tb, 0, out)
            turn.apply_action(S, tb, 0, int(out[rng_pick(S, n)]))
        cleared += sum(int(S["unit_where"][0, u] == state.WHERE_OFF) for u in obstacles)
    assert {A.STAGE_AERIAL_SIDE, A.STAGE_INFILTRATE} <= seen
    assert cleared > 0


def rng_pick(S, n: int) -> int:
    from envs.core.rng import randint

    return int(randint(S["agent_rng"], 0, n))
