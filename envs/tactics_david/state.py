"""Tactics David game state: one structured record per game, batch-first (ARCHITECTURE.md 3).

A batch is a 1-D array of STATE_DTYPE records, ``S["unit_cell"][b, u]`` in numba and Python
alike; copying a batch is copying one array. Two players (seats 0 and 1).

Units (TD-3, TD-6). Unit ids are ``u = owner * MAX_UNITS + k``, k the army slot (the order in
which the army was bought). A Unit is one playing piece: a single unit of units.yaml or a
Stacked Unit of 2-3 members (TD-17; ``unit_member[u, 0]`` is the top member, whose profile
gives area, type, movement and range, R25). ``unit_place`` says where it is::

    unit_place      meaning
    PLACE_NONE      unused slot (k >= the army's size)
    PLACE_RESERVE   bought, not yet deployed (TD-5)
    PLACE_FIELD     on the battlefield at unit_cell, facing unit_facing; a Dead Unit stays
                    here with the Dead Status (TD-10.3)
    PLACE_REMOVED   removed from the game (Swarm, abilities that remove; TD-23.1)

Battlefield (TD-2). Grid Spaces are numbered row by row, ``cell = row * cols + col`` with row 0
north (I11), cols/rows of the battlefield being played (tables record, per battlefield). The
largest map has 14 x 22 = 308 spaces (MAX_CELLS)::

    row 0   [  0][  1] ... [cols-1]          north
    row 1   [cols] ...
    ...
    row R-1 [...]  ...     [R*cols-1]        south

Terrain types, pieces and heights are static per battlefield and live in the tables record;
the state keeps what stands where: ``cell_unit[cell, 0..1]`` (slot 1 only for a Unit Team,
TD-18). Facing: FACE_N, FACE_E, FACE_S, FACE_W (clockwise). Strength sides are indexed as in
units.yaml: SIDE_FRONT, SIDE_LEFT, SIDE_RIGHT, SIDE_BACK.

Statuses (TD-20): ``unit_status[u, s]`` is the remaining duration of status s (statuses.yaml
order): 0 = not held, STATUS_PERMANENT (-1) = until discarded, n > 0 = n more Turns. Items
(TD-19): ``unit_item[u, s]`` is the item (items.yaml index) in slot s, -1 empty; slot s holds an
Item of Type s % N_ITEM_TYPES (Weapon, Accessory, Expendable), and the second slot of each Type
(s >= N_ITEM_TYPES) is only filled for a unit with Work Belt (TD-22.2.57, R109; work_belt.py);
the Item Deck (I10) is ``deck[0:deck_count]``, bottom first. Every
item card is in exactly one place: a unit slot or the deck (or the box, never in play). The
cards are the deck's one of each Item and the copies the armies bought (TD-6.1.1, R141), counted
in ``army_bought[p, n_profiles + i]``; a bought copy discarded joins the Item Deck.

Hidden information (R54; observe.py, hidden.py): a unit still in reserve is known to its owner
only, with the Items bought for it (the opponent sees how many units remain); units on the battlefield, their Status and Item cards
are public (TD-2.1); the Item Deck's order and the RNG words are hidden from both players.
"""

from __future__ import annotations

import numpy as np

from envs.core.records import empty_states

N_PLAYERS = 2
MAX_UNITS = 20  # units per army: purchase limit 100 / cheapest unit 5 (record.py checks it)
N_UNIT_IDS = N_PLAYERS * MAX_UNITS  # 40, ids fit int8
MAX_MEMBERS = 3  # members of a Stacked Unit (3 stacking points, TD-17.1)
MAX_CELLS = 308  # Grid Spaces of the largest battlefield (Death's Highway, 22 x 14)
TEAM_SLOTS = 2  # units per Grid Space: one, or a two-unit Team (TD-18.1)
N_STATUSES = 20  # statuses.yaml (R1); record.py checks the count
N_ITEM_TYPES = 3  # Weapon, Accessory, Expendable (TD-19.1)
N_ITEM_SLOTS = 2 * N_ITEM_TYPES  # tdabG: a second slot per Type for Work Belt (R109)
# Item Deck capacity: the 23 deck cards (I10) plus every bought copy (TD-6.1.1, R141) sent to its
# bottom: an army buys at most (limit - cheapest unit) // cheapest Item copies, (104 - 5) // 3 =
# 33 at the largest limit record.build_record allows, so 23 + 2 * 33 = 89 (build_record checks)
MAX_DECK = 96
N_USE_COUNTERS = 4  # per-unit counters for "once per Turn/game" abilities (next part)
MAX_REFLECT = 9  # Reflective units one attack can hit (the largest Area of Attack, 9 spaces)
MAX_PROFILE_SLOTS = 256  # units.yaml rows an army may buy from (record.MAX_PROFILES)
MAX_ACTIVE = 32  # lasting ability effects in play at once (effects.py)
MAX_DEAD_QUEUE = 8  # units whose Dead hooks wait for effects.run_hook
MAX_PICKS = 2  # units one ability row lets the player pick ("up to 2 Units")
AA_PICKS = 3  # tdabE: allies Chant lets the player pick (at most 3 Status Cards a Turn)
TURN_CAP = 10000  # safety: a game still running after this many Turns is drawn (I13)

