"""Deck statistics for the rules doc (docs/rules/fantasy_cards.md, Invented I5).

Everything here is computed from the loaded tables, so the numbers in the doc follow the
data: `python -m envs.fantasy_cards.deck_stats` prints the markdown block that the doc
holds between the `deck-stats` markers, and a test checks that the two agree.
"""

from __future__ import annotations

from math import comb

import numpy as np

from envs.fantasy_cards.tables import (
    CONDITIONS,
    PART_ACTION,
    PART_SITUATION,
    Tables,
    load_tables,
)

BEGIN_MARK = "<!-- deck-stats:begin -->"
END_MARK = "<!-- deck-stats:end -->"

# Actions that only remove a status do not activate a unit (they need it Shaken / Out Of Action).
STATUS_CONDITIONS = (CONDITIONS.index("shaken"), CONDITIONS.index("out_of_action"))


def result_counts(t: Tables) -> np.ndarray:
    """How many cards of the deck carry each Combat Result (index = Table 6 rank)."""
    return np.bincount(t.card_result, minlength=len(t.result_names))


def shifted_result_probabilities(t: Tables, shift: int) -> np.ndarray:
    """Chance of each final Combat Result for a net shift (Step Up = +1), ends clamped (R3)."""
    top = len(t.result_names) - 1
    final = np.clip(t.card_result.astype(np.int64) + shift, 0, top)
    return np.bincount(final, minlength=top + 1) / len(t.card_result)


def prob_hand_holds(k: int, hand_size: int, deck_size: int) -> float:
    """Chance that `hand_size` cards drawn from `deck_size` include one of `k` given cards."""
    return 1.0 - comb(deck_size - k, hand_size) / comb(deck_size, hand_size)


def activating_action_cards(t: Tables) -> np.ndarray:
    """Per unit type: cards whose Action may be played on it, status removers excluded."""
    plays = t.card_action
    ok = t.play_on[plays] & ~np.isin(t.play_condition[plays], STATUS_CONDITIONS)[:, None]
    return ok.sum(axis=0)


def situation_cards(t: Tables) -> np.ndarray:
    """Per unit type: cards whose Situation may be played on it."""
    return t.play_on[t.card_situation].sum(axis=0)


def frequency_markdown(t: Tables) -> str:
    """The doc's statistics block (combat results, Actions and Situations, hand odds)."""
    n = len(t.card_result)
    hand = t.standard_game.hand_size
    counts = result_counts(t)
    out = [
        "Combat Results on the cards, and the final result for a net shift "
        "(Step Up = +1, clamped at the ends of the scale):",
        "",
        "| Combat Result | Cards | Shift -2 | Shift -1 | Shift 0 | Shift +1 | Shift +2 |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    shifted = {s: shifted_result_probabilities(t, s) for s in range(-2, 3)}
    for code, name in enumerate(t.result_names):
        cells = " | ".join(f"{shifted[s][code]:.3f}" for s in range(-2, 3))
        out.append(f"| {name} | {counts[code]} | {cells} |")
    for part, label, column in (
        (PART_ACTION, "Action", t.card_action),
        (PART_SITUATION, "Situation", t.card_situation),
    ):
        out += ["", f"| {label} | Cards | P(in a {hand}-card hand) |", "| --- | --- | --- |"]
        per_play = np.bincount(column, minlength=len(t.play_names))
        for p, name in enumerate(t.play_names):
            if t.play_part[p] == part:
                k = int(per_play[p])
                out.append(f"| {name} | {k} | {prob_hand_holds(k, hand, n):.3f} |")
    acts = activating_action_cards(t)
    sits = situation_cards(t)
    out += [
        "",
        f"Per unit type: cards whose Action activates it (Recover and Back In Action not "
        f"counted), cards whose Situation it may take, and the chance that a {hand}-card hand "
        f"holds at least one of each:",
        "",
        "| Unit type | Action cards | P(Action in hand) | Situation cards | P(Situation in hand) |",
        "| --- | --- | --- | --- | --- |",
    ]
    for u, name in enumerate(t.unit_type_names):
        a, s = int(acts[u]), int(sits[u])
        out.append(
            f"| {name} | {a} | {prob_hand_holds(a, hand, n):.3f} | {s} | "
            f"{prob_hand_holds(s, hand, n):.3f} |"
        )
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    print(BEGIN_MARK)
    print(frequency_markdown(load_tables()), end="")
    print(END_MARK)
