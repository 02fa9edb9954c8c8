"""Rulings brought back to the rulebook's words (issue 12): weaknesses one card after the other,
weaknesses on ESCALATION! only, a defeated gang's escalation card, the sphere limit per colour."""

from __future__ import annotations

import pytest
from ggc_helpers import C, P, count, game, position

from kingmaker.core.api import CHANCE
from kingmaker.games.gangs_of_green_city.state import PICK_ONE

TONYS, LOUIES, LEFT_HAND, OFFICIALS = range(4)

FIVE = ["Iago", "Catacombs", "Stadium", "Clocktower", "Courthouse"]


def _escalate(g, s, escalation: int, bottom: str):
    """Player 0's last move (Lighthouse -> Radio Tower), ESCALATION! #``escalation`` and its bottom card."""
    s = g.play(s, "travel Radio Tower")
    s = g.play(s, f"escalation {escalation}")
    return g.play(s, f"gang card {bottom}")


@pytest.mark.parametrize("weaknesses", ["escalation", "every_card"])
def test_absent_minded_applies_card_after_card_she_stops_at_four(weaknesses: str) -> None:
    """Issue 12 bug 3. Drawing Cards: 'paying special attention to the featured character's
    weakness'; GGC-12: the ESCALATION! card's weakness, then the bottom card's, one after the other.
    ESCALATION! #2 and its bottom card Marconi Docks both feature Professor Vance. Absent-minded
    (holding five or more, GGC-16) makes her discard once, to four; the second card's weakness is
    applied after that discard and finds too few cards: she stops at four, not three."""
    g = game() if weaknesses == "escalation" else game(weaknesses="every_card")
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[[], FIVE])
    s = _escalate(g, s, 2, "Marconi Docks")
    assert s.pick_player == 1 and s.pick_n == 1 and s.pick_kind == PICK_ONE
    s = g.play(s, "discard Clocktower", 1)
    assert len(s.hands[1]) == 4 and C("Clocktower") not in s.hands[1]
    assert s.pick_n == 0 and s.weak_next == () and g.current_player(s) == CHANCE


def test_absent_minded_with_six_cards_discards_twice_one_choice_after_the_other() -> None:
    """GGC-12: with six cards both weaknesses take a card, the second chosen after the first
    is made; below five cards she keeps her hand."""
    g = game()
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[[], [*FIVE, "Casino Fortuna"]])
    s = _escalate(g, s, 2, "Marconi Docks")
    assert s.pick_n == 1 and s.weak_next == (1, P("Marconi Docks"))
    s = g.play(s, "discard Clocktower", 1)
    assert s.pick_n == 1 and s.weak_next == () and len(s.hands[1]) == 5
    s = g.play(s, "discard Iago", 1)
    assert len(s.hands[1]) == 4 and s.pick_n == 0 and C("Iago") not in s.hands[1]
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[[], ["Iago"]])
    s = _escalate(g, s, 2, "Marconi Docks")
    assert s.pick_n == 0 and s.hands[1] == (C("Iago"),)


def test_the_bottom_cards_weakness_waits_for_the_escalation_cards_discard() -> None:
    """GGC-12, one card after the other: ESCALATION! #2 features Professor Vance, its bottom card
    Casino Fortuna features Nell the Cabbie; Nell is towed only once Vance's discard is made."""
    g = game()
    s = position(g, cast=["Professor Vance", "Nell the Cabbie"], pawns=["Lighthouse", "Stadium"], moves=1,
                 hands=[FIVE, []])
    s = _escalate(g, s, 2, "Casino Fortuna")
    assert g.current_player(s) == 0 and s.pick_n == 1 and s.pawns[1] == P("Stadium")
    assert g.view(s, 1)["pending_weakness"] == {"cast": "Nell the Cabbie", "poi": "Casino Fortuna"}
    s = g.play(s, "discard Iago", 0)
    assert s.pawns[1] == P("Casino Fortuna") and s.weak_next == ()
    assert g.from_json(g.to_json(s)) == s