# unit_place
PLACE_NONE = 0
PLACE_RESERVE = 1
PLACE_FIELD = 2
PLACE_REMOVED = 3

# facings (clockwise) and strength sides (units.yaml order)
FACE_N = 0
FACE_E = 1
FACE_S = 2
FACE_W = 3
SIDE_FRONT = 0
SIDE_LEFT = 1
SIDE_RIGHT = 2
SIDE_BACK = 3

STATUS_PERMANENT = -1
NO_UNIT = -1

STATE_FIELDS = [
    # --- generic fields (every ruleset) ---
    ("rng", np.uint64, (2,)),  # uint64[2] rules RNG (dice, armies, deck), envs/core/rng
    ("agent_rng", np.uint64, (2,)),  # uint64[2] RNG for agents playing inside kernels
    ("game_index", np.int64, ()),  # int64 which game of the seed this slot plays
    ("num_players", np.int8, ()),  # int8 always 2
    ("stage", np.int8, ()),  # int8 STAGE_* decision asked now (actions.py)
    ("current", np.int8, ()),  # int8 seat asked to decide now (in a Turn: the Attacking Player)
    ("decisions", np.int32, ()),  # int32 decisions taken so far
    ("rewards", np.float32, (N_PLAYERS,)),  # float32[2] +1 win, -1 loss, 0 draw once over
    ("winner", np.int8, ()),  # int8 seat that won, -1 drawn or not over
    # --- the game (TD-1.2) ---
    ("battlefield", np.int8, ()),  # int8 battlefield index (tables record, battlefields.yaml)
    ("purchase_limit", np.int16, ()),  # int16 each army's purchase limit (TD-6.1)
    ("army_cost", np.int16, (N_PLAYERS,)),  # int16[2] Purchase Cost of each army (TD-6.1)
    ("army_size", np.int8, (N_PLAYERS,)),  # int8[2] units bought (slots 0..size-1 used)
    ("roll_winner", np.int8, ()),  # int8 seat that won the first-player roll-off (I7)
    ("first_player", np.int8, ()),  # int8 seat taking the first Turn, -1 before it is chosen
    ("turn", np.int16, ()),  # int16 Turns begun so far (1 = the first player's first Turn)
    ("kills_turn", np.int8, (N_PLAYERS,)),  # int8[2] enemy units killed this Turn (TD-12.1)
    # --- units, by id u = owner * MAX_UNITS + k (docstring) ---
    (
        "unit_member",
        np.int16,
        (N_UNIT_IDS, MAX_MEMBERS),
    ),  # int16[40, 3] units.yaml index, top first, -1
    ("unit_n_members", np.int8, (N_UNIT_IDS,)),  # int8[40] 1 single, 2-3 stacked (TD-17)
    ("unit_place", np.int8, (N_UNIT_IDS,)),  # int8[40] PLACE_*
    ("unit_cell", np.int16, (N_UNIT_IDS,)),  # int16[40] Grid Space while PLACE_FIELD, else -1
    ("unit_facing", np.int8, (N_UNIT_IDS,)),  # int8[40] FACE_*
    (
        "unit_strength",
        np.int8,
        (N_UNIT_IDS, 4),
    ),  # int8[40, 4] base Strength Ratings F/L/R/B (summed for stacks)
    ("unit_cost", np.int16, (N_UNIT_IDS,)),  # int16[40] Purchase Cost (stack: sum + bonus, TD-17.3)
    (
        "unit_type",
        np.int8,
        (N_UNIT_IDS,),
    ),  # int8[40] current Unit Type (Amulet/abilities may change it)
    ("unit_attack_type", np.int8, (N_UNIT_IDS,)),  # int8[40] current Attack Type (TD-3.3)
    ("unit_status", np.int8, (N_UNIT_IDS, N_STATUSES)),  # int8[40, 20] status durations (docstring)
    ("unit_item", np.int8, (N_UNIT_IDS, N_ITEM_SLOTS)),  # int8[40, 6] item per slot, -1 empty
    ("unit_lock", np.int8, (N_UNIT_IDS,)),  # int8[40] unit it is Locked in Combat with, -1 (TD-16)
    ("unit_lock_turn", np.int16, (N_UNIT_IDS,)),  # int16[40] Turn the lock began (Escape, TD-9.8)
    ("unit_team", np.int8, (N_UNIT_IDS,)),  # int8[40] Unit Team partner, -1 none (TD-18)
    ("unit_engaged", np.uint8, (N_UNIT_IDS,)),  # bool[40] Engaged already this Turn (TD-7.2)
    ("unit_moved", np.uint8, (N_UNIT_IDS,)),  # bool[40] entered its Movement Phase this Turn (R27)
    ("unit_fought", np.uint8, (N_UNIT_IDS,)),  # bool[40] entered its Combat Phase this Turn
    (
        "unit_no_combat",
        np.uint8,
        (N_UNIT_IDS,),
    ),  # bool[40] may not enter the Combat Phase this Turn
    ("unit_kills", np.int16, (N_UNIT_IDS,)),  # int16[40] enemy units it has killed (abilities)
    ("unit_uses", np.uint8, (N_UNIT_IDS, N_USE_COUNTERS)),  # uint8[40, 4] ability use counters
    ("unit_move_bonus", np.int8, (N_UNIT_IDS,)),  # int8[40] base Movement added this Turn (Haste)
    # int32[40] bit s: status s was discarded this Turn and may not be acquired again (Fearful)
    ("unit_no_reacquire", np.int32, (N_UNIT_IDS,)),
    # --- the battlefield (docstring: cell layout) ---
    ("cell_unit", np.int8, (MAX_CELLS, TEAM_SLOTS)),  # int8[308, 2] unit ids on the space, -1
    # --- the Engagement in progress (TD-7.3) ---
    ("engaged", np.int8, ()),  # int8 the Engaged unit, -1 between Engagements
    ("eng_procedure", np.int8, ()),  # int8 PROC_* Movement/Charging Procedure done this phase
    ("eng_faced", np.uint8, ()),  # bool Facing Procedure done this Movement Phase
    ("charge_max", np.int8, ()),  # int8 spaces the charge may go (STAGE_CHARGE_DIST)
    ("pending_target", np.int16, ()),  # int16 ranged target space awaiting a side choice, -1
    ("eng_item_phase", np.int8, ()),  # int8 1 = Item Phase, 2 = Item Phase 2 (STAGE_ITEM)
    ("item_target", np.int8, ()),  # int8 unit an Item is being used on, -1
    ("trade_partner", np.int8, ()),  # int8 this Item Phase's Trade partner, -1 none yet
    ("loot_from", np.int8, ()),  # int8 the Dead unit being looted this Item Phase, -1
    ("loot_slot", np.int8, ()),  # int8 its slot whose Item awaits STAGE_LOOT, -1
    ("item_left", np.int8, ()),  # int8 Statuses the Item may still remove (STAGE_ITEM_STATUS)
    ("whip_unit", np.int8, ()),  # int8 the ally making the Whip's extra move (STAGE_WHIP), -1
    ("eng_whipped", np.uint8, ()),  # bool the Whip was used this Movement Phase
    ("eng_force", np.int8, ()),  # int8 FORCE_* move a Status imposes this Movement Phase
    # a choice asked in the middle of a procedure (STAGE_EFFECT): the scan it paused
    ("eff_unit", np.int8, ()),  # int8 the unit whose Status may be discarded, -1
    ("eff_status", np.int8, ()),  # int8 that Status
    ("eff_next", np.int8, ()),  # int8 the Status the paused scan resumes at; RESUME_AFTER_ATTACK
    ("eff_out", np.int8, ()),  # int8 OUT_* bits the scan had gathered before the pause
    # Magical attacks reflected by Reflective defenders, answered after the Combat Phase
    ("refl_count", np.int8, ()),  # int8 reflections pending
    ("refl_strength", np.int8, (MAX_REFLECT,)),  # int8[9] the attack's Strength Rating
    ("refl_side", np.int8, (MAX_REFLECT,)),  # int8[9] the side the attack was made against
    ("refl_from", np.int8, (MAX_REFLECT,)),  # int8[9] the reflecting unit
    # --- deployment (TD-5) ---
    ("deploy_unit", np.int8, ()),  # int8 unit picked to deploy (STAGE_DEPLOY_CELL), -1
    # --- the Item Deck (I10) ---
    ("deck", np.int8, (MAX_DECK,)),  # int8[96] item indices bottom..top, -1 past the count
    ("deck_count", np.int8, ()),  # int8 cards in the Item Deck
    # --- the contract (kernels.py, observe.py, agents/tactics_david) ---
    # int16[2] each seat's final score, written when the game ends (kernels.write_score): the
    # Purchase Cost of its units in play (I8's measure; 0 for a wiped-out army), 0 before
    ("score", np.int16, (N_PLAYERS,)),
    # int8[2, 256] units each seat bought, by units.yaml row (every member of a Stacked Unit
    # counts), then the Items it bought, Item i at n_profiles + i (TD-6.1.1, R141): the
    # self-play record's army (RecordSpec.force_field), set while the armies are bought; the
    # Item counts also say how many copies of each Item card are in the game (invariants.py)
    ("army_bought", np.int8, (N_PLAYERS, MAX_PROFILE_SLOTS)),
    # --- abilities (TD-22.2, effects.py): lasting effects, the procedure in progress ---
    ("fx_row", np.int16, (MAX_ACTIVE,)),  # int16[32] ability row of a lasting effect, -1 free
    ("fx_unit", np.int8, (MAX_ACTIVE,)),  # int8[32] the unit it acts on
    ("fx_amount", np.int8, (MAX_ACTIVE,)),  # int8[32] its amount (rolled once when it began)
    ("fx_until", np.int8, (MAX_ACTIVE,)),  # int8[32] UNTIL_*: when it ends
    ("fx_cause", np.int8, ()),  # int8 unit whose attack or ability is resolving (a killer), -1
    ("fx_att", np.int8, ()),  # int8 attacking unit of the Attack/Defend in progress, -1
    ("fx_def", np.int8, ()),  # int8 its defending unit, -1
    ("fx_res", np.int16, ()),  # int16 RES_* bits of that procedure's outcome
    ("fx_dead", np.int8, (MAX_DEAD_QUEUE,)),  # int8[8] units that acquired Dead, hooks pending
    ("fx_dead_by", np.int8, (MAX_DEAD_QUEUE,)),  # int8[8] ... the unit that caused it, -1
    ("fx_n_dead", np.int8, ()),  # int8 entries queued
    ("fx_pick", np.int8, (MAX_PICKS,)),  # int8[2] units the player picked for an ability
    ("fx_n_pick", np.int8, ()),  # int8 picks so far (STAGE_EFFECT, eff_next RESUME_ABILITY)
    # --- army building by the players (STAGE_BUY, setup.py; TD-6, TD-17) ---
    ("buy_member", np.int16, (MAX_MEMBERS,)),  # int16[3] the piece being bought, top first, -1
    ("buy_n", np.int8, ()),  # int8 its members so far (0: none being bought)
    # part seven (appended: the fields above keep their offsets)
    ("fx_st_pick", np.int32, ()),  # int32 bits of the Statuses the player chose (RESUME_STATUS)
    ("fx_proc_roll", np.int8, ()),  # int8 the Ranged Hit's dice, unmodified (procedure_roll)
    # --- branch tdteams: Unit Teams (TD-9.7, TD-18; teams.py) ---
    # int8[40] the side of the shared Grid Space (FACE_*) a Team member stands on after the
    # Orientation Procedure (its partner stands on the opposite side), -1 not in a Team
    ("unit_team_side", np.int8, (N_UNIT_IDS,)),
    # bool[40] its Movement Phase this Turn allows no Movement or Charging Procedure: its
    # Team was formed or moved by its partner this Turn (TD-18.2, R81)
    ("unit_no_move", np.uint8, (N_UNIT_IDS,)),
    # bool[40] the Team member the attack awaiting STAGE_TEAM_PICK strikes (TD-18.6)
    ("unit_team_hit", np.uint8, (N_UNIT_IDS,)),
    ("eng_solo", np.uint8, ()),  # bool the Engaged member leaves its Team (A_UNFORM, TD-18.3)
    # int16 the attack action waiting for the Team picks (A_STRIKE + s, A_CELL + c, A_SIDE + s)
    ("team_action", np.int16, ()),
    # tdrest (appended)
    ("eng_moved", np.int8, ()),  # int8 Grid Spaces the Engaged unit moved this Engagement
    # (Movement, Charge: orthogonal steps from start to end of each; Dungball, R92)
    # tdpause (appended): a decision asked inside a procedure, STAGE_PAUSE (pause.py, R72)
    ("pz_at", np.int8, ()),  # int8 PZ_* where the paused procedure resumes, 0 none
    ("pz_seat", np.int8, ()),  # int8 S["current"] before the pause (restored on resuming)
    ("pz_a", np.int8, ()),  # int8 the procedure's attacker (or the shooting unit), -1
    ("pz_d", np.int8, ()),  # int8 its defender, -1
    ("pz_side", np.int8, ()),  # int8 the attack's side argument (Magical: the chosen side)
    ("pz_rm", np.uint8, ()),  # bool a Ranged Melee Procedure
    ("pz_target", np.int16, ()),  # int16 a Ranged Attack's target space, -1 a Melee area
    ("pz_i", np.int16, ()),  # int16 area cursor: 2 * cell index + slot of the paused defender
    ("pz_att", np.int16, ()),  # int16 the attack result kept across the pause
    ("pz_dfn", np.int16, ()),  # int16 the defence result kept
    ("pz_flags", np.int8, ()),  # int8 PZF_* bits: the defender cannot die; retried ...
    ("pz_row", np.int16, ()),  # int16 the ability row a "may" asks about, -1
    ("pz_src", np.int8, ()),  # int8 the unit owning that row, -1
    ("pz_use_row", np.int16, ()),  # int16 the row the player chose to use, -1 none
    ("pz_use_src", np.int8, ()),  # int8 its unit, -1
    ("pz_use_arg", np.int16, ()),  # int16 the answer's argument (facing or space), -1
    ("pz_lucky_turn", np.int16, (N_UNIT_IDS,)),  # int16[40] Turn its Lucky reroll was used
    ("pz_bread", np.int32, (N_UNIT_IDS,)),  # int32[40] bit s: s acquired, Bread not asked yet
    ("pz_bread_stage", np.int8, ()),  # int8 the stage asked when the Bread pause began, 0
    ("pz_bread_go", np.int8, ()),  # int8 the GO_* step it interrupted (GO_NONE: a decision)
    ("pz_bread_seat", np.int8, ()),  # int8 S["current"] before the Bread pause
    ("pz_bread_unit", np.int8, ()),  # int8 the Bread holder asked, -1
    # branch tdabA: an Engagement aura's choice asked (auras.py, STAGE_EFFECT, RESUME_AURA)
    ("au_src", np.int8, ()),  # int8 the unit whose aura row is asked, -1 none
    ("au_i", np.int16, ()),  # int16 that row's index in tb.hk_rows (the scan's cursor)
    # a choice the player makes once an ability's roll succeeded (auras.ask_pending, R98)
    ("au_pend_row", np.int16, ()),  # int16 the ability row that asks it, -1 none
    ("au_pend_unit", np.int8, ()),  # int8 the unit it acts on, -1
    ("au_pend_n", np.int8, ()),  # int8 choices still to make (Hex: 1 or 2)
    ("au_pend_offer", np.int32, ()),  # int32 bit s: the target may discard s (Recover, R99)
    ("au_seat", np.int8, ()),  # int8 S["current"] before the target's player was asked, -1
    # Downgrade's "may" after its unit acquired the Dead Status (auras.ask_downgrade, R100)
    ("au_dg_unit", np.int8, ()),  # int8 the unit whose roll succeeded, -1 none
    ("au_dg_row", np.int16, ()),  # int16 its replace_unit row
    ("au_dg_seat", np.int8, ()),  # int8 S["current"] while its player is asked, -1 not asked
    ("au_dg_stage", np.int8, ()),  # int8 the stage the question interrupted
    ("au_dg_go", np.int8, ()),  # int8 the GO_* hand-off it interrupted
    # Spider Pack (auras.ask_pack, R101)
    ("au_pack", np.int8, ()),  # int8 the partner whose Strength Ratings the Engaged unit
    # combines in this Combat Phase (combat.strength), -1 none
    ("au_pack_asked", np.uint8, ()),  # bool the Engaged unit was asked in this Combat Phase
    ("au_pick2", np.int8, ()),  # int8 Crystal Power's second target (auras.ask_second, R102)
    ("au_acq", np.int32, ()),  # int32 bit s: s acquired from a row of this run_hook (R103)
    # --- branch tdabC: control and stacking under an enemy (control.py) ---
    # uint8[40] AB_OFF_* bits: the unit's abilities do nothing (every member's): Ghoul Blight
    # until its next Engagement, Curse for good (TD-22.2.158, TD-22.2.146)
    ("unit_ab_off", np.uint8, (N_UNIT_IDS,)),
    # int8[40] the Root (family index) its player declared for it at the start of that
    # player's first Turn (Hired Hit, TD-22.2.31, RA5), -1 none (STAGE_DECLARE)
    ("unit_root_decl", np.int8, (N_UNIT_IDS,)),
    # int8[40] the unit it may not Attack this Turn, -1 none (False Guide's target,
    # TD-22.2.155; effects.attack_prohibited, cleared at the end of the Turn)
    ("unit_no_attack", np.int8, (N_UNIT_IDS,)),
    # int16[40] Nature Shape: the member acting as another unit until the unit's next
    # Engagement, as its own profile * MAX_MEMBERS + its member slot; -1 none (R132)
    ("unit_shape", np.int16, (N_UNIT_IDS,)),
    # --- branch tdabB: trails (trails.py, TD-22.2.70, 077-079, 081; R110-R112) ---
    # int8[308] the unit whose trail marker lies on the Grid Space, -1 none (public)
    ("trail_unit", np.int8, (MAX_CELLS,)),
    # int8[2, 2] the Item cards seat p saw on top of the Item Deck by Study (top first), -1:
    # p knows where they are while they stay within that distance of the top (R116)
    ("deck_seen", np.int8, (N_PLAYERS, 2)),
    # --- branch tdabF: copied abilities (possess.py) ---
    # int16[40] the unit profile whose ability the unit acquired until the end of this
    # Player's Turn (Learn, TD-22.2.166, R134), -1 none; read through units.ability_count /
    # units.ability_prof by every scan of a unit's abilities
    ("unit_ab_copy", np.int16, (N_UNIT_IDS,)),
    # int16[40] the space of the Shed Marker the unit is Locked in Combat with (its unit_lock
    # is LOCK_MARKER), -1 none (TD-22.2.127, R135; public)
    ("unit_shed_cell", np.int16, (N_UNIT_IDS,)),
    # --- branch tdabD: statuses and death inside procedures (guard.py) ---
    # int8[40] a Fearful Status the unit is acquiring, waiting for its player's Unwavering
    # roll (guard.ask_question, R104): 0 none, else its Turns (STATUS_PERMANENT: for good)
    ("gd_fear", np.int8, (N_UNIT_IDS,)),
    ("gd_row", np.int16, ()),  # int16 the Unwavering row whose roll it is (tb.ab_fear_row)
    ("gd_unit", np.int8, ()),  # int8 the unit whose Unwavering roll is asked, -1 none
    ("gd_seat", np.int8, ()),  # int8 S["current"] before that question, -1 not asked
    ("gd_stage", np.int8, ()),  # int8 the stage the question interrupted
    ("gd_go", np.int8, ()),  # int8 the GO_* hand-off it interrupted
    ("gd_q", np.int8, ()),  # int8 which question: guard.Q_FEAR or Q_DISCARD
    ("gd_disc", np.int8, (N_UNIT_IDS,)),  # int8[40] Items the unit must discard (R108)
    # int32[40] bit s: the unit ignores the effects of its Status s this Player's Turn (Soothe,
    # R106; read by units.has_flag, units.run_status_rows, combat.strength, pause.is_lucky)
    ("gd_ignore", np.int32, (N_UNIT_IDS,)),
    ("gd_pierce", np.int16, ()),  # int16 the space Pierce added to the area attacked, -1 (R107)
    # --- branch tdabE: attacks made by an ability (ability_attacks.py, R118-R119) ---
    ("aa_unit", np.int8, ()),  # int8 the unit an ability's Attack is to be made on, -1 none
    # int16 the space the ability's Attack in progress strikes (combat.resume_procedure's
    # area after a pause), -1 none
    ("aa_cell", np.int16, ()),
    # Chant (R118): the allies picked (int8[3], -1) and the Status each may discard (int8[3])
    ("aa_pick", np.int8, (AA_PICKS,)),
    ("aa_st", np.int8, (AA_PICKS,)),
    ("aa_n", np.int8, ()),  # int8 picks so far; a Status is asked after each ally
    # Autofire (R120): the unit whose Attack on the unit that ended its Movement Phase is in
    # progress (-1 none), and the bits of the units that made theirs on it already (uint64)
    ("aa_fire", np.int8, ()),
    ("aa_fired", np.uint64, ()),
    ("aa_sent", np.int8, ()),  # int8 Lob: the Item it sent to the Item Deck (R121), -1 none
    # int8 Steal: the D6 result its Loot Procedure in progress needs (R122), 0 none (then the
    # Loot is Item Phase 2's, with tb.loot_roll)
    ("aa_steal", np.int8, ()),
    # --- branch tdabJ: Guard for every death (guard.py, R105, R140) ---
    # int8[40] a Dead Status the unit is acquiring, waiting for the Guard question at the next
    # hand-off (units.guard_defers, guard.ask_question): 0 none, else 2 + the killer's seat
    # (1: no seat counts the kill)
    ("gd_die", np.int8, (N_UNIT_IDS,)),
    ("gd_die_by", np.int8, (N_UNIT_IDS,)),  # int8[40] the unit that caused it (fx_cause), -1
    # int8 the unit whose Dead Status units.kill gives now without asking (the Guard question
    # was answered: it dies), -1 none
    ("gd_die_now", np.int8, ()),
    # --- branch tdabI: Possess (possess.py, TD-22.2.147, R137-R139) ---
    # int8[40] the seat that controls the unit this Turn, -1 its owner (u // MAX_UNITS);
    # read through units.side_of by every allied/enemy check and every "whose decision"
    # (SIDE); army membership, slots, scoring and purchase stay the owner's (R137)
    ("unit_ctrl", np.int8, (N_UNIT_IDS,)),
    # --- branch tdabH: Floodplains (floodplains.py, R124, R136) ---
    # uint8[308] 1: the space is Water now, flooded by a Floodplains unit on actual Water
    # (TD-22.2.131); the battlefield's own terrain is tb.bf_terrain. Read through
    # grid.terrain; written by floodplains.refresh_flood only. Public (the observation).
    ("flood", np.uint8, (MAX_CELLS,)),
    ("flood_on", np.uint8, ()),  # uint8 1: some space of `flood` is set (a cheap refresh)
    # --- tdabG: Work Belt (work_belt.py, R109) ---
    ("wb_use", np.int8, ()),  # int8 the slot of the Item in a Use Item Procedure, -1 none
    ("wb_acq", np.int8, ()),  # int8 the unit whose full slot an acquired Item replaces, -1
    # --- tdbuy: Items bought with the army (STAGE_BUY_ITEM, setup.py; TD-6.1.1, R141) ---
    ("buy_item", np.int8, ()),  # int8 the Item being bought (STAGE_BUY_ITEM_UNIT), -1 none
    # int8 the ability (ability_count index m) of au_src whose aura row au_i is asked: two
    # members of a stack may share an ability, each asked (auras.ask_aura, R144)
    ("au_m", np.int8, ()),
]
STATE_DTYPE = np.dtype(STATE_FIELDS)

