"""Games between any mix of seat agents: a ruleset's in-kernel agents and trained policies.

`Arena(ruleset, num_players, agents)` takes agent names: the ruleset's in-kernel agents
(`ruleset.agents`: random, heuristic, ...) and trained policies (`ppo:PATH`, agents/policy.py).
Seat s of game g is played by agents[(s + g) % len(agents)], as the ruleset's play_chunk does,
and `play(seed, game_indices)` returns the same ChunkResults as play_chunk, so
agents/selfplay.py and agents/records.py write ordinary records for it.

- Every seat an in-kernel agent: the ruleset's play_chunk (whole games inside numba, the
  fast path, unchanged).
- Any policy among the agents: a Python loop over the contract's batch kernels. Every
  unfinished game of the chunk takes one decision per iteration: reset_batch once, then
  act_batch for the games whose current seat is a fast kernel agent (one call per agent;
  act_one game by game for a searching one, ruleset.search_agents), the
  policy on observe_batch's observations and the masks for the games whose current seat is
  a policy, check_actions, step_batch; games that end are read out (the record fields of
  the ruleset's RecordSpec) and dropped from the batch.

The loop draws kernel agents' random numbers from each game's own agent RNG in the state, as
play_chunk does, so a deterministic agent (TAC's heuristic) plays the same games on both
paths (tests/integration/test_arena.py). TAC's random agent picks by mask order in act_batch
and by legal-list order in play_chunk: both are uniform, but a game with a random seat differs
between the two paths (same deals, other choices).
"""

from __future__ import annotations

from collections.abc import Sequence

import numba
import numpy as np

from agents import policy as policy_mod
from envs.core.ruleset import ChunkResults, Ruleset

# More decisions than any game of a ruleset takes: a loop past it is a bug, not a long game
MAX_DECISIONS = 1_000_000


