"""Moves: travel, the two wormhole escapes, bum a ride, safe houses, recruitment, battle, briefing."""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, names, position

from kingmaker import IllegalActionError, InvalidActionError
from kingmaker.core.api import CHANCE
from kingmaker.games.gangs_of_green_city.data import PARK
from kingmaker.games.gangs_of_green_city.state import DRAW, MOVES, VICTORY


def test_travel_moves_to_an_adjacent_poi_and_costs_one_move() -> None:
    """Travel: 'Move your pawn to an adjacent POI.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], cast=["Professor Vance", "Detective Ruiz"])
    s2 = g.play(s, "travel Old Cannery")
    assert s2.pawns[0] == P("Old Cannery") and s2.moves == 3
    with pytest.raises(IllegalActionError, match="adjacent"):
        g.play(s, "travel DeVos Financial")


def test_travel_wraps_around_the_board_edge_from_iago_to_the_alien_weapons_marketplace() -> None:
    """Travel: lines off the edge 'wrap around ... either to Iago or the Alien Weapons Marketplace'."""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "travel Alien Weapons Marketplace")
    assert s.pawns[0] == P("Alien Weapons Marketplace")
    s = g.play(s, "travel Iago")
    assert s.pawns[0] == P("Iago")


def test_first_move_out_of_center_park_does_not_count() -> None:
    """Game Play: 'The first move out of Center Park does not count against players' 4 moves per turn.'"""
    g = game()
    s = position(g, cast=["Professor Vance", "Detective Ruiz"])
    assert s.pawns == (PARK, PARK)
    s = g.play(s, "travel Green City High School")
    assert s.moves == 4
    s = g.play(s, "travel Convention Center")
    assert s.moves == 3


def test_center_park_is_not_a_playable_space_once_left() -> None:
    """Setup: 'Center Park is not a playable space after the game begins.'"""
    g = game()
    s = position(g, pawns=["Green City High School", "Green City High School"], cast=["Professor Vance", "Detective Ruiz"])
    assert not any("Center Park" in a for a in names(g, s))
    with pytest.raises(InvalidActionError):
        g.play(s, "travel Center Park")


def test_escape_through_a_cultist_wormhole_plays_the_pictured_card() -> None:
    """Escape: 'Play a card from your hand and move your Hero Pawn to the pictured POI. Discard the card.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], hands=[["DeVos Financial"], []], cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "escape to DeVos Financial")
    assert s.pawns[0] == P("DeVos Financial") and s.hands[0] == () and C("DeVos Financial") in s.hero_disc
    assert s.moves == 3


def test_escape_with_the_card_of_your_location_goes_anywhere() -> None:
    """Escape: 'Play the card corresponding to your pawn's current location, and move to any POI.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], hands=[["Iago"], []], cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "escape from here to Swamp Gate")
    assert s.pawns[0] == P("Swamp Gate") and C("Iago") in s.hero_disc and s.moves == 3
    s2 = position(g, pawns=["Lighthouse", "Iago"], hands=[["Iago"], []], cast=["Professor Vance", "Detective Ruiz"])
    with pytest.raises(IllegalActionError, match="card of the POI you stand on"):
        g.play(s2, "escape from here to Swamp Gate")


def test_bum_a_ride_goes_from_a_safe_house_to_another_safe_house() -> None:
    """Bum A Ride: 'If your pawn is at a POI with a Safehouse, move to any other POI with a Safehouse.'"""
    g = game()
    s = position(g, pawns=["Green City High School", "Iago"], safe=("Green City High School", "Swamp Gate"),
                 cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "ride to Swamp Gate")
    assert s.pawns[0] == P("Swamp Gate")
    s3 = position(g, pawns=["Iago", "Iago"], safe=("Green City High School", "Swamp Gate"), cast=["Professor Vance", "Detective Ruiz"])
    with pytest.raises(IllegalActionError, match="safe house"):
        g.play(s3, "ride to Swamp Gate")


def test_inaction_is_not_an_option_every_turn_takes_four_moves() -> None:
    """Bum A Ride: 'Inaction is not an option.' (ruling GGC-2: no pass; four moves each turn)."""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], cast=["Professor Vance", "Detective Ruiz"])
    assert "pass" not in names(g, s)
    for _ in range(4):
        assert g.current_player(s) == 0 and s.stage == MOVES
        s = g.play(s, "travel Old Cannery" if s.pawns[0] == P("Iago") else "travel Iago")
    assert g.current_player(s) == CHANCE and s.stage == DRAW


