"""Drawing a Legendary Battles scenario map: ASCII text and a PNG picture.

ASCII: each zone is a 5-character cell ``TLCUF``:

    T  the terrain symbol (terrain.yaml ``symbol``)
    L  the ground's elevation level 1-5, blank at ground level
    C  the elevation class: g Gradual, s Steep, k Stark (blank at ground level)
    U  the unit's label; where no unit is, the deployment mark (+ side 0, * side 1)
    F  the unit's facing (squares ^ > v <; hexes NE / E > SE \\ SW , W < NW `), & for the
       other zones of an oversized unit

Zone sides are drawn between the cells (squares ``|`` and ``-----``; hexes ``|``, ``/`` and
``\\``); a side carrying linear terrain shows that terrain's symbol instead. A legend follows
the map. The PNG (matplotlib, Agg canvas, no pyplot) draws the same things in colour.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.collections import PolyCollection
from matplotlib.figure import Figure
from matplotlib.patches import Patch

from envs.legendary_battles import geometry as geo
from envs.legendary_battles.tables import (
    CLASSES,
    LEVELS,
    UNIT_TYPES,
    ScenarioArrays,
    TerrainType,
)

DEPLOY_MARKS = ("+", "*")
SIDE_COLOURS = ("#1f5fbf", "#c0392b")
OVERSIZED_PART = "&"
CLASS_CHARS = {1: "g", 2: "s", 3: "k"}
SQUARE_FACING = {"N": "^", "E": ">", "S": "v", "W": "<"}
HEX_FACING = {"NE": "/", "E": ">", "SE": "\\", "SW": ",", "W": "<", "NW": "`"}
# the tabletop's compass directions (ScenarioArrays.directions): mark and unit vector (y down)
DIRECTION_FACING = {**SQUARE_FACING, **HEX_FACING, "S": "v", "N": "^"}
_DIRECTION_VECTOR = {
    "N": (0.0, -1.0),
    "NE": (0.7071, -0.7071),
    "E": (1.0, 0.0),
    "SE": (0.7071, 0.7071),
    "S": (0.0, 1.0),
    "SW": (-0.7071, 0.7071),
    "W": (-1.0, 0.0),
    "NW": (-0.7071, -0.7071),
}


def facing_name(sa: ScenarioArrays, k: int) -> str:
    """Facing k's name: a side of the zone, or on the tabletop a compass direction."""
    return (sa.directions or sa.grid.sides)[k]


def _facing_mark(sa: ScenarioArrays, k: int) -> str:
    name = facing_name(sa, k)
    if sa.directions:
        return DIRECTION_FACING[name]
    return (SQUARE_FACING if sa.grid.shape == geo.SQUARE else HEX_FACING)[name]


_TYPE_NAMES = list(UNIT_TYPES)


def _cell(sa: ScenarioArrays, terrain: Sequence[TerrainType], z: int) -> str:
    t = terrain[int(sa.zone_terrain[z])].symbol
    lvl = int(sa.ground[z])
    lc = f"{lvl}{CLASS_CHARS[int(sa.ground_class[z])]}" if lvl else "  "
    u, f = " ", " "
    holders = np.flatnonzero(sa.unit_zones[:, z]) if sa.unit_zones.size else []
    if len(holders):
        i = int(holders[0])
        u = sa.unit_label[i]
        if sa.unit_zone[i] == z:
            if sa.unit_facing[i] >= 0:
                f = _facing_mark(sa, int(sa.unit_facing[i]))
        else:
            f = OVERSIZED_PART
    else:
        for p in range(sa.deployment.shape[0]):
            if sa.deployment[p, z]:
                u = DEPLOY_MARKS[p]
    return t + lc + u + f


def _side_char(
    sa: ScenarioArrays, terrain: Sequence[TerrainType], z: int, k: int, plain: str
) -> str:
    lt = int(sa.side_terrain[z, k])
    return terrain[lt].symbol * len(plain) if lt >= 0 else plain


