"""Seed chapter 11: winning the game, and the rewards we give for it."""

from __future__ import annotations

from envs.core.jit import njit
from envs.tac.state import MAX_TEAM, STAGE_GAME_OVER
from envs.tac.units import team_size


@njit
def victory_points(S, tb, b, p):
    """11.1: victory points of the units left alive (destroyed units are worth zero)."""
    vp = 0
    for t in range(MAX_TEAM):
        u = S["team_type"][b, p, t]
        if u >= 0:
            vp += tb.unit_victory_points[u]
    return vp


@njit
def undamaged_units(S, b, p):
    n = 0
    for t in range(MAX_TEAM):
        if S["team_type"][b, p, t] >= 0 and S["team_damage"][b, p, t] == 0:
            n += 1
    return n


@njit
def any_team_destroyed(S, b):
    """2.9: the game also ends when one player has lost all the units in his Combat Team."""
    for p in range(S["num_players"][b]):
        if team_size(S, b, p) == 0:
            return True
    return False


@njit
def finish_game(S, tb, b):
    """11.2: most victory points wins; a tie goes to the most undamaged units.

    Rewards (ours, docs/rules/tac.md): the single winner +1, everyone else -1. Players still
    tied after the tie-break share the win: each gets 0 and the others -1 (2 players: 0, 0).
    """
    P = S["num_players"][b]
    best_vp = -1
    for p in range(P):
        S["victory_points"][b, p] = victory_points(S, tb, b, p)
        if S["victory_points"][b, p] > best_vp:
            best_vp = S["victory_points"][b, p]
    best_undamaged = -1
    for p in range(P):
        if S["victory_points"][b, p] == best_vp:
            u = undamaged_units(S, b, p)
            if u > best_undamaged:
                best_undamaged = u
    n_top = 0
    top = -1
    for p in range(P):
        if S["victory_points"][b, p] == best_vp and undamaged_units(S, b, p) == best_undamaged:
            n_top += 1
            top = p
    for p in range(P):
        is_top = S["victory_points"][b, p] == best_vp and undamaged_units(S, b, p) == best_undamaged
        if n_top == 1:
            S["rewards"][b, p] = 1.0 if is_top else -1.0
        else:
            S["rewards"][b, p] = 0.0 if is_top else -1.0
    S["winner"][b] = top if n_top == 1 else -1
    S["stage"][b] = STAGE_GAME_OVER
