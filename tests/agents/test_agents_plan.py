"""The turn planner (``plan``): the heuristic's style for the turn, chosen by rollouts.

It acts on its observation only, plays the style its rollouts score best (the default on a
tie), keeps that style until another player decides, and refuses games whose heuristic
plays one way and specs it does not know.
"""

from __future__ import annotations

import random

import pytest

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.agents.plan import PLAN_LEVELS, PlanAgent
from kingmaker.core.errors import BadRequestError, GameError
from kingmaker.core.match import Match, Observation


def _ggc(players=4):
    return kingmaker.make("gangs-of-green-city", players=players, escalations=4)


def test_a_game_whose_heuristic_plays_one_way_is_refused():
    """The refusal says why and names the games the planner can play (their heuristic's styles)."""
    with pytest.raises(GameError) as e:
        make_agent("plan", kingmaker.make("kingpin", players=2))
    assert "plays one way" in str(e.value)
    have = [g for g in kingmaker.available_games() if len(kingmaker.make(g).heuristic_styles) > 1]
    assert have == ["gangs-of-green-city"] and e.value.details["allowed"] == have
    assert "gangs-of-green-city" in str(e.value)


@pytest.mark.parametrize("spec, words", [
    ("plan:ultra", "no planner level 'ultra'"),
    ("plan:normal/samples=0", "samples must be a whole number of 1 or more"),
    ("plan:normal/samples=many", "samples must be a whole number"),
    ("plan:normal/progress=2", "progress must be a number from 0 to 1"),
    ("plan:normal/depth=3", "no setting 'depth'"),
    ("plan:normal/horizon=game", "horizon must be one of turn, round, not 'game'"),
    ("plan:normal/turns=0", "turns must be a whole number of 1 or more"),
    ("plan:normal/horizon=round/turns=2", "turns counts the seat's turns with horizon=turn"),
    ("plan:normal/credit=gold", "credit must be one of ended, cards, not 'gold'"),
    ("plan:normal/styles=meet+meet2", "plan styles must be default and at least one other"),
    ("plan:normal/styles=default", "plan styles must be default and at least one other"),
    ("plan:normal/styles=default+dance", "its styles: default, meet"),
])
def test_a_bad_spec_says_what_is_accepted(spec, words):
    with pytest.raises(BadRequestError) as e:
        make_agent(spec, _ggc())
    assert words in str(e.value)


def test_levels_and_settings():
    g = _ggc()
    assert make_agent("plan", g).config == PLAN_LEVELS["normal"]
    assert make_agent("plan:hard", g).config.samples == 60
    assert make_agent("plan:expert", g).config.samples == 150
    agent = make_agent("plan:easy/samples=5/progress=0", g)
    assert (agent.config.samples, agent.config.progress) == (5, 0.0) and agent.name == "plan:easy/samples=5/progress=0"
    agent = make_agent("plan:hard/horizon=round/styles=default+meet", g)
    assert (agent.config.horizon, agent.styles, agent.config.samples) == ("round", ("default", "meet"), 60)
    # turns: 3 by default since the paired rows of 2026-12-07 (docs/agents.md, "A plan kept for
    # three turns"); 1 with horizon=round, where turns > 1 is refused
    assert all(make_agent(f"plan:{lv}", g).config.turns == 3 for lv in PLAN_LEVELS)
    assert agent.config.turns == 1
    assert make_agent("plan:hard/turns=1", g).config.turns == 1
    assert make_agent("plan:hard/horizon=turn", g).config.turns == 3
    assert make_agent("plan", g).styles == g.heuristic_styles
    assert make_agent("plan", g)._progress is g.bot.progress
    assert make_agent("plan:hard/credit=cards", g)._progress is g.bot.progress_cards


def _rollout_calls(agent, g, s, p):
    """One rollout of ``agent`` from ``s`` for seat ``p``, its style recorded: (seat, styled) a decision."""
    calls = []

    def styled(game, st, q, rng):
        calls.append((q, True))
        return game.heuristic_action(st, q, rng)

    def default(game, st, q, rng):
        calls.append((q, False))
        return game.heuristic_action(st, q, rng)

    agent._acts = (default, styled)
    agent._rollout(g, s, p, styled, random.Random(1))
    return calls


