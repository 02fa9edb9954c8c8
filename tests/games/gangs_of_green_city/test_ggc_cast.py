"""The five cast cards (designed, GGC-D3): each power, and each weakness when a card features them.

Setup: 'Consider your cast members' powers and weaknesses'; Drawing Cards: 'If a card is an
ESCALATION! Card ... paying special attention to the featured character's weakness'; Escalate:
'pay attention to the pictured character's weakness'. By default weaknesses apply on ESCALATION!
cards and their bottom cards only; the option ``weaknesses=every_card`` adds every gang card, with
milder Exhausted and Absent-minded (GGC-16).
"""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, names, position

from kingmaker import IllegalActionError
from kingmaker.games.gangs_of_green_city.data import PARK
from kingmaker.games.gangs_of_green_city.state import ESC_WINDOW, MOVES, PICK_ONE

EVERY = {"weaknesses": "every_card"}


def _escalate(g, s, escalation: int, bottom: str):
    """Plays player 0's last move, draws ESCALATION! #``escalation`` and its bottom card ``bottom``."""
    s = g.play(s, "travel Radio Tower" if s.pawns[0] == P("Lighthouse") else "travel Lighthouse")
    s = g.play(s, f"escalation {escalation}")
    return g.play(s, f"gang card {bottom}")


def _to_gang_leader(g, s):
    """Plays player 0's last move (Lighthouse <-> Radio Tower) and two plain hero draws."""
    s = g.play(s, "travel Radio Tower" if s.pawns[0] == P("Lighthouse") else "travel Lighthouse")
    s = g.play(s, "hero card Swamp Gate")
    return g.play(s, "hero card DeVos Financial")


# ---- Green Ghost ----------------------------------------------------------------------------
def test_green_ghost_power_battle_removes_every_sphere_of_a_gang() -> None:
    g = game()
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Iago", "Iago"], spheres={"Iago": 3})
    s = g.play(s, "battle Tonys")
    assert count(s, "Iago") == 0 and s.moves == 3 and s.supply[0] == 24


def test_green_ghost_power_clears_ended_gangs_where_he_goes() -> None:
    g = game()
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Old Cannery", "Iago"],
                 spheres={"Iago": 2, "Lighthouse": (0, 1), "Swamp Gate": 1}, ended=0b0001)
    s = g.play(s, "travel Iago")
    assert count(s, "Iago") == 0 and s.moves == 3 and not s.defeated
    s = g.play(s, "travel Lighthouse")
    assert count(s, "Lighthouse", "tonys") == 0 and s.defeated == 0b0001  # the Tonys' last spheres


def test_green_ghost_power_no_sphere_of_an_ended_gang_is_added_where_he_stands() -> None:
    g = game()
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1,
                 ended=0b0001, spheres={"Tony's Pizzeria": 1})
    s = _to_gang_leader(g, s)  # the Ghost ends on Radio Tower
    s = g.play(s, "gang card Radio Tower")  # Left Hand: not ended, added
    assert count(s, "Radio Tower") == 1
    s2 = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Radio Tower", "Stadium"], moves=1,
                  ended=0b0001, spheres={"Tony's Pizzeria": 1})
    s2 = _to_gang_leader(g, s2)  # the Ghost ends on Lighthouse
    s2 = g.play(s2, "gang card Iago")
    assert count(s2, "Iago") == 1
    s3 = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Radio Tower", "Stadium"], moves=1,
                  ended=0b0001, spheres={"Iago": 3})
    s3 = _to_gang_leader(g, s3)
    s3 = g.play(s3, "gang card Iago")  # riot: Lighthouse is protected by the Ghost
    assert s3.war == 1 and count(s3, "Lighthouse", "tonys") == 0 and count(s3, "Old Cannery") == 1


def test_green_ghost_weakness_exhausted_adds_up_for_each_card_featuring_him() -> None:
    """ESCALATION! #1 and its bottom card Tony's Pizzeria both feature Green Ghost: two moves fewer."""
    g = game()
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1)
    s = _escalate(g, s, 1, "Tony's Pizzeria")
    assert s.tired == (2, 0)
    s = g.play(s, "hero card Swamp Gate")
    # the Gang Leader's own cards featuring him do nothing by default
    s = g.play(s, "gang card Tony's Pizzeria")  # the top layer: itself, featuring him (a riot)
    s = g.play(s, "gang card Sal's Barbershop")  # featuring him too
    assert s.tired == (2, 0) and s.current == 1
    for _ in range(4):
        s = g.play(s, "travel Police Headquarters" if s.pawns[1] == P("Stadium") else "travel Stadium")
    s = g.play(s, "hero card Clocktower")
    s = g.play(s, "hero card Iago")
    s = g.play(s, "gang card City Hall")
    s = g.play(s, "gang card Old Cannery")
    assert s.current == 0 and s.moves == 2 and s.tired == (0, 0)


