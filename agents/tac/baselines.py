"""TAC's in-kernel agents, the same logic from numba (self-play) and from Python (AEC env).

Agent ids used inside kernels: AGENT_RANDOM, AGENT_HEURISTIC and the information-set search
agents (agents/tac/mcts.py), one id per simulation budget: `mcts` (200 simulations per
decision), `mcts50` and `mcts800`. `AGENTS` maps CLI names to ids. These are the contract's
act_one, act_batch and opponents_batch (envs/core/ruleset.py).
"""

from __future__ import annotations

import numpy as np
from numba import prange

from agents.tac.heuristic import heuristic_action, heuristic_from_legal
from agents.tac.mcts import mcts_action
from envs.core.jit import njit, njit_parallel
from envs.core.rng import randint
from envs.tac.actions import N_ACTIONS
from envs.tac.kernels import CHUNK, report_if_over, step_one
from envs.tac.state import STAGE_GAME_OVER
from envs.tac.turn import random_from_legal, random_legal_action

AGENT_RANDOM = 0
AGENT_HEURISTIC = 1
AGENT_MCTS = 2  # ids AGENT_MCTS + i search with MCTS_SIMS[i] simulations per decision
MCTS_SIMS = np.array([200, 50, 800], dtype=np.int64)
AGENTS = {
    "random": AGENT_RANDOM,
    "heuristic": AGENT_HEURISTIC,
    "mcts": AGENT_MCTS,
    "mcts50": AGENT_MCTS + 1,
    "mcts800": AGENT_MCTS + 2,
}


@njit
def choose_action(S, tb, b, agent, buf):
    """Action of a fast agent (random, heuristic) for the current decision of game b. The
    batch kernels (act_batch, opponents_batch) call only this: the search agents are left out
    of their compiled code, which keeps the BatchEnv path's cold compile within budget; the
    Python side refuses search agents there (agents/kernel_agents.py)."""
    if agent == AGENT_HEURISTIC:
        return heuristic_action(S, tb, b, buf)
    return random_legal_action(S, tb, b, buf)


@njit
def choose_any_action(S, tb, b, agent, buf):
    """Action of any agent id, the search agents included (act_one: AEC env, play, replay)."""
    if agent >= AGENT_MCTS:
        return mcts_action(S, tb, b, MCTS_SIMS[agent - AGENT_MCTS], buf)
    return choose_action(S, tb, b, agent, buf)


@njit
def choose_from_legal(S, tb, b, agent, buf, n):
    """As choose_action, when buf already holds the n legal actions."""
    if agent == AGENT_HEURISTIC:
        return heuristic_from_legal(S, tb, b, buf, n)
    if agent >= AGENT_MCTS:
        return mcts_action(S, tb, b, MCTS_SIMS[agent - AGENT_MCTS], buf)
    return random_from_legal(S, b, buf, n)


@njit
def random_from_mask(S, b, mask_row):
    """Uniform among the legal actions of a mask row, drawn from game b's agent RNG: the
    k-th set entry for k uniform in [0, count). Reads the mask the env already holds instead
    of listing the legal actions again."""
    count = 0
    for a in range(mask_row.shape[0]):
        count += mask_row[a]
    k = randint(S["agent_rng"], b, count)
    for a in range(mask_row.shape[0]):
        if mask_row[a]:
            if k == 0:
                return a
            k -= 1
    return -1


@njit
def _act_in_slots(S, tba, masks, first, last, seat_agents, out):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    tb = tba[0]
    for b in range(first, last):
        if S["stage"][b] != STAGE_GAME_OVER:
            agent = seat_agents[S["current"][b]]
            if agent == AGENT_RANDOM:
                out[b] = random_from_mask(S, b, masks[b])
            else:
                out[b] = choose_action(S, tb, b, agent, buf)


@njit_parallel
def batch_actions(S, tba, masks, seat_agents, out):
    """The action of every game's current player, seat s played by agent seat_agents[s]
    (draws from each game's own agent RNG, so results do not depend on the batch). The
    random agent picks from the env's masks; its choices follow mask order, so they differ
    from the in-kernel self-play random agent's (both uniform over the legal actions)."""
    B = S.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)
        _act_in_slots(S, tba, masks, c * CHUNK, min(B, (c + 1) * CHUNK), seat_agents, out)


@njit
def act_one(S, tba, b, agent):
    """Action of agent id `agent` for the current decision of game b (the contract's
    act_one: the AEC env, play and replay call it on a batch of one)."""
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    return choose_any_action(S, tba[0], np.int64(b), agent, buf)


@njit
def _opponents_in_slots(
    S, tba, masks, first, last, learner, seat_agents, rewards, terminated, final_vp, final_len
):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    tb = tba[0]
    for b in range(first, last):
        if S["stage"][b] == STAGE_GAME_OVER or S["current"][b] == learner:
            continue
        while S["stage"][b] != STAGE_GAME_OVER and S["current"][b] != learner:
            a = choose_action(S, tb, b, seat_agents[S["current"][b]], buf)
            step_one(S, tba, b, np.int64(a), masks[b], buf)
        report_if_over(S, b, rewards, terminated, final_vp, final_len)


@njit_parallel
def opponents_batch(S, tba, masks, learner, seat_agents, rewards, terminated, final_vp, final_len):
    """Play every seat but `learner` in every game until the learner is to decide or the
    game ends (batched training: the opponents act inside the kernel). Games that end here
    get terminated, rewards, final score and length set; other games' entries are left as
    they are."""
    B = S.shape[0]
    for ci in prange((B + CHUNK - 1) // CHUNK):
        c = np.int64(ci)
        _opponents_in_slots(
            S,
            tba,
            masks,
            c * CHUNK,
            min(B, (c + 1) * CHUNK),
            learner,
            seat_agents,
            rewards,
            terminated,
            final_vp,
            final_len,
        )
