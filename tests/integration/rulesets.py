"""Rulesets the integration tests take as examples, chosen from the registry rather than by
name, so that a ruleset's progress (data only -> in progress -> playable) does not leave a
test checking a refusal that no longer happens."""

from __future__ import annotations

from envs import registry


def _data_only() -> str:
    names = [n for n in registry.names() if not registry.entry(n).playable]
    assert names, "no data-only ruleset is left: the refusal tests need another example"
    return names[0]


# a ruleset with rules doc, data and loaders but no engine yet: every tool refuses it
DATA_ONLY = _data_only()
