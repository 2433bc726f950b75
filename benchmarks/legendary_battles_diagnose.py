"""Legendary Battles: how the heuristic loses. Plays games of one scenario with the heuristic
in one seat and random in the other, one decision at a time (the AEC path: the ruleset's
act_one and aec_step), and tabulates how each game ends: which end condition fired on which
player turn, who holds each zone to hold at the end, where the heuristic's units end, which
of its units ever had a card played on them, and which card parts it played or discarded.

    PYTHONPATH=. python -m benchmarks.legendary_battles_diagnose \
        --scenario crossroads_of_hallin --seat 1 --games 300

Prints the tables (a diagnostic, not a result file). Zones to hold are listed in position
order (row by row); "when the last player turn begins" is the picture before the other
side's last turn (the side that moves first has no turn after it).
"""

from __future__ import annotations

import argparse
from collections import Counter

import numpy as np

from envs.legendary_battles.ruleset import option_name
from envs.registry import get
from envs.tactical_assault.actions import (
    A_ACTION,
    A_DISCARD,
    A_SITUATION,
    A_UNIT,
    N_ACTIONS,
    STAGE_DISCARD,
    STAGE_GAME_OVER,
    STAGE_MAIN,
    STAGE_PLAY_UNIT,
    STAGE_WINDOW,
)
from envs.tactical_assault.state import MAX_UNITS, WHERE_ELIMINATED, WHERE_ON


def _covers(tb, S, v: int, y: int) -> bool:
    """Python twin of plays.covers (unit v covers position y, footprint included)."""
    if S["unit_where"][0, v] != WHERE_ON:
        return False
    p = int(S["unit_pos"][0, v])
    if p == y:
        return True
    for f in range(int(tb["sc_fp_n"][v])):
        z = int(tb["g_neighbour"][p, tb["sc_fp_step"][v, f, 0]])
        k2 = int(tb["sc_fp_step"][v, f, 1])
        if z >= 0 and k2 >= 0:
            z = int(tb["g_neighbour"][z, k2])
        if z == y:
            return True
    return False


def end_reason(tb, S) -> str:
    """Which end condition fired (flow.loses / flow.time_called), for the loser."""
    reasons = []
    for p in (0, 1):
        if tb["vc_half_points"] and 2 * S["points_lost"][0, p] >= S["points_total"][0, p]:
            reasons.append(f"seat {p} lost half its points")
        u = int(tb["vc_unit"])
        if u >= 0 and S["unit_side"][0, u] == p and S["unit_where"][0, u] == WHERE_ELIMINATED:
            reasons.append(f"seat {p} lost its key unit")
        on = sum(
            1
            for v in range(MAX_UNITS)
            if S["unit_side"][0, v] == p
            and S["unit_where"][0, v] == WHERE_ON
            and S["unit_type"][0, v] != tb["type_obstacle"]
        )
        if tb["vc_no_units"] and on == 0:
            reasons.append(f"seat {p} has no units left")
        e = int(tb["vc_exit_side"])
        if e == p and S["units_exited"][0, p] >= tb["vc_exit_count"]:
            reasons.append(f"seat {p} got its units off the map")
    if not reasons:
        reasons.append("turn limit")
    return "; ".join(reasons)


def hold_picture(tb, S) -> str:
    """Who covers each zone to hold: 0, 1, both (X) or nobody (.)."""
    out = []
    for z in range(int(tb["g_n_pos"])):
        if not tb["vc_hold"][z]:
            continue
        sides = {int(S["unit_side"][0, v]) for v in range(MAX_UNITS) if _covers(tb, S, v, z)}
        out.append("X" if len(sides) == 2 else (str(sides.pop()) if sides else "."))
    return "".join(out)


