"""Army building (TD-6) and Unit Stacking in the engine (TD-17): the army types, the pieces an
army may buy, the random armies of each type and the Stacked Units they hold."""

from __future__ import annotations

import numpy as np
import pytest

from envs.tactics_david import army as A
from envs.tactics_david import state as st
from envs.tactics_david.observe import N_PLACES, observation_size
from envs.tactics_david.record import build_record
from envs.tactics_david.ruleset import ruleset
from envs.tactics_david.setup import add_stack
from envs.tactics_david.units import unit_class
from envs.tactics_david.view import render_text
from tests.tactics_david.td_board import B0, TABLES, I, position, record
from tests.tactics_david.test_td_setup import _start

UNIT = TABLES.units.unit_index


def _offer(tb, names: list[str]) -> int:
    """Index of the piece `names` (top first) in the tables record."""
    rows = [UNIT[n] for n in names] + [-1] * (3 - len(names))
    hit = np.flatnonzero((tb.of_member[: tb.n_offers] == rows).all(axis=1))
    assert hit.size == 1, names
    return int(hit[0])


def test_seed_stack_example_in_the_engine():
    """TD-17.3 / TD-17.4 / TD-17.5: Soldier + Warrior + Spearman with the Spearman on top: Strength
    Ratings 10/5/6/4, cost 6 + 8 + 11 + 12 = 37, the Spearman's types and movement, one unit
    of class Heavy Stacked (3 stacking points, R4)."""
    tb = record()
    S = position(tb)
    o = _offer(tb, ["Spearman", "Soldier", "Warrior"])
    assert tb.of_cost[o] == 37 and tb.of_class[o] == 2 and tb.of_n[o] == 3
    u = int(add_stack(S, tb, B0, I(0), I(o)))
    assert tuple(S["unit_strength"][0, u]) == (10, 5, 6, 4)
    assert S["unit_cost"][0, u] == 37 and S["army_cost"][0, 0] == 37
    assert S["unit_n_members"][0, u] == 3 and S["unit_member"][0, u, 0] == UNIT["Spearman"]
    assert S["unit_type"][0, u] == TABLES.units.unit_type[UNIT["Spearman"]]
    assert unit_class(S, tb, B0, I(u)) == 2
    two = int(add_stack(S, tb, B0, I(0), I(_offer(tb, ["Warrior", "Soldier"]))))
    assert S["unit_cost"][0, two] == 6 + 8 + 6 and unit_class(S, tb, B0, I(two)) == 1
    assert S["army_bought"][0, 0, UNIT["Soldier"]] == 2


def test_only_legal_stacks_are_offered():
    """TD-17.1 / TD-17.2: every stack offered has 2-3 members, at most 3 stacking points (never
    a Heavy unit) and every two members within 2 Lines of Lineage; the forbidden ones are
    missing (Knight + Paladin: a Heavy; Soldier + Archer: two families)."""
    tb = build_record(TABLES)
    u = TABLES.units
    lin = TABLES.lineage
    for o in range(int(tb.n_profiles), int(tb.n_offers)):
        rows = [int(x) for x in tb.of_member[o] if x >= 0]
        assert len(rows) == tb.of_n[o] in (2, 3)
        points = sum(int(TABLES.class_stacking_points[u.unit_class[r]]) for r in rows)
        assert points <= 3
        for i in rows:
            for j in rows:
                assert 0 <= lin[i, j] <= 2
    pairs = {tuple(int(x) for x in tb.of_member[o, :2]) for o in range(tb.n_offers)}
    assert (UNIT["Paladin"], UNIT["Knight"]) not in pairs
    assert (UNIT["Archer"], UNIT["Soldier"]) not in pairs
    assert (UNIT["Angel"], UNIT["Soldier"]) in pairs  # exactly 2 Lines apart


