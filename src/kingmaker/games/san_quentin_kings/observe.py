"""San Quentin Kings for learning agents: the observation tensor and the information state string.

Both read only what ``view(s, player)`` shows (the public board, the player's
own cards and fist, the cards they know others hold), straight from the state
for speed. The tensor is seat-relative: seat 0 is the observer, seat 1 the
next player clockwise, and so on. Flat layout (n players, ``observation_shape``
= (GLOBAL + n * SEAT,))::

    index          size  what
    0              4     year 1, 2, 3, riot (one-hot)
    4              17    phase (one-hot, state.py P_*); all zero while dealing
    21             1     dealing: chance tasks wait
    22             7     blocks played this year
    29             8     the block being played (0-6, 7 riot; one-hot)
    37             4     fight round 0-3 (one-hot)
    41             4     fighting this turn, cards still to play, bribe used, Grave drawn
    45             11    the fight card drawn, waiting for keep/redraw (one-hot)
    56             3     yours: the stolen shank waiting to be played (one-hot)
    59             6     yours: shank cards C,S,T, drug chips G,W,B
    65             3     yours: your committed fist C,S,T
    68             10    supply: shank deck size, discards C,S,T, drug pile size, used G,W,B,
                         commissary, bribe chips
    78             6     cards known to be in the shank deck C,S,T and drug pile G,W,B
    84             11    fight deck by kind; 95: fight discards
    96             11    cafeteria/bus: shanks C,S,T, drugs G,W,B, bus C,S,T, 2-respect, 1-respect
    107            1     new-arrival picks left
    GLOBAL = 108
    then per seat r (player (observer + r) % n), SEAT = 67 values from GLOBAL + r * SEAT:
    +0   initiator, to move (or acting at the fists), in the fight, passed,
         placed 1st, 2nd, 3rd, picking now                                     8
    +8   cell, yard, solitary, court, removed, fight area (C,S,T each)        18
    +26  bribed pieces standing in their area (C,S,T)                          3
    +29  strength (C,S,T)                                                      3
    +32  cards in their area by code (0-10 fight cards, 11-13 shank cards)    14
    +46  shank cards, drug chips, commissary, bribe chips, respect, fight points 6
    +52  owed shank cards, commissary, drug chips                              3
    +55  fist step: out, to pay, paid, choosing, committed (one-hot)           5
    +60  what the observer knows they hold: shank cards C,S,T, drug chips G,W,B 6
    +66  1 if the seat is in the game (always 1; keeps seats distinct)          1
"""

from __future__ import annotations

from array import array
from typing import TYPE_CHECKING

from ...core.api import SIMULTANEOUS
from ...core.tensors import LastTensors
from . import actions as A
from .data import CARD_TYPE, CARD_VALUE, PIECES_PER_TYPE
from .recall import GOODS, deck_at
from .state import (
    CHIPS,
    COMM,
    DPILE,
    DR,
    DUSED,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FIGHT_PHASES,
    FP,
    GSIZE,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_DRAWN,
    P_DRUGPAY,
    P_END,
    P_FISTS,
    P_PICK,
    P_STOLEN,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDECK,
    SDISC,
    State,
)
from .tasks import K_SHANK, K_STEAL_SHANK

if TYPE_CHECKING:
    from .game import SanQuentinKings

GLOBAL = 108
SEAT = 67


def observation_shape(n: int) -> tuple[int, ...]:
    return (GLOBAL + n * SEAT,)


def _fist_status(s: State, q: int, n: int) -> int:
    """Returns the view's fist status of player ``q``: 0 out, 1 to pay, 2 paid, 3 choosing, 4 committed; -1 none."""
    if s.phase not in (P_FISTS, P_DRUGPAY) or not s.fists:
        return -1
    f = s.fists[q]
    if f == -2:
        return 1 if s.phase == P_DRUGPAY and (q - s.initiator) % n >= s.pos else 0
    if f == -1:
        return 2 if s.phase == P_DRUGPAY else 3
    return 4


# The encoder fills a fresh float32 array("f") (numpy views its buffer without a copy; ints are stored
# as floats by the array itself). The blocks read from a player's 15 pieces, 6 known goods and
# fight-area cards are built once per distinct run of counts and copied in one slice: bounded
# memos, pure functions of the run.
_ZEROS: dict[int, array] = {}
_MEMO_LIMIT = 1 << 16
_PIECES: dict[tuple[int, ...], array] = {}
_KNOWN: dict[tuple[int, ...], array] = {}


