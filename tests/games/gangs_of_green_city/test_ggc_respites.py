"""Respite cards (designed, GGC-D4): 'These cards may be played at any time (even on a fellow
player's turn) and do not require an action to play.' Each effect, the windows, and the cost."""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, names, position

from kingmaker import IllegalActionError
from kingmaker.core.api import CHANCE
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.state import DRAW, ESC_WINDOW, GANG, GANG_WINDOW, MOVES

NEUTRAL = ["Professor Vance", "Mayor Maple"]


def test_rooftop_chase_moves_any_pawn_anywhere_at_no_move_cost() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Rooftop Chase"], []])
    s = g.play(s, "play Rooftop Chase")
    assert g.current_player(s) == 0 and names(g, s) == ["pawn p0", "pawn p1"]
    s = g.play(s, "pawn p1")
    assert "to Stadium" not in names(g, s) and len(g.legal_actions(s)) == 47
    s = g.play(s, "to Swamp Gate")
    assert s.pawns[1] == P("Swamp Gate") and s.moves == 4 and C("Rooftop Chase") in s.hero_disc
    assert s.stage == MOVES and g.current_player(s) == 0


def test_community_fundraiser_places_a_safe_house_anywhere() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Community Fundraiser"], []])
    s = g.play(s, "play Community Fundraiser")
    assert "to Green City High School" not in names(g, s)
    s = g.play(s, "to Swamp Gate")
    assert P("Swamp Gate") in s.safe and s.moves == 4


def test_community_fundraiser_needs_a_safe_house_in_the_supply() -> None:
    g = game()
    six = ("Green City High School", "Swamp Gate", "Lighthouse", "Stadium", "Catacombs", "Bowling Alley")
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Community Fundraiser"], []], safe=six)
    assert "play Community Fundraiser" not in names(g, s)
    with pytest.raises(IllegalActionError, match="no effect"):
        g.play(s, "play Community Fundraiser")


def test_quiet_night_skips_the_next_gang_leader_phase() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Quiet Night"], []], moves=1)
    s = g.play(s, "play Quiet Night")
    assert s.quiet == 1 and s.moves == 1
    s = g.play(s, "travel Old Cannery")
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    # no gang card is drawn: the next player's turn begins
    assert s.stage == MOVES and s.current == 1 and s.quiet == 0 and not any(s.spheres)


def test_witness_protection_removes_a_gang_discard_from_the_game() -> None:
    """Played in the ESCALATION! window, the removed card never goes back on top of the gang deck."""
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[[], ["Witness Protection"]], moves=1,
                 gang_disc=("Courthouse", "Catacombs"))
    s = g.play(s, "travel Old Cannery")
    s = g.play(s, "escalation 1")
    s = g.play(s, "gang card Stadium")
    # a window inside the ESCALATION!, for the holder on another player's turn
    assert s.stage == ESC_WINDOW and g.current_player(s) == 1
    assert names(g, s) == ["play Witness Protection", "pass"]
    s = g.play(s, "play Witness Protection", 1)
    assert sorted(names(g, s)) == ["protect Catacombs", "protect Courthouse", "protect Stadium"]
    s = g.play(s, "protect Stadium", 1)
    assert s.gang_out == (P("Stadium"),)
    assert s.stage == DRAW and s.gang_layers == (tuple(sorted((P("Courthouse"), P("Catacombs")))),)


def test_neighbourhood_watch_removes_up_to_two_spheres_of_one_gang() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Neighbourhood Watch"], []],
                 spheres={"Swamp Gate": 3, "Stadium": 1})
    s = g.play(s, "play Neighbourhood Watch")
    assert sorted(names(g, s)) == ["watch Left Hand at Swamp Gate", "watch Officials at Stadium"]
    s = g.play(s, "watch Left Hand at Swamp Gate")
    assert count(s, "Swamp Gate") == 1 and s.supply[2] == 23 and s.moves == 4


def test_neighbourhood_watch_can_finish_off_a_gang() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Neighbourhood Watch"], []],
                 spheres={"Stadium": 1}, ended=0b1000)
    s = g.play(s, "play Neighbourhood Watch")
    s = g.play(s, "watch Officials at Stadium")
    assert s.defeated == 0b1000


def test_respites_are_played_on_a_fellow_players_turn_in_the_window_before_the_gang_leader() -> None:
    """'even on a fellow player's turn': holders decide in turn order from the active player (GGC-7)."""
    g = game(3)
    s = position(g, cast=["Professor Vance", "Mayor Maple", "Nell the Cabbie"], pawns=["Iago", "Stadium", "Stadium"],
                 hands=[["Quiet Night"], [], ["Rooftop Chase"]], moves=1)
    s = g.play(s, "travel Old Cannery")
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    assert s.stage == GANG_WINDOW and s.window == (0, 2) and g.current_player(s) == 0
    s = g.play(s, "pass")
    assert g.current_player(s) == 2
    s = g.play(s, "play Rooftop Chase", 2)
    s = g.play(s, "pawn p0", 2)
    s = g.play(s, "to Green City High School", 2)
    assert s.pawns[0] == P("Green City High School")
    # player 2 holds no more respites: the window closes and the Gang Leader draws
    assert s.stage == GANG and g.current_player(s) == CHANCE


def test_no_window_opens_when_nobody_holds_a_respite() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], moves=1)
    s = g.play(s, "travel Old Cannery")
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    assert s.stage == GANG and g.current_player(s) == CHANCE


def test_respites_are_among_the_actions_of_every_decision_of_their_holder() -> None:
    g = game()
    seven = ["Iago", "Lighthouse", "Stadium", "Catacombs", "Clocktower", "Old Asylum", "Rooftop Chase"]
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[seven, []], moves=1)
    assert A.RESPITE0 in g.legal_actions(s)  # during moves
    s = g.play(s, "travel Old Cannery")
    s = g.play(s, "hero card Swamp Gate")  # over the limit: a discard decision
    assert A.RESPITE0 in g.legal_actions(s) and A.DISCARD0 + C("Rooftop Chase") in g.legal_actions(s)


def test_quiet_night_cannot_be_played_twice_for_one_gang_leader_phase() -> None:
    """Ruling GGC-7: a respite with no effect now is not offered (a second Quiet Night)."""
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Quiet Night"], []], quiet=1)
    assert "play Quiet Night" not in names(g, s)


def test_a_respite_choice_must_be_finished_before_anything_else() -> None:
    g = game()
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Stadium"], hands=[["Rooftop Chase"], []])
    s = g.play(s, "play Rooftop Chase")
    with pytest.raises(IllegalActionError, match="target"):
        g.play(s, "travel Old Cannery")
