"""San Quentin Kings: the hot paths written out for the search give what the plain code gives
(issue 16 §1, speed; nothing here may change a decision).

- End Game Scoring: ``scoring.scores`` counts each total without ``score_breakdown``'s dicts;
  ``reference_scores`` (the totals of the breakdown, as ``scores`` read them before) is the reference.
- The one-turn-each blocks (Gym, Cafeteria, Guard Influence, the Drug block's payment):
  ``blocks.seq_choice`` says whether a player has a choice as ``len(seq_options(...)) > 1`` does.
- Bribe Chip Actions: the bot's fighting turn shuffles its piece bribes with ``Random.shuffle``
  written out (for ``random.Random`` streams): the same order and the same draws as the method.
- Scoring Fight (SQK-6) as the bot reads it: ``bot._is_first`` (p's key against the others' until
  one beats it) is ``_place_in(_keys(s, n), p) == 0``.
- Choosing an action block: the blocks left and the fights left are read from tables by the
  bitmask of blocks played; checked against the plain count for every bitmask.
- The game's ``apply`` (``rules.game_apply``: the checks, then the step) gives the state
  ``rules.apply`` gives, and rejects what ``check_action`` rejects, leaving the state unchanged.
"""

from __future__ import annotations

import random

import pytest
import seeded_positions
import sqk_reference_bot as ref

import kingmaker
from kingmaker.core import fastrand
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.core.errors import InvalidActionError
from kingmaker.core.match import sample_chance
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings import blocks, bot, bribes, rules, scoring
from kingmaker.games.san_quentin_kings.state import P_CAFE, P_DRUGPAY, P_GUARD, P_GYM


def reference_scores(s, n: int) -> list[int]:
    """End Game Scoring's totals as ``scores`` computed them before: from ``score_breakdown``."""
    return [d["total"] for d in scoring.score_breakdown(s, n)]


def _states(g, seed: int, games: int):
    """Every state of seeded games (mostly heuristic moves, some random), chance nodes and the end included."""
    rng = random.Random(seed)
    for _ in range(games):
        s = g.new_initial_state()
        while True:
            yield s
            cp = g.current_player(s)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
                continue
            p = cp if cp >= 0 else g.acting_players(s)[0]
            legal = g.legal_actions(s, p)
            a = ref.heuristic_action(g, s, p, random.Random(rng.random())) if rng.random() < 0.7 else rng.choice(legal)
            s = g.apply(s, a, p)


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"guards": 10}), (5, {"guards": 6})])
def test_scores_match_the_breakdown_totals(players, options):
    """End Game Scoring: the fast totals equal the breakdown's on every state of seeded games."""
    g = kingmaker.make("san-quentin-kings", players, **options)
    ends = 0
    for s in _states(g, 7 + players, 8):
        assert scoring.scores(s, players) == reference_scores(s, players)
        ends += g.is_terminal(s)
    assert ends == 8


def test_scores_match_on_crafted_ties():
    """End Game Scoring: ties for Fight King, Drug King, Crew King, most commissary and most
    shanks (every tie rule) on goods and pieces drawn at random, small so that ties are common."""
    g = kingmaker.make("san-quentin-kings", 4)
    s0 = g.new_initial_state()
    rng = random.Random(3)
    for _ in range(3000):
        goods = tuple(rng.randrange(3) for _ in s0.goods)
        pieces = tuple(rng.randrange(3) for _ in s0.pieces)
        s = g.State(**{**{f: getattr(s0, f) for f in s0.__slots__}, "goods": goods, "pieces": pieces})
        assert scoring.scores(s, 4) == reference_scores(s, 4)


@pytest.mark.parametrize("players", [3, 5])
def test_game_apply_is_rules_apply(players):
    """Sequence of Play: the game's apply gives the state the rules' apply gives, at every
    decision and chance node of seeded games (every fight draw among them)."""
    g = kingmaker.make("san-quentin-kings", players)
    rng = random.Random(11)
    for s, p in seeded_positions.positions(g, 5, 4, ref.heuristic_action, 0.8):
        a = ref.heuristic_action(g, s, p, rng)
        assert g.apply(s, a, p) == rules.apply(s, a, p, players)
    checked = 0
    for s in _states(g, 9, 3):
        if s.queue:
            for a, _pr in g.chance_outcomes(s):
                assert g.apply(s, a) == rules.apply(s, a, None, players)
                checked += 1
    assert checked > 100


