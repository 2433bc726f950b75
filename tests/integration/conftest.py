"""Shared fixtures of the integration tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.integration.rulesets import register_data_only


@pytest.fixture(autouse=True)
def _data_only_ruleset(monkeypatch) -> None:
    """Every integration test sees a data-only ruleset in the registry (rulesets.DATA_ONLY):
    a made-up entry once every real ruleset has an engine."""
    register_data_only(monkeypatch)


@pytest.fixture(scope="session")
def tiny_ppo(tmp_path_factory) -> Path:
    """A MaskablePPO model of TAC trained for 128 steps by agents.training (the folder
    `tacsim train` writes: model.zip, config.json): a policy to play, not a good one."""
    from agents.training import TrainConfig, train

    out = tmp_path_factory.mktemp("tiny_ppo") / "run"
    config = TrainConfig(
        out=out,
        timesteps=128,
        ruleset="tac",
        opponent="random",
        seed=5,
        n_envs=4,
        vec="batch",
        n_steps=32,
        batch_size=64,
        n_epochs=1,
        net_arch=[32],
        checkpoint_every=0,
        eval_games=0,
        progress_bar=False,
    )
    train(config)
    assert (out / "model.zip").is_file()
    return out
