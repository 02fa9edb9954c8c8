"""``benchmarks/kingpin_learned_eval.py`` learns on ``evaluate``'s own terms: they must be its terms.

The exploration script (benchmarks/expert.md, "A value learned on evaluate's own terms")
splits the Kingpin bot's ``evaluate`` into 20 numbers a seat; weighted as ``evaluate``
weighs them they must give ``bot.win_chance`` back, on every board and variant, or the
script's figures would be about some other evaluation. No rule is checked here.
"""

from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pytest
import seeded_positions

import kingmaker
from kingmaker.games.kingpin import bot
from kingmaker.games.kingpin.state import DRAW, PLAY

SCRIPT = Path(__file__).resolve().parents[3] / "benchmarks" / "kingpin_learned_eval.py"


@pytest.fixture(scope="module")
def script():
    spec = importlib.util.spec_from_file_location("kingpin_learned_eval", SCRIPT)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


@pytest.mark.parametrize("options", [{}, {"board": "B"}, {"goodfellas": True}, {"long_night": True}])
def test_the_features_weighted_as_evaluate_weighs_them_give_win_chance(script, options):
    g = kingmaker.make("kingpin", players=2, **options)
    F0, F1, wc, phases = [], [], [], set()
    for s, _ in seeded_positions.positions(g, 7, 6, lambda g, s, p, r: g.heuristic_action(s, p, r), 0.8):
        if s.phase in (PLAY, DRAW):
            F0.append(script.features(g, s, 0))
            F1.append(script.features(g, s, 1))
            wc.append(bot.win_chance(g, s)[0])
            phases.add(s.phase)
    assert len(wc) > 100 and PLAY in phases
    F0, F1 = np.array(F0), np.array(F1)
    assert np.abs(script.win_chance(F0, F1) - np.array(wc)).max() < 1e-9


def test_a_changed_weight_is_caught(script):
    """The check can fail: one term weighed differently no longer gives win_chance."""
    g = kingmaker.make("kingpin", players=2)
    states = [s for s, _ in seeded_positions.positions(g, 3, 3, lambda g, s, p, r: g.heuristic_action(s, p, r), 0.8)
              if s.phase == PLAY]
    F0 = np.array([script.features(g, s, 0) for s in states])
    F1 = np.array([script.features(g, s, 1) for s in states])
    wc = np.array([bot.win_chance(g, s)[0] for s in states])
    saved = script.WEIGHTS.copy()
    try:
        script.WEIGHTS[14] = -0.5  # the opponent's attack at half its weight
        assert np.abs(script.win_chance(F0, F1) - wc).max() > 1e-6
    finally:
        script.WEIGHTS[:] = saved
