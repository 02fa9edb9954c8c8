"""IS-MCTS, difficulty levels and the team agent: correctness, fairness, determinism.

Every registered game is covered through ``kingmaker.available_games()``, so a
new game is tested here without any edit. A small toy game with chance, hidden
cards and a simultaneous choice checks the search itself.
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker import CHANCE, SIMULTANEOUS, TERMINAL, GameError, Match, Observation
from kingmaker.agents import make_agent
from kingmaker.agents.search import (
    LEVELS,
    TEAM_LEVELS,
    ISMCTSAgent,
    SearchConfig,
    TeamAgent,
    parse_level,
)
from kingmaker.core.api import Game

GAMES = kingmaker.available_games()


# ---- a toy game: chance deals secret cards, then both name a card at once --------------
class NameYourCard(Game):
    """Each player is dealt a secret card 0-2, then both name a card simultaneously.

    A player who names their own card scores; the better score wins (1.0),
    equal scores share (0.5 each). Naming your own card is the best move and
    can be found only from your own view. The heuristic always names 0.
    """

    id = "toy-name-your-card"
    name = "Name Your Card"
    has_chance = True
    perfect_information = False
    has_simultaneous = True
    constant_sum = 1.0

    def max_game_length(self) -> int:
        return 4

    def new_initial_state(self):
        return (-1, -1, -1, -1)  # card 0, card 1, pick 0, pick 1

    def current_player(self, s):
        if s[1] < 0:
            return CHANCE
        if s[2] < 0 or s[3] < 0:
            return SIMULTANEOUS
        return TERMINAL

    def simultaneous_players(self, s):
        return tuple(p for p in (0, 1) if s[2 + p] < 0)

    def chance_outcomes(self, s):
        return [(0, 1 / 3), (1, 1 / 3), (2, 1 / 3)]

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp == CHANCE:
            return [0, 1, 2] if player is None else []
        if cp == SIMULTANEOUS and player in self.simultaneous_players(s):
            return [0, 1, 2]
        return []

    def apply(self, s, action, player=None):
        if s[0] < 0:
            return (action, -1, -1, -1)
        if s[1] < 0:
            return (s[0], action, -1, -1)
        t = list(s)
        t[2 + player] = action
        return tuple(t)

    def score(self, s, p):
        return 1 if s[2 + p] == s[p] else 0

    def returns(self, s):
        if self.current_player(s) != TERMINAL:
            return (0.0, 0.0)
        a, b = self.score(s, 0), self.score(s, 1)
        return (1.0, 0.0) if a > b else (0.0, 1.0) if b > a else (0.5, 0.5)

    def view(self, s, player):
        over = self.current_player(s) == TERMINAL
        return {
            "card": s[player] if player is not None and not over else None,
            "dealt": [s[0] >= 0, s[1] >= 0],
            "committed": [s[2] >= 0, s[3] >= 0],
            "pick": s[2 + player] if player is not None and not over else None,
            "final": list(s) if over else None,
        }

    def sample_hidden(self, s, player, rng):
        if self.current_player(s) == TERMINAL or player is None:
            return s
        o = 1 - player
        t = list(s)
        if s[o] >= 0:
            t[o] = rng.randrange(3)
        if s[2 + o] >= 0:
            t[2 + o] = rng.randrange(3)
        return tuple(t)

    def action_to_str(self, s, action):
        return f"card {action}"

    def heuristic_action(self, s, player, rng):
        return 0


class NameYourCardTogether(NameYourCard):
    """The co-operative variant: the team wins only if both name their own card."""

    id = "toy-name-your-card-together"
    cooperative = True
    constant_sum = None

    def returns(self, s):
        if self.current_player(s) != TERMINAL:
            return (0.0, 0.0)
        win = float(self.score(s, 0) and self.score(s, 1))
        return (win, win)


def observation(game, s, p, seed):
    """Builds what a Match gives seat ``p`` in state ``s`` (as Match.observation does)."""
    return Observation(
        game,
        p,
        game.view(s, p),
        game.legal_actions(s, p),
        lambda rng: game.sample_hidden(s, p, rng),
        random.Random(seed),
    )


def every_state(game, seed, limit=None):
    """Yields every state, chance nodes included, of a seeded random game."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    for _ in range(limit or game.info.max_game_length + 1):
        yield s
        cp = game.current_player(s)
        if cp == TERMINAL:
            return
        if cp == CHANCE:
            s = game.apply(s, kingmaker.sample_chance(game.chance_outcomes(s), rng))
            continue
        p = cp if cp >= 0 else game.acting_players(s)[0]
        s = game.apply(s, rng.choice(game.legal_actions(s, p)), p)