@pytest.mark.parametrize("army_type", A.ARMY_TYPES)
def test_random_armies_follow_the_army_type(army_type):
    """TD-6.1-6.8, TD-17: the engine's random armies (with stacks) pass army.check_pieces for
    their type; Strict armies take each Root first and hold stacks too."""
    tb = build_record(TABLES, army=A.ARMY_TYPES.index(army_type), stacks=1)
    stacks = 0
    families = set()
    for g in range(12):
        S, _ = _start(40, g, tb)
        for p in range(2):
            pieces = A.state_army(S, 0, p)
            assert pieces, (army_type, g, p)
            cost = A.check_pieces(TABLES, pieces, A.ARMY_TYPES.index(army_type), 100)
            assert cost == S["army_cost"][0, p]
            stacks += sum(len(x) > 1 for x in pieces)
            fam = {int(tb.u_family[i]) for x in pieces for i in x}
            families.add(len(fam))
            bought = np.zeros(st.MAX_PROFILE_SLOTS, dtype=np.int64)
            for x in pieces:
                for i in x:
                    bought[i] += 1
            assert (S["army_bought"][0, p] == bought).all()
    assert stacks > 0
    if army_type == "family":
        assert families == {1}


def test_free_armies_break_the_strict_rules():
    """The Strict check can fail: free random armies (the default) break it, Mixed ones never."""
    tb = build_record(TABLES)
    broken = 0
    for g in range(10):
        S, _ = _start(41, g, tb)
        for p in range(2):
            pieces = A.state_army(S, 0, p)
            assert all(len(x) == 1 for x in pieces)  # no stacks by default
            try:
                A.check_pieces(TABLES, pieces, A.ARMY_MIXED, 100)
            except ValueError:
                broken += 1
    assert broken > 0


@pytest.mark.parametrize(
    "army, army_type, rule",
    [
        ([["Knight"]] * 13, "free", "TD-6.1"),  # 13 x 8 = 104 > 100
        ([["Soldier"], ["Hunter"]], "mixed", "TD-6.3"),
        ([["Soldier"], ["Bone Knight"]], "mixed", "TD-6.4"),
        ([["Soldier"]] * 4, "mixed", "TD-6.5"),
        ([["Soldier"], ["Knight"], ["Angel", "Soldier"]], "mixed", "TD-6.4"),
        ([["Soldier"], ["Soldier"], ["Soldier"], ["Angel", "Soldier"]], "mixed", "TD-6.5"),
        ([["Soldier"], ["Knight", "Soldier"]], "themed", "TD-6.4"),
        ([["Soldier"], ["Warrior"], ["Spearman"], ["Bone Knight"]], "themed", "TD-6.7"),
        ([["Soldier"], ["Archer"], ["Apprentice"]], "family", "TD-6.8"),
        ([["Soldier", "Archer"]], "free", "TD-17.1/17.2"),
        ([["Knight", "Paladin"]], "free", "TD-17.1/17.2"),
        ([["Soldier"]], "strict", "TD-6.2"),
        ([["Nobody"]], "free", "TD-6.1"),
    ],
)
def test_bad_armies_name_the_rule(army, army_type, rule):
    with pytest.raises(ValueError, match=rule.replace(".", r"\.")):
        A.check_army(TABLES, army, army_type, 100)


def test_legal_strict_armies_pass():
    """The seed's own stack in a Mixed army: 3 Light Units for the Heavy Stacked unit's two
    Mediums, the Soldier Root in the army."""
    army = [["Soldier"], ["Warrior"], ["Spearman"], ["Soldier"], ["Warrior"], ["Spearman"]]
    assert A.check_army(TABLES, army, "themed", 100) > 0
    army = [["Soldier"], ["Archer"], ["Apprentice"], ["Spearman", "Warrior"]]
    assert A.check_army(TABLES, army, "mixed", 100) > 0


def test_army_options_reach_the_record():
    rs = ruleset(options={"army": "family", "stacks": "random"})
    assert rs.tables_batch[0].opt_army == A.ARMY_FAMILY and rs.tables_batch[0].opt_stacks == 1
    assert ruleset().tables_batch[0].opt_army == A.ARMY_FREE
    with pytest.raises(ValueError, match="army"):
        ruleset(options={"army": "strict"})
    with pytest.raises(ValueError, match="army"):
        build_record(TABLES, army=7)


