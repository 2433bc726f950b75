"""Generic agent kernels that every ruleset's agents call (the search tree)."""