def decision_states(game, seed, limit=400):
    """Yields (state, player) at every decision of a seeded random game."""
    for s in every_state(game, seed, limit):
        cp = game.current_player(s)
        if cp >= 0:
            yield s, cp
        elif cp == SIMULTANEOUS:
            for p in game.acting_players(s):
                yield s, p


def small(game, iterations=12):
    return ISMCTSAgent(SearchConfig(iterations=iterations, seconds=None, rollout="random"))


# ---- the toy game ---------------------------------------------------------------------
@pytest.mark.parametrize("card", [0, 1, 2])
@pytest.mark.parametrize("seat", [0, 1])
def test_ismcts_names_its_own_card_at_a_simultaneous_node(card, seat):
    """The search reads the seat's own card from its view and ignores the rival's secret pick."""
    game = NameYourCard(2)
    for other_card in range(3):
        for other_pick in (-1, 0, 1, 2):
            cards = [0, 0]
            cards[seat], cards[1 - seat] = card, other_card
            picks = [-1, -1]
            picks[1 - seat] = other_pick
            s = (cards[0], cards[1], picks[0], picks[1])
            agent = ISMCTSAgent(SearchConfig(iterations=200, seconds=None))
            assert agent.act(observation(game, s, seat, seed=7)) == card
            assert agent.last.iterations == 200


def test_ismcts_beats_the_toy_heuristic_and_random_in_matches():
    game = NameYourCard(2)
    for opponent in ("random", "heuristic"):
        total = 0.0
        for i in range(30):
            agents = [make_agent("ismcts:easy", game), make_agent(opponent, game)]
            if i % 2:
                agents.reverse()
            m = Match(game, agents, seed=i)
            assert m.run()
            total += m.returns()[i % 2]
        # Naming your own card scores every time; the opponent scores 1/3 (random) or
        # only when dealt 0 (heuristic), so a correct search wins well over 60%.
        assert total / 30 > 0.6, opponent


def test_team_agent_plans_for_the_team_in_a_cooperative_game():
    game = NameYourCardTogether(2)
    wins = 0
    for i in range(12):
        m = Match(game, [make_agent("team:easy", game), make_agent("team:easy", game)], seed=i)
        assert m.run()
        wins += m.returns()[0] == 1.0
    assert wins == 12
    assert isinstance(make_agent("ismcts", game), TeamAgent)


def test_team_agent_refuses_a_competitive_game():
    with pytest.raises(GameError, match="co-operative"):
        make_agent("team", kingmaker.make("kings-kilt", players=2))


# ---- levels and settings ----------------------------------------------------------------
def test_difficulty_levels_grow_in_budget():
    for levels in (LEVELS, TEAM_LEVELS):
        assert list(levels) == ["easy", "normal", "hard"]
        its = [levels[k].iterations for k in levels]
        assert its == sorted(its) and len(set(its)) == 3
        # normal answers within two seconds: its time cap is below that.
        assert levels["normal"].seconds is not None and levels["normal"].seconds < 2.0


def test_parse_level_names_and_overrides():
    assert parse_level(None) == LEVELS["normal"]
    assert parse_level("hard") == LEVELS["hard"]
    cfg = parse_level("easy/iterations=33/rollout=heuristic/seconds=none")
    assert (cfg.iterations, cfg.rollout, cfg.seconds) == (33, "heuristic", None)
    assert cfg.exploration == LEVELS["easy"].exploration


