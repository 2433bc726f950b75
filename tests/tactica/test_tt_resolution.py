"""TACTICA Resolution, winning a battle and the war (envs/tactica/resolution.py) on hand-built
states: TT-B.7.5 (played cards, discards, end of turn), TT-B.4.1, TT-A.1.3, TT-A.2.6, TT-A.3.3,
TT-A.4.6, TT-A.5.3, TT-B.8.1-8.5, TT-B.9.1, readings R60-R61, and a seeded random Resolution
loop that keeps every invariant."""

from __future__ import annotations

import numpy as np
from tt_board import B0, TB, WALLS, I, battle, hand, ids, ok, to

from envs.tactica import piles, resolution
from envs.tactica import state as st
from envs.tactica.actions import A_CARD, A_PASS, N_ACTIONS, STAGE_DISCARD
from envs.tactica.tables import CARD_TACTICS, PHASE_RESOLUTION, load_tables

CARD = load_tables().card_index
DECREE = {name: d for d, name in enumerate(load_tables().decree_names)}


def legal(S) -> list[int]:
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    n = resolution.legal_resolution(S, TB, B0, out)
    return [int(a) for a in out[:n]]


def act(S, a: int) -> None:
    assert a in legal(S), (a, legal(S))
    resolution.apply_resolution(S, TB, B0, I(a))


def begin(S) -> None:
    resolution.begin_resolution(S, TB, B0)


def barracks(S, p: int) -> int:
    return int(piles.place_count(S, TB, B0, I(p), I(st.PLACE_BARRACKS)))


def field(S, p: int, n: int, name: str = "Foot", row: int = 4) -> list[int]:
    """n troops of p named `name` on row `row` (columns 0..n-1)."""
    cards = [c for c in ids(p, name) if S["card_place"][0, c] in (0, 1)][:n]
    for i, c in enumerate(cards):
        to(S, c, st.PLACE_BATTLEFIELD, row * 9 + i)
    return cards


def hostages(S, holder: int, n: int) -> None:
    """n of the other seat's troops in `holder`'s hostage pile."""
    other = 1 - holder
    cards = [
        c for c in ids(other, "Foot") + ids(other, "Archer") if S["card_place"][0, c] in (0, 1)
    ]
    for c in cards[:n]:
        to(S, c, st.PLACE_HOSTAGE, holder)


def breach(S, p: int) -> None:
    """Seat p's wall cards leave the battlefield for LOST (as an Engineer would send them)."""
    for w, h in enumerate(WALLS[p]):
        S["hex_feature"][0, h] = st.FEATURE_NONE
        S["hex_feature_owner"][0, h] = -1
        S["hex_feature_card"][0, h] = -1
        S["wall_hex"][0, p, w] = -1
        S["wall_lost"][0, p, w] = True


def fighting(turn: int = 5, first: int = 0) -> np.ndarray:
    """Battle 1 at `turn`, both walls up, one Foot each on the field: nobody has won."""
    S = battle(first)
    S["turn"][0] = turn
    field(S, 0, 1, row=4)
    field(S, 1, 1, row=6)
    return S


def resolve(S) -> None:
    """Run the Resolution with both Barracks empty (no discard decision)."""
    begin(S)
    assert S["stage"][0] != STAGE_DISCARD


# --- (1) played cards (TT-B.7.5, TT-A.1.3, TT-A.2.6, TT-A.3.3) ------------------------------


def test_played_press_returns_to_the_barracks_and_saved_engineer_go_to_resupply() -> None:
    S = fighting()
    played = hand(S, 0, "Press", "Saved", "Engineer") + hand(S, 1, "Press", "Spy")
    for c in played:
        to(S, c, st.PLACE_IN_PLAY)
    resolution.return_played_cards(S, TB, B0)
    places = [int(S["card_place"][0, c]) for c in played]
    assert places == [
        st.PLACE_BARRACKS,
        st.PLACE_RESUPPLY,
        st.PLACE_RESUPPLY,
        st.PLACE_BARRACKS,
        st.PLACE_RESUPPLY,
    ]
    ok(S)


