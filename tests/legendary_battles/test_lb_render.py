"""The map renderers (envs/legendary_battles/render.py): ASCII and PNG."""

from __future__ import annotations

import struct

from lb_helpers import TERRAIN, build

from envs.legendary_battles.render import render_ascii, render_png

TINY = [". W .", ". . f", ". . ."]
TINY_ELEVATION = ["0 1g 0", "0 0 0", "0 0 0"]
TINY_KW = dict(
    elevation=TINY_ELEVATION,
    linear=[{"terrain": "Wall", "sides": [[0, 1, "E"]]}],
    units0=[{"type": "INFANTRY", "label": "A", "zone": [0, 0], "facing": "S"}],
    units1=[{"type": "MONSTROUS", "label": "b", "zone": [1, 2], "facing": "N", "footprint": ["E"]}],
)

# Written by hand from the cell layout: terrain, level, class, unit (or deployment mark),
# facing (& marks the other zone of the oversized unit b).
TINY_ASCII = """\
+-----+-----+-----+
|.  Av|W1g+ |.  + |
+-----+-----+-----+
|.    #.    |f    |
+-----+-----+-----+
|.  * |.  b^|.  b&|
+-----+-----+-----+
Test Map (square 3x3)
terrain: . Clear  W Woods  f Wheat Field
elevation: 1 Low; g Gradual
linear: # Wall
deployment: + Ours  * Theirs
side 0 Ours: A INFANTRY (0,0)
side 1 Theirs: b MONSTROUS (1,2)+1
"""


def test_ascii_map_of_a_tiny_square_map(tmp_path):
    sa = build(TINY, tmp_path, **TINY_KW)
    assert render_ascii(sa, TERRAIN) == TINY_ASCII


def test_ascii_map_of_a_tiny_hex_map_draws_hex_sides(tmp_path):
    sa = build(
        [". W", "f ."],
        tmp_path,
        shape="hex",
        linear=[{"terrain": "Hedge", "sides": [[0, 0, "SE"]]}],
    )
    lines = render_ascii(sa, TERRAIN).splitlines()
    assert lines[:5] == [
        " /   \\ /   \\",
        "|.  + |W  + |",
        "  \\ %   \\ /   \\",
        "   |f  * |.  * |",
        "     \\ /   \\ /",
    ]


def _png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    assert data[12:16] == b"IHDR"
    return struct.unpack(">II", data[16:24])


def test_png_picture_is_a_valid_png_of_plausible_size_and_shows_terrain(tmp_path):
    sa = build(TINY, tmp_path, **TINY_KW)
    out = render_png(sa, TERRAIN, tmp_path / "tiny.png")
    data = out.read_bytes()
    w, h = _png_size(data)
    assert 200 <= w <= 2000 and 100 <= h <= 2000
    (tmp_path / "b").mkdir()
    other = build([". . .", ". . f", ". . ."], tmp_path / "b", **TINY_KW)
    data2 = render_png(other, TERRAIN, tmp_path / "tiny2.png").read_bytes()
    assert _png_size(data2) == (w, h)
    assert data2 != data
