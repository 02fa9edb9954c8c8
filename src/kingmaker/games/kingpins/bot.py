"""The Kingpins heuristic: shed the most valuable cards, keep what scores in your favour.

It reads only the acting player's hand and public things (the stacks, the
stockpile's size), so it plays the same on any state consistent with its view.
In order of preference:

1. go out if one action empties the hand;
2. play a card onto a stack (or slip one under with a Femme Fatale), the most
   valuable first, counting the cards it lets you play after it;
3. after an Enforcer, rub out the most valuable card allowed;
4. move a stack off an original recruitment space when you hold a card to put
   there, then put there the card that sheds the most (with its chain); a
   Femme Fatale goes to an empty space only as the last card (it would kill the
   space, ruling KP-4);
5. end the turn.

Hideouts are shed like any card: Lie Low only helps a hand of nothing else.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from ...core.api import CHANCE, TERMINAL
from . import actions as A
from . import rules
from .data import (
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_RUB_OUT,
    ABILITY,
    BIT,
    CLEAR,
    FF_ALL_BITS,
    FF_BITS,
    FF_BLACK,
    FF_RED,
    KIND_BITS,
    KINGPIN_BITS,
    NUM_KINDS,
    NUM_RANKED,
    ONTO,
    ONTO_BITS,
    ROUNDS,
    RUB_OUT_BITS,
    UNDER,
    UNDER_BITS,
    VALUE,
    remove_card,
)
from .state import COLLECT, DEAL, END, PLAY, RUB_OUT, State

if TYPE_CHECKING:
    from .game import Kingpins

_STRIDE = NUM_KINDS * 8
_NOT_FF = ~FF_ALL_BITS  # every card but the Femme Fatales
_END_TURN = A.END_TURN


def _chain(hand: int, k: int) -> int:
    """Returns the value of the cards from ``hand`` that could follow ``k`` down a stack."""
    total = 0
    cur = k
    while hand & ONTO_BITS[cur]:
        best = -1
        for j in ONTO[cur]:
            if hand >> j & 1 and (best < 0 or VALUE[j] > VALUE[best]):
                best = j
        total += VALUE[best] + 1
        hand &= CLEAR[best + 4] if best >= NUM_RANKED and hand >> (best + 4) & 1 else CLEAR[best]  # remove_card
        cur = best
    return total


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
    if player != s.current or s.phase != PLAY:
        if s.phase == RUB_OUT and player == s.current:
            return _rub_out(s.hands[player], rng)
        return _choose(game, s, player, rng, game.legal_actions(s, player))
    # The playing seat: the same choice as ``_choose`` over the legal moves, without the
    # list of every legal move (moves are found only when no card can be played).
    hand = s.hands[player]
    stacks = s.stacks
    # What each stack takes (kinds as bits): one lower in the opposite colour than its top
    # card; an empty original stack anything, an empty corner a kingpin. Written out for the
    # eight stacks, and kept with the stacks (turns without a play pass the same tuple on).
    last = _LAST_TAKES[0]
    if last[0] is stacks:
        t0, t1, t2, t3, t4, t5, t6, t7, fits = last[1]
    else:
        s0, s1, s2, s3, s4, s5, s6, s7 = stacks
        t0 = ONTO_BITS[s0[-1]] if s0 else KIND_BITS
        t1 = ONTO_BITS[s1[-1]] if s1 else KIND_BITS
        t2 = ONTO_BITS[s2[-1]] if s2 else KIND_BITS
        t3 = ONTO_BITS[s3[-1]] if s3 else KIND_BITS
        t4 = ONTO_BITS[s4[-1]] if s4 else KINGPIN_BITS
        t5 = ONTO_BITS[s5[-1]] if s5 else KINGPIN_BITS
        t6 = ONTO_BITS[s6[-1]] if s6 else KINGPIN_BITS
        t7 = ONTO_BITS[s7[-1]] if s7 else KINGPIN_BITS
        fits = t0 | t1 | t2 | t3 | t4 | t5 | t6 | t7
        _LAST_TAKES[0] = (stacks, (t0, t1, t2, t3, t4, t5, t6, t7, fits))  # one assignment: read whole
    plays: list[tuple[float, int]] = []
    dumps: list[tuple[float, int]] = []
    m = hand & fits
    if m:  # a card fits: the plays k * 8 + t in action order (kind by kind, each onto its stacks)
        if hand.bit_count() == 1:  # the last card: the round ends with nothing in hand
            t = 0
            for tk in (t0, t1, t2, t3, t4, t5, t6, t7):
                if tk & m:
                    return (m.bit_length() - 1) * 8 + t
                t += 1
        abilities = game.abilities
        while m:
            low = m & -m
            m ^= low
            k = low.bit_length() - 1
            if k == FF_RED or k == FF_BLACK:
                continue  # a Femme Fatale on an empty space would kill it (KP-4): keep her to slip a card under
            after = hand & CLEAR[k + 4] if k >= NUM_RANKED and hand >> (k + 4) & 1 else hand & CLEAR[k]
            v = VALUE[k] + 1 + 0.5 * (_chain(after, k) if after & ONTO_BITS[k] else 0)
            ab = ABILITY[k]
            if ab and abilities:  # _bonus, written out
                if ab == AB_COLLECT:
                    if s.unseen:
                        v += 3.0
                elif ab == AB_ALL_CLEAR:
                    if s.unseen and not s.no_draw:
                        v += 4.0
                elif ab == AB_RUB_OUT and after & RUB_OUT_BITS:
                    v += 3.0
            # Onto a card, or a kingpin into an empty corner: a play; onto an empty original
            # stack: a dump.
            a = k * 8
            if t0 & low:
                (plays if stacks[0] else dumps).append((v, a))
            if t1 & low:
                (plays if stacks[1] else dumps).append((v, a + 1))
            if t2 & low:
                (plays if stacks[2] else dumps).append((v, a + 2))
            if t3 & low:
                (plays if stacks[3] else dumps).append((v, a + 3))
            if t4 & low:
                plays.append((v, a + 4))
            if t5 & low:
                plays.append((v, a + 5))
            if t6 & low:
                plays.append((v, a + 6))
            if t7 & low:
                plays.append((v, a + 7))
    ff = hand & FF_BITS
    if ff:
        unders = []
        for t in range(4):  # (a corner's bottom card is its kingpin: nothing slips under it)
            st = stacks[t]
            if st and UNDER_BITS[st[0]] & hand:
                for k in UNDER[st[0]]:
                    if hand >> k & 1:
                        for c in (0, 1):
                            if ff >> (FF_RED + c) & 1:
                                unders.append(A.UNDER0 + c * _STRIDE + k * 8 + t)
        if unders:
            unders.sort()
            if hand.bit_count() == 2:
                return unders[0]  # the Femme Fatale and the card were the last two
            for a in unders:
                c, rest = divmod(a - A.UNDER0, _STRIDE)
                k = rest // 8
                after = remove_card(remove_card(hand, k), FF_RED + c)
                plays.append((VALUE[k] + VALUE[FF_RED + c] + 2 + _bonus(game, s, k, after), a))
    noise = rng.random
    if plays or dumps:
        # The most valuable play (a card onto a stack or slipped under one) with a little
        # noise, else the most valuable dump onto an empty original stack: one draw per candidate.
        cands = plays or dumps
        if len(cands) == 1:
            noise()
            return cands[0][1]
        best_v = -math.inf
        best = -1
        for v, a in cands:
            v += noise() * 1e-3
            if v > best_v or (v == best_v and a > best):
                best_v, best = v, a
        return best
    if hand & _NOT_FF:  # a card that may go on the emptied space
        moves = _moves(stacks)
        if moves:
            return moves[int(noise() * len(moves))]
    return A.END_TURN


def _rub_out(hand: int, rng: random.Random) -> int:
    """After an Enforcer: discard the most valuable card allowed (a little noise, one draw
    per card, in kind order), or keep when none is allowed (``_choose`` on the legal moves)."""
    m = hand & RUB_OUT_BITS
    if not m:
        return A.KEEP
    best, best_v = A.KEEP, 0.0
    while m:
        low = m & -m
        m ^= low
        k = low.bit_length() - 1
        v = VALUE[k] + 1 + rng.random() * 1e-3
        if v > best_v:
            best, best_v = A.DISCARD0 + k, v
    return best


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
_LAST_TAKES: list[tuple[object, tuple[int, ...]]] = [(None, ())]


def _find_moves(stacks: tuple[tuple[int, ...], ...]) -> list[int]:
    s0, s1, s2, s3, s4, s5, s6, s7 = stacks
    # The kinds one above some stack's bottom card, in the opposite colour, against the top
    # cards. Only an original stack can move: a corner's bottom card is its kingpin (only a
    # kingpin starts a corner, and nothing slips under one), and nothing is one above a kingpin.
    under = ((UNDER_BITS[s0[0]] if s0 else 0) | (UNDER_BITS[s1[0]] if s1 else 0) | (UNDER_BITS[s2[0]] if s2 else 0)
             | (UNDER_BITS[s3[0]] if s3 else 0))
    out: list[int] = []
    if not under:
        return out
    tops = ((BIT[s0[-1]] if s0 else 0) | (BIT[s1[-1]] if s1 else 0) | (BIT[s2[-1]] if s2 else 0)
            | (BIT[s3[-1]] if s3 else 0) | (BIT[s4[-1]] if s4 else 0) | (BIT[s5[-1]] if s5 else 0)
            | (BIT[s6[-1]] if s6 else 0) | (BIT[s7[-1]] if s7 else 0))
    if not under & tops:
        return out  # no bottom card fits on any top card (a stack never fits on its own top)
    for a in range(4):
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


def win_chances(game: Kingpins, s: State) -> tuple[float, ...] | None:
    """Each player's chance of winning the game from the totals between two rounds (the
    search's ``win`` goal; None elsewhere, as ``standings_value``).

    A player wins by finishing below every rival: the product over the rivals of the
    pairwise chances of ``standings_value`` (taken as independent), the products then
    scaled to sum to 1. With two players it is ``standings_value`` itself.
    """
    if s.phase != DEAL or s.deal != 0 or not s.history:
        return None
    n = game.num_players
    spread = ROUND_SPREAD[n] * math.sqrt(2.0 * (ROUNDS - s.round))
    totals = s.totals
    erf = math.erf
    out = []
    for i in range(n):
        v = 1.0
        ti = totals[i]
        for j in range(n):
            if j != i:
                v *= 0.5 * (1.0 + erf((totals[j] - ti) / spread))
        out.append(v)
    total = sum(out)
    if total <= 0.0:
        return standings_value(game, s)
    return tuple(v / total for v in out)


def rollout(game: Kingpins, s: State, rng: random.Random, rolled: int, steps: int, overrun: int,
            cut: int | None, evaluate, deadline: float | None, clock) -> tuple[State, int, int, tuple | None]:
    """The search's heuristic rollout from ``s``, written out for Kingpins (``agents.bound.bound_rollout``).

    It takes the steps of the rollout loop in ``agents.search`` with this heuristic, the
    rules' ``apply`` and ``sample_chance_outcome`` (a turn's end and its draw in one go),
    and the same stream: the same moves
    and cards, ``evaluate`` asked where it can answer (a round just scored: at any other
    state ``evaluate_state`` and ``win_chances`` answer None) once ``cut`` rollout
    decisions were made, and the same stops (``steps`` past ``overrun``, or past the
    ``deadline``). Returns the state reached, TERMINAL if it ends the game (CHANCE where
    the rollout was cut, else the last player), the steps taken and the estimate (or None).
    """
    apply = rules.apply
    draw = rules.sample_chance_outcome
    draw_kind = rules.draw_kind
    drawn = rules._drawn
    heuristic = heuristic_action
    while True:
        ph = s.phase
        if ph <= COLLECT:  # a chance node: DEAL, DRAW or COLLECT
            if ph == DEAL and cut is not None and rolled >= cut and not s.deal and s.history:
                est = evaluate(s)
                if est is not None:
                    return s, CHANCE, steps, est
            s = apply(game, s, draw(game, s, rng))
            steps += 1
            continue
        if ph == END:
            return s, TERMINAL, steps, None
        cur = s.current  # PLAY or RUB_OUT
        a = heuristic(game, s, cur, rng)
        rolled += 1
        steps += 1
        if a == _END_TURN and s.unseen and not s.no_draw:
            # The turn ends with a draw: the DRAW node between is skipped (nothing is asked
            # there), the card drawn from the same stockpile with the same draw.
            if steps > overrun or (deadline is not None and clock() > deadline):
                return apply(game, s, a, cur), cur, steps, None
            s = drawn(game, s, draw_kind(s.unseen, rng))
            steps += 1
            continue
        s = apply(game, s, a, cur)
        if steps > overrun or (deadline is not None and clock() > deadline):
            return s, cur, steps, None
