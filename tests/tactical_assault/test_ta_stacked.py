"""FC "Multiple Elevations Stacked" on the tabletop (FC-4.26; R28): Woods standing on a hill."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "fantasy_cards"))
from fc_tabletop_helpers import CLEAR_ROWS, tb_of  # noqa: E402

from envs.fantasy_cards import tabletop as tt  # noqa: E402
from envs.tactical_assault import geometry, plays  # noqa: E402

C = tt.cell


def test_woods_on_a_hill_use_the_higher_and_still_block_units_on_the_hill(tmp_path):
    """Woods (Medium, 2) on a Low (1) hill row: the cell's elevation is the higher of the two
    (2); two units on the hill either side of the woods do not see each other (the woods
    stand on their level); without the woods the level hill top does not block."""
    rows = [list(r.split()) for r in CLEAR_ROWS]
    rows[5][7] = "W"
    elev = [["0"] * tt.CELLS for _ in range(tt.CELLS)]
    for c in range(tt.CELLS):
        elev[5][c] = "1g"
    text = "\n".join(" ".join(r) for r in elev) + "\n"
    tb = tb_of(tmp_path, rows=[" ".join(r) for r in rows], elevation=text)
    assert tb.g_ground[C(7, 5)] == 1 and tb.g_top[C(7, 5)] == 2
    occ = plays.new_occ()
    assert geometry.line_of_sight(tb, occ, C(4, 5), C(10, 5)) == 0
    bare = tb_of(tmp_path, elevation=text)
    assert geometry.line_of_sight(bare, occ, C(4, 5), C(10, 5)) == geometry.LOS_EXISTS
