"""TACTICA's in-kernel agents (ids used inside kernels): AGENT_RANDOM (uniform over the
legal actions, surrender included), AGENT_RANDOM_FIGHTER (the same, never surrendering) and
AGENT_HEURISTIC (agents/tactica/heuristic.py). All draw from the game's own agent RNG
S["agent_rng"], so a war does not depend on the batch. `AGENTS` maps CLI names to ids, as
agents/tac/baselines.py does for TAC. These are the contract's act_one, act_batch and
opponents_batch (envs/core/ruleset.py)."""

from __future__ import annotations

import numpy as np

from agents.tactica.heuristic import heuristic_from_legal
from envs.core.jit import njit
from envs.core.rng import randint
from envs.core.threads import over_games
from envs.tactica import kernels
from envs.tactica.actions import A_SURRENDER, N_ACTIONS
from envs.tactica.kernels import report_if_over, step_one
from envs.tactica.state import STAGE_GAME_OVER

AGENT_RANDOM = 0
AGENT_HEURISTIC = 1
# uniform over the legal actions but never surrenders: a random player that offers the
# heuristic more than free battles (random surrenders about half the times it is asked)
AGENT_RANDOM_FIGHTER = 2
AGENTS = {
    "random": AGENT_RANDOM,
    "heuristic": AGENT_HEURISTIC,
    "random_fighter": AGENT_RANDOM_FIGHTER,
}


@njit
def choose_from_legal(S, tb, b, agent, buf, n) -> int:
    """Action of agent id `agent` when buf[:n] holds game b's legal actions (n > 0)."""
    if agent == AGENT_HEURISTIC:
        return heuristic_from_legal(S, kernels.battlefield_distance(S, tb, b), b, buf, n)
    if agent == AGENT_RANDOM_FIGHTER and n > 1 and buf[n - 1] == A_SURRENDER:
        n -= 1  # the legal list is increasing: surrender, the last action, is left out
    return np.int64(buf[randint(S["agent_rng"], b, n)])


@njit
def choose_action(S, tb, b, agent, buf):
    """Action of agent id `agent` for game b's current decision; -1 when no decision is
    asked (the game is over)."""
    n = kernels.legal(S, tb, b, buf)
    if n == 0:
        return np.int64(-1)
    return choose_from_legal(S, tb, b, agent, buf, n)


@njit
def act_one(S, tba, b, agent):
    """Action of agent id `agent` for the current decision of game b (the contract's act_one:
    the AEC env, play and replay call it on a batch of one)."""
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    return choose_action(S, tba[0], np.int64(b), np.int64(agent), buf)


@njit
def act_games(first, step, S, tba, seat_agents, out):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    tb = tba[0]
    for b in range(first, S.shape[0], step):
        if S["stage"][b] != STAGE_GAME_OVER:
            out[b] = choose_action(S, tb, b, np.int64(seat_agents[S["current"][b]]), buf)


def batch_actions(S, tba, masks, seat_agents, out):
    """The action of every game's current player, seat s played by agent seat_agents[s]
    (the contract's act_batch; each game draws from its own agent RNG)."""
    over_games(act_games, S.shape[0], S, tba, seat_agents, out)


@njit
def play_opponents(
    first, step, S, tba, masks, learner, seat_agents, rewards, terminated, final_pts, final_len
):
    buf = np.empty(N_ACTIONS, dtype=np.int16)
    tb = tba[0]
    for b in range(first, S.shape[0], step):
        if S["stage"][b] == STAGE_GAME_OVER or S["current"][b] == learner:
            continue
        while S["stage"][b] != STAGE_GAME_OVER and S["current"][b] != learner:
            a = choose_action(S, tb, b, np.int64(seat_agents[S["current"][b]]), buf)
            step_one(S, tba, b, np.int64(a), masks[b], buf)
        report_if_over(S, b, rewards, terminated, final_pts, final_len)


def opponents_batch(S, tba, masks, learner, seat_agents, rewards, terminated, final_pts, final_len):
    """Play every seat but `learner` in every game until the learner is to decide or the
    game ends (batched training). Games that end here report rewards, war points, length."""
    over_games(
        play_opponents,
        S.shape[0],
        S,
        tba,
        masks,
        np.int64(learner),
        seat_agents,
        rewards,
        terminated,
        final_pts,
        final_len,
    )
