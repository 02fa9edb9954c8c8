"""``core.fastrand.shuffle``: the order and the stream of ``random.Random.shuffle``."""

from __future__ import annotations

import random

import pytest

from kingmaker.core import fastrand


class _Own(random.Random):
    """A stream type of its own: ``shuffle`` hands it to the stream's own method."""

    def shuffle(self, x):  # noqa: D102
        self.calls = getattr(self, "calls", 0) + 1
        super().shuffle(x)


@pytest.mark.parametrize("size", [0, 1, 2, 7, 64, 255, 256, 257, 1000])
def test_shuffle_is_random_shuffle(size):
    assert fastrand.SAME_AS_RANDOM
    for seed in range(30):
        a, b = random.Random(seed), random.Random(seed)
        xa, xb = list(range(size)), list(range(size))
        a.shuffle(xa)
        fastrand.shuffle(xb, b)
        assert xa == xb
        assert a.getstate() == b.getstate()


def test_other_streams_use_their_own_shuffle():
    r = _Own(3)
    x = list(range(10))
    fastrand.shuffle(x, r)
    assert r.calls == 1 and sorted(x) == list(range(10))
