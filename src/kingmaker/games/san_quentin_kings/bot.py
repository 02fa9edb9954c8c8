"""The San Quentin Kings heuristic: concentrate one gang member type, fight where it is strong,
buy respect, and spend bribe chips only when they win a fight.

It reads only what the acting player may know: their own shank cards and drug
chips, their own fist, and public counts (pieces, fight areas, the fight deck's
make-up, how many goods each player holds). So it plays the same on any state
sampled from the player's view.

Speed (the search rolls out with this bot, issue 16): a player's place in the
fight is counted from the rules' integer keys (``fight.place_key``, ordered as
``fight.fight_key`` orders strengths); a fighting turn reads its legal moves
from the state instead of listing them; and a bribe that only moves pieces
(take, free, kill) is tried on the piece counts alone when the fight goes on
after it (else on the state ``apply`` returns). The choices and the use of the
random stream are those of the plain computation
(``tests/games/san_quentin_kings/test_sqk_bot_speed.py`` compares them with the
previous implementation on seeded random states).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.fastrand import shuffle
from . import actions as A
from .blocks import BLOCKS_LEFT, guard_actions, seq_options
from .bribes import piece_bribes
from .data import (
    CARD_TYPE,
    CARD_VALUE,
    GUARD,
    IS_FIGHT,
    NUM_BLOCKS,
    NUM_KINDS,
    PAROLE,
    PRIORITY,
    ROUND_CARDS,
)
from .fight import (
    _key_memo,
    block_place_key,
    card_strength,
    fight_counts,
    pick_actions,
    place_key,
    place_keys,
    strength,
)
from .state import (
    CELL,
    CHIPS,
    COMM,
    DR,
    F_BRIBED,
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
    SCHIPS,
    SEQ_PHASES,
    SH,
    SOL,
    YARD,
    State,
)

if TYPE_CHECKING:
    from .game import SanQuentinKings


def _cell(s: State, p: int) -> list[int]:
    o = p * PSIZE + CELL
    return list(s.pieces[o : o + 3])


def _fights_left(s: State) -> int:
    return _FIGHTS_LEFT[s.used]


# _FIGHTS_LEFT[used]: the fight blocks not yet played when the bitmask ``used`` of blocks is played.
_FIGHTS_LEFT = tuple(sum(1 for b in range(NUM_BLOCKS) if IS_FIGHT[b] and not used >> b & 1)
                     for used in range(1 << NUM_BLOCKS))


def _place(game: SanQuentinKings, s: State, player: int) -> int:
    """Returns the player's place in the fight as it stands (0 first; len if unplaced)."""
    return _place_of(s, player, game.n, s.pieces, s.bribed)


def _fight_key(s: State, q: int, n: int, pieces, bribed, pr: tuple[int, ...]) -> int:
    """Returns player q's ``fight.place_key`` (-1: unplaced) with the fight areas given by
    ``pieces`` and ``bribed`` (the rest read from ``s``)."""
    if not s.inflight >> q & 1:
        return -1
    a0, a1, a2 = fight_counts(pieces, bribed, q)
    return place_key(a0, a1, a2, s.cards[q], pr, n - 1 - (q - s.initiator) % n)


def _place_of(s: State, player: int, n: int, pieces: tuple[int, ...], bribed: tuple) -> int:
    """``_place`` with the fight areas given by ``pieces`` and ``bribed`` (the rest read from ``s``):
    how many placed players have a greater key (``_fight_key``), or how many are placed."""
    pr = PRIORITY[s.block]
    return _place_in([_fight_key(s, q, n, pieces, bribed, pr) for q in range(n)], player)


def _keys(s: State, n: int) -> list[int]:
    """Every player's ``_fight_key`` with the fight areas of ``s`` (``fight.place_keys``)."""
    return place_keys(s, n)


def _place_in(keys: list[int], player: int) -> int:
    """``_place_of`` from every player's key: how many players have a greater key (an unplaced
    player's -1 is greater than none; an unplaced player counts every placed one)."""
    mine = keys[player]
    place = 0
    for k in keys:
        if k > mine:
            place += 1
    return place


