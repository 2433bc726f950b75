"""Tactical Assault's in-kernel agents (random, heuristic) and whole-game self-play, shared by
Legendary Battles and Fantasy Cards: they read the ground and the scenario from the tables
record, so one compiled set serves both rulesets."""
