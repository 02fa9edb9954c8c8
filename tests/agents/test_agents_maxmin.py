"""The selective max-min search (``replies``, ``kingmaker/agents/maxmin.py``; docs/agents.md).

Every move is tried once with the heuristic's reply; the best few are then judged by
the worst of the rival's best-rated replies. A toy shows what that buys: the rival's
heuristic answers the risky move harmlessly, but one of its replies punishes it, and
the game's evaluation (here: the returns of the ended game) rates that reply best for
the rival.
"""

from __future__ import annotations

import random

import pytest
from toys import OneReply

import kingmaker
from kingmaker import GameError, Match
from kingmaker.agents import make_agent
from kingmaker.agents.search import ISMCTSAgent, SearchConfig, parse_level
from kingmaker.core.match import Observation

SAFE, RISKY = 0, 1
REPLIES = 12  # the rival's replies to the risky move; only reply 7 punishes it
PUNISH = 7


class HiddenPunisher(OneReply):
    """Player 0 takes a safe 0.6, or a risky move; the rival's heuristic replies 0, which
    gives player 0 the win, but reply 7 wins for the rival."""

    id = "toy-hidden-punisher"
    name = "Hidden Punisher"
    replies = REPLIES

    def returns(self, s):
        if s == (SAFE,):
            return (0.6, 0.4)
        if len(s) == 2:
            return (0.0, 1.0) if s[1] == PUNISH else (1.0, 0.0)
        return (0.0, 0.0)

    def action_to_str(self, s, action):
        return ("safe", "risky")[action] if not s else f"reply {action}"

    def heuristic_action(self, s, player, rng):
        return 1 if s == () else 0  # risky for player 0; a harmless reply for player 1


class TeamPunisher(HiddenPunisher):
    """The same moves in a co-operative game: both players are paid player 0's return, so
    the teammate's reply 7 is the one that loses."""

    id = "toy-team-punisher"
    cooperative = True

    def returns(self, s):
        r = super().returns(s)[0]
        return (r, r)


def _decide(game, cfg: SearchConfig, seed: int = 0) -> ISMCTSAgent:
    s = game.new_initial_state()
    agent = ISMCTSAgent(cfg)
    obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(seed))
    agent.last_move = agent.act(obs)
    return agent


def _maxmin(replies: int | None, shortlist: int = 12, **kw) -> SearchConfig:
    return SearchConfig(iterations=None, seconds=None, rollout="heuristic", replies=replies, shortlist=shortlist,
                        depth=0, **kw)


def test_the_heuristics_reply_alone_is_fooled_by_the_risky_move():
    # The first pass (every move, the heuristic's reply): the risky move looks like a win.
    agent = _decide(HiddenPunisher(2), _maxmin(1, shortlist=1))
    # With a shortlist of one, the risky move (first value 1.0) is the only one judged,
    # and reply 7 is the rival's best: so it is judged at 0 ...
    assert agent.last.values[RISKY] == 0.0
    # ... and the safe move keeps its first value, 0.6, but was not on the shortlist:
    assert agent.last.values[SAFE] == pytest.approx(0.6)
    assert agent.last_move == RISKY  # the shortlist's best is played


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_maxmin_judges_the_shortlist_by_the_rivals_best_reply(seed):
    agent = _decide(HiddenPunisher(2), _maxmin(1, shortlist=2), seed)
    assert agent.last_move == SAFE
    assert agent.last.values == {SAFE: pytest.approx(0.6), RISKY: 0.0}
    # A line for each move, then the risky move's rated reply and the heuristic's.
    assert agent.last.iterations == 2 + 2
    assert agent.last.visits == {SAFE: 1, RISKY: 3}


def test_a_plain_tree_search_at_the_same_small_budget_plays_the_risky_move():
    # The contrast: a tree search of a few iterations meets the heuristic's reply first.
    cfg = SearchConfig(iterations=4, seconds=None, rollout="heuristic", prior="heuristic")
    assert _decide(HiddenPunisher(2), cfg).last_move == RISKY


