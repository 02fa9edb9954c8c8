"""REFERENCE for the speed tests (issue 16 §1, second pass): the Kingpins bot as it was
before that pass (commit 3ae6ed8), kept unchanged (imports made absolute, legal moves from the
reference rules) so that the fast bot's choices can be compared with it."""


from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

import kingpins_reference_rules as ref_rules

from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins.data import (
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_RUB_OUT,
    ABILITY,
    FF_ALL_BITS,
    FF_BITS,
    FF_BLACK,
    FF_RED,
    KIND_BITS,
    KINGPIN_BITS,
    NUM_KINDS,
    ONTO,
    ONTO_BITS,
    ROUNDS,
    RUB_OUT_BITS,
    UNDER,
    UNDER_BITS,
    VALUE,
    remove_card,
)
from kingmaker.games.kingpins.state import DEAL, PLAY, RUB_OUT, State

if TYPE_CHECKING:
    from kingmaker.games.kingpins.game import Kingpins

_STRIDE = NUM_KINDS * 8
# What an empty stack takes: any card on an original recruitment space, a kingpin in a corner.
_EMPTY_TAKES = (KIND_BITS,) * 4 + (KINGPIN_BITS,) * 4


def _chain(hand: int, k: int) -> int:
    """Returns the value of the cards from ``hand`` that could follow ``k`` down a stack."""
    total = 0
    cur = k
    while True:
        best = -1
        for j in ONTO[cur]:
            if hand >> j & 1 and (best < 0 or VALUE[j] > VALUE[best]):
                best = j
        if best < 0:
            return total
        total += VALUE[best] + 1
        hand = remove_card(hand, best)
        cur = best


def _bonus(game: Kingpins, s: State, k: int, hand_after: int) -> float:
    if not game.abilities:
        return 0.0
    ab = ABILITY[k]
    if ab == AB_COLLECT and s.unseen:
        return 3.0
    if ab == AB_ALL_CLEAR and s.unseen and not s.no_draw:
        return 4.0
    if ab == AB_RUB_OUT and hand_after & RUB_OUT_BITS:
        return 3.0
    return 0.0


def heuristic_action(game: Kingpins, s: State, player: int, rng: random.Random) -> int:
    if s.phase != PLAY or player != s.current:
        return _choose(game, s, player, rng, ref_rules.legal_actions(game, s, player))
    # The playing seat: the same choice as ``_choose`` over the legal moves, without the
    # list of every legal move (moves are found only when no card can be played).
    hand = s.hands[player]
    stacks = s.stacks
    size = hand.bit_count()
    found = []  # the card plays, k * 8 + t
    t = 0
    for st in stacks:
        m = hand & (ONTO_BITS[st[-1]] if st else _EMPTY_TAKES[t])
        while m:
            low = m & -m
            m ^= low
            found.append((low.bit_length() - 1) * 8 + t)
        t += 1
    plays: list[tuple[float, int]] = []
    dumps: list[tuple[float, int]] = []
    if found:
        found.sort()
        if size == 1:
            return found[0]  # the last card: the round ends with nothing in hand
        k_last = -1
        v = 0.0
        for a in found:
            k = a >> 3
            if k == FF_RED or k == FF_BLACK:
                continue  # a Femme Fatale on an empty space would kill it (KP-4): keep her to slip a card under
            if k != k_last:
                after = remove_card(hand, k)
                v = VALUE[k] + 1 + 0.5 * _chain(after, k) + (_bonus(game, s, k, after) if ABILITY[k] else 0.0)
                k_last = k
            if stacks[a & 7] or a & 7 >= 4:  # onto a card, or a kingpin into an empty corner
                plays.append((v, a))
            else:
                dumps.append((v, a))
    ff = hand & FF_BITS
    if ff:
        unders = []
        for t in range(8):
            st = stacks[t]
            if st and UNDER_BITS[st[0]] & hand:
                for k in UNDER[st[0]]:
                    if hand >> k & 1:
                        for c in (0, 1):
                            if ff >> (FF_RED + c) & 1:
                                unders.append(A.UNDER0 + c * _STRIDE + k * 8 + t)
        if unders:
            unders.sort()
            if size == 2:
                return unders[0]  # the Femme Fatale and the card were the last two
            for a in unders:
                c, rest = divmod(a - A.UNDER0, _STRIDE)
                k = rest // 8
                after = remove_card(remove_card(hand, k), FF_RED + c)
                plays.append((VALUE[k] + VALUE[FF_RED + c] + 2 + _bonus(game, s, k, after), a))
    noise = rng.random
    if plays:
        return max((v + noise() * 1e-3, a) for v, a in plays)[1]
    if dumps:
        return max((v + noise() * 1e-3, a) for v, a in dumps)[1]
    if hand & ~FF_ALL_BITS:  # a card that may go on the emptied space
        moves = _moves(stacks)
        if moves:
            return moves[int(noise() * len(moves))]
    return A.END_TURN


