"""Text picture of a TAC table as one player sees it (hidden cards stay hidden)."""

from __future__ import annotations

import numpy as np

from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_DOWN,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DEFENCES,
    MAX_TEAM,
    STAGE_DEPLOY,
    STAGE_GAME_OVER,
    STAGE_NAMES,
)
from envs.tac.tables import DEFENCES, Tables

ROW_NAMES = ("Frontline", "Reserve Line", "Rear Line")


def render_text(S: np.ndarray, me: int, tables: Tables, b: int = 0) -> str:
    P = int(S["num_players"][b])
    units, cards = tables.units, tables.cards
    ct = tables.arrays.card_type
    lines = [
        f"TAC  round {S['round'][b]}/{tables.settings.rounds}  "
        f"order {' > '.join(f'P{int(x)}' for x in S['order'][b, :P])}  "
        f"seen by P{me}",
    ]
    if S["stage"][b] == STAGE_GAME_OVER:
        vp = ", ".join(f"P{p}: {int(S['victory_points'][b, p])} VP" for p in range(P))
        w = int(S["winner"][b])
        lines.append(f"GAME OVER  {vp}  winner: {'draw' if w < 0 else f'P{w}'}")
    elif S["stage"][b] == STAGE_DEPLOY:
        lines.append(
            f"P{int(S['current'][b])} to {STAGE_NAMES[S['stage'][b]]}  "
            "(deployment: rows are shown once every player has deployed)"
        )
    else:
        lines.append(
            f"P{int(S['current'][b])} to {STAGE_NAMES[S['stage'][b]]}  "
            f"(turn of P{int(S['active'][b])}, {int(S['ap'][b])} AP left)"
        )
    for cat, name in ((0, "tank"), (1, "light")):
        n = int(S["pile_count"][b, cat])
        top = units[int(S["pile"][b, cat, n - 1])].name if n else "-"
        lines.append(f"  {name} reinforcements: {n} cards, top: {top}")
    deploying = S["stage"][b] == STAGE_DEPLOY
    for rel in range(P):
        q = (me + rel) % P
        mode = "Mobile" if S["mode"][b, q] else "Static"
        hand_n = int((S["hand"][b, q] >= 0).sum())
        lines.append(f"-- P{q}{' (you)' if q == me else ''}: {mode}, {hand_n} cards in hand")

        def shown(t: int, q: int = q) -> bool:
            # 2.2: rows stay hidden until all have deployed; my own show once placed
            return not deploying or (q == me and bool(S["deployed"][b, q, t]))

        hidden_units = [
            f"[{t}] {units[int(S['team_type'][b, q, t])].name}"
            for t in range(MAX_TEAM)
            if S["team_type"][b, q, t] >= 0 and not shown(t)
        ]
        if hidden_units:
            lines.append(f"   {'not deployed':12s} {'  '.join(hidden_units)}")
        for r, rname in enumerate(ROW_NAMES):
            cells = []
            for t in range(MAX_TEAM):
                u = int(S["team_type"][b, q, t])
                if u >= 0 and S["team_row"][b, q, t] == r and shown(t):
                    dmg = int(S["team_damage"][b, q, t])
                    hp = units[u].hit_points
                    cells.append(f"[{t}] {units[u].name} {hp - dmg}/{hp}")
            defs = []
            for d in range(MAX_DEFENCES):
                st = S["defence_state"][b, q, d]
                if st != DEF_EMPTY and S["defence_row"][b, q, d] == r:
                    hidden = st == DEF_FACE_DOWN and not S["defence_revealed"][b, q, d]
                    kind = DEFENCES[tables.arrays.card_type_defence[ct[S["defence_card"][b, q, d]]]]
                    if hidden and q != me:
                        defs.append("face-down defence")
                    else:
                        defs.append(f"{kind}{' (face-down)' if hidden else ''}")
            if cells or defs:
                extra = f"   defences: {', '.join(defs)}" if defs else ""
                lines.append(f"   {rname:12s} {'  '.join(cells)}{extra}")
    hand = [
        f"{h}:{cards[int(ct[S['hand'][b, me, h]])].name}"
        for h in range(HAND_SLOTS)
        if S["hand"][b, me, h] >= 0
    ]
    lines.append(f"your hand: {', '.join(hand) if hand else '(empty)'}")
    n_att = int(S["attack_count"][b])
    for k in range(min(n_att, MAX_ATTACKS)):
        c = int(S["attack_card"][b, k])
        what = cards[int(ct[c])].name if c >= 0 else "Arty"
        tgt = int(S["attack_target"][b, k])
        lines.append(f"  attack {k}: {what} -> P{tgt} slot {int(S['attack_slot'][b, k])}")
    return "\n".join(lines)
