"""TACTICA decree kernels (envs/tactica/decrees.py): each decree's requirement as the seed
words it ("BARRACKS PHASE and DECREES"), and hypothesis cross-checks against
envs/tactica/reference.py over random Barracks."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from envs.tactica import decrees
from envs.tactica import reference as ref
from envs.tactica.tables import load_tables

TABLES = load_tables()
TB = TABLES.arrays
CARDS = TABLES.card_names
HYPO = settings(max_examples=300, deadline=None)  # the first call compiles the kernel


def _met(decree: str, barracks: list[str], capturers: int = 0, hostages: int = 0) -> bool:
    counts = decrees.barracks_counts(TABLES, barracks)
    return decrees.decree_requirement_met(
        TB, TABLES.decree_index[decree], counts, capturers, hostages
    )


def test_unique_cards_are_cards_with_pairwise_different_names() -> None:
    # TT-A.4.4 (R11): copies of one card are not unique; Training counts as a name
    counts = decrees.barracks_counts(TABLES, ["Foot", "Foot", "Foot", "Training", "Spy"])
    assert decrees.unique_cards(TB, counts) == 3
    assert decrees.unique_cards(TB, decrees.barracks_counts(TABLES, [])) == 0


def test_a_pair_is_two_cards_of_the_same_name() -> None:
    # TT-A.4.5
    assert decrees.has_pair(TB, decrees.barracks_counts(TABLES, ["Press", "Press"]))
    assert not decrees.has_pair(TB, decrees.barracks_counts(TABLES, ["Press", "Saved"]))


def test_tactica_needs_six_unique_cards() -> None:
    # TT-A.5.1
    six = ["Foot", "Champion", "Archer", "Training", "Press", "Spy"]
    assert _met("TACTICA!", six)
    assert _met("TACTICA!", [*six, "Foot"])
    assert not _met("TACTICA!", [*six[:5], "Foot", "Foot"])  # 7 cards, 5 names


def test_promotion_needs_four_unique_cards_and_a_capturer() -> None:
    # TT-A.6.1 (R13)
    four = ["Foot", "Archer", "Press", "Negate"]
    assert _met("PROMOTION", four, capturers=1)
    assert not _met("PROMOTION", four, capturers=0)
    assert not _met("PROMOTION", ["Foot", "Foot", "Archer", "Press"], capturers=2)


def test_fog_pair_may_include_the_negate_card() -> None:
    # TT-A.7.1 (R12): Spy + Negate + a pair, "any, which could include the negate card!"
    assert _met("FOG", ["Spy", "Negate", "Negate"])
    assert _met("FOG", ["Spy", "Spy", "Negate"])
    assert _met("FOG", ["Spy", "Negate", "Foot", "Foot"])
    assert not _met("FOG", ["Spy", "Negate", "Foot", "Archer"])
    assert not _met("FOG", ["Negate", "Negate", "Foot", "Foot"])  # no Spy


def test_mud_pair_may_include_the_engineer_card() -> None:
    # TT-A.8.1 (R12)
    assert _met("MUD", ["Spy", "Engineer", "Engineer"])
    assert _met("MUD", ["Spy", "Engineer", "Crown", "Crown"])
    assert not _met("MUD", ["Spy", "Engineer", "Crown", "Negate"])
    assert not _met("MUD", ["Spy", "Spy", "Negate"])  # no Engineer


def test_betrayal_needs_crown_spy_negate_and_a_hostage() -> None:
    # TT-A.9.1
    hand = ["Crown", "Spy", "Negate"]
    assert _met("BETRAYAL!", hand, hostages=1)
    assert not _met("BETRAYAL!", hand, hostages=0)
    assert not _met("BETRAYAL!", ["Crown", "Spy", "Spy"], hostages=3)


def test_summon_needs_any_pair() -> None:
    assert _met("SUMMON", ["Training", "Training"])
    assert not _met("SUMMON", ["Foot", "Champion", "Archer", "Crossbow"])


def test_decrees_met_writes_every_decree_and_counts_them() -> None:
    counts = decrees.barracks_counts(TABLES, ["Spy", "Negate", "Negate", "Crown"])
    out = np.zeros(len(TABLES.decree_names), dtype=np.bool_)
    k = decrees.decrees_met(TB, counts, 0, 1, out)
    met = {TABLES.decree_names[d] for d in np.flatnonzero(out)}
    assert met == {"FOG", "BETRAYAL!", "SUMMON"} and k == 3


def test_barracks_counts_rejects_an_unknown_card() -> None:
    with pytest.raises(ValueError, match="unknown card 'Dragon'"):
        decrees.barracks_counts(TABLES, ["Foot", "Dragon"])


# --- cross-checks: kernel == reference.py ----------------------------------------------------

barracks = st.lists(st.sampled_from(CARDS), max_size=TABLES.rules.barracks_limit + 2)


@HYPO
@given(
    hand=barracks,
    capturers=st.integers(0, 2),
    hostages=st.integers(0, 2),
)
def test_every_decree_matches_reference(hand, capturers, hostages) -> None:
    counts = decrees.barracks_counts(TABLES, hand)
    assert decrees.unique_cards(TB, counts) == ref.unique_cards(hand)
    assert decrees.has_pair(TB, counts) == ref.has_pair(hand)
    out = np.zeros(len(TABLES.decree_names), dtype=np.bool_)
    decrees.decrees_met(TB, counts, capturers, hostages, out)
    for d, name in enumerate(TABLES.decree_names):
        want = ref.decree_requirement_met(
            TABLES, name, hand, capturers=capturers, hostages=hostages
        )
        assert decrees.decree_requirement_met(TB, d, counts, capturers, hostages) == want
        assert bool(out[d]) == want


@st.composite
def near_decree(draw) -> tuple[str, list[str]]:
    """A Barracks built around one decree's named cards, so that random hands meet and miss
    every requirement often (uniform hands rarely hold Crown, Spy and Negate together)."""
    name = draw(st.sampled_from(TABLES.decree_names))
    d = TABLES.decree_index[name]
    named = [CARDS[c] for c in np.flatnonzero(TABLES.decree_cards[d])]
    kept = draw(st.lists(st.sampled_from(named), max_size=len(named) + 1)) if named else []
    extra = draw(st.lists(st.sampled_from(CARDS), max_size=5))
    return name, kept + extra


@HYPO
@given(case=near_decree(), capturers=st.integers(0, 1), hostages=st.integers(0, 1))
def test_decrees_near_their_requirement_match_reference(case, capturers, hostages) -> None:
    name, hand = case
    counts = decrees.barracks_counts(TABLES, hand)
    want = ref.decree_requirement_met(TABLES, name, hand, capturers=capturers, hostages=hostages)
    got = decrees.decree_requirement_met(TB, TABLES.decree_index[name], counts, capturers, hostages)
    assert got == want
