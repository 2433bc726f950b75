"""Pictures of battlefields and attack areas (envs/tactics_david/render.py)."""

from __future__ import annotations

from pathlib import Path

from envs.tactics_david import render
from envs.tactics_david.tables import Tables


def test_battlefield_ascii_shows_every_space(tables: Tables) -> None:
    for name in tables.battlefield_names:
        bf = tables.battlefields[tables.battlefield_index[name]]
        lines = render.battlefield_ascii(tables, name).splitlines()
        rows, cols = bf.terrain.shape
        grid = lines[2 : 2 + rows]
        assert all(len(line) == cols for line in grid)
        # A height digit exactly where a Terrain Piece stands.
        for r, line in enumerate(grid):
            for c, ch in enumerate(line):
                assert ch.isdigit() == (bf.piece[r, c] >= 0)


def test_attack_area_ascii_skewer_line(tables: Tables) -> None:
    assert render.attack_area_ascii(tables, "MB").splitlines()[1:] == ["X", "X", "^"]
    ri = render.attack_area_ascii(tables, "RI")
    assert "continues forever" in ri and "o" in ri


def test_doc_pictures_written(tables: Tables, tmp_path: Path) -> None:
    paths = render.write_doc_pictures(tables, tmp_path)
    names = {p.name for p in paths}
    assert names == {"attack_areas.png", "bramble_creek_crossing.png", "deaths_highway.png"}
    for p in paths:
        assert p.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert (render.DOC_PICTURES / p.name).exists()  # the doc links the committed copy
