"""The fast Gangs of Green City heuristic chooses as the previous one did (issue 16 section 1).

The bot reads the rulebook's Moves, Battle, Ending Recruitment, Safe Houses and
the Gang Leader phase (through its danger and odds); this file checks no rule,
only that the faster bot (memoised draw odds, routes, district counts, danger
and battle gains) gives the previous bot's choices, evaluations and use of the
random stream. ``ggc_reference_bot`` is the previous bot, kept as the reference.
"""

from __future__ import annotations

import random

import ggc_reference_bot as ref
import pytest
import seeded_positions

import kingmaker
from kingmaker.games.gangs_of_green_city import bot


def positions(g, seed: int, games: int):
    """Yields (state, player) at every decision of seeded games (mostly the reference heuristic's moves)."""
    return seeded_positions.positions(g, seed, games, ref.heuristic_action, 0.85)


@pytest.mark.parametrize(
    "players, options",
    [(2, {}), (3, {"starting_hands": True}), (4, {"escalations": 4, "weaknesses": "every_card"}),
     (2, {"continue_the_fight": True, "starting_hands": True})],
)
def test_fast_heuristic_matches_the_reference_on_seeded_positions(players, options):
    g = kingmaker.make("gangs-of-green-city", players, **options)
    checked = 0
    for k, (s, p) in enumerate(positions(g, 21 + players, 4)):
        r1, r2 = random.Random(k), random.Random(k)
        assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), k
        assert r1.getstate() == r2.getstate()
        assert bot.evaluate(s) == ref.evaluate(s)
        assert list(bot.draw_odds(s)) == ref.draw_odds(s)
        checked += 1
    assert checked > 200


def test_memos_start_afresh_when_full():
    """The memos are bounded; a cleared memo gives the same choices."""
    g = kingmaker.make("gangs-of-green-city", 2)
    old = bot._MEMO_MAX, bot._BIG_MEMO_MAX
    bot._MEMO_MAX = bot._BIG_MEMO_MAX = 3
    memos = [v for k, v in vars(bot).items() if k.endswith("_memo")]
    assert len(memos) >= 7
    for m in memos:
        m.clear()
    try:
        for k, (s, p) in enumerate(positions(g, 7, 2)):
            r1, r2 = random.Random(k), random.Random(k)
            assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), k
            assert all(len(m) <= 3 for m in memos)
    finally:
        bot._MEMO_MAX, bot._BIG_MEMO_MAX = old