@pytest.mark.parametrize(
    "text,words",
    [
        ("impossible", "no difficulty level"),
        ("normal/width=3", "no search setting"),
        ("normal/depth=-1", "depth must be at least 0"),
        ("iterations=many", "iterations='many' is not a whole number or none"),
        ("exploration=high", "exploration='high' is not a number$"),
        ("impossible", "levels: easy, normal, hard, expert"),
        ("rollout=greedy", "rollout 'greedy'"),
        ("iterations=0", "at least 1"),
        ("iterations=none/seconds=none", "needs iterations or seconds"),
    ],
)
def test_parse_level_rejects_bad_text_with_a_clear_error(text, words):
    with pytest.raises(GameError, match=words):
        parse_level(text)


def test_make_agent_kinds_include_search_and_team():
    from kingmaker.agents import agent_kinds

    assert {"random", "heuristic", "ismcts", "team"} <= set(agent_kinds())
    game = kingmaker.make("kings-kilt", players=2)
    agent = make_agent("ismcts:hard", game)
    assert agent.config == parse_level("hard", hints=game.search_hints)  # the level, with the game's hints
    assert make_agent("ismcts:easy", game).config == LEVELS["easy"]
    with pytest.raises(GameError, match="no agent kind"):
        make_agent("alphazero", game)


def test_a_time_budget_alone_ends_the_search():
    game = kingmaker.make("kings-kilt", players=2)
    s, p = next((s, p) for s, p in decision_states(game, 3) if len(game.legal_actions(s, p)) > 1)
    agent = ISMCTSAgent(SearchConfig(iterations=None, seconds=0.05))
    a = agent.act(observation(game, s, p, 1))
    assert a in game.legal_actions(s, p)
    assert agent.last.iterations >= 1
    assert sum(agent.last.visits.values()) == agent.last.iterations


def test_search_statistics_count_every_iteration_at_the_root():
    game = kingmaker.make("kings-kilt", players=3)
    s, p = next((s, p) for s, p in decision_states(game, 5) if len(game.legal_actions(s, p)) > 2)
    agent = small(game, iterations=40)
    a = agent.act(observation(game, s, p, 2))
    assert agent.last.iterations == 40
    assert sum(agent.last.visits.values()) == 40
    assert set(agent.last.visits) == set(game.legal_actions(s, p))
    assert agent.last.visits[a] == max(agent.last.visits.values())


# ---- every registered game ---------------------------------------------------------------
@pytest.mark.parametrize("gid", GAMES)
def test_every_game_ismcts_and_heuristic_play_legal_games_to_the_end(gid):
    """Match.play checks every move, so an illegal choice fails the match."""
    cls = kingmaker.game_class(gid)
    for n in sorted({cls.min_players, cls.max_players}):
        game = kingmaker.make(gid, players=n)
        spec = "team:easy/iterations=3" if game.info.cooperative else "ismcts:easy/iterations=3"
        # Seat 1 searches with the implicit minimax back-ups (max^n over the players).
        specs = [spec, spec + "/iterations=6/minimax=0.5"] + ["heuristic"] * (n - 2)
        agents = [make_agent(specs[i], game) for i in range(n)]
        m = Match(game, agents, seed=n)
        assert m.run()
        ret = m.returns()
        assert len(ret) == n
        assert all(game.info.min_return - 1e-9 <= r <= game.info.max_return + 1e-9 for r in ret)


