"""Invariant check of a Tactics David state (plain Python, for tests and the random-game
driver; a numba fuzzer over the contract comes with the next part).

:func:`violations` returns a list of sentences, empty when every invariant holds: units stand
on the battlefield's spaces and the spaces name them back, one unit per space (two only as a
Unit Team), strengths in range, Dead units out of every Combat Lock, locks in pairs and face to
face, army costs within the purchase limit, every item card in exactly one place and in its
type's slot of a unit whose class may use it, Statuses only on Unit Types they afflict and none
beside Dead on a Dead unit.
"""

from __future__ import annotations

import numpy as np

from envs.tactics_david import state as st


def violations(S: np.ndarray, tb, b: int = 0) -> list[str]:
    """Every broken invariant of game b (empty list: the state is sound)."""
    out: list[str] = []
    g = S[b]
    bf = int(g["battlefield"])
    rows, cols = int(tb.bf_rows[bf]), int(tb.bf_cols[bf])
    dead = int(tb.status_dead)
    seen: dict[int, list[int]] = {}
    for u in range(st.N_UNIT_IDS):
        place = int(g["unit_place"][u])
        p, k = divmod(u, st.MAX_UNITS)
        if k >= g["army_size"][p]:
            if place != st.PLACE_NONE:
                out.append(f"unit {u}: slot past the army size holds a unit")
            continue
        if place == st.PLACE_NONE:
            out.append(f"unit {u}: bought but PLACE_NONE")
        strength = g["unit_strength"][u]
        if (strength < tb.strength_min).any():
            out.append(f"unit {u}: strength {strength.tolist()} below the minimum")
        status = g["unit_status"][u]
        if (status < st.STATUS_PERMANENT).any():
            out.append(f"unit {u}: status duration below -1")
        held = [s for s in range(st.N_STATUSES) if status[s] != 0]
        sp = int(tb.u_special[g["unit_member"][u, 0]]) if g["unit_member"][u, 0] >= 0 else -1
        allowed = {int(tb.status_dead)}
        if sp >= 0:  # Relentless keeps Paralyzed and Frozen beside Dead (TD-23.2)
            allowed |= {s for s in range(st.N_STATUSES) if int(tb.sp_statuses[sp]) >> s & 1}
        if status[tb.status_dead] != 0 and not set(held) <= allowed:
            out.append(f"unit {u}: Dead with other Statuses {held}")
        for s in held:
            if not tb.st_afflicts[s, g["unit_type"][u]]:
                out.append(f"unit {u}: Status {s} does not afflict its Unit Type")
        top = int(g["unit_member"][u, 0])
        for slot in range(st.N_ITEM_SLOTS):
            i = int(g["unit_item"][u, slot])
            if i < 0:
                continue
            if tb.it_type[i] != slot:
                out.append(f"unit {u}: Item {i} in slot {slot}, not its type's")
            dead_holder = status[tb.status_dead] != 0  # a looter's swapped Item stays on it
            if top >= 0 and not dead_holder and not tb.it_users[i, _class(g, tb, u)]:
                out.append(f"unit {u}: Item {i} not usable by its class")
        if place == st.PLACE_FIELD:
            c = int(g["unit_cell"][u])
            if not 0 <= c < rows * cols:
                out.append(f"unit {u}: space {c} off the {rows}x{cols} battlefield")
                continue
            seen.setdefault(c, []).append(u)
            if u not in g["cell_unit"][c].tolist():
                out.append(f"unit {u}: space {c} does not name it")
            if tb.bf_height[bf, c] > 0:
                out.append(f"unit {u}: stands on a Terrain Piece at {c}")
        elif g["unit_cell"][u] != -1:
            out.append(f"unit {u}: off the battlefield but unit_cell {g['unit_cell'][u]}")
        v = int(g["unit_lock"][u])
        if v >= 0:
            if status[dead] != 0:
                out.append(f"unit {u}: Dead and Locked in Combat")
            if g["unit_lock"][v] != u:
                out.append(f"unit {u}: locked with {v}, which is not locked with it")
            if v // st.MAX_UNITS == p:
                out.append(f"unit {u}: locked with its own side's unit {v}")
            if (int(g["unit_facing"][u]) + 2) % 4 != int(g["unit_facing"][v]):
                out.append(f"unit {u}: locked with {v} but not face to face")
    for c in range(st.MAX_CELLS):
        for slot in range(st.TEAM_SLOTS):
            u = int(g["cell_unit"][c, slot])
            if u >= 0 and (g["unit_place"][u] != st.PLACE_FIELD or g["unit_cell"][u] != c):
                out.append(f"space {c}: names unit {u}, which is not there")
        if g["cell_unit"][c, 1] >= 0 and g["cell_unit"][c, 0] < 0:
            out.append(f"space {c}: second slot used, first empty")
    for c, us in seen.items():
        if len(us) > 1 and not (len(us) == 2 and g["unit_team"][us[0]] == us[1]):
            out.append(f"space {c}: units {us} share it without being a Unit Team")
    for p in range(st.N_PLAYERS):
        cost = sum(int(g["unit_cost"][p * st.MAX_UNITS + k]) for k in range(g["army_size"][p]))
        if cost != g["army_cost"][p]:
            out.append(f"seat {p}: army_cost {g['army_cost'][p]} but its units cost {cost}")
        if cost > g["purchase_limit"]:
            out.append(f"seat {p}: army cost {cost} over the purchase limit")
    # items: the deck and the units' slots together hold each deck card once (I10)
    held = [int(i) for i in g["deck"][: g["deck_count"]]]
    held += [int(i) for i in g["unit_item"].reshape(-1) if i >= 0]
    if sorted(held) != list(range(int(tb.n_items))):
        out.append(f"items: deck + slots hold {sorted(held)}, not one card of each item")
    return out


