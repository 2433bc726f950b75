"""TACTICA game state: one structured record per game, batch-first (ARCHITECTURE.md section 3).

A batch is a 1-D array of STATE_DTYPE records, so ``S["card_place"][b, c]`` reads the same in
numba kernels and in Python; copying a batch is copying one array, saving it is np.save. Two
players always (seats 0 and 1 here; the rules doc calls them seats 1 and 2). One game is one
war of up to three battles (TT-B.9): the fields below hold the war (LOST piles, spires, war
points) and the battle being fought.

Cards (TT-B.1, TT-B.5). Every draw card (troop, training, tactics) has a global id
``owner * MAX_ARMY_CARDS + k``, k the army slot: slot k is a copy of draw card
``tb.army_card[k]`` (tables record; slots run through ``Tables.card_names`` in order, each
``card_count`` times: Foot 0-7, Champion 8, Archer 9-11, Crossbow 12-13, Training 14-19, Press
20-22, ...). Ids with ``k >= tb.n_army_cards`` are unused (place PLACE_NONE). The stride is
the capacity MAX_ARMY_CARDS (40), not the 37 of army.yaml, so a deck file with a few more
cards needs no change here (improvement on "owner*37 + k": the card name comes from the
tables record instead of a second table kept here). Every used card is in exactly one place,
``card_place[c]``, with one pointer for the places that need one::

    card_place          pointer              meaning
    PLACE_TROOP_PILE    pile[o, 0, :]        face down, ordered, top at pile_count[o, 0]-1
    PLACE_TACTICS_PILE  pile[o, 1, :]        face down, ordered, top at pile_count[o, 1]-1
    PLACE_BARRACKS      -                    the owner's hand (TT-B.5.2), unordered
    PLACE_RESUPPLY      -                    the owner's face-up discard pile (TT-B.5.3)
    PLACE_LOST          -                    removed from the war (TT-B.5.4)
    PLACE_HOSTAGE       card_holder[c]       in that (other) player's hostage pile (TT-B.5.5)
    PLACE_BATTLEFIELD   card_hex[c]          a troop on that hex (hex_troop[h] == c)
    PLACE_UNDER         card_under[c]        a training card under that troop (TT-B.3.3)
    PLACE_IN_PLAY       -                    a tactics card played this turn (TT-B.4.1)

    o = owner = c // MAX_ARMY_CARDS. Unordered places need no array of their own: their
    contents are the cards whose card_place says so (a scan of 80 bytes), so there is no
    second copy to keep in step; the two face-down piles need their order, hence pile[].

The place code of a pile equals its pile index (PLACE_TROOP_PILE == PILE_TROOP == 0,
PLACE_TACTICS_PILE == PILE_TACTICS == 1), so ``pile[o, place]`` is the pile a card sits in.
The two piles share one array ``pile[2, 2, MAX_ARMY_CARDS]`` (improvement on troop_pile[2, 20]
and tactics_pile[2, 17]): one kernel serves both piles by index, and a pile can never
overflow, since it could hold the whole army.

Battlefield (TT-B.2). Hexes are numbered row by row, ``h = row * HEX_COLUMNS + column``, up to
MAX_HEXES = 11 rows x 9 (the First Battle; smaller maps use the first rows). Geometry
(neighbours, distance, line of fire) lives in envs/tactica/battlefield.py; this module only
keeps what stands where. Rows are odd-r (odd rows half a hex to the right)::

    row 0   [ 0][ 1][ 2][ 3][ 4][ 5][ 6][ 7][ 8]       seat 0's wall zone (map "1")
    row 1     [ 9][10][11][12][13][14][15][16][17]
    row 2   [18][19][20][21][22][23][24][25][26]
     ...                      ...
    row 10  [90][91][92][93][94][95][96][97][98]       seat 1's wall zone (map "2")

Per hex: at most one feature (hex_feature: wall, landmark or spire; its owner and which of
the owner's cards) and at most one troop (hex_troop, a card id) or summon (hex_summon, a
seat) (TT-B.2.4). Feature cards are not draw cards: each player's walls, landmark cards and
summon cards have their own small arrays (hex, lost flag, side, spire order), and the
per-troop flags are indexed by card id so they follow a troop when it moves.
"""

