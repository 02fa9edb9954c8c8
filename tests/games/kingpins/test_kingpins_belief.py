"""Kingpins' belief: what a seat infers from its rivals' public play (search ``belief=model``).

Rulebook, GAMEPLAY: "If you have cards left but cannot or do not want to take any
more actions, end your turn by drawing a card from the stockpile." Every play and
every end of turn is seen by all, so a rival that ended its turn is likely to hold
no card that fitted then. The belief deals the hidden cards by that; it must never
change what the seat sees, and never read what the seat cannot see.
"""

from __future__ import annotations

import dataclasses
import random

import pytest
import seeded_positions
from kingpins_helpers import k, position

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.agents.search import SearchConfig, parse_level
from kingmaker.core.api import CHANCE
from kingmaker.core.errors import GameError
from kingmaker.core.match import Match
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins import belief as B
from kingmaker.games.kingpins import bot
from kingmaker.games.kingpins.data import CODE, NOT_FF_BITS, NUM_KINDS, kinds
from kingmaker.games.kingpins.state import DEAL, DRAW


def _game(n: int = 4):
    return kingmaker.make("kingpins", players=n)


def _held(mask: int, forbidden: int) -> int:
    return sum(1 for x in kinds(mask) if forbidden >> x & 1)


class _Follower:
    """A heuristic agent that records what the match tells it (its notes via the belief)."""

    def __init__(self, game, inner):
        self.inner = inner
        self.notes = None
        self.told: list[tuple[dict, int, int | None]] = []
        self.game = game

    def act(self, obs):
        return self.inner.act(obs)

    def listens(self, game) -> bool:
        return True

    def inform(self, obs, player, action):
        self.told.append((obs.view, player, action))
        self.notes = B.belief_update(obs.game, self.notes, obs.sample(random.Random(0)), obs.player, player, action)


def test_forbidden_at_end_is_what_the_rules_let_a_hand_play():
    """GAMEPLAY: a card goes on a stack one rank lower and opposite in colour, any card on an
    emptied original (N, S, E, W) space, a kingpin in an empty corner. The kinds noted at an end
    of turn are exactly those a hand could have played so (Femme Fatales left out)."""
    g = _game(2)
    stacks = {"N": "M7", "E": "B9", "S": "M3", "NE": "M12"}  # W is empty: any card fits there
    base = position(g, ["D4", "V4"], stacks)
    assert not bot._find_moves(base.stacks)
    assert B.forbidden_at_end(base) == NOT_FF_BITS  # the empty W space takes every card
    stacks["W"] = "B5"
    base = position(g, ["D4", "V4"], stacks)
    assert not bot._find_moves(base.stacks)
    f = B.forbidden_at_end(base)
    used = {k(c) for v in stacks.values() for c in v.split()} | {k("D4"), k("V4")}
    checked = 0
    for x in range(NUM_KINDS):
        if not NOT_FF_BITS >> x & 1 or x in used:
            continue
        s = position(g, [f"D4 {CODE[x]}", "V4"], stacks)
        plays = any(A.play(x, t) in g.legal_actions(s, 0) for t in range(8))
        assert bool(f >> x & 1) == plays, CODE[x]
        checked += 1
    assert checked > 40 and 0 < f.bit_count() < 20


def test_a_possible_stack_move_forbids_every_card_but_femme_fatales():
    """Move an entire stack: the heuristic moves one before it ends a turn holding a card."""
    g = _game(2)
    s = position(g, ["D4", "V4"], {"N": "M7", "E": "B9", "S": "V6", "NE": "M12"})
    assert bot._find_moves(s.stacks)  # the black 6 (S) onto the red 7 (N)
    assert B.forbidden_at_end(s) == NOT_FF_BITS


