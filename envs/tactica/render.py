"""Text picture of a TACTICA war as one player sees it (hidden cards stay hidden).

The battlefield is drawn row by row, odd-r (odd rows half a cell to the right), one 9-character
cell per hex ``[UUUUUFF]``:

    UUUUU  the troop or summon on the hex: owner seat (0/1), two letters of the troop's name
           (Fo Foot, Ch Champion, Ar Archer, Cr Crossbow), its training level (0-2) and ``*``
           for a BETRAYER token; a summon is seat + ``Ou``/``Ct`` + ``S``; ``  .  `` empty,
           ``  1  ``/``  2  `` an empty hex of seat 0's / seat 1's wall zone
    FF     the feature: ``W``all, ``L``andmark or ``S``pire and its owner seat

Hexes off the battlefield are blank. Below the map every feature, troop and summon is named
with its hex in words (landmark faces, spire heights, training, betrayers), then per player
the war points and the counts of each pile, Barracks, RESUPPLY, LOST and hostages; the
hostages by name (face up, TT-B.5.5); `me`'s own Barracks by name, the opponent's only
while a decree has made it shown this turn (hand_shown / shown_counts, TT-A.4.2); the
tactics card in play; and the decision being asked (actions.STAGE_NAMES).
"""

from __future__ import annotations

import numpy as np

from envs.tactica.actions import STAGE_NAMES
from envs.tactica.muster import STAGE_MUSTER_NEGATE
from envs.tactica.sacrifice import STAGE_SACRIFICE_PAIR
from envs.tactica.state import (
    FEATURE_LANDMARK,
    FEATURE_SPIRE,
    FEATURE_WALL,
    HEX_COLUMNS,
    MAX_ARMY_CARDS,
    N_PLAYERS,
    PLACE_BARRACKS,
    PLACE_HOSTAGE,
    PLACE_IN_PLAY,
    PLACE_LOST,
    PLACE_RESUPPLY,
    STAGE_GAME_OVER,
    STAGE_PHASE_DONE,
    STAGE_SETUP,
)
from envs.tactica.tables import HEX_NONE, HEX_ZONE_1, HEX_ZONE_2, PILE_TACTICS, PILE_TROOP, Tables

# the stages other modules number (not in actions.STAGE_NAMES)
EXTRA_STAGE_NAMES = {
    STAGE_MUSTER_NEGATE: "play Negate on the muster card? (TT-B.4.7)",
    STAGE_SACRIFICE_PAIR: "choose the pair paying the sacrifice (TT-A.11.10)",
    STAGE_SETUP: "set up the battle (TT-B.6)",
    STAGE_PHASE_DONE: "phase done",
}
FEATURE_CHARS = {FEATURE_WALL: "W", FEATURE_LANDMARK: "L", FEATURE_SPIRE: "S"}
CELL = 9  # characters per hex cell: [ + 5 unit + 2 feature + ]


def stage_name(stage: int) -> str:
    """The decision a stage asks, in words."""
    return STAGE_NAMES.get(stage) or EXTRA_STAGE_NAMES.get(stage, f"stage {stage}")


def card_name(tables: Tables, card: int) -> str:
    """Draw-card name of global card id `card` (state.py: owner * MAX_ARMY_CARDS + slot)."""
    return tables.card_names[int(tables.arrays.army_card[card % MAX_ARMY_CARDS])]


def shape(tables: Tables, b_battle: int) -> tuple[int, int, np.ndarray]:
    """(rows, columns, hex codes[rows, columns]) of battle `b_battle` (1-based)."""
    bf = b_battle - 1
    rows, cols = (int(x) for x in tables.battlefield_shape[bf])
    return rows, cols, tables.battlefield_hexes[bf, :rows, :cols]


def summon_name(tables: Tables, S: np.ndarray, b: int, p: int) -> str:
    """Face-up summon name of player p's summon on the battlefield."""
    s = int(S["summon_card"][b, p])
    face = int(S["summon_card_side"][b, p, s]) if s >= 0 else -1
    return tables.summon_names[face] if face >= 0 else "summon"


