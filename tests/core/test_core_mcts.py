"""The generic ISMCTS tree (agents/core/mcts.py) on hand-built trees."""

from __future__ import annotations

import numpy as np

from agents.core.mcts import (
    AVAILABLE,
    ROOT,
    VALUE,
    VISITS,
    tree_add_child,
    tree_backpropagate,
    tree_best_action,
    tree_new,
    tree_select,
)

N = 16


def _scratch():
    return np.full(N, -1, dtype=np.int32), np.empty(N, dtype=np.int16)


def test_select_lists_the_legal_actions_without_a_child_as_untried():
    nodes, stats = tree_new(8)
    tree_add_child(nodes, 1, ROOT, 3, 0)
    child_of, untried = _scratch()
    legal = np.array([3, 5, 7], dtype=np.int16)
    child, n_untried = tree_select(nodes, stats, ROOT, legal, 3, child_of, untried)
    assert child == -1 and n_untried == 2 and sorted(untried[:2]) == [5, 7]
    assert (child_of == -1).all()  # the scratch is left clean


def test_select_counts_availability_only_for_children_legal_in_this_world():
    nodes, stats = tree_new(8)
    a = tree_add_child(nodes, 1, ROOT, 1, 0)
    b = tree_add_child(nodes, 2, ROOT, 2, 0)
    c = tree_add_child(nodes, 3, ROOT, 4, 0)
    stats[[a, b, c], VISITS] = 1.0
    stats[[a, b, c], AVAILABLE] = 1.0
    child_of, untried = _scratch()
    legal = np.array([1, 4], dtype=np.int16)  # action 2 is not available in this world
    tree_select(nodes, stats, ROOT, legal, 2, child_of, untried)
    assert stats[a, AVAILABLE] == 2 and stats[c, AVAILABLE] == 2 and stats[b, AVAILABLE] == 1


def test_select_prefers_the_better_mean_at_equal_counts_and_explores_rare_children():
    nodes, stats = tree_new(8)
    good = tree_add_child(nodes, 1, ROOT, 1, 0)
    bad = tree_add_child(nodes, 2, ROOT, 2, 0)
    stats[good] = [10, 10, 8.0]
    stats[bad] = [10, 10, -8.0]
    child_of, untried = _scratch()
    legal = np.array([1, 2], dtype=np.int16)
    assert tree_select(nodes, stats, ROOT, legal, 2, child_of, untried)[0] == good
    # a child tried once among many availabilities gets its exploration bonus
    stats[good] = [1000, 1000, 100.0]
    stats[bad] = [1, 1000, 0.0]
    assert tree_select(nodes, stats, ROOT, legal, 2, child_of, untried)[0] == bad


def test_backpropagate_credits_each_node_with_the_reward_of_the_player_who_chose_it():
    nodes, stats = tree_new(8)
    a = tree_add_child(nodes, 1, ROOT, 0, 0)  # seat 0 chose
    b = tree_add_child(nodes, 2, a, 1, 1)  # then seat 1 chose
    tree_backpropagate(nodes, stats, b, np.array([1.0, -1.0], dtype=np.float32))
    assert stats[a, VALUE] == 1.0 and stats[b, VALUE] == -1.0
    assert stats[a, VISITS] == stats[b, VISITS] == stats[ROOT, VISITS] == 1


def test_best_action_is_the_most_visited_root_child():
    nodes, stats = tree_new(8)
    a = tree_add_child(nodes, 1, ROOT, 6, 0)
    b = tree_add_child(nodes, 2, ROOT, 9, 0)
    stats[a, VISITS], stats[b, VISITS] = 3, 7
    stats[a, VALUE], stats[b, VALUE] = 3.0, -1.0
    assert tree_best_action(nodes, stats) == 9
    assert tree_best_action(*tree_new(2)) == -1
