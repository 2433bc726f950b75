"""Tactical Assault core: the card game shared by Fantasy Cards and Legendary Battles.

One set of numba kernels (cards, hands, decks, play windows, combat resolution, unit
statuses, victory) over one state record (state.py) and one tables record (tables.py). The
ground is data: each ruleset reduces its geometry to the `g_*` arrays of the tables record
(Legendary Battles: envs/legendary_battles/zones.py), read by the geometry kernels of
geometry.py, so one compiled core serves both rulesets.
"""
