"""The Tactical Assault design: state record, action layout, tables record, cache keys."""

from __future__ import annotations

import numpy as np
import pytest

from envs.core import jit
from envs.fantasy_cards.tables import load_tables
from envs.legendary_battles import geometry as geo
from envs.legendary_battles.tables import load_tables as load_lb
from envs.tactical_assault import actions, state, tables


def test_state_is_small_and_flat():
    assert state.bytes_per_game() <= 16 * 1024  # issue 7: state <= 16 KB per game
    S = state.allocate(3)
    assert S.shape == (3,) and S["deck"].shape == (3, 2, state.MAX_CARDS)
    assert (S["unit_side"] == -1).all() and (S["fr_card"] == -1).all()
    with pytest.raises(ValueError, match="num_envs"):
        state.allocate(0)


def test_action_blocks_are_disjoint_and_named():
    blocks = [
        (actions.A_ACTION, state.MAX_CARDS),
        (actions.A_SITUATION, state.MAX_CARDS),
        (actions.A_DISCARD, state.MAX_CARDS),
        (actions.A_UNIT, state.MAX_UNITS),
        (actions.A_POS, state.MAX_POS),
        (actions.A_FACING, state.MAX_DIRS),
        (actions.A_PASS, 1),
        (actions.A_EXIT, 1),
    ]
    seen = np.zeros(actions.N_ACTIONS, dtype=int)
    for base, n in blocks:
        seen[base : base + n] += 1
    assert (seen == 1).all()
    assert actions.describe(actions.A_SITUATION + 3) == "situation of card 3"
    assert actions.describe(actions.A_PASS) == "pass"
    # an index outside the layout is named as such (illegal-action errors describe it)
    n = actions.N_ACTIONS  # 546 since the tabletop's 256 positions
    assert actions.describe(n) == f"action {n} (outside 0..{n - 1})"
    assert actions.describe(-1) == f"action -1 (outside 0..{n - 1})"


def test_card_record_holds_the_fantasy_cards_tables():
    t = load_tables()
    tb = tables.as_tb(tables.card_record(t))
    assert tb.n_cards == 72 and tb.hand_size == 6
    assert (tb.card_result == t.card_result).all()
    assert (tb.card_action == t.card_action).all()
    n = len(t.play_names)
    assert (tb.play_on[:n] == t.play_on).all() and not tb.play_on[n:].any()
    assert (tb.step_kind[:n] == t.step_kind).all() and (tb.step_kind[n:] == -1).all()
    assert tb.type_points[t.unit_type_index["SORCEROUS"]] == 6
    # Table 4 and Table 5 shifts by condition (data, not code)
    assert list(tb.rmod_shift) == [1, -1, -1, 1, -1, -1, -1]
    assert list(tb.mmod_shift) == [1, -1, 1, 1, -1]


def test_zone_ground_matches_the_legendary_battles_geometry(crossroads):
    sa = load_lb().scenarios["Crossroads of Hallin"]
    g = sa.grid
    n = g.n_zones
    assert crossroads.g_n_pos == n and crossroads.g_n_dirs == 4
    assert (crossroads.g_dist[:n, :n] == geo.distance_matrix(g)).all()
    assert list(crossroads.g_dist_units) == list(sa.distances)
    assert (crossroads.g_entry_cost[:n, :4] == sa.entry_cost).all()
    z, t = g.zone(4, 4), g.zone(4, 7)
    route = [r[0] for r in geo.fall_back_route(g, z, t)]
    assert route == [g.zone(4, 8), g.zone(4, 9)]  # straight on, to the map edge
    assert list(crossroads.g_fb_route[z, t, :3, 0]) == [*route, -1]
    assert crossroads.g_arc[z, 2, g.zone(4, 6)] and not crossroads.g_arc[z, 2, g.zone(4, 2)]


def test_crossroads_forces_and_rules(crossroads):
    sa = load_lb().scenarios["Crossroads of Hallin"]
    label = {lbl: i for i, lbl in enumerate(sa.unit_label)}
    assert crossroads.sc_n_units == 15
    assert crossroads.sc_unit_arrives[label["K"]] == 4  # The Lord's Riders, turn 4
    assert crossroads.sc_first_turn == 1  # Surprise Attack
    assert crossroads.vc_hold_side == 1 and crossroads.vc_hold.sum() == 4
    assert crossroads.vc_at_limit == tables.AT_LIMIT_HOLD_ZONES


