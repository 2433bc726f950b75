"""Writing TAC's rule tables with other unit costs (the Ruleset contract's `write_costs`).

A unit's listed cost in TAC is its `victory_points` in units.yaml, which is also what it
scores while alive (11.1): a re-costed folder is a different game, not only a different label.
The copy keeps every file byte for byte except the `victory_points` numbers of units.yaml,
edited in place on their lines (comments, order and layout stay), and is checked by loading it
through the validating loader (envs/tac/tables.py) before it is moved to its final name.
"""

from __future__ import annotations

import os
import re
import shutil
from collections.abc import Mapping
from pathlib import Path

from envs.core.config import CONFIG_ROOT
from envs.tac.tables import UNITS_FILE, load_tables

# Lowest and highest victory points a re-costing may give. The loader accepts 0..20; we keep
# 1 as the floor because a 0-VP unit would no longer count in the score at all (11.1), which
# changes what the unit is in the game rather than its price.
COST_BOUNDS = (1, 20)

_NAME = re.compile(r"""\bname:\s*(?:"([^"]*)"|'([^']*)'|([^,}#\n]*?))\s*(?:[,}#]|$)""")
_VP = re.compile(r"(\bvictory_points:\s*)(-?\d+)")


def rewrite_victory_points(text: str, costs: Mapping[str, int]) -> str:
    """units.yaml text with each named unit's victory_points replaced (a line edit).

    Works for flow rows (`- {name: X, ..., victory_points: 5, ...}`) and block rows (the
    `victory_points:` line after the row's `name:` line). Every unit in `costs` must be found
    exactly once; ValueError otherwise."""
    seen: dict[str, int] = {}
    current: str | None = None
    out = []
    for line in text.splitlines(keepends=True):
        body = line.split("#", 1)[0]
        m = _NAME.search(body)
        if m is not None:
            current = next(g for g in m.groups() if g is not None).strip()
        v = _VP.search(body)
        if v is not None and current in costs:
            seen[current] = seen.get(current, 0) + 1
            line = line[: v.start(2)] + str(int(costs[current])) + line[v.end(2) :]
        out.append(line)
    missing = sorted(set(costs) - set(seen))
    if missing:
        raise ValueError(f"{UNITS_FILE}: no victory_points line found for {', '.join(missing)}")
    twice = sorted(n for n, k in seen.items() if k > 1)
    if twice:
        raise ValueError(f"{UNITS_FILE}: victory_points found more than once for {twice}")
    return "".join(out)


def write_costs(src_dir: str | Path | None, dst_dir: str | Path, costs: Mapping[str, int]) -> Path:
    """Copy the TAC rule folder `src_dir` (None: configs/tac) to the new folder `dst_dir` with
    each unit's victory points set to `costs[name]` (every unit type named, integers within
    COST_BOUNDS). ValueError naming the bad value; nothing is left at dst_dir on failure."""
    src = CONFIG_ROOT / "tac" if src_dir is None else Path(src_dir)
    dst = Path(dst_dir)
    if dst.exists():
        raise ValueError(f"{dst} exists already: write_costs writes a new folder")
    units = [u.name for u in load_tables(src).units]
    unknown = sorted(set(costs) - set(units))
    if unknown:
        raise ValueError(f"unknown unit type(s) {unknown} (the units of {src}: {units})")
    missing = [n for n in units if n not in costs]
    if missing:
        raise ValueError(f"no cost given for {missing}")
    lo, hi = COST_BOUNDS
    for name, c in costs.items():
        if isinstance(c, bool) or int(c) != c or not lo <= c <= hi:
            raise ValueError(f"cost of {name!r} must be an integer {lo}..{hi}, got {c!r}")
    tmp = dst.with_name(f".{dst.name}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    try:
        shutil.copytree(src, tmp)
        path = tmp / UNITS_FILE
        path.write_text(rewrite_victory_points(path.read_text(), costs))
        written = {u.name: u.victory_points for u in load_tables(tmp).units}
        if written != {n: int(costs[n]) for n in units}:  # the line edit missed something
            raise ValueError(f"{path}: rewritten costs read back as {written}")
        os.replace(tmp, dst)
    finally:
        if tmp.exists():
            shutil.rmtree(tmp)
    return dst
