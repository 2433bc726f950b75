"""Every kind of bad Fantasy Cards config file is rejected naming the file, entry and field."""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml

from envs.core.config import ConfigError
from envs.fantasy_cards.tables import FC_CONFIG, load_tables


def _broken(tmp_path: Path, file: str, edit: Callable[[dict], None]) -> Path:
    """A copy of configs/fantasy_cards/ with `file` changed by `edit`."""
    d = tmp_path / "fantasy_cards"
    shutil.copytree(FC_CONFIG, d)
    doc = yaml.safe_load((d / file).read_text())
    edit(doc)
    (d / file).write_text(yaml.safe_dump(doc, sort_keys=False))
    return d


def _entry(doc: dict, name: str) -> dict:
    return next(e for e in doc["entries"] if e["name"] == name)


def _fails(d: Path, file: str, entry: str | None, field: str, words: str) -> None:
    with pytest.raises(ConfigError) as info:
        load_tables(d)
    err = info.value
    assert Path(err.path).name == file
    if entry is not None:
        assert err.entry is not None and f"'{entry}'" in err.entry
    assert err.field == field
    assert words in err.message
    msg = str(err)
    assert file in msg and field in msg


CASES = [
    # (id, file, edit, entry, field, words)
    (
        "missing_field",
        "unit_types.yaml",
        lambda d: _entry(d, "ARCHER").pop("points"),
        "ARCHER",
        "points",
        "missing required field",
    ),
    (
        "wrong_type",
        "unit_types.yaml",
        lambda d: _entry(d, "CAVALRY").update(points="four"),
        "CAVALRY",
        "points",
        "integer",
    ),
    (
        "unknown_rating",
        "unit_types.yaml",
        lambda d: _entry(d, "ARCHER").update(protection="Medium Heavy"),
        "ARCHER",
        "protection",
        "unknown rating",
    ),
    (
        "ranged_without_distance",
        "unit_types.yaml",
        lambda d: _entry(d, "ARCHER").update(range_distance=None),
        "ARCHER",
        "range_distance",
        "exactly with ranged_attack",
    ),
    (
        "duplicate_name",
        "unit_types.yaml",
        lambda d: _entry(d, "ARCHER").update(name="AERIAL"),
        "AERIAL",
        "name",
        "duplicate",
    ),
    (
        "bad_origin",
        "unit_types.yaml",
        lambda d: _entry(d, "SWARM").update(origin="homebrew"),
        "SWARM",
        "origin",
        "seed",
    ),
    (
        "unknown_field",
        "distances.yaml",
        lambda d: _entry(d, "Short").update(inches=6),
        "Short",
        "inches",
        "unknown field",
    ),
    (
        "duplicate_halvings",
        "distances.yaml",
        lambda d: _entry(d, "Short").update(halvings=4),
        "Short",
        "halvings",
        "duplicate",
    ),
    (
        "duplicate_sequence_order",
        "sequence_of_play.yaml",
        lambda d: _entry(d, "Replenish Hand").update(order=1),
        "Replenish Hand",
        "order",
        "duplicate",
    ),
    (
        "unknown_class_member",
        "unit_classes.yaml",
        lambda d: _entry(d, "Mounted Unit")["members"].append("KNIGHT"),
        "Mounted Unit",
        "members",
        "unknown unit type",
    ),
    (
        "result_out_of_order",
        "combat_results.yaml",
        lambda d: (_entry(d, "Shaken").update(rank=3), _entry(d, "Out Of Action").update(rank=2)),
        "Shaken",
        "name",
        "Table 6",
    ),
    (
        "bad_modifier_shift",
        "ranged_modifiers.yaml",
        lambda d: _entry(d, "Extreme Range").update(shift=2),
        "Extreme Range",
        "shift",
        "",
    ),
    (
        "drift_unknown_distance",
        "random_drift.yaml",
        lambda d: _entry(d, "Shaken").update(distance="Far"),
        "Shaken",
        "distance",
        "unknown distance",
    ),
    (
        "effect_unknown_target",
        "card_effects.yaml",
        lambda d: _entry(d, "Gallop").update(played_on=["Flying Unit"]),
        "Gallop",
        "played_on",
        "unknown unit type or class",
    ),
    (
        "effect_on_obstacle",
        "card_effects.yaml",
        lambda d: _entry(d, "Stand To")["played_on"].append("OBSTACLE"),
        "Stand To",
        "played_on",
        "OBSTACLE",
    ),
    (
        "ranged_attack_without_rating",
        "card_effects.yaml",
        lambda d: _entry(d, "Fire")["played_on"].append("CAVALRY"),
        "Fire",
        "played_on",
        "no Ranged Attack",
    ),
    (
        "effect_param_not_allowed",
        "card_effects.yaml",
        lambda d: _entry(d, "Recover")["effects"][0].update(distance="Short"),
        "Recover",
        "effects.0.distance",
        "not a parameter",
    ),
    (
        "effect_param_missing",
        "card_effects.yaml",
        lambda d: _entry(d, "Advance")["effects"][0].pop("distance"),
        "Advance",
        "effects.0.distance",
        "required",
    ),
    (
        "effect_unknown_kind",
        "card_effects.yaml",
        lambda d: _entry(d, "Advance")["effects"][0].update(kind="teleport"),
        "Advance",
        "effects.0.kind",
        "",
    ),
    (
        "effect_unknown_distance",
        "card_effects.yaml",
        lambda d: _entry(d, "Advance")["effects"][0].update(distance="Miles"),
        "Advance",
        "effects.0.distance",
        "unknown distance",
    ),
    (
        "interrupt_without_trigger",
        "card_effects.yaml",
        lambda d: _entry(d, "Take Cover").update(trigger="none"),
        "Take Cover",
        "trigger",
        "needs a trigger",
    ),
    (
        "action_with_situation_timing",
        "card_effects.yaml",
        lambda d: _entry(d, "Fire").update(timing="any_time"),
        "Fire",
        "timing",
        "does not fit",
    ),
    (
        "deck_unknown_action",
        "deck.yaml",
        lambda d: _entry(d, "Card 05").update(action="Fly"),
        "Card 05",
        "action",
        "unknown action",
    ),
    (
        "deck_situation_as_action",
        "deck.yaml",
        lambda d: _entry(d, "Card 05").update(action="Opportunity Fire"),
        "Card 05",
        "action",
        "is not an action",
    ),
    (
        "deck_unknown_result",
        "deck.yaml",
        lambda d: _entry(d, "Card 07").update(combat_result="Routed"),
        "Card 07",
        "combat_result",
        "unknown combat result",
    ),
    (
        "deck_duplicate_number",
        "deck.yaml",
        lambda d: _entry(d, "Card 09").update(number=8),
        "Card 09",
        "number",
        "duplicate",
    ),
    (
        "deck_number_out_of_range",
        "deck.yaml",
        lambda d: _entry(d, "Card 09").update(number=73),
        "Card 09",
        "number",
        "1..72",
    ),
    (
        "deck_wrong_size",
        "deck.yaml",
        lambda d: d["entries"].pop(),
        None,
        "entries",
        "exactly 72",
    ),
    (
        "deck_wrong_kind",
        "deck.yaml",
        lambda d: d.update(kind="fantasy_cards.cards"),
        None,
        "kind",
        "fantasy_cards.deck",
    ),
    (
        "standard_game_unknown_distance",
        "standard_game.yaml",
        lambda d: d.update(deploy_min_distance="Far"),
        None,
        "deploy_min_distance",
        "unknown distance",
    ),
    (
        "standard_game_missing_field",
        "standard_game.yaml",
        lambda d: d.pop("hand_size"),
        None,
        "hand_size",
        "missing required field",
    ),
    (
        "campaign_wrong_type",
        "campaign.yaml",
        lambda d: d.update(winner_points="nine"),
        None,
        "winner_points",
        "integer",
    ),
]


@pytest.mark.parametrize(
    ("file", "edit", "entry", "field", "words"),
    [c[1:] for c in CASES],
    ids=[c[0] for c in CASES],
)
def test_bad_config_is_rejected_naming_file_entry_field(tmp_path, file, edit, entry, field, words):
    d = _broken(tmp_path, file, edit)
    _fails(d, file, entry, field, words)


def test_bad_deck_path_is_rejected_naming_that_file(tmp_path):
    doc = yaml.safe_load((FC_CONFIG / "deck.yaml").read_text())
    doc["entries"][3]["situation"] = "Fireball"
    path = tmp_path / "homemade.yaml"
    path.write_text(yaml.safe_dump(doc))
    with pytest.raises(ConfigError) as info:
        load_tables(deck_path=path)
    assert "homemade.yaml" in str(info.value)
    assert info.value.field == "situation" and "Card 04" in info.value.entry


def test_unparsable_yaml_is_rejected(tmp_path):
    d = tmp_path / "fantasy_cards"
    shutil.copytree(FC_CONFIG, d)
    (d / "distances.yaml").write_text("kind: [unclosed\n")
    with pytest.raises(ConfigError, match="distances.yaml: not valid YAML"):
        load_tables(d)