def _is_first(s: State, p: int, n: int) -> bool:
    """``_place_in(_keys(s, n), p) == 0``: no other player's key beats p's. The keys are those of
    ``fight.place_keys`` (``block_place_key``, its memo read first), p's first, then the others'
    until one beats it."""
    pieces, bribed, inflight, ini, block, cards = s.pieces, s.bribed, s.inflight, s.initiator, s.block, s.cards
    memo = _key_memo  # block_place_key's memo, read here first
    mine = -1
    q = p
    for _ in range(n):
        if inflight >> q & 1:
            if bribed:
                a0, a1, a2 = fight_counts(pieces, bribed, q)
            else:
                f = q * PSIZE + FIGHT
                a0, a1, a2 = pieces[f], pieces[f + 1], pieces[f + 2]
            if a0 or a1 or a2:
                last = n - 1 - (q - ini) % n
                k = memo.get((a0, a1, a2, cards[q], block, last))
                if k is None:
                    k = block_place_key(a0, a1, a2, cards[q], block, last)
                if q == p:
                    mine = k
                elif k > mine:
                    return False
        q = q + 1 if q + 1 < n else 0
    return True


def _fight_goes_on(s: State, p: int, n: int) -> bool:
    """Whether the fight in ``s`` goes on to another fighting turn once p's turn ends (``rules.run``):
    a round follows, or a player after p in this round is still in the fight and has not passed."""
    if s.rnd < 3:
        return True
    live = s.inflight & ~s.passed
    ini = s.initiator
    for pos in range(s.pos + 1, n):
        if live >> ((ini + 1 + pos) % n) & 1:
            return True
    return False


def _bribed_place(game: SanQuentinKings, s: State, p: int, a: int, need: int, keys: list | None = None) -> int:
    """Returns p's place in the fight after bribe ``a`` (take, free or kill: pieces only).

    The pieces are moved as ``bribes.apply_bribe`` moves them when the fight goes on
    after the bribe, to p's next card or (``rules.run``: p's turn ends, as p owes no
    card or can neither draw nor play a shank) to another player's turn; otherwise the
    fight is scored and what follows is the rules' business, so the state ``apply``
    returns is read. ``keys`` (``_keys(s, n)``), when given, saves working out again
    the keys of the players the bribe leaves alone (a player's key reads only its own
    fight area and the pieces bribed into it)."""
    n = game.n
    o = p * GSIZE
    if (need <= 0 or not (sum(s.fdeck) + sum(s.fdisc) > 0 or s.goods[o + SH] or s.goods[o + SH + 1]
                          or s.goods[o + SH + 2])) and not _fight_goes_on(s, p, n):
        return _place(game, game.apply(s, a, p), p)
    pieces = s.pieces
    bribed = s.bribed
    h = p
    if a < A.FREE0 or a >= A.KILL0:  # take or kill: the piece leaves its holder's area
        x, t = divmod(a - (A.TAKE0 if a < A.FREE0 else A.KILL0), 3)
        h, ow = divmod(x, A.MAXP)
        if ow == h:
            pieces = list(pieces)
            pieces[h * PSIZE + FIGHT + t] -= 1
        else:
            b = list(bribed)
            b.remove((h, ow, t))
            bribed = tuple(b)
        if a < A.FREE0:  # take: it stands in p's area now
            if ow == p:
                pieces = list(pieces)
                pieces[p * PSIZE + FIGHT + t] += 1
            else:
                bribed = tuple(sorted(bribed + ((p, ow, t),)))
    else:  # free one's own piece from solitary into the fight
        t = a - A.FREE0
        pieces = list(pieces)
        pieces[p * PSIZE + SOL + t] -= 1
        pieces[p * PSIZE + FIGHT + t] += 1
    if keys is None:
        return _place_of(s, p, n, pieces, bribed)
    # Only p's and the holder's fight areas changed.
    pr = PRIORITY[s.block]
    keys = list(keys)
    keys[p] = _fight_key(s, p, n, pieces, bribed, pr)
    if h != p:
        keys[h] = _fight_key(s, h, n, pieces, bribed, pr)
    return _place_in(keys, p)