class Arena:
    """Seat agents of one ruleset and player count (see the module docstring)."""

    def __init__(self, ruleset: Ruleset, num_players: int, agents: Sequence[str]):
        ruleset.check_players(num_players)
        names = list(agents)
        if not 1 <= len(names) <= ruleset.max_players:
            raise ValueError(f"give 1 to {ruleset.max_players} agents, got {len(names)}")
        self.ruleset = ruleset
        self.num_players = int(num_players)
        self.agents = names
        # play_chunk's agent ids; -1 marks a policy (never passed to a kernel)
        self.agent_ids = np.full(len(names), -1, dtype=np.int8)
        self.policies: dict[int, policy_mod.Policy] = {}
        for k, name in enumerate(names):
            if policy_mod.is_policy_name(name):
                self.policies[k] = policy_mod.load(name, ruleset, self.num_players)
            else:
                self.agent_ids[k] = ruleset.agent_id(name)  # ValueError naming an unknown one

    @property
    def has_policy(self) -> bool:
        return bool(self.policies)

    def play(
        self,
        seed: int,
        game_indices: np.ndarray,
        state: np.ndarray | None = None,
        python_loop: bool = False,
    ) -> ChunkResults:
        """Games `game_indices` of family `seed` to the end; one ChunkResults row per game.

        `state`: a state batch of at least len(game_indices) games to play in (allocated if
        None). `python_loop=True` takes the Python loop even when every seat is a kernel
        agent (the test comparing both paths)."""
        rs = self.ruleset
        idx = np.ascontiguousarray(game_indices, dtype=np.int64)
        n = len(idx)
        if state is None:
            state = rs.allocate(n, self.num_players)
        elif len(state) < n:
            raise ValueError(f"state holds {len(state)} games, {n} asked")
        S = state[:n]
        if not self.has_policy and not python_loop:
            return rs.play_chunk(S, rs.tables_batch, seed, idx, self.agent_ids)
        # the loop's kernels on the calling thread: each does one decision per game, so a
        # parallel call is mostly thread hand-off. On the shared 2-core machine (load 7)
        # 1,000 games of random vs heuristic took 13.7 s on 2 numba threads and 1.2 s on one;
        # with a policy, numba's and torch's OpenMP threads also fought (100 games: 9.5 s
        # against 0.8 s)
        saved = numba.get_num_threads()
        numba.set_num_threads(1)
        try:
            return self._loop(S, int(seed), idx)
        finally:
            numba.set_num_threads(saved)

    def _loop(self, S: np.ndarray, seed: int, idx: np.ndarray) -> ChunkResults:
        rs = self.ruleset
        tba = rs.tables_batch
        spec = rs.record
        P = self.num_players
        n = len(idx)
        n_agents = len(self.agents)
        n_items = len(spec.items)
        res = ChunkResults.empty(n, rs.max_players, n_items)
        for s in range(P):
            res.seat_agent[:, s] = (s + idx) % n_agents
        masks = np.zeros((n, rs.n_actions), dtype=np.int8)
        rs.reset_batch(S, tba, seed, idx, masks)
        obs_size = rs.observation_size(P)
        live = np.arange(n)  # result row of each game still in S
        for _ in range(MAX_DECISIONS):
            if live.size == 0:
                return res
            m = live.size
            cur = S["current"].copy()
            who = res.seat_agent[live, cur.astype(np.int64)]  # agent position to act
            actions = np.full(m, -1, dtype=np.int64)
            for k in np.unique(who):
                rows = np.flatnonzero(who == k)
                everyone = rows.size == m
                sub = S if everyone else S[rows]  # a copy: written back below
                sub_masks = masks if everyone else masks[rows]
                out = np.zeros(rows.size, dtype=np.int64)
                if k in self.policies:
                    obs = np.zeros((rows.size, obs_size), dtype=np.float32)
                    rs.observe_batch(sub, tba, cur[rows], obs)
                    out[:] = self.policies[k].act(obs, sub_masks)
                elif self.agents[k] in rs.search_agents:
                    # search agents are compiled into act_one, not into act_batch; a search
                    # takes milliseconds, so one call per game costs nothing extra
                    for j, r in enumerate(rows):
                        out[j] = rs.act_one(S, tba, np.int64(r), self.agent_ids[k])
                else:
                    seat_agents = np.full(P, self.agent_ids[k], dtype=np.int8)
                    rs.act_batch(sub, tba, sub_masks, seat_agents, out)
                    if not everyone:
                        S[rows] = sub  # the agent's random draws advanced the game's RNG
                actions[rows] = out
            terminated = np.zeros(m, dtype=np.bool_)
            bad = rs.check_actions(S, masks, actions)
            if bad >= 0:
                raise RuntimeError(
                    f"{rs.name}: agent {self.agents[int(who[bad])]} chose "
                    f"{rs.describe_action(int(actions[bad]))}, illegal in decision "
                    f"'{rs.decision_name(S, bad)}' of game {int(idx[live[bad]])}"
                )
            rs.step_batch(
                S,
                tba,
                actions,
                masks,
                np.zeros((m, rs.max_players), dtype=np.float32),
                terminated,
                np.zeros((m, rs.max_players), dtype=np.int16),
                np.zeros(m, dtype=np.int32),
            )
            if terminated.any():
                self._read_out(S, terminated, live[terminated], res)
                keep = ~terminated
                S, masks, live = S[keep], masks[keep], live[keep]
        raise RuntimeError(f"{rs.name}: games still running after {MAX_DECISIONS} decisions")

    def _read_out(self, S: np.ndarray, done: np.ndarray, rows: np.ndarray, res) -> None:
        """Write the finished games S[done] into result rows `rows` (what play_chunk records)."""
        spec = self.ruleset.record
        P = self.num_players
        U = len(spec.items)
        F = S[done]
        res.winner[rows] = F["winner"]
        res.score[rows, :P] = F[spec.score_field][:, :P]
        res.rewards[rows, :P] = F["rewards"][:, :P]
        res.length[rows] = F["decisions"]
        res.rounds[rows] = np.minimum(F[spec.rounds_field], 127)
        res.force[rows, :P, :] = F[spec.force_field][:, :P, :U]
