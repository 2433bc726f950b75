"""Golden games (ARCHITECTURE.md section 8): fixed seeds' full trajectories, hashed and
checked in, so that any change of behaviour is seen.

Each golden game is played in the AEC env with actions drawn from the mask by a splitmix64
generator written here (so a numpy upgrade cannot change the games); the sha256 covers, per decision, the acting player's observation (float32 bytes), the
mask, the acting seat and the action, then the final rewards.

To regenerate after an intended change of rules, data, observation or action layout:

    TACSIM_REGEN_GOLDEN=1 python -m pytest tests/tac/test_golden.py

and bump tac_v1's version (envs/tac/tac_v1.py NAME and its version history), since games
recorded with the old version no longer replay.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest

from envs.tac import tac_v1

GOLDEN_FILE = Path(__file__).parent / "golden" / "tac_v1.json"
REGENERATE = os.environ.get("TACSIM_REGEN_GOLDEN") == "1"
# (players, seed, game index): two-player games and one of each larger table
GOLDEN_GAMES = [(2, 7, 0), (2, 7, 1), (3, 7, 0), (4, 7, 0), (5, 7, 0)]


_M64 = (1 << 64) - 1


class SplitMix64:
    """The action chooser of the golden games: splitmix64, legal action = next % count."""

    def __init__(self, seed: int) -> None:
        self.x = seed & _M64

    def next(self) -> int:
        self.x = (self.x + 0x9E3779B97F4A7C15) & _M64
        z = self.x
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _M64
        return z ^ (z >> 31)

    def pick(self, mask: np.ndarray) -> int:
        legal = np.flatnonzero(mask)
        return int(legal[self.next() % legal.size])


def play_golden(num_players: int, seed: int, game_index: int) -> dict:
    env = tac_v1.raw_env(num_players=num_players)
    env.reset(seed=seed, options={"game_index": game_index})
    rng = SplitMix64(seed * 1_000_003 + game_index)
    h = hashlib.sha256()
    decisions = 0
    while not env.terminations[env.agent_selection]:
        agent = env.agent_selection
        obs = env.observe(agent)
        a = rng.pick(obs["action_mask"])
        h.update(obs["observation"].astype(np.float32).tobytes())
        h.update(obs["action_mask"].astype(np.int8).tobytes())
        h.update(np.array([env.agent_name_mapping[agent], a], dtype=np.int64).tobytes())
        env.step(a)
        decisions += 1
    rewards = [float(env.rewards[a]) for a in env.possible_agents]
    h.update(np.array(rewards, dtype=np.float32).tobytes())
    return {"sha256": h.hexdigest(), "decisions": decisions, "rewards": rewards}


def _key(num_players: int, seed: int, game_index: int) -> str:
    return f"{num_players}p_seed{seed}_game{game_index}"


def _regenerate() -> None:
    games = {_key(*g): play_golden(*g) for g in GOLDEN_GAMES}
    GOLDEN_FILE.parent.mkdir(parents=True, exist_ok=True)
    doc = {"env": tac_v1.NAME, "games": games}
    GOLDEN_FILE.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


if REGENERATE:
    _regenerate()


@pytest.mark.parametrize("game", GOLDEN_GAMES, ids=lambda g: _key(*g))
def test_golden_game_is_unchanged(game: tuple[int, int, int]) -> None:
    doc = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
    assert doc["env"] == tac_v1.NAME, (
        f"{GOLDEN_FILE} records {doc['env']}, the env is {tac_v1.NAME}: regenerate it"
    )
    want = doc["games"][_key(*game)]
    got = play_golden(*game)
    assert got == want, (
        f"golden game {_key(*game)} changed ({want['decisions']} -> {got['decisions']} "
        f"decisions, rewards {want['rewards']} -> {got['rewards']}). If the change of "
        f"behaviour is intended, bump tac_v1's version and regenerate with "
        f"TACSIM_REGEN_GOLDEN=1 python -m pytest {Path(__file__).name}"
    )


def test_golden_games_are_real_games() -> None:
    """The hash would be worthless over an empty or one-sided trajectory."""
    doc = json.loads(GOLDEN_FILE.read_text(encoding="utf-8"))
    assert set(doc["games"]) == {_key(*g) for g in GOLDEN_GAMES}
    hashes = {g["sha256"] for g in doc["games"].values()}
    assert len(hashes) == len(GOLDEN_GAMES)
    for g in doc["games"].values():
        assert g["decisions"] > 50
        assert set(g["rewards"]) <= {-1.0, 0.0, 1.0}
