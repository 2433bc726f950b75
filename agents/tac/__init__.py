"""TAC's agents: the numba baselines (random, heuristic) and the in-kernel self-play kernel."""
