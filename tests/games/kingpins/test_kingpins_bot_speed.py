"""The fast Kingpins rules and heuristic do what the previous ones did (issue 16 §1, search speed).

The rulebook sections exercised are "Playing a Turn" (plays, stack moves, a Femme
Fatale slipping a card under a stack, ending the turn with a draw), "Special
Abilities" (Collect, Rub Out, All Clear) and "End of a Round" (scoring): this file
checks no rule by itself, only that the faster code gives what the code before the
second speed pass gave, kept in ``kingpins_reference_rules`` and
``kingpins_reference_bot``: the same states (equal, same repr), legal moves and
chance outcomes (with probabilities) in the same order, the same errors for moves
that are no action, and the heuristic's same choices with the same use of the
random stream, on seeded positions of games played mostly by the heuristic.
"""

from __future__ import annotations

import dataclasses
import random

import kingpins_reference_bot as ref_bot
import kingpins_reference_rules as ref_rules
import pytest

import kingmaker
from kingmaker.core import fastrand
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.errors import GameError
from kingmaker.core.match import sample_chance
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins import bot, rules, view
from kingmaker.games.kingpins.data import (
    FF_BITS,
    FF_RED,
    HIDE_RED,
    KIND_BITS,
    NUM_KINDS,
    RUB_OUT_BITS,
    from_kinds,
)
from kingmaker.games.kingpins.state import PLAY, RUB_OUT

GAMES = [(2, True), (3, True), (4, True), (2, False)]


def walk(g, seed: int, games: int, share: float = 0.8):
    """Yields every state of ``games`` seeded games (chance nodes too), played mostly by the
    reference heuristic and otherwise by random legal moves."""
    rng = random.Random(seed)
    for _ in range(games):
        s = g.new_initial_state()
        while True:
            yield s
            cp = ref_rules.current_player(g, s)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                s = ref_rules.apply(g, s, sample_chance(ref_rules.chance_outcomes(g, s), rng))
                continue
            if rng.random() < share:
                a = ref_bot.heuristic_action(g, s, cp, random.Random(rng.random()))
            else:
                a = rng.choice(ref_rules.legal_actions(g, s, cp))
            s = ref_rules.apply(g, s, a, cp)


def same_result(f, g_ref, *args):
    """Calls both; returns ('ok', value) or ('error', type, message) for each, to compare."""
    out = []
    for fn in (f, g_ref):
        try:
            v = fn(*args)
            out.append(("ok", v, repr(v)))
        except GameError as e:
            out.append(("error", type(e), str(e)))
    return out


@pytest.mark.parametrize("players, abilities", GAMES)
def test_rules_match_the_reference_on_every_move_of_seeded_games(players, abilities):
    g = kingmaker.make("kingpins", players, abilities=abilities)
    counts = {"chance": 0, "play": 0, "rub out": 0, "children": 0}
    for s in walk(g, 31 * players + abilities, 2):
        cp = rules.current_player(g, s)
        assert cp == ref_rules.current_player(g, s)
        for p in (None, *range(players)):
            assert rules.legal_actions(g, s, p) == ref_rules.legal_actions(g, s, p)
        if cp == TERMINAL:
            continue
        if cp == CHANCE:
            oc = rules.chance_outcomes(g, s)
            assert oc == ref_rules.chance_outcomes(g, s)
            assert [type(p) for _, p in oc] == [float] * len(oc)
            counts["chance"] += 1
            tried = [a for a, _ in oc] + [-1, NUM_KINDS, FF_RED, HIDE_RED + 1, True, 2.0, "x"]
        else:
            counts["play" if s.phase == PLAY else "rub out"] += 1
            tried = rules.legal_actions(g, s, cp) + [-1, A.NUM_ACTIONS, True, 1.0, A.KEEP, A.DISCARD0 + 3]
            p = cp
        for a in tried:
            new, old = same_result(rules.apply, ref_rules.apply, g, s, a, None if cp == CHANCE else p)
            assert new == old, (s, a)
            counts["children"] += 1
    assert counts["chance"] > 100 and counts["play"] > 100 and counts["children"] > 2000
    if abilities:
        assert counts["rub out"] > 0


@pytest.mark.parametrize("players, abilities", GAMES)
def test_heuristic_matches_the_reference_on_seeded_positions(players, abilities):
    g = kingmaker.make("kingpins", players, abilities=abilities)
    checked = 0
    for k, s in enumerate(walk(g, 17 * players + abilities, 2)):
        cp = rules.current_player(g, s)
        assert bot.evaluate_state(g, s) == ref_bot.evaluate_state(g, s)
        if cp < 0:
            continue
        for q in range(players):
            r1, r2 = random.Random(k), random.Random(k)
            assert bot.heuristic_action(g, s, q, r2) == ref_bot.heuristic_action(g, s, q, r1), (k, q)
            assert r1.getstate() == r2.getstate()
        checked += 1
    assert checked > 200