def test_in_a_team_game_a_teammates_reply_is_the_teams():
    # Co-operative: the teammate picks the reply best for the team, so a move is worth
    # the best of the replies judged; the "risky" move is then a sure win.
    agent = _decide(TeamPunisher(2), _maxmin(1, shortlist=2))
    assert agent.last.values[RISKY] == 1.0
    assert agent.last_move == RISKY


def test_the_setting_is_parsed_and_checked():
    cfg = parse_level("normal/replies=3/shortlist=5")
    assert (cfg.replies, cfg.shortlist) == (3, 5)
    assert parse_level("normal").replies is None
    assert parse_level("normal/replies=3/replies=none").replies is None
    with pytest.raises(GameError, match="replies must be at least 1"):
        parse_level("normal/replies=0")
    with pytest.raises(GameError, match="shortlist must be at least 1"):
        parse_level("normal/replies=2/shortlist=0")
    assert parse_level("normal/replies=2/shortlist=none").shortlist is None


def test_kingpins_hard_level_is_the_maxmin_search():
    game = kingmaker.make("kingpin", players=2)
    cfg = make_agent("ismcts:hard", game).config
    assert cfg.replies == 8 and cfg.shortlist is None and cfg.depth == 2
    assert make_agent("ismcts:normal", game).config.replies is None
    # A spec can turn it off again.
    assert make_agent("ismcts:hard/replies=none", game).config.replies is None


def test_kingpin_hard_at_a_real_decision_judges_every_move_by_its_replies():
    game = kingmaker.make("kingpin", players=2)
    agents = [make_agent("heuristic", game), make_agent("heuristic", game)]
    match = Match(game, agents, seed=3)
    for _ in range(12):  # past the set-up and a few moves
        cp = match.current_player
        if cp < 0:
            match.step_chance()
            continue
        match.play(agents[cp].act(match.observation(cp)), cp)
    cp = match.current_player
    while cp < 0:
        match.step_chance()
        cp = match.current_player
    obs = match.observation(cp)
    hard = make_agent("ismcts:hard/seconds=none/shortlist=12", game)
    move = hard.act(obs)
    legal = obs.legal_actions
    assert len(legal) > 12
    visits = hard.last.visits
    assert set(visits) == set(legal)  # every move had its first line
    shortlisted = [a for a, v in visits.items() if v > 1]
    assert len(shortlisted) == 12
    assert move in shortlisted
    # The move played is the shortlisted move of the greatest value.
    assert hard.last.values[move] == max(hard.last.values[a] for a in shortlisted)
    # Each shortlisted move met at most 8 rated replies and the heuristic's.
    assert all(2 <= visits[a] <= 1 + 9 for a in shortlisted)
    # As shipped, every move is judged by its replies.
    every = make_agent("ismcts:hard/seconds=none", game)
    assert every.act(obs) in legal
    assert all(v > 1 for v in every.last.visits.values()) and set(every.last.visits) == set(legal)
    assert hard.last.iterations == sum(visits.values())


def test_maxmin_plays_whole_matches_in_every_game():
    for gid in kingmaker.available_games():
        game = kingmaker.make(gid, players=kingmaker.game_class(gid).min_players)
        spec = "team" if game.info.cooperative else "ismcts"
        agents = [make_agent(f"{spec}:normal/seconds=none/replies=1/shortlist=1/depth=1", game)]
        agents += [make_agent("heuristic", game) for _ in range(game.num_players - 1)]
        match = Match(game, agents, seed=2)
        assert match.run(), gid
        ret = match.returns()
        assert all(game.info.min_return - 1e-9 <= r <= game.info.max_return + 1e-9 for r in ret), gid


def test_a_time_cap_that_has_run_out_still_gives_a_judged_legal_move():
    # The cap is checked between lines: one line is always played, and a pass cut short
    # keeps what it judged (here the first move's first value alone).
    game = HiddenPunisher(2)
    agent = _decide(game, SearchConfig(iterations=None, seconds=1e-9, rollout="heuristic", replies=1, depth=0))
    assert agent.last.iterations == 1
    assert agent.last.visits == {SAFE: 1}  # the first legal move's line, and nothing more
    assert agent.last_move == SAFE
