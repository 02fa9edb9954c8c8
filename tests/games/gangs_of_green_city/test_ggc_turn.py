"""A turn after the moves: drawing hero cards, the hand limit, ESCALATION!, the Gang Leader, riots, defeat."""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, position

from kingmaker import IllegalActionError
from kingmaker.core.api import CHANCE
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.data import NUM_POIS, PARK, POI_NAMES, QUIET, RESPITE_NAMES
from kingmaker.games.gangs_of_green_city.state import (
    DEFEAT,
    DRAW,
    ESC_BOTTOM,
    GANG,
    GANG_WINDOW,
    MOVES,
)

NEUTRAL = ["Professor Vance", "Mayor Maple"]  # no weakness is featured on the cards used below


def _last_move(g, **kw):
    """A position one move before the draw: player 0 stands on Iago with one move left."""
    kw.setdefault("pawns", ["Iago", "Lighthouse"])
    kw.setdefault("cast", NEUTRAL)
    s = position(g, moves=1, **kw)
    return g.play(s, "travel Old Cannery")


def test_drawing_cards_two_hero_cards_then_the_gang_leader() -> None:
    """Drawing Cards: 'players must draw 2 cards from the Hero Deck ... After drawing the required
    cards, take on the role of the Gang Leader.' Game Play: '... drawing 2 cards from the Gang Deck'."""
    g = game()
    s = _last_move(g, gang_disc=("Courthouse",))
    assert s.stage == DRAW and g.current_player(s) == CHANCE
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "hero card Quiet Night")
    assert s.hands[0] == (C("DeVos Financial"), C("Quiet Night"))
    # player 0 holds a respite: the window before the Gang Leader asks them first
    assert g.current_player(s) == 0 and g.legal_actions(s) == [A.RESPITE0 + QUIET, A.PASS]
    s = g.play(s, "pass")
    assert s.stage == GANG and s.deal == 2 and g.current_player(s) == CHANCE
    s = g.play(s, "gang card Stadium")
    assert count(s, "Stadium") == 1 and P("Stadium") in s.gang_disc
    s = g.play(s, "gang card Swamp Gate")
    assert count(s, "Swamp Gate") == 1
    # 'After taking the role of the Gang Leader, the player's turn is over and the player on your
    # left begins their turn.'
    assert s.stage == MOVES and s.current == 1 and s.moves == 4 and g.current_player(s) == 1


def test_hand_limit_discard_down_to_seven_after_drawing() -> None:
    """Hand Limit: 'If the number of cards in hand ever exceeds 7 as a result of drawing cards ...
    the player must immediately discard cards in excess. Players may choose which cards to discard.'"""
    g = game()
    seven = ["Iago", "Lighthouse", "Stadium", "Catacombs", "Clocktower", "Old Asylum", "Swamp Gate"]
    s = _last_move(g, hands=[seven, []])
    s = g.play(s, "hero card DeVos Financial")
    assert g.current_player(s) == 0 and s.pick_n == 1
    assert g.legal_actions(s) == sorted(A.DISCARD0 + c for c in s.hands[0])
    s = g.play(s, "discard Catacombs")
    assert len(s.hands[0]) == 7 and C("Catacombs") in s.hero_disc
    assert s.stage == DRAW and s.deal == 1 and g.current_player(s) == CHANCE


def test_hand_limit_a_respite_may_be_played_instead_of_discarding() -> None:
    """Hand Limit: 'Players may play Respite Cards (including any they have just drawn) instead of
    discarding them, to help reduce their hand to 7.'"""
    g = game()
    seven = ["Iago", "Lighthouse", "Stadium", "Catacombs", "Clocktower", "Old Asylum", "Swamp Gate"]
    s = _last_move(g, hands=[seven, []])
    s = g.play(s, "hero card Quiet Night")
    assert s.pick_n == 1
    s = g.play(s, "play Quiet Night")
    assert s.quiet == 1 and s.pick_n == 0 and len(s.hands[0]) == 7 and s.stage == DRAW


