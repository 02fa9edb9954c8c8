"""``tree=k``: the search tree holds at most k decisions of an iteration's path (docs/agents.md).

Past them every player, the seat too, plays the rollout policy. ``tree=1`` is a
flat Monte Carlo search of the root's moves: each move is judged by the mean of
its rollouts. A toy game shows why that can be the stronger search at a small
budget: the rival has many replies, the tree tries the untried ones first, and
the few visits a move gets are then mostly poor replies that flatter it.
``prior=breadth`` is the other cure the same toy shows: every move is tried at
the root, and below it the replies mostly follow the heuristic (PUCT).
"""

from __future__ import annotations

import random

import pytest
from toys import OneReply

from kingmaker import GameError, Match
from kingmaker.agents import make_agent
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level
from kingmaker.core.match import Observation

SAFE, RISKY = 0, 1
REPLIES = 30  # the rival's replies to the risky move; only reply 0 punishes it


class ManyReplies(OneReply):
    """Player 0 takes a safe 0.6, or a risky move the rival can punish with one reply of thirty.

    The punishing reply is the rival's heuristic (and its best) move, so the safe
    move is right; a search that tries the rival's replies one by one sees the
    risky move win 29 times in 30 before it has tried the punishment twice.
    """

    id = "toy-many-replies"
    name = "Many Replies"
    replies = REPLIES

    def returns(self, s):
        if s == (SAFE,):
            return (0.6, 0.4)
        if len(s) == 2:
            return (0.0, 1.0) if s[1] == 0 else (1.0, 0.0)
        return (0.0, 0.0)

    def action_to_str(self, s, action):
        return ("safe", "risky")[action] if not s else f"reply {action}"

    def heuristic_action(self, s, player, rng):
        return 0  # safe for player 0; the punishing reply for player 1


def _search(tree: int | None, seed: int, prior: str = "heuristic") -> ISMCTSAgent:
    game = ManyReplies(2)
    s = game.new_initial_state()
    agent = ISMCTSAgent(SearchConfig(iterations=80, seconds=None, rollout="heuristic", prior=prior,
                                     tree=tree))
    obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(seed))
    agent.act(obs)
    return agent


def test_a_flat_search_judges_the_root_moves_by_their_rollouts():
    flat = _search(1, 0)
    # Only the root is a node: the rival's reply is the rollout policy's, every time.
    assert flat.last.nodes == 1
    assert flat.last.values[RISKY] == 0.0
    assert max(flat.last.visits, key=flat.last.visits.get) == SAFE


def test_a_whole_tree_is_flattered_by_the_untried_replies_at_a_small_budget():
    # The contrast that makes the flat search worth having: with the rival's node in
    # the tree, its untried replies come first and the risky move looks good.
    deep = _search(None, 0)
    assert deep.last.nodes == 2
    assert deep.last.values[RISKY] > 0.6
    assert max(deep.last.visits, key=deep.last.visits.get) == RISKY


def test_breadth_tries_every_root_move_and_follows_the_heuristic_below():
    breadth = _search(None, 0, prior="breadth")
    assert breadth.last.nodes == 2  # the rival's node is searched...
    # ...but its replies mostly follow its heuristic (the punishing one), so the risky
    # move is judged by the reply it will meet; both root moves were tried.
    assert breadth.last.values[RISKY] < 0.6
    assert min(breadth.last.visits.values()) >= 1
    assert max(breadth.last.visits, key=breadth.last.visits.get) == SAFE


def test_tree_two_keeps_the_rivals_node():
    assert _search(2, 0).last.nodes == 2


def test_a_flat_search_plays_whole_matches():
    game = ManyReplies(2)
    agents = [make_agent("ismcts:normal/seconds=none/iterations=30/tree=1", game), make_agent("heuristic", game)]
    match = Match(game, agents, seed=4)
    assert match.run()
    assert match.returns() == (0.6, 0.4)


def test_tree_is_parsed_and_checked():
    assert parse_level("normal/tree=1").tree == 1
    assert parse_level("hard/tree=none", hints={"tree": 1}).tree is None
    assert parse_level("hard", hints={"hard": {"tree": 3}}).tree == 3
    assert parse_level("normal").tree is None
    assert parse_level("normal/prior=breadth").prior == "breadth"
    with pytest.raises(GameError, match="use none, heuristic, puct, breadth, auto"):
        parse_level("normal/prior=wide")
    with pytest.raises(GameError, match="tree must be at least 1"):
        parse_level("normal/tree=0")
    with pytest.raises(GameError, match="not a int"):
        parse_level("normal/tree=flat")
