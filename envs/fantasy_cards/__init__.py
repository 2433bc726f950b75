"""Tactical Assault: Fantasy Cards (seed: shared/seeds/000_966979c4608810fc.txt, edition 1.4).

A PLAYABLE ruleset (envs/registry.py): ``fantasy_cards_v0.env()`` is the PettingZoo AEC env and
``fantasy_cards_v0.BatchEnv`` steps many games per call, both over the one Tactical Assault core
(envs/tactical_assault: cards, hands, decks, play windows, combat) with the tabletop geometry of
``tabletop.py``. ``env(campaign=N)`` plays the Part VII campaign as N linked games
(``campaign_env.py``, ``campaign.py``). The rule data is in configs/fantasy_cards/ (loader
:func:`envs.fantasy_cards.tables.load_tables`), the clauses with their kernels and tests in
docs/rules/fantasy_cards.md; ``deck_stats`` gives the deck's card statistics and ``view`` the
ANSI and PNG pictures.
"""
