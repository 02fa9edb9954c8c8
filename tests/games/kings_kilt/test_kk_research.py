"""King's Kilt research surface: action space, chance range, tensor, information state,
the public facts the view keeps (perfect recall), outcome and figures, and the terminal.

Rulebook sections are quoted in each test; positions use the helpers of test_kk_rules.
"""

from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from test_kk_rules import BASE, C, full_pyramid, kind, play, position

import kingmaker
from kingmaker import CHANCE, InvalidActionError
from kingmaker.cli import main
from kingmaker.conformance import check_game
from kingmaker.games.kings_kilt import actions as A
from kingmaker.games.kings_kilt import view as V
from kingmaker.games.kings_kilt.data import CLANS
from kingmaker.games.kings_kilt.state import SETUP_FAMILY, State


@pytest.fixture
def g2():
    return kingmaker.make("kings-kilt", players=2)


@pytest.fixture
def g3():
    return kingmaker.make("kings-kilt", players=3)


def random_states(game, seed: int):
    """Yields every state of one seeded random game."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    while True:
        yield s
        if game.is_terminal(s):
            return
        if game.current_player(s) == CHANCE:
            out = game.chance_outcomes(s)
            a = rng.choices([a for a, _ in out], [p for _, p in out])[0]
        else:
            a = rng.choice(game.legal_actions(s))
        s = game.apply(s, a)


# ---- action space and chance range ------------------------------------------------------


def test_action_space_is_240_player_actions_and_16_chance_outcomes():
    for n in (2, 3, 4):
        info = kingmaker.make("kings-kilt", players=n).info
        assert info.num_distinct_actions == 240 and info.max_chance_outcomes == 16
    assert A.to_str(239) == "reveal Wallace" and A.card_str(15) == "card Wallace leader"


def test_apply_rejects_actions_outside_the_range_and_chance_cards_not_offered(g2):
    """Setting up: 'Deal three Clan Members ... to each player' (a family holds distinct clans,
    KK-4): a second Bruce is not a chance outcome for a player who holds one."""
    s = g2.new_initial_state()
    s = g2.apply(s, A.card(C["Bruce"]))  # player 0's first family card
    s = g2.apply(s, A.card(C["Stewart"]))  # player 1's
    before = g2.to_json(s)
    for bad in (C["Bruce"], C["Bruce"] + 8, 16, -1, 240, "3", 1.0):  # a leader is never a family card
        with pytest.raises(InvalidActionError):
            g2.apply(s, bad)
    assert g2.to_json(s) == before
    p = position(g2, BASE)
    for bad in (-1, 240, 255, True):
        with pytest.raises(InvalidActionError):
            g2.apply(p, bad)


def test_chance_notation_is_typed_only_at_chance_nodes(g2):
    s = position(g2, BASE)
    with pytest.raises(InvalidActionError, match="card being dealt"):
        g2.parse_action(s, "card Bruce")
    t = g2.new_initial_state()
    assert g2.parse_action(t, "card Bruce") == A.card(C["Bruce"])
    with pytest.raises(InvalidActionError):
        g2.parse_action(t, "pass")


# ---- observation tensor --------------------------------------------------------------


def test_tensor_layout_matches_the_documented_offsets(g3):
    """The table in view.py: offsets of the pyramid, the observer's family and hand."""
    s = position(g3, BASE, family=[("Bruce", "Douglas", "Wallace"), ("Stewart", "MacBeth", "Hamilton"),
                                   ("Buchanan", "MacLeod", "Wallace")],
                 hands=[{"Stewart": 2}, {"Bruce": 1}, {}], revealed=[(), ("Stewart",), ()], current=1)
    n = 3
    t = list(g3.observation_tensor(s, 0))
    assert len(t) == 279 + 26 * n == g3.info.observation_shape[0]
    assert t[3] == 1.0  # phase: play
    assert t[8:8 + n] == [0.0, 1.0, 0.0]  # seat 1 (player 1) to move
    a1 = 15  # cell a1, Bruce member
    assert t[8 + 2 * n + 9 * a1: 8 + 2 * n + 9 * a1 + 9] == [1.0] + [0.0] * 8
    top = 197 + 2 * n  # MacBeth leader on the draw pile
    assert t[top + C["MacBeth"]] == 1.0 and t[top + 8] == 1.0
    fam = 263 + 16 * n
    assert [i for i in range(8) if t[fam + i]] == sorted([C["Bruce"], C["Douglas"], C["Wallace"]])
    assert t[fam + 8 + C["Stewart"]] == pytest.approx(2 / 5)  # float32
    # Seat-relative: for player 1, player 1's reveal is seat 0's block.
    t1 = list(g3.observation_tensor(s, 1))
    rev = 262 + 8 * n
    assert t1[rev + C["Stewart"]] == 1.0 and t[rev + 8 + C["Stewart"]] == 1.0
    assert t1[8] == 1.0  # player 1 is to move: seat 0 for them