def test_establish_a_safe_house_plays_the_card_of_your_poi() -> None:
    """Establish A Safe House: 'Play the card corresponding to the POI your pawn currently occupies.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], hands=[["Iago"], []], cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "safe house")
    assert P("Iago") in s.safe and s.hands[0] == () and s.moves == 3
    s2 = position(g, pawns=["Iago", "Iago"], hands=[["Lighthouse"], []], cast=["Professor Vance", "Detective Ruiz"])
    with pytest.raises(IllegalActionError, match="safe house"):
        g.play(s2, "safe house")


def test_a_seventh_safe_house_moves_one_already_on_the_board() -> None:
    """Components: 6 safe houses. Ruling GGC-4: with all six placed, one is moved from elsewhere."""
    g = game()
    six = ("Green City High School", "Swamp Gate", "Lighthouse", "Stadium", "Catacombs", "Bowling Alley")
    s = position(g, pawns=["Iago", "Iago"], hands=[["Iago"], []], safe=six, cast=["Professor Vance", "Detective Ruiz"])
    acts = names(g, s)
    assert "safe house" not in acts and "safe house from Stadium" in acts
    s = g.play(s, "safe house from Stadium")
    assert P("Iago") in s.safe and P("Stadium") not in s.safe and len(s.safe) == 6


def test_end_gang_recruitment_with_five_cards_of_a_district_at_a_safe_house() -> None:
    """End Gang Recruitment: 'If your pawn is at a POI with a Safe House, discard 5 cards of the same
    District to end the corresponding Gang's recruitment.'"""
    g = game()
    tonys = ["Iago", "Tony's Pizzeria", "Bellini Bakery", "Marconi Docks", "Casino Fortuna"]
    s = position(g, pawns=["Green City High School", "Iago"], hands=[tonys, []], cast=["Detective Ruiz", "Mayor Maple"])
    s = g.play(s, "end recruitment Tonys")
    assert s.ended == 1 and s.hands[0] == () and all(C(c) in s.hero_disc for c in tonys)
    s2 = position(g, pawns=["Iago", "Iago"], hands=[tonys, []], cast=["Detective Ruiz", "Mayor Maple"])
    with pytest.raises(IllegalActionError, match="safe house"):
        g.play(s2, "end recruitment Tonys")
    s3 = position(g, pawns=["Green City High School", "Iago"], hands=[tonys[:4], []], cast=["Detective Ruiz", "Mayor Maple"])
    assert "end recruitment Tonys" not in names(g, s3)


def test_end_gang_recruitment_with_six_cards_lets_the_player_keep_one() -> None:
    """End Gang Recruitment: five cards are spent; with more in hand, the player chooses which (GGC-5)."""
    g = game()
    tonys = ["Iago", "Tony's Pizzeria", "Bellini Bakery", "Marconi Docks", "Casino Fortuna", "Ferry Terminal"]
    s = position(g, pawns=["Green City High School", "Iago"], hands=[tonys, []], cast=["Detective Ruiz", "Mayor Maple"])
    s = g.play(s, "end recruitment Tonys")
    assert s.ended == 1 and s.pick_n == 5 and g.current_player(s) == 0
    for card in tonys[1:]:
        s = g.play(s, f"discard {card}")
    assert s.hands[0] == (C("Iago"),) and s.pick_n == 0 and s.moves == 3


def test_battle_the_gangs_removes_one_sphere_per_move() -> None:
    """Battle The Gangs: 'Remove a Gang Sphere from the POI your Hero Pawn occupies.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], spheres={"Iago": 3}, cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "battle Tonys")
    assert count(s, "Iago") == 2 and s.supply[0] == 22 and s.moves == 3


def test_battle_after_recruitment_ended_removes_all_spheres_of_that_gang() -> None:
    """Battle The Gangs: 'If players have ended recruitment, instead of one sphere, remove all spheres.'"""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], spheres={"Iago": 3, "Lighthouse": (0, 1)}, ended=0b0001,
                 cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "battle Tonys")
    assert count(s, "Iago") == 0 and not s.defeated


def test_defeating_a_gang_whose_recruitment_ended_and_whose_spheres_are_gone() -> None:
    """Defeating A Gang: 'If a Gang's recruitment has been ended and your team removes all of that
    Gang's spheres from the board ...' it is defeated."""
    g = game()
    s = position(g, pawns=["Iago", "Iago"], spheres={"Iago": 2}, ended=0b0001, cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "battle Tonys")
    assert s.defeated == 0b0001


def test_ending_recruitment_of_a_gang_with_no_spheres_defeats_it_at_once() -> None:
    """Defeating A Gang: recruitment ended and no spheres on the board (GGC-8)."""
    g = game()
    louies = ["Green City High School", "Louie's Lounge", "Neon Arcade", "Bowling Alley", "Sunset Motel"]
    s = position(g, pawns=["Green City High School", "Iago"], hands=[louies, []], cast=["Detective Ruiz", "Mayor Maple"])
    s = g.play(s, "end recruitment Louies")
    assert s.ended == 0b0010 and s.defeated == 0b0010


