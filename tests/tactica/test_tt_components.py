"""TACTICA clauses that span chapters, on hand-built states (tests/tactica/tt_board.py): the
components (TT-B.1.2), what may share a hex (TT-B.2.4), the troop cards' numbers from
troops.yaml into combat (TT-B.3.1), and the advanced game as the basic game plus Part 3
(TT-A.0.1), checked over both values of S["advanced"]."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
import yaml
from tt_board import B0, CARD, NB, TABLES, TB, I, battle, hand, ids, ok, put_feature, put_spire, to

from envs.tactica import barracks, combat, combat_phase, movement, piles
from envs.tactica import state as st
from envs.tactica.actions import (
    A_CARD,
    A_HEX,
    A_PASS,
    N_ACTIONS,
    STAGE_ATTACKER_CARD,
    STAGE_DECREE,
    STAGE_DEFENDER_CARD,
    STAGE_ENGINEER_TARGET,
    STAGE_MOVE_DEST,
    STAGE_NEGATE_WINDOW,
    STAGE_RETREAT_WINDOW,
)
from envs.tactica.tables import (
    CARD_LANDMARK,
    CARD_SUMMON,
    CARD_TACTICS,
    CARD_TOKEN,
    CARD_TRAINING,
    CARD_TROOP,
    CARD_WALL,
    PILE_TACTICS,
    PILE_TROOP,
)

GEO = TABLES.battlefield
DIST = GEO.distance[0]
COMBAT_GEO = (NB, DIST, GEO.lof_crossed[0], GEO.lof_edges[0])
TROOPS_YAML = Path(__file__).resolve().parents[2] / "configs" / "tactica" / "troops.yaml"


# --- TT-B.1.2: draw cards, feature cards, the BETRAYER token ---------------------------------


def test_draw_cards_are_drawn_into_a_barracks_feature_cards_and_the_token_never_are() -> None:
    # the tables split the army: draw cards (troop, training, tactics) and the rest
    assert {int(k) for k in TABLES.card_type} == {CARD_TROOP, CARD_TRAINING, CARD_TACTICS}
    assert {int(k) for k in TABLES.feature_type} == {
        CARD_WALL,
        CARD_LANDMARK,
        CARD_SUMMON,
        CARD_TOKEN,
    }
    feature = dict(zip(TABLES.feature_names, TABLES.feature_count, strict=True))
    assert TB.n_walls == feature["Wall"] == 3
    assert TB.n_landmark_cards == feature["Hill/Hollow"] + feature["Ridge/Marsh"] == 2
    assert TB.summon_cards == feature["Summon card"] == 3
    assert feature["BETRAYER token"] == 1  # one per army: one slot per seat
    assert st.STATE_DTYPE["betrayer_token"].shape == (st.N_PLAYERS,)
    # only draw cards have card ids: the 37 of each army, nothing past them
    assert TB.n_army_cards == int(np.sum(TABLES.card_count)) == 37
    with pytest.raises(ValueError, match="unused card id"):
        piles.move_card(battle(), TB, B0, I(TB.n_army_cards), I(st.PLACE_BARRACKS), I(-1))
    # every draw card is drawn into the Barracks, from the pile of its kind; nothing else is
    S = battle()
    walls, spire = S["wall_hex"].copy(), S["summon_card_place"].copy()
    drawn: set[int] = set()
    for p in range(2):
        for pile in (PILE_TROOP, PILE_TACTICS):
            while True:
                c = int(piles.recruit_draw(S, TB, B0, I(p), I(pile)))
                if c < 0:
                    if piles.place_count(S, TB, B0, I(p), I(st.PLACE_BARRACKS)) == 0:
                        break
                    for k in range(st.N_CARD_IDS):  # make room: the Barracks to LOST
                        if S["card_place"][0, k] == st.PLACE_BARRACKS:
                            to(S, k, st.PLACE_LOST)
                    continue
                assert TABLES.card_pile[piles.card_name(TB, I(c))] == pile
                drawn.add(c)
    used = {c for c in range(st.N_CARD_IDS) if piles.card_used(TB, I(c))}
    assert drawn == used and len(used) == 2 * 37
    assert (S["wall_hex"] == walls).all() and (S["summon_card_place"] == spire).all()
    assert (S["betrayer_token"] == -1).all()
    ok(S)


# --- TT-B.2.4: one feature and one troop or summon per hex ------------------------------------


def test_a_hex_holds_one_feature_and_one_troop_or_summon() -> None:
    S = battle()
    foot = ids(0, "Foot")
    to(S, foot[0], st.PLACE_BATTLEFIELD, 40)
    with pytest.raises(ValueError, match="already holds a troop"):
        to(S, foot[1], st.PLACE_BATTLEFIELD, 40)
    # a troop may share a hex with a landmark (the Hill here), and the state stays consistent
    put_feature(S, 42, st.FEATURE_LANDMARK, 0, 0)
    S["landmark_hex"][0, 0, 0] = 42
    to(S, foot[1], st.PLACE_BATTLEFIELD, 42)
    ok(S)
    # the checker refuses a troop on a wall, a troop and a summon together, and a troop on a
    # spire: each is a state the kernels must never produce
    for bad in ("wall", "summon", "spire"):
        T = S.copy()
        if bad == "wall":
            T["hex_troop"][0, 40], T["card_hex"][0, foot[0]] = -1, 2
            T["hex_troop"][0, 2] = foot[0]
        elif bad == "summon":
            T["summon_card_place"][0, 1, 0] = st.SUMMON_ON_BATTLEFIELD
            T["summon_card_side"][0, 1, 0] = 0
            T["summon_card"][0, 1], T["summon_hex"][0, 1], T["hex_summon"][0, 40] = 0, 40, 1
        else:
            put_spire(T, 1, 40, [0])
        assert piles.conservation_error(T, TB, B0) == piles.CONSERVED
        assert piles.feature_error(T, TB, B0) == piles.ERR_HEX_SHARED, bad


# --- TT-B.3.1: the troop cards' numbers, from troops.yaml into combat -------------------------

# (combat, OFF, DEF, move, range) as the clause states them
CLAUSE_TROOPS = {
    "Foot": ("melee", 2, 2, 2, 1),
    "Champion": ("melee", 3, 4, 2, 1),
    "Archer": ("ranged", 2, 1, 2, 3),
    "Crossbow": ("ranged", 3, 1, 1, 2),
}


def _reach(S, card: int, target: int) -> bool:
    blocks = np.zeros(st.MAX_HEXES, np.bool_)
    combat_phase.fire_blocks(S, TB, B0, blocks)
    return bool(combat_phase.can_attack(S, TB, *COMBAT_GEO[1:], B0, I(card), I(target), blocks))


def _farthest_move(S, h: int) -> int:
    movement.begin_movement(S, TB, NB, B0)
    movement.apply_movement(S, TB, NB, B0, I(A_HEX + h))
    assert S["stage"][0] == STAGE_MOVE_DEST
    out = np.zeros(N_ACTIONS, np.int16)
    n = movement.legal_movement(S, TB, NB, B0, out)
    return max(int(DIST[h, a - A_HEX]) for a in out[:n])


def test_troop_cards_numbers_reach_combat_from_troops_yaml() -> None:
    rows = yaml.safe_load(TROOPS_YAML.read_text(encoding="utf-8"))["entries"]
    data = {
        r["name"]: (r["combat"], r["offense"], r["defense"], r["move"], r["range"]) for r in rows
    }
    assert data == CLAUSE_TROOPS
    for name, (_, off, def_, move, reach) in CLAUSE_TROOPS.items():
        t = TABLES.troop_index[name]
        # what the troop adds to an attack and what an attack on it must exceed, untrained
        assert combat.troop_attack_off(TB, t, 0, 1, False, False, False, 0) == off
        assert combat.target_total_def(TB, t, 0, 0, 0) == def_
        # the engine: attack range (melee: adjacent only) and move, on an open field
        S = battle()
        card = ids(0, name)[0]
        to(S, card, st.PLACE_BATTLEFIELD, 45)  # row 5, column 0
        for d in range(1, 5):
            T = S.copy()
            to(T, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 45 + d)  # d hexes along the row
            assert _reach(T, card, 45 + d) == (d <= reach), (name, d)
        assert _farthest_move(S, 45) == move, name


# --- TT-A.0.1: the advanced game = the basic game + Part 3 -------------------------------------


def _legal_combat(S) -> list[int]:
    out = np.zeros(N_ACTIONS, np.int16)
    n = combat_phase.legal_combat(S, TB, *COMBAT_GEO, B0, out)
    return [int(a) for a in out[:n]]


def _combat(S, a: int) -> None:
    assert a in _legal_combat(S), (a, _legal_combat(S))
    combat_phase.apply_combat(S, TB, *COMBAT_GEO, B0, I(a))


def _attack(S, target: int, attackers: list[int], cards: dict[int, str]) -> bool:
    """Player 0 attacks hex `target` with the troops on `attackers`; in each card window
    (stage -> card name) that card is played and not negated. Returns whether it captured."""
    victim = int(S["hex_troop"][0, target])
    combat_phase.begin_combat(S, TB, *COMBAT_GEO, B0)
    _combat(S, A_HEX + target)
    for h in attackers:
        _combat(S, A_HEX + h)
    _combat(S, A_PASS)
    while S["stage"][0] in (STAGE_RETREAT_WINDOW, STAGE_ATTACKER_CARD, STAGE_DEFENDER_CARD):
        name = cards.get(int(S["stage"][0]))
        _combat(S, A_CARD + CARD[name] if name else A_PASS)
        if S["stage"][0] == STAGE_NEGATE_WINDOW:
            _combat(S, A_PASS)
    return S["card_place"][0, victim] == st.PLACE_HOSTAGE


@pytest.mark.parametrize("advanced", [0, 1])
def test_the_advanced_game_is_the_basic_game_with_the_changes_of_part_three(advanced) -> None:
    # the Barracks phase: after the surrender round, decrees only in the advanced game (and
    # with them the SUMMON decree, the only way to a summoning spire)
    S = battle(advanced=bool(advanced))
    geo = (NB, DIST, GEO.wall_zone[0])
    barracks.begin_barracks(S, TB, *geo, B0)
    barracks.apply_barracks(S, TB, *geo, B0, I(A_PASS))
    barracks.apply_barracks(S, TB, *geo, B0, I(A_PASS))
    assert S["stage"][0] == (STAGE_DECREE if advanced else st.STAGE_PHASE_DONE)
    # Press: basic +1 only next to the target; advanced 1 + training at any range. A 1x
    # trained Archer (OFF 3) two hexes from a 1x trained Foot (DEF 3)
    S = battle(advanced=bool(advanced))
    archer, target = ids(0, "Archer")[0], ids(1, "Foot")[0]
    to(S, archer, st.PLACE_BATTLEFIELD, 45)
    to(S, target, st.PLACE_BATTLEFIELD, 47)
    to(S, ids(0, "Training")[0], st.PLACE_UNDER, archer)
    to(S, ids(1, "Training")[0], st.PLACE_UNDER, target)
    hand(S, 0, "Press")
    assert _attack(S, 47, [45], {STAGE_ATTACKER_CARD: "Press"}) == bool(advanced)  # 3 | 5 vs 3
    # Saved: basic counts every adjacent friendly melee troop (the Champion: +1), advanced
    # on a Foot only the training of adjacent Foot (+0). A Champion (OFF 3) on a Foot (DEF 2)
    S = battle(advanced=bool(advanced))
    to(S, ids(0, "Champion")[0], st.PLACE_BATTLEFIELD, 45)
    to(S, ids(1, "Foot")[0], st.PLACE_BATTLEFIELD, 46)
    to(S, ids(1, "Champion")[0], st.PLACE_BATTLEFIELD, 47)
    S["no_combat"][0, 1] = True  # player 1 only defends
    hand(S, 1, "Saved")
    assert _attack(S, 46, [45], {STAGE_DEFENDER_CARD: "Saved"}) == bool(advanced)  # 3 vs 3 | 2
    # Engineer: basic removes a wall or landmark card, advanced also a spire's top card
    S = battle(advanced=bool(advanced))
    put_spire(S, 1, 49, [0, 1, 0])
    hand(S, 0, "Engineer")
    combat_phase.begin_combat(S, TB, *COMBAT_GEO, B0)
    _combat(S, A_CARD + CARD["Engineer"])
    _combat(S, A_PASS)  # player 1 does not Negate it
    assert S["stage"][0] == STAGE_ENGINEER_TARGET
    walls = {h for hexes in ((2, 6), (92, 96)) for h in hexes}
    expected = walls | ({49} if advanced else set())
    assert {a - A_HEX for a in _legal_combat(S)} == expected
    ok(S)
