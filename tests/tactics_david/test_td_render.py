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


def test_the_picture_draws_flooded_spaces_as_water(tables: Tables) -> None:
    """tdabH (R124): a game's flood mask turns a Field space's square Water blue."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    from matplotlib.colors import to_hex

    name = "Bramble Creek Crossing"
    bf = tables.battlefields[tables.battlefield_index[name]]
    rows, cols = bf.terrain.shape
    r, c = 2, 2
    assert tables.terrain_names[int(bf.terrain[r, c])] == "Field"
    colours = []
    for flooded in (False, True):
        flood = np.zeros(rows * cols, dtype=np.uint8)
        flood[r * cols + c] = flooded
        fig, ax = plt.subplots()
        render.draw_battlefield(ax, tables, name, flood)
        square = [p for p in ax.patches if tuple(p.get_xy()) == (c, r) and p.get_width() == 1]
        colours.append(to_hex(square[0].get_facecolor()))
        plt.close(fig)
    assert colours == [render.TERRAIN_COLOURS["Field"], render.TERRAIN_COLOURS["Water"]]
