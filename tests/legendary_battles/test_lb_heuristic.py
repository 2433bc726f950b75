"""The Tactical Assault heuristic plays the scenario's plan (agents/tactical_assault/heuristic.py,
issue 7): each test builds a position of a shipped scenario by hand and checks the heuristic's
choice (heuristic_from_legal over a legal list written out), where the rule it tests makes the
difference (the choice before it is named in each test).

Crossroads of Hallin (10 x 10, zone (c, r) = r * 10 + c): the Raiders, seat 1, hold (4, 4),
(5, 4), (4, 5) and (5, 5) at the turn limit; they deploy in rows 8-9, so (4, 4) and (5, 4) are
the deeper zones. Siege of the Ridge Fort (12 x 9, r * 12 + c): the Wyrm Legion, seat 1,
holds the keep (9, 4); the only way up the ridge is the stair from (7, 4) to (8, 4), where
the Garrison's Obstacle stands.
"""

from __future__ import annotations

import numpy as np
import pytest

from agents.tactical_assault.heuristic import (
    ENTRY_W,
    HOPELESS_W,
    STATUS_W,
    base_from_legal,
    clearer_field,
    evaluate,
    heuristic_from_legal,
)
from envs import get_ruleset
from envs.tactical_assault.actions import (
    A_ACTION,
    A_DISCARD,
    A_PASS,
    A_POS,
    A_SITUATION,
    A_UNIT,
    N_ACTIONS,
    STAGE_DEPLOY_UNIT,
    STAGE_DISCARD,
    STAGE_MAIN,
    STAGE_MOVE,
    STAGE_PLAY_UNIT,
    STAGE_TARGET_POINT,
    STAGE_WINDOW,
)
from envs.tactical_assault.plays import TRIG_MELEE_ON
from envs.tactical_assault.state import MAX_POS, PLACE_HAND, WHERE_OFF, WHERE_ON

SEEDS = (1, 2, 3, 4, 5)  # agent RNG states: a choice must not be a lucky tie-break


@pytest.fixture(scope="module")
def crossroads():
    return get_ruleset("legendary_battles", options={"scenario": "crossroads_of_hallin"})


@pytest.fixture(scope="module")
def siege():
    return get_ruleset("legendary_battles", options={"scenario": "siege_of_the_ridge_fort"})


def _card(rs, action_name: str) -> int:
    """The first card whose Action is `action_name`."""
    from envs.fantasy_cards.tables import load_tables

    names = load_tables().play_names
    tb = rs.tables_batch[0]
    return next(k for k in range(int(tb["n_cards"])) if names[tb["card_action"][k]] == action_name)


def _position(rs, width: int, units: list[tuple[int, str, int, int]], stage: int) -> np.ndarray:
    """A one-game state of rs's scenario with only `units` (seat, Table 3 type, col, row) on
    the map, seat 1 to decide at `stage`, in its second turn of the scenario's limit."""
    S = rs.allocate(1, 2)
    types = list(rs.record.items)
    for u, (side, name, c, r) in enumerate(units):
        S["unit_side"][0, u] = side
        S["unit_type"][0, u] = types.index(name)
        S["unit_where"][0, u] = WHERE_ON
        S["unit_pos"][0, u] = r * width + c
        S["unit_facing"][0, u] = 0
        S["unit_status"][0, u] = 0
        S["unit_acted"][0, u] = 0
    S["turns_of"][0] = (2, 2)
    S["active"][0] = 1
    S["current"][0] = 1
    S["stage"][0] = stage
    S["depth"][0] = 0
    return S


def _choices(rs, S: np.ndarray, legal: list[int]) -> set[int]:
    """The heuristic's choice among `legal`, over several agent RNG states."""
    buf = np.zeros(N_ACTIONS, dtype=np.int64)
    buf[: len(legal)] = legal
    out = set()
    for seed in SEEDS:
        S["agent_rng"][0] = (np.uint64(seed * 7919), np.uint64(seed * 104729 + 1))
        out.add(
            int(heuristic_from_legal(S, rs.tables_batch[0], np.int64(0), buf, np.int64(len(legal))))
        )
    return out


