"""REFERENCE for the speed tests (issue 16): the bot as it was before its speed-ups (commit a8a2608),
kept unchanged so that the fast bot's choices can be compared with it.

The San Quentin Kings heuristic: concentrate one gang member type, fight where it is strong,
buy respect, and spend bribe chips only when they win a fight.

It reads only what the acting player may know: their own shank cards and drug
chips, their own fist, and public counts (pieces, fight areas, the fight deck's
make-up, how many goods each player holds). So it plays the same on any state
sampled from the player's view.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import (
    CARD_TYPE,
    CARD_VALUE,
    GUARD,
    IS_FIGHT,
    NUM_BLOCKS,
    PAROLE,
    PRIORITY,
    ROUND_CARDS,
)
from kingmaker.games.san_quentin_kings.fight import strength
from kingmaker.games.san_quentin_kings.state import (
    CELL,
    CHIPS,
    COMM,
    DR,
    F_COMMITTED,
    FIGHT,
    GSIZE,
    P_BLOCK,
    P_CAFE,
    P_DRAWN,
    P_DRUGPAY,
    P_FISTS,
    P_GUARD,
    P_GYM,
    P_PAROLE,
    P_PICK,
    P_STOLEN,
    P_TOSOL,
    P_TURN,
    P_VIC_DRUG,
    P_VIC_SHANK,
    PSIZE,
    SH,
    SOL,
    YARD,
    State,
)

if TYPE_CHECKING:
    from kingmaker.games.san_quentin_kings.game import SanQuentinKings


def _cell(s: State, p: int) -> list[int]:
    o = p * PSIZE + CELL
    return list(s.pieces[o : o + 3])


def _fights_left(s: State) -> int:
    return sum(1 for b in range(NUM_BLOCKS) if IS_FIGHT[b] and not s.used >> b & 1)


def _place(game: SanQuentinKings, s: State, player: int) -> int:
    """Returns the player's place in the fight as it stands (0 first; len if unplaced)."""
    r = game.ranking(s)
    return r.index(player) if player in r else len(r)