# eng_force (TD-20.8 Fearful, TD-20.18 Enraged)
FORCE_NONE = 0
FORCE_FLEE = 1  # must charge (else move) toward the nearest ally
FORCE_ADVANCE = 2  # must move or charge toward the closest enemy, and attack it on contact

# eff_next: the choice was noted during an Attack Procedure (Enraged's kill, R34) and is asked
# once the attack is over; the answer resumes the Combat Phase (combat.after_attack)
RESUME_AFTER_ATTACK = -1
# eff_next: the player picks the targets of the Engaged unit's "R: Attack Pro." ability
# (A_CELL + c, A_END once one is picked); the ability then replaces its Attack (effects.py)
RESUME_ABILITY = -2
# eff_next: then the Statuses its row lets the player choose (discard one / any: A_STATUS + s,
# A_END to stop), before the ability acts (R57)
RESUME_STATUS = -3
# eff_next (tdrest): the player picks the target space of a Ranged unit's ability placed as
# its Ranged Attack is (A_CELL + c): a Ranged dragon's breath (R88; fx_res holds RES_SPECIAL
# until it is made) or Gorgon Gaze's Attack Area (R89; held in pending_target meanwhile)
RESUME_PLACE = -4
# eff_next (tdabA): another unit's "may" row upon the Engaged unit's Engagement (Research,
# Doing Science, Dragon Flight): the Engaged unit's player answers (auras.py, R96)
RESUME_AURA = -5
# eff_next (tdabA): the choice an "R: Attack Pro." ability's successful roll gives its player
# (Hex: A_STATUS + s; Bite: A_SIDE + item slot), then the Combat Phase goes on (R98)
RESUME_CHOICE = -6
# eff_next (tdabA): combine the Spider Pack partner's Strength Ratings this Combat Phase?
# (A_ABILITY yes, A_END no; auras.ask_pack, R101)
RESUME_PACK = -7
# eff_next (tdabA): the unit that acquires the Status the first target discarded (Crystal
# Power: A_CELL + c; auras.ask_second, R102)
RESUME_PICK2 = -8

