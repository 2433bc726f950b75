"""A two-player Fantasy Cards campaign (FC PART VII) as ONE PettingZoo AEC episode: the env
option ``fantasy_cards_v0.env(campaign=...)`` (readings R37, R46-R49).

The episode, in order (every decision an AEC step of the player the rules ask):

1. the force (FC-7.4, R46): player_0, then player_1, choose their campaign force with the
   Standard Game's own force choice (STAGE_CHOOSE_FORCE: ``A_UNIT + t`` adds a unit of Table 3
   type t, ``A_PASS`` ends the force once it holds a unit), on the campaign's first battlefield;
   the other's choice stays hidden (LB R23);
2. each game: an ordinary Standard Game on the core's kernels (campaign.GameRun) on a new
   tables record (campaign.game_record): the drawn battlefield (FC-7.1/7.5, or the fixed
   sequence, FC-7.9), seats drawn, both forces at full strength; the game's own actions;
3. after each game, the player at seat 0 then the one at seat 1 spend their Campaign Points
   (FC-7.6/7.7, R39) a step at a time: ``C_AWARD`` buys a Promotion Award, ``C_OUT + t`` swaps
   out a unit of type t, ``C_IN + t`` swaps in a unit of type t, ``C_DONE`` ends the spending
   (campaign.SpendDraft says what is legal, campaign.apply_spend applies it);
4. after the last spending the campaign ends: the most Promotion Awards wins (FC-7.8, R40).

Actions: ``Discrete(N_CAMPAIGN_ACTIONS)``, the core's 546 actions then the spending's 42.
Observation: ``Dict(observation=Box(float32, game part + CAMPAIGN_OBS), action_mask)``: the
core's observation of the game being played (or of the force choice) from my seat, all zero
while spending, then the campaign block (``O_*`` below): what I may know of the campaign.

Rewards (R47): 0 at every game's end (``infos[agent]["last_game"]`` holds that game's result
and the Campaign Points it gave); at the campaign's end +1 to the player with more Promotion
Awards, -1 to the other, 0 each when equal.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv

from envs.fantasy_cards import campaign as cp
from envs.fantasy_cards import tabletop as tt
from envs.fantasy_cards.tables import FC_CONFIG, load_tables
from envs.tactical_assault.actions import (
    N_ACTIONS,
    STAGE_CHOOSE_FORCE,
    describe,
)
from envs.tactical_assault.observe import observation_size
from envs.tactical_assault.state import N_UNIT_TYPES

# --- the campaign's actions, after the core's ---------------------------------------------
C_AWARD = N_ACTIONS  # buy a Promotion Award (3 Campaign Points)
C_OUT = C_AWARD + 1  # + t: swap out a unit of Table 3 type t (1 point per unit point, R48)
C_IN = C_OUT + N_UNIT_TYPES  # + t: swap in a unit of type t (worth what is still unmatched)
C_DONE = C_IN + N_UNIT_TYPES  # end the spending; points left lapse (R39)
N_CAMPAIGN_ACTIONS = C_DONE + 1  # 588

# --- the campaign block of the observation (after the core's observation) -----------------
T = N_UNIT_TYPES
O_SPENDING = 0  # 1: I am asked to spend Campaign Points now
O_CHOOSING = 1  # 1: forces are being chosen (the game part is the choice, LB R23)
O_FORCE = 2  # [T] my campaign force: units of each type (before the spending being drafted)
O_POINTS = O_FORCE + T  # Campaign Points I earned in the game just played (while spending)
O_LEFT = O_POINTS + 1  # ... of them not yet spent
O_UNMATCHED = O_LEFT + 1  # unit points swapped out and not yet swapped in
O_PROMOTIONS = O_UNMATCHED + 1  # Promotion Awards bought in this spending so far
O_SWAP_OUT = O_PROMOTIONS + 1  # [T] units of each type swapped out in this spending
O_SWAP_IN = O_SWAP_OUT + T  # [T] units of each type swapped in
O_AWARDS = O_SWAP_IN + T  # [2] Promotion Awards: mine, the opponent's as of the last game
#                             whose spendings are all done (R48: spendings are unseen)
O_GAMES = O_AWARDS + 2  # [2] games played, games left
O_SEAT = O_GAMES + 2  # my seat in the game being played (or just played)
CAMPAIGN_OBS = O_SEAT + 1

PHASE_FORCE, PHASE_GAME, PHASE_SPEND, PHASE_OVER = "force", "game", "spend", "over"


def describe_action(a: int) -> str:
    """A human-readable name of campaign-env action a."""
    if 0 <= a < N_ACTIONS:
        return describe(a)
    if a == C_AWARD:
        return "buy a Promotion Award"
    if C_OUT <= a < C_IN:
        return f"swap out unit type {a - C_OUT}"
    if C_IN <= a < C_DONE:
        return f"swap in unit type {a - C_IN}"
    if a == C_DONE:
        return "done spending"
    return f"action {a} (outside 0..{N_CAMPAIGN_ACTIONS - 1})"


class CampaignEnv(AECEnv):
    """A two-player campaign as one AEC episode (module docstring). `campaign`: a number of
    games, a mapping (`games`, `battlefields`, or `sequence`) or a campaign.CampaignSpec;
    `config_dir`: another rule folder (configs/fantasy_cards layout), whose battlefield.yaml
    is then the default battlefield."""

    metadata: dict[str, Any] = {
        "render_modes": ["ansi", "human"],
        "name": "fantasy_cards_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        campaign: Any,
        num_players: int = 2,
        render_mode: str | None = None,
        illegal_action: str = "raise",
        config_dir: str | Path | None = None,
    ):
        super().__init__()
        if num_players != 2:
            raise ValueError(
                f"a campaign env is two players (R49; run_campaign pairs more), got {num_players}"
            )
        if illegal_action != "raise":
            raise ValueError(f"a campaign env raises on illegal actions, got {illegal_action!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(
                f"render_mode must be one of {self.metadata['render_modes']} or None, "
                f"got {render_mode!r}"
            )
        folder = Path(config_dir) if config_dir is not None else FC_CONFIG
        default = folder / "battlefield.yaml"
        self.spec = cp.CampaignSpec.from_option(campaign, default)
        self.fc = load_tables(folder)
        self.allowed = int(self.fc.standard_game.unit_points)
        for p in self.spec.sequence or self.spec.battlefields:
            cp.choice_record(p, self.allowed, self.fc)  # a bad battlefield: ValueError now
        self.render_mode = render_mode
        self.possible_agents = ["player_0", "player_1"]
        self.agent_name_mapping = {a: i for i, a in enumerate(self.possible_agents)}
        self._game_obs = observation_size()
        size = self._game_obs + CAMPAIGN_OBS
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, np.inf, shape=(size,), dtype=np.float32),
                "action_mask": spaces.Box(0, 1, shape=(N_CAMPAIGN_ACTIONS,), dtype=np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(N_CAMPAIGN_ACTIONS) for a in self.possible_agents}
        self._names: dict[Path, str] = {}

    # PettingZoo API -------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new campaign; `seed` draws it all (battlefields, seats, every game)."""
        if seed is not None:
            if not isinstance(seed, (int, np.integer)) or seed < 0:
                raise ValueError(f"seed must be a non-negative integer, got {seed!r}")
            self._seed = int(seed)
        else:
            self._seed = int(np.random.SeedSequence().generate_state(1)[0])
        self._draws = cp.campaign_draws(self._seed)
        self.result = cp.CampaignResult(forces=[[], []], awards=[0, 0], earned=[0, 0])
        self._public_awards = [0, 0]  # awards once both spendings of a game are done (R48)
        self.games_played = 0
        self.order = [0, 1]  # player at seat 0, at seat 1 of the current game
        self.draft: cp.SpendDraft | None = None
        self._spenders: list[int] = []
        self._last_game: dict | None = None
        self.phase = PHASE_FORCE
        rec = cp.choice_record(self.spec.first_battlefield, self.allowed, self.fc)
        self.game = cp.GameRun(rec, cp.game_seed(self._seed, 0))
        self.battlefield = self.spec.first_battlefield
        self.agents = list(self.possible_agents)
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self._update()

    @property
    def current_player(self) -> int:
        """The campaign player (0 or 1) asked now."""
        if self.phase == PHASE_SPEND:
            return self._spenders[0]
        if self.phase == PHASE_FORCE:
            return self.game.current  # choosing: player i chooses as seat i
        return self.order[self.game.current]

    def seat_of(self, player: int) -> int:
        """The player's seat: in the force choice its own number (R46), else in the game
        being played (or just played)."""
        return player if self.phase == PHASE_FORCE else self.order.index(player)

    def legal(self) -> np.ndarray:
        """The legal actions of the decision asked now (empty once the campaign is over)."""
        if self.phase in (PHASE_FORCE, PHASE_GAME):
            return self.game.legal()
        if self.phase == PHASE_OVER:
            return np.zeros(0, dtype=np.int64)
        d, fc = self.draft, self.fc
        out = [C_AWARD] if d.can_award(fc) else []
        names = fc.unit_type_names
        out += [C_OUT + t for t, n in enumerate(names) if d.can_swap_out(n, fc)]
        out += [C_IN + t for t, n in enumerate(names) if d.can_swap_in(n, fc)]
        if d.can_finish(fc):
            out.append(C_DONE)
        return np.array(out, dtype=np.int64)

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        me = self.agent_name_mapping[agent]
        obs = np.zeros(self._game_obs + CAMPAIGN_OBS, dtype=np.float32)
        if self.phase in (PHASE_FORCE, PHASE_GAME):
            self.game.observe(self.seat_of(me), obs[: self._game_obs])
        c = obs[self._game_obs :]
        fc = self.fc
        c[O_CHOOSING] = self.phase == PHASE_FORCE
        for n in self.result.forces[me]:
            c[O_FORCE + fc.unit_type_index[n]] += 1
        if self.phase == PHASE_SPEND and self._spenders[0] == me:
            d = self.draft
            c[O_SPENDING] = 1
            c[O_POINTS] = d.points
            c[O_LEFT] = d.left(fc)
            c[O_UNMATCHED] = d.unmatched(fc)
            c[O_PROMOTIONS] = d.promotions
            for n in d.swap_out:
                c[O_SWAP_OUT + fc.unit_type_index[n]] += 1
            for n in d.swap_in:
                c[O_SWAP_IN + fc.unit_type_index[n]] += 1
        c[O_AWARDS] = self.result.awards[me]
        c[O_AWARDS + 1] = self._public_awards[1 - me]
        c[O_GAMES] = self.games_played
        c[O_GAMES + 1] = self.spec.games - self.games_played
        c[O_SEAT] = self.seat_of(me)
        mask = np.zeros(N_CAMPAIGN_ACTIONS, dtype=np.int8)
        if agent == self.agent_selection and not self.terminations.get(agent, True):
            mask[self.legal()] = 1
        return {"observation": obs, "action_mask": mask}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if action is None or isinstance(action, bool) or not isinstance(action, (int, np.integer)):
            raise ValueError(f"{agent}: action must be an integer, got {action!r}")
        a = int(action)
        legal = self.legal()
        if a not in legal:
            raise ValueError(
                f"fantasy_cards campaign: {agent}: {describe_action(a)} is illegal in "
                f"decision '{self.decision_name()}' ({len(legal)} legal actions); nothing was "
                "changed"
            )
        self._cumulative_rewards[agent] = 0.0
        for a_ in self.agents:
            self.rewards[a_] = 0.0
        if self.phase == PHASE_SPEND:
            self._spend_step(a)
        else:
            self.game.step(a)
            if self.phase == PHASE_FORCE and self.game.stage != STAGE_CHOOSE_FORCE:
                self.result.forces = [
                    cp.check_force(i, self.game.force(i, self.fc), self.allowed, self.fc)
                    for i in range(2)
                ]
                self._start_game()
            elif self.phase == PHASE_GAME and self.game.over:
                self._end_game()
        self._update()
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    # the campaign between games ------------------------------------------------------------
    def _start_game(self) -> None:
        """Draw the next game (FC-7.5) and set it up with both forces at full strength."""
        g = self.games_played
        self.battlefield, self.order = cp.draw_round(self._draws, self.spec, g, 2)
        forces = [self.result.forces[p] for p in self.order]
        self.game = cp.GameRun(
            cp.game_record(self.battlefield, forces, self.fc), cp.game_seed(self._seed, g)
        )
        self.phase = PHASE_GAME

    def _name(self, path: Path) -> str:
        if path not in self._names:
            self._names[path] = tt.load_battlefield(path).name
        return self._names[path]

    def _end_game(self) -> None:
        """The game's Campaign Points (FC-7.6), then the spending, seat 0's player first."""
        w = self.game.winner
        pts = cp.campaign_points(w, self.fc)
        a, b = self.order
        win = -1 if w < 0 else self.order[w]
        self.result.games.append((self.games_played, self._name(self.battlefield), a, b, win))
        self._last_game = {
            "game": self.games_played,
            "battlefield": self._name(self.battlefield),
            "players_by_seat": [a, b],
            "winner": win,
            "campaign_points": [pts[self.order.index(p)] for p in range(2)],
        }
        self.games_played += 1
        self._points = {a: pts[0], b: pts[1]}
        for p in range(2):
            self.result.earned[p] += self._points[p]
        self._spenders = [a, b]
        self._begin_spend()

    def _begin_spend(self) -> None:
        p = self._spenders[0]
        self.draft = cp.SpendDraft(self._points[p], list(self.result.forces[p]))
        self.phase = PHASE_SPEND

    def _spend_step(self, a: int) -> None:
        d, names = self.draft, self.fc.unit_type_names
        if a == C_AWARD:
            d.promotions += 1
        elif C_OUT <= a < C_IN:
            d.swap_out.append(names[a - C_OUT])
        elif C_IN <= a < C_DONE:
            d.swap_in.append(names[a - C_IN])
        else:  # C_DONE: the one implementation of the spending rules applies it (R39)
            p = self._spenders.pop(0)
            got, self.result.forces[p] = cp.apply_spend(
                d.points, d.force, d.spend(), self.fc, self.allowed
            )
            self.result.awards[p] += got
            self.draft = None
            if not self._spenders:
                self._public_awards = list(self.result.awards)
            if self._spenders:
                self._begin_spend()
            elif self.games_played < self.spec.games:
                self._start_game()
            else:
                self._end_campaign()

    def _end_campaign(self) -> None:
        """FC-7.8, R40: the most Promotion Awards wins; equal awards share it (0 each)."""
        self.phase = PHASE_OVER
        self.result.winners = cp.winners(self.result.awards)
        for i, a_ in enumerate(self.agents):
            self.terminations[a_] = True
            if len(self.result.winners) == 1:
                self.rewards[a_] = 1.0 if self.result.winners[0] == i else -1.0

    def _update(self) -> None:
        """agent_selection and infos after reset or a step."""
        if self.phase != PHASE_OVER:
            self.agent_selection = self.possible_agents[self.current_player]
        self.infos = {}
        for i, a_ in enumerate(self.possible_agents):
            info: dict[str, Any] = {
                "phase": self.phase,
                "games_played": self.games_played,
                "awards": list(self._public_awards),
            }
            if self.phase == PHASE_GAME:
                from envs.tactical_assault.ruleset import step_info

                info.update(step_info(self.game.S, 0, self.seat_of(i)))
                info["seat"] = self.seat_of(i)
            if self._last_game is not None:
                info["last_game"] = dict(self._last_game)
            if self.phase == PHASE_OVER:
                info["winners"] = list(self.result.winners)
                info["earned"] = list(self.result.earned)
            self.infos[a_] = info

    def decision_name(self) -> str:
        who = f"player_{self.current_player}" if self.phase != PHASE_OVER else "nobody"
        if self.phase == PHASE_SPEND:
            return f"campaign: spend Campaign Points by {who}"
        if self.phase == PHASE_OVER:
            return "campaign over"
        from envs.tactical_assault.ruleset import decision_name

        return f"{'campaign force: ' if self.phase == PHASE_FORCE else ''}{decision_name(self.game.S, 0)}"

    def render(self) -> str | None:
        if self.render_mode is None:
            import gymnasium

            gymnasium.logger.warn("render() called without a render_mode; pass render_mode='ansi'")
            return None
        me = self.agent_name_mapping[self.agent_selection]
        r = self.result
        lines = [
            f"campaign: game {self.games_played + (self.phase == PHASE_GAME)} of "
            f"{self.spec.games} ({self._name(self.battlefield)}), {self.decision_name()}",
            f"Promotion Awards: mine {r.awards[me]}, the opponent's "
            f"{self._public_awards[1 - me]}; "
            f"my force: {', '.join(r.forces[me]) or '(being chosen)'}",
        ]
        if self.draft is not None and self._spenders[0] == me:
            d = self.draft
            lines.append(
                f"spending {d.points} Campaign Points: {d.left(self.fc)} left, "
                f"{d.promotions} awards, out {list(d.swap_out)}, in {list(d.swap_in)}"
            )
        if self.phase in (PHASE_FORCE, PHASE_GAME):
            from envs.fantasy_cards.view import TabletopView, render_text

            view = TabletopView.load(self.battlefield)
            lines.append(render_text(view, self.game.S, self.seat_of(me), 0))
        text = "\n".join(lines)
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    def state(self) -> np.ndarray:
        """The current game's full state (a copy of the one-game record)."""
        return self.game.S.copy()
