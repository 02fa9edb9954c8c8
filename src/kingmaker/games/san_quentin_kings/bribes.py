"""San Quentin Kings: bribe chip actions (Bribe Chip Actions; rulings SQK-9, SQK-13).

On their own fighting turn, once per round, a player may spend one bribe chip
to redraw the card just drawn, draw one card more, take or kill a piece in
another player's fight area, free one of their own pieces from solitary, or
steal a good. "Bribe chips can't be used on players not represented in the
current fight": targets are the other players with pieces standing in the fight.
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .data import ROUND_CARDS
from .state import (
    CHIPS,
    COMM,
    DPILE,
    DR,
    F_BRIBED,
    F_COMMITTED,
    FIGHT,
    GSIZE,
    P_TURN,
    PSIZE,
    SCHIPS,
    SCOMM,
    SDECK,
    SH,
    SOL,
    Work,
)
from .tasks import K_DRUG, K_SHANK, K_STEAL_DRUG, K_STEAL_SHANK, task


def area_pieces(s: Any, h: int) -> int:
    """Returns the number of pieces standing in player ``h``'s fight area."""
    f = h * PSIZE + FIGHT
    return s.pieces[f] + s.pieces[f + 1] + s.pieces[f + 2] + sum(1 for x in s.bribed if x[0] == h)


def area_targets(s: Any, p: int, n: int) -> list[tuple[int, int, int]]:
    """Returns the (holder, owner, type) of every piece in the other players' fight areas."""
    out = set()
    pieces = s.pieces
    for h in range(n):
        if h != p:
            f = h * PSIZE + FIGHT
            for t in range(3):
                if pieces[f + t]:
                    out.add((h, h, t))
    for x in s.bribed:
        if x[0] != p:
            out.add(x)
    return sorted(out)


def _targets(s: Any, p: int, n: int) -> tuple[set[int], list[int]]:
    """Returns the pieces in the other players' fight areas (``area_targets``) as the offsets
    ``(holder * MAXP + owner) * 3 + type`` of their take and kill codes, and those players."""
    pieces = s.pieces
    holders = [h for h in range(n) if h != p and any(pieces[h * PSIZE + FIGHT : h * PSIZE + FIGHT + 3])]
    for h, _o, _t in s.bribed:
        if h != p and h not in holders:
            holders.append(h)
    return _target_offsets(pieces, s.bribed, p, n), holders


def _target_offsets(pieces: Any, bribed: Any, p: int, n: int) -> set[int]:
    """The offsets of ``_targets`` alone (the take and kill codes' offsets)."""
    offs = {(h * A.MAXP + o) * 3 + t for h, o, t in bribed if h != p}
    for h in range(n):
        if h != p:
            f = h * PSIZE + FIGHT
            x = (h * A.MAXP + h) * 3
            if pieces[f]:
                offs.add(x)
            if pieces[f + 1]:
                offs.add(x + 1)
            if pieces[f + 2]:
                offs.add(x + 2)
    return offs


def _frees(pieces: Any, p: int) -> list[int]:
    f = p * PSIZE + SOL
    return [A.FREE0 + t for t in range(3) if pieces[f + t]]


def piece_bribes(s: Any, p: int, n: int) -> list[int]:
    """Returns the bribes of ``bribe_actions`` that move pieces (take, free, kill), in its order."""
    pieces = s.pieces
    if s.bribed:
        offs = sorted(_target_offsets(pieces, s.bribed, p, n))
        takes = [A.TAKE0 + x for x in offs]
        kills = [A.KILL0 + x for x in offs]
    else:  # only the holders' own pieces: their codes come in order, each once
        takes, kills = [], []
        for h in range(n):
            if h != p:
                f = h * PSIZE + FIGHT
                m = (pieces[f] > 0) | (pieces[f + 1] > 0) << 1 | (pieces[f + 2] > 0) << 2
                if m:
                    takes += _OWN_TAKES[h][m]
                    kills += _OWN_KILLS[h][m]
    f = p * PSIZE + SOL
    return takes + _FREES[(pieces[f] > 0) | (pieces[f + 1] > 0) << 1 | (pieces[f + 2] > 0) << 2] + kills


# The take and kill codes of holder h's own pieces, by the mask of the types standing in their
# area (bit t: type t); the free codes by the mask of the types in one's solitary.
_OWN_TAKES = tuple(
    tuple(tuple(A.TAKE0 + (h * A.MAXP + h) * 3 + t for t in range(3) if m >> t & 1) for m in range(8))
    for h in range(A.MAXP)
)
_OWN_KILLS = tuple(
    tuple(tuple(A.KILL0 + (h * A.MAXP + h) * 3 + t for t in range(3) if m >> t & 1) for m in range(8))
    for h in range(A.MAXP)
)
_FREES = tuple([A.FREE0 + t for t in range(3) if m >> t & 1] for m in range(8))


