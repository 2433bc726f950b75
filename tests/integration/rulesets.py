"""Rulesets the integration tests take as examples, chosen from the registry rather than by
name, so that a ruleset's progress (data only -> in progress -> playable) does not leave a
test checking a refusal that no longer happens."""

from __future__ import annotations

import pytest

from envs import registry
from envs.core.ruleset import DATA_ONLY as DATA_ONLY_STATUS

# the data-only example the tests register (register_data_only) once every ruleset has an engine
EXAMPLE = "data_only_example"


def _data_only() -> str:
    names = [n for n in registry.names() if not registry.entry(n).playable]
    return names[0] if names else EXAMPLE


# a ruleset with rules doc, data and loaders but no engine yet: every tool refuses it
DATA_ONLY = _data_only()


def register_data_only(monkeypatch: pytest.MonkeyPatch) -> None:
    """Make DATA_ONLY a data-only entry of the registry for one test (nothing to do while the
    registry has a real one), so the refusal tests still test the refusal."""
    if DATA_ONLY == EXAMPLE:
        entry = registry.Entry(
            EXAMPLE, "A data-only example", DATA_ONLY_STATUS, "none.txt", env_module=None
        )
        monkeypatch.setitem(registry.ENTRIES, EXAMPLE, entry)
    assert not registry.entry(DATA_ONLY).playable