def _map_lines(sa: ScenarioArrays, terrain: Sequence[TerrainType]) -> list[str]:
    g = sa.grid
    hexes = g.shape == geo.HEX
    width = 6 * g.width + (4 if hexes else 1) + 1
    canvas = [[" "] * width for _ in range(2 * g.height + 1)]

    def put(x: int, y: int, s: str) -> None:
        for i, ch in enumerate(s):
            canvas[y][x + i] = ch

    for z in range(g.n_zones):
        c, r = int(g.col[z]), int(g.row[z])
        x = 1 + 6 * c + (3 if hexes and r & 1 else 0)
        y = 2 * r + 1
        put(x, y, _cell(sa, terrain, z))
        if hexes:
            ne, e, se, sw, w, nw = range(6)
            put(x - 1, y, _side_char(sa, terrain, z, w, "|"))
            put(x + 5, y, _side_char(sa, terrain, z, e, "|"))
            put(x, y - 1, _side_char(sa, terrain, z, nw, "/"))
            put(x + 4, y - 1, _side_char(sa, terrain, z, ne, "\\"))
            put(x + 1, y + 1, _side_char(sa, terrain, z, sw, "\\"))
            put(x + 3, y + 1, _side_char(sa, terrain, z, se, "/"))
        else:
            n, e, s, w = range(4)
            put(x - 1, y, _side_char(sa, terrain, z, w, "|"))
            put(x + 5, y, _side_char(sa, terrain, z, e, "|"))
            put(x, y - 1, _side_char(sa, terrain, z, n, "-----"))
            put(x, y + 1, _side_char(sa, terrain, z, s, "-----"))
            for dx in (-1, 5):
                for dy in (-1, 1):
                    put(x + dx, y + dy, "+")
    return ["".join(row).rstrip() for row in canvas]


def _legend(sa: ScenarioArrays, terrain: Sequence[TerrainType]) -> list[str]:
    g = sa.grid
    sc = sa.scenario
    shape = "hex" if g.shape == geo.HEX else "square"
    out = [f"{sc.name} ({shape} {g.width}x{g.height})"]
    used = sorted(set(sa.zone_terrain.tolist()))
    out.append("terrain: " + "  ".join(f"{terrain[t].symbol} {terrain[t].name}" for t in used))
    if sa.ground.any():
        levels = sorted(set(sa.ground[sa.ground > 0].tolist()))
        classes = sorted(set(sa.ground_class[sa.ground > 0].tolist()))
        out.append(
            "elevation: "
            + "  ".join(f"{lv} {LEVELS[lv]}" for lv in levels)
            + "; "
            + "  ".join(f"{CLASS_CHARS[c]} {CLASSES[c]}" for c in classes)
        )
    lin = sorted(set(sa.side_terrain[sa.side_terrain >= 0].tolist()))
    if lin:
        out.append("linear: " + "  ".join(f"{terrain[t].symbol} {terrain[t].name}" for t in lin))
    out.append(
        "deployment: " + "  ".join(f"{DEPLOY_MARKS[p]} {s.name}" for p, s in enumerate(sc.sides))
    )
    for p, s in enumerate(sc.sides):
        parts = []
        for i in np.flatnonzero(sa.unit_side == p):
            name = _TYPE_NAMES[int(sa.unit_type[i])] if sa.unit_type[i] >= 0 else "?"
            z = int(sa.unit_zone[i])
            if z >= 0:
                where = f"({g.col[z]},{g.row[z]})"
                if sa.unit_zones[i].sum() > 1:
                    where += f"+{int(sa.unit_zones[i].sum()) - 1}"
            else:
                where = "unplaced"
            parts.append(f"{sa.unit_label[i]} {name} {where}")
        if s.force.points is not None:
            parts.append(f"{s.force.points} points to choose")
        out.append(f"side {p} {s.name}: " + ", ".join(parts))
    return out


def render_ascii(sa: ScenarioArrays, terrain: Sequence[TerrainType]) -> str:
    """The map as text (see the module docstring for the cell layout) and its legend."""
    return "\n".join(_map_lines(sa, terrain) + _legend(sa, terrain)) + "\n"