def heuristic_action(game: SanQuentinKings, s: State, player: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    ph = s.phase
    if ph == P_BLOCK:
        return _choose_block(game, s, player, legal, rng)
    if ph == P_FISTS:
        return _fist(s, player, legal)
    if ph == P_TURN:
        return _turn(game, s, player, legal, rng)
    if ph == P_DRAWN:
        f = player * PSIZE + FIGHT
        if s.pending in (GUARD, PAROLE) and sum(s.pieces[f : f + 3]):
            return A.REDRAW
        return A.KEEP
    if ph in (P_TOSOL, P_PAROLE):
        st = strength(s, player)
        return min(legal, key=lambda a: (st[(a - A.TOSOL0) % 3], a))
    if ph in (P_VIC_DRUG, P_VIC_SHANK):
        off = DR if ph == P_VIC_DRUG else SH
        base = A.VICDRUG0 if ph == P_VIC_DRUG else A.VICSHANK0
        # The richest victim; ties by seat relative to the thief (no seat is picked on).
        n = game.n
        return max(legal, key=lambda a: (sum(s.goods[(a - base) * GSIZE + off : (a - base) * GSIZE + off + 3]),
                                         -((a - base - player) % n)))
    if ph == P_STOLEN:
        f = player * PSIZE + FIGHT
        return A.PLAY_STOLEN if s.pieces[f + s.pending % 3] else A.KEEP_STOLEN
    if ph == P_PICK:
        return _pick(game, s, player, legal)
    if ph == P_GYM:
        return _gym(s, player, legal)
    if ph == P_CAFE:
        for a in (A.CAFE_R2, A.CAFE_DRUG0 + 2, A.CAFE_R1, A.CAFE_DRUG0 + 1, A.CAFE_PIECE0):
            if a in legal:
                return a
        return A.CAFE_NONE
    if ph == P_GUARD:
        return _guard(s, player, legal)
    if ph == P_DRUGPAY:
        cell = _cell(s, player)
        if max(cell) >= 3:
            g = s.goods
            o = player * GSIZE
            if A.PAY_COMM in legal and g[o + COMM] >= 2:
                return A.PAY_COMM
            for a in legal:
                if A.PAY_SHANK0 <= a < A.DECLINE:
                    return a
            if A.PAY_COMM in legal:
                return A.PAY_COMM
        return A.DECLINE
    return rng.choice(legal)


def _choose_block(game: SanQuentinKings, s: State, p: int, legal: list[int], rng: random.Random) -> int:
    n = game.n
    cell = _cell(s, p)
    mine = max(cell)
    others = max(max(_cell(s, q)) for q in range(n) if q != p)
    g = s.goods
    o = p * GSIZE
    goods = sum(g[o : o + 6]) + g[o + COMM]
    best, best_v = legal[0], -1e9
    for b in legal:
        if IS_FIGHT[b]:
            v = 2.0 + (mine - others) * 0.8
        elif b == 4:  # gym
            v = min(cell[0], 3) * 0.9 + 0.2
        elif b == 5:  # cafeteria
            v = 1.8 if g[o + COMM] else 0.1
        else:  # guard influence
            v = 1.2 if goods >= 4 and s.supply[13] else 0.0
        v += rng.random() * 0.3
        if v > best_v:
            best, best_v = b, v
    return best


def _fist(s: State, p: int, legal: list[int]) -> int:
    cell = _cell(s, p)
    pr = PRIORITY[s.block]
    t = max(range(3), key=lambda x: (cell[x], pr[x]))
    left = max(_fights_left(s), 1)
    k = cell[t] if left <= 1 else min(cell[t], max(3, -(-sum(cell) // left)))
    counts = [0, 0, 0]
    counts[t] = k
    a = A.fist(*counts)
    return a if a in legal else legal[-1]


def _turn(game: SanQuentinKings, s: State, p: int, legal: list[int], rng: random.Random) -> int:
    committed = s.flags & F_COMMITTED
    st = strength(s, p)
    f = p * PSIZE + FIGHT
    present = [s.pieces[f + t] > 0 for t in range(3)]
    for _h, _o, t in s.bribed:
        if _h == p:
            present[t] = True
    place = _place(game, s, p)
    hand = s.goods[p * GSIZE + SH : p * GSIZE + SH + 3]
    good_shanks = [A.SHANK0 + t for t in range(3) if hand[t] and present[t]]
    top = max(range(3), key=lambda t: st[t])
    good_shanks.sort(key=lambda a: (a - A.SHANK0) != top)
    need = s.need if committed else ROUND_CARDS[s.rnd]
    # A bribe that wins the fight is worth its chip.
    if s.goods[p * GSIZE + CHIPS] and place > 0 and (need == 0 or not good_shanks):
        options = [a for a in legal if A.TAKE0 <= a < A.STEAL0 or A.KILL0 <= a < A.TOSOL0]
        rng.shuffle(options)
        for a in options:
            if _place(game, game.apply(s, a, p), p) == 0:
                return a
    if need <= 0:
        return A.END_TURN if A.END_TURN in legal else legal[0]
    if good_shanks:
        return good_shanks[0]
    if A.DRAW in legal:
        deck = s.fdeck
        size = sum(deck)
        if size:
            good = sum(CARD_VALUE[k] * deck[k] for k in range(len(deck)) if CARD_TYPE[k] >= 0 and present[CARD_TYPE[k]])
            bad = deck[GUARD] + deck[PAROLE]
            risky = (good - 1.5 * bad) / size < 0.15
        else:
            risky = False
        if committed or not (place == 0 and s.rnd >= 2) and not (risky and place == 0):
            return A.DRAW
    if not committed and A.PASS in legal:
        return A.PASS
    return legal[0]


def _pick(game: SanQuentinKings, s: State, p: int, legal: list[int]) -> int:
    n = game.n

    def total(q: int, t: int) -> int:
        o = q * PSIZE
        return s.pieces[o + CELL + t] + s.pieces[o + YARD + t] + s.pieces[o + SOL + t] + s.pieces[o + FIGHT + t]

    def value(a: int) -> tuple[int, int]:
        t = a - A.PICK0
        gap = max(total(q, t) for q in range(n) if q != p) - total(p, t)
        return (1 if 0 <= gap <= 1 else 0, -t)

    return max(legal, key=value)


def _gym(s: State, p: int, legal: list[int]) -> int:
    left = _fights_left(s)

    def value(a: int) -> float:
        x = a - A.GYM0
        t, sc, c = x >> 4, (x >> 2) & 3, x & 3
        return c * 1.0 + sc * 0.35 + t * 0.25 - (c + sc + t) * 0.15 * left

    return max(legal, key=lambda a: (value(a), -a))


_PAY_ORDER = (3, 0, 1, 2, 4, 6, 5)  # green drugs first, brown horse last


def _guard(s: State, p: int, legal: list[int]) -> int:
    g = s.goods
    o = p * GSIZE
    have = [*g[o : o + 6], g[o + COMM]]
    if sum(have) < 4 or len(legal) == 1:
        return A.CHIP_DONE
    rank = {good: i for i, good in enumerate(_PAY_ORDER)}
    buys = [a for a in legal if a != A.CHIP_DONE]
    return min(buys, key=lambda a: (max(rank[(a - A.CHIP0) // 7], rank[(a - A.CHIP0) % 7]), a))


__all__ = ["heuristic_action"]