def _memo(memo: dict[tuple[int, ...], array], key: tuple[int, ...], values: list) -> array:
    if len(memo) >= _MEMO_LIMIT:
        memo.clear()
    block = memo[key] = array("f", values)
    return block


def _pieces_block(pc: tuple[int, ...]) -> array:
    """+8..+22 of a seat: cell, yard, solitary, court (C,S,T each), then the pieces not on the
    board (before bribed pieces standing elsewhere are taken off)."""
    return _memo(_PIECES, pc, [*pc[:12], *(PIECES_PER_TYPE - sum(pc[t::3]) for t in range(3))])


# Each (game, player) keeps its last state and tensor; the next tensor starts from a copy of
# that one. The blocks read from the state's count tuples (pieces, goods, known goods, supply,
# fight deck) are rewritten only when their tuple changed; the rest (turn, fight and fist
# flags, the market) is cleared and rewritten every time. tests/rl/test_rl_encoders.py checks
# it against a plain reference, states in any order.
_LAST = LastTensors()
_Z = array("f", bytes(4 * 68))
_Z13, _Z8, _Z23, _Z5 = _Z[:13], _Z[:8], _Z[:23], _Z[:5]
_CARDS: dict[tuple[int, ...], tuple[array, int, int, int]] = {}


def _cards_block(cards: tuple[int, ...]) -> tuple[array, int, int, int]:
    """Returns a fight area's cards by code (+32..+45 of a seat) and their values by type C,S,T
    (what they add to the strength of a type with a piece in the fight, as ``fight.strength``)."""
    counts = [0] * 14
    value = [0, 0, 0]
    for code in cards:
        counts[code] += 1
        if CARD_TYPE[code] >= 0:
            value[CARD_TYPE[code]] += CARD_VALUE[code]
    if len(_CARDS) >= _MEMO_LIMIT:
        _CARDS.clear()
    block = _CARDS[cards] = (array("f", counts), value[0], value[1], value[2])
    return block


def observation_tensor(game: SanQuentinKings, s: State, player: int) -> array:
    """Returns ``player``'s observation (layout in the module docstring), a float32 array("f")."""
    return _LAST.tensor(game, s, player, _full, _encode)


def _full(game: SanQuentinKings, s: State, player: int) -> array:
    """Returns ``player``'s observation built from zero."""
    n = game.n
    zeros = _ZEROS.get(n)
    if zeros is None:
        zeros = _ZEROS[n] = array("f", bytes(4 * (GLOBAL + n * SEAT)))
    out = zeros[:]
    _encode(game, s, player, out, None)
    return out


