"""TAC - Tactical Armoured Combat (seed 002): `from envs.tac import tac_v1`.

`tac_v1` (the PettingZoo env: pettingzoo and gymnasium) is imported when first asked for,
so the batched and self-play paths (envs.tac.ruleset) do not pay for it."""

from __future__ import annotations

import importlib

__all__ = ["tac_v1"]


def __getattr__(name: str):
    if name == "tac_v1":
        return importlib.import_module("envs.tac.tac_v1")
    raise AttributeError(f"module 'envs.tac' has no attribute {name!r}")