def test_the_observation_and_the_text_show_a_stack():
    """A Stacked Unit is one unit whose members, summed ratings and R4 class are shown."""
    tb = record()
    S = position(tb)
    u = int(add_stack(S, tb, B0, I(0), I(_offer(tb, ["Spearman", "Soldier", "Warrior"]))))
    text = render_text(S, TABLES, 0)
    assert "Spearman + Soldier + Warrior (37)" in text and "F/L/R/B 10/5/6/4" in text
    from envs.tactics_david.observe import BUY_SIZE, UNIT_SIZE, observe

    obs = np.zeros(observation_size(), dtype=np.float32)
    observe(S, tb, B0, I(0), obs)
    i = observation_size() - BUY_SIZE - 2 * st.MAX_UNITS * UNIT_SIZE + u * UNIT_SIZE + N_PLACES
    members = np.round(obs[i : i + 3] * 256 - 1).astype(int).tolist()
    assert members == [UNIT["Spearman"], UNIT["Soldier"], UNIT["Warrior"]]
    assert obs[i + 3] == 1.0  # 3 of 3 members


@pytest.mark.parametrize("army_type", ["free", "family"])
def test_resampled_reserve_keeps_the_army_legal(army_type):
    """R54 with stacks and Strict types: the opponent's redrawn reserve is another legal army of
    the same size and type, and the observer's observation does not change."""
    from envs.tactics_david.hidden import resample_hidden
    from envs.tactics_david.observe import observe

    tb = build_record(TABLES, army=A.ARMY_TYPES.index(army_type), stacks=1)
    rng = np.random.default_rng(3)
    changed = 0
    for g in range(4):
        S, _ = _start(42, g, tb)
        R = resample_hidden(S, 0, rng, tb, TABLES)
        pieces = A.state_army(R, 0, 1)
        assert len(pieces) == S["army_size"][0, 1]
        A.check_pieces(TABLES, pieces, A.ARMY_TYPES.index(army_type), 100)
        changed += pieces != A.state_army(S, 0, 1)
        a = np.zeros(observation_size(), dtype=np.float32)
        b = np.zeros(observation_size(), dtype=np.float32)
        observe(S, tb, B0, I(0), a)
        observe(R, tb, B0, I(0), b)
        assert (a == b).all()
    assert changed > 0


def _buy(S, tb, a):
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import MAX_LEGAL

    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    legal = [int(x) for x in out[: K.legal(S, tb, B0, out)]]
    assert a in legal, (a, legal[:8])
    n = K.apply_one(S, tb, B0, I(a), out)
    return [int(x) for x in out[:n]]


def test_players_build_their_armies_piece_by_piece():
    """TD-6 / TD-17 as decisions (army_building=players, R71): seat 0 then seat 1 buy pieces
    (a top unit, then a stack's lower members); the seed's stack costs 37; A_END ends each
    army; the roll-off follows. Under Mixed only pieces the Strict rules allow are offered."""
    from envs.tactics_david.actions import (
        A_END,
        A_PIECE,
        STAGE_BUY,
        STAGE_BUY_ITEM,
        STAGE_BUY_STACK,
        STAGE_FIRST,
    )

    tb = build_record(TABLES, buy=1)
    S, legal = _start(5, 0, tb)
    assert S["stage"][0] == STAGE_BUY and S["current"][0] == 0 and S["army_size"][0].sum() == 0
    assert A_END not in legal  # an army holds at least one unit
    assert A_PIECE + UNIT["Paladin"] in legal  # free building: a Heavy unit alone
    legal = _buy(S, tb, A_PIECE + UNIT["Spearman"])
    assert S["stage"][0] == STAGE_BUY_STACK and A_END in legal
    assert A_PIECE + UNIT["Paladin"] not in legal  # never a Heavy in a stack (TD-17.1)
    _buy(S, tb, A_PIECE + UNIT["Soldier"])
    legal = _buy(S, tb, A_PIECE + UNIT["Warrior"])  # the third member buys the piece
    u = 0
    assert tuple(S["unit_strength"][0, u]) == (10, 5, 6, 4) and S["unit_cost"][0, u] == 37
    assert S["stage"][0] == STAGE_BUY and A_END in legal
    assert all(tb.u_cost[a - A_PIECE] <= 100 - 37 for a in legal if a != A_END)
    _buy(S, tb, A_PIECE + UNIT["Archer"])
    _buy(S, tb, A_END)  # the Archer alone
    _buy(S, tb, A_END)  # seat 0's pieces are done: its Items (R142)
    assert S["current"][0] == 0 and S["stage"][0] == STAGE_BUY_ITEM
    _buy(S, tb, A_END)  # no Item: seat 0's army is done
    assert S["current"][0] == 1 and S["stage"][0] == STAGE_BUY
    _buy(S, tb, A_PIECE + UNIT["Knight"])
    _buy(S, tb, A_END)
    _buy(S, tb, A_END)
    _buy(S, tb, A_END)
    assert S["stage"][0] == STAGE_FIRST
    assert A.state_army(S, 0, 0) == [
        (UNIT["Spearman"], UNIT["Soldier"], UNIT["Warrior"]),
        (UNIT["Archer"],),
    ]
    assert A.state_army(S, 0, 1) == [(UNIT["Knight"],)]
    assert S["army_cost"][0, 0] == 37 + 9 and S["army_bought"][0, 0, UNIT["Soldier"]] == 1
    # Mixed: the first piece must hold its Root; a Medium waits for 3 Light Units
    tb = build_record(TABLES, buy=1, army=A.ARMY_MIXED)
    S, legal = _start(5, 0, tb)
    assert A_PIECE + UNIT["Soldier"] in legal and A_PIECE + UNIT["Bone Knight"] not in legal
    assert A_PIECE + UNIT["Knight"] not in legal  # its Root Soldier is not in the army yet
    legal = _buy(S, tb, A_PIECE + UNIT["Soldier"])  # no stack may follow yet: bought at once
    assert S["stage"][0] == STAGE_BUY and S["army_size"][0, 0] == 1
    assert A_PIECE + UNIT["Knight"] in legal


