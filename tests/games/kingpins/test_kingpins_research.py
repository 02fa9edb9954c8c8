"""Kingpins' research surface (issue 13 section 1): action space and chance ranges, apply's
range checks, the seat-relative observation tensor, the information state string, and the
public facts the view keeps (docs/rulings/kingpins.md), each resampled right after it happens."""

from __future__ import annotations

import json
import random

import pytest
from kingpins_helpers import k, make, play, position, random_game

import kingmaker
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins.data import kinds
from kingmaker.games.kingpins.state import COLLECT, PLAY, RUB_OUT
from kingmaker.games.kingpins.view import TENSOR_SIZE, information_state_string, observation_tensor


@pytest.mark.parametrize("players", [2, 3, 4])
def test_declared_sizes_cover_every_action(players):
    """1,366 player actions, chance outcomes 0..51 (the card kind), a 780-float tensor."""
    g = make(players)
    assert g.info.num_distinct_actions == 1366 and g.info.max_chance_outcomes == 52
    assert g.info.observation_shape == (TENSOR_SIZE,) == (780,)
    assert g.info.figures == ("total", "rounds_won")
    for s in random_game(g, players):
        cp = g.current_player(s)
        if cp == kingmaker.CHANCE:
            assert all(0 <= a < 52 for a, _ in g.chance_outcomes(s))
        elif cp >= 0:
            assert g.legal_actions(s)[-1] < 1366


def test_apply_refuses_what_is_no_action_and_leaves_the_state_unchanged():
    """apply raises InvalidActionError outside 0..1365 and for a card not left to deal or draw;
    a Femme Fatale is never an outcome for a recruitment stack (ruling KP-3)."""
    g = make(2)
    s = position(g, ["M6", "D4"], {"N": "B5"})
    before = json.dumps(g.to_json(s))
    for bad in (-1, 1366, 1.0, None, "M6 on N"):
        with pytest.raises(kingmaker.InvalidActionError):
            g.apply(s, bad)
    drawing = play(g, s, "end turn")
    with pytest.raises(kingmaker.InvalidActionError, match="not a chance outcome"):
        g.apply(drawing, k("M6"))  # M6 is in player 0's hand, not in the stockpile
    with pytest.raises(kingmaker.InvalidActionError):
        g.apply(drawing, 52)
    deal = g.new_initial_state()
    for _ in range(g.hand_deal):
        deal = g.apply(deal, next(a for a, _ in g.chance_outcomes(deal) if a not in (k("Fr"), k("Fb"))))
    with pytest.raises(kingmaker.InvalidActionError):
        g.apply(deal, k("Fr"))
    assert json.dumps(g.to_json(s)) == before


def test_observation_tensor_is_seat_relative():
    """The observer is seat 0 of the encoding, the next player seat 1..., so the same table seen
    from the seat to move is encoded the same whoever sits there."""
    g = make(3)
    s = position(g, ["M6 D4", "V3", "B9 B8"], {"N": "B5"}, current=0, history=((0, 5, 9),), round=1)
    t0, t1 = list(observation_tensor(g, s, 0)), list(observation_tensor(g, s, 1))
    assert t0[k("M6")] == 1.0 and t0[k("V3")] == 0.0 and t1[k("V3")] == 1.0
    assert t0[520:523] == [2.0, 1.0, 2.0] and t1[520:523] == [1.0, 2.0, 2.0]  # hand sizes by relative seat
    assert t0[536:539] == [1.0, 0.0, 0.0] and t1[536:539] == [0.0, 0.0, 1.0]  # player 0 to move
    assert t0[548:551] == [0.0, 5.0, 9.0] and t1[548:551] == [5.0, 9.0, 0.0]  # round 1's scores
    assert t0[52 + k("B5")] == 1.0  # N holds the black 5
    assert len(t0) == 780


def test_information_state_string_is_built_from_the_state_not_the_view(monkeypatch):
    """The key search agents use is made from state fields (cheap), never from the view; it
    hides the other hands: two states differing only there give the same key."""
    g = make(2)
    s = position(g, ["M6 D4", "V3 B9"], {"N": "B5"})
    other = position(g, ["M6 D4", "V1 B2"], {"N": "B5"})
    monkeypatch.setattr(type(g), "view", lambda *a: (_ for _ in ()).throw(AssertionError("view built")))
    assert information_state_string(g, s, 0) == g.information_state_string(other, 0)
    assert g.information_state_string(s, 1) != g.information_state_string(other, 1)
    assert observation_tensor(g, s, 0) == observation_tensor(g, other, 0)


def _samples(g, s, player, seeds=40):
    return [g.sample_hidden(s, player, random.Random(seed)) for seed in range(seeds)]


def test_public_fact_a_rubbed_out_card_is_face_up_in_the_discards():
    """Rub Out sends a card face up to the discards: right after, no resample holds it anywhere
    hidden (a hand or the stockpile)."""
    g = make(3)
    s = play(g, position(g, ["M7 V6 D9", "D4 B6", "V2"], {"N": "B8"}), "M7 on N")
    assert s.phase == RUB_OUT
    s = play(g, s, "discard V6")
    for p in (1, 2):
        for t in _samples(g, s, p):
            hidden = [x for q in range(3) for x in kinds(t.hands[q])] + kinds(t.unseen)
            assert k("V6") not in hidden and k("V6") in kinds(t.discards)


def test_public_fact_a_femme_fatale_played_or_discarded_is_never_hidden_again():
    """A Femme Fatale discarded to slip a card under a stack, or put on an empty original stack
    (KP-4), is face up: no resample puts her back in a hand or the stockpile."""
    g = make(2)
    s = position(g, ["Fb Fb M6 D1", "D4", ], {"N": "B5 M4"}, stockpile="Fr Fr V9 V8")
    s = play(g, s, "M6 under N with Fb", "Fb to W")
    for t in _samples(g, s, 1):
        assert not any(x == k("Fb") for q in range(2) for x in kinds(t.hands[q]))
        assert k("Fb") not in kinds(t.unseen)


def test_public_fact_a_collected_card_is_known_only_to_its_receiver():
    """Collect: the next player draws; right after, that player's resamples keep the card in
    their hand, the others' resamples only keep the hand's size."""
    g = make(3)
    s = play(g, position(g, ["M5 D4", "V3", "B9"], {"N": "V6"}), "M5 on N")
    assert s.phase == COLLECT
    s = g.play(s, "card B12")
    assert s.phase == PLAY
    for t in _samples(g, s, 1):
        assert k("B12") in kinds(t.hands[1]) and k("V3") in kinds(t.hands[1])
    sizes = {t.hands[1].bit_count() for t in _samples(g, s, 0)}
    assert sizes == {2} and any(k("B12") not in kinds(t.hands[1]) for t in _samples(g, s, 0))


def test_public_fact_the_hands_shown_at_round_end_stay_in_the_view():
    """Round end: "Score all cards remaining in your hand": the hands are shown to all and the
    view keeps them (last_round) through the next deal; every resample keeps them."""
    g = make(2)
    s = play(g, position(g, ["M3", "V5 D9"], {"N": "B4"}), "M3 on N")
    for _ in range(3):
        s = g.apply(s, g.chance_outcomes(s)[0][0])
    for t in _samples(g, s, 0):
        assert g.view(t, 0)["last_round"]["hands"][1] == g.view(s, 0)["last_round"]["hands"][1]
        assert sorted(kinds(t.last_hands[1])) == sorted([k("V5"), k("D9")])
    assert A.card(k("M7")) == k("M7")
