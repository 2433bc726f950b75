"""Tactics David's in-kernel agents (ids used inside kernels): AGENT_RANDOM (uniform over the
legal actions) and AGENT_HEURISTIC (agents/tactics_david/heuristic.py). Both draw from the
game's own agent RNG S["agent_rng"], so a game does not depend on the batch. `AGENTS` maps CLI
names to ids. These are the contract's act_one, act_batch and opponents_batch
(envs/core/ruleset.py)."""

from __future__ import annotations

import numpy as np

from agents.tactics_david.heuristic import heuristic_from_legal
from envs.core.jit import njit
from envs.core.masks import legal_from_mask, write_mask
from envs.core.rng import randint
from envs.core.threads import over_games
from envs.tactics_david import kernels
from envs.tactics_david.actions import MAX_LEGAL, N_ACTIONS, STAGE_GAME_OVER
from envs.tactics_david.kernels import report_if_over

AGENT_RANDOM = 0
AGENT_HEURISTIC = 1
AGENTS = {"random": AGENT_RANDOM, "heuristic": AGENT_HEURISTIC}


@njit
def choose_from_legal(S, tb, b, agent, buf, n):
    """Action of agent id `agent` when buf[:n] holds game b's legal actions (n > 0)."""
    if agent == AGENT_HEURISTIC:
        return heuristic_from_legal(S, tb, b, buf, n)
    return np.int64(buf[randint(S["agent_rng"], b, n)])


@njit
def choose_action(S, tb, b, agent, buf):
    """Action of agent id `agent` for game b's current decision; -1 when the game is over."""
    n = kernels.legal(S, tb, b, buf)
    if n == 0:
        return np.int64(-1)
    return choose_from_legal(S, tb, b, agent, buf, n)


@njit
def act_one(S, tba, b, agent):
    """Action of agent id `agent` for the current decision of game b (the contract's act_one:
    the AEC env, play and replay call it on a batch of one)."""
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    return choose_action(S, tba[0], np.int64(b), np.int64(agent), buf)


@njit
def act_games(first, step, S, tba, masks, seat_agents, out):
    """Game b's legal list is read from its mask (written by the step that asked the
    decision), not computed again: legal_actions' tree in this kernel cost the BatchEnv path
    about 3 s of cold compile (its 171 functions linked, optimised and emitted a second time;
    docs/adding_a_ruleset.md). So the list is in action order, where play_chunk's and
    act_one's are in legal_actions' order: a random pick, or the heuristic's among ties, may
    differ between the paths (both uniform), as in Tactical Assault."""
    buf = np.empty(N_ACTIONS, dtype=np.int64)
    tb = tba[0]
    for b in range(first, S.shape[0], step):
        if S["stage"][b] != STAGE_GAME_OVER:
            n = legal_from_mask(masks[b], buf)
            if n > 0:
                agent = np.int64(seat_agents[S["current"][b]])
                out[b] = choose_from_legal(S, tb, np.int64(b), agent, buf, np.int64(n))


def act_batch(S, tba, masks, seat_agents, out):
    """The action of every game's current player, seat s played by agent seat_agents[s]
    (the contract's act_batch; each game draws from its own agent RNG; masks: the BatchEnv's,
    as its last step left them)."""
    over_games(act_games, S.shape[0], S, tba, masks, seat_agents, out)


@njit
def play_opponents(
    first, step, S, tba, masks, learner, seat_agents, rewards, terminated, final_sc, final_len
):
    buf = np.empty(MAX_LEGAL, dtype=np.int64)
    tb = tba[0]
    for b in range(first, S.shape[0], step):
        if S["stage"][b] == STAGE_GAME_OVER or S["current"][b] == learner:
            continue
        while S["stage"][b] != STAGE_GAME_OVER and S["current"][b] != learner:
            agent = np.int64(seat_agents[S["current"][b]])
            a = choose_action(S, tb, np.int64(b), agent, buf)
            write_mask(masks[b], buf, kernels.apply(S, tb, np.int64(b), a, buf))
        report_if_over(S, b, rewards, terminated, final_sc, final_len)


def opponents_batch(S, tba, masks, learner, seat_agents, rewards, terminated, final_sc, final_len):
    """Play every seat but `learner` in every game until the learner is to decide or the game
    ends (batched training). Games that end here report rewards, scores and length."""
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
        final_sc,
        final_len,
    )
