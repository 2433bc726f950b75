"""Tactics David tables: counts and seed facts (Rule Book, Unit and Item Book, Battlefield Book)."""

from __future__ import annotations

import numpy as np

from envs.tactics_david import tables as td
from envs.tactics_david.tables import Tables

# Rule Book, "Status Affects", in the seed's order (Reading R1: the seed lists 20).
SEED_STATUSES = (
    "Paralyzed Blinded Poisoned Burned Frozen Fearful Crippled Pumped Silenced Enchanted "
    "Banished Summoned Dead Haste Lucky Enraged Feared Petrified Reflective Confused"
).split()


def test_counts_specials_items_statuses(tables: Tables) -> None:
    assert len(tables.special_names) == 3
    assert len(tables.item_names) == 23
    assert tables.status_names == tuple(SEED_STATUSES)


def test_specials_are_the_special_list(tables: Tables) -> None:
    assert tables.special_names == ("Swarm", "Relentless", "Hulking")
    relentless = tables.special_statuses[tables.special_index["Relentless"]]
    for s in ("Dead", "Paralyzed", "Frozen"):
        assert relentless >> tables.status_index[s] & 1


def test_status_aliases_name_the_same_status(tables: Tables) -> None:
    # Reading R2: "Fear Status" and "Posioned" are the seed's other spellings.
    assert tables.status_index["Fear"] == tables.status_index["Fearful"]
    assert tables.status_index["Posioned"] == tables.status_index["Poisoned"]


def test_type_only_statuses_afflict_only_that_type(tables: Tables) -> None:
    # "Only Physical/Magical/Ethereal Units may be afflicted"; "Ethereal Units are immune".
    expect = {
        "Crippled": [True, False, False],
        "Pumped": [True, False, False],
        "Silenced": [False, True, False],
        "Enchanted": [False, True, False],
        "Banished": [False, False, True],
        "Summoned": [False, False, True],
        "Poisoned": [True, True, False],
        "Burned": [True, True, False],
        "Lucky": [True, True, False],
        "Petrified": [True, True, False],
        "Dead": [True, True, True],
    }
    for name, mask in expect.items():
        assert tables.status_afflicts[tables.status_index[name]].tolist() == mask, name


def test_fearful_and_enraged_cancel_each_other(tables: Tables) -> None:
    f, e = tables.status_index["Fearful"], tables.status_index["Enraged"]
    assert tables.status_cancels[f, e] and tables.status_cancels[e, f]
    assert tables.status_cancels.sum() == 2


def test_paralyzed_fires_on_one_or_two(tables: Tables) -> None:
    s = tables.status_index["Paralyzed"]
    row = tables.status_effect_offset[s]
    assert td.STATUS_TRIGGERS[tables.status_eff_trigger[row]] == "on_engagement"
    assert tables.status_eff_results[row] == (1 << 1) | (1 << 2)  # "1 D6 Roll < 3"


def test_item_types_users_and_costs(tables: Tables) -> None:
    i = tables.item_index
    assert td.ITEM_TYPES[tables.item_type[i["Potion"]]] == "Expendable"
    assert td.ITEM_TYPES[tables.item_type[i["Shield"]]] == "Accessory"
    assert td.ITEM_TYPES[tables.item_type[i["Rod of Hailfire"]]] == "Weapon"
    # "Mega Potion ... M, H" and "Elixir ... M, H": no Light users.
    assert tables.item_users[i["Mega Potion"]].tolist() == [False, True, True]
    assert tables.item_users[i["Elixir"]].tolist() == [False, True, True]
    rod = i["Rod of Hailfire"]
    assert td.UNIT_TYPES[tables.item_user_unit_type[rod]] == "Magical"
    assert td.ATTACK_MODES[tables.item_user_attack_mode[rod]] == "Ranged"
    # "Purchase Cost" column of the Item List, items 001-023.
    seed_costs = [3, 5, 7, 5, 4, 7, 4, 3, 3, 3, 8, 5, 8, 3, 3, 3, 4, 5, 5, 6, 6, 5, 8]
    assert tables.item_cost.tolist() == seed_costs


def test_potions_never_remove_dead_or_petrified(tables: Tables) -> None:
    dead_petrified = (1 << tables.status_index["Dead"]) | (1 << tables.status_index["Petrified"])
    for name in ("Potion", "Super Potion", "Mega Potion", "Elixir"):
        row = tables.item_effect_offset[tables.item_index[name]]
        assert tables.item_eff_except_statuses[row] == dead_petrified, name
    elixir = tables.item_effect_offset[tables.item_index["Elixir"]]
    assert tables.item_eff_amount[elixir] == td.AMOUNT_ALL


def test_weapons_set_their_seed_attack_area(tables: Tables) -> None:
    expect = {"Sword": "MA", "Axe": "MD", "Spear": "MB", "War Hammer": "MA", "Flail": "MC"}
    expect["Rod of Hailfire"] = "RH"
    for name, code in expect.items():
        it = tables.item_index[name]
        rows = range(tables.item_effect_offset[it], tables.item_effect_offset[it + 1])
        areas = [
            tables.item_eff_attack_area[r] for r in rows if tables.item_eff_attack_area[r] >= 0
        ]
        assert [tables.area_names[a] for a in areas] == [code], name


