"""`tacsim ladder`: a round robin of agents, with ratings, the win-rate matrix and Nash averaging.

    tacsim ladder --ruleset tac --agents random,heuristic,ppo:runs/ppo --games 2000

Every unordered pair (A, B) of the agents plays one self-play run of N games
(agents.selfplay.run_selfplay into OUT/runs/<A>__<B>/: resumable, Ctrl-C keeps finished
chunks, ordinary records on disk). Seat s of game g is played by [A, B][(s + g) % 2], so each
agent plays each seat equally often, and every pair plays the same seed, so the same game
indices and deals (paired comparisons). Agents are the ruleset's in-kernel agents or trained
policies (`ppo:PATH`, agents/policy.py, played through agents/arena.py).

From the records:

- the win-rate matrix W[i, j] = P(i beats j), a draw counting half, with the Wilson 95%
  interval of each entry, and each agent's score in each seat;
- openskill ratings (Plackett-Luce) updated game by game in a fixed order (game index, then
  pair order), so a rerun gives the same ratings: mu, sigma and the ordinal mu - 3 sigma;
- Nash averaging (Balduzzi et al. 2018, "Re-evaluating Evaluation"): the antisymmetric payoff
  A = W - W^T of the symmetric zero-sum meta-game "pick an agent", its maximum-entropy Nash
  equilibrium p (the equilibrium value by linear programming, then the most even mixture
  among the equilibria) and each agent's Nash-averaged skill (A p)_i: 0 for agents in the
  equilibrium's support, negative for the others (how much they lose against the mixture).

Writes OUT/ladder.md, OUT/ladder.json and OUT/ladder.png. Only two-player games for now.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import math
import re
import sys
from dataclasses import asdict, dataclass, field
from itertools import combinations
from pathlib import Path
from typing import Any

import numpy as np

RUNS = "runs"
DEFAULT_GAMES = 1000
DEFAULT_CHUNK = 1000  # games per record file: a ppo or mcts chunk should not take hours
SUPPORT_MASS = 1e-4  # an agent "is in the Nash mixture" above this probability
PLAYERS = 2


# --- the plan ---------------------------------------------------------------------------------


def agent_folder(name: str) -> str:
    """A folder-safe, unique name for an agent: kernel names as they are, `ppo:PATH` as
    `ppo-<the path's last parts>-<hash of the name>`."""
    from agents import policy

    if not policy.is_policy_name(name):
        return re.sub(r"[^0-9A-Za-z_.-]+", "-", name)
    tail = "-".join(Path(name[len(policy.PREFIX) :]).parts[-2:])
    tail = re.sub(r"[^0-9A-Za-z_.-]+", "-", tail).strip("-.")[-40:]
    digest = hashlib.sha1(name.encode()).hexdigest()[:8]
    return f"ppo-{tail}-{digest}" if tail else f"ppo-{digest}"


def pair_folder(a: str, b: str) -> str:
    return f"{agent_folder(a)}__{agent_folder(b)}"


@dataclass(frozen=True)
class LadderPlan:
    """A validated ladder: the agents, their pairs and the self-play run of each pair."""

    ruleset: str
    agents: tuple[str, ...]
    games: int  # per pair
    seed: int
    chunk: int
    out: Path
    options: dict[str, str] = field(default_factory=dict)  # the ruleset's, resolved

    @property
    def pairs(self) -> list[tuple[int, int]]:
        return list(combinations(range(len(self.agents)), 2))

    def run_dir(self, i: int, j: int) -> Path:
        return self.out / RUNS / pair_folder(self.agents[i], self.agents[j])

    def command(self) -> str:
        return (
            f"tacsim ladder --ruleset {self.ruleset} --agents {','.join(self.agents)} "
            f"--games {self.games} --seed {self.seed} --chunk {self.chunk} --out {self.out}"
            + "".join(f" --option {k}={v}" for k, v in self.options.items())
        )

    def params(self, a: str, b: str):
        """The self-play run parameters of the pair a, b (agents/selfplay.py)."""
        from agents import selfplay

        return selfplay.make_params(
            self.ruleset, PLAYERS, self.games, [a, b], self.seed, self.chunk, None, self.options
        )


def make_plan(
    ruleset: str,
    agents: str | list[str] | tuple[str, ...],
    games: int,
    seed: int = 0,
    chunk: int | None = None,
    out: Path | str | None = None,
    players: int = PLAYERS,
    options: dict[str, str] | list[str] | None = None,
) -> LadderPlan:
    """Check everything before anything is written; UsageError (one line) otherwise.
    `options`: the ruleset's options (a dict or --option KEY=VALUE strings)."""
    from agents import policy, selfplay
    from agents.cli import UsageError

    rs = selfplay.load_ruleset(ruleset, options=options)
    if players != PLAYERS:
        raise UsageError(
            f"the ladder plays two-player games only (win-rate matrix of pairs), got --players "
            f"{players}"
        )
    names = (
        tuple(a.strip() for a in agents.split(",")) if isinstance(agents, str) else tuple(agents)
    )
    if len(names) < 2:
        raise UsageError(f"give at least two agents to rank, got {len(names)}: {','.join(names)}")
    known = dict(rs.agents)
    seen: dict[str, str] = {}
    for name in names:
        if policy.is_policy_name(name):
            try:
                key = str(policy.model_path(name))
            except ValueError as e:
                raise UsageError(str(e)) from None
        elif name in known:
            key = name
        else:
            raise UsageError(
                f"unknown agent {name!r} (known: {', '.join(sorted(known))}, or ppo:PATH)"
            )
        if key in seen:
            raise UsageError(f"agents {seen[key]!r} and {name!r} are the same agent: list it once")
        seen[key] = name
    folders = [agent_folder(n) for n in names]
    if len(set(folders)) != len(folders):
        raise UsageError(f"agents {','.join(names)} give the same folder names {folders}")
    if games < 1:
        raise UsageError(f"games must be at least 1, got {games}")
    chunk = DEFAULT_CHUNK if chunk is None else chunk
    tag = selfplay.options_tag(ruleset, rs.options)
    out = Path("reports/ladder") / tag if out is None else Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out} exists and is not a folder")
    plan = LadderPlan(ruleset, names, games, seed, min(max(chunk, 1), games), out, dict(rs.options))
    # every pair's run parameters (and each policy's fit to the ruleset) before any game
    for i, j in plan.pairs:
        params = selfplay.make_params(
            ruleset, players, games, [names[i], names[j]], seed, chunk, None, plan.options
        )
        check_run_folder(plan.run_dir(i, j), params)
    return plan


