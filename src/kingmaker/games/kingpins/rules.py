"""Kingpins rules.

Rulebook: ``src/kingmaker/rulebooks/kingpins.txt`` (sections quoted in the tests).
Rulings and the designed deck: ``docs/rulings/kingpins.md`` (KP-D1 ..., KP-1 ...).

A round as a chain of nodes::

    DEAL (chance)    5 cards to each player, one at a time, then one card face up
                     on each of N, E, S, W (a Femme Fatale turned up is shuffled
                     back, ruling KP-3)
    PLAY (player)    any number of plays and stack moves, then "end turn"
    RUB_OUT (player) after an Enforcer: discard one card worth 6 or less, or keep
    COLLECT (chance) after a Bookie: the next player draws one card
    DRAW (chance)    the card drawn at the end of a turn
    -> the next player's PLAY; the round ends when a hand empties or, with the
       stockpile empty, when every player in a row ends a turn without a play.

Five rounds; the lowest total wins, then the most rounds won, then a share.

These are functions of the game (its options) and a state; the ``Game`` class
that binds them as methods is in ``game.py``. This module depends only on
``state``, ``actions`` and ``data``.
"""

from __future__ import annotations

from bisect import bisect_right
from itertools import repeat
from typing import TYPE_CHECKING

from ...core.api import CHANCE, TERMINAL, node_name
from ...core.errors import IllegalActionError, InvalidActionError, InvalidStateError
from . import actions as A
from .actions import NUM_ACTIONS
from .data import (
    AB_ALIBI,
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_LIE_LOW,
    AB_RUB_OUT,
    ABILITY,
    BIT,
    CLEAR,
    COPIES,
    FF_ALL_BITS,
    FF_BITS,
    FF_RED,
    FULL_DECK,
    KIND_BITS,
    KINGPIN_BITS,
    KINGPIN_RANK,
    NUM_CARDS,
    NUM_KINDS,
    NUM_RANKED,
    ONTO,
    ONTO_BITS,
    RANK,
    ROUNDS,
    RUB_OUT_BITS,
    RUB_OUT_MAX_VALUE,
    STACK_NAMES,
    UNDER,
    UNDER_BITS,
    VALUE,
    add_card,
    card_label,
    count,
    is_canonical,
    kinds,
    remove_card,
)
from .state import COLLECT, DEAL, DRAW, END, PLAY, RUB_OUT, State, _Filling, make

if TYPE_CHECKING:
    from .game import Kingpins

