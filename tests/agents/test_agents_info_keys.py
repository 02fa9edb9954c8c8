"""IS-MCTS keys information sets by ``information_state_string``: the same tree as keying by views.

The string is a function of the view and tells different views apart, so the
search partitions its nodes exactly as it did with ``repr(view)`` keys: with
the same stream and an iteration budget it makes the same decision with the
same visit counts.
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker.agents.bench import decision_points
from kingmaker.agents.search import LEVELS, ISMCTSAgent, parse_level
from kingmaker.core.match import Observation


def _search(game, s, p, seed):
    cfg = parse_level("normal/seconds=none/iterations=60", LEVELS, game.search_hints)
    obs = Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                      lambda rng: game.sample_hidden(s, p, rng), random.Random(seed))
    agent = ISMCTSAgent(cfg)
    move = agent.act(obs)
    return move, agent.last.visits, agent.last.nodes


@pytest.mark.parametrize("game_id", ["kings-kilt", "kingpins", "san-quentin-kings"])
def test_information_state_keys_give_the_same_search_as_view_keys(game_id: str) -> None:
    game = kingmaker.make(game_id)
    viewed = kingmaker.make(game_id)
    # the old keying: the view itself
    viewed.information_state_string = lambda s, p: repr(viewed.view(s, p))
    for k, (s, p) in enumerate(decision_points(game, 2)):
        assert _search(game, s, p, k) == _search(viewed, s, p, k)
