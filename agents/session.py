"""One game driven decision by decision, for `tacsim play` and `tacsim replay`.

A :class:`Table` is one game of a ruleset in its PettingZoo AEC env (envs.make_env): game
``game_index`` of ``seed``, one controller per seat ("human" or a registered in-kernel agent,
which acts through the ruleset's ``act_one`` on the env's state, drawing from the game's own
agent RNG exactly as in-kernel self-play does). Every decision taken is kept as a
:class:`Move`, so a game can be saved as JSON and replayed.

Replays must act through ``act_one``, not ``act_batch``: TAC's batched random agent picks
from the env's mask in index order (envs/tac baselines), so it draws the same random number
as self-play but maps it to another action (172 of 200 heuristic-vs-random self-play games
came out differently that way; 0 of 7,800 through act_one).

The saved-game file (``tacsim play`` writes it, ``tacsim replay --saved`` reads it)::

    {"format": 1, "kind": "tacsim play",
     "ruleset": "tac", "options": {},     # the ruleset's options, e.g. {"game": "basic"}
     "env_name": "tac_v1", "fingerprint": "<ruleset.fingerprint()>",
     "players": 2, "seed": 123, "game_index": 0, "seats": ["human", "heuristic"],
     "complete": true,            # false: stopped before the end (the actions so far)
     "actions": [{"decision": 1, "seat": 0, "agent": "human", "action": 17,
                  "description": "action 17 (...)", "decision_name": "..."}, ...],
     "result": {"winner": 0, "scores": [12, 7], "rewards": [1.0, -1.0],
                "decisions": 110}}      # null while incomplete

Only Python and the ruleset contract here (envs/core/ruleset.py): no ruleset is imported.
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import numpy as np

from envs.core.ruleset import Ruleset

HUMAN = "human"
SAVE_FORMAT = 1
SAVE_KIND = "tacsim play"
MAX_SEED = 2**63 - 1  # seeds travel to the kernels as int64


@dataclass
class Move:
    """One decision taken: `decision` counts from 1 (the state's decision counter after it)."""

    decision: int
    seat: int
    agent: str
    action: int
    description: str
    decision_name: str


@dataclass
class Result:
    """The end of a game: winning seat (-1 a draw), each seat's score, rewards, decisions."""

    winner: int
    scores: list[int]
    rewards: list[float]
    decisions: int


def seat_label(seat: int) -> str:
    return f"player_{seat}"


def winner_label(winner: int) -> str:
    return "draw" if winner < 0 else seat_label(winner)


class Table:
    """One game of `ruleset` in its AEC env, `seats[s]` playing seat s."""

    def __init__(self, ruleset: Ruleset, seats: list[str], seed: int, game_index: int):
        from envs.registry import make_env

        self.ruleset = ruleset
        self.seats = list(seats)
        self.players = len(self.seats)
        self.seed = int(seed)
        self.game_index = int(game_index)
        self.agent_ids = [None if s == HUMAN else ruleset.agent_id(s) for s in self.seats]
        kwargs: dict[str, Any] = {"num_players": self.players}
        if ruleset.config_dir is not None:
            kwargs["config_dir"] = ruleset.config_dir
        if ruleset.options:  # the env builds the same Ruleset (same fingerprint) from them
            kwargs["options"] = dict(ruleset.options)
        self.env = make_env(ruleset.name, **kwargs)
        self.raw = self.env.unwrapped
        self.env.reset(seed=self.seed, options={"game_index": self.game_index})
        self.moves: list[Move] = []

    # --- what the table shows -----------------------------------------------------------
    @property
    def state(self) -> np.ndarray:
        return self.raw.state_arrays

    @property
    def over(self) -> bool:
        return bool(self.raw.terminations[self.raw.agent_selection])

    @property
    def current(self) -> int:
        return int(self.state["current"][0])

    @property
    def decisions(self) -> int:
        return int(self.state["decisions"][0])

    def decision_name(self) -> str:
        return self.ruleset.decision_name(self.state, 0)

    def legal_actions(self) -> list[int]:
        mask = self.env.observe(self.raw.agent_selection)["action_mask"]
        return [int(a) for a in np.flatnonzero(mask)]

    def is_human(self, seat: int) -> bool:
        return self.agent_ids[seat] is None

    def text(self, seat: int) -> str:
        """The board as `seat` sees it (the ruleset's render_text: never another's view)."""
        return self.ruleset.render_text(self.state, seat, 0)

    # --- acting ---------------------------------------------------------------------------
    def agent_action(self) -> int:
        """The in-kernel agent's action for the current decision (draws from the game's
        agent RNG, so call it once per decision and then take that action)."""
        agent = self.agent_ids[self.current]
        if agent is None:
            raise ValueError(f"{seat_label(self.current)} is played by a human")
        rs = self.ruleset
        return int(rs.act_one(self.state, rs.tables_batch, 0, agent))

    def take(self, action: int) -> Move:
        """Take a legal action for the current seat (ValueError if illegal: nothing done)."""
        seat, name = self.current, self.decision_name()
        self.env.step(int(action))
        move = Move(
            decision=self.decisions,
            seat=seat,
            agent=self.seats[seat],
            action=int(action),
            description=self.ruleset.describe_action(int(action)),
            decision_name=name,
        )
        self.moves.append(move)
        return move

    def result(self) -> Result | None:
        if not self.over:
            return None
        S, P = self.state, self.players
        field = self.ruleset.record.score_field
        return Result(
            winner=int(S["winner"][0]),
            scores=[int(x) for x in S[field][0, :P]],
            rewards=[float(x) for x in S["rewards"][0, :P]],
            decisions=int(S["decisions"][0]),
        )

    # --- the saved game -------------------------------------------------------------------
    def record(self) -> dict:
        rs = self.ruleset
        result = self.result()
        return {
            "format": SAVE_FORMAT,
            "kind": SAVE_KIND,
            "ruleset": rs.name,
            "options": dict(rs.options),
            "env_name": rs.env_name,
            "fingerprint": rs.fingerprint(),
            "players": self.players,
            "seed": self.seed,
            "game_index": self.game_index,
            "seats": list(self.seats),
            "complete": result is not None,
            "actions": [asdict(m) for m in self.moves],
            "result": None if result is None else asdict(result),
        }


def write_json(path: Path, data: dict) -> Path:
    """Write atomically (temporary file + os.replace), creating the folder."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(json.dumps(data, indent=1) + "\n")
    os.replace(tmp, path)
    return path


def format_result(result: Result, seats: list[str], score_label: str) -> str:
    lines = [f"winner: {winner_label(result.winner)}  ({result.decisions} decisions)"]
    for s, name in enumerate(seats):
        lines.append(
            f"  {seat_label(s)} ({name}): {result.scores[s]} {score_label}, "
            f"reward {result.rewards[s]:+g}"
        )
    return "\n".join(lines)
