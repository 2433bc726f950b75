"""The ruleset contract: everything the generic tools need from one ruleset.

A ruleset (envs/<name>/ruleset.py) builds one :class:`Ruleset` from its tables and kernels
and registers it in envs/registry.py. Everything that is not a rule (the PettingZoo AEC
env, BatchEnv, self-play records, balance, training, benchmarks, play, replay, the rules-
doc check, the invariant fuzzer and the shared api/seed/hidden-information/determinism
tests) takes a Ruleset and never imports a ruleset's package.

What a ruleset provides, in short:

- identity: ``name`` (registry key), ``env_name`` (versioned, e.g. ``tac_v1``), title, seed
  file, rules doc;
- players and actions: ``min_players``..``max_players``, ``n_actions`` (one flat
  ``Discrete``), ``describe_action(a)``, ``decision_name(S, b)``;
- observation: ``observation_size(P)``; kernels ``observe_batch`` / ``aec_observe``;
- state: ``state_dtype`` and ``allocate(B, P)``; the batch kernels ``reset_batch``,
  ``check_actions``, ``step_batch``, ``autoreset_batch`` and the one-game ``aec_step``
  (signatures below, the same for every ruleset);
- agents inside kernels: ``agents`` (name -> id; ``search_agents`` names the slow searching
  ones, which tools that evaluate "against every agent" leave out), ``act_one`` (one game, for the AEC env,
  play and replay), ``act_batch`` (every game of a BatchEnv), ``opponents_batch`` (play
  every seat but the learner's, for batched training) and ``play_chunk`` (whole games of
  self-play, one result row per game);
- records: :class:`RecordSpec`, what each seat was dealt/bought/deployed with each item's
  listed point cost, the inputs of balance estimation; optionally ``write_costs`` (a copy of
  the rule tables with other costs, for re-costing) and ``cost_bounds``;
- checks: ``check_state(S, b)`` (names of broken invariants), ``fuzz(P, n, seed)``
  (random games checked at every decision) and ``resample_hidden(S, me, rng)`` (another
  state the player ``me`` cannot tell apart: the hidden-information test) and
  ``legal_mask(S, b, out)`` (the mask of game b computed from the state alone);
- pictures: ``render_text(S, me, b)`` and optionally ``render_image(S, me, b, path)``.

Kernel signatures (S: state array of ``state_dtype``, tba: the tables as a 1-element
record array, masks: int8[B, n_actions]):

    reset_batch(S, tba, seed, game_indices, masks)
    check_actions(S, masks, actions) -> first illegal game or -1
    step_batch(S, tba, actions, masks, rewards, terminated, final_score, final_length)
    autoreset_batch(S, tba, seed, terminated, next_index, masks) -> next index
    observe_batch(S, tba, players, out)
    aec_step(S, tba, action, mask_row) -> AEC_OK / AEC_ILLEGAL / AEC_GAME_OVER
    aec_observe(S, tba, seat, out)
    act_one(S, tba, b, agent_id) -> action
    act_batch(S, tba, masks, seat_agents, out)
    opponents_batch(S, tba, masks, learner, seat_agents, rewards, terminated,
                    final_score, final_length) -> None
    play_chunk(S, tba, seed, game_indices, agent_ids) -> ChunkResults

Every state record carries the fields the generic code reads: ``current`` (seat to act),
``stage``, ``game_index``, ``num_players``, ``decisions``, ``rewards[P]``, ``winner`` and
the ruleset's score field (``RecordSpec.score_field``).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

PLAYABLE = "playable"
# An engine under construction: it plays whole games through the whole contract, so every
# tool and the shared platform suite take it, but clauses of its rules doc are still
# "to implement" (the tools say so when they use it; envs/registry.py).
IN_PROGRESS = "in progress"
DATA_ONLY = "data only"


@dataclass(frozen=True)
class RecordSpec:
    """What a self-play record says about each seat's force, for balance estimation.

    items: the item kinds counted per seat (unit types, cards, ...), in table order;
    costs: each item's listed point cost; groups: an integer per item, items of one group
    are dealt together (a seat always gets the same number of a group, so only differences
    inside a group can be estimated), group_names: their names.
    """

    item_label: str  # "unit type", "card", ...
    items: tuple[str, ...]
    costs: np.ndarray  # float64[U]
    groups: np.ndarray  # int64[U]
    group_names: tuple[str, ...]
    cost_label: str  # "victory points", "points", ...
    score_field: str  # the state field holding each seat's final score
    score_label: str  # "victory points"
    force_verb: str  # "dealt", "bought", "deployed"
    rounds_cap: int  # rounds in a full game (records clip the round counter to it)
    # state fields a game's record is read from when it is played outside play_chunk (the
    # arena's Python loop, agents/arena.py): each seat's force, int[P, len(items)], and the
    # round counter
    force_field: str  # TAC: "dealt"
    rounds_field: str  # TAC: "round"
    # the balance report's words: the item column, the group column and the short cost unit
    # ("Listed VP", "Implied VP"), and optionally one note per item shown in its own column
    # (TACTICA: how many copies an army holds)
    headers: tuple[str, str, str] = ("Unit", "Category", "VP")
    item_notes: tuple[str, ...] = ()
    notes_header: str = ""


@dataclass
class ChunkResults:
    """One row per game of a self-play chunk (what play_chunk returns)."""

    seat_agent: np.ndarray  # int8[n, MAX_P] position in the run's agent list of seat s, -1
    winner: np.ndarray  # int8[n] winning seat, -1 draw
    score: np.ndarray  # int16[n, MAX_P] final score of each seat
    rewards: np.ndarray  # float32[n, MAX_P]
    length: np.ndarray  # int32[n] decisions in the game
    rounds: np.ndarray  # int8[n] rounds played
    force: np.ndarray  # int8[n, MAX_P, U] items of each kind in each seat's force

    @classmethod
    def empty(cls, n: int, max_players: int, n_items: int) -> ChunkResults:
        return cls(
            seat_agent=np.full((n, max_players), -1, dtype=np.int8),
            winner=np.zeros(n, dtype=np.int8),
            score=np.zeros((n, max_players), dtype=np.int16),
            rewards=np.zeros((n, max_players), dtype=np.float32),
            length=np.zeros(n, dtype=np.int32),
            rounds=np.zeros(n, dtype=np.int8),
            force=np.zeros((n, max_players, n_items), dtype=np.int8),
        )


def resolve_options(
    name: str, choices: Mapping[str, tuple[str, ...]], options: Mapping[str, str] | None
) -> dict[str, str]:
    """Every option of a ruleset with its value: the given ones (checked) and the defaults
    (each option's first choice) for the rest. ValueError naming a bad key or value."""
    options = dict(options or {})
    for key, value in options.items():
        if key not in choices:
            known = ", ".join(choices) if choices else "none"
            raise ValueError(f"{name}: unknown option {key!r} (options: {known})")
        if value not in choices[key]:
            raise ValueError(
                f"{name}: option {key} must be one of {', '.join(choices[key])}, got {value!r}"
            )
    return {key: options.get(key, values[0]) for key, values in choices.items()}


def parse_options(items: list[str] | tuple[str, ...] | None) -> dict[str, str]:
    """KEY=VALUE strings (the CLI's repeated --option) as a dict; ValueError on a bad one."""
    out: dict[str, str] = {}
    for item in items or ():
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(f"an option is KEY=VALUE, got {item!r}")
        out[key.strip()] = value.strip()
    return out


@dataclass(frozen=True)
class Ruleset:
    """One playable ruleset, as the generic tools see it (see the module docstring)."""

    name: str
    env_name: str
    title: str
    seed_file: str
    rules_doc: str  # path relative to the repository root
    min_players: int
    max_players: int
    n_actions: int
    describe_action: Callable[[int], str]
    decision_name: Callable[[np.ndarray, int], str]
    observation_size: Callable[[int], int]
    state_dtype: np.dtype
    allocate: Callable[[int, int], np.ndarray]
    tables: Any  # the ruleset's Tables object (Python side)
    tables_batch: np.ndarray  # the kernels' tables, a 1-element record array
    reset_batch: Callable
    check_actions: Callable
    step_batch: Callable
    autoreset_batch: Callable
    observe_batch: Callable
    aec_step: Callable
    aec_observe: Callable
    # legal_mask(S, b, out): out (int8[n_actions]) := the legal actions of game b computed
    # from S alone (all zero once the game is over); lets the hidden-information test check
    # that a resampled state gives its observer the same mask
    legal_mask: Callable[[np.ndarray, int, np.ndarray], None]
    agents: Mapping[str, int]
    act_one: Callable
    act_batch: Callable
    opponents_batch: Callable
    play_chunk: Callable
    record: RecordSpec
    check_state: Callable[[np.ndarray, int], list[str]]
    fuzz: Callable[..., Any]
    resample_hidden: Callable[[np.ndarray, int, np.random.Generator], np.ndarray]
    render_text: Callable[[np.ndarray, int, int], str]
    render_image: Callable[..., Any] | None = None
    # agents that search (ms per decision, not us): evaluations against "every agent"
    # (agents.training.evaluate_both) use the others
    search_agents: frozenset[str] = frozenset()
    config_dir: str | None = None  # None: the embedded configs/<name>
    # write_costs(src_dir, dst_dir, costs) -> dst_dir: a copy of the rule-table folder src_dir
    # (None: the embedded one) written to the new folder dst_dir with each item's listed cost
    # (RecordSpec.costs) replaced by the integer costs[item]; it loads through the ruleset's
    # validating loader (`ruleset(dst_dir)`). None: the ruleset cannot be re-costed yet.
    write_costs: Callable[[str | Path | None, str | Path, Mapping[str, int]], Path] | None = None
    # the integer costs write_costs accepts, lowest and highest (re-costing stays inside)
    cost_bounds: tuple[int, int] = (0, 2**15 - 1)
    extra: Mapping[str, Any] = field(default_factory=dict)
    # the env's options (e.g. TACTICA's game=basic|advanced, episode=war|battle): every
    # option's choices, the first the default, and the ones this Ruleset was built with
    # (resolve_options); each set of options is its own Ruleset with its own fingerprint
    option_choices: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    options: Mapping[str, str] = field(default_factory=dict)
    # random games the shared invariant test (tests/platform) fuzzes at the fewest players:
    # rulesets with long games (TACTICA's wars, ~1,200 decisions) play fewer there, and
    # record their full fuzz run with benchmarks/fuzz.py
    fuzz_games: int = 100_000
    # the least share of resample_hidden(S, me) states that another player can tell apart
    # from S (the shared hidden-information test's control that the resampler moves what is
    # private to `me`): lower for a ruleset whose hidden things are mostly hidden from every
    # player (Tactics David: the Item Deck's order; only the reserve is private, R38)
    private_share: float = 0.3
    # step_info(S, b, seat) -> dict: what the AEC env adds to a seat's `infos` after every
    # step (TACTICA: the battle results and per-battle rewards of the war); None: nothing
    step_info: Callable[[np.ndarray, int, int], dict] | None = None

    # --- checks used by every entry point -------------------------------------------------

    def check_players(self, num_players: int) -> None:
        if not isinstance(num_players, (int, np.integer)) or not (
            self.min_players <= num_players <= self.max_players
        ):
            raise ValueError(
                f"{self.name}: num_players must be an integer {self.min_players}..{self.max_players}, "
                f"got {num_players!r}"
            )

    @property
    def baseline_agents(self) -> list[str]:
        """The fast agents (every agent but the searching ones), sorted."""
        return sorted(a for a in self.agents if a not in self.search_agents)

    def agent_id(self, name: str) -> int:
        if name not in self.agents:
            raise ValueError(
                f"{self.name}: unknown agent {name!r}; known: {', '.join(sorted(self.agents))}"
            )
        return self.agents[name]

    def fingerprint(self) -> str:
        """Hash of the rule tables and the state layout: a resume or a replay under other
        rules is refused."""
        h = hashlib.sha256(self.env_name.encode())
        h.update(np.ascontiguousarray(self.tables_batch).view(np.uint8).tobytes())
        h.update(str(self.state_dtype.descr).encode())
        return h.hexdigest()[:16]

    # --- save / load of states (replays and bug reports) ----------------------------------

    def save_states(self, path: str | Path, S: np.ndarray) -> Path:
        """Save a batch of states with what is needed to refuse loading it elsewhere."""
        if S.dtype != self.state_dtype:
            raise ValueError(f"{self.name}: not a {self.env_name} state (dtype differs)")
        path = Path(path)
        np.savez(
            path,
            state=S,
            env_name=np.array(self.env_name),
            fingerprint=np.array(self.fingerprint()),
        )
        return path if path.suffix == ".npz" else path.with_suffix(path.suffix + ".npz")

    def load_states(self, path: str | Path) -> np.ndarray:
        with np.load(Path(path), allow_pickle=False) as z:
            if "state" not in z or "env_name" not in z:
                raise ValueError(f"{path}: not a tacsim state file")
            name = str(z["env_name"])
            if name != self.env_name:
                raise ValueError(f"{path}: holds {name} states, not {self.env_name}")
            if str(z["fingerprint"]) != self.fingerprint():
                raise ValueError(f"{path}: saved under other rule tables than these")
            S = z["state"]
        if S.dtype != self.state_dtype:
            raise ValueError(f"{path}: state layout differs from {self.env_name}'s")
        return S.copy()