def heuristic_action(game: SanQuentinKings, s: State, player: int, rng: random.Random) -> int:
    ph = s.phase
    if s.queue:
        legal = game.legal_actions(s, player)
    # Phases whose choice needs no list of legal moves (the list's only use was its length or
    # membership, which these read from the state as ``rules.legal_actions`` does): the fighting
    # turn, the fist, keep or redraw, play the stolen shank or keep it (two moves each).
    elif ph == P_TURN:
        return _turn(game, s, player, rng)
    elif ph == P_FISTS:
        return _fist(s, player)
    elif ph == P_DRAWN:
        f = player * PSIZE + FIGHT
        if s.pending in (GUARD, PAROLE) and sum(s.pieces[f : f + 3]):
            return A.REDRAW
        return A.KEEP
    elif ph == P_STOLEN:
        f = player * PSIZE + FIGHT
        return A.PLAY_STOLEN if s.pieces[f + s.pending % 3] else A.KEEP_STOLEN
    # The others list the player's moves with the rules' function for the phase, as
    # ``rules.legal_actions`` does for the player to move.
    elif ph == P_GUARD:
        return _guard(s, player)
    elif ph == P_BLOCK:
        legal = BLOCKS_LEFT[s.used]  # blocks_left(s), read only
    elif ph in SEQ_PHASES:
        legal = seq_options(s, player, ph)
    elif ph == P_PICK:
        legal = pick_actions(s, player)
    else:
        legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if ph == P_BLOCK:
        return _choose_block(game, s, player, legal, rng)
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
    if ph == P_PICK:
        return _pick(game, s, player, legal)
    if ph == P_GYM:
        return _gym(s, player, legal)
    if ph == P_CAFE:
        for a in (A.CAFE_R2, A.CAFE_DRUG0 + 2, A.CAFE_R1, A.CAFE_DRUG0 + 1, A.CAFE_PIECE0):
            if a in legal:
                return a
        return A.CAFE_NONE
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
    pc = s.pieces
    o = p * PSIZE + CELL
    cell0 = pc[o]
    mine = max(pc[o], pc[o + 1], pc[o + 2])
    others = -1  # the greatest count of one type in another player's cell
    for o in range(CELL, n * PSIZE, PSIZE):
        if o != p * PSIZE + CELL:
            others = max(others, pc[o], pc[o + 1], pc[o + 2])
    g = s.goods
    o = p * GSIZE
    # each kind of block's value before its random part (the same arithmetic, done once)
    fight = 2.0 + (mine - others) * 0.8
    gym = min(cell0, 3) * 0.9 + 0.2
    cafe = 1.8 if g[o + COMM] else 0.1
    guard = 1.2 if g[o] + g[o + 1] + g[o + 2] + g[o + 3] + g[o + 4] + g[o + 5] + g[o + COMM] >= 4 and s.supply[13] else 0.0
    random = rng.random
    best, best_v = legal[0], -1e9
    for b in legal:
        v = fight if IS_FIGHT[b] else gym if b == 4 else cafe if b == 5 else guard
        v += random() * 0.3
        if v > best_v:
            best, best_v = b, v
    return best


