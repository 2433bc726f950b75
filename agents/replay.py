"""`tacsim replay`: re-create a recorded game from its seed, game index and agents, and check
that it ends as recorded.

    tacsim replay --run DIR --game K [--step | --quiet] [--seat S] [--frames DIR] [--gif FILE]
    tacsim replay --run DIR --all [--quiet]
    tacsim replay --saved FILE       [--step | --quiet] [--seat S] [--frames DIR] [--gif FILE]

A self-play run folder (agents/selfplay.py) gives the seed, the ruleset's options and, per
game, the agent of each seat; a saved play file (agents/session.py) gives the options, the
seats and every action taken. Agents act through the ruleset's ``act_one`` (the game's own
agent RNG, as in-kernel self-play); humans' actions come from the saved list, and every
agent action is checked against it.

Output: every decision as one line and the board at the end (default); the board before
each decision, waiting for Enter (``--step``); only the check (``--quiet``). ``--frames DIR``
writes one PNG per decision plus the final position (decisions + 1 files) and ``--gif FILE``
an animated GIF, with the ruleset's ``render_image``. The board is shown as the deciding
seat sees it, or as ``--seat S`` sees it.

Exit status: 0 reproduced; 1 not reproduced (the message names what differs: winner, a
seat's score or reward, the length in decisions, or the first action that differs from a
saved one); 2 bad input (UsageError, nothing written); 130 stopped while stepping.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from agents.cli import UsageError, check_ruleset

NOT_REPRODUCED = 1
STOPPED = 130


@dataclass
class Recorded:
    """A game to replay and what it must reproduce."""

    source: str  # "run DIR game K" / "saved FILE"
    ruleset: object  # envs.core.ruleset.Ruleset
    seats: list[str]
    seed: int
    game_index: int
    winner: int | None  # None: an unfinished saved game (nothing to compare at the end)
    scores: list[int] | None
    rewards: list[float] | None
    length: int | None
    actions: list[dict] | None = None  # a saved game's actions (seat, action, ...)
    extra: dict = field(default_factory=dict)


@dataclass
class Check:
    reproduced: bool
    differences: list[str]
    decisions: int
    result: object  # agents.session.Result | None
    complete: bool  # the recorded game ran to its end

    def message(self, rec: Recorded) -> str:
        from agents.session import winner_label

        if not self.reproduced:
            return f"not reproduced: {rec.source}: " + "; ".join(self.differences)
        if self.result is None:
            return (
                f"reproduced: {rec.source}: the {self.decisions} decisions of an unfinished "
                "game (stopped before its end)"
            )
        r = self.result
        return (
            f"reproduced: {rec.source}: winner {winner_label(r.winner)}, scores "
            f"{r.scores}, {r.decisions} decisions"
        )


# --- reading what to replay -------------------------------------------------------------------


def load_run_game(run_dir: Path | str, game: int) -> Recorded:
    return load_run_games(run_dir, [game])[0]


def _run_ruleset(run_dir: Path) -> tuple[object, dict]:
    from agents import records

    if not run_dir.exists():
        raise UsageError(f"--run {run_dir}: no such folder")
    if not run_dir.is_dir():
        raise UsageError(f"--run {run_dir} is not a folder")
    try:
        run = records.read_run_file(run_dir)
    except (OSError, ValueError) as e:
        raise UsageError(f"{run_dir}/{records.RUN_FILE}: unreadable ({e})") from None
    if run is None:
        raise UsageError(f"--run {run_dir} has no {records.RUN_FILE}: not a self-play run folder")
    params = run.get("params")
    if not isinstance(params, dict) or "ruleset" not in params or "players" not in params:
        raise UsageError(f"{run_dir}/{records.RUN_FILE}: no run parameters in it")
    from agents.selfplay import RUN_FORMAT

    if run.get("format") != RUN_FORMAT:
        raise UsageError(
            f"{run_dir}: record format {run.get('format')!r}, this tacsim reads {RUN_FORMAT}"
        )
    rs = check_ruleset(str(params["ruleset"]))
    # played under another rule folder (re-costing) or under ruleset options: the same here
    if params.get("config") is not None or params.get("options"):
        from agents.selfplay import load_ruleset

        rs = load_ruleset(str(params["ruleset"]), params.get("config"), params.get("options"))
    if run.get("env") != rs.env_name:
        raise UsageError(
            f"{run_dir} holds {run.get('env')} games, not {rs.env_name}: cannot replay them"
        )
    if run.get("tables") != rs.fingerprint():
        raise UsageError(
            f"{run_dir} was played under other {rs.name} rule tables (fingerprint "
            f"{run.get('tables')}, now {rs.fingerprint()}): cannot replay it"
        )
    if not records.finished_chunks(run_dir):
        raise UsageError(f"--run {run_dir} holds no finished games yet")
    return rs, params


def load_run_games(run_dir: Path | str, games: list[int] | None = None) -> list[Recorded]:
    """The recorded games `games` (None: all) of a self-play run folder."""
    from agents import records

    run_dir = Path(run_dir)
    rs, params = _run_ruleset(run_dir)
    P = int(params["players"])
    if games is None:
        where = ""
    else:
        bad = [g for g in games if not isinstance(g, int) or g < 0]
        if bad:
            raise UsageError(f"--game must be a game index >= 0, got {bad[0]}")
        where = f" WHERE game_index IN ({', '.join(str(int(g)) for g in games)})"
    rows = records.query(run_dir, f"SELECT * FROM games{where} ORDER BY game_index").to_pylist()
    if games is not None:
        found = {r["game_index"] for r in rows}
        missing = [g for g in games if g not in found]
        if missing:
            n = records.query(run_dir, "SELECT count(*) AS n FROM games").to_pylist()[0]["n"]
            raise UsageError(
                f"game {missing[0]} is not in {run_dir} (it holds {n} finished games; "
                f"indices 0..{int(params.get('games', n)) - 1} when complete)"
            )
    out = []
    for r in rows:
        seats = [str(r[f"agent_{s}"]) for s in range(P)]
        for name in seats:
            if name not in rs.agents:
                raise UsageError(f"{run_dir}: agent {name!r} is not a {rs.name} agent")
        out.append(
            Recorded(
                source=f"run {run_dir} game {r['game_index']}",
                ruleset=rs,
                seats=seats,
                seed=int(r["seed"]),
                game_index=int(r["game_index"]),
                winner=int(r["winner"]),
                scores=[int(r[f"score_{s}"]) for s in range(P)],
                rewards=[float(r[f"reward_{s}"]) for s in range(P)],
                length=int(r["length"]),
            )
        )
    return out


def load_saved(path: Path | str) -> Recorded:
    """A saved play file (agents/session.py format), checked against the ruleset."""
    from agents.session import HUMAN, SAVE_FORMAT, SAVE_KIND

    path = Path(path)
    if not path.is_file():
        raise UsageError(f"--saved {path}: no such file")
    try:
        data = json.loads(path.read_text())
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise UsageError(f"--saved {path}: not a saved game ({e})") from None
    if not isinstance(data, dict) or data.get("kind") != SAVE_KIND:
        raise UsageError(f"--saved {path}: not a saved `tacsim play` game")
    if data.get("format") != SAVE_FORMAT:
        raise UsageError(f"--saved {path}: format {data.get('format')!r}, expected {SAVE_FORMAT}")
    options = data.get("options") or None  # saved before options existed: none
    if options is not None and not isinstance(options, dict):
        raise UsageError(f"--saved {path}: malformed options {options!r}")
    rs = check_ruleset(str(data.get("ruleset")), options)
    if data.get("env_name") != rs.env_name:
        raise UsageError(
            f"--saved {path} is a {data.get('env_name')} game, not {rs.env_name}: cannot replay it"
        )
    if data.get("fingerprint") != rs.fingerprint():
        raise UsageError(
            f"--saved {path} was played under other {rs.name} rule tables (fingerprint "
            f"{data.get('fingerprint')}, now {rs.fingerprint()}): cannot replay it"
        )
    try:
        seats = [str(s) for s in data["seats"]]
        P = int(data["players"])
        seed, game_index = int(data["seed"]), int(data["game_index"])
        actions = [
            {"seat": int(m["seat"]), "action": int(m["action"]), "agent": str(m["agent"])}
            for m in data["actions"]
        ]
        result = data["result"]
        if result is not None:
            winner = int(result["winner"])
            scores = [int(x) for x in result["scores"]]
            rewards = [float(x) for x in result["rewards"]]
            length = int(result["decisions"])
    except (KeyError, TypeError, ValueError) as e:
        raise UsageError(f"--saved {path}: malformed ({type(e).__name__}: {e})") from None
    if len(seats) != P or not rs.min_players <= P <= rs.max_players:
        raise UsageError(f"--saved {path}: {len(seats)} seats for {P} players")
    for name in seats:
        if name != HUMAN and name not in rs.agents:
            raise UsageError(f"--saved {path}: seat {name!r} is not a {rs.name} agent")
    if seed < 0 or game_index < 0:
        raise UsageError(f"--saved {path}: negative seed or game index")
    if result is None:
        winner = scores = rewards = length = None
    elif len(scores) != P or len(rewards) != P:
        raise UsageError(f"--saved {path}: result has not one score per seat")
    return Recorded(
        source=f"saved {path}",
        ruleset=rs,
        seats=seats,
        seed=seed,
        game_index=game_index,
        winner=winner,
        scores=scores,
        rewards=rewards,
        length=length,
        actions=actions,
    )


# --- replaying ------------------------------------------------------------------------------


def replay_game(
    rec: Recorded,
    on_decision: Callable | None = None,
    on_end: Callable | None = None,
) -> Check:
    """Play the recorded game again. on_decision(table, seat) is called before each decision,
    on_end(table) once after the last; both may raise KeyboardInterrupt / EOFError to stop."""
    from agents.session import HUMAN, Table, seat_label, winner_label

    table = Table(rec.ruleset, rec.seats, rec.seed, rec.game_index)
    saved = rec.actions
    diffs: list[str] = []
    i = 0
    while not table.over:
        seat = table.current
        want = saved[i] if saved is not None and i < len(saved) else None
        if saved is not None and want is None:
            if rec.length is not None:
                diffs.append(
                    f"the saved actions end after {len(saved)} decisions but the game is not over"
                )
            break  # an unfinished saved game: replayed as far as it went
        if on_decision is not None:
            on_decision(table, seat)
        if want is not None and want["seat"] != seat:
            diffs.append(
                f"decision {i + 1}: {seat_label(seat)} is to decide, the saved game has "
                f"{seat_label(want['seat'])}"
            )
            break
        if rec.seats[seat] == HUMAN:
            action = want["action"]
            if action not in table.legal_actions():
                diffs.append(
                    f"decision {i + 1}: the saved action {rec.ruleset.describe_action(action)} "
                    f"of {seat_label(seat)} is not legal"
                )
                break
        else:
            action = table.agent_action()
            if want is not None and want["action"] != action:
                diffs.append(
                    f"decision {i + 1}: {seat_label(seat)} ({rec.seats[seat]}) chose "
                    f"{rec.ruleset.describe_action(action)}, the saved game has "
                    f"{rec.ruleset.describe_action(want['action'])}"
                )
                break
        table.take(action)
        i += 1
    if not diffs and saved is not None and table.over and i < len(saved):
        diffs.append(f"the game ended after {i} decisions but {len(saved)} are saved")
    result = table.result()
    if not diffs and rec.length is not None and result is not None:
        if result.winner != rec.winner:
            diffs.append(
                f"winner: recorded {winner_label(rec.winner)}, replayed "
                f"{winner_label(result.winner)}"
            )
        for s in range(table.players):
            if result.scores[s] != rec.scores[s]:
                diffs.append(
                    f"score of {seat_label(s)}: recorded {rec.scores[s]}, replayed "
                    f"{result.scores[s]}"
                )
        for s in range(table.players):
            if result.rewards[s] != rec.rewards[s]:
                diffs.append(
                    f"reward of {seat_label(s)}: recorded {rec.rewards[s]:g}, replayed "
                    f"{result.rewards[s]:g}"
                )
        if result.decisions != rec.length:
            diffs.append(f"length: recorded {rec.length} decisions, replayed {result.decisions}")
    if on_end is not None:
        on_end(table)
    return Check(not diffs, diffs, table.decisions, result, rec.length is not None)


# --- frames ------------------------------------------------------------------------------------


class FrameWriter:
    """PNG frames (frame-NNNNN.png) and/or an animated GIF from the ruleset's render_image."""

    def __init__(self, ruleset, frames_dir: Path | None, gif: Path | None, seat: int | None):
        self.ruleset = ruleset
        self.frames_dir = frames_dir
        self.gif = gif
        self.seat = seat
        self.count = 0
        self._gif_frames: list = []

    def frame(self, table, seat: int) -> None:
        import io

        me = self.seat if self.seat is not None else seat
        png = self.ruleset.render_image(table.state, me, 0)
        if self.frames_dir is not None:
            (self.frames_dir / f"frame-{self.count:05d}.png").write_bytes(png)
        if self.gif is not None:
            from PIL import Image

            with Image.open(io.BytesIO(png)) as im:
                self._gif_frames.append(im.convert("RGB").quantize(colors=64))
        self.count += 1

    def finish(self) -> None:
        if self.gif is not None and self._gif_frames:
            first, rest = self._gif_frames[0], self._gif_frames[1:]
            self.gif.parent.mkdir(parents=True, exist_ok=True)
            durations = [600] * (len(self._gif_frames) - 1) + [3000]
            first.save(
                self.gif,
                save_all=True,
                append_images=rest,
                duration=durations,
                loop=0,
                optimize=False,
            )


