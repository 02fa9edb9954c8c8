"""The lean IS-MCTS makes exactly the searches of the former one (issue 16 §1, docs/agents.md).

Its speed-up (one loop for the tree, one for the rollout, the hot functions
looked up once, the bot's functions called directly) must not change a
search: then the published strength tables stay valid. The former search is
kept in ``search_reference.py``; for every registered game, at decision points
spread over a seeded random game (rulebooks: each game's turn sequence), both
searches with the same view, stream and iteration budget give the same root
visit counts, values and move, and leave the stream in the same place.
"""

from __future__ import annotations

import random

import pytest
from search_reference import reference_search

import kingmaker
from kingmaker.agents.bench import decision_points
from kingmaker.agents.search import LEVELS, TEAM_LEVELS, ISMCTSAgent, TeamAgent, parse_level
from kingmaker.core.match import Observation

GAMES = kingmaker.available_games()
SPECS = (
    "normal/seconds=none/iterations=20",
    "easy/seconds=none/iterations=20",
    "normal/seconds=none/iterations=20/rollout=mixed/prior=puct/opponents=own",
)


def _obs(game, s, p, seed):
    return Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                       lambda rng: game.sample_hidden(s, p, rng), random.Random(seed))


@pytest.mark.parametrize("gid", GAMES)
def test_lean_search_is_the_former_search(gid):
    game = kingmaker.make(gid)
    levels = TEAM_LEVELS if game.info.cooperative else LEVELS
    cls = TeamAgent if game.info.cooperative else ISMCTSAgent
    specs = SPECS if gid in ("kings-kilt", "kingpins", "kingpin") else SPECS[:1]  # the slow games: once
    compared = 0
    for spec in specs:
        cfg = parse_level(spec, levels, game.search_hints)
        for k, (s, p) in enumerate(decision_points(game, 2)):
            new_obs, old_obs = _obs(game, s, p, k), _obs(game, s, p, k)
            agent = cls(cfg)
            move = agent.search(new_obs)
            old_move, old_visits, old_values, old_nodes = reference_search(cls(cfg), old_obs)
            assert (move, agent.last.visits, agent.last.nodes) == (old_move, old_visits, old_nodes), (gid, spec, k)
            assert agent.last.values == pytest.approx(old_values, abs=1e-12)
            assert new_obs.rng.random() == old_obs.rng.random()
            compared += 1
    assert compared >= 2