def _encode(game: SanQuentinKings, s: State, player: int, out: array, ps: State | None) -> None:
    """Writes ``player``'s observation of ``s`` into ``out``: all zero (``ps`` None), or the
    observation of ``ps``, a state of the same game."""
    n = game.n
    full = ps is None
    if not full:
        out[0:68] = _Z
        out[95:108] = _Z13
    out[min(s.year, 4) - 1] = 1.0
    q0 = s.queue
    phase = s.phase
    if q0:
        out[21] = 1.0
    else:
        out[4 + phase] = 1.0
    used = s.used
    if used:
        for b in range(7):
            if used >> b & 1:
                out[22 + b] = 1.0
    block = s.block
    if block >= 0:
        out[29 + block] = 1.0
    out[37 + s.rnd] = 1.0
    fl = s.flags
    fighting = block >= 0 and (block <= 3 or block == 7)
    if fighting:
        if fl & F_COMMITTED:
            out[41] = 1.0
            out[42] = s.need
        if fl & F_BRIBED:
            out[43] = 1.0
    if fl & F_GRAVE:
        out[44] = 1.0
    cp = game.current_player(s)
    if not q0 and phase == P_DRAWN and fighting:
        out[45 + s.pending] = 1.0
    if not q0 and phase == P_STOLEN and cp == player:
        out[56 + s.pending % 3] = 1.0
    g = s.goods
    k = player * GSIZE
    out[59], out[60], out[61], out[62], out[63], out[64] = g[k:k + 6]
    fists = s.fists
    if phase == P_FISTS and fists and fists[player] >= 0:
        out[65], out[66], out[67] = A.fist_counts(fists[player])
    sup = s.supply
    if full or sup != ps.supply:
        out[68] = sup[SDECK] + sup[SDECK + 1] + sup[SDECK + 2]
        out[69], out[70], out[71] = sup[SDISC:SDISC + 3]
        out[72] = sup[DPILE] + sup[DPILE + 1] + sup[DPILE + 2]
        out[73], out[74], out[75] = sup[DUSED:DUSED + 3]
        out[76] = sup[SCOMM]
        out[77] = sup[SCHIPS]
    kn = s.known
    new_known = full or (kn is not ps.known and kn != ps.known)
    if new_known:
        j = deck_at(n)
        key = kn[j:j + 6]
        out[78:84] = _KNOWN.get(key) or _memo(_KNOWN, key, key)
    if full or s.fdeck != ps.fdeck:
        out[84], out[85], out[86], out[87], out[88], out[89], out[90], out[91], out[92], out[93], out[94] = s.fdeck
    out[95] = sum(s.fdisc)
    picking = -1
    if phase == P_PICK and not q0:
        out[107] = s.need
        picking = s.ranking[s.pos]
    if block == 5 or picking >= 0:
        for i, c in enumerate(s.market[:11]):
            if c:
                out[96 + i] = c
    acting = game.acting_players(s) if cp == SIMULTANEOUS else ((cp,) if cp >= 0 else ())
    pc = s.pieces
    bribed = s.bribed
    new_pieces = full or pc != ps.pieces or bribed != ps.bribed
    new_goods = full or g != ps.goods
    ranks = s.ranking if fighting else ()
    fist_phase = phase in (P_FISTS, P_DRUGPAY) and fists
    inflight, passed, initiator = s.inflight, s.passed, s.initiator
    jk = player * n * GOODS
    ps_fight = not full and ps.block >= 0 and (ps.block <= 3 or ps.block == 7)
    ps_fists = not full and ps.phase in (P_FISTS, P_DRUGPAY) and ps.fists
    for r in range(n):
        q = player + r
        if q >= n:
            q -= n
        b = GLOBAL + r * SEAT
        if not full:
            out[b:b + 8] = _Z8
            if ps_fight:  # the fight area and the fist step are written only in a fight, at the fists
                out[b + 23:b + 46] = _Z23
            if ps_fists:
                out[b + 55:b + 60] = _Z5
        if q == initiator:
            out[b] = 1.0
        if q in acting:
            out[b + 1] = 1.0
        inf = fighting and inflight >> q & 1
        if inf:
            out[b + 2] = 1.0
            if passed >> q & 1:
                out[b + 3] = 1.0
        if q in ranks:
            out[b + 4 + ranks.index(q)] = 1.0
        if q == picking:
            out[b + 7] = 1.0
        o = q * PSIZE
        if new_pieces:
            key = pc[o:o + PSIZE]
            out[b + 8:b + 23] = _PIECES.get(key) or _pieces_block(key)
            if bribed:
                for _h, ow, t in bribed:
                    if ow == q:
                        out[b + 20 + t] -= 1.0
        if inf:
            # The fight area: pieces, bribed pieces standing there, strength, cards.
            c0, c1, c2 = out[b + 23], out[b + 24], out[b + 25] = pc[o + 12:o + 15]
            s0 = s1 = s2 = 0
            for h, _ow, t in bribed:
                if h == q:
                    out[b + 26 + t] += 1.0
                    if t == 0:
                        s0 += 1
                    elif t == 1:
                        s1 += 1
                    else:
                        s2 += 1
            cards = s.cards[q]
            blk, v0, v1, v2 = _CARDS.get(cards) or _cards_block(cards)
            s0 += c0
            s1 += c1
            s2 += c2
            # fight.strength: pieces of a type, plus its cards' values while one stands there
            out[b + 29] = s0 + v0 if s0 else 0
            out[b + 30] = s1 + v1 if s1 else 0
            out[b + 31] = s2 + v2 if s2 else 0
            out[b + 32:b + 46] = blk
        if new_goods:
            k = q * GSIZE
            out[b + 46] = g[k] + g[k + 1] + g[k + 2]
            out[b + 47] = g[k + DR] + g[k + DR + 1] + g[k + DR + 2]
            out[b + 48] = g[k + COMM]
            out[b + 49] = g[k + CHIPS]
            out[b + 50] = g[k + RESPECT]
            out[b + 51] = g[k + FP]
            out[b + 52] = g[k + OWE_SH]
            out[b + 53] = g[k + OWE_COMM]
            out[b + 54] = g[k + OWE_DR]
        if fist_phase:
            fs = _fist_status(s, q, n)
            if fs >= 0:
                out[b + 55 + fs] = 1.0
        if new_known:
            j = jk + q * GOODS
            key = kn[j:j + 6]
            out[b + 60:b + 66] = _KNOWN.get(key) or _memo(_KNOWN, key, key)
        if full:
            out[b + 66] = 1.0


