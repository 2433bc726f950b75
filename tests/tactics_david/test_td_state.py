"""The state layout, the tables record and the action encoding (issue 8, step 1)."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from envs.tactics_david import actions as A
from envs.tactics_david import state as st
from envs.tactics_david.record import build_record
from envs.tactics_david.tables import load_tables
from tests.tactics_david.td_board import TABLES


def test_state_fits_the_budget():
    # issue 8: state <= 32 KB per game
    assert st.STATE_DTYPE.itemsize <= 32 * 1024
    S = st.allocate(3)
    assert S.shape == (3,) and (S["cell_unit"] == -1).all() and (S["winner"] == -1).all()


def test_capacities_hold_the_data():
    rows, cols = max((bf.terrain.shape for bf in TABLES.battlefields), key=lambda s: s[0] * s[1])
    assert rows * cols <= st.MAX_CELLS
    assert len(TABLES.status_names) == st.N_STATUSES
    assert st.N_UNIT_IDS < 128  # ids fit int8


def test_record_copies_the_tables():
    tb = build_record(TABLES)
    u = TABLES.units
    n = len(u.unit_names)
    assert tb.n_profiles == n
    assert (tb.u_strength[:n] == u.strength).all()
    assert (tb.u_cost[:n] == u.cost).all()
    assert tb.min_cost == u.cost.min()
    assert tb.area_ma == TABLES.area_index["MA"]
    # Bramble Creek Crossing: the Bridge spaces count as Road (TD-26.2) and may be stood on
    bf = TABLES.battlefields[0]
    bridge = np.argwhere(bf.piece.reshape(-1) == TABLES.piece_index["Bridge"]).ravel()
    assert len(bridge) == 2
    assert (tb.bf_terrain[0, bridge] == TABLES.terrain_index["Road"]).all()
    assert (tb.bf_height[0, bridge] == 0).all() and tb.bf_bridge[0, bridge].all()
    # deployment facings point at the other zone (R23): west/east zones, then north/south
    assert tuple(tb.bf_deploy_facing[0]) == (st.FACE_E, st.FACE_W)
    assert tuple(tb.bf_deploy_facing[1]) == (st.FACE_S, st.FACE_N)
    assert tb.bf_limit[0] == 100


@pytest.mark.parametrize(
    "kw, word",
    [
        ({"battlefield": 7}, "battlefield"),
        ({"purchase_limit": 3}, "purchase_limit"),
        ({"purchase_limit": 500}, "purchase limit"),
        ({"turn_limit": -1}, "turn_limit"),
    ],
)
def test_record_refuses_bad_options(kw, word):
    with pytest.raises(ValueError, match=word):
        build_record(TABLES, **kw)


def test_action_layout_is_contiguous_and_described():
    starts = [A.A_CELL, A.A_UNIT, A.A_FACE, A.A_STRIKE, A.A_SIDE, A.A_SEAT, A.A_CHARGE]
    assert starts == sorted(starts) and A.A_PIECE + A.MAX_PROFILE_SLOTS == A.A_UNFORM
    assert A.A_UNFORM + 1 == A.A_BELT  # the actions appended after the pieces (tdteams)
    assert A.A_BELT + 3 * st.N_ITEM_TYPES == A.N_ACTIONS  # tdabG: Work Belt's second slots
    names = {A.describe(a) for a in range(A.N_ACTIONS)}
    assert len(names) == A.N_ACTIONS  # every action has its own name
    with pytest.raises(ValueError, match=str(A.N_ACTIONS - 1)):
        A.describe(A.N_ACTIONS)


def test_record_refuses_a_zone_too_small_for_the_army(config_copy):
    """An army of up to purchase limit / cheapest cost units must fit its Deployment area."""
    path = config_copy / "battlefields.yaml"
    data = yaml.safe_load(path.read_text())
    data["entries"][0]["deployment"][0]["rows"] = [0, 3]  # 8 spaces for up to 20 units
    path.write_text(yaml.safe_dump(data))
    with pytest.raises(ValueError, match="Deployment area has 8 free spaces"):
        build_record(load_tables(config_copy))
