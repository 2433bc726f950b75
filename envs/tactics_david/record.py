"""The Tactics David tables record (`tb`): the loaded tables as one numpy record of fixed-size
arrays, the single pointer the kernels take (like envs/tactica/tables.py's record).

Built once from ``tables.load_tables()`` by :func:`build_record`. Arrays are padded to the
capacities below. Battlefield maps are stacked by battlefield index and flattened to Grid Space
numbers (``cell = row * cols + col``, state.py); a space's terrain is the type its Terrain Piece
counts as, if any (the Bridge counts as Road, TD-26.2). The env's options are record fields
(``opt_*``): a copy of the record with other options is another game.
"""

from __future__ import annotations

import numpy as np

from envs.tactics_david import army as A
from envs.tactics_david import tables as T
from envs.tactics_david.state import MAX_CELLS, MAX_DECK, MAX_PROFILE_SLOTS, MAX_UNITS, N_STATUSES

MAX_PROFILES = 256  # units.yaml rows (202)
MAX_AREAS = 24  # attack_areas.yaml rows (20)
MAX_TERRAINS = 8  # terrain_types.yaml rows (4)
MAX_BATTLEFIELDS = 4  # battlefields.yaml rows (2)
N_MOVEMENT_TYPES = 4
N_CLASSES = 3
N_UNIT_TYPES = 3
MAX_OFFERS = 4096  # pieces an army slot may hold: 202 singles and the legal stacks (army.py)
MAX_FAMILIES = 16  # Root families (11)

