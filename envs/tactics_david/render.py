"""Pictures of Tactics David rule data: battlefields and attack areas, as ASCII and PNG.

Run ``python -m envs.tactics_david.render`` to (re)write the PNGs linked from
docs/rules/tactics_david.md into docs/rules/tactics_david/.
"""

from __future__ import annotations

from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.patches import Circle, Rectangle  # noqa: E402

from envs.tactics_david.tables import Tables, load_tables  # noqa: E402

DOC_PICTURES = Path(__file__).resolve().parents[2] / "docs" / "rules" / "tactics_david"
TERRAIN_COLOURS = {
    "Field": "#cfe8a9",
    "Water": "#7fb7e6",
    "Road": "#d9c29a",
    "Forest": "#4f8a41",
}
PLAYER_COLOURS = ("#c0392b", "#2c3e8f")
AREA_RAY_LENGTH = 3  # cells drawn for an area that continues forever


def battlefield_ascii(tables: Tables, name: str) -> str:
    """One line per row (north first): the piece symbol where there is one, else terrain.

    Deployment zones are shown in a second block with the player number.
    """
    bf = tables.battlefields[tables.battlefield_index[name]]
    symbols = {p: str(h) for p, h in enumerate(tables.piece_height.tolist())}
    legend = dict(zip(tables.terrain_symbol, tables.terrain_names, strict=True))
    rows, cols = bf.terrain.shape
    lines = [f"{name} ({cols}x{rows}); terrain {legend}"]
    lines.append("digits: Terrain Piece height level")
    for r in range(rows):
        out = []
        for c in range(cols):
            p = int(bf.piece[r, c])
            out.append(symbols[p] if p >= 0 else tables.terrain_symbol[int(bf.terrain[r, c])])
        lines.append("".join(out))
    lines.append("deployment (0/1 = player, . = none):")
    for r in range(rows):
        lines.append("".join("." if v < 0 else str(int(v)) for v in bf.deployment[r]))
    return "\n".join(lines)


def _area_cells(tables: Tables, a: int) -> list[tuple[int, int]]:
    cells = [tuple(int(x) for x in tables.area_cells[a, k]) for k in range(tables.area_n_cells[a])]
    df, dr = (int(x) for x in tables.area_continues[a])
    if (df, dr) != (0, 0):
        f, r = cells[-1]
        for _ in range(AREA_RAY_LENGTH):
            f, r = f + df, r + dr
            cells.append((f, r))
    return cells


def _area_origin(tables: Tables, a: int) -> tuple[int, int]:
    """Where the attacker stands, in the area's own coordinates.

    Ranged areas are drawn with the target three spaces ahead of the attacker (any place in the
    Range Area would do; this one keeps the picture small).
    """
    return (0, 0) if not tables.area_is_ranged[a] else (-3, 0)


def attack_area_ascii(tables: Tables, code: str) -> str:
    """Grid with forward = up: '^' attacker (facing up), 'X' attacked, 'o' target, '>' arrow."""
    a = tables.area_index[code]
    cells = _area_cells(tables, a)
    origin = _area_origin(tables, a)
    target = tuple(int(x) for x in tables.area_target[a]) if tables.area_is_ranged[a] else None
    pts = cells + [origin]
    fs = [p[0] for p in pts]
    rs = [p[1] for p in pts]
    lines = [code + (" (continues forever)" if tables.area_continues[a].any() else "")]
    for f in range(max(fs), min(fs) - 1, -1):
        row = []
        for r in range(min(rs), max(rs) + 1):
            if (f, r) == origin:
                row.append("^")
            elif (f, r) == target:
                row.append("o")
            elif (f, r) in cells:
                row.append("X")
            else:
                row.append(".")
        lines.append("".join(row))
    return "\n".join(lines)


def battlefield_png(tables: Tables, name: str, path: Path) -> Path:
    bf = tables.battlefields[tables.battlefield_index[name]]
    rows, cols = bf.terrain.shape
    fig, ax = plt.subplots(figsize=(cols * 0.45 + 1.5, rows * 0.45 + 1.2))
    draw_battlefield(ax, tables, name)
    ax.set_title(f"{name} ({cols}x{rows}, north up)", fontsize=10)
    fig.tight_layout()
    fig.savefig(path, dpi=130)
    plt.close(fig)
    return path


