"""Legendary Battles filling the ruleset contract (envs/core/ruleset.py) on the Tactical
Assault core (envs/tactical_assault/ruleset.py builds the Ruleset; the kernels are the core's).

Option (`ruleset(options=...)`, `--option scenario=NAME` on the command line):

| option     | choices (default first) | what it sets in the tables record |
|------------|-------------------------|-----------------------------------|
| `scenario` | greywater_ford, crossroads_of_hallin, siege_of_the_ridge_fort (every scenario file of the rule folder, by its name in snake case) | the map, the forces and the end conditions (`g_*`, `sc_*`, `vc_*` fields) |

A scenario of your own (docs/rules/legendary_battles.md, "Scenario format"): pass its file's
path as the option (`scenario=PATH.yaml`, `--option scenario=PATH.yaml`; any value ending in
.yaml or .yml is a path), played on the rule folder's terrain.yaml; or put its file in the
`scenarios/` folder of a copy of configs/legendary_battles and pass that folder as
`config_dir` (`--config` on the command line): its scenarios become the option's choices.
Either way the loader validates it, and its errors name the file, the entry and the field.
A scenario the core cannot play yet (an oversized unit placed by its player, LB R28) is
refused with a ValueError that names it and the missing feature. Rulesets are cached per
process by option: a scenario file edited after it was loaded needs a new process.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path

import numpy as np

from envs.core.ruleset import PLAYABLE, Ruleset, resolve_options
from envs.legendary_battles.tables import DEFAULT_DIR, Tables, load_tables

NAME = "legendary_battles"
ENV_NAME = "legendary_battles_v0"
TITLE = "Tactical Assault: Legendary Battles"
SEED_FILE = "001_a874da24d9d869b9.txt"
STATUS = PLAYABLE  # every clause of its rules doc is run (the last: FC-4.2 / LB-3.4.11)


def option_name(scenario_name: str) -> str:
    """A scenario's option value: its name in snake case ("Crossroads of Hallin" ->
    "crossroads_of_hallin")."""
    return re.sub(r"[^a-z0-9]+", "_", scenario_name.lower()).strip("_")


@lru_cache(maxsize=4)
def _tables(config_dir: str | None, scenario_file: str | None = None) -> Tables:
    folder = DEFAULT_DIR if config_dir is None else Path(config_dir)
    files = None if scenario_file is None else [Path(scenario_file)]
    return load_tables(folder, scenario_files=files)


def scenario_file(value: str) -> Path | None:
    """The scenario option's value as a scenario file (it ends in .yaml or .yml), absolute;
    None for a scenario's name. ValueError if the file does not exist."""
    if not value.lower().endswith((".yaml", ".yml")):
        return None
    path = Path(value).expanduser().resolve()
    if not path.is_file():
        raise ValueError(f"{NAME}: option scenario={value}: no such scenario file ({path})")
    return path


def scenario_choices(tables: Tables) -> tuple[str, ...]:
    """The scenario option's choices, Greywater Ford first (the default) when shipped: the
    scenario that plays the most rules (forces chosen by points and hidden until deployment,
    LB R23; units leaving the map, R22), and one that either side wins often in random play
    (in Crossroads of Hallin random Raiders almost never take the crossroads)."""
    names = sorted(option_name(n) for n in tables.scenarios)
    first = "greywater_ford"
    return tuple(([first] if first in names else []) + [n for n in names if n != first])


def _render_text(tables: Tables, scenario: str, S: np.ndarray, me: int, b: int = 0) -> str:
    from envs.legendary_battles.view import render_text

    return render_text(tables, tables.scenarios[scenario], S, me, b)


def _render_image(tables: Tables, scenario: str, S: np.ndarray, me: int, b: int = 0, path=None):
    from envs.legendary_battles.view import render_image

    return render_image(tables, tables.scenarios[scenario], S, me, b, path)


# what a scenario's tables record is computed from (besides the rule folder's YAML files):
# rebuilding it takes seconds (LOS arcs and Fall Back routes of every pair of zones, in
# Python), so it is kept on disk next to the numba cache, keyed by a hash of all of these
_RECORD_SOURCES = (
    "envs/legendary_battles/zones.py",
    "envs/legendary_battles/geometry.py",
    "envs/legendary_battles/tables.py",
    "envs/tactical_assault/tables.py",
    "envs/tactical_assault/state.py",
    "envs/fantasy_cards/tables.py",
)