def _play_unit(S: np.ndarray, card: int) -> None:
    S["sel_card"][0] = card
    S["sel_part"][0] = 0  # its Action


def test_the_holder_steps_on_into_the_free_deeper_zone(crossroads):
    """A Raider standing in (5, 5) whose move card lets it go on to the free (5, 4) takes it,
    leaving (5, 5) to the Raiders behind (objective_field seeds the deeper zones nearer:
    HOLD_DEPTH_W); before, its own zone counted as reached and it ended the path there."""
    S = _position(
        crossroads,
        10,
        [(1, "SKIRMISH", 5, 5), (1, "INFANTRY", 4, 5), (1, "INFANTRY", 4, 4)],
        STAGE_MOVE,
    )
    S["depth"][0] = 1
    S["fr_unit"][0, 0] = 0
    S["fr_player"][0, 0] = 1
    S["mv_len"][0, 0] = 0
    legal = [A_POS + 45, A_POS + 56, A_POS + 65, A_PASS]  # (5, 4), (6, 5), (5, 6), done
    assert _choices(crossroads, S, legal) == {A_POS + 45}


def test_a_contact_attack_goes_on_the_unit_that_reaches_the_enemy_in_a_zone(crossroads):
    """A Watch Militia stands in (4, 4). An Assault (move Short, 2 zones, into contact, then
    melee) goes on the Skirmish at (4, 6), 2 zones from it, not on the stronger Infantry
    at (8, 8) that cannot reach it (CONTACT_BONUS; before: the strongest melee unit)."""
    S = _position(
        crossroads,
        10,
        [(0, "MILITIA", 4, 4), (1, "INFANTRY", 8, 8), (1, "SKIRMISH", 4, 6)],
        STAGE_PLAY_UNIT,
    )
    _play_unit(S, _card(crossroads, "Assault"))
    assert _choices(crossroads, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 2}


def test_a_move_card_goes_on_the_unit_it_brings_nearest(crossroads):
    """The Raider at (5, 6) is 2 zones from the Watch-held (5, 4) but cannot get nearer with
    a Cautious Advance (2 zones): (5, 5) and (4, 5) hold friends, (6, 6) is Debris. The one
    at (2, 8), further off, gets 2 zones nearer: the card goes on it (move_gain; before: the
    nearest unit not yet there)."""
    S = _position(
        crossroads,
        10,
        [
            (0, "MILITIA", 4, 4),
            (0, "MILITIA", 5, 4),
            (1, "INFANTRY", 5, 5),
            (1, "INFANTRY", 4, 5),
            (1, "SKIRMISH", 5, 6),
            (1, "SKIRMISH", 2, 8),
        ],
        STAGE_PLAY_UNIT,
    )
    _play_unit(S, _card(crossroads, "Cautious Advance"))
    assert _choices(crossroads, S, [A_UNIT + 4, A_UNIT + 5]) == {A_UNIT + 5}


def test_the_sapper_moves_first_while_the_stair_is_staked(siege):
    """The Garrison's Obstacle stands at (7, 4), on the only way to the keep. A move card
    goes on the Sapper at (3, 4), out of reach of it (Clear Obstacle: Short, 2 zones), not on
    the Infantry at (5, 4) nearer the keep (clearer_field, SAPPER_FIRST); once the Obstacle
    is gone the Infantry, nearer, takes it."""
    S = _position(
        siege,
        12,
        [(0, "OBSTACLE", 7, 4), (1, "SAPPER", 3, 4), (1, "INFANTRY", 5, 4)],
        STAGE_PLAY_UNIT,
    )
    _play_unit(S, _card(siege, "Cautious Advance"))
    assert _choices(siege, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 1}
    S["unit_where"][0, 0] = 2  # the Obstacle removed (WHERE_ELIMINATED)
    S["unit_pos"][0, 0] = -1
    assert _choices(siege, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 2}