def test_an_end_of_turn_is_noted_and_draws_counted():
    g = _game(3)
    s = position(g, ["M1 B1", "D4 V4 M9", "B2"], {"N": "M7", "NE": "M12"}, current=1)
    notes = B.belief_update(g, None, s, 0, 1, A.END_TURN)
    assert notes[1] == (B.forbidden_at_end(s), 0)
    assert notes[0] is None and notes[2] is None
    drawing = dataclasses.replace(s, phase=DRAW)
    notes = B.belief_update(g, notes, drawing, 0, CHANCE, None)
    assert notes[1][1] == 1  # the draw that ends the turn is a free card
    # The rival's next decision makes the note stale.
    after = B.belief_update(g, notes, dataclasses.replace(s, current=1), 0, 1, A.play(k("M9"), 0))
    assert after[1] is None
    # The seat's own moves note nothing; a new round's deal forgets everything.
    assert B.belief_update(g, notes, dataclasses.replace(s, current=0), 0, 0, A.END_TURN) == notes
    assert B.belief_update(g, notes, dataclasses.replace(s, phase=DEAL), 0, CHANCE, None) == (None,) * 3


@pytest.mark.parametrize("players", [2, 3, 4])
def test_belief_sample_keeps_the_view_and_meets_the_notes(players):
    """Every determinisation has the seat's view; a note that can be met is met."""
    g = _game(players)
    rng = random.Random(players)
    met = 0
    for i, (s, p) in enumerate(seeded_positions.positions(g, 100 + players, 6, bot.heuristic_action, 1.0)):
        if i % 5:
            continue
        notes = tuple(
            None if q == p or rng.random() < 0.3 else (rng.getrandbits(60) & NOT_FF_BITS, rng.randrange(3))
            for q in range(players)
        )
        view = g.view(s, p)
        for j in range(3):
            d = B.belief_sample(g, g.sample_hidden(s, p, random.Random(j)), p, notes, random.Random(j))
            g.validate_state(d)
            assert g.view(d, p) == view
            assert d.hands[p] == s.hands[p]
            for q, note in enumerate(notes):
                if note is not None and _held(d.hands[q], note[0]) <= note[1]:
                    met += 1
    assert met > 100


def test_a_note_that_cannot_be_met_is_dropped_not_forced():
    g = _game(2)
    s = position(g, ["M1 B1", "D4 V4 M9"], {"N": "M7"})
    notes = (None, (NOT_FF_BITS, 0))  # forbids every card: no deal can meet it
    d = B.belief_sample(g, s, 0, notes, random.Random(1))
    assert g.view(d, 0) == g.view(s, 0)
    assert d.hands[1].bit_count() == 3


def test_the_model_holds_for_heuristic_rivals():
    """Against heuristic bots the true hands always meet the notes (the model is the bot's)."""
    g = _game(4)
    follower = _Follower(g, make_agent("heuristic", g))
    agents = [follower] + [make_agent("heuristic", g) for _ in range(3)]
    checked = 0
    for seed in range(4):
        follower.notes = None
        m = Match(g, agents, seed=seed)
        while not m.is_over():
            if m.current_player == 0 and follower.notes:
                for q, note in enumerate(follower.notes):
                    if note is not None:
                        assert _held(m.state.hands[q], note[0]) <= note[1], (seed, q)
                        checked += 1
            m.step()
    assert checked > 50


def test_the_match_tells_listeners_what_their_seat_saw():
    g = _game(3)
    follower = _Follower(g, make_agent("heuristic", g))
    m = Match(g, [follower, make_agent("heuristic", g), make_agent("heuristic", g)], seed=3)
    m.run()
    assert len(follower.told) == len(m.log)
    for (view, player, action), entry in zip(follower.told, m.log, strict=True):
        assert player == entry.player
        assert action == (entry.action if player >= 0 else None)  # chance outcomes are never told
        assert "hands" not in view or view["phase"] == "end"
        assert view["you"] == 0


def test_games_with_hidden_decisions_tell_no_action():
    g = kingmaker.make("kings-kilt", players=2)
    assert not g.public_moves
    follower = _Follower(g, make_agent("heuristic", g))
    follower.inform = lambda obs, player, action: follower.told.append((obs.view, player, action))
    m = Match(g, [follower, make_agent("heuristic", g)], seed=1)
    m.run()
    assert follower.told and all(a is None for _, _, a in follower.told)