def test_green_ghost_weakness_exhausted_leaves_at_least_one_move() -> None:
    g = game()
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1, tired=(2, 0))
    s = _escalate(g, s, 1, "Tony's Pizzeria")
    assert s.tired == (3, 0)


def test_every_card_option_green_ghost_weakness_exhausted_his_next_turn_has_three_moves() -> None:
    g = game(**EVERY)
    s = position(g, cast=["Green Ghost", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1)
    s = _to_gang_leader(g, s)
    s = g.play(s, "gang card Tony's Pizzeria")  # features Green Ghost
    assert s.tired == (1, 0)
    s = g.play(s, "gang card Sal's Barbershop")  # features him again: it does not add up
    assert s.tired == (1, 0)
    assert s.current == 1 and s.moves == 4
    for _ in range(4):
        s = g.play(s, "travel Police Headquarters" if s.pawns[1] == P("Stadium") else "travel Stadium")
    s = g.play(s, "hero card Clocktower")
    s = g.play(s, "hero card Iago")
    s = g.play(s, "gang card City Hall")
    s = g.play(s, "gang card Catacombs")
    assert s.current == 0 and s.moves == 3 and s.tired == (0, 0)


# ---- Professor Vance ------------------------------------------------------------------------
def test_professor_vance_power_ends_recruitment_with_four_cards() -> None:
    g = game()
    four = ["Iago", "Tony's Pizzeria", "Bellini Bakery", "Marconi Docks"]
    s = position(g, cast=["Professor Vance", "Mayor Maple"], pawns=["Green City High School", "Iago"], hands=[four, []])
    s = g.play(s, "end recruitment Tonys")
    assert s.ended == 0b0001 and s.hands[0] == ()
    s2 = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Green City High School", "Iago"], hands=[four, []])
    assert "end recruitment Tonys" not in names(g, s2)


def test_professor_vance_weakness_absent_minded_discards_a_card_of_her_choice() -> None:
    """ESCALATION! #2 features Professor Vance: holding five cards or more, she discards one card
    of her choice (GGC-16); with fewer she keeps them."""
    g = game()
    five = ["Iago", "Catacombs", "Stadium", "Clocktower", "Marconi Docks"]
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[[], five])
    s = _escalate(g, s, 2, "Courthouse")  # Courthouse features Detective Ruiz (not in play)
    assert s.pick_player == 1 and s.pick_n == 1 and s.pick_kind == PICK_ONE and g.current_player(s) == 1
    assert set(names(g, s)) == {f"discard {c}" for c in five}
    s = g.play(s, "discard Catacombs", 1)
    assert len(s.hands[1]) == 4 and C("Catacombs") not in s.hands[1] and s.pick_n == 0
    # with two cards (or none) there is nothing to discard
    for hand in (["Iago", "Catacombs"], []):
        s2 = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                      hands=[[], hand])
        s2 = _escalate(g, s2, 2, "Courthouse")
        assert s2.pick_n == 0 and g.current_player(s2) < 0 and len(s2.hands[1]) == len(hand)


def test_every_card_option_professor_vance_weakness_absent_minded_holding_five_cards() -> None:
    g = game(**EVERY)
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[[], ["Iago", "Catacombs", "Stadium", "Clocktower", "Courthouse"]])
    s = _to_gang_leader(g, s)
    s = g.play(s, "gang card Marconi Docks")  # features Professor Vance
    assert s.pick_player == 1 and s.pick_n == 1 and s.pick_kind == PICK_ONE and g.current_player(s) == 1
    s = g.play(s, "discard Catacombs", 1)
    assert len(s.hands[1]) == 4 and C("Catacombs") not in s.hands[1] and s.deal == 1
    # with four cards she keeps them all
    s = g.play(s, "gang card Olive Street Market")  # features her again
    assert s.pick_n == 0 and len(s.hands[1]) == 4


# ---- Detective Ruiz -------------------------------------------------------------------------
def test_detective_ruiz_power_brief_any_card_both_ways() -> None:
    g = game()
    s = position(g, cast=["Detective Ruiz", "Mayor Maple"], pawns=["Stadium", "Stadium"],
                 hands=[["Iago", "Catacombs"], ["Swamp Gate"]])
    acts = names(g, s)
    assert {"give Iago to p1", "give Catacombs to p1"} <= set(acts)
    assert "take Swamp Gate from p1" not in acts  # she gives any card; she takes only the POI's
    s = g.play(s, "give Iago to p1")
    assert C("Iago") in s.hands[1]
    # a teammate on her POI may take any card from her on their own turn
    s3 = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Stadium", "Stadium"],
                  hands=[["Swamp Gate"], ["Iago"]])
    acts = names(g, s3)
    assert "take Iago from p1" in acts and "give Swamp Gate to p1" not in acts


