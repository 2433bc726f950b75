"""TAC seed chapters 1-2 (Overview, Game Flow): players, dealing, piles, rows, mode, hands,
rounds, player orders and the end of the game.
"""

from __future__ import annotations

import numpy as np
import pytest

from envs.tac import actions as A
from envs.tac import tac_v1
from envs.tac.kernels import reset_one
from envs.tac.observe import observation_size, observe
from envs.tac.render import render_text
from envs.tac.state import (
    MAX_TEAM,
    PILE_LIGHT,
    PILE_TANK,
    STAGE_DEFENCE,
    STAGE_DEPLOY,
    STAGE_GAME_OVER,
    STAGE_MODE,
    STAGE_OPEN_DEFENCE,
    STATIC,
    allocate,
)
from envs.tac.turn import apply_action, legal_actions

# A_DEPLOY: the passive games deploy every unit in the Frontline (2.2)
PASS_ACTIONS = (
    A.A_DEPLOY,
    A.A_HQ_DONE,
    A.A_REPOSITION_DONE,
    A.A_ATTACK_DONE,
    A.A_NO_DEFENCE,
    A.A_END_TURN,
)


def _team(S, p) -> list[int]:
    return [int(u) for u in S["team_type"][0, p] if u >= 0]


def _passive_game(tables, num_players: int, seed: int):
    """Play a whole game in which every player only passes (Static, no cards); record the
    player order and the AP at the start of every turn."""
    S = allocate(1, num_players)
    buf = np.empty(A.N_ACTIONS, dtype=np.int16)
    reset_one(S, tables.arrays, 0, seed, 0, buf)
    turns = []
    while S["stage"][0] != STAGE_GAME_OVER:
        n = legal_actions(S, tables.arrays, 0, buf)
        legal = [int(x) for x in buf[:n]]
        if S["stage"][0] == STAGE_MODE:
            turns.append(
                (
                    int(S["round"][0]),
                    int(S["active"][0]),
                    tuple(S["order"][0, :num_players]),
                    int(S["ap"][0]),
                )
            )
            a = A.A_MODE + STATIC
        else:
            a = next(x for x in legal if x in PASS_ACTIONS)
        apply_action(S, tables.arrays, 0, a, buf)
    return S, turns


# ---------------------------------------------------------------- 1.1 / 1.2


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_two_to_five_players(tables, num_players):
    """1.1: the game accommodates two to five players."""
    env = tac_v1.raw_env(num_players=num_players)
    env.reset(seed=3)
    assert env.agents == [f"player_{i}" for i in range(num_players)]


@pytest.mark.parametrize("num_players", [1, 6])
def test_fewer_than_two_or_more_than_five_players_is_refused(num_players):
    """1.1: outside 2-5 players there is no game."""
    with pytest.raises(ValueError, match="num_players"):
        allocate(1, num_players)


def test_action_deck_has_the_five_colours(tables):
    """1.2: Red (Ground Attacks), Orange (Air Attacks), Black (Defences), Blue (HQ support),
    Purple (Special Attacks)."""
    colours = {c.colour for c in tables.cards}
    assert colours == {"red", "orange", "black", "blue", "purple"}


# ---------------------------------------------------------------- 2.1 dealing


@pytest.mark.parametrize("num_players", [2, 3, 4, 5])
def test_each_player_is_dealt_two_tanks_and_five_light_units(make_game, num_players):
    """2.1: tanks and light units are dealt separately: 2 tanks and 5 light units each; the
    rest form the two reinforcement piles, so every unit card is in exactly one place."""
    g = make_game(num_players=num_players, seed=11)
    tb = g.tb
    for p in range(num_players):
        team = _team(g.S, p)
        assert sum(tb.unit_category[u] == 0 for u in team) == 2
        assert sum(tb.unit_category[u] == 1 for u in team) == 5
        assert g.S["dealt"][0, p].sum() == 7
    counts = np.zeros(len(g.tables.units), dtype=int)
    for p in range(num_players):
        for u in _team(g.S, p):
            counts[u] += 1
    for cat in (PILE_TANK, PILE_LIGHT):
        for i in range(int(g.S["pile_count"][0, cat])):
            u = int(g.S["pile"][0, cat, i])
            assert tb.unit_category[u] == cat
            counts[u] += 1
    assert list(counts) == [u.count for u in g.tables.units]


