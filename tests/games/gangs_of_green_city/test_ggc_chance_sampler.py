"""Gangs of Green City's own chance sampler draws exactly as the generic one (issue 16, search speed).

Rulebook "Setup" (the Heroes' Draw Pile: six stacks, an ESCALATION! shuffled into each)
and "Drawing Cards", "ESCALATION! Cards" (the bottom gang card; the discards shuffled back
on top) and "Playing the Gang Leader": every card a draw can give is equally likely within
its stack or layer. The search asks ``GangsOfGreenCity.sample_chance_outcome(s, rng)``
instead of ``sample_chance(chance_outcomes(s), rng)``; it must give the same card and leave
the stream in the same place, or the searches would change.
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker.agents.search import bound_chance
from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance
from kingmaker.games.gangs_of_green_city.state import DRAW, ESC_BOTTOM, GANG


class _Fixed:
    """A stream whose ``random()`` is always ``r`` (to probe the sums' boundaries)."""

    def __init__(self, r: float) -> None:
        self.r = r

    def random(self) -> float:
        return self.r


def _chance_nodes(game, games: int, seed: int):
    """Yields every chance node of seeded games (the heuristic's moves, with some random ones)."""
    rng = random.Random(seed)
    for _ in range(games):
        s = game.new_initial_state()
        while not game.is_terminal(s):
            cp = game.current_player(s)
            if cp == CHANCE:
                yield s
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            for p in [cp] if cp >= 0 else list(game.acting_players(s)):
                acts = game.legal_actions(s, p)
                a = game.heuristic_action(s, p, rng) if rng.random() < 0.9 else rng.choice(acts)
                s = game.apply(s, a, p)


@pytest.mark.parametrize(
    "players, options",
    [(2, {}), (4, {"escalations": 6, "starting_hands": True}), (5, {"continue_the_fight": True})],
)
def test_same_card_and_stream_at_every_chance_node_of_seeded_games(players, options):
    game = kingmaker.make("gangs-of-green-city", players, **options)
    assert bound_chance(game) is not None
    stages = {DRAW: 0, GANG: 0, ESC_BOTTOM: 0}
    for k, s in enumerate(_chance_nodes(game, 8, players)):
        a, b = random.Random(k), random.Random(k)
        assert game.sample_chance_outcome(s, b) == sample_chance(game.chance_outcomes(s), a), k
        assert a.getstate() == b.getstate()
        if s.stage in stages:
            stages[s.stage] += 1
    assert stages[DRAW] > 50 and stages[GANG] > 50 and stages[ESC_BOTTOM] > 3, stages


def test_same_card_at_the_running_sums_boundaries():
    """At each running sum, just under and just over it, and at the ends of [0, 1): the same
    outcome as the list's (the last outcome where rounding leaves the sums short of r)."""
    game = kingmaker.make("gangs-of-green-city", 3, escalations=5)
    checked = 0
    for s in _chance_nodes(game, 2, 9):
        if s.stage not in (DRAW, GANG, ESC_BOTTOM):
            continue
        outcomes = game.chance_outcomes(s)
        acc, edges = 0.0, [0.0, 1.0 - 2**-53]
        for _, p in outcomes:
            acc += p
            edges += [acc, acc - 2**-52, acc + 2**-52]
        for r in edges:
            if 0.0 <= r < 1.0:
                assert game.sample_chance_outcome(s, _Fixed(r)) == sample_chance(outcomes, _Fixed(r)), (s.stage, r)
                checked += 1
    assert checked > 1000