def _moves(stacks: tuple[tuple[int, ...], ...]) -> list[int]:
    """Returns the stack moves in action order (as ``rules.legal_actions`` finds them).

    The last answer is kept with its stacks: turns that change no stack pass the same
    tuple on, so a run of turns without a play asks for the same stacks again.
    """
    last = _LAST_MOVES[0]
    if last[0] is stacks:
        return last[1]
    out = _find_moves(stacks)
    _LAST_MOVES[0] = (stacks, out)  # one assignment: a reader sees stacks and moves together
    return out


_LAST_MOVES: list[tuple[object, list[int]]] = [(None, [])]


def _find_moves(stacks: tuple[tuple[int, ...], ...]) -> list[int]:
    tops = 0
    for st in stacks:
        if st:
            tops |= 1 << st[-1]
    out = []
    for a in range(8):
        st = stacks[a]
        if st:
            up = UNDER_BITS[st[0]]
            if up & tops:
                for d in range(8):
                    sd = stacks[d]
                    if sd and up >> sd[-1] & 1 and d != a:
                        out.append(A.MOVE0 + a * 8 + d)
    return out


def _choose(game: Kingpins, s: State, player: int, rng: random.Random, legal: list[int]) -> int:
    """The heuristic's choice among the ``legal`` moves (the reference form of ``heuristic_action``)."""
    if len(legal) == 1:
        return legal[0]
    hand = s.hands[player]
    if s.phase == RUB_OUT:
        best, best_v = A.KEEP, 0.0
        for a in legal:
            if a == A.KEEP:
                continue
            k = a - A.DISCARD0
            v = VALUE[k] + 1 + rng.random() * 1e-3
            if v > best_v:
                best, best_v = a, v
        return best
    stacks = s.stacks
    size = hand.bit_count()
    plays: list[tuple[float, int]] = []
    dumps: list[tuple[float, int]] = []
    moves: list[int] = []
    for a in legal:
        if a < A.UNDER0:
            k, t = divmod(a, 8)
            if size == 1:
                return a  # the last card: the round ends with nothing in hand
            if k == FF_RED or k == FF_RED + 1:
                continue  # a Femme Fatale on an empty space would kill it (KP-4): keep her to slip a card under
            after = remove_card(hand, k)
            v = VALUE[k] + 1 + 0.5 * _chain(after, k) + _bonus(game, s, k, after)
            if stacks[t] or t >= 4:  # onto a card, or a kingpin into an empty corner
                plays.append((v, a))
            else:
                dumps.append((v, a))
        elif a < A.MOVE0:
            c, rest = divmod(a - A.UNDER0, _STRIDE)
            k = rest // 8
            if size == 2:
                return a  # the Femme Fatale and the card were the last two
            after = remove_card(remove_card(hand, k), FF_RED + c)
            plays.append((VALUE[k] + VALUE[FF_RED + c] + 2 + _bonus(game, s, k, after), a))
        elif a < A.END_TURN:
            moves.append(a)
    noise = rng.random
    if plays:
        return max((v + noise() * 1e-3, a) for v, a in plays)[1]
    if dumps:
        # A dump onto an empty original stack: the card (and chain) that sheds the most.
        return max((v + noise() * 1e-3, a) for v, a in dumps)[1]
    if moves:
        if hand & ~FF_ALL_BITS:  # a card that may go on the emptied space
            return moves[int(noise() * len(moves))]
    return A.END_TURN


# The spread (standard deviation) of the difference between two players' scores in one
# round under the heuristic's play, by player count: measured on 100, 80 and 60 heuristic
# games of 2, 3 and 4 players with the default options (benchmarks/search_fits.py).
ROUND_SPREAD = {2: 22.6, 3: 20.2, 4: 16.4}


def standings_value(game: Kingpins, s: State) -> tuple[float, ...] | None:
    """Returns each player's expected return from the running totals between two rounds.

    Only a state where a round has just been scored is judged (None elsewhere). Each
    pair's remaining rounds are taken as a normal difference of spread
    ``ROUND_SPREAD * sqrt(rounds left)``; a player's expected return is the mean chance
    of finishing below each rival, which is what the rank returns pay.
    """
    if s.phase != DEAL or s.deal != 0 or not s.history:
        return None
    n = game.num_players
    left = ROUNDS - s.round
    spread = ROUND_SPREAD[n] * math.sqrt(2.0 * left)  # erf's argument: difference / (sd * sqrt 2)
    totals = s.totals
    out = []
    for i in range(n):
        v = 0.0
        for j in range(n):
            if j != i:
                v += 0.5 * (1.0 + math.erf((totals[j] - totals[i]) / spread))
        out.append(v / (n - 1))
    return tuple(out)


def evaluate_state(game: Kingpins, s: State) -> tuple[float, ...] | None:
    """The search's evaluation (``Game.evaluate``): ``standings_value``."""
    if s.phase != DEAL or s.deal != 0 or not s.history:  # asked at every rollout step: the common answer first
        return None
    return standings_value(game, s)