def test_units_are_dealt_at_random(make_game):
    """2.1: different games get different deals (the deal is shuffled)."""
    deals = {tuple(make_game(seed=s).S["team_type"][0, 0]) for s in range(20)}
    assert len(deals) > 10


def test_reinforcement_piles_show_only_their_top_card(make_game):
    """2.1: the piles are face up so the top card is visible: every player's observation
    changes when a top card changes and not when a card below it does."""
    g = make_game(seed=5)
    tb = g.tb
    out = np.zeros(observation_size(tb, int(g.S["num_players"][0])), dtype=np.float32)
    ref = np.zeros_like(out)
    observe(g.S, tb, 0, 1, ref)
    for cat in (PILE_TANK, PILE_LIGHT):
        n = int(g.S["pile_count"][0, cat])
        below, top = int(g.S["pile"][0, cat, 0]), int(g.S["pile"][0, cat, n - 1])
        other = next(
            u for u in range(len(g.tables.units)) if tb.unit_category[u] == cat and u != top
        )
        other_below = next(
            u for u in range(len(g.tables.units)) if tb.unit_category[u] == cat and u != below
        )
        g.S["pile"][0, cat, 0] = other_below
        observe(g.S, tb, 0, 1, out)
        assert np.array_equal(out, ref)
        g.S["pile"][0, cat, 0] = below
        g.S["pile"][0, cat, n - 1] = other
        observe(g.S, tb, 0, 1, out)
        assert not np.array_equal(out, ref)
        g.S["pile"][0, cat, n - 1] = top


# ---------------------------------------------------------------- 2.2 / 2.3 rows and mode at start


@pytest.mark.parametrize("num_players", [2, 5])
def test_teams_start_in_static_mode(make_game, num_players):
    """2.3: "Players start the game in Static Mode by default"."""
    g = make_game(num_players=num_players, seed=2, deploy=False)
    for p in range(num_players):
        assert int(g.S["mode"][0, p]) == STATIC


def _units(g, p) -> list[int]:
    return [t for t in range(MAX_TEAM) if g.S["team_type"][0, p, t] >= 0]


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_each_player_deploys_each_dealt_unit_in_a_row(make_game, num_players):
    """2.2 "Players then arrange these units into up to 3 rows": before the first turn every
    player, in seat order, places each dealt unit (lowest slot first) in one of 3 rows; the
    first turn then starts with the drawn player order (2.6)."""
    g = make_game(num_players=num_players, seed=4, deploy=False)
    assert g.stage == STAGE_DEPLOY
    chosen = {}
    for p in range(num_players):
        for i, t in enumerate(_units(g, p)):
            assert g.stage == STAGE_DEPLOY and int(g.S["current"][0]) == p
            assert g.legal() == [A.A_DEPLOY + r for r in range(3)]
            row = (i + p) % 3  # every seat uses all three rows
            g.act(A.A_DEPLOY + row)
            chosen[p, t] = row
            assert bool(g.S["deployed"][0, p, t])
    assert g.stage == STAGE_MODE
    assert int(g.S["active"][0]) == int(g.S["order"][0, 0]) and int(g.S["round"][0]) == 1
    assert int(g.S["decisions"][0]) == 7 * num_players
    for (p, t), row in chosen.items():
        assert int(g.S["team_row"][0, p, t]) == row