def test_tensor_and_information_state_ignore_what_the_player_cannot_see(g3):
    """A tensor and a string are functions of the view: resampled hidden cards change neither."""
    for seed in range(3):
        for i, s in enumerate(random_states(g3, seed)):
            if i % 7:
                continue
            for p in range(3):
                t = g3.sample_hidden(s, p, random.Random(i))
                assert g3.observation_tensor(t, p) == g3.observation_tensor(s, p)
                assert g3.information_state_string(t, p) == g3.information_state_string(s, p)


def test_information_state_string_is_built_without_the_view(g2, monkeypatch):
    """The string reads state fields directly (no view dict, no JSON): cheap for search keys."""
    states = list(random_states(g2, 4))
    expect = [g2.information_state_string(s, 0) for s in states]
    monkeypatch.setattr(V, "view", lambda *a: pytest.fail("the string must not build the view"))
    assert [g2.information_state_string(s, 0) for s in states] == expect
    assert len(set(expect)) > len(states) // 2


# ---- public facts the view keeps (docs/rulings/kings-kilt.md) ----------------------------


def test_fact_revealed_family_card_kept_in_every_sample(g3):
    """Rewards: 'each opponent must turn one of their family cards face up': a card turned up
    stays known; every sample for another player keeps it in that family."""
    cells = dict(BASE, b1="Hamilton", b2="Buchanan", c1="Stewart", c2="Wallace")
    s = position(g3, cells, family=[("Bruce", "Douglas", "Wallace"), ("Stewart", "MacBeth", "Hamilton"),
                                    ("Buchanan", "MacLeod", "Wallace")])
    s = g3.play(s, "ascend c1 right")  # to d1: player 0 first reaches the Noblemen row
    while g3.current_player(s) != 1:
        s = g3.play(s, A.card(kind("Hamilton*")) if g3.current_player(s) == CHANCE else g3.legal_actions(s)[0])
    assert s.pending == (1, 2)
    s = g3.play(s, "reveal MacBeth")  # player 1 turns up MacBeth
    for seed in range(200):
        for p in (0, 2):
            t = g3.sample_hidden(s, p, random.Random(seed))
            assert C["MacBeth"] in t.family[1] and t.revealed[1] == s.revealed[1]


def test_fact_reshuffled_draw_pile_make_up_kept_in_every_sample(g2):
    """Ascending the Throne: 'In the rare case where cards run out, shuffle the discards to create
    a new draw pile.' Everyone saw the discards, so the new pile's cards are known (KK-16): a
    sample never swaps them with a hand's cards."""
    s = position(g2, BASE, top="Hamilton", discards={"Wallace": 2}, hands=[{"Stewart": 3}, {"MacBeth": 5}])
    # The unseen part of the pile is gone (moved out of the game); two of the ten influence
    # cards dealt were discarded.
    s = State(s.phase, 0, s.pyramid, s.top, (0,) * 16, 0, s.discards, s.unseen, s.family, s.revealed,
              s.hands, 0, -1, 0, -1, -1, (), 0)
    assert g2.view(s, 0)["draw_pile"]["known"] is None
    s = g2.play(s, "ascend a3 left")  # the draw pile runs out: the discards are reshuffled
    assert g2.view(s, 0)["draw_pile"]["known"] == {"Wallace": 2}
    for seed in range(200):
        t = g2.sample_hidden(s, 0, random.Random(seed))
        assert t.unseen == s.unseen  # the two Wallaces stay in the pile, never in player 1's hand
        assert t.hands[1][C["Wallace"]] + (C["Wallace"] in t.family[1]) == 1  # player 1's own Wallace
    s = g2.play(s, A.card(C["Wallace"]))  # one Wallace is turned up: one stays known
    assert g2.view(s, 1)["draw_pile"]["known"] == {"Wallace": 1}
    assert all(g2.sample_hidden(s, 1, random.Random(seed)).unseen == s.unseen for seed in range(50))