def test_every_played_tactics_card_goes_where_its_text_says() -> None:
    # TT-B.4.1: Press to its owner's BARRACKS, every other tactics card to its owner's RESUPPLY
    S = fighting()
    names = ("Press", "Saved", "Engineer", "Spy", "Negate", "Retreat", "Crown")
    played = {(p, name): hand(S, p, name)[0] for p in (0, 1) for name in names}
    for c in played.values():
        to(S, c, st.PLACE_IN_PLAY)
    resolution.return_played_cards(S, TB, B0)
    for (p, name), c in played.items():
        want = st.PLACE_BARRACKS if name == "Press" else st.PLACE_RESUPPLY
        assert S["card_place"][0, c] == want, (p, name)
        assert piles.card_owner(I(c)) == p
    ok(S)


# --- (2) discards (TT-B.7.5) -------------------------------------------------------------------


def test_discard_down_to_seven_pass_legal_only_at_seven_or_fewer() -> None:
    S = fighting()
    cards = hand(S, 0, "Foot", "Foot", "Archer", "Press", "Saved", "Spy", "Negate", "Crown", "Foot")
    assert barracks(S, 0) == 9
    begin(S)
    assert S["stage"][0] == STAGE_DISCARD and S["current"][0] == 0
    names = sorted(
        {CARD[n] for n in ("Foot", "Archer", "Press", "Saved", "Spy", "Negate", "Crown")}
    )
    assert legal(S) == [A_CARD + n for n in names]  # 9 cards: no pass
    act(S, A_CARD + CARD["Foot"])
    assert A_PASS not in legal(S)  # 8
    assert S["card_place"][0, cards[0]] == st.PLACE_RESUPPLY  # the lowest id of the name (R31)
    act(S, A_CARD + CARD["Crown"])
    assert legal(S)[-1] == A_PASS  # 7: may stop
    act(S, A_CARD + CARD["Spy"])  # and may discard more (any cards)
    assert barracks(S, 0) == 6
    act(S, A_PASS)
    assert S["stage"][0] == st.STAGE_PHASE_DONE  # seat 1's Barracks is empty: skipped
    assert piles.place_count(S, TB, B0, I(0), I(st.PLACE_RESUPPLY)) == 3
    ok(S)


def test_discards_first_player_first_then_the_other() -> None:
    S = fighting(first=1)
    hand(S, 0, "Foot")
    hand(S, 1, "Foot", "Press")
    begin(S)
    assert S["phase"][0] == PHASE_RESOLUTION
    assert S["current"][0] == 1 and legal(S) == [
        A_CARD + CARD["Foot"],
        A_CARD + CARD["Press"],
        A_PASS,
    ]
    act(S, A_PASS)
    assert S["stage"][0] == STAGE_DISCARD and S["current"][0] == 0
    act(S, A_CARD + CARD["Foot"])  # the whole Barracks discarded: nothing left to decide
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    ok(S)


def test_a_pressed_card_back_in_the_barracks_counts_toward_seven() -> None:
    S = fighting()
    hand(S, 0, "Foot", "Foot", "Foot", "Archer", "Archer", "Spy", "Negate")
    to(S, hand(S, 0, "Press")[0], st.PLACE_IN_PLAY)
    begin(S)
    assert barracks(S, 0) == 8 and A_PASS not in legal(S)


def test_tactica_leaves_the_barred_player_their_discards() -> None:
    # TT-A.5.3 (NOTE1): the opponent of a TACTICA! plays no card this turn, but discarding in
    # RESOLUTION is no play: they discard freely and must still come down to seven
    S = fighting(first=0)
    S["decree_enacted"][0, 0] = DECREE["TACTICA!"]
    S["no_cards"][0, 1] = True
    hand(S, 0, "Foot")
    cards = hand(S, 1, "Foot", "Foot", "Archer", "Press", "Saved", "Spy", "Negate", "Crown")
    begin(S)
    act(S, A_PASS)  # player 0 keeps their Foot
    assert S["stage"][0] == STAGE_DISCARD and S["current"][0] == 1
    assert A_PASS not in legal(S)  # eight cards: one must go
    assert legal(S) == sorted(
        A_CARD + CARD[n] for n in {"Foot", "Archer", "Press", "Saved", "Spy", "Negate", "Crown"}
    )
    act(S, A_CARD + CARD["Crown"])
    assert S["card_place"][0, cards[-1]] == st.PLACE_RESUPPLY
    assert A_PASS in legal(S)
    act(S, A_CARD + CARD["Spy"])  # a free discard below seven too
    act(S, A_PASS)
    assert barracks(S, 1) == 6 and S["stage"][0] == st.STAGE_PHASE_DONE
    ok(S)


