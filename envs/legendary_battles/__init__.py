"""Tactical Assault: Legendary Battles: Fantasy Cards played on a map of zones.

What exists so far (issue 3, rules and data): the scenario format and the terrain types
(``tables.py``, data in configs/legendary_battles/), the zone geometry (``geometry.py``:
adjacency, distances in zones, effect radii, LOS between zone centres, LOS arcs, fall back and
random drift routes, terrain templates) and the map renderers (``render.py``: ASCII and PNG).
Units and cards are Fantasy Cards' (configs/fantasy_cards/); the engine, which shares the
Fantasy Cards card and combat kernels, follows in a later issue. No env yet.
The rules are in docs/rules/legendary_battles.md.
"""
