"""The project's statistics: the one Wilson interval, differences of rates and of means.

Everything here is plain Python (no third-party import), so the arena and the
lab share it without pulling in the lab's extras.

- ``wilson(k, n)``: the 95% Wilson score interval of a proportion (k may be
  fractional: a shared win counts 1/k).
- ``rate_difference(k1, n1, k2, n2)``: the difference of two proportions with
  Newcombe's hybrid score interval (built from the two Wilson intervals) and
  the two-sided p-value of the pooled two-proportion z-test.
- ``mean_difference(xs, ys)``: the difference of two means with a Welch
  interval (normal approximation, fine for the thousands of games the lab plays).
- ``chi_square_uniform(counts)``: the p-value that counts come from equal
  shares (is any seat favoured?).
- ``sign_test(k, n)``: the exact two-sided p-value of k successes in n fair
  trials (the paired comparison of two studies on the same deals: of the n
  deals they ended differently, k went the first's way).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

__all__ = [
    "Z95",
    "chi_square_uniform",
    "mean_difference",
    "mean_sd",
    "normal_p",
    "rate_difference",
    "sign_test",
    "wilson",
]

Z95 = 1.959963984540054


def wilson(successes: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Returns the Wilson score interval of a proportion (95% by default); (0, 1) when n is 0."""
    if n <= 0:
        return (0.0, 1.0)
    p = successes / n
    denom = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / denom
    half = z * math.sqrt(max(0.0, p * (1 - p) / n + z * z / (4 * n * n))) / denom
    return (max(0.0, centre - half), min(1.0, centre + half))


def normal_p(z: float) -> float:
    """Returns the two-sided p-value of a standard normal statistic."""
    return math.erfc(abs(z) / math.sqrt(2))


def rate_difference(k1: float, n1: int, k2: float, n2: int, z: float = Z95) -> dict:
    """Returns p2 - p1 with Newcombe's 95% interval and the two-proportion z-test p-value.

    Keys: diff, ci95 (lo, hi), p (two-sided), significant (the interval excludes 0).
    """
    if n1 <= 0 or n2 <= 0:
        return {"diff": float("nan"), "ci95": (-1.0, 1.0), "p": 1.0, "significant": False}
    p1, p2 = k1 / n1, k2 / n2
    l1, u1 = wilson(k1, n1, z)
    l2, u2 = wilson(k2, n2, z)
    d = p2 - p1
    lo = d - math.sqrt((p2 - l2) ** 2 + (u1 - p1) ** 2)
    hi = d + math.sqrt((u2 - p2) ** 2 + (p1 - l1) ** 2)
    pooled = (k1 + k2) / (n1 + n2)
    se = math.sqrt(pooled * (1 - pooled) * (1 / n1 + 1 / n2))
    p = normal_p(d / se) if se > 0 else (1.0 if d == 0 else 0.0)
    return {"diff": d, "ci95": (lo, hi), "p": p, "significant": lo > 0 or hi < 0}


def mean_sd(xs: Sequence[float]) -> tuple[float, float]:
    """Returns the mean and the sample standard deviation (0 for fewer than two values)."""
    n = len(xs)
    if n == 0:
        return (float("nan"), 0.0)
    m = math.fsum(xs) / n
    if n < 2:
        return (m, 0.0)
    return (m, math.sqrt(math.fsum((x - m) ** 2 for x in xs) / (n - 1)))


def mean_difference(xs: Sequence[float], ys: Sequence[float], z: float = Z95) -> dict:
    """Returns mean(ys) - mean(xs) with a 95% Welch (normal) interval and its p-value."""
    if not xs or not ys:
        return {"diff": float("nan"), "ci95": (float("nan"), float("nan")), "p": 1.0, "significant": False}
    mx, sx = mean_sd(xs)
    my, sy = mean_sd(ys)
    d = my - mx
    se = math.sqrt(sx * sx / len(xs) + sy * sy / len(ys))
    if se == 0:
        return {"diff": d, "ci95": (d, d), "p": 1.0 if d == 0 else 0.0, "significant": d != 0}
    lo, hi = d - z * se, d + z * se
    return {"diff": d, "ci95": (lo, hi), "p": normal_p(d / se), "significant": lo > 0 or hi < 0}


def _upper_gamma_q(a: float, x: float) -> float:
    """Returns the regularised upper incomplete gamma Q(a, x) (Numerical Recipes' method)."""
    if x <= 0:
        return 1.0
    lg = math.lgamma(a)
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        ap = a
        for _ in range(1000):
            ap += 1
            term *= x / ap
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - lg))
    # Continued fraction (Lentz) for Q.
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - lg) * h)


def chi_square_uniform(counts: Sequence[float]) -> float:
    """Returns the p-value of Pearson's chi-square test that ``counts`` share one rate.

    Used on wins per seat: a small p-value says some seat wins more often than
    the others. Returns 1.0 when there is nothing to test.
    """
    k = len(counts)
    total = math.fsum(counts)
    if k < 2 or total <= 0:
        return 1.0
    expected = total / k
    x = math.fsum((c - expected) ** 2 / expected for c in counts)
    return _upper_gamma_q((k - 1) / 2, x / 2)


def sign_test(k: int, n: int) -> float:
    """Returns the exact two-sided p-value of ``k`` successes in ``n`` trials of a fair coin.

    Twice the smaller tail, capped at 1 (1.0 when ``n`` is 0). Exact for the
    few hundred trials a study's paired comparison has.
    """
    if n <= 0:
        return 1.0
    if not 0 <= k <= n:
        raise ValueError(f"sign_test: k must lie in 0..n, got k={k}, n={n}")
    low = min(k, n - k)
    tail = math.fsum(math.comb(n, i) for i in range(low + 1)) / 2.0**n
    return min(1.0, 2.0 * tail)
