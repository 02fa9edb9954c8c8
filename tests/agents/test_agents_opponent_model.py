"""``opponents=model``: the search gives the other players the rollout policy (docs/agents.md).

Against heuristic bots the heuristic is an exact model of the rivals, and the
search can exploit it; with ``public`` or ``own`` keying the rivals get their
own search statistics and play for themselves. A toy game with a bait shows
the difference, and a real game checks that no rival's information set is
ever keyed (the whole budget goes to the seat's own decisions).
"""

from __future__ import annotations

import random

import pytest
from toys import OneReply

import kingmaker
from kingmaker import GameError, Match
from kingmaker.agents import make_agent
from kingmaker.agents import search as search_module
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level
from kingmaker.core.match import Observation

SAFE, BAIT = 0, 1
TAKE, LEAVE = 0, 1


class Bait(OneReply):
    """Player 0 takes a safe 0.6, or offers a bait; player 1 may take it (0 to player 0) or leave it (1).

    A rival that plays for itself takes the bait, so the safe move is right; the
    rival's heuristic always leaves it, so against the heuristic the bait is right.
    """

    id = "toy-bait"
    name = "Bait"

    def returns(self, s):
        if s == (SAFE,):
            return (0.6, 0.4)
        if s == (BAIT, TAKE):
            return (0.0, 1.0)
        if s == (BAIT, LEAVE):
            return (1.0, 0.0)
        return (0.0, 0.0)

    def action_to_str(self, s, action):
        return ("safe", "bait")[action] if not s else ("take", "leave")[action]

    def heuristic_action(self, s, player, rng):
        return LEAVE if s else SAFE  # player 0's heuristic is careful, player 1's naive


def _first_move(opponents: str, seed: int = 0) -> int:
    game = Bait(2)
    s = game.new_initial_state()
    agent = ISMCTSAgent(SearchConfig(iterations=200, seconds=None, rollout="heuristic",
                                     prior="heuristic", opponents=opponents))
    obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0),
                      lambda rng: s, random.Random(seed))
    return agent.act(obs)


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_a_modelled_rival_is_exploited_where_a_searching_rival_is_respected(seed):
    # The rival searching for itself takes the bait: the safe 0.6 is the better move.
    assert _first_move("public", seed) == SAFE
    assert _first_move("own", seed) == SAFE
    # The rival modelled by its heuristic leaves the bait: offering it wins.
    assert _first_move("model", seed) == BAIT


def test_the_model_agent_beats_the_naive_heuristic_where_the_others_settle_for_less():
    game = Bait(2)
    for opponents, want in (("model", (1.0, 0.0)), ("public", (0.6, 0.4))):
        agents = [ISMCTSAgent(SearchConfig(iterations=100, seconds=None, rollout="heuristic",
                                           opponents=opponents)), make_agent("heuristic", game)]
        match = Match(game, agents, seed=3)
        assert match.run()
        assert match.returns() == want, opponents


def test_model_keys_only_the_seats_own_information_sets(monkeypatch):
    # Four-player Kingpins (its rivals make three quarters of the decisions): with
    # opponents=model no rival's information set is ever keyed; with public keying they are.
    game = kingmaker.make("kingpins", players=4)
    rng = random.Random(5)
    s = game.new_initial_state()
    while game.current_player(s) != 0 or len(game.legal_actions(s, 0)) < 2:
        cp = game.current_player(s)
        if cp < 0:
            s = game.apply(s, kingmaker.sample_chance(game.chance_outcomes(s), rng))
        else:
            s = game.apply(s, game.heuristic_action(s, cp, rng), cp)
    keyed: list = []
    real = search_module.bound_info_key

    def spying(g):
        key = real(g)

        def info_key(state, player):
            keyed.append(player)
            return key(state, player)

        return info_key

    monkeypatch.setattr(search_module, "bound_info_key", spying)
    for opponents, rivals_keyed in (("model", False), ("public", True)):
        keyed.clear()
        agent = make_agent(f"ismcts:normal/seconds=none/iterations=150/opponents={opponents}", game)
        obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0),
                          lambda r: game.sample_hidden(s, 0, r), random.Random(1))
        assert agent.act(obs) in game.legal_actions(s, 0)
        rivals = set(keyed) - {0}
        assert 0 in keyed and bool(rivals) == rivals_keyed, (opponents, rivals)
        assert agent.last.iterations == 150


def test_parse_level_knows_model_and_names_the_choices_on_a_typo():
    assert parse_level("normal/opponents=model").opponents == "model"
    with pytest.raises(GameError) as err:
        parse_level("normal/opponents=modle")
    assert "public, own, model" in str(err.value)