def draw_battlefield(ax, tables: Tables, name: str, flood=None) -> None:
    """The battlefield `name` on a matplotlib axis: terrain, Terrain Pieces with their height,
    Deployment areas, legend and axes (cell (row, col) is the unit square at x=col, y=row,
    north up). battlefield_png and the game picture (render_image) draw it. `flood`: a game's
    flood mask (S["flood"][b]; tdabH, R124): its spaces are drawn as the Water they are now."""
    bf = tables.battlefields[tables.battlefield_index[name]]
    rows, cols = bf.terrain.shape
    for r in range(rows):
        for c in range(cols):
            terrain = tables.terrain_names[int(bf.terrain[r, c])]
            if flood is not None and flood[r * cols + c]:
                terrain = "Water"  # flooded by a Floodplains unit (TD-22.2.131)
            ax.add_patch(
                Rectangle((c, r), 1, 1, facecolor=TERRAIN_COLOURS[terrain], edgecolor="#888888")
            )
            p = int(bf.piece[r, c])
            if p >= 0:
                piece = tables.piece_names[p]
                h = int(tables.piece_height[p])
                label = piece.split()[0][:5] if piece != "Bridge" else "Brdg"
                if piece == "Bridge":
                    ax.add_patch(Rectangle((c, r + 0.2), 1, 0.6, facecolor="#b08850"))
                else:
                    shade = {1: "#bbbbbb", 2: "#777777", 3: "#333333"}[h]
                    ax.add_patch(Rectangle((c + 0.1, r + 0.1), 0.8, 0.8, facecolor=shade))
                ax.text(c + 0.5, r + 0.42, label, ha="center", va="center", fontsize=5.5)
                ax.text(c + 0.5, r + 0.75, f"h{h}", ha="center", va="center", fontsize=5.5)
            d = int(bf.deployment[r, c])
            if d >= 0:
                ax.add_patch(
                    Rectangle(
                        (c + 0.04, r + 0.04),
                        0.92,
                        0.92,
                        fill=False,
                        edgecolor=PLAYER_COLOURS[d],
                        linewidth=1.6,
                    )
                )
    handles = [Rectangle((0, 0), 1, 1, facecolor=v, label=k) for k, v in TERRAIN_COLOURS.items()]
    handles += [
        Rectangle(
            (0, 0), 1, 1, fill=False, edgecolor=col, linewidth=1.6, label=f"player {i} deploy"
        )
        for i, col in enumerate(PLAYER_COLOURS)
    ]
    ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.02), ncol=6, fontsize=7)
    ax.set_xlim(0, cols)
    ax.set_ylim(rows, 0)
    ax.set_aspect("equal")
    ax.set_xticks([c + 0.5 for c in range(cols)], [str(c) for c in range(cols)], fontsize=6)
    ax.set_yticks([r + 0.5 for r in range(rows)], [str(r) for r in range(rows)], fontsize=6)


def attack_areas_png(tables: Tables, path: Path) -> Path:
    n = len(tables.area_names)
    ncols = 5
    nrows = (n + ncols - 1) // ncols
    fig, axes = plt.subplots(nrows, ncols, figsize=(ncols * 2.0, nrows * 2.4))
    for a, ax in enumerate(axes.flat):
        ax.axis("off")
        if a >= n:
            continue
        cells = _area_cells(tables, a)
        origin = _area_origin(tables, a)
        ranged = bool(tables.area_is_ranged[a])
        target = tuple(int(x) for x in tables.area_target[a]) if ranged else None
        # Draw forward = up: x = right offset, y = forward offset.
        span = 3
        for f in range(-span, span + 2):
            for r in range(-span + 1, span):
                ax.add_patch(Rectangle((r, f), 1, 1, fill=False, edgecolor="#cccccc", lw=0.5))
        for f, r in cells:
            if -span <= f <= span + 1:
                ax.add_patch(Rectangle((r, f), 1, 1, facecolor="#d63a3a", edgecolor="#888888"))
        if target is not None:
            ax.plot(target[1] + 0.5, target[0] + 0.5, "o", color="black", markersize=6)
        ax.add_patch(Rectangle((origin[1], origin[0]), 1, 1, facecolor="white", edgecolor="black"))
        ax.annotate(
            "",
            xy=(origin[1] + 0.5, origin[0] + 0.9),
            xytext=(origin[1] + 0.5, origin[0] + 0.15),
            arrowprops={"arrowstyle": "->", "lw": 1.2},
        )
        cont = tables.area_continues[a]
        if cont.any():
            f, r = cells[-1]
            ax.annotate(
                "",
                xy=(r + 0.5 + int(cont[1]) * 1.2, min(f, span) + 0.5 + int(cont[0]) * 1.2),
                xytext=(r + 0.5, min(f, span) + 0.5),
                arrowprops={"arrowstyle": "-|>", "lw": 2, "color": "black"},
            )
        ax.set_xlim(-span + 1, span)
        ax.set_ylim(-span - 0.2, span + 2)
        ax.set_aspect("equal")
        kind = "ranged" if ranged else "melee"
        ax.set_title(f"{tables.area_names[a]} ({kind})", fontsize=9)
    fig.suptitle(
        "Attack areas (invented shapes): white = attacker facing up, red = attacked, "
        "dot = target, big arrow = continues forever",
        fontsize=8,
    )
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)
    return path