# --- (3) winning a battle (TT-B.8) -------------------------------------------------------------


def test_breach_a_player_with_no_wall_loses_the_battle() -> None:
    S = fighting(turn=1)
    breach(S, 1)
    assert resolution.battle_outcome(S, TB, B0) == 0
    resolve(S)
    assert S["battle_result"][0, 0] == 0 and S["battle"][0] == 2
    assert S["stage"][0] == st.STAGE_SETUP
    ok(S)


def test_one_wall_left_is_no_breach() -> None:
    S = fighting(turn=1)
    breach(S, 1)
    h = WALLS[1][0]
    S["hex_feature"][0, h] = st.FEATURE_WALL
    S["hex_feature_owner"][0, h] = 1
    S["hex_feature_card"][0, h] = 0
    S["wall_hex"][0, 1, 0] = h
    S["wall_lost"][0, 1, 0] = False
    assert resolution.battle_outcome(S, TB, B0) == resolution.BATTLE_GOES_ON


def test_rout_no_troop_loses_only_from_turn_three() -> None:
    S = battle()
    field(S, 0, 2)
    for turn, expected in ((1, resolution.BATTLE_GOES_ON), (2, resolution.BATTLE_GOES_ON), (3, 0)):
        S["turn"][0] = turn
        assert resolution.battle_outcome(S, TB, B0) == expected, turn


def test_rout_counts_a_betrayer_for_the_side_it_fights_for() -> None:
    S = battle()
    S["turn"][0] = 4
    field(S, 0, 1)
    (c,) = field(S, 0, 1, name="Archer", row=6)
    S["troop_betrayer"][0, c] = True  # seat 0's Archer fights for seat 1 (R60)
    S["betrayer_token"][0, 1] = c
    assert resolution.battle_outcome(S, TB, B0) == resolution.BATTLE_GOES_ON
    S["troop_betrayer"][0, c] = False
    S["betrayer_token"][0, 1] = -1
    assert resolution.battle_outcome(S, TB, B0) == 0


def test_ransom_six_hostages_win_the_battle() -> None:
    S = fighting()
    hostages(S, 1, 5)
    assert resolution.battle_outcome(S, TB, B0) == resolution.BATTLE_GOES_ON
    hostages(S, 1, 1)
    assert resolution.battle_outcome(S, TB, B0) == 1


def test_both_breached_is_a_draw() -> None:
    S = fighting()
    breach(S, 0)
    breach(S, 1)
    assert resolution.battle_outcome(S, TB, B0) == st.BATTLE_DRAWN


def test_both_routed_is_a_draw() -> None:
    S = battle()
    S["turn"][0] = 3
    assert resolution.battle_outcome(S, TB, B0) == st.BATTLE_DRAWN


def test_ransom_by_a_breached_player_is_a_draw() -> None:
    S = fighting()
    hostages(S, 0, 6)
    breach(S, 0)  # seat 0 wins by ransom and loses by breach at the same check (R60)
    assert resolution.battle_outcome(S, TB, B0) == st.BATTLE_DRAWN


def test_time_more_hostages_win_after_turn_fifteen() -> None:
    S = fighting(turn=14)
    hostages(S, 1, 2)
    hostages(S, 0, 1)
    assert resolution.battle_outcome(S, TB, B0) == resolution.BATTLE_GOES_ON
    S["turn"][0] = 15
    assert resolution.battle_outcome(S, TB, B0) == 1


def test_time_equal_hostages_then_more_troops_win() -> None:
    S = fighting(turn=15)
    hostages(S, 1, 2)
    hostages(S, 0, 2)
    field(S, 0, 2, name="Archer", row=2)
    assert resolution.battle_outcome(S, TB, B0) == 0


