"""TAC - Tactical Armoured Combat (seed 002): `from envs.tac import tac_v0`."""

from envs.tac import tac_v0

__all__ = ["tac_v0"]
