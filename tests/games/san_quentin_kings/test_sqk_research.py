"""The research surface (issue 13 section 1): action and chance ranges, apply's range check, the
observation tensor, the information state string, figures and the outcome sentence."""

from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from sqk_helpers import COBRA, SCORPION, fight, game, goods, start

from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.errors import InvalidActionError
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings import observe
from kingmaker.games.san_quentin_kings.data import COMM_B
from kingmaker.games.san_quentin_kings.state import P_END


def test_declared_ranges_cover_every_action_and_chance_outcome() -> None:
    """Player actions are 0..850 (actions.py), chance outcomes 851..1000: both inside the declared ranges."""
    g = game(5)
    assert g.info.num_distinct_actions == A.CH_PLAYER0 == 851
    assert g.info.max_chance_outcomes == A.NUM_ACTIONS == 1001
    assert g.info.observation_shape == (observe.GLOBAL + 5 * observe.SEAT,)
    assert A.PICK0 + 2 < g.info.num_distinct_actions


def test_apply_rejects_actions_outside_the_ranges_and_chance_outcomes_not_offered() -> None:
    """apply raises InvalidActionError (no silent corruption) and leaves its input as it was."""
    g = game(3)
    s = g.new_initial_state()
    before = g.to_json(s)
    for bad in (-1, 3, A.CH_PLAYER0 + 3, A.CH_SHANK0, 5000, "1", 1.0):
        with pytest.raises(InvalidActionError):
            g.apply(s, bad)
    assert g.to_json(s) == before
    s = start(g, initiator=0)
    for bad in (-5, A.CH_PLAYER0, A.CH_PLAYER0 + 20, 10**6):
        with pytest.raises(InvalidActionError):
            g.apply(s, bad)
    # A fight card the deck no longer holds is not offered.
    s = fight(g, goods(s, 0, chips=0), COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]}, pos=2)
    s = g.play(s, "draw")
    deck = list(s.fdeck)
    deck[7] = 0  # the Grave is gone
    s = replace(s, fdeck=tuple(deck), fdisc=tuple(1 if k == 7 else 0 for k in range(11)))
    with pytest.raises(InvalidActionError, match="not a chance outcome"):
        g.apply(s, A.CH_CARD0 + 7)
    assert g.apply(s, A.CH_CARD0 + 0) is not None


def test_observation_tensor_is_seat_relative() -> None:
    """Seat 0 of the encoding is the observer, seat 1 the next player clockwise."""
    g = game(3)
    s = goods(goods(start(g, initiator=0, shanks=[COBRA, SCORPION, COBRA]), 1, respect=5), 2, respect=9)
    base, seat = observe.GLOBAL, observe.SEAT
    for p in range(3):
        t = g.observation_tensor(s, p)
        assert len(t) == base + 3 * seat
        assert [t[base + r * seat + 50] for r in range(3)] == [[0, 5, 9][(p + r) % 3] for r in range(3)]
        assert t[base + 0] == (1.0 if p == 0 else 0.0)  # the initiator flag of seat 0
    # Seat 0's own hand: player 1 sees their Scorpion, player 0 their Cobra.
    assert list(g.observation_tensor(s, 1)[59:62]) == [0.0, 1.0, 0.0]
    assert list(g.observation_tensor(s, 0)[59:62]) == [1.0, 0.0, 0.0]


def _walk(g, seed: int):
    rng = random.Random(seed)
    s = g.new_initial_state()
    while g.current_player(s) != TERMINAL:
        yield s
        if g.current_player(s) == CHANCE:
            outs = g.chance_outcomes(s)
            s = g.apply(s, rng.choices([a for a, _ in outs], [w for _, w in outs])[0])
        else:
            p = rng.choice(g.acting_players(s))
            s = g.apply(s, g.heuristic_action(s, p, rng), p)
    yield s


