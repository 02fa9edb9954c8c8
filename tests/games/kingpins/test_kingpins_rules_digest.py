"""Kingpins: the rules' behaviour is pinned by digests of seeded random games.

Covers the whole flow of the rulebook (Setup: the deal and the four recruitment
stacks; Playing a Turn: plays, stack moves, Femme Fatale plays under a stack,
drawing; the special abilities; End of a Round and Game End, with the scoring):
every state's repr, the player to act, every legal-action list, every
chance-outcome list (with probabilities) and the final returns of seeded random
games are hashed, and after every move also each seat's (and a spectator's)
``information_state_string``, the search's evaluation (``bot.evaluate_state``),
the move's notation and a resampled state (``sample_hidden``). The reference
digests were recorded from the code before the rules' hot paths were made
faster (issue 16 §1, second pass); a change of behaviour changes them.
"""

from __future__ import annotations

import random

import pytest
from rules_digest import digest

import kingmaker
from kingmaker.games.kingpins import bot, view

# (players, options, seeds) -> the digest recorded from the code before the change.
CASES = [
    (2, {}, range(25), "5b4ce4e0c5b98aa2952a5c6d8c5903822b53a80180a6a06b2b2d6a12c26a8351"),
    (3, {}, range(100, 115), "d7385235ac11bcd5bcd180fe42c5459ee6c3a30f48c452aa5060e25de41881e9"),
    (4, {}, range(200, 212), "eb4eb070c1b551f3efd6254fb2a95dd3201177b0b7b369cb3e3352bc5170ee9a"),
    (2, {"abilities": False}, range(300, 315), "31e11e999808979976c399f99e35124af8950c81d09348ee5641fcd7280632f1"),
]


def _step(g):
    n = g.num_players

    def step(s, a, p, nxt):
        keys = tuple(view.information_state_string(g, nxt, q) for q in (*range(n), None))
        seat = nxt.current
        return keys, bot.evaluate_state(g, nxt), g.action_to_str(s, a), g.sample_hidden(nxt, seat, random.Random(a))

    return step


@pytest.mark.parametrize("players, options, seeds, expected", CASES)
def test_random_games_match_the_reference_digest(players, options, seeds, expected):
    game = kingmaker.make("kingpins", players, **options)
    assert digest(game, seeds, _step(game)) == expected
