"""The one place njit flags and numba's cache are set (ARCHITECTURE.md section 9).

Compiled kernels are cached on disk so that a second start takes about a second. numba
checks only the file that defines a cached kernel, not the files it calls, so after an
edit of envs/tac/turn.py a cached kernel of another module would still run the old rules.
The cache therefore lives in a folder named after a hash of every source file under envs/
and agents/: any edit selects a fresh folder (compiled once), and the few most recent
folders are kept so that switching branches stays cheap.

Where: $NUMBA_CACHE_DIR/<hash> if that variable is set, else
$XDG_CACHE_HOME/tacsim/numba/<hash> (~/.cache/tacsim/numba/<hash>).
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from pathlib import Path

import numba
from numba.core import config as _numba_config

_ROOT = Path(__file__).resolve().parents[2]
_KEEP = 3  # cache folders kept per root (the newest by use)
_HASH_NAME = re.compile(r"^[0-9a-f]{16}$")


def source_hash() -> str:
    """Hash of every .py file under envs/ and agents/ (what the kernels are compiled from)."""
    h = hashlib.sha256()
    for package in ("envs", "agents"):
        for path in sorted((_ROOT / package).rglob("*.py")):
            h.update(path.relative_to(_ROOT).as_posix().encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def _cache_root() -> Path:
    given = os.environ.get("NUMBA_CACHE_DIR")
    if given:
        return Path(given)
    xdg = os.environ.get("XDG_CACHE_HOME")
    return (Path(xdg) if xdg else Path.home() / ".cache") / "tacsim" / "numba"


def _configure_cache() -> tuple[str, Path]:
    digest = source_hash()
    root = _cache_root()
    folder = root / digest
    try:
        folder.mkdir(parents=True, exist_ok=True)
        os.utime(folder)  # marks it as the newest in use
        ours = [p for p in root.iterdir() if p.is_dir() and _HASH_NAME.match(p.name)]
        ours.sort(key=lambda p: p.stat().st_mtime, reverse=True)
        for old in ours[_KEEP:]:
            shutil.rmtree(old, ignore_errors=True)
    except OSError:
        pass  # an unwritable cache only costs compile time: numba then compiles in memory
    _numba_config.CACHE_DIR = str(folder)
    return digest, folder


SOURCE_HASH, CACHE_DIR = _configure_cache()

# Kernels that loop over the batch use `njit_parallel` and numba.prange.
njit = numba.njit(cache=True, nogil=True)
njit_parallel = numba.njit(cache=True, nogil=True, parallel=True)
