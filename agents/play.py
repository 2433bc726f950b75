"""`tacsim play`: a person plays a ruleset in the terminal against its in-kernel agents.

    tacsim play --ruleset tac --players 2 --seats human,heuristic [--seed S]
                [--game-index K] [--save FILE] [--option KEY=VALUE ...]

Each decision of a human seat shows the board as that seat sees it (the ruleset's
render_text for that seat: never another seat's view), the decision and the legal actions
numbered 1..n with their descriptions; the player types a number. Bad input (not a number,
out of range, empty) is asked again; end of input (Ctrl-D) or Ctrl-C stops the game, which
is saved as far as it went (exit status 130). Agent seats act through the ruleset's
``act_one`` on the AEC env's state, as in self-play. With several humans (hot-seat) each
human's turn is announced and waits for Enter before the board is shown.

The game is always saved (default runs/play/<UTC time>.json) in the format of
agents/session.py; `tacsim replay --saved FILE` replays it.

:func:`play_game` takes the input function and the rich Console, so tests drive a whole
game with scripted input.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from agents.cli import UsageError, add_option_argument, add_ruleset_argument

DEFAULT_DIR = Path("runs/play")
STOPPED = 130  # exit status of a game stopped before its end (Ctrl-C, end of input)


@dataclass
class PlaySetup:
    """Checked `tacsim play` input (nothing has started or been written)."""

    ruleset: object  # envs.core.ruleset.Ruleset
    seats: list[str]
    seed: int
    game_index: int
    save: Path


@dataclass
class PlayOutcome:
    table: object  # agents.session.Table
    saved: Path
    complete: bool
    status: int


def default_save_path(folder: Path = DEFAULT_DIR) -> Path:
    stamp = time.strftime("%Y%m%dT%H%M%SZ", time.gmtime())
    path = folder / f"{stamp}.json"
    n = 1
    while path.exists():
        path = folder / f"{stamp}-{n}.json"
        n += 1
    return path


def check_setup(
    ruleset: str,
    players: int,
    seats: str | list[str],
    seed: int | None = None,
    game_index: int = 0,
    save: Path | str | None = None,
    options: dict[str, str] | list[str] | None = None,
) -> PlaySetup:
    """Validate everything before the game starts; UsageError (one line) otherwise.
    `options`: the ruleset's options (a dict or --option KEY=VALUE strings)."""
    from agents.cli import check_ruleset
    from agents.session import HUMAN, MAX_SEED

    rs = check_ruleset(ruleset, options)
    if not rs.min_players <= players <= rs.max_players:
        raise UsageError(
            f"{rs.name}: players must be {rs.min_players} to {rs.max_players}, got {players}"
        )
    names = [s.strip() for s in seats.split(",")] if isinstance(seats, str) else list(seats)
    if len(names) != players:
        raise UsageError(
            f"--seats needs one name per seat ({players} players), got {len(names)}: "
            f"{','.join(names)}"
        )
    known = sorted(rs.agents)
    for name in names:
        if name != HUMAN and name not in rs.agents:
            raise UsageError(f"unknown seat {name!r} (known: {HUMAN}, {', '.join(known)})")
    if seed is None:
        import numpy as np

        seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> 1)
    if not 0 <= seed <= MAX_SEED:
        raise UsageError(f"seed must be 0 to 2**63-1, got {seed}")
    if game_index < 0:
        raise UsageError(f"game-index must be >= 0, got {game_index}")
    if save is None:
        path = default_save_path()
    else:
        path = Path(save)
        if path.is_dir():
            raise UsageError(f"--save {path} is a folder; give a file name")
        if path.exists():
            raise UsageError(f"--save {path} exists; choose another file")
        if path.parent.exists() and not path.parent.is_dir():
            raise UsageError(f"--save {path}: {path.parent} is not a folder")
    return PlaySetup(rs, names, int(seed), int(game_index), path)


def _show_decision(console, table, seat: int, legal: list[int]) -> None:
    from rich.panel import Panel
    from rich.table import Table as RichTable
    from rich.text import Text

    from agents.session import seat_label

    rs = table.ruleset
    console.print(
        Panel(
            Text(table.text(seat)),
            title=f"{seat_label(seat)} (you) - decision {table.decisions + 1}",
            expand=False,
        )
    )
    console.print(Text(f"{seat_label(seat)}: {table.decision_name()}", style="bold"))
    options = RichTable(show_header=True, header_style="bold", box=None, pad_edge=False)
    options.add_column("#", justify="right")
    options.add_column("action")
    for i, a in enumerate(legal, start=1):
        options.add_row(str(i), Text(rs.describe_action(a)))
    console.print(options)