def check_run_folder(run_dir: Path, params) -> None:
    """A pair's folder from an earlier ladder must hold the same run (else UsageError now,
    not after the pairs before it have played)."""
    from agents import records
    from agents.cli import UsageError

    if not run_dir.is_dir():
        return
    on_disk = records.read_run_file(run_dir)
    if on_disk is None:
        return  # prepare_run_dir refuses a non-empty folder without run.json
    wanted = {**asdict(params), "agents": list(params.agents)}
    old = on_disk.get("params", {})
    # a run written before options existed played its ruleset without any
    diffs = [k for k in wanted if old.get(k, {} if k == "options" else None) != wanted[k]]
    if diffs:
        raise UsageError(
            f"{run_dir} holds a run with other {', '.join(diffs)}: rerun the ladder with the "
            "same flags to resume, or choose another --out"
        )


def play(plan: LadderPlan, threads: int | None = None, progress: bool = True) -> bool:
    """Play (or resume) every pair's run; False if interrupted (finished chunks stay)."""
    from tqdm import tqdm

    from agents import selfplay

    bar = tqdm(
        total=len(plan.pairs),
        unit="pair",
        desc=f"ladder {plan.ruleset}",
        disable=not progress,
        file=sys.stderr,
        position=0,
    )
    try:
        for i, j in plan.pairs:
            a, b = plan.agents[i], plan.agents[j]
            params = plan.params(a, b)
            bar.set_postfix_str(f"{a} vs {b}")
            outcome = selfplay.run_selfplay(params, plan.run_dir(i, j), threads, progress=progress)
            if outcome.interrupted:
                return False
            bar.update(1)
    finally:
        bar.close()
    return True


# --- the numbers --------------------------------------------------------------------------------