def test_game_apply_rejects_what_check_action_rejects():
    """Chance nodes (a fight card's draw among them) and decisions: an outcome not offered, or
    not an int, raises InvalidActionError and leaves the state unchanged."""
    g = kingmaker.make("san-quentin-kings", 3)
    fight_draws = 0
    for s in _states(g, 21, 2):
        if not s.queue:
            for bad in (-1, A.CH_PLAYER0, "x", 2.0):
                before = hash(s)
                with pytest.raises(InvalidActionError):
                    g.apply(s, bad, g.current_player(s))
                assert hash(s) == before
            continue
        offered = {a for a, _pr in g.chance_outcomes(s)}
        for bad in [a for a in range(A.CH_PLAYER0, A.NUM_ACTIONS) if a not in offered][:12] + ["x", -5]:
            with pytest.raises(InvalidActionError):
                rules.check_action(s, bad, 3)
            with pytest.raises(InvalidActionError):
                g.apply(s, bad)
        fight_draws += rules.SPLIT[s.queue[0]][0] == rules.K_FIGHT
    assert fight_draws > 10


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"guards": 6})])
def test_game_chance_outcomes_are_the_rules(players, options):
    """Every random event (the fight deck's draws among them): the game's chance outcomes are the
    rules' list, the same actions with the same probabilities in the same order; away from a
    chance node the base class's error."""
    g = kingmaker.make("san-quentin-kings", players, **options)
    chance = decisions = 0
    for s in _states(g, 13, 4):
        if s.queue:
            assert g.chance_outcomes(s) == rules.chance_outcomes(s, players)
            chance += 1
        elif not g.is_terminal(s) and decisions < 50:
            with pytest.raises(kingmaker.core.errors.IllegalActionError):
                g.chance_outcomes(s)
            decisions += 1
    assert chance > 200


@pytest.mark.parametrize("players", [3, 4, 5])
def test_seq_choice_is_more_than_one_option(players):
    """Gym, Cafeteria, Guard Influence and the drug payment: on every state of seeded games, for
    every player and each of the four phases, ``seq_choice`` is ``len(seq_options) > 1``."""
    g = kingmaker.make("san-quentin-kings", players)
    seen = {True: 0, False: 0}
    for s in _states(g, 17 + players, 3):
        for p in range(players):
            for ph in (P_GYM, P_CAFE, P_GUARD, P_DRUGPAY):
                want = len(blocks.seq_options(s, p, ph)) > 1
                assert blocks.seq_choice(s, p, ph) is want
                seen[want] += 1
    assert min(seen.values()) > 100


class _OwnRandom(random.Random):
    """A stream the bot does not recognise as ``random.Random``: it calls ``shuffle`` itself."""


def test_written_out_shuffle_is_random_shuffle():
    """Bribe Chip Actions (the bot's bribe tries): the bot's choice and what it leaves of the stream
    are the same with the written-out shuffle (``random.Random``, ``core.fastrand``) and with
    ``Random.shuffle``."""
    assert fastrand.SAME_AS_RANDOM
    g = kingmaker.make("san-quentin-kings", 4)
    tries = 0
    for k, (s, p) in enumerate(seeded_positions.positions(g, 41, 6, ref.heuristic_action, 0.8)):
        r1, r2 = random.Random(k), _OwnRandom(k)
        assert bot.heuristic_action(g, s, p, r1) == bot.heuristic_action(g, s, p, r2), k
        assert r1.getstate() == r2.getstate()
        tries += r1.getstate() != random.Random(k).getstate()
    assert tries > 50


@pytest.mark.parametrize("players, options", [(3, {}), (4, {"guards": 10}), (5, {})])
def test_is_first_is_place_zero(players, options):
    """Scoring Fight (ruling SQK-6: strength, the block's tie-breaker, then initiating order): in every
    fight of seeded games, for every player, ``_is_first`` says whether their place is 0, bribed
    pieces counted, unplaced players included."""
    g = kingmaker.make("san-quentin-kings", players, **options)
    seen = {True: 0, False: 0}
    bribed = 0
    for s in _states(g, 29 + players, 5):
        if s.inflight and not s.queue:
            keys = bot._keys(s, players)
            for p in range(players):
                want = bot._place_in(keys, p) == 0
                assert bot._is_first(s, p, players) is want
                seen[want] += 1
            bribed += bool(s.bribed)
    assert min(seen.values()) > 100 and bribed > 10


def test_blocks_and_fights_left_tables():
    """Action Blocks (each block once a year): for every set of blocks played, the table gives the
    blocks not yet played in order and the bot's count of fight blocks left."""
    from kingmaker.games.san_quentin_kings.data import IS_FIGHT, NUM_BLOCKS

    g = kingmaker.make("san-quentin-kings", 3)
    s0 = g.new_initial_state()
    for used in range(1 << NUM_BLOCKS):
        s = g.State(**{**{f: getattr(s0, f) for f in s0.__slots__}, "used": used})
        assert blocks.blocks_left(s) == [b for b in range(NUM_BLOCKS) if not used >> b & 1]
        assert bot._fights_left(s) == sum(1 for b in range(NUM_BLOCKS) if IS_FIGHT[b] and not used >> b & 1)


def test_target_offsets_are_the_targets():
    """Bribe Chip Actions (take or kill a piece in another's fight area, bribed pieces included):
    ``bribes._target_offsets`` is ``_targets``' set of offsets for every player of seeded fights."""
    g = kingmaker.make("san-quentin-kings", 4)
    bribed = 0
    for s in _states(g, 37, 6):
        if s.inflight:
            for p in range(4):
                assert bribes._target_offsets(s.pieces, s.bribed, p, 4) == bribes._targets(s, p, 4)[0]
            bribed += bool(s.bribed)
    assert bribed > 10
