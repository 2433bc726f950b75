"""FC PART VII: Campaigns (envs/fantasy_cards/campaign.py): linked Standard Games, forces at
full strength every game, Campaign Points 9 / 6 / 3 spent on Promotion Awards or unit swaps,
the most Promotion Awards wins; random or fixed battlefields."""

from __future__ import annotations

import numpy as np
import pytest
from fc_tabletop_helpers import battlefield_doc, write

from envs.fantasy_cards import campaign as cp
from envs.fantasy_cards import tabletop as tt
from envs.fantasy_cards.tables import load_tables

FC = load_tables()
PTS = {n: int(FC.unit_points[i]) for i, n in enumerate(FC.unit_type_names)}


def test_campaign_points_are_9_to_the_winner_6_to_the_loser_3_each_on_a_draw():
    """FC "Campaign Points"."""
    assert cp.campaign_points(0, FC) == (9, 6)
    assert cp.campaign_points(1, FC) == (6, 9)
    assert cp.campaign_points(-1, FC) == (3, 3)


def test_points_buy_promotion_awards_and_swaps_of_equal_value():
    """FC "Using Campaign Points": 3 points per Promotion Award, 1 per unit point swapped; the
    force's total still matches (R39)."""
    force = ["INFANTRY", "ARCHER", "MILITIA"]
    got, new = cp.apply_spend(9, force, cp.Spend(promotions=3), FC, 36)
    assert got == 3 and new == force
    same = next(n for n in FC.unit_type_names if PTS[n] == PTS["INFANTRY"] and n != "INFANTRY")
    got, new = cp.apply_spend(6, force, cp.Spend(1, ("INFANTRY",), (same,)), FC, 36)
    assert got == 1 and sorted(new) == sorted(["ARCHER", "MILITIA", same])
    assert PTS["INFANTRY"] <= 3  # so 3 + its points fit in 6
    with pytest.raises(ValueError, match="only 6 earned"):
        cp.apply_spend(6, force, cp.Spend(promotions=3), FC, 36)
    other = next(n for n in FC.unit_type_names if PTS[n] != PTS["INFANTRY"] and PTS[n] > 0)
    with pytest.raises(ValueError, match="must still match"):
        cp.apply_spend(9, force, cp.Spend(0, ("INFANTRY",), (other,)), FC, 36)
    with pytest.raises(ValueError, match="holds no 'LEGENDARY'"):
        cp.apply_spend(9, force, cp.Spend(0, ("LEGENDARY",), ("LEGENDARY",)), FC, 36)
    with pytest.raises(ValueError, match="unknown unit type 'DRAGON'"):
        cp.apply_spend(9, force, cp.Spend(0, ("DRAGON",), ()), FC, 36)


def test_every_game_starts_with_the_full_force_deployed_by_its_player():
    """FC "Select Forces": losses are replaced; the record of each game holds the whole force
    of both players, no unit placed in advance (FC "Deploy Forces")."""
    forces = [["INFANTRY", "ARCHER"], ["MILITIA", "MILITIA", "CAVALRY"]]
    rec = cp.game_record(tt.STANDARD_PATH, forces, FC)[0]
    nu = int(rec["sc_n_units"])
    got = [[], []]
    for u in range(nu):
        got[int(rec["sc_unit_side"][u])].append(FC.unit_type_names[int(rec["sc_unit_type"][u])])
    assert got == forces
    assert (rec["sc_unit_pos"][:nu] == -1).all()


class _Recorder(cp.RandomPlayer):
    """A random player that also records the forces of the games it plays."""

    def __init__(self, swap_p: float = 0.0):
        super().__init__(swap_p)
        self.spent: list[int] = []

    def spend(self, points, force, fc, rng):
        self.spent.append(points)
        return super().spend(points, force, fc, rng)


def test_a_campaign_gives_every_player_the_same_games_and_the_most_awards_win():
    """FC Steps 3-5, "Campaign Points", "Winning The Campaign": 4 players, 2 rounds, random
    pairings; each plays 2 games, earns 9 / 6 / 3 per game and the player(s) with the most
    Promotion Awards win."""
    players = [_Recorder(swap_p=0.5) for _ in range(4)]
    res = cp.run_campaign(players, rounds=2, seed=3)
    assert len(res.games) == 4
    played = [0] * 4
    for _r, name, a, b, w in res.games:
        assert name == "Standard Battlefield"
        played[a] += 1
        played[b] += 1
        assert w in (-1, a, b)
    assert played == [2, 2, 2, 2]
    for i, p in enumerate(players):
        assert len(p.spent) == 2 and sum(p.spent) == res.earned[i]
        assert all(x in (9, 6, 3) for x in p.spent)
        assert sum(PTS[n] for n in res.forces[i]) <= 36
    assert res.winners == [i for i in range(4) if res.awards[i] == max(res.awards)]


def test_an_alternate_campaign_plays_its_fixed_sequence(tmp_path):
    """FC "Alternate Campaigns": a fixed sequence of battlefields, one round each, in order."""
    doc = battlefield_doc()
    doc["name"] = "Open Field"
    other = write(doc, tmp_path)
    res = cp.run_campaign(
        [cp.RandomPlayer(), cp.RandomPlayer()], sequence=[other, tt.STANDARD_PATH], seed=1
    )
    assert [g[1] for g in res.games] == ["Open Field", "Standard Battlefield"]
    assert sum(res.earned) in (30, 21, 12)  # 15 per decided game, 6 per draw


def test_bad_campaigns_are_refused_naming_the_value():
    with pytest.raises(ValueError, match="even number of players"):
        cp.run_campaign([cp.RandomPlayer()] * 3, rounds=1)
    with pytest.raises(ValueError, match="rounds must be 1 or more, got 0"):
        cp.run_campaign([cp.RandomPlayer()] * 2, rounds=0)
    with pytest.raises(ValueError, match="either a fixed"):
        cp.run_campaign([cp.RandomPlayer()] * 2, rounds=1, sequence=[tt.STANDARD_PATH])

    class Greedy(cp.RandomPlayer):
        def choose_force(self, allowed, fc, rng):
            return ["LEGENDARY"] * 10

    with pytest.raises(ValueError, match="campaign player 0: force"):
        cp.run_campaign([Greedy(), cp.RandomPlayer()], rounds=1)


def test_same_seed_same_campaign():
    a = cp.run_campaign([cp.RandomPlayer(0.5), cp.RandomPlayer(0.5)], rounds=2, seed=5)
    b = cp.run_campaign([cp.RandomPlayer(0.5), cp.RandomPlayer(0.5)], rounds=2, seed=5)
    assert (a.games, a.awards, a.forces) == (b.games, b.awards, b.forces)
    assert np.sum(a.earned) == np.sum(b.earned)
