"""The `tacsim` command: argparse subcommands.

    tacsim rulesets     the registered rulesets and their state (playable / data only)
    tacsim selfplay --ruleset NAME --players P --games N --agents A,B --seed S --out DIR
                    [--chunk K] [--threads T] [--config RULE_DIR]
                    [--backend local|ray [--address A] [--workers W]]
    tacsim balance  --ruleset NAME --games N [--runs DIR] [--out REPORT_DIR] [--seed S]
                    [--players P] [--agent A] [--precision X [--pilot N] [--max-games N]]
                    [--recost [--rounds R] [--damping D]] [--compare A,B,...]
                    [--backend local|ray [--address A] [--workers W]]
    tacsim play     --ruleset NAME --players P --seats human,heuristic ...
    tacsim replay   --run DIR --game K | --saved FILE
    tacsim train ...   (registered by agents/training.py)
    tacsim ladder --ruleset NAME --agents A,B,ppo:PATH --games N   (agents/ladder.py)
    tacsim bench ...   (registered by benchmarks/harness.py)

Every subcommand that plays takes the ruleset's options as a repeatable --option KEY=VALUE
(e.g. --ruleset tactica --option game=basic --option episode=battle; `tacsim rulesets` lists
them); a bad key or value is refused with one line naming it and the choices. Runs, reports,
saved games and trained policies record the options; a resume, replay or policy under other
options is refused.

Every subcommand takes --ruleset NAME and refuses an unknown or data-only ruleset with a
one-line error (envs/registry.py).

Also `python -m agents.cli ...`; scripts/selfplay.py and scripts/balance.py call the same code.

Plug-in contract (for `train`, `bench` and any later subcommand)
-----------------------------------------------------------------
A module listed in PLUGINS exposes ``add_parser(subparsers)``: it calls
``subparsers.add_parser(name, help=...)``, adds its flags, and sets
``set_defaults(func=callable)`` where ``callable(args: argparse.Namespace) -> int`` is the
exit status. The module is imported every time `tacsim` starts, so its top level must import
cheaply (numpy at most): import torch, numba kernels etc. inside the callable. A module that is
absent (importlib.util.find_spec finds nothing) is skipped; one that is present but broken
raises, so its bug is seen. For bad input the callable raises ``agents.cli.UsageError(msg)``:
main prints ``tacsim <command>: error: <msg>`` on one line to stderr and returns 2. It must
check its input before writing anything.

Exit codes: 0 done; 2 bad input (argparse errors, UsageError, a broken config file: nothing
written); 130 interrupted by Ctrl-C (finished work kept, how to resume printed).
"""

from __future__ import annotations

import argparse
import importlib
import importlib.util
import sys
from collections.abc import Callable
from pathlib import Path

PLUGINS = (
    "agents.play",
    "agents.replay",
    "agents.training",
    "agents.ladder",
    "benchmarks.harness",
)


class UsageError(Exception):
    """Bad command-line input: printed as one line, exit status 2, nothing written."""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # one line instead of usage + message
        self.exit(2, f"{self.prog}: error: {message} (see {self.prog} --help)\n")


def _lazy(module: str, name: str) -> Callable[[argparse.Namespace], int]:
    """A command function imported only when its subcommand runs (numba loads take time)."""

    def run(args: argparse.Namespace) -> int:
        return getattr(importlib.import_module(module), name)(args)

    return run


def add_ruleset_argument(p: argparse.ArgumentParser, default: str = "tac") -> None:
    """The --ruleset flag every subcommand takes (checked against the registry when run)."""
    from envs.registry import names

    p.add_argument(
        "--ruleset",
        default=default,
        help=f"ruleset (playable: {', '.join(names(playable_only=True))}; "
        f"`tacsim rulesets` lists all; default {default})",
    )


def add_option_argument(p: argparse.ArgumentParser) -> None:
    """The repeatable --option KEY=VALUE (the ruleset's options; `tacsim rulesets` lists them)."""
    p.add_argument(
        "--option",
        dest="options",
        action="append",
        default=None,
        metavar="KEY=VALUE",
        help="a ruleset option, repeatable (e.g. TACTICA's game=basic, episode=battle, "
        "armies=varied; `tacsim rulesets` lists each ruleset's options; default: each "
        "option's first choice)",
    )


