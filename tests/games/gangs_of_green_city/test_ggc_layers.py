"""The gang draw pile as a stack of layers: each ESCALATION!'s shuffled discards lie on the older ones.

Rulebook, ESCALATION! Cards, Increase gang activity: "Take the Gang Deck Discard Pile, thoroughly
shuffle it, then place it on top of the remaining Gang Deck Draw Pile. (Don't shuffle these cards
into the Gang Deck Draw Pile)." (issue 12, bug 2; rulings GGC-1 and GGC-19)
"""

from __future__ import annotations

import itertools
import random

import pytest
from ggc_helpers import P, game, position

from kingmaker.core.errors import InvalidStateError
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.data import NUM_POIS, POI_NAMES
from kingmaker.games.gangs_of_green_city.state import DRAW, ESC_BOTTOM, GANG

NEUTRAL = ["Professor Vance", "Mayor Maple"]  # no weakness of theirs changes these positions
OLD = ("Courthouse", "Catacombs")  # the layer an earlier ESCALATION! put on top, still unused


def _ids(*names: str) -> tuple[int, ...]:
    return tuple(sorted(P(n) for n in names))


def _draws(g, s) -> list[int]:
    return sorted(a - A.GDRAW0 for a, _ in g.chance_outcomes(s))


def _before_draw(g, **kw):
    """Player 0 stands on Iago with one move left; the hero draw follows that move."""
    s = position(g, cast=NEUTRAL, pawns=["Iago", "Lighthouse"], moves=1, **kw)
    return g.play(s, "travel Old Cannery")


def test_a_second_escalation_lays_its_discards_over_the_first_ones_layer() -> None:
    """'place it on top of the remaining Gang Deck Draw Pile (Don't shuffle these cards into the
    Gang Deck Draw Pile)': the cards left of the first ESCALATION!'s layer lie under the new one."""
    g = game()
    s = _before_draw(g, gang_layers=(OLD,), gang_disc=("Swamp Gate",))
    s = g.play(s, "escalation 1")
    s = g.play(s, "gang card Stadium")
    assert s.gang_layers == (_ids("Stadium", "Swamp Gate"), _ids(*OLD))
    s = g.play(s, "hero card Iago")
    assert s.stage == GANG
    # the Gang Leader draws from the new layer only, never from the older one beneath it
    assert _draws(g, s) == list(_ids("Stadium", "Swamp Gate"))
    s = g.play(s, "gang card Swamp Gate")
    assert _draws(g, s) == [P("Stadium")]
    s = g.play(s, "gang card Stadium")
    # the meter reads 2: the turn is over; the older layer is next, then the unseen rest
    assert s.gang_layers == (_ids(*OLD),)
    assert s.stage != GANG and s.current == 1


def test_two_escalations_in_one_draw_the_second_bottom_card_alone_is_the_top_layer() -> None:
    """Two ESCALATION! cards drawn in one turn: after the second, the discard pile holds only its
    bottom card, and that card alone is the new top layer, over the first ESCALATION!'s layer."""
    g = game()
    s = _before_draw(g, piles=(1, 1, 53, 0, 0, 0), pile_esc=(1, 1, 0, 0, 0, 0), esc=4,
                     gang_layers=(("Iago",),), gang_disc=OLD)
    assert s.stage == DRAW and s.deal == 2
    s = g.play(s, "escalation 5")
    s = g.play(s, "gang card Stadium")
    assert s.gang_layers == (_ids("Stadium", *OLD), _ids("Iago"))
    s = g.play(s, "escalation 6")
    assert s.stage == ESC_BOTTOM
    s = g.play(s, "gang card Swamp Gate")
    assert s.gang_layers == (_ids("Swamp Gate"), _ids("Stadium", *OLD), _ids("Iago"))
    assert s.stage == GANG
    assert _draws(g, s) == [P("Swamp Gate")]
    s = g.play(s, "gang card Swamp Gate")
    assert _draws(g, s) == list(_ids("Stadium", *OLD))


def test_the_bottom_card_comes_from_the_bottom_layer_once_the_unseen_rest_is_gone() -> None:
    """Escalate: 'Take the bottom card from the Gang Deck Draw Pile': with no unseen card left
    under the layers, the bottom card is one of the lowest layer's."""
    g = game()
    disc = tuple(n for n in POI_NAMES if n not in ("Iago", "Stadium", "Swamp Gate"))
    s = _before_draw(g, gang_layers=(("Iago",), ("Stadium", "Swamp Gate")), gang_disc=disc)
    s = g.play(s, "escalation 1")
    assert _draws(g, s) == list(_ids("Stadium", "Swamp Gate"))
    s = g.play(s, "gang card Swamp Gate")
    # Swamp Gate joined the discards, which form the new top layer; Stadium stays at the bottom
    assert s.gang_layers[1:] == (_ids("Iago"), _ids("Stadium"))
    assert len(s.gang_layers[0]) == len(disc) + 1


def test_the_view_shows_each_layer_as_a_set_and_sampled_orders_shuffle_only_within_layers() -> None:
    """Public fact: which cards each layer holds (everyone saw the discard pile that became it);
    their order within the layer is unknown. ``sample_gang_deck`` keeps every layer in place
    and shuffles only within it; ``sample_hidden`` keeps the state (no order is stored)."""
    g = game()
    s = _before_draw(g, gang_layers=(OLD,), gang_disc=("Swamp Gate",))
    s = g.play(s, "escalation 1")
    s = g.play(s, "gang card Stadium")
    v = g.view(s, 0)
    assert v["gang_deck"]["layers_on_top"] == [["Swamp Gate", "Stadium"], ["Catacombs", "Courthouse"]]
    assert v["gang_deck"]["unseen_below"] == NUM_POIS - 4 == v["gang_deck"]["draw_pile"] - 4
    top, second = set(s.gang_layers[0]), set(s.gang_layers[1])
    seen_orders = set()
    for seed in range(200):
        rng = random.Random(seed)
        assert g.sample_hidden(s, 1, rng) == s
        order = g.sample_gang_deck(s, rng)
        assert len(order) == len(set(order)) == NUM_POIS - len(s.gang_disc) - len(s.gang_out)
        assert set(order[:2]) == top and set(order[2:4]) == second
        assert not set(order[4:]) & (top | second)
        seen_orders.add(tuple(order[:4]))
    # every order within the layers comes up, and only those
    assert seen_orders == {a + b for a, b in itertools.product(
        itertools.permutations(s.gang_layers[0]), itertools.permutations(s.gang_layers[1]))}


def test_layers_survive_json_and_a_state_with_an_empty_layer_is_rejected() -> None:
    g = game()
    s = _before_draw(g, gang_layers=(OLD, ("Iago",)), gang_disc=("Swamp Gate",))
    assert g.from_json(g.to_json(s)) == s
    data = g.to_json(s)
    data["state"]["gang_layers"] = [[], [P("Iago")]]
    with pytest.raises(InvalidStateError):
        g.from_json(data)