def ask_choice(input_fn: Callable[[str], str], console, n: int) -> int:
    """A number 1..n typed by the player (asked again after bad input); EOFError and
    KeyboardInterrupt go to the caller."""
    while True:
        raw = input_fn(f"choice [1-{n}]: ").strip()
        if not raw:
            console.print(f"type a number from 1 to {n}")
            continue
        try:
            k = int(raw)
        except ValueError:
            console.print(f"{raw!r} is not a number: type a number from 1 to {n}")
            continue
        if not 1 <= k <= n:
            console.print(f"{k} is not in 1..{n}: type a number from 1 to {n}")
            continue
        return k - 1


def play_game(
    setup: PlaySetup,
    input_fn: Callable[[str], str] = input,
    console=None,
) -> PlayOutcome:
    """Play one game: humans through `input_fn` and `console` (a rich Console), agents
    through act_one. Always saves the game (complete or as far as it went)."""
    from rich.console import Console
    from rich.text import Text

    from agents.session import Table, format_result, seat_label, write_json

    console = console or Console()
    rs = setup.ruleset
    table = Table(rs, setup.seats, setup.seed, setup.game_index)
    humans = [s for s, name in enumerate(setup.seats) if name == "human"]
    opts = "".join(f", {k}={v}" for k, v in rs.options.items())
    console.print(
        f"{rs.title}{opts}: {len(setup.seats)} players, seed {setup.seed}, "
        f"game {setup.game_index}; "
        + ", ".join(f"{seat_label(s)} {n}" for s, n in enumerate(setup.seats))
    )
    last_human = None
    stopped = None
    try:
        while not table.over:
            seat = table.current
            if table.is_human(seat):
                if len(humans) > 1 and seat != last_human:
                    console.rule(f"{seat_label(seat)}'s turn")
                    input_fn(f"{seat_label(seat)}: press Enter to see your board ")
                    console.clear()
                last_human = seat
                legal = table.legal_actions()
                _show_decision(console, table, seat, legal)
                if len(humans) > 1:
                    console.print(f"({seat_label(seat)}'s turn)")
                action = legal[ask_choice(input_fn, console, len(legal))]
                move = table.take(action)
            else:
                move = table.take(table.agent_action())
                console.print(
                    Text(
                        f"{seat_label(move.seat)} ({move.agent}): {move.description}",
                        style="dim",
                    )
                )
    except EOFError:
        stopped = "end of input"
    except KeyboardInterrupt:
        stopped = "interrupted"
    finally:
        saved = write_json(setup.save, table.record())
    if stopped:
        console.print()  # the prompt's line was not ended by the player
        console.print(
            f"game stopped ({stopped}) after {table.decisions} decisions; saved to {saved}"
        )
        return PlayOutcome(table, saved, False, STOPPED)
    result = table.result()
    console.rule("game over")
    for s in humans or [0]:
        console.print(Text(table.text(s)))
    console.print(Text(format_result(result, setup.seats, rs.record.score_label)))
    console.print(f"saved to {saved}  (replay: tacsim replay --saved {saved})")
    return PlayOutcome(table, saved, True, 0)


def cmd_play(args: argparse.Namespace) -> int:
    setup = check_setup(
        args.ruleset, args.players, args.seats, args.seed, args.game_index, args.save, args.options
    )
    from envs.core.jit import cache_is_warm

    if not cache_is_warm(setup.ruleset.name):
        print(
            f"compiling the {setup.ruleset.name} numba kernels (first run after install or an "
            "edit: under a minute)",
            flush=True,
        )
    try:
        return play_game(setup).status
    except KeyboardInterrupt:  # before the game started (kernels loading): nothing to save
        print("interrupted before the game started; nothing saved")
        return STOPPED


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "play",
        help="play a game in the terminal against the in-kernel agents",
        description="Play one game: each seat is 'human' (you, typing the number of an "
        "action) or a registered agent. The game is saved as JSON for `tacsim replay`.",
    )
    add_ruleset_argument(p)
    add_option_argument(p)
    p.add_argument("--players", type=int, default=2, help="players (default 2)")
    p.add_argument(
        "--seats",
        default="human,heuristic",
        help="one name per seat, comma-separated: human or an agent (random, heuristic; "
        "default human,heuristic)",
    )
    p.add_argument("--seed", type=int, default=None, help="game seed (default: a random one)")
    p.add_argument("--game-index", type=int, default=0, help="game K of the seed (default 0)")
    p.add_argument(
        "--save",
        type=Path,
        default=None,
        help=f"saved game file (default {DEFAULT_DIR}/<UTC time>.json)",
    )
    p.set_defaults(func=cmd_play)