_EMPTY_STACKS: tuple[tuple[int, ...], ...] = ((),) * 8
_RANKED_BITS = (1 << NUM_RANKED) - 1
_UNDER_STRIDE = NUM_KINDS * 8
_DUP_KINDS = tuple(range(NUM_RANKED, NUM_KINDS))
# _CHUNK_KINDS[i][b]: the ranked kinds whose bits in the 6-bit chunk i of a set are b.
_CHUNK_KINDS = tuple(
    tuple(tuple(6 * i + j for j in range(6) if b >> j & 1) for b in range(64))
    for i in range(NUM_RANKED // 6)
)
# _ONE[k]: the tuple (k,).
_ONE = tuple((k,) for k in range(NUM_KINDS))
_UNDER0, _MOVE0, _END_TURN, _KEEP = A.UNDER0, A.MOVE0, A.END_TURN, A.KEEP
# _TOP_PAIRS[b]: for the byte b of bits 48..55 of a set (bit j < 4: the first copy of kind
# 48 + j; bit j + 4: its second copy), the indices 2 * j + copies - 1 of the pairs in the
# list of the duplicated kinds' pairs (48, p), (48, 2p), (49, p), ..., in kind order.
_TOP_PAIRS = tuple(
    tuple(2 * j + (b >> (j + 4) & 1) for j in range(len(_DUP_KINDS)) if b >> j & 1) for b in range(256)
)


# The chance outcomes of a stockpile of n cards, by n (built at the first stockpile of that
# size, about 0.3 ms): 8 tables by 6-bit chunk of the set's bits 0..47 (the ranked kinds),
# then one by the byte of bits 48..55 (the Femme Fatales' and Hideouts' first and second
# copies). An entry is the tuple of the (kind, probability) pairs of the kinds its bits hold,
# in kind order.
_OUTCOMES: dict[int, tuple[tuple[tuple[tuple[int, float], ...], ...], ...]] = {}


def _outcome_tables(n: int) -> tuple[tuple[tuple[tuple[int, float], ...], ...], ...]:
    p = 1.0 / n
    ranked = tuple(zip(range(NUM_RANKED), repeat(p))).__getitem__
    dup = tuple((k, p * m) for k in _DUP_KINDS for m in (1, 2)).__getitem__  # a second copy doubles the share
    tables = [tuple([tuple(map(ranked, kinds)) for kinds in chunk]) for chunk in _CHUNK_KINDS]
    tables.append(tuple([tuple(map(dup, idx)) for idx in _TOP_PAIRS]))
    out = _OUTCOMES[n] = tuple(tables)
    return out


# _SUMS[n]: the running sums p, p + p, ... (n terms, p = 1 / n, added one at a time) that
# core.match.sample_chance reaches over the outcomes of a stockpile of n cards: the ranked
# kinds come first, each with share p, so these are its floats there, exactly.
_SUMS: dict[int, tuple[float, ...]] = {}
# _SELECT[c]: the set bits of the 12-bit chunk c, lowest first.
_SELECT = tuple(tuple(j for j in range(12) if c >> j & 1) for c in range(4096))


def _sums(n: int) -> tuple[float, ...]:
    p = 1.0 / n
    acc = 0.0
    out = []
    for _ in range(n):
        acc += p
        out.append(acc)
    sums = _SUMS[n] = tuple(out)
    return sums


def new_initial_state(game: Kingpins) -> State:
    n = game.num_players
    return make(DEAL, 0, 0, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
                (0,) * n, (), (0,) * n)


def current_player(game: Kingpins, s: State) -> int:
    ph = s.phase
    if ph == PLAY or ph == RUB_OUT:
        return s.current
    if ph == END:
        return TERMINAL
    return CHANCE


def chance_outcomes(game: Kingpins, s: State) -> list[tuple[int, float]]:
    ph = s.phase
    if ph > COLLECT:
        raise IllegalActionError(f"{game.name}: chance_outcomes called at a {node_name(current_player(game, s))} node")
    u = s.unseen
    if ph == DEAL and s.deal >= game.hand_deal:
        # Ruling KP-3: a Femme Fatale turned up for a recruitment stack is shuffled back.
        u &= ~FF_ALL_BITS
    # Each card left is equally likely (a second copy doubles its kind's share): the
    # (kind, probability) pairs in kind order, read from the tables of u's size.
    n = u.bit_count()
    c0, c1, c2, c3, c4, c5, c6, c7, top = _OUTCOMES.get(n) or _outcome_tables(n)
    lo = u & 0xFFFFFF  # 24-bit halves of the ranked bits: small ints, cheap to shift
    hi = u >> 24 & 0xFFFFFF
    return [*c0[lo & 63], *c1[lo >> 6 & 63], *c2[lo >> 12 & 63], *c3[lo >> 18], *c4[hi & 63],
            *c5[hi >> 6 & 63], *c6[hi >> 12 & 63], *c7[hi >> 18], *top[u >> 48 & 255]]


def sample_chance_outcome(game: Kingpins, s: State, rng) -> int:
    """Returns ``core.match.sample_chance(chance_outcomes(s), rng)`` without building the list.

    The same single ``rng.random()`` draw is compared with the same running sums (the
    ranked kinds' ones read from ``_SUMS``, the Femme Fatales' and Hideouts' added one by
    one as there), so the card and the stream after are the same (checked in
    tests/games/kingpins/test_kingpins_chance_sampler.py).
    """
    ph = s.phase
    if ph > COLLECT:
        raise IllegalActionError(f"{game.name}: a chance outcome asked at a {node_name(current_player(game, s))} node")
    u = s.unseen
    if ph == DEAL and s.deal >= game.hand_deal:
        u &= ~FF_ALL_BITS  # ruling KP-3, as in chance_outcomes
    return draw_kind(u, rng)


def draw_kind(u: int, rng) -> int:
    """Returns the kind of a card drawn from the set ``u`` as ``sample_chance_outcome`` does."""
    n = u.bit_count()
    sums = _SUMS.get(n) or _sums(n)
    r = rng.random()
    ranked = u & _RANKED_BITS
    m = ranked.bit_count()
    i = bisect_right(sums, r, 0, m)  # the first ranked outcome whose running sum passes r
    if i < m:  # the i-th ranked kind held, lowest first
        c = ranked & 4095
        k = c.bit_count()
        if i < k:
            return _SELECT[c][i]
        i -= k
        c = ranked >> 12 & 4095
        k = c.bit_count()
        if i < k:
            return 12 + _SELECT[c][i]
        i -= k
        c = ranked >> 24 & 4095
        k = c.bit_count()
        if i < k:
            return 24 + _SELECT[c][i]
        return 36 + _SELECT[ranked >> 36][i - k]
    acc = sums[m - 1] if m else 0.0
    p = 1.0 / n
    top = u >> 48
    for j in range(4):
        if top >> j & 1:
            acc += p * 2 if top >> (j + 4) & 1 else p  # p * m there (m copies): the same floats
            if r < acc:
                return NUM_RANKED + j
    # sample_chance's fall-back: the last outcome listed.
    return NUM_RANKED + (top & 15).bit_length() - 1 if top & 15 else ranked.bit_length() - 1


def legal_actions(game: Kingpins, s: State, player: int | None = None) -> list[int]:
    ph = s.phase
    if ph == PLAY:
        if player is not None and player != s.current:
            return []
        return _play_actions(game, s.hands[s.current], s.stacks)
    if ph == RUB_OUT:
        if player is not None and player != s.current:
            return []
        out = []
        m = s.hands[s.current] & RUB_OUT_BITS
        while m:
            low = m & -m
            out.append(A.DISCARD0 + low.bit_length() - 1)
            m ^= low
        out.append(A.KEEP)
        return out
    if ph == END or player is not None:
        return []
    return [a for a, _ in chance_outcomes(game, s)]


def _play_actions(game: Kingpins, hand: int, stacks: tuple[tuple[int, ...], ...]) -> list[int]:
    out = []
    tops = 0  # the top cards, as bits of their kinds
    t = 0
    for st in stacks:
        if st:
            top = st[-1]
            tops |= 1 << top
            if hand & ONTO_BITS[top]:
                for k in ONTO[top]:
                    if hand >> k & 1:
                        out.append(k * 8 + t)
        else:
            # An empty original recruitment stack takes any card, a Femme Fatale too
            # (ruling KP-4: the dead stack is the player's choice); an empty corner
            # takes only a kingpin.
            m = hand & (KIND_BITS if t < 4 else KINGPIN_BITS)
            while m:
                low = m & -m
                out.append((low.bit_length() - 1) * 8 + t)
                m ^= low
        t += 1
    ff = hand & FF_BITS
    a = 0
    for st in stacks:
        if st:
            b = st[0]
            up = UNDER_BITS[b]  # the kinds one rank above the bottom card, opposite colour
            if up & tops:
                # This stack may move onto each stack whose top card is in ``up``.
                for d in range(8):
                    sd = stacks[d]
                    if sd and up >> sd[-1] & 1 and d != a:
                        out.append(A.MOVE0 + a * 8 + d)
            if ff and up & hand:
                for k in UNDER[b]:
                    if hand >> k & 1:
                        for c in (0, 1):
                            if ff >> (FF_RED + c) & 1:
                                out.append(A.UNDER0 + c * _UNDER_STRIDE + k * 8 + a)
        a += 1
    out.append(A.END_TURN)
    out.sort()
    return out


def apply(game: Kingpins, s: State, action: int, player: int | None = None) -> State:
    ph = s.phase
    if ph == PLAY:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise _no_action(action)
        if action < _UNDER0:
            # A card onto a stack (the most common move, written out here): one lower in
            # the opposite colour, a Hideout on a 1, any card on an empty original stack,
            # or a kingpin in an empty corner. The new state is filled as its mutable twin.
            k = action >> 3
            cur = s.current
            hands = list(s.hands)
            hand = hands[cur]
            hand &= CLEAR[k + 4] if k >= NUM_RANKED and hand >> (k + 4) & 1 else CLEAR[k]
            hands[cur] = hand
            stacks = list(s.stacks)
            stacks[action & 7] += _ONE[k]
            if not hand:
                return _after_play(game, s, k, hand, tuple(hands), tuple(stacks), s.discards)
            o = _Filling()
            o.phase = PLAY
            o.no_draw = s.no_draw
            if game.abilities:  # as in _after_play
                ab = ABILITY[k]
                if ab == AB_COLLECT:
                    if s.unseen:
                        o.phase = COLLECT
                elif ab == AB_RUB_OUT:
                    if hand & RUB_OUT_BITS:
                        o.phase = RUB_OUT
                elif ab == AB_ALL_CLEAR:
                    o.no_draw = True
            o.round = s.round
            o.current = cur
            o.deal = s.deal
            o.hands = tuple(hands)
            o.unseen = s.unseen
            o.stacks = tuple(stacks)
            o.discards = s.discards
            o.played = True
            o.passes = 0
            o.totals = s.totals
            o.history = s.history
            o.last_hands = s.last_hands
            o.__class__ = State
            return o  # type: ignore[return-value]
        if action == _END_TURN and s.unseen and not s.no_draw:
            # The turn ends with a draw: the same state at the DRAW node.
            o = _Filling()
            o.phase = DRAW
            o.round = s.round
            o.current = s.current
            o.deal = s.deal
            o.hands = s.hands
            o.unseen = s.unseen
            o.stacks = s.stacks
            o.discards = s.discards
            o.played = s.played
            o.passes = s.passes
            o.no_draw = s.no_draw
            o.totals = s.totals
            o.history = s.history
            o.last_hands = s.last_hands
            o.__class__ = State
            return o  # type: ignore[return-value]
        return _apply_play(game, s, action)
    if ph == DRAW and type(action) is int and 0 <= action < NUM_KINDS and s.unseen >> action & 1:
        return _drawn(game, s, action)  # the card drawn at the end of a turn (the most common chance node)
    if ph == RUB_OUT:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise _no_action(action)
        if action == _KEEP:
            return make(PLAY, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks,
                        s.discards, True, 0, s.no_draw, s.totals, s.history, s.last_hands)
        k = action - A.DISCARD0
        cur = s.current
        hand = remove_card(s.hands[cur], k)
        hands = s.hands[:cur] + (hand,) + s.hands[cur + 1:]
        discards = add_card(s.discards, k)
        if not hand:
            return _end_round(game, s, hands, s.stacks, discards)
        return make(PLAY, s.round, cur, s.deal, hands, s.unseen, s.stacks, discards, True, 0,
                    s.no_draw, s.totals, s.history, s.last_hands)
    # A chance outcome is the kind of the card dealt or drawn: one left in the stockpile (and
    # no Femme Fatale for a recruitment stack, ruling KP-3).
    if (type(action) is not int or not 0 <= action < NUM_KINDS or not s.unseen >> action & 1 or ph == END
            or (ph == DEAL and s.deal >= game.hand_deal and (action == FF_RED or action == FF_RED + 1))):
        raise InvalidActionError(f"{action!r} is not a chance outcome offered here (a card kind left to "
                                 "deal or draw)", text=str(action))
    return _apply_chance(game, s, action)


def _drawn(game: Kingpins, s: State, k: int) -> State:
    """The state after the current player, ending a turn, drew a card of kind ``k`` (in the
    stockpile): the next player's turn. ``s`` is the DRAW node, or the PLAY node whose
    'end turn' leads there (they differ only in the phase): the search's rollout skips that node."""
    u = s.unseen
    u &= CLEAR[k + 4] if k >= NUM_RANKED and u >> (k + 4) & 1 else CLEAR[k]
    cur = s.current
    hands = list(s.hands)
    hand = hands[cur]
    hands[cur] = hand | (BIT[k + 4] if k >= NUM_RANKED and hand >> k & 1 else BIT[k])
    cur += 1
    o = _Filling()
    o.phase = PLAY
    o.round = s.round
    o.current = 0 if cur == game.num_players else cur
    o.deal = s.deal
    o.hands = tuple(hands)
    o.unseen = u
    o.stacks = s.stacks
    o.discards = s.discards
    o.played = False
    o.passes = s.passes
    o.no_draw = False
    o.totals = s.totals
    o.history = s.history
    o.last_hands = s.last_hands
    o.__class__ = State
    return o  # type: ignore[return-value]


def _no_action(action: object) -> InvalidActionError:
    return InvalidActionError(f"action {action!r} is outside 0..{NUM_ACTIONS - 1}", text=str(action))


def _apply_chance(game: Kingpins, s: State, k: int) -> State:
    n = game.num_players
    unseen = remove_card(s.unseen, k)
    ph = s.phase
    if ph == DRAW:
        cur = s.current
        hands = s.hands[:cur] + (add_card(s.hands[cur], k),) + s.hands[cur + 1:]
        nxt = cur + 1
        if nxt == n:
            nxt = 0
        return make(PLAY, s.round, nxt, s.deal, hands, unseen, s.stacks, s.discards, False,
                     s.passes, False, s.totals, s.history, s.last_hands)
    if ph == COLLECT:
        q = (s.current + 1) % n
        hands = s.hands[:q] + (add_card(s.hands[q], k),) + s.hands[q + 1:]
        if not hands[s.current]:
            # Ruling KP-9: the Bookie was the last card; its Collect resolved, the round ends.
            return _end_round(game, s, hands, s.stacks, s.discards, unseen)
        return make(PLAY, s.round, s.current, s.deal, hands, unseen, s.stacks, s.discards,
                     True, 0, s.no_draw, s.totals, s.history, s.last_hands)
    # DEAL
    d = s.deal
    hands, stacks = s.hands, s.stacks
    if d < game.hand_deal:
        q = d % n
        hands = hands[:q] + (add_card(hands[q], k),) + hands[q + 1:]
    else:
        t = d - game.hand_deal
        stacks = stacks[:t] + ((k,),) + stacks[t + 1:]
    d += 1
    phase = PLAY if d == game.setup_cards else DEAL
    return make(phase, s.round, s.current, d, hands, unseen, stacks, s.discards, False, 0,
                 False, s.totals, s.history, s.last_hands)


def _apply_play(game: Kingpins, s: State, action: int) -> State:
    cur = s.current
    stacks = s.stacks
    if action < A.UNDER0:
        # A card onto a stack: one lower in the opposite colour, a Hideout on a 1, any card
        # on an empty original stack, or a kingpin in an empty corner.
        k, t = divmod(action, 8)
        hand = remove_card(s.hands[cur], k)
        stacks = stacks[:t] + (stacks[t] + (k,),) + stacks[t + 1:]
        discards = s.discards
    elif action < A.MOVE0:
        # A Femme Fatale is discarded to slip a card under a stack's bottom card.
        c, rest = divmod(action - A.UNDER0, _UNDER_STRIDE)
        k, t = divmod(rest, 8)
        hand = remove_card(remove_card(s.hands[cur], k), FF_RED + c)
        stacks = stacks[:t] + ((k,) + stacks[t],) + stacks[t + 1:]
        discards = add_card(s.discards, FF_RED + c)
    elif action < A.END_TURN:
        a, b = divmod(action - A.MOVE0, 8)
        st = list(stacks)
        st[b] = st[b] + st[a]
        st[a] = ()
        return make(PLAY, s.round, cur, s.deal, s.hands, s.unseen, tuple(st), s.discards,
                    True, 0, s.no_draw, s.totals, s.history, s.last_hands)
    else:
        return _end_turn(game, s)
    return _after_play(game, s, k, hand, s.hands[:cur] + (hand,) + s.hands[cur + 1:], stacks, discards)


def _after_play(game: Kingpins, s: State, k: int, hand: int, hands: tuple[int, ...],
                stacks: tuple[tuple[int, ...], ...], discards: int) -> State:
    """The state after the current player put card ``k`` on a stack (``hand``: what is left)."""
    cur = s.current
    if not hand:
        # Ruling KP-9: "When you play a card, resolve its special ability (if any)
        # immediately", then "if, after playing a card, you have none left in hand, the
        # round ends". Of the abilities only Collect can still act (Rub Out has no card
        # left to discard, All Clear no draw left to save): the next player draws first.
        if game.abilities and ABILITY[k] == AB_COLLECT and s.unseen:
            return make(COLLECT, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
                        s.no_draw, s.totals, s.history, s.last_hands)
        return _end_round(game, s, hands, stacks, discards)
    phase = PLAY
    no_draw = s.no_draw
    if game.abilities:
        ab = ABILITY[k]
        if ab == AB_COLLECT:
            if s.unseen:
                phase = COLLECT
        elif ab == AB_RUB_OUT:
            if hand & RUB_OUT_BITS:
                phase = RUB_OUT
        elif ab == AB_ALL_CLEAR:
            no_draw = True
    return make(phase, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
                no_draw, s.totals, s.history, s.last_hands)


def _end_turn(game: Kingpins, s: State) -> State:
    if s.unseen and not s.no_draw:
        return make(DRAW, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks, s.discards,
                     s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)
    passes = s.passes
    if not s.played and not s.unseen:
        passes += 1
        if passes >= game.num_players:
            return _end_round(game, s, s.hands, s.stacks, s.discards)
    nxt = (s.current + 1) % game.num_players
    return make(PLAY, s.round, nxt, s.deal, s.hands, s.unseen, s.stacks, s.discards, False,
                 passes, False, s.totals, s.history, s.last_hands)


def _end_round(game: Kingpins, s: State, hands: tuple[int, ...], stacks: tuple, discards: int,
               unseen: int | None = None) -> State:
    """Scores the hands and starts the next round's deal, or ends the game after the fifth."""
    n = game.num_players
    scores = tuple(hand_score(game, h) for h in hands)
    totals = tuple(a + b for a, b in zip(s.totals, scores))
    history = s.history + (scores,)
    r = s.round + 1
    if r >= ROUNDS:
        return make(END, s.round, s.current, s.deal, hands, s.unseen if unseen is None else unseen,
                     stacks, discards, False,
                     0, False, totals, history, hands)
    return make(DEAL, r, r % n, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
                 totals, history, hands)


# Hand scores already worked out, by hand, without and with abilities (every rollout of the
# search scores the hands at its round's end; a hand is a small int, and the tables are
# emptied when they grow large).
_SCORES: tuple[dict[int, int], dict[int, int]] = ({}, {})


def hand_score(game: Kingpins, hand: int) -> int:
    """Returns a hand's round score: card values, then Alibi and Lie Low (with abilities)."""
    known = _SCORES[game.abilities]
    score = known.get(hand)
    if score is None:
        if len(known) >= 65536:
            known.clear()
        score = known[hand] = _hand_score(game, hand)
    return score


def _hand_score(game: Kingpins, hand: int) -> int:
    ks = kinds(hand)
    if not game.abilities:
        return sum(VALUE[k] for k in ks)
    if ks and all(ABILITY[k] == AB_LIE_LOW for k in ks):
        return 0  # Lie Low: nothing but Hideouts left
    lawyers = [k for k in ks if ABILITY[k] == AB_ALIBI]
    others = sorted((VALUE[k] for k in ks if ABILITY[k] != AB_ALIBI), reverse=True)
    return sum(VALUE[k] for k in lawyers) + sum(others[len(lawyers):])


def round_winners(game: Kingpins, scores: tuple[int, ...]) -> tuple[int, ...]:
    """Returns the players who won a round: the lowest round score (ruling KP-7)."""
    best = min(scores)
    return tuple(p for p, v in enumerate(scores) if v == best)


def rounds_won(game: Kingpins, s: State) -> tuple[int, ...]:
    won = [0] * game.num_players
    for scores in s.history:
        for p in round_winners(game, scores):
            won[p] += 1
    return tuple(won)


def ranking(game: Kingpins, s: State) -> list[list[int]]:
    """Returns the players in finishing order, tied players grouped: lowest total first,
    then most rounds won (rulebook, Game End); players equal on both share a place."""
    won = rounds_won(game, s)
    keys = {p: (s.totals[p], -won[p]) for p in range(game.num_players)}
    groups: list[list[int]] = []
    for p in sorted(keys, key=lambda q: (keys[q], q)):
        if groups and keys[groups[-1][0]] == keys[p]:
            groups[-1].append(p)
        else:
            groups.append([p])
    return groups


def winners(game: Kingpins, s: State) -> tuple[int, ...]:
    return tuple(ranking(game, s)[0]) if s.phase == END else ()


def returns(game: Kingpins, s: State) -> tuple[float, ...]:
    n = game.num_players
    if s.phase != END:
        return (0.0,) * n
    out = [0.0] * n
    place = 0
    for group in ranking(game, s):
        # Places place .. place+len-1 earn (n-1-i)/(n-1); a tied group shares the mean.
        pts = sum((n - 1 - i) / (n - 1) for i in range(place, place + len(group))) / len(group)
        for p in group:
            out[p] = pts
        place += len(group)
    return tuple(out)


def action_to_str(game: Kingpins, s: State, action: int) -> str:
    if s.phase <= COLLECT:  # DEAL, DRAW, COLLECT: a chance outcome, the card's kind
        return A.chance_to_str(action)
    return A.to_str(action, s.stacks)


def explain_illegal(game: Kingpins, s: State, action: int, player: int) -> str:
    if s.phase == RUB_OUT:
        return (f"after the Enforcer (Rub Out) you either discard one card worth "
                f"{RUB_OUT_MAX_VALUE} or less from your hand or keep")
    if s.phase != PLAY:
        return "it is not a moment for a move"
    hand = s.hands[player]
    if action < A.UNDER0:
        k, t = divmod(action, 8)
        st = s.stacks[t]
        if not count(hand, k):
            return f"you do not hold {card_label(k)}"
        if k in (FF_RED, FF_RED + 1):
            return ("a Femme Fatale has no rank: she goes only to an empty original recruitment "
                    "stack (N, E, S, W), or is discarded to slip a card under a stack "
                    "('<card> under <stack> with <Fr|Fb>')")
        if not st:
            if t >= 4:
                return f"only a kingpin (12) starts a syndicate in the empty corner {STACK_NAMES[t]}"
            return "it is not legal here"  # pragma: no cover - any card fits an empty original stack
        top = st[-1]
        if RANK[k] == 0:
            return f"a Hideout goes only on a 1 of the opposite colour; {STACK_NAMES[t]} shows {card_label(top)}"
        return (f"a card goes on a stack only one rank lower and in the opposite colour; "
                f"{STACK_NAMES[t]} shows {card_label(top)}")
    if action < A.MOVE0:
        c, rest = divmod(action - A.UNDER0, _UNDER_STRIDE)
        k, t = divmod(rest, 8)
        st = s.stacks[t]
        if not count(hand, FF_RED + c):
            return f"you hold no {card_label(FF_RED + c)} to discard"
        if k in (FF_RED, FF_RED + 1) or not count(hand, k):
            return f"you do not hold {card_label(k)} (and a Femme Fatale plays a different card)"
        if not st:
            return f"{STACK_NAMES[t]} is empty: there is no bottom card to slip a card under"
        return (f"the card slipped under must be one rank higher than the bottom card and of the "
                f"opposite colour; the bottom of {STACK_NAMES[t]} is {card_label(st[0])}")
    if action < A.END_TURN:
        a, b = divmod(action - A.MOVE0, 8)
        if a == b:
            return "a stack cannot be moved onto itself"
        if not s.stacks[a]:
            return f"{STACK_NAMES[a]} is empty"
        if not s.stacks[b]:
            return f"{STACK_NAMES[b]} is empty; a stack moves only onto another stack's top card"
        return (f"the bottom card of {STACK_NAMES[a]} ({card_label(s.stacks[a][0])}) must be one rank "
                f"lower and opposite in colour to the top card of {STACK_NAMES[b]} "
                f"({card_label(s.stacks[b][-1])})")
    if action < NUM_ACTIONS:
        return "discarding or keeping is chosen only after playing an Enforcer (Rub Out)"
    return "cards are dealt by chance, not chosen"


def validate_state(game: Kingpins, s: State) -> None:
    n = game.num_players
    ints = (s.phase, s.round, s.current, s.deal, s.passes, *s.totals)
    if any(type(x) is not int for x in ints) or type(s.played) is not bool or type(s.no_draw) is not bool:
        raise InvalidStateError("phase, round, current, deal, passes and totals are ints; played, no_draw bools")
    if s.phase not in (DEAL, DRAW, COLLECT, PLAY, RUB_OUT, END):
        raise InvalidStateError(f"unknown phase {s.phase}")
    if not (0 <= s.round < ROUNDS and 0 <= s.current < n and 0 <= s.passes < n):
        raise InvalidStateError("round, current player or passes out of range")
    if not 0 <= s.deal <= game.setup_cards or (s.phase not in (DEAL, END) and s.deal != game.setup_cards):
        raise InvalidStateError(f"deal counter {s.deal} out of range")
    if len(s.hands) != n or len(s.totals) != n or len(s.last_hands) != n or len(s.stacks) != 8:
        raise InvalidStateError(f"hands, totals and last hands need {n} entries; stacks 8")
    done = s.round + (s.phase == END)
    if len(s.history) != done or any(len(h) != n for h in s.history):
        raise InvalidStateError(f"history must hold one score per player for each of {done} rounds")
    if tuple(sum(h[p] for h in s.history) for p in range(n)) != s.totals:
        raise InvalidStateError("totals are not the sums of the round scores")
    sets = [*s.hands, s.unseen, s.discards, *s.last_hands]
    if not all(isinstance(m, int) and not isinstance(m, bool) and is_canonical(m) for m in sets):
        raise InvalidStateError("a card set is not a valid 56-card mask")
    counts = [0] * NUM_KINDS
    for m in (*s.hands, s.unseen, s.discards):
        for k in kinds(m):
            counts[k] += 1
    for t, st in enumerate(s.stacks):
        for i, k in enumerate(st):
            if not isinstance(k, int) or not 0 <= k < NUM_KINDS:
                raise InvalidStateError(f"stack {STACK_NAMES[t]} holds an unknown card {k!r}")
            counts[k] += 1
            if i and k not in ONTO[st[i - 1]]:
                raise InvalidStateError(f"stack {STACK_NAMES[t]} is not descending in alternating colours")
        if t >= 4 and st and RANK[st[0]] != KINGPIN_RANK:
            raise InvalidStateError(f"corner {STACK_NAMES[t]} must start with a kingpin")
    if counts != list(COPIES) or sum(counts) != NUM_CARDS:
        raise InvalidStateError(f"the cards do not add up to the deck: counts by kind {counts}")
    if s.phase == COLLECT and not s.unseen:
        raise InvalidStateError("the Bookie's draw needs a card in the stockpile")
    if s.phase == DRAW and not s.unseen:
        raise InvalidStateError("a draw needs a card in the stockpile")
    if s.phase in (PLAY, RUB_OUT, DRAW) and not s.hands[s.current]:
        # (At COLLECT it may: a Bookie played as the last card still acts, ruling KP-9.)
        raise InvalidStateError("the current player has no card: the round should have ended")
