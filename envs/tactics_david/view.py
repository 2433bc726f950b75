"""A Tactics David game as text, seen by one player (the contract's render_text; the AEC env's
render_mode "ansi"). It shows only what that player may know (R54): the opponent's units in
reserve are a count, the Item Deck is its size.

    Tactics David  Bramble Creek Crossing 14x11  Turn 3  player_0 to decide: engage
    ...
       0  1  2  3 ...         (columns; rows north first)
     0 .  .  0^ h2 ~  ...     a unit: its seat and facing (^ > v <), x when Dead;
                              else a Terrain Piece, h and its height, else the terrain
                              symbol (terrain_types.yaml: . Field, ~ Water, = Road, F Forest;
                              ~ too where a Floodplains unit floods the space, R124)
"""

from __future__ import annotations

import numpy as np

from envs.tactics_david.actions import STAGE_NAMES
from envs.tactics_david.state import (
    MAX_UNITS,
    N_ITEM_SLOTS,
    N_PLAYERS,
    N_STATUSES,
    PLACE_FIELD,
    PLACE_REMOVED,
    PLACE_RESERVE,
    STATUS_PERMANENT,
)
from envs.tactics_david.tables import Tables

ARROWS = "^>v<"
FACES = "NESW"


def unit_line(S: np.ndarray, tables: Tables, b: int, u: int) -> str:
    """One unit: name, cost, where, facing, Strength Ratings, Statuses and Items."""
    g = S[b]
    names = tables.units.unit_names
    members = [names[int(m)] for m in g["unit_member"][u] if m >= 0]
    text = " + ".join(members) + f" ({int(g['unit_cost'][u])})"
    place = int(g["unit_place"][u])
    cols = int(tables.battlefields[int(g["battlefield"])].terrain.shape[1])
    if place == PLACE_FIELD:
        c = int(g["unit_cell"][u])
        text += f" at ({c // cols},{c % cols}) facing {FACES[int(g['unit_facing'][u])]}"
    elif place == PLACE_RESERVE:
        text += " in reserve"
    elif place == PLACE_REMOVED:
        text += " removed"
    text += " F/L/R/B " + "/".join(str(int(x)) for x in g["unit_strength"][u])
    statuses = []
    for s in range(N_STATUSES):
        d = int(g["unit_status"][u, s])
        if d:
            statuses.append(tables.status_names[s] + ("" if d == STATUS_PERMANENT else f" {d}"))
    if statuses:
        text += " [" + ", ".join(statuses) + "]"
    items = [tables.item_names[int(i)] for i in g["unit_item"][u][:N_ITEM_SLOTS] if i >= 0]
    if items:
        text += " items: " + ", ".join(items)
    if g["unit_shed_cell"][u] >= 0:  # tdabF: Shed (R135)
        text += f" locked with a Shed Marker on space {int(g['unit_shed_cell'][u])}"
    elif g["unit_lock"][u] >= 0:
        text += f" locked with unit {int(g['unit_lock'][u])}"
    if g["unit_ctrl"][u] >= 0:  # tdabI: Possess (R137)
        text += f" possessed by player {int(g['unit_ctrl'][u])} this Turn"
    return text


def render_text(S: np.ndarray, tables: Tables, me: int, b: int = 0) -> str:
    """Game b as player `me` may see it (module docstring)."""
    g = S[b]
    bf = tables.battlefields[int(g["battlefield"])]
    rows, cols = bf.terrain.shape
    stage = int(g["stage"])
    over = stage == 9  # actions.STAGE_GAME_OVER
    head = f"Tactics David  {bf.name} {cols}x{rows}  Turn {int(g['turn'])}  "
    if over:
        w = int(g["winner"])
        head += "game over: " + ("drawn" if w < 0 else f"player_{w} won")
        head += f" (scores {int(g['score'][0])}, {int(g['score'][1])})"
    else:
        name = STAGE_NAMES[stage] if stage < len(STAGE_NAMES) else f"stage {stage}"
        head += f"player_{int(g['current'])} to decide: {name}"
    lines = [head, f"you are player_{me}; Item Deck: {int(g['deck_count'])} cards"]
    if g["engaged"] >= 0:
        lines.append(f"engaged: unit {int(g['engaged'])}")
    grid = [["" for _ in range(cols)] for _ in range(rows)]
    water = int(tables.terrain_index["Water"])
    for r in range(rows):
        for c in range(cols):
            p = int(bf.piece[r, c])
            t = water if g["flood"][r * cols + c] else int(bf.terrain[r, c])  # tdabH (R124)
            grid[r][c] = f"h{int(tables.piece_height[p])}" if p >= 0 else tables.terrain_symbol[t]
    dead = int(tables.status_index["Dead"])
    for u in range(N_PLAYERS * MAX_UNITS):
        if g["unit_place"][u] == PLACE_FIELD:
            c = int(g["unit_cell"][u])
            mark = str(u // MAX_UNITS) + ARROWS[int(g["unit_facing"][u])]
            grid[c // cols][c % cols] = mark[0] + "x" if g["unit_status"][u, dead] else mark
    lines.append("    " + "".join(f"{c:<3}" for c in range(cols)))
    for r in range(rows):
        lines.append(f"{r:>3} " + "".join(f"{x:<3}" for x in grid[r]))
    for p in range(N_PLAYERS):
        who = "you" if p == me else "opponent"
        lines.append(f"player_{p} ({who}):")
        hidden = 0
        for k in range(int(g["army_size"][p])):
            u = p * MAX_UNITS + k
            if p != me and g["unit_place"][u] == PLACE_RESERVE:
                hidden += 1  # R54: the opponent's reserve is a count
                continue
            flag = " DEAD" if g["unit_status"][u, dead] else ""
            lines.append(f"  {k:>2}: {unit_line(S, tables, b, u)}{flag}")
        if hidden:
            lines.append(f"  {hidden} unit(s) in reserve")
    return "\n".join(lines)
