"""The TAC picture (envs/tac/picture.py, the contract's render_image) shows only what the
viewer may know: resampling the hidden parts (envs/tac/hidden.py) leaves the PNG unchanged,
while the owner of a face-down defence sees its type."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from envs.registry import get, make_env
from envs.tac.picture import _team_rows
from envs.tac.state import DEF_FACE_DOWN, STAGE_GAME_OVER


def states_with_face_down_defences(n_states: int, players: int = 3):
    """One-game states (copies) in which some player holds an unrevealed face-down defence."""
    rs = get("tac")
    found = []
    for game in range(20):
        env = make_env("tac", num_players=players)
        env.reset(seed=11, options={"game_index": game})
        S = env.unwrapped.state_arrays
        while S["stage"][0] != STAGE_GAME_OVER and len(found) < n_states:
            env.step(int(rs.act_one(S, rs.tables_batch, 0, 1)))
            down = (S["defence_state"][0] == DEF_FACE_DOWN) & (S["defence_revealed"][0] == 0)
            if down.any() and S["decisions"][0] % 5 == 0:
                found.append(S.copy())
                break
        if len(found) >= n_states:
            break
    return found


def test_the_picture_does_not_show_what_the_viewer_cannot_know():
    rs = get("tac")
    rng = np.random.default_rng(0)
    states = states_with_face_down_defences(2)
    assert len(states) == 2
    owner_saw_change = 0
    for S in states:
        P = int(S["num_players"][0])
        down = (S["defence_state"][0] == DEF_FACE_DOWN) & (S["defence_revealed"][0] == 0)
        owners = {int(q) for q in np.flatnonzero(down.any(axis=1))}
        for me in range(P):
            base = rs.render_image(S, me, 0)
            assert rs.render_image(S, me, 0) == base  # deterministic
            S2 = rs.resample_hidden(S, me, rng)
            assert rs.render_image(S2, me, 0) == base, f"picture of P{me} leaks hidden cards"
            # what each box says: others' face-down defences are only "face-down"
            for q in range(P):
                labels = [it[1] for row in _team_rows(S, rs.tables, 0, q, me) for it in row]
                if q != me and q in owners:
                    assert "face-down\ndefence" in labels
                if q == me and q in owners:
                    assert any(isinstance(x, str) and "(face-down)" in x for x in labels)
        for q in owners:  # control: a resample for another viewer changes q's defences
            S3 = rs.resample_hidden(S, (q + 1) % P, rng)
            owner_saw_change += rs.render_image(S3, q, 0) != rs.render_image(S, q, 0)
    assert owner_saw_change > 0


def test_the_picture_is_a_png_and_can_be_written_to_a_file(tmp_path):
    rs = get("tac")
    S = states_with_face_down_defences(1, players=2)[0]
    png = rs.render_image(S, 0, 0)
    with Image.open(io.BytesIO(png)) as im:
        assert im.format == "PNG" and im.size[0] >= 800
    out = rs.render_image(S, 1, 0, tmp_path / "p1.png")
    assert out == tmp_path / "p1.png" and out.read_bytes()[:4] == b"\x89PNG"