from __future__ import annotations

import numpy as np

from envs.core.records import empty_states
from envs.tactica.tables import (
    MAX_ARMY_CARDS,
    MAX_CARDS,
    MAX_LANDMARK_CARDS,
    MAX_SUMMON_CARDS,
    MAX_WALLS,
    PILE_TACTICS,
    PILE_TROOP,
)

N_PLAYERS = 2
N_DRAW_PILES = 2  # PILE_TROOP, PILE_TACTICS
N_CARD_IDS = N_PLAYERS * MAX_ARMY_CARDS  # 80: ids fit int8
HEX_ROWS = 11  # the largest battlefield (First Battle)
HEX_COLUMNS = 9
MAX_HEXES = HEX_ROWS * HEX_COLUMNS  # 99
MAX_BATTLES_PER_WAR = 3  # battle_result capacity (rules.yaml battles_per_war)

# card_place codes (docstring table); -1 = unused id
PLACE_NONE = -1
PLACE_TROOP_PILE = PILE_TROOP
PLACE_TACTICS_PILE = PILE_TACTICS
PLACE_BARRACKS = 2
PLACE_RESUPPLY = 3
PLACE_LOST = 4
PLACE_HOSTAGE = 5
PLACE_BATTLEFIELD = 6
PLACE_UNDER = 7
PLACE_IN_PLAY = 8
N_PLACES = 9
PLACE_NAMES = (
    "troop pile",
    "tactics pile",
    "Barracks",
    "RESUPPLY",
    "LOST",
    "hostage pile",
    "battlefield",
    "under a troop",
    "in play",
)

# hex_feature codes: the battlefield chapter's (one definition for geometry and state)
from envs.tactica.battlefield import FEATURE_LANDMARK as FEATURE_LANDMARK  # noqa: E402
from envs.tactica.battlefield import FEATURE_NONE as FEATURE_NONE  # noqa: E402
from envs.tactica.battlefield import FEATURE_SPIRE as FEATURE_SPIRE  # noqa: E402
from envs.tactica.battlefield import FEATURE_WALL as FEATURE_WALL  # noqa: E402

# summon_card_place codes (a player's summon cards, TT-A.10)
SUMMON_ASIDE = 0  # not yet stacked by a SUMMON decree
SUMMON_IN_SPIRE = 1  # in the spire, at spire_card position
SUMMON_ON_BATTLEFIELD = 2  # the summon on summon_hex
SUMMON_LOST = 3  # captured or removed by an Engineer (TT-A.11.8, TT-A.3.1)

# Decisions (stage). The decision stages of the turn come with the turn kernels; a war
# starts each battle in STAGE_SETUP (initial deployment, TT-B.6.4-6.5).
STAGE_SETUP = 0
STAGE_GAME_OVER = 1
STAGE_PHASE_DONE = 2  # a phase's kernels finished their decisions: the turn moves on

# battle_result values
BATTLE_NOT_PLAYED = -2
BATTLE_DRAWN = -1  # else the winning seat

