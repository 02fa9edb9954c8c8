"""The game behind the contract: info, options, notation, errors, JSON, views, render, bot."""

from __future__ import annotations

import json
import random

import pytest
from ggc_helpers import P, game, names, position

import kingmaker
from kingmaker import GameError, IllegalActionError, InvalidActionError, InvalidStateError
from kingmaker.core.api import CHANCE
from kingmaker.games.gangs_of_green_city.render import render
from kingmaker.games.gangs_of_green_city.view import card


def test_info_declares_a_cooperative_game_with_chance_and_open_information() -> None:
    g = kingmaker.make("gangs-of-green-city", players=5)
    info = g.info
    assert info.cooperative and info.constant_sum is None and not info.zero_sum
    assert info.has_chance and info.perfect_information
    assert (info.min_players, info.max_players) == (2, 5)
    assert {o.name for o in info.options} == {"escalations", "continue_the_fight", "starting_hands", "weaknesses"}
    defaults = {o.name: o.default for o in info.options}
    assert defaults["starting_hands"] is False and defaults["weaknesses"] == "escalation"


def test_options_and_player_counts_are_checked() -> None:
    with pytest.raises(GameError):
        kingmaker.make("gangs-of-green-city", players=1)
    with pytest.raises(GameError):
        kingmaker.make("gangs-of-green-city", players=6)
    with pytest.raises(GameError, match="escalations"):
        kingmaker.make("gangs-of-green-city", players=2, escalations=7)
    g = kingmaker.make("gangs-of-green-city", players=2, escalations="4", continue_the_fight="true")
    assert g.num_escalations == 4 and g.continue_fight


def test_malformed_text_is_an_invalid_action_and_leaves_the_state_unchanged() -> None:
    g = game()
    s = position(g, cast=["Professor Vance", "Mayor Maple"], pawns=["Iago", "Iago"])
    before = g.to_json(s)
    for text in ("", "fly to the moon", "travel Atlantis", "battle Pirates", "give Iago to p9"):
        with pytest.raises(InvalidActionError):
            g.play(s, text)
    assert g.to_json(s) == before


def test_illegal_moves_say_why_and_name_the_accepted_moves() -> None:
    g = game()
    s = position(g, cast=["Professor Vance", "Mayor Maple"], pawns=["Iago", "Iago"])
    with pytest.raises(IllegalActionError, match="no sphere of that gang") as e:
        g.play(s, "battle Tonys")
    assert "accepted" in str(e.value) and "travel" in str(e.value)
    with pytest.raises(IllegalActionError, match="only Mayor Maple"):
        g.play(s, "dispatch p1 to Old Cannery")
    with pytest.raises(kingmaker.NotYourTurnError):
        g.play(s, "travel Old Cannery", 1)


def test_notation_round_trips_for_every_kind_of_move() -> None:
    g = game(3)
    s = position(g, cast=["Mayor Maple", "Detective Ruiz", "Nell the Cabbie"], pawns=["Iago", "Iago", "Stadium"],
                 hands=[["Iago", "DeVos Financial", "Quiet Night"], ["Lighthouse"], []],
                 safe=("Green City High School", "Iago", "Stadium"), spheres={"Iago": 2})
    acts = g.legal_actions(s)
    texts = [g.action_to_str(s, a) for a in acts]
    assert len(set(t.lower() for t in texts)) == len(texts)
    for a, t in zip(acts, texts):
        assert g.parse_action(s, t) == a
        assert g.parse_action(s, "  " + t.upper() + " ") == a
    kinds = {t.split()[0] for t in texts}
    assert {"travel", "escape", "ride", "battle", "give", "take", "dispatch", "play"} <= kinds


def test_json_round_trip_and_bad_states_are_rejected() -> None:
    g = game()
    s = position(g, cast=["Professor Vance", "Mayor Maple"], pawns=["Iago", "Iago"], hands=[["Iago"], []])
    data = json.loads(json.dumps(g.to_json(s)))
    assert g.from_json(data) == s
    bad = json.loads(json.dumps(data))
    bad["state"]["hands"] = [[4], [4]]  # one card in two hands
    with pytest.raises(InvalidStateError):
        g.from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["state"]["supply"] = [20, 24, 24, 24]
    with pytest.raises(InvalidStateError, match="24"):
        g.from_json(bad)


def test_views_are_the_same_for_every_seat_and_carry_the_map() -> None:
    """Sharing Information About Cards: 'Players may freely tell each other what cards they have.'"""
    g = game(3)
    s = position(g, cast=["Mayor Maple", "Detective Ruiz", "Nell the Cabbie"], pawns=["Iago", "Iago", "Stadium"],
                 hands=[["Iago"], ["Lighthouse"], ["Quiet Night"]], spheres={"Iago": 2})
    views = [g.view(s, p) for p in (0, 1, 2, None)]
    for v in views:
        json.dumps(v)
        del v["you"]
    assert views[0] == views[1] == views[2] == views[3]
    v = views[0]
    m = v["map"]
    assert len(m["names"]) == len(m["x"]) == len(m["y"]) == 49 and m["names"][m["park"]] == "Center Park"
    assert len(m["edges"]) % 2 == 0 and set(m["wrap_edges"]) >= {P("Iago"), P("Alien Weapons Marketplace")}
    assert v["spheres"] == {"Iago": [2, 0, 0, 0]}
    assert v["players_info"][2]["hand"] == ["Quiet Night"] and v["players_info"][1]["cast"] == "Detective Ruiz"
    assert card(P("Iago"))["gang"] == "The Tonys"


def test_render_shows_districts_spheres_safe_houses_pawns_meters_and_hands() -> None:
    g = game(2)
    s = position(g, cast=["Mayor Maple", "Detective Ruiz"], pawns=["Iago", "Stadium"],
                 hands=[["DeVos Financial"], ["Quiet Night"]], spheres={"Iago": 2}, war=3, esc=2)
    text = render(g.view(s, 0))
    for part in ("Little Palermo", "The Hollows", "Iago", "T2", "SAFE HOUSE", "pawn p0", "War meter 3/8",
                 "[2]", "DeVos Financial", "Quiet Night", "Mayor Maple", "p0 (you)"):
        assert part in text, part


def test_returns_are_shared_by_the_whole_team() -> None:
    g = game(4)
    rng = random.Random(0)
    for seed in range(3):
        rng.seed(seed)
        s = g.new_initial_state()
        while not g.is_terminal(s):
            p = g.current_player(s)
            if p == CHANCE:
                s = g.apply(s, rng.choice(g.chance_outcomes(s))[0])
            else:
                s = g.apply(s, rng.choice(g.legal_actions(s, p)), p)
        r = g.returns(s)
        assert len(set(r)) == 1 and r[0] in (0.0, 1.0)


def test_heuristic_bot_plays_legal_moves_to_the_end() -> None:
    for players in (2, 5):
        g = game(players)
        rng = random.Random(players)
        s = g.new_initial_state()
        steps = 0
        while not g.is_terminal(s):
            p = g.current_player(s)
            if p == CHANCE:
                outs = g.chance_outcomes(s)
                s = g.apply(s, outs[rng.randrange(len(outs))][0])
            else:
                a = g.heuristic_action(s, p, rng)
                assert a in g.legal_actions(s, p)
                s = g.apply(s, a, p)
            steps += 1
            assert steps <= g.info.max_game_length
        assert names(g, s) == []
