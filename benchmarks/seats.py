"""The seat-by-seat tally of the agents benchmarks (benchmarks/*_agents.py): how often agent 0
of a play_chunk call (the one measured, e.g. the heuristic) wins in each seat, over chunks of
games where seat s of game g is played by agent (s + g) % 2."""

from __future__ import annotations

import numpy as np

from agents.stats import wilson_interval


class SeatTally:
    """Wins, draws and games of agent 0 in seats 0 and 1, added chunk by chunk."""

    def __init__(self, noun: str = "game") -> None:
        self.noun = noun  # "game", or "war" (TACTICA): the unit counted, in errors and keys
        self.wins = np.zeros(2, dtype=np.int64)
        self.draws = np.zeros(2, dtype=np.int64)
        self.played = np.zeros(2, dtype=np.int64)
        self.decisions = 0

    def add(self, res) -> None:
        """Count one play_chunk result (ChunkResults); a game that did not end is a bug."""
        if (res.length < 0).any():
            raise RuntimeError(f"a {self.noun} did not end (kernel bug)")
        self.decisions += int(res.length.sum())
        for seat in (0, 1):
            mine = res.seat_agent[:, seat] == 0
            self.played[seat] += mine.sum()
            self.wins[seat] += (res.winner[mine] == seat).sum()
            self.draws[seat] += (res.winner[mine] < 0).sum()

    def seat(self, seat: int) -> dict:
        """Agent 0 in `seat`: games (or wars), wins, draws, win rate and its 95% Wilson
        interval (draws count as not won)."""
        lo, hi = wilson_interval(int(self.wins[seat]), int(self.played[seat]))
        return {
            f"{self.noun}s": int(self.played[seat]),
            "wins": int(self.wins[seat]),
            "draws": int(self.draws[seat]),
            "win_rate": round(float(self.wins[seat] / self.played[seat]), 4),
            "wilson95": [round(float(lo), 4), round(float(hi), 4)],
        }