STATE_FIELDS = [
    # --- generic fields (every ruleset) ---
    ("rng", np.uint64, (2,)),  # uint64[2] rules RNG (shuffles, first player), envs/core/rng
    ("agent_rng", np.uint64, (2,)),  # uint64[2] RNG for agents playing inside kernels
    ("game_index", np.int64, ()),  # int64 which game of the seed this slot plays
    ("num_players", np.int8, ()),  # int8 always 2
    ("stage", np.int8, ()),  # int8 STAGE_* decision asked now
    ("current", np.int8, ()),  # int8 seat asked to decide now
    ("decisions", np.int32, ()),  # int32 decisions taken so far this war
    ("rewards", np.float32, (N_PLAYERS,)),  # float32[2] rewards of the finished war
    ("winner", np.int8, ()),  # int8 seat that won the war, -1 drawn / not over
    ("war_points", np.int8, (N_PLAYERS,)),  # int8[2] war points so far (TT-B.9.1)
    # --- draw cards (docstring: card places) ---
    ("card_place", np.int8, (N_CARD_IDS,)),  # int8[80] PLACE_* of card id c, -1 unused id
    ("card_hex", np.int8, (N_CARD_IDS,)),  # int8[80] hex of a PLACE_BATTLEFIELD troop, else -1
    ("card_holder", np.int8, (N_CARD_IDS,)),  # int8[80] seat holding a PLACE_HOSTAGE, else -1
    ("card_under", np.int8, (N_CARD_IDS,)),  # int8[80] troop id above a PLACE_UNDER card, else -1
    (
        "pile",
        np.int8,
        (N_PLAYERS, N_DRAW_PILES, MAX_ARMY_CARDS),
    ),  # int8[2, 2, 40] [owner, PILE_*] face-down card ids bottom..top, -1 past the count
    ("pile_count", np.int8, (N_PLAYERS, N_DRAW_PILES)),  # int8[2, 2] cards in each pile
    # --- troops, indexed by card id (valid while the card is PLACE_BATTLEFIELD) ---
    ("troop_training", np.int8, (N_CARD_IDS,)),  # int8[80] training cards under it (0..2)
    ("troop_betrayer", np.uint8, (N_CARD_IDS,)),  # bool[80] carries a BETRAYER token (TT-A.9)
    ("troop_moved", np.uint8, (N_CARD_IDS,)),  # bool[80] movement action spent this turn
    ("troop_fought", np.uint8, (N_CARD_IDS,)),  # bool[80] combat action spent this turn
    ("troop_capturing", np.uint8, (N_CARD_IDS,)),  # bool[80] participated in capturing this turn
    (
        "troop_captured_last_turn",
        np.uint8,
        (N_CARD_IDS,),
    ),  # bool[80] participated in capturing in the previous turn (PROMOTION, R13)
    ("betrayer_token", np.int8, (N_PLAYERS,)),  # int8[2] troop id bearing p's token, -1 unused
    # --- battlefield, per hex (docstring: hex layout) ---
    ("hex_feature", np.int8, (MAX_HEXES,)),  # int8[99] FEATURE_* on the hex
    ("hex_feature_owner", np.int8, (MAX_HEXES,)),  # int8[99] seat owning the feature, -1 none
    (
        "hex_feature_card",
        np.int8,
        (MAX_HEXES,),
    ),  # int8[99] the owner's wall slot / landmark slot (spire: 0), -1 none
    ("hex_troop", np.int8, (MAX_HEXES,)),  # int8[99] troop card id on the hex, -1 none
    ("hex_summon", np.int8, (MAX_HEXES,)),  # int8[99] seat whose summon stands here, -1 none
    # --- feature cards, per player (TT-B.2.5-2.7, TT-A.10) ---
    ("wall_hex", np.int8, (N_PLAYERS, MAX_WALLS)),  # int8[2, 4] hex of wall card w, -1 not placed
    ("wall_lost", np.uint8, (N_PLAYERS, MAX_WALLS)),  # bool[2, 4] in its owner's LOST pile
    (
        "landmark_hex",
        np.int8,
        (N_PLAYERS, MAX_LANDMARK_CARDS),
    ),  # int8[2, 4] hex of landmark card j (tb.army_landmark[j]), -1 not placed
    ("landmark_side", np.int8, (N_PLAYERS, MAX_LANDMARK_CARDS)),  # int8[2, 4] SIDE_HIGH / SIDE_LOW
    ("landmark_lost", np.uint8, (N_PLAYERS, MAX_LANDMARK_CARDS)),  # bool[2, 4] in LOST
    (
        "summon_card_place",
        np.int8,
        (N_PLAYERS, MAX_SUMMON_CARDS),
    ),  # int8[2, 4] SUMMON_* of summon card s, -1 beyond tb.summon_cards
    (
        "summon_card_side",
        np.int8,
        (N_PLAYERS, MAX_SUMMON_CARDS),
    ),  # int8[2, 4] summon index face up (Ouran / Cthon), kept across battles; -1 never stacked
    (
        "spire_card",
        np.int8,
        (N_PLAYERS, MAX_SUMMON_CARDS),
    ),  # int8[2, 4] summon cards of the spire, bottom..top, -1 past the height
    ("spire_height", np.int8, (N_PLAYERS,)),  # int8[2] cards in the spire (0 = no spire)
    ("spire_hex", np.int8, (N_PLAYERS,)),  # int8[2] hex of the spire, -1 not on the battlefield
    ("summon_card", np.int8, (N_PLAYERS,)),  # int8[2] summon card on the battlefield, -1 none
    ("summon_hex", np.int8, (N_PLAYERS,)),  # int8[2] its hex, -1 none
    ("summon_moved", np.uint8, (N_PLAYERS,)),  # bool[2] its movement action spent this turn
    ("summon_fought", np.uint8, (N_PLAYERS,)),  # bool[2] its combat action spent this turn
    ("sacrifices_made", np.int8, (N_PLAYERS,)),  # int8[2] sacrifices this turn (TT-A.11.10)
    # --- the war and the turn ---
    ("advanced", np.uint8, ()),  # bool the advanced game (TT-A.0.1)
    ("battle", np.int8, ()),  # int8 battle of the war, 1-based (TT-B.9.1)
    (
        "battle_result",
        np.int8,
        (MAX_BATTLES_PER_WAR,),
    ),  # int8[3] winning seat per battle, BATTLE_DRAWN, BATTLE_NOT_PLAYED
    ("turn", np.int8, ()),  # int8 turn of the battle, 1-based; 0 during setup
    ("first_player", np.int8, ()),  # int8 seat acting first in every phase this turn (TT-B.7.0.2)
    ("phase", np.int8, ()),  # int8 tables PHASE_* of this turn
    ("muster_actions_left", np.int8, (N_PLAYERS,)),  # int8[2] this Mustering phase (TT-B.7.2.1)
    ("decree_enacted", np.int8, (N_PLAYERS,)),  # int8[2] decree index p enacted this turn, -1 none
    # decree effects active this turn on / for player p (TT-A.4.6: until the end of RESOLUTION)
    ("no_cards", np.uint8, (N_PLAYERS,)),  # bool[2] p may play no card (TACTICA!, TT-A.5.2)
    ("no_combat", np.uint8, (N_PLAYERS,)),  # bool[2] p takes no combat action (FOG, TT-A.7.2)
    ("no_movement", np.uint8, (N_PLAYERS,)),  # bool[2] p takes no movement action (MUD)
    ("betrayal_muster", np.uint8, (N_PLAYERS,)),  # bool[2] p may muster a betrayer (TT-A.9.2)
    # --- setup.py: initial deployment (TT-B.6.3-6.7) ---
    ("setup_wall_next", np.int8, (N_PLAYERS,)),  # int8[2] p's next wall slot to place
    (
        "setup_piece_next",
        np.int8,
        (N_PLAYERS,),
    ),  # int8[2] p's next landmark card j of the landmark round; MAX_LANDMARK_CARDS = the spire
    # --- Mustering and Movement (envs/tactica/muster.py, envs/tactica/movement.py) ---
    ("muster_kind", np.int8, ()),  # int8 muster.MUSTER_* of the action being placed, -1 none
    ("muster_card", np.int8, ()),  # int8 card id being mustered / trained / turned, -1 none
    ("move_from", np.int8, ()),  # int8 hex of the troop or summon choosing its end hex, -1 none
    ("move_sacrifice", np.int8, (N_PLAYERS,)),  # int8[2] sacrifice p made this Movement, -1 none
    # --- Combat (envs/tactica/combat_phase.py, TT-B.7.4) ---
    ("combat_players_done", np.int8, ()),  # int8 players whose combat actions are over (0..2)
    ("attack_target", np.int8, ()),  # int8 hex of the declared attack's target, -1 none
    ("troop_attacking", np.uint8, (N_CARD_IDS,)),  # bool[80] takes part in the declared attack
    ("combat_active", np.int8, ()),  # int8 seat whose combat actions are being taken, -1 none
    ("attack_press", np.uint8, ()),  # bool a Press is in force on the declared attack (TT-B.4.2)
    ("attack_saved", np.uint8, ()),  # bool a Saved is in force on its target (TT-B.4.3)
    ("attack_target_card", np.int8, ()),  # int8 troop card id of the target, -1 none / summon
    ("pending_card", np.int8, ()),  # int8 tactics card id awaiting the Negate window, -1 none
    ("card_window", np.int8, ()),  # int8 STAGE_* the pending card was played in
    ("rescuer", np.int8, ()),  # int8 troop card id taking a rescue action (TT-B.7.4.7), -1 none
    ("rescue_card", np.int8, ()),  # int8 hostage card id being rescued, -1 not yet chosen
    ("summon_attacking", np.uint8, ()),  # bool the active player's summon makes the attack
    # --- start of turn and Barracks phase (envs/tactica/barracks.py, TT-B.8.4, TT-A.4) ---
    ("hand_shown", np.uint8, (N_PLAYERS,)),  # bool[2] p showed their Barracks this turn (TT-A.4.2)
    (
        "shown_counts",
        np.int8,
        (N_PLAYERS, MAX_CARDS),
    ),  # int8[2, 24] copies of each draw-card name p's shown Barracks held (public), 0 if none
    # --- Sacrifices in Combat (envs/tactica/combat_phase.py, TT-A.12.2-12.3, TT-A.13.2) ---
    ("combat_sacrifice", np.int8, (N_PLAYERS,)),  # int8[2] Tempest/Devour p made this Combat, -1
    ("attack_aegis", np.int8, ()),  # int8 Aegis (sacrifice index) guarding the target, -1 none
    ("sacrifice_paying", np.int8, ()),  # int8 Combat sacrifice whose pair is chosen, -1 none
    # --- the war's records (self-play, balance): not read by any rule ---
    (
        "army",
        np.int8,
        (N_PLAYERS, MAX_CARDS),
    ),  # int8[2, 24] copies of each draw-card name p's army starts the war with (not LOST)
]
STATE_DTYPE = np.dtype(STATE_FIELDS)

