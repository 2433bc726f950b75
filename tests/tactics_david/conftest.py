"""Shared fixtures for the Tactics David tests: the real tables, loaded once."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from envs.core.config import CONFIG_ROOT
from envs.tactics_david.tables import Tables, load_tables

TD_CONFIG = CONFIG_ROOT / "tactics_david"


@pytest.fixture(scope="session")
def tables() -> Tables:
    return load_tables()


@pytest.fixture()
def config_copy(tmp_path: Path) -> Path:
    """A writable copy of configs/tactics_david to break in a test."""
    dst = tmp_path / "tactics_david"
    shutil.copytree(TD_CONFIG, dst)
    return dst