@dataclass
class PairGames:
    """The games of one pair (i, j), from its records, ordered by game index."""

    i: int
    j: int
    game_index: np.ndarray  # int64[n]
    seat_of_i: np.ndarray  # int8[n] the seat agent i played
    score_i: np.ndarray  # float64[n] 1 win of i, 0.5 draw, 0 win of j


def read_pair(run_dir: Path, i: int, j: int, agents: tuple[str, ...]) -> PairGames:
    from agents import records

    t = records.read_games(run_dir, ["game_index", "agent_0", "agent_1", "winner"])
    a0 = np.asarray(t.column("agent_0").to_pylist(), dtype=object)
    a1 = np.asarray(t.column("agent_1").to_pylist(), dtype=object)
    winner = t.column("winner").to_numpy().astype(np.int64)
    ai, aj = agents[i], agents[j]
    if not (((a0 == ai) & (a1 == aj)) | ((a0 == aj) & (a1 == ai))).all():
        raise ValueError(f"{run_dir}: records name other agents than {ai} and {aj}")
    seat_i = np.where(a0 == ai, 0, 1).astype(np.int8)
    score = np.where(winner < 0, 0.5, (winner == seat_i).astype(np.float64))
    return PairGames(i, j, t.column("game_index").to_numpy(), seat_i, score)


def score_interval(score: float, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """95% interval of a mean score (win 1, draw 1/2, loss 0) over n games: the Wilson
    interval (agents.stats) when the score is a whole number of wins; with draws, the Wilson
    formula at the observed mean, which is conservative (a draw has less variance than a coin)."""
    from agents.stats import wilson_interval

    if n <= 0:
        return (math.nan, math.nan)
    if float(score).is_integer():
        return wilson_interval(int(score), n, confidence)
    from scipy.stats import norm

    z = float(norm.ppf(0.5 + confidence / 2))
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, centre - half), min(1.0, centre + half))


@dataclass
class NashResult:
    payoff: np.ndarray  # A = W - W^T
    mixture: np.ndarray  # p, the maximum-entropy Nash equilibrium
    value: float  # the game's value (0 for an antisymmetric payoff)
    skill: np.ndarray  # (A p)_i

    @property
    def support(self) -> np.ndarray:
        return self.mixture > SUPPORT_MASS


def nash_average(W: np.ndarray) -> NashResult:
    """Nash averaging over a win-rate matrix W (W[i, j] = P(i beats j)); ValueError for a
    matrix that is not square or has entries outside [0, 1]."""
    W = np.asarray(W, dtype=np.float64)
    if W.ndim != 2 or W.shape[0] != W.shape[1] or W.shape[0] < 1:
        raise ValueError(f"win-rate matrix must be square, got shape {W.shape}")
    off = ~np.eye(len(W), dtype=bool)
    if not np.all((W[off] >= 0) & (W[off] <= 1)):
        raise ValueError("win rates must lie in [0, 1]")
    A = np.where(off, W - W.T, 0.0)
    p, value = max_entropy_nash(A)
    return NashResult(A, p, value, A @ p)