def test_the_sapper_clears_the_stake_before_any_attack_and_keeps_the_card(siege):
    """The Sapper at (5, 4) has the Obstacle at (7, 4) within reach: Clear Obstacle outranks
    a Fire (CLEAR_VALUE; before: an attack was worth more), and at the end of the turn a
    Clear Obstacle card stays in the hand while the Obstacle stands, where a Fire card goes."""
    S = _position(
        siege,
        12,
        [(0, "OBSTACLE", 7, 4), (1, "SAPPER", 5, 4), (1, "ARCHER", 4, 4), (0, "INFANTRY", 8, 4)],
        STAGE_MAIN,
    )
    clear, fire = _card(siege, "Clear Obstacle"), _card(siege, "Fire")
    S["card_place"][0, 1, clear] = PLACE_HAND
    S["card_place"][0, 1, fire] = PLACE_HAND
    assert _choices(siege, S, [A_ACTION + fire, A_ACTION + clear, A_PASS]) == {A_ACTION + clear}
    S["stage"][0] = STAGE_DISCARD
    assert _choices(siege, S, [A_DISCARD + fire, A_DISCARD + clear, A_PASS]) == {A_DISCARD + fire}
    assert _choices(siege, S, [A_DISCARD + clear, A_PASS]) == {A_PASS}
    S["unit_where"][0, 0] = 2  # the Obstacle removed: nothing to keep the card for
    S["unit_pos"][0, 0] = -1
    assert _choices(siege, S, [A_DISCARD + clear, A_PASS]) == {A_DISCARD + clear}


def test_a_contact_attack_goes_on_the_unit_that_reaches_the_stair_defender(siege):
    """The stake is gone and a Garrison Infantry holds the stair (8, 4), on the way to the
    keep (not a zone to hold). The Assault goes on the Legion Archer at (7, 4) that reaches
    it, not on the stronger Infantry at (4, 2) (CONTACT_BONUS for an enemy on the way; before:
    the strongest melee unit)."""
    S = _position(
        siege,
        12,
        [(0, "INFANTRY", 8, 4), (1, "INFANTRY", 4, 2), (1, "ARCHER", 7, 4)],
        STAGE_PLAY_UNIT,
    )
    _play_unit(S, _card(siege, "Assault"))
    assert _choices(siege, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 2}


def test_a_shaken_sapper_is_recovered_first_while_the_stair_is_staked(siege):
    """The Sapper is Shaken (it takes no card but a Recover) and the stake still stands: a
    Recover outranks a Fire and goes on the Sapper, not on the Shaken Infantry (before: an
    attack was worth more, and any Shaken unit alike)."""
    S = _position(
        siege,
        12,
        [(0, "OBSTACLE", 7, 4), (1, "INFANTRY", 5, 3), (1, "SAPPER", 5, 4), (1, "ARCHER", 4, 4)],
        STAGE_MAIN,
    )
    S["unit_status"][0, 1] = 1  # Shaken
    S["unit_status"][0, 2] = 1
    recover, fire = _card(siege, "Recover"), _card(siege, "Fire")
    assert _choices(siege, S, [A_ACTION + fire, A_ACTION + recover, A_PASS]) == {A_ACTION + recover}
    S["stage"][0] = STAGE_PLAY_UNIT
    _play_unit(S, recover)
    assert _choices(siege, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 2}


def test_a_general_window_is_passed_an_attack_is_answered(crossroads):
    """In the Watch's turn a general window (nothing to answer) is passed: the card stays for
    the Raiders' own turn, when the hand has not been replenished (FC 1.10); a window that
    answers a melee attack on a Raider is still answered (before: every window answered)."""
    S = _position(crossroads, 10, [(0, "INFANTRY", 4, 4), (1, "INFANTRY", 4, 5)], STAGE_WINDOW)
    S["active"][0] = 0
    fire = _card(crossroads, "Fire")
    S["card_place"][0, 1, fire] = PLACE_HAND
    legal = [A_SITUATION + fire, A_PASS]
    S["win_trigger"][0] = 0
    assert _choices(crossroads, S, legal) == {A_PASS}
    S["win_trigger"][0] = TRIG_MELEE_ON
    assert _choices(crossroads, S, legal) == {A_SITUATION + fire}


