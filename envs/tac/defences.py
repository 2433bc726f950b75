"""Seed chapter 10: Defence (Black) cards laid on a row, absorbing attacks."""

from __future__ import annotations

from envs.core.jit import njit
from envs.tac.state import DEF_EMPTY, DEF_FACE_DOWN, DEF_FACE_UP, MAX_DEFENCES, MOBILE, STATIC
from envs.tac.tables import (
    AIR_SUPERIORITY,
    AIR_SUPREMACY,
    ATTACK_AIR,
    ATTACK_ARTY,
    ATTACK_GUN,
    ATTACK_MISSILE,
    EVASIVE_MANEUVERS,
    HIGH_COVER,
    TACTICAL_SMOKE,
)


@njit
def defence_stops(defence, kind, defender_mode):
    """10.9-10.11: which attacks each defence can absorb, in which mode."""
    if defence == AIR_SUPERIORITY or defence == AIR_SUPREMACY:
        return kind == ATTACK_AIR
    if defence == HIGH_COVER:
        return defender_mode == STATIC and (kind == ATTACK_GUN or kind == ATTACK_MISSILE)
    if defence == EVASIVE_MANEUVERS:
        return defender_mode == MOBILE and (kind == ATTACK_GUN or kind == ATTACK_ARTY)
    if defence == TACTICAL_SMOKE:
        return True
    return False


@njit
def defence_covers_all_rows(defence):
    """10.9 / 10.10: Air Superiority and Air Supremacy protect the whole Combat Team."""
    return defence == AIR_SUPERIORITY or defence == AIR_SUPREMACY


@njit
def defence_applies(S, tb, b, d, slot, kind, target_row):
    """Defence `slot` of seat d could absorb an attack of `kind` on `target_row`."""
    if S["defence_state"][b, d, slot] == DEF_EMPTY:
        return False
    dtype = tb.card_type_defence[tb.card_type[S["defence_card"][b, d, slot]]]
    if not defence_stops(dtype, kind, S["mode"][b, d]):
        return False
    return defence_covers_all_rows(dtype) or S["defence_row"][b, d, slot] == target_row


@njit
def is_open(S, b, d, slot):
    """4.4: open defences (face-up, or revealed this phase) trigger automatically."""
    return S["defence_state"][b, d, slot] == DEF_FACE_UP or S["defence_revealed"][b, d, slot]


SEVERAL_OPEN = -2  # open_defence_for: two or more open defences apply


@njit
def open_defence_for(S, tb, b, d, kind, target_row):
    """4.4: the one open defence that absorbs this attack by itself, -1 if none applies, or
    SEVERAL_OPEN when two or more apply: then the defender elects which one (10.5)."""
    found = -1
    for slot in range(MAX_DEFENCES):
        if is_open(S, b, d, slot) and defence_applies(S, tb, b, d, slot, kind, target_row):
            if found >= 0:
                return SEVERAL_OPEN
            found = slot
    return found


@njit
def has_face_down(S, b, d):
    for slot in range(MAX_DEFENCES):
        if (
            S["defence_state"][b, d, slot] == DEF_FACE_DOWN
            and not S["defence_revealed"][b, d, slot]
        ):
            return True
    return False


@njit
def face_up_air_supremacy(S, tb, b, d):
    """10.10: no Air Attacks can be declared against a player with Air Supremacy showing."""
    for slot in range(MAX_DEFENCES):
        if is_open(S, b, d, slot):
            if tb.card_type_defence[tb.card_type[S["defence_card"][b, d, slot]]] == AIR_SUPREMACY:
                return True
    return False


@njit
def free_defence_slot(S, b, p):
    for slot in range(MAX_DEFENCES):
        if S["defence_state"][b, p, slot] == DEF_EMPTY:
            return slot
    return -1