# --- the command --------------------------------------------------------------------------------


def _check_outputs(args, rs, players: int) -> tuple[Path | None, Path | None]:
    frames = Path(args.frames) if args.frames is not None else None
    gif = Path(args.gif) if args.gif is not None else None
    if (frames or gif) and rs.render_image is None:
        raise UsageError(f"{rs.name} has no picture (render_image): --frames/--gif unavailable")
    if frames is not None:
        if frames.exists() and (not frames.is_dir() or any(frames.iterdir())):
            raise UsageError(f"--frames {frames} exists and is not an empty folder")
    if gif is not None:
        if gif.is_dir():
            raise UsageError(f"--gif {gif} is a folder; give a file name")
        if gif.exists():
            raise UsageError(f"--gif {gif} exists; choose another file")
    if args.seat is not None and not 0 <= args.seat < players:
        raise UsageError(f"--seat must be 0 to {players - 1}, got {args.seat}")
    return frames, gif


def run_replay(
    args: argparse.Namespace,
    input_fn: Callable[[str], str] = input,
    out=None,
    err=None,
) -> int:
    """The command, with injectable input and output streams."""
    from agents.session import seat_label

    out = out or sys.stdout
    err = err or sys.stderr
    asked = getattr(args, "ruleset", None)
    if asked is not None:
        check_ruleset(asked)  # unknown or data only: one line, before anything is read
    if (args.run is None) == (args.saved is None):
        raise UsageError("give either --run DIR (with --game K or --all) or --saved FILE")
    if args.run is not None:
        if args.all:
            if args.game is not None or args.step or args.frames or args.gif:
                raise UsageError("--all checks every game: no --game, --step, --frames, --gif")
            if asked is not None and asked != _run_ruleset(Path(args.run))[0].name:
                raise UsageError(f"--ruleset {asked} but {args.run} holds another ruleset's games")
            return _replay_all(Path(args.run), out, err)
        if args.game is None:
            raise UsageError("--run needs --game K (or --all)")
        rec = load_run_game(args.run, args.game)
    else:
        if args.game is not None or args.all:
            raise UsageError("--game/--all go with --run, not --saved")
        rec = load_saved(args.saved)
    rs = rec.ruleset
    if asked is not None and asked != rs.name:
        raise UsageError(f"--ruleset {asked} but the game recorded is {rs.name}")
    frames, gif = _check_outputs(args, rs, len(rec.seats))
    if args.step and args.quiet:
        raise UsageError("--step and --quiet exclude each other")
    if frames is not None:
        frames.mkdir(parents=True, exist_ok=True)
    writer = FrameWriter(rs, frames, gif, args.seat) if (frames or gif) else None
    verbose = not args.quiet

    def on_decision(table, seat):
        if writer is not None:
            writer.frame(table, seat)
        if args.step:
            me = args.seat if args.seat is not None else seat
            print(
                f"--- decision {table.decisions + 1}: {table.decision_name()} "
                f"(board as {seat_label(me)} sees it)",
                file=out,
            )
            print(table.text(me), file=out)
            input_fn("Enter: next decision ")

    def on_end(table):
        if writer is not None:
            writer.frame(table, _end_seat(rec))
            writer.finish()
        if verbose:
            me = args.seat if args.seat is not None else _end_seat(rec)
            print(f"--- end (board as {seat_label(me)} sees it)", file=out)
            print(table.text(me), file=out)

    if verbose:
        print(
            f"replay {rec.source}: {rs.name}, {len(rec.seats)} players, seed {rec.seed}, "
            f"game {rec.game_index}; "
            + ", ".join(f"{seat_label(s)} {n}" for s, n in enumerate(rec.seats)),
            file=out,
        )
    printed = {"n": 0}

    def on_decision_verbose(table, seat):
        _flush_moves(table, printed, out, verbose)
        on_decision(table, seat)

    def on_end_verbose(table):
        _flush_moves(table, printed, out, verbose)
        on_end(table)

    try:
        check = replay_game(rec, on_decision_verbose, on_end_verbose)
    except (EOFError, KeyboardInterrupt):
        print("replay stopped", file=out)
        return STOPPED
    msg = check.message(rec)
    if not check.reproduced:
        print(f"tacsim replay: {msg}", file=err)
        return NOT_REPRODUCED
    print(msg, file=out)
    if writer is not None:
        where = [str(p) for p in (frames, gif) if p is not None]
        print(f"{writer.count} frames: {', '.join(where)}", file=out)
    return 0


