"""Target Points on a zone map (FC I6, I14; LB "Random drift movement", "Measuring an effect
radius"): the drift route through zone centres, equal options chosen by the reference unit's
owner, the radius counted from the final zone."""

from __future__ import annotations

import pytest
from ta_helpers import card_with, hand, legal, record, stack_top, started

from envs.fantasy_cards import tabletop as tt
from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, state, turn

ROWS = [" ".join(["."] * 7)] * 7
OURS = [{"type": "ARTILLERY", "label": "A", "zone": [0, 0], "facing": "S"}]
THEIRS = [
    {"type": "INFANTRY", "label": "i", "zone": [3, 1], "facing": "W"},
    {"type": "MILITIA", "label": "m", "zone": [1, 2], "facing": "N"},
]
ART, INF, MIL = 0, 1, 2


@pytest.fixture(scope="module")
def tb(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("tp"), units0=OURS, units1=THEIRS)


def z(c, r):
    return r * 7 + c  # a full 7 x 7 square map


def test_drift_route_through_zone_centres_with_equal_options(tb):
    """LB "Determining the route" / "Moving the target point": the zones the line from the
    point's zone through the reference unit's zone enters, a corner passed giving two equal
    options; it stops on the reference's zone. Very Short and Short are 1 zone here."""
    assert sorted(tb.g_drift[z(2, 2), z(0, 0), 0].tolist()) == sorted([z(1, 2), z(2, 1)])
    assert tb.g_drift[z(2, 0), z(0, 0), 0].tolist() == [z(1, 0), -1]
    assert tb.g_drift[z(1, 0), z(0, 0), 1].tolist() == [z(0, 0), -1]


def _main0(S, tb):
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


def _cards(result: str, but: set[int]) -> list[int]:
    fc = tt._fc_tables()
    return [k for k in range(72) if fc.result_names[fc.card_result[k]] == result and k not in but]


def test_equal_drift_options_are_the_reference_owners_choice_then_the_radius(tb):
    """FC I6: a Fall Back drift card moves the point a Very Short Distance towards the
    attacking unit; from (2, 2) towards (0, 0) the line passes a corner, so the attacker's
    player (who owns the reference unit) picks (2, 1) or (1, 2) (LB "Making decisions"). From
    (2, 1) a radius of Very Short (1 zone, the point's zone not counted: LB "Measuring an effect
    radius") reaches the INFANTRY at (3, 1), not the MILITIA at (1, 2)."""
    S = started(tb)
    _main0(S, tb)
    bomb = card_with(action="Bombard")
    hand(S, 0, [bomb])
    drift = _cards("Fall Back", {bomb})[0]
    hit = _cards("Eliminated", {bomb})[0]
    stack_top(S, 0, [hit, drift])
    turn.apply_action(S, tb, 0, A.A_ACTION + bomb)
    turn.apply_action(S, tb, 0, A.A_UNIT + ART)
    while S["stage"][0] == A.STAGE_WINDOW:
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_TARGET_POINT
    assert A.A_POS + z(2, 2) in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_POS + z(2, 2))
    assert S["stage"][0] == A.STAGE_DRIFT_TIE and S["current"][0] == 0
    assert sorted(legal(S, tb)) == sorted([A.A_POS + z(1, 2), A.A_POS + z(2, 1)])
    turn.apply_action(S, tb, 0, A.A_POS + z(2, 1))
    assert S["stage"][0] == A.STAGE_WINDOW and S["win_unit"][0] == INF
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_where"][0, INF] == state.WHERE_ELIMINATED
    assert S["unit_where"][0, MIL] == state.WHERE_ON and S["unit_status"][0, MIL] == 0
    assert invariants.check(S, tb, 0) == ""