MATCH_NORMAL = 0  # tables.MATCHUPS order
MATCH_REPLACE_D3 = 1
MATCH_ADD_D3 = 2
MATCH_CANNOT_DIE = 3
CHARGE_FREE = 0  # tables.CHARGE_RULES order
CHARGE_WITHIN_ONLY = 1
CHARGE_NEVER = 2
ATTACK_SIDE_FRONT = 0  # tables.ATTACK_SIDES order
ATTACK_SIDE_ANY = 1
MAX_ITEMS = 32  # items.yaml rows (23)
N_ACQ = 3  # rules.yaml item_acquisition rows
USE_PASSIVE = T.ITEM_USES.index("passive")
USE_PROCEDURE = T.ITEM_USES.index("use_item_procedure")
USE_ANY_TIME = T.ITEM_USES.index("any_time")
USE_OWNER_TURN = T.ITEM_USES.index("start_of_owner_turn")
TARGET_SELF = T.ITEM_TARGETS.index("self")
TARGET_ADJACENT = T.ITEM_TARGETS.index("adjacent")
TARGET_SELF_OR_ADJACENT = T.ITEM_TARGETS.index("self_or_adjacent")
N_SPECIALS = 3  # specials.yaml rows
SP_SWARM = T.SPECIAL_EFFECTS.index("swarm_stack_loses_one_unit")
SP_RELENTLESS = T.SPECIAL_EFFECTS.index("engaged_while_dead")
SP_HULKING = T.SPECIAL_EFFECTS.index("charge_capped_at_base_movement")
MAX_STATUS_ROWS = 4  # effect rows of one status (Petrified has 4)
# status triggers and effect kinds: indices of tables.STATUS_TRIGGERS / STATUS_EFFECTS
TRIG_ALWAYS = T.STATUS_TRIGGERS.index("always")
TRIG_ENGAGEMENT = T.STATUS_TRIGGERS.index("on_engagement")
TRIG_BEFORE_DISENGAGEMENT = T.STATUS_TRIGGERS.index("before_disengagement")
TRIG_END_OF_TURN = T.STATUS_TRIGGERS.index("end_of_each_turn")
TRIG_ENEMY_KILLED = T.STATUS_TRIGGERS.index("on_enemy_killed")
EFF_DISENGAGE = T.STATUS_EFFECTS.index("disengage")
EFF_NO_COMBAT_PHASE = T.STATUS_EFFECTS.index("no_combat_phase")
EFF_ACQUIRE_DEAD = T.STATUS_EFFECTS.index("acquire_dead")
EFF_FLEE = T.STATUS_EFFECTS.index("flee_to_nearest_ally")
EFF_DISCARD_SELF = T.STATUS_EFFECTS.index("discard_self")
EFF_ADD_ROLL_MOVE = T.STATUS_EFFECTS.index("add_roll_to_base_movement")
EFF_ADVANCE = T.STATUS_EFFECTS.index("advance_on_nearest_enemy")
EFF_ROTATE = T.STATUS_EFFECTS.index("rotate_clockwise_by_roll")
MODE_MELEE = 0
MODE_RANGED = 1
# The abilities whose every row the interpreter carries out (docs/rules/tactics_david.md,
# TD-22.2.n "implemented"; tests/tactics_david/test_td_ability_rules.py checks the three agree).
# The others do nothing yet: an ability acting by half its rows would play a rule the seed
# does not have (a breath's Status after every attack, say).
IMPLEMENTED_ABILITIES = (
    "Cry For Help",
    "Vigor",
    "Holy Might",
    "Deus Ex Machina",
    "Blood Frenzy",
    "Deathly Miasma",
    "Bone Snap",
    "Battle Cry",
    "Ninjacute",
    "Vikingcide",
    "On The Run",
    "Sure Strike",
    "Parry",
    "Duel Striker",
    "Duel Defender",
    "Reinforce",
    "Fortify",
    "Steamroller",
    "Hit The Wall",
    "Beast Friend",
    "Trapped!",
    "Gone Wild",
    "Beast Slayer",
    "Piratecide",
    "Exit Wound",
    "Supervised",
    "Synchronize",
    "Force Field",
    "Growth",
    "Static Wave",
    "Brown Nosing",
    "Just Mud",
    "Resilient",
    "Indestructable",
    "Titan Armor",
    "Moon Rage",
    "Rabies",
    "Cold Blooded",
    "Stoupid Strong",
    "Ignore Consequence",
    "Unholy Strength",
    "Flash Flood",
    "Tidal Shield",
    "Flock",
    "Three Heads",
    "Harvest Moon Rage",
    "Blizzard",
    "Spirits Cry",
    "Razor's Charge",
    "Sprint",
    "Whiptail",
    "Squeeze",
    "Vicious Snapper",
    "Tail Whip",
    "Haunt",
    "Chill",
    "Counter Clause",
    "Black Disease",
    "Plague",
    "Oil Spurt",
    "Pulverize",
    "Dissolve Composure",
    "Loss of Kin",
    "Carapace",
    "Swarm Call",
    "Bug Zapper",
    "Fire Flight",
    "Dragon Might",
    "Dragon Rage",
    "Tricked",
    "Enchanting",
    "Preservatives",
    "Black Magic",
    "Summoning Spell",
    "Natural Fury",
    "Bio Re-Engineering",
    "Sprite Spirit",
    "Fairy Flame",
    "Impish Bulk",
    "Lightning Cry",
    "Venom",
    "Nightmare",
    "CURSE",
    "Micro Shine",
    "Random Cannon",
    "EEK!",
    "Acid Shock",
    "Weird Cloud Bomb",
    "Holy Guidance",
    "Reckless",
    "Transpose",
    "Slither",
    "Super Serial",
    "Divine Justice",
    "Skewer",
    "Feast",
    "Soul Reap",
    "Oblivious",
    "Cute and Cuddly",
    # "D: Combat Pha." abilities used besides the Attack (R55)
    "Manipulation",
    "Mind's Eye",
    "Fit of Laughter",
    "Island Spring",
    "Dispel",
    "Venom Web",
    "Acid Web",
    "Web",
    "Picking up the Pieces",
    "Repair",
    "Bandages",
    "Rectify",
    # the melee breaths: a special attack, then its Statuses (R56)
    "Frost Breath",
    "Glacial Breath",
    "Sandstorm Breath",
    "Erosion Breath",
    "Bright Breath",
    "Radiant Breath",
    "Outsmart",
    # the Ranged Hit Procedure's own dice (R58)
    "Perfect Shot",
    "Headshot",
    "Vampiric Aura",
    "Overwhelm",
    "Ink Shot",
    "Alerted",
    # Unit Teams (branch tdteams, teams.py)
    "Carry",
    "Ride",
    "Ride the Lightning",
    "Circumvent",
    "Teamwork?",
    "Partners?",
    # tdrest: the Ranged dragons' breaths, a Ranged Attack on a picked space (R88)
    "Flame Breath",
    "Magma Breath",
    "Toxic Breath",
    "Nightmare Breath",
    "Gorgon Gaze",  # its Ranged Area placed on a picked space (R89)
    # tdrest: a unit replaced by another (replace.py; R90, I39)
    "Raise Dead",
    "Polymorph",
    "Grave Riser",
    "Infect",
    "Hatch",  # counted Disengagements, H_DISENGAGED (RA13)
    "Ctrl Alt Del",  # Engaged while Dead (R91)
    "Dungball",  # the spaces moved this Engagement (eng_moved, R92)
    "Beast Whisperer",  # a second Attack (effects.attack_twice, R93)
    # tdpause: "may" rows asked inside a procedure (STAGE_PAUSE, pause.py, R72)
    "Sword Dance",
    "Phase Shift",
    "Slip",
    "Impenetrable",
    "Warning Signs",
    "Target Practice",
    # tdpause: type changes in the Attack/Defend contest (combat.matchup_types, R76)
    "Blob Wall",
    "Assassinate",
    "Chimaeric Reaction",
    # tdpause: units that may not be attacked (effects.attack_prohibited, R77)
    "Oversized",
    "Climb Tree",
    "Maneuver",
    # tdabA: another unit's "may" rows upon the Engaged unit's Engagement (auras.py, R96)
    "Research",
    "Doing Science",
    "Dragon Flight",
    # tdabA: a Status after the unit's Combat Phase (auras.after_combat_phase, R97)
    "Petrifying Peck",
    # tdabA: a choice once the ability's roll succeeded (auras.ask_pending, R98)
    "Hex",
    "Bite",
    # tdabA: the target's player may discard Dead or Petrified (auras.ask_pending, R99)
    "Recover",
    # tdabA: Downgrade's "may" once its unit is Dead (auras.ask_downgrade, R100)
    "Downgrade",
    # tdabA: Spider Pack's "may combine" (auras.ask_pack, combat.strength, R101)
    "Spider Pack",
    # tdabA: Crystal Power's second target (auras.ask_second, R102)
    "Crystal Power",
    # tdabA: Make Bread's Giant's Bread (status_acquired, item may_equip; R103)
    "Make Bread",
    # tdabC: stacking under an enemy unit, disabled abilities (control.py, R125-R127)
    "Host",
    "Curse",
    "Alter",
    "Ghoul Blight",
    "Nature Shape",  # a Hound, Wolf or Bear until its next Engagement (RESUME_SHAPE, R132)
    "False Guide",  # moves and turns an enemy (RESUME_GUIDE, RESUME_GUIDE_FACE, R131)
    "Blood Sacrifice",  # two picks, one per row (effects.pick_row, R130)
    "Summon",  # its unit's space picked after the unit (RESUME_SUMMON, R129)
    "Hired Hit",  # its Root declared at the start of the first Turn (STAGE_DECLARE, RA5)
    # tdabB: trails (trails.py, R110-R112)
    "Mucous Trail",
    "Stainy Trail",
    "Icy Trail",
    "Stinging Trail",
    "Toxic Trail",
    "Inventory Invention",  # tdabB: Item Acquisition as with 3 kills (items.py, R113)
    "Manuever",  # tdabB: a charge along any path, then another Facing (R114)
    "Forager",  # tdabB: Forest does not change its movement; +1 from it (R115)
    "Study",  # tdabB: the top two Item Deck cards seen and kept or swapped (R116)
    "Chemistry",  # tdabB: an Expendable Item taken from the Item Deck (R117)
    "Alchemy",  # tdabB: an equipped Item swapped for one of its Type in the deck (R117)
    # tdabF: forced moves, copying, terrain, control (possess.py, R133-R139)
    "Grapple Tentacle",  # pulls every unit within 3 next to it, in this Player's order (R133)
    "Learn",  # another unit's ability until the end of the Turn (units.ability_prof, R134)
    "Shed",  # wins its Escape; a Marker left Locked with the enemy (LOCK_MARKER, R135)
    # tdabD: statuses and death inside procedures (guard.py)
    "Unwavering",  # its allies' roll against Fearful, asked before Fearful acts (R104)
    "Guard",  # an ally's death in an Attack taken on as Paralyzed or Frozen (R105)
    "Soothe",  # the target's player picks Statuses whose effects it ignores this Turn (R106)
    "Pierce",  # the unit behind a killed defender defends against another Attack (R107)
    "Incineration",  # the attacked unit's player picks the Items it discards (R108)
    # tdabE: attacks and Ranged Hits made by an ability (ability_attacks.py, R118-R119)
    "Voodoo Doll",
    "Chant",
    "Autofire",  # in the mover's Turn, at the end of its Movement Phase (R120)
    "Lob",  # its target, then the Item it sends to the deck (RESUME_LOB, R121)
    "Steal",  # a Loot Procedure on a unit in contact, 2+ (RESUME_STEAL, R122)
    # tdabI: control of an enemy unit for a Turn (unit_ctrl, units.side_of; possess.py)
    "Possess",  # this Player's until its Turn ends, Engaged by its space (R137-R139)
    # tdabH: terrain that changes (floodplains.py)
    "Floodplains",  # counts as on Water; floods around its actual Water (R124, R136)
    "Work Belt",  # tdabG: a second Item slot per Type (PERM_ITEM_BELT, work_belt.py, R109)
)
MAX_AB_ROWS = 288  # abilities.yaml effect rows (270)
# tb.ab_types bits (tdpause): an ability that changes a type for the Attack/Defend contest
TYPES_MATCH_ATTACKER = 1  # in its Defend its Unit Type is the attacker's Attack Type (Blob Wall)
TYPES_ASSASSINATE = 2  # in its Attack its Attack Type cycles by the defender's (Assassinate)
# Hooks: the moments the rules kernels call effects.run_hook / collect_modifiers at (the
# design in docs/rules/tactics_david.md, "The effect interpreter"); _ability_rows sorts every
# row into the hooks it can fire at, so a hook scans only its own rows.
H_BEFORE_ATTACK = 0  # before the Attack Procedure (this unit attacks)
H_BEFORE_DEFEND = 1  # before the Defend Procedure (this unit defends)
H_BEFORE_ESCAPE = 2  # before an Escape Procedure (On The Run)
H_AFTER_ATTACK = 3  # after an Attack Procedure (and the `during` rows that change the state)
H_AFTER_DEFEND = 4  # after a Defend Procedure (idem)
H_AFTER_DUEL = 5  # after a Duel Procedure (idem)
H_ENGAGE = 6  # after this unit's Engagement; also before Movement/Charge (R39)
H_ENGAGE_AURA = 7  # `always` rows "upon their Unit Engagement" of other units
H_END_TURN = 8  # at the end of either player's Turn
H_DEAD = 9  # after this unit acquired the Dead Status
H_MOD = 10  # modifiers of Attack/Defend/Duel/Escape: `during` and `always` rows
H_IMMUNE = 11  # status immunities (`always`)
H_REPLACES = 12  # "R: Attack Pro.": the ability used instead of the Attack (STAGE_COMBAT)
H_LOCK = 13  # before a Combat Lock forms between this unit and an enemy (Feast, RA9)
H_COMBAT = 14  # "D: Combat Pha.": used once in its Combat Phase besides its Attack (R55)
H_AFTER_BREATH = 15  # after each defender's Attack of a special attack (the breaths, R56)
H_RANGED_HIT = 16  # during this unit's Ranged Hit Procedure (Perfect Shot, Headshot; R58)
H_AFTER_AURA = 17  # after any unit's Attack that killed an enemy: other units' auras (R59)
# branch tdteams: before the Engaged unit is Disengaged (Teamwork?, Partners?: R86)
H_BEFORE_DISENGAGE = 18
H_DISENGAGED = 19  # tdrest: after this unit's Disengagement (Hatch, RA13)
N_HOOKS = 20
# ab_team bits (branch tdteams): what an ability does to its unit's Unit Team (teams.py)
TEAM_CARRY = 1  # Carry: the partner has the Soar Movement Type while in the Team
TEAM_RIDE = 2  # Ride, Ride the Lightning: the partner has this unit's Movement Rating
TEAM_CIRCUMVENT = 4  # Circumvent: this unit chooses which member of a Team it attacks
TEAM_ANY_PATH = 8  # Ride the Lightning: its Team's charge need not be a straight line
TEAM_PACK = 16  # tdabA: Spider Pack: the partner may combine this unit's Strength (R101)
# ab_perm bits: the `permission` modes of an ability's unconditional rows about its own unit
PERM_ATTACK_AFTER_MOVE = 1  # Reckless: attacks (a Ranged Attack too) after moving
PERM_THROUGH_PIECES = 2  # Transpose: moves through (not onto) Terrain Pieces
PERM_CHARGE = 4  # Transpose: may Charge whatever its Movement Type
PERM_CHARGE_WATER = 8  # Slither: charges through Water onto other terrain
PERM_ENGAGE_DEAD = 16  # tdrest: Ctrl Alt Del: may be Engaged with the Dead Status (R91)
PERM_CHARGE_ANY_PATH = 32  # tdabB: Manuever: its charge need not be a straight line (R114)
PERM_IGNORE_FOREST = 64  # tdabB: Forager: Forest does not change its movement (R115)
PERM_FLOOD = 128  # tdabH: Floodplains: counts as on Water, floods around it (floodplains.py)
PERM_ITEM_BELT = 256  # tdabG: Work Belt: holds up to 2 Items of each Type (work_belt.py, R109)
PERMISSION_BITS = {
    "attack_after_move": PERM_ATTACK_AFTER_MOVE,
    "move_through_terrain_pieces": PERM_THROUGH_PIECES,
    "charge_allowed": PERM_CHARGE,
    "charge_through_water": PERM_CHARGE_WATER,
    "engage_while_dead": PERM_ENGAGE_DEAD,
    "charge_any_path": PERM_CHARGE_ANY_PATH,
    "ignore_forest": PERM_IGNORE_FOREST,
}
# tdabB: the kills Inventory Invention's Item Acquisition counts as (its mode's name, R113)
INVENTION_KILLS = 3
MAX_HOOK_ROWS = 512  # hook entries (a row may sit in two hooks)
AXIS_EAST_WEST = 0  # tables.BRIDGE_AXES order
AXIS_NORTH_SOUTH = 1

