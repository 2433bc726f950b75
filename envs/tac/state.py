"""TAC game state: a fixed set of batch-first numpy arrays (ARCHITECTURE.md section 3).

B games, P players (2-5), capacities below. A Combat Team is T unit slots; a slot keeps its
index while the unit lives (so actions and observations can name it), and is freed when the
unit is destroyed.

Rows (2.2), as the owner sees them::

        opponents
    row 0  Frontline      <- always the row nearest the opponents
    row 1  Reserve Line   <- always the next row, if any
    row 2  Rear Line
        owner

Rows are kept compact: after a unit leaves, empty rows close up (2.2 naming rule).

Card places (every Action card is in exactly one):
    draw[b, :draw_count]        face-down draw pile, top at draw_count-1
    discard[b, :discard_count]  face-up discard pile
    hand[b, p, :]               a player's hand (-1 empty)
    defence_card[b, p, :]       defences laid by p (face-up or face-down, on a row)
    under[b, p, t, :]           Gun/Missile cards kept under a damaged unit (4.5)
    attack_card / attack_purple declared this turn, until the Resolution Phase ends
"""

from __future__ import annotations

import numpy as np

from envs.core.records import empty_states

MAX_PLAYERS = 5
MIN_PLAYERS = 2
MAX_TEAM = 12  # unit slots per Combat Team (7 dealt + reinforcements)
HAND_SLOTS = 7  # hand size is at most 7 (2.4)
MAX_DEFENCES = 7  # a player lays at most a hand's worth of defences (4.6)
MAX_UNDER = 9  # cards under one unit: each did >= 1 damage and hit points are <= 9
MAX_ATTACKS = 8  # attacks (red, orange, arty) declared in one turn: AP + free gun <= 8
MAX_PILE = 40  # cards in one reinforcement pile
MAX_DECK = 127  # Action cards (ids are int8)
N_ROWS = 3
MAX_ROUNDS = 50
MAX_UNIT_TYPES = 32  # same as tables.MAX_UNIT_TYPES

# Decisions (stage): what the current player is asked (ARCHITECTURE.md section 5).
STAGE_MODE = 0  # 4.2 choose Static or Mobile
STAGE_HQ = 1  # 4.2 play blue cards
STAGE_REPOSITION = 2  # 4.2 reposition units
STAGE_ATTACK = 3  # 4.3 declare attacks
STAGE_DEFENCE = 4  # 4.4 a defender decides on one attack
STAGE_DAMAGE_CONTROL = 5  # 9.3 a defender may play Damage Control from hand vs an arty hit
STAGE_ENDING = 6  # 4.6 lay defences
STAGE_DEPLOY = 7  # 2.2 place a dealt unit in a row, before the first turn
STAGE_OPEN_DEFENCE = 8  # 10.5 a defender chooses which of several open defences absorbs
STAGE_GAME_OVER = 9
STAGE_NAMES = (
    "choose tactical mode (4.2)",
    "play HQ cards (4.2)",
    "reposition units (4.2)",
    "declare attacks (4.3)",
    "use a laid defence (4.4)",
    "play Damage Control against an arty hit (9.3)",
    "lay defences (4.6)",
    "deploy a unit in a row (2.2)",
    "choose which open defence absorbs (10.5)",
    "game over",
)

STATIC, MOBILE = 0, 1

# defence_state values
DEF_EMPTY, DEF_FACE_UP, DEF_FACE_DOWN = 0, 1, 2

# Reinforcement piles (2.1): index by unit category.
PILE_TANK, PILE_LIGHT = 0, 1


