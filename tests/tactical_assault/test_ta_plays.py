"""Plays with their own flow: passing cards along (FC "Passed Equals Played", I7), moving
directly away (Evade, R29), "all available" (Volley, I12, R20)."""

from __future__ import annotations

import pytest
from ta_helpers import hand, legal, record, started

from envs.tactical_assault import actions as A
from envs.tactical_assault import flow, invariants, plays, turn

ROWS = [". . . . . . ."] * 7
OURS = [
    {"type": "COMMAND", "label": "C", "zone": [3, 1], "facing": "S"},
    {"type": "INFANTRY", "label": "I", "zone": [3, 2], "facing": "S"},
    {"type": "ARCHER", "label": "A", "zone": [6, 6], "facing": "N"},
]
THEIRS = [
    {"type": "INFANTRY", "label": "i", "zone": [0, 6], "facing": "N"},
    {"type": "MILITIA", "label": "m", "zone": [1, 6], "facing": "N"},
]
C, INF, ARCHER = 0, 1, 2
ISSUE_ORDERS = 16  # Issue Orders | Opportunity Fire | Fall Back
GALLOP = 13  # Gallop | Relay Orders | No Effect
DEAD = (10, 35, 38, 57, 53)


@pytest.fixture(scope="module")
def tb(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("pass"), units0=OURS, units1=THEIRS)


def seat0_main(tb):
    S = started(tb)
    if int(S["active"][0]) != 0:
        flow.start_turn(S, tb, 0, 0)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])
    return S


def settle(S, tb):
    while S["stage"][0] not in (A.STAGE_MAIN, A.STAGE_MOVE, A.STAGE_GAME_OVER):
        acts = legal(S, tb)
        turn.apply_action(S, tb, 0, A.A_PASS if A.A_PASS in acts else acts[0])


def test_issue_orders_passes_the_next_action_to_a_unit_near_the_commander(tb):
    """Issue Orders uses the Command unit's Action; the next Action played on it (here Gallop,
    which names only Mounted units) passes to a friendly unit within a Medium Distance (2
    zones), counts as played on that unit (its Action is used) and moves it."""
    S = seat0_main(tb)
    hand(S, 0, [ISSUE_ORDERS, GALLOP, *DEAD[:4]])
    assert A.A_ACTION + GALLOP not in legal(S, tb)  # nobody here may Gallop on their own
    turn.apply_action(S, tb, 0, A.A_ACTION + ISSUE_ORDERS)
    assert legal(S, tb) == [A.A_UNIT + C]
    turn.apply_action(S, tb, 0, A.A_UNIT + C)
    settle(S, tb)
    assert S["unit_acted"][0, C] == 1 and S["unit_pass"][0, C] == 1
    assert A.A_ACTION + GALLOP in legal(S, tb)  # only if usable: by passing it along
    turn.apply_action(S, tb, 0, A.A_ACTION + GALLOP)
    assert legal(S, tb) == [A.A_UNIT + C]
    turn.apply_action(S, tb, 0, A.A_UNIT + C)
    assert S["stage"][0] == A.STAGE_PASS_TO
    assert legal(S, tb) == [A.A_UNIT + INF]  # the Archer is beyond a Medium Distance
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    assert S["fr_unit"][0, 0] == INF and S["unit_acted"][0, INF] == 1
    assert S["unit_pass"][0, C] == 0
    settle(S, tb)
    assert S["stage"][0] == A.STAGE_MOVE and S["fr_left"][0, 0] == tb.g_dist_units[3]  # Long
    assert invariants.check(S, tb, 0) == ""


def test_a_pass_along_lasts_until_the_end_of_the_turn(tb):
    S = seat0_main(tb)
    hand(S, 0, [ISSUE_ORDERS, GALLOP, *DEAD[:4]])
    turn.apply_action(S, tb, 0, A.A_ACTION + ISSUE_ORDERS)
    turn.apply_action(S, tb, 0, A.A_UNIT + C)
    settle(S, tb)
    assert S["unit_pass"][0, C] == 1
    flow.start_turn(S, tb, 0, 1)
    assert S["unit_pass"][0, C] == 0