def test_the_sapper_is_deployed_first_and_its_card_kept_whole(siege):
    """The Garrison's Obstacle stands: the Sapper is the first unit the Legion places
    (deployment alternates, the places nearest the way go first), and the card kept to remove
    the Obstacle is not spent on its Situation in a window (before: any unit first, and the
    Situation played)."""
    S = _position(
        siege,
        12,
        [(0, "OBSTACLE", 7, 4), (1, "INFANTRY", 3, 4), (1, "SAPPER", 3, 3), (0, "INFANTRY", 8, 4)],
        STAGE_DEPLOY_UNIT,
    )
    S["unit_where"][0, 1:3] = WHERE_OFF
    assert _choices(siege, S, [A_UNIT + 1, A_UNIT + 2]) == {A_UNIT + 2}
    S["unit_where"][0, 1:3] = WHERE_ON
    S["stage"][0] = STAGE_WINDOW
    S["active"][0] = 0
    S["win_trigger"][0] = TRIG_MELEE_ON
    clear = _card(siege, "Clear Obstacle")
    S["card_place"][0, 1, clear] = PLACE_HAND
    assert _choices(siege, S, [A_SITUATION + clear, A_PASS]) == {A_PASS}
    S["unit_where"][0, 0] = 2  # the Obstacle removed: the card is free again
    S["unit_pos"][0, 0] = -1
    assert _choices(siege, S, [A_SITUATION + clear, A_PASS]) == {A_SITUATION + clear}


def _lookahead_position(rs) -> np.ndarray:
    """Crossroads of Hallin, the Raiders' turn: they hold (4, 4), (5, 4) and (4, 5); (5, 5) is
    free. A Skirmish at (5, 6) is one zone from it, a Skirmish at (8, 9) far off; two Watch
    Militia stand at the far corners. The Raiders hold a Cautious Advance (2 zones) and a
    Fire; both hands and decks are laid out whole (the copy plays the card out)."""
    S = _position(
        rs,
        10,
        [
            (0, "MILITIA", 0, 0),
            (0, "MILITIA", 9, 0),
            (1, "INFANTRY", 4, 4),
            (1, "INFANTRY", 5, 4),
            (1, "INFANTRY", 4, 5),
            (1, "SKIRMISH", 5, 6),
            (1, "SKIRMISH", 8, 9),
        ],
        STAGE_PLAY_UNIT,
    )
    S["points_total"][0] = (20, 20)  # half of it lost ends the game (not here)
    S["turn"][0] = 4
    advance, fire = _card(rs, "Cautious Advance"), _card(rs, "Fire")
    n = int(rs.tables_batch[0]["n_cards"])
    for p, hand in (
        (0, [k for k in range(n) if k not in (advance, fire)][:6]),
        (1, [advance, fire]),
    ):
        deck = [k for k in range(n) if k not in hand]
        S["card_place"][0, p, :n] = 0  # PLACE_DECK
        S["card_place"][0, p, hand] = PLACE_HAND
        S["deck"][0, p, :] = -1
        S["deck"][0, p, : len(deck)] = deck
        S["deck_count"][0, p] = len(deck)
    _play_unit(S, advance)
    return S


