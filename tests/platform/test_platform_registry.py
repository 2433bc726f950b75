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


@pytest.fixture
def pending_doc(monkeypatch, tmp_path) -> tuple[str, int]:
    """(name, clauses left): a ruleset's rules doc copied to tmp_path with two of its clauses
    put back to 'to implement' (every engine runs every clause of its doc now), which the
    registry's pending_clauses then reads."""
    from envs.core import doccheck

    name = registry.names(playable_only=True)[0]
    sub = doccheck.subject(name)
    text = sub.doc.read_text(encoding="utf-8")
    for row in doccheck.clause_rows(text, sub.conventions)[:2]:
        line = next(ln for ln in text.splitlines() if ln.startswith(f"| {row[0]} |"))
        text = text.replace(line, line.replace(f"| {row[3]} |", "| to implement |", 1), 1)
    doc = tmp_path / "docs" / "rules" / f"{name}.md"
    doc.parent.mkdir(parents=True)
    doc.write_text(text, encoding="utf-8")
    real = doccheck.pending_clauses
    monkeypatch.setattr(doccheck, "pending_clauses", lambda n, root=tmp_path: real(n, root))
    assert len(doccheck.pending_clauses(name)) == 2
    return name, 2


def test_progress_warning_names_what_is_left(monkeypatch, pending_doc):
    name, left = pending_doc
    e = registry.entry(name)
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=IN_PROGRESS))
    msg = registry.progress_warning(name)
    assert f"{left} clauses of docs/rules/{name}.md are still 'to implement'" in msg
    assert registry.entry(name).playable and not registry.entry(name).complete
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=PLAYABLE))
    assert registry.progress_warning(name) is None


def test_a_command_prints_the_progress_note_once(monkeypatch, capsys, pending_doc):
    """A command checks its ruleset several times (balance: self-play, then the report); the
    "in progress" note is printed the first time only."""
    from agents import cli

    name, _ = pending_doc
    e = registry.entry(name)
    monkeypatch.setitem(registry.ENTRIES, name, dataclasses.replace(e, status=IN_PROGRESS))
    monkeypatch.setattr(cli, "_WARNED", set())
    cli.check_ruleset(name)
    cli.check_ruleset(name)
    assert capsys.readouterr().err.count("is in progress") == 1
