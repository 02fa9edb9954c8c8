"""The research surface (issue 13 §1): action space, chance range, checked apply, observation
tensor, information state string, and the public facts the view keeps (perfect recall)."""

from __future__ import annotations

import json
import random

import pytest
from ggc_helpers import C, P, game, position

from kingmaker.core.api import CHANCE
from kingmaker.core.errors import InvalidActionError
from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city import observe as O
from kingmaker.games.gangs_of_green_city.data import ESC_CARD0, NUM_HERO, POI_NAMES
from kingmaker.games.gangs_of_green_city.state import DRAW, ESC_BOTTOM


def _random_states(g, seed: int, steps: int = 400):
    rng = random.Random(seed)
    s = g.new_initial_state()
    for _ in range(steps):
        if g.is_terminal(s):
            return
        yield s
        p = g.current_player(s)
        if p == CHANCE:
            acts = [a for a, _ in g.chance_outcomes(s)]
            s = g.apply(s, rng.choice(acts))
        else:
            s = g.apply(s, rng.choice(g.legal_actions(s)), p)


def test_action_space_and_chance_range_are_declared() -> None:
    g = game(3)
    assert g.info.num_distinct_actions == A.CAST0 == 1081
    assert g.info.max_chance_outcomes == A.NUM_ACTIONS == 1193
    assert g.info.observation_shape == (O.OBSERVATION_SIZE,) == (1148,)
    for s in _random_states(g, 1):
        p = g.current_player(s)
        if p == CHANCE:
            assert all(A.CAST0 <= a < A.NUM_ACTIONS for a, _ in g.chance_outcomes(s))
        else:
            legal = g.legal_actions(s)
            assert legal[-1] < 1081
            assert [a for a, m in enumerate(g.legal_actions_mask(s, p)) if m] == legal


def test_apply_rejects_actions_outside_the_space_and_chance_outcomes_not_offered() -> None:
    g = game()
    s = position(g, cast=["Mayor Maple", "Professor Vance"], pawns=["Iago", "Stadium"], moves=1,
                 gang_disc=("Courthouse",))
    before = g.to_json(s)
    for bad in (-1, 1081, 5000, 1.5, "travel Lighthouse"):
        with pytest.raises(InvalidActionError):
            g.apply(s, bad)
    s2 = g.play(s, "travel Lighthouse")
    assert s2.stage == DRAW and g.current_player(s2) == CHANCE
    for bad in (0, A.GDRAW0 + P("Iago"), A.HDRAW0 + NUM_HERO + 6, A.CAST0, 1193, -5):
        with pytest.raises(InvalidActionError):
            g.apply(s2, bad)
    s3 = g.play(s2, "escalation 1")
    assert s3.stage == ESC_BOTTOM
    with pytest.raises(InvalidActionError):  # the bottom card never comes from the discard pile
        g.apply(s3, A.GDRAW0 + P("Courthouse"))
    assert g.to_json(s) == before
    # every offered outcome is accepted, and nothing else of the chance range
    for st in (s2, s3):
        offered = {a for a, _ in g.chance_outcomes(st)}
        for a in range(A.CAST0, A.NUM_ACTIONS):
            if a in offered:
                g.apply(st, a)
            else:
                with pytest.raises(InvalidActionError):
                    g.apply(st, a)