def test_fact_leaders_stay_in_the_draw_pile(g2):
    """Setting up: 'Shuffle the Clan Leaders and place them face up on top of the draw pile';
    family and influence cards are Clan Members (KK-2): no sample puts a leader in a hand."""
    s = position(g2, BASE, hands=[{"Stewart": 2}, {"Bruce": 3}])
    for seed in range(200):
        t = g2.sample_hidden(s, 0, random.Random(seed))
        assert t.unseen[8:] == s.unseen[8:] and all(k < 8 for k in t.family[1])


def _pile_pairs_exist(families, mine: tuple[int, ...]) -> bool:
    """Returns True when every family can name two cards from the one-per-clan pile: all distinct,
    and none of the observer's own two (a brute-force check, apart from the sampler)."""
    from itertools import combinations, product

    options = [list(combinations(f, 2)) for f in families]
    for pick in product(*options):
        cards = [k for pair in pick for k in pair]
        if len(set(cards)) == len(cards) and not set(cards) & set(mine):
            return True
    return False


def test_fact_one_per_clan_pile_cards_kept_in_every_sample():
    """Option family_deal=one-per-clan (KK-5, later printing): the first two family cards of every
    player come from a pile of one member per clan, so no two players share them, and each
    player knows which of their own three came from it. Every sample keeps that (KK-18)."""
    g = kingmaker.make("kings-kilt", players=4, family_deal="one-per-clan")
    for seed in range(5):
        m = kingmaker.Match(g, [None] * 4, seed=seed)
        while m.state.phase == SETUP_FAMILY:
            m.step_chance()
        s = m.state
        mine = s.family[0][:2]  # deal order: the two from the pile first
        assert [f["clan"] for f in g.view(s, 0)["family"]] == [CLANS[k] for k in s.family[0]]
        for r in range(40):
            t = g.sample_hidden(s, 0, random.Random(r))
            assert t.family[0] == s.family[0]
            assert _pile_pairs_exist([t.family[q] for q in (1, 2, 3)], mine)
            # With four players the pile's eight cards are every clan once.
            assert sorted(k for f in t.family for k in f[:2]) == list(range(8))


def test_one_per_clan_games_keep_the_contract():
    """The conformance checks (views equal on every sample, strings, tensors) with the option."""
    for n in (2, 4):
        g = kingmaker.make("kings-kilt", players=n, family_deal="one-per-clan")
        reports = check_game(g, range(4), hidden_every=3)
        assert all(r.length > 0 for r in reports)


def test_heuristic_weighs_every_move_and_beats_random():
    """The heuristic scores every legal move (a regression: with chance outcomes 0..15 it once
    scored none and passed whenever it could). Against random it wins most 2-player games."""
    g = kingmaker.make("kings-kilt", players=2)
    from kingmaker.agents import make_agent

    wins = 0
    for seed in range(30):
        seats = [make_agent("heuristic", g), make_agent("random", g)]
        if seed % 2:
            seats.reverse()
        m = kingmaker.Match(g, seats, seed=seed)
        m.run()
        wins += m.returns()[seed % 2] == 1.0
    assert wins >= 22


# ---- the end: outcome and figures -----------------------------------------------------------