def picture_name(name: str) -> str:
    return name.lower().replace("'", "").replace(" ", "_") + ".png"


def write_doc_pictures(tables: Tables | None = None, out_dir: Path = DOC_PICTURES) -> list[Path]:
    """Write every picture the rules doc links; returns their paths."""
    tables = tables or load_tables()
    out_dir.mkdir(parents=True, exist_ok=True)
    paths = [attack_areas_png(tables, out_dir / "attack_areas.png")]
    for name in tables.battlefield_names:
        paths.append(battlefield_png(tables, name, out_dir / picture_name(name)))
    return paths


if __name__ == "__main__":
    for p in write_doc_pictures():
        print(p)


def render_image(tables: Tables, S, me: int, b: int = 0, path: str | Path | None = None):
    """Game b as player `me` may see it, as a PNG: the battlefield picture (draw_battlefield)
    with every unit on it (a disc in its seat's colour, an arrow for its facing, its name, "+n"
    for a Stacked Unit's n lower members, and Statuses below; a cross when Dead; the two members
    of a Unit Team smaller, side by side as oriented): the PNG's bytes, or written to `path` (returned).
    Units in reserve are not on the battlefield, so nothing hidden is drawn (R54)."""
    import io

    from envs.tactics_david.state import MAX_UNITS, N_STATUSES, PLACE_FIELD

    g = S[b]
    name = tables.battlefield_names[int(g["battlefield"])]
    rows, cols = tables.battlefields[int(g["battlefield"])].terrain.shape
    fig, ax = plt.subplots(figsize=(cols * 0.6 + 1.5, rows * 0.6 + 1.4))
    draw_battlefield(ax, tables, name, g["flood"])
    dead = int(tables.status_index["Dead"])
    arrow = {0: (0, -0.3), 1: (0.3, 0), 2: (0, 0.3), 3: (-0.3, 0)}  # y grows southward
    for u in range(2 * MAX_UNITS):
        if g["unit_place"][u] != PLACE_FIELD:
            continue
        c = int(g["unit_cell"][u])
        x, y = c % cols + 0.5, c // cols + 0.5
        colour = PLAYER_COLOURS[u // MAX_UNITS]
        radius = 0.3
        if g["unit_team"][u] >= 0:  # a Unit Team: side by side on its orientation (TD-9.7)
            dx, dy = arrow[int(g["unit_team_side"][u]) % 4]
            x, y, radius = x + 0.7 * dx, y + 0.7 * dy, 0.2
        ax.add_patch(Circle((x, y), radius, facecolor=colour, alpha=0.85))
        dx, dy = arrow[int(g["unit_facing"][u])]
        ax.annotate("", xy=(x + dx, y + dy), xytext=(x, y), arrowprops={"arrowstyle": "->"})
        if g["unit_status"][u, dead]:
            ax.plot([x - 0.3, x + 0.3], [y - 0.3, y + 0.3], color="black", lw=1.5)
            ax.plot([x - 0.3, x + 0.3], [y + 0.3, y - 0.3], color="black", lw=1.5)
        label = tables.units.unit_names[int(g["unit_member"][u, 0])][:8]
        if g["unit_n_members"][u] > 1:  # a Stacked Unit: its top member and how many more
            label += f"+{int(g['unit_n_members'][u]) - 1}"
        held = [
            tables.status_names[s][:3]
            for s in range(N_STATUSES)
            if s != dead and g["unit_status"][u, s] != 0
        ]
        if held:
            label += "\n" + ",".join(held)
        ax.text(x, y + 0.45, label, ha="center", va="top", fontsize=4.5)
    turn = int(g["turn"])
    ax.set_title(f"Tactics David: {name}, Turn {turn} (player_{me}'s view)", fontsize=10)
    fig.tight_layout()
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=110)
    plt.close(fig)
    png = buf.getvalue()
    if path is None:
        return png
    Path(path).write_bytes(png)
    return Path(path)
