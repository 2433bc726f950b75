"""The Tactical Assault heuristic (agents/tactical_assault/heuristic.py) beats the random agent
in both seats of Fantasy Cards' Standard Game.

The full measurement (10,000 games per seat) is `benchmarks/legendary_battles_agents.py
--ruleset fantasy_cards` (benchmarks/results/fantasy_cards_agents_*); here 100 games per seat
and a bound that luck cannot reach: the Wilson 99.9 % lower bound of the heuristic's win rate
must stay above 60 % (measured 91.4 % in both seats over 10,000 games per seat; random
against random: seat 0 wins 46 %, seat 1 45 %)."""

from __future__ import annotations

import numpy as np

from agents.stats import wilson_interval
from envs import get_ruleset

GAMES = 200  # 100 per seat: the agents alternate seats game by game


def test_heuristic_beats_random_in_both_seats_of_the_standard_game():
    rs = get_ruleset("fantasy_cards")
    S = rs.allocate(GAMES, 2)
    agents = np.array([rs.agents["heuristic"], rs.agents["random"]], dtype=np.int8)
    res = rs.play_chunk(S, rs.tables_batch, 2026, np.arange(GAMES), agents)
    assert (res.length > 0).all()
    heur_seat = np.argmin(res.seat_agent[:, :2], axis=1)  # the seat of list position 0
    for seat in (0, 1):
        games = heur_seat == seat
        wins = int((res.winner[games] == seat).sum())
        low, _ = wilson_interval(wins, int(games.sum()), confidence=0.999)
        assert low > 0.60, f"seat {seat}: {wins} of {int(games.sum())} won"
