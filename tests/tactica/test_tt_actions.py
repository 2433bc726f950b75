"""TACTICA's flat action space and stage table (envs/tactica/actions.py)."""

from __future__ import annotations

from envs.tactica import actions as A
from envs.tactica import state
from envs.tactica.tables import load_tables


def test_action_blocks_follow_each_other_and_fit_the_tables():
    t = load_tables()
    assert A.A_CARD - A.A_HEX == state.MAX_HEXES
    assert A.N_CARD_NAMES == len(t.card_names)
    assert A.N_DECREES == len(t.decree_names)
    assert A.N_SACRIFICES == len(t.sacrifice_names)
    blocks = [A.A_HEX, A.A_CARD, A.A_PILE, A.A_SIDE, A.A_DECREE, A.A_SACRIFICE, A.A_PASS]
    assert blocks == sorted(blocks) and A.N_ACTIONS == A.A_SURRENDER + 1


def test_every_action_has_a_description_and_others_are_named_outside():
    names = [A.describe(a) for a in range(A.N_ACTIONS)]
    assert names[A.A_CARD + 11] == "card Crown" and names[A.A_PASS] == "pass"
    assert len(set(names)) == A.N_ACTIONS
    for bad in (-1, A.N_ACTIONS):  # an illegal action's error message names it (no raise)
        assert A.describe(bad) == f"action {bad} (outside 0..{A.N_ACTIONS - 1})"


def test_stage_numbers_are_unique_and_named():
    stages = {k: v for k, v in vars(A).items() if k.startswith("STAGE_") and isinstance(v, int)}
    assert len(set(stages.values())) == len(stages)
    # two chapters number a stage of their own (the muster Negate window, the sacrifice pair)
    from envs.tactica.muster import STAGE_MUSTER_NEGATE
    from envs.tactica.sacrifice import STAGE_SACRIFICE_PAIR

    chapters = {STAGE_MUSTER_NEGATE, STAGE_SACRIFICE_PAIR}
    assert not chapters & set(stages.values())
    assert set(stages.values()) | chapters == set(A.STAGE_NAMES)
    fixed = {state.STAGE_SETUP, state.STAGE_GAME_OVER, state.STAGE_PHASE_DONE}
    assert not fixed & set(stages.values())
