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

from typing import TYPE_CHECKING

from ...core.api import SIMULTANEOUS
from . import actions as A
from .data import NUM_KINDS, PIECES_PER_TYPE
from .fight import strength
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


def observation_tensor(game: SanQuentinKings, s: State, player: int) -> list[float]:
    """Returns ``player``'s observation (layout in the module docstring)."""
    n = game.n
    out = [0.0] * (GLOBAL + n * SEAT)
    out[min(s.year, 4) - 1] = 1.0
    q0 = s.queue
    if q0:
        out[21] = 1.0
    else:
        out[4 + s.phase] = 1.0
    used = s.used
    for b in range(7):
        if used >> b & 1:
            out[22 + b] = 1.0
    if s.block >= 0:
        out[29 + s.block] = 1.0
    out[37 + s.rnd] = 1.0
    fl = s.flags
    fighting = s.block >= 0 and (s.block <= 3 or s.block == 7)
    if fighting:
        out[41] = 1.0 if fl & F_COMMITTED else 0.0
        out[42] = float(s.need) if fl & F_COMMITTED else 0.0
        out[43] = 1.0 if fl & F_BRIBED else 0.0
    out[44] = 1.0 if fl & F_GRAVE else 0.0
    cp = game.current_player(s)
    if not q0 and s.phase == P_DRAWN and fighting:
        out[45 + s.pending] = 1.0
    if not q0 and s.phase == P_STOLEN and cp == player:
        out[56 + s.pending % 3] = 1.0
    g = s.goods
    k = player * GSIZE
    for i in range(6):
        out[59 + i] = float(g[k + i])
    if s.phase == P_FISTS and s.fists and s.fists[player] >= 0:
        c, sc, t = A.fist_counts(s.fists[player])
        out[65], out[66], out[67] = float(c), float(sc), float(t)
    sup = s.supply
    out[68] = float(sup[SDECK] + sup[SDECK + 1] + sup[SDECK + 2])
    out[69], out[70], out[71] = float(sup[SDISC]), float(sup[SDISC + 1]), float(sup[SDISC + 2])
    out[72] = float(sup[DPILE] + sup[DPILE + 1] + sup[DPILE + 2])
    out[73], out[74], out[75] = float(sup[DUSED]), float(sup[DUSED + 1]), float(sup[DUSED + 2])
    out[76], out[77] = float(sup[SCOMM]), float(sup[SCHIPS])
    kn = s.known
    d = deck_at(n)
    for i in range(6):
        out[78 + i] = float(kn[d + i])
    for i in range(NUM_KINDS):
        out[84 + i] = float(s.fdeck[i])
    out[95] = float(sum(s.fdisc))
    m = s.market
    if s.block == 5 or (s.phase == P_PICK and not q0):
        for i in range(11):
            out[96 + i] = float(m[i])
    picking = -1
    if s.phase == P_PICK and not q0:
        out[107] = float(s.need)
        picking = s.ranking[s.pos]
    acting = game.acting_players(s) if cp == SIMULTANEOUS else ((cp,) if cp >= 0 else ())
    pc = s.pieces
    ranks = s.ranking if fighting else ()
    for r in range(n):
        q = (player + r) % n
        b = GLOBAL + r * SEAT
        if q == s.initiator:
            out[b] = 1.0
        if q in acting:
            out[b + 1] = 1.0
        inf = s.inflight >> q & 1
        if fighting and inf:
            out[b + 2] = 1.0
            out[b + 3] = float(s.passed >> q & 1)
        if q in ranks:
            out[b + 4 + ranks.index(q)] = 1.0
        if q == picking:
            out[b + 7] = 1.0
        o = q * PSIZE
        left = [PIECES_PER_TYPE] * 3
        for z in range(5):
            for t in range(3):
                v = pc[o + z * 3 + t]
                left[t] -= v
                if z < 4:
                    out[b + 8 + z * 3 + t] = float(v)
        for _h, ow, t in s.bribed:
            if ow == q:
                left[t] -= 1
        for t in range(3):
            out[b + 20 + t] = float(left[t])
        if fighting and inf:
            for t in range(3):
                out[b + 23 + t] = float(pc[o + 12 + t])
            for h, _ow, t in s.bribed:
                if h == q:
                    out[b + 26 + t] += 1.0
            st = strength(s, q)
            out[b + 29], out[b + 30], out[b + 31] = float(st[0]), float(st[1]), float(st[2])
            for code in s.cards[q]:
                out[b + 32 + code] += 1.0
        k = q * GSIZE
        out[b + 46] = float(g[k] + g[k + 1] + g[k + 2])
        out[b + 47] = float(g[k + DR] + g[k + DR + 1] + g[k + DR + 2])
        out[b + 48] = float(g[k + COMM])
        out[b + 49] = float(g[k + CHIPS])
        out[b + 50] = float(g[k + RESPECT])
        out[b + 51] = float(g[k + FP])
        out[b + 52] = float(g[k + OWE_SH])
        out[b + 53] = float(g[k + OWE_COMM])
        out[b + 54] = float(g[k + OWE_DR])
        fs = _fist_status(s, q, n)
        if fs >= 0:
            out[b + 55 + fs] = 1.0
        j = (player * n + q) * GOODS
        for i in range(6):
            out[b + 60 + i] = float(kn[j + i])
        out[b + 66] = 1.0
    return out


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
