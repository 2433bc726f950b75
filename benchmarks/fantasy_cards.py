"""What the benchmark harness needs to know about Fantasy Cards (see benchmarks/tac.py for the
shape). Measured on the Standard Game (16 x 16 tabletop, 36-point forces chosen by the
players) with the `random` agent in both seats. Targets are reported next to the figures,
never asserted; the generic ones (cold compile <= 60 s per path, cached start) are the
harness's own.
"""

# Issue 7 (the 2-core reference machine).
TARGETS = {
    "selfplay_decisions_per_s": {
        "op": "min",
        "value": 1_000_000,
        "text": ">= 1,000,000 decisions/s (2 threads)",
    },
    "aec_vs_connect_four": {"op": "min", "value": 2.0, "text": ">= 2x connect_four_v3"},
    "jit_speedup": {"op": "min", "value": 100.0, "text": ">= 100x NUMBA_DISABLE_JIT=1"},
    "bytes_per_game": {"op": "max", "value": 16384, "text": "<= 16 KB (16384 B)"},
}

# Sizes of the full run (set after the first measurement of a game's length; see the report).
PLAYERS = 2
AGENT = "random"
BATCH_SIZES = (1, 64, 1024)
SELFPLAY_GAMES = {1: 2_000, 2: 4_000}  # games per timed play_chunk call, by threads
NOJIT_GAMES = 1  # games played with NUMBA_DISABLE_JIT=1
MEMORY_NUM_ENVS = 20_000
MILLION_GAMES = 20_000  # games end to end through `tacsim selfplay`
