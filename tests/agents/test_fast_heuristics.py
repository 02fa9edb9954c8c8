"""The fast heuristics of King's Kilt and Kingpins make the same choices as their slow forms.

The heuristics are the rollout policies of IS-MCTS, so they were made cheaper
without changing a single choice: then the search, its strength tables and its
seeded results stay as they were. Each test keeps the former, slow heuristic
here as the reference and compares the two on many seeded random states of a
game (rulebooks: ``kings-kilt.txt`` "Playing the Game" and "Vacuums";
``kingpins.txt`` "Playing a Turn"), with the same random stream: the same
move, and the stream left in the same place (the search shares it).
"""

from __future__ import annotations

import dataclasses
import random

import pytest

import kingmaker
from kingmaker.core.api import CHANCE, SIMULTANEOUS, TERMINAL
from kingmaker.core.match import sample_chance
from kingmaker.games.kings_kilt import actions as KKA
from kingmaker.games.kings_kilt import bot as kk_bot
from kingmaker.games.kings_kilt.data import CELLS, HEIGHT, NUM_CLANS
from kingmaker.games.kings_kilt.state import FILL, PLAY, REVEAL


# ---- King's Kilt: the heuristic as it was (apply every move, evaluate the result) ----------
def kk_reference(game, s, player, rng):
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if s.phase == REVEAL:
        w = [0.0] * NUM_CLANS
        for i in range(CELLS):
            if s.pyramid[i] >= 0:
                w[s.pyramid[i] & 7] += HEIGHT[i]
        return min(legal, key=lambda a: (w[a - KKA.REVEAL0], a))
    if s.phase in (PLAY, FILL):
        base = kk_bot.evaluate(game, s, player)
        best, best_v = legal[0], -1e9
        for a in legal:
            if a == KKA.PASS:
                v = base + 0.12
            else:
                v = kk_bot.evaluate(game, game.apply(s, a, player), player)
                if KKA.BETRAY0 <= a < KKA.FILL0 and not s.crowned:
                    v -= 0.05
            v += rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best
    return rng.choice(legal)


def decision_states(game, seed, games=4, explore=0.5):
    """Yields (state, player) at every decision of a few seeded games (heuristic and random moves)."""
    rng = random.Random(seed)
    for _ in range(games):
        s = game.new_initial_state()
        while True:
            cp = game.current_player(s)
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                continue
            p = cp if cp != SIMULTANEOUS else game.acting_players(s)[0]
            yield s, p
            acts = game.legal_actions(s, p)
            a = acts[rng.randrange(len(acts))] if rng.random() < explore else game.heuristic_action(s, p, rng)
            s = game.apply(s, a, p)


def same_choices(game, reference, fast, seed, games=4):
    checked = 0
    for i, (s, p) in enumerate(decision_states(game, seed, games)):
        r1, r2 = random.Random(i), random.Random(i)
        want = reference(game, s, p, r1)
        got = fast(game, s, p, r2)
        assert got == want, (game.id, i, s, p)
        assert r1.random() == r2.random(), "the fast heuristic must draw as many numbers as the reference"
        checked += 1
    return checked


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("deal", ["rulebook", "one-per-clan"])
def test_kings_kilt_fast_heuristic_same_choice(players, deal):
    game = kingmaker.make("kings-kilt", players=players, family_deal=deal)
    assert same_choices(game, kk_reference, kk_bot.heuristic_action, seed=100 * players + len(deal)) > 200


def test_kings_kilt_fast_heuristic_same_choice_with_few_moves():
    """Play positions with the hand cut to nothing or to one card (few betrayals, or none), before
    and after the crowning: down to passing alone, which is played without a random draw."""
    game = kingmaker.make("kings-kilt", players=3)
    counts = {"few": 0, "pass only": 0}
    for i, (s, p) in enumerate(decision_states(game, seed=5, games=6)):
        if s.phase != PLAY:
            continue
        for clan in (None, i % NUM_CLANS):
            hand = [0] * NUM_CLANS
            if clan is not None:
                hand[clan] = 1
            hands = s.hands[:p] + (tuple(hand),) + s.hands[p + 1:]
            for crowned in (0, 1):
                t = dataclasses.replace(s, hands=hands, crowned=crowned)
                legal = game.legal_actions(t, p)
                counts["few"] += 1 < len(legal) <= 3
                counts["pass only"] += legal == [KKA.PASS]
                r1, r2 = random.Random(i), random.Random(i)
                assert kk_bot.heuristic_action(game, t, p, r2) == kk_reference(game, t, p, r1), (i, clan, crowned)
                assert r1.random() == r2.random()
    assert counts["few"] > 0 and counts["pass only"] > 0


# ---- Kingpins: the heuristic as it was (over the full list of legal moves) ---------------
def kp_reference(game, s, player, rng):
    from kingmaker.games.kingpins import actions as PA
    from kingmaker.games.kingpins.bot import _STRIDE, _bonus, _chain
    from kingmaker.games.kingpins.data import FF_ALL_BITS, FF_RED, VALUE, remove_card
    from kingmaker.games.kingpins.state import RUB_OUT

    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    hand = s.hands[player]
    if s.phase == RUB_OUT:
        best, best_v = PA.KEEP, 0.0
        for a in legal:
            if a == PA.KEEP:
                continue
            v = VALUE[a - PA.DISCARD0] + 1 + rng.random() * 1e-3
            if v > best_v:
                best, best_v = a, v
        return best
    stacks = s.stacks
    size = hand.bit_count()
    plays, dumps, moves = [], [], []
    for a in legal:
        if a < PA.UNDER0:
            k, t = divmod(a, 8)
            if size == 1:
                return a
            if k == FF_RED or k == FF_RED + 1:
                continue
            after = remove_card(hand, k)
            v = VALUE[k] + 1 + 0.5 * _chain(after, k) + _bonus(game, s, k, after)
            (plays if stacks[t] or t >= 4 else dumps).append((v, a))
        elif a < PA.MOVE0:
            c, rest = divmod(a - PA.UNDER0, _STRIDE)
            k = rest // 8
            if size == 2:
                return a
            after = remove_card(remove_card(hand, k), FF_RED + c)
            plays.append((VALUE[k] + VALUE[FF_RED + c] + 2 + _bonus(game, s, k, after), a))
        elif a < PA.END_TURN:
            moves.append(a)
    noise = rng.random
    if plays:
        return max((v + noise() * 1e-3, a) for v, a in plays)[1]
    if dumps:
        return max((v + noise() * 1e-3, a) for v, a in dumps)[1]
    if moves and hand & ~FF_ALL_BITS:
        return moves[int(noise() * len(moves))]
    return PA.END_TURN


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("abilities", [True, False])
def test_kingpins_fast_heuristic_same_choice(players, abilities):
    from kingmaker.games.kingpins import bot as kp_bot

    game = kingmaker.make("kingpins", players=players, abilities=abilities)
    assert same_choices(game, kp_reference, kp_bot.heuristic_action, seed=7 * players + abilities, games=2) > 200
