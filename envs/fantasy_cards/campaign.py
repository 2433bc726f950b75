"""Fantasy Cards PART VII: Campaigns, a series of linked Standard Games (FC-7.1..FC-7.9).

The campaign rules live here once, as functions over plain Python values; two front ends use
them (reading R37):

- the env option: ``fantasy_cards_v0.env(campaign=...)`` (envs/fantasy_cards/campaign_env.py),
  whose ONE episode is a whole two-player campaign: the force choice, every game and every
  spending of Campaign Points are decisions of the env's one flat action space;
- :func:`run_campaign`, the N-player round robin (an even number of players, paired at
  random each round) over :class:`CampaignPlayer` objects.

Every game of a campaign is one ordinary Standard Game on the Tactical Assault core's
kernels (:class:`GameRun`) on a tables record built for that game from the drawn battlefield
and the two players' campaign forces (:func:`game_record`); what links the games (forces,
Campaign Points, Promotion Awards) lives here, between games. Nothing of a campaign is hidden
or random inside a game, so the per-game kernels, observations and golden games stay exactly
the Standard Game's.

- Step 1 / Step 5: the battlefields are battlefield files (configs/fantasy_cards layout);
  each game draws one at random (FC-7.1, FC-7.5), or an alternate campaign plays a fixed
  sequence (FC-7.9) (:class:`CampaignSpec`, :func:`draw_round`).
- Step 2: the scenario is the Standard Game (R38: the only scenario the data holds).
- Step 3 / Step 5: every round pairs the players at random; each plays one game per round, so
  all play the same number of games (FC-7.3). Seats (who is seat 0) are drawn too. These
  draws come from the campaign's own generator (:func:`campaign_draws`), apart from the
  players' choices, so the env and the runner draw the same campaign from one seed.
- Step 4: each player chooses a force once, within the Standard Game's points; every game
  starts with that force at full strength (losses replaced, FC-7.4): units without a cell,
  deployed by the players (FC "Deploy Forces").
- Campaign Points 9 / 6 / 3 (FC-7.6, campaign.yaml) are spent at once after each game
  (FC-7.7): 3 per Promotion Award, 1 per unit point swapped; the force's total stays what it
  was (R39). Points left unspent lapse (R39). :class:`SpendDraft` says which single step of a
  spending is legal (the env's actions); :func:`apply_spend` checks and applies the whole.
- The most Promotion Awards after all games wins; equal most share the win (FC-7.8, R40).

Choosing the force and spending the points are the players' decisions: in the runner a
:class:`CampaignPlayer` makes them (and plays its games); :class:`RandomPlayer` is a uniformly
random one for tests and tools.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from envs.fantasy_cards import tables as fct
from envs.fantasy_cards import tabletop as tt


@dataclass(frozen=True)
class Spend:
    """How a player spends the Campaign Points of one game (FC-7.7): `promotions` Promotion
    Awards, and a swap of the units `swap_out` (type names) for `swap_in`."""

    promotions: int = 0
    swap_out: tuple[str, ...] = ()
    swap_in: tuple[str, ...] = ()


class CampaignPlayer(ABC):
    """The decisions a campaign asks of one player: a subclass gives all three (an
    incomplete one cannot be made)."""

    @abstractmethod
    def choose_force(self, allowed: int, fc: fct.Tables, rng: np.random.Generator) -> list[str]:
        """The unit types of the campaign's force, worth `allowed` points (FC-7.4)."""

    @abstractmethod
    def spend(
        self, points: int, force: list[str], fc: fct.Tables, rng: np.random.Generator
    ) -> Spend:
        """How this game's Campaign Points are spent (FC-7.7)."""

    @abstractmethod
    def act(self, S: np.ndarray, tb, legal: np.ndarray, rng: np.random.Generator) -> int:
        """One decision of a game (an action id among `legal`)."""


def _choosable(fc: fct.Tables) -> list[str]:
    """Unit types a Standard Game force may hold (all of Table 3, as the game's own choice)."""
    return list(fc.unit_type_names)


