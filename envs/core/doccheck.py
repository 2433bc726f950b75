"""The rules-doc completeness check shared by every ruleset (ARCHITECTURE.md sections 8, 11).

A rules doc (docs/rules/<ruleset>.md) has a ``## Clauses`` section of tables whose rows are

    | <clause id> | <seed section> | <rule> | <status> | <kernel> | <test> |

and ``## Readings`` / ``## Invented`` sections defining each ``R#`` / ``I#`` (as a ``### R1``
heading, a ``- **R1**`` bullet or a ``| R1 |`` table row). :func:`problems` lists every way a
doc falls short (empty when it is complete):

- no placeholder text (``TBD``, ``TODO``, ``???``, ``to be decided``);
- clause ids unique, every row six cells, a rule, a known status; ``reading chosen`` names an
  R#, ``invented`` an I#; a playable ruleset has no ``to implement`` clause left;
- Kernel and Test: ``—`` while the ruleset is data only (or the clause is ``not
  implemented``); otherwise every ``module.function`` resolves inside ``envs/<ruleset>/`` and
  every ``file::test`` is defined in ``tests/<ruleset>/``;
- every R#/I# a clause names is defined once, and every defined one is named by a clause;
  R#/I# named in the rule data (``ref``/``refs``/``invention`` keys of configs/<ruleset>/) are
  defined;
- every clause id named anywhere in the doc is defined; relative links lead to files;
- the ruleset's own requirements (:class:`DocConventions`): clause-id pattern, statuses,
  seed sections that must have a clause, a minimum number of clauses.

Rulesets differ only by their :class:`DocConventions` (``CONVENTIONS``); ruleset-specific
checks of the Data section (entry lists, vocabularies) stay in that ruleset's tests and can use
the helpers here (:func:`section`, :func:`table_rows`, :func:`unexplained`).
"""

from __future__ import annotations

import importlib
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
PLACEHOLDERS = ("TBD", "TODO", "???", "to be decided")
NONE = "—"  # an empty Kernel/Test cell
REF = re.compile(r"\b([RI][1-9]\d*)\b")
_DEFINITION = re.compile(r"^(?:#+ |- \*\*|\| )([RI][1-9]\d*)\b", re.M)
_SEPARATOR = re.compile(r"\|(\s*:?-+:?\s*\|)+")
_LINK = re.compile(r"\]\(([^)\s]+)\)")
_TEST_DEF = re.compile(r"^def (test_\w+)\(", re.M)
CONFIG_REF_KEYS = ("ref", "refs", "invention")


@dataclass(frozen=True)
class DocConventions:
    """What differs between the rules docs of two rulesets."""

    clause_id: str  # regex of one clause id, e.g. r"TAC-\d+(?:\.\d+)+"
    statuses: tuple[str, ...] = ("to implement", "reading chosen", "invented")
    pending: tuple[str, ...] = ("to implement",)  # not allowed once the ruleset is playable
    skipped: tuple[str, ...] = ()  # statuses whose Kernel/Test may stay "—" ("not implemented")
    seed_sections: tuple[str, ...] = ()  # first number of a clause id that must have a clause
    min_clauses: int = 1
    case_sensitive_placeholders: bool = False
    # an R#/I# also counts as used when a table outside Readings/Invented names it (e.g. a
    # table of scenario files, all invented)
    refs_from_other_tables: bool = False
    # engines this ruleset runs on (Fantasy Cards and Legendary Battles: the Tactical Assault
    # core): a Kernel cell "<engine>.<module>.<function>" resolves in envs/<engine>/ and a Test
    # cell "<engine>/<file>::<test>" in tests/<engine>/
    shared: tuple[str, ...] = ()


CONVENTIONS: dict[str, DocConventions] = {
    "tac": DocConventions(
        clause_id=r"TAC-\d+(?:\.\d+)+",
        statuses=("implemented", "not implemented", "reading chosen", "invented"),
        skipped=("not implemented",),
        seed_sections=tuple(str(i) for i in range(1, 12)),
        case_sensitive_placeholders=True,
    ),
    # Fantasy Cards and Legendary Battles are built on the Tactical Assault core part by part
    # while data only: a clause whose kernel exists is "implemented" (as TACTICA)
    "fantasy_cards": DocConventions(
        clause_id=r"FC-\d+(?:\.\d+)+",
        min_clauses=100,
        statuses=("implemented", "to implement", "reading chosen", "invented"),
        shared=("tactical_assault",),
    ),
    "legendary_battles": DocConventions(
        clause_id=r"LB-(?:\d+|S)(?:\.\d+)+",
        refs_from_other_tables=True,
        statuses=("implemented", "to implement", "reading chosen", "invented"),
        shared=("tactical_assault",),
    ),
    # TACTICA is built chapter by chapter while data only: a clause whose kernel exists is
    # "implemented" before the ruleset is playable (the combat arithmetic, decree
    # requirements and battlefield geometry so far)
    "tactica": DocConventions(
        clause_id=r"TT-[AB]\.\d+(?:\.\d+)*",
        statuses=("implemented", "to implement", "reading chosen", "invented"),
    ),
    # Tactics David is built chapter by chapter (data only, now in progress), like TACTICA: a
    # clause whose kernel and test exist is "implemented" before the ruleset is playable
    "tactics_david": DocConventions(
        clause_id=r"TD-\d+(?:\.\d+)+",
        statuses=("implemented", "to implement", "reading chosen", "invented"),
    ),
}


