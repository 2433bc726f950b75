"""What the benchmark harness needs to know about TAC and nothing else.

benchmarks/harness.py measures every ruleset through the contract (envs/core/ruleset.py);
a file benchmarks/<ruleset>.py, like this one, adds that ruleset's targets and sizes. Every
name is optional: a ruleset without a file gets the harness defaults and only the generic
targets (cold compile per path, cached start). Targets are reported next to the figures,
never asserted. "min": the figure must be at least the value; "max": at most.
"""

# Issue 2, section 5 (the 2-core reference machine).
TARGETS = {
    "batch_games_per_s": {"op": "min", "value": 10_000, "text": ">= 10,000 games/s"},
    "batch_decisions_per_s": {"op": "min", "value": 2_000_000, "text": ">= 2,000,000 decisions/s"},
    "selfplay_games_per_s": {"op": "min", "value": 10_000, "text": ">= 10,000 games/s"},
    "selfplay_decisions_per_s": {
        "op": "min",
        "value": 2_000_000,
        "text": ">= 2,000,000 decisions/s",
    },
    "million_games_s": {"op": "max", "value": 120.0, "text": "< 120 s end to end"},
    "aec_vs_connect_four": {"op": "min", "value": 2.0, "text": ">= 2x connect_four_v3"},
    "jit_speedup": {"op": "min", "value": 100.0, "text": ">= 100x NUMBA_DISABLE_JIT=1"},
    "bytes_per_game": {"op": "max", "value": 4096, "text": "<= 4 KB (4096 B)"},
    "peak_rss_bytes": {"op": "max", "value": 1_000_000_000, "text": "<= 1 GB (10^9 B)"},
}

# Sizes of the full run (the harness has its own --quick sizes).
PLAYERS = 2
AGENT = "random"  # the agent in every seat (a name of the ruleset's `agents`)
BATCH_SIZES = (1, 64, 1024, 16384)
SELFPLAY_GAMES = {1: 20_000, 2: 50_000}  # games per timed play_chunk call, by threads
NOJIT_GAMES = 6  # games played with NUMBA_DISABLE_JIT=1 (about 2,600 decisions/s)
MEMORY_NUM_ENVS = 100_000  # the peak_rss_bytes target is for this many concurrent games
MILLION_GAMES = 1_000_000