@pytest.mark.parametrize("gid", GAMES + ["toy"])
def test_every_game_an_agents_decision_ignores_the_hidden_parts_of_the_true_state(gid):
    """Two true states with the same view for a seat (one drawn with sample_hidden, so
    its hidden parts differ) give every agent the same decision with the same stream."""
    game = NameYourCard(2) if gid == "toy" else kingmaker.make(gid, players=kingmaker.game_class(gid).min_players)
    differing = 0
    checked = 0
    for seed in range(3):
        for k, (s, p) in enumerate(decision_states(game, seed)):
            if k % 5 or len(game.legal_actions(s, p)) < 2:
                continue
            other = game.sample_hidden(s, p, random.Random(f"other/{seed}/{k}"))
            assert game.view(other, p) == game.view(s, p)
            if game.to_json(other) == game.to_json(s) if gid != "toy" else other == s:
                continue
            differing += 1
            # normal takes the game's search hints (rollouts cut with its evaluate).
            for spec in ("random", "heuristic", "ismcts:easy/iterations=8/seconds=none",
                         "ismcts:normal/iterations=8/seconds=none",
                         "ismcts:normal/iterations=8/seconds=none/minimax=0.5",
                         "ismcts:normal/seconds=none/replies=1/shortlist=2"):
                agent_a = make_agent(spec, game)
                agent_b = make_agent(spec, game)
                a = agent_a.act(observation(game, s, p, f"{seed}/{k}"))
                b = agent_b.act(observation(game, other, p, f"{seed}/{k}"))
                assert a == b, (spec, seed, k)
            checked += 1
            if checked >= 6:
                break
        if checked >= 6:
            break
    if not game.info.perfect_information:
        assert differing > 0, "no position with hidden information was found"


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_ismcts_with_an_iteration_budget_is_deterministic(gid):
    game = kingmaker.make(gid, players=kingmaker.game_class(gid).min_players)
    points = [(s, p) for s, p in decision_states(game, 11) if len(game.legal_actions(s, p)) > 1][:3]
    assert points
    for i, (s, p) in enumerate(points):
        first = small(game, 10)
        second = small(game, 10)
        a = first.act(observation(game, s, p, i))
        b = second.act(observation(game, s, p, i))
        assert a == b
        assert first.last.visits == second.last.visits


@pytest.mark.parametrize("prior", ["heuristic", "puct"])
def test_heuristic_prior_tries_the_heuristic_move_first(prior):
    """With a heuristic prior a single iteration visits, and so plays, the heuristic's move."""
    game = kingmaker.make("kings-kilt", players=2)
    checked = 0
    for s, p in decision_states(game, 21):
        if len(game.legal_actions(s, p)) < 3:
            continue
        agent = ISMCTSAgent(SearchConfig(iterations=1, prior=prior))
        obs = observation(game, s, p, 4)
        chosen = agent.act(obs)
        # The heuristic reads only what p may know, so its move on the search's own
        # first determinisation (same stream) is the move on the true state.
        stream = random.Random(4)
        expected = game.heuristic_action(game.sample_hidden(s, p, stream), p, stream)
        assert chosen == expected
        checked += 1
    assert checked > 5


def test_auto_rollout_uses_the_heuristic_unless_it_is_too_slow(monkeypatch):
    from kingmaker.agents import search

    game = kingmaker.make("kings-kilt", players=2)
    s, p = next((s, p) for s, p in decision_states(game, 8) if len(game.legal_actions(s, p)) > 1)
    untimed = ISMCTSAgent(SearchConfig(iterations=2, seconds=None, rollout="auto"))
    untimed.act(observation(game, s, p, 0))
    assert untimed.rollout == "heuristic" and untimed.slow is False  # no time budget
    monkeypatch.setattr(search, "AUTO_HEURISTIC_LIMIT", -1.0)  # every heuristic is "too slow"
    slow = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="auto"))
    slow.act(observation(game, s, p, 0))
    assert slow.rollout == "random"
    monkeypatch.setattr(search, "AUTO_HEURISTIC_LIMIT", 10.0)
    fast = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="auto"))
    fast.act(observation(game, s, p, 0))
    assert fast.rollout == "heuristic"
    # The probe uses its own stream: the decision equals a fixed heuristic-rollout search.
    fixed = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="heuristic"))
    assert fixed.act(observation(game, s, p, 0)) == fast.act(observation(game, s, p, 0))
    # prior=auto: PUCT (lean on the heuristic) when the heuristic is slow, else heuristic first.
    monkeypatch.setattr(search, "AUTO_HEURISTIC_LIMIT", -1.0)
    lean = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="heuristic", prior="auto"))
    lean.act(observation(game, s, p, 0))
    assert (lean.slow, lean.rollout, lean.prior) == (True, "heuristic", "puct")
    monkeypatch.setattr(search, "AUTO_HEURISTIC_LIMIT", 10.0)
    quick = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="heuristic", prior="auto"))
    quick.act(observation(game, s, p, 0))
    assert (quick.slow, quick.prior) == (False, "heuristic")


