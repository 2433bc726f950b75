"""TAC - Tactical Armoured Combat (seed 002): `from envs.tac import tac_v1`."""

from envs.tac import tac_v1

__all__ = ["tac_v1"]
