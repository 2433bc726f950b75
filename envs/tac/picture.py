"""A picture of a TAC table as one player sees it: the contract's render_image (PNG).

Each player's Combat Team is drawn as rows of unit boxes, the Frontline nearest the centre
of the picture: the viewer ``me`` at the bottom (Frontline on top of its band), the other
players above in turn order after ``me`` (Frontline at the bottom of each band). A unit box
names its type and slot and shows its hit points left / hit points (3.5: Infantry in Static
Mode have the settings' two) with a bar; laid defences are drawn at the end of the row they
protect. Like the text picture (envs/tac/render.py), it shows only what ``me`` may know: the
other players' face-down defences as face-down cards, their hands as counts. The centre strip
says the round, whose turn, the decision asked and the attacks declared this turn; the
viewer's hand is listed at the bottom.

matplotlib (Agg canvas, no pyplot) is imported when a picture is drawn, not with this module.
"""

from __future__ import annotations

import io
import textwrap
from pathlib import Path

import numpy as np

from envs.tac.state import (
    DEF_EMPTY,
    DEF_FACE_DOWN,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DEFENCES,
    MAX_TEAM,
    MOBILE,
    N_ROWS,
    STAGE_GAME_OVER,
    STAGE_NAMES,
    STATIC,
)
from envs.tac.tables import CAT_TANK, CLASS_INFANTRY, DEFENCES, S_INF_HP, Tables

ROW_NAMES = ("Frontline", "Reserve Line", "Rear Line")
ROW_H = 1.0  # height of one row band
BOX_H = 0.8
PLAYER_GAP = 0.55  # room for a player's label above/below its rows
WIDTH = 16.0
LEFT = 1.9  # row labels left of this
SEAT_COLOURS = ("#1f5fbf", "#c0392b", "#2e8b57", "#8e44ad", "#d35400")
TANK_FILL, LIGHT_FILL = "#dfe8f5", "#eef5e4"
DEFENCE_FILL, HIDDEN_FILL = "#fff4cc", "#b8b8b8"


def _hit_points(tables: Tables, unit_type: int, mode: int) -> int:
    """3.5: Infantry in Static Mode have the settings' hit points, else the card's."""
    tb = tables.arrays
    if int(tb.unit_class[unit_type]) == CLASS_INFANTRY and mode == STATIC:
        return int(tb.settings[S_INF_HP])
    return int(tb.unit_hit_points[unit_type])


def _team_rows(S, tables: Tables, b: int, q: int, me: int) -> list[list[tuple]]:
    """Per row: ('unit', slot, name, hp_left, hp, tank) and ('def', label, hidden) items."""
    rows: list[list[tuple]] = [[] for _ in range(N_ROWS)]
    mode = int(S["mode"][b, q])
    for t in range(MAX_TEAM):
        u = int(S["team_type"][b, q, t])
        if u >= 0:
            r = int(S["team_row"][b, q, t])
            hp = _hit_points(tables, u, mode)
            left = hp - int(S["team_damage"][b, q, t])
            tank = int(tables.arrays.unit_category[u]) == CAT_TANK
            rows[r].append(("unit", t, tables.units[u].name, left, hp, tank))
    ct = tables.arrays.card_type
    for d in range(MAX_DEFENCES):
        st = S["defence_state"][b, q, d]
        if st == DEF_EMPTY:
            continue
        r = int(S["defence_row"][b, q, d])
        hidden = st == DEF_FACE_DOWN and not S["defence_revealed"][b, q, d]
        if hidden and q != me:
            rows[r].append(("def", "face-down\ndefence", True))
            continue
        kind = DEFENCES[int(tables.arrays.card_type_defence[ct[S["defence_card"][b, q, d]]])]
        label = kind.replace("_", " ").title()
        rows[r].append(("def", label + ("\n(face-down)" if hidden else ""), hidden))
    return rows


def _wrap(name: str, width: int = 13) -> str:
    return "\n".join(textwrap.wrap(name, width)[:2])


