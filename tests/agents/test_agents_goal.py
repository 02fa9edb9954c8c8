"""The search's ``goal``: back up the game's returns, or a share of the win.

The rulebooks name one winner (Kingpins: "the player with the lowest total
score is the winner"), while Kingpins' returns pay every place (a second place
pays 2/3 at four players). ``goal=win`` makes the search play
for the win alone; with two players the two goals agree.
"""

from __future__ import annotations

import math
import random

import pytest
from toys import MovesSoFar

import kingmaker
from kingmaker import CHANCE, TERMINAL, GameError, Observation
from kingmaker.agents import make_agent
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level, win_shares
from kingmaker.core.match import sample_chance
from kingmaker.games.kingpins import bot as kingpins_bot


class SafeOrBold(MovesSoFar):
    """Three players; player 0 plays safe (a sure second place) or bold (a third of a
    chance to win, else last). Safe pays more in place returns, bold more in wins."""

    id = "toy-safe-or-bold"
    name = "Safe or Bold"

    def __init__(self, players: int = 3, **options):
        super().__init__(players, **options)

    def current_player(self, s):
        if not s:
            return 0
        if s == (1,):
            return CHANCE
        return TERMINAL

    def legal_actions(self, s, player=None):
        return [0, 1] if not s and player in (0, None) else []

    def chance_outcomes(self, s):
        return [(0, 1 / 3), (1, 2 / 3)]

    def returns(self, s):
        if s == (0,):
            return (0.5, 1.0, 0.0)  # second place
        if s == (1, 0):
            return (1.0, 0.5, 0.0)  # won
        if s == (1, 1):
            return (0.0, 1.0, 0.5)  # last
        return (0.0, 0.0, 0.0)

    def action_to_str(self, s, action):
        return ("safe", "bold")[action] if not s else f"outcome {action}"


def _decide(game, goal):
    s = game.new_initial_state()
    obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(5))
    agent = ISMCTSAgent(SearchConfig(iterations=400, rollout="random", goal=goal))
    return agent.act(obs), agent.last


def test_win_shares_split_the_win_among_the_greatest_returns():
    assert win_shares((1.0, 2 / 3, 1 / 3, 0.0)) == [1.0, 0.0, 0.0, 0.0]
    assert win_shares((0.5, 0.5, 0.0)) == [0.5, 0.5, 0.0]
    assert win_shares((0.0, 0.0)) == [0.5, 0.5]


def test_goal_returns_plays_safe_and_goal_win_plays_bold():
    """Place returns: safe 0.5 against bold 1/3; wins: safe 0 against bold 1/3."""
    game = SafeOrBold()
    move, stats = _decide(game, "returns")
    assert move == 0 and stats.values[0] == pytest.approx(0.5)
    move, stats = _decide(game, "win")
    assert move == 1 and stats.values[0] == 0.0
    assert 0.2 < stats.values[1] < 0.45  # about a third of the bold tries won


def test_goal_is_a_search_setting_with_a_clear_error():
    assert parse_level("normal/goal=win").goal == "win"
    assert parse_level("normal").goal == "returns"
    with pytest.raises(GameError, match="goal 'first' is not known; use returns or win"):
        parse_level("normal/goal=first")


def _walk(game, seed):
    """Every state of a seeded game of heuristic bots, in order."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    out = [s]
    while (p := game.current_player(s)) != TERMINAL:
        if p == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
        else:
            s = game.apply(s, game.heuristic_action(s, p, rng), p)
        out.append(s)
    return out


def _between_rounds(n, seed):
    """States of a seeded heuristic Kingpins game just after a round is scored."""
    game = kingmaker.make("kingpins", players=n)
    return game, [s for s in _walk(game, seed) if kingpins_bot.standings_value(game, s) is not None]


@pytest.mark.parametrize("n", [2, 3, 4])
def test_kingpins_win_chances_are_chances_of_finishing_lowest(n):
    """Kingpins (Game End: the lowest total wins): between rounds the chances sum to 1,
    the lowest total has the best chance, equal totals equal chances; with two players
    they are the standings' values."""
    game, states = _between_rounds(n, 40 + n)
    assert len(states) == 4  # after rounds 1-4 (after the fifth the game is over)
    for s in states:
        w = kingpins_bot.win_chances(game, s)
        assert math.isclose(sum(w), 1.0)
        order = sorted(range(n), key=lambda i: s.totals[i])
        assert w[order[0]] == max(w)
        for i in range(n):
            for j in range(n):
                if s.totals[i] == s.totals[j]:
                    assert w[i] == pytest.approx(w[j])
                elif s.totals[i] < s.totals[j]:
                    assert w[i] > w[j]
        if n == 2:
            assert w == pytest.approx(kingpins_bot.standings_value(game, s))
    assert kingpins_bot.win_chances(game, game.new_initial_state()) is None


def test_kingpins_two_player_search_is_the_same_for_both_goals():
    """With two players the win is the first place: the same visits and values."""
    game = kingmaker.make("kingpins", players=2)
    states = [s for s in _walk(game, 3) if game.current_player(s) >= 0][5:60:11]
    for s in states:
        p = game.current_player(s)
        results = {}
        for goal in ("returns", "win"):
            agent = make_agent(f"ismcts:normal/seconds=none/iterations=60/goal={goal}", game)
            obs = Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                              lambda rng, s=s, p=p: game.sample_hidden(s, p, rng), random.Random(9))
            agent.act(obs)
            results[goal] = (agent.last.visits, agent.last.values)
        assert results["returns"] == results["win"]


def test_kingpins_plays_for_the_win_with_three_or_four_players():
    """Kingpins' hints: goal=win at three and four players (docs/agents.md, the 200-game rows:
    51.0% against 47.2% with the place returns at three, 34.0% against 25% at four); the place
    returns at two, where the two goals make the same search."""
    for n, goal in ((2, "returns"), (3, "win"), (4, "win")):
        game = kingmaker.make("kingpins", players=n)
        for level in ("normal", "hard"):
            assert make_agent(f"ismcts:{level}", game).config.goal == goal
        assert make_agent("ismcts:normal", game).config.depth == 0
    assert make_agent("ismcts:normal/goal=returns", kingmaker.make("kingpins", players=4)).config.goal == "returns"


def test_kingpins_tries_every_move_first_and_lets_the_heuristic_lead_below_at_four_players():
    """Kingpins' hints: prior=breadth at four players only (docs/agents.md, Issue 16 §2: more
    wins against heuristic bots there, none at three); a spec's own prior still wins."""
    for n, prior in ((2, "auto"), (3, "auto"), (4, "breadth")):
        game = kingmaker.make("kingpins", players=n)
        for level in ("normal", "hard"):
            assert make_agent(f"ismcts:{level}", game).config.prior == prior
    assert make_agent("ismcts:normal/prior=heuristic", kingmaker.make("kingpins", players=4)).config.prior == "heuristic"
    assert make_agent("ismcts:easy", kingmaker.make("kingpins", players=4)).config.prior == "none"
