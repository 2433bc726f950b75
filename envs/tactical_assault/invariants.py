"""Invariants of a Tactical Assault game, checked after every decision by the tests and the
fuzzer: every card in exactly one place, statuses and positions consistent, points
eliminated consistent, no two units sharing a position outside Close Combat (on the tabletop,
FC R28, no two enemy units ever, and friends only while one moves through the other), and no
zone of an oversized unit's footprint off the map or covered by another unit (LB R28)."""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit
from envs.core.rng import randint
from envs.tactical_assault.actions import STAGE_GAME_OVER
from envs.tactical_assault.flow import holds, loses, reset_game
from envs.tactical_assault.plays import covers, fp_zone
from envs.tactical_assault.state import (
    MAX_UNITS,
    PLACE_DECK,
    PLACE_HAND,
    PLACE_PLAYED,
    SCORE_DRAW,
    SCORE_LOSS,
    SCORE_WIN,
    WHERE_ELIMINATED,
    WHERE_EXITED,
    WHERE_ON,
    WHERE_UNUSED,
)
from envs.tactical_assault.tables import AT_LIMIT_HOLD_ZONES, AT_LIMIT_MOST_UNITS, AT_LIMIT_SIDE_0
from envs.tactical_assault.turn import apply_action, legal_actions


def check(S: np.ndarray, tb, b: int) -> str:
    """'' when game b is consistent, else what is wrong (one line)."""
    n = int(tb.n_cards)
    for p in (0, 1):
        places = S["card_place"][b, p, :n]
        dc = int(S["deck_count"][b, p])
        deck = S["deck"][b, p, :dc]
        if sorted(deck.tolist()) != np.flatnonzero(places == PLACE_DECK).tolist():
            return f"seat {p}: the deck order does not hold exactly the PLACE_DECK cards"
        if (S["deck"][b, p, dc:] != -1).any():
            return f"seat {p}: cards past the deck count"
        if (places == PLACE_HAND).sum() > int(tb.hand_size):
            return f"seat {p}: more than {tb.hand_size} cards in hand"
        played = {
            int(S["fr_card"][b, i]) for i in range(S["depth"][b]) if S["fr_player"][b, i] == p
        }
        if set(np.flatnonzero(places == PLACE_PLAYED).tolist()) != played:
            return f"seat {p}: cards in play are not the stack's"
    lost = [0, 0]
    units = [0, 0]
    exited = [0, 0]
    at: dict[int, list[int]] = {}
    for u in range(MAX_UNITS):
        where = int(S["unit_where"][b, u])
        if where == WHERE_UNUSED:
            if S["unit_side"][b, u] != -1:
                return f"unit {u}: unused slot with a side"
            continue
        side = int(S["unit_side"][b, u])
        pos = int(S["unit_pos"][b, u])
        if where == WHERE_ON:
            if not 0 <= pos < tb.g_n_pos or not tb.g_standable[pos]:
                return f"unit {u}: on the battlefield at bad position {pos}"
            at.setdefault(pos, []).append(u)
        elif pos != -1:
            return f"unit {u}: off the battlefield with a position"
        if where == WHERE_EXITED:
            exited[side] += 1
        if where == WHERE_ELIMINATED:
            lost[side] += int(tb.type_points[S["unit_type"][b, u]])
            units[side] += 1
        if S["unit_status"][b, u] & ~np.uint8(3):
            return f"unit {u}: unknown status bits"
    if exited != S["units_exited"][b].tolist():
        return f"units exited {S['units_exited'][b]} != {exited}"
    if lost != S["points_lost"][b].tolist() or units != S["units_lost"][b].tolist():
        return (
            f"points/units eliminated {S['points_lost'][b]} {S['units_lost'][b]} != {lost} {units}"
        )
    for pos, us in at.items():
        if len(us) > 1:
            sides = {int(S["unit_side"][b, u]) for u in us}
            if len(sides) == 2 and not tb.g_cc_share:
                return f"position {pos}: enemy units {us} share a cell of the tabletop"
            movers = {int(S["fr_unit"][b, i]) for i in range(S["depth"][b])}
            movers.add(int(S["fb_unit"][b]))
            # the zone a Fall Back left is settled when the Fall Back ends (combat.end_fall_back)
            settling = (
                int(S["settle_zone"][b]) == pos
                or int(S["out_zone"][b]) == pos
                or (S["fb_unit"][b] >= 0 and int(S["fb_origin"][b]) == pos)
            )
            if len(sides) < 2 and not movers & set(us) and not settling:
                return f"position {pos}: units {us} of one side share it outside Close Combat"
            entered = [u for u in us if S["unit_entry"][b, u] >= 0]
            if len(sides) == 2 and len(entered) < len(us) - 1:
                return f"position {pos}: units {us} share it but only {entered} entered"
    if S["stage"][b] != STAGE_GAME_OVER and S["depth"][b] == 0 and S["fb_unit"][b] != -1:
        return "a Fall Back pending outside any card"
    footprint = oversized_code(S, tb, b)
    if footprint != OK:
        return f"an oversized unit's footprint: {CODE_NAMES[footprint]} (LB R28)"
    return ""