def test_time_equal_hostages_and_troops_is_a_draw() -> None:
    S = fighting(turn=15)
    hostages(S, 1, 1)
    hostages(S, 0, 1)
    assert resolution.battle_outcome(S, TB, B0) == st.BATTLE_DRAWN


# --- (4) the end of the turn (TT-B.7.5, TT-A.4.6, TT-B.7.0.2) ---------------------------------


def test_end_of_turn_clears_decree_effects_and_the_first_player_passes() -> None:
    S = fighting(turn=5, first=1)
    (c,) = [int(S["hex_troop"][0, 36])]
    S["troop_capturing"][0, c] = True
    S["decree_enacted"][0, 0] = 2
    for name in ("no_cards", "no_combat", "no_movement", "betrayal_muster"):
        S[name][0, 1] = True
    resolve(S)
    assert S["stage"][0] == st.STAGE_PHASE_DONE
    assert S["turn"][0] == 6 and S["first_player"][0] == 0 and S["current"][0] == 0
    assert S["decree_enacted"][0, 0] == -1
    for name in ("no_cards", "no_combat", "no_movement", "betrayal_muster"):
        assert not S[name][0].any(), name
    assert S["troop_captured_last_turn"][0, c] and not S["troop_capturing"][0, c]
    resolve(S)  # one more turn: the capture is two turns old now (R13)
    assert not S["troop_captured_last_turn"][0, c] and S["first_player"][0] == 1


# --- the war (TT-B.9.1, R61) -------------------------------------------------------------------


def test_battle_won_earns_its_war_points_and_the_next_battle_begins() -> None:
    S = fighting()
    S["battle"][0] = 2
    breach(S, 0)
    resolve(S)
    assert S["battle_result"][0, 1] == 1 and list(S["war_points"][0]) == [0, 2]
    assert S["battle"][0] == 3 and S["turn"][0] == 0 and S["stage"][0] == st.STAGE_SETUP
    assert S["first_player"][0] == 0  # the loser chooses (TT-B.6.3)
    assert piles.hostage_count(S, B0, I(0)) == 0 and barracks(S, 0) == 0
    ok(S)


def test_a_drawn_battle_earns_no_points() -> None:
    S = battle()
    resolution.end_battle(S, TB, B0, I(st.BATTLE_DRAWN))
    assert S["battle_result"][0, 0] == st.BATTLE_DRAWN and list(S["war_points"][0]) == [0, 0]
    assert S["battle"][0] == 2


def _last_battle(results: tuple[int, int], points: tuple[int, int]) -> np.ndarray:
    S = battle()
    S["battle"][0] = 3
    S["battle_result"][0, :2] = results
    S["war_points"][0] = points
    return S


def test_war_won_on_war_points() -> None:
    S = _last_battle((0, 0), (3, 0))  # seat 0 won battles 1 and 2 and wins battle 3: 6-0
    resolution.end_battle(S, TB, B0, I(0))
    assert list(S["war_points"][0]) == [6, 0] and S["winner"][0] == 0
    assert S["stage"][0] == st.STAGE_GAME_OVER and list(S["rewards"][0]) == [1.0, -1.0]
    S = _last_battle((1, st.BATTLE_DRAWN), (1, 0))
    resolution.end_battle(S, TB, B0, I(st.BATTLE_DRAWN))
    assert S["winner"][0] == 0 and list(S["rewards"][0]) == [1.0, -1.0]


def test_equal_war_points_go_to_the_winner_of_battle_three() -> None:
    S = _last_battle((0, 0), (3, 0))  # seat 0 won battles 1 and 2, seat 1 wins battle 3
    resolution.end_battle(S, TB, B0, I(1))
    assert list(S["war_points"][0]) == [3, 3]
    assert S["winner"][0] == 1 and list(S["rewards"][0]) == [-1.0, 1.0]


def test_equal_war_points_and_battle_three_drawn_is_a_drawn_war() -> None:
    S = _last_battle((st.BATTLE_DRAWN, st.BATTLE_DRAWN), (0, 0))  # three draws: 0-0
    resolution.end_battle(S, TB, B0, I(st.BATTLE_DRAWN))
    assert S["winner"][0] == -1 and list(S["rewards"][0]) == [0.0, 0.0]
    assert S["stage"][0] == st.STAGE_GAME_OVER


