"""Helpers shared by the TAC API-level tests (test_tac_api, test_golden, test_hidden_info).
Plain functions, no fixtures: tests/tac/conftest.py belongs to the rule tests."""

from __future__ import annotations

import sys
from pathlib import Path

# the helpers are the shared platform suite's (tests/platform/_platform.py), which pytest puts
# on sys.path only when it collects that folder too
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "platform"))

from _platform import game_rng, pick, play_aec_game, play_to_the_end  # noqa: E402

__all__ = ["game_rng", "pick", "play_aec_game", "play_to_the_end"]
