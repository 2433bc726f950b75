"""Golden games (ARCHITECTURE.md section 8): fixed seeds' full trajectories, hashed and
checked in, so that any change of behaviour is seen: for every playable ruleset, two
two-player games and one game at each larger player count it allows, in
tests/<ruleset>/golden/<env name>.json.

Each golden game is played in the AEC env with actions drawn from the mask by a splitmix64
generator written here (so a numpy upgrade cannot change the games); the sha256 covers, per decision, the acting player's observation (float32 bytes), the
mask, the acting seat and the action, then the final rewards.

To regenerate after an intended change of rules, data, observation or action layout:

    TACSIM_REGEN_GOLDEN=1 python -m pytest tests/platform/test_platform_golden.py -k <ruleset>

and bump the env's version (e.g. envs/tac/tac_v1.py NAME and its version history), since games
recorded with the old version no longer replay. A ruleset with no golden file yet gets one
written by that command (and its test fails until the file exists).
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import numpy as np
import pytest
from _platform import RULESETS

from envs import registry

REGENERATE = os.environ.get("TACSIM_REGEN_GOLDEN") == "1"
TESTS = Path(__file__).resolve().parents[1]


def golden_file(name: str) -> Path:
    return TESTS / name / "golden" / f"{registry.get(name).env_name}.json"


def golden_games(name: str) -> list[tuple[int, int, int]]:
    """(players, seed, game index): two two-player games and one of each larger table."""
    rs = registry.get(name)
    return [(2, 7, 0), (2, 7, 1)] + [(p, 7, 0) for p in range(3, rs.max_players + 1)]


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


def play_golden(name: str, num_players: int, seed: int, game_index: int) -> dict:
    env = registry.make_env(name, num_players=num_players)
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


def _regenerate(name: str) -> None:
    games = {_key(*g): play_golden(name, *g) for g in golden_games(name)}
    path = golden_file(name)
    path.parent.mkdir(parents=True, exist_ok=True)
    doc = {"env": registry.get(name).env_name, "games": games}
    path.write_text(json.dumps(doc, indent=2, sort_keys=True) + "\n", encoding="utf-8")


def _golden(name: str) -> dict:
    path = golden_file(name)
    if REGENERATE:
        _regenerate(name)
    assert path.exists(), (
        f"{name} has no golden games: TACSIM_REGEN_GOLDEN=1 python -m pytest "
        f"tests/platform/test_platform_golden.py -k {name}"
    )
    doc = json.loads(path.read_text(encoding="utf-8"))
    env_name = registry.get(name).env_name
    assert doc["env"] == env_name, (
        f"{path} records {doc['env']}, the env is {env_name}: regenerate it"
    )
    return doc


@pytest.mark.parametrize("name", RULESETS)
def test_golden_games_are_unchanged(name: str) -> None:
    doc = _golden(name)
    for game in golden_games(name):
        want = doc["games"][_key(*game)]
        got = play_golden(name, *game)
        assert got == want, (
            f"{name} golden game {_key(*game)} changed ({want['decisions']} -> "
            f"{got['decisions']} decisions, rewards {want['rewards']} -> {got['rewards']}). If "
            f"the change of behaviour is intended, bump the env's version and regenerate with "
            f"TACSIM_REGEN_GOLDEN=1 python -m pytest {Path(__file__).name} -k {name}"
        )


@pytest.mark.parametrize("name", RULESETS)
def test_golden_games_are_real_games(name: str) -> None:
    """The hash would be worthless over an empty or one-sided trajectory."""
    doc = _golden(name)
    games = golden_games(name)
    assert set(doc["games"]) == {_key(*g) for g in games}
    assert len({g["sha256"] for g in doc["games"].values()}) == len(games)
    for g in doc["games"].values():
        assert g["decisions"] >= 20
        assert set(g["rewards"]) <= {-1.0, 0.0, 1.0}