class RandomPlayer(CampaignPlayer):
    """Uniformly random decisions: a force of random affordable types until none fits; each
    game's points on as many Promotion Awards as they buy, or (with probability `swap_p`) a
    random swap of one unit first; random legal actions in games."""

    def __init__(self, swap_p: float = 0.0):
        self.swap_p = swap_p

    def choose_force(self, allowed, fc, rng):
        pts = {n: int(fc.unit_points[i]) for i, n in enumerate(fc.unit_type_names)}
        force: list[str] = []
        left = allowed
        while True:
            fit = [n for n in _choosable(fc) if 0 < pts[n] <= left]
            if not fit:
                return force
            n = fit[rng.integers(len(fit))]
            force.append(n)
            left -= pts[n]

    def spend(self, points, force, fc, rng):
        pts = {n: int(fc.unit_points[i]) for i, n in enumerate(fc.unit_type_names)}
        if force and rng.random() < self.swap_p:
            out = force[rng.integers(len(force))]
            same = [n for n in _choosable(fc) if pts[n] == pts[out] and n != out]
            if same and pts[out] <= points:
                left = points - pts[out]
                return Spend(left // 3, (out,), (same[rng.integers(len(same))],))
        return Spend(promotions=points // 3)

    def act(self, S, tb, legal, rng):
        return int(legal[rng.integers(len(legal))])


@dataclass
class CampaignResult:
    """What a campaign produced: per player its force at the end, awards, points earned, and
    the games (round, battlefield name, player at seat 0, at seat 1, winning player or -1)."""

    forces: list[list[str]]
    awards: list[int]
    earned: list[int]
    games: list[tuple[int, str, int, int, int]] = field(default_factory=list)
    winners: list[int] = field(default_factory=list)


def campaign_points(winner_seat: int, fc: fct.Tables) -> tuple[int, int]:
    """Campaign Points of seat 0 and seat 1 after a game (FC-7.6): 9 / 6, 3 each on a draw."""
    c = fc.campaign
    if winner_seat < 0:
        return c.draw_points, c.draw_points
    if winner_seat == 0:
        return c.winner_points, c.loser_points
    return c.loser_points, c.winner_points


def apply_spend(
    points: int, force: list[str], s: Spend, fc: fct.Tables, allowed: int
) -> tuple[int, list[str]]:
    """Check and apply one player's Spend (FC-7.7, R39): 3 Campaign Points per Promotion
    Award, 1 per unit point swapped out; the units swapped in are worth exactly as much, so the
    force's total still matches. Returns (awards gained, new force); ValueError naming the
    bad value otherwise."""
    c = fc.campaign
    idx = fc.unit_type_index
    for n in (*s.swap_out, *s.swap_in):
        if n not in idx:
            raise ValueError(f"campaign swap: unknown unit type {n!r} (Fantasy Cards Table 3)")
    if s.promotions < 0:
        raise ValueError(f"campaign spend: promotions {s.promotions} is negative")
    pts = {n: int(fc.unit_points[i]) for n, i in idx.items()}
    out_pts = sum(pts[n] for n in s.swap_out)
    in_pts = sum(pts[n] for n in s.swap_in)
    if out_pts != in_pts:
        raise ValueError(
            f"campaign swap: {list(s.swap_in)} are worth {in_pts} unit points, "
            f"{list(s.swap_out)} {out_pts}: the force's total must still match"
        )
    cost = c.promotion_award_cost * s.promotions + c.swap_cost_per_unit_point * out_pts
    if cost > points:
        raise ValueError(f"campaign spend costs {cost} Campaign Points, only {points} earned")
    new = list(force)
    for n in s.swap_out:
        if n not in new:
            raise ValueError(f"campaign swap: the force holds no {n!r} to swap out")
        new.remove(n)
    new.extend(s.swap_in)
    if sum(pts[n] for n in new) > allowed:
        raise ValueError(f"campaign force worth more than the {allowed} points allowed")
    return s.promotions, new


def game_record(bf_path: Path, forces: Sequence[Sequence[str]], fc: fct.Tables) -> np.ndarray:
    """The tables record of one campaign game: battlefield `bf_path` with these forces at full
    strength, every unit deployed by its player (FC-7.4)."""
    bf = tt.load_battlefield(bf_path)
    fixed = [tt.TabletopForce(units=[tt.PlacedUnit(type=n) for n in f]) for f in forces]
    return tt.compile_battlefield(
        bf.model_copy(update={"forces": fixed}), bf_path, fc, tt._terrain()
    )


# a swap may not take a force beyond this many units (I17): the core holds 64 unit slots for
# both sides together, so each campaign force keeps to half of them after a swap
MAX_FORCE_UNITS = 32
# the seed of game g of a campaign of seed s (the games' decks, draws and deployment rolls)
GAME_SEED_STRIDE = 100003


def game_seed(seed: int, game: int) -> int:
    """The core's seed of the campaign's game `game` (0-based): one per game, from the
    campaign's seed alone."""
    return seed * GAME_SEED_STRIDE + game


def campaign_draws(seed: int) -> np.random.Generator:
    """The campaign's own generator (battlefields, pairings, seats), apart from the players'
    choices: the env and :func:`run_campaign` draw the same campaign from one seed."""
    return np.random.default_rng(seed)


@dataclass(frozen=True)
class CampaignSpec:
    """What a campaign plays: `games` rounds on battlefields drawn from `battlefields`
    (FC-7.1, FC-7.5), or an alternate campaign's fixed `sequence`, one round each (FC-7.9)."""

    games: int
    battlefields: tuple[Path, ...] = ()
    sequence: tuple[Path, ...] | None = None

    @classmethod
    def make(
        cls,
        rounds: int | None = None,
        battlefields: Sequence[str | Path] | None = None,
        sequence: Sequence[str | Path] | None = None,
        default: Path | None = None,
    ) -> CampaignSpec:
        """The spec, checked (ValueError naming the bad value); `default` is the battlefield
        drawn when none is given (the Standard battlefield)."""
        if sequence is not None:
            if battlefields is not None or rounds is not None:
                raise ValueError("give either a fixed `sequence` or `battlefields` and `rounds`")
            plan = tuple(Path(p) for p in sequence)
            if not plan:
                raise ValueError("campaign sequence is empty")
            spec = cls(games=len(plan), sequence=plan)
        else:
            if (
                rounds is None
                or isinstance(rounds, bool)
                or not isinstance(rounds, (int, np.integer))
                or rounds < 1
            ):
                raise ValueError(f"campaign rounds must be 1 or more, got {rounds}")
            pool = tuple(Path(p) for p in (battlefields or [default or tt.STANDARD_PATH]))
            spec = cls(games=int(rounds), battlefields=pool)
        for p in spec.sequence or spec.battlefields:
            if not p.is_file():
                raise ValueError(f"campaign battlefield {p} is not a file")
        return spec

    @classmethod
    def from_option(cls, value, default: Path | None = None) -> CampaignSpec:
        """The env option `campaign=`: a number of games (int, or its digits as a string, the
        form `options={"campaign": "3"}` takes), a mapping with the keys of :meth:`make`
        (`rounds` or `games`, `battlefields`, `sequence`), or a CampaignSpec."""
        if isinstance(value, CampaignSpec):  # checked again, as if made here
            if value.sequence is not None:
                return cls.make(sequence=value.sequence)
            return cls.make(value.games, value.battlefields or None, default=default)
        if isinstance(value, str):
            if not value.strip().isdigit():
                raise ValueError(f"campaign must be a number of games, got {value!r}")
            return cls.make(rounds=int(value), default=default)
        if isinstance(value, Mapping):
            keys = set(value) - {"rounds", "games", "battlefields", "sequence"}
            if keys:
                raise ValueError(f"campaign: unknown key {sorted(keys)[0]!r}")
            return cls.make(
                rounds=value.get("rounds", value.get("games")),
                battlefields=value.get("battlefields"),
                sequence=value.get("sequence"),
                default=default,
            )
        return cls.make(rounds=value, default=default)

    @property
    def first_battlefield(self) -> Path:
        """The battlefield the forces are chosen on (R46)."""
        return (self.sequence or self.battlefields)[0]


def draw_round(draws: np.random.Generator, spec: CampaignSpec, r: int, n: int):
    """Round r's battlefield and the order of the `n` players (pairs 0-1, 2-3, ..., the first
    of a pair at seat 0), drawn in this order from the campaign's generator (FC-7.5)."""
    if spec.sequence is not None:
        bf = spec.sequence[r]
    else:
        bf = spec.battlefields[int(draws.integers(len(spec.battlefields)))]
    return bf, [int(x) for x in draws.permutation(n)]


def choice_record(bf_path: Path, allowed: int, fc: fct.Tables) -> np.ndarray:
    """A tables record on which both sides choose a force of `allowed` unit points: the
    Standard Game's own force choice (STAGE_CHOOSE_FORCE), used to choose campaign forces."""
    bf = tt.load_battlefield(bf_path)
    pts = [tt.TabletopForce(points=allowed) for _ in range(2)]
    return tt.compile_battlefield(bf.model_copy(update={"forces": pts}), bf_path, fc, tt._terrain())


class GameRun:
    """One game of the Tactical Assault core on the tables record `rec`, through the same
    one-game kernels the AEC env uses (reset_batch, aec_step, aec_observe)."""

    def __init__(self, rec: np.ndarray, seed: int):
        from envs.core.batch import threads_for
        from envs.tactical_assault import kernels
        from envs.tactical_assault.actions import N_ACTIONS
        from envs.tactical_assault.state import allocate

        self._k = kernels
        # as envs/tactical_assault/ruleset.build: a plain ndarray with np.record's dtype
        self.tba = np.array(rec, copy=True).view(np.recarray).view(np.ndarray)
        self.S = allocate(1)
        self.mask = np.zeros((1, N_ACTIONS), dtype=np.int8)
        with threads_for(1):
            kernels.reset_batch(self.S, self.tba, seed, np.zeros(1, dtype=np.int64), self.mask)

    @property
    def tb(self):
        return self.tba.view(np.recarray)[0]

    @property
    def stage(self) -> int:
        return int(self.S["stage"][0])

    @property
    def over(self) -> bool:
        return int(self.mask[0].sum()) == 0

    @property
    def current(self) -> int:
        """The seat asked now."""
        return int(self.S["current"][0])

    @property
    def winner(self) -> int:
        """The winning seat, -1 for a draw (once over)."""
        return int(self.S["winner"][0])

    def legal(self) -> np.ndarray:
        return np.flatnonzero(self.mask[0])

    def step(self, a: int) -> None:
        """Apply the current seat's action a; ValueError (nothing changed) if it is illegal."""
        from envs.tactical_assault.actions import describe

        if self._k.aec_step(self.S, self.tba, np.int64(a), self.mask[0]) == 1:
            raise ValueError(f"campaign game: illegal action {describe(int(a))}")

    def observe(self, seat: int, out: np.ndarray) -> None:
        self._k.aec_observe(self.S, self.tba, np.int64(seat), out)

    def force(self, seat: int, fc: fct.Tables) -> list[str]:
        """The unit types of `seat`'s units, in slot order (its chosen force)."""
        side = self.S["unit_side"][0]
        types = self.S["unit_type"][0]
        return [fc.unit_type_names[int(types[u])] for u in range(side.shape[0]) if side[u] == seat]


def play_game(
    rec: np.ndarray,
    seats: Sequence[CampaignPlayer],
    seed: int,
    rng: np.random.Generator,
    max_decisions: int = 20000,
) -> int:
    """Play one game of the core on `rec`, each decision by the seat's player; the winning seat
    or -1 (a draw)."""
    game = GameRun(rec, seed)
    for _ in range(max_decisions):
        if game.over:
            return game.winner
        game.step(seats[game.current].act(game.S, game.tb, game.legal(), rng))
    raise RuntimeError(f"campaign game: not over after {max_decisions} decisions")


def _min_units(fc: fct.Tables, top: int) -> list[float]:
    """The fewest Table 3 units worth exactly v unit points, for v = 0..top (inf: none)."""
    vals = sorted({int(x) for x in fc.unit_points if int(x) > 0})
    best = [0.0] + [float("inf")] * top
    for v in range(1, top + 1):
        best[v] = min((best[v - p] + 1 for p in vals if p <= v), default=float("inf"))
    return best


@dataclass
class SpendDraft:
    """One player's spending of one game's Campaign Points (FC-7.7), built a step at a time
    (the env's actions): which step is legal now, and the whole as a :class:`Spend` for
    :func:`apply_spend`, which checks and applies it (the one implementation of R39).

    A step is offered only if the spending can still be finished: a unit is swapped out only
    if the points left pay for it (1 per unit point); a type is swapped in only if its points
    fit in the unit points swapped out and not yet replaced, and what is left can still be
    matched by Table 3 units without the force passing MAX_FORCE_UNITS (I17); "done" only once
    everything swapped out is replaced. Points left at "done" lapse (R39)."""

    points: int
    force: list[str]
    promotions: int = 0
    swap_out: list[str] = field(default_factory=list)
    swap_in: list[str] = field(default_factory=list)

    def _pts(self, fc: fct.Tables, names) -> int:
        return sum(int(fc.unit_points[fc.unit_type_index[n]]) for n in names)

    def left(self, fc: fct.Tables) -> int:
        """Campaign Points not yet spent."""
        c = fc.campaign
        return (
            self.points
            - c.promotion_award_cost * self.promotions
            - c.swap_cost_per_unit_point * self._pts(fc, self.swap_out)
        )

    def unmatched(self, fc: fct.Tables) -> int:
        """Unit points swapped out and not yet swapped in."""
        return self._pts(fc, self.swap_out) - self._pts(fc, self.swap_in)

    def units(self) -> int:
        """The force's units if the draft were applied now."""
        return len(self.force) - len(self.swap_out) + len(self.swap_in)

    def can_award(self, fc: fct.Tables) -> bool:
        return self.left(fc) >= fc.campaign.promotion_award_cost

    def can_swap_out(self, name: str, fc: fct.Tables) -> bool:
        p = int(fc.unit_points[fc.unit_type_index[name]])
        return (
            self.force.count(name) > self.swap_out.count(name)
            and self.left(fc) >= fc.campaign.swap_cost_per_unit_point * p
        )

    def can_swap_in(self, name: str, fc: fct.Tables) -> bool:
        p = int(fc.unit_points[fc.unit_type_index[name]])
        rest = self.unmatched(fc) - p
        if p <= 0 or rest < 0:
            return False
        return self.units() + 1 + _min_units(fc, rest)[rest] <= max(
            MAX_FORCE_UNITS, len(self.force)
        )

    def can_finish(self, fc: fct.Tables) -> bool:
        return self.unmatched(fc) == 0

    def spend(self) -> Spend:
        return Spend(self.promotions, tuple(self.swap_out), tuple(self.swap_in))


def winners(awards: Sequence[int]) -> list[int]:
    """The players with the most Promotion Awards (FC-7.8): all of them share the win (R40)."""
    best = max(awards)
    return [i for i, a in enumerate(awards) if a == best]


def check_force(i: int, force: Sequence[str], allowed: int, fc: fct.Tables) -> list[str]:
    """A player's campaign force, checked: known Table 3 types worth 1..`allowed` points."""
    f = list(force)
    unknown = [t for t in f if t not in fc.unit_type_index]
    pts = sum(int(fc.unit_points[fc.unit_type_index[t]]) for t in f if t in fc.unit_type_index)
    if unknown or not f or pts > allowed:
        raise ValueError(
            f"campaign player {i}: force {f} is not 1..{allowed} unit points of Table 3"
        )
    return f


def run_campaign(
    players: Sequence[CampaignPlayer],
    rounds: int | None = None,
    battlefields: Sequence[str | Path] | None = None,
    sequence: Sequence[str | Path] | None = None,
    seed: int = 0,
    fc: fct.Tables | None = None,
) -> CampaignResult:
    """Play a campaign (FC PART VII) between an even number of players.

    `battlefields`: the files each game's battlefield is drawn from (default the Standard
    battlefield), for `rounds` rounds; or `sequence`: an alternate campaign's fixed
    battlefields, one round each (FC-7.9). The campaign's draws come from
    :func:`campaign_draws` (`seed`), the players' random choices from their own generator
    (seeded [seed, 1]); two players play exactly the campaign the env option plays with
    the same seed and the same choices."""
    fc = fc if fc is not None else fct.load_tables()
    n = len(players)
    if n < 2 or n % 2:
        raise ValueError(f"a campaign needs an even number of players (2 or more), got {n}")
    spec = CampaignSpec.make(rounds, battlefields, sequence)
    draws = campaign_draws(seed)
    rng = np.random.default_rng([seed, 1])
    allowed = int(fc.standard_game.unit_points)
    forces = [
        check_force(i, p.choose_force(allowed, fc, rng), allowed, fc) for i, p in enumerate(players)
    ]
    res = CampaignResult(forces=forces, awards=[0] * n, earned=[0] * n)
    game = 0
    for r in range(spec.games):
        bf, order = draw_round(draws, spec, r, n)
        for j in range(0, n, 2):
            a, b = order[j], order[j + 1]  # a is seat 0 (drawn)
            rec = game_record(bf, [forces[a], forces[b]], fc)
            w = play_game(rec, [players[a], players[b]], game_seed(seed, game), rng)
            game += 1
            pa, pb = campaign_points(w, fc)
            res.games.append((r, tt.load_battlefield(bf).name, a, b, -1 if w < 0 else (a, b)[w]))
            for who, pts in ((a, pa), (b, pb)):
                res.earned[who] += pts
                got, forces[who] = apply_spend(
                    pts,
                    forces[who],
                    players[who].spend(pts, list(forces[who]), fc, rng),
                    fc,
                    allowed,
                )
                res.awards[who] += got
    res.winners = winners(res.awards)
    return res