def max_entropy_nash(A: np.ndarray, tol: float = 1e-9) -> tuple[np.ndarray, float]:
    """The maximum-entropy maximin strategy p of the zero-sum game where the row player
    gets A[i, j], and the game's value.

    1. value v: max v subject to (A^T p)_j >= v for every j, p in the simplex (an LP);
    2. support: for every i, max p_i over the equilibria (LPs); the agents no equilibrium
       uses get 0, and the mean of those maximisers is an equilibrium using all the others;
    3. from there, the mixture of most entropy over the equilibria (SLSQP on the support).
    """
    from scipy.optimize import linprog, minimize

    A = np.asarray(A, dtype=np.float64)
    n = len(A)
    # variables [p_0..p_{n-1}, v]: minimise -v, v - (A^T p)_j <= 0, sum p = 1
    res = linprog(
        c=np.r_[np.zeros(n), -1.0],
        A_ub=np.c_[-A.T, np.ones(n)],
        b_ub=np.zeros(n),
        A_eq=np.r_[np.ones(n), 0.0][None, :],
        b_eq=[1.0],
        bounds=[(0, None)] * n + [(None, None)],
        method="highs",
    )
    if not res.success:
        raise RuntimeError(f"Nash LP failed: {res.message}")
    v = float(-res.fun)
    # the equilibrium set: p >= 0, sum p = 1, A^T p >= v - tol
    eq_ub, eq_b = -A.T, -(v - tol) * np.ones(n)
    best = []
    for i in range(n):
        r = linprog(
            c=-np.eye(n)[i],
            A_ub=eq_ub,
            b_ub=eq_b,
            A_eq=np.ones((1, n)),
            b_eq=[1.0],
            bounds=[(0, None)] * n,
            method="highs",
        )
        if r.success and r.x[i] > tol:
            best.append(r.x)
    start = np.mean(best, axis=0) if best else res.x[:n]
    on = start > tol
    k = int(on.sum())
    if k > 1:
        As = A[np.ix_(on, np.ones(n, dtype=bool))]

        def neg_entropy(q: np.ndarray) -> float:
            q = np.clip(q, 1e-300, None)
            return float(np.sum(q * np.log(q)))

        def grad(q: np.ndarray) -> np.ndarray:
            return np.log(np.clip(q, 1e-300, None)) + 1.0

        sol = minimize(
            neg_entropy,
            start[on],
            jac=grad,
            method="SLSQP",
            bounds=[(0.0, 1.0)] * k,
            constraints=[
                {"type": "eq", "fun": lambda q: q.sum() - 1.0, "jac": lambda q: np.ones(k)},
                {"type": "ineq", "fun": lambda q: As.T @ q - (v - tol), "jac": lambda q: As.T},
            ],
            options={"ftol": 1e-12, "maxiter": 500},
        )
        q = np.clip(sol.x, 0.0, None)
        q /= q.sum()
        # keep the optimiser's answer only if it is still an equilibrium (within rounding)
        if sol.success and np.min(As.T @ q) >= v - 1e-7:
            start = np.zeros(n)
            start[on] = q
    p = np.clip(start, 0.0, None)
    p[p < tol] = 0.0
    return p / p.sum(), v


@dataclass
class Ratings:
    mu: np.ndarray
    sigma: np.ndarray

    @property
    def ordinal(self) -> np.ndarray:
        return self.mu - 3 * self.sigma


def openskill_ratings(pairs: list[PairGames], n_agents: int) -> Ratings:
    """Plackett-Luce ratings updated once per game: games in game-index order, and the pairs
    in plan order within one game index (every pair's game k before any game k + 1), so no
    pair's games all come last; a draw is a tie in rank."""
    from openskill.models import PlackettLuce

    # tau = 0: openskill's tau adds skill drift before every update, for players who change;
    # these agents are fixed, and with the default tau the last few hundred games outweighed
    # the rest (TAC: ppo ranked above the heuristic that beats it 0.60 head to head)
    model = PlackettLuce(tau=0.0)
    ratings = [model.rating(name=str(k)) for k in range(n_agents)]
    order = sorted(
        (int(g), p_no, k) for p_no, pg in enumerate(pairs) for k, g in enumerate(pg.game_index)
    )
    for _, p_no, k in order:
        pg = pairs[p_no]
        s = pg.score_i[k]
        ranks = [0, 0] if s == 0.5 else ([0, 1] if s == 1.0 else [1, 0])
        [[ri], [rj]] = model.rate([[ratings[pg.i]], [ratings[pg.j]]], ranks=ranks)
        ratings[pg.i], ratings[pg.j] = ri, rj
    return Ratings(
        np.array([r.mu for r in ratings], dtype=np.float64),
        np.array([r.sigma for r in ratings], dtype=np.float64),
    )


@dataclass
class LadderResult:
    agents: tuple[str, ...]
    games: np.ndarray  # int64[n, n] games between i and j
    W: np.ndarray  # float64[n, n] P(i beats j), draw half (diagonal 0.5)
    ci: np.ndarray  # float64[n, n, 2]
    wins: np.ndarray  # int64[n, n] games i won against j
    draws: np.ndarray  # int64[n, n]
    seat_games: np.ndarray  # int64[n, P]
    seat_score: np.ndarray  # float64[n, P] mean score of agent i in seat s
    seat_ci: np.ndarray  # float64[n, P, 2]
    ratings: Ratings
    nash: NashResult

    @property
    def field_score(self) -> np.ndarray:
        """Mean of W over the other agents (each opponent weighted equally)."""
        n = len(self.agents)
        off = ~np.eye(n, dtype=bool)
        return np.array([self.W[i][off[i]].mean() for i in range(n)])