@pytest.mark.parametrize("players, abilities", GAMES)
def test_heuristic_matches_the_reference_with_other_hands(players, abilities):
    """The same positions with hands rebuilt to reach every branch: Femme Fatales to slip
    cards under, last cards, cards worth 6 or less after an Enforcer, hands of nothing that fits."""
    g = kingmaker.make("kingpins", players, abilities=abilities)
    rng = random.Random(players * 5 + abilities)
    seen = set()
    for k, s in enumerate(walk(g, 7 * players + abilities, 1)):
        if s.phase not in (PLAY, RUB_OUT):
            continue
        p = s.current
        for _ in range(4):
            size = rng.choice((1, 2, 2, 3, 5, 8))
            ks = rng.sample(range(NUM_KINDS), size)
            if rng.random() < 0.5:
                ks.append(FF_RED + rng.randrange(2))
            hand = from_kinds(sorted(ks))
            if s.phase == RUB_OUT and not hand & RUB_OUT_BITS:
                continue
            t = dataclasses.replace(s, hands=s.hands[:p] + (hand,) + s.hands[p + 1:])
            r1, r2 = random.Random(k), random.Random(k)
            a = bot.heuristic_action(g, t, p, r2)
            assert a == ref_bot.heuristic_action(g, t, p, r1), (k, t)
            assert r1.getstate() == r2.getstate()
            seen.add("under" if A.UNDER0 <= a < A.MOVE0 else "move" if A.MOVE0 <= a < A.END_TURN else
                     "end" if a == A.END_TURN else "play" if a < A.UNDER0 else "rub out")
            if hand & FF_BITS and hand & KIND_BITS & ~FF_BITS:
                seen.add("ff")
    assert {"under", "move", "end", "play", "ff"} <= seen


@pytest.mark.parametrize("players", [2, 4])
def test_views_match_the_reference_on_seeded_positions(players):
    """The information-state strings and resampled states, from every seat and a spectator."""
    g = kingmaker.make("kingpins", players)
    checked = 0
    for k, s in enumerate(walk(g, 3 + players, 1)):
        for q in (None, *range(players)):
            assert view.information_state_string(g, s, q) == ref_view_key(g, s, q)
        if k % 5 == 0:
            for q in range(players):
                assert repr(view.sample_hidden(g, s, q, random.Random(k))) == repr(ref_sample(g, s, q, random.Random(k)))
            checked += 1
    assert checked > 50


def ref_view_key(g, s, player):
    return (f"{player}|{s.phase}|{s.round}|{s.current}|{s.deal if s.phase == 0 else ''}|"
            f"{'' if player is None else s.hands[player]}|{[h.bit_count() for h in s.hands]}|"
            f"{s.unseen.bit_count()}|{s.stacks}|"
            f"{s.discards}|{s.played:d}{s.no_draw:d}{s.passes}|{s.history}|{s.last_hands}")


def ref_sample(g, s, player, rng):
    """``view.sample_hidden`` as it was."""
    from kingmaker.games.kingpins.data import kinds
    from kingmaker.games.kingpins.state import END, State

    if s.phase == END:
        return s
    others = [q for q in range(g.num_players) if q != player]
    pool = kinds(s.unseen)
    for q in others:
        pool.extend(kinds(s.hands[q]))
    pool.sort()
    rng.shuffle(pool)
    hands = list(s.hands)
    i = 0
    for q in others:
        size = s.hands[q].bit_count()
        hands[q] = from_kinds(pool[i:i + size])
        i += size
    unseen = from_kinds(pool[i:])
    return State(s.phase, s.round, s.current, s.deal, tuple(hands), unseen, s.stacks, s.discards,
                 s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)


def ref_kinds(mask):
    """``data.kinds`` as it was (a loop over the bits)."""
    from kingmaker.games.kingpins.data import KIND_BITS, NUM_RANKED

    out = []
    m = mask & KIND_BITS
    while m:
        low = m & -m
        k = low.bit_length() - 1
        out.append(k)
        if k >= NUM_RANKED and mask >> (k + 4) & 1:
            out.append(k)
        m ^= low
    return out


def ref_from_kinds(ks):
    """``data.from_kinds`` as it was (through ``add_card``)."""
    from kingmaker.games.kingpins.data import add_card

    m = 0
    for k in ks:
        m = add_card(m, k)
    return m


def test_card_sets_match_the_reference():
    """Card sets (hands, stockpile, discards) read as kinds and built from kinds as before,
    second copies of the Femme Fatales and Hideouts included (Components: 56 cards)."""
    from kingmaker.games.kingpins.data import kinds

    rng = random.Random(3)
    for _ in range(3000):
        ks = sorted(rng.sample(range(NUM_KINDS), rng.randrange(0, 30)))
        ks += [k for k in range(FF_RED, NUM_KINDS) if k in ks and rng.random() < 0.5]
        ks.sort()
        m = ref_from_kinds(ks)
        assert from_kinds(ks) == m and kinds(m) == ref_kinds(m) == ks
        noisy = m | rng.getrandbits(60)
        assert kinds(noisy) == ref_kinds(noisy)


def test_shuffle_is_random_shuffle():
    """The resampling's shuffle gives ``Random.shuffle``'s order and leaves the stream where it does."""
    for seed in range(50):
        a, b = random.Random(seed), random.Random(seed)
        xa, xb = list(range(seed)), list(range(seed))
        a.shuffle(xa)
        view.shuffle(xb, b)
        assert xa == xb and a.getstate() == b.getstate()
    assert view.shuffle is fastrand.shuffle and fastrand.SAME_AS_RANDOM
