"""Shared fixtures: the Crossroads of Hallin record (built once per session)."""

from __future__ import annotations

import pytest

from envs.legendary_battles.zones import shipped_record
from envs.tactical_assault import tables


@pytest.fixture(scope="session")
def crossroads():
    return tables.as_tb(shipped_record("Crossroads of Hallin"))


@pytest.fixture(scope="session")
def greywater():
    return tables.as_tb(shipped_record("Greywater Ford"))
