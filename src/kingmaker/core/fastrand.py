"""``random.Random.shuffle`` with the same draws, without its per-swap method calls.

Search rollouts and resamplings shuffle a lot. ``Random.shuffle(x)`` swaps x[i]
with x[_randbelow(i + 1)] for i from the end down to 1, and ``_randbelow(n)``
draws ``getrandbits(n.bit_length())`` until the draw is below n. ``shuffle``
below does exactly that in one loop, so it gives the same order and leaves the
stream in the same state; it is used only for a plain ``random.Random`` and
only where this Python's own shuffle was checked to agree at import
(``SAME_AS_RANDOM``), and falls back to ``rng.shuffle`` everywhere else.
"""

from __future__ import annotations

import random

__all__ = ["SAME_AS_RANDOM", "shuffle"]

_BITS = tuple(m.bit_length() for m in range(257))


def _shuffle(x: list, rng: random.Random) -> None:
    getrandbits = rng.getrandbits
    bits = _BITS
    for i in range(len(x) - 1, 0, -1):
        n = i + 1
        k = bits[n] if n < 257 else n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        x[i], x[j] = x[j], x[i]


def _agrees() -> bool:
    """Whether ``_shuffle`` is this Python's ``Random.shuffle`` (same order, same stream after)."""
    for seed in range(20):
        for size in (0, 1, 2, 3, 5, 8, 13, 21, 40, 300):
            a, b = random.Random(seed), random.Random(seed)
            xa, xb = list(range(size)), list(range(size))
            a.shuffle(xa)
            _shuffle(xb, b)
            if xa != xb or a.getstate() != b.getstate():
                return False
    return True


SAME_AS_RANDOM = _agrees()


def shuffle(x: list, rng: random.Random) -> None:
    """Shuffles ``x`` in place as ``rng.shuffle(x)`` does: the same order and the same draws."""
    if SAME_AS_RANDOM and type(rng) is random.Random:
        _shuffle(x, rng)
    else:
        rng.shuffle(x)
