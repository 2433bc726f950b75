"""PNG picture of a TACTICA war as one player sees it (the same facts as render.render_text).

The battlefield on the left (pointy-top hexes, odd-r, the hex geometry of
envs/legendary_battles/geometry.py): the two wall zones tinted in their seat's colour, walls
dark, landmarks coloured by their face-up side (named, BLOCK hatched), spires as triangles
with their height, troops as discs in the owner's colour labelled with two letters of their
name and their training level (a betrayer ringed in the colour of the side it fights for; a
troop that moved / fought / attacks this turn marked m / f / a), summons as diamonds; the
declared attack's target ringed red. On the right: the header and the per-player lines of
render_text (counts, hostages, `me`'s Barracks only). matplotlib (Agg canvas, no pyplot) is
imported when a picture is drawn, not with this module.
"""

from __future__ import annotations

import io
from pathlib import Path

import numpy as np

from envs.tactica.render import (
    card_name,
    check_view,
    header_lines,
    landmark_face,
    player_lines,
    shape,
    summon_name,
)
from envs.tactica.state import (
    FEATURE_LANDMARK,
    FEATURE_SPIRE,
    FEATURE_WALL,
    HEX_COLUMNS,
    MAX_ARMY_CARDS,
)
from envs.tactica.tables import HEX_NONE, HEX_ZONE_1, HEX_ZONE_2, Tables

WIDTH_IN, HEIGHT_IN, DPI = 14.0, 8.0, 100  # the PNG is 1400 x 800 pixels
OPEN_COLOUR = "#ece6d6"
ZONE_TINT = ("#cfdcf2", "#f2d2cd")  # seat 0's / seat 1's wall zone
WALL_COLOUR = "#4a4a4a"
SIDE_FILL = ("#9cc48a", "#c9a36b")  # landmark high / low side up
ATTACK_RING = "#e01b1b"