# what the turn-limited variant scores (TD-4.3: "scored by kills or by the Purchase Cost of the
# player's Units without the Dead Status"; option turn_score, I30)
SCORE_COST = 0  # the Purchase Cost of each seat's units in play (I8, the default)
SCORE_KILLS = 1  # the enemy units each seat has killed

TD_TABLE_FIELDS = [
    # --- units.yaml profiles (TD-3, TD-22) ---
    ("n_profiles", np.int16, ()),  # rows used in the u_* arrays (202)
    ("u_strength", np.int8, (MAX_PROFILES, 4)),  # [N, F/L/R/B] base Strength Ratings
    ("u_class", np.int8, (MAX_PROFILES,)),  # [N] 0 Light, 1 Medium, 2 Heavy
    ("u_type", np.int8, (MAX_PROFILES,)),  # [N] Unit Type (tables.UNIT_TYPES)
    ("u_mode", np.int8, (MAX_PROFILES,)),  # [N] MODE_MELEE / MODE_RANGED
    ("u_move", np.int8, (MAX_PROFILES,)),  # [N] Movement Rating
    ("u_mtype", np.int8, (MAX_PROFILES,)),  # [N] Movement Type (tables.MOVEMENT_TYPES)
    ("u_range", np.int8, (MAX_PROFILES,)),  # [N] Range Rating, -1 Melee
    ("u_rmod", np.int8, (MAX_PROFILES,)),  # [N] Range Modifier (0 when blank)
    ("u_area", np.int8, (MAX_PROFILES,)),  # [N] Attack Area (attack_areas.yaml index)
    ("u_special", np.int8, (MAX_PROFILES,)),  # [N] Special, -1 none
    ("u_cost", np.int16, (MAX_PROFILES,)),  # [N] Purchase Cost
    ("u_family", np.int8, (MAX_PROFILES,)),  # [N] Root family (unit_tree.yaml)
    ("min_cost", np.int16, ()),  # the cheapest unit's Purchase Cost
    # --- attack areas (TD-24; cells [forward, right]) ---
    ("area_n_cells", np.int8, (MAX_AREAS,)),  # [A] cells used
    ("area_cells", np.int8, (MAX_AREAS, T.MAX_AREA_CELLS, 2)),  # [A, 9, 2] offsets
    ("area_ranged", np.uint8, (MAX_AREAS,)),  # [A] 1 = cells relative to the target space
    ("area_continues", np.int8, (MAX_AREAS, 2)),  # [A, 2] ray direction after the last cell
    ("area_ma", np.int8, ()),  # index of MA (the Ranged Melee Procedure's area, TD-10.5)
    # --- terrain types (TD-2.5-2.14) ---
    ("t_move_mod", np.int8, (MAX_TERRAINS,)),  # [T] Movement Rating modifier
    ("t_range_mod", np.int8, (MAX_TERRAINS,)),  # [T] Range Rating modifier
    ("t_def_base", np.int8, (MAX_TERRAINS,)),  # [T] base defending die sides (6, Road 4)
    ("t_def_extra", np.int8, (MAX_TERRAINS,)),  # [T] extra defending die sides, 0 none
    ("t_slow", np.uint8, (MAX_TERRAINS, N_MOVEMENT_TYPES)),  # [T, M] Slow for that type
    ("t_charge", np.int8, (MAX_TERRAINS,)),  # [T] CHARGE_*
    ("t_blocks_los", np.uint8, (MAX_TERRAINS,)),  # [T] blocks Line of Sight (Forest)
    ("t_edge_only", np.uint8, (MAX_TERRAINS,)),  # [T] Ranged Attacks only from its edge
    ("t_soar_dead", np.uint8, (MAX_TERRAINS,)),  # [T] bit r: a Soar unit ending here dies on r
    # --- movement types, classes, unit types ---
    ("m_pass_over", np.int8, (N_MOVEMENT_TYPES,)),  # [M] highest piece it may move over
    ("m_occupy", np.int8, (N_MOVEMENT_TYPES,)),  # [M] highest piece it may stop on
    ("m_may_charge", np.uint8, (N_MOVEMENT_TYPES,)),  # [M] may perform a Charge Procedure
    ("m_off_water", np.int8, (N_MOVEMENT_TYPES,)),  # [M] modifier when Engaged off Water
    ("class_ranged_melee", np.int8, (N_CLASSES,)),  # [C] Ranged Melee strength (TD-10.5)
    ("type_attack_side", np.int8, (N_UNIT_TYPES,)),  # [3] ATTACK_SIDE_* by Attack Type
    ("matchup", np.int8, (N_UNIT_TYPES, N_UNIT_TYPES)),  # [attack type, defender type] MATCH_*
    ("water_terrain", np.int8, ()),  # index of Water (Aqua, Soar rules)
    ("status_dead", np.int8, ()),  # index of the Dead Status
    ("status_fearful", np.int8, ()),  # index of Fearful
    ("status_feared", np.int8, ()),  # index of Feared (Mask of Fear counts as it)
    ("type_magical", np.int8, ()),  # Attack Type index of Magical (Reflective, TD-20.21)
    # --- statuses.yaml (TD-20): the rows, and per-status modifier columns derived from them ---
    ("st_afflicts", np.uint8, (N_STATUSES, N_UNIT_TYPES)),  # [S, type] may carry it (TD-20.23)
    ("st_cancels", np.int32, (N_STATUSES,)),  # [S] bit t: acquiring s discards t
    ("st_n_eff", np.int8, (N_STATUSES,)),  # [S] effect rows used
    ("st_trigger", np.int8, (N_STATUSES, MAX_STATUS_ROWS)),  # [S, R] TRIG_*
    ("st_die", np.int8, (N_STATUSES, MAX_STATUS_ROWS)),  # [S, R] die sides, 0 = no roll
    ("st_results", np.uint8, (N_STATUSES, MAX_STATUS_ROWS)),  # [S, R] bit r: result r fires
    ("st_kind", np.int8, (N_STATUSES, MAX_STATUS_ROWS)),  # [S, R] EFF_* (tables.STATUS_EFFECTS)
    ("st_amount", np.int8, (N_STATUSES, MAX_STATUS_ROWS)),  # [S, R] amount
    ("st_str_add", np.int8, (N_STATUSES,)),  # [S] added to base Strength Ratings (always rows)
    ("st_str_halve", np.uint8, (N_STATUSES,)),  # [S] base Strength Ratings halved
    ("st_str_double", np.uint8, (N_STATUSES,)),  # [S] base Strength Ratings doubled
    ("st_move_halve", np.uint8, (N_STATUSES,)),  # [S] base Movement Rating halved
    ("st_no_charge", np.uint8, (N_STATUSES,)),  # [S] no Charge Procedure
    ("st_no_own_attack", np.uint8, (N_STATUSES,)),  # [S] no attack of its own type
    ("st_no_lock", np.uint8, (N_STATUSES,)),  # [S] never Locked in Combat
    ("st_no_phases", np.uint8, (N_STATUSES,)),  # [S] no Movement, Combat or Item Phase
    ("st_reflect", np.uint8, (N_STATUSES,)),  # [S] reflects Magical attacks
    ("st_feared", np.uint8, (N_STATUSES,)),  # [S] adjacent enemies acquire Fearful (turn end)
    # --- battlefields, stacked (TD-26) ---
    ("n_battlefields", np.int8, ()),
    ("bf_rows", np.int16, (MAX_BATTLEFIELDS,)),
    ("bf_cols", np.int16, (MAX_BATTLEFIELDS,)),
    ("bf_terrain", np.int8, (MAX_BATTLEFIELDS, MAX_CELLS)),  # [B, C] terrain type it counts as
    ("bf_height", np.int8, (MAX_BATTLEFIELDS, MAX_CELLS)),  # [B, C] piece height, -1 no piece
    ("bf_bridge", np.uint8, (MAX_BATTLEFIELDS, MAX_CELLS)),  # [B, C] 1 = a Bridge (R18)
    ("bf_deploy", np.int8, (MAX_BATTLEFIELDS, MAX_CELLS)),  # [B, C] deploying seat, -1
    ("bf_axis", np.int8, (MAX_BATTLEFIELDS,)),  # [B] AXIS_* of its Bridges
    ("bf_limit", np.int16, (MAX_BATTLEFIELDS,)),  # [B] the suggested purchase limit's top
    # [B, seat] facing of a deployed unit: toward the other zone (R23)
    ("bf_deploy_facing", np.int8, (MAX_BATTLEFIELDS, 2)),
    ("n_items", np.int8, ()),  # items.yaml rows (23): one card each in the Item Deck (I10)
    # --- items.yaml (TD-19, TD-25): per-item columns derived from the effect rows ---
    ("it_type", np.int8, (MAX_ITEMS,)),  # [I] slot: 0 Weapon, 1 Accessory, 2 Expendable
    ("it_users", np.uint8, (MAX_ITEMS, N_CLASSES)),  # [I, class] may equip it (TD-19.3)
    ("it_user_type", np.int8, (MAX_ITEMS,)),  # [I] required Unit Type, -1 any
    ("it_user_mode", np.int8, (MAX_ITEMS,)),  # [I] required Attack Mode, -1 any
    ("it_use", np.int8, (MAX_ITEMS,)),  # [I] USE_* (tables.ITEM_USES)
    ("it_str_attack", np.int8, (MAX_ITEMS,)),  # [I] base strength added in Attack (and Duel)
    ("it_str_defend", np.int8, (MAX_ITEMS,)),  # [I] base strength added in Defend (and Duel)
    ("it_move", np.int8, (MAX_ITEMS,)),  # [I] added to the Movement Rating
    ("it_range", np.int8, (MAX_ITEMS,)),  # [I] added to the Range Rating
    ("it_enemy_rolls", np.int8, (MAX_ITEMS,)),  # [I] added to enemies' rolled results nearby
    ("it_enemy_radius", np.int8, (MAX_ITEMS,)),  # [I] ... within this many spaces
    ("it_attack_type", np.int8, (MAX_ITEMS,)),  # [I] Attack Type it sets, -1 none
    ("it_area", np.int8, (MAX_ITEMS,)),  # [I] Attack Area it sets, -1 none
    ("it_count_status", np.int32, (MAX_ITEMS,)),  # [I] bit s: holder counts as having s
    ("it_remove", np.int8, (MAX_ITEMS,)),  # [I] Statuses it removes, -1 all, 0 none
    ("it_remove_target", np.int8, (MAX_ITEMS,)),  # [I] ITEM_TARGETS index of the removal
    ("it_remove_only", np.int32, (MAX_ITEMS,)),  # [I] bits: only these (0 = any)
    ("it_remove_except", np.int32, (MAX_ITEMS,)),  # [I] bits: never these
    ("it_whip_root", np.int8, (MAX_ITEMS,)),  # [I] root family given an extra move, -1 none
    ("it_whip_radius", np.int8, (MAX_ITEMS,)),  # [I] ... within this many steps (Whip)
    ("it_choose_type", np.uint8, (MAX_ITEMS,)),  # [I] holder may pick its Unit Type (Amulet)
    ("sp_kind", np.int8, (N_SPECIALS,)),  # [3] SP_* of each specials.yaml row (TD-23)
    ("sp_statuses", np.int32, (N_SPECIALS,)),  # [3] bit s: Statuses the Special names
    ("loot_roll", np.int8, ()),  # D6 needed to Loot an enemy's Item (TD-11.2)
    ("trade_max_steps", np.int8, ()),  # orthogonal steps between Trade partners (gap + 1, I11)
    ("acq_kills", np.int8, (N_ACQ,)),  # [3] kills thresholds of Item Acquisition (TD-12.1)
    ("acq_roll", np.int8, (N_ACQ,)),  # [3] the D6 needed at that many kills
    # --- rules.yaml numbers ---
    ("charge_test_dice", np.int8, ()),
    ("charge_test_pass", np.int8, ()),
    ("stumble_dice", np.int8, ()),
    ("charge_roll_dice", np.int8, ()),
    ("attack_dice", np.int8, ()),
    ("defend_dice", np.int8, ()),
    ("duel_extra_dice", np.int8, ()),
    ("ranged_hit_dice", np.int8, ()),
    ("ranged_hit_min", np.int8, ()),
    ("los_block_height", np.int8, ()),
    ("strength_min", np.int8, ()),
    # --- the env's options ---
    ("opt_battlefield", np.int8, ()),  # battlefield played; -1 = a random one per game
    ("opt_purchase_limit", np.int16, ()),  # each army's limit; 0 = the battlefield's top
    ("opt_turn_limit", np.int16, ()),  # 0 = Deathmatch; else Turns, scored by cost (I8)
    ("opt_army", np.int8, ()),  # army.ARMY_*: free building or a Strict type (TD-6.2)
    ("opt_stacks", np.int8, ()),  # 1 = random armies buy Stacked Units too (TD-17, I25)
    ("opt_buy", np.int8, ()),  # 1 = the players build their armies (STAGE_BUY), 0 = random
    ("opt_turn_score", np.int8, ()),  # SCORE_COST / SCORE_KILLS: what a turn limit scores (I30)
    # --- army building (TD-6, TD-17; army.py): every piece an army slot may hold ---
    ("n_offers", np.int16, ()),  # pieces listed: n_profiles singles, then the stacks
    ("of_member", np.int16, (MAX_OFFERS, 3)),  # [O, 3] units.yaml rows, top first, -1
    ("of_n", np.int8, (MAX_OFFERS,)),  # [O] members: 1 single, 2-3 stacked
    ("of_cost", np.int16, (MAX_OFFERS,)),  # [O] Purchase Cost (stacks: sum + 6/+12, TD-17.3)
    ("of_class", np.int8, (MAX_OFFERS,)),  # [O] 0 Light, 1 Medium (Stacked), 2 Heavy (R4)
    ("u_parent", np.int16, (MAX_PROFILES,)),  # [N] parent on the unit tree, -1 a Root (I5)
    ("fam_root", np.int16, (MAX_FAMILIES,)),  # [F] each Root family's Root Unit (TD-21.1)
    ("n_families", np.int8, ()),
    ("class_points", np.int8, (N_CLASSES,)),  # stacking points per class (TD-17.1)
    ("strict_max_copies", np.int8, ()),  # TD-6.5
    ("strict_lights", np.int8, ()),  # Light Units each Medium needs (TD-6.4)
    ("strict_mediums", np.int8, ()),  # Medium Units each Heavy needs (TD-6.4)
    # --- abilities.yaml (TD-22.2): the effect rows (unit_tables eff_*), read by effects.py ---
    ("ab_active", np.uint8, (MAX_PROFILES,)),  # [N] 1 = implemented (IMPLEMENTED_ABILITIES)
    ("ab_not_dead", np.uint8, (MAX_PROFILES,)),  # [N] inactive while its unit is Dead
    ("ab_immune", np.int32, (MAX_PROFILES,)),  # [N] bit s: unconditional immunity to s
    ("ab_perm", np.int32, (MAX_PROFILES,)),  # [N] bit PERM_*: rules its own rows lift
    ("ab_alert", np.int8, (MAX_PROFILES,)),  # [N] Alerted's radius: enemies this near are
    # targets of its allies' Ranged Attacks whatever their Range Rating (R61); 0 none
    ("ab_fx_dead_immune", np.uint8, (MAX_PROFILES,)),  # [N] no Dead but from an Attack
    ("hk_start", np.int16, (N_HOOKS, MAX_PROFILES)),  # [H, N] first entry in hk_rows
    ("hk_count", np.int8, (N_HOOKS, MAX_PROFILES)),  # [H, N] rows of ability N at hook H
    ("hk_rows", np.int16, (MAX_HOOK_ROWS,)),  # rows, grouped by (hook, ability), in order
    ("r_ability", np.int16, (MAX_AB_ROWS,)),  # [R] the ability (= profile) owning the row
    ("r_first", np.int16, (MAX_AB_ROWS,)),  # [R] the ability's first row
    ("r_procs", np.int32, (MAX_AB_ROWS,)),  # [R] bit p: unit_tables.PROCEDURES[p]
    ("r_cond", np.int8, (MAX_AB_ROWS, 3)),  # [R, 3] CONDITIONS index, -1 none
    ("r_cond_bits", np.int64, (MAX_AB_ROWS, 3, 4)),  # [R, 3, 4] 256-bit set of the values
    ("r_roll", np.int8, (MAX_AB_ROWS,)),  # [R] ROLLS index
    ("r_compare", np.int8, (MAX_AB_ROWS,)),  # [R] COMPARES index
    ("r_thr", np.int8, (MAX_AB_ROWS,)),  # [R] threshold
    ("r_thr_hi", np.int8, (MAX_AB_ROWS,)),  # [R] threshold_high (between)
    ("r_shared", np.uint8, (MAX_AB_ROWS,)),  # [R] uses the previous row's roll
    ("r_each", np.uint8, (MAX_AB_ROWS,)),  # [R] one roll per selected unit
    ("r_sel", np.int8, (MAX_AB_ROWS,)),  # [R] SELECTORS index
    ("r_team", np.int8, (MAX_AB_ROWS,)),  # [R] TEAMS index
    ("r_self", np.uint8, (MAX_AB_ROWS,)),  # [R] include_self
    ("r_radius", np.int8, (MAX_AB_ROWS,)),  # [R] radius (orthogonal steps, RA1)
    ("r_max", np.int8, (MAX_AB_ROWS,)),  # [R] units the player picks, 0 = every one
    ("r_los", np.uint8, (MAX_AB_ROWS,)),  # [R] the picks need Line of Sight
    ("r_area", np.int8, (MAX_AB_ROWS,)),  # [R] Attack Area named by the row, -1 its own
    ("r_kind", np.int8, (MAX_AB_ROWS,)),  # [R] EFFECT_KINDS index
    ("r_mode", np.int8, (MAX_AB_ROWS,)),  # [R] index into the kind's own modes (0 = first)
    ("r_statuses", np.int32, (MAX_AB_ROWS,)),  # [R] bit s
    ("r_except", np.int32, (MAX_AB_ROWS,)),  # [R] bit s: except_statuses (never chosen/discarded)
    ("r_amount", np.int8, (MAX_AB_ROWS,)),  # [R] amount
    ("r_dice", np.int8, (MAX_AB_ROWS,)),  # [R] die sides, 0 none
    ("r_sides", np.int8, (MAX_AB_ROWS,)),  # [R] bit side: F/L/R/B the strength change hits
    ("r_duration", np.int8, (MAX_AB_ROWS,)),  # [R] DURATIONS index
    ("r_optional", np.uint8, (MAX_AB_ROWS,)),  # [R] "may": the player decides
    ("r_group", np.int8, (MAX_AB_ROWS,)),  # [R] choice group, 0 none
    ("r_noncum", np.uint8, (MAX_AB_ROWS,)),  # [R] not accumulative between sources
    # branch tdteams: a Team member whose partner became Dead acquires Fearful on 1 D6 below
    # this (TD-18.7, rules.yaml team_partner_dead_fearful_below)
    ("team_fearful_below", np.int8, ()),
    ("ab_team", np.int8, (MAX_PROFILES,)),  # [N] TEAM_* bits of its ability (branch tdteams)
    # tdrest
    ("r_unit", np.int16, (MAX_AB_ROWS,)),  # [R] the unit a replace_unit row brings (profile), -1
    ("r_dead_ok", np.uint8, (MAX_AB_ROWS,)),  # [R] its selector picks Dead units too: a
    # condition target_has_status Dead (Raise Dead, Grave Riser; R90); 2: Dead or not (R99)
    ("ab_twice_row", np.int16, (MAX_PROFILES,)),  # [N] its attack_twice row, -1 (R93)
    # tdpause (appended): the pauses inside a procedure (pause.py, R72)
    ("st_reroll", np.uint8, (N_STATUSES,)),  # [S] its holder may reroll one Procedure (Lucky)
    ("it_refuse", np.uint8, (MAX_ITEMS,)),  # [I] discards a Status as acquired (Giant's Bread)
    ("ab_types", np.uint8, (MAX_PROFILES,)),  # [N] TYPES_* bits: type changes in a contest
    ("type_cycle", np.int8, (N_UNIT_TYPES,)),  # [3] Assassinate's Attack Type by defender type
    ("r_utype", np.int8, (MAX_AB_ROWS,)),  # [R] the Unit Type a set_unit_type row sets, -1
    ("ab_prohibit", np.int16, (MAX_PROFILES,)),  # [N] its row forbidding attacks on it, -1
    ("ab_charge_face", np.uint8, (MAX_PROFILES,)),  # [N] another Facing after its charge
    # tdabA (appended)
    ("r_item", np.int16, (MAX_AB_ROWS,)),  # [R] the Item its `item` parameter names, -1
    # branch tdabB: trails (trails.py)
    ("ab_trail_row", np.int16, (MAX_PROFILES,)),  # [N] its trail_marker row, -1 none (R110)
    ("ab_acq_kills", np.int8, (MAX_PROFILES,)),  # [N] kills its Item Acquisition counts (R113)
    ("forest_terrain", np.int8, ()),  # index of Forest (Forager, PERM_IGNORE_FOREST)
    ("ab_study_row", np.int16, (MAX_PROFILES,)),  # [N] its look_top_two row, -1 (R116)
    # branch tdabD (guard.py)
    ("ab_fear_row", np.int16, (MAX_PROFILES,)),  # [N] its allies' roll against Fearful, -1 (R104)
    ("ab_guard_row", np.int16, (MAX_PROFILES,)),  # [N] its allies' death taken on, -1 (R105)
    ("ab_pierce", np.uint8, (MAX_PROFILES,)),  # [N] a kill adds the space behind (R107)
    ("status_paralyzed", np.int8, ()),  # index of Paralyzed (Guard)
    ("status_frozen", np.int8, ()),  # index of Frozen (Guard)
    # branch tdabE: its `extra_procedure` `attack` row (Autofire, ability_attacks.autofire), -1
    ("ab_autofire_row", np.int16, (MAX_PROFILES,)),
    # tdbuy: Items bought with the army (TD-6.1.1, R141, I40; setup.py)
    ("it_cost", np.int16, (MAX_ITEMS,)),  # [I] Purchase Cost: equipped to a unit while building
    ("opt_items", np.int8, ()),  # 1 = random armies buy Items too (I40), 0 = none
]
TD_TABLES_DTYPE = np.dtype(TD_TABLE_FIELDS)