def test_surrender_gives_the_battle_to_the_opponent() -> None:
    S = fighting()
    resolution.surrender(S, TB, B0, I(0))
    assert S["battle_result"][0, 0] == 1 and list(S["war_points"][0]) == [0, 1]
    assert S["battle"][0] == 2 and S["stage"][0] == st.STAGE_SETUP
    ok(S)


# --- seeded random Resolutions -----------------------------------------------------------------


def test_random_resolutions_keep_cards_and_features_consistent() -> None:
    rng = np.random.default_rng(2026)
    out = np.zeros(N_ACTIONS, dtype=np.int16)
    for trial in range(60):
        S = battle(first=int(rng.integers(2)))
        S["turn"][0] = rng.integers(1, 17)
        S["battle"][0] = rng.integers(1, 4)
        for p in range(2):
            free = [
                c for c in range(p * st.MAX_ARMY_CARDS, p * st.MAX_ARMY_CARDS + TB.n_army_cards)
            ]
            rng.shuffle(free)
            for c in free[: rng.integers(0, 14)]:
                to(S, c, st.PLACE_BARRACKS)
            for c in free[14 : 14 + rng.integers(0, 4)]:
                if TB.card_type[piles.card_name(TB, I(c))] == CARD_TACTICS:
                    to(S, c, st.PLACE_IN_PLAY)
        if rng.random() < 0.5:
            field(S, 0, int(rng.integers(0, 3)))
        if rng.random() < 0.3:
            breach(S, int(rng.integers(2)))
        ok(S)
        begin(S)
        steps = 0
        while S["stage"][0] == STAGE_DISCARD:
            n = resolution.legal_resolution(S, TB, B0, out)
            assert n > 0
            resolution.apply_resolution(S, TB, B0, I(out[rng.integers(n)]))
            ok(S)
            steps += 1
            assert steps < 100
        assert S["stage"][0] in (st.STAGE_PHASE_DONE, st.STAGE_SETUP, st.STAGE_GAME_OVER), trial
        if S["stage"][0] == st.STAGE_PHASE_DONE:
            assert barracks(S, 0) <= TB.barracks_limit and barracks(S, 1) <= TB.barracks_limit
        assert (S["card_place"][0] != st.PLACE_IN_PLAY).all()


def _place_walls(S) -> None:
    """Both players' wall cards not LOST back on their hexes (what deployment would do)."""
    for p, hexes in WALLS.items():
        for w, h in enumerate(hexes):
            if S["wall_lost"][0, p, w]:
                continue
            S["hex_feature"][0, h] = st.FEATURE_WALL
            S["hex_feature_owner"][0, h] = p
            S["hex_feature_card"][0, h] = w
            S["wall_hex"][0, p, w] = h


def test_random_wars_end_after_three_battles_with_points_and_winner_by_the_clause() -> None:
    rng = np.random.default_rng(9)
    points = [int(x) for x in TB.battle_points[: TB.battles_per_war]]
    for _ in range(30):
        S = battle()
        while S["stage"][0] != st.STAGE_GAME_OVER:
            assert S["stage"][0] == st.STAGE_SETUP
            _place_walls(S)
            S["turn"][0] = 1
            how = int(rng.integers(4))
            if how == 3:
                resolution.surrender(S, TB, B0, I(rng.integers(2)))
                continue
            for p in range(2):
                if how == p or how == 2:  # breach seat p (both: a drawn battle)
                    breach(S, p)
            resolve(S)
            ok(S)
        results = [int(r) for r in S["battle_result"][0]]
        assert st.BATTLE_NOT_PLAYED not in results  # all three battles played (R61)
        # TT-B.9.1 by hand: points of the battles won, then battle 3, else a draw
        wp = [sum(pt for r, pt in zip(results, points, strict=True) if r == p) for p in range(2)]
        assert list(S["war_points"][0]) == wp
        expected = (0 if wp[0] > wp[1] else 1) if wp[0] != wp[1] else max(results[-1], -1)
        assert S["winner"][0] == expected
        rewards = [0.0, 0.0] if expected < 0 else [1.0 - 2.0 * (p != expected) for p in range(2)]
        assert list(S["rewards"][0]) == rewards
