"""Tactics David's one flat action space and its decision stages (ARCHITECTURE.md section 5).

Every decision is one step of one player; what an action means depends on the stage. Layout::

    index           count  meaning
    A_CELL + c      308    Grid Space c (state.py numbering): where to deploy the picked unit
                           (STAGE_DEPLOY_CELL), where a Movement Procedure ends (STAGE_MOVE),
                           where a charge stops (STAGE_CHARGE_DIST), the target space of a
                           Ranged Attack (STAGE_COMBAT); the space of an enemy unit the
                           player Possessed this Turn, to Engage it (STAGE_ENGAGE, tdabI, R137)
    A_UNIT + k      20     army slot k of the deciding player: the unit to deploy
                           (STAGE_DEPLOY_UNIT) or to Engage (STAGE_ENGAGE), the unit a bought
                           Item is equipped to (STAGE_BUY_ITEM_UNIT); the ally the Whip
                           gives an extra Movement Procedure (STAGE_MOVE, TD-25.9); Root
                           family k declared for Hired Hit (STAGE_DECLARE, TD-22.2.31)
    A_FACE + d      4      Facing Procedure: turn to FACE_N/E/S/W (STAGE_MOVE)
    A_STRIKE + s    4      attack with strength side s (front/left/right/back, TD-13) through
                           the unit's Melee Area of Attack; for a Ranged Unit this is the
                           Ranged Melee Procedure (TD-10.5). Physical and Ethereal: front only
    A_SIDE + s      4      a Magical Ranged Attack's side (STAGE_RANGED_SIDE, TD-13.2)
    A_SEAT + p      2      the roll-off winner picks who takes the first Turn (STAGE_FIRST)
    A_CHARGE        1      Charging Procedure in the facing direction (TD-9.3)
    A_ESCAPE        1      Escape Procedure out of a Combat Lock (TD-9.8)
    A_END           1      end: the Turn (STAGE_ENGAGE), the Movement Phase (STAGE_MOVE), the
                           Combat Phase without attacking (STAGE_COMBAT), the Item Phase
                           (STAGE_ITEM), removing Statuses (STAGE_ITEM_STATUS); decline the
                           acquired Item (STAGE_ACQUIRE)
    A_USE_ITEM      1      Use Item Procedure with the Expendable Item (STAGE_ITEM, TD-8.3)
    A_STATUS + s    20     the Status s an Item removes (STAGE_ITEM_STATUS, TD-25.2); the Status
                           the unit discards when it may (STAGE_EFFECT, R34)
    A_TRADE + t     3      exchange the Items of type slot t with the Trade partner (STAGE_TRADE:
                           give, take or swap, TD-8.2); swap the looted Item into slot t
                           (STAGE_LOOT, TD-11.2)
    A_TYPE + t      3      Amulet of Shifting: become Unit Type t (STAGE_ITEM, TD-25.7)
    A_ABILITY       1      use the Engaged unit's "R: Attack Pro." ability instead of its
                           Attack, or its "D: Combat Pha." ability besides it, once (R55)
                           (STAGE_COMBAT, TD-22.2); its targets follow in STAGE_EFFECT
                           (A_CELL + c, then A_END to stop before the most it may pick),
                           then the Statuses a row lets the player choose (A_STATUS + s,
                           A_END to stop; R57)
    A_PIECE + i     256    units.yaml row i: the top unit of the next piece the player buys
                           (STAGE_BUY), a lower member of the Stacked Unit being bought
                           (STAGE_BUY_STACK; in units.yaml order); A_END ends the pieces
                           (STAGE_BUY) or buys the piece as it is (STAGE_BUY_STACK); items.yaml
                           row i: the Item bought next (STAGE_BUY_ITEM, A_END: the army is
                           done)
    A_UNFORM        1      the Engaged member of a Unit Team leaves it: its next Movement
                           Procedure moves it alone (STAGE_MOVE, TD-18.3)
    A_BELT + j      9      tdabG, Work Belt (TD-22.2.57, R109; work_belt.py): j = 3 * (k - 1) + t
                           with k = 1, 2, 3 the Trade of type t between the Engaged unit's
                           second slot and the partner's first (k = 1), its first and the
                           partner's second (2), both second slots (3) (STAGE_TRADE); k = 1
                           also names the second slot of type t where A_TRADE + t / A_SIDE + t
                           name the first (STAGE_LOOT's swap, Bite's and Incineration's discard)

Unit Teams (teams.py): in STAGE_ORIENT and STAGE_TEAM_PICK, A_FACE + d names side d of the
Team's space: where the moving member stands (Orientation Procedure, TD-9.7), or the member
standing there that the attack strikes (TD-18.6).

Items (items.py): STAGE_ITEM asks the Item Phase (and Item Phase 2) of the Engaged unit;
STAGE_ITEM_TARGET the unit an Item is used on, by its space (A_CELL + c); STAGE_ITEM_STATUS which
Status to remove next; STAGE_ACQUIRE the unit that equips the Item drawn at the end of the Turn
(A_UNIT + k, TD-12.2). In STAGE_ITEM, A_CELL + c also picks the Trade partner (a living ally
at most 2 steps away) or, in Item Phase 2, the Dead unit in direct contact to Loot.

A decision whose only legal action is A_END is not asked (turn.step applies it): the rules
leave no choice there (TD-7.4 "forced to end their Turn"). The next part adds item, trade,
loot, team and army-purchase actions after A_END, so N_ACTIONS grows then.
"""