def test_evade_moves_directly_away_before_the_enemy_makes_contact(tmp_path):
    """Evade (an Interrupt on enemy_contact, played on the contacted unit): before the
    assaulting Infantry enters its zone, the Skirmisher moves up to a Short Distance (1 zone
    here) along the line from the enemy through itself; the assault move then walks on along
    its declared path (FC R41, R42) into the zone left empty."""
    units1 = [
        {"type": "SKIRMISH", "label": "k", "zone": [3, 3], "facing": "N"},
        {"type": "MILITIA", "label": "m", "zone": [0, 6], "facing": "N"},
    ]
    tb = record(ROWS, tmp_path, units0=OURS, units1=units1)
    S = seat0_main(tb)
    skirm = 3
    hand(S, 0, [2, *DEAD])  # Assault
    hand(S, 1, [1, *DEAD])  # Cautious Advance | Evade
    turn.apply_action(S, tb, 0, A.A_ACTION + 2)
    turn.apply_action(S, tb, 0, A.A_UNIT + INF)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their Cancel window
    z33, z34, z32 = 3 * 7 + 3, 4 * 7 + 3, 2 * 7 + 3
    assert S["unit_pos"][0, INF] == z32
    turn.apply_action(S, tb, 0, A.A_POS + z33)  # contact: the path ends there (R41)
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
    assert A.A_SITUATION + 1 in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_SITUATION + 1)
    assert legal(S, tb) == [A.A_UNIT + skirm]
    turn.apply_action(S, tb, 0, A.A_UNIT + skirm)
    turn.apply_action(S, tb, 0, A.A_PASS)  # our Cancel window on Evade
    assert S["stage"][0] == A.STAGE_MOVE and S["current"][0] == 1
    assert set(legal(S, tb)) == {A.A_POS + z34, A.A_PASS}  # directly away, or not at all
    turn.apply_action(S, tb, 0, A.A_POS + z34)  # declared (FC R41): nothing moves yet
    assert S["unit_pos"][0, skirm] == z33
    assert legal(S, tb) == [A.A_PASS]  # its Short Distance is spent: the path is complete
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_pos"][0, skirm] == z34
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 0  # our enemy_unit_moves
    turn.apply_action(S, tb, 0, A.A_PASS)
    turn.apply_action(S, tb, 0, A.A_FACING + 0)
    # the Assault walks on along its declared path, into the zone the Skirmisher left (R42)
    assert S["unit_pos"][0, INF] == z33 and S["unit_entry"][0, INF] == -1
    assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
    assert S["win_trigger"][0] == plays.TRIG_ENEMY_MOVES
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_FACING and S["current"][0] == 0  # its path is walked
    assert invariants.check(S, tb, 0) == ""


def test_volley_involves_every_available_unit_the_player_names(tmp_path):
    """FC "'Available' Presumes All", I12, R20: Volley is played on one Archer; every other
    friendly Archer / Civilian / Militia that could make the attack and has not used its
    Action may join, in the order the player names them, until the player names no more; each
    flips its own card and uses its Action. A Militia out of range cannot join."""
    from ta_helpers import stack_top

    units0 = [
        {"type": "ARCHER", "label": "A", "zone": [2, 1], "facing": "S"},
        {"type": "ARCHER", "label": "B", "zone": [3, 1], "facing": "S"},
        {"type": "MILITIA", "label": "M", "zone": [4, 1], "facing": "S"},
    ]
    units1 = [
        {"type": "INFANTRY", "label": "i", "zone": [3, 4], "facing": "N"},
        {"type": "MILITIA", "label": "m", "zone": [0, 6], "facing": "N"},
    ]
    tb = record(ROWS, tmp_path, units0=units0, units1=units1)
    S = seat0_main(tb)
    hand(S, 0, [4, *DEAD])  # Volley | Reposition | No Effect
    hand(S, 1, list(DEAD) + [57])
    stack_top(S, 0, [13, 1])  # two No Effect flips
    deck = int(S["deck_count"][0, 0])
    turn.apply_action(S, tb, 0, A.A_ACTION + 4)
    assert set(legal(S, tb)) == {A.A_UNIT + 0, A.A_UNIT + 1}
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    turn.apply_action(S, tb, 0, A.A_PASS)  # Cancel window
    assert legal(S, tb) == [A.A_UNIT + 3]
    turn.apply_action(S, tb, 0, A.A_UNIT + 3)
    turn.apply_action(S, tb, 0, A.A_PASS)  # ranged_attack_on_unit window
    assert S["stage"][0] == A.STAGE_VOLLEY
    assert set(legal(S, tb)) == {A.A_UNIT + 1, A.A_PASS}  # the Militia is out of range
    turn.apply_action(S, tb, 0, A.A_UNIT + 1)
    assert S["stage"][0] == A.STAGE_WINDOW and S["win_enemy"][0] == 1  # B is the attacker
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert legal(S, tb) == [A.A_PASS]
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["deck_count"][0, 0] == deck - 2  # one flip per attacking unit
    assert S["unit_acted"][0, :3].tolist() == [1, 1, 0]
    assert invariants.check(S, tb, 0) == ""