def build_record(
    t: T.Tables,
    battlefield: int = 0,
    purchase_limit: int = 0,
    turn_limit: int = 0,
    army: int = 0,
    stacks: int = 0,
    buy: int = 0,
    turn_score: int = 0,
    items: int = 0,
) -> np.record:
    """The tables record of `t` with these options (a np.record: `tb` of the kernels).

    Raises ValueError naming the option or capacity a value breaks."""
    u = t.units
    if u is None:
        raise ValueError("the tables have no units (configs/tactics_david/units.yaml)")
    n = len(u.unit_names)
    for what, have, cap in (
        ("units", n, MAX_PROFILES),
        ("attack areas", len(t.area_names), MAX_AREAS),
        ("terrain types", len(t.terrain_names), MAX_TERRAINS),
        ("battlefields", len(t.battlefields), MAX_BATTLEFIELDS),
        ("statuses", len(t.status_names), N_STATUSES),
    ):
        if have > cap or (what == "statuses" and have != cap):
            raise ValueError(f"{have} {what} do not fit the capacity {cap}")
    if not -1 <= battlefield < len(t.battlefields):
        raise ValueError(f"battlefield {battlefield} not in -1..{len(t.battlefields) - 1}")
    if purchase_limit < 0:
        raise ValueError(f"purchase_limit {purchase_limit} is negative")
    if 0 < purchase_limit < int(u.cost.min()):
        raise ValueError(f"purchase_limit {purchase_limit} buys no unit (cheapest {u.cost.min()})")
    if turn_limit < 0:
        raise ValueError(f"turn_limit {turn_limit} is negative")
    min_cost = int(u.cost.min())
    top = max([purchase_limit, *_limits(t)])
    if top // min_cost > MAX_UNITS:
        raise ValueError(f"purchase limit {top} buys more than {MAX_UNITS} units")

    rec = np.zeros(1, dtype=TD_TABLES_DTYPE)
    r = rec[0]
    r["n_profiles"] = n
    r["u_strength"][:n] = u.strength
    r["u_class"][:n] = u.unit_class
    r["u_type"][:n] = u.unit_type
    r["u_mode"][:n] = u.attack_mode
    r["u_move"][:n] = u.movement_rating
    r["u_mtype"][:n] = u.movement_type
    r["u_range"][:n] = u.range_rating
    r["u_rmod"][:n] = u.range_modifier
    r["u_area"][:n] = u.attack_area
    r["u_special"][:n] = u.special
    r["u_cost"][:n] = u.cost
    r["u_family"][:n] = [t.tree_family[t.tree_index[name]] for name in u.unit_names]
    r["min_cost"] = min_cost

    na = len(t.area_names)
    r["area_n_cells"][:na] = t.area_n_cells
    r["area_cells"][:na] = t.area_cells
    r["area_ranged"][:na] = t.area_is_ranged
    r["area_continues"][:na] = t.area_continues
    r["area_ma"] = t.area_index["MA"]

    nt = len(t.terrain_names)
    r["t_move_mod"][:nt] = t.terrain_movement_modifier
    r["t_range_mod"][:nt] = t.terrain_range_modifier
    r["t_def_base"][:nt] = t.terrain_defend_base_sides
    r["t_def_extra"][:nt] = t.terrain_defend_extra_sides
    r["t_slow"][:nt] = t.terrain_slow[:, None] & ~t.terrain_slow_exempt
    r["t_charge"][:nt] = t.terrain_charge
    r["t_blocks_los"][:nt] = t.terrain_blocks_los
    r["t_edge_only"][:nt] = t.terrain_ranged_edge_only
    r["t_soar_dead"][:nt] = t.terrain_soar_dead_results
    r["m_pass_over"] = t.movement_pass_over_height
    r["m_occupy"] = t.movement_occupy_height
    r["m_may_charge"] = t.movement_may_charge
    r["m_off_water"] = t.movement_off_water_modifier
    r["class_ranged_melee"] = t.class_ranged_melee_strength
    r["type_attack_side"] = t.unit_type_attack_side
    r["matchup"] = t.matchup
    r["water_terrain"] = t.terrain_index["Water"]
    r["forest_terrain"] = t.terrain_index["Forest"]
    r["status_dead"] = t.status_index["Dead"]
    r["status_fearful"] = t.status_index["Fearful"]
    r["status_paralyzed"] = t.status_index["Paralyzed"]  # tdabD: Guard
    r["status_frozen"] = t.status_index["Frozen"]
    r["status_feared"] = t.status_index["Feared"]
    r["type_magical"] = T.UNIT_TYPES.index("Magical")
    phys, mag, eth = (T.UNIT_TYPES.index(x) for x in ("Physical", "Magical", "Ethereal"))
    r["type_cycle"][phys] = eth  # Assassinate: Physical -> Ethereal -> Magical -> Physical
    r["type_cycle"][eth] = mag
    r["type_cycle"][mag] = phys
    _status_rows(t, r)

    r["n_battlefields"] = len(t.battlefields)
    r["bf_height"][:] = -1
    r["bf_deploy"][:] = -1
    bridge = t.piece_index["Bridge"]
    for k, (bf, limit) in enumerate(zip(t.battlefields, _limits(t), strict=True)):
        rows, cols = bf.terrain.shape
        if rows * cols > MAX_CELLS:
            raise ValueError(f"battlefield {bf.name!r}: {rows}x{cols} exceeds {MAX_CELLS} spaces")
        r["bf_rows"][k] = rows
        r["bf_cols"][k] = cols
        piece = bf.piece.reshape(-1)
        terrain = bf.terrain.reshape(-1).copy()
        counts_as = np.where(piece >= 0, t.piece_terrain[np.maximum(piece, 0)], -1)
        terrain[counts_as >= 0] = counts_as[counts_as >= 0]
        r["bf_terrain"][k, : rows * cols] = terrain
        r["bf_height"][k, : rows * cols] = np.where(
            piece >= 0, t.piece_height[np.maximum(piece, 0)], -1
        )
        r["bf_bridge"][k, : rows * cols] = piece == bridge
        r["bf_deploy"][k, : rows * cols] = bf.deployment.reshape(-1)
        r["bf_axis"][k] = bf.bridge_axis
        r["bf_limit"][k] = limit
        r["bf_deploy_facing"][k] = _deploy_facing(bf.deployment)
        for p in (0, 1):
            room = int(((bf.deployment == p) & (bf.height <= 0)).sum())  # spaces units stand on
            if room < top // min_cost:
                raise ValueError(
                    f"battlefield {bf.name!r}: seat {p}'s Deployment area has {room} free spaces,"
                    f" fewer than the {top // min_cost} units a limit of {top} buys"
                )

    r["n_items"] = len(t.item_names)
    if len(t.special_names) != N_SPECIALS:
        raise ValueError(f"{len(t.special_names)} specials, expected {N_SPECIALS}")
    r["sp_kind"] = t.special_effect
    r["sp_statuses"] = t.special_statuses
    _item_columns(t, r)
    _ability_rows(t, r)
    rules = t.rules
    for name in (
        "charge_test_dice",
        "charge_test_pass",
        "stumble_dice",
        "charge_roll_dice",
        "attack_dice",
        "defend_dice",
        "duel_extra_dice",
        "strength_min",
    ):
        r[name] = getattr(rules, name)
    r["ranged_hit_dice"] = rules.ranged_hit_dice
    r["ranged_hit_min"] = rules.ranged_hit_min_result
    r["los_block_height"] = rules.line_of_sight_block_height
    r["team_fearful_below"] = rules.team_partner_dead_fearful_below
    r["opt_battlefield"] = battlefield
    r["opt_purchase_limit"] = purchase_limit
    r["opt_turn_limit"] = turn_limit
    if not 0 <= army < len(A.ARMY_TYPES):
        raise ValueError(f"army {army} not in 0..{len(A.ARMY_TYPES) - 1} {A.ARMY_TYPES}")
    if stacks not in (0, 1):
        raise ValueError(f"stacks {stacks} must be 0 or 1")
    r["opt_army"] = army
    r["opt_stacks"] = stacks
    if buy not in (0, 1):
        raise ValueError(f"buy {buy} must be 0 or 1")
    r["opt_buy"] = buy
    if turn_score not in (SCORE_COST, SCORE_KILLS):
        raise ValueError(
            f"turn_score {turn_score} must be {SCORE_COST} (cost) or {SCORE_KILLS} (kills)"
        )
    r["opt_turn_score"] = turn_score
    if items not in (0, 1):
        raise ValueError(f"items {items} must be 0 or 1")
    r["opt_items"] = items
    _army_columns(t, r)
    _bought_item_capacity(t, top, min_cost)
    return rec.view(np.recarray)[0]


