"""The team heuristic's card play (issue 16 §2): cards brought to each district's collector.

Rulebook, Brief Your Teammate: "Both your pawn and your fellow player's pawn must be at the
same POI, and you may only transfer the card of that POI"; End Gang Recruitment: "discard 5
cards of the same District"; Hand Limit: "Players may play Respite Cards ... instead of
discarding them". The bot picks who collects each district (``bot.collectors``) and brings
cards to them: a briefing now where the teammate stands on the card's POI (or anywhere, when
Detective Ruiz gives), or the hero ends the turn on the card's POI for the collector to come
(every teammate plays before the hero moves again). Mayor Maple dispatches the teammate to
the briefing. These are strategy, not rules: each test says what the bot chooses and why.
"""

from __future__ import annotations

import random
from dataclasses import replace

from ggc_helpers import C, P, game, position

from kingmaker.games.gangs_of_green_city import bot, rendezvous
from kingmaker.games.gangs_of_green_city.state import MOVES, PICK_LIMIT

RED3 = ["Tony's Pizzeria", "Bellini Bakery", "Iago"]  # three Little Palermo (The Tonys) cards


def _choose(g, s, player: int | None = None) -> str:
    p = s.current if player is None else player
    return g.action_to_str(s, g.heuristic_action(s, p, random.Random(0)))


def _turn(g, s):
    """Plays the active player's moves with the heuristic; returns the state after them and the moves."""
    p, played = s.current, []
    while s.stage == MOVES and s.current == p and not s.result:
        a = g.heuristic_action(s, p, random.Random(0))
        played.append(g.action_to_str(s, a))
        s = g.apply(s, a, p)
    return s, played


def test_each_district_s_collector_holds_most_of_its_cards_ties_to_professor_vance():
    g = game(3)
    s = position(
        g, cast=["Green Ghost", "Professor Vance", "Detective Ruiz"],
        pawns=["Iago", "Iago", "Iago"],
        hands=[["Tony's Pizzeria", "Bellini Bakery", "Neon Arcade"],
               ["Iago", "Marconi Docks", "Radio Tower"],
               ["Casino Fortuna", "Lighthouse", "City Hall"]],
        ended=0b1000,
    )
    # red: 2, 2, 1 (tie to the Professor, who needs 4); yellow: only the Ghost; purple: 1, 1
    # (tie: not Ruiz, whose cards can be handed over anywhere); blue: ended
    assert bot.collectors(s) == (1, 0, 1, -1)


def test_a_card_goes_to_the_collector_standing_on_its_poi_now():
    g = game(2)
    s = position(
        g, cast=["Nell the Cabbie", "Green Ghost"], pawns=["Casino Fortuna", "Marconi Docks"],
        hands=[["Marconi Docks", "City Hall"], RED3],
    )
    assert _choose(g, s) == "travel Marconi Docks"
    s = g.play(s, "travel Marconi Docks")
    assert _choose(g, s) == "give Marconi Docks to p1"


def test_the_collector_goes_to_take_the_card_where_its_holder_waits():
    g = game(2)
    s = position(
        g, cast=["Green Ghost", "Nell the Cabbie"], pawns=["Bellini Bakery", "Marconi Docks"],
        hands=[RED3, ["Marconi Docks", "City Hall"]],
    )
    s, played = _turn(g, s)
    assert played[:2] == ["travel Marconi Docks", "take Marconi Docks from p1"]
    assert C("Marconi Docks") in s.hands[0]


def test_the_holder_ends_the_turn_on_the_card_s_poi_for_the_collector_to_come():
    g = game(2)
    # Olive Street Market -> Casino Fortuna -> Marconi Docks: two moves, then two more to spend
    # (a step out and back); the collector on Bellini Bakery is one move from Marconi Docks.
    s = position(
        g, cast=["Nell the Cabbie", "Green Ghost"], pawns=["Olive Street Market", "Bellini Bakery"],
        hands=[["Marconi Docks", "City Hall"], RED3],
    )
    s, played = _turn(g, s)
    assert len(played) == 4
    assert s.pawns[0] == P("Marconi Docks")
    assert C("Marconi Docks") in s.hands[0]  # kept for the collector, not spent on a move


def test_no_wait_where_the_collector_could_not_come_next_turn():
    g = game(2)
    s = position(
        g, cast=["Nell the Cabbie", "Green Ghost"], pawns=["Olive Street Market", "Swamp Gate"],
        hands=[["Marconi Docks", "City Hall"], RED3], safe=("Country Club",),
    )
    assert bot._routes(s, P("Swamp Gate"))[P("Marconi Docks")][0] > rendezvous.RDV_REACH
    assert bot._rendezvous(s, 0, set(g.legal_actions(s)), bot.draw_odds(s)) is None


