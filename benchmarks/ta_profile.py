"""Where a Tactical Assault ruleset's self-play time goes: random games played inside numba on
one thread, each decision's legal listing (turn.legal_actions) and its application
(turn.apply_action, the resolution machine included) timed apart, by decision stage.

    PYTHONPATH=. python -m benchmarks.ta_profile --ruleset fantasy_cards --games 200

A diagnosis, like compile_profile.py (the harness's figures are the judged ones). Times are
read from the thread's CPU clock (Linux clock_gettime(CLOCK_THREAD_CPUTIME_ID), called
through ctypes inside the kernel), so other jobs on a shared machine weigh little on them;
each reading costs a few hundred ns, which is in every row (the "discard" row, whose listing
is a loop over the hand, shows about how much). The profile kernel compiles in seconds once
the ruleset's kernels are in numba's cache: it calls them, it does not copy them.
"""

from __future__ import annotations

import argparse
import ctypes
import time

import numpy as np

CLOCK_THREAD_CPUTIME_ID = 3  # Linux <time.h>


def _kernel():
    """The profile kernel (built on first use: importing this module compiles nothing). Plain
    numba.njit, not cached: it holds a ctypes function, which numba's cache cannot key."""
    from numba import njit

    from envs.core.rng import randint
    from envs.tactical_assault import turn
    from envs.tactical_assault.actions import N_ACTIONS, STAGE_GAME_OVER
    from envs.tactical_assault.flow import reset_game

    clock = ctypes.CDLL(None).clock_gettime
    clock.argtypes = [ctypes.c_int, ctypes.c_void_p]
    clock.restype = ctypes.c_int

    @njit
    def now(ts):
        clock(CLOCK_THREAD_CPUTIME_ID, ts.ctypes.data)
        return ts[0] * 1_000_000_000 + ts[1]

    @njit
    def profile(S, tba, seed, games, acc):
        """Games 0..games-1 with uniformly random legal actions; acc[stage] += (legal ns,
        apply ns, decisions, legal actions listed)."""
        tb = tba[0]
        ts = np.zeros(2, np.int64)
        buf = np.empty(N_ACTIONS, np.int64)
        for g in range(games):
            reset_game(S, tb, 0, seed, g)
            while S["stage"][0] != STAGE_GAME_OVER:
                st = S["stage"][0]
                t0 = now(ts)
                n = turn.legal_actions(S, tb, 0, buf)
                t1 = now(ts)
                a = buf[randint(S["agent_rng"], 0, n)]
                t2 = now(ts)
                turn.apply_action(S, tb, 0, a)
                t3 = now(ts)
                acc[st, 0] += t1 - t0
                acc[st, 1] += t3 - t2
                acc[st, 2] += 1
                acc[st, 3] += n

    return profile


def main(argv: list[str] | None = None) -> None:
    import envs
    from envs.tactical_assault.actions import STAGE_NAMES

    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--ruleset", default="fantasy_cards", help="a Tactical Assault ruleset")
    p.add_argument("--games", type=int, default=200, help="random games profiled")
    p.add_argument("--seed", type=int, default=0)
    args = p.parse_args(argv)
    if args.games < 1:
        raise SystemExit(f"--games must be at least 1, got {args.games}")
    rs = envs.get_ruleset(args.ruleset)
    if rs.state_dtype.names is None or "fr_play" not in rs.state_dtype.names:
        raise SystemExit(f"{args.ruleset} does not run on the Tactical Assault core")
    profile = _kernel()
    S = rs.allocate(1, 2)
    acc = np.zeros((64, 4), np.int64)
    t0 = time.perf_counter()
    profile(S, rs.tables_batch, np.int64(args.seed), np.int64(1), acc)
    print(f"compile (or cache load) and one game: {time.perf_counter() - t0:.1f} s")
    acc[:] = 0
    c0 = time.process_time()
    profile(S, rs.tables_batch, np.int64(args.seed), np.int64(args.games), acc)
    cpu = time.process_time() - c0
    dec = int(acc[:, 2].sum())
    legal, apply = int(acc[:, 0].sum()), int(acc[:, 1].sum())
    print(
        f"{args.ruleset}: {args.games} games, {dec:,} decisions, {cpu:.2f} s CPU "
        f"({dec / cpu:,.0f} decisions/s on one thread, timers included)"
    )
    print(f"per decision: legal listing {legal / dec:,.0f} ns, apply {apply / dec:,.0f} ns")
    head = f"{'stage':32s} {'decisions':>9s} {'share':>6s} {'legal ns':>9s} {'apply ns':>9s}"
    print(f"{head} {'time share':>10s} {'legal/dec':>9s}")
    for st in np.argsort(-(acc[:, 0] + acc[:, 1])):
        n = int(acc[st, 2])
        if n == 0:
            continue
        share = (acc[st, 0] + acc[st, 1]) / (legal + apply)
        print(
            f"{STAGE_NAMES.get(int(st), str(st)):32s} {n:9,d} {n / dec:6.1%} "
            f"{acc[st, 0] / n:9,.0f} {acc[st, 1] / n:9,.0f} {share:10.1%} {acc[st, 3] / n:9.1f}"
        )


if __name__ == "__main__":
    main()
