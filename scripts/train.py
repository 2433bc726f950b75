"""Train MaskablePPO on any playable ruleset (default TAC); the same options as `tacsim train` (agents/training.py).

Example: python scripts/train.py --opponent random --timesteps 200000 --seed 0 --out runs/ppo
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # run from a source checkout

from agents.training import main  # noqa: E402

if __name__ == "__main__":
    raise SystemExit(main())
