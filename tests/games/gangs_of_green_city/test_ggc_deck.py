"""The hero deck's pile structure and the gang deck's known layers, dealt lazily."""

from __future__ import annotations

import dataclasses
import random

import pytest
from ggc_helpers import game

from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.data import (
    ESC_CARD0,
    NUM_HERO,
    PARK,
    SETUP_SPHERES,
    START_SAFE_HOUSE,
)
from kingmaker.games.gangs_of_green_city.state import DRAW, ESC_BOTTOM, MOVES, unpack_spheres


def _set_up(g, seed=0):
    rng = random.Random(seed)
    s = g.new_initial_state()
    while s.stage != MOVES:
        assert g.current_player(s) == CHANCE
        s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
    return s


@pytest.mark.parametrize("players", [2, 3, 4, 5])
@pytest.mark.parametrize("escalations", [4, 5, 6])
@pytest.mark.parametrize("hands", [False, True])
def test_setup_builds_near_equal_piles_each_with_one_escalation(players: int, escalations: int, hands: bool) -> None:
    """Setup: 'Pull the 6 ESCALATION! Cards out of the Hero Deck ... Divide the remaining Hero Deck
    into 6 equal stacks. Shuffle an ESCALATION! card into each pile. Stack the piles on top of each
    other.' The set-up list deals no hands: the 53 POI and respite cards make the piles (GGC-D6);
    53 does not split equally: near-equal piles, the larger on top (GGC-3). The option
    starting_hands deals 4/3/2/2 first, as Pandemic."""
    g = game(players, escalations=escalations, starting_hands=hands)
    s = _set_up(g, seed=players * 10 + escalations)
    hand = {2: 4, 3: 3, 4: 2, 5: 2}[players] if hands else 0
    assert all(len(h) == hand for h in s.hands)
    assert len(s.piles) == escalations and s.pile_esc == (1,) * escalations
    plain = [p - 1 for p in s.piles]
    assert sum(plain) == NUM_HERO - hand * players == len(s.hero_pool)
    assert max(plain) - min(plain) <= 1 and plain == sorted(plain, reverse=True)
    if not hands and escalations == 6:
        assert s.piles == (10, 10, 10, 10, 10, 9)  # 53 = 9 + 9 + 9 + 9 + 9 + 8, each with its ESCALATION!


def test_setup_seeds_nine_gang_cards_with_3_3_3_2_2_2_1_1_1_spheres() -> None:
    """Setup: draw 3 cards (3 spheres each), 3 more (2 each), 3 final (1 each); one safe house at
    Green City High School; every pawn at Center Park."""
    g = game(4)
    s = _set_up(g, seed=7)
    flat = unpack_spheres(s.spheres)
    assert sorted(x for x in flat if x) == sorted(SETUP_SPHERES)
    assert sum(flat) == 18 and sum(s.supply) == 96 - 18
    assert len(s.gang_disc) == 9 and s.gang_layers == ()
    assert s.safe == (START_SAFE_HOUSE,) and s.pawns == (PARK,) * 4
    assert sorted(s.cast) == sorted(set(s.cast)) and all(0 <= k < 5 for k in s.cast)
    assert s.current == 0 and s.moves == 4 and s.war == 0 and s.esc == 0


def test_hero_draw_probabilities_follow_the_pile_structure() -> None:
    g = game(2)
    s = dataclasses.replace(_set_up(g, 1), stage=DRAW, deal=2)
    outs = g.chance_outcomes(s)
    p_esc = sum(p for a, p in outs if a - A.HDRAW0 >= ESC_CARD0)
    assert abs(p_esc - 1 / s.piles[0]) < 1e-12
    assert abs(sum(p for _, p in outs) - 1) < 1e-12
    # a pile whose ESCALATION! is gone deals only plain cards; its last card is certain to be one
    s2 = dataclasses.replace(s, piles=(1,) + s.piles[1:])
    outs2 = g.chance_outcomes(s2)
    assert all(a - A.HDRAW0 >= ESC_CARD0 for a, _ in outs2)