@pytest.mark.parametrize("army_type", ["mixed", "family"])
def test_random_players_build_legal_armies(army_type):
    """Random decisions through the buying stages always end in legal armies of the type,
    with their bought Items (R142)."""
    from envs.tactics_david.actions import BUY_STAGES, STAGE_FIRST

    tb = build_record(TABLES, buy=1, army=A.ARMY_TYPES.index(army_type))
    rng = np.random.default_rng(7)
    stacks = items = 0
    for g in range(3):
        S, legal = _start(6, g, tb)
        while S["stage"][0] in BUY_STAGES:
            legal = _buy(S, tb, int(rng.choice(legal)))
        assert S["stage"][0] == STAGE_FIRST
        for p in range(2):
            pieces, got = A.state_army(S, 0, p), A.state_items(S, 0, p)
            cost = A.check_pieces(TABLES, pieces, A.ARMY_TYPES.index(army_type), 100, got)
            assert cost == S["army_cost"][0, p]
            stacks += sum(len(x) > 1 for x in pieces)
            items += len(got)
    assert stacks > 0 and items > 0


def test_the_piece_being_bought_is_hidden_from_the_opponent():
    from envs.tactics_david.actions import A_PIECE
    from envs.tactics_david.observe import BUY_SIZE, observe

    tb = build_record(TABLES, buy=1)
    S, _ = _start(5, 0, tb)
    _buy(S, tb, A_PIECE + UNIT["Spearman"])
    mine = np.zeros(observation_size(), dtype=np.float32)
    theirs = np.zeros(observation_size(), dtype=np.float32)
    observe(S, tb, B0, I(0), mine)
    observe(S, tb, B0, I(1), theirs)
    assert round(float(mine[-BUY_SIZE]) * 256 - 1) == UNIT["Spearman"]
    assert not theirs[-BUY_SIZE:].any()