from __future__ import annotations

from envs.tactics_david.state import (
    MAX_CELLS,
    MAX_PROFILE_SLOTS,
    MAX_UNITS,
    N_ITEM_TYPES,
    N_STATUSES,
)

A_CELL = 0
A_UNIT = A_CELL + MAX_CELLS  # 308
A_FACE = A_UNIT + MAX_UNITS  # 328
A_STRIKE = A_FACE + 4  # 332
A_SIDE = A_STRIKE + 4  # 336
A_SEAT = A_SIDE + 4  # 340
A_CHARGE = A_SEAT + 2  # 342
A_ESCAPE = A_CHARGE + 1  # 343
A_END = A_ESCAPE + 1  # 344
A_USE_ITEM = A_END + 1  # 345
A_STATUS = A_USE_ITEM + 1  # 346
A_TRADE = A_STATUS + N_STATUSES  # 366
A_TYPE = A_TRADE + 3  # 369
A_ABILITY = A_TYPE + 3  # 372
A_PIECE = A_ABILITY + 1  # 373
A_UNFORM = A_PIECE + MAX_PROFILE_SLOTS  # 629 (branch tdteams)
A_BELT = A_UNFORM + 1  # 630 (tdabG): Work Belt's second Item slots (work_belt.py)
N_ACTIONS = A_BELT + 3 * N_ITEM_TYPES  # 639
MAX_LEGAL = N_ACTIONS  # an out buffer of this size always holds every legal action

# stages (S["stage"])
STAGE_NONE = 0  # a slot that holds no started game
STAGE_FIRST = 1  # the roll-off winner chooses who goes first (TD-1.3, I7)
STAGE_DEPLOY_UNIT = 2  # pick the next unit to deploy (TD-5.2)
STAGE_DEPLOY_CELL = 3  # the space it is deployed on
STAGE_ENGAGE = 4  # Engage a unit or end the Turn (TD-7)
STAGE_MOVE = 5  # the Engaged unit's Movement Phase (TD-9)
STAGE_CHARGE_DIST = 6  # where a passed charge stops (TD-9.5)
STAGE_COMBAT = 7  # the Engaged unit's Combat Phase (TD-10, TD-14, TD-15)
STAGE_RANGED_SIDE = 8  # a Magical Ranged Attack's side (TD-13.2)
STAGE_GAME_OVER = 9
STAGE_ITEM = 10  # the Engaged unit's Item Phase or Item Phase 2 (TD-8, TD-11)
STAGE_ITEM_TARGET = 11  # the unit an Item is used on (TD-25.2-25.3)
STAGE_ITEM_STATUS = 12  # the Status the Item removes next (TD-25.2)
STAGE_ACQUIRE = 13  # the unit equipping the acquired Item (TD-12.2)
STAGE_TRADE = 14  # exchanges with the Trade partner (TD-8.2)
STAGE_LOOT = 15  # a looted Item meets a full slot: swap it in or send it to the deck (TD-11.2)
STAGE_WHIP = 16  # where the Whip's ally ends its extra Movement Procedure (TD-25.9)
# a "may" choice in the middle of a procedure, resumed after the answer (the design's pause):
# A_STATUS + s discards Status s, A_END keeps it (R34: Fearful's and Petrified's 6); or the
# targets of an ability used instead of the Attack (A_CELL + c, A_END: no more; TD-22.2)
STAGE_EFFECT = 17
# army building by the players (option army_building=players; setup.py, TD-6, TD-17): the
# next piece's top unit (A_PIECE + i) or A_END (the army is done); then its lower members
STAGE_BUY = 18
STAGE_BUY_STACK = 19
# Unit Teams (branch tdteams, teams.py, TD-9.7, TD-18): the Orientation Procedure of a Team
# just formed, asked of its owner: A_FACE + d, the moving member stands on side d of the
# space and its partner on the opposite side
STAGE_ORIENT = 20
# which member of a Team an attack strikes (TD-18.6): A_FACE + d, the member on side d;
# asked of the attacking player (melee, both exposed) or of the defending player (ranged)
STAGE_TEAM_PICK = 21
# tdpause: a decision inside a procedure, by the player the rule names (pause.py, R72): Lucky's
# reroll or Target Practice's retry (A_ABILITY: yes, A_END: no), a defender's "may" before its
# Defend (A_ABILITY, a facing A_FACE + d, a space A_CELL + c; A_END: no), Giant's Bread
# (A_STATUS + s: discard the Status just acquired, A_END: keep it)
STAGE_PAUSE = 22
# tdabC: at the start of its first Turn the player declares a Root for each of its units with
# Hired Hit (TD-22.2.31, RA5; control.py): A_UNIT + r, Root family r (unit_tree.yaml order)
STAGE_DECLARE = 23
# tdbuy: Items bought with the army (army_building=players; setup.py, TD-6.1.1, R141), after
# its pieces: the Item bought next (A_PIECE + i, items.yaml row i) or A_END (the army is done)
STAGE_BUY_ITEM = 24
# ... the unit of the army it is equipped to (A_UNIT + k, army slot k)
STAGE_BUY_ITEM_UNIT = 25
# the stages of army building by the players (R71, R142)
BUY_STAGES = (STAGE_BUY, STAGE_BUY_STACK, STAGE_BUY_ITEM, STAGE_BUY_ITEM_UNIT)
# The phase hand-offs (turn.step's loop): a step that ends where another begins returns that
# step's code instead of calling it, so every step sits one level below the loop and is linked
# into the kernel once (compile time; envs/tactica/combat_phase.py has the same shape).
GO_NONE = 0  # a decision is asked, or the game is over: stop
GO_ITEM_PHASE_1 = 1  # items.begin_item_phase(1): the Item Phase, then the Movement Phase
GO_ITEM_PHASE_2 = 2  # items.begin_item_phase(2): Item Phase 2, then Disengaged
GO_END_MOVEMENT = 3  # movement.end_movement
GO_AFTER_ATTACK = 4  # combat.after_attack
GO_DISENGAGE = 5  # units.disengage
GO_ACQUISITION = 6  # items.begin_acquisition: Item Acquisition, then End Player's Turn
GO_END_TURN = 7  # units.end_turn
# tdabJ: hand-offs split so that the Guard question (guard.ask_question, R140) comes between
# a death and what follows it
GO_ENGAGE_ROWS = 8  # the Engagement's Status rows go on after a death Guard was asked about
GO_DISENGAGED = 9  # units.disengage, after the Disengagement's rows (the win check)
GO_TURN_OVER = 10  # units.end_turn, after the End of Turn rows (the win check)

