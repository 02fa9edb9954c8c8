"""REFERENCE for the speed tests (issue 16 §1, second pass): the Kingpins rules' hot paths
(apply, chance outcomes, legal actions, scoring) as they were before that pass (commit 3ae6ed8),
kept unchanged (imports made absolute) so that the fast rules can be compared with them."""


from __future__ import annotations

from itertools import repeat
from typing import TYPE_CHECKING

from kingmaker.core.api import CHANCE, TERMINAL, node_name
from kingmaker.core.errors import IllegalActionError, InvalidActionError
from kingmaker.games.kingpins import actions as A
from kingmaker.games.kingpins.actions import NUM_ACTIONS
from kingmaker.games.kingpins.data import (
    AB_ALIBI,
    AB_ALL_CLEAR,
    AB_COLLECT,
    AB_LIE_LOW,
    AB_RUB_OUT,
    ABILITY,
    FF_ALL_BITS,
    FF_BITS,
    FF_RED,
    FULL_DECK,
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
    add_card,
    kinds,
    remove_card,
)
from kingmaker.games.kingpins.state import COLLECT, DEAL, DRAW, END, PLAY, RUB_OUT, State

if TYPE_CHECKING:
    from kingmaker.games.kingpins.game import Kingpins

_EMPTY_STACKS: tuple[tuple[int, ...], ...] = ((),) * 8
_RANKED_BITS = (1 << NUM_RANKED) - 1
_UNDER_STRIDE = NUM_KINDS * 8
_DUP_KINDS = tuple(range(NUM_RANKED, NUM_KINDS))
# _CHUNK_ACTS[i][byte]: the chance actions of the ranked cards whose bits in byte i are set.
_CHUNK_ACTS = tuple(
    tuple(tuple(8 * i + j for j in range(8) if b >> j & 1) for b in range(256))
    for i in range(NUM_RANKED // 8)
)


def new_initial_state(game: Kingpins) -> State:
    n = game.num_players
    return State(DEAL, 0, 0, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
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
    p = 1.0 / u.bit_count()
    c = _CHUNK_ACTS
    acts = (c[0][u & 255] + c[1][u >> 8 & 255] + c[2][u >> 16 & 255] + c[3][u >> 24 & 255]
            + c[4][u >> 32 & 255] + c[5][u >> 40 & 255])
    out = list(zip(acts, repeat(p, len(acts))))
    if u >> NUM_RANKED & 15:
        for k in _DUP_KINDS:
            if u >> k & 1:
                out.append((k, p * (1 + (u >> (k + 4) & 1))))
    return out


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
        return _apply_play(game, s, action)
    if ph == RUB_OUT:
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            raise _no_action(action)
        if action == A.KEEP:
            return State(PLAY, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks,
                         s.discards, True, 0, s.no_draw, s.totals, s.history, s.last_hands)
        k = action - A.DISCARD0
        cur = s.current
        hand = remove_card(s.hands[cur], k)
        hands = s.hands[:cur] + (hand,) + s.hands[cur + 1:]
        discards = add_card(s.discards, k)
        if not hand:
            return _end_round(game, s, hands, s.stacks, discards)
        return State(PLAY, s.round, cur, s.deal, hands, s.unseen, s.stacks, discards, True, 0,
                     s.no_draw, s.totals, s.history, s.last_hands)
    # A chance outcome is the kind of the card dealt or drawn: one left in the stockpile (and
    # no Femme Fatale for a recruitment stack, ruling KP-3).
    if (type(action) is not int or not 0 <= action < NUM_KINDS or not s.unseen >> action & 1 or ph == END
            or (ph == DEAL and s.deal >= game.hand_deal and (action == FF_RED or action == FF_RED + 1))):
        raise InvalidActionError(f"{action!r} is not a chance outcome offered here (a card kind left to "
                                 "deal or draw)", text=str(action))
    return _apply_chance(game, s, action)


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
        return State(PLAY, s.round, nxt, s.deal, hands, unseen, s.stacks, s.discards, False,
                     s.passes, False, s.totals, s.history, s.last_hands)
    if ph == COLLECT:
        q = (s.current + 1) % n
        hands = s.hands[:q] + (add_card(s.hands[q], k),) + s.hands[q + 1:]
        if not hands[s.current]:
            # Ruling KP-9: the Bookie was the last card; its Collect resolved, the round ends.
            return _end_round(game, s, hands, s.stacks, s.discards, unseen)
        return State(PLAY, s.round, s.current, s.deal, hands, unseen, s.stacks, s.discards,
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
    return State(phase, s.round, s.current, d, hands, unseen, stacks, s.discards, False, 0,
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
        return State(PLAY, s.round, cur, s.deal, s.hands, s.unseen, tuple(st), s.discards,
                     True, 0, s.no_draw, s.totals, s.history, s.last_hands)
    else:
        return _end_turn(game, s)
    hands = s.hands[:cur] + (hand,) + s.hands[cur + 1:]
    if not hand:
        # Ruling KP-9: "When you play a card, resolve its special ability (if any)
        # immediately", then "if, after playing a card, you have none left in hand, the
        # round ends". Of the abilities only Collect can still act (Rub Out has no card
        # left to discard, All Clear no draw left to save): the next player draws first.
        if game.abilities and ABILITY[k] == AB_COLLECT and s.unseen:
            return State(COLLECT, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
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
    return State(phase, s.round, cur, s.deal, hands, s.unseen, stacks, discards, True, 0,
                 no_draw, s.totals, s.history, s.last_hands)


def _end_turn(game: Kingpins, s: State) -> State:
    if s.unseen and not s.no_draw:
        return State(DRAW, s.round, s.current, s.deal, s.hands, s.unseen, s.stacks, s.discards,
                     s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)
    passes = s.passes
    if not s.played and not s.unseen:
        passes += 1
        if passes >= game.num_players:
            return _end_round(game, s, s.hands, s.stacks, s.discards)
    nxt = (s.current + 1) % game.num_players
    return State(PLAY, s.round, nxt, s.deal, s.hands, s.unseen, s.stacks, s.discards, False,
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
        return State(END, s.round, s.current, s.deal, hands, s.unseen if unseen is None else unseen,
                     stacks, discards, False,
                     0, False, totals, history, hands)
    return State(DEAL, r, r % n, 0, (0,) * n, FULL_DECK, _EMPTY_STACKS, 0, False, 0, False,
                 totals, history, hands)


def hand_score(game: Kingpins, hand: int) -> int:
    """Returns a hand's round score: card values, then Alibi and Lie Low (with abilities)."""
    ks = kinds(hand)
    if not game.abilities:
        return sum(VALUE[k] for k in ks)
    if ks and all(ABILITY[k] == AB_LIE_LOW for k in ks):
        return 0  # Lie Low: nothing but Hideouts left
    lawyers = [k for k in ks if ABILITY[k] == AB_ALIBI]
    others = sorted((VALUE[k] for k in ks if ABILITY[k] != AB_ALIBI), reverse=True)
    return sum(VALUE[k] for k in lawyers) + sum(others[len(lawyers):])
