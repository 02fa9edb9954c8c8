"""Root-parallel IS-MCTS (``SearchConfig.workers``, used by ``hard``; docs/agents.md, issue 16 §1).

The searches run in forked processes where possible, else one after the other;
either way a decision depends only on the view, the agent's stream and the
budget. Rulebook: King's Kilt ``kings-kilt.txt`` "Playing the Game" (the
positions searched).
"""

from __future__ import annotations

import random
import sys

import pytest

import kingmaker
from kingmaker import GameError
from kingmaker.agents import make_agent, parallel
from kingmaker.agents.bench import decision_points
from kingmaker.agents.search import LEVELS, TEAM_LEVELS, ISMCTSAgent, SearchConfig, parse_level
from kingmaker.core.match import Observation


def _decide(game, s, p, cfg, seed):
    obs = Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                      lambda rng: game.sample_hidden(s, p, rng), random.Random(seed))
    agent = ISMCTSAgent(cfg)
    action = agent.act(obs)
    return action, dict(agent.last.visits), agent.last.iterations, obs.rng.random()


def test_hard_uses_two_workers_and_workers_must_be_positive():
    assert LEVELS["hard"].workers == 2 and TEAM_LEVELS["hard"].workers == 2
    assert LEVELS["normal"].workers == 1
    assert parse_level("hard/workers=1").workers == 1
    with pytest.raises(GameError, match="workers"):
        SearchConfig(workers=0)


def test_root_parallel_search_is_the_same_forked_or_not(monkeypatch):
    if sys.platform.startswith("linux"):
        assert parallel.can_fork()  # so that the first run below is the forked one
    game = kingmaker.make("kings-kilt")
    cfg = SearchConfig(iterations=12, seconds=None, rollout="heuristic", prior="heuristic",
                       opponents="own", workers=2)
    for k, (s, p) in enumerate(decision_points(game, 2)):
        forked = _decide(game, s, p, cfg, k)
        monkeypatch.setattr(parallel, "PARALLEL", False)
        serial = _decide(game, s, p, cfg, k)
        monkeypatch.setattr(parallel, "PARALLEL", True)
        assert forked == serial  # the same move, root counts and stream afterwards
        action, visits, iterations, _ = forked
        assert iterations == 24 and sum(visits.values()) == 24  # two searches of the whole budget
        assert visits[action] == max(visits.values())
        assert forked == _decide(game, s, p, cfg, k)  # deterministic
        # Not simply the first search: the merged counts differ from one search's.
        one = _decide(game, s, p, SearchConfig(iterations=12, seconds=None, rollout="heuristic",
                                               prior="heuristic", opponents="own"), k)
        assert one[1] != visits


def test_make_agent_hard_searches_with_two_workers():
    game = kingmaker.make("kingpins")
    agent = make_agent("ismcts:hard/iterations=5", game)
    assert agent.config.workers == 2
    s, p = decision_points(game, 1)[0]
    obs = Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                      lambda rng: game.sample_hidden(s, p, rng), random.Random(0))
    assert agent.act(obs) in obs.legal_actions
    assert agent.last.iterations == 10
