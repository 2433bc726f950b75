"""Small statistics shared by self-play, balance and training reports."""

from __future__ import annotations

import math


def wilson_interval(successes: int, n: int, confidence: float = 0.95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (scipy's binomtest; exact 0 and 1 at
    the ends). (nan, nan) when there are no trials."""
    if n <= 0:
        return (math.nan, math.nan)
    # imported here: scipy.stats takes about 1 s to import, and every `tacsim` command
    # imports this module (through the selfplay and training plug-ins)
    from scipy.stats import binomtest

    ci = binomtest(int(successes), int(n)).proportion_ci(
        confidence_level=confidence, method="wilson"
    )
    return (float(ci.low), float(ci.high))