@pytest.mark.parametrize("horizon", ["turn", "round"])
def test_a_rollout_plays_the_style_for_its_horizon(horizon):
    """``turn`` (with ``turns=1``): the style for the seat until another player decides; ``round``: for every
    seat until the seat decides again after another player has; then the default for all."""
    g = _ggc()
    s, p = _decision(g)
    agent = make_agent(f"plan:easy/horizon={horizon}" + ("/turns=1" if horizon == "turn" else ""), g)
    calls = _rollout_calls(agent, g, s, p)
    first_other = next(i for i, (q, _) in enumerate(calls) if q != p)
    if horizon == "turn":
        end = first_other
    else:
        end = next(i for i, (q, _) in enumerate(calls) if i > first_other and q == p)
        assert {q for q, _ in calls[:end]} > {p}  # teammates played the style too
    assert all(styled for _, styled in calls[:end]) and end >= 1
    assert not any(styled for _, styled in calls[end:])


@pytest.mark.parametrize("turns", [1, 2, 3])
def test_a_rollout_plays_the_style_for_the_seats_next_turns(turns):
    """``turns=k``: the style for the seat's decisions in its next k turns (a turn ends when
    another player decides), every other seat the default meanwhile; then the default for all."""
    g = _ggc()
    s, p = _decision(g)
    agent = make_agent(f"plan:easy/turns={turns}", g)
    assert agent.config.turns == turns
    calls = _rollout_calls(agent, g, s, p)
    mine, turn, prev = [], 0, p  # the seat's decisions, each with the number of its turn (0: this one)
    for i, (q, _) in enumerate(calls):
        if q == p and prev != p:
            turn += 1
        if q == p:
            mine.append((i, turn))
        prev = q
    assert turn >= turns  # (the game lasted beyond the turns styled)
    assert all(calls[i][1] == (t < turns) for i, t in mine)
    assert not any(styled for q, styled in calls if q != p)  # the other seats: the default throughout


@pytest.mark.parametrize("credit", ["ended", "cards"])
def test_a_rollout_scores_the_return_plus_the_chosen_credit(credit):
    """The score of a rollout is the seat's return plus ``progress`` times the credit the spec
    names (``ended``: ``bot.progress``; ``cards``: ``bot.progress_cards``) at the game's end."""
    g = _ggc()
    s, p = _decision(g)
    agent = make_agent(f"plan:easy/credit={credit}/progress=0.5", g)
    finals = []

    def default(game, st, q, rng):
        return game.heuristic_action(st, q, rng)

    agent._acts = (default, default)
    apply = g.apply

    class Spy:  # records the last state of the rollout
        def __getattr__(self, name):
            return getattr(g, name)

        def apply(self, st, *a):
            out = apply(st, *a)
            finals.append(out)
            return out

    value = agent._rollout(Spy(), s, p, default, random.Random(3))
    end = finals[-1]
    fn = g.bot.progress if credit == "ended" else g.bot.progress_cards
    assert g.is_terminal(end) and g.bot.progress(g, end) != g.bot.progress_cards(g, end)  # (they differ here)
    assert value == pytest.approx(g.returns(end)[p] + 0.5 * fn(g, end))


class _Counting(PlanAgent):
    """Counts rollouts and records each decision's chosen style."""

    def __init__(self, game, samples=4):
        super().__init__(game, PLAN_LEVELS["easy"].__class__(samples=samples))
        self.rollouts = 0
        self.planned = 0

    def _rollout(self, game, s, me, style_act, rng):
        self.rollouts += 1
        return super()._rollout(game, s, me, style_act, rng)


def test_a_whole_game_with_planners_on_every_seat():
    g = _ggc()
    agents = [_Counting(g) for _ in range(4)]
    m = Match(g, agents, seed=3)
    while not m.is_over():
        m.step()
    out = g.outcome(m.state)
    assert out["reason"] in ("recruitment_ended", "deck_exhausted", "war_track", "spheres_exhausted")
    assert set(g.returns(m.state)) <= {0.0, 1.0} and len(set(g.returns(m.state))) == 1  # one team
    # the styles differed at some decisions, and each such decision rolled out every style
    total = sum(a.rollouts for a in agents)
    assert total > 0 and total % (4 * len(g.heuristic_styles)) == 0


def _decision(g, seed=5):
    """A four-player position, found by seeded heuristic play, where the styles act differently."""
    rng = random.Random(seed)
    for _ in range(200):
        m = Match(g, [make_agent("heuristic", g) for _ in range(4)], seed=rng.randrange(10**6))
        while not m.is_over():
            s = m.state
            cp = g.current_player(s)
            if cp >= 0:
                acts = {g.heuristic_action(s, cp, random.Random(0), style=st) for st in g.heuristic_styles}
                if len(acts) > 1:
                    return s, cp
            m.step()
    raise AssertionError("no position where the styles differ")


