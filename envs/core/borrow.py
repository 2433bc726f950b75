"""Borrowed array arguments: the reference counting numba does on a kernel's array arguments,
taken out where it cannot change a count (envs/core/jit.py applies it to a kernel's module
before LLVM optimises it).

numba counts references to an array's memory (NRT_incref / NRT_decref, an atomic add each, in
a function that is never inlined). A function increments each array argument's count on entry
and decrements it after the argument's last use; numba's reference-count pruning removes such
pairs only where both sit in one basic block or a simple diamond, so in a function with loops
and early returns they stay. Fantasy Cards' rules ask `usable`, `ranged_target_ok`, ... about
each unit and card of every decision, each call counting S and three scratch arrays up and
down: about 45 % of its in-kernel self-play time (perf, 2026-11-25), and a cache line that
both threads of a two-thread run write.

A caller holds its reference to every array it passes until the call returns, so a function
whose use of an argument's memory ends before it returns needs no count of its own. Such an
argument is recognised in the IR: a pointer parameter whose every use is an NRT_incref or
NRT_decref of it, or an argument of a call to a numba function (which follows the same rule
for its own arguments). A parameter stored, returned, put into a structure, compared or passed
to any other function keeps all its counting. For such a parameter the function's increments
and decrements balance on every path (numba's own semantics), so removing all of them changes
no count seen once the function returns.
"""

from __future__ import annotations

import re

_DEFINE = re.compile(r"^define .*? @(?:\"[^\"]+\"|[-\w.$]+)\((?P<params>.*)\)(?: [\w#]+)* \{$")
# a parameter of pointer type: "ptr %arg.S.0", "ptr noalias captures(none) %retptr"
_PTR_PARAM = re.compile(
    r"(?:^|, )ptr(?: [a-z_]+(?:\([a-z_]+\))?)* (?P<name>%(?:\"[^\"]+\"|[-\w.$]+))"
)
_COUNT = re.compile(
    r"^\s*(?:tail |musttail |notail )?call void @NRT_(?:incref|decref)\(ptr (?P<name>%(?:\"[^\"]+\"|[-\w.$]+))\)"
    r"(?:, ![\w.]+ ![0-9]+)*\s*$"
)
_NAME = re.compile(r"%(?:\"[^\"]+\"|[-\w.$]+)")
_VALUE = r"(%(?:\"[^\"]+\"|[-\w.$]+)|null)"
# "%x = phi ptr [ null, %B1 ], [ %arg.S.0, %B2 ]" or "%x = select i1 %c, ptr %arg.S.0, ptr null"
_MERGE = re.compile(
    r"^\s*(?P<name>%(?:\"[^\"]+\"|[-\w.$]+)) = (?P<how>phi ptr|select i1) (?P<rest>.*)$"
)
_PHI_VALUE = re.compile(r"\[ " + _VALUE + r", %")
_SELECT_VALUE = re.compile(r"ptr " + _VALUE)
_NUMBA_CALL = re.compile(r"^\s*(?:%[-\w.$\"]+ = )?(?:tail |notail )?call [^@]*@_ZN[\w$.]*\(")


def borrow_arguments(ir: str) -> tuple[str, int]:
    """The module text with the counting of borrowed array arguments removed, and the number
    of NRT_incref / NRT_decref calls removed."""
    lines = ir.split("\n")
    keep = [True] * len(lines)
    removed = 0
    i = 0
    while i < len(lines):
        m = _DEFINE.match(lines[i])
        if not m:
            i += 1
            continue
        params = [p.group("name") for p in _PTR_PARAM.finditer(m.group("params"))]
        end = i + 1
        while lines[end] != "}":
            end += 1
        if params:
            removed += _borrow_in_function(lines, keep, i + 1, end, params)
        i = end + 1
    if not removed:
        return ir, 0
    return "\n".join(line for line, k in zip(lines, keep, strict=True) if k), removed


def _borrow_in_function(lines, keep, start, end, params) -> int:
    # numba clears a deleted variable's slot, so after SROA a parameter's last decrement is
    # often made on "phi ptr [ null, ... ], [ %arg.S.0, ... ]": such a phi (or a select) of
    # the parameter and null is the same reference, or none, and counts as the parameter
    group = {p: p for p in params}  # SSA name -> the parameter it stands for
    merges = []
    for k in range(start, end):
        m = _MERGE.match(lines[k])
        if m:
            rest = m.group("rest")
            phi = m.group("how") == "phi ptr"
            values = (_PHI_VALUE if phi else _SELECT_VALUE).findall(rest)
            if len(values) == (rest.count("[ ") if phi else 2):  # no constant but null
                merges.append((m.group("name"), values, k))
            else:
                merges.append((m.group("name"), [None], k))
    grown = True
    while grown:
        grown = False
        for name, values, _ in merges:
            of = {group.get(v) for v in values if v != "null" and v != name}  # a loop's own
            if name not in group and len(of) == 1 and None not in of:
                group[name] = of.pop()
                grown = True
    merge_lines = {k for name, _, k in merges if name in group}
    counts: dict[str, list[int]] = {p: [] for p in params}
    borrowed = set(params)
    for k in range(start, end):
        line = lines[k]
        if "%" not in line:
            continue
        found = {group[t] for t in _NAME.findall(line) if t in group}
        if not found:
            continue
        c = _COUNT.match(line)
        if c and c.group("name") in group:
            counts[group[c.group("name")]].append(k)
        elif k in merge_lines and len(found) == 1:
            continue
        elif not _NUMBA_CALL.match(line):
            borrowed -= found
    removed = 0
    for p in borrowed:
        for k in counts[p]:
            keep[k] = False
            removed += 1
    return removed
