"""Tactics David (seed 004_10748bf01204f971.txt: Rule Book, Unit and Item Book, Battlefield Book).

What exists so far (issue 3): the rules as numbered clauses in docs/rules/tactics_david.md, the
rule data in configs/tactics_david/*.yaml, and its loaders:

- ``tables.load_tables()``: statuses, specials, items, terrain, movement types, unit classes,
  unit types, attack areas, families and unit trees, battlefields, rule constants; with
  ``tables.units`` from ``unit_tables.load_unit_tables()`` (the 202 units and abilities).
- ``reference``: slow pure-Python reference rules for tests (unit stacking).
- ``render``: ASCII and PNG pictures of the battlefields and attack areas.

No environment yet: the engine (state, kernels, PettingZoo env) follows in a later issue.
"""
