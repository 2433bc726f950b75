"""Hand-built Tactical Assault games for the tests: a tables record from a small scenario
document (tests/legendary_battles/lb_helpers.py builds the scenario), a state placed by hand."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "legendary_battles"))
from lb_helpers import compile_doc, scenario_doc  # noqa: E402

from envs.fantasy_cards.tables import load_tables as load_fc  # noqa: E402
from envs.legendary_battles.zones import scenario_record  # noqa: E402
from envs.tactical_assault import actions, flow, state, tables, turn  # noqa: E402

FC = load_fc()
TYPE = FC.unit_type_index
PLAY = FC.play_index


def record(rows: list[str], tmp_path: Path, units0=None, units1=None, **kw: Any) -> np.record:
    """The tables record (as `tb`) of a scenario over `rows` with fixed forces."""
    doc = scenario_doc(rows, units0=units0, units1=units1, **kw)
    sa = compile_doc(doc, tmp_path)
    return tables.as_tb(scenario_record(sa, FC))


def card_with(action: str | None = None, situation: str | None = None, result: str | None = None):
    """The id of a deck card with the given Action / Situation / Combat Result."""
    for k in range(len(FC.card_names)):
        if action and FC.play_names[FC.card_action[k]] != action:
            continue
        if situation and FC.play_names[FC.card_situation[k]] != situation:
            continue
        if result and FC.result_names[FC.card_result[k]] != result:
            continue
        return k
    raise LookupError((action, situation, result))


def started(tb, seed: int = 1) -> np.ndarray:
    """A game reset and played (first legal action each time) to the first main decision."""
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, seed, 0)
    out = np.zeros(actions.N_ACTIONS, dtype=np.int64)
    for _ in range(200):
        if S["stage"][0] == actions.STAGE_MAIN:
            return S
        n = turn.legal_actions(S, tb, 0, out)
        a = int(out[n - 1]) if out[n - 1] == actions.A_PASS else int(out[0])
        turn.apply_action(S, tb, 0, a)
    raise AssertionError("no main decision reached")


def legal(S, tb) -> list[int]:
    out = np.zeros(actions.N_ACTIONS, dtype=np.int64)
    n = turn.legal_actions(S, tb, 0, out)
    return [int(x) for x in out[:n]]


def hand(S, p: int, cards: list[int]) -> None:
    """Give seat p exactly `cards` in hand (the rest back on the deck, order kept)."""
    for k in np.flatnonzero(S["card_place"][0, p] == state.PLACE_HAND):
        S["card_place"][0, p, k] = state.PLACE_DECK
    for k in cards:
        S["card_place"][0, p, k] = state.PLACE_HAND
    deck = [k for k in range(72) if S["card_place"][0, p, k] == state.PLACE_DECK]
    S["deck"][0, p] = -1
    S["deck"][0, p, : len(deck)] = deck
    S["deck_count"][0, p] = len(deck)


def stack_top(S, p: int, cards: list[int]) -> None:
    """Put `cards` on top of p's deck, the last one on top (flipped first)."""
    deck = [k for k in S["deck"][0, p, : S["deck_count"][0, p]] if k not in cards]
    for k in cards:
        S["card_place"][0, p, k] = state.PLACE_DECK
    deck = deck + list(cards)
    S["deck"][0, p] = -1
    S["deck"][0, p, : len(deck)] = deck
    S["deck_count"][0, p] = len(deck)