def render_png(
    sa: ScenarioArrays,
    terrain: Sequence[TerrainType],
    path: Path | str,
    zone_inches: float = 0.55,
    dpi: int = 100,
) -> Path:
    """Draw the map to a PNG file: terrain fills, elevation shading and labels, linear terrain
    as thick side lines, deployment zones outlined in the side's colour, partial zones hatched,
    units as labelled discs with a facing tick (oversized units joined by a bar)."""
    g = sa.grid
    path = Path(path)
    xs, ys = g.vertex[..., 0], g.vertex[..., 1]
    w = float(xs.max() - xs.min())
    h = float(ys.max() - ys.min())
    fig = Figure(figsize=(w * zone_inches + 3.2, h * zone_inches + 1.0), dpi=dpi)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0.02, 0.04, 0.96 * w * zone_inches / (w * zone_inches + 3.2), 0.88))
    colours = [terrain[int(t)].colour for t in sa.zone_terrain]
    ax.add_collection(
        PolyCollection(list(g.vertex), facecolors=colours, edgecolors="#555555", linewidths=0.5)
    )
    # Elevation: darker with height, labelled with level and class.
    for z in np.flatnonzero(sa.ground > 0):
        lvl = int(sa.ground[z])
        ax.add_collection(
            PolyCollection([g.vertex[z]], facecolors=(0, 0, 0, 0.09 * lvl), edgecolors="none")
        )
        cx, cy = g.centre[z]
        dx, dy = (-0.44, -0.44) if g.shape == geo.SQUARE else (-0.3, -0.36)
        ax.text(
            cx + dx,
            cy + dy,
            f"{lvl}{CLASS_CHARS[int(sa.ground_class[z])]}",
            fontsize=6,
            color="#222222",
            ha="left",
            va="top",
        )
    # Partial zones: hatched.
    for z in np.flatnonzero(sa.partial):
        ax.add_collection(
            PolyCollection(
                [g.vertex[z]], facecolors="none", edgecolors="#333333", hatch="///", linewidths=0
            )
        )
    # Deployment zones: inset outlines in the side's colour.
    for p in range(sa.deployment.shape[0]):
        inset = [
            g.centre[z] + 0.82 * (g.vertex[z] - g.centre[z])
            for z in np.flatnonzero(sa.deployment[p])
        ]
        if inset:
            ax.add_collection(
                PolyCollection(
                    inset,
                    facecolors="none",
                    edgecolors=SIDE_COLOURS[p],
                    linewidths=1.2,
                    linestyles="--",
                )
            )
    # Linear terrain: thick lines along the sides.
    ns = g.n_sides
    for z in range(g.n_zones):
        for k in range(ns):
            lt = int(sa.side_terrain[z, k])
            if lt < 0:
                continue
            a, b = g.vertex[z, k], g.vertex[z, (k + 1) % ns]
            ax.plot(
                [a[0], b[0]],
                [a[1], b[1]],
                color=terrain[lt].colour,
                linewidth=4,
                solid_capstyle="round",
            )
    # Units.
    for i in range(len(sa.unit_label)):
        z = int(sa.unit_zone[i])
        if z < 0:
            continue
        col = SIDE_COLOURS[int(sa.unit_side[i])]
        cx, cy = g.centre[z]
        for y in np.flatnonzero(sa.unit_zones[i]):
            if y != z:
                px, py = g.centre[y]
                ax.plot(
                    [cx, px], [cy, py], color=col, linewidth=7, alpha=0.6, solid_capstyle="round"
                )
                ax.add_patch(_disc(px, py, 0.2, col, alpha=0.6))
        ax.add_patch(_disc(cx, cy, 0.3, col))
        if sa.unit_facing[i] >= 0:
            k = int(sa.unit_facing[i])
            if sa.directions:
                d = 0.5 * np.array(_DIRECTION_VECTOR[sa.directions[k]])
            else:
                m = (g.vertex[z, k] + g.vertex[z, (k + 1) % ns]) / 2.0
                d = m - g.centre[z]
            ax.plot(
                [cx + 0.3 * d[0] / 0.5, cx + 0.85 * d[0]],
                [cy + 0.3 * d[1] / 0.5, cy + 0.85 * d[1]],
                color="black",
                linewidth=2,
            )
        ax.text(
            cx,
            cy,
            sa.unit_label[i],
            ha="center",
            va="center",
            fontsize=8,
            color="white",
            fontweight="bold",
        )
    ax.set_xlim(xs.min() - 0.1, xs.max() + 0.1)
    ax.set_ylim(ys.max() + 0.1, ys.min() - 0.1)  # row 0 at the top
    ax.set_aspect("equal")
    ax.set_axis_off()
    shape = "hex" if g.shape == geo.HEX else "square"
    ax.set_title(f"{sa.scenario.name} ({shape} {g.width}x{g.height})", fontsize=11)
    # Legend: terrain, linear terrain, sides.
    handles = [
        Patch(facecolor=terrain[t].colour, edgecolor="#555555", label=terrain[t].name)
        for t in sorted(set(sa.zone_terrain.tolist()))
    ]
    for t in sorted(set(sa.side_terrain[sa.side_terrain >= 0].tolist())):
        handles.append(Patch(facecolor=terrain[t].colour, label=f"{terrain[t].name} (linear)"))
    for p, s in enumerate(sa.scenario.sides):
        handles.append(
            Patch(
                facecolor="none",
                edgecolor=SIDE_COLOURS[p],
                linestyle="--",
                label=f"{s.name} (side {p})",
            )
        )
    if sa.ground.any():
        handles.append(Patch(facecolor=(0, 0, 0, 0.2), label="elevation: level + g/s/k"))
    if sa.partial.any():
        handles.append(Patch(facecolor="none", hatch="///", label="partial zone"))
    fig.legend(handles=handles, loc="center right", fontsize=7, frameon=False)
    path.parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(path, dpi=dpi)
    return path


def _disc(x: float, y: float, r: float, colour: str, alpha: float = 1.0):
    from matplotlib.patches import Circle

    return Circle((x, y), r, facecolor=colour, edgecolor="black", linewidth=0.8, alpha=alpha)


