"""TAC seed chapter 11 (Winning the Game), 2.10, and the rewards given for it.

The game is brought to the last turn of round 8 on a hand-built state; ending that turn
runs the real scoring kernel.
"""

from __future__ import annotations

import pytest

from envs.tac import actions as A
from envs.tac.state import STAGE_GAME_OVER

FILLER = "Tactical Smoke"


def _vp(tables, names: list[str]) -> int:
    return sum(tables.units[tables.unit_index[n]].victory_points for n in names)


def _finish(g, teams: dict[int, list[str]], damaged: dict[int, int] | None = None) -> None:
    """Give each seat its surviving units (slot 0.. in the Frontline), mark `damaged[p]`
    units of seat p damaged, then end the last turn of the last round."""
    P = int(g.S["num_players"][0])
    for p, names in teams.items():
        g.set_team(p, [(n, 0) for n in names])
        for t in range((damaged or {}).get(p, 0)):
            g.S["team_damage"][0, p, t] = 1
    g.S["round"][0] = g.tables.settings.rounds
    last = P - 1
    g.set_hand(last, [FILLER])
    g.to_ending(last, order=list(range(P)))
    g.act(A.A_END_TURN)
    assert g.stage == STAGE_GAME_OVER


def test_victory_points_count_only_surviving_units(make_game, tables):
    """11.1: each player's total is the victory points of the units left alive; destroyed
    units are worth zero."""
    g = make_game(num_players=3)
    teams = {
        0: ["Main Battle Tank", "Armoured Car"],
        1: ["Medium Tank", "ATGM Vehicle", "Air-Def Infantry"],
        2: ["Self-Propelled Artillery"],
    }
    _finish(g, teams)
    assert [int(v) for v in g.S["victory_points"][0, :3]] == [
        _vp(tables, teams[p]) for p in range(3)
    ]


def test_game_ending_by_elimination_scores_zero_for_the_lost_team(game, tables):
    """11.1 / 2.9: the eliminated player scores 0 and the other wins."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0), ("Armoured Car", 1)])
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Gun 4", FILLER])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_GAME_OVER
    assert [int(v) for v in g.S["victory_points"][0, :2]] == [
        _vp(tables, ["Main Battle Tank", "Armoured Car"]),
        0,
    ]
    assert int(g.S["winner"][0]) == 0


def test_most_victory_points_wins(game):
    """11.2: the player with the highest total wins (+1, the other -1)."""
    g = game
    _finish(g, {0: ["Medium Tank"], 1: ["Main Battle Tank"]})
    assert int(g.S["winner"][0]) == 1
    assert list(g.S["rewards"][0, :2]) == [-1.0, 1.0]


def test_tie_goes_to_the_most_undamaged_units(game):
    """11.2: equal victory points: the player with more undamaged units wins, even with the
    same number of units."""
    g = game
    _finish(
        g,
        {0: ["Armoured Car", "Air-Def Vehicle"], 1: ["Air-Def Infantry", "Armoured Car"]},
        damaged={0: 1},
    )
    assert int(g.S["victory_points"][0, 0]) == int(g.S["victory_points"][0, 1])
    assert int(g.S["winner"][0]) == 1


def test_a_tie_after_the_tie_break_is_shared(make_game):
    """11.2 and our reward scheme (I10): players still tied share the win: 0 each, every
    other player -1, no winner."""
    g = make_game(num_players=3)
    _finish(g, {0: ["Medium Tank"], 1: ["Medium Tank"], 2: ["Armoured Car"]})
    assert int(g.S["winner"][0]) == -1
    assert list(g.S["rewards"][0, :3]) == [0.0, 0.0, -1.0]


@pytest.mark.parametrize("num_players", [3, 4, 5])
def test_single_winner_gets_one_and_everyone_else_minus_one(make_game, num_players):
    """Reward scheme for 3-5 players (I10): +1 for the single winner, -1 for each other
    player, whatever their rank."""
    g = make_game(num_players=num_players)
    teams = {p: ["Armoured Car"] * (p + 1) for p in range(num_players)}
    _finish(g, teams)
    assert int(g.S["winner"][0]) == num_players - 1
    assert list(g.S["rewards"][0, :num_players]) == [-1.0] * (num_players - 1) + [1.0]