def landmark_face(tables: Tables, S: np.ndarray, b: int, p: int, j: int) -> tuple[str, str]:
    """(landmark name, face-up side name) of player p's landmark card j."""
    lm = int(tables.arrays.army_landmark[j])
    side = int(S["landmark_side"][b, p, j])
    return tables.landmark_names[lm], tables.landmark_side_names[lm][side]


def _unit_code(tables: Tables, S: np.ndarray, b: int, h: int, zone: int) -> str:
    c = int(S["hex_troop"][b, h])
    if c >= 0:
        owner = c // MAX_ARMY_CARDS
        name = card_name(tables, c)[:2]
        bet = "*" if S["troop_betrayer"][b, c] else " "
        return f"{owner}{name}{int(S['troop_training'][b, c])}{bet}"
    p = int(S["hex_summon"][b, h])
    if p >= 0:
        return f"{p}{summon_name(tables, S, b, p)[:2]}S "
    mark = {HEX_ZONE_1: "1", HEX_ZONE_2: "2"}.get(zone, ".")
    return f"  {mark}  "


def _map_lines(tables: Tables, S: np.ndarray, b: int) -> list[str]:
    rows, cols, codes = shape(tables, int(S["battle"][b]))
    lines = ["     " + "".join(f"{c:^{CELL}d}" for c in range(cols))]
    for r in range(rows):
        cells = []
        for c in range(cols):
            if codes[r, c] == HEX_NONE:
                cells.append(" " * CELL)
                continue
            h = r * HEX_COLUMNS + c
            f = int(S["hex_feature"][b, h])
            feat = (
                f"{FEATURE_CHARS[f]}{int(S['hex_feature_owner'][b, h])}"
                if f in FEATURE_CHARS
                else "  "
            )
            cells.append(f"[{_unit_code(tables, S, b, h, int(codes[r, c]))}{feat}]")
        indent = " " * (CELL // 2) if r & 1 else ""
        lines.append(f"{r:>3}  {indent}{''.join(cells)}".rstrip())
    return lines


def _where(h: int) -> str:
    return f"hex {h} (row {h // HEX_COLUMNS}, col {h % HEX_COLUMNS})"


def _pieces(tables: Tables, S: np.ndarray, b: int) -> list[str]:
    """Every feature, troop and summon on the battlefield, by hex (all public)."""
    out = []
    rows = int(tables.battlefield_shape[int(S["battle"][b]) - 1, 0])
    for h in range(rows * HEX_COLUMNS):
        f = int(S["hex_feature"][b, h])
        o = int(S["hex_feature_owner"][b, h])
        if f == FEATURE_WALL:
            out.append(f"  {_where(h)}: wall of P{o}")
        elif f == FEATURE_LANDMARK:
            name, side = landmark_face(tables, S, b, o, int(S["hex_feature_card"][b, h]))
            out.append(f"  {_where(h)}: landmark {name}, {side} side up, of P{o}")
        elif f == FEATURE_SPIRE:
            out.append(f"  {_where(h)}: spire of P{o}, height {int(S['spire_height'][b, o])}")
        c = int(S["hex_troop"][b, h])
        if c >= 0:
            owner = c // MAX_ARMY_CARDS
            flags = []
            if S["troop_betrayer"][b, c]:
                flags.append(f"BETRAYER (fights for P{1 - owner})")
            for field, word in (
                ("troop_moved", "moved"),
                ("troop_fought", "fought"),
                ("troop_attacking", "attacking"),
            ):
                if S[field][b, c]:
                    flags.append(word)
            extra = f", {', '.join(flags)}" if flags else ""
            out.append(
                f"  {_where(h)}: P{owner} {card_name(tables, c)}, "
                f"training {int(S['troop_training'][b, c])}{extra}"
            )
        p = int(S["hex_summon"][b, h])
        if p >= 0:
            out.append(f"  {_where(h)}: P{p} summon {summon_name(tables, S, b, p)}")
    return out


def _cards_of(S: np.ndarray, b: int, p: int, place: int) -> list[int]:
    ids = range(p * MAX_ARMY_CARDS, (p + 1) * MAX_ARMY_CARDS)
    return [c for c in ids if S["card_place"][b, c] == place]


def _named(tables: Tables, cards: list[int]) -> str:
    names = sorted(card_name(tables, c) for c in cards)
    return ", ".join(names) if names else "(none)"


def check_view(S: np.ndarray, me: int, b: int) -> None:
    """ValueError naming the bad seat or game index."""
    if me not in (0, 1):
        raise ValueError(f"me must be seat 0 or 1, got {me}")
    if not 0 <= b < len(S):
        raise ValueError(f"game index b={b} outside 0..{len(S) - 1}")


def header_lines(S: np.ndarray, tables: Tables, me: int, b: int) -> list[str]:
    """The war, battle and turn, and the decision being asked (who, what)."""
    battle = int(S["battle"][b])
    name = tables.battlefield_names[battle - 1]
    mode = "advanced" if S["advanced"][b] else "basic"
    lines = [
        f"TACTICA ({mode})  battle {battle} {name}  turn {int(S['turn'][b])}  "
        f"first player P{int(S['first_player'][b])}  seen by P{me}"
    ]
    stage = int(S["stage"][b])
    if stage == STAGE_GAME_OVER:
        w = int(S["winner"][b])
        lines.append(f"WAR OVER  winner: {'draw' if w < 0 else f'P{w}'}")
    else:
        lines.append(f"P{int(S['current'][b])} to {stage_name(stage)}")
    return lines


def render_text(S: np.ndarray, tables: Tables, me: int, b: int = 0) -> str:
    """Game b as player `me` (seat 0 or 1) may see it (module docstring)."""
    check_view(S, me, b)
    lines = header_lines(S, tables, me, b)
    lines += _map_lines(tables, S, b)
    lines.append("pieces:")
    lines += _pieces(tables, S, b)
    lines += player_lines(S, tables, me, b)
    return "\n".join(lines)


def player_lines(S: np.ndarray, tables: Tables, me: int, b: int) -> list[str]:
    """Per player (me first): war points, pile counts, hostages, Barracks as `me` may know it,
    the card in play; then the declared attack."""
    lines = []
    for rel in range(N_PLAYERS):
        p = (me + rel) % N_PLAYERS
        hostages = [
            c
            for c in range(2 * MAX_ARMY_CARDS)
            if S["card_place"][b, c] == PLACE_HOSTAGE and S["card_holder"][b, c] == p
        ]
        barracks = _cards_of(S, b, p, PLACE_BARRACKS)
        lines.append(
            f"-- P{p}{' (you)' if p == me else ''}: {int(S['war_points'][b, p])} war points; "
            f"troop pile {int(S['pile_count'][b, p, PILE_TROOP])}, "
            f"tactics pile {int(S['pile_count'][b, p, PILE_TACTICS])}, "
            f"Barracks {len(barracks)}, "
            f"RESUPPLY {len(_cards_of(S, b, p, PLACE_RESUPPLY))}, "
            f"LOST {len(_cards_of(S, b, p, PLACE_LOST))}, "
            f"hostages {len(hostages)}"
        )
        if hostages:
            lines.append(f"   hostages held: {_named(tables, hostages)}")
        if p == me:
            lines.append(f"   your Barracks: {_named(tables, barracks)}")
        elif S["hand_shown"][b, p]:
            # TT-A.4.2: a decree showed this Barracks this turn; shown_counts is the public copy
            shown = [
                f"{tables.card_names[n]} x{int(k)}"
                for n, k in enumerate(S["shown_counts"][b, p])
                if k > 0
            ]
            lines.append(f"   Barracks shown this turn: {', '.join(shown) or '(empty)'}")
        in_play = _cards_of(S, b, p, PLACE_IN_PLAY)
        if in_play:
            lines.append(f"   in play: {_named(tables, in_play)}")
    t = int(S["attack_target"][b])
    if t >= 0:
        lines.append(f"attack declared on {_where(t)}")
    return lines
