"""Tactical Assault self-play inside numba: each game played start to end by one thread (the
contract's play_chunk, envs/core/ruleset.py), for both rulesets.

Seat s of game g is played by agent position (s + g) % n_agents of the run's agent list (as
TACTICA's agents/tactica/selfplay.py), so with agents A, B each plays both seats equally often
over consecutive games. A game is reset from (seed, game index) alone, so it is the same game
at any batch size or thread count.
"""

from __future__ import annotations

import numpy as np

from agents.tactical_assault.baselines import choose_from_legal
from envs.core.jit import njit, njit_inline
from envs.core.ruleset import ChunkResults
from envs.core.threads import over_games
from envs.tactical_assault import kernels
from envs.tactical_assault.actions import N_ACTIONS, STAGE_GAME_OVER
from envs.tactical_assault.state import N_PLAYERS, N_UNIT_TYPES

# decisions after which a game is stopped as a runaway (a kernel bug: the turn limit ends
# every game far sooner); such a game is reported with length -1
MAX_DECISIONS = 100_000


@njit_inline
def play_one_game(S, tb, i, seed, g, agent_ids, seat_agent, buf):
    """Game g in slot i to the end; False if it was stopped as a runaway."""
    n_agents = agent_ids.shape[0]
    for s in range(N_PLAYERS):
        seat_agent[i, s] = (s + g) % n_agents
    n = kernels.start(S, tb, i, seed, g, buf)
    for _ in range(MAX_DECISIONS):
        if S["stage"][i] == STAGE_GAME_OVER:
            return True
        if n == 0:
            return False
        agent = np.int64(agent_ids[seat_agent[i, S["current"][i]]])
        a = choose_from_legal(S, tb, i, agent, buf, n)
        n = kernels.apply(S, tb, i, np.int64(a), buf)
    return False


@njit
def play_games(
    first,
    step,
    S,
    tba,
    seed,
    game_indices,
    agent_ids,
    seat_agent,
    out_winner,
    out_score,
    out_rewards,
    out_decisions,
    out_rounds,
    out_force,
):
    """Play games game_indices[i] in state slot i. Per game: winner seat (-1 a Draw), score,
    rewards, decisions (-1: stopped, a kernel bug), player turns and each seat's force."""
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    for i in range(first, game_indices.shape[0], step):
        ok = play_one_game(
            S, tba[0], np.int64(i), np.int64(seed), game_indices[i], agent_ids, seat_agent, buf
        )
        out_winner[i] = S["winner"][i]
        for s in range(N_PLAYERS):
            out_score[i, s] = S["score"][i, s]
            out_rewards[i, s] = S["rewards"][i, s]
            for t in range(N_UNIT_TYPES):
                out_force[i, s, t] = S["force"][i, s, t]
        out_decisions[i] = S["decisions"][i] if ok else -1
        out_rounds[i] = min(S["turn"][i], 127)


def play_chunk(
    S: np.ndarray, tba: np.ndarray, seed: int, game_indices: np.ndarray, agent_ids: np.ndarray
) -> ChunkResults:
    """Whole games game_indices in the first len(game_indices) slots of S. ChunkResults:
    score = match points, rounds = player turns begun, length = decisions, force = each
    seat's units by Table 3 type (RecordSpec.items)."""
    n = len(game_indices)
    if S.shape[0] < n:
        raise ValueError(f"state holds {S.shape[0]} games, fewer than the {n} asked")
    agent_ids = np.ascontiguousarray(agent_ids, dtype=np.int8)
    if agent_ids.ndim != 1 or len(agent_ids) == 0:
        raise ValueError(f"agent_ids must list at least one agent id, got {agent_ids!r}")
    res = ChunkResults.empty(n, N_PLAYERS, N_UNIT_TYPES)
    over_games(
        play_games,
        n,
        S[:n],
        tba,
        np.int64(seed),
        np.ascontiguousarray(game_indices, dtype=np.int64),
        agent_ids,
        res.seat_agent,
        res.winner,
        res.score,
        res.rewards,
        res.length,
        res.rounds,
        res.force,
    )
    return res