def analyse(plan: LadderPlan) -> LadderResult:
    """Everything the report says, from the pairs' records on disk."""
    n = len(plan.agents)
    pairs = [read_pair(plan.run_dir(i, j), i, j, plan.agents) for i, j in plan.pairs]
    games = np.zeros((n, n), dtype=np.int64)
    wins = np.zeros((n, n), dtype=np.int64)
    draws = np.zeros((n, n), dtype=np.int64)
    W = np.full((n, n), 0.5)
    ci = np.full((n, n, 2), np.nan)
    seat_games = np.zeros((n, PLAYERS), dtype=np.int64)
    seat_points = np.zeros((n, PLAYERS))
    for pg in pairs:
        i, j = pg.i, pg.j
        g = len(pg.score_i)
        d = int(np.sum(pg.score_i == 0.5))
        wi = int(np.sum(pg.score_i == 1.0))
        games[i, j] = games[j, i] = g
        draws[i, j] = draws[j, i] = d
        wins[i, j], wins[j, i] = wi, g - wi - d
        W[i, j] = (wi + 0.5 * d) / g
        W[j, i] = 1.0 - W[i, j]
        ci[i, j] = score_interval(wi + 0.5 * d, g)
        ci[j, i] = score_interval(g - wi - 0.5 * d, g)
        for s in range(PLAYERS):
            mine = pg.seat_of_i == s
            seat_games[i, s] += int(mine.sum())
            seat_points[i, s] += float(pg.score_i[mine].sum())
            seat_games[j, 1 - s] += int(mine.sum())
            seat_points[j, 1 - s] += float((1.0 - pg.score_i[mine]).sum())
    seat_score = np.where(seat_games > 0, seat_points / np.maximum(seat_games, 1), np.nan)
    seat_ci = np.array(
        [
            [score_interval(seat_points[i, s], seat_games[i, s]) for s in range(PLAYERS)]
            for i in range(n)
        ]
    )
    return LadderResult(
        agents=plan.agents,
        games=games,
        W=W,
        ci=ci,
        wins=wins,
        draws=draws,
        seat_games=seat_games,
        seat_score=seat_score,
        seat_ci=seat_ci,
        ratings=openskill_ratings(pairs, n),
        nash=nash_average(W),
    )


# --- the report ---------------------------------------------------------------------------------


def _order(r: LadderResult) -> list[int]:
    """Agents best first: by rating ordinal, then mu."""
    return sorted(range(len(r.agents)), key=lambda i: (-r.ratings.ordinal[i], -r.ratings.mu[i]))


def _nan_to_none(a: np.ndarray) -> list:
    """Nested lists with None for NaN (not played: the diagonal, a seat an agent never
    took), so the file is strict JSON."""
    return np.where(np.isnan(a), None, a).tolist()


def to_json(plan: LadderPlan, r: LadderResult) -> dict[str, Any]:
    return {
        "ruleset": plan.ruleset,
        "options": dict(plan.options),
        "players": PLAYERS,
        "agents": list(r.agents),
        "games_per_pair": plan.games,
        "seed": plan.seed,
        "chunk": plan.chunk,
        "command": plan.command(),
        "runs": {
            f"{plan.agents[i]} vs {plan.agents[j]}": str(plan.run_dir(i, j)) for i, j in plan.pairs
        },
        "win_rate": {
            "definition": "W[i][j] = P(agent i beats agent j), a draw counts half; "
            "diagonal 0.5 (not played)",
            "matrix": r.W.tolist(),
            "ci95": _nan_to_none(r.ci),
            "games": r.games.tolist(),
            "wins": r.wins.tolist(),
            "draws": r.draws.tolist(),
        },
        "seats": {
            "games": r.seat_games.tolist(),
            "score": _nan_to_none(r.seat_score),
            "ci95": _nan_to_none(r.seat_ci),
        },
        "ratings": {
            "model": "openskill PlackettLuce (mu 25, sigma 25/3, tau 0), one update per game in "
            "order (game index, pair)",
            "mu": r.ratings.mu.tolist(),
            "sigma": r.ratings.sigma.tolist(),
            "ordinal": r.ratings.ordinal.tolist(),
        },
        "nash": {
            "payoff": "A = W - W^T",
            "value": r.nash.value,
            "mixture": r.nash.mixture.tolist(),
            "skill": r.nash.skill.tolist(),
            "support": [a for a, s in zip(r.agents, r.nash.support, strict=True) if s],
        },
        "ranking": [r.agents[i] for i in _order(r)],
    }


