"""Invariant check of a Tactics David state, for tests, the contract's check_state and the
fuzzer.

:func:`violations` (plain Python) returns a list of sentences, empty when every invariant
holds: units stand on the battlefield's spaces and the spaces name them back, one unit per
space (two only as a Unit Team), strengths in range, Dead units out of every Combat Lock, locks
in pairs and face to face, army costs (units and bought Items) within the purchase limit, every
item card (the deck's one of each and the bought copies, R141) in exactly one place and in its
type's slot of a unit whose class may use it, Statuses only on Unit Types
they afflict and none beside Dead on a Dead unit, the flooded spaces those the Floodplains
units make (tdabH, R124). :func:`check_codes` checks the same in numba
and answers with a code (CODE_NAMES), so the fuzzer can check every decision of 100,000 games;
the sentences of :func:`violations` then say what exactly broke in the first bad state.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.threads import over_games
from envs.tactics_david import state as st
from envs.tactics_david.actions import STAGE_GAME_OVER, STAGE_NONE
from envs.tactics_david.floodplains import flood_into
from envs.tactics_david.record import SCORE_KILLS
from envs.tactics_david.units import unit_class


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
            if tb.it_type[i] != slot % st.N_ITEM_TYPES:  # tdabG: two slots per Type (R109)
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
        shed = int(g["unit_shed_cell"][u])  # tdabF: a Shed Marker (R135)
        if (v == st.LOCK_MARKER) != (shed >= 0) or shed >= rows * cols:
            out.append(f"unit {u}: lock {v} with a Shed Marker on space {shed}")
        if v == st.LOCK_MARKER:
            if status[dead] != 0:
                out.append(f"unit {u}: Dead and Locked in Combat")
        elif v >= 0:
            if status[dead] != 0:
                out.append(f"unit {u}: Dead and Locked in Combat")
            if g["unit_lock"][v] != u:
                out.append(f"unit {u}: locked with {v}, which is not locked with it")
            if v // st.MAX_UNITS == p:
                out.append(f"unit {u}: locked with its own side's unit {v}")
            if (int(g["unit_facing"][u]) + 2) % 4 != int(g["unit_facing"][v]):
                out.append(f"unit {u}: locked with {v} but not face to face")
            if g["unit_team"][u] >= 0:
                out.append(f"unit {u}: in a Unit Team and Locked in Combat (TD-18.7)")
        w = int(g["unit_team"][u])
        side = int(g["unit_team_side"][u])
        if w >= 0:
            if w == u or g["unit_team"][w] != u or w // st.MAX_UNITS != p:
                out.append(f"unit {u}: Team partner {w} is not its own side's partner")
            elif g["unit_cell"][w] != g["unit_cell"][u] or place != st.PLACE_FIELD:
                out.append(f"unit {u}: Team partner {w} is not on its space")
            elif not 0 <= side <= 3 or (side + 2) % 4 != int(g["unit_team_side"][w]):
                out.append(f"unit {u}: Team sides {side} and {int(g['unit_team_side'][w])}")
        elif side != -1:
            out.append(f"unit {u}: a Team side {side} but no Team")
        ctrl = int(g["unit_ctrl"][u])  # tdabI: Possess (R137, R138)
        if ctrl >= 0:
            first = int(g["first_player"])
            now = first if int(g["turn"]) % 2 == 1 else 1 - first
            if ctrl != 1 - p:
                out.append(f"unit {u}: controlled by seat {ctrl}, not the other seat")
            if w >= 0 or v >= 0:
                out.append(f"unit {u}: possessed but in a Unit Team or a Combat Lock (R138)")
            if int(g["stage"]) != STAGE_GAME_OVER and ctrl != now:
                out.append(f"unit {u}: still controlled by seat {ctrl} in seat {now}'s Turn")
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
    ni, n0 = int(tb.n_items), int(tb.n_profiles)
    copies = g["army_bought"][:, n0 : n0 + ni].astype(int)  # Items bought (R141)
    for p in range(st.N_PLAYERS):
        cost = sum(int(g["unit_cost"][p * st.MAX_UNITS + k]) for k in range(g["army_size"][p]))
        cost += int(copies[p] @ tb.it_cost[:ni].astype(int))
        if cost != g["army_cost"][p]:
            out.append(
                f"seat {p}: army_cost {g['army_cost'][p]} but its units and Items cost {cost}"
            )
        if cost > g["purchase_limit"]:
            out.append(f"seat {p}: army cost {cost} over the purchase limit")
    # items: the deck and the units' slots together hold each card once: the deck's one of
    # each Item (I10) and the copies the armies bought (R141)
    held = [int(i) for i in g["deck"][: g["deck_count"]]]
    held += [int(i) for i in g["unit_item"].reshape(-1) if i >= 0]
    want = [i for i in range(ni) for _ in range(1 + int(copies[:, i].sum()))]
    if sorted(held) != want:
        out.append(f"items: deck + slots hold {sorted(held)}, not the cards {want}")
    # tdabH: the flooded spaces are those the Floodplains units make now (R124)
    want = np.zeros(st.MAX_CELLS, dtype=np.uint8)
    wet = bool(flood_into(S, tb, np.int64(b), want))
    if not np.array_equal(want, g["flood"]) or wet != bool(g["flood_on"]):
        got = [int(c) for c in np.flatnonzero(g["flood"])]
        out.append(f"flood: spaces {got} flooded, but the units flood {np.flatnonzero(want)}")
    return out


def result_errors(S: np.ndarray, tb, b: int = 0) -> list[str]:
    """The fields every ruleset's state carries, checked against the game: the seat to act,
    and once the game is over the scores (Purchase Cost of each seat's units in play, or with
    turn_score=kills the enemy units it killed, I30), the winner they give (TD-4.2: the seat
    with units left; I8: the higher score after the turn limit; I13: a draw at the safety cap)
    and the rewards (+1 / -1, 0 each when drawn)."""
    out: list[str] = []
    g = S[b]
    stage = int(g["stage"])
    if stage != STAGE_NONE and not 0 <= int(g["current"]) < st.N_PLAYERS:
        out.append(f"seat to act {int(g['current'])} out of range")
    dead = int(tb.status_dead)
    left = [0] * st.N_PLAYERS  # Purchase Cost in play
    kills = [0] * st.N_PLAYERS
    for u in range(st.N_UNIT_IDS):
        p, k = divmod(u, st.MAX_UNITS)
        if k >= g["army_size"][p]:
            continue
        if g["unit_place"][u] == st.PLACE_FIELD and g["unit_status"][u, dead] == 0:
            left[p] += int(g["unit_cost"][u])
        elif g["unit_place"][u] != st.PLACE_RESERVE:
            kills[1 - p] += 1
    score = kills if tb.opt_turn_score == SCORE_KILLS else left
    if stage != STAGE_GAME_OVER:
        if g["score"].any() or g["winner"] != -1 or g["rewards"].any():
            out.append("score, winner or rewards set before the game is over")
        return out
    if [int(x) for x in g["score"]] != score:
        out.append(f"scores {g['score'].tolist()} but the game gives {score}")
    if left[0] == 0 or left[1] == 0:
        winner = -1 if left[0] == left[1] else (0 if left[0] > 0 else 1)
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


# --- the same invariants in numba: a code per game ---------------------------------------------

OK = 0
BAD_TURN = 1  # the seat to act is not a seat
BAD_RESULT = 2  # score, winner or rewards do not follow the game (or are set before its end)
BAD_PLACE = 3  # a unit's slot, place or space is inconsistent, or it stands on a Terrain Piece
BAD_STRENGTH = 4  # a Strength Rating below the minimum
BAD_STATUS = 5  # a duration below -1, a Status its Unit Type resists, or Dead beside others
BAD_ITEM = 6  # an Item in another type's slot or held by a class that may not use it
BAD_SPACE = 7  # a space names a unit that is not there, or units share a space unteamed
BAD_LOCK = 8  # a Combat Lock not in pairs, with an ally, not face to face, or of a Dead unit
BAD_ARMY = 9  # an army's cost is not its units' and Items' or is over the purchase limit
BAD_DECK = 10  # the Item Deck and the units' slots do not hold each card exactly once (R141)
# tdabI: a unit under control (Possess) not by the other seat, past its Turn, or in a Team or
# a Combat Lock (R137, R138)
BAD_CONTROL = 11
# what fuzz() reports for a game whose legal-action list is empty before it ends (no check_codes
# code: the mask says it, so the checker need not compile the legal-action list)
BAD_FLOOD = 12  # tdabH: the flooded spaces are not those the Floodplains units make (R124)
NO_LEGAL_ACTION = "no legal action"
CODE_NAMES = (
    "ok",
    "turn",
    "result",
    "place",
    "strength",
    "status",
    "item",
    "space",
    "lock",
    "army",
    "deck",
    "control",
    "flood",
)


@njit
def result_code(S, tb, b):
    """result_errors() as a code: the seat to act, and once the game is over the scores,
    the winner they give and the rewards."""
    stage = S["stage"][b]
    if stage != STAGE_NONE and not 0 <= S["current"][b] < st.N_PLAYERS:
        return BAD_TURN
    dead = tb.status_dead
    left0 = 0  # Purchase Cost in play
    left1 = 0
    kills0 = 0
    kills1 = 0
    for u in range(st.N_UNIT_IDS):
        if u % st.MAX_UNITS >= S["army_size"][b, u // st.MAX_UNITS]:
            continue
        if S["unit_place"][b, u] == st.PLACE_FIELD and S["unit_status"][b, u, dead] == 0:
            if u < st.MAX_UNITS:
                left0 += S["unit_cost"][b, u]
            else:
                left1 += S["unit_cost"][b, u]
        elif S["unit_place"][b, u] != st.PLACE_RESERVE:
            if u < st.MAX_UNITS:
                kills1 += 1
            else:
                kills0 += 1
    score0 = kills0 if tb.opt_turn_score == SCORE_KILLS else left0
    score1 = kills1 if tb.opt_turn_score == SCORE_KILLS else left1
    if stage != STAGE_GAME_OVER:
        for p in range(st.N_PLAYERS):
            if S["score"][b, p] != 0 or S["rewards"][b, p] != 0.0:
                return BAD_RESULT
        return BAD_RESULT if S["winner"][b] != -1 else OK
    if S["score"][b, 0] != score0 or S["score"][b, 1] != score1:
        return BAD_RESULT
    winner = -1
    if left0 == 0 or left1 == 0:
        if left0 > left1:
            winner = 0
        elif left1 > left0:
            winner = 1
    elif tb.opt_turn_limit > 0 and S["turn"][b] >= tb.opt_turn_limit:
        if score0 > score1:
            winner = 0
        elif score1 > score0:
            winner = 1
    elif S["turn"][b] < st.TURN_CAP:
        return BAD_RESULT  # over with units on both sides before any limit
    if S["winner"][b] != winner:
        return BAD_RESULT
    for p in range(st.N_PLAYERS):
        want = 0.0 if winner < 0 else (1.0 if p == winner else -1.0)
        if S["rewards"][b, p] != want:
            return BAD_RESULT
    return OK


@njit
def unit_code(S, tb, b, u, rows, cols, bf):
    """The invariants of one unit u of game b (violations' loop over units)."""
    p = u // st.MAX_UNITS
    k = u % st.MAX_UNITS
    place = S["unit_place"][b, u]
    if k >= S["army_size"][b, p]:
        return BAD_PLACE if place != st.PLACE_NONE else OK
    if place == st.PLACE_NONE:
        return BAD_PLACE
    for side in range(4):
        if S["unit_strength"][b, u, side] < tb.strength_min:
            return BAD_STRENGTH
    dead = tb.status_dead
    top = S["unit_member"][b, u, 0]
    allowed = np.int64(1) << dead
    if top >= 0 and tb.u_special[top] >= 0:  # Relentless keeps Paralyzed and Frozen (TD-23.2)
        allowed |= np.int64(tb.sp_statuses[tb.u_special[top]])
    is_dead = S["unit_status"][b, u, dead] != 0
    for s in range(st.N_STATUSES):
        d = S["unit_status"][b, u, s]
        if d < st.STATUS_PERMANENT:
            return BAD_STATUS
        if d != 0:
            if is_dead and not (allowed >> s) & 1:
                return BAD_STATUS
            if not tb.st_afflicts[s, S["unit_type"][b, u]]:
                return BAD_STATUS
    for slot in range(st.N_ITEM_SLOTS):
        i = S["unit_item"][b, u, slot]
        if i < 0:
            continue
        if tb.it_type[i] != slot % st.N_ITEM_TYPES:  # tdabG: two slots per Type (R109)
            return BAD_ITEM
        if top >= 0 and not is_dead and not tb.it_users[i, unit_class(S, tb, b, u)]:
            return BAD_ITEM  # a looter's swapped Item stays on a Dead holder
    c = S["unit_cell"][b, u]
    if place == st.PLACE_FIELD:
        if c < 0 or c >= rows * cols:
            return BAD_PLACE
        if tb.bf_height[bf, c] > 0:
            return BAD_PLACE
        named = False
        for slot in range(st.TEAM_SLOTS):
            if S["cell_unit"][b, c, slot] == u:
                named = True
        if not named:
            return BAD_SPACE
    elif c != -1:
        return BAD_PLACE
    v = S["unit_lock"][b, u]
    shed = S["unit_shed_cell"][b, u]  # tdabF: a Shed Marker (R135)
    if (v == st.LOCK_MARKER) != (shed >= 0) or shed >= rows * cols:
        return BAD_LOCK
    if v == st.LOCK_MARKER:
        if is_dead:
            return BAD_LOCK
    elif v >= 0:
        if (
            is_dead
            or S["unit_lock"][b, v] != u
            or v // st.MAX_UNITS == p
            or (S["unit_facing"][b, u] + 2) % 4 != S["unit_facing"][b, v]
        ):
            return BAD_LOCK
    v = S["unit_team"][b, u]
    if v >= 0:  # a Unit Team (TD-18.1, TD-18.7; teams.py)
        if v == u or S["unit_team"][b, v] != u or v // st.MAX_UNITS != p:
            return BAD_SPACE
        if place != st.PLACE_FIELD or S["unit_cell"][b, v] != c:
            return BAD_SPACE
        side = S["unit_team_side"][b, u]
        if side < 0 or side > 3 or (side + 2) % 4 != S["unit_team_side"][b, v]:
            return BAD_SPACE
        if S["unit_lock"][b, u] >= 0:
            return BAD_LOCK  # never in Combat Lock (TD-18.7)
    elif S["unit_team_side"][b, u] != -1:
        return BAD_SPACE
    ctrl = np.int64(S["unit_ctrl"][b, u])  # tdabI: Possess (R137, R138)
    if ctrl >= 0:
        first = np.int64(S["first_player"][b])
        now = first if S["turn"][b] % 2 == 1 else 1 - first  # whose Turn it is
        if ctrl != 1 - p or S["unit_team"][b, u] >= 0 or S["unit_lock"][b, u] >= 0:
            return BAD_CONTROL
        if S["stage"][b] != STAGE_GAME_OVER and ctrl != now:
            return BAD_CONTROL
    return OK


@njit
def check_codes(S, tb, b):
    """The invariants of violations() and result_errors() as a code (OK when game b is
    sound; the first broken one in CODE_NAMES order of the checks)."""
    code = result_code(S, tb, b)
    if code != OK:
        return code
    bf = S["battlefield"][b]
    rows = np.int64(tb.bf_rows[bf])
    cols = np.int64(tb.bf_cols[bf])
    for u in range(st.N_UNIT_IDS):
        code = unit_code(S, tb, b, u, rows, cols, bf)
        if code != OK:
            return code
    for c in range(st.MAX_CELLS):
        first = S["cell_unit"][b, c, 0]
        second = S["cell_unit"][b, c, 1]
        for slot in range(st.TEAM_SLOTS):
            u = S["cell_unit"][b, c, slot]
            if u >= 0 and (S["unit_place"][b, u] != st.PLACE_FIELD or S["unit_cell"][b, u] != c):
                return BAD_SPACE
        if second >= 0 and (first < 0 or S["unit_team"][b, first] != second):
            return BAD_SPACE  # two units share a space only as a Unit Team (TD-18.1)
    n0 = np.int64(tb.n_profiles)
    for p in range(st.N_PLAYERS):
        cost = 0
        for k in range(S["army_size"][b, p]):
            cost += S["unit_cost"][b, p * st.MAX_UNITS + k]
        for it in range(tb.n_items):  # the Items it bought (R141)
            cost += S["army_bought"][b, p, n0 + it] * np.int64(tb.it_cost[it])
        if cost != S["army_cost"][b, p] or cost > S["purchase_limit"][b]:
            return BAD_ARMY
    # items: the deck and the units' slots hold each card exactly once: the deck's one of each
    # Item (I10) and the copies the armies bought (R141)
    seen = np.zeros(tb.n_items, dtype=np.int64)
    for i in range(S["deck_count"][b]):
        it = S["deck"][b, i]
        if it < 0 or it >= tb.n_items:
            return BAD_DECK
        seen[it] += 1
    for u in range(st.N_UNIT_IDS):
        for slot in range(st.N_ITEM_SLOTS):
            it = S["unit_item"][b, u, slot]
            if it >= tb.n_items:
                return BAD_DECK
            if it >= 0:
                seen[it] += 1
    for it in range(tb.n_items):
        if seen[it] != 1 + S["army_bought"][b, 0, n0 + it] + S["army_bought"][b, 1, n0 + it]:
            return BAD_DECK
    want = np.zeros(st.MAX_CELLS, dtype=np.uint8)  # tdabH (R124)
    if flood_into(S, tb, b, want) != (S["flood_on"][b] != 0):
        return BAD_FLOOD
    for c in range(st.MAX_CELLS):
        if want[c] != S["flood"][b, c]:
            return BAD_FLOOD
    return OK


@njit
def check_games(first, step, S, tba, codes):
    """check_codes of games first, first + step, ... into codes[b]."""
    tb = tba[0]
    for b in range(first, S.shape[0], step):
        codes[b] = check_codes(S, tb, np.int64(b))


def check_batch(S: np.ndarray, tba: np.ndarray) -> np.ndarray:
    """check_codes of every game of batch S, on every thread."""
    codes = np.zeros(S.shape[0], dtype=np.int64)
    over_games(check_games, S.shape[0], S, tba, codes)
    return codes


def fuzz(tba: np.ndarray, n_games: int, seed: int = 0, batch: int = 256):
    """Random games 0..n_games-1 of `seed` (the random agent in both seats, from each game's
    agent RNG) checked after every decision: ({broken invariant: games}, first failure
    (game index, decision, what broke) or None, decisions played).

    The games run through the contract's batch kernels (reset, act, step) with the numba
    check_codes after each step, so nothing beyond check_codes is compiled for it; a slot
    whose game ends takes the next game, and once every game is started the finished slots
    leave the batch (swapped to its end), so exactly n_games are played."""
    from agents.tactics_david.baselines import AGENT_RANDOM, act_batch
    from envs.tactics_david.actions import N_ACTIONS
    from envs.tactics_david.kernels import autoreset_batch, reset_batch, step_batch

    if n_games < 0:
        raise ValueError(f"n_games {n_games} is negative")
    broken: dict[str, int] = {}
    first = None
    decisions = 0
    if n_games == 0:
        return broken, first, decisions
    B = min(batch, n_games)
    S = st.allocate(B)
    masks = np.zeros((B, N_ACTIONS), dtype=np.int8)
    actions = np.zeros(B, dtype=np.int64)
    rewards = np.zeros((B, st.N_PLAYERS), dtype=np.float32)
    terminated = np.zeros(B, dtype=np.bool_)
    final_score = np.zeros((B, st.N_PLAYERS), dtype=np.int16)
    final_length = np.zeros(B, dtype=np.int32)
    seat_agents = np.full(st.N_PLAYERS, AGENT_RANDOM, dtype=np.int8)
    reset_batch(S, tba, seed, np.arange(B, dtype=np.int64), masks)
    seen = np.zeros(B, dtype=np.int64)  # bits of the codes already counted in each slot's game
    stuck = np.zeros(B, dtype=np.bool_)  # games left with no legal action before their end
    next_index = B
    live = B

    def count(slots: np.ndarray) -> None:
        """Check the games of `slots` (a prefix is checked in place, others as a copy), and
        that each game not over has a legal action (its mask, as step_batch wrote it)."""
        nonlocal first
        empty = (masks[slots].sum(axis=1) == 0) & (S["stage"][slots] != STAGE_GAME_OVER)
        for b in slots[empty]:
            stuck[b] = True  # the game cannot go on: it leaves the batch like a finished one
            broken[NO_LEGAL_ACTION] = broken.get(NO_LEGAL_ACTION, 0) + 1
            if first is None:
                first = (int(S["game_index"][b]), int(S["decisions"][b]), NO_LEGAL_ACTION)
        prefix = slots.size == 0 or slots[-1] == slots.size - 1
        codes = check_batch(S[: slots.size] if prefix else S[slots], tba)
        for i in np.flatnonzero(codes):
            b, code = int(slots[i]), int(codes[i])
            if not seen[b] >> code & 1:
                seen[b] |= 1 << code
                broken[CODE_NAMES[code]] = broken.get(CODE_NAMES[code], 0) + 1
            if first is None:
                what = check_state(S, tba.view(np.recarray)[0], b) or [CODE_NAMES[code]]
                first = (int(S["game_index"][b]), int(S["decisions"][b]), what[0])

    count(np.arange(B))
    while True:
        view = slice(0, live)
        finished = np.flatnonzero((S["stage"][view] == STAGE_GAME_OVER) | stuck[view])
        decisions += int(S["decisions"][finished].sum())
        seen[finished] = 0
        stuck[finished] = False
        k = min(finished.size, n_games - next_index)  # the first k finished slots play on
        if k > 0:
            again = np.zeros(live, dtype=np.bool_)
            again[finished[:k]] = True
            next_index = autoreset_batch(S[view], tba, seed, again, next_index, masks[view])
            count(finished[:k])  # a new game's first state
        for b in finished[k:][::-1]:  # the others leave: the last live slot takes their place
            live -= 1
            if b != live:
                S[[b, live]] = S[[live, b]]
                masks[[b, live]] = masks[[live, b]]
                seen[[b, live]] = seen[[live, b]]
                stuck[[b, live]] = stuck[[live, b]]
        if live == 0:
            return broken, first, decisions
        view = slice(0, live)
        act_batch(S[view], tba, masks[view], seat_agents, actions[view])
        step_batch(
            S[view],
            tba,
            actions[view],
            masks[view],
            rewards[view],
            terminated[view],
            final_score[view],
            final_length[view],
        )
        count(np.arange(live))
