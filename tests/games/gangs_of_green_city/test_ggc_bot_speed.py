"""The fast Gangs of Green City heuristic chooses as the previous one did (issue 16 section 1).

The bot reads the rulebook's Moves, Battle, Ending Recruitment, Safe Houses and
the Gang Leader phase (through its danger and odds); this file checks no rule,
only that the faster bot (memoised draw odds, routes, district counts, danger
and battle gains) gives the previous bot's choices, evaluations and use of the
random stream. ``ggc_reference_bot`` is the previous bot, kept as the reference.
"""

from __future__ import annotations

import random
from dataclasses import replace

import ggc_reference_bot as ref
import pytest
import seeded_positions

import kingmaker
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city import assess, bot, rendezvous
from kingmaker.games.gangs_of_green_city.data import (
    DIST,
    DISTRICT,
    GHOST,
    HAND_LIMIT,
    MAYOR,
    NUM_POIS,
)
from kingmaker.games.gangs_of_green_city.state import MOVES


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
    old = assess._MEMO_MAX, assess._BIG_MEMO_MAX
    assess._MEMO_MAX = assess._BIG_MEMO_MAX = 3
    memos = [v for k, v in vars(assess).items() if k.endswith("_memo")]
    assert len(memos) >= 7
    for m in memos:
        m.clear()
    try:
        for k, (s, p) in enumerate(positions(g, 7, 2)):
            r1, r2 = random.Random(k), random.Random(k)
            assert bot.heuristic_action(g, s, p, r2) == ref.heuristic_action(g, s, p, r1), k
            assert all(len(m) <= 3 for m in memos)
    finally:
        assess._MEMO_MAX, assess._BIG_MEMO_MAX = old


def _specials(s, legal):
    """The briefings, safe houses and dispatches the heuristic scores (``heuristic_action``)."""
    return [a for a in legal if A.SHARE0 <= a < A.RESPITE0 or A.SAFE0 <= a < A.RECRUIT0]