def _end_seat(rec: Recorded) -> int:
    humans = [s for s, n in enumerate(rec.seats) if n == "human"]
    return humans[0] if humans else 0


def _flush_moves(table, printed: dict, out, verbose: bool) -> None:
    while printed["n"] < len(table.moves):
        m = table.moves[printed["n"]]
        if verbose:
            from agents.session import seat_label

            print(
                f"{m.decision:>5}  {seat_label(m.seat)} ({m.agent})  {m.decision_name}: "
                f"{m.description}",
                file=out,
            )
        printed["n"] += 1


def _replay_all(run_dir: Path, out, err) -> int:
    recs = load_run_games(run_dir, None)
    bad = []
    for rec in recs:
        check = replay_game(rec)
        if not check.reproduced:
            bad.append(check.message(rec))
            print(f"tacsim replay: {bad[-1]}", file=err)
    if bad:
        print(
            f"tacsim replay: not reproduced: {len(bad)} of {len(recs)} games of {run_dir}", file=err
        )
        return NOT_REPRODUCED
    print(f"reproduced: all {len(recs)} games of {run_dir}", file=out)
    return 0


def cmd_replay(args: argparse.Namespace) -> int:
    try:
        return run_replay(args)
    except KeyboardInterrupt:
        print("replay interrupted", file=sys.stderr)
        return STOPPED


