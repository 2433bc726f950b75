"""TAC - Tactical Armoured Combat, version 1.

A PettingZoo AEC environment (`env()`, `raw_env()`) and a batched API (`BatchEnv`) over
the same numba kernels. Rules: docs/rules/tac.md; data: configs/tac/*.yaml.

Agents: `player_0` .. `player_{P-1}`, P = `num_players` in 2..5.

Decisions. Every choice is one AEC step by one agent. The game opens with the deployment
(2.2): seat 0, then seat 1, ... places each of its dealt units in a row (one step per unit,
lowest slot first); nobody sees another player's rows until all have deployed, so deploying
in seat order is as good as deploying at once. Then, in the active player's turn: choosing
the Tactical Mode, each HQ card, each repositioning, each attack (a card and its target),
each purple card, each defence laid. In the Defence phase a single open defence that applies
absorbs by itself (4.4); when two or more open defences apply to one attack the defender
elects which one absorbs it (10.5; one of them must, and a face-down card cannot be revealed
instead); otherwise the defender decides, attack by attack, whether to reveal a face-down
defence (a defender holding any face-down card is always asked, so bluffs stay hidden). A
defender may play Damage Control from hand against an arty hit. Steps with a single possible
choice that only end a step are taken automatically. An Upgrade (4.2) replaces a unit by the
first strictly better unit (more victory points, no fewer hit points) from the top of its
pile, keeping its damage, and is legal only when the pile holds one: it never makes a unit
worse.

Actions: `Discrete(N_ACTIONS)`; the index layout is the table in envs/tac/actions.py.

Observation: `Dict(observation=Box(float32, observation_size(P)), action_mask=Box(int8, N))`,
layout in envs/tac/observe.py. It holds only what that player may know.

Rewards, at the end of the game only (11.2): the single winner +1 and every other player
-1; if two or more players are still tied after the tie-break (undamaged units), each of
them gets 0 and the rest -1. `infos` then holds each player's victory points.

Version history:
- v0: first release (fixed starting rows, lowest-slot open defence, Upgrade = pile top).
- v1: deployment stage, defender chooses among open defences, Upgrade never worse.
"""

from __future__ import annotations

from envs.core.aec import RulesetAECEnv, order_enforced
from envs.core.batch import RulesetBatchEnv
from envs.tac.ruleset import ENV_NAME, ruleset

NAME = ENV_NAME


class raw_env(RulesetAECEnv):  # noqa: N801 (PettingZoo naming)
    """One TAC game as a PettingZoo AECEnv. `config_dir` loads another set of TAC tables; TAC
    has no options (any is refused)."""

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
    """`num_envs` TAC games stepped together; see envs/core/batch.py for the arrays."""

    ruleset_fn = staticmethod(ruleset)
