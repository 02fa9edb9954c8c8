"""Kingpin's research surface (issue 13 section 1): action space and chance ranges, apply's
range checks, the seat-relative observation tensor and the information state string."""

from __future__ import annotations

import json
import random

import pytest

import kingmaker
from kingmaker.games.kingpin.view import information_state_string, observation_tensor

G = kingmaker.make("kingpin")
RY = ("russian", "yakuza")


def test_declared_sizes_cover_every_action_of_the_options():
    """num_distinct_actions is the largest space of the options (both 4x5 board sides, 24
    tiles); chance outcomes are the starting seat or a tile id: 0..23."""
    for board in ("A", "B"):
        g = kingmaker.make("kingpin", board=board, long_night=True)
        assert g.info.num_distinct_actions == 2923 and g.info.max_chance_outcomes == 24
        assert g.info.observation_shape == (767,)
    assert G.info.figures == ("gangsters_alive", "no_mans_land", "actions_left")
    rng = random.Random(3)
    s = G.new_initial_state()
    while not G.is_terminal(s):
        if G.current_player(s) == kingmaker.CHANCE:
            outs = [a for a, _ in G.chance_outcomes(s)]
            assert all(0 <= a < 24 for a in outs)
            s = G.apply(s, rng.choice(outs))
        else:
            legal = G.legal_actions(s)
            assert legal[-1] < 2923
            mask = G.legal_actions_mask(s, G.current_player(s))
            assert [a for a, m in enumerate(mask) if m] == legal
            s = G.apply(s, rng.choice(legal))


def test_apply_refuses_what_is_no_action_and_leaves_the_state_unchanged():
    """apply raises InvalidActionError outside 0..num_distinct_actions-1, and for a chance
    outcome not offered (a seat other than 0 and 1, a tile not in the face-down deck)."""
    s = G.position({"b2": "Vasili N", "d5": "Yamada S"}, mafias=RY)
    before = json.dumps(G.to_json(s))
    for bad in (-1, 2923, 10**6, 1.5, "turn b2 E", True):
        with pytest.raises(kingmaker.InvalidActionError):
            G.apply(s, bad)
    start = G.new_initial_state()
    for bad in (2, -1, 0.0):
        with pytest.raises(kingmaker.InvalidActionError):
            G.apply(start, bad)
    g = kingmaker.make("kingpin", mafias="russian-yakuza", first_player="0")
    drawing = g.play(g.new_initial_state(), "play Vasili b1 N")
    vasili = g.t.BY_SHORT["vasili"]
    with pytest.raises(kingmaker.InvalidActionError, match="face-down deck"):
        g.apply(drawing, vasili)  # Vasili is on the board, not in the deck
    assert json.dumps(G.to_json(s)) == before


def test_draw_notation_is_read_only_at_a_draw_and_moves_only_at_decisions():
    """Chance outcomes share ints with player actions, so the notation decides the node kind."""
    g = kingmaker.make("kingpin", mafias="russian-yakuza", first_player="0")
    s = g.new_initial_state()
    with pytest.raises(kingmaker.InvalidActionError):
        g.play(s, "draw Boris")
    drawing = g.play(s, "play Vasili b1 N")
    with pytest.raises(kingmaker.InvalidActionError):
        g.play(drawing, "turn b1 E")
    after = g.play(drawing, "draw Boris")
    assert g.t.BY_SHORT["boris"] in after.hand[0]


def test_observation_tensor_is_seat_relative_with_the_board_turned_for_player_1():
    """The observer is seat 0 of the encoding and sees their own area at the bottom: a position
    and its half-turned copy with the seats swapped give each owner the same tensor."""
    s = G.position({"b2": "Vasili N", "c4": "Yamada S", "a1": "Grigori E"}, mafias=RY, current=0)
    mirror = G.position({"c4": "Vasili S", "b2": "Yamada N", "d5": "Grigori W"},
                        mafias=("yakuza", "russian"), current=1)
    assert observation_tensor(G, s, 0) == observation_tensor(G, mirror, 1)
    assert observation_tensor(G, s, 0) != observation_tensor(G, s, 1)
    t = observation_tensor(G, s, 0)
    T = G.t.n_tiles
    per = T + 6
    b2 = G.square("b2")
    assert t[b2 * per] == 1.0 and t[b2 * per + 2 + G.t.BY_SHORT["vasili"]] == 1.0 and t[b2 * per + 2 + T] == 1.0


def test_information_state_string_is_built_from_the_state_not_the_view(monkeypatch):
    """The key search agents use is made from state fields (cheap), never from the view; it
    differs between the seats and between consecutive states."""
    s = G.position({"b2": "Vasili N", "d5": "Yamada S"}, mafias=RY)
    monkeypatch.setattr(type(G), "view", lambda *a: (_ for _ in ()).throw(AssertionError("view built")))
    k0, k1 = information_state_string(G, s, 0), G.information_state_string(s, 1)
    assert k0 != k1 and k0 == G.information_state_string(G.from_json(G.to_json(s)), 0)
    assert G.information_state_string(G.play(s, "turn b2 E"), 0) != k0


def test_public_facts_perfect_information_the_face_down_set_is_known():
    """Public facts the view keeps (docs/rulings/kingpin.md): nothing is hidden; right after a
    draw every resample is the state itself and shows the drawn tile face up."""
    g = kingmaker.make("kingpin", mafias="russian-yakuza", first_player="0")
    s = g.play(g.play(g.new_initial_state(), "play Vasili b1 N"), "draw Stepan")
    for seed in range(30):
        for p in (0, 1):
            t = g.sample_hidden(s, p, random.Random(seed))
            assert t == s and "Stepan" in [x["short"] for x in g.view(t, p)["players_info"][0]["face_up"]]
