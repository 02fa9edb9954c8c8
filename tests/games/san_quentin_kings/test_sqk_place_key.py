"""Scoring Fight (ruling SQK-6): the rules' integer place keys order fighters as ``fight_key`` does;
Sequence of Play: the game object's written-out ``current_player`` is the rules' one.

``fight.ranking`` and the bot compare ``fight.place_key`` ints (issue 16 §1, speed);
``reference_ranking`` below is the ranking as written before, from ``strength`` and
``fight_key`` tuples, kept as the reference.
"""

from __future__ import annotations

import itertools
import random

import seeded_positions
import sqk_reference_bot as ref

import kingmaker
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.match import sample_chance
from kingmaker.games.san_quentin_kings import rules
from kingmaker.games.san_quentin_kings.data import PRIORITY, RIOT, SHANK_CODE0
from kingmaker.games.san_quentin_kings.fight import (
    fight_counts,
    fight_key,
    place_key,
    place_keys,
    ranking,
    strength,
)


def reference_ranking(s, n: int) -> list[int]:
    """The ranking as written before place_key: players in the fight with any strength, by
    ``fight_key``, then initiating order."""
    ini = s.initiator
    keys = []
    for p in range(n):
        if s.inflight >> p & 1:
            st = strength(s, p)
            if max(st):
                keys.append((fight_key(st, s.block), -((p - ini) % n), p))
    keys.sort(reverse=True)
    return [k[2] for k in keys]


def _cards(c: tuple[int, int, int]) -> tuple[int, ...]:
    """Shank cards (value 1 each) adding strength ``c`` by type."""
    return tuple(SHANK_CODE0 + t for t in range(3) for _ in range(c[t]))


def test_place_keys_order_as_fight_key_then_seat():
    """Every pair of fighters with 0-3 pieces and 0-2 card strength of each type, in every
    block and the riot: the keys compare as (fight_key(strength), -seat) tuples do."""
    n = 3
    gangs = []
    for a in itertools.product(range(4), repeat=3):
        for c in itertools.product(range(3), repeat=3):
            if any(c[t] and not a[t] for t in range(3)):
                continue  # cards of a type without a piece count for nothing: covered by c = 0
            gangs.append((a, c))
    for block in range(RIOT + 1):
        pr = PRIORITY[block]
        keyed = []
        for (a, c), seat in itertools.product(gangs, range(n)):
            st = [a[t] + c[t] if a[t] else 0 for t in range(3)]
            k = place_key(a[0], a[1], a[2], _cards(c), pr, n - 1 - seat)
            assert (k >= 0) == (max(st) > 0)
            if k >= 0:  # the unplaced are never ranked
                keyed.append((k, (fight_key(st, block), -seat)))
        by_int = sorted(keyed, key=lambda x: x[0])
        assert [x[1] for x in by_int] == sorted(x[1] for x in keyed)
        # equal keys exactly for equal (fight_key, seat) tuples
        assert len(set(keyed)) == len({x[0] for x in keyed}) == len({x[1] for x in keyed})


def test_ranking_matches_the_reference_on_seeded_positions():
    """Scoring Fight: the ranking of every position of seeded games is the reference's, and the
    written-out ``place_keys`` are ``place_key``'s."""
    checked = 0
    for players, options in ((3, {}), (4, {"guards": 10}), (5, {"guards": 6})):
        g = kingmaker.make("san-quentin-kings", players, **options)
        for s, _p in seeded_positions.positions(g, 90 + players, 4, ref.heuristic_action, 0.8):
            r = ranking(s, g.n)
            assert r == reference_ranking(s, g.n)
            n, pr = g.n, PRIORITY[s.block]
            assert place_keys(s, n) == [
                place_key(*fight_counts(s.pieces, s.bribed, q), s.cards[q], pr, n - 1 - (q - s.initiator) % n)
                if s.inflight >> q & 1 else -1
                for q in range(n)
            ]
            checked += bool(r)
    assert checked > 1000


def test_the_games_current_player_is_the_rules_one():
    """Sequence of Play: the game object's written-out ``current_player`` (the search calls it at
    every step) answers as ``rules.current_player`` at every node of seeded games, chance and end included."""
    kinds = set()
    for players in (3, 5):
        g = kingmaker.make("san-quentin-kings", players)
        rng = random.Random(players)
        for _ in range(3):
            s = g.new_initial_state()
            while True:
                cp = g.current_player(s)
                assert cp == rules.current_player(s, g.n)
                kinds.add(s.phase if cp >= 0 else cp)
                if cp == TERMINAL:
                    break
                if cp == CHANCE:
                    s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
                    continue
                for p in g.acting_players(s):
                    s = g.apply(s, ref.heuristic_action(g, s, p, rng), p)
    assert len(kinds) > 10