def _ci(lo: float, hi: float) -> str:
    return "n/a" if math.isnan(lo) else f"[{lo:.3f}, {hi:.3f}]"


def to_markdown(plan: LadderPlan, r: LadderResult) -> str:
    from agents import selfplay

    n = len(r.agents)
    order = _order(r)
    rank = [
        "| rank | agent | mu | sigma | ordinal (mu - 3 sigma) | score vs field | Nash mass | "
        "Nash skill (A p) |",
        "|---:|---|---:|---:|---:|---:|---:|---:|",
    ]
    field = r.field_score
    for k, i in enumerate(order, 1):
        rank.append(
            f"| {k} | `{r.agents[i]}` | {r.ratings.mu[i]:.2f} | {r.ratings.sigma[i]:.2f} | "
            f"{r.ratings.ordinal[i]:.2f} | {field[i]:.3f} | {r.nash.mixture[i]:.3f} | "
            f"{r.nash.skill[i]:+.3f} |"
        )
    head = "| row beats column | " + " | ".join(f"`{r.agents[j]}`" for j in order) + " |"
    matrix = [head, "|---|" + "---:|" * n]
    for i in order:
        cells = []
        for j in order:
            if i == j:
                cells.append("-")
            else:
                lo, hi = r.ci[i, j]
                cells.append(f"{r.W[i, j]:.3f} {_ci(lo, hi)}")
        matrix.append(f"| `{r.agents[i]}` | " + " | ".join(cells) + " |")
    seats = [
        "| agent | "
        + " | ".join(f"seat {s} score [95% CI] (games)" for s in range(PLAYERS))
        + " |",
        "|---|" + "---:|" * PLAYERS,
    ]
    for i in order:
        cells = [
            f"{r.seat_score[i, s]:.3f} {_ci(*r.seat_ci[i, s])} ({r.seat_games[i, s]})"
            for s in range(PLAYERS)
        ]
        seats.append(f"| `{r.agents[i]}` | " + " | ".join(cells) + " |")
    pairs = [
        "| pair | games | first wins | second wins | draws | run folder |",
        "|---|---:|---:|---:|---:|---|",
    ]
    commands = [plan.command()]
    for i, j in plan.pairs:
        pairs.append(
            f"| `{r.agents[i]}` vs `{r.agents[j]}` | {r.games[i, j]} | {r.wins[i, j]} | "
            f"{r.wins[j, i]} | {r.draws[i, j]} | `{plan.run_dir(i, j)}` |"
        )
        params = plan.params(r.agents[i], r.agents[j])
        commands.append(params.command(plan.run_dir(i, j)))
    support = [f"`{a}`" for a, s in zip(r.agents, r.nash.support, strict=True) if s]
    total = int(np.triu(r.games, 1).sum())
    lines = [
        f"# Ladder: {plan.ruleset}, {n} agents",
        "",
        *(
            [f"Ruleset options: {selfplay.describe_options(plan.options)}.", ""]
            if plan.options
            else []
        ),
        f"{len(plan.pairs)} pairs x {plan.games} games = {total} two-player games (seed "
        f"{plan.seed}; every pair plays the same game indices 0..{plan.games - 1}, so the same "
        "deals; seat s of game g is played by the pair's agent (s + g) % 2, so each agent "
        "plays each seat in half of its games).",
        "",
        f"The Nash mixture uses {', '.join(support)}.",
        "",
        "## Ranking",
        "",
        *rank,
        "",
        "## Win-rate matrix",
        "",
        "Entry (row i, column j): the share of their games that agent i won against agent j, a "
        "draw counting half, with its 95% interval.",
        "",
        *matrix,
        "",
        "## Seats",
        "",
        "Each agent's mean score (win 1, draw 1/2) in each seat, over all its games.",
        "",
        *seats,
        "",
        "## Pairs",
        "",
        "First and second: the agents in the order of the pair's name.",
        "",
        *pairs,
        "",
        "## Method",
        "",
        "- Win rates: W[i, j] = (wins + draws / 2) / games. 95% intervals: Wilson; with draws, "
        "the Wilson formula at the mean score, which is conservative (a draw has less variance "
        "than a coin flip). W + W^T = 1 off the diagonal.",
        "- Ratings: openskill's Plackett-Luce model (mu 25, sigma 25/3, tau 0: the agents do "
        "not change during the ladder, so no skill drift is added between games), one update "
        "per game, draws as tied ranks, games taken in a fixed order (game index, then the "
        "pairs in the order above), so the same records give the same ratings. The ordinal "
        "mu - 3 sigma orders the ranking; a sequential rating still depends a little on the "
        "order of the games: the win-rate matrix and Nash averaging do not.",
        "- Nash averaging (Balduzzi, Tuyls, Perolat, Graepel 2018, 'Re-evaluating "
        "Evaluation'): the meta-game 'pick an agent' with the antisymmetric payoff "
        "A = W - W^T (A[i, j] = 2 W[i, j] - 1; the difference form, not the logit form, so a "
        "100% win rate stays finite). p is its maximum-entropy Nash equilibrium: the game's "
        "value by linear programming (0 for an antisymmetric A), then among all equilibria the "
        "mixture of most entropy (scipy: the agents some equilibrium uses found by one LP "
        "each, then SLSQP on them). Nash skill (A p)_i is agent i's expected payoff against "
        "the mixture: 0 for agents in its support, negative for the others. Unlike a mean "
        f"over the field, it does not reward beating many copies of a weak agent. Mass above "
        f"{SUPPORT_MASS:g} counts as used.",
        "- The matrix is estimated from finite games: a different sample can move an agent in "
        "or out of the Nash support when two agents are close (see the intervals).",
        "",
        "## Commands",
        "",
        "The ladder, then each pair's self-play run (the same records; rerun either to resume):",
        "",
        "```",
        *commands,
        "```",
        "",
        "![ladder](ladder.png)",
        "",
    ]
    return "\n".join(lines)


