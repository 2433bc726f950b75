"""The TACTICA turn: one decision at a time, through every chapter (TT-B.7.0.1, TT-B.7.0.2).

A war (envs/tactica/piles.reset_war) opens battle 1 in STAGE_SETUP. From then on a game is
a sequence of decisions, each asked by one chapter's kernels (setup.py, barracks.py,
muster.py, movement.py, combat_phase.py, resolution.py), which hand over by setting
STAGE_PHASE_DONE when their phase has no more decisions. `advance` begins the next phase
until a decision is asked or the war is over; the order (phases.yaml, TT-B.7.0.1):

    STAGE_SETUP -> deployment (setup.py) -> turn: start of turn and Barracks phase
    (barracks.py; decrees only in the advanced game) -> Recruitment -> Mustering (muster.py)
    -> Movement (movement.py) -> Combat (combat_phase.py) -> Resolution (resolution.py),
    which ends the turn (the next turn begins), the battle (start_battle: STAGE_SETUP again)
    or the war (STAGE_GAME_OVER).

`legal_actions` lists the actions of the decision being asked (by its stage's chapter);
`apply_action` applies one (the caller checked it is legal), counts the decision and
advances. The geometry arrays are the stacked ones of Tables.battlefield (battlefield axis
first); the kernels pass each chapter the slices of the battle being fought.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.tactica import barracks, combat_phase, movement, muster, resolution, setup
from envs.tactica.state import STAGE_GAME_OVER, STAGE_PHASE_DONE, STAGE_SETUP
from envs.tactica.tables import (
    PHASE_BARRACKS,
    PHASE_COMBAT,
    PHASE_MOVEMENT,
    PHASE_MUSTERING,
    PHASE_RECRUITMENT,
)

PHASE_DEPLOYMENT = -1  # S["phase"] while a battle's pieces are placed (setup.py, turn 0)
# more phase hand-overs in one advance than a war can make: a loop past it is a bug
MAX_HANDOVERS = 64


@njit
def advance(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b: int) -> None:
    """Begin phases until game b asks a decision or the war is over (module docstring)."""
    for _ in range(MAX_HANDOVERS):
        stage = S["stage"][b]
        bf = np.int64(S["battle"][b] - 1)
        if stage == STAGE_GAME_OVER:
            return
        if stage == STAGE_SETUP:
            setup.begin_setup(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b)
            continue
        if stage != STAGE_PHASE_DONE:
            return
        phase = S["phase"][b]
        if phase == PHASE_BARRACKS:
            muster.begin_recruitment(S, tb, b)
        elif phase == PHASE_RECRUITMENT:
            muster.begin_mustering(S, tb, neighbours[bf], b)
        elif phase == PHASE_MUSTERING:
            movement.begin_movement(S, tb, neighbours[bf], b)
        elif phase == PHASE_MOVEMENT:
            combat_phase.begin_combat(
                S, tb, neighbours[bf], distance[bf], lof_crossed[bf], lof_edges[bf], b
            )
        elif phase == PHASE_COMBAT:
            resolution.begin_resolution(S, tb, b)
        else:  # deployment done or a turn's Resolution done: the next turn begins
            if phase == PHASE_DEPLOYMENT:
                S["turn"][b] = 1  # TT-B.6.7 (Resolution counts the later turns)
            barracks.begin_barracks(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b)
    S["stage"][b] = STAGE_GAME_OVER  # unreachable by the rules; stops a runaway game


@njit
def legal_actions(
    S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b: int, out
) -> int:
    """The legal actions of game b's current decision into out[:n] (0 once the war is over).
    The phase, not the stage number, picks the chapter: a chapter may number extra stages of
    its own (the sacrifice pair, stage 42, is asked in Movement and in Combat)."""
    stage = S["stage"][b]
    if stage == STAGE_GAME_OVER or stage == STAGE_PHASE_DONE or stage == STAGE_SETUP:
        return 0
    phase = S["phase"][b]
    bf = np.int64(S["battle"][b] - 1)
    if phase == PHASE_DEPLOYMENT:
        return setup.legal_setup(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b, out)
    if phase == PHASE_BARRACKS:
        return barracks.legal_barracks(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b, out)
    if phase == PHASE_RECRUITMENT:
        return muster.legal_recruitment(S, tb, b, out)
    if phase == PHASE_MUSTERING:
        return muster.legal_mustering(S, tb, neighbours[bf], b, out)
    if phase == PHASE_MOVEMENT:
        return movement.legal_movement(S, tb, neighbours[bf], b, out)
    if phase == PHASE_COMBAT:
        return combat_phase.legal_combat(
            S, tb, neighbours[bf], distance[bf], lof_crossed[bf], lof_edges[bf], b, out
        )
    return resolution.legal_resolution(S, tb, b, out)


@njit
def apply_action(
    S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b: int, a: int
) -> None:
    """Apply legal action a to game b's current decision, then advance to the next one."""
    phase = S["phase"][b]
    bf = np.int64(S["battle"][b] - 1)
    S["decisions"][b] += 1
    if phase == PHASE_DEPLOYMENT:
        setup.apply_setup(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b, a)
    elif phase == PHASE_BARRACKS:
        barracks.apply_barracks(S, tb, neighbours[bf], distance[bf], wall_zone[bf], b, a)
    elif phase == PHASE_RECRUITMENT:
        muster.apply_recruitment(S, tb, b, a)
    elif phase == PHASE_MUSTERING:
        muster.apply_mustering(S, tb, neighbours[bf], b, a)
    elif phase == PHASE_MOVEMENT:
        movement.apply_movement(S, tb, neighbours[bf], b, a)
    elif phase == PHASE_COMBAT:
        combat_phase.apply_combat(
            S, tb, neighbours[bf], distance[bf], lof_crossed[bf], lof_edges[bf], b, a
        )
    else:
        resolution.apply_resolution(S, tb, b, a)
    advance(S, tb, neighbours, distance, wall_zone, lof_crossed, lof_edges, b)