# eff_next (tdabC): the player chooses the Unit Type of the stack Alter was stacked under
# (A_TYPE + t, a type other than its own; eff_unit is that stack; control.py, R126)
RESUME_ALTER = -10
# eff_next (tdabC): the space Summon moves its picked unit to (A_CELL + c; control.py, R129)
RESUME_SUMMON = -11
# eff_next (tdabC): False Guide's target (eff_unit) makes a Movement Procedure this Player
# leads (A_CELL + c, A_END: it stays), then a Facing Procedure (A_FACE + d; R131)
RESUME_GUIDE = -12
RESUME_GUIDE_FACE = -13
# eff_next (tdabC): Nature Shape's unit (eff_unit) may act as one of its row's units
# (A_PIECE + i, units.yaml row i) or stay itself (A_END), asked on Engagement (R132)
RESUME_SHAPE = -14
# unit_ab_off bits (tdabC, control.py)
AB_OFF_BLIGHT = 1  # Ghoul Blight: until the unit is next Engaged (RA16, R127)
AB_OFF_CURSE = 2  # Curse: the stack it was stacked under, for the rest of the game
# eff_next (tdabB): Study: keep (A_END) or swap (A_TRADE) the top two Item Deck cards (R116)
RESUME_STUDY = -15
# eff_next (tdabB): Chemistry, Alchemy: the Item taken from the deck (A_PIECE + i, R117)
RESUME_DECK = -16
# eff_next (tdabF): Grapple Tentacle: this Player picks the next unit it pulls (A_CELL + its
# space), then the space it is pulled to (A_CELL + c; fx_pick[0] the unit; possess.py, R133)
RESUME_GRAPPLE = -17
RESUME_GRAPPLE_CELL = -18
# eff_next (tdabF): Learn: the unit whose ability the Engaged unit acquires (A_CELL + its
# space) or none (A_END), asked on its Engagement (possess.ask_learn, R134)
RESUME_LEARN = -19
# eff_next (tdabF): Shed: the unit that won its Escape (eff_unit) leaves a Marker on its
# space, Locked in Combat with the enemy fx_pick[0] (A_ABILITY), or none (A_END); R135
RESUME_SHED = -20
# unit_lock (tdabF): Locked in Combat with a Shed Marker (on unit_shed_cell), not a unit (R135)
LOCK_MARKER = N_UNIT_IDS
# eff_next (tdabE): Chant: an ally (A_CELL + c), then the Status it may discard (A_STATUS + s),
# up to AA_PICKS times; A_END stops (ability_attacks.py, R118)
RESUME_CHANT = -21
# eff_next (tdabE): Lob: its target (A_CELL + c), then the equipped Item it sends to the bottom
# of the Item Deck (A_PIECE + item) (ability_attacks.py, R121)
RESUME_LOB = -22
# eff_next (tdabE): Steal: the unit in direct contact it loots (A_CELL + c; R122)
RESUME_STEAL = -23

