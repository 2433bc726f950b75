"""The one flat action space of Tactical Assault and its decision stages.

Every decision is one step of one player (S["current"]); what an index means depends on the
stage asked (S["stage"]). The layout::

    index            count  meaning
    A_ACTION + k     72     play the Action of card k (deck.yaml row k) from the hand
    A_SITUATION + k  72     play the Situation of card k from the hand (in a window, R12)
    A_DISCARD + k    72     end of turn: discard card k from the hand (FC "Playing & Discarding")
    A_UNIT + u       64     unit slot u: the unit a card is played on, an attack's target, the
                            unit to deploy next, the original target among several enemies in
                            a zone entered (LB "Multiple unit close combat: moving into")
    A_POS + p        256    position p (a zone, or a cell of the tabletop: FC R28): where to deploy
                            or infiltrate, the next position of a move's declared
                            path (FC R41: laid out whole before the unit moves), the
                            zone chosen between equal Fall Back options (LB "Making decisions"),
                            the zone chosen between equally near ones to move out to (LB R18),
                            where a Target Point is placed or between equal drift positions
    A_FACING + f     8      facing f (a side of the unit's zone, LB R8; one of the 8 directions
                            N, NE, .. NW on the tabletop; I10)
    A_PASS           1      pass a window / end the turn / done discarding / a move: "the
                            declared path is complete" (the unit then walks it, R42)
    A_EXIT           1      a move: the declared path ends leaving the map across the
                            scenario's exit edge (units_exit, R22)

Choosing a force by points (STAGE_CHOOSE_FORCE, LB I8) reuses A_UNIT + t for "add a unit of
Table 3 type t" and A_PASS for "my force is complete".

A card and the unit it is played on are two decisions (A_ACTION/A_SITUATION, then A_UNIT);
an attack's target and a move's path are asked when the card's effect step runs, so that
Interrupts see the game as it is then. Only plays that pass every check are offered (R11:
no pre-measuring, nothing to return to the hand).
"""

from __future__ import annotations

from envs.tactical_assault.state import MAX_CARDS, MAX_DIRS, MAX_POS, MAX_UNITS

A_ACTION = 0
A_SITUATION = A_ACTION + MAX_CARDS  # 72
A_DISCARD = A_SITUATION + MAX_CARDS  # 144
A_UNIT = A_DISCARD + MAX_CARDS  # 216
A_POS = A_UNIT + MAX_UNITS  # 280
A_FACING = A_POS + MAX_POS  # 536
A_PASS = A_FACING + MAX_DIRS  # 544
A_EXIT = A_PASS + 1  # 545
N_ACTIONS = A_EXIT + 1  # 546
MAX_LEGAL = N_ACTIONS  # a legal list never holds an index twice

# --- stages (S["stage"]) -------------------------------------------------------------------
STAGE_GAME_OVER = 0
STAGE_DEPLOY_UNIT = 1  # the placing player picks an unplaced unit (A_UNIT)
STAGE_DEPLOY_POS = 2  # ... and its position (A_POS): deployment or reinforcement
STAGE_FACING = 3  # a unit placed or ending a move faces a side (A_FACING, I10)
STAGE_MAIN = 4  # the active player: an Action, a Situation, or end the turn (A_PASS)
STAGE_PLAY_UNIT = 5  # the own unit the chosen card part is played on (A_UNIT)
STAGE_TARGET = 6  # the enemy unit an attack step attacks (A_UNIT)
STAGE_MOVE = 7  # declare a move's path (FC R41): its next position (A_POS), complete (A_PASS)
STAGE_WINDOW = 8  # a play window: a Situation that fits it (A_SITUATION) or pass
STAGE_DISCARD = 9  # end of turn: discard a card (A_DISCARD) or done (A_PASS)
STAGE_FALL_BACK_TIE = 10  # the owner picks between equal Fall Back zones (A_POS)
STAGE_PASS_TO = 12  # the friendly unit a card played on a Command unit passes to (A_UNIT, I7)
STAGE_VOLLEY = 13  # "all available" (I12): the next unit to join the attack (A_UNIT) or none
STAGE_STAYER = 14  # friendly units alone in a shared zone: the one that remains (A_UNIT)
STAGE_MOVE_OUT = 15  # the owner picks between equally near zones to move out to (A_POS, R18)
STAGE_CC_TARGET = 16  # the mover's player picks its original target among the enemies (A_UNIT)
STAGE_INFILTRATE = 17  # where the Infiltrator enters the battlefield (A_POS, FC I9)
STAGE_AERIAL_SIDE = 18  # the adjacent zone an Aerial unit attacks from (A_POS, I8, LB-3.5.5)
STAGE_CHOOSE_FORCE = 19  # before deployment: a Table 3 type to add (A_UNIT + t) or done (A_PASS)
STAGE_TARGET_POINT = 20  # where the Target Point is placed (A_POS, FC I14)
STAGE_DRIFT_TIE = 21  # the reference unit's owner picks between equal drift positions (A_POS)
STAGE_RUN = 11  # not a decision: the resolution machine runs on (turn.advance)

STAGE_NAMES = {
    STAGE_GAME_OVER: "game over",
    STAGE_DEPLOY_UNIT: "deploy: unit",
    STAGE_DEPLOY_POS: "deploy: position",
    STAGE_FACING: "facing",
    STAGE_MAIN: "main",
    STAGE_PLAY_UNIT: "play on unit",
    STAGE_TARGET: "attack target",
    STAGE_MOVE: "move: declare the path",
    STAGE_WINDOW: "play window",
    STAGE_DISCARD: "discard",
    STAGE_FALL_BACK_TIE: "fall back: equal options",
    STAGE_RUN: "running",
    STAGE_PASS_TO: "pass along to",
    STAGE_VOLLEY: "all available: next unit",
    STAGE_STAYER: "which unit remains in the zone",
    STAGE_MOVE_OUT: "move out: equal zones",
    STAGE_CC_TARGET: "close combat: original target",
    STAGE_INFILTRATE: "infiltrate: position",
    STAGE_AERIAL_SIDE: "aerial attack: from which side",
    STAGE_CHOOSE_FORCE: "choose force: unit type",
    STAGE_TARGET_POINT: "target point: position",
    STAGE_DRIFT_TIE: "random drift: equal positions",
}


def describe(a: int) -> str:
    """A human-readable name of action index a."""
    if not 0 <= a < N_ACTIONS:
        return f"action {a} (outside 0..{N_ACTIONS - 1})"  # named in illegal-action errors
    for base, n, name in (
        (A_ACTION, MAX_CARDS, "action of card"),
        (A_SITUATION, MAX_CARDS, "situation of card"),
        (A_DISCARD, MAX_CARDS, "discard card"),
        (A_UNIT, MAX_UNITS, "unit"),
        (A_POS, MAX_POS, "position"),
        (A_FACING, MAX_DIRS, "facing"),
    ):
        if base <= a < base + n:
            return f"{name} {a - base}"
    return "pass" if a == A_PASS else "exit the map"
