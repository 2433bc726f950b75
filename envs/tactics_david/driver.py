"""A plain-Python random-game driver over the one-game kernels (kernels.start/legal/apply),
with the invariant check after every decision: the test bed of the engine until the contract's
batch kernels and the numba fuzzer exist (next part).

    from envs.tactics_david.driver import play_random_games
    play_random_games(record, games=10, seed=0)  # -> list of GameResult
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from envs.tactics_david import kernels as K
from envs.tactics_david import state as st
from envs.tactics_david.actions import A_END, A_UNIT, MAX_LEGAL, STAGE_ENGAGE, STAGE_GAME_OVER
from envs.tactics_david.invariants import violations


@dataclass(frozen=True)
class GameResult:
    winner: int  # seat, -1 drawn
    turns: int
    decisions: int
    kills: int  # units with the Dead Status at the end
    actions: tuple[int, ...]  # every action taken, in order


class InvariantError(AssertionError):
    """A state broke an invariant (the message names the game, decision and invariant)."""


def play_random_games(tb, games: int, seed: int, check: bool = True) -> list[GameResult]:
    """Play `games` games with uniformly random legal actions (agent RNG: numpy, from `seed`);
    with check=True every state is checked (invariants.violations), and so is the Engagement
    rule that no unit is Engaged twice in a Turn (TD-7.2). Raises InvariantError."""
    if games < 0:
        raise ValueError(f"games {games} is negative")
    rng = np.random.default_rng(seed)
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.int64(0)
    results = []
    for g in range(games):
        n = K.start(S, tb, b, np.int64(seed), np.int64(g), out)
        taken: list[int] = []
        engaged: set[tuple[int, int]] = set()
        while n > 0:
            a = int(out[rng.integers(n)])
            if check and S["stage"][0] == STAGE_ENGAGE and a != A_END:
                u = int(S["current"][0]) * st.MAX_UNITS + a - A_UNIT
                if a < A_UNIT:  # a Possessed unit, named by its space (R137)
                    u = int(S["cell_unit"][0, a, 0])
                key = (int(S["turn"][0]), u)
                if key in engaged:
                    raise InvariantError(f"game {g}: unit {key[1]} Engaged twice in Turn {key[0]}")
                engaged.add(key)
            taken.append(a)
            n = K.apply(S, tb, b, np.int64(a), out)
            if check:
                bad = violations(S, tb, 0)
                if bad:
                    raise InvariantError(f"game {g}, decision {len(taken)}: {bad}")
        if S["stage"][0] != STAGE_GAME_OVER:
            raise InvariantError(f"game {g}: no legal action but not over")
        dead = int((S["unit_status"][0, :, tb.status_dead] != 0).sum())
        results.append(
            GameResult(
                winner=int(S["winner"][0]),
                turns=int(S["turn"][0]),
                decisions=int(S["decisions"][0]),
                kills=dead,
                actions=tuple(taken),
            )
        )
    return results


def compile_kernels() -> None:
    """Compile start, legal and apply by calling each once (one random game's first steps):
    what the engine's cold compile covers until the ruleset is registered. Profile it with
    ``python -m benchmarks.compile_profile --run envs.tactics_david.driver:compile_kernels``."""
    from envs.tactics_david.record import build_record
    from envs.tactics_david.tables import load_tables

    tb = build_record(load_tables())
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.int64(0)
    n = K.start(S, tb, b, np.int64(0), np.int64(0), out)
    K.legal(S, tb, b, out)
    K.apply(S, tb, b, np.int64(out[n - 1]), out)
