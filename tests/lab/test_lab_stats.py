"""The project's one set of statistics (issue 15): Wilson, rate and mean differences, chi-square."""

from __future__ import annotations

import math

import pytest

from kingmaker.agents import arena
from kingmaker.lab import stats
from kingmaker.lab.stats import chi_square_uniform, mean_difference, rate_difference, wilson


def test_there_is_one_wilson_interval():
    assert arena.wilson is stats.wilson
    lo, hi = wilson(5, 10)
    assert math.isclose(lo, 0.2366, abs_tol=1e-4) and math.isclose(hi, 0.7634, abs_tol=1e-4)
    assert wilson(0, 0) == (0.0, 1.0)


def test_rate_difference_matches_newcombes_worked_example():
    # Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 against 48/80,
    # method 10 gives 0.0524 to 0.3339 for p1 - p2.
    d = rate_difference(48, 80, 56, 70)
    assert math.isclose(d["diff"], 0.2, abs_tol=1e-9)
    assert math.isclose(d["ci95"][0], 0.0524, abs_tol=1e-3) and math.isclose(d["ci95"][1], 0.3339, abs_tol=1e-3)
    assert d["significant"] and d["p"] < 0.01
    same = rate_difference(50, 100, 50, 100)
    assert same["diff"] == 0 and not same["significant"] and math.isclose(same["p"], 1.0)


def test_mean_difference_and_chi_square():
    d = mean_difference([1.0, 2.0, 3.0] * 50, [2.0, 3.0, 4.0] * 50)
    assert math.isclose(d["diff"], 1.0) and d["significant"]
    assert not mean_difference([1.0, 2.0] * 5, [2.0, 1.0] * 5)["significant"]
    # chi-square with 2 degrees of freedom: P(X > 5.991) = 0.05.
    # counts 70, 50, 30 (expected 50 each): x = (400 + 0 + 400) / 50 = 16 -> p = exp(-8).
    assert math.isclose(chi_square_uniform([70, 50, 30]), math.exp(-8), rel_tol=1e-9)
    assert math.isclose(chi_square_uniform([50, 50]), 1.0)
    # 1 degree of freedom: x = 3.841 gives p = 0.05.
    n = 1000
    k = n / 2 + math.sqrt(3.841458820694124 * n / 4)
    assert math.isclose(chi_square_uniform([k, n - k]), 0.05, rel_tol=1e-6)


def test_the_sign_test_is_exact_and_symmetric():
    from kingmaker.lab.stats import sign_test

    # 2 of 10: P(X <= 2) = (1 + 10 + 45) / 1024, doubled.
    assert sign_test(2, 10) == pytest.approx(2 * 56 / 1024)
    assert sign_test(8, 10) == sign_test(2, 10)
    assert sign_test(5, 10) == 1.0 and sign_test(0, 0) == 1.0
    assert sign_test(0, 5) == pytest.approx(2 / 32)
    with pytest.raises(ValueError, match="0..n"):
        sign_test(6, 5)