STAGE_NAMES = (
    "none",
    "first player",
    "deploy: unit",
    "deploy: space",
    "engage",
    "movement phase",
    "charge distance",
    "combat phase",
    "ranged side",
    "game over",
    "item phase",
    "item target",
    "item status",
    "item acquisition",
    "trade",
    "loot",
    "whip move",
    "effect choice",
    "buy: piece",
    "buy: stack member",
    "team orientation",
    "team member attacked",
    "pause: choice",
    "declare a root",
    "buy: item",
    "buy: item's unit",
)
FACE_NAMES = ("north", "east", "south", "west")
SIDE_NAMES = ("front", "left", "right", "back")


def describe(a: int, cols: int = 14) -> str:
    """A short English name of action a (cols: the battlefield's width, for row/col)."""
    if not 0 <= a < N_ACTIONS:
        raise ValueError(f"action {a} outside 0..{N_ACTIONS - 1}")
    if a < A_UNIT:
        return f"space {a} (row {a // cols}, col {a % cols})"
    if a < A_FACE:
        return f"unit slot {a - A_UNIT}"
    if a < A_STRIKE:
        return f"face {FACE_NAMES[a - A_FACE]}"
    if a < A_SIDE:
        return f"attack with {SIDE_NAMES[a - A_STRIKE]}"
    if a < A_SEAT:
        return f"ranged side {SIDE_NAMES[a - A_SIDE]}"
    if a < A_CHARGE:
        return f"player {a - A_SEAT} goes first"
    if a >= A_BELT:  # tdabG: Work Belt's second slots
        k, t = divmod(a - A_BELT, N_ITEM_TYPES)
        return f"item type {t}: {('second/first', 'first/second', 'second/second')[k]} slot"
    if a == A_UNFORM:
        return "leave the unit team"
    if a >= A_PIECE:  # a unit row in STAGE_BUY / STAGE_BUY_STACK, an Item in STAGE_BUY_ITEM
        return f"buy unit row {a - A_PIECE} (or item {a - A_PIECE})"
    if a == A_ABILITY:
        return "use the ability instead of attacking"
    if a >= A_TYPE:
        return f"become unit type {a - A_TYPE}"
    if a >= A_TRADE:
        return f"exchange item slot {a - A_TRADE}"
    if a >= A_STATUS:
        return f"remove status {a - A_STATUS}"
    return {A_CHARGE: "charge", A_ESCAPE: "escape", A_END: "end", A_USE_ITEM: "use item"}[a]
