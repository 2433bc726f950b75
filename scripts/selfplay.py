"""Thin entry point: `python scripts/selfplay.py ARGS` is `tacsim selfplay ARGS` (agents/cli.py)."""

from __future__ import annotations

import sys
from pathlib import Path

# run from a checkout without installing: the repository root holds the packages
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from agents.cli import main  # noqa: E402

if __name__ == "__main__":
    sys.exit(main(["selfplay", *sys.argv[1:]]))
