"""Clauses the engine already ran without a test pinning them: the game's frame (TD-1.1), terrain
(TD-2.5, TD-26.1), units on the grid (TD-3.1), Strength Ratings never below 0 (TD-3.10) and the
order of an Engagement's phases (TD-7.3, TD-10.7)."""

from __future__ import annotations

import numpy as np
import pytest
import yaml

from envs.core.config import ConfigError
from envs.tactics_david import combat, items
from envs.tactics_david import state as st
from envs.tactics_david.actions import (
    A_END,
    A_STRIKE,
    STAGE_COMBAT,
    STAGE_ENGAGE,
    STAGE_FIRST,
    STAGE_ITEM,
    STAGE_MOVE,
)
from envs.tactics_david.record import build_record
from envs.tactics_david.tables import load_tables
from tests.tactics_david.td_board import (
    B0,
    TABLES,
    E,
    I,
    W,
    act,
    engage,
    position,
    record,
    unit,
)
from tests.tactics_david.test_td_setup import _start

TB = build_record(TABLES)


def test_two_armies_meet_on_a_grid_battlefield():
    """TD-1.1: a game is two players' armies of units on a square-grid battlefield; every unit
    of both armies is bought (in reserve) and the first decision is the first player's."""
    for g in range(6):
        S, _ = _start(21, g)
        assert S["num_players"][0] == 2 and S["stage"][0] == STAGE_FIRST
        bf = int(S["battlefield"][0])
        rows, cols = int(TB.bf_rows[bf]), int(TB.bf_cols[bf])
        assert (rows, cols) == TABLES.battlefields[bf].terrain.shape
        for p in range(2):
            k = int(S["army_size"][0, p])
            assert k > 0
            ids = range(p * st.MAX_UNITS, p * st.MAX_UNITS + k)
            assert all(S["unit_place"][0, u] == st.PLACE_RESERVE for u in ids)
            assert int(S["army_cost"][0, p]) <= int(S["purchase_limit"][0])


def test_every_space_has_one_terrain_type(config_copy):
    """TD-2.5 / TD-26.1: every Grid Space of a battlefield has exactly one Terrain Type (a Bridge
    space counts as Road); a map row that leaves a space without a symbol is refused, naming
    file, entry and field."""
    for bf in range(len(TABLES.battlefields)):
        rows, cols = TABLES.battlefields[bf].terrain.shape
        terrain = TB.bf_terrain[bf, : rows * cols]
        assert ((terrain >= 0) & (terrain < len(TABLES.terrain_names))).all()
        plain = TABLES.battlefields[bf].piece.reshape(-1) < 0
        assert (terrain[plain] == TABLES.battlefields[bf].terrain.reshape(-1)[plain]).all()
    assert TABLES.terrain_symbol[TABLES.terrain_index["Field"]] == "."
    path = config_copy / "battlefields.yaml"
    doc = yaml.safe_load(path.read_text(encoding="utf-8"))
    doc["entries"][0]["terrain"][3] = doc["entries"][0]["terrain"][3][:-1]
    path.write_text(yaml.safe_dump(doc, sort_keys=False, allow_unicode=True), encoding="utf-8")
    with pytest.raises(ConfigError) as info:
        load_tables(config_copy)
    assert info.value.path.endswith("battlefields.yaml") and info.value.field == "terrain"


def test_a_unit_is_one_piece_on_one_space_with_a_facing():
    """TD-3.1: a unit's profile is its units.yaml row; deployed, it stands on exactly one Grid
    Space (cell_unit and unit_cell agree) with one of four facings."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Spearman", 4, 3, E)
    row = TABLES.units.unit_index["Spearman"]
    assert (S["unit_strength"][0, k] == TABLES.units.strength[row]).all()
    assert S["unit_cost"][0, k] == TABLES.units.cost[row]
    assert S["unit_type"][0, k] == TABLES.units.unit_type[row]
    c = int(S["unit_cell"][0, k])
    assert S["cell_unit"][0, c, 0] == k and (S["cell_unit"][0, :, 0] == k).sum() == 1
    assert S["unit_facing"][0, k] == E


def test_strength_ratings_never_fall_below_zero():
    """TD-3.10: modifiers may take a rating down, never below 0 (rules.yaml strength_min)."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Soldier", 4, 3, E)
    S["unit_strength"][0, k] = (0, -3, 1, -1)  # a rating already lowered past 0
    got = [int(combat.strength(S, tb, B0, I(k), I(s), I(combat.PROC_NONE))) for s in range(4)]
    assert got == [0, 0, 1, 0]
    assert tb.strength_min == 0


def test_phases_come_in_order_and_combat_hands_over_to_item_phase_two():
    """TD-7.3 / TD-10.7: an Engaged unit goes Item Phase -> Movement Phase -> Combat Phase ->
    Item Phase 2, each once, and is Disengaged after; only then is another unit Engaged."""
    tb = record()
    S = position(tb)
    k = unit(S, tb, 0, "Knight", 5, 5, E)
    ally = unit(S, tb, 0, "Soldier", 4, 5, E)  # a Trade partner: the Item Phases have choices
    unit(S, tb, 1, "Rogue", 5, 6, W)  # in contact (no "may" of its own to ask)
    unit(S, tb, 1, "Slime", 9, 12, W)  # the game goes on whatever the attack does
    items.equip(S, tb, B0, I(k), I(TABLES.item_index["Boots"]))
    engage(S, tb, k)
    assert S["stage"][0] == STAGE_ITEM and S["eng_item_phase"][0] == 1
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_MOVE
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_COMBAT
    act(S, tb, A_STRIKE + st.SIDE_FRONT)
    assert S["stage"][0] == STAGE_ITEM and S["eng_item_phase"][0] == 2  # TD-10.7
    assert S["engaged"][0] == k
    act(S, tb, A_END)
    assert S["stage"][0] == STAGE_ENGAGE and S["engaged"][0] == -1
    assert S["unit_engaged"][0, k] and not S["unit_engaged"][0, ally]


def test_record_keeps_every_unit_profile_field():
    """TD-22.1: the 202 units' profile fields reach the tables record the kernels read."""
    u = TABLES.units
    n = len(u.unit_names)
    assert n == 202 == TB.n_profiles
    for field, col in (
        ("u_strength", u.strength),
        ("u_class", u.unit_class),
        ("u_type", u.unit_type),
        ("u_mode", u.attack_mode),
        ("u_move", u.movement_rating),
        ("u_mtype", u.movement_type),
        ("u_range", u.range_rating),
        ("u_rmod", u.range_modifier),
        ("u_area", u.attack_area),
        ("u_special", u.special),
        ("u_cost", u.cost),
    ):
        assert np.array_equal(getattr(TB, field)[:n], col), field
    roots = [TABLES.family_root[int(TB.u_family[i])] for i in range(n)]
    assert all(TABLES.tree_family[r] == TB.u_family[i] for i, r in enumerate(roots))