# fx_until: when a lasting ability effect ends
UNTIL_PROCEDURE = 1  # the Attack/Defend (and its Duel) in progress
UNTIL_DISENGAGED = 2  # its unit's Disengagement
UNTIL_TURN = 3  # the end of this Turn
UNTIL_THEN_APPLY = 4  # its unit's next Disengagement, when the row's Statuses are acquired
# tdabA: the end of the Combat Phase of the unit whose ability it is (fx_amount: that unit),
# when the row's Statuses are acquired (Petrifying Peck; auras.after_combat_phase, R97)
UNTIL_AFTER_COMBAT = 5
# fx_res: the outcome of the Attack/Defend in progress, read by the `after` rows' conditions
RES_KILLED = 1  # the defender acquired the Dead Status from it
RES_DUEL = 2  # a Duel Procedure followed
RES_RANGED = 4  # a Ranged Attack
RES_BACK = 8  # made against the defender's Back Strength Rating
RES_NEGATED = 16  # an ability negated the attack (it did not happen)
RES_ATT_KILLED_ENEMY = 32  # the attacker killed an enemy in this Attack Procedure
RES_ATT_WON = 64  # the attack result beat the defence (whether or not the defender died)
RES_SPECIAL = 128  # a special attack of an ability (a breath: its Base Strength, no Duel, R56)
RES_NO_LOCK = 256  # an ability won it with no Combat Lock (Outsmart)
RES_FRONT = 512  # tdabE: Voodoo Doll: the target's Front against its own Front (R119)
RES_AUTOFIRE = 1024  # tdabE: Autofire's Attack: the attacker may not start a Duel (R120)
# unit_uses counters
USE_COMBAT_ABILITY = 0  # its "D: Combat Pha." ability was used in this Engagement (R55)
USE_ATTACKS = 2  # tdrest: its Attacks in this Engagement (Beast Whisperer's second, R93)
USE_DISENGAGED = 1  # tdrest: times it was Disengaged, at most 3 (Hatch's 2 counters, RA13)