def test_unsupported_scenarios_say_what_is_missing(tmp_path):
    """An oversized unit placed by its player is not playable yet (LB R28); the shipped
    oversized units (Siege of the Ridge Fort) are placed by the scenario and play."""
    from ta_helpers import compile_doc, scenario_doc

    from envs.legendary_battles.zones import scenario_record

    sa = load_lb().scenarios["Siege of the Ridge Fort"]
    rec = scenario_record(sa)
    assert sorted(rec["sc_fp_n"][0][rec["sc_fp_n"][0] > 0].tolist()) == [1, 2]
    doc = scenario_doc(
        [". . .", ". . .", ". . ."],
        units0=[{"type": "MONSTROUS", "label": "d", "footprint": ["E"]}],
        units1=[{"type": "INFANTRY", "label": "i", "zone": [0, 2], "facing": "N"}],
    )
    with pytest.raises(ValueError, match="Test Map.*oversized unit deployed by its player.*'d'"):
        scenario_record(compile_doc(doc, tmp_path))


def test_greywater_record_holds_forces_by_points_and_the_exit(greywater):
    assert greywater.sc_n_units == 0  # every unit is chosen by the players
    assert greywater.sc_force_points.tolist() == [30, 24]
    assert greywater.sc_allowed[0].sum() == 20 and greywater.sc_allowed[1].sum() == 12
    assert (greywater.vc_exit_side, greywater.vc_exit_count) == (0, 3)
    assert greywater.vc_exit.sum() == 8  # column 11 of 9 rows, cut zones in; (11, 8) no zone


def test_ruleset_cache_keys_hash_the_core_they_call():
    """jit.DEPENDS_ON: editing envs/tactical_assault must change the cache of the rulesets
    whose kernels call it, and of no other."""
    for key in ("fantasy_cards", "legendary_battles"):
        assert "tactical_assault" in jit.source_keys(key)
        srcs = {p.relative_to(jit._ROOT).as_posix() for p in jit._sources(key)}
        assert "envs/tactical_assault/turn.py" in srcs
    srcs = {p.relative_to(jit._ROOT).as_posix() for p in jit._sources("tactica")}
    assert not any(s.startswith("envs/tactical_assault/") for s in srcs)
    assert jit.source_keys("core") == ()


def test_both_rulesets_share_one_cache_of_core_kernels():
    """Every contract kernel and agent is defined in the core's packages, so both rulesets
    load the same cache folder (one compile serves both); that key hashes the Fantasy Cards
    tables module whose constants the core's machine code holds."""
    for module in (
        "envs.tactical_assault.kernels",
        "envs.tactical_assault.observe",
        "agents.tactical_assault.selfplay",
        "agents.tactical_assault.heuristic",
    ):
        assert jit.key_of_module(module) == "tactical_assault"
    srcs = {p.relative_to(jit._ROOT).as_posix() for p in jit._sources("tactical_assault")}
    assert "envs/fantasy_cards/tables.py" in srcs
    assert "agents/tactical_assault/heuristic.py" in srcs


@pytest.mark.parametrize("name", ["fantasy_cards", "legendary_battles"])
def test_rules_docs_name_core_kernels_and_tests_that_exist(name):
    """doccheck resolves `tactical_assault.<module>.<fn>` in envs/tactical_assault and
    `tactical_assault/<file>::<test>` in tests/tactical_assault (DocConventions.shared)."""
    from envs.core import doccheck as dc

    sub = dc.subject(name)
    text = sub.doc.read_text(encoding="utf-8")
    assert dc.problems(text, sub) == []
    kernel = "tactical_assault.combat.resolve_attack"
    test = "tactical_assault/test_ta_combat.py::test_results_statuses_and_elimination"
    assert kernel in text or "tactical_assault.combat.fall_back_step" in text
    broken = text.replace("tactical_assault.combat.", "tactical_assault.combat.no_such_", 1)
    assert any("does not exist in envs.tactical_assault" in p for p in dc.problems(broken, sub))
    if test in text:
        broken = text.replace(test, test + "_gone", 1)
        assert any(
            "test_results_statuses_and_elimination_gone" in p for p in dc.problems(broken, sub)
        )