def write_plot(plan: LadderPlan, r: LadderResult, path: Path) -> Path:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    order = _order(r)
    n = len(order)
    labels = [r.agents[i] if len(r.agents[i]) <= 24 else "…" + r.agents[i][-23:] for i in order]
    fig, (ax0, ax1) = plt.subplots(
        1,
        2,
        figsize=(8 + 0.8 * n, 3 + 0.5 * n),
        gridspec_kw={"width_ratios": [1.2, 1]},
        layout="constrained",
    )
    M = r.W[np.ix_(order, order)].copy()
    np.fill_diagonal(M, np.nan)
    im = ax0.imshow(M, vmin=0, vmax=1, cmap="RdBu")
    for a in range(n):
        for b in range(n):
            if a != b:
                ax0.text(b, a, f"{M[a, b]:.2f}", ha="center", va="center", fontsize=8)
    ax0.set_xticks(range(n), labels, rotation=45, ha="right")
    ax0.set_yticks(range(n), labels)
    ax0.set_title("P(row beats column)")
    fig.colorbar(im, ax=ax0, fraction=0.046)
    y = np.arange(n)[::-1]
    mu = r.ratings.mu[order]
    sig = r.ratings.sigma[order]
    colors = ["tab:orange" if r.nash.support[i] else "tab:gray" for i in order]
    ax1.errorbar(mu, y, xerr=3 * sig, fmt="none", ecolor="black", capsize=3)
    ax1.scatter(mu, y, c=colors, zorder=3)
    ax1.set_yticks(y, labels)
    ax1.set_xlabel("openskill mu ± 3 sigma")
    ax1.set_title("ratings (orange: in the Nash mixture)")
    fig.suptitle(f"{plan.ruleset} ladder: {plan.games} games per pair, seed {plan.seed}")
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return path