# fields whose "empty" value is -1
NEG_ONE_FIELDS = (
    "winner",
    "card_place",
    "card_hex",
    "card_holder",
    "card_under",
    "pile",
    "betrayer_token",
    "hex_feature_owner",
    "hex_feature_card",
    "hex_troop",
    "hex_summon",
    "wall_hex",
    "landmark_hex",
    "summon_card_place",
    "summon_card_side",
    "spire_card",
    "spire_hex",
    "summon_card",
    "summon_hex",
    "decree_enacted",
    "muster_kind",
    "muster_card",
    "move_from",
    "move_sacrifice",
    "attack_target",
    "combat_active",
    "pending_card",
    "attack_target_card",
    "rescuer",
    "rescue_card",
    "combat_sacrifice",
    "attack_aegis",
    "sacrifice_paying",
)


def allocate(num_envs: int) -> np.ndarray:
    """Empty state records for `num_envs` two-player games (not yet reset: piles.reset_war)."""
    return empty_states(
        STATE_DTYPE,
        num_envs,
        NEG_ONE_FIELDS,
        num_players=N_PLAYERS,
        battle_result=BATTLE_NOT_PLAYED,
        stage=STAGE_GAME_OVER,
    )


def bytes_per_game() -> int:
    """State bytes one game occupies."""
    return STATE_DTYPE.itemsize