# ---------------------------------------------------------------- the same checks in numba
# (the fuzzer runs them after every decision of every game; codes instead of messages)
OK = 0
BAD_DECK = 1  # the deck order does not hold exactly the PLACE_DECK cards
BAD_HAND = 2  # more cards in hand than the hand size
BAD_PLAYED = 3  # cards in play are not the stack's
BAD_POSITION = 4  # a unit on the battlefield at a bad position, or off it with one
BAD_POINTS = 5  # points / units eliminated (or exited) do not match the units
BAD_SHARING = 6  # units share a position outside Close Combat
BAD_TURN = 7  # the seat to act is not a seat
BAD_RESULT = 8  # winner, rewards or score do not follow the game (or are set before its end)
CODE_NAMES = ("ok", "deck", "hand", "played", "position", "points", "sharing", "turn", "result")
NOT_DECIDED = -2  # expected_winner: the final state meets no end condition


@njit
def expected_winner(S, tb, b):
    """The winner a finished game b must have (-1 a Draw), from its final state alone: the
    losing conditions (flow.loses, both at once a Draw), else the turn limit's rule; NOT_DECIDED
    when neither holds (a game that stopped without a reason)."""
    l0 = loses(S, tb, b, 0)
    l1 = loses(S, tb, b, 1)
    if l0 or l1:
        return -1 if l0 and l1 else (1 if l0 else 0)
    if S["turns_of"][b, 0] < tb.sc_turn_limit or S["turns_of"][b, 1] < tb.sc_turn_limit:
        return NOT_DECIDED
    rule = tb.vc_at_limit
    if rule == AT_LIMIT_MOST_UNITS:
        e0 = S["units_lost"][b, 1]
        e1 = S["units_lost"][b, 0]
        return -1 if e0 == e1 else (0 if e0 > e1 else 1)
    if rule == AT_LIMIT_HOLD_ZONES:
        h = np.int64(tb.vc_hold_side)
        return h if holds(S, tb, b, h) else 1 - h
    return 0 if rule == AT_LIMIT_SIDE_0 else 1


@njit
def result_code(S, tb, b):
    """BAD_TURN / BAD_RESULT when the seat to act or the result is wrong, else OK."""
    w = S["winner"][b]
    if S["stage"][b] != STAGE_GAME_OVER:
        if S["current"][b] != 0 and S["current"][b] != 1:
            return BAD_TURN
        if w != -1:
            return BAD_RESULT
        for p in range(2):
            if S["rewards"][b, p] != 0.0 or S["score"][b, p] != 0:
                return BAD_RESULT
        return OK
    if w != expected_winner(S, tb, b):
        return BAD_RESULT
    for p in range(2):
        if w < 0:
            r, sc = 0.0, SCORE_DRAW
        elif p == w:
            r, sc = 1.0, SCORE_WIN
        else:
            r, sc = -1.0, SCORE_LOSS
        if S["rewards"][b, p] != r or S["score"][b, p] != sc:
            return BAD_RESULT
    return OK


