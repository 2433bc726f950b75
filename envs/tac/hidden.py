"""What a TAC player cannot know: the contract's resample_hidden (envs/core/ruleset.py).

`resample_hidden(S, me, rng)` returns another one-game state that player `me` cannot tell
apart from S, as another deal consistent with everything public: other players' hands are
shuffled together with the draw pile (2.4: face down), other players' face-down defences
change type among black cards (10.8: the defender need not reveal them), the reinforcement
piles are reordered below their face-up top cards (2.1), during the deployment other
players' placed units move to other rows (2.2: hidden until all have deployed), and the dice and agent RNG states
change. The shared hidden-information test checks that `me`'s observation, action mask and
render do not change.
"""

from __future__ import annotations

import numpy as np

from envs.tac.state import DEF_FACE_DOWN, HAND_SLOTS, MAX_DEFENCES, MAX_TEAM, STAGE_DEPLOY
from envs.tac.tables import BLACK


def resample_hidden(S: np.ndarray, me: int, rng: np.random.Generator, tb) -> np.ndarray:
    """Another state that `me` cannot tell apart from S (S is one game, a batch of one)."""
    S = S.copy()
    P = int(S["num_players"][0])

    def _colour(card: int) -> int:
        return int(tb.card_type_colour[tb.card_type[card]])

    slots: list[tuple[str, tuple]] = []  # hand slots of others and the draw pile
    for q in range(P):
        if q == me:
            continue
        for h in range(HAND_SLOTS):
            if S["hand"][0, q, h] >= 0:
                slots.append(("hand", (0, q, h)))
    for i in range(int(S["draw_count"][0])):
        slots.append(("draw", (0, i)))
    face_down = [
        (0, q, d)
        for q in range(P)
        if q != me
        for d in range(MAX_DEFENCES)
        if S["defence_state"][0, q, d] == DEF_FACE_DOWN and not S["defence_revealed"][0, q, d]
    ]
    cards = [int(S[f][i]) for f, i in slots] + [int(S["defence_card"][i]) for i in face_down]
    rng.shuffle(cards)
    # face-down defences take black cards (any of them: their type is hidden), the rest of
    # the pool fills the hands and the draw pile in a new order
    for i in face_down:
        j = next(k for k, c in enumerate(cards) if _colour(c) == BLACK)
        S["defence_card"][i] = cards.pop(j)
    for (f, i), c in zip(slots, cards, strict=True):
        S[f][i] = c
    for cat in range(2):  # reinforcement piles: only the top card is face up (2.1)
        n = int(S["pile_count"][0, cat])
        if n > 2:
            S["pile"][0, cat, : n - 1] = rng.permutation(S["pile"][0, cat, : n - 1])
    if int(S["stage"][0]) == STAGE_DEPLOY:
        resample_deployment(S, me, rng)
    S["rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    S["agent_rng"][0] = rng.integers(1, 2**63, size=2, dtype=np.uint64)
    return S


def resample_deployment(S: np.ndarray, me: int, rng: np.random.Generator) -> None:
    """In place: every other player's deployed units go to other rows (2.2: hidden until all
    have deployed); a seat that has finished keeps compact rows."""
    P = int(S["num_players"][0])
    for q in range(P):
        if q == me:
            continue
        placed = [
            t for t in range(MAX_TEAM) if S["team_type"][0, q, t] >= 0 and S["deployed"][0, q, t]
        ]
        if not placed:
            continue
        rows = rng.integers(0, 3, size=len(placed))
        if q != int(S["current"][0]):  # finished: its rows are compact
            rows = np.unique(rows, return_inverse=True)[1]
        S["team_row"][0, q, placed] = rows