def test_defeat_when_the_hero_deck_cannot_be_drawn() -> None:
    """Drawing Cards: 'If there aren't enough cards in the Hero Deck Draw Pile to draw, the game
    immediately ends in defeat for all players.'"""
    g = game(escalations=4)
    everything = list(POI_NAMES) + list(RESPITE_NAMES)
    keep = "Iago"
    disc = tuple(c for c in everything if c != keep)
    s = position(g, pawns=["Lighthouse", "Lighthouse"], cast=NEUTRAL, moves=1, hero_disc=disc,
                 piles=(1, 0, 0, 0), pile_esc=(0, 0, 0, 0))
    s = g.play(s, "travel Iago")
    assert g.is_terminal(s) and s.result == DEFEAT and "hero deck" in s.reason
    assert g.returns(s) == (0.0, 0.0)
    assert g.outcome(s)["reason"] == "deck_exhausted" and g.outcome(s)["winners"] == []
    assert g.outcome(s)["text"].startswith("the team (players 0 and 1) loses: the hero deck cannot be drawn")


def test_escalation_increase_escalate_and_intensify() -> None:
    """ESCALATION! Cards: meter one space right; 'Take the bottom card from the Gang Deck Draw Pile
    and add 3 spheres'; 'Take the Gang Deck Discard Pile, thoroughly shuffle it, then place it on
    top of the remaining Gang Deck Draw Pile.'"""
    g = game()
    s = _last_move(g, gang_disc=("Courthouse", "Catacombs"))
    s = g.play(s, "escalation 1")
    assert s.esc == 1 and s.stage == ESC_BOTTOM and s.pile_esc[0] == 0
    # the bottom card is one of the unknown rest, never a card of the discard pile
    bottom = {a - A.GDRAW0 for a, _ in g.chance_outcomes(s)}
    assert len(bottom) == NUM_POIS - 2 and P("Courthouse") not in bottom
    s = g.play(s, "gang card Stadium")
    assert count(s, "Stadium") == 3 and s.supply[3] == 21
    # no respite in any hand: no window; the discards went on top as a known set
    assert s.gang_disc == () and s.gang_layers == (tuple(sorted((P("Courthouse"), P("Catacombs"), P("Stadium")))),)
    assert s.stage == DRAW and s.deal == 1
    s = g.play(s, "hero card Iago")
    # the Gang Leader now draws from the new top layer first, each card equally likely
    outs = g.chance_outcomes(s)
    assert sorted(a - A.GDRAW0 for a, _ in outs) == list(s.gang_layers[0])
    assert all(abs(p - 1 / 3) < 1e-12 for _, p in outs)
    s = g.play(s, "gang card Stadium")
    assert s.stage == GANG and P("Stadium") not in s.gang_layers[0]
    # Stadium already holds 3: a riot
    assert s.war == 1 and count(s, "Stadium") == 3 and count(s, "DeVos Financial") == 1


def test_escalation_on_a_poi_with_spheres_fills_it_to_three_and_riots() -> None:
    """ESCALATION!: 'If the ESCALATION! would cause the POI to exceed that limit, any excess spheres
    are returned to the stock and a Gang Riot occurs.'"""
    g = game()
    s = _last_move(g, spheres={"Stadium": 1})
    s = g.play(s, "escalation 1")
    s = g.play(s, "gang card Stadium")
    assert count(s, "Stadium") == 3 and s.war == 1
    assert count(s, "Police Headquarters") == count(s, "DeVos Financial") == 1
    assert count(s, "Fishmarket Pier", "officials") == 1
    assert s.supply[3] == 24 - 3 - 3


def test_escalation_without_enough_spheres_is_defeat() -> None:
    """ESCALATION!: 'If there are not enough spheres to add to the board during an ESCALATION!,
    the game immediately ends in defeat for all players.'"""
    g = game()
    full = {name: 3 for name in ("Convention Center", "City Hall", "Courthouse", "Country Club",
                                 "Police Headquarters", "Green City Bank", "Mayor's Mansion")}
    full["Senate Tower"] = 1  # 22 Officials spheres on the board, 2 in the supply
    s = _last_move(g, spheres=full)
    s = g.play(s, "escalation 1")
    s = g.play(s, "gang card Stadium")
    assert s.result == DEFEAT and "ran out of spheres" in s.reason


def test_playing_the_gang_leader_draws_the_meter_number_not_four() -> None:
    """Playing the Gang Leader: 'Draw 4 cards' is a misprint (ruling GGC-6): the escalation meter
    gives the number (2, 2, 2, 3, 3, 4, 4)."""
    for esc, want in ((0, 2), (2, 2), (3, 3), (5, 4)):
        g = game()
        s = _last_move(g, esc=esc)
        s = g.play(s, "hero card Swamp Gate")
        s = g.play(s, "hero card DeVos Financial")
        assert s.stage == GANG and s.deal == want


