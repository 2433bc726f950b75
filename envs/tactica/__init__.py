"""TACTICA: a hex-battlefield card wargame fought as a war of three battles.

The seed (003_2f16ffdbafd9a58e.txt) keeps only Part 3, the advanced game; the basic game is
rebuilt in docs/rules/tactica.md. What exists so far: the rule data (configs/tactica/*.yaml),
its loader (:mod:`envs.tactica.tables`, with the kernels' numba record ``Tables.arrays``),
small pure-Python reference functions for the seed's worked examples
(:mod:`envs.tactica.reference`), and the numba kernels of the combat arithmetic
(:mod:`envs.tactica.combat`) and decree requirements (:mod:`envs.tactica.decrees`), the
game state record (:mod:`envs.tactica.state`) and the card-place and pile kernels
(:mod:`envs.tactica.piles`: moves, RESUPPLY rebuilds, battle and war start, Recruitment, the
conservation check); the rules doc is checked by the shared :mod:`envs.core.doccheck` and
tests/tactica/test_tactica_doc.py. The rest of the engine (the turn kernels, PettingZoo env)
follows (issue 9).
"""
