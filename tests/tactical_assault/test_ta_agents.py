"""Tactical Assault's in-kernel agents through the contract (agents/tactical_assault/): the
heuristic beats random in both seats of the default Legendary Battles scenario, every agent
plays only legal actions, and self-play does not depend on the batch or the thread count.

The full measurement (10,000 games per seat) is benchmarks/legendary_battles_agents.py's
(benchmarks/results/legendary_battles_agents_*); here 300 games per seat and a bound that luck
cannot reach: the Wilson 99.9 % lower bound of the heuristic's win rate must stay above 60 %
(measured 94 % and 90 % over 10,000 games per seat; a heuristic as good as random wins ~30 %
of the games in either seat)."""

from __future__ import annotations

import numpy as np
import pytest

from agents.stats import wilson_interval
from envs import get_ruleset, make_batch
from envs.tactical_assault.actions import N_ACTIONS, STAGE_GAME_OVER

GAMES = 600  # 300 per seat: the agents alternate seats game by game


@pytest.fixture(scope="module")
def rs():
    return get_ruleset("legendary_battles")


def test_heuristic_beats_random_in_both_seats(rs):
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


def test_agents_play_legal_actions(rs):
    """act_one's and act_batch's choices are in the mask, for every agent."""
    for agent in rs.agents.values():
        env = make_batch("legendary_battles", 8, seed=3, observations=False)
        r = env.reset()
        out = np.full(8, -1, dtype=np.int64)
        for _ in range(300):
            rs.act_batch(env.state, rs.tables_batch, r.action_mask, np.array([agent, agent]), out)
            assert all(r.action_mask[b, out[b]] == 1 for b in range(8))
            one = rs.act_one(env.state[:1], rs.tables_batch, 0, agent)
            assert 0 <= one < N_ACTIONS and r.action_mask[0, one] == 1
            r = env.step(out.copy())


def test_self_play_is_the_same_at_any_batch_size(rs):
    agents = np.array([rs.agents["heuristic"], rs.agents["random"]], dtype=np.int8)
    games = np.arange(20, 30)
    S = rs.allocate(10, 2)
    a = rs.play_chunk(S, rs.tables_batch, 7, games, agents)
    for i, g in enumerate(games):
        S1 = rs.allocate(1, 2)
        b = rs.play_chunk(S1, rs.tables_batch, 7, np.array([g]), agents)
        assert (b.winner[0], b.length[0]) == (a.winner[i], a.length[i])
        assert np.array_equal(b.force[0], a.force[i])
        assert S1["stage"][0] == STAGE_GAME_OVER
    # force records each seat's units by type, at their listed points
    pts = (a.force[:, :2, :].astype(np.int64) * rs.record.costs.astype(np.int64)).sum(axis=2)
    assert (pts[:, 0] <= 30).all() and (pts[:, 1] <= 24).all() and (pts > 0).all()


def test_the_way_to_the_objective_goes_round_walls_and_cliffs():
    """Siege of the Ridge Fort: the Wyrm Legion (seat 1) holds the keep at (9, 4) to win; the
    ridge is walled north and south, a cliff east, so from (9, 1) (3 zones as the crow flies)
    or (11, 4) (2 zones) the way goes round to the stair at (8, 4), which is 1 zone from it."""
    from agents.tactical_assault.heuristic import FAR, objective_field
    from envs.tactical_assault.state import MAX_POS

    siege = get_ruleset("legendary_battles", options={"scenario": "siege_of_the_ridge_fort"})
    tb = siege.tables_batch[0]
    S = siege.allocate(1, 2)  # no unit on the map: the keep is nobody's
    dist = np.zeros(MAX_POS, dtype=np.int64)
    objective_field(S, tb, np.int64(0), np.int64(1), np.int64(-1), dist)

    def z(x, y):
        return y * 12 + x

    keep = z(9, 4)
    assert dist[keep] == 0 and dist[z(8, 4)] >= 1
    for x, y in ((9, 1), (11, 4)):
        assert tb["g_dist"][z(x, y), keep] <= 3
        assert FAR > dist[z(x, y)] >= tb["g_dist"][z(x, y), keep] + 4
