"""The flat TAC action space: one Discrete(N_ACTIONS), a mask per decision.

Opponents are named relative to the acting seat: opponent o (0-based) is seat
(me + 1 + o) % P, so the same index means "the next player" at every seat.

| first index            | count       | action                                        | decision |
|------------------------|-------------|-----------------------------------------------|----------|
| A_DEPLOY               | 3           | place the next unit in row +0..+2 (2.2)       | deploy   |
| A_MODE                 | 2           | +0 Static, +1 Mobile (2.3, 4.2)               | mode     |
| A_REINFORCE            | 2           | Reinforcements: +0 tank pile, +1 light pile   | HQ       |
| A_REPAIR               | T           | Damage Control / Repair on own slot           | HQ       |
| A_UPGRADE              | T           | Upgrade own slot from its pile                | HQ       |
| A_HQ_DONE              | 1           | no more HQ cards                              | HQ       |
| A_FORWARD              | T           | Static: slot one row toward the enemy         | reposition |
| A_BACK                 | T           | Static: slot one row away from the enemy      | reposition |
| A_PLACE                | T*3         | Mobile: slot*3+row                            | reposition |
| A_REPOSITION_DONE      | 1           |                                               | reposition |
| A_ATTACK               | H*O*T       | play hand card h on opponent o's slot: (h*O+o)*T+slot | attack   |
| A_ARTY                 | O*T         | arty attack on opponent o's slot: o*T+slot    | attack   |
| A_PURPLE               | H*A         | purple card h on declared attack k: h*A+k     | attack   |
| A_ATTACK_DONE          | 1           | end the Attack phase                          | attack   |
| A_DEFEND               | D           | absorb the attack with own defence slot d     | defence, open defence |
| A_NO_DEFENCE           | 1           | take the attack                               | defence  |
| A_DAMAGE_CONTROL       | 2           | +0 play Damage Control from hand, +1 decline  | damage control |
| A_LAY                  | H*3*2       | lay hand card h on row r: (h*3+r)*2+face_down | ending   |
| A_END_TURN             | 1           | end the turn, refill the hand                 | ending   |

In the deploy decision the unit placed is the player's lowest slot not yet deployed. In the
defence decision A_DEFEND names a face-down defence to reveal; in the open-defence decision
(several open defences apply, 10.5) it names the open defence that absorbs the attack.

T = MAX_TEAM slots, H = HAND_SLOTS, O = N_OPPONENTS (MAX_PLAYERS - 1), A = MAX_ATTACKS,
D = MAX_DEFENCES.
"""

from __future__ import annotations

from envs.tac.state import HAND_SLOTS, MAX_ATTACKS, MAX_DEFENCES, MAX_PLAYERS, MAX_TEAM, N_ROWS

T, H, A, D = MAX_TEAM, HAND_SLOTS, MAX_ATTACKS, MAX_DEFENCES
N_OPPONENTS = MAX_PLAYERS - 1

A_DEPLOY = 0
A_MODE = A_DEPLOY + N_ROWS
A_REINFORCE = A_MODE + 2
A_REPAIR = A_REINFORCE + 2
A_UPGRADE = A_REPAIR + T
A_HQ_DONE = A_UPGRADE + T
A_FORWARD = A_HQ_DONE + 1
A_BACK = A_FORWARD + T
A_PLACE = A_BACK + T
A_REPOSITION_DONE = A_PLACE + T * N_ROWS
A_ATTACK = A_REPOSITION_DONE + 1
A_ARTY = A_ATTACK + H * N_OPPONENTS * T
A_PURPLE = A_ARTY + N_OPPONENTS * T
A_ATTACK_DONE = A_PURPLE + H * A
A_DEFEND = A_ATTACK_DONE + 1
A_NO_DEFENCE = A_DEFEND + D
A_DAMAGE_CONTROL = A_NO_DEFENCE + 1
A_LAY = A_DAMAGE_CONTROL + 2
A_END_TURN = A_LAY + H * N_ROWS * 2
N_ACTIONS = A_END_TURN + 1


def describe(action: int) -> str:
    """Human-readable name of an action index (for errors and logs)."""
    a = int(action)
    if not 0 <= a < N_ACTIONS:
        return f"action {a} (outside 0..{N_ACTIONS - 1})"
    spans = [
        (A_DEPLOY, N_ROWS, lambda i: f"deploy the next unit in row {i}"),
        (A_MODE, 2, lambda i: f"mode {'Static' if i == 0 else 'Mobile'}"),
        (A_REINFORCE, 2, lambda i: f"reinforce from the {'tank' if i == 0 else 'light'} pile"),
        (A_REPAIR, T, lambda i: f"repair slot {i}"),
        (A_UPGRADE, T, lambda i: f"upgrade slot {i}"),
        (A_HQ_DONE, 1, lambda i: "done with HQ cards"),
        (A_FORWARD, T, lambda i: f"move slot {i} forward"),
        (A_BACK, T, lambda i: f"move slot {i} back"),
        (A_PLACE, T * N_ROWS, lambda i: f"place slot {i // N_ROWS} in row {i % N_ROWS}"),
        (A_REPOSITION_DONE, 1, lambda i: "done repositioning"),
        (
            A_ATTACK,
            H * N_OPPONENTS * T,
            lambda i: (
                f"play hand card {i // (N_OPPONENTS * T)} on opponent {(i // T) % N_OPPONENTS} slot {i % T}"
            ),
        ),
        (A_ARTY, N_OPPONENTS * T, lambda i: f"arty attack on opponent {i // T} slot {i % T}"),
        (A_PURPLE, H * A, lambda i: f"purple hand card {i // A} on attack {i % A}"),
        (A_ATTACK_DONE, 1, lambda i: "end the Attack phase"),
        (A_DEFEND, D, lambda i: f"absorb with defence {i}"),
        (A_NO_DEFENCE, 1, lambda i: "no defence"),
        (
            A_DAMAGE_CONTROL,
            2,
            lambda i: "play Damage Control" if i == 0 else "decline Damage Control",
        ),
        (
            A_LAY,
            H * N_ROWS * 2,
            lambda i: (
                f"lay hand card {i // 6} on row {(i // 2) % 3} face-{'down' if i % 2 else 'up'}"
            ),
        ),
        (A_END_TURN, 1, lambda i: "end the turn"),
    ]
    for start, count, fmt in spans:
        if start <= a < start + count:
            return f"action {a} ({fmt(a - start)})"
    raise AssertionError("unreachable")
