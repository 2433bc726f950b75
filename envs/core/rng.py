"""Per-game random numbers kept in the state arrays (ARCHITECTURE.md section 4).

Each game owns an xoroshiro128+ state ``rng[b, 0:2]`` (uint64), seeded by splitmix64 from
(seed, game index, stream). The same seed and game index give the same numbers whatever
the batch size or thread count, because no generator is shared between games.
"""

from __future__ import annotations

import numpy as np

from envs.core.jit import njit

_MASK64 = np.uint64(0xFFFFFFFFFFFFFFFF)


@njit
def splitmix64(x):
    """One splitmix64 step; returns (next state, output)."""
    x = np.uint64(x + np.uint64(0x9E3779B97F4A7C15))
    z = x
    z = np.uint64((z ^ (z >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9))
    z = np.uint64((z ^ (z >> np.uint64(27))) * np.uint64(0x94D049BB133111EB))
    return x, np.uint64(z ^ (z >> np.uint64(31)))


@njit
def seed_stream(rng, b, seed, game_index, stream):
    """Seed game b's generator from (seed, game_index, stream)."""
    x = np.uint64(seed)
    x, _ = splitmix64(x)
    x = np.uint64(x ^ np.uint64(game_index) * np.uint64(0xD1B54A32D192ED03))
    x, _ = splitmix64(x)
    x = np.uint64(x ^ np.uint64(stream) * np.uint64(0x8CB92BA72F3D8DD7))
    x, s0 = splitmix64(x)
    x, s1 = splitmix64(x)
    if s0 == 0 and s1 == 0:
        s1 = np.uint64(1)
    rng[b, 0] = s0
    rng[b, 1] = s1


@njit
def _rotl(x, k):
    return np.uint64((x << np.uint64(k)) | (x >> np.uint64(64 - k)))


@njit
def next_u64(rng, b):
    """xoroshiro128+ next output for game b."""
    s0 = rng[b, 0]
    s1 = rng[b, 1]
    result = np.uint64(s0 + s1)
    s1 = np.uint64(s1 ^ s0)
    rng[b, 0] = np.uint64(_rotl(s0, 24) ^ s1 ^ (s1 << np.uint64(16)))
    rng[b, 1] = _rotl(s1, 37)
    return result


@njit
def randint(rng, b, n):
    """Uniform integer in [0, n) (Lemire's multiply-shift on the top 32 bits; n < 2**31)."""
    r = next_u64(rng, b) >> np.uint64(32)
    return np.int64((r * np.uint64(n)) >> np.uint64(32))


@njit
def roll_d(rng, b, sides):
    """One die with `sides` faces: 1..sides (d3, d4, d6)."""
    return randint(rng, b, sides) + 1


@njit
def roll_d6(rng, b):
    return randint(rng, b, 6) + 1


@njit
def roll_2d6(rng, b):
    return randint(rng, b, 6) + randint(rng, b, 6) + 2


@njit
def roll_n_or_lower(rng, b, n):
    """A d6 roll that succeeds on n or lower (n <= 0 never succeeds, n >= 6 always)."""
    return roll_d6(rng, b) <= n


@njit
def shuffle_prefix(rng, b, arr, n):
    """Fisher-Yates shuffle of arr[0:n] in place (arr is a 1-D view of one game's pile)."""
    for i in range(n - 1, 0, -1):
        j = randint(rng, b, i + 1)
        t = arr[i]
        arr[i] = arr[j]
        arr[j] = t
