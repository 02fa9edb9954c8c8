"""Kingpins: the designed deck, views and hidden information, the log, JSON, render, the bot,
and a short conformance run (the full 200-game run is in tests/test_conformance.py)."""

from __future__ import annotations

import json
import random

import pytest
from kingpins_helpers import deal, k, make, play, position, random_game

from kingmaker.conformance import check_game
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.errors import InvalidOptionError, InvalidStateError
from kingmaker.core.match import Match
from kingmaker.games.kingpins.data import (
    CODE,
    COPIES,
    DATA,
    FAMILIES,
    NUM_CARDS,
    RANK,
    VALUE,
    card_info,
    kinds,
    remove_card,
)
from kingmaker.games.kingpins.render import render
from kingmaker.games.kingpins.state import DEAL

# ---- the designed deck ----------------------------------------------------------------


def test_deck_two_red_and_two_black_families_of_ranks_1_to_12_plus_specials():
    """Designed deck (KP-D1, KP-D2): 4 x 12 ranked cards, 2 Femme Fatales and 2 Hideouts of
    each colour: 56 cards; every value in the data file is marked as designed."""
    assert sorted(f["colour"] for f in FAMILIES) == ["black", "black", "red", "red"]
    assert [r["rank"] for r in DATA["ranks"]] == list(range(1, 13))
    assert DATA["ranks"][-1]["name"] == "Kingpin"
    assert sum(COPIES) == NUM_CARDS == 56
    assert RANK[k("Hr")] == 0 and RANK[k("Hb")] == 0  # a Hideout is the card below a 1
    assert [VALUE[k(c)] for c in ("M1", "V11", "D12", "Fr", "Hb")] == [1, 11, 15, 5, 2]
    assert "designed" in DATA["_about"].lower()
    assert set(DATA["designed"]) >= {"families", "specials", "values", "abilities"}
    assert len(set(CODE)) == len(CODE)


def test_options_abilities_default_true_and_checked():
    """Option ``abilities``: a bool, default true; bad values are refused with a typed error."""
    assert make(2).abilities is True
    assert make(2, abilities="false").abilities is False
    with pytest.raises(InvalidOptionError):
        make(2, abilities="sometimes")


# ---- views and hidden information ----------------------------------------------------------


def test_views_show_own_hand_all_stacks_other_hand_sizes_and_stockpile_size():
    """Issue, Views: "own hand, all stacks (every card in a stack is face up), other hands'
    sizes, stockpile size"."""
    g = make(3)
    s = position(g, ["M7 V6", "D4 D5 D6", "B3"], {"N": "B8 D7", "NE": "V12"})
    v = g.view(s, 0)
    assert [c["code"] for c in v["hand"]] == ["M7", "V6"]
    assert v["hand"][0] == {
        "code": "M7", "name": "Enforcer", "family": "Moretti", "colour": "red", "rank": 7,
        "value": 7, "ability": "Rub Out",
    }
    # Keys a card does not have are left out: a Femme Fatale has no family, rank or ability.
    assert card_info(k("Fb")) == {"code": "Fb", "name": "Femme Fatale", "colour": "black", "value": 5}
    assert card_info(k("Hr"))["rank"] == 0 and card_info(k("Hr"))["ability"] == "Lie Low"
    assert v["hand_sizes"] == [2, 3, 1]
    assert [c["code"] for c in v["stacks"][0]["cards"]] == ["B8", "D7"]
    assert v["stacks"][4]["name"] == "NE" and v["stacks"][4]["kind"] == "corner"
    assert v["stockpile"] == 56 - 6 - 3
    text = json.dumps(v)
    for secret in ("D4", "D5", "D6", "B3"):
        assert f'"{secret}"' not in text
    spectator = g.view(s, None)
    assert "hand" not in spectator and '"M7"' not in json.dumps(spectator)


def test_views_are_equal_for_states_that_differ_only_in_hidden_cards():
    """A view never depends on another player's hand or on the stockpile's make-up."""
    g = make(2)
    a = position(g, ["M7 V6", "D4 D5"], {"N": "B8"})
    b = position(g, ["M7 V6", "B1 V12"], {"N": "B8"})
    assert a != b
    assert g.view(a, 0) == g.view(b, 0)
    assert g.view(a, 1) != g.view(b, 1)