def test_information_state_string_tells_views_apart_exactly() -> None:
    """Equal views give equal strings and different views different ones, over a whole game (each
    step against the previous one, every player and the spectator), and on resamples."""
    g = game(4)
    prev: dict = {}
    for step, s in enumerate(_walk(g, 3)):
        for p in [0, 1, 2, 3, None]:
            v = json.dumps(g.view(s, p), sort_keys=True)
            i = g.information_state_string(s, p)
            if p in prev:
                assert (prev[p][0] == v) == (prev[p][1] == i), (step, p)
            prev[p] = (v, i)
            if p is not None and step % 7 == 0:
                t = g.sample_hidden(s, p, random.Random(step))
                assert g.information_state_string(t, p) == i
                assert g.observation_tensor(t, p) == g.observation_tensor(s, p)


def test_outcome_names_the_winner_and_how_a_tie_was_broken_sqk_20() -> None:
    """End Game Scoring: most respect wins; ruling SQK-20 breaks a tie by fight points."""
    g = game(3)
    s = replace(start(g, initiator=0), phase=P_END, year=4)
    out = g.outcome(replace(goods(s, 1, respect=3), phase=P_END))
    assert out["winners"] == [1] and out["reason"] == "most_respect"
    assert out["text"].startswith("player 1 wins with ") and out["text"].endswith(" respect")
    t = goods(goods(s, 1, respect=2, fp=1), 2, respect=2)
    out = g.outcome(t)
    # Fight King gives 14 to player 1 (1 fight point) and 7 each to the others (0).
    assert out["reason"] == "most_respect"
    t = goods(goods(s, 1, respect=7, fp=1), 2, respect=14)
    out = g.outcome(t)
    assert out["winners"] == [1] and out["reason"] == "tie_fight_points"
    r = g.scores(t)
    assert r[1] == r[2] > r[0]
    assert out["text"] == (f"tie on {r[1]} respect between player 1 and player 2, broken by fight points: "
                           "player 1 wins with 1 fight point (against 0)")
    out = g.outcome(s)
    assert out["reason"] == "shared" and out["winners"] == [0, 1, 2]
    r = g.scores(s)[0]
    assert out["text"] == f"player 0, player 1 and player 2 share the win: tie on {r} respect and 0 fight points"


def test_figures_give_one_number_per_seat() -> None:
    g = game(3)
    s = replace(goods(start(g, initiator=0), 2, fp=3, chips=2), phase=P_END, year=4)
    f = g.figures(s)
    assert set(f) == set(g.info.figures)
    assert f["fight_points"] == (0, 0, 3) and f["bribe_chips"] == (1, 1, 2)
    assert f["respect"] == tuple(b["total"] for b in g.score_breakdown(s))
    assert f["pieces_left"] == (9, 9, 9)


def test_a_fist_is_typed_as_three_numbers() -> None:
    """Preparing to Fight: each player secretly places pieces from their cell in a fist; a person types
    it as three numbers (Cobras Scorpions Tarantulas) or as notation."""
    g = game(3)
    s = g.play(start(g, initiator=0), "choose commissary")
    prompt = g.move_prompt(s, 1)
    assert "three numbers" in prompt and "C3 S3 T3" in prompt
    assert g.parse_action(s, "2 1 0", 1) == A.fist(2, 1, 0)
    assert g.parse_action(s, "2,1,0", 1) == A.fist(2, 1, 0)
    assert g.parse_action(s, "C2 S1 T0", 1) == A.fist(2, 1, 0)
    assert g.parse_action(s, "fist C2 S1 T0", 1) == A.fist(2, 1, 0)
    s = g.play(s, "1 0 2", player=1)
    assert g.view(s, 1)["yours"]["fist"] == [1, 0, 2]
    assert g.move_prompt(s, 1) is None  # committed
    with pytest.raises(InvalidActionError):
        g.parse_action(s, "9 9 9", 2)
    assert g.move_prompt(start(g, initiator=0), 0) is None


def test_information_state_string_is_built_from_the_state_not_the_view(monkeypatch) -> None:
    """The string never builds a view (search agents key on it; it is measured about 10x cheaper than
    the view as JSON): it still works with the view module's builder switched off."""
    from kingmaker.games.san_quentin_kings import view

    g = game(3)
    s = g.play(start(g, initiator=0), "choose shank")
    want = g.information_state_string(s, 1)

    def boom(*_a, **_k):
        raise AssertionError("the view was built")

    monkeypatch.setattr(view, "_public", boom)
    monkeypatch.setattr(view, "view", boom)
    assert g.information_state_string(s, 1) == want