def _army_columns(t: T.Tables, r) -> None:
    """The pieces an army may buy and the Strict rules' numbers (army.py; TD-6, TD-17)."""
    pieces = A.offers(t)
    if len(pieces) > MAX_OFFERS:
        raise ValueError(f"{len(pieces)} army pieces do not fit the capacity {MAX_OFFERS}")
    if len(t.family_names) > MAX_FAMILIES:
        raise ValueError(f"{len(t.family_names)} families do not fit the capacity {MAX_FAMILIES}")
    r["n_offers"] = len(pieces)
    r["of_member"][:] = -1
    for k, piece in enumerate(pieces):
        r["of_member"][k, : len(piece)] = piece
        r["of_n"][k] = len(piece)
        r["of_cost"][k] = A.piece_cost(t, piece)
        r["of_class"][k] = A.piece_class(t, piece)
    u = t.units
    r["u_parent"][:] = -1
    for i, name in enumerate(u.unit_names):
        parent = int(t.tree_parent[t.tree_index[name]])
        if parent >= 0:
            r["u_parent"][i] = u.unit_index[t.tree_names[parent]]
    r["n_families"] = len(t.family_names)
    r["fam_root"][:] = -1
    for f, node in enumerate(t.family_root):
        r["fam_root"][f] = u.unit_index[t.tree_names[int(node)]]
    r["class_points"] = t.class_stacking_points
    r["strict_max_copies"] = t.rules.strict_max_copies
    r["strict_lights"] = t.rules.strict_lights_per_medium
    r["strict_mediums"] = t.rules.strict_mediums_per_heavy