def test_sample_hidden_redeals_only_what_the_player_cannot_see():
    g = make(3)
    s = position(g, ["M7 V6", "D4 D5 D6", "B3"], {"N": "B8 D7"})
    seen_other = set()
    for seed in range(20):
        t = g.sample_hidden(s, 0, random.Random(seed))
        g.validate_state(t)
        assert g.view(t, 0) == g.view(s, 0)
        assert t.hands[0] == s.hands[0] and t.stacks == s.stacks
        assert [h.bit_count() for h in t.hands] == [2, 3, 1]
        seen_other.add(t.hands[1])
        assert g.sample_hidden(t, 0, random.Random(seed)) == t
    assert len(seen_other) > 1


def test_observe_action_shows_a_drawn_card_only_to_the_drawer():
    """Hidden information in the log: a dealt or drawn card is named only to its receiver; a
    recruitment card turned up is public."""
    g = make(2)
    s = position(g, ["M10", "D4"], {"N": "B2"})
    s = play(g, s, "end turn")
    a = g.parse_action(s, "card V7")
    assert "V7" in g.observe_action(s, a, None, 0) or "Volkov" in g.observe_action(s, a, None, 0)
    other = g.observe_action(s, a, None, 1)
    assert "Volkov" not in other and "V7" not in other and "player 0 draws a card" == other
    t = g.new_initial_state()
    for _ in range(g.hand_deal):
        t = g.apply(t, g.chance_outcomes(t)[0][0])
    line = g.observe_action(t, g.chance_outcomes(t)[0][0], None, 1)
    assert "turned up on N" in line


def test_match_log_and_bot_never_see_secrets():
    """The heuristic reads only its own view: on any state sampled from that view it picks
    the same action as on the true state."""
    g = make(3)
    rng = random.Random(5)
    checked = 0
    for game_seed in range(11, 15):
        for s in random_game(g, game_seed, heuristic=True):
            cp = g.current_player(s)
            if cp >= 0:
                seed = rng.randrange(10**6)
                want = g.heuristic_action(s, cp, random.Random(seed))
                t = g.sample_hidden(s, cp, rng)
                assert g.heuristic_action(t, cp, random.Random(seed)) == want
                checked += 1
    assert checked > 600


# ---- JSON -------------------------------------------------------------------------------------


def test_json_round_trip_and_bad_states_are_refused():
    g = make(2)
    s = position(g, ["M7 V6", "D4"], {"N": "B8"})
    assert g.from_json(json.dumps(g.to_json(s))) == s
    data = g.to_json(s)
    data["state"]["hands"] = [s.hands[0], s.hands[0]]  # a card twice
    with pytest.raises(InvalidStateError, match="do not add up"):
        g.from_json(data)
    data = g.to_json(s)
    data["state"]["stacks"][0] = [k("B8"), k("B7")]  # not alternating colours
    with pytest.raises(InvalidStateError):
        g.from_json(data)
    data = g.to_json(s)
    data["state"]["stacks"][4] = [k("D11")]  # a corner holds a kingpin first
    data["state"]["unseen"] = remove_card(s.unseen, k("D11"))
    with pytest.raises(InvalidStateError):
        g.from_json(data)


# ---- render -----------------------------------------------------------------------------------


def test_render_draws_the_eight_stacks_around_the_stockpile():
    g = make(2)
    s = position(g, ["M7 V6", "D4"], {"N": "B8", "NE": "V12 D11"})
    text = render(g.view(s, 0))
    lines = text.splitlines()
    grid = [ln for ln in lines if "stockpile" in ln]
    assert grid and grid[0].index("W:") < grid[0].index("<stockpile") < grid[0].index("E:")
    assert "NE: V12..D11* (2)" in text
    assert "M7 Moretti Enforcer (red 7, worth 7, Rub Out)" in text
    assert "D4" not in text  # the other hand stays hidden


def test_render_shows_the_scored_round_and_the_winner():
    g = make(2)
    s = position(g, ["M3", "V5"], {"N": "B4"}, round=4, history=((0, 1), (0, 1), (0, 1), (0, 1)))
    s = play(g, s, "M3 on N")
    text = render(g.view(s, 1))
    assert "Round 5 scored" in text and "V5 -> 5 points" in text
    assert "Player 0 wins with the lowest total, 0 points (player 1: 9 points)." in text


# ---- the bot ---------------------------------------------------------------------------------


