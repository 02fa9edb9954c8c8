"""``progress``: the team search credits a lost co-operative game with the share of the way
to the win the team made (the game's ``bot.progress``; docs/agents.md, issue 16 §2)."""

from __future__ import annotations

import dataclasses
import random
from types import SimpleNamespace

import pytest
from toys import MovesSoFar

import kingmaker
from kingmaker import GameError
from kingmaker.agents import make_agent
from kingmaker.agents.search import TEAM_LEVELS, parse_level
from kingmaker.core.api import TERMINAL
from kingmaker.core.match import Observation
from kingmaker.games.gangs_of_green_city import bot as ggc_bot

PROGRESS, IDLE = 0, 1


class TwoRoads(MovesSoFar):
    """One hero, two moves; every game is lost. The first road (0) gets half-way to the win,
    the second (1), the heuristic's, nowhere."""

    id = "toy-two-roads"
    name = "Two Roads"
    cooperative = True
    perfect_information = True
    has_chance = False
    min_players = max_players = 1
    bot = SimpleNamespace(progress=lambda game, s: 0.5 if s and s[0] == PROGRESS else 0.0)

    def current_player(self, s):
        return 0 if len(s) < 2 else TERMINAL

    def legal_actions(self, s, player=None):
        return [] if len(s) >= 2 or player not in (None, 0) else [0, 1]

    def returns(self, s):
        return (0.0,)

    def action_to_str(self, s, action):
        return ("progress", "idle")[action] if not s else f"step {action}"

    def heuristic_action(self, s, player, rng):
        return IDLE if not s else 0


def _root_visits(spec: str) -> dict[int, int]:
    game = TwoRoads(1)
    s = game.new_initial_state()
    agent = make_agent(spec, game)
    agent.act(Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(3)))
    return agent.last.visits


def test_a_lost_game_is_credited_with_the_teams_progress():
    # ISUCT (the heuristic prior only orders the first tries): without the credit both
    # roads are worth nothing and share the visits; with it the road that made progress
    # is worth 0.3 * 0.5 and takes most of them.
    spec = "team:normal/seconds=none/iterations=100/survival=0/prior=heuristic"
    without = _root_visits(spec)
    assert without[PROGRESS] == without[IDLE]
    with_progress = _root_visits(spec + "/progress=0.3")
    assert with_progress[PROGRESS] > 2 * with_progress[IDLE]
    # The team's own level (PUCT on the heuristic's road) also moves towards it.
    puct = "team:normal/seconds=none/iterations=100/survival=0"
    assert _root_visits(puct + "/progress=0.3")[PROGRESS] > 2 * _root_visits(puct)[PROGRESS]


def test_progress_is_checked_and_ignored_where_the_game_has_none():
    assert parse_level("normal/progress=0.3", TEAM_LEVELS).progress == 0.3
    assert TEAM_LEVELS["normal"].progress == 0.0
    with pytest.raises(GameError, match="progress must be at least 0"):
        parse_level("normal/progress=-1", TEAM_LEVELS)
    game = TwoRoads(1)
    game.bot = None  # no progress measure: the setting changes nothing
    s = game.new_initial_state()
    visits = []
    for spec in ("team:normal/seconds=none/iterations=30/survival=0/progress=0.3",
                 "team:normal/seconds=none/iterations=30/survival=0"):
        agent = make_agent(spec, game)
        agent.act(Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(3)))
        visits.append(agent.last.visits)
    assert visits[0] == visits[1]


def test_gangs_of_green_city_progress_is_the_share_of_recruitments_ended():
    game = kingmaker.make("gangs-of-green-city", players=2)
    s = game.new_initial_state()
    assert ggc_bot.progress(game, s) == 0.0
    assert ggc_bot.progress(game, dataclasses.replace(s, ended=0b0101)) == 0.5
    assert ggc_bot.progress(game, dataclasses.replace(s, ended=0b1111)) == 1.0
