"""The team heuristic's styles (the contract's ``heuristic_styles``): ``default``, ``meet``, ``meet2``, ``fight``,
``guard``.

Rulebook, Brief Your Teammate: "Both your pawn and your fellow player's pawn must be at the
same POI, and you may only transfer the card of that POI"; End Gang Recruitment: "discard 5
cards of the same District" (Professor Vance: 4, GGC-D3). ``meet`` walks, before any battle,
towards the meeting that brings a collector the last card of a recruitment (``meet2``: either
of the last two); ``fight`` battles where the default would brief or walk; ``guard`` first
stops the riot the next Gang Leader phase most likely brings; ``default`` is the bot as it
plays without a style. Strategy, not rules: the turn planner
(``kingmaker.agents.plan``) chooses between them.
"""

from __future__ import annotations

import random

import pytest
from ggc_helpers import P, game, position

from kingmaker.core.api import CHANCE
from kingmaker.core.errors import BadRequestError
from kingmaker.core.match import sample_chance
from kingmaker.games.gangs_of_green_city import bot

RED3 = ["Tony's Pizzeria", "Bellini Bakery", "Iago"]  # three Little Palermo (The Tonys) cards


def _far(spheres=None, current=0):
    """Green Ghost on Olive Street Market holds Marconi Docks, the card Professor Vance (three
    Little Palermo cards, four end a recruitment for her) needs; she stands on Swamp Gate, five
    moves from its POI: no meeting this turn or the next (``RDV_REACH``), seven moves in all."""
    g = game(2)
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Olive Street Market", "Swamp Gate"],
                 hands=[["Marconi Docks", "City Hall"], RED3], spheres=spheres, current=current)
    return g, s


def _dist(s, a, b):
    return bot._routes(s, P(a))[P(b)][0]


def test_the_game_declares_its_styles_default_first():
    g = game(4)
    assert g.heuristic_styles == bot.STYLES == ("default", "meet", "meet2", "fight", "guard")


def test_the_default_style_is_the_bot_as_it_plays_without_one():
    for players in (2, 4):
        g = game(players, escalations=4)
        rng, s, checked = random.Random(players), g.new_initial_state(), 0
        while not g.is_terminal(s) and checked < 400:
            cp = g.current_player(s)
            if cp == CHANCE:
                s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
                continue
            seed = rng.random()
            a = g.heuristic_action(s, cp, random.Random(seed))
            assert g.heuristic_action(s, cp, random.Random(seed), style="default") == a
            s = g.apply(s, a, cp)
            checked += 1
        assert checked > 50


def test_meet_walks_to_the_last_card_s_meeting_where_the_default_battles():
    g, s = _far(spheres={"Olive Street Market": 2})
    assert _dist(s, "Olive Street Market", "Marconi Docks") + _dist(s, "Swamp Gate", "Marconi Docks") == 7
    assert g.action_to_str(s, g.heuristic_action(s, 0, random.Random(0))) == "battle Tonys"
    a = g.heuristic_action(s, 0, random.Random(0), style="meet")
    after = g.apply(s, a, 0)
    assert _dist(after, g.action_to_str(s, a).removeprefix("travel "), "Marconi Docks") == 1  # a step nearer


def test_meet_is_the_default_where_no_collector_lacks_only_one_card_and_meet2_where_two():
    g, s = _far(spheres={"Olive Street Market": 2})
    from dataclasses import replace

    two = replace(s, hands=(s.hands[0], s.hands[1][:2]))  # two cards short: no far meeting
    assert g.heuristic_action(two, 0, random.Random(0), style="meet") == g.heuristic_action(two, 0, random.Random(0))
    # ... but one for meet2, which walks for either of the last two cards
    a = g.heuristic_action(two, 0, random.Random(0), style="meet2")
    assert a == g.heuristic_action(s, 0, random.Random(0), style="meet") != g.heuristic_action(two, 0, random.Random(0))
    three = replace(s, hands=(s.hands[0], s.hands[1][:1]))  # three short: none
    assert g.heuristic_action(three, 0, random.Random(0), style="meet2") == g.heuristic_action(three, 0, random.Random(0))


def test_meet_does_not_walk_past_eight_moves_in_all():
    g, s = _far(spheres={"Olive Street Market": 2})
    legal = set(g.legal_actions(s))
    assert bot._far_meeting(s, 0, legal, 8) is not None
    assert bot._far_meeting(s, 0, legal, 6) is None  # seven moves in all


