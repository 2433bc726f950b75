"""Hand-built Tactics David positions for the engine tests: a started game's state with the
armies cleared, units put where a test needs them, and a record whose battlefield a test may
repaint (a blank Field battlefield by default)."""

from __future__ import annotations

import numpy as np

from envs.tactics_david import kernels as K
from envs.tactics_david import state as st
from envs.tactics_david.actions import A_UNIT, MAX_LEGAL, STAGE_ENGAGE
from envs.tactics_david.record import build_record
from envs.tactics_david.setup import add_unit
from envs.tactics_david.tables import load_tables
from envs.tactics_david.units import put

TABLES = load_tables()
UNIT = TABLES.units.unit_index
TERRAIN = TABLES.terrain_index
I = np.int64  # noqa: E741 - the kernels take int64 (one signature each)
B0 = I(0)
N, E, S_, W = st.FACE_N, st.FACE_E, st.FACE_S, st.FACE_W


def record(battlefield: int = 0, blank: bool = True, **options):
    """A tables record; with blank=True battlefield 0 is all Field with no Terrain Piece."""
    tb = build_record(TABLES, battlefield=battlefield, **options)
    if blank:
        tb.bf_terrain[battlefield] = TERRAIN["Field"]
        tb.bf_height[battlefield] = -1
        tb.bf_bridge[battlefield] = 0
    return tb


def paint(tb, row: int, col: int, terrain: str | None = None, height: int | None = None):
    """Repaint one space of battlefield 0 (terrain type name, piece height or -1)."""
    c = cell(tb, row, col)
    if terrain is not None:
        tb.bf_terrain[0, c] = TERRAIN[terrain]
    if height is not None:
        tb.bf_height[0, c] = height


def cell(tb, row: int, col: int) -> int:
    return row * int(tb.bf_cols[0]) + col


def position(tb, seed: int = 1, turn: int = 1, current: int = 0) -> np.ndarray:
    """A game on battlefield 0 with no units yet, in `current`'s Turn, STAGE_ENGAGE."""
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    K.start_one(S, tb, B0, I(seed), I(0), out)
    S["army_size"][0] = 0
    S["army_cost"][0] = 0
    S["unit_place"][0] = st.PLACE_NONE
    S["unit_member"][0] = -1
    S["unit_item"][0] = -1  # no bought Item either (R141)
    S["army_bought"][0] = 0
    S["unit_cell"][0] = -1
    S["cell_unit"][0] = -1
    S["turn"][0] = turn
    S["current"][0] = current
    S["first_player"][0] = 0
    S["stage"][0] = STAGE_ENGAGE
    return S


def unit(S, tb, p: int, name: str, row: int, col: int, facing: int) -> int:
    """Put a unit of `name` for seat p on (row, col) facing `facing`; its id."""
    u = int(add_unit(S, tb, B0, I(p), I(UNIT[name])))
    put(S, B0, I(u), I(cell(tb, row, col)))
    S["unit_facing"][0, u] = facing
    return u


def legal(S, tb) -> list[int]:
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.legal(S, tb, B0, out)
    return [int(a) for a in out[:n]]


def act(S, tb, a: int) -> list[int]:
    """Apply action a (checked legal first); the next decision's legal actions."""
    assert a in legal(S, tb), (a, legal(S, tb))
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    n = K.apply_one(S, tb, B0, I(a), out)
    return [int(x) for x in out[:n]]


def engage(S, tb, u: int) -> list[int]:
    return act(S, tb, A_UNIT + u % st.MAX_UNITS)