def test_belief_setting():
    assert parse_level("normal/belief=model").belief == "model"
    assert SearchConfig().belief == "none"
    with pytest.raises(GameError, match="belief 'maybe' is not known"):
        SearchConfig(belief="maybe")
    g = _game(4)
    plain = make_agent("ismcts:normal/iterations=20/seconds=none", g)
    believing = make_agent("ismcts:normal/iterations=20/seconds=none/belief=model", g)
    assert not plain.listens(g) and believing.listens(g)
    assert not believing.listens(kingmaker.make("kings-kilt", players=2))  # no belief module there
    m = Match(g, [plain, believing, make_agent("heuristic", g), make_agent("heuristic", g)], seed=2)
    assert [seat for seat, _ in m._listeners] == [1]


def test_a_believing_search_is_reproducible_and_plays_legally():
    g = _game(4)
    results = []
    for _ in range(2):
        agents = [make_agent("ismcts:normal/iterations=30/seconds=none/belief=model", g)]
        agents += [make_agent("heuristic", g) for _ in range(3)]
        m = Match(g, agents, seed=11)
        m.run()
        assert agents[0].notes is not None
        results.append((tuple(e.action for e in m.log), m.returns()))
    assert results[0] == results[1]


def test_an_agent_told_the_play_afterwards_knows_what_a_live_one_knows():
    """A server's bot made after a restart hears of the whole play (``Match.tell``): same notes."""
    g = _game(4)
    live = make_agent("ismcts:normal/iterations=20/seconds=none/belief=model", g)
    m = Match(g, [live] + [make_agent("heuristic", g) for _ in range(3)], seed=4)
    for step in range(600):  # into the play, to a point where the live agent has notes
        if m.is_over() or (step >= 200 and any(live.notes)):
            break
        m.step()
    late = make_agent("ismcts:normal/iterations=20/seconds=none/belief=model", g)
    assert m.tell(late, 0) == len(m.log)
    assert late.notes == live.notes and any(live.notes)
    # Told in two parts (a replayed match), the same again; an agent that does not follow
    # the play is left alone.
    half = len(m.log) // 2
    twice = make_agent("ismcts:normal/iterations=20/seconds=none/belief=model", g)
    m2 = Match(g, [None] * 4, seed=4)
    for e in m.log[:half]:
        if e.player == CHANCE:
            assert m2.step_chance() == e.action
        else:
            m2.play(e.action, e.player)
    told = m2.tell(twice, 0)
    for e in m.log[half:]:
        if e.player == CHANCE:
            assert m2.step_chance() == e.action
        else:
            m2.play(e.action, e.player)
    m2.tell(twice, 0, told)
    assert twice.notes == live.notes
    plain = make_agent("ismcts:normal/iterations=20/seconds=none", g)
    assert m.tell(plain, 0) == len(m.log) and plain.notes is None


def test_a_server_bot_follows_the_play_across_moves_and_restarts():
    """The web's bot workers tell a following agent what it missed (made anew after a restart)."""
    workers = pytest.importorskip("kingmaker.web.workers")
    g = _game(3)
    spec = "ismcts:normal/iterations=10/seconds=none/belief=model"
    live = make_agent(spec, g)
    m = Match(g, [live, make_agent("heuristic", g), make_agent("heuristic", g)], seed=9)
    actions: list[list[int]] = []
    asked = 0
    while not m.is_over() and asked < 6:
        if m.current_player == 0:
            rec = ("belief-test", "kingpins", 3, {}, 9, [list(x) for x in actions])
            workers.bot_move(rec, 0, spec, None)
            agent = workers._AGENTS[("belief-test", 0, spec)]
            assert agent.notes == live.notes
            asked += 1
        m.step()
        actions = [[e.player, e.action] for e in m.log]
    assert asked == 6 and any(live.notes)
    workers._MATCHES.clear()  # a restart: the match and its agents are made again from the record
    workers._AGENTS.clear()
    workers._TOLD.clear()
    while m.current_player != 0:
        m.step()
    rec = ("belief-test", "kingpins", 3, {}, 9, [[e.player, e.action] for e in m.log])
    workers.bot_move(rec, 0, spec, None)
    assert workers._AGENTS[("belief-test", 0, spec)].notes == live.notes