def result_errors(S: np.ndarray, tb, b: int = 0) -> list[str]:
    """The fields every ruleset's state carries, checked against the game: the seat to act,
    and once the game is over the scores (Purchase Cost of each seat's units in play), the
    winner they give (TD-4.2: the seat with units left; I8: the higher score after the turn
    limit; I13: a draw at the safety cap) and the rewards (+1 / -1, 0 each when drawn)."""
    from envs.tactics_david.actions import STAGE_GAME_OVER, STAGE_NONE

    out: list[str] = []
    g = S[b]
    stage = int(g["stage"])
    if stage != STAGE_NONE and not 0 <= int(g["current"]) < st.N_PLAYERS:
        out.append(f"seat to act {int(g['current'])} out of range")
    dead = int(tb.status_dead)
    score = [0] * st.N_PLAYERS
    for u in range(st.N_UNIT_IDS):
        if g["unit_place"][u] == st.PLACE_FIELD and g["unit_status"][u, dead] == 0:
            score[u // st.MAX_UNITS] += int(g["unit_cost"][u])
    if stage != STAGE_GAME_OVER:
        if g["score"].any() or g["winner"] != -1 or g["rewards"].any():
            out.append("score, winner or rewards set before the game is over")
        return out
    if [int(x) for x in g["score"]] != score:
        out.append(f"scores {g['score'].tolist()} but units in play cost {score}")
    if score[0] == 0 or score[1] == 0:
        winner = -1 if score[0] == score[1] else (0 if score[0] > 0 else 1)
    elif tb.opt_turn_limit > 0 and g["turn"] >= tb.opt_turn_limit:
        winner = -1 if score[0] == score[1] else (0 if score[0] > score[1] else 1)
    else:
        winner = -1  # the safety cap (I13)
        if g["turn"] < st.TURN_CAP:
            out.append("game over with units on both sides before any limit")
    if int(g["winner"]) != winner:
        out.append(f"winner {int(g['winner'])} but the scores {score} give {winner}")
    want = [0.0, 0.0] if winner < 0 else [1.0 if p == winner else -1.0 for p in (0, 1)]
    if g["rewards"].tolist() != want:
        out.append(f"rewards {g['rewards'].tolist()} but the winner is {winner}")
    return out


def _class(g, tb, u: int) -> int:
    """Unit u's class as units.unit_class gives it (a Stacked Unit's by its points, R4)."""
    members = [int(m) for m in g["unit_member"][u] if m >= 0]
    if len(members) == 1:
        return int(tb.u_class[members[0]])
    points = sum(int(tb.class_points[tb.u_class[m]]) for m in members)
    return 1 if points == 2 else 2


def check_state(S: np.ndarray, tb, b: int = 0) -> list[str]:
    """Every broken invariant of game b: violations() and result_errors() (the contract's
    check_state)."""
    return result_errors(S, tb, b) + violations(S, tb, b)


def fuzz(tb, n_games: int, seed: int = 0):
    """Random games (the random agent of agents/tactics_david, from each game's agent RNG)
    checked at every decision: ({broken invariant: games}, first failure (game index,
    decision) or None, decisions played). Plain Python around the one-game kernels, so slow
    (about a game a second): the check is Python's violations()."""
    from agents.tactics_david.baselines import AGENT_RANDOM, choose_from_legal
    from envs.tactics_david import kernels as K
    from envs.tactics_david.actions import MAX_LEGAL

    if n_games < 0:
        raise ValueError(f"n_games {n_games} is negative")
    S = st.allocate(1)
    buf = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.int64(0)
    agent = np.int64(AGENT_RANDOM)
    broken: dict[str, int] = {}
    first = None
    decisions = 0
    for g in range(n_games):
        n = K.start(S, tb, b, np.int64(seed), np.int64(g), buf)
        bad_here: set[str] = set()
        while True:
            for v in check_state(S, tb, 0):
                key = v.split(":")[0]
                if key not in bad_here:
                    bad_here.add(key)
                    broken[key] = broken.get(key, 0) + 1
                if first is None:
                    first = (g, int(S["decisions"][0]))
            if n == 0:
                break
            a = choose_from_legal(S, tb, b, agent, buf, np.int64(n))
            n = K.apply(S, tb, b, np.int64(a), buf)
            decisions += 1
    return broken, first, decisions
