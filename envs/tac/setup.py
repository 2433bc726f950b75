"""Seed chapter 2: setup (2.1-2.4), player orders (2.6), drawing Action cards (2.4)."""

from __future__ import annotations

from envs.core.deck import pile_pop_top, recycle
from envs.core.jit import njit
from envs.core.rng import seed_stream, shuffle_prefix
from envs.tac.state import (
    DEF_EMPTY,
    HAND_SLOTS,
    MAX_ATTACKS,
    MAX_DEFENCES,
    PILE_LIGHT,
    PILE_TANK,
    STAGE_DEPLOY,
    STATIC,
)
from envs.tac.tables import CAT_TANK, S_HAND, S_LIGHTS, S_TANKS

RULES_STREAM = 0
AGENT_STREAM = 1


@njit
def draw_card(S, b):
    """Top card of the draw pile; 2.4 reshuffles the discard pile when it runs out."""
    if S["draw_count"][b] == 0:
        if S["discard_count"][b] == 0:
            return -1
        dc, xc = recycle(
            S["rng"], b, S["draw"][b], S["draw_count"][b], S["discard"][b], S["discard_count"][b]
        )
        S["draw_count"][b] = dc
        S["discard_count"][b] = xc
    card, n = pile_pop_top(S["draw"][b], S["draw_count"][b])
    S["draw_count"][b] = n
    return card


@njit
def refill_hand(S, tb, b, p):
    """2.4 / 4.6: draw until the hand holds hand_size cards (or the cards run out)."""
    want = tb.settings[S_HAND]
    have = 0
    for h in range(HAND_SLOTS):
        if S["hand"][b, p, h] >= 0:
            have += 1
    for h in range(HAND_SLOTS):
        if have >= want:
            break
        if S["hand"][b, p, h] < 0:
            c = draw_card(S, b)
            if c < 0:
                break
            S["hand"][b, p, h] = c
            have += 1


@njit
def draw_player_orders(S, b):
    """2.6: at every odd round the Player Order cards are shuffled and drawn."""
    P = S["num_players"][b]
    for i in range(P):
        S["order"][b, i] = i
    shuffle_prefix(S["rng"], b, S["order"][b], P)


@njit
def reset_game(S, tb, b, seed, game_index):
    """2.1-2.4: deal unit cards and Action cards, Static mode, round 1; the game then opens
    with the deployment stage (2.2, turn.deploy_unit)."""
    seed_stream(S["rng"], b, seed, game_index, RULES_STREAM)
    seed_stream(S["agent_rng"], b, seed, game_index, AGENT_STREAM)
    S["game_index"][b] = game_index
    P = S["num_players"][b]
    # unit piles: every unit card, shuffled per category (2.1 "dealt at random")
    S["pile"][b, :, :] = -1
    S["pile_count"][b, 0] = 0
    S["pile_count"][b, 1] = 0
    for u in range(tb.n_unit_types):
        cat = PILE_TANK if tb.unit_category[u] == CAT_TANK else PILE_LIGHT
        for _ in range(tb.unit_count[u]):
            S["pile"][b, cat, S["pile_count"][b, cat]] = u
            S["pile_count"][b, cat] += 1
    shuffle_prefix(S["rng"], b, S["pile"][b, PILE_TANK], S["pile_count"][b, PILE_TANK])
    shuffle_prefix(S["rng"], b, S["pile"][b, PILE_LIGHT], S["pile_count"][b, PILE_LIGHT])
    S["team_type"][b] = -1
    S["team_row"][b] = 0
    S["team_damage"][b] = 0
    S["deployed"][b] = False
    S["under"][b] = -1
    S["dealt"][b] = 0
    for p in range(P):
        slot = 0
        # 2.1: tanks and light units dealt separately
        for cat, n in ((PILE_TANK, tb.settings[S_TANKS]), (PILE_LIGHT, tb.settings[S_LIGHTS])):
            for _ in range(n):
                u, c = pile_pop_top(S["pile"][b, cat], S["pile_count"][b, cat])
                S["pile_count"][b, cat] = c
                S["team_type"][b, p, slot] = u  # its row is chosen in the deployment (2.2)
                S["dealt"][b, p, u] += 1
                slot += 1
        S["mode"][b, p] = STATIC  # 2.3
    # Action deck (2.4)
    n_cards = tb.n_cards
    S["draw"][b] = -1
    S["discard"][b] = -1
    for i in range(n_cards):
        S["draw"][b, i] = i
    shuffle_prefix(S["rng"], b, S["draw"][b], n_cards)
    S["draw_count"][b] = n_cards
    S["discard_count"][b] = 0
    S["hand"][b] = -1
    for p in range(P):
        refill_hand(S, tb, b, p)
    for p in range(P):
        for d in range(MAX_DEFENCES):
            S["defence_card"][b, p, d] = -1
            S["defence_state"][b, p, d] = DEF_EMPTY
            S["defence_used"][b, p, d] = False
            S["defence_revealed"][b, p, d] = False
            S["defence_row"][b, p, d] = 0  # as allocate leaves it: nothing of the last game
    for k in range(MAX_ATTACKS):
        S["attack_card"][b, k] = -1
        S["attack_purple"][b, k] = -1
        S["attack_defence"][b, k] = -1
        S["attack_kind"][b, k] = 0
        S["attack_target"][b, k] = 0
        S["attack_slot"][b, k] = 0
        S["attack_damage"][b, k] = 0
    S["attack_count"][b] = 0
    S["cursor"][b] = 0
    S["rewards"][b] = 0.0
    S["victory_points"][b] = 0
    S["winner"][b] = -1
    S["decisions"][b] = 0
    S["round"][b] = 1
    S["turn"][b] = 0
    draw_player_orders(S, b)
    # no turn has started yet: the turn's counters are clean
    S["ap"][b] = 0
    S["free_gun"][b] = False
    S["repositions"][b] = 0
    S["moved"][b] = False
    S["weapon_uses"][b] = 0
    S["arty_uses"][b] = 0
    # 2.2: "players then arrange these units into up to 3 rows": seat 0 deploys first
    S["stage"][b] = STAGE_DEPLOY
    S["current"][b] = 0
    S["active"][b] = 0