def test_detective_ruiz_weakness_called_to_headquarters() -> None:
    g = game()
    s = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Lighthouse", "Swamp Gate"], moves=1)
    s = _escalate(g, s, 1, "Courthouse")  # the bottom card features Detective Ruiz
    assert s.pawns[1] == P("Police Headquarters")
    # a Gang Leader's card featuring her does nothing by default, but does with every_card
    e = game(**EVERY)
    s2 = position(e, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Lighthouse", "Swamp Gate"], moves=1)
    s2 = _to_gang_leader(e, s2)
    s2 = e.play(s2, "gang card Courthouse")
    assert s2.pawns[1] == P("Police Headquarters")
    s3 = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Lighthouse", "Swamp Gate"], moves=1)
    s3 = _to_gang_leader(g, s3)
    s3 = g.play(s3, "gang card Courthouse")
    assert s3.pawns[1] == P("Swamp Gate")


# ---- Mayor Maple ----------------------------------------------------------------------------
def test_mayor_maple_power_dispatches_another_pawn() -> None:
    g = game(3)
    s = position(g, cast=["Mayor Maple", "Professor Vance", "Green Ghost"],
                 pawns=["Stadium", "Iago", "Swamp Gate"], spheres={"Iago": 2}, ended=0b0001)
    acts = names(g, s)
    assert "dispatch p1 to Old Cannery" in acts  # adjacent to p1
    assert "dispatch p1 to Stadium" in acts and "dispatch p1 to Swamp Gate" in acts  # a pawn is there
    assert "dispatch p1 to DeVos Financial" not in acts
    s = g.play(s, "dispatch p2 to Iago")  # the Ghost arrives and clears the ended Tonys
    assert s.pawns[2] == P("Iago") and count(s, "Iago") == 0 and s.moves == 3
    with pytest.raises(IllegalActionError):
        g.play(s, "dispatch p1 to DeVos Financial")


def test_mayor_maple_weakness_scandal_shuts_the_safe_house_on_the_featured_poi() -> None:
    g = game()
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 safe=("Green City High School", "Bellini Bakery"))
    s = _escalate(g, s, 1, "Bellini Bakery")  # the bottom card features Mayor Maple
    assert s.safe == (P("Green City High School"),)
    # ... unless it is the last safe house on the board
    s2 = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                  safe=("Bellini Bakery",))
    s2 = _escalate(g, s2, 1, "Bellini Bakery")
    assert s2.safe == (P("Bellini Bakery"),)
    # with every_card, a Gang Leader's card featuring her shuts it down too
    e = game(**EVERY)
    s3 = position(e, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                  safe=("Green City High School", "Bellini Bakery"))
    s3 = _to_gang_leader(e, s3)
    s3 = e.play(s3, "gang card Bellini Bakery")
    assert s3.safe == (P("Green City High School"),)


# ---- Nell the Cabbie ------------------------------------------------------------------------
def test_nell_the_cabbie_power_safe_house_without_a_card() -> None:
    g = game()
    s = position(g, cast=["Nell the Cabbie", "Mayor Maple"], pawns=["Iago", "Iago"], hands=[["Iago"], []])
    s = g.play(s, "safe house")
    assert P("Iago") in s.safe and s.hands[0] == (C("Iago"),)


def test_nell_the_cabbie_weakness_towed_to_the_featured_poi() -> None:
    g = game()
    s = position(g, cast=["Nell the Cabbie", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1)
    s = _escalate(g, s, 1, "Casino Fortuna")  # the bottom card features Nell
    assert s.pawns[0] == P("Casino Fortuna") and count(s, "Casino Fortuna") == 3 and s.war == 0
    e = game(**EVERY)
    s2 = position(e, cast=["Nell the Cabbie", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1,
                  spheres={"Casino Fortuna": 2})
    s2 = _to_gang_leader(e, s2)
    s2 = e.play(s2, "gang card Casino Fortuna")
    assert s2.pawns[0] == P("Casino Fortuna") and count(s2, "Casino Fortuna") == 3 and s2.war == 0


# ---- who is in play ---------------------------------------------------------------------------
def test_a_weakness_applies_only_when_that_character_is_in_play() -> None:
    g = game(**EVERY)
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1)
    s = _to_gang_leader(g, s)
    before = s
    s = g.play(s, "gang card Courthouse")  # features Detective Ruiz, who is not in play
    assert s.pawns == before.pawns and count(s, "Courthouse") == 1 and s.pick_n == 0 and s.tired == (0, 0)


def test_escalation_card_applies_its_featured_characters_weakness() -> None:
    """ESCALATION! cards name a featured character (GGC-D2): 'ESCALATION! #3' features Detective Ruiz."""
    g = game()
    s = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Lighthouse", "Swamp Gate"], moves=1)
    s = g.play(s, "travel Radio Tower")
    s = g.play(s, "escalation 3")
    s = g.play(s, "gang card Stadium")  # Stadium features Green Ghost (not in play)
    assert s.pawns[1] == P("Police Headquarters") and count(s, "Stadium") == 3
    assert s.stage != ESC_WINDOW and s.pawns[0] != PARK and s.stage != MOVES
