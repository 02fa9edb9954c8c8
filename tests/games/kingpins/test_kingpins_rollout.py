"""Kingpins' own rollout loop takes the search's rollout steps (issue 16 §1, search speed).

Rulebook "Gameplay" (plays, stack moves, ending a turn with a draw), "Round End"
and "Game End": ``bot.rollout`` plays the heuristic to the end of the game, or
to the first round just scored once ``cut`` decisions were made (the search's
``depth``), as the generic rollout loop of ``agents.search`` does with the
heuristic policy. From the same states with the same stream, both must reach
the same state after the same number of steps with the same estimate, and
leave the stream in the same place; the step bound (``overrun``) stops both at
the same step.
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker.agents.search import bound_evaluate, bound_rollout
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.match import sample_chance


def _generic(game, s, rng, cut, evaluate, overrun):
    """The rollout loop of ``agents.search._search_one`` (heuristic policy, no time limit)."""
    steps = rolled = 0
    est = None
    cp = 0
    while True:
        cp = game.current_player(s)
        if cp == TERMINAL:
            break
        if cut is not None and rolled >= cut:
            est = evaluate(s)
            if est is not None:
                break
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            steps += 1
            continue
        s = game.apply(s, game.heuristic_action(s, cp, rng), cp)
        rolled += 1
        steps += 1
        if steps > overrun:
            break
    return s, cp == TERMINAL or game.is_terminal(s), steps, est


def _states(game, seed, count):
    """Seeded states of games played mostly by the heuristic, decisions and chance alike."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = game.new_initial_state()
        while not game.is_terminal(s) and len(out) < count:
            cp = game.current_player(s)
            if rng.random() < 0.05:
                out.append(s)
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            else:
                acts = game.legal_actions(s, cp)
                s = game.apply(s, game.heuristic_action(s, cp, rng) if rng.random() < 0.8 else rng.choice(acts), cp)
    return out


@pytest.mark.parametrize("players,abilities,win", [(2, True, False), (3, False, False), (4, True, True)])
@pytest.mark.parametrize("cut,overrun", [(0, 10**6), (3, 10**6), (None, 10**6), (None, 25)])
def test_the_games_rollout_is_the_generic_loop(players, abilities, win, cut, overrun):
    game = kingmaker.make("kingpins", players=players, abilities=abilities)
    roll = bound_rollout(game)
    assert roll is not None
    evaluate = bound_evaluate(game, win)
    for i, s in enumerate(_states(game, players * 10 + (cut or 0), 40)):
        a, b = random.Random(i), random.Random(i)
        want_s, want_end, want_steps, want_est = _generic(game, s, a, cut, evaluate, overrun)
        got_s, cp, got_steps, got_est = roll(s, b, 0, 0, overrun, cut, evaluate, None, None)
        assert (got_s, cp == TERMINAL or game.is_terminal(got_s), got_steps, got_est) == (
            want_s, want_end, want_steps, want_est), (i, cut, overrun)
        assert a.getstate() == b.getstate()
