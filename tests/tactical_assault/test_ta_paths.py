"""FC "Measuring Movement" (FC-4.2, LB-3.4.11; readings R25, R41, R42 of Fantasy Cards, R26,
R29 of Legendary Battles): the mover lays the whole path out first, one position decision at a time,
nothing moving and the path public; then the unit walks it, its opponent asked at every
position with the rest of the path already declared; a reaction that stops the unit ends the
walk there. One geometry per test: zones, an oversized unit on zones, the tabletop."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest
from ta_helpers import card_with, hand, legal, record, stack_top, started

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fantasy_cards"))
from fc_tabletop_helpers import tb_of, unit  # noqa: E402

from envs import get_ruleset  # noqa: E402
from envs.core.batch import BatchEnv  # noqa: E402
from envs.fantasy_cards import tabletop as tt  # noqa: E402
from envs.tactical_assault import actions as A  # noqa: E402
from envs.tactical_assault import flow, invariants, observe, plays, state, turn  # noqa: E402

ROWS = [
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . W . . .",
    ". . . . . . .",
    ". . . . . . .",
    ". . . . . . .",
]
OURS = [
    {"type": "INFANTRY", "label": "I", "zone": [1, 1], "facing": "S"},
    {"type": "MILITIA", "label": "M", "zone": [0, 0], "facing": "S"},
]
THEIRS = [
    {"type": "ARCHER", "label": "a", "zone": [2, 3], "facing": "N"},
    {"type": "MILITIA", "label": "m", "zone": [6, 6], "facing": "N"},
]
INF, MIL, ARCHER, EMIL = 0, 1, 2, 3
DEAD = (13, 10, 35, 38, 57, 53)  # cards whose Action and Situation do nothing here
ADVANCE = 12  # Advance: move a Medium Distance
OPP_FIRE = card_with(situation="Opportunity Fire")
SHAKEN = card_with(result="Shaken")
POS0 = observe.observation_size() - state.MAX_POS * observe.POS_SIZE


def z(c, r):
    return r * 7 + c


def main_of(S, tb, p):
    """Make seat p the active player at its main decision."""
    if int(S["active"][0]) != p:
        flow.start_turn(S, tb, 0, p)
        while S["stage"][0] != A.STAGE_MAIN:
            turn.apply_action(S, tb, 0, legal(S, tb)[-1])


def path_seen(S, tb, me):
    """(positions on a declared path still to be walked, the path's end) as seat `me` sees."""
    obs = np.zeros(observe.observation_size(), dtype=np.float32)
    observe.observe(S, tb, 0, me, obs)
    rows = obs[POS0:].reshape(state.MAX_POS, observe.POS_SIZE)
    return set(np.flatnonzero(rows[:, 10]).tolist()), set(np.flatnonzero(rows[:, 11]).tolist())


@pytest.fixture(scope="module")
def zones(tmp_path_factory):
    return record(ROWS, tmp_path_factory.mktemp("paths"), units0=OURS, units1=THEIRS)


def _advance(S, tb, p, u):
    turn.apply_action(S, tb, 0, A.A_ACTION + ADVANCE)
    turn.apply_action(S, tb, 0, A.A_UNIT + u)
    turn.apply_action(S, tb, 0, A.A_PASS)  # the opponent's Cancel window
    assert S["stage"][0] == A.STAGE_MOVE and S["current"][0] == p


def test_a_declared_path_is_walked_zone_by_zone_with_the_rest_of_it_known(zones):
    """LB-3.4.11: the Infantry declares (1, 2) then (2, 2), its Medium Distance; nothing
    moves while it declares and the path is in both players' observations; then it walks, its
    opponent asked at each zone with the zones still to come shown, and ends where the path
    ends, its movement spent."""
    tb = zones
    S = started(tb)
    main_of(S, tb, 0)
    hand(S, 0, [ADVANCE, *DEAD[:5]])
    hand(S, 1, list(DEAD))
    _advance(S, tb, 0, INF)
    allowance = int(S["fr_left"][0, 0])
    assert allowance == int(tb.g_dist_units[2]) == 2  # Medium on this map
    path = [z(1, 2), z(2, 2)]
    for k, y in enumerate(path):
        assert A.A_POS + y in legal(S, tb)
        turn.apply_action(S, tb, 0, A.A_POS + y)
        assert S["unit_pos"][0, INF] == z(1, 1)  # nothing moves while it is declared
        assert S["stage"][0] == A.STAGE_MOVE and S["current"][0] == 0
        for me in (0, 1):  # "for all players to see"
            assert path_seen(S, tb, me) == (set(path[: k + 1]), {path[k]})
    assert legal(S, tb) == [A.A_PASS]  # the allowance is spent: the path is complete
    turn.apply_action(S, tb, 0, A.A_PASS)
    for k, y in enumerate(path):
        assert S["unit_pos"][0, INF] == y
        assert S["stage"][0] == A.STAGE_WINDOW and S["current"][0] == 1
        assert S["win_trigger"][0] == plays.TRIG_ENEMY_MOVES
        assert path_seen(S, tb, 1) == (set(path[k + 1 :]), {path[-1]})  # the rest, known
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_FACING and S["unit_pos"][0, INF] == path[-1]
    assert S["fr_left"][0, 0] == allowance - len(path)
    assert invariants.check(S, tb, 0) == ""


def test_a_path_pays_terrain_and_may_not_end_on_a_friend(zones):
    """Woods cost 2 zones (LB "Moving into hindering & covering terrain") when declared as
    when walked; a path may pass a friend but not end on it (R24)."""
    tb = zones
    S = started(tb)
    main_of(S, tb, 0)
    S["unit_pos"][0, INF] = z(3, 1)
    S["unit_pos"][0, MIL] = z(4, 1)
    hand(S, 0, [ADVANCE, *DEAD[:5]])
    hand(S, 1, list(DEAD))
    _advance(S, tb, 0, INF)
    turn.apply_action(S, tb, 0, A.A_POS + z(3, 2))
    assert int(S["mv_left"][0, 0]) == 1
    assert A.A_POS + z(3, 3) not in legal(S, tb)  # the Woods costs 2: 1 is left
    S = started(tb)
    main_of(S, tb, 0)
    S["unit_pos"][0, INF] = z(3, 2)
    hand(S, 0, [ADVANCE, *DEAD[:5]])
    hand(S, 1, list(DEAD))
    _advance(S, tb, 0, INF)
    turn.apply_action(S, tb, 0, A.A_POS + z(3, 3))  # into the Woods: all of a Medium
    assert int(S["mv_left"][0, 0]) == 0 and legal(S, tb) == [A.A_PASS]
    turn.apply_action(S, tb, 0, A.A_PASS)
    turn.apply_action(S, tb, 0, A.A_PASS)  # their enemy_unit_moves window
    assert S["unit_pos"][0, INF] == z(3, 3) and S["fr_left"][0, 0] == 0
    S2 = started(tb)
    main_of(S2, tb, 0)
    S2["unit_pos"][0, INF] = z(3, 1)
    S2["unit_pos"][0, MIL] = z(4, 1)
    hand(S2, 0, [ADVANCE, *DEAD[:5]])
    hand(S2, 1, list(DEAD))
    _advance(S2, tb, 0, INF)
    turn.apply_action(S2, tb, 0, A.A_POS + z(4, 1))  # onto the friend
    assert A.A_PASS not in legal(S2, tb) and A.A_POS + z(5, 1) in legal(S2, tb)
    turn.apply_action(S2, tb, 0, A.A_POS + z(5, 1))
    turn.apply_action(S2, tb, 0, A.A_PASS)
    while S2["stage"][0] == A.STAGE_WINDOW:
        turn.apply_action(S2, tb, 0, A.A_PASS)
    assert S2["unit_pos"][0, INF] == z(5, 1) and S2["unit_pos"][0, MIL] == z(4, 1)
    assert invariants.check(S2, tb, 0) == ""


def test_opportunity_fire_along_the_path_stops_the_walk_there(zones):
    """FC "Measuring Movement": the opponent reacts knowing the whole path; its Archer's
    Opportunity Fire at the first zone Shakes the mover, which ceases its activity (Table 6):
    the walk ends at that zone, the rest of the declared path is never entered."""
    tb = zones
    S = started(tb)
    main_of(S, tb, 0)
    hand(S, 0, [ADVANCE, *DEAD[:5]])
    hand(S, 1, [OPP_FIRE, *DEAD[:5]])
    stack_top(S, 1, [SHAKEN])
    _advance(S, tb, 0, INF)
    path = [z(2, 1), z(3, 1)]
    for y in path:
        turn.apply_action(S, tb, 0, A.A_POS + y)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_pos"][0, INF] == path[0] and S["current"][0] == 1
    assert path_seen(S, tb, 1) == ({path[1]}, {path[1]})
    assert A.A_SITUATION + OPP_FIRE in legal(S, tb)
    turn.apply_action(S, tb, 0, A.A_SITUATION + OPP_FIRE)
    turn.apply_action(S, tb, 0, A.A_UNIT + ARCHER)
    while S["stage"][0] == A.STAGE_WINDOW:  # our Cancel and ranged_attack_on_unit windows
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["unit_status"][0, INF] & state.STATUS_SHAKEN
    assert S["unit_pos"][0, INF] == path[0]  # the walk ended there
    assert S["depth"][0] == 0  # the Advance is done (it ceased)
    assert invariants.check(S, tb, 0) == ""


def test_an_oversized_unit_declares_where_its_footprint_fits_at_the_path_end(tmp_path):
    """LB R28 on a declared path: the options after a declared zone are those the whole
    footprint fits at from there (a friend under a part zone forbids it), though the unit has
    not moved; the walk then moves the footprint zone by zone."""
    theirs = [
        {"type": "MONSTROUS", "label": "d", "zone": [3, 3], "facing": "N", "footprint": ["N", "S"]},
        {"type": "MILITIA", "label": "m", "zone": [5, 2], "facing": "N"},
    ]
    ours = [
        {"type": "INFANTRY", "label": "I", "zone": [0, 0], "facing": "S"},
        {"type": "ARCHER", "label": "A", "zone": [0, 6], "facing": "N"},
    ]
    tb = record(["." + " ." * 6] * 7, tmp_path, units0=ours, units1=theirs)
    dragon, emil = 2, 3
    S = started(tb)
    main_of(S, tb, 1)
    hand(S, 1, [ADVANCE, *DEAD[:5]])
    hand(S, 0, list(DEAD))
    turn.apply_action(S, tb, 0, A.A_ACTION + ADVANCE)
    turn.apply_action(S, tb, 0, A.A_UNIT + dragon)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_MOVE and S["current"][0] == 1
    assert A.A_POS + z(4, 3) in legal(S, tb)  # (4, 2), (4, 3), (4, 4): all free
    turn.apply_action(S, tb, 0, A.A_POS + z(4, 3))
    assert S["unit_pos"][0, dragon] == z(3, 3)
    opts = legal(S, tb)
    assert A.A_POS + z(5, 3) not in opts  # its north part would cover the Militia at (5, 2)
    assert A.A_POS + z(4, 2) in opts and A.A_PASS in opts
    turn.apply_action(S, tb, 0, A.A_POS + z(4, 2))
    if A.A_PASS in legal(S, tb):
        turn.apply_action(S, tb, 0, A.A_PASS)
    for y in (z(4, 3), z(4, 2)):
        assert S["unit_pos"][0, dragon] == y and S["current"][0] == 0
        assert plays.covers(S, tb, 0, dragon, y - 7) and plays.covers(S, tb, 0, dragon, y + 7)
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_FACING and S["unit_pos"][0, emil] == z(5, 2)
    assert invariants.check(S, tb, 0) == ""


def test_a_tabletop_path_is_walked_cell_by_cell_paying_its_terrain(tmp_path):
    """FC R28 cells: Advance (a Medium Distance, 8 half-cells) declared east into Woods (4:
    double), on (2), then north (2): spent. Walked, the opponent is asked at each cell with
    the rest known; the unit ends on the last cell with nothing left."""
    rows = [["."] * 16 for _ in range(16)]
    rows[5][6] = "W"
    tb = tb_of(
        tmp_path,
        rows=[" ".join(r) for r in rows],
        units0=[unit("INFANTRY", 5, 5, "E")],
        units1=[unit("INFANTRY", 12, 12, "W")],
    )
    C = tt.cell
    S = started(tb)
    main_of(S, tb, 0)
    adv = card_with(action="Advance")
    hand(S, 0, [adv])
    hand(S, 1, list(DEAD))
    turn.apply_action(S, tb, 0, A.A_ACTION + adv)
    turn.apply_action(S, tb, 0, A.A_UNIT + 0)
    turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_MOVE and int(S["mv_left"][0, 0]) == 8
    path = [C(6, 5), C(7, 5), C(7, 4)]
    for y, left in zip(path, (4, 2, 0), strict=True):
        turn.apply_action(S, tb, 0, A.A_POS + y)
        assert int(S["mv_left"][0, 0]) == left and S["unit_pos"][0, 0] == C(5, 5)
    assert legal(S, tb) == [A.A_PASS]
    turn.apply_action(S, tb, 0, A.A_PASS)
    for k, y in enumerate(path):
        assert S["unit_pos"][0, 0] == y and S["current"][0] == 1
        assert path_seen(S, tb, 1)[0] == set(path[k + 1 :])
        turn.apply_action(S, tb, 0, A.A_PASS)
    assert S["stage"][0] == A.STAGE_FACING and S["fr_left"][0, 0] == 0
    assert invariants.check(S, tb, 0) == ""


def test_a_declaration_beyond_the_allowance_or_onto_an_illegal_cell_is_refused():
    """Through the contract (BatchEnv): once the allowance is spent only "path complete" is
    legal; any position then, or one not next to the path's end, raises ValueError and changes
    nothing."""
    rs = get_ruleset("fantasy_cards")
    env = BatchEnv(rs, num_envs=1, num_players=2, seed=7, observations=False)
    env.reset()
    rng = np.random.default_rng(0)
    spent = False
    for _ in range(20000):
        S = env.state
        if S["stage"][0] == A.STAGE_MOVE:
            pos = [a for a in np.flatnonzero(env.masks[0]) if A.A_POS <= a < A.A_FACING]
            if not pos and env.masks[0, A.A_PASS]:
                spent = S["mv_len"][0, S["depth"][0] - 1] > 0
                if spent:
                    break
            if pos:
                env.step(np.array([int(pos[0])]))  # declare on, as far as it goes
                continue
        env.step(np.array([int(rng.choice(np.flatnonzero(env.masks[0])))]))
    assert spent, "no path declared to the end of its allowance"
    before = env.state.copy()
    end = int(S["mv_path"][0, S["depth"][0] - 1, S["mv_len"][0, S["depth"][0] - 1] - 1])
    beyond = [A.A_POS + int(y) for y in rs.tables_batch[0]["g_neighbour"][end] if y >= 0]
    far = [A.A_POS + y for y in range(state.MAX_POS) if y != end and y not in beyond]
    for a in beyond + far[:3]:
        with pytest.raises(ValueError, match="illegal"):
            env.step(np.array([a]))
        assert env.state.tobytes() == before.tobytes()
