"""tacsim agents: random and heuristic baselines (usable in numba and Python), self-play,
balance estimation, training and the `tacsim` command."""
