"""Kingpins' own chance sampler draws exactly as the generic one (issue 16 §1, search speed).

Rulebook "Setup" (five cards to each player, then the four recruitment stacks
turned up from the shuffled stockpile; ruling KP-3: a Femme Fatale turned up is
shuffled back) and "Gameplay" ("end your turn by drawing a card from the
stockpile"): every card left is equally likely. The search asks
``Kingpins.sample_chance_outcome(s, rng)`` instead of
``sample_chance(chance_outcomes(s), rng)``; it must give the same card and
leave the stream in the same place, or the searches would change.
"""

from __future__ import annotations

import dataclasses
import math
import random

import pytest

import kingmaker
from kingmaker.agents.search import bound_chance
from kingmaker.core.api import CHANCE
from kingmaker.core.errors import IllegalActionError
from kingmaker.core.match import sample_chance
from kingmaker.games.kingpins.data import NUM_KINDS, NUM_RANKED
from kingmaker.games.kingpins.state import DEAL, DRAW


class _Fixed:
    """A stream whose ``random()`` is always ``r`` (to probe the sums' boundaries)."""

    def __init__(self, r: float) -> None:
        self.r = r

    def random(self) -> float:
        return self.r


@pytest.mark.parametrize("players,abilities", [(2, True), (3, False), (4, True)])
def test_same_card_and_stream_at_every_chance_node_of_seeded_games(players, abilities):
    game = kingmaker.make("kingpins", players=players, abilities=abilities)
    assert bound_chance(game) is not None
    rng = random.Random(players)
    checked = 0
    for g in range(6):
        s = game.new_initial_state()
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == CHANCE:
                a, b = random.Random(g * 1000 + checked), random.Random(g * 1000 + checked)
                assert game.sample_chance_outcome(s, b) == sample_chance(game.chance_outcomes(s), a)
                assert a.getstate() == b.getstate()
                checked += 1
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            else:
                acts = game.legal_actions(s, cp)
                a = game.heuristic_action(s, cp, rng) if rng.random() < 0.8 else rng.choice(acts)
                s = game.apply(s, a, cp)
    assert checked > 500


@pytest.mark.parametrize("phase", [DRAW, DEAL])
def test_same_card_on_the_boundaries_of_the_running_sums(phase):
    # Random stockpiles (second copies of Femme Fatales and Hideouts included), and draws
    # just below, at and just above every running sum of the outcome list.
    game = kingmaker.make("kingpins", players=2)
    s0 = game.new_initial_state()
    rng = random.Random(7)
    for _ in range(300):
        u = rng.getrandbits(56)
        for k in range(NUM_RANKED, NUM_KINDS):
            if not u >> k & 1:
                u &= ~(1 << (k + 4))  # a second copy only with the first
        if not u & ((1 << NUM_RANKED) - 1):
            continue  # (a stockpile of Femme Fatales alone deals no recruitment card)
        deal = game.setup_cards - 1 if phase == DEAL else game.setup_cards
        s = dataclasses.replace(s0, phase=phase, unseen=u, deal=deal)
        outs = game.chance_outcomes(s)
        draws = [0.0, math.nextafter(1.0, 0.0)]
        acc = 0.0
        for _, p in outs:
            acc += p
            draws += [math.nextafter(acc, 0.0), acc, math.nextafter(acc, 2.0)]
        for r in draws:
            if 0.0 <= r < 1.0:
                assert game.sample_chance_outcome(s, _Fixed(r)) == sample_chance(outs, _Fixed(r)), (u, r)


def test_no_chance_outcome_at_a_decision():
    game = kingmaker.make("kingpins", players=2)
    s = game.new_initial_state()
    rng = random.Random(1)
    while game.current_player(s) == CHANCE:
        s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
    with pytest.raises(IllegalActionError):
        game.sample_chance_outcome(s, rng)