@dataclass(frozen=True)
class DocSubject:
    """Where one ruleset's doc, code, tests and data live, and whether it is playable."""

    name: str
    conventions: DocConventions
    playable: bool
    doc: Path
    package: str  # kernels resolve as f"{package}.{module}"
    tests: Path
    config: Path


def subject(name: str, root: Path = ROOT) -> DocSubject:
    """The doc check's view of a registered ruleset."""
    from envs.registry import entry

    e = entry(name)
    return DocSubject(
        name=name,
        conventions=CONVENTIONS[name],
        playable=e.complete,  # an engine in progress may still have rows to implement
        doc=root / "docs" / "rules" / f"{name}.md",
        package=f"envs.{name}",
        tests=root / "tests" / name,
        config=root / "configs" / name,
    )


# ---------------------------------------------------------------- reading a doc


def section(text: str, title: str) -> str:
    """The body of ``## title`` up to the next level-2 heading ('' when absent)."""
    m = re.search(rf"^## {re.escape(title)}[ \t]*\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    return m.group(1) if m else ""


def table_rows(text: str) -> list[list[str]]:
    """Cells of every markdown table body row (header and separator rows skipped)."""
    rows = []
    lines = text.splitlines()
    for i, line in enumerate(lines):
        s = line.strip()
        if not (s.startswith("|") and s.endswith("|")) or _SEPARATOR.fullmatch(s):
            continue
        nxt = lines[i + 1].strip() if i + 1 < len(lines) else ""
        if _SEPARATOR.fullmatch(nxt):
            continue  # a header row
        rows.append([c.strip() for c in s[1:-1].split("|")])
    return rows


def clause_rows(text: str, conv: DocConventions) -> list[list[str]]:
    """The cells of every clause row of the Clauses section."""
    cid = re.compile(conv.clause_id)
    return [r for r in table_rows(section(text, "Clauses")) if cid.fullmatch(r[0])]


def pending_clauses(name: str, root: Path = ROOT) -> list[str]:
    """Ids of the clauses of a ruleset's rules doc whose status is still pending ("to
    implement"): what an engine in progress leaves out."""
    sub = subject(name, root)
    if not sub.doc.is_file():
        return []
    conv = sub.conventions
    rows = clause_rows(sub.doc.read_text(), conv)
    return [r[0] for r in rows if len(r) > 3 and r[3].partition(" (")[0] in conv.pending]


def defined_refs(text: str) -> dict[str, list[str]]:
    """R#/I# defined in the Readings and Invented sections (with repeats)."""
    return {
        title: [d for d in _DEFINITION.findall(section(text, title)) if d[0] == title[0]]
        for title in ("Readings", "Invented")
    }


def unexplained(text: str, values, where: str | None = None) -> list[str]:
    """The values not written as `value` in the doc (or in its section `where`)."""
    body = text if where is None else section(text, where)
    return sorted(v for v in set(values) if f"`{v}`" not in body)


@cache
def _test_names(tests: Path) -> dict[str, frozenset[str]]:
    return {
        f.name: frozenset(_TEST_DEF.findall(f.read_text(encoding="utf-8")))
        for f in sorted(tests.glob("test_*.py"))
    }


def _kernel_exists(package: str, ref: str) -> bool:
    mod, _, fn = ref.rpartition(".")
    if not mod or not fn:
        return False
    try:
        return hasattr(importlib.import_module(f"{package}.{mod}"), fn)
    except ImportError:
        return False


def config_refs(config: Path) -> dict[str, set[str]]:
    """R#/I# that the rule data names under a ref/refs/invention key -> the files naming it."""
    out: dict[str, set[str]] = {}

    def walk(node, file: str) -> None:
        if isinstance(node, dict):
            for k, v in node.items():
                if k in CONFIG_REF_KEYS:
                    for ref in [v] if isinstance(v, str) else v if isinstance(v, list) else []:
                        if isinstance(ref, str) and REF.fullmatch(ref):
                            out.setdefault(ref, set()).add(file)
                else:
                    walk(v, file)
        elif isinstance(node, list):
            for v in node:
                walk(v, file)

    for path in sorted(config.rglob("*.yaml")) if config.is_dir() else []:
        walk(yaml.safe_load(path.read_text(encoding="utf-8")), path.relative_to(config).as_posix())
    return out


# ---------------------------------------------------------------- the checks


def placeholder_problems(text: str, conv: DocConventions) -> list[str]:
    if conv.case_sensitive_placeholders:
        return [f"placeholder {p!r}" for p in PLACEHOLDERS if p in text]
    low = text.lower()
    return [f"placeholder {p!r}" for p in PLACEHOLDERS if p.lower() in low]


def clause_problems(text: str, sub: DocSubject) -> list[str]:
    """Ids, cells, statuses, Kernel and Test of every clause row."""
    conv = sub.conventions
    rows = clause_rows(text, conv)
    if not rows:
        return ["no clause rows"]
    out: list[str] = []
    if len(rows) < conv.min_clauses:
        out.append(f"only {len(rows)} clauses, want {conv.min_clauses}")
    ids = [r[0] for r in rows]
    out += [f"duplicate clause id {i}" for i in sorted({x for x in ids if ids.count(x) > 1})]
    have = {re.search(r"\d+", i.split("-", 1)[1]).group() for i in ids}  # type: ignore[union-attr]
    out += [f"seed section {s} has no clause" for s in conv.seed_sections if s not in have]
    tests = _test_names(sub.tests) if sub.tests.is_dir() else {}
    for eng in conv.shared:
        folder = sub.tests.parent / eng
        if folder.is_dir():
            tests = {**tests, **{f"{eng}/{f}": n for f, n in _test_names(folder).items()}}
    for r in rows:
        cid = r[0]
        if len(r) != 6:
            out.append(f"{cid}: {len(r)} cells, want 6")
            continue
        _, _, rule, status, kernels, test_cell = r
        if not rule:
            out.append(f"{cid}: empty rule")
        kind, _, rest = status.partition(" (")
        refs = REF.findall(rest)
        if kind not in conv.statuses or (rest and not rest.endswith(")")):
            out.append(f"{cid}: bad status {status!r}")
            continue
        if kind == "reading chosen" and not any(x.startswith("R") for x in refs):
            out.append(f"{cid}: reading chosen without an R#")
        if kind == "invented" and not any(x.startswith("I") for x in refs):
            out.append(f"{cid}: invented without an I#")
        if sub.playable and kind in conv.pending:
            out.append(f"{cid}: status {kind!r} in a playable ruleset")
        if (kernels, test_cell) == (NONE, NONE) and (not sub.playable or kind in conv.skipped):
            continue
        for k in (x.strip() for x in kernels.split(",")):
            eng, _, inner = k.partition(".")
            package, ref = (f"envs.{eng}", inner) if eng in conv.shared else (sub.package, k)
            if not _kernel_exists(package, ref):
                out.append(f"{cid}: kernel {k!r} does not exist in {package}")
        for t in (x.strip() for x in test_cell.split(",")):
            file, _, name = t.partition("::")
            if name not in tests.get(file, frozenset()):
                out.append(f"{cid}: test {t!r} does not exist in tests/{sub.name}")
    return out


def reference_problems(text: str, sub: DocSubject) -> list[str]:
    """R#/I# named by clauses and the data are defined (once); every defined one is named."""
    out: list[str] = []
    defined = defined_refs(text)
    for ids in defined.values():
        out += [f"{i} defined twice" for i in sorted({x for x in ids if ids.count(x) > 1})]
    have = set(defined["Readings"]) | set(defined["Invented"])
    used = {x for r in clause_rows(text, sub.conventions) for c in r[1:] for x in REF.findall(c)}
    if sub.conventions.refs_from_other_tables:
        for title in re.findall(r"^## (.+?)[ \t]*$", text, re.M):
            if title not in defined:
                used |= {
                    x for r in table_rows(section(text, title)) for x in REF.findall("|".join(r))
                }
    out += [f"{i} referenced in a clause table but not defined" for i in sorted(used - have)]
    out += [f"{i} defined but never referenced by a clause" for i in sorted(have - used)]
    for ref, files in sorted(config_refs(sub.config).items()):
        if ref not in have:
            out.append(f"{ref} used by {sorted(files)} but not defined in the doc")
    return out


def link_problems(text: str, sub: DocSubject) -> list[str]:
    """Clause ids named anywhere are defined; relative links lead to existing files."""
    conv = sub.conventions
    defined = {r[0] for r in clause_rows(text, conv)}
    defined |= set(re.findall(rf"^#+ ({conv.clause_id})\b", text, re.M))
    named = set(re.findall(rf"\b{conv.clause_id}\b", text))
    out = [f"reference to undefined clause {c}" for c in sorted(named - defined)]
    for link in sorted(set(_LINK.findall(text))):
        if link.startswith(("#", "http://", "https://", "mailto:")):
            continue
        if not (sub.doc.parent / link.split("#")[0]).exists():
            out.append(f"broken link {link}")
    return out


def problems(text: str, sub: DocSubject | str) -> list[str]:
    """Every way the doc text falls short of complete for ruleset `sub`; [] when complete."""
    if isinstance(sub, str):
        sub = subject(sub)
    return (
        placeholder_problems(text, sub.conventions)
        + clause_problems(text, sub)
        + reference_problems(text, sub)
        + link_problems(text, sub)
    )


def check(name: str) -> list[str]:
    """The problems of the ruleset's real rules doc."""
    sub = subject(name)
    return problems(sub.doc.read_text(encoding="utf-8"), sub)