def test_deployed_rows_close_up_so_the_frontline_is_row_0(make_game):
    """2.2: "the row nearest his opponents is always called the Frontline": units deployed
    only in the Reserve and Rear Lines close up into the Frontline and Reserve Line."""
    g = make_game(seed=5, deploy=False)
    wanted = [2, 1, 2, 2, 1, 1, 2]
    for row in wanted:
        g.act(A.A_DEPLOY + row)
    assert [int(g.S["team_row"][0, 0, t]) for t in _units(g, 0)] == [r - 1 for r in wanted]
    assert int(g.S["current"][0]) == 1  # seat 1 deploys next


def test_deployment_is_hidden_until_all_have_deployed(tables):
    """2.2 (ours): while the deployment is under way nobody sees where another player put
    units (shown as not yet deployed), so deploying one at a time gives no one an advantage;
    once all have deployed the rows are public. A player sees his own placed units."""
    size = observation_size(tables.arrays, 2)

    def deployed_by_seat0(rows):
        g = tac_v1.raw_env(num_players=2, render_mode="ansi")
        g.reset(seed=11)
        for r in rows:
            g.step(A.A_DEPLOY + r)
        return g

    a = deployed_by_seat0([0, 0, 1, 1, 1, 1, 1])
    b = deployed_by_seat0([2, 1, 0, 0, 2, 2, 0])
    Sa, Sb = a.state_arrays, b.state_arrays
    assert int(Sa["stage"][0]) == STAGE_DEPLOY and int(Sa["current"][0]) == 1
    assert not np.array_equal(Sa["team_row"], Sb["team_row"])
    # seat 1, deploying now, cannot tell the two apart: observation, mask and render
    obs_a, obs_b = a.observe("player_1"), b.observe("player_1")
    assert np.array_equal(obs_a["observation"], obs_b["observation"])
    assert np.array_equal(obs_a["action_mask"], obs_b["action_mask"])
    assert render_text(Sa, 1, a.tables) == render_text(Sb, 1, b.tables)
    assert "not deployed" in render_text(Sa, 1, a.tables)
    # seat 0 sees its own rows
    assert not np.array_equal(
        a.observe("player_0")["observation"], b.observe("player_0")["observation"]
    )
    # seat 1 deploys the same way in both games: then every row is public
    for _ in range(7):
        a.step(A.A_DEPLOY + 0)
        b.step(A.A_DEPLOY + 0)
    assert int(Sa["stage"][0]) == STAGE_MODE
    out_a = np.zeros(size, dtype=np.float32)
    out_b = np.zeros(size, dtype=np.float32)
    observe(Sa, tables.arrays, 0, 1, out_a)
    observe(Sb, tables.arrays, 0, 1, out_b)
    assert not np.array_equal(out_a, out_b)


# ---------------------------------------------------------------- 2.4 action cards


@pytest.mark.parametrize("num_players", [2, 5])
def test_players_are_dealt_seven_action_cards(make_game, num_players):
    """2.4: 7 cards each; the undealt cards form the face-down draw pile."""
    g = make_game(num_players=num_players, seed=4)
    for p in range(num_players):
        assert sum(c is not None for c in g.hand_names(p)) == 7
    assert int(g.S["draw_count"][0]) == g.tables.n_action_cards - 7 * num_players
    assert int(g.S["discard_count"][0]) == 0