def _obs(g, s, p, sampler_seed, rng_seed):
    base = g.sample_hidden(s, p, random.Random(sampler_seed))
    return Observation(g, p, g.view(s, p), g.legal_actions(s, p),
                       lambda r: g.sample_hidden(base, p, r), random.Random(rng_seed))


def test_the_move_depends_on_the_view_and_the_stream_only():
    g = _ggc()
    s, p = _decision(g)
    other = g.sample_hidden(s, p, random.Random(99))  # another true state with the same view
    assert g.view(other, p) == g.view(s, p)
    a = PlanAgent(g, PLAN_LEVELS["easy"]).act(_obs(g, s, p, 1, 7))
    b = PlanAgent(g, PLAN_LEVELS["easy"]).act(_obs(g, other, p, 2, 7))
    assert a == b and a in g.legal_actions(s, p)


def test_the_best_scored_style_is_played_and_a_tie_goes_to_the_default(monkeypatch):
    g = _ggc()
    s, p = _decision(g)
    by_style = {st: g.heuristic_action(s, p, random.Random(0), style=st) for st in g.heuristic_styles}
    agent = PlanAgent(g, PLAN_LEVELS["easy"])
    monkeypatch.setattr(agent, "_rollout", lambda game, st, me, act, rng: 0.5)
    assert agent.act(_obs(g, s, p, 1, 1)) == by_style["default"]
    agent = PlanAgent(g, PLAN_LEVELS["easy"])
    monkeypatch.setattr(agent, "_rollout", lambda game, st, me, act, rng: 1.0 if act is agent._acts[1] else 0.0)
    assert agent.act(_obs(g, s, p, 1, 1)) == by_style["meet"]


def test_the_chosen_style_is_kept_until_another_player_decides(monkeypatch):
    g = _ggc()
    s, p = _decision(g)
    agent = PlanAgent(g, PLAN_LEVELS["easy"])
    monkeypatch.setattr(agent, "_rollout", lambda game, st, me, act, rng: 1.0 if act is agent._acts[1] else 0.0)
    obs = _obs(g, s, p, 1, 1)
    a = agent.act(obs)
    assert agent._kept == 1
    # the next decision of the same turn: the meet style's action, with no rollout
    s2 = g.apply(s, a, p)
    if g.current_player(s2) == p and len(g.legal_actions(s2, p)) > 1:
        monkeypatch.setattr(agent, "_rollout", lambda *args: pytest.fail("a kept style plans no more"))
        agent.inform(obs, p, a)  # its own action: the turn goes on
        assert agent.act(_obs(g, s2, p, 1, 2)) == g.heuristic_action(s2, p, random.Random(0), style="meet")
    agent.inform(obs, (p + 1) % 4, 0)  # another player decided: the turn is over
    assert agent._kept is None


def test_an_agent_not_told_of_the_play_keeps_no_style(monkeypatch):
    g = _ggc()
    s, p = _decision(g)
    agent = PlanAgent(g, PLAN_LEVELS["easy"])
    monkeypatch.setattr(agent, "_rollout", lambda game, st, me, act, rng: 1.0 if act is agent._acts[1] else 0.0)
    agent.act(_obs(g, s, p, 1, 1))
    assert agent._kept == 1
    # the next call comes with no inform in between: whatever the state, the turn is unknown
    monkeypatch.setattr(agent, "_rollout", lambda game, st, me, act, rng: 0.0)
    assert agent.act(_obs(g, s, p, 1, 1)) == g.heuristic_action(s, p, random.Random(0))
    assert agent._kept == 0


def test_the_recommended_bot_is_the_planner_in_gangs_of_green_city_and_the_search_elsewhere():
    """The bot a player is offered first (the menu, the web lobby): the turn planner in Gangs of
    Green City, where it wins more team games than ``team:normal`` at every player count; the
    search's ``normal`` level elsewhere. Each builds an agent at every player count (the
    planner's play is tested above)."""
    from kingmaker.agents import RECOMMENDED, recommended_bot
    from kingmaker.core.registry import game_class

    ggc = game_class("gangs-of-green-city")
    assert recommended_bot(ggc) == "plan:hard"
    assert recommended_bot(game_class("kings-kilt")) == "ismcts:normal"
    assert set(RECOMMENDED) <= set(kingmaker.available_games())
    for gid in kingmaker.available_games():
        cls = game_class(gid)
        spec = recommended_bot(cls)
        assert spec.partition(":")[0] in ("ismcts", "team", "plan"), spec
        for n in range(cls.min_players, cls.max_players + 1):
            make_agent(spec, kingmaker.make(gid, players=n))  # raises if the spec cannot play it
