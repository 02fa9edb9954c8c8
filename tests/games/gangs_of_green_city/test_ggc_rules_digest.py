"""Gangs of Green City: the rules' behaviour is pinned by digests of seeded random games.

Covers the whole flow of the rulebook (Setup, a hero's turn: actions, drawing hero
cards, the gangs' recruitment, Escalation, Respite, Victory and Defeat; the variants): every state's repr, every legal
action list, every chance outcome list (with probabilities), the notes
``rules.apply`` writes for the log, and the final returns of seeded random games
are hashed. The reference digests were recorded from the code before the rules'
hot paths were optimised (issue 16 §1); a change of behaviour changes them.
"""

from __future__ import annotations

import random
from dataclasses import FrozenInstanceError

import pytest
from rules_digest import digest

import kingmaker
from kingmaker.core.match import sample_chance
from kingmaker.games.gangs_of_green_city import rules
from kingmaker.games.gangs_of_green_city.state import FIELDS, State, build, unpack


def traced(game):
    """The step hook: the rules module's own ``apply`` gives the same state, and its trace is hashed."""

    def step(s, a, p, nxt):
        trace: list = []
        s2 = rules.apply(game, s, a, p, trace)
        assert nxt == s2 and hash(nxt) == hash(s2)
        return trace

    return step


# (players, options, seeds) -> the digest recorded from the unoptimised rules.
CASES = [
    (2, {}, range(60), "930f5a4725bc6466d18cc70a98b8e6b9627fc884f2361a72f4a6b446b84526b2"),
    (3, {}, range(60), "37276fc5cee2e2f720c74509bb0990625d11be273d27d69ee862f5a5f1d15285"),
    (
        4,
        {"escalations": 4},
        range(100, 150),
        "e5071b8f796f7263d3afb87d8ecc91e8164c71465e05f06e24bf428a3164d315",
    ),
    (
        5,
        {"starting_hands": True},
        range(200, 240),
        "db6f6c21dba7fe6498f88cbff2e63a474ad88b3ce2565f467dc082757ee73895",
    ),
    (
        3,
        {"continue_the_fight": True, "weaknesses": "every_card"},
        range(300, 340),
        "640b51bb9c04cd483d3aca438b7d481569c64f9a25d4b14841807bf82554c673",
    ),
]


@pytest.mark.parametrize("players, options, seeds, expected", CASES)
def test_random_games_match_the_reference_digest(players, options, seeds, expected):
    game = kingmaker.make("gangs-of-green-city", players, **options)
    assert digest(game, seeds, traced(game)) == expected


def test_build_gives_back_the_frozen_state():
    """Setup and a few turns: ``unpack`` and ``build`` (apply's fast state construction) give back
    an equal, frozen ``State`` with the same hash and repr; the fields are read in order."""
    game = kingmaker.make("gangs-of-green-city", 3)
    rng = random.Random(5)
    s = game.new_initial_state()
    for _ in range(300):
        if game.is_terminal(s):
            break
        w = unpack(s)
        assert w == [getattr(s, f) for f in FIELDS]
        t = build(w)
        assert type(t) is State and t == s and hash(t) == hash(s) and repr(t) == repr(s)
        with pytest.raises(FrozenInstanceError):
            t.stage = 0
        cp = game.current_player(s)
        if cp < 0:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
        else:
            s = game.apply(s, rng.choice(game.legal_actions(s, cp)), cp)
