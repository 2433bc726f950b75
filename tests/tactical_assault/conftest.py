"""Shared fixtures: the Crossroads of Hallin, Greywater Ford and Standard Game (tabletop)
records (built once per session)."""

from __future__ import annotations

import pytest

from envs.fantasy_cards.tabletop import standard_record
from envs.legendary_battles.zones import shipped_record
from envs.tactical_assault import tables


@pytest.fixture(scope="session")
def crossroads():
    return tables.as_tb(shipped_record("Crossroads of Hallin"))


@pytest.fixture(scope="session")
def greywater():
    return tables.as_tb(shipped_record("Greywater Ford"))


@pytest.fixture(scope="session")
def standard():
    return tables.as_tb(standard_record())