# One game's state is one record of STATE_DTYPE; a batch is a 1-D array of records, so
# S["hand"][b, p, h] reads the same in numba kernels and in Python, copying a batch is
# copying one array and saving it is np.save. Comment: per-game shape, meaning.
STATE_FIELDS = [
    ("rng", np.uint64, (2,)),  # uint64[2] rules RNG (dice, shuffles, player orders)
    ("agent_rng", np.uint64, (2,)),  # uint64[2] RNG for agents playing inside kernels
    ("game_index", np.int64, ()),  # int64 which game of the seed this slot plays
    ("num_players", np.int8, ()),  # int8 players in this game (2-5)
    ("round", np.int8, ()),  # int8 game round, 1-based (2.5)
    ("turn", np.int8, ()),  # int8 position in the player order this round, 0-based
    ("order", np.int8, (MAX_PLAYERS,)),  # int8[P] order[b, i] = seat taking the i-th turn (2.6)
    ("stage", np.int8, ()),  # int8 STAGE_*
    ("current", np.int8, ()),  # int8 seat asked to decide now
    ("active", np.int8, ()),  # int8 seat whose turn it is
    ("decisions", np.int32, ()),  # int32 decisions taken so far this game
    ("ap", np.int8, ()),  # int8 Action Points left (4.3)
    ("free_gun", np.uint8, ()),  # bool Mobile's free first gun attack still unused (7.4)
    ("repositions", np.int8, ()),  # int8 Static repositions made this turn (4.2)
    ("moved", np.uint8, (MAX_TEAM,)),  # bool[T] slot already repositioned this turn
    ("weapon_uses", np.int8, (2, 2)),  # int8[2, 2] cards played per [weapon type, weight] (4.3)
    ("arty_uses", np.int8, ()),  # int8 arty attacks made this turn (9.1)
    ("mode", np.int8, (MAX_PLAYERS,)),  # int8[P] STATIC / MOBILE (2.3)
    ("team_type", np.int8, (MAX_PLAYERS, MAX_TEAM)),  # int8[P, T] unit type in the slot, -1 empty
    ("team_row", np.int8, (MAX_PLAYERS, MAX_TEAM)),  # int8[P, T] 0 Frontline, 1 Reserve, 2 Rear
    ("team_damage", np.int8, (MAX_PLAYERS, MAX_TEAM)),  # int8[P, T] damage taken (4.5)
    (
        "deployed",
        np.uint8,
        (MAX_PLAYERS, MAX_TEAM),
    ),  # bool[P, T] unit placed in the deployment stage (2.2); read only in STAGE_DEPLOY
    (
        "under",
        np.int8,
        (MAX_PLAYERS, MAX_TEAM, MAX_UNDER),
    ),  # int8[P, T, MAX_UNDER] cards kept under the unit, -1 empty
    (
        "dealt",
        np.int8,
        (MAX_PLAYERS, MAX_UNIT_TYPES),
    ),  # int8[P, U] unit types dealt at setup (for balance records)
    ("hand", np.int8, (MAX_PLAYERS, HAND_SLOTS)),  # int8[P, H] card ids, -1 empty
    (
        "defence_card",
        np.int8,
        (MAX_PLAYERS, MAX_DEFENCES),
    ),  # int8[P, D] laid defence card ids, -1 empty
    (
        "defence_state",
        np.int8,
        (MAX_PLAYERS, MAX_DEFENCES),
    ),  # int8[P, D] DEF_EMPTY / DEF_FACE_UP / DEF_FACE_DOWN
    ("defence_row", np.int8, (MAX_PLAYERS, MAX_DEFENCES)),  # int8[P, D] row protected (10.4)
    (
        "defence_used",
        np.uint8,
        (MAX_PLAYERS, MAX_DEFENCES),
    ),  # bool[P, D] absorbed an attack this Resolution (10.3)
    (
        "defence_revealed",
        np.uint8,
        (MAX_PLAYERS, MAX_DEFENCES),
    ),  # bool[P, D] a face-down card revealed this Defence phase
    ("draw", np.int8, (MAX_DECK,)),  # int8[N] face-down draw pile, top at draw_count-1
    ("draw_count", np.int16, ()),  # int16
    ("discard", np.int8, (MAX_DECK,)),  # int8[N] face-up discard pile
    ("discard_count", np.int16, ()),  # int16
    (
        "pile",
        np.int8,
        (2, MAX_PILE),
    ),  # int8[2, MAX_PILE] reinforcement piles of unit types, top at count-1
    ("pile_count", np.int8, (2,)),  # int8[2]
    # --- attacks declared this turn (5-9) ---
    ("attack_count", np.int8, ()),  # int8
    ("attack_kind", np.int8, (MAX_ATTACKS,)),  # int8[A] ATTACK_GUN / _MISSILE / _AIR / _ARTY
    ("attack_card", np.int8, (MAX_ATTACKS,)),  # int8[A] card id (-1 for arty)
    (
        "attack_purple",
        np.int8,
        (MAX_ATTACKS,),
    ),  # int8[A] purple card id modifying it, -1 none (5.4)
    ("attack_target", np.int8, (MAX_ATTACKS,)),  # int8[A] target seat
    ("attack_slot", np.int8, (MAX_ATTACKS,)),  # int8[A] target slot
    ("attack_defence", np.int8, (MAX_ATTACKS,)),  # int8[A] defence slot that absorbs it, -1 none
    ("attack_damage", np.int8, (MAX_ATTACKS,)),  # int8[A] damage it deals (Resolution), -1 destroys
    ("cursor", np.int8, ()),  # int8 attack being defended / resolved
    ("rewards", np.float32, (MAX_PLAYERS,)),  # float32[P] rewards of the finished game
    ("victory_points", np.int16, (MAX_PLAYERS,)),  # int16[P] 11.1 totals at the end
    ("winner", np.int8, ()),  # int8 winning seat, -1 draw / not over
]
STATE_DTYPE = np.dtype(STATE_FIELDS)
_NEG_ONE_FIELDS = (
    "attack_card",
    "attack_defence",
    "attack_purple",
    "defence_card",
    "discard",
    "draw",
    "hand",
    "pile",
    "team_type",
    "under",
    "winner",
)


def allocate(num_envs: int, num_players: int) -> np.ndarray:
    """Empty state records for `num_envs` games of `num_players` players (not yet reset)."""
    if not MIN_PLAYERS <= num_players <= MAX_PLAYERS:
        raise ValueError(f"num_players must be {MIN_PLAYERS}..{MAX_PLAYERS}, got {num_players}")
    return empty_states(
        STATE_DTYPE, num_envs, _NEG_ONE_FIELDS, num_players=num_players, stage=STAGE_GAME_OVER
    )


def bytes_per_game() -> int:
    """State bytes one game occupies."""
    return STATE_DTYPE.itemsize


def save(state: np.ndarray, path) -> None:
    np.save(path, state, allow_pickle=False)


def load(path) -> np.ndarray:
    state = np.load(path, allow_pickle=False)
    if state.dtype != STATE_DTYPE:
        raise ValueError(f"{path}: not a tac_v1 state file (dtype differs)")
    return state
