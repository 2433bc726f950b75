"""Tactical Assault: Legendary Battles, version 0: the Fantasy Cards card game played on a
scenario's map of zones, on the Tactical Assault core (envs/tactical_assault/).

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over the
same numba kernels (envs/tactical_assault/kernels.py). Rules: docs/rules/legendary_battles.md
and docs/rules/fantasy_cards.md; data: configs/legendary_battles/ (maps, scenarios) and
configs/fantasy_cards/ (cards, unit types). Every clause of both docs is implemented (PLAYABLE).

Agents: `player_0` and `player_1`, the scenario's sides in order (Greywater Ford: the
Northmarch Host, the Fen Wardens; Crossroads of Hallin: the Village Watch, the Raiders; Siege
of the Ridge Fort: the Ridge Garrison, the Wyrm Legion).

Option (`options={...}`; envs/legendary_battles/ruleset.py): `scenario`, one of the rule
folder's scenarios in snake case: greywater_ford (default), crossroads_of_hallin,
siege_of_the_ridge_fort (oversized units: a dragon and a siege tower, LB R28). A scenario of your
own: its file's path (`options={"scenario": "my_siege.yaml"}`), or a copy of
configs/legendary_battles with it in scenarios/, passed as `config_dir`.

Decisions. Every choice is one AEC step by the player the rules ask: each unit type of a
force chosen by points (LB R23), each unit placed and its zone and facing, each card played
and the unit it goes on, each zone of a move, each attack's target, each play window's answer
(a Situation or pass), the end-of-turn discards, and the owner's picks between equal Fall Back
or move-out zones. A decision with one choice is still asked.

Actions: `Discrete(546)`: the Action, Situation or discard of each of the 72 cards, a unit slot,
a zone, a facing, pass and exit the map (envs/tactical_assault/actions.py). Observation:
`Dict(observation=Box(float32, 7009), action_mask=Box(int8, 546))`, layout in
envs/tactical_assault/observe.py; it holds only what that player may know: the opponent's hand
shows only its size and neither deck's order shows, not even to its owner (FC R34); forces
chosen by points stay hidden from the other side until deployment (LB R23).

Rewards, at the end of the game only: the winner +1, the loser -1, 0 each for a Draw, by the
scenario's end-of-game conditions. `infos` after every step: `points_eliminated_by_seat`,
`units_eliminated_by_seat`, `turn`; at the end also `score` (match points: 2 win, 1 draw,
0 loss), `winner` and `decisions`.

Rendering: render_mode "ansi" (the map with units and facings, statuses, my hand, the piles'
sizes, the cards being resolved); the ruleset's `render_image(S, me, b, path)` draws the
same as a PNG (envs/legendary_battles/render.py).
"""

from __future__ import annotations

from envs.core.aec import RulesetAECEnv, order_enforced
from envs.core.batch import RulesetBatchEnv
from envs.legendary_battles.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


class raw_env(RulesetAECEnv):  # noqa: N801 (PettingZoo naming)
    """One Legendary Battles game as a PettingZoo AECEnv (`options`: module docstring)."""

    metadata = {
        "render_modes": ["ansi", "human"],
        "name": NAME,
        "is_parallelizable": False,
    }
    ruleset_fn = staticmethod(ruleset)


def env(**kwargs) -> raw_env:
    """The AEC env with PettingZoo's order-enforcing wrapper (illegal actions still raise)."""
    return order_enforced(raw_env(**kwargs))


class BatchEnv(RulesetBatchEnv):
    """`num_envs` Legendary Battles games stepped together; see envs/core/batch.py."""

    ruleset_fn = staticmethod(ruleset)