@njit
def check_codes(S, tb, b):
    """The invariants of `check` as a code (OK when game b is consistent), and the seat to
    act and the result (result_code)."""
    code = result_code(S, tb, b)
    if code != OK:
        return code
    n = tb.n_cards
    for p in range(2):
        dc = np.int64(S["deck_count"][b, p])
        in_deck = 0
        hand = 0
        for k in range(n):
            place = S["card_place"][b, p, k]
            if place == PLACE_DECK:
                in_deck += 1
            elif place == PLACE_HAND:
                hand += 1
            elif place == PLACE_PLAYED:
                found = False
                for i in range(S["depth"][b]):
                    if S["fr_player"][b, i] == p and S["fr_card"][b, i] == k:
                        found = True
                if not found:
                    return BAD_PLAYED
        if in_deck != dc or hand > tb.hand_size:
            return BAD_DECK if in_deck != dc else BAD_HAND
        for i in range(dc):
            k = S["deck"][b, p, i]
            if k < 0 or S["card_place"][b, p, k] != PLACE_DECK:
                return BAD_DECK
        for i in range(S["depth"][b]):
            if (
                S["fr_player"][b, i] == p
                and S["card_place"][b, p, S["fr_card"][b, i]] != PLACE_PLAYED
            ):
                return BAD_PLAYED
    lost0 = 0
    lost1 = 0
    n0 = 0
    n1 = 0
    x0 = 0
    x1 = 0
    for u in range(MAX_UNITS):
        where = S["unit_where"][b, u]
        if where == WHERE_UNUSED:
            continue
        pos = S["unit_pos"][b, u]
        if where == WHERE_ON:
            if pos < 0 or pos >= tb.g_n_pos or tb.g_standable[pos] == 0:
                return BAD_POSITION
        elif pos != -1:
            return BAD_POSITION
        if where == WHERE_EXITED:
            if S["unit_side"][b, u] == 0:
                x0 += 1
            else:
                x1 += 1
        if where == WHERE_ELIMINATED:
            if S["unit_side"][b, u] == 0:
                lost0 += tb.type_points[S["unit_type"][b, u]]
                n0 += 1
            else:
                lost1 += tb.type_points[S["unit_type"][b, u]]
                n1 += 1
    if (
        lost0 != S["points_lost"][b, 0]
        or lost1 != S["points_lost"][b, 1]
        or n0 != S["units_lost"][b, 0]
        or n1 != S["units_lost"][b, 1]
        or x0 != S["units_exited"][b, 0]
        or x1 != S["units_exited"][b, 1]
    ):
        return BAD_POINTS
    for u in range(MAX_UNITS):
        if S["unit_where"][b, u] != WHERE_ON:
            continue
        for v in range(u + 1, MAX_UNITS):
            if S["unit_where"][b, v] != WHERE_ON or S["unit_pos"][b, v] != S["unit_pos"][b, u]:
                continue
            if S["unit_side"][b, u] != S["unit_side"][b, v]:
                if tb.g_cc_share == 0:
                    return BAD_SHARING  # the tabletop: enemies never share a cell (R28)
                continue
            fb = S["fb_unit"][b]
            here = S["unit_pos"][b, u]
            if S["settle_zone"][b] == here or S["out_zone"][b] == here or fb == u or fb == v:
                continue
            if fb >= 0 and S["fb_origin"][b] == S["unit_pos"][b, u]:
                continue
            enemy = False  # a multi-unit Close Combat (LB "Multiple unit close combat")
            for w in range(MAX_UNITS):
                if (
                    S["unit_where"][b, w] == WHERE_ON
                    and S["unit_pos"][b, w] == S["unit_pos"][b, u]
                    and S["unit_side"][b, w] != S["unit_side"][b, u]
                ):
                    enemy = True
            if enemy:
                continue
            mover = False
            for i in range(S["depth"][b]):
                if S["fr_unit"][b, i] == u or S["fr_unit"][b, i] == v:
                    mover = True
            if not mover:
                return BAD_SHARING
    return oversized_code(S, tb, b)


