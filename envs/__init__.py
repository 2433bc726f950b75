"""tacsim environments: one package per ruleset over shared numba cores.

    envs.rulesets()                     names of registered rulesets (and their state)
    envs.make_env(name, **kwargs)       a PettingZoo AEC env
    envs.make_batch(name, num_envs, num_players, seed, ...)   a BatchEnv
    envs.get_ruleset(name)              the ruleset contract (envs/core/ruleset.py)

The PettingZoo-style modules stay the main door: ``from envs.tac import tac_v1``.
"""

from envs.registry import ENTRIES, make_batch, make_env
from envs.registry import get as get_ruleset


def rulesets() -> dict[str, str]:
    """Registered ruleset name -> "playable", "in progress" or "data only"."""
    return {n: e.status for n, e in ENTRIES.items()}


__all__ = ["get_ruleset", "make_batch", "make_env", "rulesets"]
