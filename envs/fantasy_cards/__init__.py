"""Tactical Assault: Fantasy Cards (seed: shared/seeds/000_966979c4608810fc.txt, edition 1.4).

What exists so far (issue 3): the rules as numbered clauses in docs/rules/fantasy_cards.md,
the rule data in configs/fantasy_cards/ (Tables 1-6, the Standard Game and campaign numbers,
the invented unit classes, card-effect table, 72-card deck and Random Drift table), the
loader :func:`envs.fantasy_cards.tables.load_tables` and the deck statistics in
:mod:`envs.fantasy_cards.deck_stats`. The engine (kernels, env, BatchEnv) follows in a later
issue and will be built on these tables.
"""