def _status_rows(t: T.Tables, r) -> None:
    """Copy statuses.yaml's effect rows into the st_* arrays and derive the per-status
    modifier columns the kernels read (`always` rows and the Feared/Reflective triggers)."""
    eff = T.STATUS_EFFECTS
    sides = [T.ROLL_SIDES[name] for name in T.ROLLS]
    for s in range(len(t.status_names)):
        lo, hi = int(t.status_effect_offset[s]), int(t.status_effect_offset[s + 1])
        if hi - lo > MAX_STATUS_ROWS:
            raise ValueError(
                f"status {t.status_names[s]!r}: {hi - lo} effect rows, capacity {MAX_STATUS_ROWS}"
            )
        r["st_afflicts"][s] = t.status_afflicts[s]
        r["st_cancels"][s] = sum(1 << int(x) for x in np.flatnonzero(t.status_cancels[s]))
        r["st_n_eff"][s] = hi - lo
        for k, e in enumerate(range(lo, hi)):
            kind = eff[int(t.status_eff_kind[e])]
            r["st_trigger"][s, k] = t.status_eff_trigger[e]
            r["st_die"][s, k] = sides[int(t.status_eff_roll[e])]
            r["st_results"][s, k] = t.status_eff_results[e]
            r["st_kind"][s, k] = t.status_eff_kind[e]
            r["st_amount"][s, k] = t.status_eff_amount[e]
            always = int(t.status_eff_trigger[e]) == TRIG_ALWAYS
            if always and kind == "add_base_strength":
                r["st_str_add"][s] += t.status_eff_amount[e]
            for field, name in (
                ("st_str_halve", "halve_base_strength"),
                ("st_str_double", "double_base_strength"),
                ("st_move_halve", "halve_base_movement"),
                ("st_no_charge", "no_charge"),
                ("st_no_own_attack", "no_attack_of_own_type"),
                ("st_no_lock", "no_combat_lock"),
                ("st_no_phases", "no_phases"),
            ):
                if always and kind == name:
                    r[field][s] = 1
            if kind == "reflect_magical_attack":
                r["st_reflect"][s] = 1
            if kind == "reroll_once_per_turn":
                r["st_reroll"][s] = 1
            if kind == "adjacent_enemies_acquire_fearful":
                r["st_feared"][s] = 1


