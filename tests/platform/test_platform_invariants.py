"""Whole-game invariants of every playable ruleset (ARCHITECTURE.md section 8), through the
contract: ``ruleset.fuzz(P, n, seed)`` plays n random games and checks ``check_state`` at every
decision (Ruleset.fuzz_games at the fewest players, 100,000 for most rulesets, thousands at
each larger count), and
``ruleset.check_state`` is shown to fail on states corrupted in the fields every ruleset's
state carries (seat to act, winner, rewards, scores). Corruptions that need a ruleset's own
fields are that ruleset's tests (TAC: tests/tac/test_invariants.py)."""

from __future__ import annotations

import numpy as np
import pytest
from _platform import CASES, EDGE_CASES, game_rng, pick

from envs import get_ruleset, make_env


def _games(name: str, num_players: int) -> int:
    rs = get_ruleset(name)
    return rs.fuzz_games if num_players == rs.min_players else min(5_000, rs.fuzz_games)


@pytest.mark.parametrize(("name", "num_players"), CASES)
def test_invariants_hold_at_every_decision_of_random_games(name: str, num_players: int) -> None:
    n = _games(name, num_players)
    broken, first, decisions = get_ruleset(name).fuzz(num_players, n, seed=2024)
    assert broken == {} and first is None, f"violations {broken}; first (game, decision) {first}"
    assert decisions > 20 * n  # every game was played to its end


def _states(name: str, num_players: int, seed: int = 77) -> tuple[list[np.ndarray], np.ndarray]:
    """Copies of the state at every decision of one random game, and its final state."""
    env = make_env(name, num_players=num_players).unwrapped
    env.reset(seed=seed)
    rng = game_rng(seed, 0)
    states = []
    while not env.terminations[env.agent_selection]:
        states.append(env.state())
        env.step(pick(env.observe(env.agent_selection)["action_mask"], rng))
    return states, env.state()


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_check_state_passes_real_states_and_fails_corrupted_ones(
    name: str, num_players: int
) -> None:
    rs = get_ruleset(name)
    states, final = _states(name, num_players)
    for S in states[:: max(1, len(states) // 25)] + [final]:
        assert rs.check_state(S, 0) == []
    corruptions = {
        "seat to act out of range": lambda S: S["current"].__setitem__(0, num_players),
        "seat to act negative": lambda S: S["current"].__setitem__(0, -1),
    }
    for what, corrupt in corruptions.items():
        for S in (states[0], states[len(states) // 2]):
            bad = S.copy()
            corrupt(bad)
            assert rs.check_state(bad, 0) != [], what


@pytest.mark.parametrize(("name", "num_players"), EDGE_CASES)
def test_check_state_checks_the_result_of_a_finished_game(name: str, num_players: int) -> None:
    rs = get_ruleset(name)
    score = rs.record.score_field
    for seed in (77, 78, 79):
        _, S = _states(name, num_players, seed)
        assert rs.check_state(S, 0) == []
        bad = S.copy()
        bad[score][0, 0] += 1
        assert rs.check_state(bad, 0) != [], "a score that does not follow the game"
        bad = S.copy()
        w = int(S["winner"][0])
        bad["winner"][0] = (w + 1) % num_players if w >= 0 else 0
        assert rs.check_state(bad, 0) != [], "a winner that does not follow the scores"
        bad = S.copy()
        r = bad["rewards"][0, :num_players]
        bad["rewards"][0, :num_players] = np.roll(r, 1) if len(set(r.tolist())) > 1 else r + 1
        assert rs.check_state(bad, 0) != [], "rewards that do not follow the winner"