def test_no_card_is_sent_to_a_collector_with_fewer_than_three():
    g = game(2)
    s = position(
        g, cast=["Nell the Cabbie", "Green Ghost"], pawns=["Casino Fortuna", "Marconi Docks"],
        hands=[["Marconi Docks", "City Hall"], RED3[:2]],
    )
    assert bot.transfers(s, 0) == []
    s3 = replace(s, hands=(s.hands[0], tuple(sorted(C(c) for c in RED3))))
    assert bot.transfers(s3, 0) == [(3, P("Marconi Docks"), 1, False)]


def test_ruiz_gives_any_card_where_the_collector_stands():
    g = game(2)
    s = position(
        g, cast=["Detective Ruiz", "Green Ghost"], pawns=["Radio Tower", "Lighthouse"],
        hands=[["Marconi Docks", "City Hall"], RED3],
    )
    assert _choose(g, s) == "travel Lighthouse"
    s = g.play(s, "travel Lighthouse")
    assert _choose(g, s) == "give Marconi Docks to p1"


def test_mayor_maple_dispatches_the_collector_to_the_card_and_briefs_in_one_turn():
    g = game(2)
    s = position(
        g, cast=["Mayor Maple", "Green Ghost"], pawns=["Marconi Docks", "Lighthouse"],
        hands=[["Marconi Docks", "City Hall"], RED3],
    )
    assert _choose(g, s) == "dispatch p1 to Marconi Docks"
    s = g.play(s, "dispatch p1 to Marconi Docks")
    assert _choose(g, s) == "give Marconi Docks to p1"


def test_mayor_maple_brings_a_collector_to_a_teammate_waiting_on_the_card_s_poi():
    g = game(3)
    s = position(
        g, cast=["Mayor Maple", "Nell the Cabbie", "Green Ghost"],
        pawns=["City Hall", "Marconi Docks", "Lighthouse"],
        hands=[["Courthouse"], ["Marconi Docks", "Neon Arcade"], RED3],
    )
    assert _choose(g, s) == "dispatch p2 to Marconi Docks"


def test_battles_worth_more_than_the_briefing_come_first():
    g = game(2)
    hands = [["Marconi Docks", "City Hall"], RED3]
    cast = ["Professor Vance", "Green Ghost"]
    calm = position(g, cast=cast, pawns=["Casino Fortuna", "Marconi Docks"], hands=hands)
    assert _choose(g, calm) == "travel Marconi Docks"
    # three spheres of two gangs here, next to more at three: a chain of riots in waiting
    riot = {"Casino Fortuna": [(0, 3), (2, 3)], "Olive Street Market": 3, "Occult Bookshop": 3}
    hot = position(g, cast=cast, pawns=["Casino Fortuna", "Marconi Docks"], hands=hands, spheres=riot)
    assert bot._rendezvous(hot, 0, set(g.legal_actions(hot)), bot.draw_odds(hot)) is None
    assert _choose(g, hot) == "battle Tonys"


def test_at_the_hand_limit_a_respite_is_played_rather_than_discarded():
    g = game(2)
    red4, blue3 = RED3 + ["Marconi Docks"], ["City Hall", "Courthouse", "Country Club"]
    s = position(g, cast=["Green Ghost", "Nell the Cabbie"], pawns=["Iago", "Lighthouse"],
                 hands=[red4 + blue3 + ["Rooftop Chase"], []])
    s = replace(s, pick_player=0, pick_n=1, pick_kind=PICK_LIMIT)
    g.validate_state(s)
    assert _choose(g, s, 0) == "play Rooftop Chase"


def test_a_card_beyond_the_recruitment_s_need_is_discarded_first():
    g = game(2)
    red6 = RED3 + ["Marconi Docks", "Casino Fortuna", "Sal's Barbershop"]
    s = position(g, cast=["Green Ghost", "Nell the Cabbie"], pawns=["Lighthouse", "Lighthouse"],
                 hands=[red6 + ["City Hall", "Courthouse"], []])
    s = replace(s, pick_player=0, pick_n=1, pick_kind=PICK_LIMIT)
    g.validate_state(s)
    assert _choose(g, s, 0).startswith("discard ")
    assert _choose(g, s, 0).removeprefix("discard ") in red6  # a sixth red card, not a blue one