def test_terrain_types_and_their_modifiers(tables: Tables) -> None:
    t = tables.terrain_index
    assert tables.terrain_names == ("Field", "Water", "Road", "Forest")
    assert tables.terrain_movement_modifier[t["Road"]] == 1
    assert tables.terrain_movement_modifier[t["Forest"]] == -1
    assert tables.terrain_range_modifier[t["Water"]] == -1
    assert tables.terrain_defend_base_sides[t["Road"]] == 4
    assert tables.terrain_defend_extra_sides[[t["Water"], t["Forest"]]].tolist() == [3, 3]
    # Water is Slow except for Hover and Aqua units.
    assert tables.terrain_slow_exempt[t["Water"]].tolist() == [False, True, False, True]
    assert tables.terrain_soar_dead_results[t["Water"]] == 0b110


def test_terrain_piece_heights(tables: Tables) -> None:
    h = dict(zip(tables.piece_names, tables.piece_height.tolist(), strict=True))
    assert len(h) == 12
    assert {k for k, v in h.items() if v == 1} == {"Fence", "Bush"}
    assert h["Bridge"] == 0
    assert tables.piece_side_height[tables.piece_index["Bridge"]] == 1
    assert tables.terrain_names[tables.piece_terrain[tables.piece_index["Bridge"]]] == "Road"
    assert all(v == 2 for k, v in h.items() if k not in ("Fence", "Bush", "Bridge"))


def test_movement_types_pass_over_heights(tables: Tables) -> None:
    assert tables.movement_pass_over_height.tolist() == [0, 1, 2, 0]
    assert tables.movement_may_charge.tolist() == [True, False, True, True]
    assert tables.movement_off_water_modifier.tolist() == [0, 0, 0, -1]


def test_unit_type_matchup_table(tables: Tables) -> None:
    m = [[td.MATCHUPS[v] for v in row] for row in tables.matchup.tolist()]
    assert m[0] == ["normal", "defender_replaces_die_with_d3", "defender_cannot_die"]
    assert m[1] == ["defender_adds_d3", "normal", "defender_replaces_die_with_d3"]
    assert m[2] == ["defender_replaces_die_with_d3", "normal", "normal"]
    assert [td.ATTACK_SIDES[s] for s in tables.unit_type_attack_side] == ["front", "any", "front"]


def test_eleven_root_families_and_every_unit_in_one_tree(tables: Tables) -> None:
    assert len(tables.family_names) == 11
    assert len(tables.tree_names) == 202
    roots = [tables.tree_names[r] for r in tables.family_root]
    assert roots == list(tables.family_names)
    assert all(tables.tree_parent[r] == -1 for r in tables.family_root)
    assert (tables.tree_parent == -1).sum() == 11


def test_tree_children_never_lighter_than_parents(tables: Tables) -> None:
    u = tables.units
    for i, p in enumerate(tables.tree_parent.tolist()):
        if p >= 0:
            child = u.unit_class[u.unit_index[tables.tree_names[i]]]
            parent = u.unit_class[u.unit_index[tables.tree_names[p]]]
            assert child >= parent, tables.tree_names[i]


def test_units_named_in_root_abilities_sit_in_their_roots(tables: Tables) -> None:
    fam = {n: tables.family_names[tables.tree_family[i]] for i, n in enumerate(tables.tree_names)}
    # Nature Shape (Hound/Wolf/Bear), Hatch (Baby Dragon), Dragon Might (Egg root dragons).
    assert fam["Hound"] == "Pup" and fam["Bear"] == "Pup"
    assert fam["Baby Dragon"] == "Egg" and fam["Doom Dragon"] == "Egg"
    assert fam["Spider Queen"] == "Bitty Bug" and fam["Skeleton"] == "Zombie"


def test_lineage_is_symmetric_and_zero_on_diagonal(tables: Tables) -> None:
    lin = tables.lineage
    assert (lin == lin.T).all()
    assert (np.diag(lin) == 0).all()
    same = tables.tree_family[:, None] == tables.tree_family[None, :]
    assert ((lin >= 0) == same).all()


def test_two_battlefields_on_seed_sizes(tables: Tables) -> None:
    assert tables.battlefield_names == ("Bramble Creek Crossing", "Death's Highway")
    seed_sizes = {(7, 11), (14, 11), (14, 22)}
    for bf in tables.battlefields:
        rows, cols = bf.terrain.shape
        assert (cols, rows) in seed_sizes or (rows, cols) in seed_sizes, bf.name
        assert bf.piece.shape == bf.height.shape == bf.deployment.shape == bf.terrain.shape


def test_battlefield_deployment_zones_are_opposite_and_free(tables: Tables) -> None:
    for bf in tables.battlefields:
        zones = [np.argwhere(bf.deployment == p) for p in (0, 1)]
        assert all(len(z) > 0 for z in zones)
        c0, c1 = zones[0].mean(axis=0), zones[1].mean(axis=0)
        centre = (np.array(bf.terrain.shape) - 1) / 2
        assert np.allclose(c0 + c1, 2 * centre), bf.name  # mirror images through the centre
        for z in zones:
            free = sum(bf.piece[r, c] < 0 for r, c in z)
            assert free >= 12, bf.name  # room for an army of a 50-100 purchase limit


def test_bridges_cross_water_and_heights_follow_pieces(tables: Tables) -> None:
    bridge = tables.piece_index["Bridge"]
    water = tables.terrain_index["Water"]
    for bf in tables.battlefields:
        at = bf.piece == bridge
        assert at.any() and (bf.terrain[at] == water).all(), bf.name
        with_piece = bf.piece >= 0
        assert (bf.height[with_piece] == tables.piece_height[bf.piece[with_piece]]).all()
        assert (bf.height[~with_piece] == 0).all()


def test_tables_arrays_are_read_only(tables: Tables) -> None:
    for name, value in vars(tables).items():
        if isinstance(value, np.ndarray):
            assert not value.flags.writeable, name
    assert not tables.battlefields[0].terrain.flags.writeable