def test_lazy_dealing_yields_exactly_one_escalation_per_pile_uniformly_placed() -> None:
    """Statistical: dealing whole hero decks through the chance nodes gives every pile exactly one
    ESCALATION!, at a position uniform within the pile (chi-square, fixed seed)."""
    g = game(2, escalations=6)
    base = _set_up(g, 3)
    sizes = base.piles  # 9 8 8 8 8 8 with 45 plain cards
    rng = random.Random(12345)
    decks = 1000
    pos_counts = [[0] * k for k in sizes]
    for _ in range(decks):
        s = dataclasses.replace(base, stage=DRAW, deal=99)
        seen = [[] for _ in sizes]
        for i, k in enumerate(sizes):
            for _j in range(k):
                a = sample_chance(g.chance_outcomes(s), rng)
                seen[i].append(a - A.HDRAW0 >= ESC_CARD0)
                s = g.apply(s, a)
                s = dataclasses.replace(s, stage=DRAW, deal=99, hands=((),) * 2, pick_player=-1, pick_n=0,
                                        window=(), esc_card=-1)
        for i, flags in enumerate(seen):
            assert sum(flags) == 1, "each pile deals exactly one ESCALATION!"
            pos_counts[i][flags.index(True)] += 1
        assert s.esc_left == () and sum(s.piles) == 0
    for i, counts in enumerate(pos_counts):
        expected = decks / sizes[i]
        chi2 = sum((c - expected) ** 2 / expected for c in counts)
        assert chi2 < 30, (i, counts)  # df 7-8: p < 0.001 would exceed ~26-27


def test_sampled_hero_decks_keep_one_escalation_per_pile() -> None:
    """Statistical: ``sample_hero_deck`` (and ``sample_hidden``, which keeps the structure) respect
    the piles: one ESCALATION! per remaining pile, uniform positions, first-card odds as chance."""
    g = game(3, escalations=5)
    s = _set_up(g, 5)
    s = dataclasses.replace(s, piles=(4,) + s.piles[1:])  # part of the top pile is drawn
    s = dataclasses.replace(s, hero_pool=s.hero_pool[len(s.hero_pool) - (sum(s.piles) - len(s.piles)):])
    assert g.sample_hidden(s, 0, random.Random(1)) == s
    rng = random.Random(99)
    trials = 4000
    first_esc = 0
    pos = [0] * 4
    for _ in range(trials):
        order = g.sample_hero_deck(s, rng)
        assert len(order) == sum(s.piles)
        start = 0
        for k in s.piles:
            pile = order[start : start + k]
            assert sum(1 for c in pile if c >= ESC_CARD0) == 1
            start += k
        first_esc += order[0] >= ESC_CARD0
        pos[[c >= ESC_CARD0 for c in order[:4]].index(True)] += 1
    p = 1 / s.piles[0]
    assert abs(first_esc / trials - p) < 4 * (p * (1 - p) / trials) ** 0.5
    chi2 = sum((c - trials / 4) ** 2 / (trials / 4) for c in pos)
    assert chi2 < 16.3  # df 3, p = 0.001


def test_after_an_escalation_the_known_top_set_is_dealt_before_the_rest() -> None:
    """ESCALATION!: the shuffled discards go 'on top of the remaining Gang Deck Draw Pile' (not
    shuffled into it): the Gang Leader draws them first, in unknown order."""
    g = game(2)
    s = _set_up(g, 11)
    s = dataclasses.replace(s, stage=DRAW, deal=1)
    s = g.apply(s, A.HDRAW0 + ESC_CARD0 + s.esc_left[0])
    assert s.stage == ESC_BOTTOM
    known = set(s.gang_disc)
    bottom = [a - A.GDRAW0 for a, _ in g.chance_outcomes(s)]
    assert not known & set(bottom)
    s = g.apply(s, A.GDRAW0 + bottom[0])
    while g.current_player(s) != CHANCE or s.stage == DRAW:
        s = g.apply(s, g.legal_actions(s)[-1]) if g.current_player(s) >= 0 else g.apply(s, g.chance_outcomes(s)[0][0])
    drawn = []
    rng = random.Random(2)
    top = set(s.gang_layers[0])
    assert s.gang_layers == (tuple(sorted(known | {bottom[0]})),)
    while s.gang_layers and g.current_player(s) == CHANCE:
        outs = g.chance_outcomes(s)
        assert {a - A.GDRAW0 for a, _ in outs} == set(s.gang_layers[0])
        a = sample_chance(outs, rng)
        drawn.append(a - A.GDRAW0)
        s = g.apply(s, a)
    assert set(drawn) <= top