def diagnose(scenario: str, seat: int, games: int, seed: int) -> None:
    from envs.legendary_battles.view import _card

    rs = get("legendary_battles", options={"scenario": scenario})
    tba = rs.tables_batch
    tb = tba[0]
    names = rs.record.items
    by_option = {option_name(n): n for n in rs.tables.scenarios}
    width = int(rs.tables.scenarios[by_option[scenario]].grid.width)  # zone = row * width + col
    H, R = rs.agent_id("heuristic"), rs.agent_id("random")
    S = rs.allocate(1)
    mask = np.zeros((1, N_ACTIONS), dtype=np.int8)
    reasons: Counter = Counter()
    wins = 0
    ends: Counter = Counter()
    holds: Counter = Counter()
    played_on: Counter = Counter()
    moved: Counter = Counter()
    plays: Counter = Counter()
    discards: Counter = Counter()
    final_pos: Counter = Counter()
    lost_pts: Counter = Counter()
    obstacle: Counter = Counter()
    lost_seqs: Counter = Counter()  # the zones to hold turn by turn, in the games lost
    for g in range(games):
        rs.reset_batch(S, tba, seed, np.array([g]), mask)
        start = S["unit_pos"][0].copy()
        used = set()
        last_turn = 0
        cleared = -1
        before_last = "-"
        pictures: dict = {}
        while S["stage"][0] != STAGE_GAME_OVER:
            if int(S["turn"][0]) != last_turn:
                last_turn = int(S["turn"][0])
                if tb["vc_hold_side"] >= 0:
                    pictures[last_turn] = hold_picture(tb, S)
                if cleared < 0 and any(
                    S["unit_side"][0, v] == 1 - seat
                    and S["unit_type"][0, v] == tb["type_obstacle"]
                    and S["unit_where"][0, v] != WHERE_ON
                    for v in range(MAX_UNITS)
                ):
                    cleared = (last_turn - 1) // 2 + 1  # the heuristic's turn it went
                if last_turn == 2 * int(tb["sc_turn_limit"]) and tb["vc_hold_side"] >= 0:
                    before_last = hold_picture(tb, S)  # the other side's last turn begins
            cur = int(S["current"][0])
            a = int(rs.act_one(S, tba, 0, H if cur == seat else R))
            stage = int(S["stage"][0])
            if cur == seat:
                if stage == STAGE_PLAY_UNIT:
                    used.add(a - A_UNIT)
                elif stage in (STAGE_MAIN, STAGE_WINDOW) and a < A_DISCARD:
                    part = "A" if a < A_SITUATION else "S"
                    k = a - (A_ACTION if a < A_SITUATION else A_SITUATION)
                    plays[f"{part} {_card(k)}"] += 1
                elif stage == STAGE_DISCARD and A_DISCARD <= a < A_UNIT:
                    discards[_card(a - A_DISCARD)] += 1
            rs.aec_step(S, tba, a, mask[0])
        won = int(S["winner"][0]) == seat
        wins += won
        obstacle[(cleared, "won" if won else "lost")] += 1
        reason = end_reason(tb, S)
        reasons[(reason, "won" if won else "lost")] += 1
        ends[(int(S["turns_of"][0, 0]), int(S["turns_of"][0, 1]), "won" if won else "lost")] += 1
        if tb["vc_hold_side"] >= 0:
            holds[(before_last, hold_picture(tb, S), "won" if won else "lost")] += 1
            if not won:
                last = 2 * int(tb["sc_turn_limit"])
                seq = " ".join(pictures.get(t, "-") for t in range(last - 5, last + 1))
                lost_seqs[f"{seq} | {hold_picture(tb, S)}"] += 1
            lost_pts[(int(S["points_lost"][0, 1 - seat]), int(S["points_lost"][0, seat]))] += 1
        for v in range(MAX_UNITS):
            if S["unit_side"][0, v] != seat:
                continue
            key = f"{v}:{names[int(S['unit_type'][0, v])]}"
            played_on[key] += v in used
            moved[key] += int(S["unit_pos"][0, v]) != int(start[v])
            w = int(S["unit_where"][0, v])
            z = int(S["unit_pos"][0, v])
            c, r = z % width, z // width
            final_pos[
                (key, "elim" if w == WHERE_ELIMINATED else f"({c},{r})" if w == 1 else w)
            ] += 1
    print(f"\n== {scenario}: heuristic in seat {seat}, {games} games: won {wins / games:.1%}")
    print("\nend condition (result): games")
    for k, n in reasons.most_common():
        print(f"  {k}: {n}")
    print("\nround an enemy Obstacle left the battlefield (-1 never) (result): games")
    for k, n in sorted(obstacle.items()):
        print(f"  {k}: {n}")
    print("\nturns (seat 0, seat 1) at the end (result): games")
    for k, n in sorted(ends.items()):
        print(f"  {k}: {n}")
    if holds:
        print("\nzones to hold when the last player turn begins, at the end (result): games")
        for k, n in holds.most_common(20):
            print(f"  {k}: {n}")
        print(
            "\nzones to hold at the start of each of the last six player turns | at the end, "
            "games lost: games"
        )
        for k, n in lost_seqs.most_common(20):
            print(f"  {k}: {n}")
        print("\npoints lost (enemy, heuristic's): games")
        for k, n in lost_pts.most_common(12):
            print(f"  {k}: {n}")
    print("\nheuristic's units: games with a card played on it / games it ended elsewhere")
    for k in played_on:
        print(f"  {k}: played on {played_on[k]}, moved {moved[k]}")
    print("\nheuristic's units: most common end places")
    by_unit: dict = {}
    for (k, place), n in final_pos.items():
        by_unit.setdefault(k, []).append((n, place))
    for k, lst in by_unit.items():
        lst.sort(reverse=True)
        print(f"  {k}: " + ", ".join(f"{p} {n}" for n, p in lst[:6]))
    print("\ncard parts played by the heuristic (times)")
    for k, n in plays.most_common():
        print(f"  {k}: {n}")
    print("\ncards discarded by the heuristic (times)")
    for k, n in discards.most_common(12):
        print(f"  {k}: {n}")


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--scenario", default="crossroads_of_hallin")
    p.add_argument("--seat", type=int, default=1)
    p.add_argument("--games", type=int, default=300)
    p.add_argument("--seed", type=int, default=1)
    args = p.parse_args()
    diagnose(args.scenario, args.seat, args.games, args.seed)


if __name__ == "__main__":
    main()
