"""tacsim environments: one package per ruleset over shared numba cores."""
