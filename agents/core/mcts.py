"""Information-set Monte Carlo tree search: the tree every ruleset's search agent shares.

Single-observer ISMCTS (Cowling, Powley and Whitehouse, "Information Set Monte Carlo Tree
Search", IEEE TCIAIG 2012). One tree per decision, for the player to act (the searcher). Each
simulation samples one world the searcher cannot tell apart from the real one (the ruleset's
determinisation: hidden cards, pile orders and future dice drawn afresh, never read from the
real hidden state), then walks the tree with the actions legal in that world:

- selection: among the children whose action is legal in this world, the one with the highest
  UCB1 score, where "availability" counts the simulations in which the child could have been
  chosen (not its parent's visits): the ISMCTS correction for actions an opponent may or may
  not have in a given world;
- expansion: if some legal action has no child yet, one of them (uniform) is added;
- rollout: the ruleset's fast agent plays the world to its end;
- backpropagation: every node on the path adds the final reward of the player who chose its
  action (rewards per seat, so 2-5 players work alike: max^n style).

The move played is the root child with the most visits. Nodes are rows of two fixed arrays
(no Python objects), sized by the simulation budget: a simulation adds at most one node.

The ruleset glue (agents/<ruleset>/mcts.py) owns the world sampling, the legal-action list,
the step and the rollout policy; everything here works on the tree arrays only.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit

# nodes[i, :] columns (int32)
PARENT, ACTION, FIRST_CHILD, NEXT_SIBLING, PLAYER = 0, 1, 2, 3, 4
# stats[i, :] columns (float64)
VISITS, AVAILABLE, VALUE = 0, 1, 2
ROOT = 0
# UCB1 exploration constant for rewards in [-1, 1]
EXPLORATION = 0.7


@njit
def tree_new(max_nodes):
    """An empty tree with its root (node 0); room for max_nodes - 1 more nodes."""
    nodes = np.full((max_nodes, 5), -1, dtype=np.int32)
    stats = np.zeros((max_nodes, 3), dtype=np.float64)
    return nodes, stats


@njit
def tree_add_child(nodes, n_nodes, node, action, player):
    """Add a child of `node` reached by `action` of `player`; returns its index (n_nodes)."""
    c = n_nodes
    nodes[c, PARENT] = node
    nodes[c, ACTION] = action
    nodes[c, PLAYER] = player
    nodes[c, FIRST_CHILD] = -1
    nodes[c, NEXT_SIBLING] = nodes[node, FIRST_CHILD]
    nodes[node, FIRST_CHILD] = c
    return c


@njit
def tree_select(nodes, stats, node, legal, n_legal, child_of, untried):
    """One selection step at `node` given the n_legal actions of this world in `legal`.

    Returns (child, n_untried): if some legal action has no child, n_untried > 0 and those
    actions are listed in `untried` (the caller expands one; child is -1); otherwise the UCB1
    choice among the legal children, whose availability counts are incremented.
    `child_of` is scratch indexed by action, all -1 on entry and on return."""
    c = nodes[node, FIRST_CHILD]
    while c >= 0:
        child_of[nodes[c, ACTION]] = c
        c = nodes[c, NEXT_SIBLING]
    n_untried = 0
    for i in range(n_legal):
        if child_of[legal[i]] < 0:
            untried[n_untried] = legal[i]
            n_untried += 1
    best = -1
    if n_untried == 0:
        best_score = -np.inf
        for i in range(n_legal):
            c = child_of[legal[i]]
            stats[c, AVAILABLE] += 1.0
        for i in range(n_legal):
            c = child_of[legal[i]]
            v = stats[c, VISITS]
            score = stats[c, VALUE] / v + EXPLORATION * np.sqrt(np.log(stats[c, AVAILABLE]) / v)
            if score > best_score:
                best_score = score
                best = c
    c = nodes[node, FIRST_CHILD]
    while c >= 0:
        child_of[nodes[c, ACTION]] = -1
        c = nodes[c, NEXT_SIBLING]
    return best, n_untried


@njit
def tree_backpropagate(nodes, stats, leaf, rewards):
    """Every node from `leaf` up to (not including) the root: one more visit and the reward
    of the player who chose its action."""
    n = leaf
    while n != ROOT:
        stats[n, VISITS] += 1.0
        stats[n, VALUE] += rewards[nodes[n, PLAYER]]
        n = nodes[n, PARENT]
    stats[ROOT, VISITS] += 1.0


@njit
def tree_best_action(nodes, stats):
    """The root child with the most visits (ties: the higher mean reward); -1 if none."""
    best = -1
    best_visits = -1.0
    best_mean = -np.inf
    c = nodes[ROOT, FIRST_CHILD]
    while c >= 0:
        v = stats[c, VISITS]
        mean = stats[c, VALUE] / v if v > 0 else -np.inf
        if v > best_visits or (v == best_visits and mean > best_mean):
            best = c
            best_visits = v
            best_mean = mean
        c = nodes[c, NEXT_SIBLING]
    return -1 if best < 0 else nodes[best, ACTION]
