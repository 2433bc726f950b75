"""Whole TACTICA wars through the turn dispatcher (envs/tactica/turn.py): every chapter in
its place (TT-B.7.0.1), checked at every decision.

Facts the dispatcher does not produce: random legal play of whole wars, basic and advanced,
keeps every card in exactly one place and every feature card consistent (piles.py's
checkers), never asks a decision with no legal action, and always ends: three battles, then
a winner by war points (TT-B.9.1) or a draw; the same seed replays the same war."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactica import turn
from envs.tactica.actions import A_SURRENDER, N_ACTIONS
from envs.tactica.piles import conservation_error, feature_error, reset_war
from envs.tactica.state import STAGE_GAME_OVER, SUMMON_ASIDE, allocate
from envs.tactica.tables import PHASE_RESOLUTION, load_tables

TABLES = load_tables()
TB = TABLES.arrays
GEO = TABLES.battlefield
MAX_DECISIONS = 20_000
SURRENDER_RATE = 0.01  # how often the random player takes a surrender it is offered


def _geometry():
    return GEO.neighbours, GEO.distance, GEO.wall_zone, GEO.lof_crossed, GEO.lof_edges


def play_war(seed: int, game_index: int, advanced: bool, rng: np.random.Generator):
    """One random war; returns (state, actions taken)."""
    S = allocate(1)
    S["advanced"][0] = advanced
    b = np.int64(0)
    reset_war(S, TB, b, np.int64(seed), np.int64(game_index))
    geo = _geometry()
    turn.advance(S, TB, *geo, b)
    out = np.empty(N_ACTIONS, dtype=np.int16)
    actions = []
    for _ in range(MAX_DECISIONS):
        if S["stage"][0] == STAGE_GAME_OVER:
            return S, actions
        n = turn.legal_actions(S, TB, *geo, b, out)
        assert n > 0, f"stage {S['stage'][0]} asked with no legal action"
        legal = out[:n]
        if n > 1 and legal[-1] == A_SURRENDER and rng.random() > SURRENDER_RATE:
            legal = legal[:-1]  # random play would forfeit half its battles at once
        a = int(legal[rng.integers(len(legal))])
        actions.append(a)
        turn.apply_action(S, TB, *geo, b, np.int64(a))
        assert conservation_error(S, TB, b) == 0, f"cards after {len(actions)} decisions"
        assert feature_error(S, TB, b) == 0, f"features after {len(actions)} decisions"
    raise AssertionError(f"war not over after {MAX_DECISIONS} decisions")


@pytest.mark.parametrize("advanced", [False, True])
def test_random_wars_end_with_a_winner_by_war_points_and_keep_every_card_in_one_place(advanced):
    rng = np.random.default_rng(11)
    for g in range(4):
        S, actions = play_war(5, g, advanced, rng)
        points = S["war_points"][0]
        winner = int(S["winner"][0])
        if points[0] != points[1]:
            assert winner == int(np.argmax(points))
        rewards = S["rewards"][0]
        if winner >= 0:
            assert rewards[winner] == 1.0 and rewards[1 - winner] == -1.0
        else:
            assert (rewards == 0).all()
        assert int(S["decisions"][0]) == len(actions)
        if not advanced:  # TT-A.0.1: no decree in the basic game, so no summon card ever stacked
            assert (S["summon_card_place"][0, :, : TB.summon_cards] == SUMMON_ASIDE).all()
            assert (S["spire_height"][0] == 0).all()


def test_the_same_seed_and_actions_replay_the_same_war():
    S1, a1 = play_war(9, 3, True, np.random.default_rng(1))
    S2, a2 = play_war(9, 3, True, np.random.default_rng(1))
    assert a1 == a2
    assert S1.tobytes() == S2.tobytes()


# phases of a turn in order (TT-B.7.0.1); deployment (-1) opens each battle
PHASE_ORDER = [
    turn.PHASE_DEPLOYMENT,
    turn.PHASE_BARRACKS,
    turn.PHASE_RECRUITMENT,
    turn.PHASE_MUSTERING,
    turn.PHASE_MOVEMENT,
    turn.PHASE_COMBAT,
    PHASE_RESOLUTION,
]


def test_phases_of_a_turn_come_in_the_order_of_the_rules_and_turn_one_follows_deployment():
    """TT-B.7.0.1 and TT-B.6.7: the decisions of a battle are asked in deployment, then turn
    after turn in the order Barracks, Recruitment, Mustering, Movement, Combat, Resolution
    (a phase without decisions is skipped); turn 1 is the first turn after deployment and
    each Resolution ends one turn."""
    S = allocate(1)
    S["advanced"][0] = True
    b = np.int64(0)
    reset_war(S, TB, b, np.int64(3), np.int64(0))
    geo = _geometry()
    turn.advance(S, TB, *geo, b)
    out = np.empty(N_ACTIONS, dtype=np.int16)
    rng = np.random.default_rng(2)
    seen = []  # (battle, turn, phase) at each decision
    while S["stage"][0] != STAGE_GAME_OVER:
        seen.append((int(S["battle"][0]), int(S["turn"][0]), int(S["phase"][0])))
        n = turn.legal_actions(S, TB, *geo, b, out)
        legal = out[:n]
        if n > 1 and legal[-1] == A_SURRENDER:
            legal = legal[:-1]
        turn.apply_action(S, TB, *geo, b, np.int64(legal[rng.integers(len(legal))]))
    assert {s[0] for s in seen} == {1, 2, 3}
    for (b1, t1, p1), (b2, t2, p2) in zip(seen, seen[1:], strict=False):
        if b2 != b1:  # a new battle opens with its deployment
            assert b2 == b1 + 1 and p2 == turn.PHASE_DEPLOYMENT and t2 == 0
        elif p1 == turn.PHASE_DEPLOYMENT and p2 != p1:
            assert t2 == 1  # TT-B.6.7
        elif t2 != t1:  # a turn ends only after its Resolution, the next one starts at 1 more
            assert t2 == t1 + 1 and PHASE_ORDER.index(p2) < PHASE_ORDER.index(p1) + 1
        else:  # within a turn the phases never go back
            assert PHASE_ORDER.index(p2) >= PHASE_ORDER.index(p1), (b1, t1, p1, p2)
    phases = {s[2] for s in seen}
    assert set(PHASE_ORDER) - {turn.PHASE_RECRUITMENT} <= phases
