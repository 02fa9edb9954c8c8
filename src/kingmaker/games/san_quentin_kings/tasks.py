"""San Quentin Kings chance tasks: every random event waits in the state's queue as an int.

A task is ``kind * 1000 + mode * 100 + a * 10 + b``::

    K_INIT        choose the first initiator
    K_SHANK       a = player; mode 0: b owed shank cards (1-3), 1: one stolen from the
                  supply by a bribe, 2: the same by a Steal Shank card
    K_DRUG        a = player; mode 0: b owed drug chips (1-3), 1: one stolen from the supply
    K_CSHANK      b cafeteria shank cards, face up
    K_CDRUG       b cafeteria drug chips, face up
    K_FIGHT       a = player drawing a fight card
    K_STEAL_SHANK a thief, b victim; mode 1 by a Steal Shank card
    K_STEAL_DRUG  a thief, b victim

Several cards or chips dealt at once (a *batch*) are one chance node whose outcomes are the
multisets of types (multivariate hypergeometric probabilities).
"""

from __future__ import annotations

from math import comb

from . import actions as A

K_INIT = 1
K_SHANK = 2
K_DRUG = 3
K_CSHANK = 4
K_CDRUG = 5
K_FIGHT = 6
K_STEAL_SHANK = 7
K_STEAL_DRUG = 8
BATCH = 3  # at most this many cards or chips are dealt in one chance node


def task(kind: int, mode: int = 0, a: int = 0, b: int = 0) -> int:
    return kind * 1000 + mode * 100 + a * 10 + b


def split_task(t: int) -> tuple[int, int, int, int]:
    kind, rest = divmod(t, 1000)
    mode, ab = divmod(rest, 100)
    a, b = divmod(ab, 10)
    return kind, mode, a, b


# SPLIT[t] == split_task(t) for every task there can be (kinds 1-8): the rules' hot paths index it.
SPLIT = tuple(split_task(t) for t in range((K_STEAL_DRUG + 1) * 1000))


def is_batch(kind: int, mode: int) -> bool:
    """Returns True for the tasks that deal several cards or chips at once (count in ``b``)."""
    return kind == K_CSHANK or kind == K_CDRUG or (mode == 0 and (kind == K_SHANK or kind == K_DRUG))


def outcome_counts(a: int) -> tuple[tuple[int, int, int], bool]:
    """Returns the counts by type or colour dealt by chance outcome ``a``, and whether they are shanks."""
    if a < A.CH_DRUG0:
        t = a - A.CH_SHANK0
        return ((1, 0, 0), (0, 1, 0), (0, 0, 1))[t], True
    if a < A.CH_CARD0:
        t = a - A.CH_DRUG0
        return ((1, 0, 0), (0, 1, 0), (0, 0, 1))[t], False
    shank = a < A.CH_DRUGS0
    x = a - (A.CH_SHANKS0 if shank else A.CH_DRUGS0)
    return (x >> 4, (x >> 2) & 3, x & 3), shank


def deal_outcomes(counts: tuple[int, ...], k: int, single: int, multi: int) -> list[tuple[int, float]]:
    """Returns the outcomes of dealing ``k`` items from a pile holding ``counts`` by kind: one
    outcome per kind when k = 1, else one per multiset (multivariate hypergeometric)."""
    total = counts[0] + counts[1] + counts[2]
    if k == 1:
        return [(single + i, c / total) for i, c in enumerate(counts) if c]
    out = []
    denom = comb(total, k)
    for x in range(min(k, counts[0]) + 1):
        for y in range(min(k - x, counts[1]) + 1):
            z = k - x - y
            if z <= counts[2]:
                out.append((multi + x * 16 + y * 4 + z, comb(counts[0], x) * comb(counts[1], y) * comb(counts[2], z) / denom))
    return out
