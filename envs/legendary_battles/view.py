"""A Legendary Battles game as one player sees it: the env's text (render_mode "ansi") and
its PNG, drawn by render.py over the scenario's map with the units where the game has them.

Only what `me` may know (docs/rules/fantasy_cards.md R34, LB R23): my hand by card, the
opponent's hand as a count, both decks as counts (never their order), the discard piles and
the cards being resolved, every unit with its zone, facing and statuses (the units the other
side chose by points stay out until deployment).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

import numpy as np

from envs.legendary_battles.tables import ScenarioArrays, Tables

STATUS_WORDS = ((1, "Shaken"), (2, "Out Of Action"))  # state.STATUS_* bits
WHERE_WORDS = {0: "off the battlefield", 1: "", 2: "eliminated", 3: "left the map"}


@lru_cache(maxsize=1)
def _fc():
    from envs.fantasy_cards.tables import load_tables

    return load_tables()


def _card(k: int) -> str:
    fc = _fc()
    return (
        f"{fc.card_number[k]} {fc.play_names[fc.card_action[k]]} / "
        f"{fc.play_names[fc.card_situation[k]]}"
    )


def render_text(tables: Tables, sa: ScenarioArrays, S: np.ndarray, me: int, b: int = 0) -> str:
    """Player `me`'s picture of game b: the map with the units, then the game's state."""
    from envs.legendary_battles.render import (
        facing_name,
        render_ascii,
        state_view,
        visible_units,
    )
    from envs.tactical_assault.actions import STAGE_NAMES
    from envs.tactical_assault.state import PLACE_DISCARD, PLACE_HAND

    view = state_view(sa, S, me, b)
    lines = [render_ascii(view, tables.terrain).rstrip("\n")]
    sides = [s.name for s in sa.scenario.sides]
    stage = int(S["stage"][b])
    cur = int(S["current"][b])
    active = int(S["active"][b])
    lines.append(
        f"you are side {me} ({sides[me]}); turn {int(S['turn'][b])} "
        f"(limit {sa.turn_limit} each); "
        + (f"side {active} to play; " if active >= 0 else "before the first turn; ")
        + f"decision: {STAGE_NAMES.get(stage, stage)} by side {cur}"
    )
    if stage == 0:
        w = int(S["winner"][b])
        lines.append("game over: " + ("a draw" if w < 0 else f"side {w} ({sides[w]}) wins"))
    g = view.grid
    for u, side, t, z, facing, lbl in visible_units(sa, S, me, b):
        words = [w for bit, w in STATUS_WORDS if int(S["unit_status"][b, u]) & bit]
        where = WHERE_WORDS.get(int(S["unit_where"][b, u]), "")
        if z >= 0:
            where = f"({g.col[z]},{g.row[z]}) facing {facing_name(sa, facing)}"
        lines.append(
            f"  side {side} {lbl} {_type_name(t)} {where}"
            + (" [" + ", ".join(words) + "]" if words else "")
        )
    for p in (me, 1 - me):
        places = S["card_place"][b, p]
        who = "your" if p == me else "opponent's"
        lines.append(
            f"{who} deck {int(S['deck_count'][b, p])} cards, hand "
            f"{int((places == PLACE_HAND).sum())}, discards {int((places == PLACE_DISCARD).sum())}; "
            f"points lost {int(S['points_lost'][b, p])}"
        )
    lines.append(
        "your hand: "
        + "; ".join(_card(int(k)) for k in np.flatnonzero(S["card_place"][b, me] == PLACE_HAND))
    )
    for i in range(int(S["depth"][b])):
        p = int(S["fr_player"][b, i])
        lines.append(f"resolving: side {p} {_card(int(S['fr_card'][b, i]))}")
    sel = int(S["sel_card"][b])
    if sel >= 0:
        lines.append(f"card chosen by side {cur}: {_card(sel)}")
    return "\n".join(lines) + "\n"


def _type_name(t: int) -> str:
    from envs.legendary_battles.tables import UNIT_TYPES

    return list(UNIT_TYPES)[t] if 0 <= t < len(UNIT_TYPES) else "?"


def render_image(
    tables: Tables, sa: ScenarioArrays, S: np.ndarray, me: int, b: int = 0, path=None
) -> Path:
    """Player `me`'s picture of game b as a PNG (units with facing; S Shaken, O Out Of
    Action after the label); returns the path (default legendary_battles.png)."""
    from envs.legendary_battles.render import render_png, state_view

    view = state_view(sa, S, me, b, status_suffix=True)
    return render_png(view, tables.terrain, Path(path or "legendary_battles.png"))
