"""What the benchmark harness needs to know about Tactics David (see benchmarks/tac.py for the
shape). Measured with the default options (a random battlefield per game, a Deathmatch cut
after 30 Turns, I14) and the `random` agent in both seats: a game is ~340 decisions (the
heuristic's ~250). Targets are reported next to the figures, never asserted.
"""

# Issue 8, "observation, the contract, agents, the env" (the 2-core reference machine).
TARGETS = {
    "selfplay_decisions_per_s": {
        "op": "min",
        "value": 300_000,
        "text": ">= 300,000 decisions/s (2 threads)",
    },
    "aec_vs_connect_four": {"op": "min", "value": 2.0, "text": ">= 2x connect_four_v3"},
    "jit_speedup": {"op": "min", "value": 100.0, "text": ">= 100x NUMBA_DISABLE_JIT=1"},
    "bytes_per_game": {"op": "max", "value": 32_768, "text": "<= 32 KB (32,768 B)"},
}

# Sizes of the full run (a random game is ~340 decisions).
PLAYERS = 2
AGENT = "random"
BATCH_SIZES = (1, 64, 1024)
SELFPLAY_GAMES = {1: 5_000, 2: 10_000}  # games per timed play_chunk call, by threads
NOJIT_GAMES = 2  # games played with NUMBA_DISABLE_JIT=1
MEMORY_NUM_ENVS = 20_000
MILLION_GAMES = 100_000  # games end to end through `tacsim selfplay` (a million: ~20 min)