def test_fight_battles_where_the_default_briefs_a_collector():
    """Both heroes on Marconi Docks, the card Professor Vance lacks: the default (and meet)
    give it to her; ``fight`` takes no briefing, safe house or dispatch, and battles."""
    g = game(2)
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Marconi Docks", "Marconi Docks"],
                 hands=[["Marconi Docks", "City Hall"], RED3], spheres={"Marconi Docks": 2})
    name = {st: g.action_to_str(s, g.heuristic_action(s, 0, random.Random(0), style=st)) for st in bot.STYLES}
    assert name["default"] == name["meet"] == "give Marconi Docks to p1"
    assert name["fight"] == "battle Tonys"


def test_fight_still_ends_a_recruitment_it_can():
    g = game(2)
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Marconi Docks", "Marconi Docks"],
                 hands=[["Marconi Docks", "City Hall"], RED3 + ["Casino Fortuna"]], spheres={"Marconi Docks": 2},
                 safe=["Marconi Docks"], current=1)
    assert g.action_to_str(s, g.heuristic_action(s, 1, random.Random(0), style="fight")).startswith("end recruitment")


def _hot(layers, pawns=("Marconi Docks", "Marconi Docks")):
    """Both heroes together, a briefing the default takes; Casino Fortuna (next to Marconi
    Docks) holds three Tonys, its own gang: the next Gang Leader phase riots there if its card
    comes up, which is certain when it lies alone in the top layer of the gang deck."""
    g = game(2)
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=list(pawns),
                 hands=[["Marconi Docks", "City Hall"], RED3], spheres={"Marconi Docks": 2, "Casino Fortuna": 3},
                 gang_layers=layers)
    return g, s


def test_guard_battles_the_riot_the_next_gang_leader_phase_most_likely_brings_first():
    g, s = _hot((("Casino Fortuna",),))
    assert bot.draw_odds(s)[P("Casino Fortuna")] == 1.0
    name = {st: g.action_to_str(s, g.heuristic_action(s, 0, random.Random(0), style=st)) for st in bot.STYLES}
    assert name["default"] == "give Marconi Docks to p1"
    assert name["guard"] == "travel Casino Fortuna"
    # there: the battle against its own gang
    g, s = _hot((("Casino Fortuna",),), pawns=("Casino Fortuna", "Marconi Docks"))
    assert g.action_to_str(s, g.heuristic_action(s, 0, random.Random(0), style="guard")) == "battle Tonys"


def test_guard_is_the_default_where_no_riot_is_likely():
    g, s = _hot(())  # Casino Fortuna's card is somewhere in the unseen deck: 1 in 24
    assert bot.draw_odds(s)[P("Casino Fortuna")] < bot.GUARD_ODDS
    assert (g.heuristic_action(s, 0, random.Random(0), style="guard")
            == g.heuristic_action(s, 0, random.Random(0)))


def test_an_unknown_style_is_refused_with_the_styles_named():
    g, s = _far()
    with pytest.raises(BadRequestError) as e:
        g.heuristic_action(s, 0, random.Random(0), style="rush")
    assert "no style 'rush'" in str(e.value) and "default, meet, meet2, fight, guard" in str(e.value)



def test_progress_cards_counts_ended_recruitments_and_the_best_holders_share():
    """``bot.progress_cards`` (the planner's ``credit=cards``): an ended recruitment counts 1,
    each other gang half the share of the cards it needs that its best-placed player holds;
    the sum over the four gangs is divided by four. Professor Vance needs 4 (GGC-D3), the
    Ghost 5 (End Gang Recruitment)."""
    g = game(2)
    hands = [["Marconi Docks", "City Hall"], RED3]  # the Ghost: a Tonys and a Mayor's card; Vance: 3 Tonys
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Olive Street Market", "Swamp Gate"],
                 hands=hands, ended=0b1000)  # the fourth gang's recruitment ended (City Hall's)
    # Tonys: Vance's 3 of 4 beat the Ghost's 1 of 5; the two other gangs: no card
    assert bot.progress_cards(g, s) == pytest.approx((1 + 0.5 * 3 / 4) / 4)
    assert bot.progress(g, s) == 0.25
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Olive Street Market", "Swamp Gate"],
                 hands=hands, ended=0b0001)  # the Tonys' ended: City Hall's card is the only share left
    assert bot.progress_cards(g, s) == pytest.approx((1 + 0.5 * 1 / 5) / 4)
    s = position(g, cast=["Green Ghost", "Professor Vance"], pawns=["Olive Street Market", "Swamp Gate"],
                 hands=hands, ended=0b1111)
    assert bot.progress_cards(g, s) == 1.0
