"""The registry's three states: playable, in progress (an engine that still leaves rules out)
and data only, and what the tools say about a ruleset in progress."""

from __future__ import annotations

import dataclasses

import pytest

from envs import registry
from envs.core.doccheck import pending_clauses
from envs.core.ruleset import DATA_ONLY, IN_PROGRESS, PLAYABLE


@pytest.mark.parametrize("name", registry.names())
def test_state_matches_the_rules_doc(name):
    """A ruleset whose doc still has "to implement" clauses is not called playable, and one
    in progress with nothing left to implement must be flipped to playable."""
    e = registry.entry(name)
    pending = pending_clauses(name)
    if e.status == PLAYABLE:
        assert pending == []
    if e.status == IN_PROGRESS:
        assert pending, f"{name} implements every clause: mark it PLAYABLE"
    assert e.playable == (e.status != DATA_ONLY)


def test_progress_warning_names_what_is_left(monkeypatch):
    # a doc with clauses still to implement (once every engine is done, make one in tmp_path)
    name = next(n for n in registry.names() if pending_clauses(n))
    left = len(pending_clauses(name))
    e = registry.entry(name)
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=IN_PROGRESS))
    msg = registry.progress_warning(name)
    assert f"{left} clauses of docs/rules/{name}.md are still 'to implement'" in msg
    assert registry.entry(name).playable and not registry.entry(name).complete
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=PLAYABLE))
    assert registry.progress_warning(name) is None


def test_a_command_prints_the_progress_note_once(monkeypatch, capsys):
    """A command checks its ruleset several times (balance: self-play, then the report); the
    "in progress" note is printed the first time only."""
    from agents import cli

    name = next(n for n in registry.names() if pending_clauses(n))
    e = registry.entry(name)
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=IN_PROGRESS))
    monkeypatch.setattr(cli, "_WARNED", set())
    cli.check_ruleset(name)
    cli.check_ruleset(name)
    assert capsys.readouterr().err.count("is in progress") == 1
