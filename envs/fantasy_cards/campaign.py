"""Fantasy Cards PART VII: Campaigns, a series of linked Standard Games (FC-7.1..FC-7.9).

A campaign is a runner in Python over the Tactical Assault core (reading R37): every game of
the campaign is one ordinary game (one episode of ``fantasy_cards_v0``'s kernels: reset, then
decisions until game over) on a tables record built for that game from the drawn battlefield
and the two players' campaign forces; what links the games (forces, Campaign Points,
Promotion Awards) lives here, between episodes. Nothing of a campaign is hidden or random
inside a game, so the per-game kernels, observations and golden games stay exactly the
Standard Game's.

- Step 1 / Step 5: the battlefields are battlefield files (configs/fantasy_cards layout);
  each game draws one at random (FC-7.1, FC-7.5), or an alternate campaign plays a fixed
  sequence (FC-7.9).
- Step 2: the scenario is the Standard Game (R38: the only scenario the data holds).
- Step 3 / Step 5: every round pairs the players at random; each plays one game per round, so
  all play the same number of games (FC-7.3). Seats (who is seat 0) are drawn too.
- Step 4: each player chooses a force once, within the Standard Game's points; every game
  starts with that force at full strength (losses replaced, FC-7.4): units without a cell,
  deployed by the players (FC "Deploy Forces").
- Campaign Points 9 / 6 / 3 (FC-7.6, campaign.yaml) are spent at once after each game
  (FC-7.7): 3 per Promotion Award, 1 per unit point swapped; the force's total stays what it
  was (R39). Points left unspent lapse (R39).
- The most Promotion Awards after all games wins; equal most share the win (FC-7.8, R40).

Choosing the force and spending the points are the players' decisions: a
:class:`CampaignPlayer` makes them (and plays its games); :class:`RandomPlayer` is a uniformly
random one for tests and tools.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
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


def play_game(
    rec: np.ndarray,
    seats: Sequence[CampaignPlayer],
    seed: int,
    rng: np.random.Generator,
    max_decisions: int = 20000,
) -> int:
    """Play one game of the core on `rec`, each decision by the seat's player; the winning seat
    or -1 (a draw)."""
    from envs.tactical_assault import actions, flow, state, tables, turn

    tb = tables.as_tb(rec)
    S = state.allocate(1)
    flow.reset_game(S, tb, 0, seed, 0)
    out = np.zeros(actions.N_ACTIONS, dtype=np.int64)
    for _ in range(max_decisions):
        turn.advance(S, tb, 0)
        if S["stage"][0] == actions.STAGE_GAME_OVER:
            return int(S["winner"][0])
        n = turn.legal_actions(S, tb, 0, out)
        a = seats[int(S["current"][0])].act(S, tb, out[:n], rng)
        if a not in out[:n]:
            raise ValueError(f"campaign game: illegal action {actions.describe(a)}")
        turn.apply_action(S, tb, 0, a)
    raise RuntimeError(f"campaign game: not over after {max_decisions} decisions")


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
    battlefields, one round each (FC-7.9)."""
    fc = fc if fc is not None else fct.load_tables()
    n = len(players)
    if n < 2 or n % 2:
        raise ValueError(f"a campaign needs an even number of players (2 or more), got {n}")
    if sequence is not None:
        if battlefields is not None or rounds is not None:
            raise ValueError("give either a fixed `sequence` or `battlefields` and `rounds`")
        plan = [Path(p) for p in sequence]
        if not plan:
            raise ValueError("campaign sequence is empty")
    else:
        if rounds is None or rounds < 1:
            raise ValueError(f"campaign rounds must be 1 or more, got {rounds}")
        pool = [Path(p) for p in (battlefields or [tt.STANDARD_PATH])]
        plan = []
    rng = np.random.default_rng(seed)
    allowed = int(fc.standard_game.unit_points)
    forces = []
    for i, p in enumerate(players):
        f = list(p.choose_force(allowed, fc, rng))
        pts = sum(int(fc.unit_points[fc.unit_type_index[t]]) for t in f if t in fc.unit_type_index)
        unknown = [t for t in f if t not in fc.unit_type_index]
        if unknown or not f or pts > allowed:
            raise ValueError(
                f"campaign player {i}: force {f} is not 1..{allowed} unit points of Table 3"
            )
        forces.append(f)
    res = CampaignResult(forces=forces, awards=[0] * n, earned=[0] * n)
    n_rounds = len(plan) if sequence is not None else int(rounds)
    game = 0
    for r in range(n_rounds):
        bf = plan[r] if sequence is not None else pool[rng.integers(len(pool))]
        order = rng.permutation(n)
        for j in range(0, n, 2):
            a, b = int(order[j]), int(order[j + 1])  # a is seat 0 (drawn)
            rec = game_record(bf, [forces[a], forces[b]], fc)
            w = play_game(rec, [players[a], players[b]], seed * 100003 + game, rng)
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
    best = max(res.awards)
    res.winners = [i for i in range(n) if res.awards[i] == best]
    return res