def test_the_lookahead_plays_the_move_that_completes_the_hold(crossroads):
    """The Cautious Advance goes on the Skirmish at (5, 6), which completes the hold of the
    four zones, not on the one at (8, 9) that it brings two zones nearer (the rules of thumb
    alone, base_from_legal: move_gain 2 against 1); and at the main decision the card played
    is the move (the played-out copy holds all four zones), not the Fire."""
    S = _lookahead_position(crossroads)
    legal = [A_UNIT + 5, A_UNIT + 6]
    assert _choices(crossroads, S, legal) == {A_UNIT + 5}
    buf = np.zeros(N_ACTIONS, dtype=np.int64)
    buf[:2] = legal
    tb = crossroads.tables_batch[0]
    assert int(base_from_legal(S, tb, np.int64(0), buf, np.int64(2))) == A_UNIT + 6
    S["stage"][0] = STAGE_MAIN
    S["sel_card"][0] = -1
    advance, fire = _card(crossroads, "Cautious Advance"), _card(crossroads, "Fire")
    assert _choices(crossroads, S, [A_ACTION + fire, A_ACTION + advance, A_PASS]) == {
        A_ACTION + advance
    }


def test_the_lookahead_reads_no_hidden_information(crossroads):
    """Two states that differ only in what the Raiders may not know (the Watch's hand, both
    decks' order, the rules RNG) give the same choices, and the game's own rules RNG is not
    drawn from (the copy's dice come from the agent's stream)."""
    S = _lookahead_position(crossroads)
    T = S.copy()
    n = int(crossroads.tables_batch[0]["n_cards"])
    hand0 = np.flatnonzero(S["card_place"][0, 0, :n] == PLACE_HAND)
    other = [k for k in range(n) if S["card_place"][0, 0, k] != PLACE_HAND][-6:]
    T["card_place"][0, 0, hand0] = 0
    T["card_place"][0, 0, other] = PLACE_HAND  # another hand for the Watch
    deck0 = [k for k in range(n) if T["card_place"][0, 0, k] == 0][::-1]
    T["deck"][0, 0, : len(deck0)] = deck0
    T["deck"][0, 1, : int(S["deck_count"][0, 1])] = S["deck"][0, 1, : int(S["deck_count"][0, 1])][
        ::-1
    ]
    T["rng"][0] = (np.uint64(12345), np.uint64(678911))
    advance, fire = _card(crossroads, "Cautious Advance"), _card(crossroads, "Fire")
    for stage, legal in (
        (STAGE_PLAY_UNIT, [A_UNIT + 5, A_UNIT + 6]),
        (STAGE_MAIN, [A_ACTION + fire, A_ACTION + advance, A_PASS]),
    ):
        for X in (S, T):
            X["stage"][0] = stage
            if stage == STAGE_MAIN:
                X["sel_card"][0] = -1
        rng_s, rng_t = S["rng"].copy(), T["rng"].copy()
        for seed in SEEDS:
            buf = np.zeros(N_ACTIONS, dtype=np.int64)
            buf[: len(legal)] = legal
            picks = []
            for X in (S, T):
                X["agent_rng"][0] = (np.uint64(seed * 7919), np.uint64(seed * 104729 + 1))
                picks.append(
                    int(
                        heuristic_from_legal(
                            X, crossroads.tables_batch[0], np.int64(0), buf, np.int64(len(legal))
                        )
                    )
                )
            assert picks[0] == picks[1]
        assert (S["rng"] == rng_s).all() and (T["rng"] == rng_t).all()


