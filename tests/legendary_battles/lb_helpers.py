"""Building small scenarios for the Legendary Battles tests."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from envs.legendary_battles.tables import (
    DEFAULT_DIR,
    ScenarioArrays,
    compile_scenario,
    load_scenario,
    load_terrain,
)

TERRAIN = load_terrain(DEFAULT_DIR / "terrain.yaml")
LEGEND = {
    ".": "Clear",
    "W": "Woods",
    "f": "Wheat Field",
    "H": "Building",
    "Q": "Quicksand",
    "r": "River",
}


def scenario_doc(
    rows: list[str],
    shape: str = "square",
    elevation: list[str] | None = None,
    linear: list[dict[str, Any]] | None = None,
    units0: list[dict[str, Any]] | None = None,
    units1: list[dict[str, Any]] | None = None,
) -> dict[str, Any]:
    """A minimal valid scenario document over a terrain grid (one string per row)."""
    width = len(rows[0].split())
    doc: dict[str, Any] = {
        "kind": "legendary_battles.scenario",
        "name": "Test Map",
        "origin": "invented",
        "refs": ["I7"],
        "summary": "A test map.",
        "game": "fantasy_cards",
        "map": {
            "shape": shape,
            "width": width,
            "height": len(rows),
            "legend": LEGEND,
            "terrain": "\n".join(rows) + "\n",
            "linear_terrain": linear or [],
        },
        "sides": [
            {
                "name": "Ours",
                "deployment": {"rows": [0, 0]},
                "force": {"units": units0} if units0 else {"points": 12},
            },
            {
                "name": "Theirs",
                "deployment": {"rows": [len(rows) - 1, len(rows) - 1]},
                "force": {"units": units1} if units1 else {"points": 12},
            },
        ],
        "end_of_game": {
            "turn_limit": 5,
            "conditions": [{"kind": "half_points_eliminated"}],
            "at_turn_limit": "most_units_eliminated",
        },
    }
    if elevation is not None:
        doc["map"]["elevation"] = "\n".join(elevation) + "\n"
    return doc


def write(doc: dict[str, Any], path: Path) -> Path:
    path.write_text(yaml.safe_dump(doc, sort_keys=False), encoding="utf-8")
    return path


def compile_doc(doc: dict[str, Any], tmp_path: Path, name: str = "s.yaml") -> ScenarioArrays:
    path = write(doc, tmp_path / name)
    return compile_scenario(load_scenario(path), path, TERRAIN)


def build(rows: list[str], tmp_path: Path, **kw: Any) -> ScenarioArrays:
    return compile_doc(scenario_doc(rows, **kw), tmp_path)
