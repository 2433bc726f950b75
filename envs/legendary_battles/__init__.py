"""Tactical Assault: Legendary Battles: Fantasy Cards played on a map of zones.

A PLAYABLE ruleset (envs/registry.py): ``legendary_battles_v0.env(options={"scenario": S})``
(a shipped scenario, or your own in a copied rule folder passed as ``config_dir``) is the
PettingZoo AEC env and ``legendary_battles_v0.BatchEnv`` steps many games per call, over the one Tactical Assault core
(envs/tactical_assault) shared with Fantasy Cards, with the zone geometry of ``geometry.py``
and ``zones.py`` (adjacency, distances in zones, effect radii, LOS between zone centres and LOS
arcs, fall back and drift routes, terrain templates, oversized units). The scenario format and
terrain types are loaded and validated by ``tables.py`` (data in configs/legendary_battles/);
``render.py`` and ``view.py`` draw the map (ASCII and PNG). Units and cards are Fantasy Cards'
(configs/fantasy_cards/). The rules are in docs/rules/legendary_battles.md.
"""
