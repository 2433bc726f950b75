"""Tactics David (seed 004_10748bf01204f971.txt: Rule Book, Unit and Item Book, Battlefield Book).

The rules as numbered clauses are in docs/rules/tactics_david.md, the rule data in
configs/tactics_david/*.yaml with its loaders:

- ``tables.load_tables()``: statuses, specials, items, terrain, movement types, unit classes,
  unit types, attack areas, families and unit trees, battlefields, rule constants; with
  ``tables.units`` from ``unit_tables.load_unit_tables()`` (the 202 units and abilities).
- ``reference``: slow pure-Python reference rules for tests (unit stacking).
- ``render``: ASCII and PNG pictures of the battlefields and attack areas.

The engine (issue 8; docs/rules/tactics_david.md section Engine): ``state``, ``record`` (the
tables record), ``actions``, ``setup``, ``turn``, ``movement``, ``combat``, ``items``,
``grid``, ``units`` and the one-game kernels ``kernels.start/legal/apply``; ``driver`` plays
random whole games with the ``invariants`` check. The contract (playable in the registry: every
clause of the rules doc is run): ``observe`` and ``hidden`` (what each player may know, R54),
the batch kernels in ``kernels``, ``ruleset``, the env ``tactics_david_v0``,
``view.render_text`` and ``render.render_image``; agents in agents/tactics_david.
"""
