"""TACTICA pictures (envs/tactica/render.py text, envs/tactica/picture.py PNG): a random war's
states render for both seats; the text names the pieces standing at known hexes of a
hand-built state; a player's render never shows the opponent's Barracks (change its
contents: the render stays the same) unless a decree has shown it; the PNG has its size."""

from __future__ import annotations

import struct

import numpy as np
import pytest
from tt_board import TABLES, TB, battle, hand, ids, put_feature, put_spire, to

from envs.tactica import state as st
from envs.tactica import turn
from envs.tactica.actions import A_SURRENDER, N_ACTIONS
from envs.tactica.picture import DPI, HEIGHT_IN, WIDTH_IN, render_image
from envs.tactica.piles import reset_war
from envs.tactica.render import render_text, stage_name

GEO = TABLES.battlefield
GEOMETRY = (GEO.neighbours, GEO.distance, GEO.wall_zone, GEO.lof_crossed, GEO.lof_edges)
HOLLOW = 1  # landmark side index: high 0, low 1
CTHON = TABLES.summon_names.index("Cthon")


def _random_states(seed: int, decisions: int, every: int):
    """States of one random advanced war, every `every` decisions (copies)."""
    S = st.allocate(1)
    S["advanced"][0] = True
    st_b = np.int64(0)
    reset_war(S, TB, st_b, np.int64(seed), np.int64(0))
    turn.advance(S, TB, *GEOMETRY, st_b)
    rng = np.random.default_rng(seed)
    out = np.empty(N_ACTIONS, dtype=np.int16)
    for k in range(decisions):
        n = turn.legal_actions(S, TB, *GEOMETRY, st_b, out)
        if n == 0:
            break
        legal = out[:n]
        if n > 1:
            legal = legal[legal != A_SURRENDER]  # keep the war going
        turn.apply_action(S, TB, *GEOMETRY, st_b, np.int64(rng.choice(legal)))
        if k % every == 0:
            yield S.copy()
    yield S.copy()


def test_states_of_a_random_war_render_for_both_seats():
    for S in _random_states(seed=4, decisions=600, every=60):
        for me in (0, 1):
            text = render_text(S, TABLES, me, 0)
            assert f"seen by P{me}" in text
            assert f"P{me} (you)" in text
            if S["stage"][0] != st.STAGE_GAME_OVER:
                assert stage_name(int(S["stage"][0])) in text
            # every troop on the battlefield is named at its hex
            for h in np.flatnonzero(S["hex_troop"][0] >= 0):
                assert f"hex {h} (row {h // 9}, col {h % 9}): P" in text


def _hand_built():
    """Battle 1: walls of both (hexes 2, 6 / 92, 96), a P0 Champion trained once on hex 49, a
    P1 Foot on hex 50 fighting for P0 as a betrayer, P1's Hill/Hollow Hollow side up on hex
    31, P1's spire of height 2 on hex 85, P0's Cthon summon on hex 40, a P1 Archer held
    hostage by P0."""
    S = battle()
    champion = ids(0, "Champion")[0]
    to(S, champion, st.PLACE_BATTLEFIELD, 49)
    to(S, ids(0, "Training")[0], st.PLACE_UNDER, champion)
    foot = ids(1, "Foot")[0]
    to(S, foot, st.PLACE_BATTLEFIELD, 50)
    S["troop_betrayer"][0, foot] = True
    j = int(
        np.flatnonzero(
            TB.army_landmark[: TB.n_landmark_cards] == TABLES.landmark_index["Hill/Hollow"]
        )[0]
    )
    put_feature(S, 31, st.FEATURE_LANDMARK, 1, j)
    S["landmark_hex"][0, 1, j] = 31
    S["landmark_side"][0, 1, j] = HOLLOW
    put_spire(S, 1, 85, [0, 1])
    S["summon_card_place"][0, 0, 0] = st.SUMMON_ON_BATTLEFIELD
    S["summon_card_side"][0, 0, 0] = CTHON
    S["summon_card"][0, 0] = 0
    S["summon_hex"][0, 0] = 40
    S["hex_summon"][0, 40] = 0
    to(S, ids(1, "Archer")[0], st.PLACE_HOSTAGE, 0)
    return S


def test_the_text_names_the_pieces_at_their_hexes():
    text = render_text(_hand_built(), TABLES, 0, 0)
    assert "hex 2 (row 0, col 2): wall of P0" in text
    assert "hex 96 (row 10, col 6): wall of P1" in text
    assert "hex 49 (row 5, col 4): P0 Champion, training 1" in text
    assert "hex 50 (row 5, col 5): P1 Foot, training 0, BETRAYER (fights for P0)" in text
    assert "hex 31 (row 3, col 4): landmark Hill/Hollow, Hollow side up, of P1" in text
    assert "hex 85 (row 9, col 4): spire of P1, height 2" in text
    assert "hex 40 (row 4, col 4): P0 summon Cthon" in text
    assert "hostages held: Archer" in text
    rows = {int(line[:3]): line for line in text.splitlines()[3:14]}
    # the map cells: row 5 (odd, shifted half a cell) holds the Champion then the betrayer
    assert "[0Ch1   ][1Fo0*  ]" in rows[5]
    assert rows[5].index("[0Ch1") == 5 + 4 + 4 * 9  # margin, odd-row indent, 4 cells before
    assert "[  .  L1]" in rows[3] and "[  .  S1]" in rows[9] and "[0CtS   ]" in rows[4]
    assert rows[0].count("W0]") == 2 and rows[10].count("W1]") == 2


def test_the_opponents_barracks_never_appears_in_my_render():
    S = _hand_built()
    hand(S, 0, "Crossbow", "Press")
    hand(S, 1, "Foot", "Spy")
    mine = render_text(S, TABLES, 0, 0)
    assert "your Barracks: Crossbow, Press" in mine
    assert "Spy" not in mine
    # change P1's Barracks (same size, same piles' sizes): P0's text does not change
    T = S.copy()
    spy = next(c for c in ids(1, "Spy") if T["card_place"][0, c] == st.PLACE_BARRACKS)
    to(T, spy, st.PLACE_TACTICS_PILE)
    hand(T, 1, "Negate")
    assert render_text(T, TABLES, 0, 0) == mine
    assert render_text(T, TABLES, 1, 0) != render_text(S, TABLES, 1, 0)
    assert "your Barracks: Foot, Negate" in render_text(T, TABLES, 1, 0)
    # a decree that shows the Barracks (TT-A.4.2) makes the shown copy public
    T["hand_shown"][0, 1] = True
    T["shown_counts"][0, 1, TABLES.card_index["Negate"]] = 1
    assert "Barracks shown this turn: Negate x1" in render_text(T, TABLES, 0, 0)


def test_a_bad_seat_or_game_index_is_refused():
    S = _hand_built()
    with pytest.raises(ValueError, match="seat"):
        render_text(S, TABLES, 2, 0)
    with pytest.raises(ValueError, match="game index"):
        render_text(S, TABLES, 0, 1)


def test_the_picture_is_written_with_the_expected_size(tmp_path):
    S = _hand_built()
    path = render_image(TABLES, S, 0, 0, tmp_path / "war.png")
    data = path.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", data[16:24])  # the IHDR chunk
    assert (width, height) == (int(WIDTH_IN * DPI), int(HEIGHT_IN * DPI))
    # a random war's state draws too, for the other seat
    last = list(_random_states(seed=2, decisions=200, every=1000))[-1]
    assert render_image(TABLES, last, 1, 0, tmp_path / "random.png").stat().st_size > 0
