"""TACTICA's one flat action space and its decision stages (ARCHITECTURE.md section 5).

Every decision is one step of one player; what an action index means depends on the stage
(the decision being asked), as in TAC. The layout::

    index            count  meaning
    A_HEX + h        99     hex h (h = row * 9 + column, envs/tactica/state.py): where to place
                            a wall, landmark, spire, troop or summon; which troop to train,
                            move, join an attack, swap; where to move or retreat; which enemy
                            troop, summon or spire to attack; which feature an Engineer removes
    A_CARD + n       12     draw-card name n (tables.card_names: Foot, Champion, Archer,
                            Crossbow, Training, Press, Saved, Engineer, Spy, Negate, Retreat,
                            Crown): which card of the Barracks to muster, play or discard;
                            which card of the opponent's Barracks a Spy picks; which hostage a
                            Crown ransoms or a betrayer is
    A_PILE + k       2      Recruitment: draw from the troop pile (0) or the tactics pile (1)
    A_SIDE + s       2      a double-sided card's face: landmark high (0) / low (1); summon
                            Ouran (0) / Cthon (1)
    A_DECREE + d     6      Barracks phase: enact decree d (tables.decree_names order)
    A_SACRIFICE + s  4      sacrifice s (tables.sacrifice_names order: Aegis, Tempest, Devour,
                            Burrow)
    A_PASS           1      pass / done / decline (ends a phase's actions, declines a window)
    A_SURRENDER      1      forfeit the battle at the start of a turn (TT-B.8.4)

Stages are grouped by the phase that asks them; each phase's kernels (one module per rule
chapter: setup.py, muster.py, movement.py, combat.py, barracks.py, resolution.py) list the
legal actions of their own stages and apply them, and hand over to the next phase's first
stage. The numbers below are fixed here, once, so that phases can name each other's stages.
"""

from __future__ import annotations

from functools import lru_cache

from envs.tactica.state import MAX_HEXES

N_CARD_NAMES = 12  # draw-card names (tables.card_names)
N_SIDES = 2
N_DECREES = 6
N_SACRIFICES = 4

A_HEX = 0
A_CARD = A_HEX + MAX_HEXES  # 99
A_PILE = A_CARD + N_CARD_NAMES  # 111
A_SIDE = A_PILE + 2  # 113
A_DECREE = A_SIDE + N_SIDES  # 115
A_SACRIFICE = A_DECREE + N_DECREES  # 121
A_PASS = A_SACRIFICE + N_SACRIFICES  # 125
A_SURRENDER = A_PASS + 1  # 126
N_ACTIONS = A_SURRENDER + 1  # 127

# --- stages (S["stage"]); STAGE_SETUP and STAGE_GAME_OVER are state.py's ----------------
# setup.py: initial deployment (TT-B.6.3-6.7, TT-A.10.3)
STAGE_FIRST_PLAYER = 10  # the previous battle's loser chooses who goes first (TT-B.6.3)
STAGE_PLACE_WALL = 11  # a hex of one's own wall zone for the next wall card (TT-B.6.4)
STAGE_CHOOSE_LANDMARK = 12  # which landmark card to place next, by its A_SIDE face (TT-B.6.5)
STAGE_PLACE_LANDMARK = 13  # the hex for the chosen landmark card
STAGE_PLACE_SPIRE = 14  # the hex for one's summoning spire (TT-A.10.3)
# barracks.py: start of turn, advanced Barracks phase and decrees (TT-B.8.4, TT-A.4-A.10)
STAGE_SURRENDER = 20  # forfeit or pass (TT-B.8.4)
STAGE_DECREE = 21  # enact one decree or pass (TT-A.4.3)
STAGE_PROMOTION_TROOP = 22  # which qualifying troop is trained (TT-A.6.3)
STAGE_SUMMON_SIDE = 23  # the face-up side of the next summon card (TT-A.10.2, 10.4)
STAGE_SUMMON_HEX = 24  # where the spire's base goes (TT-A.10.2)
# recruitment (in muster.py): TT-B.7.1
STAGE_RECRUIT = 30  # draw from the troop or the tactics pile
# muster.py: Mustering (TT-B.7.2, TT-B.4.5, TT-B.4.9, TT-A.9.2, TT-A.10.6-10.8)
STAGE_MUSTER = 31  # a card name to muster/train/play, a spire's summon (A_HEX of it), or pass
STAGE_MUSTER_HEX = 32  # where the mustered troop or summon goes
STAGE_TRAIN_TROOP = 33  # which troop the training card goes under
STAGE_SPY_PICK = 34  # which card of the opponent's Barracks is discarded
STAGE_CROWN_PICK = 35  # which of one's hostages is ransomed
STAGE_BETRAYER_PICK = 36  # which hostage is mustered as a betrayer
# movement.py: Movement (TT-B.7.3, TT-A.8.2, TT-A.11.4-11.5, TT-A.13.3)
STAGE_MOVE_SELECT = 40  # which troop or summon moves next, a sacrifice, or pass
STAGE_MOVE_DEST = 41  # where it ends its move
# combat.py: Combat (TT-B.7.4, TT-B.4.x, TT-A.1-A.3, TT-A.7.2, TT-A.11.7-11.9, TT-A.12-13)
STAGE_COMBAT_SELECT = 50  # a target (enemy troop, summon or spire), a rescue, an Engineer,
# a sacrifice, or pass
STAGE_ATTACK_JOIN = 51  # another friendly troop joins the attack, or pass = resolve
STAGE_RETREAT_WINDOW = 52  # the defender may play Retreat (asked whatever its hand holds)
STAGE_RETREAT_HEX = 53  # where the retreating troop steps
STAGE_ATTACKER_CARD = 54  # the attacker may play one attacker or combat card
STAGE_DEFENDER_CARD = 55  # the defender may play one defender or combat card
STAGE_NEGATE_WINDOW = 56  # the other player may Negate the card just played
STAGE_ENGINEER_TARGET = 57  # which battleground feature an Engineer removes
STAGE_SAVED_SWAP = 58  # after a survived Saved attack: which defending Foot swaps, or pass
STAGE_SAVED_CAPTURE = 59  # which defending troop is captured with a Saved troop (R6)
STAGE_RESCUE_HEX = 60  # where a rescued troop is placed
STAGE_AEGIS_WINDOW = 61  # Ouran's owner may sacrifice for Aegis before a resolution
# resolution.py: Resolution (TT-B.7.5, TT-B.8, TT-B.9)
STAGE_DISCARD = 70  # discard a card name from the Barracks, or pass (must reach 7)