def bribe_actions(s: Any, p: int, n: int) -> list[int]:
    """Returns the bribes player ``p`` may make now (they hold a chip and have not bribed this round)."""
    offs, holders = _targets(s, p, n)
    out = [A.ADD]
    take0 = A.TAKE0
    out += [take0 + x for x in offs]
    out += _frees(s.pieces, p)
    g = s.goods
    sup = s.supply
    st0 = A.STEAL0
    for gi in range(3):
        if gi == 2:
            who = [q for q in holders if g[q * GSIZE + COMM]]
        else:
            o = SH if gi == 0 else DR
            who = [q for q in holders if g[q * GSIZE + o] or g[q * GSIZE + o + 1] or g[q * GSIZE + o + 2]]
        if who:
            out += [st0 + q * 3 + gi for q in who]
        else:
            if gi == 0:
                avail = sum(sup[SDECK : SDECK + 6])
            elif gi == 1:
                avail = sum(sup[DPILE : DPILE + 6])
            else:
                avail = sup[SCOMM]
            if avail:
                out.append(A.STEALSUP0 + gi)
    kill0 = A.KILL0
    out += [kill0 + x for x in offs]
    out.sort()
    return out


def spend_chip(w: Work, p: int) -> None:
    """Pays one bribe chip: it commits the player to fight this turn and uses the round's bribe."""
    w.mut_goods()[p * GSIZE + CHIPS] -= 1
    w.mut_supply()[SCHIPS] += 1
    if not w.flags & F_COMMITTED:
        w.flags |= F_COMMITTED
        w.need = ROUND_CARDS[w.rnd]
    w.flags |= F_BRIBED


def redraw(w: Work, p: int, k: int) -> None:
    """Bribe: the fight card ``k`` just drawn is discarded and one card is owed again (SQK-9)."""
    spend_chip(w, p)
    c = w.cards
    w.cards = (*c[:p], c[p][:-1], *c[p + 1 :])
    d = w.fdisc
    w.fdisc = (*d[:k], d[k] + 1, *d[k + 1 :])
    w.need += 1
    w.phase = P_TURN


def apply_bribe(w: Work, p: int, a: int) -> None:
    """Carries out bribe ``a`` of player ``p`` on their fighting turn."""
    spend_chip(w, p)
    if a == A.ADD:
        w.need += 1
    elif a < A.FREE0:
        x, t = divmod(a - A.TAKE0, 3)
        h, o = divmod(x, A.MAXP)
        remove_piece(w, h, o, t)
        if o == p:
            w.mut_pieces()[p * PSIZE + FIGHT + t] += 1
        else:
            w.bribed = tuple(sorted(w.bribed + ((p, o, t),)))
    elif a < A.STEAL0:
        t = a - A.FREE0
        w.mut_pieces()[p * PSIZE + SOL + t] -= 1
        w.mut_pieces()[p * PSIZE + FIGHT + t] += 1
    elif a < A.STEALSUP0:
        q, gi = divmod(a - A.STEAL0, 3)
        if gi == 0:
            w.push_task(task(K_STEAL_SHANK, 0, p, q))
        elif gi == 1:
            w.push_task(task(K_STEAL_DRUG, 0, p, q))
        else:
            w.mut_goods()[q * GSIZE + COMM] -= 1
            w.mut_goods()[p * GSIZE + COMM] += 1
    elif a < A.KILL0:
        gi = a - A.STEALSUP0
        if gi == 0:
            w.push_task(task(K_SHANK, 1, p))
        elif gi == 1:
            w.push_task(task(K_DRUG, 1, p))
        else:
            w.mut_supply()[SCOMM] -= 1
            w.mut_goods()[p * GSIZE + COMM] += 1
    else:
        x, t = divmod(a - A.KILL0, 3)
        h, o = divmod(x, A.MAXP)
        remove_piece(w, h, o, t)


def remove_piece(w: Work, h: int, o: int, t: int) -> None:
    """Removes owner ``o``'s piece of type ``t`` from holder ``h``'s fight area."""
    if o == h:
        w.mut_pieces()[h * PSIZE + FIGHT + t] -= 1
    else:
        b = list(w.bribed)
        b.remove((h, o, t))
        w.bribed = tuple(b)
