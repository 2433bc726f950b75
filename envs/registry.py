"""The registry of rulesets: which exist, which are playable, and how to get one.

A playable ruleset has a module ``envs.<name>.ruleset`` with a ``ruleset(config_dir=None)``
function returning its :class:`~envs.core.ruleset.Ruleset`; the module is imported only
when the ruleset is asked for, so listing the registry loads no numba code. A ruleset in
progress has an engine that plays whole games through the whole contract but leaves rules
out (its rules doc says which, as "to implement" rows): the tools take it and say so. A
data-only ruleset has rules docs, data and loaders but no engine yet: the tools refuse it.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from envs.core.ruleset import IN_PROGRESS, PLAYABLE, Ruleset


@dataclass(frozen=True)
class Entry:
    name: str
    title: str
    status: str  # PLAYABLE, IN_PROGRESS or DATA_ONLY
    seed_file: str
    env_module: str | None  # the PettingZoo-style module, for playable rulesets

    @property
    def playable(self) -> bool:
        """Has an engine: the tools and the shared platform suite take it."""
        return self.status in (PLAYABLE, IN_PROGRESS)

    @property
    def complete(self) -> bool:
        """Every clause of its rules doc is implemented."""
        return self.status == PLAYABLE


def progress_warning(name: str) -> str | None:
    """The line a tool prints when it uses a ruleset in progress (None when complete)."""
    from envs.core.doccheck import pending_clauses

    e = entry(name)
    if e.status != IN_PROGRESS:
        return None
    return (
        f"note: {e.title} is in progress: {len(pending_clauses(name))} clauses of "
        f"docs/rules/{name}.md are still 'to implement', and its games leave those rules out"
    )


ENTRIES: dict[str, Entry] = {
    e.name: e
    for e in (
        Entry(
            "tac",
            "TAC - Tactical Armoured Combat",
            PLAYABLE,
            "002_d13f74f13daabdd9.txt",
            "envs.tac.tac_v1",
        ),
        Entry(
            "fantasy_cards",
            "Tactical Assault: Fantasy Cards",
            PLAYABLE,
            "000_966979c4608810fc.txt",
            "envs.fantasy_cards.fantasy_cards_v0",
        ),
        Entry(
            "legendary_battles",
            "Tactical Assault: Legendary Battles",
            PLAYABLE,
            "001_a874da24d9d869b9.txt",
            "envs.legendary_battles.legendary_battles_v0",
        ),
        Entry(
            "tactica", "TACTICA", PLAYABLE, "003_2f16ffdbafd9a58e.txt", "envs.tactica.tactica_v0"
        ),
        Entry(
            "tactics_david",
            "Tactics David",
            PLAYABLE,
            "004_10748bf01204f971.txt",
            "envs.tactics_david.tactics_david_v0",
        ),
    )
}


class UnknownRuleset(ValueError):
    """A name the registry does not know, or a ruleset that is not playable yet."""


def names(playable_only: bool = False) -> list[str]:
    return [n for n, e in ENTRIES.items() if e.playable or not playable_only]


def entry(name: str) -> Entry:
    if name not in ENTRIES:
        raise UnknownRuleset(
            f"unknown ruleset {name!r} (known: {', '.join(ENTRIES)}; see `tacsim rulesets`)"
        )
    return ENTRIES[name]


def get(
    name: str, config_dir: str | Path | None = None, options: Mapping[str, str] | None = None
) -> Ruleset:
    """The playable ruleset `name` (its tables from `config_dir`, default the embedded ones)
    with `options` (e.g. {"game": "basic"}; Ruleset.option_choices lists them; ValueError
    naming a bad one)."""
    e = entry(name)
    if not e.playable:
        playable = ", ".join(names(playable_only=True))
        raise UnknownRuleset(
            f"ruleset {name!r} is data only (rules doc, data and loaders; no engine yet); "
            f"playable: {playable}"
        )
    import importlib

    module = importlib.import_module(f"envs.{name}.ruleset")
    return module.ruleset(config_dir, options)


def make_env(name: str, **kwargs):
    """The PettingZoo AEC env of a playable ruleset (with the order-enforcing wrapper).
    kwargs go to the env: num_players, render_mode, illegal_action, config_dir, options..."""
    e = entry(name)
    get(name, kwargs.get("config_dir"), kwargs.get("options"))  # clear message if refused
    import importlib

    return importlib.import_module(e.env_module).env(**kwargs)


def make_batch(
    name: str,
    num_envs: int,
    num_players: int = 2,
    seed: int = 0,
    observations: bool = True,
    threads: int | None = None,
    config_dir: str | Path | None = None,
    options: Mapping[str, str] | None = None,
):
    """A BatchEnv of `num_envs` games of a playable ruleset (with its `options`)."""
    from envs.core.batch import BatchEnv

    rs = get(name, config_dir, options)
    return BatchEnv(rs, num_envs, num_players, seed, observations, threads)