def _record_key(config_dir: str | None, scenario_file: str | None = None) -> str:
    import hashlib

    root = Path(__file__).resolve().parents[2]
    folder = Path(config_dir) if config_dir is not None else DEFAULT_DIR
    files = [root / s for s in _RECORD_SOURCES]
    files += sorted(folder.rglob("*.yaml")) + sorted(
        (root / "configs/fantasy_cards").glob("*.yaml")
    )
    if scenario_file is not None:
        files.append(Path(scenario_file))
    h = hashlib.sha256()
    for f in files:
        h.update(str(f.relative_to(root) if f.is_relative_to(root) else f).encode())
        h.update(f.read_bytes())
    return h.hexdigest()[:16]


def _scenario_record(
    tables: Tables, scenario: str, config_dir: str | None, fc, file: str | None = None
):
    """The scenario's tables record, from the disk cache when its sources are unchanged."""
    from envs.core.jit import _cache_root
    from envs.legendary_battles.zones import scenario_record
    from envs.tactical_assault.tables import TA_TABLES_DTYPE

    key = _record_key(config_dir, file)
    path = _cache_root() / "tables" / f"{NAME}-{option_name(scenario)}-{key}.npy"
    try:
        rec = np.load(path, allow_pickle=False)
        if rec.dtype == TA_TABLES_DTYPE and rec.shape == (1,):
            return rec
    except (OSError, ValueError):
        pass  # absent or unreadable: build it
    rec = scenario_record(tables.scenarios[scenario], fc)  # ValueError if not playable
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp.npy")
        np.save(tmp, rec, allow_pickle=False)
        os.replace(tmp, path)
    except OSError:
        pass  # an unwritable cache only costs the rebuild
    return rec


@lru_cache(maxsize=16)
def _build(config_dir: str | None, scenario_option: str) -> Ruleset:
    from functools import partial

    from envs.fantasy_cards.tables import load_tables as load_fc
    from envs.tactical_assault.ruleset import Identity, build

    file = scenario_file(scenario_option)
    if file is None:
        tables = _tables(config_dir)
        scenario = {option_name(n): n for n in tables.scenarios}[scenario_option]
        choices = scenario_choices(tables)
    else:  # one scenario file, on the rule folder's terrain
        tables = _tables(config_dir, str(file))
        (scenario,) = tables.scenarios
        choices = (scenario_option,)
    fc = load_fc()
    try:
        tba = _scenario_record(
            tables, scenario, config_dir, fc, None if file is None else str(file)
        )
    except ValueError as e:
        raise ValueError(f"{NAME}: option scenario={scenario_option}: {e}") from None
    ident = Identity(NAME, ENV_NAME, TITLE, SEED_FILE, "docs/rules/legendary_battles.md")
    return build(
        ident,
        tables,
        tba,
        partial(_render_text, tables, scenario),
        partial(_render_image, tables, scenario),
        config_dir,
        {"scenario": choices},
        {"scenario": scenario_option},
        tuple(fc.unit_type_names),
    )


def ruleset(
    config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """Legendary Battles' Ruleset with `options` (module docstring); `config_dir` loads
    another rule folder (configs/legendary_battles layout: terrain.yaml, scenarios/)."""
    path = None
    if config_dir is not None:
        path = str(Path(config_dir).resolve())
        if not (Path(path) / "terrain.yaml").is_file():
            raise ValueError(
                f"{NAME}: config_dir {config_dir} holds no terrain.yaml "
                f"(a copy of {DEFAULT_DIR} with your scenarios in scenarios/)"
            )
    value = (options or {}).get("scenario")
    file = None if value is None else scenario_file(value)
    if file is not None:  # a scenario file: the option's only choice is that file
        resolve_options(NAME, {"scenario": (value,)}, options)  # any other key is unknown
        return _build(path, str(file))
    choices = {"scenario": scenario_choices(_tables(path))}
    try:
        resolved = resolve_options(NAME, choices, options)
    except ValueError as e:
        hint = " (or a scenario file: PATH.yaml)" if "option scenario must" in str(e) else ""
        raise ValueError(f"{e}{hint}") from None
    return _build(path, resolved["scenario"])
