"""The fast San Quentin Kings heuristic chooses as the previous one did (issue 16 section 1).

The bot reads the rulebook's Scoring Fight (its place in the fight, ruling
SQK-6's keys) and Bribe Chip Actions (take, free and kill move pieces); this
file checks that the faster bot (places counted from integer keys, piece
bribes tried on the pieces alone) gives the previous bot's choices and use of
the random stream, and that a tried bribe's place is the place in the state
``apply`` returns. ``sqk_reference_bot`` is the previous bot, kept as the reference.
"""

from __future__ import annotations

import random

import pytest
import seeded_positions
import sqk_reference_bot as ref

import kingmaker
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings import bot, bribes
from kingmaker.games.san_quentin_kings.data import ROUND_CARDS
from kingmaker.games.san_quentin_kings.fight import fight_counts
from kingmaker.games.san_quentin_kings.state import CHIPS, F_BRIBED, F_COMMITTED, GSIZE, P_TURN


def positions(g, seed: int, games: int):
    """Yields (state, player) at every decision of seeded games (mostly the reference heuristic's moves)."""
    return seeded_positions.positions(g, seed, games, ref.heuristic_action, 0.8)


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"guards": 10}), (5, {"guards": 6})])
def test_fast_heuristic_matches_the_reference_on_seeded_positions(players, options):
    g = kingmaker.make("san-quentin-kings", players, **options)
    checked = 0
    for k, (s, p) in enumerate(positions(g, 31 + players, 6)):
        r1, r2 = random.Random(k), random.Random(k)
        assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), k
        assert r1.getstate() == r2.getstate()
        checked += 1
    assert checked > 300


@pytest.mark.parametrize("players", [3, 5])
def test_place_and_tried_bribes_match_the_ranking_after_apply(players):
    """Scoring Fight and Bribe Chip Actions: the place the bot counts is the rules' ranking,
    before and after every take, free and kill bribe open to a fighter holding a chip."""
    g = kingmaker.make("san-quentin-kings", players)
    tried = 0
    for s, p in positions(g, 5 + players, 4):
        r = g.ranking(s)
        assert bot._place(g, s, p) == (r.index(p) if p in r else len(r))
        keys = bot._keys(s, g.n)
        assert bot._place_in(keys, p) == bot._place(g, s, p)
        if s.phase != P_TURN or s.queue or not s.goods[p * GSIZE + CHIPS]:
            continue
        need = s.need if s.flags & F_COMMITTED else ROUND_CARDS[s.rnd]
        for a in g.legal_actions(s, p):
            if A.TAKE0 <= a < A.STEAL0 or A.KILL0 <= a < A.TOSOL0:
                after = g.ranking(g.apply(s, a, p))
                place = after.index(p) if p in after else len(after)
                assert bot._bribed_place(g, s, p, a, need) == place, a
                # the keys of the players the bribe leaves alone, reused
                assert bot._bribed_place(g, s, p, a, need, keys) == place, a
                tried += 1
    assert tried > 100


@pytest.mark.parametrize("players", [3, 4, 5])
def test_winning_bribe_and_piece_bribes_match_the_rules(players):
    """Bribe Chip Actions: ``bribes.piece_bribes`` is the take, free and kill part of the legal
    moves, in their order; ``bot._winning_bribe`` finds a bribe exactly when, in the state
    ``apply`` returns, the briber ranks first (Scoring Fight), wherever the fight goes on after it."""
    g = kingmaker.make("san-quentin-kings", players)
    tried = wins = 0
    for s, p in positions(g, 70 + players, 10):
        if s.phase != P_TURN or s.queue or not s.goods[p * GSIZE + CHIPS] or s.flags & F_BRIBED:
            continue
        legal = g.legal_actions(s, p)
        pieces = [a for a in legal if A.TAKE0 <= a < A.STEAL0 or A.KILL0 <= a < A.TOSOL0]
        assert bribes.piece_bribes(s, p, g.n) == pieces
        if not pieces or not bot._fight_goes_on(s, p, g.n):
            continue
        keys = bot._keys(s, g.n)
        mine = fight_counts(s.pieces, s.bribed, p)
        for a in pieces:
            after = g.ranking(g.apply(s, a, p))
            first = (after.index(p) if p in after else len(after)) == 0  # nobody placed: first too
            assert (bot._winning_bribe(s, p, g.n, [a], keys, mine) == a) == first, a
            tried += 1
            wins += first
    assert tried > 300 and wins > 30


def test_a_bribe_that_leaves_nobody_placed_counts_as_first():
    """Scoring Fight: with no placed player the fighter's place is 0, as the bot counts it; a kill
    of the only placed piece by a fighter with nothing standing is then a winning bribe."""
    g = kingmaker.make("san-quentin-kings", 3)
    found = 0
    for s, p in positions(g, 1003, 10):
        if s.phase != P_TURN or s.queue or not s.goods[p * GSIZE + CHIPS] or s.flags & F_BRIBED:
            continue
        keys = bot._keys(s, g.n)
        if keys[p] != -1 or not bot._fight_goes_on(s, p, g.n):
            continue
        for a in bribes.piece_bribes(s, p, g.n):
            if A.KILL0 <= a and not g.ranking(g.apply(s, a, p)):
                assert bot._winning_bribe(s, p, g.n, [a], keys, fight_counts(s.pieces, s.bribed, p)) == a
                found += 1
    assert found > 0
