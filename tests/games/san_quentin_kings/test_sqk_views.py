"""Hidden information, notation, errors, rendering and random-play invariants."""

from __future__ import annotations

import json
import random

import pytest
from sqk_helpers import COBRA, SCORPION, TARANTULA, fight, game, goods, start

from kingmaker.agents import HeuristicAgent, RandomAgent
from kingmaker.core import Match
from kingmaker.core.api import CHANCE, SIMULTANEOUS, TERMINAL
from kingmaker.core.errors import IllegalActionError, InvalidActionError, InvalidStateError
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import COMM_B, SHANK_B
from kingmaker.games.san_quentin_kings.render import render


def test_views_own_shanks_and_drug_colours_others_counts_only() -> None:
    """Views: a player sees their own shank cards by type and drug chips by colour, others' counts."""
    g = game(3)
    s = start(g, initiator=0, shanks=[COBRA, SCORPION, TARANTULA])
    s = goods(s, 1, drugs=[0, 2, 1])
    v = g.view(s, 0)
    assert v["yours"] == {"shank_cards": [1, 0, 0], "drug_chips": [0, 0, 0]}
    assert v["gangs"][1]["shank_cards"] == 1 and v["gangs"][1]["drug_chips"] == 3
    text = json.dumps(v)
    assert "yours" not in json.dumps(g.view(s, None))
    assert g.view(s, 1)["yours"]["drug_chips"] == [0, 2, 1]
    # Nothing in player 0's view depends on how player 1's cards are split.
    t = goods(goods(s, 1, shanks=[0, 0, 0]), 1, shanks=[0, 0, 1], drugs=[3, 0, 0])
    assert g.view(t, 0) == g.view(s, 0) and json.dumps(g.view(t, 0)) == text


def test_sample_hidden_redeals_only_what_the_player_cannot_see() -> None:
    g = game(4)
    s = start(g, initiator=0, shanks=[COBRA, SCORPION, TARANTULA, COBRA])
    s = goods(s, 2, drugs=[1, 1, 1])
    s = g.play(s, "choose shank")
    s = g.play(s, "fist C1 S1 T1", player=3)
    seen = set()
    for k in range(40):
        t = g.sample_hidden(s, 0, random.Random(k))
        assert g.view(t, 0) == g.view(s, 0)
        assert t.goods[0:13] == s.goods[0:13]
        g.validate_state(t)
        seen.add((t.goods[2 * 13 + 3 : 2 * 13 + 6], t.fists[3]))
    assert len(seen) > 5  # other hands and the committed fist are redealt


def test_fist_never_leaks_through_errors_or_logs() -> None:
    """A fist is secret until the reveal: not in other views, logs or error messages."""
    g = game(3)
    s = start(g, initiator=0)
    s = g.play(s, "choose commissary")
    s = g.play(s, "fist C3 S0 T2", player=1)
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "fist C0 S0 T0", player=1)  # already committed
    assert "C3" not in str(e.value) and "T2" not in str(e.value)
    log = [g.observe_action(s, A.fist(3, 0, 2), 1, q) for q in (0, 2, None)]
    assert all("C3" not in line for line in log)
    for q in (0, 2, None):
        assert "fist" not in json.dumps(g.view(s, q)["fight"]["fists"][1])


def test_observe_action_hides_secret_deals() -> None:
    g = game(3)
    s = g.apply(g.new_initial_state(), A.CH_PLAYER0 + 1)
    assert g.observe_action(s, A.CH_SHANK0 + SCORPION, None, 0) == "you receive a scorpion shank card"
    assert g.observe_action(s, A.CH_SHANK0 + SCORPION, None, 1) == "player 0 receives a shank card"
    # Several at once (a Shank block payout of 3 to player 1).
    g2 = game(3)
    t = fight(g2, start(g2, initiator=0), SHANK_B, {1: [1, 0, 0]})
    t = g2.play(t, "pass")
    a = A.multi(A.CH_SHANKS0, (2, 0, 1))
    assert g2.observe_action(t, a, None, 1) == "you receive shank cards C2 S0 T1"
    assert g2.observe_action(t, a, None, 0) == "player 1 receives 3 shank cards"
    assert g2.view(t, 2)["pending"] == ["player 1 receives 3 shank cards"]


def test_notation_round_trips_and_malformed_text_is_rejected() -> None:
    for a in range(A.NUM_ACTIONS):
        assert A.parse(A.to_str(a)) == a
    g = game(3)
    s = start(g)
    with pytest.raises(InvalidActionError):
        g.play(s, "choose the yard")
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "fist C1 S0 T0", player=0)
    assert "action block" in str(e.value)


