"""Kingpin under the conformance suite for the options the shared run does not cover,
random-play invariants, and the heuristic bot against the random bot."""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker.conformance import check_game
from kingmaker.lab.play import play_row


def test_conformance_board_b_200_games():
    """The conformance suite over 200 seeded games on board side B (side A: tests/test_conformance.py)."""
    reports = check_game(kingmaker.make("kingpin", board="B"), range(200))
    assert len(reports) == 200 and all(r.decisions > 0 for r in reports)


@pytest.mark.parametrize("options", [
    {"goodfellas": True},
    {"goodfellas": True, "board": "B", "mafias": "yakuza-italian"},
    {"mafias": "russian-yakuza"},
])
def test_conformance_optional_rules_and_fixed_mafias(options):
    """Optional Rules, Goodfellas; fixed mafias (ruling KP-R1): quick conformance runs."""
    reports = check_game(kingmaker.make("kingpin", **options), range(12))
    assert len(reports) == 12


def test_conformance_a_very_long_night():
    """Optional Rules, A Very Long Night: no action track; dawn bounds the game (ruling KP-R9)."""
    game = kingmaker.make("kingpin", long_night=True)
    reports = check_game(game, range(6))
    assert all(r.length <= game.info.max_game_length for r in reports)


def _random_game(game, seed):
    rng = random.Random(seed)
    s = game.new_initial_state()
    states = [s]
    while not game.is_terminal(s):
        if game.current_player(s) == kingmaker.CHANCE:
            a = kingmaker.sample_chance(game.chance_outcomes(s), rng)
        else:
            a = rng.choice(game.legal_actions(s))
        s = game.apply(s, a)
        states.append(s)
    return states


@pytest.mark.parametrize("board", ["A", "B"])
def test_random_play_invariants(board):
    """Random play: no tile is ever duplicated or lost without being liquidated, tracks only go
    down by movement, every game ends with exactly one winner (no draws)."""
    game = kingmaker.make("kingpin", board=board)
    t = game.t
    for seed in range(30):
        states = _random_game(game, seed)
        end = states[-1]
        assert end.winner in (0, 1) and sorted(game.returns(end)) == [0.0, 1.0]
        for a, b in zip(states, states[1:]):
            if b.phase in (0,):
                continue
            assert all(x >= y for x, y in zip(a.track, b.track))
            if a.phase == 2 and b.mafia[0] >= 0:
                on_a = {c >> 2 for c in a.board if c >= 0} | set(a.hand[0] + a.hand[1] + a.deck[0] + a.deck[1])
                on_b = {c >> 2 for c in b.board if c >= 0} | set(b.hand[0] + b.hand[1] + b.deck[0] + b.deck[1])
                gone = on_a - on_b
                assert gone == set(b.last_dead) or (b.reason == "exit" and len(gone) == 1)
                assert on_b <= on_a
            for c in b.board:
                if c >= 0 and b.mafia[0] >= 0:
                    owner = game.owners(b.mafia)[c >> 2]
                    assert owner in (0, 1)
        assert len(t.tiles) == 24


def test_heuristic_beats_random_in_a_clear_majority():
    """The heuristic bot against the random bot, seats alternating (1000-game figure: benchmarks/kingpin.md)."""
    wins = 0
    for i in range(40):
        game = kingmaker.make("kingpin")
        seat = i % 2
        kinds = ("heuristic", "random") if seat == 0 else ("random", "heuristic")
        row = play_row(game, 0, "vs-random", i, kinds, 1000 + i)
        wins += row["winners"] == [seat]
    assert wins >= 32


def test_heuristic_agent_through_a_match():
    """The heuristic is reachable through the generic agent and a Match (what `kingmaker play` uses)."""
    from kingmaker.agents import make_agent

    game = kingmaker.make("kingpin", mafias="italian-yakuza")
    m = kingmaker.Match(game, [make_agent("heuristic", game), make_agent("random", game)], seed=5)
    m.run()
    assert m.is_over() and sorted(m.returns()) == [0.0, 1.0]
    assert any("player 0:" in line for line in m.log_for(None))


def test_heuristic_takes_a_win_and_stops_an_exit():
    """The bot exits when it can, and liquidates an enemy about to leave the board past its area."""
    game = kingmaker.make("kingpin")
    rng = random.Random(0)
    s = game.position({"c5": "Vasili N", "b2": "Yamada S"}, mafias=("russian", "yakuza"))
    assert game.action_to_str(s, game.heuristic_action(s, 0, rng)) == "exit c5"
    #   1  Yoichi v (on a red triangle of player 1)   Vasili <
    s = game.position({"a1": "Yoichi S", "b1": "Vasili W", "d4": "Grigori N"}, mafias=("russian", "yakuza"))
    assert game.action_to_str(s, game.heuristic_action(s, 0, rng)) == "shoot b1 W"


def test_evaluation_is_a_win_chance_that_agrees_with_the_bot():
    """Game.evaluate for the search: nothing before the starting player and the mafias are chosen, a certain result at
    the end, otherwise both players' chances summing to 1, favouring the side the bot's
    evaluation favours from both seats."""
    from kingmaker.games.kingpin.bot import evaluate
    from kingmaker.games.kingpin.state import CHOOSE, START

    game = kingmaker.make("kingpin")
    agree = 0
    for seed in range(4):
        for s in _random_game(game, seed):
            est = game.evaluate(s)
            if s.phase in (START, CHOOSE):
                assert est is None
                continue
            if game.is_terminal(s):
                assert est[s.winner] == 1.0
                continue
            assert sum(est) == pytest.approx(1.0) and 0.0 <= est[0] <= 1.0
            e0, e1 = evaluate(game, s, 0), evaluate(game, s, 1)
            if e0 > 0 > e1:
                assert est[0] > 0.5
                agree += 1
            elif e1 > 0 > e0:
                assert est[1] > 0.5
                agree += 1
    assert agree > 20