def test_weaknesses_apply_only_on_escalation_cards_by_default() -> None:
    """GGC-16. The rulebook asks for a weakness with ESCALATION! cards only ('paying special
    attention to the featured character's weakness'; Escalate: 'pay attention to the pictured
    character's weakness'); the Gang Leader section never mentions weaknesses."""
    g = game()
    s = position(g, cast=["Detective Ruiz", "Nell the Cabbie"], pawns=["Lighthouse", "Stadium"], moves=1)
    s = g.play(s, "travel Radio Tower")
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Courthouse")  # features Detective Ruiz
    s = g.play(s, "gang card Casino Fortuna")  # features Nell the Cabbie
    assert s.pawns == (P("Radio Tower"), P("Stadium")) and count(s, "Courthouse") == 1
    e = game(weaknesses="every_card")
    s2 = position(e, cast=["Detective Ruiz", "Nell the Cabbie"], pawns=["Lighthouse", "Stadium"], moves=1)
    s2 = e.play(s2, "travel Radio Tower")
    s2 = e.play(s2, "hero card Swamp Gate")
    s2 = e.play(s2, "hero card DeVos Financial")
    s2 = e.play(s2, "gang card Courthouse")
    s2 = e.play(s2, "gang card Casino Fortuna")
    assert s2.pawns == (P("Police Headquarters"), P("Casino Fortuna"))


def test_a_defeated_gangs_escalation_card_adds_no_sphere_but_both_weaknesses_apply() -> None:
    """GGC-9 and GGC-16. Defeating A Gang: its spheres go 'back in the box' and its cards 'will not
    increase gang activity when drawn on the Gang Leader's turn'; Escalate asks to 'pay attention
    to the pictured character's weakness' without exception. ESCALATION! #3 features Detective
    Ruiz; its bottom card Stadium (the defeated Officials) features Green Ghost."""
    g = game()
    s = position(g, cast=["Green Ghost", "Detective Ruiz"], pawns=["Lighthouse", "Swamp Gate"], moves=1,
                 ended=0b1000, defeated=0b1000)
    s = _escalate(g, s, 3, "Stadium")
    assert count(s, "Stadium") == 0 and s.supply[3] == 24
    assert s.pawns[1] == P("Police Headquarters") and s.tired == (1, 0)
    assert s.esc == 1 and P("Stadium") in s.gang_layers[0]


def test_the_sphere_limit_is_per_colour_also_in_chain_reactions() -> None:
    """Escalate: 'No POI may contain more than 3 spheres of any color'; Playing the Gang Leader:
    'If a POI already has 3 spheres of the color being added ... a Gang Riot occurs'. Chain
    Reactions speaks of 'the total number of spheres of an adjacent POI to exceed 3'; we play the
    limit per colour there too (GGC-17): a riot's sphere on a neighbour holding 2 Tonys and 2
    Louies spheres makes 3 Tonys beside 2 Louies, and no chain riot."""
    g = game()
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Lighthouse", "Stadium"], moves=1,
                 spheres={"Iago": 3, "Old Cannery": [(TONYS, 2), (LOUIES, 2)],
                          "Sal's Barbershop": [(TONYS, 3), (LOUIES, 3), (LEFT_HAND, 3), (OFFICIALS, 3)]})
    s = g.play(s, "travel Radio Tower")
    s = g.play(s, "hero card Swamp Gate")
    s = g.play(s, "hero card DeVos Financial")
    s = g.play(s, "gang card Iago")
    # Iago rioted; Sal's Barbershop, at three Tonys, rioted in the chain; Old Cannery (4 in total) did not
    assert s.war == 2
    assert count(s, "Old Cannery", "tonys") == 3 and count(s, "Old Cannery", "louies") == 2
    # a POI holds up to three spheres of each colour: twelve in all
    assert [count(s, "Sal's Barbershop", k) for k in ("tonys", "louies", "left hand", "officials")] == [3, 3, 3, 3]