def test_a_defeated_gangs_card_adds_nothing() -> None:
    """Defeating A Gang: 'From now on, cards of this District will not increase gang activity.'"""
    g = game()
    s = _last_move(g, ended=0b1000, defeated=0b1000)
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Stadium")
    assert count(s, "Stadium") == 0 and s.supply[3] == 24 and P("Stadium") in s.gang_disc


def test_gang_riot_adds_a_sphere_to_every_connected_poi_instead_of_a_fourth() -> None:
    """Gang Riots: 'instead of adding a 4th sphere, instead add a sphere of that color to each
    adjacent city connected by a translucent white line.' (Iago's lines include the wrap-around.)"""
    g = game()
    s = _last_move(g, spheres={"Iago": 3})
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")
    assert count(s, "Iago") == 3 and s.war == 1
    for nb in ("Tony's Pizzeria", "Sal's Barbershop", "Old Cannery"):
        assert count(s, nb) == 1
    for nb in ("Lighthouse", "Alien Weapons Marketplace"):  # other districts get Tonys spheres
        assert count(s, nb, "tonys") == 1
    assert s.supply[0] == 24 - 3 - 5


def test_chain_reaction_each_poi_riots_only_once_per_chain() -> None:
    """Chain Reactions: 'If any of these new spheres from Gang Riots would cause the total number of
    spheres of an adjacent POI to exceed 3, additional Gang Riots may occur ... each POI may only
    experience a Gang Riot once in each chain reaction.'

        Iago(3) -- Sal's Barbershop(3) -- Tony's Pizzeria(3)   (a triangle: all three connected)
    """
    g = game()
    s = _last_move(g, spheres={"Iago": 3, "Sal's Barbershop": 3, "Tony's Pizzeria": 3})
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")
    assert s.war == 3  # Iago, then Sal's and Tony's, each once
    assert count(s, "Iago") == count(s, "Sal's Barbershop") == count(s, "Tony's Pizzeria") == 3
    # outer neighbours get one sphere per rioting neighbour
    assert count(s, "Bellini Bakery") == 2  # next to Sal's and Tony's
    assert count(s, "Old Cannery") == 1 and count(s, "Vespa Garage") == 1
    assert count(s, "St. Anthony's Church") == 1
    assert count(s, "Lighthouse", "tonys") == 1


def test_the_eighth_riot_is_defeat() -> None:
    """Gang Riots: 'If the number of Gang Riots ever reaches 8 ... the game immediately ends in defeat.'"""
    g = game()
    s = _last_move(g, spheres={"Iago": 3}, war=7)
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")
    assert g.is_terminal(s) and s.result == DEFEAT and s.war == 8
    assert g.returns(s) == (0.0, 0.0)
    assert g.outcome(s) == {"winners": [], "reason": "war_track", "text": "the team (players 0 and 1) loses: the "
                            "eighth gang riot: all-out war (war meter 8/8), with 0 of 4 recruitments ended"}


def test_defeat_when_a_gang_runs_out_of_spheres() -> None:
    """End of the Game: 'A player needs to add Gang Spheres to the board and there aren't any left.'"""
    g = game()
    full = {n: 3 for n in ("Tony's Pizzeria", "Bellini Bakery", "Marconi Docks", "Casino Fortuna",
                           "Sal's Barbershop", "St. Anthony's Church", "Olive Street Market", "Ferry Terminal")}
    s = _last_move(g, spheres=full)
    assert s.supply[0] == 0
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")
    assert s.result == DEFEAT and "The Tonys ran out of spheres" == s.reason
    assert g.outcome(s)["reason"] == "spheres_exhausted" and "loses: the Tonys ran out of spheres" in g.outcome(s)["text"]


def test_riot_does_not_spill_into_center_park() -> None:
    """Setup: Center Park is not a playable space: a riot never places a sphere there (GGC-11)."""
    g = game()
    s = _last_move(g, spheres={"Ferry Terminal": 3})
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Ferry Terminal")
    assert s.war == 1 and len(s.spheres) == NUM_POIS  # one packed entry per POI, none for the park
    assert count(s, "Wormhole Crater", "tonys") == 1 and count(s, "Convention Center", "tonys") == 1