def test_the_lookahead_does_not_read_its_own_decks_order(crossroads):
    """A Combat Result is the top card of the attacker's deck, flipped (FC PART V Step 5),
    and a player does not know its deck's order. A Watch Militia stands alone in (4, 4); the
    Raiders hold the other three zones and play an Assault: on the Infantry at (4, 5), next
    to the Militia, or on the far Skirmish at (8, 9) as a move. The copy the lookahead plays
    the Assault out on must not flip the real top card: the choice is the same for every order
    of the Raiders' deck (before hide_cards it followed the top card: the attack when the top
    card eliminates, the move when it does nothing)."""
    S = _lookahead_position(crossroads)
    S["unit_pos"][0, 2] = 5 * 10 + 4  # Raider Infantry (4, 5), next to the Militia at (4, 4)
    S["unit_pos"][0, 4] = 5 * 10 + 5  # (5, 5)
    S["unit_pos"][0, 0] = 4 * 10 + 4  # the Militia in (4, 4), facing S towards the Raider
    S["unit_facing"][0, 0] = 2
    assault, advance = _card(crossroads, "Assault"), _card(crossroads, "Advance")
    n = int(crossroads.tables_batch[0]["n_cards"])
    hand = [assault, advance]
    deck = [k for k in range(n) if k not in hand]
    S["card_place"][0, 1, :n] = 0
    S["card_place"][0, 1, hand] = PLACE_HAND
    _play_unit(S, assault)
    legal = [A_UNIT + 2, A_UNIT + 3, A_UNIT + 6]
    tb = crossroads.tables_batch[0]
    results = tb["card_result"]
    buf = np.zeros(N_ACTIONS, dtype=np.int64)
    buf[: len(legal)] = legal
    picks = []
    for top in (0, 4):  # the top card: a No Effect, then an Eliminated
        order = [k for k in deck if results[k] != top] + [k for k in deck if results[k] == top]
        S["deck"][0, 1, :] = -1
        S["deck"][0, 1, : len(order)] = order
        S["deck_count"][0, 1] = len(order)
        row = []
        for seed in SEEDS:  # the same agent RNG states for both orders
            S["agent_rng"][0] = (np.uint64(seed * 7919), np.uint64(seed * 104729 + 1))
            row.append(int(heuristic_from_legal(S, tb, np.int64(0), buf, np.int64(len(legal)))))
        picks.append(row)
    assert picks[0] == picks[1]


def _play_step(rs, action_name: str, kind: int) -> tuple[int, int]:
    """(play, step) of the first card whose Action is `action_name`, its step of `kind`."""
    tb = rs.tables_batch[0]
    play = int(tb["card_action"][_card(rs, action_name)])
    return play, next(
        j for j in range(tb["step_kind"].shape[1]) if tb["step_kind"][play, j] == kind
    )


def test_a_target_point_goes_where_it_hits_enemies_not_friends(siege):
    """A Bombard's Target Point attacks every unit within its radius, friend or foe (FC I14).
    The Legion's Artillery places it: at (7, 3), beside the Garrison Infantry at (8, 3) but
    also beside the Legion's own Sapper at (6, 3), it would hit both; at (8, 6), the Garrison
    Archer alone. It goes at (8, 6) (blast_value); before, at the place nearest the keep, the
    way the Bombard of the Legion's first turn fell on its own Sapper in a game of the
    benchmark."""
    S = _position(
        siege,
        12,
        [
            (0, "OBSTACLE", 7, 4),
            (0, "INFANTRY", 8, 3),
            (0, "ARCHER", 8, 6),
            (1, "ARTILLERY", 3, 4),
            (1, "SAPPER", 6, 3),
        ],
        STAGE_TARGET_POINT,
    )
    play, j = _play_step(siege, "Bombard", 3)  # target point attack (EFFECT_KINDS order)
    S["depth"][0] = 1
    S["fr_unit"][0, 0] = 3
    S["fr_player"][0, 0] = 1
    S["fr_play"][0, 0] = play
    S["fr_step"][0, 0] = j
    legal = [A_POS + 3 * 12 + 7, A_POS + 6 * 12 + 8, A_POS + 4 * 12 + 9]  # (7,3) (8,6) (9,4)
    assert _choices(siege, S, legal) == {A_POS + 6 * 12 + 8}
    # a Garrison Infantry where the Sapper stood: (7, 3) hits two Infantry, worth more than
    # the Archer alone at (8, 6)
    S["unit_side"][0, 4] = 0
    S["unit_type"][0, 4] = list(siege.record.items).index("INFANTRY")
    assert _choices(siege, S, legal) == {A_POS + 3 * 12 + 7}


