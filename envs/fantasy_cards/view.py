"""A Fantasy Cards game as one player sees it: the env's text (render_mode "ansi") and its PNG.

The tabletop (envs/fantasy_cards/tabletop.py, R28) is drawn by Legendary Battles' map
renderer (envs/legendary_battles/render.py, view.py): the battlefield file becomes the
renderer's ScenarioArrays (a 16 x 16 square map whose cells are zones, facings the 8 compass
directions), and the game's units, statuses, hands and piles are shown as there, with only
what `me` may know (FC R34): the opponent's hand as a count, no deck's order, the units the
other side chose by points only once deployed.
"""

from __future__ import annotations

import string
from dataclasses import dataclass
from pathlib import Path
from types import SimpleNamespace

import numpy as np

from envs.fantasy_cards import tabletop as tt
from envs.legendary_battles import geometry as geo
from envs.legendary_battles import tables as lbt


def _refuse(msg: str):
    raise ValueError(msg)


@dataclass(frozen=True)
class TabletopView:
    """What the renderer needs of a battlefield: its map as ScenarioArrays and the terrain
    types (`terrain`, as Legendary Battles' Tables has them)."""

    sa: lbt.ScenarioArrays
    terrain: tuple[lbt.TerrainType, ...]

    @classmethod
    def load(cls, path: Path | str) -> TabletopView:
        """The view of the battlefield file `path` (already validated by the ruleset's
        tabletop.battlefield_record, so the tokens here are known to be good)."""
        bf = tt.load_battlefield(path)
        terrain = tuple(tt._terrain())
        index = {t.name: i for i, t in enumerate(terrain)}
        n = tt.CELLS * tt.CELLS
        grid = geo.make_grid("square", tt.CELLS, tt.CELLS)

        def grid_tokens(text: str) -> list[list[str]]:
            return lbt._parse_grid_text(text, tt.CELLS, tt.CELLS, _refuse)

        zone_terrain = np.zeros(n, dtype=np.int16)
        for r, row in enumerate(grid_tokens(bf.terrain)):
            for c, tok in enumerate(row):
                zone_terrain[tt.cell(c, r)] = index[bf.legend[tok]]
        ground = np.zeros(n, dtype=np.int8)
        ground_class = np.zeros(n, dtype=np.int8)
        if bf.elevation is not None:
            for r, row in enumerate(grid_tokens(bf.elevation)):
                for c, tok in enumerate(row):
                    if tok != "0":
                        ground[tt.cell(c, r)] = int(tok[0])
                        ground_class[tt.cell(c, r)] = lbt.CLASS_LETTERS[tok[1]]
        # linear terrain on cell edges; the map's square sides are N, E, S, W like tt.EDGES
        side_terrain = np.full((n, 4), -1, dtype=np.int16)
        for run in bf.linear_terrain:
            for c, r, s in run.sides:
                e = tt.EDGES.index(s)
                side_terrain[tt.cell(c, r), e] = index[run.terrain]
                y = grid.zone(c + tt.EDGE_STEP[e][0], r + tt.EDGE_STEP[e][1])
                if y >= 0:
                    side_terrain[y, (e + 2) % 4] = index[run.terrain]
        fc = tt._fc_tables()
        units = [(p, u) for p, f in enumerate(bf.forces) for u in f.units]
        labels = string.ascii_uppercase + string.ascii_lowercase
        zone = [tt.cell(*u.cell) if u.cell is not None else -1 for _, u in units]
        unit_zones = np.zeros((len(units), n), dtype=bool)
        for i, z in enumerate(zone):
            if z >= 0:
                unit_zones[i, z] = True
        sides = [
            SimpleNamespace(name=f"player_{p}", force=SimpleNamespace(points=f.points))
            for p, f in enumerate(bf.forces)
        ]
        sa = lbt.ScenarioArrays(
            scenario=SimpleNamespace(name=bf.name, sides=sides),
            grid=grid,
            zone_terrain=zone_terrain,
            ground=ground,
            ground_class=ground_class,
            partial=np.zeros(n, dtype=bool),
            side_terrain=side_terrain,
            template=np.full(n, -1, dtype=np.int16),
            entry_cost=np.zeros((n, 4), dtype=np.int8),
            wm_entry_cost=np.zeros((n, 4), dtype=np.int8),
            # deployment is "anywhere" (FC "Deploy Forces"): no marks on the map
            deployment=np.zeros((2, n), dtype=bool),
            points=np.array([-1 if f.points is None else f.points for f in bf.forces]),
            unit_side=np.array([p for p, _ in units], dtype=np.int8),
            unit_type=np.array([fc.unit_type_index[u.type] for _, u in units], dtype=np.int16),
            unit_zone=np.array(zone, dtype=np.int16),
            unit_facing=np.array(
                [tt.DIRECTIONS.index(u.facing) if u.facing else -1 for _, u in units],
                dtype=np.int8,
            ),
            unit_zones=unit_zones,
            unit_label=tuple(labels[i % len(labels)] for i in range(len(units))),
            distances=np.array([1, 2, 4, 8, 16], dtype=np.int16),  # Table 2 in cells
            los_terrain=None,  # the kernels' LOS is the tables record's; not drawn
            turn_limit=int(fc.standard_game.turn_limit_per_player),
            directions=tt.DIRECTIONS,
        )
        return cls(sa, terrain)


def render_text(view: TabletopView, S: np.ndarray, me: int, b: int = 0) -> str:
    """Player `me`'s picture of game b: the tabletop with the units, then the game's state."""
    from envs.legendary_battles.view import render_text as lb_text

    return lb_text(view, view.sa, S, me, b)


def render_image(view: TabletopView, S: np.ndarray, me: int, b: int = 0, path=None) -> Path:
    """Player `me`'s picture of game b as a PNG (default fantasy_cards.png): terrain,
    elevation, linear terrain, units with their facing and S (Shaken) / O (Out Of Action)."""
    from envs.legendary_battles.render import render_png, state_view

    v = state_view(view.sa, S, me, b, status_suffix=True)
    return render_png(v, view.terrain, Path(path or "fantasy_cards.png"))