def test_the_gang_draw_pile_takes_its_discards_when_empty() -> None:
    """Ruling GGC-10: an empty gang draw pile is refilled by shuffling the gang discard pile."""
    g = game()
    disc = tuple(n for n in POI_NAMES if n not in ("Swamp Gate",))
    s = _last_move(g, gang_disc=disc)
    s = g.play(s, "hero card Iago")
    s = g.play(s, "hero card DeVos Financial")
    assert [a - A.GDRAW0 for a, _ in g.chance_outcomes(s)] == [P("Swamp Gate")]
    s = g.play(s, "gang card Swamp Gate")
    assert s.gang_layers == (tuple(range(NUM_POIS)),) and s.gang_disc == ()
    assert len(g.chance_outcomes(s)) == NUM_POIS


def test_setup_cards_trigger_no_weakness() -> None:
    """Setup (GGC-18): the nine set-up gang cards add spheres only; Iago features Detective Ruiz,
    who stays in Center Park."""
    g = game()
    s = g.new_initial_state()
    s = g.play(s, "cast Detective Ruiz")
    s = g.play(s, "cast Nell the Cabbie")
    s = g.play(s, "gang card Iago")
    s = g.play(s, "gang card Casino Fortuna")  # features Nell
    assert s.pawns == (PARK, PARK) and count(s, "Iago") == 3 and count(s, "Casino Fortuna") == 3
    assert s.war == 0


def test_a_defeated_gangs_card_triggers_no_weakness() -> None:
    """GGC-9 (option weaknesses=every_card, where a Gang Leader's card has a weakness at all):
    Stadium features Green Ghost; the Officials are defeated, so nothing happens."""
    g = game(weaknesses="every_card")
    s = _last_move(g, cast=["Green Ghost", "Mayor Maple"], ended=0b1000, defeated=0b1000)
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Stadium")
    assert s.tired == (0, 0)
    s = g.play(s, "gang card Sal's Barbershop")  # a Tonys card featuring him does tire him
    assert s.tired == (1, 0)


def test_escalation_applies_both_featured_weaknesses_in_order() -> None:
    """GGC-12: 'ESCALATION! #4' features Mayor Maple (Scandal), its bottom card Bellini Bakery
    features Mayor Maple too; Nell is towed by 'ESCALATION! #5' in another game."""
    g = game()
    s = _last_move(g, cast=["Mayor Maple", "Nell the Cabbie"], pawns=["Iago", "Stadium"],
                   safe=("Green City High School", "Bellini Bakery"))
    s = g.play(s, "escalation 4")
    s = g.play(s, "gang card Bellini Bakery")
    assert s.safe == (P("Green City High School"),) and count(s, "Bellini Bakery") == 3
    s2 = _last_move(g, cast=["Mayor Maple", "Nell the Cabbie"], pawns=["Iago", "Stadium"])
    s2 = g.play(s2, "escalation 5")
    s2 = g.play(s2, "gang card Harbor Authority")  # features Professor Vance (not in play)
    assert s2.pawns[1] == P("Harbor Authority")


def test_defeat_when_spheres_run_out_in_the_middle_of_a_riot() -> None:
    """End of the Game: 'there aren't any left of that District in the supply' also during the
    spread of a riot (GGC-17)."""
    g = game()
    full = {n: 3 for n in ("Iago", "Bellini Bakery", "Marconi Docks", "Casino Fortuna",
                           "St. Anthony's Church", "Olive Street Market", "Ferry Terminal")}
    full["Mulberry Row"] = 2  # 23 Tonys spheres on the board, 1 in the supply
    s = _last_move(g, spheres=full)
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")  # riot: Tony's Pizzeria takes the last sphere, then none left
    assert s.result == DEFEAT and s.reason == "The Tonys ran out of spheres" and s.war == 1


def test_play_says_why_in_a_window_and_during_a_discard() -> None:
    g = game()
    seven = ["Iago", "Lighthouse", "Stadium", "Catacombs", "Clocktower", "Old Asylum", "Swamp Gate"]
    s = _last_move(g, hands=[seven, ["Quiet Night"]])
    s = g.play(s, "hero card DeVos Financial")
    with pytest.raises(IllegalActionError, match="must first discard"):
        g.play(s, "travel Iago")
    s = g.play(s, "discard Iago")
    s = g.play(s, "hero card Courthouse")
    s = g.play(s, "discard Lighthouse")
    assert s.stage == GANG_WINDOW and g.current_player(s) == 1
    with pytest.raises(IllegalActionError, match="respite window"):
        g.play(s, "travel Iago", 1)