def test_brief_your_teammate_only_the_card_of_the_shared_poi() -> None:
    """Brief Your Teammate: 'you may only transfer the card of that POI that you are in together.'"""
    g = game()
    s = position(g, pawns=["DeVos Financial", "DeVos Financial"], hands=[["DeVos Financial", "Iago"], []],
                 cast=["Professor Vance", "Mayor Maple"])
    acts = names(g, s)
    assert "give DeVos Financial to p1" in acts and "give Iago to p1" not in acts
    s = g.play(s, "give DeVos Financial to p1")
    assert s.hands[1] == (C("DeVos Financial"),) and s.moves == 3
    s = g.play(s, "take DeVos Financial from p1")
    assert sorted(s.hands[0]) == sorted((C("DeVos Financial"), C("Iago")))
    with pytest.raises(IllegalActionError, match="same POI"):
        g.play(s, "give Iago to p1")


def test_brief_needs_both_pawns_on_the_same_poi() -> None:
    """Brief Your Teammate: 'Both your pawn and your fellow player's pawn must be at the same POI.'"""
    g = game()
    s = position(g, pawns=["DeVos Financial", "Stadium"], hands=[["DeVos Financial"], []], cast=["Professor Vance", "Mayor Maple"])
    assert not any(a.startswith("give") for a in names(g, s))


def test_brief_over_the_hand_limit_makes_the_receiver_discard_at_once() -> None:
    """Brief Your Teammate: 'If either player holds more than 7 cards as the result of a transfer,
    the excess cards must be immediately discarded.'"""
    g = game()
    seven = ["Iago", "Lighthouse", "Stadium", "Catacombs", "Clocktower", "Old Asylum", "Swamp Gate"]
    s = position(g, pawns=["DeVos Financial", "DeVos Financial"], hands=[["DeVos Financial"], seven],
                 cast=["Professor Vance", "Mayor Maple"])
    s = g.play(s, "give DeVos Financial to p1")
    assert g.current_player(s) == 1 and s.pick_n == 1
    s = g.play(s, "discard Iago", 1)
    assert len(s.hands[1]) == 7 and g.current_player(s) == 0 and s.moves == 3


def test_victory_the_moment_the_fourth_recruitment_ends() -> None:
    """Victory: 'victory is instant when any player ends recruitment for the fourth and final Gang.'"""
    g = game()
    louies = ["Green City High School", "Louie's Lounge", "Neon Arcade", "Bowling Alley", "Sunset Motel"]
    s = position(g, pawns=["Green City High School", "Iago"], hands=[louies, []], ended=0b1101,
                 spheres={"Iago": 3, "Stadium": 2}, cast=["Detective Ruiz", "Mayor Maple"])
    s = g.play(s, "end recruitment Louies")
    assert g.is_terminal(s) and s.result == VICTORY
    assert g.returns(s) == (1.0, 1.0)


def test_continue_the_fight_wins_only_when_all_four_gangs_are_defeated() -> None:
    """Continue The Fight: 'continue the game by defeating all 4 of the Gangs'."""
    g = game(continue_the_fight=True)
    louies = ["Green City High School", "Louie's Lounge", "Neon Arcade", "Bowling Alley", "Sunset Motel"]
    s = position(g, pawns=["Green City High School", "Iago"], hands=[louies, []], ended=0b1101, defeated=0b1100,
                 spheres={"Convention Center": (0, 2)}, cast=["Detective Ruiz", "Mayor Maple"])
    s = g.play(s, "end recruitment Louies")
    assert not g.is_terminal(s) and s.ended == 0b1111 and s.defeated == 0b1110
    s = g.play(s, "travel Convention Center")
    s = g.play(s, "battle Tonys")
    assert g.is_terminal(s) and s.result == VICTORY and g.returns(s) == (1.0, 1.0)
    assert g.outcome(s) == {"winners": [0, 1], "reason": "all_gangs_defeated",
                            "text": "the team (players 0 and 1) wins: all four gangs are defeated"}
    assert g.figures(s)["gangs_defeated"] == (4.0, 4.0)


def test_escape_out_of_center_park_is_the_free_move() -> None:
    """GGC-11: an escape that takes the pawn out of Center Park costs its card but no move."""
    g = game()
    s = position(g, hands=[["DeVos Financial"], []], cast=["Professor Vance", "Detective Ruiz"])
    s = g.play(s, "escape to DeVos Financial")
    assert s.pawns[0] == P("DeVos Financial") and s.moves == 4 and s.hands[0] == ()


def test_respite_cards_are_never_briefed() -> None:
    """GGC-21: only POI cards change hands, even with Detective Ruiz."""
    g = game()
    s = position(g, pawns=["Stadium", "Stadium"], hands=[["Quiet Night", "Iago"], []],
                 cast=["Detective Ruiz", "Mayor Maple"])
    acts = names(g, s)
    assert "give Iago to p1" in acts and not any("Quiet Night to" in a for a in acts)