def test_bot_goes_out_and_plays_high_cards_first():
    g = make(2)
    rng = random.Random(0)
    s = position(g, ["M10", "D4"], {"N": "B11"})
    assert g.action_to_str(s, g.heuristic_action(s, 0, rng)) == "M10 on N"
    s = position(g, ["M10 M3 V12", "D4"], {"N": "B11", "E": "B4"})
    # The kingpin (worth 15) opens a syndicate before anything else.
    assert g.action_to_str(s, g.heuristic_action(s, 0, rng)) in {f"V12 to {c}" for c in ("NE", "SE", "SW", "NW")}
    s = position(g, ["M7 V6 D9 Hb", "D4"], {"N": "B8"})
    s = play(g, s, "M7 on N")
    assert g.action_to_str(s, g.heuristic_action(s, 0, rng)) == "discard V6"  # the most valuable


def test_bot_beats_the_random_bot_in_two_player_matches():
    """A short seeded sample (the 1000-game rate is in docs/rulings/kingpins.md)."""
    from kingmaker.agents import HeuristicAgent, RandomAgent

    g = make(2)
    wins = 0
    for seed in range(12):
        seat = seed % 2
        agents = [RandomAgent(), RandomAgent()]
        agents[seat] = HeuristicAgent()
        m = Match(g, agents, seed=seed)
        assert m.run()
        wins += m.returns()[seat] == 1.0
    assert wins >= 10


# ---- random play ----------------------------------------------------------------------------


@pytest.mark.parametrize("players,abilities", [(2, True), (3, False), (4, True)])
def test_random_play_keeps_the_deck_and_ends_after_five_rounds(players, abilities):
    g = make(players, abilities=abilities)
    for seed in range(3):
        last = None
        for s in random_game(g, seed):
            g.validate_state(s)
            last = s
        assert g.current_player(last) == TERMINAL
        assert len(last.history) == 5
        assert sum(g.returns(last)) == pytest.approx(players / 2)


@pytest.mark.parametrize("players,abilities", [(2, True), (3, False), (4, True)])
def test_conformance_quick(players, abilities):
    """One checked game per player count (tests/test_conformance.py runs 200 of each)."""
    check_game(make(players, abilities=abilities), range(1), hidden_every=10)


def test_chance_deal_probabilities_follow_the_copies_left():
    g = make(2)
    s = position(g, ["M10", "D4"], {"N": "B2"}, stockpile="Fr Fr V7")
    s = play(g, s, "end turn")
    outcomes = {g.action_to_str(s, a): p for a, p in g.chance_outcomes(s)}
    assert outcomes == pytest.approx({"card Fr": 2 / 3, "card V7": 1 / 3})
    s = deal(g, s, "Fr")
    assert kinds(s.unseen) == [k("V7"), k("Fr")]
    assert g.current_player(s) == 1 and g.current_player(g.new_initial_state()) == CHANCE


# ---- the search's evaluation (Game.evaluate) -----------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_evaluation_judges_only_the_standings_between_rounds(players):
    """Game End (lowest total wins): between rounds the estimate favours the lower total,
    shares evenly on equal totals, and pays out n/2 in all as the rank returns do; mid-round
    and during the first round nothing is judged (the search rolls out further)."""
    from dataclasses import replace

    game = make(players)
    judged = 0
    for s in random_game(game, 5, heuristic=True):
        est = game.evaluate(s)
        if not s.history or s.phase != DEAL or s.deal:
            assert est is None
            continue
        judged += 1
        assert sum(est) == pytest.approx(players / 2)
        lowest = min(range(players), key=lambda p: s.totals[p])
        if s.totals.count(s.totals[lowest]) == 1:
            assert max(est) == est[lowest] > 1 / 2
        even = game.evaluate(replace(s, totals=(s.totals[0],) * players))
        assert even == pytest.approx((0.5,) * players)
    assert judged == 4  # after rounds 1 to 4; the fifth ends the game


def test_evaluation_trusts_a_lead_more_as_the_rounds_run_out():
    from dataclasses import replace

    game = make(2)
    s = next(s for s in random_game(game, 7, heuristic=True) if s.phase == DEAL and s.history and not s.deal)
    ahead = [game.evaluate(replace(s, round=r, totals=(10, 25)))[0] for r in (1, 2, 3, 4)]
    assert 0.5 < ahead[0] < ahead[1] < ahead[2] < ahead[3] < 1.0