def test_the_sapper_heads_for_a_place_no_friend_stands_in(siege):
    """The stake at (7, 4) is removed from (6, 4), (7, 3) or (7, 5) (Short of it, off the
    ridge). Legion Infantry stand in (6, 4) and (7, 5): the Sapper's way (clearer_field) leads
    to (7, 3), the one place it can end its move in; before, a friend's place counted as
    reached, and friends drawn to the stair stood in all of them."""
    S = _position(
        siege,
        12,
        [(0, "OBSTACLE", 7, 4), (1, "SAPPER", 4, 4), (1, "INFANTRY", 6, 4), (1, "INFANTRY", 7, 5)],
        STAGE_PLAY_UNIT,
    )
    dist = np.zeros(MAX_POS, dtype=np.int64)
    assert clearer_field(S, siege.tables_batch[0], np.int64(0), np.int64(1), np.int64(1), dist)
    assert dist[3 * 12 + 7] == 0
    assert dist[4 * 12 + 6] > 0 and dist[5 * 12 + 7] > 0


def test_a_zone_entered_from_counts_nearly_as_held(crossroads):
    """A Raider Rider that moved from (5, 5) into Close Combat in (4, 5) is still partly in
    (5, 5) (LB "Sharing a zone: unit positions"): no Watch unit may enter it, and it moves
    back when its target goes. evaluate counts it ENTRY_W, not as an empty zone: the lookahead
    lets the Rider join the fight from the zone it holds (Crossroads' second side, 10,000
    games: 69.1 % before, 73.4 % with it)."""
    S = _position(
        crossroads,
        10,
        [
            (0, "INFANTRY", 4, 5),
            (1, "SKIRMISH", 4, 5),
            (1, "RIDER", 4, 5),
            (1, "INFANTRY", 4, 4),
            (1, "INFANTRY", 5, 4),
        ],
        STAGE_MAIN,
    )
    S["points_total"][0] = (20, 20)
    S["unit_entry"][0, :] = -1
    S["unit_entry"][0, 1] = 6 * 10 + 4  # the Skirmish came from (4, 6)
    S["unit_entry"][0, 2] = 5 * 10 + 5  # the Rider from (5, 5), a zone to hold
    tb = crossroads.tables_batch[0]
    field = np.zeros(MAX_POS, dtype=np.int64)
    entered = int(evaluate(S, tb, np.int64(0), np.int64(1), field))
    S["unit_entry"][0, 2] = 6 * 10 + 5  # from (5, 6) instead: (5, 5) is empty
    empty = int(evaluate(S, tb, np.int64(0), np.int64(1), field))
    assert entered - empty >= ENTRY_W


def test_a_close_combat_it_cannot_win_counts_against_until_the_last_turn(siege):
    """A Legion Infantry (melee Heavy) that entered the keep (a Building: cover) from the stair
    shares it with the Legendary unit (protection Very Heavy): each of its melee attacks
    shifts down twice, and the Legendary unit, pinned, no longer leaves the keep by itself.
    evaluate counts that HOPELESS_W against the Legion, as it does not with an Infantry
    (protection Moderate) there, nor once the Legendary unit is Shaken, nor in the Legion's
    last turn (Siege's second side, 4,000 games: 54.3 % before, 56.5 % with it)."""
    keep, stair = 4 * 12 + 9, 4 * 12 + 8
    tb = siege.tables_batch[0]
    field = np.zeros(MAX_POS, dtype=np.int64)

    def value(holder: str, status: int = 0, turn: int = 2) -> int:
        S = _position(siege, 12, [(0, holder, 9, 4), (1, "INFANTRY", 9, 4)], STAGE_MAIN)
        S["points_total"][0] = (24, 29)
        S["unit_entry"][0, :] = -1
        S["unit_entry"][0, 1] = stair
        S["unit_status"][0, 0] = status
        S["turns_of"][0] = (turn, turn)
        assert S["unit_pos"][0, 0] == keep
        return int(evaluate(S, tb, np.int64(0), np.int64(1), field))

    limit = int(tb["sc_turn_limit"])
    assert value("INFANTRY") - value("LEGENDARY") == HOPELESS_W
    assert value("LEGENDARY", status=1) - value("LEGENDARY") == HOPELESS_W + STATUS_W
    assert value("INFANTRY", turn=limit) == value("LEGENDARY", turn=limit)
