"""TACTICA, version 0: the rebuilt basic game and the seed's advanced game, one battle or a
whole war of three battles.

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over the
same numba kernels (envs/tactica/kernels.py). Rules: docs/rules/tactica.md; data:
configs/tactica/*.yaml.

Agents: `player_0` and `player_1` (the rules doc's seats 1 and 2).

Options (`options={...}`; envs/tactica/ruleset.py): `game` advanced (default) or basic;
`episode` war (default: three battles in which LOST cards and spires persist, TT-B.9) or
battle (the First Battle alone); `armies` standard (default) or varied (balance runs).

Decisions. Every choice is one AEC step by the player the rules ask: the first player and
each wall, landmark and spire placed at deployment (TT-B.6), surrender or fight on, each
decree, each card drawn in Recruitment, each muster action and where it goes, each move and
its end hex, each attack, joined troop, card window answer, rescue, and each discard
(TT-B.7). Decisions with a single choice are still asked (a pass is a choice).

Actions: `Discrete(127)`: hexes 0-98 (row * 9 + column), draw-card names 99-110, the two
piles, the two faces, the six decrees, the sacrifices, pass and surrender (envs/tactica/
actions.py). Observation: `Dict(observation=Box(float32, 5199), action_mask=Box(int8, 127))`,
layout in envs/tactica/observe.py; it holds only what that player may know: the opponent's
Barracks and both piles' orders stay hidden.

Rewards, at the end of the episode only: the war's winner +1, the loser -1, 0 each for a
drawn war (TT-B.9.1). After every step `infos` holds the war so far: `battle`,
`battle_results`, `battle_rewards` (this player's +1 / -1 / 0 per finished battle) and
`war_points_by_seat`; at the end also `score` and `war_points` (this player's war points),
`winner` and `decisions`.
"""

from __future__ import annotations

from envs.core.aec import RulesetAECEnv, order_enforced
from envs.core.batch import RulesetBatchEnv
from envs.tactica.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


class raw_env(RulesetAECEnv):  # noqa: N801 (PettingZoo naming)
    """One TACTICA war (or battle) as a PettingZoo AECEnv (`options`: module docstring)."""

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
    """`num_envs` TACTICA games stepped together; see envs/core/batch.py for the arrays."""

    ruleset_fn = staticmethod(ruleset)
