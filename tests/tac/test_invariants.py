"""TAC's whole-game invariant checker (envs/tac/invariants.py) fails on corrupted states: one
corruption per invariant code, built from TAC's own state fields, and the parallel kernel
reports the first failure. The random-game fuzz itself (100,000 two-player games and thousands
at 3-5 players, through ruleset.fuzz) is the shared tests/platform/test_platform_invariants.py."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest

from envs.tac import invariants as inv
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import reset_one
from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_UP,
    MAX_PLAYERS,
    MAX_TEAM,
    MAX_UNDER,
    STAGE_GAME_OVER,
    allocate,
)
from envs.tac.tables import BLACK, CAT_TANK, RED, S_AP, S_INF_HP, Tables, default_tables
from envs.tac.turn import apply_action, random_legal_action
from envs.tac.units import effective_hit_points

TABLES: Tables = default_tables()


# ---------------------------------------------------------------- the checker can fail


def _midgame_state(num_players: int = 2, decisions: int = 40, game: int = 3) -> np.ndarray:
    """A real state some random decisions into a game (never over)."""
    S = allocate(1, num_players)
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    reset_one(S, TABLES.arrays, 0, 77, game, buf)
    for _ in range(decisions):
        a = random_legal_action(S, TABLES.arrays, 0, buf)
        apply_action(S, TABLES.arrays, 0, a, buf)
        assert S["stage"][0] != STAGE_GAME_OVER
    return S


def _finished_state(num_players: int = 2) -> np.ndarray:
    S = allocate(1, num_players)
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    reset_one(S, TABLES.arrays, 0, 77, 0, buf)
    while S["stage"][0] != STAGE_GAME_OVER:
        apply_action(S, TABLES.arrays, 0, random_legal_action(S, TABLES.arrays, 0, buf), buf)
    return S


def _colour(card: int) -> int:
    return int(TABLES.arrays.card_type_colour[TABLES.arrays.card_type[card]])


def _hand_card(S: np.ndarray, colour: int | None = None, not_colour: int | None = None):
    """(seat, slot, card) of a hand card with (or without) the given colour."""
    P = int(S["num_players"][0])
    for p in range(P):
        for h, c in enumerate(S["hand"][0, p]):
            if c < 0:
                continue
            if colour is not None and _colour(c) != colour:
                continue
            if not_colour is not None and _colour(c) == not_colour:
                continue
            return p, h, int(c)
    raise AssertionError("no such card in any hand")


def _live_unit(S: np.ndarray, p: int, undamaged: bool = False) -> int:
    for t in range(MAX_TEAM):
        if S["team_type"][0, p, t] >= 0 and (not undamaged or S["team_damage"][0, p, t] == 0):
            return t
    raise AssertionError("no such unit")


def _not_active(S: np.ndarray) -> int:
    return (int(S["active"][0]) + 1) % int(S["num_players"][0])


def corrupt_card_id(S):
    p, h, _ = _hand_card(S)
    S["hand"][0, p, h] = TABLES.n_action_cards  # one past the last card


def corrupt_card_lost(S):
    p, h, _ = _hand_card(S)
    S["hand"][0, p, h] = -1


def corrupt_card_duplicated(S):
    p, h, _ = _hand_card(S)
    S["hand"][0, p, h] = S["draw"][0, 0]


def corrupt_card_place(S):
    # a red card moved from a hand onto a defence slot: only black cards are laid (10)
    p, h, c = _hand_card(S, not_colour=BLACK)
    d = int(np.flatnonzero(S["defence_state"][0, p] == DEF_EMPTY)[0])
    S["hand"][0, p, h] = -1
    S["defence_card"][0, p, d] = c


def corrupt_pile_layout(S):
    # swap the tops of the tank and light reinforcement piles (2.1: separate piles)
    nt, nl = S["pile_count"][0]
    t, light = S["pile"][0, 0, nt - 1], S["pile"][0, 1, nl - 1]
    S["pile"][0, 0, nt - 1], S["pile"][0, 1, nl - 1] = light, t


def corrupt_unit_count(S):
    p = 0
    t = _live_unit(S, p)
    u = int(S["team_type"][0, p, t])
    same_cat = [
        v
        for v in range(TABLES.n_unit_types)
        if v != u and TABLES.arrays.unit_category[v] == TABLES.arrays.unit_category[u]
    ]
    S["team_type"][0, p, t] = same_cat[0]


def corrupt_damage(S):
    p = 0
    t = _live_unit(S, p)
    u = int(S["team_type"][0, p, t])
    S["team_damage"][0, p, t] = effective_hit_points(TABLES.arrays, u, S["mode"][0, p])


def corrupt_under(S):
    # a red card kept under an undamaged unit (4.5: only cards that did damage)
    p, h, c = _hand_card(S, colour=RED)
    t = _live_unit(S, p, undamaged=True)
    S["hand"][0, p, h] = -1
    S["under"][0, p, t, 0] = c


def corrupt_ap(S):
    S["ap"][0] = TABLES.arrays.settings[S_AP] + 1


def corrupt_rows(S):
    # every unit of a player who is not repositioning into the Reserve Line: no Frontline
    p = _not_active(S)
    live = S["team_type"][0, p] >= 0
    S["team_row"][0, p][live] = 1
    S["defence_state"][0, p] = DEF_EMPTY  # keep the defence check out of the way
    for d, c in enumerate(S["defence_card"][0, p]):
        if c >= 0:
            S["discard"][0, S["discard_count"][0]] = c
            S["discard_count"][0] += 1
            S["defence_card"][0, p, d] = -1
    S["defence_used"][0, p] = 0
    S["defence_revealed"][0, p] = 0


def corrupt_hand(S):
    # a card in the hand of a seat that does not play (2 players: seats 2-4 are unused)
    p, h, c = _hand_card(S)
    S["hand"][0, p, h] = -1
    S["hand"][0, MAX_PLAYERS - 1, 0] = c


def corrupt_defence(S):
    p = _not_active(S)
    d = int(np.flatnonzero(S["defence_state"][0, p] == DEF_EMPTY)[0])
    S["defence_state"][0, p, d] = DEF_FACE_UP  # a laid defence with no card


def corrupt_team(S):
    # a whole Combat Team back to its reinforcement piles in a running game (2.9)
    p = _not_active(S)
    for t in range(MAX_TEAM):
        u = S["team_type"][0, p, t]
        if u < 0:
            continue
        cat = 0 if TABLES.arrays.unit_category[u] == CAT_TANK else 1
        S["pile"][0, cat, S["pile_count"][0, cat]] = u
        S["pile_count"][0, cat] += 1
        for i in range(MAX_UNDER):
            c = S["under"][0, p, t, i]
            if c >= 0:
                S["discard"][0, S["discard_count"][0]] = c
                S["discard_count"][0] += 1
        S["under"][0, p, t] = -1
        S["team_type"][0, p, t] = -1
        S["team_damage"][0, p, t] = 0
        S["team_row"][0, p, t] = 0


def corrupt_flow(S):
    S["current"][0] = S["num_players"][0]


def corrupt_score(S):
    S["victory_points"][0, 0] += 1


CORRUPTIONS: dict[int, Callable[[np.ndarray], None]] = {
    inv.INV_CARD_ID: corrupt_card_id,
    inv.INV_CARD_LOST: corrupt_card_lost,
    inv.INV_CARD_DUPLICATED: corrupt_card_duplicated,
    inv.INV_CARD_PLACE: corrupt_card_place,
    inv.INV_PILE_LAYOUT: corrupt_pile_layout,
    inv.INV_UNIT_COUNT: corrupt_unit_count,
    inv.INV_DAMAGE: corrupt_damage,
    inv.INV_UNDER: corrupt_under,
    inv.INV_AP: corrupt_ap,
    inv.INV_ROWS: corrupt_rows,
    inv.INV_HAND: corrupt_hand,
    inv.INV_DEFENCE: corrupt_defence,
    inv.INV_TEAM: corrupt_team,
    inv.INV_FLOW: corrupt_flow,
    inv.INV_SCORE: corrupt_score,
}


def test_every_invariant_code_has_a_corruption_test():
    assert sorted(CORRUPTIONS) == list(range(1, inv.N_CODES))
    assert len(inv.CODE_NAMES) == inv.N_CODES


@pytest.mark.parametrize("code", sorted(CORRUPTIONS), ids=lambda c: inv.CODE_NAMES[c])
@pytest.mark.parametrize("decisions", [5, 40])
def test_checker_reports_each_broken_invariant(code: int, decisions: int):
    S = _finished_state() if code == inv.INV_SCORE else _midgame_state(decisions=decisions)
    assert inv.check_invariants(S, TABLES.arrays, 0) == inv.OK  # the real state is fine
    CORRUPTIONS[code](S)
    assert inv.check_invariants(S, TABLES.arrays, 0) == code


def test_winner_and_rewards_checked_at_game_end():
    S = _finished_state(3)
    assert inv.check_invariants(S, TABLES.arrays, 0) == inv.OK
    bad = S.copy()
    bad["rewards"][0, :3] = bad["rewards"][0, [1, 2, 0]]
    if np.array_equal(bad["rewards"], S["rewards"]):  # all equal: flip one
        bad["rewards"][0, 0] = 1.0 - bad["rewards"][0, 0]
    assert inv.check_invariants(bad, TABLES.arrays, 0) == inv.INV_SCORE
    bad = S.copy()
    bad["winner"][0] = (int(S["winner"][0]) + 2) % 3 if S["winner"][0] >= 0 else 0
    assert inv.check_invariants(bad, TABLES.arrays, 0) == inv.INV_SCORE


class _BrokenTables:
    """Tables whose hit points are all 0: every live unit breaks the damage invariant."""

    def __init__(self) -> None:
        self.arrays_batch = np.array(TABLES.arrays_batch, copy=True)
        self.arrays_batch["unit_hit_points"][0, :] = 0
        self.arrays_batch["settings"][0, S_INF_HP] = 0


def test_random_games_kernel_reports_the_first_failure():
    """The parallel kernel stops a game at its first violation and says where."""
    counts, first, _ = inv.run_random_games(_BrokenTables(), 3, 50, seed=5, chunk=16)
    assert counts[inv.INV_DAMAGE] == 50 and counts.sum() == 50
    assert first == (0, 0)