# eng_procedure
PROC_NONE = 0
PROC_MOVE = 1  # a Movement Procedure was made (Facing may still follow)
PROC_CHARGE = 2  # a Charging Procedure (the Movement Phase ended)
PROC_ESCAPED = 3  # a won Escape Procedure: movement may follow, no Combat Phase


NEG_ONE_FIELDS = (  # index fields whose 'none' is -1
    "unit_member",
    "unit_cell",
    "unit_item",
    "unit_lock",
    "unit_team",
    "unit_team_side",
    "team_action",
    "cell_unit",
    "engaged",
    "pending_target",
    "deploy_unit",
    "eff_unit",
    "deck",
    "fx_row",
    "fx_unit",
    "fx_cause",
    "fx_att",
    "fx_def",
    "fx_dead",
    "fx_dead_by",
    "fx_pick",
    "buy_member",
    "pz_a",
    "pz_d",
    "pz_target",
    "pz_row",
    "pz_src",
    "pz_use_row",
    "pz_use_src",
    "pz_use_arg",
    "pz_bread_unit",
    "unit_root_decl",
    "unit_no_attack",
    "unit_shape",
    "trail_unit",
    "deck_seen",
    "first_player",
    "roll_winner",
    "winner",
    "au_src",
    "au_pend_row",
    "au_pend_unit",
    "au_seat",
    "au_dg_unit",
    "au_dg_seat",
    "au_pack",
    "au_pick2",
    "unit_ab_copy",
    "unit_shed_cell",
    "gd_unit",
    "gd_seat",
    "gd_pierce",
    "aa_unit",
    "aa_cell",
    "aa_pick",
    "aa_st",
    "aa_fire",
    "aa_sent",
    "gd_die_by",  # tdabJ
    "gd_die_now",
    "unit_ctrl",
    "wb_use",
    "wb_acq",
    "buy_item",
)


def allocate(n: int) -> np.ndarray:
    """A batch of n zeroed records with the 'none' markers set (not a started game)."""
    return empty_states(STATE_DTYPE, n, NEG_ONE_FIELDS, num_players=N_PLAYERS)


def owner_of(u: int) -> int:
    """Seat owning unit id u (Python side; kernels write u // MAX_UNITS)."""
    return u // MAX_UNITS
