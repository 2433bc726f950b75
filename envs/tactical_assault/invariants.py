"""Invariants of a Tactical Assault game, checked after every decision by the tests and the
fuzzer: every card in exactly one place, statuses and positions consistent, points
eliminated consistent, no two units sharing a position outside Close Combat."""

from __future__ import annotations

import numpy as np

from envs.tactical_assault.actions import STAGE_GAME_OVER
from envs.tactical_assault.state import (
    MAX_UNITS,
    PLACE_DECK,
    PLACE_HAND,
    PLACE_PLAYED,
    WHERE_ELIMINATED,
    WHERE_ON,
    WHERE_UNUSED,
)


def check(S: np.ndarray, tb, b: int) -> str:
    """'' when game b is consistent, else what is wrong (one line)."""
    n = int(tb.n_cards)
    for p in (0, 1):
        places = S["card_place"][b, p, :n]
        dc = int(S["deck_count"][b, p])
        deck = S["deck"][b, p, :dc]
        if sorted(deck.tolist()) != np.flatnonzero(places == PLACE_DECK).tolist():
            return f"seat {p}: the deck order does not hold exactly the PLACE_DECK cards"
        if (S["deck"][b, p, dc:] != -1).any():
            return f"seat {p}: cards past the deck count"
        if (places == PLACE_HAND).sum() > int(tb.hand_size):
            return f"seat {p}: more than {tb.hand_size} cards in hand"
        played = {
            int(S["fr_card"][b, i]) for i in range(S["depth"][b]) if S["fr_player"][b, i] == p
        }
        if set(np.flatnonzero(places == PLACE_PLAYED).tolist()) != played:
            return f"seat {p}: cards in play are not the stack's"
    lost = [0, 0]
    units = [0, 0]
    at: dict[int, list[int]] = {}
    for u in range(MAX_UNITS):
        where = int(S["unit_where"][b, u])
        if where == WHERE_UNUSED:
            if S["unit_side"][b, u] != -1:
                return f"unit {u}: unused slot with a side"
            continue
        side = int(S["unit_side"][b, u])
        pos = int(S["unit_pos"][b, u])
        if where == WHERE_ON:
            if not 0 <= pos < tb.g_n_pos or not tb.g_standable[pos]:
                return f"unit {u}: on the battlefield at bad position {pos}"
            at.setdefault(pos, []).append(u)
        elif pos != -1:
            return f"unit {u}: off the battlefield with a position"
        if where == WHERE_ELIMINATED:
            lost[side] += int(tb.type_points[S["unit_type"][b, u]])
            units[side] += 1
        if S["unit_status"][b, u] & ~np.uint8(3):
            return f"unit {u}: unknown status bits"
    if lost != S["points_lost"][b].tolist() or units != S["units_lost"][b].tolist():
        return (
            f"points/units eliminated {S['points_lost'][b]} {S['units_lost'][b]} != {lost} {units}"
        )
    for pos, us in at.items():
        if len(us) > 1:
            sides = {int(S["unit_side"][b, u]) for u in us}
            movers = {int(S["fr_unit"][b, i]) for i in range(S["depth"][b])}
            movers.add(int(S["fb_unit"][b]))
            settling = int(S["settle_zone"][b]) == pos
            if len(sides) < 2 and not movers & set(us) and not settling:
                return f"position {pos}: units {us} of one side share it outside Close Combat"
            entered = [u for u in us if S["unit_entry"][b, u] >= 0]
            if len(sides) == 2 and len(entered) < len(us) - 1:
                return f"position {pos}: units {us} share it but only {entered} entered"
    if S["stage"][b] != STAGE_GAME_OVER and S["depth"][b] == 0 and S["fb_unit"][b] != -1:
        return "a Fall Back pending outside any card"
    return ""
