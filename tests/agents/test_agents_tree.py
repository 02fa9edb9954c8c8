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

import kingmaker
from kingmaker import GameError, Match
from kingmaker.agents import make_agent
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level
from kingmaker.agents.selection import PRIOR_KEY, back_up_minimax
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


def _search(tree: int | None, seed: int, prior: str = "heuristic", minimax: float = 0.0) -> ISMCTSAgent:
    game = ManyReplies(2)
    s = game.new_initial_state()
    agent = ISMCTSAgent(SearchConfig(iterations=80, seconds=None, rollout="heuristic", prior=prior,
                                     tree=tree, minimax=minimax))
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


@pytest.mark.parametrize("prior", ["heuristic", "none"])
@pytest.mark.parametrize("seed", [0, 1, 2])
def test_implicit_minimax_judges_a_move_by_the_best_reply_tried(prior, seed):
    # The same whole tree as above, with the minimax back-ups: once the punishing
    # reply has been tried, the risky move is worth 0 to the seat in minimax terms,
    # so however many harmless replies follow, it ranks below the safe 0.6.
    mm = _search(None, seed, prior=prior, minimax=0.5)
    assert mm.last.nodes == 2
    assert max(mm.last.visits, key=mm.last.visits.get) == SAFE
    assert mm.last.visits[SAFE] > 40


def test_minimax_back_up_takes_each_choosers_best_edge():
    # Three players: the seat (0) chose edge a at the root, then player 1 chose at its
    # node, where an earlier edge is worth more to player 1 than the new one.
    root, node1 = {}, {}
    a = root[5] = [0, 0.0, 1, None]
    old = node1[7] = [1, 0.9, 1, [0.1, 0.9, 0.0]]
    new = node1[8] = [0, 0.0, 1, None]
    node1[PRIOR_KEY] = 7  # a heuristic move kept at the node is not an edge
    back_up_minimax([(a, 0), (new, 1)], [root, node1], [0.5, 0.2, 0.3])
    assert new[:2] == [1, 0.2] and new[3] == [0.5, 0.2, 0.3]
    # Player 1's best at its node is the old edge (0.9 to it), so that is a's value.
    assert a[:2] == [1, 0.5] and a[3] == [0.1, 0.9, 0.0]
    assert old == [1, 0.9, 1, [0.1, 0.9, 0.0]]


def test_minimax_plays_whole_matches_in_parallel_too():
    game = ManyReplies(2)
    agents = [make_agent("ismcts:hard/seconds=none/iterations=40/minimax=0.5", game), make_agent("heuristic", game)]
    match = Match(game, agents, seed=4)
    assert match.run()
    assert match.returns() == (0.6, 0.4)


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
    with pytest.raises(GameError, match="not a whole number"):
        parse_level("normal/tree=flat")
    assert parse_level("normal/minimax=0.3").minimax == 0.3
    assert parse_level("normal").minimax == 0.0
    with pytest.raises(GameError, match="minimax must be between 0 and 1"):
        parse_level("normal/minimax=1.5")


def test_kingpins_earlier_hard_breadth_tree_tries_every_move():
    """Kingpin's ``hard`` before the max-min search (docs/agents.md, Issue 16 §2): with the
    heuristic prior a bigger tree lost to ``normal`` (24% of 100), so it was one tree of 400
    iterations with the breadth prior, which tries every move at the root (even with
    ``normal`` over 200 games); ``normal`` keeps the heuristic prior and 100 iterations."""
    game = kingmaker.make("kingpin", players=2)
    hard = make_agent("ismcts:hard/seconds=none/replies=none/prior=breadth/iterations=400/workers=1", game)
    normal = make_agent("ismcts:normal", game)
    assert (hard.config.prior, hard.config.iterations, hard.config.workers, hard.config.depth) == ("breadth", 400, 1, 2)
    assert (normal.config.prior, normal.config.iterations, normal.config.depth) == ("heuristic", 100, 2)
    assert make_agent("ismcts:hard/prior=heuristic", game).config.prior == "heuristic"  # a spec still wins
    m = Match(game, seed=5)
    rng = random.Random(5)
    while True:  # to the first decision with many moves (past the mafias' choice)
        p = m.current_player
        legal = m.legal_actions(p) if p >= 0 else []
        if len(legal) > 20:
            break
        if p < 0:
            m.step_chance()
        else:
            m.play(rng.choice(legal), p)
    hard.act(m.observation(p))
    assert set(hard.last.visits) == set(legal)  # every move tried at the root
    assert sum(hard.last.visits.values()) == 400