def test_agents_build_armies_and_finish_games():
    """With army_building=players (Mixed) the random and heuristic agents build legal armies
    and play the game out; the heuristic spends its purchase limit until no unit fits."""
    from agents.tactics_david.baselines import AGENT_HEURISTIC, AGENT_RANDOM, choose_action
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import BUY_STAGES, MAX_LEGAL, STAGE_GAME_OVER

    tb = ruleset(options={"army_building": "players", "army": "mixed"}).tables_batch[0]
    out = np.empty(MAX_LEGAL, dtype=np.int64)
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    S = st.allocate(1)
    n = K.start_one(S, tb, B0, I(8), I(0), out)
    agents = (I(AGENT_HEURISTIC), I(AGENT_RANDOM))
    built = None  # the armies as bought (abilities may replace units later: Hatch, I39)
    while n > 0:
        if built is None and S["stage"][0] not in BUY_STAGES:
            built = [(A.state_army(S, 0, p), A.state_items(S, 0, p)) for p in range(2)]
        a = choose_action(S, tb, B0, agents[int(S["current"][0])], buf)
        assert a in set(out[:n].tolist())
        n = K.apply_one(S, tb, B0, I(a), out)
    assert S["stage"][0] == STAGE_GAME_OVER and built is not None
    for p in range(2):
        assert A.check_pieces(TABLES, built[p][0], A.ARMY_MIXED, 100, built[p][1]) > 0
    assert built[0][1] == []  # the heuristic buys no Items
    left = 100 - int(S["army_cost"][0, 0])
    assert left < int(TABLES.units.cost.min()) or S["army_size"][0, 0] == st.MAX_UNITS


def test_resample_hides_the_piece_being_bought():
    """R54: while seat 0 buys a Stacked Unit, seat 1's resampled state holds another legal
    piece in progress, and seat 1 observes the same."""
    from envs.tactics_david.actions import A_PIECE, STAGE_BUY_STACK
    from envs.tactics_david.hidden import resample_hidden
    from envs.tactics_david.observe import observe

    tb = build_record(TABLES, buy=1)
    S, _ = _start(5, 0, tb)
    _buy(S, tb, A_PIECE + UNIT["Spearman"])
    _buy(S, tb, A_PIECE + UNIT["Soldier"])
    rng = np.random.default_rng(1)
    tops = set()
    for _ in range(6):
        R = resample_hidden(S, 1, rng, tb, TABLES)
        assert R["stage"][0] == STAGE_BUY_STACK and R["buy_n"][0] == 1
        tops.add(int(R["buy_member"][0, 0]))
        a = np.zeros(observation_size(), dtype=np.float32)
        b = np.zeros(observation_size(), dtype=np.float32)
        observe(S, tb, B0, I(1), a)
        observe(R, tb, B0, I(1), b)
        assert (a == b).all()
    assert len(tops) > 1


@pytest.mark.parametrize(
    "options",
    [{"stacks": "random", "army": "mixed"}, {"army_building": "players", "army": "themed"}],
)
def test_games_with_stacks_and_bought_armies_keep_the_invariants(options):
    """Whole random games with Stacked Units and Strict or player-built armies break no
    invariant (a stack's class for its Items is R4's)."""
    problems, example, decisions = ruleset(options=options).fuzz(2, 3, 5)
    assert problems == {} and example is None and decisions > 0


def test_a_stack_of_two_lights_plays_as_a_medium():
    """TD-17.5 / R4: two Archers stacked are Medium Stacked: their Ranged Melee Procedure
    attacks with the Medium rating 2 (TD-10.5) and they may equip the Mega Potion, which
    Light units may not (TD-19.3)."""
    from envs.tactics_david import combat, items
    from envs.tactics_david.units import put
    from tests.tactics_david.td_board import E, W, cell, unit

    tb = record()
    S = position(tb)
    pair = int(add_stack(S, tb, B0, I(0), I(_offer(tb, ["Archer", "Archer"]))))
    put(S, B0, I(pair), I(cell(tb, 5, 5)))
    S["unit_facing"][0, pair] = E
    single = unit(S, tb, 0, "Archer", 7, 5, E)
    foe = unit(S, tb, 1, "Soldier", 5, 6, W)
    foe2 = unit(S, tb, 1, "Soldier", 7, 6, W)
    front = I(st.SIDE_FRONT)
    got = combat.sides_and_strengths(S, tb, B0, I(pair), I(foe), front, True)[0]
    assert got == tb.class_ranged_melee[1] == 2
    got = combat.sides_and_strengths(S, tb, B0, I(single), I(foe2), front, True)[0]
    assert got == tb.class_ranged_melee[0] == 1
    mega = I(TABLES.item_index["Mega Potion"])
    assert items.may_equip(S, tb, B0, I(pair), mega)
    assert not items.may_equip(S, tb, B0, I(single), mega)