def render_image(
    tables: Tables, S: np.ndarray, me: int, b: int = 0, path: str | Path | None = None
) -> bytes | Path:
    """PNG of game b as seat `me` sees it: the bytes, or written to `path` (returned)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure
    from matplotlib.patches import FancyBboxPatch, Rectangle

    P = int(S["num_players"][b])
    me = int(me)
    units_n, cards = tables.units, tables.cards
    ct = tables.arrays.card_type
    over = S["stage"][b] == STAGE_GAME_OVER
    bands = [(me + 1 + k) % P for k in range(P - 1)][::-1] + [me]  # top to bottom
    teams = {q: _team_rows(S, tables, b, q, me) for q in range(P)}
    used = {q: max(1, sum(1 for r in teams[q] if r)) for q in range(P)}
    widest = max(len(r) for q in range(P) for r in teams[q]) if P else 1
    step = min(1.75, (WIDTH - LEFT - 0.2) / max(widest, 1))
    box_w = step - 0.12
    centre_h = 1.5 if P == 2 else 1.3
    band_h = {q: used[q] * ROW_H + PLAYER_GAP for q in range(P)}
    total_h = 1.0 + sum(band_h.values()) + centre_h + 0.6
    fig = Figure(figsize=(WIDTH * 0.75, total_h * 0.75), dpi=100)
    FigureCanvasAgg(fig)
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_xlim(0, WIDTH)
    ax.set_ylim(0, total_h)
    ax.axis("off")
    fs = 7.0 if step >= 1.4 else 6.0

    # header
    y = total_h - 0.45
    rounds = int(tables.settings.rounds)  # the counter passes it when the game ends
    order = " > ".join(f"P{int(x)}" for x in S["order"][b, :P])
    ax.text(
        0.2,
        y,
        f"TAC   round {min(int(S['round'][b]), rounds)}/{rounds}   order {order}   "
        f"seen by P{me}   after {int(S['decisions'][b])} decisions",
        fontsize=10,
        fontweight="bold",
        va="center",
    )
    piles = []
    for cat, label in ((0, "tank"), (1, "light")):
        n = int(S["pile_count"][b, cat])
        top = units_n[int(S["pile"][b, cat, n - 1])].name if n else "-"
        piles.append(f"{label} reinforcements {n} (top {top})")
    ax.text(WIDTH - 0.2, y, "   ".join(piles), fontsize=7.5, ha="right", va="center")
    y = total_h - 0.9

    def draw_band(q: int, top: float, flip: bool) -> float:
        """Rows of player q from `top` down; flip: Frontline at the bottom (opponents)."""
        colour = SEAT_COLOURS[q % len(SEAT_COLOURS)]
        rows = [r for r in range(N_ROWS) if teams[q][r]] or [0]
        if flip:
            rows = rows[::-1]
        mode = "Mobile" if S["mode"][b, q] == MOBILE else "Static"
        hand_n = int((S["hand"][b, q] >= 0).sum())
        label = f"P{q}{' (you)' if q == me else ''}   {mode}   {hand_n} cards in hand"
        if over:
            label += f"   {int(S['victory_points'][b, q])} VP"
        if q == int(S["current"][b]) and not over:
            label += "   < to decide"
        label_y = top - 0.25 if flip else top - used[q] * ROW_H - 0.3
        rows_top = top - PLAYER_GAP if flip else top
        ax.text(0.2, label_y, label, fontsize=9, fontweight="bold", color=colour, va="center")
        ax.add_patch(
            Rectangle(
                (0.1, rows_top - len(rows) * ROW_H),
                WIDTH - 0.2,
                len(rows) * ROW_H,
                facecolor=colour,
                alpha=0.06,
                edgecolor=colour,
                linewidth=1.0,
            )
        )
        for i, r in enumerate(rows):
            y0 = rows_top - (i + 1) * ROW_H + (ROW_H - BOX_H) / 2
            ax.text(0.25, y0 + BOX_H / 2, ROW_NAMES[r], fontsize=7.5, va="center", color="#333")
            for k, item in enumerate(teams[q][r]):
                x0 = LEFT + k * step
                if item[0] == "unit":
                    _, slot, name, left, hp, tank = item
                    ax.add_patch(
                        FancyBboxPatch(
                            (x0, y0),
                            box_w,
                            BOX_H,
                            boxstyle="round,pad=0,rounding_size=0.08",
                            facecolor=TANK_FILL if tank else LIGHT_FILL,
                            edgecolor=colour,
                            linewidth=1.2,
                        )
                    )
                    ax.text(
                        x0 + box_w / 2,
                        y0 + BOX_H * 0.64,
                        _wrap(name),
                        fontsize=fs,
                        ha="center",
                        va="center",
                        linespacing=0.95,
                    )
                    ax.text(x0 + 0.06, y0 + BOX_H - 0.1, f"[{slot}]", fontsize=fs - 1, va="center")
                    frac = max(left, 0) / hp if hp else 0.0
                    bar_w = box_w - 0.7
                    ax.add_patch(Rectangle((x0 + 0.08, y0 + 0.08), bar_w, 0.12, color="#ddd"))
                    ax.add_patch(
                        Rectangle(
                            (x0 + 0.08, y0 + 0.08),
                            bar_w * frac,
                            0.12,
                            color="#2e8b57" if frac > 0.5 else "#e67e22" if frac > 0.25 else "red",
                        )
                    )
                    ax.text(
                        x0 + box_w - 0.06,
                        y0 + 0.14,
                        f"{left}/{hp}",
                        fontsize=fs,
                        ha="right",
                        va="center",
                        fontweight="bold",
                    )
                else:
                    _, text, hidden = item
                    ax.add_patch(
                        FancyBboxPatch(
                            (x0, y0),
                            box_w,
                            BOX_H,
                            boxstyle="round,pad=0,rounding_size=0.08",
                            facecolor=HIDDEN_FILL if hidden and q != me else DEFENCE_FILL,
                            edgecolor="#7a6000",
                            linewidth=1.0,
                            linestyle="--" if hidden else "-",
                            hatch="//" if hidden and q != me else None,
                        )
                    )
                    ax.text(
                        x0 + box_w / 2,
                        y0 + BOX_H / 2,
                        "defence\n" + text if not (hidden and q != me) else text,
                        fontsize=fs - 0.5,
                        ha="center",
                        va="center",
                        linespacing=0.95,
                        bbox={"facecolor": "white", "edgecolor": "none", "pad": 1.0}
                        if hidden and q != me
                        else None,
                    )
        return top - band_h[q]

    for q in bands[:-1]:
        y = draw_band(q, y, flip=True)

    # centre strip: whose turn, the decision, declared attacks
    cy = y - 0.25
    if over:
        w = int(S["winner"][b])
        vps = ", ".join(f"P{p} {int(S['victory_points'][b, p])} VP" for p in range(P))
        status = f"GAME OVER   winner: {'draw' if w < 0 else f'P{w}'}   ({vps})"
    else:
        status = (
            f"P{int(S['current'][b])} to {STAGE_NAMES[int(S['stage'][b])]}   "
            f"(turn of P{int(S['active'][b])}, {int(S['ap'][b])} AP left)"
        )
    ax.text(WIDTH / 2, cy, status, fontsize=10, ha="center", va="center", fontweight="bold")
    n_att = min(int(S["attack_count"][b]), MAX_ATTACKS) if not over else 0
    att = []
    for k in range(n_att):
        c = int(S["attack_card"][b, k])
        what = cards[int(ct[c])].name if c >= 0 else "Arty"
        att.append(f"{what} -> P{int(S['attack_target'][b, k])}[{int(S['attack_slot'][b, k])}]")
    if att:
        text = "attacks: " + ";  ".join(att)
        ax.text(WIDTH / 2, cy - 0.45, textwrap.fill(text, 150), fontsize=7.5, ha="center", va="top")
    y -= centre_h
    y = draw_band(me, y, flip=False)

    hand = [
        f"{h}: {cards[int(ct[S['hand'][b, me, h]])].name}"
        for h in range(HAND_SLOTS)
        if S["hand"][b, me, h] >= 0
    ]
    ax.text(
        0.2,
        0.3,
        f"your hand   {'   '.join(hand) if hand else '(empty)'}",
        fontsize=8,
        va="center",
    )
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=100, facecolor="white")
    png = buf.getvalue()
    if path is None:
        return png
    path = Path(path)
    path.write_bytes(png)
    return path