def write_report(plan: LadderPlan, r: LadderResult) -> dict[str, Path]:
    """OUT/ladder.md, OUT/ladder.json and OUT/ladder.png (each written then renamed)."""
    plan.out.mkdir(parents=True, exist_ok=True)
    paths = {k: plan.out / f"ladder.{k}" for k in ("md", "json", "png")}
    for key, text in (
        ("md", to_markdown(plan, r)),
        ("json", json.dumps(to_json(plan, r), indent=2, allow_nan=False) + "\n"),
    ):
        tmp = paths[key].with_name(f".{paths[key].name}.tmp")
        tmp.write_text(text)
        tmp.replace(paths[key])
    tmp = write_plot(plan, r, plan.out / ".ladder.tmp.png")
    tmp.replace(paths["png"])
    return paths


def format_table(r: LadderResult) -> str:
    lines = [f"  {'agent':<28}{'mu':>8}{'sigma':>8}{'ordinal':>9}{'vs field':>10}{'Nash p':>8}"]
    field = r.field_score
    for i in _order(r):
        name = r.agents[i] if len(r.agents[i]) <= 27 else "…" + r.agents[i][-26:]
        lines.append(
            f"  {name:<28}{r.ratings.mu[i]:>8.2f}{r.ratings.sigma[i]:>8.2f}"
            f"{r.ratings.ordinal[i]:>9.2f}{field[i]:>10.3f}{r.nash.mixture[i]:>8.3f}"
        )
    return "\n".join(lines)


# --- the command ---------------------------------------------------------------------------------


def cmd_ladder(args: argparse.Namespace) -> int:
    from agents import selfplay

    plan = make_plan(
        args.ruleset,
        args.agents,
        args.games,
        args.seed,
        args.chunk,
        args.out,
        args.players,
        args.options,
    )
    selfplay.check_threads(args.threads)
    total = len(plan.pairs) * plan.games
    print(
        f"ladder {plan.ruleset}: {len(plan.agents)} agents, {len(plan.pairs)} pairs x "
        f"{plan.games} games = {total} games (seed {plan.seed}) into {plan.out / RUNS}",
        file=sys.stderr,
    )
    from agents import policy

    slow = [a for a in plan.agents if policy.is_policy_name(a) or "mcts" in a]
    if slow:
        print(
            f"note: games of {', '.join(slow)} are slow (ppo: a Python loop with the policy "
            "on the CPU; mcts: a search at every decision), the others take seconds",
            file=sys.stderr,
        )
    if not play(plan, args.threads, progress=True):
        print(
            f"interrupted: finished chunks are kept. Resume with:\n  {plan.command()}",
            file=sys.stderr,
        )
        return 130
    result = analyse(plan)
    paths = write_report(plan, result)
    print(format_table(result))
    print(f"report: {paths['md']}  ({paths['json'].name}, {paths['png'].name})")
    return 0


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Register `ladder` on the `tacsim` command's subparsers (agents/cli.py PLUGINS)."""
    from agents.cli import add_option_argument, add_ruleset_argument

    p = subparsers.add_parser(
        "ladder",
        help="round robin of agents: win-rate matrix, ratings, Nash averaging",
        description="Every pair of the agents plays N games (each agent every seat, the same "
        "deals for every pair); writes OUT/ladder.md, ladder.json, ladder.png with the "
        "win-rate matrix, openskill ratings and the Nash-averaged skill. Rerun to resume.",
    )
    add_ruleset_argument(p)
    add_option_argument(p)
    p.add_argument(
        "--agents",
        required=True,
        help="comma-separated, at least two, distinct: the ruleset's in-kernel agents "
        "(e.g. random, heuristic) or ppo:PATH (a model written by `tacsim train`)",
    )
    p.add_argument(
        "--games", type=int, default=DEFAULT_GAMES, help=f"games per pair (default {DEFAULT_GAMES})"
    )
    p.add_argument("--players", type=int, default=PLAYERS, help="players per game (only 2)")
    p.add_argument("--seed", type=int, default=0, help="seed of every pair's games (default 0)")
    p.add_argument(
        "--out",
        type=Path,
        default=None,
        help="report folder (default reports/ladder/<ruleset>[-<option values>])",
    )
    p.add_argument("--threads", type=int, default=None, help="numba threads (default: all)")
    p.add_argument(
        "--chunk", type=int, default=None, help=f"games per record file (default {DEFAULT_CHUNK})"
    )
    p.set_defaults(func=cmd_ladder)
    return p
