"""TACTICA's flat action space and stage table (envs/tactica/actions.py)."""

from __future__ import annotations

import pytest

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


def test_every_action_has_a_description_and_others_are_refused():
    names = [A.describe(a) for a in range(A.N_ACTIONS)]
    assert names[A.A_CARD + 11] == "card Crown" and names[A.A_PASS] == "pass"
    assert len(set(names)) == A.N_ACTIONS
    for bad in (-1, A.N_ACTIONS):
        with pytest.raises(ValueError, match="outside"):
            A.describe(bad)


def test_stage_numbers_are_unique_and_named():
    stages = {k: v for k, v in vars(A).items() if k.startswith("STAGE_") and isinstance(v, int)}
    assert len(set(stages.values())) == len(stages)
    assert set(stages.values()) == set(A.STAGE_NAMES)
    fixed = {state.STAGE_SETUP, state.STAGE_GAME_OVER, state.STAGE_PHASE_DONE}
    assert not fixed & set(stages.values())
