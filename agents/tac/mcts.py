"""TAC's information-set search agent: the generic ISMCTS tree (agents/core/mcts.py) over
TAC's kernels.

Per decision of seat `me` with more than one legal action: `sims` simulations, each on a
fresh determinisation of the game (envs/tac/hidden.py: what `me` cannot know is drawn
afresh, so the search never reads another player's hand, a face-down defence's type, the
order of a pile or the future dice), tree policy UCB1 with availability counts, rollouts by
the heuristic agent for every seat, rewards of the finished game per seat.

Reproducible: the search's generator is seeded from one draw of the game's agent RNG, so a
seed replays the same game in self-play, the AEC env and replay.
"""

from __future__ import annotations

import numpy as np

from agents.core.mcts import (
    ACTION,
    ROOT,
    tree_add_child,
    tree_backpropagate,
    tree_best_action,
    tree_new,
    tree_select,
)
from agents.tac.heuristic import heuristic_from_legal
from envs.core.jit import njit
from envs.core.rng import next_u64, randint, seed_stream
from envs.tac.actions import N_ACTIONS
from envs.tac.hidden import determinize
from envs.tac.state import STAGE_GAME_OVER
from envs.tac.turn import apply_action, legal_actions

SEARCH_STREAM = 0x5EA7C4  # the stream id of the search generator (envs/core/rng.py)


@njit
def mcts_action(S, tb, b, sims, buf):
    """The searched action of the current player of game b (S[b] is not changed but for one
    draw of its agent RNG)."""
    n_root = legal_actions(S, tb, b, buf)
    if n_root == 1:
        return np.int64(buf[0])
    me = np.int64(S["current"][b])
    rng = np.empty((1, 2), dtype=np.uint64)
    seed_stream(rng, np.int64(0), next_u64(S["agent_rng"], b), S["decisions"][b], SEARCH_STREAM)
    zero = np.int64(0)
    world = np.empty(1, dtype=S.dtype)
    nodes, stats = tree_new(sims + 1)
    n_nodes = 1
    legal = np.empty(N_ACTIONS, dtype=np.int16)
    untried = np.empty(N_ACTIONS, dtype=np.int16)
    child_of = np.full(N_ACTIONS, -1, dtype=np.int32)
    for _ in range(sims):
        world[0] = S[b]
        determinize(world, tb, zero, me, rng)
        node = ROOT
        n_legal = legal_actions(world, tb, zero, legal)
        while world["stage"][0] != STAGE_GAME_OVER:
            child, n_untried = tree_select(nodes, stats, node, legal, n_legal, child_of, untried)
            if n_untried > 0:
                a = np.int64(untried[randint(rng, zero, n_untried)])
                node = tree_add_child(nodes, n_nodes, node, a, world["current"][0])
                n_nodes += 1
                n_legal = apply_action(world, tb, zero, a, legal)
                break
            node = child
            n_legal = apply_action(world, tb, zero, np.int64(nodes[child, ACTION]), legal)
        while world["stage"][0] != STAGE_GAME_OVER:
            a = heuristic_from_legal(world, tb, zero, legal, n_legal)
            n_legal = apply_action(world, tb, zero, np.int64(a), legal)
        tree_backpropagate(nodes, stats, node, world["rewards"][0])
    return np.int64(tree_best_action(nodes, stats))
