"""Tactics David's in-kernel agents: random and heuristic (baselines.py, heuristic.py) and
whole-game self-play (selfplay.py), the contract's act_one / act_batch / opponents_batch /
play_chunk (envs/core/ruleset.py)."""