def test_bad_state_json_is_rejected() -> None:
    g = game(3)
    s = start(g)
    data = g.to_json(s)
    assert g.from_json(json.loads(json.dumps(data))) == s
    bad = json.loads(json.dumps(data))
    bad["state"]["goods"][6] = 99  # commissary that does not exist
    with pytest.raises(InvalidStateError):
        g.from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["state"]["cards"] = "none"
    with pytest.raises(InvalidStateError):
        g.from_json(bad)
    with pytest.raises(InvalidStateError):
        g.from_json({"game": "kings-kilt", "state": {}})
    bad = json.loads(json.dumps(data))
    bad["state"]["phase"] = 13  # a new-arrival pick with nobody placed
    with pytest.raises(InvalidStateError):
        g.from_json(bad)
    bad = json.loads(json.dumps(data))
    bad["state"]["queue"] = [9999]
    with pytest.raises(InvalidStateError):
        g.from_json(bad)


def test_render_shows_blocks_tracks_gangs_and_the_fight_area() -> None:
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [2, 0, 0], 1: [0, 1, 1]}, cards={0: (0,)})
    text = render(g.view(s, 0))
    assert "Blocks played this year: none" in text
    assert "FIGHT: Commissary" in text and "strength C3 S0 T0" in text
    assert "player 1" in text and "Your shank cards: Cobra x1" in text
    for q in (None, 1, 2):
        render(g.view(s, q))


def _play_random(g, seed: int, check) -> None:
    rng = random.Random(seed)
    s = g.new_initial_state()
    while True:
        check(s)
        p = g.current_player(s)
        if p == TERMINAL:
            return
        if p == CHANCE:
            outs = g.chance_outcomes(s)
            s = g.apply(s, rng.choices([a for a, _ in outs], [w for _, w in outs])[0])
        else:
            q = p if p != SIMULTANEOUS else rng.choice(g.acting_players(s))
            s = g.apply(s, rng.choice(g.legal_actions(s, q)), q)


@pytest.mark.parametrize("n", [3, 4, 5])
def test_random_play_keeps_every_count_and_ends_scored(n: int) -> None:
    """Random games: pieces, cards, drugs, cubes and chips always add up (validate_state), the year
    never passes 3 before the riot, and the end scores every category."""
    g = game(n, guards=(6, 8, 10)[n - 3])
    years = []

    def check(s):
        g.validate_state(s)
        years.append(s.year)
        if g.current_player(s) == SIMULTANEOUS:
            assert all(f >= -2 for f in s.fists)

    for seed in range(6):
        years.clear()
        _play_random(g, seed, check)
        assert years[-1] == 4 and sorted(set(years)) == [1, 2, 3, 4]


def test_heuristic_bot_plays_legal_moves_against_random_bots() -> None:
    g = game(4)
    for seed in range(3):
        m = Match(g, [HeuristicAgent(), RandomAgent(), HeuristicAgent(), RandomAgent()], seed=seed)
        assert m.run()
        assert abs(sum(m.returns()) - 1.0) < 1e-9


def test_heuristic_reads_only_what_its_player_may_know() -> None:
    """The bot's choice is the same on any state consistent with its player's view."""
    g = game(4)
    rng = random.Random(5)
    checked = 0
    for seed in range(3):
        s = g.new_initial_state()
        while g.current_player(s) != TERMINAL:
            p = g.current_player(s)
            if p == CHANCE:
                outs = g.chance_outcomes(s)
                s = g.apply(s, rng.choices([a for a, _ in outs], [w for _, w in outs])[0])
                continue
            q = p if p >= 0 else g.acting_players(s)[0]
            a = g.heuristic_action(g.sample_hidden(s, q, random.Random(1)), q, random.Random(7))
            b = g.heuristic_action(g.sample_hidden(s, q, random.Random(2)), q, random.Random(7))
            assert a == b, (g.view(s, q)["phase"], A.to_str(a), A.to_str(b))
            checked += 1
            s = g.apply(s, a if seed else rng.choice(g.legal_actions(s, q)), q)
    assert checked > 300


def test_illegal_fight_moves_say_why() -> None:
    """Bad input gets a clear typed error naming the reason, and leaves the state unchanged."""
    g = game(3)
    s = start(g, initiator=2)
    s = fight(g, s, COMM_B, {0: [1, 0, 0], 1: [1, 0, 0]})
    before = g.to_json(s)
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "shank scorpion")
    assert "no shank card of that type" in str(e.value)
    with pytest.raises(IllegalActionError) as e:
        g.play(s, "end turn")
    assert "first play" in str(e.value)
    t = g.play(s, "shank cobra")
    with pytest.raises(IllegalActionError) as e:
        g.play(t, "draw")
    assert "played this round's cards" in str(e.value)
    assert g.to_json(s) == before