def add_parser(subparsers) -> None:
    p = subparsers.add_parser(
        "replay",
        help="replay a self-play or saved game and check it ends as recorded",
        description="Re-create a game from its seed, game index and agents (humans' actions "
        "from the saved file) and check the winner, each seat's score and the length. Exit "
        "status 1 if the replay does not reproduce the record.",
    )
    p.add_argument(
        "--ruleset",
        default=None,
        help="check that the game is of this ruleset (default: the one recorded with it)",
    )
    src = p.add_argument_group("what to replay (one of)")
    src.add_argument("--run", type=Path, default=None, help="self-play run folder")
    src.add_argument("--game", type=int, default=None, help="game index K of the run")
    src.add_argument("--all", action="store_true", help="check every game of the run")
    src.add_argument("--saved", type=Path, default=None, help="a saved `tacsim play` game")
    how = p.add_argument_group("how to show it")
    how.add_argument(
        "--step",
        action="store_true",
        help="show the board before each decision and wait for Enter",
    )
    how.add_argument("--quiet", action="store_true", help="print only the check")
    how.add_argument(
        "--seat",
        type=int,
        default=None,
        help="show the board as seat S sees it (default: "
        "the deciding seat; at the end the first human, else seat 0)",
    )
    how.add_argument("--frames", type=Path, default=None, help="write one PNG per decision")
    how.add_argument("--gif", type=Path, default=None, help="write an animated GIF")
    p.set_defaults(func=cmd_replay)
