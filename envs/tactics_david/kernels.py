"""Tactics David's one-game kernels: start, legal, apply (the contract's batch kernels, the
observation and the agents come with the next part).

`tb` is the tables record (record.build_record), `out` an int64 buffer of actions.MAX_LEGAL.
"""

from __future__ import annotations

from envs.core.jit import njit
from envs.tactics_david import turn
from envs.tactics_david.setup import reset_game


@njit
def start(S, tb, b, seed, game_index, out):
    """A new game in slot b from (seed, game_index) alone; its first decision's legal actions
    in out[:n] and n."""
    reset_game(S, tb, b, seed, game_index)
    # the reset asks a real decision (the roll-off winner's STAGE_FIRST), so no forced step
    # follows it: start links only the reset and the legal-action tree, not the whole rules
    return turn.legal_actions(S, tb, b, out)


# the legal actions of game b's decision into out[:n]; n (0 once the game is over): the turn
# function itself, not a wrapper that would link the legal-action tree into a module again
legal = turn.legal_actions


@njit
def apply(S, tb, b, a, out):
    """Apply legal action a to game b and advance; the next decision's legal actions in
    out[:n] and n."""
    return turn.step(S, tb, b, a, out)
