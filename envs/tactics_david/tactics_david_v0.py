"""Tactics David, version 0: a Deathmatch (TD-4.2) between two random legal armies (I12) on
one of the Battlefield Book's battlefields, cut after 30 Turns and then won on the Purchase
Cost left in play (I14; option turn_limit=unlimited for the open-ended Deathmatch). Every
clause of the rules doc is run (the registry calls it playable).

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over the
same numba kernels (envs/tactics_david/kernels.py). Rules: docs/rules/tactics_david.md;
data: configs/tactics_david/*.yaml.

Agents: `player_0` and `player_1` (seats 0 and 1).

Options (`options={...}`; envs/tactics_david/ruleset.py): `battlefield` random (default: drawn
per game), bramble_creek_crossing or deaths_highway; `turn_limit` 30 (default) or unlimited;
`army`, `stacks`, `items` (random armies buy Items, default), `army_building`, `turn_score`.

Decisions. Every choice is one AEC step by the player the rules ask: who takes the first Turn
(the roll-off winner), each unit deployed and its space, each unit Engaged (or the end of the
Turn), its Item Phase, Movement Phase (Movement, Charging, Facing, Escape Procedures), Combat
Phase (strike side, ranged target, Magical side), Item Phase 2, Item Acquisition and the
"may discard" choices. A decision whose only legal action is "end" is not asked.

Actions: `Discrete(639)`: Grid Spaces 0-307 (row * columns + column), army slots, facings,
strike and ranged sides, first player, charge, escape, end, use item, Statuses, trade slots,
Unit Types, the units and Items bought with army_building=players, Work Belt's second slots (envs/tactics_david/actions.py). Observation: `Dict(observation=Box(float32, N),
action_mask=Box(int8, 639))`, layout in envs/tactics_david/observe.py; it holds only what that
player may know (R54): the opponent's units in reserve and the Item Deck's order stay hidden.

Rewards, at the end of the game only: the winner +1, the loser -1, 0 each for a draw. `infos`
at the end hold `score` (the Purchase Cost of the player's units left in play), `winner` and
`decisions`. Render: "ansi" (text, envs/tactics_david/view.py) and a PNG
(`ruleset.render_image`: the battlefield with units, facings and Statuses).
"""

from __future__ import annotations

from envs.core.aec import RulesetAECEnv, order_enforced
from envs.core.batch import RulesetBatchEnv
from envs.tactics_david.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


class raw_env(RulesetAECEnv):  # noqa: N801 (PettingZoo naming)
    """One Tactics David game as a PettingZoo AECEnv (`options`: module docstring)."""

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
    """`num_envs` Tactics David games stepped together; see envs/core/batch.py."""

    ruleset_fn = staticmethod(ruleset)