def render_image(
    tables: Tables, S: np.ndarray, me: int, b: int, path: str | Path | None = None
) -> Path | bytes:
    """Draw game b as seat `me` sees it (WIDTH_IN x HEIGHT_IN inches at DPI): the PNG's
    bytes, or written to `path` (returned), as the contract's render_image."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.collections import PolyCollection
    from matplotlib.figure import Figure
    from matplotlib.patches import Circle, RegularPolygon

    from envs.legendary_battles import geometry
    from envs.legendary_battles.render import SIDE_COLOURS, _disc

    check_view(S, me, b)
    rows, cols, codes = shape(tables, int(S["battle"][b]))
    off = {(c, r) for r in range(rows) for c in range(cols) if codes[r, c] == HEX_NONE}
    grid = geometry.make_grid("hex", cols, rows, off)
    fig = Figure(figsize=(WIDTH_IN, HEIGHT_IN), dpi=DPI)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.01, 0.02, 0.52, 0.96))
    hexes = [int(grid.row[z]) * HEX_COLUMNS + int(grid.col[z]) for z in range(len(grid.col))]
    tint = {HEX_ZONE_1: ZONE_TINT[0], HEX_ZONE_2: ZONE_TINT[1]}
    fills, hatches = [], []
    for z, h in enumerate(hexes):
        code = int(codes[grid.row[z], grid.col[z]])
        f = int(S["hex_feature"][b, h])
        o = int(S["hex_feature_owner"][b, h])
        fill = tint.get(code, OPEN_COLOUR)
        if f == FEATURE_WALL:
            fill = WALL_COLOUR
        elif f == FEATURE_LANDMARK:
            j = int(S["hex_feature_card"][b, h])
            side = int(S["landmark_side"][b, o, j])
            fill = SIDE_FILL[side]
            if tables.landmark_block[int(tables.arrays.army_landmark[j]), side]:
                hatches.append(grid.vertex[z])
        fills.append(fill)
    ax.add_collection(
        PolyCollection(list(grid.vertex), facecolors=fills, edgecolors="#777777", linewidths=0.6)
    )
    if hatches:
        ax.add_collection(
            PolyCollection(hatches, facecolors="none", edgecolors="#333333", hatch="xx", lw=0)
        )
    target = int(S["attack_target"][b])
    for z, h in enumerate(hexes):
        cx, cy = grid.centre[z]
        ax.text(cx - 0.42, cy - 0.3, str(h), fontsize=4.5, color="#666666", va="center")
        f = int(S["hex_feature"][b, h])
        o = int(S["hex_feature_owner"][b, h])
        if f == FEATURE_LANDMARK:
            _, side_name = landmark_face(tables, S, b, o, int(S["hex_feature_card"][b, h]))
            ax.text(cx, cy + 0.36, f"{side_name} P{o}", fontsize=5, ha="center", va="center")
        elif f == FEATURE_WALL:
            ax.text(
                cx, cy + 0.36, f"wall P{o}", fontsize=5, ha="center", va="center", color="white"
            )
        elif f == FEATURE_SPIRE:
            ax.add_patch(
                RegularPolygon(
                    (cx, cy),
                    3,
                    radius=0.32,
                    orientation=np.pi,
                    facecolor=SIDE_COLOURS[o],
                    edgecolor="black",
                    lw=0.8,
                )
            )
            ax.text(
                cx,
                cy + 0.05,
                str(int(S["spire_height"][b, o])),
                fontsize=7,
                ha="center",
                va="center",
                color="white",
                fontweight="bold",
            )
        c = int(S["hex_troop"][b, h])
        if c >= 0:
            owner = c // MAX_ARMY_CARDS
            if S["troop_betrayer"][b, c]:
                ax.add_patch(
                    Circle(
                        (cx, cy), 0.36, facecolor="none", edgecolor=SIDE_COLOURS[1 - owner], lw=2.5
                    )
                )
            ax.add_patch(_disc(cx, cy, 0.28, SIDE_COLOURS[owner]))
            label = f"{card_name(tables, c)[:2]}{int(S['troop_training'][b, c])}"
            ax.text(
                cx,
                cy,
                label,
                ha="center",
                va="center",
                fontsize=6.5,
                color="white",
                fontweight="bold",
            )
            flags = "".join(
                ch
                for field, ch in (
                    ("troop_moved", "m"),
                    ("troop_fought", "f"),
                    ("troop_attacking", "a"),
                )
                if S[field][b, c]
            )
            if flags:
                ax.text(cx + 0.3, cy, flags, fontsize=5, color="black", va="center")
        p = int(S["hex_summon"][b, h])
        if p >= 0:
            ax.add_patch(
                RegularPolygon(
                    (cx, cy), 4, radius=0.34, facecolor=SIDE_COLOURS[p], edgecolor="gold", lw=1.5
                )
            )
            ax.text(
                cx,
                cy,
                summon_name(tables, S, b, p)[:2],
                ha="center",
                va="center",
                fontsize=6.5,
                color="white",
                fontweight="bold",
            )
        if h == target:
            ax.add_patch(Circle((cx, cy), 0.44, facecolor="none", edgecolor=ATTACK_RING, lw=2))
    xs, ys = grid.vertex[..., 0], grid.vertex[..., 1]
    ax.set_xlim(xs.min() - 0.1, xs.max() + 0.1)
    ax.set_ylim(ys.max() + 0.1, ys.min() - 0.1)  # row 0 (seat 0's wall zone) at the top
    ax.set_aspect("equal")
    ax.set_axis_off()
    text = header_lines(S, tables, me, b) + [""] + player_lines(S, tables, me, b)
    text += [
        "",
        "discs: troops (2 letters + training), ringed: betrayer; m/f/a: moved/fought/attacking",
        "diamonds: summons; triangles: spires (height); red ring: attack target",
        "hexes: blue/red tint = P0/P1 wall zone; green/brown = landmark high/low side up,",
        "hatched = BLOCK; dark = wall",
    ]
    fig.text(
        0.55,
        0.97,
        "\n".join(_wrap(line) for line in text),
        fontsize=7.5,
        va="top",
        family="monospace",
    )
    if path is None:
        buf = io.BytesIO()
        fig.savefig(buf, dpi=DPI, format="png")
        return buf.getvalue()
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=DPI)
    return path


def _wrap(line: str, width: int = 86) -> str:
    import textwrap

    return "\n".join(textwrap.wrap(line, width, subsequent_indent="     ")) or " "
