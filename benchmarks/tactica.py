"""What the benchmark harness needs to know about TACTICA (see benchmarks/tac.py for the
shape). Measured with the default options (the advanced game, one episode = a whole war of
up to three battles) and the `random_fighter` agent in both seats: the plain `random` agent
surrenders about half the times it is offered, so its wars are ~80 decisions, mostly
deployment, and measure setup rather than play; random_fighter fights every battle out
(~1,300 decisions a war). Targets are reported next to the figures, never asserted.
"""

# Issue 9, "Agents, tests, pictures, speed" (the 2-core reference machine).
TARGETS = {
    "selfplay_decisions_per_s": {
        "op": "min",
        "value": 500_000,
        "text": ">= 500,000 decisions/s (2 threads)",
    },
    "aec_vs_connect_four": {"op": "min", "value": 2.0, "text": ">= 2x connect_four_v3"},
    "jit_speedup": {"op": "min", "value": 100.0, "text": ">= 100x NUMBA_DISABLE_JIT=1"},
}

# Sizes of the full run (a war is ~1,300 decisions, 300 times a TAC game's).
PLAYERS = 2
AGENT = "random_fighter"
BATCH_SIZES = (1, 64, 1024)
SELFPLAY_GAMES = {1: 1_000, 2: 2_000}  # wars per timed play_chunk call, by threads
NOJIT_GAMES = 2  # wars played with NUMBA_DISABLE_JIT=1
MEMORY_NUM_ENVS = 20_000
MILLION_GAMES = 20_000  # wars end to end through `tacsim selfplay` (a million would take hours)