def _item_columns(t: T.Tables, r) -> None:
    """items.yaml's effect rows as per-item columns (one mechanism per effect kind)."""
    ni = len(t.item_names)
    if ni > MAX_ITEMS:
        raise ValueError(f"{ni} items do not fit the capacity {MAX_ITEMS}")
    acq = t.rules.item_acquisition
    if len(acq) != N_ACQ:
        raise ValueError(f"rules.yaml item_acquisition has {len(acq)} rows, expected {N_ACQ}")
    r["acq_kills"] = [a.kills for a in acq]
    r["loot_roll"] = t.rules.loot_roll_at_least
    r["trade_max_steps"] = t.rules.trade_max_gap + 1
    r["acq_roll"] = [a.roll_at_least for a in acq]
    r["it_area"][:] = -1
    r["it_attack_type"][:] = -1
    r["it_whip_root"][:] = -1
    r["it_type"][:ni] = t.item_type
    r["it_users"][:ni] = t.item_users
    r["it_user_type"][:ni] = t.item_user_unit_type
    r["it_user_mode"][:ni] = t.item_user_attack_mode
    r["it_use"][:ni] = t.item_use
    r["it_cost"][:ni] = t.item_cost
    kinds = T.ITEM_EFFECTS
    procs = T.ITEM_PROCEDURES
    for i in range(ni):
        for e in range(int(t.item_effect_offset[i]), int(t.item_effect_offset[i + 1])):
            kind = kinds[int(t.item_eff_kind[e])]
            amount = int(t.item_eff_amount[e])
            if kind == "add_base_strength":
                proc = procs[int(t.item_eff_procedure[e])]
                if proc in ("attack", "any"):
                    r["it_str_attack"][i] += amount
                if proc in ("defend", "any"):
                    r["it_str_defend"][i] += amount
            elif kind == "add_movement":
                r["it_move"][i] += amount
            elif kind == "add_range":
                r["it_range"][i] += amount
            elif kind == "add_to_rolls":
                r["it_enemy_rolls"][i] = amount
                r["it_enemy_radius"][i] = t.item_eff_radius[e]
            elif kind == "set_attack_type":
                r["it_attack_type"][i] = t.item_eff_attack_type[e]
            elif kind == "set_attack_area":
                r["it_area"][i] = t.item_eff_attack_area[e]
            elif kind == "extra_movement_procedure":
                r["it_whip_root"][i] = t.item_eff_root[e]
                r["it_whip_radius"][i] = t.item_eff_radius[e]
            elif kind == "choose_unit_type":
                r["it_choose_type"][i] = 1
            elif kind == "refuse_acquired_status":
                r["it_refuse"][i] = 1
            elif kind == "count_as_status":
                r["it_count_status"][i] = t.item_eff_statuses[e]
            elif kind == "remove_statuses":
                r["it_remove"][i] = amount
                r["it_remove_target"][i] = t.item_eff_target[e]
                r["it_remove_only"][i] = t.item_eff_statuses[e]
                r["it_remove_except"][i] = t.item_eff_except_statuses[e]


def _ability_rows(t: T.Tables, r) -> None:
    """abilities.yaml's effect rows (unit_tables eff_*) as the r_* columns, and the per-hook
    row lists (hk_*): which rows of which ability can fire at each hook (module constants
    H_*). Condition values become 256-bit sets over their vocabulary (unit, root, status...)."""
    from envs.tactics_david import unit_tables as ut

    u = t.units
    n_rows = len(u.eff_trigger)
    if n_rows > MAX_AB_ROWS:
        raise ValueError(f"{n_rows} ability rows do not fit the capacity {MAX_AB_ROWS}")
    n = len(u.unit_names)
    vocab = {
        "unit": list(u.unit_names),
        "root": list(t.family_names),
        "attack_mode": list(ut.ATTACK_MODES),
        "unit_type": list(ut.UNIT_TYPES),
        "terrain": list(t.terrain_names),
        "status": list(t.status_names),
        "unit_class": list(ut.UNIT_CLASSES),
        "movement_type": list(ut.MOVEMENT_TYPES),
        "item_type": list(ut.ITEM_TYPES),
    }
    st_bits = {name: 1 << k for k, name in enumerate(t.status_names)}
    dice = {"none": 0, "1D3": 3, "1D4": 4, "1D6": 6}
    side_bits = {"all": 15, "front": 1, "flank_and_back": 14}
    proc = {p: k for k, p in enumerate(ut.PROCEDURES)}
    r["ab_not_dead"][:n] = u.ability_not_with_dead
    unknown = set(IMPLEMENTED_ABILITIES) - set(u.ability_names)
    if unknown:
        raise ValueError(f"IMPLEMENTED_ABILITIES names unknown abilities {sorted(unknown)}")
    r["ab_active"][:n] = [name in IMPLEMENTED_ABILITIES for name in u.ability_names]
    r["ab_prohibit"][:] = -1
    r["r_cond"][:] = -1
    r["ab_twice_row"][:] = -1
    r["ab_trail_row"][:] = -1
    r["ab_study_row"][:] = -1
    r["ab_fear_row"][:] = -1  # tdabD
    r["ab_guard_row"][:] = -1
    r["ab_autofire_row"][:] = -1
    r["r_cond_bits"][:] = 0
    for e in range(n_rows):
        for k in range(3):
            c = int(u.eff_condition[e, k])
            r["r_cond"][e, k] = c
            v = int(u.eff_condition_value[e, k])
            if c < 0 or v < 0:
                continue
            kind = ut.CONDITION_VALUE_KIND[ut.CONDITIONS[c]]
            for name in u.condition_values[v]:
                idx = int(name) if kind == "count" else vocab[kind].index(name)
                r["r_cond_bits"][e, k, idx // 64] |= np.int64(1) << np.int64(idx % 64)

    def statuses(bits: int) -> int:
        # unit_tables orders statuses as ut.STATUSES; the record as statuses.yaml
        return sum(st_bits[name] for k, name in enumerate(ut.STATUSES) if (bits >> k) & 1)

    hooks: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(N_HOOKS)]
    mod_kinds = {"strength_change", "strength_multiply", "dice_change", "auto_win"}
    special = ut.EFFECT_KINDS.index("special_attack")
    for a in range(n):
        lo, hi = int(u.effect_offset[a]), int(u.effect_offset[a + 1])
        # a breath (special_attack instead of the Attack): its `after` rows follow that attack
        # only, not the unit's ordinary Attacks (R56)
        breath = any(int(u.eff_kind[e]) == special for e in range(lo, hi))
        for e in range(lo, hi):
            trig = ut.TRIGGERS[int(u.eff_trigger[e])]
            kind = ut.EFFECT_KINDS[int(u.eff_kind[e])]
            mode = int(u.eff_mode[e])
            mode_name = ut.EFFECT_MODE_NAMES[mode] if mode >= 0 else ""
            procs = int(u.eff_procedures[e])
            has = {p for p in ut.PROCEDURES if (procs >> proc[p]) & 1}
            r["r_ability"][e] = a
            r["r_first"][e] = lo
            r["r_procs"][e] = procs
            r["r_roll"][e] = u.eff_roll[e]
            r["r_compare"][e] = u.eff_compare[e]
            r["r_thr"][e] = u.eff_threshold[e]
            r["r_thr_hi"][e] = u.eff_threshold_high[e]
            r["r_shared"][e] = u.eff_shared_roll[e]
            r["r_each"][e] = u.eff_roll_each[e]
            r["r_sel"][e] = u.eff_selector[e]
            r["r_team"][e] = u.eff_team[e]
            r["r_self"][e] = u.eff_include_self[e]
            r["r_radius"][e] = u.eff_radius[e]
            r["r_max"][e] = u.eff_max_targets[e]
            r["r_los"][e] = u.eff_line_of_sight[e]
            r["r_area"][e] = u.eff_attack_area[e]
            r["r_kind"][e] = u.eff_kind[e]
            r["r_mode"][e] = ut.EFFECT_MODES[kind].index(mode_name)
            r["r_statuses"][e] = statuses(int(u.eff_statuses[e]))
            r["r_except"][e] = statuses(int(u.eff_except_statuses[e]))
            r["r_amount"][e] = u.eff_amount[e]
            r["r_dice"][e] = dice[ut.DICE[int(u.eff_dice[e])]]
            r["r_sides"][e] = side_bits[ut.SIDES[int(u.eff_sides[e])]]
            r["r_duration"][e] = u.eff_duration[e]
            r["r_optional"][e] = u.eff_optional[e]
            r["r_group"][e] = u.eff_choice_group[e]
            r["r_noncum"][e] = u.eff_non_cumulative[e]
            r["r_unit"][e] = u.eff_unit[e]
            r["r_dead_ok"][e] = any(
                ut.CONDITIONS[int(u.eff_condition[e, k])] == "target_has_status"
                and "Dead" in u.condition_values[int(u.eff_condition_value[e, k])]
                for k in range(3)
                if int(u.eff_condition[e, k]) >= 0 and int(u.eff_condition_value[e, k]) >= 0
            )
            if kind == "discard_status" and r["r_statuses"][e] & st_bits["Dead"]:
                r["r_dead_ok"][e] = 2  # tdabA: Recover may target the Dead and the living (R99)
            r["r_utype"][e] = u.eff_unit_type[e]
            name = u.effect_items[e]  # tdabA: Make Bread's Giant's Bread (R103)
            r["r_item"][e] = t.item_names.index(name) if name is not None else -1
            if kind == "set_unit_type" and mode_name == "match_attacker":
                r["ab_types"][a] |= TYPES_MATCH_ATTACKER  # Blob Wall (read by the contest)
                continue
            if kind == "set_attack_type" and mode_name == "assassinate_cycle":
                r["ab_types"][a] |= TYPES_ASSASSINATE  # Assassinate (read by the contest)
                continue
            if kind == "extra_procedure" and mode_name == "facing" and has == {"Charge"}:
                r["ab_charge_face"][a] = 1  # Maneuver (movement.apply_move)
                continue
            if kind == "item" and mode_name == "acquisition_as_three_kills":
                r["ab_acq_kills"][a] = INVENTION_KILLS  # Inventory Invention (items.py, R113)
                continue
            if kind == "item" and mode_name == "capacity_two":
                r["ab_perm"][a] |= PERM_ITEM_BELT  # tdabG: Work Belt (work_belt.py, R109)
                continue
            if kind == "item" and mode_name == "look_top_two":
                r["ab_study_row"][a] = e  # Study (trails.ask_study, R116)
                continue
            if kind == "status_immunity" and "Acquiring Fearful Status" in has:
                r["ab_fear_row"][a] = e  # tdabD: Unwavering's allies (guard.ask_question, R104)
                continue
            if kind == "custom" and trig == "always" and not has:
                r["ab_perm"][a] |= PERM_FLOOD  # tdabH: Floodplains (floodplains.py, R124)
                continue
            if kind == "custom" and "Acquiring Dead Status" in has and trig == "before":
                r["ab_guard_row"][a] = e  # tdabD: Guard (guard.guard_offer, R105)
                continue
            if kind == "extra_procedure" and mode_name == "defend_again":
                r["ab_pierce"][a] = 1  # tdabD: Pierce (guard.pierce_cell, R107)
                continue
            if kind == "trail_marker":
                r["ab_trail_row"][a] = e  # the trails: read by trails.py (R110-R112)
                continue
            if kind == "attack_prohibited" and mode_name == "against_this_unit":
                r["ab_prohibit"][a] = e  # Oversized, Climb Tree (effects.attack_prohibited)
                continue
            contest = {"Attack", "Defend", "Duel", "Escape"}
            if kind == "set_movement_type" and int(u.eff_selector[e]) == ut.SELECTORS.index(
                "team_partner"
            ):
                r["ab_team"][a] |= TEAM_CARRY  # Carry (teams.team_mtype)
                continue
            if kind == "movement_change" and mode_name == "equal_to_this_unit":
                r["ab_team"][a] |= TEAM_RIDE  # Ride (movement.move_rating)
                continue
            if (
                kind == "permission"
                and mode_name == "charge_any_path"
                and int(u.eff_selector[e]) == ut.SELECTORS.index("team_partner")
            ):
                r["ab_team"][a] |= TEAM_ANY_PATH  # Ride the Lightning (movement.legal_move)
                continue
            if kind == "strength_change" and mode_name == "add_this_units_strength":
                r["ab_team"][a] |= TEAM_PACK  # tdabA: Spider Pack (auras.ask_pack, R101)
                continue
            if kind == "permission" and mode_name == "choose_team_target":
                r["ab_team"][a] |= TEAM_CIRCUMVENT  # Circumvent (teams.pick_cell)
                continue
            if kind == "extra_procedure" and mode_name == "attack":
                r["ab_autofire_row"][a] = e  # tdabE: Autofire (ability_attacks.autofire, R120)
                continue
            if kind == "extra_procedure" and mode_name == "attack_twice":
                r["ab_twice_row"][a] = e  # Beast Whisperer: read by effects.attack_twice (R93)
                continue
            if kind == "permission" and mode_name == "ignore_range_rating":
                r["ab_alert"][a] = u.eff_radius[e]  # Alerted (R61)
                continue
            if kind == "permission" and mode_name in PERMISSION_BITS and trig != "before":
                if int(u.eff_selector[e]) == ut.SELECTORS.index("self"):
                    r["ab_perm"][a] |= PERMISSION_BITS[mode_name]
                continue
            if kind == "gain_status" and trig == "always" and mode_name == "permanent":
                hooks[H_END_TURN][a].append(e)  # "permanently has": renewed each Turn (R49)
                continue
            conds = {ut.CONDITIONS[int(c)] for c in u.eff_condition[e] if c >= 0}
            if kind == "status_immunity" and conds == {"from_ability"}:
                r["ab_fx_dead_immune"][a] = 1  # Oblivious: Dead only from an Attack
                continue
            if kind == "remove_from_game" and trig == "always":
                hooks[H_AFTER_ATTACK][a].append(e)  # Soul Reap: its victims, once killed
                continue
            if trig == "always" and int(u.eff_selector[e]) in (
                ut.SELECTORS.index("victims"),
                ut.SELECTORS.index("same_target"),
            ) and not has:  # fmt: skip
                hooks[H_AFTER_ATTACK][a].append(e)  # Infect: its victims, once killed (R90)
                continue
            if trig == "before" and "Combat Lock" in has:
                hooks[H_LOCK][a].append(e)
                continue
            if kind == "status_immunity" and trig == "always":
                hooks[H_IMMUNE][a].append(e)
                if int(u.eff_condition[e, 0]) < 0 and u.eff_roll[e] == 0:
                    listed = statuses(int(u.eff_statuses[e]))
                    if mode_name == "all_except":
                        listed = ((1 << N_STATUSES) - 1) & ~listed
                    r["ab_immune"][a] |= listed
                continue
            if (
                kind in mod_kinds
                and (trig == "during" or trig == "always")
                and (not has or has & contest)
            ):
                hooks[H_MOD][a].append(e)
                continue
            if trig == "before":
                if "Attack" in has:
                    hooks[H_BEFORE_ATTACK][a].append(e)
                if "Defend" in has:
                    hooks[H_BEFORE_DEFEND][a].append(e)
                if "Escape" in has:
                    hooks[H_BEFORE_ESCAPE][a].append(e)
                if has & {"Movement", "Charge"}:
                    hooks[H_ENGAGE][a].append(e)
                if "Disengagement" in has:
                    hooks[H_BEFORE_DISENGAGE][a].append(e)
            elif trig == "during" and has == {"Combat Phase"}:
                hooks[H_COMBAT][a].append(e)
            elif (
                trig == "after"
                and has == {"Attack"}
                and "killed_enemy" in conds
                and int(u.eff_selector[e]) == ut.SELECTORS.index("units_within")
            ):
                hooks[H_AFTER_AURA][a].append(e)  # Vampiric Aura: its allies' kills too
            elif trig == "after" and has == {"Disengagement"}:
                hooks[H_DISENGAGED][a].append(e)  # Hatch: counted Disengagements (RA13)
            elif trig == "during" and has == {"Escape"}:
                hooks[H_BEFORE_ESCAPE][a].append(e)  # Ink Shot: as the Escape starts (R60)
            elif trig == "during" and has == {"Ranged Hit"}:
                hooks[H_RANGED_HIT][a].append(e)
            elif trig == "after" and has == {"Ranged Hit"} and mode_name == "ranged_hit_retry":
                hooks[H_RANGED_HIT][a].append(e)  # Target Practice: asked on a miss (R72)
            elif trig in ("after", "during"):
                if "Attack" in has:
                    hooks[H_AFTER_BREATH if breath else H_AFTER_ATTACK][a].append(e)
                if "Defend" in has:
                    hooks[H_AFTER_DEFEND][a].append(e)
                if "Duel" in has:
                    hooks[H_AFTER_DUEL][a].append(e)
                if "Unit Engagement" in has:
                    hooks[H_ENGAGE][a].append(e)
                if "End of Turn" in has:
                    hooks[H_END_TURN][a].append(e)
                if "Acquiring Dead Status" in has:
                    hooks[H_DEAD][a].append(e)
            elif (
                trig == "always"
                and has == {"Unit Engagement"}
                and int(u.eff_selector[e]) == ut.SELECTORS.index("self")
            ):
                hooks[H_ENGAGE][a].append(e)  # tdabB: Forager: its own Engagement (R115)
            elif trig == "always" and "Unit Engagement" in has:
                hooks[H_ENGAGE_AURA][a].append(e)
            elif trig == "replaces":
                hooks[H_REPLACES][a].append(e)
    k = 0
    for h in range(N_HOOKS):
        for a in range(n):
            rows = hooks[h][a]
            if k + len(rows) > MAX_HOOK_ROWS:
                raise ValueError(f"ability hooks need more than {MAX_HOOK_ROWS} entries")
            r["hk_start"][h, a] = k
            r["hk_count"][h, a] = len(rows)
            r["hk_rows"][k : k + len(rows)] = rows
            k += len(rows)