STAGE_NAMES = {
    10: "choose the first player (TT-B.6.3)",
    11: "place a wall card (TT-B.6.4)",
    12: "choose a landmark card and its face (TT-B.6.5)",
    13: "place the landmark card (TT-B.6.5)",
    14: "place the summoning spire (TT-A.10.3)",
    20: "surrender or fight on (TT-B.8.4)",
    21: "enact a decree (TT-A.4)",
    22: "choose the troop PROMOTION trains (TT-A.6.3)",
    23: "choose the summon card's face (TT-A.10.2)",
    24: "place the spire's base (TT-A.10.2)",
    30: "draw a card (TT-B.7.1)",
    31: "muster (TT-B.7.2)",
    32: "place the mustered card (TT-B.7.2.2)",
    33: "choose the troop to train (TT-B.7.2.3)",
    34: "choose the card Spy discards (TT-B.4.5)",
    35: "choose the hostage Crown ransoms (TT-B.4.9)",
    36: "choose the betrayer (TT-A.9.2)",
    37: "Negate the muster card just played? (TT-B.4.7)",
    40: "move a troop or summon (TT-B.7.3)",
    41: "choose where it moves (TT-B.7.3)",
    42: "choose the pair that pays the sacrifice (TT-A.11.6)",
    50: "declare an attack, rescue, or Engineer (TT-B.7.4)",
    51: "join the attack (TT-B.7.4.2)",
    52: "play Retreat? (TT-B.4.8)",
    53: "choose where the troop retreats (TT-B.4.8)",
    54: "play an attacker card? (TT-B.7.4.5)",
    55: "play a defender card? (TT-B.7.4.5)",
    56: "play Negate? (TT-B.4.7)",
    57: "choose the feature the Engineer removes (TT-A.3.1)",
    58: "swap with a defending Foot? (TT-A.2.3)",
    59: "choose the defending troop captured too (TT-A.2.5)",
    60: "place the rescued troop (TT-B.7.4.7)",
    61: "sacrifice for Aegis? (TT-A.12.2)",
    70: "discard (TT-B.7.5)",
}


@lru_cache(maxsize=1)
def _names():
    """The embedded tables, for the names of cards, decrees and sacrifices (loaded once)."""
    from envs.tactica.tables import load_tables

    return load_tables()


def describe(a: int) -> str:
    """One line naming action a in the layout above (its meaning in a stage: STAGE_NAMES);
    an index outside the layout is named as such (error messages describe bad actions)."""
    a = int(a)
    if not 0 <= a < N_ACTIONS:
        return f"action {a} (outside 0..{N_ACTIONS - 1})"
    if a < A_CARD:
        return f"hex {a - A_HEX} (row {(a - A_HEX) // 9}, column {(a - A_HEX) % 9})"
    t = _names()
    if a < A_PILE:
        return f"card {t.card_names[a - A_CARD]}"
    if a < A_SIDE:
        return "draw from the " + ("troop pile" if a == A_PILE else "tactics pile")
    if a < A_DECREE:
        return f"face {'high / Ouran' if a == A_SIDE else 'low / Cthon'}"
    if a < A_SACRIFICE:
        return f"decree {t.decree_names[a - A_DECREE]}"
    if a < A_PASS:
        return f"sacrifice {t.sacrifice_names[a - A_SACRIFICE]}"
    return "pass" if a == A_PASS else "surrender"
