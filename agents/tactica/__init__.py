"""TACTICA's agents: the numba baselines (random, heuristic) and whole-war self-play.

TACTICA is not registered yet (envs/registry.py): these are the pieces the contract's
act_one / play_chunk will be wired from (envs/core/ruleset.py)."""
