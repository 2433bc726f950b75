"""Tactics David self-play inside numba: each game played start to end by one thread (the
contract's play_chunk, envs/core/ruleset.py).

Seat s of game g is played by agent position (s + g) % n_agents of the run's agent list (as
TAC's and TACTICA's), so with agents A, B each plays both seats equally often over
consecutive games. A game is reset from (seed, game index) alone (kernels.start), so it is the
same game at any batch size or thread count.
"""

from __future__ import annotations

import numpy as np

from agents.tactics_david.baselines import choose_from_legal
from envs.core.jit import njit
from envs.core.ruleset import ChunkResults
from envs.core.threads import over_games
from envs.tactics_david import kernels
from envs.tactics_david.actions import MAX_LEGAL, STAGE_GAME_OVER
from envs.tactics_david.state import N_PLAYERS

# decisions after which a game is stopped as a runaway (a kernel bug: the safety cap of
# 10,000 Turns, I13, ends every game sooner); such a game is reported with length -1
MAX_DECISIONS = 5_000_000
ROUNDS_CAP = 127  # the record's round counter (Turns) is clipped to an int8


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
    out_turns,
    out_army,
):
    """Play games game_indices[i] in state slot i. Per game: winner seat (-1 drawn), scores,
    rewards, decisions (-1: stopped, a kernel bug), Turns (clipped) and each seat's army."""
    U = out_army.shape[2]
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    tb = tba[0]
    n_agents = agent_ids.shape[0]
    for i in range(first, game_indices.shape[0], step):
        # game g in slot i to the end; ok is False if it was stopped as a runaway
        g = game_indices[i]
        for s in range(N_PLAYERS):
            seat_agent[i, s] = (s + g) % n_agents
        n = kernels.start(S, tb, np.int64(i), np.int64(seed), g, buf)
        ok = False
        for _ in range(MAX_DECISIONS):
            if S["stage"][i] == STAGE_GAME_OVER:
                ok = True
                break
            if n == 0:
                break
            agent = np.int64(agent_ids[seat_agent[i, S["current"][i]]])
            a = choose_from_legal(S, tb, np.int64(i), agent, buf, n)
            n = kernels.apply(S, tb, np.int64(i), np.int64(a), buf)
        out_winner[i] = S["winner"][i]
        for s in range(N_PLAYERS):
            out_score[i, s] = S["score"][i, s]
            out_rewards[i, s] = S["rewards"][i, s]
            for u in range(U):
                out_army[i, s, u] = S["army_bought"][i, s, u]
        out_decisions[i] = S["decisions"][i] if ok else -1
        out_turns[i] = min(S["turn"][i], ROUNDS_CAP)


def play_chunk(
    S: np.ndarray, tba: np.ndarray, seed: int, game_indices: np.ndarray, agent_ids: np.ndarray
) -> ChunkResults:
    """Whole games game_indices in the first len(game_indices) slots of S. ChunkResults:
    score = Purchase Cost of each seat's units in play at the end, rounds = Turns (clipped to
    127), length = decisions, force = each seat's army (units bought of each units.yaml row,
    then the Items bought of each items.yaml row: RecordSpec.items)."""
    n = len(game_indices)
    if S.shape[0] < n:
        raise ValueError(f"state holds {S.shape[0]} games, fewer than the {n} asked")
    agent_ids = np.ascontiguousarray(agent_ids, dtype=np.int8)
    if agent_ids.ndim != 1 or len(agent_ids) == 0:
        raise ValueError(f"agent_ids must list at least one agent id, got {agent_ids!r}")
    res = ChunkResults.empty(n, N_PLAYERS, int(tba[0]["n_profiles"]) + int(tba[0]["n_items"]))
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