@njit
def oversized_code(S, tb, b):
    """An oversized unit's other zones (LB R28): each on the map and standable (else
    BAD_POSITION) and covered by no other unit (else BAD_SHARING): a unit entering one of them
    stands in the centre zone (Close Combat), and moves and Fall Backs go only where the whole
    footprint fits. Units moving or falling back are passing through (as for sharing)."""
    for u in range(MAX_UNITS):
        if S["unit_where"][b, u] != WHERE_ON or tb.sc_fp_n[u] == 0:
            continue
        p = np.int64(S["unit_pos"][b, u])
        for f in range(tb.sc_fp_n[u]):
            y = fp_zone(tb, u, p, f)
            if y < 0 or tb.g_standable[y] == 0:
                return BAD_POSITION
            for w in range(MAX_UNITS):
                if w == u or not covers(S, tb, b, w, y):
                    continue
                passing = S["fb_unit"][b] == w or S["fb_unit"][b] == u
                for i in range(S["depth"][b]):
                    if S["fr_unit"][b, i] == w or S["fr_unit"][b, i] == u:
                        passing = True
                if not passing:
                    return BAD_SHARING
    return OK


@njit
def fuzz(S, tb, b, seed, first_game, n_games, out):
    """Random games first_game .. +n_games of `seed` (turn.random_playout's player), every
    invariant checked after every decision. Returns (games, decisions, bad game or -1, code)."""
    decisions = 0
    for g in range(first_game, first_game + n_games):
        reset_game(S, tb, b, seed, g)
        while S["stage"][b] != STAGE_GAME_OVER:
            n = legal_actions(S, tb, b, out)
            if n == 0:
                return g - first_game, decisions, g, -1
            apply_action(S, tb, b, out[randint(S["agent_rng"], b, n)])
            decisions += 1
            code = check_codes(S, tb, b)
            if code != OK:
                return g - first_game, decisions, g, code
    return n_games, decisions, -1, OK


def fuzz_table(tb, seed: int, games: int, block: int = 1000, first: int = 0) -> dict:
    """Fuzz games first..first+games-1 of `seed` on tables record `tb` in blocks (a tqdm bar;
    Ctrl-C keeps the blocks done). Returns games, decisions, the first bad game and its
    code."""
    import time

    from tqdm import tqdm

    from envs.tactical_assault import state
    from envs.tactical_assault.actions import N_ACTIONS

    S = state.allocate(1)
    out = np.zeros(N_ACTIONS, dtype=np.int64)
    done = decisions = 0
    bad, code = -1, OK
    t0 = time.perf_counter()
    try:
        with tqdm(total=games, unit="game", desc="fuzz") as bar:
            for start in range(first, first + games, block):
                n = min(block, first + games - start)
                g, d, bad, code = fuzz(S, tb, 0, seed, start, n, out)
                done += g
                decisions += d
                bar.update(g)
                if bad >= 0:
                    break
    except KeyboardInterrupt:
        pass
    return {
        "games": done,
        "decisions": decisions,
        "bad_game": bad,
        "code": CODE_NAMES[code] if code >= 0 else "no legal action",
        "seconds": round(time.perf_counter() - t0, 1),
    }


def main(argv: list[str] | None = None) -> int:
    """python -m envs.tactical_assault.invariants --table standard --games 100000"""
    import argparse

    from envs.tactical_assault.tables import as_tb

    p = argparse.ArgumentParser(description="Fuzz random Tactical Assault games.")
    p.add_argument(
        "--table",
        default="standard",
        help="'standard' (the Fantasy Cards tabletop) or a shipped Legendary Battles scenario name",
    )
    p.add_argument("--games", type=int, required=True)
    p.add_argument("--seed", type=int, default=2026)
    p.add_argument("--block", type=int, default=1000)
    p.add_argument("--first", type=int, default=0, help="index of the first game")
    args = p.parse_args(argv)
    if args.games < 1 or args.block < 1 or args.first < 0:
        p.error("--games and --block must be at least 1, --first at least 0")
    if args.table == "standard":
        from envs.fantasy_cards.tabletop import standard_record

        rec = standard_record()
    else:
        from envs.legendary_battles.zones import shipped_record

        try:
            rec = shipped_record(args.table)
        except ValueError as e:
            p.error(str(e))
    # the package's module, not __main__: one compiled (and cached) copy of the kernels
    from envs.tactical_assault import invariants

    r = invariants.fuzz_table(as_tb(rec), args.seed, args.games, args.block, args.first)
    print(r)
    return 0 if r["bad_game"] < 0 else 1


if __name__ == "__main__":
    raise SystemExit(main())
