"""Every registered ruleset's rules doc is complete (envs/core/doccheck.py), and the check can
fail: each kind of problem is put into a copy of each doc and must be reported.

The broken copies are made from each doc's own rows, so a new ruleset is checked by
registering it (and giving its DocConventions)."""

from __future__ import annotations

import dataclasses
import re

import pytest

from envs import registry
from envs.core import doccheck as dc

NAMES = registry.names()


@pytest.fixture(scope="module", params=NAMES)
def case(request) -> tuple[dc.DocSubject, str]:
    sub = dc.subject(request.param)
    return sub, sub.doc.read_text(encoding="utf-8")


def _rows(case) -> list[list[str]]:
    sub, text = case
    return dc.clause_rows(text, sub.conventions)


def _line_of(text: str, cid: str) -> str:
    return next(ln for ln in text.splitlines() if re.match(rf"^\| {re.escape(cid)} \|", ln))


def _reported(problems: list[str], complaint: str) -> None:
    assert any(complaint in p for p in problems), problems


def test_every_registered_ruleset_has_doc_conventions() -> None:
    assert set(dc.CONVENTIONS) == set(NAMES)


def test_rules_doc_is_complete(case) -> None:
    sub, text = case
    assert dc.problems(text, sub) == []
    assert len(_rows(case)) >= max(sub.conventions.min_clauses, 20)


# ---------------------------------------------------------------- the checks can fail


def test_placeholder_is_reported(case) -> None:
    sub, text = case
    _reported(dc.problems(text + "\nWho moves first: TBD\n", sub), "placeholder 'TBD'")


def test_duplicate_clause_id_is_reported(case) -> None:
    sub, text = case
    first, second = _rows(case)[0][0], _rows(case)[1][0]
    broken = text.replace(f"| {second} |", f"| {first} |", 1)
    _reported(dc.problems(broken, sub), f"duplicate clause id {first}")


def test_bad_status_is_reported(case) -> None:
    sub, text = case
    row = _rows(case)[0]
    line = _line_of(text, row[0])
    broken = text.replace(line, line.replace(f"| {row[3]} |", "| maybe |", 1), 1)
    _reported(dc.problems(broken, sub), f"{row[0]}: bad status 'maybe'")


def test_undefined_reading_is_reported(case) -> None:
    sub, text = case
    row = next(r for r in _rows(case) if r[3].startswith("reading chosen"))
    ref = dc.REF.findall(row[3])[0]
    line = _line_of(text, row[0])
    # a number no rules doc defines (R99 was one until Tactics David's tdabA readings)
    broken = text.replace(line, line.replace(ref, "R9999", 1), 1)
    _reported(dc.problems(broken, sub), "R9999 referenced in a clause table but not defined")


def test_reading_without_its_number_is_reported(case) -> None:
    sub, text = case
    row = next(r for r in _rows(case) if r[3].startswith("reading chosen"))
    line = _line_of(text, row[0])
    broken = text.replace(line, line.replace(f"| {row[3]} |", "| reading chosen |", 1), 1)
    _reported(dc.problems(broken, sub), f"{row[0]}: reading chosen without an R#")


def test_unreferenced_invention_is_reported(case) -> None:
    sub, text = case
    defined = dc.defined_refs(text)["Invented"]
    # a new definition next to the last one, in the doc's own style
    last = defined[-1]
    head = next(
        ln for ln in dc.section(text, "Invented").splitlines() if re.search(rf"\b{last}\b", ln)
    )
    broken = text.replace(head, head.replace(last, "I98", 1) + "\n\n" + head, 1)
    _reported(dc.problems(broken, sub), "I98 defined but never referenced by a clause")


def test_invention_defined_twice_is_reported(case) -> None:
    sub, text = case
    first = dc.defined_refs(text)["Invented"][0]
    head = next(
        ln
        for ln in dc.section(text, "Invented").splitlines()
        if re.search(rf"^(?:#+ |- \*\*|\| ){first}\b", ln)
    )
    broken = text.replace(head, head + "\n\n" + head, 1)
    _reported(dc.problems(broken, sub), f"{first} defined twice")


def test_few_clauses_are_reported(case) -> None:
    sub, text = case
    demanding = dataclasses.replace(
        sub, conventions=dataclasses.replace(sub.conventions, min_clauses=10_000)
    )
    _reported(dc.problems(text, demanding), "clauses, want 10000")


def test_kernel_and_test_must_exist_once_named(case) -> None:
    """A data-only doc may leave Kernel/Test as '—'; whatever a doc names must exist."""
    sub, text = case
    row = next(r for r in _rows(case) if r[4] != dc.NONE or not sub.playable)
    line = _line_of(text, row[0])
    cells = f"| {row[3]} | {row[4]} | {row[5]} |"
    assert cells in line
    broken = text.replace(
        line, line.replace(cells, f"| {row[3]} | rules.no_such_kernel | test_x.py::test_y |"), 1
    )
    problems = dc.problems(broken, sub)
    _reported(problems, f"{row[0]}: kernel 'rules.no_such_kernel' does not exist")
    _reported(problems, f"{row[0]}: test 'test_x.py::test_y' does not exist")


def test_playable_ruleset_needs_kernels_tests_and_no_pending_clause(case) -> None:
    """A data-only ruleset registered as playable: its '—' cells and its 'to implement'
    clauses are reported (what is left to do before it may be registered playable)."""
    sub, text = case
    pretend = dataclasses.replace(sub, playable=True)
    problems = dc.problems(text, pretend)
    pending = [r for r in _rows(case) if r[3].split(" (")[0] in sub.conventions.pending]
    empty = [
        r
        for r in _rows(case)
        if r[4] == dc.NONE and r[3].split(" (")[0] not in sub.conventions.skipped
    ]
    for r in pending:
        _reported(problems, f"{r[0]}: status 'to implement' in a playable ruleset")
    for r in empty:
        _reported(problems, f"{r[0]}: kernel '—' does not exist")
    if sub.playable:
        assert problems == []  # it is playable: nothing left
    else:
        assert pending or empty


def test_undefined_clause_reference_is_reported(case) -> None:
    sub, text = case
    cid = _rows(case)[0][0]
    bogus = re.sub(r"\d+$", "97", cid)
    _reported(
        dc.problems(text + f"\nSee {bogus}.\n", sub), f"reference to undefined clause {bogus}"
    )


def test_broken_link_is_reported(case) -> None:
    sub, text = case
    _reported(dc.problems(text + "\n![x](nowhere/x.png)\n", sub), "broken link nowhere/x.png")


# rulesets whose data files name readings or inventions (R#/I#) in their rows
WITH_DATA_REFS = [n for n in NAMES if dc.config_refs(dc.subject(n).config)]


def test_some_ruleset_data_names_readings() -> None:
    assert WITH_DATA_REFS, "no configs/ names an R#/I#: the next test checks nothing"


@pytest.mark.parametrize("name", WITH_DATA_REFS)
def test_reference_in_the_data_must_be_defined(name: str) -> None:
    sub = dc.subject(name)
    text = sub.doc.read_text(encoding="utf-8")
    used = dc.config_refs(sub.config)
    ref = sorted(used)[0]
    broken = re.sub(rf"\b{ref}\b", ref + "9", text)  # defined and used as another number
    _reported(dc.problems(broken, sub), f"{ref} used by")