def parse_option_args(items: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """The --option KEY=VALUE strings as a dict, or UsageError (a malformed one or a key
    given twice)."""
    from envs.core.ruleset import parse_options

    seen: set[str] = set()
    for item in items or ():
        key = item.partition("=")[0].strip()
        if key in seen:
            raise UsageError(f"option {key} given twice")
        seen.add(key)
    try:
        return parse_options(items)
    except ValueError as e:
        raise UsageError(str(e)) from None


def describe_options(choices) -> str:
    """`game=advanced|basic, episode=war|battle` (default first), or `none`."""
    return ", ".join(f"{k}={'|'.join(v)}" for k, v in choices.items()) or "none"


_WARNED: set[str] = set()  # rulesets whose "in progress" note this process has printed


def check_ruleset(name: str, options=None, config_dir=None):
    """The playable ruleset `name` with `options` (a dict or KEY=VALUE strings) and the
    rule tables of `config_dir` (None: the embedded ones), or UsageError: one line naming
    the problem (an unknown or data-only ruleset, an unknown option or value with the
    ruleset's options and their choices)."""
    from envs.registry import UnknownRuleset, get, progress_warning

    if isinstance(options, (list, tuple)):
        options = parse_option_args(options)
    try:
        rs = get(name, config_dir)
    except UnknownRuleset as e:
        raise UsageError(str(e)) from None
    warning = progress_warning(name)
    if warning and name not in _WARNED:  # once per process: a command checks a ruleset often
        _WARNED.add(name)
        print(warning, file=sys.stderr)
    if not options:
        return rs
    env_only = rs.extra.get("env_only_options", {})  # e.g. Fantasy Cards' campaign (R37)
    for key in options:
        if key in env_only:
            raise UsageError(f"{rs.name}: {key} is {env_only[key]}")
    if not rs.option_choices:
        given = ", ".join(f"{k}={v}" for k, v in options.items())
        raise UsageError(f"{rs.name} has no options, got --option {given}")
    unknown = [k for k in options if k not in rs.option_choices]
    if unknown:
        raise UsageError(
            f"{rs.name}: unknown option {unknown[0]!r} "
            f"({rs.name} options: {describe_options(rs.option_choices)})"
        )
    try:  # a bad value: the ruleset names its choices (or, e.g., a scenario file's error)
        return get(name, config_dir, options)
    except ValueError as e:
        raise UsageError(str(e)) from None


def cmd_rulesets(args) -> int:
    from envs.registry import ENTRIES, get, progress_warning

    width = max(len(n) for n in ENTRIES)
    envs = {n: e.env_module.rsplit(".", 1)[-1] if e.env_module else "-" for n, e in ENTRIES.items()}
    ew = max(11, *(len(v) for v in envs.values()))
    print(f"{'name':<{width}}  {'state':<11}  {'env':<{ew}}  title (seed)")
    options = {}
    for n, e in ENTRIES.items():
        print(f"{n:<{width}}  {e.status:<11}  {envs[n]:<{ew}}  {e.title} ({e.seed_file})")
        if e.playable:  # builds the tables (no kernel compile): the options live there
            options[n] = get(n).option_choices
    for n in ENTRIES:
        if progress_warning(n):
            print(progress_warning(n))
    print("\noptions (--option KEY=VALUE; the first choice is the default):")
    for n, choices in options.items():
        print(f"  {n:<{width}}  {describe_options(choices)}")
    return 0


def _add_rulesets(sub) -> None:
    p = sub.add_parser(
        "rulesets",
        help="list the registered rulesets and their state",
        description="Every registered ruleset: playable (an engine: every command works), "
        "in progress (an engine that leaves the rules its doc marks 'to implement' out) "
        "or data only (rules doc, data and loaders; commands refuse it); then each playable "
        "ruleset's options (--option KEY=VALUE) and their choices.",
    )
    p.set_defaults(func=cmd_rulesets)


def add_backend_arguments(p: argparse.ArgumentParser) -> None:
    """--backend/--address/--workers of selfplay and balance (agents/ray_backend.py)."""
    p.add_argument(
        "--backend",
        choices=("local", "ray"),
        default="local",
        help="local: this machine's cores (default); ray: one Ray task per chunk",
    )
    p.add_argument(
        "--address",
        default=None,
        help="with --backend ray: join the Ray cluster at HOST:PORT or auto "
        "(default: start a local Ray instance, loopback only, no dashboard)",
    )
    p.add_argument(
        "--workers",
        type=int,
        default=None,
        help="with --backend ray: worker processes (one thread each) of the local instance, "
        "or chunks in flight on a cluster (default: all CPUs)",
    )


def _add_selfplay(sub) -> None:
    p = sub.add_parser(
        "selfplay",
        help="batched self-play to Parquet, with win rates",
        description="Play N games on the batched kernels (all cores) and write one row per "
        "game to DIR/games-*.parquet; rerun with the same DIR and flags to resume.",
    )
    add_ruleset_argument(p)
    p.add_argument("--players", type=int, default=2, help="players per game (default 2)")
    p.add_argument("--games", type=int, default=100_000, help="games to play (default 100000)")
    p.add_argument(
        "--agents",
        default="random,random",
        help="comma-separated agents; seat s of game g is agents[(s+g) %% len] "
        "(the ruleset's in-kernel agents, e.g. TAC's random, heuristic, mcts, mcts50, "
        "mcts800, or ppo:PATH, a model "
        "written by `tacsim train`; default random,random)",
    )
    p.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    p.add_argument("--out", type=Path, default=Path("runs/selfplay"), help="run folder")
    p.add_argument("--chunk", type=int, default=None, help="games per Parquet file (10000)")
    p.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    add_backend_arguments(p)
    p.add_argument(
        "--config",
        type=Path,
        default=None,
        help="rule-table folder to play under (default: the embedded configs/<ruleset>)",
    )
    add_option_argument(p)
    # test hook: stop after this many chunks, as if interrupted (not a user option)
    p.add_argument("--max-chunks", type=int, default=None, help=argparse.SUPPRESS)
    p.set_defaults(func=_lazy("agents.selfplay", "cmd_selfplay"))


def _add_balance(sub) -> None:
    p = sub.add_parser(
        "balance",
        help="unit values in winning vs listed costs; re-costing; agent comparison",
        description="Run (or reuse) self-play with one agent in every seat and fit a logistic "
        "regression of the result on the dealt unit types; write REPORT_DIR/balance.md and "
        "balance.png. --recost repeats it under proposed costs (agents/recost.py); --compare "
        "fits one run per agent (agents/balance_compare.py).",
    )
    add_ruleset_argument(p)
    add_option_argument(p)
    p.add_argument(
        "--games",
        type=int,
        default=None,
        help="games (per round with --recost, per agent with --compare; default 100000, "
        "all of an existing --runs folder, or what --precision needs)",
    )
    p.add_argument("--players", type=int, default=None, help="players per game (default 2)")
    p.add_argument(
        "--runs",
        type=Path,
        default=None,
        help="self-play run folder to reuse (its parameters) or fill "
        "(default runs/balance/<ruleset>_p<P>_seed<S>_n<N>[_<agent>]; with --recost the "
        "folder holding round_<r>_n<N>/, default runs/recost/<ruleset>_<out>_p<P>_seed<S>_<agent>)",
    )
    p.add_argument("--out", type=Path, default=Path("reports/balance"), help="report folder")
    p.add_argument("--seed", type=int, default=None, help="self-play seed (default 0)")
    p.add_argument("--chunk", type=int, default=None, help="games per Parquet file (10000)")
    p.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    add_backend_arguments(p)
    p.add_argument(
        "--agent",
        default=None,
        help="the agent in every seat: any agent self-play accepts (default random)",
    )
    p.add_argument(
        "--precision",
        type=float,
        default=None,
        help="wanted 95%% half-width of each implied cost, in cost units: a pilot run prints "
        "the games it needs per unit, and sets --games when not given",
    )
    p.add_argument(
        "--pilot", type=int, default=None, help="pilot games for --precision (default 20000)"
    )
    p.add_argument(
        "--max-games",
        type=int,
        default=None,
        help="most games --precision may choose (default 10000000)",
    )
    p.add_argument(
        "--recost",
        action="store_true",
        help="propose integer costs (same total) from the implied worths, replay under "
        "them, repeat until every cost is inside its unit's interval or --rounds pass",
    )
    p.add_argument("--rounds", type=int, default=None, help="most rounds of --recost (default 4)")
    p.add_argument(
        "--damping",
        type=float,
        default=None,
        help="--recost moves each cost this fraction of the way to its implied worth "
        "(0 < D <= 1, default 1)",
    )
    p.add_argument(
        "--compare",
        default=None,
        help="comma-separated agents (e.g. random,heuristic): one run per agent and a report "
        "of each unit's implied worth per agent",
    )
    p.set_defaults(func=_lazy("agents.balance", "cmd_balance"))


def _add_plugins(sub) -> None:
    for module in PLUGINS:
        try:
            spec = importlib.util.find_spec(module)
        except ModuleNotFoundError:  # its parent package is absent
            spec = None
        if spec is not None:
            importlib.import_module(module).add_parser(sub)


def build_parser() -> argparse.ArgumentParser:
    parser = _Parser(prog="tacsim", description="Batched tabletop wargame environments.")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    _add_rulesets(sub)
    _add_selfplay(sub)
    _add_balance(sub)
    _add_plugins(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    from envs.core.config import ConfigError

    parser = build_parser()
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:  # argparse: --help (0) or a usage error (2)
        return int(e.code or 0)
    if getattr(args, "func", None) is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return int(args.func(args))
    except (UsageError, ConfigError) as e:
        print(f"tacsim {args.command}: error: {e}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    # run the imported module's main, so UsageError is one class (not __main__'s copy)
    from agents.cli import main as _main

    sys.exit(_main())