def test_auto_probe_runs_once_per_game_and_process(monkeypatch):
    from kingmaker.agents import search

    monkeypatch.setattr(search, "_PROBED", {})
    game = kingmaker.make("kings-kilt", players=3)
    s, p = next((s, p) for s, p in decision_states(game, 8) if len(game.legal_actions(s, p)) > 1)
    first = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="auto"))
    first.act(observation(game, s, p, 0))
    assert first.slow is False and len(search._PROBED) == 1
    (key,) = search._PROBED
    search._PROBED[key] = 1.0  # as if a heuristic decision had taken a second
    second = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="auto"))
    second.act(observation(game, s, p, 0))
    assert second.slow is True and second.rollout == "random"  # the kept result, no new probe
    two = kingmaker.make("kings-kilt", players=2)  # another game: probed anew
    s2, p2 = next((s, p) for s, p in decision_states(two, 8) if len(two.legal_actions(s, p)) > 1)
    third = ISMCTSAgent(SearchConfig(iterations=2, seconds=1.0, rollout="auto"))
    third.act(observation(two, s2, p2, 0))
    assert third.slow is False and len(search._PROBED) == 2


@pytest.mark.parametrize("prior", ["heuristic", "puct"])
def test_search_overrules_a_wrong_heuristic_prior(prior):
    """The toy heuristic always names 0; with enough iterations the search names the real card."""
    game = NameYourCard(2)
    for card in (1, 2):
        s = (card, 0, -1, -1)
        agent = ISMCTSAgent(SearchConfig(iterations=300, prior=prior, rollout="random"))
        assert agent.act(observation(game, s, 0, seed=card)) == card


# ---- game evaluations and search hints ---------------------------------------------------
class LongWalk(Game):
    """Player 0 picks a door (0-2), then 30 coin moves; door 2 wins at the end.

    ``evaluate`` judges only every tenth step and (wrongly) rates door 1 best, so a
    search that cuts rollouts short with it picks door 1 and one that rolls out to
    the end picks door 2.
    """

    id = "toy-long-walk"
    name = "Long Walk"
    constant_sum = 1.0
    STEPS = 30

    def __init__(self, players: int = 2, **options):
        super().__init__(players, **options)
        self.judged: list[int] = []  # the steps at which an estimate was given

    def max_game_length(self) -> int:
        return self.STEPS + 1

    def new_initial_state(self):
        return (-1, 0)  # door, coin moves so far

    def current_player(self, s):
        if s[0] < 0:
            return 0
        return TERMINAL if s[1] >= self.STEPS else s[1] % 2

    def legal_actions(self, s, player=None):
        cp = self.current_player(s)
        if cp == TERMINAL or player != cp:
            return []
        return [0, 1, 2] if s[0] < 0 else [0, 1]

    def apply(self, s, action, player=None):
        return (action, 0) if s[0] < 0 else (s[0], s[1] + 1)

    def returns(self, s):
        if self.current_player(s) != TERMINAL:
            return (0.0, 0.0)
        return (1.0, 0.0) if s[0] == 2 else (0.0, 1.0)

    def evaluate(self, s):
        if s[0] < 0 or s[1] % 10:
            return None
        self.judged.append(s[1])
        return (0.9, 0.1) if s[0] == 1 else (0.2, 0.8)

    def view(self, s, player):
        return {"door": s[0], "steps": s[1]}

    def action_to_str(self, s, action):
        return f"door {action}" if s[0] < 0 else f"coin {action}"


