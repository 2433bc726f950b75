"""Tactical Assault game state: one structured record per game, batch-first.

A batch is a 1-D array of STATE_DTYPE records: ``S["unit_pos"][b, u]`` reads the same in numba
kernels and in Python. Two players (seats 0 and 1; a scenario's ``sides`` in order).

Cards (FC "Materials", PART II "Confirm The Decks"). Both players own the same 72-card deck
(deck.yaml); card ``k`` of player ``p`` is row k of the deck file. Every card is in exactly one
place, ``card_place[p, k]``::

    PLACE_DECK     deck[p, 0:deck_count[p]] holds it (bottom .. top); the order is hidden from
                   both players (issue 7: "a player's own deck order is hidden from that player")
    PLACE_HAND     in p's hand (at most HAND_SIZE), unordered, seen by p only
    PLACE_DISCARD  p's discard pile, face up, unordered (reshuffled into the deck: Recycling)
    PLACE_PLAYED   on the resolution stack (fr_card of a frame), face up

Units. Unit slot ``u`` (0 .. MAX_UNITS-1) of the scenario or army; ``unit_side[u] == -1`` marks
an unused slot. ``unit_where`` says where a unit is (WHERE_*); a unit on the battlefield stands
at position ``unit_pos[u]`` (a zone of Legendary Battles, a grid cell of Fantasy Cards: the
geometry's positions, tables ``g_*``). Two units share a position only in Close Combat (LB
"Zone contents"): the unit that moved in records the position it came from (``unit_entry``) and
its original target (``unit_cc_target``); the unit that was there first has ``unit_entry`` -1.

The resolution stack (FC "Sequential Events"): a card part being resolved is a frame
``fr_*[i]``, i < ``depth``; a Situation played in a window of the top frame (an Interrupt or a
Cancel) is pushed above it and resolves first, then the lower frame resumes at the phase it
stopped at (resolve.py). Each frame runs the effect steps of its play (tables ``step_*``) one
by one; ``fr_phase`` is the sub-step inside the current step (resolve.PH_*).
"""

from __future__ import annotations

import numpy as np

from envs.core.records import empty_states

N_PLAYERS = 2
MAX_CARDS = 72  # cards per deck (FC "Confirm The Decks": exactly 72)
HAND_SIZE = 6  # FC Table 1 "Draw Hand (Six Cards)" (reading R5)
MAX_UNITS = 64  # unit slots per game, both sides (a 36-point force of 1-point Civilians: 36)
MAX_POS = 256  # geometry positions (zones: the largest shipped map has 108; the Standard Game
# tabletop of FC reading R28 is a 16 x 16 grid of Very Short cells)
MAX_DIRS = 8  # sides of a position / facings (squares 4, hexes 6; a fine grid may use 8)
MAX_STACK = 8  # resolution frames (a card, a Cancel of it, an Interrupt of that, ...)
MAX_PATH = 16  # positions of one declared move path (FC "Measuring Movement", R41): the
# longest allowance, Very Long, is 16 cells of the Standard Game tabletop (R28: Very Long = the
# table edge, every step at least one cell) and 10 zones of a zone map; a path is never longer
N_UNIT_TYPES = 20  # Table 3 unit types (== tables.N_TYPES; state.py cannot import tables.py)

# score at the end of a game (the contract's score field, RecordSpec.score_field): match points
SCORE_WIN = 2
SCORE_DRAW = 1
SCORE_LOSS = 0

# card_place
PLACE_DECK = 0
PLACE_HAND = 1
PLACE_DISCARD = 2
PLACE_PLAYED = 3

# unit_where
WHERE_UNUSED = -1  # no unit in this slot
WHERE_OFF = 0  # not on the battlefield: not yet deployed, a reinforcement, Aerial, Infiltrator
WHERE_ON = 1  # on the battlefield at unit_pos
WHERE_ELIMINATED = 2  # Eliminated (Table 6), or left the battlefield (FC "Fall Back" NOTE)
WHERE_EXITED = 3  # left the map by its own move to win (units_exit, LB I3, R22); not Eliminated

# unit_status bits (Table 6 statuses; Fall Back is not a status)
STATUS_SHAKEN = 1
STATUS_OUT_OF_ACTION = 2

# fr_flags bits
FR_CANCELLED = 1  # a Cancel negated this card (R13): no effect, still counts as played
FR_CEASED = 2  # the unit it was played on ceased its current activity (Table 6)