def _bought_item_capacity(t: T.Tables, top: int, min_cost: int) -> None:
    """The bought Items fit the state (TD-6.1.1, R141): their counts follow the units in
    army_bought, and the Item Deck holds its own cards plus every bought copy, each army buying
    at most (limit - cheapest unit) // cheapest Item of them (state.MAX_DECK)."""
    ni = len(t.item_names)
    n = len(t.units.unit_names)
    if n + ni > MAX_PROFILE_SLOTS:
        raise ValueError(f"{n} units and {ni} items do not fit army_bought's {MAX_PROFILE_SLOTS}")
    copies = 2 * ((top - min_cost) // int(t.item_cost.min())) if ni else 0
    if ni + copies > MAX_DECK:
        raise ValueError(
            f"{ni} Item cards and {copies} bought copies do not fit the Item Deck's {MAX_DECK}"
        )


def _limits(t: T.Tables) -> list[int]:
    """The top of each battlefield's suggested purchase limit (battlefields.yaml)."""
    return [bf.purchase_limit[1] for bf in t.battlefields]


def _deploy_facing(zone: np.ndarray) -> tuple[int, int]:
    """Each seat's facing toward the other's deployment zone (the larger of the row and column
    differences between the zones' centres; R23)."""
    centre = [np.argwhere(zone == p).mean(axis=0) for p in (0, 1)]
    out = []
    for p in (0, 1):
        dr, dc = centre[1 - p] - centre[p]
        if abs(dr) >= abs(dc):
            out.append(2 if dr > 0 else 0)  # FACE_S / FACE_N
        else:
            out.append(1 if dc > 0 else 3)  # FACE_E / FACE_W
    return out[0], out[1]