def test_depth_cuts_rollouts_at_the_first_state_the_game_judges():
    """Evaluate (game contract): with depth=d a rollout goes d decisions, then ends at the
    first state the game judges and backs up its estimate; without depth it never asks."""
    game = LongWalk()
    s = game.new_initial_state()
    full = ISMCTSAgent(SearchConfig(iterations=60, rollout="random"))
    assert full.act(observation(game, s, 0, 1)) == 2
    assert game.judged == []
    cut = ISMCTSAgent(SearchConfig(iterations=60, rollout="random", depth=0))
    assert cut.act(observation(game, s, 0, 1)) == 1
    # The doors are judged at once (step 0); deeper expansions at the next tenth step.
    assert 0 in game.judged and set(game.judged) <= {0, 10, 20}
    game.judged.clear()
    deeper = ISMCTSAgent(SearchConfig(iterations=60, rollout="random", depth=3))
    assert deeper.act(observation(game, s, 0, 1)) == 1
    # Three rollout decisions after the door's expansion, then the next judged step.
    assert game.judged and set(game.judged) <= {10, 20} and 10 in game.judged


def test_game_search_hints_tune_normal_and_hard_but_not_easy():
    class Hinted(LongWalk):
        search_hints = {"depth": 0, "exploration": 0.3}

    game = Hinted()
    normal = make_agent("ismcts:normal", game)
    assert (normal.config.depth, normal.config.exploration) == (0, 0.3)
    assert make_agent("ismcts:hard", game).config.depth == 0
    assert make_agent("ismcts:easy", game).config == LEVELS["easy"]
    # A setting named in the spec beats the game's hint.
    assert make_agent("ismcts:normal/depth=none", game).config.depth is None
    assert parse_level("hard/depth=2", hints=Hinted.search_hints).depth == 2

    class PerLevel(LongWalk):
        search_hints = {"depth": 1, "normal": {"iterations": 300}, "hard": {"iterations": 900, "depth": 4}}

    normal = parse_level("normal", hints=PerLevel.search_hints)
    hard = parse_level("hard", hints=PerLevel.search_hints)
    assert (normal.iterations, normal.depth, hard.iterations, hard.depth) == (300, 1, 900, 4)
    assert parse_level("hard/iterations=5", hints=PerLevel.search_hints).iterations == 5

    class Misspelt(LongWalk):
        search_hints = {"deepth": 0}

    with pytest.raises(GameError, match="unknown search hints"):
        make_agent("ismcts:normal", Misspelt())


@pytest.mark.parametrize("gid", GAMES)
def test_every_game_search_hints_and_evaluation_keep_the_contract(gid):
    """A game's hints are search settings, and its evaluation (where it judges a state)
    gives one estimate per player within the game's returns."""
    cls = kingmaker.game_class(gid)
    for level in ("normal", "hard"):
        parse_level(level, hints=cls.search_hints)  # raises on an unknown hint
    for n in sorted({cls.min_players, cls.max_players}):
        game = kingmaker.make(gid, players=n)
        judged = 0
        for seed in range(3):
            for s in every_state(game, seed):
                est = game.evaluate(s)
                if est is None:
                    continue
                judged += 1
                assert len(est) == n
                assert all(game.info.min_return - 1e-9 <= x <= game.info.max_return + 1e-9 for x in est)
        if cls.search_hints.get("depth") is not None:
            assert judged > 0, "the hints cut rollouts short but the game judges no state"


def test_kings_kilt_normal_searches_more_with_three_or_four_players():
    """King's Kilt's hints are set per instance: at 3-4 players a seat makes a third or a
    quarter of the decisions, and ``normal`` searches 400 iterations (docs/agents.md, the
    200-game rows); at 2 players it keeps the level's 100. ``hard`` and ``easy`` keep theirs."""
    two, three, four = (kingmaker.make("kings-kilt", players=n) for n in (2, 3, 4))
    assert make_agent("ismcts:normal", two).config.iterations == 100
    assert make_agent("ismcts:normal", three).config.iterations == 400
    assert make_agent("ismcts:normal", four).config.iterations == 400
    assert make_agent("ismcts:normal", four).config.opponents == "own"  # the class's hint is kept
    assert make_agent("ismcts:hard", three).config.iterations == LEVELS["hard"].iterations
    assert make_agent("ismcts:easy", three).config.iterations == LEVELS["easy"].iterations
    assert make_agent("ismcts:normal/iterations=50", three).config.iterations == 50  # a spec still wins
    assert type(three).search_hints == {"opponents": "own"}  # the class attribute is untouched
