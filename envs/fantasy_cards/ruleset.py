"""Fantasy Cards filling the ruleset contract (envs/core/ruleset.py) on the Tactical Assault
core (envs/tactical_assault/ruleset.py builds the Ruleset; the kernels are the core's, shared
with Legendary Battles: one compiled core plays both).

The game is the Standard Game (FC PART VI) on the 16 x 16 tabletop of
configs/fantasy_cards/battlefield.yaml (reading R28, envs/fantasy_cards/tabletop.py): forces
of 36 points chosen by each player, deployed anywhere a Medium Distance apart, the turn limit
and victory conditions of standard_game.yaml. No options: a campaign (FC PART VII) is an
option of the AEC env only (`fantasy_cards_v0.env(campaign=N)`, reading R37); the CLI's
`--option campaign=N` is refused with that reason (`extra["env_only_options"]`).

A battlefield of your own: a copy of configs/fantasy_cards with your battlefield.yaml (and,
if you like, other cards or unit types), passed as `config_dir` (`--config-dir` on the
command line). Every file is validated by the loaders, whose errors (envs.core.config.
ConfigError, a ValueError) name the file, the entry and the field.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from functools import lru_cache
from pathlib import Path

import numpy as np

from envs.core.ruleset import PLAYABLE, Ruleset, resolve_options
from envs.fantasy_cards.tables import FC_CONFIG

NAME = "fantasy_cards"
ENV_NAME = "fantasy_cards_v0"
TITLE = "Tactical Assault: Fantasy Cards"
SEED_FILE = "000_966979c4608810fc.txt"
STATUS = PLAYABLE  # every clause of its rules doc is run (the last: FC-4.2 / LB-3.4.11)
BATTLEFIELD_FILE = "battlefield.yaml"
CAMPAIGN_NOTE = (
    "an option of the AEC env only (fantasy_cards_v0.env(campaign=N), reading R37): the "
    "Ruleset's batch kernels (selfplay, BatchEnv, balance) play single games"
)


@lru_cache(maxsize=8)
def _view(battlefield: str):
    """The battlefield's drawing data, read when something is first rendered (not at start)."""
    from envs.fantasy_cards.view import TabletopView

    return TabletopView.load(Path(battlefield))


def _render_text(battlefield: str, S: np.ndarray, me: int, b: int = 0) -> str:
    from envs.fantasy_cards.view import render_text

    return render_text(_view(battlefield), S, me, b)


def _render_image(battlefield: str, S: np.ndarray, me: int, b: int = 0, path=None):
    from envs.fantasy_cards.view import render_image

    return render_image(_view(battlefield), S, me, b, path)


@lru_cache(maxsize=8)
def _build(config_dir: str | None) -> Ruleset:
    from functools import partial

    from envs.fantasy_cards.tables import load_tables
    from envs.fantasy_cards.tabletop import battlefield_record
    from envs.tactical_assault.ruleset import Identity, build

    folder = Path(config_dir) if config_dir is not None else FC_CONFIG
    fc = load_tables(folder)
    path = folder / BATTLEFIELD_FILE
    tba = battlefield_record(path, fc)  # a fresh, writable record
    ident = Identity(NAME, ENV_NAME, TITLE, SEED_FILE, "docs/rules/fantasy_cards.md")
    rs = build(
        ident,
        fc,
        tba,
        partial(_render_text, str(path)),
        partial(_render_image, str(path)),
        config_dir,
        {},
        {},
        tuple(fc.unit_type_names),
    )
    # options the AEC env takes but the Ruleset cannot (the CLI names them, agents/cli.py)
    return replace(rs, extra={**rs.extra, "env_only_options": {"campaign": CAMPAIGN_NOTE}})


def ruleset(
    config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """Fantasy Cards' Ruleset (the Standard Game); `config_dir` loads another rule folder
    (configs/fantasy_cards layout, with its battlefield.yaml). No options: a campaign (FC
    PART VII) is an option of the AEC env only (R37)."""
    if options and "campaign" in options:
        raise ValueError(f"{NAME}: campaign is {CAMPAIGN_NOTE}")
    resolve_options(NAME, {}, options)  # ValueError naming any option given
    path = None
    if config_dir is not None:
        path = str(Path(config_dir).resolve())
        if not (Path(path) / BATTLEFIELD_FILE).is_file():
            raise ValueError(
                f"{NAME}: config_dir {config_dir} holds no {BATTLEFIELD_FILE} "
                f"(a copy of {FC_CONFIG} with your battlefield)"
            )
    return _build(path)