def _fist(s: State, p: int) -> int:
    """The fist: the most numerous type in the cell (ties by the block's tie-breaker), a share of it
    for each fight left. It is always one of p's legal fists (at most the cell holds)."""
    o = p * PSIZE + CELL
    pc = s.pieces
    key = (pc[o], pc[o + 1], pc[o + 2], s.block, s.used)
    a = _fist_memo.get(key)
    if a is None:
        cell = key[:3]
        pr = PRIORITY[s.block]
        t = max(range(3), key=lambda x: (cell[x], pr[x]))
        left = max(_fights_left(s), 1)
        k = cell[t] if left <= 1 else min(cell[t], max(3, -(-sum(cell) // left)))
        counts = [0, 0, 0]
        counts[t] = k
        if len(_fist_memo) > 10_000:
            _fist_memo.clear()
        a = _fist_memo[key] = A.fist(*counts)
    return a


# The fist by the cell's counts, the block and the blocks played (all that it reads).
_fist_memo: dict[tuple[int, ...], int] = {}


def _turn(game: SanQuentinKings, s: State, p: int, rng: random.Random) -> int:
    """The fighting turn. The legal moves (``fight.turn_actions``) are read from the state: PASS
    unless committed; while cards are owed DRAW if the fight deck or its discards hold a card,
    the shank cards p holds, and END_TURN when committed with neither; END_TURN when no card is
    owed; the bribes with a chip not used this round (the piece bribes: ``bribes.piece_bribes``)."""
    committed = s.flags & F_COMMITTED
    need = s.need if committed else ROUND_CARDS[s.rnd]
    g = s.goods
    o = p * GSIZE
    h0, h1, h2 = g[o + SH], g[o + SH + 1], g[o + SH + 2]
    # p's pieces in the fight by type, with the pieces bribed in
    if s.bribed:
        a0, a1, a2 = fight_counts(s.pieces, s.bribed, p)
    else:
        f = p * PSIZE + FIGHT
        pc = s.pieces
        a0, a1, a2 = pc[f], pc[f + 1], pc[f + 2]
    good = (h0 and a0) or (h1 and a1) or (h2 and a2)  # p holds a shank of a type standing
    if good and need > 0:
        return _shank(s, p, h0 and a0, h1 and a1, h2 and a2, a0, a1, a2)
    place = -1  # p's place in the fight (``_place_in``), worked out when a choice reads it
    # A bribe that wins the fight is worth its chip.
    if g[o + CHIPS] and (need == 0 or not good):
        n = game.n
        keys = place_keys(s, n)  # _keys(s, n)
        place = _place_in(keys, p)
        if place > 0:
            options = [] if s.flags & F_BRIBED else piece_bribes(s, p, n)
            shuffle(options, rng)  # rng.shuffle, the same draws
            if options:
                if (need > 0 and (h0 or h1 or h2 or sum(s.fdeck) + sum(s.fdisc) > 0)) or _fight_goes_on(s, p, n):
                    a = _winning_bribe(s, p, n, options, keys, (a0, a1, a2))
                    if a >= 0:
                        return a
                else:
                    for a in options:
                        if _bribed_place(game, s, p, a, need, keys) == 0:
                            return a
    if need <= 0:
        return A.END_TURN
    if good:
        return _shank(s, p, h0 and a0, h1 and a1, h2 and a2, a0, a1, a2)
    deck = s.fdeck
    size = sum(deck)
    if size or sum(s.fdisc):  # fight.can_draw
        if committed:
            return A.DRAW
        if place != 0 if place >= 0 else not _is_first(s, p, game.n):  # place != 0
            return A.DRAW
        if s.rnd < 2:  # then the draw's risk decides
            if size:
                present = (a0 > 0, a1 > 0, a2 > 0)
                good = sum(v * deck[k] for k, t, v in _TYPED_CARDS if present[t])
                bad = deck[GUARD] + deck[PAROLE]
                risky = (good - 1.5 * bad) / size < 0.15
            else:
                risky = False
            if not risky:
                return A.DRAW
    if not committed:
        return A.PASS
    # committed, cards owed, no card to draw: the first legal move
    if h0:
        return A.SHANK0
    if h1:
        return A.SHANK0 + 1
    if h2:
        return A.SHANK0 + 2
    return A.END_TURN



# (kind, type, value) of the fight cards that add strength to a type
_TYPED_CARDS = tuple((k, CARD_TYPE[k], CARD_VALUE[k]) for k in range(NUM_KINDS) if CARD_TYPE[k] >= 0)


def _shank(s: State, p: int, g0: int, g1: int, g2: int, a0: int, a1: int, a2: int) -> int:
    """The shank card to play: of a type p holds (``g0..g2``) and has standing, the strongest
    type first, else the first such type."""
    good_shanks = [A.SHANK0 + t for t, h in ((0, g0), (1, g1), (2, g2)) if h]
    if len(good_shanks) > 1:
        # the strongest type first (``strength``: the cards count while a piece stands)
        c0, c1, c2 = card_strength(s.cards[p])
        st = (a0 + c0 if a0 else 0, a1 + c1 if a1 else 0, a2 + c2 if a2 else 0)
        top = 0
        if st[1] > st[0]:
            top = 1
        if st[2] > st[top]:
            top = 2
        good_shanks.sort(key=lambda a: (a - A.SHANK0) != top)
    return good_shanks[0]


def _winning_bribe(s: State, p: int, n: int, options: list[int], keys: list[int], mine3: tuple) -> int:
    """Returns the first of ``options`` (take, free and kill bribes) after which p places first,
    or -1: ``_bribed_place(...) == 0`` where the fight goes on after it. A take or kill removes
    one piece of its type from the holder's area, a take or free adds one to p's (``mine3``:
    p's counts); no other player's key may then exceed p's (an unplaced p is first when nobody is placed)."""
    block = s.block
    cards, inflight, ini = s.cards, s.inflight, s.initiator
    p_in = inflight >> p & 1
    p_last = n - 1 - (p - ini) % n
    mine0 = keys[p]
    effect = _EFFECT
    # A bribe changes one other player's key at most (the holder's), and p's key grows at most
    # to that with one more piece of every type (keys only grow with pieces): p cannot win when
    # two others beat that bound, and only by a bribe against the holder when one does.
    m0, m1, m2 = mine3
    bound = block_place_key(m0 + 1, m1 + 1, m2 + 1, cards[p], block, p_last) if p_in else mine0
    only = -1
    # the greatest and second greatest keys of the other players, and whose the greatest is
    top1 = top2 = -1
    who = -1
    for q, k in enumerate(keys):
        if q != p:
            if k > bound:
                if only >= 0:
                    return -1
                only = q
            if k > top1:
                top1, top2, who = k, top1, q
            elif k > top2:
                top2 = k
    plus = [None, None, None]  # type -> p's key with one more piece of that type
    minus: dict[int, int] = {}  # holder * 3 + type -> the holder's key with one piece fewer
    for a in options:
        h, t, adds = effect[a]
        if h < 0:  # free
            h = p
        if only >= 0 and h != only:
            continue
        if adds and p_in:  # take or free
            mine = plus[t]
            if mine is None:
                mine = plus[t] = block_place_key(m0 + (t == 0), m1 + (t == 1), m2 + (t == 2), cards[p], block, p_last)
        else:
            mine = mine0
        # the others but the holder may not beat p
        if (top2 if h == who else top1) > mine:
            continue
        if h != p:
            k = minus.get(h * 3 + t)
            if k is None:
                k = -1
                if inflight >> h & 1:
                    c0, c1, c2 = fight_counts(s.pieces, s.bribed, h)
                    k = block_place_key(c0 - (t == 0), c1 - (t == 1), c2 - (t == 2), cards[h], block,
                                        n - 1 - (h - ini) % n)
                minus[h * 3 + t] = k
            if k > mine:
                continue
        return a
    return -1


# _EFFECT[a] for a piece bribe a: (the holder losing a piece, -1 for a free; the piece's type;
# whether p gains a piece: take or free).
_EFFECT: dict[int, tuple[int, int, bool]] = {}
for _x in range(A.MAXP * A.MAXP * 3):
    _EFFECT[A.TAKE0 + _x] = (_x // 3 // A.MAXP, _x % 3, True)
    _EFFECT[A.KILL0 + _x] = (_x // 3 // A.MAXP, _x % 3, False)
for _t in range(3):
    _EFFECT[A.FREE0 + _t] = (-1, _t, True)


def _pick(game: SanQuentinKings, s: State, p: int, legal: list[int]) -> int:
    """The new arrival: a type where p trails the best other gang by 0 or 1 pieces (in play: cell,
    yard, solitary, fight), else the first type."""
    n = game.n
    pc = s.pieces
    best, best_v = legal[0], (-1, 0)
    for a in legal:  # the first of the greatest values, as max() gives
        t = a - A.PICK0
        mine = 0
        others = None  # the most of type t in play for another player
        for q, o in enumerate(range(CELL + t, n * PSIZE, PSIZE)):
            x = pc[o] + pc[o + YARD] + pc[o + SOL] + pc[o + FIGHT]
            if q == p:
                mine = x
            elif others is None or x > others:
                others = x
        gap = others - mine
        v = (1 if 0 <= gap <= 1 else 0, -t)
        if v > best_v:
            best, best_v = a, v
    return best


def _gym(s: State, p: int, legal: list[int]) -> int:
    left = _fights_left(s)
    key = (left, *legal)
    a = _gym_memo.get(key)
    if a is None:

        def value(a: int) -> float:
            x = a - A.GYM0
            t, sc, c = x >> 4, (x >> 2) & 3, x & 3
            return c * 1.0 + sc * 0.35 + t * 0.25 - (c + sc + t) * 0.15 * left

        if len(_gym_memo) > 10_000:
            _gym_memo.clear()
        a = _gym_memo[key] = max(legal, key=lambda a: (value(a), -a))
    return a


# The gym choice by the fights left and the gym moves (it reads nothing else).
_gym_memo: dict[tuple[int, ...], int] = {}


_PAY_ORDER = (3, 0, 1, 2, 4, 6, 5)  # green drugs first, brown horse last
_PAY_RANK = {good: i for i, good in enumerate(_PAY_ORDER)}
# A chip bought with goods i and j (action CHIP0 + i * 7 + j) ranks as the dearer of the two.
_CHIP_RANK = tuple(max(_PAY_RANK[x // 7], _PAY_RANK[x % 7]) for x in range(49))


def _guard(s: State, p: int) -> int:
    """Guard influence: with four goods or more, a chip for the cheapest pair (``_PAY_ORDER``), else
    done. It reads p's goods and whether chips are left, as ``blocks.guard_actions`` does: the
    choice is remembered by those."""
    g = s.goods
    o = p * GSIZE
    key = (*g[o : o + 6], g[o + COMM], s.supply[SCHIPS] > 0)
    a = _guard_memo.get(key)
    if a is None:
        legal = guard_actions(s, p)
        if len(legal) == 1 or sum(key[:7]) < 4:
            a = legal[0] if len(legal) == 1 else A.CHIP_DONE
        else:
            buys = [a for a in legal if a != A.CHIP_DONE]
            a = min(buys, key=lambda a: (_CHIP_RANK[a - A.CHIP0], a))
        if len(_guard_memo) > 10_000:
            _guard_memo.clear()
        _guard_memo[key] = a
    return a


# The guard influence choice by p's goods and whether the supply has chips.
_guard_memo: dict[tuple, int] = {}


__all__ = ["heuristic_action"]