def test_outcome_most_points_names_winner_and_points(g2):
    """Determining the Winner: the player with the most points wins."""
    s = position(g2, full_pyramid(), family=[("Stewart", "Bruce", "Hamilton"), ("Douglas", "Buchanan", "Hamilton")])
    s = play(g2, s, "pass", "pass")
    pts = g2.scores(s)
    out = g2.outcome(s)
    w = out["winners"][0]
    assert out["reason"] == "most_points" and pts[w] > pts[1 - w]
    assert out["text"] == f"player {w} wins with {pts[w]} point{'s' if pts[w] != 1 else ''}"
    figs = g2.figures(s)
    assert figs["score"] == pts and figs["influence_left"] == (0, 0)
    assert tuple(a + b + c for a, b, c in zip(figs["king_points"], figs["guardian_points"],
                                              figs["noble_points"])) == pts


def test_outcome_tie_on_points_broken_by_influence_cards(g2):
    """Determining the Winner: 'Ties are resolved in favor of the player with the most remaining
    influence cards.'"""
    s = position(g2, full_pyramid(), family=[("Stewart", "Bruce", "Hamilton"), ("Stewart", "Bruce", "Douglas")],
                 hands=[{"MacBeth": 1}, {"MacBeth": 2}])
    s = play(g2, s, "pass", "pass")
    pts = g2.scores(s)[0]
    out = g2.outcome(s)
    assert out["winners"] == [1] and out["reason"] == "tie_influence"
    assert out["text"] == (f"player 0 and player 1 tie on {pts} points, broken by influence cards: "
                           "player 1 wins with 2 influence cards left")


def test_outcome_still_tied_share_the_throne_and_one_point_singular(g3):
    """Determining the Winner: 'If the game is still tied, the players must share the throne.'"""
    # full_pyramid(): the Bruce Nobleman at d3 is the only card of these families that scores.
    s = position(g3, full_pyramid(), family=[("Bruce", "Douglas", "Hamilton"), ("Bruce", "Buchanan", "Hamilton"),
                                             ("Douglas", "Buchanan", "Hamilton")],
                 hands=[{"MacBeth": 1}, {"MacBeth": 1}, {}])
    s = play(g3, s, "pass", "pass", "pass")
    out = g3.outcome(s)
    assert out["winners"] == [0, 1] and out["reason"] == "shared_throne"
    assert out["text"] == "player 0 and player 1 tie on 1 point and on 1 influence card left: they share the throne"


# ---- the terminal ------------------------------------------------------------------------------


def _play_cli(*args, input):
    return CliRunner().invoke(main, ["play", "kings-kilt", *args], input=input, catch_exceptions=False)


def test_cli_final_screen_tells_the_winner_and_the_legend():
    """The final screen names the winner with the reason (outcome text) and a legend of symbols."""
    r = _play_cli("--players", "2", "--seed", "5", "--bot", "random", input="1\n" * 400)
    assert r.exit_code == 0, r.output
    text = " ".join(r.output.split())
    assert "Legend: [BRU*] a card (* = clan leader)" in text
    assert " wins with " in text or " tie on " in text
    assert " 1 points" not in text and " 1 influence cards" not in text


def test_cli_chance_events_say_which_card_went_where():
    """Setting up: 'Deal six cards face up in a row'; a base vacuum is filled from the draw pile.
    The log says which card was laid or turned up, and where."""
    r = _play_cli("--players", "2", "--seed", "3", "--bot", "random", input="1\n" * 400)
    text = " ".join(r.output.split())
    assert "is laid in the base row at a1" in text
    assert "is turned up on the draw pile" in text
    assert all(clan not in line for line in r.output.splitlines() if "player 1 is dealt" in line
               for clan in CLANS)


def test_view_of_the_end_is_json_with_the_outcome(g2):
    s = position(g2, full_pyramid(), family=[("Stewart", "Bruce", "Hamilton"), ("Douglas", "Buchanan", "Hamilton")])
    s = play(g2, s, "pass", "pass")
    v = json.loads(json.dumps(g2.view(s, 0)))
    assert v["outcome"] == g2.outcome(s)["text"]
