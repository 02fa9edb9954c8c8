"""The fast Kingpin heuristic chooses as the previous one did (issue 16 section 1, search speed).

The rulebook sections read by the bot are those of its evaluation (Fire Exchange,
No Man's Land, the exit past the enemy's area); this file checks no rule, only
that the faster bot (one-pass ``evaluate``, best attack only, the moves'
evaluations kept per position) gives the previous bot's choices, evaluations and
use of the random stream. ``kingpin_reference_bot`` is the previous bot, kept as
the reference.
"""

from __future__ import annotations

import random

import kingpin_reference_bot as ref
import pytest
import seeded_positions

import kingmaker
from kingmaker.games.kingpin import bot
from kingmaker.games.kingpin.state import PLAY


def positions(g, seed: int, games: int):
    """Yields (state, player) at every decision of seeded games (mostly the reference heuristic's moves)."""
    return seeded_positions.positions(g, seed, games, ref.heuristic_action, 0.7)


@pytest.mark.parametrize("options", [{}, {"board": "B"}, {"goodfellas": True}, {"long_night": True}])
def test_fast_heuristic_matches_the_reference_on_seeded_positions(options):
    g = kingmaker.make("kingpin", 2, **options)
    checked = 0
    for k, (s, p) in enumerate(positions(g, 11, 2)):
        for repeat in range(2):  # the second call reads the kept evaluations
            r1, r2 = random.Random(k * 7 + repeat), random.Random(k * 7 + repeat)
            assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), (k, repeat)
            assert r1.getstate() == r2.getstate()
        for q in (0, 1):
            assert bot.evaluate(g, s, q) == ref.evaluate(g, s, q)
        assert bot.evaluate_state(g, s) == ref.evaluate_state(g, s)
        checked += 1
    assert checked > 40


def test_evaluations_match_after_every_move_of_a_position():
    """The heuristic's own inputs: every child of every position, from both seats."""
    g = kingmaker.make("kingpin")
    children = 0
    for s, p in positions(g, 5, 1):
        for a in g.legal_actions(s, p):
            c = g.apply(s, a, p)
            assert bot.evaluate(g, c, 0) == ref.evaluate(g, c, 0)
            assert bot.evaluate(g, c, 1) == ref.evaluate(g, c, 1)
            children += 1
    assert children > 500


def test_kept_evaluations_are_bounded():
    g = kingmaker.make("kingpin")
    old = bot.MEMO_MAX
    bot.MEMO_MAX = 5
    try:
        for k, (s, p) in enumerate(positions(g, 3, 1)):
            r1, r2 = random.Random(k), random.Random(k)
            assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1)
            assert len(bot._tables(g)["moves"]) <= 5
    finally:
        bot.MEMO_MAX = old


@pytest.mark.parametrize("options", [{}, {"board": "B"}, {"goodfellas": True}, {"long_night": True}])
def test_bounds_are_above_the_evaluations(options):
    """The heuristic skips a move whose bound (no enemy attack, every enemy tile on the board
    liquidated by its own attack) is below the best so far: the bound must hold for every move."""
    g = kingmaker.make("kingpin", 2, **options)
    moves = 0
    for s, p in positions(g, 7, 1):
        legal = g.legal_actions(s, p)
        if len(legal) < 2 or s.phase != PLAY:
            continue
        (ubs, vals), _known = bot._bounds(g, s, p, legal, bot._tables(g))
        for a, u, v in zip(legal, ubs, vals):
            e = ref.evaluate(g, g.apply(s, a, p), p)
            assert u >= e, (a, u, e)
            assert v is None or v == e
            moves += 1
    assert moves > 300


def test_many_tie_breaks_on_one_position_match_the_reference():
    """A position met again with other tie-breaks evaluates the moves skipped the first time."""
    g = kingmaker.make("kingpin")
    checked = 0
    for k, (s, p) in enumerate(positions(g, 13, 1)):
        if k % 5:
            continue
        for seed in range(8):
            r1, r2 = random.Random(seed), random.Random(seed)
            assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), (k, seed)
            assert r1.getstate() == r2.getstate()
        checked += 1
    assert checked > 5