def write_scenario_pictures(out_dir: Path | str | None = None) -> list[Path]:
    """Draw every scenario in configs/legendary_battles/scenarios/ to <file stem>.png in
    docs/rules/legendary_battles/ (or `out_dir`)."""
    from envs.legendary_battles.tables import DEFAULT_DIR, load_tables

    root = Path(__file__).resolve().parents[2]
    out = Path(out_dir) if out_dir is not None else root / "docs" / "rules" / "legendary_battles"
    tables = load_tables(unit_types_path=None)
    by_name = {sa.scenario.name: sa for sa in tables.scenarios.values()}
    written = []
    for path in sorted((DEFAULT_DIR / "scenarios").glob("*.yaml")):
        from envs.legendary_battles.tables import load_scenario

        sa = by_name[load_scenario(path).name]
        written.append(render_png(sa, tables.terrain, out / f"{path.stem}.png"))
    return written


if __name__ == "__main__":
    for p in write_scenario_pictures():
        print(p)


# ----------------------------------------------------------------------------------------------
# A game in progress, as one player sees it (the env's render_text / render_image)

_CHOSEN_LABELS = ("0123456789", "abcdefghijklmnopqrstuvwxyz")  # units chosen by points, per side


def visible_units(sa: ScenarioArrays, S: np.ndarray, me: int, b: int = 0) -> list[tuple]:
    """(slot, side, type, zone or -1, facing, label) of every unit of game b of the Tactical
    Assault state S that player `me` may see: while forces are chosen by points (LB R23) the
    units the other side chose are left out. Units chosen by points are labelled 0-9 (side 0)
    and a-z (side 1) in the order chosen, skipping the scenario's labels."""
    from envs.tactical_assault.actions import STAGE_CHOOSE_FORCE
    from envs.tactical_assault.state import WHERE_ON

    n_fixed = len(sa.unit_label)
    choosing = int(S["stage"][b]) == STAGE_CHOOSE_FORCE
    used = set(sa.unit_label)
    pools = [[c for c in _CHOSEN_LABELS[p] if c not in used] for p in range(2)]
    n_chosen = [0, 0]
    rows = []
    for u in range(S["unit_side"].shape[1]):
        side = int(S["unit_side"][b, u])
        if side < 0:
            continue
        if u < n_fixed:
            label = sa.unit_label[u]
        else:
            pool = pools[side]
            label = pool[n_chosen[side] % len(pool)]
            n_chosen[side] += 1
            if choosing and side != me:
                continue
        zone = int(S["unit_pos"][b, u]) if int(S["unit_where"][b, u]) == WHERE_ON else -1
        rows.append((u, side, int(S["unit_type"][b, u]), zone, int(S["unit_facing"][b, u]), label))
    return rows


def state_view(sa: ScenarioArrays, S: np.ndarray, me: int, b: int = 0, status_suffix=False):
    """The scenario `sa` with the units of game b of the Tactical Assault state S where they
    stand, as player `me` may see them (visible_units). status_suffix: labels carry S
    (Shaken) / O (Out Of Action) (the PNG; the text map has one character per unit)."""
    import dataclasses

    from envs.tactical_assault.state import STATUS_OUT_OF_ACTION, STATUS_SHAKEN

    rows = []
    for u, side, t, zone, facing, label in visible_units(sa, S, me, b):
        if status_suffix:
            st = int(S["unit_status"][b, u])
            label += ("S" if st & STATUS_SHAKEN else "") + (
                "O" if st & STATUS_OUT_OF_ACTION else ""
            )
        rows.append((side, t, zone, facing, label))
    nz = sa.grid.n_zones
    g = sa.grid
    # the scenario's fixed units (the tabletop's view has no footprints: FC R28)
    fixed = [u for s in sa.scenario.sides for u in getattr(s.force, "units", ())]
    zones = np.zeros((len(rows), nz), dtype=bool)
    for i, (r, (u, *_)) in enumerate(zip(rows, visible_units(sa, S, me, b), strict=True)):
        if r[2] >= 0:
            zones[i, r[2]] = True
            # an oversized unit's other zones, where its centre zone now is (LB R28)
            for d in getattr(fixed[u], "footprint", ()) if u < len(fixed) else ():
                c2, r2 = geo.step(g.shape, int(g.col[r[2]]), int(g.row[r[2]]), d)
                y = g.zone(c2, r2)
                if y >= 0:
                    zones[i, y] = True
    return dataclasses.replace(
        sa,
        unit_side=np.array([r[0] for r in rows], dtype=np.int8),
        unit_type=np.array([r[1] for r in rows], dtype=np.int16),
        unit_zone=np.array([r[2] for r in rows], dtype=np.int16),
        unit_facing=np.array([r[3] if r[2] >= 0 else -1 for r in rows], dtype=np.int8),
        unit_zones=zones,
        unit_label=tuple(r[4] for r in rows),
    )
