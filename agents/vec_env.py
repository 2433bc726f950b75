"""An SB3 VecEnv over BatchEnv's kernels: N games of any registered ruleset per call, the
learner in one seat of each, every other seat played inside the kernels.

`BatchVecEnv(ruleset, num_envs, opponent="random", seed=0, learner_seat="alternate")`:

- **Seats.** ``learner_seat`` is a seat number (every slot) or ``"alternate"``: the slots
  are cut into P contiguous blocks and slot i learns seat ``i * P // num_envs`` (64 slots,
  2 players: slots 0-31 seat 0, 32-63 seat 1). Blocks rather than ``i % P`` because the
  contract's ``opponents_batch`` takes one learner seat per call: each block is one call on
  a view of the state array (a contiguous slice, so the same compiled kernel and no copy).
  A slot keeps its seat for the whole run; with fewer slots than players the low seats
  learn.
- **One step** (``step_wait``): the learner's actions are checked (``check_actions``) and
  applied (``step_batch``); then ``opponents_batch`` plays every other seat of every game
  until the learner must decide again or the game ends. A game that ends, by the learner's
  move or during the opponents', reports the learner seat's terminal reward (the
  ruleset's, e.g. +1 win, -1 loss, 0 tie) as this step's reward with ``done=True``;
  every other reward is 0. Its last observation (the learner's view of the final state) is
  in ``infos[i]["terminal_observation"]``, with ``winner``, ``score``, ``decisions`` (both
  seats) and ``is_success``. Finished slots then start the next game (``autoreset_batch``)
  and ``opponents_batch`` runs again, so that in a fresh game where an opponent moves first
  the returned observation is again the learner's decision. (A fresh game that ended before
  the learner's first decision would teach nothing: it is skipped and counted in
  ``skipped_games``; TAC's games never do.)
- **Masks**: ``action_masks()`` (bool[N, n_actions]) and ``env_method("action_masks")``
  (what sb3-contrib's ``get_action_masks`` calls) give the legal actions of the learner's
  current decision in each slot.
- **Observations**: ``observe_batch`` with players = the learner seat of each slot.
- **Games**: slot b starts game b of the seed's family; finished slots take the next game
  indices in slot order (BatchEnv's rule), and all chance lives in each game's own RNG
  words in the state, opponents' choices included: the same seed and the same learner
  actions give the same games and trajectories. ``seed(s)`` (SB3 calls it with the model's
  seed) sets the family used by the next ``reset()``.
- **Illegal actions**: ``illegal_action="raise"`` (default) raises ValueError naming the
  slot, the action and the decision and changes nothing; ``"penalty"`` ends that game
  with ``illegal_reward`` (-1) for the learner and ``info["illegal_action"]``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

import numba
import numpy as np
from gymnasium import spaces
from stable_baselines3.common.vec_env import VecEnv

from agents.kernel_agents import refuse_search_agents
from envs.core.ruleset import Ruleset

ILLEGAL_MODES = ("raise", "penalty")


def learner_seats(num_envs: int, num_players: int, learner_seat: str | int) -> np.ndarray:
    """The learner's seat in each slot (int8[num_envs]); see the module docstring."""
    if learner_seat == "alternate":
        return (np.arange(num_envs) * num_players // num_envs).astype(np.int8)
    if isinstance(learner_seat, bool) or not isinstance(learner_seat, (int, np.integer)):
        raise ValueError(f"learner_seat must be 'alternate' or a seat number, got {learner_seat!r}")
    if not 0 <= learner_seat < num_players:
        raise ValueError(f"learner_seat must be 0..{num_players - 1}, got {learner_seat}")
    return np.full(num_envs, learner_seat, dtype=np.int8)


class _NumbaThreads:
    """Run the enclosed kernel calls on `n` numba threads (None: leave the setting)."""

    def __init__(self, n: int | None):
        self.n = n
        self.saved = 0

    def __enter__(self) -> None:
        if self.n is not None:
            self.saved = numba.get_num_threads()
            numba.set_num_threads(self.n)

    def __exit__(self, *exc) -> None:
        if self.n is not None:
            numba.set_num_threads(self.saved)


class BatchVecEnv(VecEnv):
    """`num_envs` games of `ruleset` as a stable-baselines3 VecEnv (module docstring)."""

    def __init__(
        self,
        ruleset: Ruleset,
        num_envs: int,
        opponent: str = "random",
        seed: int = 0,
        learner_seat: str | int = "alternate",
        num_players: int = 2,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        threads: int | None = 1,
    ):
        ruleset.check_players(num_players)
        if (
            isinstance(num_envs, bool)
            or not isinstance(num_envs, (int, np.integer))
            or num_envs < 1
        ):
            raise ValueError(f"num_envs must be a positive integer, got {num_envs!r}")
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or seed < 0:
            raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
        if illegal_action not in ILLEGAL_MODES:
            raise ValueError(
                f"illegal_action must be one of {ILLEGAL_MODES}, got {illegal_action!r}"
            )
        opponent_id = ruleset.agent_id(opponent)  # ValueError naming the known agents
        refuse_search_agents(ruleset, [opponent], "BatchVecEnv's opponents")
        if threads is not None and (isinstance(threads, bool) or int(threads) < 1):
            raise ValueError(f"threads must be >= 1 or None, got {threads!r}")
        # numba threads while stepping (None: numba's setting). One by default: a step is
        # a few short kernel calls, and on the shared 2-core machine every parallel launch
        # waited for a busy core: 64 envs, random actions, about 1,200 learner steps/s on
        # 2 threads against 160,000-250,000 on 1 (measured alternately in one process)
        self.threads = (
            None if threads is None else min(int(threads), numba.config.NUMBA_NUM_THREADS)
        )
        self.ruleset = ruleset
        self.opponent = opponent
        self.num_players = P = int(num_players)
        self.family_seed = int(seed)
        self.illegal_action = illegal_action
        self.illegal_reward = float(illegal_reward)
        self.learner_seat_rule = learner_seat
        B = int(num_envs)
        self.seats = learner_seats(B, P, learner_seat)
        self._rows = np.arange(B)
        # every seat is played by the opponent agent; the learner's seat is never asked
        self._seat_agents = np.full(P, opponent_id, dtype=np.int8)
        n = ruleset.n_actions
        obs_size = ruleset.observation_size(P)
        self.state = ruleset.allocate(B, P)
        self.masks = np.zeros((B, n), dtype=np.int8)
        self._obs = np.zeros((B, obs_size), dtype=np.float32)
        self._rewards = np.zeros((B, ruleset.max_players), dtype=np.float32)
        self._terminated = np.zeros(B, dtype=np.bool_)
        self._final_score = np.zeros((B, ruleset.max_players), dtype=np.int16)
        self._final_length = np.zeros(B, dtype=np.int32)
        self._actions = np.zeros(B, dtype=np.int64)
        # one block of contiguous slots per learner seat: views, so kernels write in place
        self._blocks = []
        for s in np.unique(self.seats):
            idx = np.flatnonzero(self.seats == s)
            lo, hi = int(idx[0]), int(idx[-1]) + 1
            if hi - lo != idx.size:  # cannot happen with learner_seats(); keep the views honest
                raise AssertionError("learner seats must form contiguous blocks")
            self._blocks.append((np.int64(s), slice(lo, hi)))
        self.next_game_index = B
        self.skipped_games = 0
        self.games_finished = 0
        self.opponent_decisions = 0  # decisions played inside the kernels so far
        self.render_mode = None
        observation_space = spaces.Box(low=0.0, high=np.inf, shape=(obs_size,), dtype=np.float32)
        super().__init__(B, observation_space, spaces.Discrete(n))

    def _numba_threads(self):
        return _NumbaThreads(self.threads)

    # --- kernels ----------------------------------------------------------------------------
    def _play_opponents(self) -> None:
        """opponents_batch on each seat block (views of the batch arrays)."""
        rs = self.ruleset
        tb = rs.tables_batch
        for seat, sl in self._blocks:
            rs.opponents_batch(
                self.state[sl],
                tb,
                self.masks[sl],
                seat,
                self._seat_agents,
                self._rewards[sl],
                self._terminated[sl],
                self._final_score[sl],
                self._final_length[sl],
            )

    def _games_started(self, slots: np.ndarray) -> None:
        """Hook: new games were dealt in the slots (bool[N]) and no one has moved yet
        (PoolVecEnv draws their opponents here)."""

    def _start_fresh_games(self, finished: np.ndarray) -> None:
        """Autoreset the finished slots and play the opponents up to the learner's first
        decision; fresh games already over by then are skipped (reset again)."""
        rs = self.ruleset
        todo = finished.copy()
        while todo.any():
            self.next_game_index = rs.autoreset_batch(
                self.state,
                rs.tables_batch,
                self.family_seed,
                todo,
                self.next_game_index,
                self.masks,
            )
            self._terminated[:] = False
            self._games_started(todo)
            before = int(self.state["decisions"][todo].sum()) if todo.any() else 0
            self._play_opponents()
            self.opponent_decisions += int(self.state["decisions"][todo].sum()) - before
            todo = self._terminated.copy()
            self.skipped_games += int(todo.sum())

    def _observe(self) -> np.ndarray:
        rs = self.ruleset
        rs.observe_batch(self.state, rs.tables_batch, self.seats, self._obs)
        return self._obs.copy()

    # --- VecEnv API ---------------------------------------------------------------------------
    def reset(self):
        rs = self.ruleset
        B = self.num_envs
        with self._numba_threads():
            rs.reset_batch(
                self.state,
                rs.tables_batch,
                self.family_seed,
                np.arange(B, dtype=np.int64),
                self.masks,
            )
            self.next_game_index = B
            self._terminated[:] = False
            self._games_started(np.ones(B, dtype=np.bool_))
            self._play_opponents()
            self.opponent_decisions = int(self.state["decisions"].sum())
            if self._terminated.any():
                finished = self._terminated.copy()
                self.skipped_games += int(finished.sum())
                self._start_fresh_games(finished)
            obs = self._observe()
        self.reset_infos = [self._slot_info(i) for i in range(B)]
        self._reset_seeds()
        self._reset_options()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,):
            actions = actions.reshape(-1)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise ValueError(
                f"actions must be integers of shape ({self.num_envs},), got {actions.dtype} "
                f"{np.asarray(actions).shape}"
            )
        self._actions[:] = actions

    def step_wait(self):
        rs = self.ruleset
        tb = rs.tables_batch
        B = self.num_envs
        S = self.state
        actions = self._actions
        with self._numba_threads():
            illegal = None
            bad = rs.check_actions(S, self.masks, actions)
            if bad >= 0:
                if self.illegal_action == "raise":
                    a = int(actions[bad])
                    raise ValueError(
                        f"{rs.name}: slot {bad}: {rs.describe_action(a)} is illegal in decision "
                        f"'{rs.decision_name(S, bad)}' ({int(self.masks[bad].sum())} legal "
                        f"actions); nothing was changed"
                    )
                # penalty: the slot's game ends; step it with a legal action (its state is
                # discarded by the autoreset) so one kernel call serves the whole batch
                ok = (actions >= 0) & (actions < rs.n_actions)
                legal = np.zeros(B, dtype=bool)
                legal[ok] = self.masks[self._rows[ok], actions[ok]] != 0
                illegal = ~legal
                actions = actions.copy()
                actions[illegal] = self.masks[illegal].argmax(axis=1)
            rs.step_batch(
                S, tb, actions, self.masks, self._rewards, self._terminated,
                self._final_score, self._final_length,
            )  # fmt: skip
            after_learner = S["decisions"].astype(np.int64)
            self._play_opponents()
            self.opponent_decisions += int((S["decisions"] - after_learner).sum())
            done = self._terminated.copy()
            if illegal is not None:
                done |= illegal
            rewards = np.zeros(B, dtype=np.float32)
            infos: list[dict[str, Any]] = [{} for _ in range(B)]
            if done.any():
                rewards[done] = self._rewards[self._rows[done], self.seats[done]]
                if illegal is not None:
                    rewards[illegal] = self.illegal_reward
                terminal = self._observe()
                P = self.num_players
                for i in np.flatnonzero(done):
                    info = infos[i]
                    info["terminal_observation"] = terminal[i]
                    info["game_index"] = int(S["game_index"][i])
                    info["learner_seat"] = int(self.seats[i])
                    if illegal is not None and illegal[i]:
                        a = int(self._actions[i])
                        info["illegal_action"] = (
                            f"{rs.describe_action(a) if 0 <= a < rs.n_actions else a} is illegal"
                        )
                    else:
                        info["winner"] = int(S["winner"][i])
                        info["score"] = [int(x) for x in self._final_score[i, :P]]
                        info["decisions"] = int(self._final_length[i])
                    info["is_success"] = bool(rewards[i] > 0)
                    info["TimeLimit.truncated"] = False
                self.games_finished += int(done.sum())
                self._start_fresh_games(done)
            obs = self._observe()
        return obs, rewards, done, infos

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's current decision in every slot (bool[N, n])."""
        return self.masks.astype(bool)

    def close(self) -> None:
        pass

    def _slot_info(self, i: int) -> dict[str, Any]:
        return {
            "game_index": int(self.state["game_index"][i]),
            "learner_seat": int(self.seats[i]),
            "opponent": self.opponent,
        }

    def get_attr(self, attr_name: str, indices=None) -> list[Any]:
        value = getattr(self, attr_name)  # AttributeError for unknown names (has_attr)
        return [value for _ in self._get_indices(indices)]

    def set_attr(self, attr_name: str, value: Any, indices=None) -> None:
        setattr(self, attr_name, value)

    def env_method(self, method_name: str, *method_args, indices=None, **method_kwargs) -> list:
        """Per-slot results; `action_masks` gives each slot's mask row (sb3-contrib's
        get_action_masks stacks them)."""
        if method_name == "action_masks":
            masks = self.action_masks()
            return [masks[i] for i in self._get_indices(indices)]
        result = getattr(self, method_name)(*method_args, **method_kwargs)
        return [result for _ in self._get_indices(indices)]

    def env_is_wrapped(self, wrapper_class, indices=None) -> list[bool]:
        return [False for _ in self._get_indices(indices)]

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Set the game family the next reset() plays (None: leave it)."""
        if seed is not None:
            if seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
            self.family_seed = int(seed)
        return [self.family_seed for _ in range(self.num_envs)]

    def get_images(self) -> Sequence[np.ndarray | None]:
        return [None for _ in range(self.num_envs)]

    def render_text(self, i: int = 0) -> str:
        """Text picture of slot i as its learner sees it."""
        return self.ruleset.render_text(self.state, int(self.seats[i]), i)


# --------------------------------------------------------------------------------------------
# Opponents played by Python policies (self-play against earlier checkpoints)
# --------------------------------------------------------------------------------------------
class BatchPolicy(Protocol):
    """A player acting on a batch of decisions: `act(obs float32[n, D], masks int8[n, A])`
    returns one legal action per row (int64[n]); `name` labels it in infos and logs."""

    name: str

    def act(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray: ...


class PoolVecEnv(BatchVecEnv):
    """BatchVecEnv whose opponents are drawn, game by game, from a pool of in-kernel agent
    names and `BatchPolicy` objects (e.g. frozen snapshots of the learner).

    - Each new game (reset, autoreset) draws one pool entry for all of its non-learner seats,
      with the env's own RNG (`pool_seed`, default derived from `seed`), in slot order: the
      same seed, pool changes and learner actions give the same games and opponents.
      `set_pool(entries)` replaces the pool between steps; games already running keep the
      opponent they drew.
    - When every slot has the same kernel agent the base class's in-kernel path runs as is.
      Otherwise, between learner steps: slots with a kernel opponent are gathered per
      (agent, learner seat) into one sub-batch copy, `opponents_batch` plays it and the
      rows are written back; then, while some game with a policy opponent is not over and
      waits on a seat other than its learner's, those games are gathered into one sub-batch
      copy, observed for their current seat (`observe_batch`), each policy acts on its rows
      in one call, the actions are checked (`check_actions`) and applied (`step_batch`) and
      the rows written back. Copies rather than kernels that skip rows: the contract's
      kernels step every game they are given, and a copy of the waiting games (about 1.7 kB
      each for TAC) costs far less than the policy's forward pass it feeds. Ended games report
      reward, terminal and final score/length exactly as in the kernel path.
    - Counters: `policy_decisions` (decisions taken by policies), `opponent_decisions` (all
      non-learner decisions), per finished game `infos[i]["opponent"]` (the entry's name).
    """

    def __init__(
        self,
        ruleset: Ruleset,
        num_envs: int,
        pool: Sequence[str | BatchPolicy],
        seed: int = 0,
        learner_seat: str | int = "alternate",
        num_players: int = 2,
        illegal_action: str = "raise",
        illegal_reward: float = -1.0,
        threads: int | None = 1,
        pool_seed: int | None = None,
    ):
        entries = self._check_pool(ruleset, pool)
        first_kernel = next((e for e in entries if isinstance(e, str)), None)
        super().__init__(
            ruleset,
            num_envs,
            opponent=first_kernel or next(iter(sorted(ruleset.agents))),
            seed=seed,
            learner_seat=learner_seat,
            num_players=num_players,
            illegal_action=illegal_action,
            illegal_reward=illegal_reward,
            threads=threads,
        )
        self.pool_rng = np.random.default_rng(
            self._pool_seed(seed) if pool_seed is None else pool_seed
        )
        # every entry ever drawn, by index; slots hold indices so that a pool change leaves
        # running games with their opponent (entries no longer used are dropped to None)
        self._entries: list[str | BatchPolicy | None] = []
        self._entry_names: list[str] = []
        self._entry_kernel_id: list[int] = []  # agent id, or -1 for a policy
        self._pool: list[int] = []
        self.slot_entry = np.full(self.num_envs, -1, dtype=np.int64)
        self._finished_entry = np.full(self.num_envs, -1, dtype=np.int64)
        self.policy_decisions = 0
        self.set_pool(entries)

    @staticmethod
    def _pool_seed(seed: int) -> int:
        """The draws' seed for a game family seed (not seed + 1: no overlap between runs)."""
        return int(np.random.SeedSequence([int(seed), 7]).generate_state(1)[0])

    def seed(self, seed: int | None = None) -> Sequence[int | None]:
        """Set the game family and the opponent draws of the next reset() (None: leave)."""
        result = super().seed(seed)
        if seed is not None:
            self.pool_rng = np.random.default_rng(self._pool_seed(seed))
        return result

    @staticmethod
    def _check_pool(ruleset: Ruleset, pool: Sequence[str | BatchPolicy]) -> list:
        entries = list(pool) if not isinstance(pool, str) else [pool]
        if not entries:
            raise ValueError("the opponent pool must hold at least one entry, got none")
        for e in entries:
            if isinstance(e, str):
                ruleset.agent_id(e)  # ValueError naming the known agents
            elif not callable(getattr(e, "act", None)):
                raise ValueError(
                    f"pool entry {e!r} is neither an agent name nor a policy with act()"
                )
        return entries

    @property
    def pool_names(self) -> list[str]:
        return [self._entry_names[i] for i in self._pool]

    def set_pool(self, pool: Sequence[str | BatchPolicy]) -> None:
        """Opponents for the games that start from now on (each drawn uniformly)."""
        entries = self._check_pool(self.ruleset, pool)
        indices = []
        for e in entries:
            found = next(
                (
                    i
                    for i, x in enumerate(self._entries)
                    if x is e or (isinstance(e, str) and x == e)
                ),
                None,
            )
            if found is None:
                found = len(self._entries)
                self._entries.append(e)
                self._entry_names.append(e if isinstance(e, str) else str(e.name))
                self._entry_kernel_id.append(self.ruleset.agent_id(e) if isinstance(e, str) else -1)
            indices.append(found)
        self._pool = indices
        used = set(indices) | set(self.slot_entry.tolist())
        for i in range(len(self._entries)):
            if i not in used:
                self._entries[i] = None  # let a dropped snapshot's network be freed

    def _games_started(self, slots: np.ndarray) -> None:
        idx = np.flatnonzero(slots)
        if idx.size:
            draw = self.pool_rng.integers(len(self._pool), size=idx.size)
            self.slot_entry[idx] = np.asarray(self._pool, dtype=np.int64)[draw]

    def _play_opponents(self) -> None:
        kernel_ids = np.asarray(self._entry_kernel_id, dtype=np.int64)[self.slot_entry]
        if (kernel_ids >= 0).all() and (kernel_ids == kernel_ids[0]).all():
            self._seat_agents[:] = kernel_ids[0]
            super()._play_opponents()  # every slot the same kernel agent: the fast path
            return
        self._play_kernel_subsets(kernel_ids)
        self._play_policies(kernel_ids < 0)

    def _waiting(self) -> np.ndarray:
        """Games not over whose current seat is not the learner's."""
        return ~self._terminated & (self.state["current"] != self.seats)

    def _write_back(self, idx, sub, masks, rewards, terminated, score, length) -> None:
        self.state[idx] = sub
        self.masks[idx] = masks
        ended = idx[terminated]
        self._terminated[ended] = True
        self._rewards[ended] = rewards[terminated]
        self._final_score[ended] = score[terminated]
        self._final_length[ended] = length[terminated]

    def _play_kernel_subsets(self, kernel_ids: np.ndarray) -> None:
        rs = self.ruleset
        waiting = self._waiting()
        for agent in np.unique(kernel_ids[kernel_ids >= 0]):
            for seat in np.unique(self.seats):
                idx = np.flatnonzero(waiting & (kernel_ids == agent) & (self.seats == seat))
                if idx.size == 0:
                    continue
                sub = self.state[idx]
                masks = self.masks[idx]
                rewards = np.zeros((idx.size, rs.max_players), dtype=np.float32)
                terminated = np.zeros(idx.size, dtype=np.bool_)
                score = self._final_score[idx]
                length = self._final_length[idx]
                seat_agents = np.full(self.num_players, agent, dtype=np.int8)
                rs.opponents_batch(
                    sub, rs.tables_batch, masks, np.int64(seat), seat_agents, rewards,
                    terminated, score, length,
                )  # fmt: skip
                self._write_back(idx, sub, masks, rewards, terminated, score, length)

    def _play_policies(self, policy_slots: np.ndarray) -> None:
        rs = self.ruleset
        tb = rs.tables_batch
        while True:
            idx = np.flatnonzero(policy_slots & self._waiting())
            if idx.size == 0:
                return
            sub = self.state[idx]
            masks = self.masks[idx]
            players = sub["current"].astype(np.int8)
            obs = np.zeros((idx.size, self._obs.shape[1]), dtype=np.float32)
            rs.observe_batch(sub, tb, players, obs)
            entry = self.slot_entry[idx]
            actions = np.zeros(idx.size, dtype=np.int64)
            for e in np.unique(entry):
                rows = entry == e
                actions[rows] = np.asarray(self._entries[e].act(obs[rows], masks[rows])).reshape(-1)
            bad = rs.check_actions(sub, masks, actions)
            if bad >= 0:
                raise RuntimeError(
                    f"opponent {self._entry_names[entry[bad]]} chose "
                    f"{rs.describe_action(int(actions[bad]))}, illegal in decision "
                    f"'{rs.decision_name(sub, bad)}' (slot {idx[bad]})"
                )
            rewards = np.zeros((idx.size, rs.max_players), dtype=np.float32)
            terminated = np.zeros(idx.size, dtype=np.bool_)
            score = self._final_score[idx]
            length = self._final_length[idx]
            rs.step_batch(sub, tb, actions, masks, rewards, terminated, score, length)
            self._write_back(idx, sub, masks, rewards, terminated, score, length)
            self.policy_decisions += int(idx.size)

    def step_wait(self):
        self._finished_entry[:] = self.slot_entry  # the opponents of the games now running
        obs, rewards, done, infos = super().step_wait()
        for i in np.flatnonzero(done):
            infos[i]["opponent"] = self._entry_names[self._finished_entry[i]]
        return obs, rewards, done, infos

    def _slot_info(self, i: int) -> dict[str, Any]:
        info = super()._slot_info(i)
        if self.slot_entry[i] >= 0:
            info["opponent"] = self._entry_names[self.slot_entry[i]]
        return info
