"""Seed chapters 5-9: ground attacks, weapon ranges, tactical modes, air and arty attacks."""

from __future__ import annotations

from envs.core.jit import njit
from envs.core.rng import roll_n_or_lower
from envs.tac.state import MOBILE, STATIC
from envs.tac.tables import (
    ATTACK_AIR,
    ATTACK_ARTY,
    ATTACK_GUN,
    ATTACK_MISSILE,
    CLASS_INFANTRY,
    CLASS_TANK,
    GUN,
    HEAVY,
    MISSILE,
    MOD_ADD,
    MOD_MULTIPLY,
    ORANGE,
    RED,
    S_ARMOUR,
    S_ARTY_MOBILE,
    S_ARTY_STATIC,
)

DESTROYED = -1  # attack_damage value of a successful arty hit (9.3)


@njit
def card_attack_kind(tb, card_type):
    """Which attack a red or orange card makes; -1 for other colours."""
    colour = tb.card_type_colour[card_type]
    if colour == ORANGE:
        return ATTACK_AIR
    if colour == RED:
        return ATTACK_GUN if tb.card_type_weapon_type[card_type] == GUN else ATTACK_MISSILE
    return -1


@njit
def last_target_row(weapon_type, weight, attacker_mode):
    """6.1 / 6.2 / 7.3: the deepest enemy row a ground weapon reaches.

    Heavy weapons hit the first two rows, light the Frontline; guns fired in Mobile mode
    gain +1 range.
    """
    r = 1 if weight == HEAVY else 0
    if weapon_type == GUN and attacker_mode == MOBILE:
        r += 1
    return r


@njit
def modified_damage(tb, card_type, purple_type):
    """5.4: a purple card modifies a red card's damage (before Armour)."""
    dmg = tb.card_type_damage[card_type]
    if purple_type >= 0:
        amount = tb.card_type_amount[purple_type]
        if tb.card_type_modifier[purple_type] == MOD_MULTIPLY:
            dmg = dmg * amount
        elif tb.card_type_modifier[purple_type] == MOD_ADD:
            dmg = dmg + amount
    return dmg


@njit
def damage_to_unit(tb, kind, damage, unit_type, target_mode):
    """Damage a hit deals to a unit, after the unit's own rules.

    3.5: Gun, Missile and Air attacks on Static Infantry do 1 point per card.
    3.3: Tanks' Armour takes 1 from every Gun or Missile attack (so 1-point attacks do nothing);
    Air attacks are not reduced (Armour names only Gun and Missile attacks).
    """
    cls = tb.unit_class[unit_type]
    if cls == CLASS_INFANTRY and target_mode == STATIC:
        return 1 if damage > 0 else 0
    if cls == CLASS_TANK and (kind == ATTACK_GUN or kind == ATTACK_MISSILE):
        d = damage - tb.settings[S_ARMOUR]
        return d if d > 0 else 0
    return damage


@njit
def arty_to_hit(tb, target_mode):
    """7.2 / 7.4 / 9.2: arty hits Static units on 1-2 and Mobile units on 1."""
    return tb.settings[S_ARTY_STATIC] if target_mode == STATIC else tb.settings[S_ARTY_MOBILE]


@njit
def roll_arty_hit(rng, b, tb, target_mode):
    return roll_n_or_lower(rng, b, arty_to_hit(tb, target_mode))


@njit
def air_to_hit(tb, card_type, enemy_air_defence):
    """8.2: roll the card's to-hit or lower, less 1 per Air-Def unit of the defender."""
    return tb.card_type_to_hit[card_type] - enemy_air_defence


@njit
def kind_is_ground(kind):
    return kind == ATTACK_GUN or kind == ATTACK_MISSILE or kind == ATTACK_ARTY


@njit
def weapon_of_kind(kind):
    return GUN if kind == ATTACK_GUN else MISSILE


__all__ = [
    "ATTACK_AIR",
    "ATTACK_ARTY",
    "DESTROYED",
    "air_to_hit",
    "arty_to_hit",
    "card_attack_kind",
    "damage_to_unit",
    "kind_is_ground",
    "last_target_row",
    "modified_damage",
    "roll_arty_hit",
]
