"""The five cast cards (designed, GGC-D3): each power, and each weakness when a card features them.

Setup: 'Consider your cast members' powers and weaknesses'; ESCALATION!: 'paying special attention
to the featured character's weakness'.
"""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, names, position

from kingmaker import IllegalActionError
from kingmaker.games.gangs_of_green_city.data import PARK
from kingmaker.games.gangs_of_green_city.state import ESC_WINDOW, MOVES, PICK_ONE


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


def test_green_ghost_weakness_exhausted_his_next_turn_has_three_moves() -> None:
    g = game()
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
    g = game()
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
    s = _to_gang_leader(g, s)
    s = g.play(s, "gang card Courthouse")  # features Detective Ruiz
    assert s.pawns[1] == P("Police Headquarters")


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
    s = _to_gang_leader(g, s)
    s = g.play(s, "gang card Bellini Bakery")  # features Mayor Maple
    assert s.safe == (P("Green City High School"),)
    # ... unless it is the last safe house on the board
    s2 = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                  safe=("Bellini Bakery",))
    s2 = _to_gang_leader(g, s2)
    s2 = g.play(s2, "gang card Bellini Bakery")
    assert s2.safe == (P("Bellini Bakery"),)


# ---- Nell the Cabbie ------------------------------------------------------------------------
def test_nell_the_cabbie_power_safe_house_without_a_card() -> None:
    g = game()
    s = position(g, cast=["Nell the Cabbie", "Mayor Maple"], pawns=["Iago", "Iago"], hands=[["Iago"], []])
    s = g.play(s, "safe house")
    assert P("Iago") in s.safe and s.hands[0] == (C("Iago"),)


def test_nell_the_cabbie_weakness_towed_to_the_featured_poi() -> None:
    g = game()
    s = position(g, cast=["Nell the Cabbie", "Mayor Maple"], pawns=["Lighthouse", "Stadium"], moves=1,
                 spheres={"Casino Fortuna": 2})
    s = _to_gang_leader(g, s)
    s = g.play(s, "gang card Casino Fortuna")  # features Nell
    assert s.pawns[0] == P("Casino Fortuna") and count(s, "Casino Fortuna") == 3 and s.war == 0


# ---- who is in play ---------------------------------------------------------------------------
def test_a_weakness_applies_only_when_that_character_is_in_play() -> None:
    g = game()
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
