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
from kingmaker.core.api import TERMINAL
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


class ThreePly(OneReply):
    """Player 0 moves, the rival replies, player 0 answers, and the game ends.

    Move 0 is safe (0.5 whatever follows). Move 1 looks bad after any reply (``evaluate``
    says 0.2 before player 0's answer) but answer 2 then wins, and the heuristic answers 0,
    which loses. Move 2 is poor (0.1). Everything is ``evaluate``'s and the returns' alone:
    the heuristic's moves are 0."""

    id = "toy-three-ply"
    name = "Three Ply"
    replies = 3

    def max_game_length(self) -> int:
        return 3

    def current_player(self, s):
        return (0, 1, 0)[len(s)] if len(s) < 3 else TERMINAL

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp < 0 or player not in (None, cp):
            return []
        return list(range(3))

    def _mine(self, s) -> float:
        if s[0] == 0:
            return 0.5
        if s[0] == 2:
            return 0.1
        return (1.0 if s[2] == 2 else 0.0) if len(s) == 3 else 0.2

    def returns(self, s):
        v = self._mine(s) if len(s) == 3 else 0.0
        return (v, 1.0 - v)

    def evaluate(self, s):
        if not s:
            return None
        v = self._mine(s)
        return (v, 1.0 - v)

    def action_to_str(self, s, action):
        return str(action)

    def heuristic_action(self, s, player, rng):
        return 0


def _search(game, **kw):
    from kingmaker.agents.maxmin import maxmin_search

    s = game.new_initial_state()
    obs = Observation(game, 0, game.view(s, 0), game.legal_actions(s, 0), lambda rng: s, random.Random(0))
    return maxmin_search(obs, 8, None, 1, False, None, lambda: 0.0, **kw)


def test_the_deep_ply_finds_the_answer_that_the_cut_line_misses():
    # hard's shape: every move judged by the rival's replies, each cut by evaluate (0.2 for
    # move 1), so the safe move is played ...
    move, _, _, value = _search(ThreePly(2))
    assert move == 0 and value == {0: 0.5, 1: pytest.approx(0.2), 2: pytest.approx(0.1)}
    # ... and a ply further player 0's answers are weighed (the best-rated one, answer 2,
    # and the heuristic's 0): move 1 wins against every reply.
    move, _, _, value = _search(ThreePly(2), deep=2, responses=1)
    assert move == 1 and value[1] == 1.0 and value[0] == 0.5


def test_the_deep_ply_cuts_off_what_cannot_change_the_move():
    # deep=2: move 0 first (the better value), then move 1. Move 1's first reply takes both
    # answers (1.0 and 0.0); against its other replies the first answer already reaches the
    # smallest so far (1.0), so the heuristic's answer is not played: 3 + 2 + 1 + 1 lines.
    _, lines, count, _ = _search(ThreePly(2), deep=2, responses=1)
    base_lines = 3 + 3 * 3  # a line a move, then each move's three replies
    # Move 0: the answer rated best (0, first of a tie) is the heuristic's: one a reply.
    assert count[0] == 1 + 3 + 3
    assert count[1] == 1 + 3 + 2 + 1 + 1
    assert lines == base_lines + 3 + 2 + 1 + 1
    # With responses=3 all three answers are weighed against the first reply (nothing to
    # cut against yet), and against the others answer 2, rated best, comes first: a cut.
    _, _, count, value = _search(ThreePly(2), deep=2, responses=3)
    assert count[1] == 1 + 3 + 3 + 1 + 1 and value[1] == 1.0


def test_prune_skips_the_moves_that_cannot_be_best():
    # The first values (the heuristic's reply, cut by evaluate): 0.5, 0.2, 0.1. Move 0 is
    # judged first (0.5); move 1's first value is below that, so no more move is judged.
    move, lines, count, value = _search(ThreePly(2), prune=True)
    assert move == 0
    assert count == {0: 1 + 3, 1: 1, 2: 1}
    assert lines == 3 + 3
    assert value == {0: 0.5, 1: pytest.approx(0.2), 2: pytest.approx(0.1)}
    # keep the deep moves' values exact: with deep=2 the two best are judged, not the third.
    move, _, count, _ = _search(ThreePly(2), prune=True, deep=2, responses=1)
    assert move == 1 and count[2] == 1


class ReplyTable(ThreePly):
    """``evaluate`` after (move, reply), for player 0, from a table; the rival's heuristic
    replies 0. Move 0's replies all leave 0.7 but the heuristic's (0.9); move 1 looks
    better than it is (0.8 after the heuristic's reply, 0.3 and 0.0 after the others)."""

    id = "toy-reply-table"
    TABLE = {0: (0.9, 0.7, 0.7), 1: (0.8, 0.3, 0.0), 2: (0.1, 0.1, 0.1)}

    def _mine(self, s) -> float:
        return self.TABLE[s[0]][s[1]] if len(s) >= 2 else 0.5


def test_prune_stops_a_moves_replies_once_it_is_out():
    # Move 0 (first value 0.9) is judged first: 0.7. Move 1 (first value 0.8, above the
    # bar) meets first the reply rated best for the rival (2: 0.0), below the bar, and its
    # other replies are not played. Move 2 (0.1) is not judged.
    move, lines, count, value = _search(ReplyTable(2), prune=True)
    assert move == 0 and value[0] == pytest.approx(0.7)
    assert count == {0: 1 + 3, 1: 1 + 1, 2: 1}
    assert value[1] == 0.0 and lines == 3 + 3 + 1
    # Without prune every move meets every reply, and the choice is the same.
    move, lines, count, value = _search(ReplyTable(2))
    assert move == 0 and count == {0: 4, 1: 4, 2: 4} and value[1] == 0.0


def test_the_expert_settings_reach_the_search_and_are_checked():
    from kingmaker.agents.expert import parse_expert

    game = kingmaker.make("kingpin", players=2)
    cfg = parse_expert("expert/prune=1/deep=6/responses=5", game)
    assert (cfg.prune, cfg.deep, cfg.responses, cfg.replies) == (1, 6, 5, 8)
    with pytest.raises(GameError, match="prune must be 0 or 1"):
        parse_expert("expert/prune=2", game)
    with pytest.raises(GameError, match="responses at least 1"):
        parse_expert("expert/deep=2/responses=0", game)
    with pytest.raises(GameError, match="deep must be at least 0"):
        parse_expert("expert/deep=-1", game)
