"""What Tactics David's cold compile covers until the ruleset is registered: its one-game
kernels start, legal and apply. Profiled by the shared tool:

    PYTHONPATH=. python -m benchmarks.compile_profile --run benchmarks.td_compile_profile \
        [--top 25] [--out benchmarks/results]

It compiles against an empty temporary numba cache (removed afterwards), so the total is a
cold compile. "excl" is a function's own typing and lowering plus LLVM over its whole call
tree (docs/adding_a_ruleset.md, "Habits that keep compile time bounded").
"""

from __future__ import annotations


def compile_kernels() -> None:
    """Compile start, legal and apply by calling each once (one random game's first steps)."""
    import numpy as np

    from envs.tactics_david import kernels as K
    from envs.tactics_david import state as st
    from envs.tactics_david.actions import MAX_LEGAL
    from envs.tactics_david.record import build_record
    from envs.tactics_david.tables import load_tables

    tb = build_record(load_tables())
    S = st.allocate(1)
    out = np.zeros(MAX_LEGAL, dtype=np.int64)
    b = np.int64(0)
    n = K.start(S, tb, b, np.int64(0), np.int64(0), out)
    K.legal(S, tb, b, out)
    K.apply(S, tb, b, np.int64(out[n - 1]), out)