STATE_FIELDS = [
    # --- generic fields (every ruleset) ---
    ("rng", np.uint64, (2,)),  # uint64[2] rules RNG (shuffles, deployment draw), envs/core/rng
    ("agent_rng", np.uint64, (2,)),  # uint64[2] RNG for agents playing inside kernels
    ("game_index", np.int64, ()),  # int64 which game of the seed this slot plays
    ("num_players", np.int8, ()),  # int8 always 2
    ("stage", np.int8, ()),  # int8 actions.STAGE_* decision asked now
    ("current", np.int8, ()),  # int8 seat asked to decide now
    ("decisions", np.int32, ()),  # int32 decisions taken so far
    ("rewards", np.float32, (N_PLAYERS,)),  # float32[2] +1 win, -1 loss, 0 draw, once over
    ("winner", np.int8, ()),  # int8 winning seat, -1 draw / not over
    # --- cards (docstring) ---
    ("card_place", np.int8, (N_PLAYERS, MAX_CARDS)),  # int8[2, 72] PLACE_* of card k of p
    ("card_new", np.uint8, (N_PLAYERS, MAX_CARDS)),  # bool[2, 72] drawn in this replenish
    ("deck", np.int8, (N_PLAYERS, MAX_CARDS)),  # int8[2, 72] card ids bottom..top, -1 past count
    ("deck_count", np.int8, (N_PLAYERS,)),  # int8[2] cards in p's deck
    ("reshuffles", np.int16, (N_PLAYERS,)),  # int16[2] times p's discard became a deck (R17)
    # --- units (docstring), per slot ---
    ("unit_side", np.int8, (MAX_UNITS,)),  # int8[64] owning seat, -1 unused slot
    ("unit_type", np.int8, (MAX_UNITS,)),  # int8[64] Table 3 index
    ("unit_where", np.int8, (MAX_UNITS,)),  # int8[64] WHERE_*
    ("unit_pos", np.int16, (MAX_UNITS,)),  # int16[64] position while WHERE_ON, else -1
    ("unit_facing", np.int8, (MAX_UNITS,)),  # int8[64] facing: a side of its position (LB R8)
    ("unit_status", np.uint8, (MAX_UNITS,)),  # uint8[64] STATUS_* bits (Table 6)
    ("unit_acted", np.uint8, (MAX_UNITS,)),  # bool[64] had its Action this turn (One Action)
    ("unit_entry", np.int16, (MAX_UNITS,)),  # int16[64] position it entered a shared one from
    ("unit_cc_target", np.int8, (MAX_UNITS,)),  # int8[64] original Close Combat target, -1
    (
        "unit_pass",
        np.uint8,
        (MAX_UNITS,),
    ),  # uint8[64] holds a pass-along (I7): 1 Action, 2 Situation
    ("unit_pass_dist", np.int8, (MAX_UNITS,)),  # int8[64] its distance code (Table 2)
    ("unit_arrives", np.int16, (MAX_UNITS,)),  # int16[64] own turn it enters as reinforcement
    # --- victory (FC "Determine Victory Conditions") ---
    ("points_total", np.int16, (N_PLAYERS,)),  # int16[2] unit points of p's force
    ("points_lost", np.int16, (N_PLAYERS,)),  # int16[2] unit points of p's units eliminated
    ("units_lost", np.int16, (N_PLAYERS,)),  # int16[2] p's units eliminated (R10 counts units)
    ("units_exited", np.int16, (N_PLAYERS,)),  # int16[2] p's units that left the map (R22)
    # --- the turn (FC Table 1) ---
    ("active", np.int8, ()),  # int8 seat whose turn it is, -1 before the first turn
    ("turn", np.int16, ()),  # int16 player turns begun so far (both players' together)
    ("turns_of", np.int16, (N_PLAYERS,)),  # int16[2] turns p has begun (scenario turn limit)
    ("placed_first", np.int8, ()),  # int8 seat that placed the first unit (FC "Deploy Forces")
    ("deploy_next", np.int8, ()),  # int8 seat placing the next unit, -1 deployment over
    ("sel_card", np.int8, ()),  # int8 card being played (its unit not yet chosen), -1
    ("sel_part", np.int8, ()),  # int8 tables PART_* of sel_card
    ("sel_unit", np.int8, ()),  # int8 unit being deployed / turned, -1
    ("gw_left", np.int8, ()),  # int8 general window: passes still needed to close it (0 shut)
    ("gw_kind", np.int8, ()),  # int8 resolve.GW_* why the general window is open
    ("ending", np.uint8, ()),  # bool the active player ended the turn (discard/replenish)
    ("deploying", np.uint8, ()),  # bool units are being placed (deployment, reinforcements)
    # --- the play window being asked (STAGE_WINDOW; turn.py / resolve.py) ---
    ("win_trigger", np.int8, ()),  # int8 fct.TRIGGERS index of the window, 0 = general window
    ("win_unit", np.int8, ()),  # int8 unit the triggering event concerns (mover, attacked, ..)
    ("win_enemy", np.int8, ()),  # int8 the other unit of the event (attacker), -1
    # --- the resolution stack (docstring), frame i < depth ---
    ("depth", np.int8, ()),  # int8 frames on the stack
    ("fr_player", np.int8, (MAX_STACK,)),  # int8[8] seat that played the card
    ("fr_card", np.int8, (MAX_STACK,)),  # int8[8] card id (of fr_player's deck)
    ("fr_play", np.int16, (MAX_STACK,)),  # int16[8] tables play index (Action or Situation)
    ("fr_unit", np.int8, (MAX_STACK,)),  # int8[8] unit it was played on
    ("fr_step", np.int8, (MAX_STACK,)),  # int8[8] effect step being run
    ("fr_phase", np.int8, (MAX_STACK,)),  # int8[8] resolve.PH_* inside the step
    ("fr_target", np.int8, (MAX_STACK,)),  # int8[8] enemy unit of the step's attack, -1
    ("fr_shift", np.int8, (MAX_STACK,)),  # int8[8] shift added to that attack by Interrupts
    ("fr_left", np.int8, (MAX_STACK,)),  # int8[8] zones of movement left in a move step
    ("fr_moved", np.int8, (MAX_STACK,)),  # int8[8] positions entered so far in a move step
    ("fr_flags", np.uint8, (MAX_STACK,)),  # uint8[8] FR_* bits
    ("fr_contact", np.uint8, (MAX_STACK,)),  # bool[8] the move step may end in contact
    ("fr_from", np.int16, (MAX_STACK,)),  # int16[8] a move "directly away" (Evade): from here
    ("fr_start", np.int16, (MAX_STACK,)),  # int16[8] ... through its starting position
    ("fr_last_ok", np.int16, (MAX_STACK,)),  # int16[8] last position the mover may end in
    ("fr_aux", np.int16, (MAX_STACK,)),  # int16[8] enemy position a move is about to enter
    # --- a Fall Back being moved (combat.py; one at a time) ---
    ("fb_unit", np.int8, ()),  # int8 unit falling back, -1 none
    ("fb_from", np.int16, ()),  # int16 the route's line runs from this position ...
    ("fb_through", np.int16, ()),  # int16 ... through this one and beyond
    ("fb_k", np.int8, ()),  # int8 next route step
    ("fb_left", np.int8, ()),  # int8 zones of movement left
    ("fb_enter_first", np.int16, ()),  # int16 position entered before the route (R6), -1
    ("settle_zone", np.int16, ()),  # int16 position whose side must pick the unit that stays
    ("out_unit", np.int8, ()),  # int8 unit whose owner picks among equal zones to move out to
    ("out_zone", np.int16, ()),  # int16 ... out of this shared position (R18), -1 none
    ("fb_origin", np.int16, ()),  # int16 position it fell back from
    ("fb_depth", np.int8, ()),  # int8 stack depth when it began (Interrupts above run first)
    ("fb_ask", np.uint8, ()),  # bool its opponent's enemy_unit_moves window is due (I3)
    ("fb_last_ok", np.int16, ()),  # int16 last position reached that it may end in, -1
    # --- the contract's record fields (envs/core/ruleset.py RecordSpec; set by flow.py) ---
    ("score", np.int16, (N_PLAYERS,)),  # int16[2] match points once over: SCORE_WIN/DRAW/LOSS
    ("force", np.int8, (N_PLAYERS, N_UNIT_TYPES)),  # int8[2, 20] units of each Table 3 type in
    # p's force (the scenario's units and those chosen by points, LB R23)
    # --- a Target Point attack (FC I6, I14; resolve.py), per frame ---
    ("fr_tp_mask", np.uint64, (MAX_STACK,)),  # uint64[8] bit u: unit u is still to be attacked
    # --- a move's declared path (FC "Measuring Movement", FC R41, LB R29; resolve.py), per
    # frame: laid out whole before the unit moves, then walked (fr_moved positions so far)
    ("mv_path", np.int16, (MAX_STACK, MAX_PATH)),  # int16[8, 16] its positions in order, -1 past
    ("mv_len", np.int8, (MAX_STACK,)),  # int8[8] positions declared so far
    ("mv_left", np.int8, (MAX_STACK,)),  # int8[8] movement left at the declared path's end
    ("mv_exit", np.uint8, (MAX_STACK,)),  # bool[8] the path ends leaving the map (R22)
]
STATE_DTYPE = np.dtype(STATE_FIELDS)

# fields whose "empty" value is -1
NEG_ONE_FIELDS = (
    "winner",
    "deck",
    "unit_side",
    "unit_type",
    "unit_where",
    "unit_pos",
    "unit_entry",
    "unit_cc_target",
    "active",
    "placed_first",
    "deploy_next",
    "sel_card",
    "sel_part",
    "sel_unit",
    "win_unit",
    "win_enemy",
    "fr_player",
    "fr_card",
    "fr_play",
    "fr_unit",
    "fr_target",
    "fb_unit",
    "fb_from",
    "fb_through",
    "fb_enter_first",
    "fb_origin",
    "fb_last_ok",
    "settle_zone",
    "out_unit",
    "out_zone",
    "mv_path",
)


def allocate(num_envs: int) -> np.ndarray:
    """Empty state records for `num_envs` games (not yet reset: turn.reset_game)."""
    return empty_states(STATE_DTYPE, num_envs, NEG_ONE_FIELDS, num_players=N_PLAYERS)


def bytes_per_game() -> int:
    """State bytes one game occupies."""
    return STATE_DTYPE.itemsize