def test_discard_pile_is_reshuffled_when_the_draw_pile_runs_out(game):
    """2.4: players always draw back to 7; when the draw pile is empty the discard pile is
    shuffled into a new draw pile."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_hand(0, ["Tactical Smoke"])
    n = int(g.S["draw_count"][0])
    old = int(g.S["discard_count"][0])
    g.S["discard"][0, old : old + n] = g.S["draw"][0, :n]  # every draw card to the discard
    g.S["discard_count"][0] = old + n
    g.S["draw"][0, :] = -1
    g.S["draw_count"][0] = 0
    g.to_ending(0)
    g.act(A.A_END_TURN)
    assert sum(c is not None for c in g.hand_names(0)) == 7
    assert int(g.S["discard_count"][0]) == 0
    assert int(g.S["draw_count"][0]) == old + n - 6


# ---------------------------------------------------------------- 2.5 - 2.9 rounds


@pytest.mark.parametrize("num_players", [2, 3, 5])
def test_game_lasts_eight_rounds_with_one_turn_each(tables, num_players):
    """2.5 / 2.9: a standard game is 8 Game Rounds, every player taking one turn per round,
    then it ends. 2.7: every turn starts with 4 AP."""
    S, turns = _passive_game(tables, num_players, seed=7)
    assert S["stage"][0] == STAGE_GAME_OVER
    assert len(turns) == 8 * num_players
    for r in range(1, 9):
        assert sorted(p for (rr, p, _, _) in turns if rr == r) == list(range(num_players))
    assert all(ap == 4 for (_, _, _, ap) in turns)


def test_player_orders_are_drawn_at_odd_rounds_and_kept_at_even_rounds(tables):
    """2.6 / 2.8: new player orders at every odd round, unchanged in the even round after;
    within a round turns follow the order."""
    changed = 0
    firsts = set()
    for seed in range(12):
        _, turns = _passive_game(tables, 3, seed)
        order_of = {r: o for (r, _, o, _) in turns}
        for r in range(1, 9):
            assert [p for (rr, p, _, _) in turns if rr == r] == list(order_of[r])
            assert sorted(order_of[r]) == [0, 1, 2]
        for r in (2, 4, 6, 8):
            assert order_of[r] == order_of[r - 1]
        changed += sum(order_of[r] != order_of[r - 2] for r in (3, 5, 7))
        firsts.add(order_of[1][0])
    assert changed > 0  # orders are redrawn, not fixed
    assert firsts == {0, 1, 2}  # and random


def test_game_ends_when_a_team_loses_all_its_units(game):
    """2.9 / 3.1: the game ends at once when one player has lost every unit, whatever the
    round."""
    g = game
    g.set_team(0, [("Main Battle Tank", 0)])
    g.set_team(1, [("Armoured Car", 0)])
    g.set_hand(0, ["Heavy Gun 4", "Tactical Smoke"])
    g.set_hand(1, [])
    g.to_attack(0)
    g.act(g.attack(0, 1, 0))
    g.end_attacks()
    assert g.stage == STAGE_GAME_OVER
    assert int(g.S["round"][0]) == 1
    assert int(g.S["winner"][0]) == 0


def test_aec_env_plays_a_game_to_the_end(tables):
    """2.5-2.9 through the PettingZoo env: a passive game ends after 8 rounds with every
    agent terminated."""
    env = tac_v1.raw_env(num_players=2)
    env.reset(seed=1)
    steps = 0
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        if term or trunc:
            env.step(None)
            continue
        mask = obs["action_mask"]
        if mask[A.A_MODE + STATIC]:
            a = A.A_MODE + STATIC
        else:
            a = next(x for x in PASS_ACTIONS if mask[x])
        env.step(a)
        steps += 1
    S = env.state_arrays
    assert S["stage"][0] == STAGE_GAME_OVER and int(S["round"][0]) == 9
    assert steps >= 16


def test_defence_decisions_only_for_defenders(tables):
    """4.4: a Defence decision is always the defender's, never the active player's (random
    games)."""
    S = allocate(1, 3)
    buf = np.empty(A.N_ACTIONS, dtype=np.int16)
    from envs.tac.turn import random_legal_action

    seen = 0
    for seed in range(3):
        reset_one(S, tables.arrays, 0, seed, 0, buf)
        while S["stage"][0] != STAGE_GAME_OVER:
            if S["stage"][0] in (STAGE_DEFENCE, STAGE_OPEN_DEFENCE):
                seen += 1
                assert S["current"][0] != S["active"][0]
            apply_action(S, tables.arrays, 0, random_legal_action(S, tables.arrays, 0, buf), buf)
    assert seen > 0
