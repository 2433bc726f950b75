"""Tactical Assault: Fantasy Cards, version 0: the Standard Game (FC PART VI) on the 16 x 16
tabletop (reading R28), on the Tactical Assault core (envs/tactical_assault/).

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over the
same numba kernels (envs/tactical_assault/kernels.py, shared with Legendary Battles). Rules:
docs/rules/fantasy_cards.md; data: configs/fantasy_cards/ (cards, unit types, the Standard
Game, the battlefield). Every clause of the doc is implemented (PLAYABLE).

Agents: `player_0` and `player_1`. One option, of the AEC env only: `campaign` (FC PART VII,
reading R37): `env(campaign=3)` (or `env(options={"campaign": "3"})`) is a two-player campaign
of 3 linked Standard Games as ONE episode, its force choice and Campaign Point spending being
decisions of the env (envs/fantasy_cards/campaign_env.py; `campaign` may also be a mapping
with `games` and `battlefields`, or `sequence`, battlefield files). A battlefield of your own: a copy of
configs/fantasy_cards with your battlefield.yaml, passed as `config_dir`
(envs/fantasy_cards/ruleset.py).

Decisions. Every choice is one AEC step by the player the rules ask: each unit type of the
36-point force (FC "Select The Units"), each unit placed and its cell and facing, each card
played and the unit it goes on, each step of a move, each attack's target, each play window's
answer (a Situation or pass) and the end-of-turn discards. A decision with one choice is still
asked.

Actions: `Discrete(546)`: the Action, Situation or discard of each of the 72 cards, a unit
slot, a position, a facing, pass and exit (envs/tactical_assault/actions.py). Observation:
`Dict(observation=Box(float32, 7009), action_mask=Box(int8, 546))`, layout in
envs/tactical_assault/observe.py; it holds only what that player may know: the opponent's hand
shows only its size and neither deck's order shows (FC R34); the other side's chosen units
stay hidden until deployment.

Rewards, at the end of the game only: the winner +1, the loser -1, 0 each for a Draw, by the
Standard Game's victory conditions. `infos` after every step: `points_eliminated_by_seat`,
`units_eliminated_by_seat`, `turn`; at the end also `score` (match points: 2 win, 1 draw,
0 loss), `winner` and `decisions`.

Rendering: render_mode "ansi" (the tabletop with units and facings, statuses, my hand, the
piles' sizes, the cards being resolved); the ruleset's `render_image(S, me, b, path)` draws
the same as a PNG (envs/fantasy_cards/view.py, over Legendary Battles' map renderer).
"""

from __future__ import annotations

from envs.core.aec import RulesetAECEnv, order_enforced
from envs.core.batch import RulesetBatchEnv
from envs.fantasy_cards.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


class raw_env(RulesetAECEnv):  # noqa: N801 (PettingZoo naming)
    """One Fantasy Cards game (the Standard Game) as a PettingZoo AECEnv."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
    }
    ruleset_fn = staticmethod(ruleset)


def env(campaign=None, **kwargs):
    """The AEC env with PettingZoo's order-enforcing wrapper (illegal actions still raise).
    `campaign` (or `options={"campaign": N}`): the whole two-player campaign as one episode
    (campaign_env.CampaignEnv, R37)."""
    options = dict(kwargs.pop("options", None) or {})
    if "campaign" in options:
        if campaign is not None:
            raise ValueError("campaign given twice (as campaign= and in options)")
        campaign = options.pop("campaign")
    if campaign is not None:
        from envs.fantasy_cards.campaign_env import CampaignEnv

        ruleset(kwargs.get("config_dir"), options)  # the other options, checked as ever
        return order_enforced(CampaignEnv(campaign, **kwargs))
    return order_enforced(raw_env(options=options or None, **kwargs))


class BatchEnv(RulesetBatchEnv):
    """`num_envs` Fantasy Cards games stepped together; see envs/core/batch.py."""

    ruleset_fn = staticmethod(ruleset)