def information_state_string(game: SanQuentinKings, s: State, player: int | None) -> str:
    """Returns a canonical string of all ``player`` (None: a spectator) may know: the values the view shows.

    Built from state fields (the fixed-length counts as hex bytes, then a repr of the rest), several
    times cheaper than the view as JSON; equal views give equal strings, different views different ones.
    """
    n = game.n
    g = s.goods
    cp = game.current_player(s)
    sup = s.supply
    q0 = s.queue
    o = n if player is None else player
    # The fixed-length public counts (all below 256) as bytes: pieces, goods as the view shows them,
    # the supply, the fight deck; then the player's own hand and the cards they know of.
    head = bytearray(s.pieces)
    for k in range(0, n * GSIZE, GSIZE):
        head.append(g[k] + g[k + 1] + g[k + 2])
        head.append(g[k + DR] + g[k + DR + 1] + g[k + DR + 2])
        head += bytes(g[k + COMM : k + OWE_DR + 1])
    head.append(sup[SDECK] + sup[SDECK + 1] + sup[SDECK + 2])
    head.append(sup[DPILE] + sup[DPILE + 1] + sup[DPILE + 2])
    head += bytes(sup[SDISC : SDISC + 3])
    head += bytes(sup[DUSED:])
    head += bytes(s.fdeck)
    head.append(sum(s.fdisc))
    head += bytes(s.known[o * n * GOODS : (o * n + n) * GOODS])
    head += bytes(s.known[deck_at(n) :])
    if player is not None:
        head += bytes(g[player * GSIZE : player * GSIZE + 6])
    parts: list = [player, s.year, s.initiator, s.used, s.block, s.flags & F_GRAVE, s.bribed if s.block >= 0 else ()]
    if q0:
        # The view lists the tasks by their text; a Steal Shank card's theft from the deck (mode 2)
        # reads like a bribe's (mode 1).
        parts.append(tuple(_task_key(t) for t in q0))
    else:
        parts.append(s.phase)
    if cp == SIMULTANEOUS:
        parts.append(game.acting_players(s))
    else:
        parts.append(cp)
    b = s.block
    if b >= 0 and (b <= 3 or b == 7):
        fl = s.flags
        fighting = s.phase in FIGHT_PHASES and not q0
        parts += [
            s.rnd, fl & (F_COMMITTED | F_BRIBED), s.need if fl & F_COMMITTED else 0,
            s.pending if s.phase == P_DRAWN and not q0 else -1,
            tuple(_fist_status(s, q, n) for q in range(n)), s.inflight, s.passed,
            tuple(s.cards[q] for q in range(n) if s.inflight >> q & 1), s.ranking,
            s.pos if fighting else -1,
        ]
        if player is not None and s.phase == P_FISTS and s.fists and s.fists[player] >= 0:
            parts.append(s.fists[player])
    if b == 5:
        parts.append(s.market)
    if s.phase == P_PICK and not q0:
        parts += [s.market[6:9], s.ranking, s.pos, s.need]
    if s.phase == P_STOLEN and not q0:
        if cp == player:
            parts.append(("stolen", s.pending % 3))
        elif player is not None and s.pending // 3 - 1 == player:
            parts.append(("taken", s.pending % 3))
    if s.phase == P_END and not q0:
        parts.append(g)  # the final scores show every hand
    return head.hex() + repr(parts)


def _task_key(t: int) -> int:
    """Returns the task as its log text tells it: a steal's mode (bribe or card) does not show."""
    kind = t // 1000
    if kind == K_SHANK and t // 100 % 10 == 2:
        return t - 100
    if kind == K_STEAL_SHANK:
        return t - t // 100 % 10 * 100
    return t
