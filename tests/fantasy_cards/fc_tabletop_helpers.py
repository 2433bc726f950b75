"""Small battlefield files for the tabletop tests (envs/fantasy_cards/tabletop.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
import yaml

from envs.fantasy_cards import tabletop as tt
from envs.tactical_assault import tables

CLEAR_ROWS = [" ".join(["."] * tt.CELLS)] * tt.CELLS


def battlefield_doc(
    rows: list[str] | None = None,
    units0: list[dict] | None = None,
    units1: list[dict] | None = None,
    **kw: Any,
) -> dict:
    """A battlefield document: `rows` of terrain tokens (default all Clear), fixed forces
    (or 36 points each when None), extra top-level fields in kw (elevation, linear_terrain)."""
    doc: dict[str, Any] = {
        "kind": tt.KIND,
        "name": "Test Table",
        "origin": "invented",
        "refs": ["I16"],
        "text": "a test table",
        "legend": {".": "Clear", "W": "Woods", "S": "Swamp", "L": "Lava Flow", "F": "Wheat Field"},
        "terrain": "\n".join(rows or CLEAR_ROWS) + "\n",
        "forces": [
            {"units": units0} if units0 is not None else {"points": 36},
            {"units": units1} if units1 is not None else {"points": 36},
        ],
    }
    doc.update(kw)
    return doc


def write(doc: dict, tmp_path: Path, name: str = "table.yaml") -> Path:
    path = tmp_path / name
    path.write_text(yaml.safe_dump(doc, sort_keys=False))
    return path


def tb_of(tmp_path: Path, **kw: Any) -> np.record:
    """The tables record (as `tb`) of a battlefield built by battlefield_doc(**kw)."""
    return tables.as_tb(tt.battlefield_record(write(battlefield_doc(**kw), tmp_path)))


def unit(t: str, c: int, r: int, facing: str | None = "N") -> dict:
    out: dict[str, Any] = {"type": t, "cell": [c, r]}
    if facing is not None:
        out["facing"] = facing
    return out