@pytest.mark.parametrize("players, options", [(2, {}), (3, {"starting_hands": True}), (5, {"starting_hands": True})])
def test_special_move_scores_match_the_applied_state(players, options):
    """Moves, Safe Houses, Briefing, Mayor Maple's dispatch: the score of a briefing, safe house
    or dispatch worked out without building the state is ``evaluate`` of the state ``apply``
    builds (every such move of seeded positions; None only for a dispatched Green Ghost)."""
    g = kingmaker.make("gangs-of-green-city", players, **options)
    kinds = {"safe": 0, "share": 0, "dispatch": 0, "ghost": 0}
    for s, p in positions(g, 40 + players, 6):
        if s.stage != MOVES or s.pick_n > 0 or s.resp >= 0:
            continue
        odds = bot.draw_odds(s)
        head = assess._head(s, odds)
        for a in _specials(s, g.legal_actions(s, p)):
            v = assess._special_value(s, p, a, head)
            if v is None:
                assert s.cast[(a - A.DISPATCH0) // NUM_POIS] == GHOST
                kinds["ghost"] += 1
                continue
            assert v == bot.evaluate(g.apply(s, a, p), odds), (s, a)
            kinds["safe" if a < A.RECRUIT0 else "share" if a < A.DISPATCH0 else "dispatch"] += 1
    assert kinds["safe"] > 10 and kinds["share"] > 3, kinds
    if players == 5:  # every cast member is in play
        assert kinds["dispatch"] > 20 and kinds["ghost"] > 0, kinds


@pytest.mark.parametrize("players, options", [(4, {}), (5, {"starting_hands": True})])
def test_moves_skipped_cannot_gain(players, options):
    """Brief Your Teammate and Mayor Maple's dispatch: a briefing or dispatch the heuristic
    skips (``_may_gain`` false) scores no more than the evaluation before it, so it could not
    have reached the gain of 2 the heuristic asks (a dispatch of a teammate who is not ready,
    where Green Ghost clears nothing; a briefing that raises no best district of the taker)."""
    g = kingmaker.make("gangs-of-green-city", players, **options)
    skipped = {"share": 0, "dispatch": 0}
    scored = {"share": 0, "dispatch": 0}
    for s, p in positions(g, 60 + players, 6):
        if s.stage != MOVES or s.pick_n > 0 or s.resp >= 0:
            continue
        odds = bot.draw_odds(s)
        head = assess._head(s, odds)
        base = bot.evaluate(s, odds)
        ready = assess._ready_seats(s)
        for a in _specials(s, g.legal_actions(s, p)):
            if a < A.SHARE0:
                continue
            kind = "share" if a < A.DISPATCH0 else "dispatch"
            v = assess._special_value(s, p, a, head)
            if v is None:
                v = bot.evaluate(g.apply(s, a, p), odds)
            if assess._may_gain(s, p, a, ready):
                scored[kind] += 1
            else:
                assert v <= base + 1e-9, (s, a, v, base)
                skipped[kind] += 1
        # the same position with a teammate made ready: dispatching them can gain
        if scored["dispatch"] < 5 and s.moves > 1 and s.cast[p] == MAYOR and not s.ended & 1:
            q = next(q for q, c in enumerate(s.cast) if c not in (MAYOR, GHOST))
            cards = tuple(c for c in range(NUM_POIS) if DISTRICT[c] == 0)[:5]
            hands = [tuple(c for c in h if c not in cards) for h in s.hands]
            hands[q] = cards
            x = replace(s, hands=tuple(hands))
            assert assess._ready_seats(x)[q]
            far = max(range(NUM_POIS), key=lambda t: min(DIST[t][h] for h in x.safe))
            a = A.DISPATCH0 + q * NUM_POIS + far
            if a in g.legal_actions(x, p):
                odds = bot.draw_odds(x)
                v = assess._special_value(x, p, a, assess._head(x, odds))
                assert assess._may_gain(x, p, a, assess._ready_seats(x))
                assert v == bot.evaluate(g.apply(x, a, p), odds) != bot.evaluate(x, odds)
                scored["dispatch"] += 1
    assert min(skipped.values()) > 20 and min(scored.values()) > 0, (skipped, scored)


def test_takers_are_the_collectors_wanted_can_give_to():
    """The rendezvous' briefings: ``_wanted`` finds a card only for a taker ``_takers`` names,
    so skipping the others changes no list of transfers."""
    g = kingmaker.make("gangs-of-green-city", 4)
    named = 0
    for s, _ in positions(g, 77, 6):
        counts = [assess._district_counts(h) for h in s.hands]
        col = rendezvous._collectors(s, counts)
        takes = rendezvous._takers(s, col, counts)
        for giver in range(len(s.hands)):
            for taker in range(len(s.hands)):
                if giver != taker and rendezvous._wanted(s, giver, taker, col, counts):
                    assert takes[taker], (s, giver, taker)
                    named += 1
    assert named > 20, named


def test_special_move_scores_see_the_last_move_lose_the_game():
    """Drawing hero cards: the last move of a turn with fewer than two hero cards left loses, so
    the score is evaluate's defeat; a briefing that asks for a discard comes before that."""
    g = kingmaker.make("gangs-of-green-city", 5, starting_hands=True)
    checked = 0
    seen = set()  # (the game is lost, a discard is asked) after each move
    for s, p in positions(g, 9, 3):
        if s.stage != MOVES or s.pick_n > 0 or s.resp >= 0:
            continue
        last = replace(s, moves=1, piles=(0,) * (len(s.piles) - 1) + (1,))
        # and with full hands (a briefing then asks for a discard first)
        pool = [c for c in s.hero_pool if c < NUM_POIS]
        need = [HAND_LIMIT - len(h) for h in s.hands]
        if sum(need) > len(pool):
            continue
        hands, i = [], 0
        for h, k in zip(s.hands, need):
            hands.append(tuple(sorted(h + tuple(pool[i : i + k]))))
            i += k
        full = replace(last, hands=tuple(hands))
        for x in (last, full):
            odds = bot.draw_odds(x)
            head = assess._head(x, odds)
            for a in _specials(x, g.legal_actions(x, p)):
                v = assess._special_value(x, p, a, head)
                if v is not None:
                    after = g.apply(x, a, p)
                    assert v == bot.evaluate(after, odds)
                    seen.add((after.result != 0, after.pick_n > 0))
                    checked += 1
    assert checked > 20 and seen == {(True, False), (False, True)}, seen


@pytest.mark.parametrize("players, options", [(2, {}), (4, {"continue_the_fight": True})])
def test_battle_gains_match_the_reference(players, options):
    """Battle (one sphere, or all of a gang whose recruitment has ended or for the Green Ghost):
    the danger each battle removes on every POI with spheres, and their prefix sums, are the
    reference bot's, to the last bit."""
    g = kingmaker.make("gangs-of-green-city", players, **options)
    checked = 0
    for s, _ in positions(g, 60 + players, 3):
        odds = bot.draw_odds(s)
        for p in range(NUM_POIS):
            if not s.spheres[p]:
                continue
            for me in (GHOST, GHOST + 1):
                gains = assess._battle_gains(s, odds, p, me)
                assert gains == ref._battle_gains(s, list(odds), p, me)
                assert assess._prefix_sums(gains) == [sum(x for x, _ in gains[:k]) for k in range(len(gains) + 1)]
                checked += 1
    assert checked > 1000