def test_observation_tensor_is_seat_relative_and_follows_the_documented_layout() -> None:
    g = game(3)
    s = position(g, cast=["Mayor Maple", "Professor Vance", "Green Ghost"], pawns=["Iago", "Stadium", "Iago"],
                 hands=[["Iago"], ["Lighthouse", "Quiet Night"], []], spheres={"Iago": 2}, war=3, esc=2,
                 current=1, gang_layers=(("Swamp Gate",), ("Courthouse", "Catacombs")))
    t0, t1 = g.observation_tensor(s, 0), g.observation_tensor(s, 1)
    assert len(t0) == len(t1) == 1148 and t0 != t1
    iago = P("Iago")
    assert t0[O.O_SPHERES + iago * 4 + 0] == pytest.approx(2 / 3)
    assert t0[O.O_WAR + 3] == 1.0 and t0[O.O_ESC + 2] == 1.0
    hand = 1 + 5 + 49
    # seat 0 is the observer: player 1 sees its own hand in block 0, player 0's in block 2
    assert t1[O.O_SEATS + hand + C("Lighthouse")] == 1.0 and t1[O.O_SEATS + hand + C("Quiet Night")] == 1.0
    assert t1[O.O_SEATS + 2 * O.SEAT + hand + C("Iago")] == 1.0
    assert t0[O.O_SEATS + hand + C("Iago")] == 1.0
    assert t1[O.O_SEATS + 1 + 1] == 1.0  # Professor Vance (cast 1) in the observer's block
    assert t0[O.O_ACTIVE + 1] == 1.0 and t1[O.O_ACTIVE + 0] == 1.0  # player 1's turn
    assert t0[O.O_SEATS + 3 * O.SEAT] == 0.0  # no fourth seat
    assert t0[O.O_LAYERS + P("Swamp Gate")] == 1.0 and t0[O.O_LAYERS + P("Courthouse")] == 0.5
    assert t0[O.O_OPTIONS + 2] == 1.0


def test_information_state_strings_follow_the_view_and_are_far_cheaper_than_its_json() -> None:
    g = game(3)
    prev = None
    for s in _random_states(g, 7, 300):
        v = [g.view(s, p) for p in range(3)]
        iss = [g.information_state_string(s, p) for p in range(3)]
        assert len(set(iss)) == 3  # the views differ in "you"
        assert g.information_state_string(g.from_json(g.to_json(s)), 0) == iss[0]
        if prev is not None:
            assert (prev[0] == v[0]) == (prev[1] == iss[0])
        prev = (v[0], iss[0])
        # the string is a short repr of fields, not a dump of the view with its map
        assert len(iss[0]) * 3 < len(json.dumps(v[0], sort_keys=True))


# ---- public facts the view keeps (docs/rulings/gangs-of-green-city.md) ----------------------------
def test_fact_an_escalation_drawn_from_a_pile_leaves_that_pile_without_one() -> None:
    """Right after an ESCALATION! comes from the top pile, every sampled hero deck keeps that
    pile free of ESCALATION! cards and one in each pile below."""
    g = game(2)
    s = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Iago", "Stadium"], moves=1)
    s = g.play(s, "travel Lighthouse")
    s = g.play(s, "escalation 3")
    s = g.play(s, "gang card Iago")
    assert s.pile_esc[0] == 0 and s.piles[0] == 9
    for seed in range(300):
        rng = random.Random(seed)
        assert g.sample_hidden(s, 1, rng) == s
        order = g.sample_hero_deck(s, rng)
        assert not any(c >= ESC_CARD0 for c in order[:9])
        assert ESC_CARD0 + 2 not in order
        start = 9
        for size in s.piles[1:]:
            assert sum(c >= ESC_CARD0 for c in order[start:start + size]) == 1
            start += size


def test_fact_discarded_and_removed_gang_cards_are_not_in_the_draw_pile() -> None:
    """Right after Witness Protection (and with a discard pile), no sampled gang deck holds a
    discarded or removed card; the layer laid by the ESCALATION! comes first."""
    g = game(2)
    s = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Iago", "Stadium"], moves=1,
                 hands=[["Witness Protection"], []], gang_disc=("Courthouse", "Catacombs"))
    s = g.play(s, "play Witness Protection")
    s = g.play(s, "protect Catacombs")
    assert s.gang_out == (P("Catacombs"),)
    for seed in range(200):
        order = g.sample_gang_deck(s, random.Random(seed))
        assert P("Catacombs") not in order and P("Courthouse") not in order
        assert len(order) == len(POI_NAMES) - 2
