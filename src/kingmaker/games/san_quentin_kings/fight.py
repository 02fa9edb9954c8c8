"""San Quentin Kings: the fight (Preparing to Fight, Fight, Fight and Shank Cards, Scoring Fight).

Secret fists are revealed together; three rounds of turns from the initiator's
left (1, 1, 2 cards: ruling SQK-8); the cards' effects (Guard, Parole, Steal
Drug, Steal Shank, Grave: SQK-1, SQK-10, SQK-12); then the placings
(SQK-6, SQK-7) and the goods each place takes (the New Arrival picks).
"""

from __future__ import annotations

from typing import Any

from . import actions as A
from .blocks import give_commissary
from .bribes import apply_bribe, bribe_actions, redraw
from .data import (
    CARD_TYPE,
    CARD_VALUE,
    COMM_B,
    FP_FIRST,
    FP_RIOT,
    GRAVE,
    GUARD,
    NEW_B,
    PAROLE,
    PAYOUT,
    PRIORITY,
    RIOT,
    ROUND_CARDS,
    SHANK_B,
    SHANK_CODE0,
    STEAL_DRUG,
    STEAL_SHANK,
)
from .recall import shown
from .state import (
    CHIPS,
    COURT,
    DR,
    F_BRIBED,
    F_COMMITTED,
    F_GRAVE,
    FIGHT,
    FP,
    GSIZE,
    M_BUS,
    OWE_COMM,
    OWE_DR,
    OWE_SH,
    P_CLEANUP,
    P_DRAWN,
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
    Work,
)
from .tasks import K_DRUG, K_FIGHT, K_SHANK, K_STEAL_DRUG, K_STEAL_SHANK, task

# ALL_FISTS[c*64 + s*8 + t] = the fist actions of a cell holding c Cobras, s Scorpions, t Tarantulas.
ALL_FISTS = tuple(
    tuple(A.fist(c, s, t) for c in range(cc + 1) for s in range(ss + 1) for t in range(tt + 1))
    for cc in range(8) for ss in range(8) for tt in range(8)
)


# ---- reading a fight (on a State or a Work alike) ----------------------------------------
def strength(s: Any, p: int) -> list[int]:
    """Returns the fight strength of player ``p`` by type: pieces, plus the cards of a
    type while at least one piece of that type stands in the fight (Scoring Fight)."""
    f = p * PSIZE + FIGHT
    pc = [s.pieces[f], s.pieces[f + 1], s.pieces[f + 2]]
    for h, _o, t in s.bribed:
        if h == p:
            pc[t] += 1
    cs = [0, 0, 0]
    for code in s.cards[p]:
        t = CARD_TYPE[code]
        if t >= 0:
            cs[t] += CARD_VALUE[code]
    return [pc[t] + cs[t] if pc[t] else 0 for t in range(3)]


def fight_key(st: list[int], block: int) -> tuple[int, ...]:
    """Returns the comparison key of one gang's strengths (ruling SQK-6): the strongest
    single type's strength, then that type's rank in the block's tie-breaker, then the
    second strongest type's strength and rank, then the third's."""
    pr = PRIORITY[block]
    order = sorted(range(3), key=lambda t: (st[t], pr[t]), reverse=True)
    out: list[int] = []
    for t in order:
        out.append(st[t])
        out.append(pr[t] if st[t] else -1)
    return tuple(out)


def fight_counts(pieces: Any, bribed: Any, q: int) -> tuple[int, int, int]:
    """Returns player q's pieces standing in their fight area by type, with the pieces bribed
    into it (``strength``'s counts)."""
    f = q * PSIZE + FIGHT
    a0, a1, a2 = pieces[f], pieces[f + 1], pieces[f + 2]
    for h, _o, t in bribed:
        if h == q:
            if t == 0:
                a0 += 1
            elif t == 1:
                a1 += 1
            else:
                a2 += 1
    return a0, a1, a2


_card_memo: dict[tuple[int, ...], tuple[int, int, int]] = {}


def card_strength(cards: tuple[int, ...]) -> tuple[int, int, int]:
    """Returns the strength the fight cards in an area add by type (``strength`` before the pieces)."""
    cs = _card_memo.get(cards)
    if cs is None:
        out = [0, 0, 0]
        for code in cards:
            t = CARD_TYPE[code]
            if t >= 0:
                out[t] += CARD_VALUE[code]
        if len(_card_memo) > 10_000:
            _card_memo.clear()
        cs = _card_memo[cards] = (out[0], out[1], out[2])
    return cs


if min(CARD_VALUE) < 0:  # place_key: a piece standing makes its type's strength positive
    raise ValueError("a card value below 0")


def place_key(a0: int, a1: int, a2: int, cards: tuple[int, ...], pr: tuple[int, ...], last: int) -> int:
    """Returns a player's place in the fight as one int (-1: unplaced, no piece standing).

    ``a0, a1, a2`` are their pieces in the fight by type (``fight_counts``), ``cards`` the
    cards in their area, ``pr`` the block's ``PRIORITY`` and ``last`` = n - 1 - their seat
    from the initiator. Keys order as ``(fight_key(strength), -seat)`` tuples do: each
    type's ``(strength, rank if strength else -1)`` pair is ``4 * strength + rank + 1``
    (0 without strength), strongest first, packed in 16 bits each (a strength is a few
    pieces and cards), then the seat. Card values are never negative, so a player with a
    piece standing has strength: placed."""
    if not (a0 or a1 or a2):
        return -1
    c0, c1, c2 = card_strength(cards) if cards else (0, 0, 0)
    x = 4 * (a0 + c0) + pr[0] if a0 else pr[0]
    y = 4 * (a1 + c1) + pr[1] if a1 else pr[1]
    z = 4 * (a2 + c2) + pr[2] if a2 else pr[2]
    if x < y:
        x, y = y, x
    if y < z:
        y, z = z, y
        if x < y:
            x, y = y, x
    return ((x + 1 if x >= 4 else 0) << 40 | (y + 1 if y >= 4 else 0) << 24
            | (z + 1 if z >= 4 else 0) << 8 | last)


def place_keys(s: Any, n: int) -> list[int]:
    """Returns every player's ``place_key`` in the fight of ``s`` (-1 out of the fight or with no
    piece standing). The bot counts a fighter's place from these at most fighting turns of a
    search's rollouts, so the keys are remembered by what decides them (``_key_memo``)."""
    pieces, bribed, cards, inflight, ini, block = s.pieces, s.bribed, s.cards, s.inflight, s.initiator, s.block
    if bribed:  # the pieces bribed into each area, by holder and type (``fight_counts``)
        extra = [0] * (3 * n)
        for h, _o, t in bribed:
            extra[h * 3 + t] += 1
    get = _key_memo.get
    out = []
    f = FIGHT
    for q in range(n):
        a0, a1, a2 = pieces[f], pieces[f + 1], pieces[f + 2]
        if bribed:
            a0 += extra[3 * q]
            a1 += extra[3 * q + 1]
            a2 += extra[3 * q + 2]
        f += PSIZE
        if not (inflight >> q & 1 and (a0 or a1 or a2)):
            out.append(-1)
            continue
        last = n - 1 - (q - ini) % n
        key = (a0, a1, a2, cards[q], block, last)
        k = get(key)
        if k is None:
            if len(_key_memo) > 100_000:
                _key_memo.clear()
            k = _key_memo[key] = place_key(a0, a1, a2, cards[q], PRIORITY[block], last)
        out.append(k)
    return out


# place_key by its arguments (the block standing for its PRIORITY row).
_key_memo: dict[tuple, int] = {}


def block_place_key(a0: int, a1: int, a2: int, cards: tuple[int, ...], block: int, last: int) -> int:
    """Returns ``place_key`` in block ``block`` (remembered, as ``place_keys`` does)."""
    if not (a0 or a1 or a2):
        return -1
    key = (a0, a1, a2, cards, block, last)
    k = _key_memo.get(key)
    if k is None:
        if len(_key_memo) > 100_000:
            _key_memo.clear()
        k = _key_memo[key] = place_key(a0, a1, a2, cards, PRIORITY[block], last)
    return k


def ranking(s: Any, n: int) -> list[int]:
    """Returns the placed players of the fight in ``s``, strongest first (Scoring Fight):
    players in the fight with any strength, by ``fight_key``, then initiating order
    (compared as ``place_key``)."""
    keys = [(k, p) for p, k in enumerate(place_keys(s, n)) if k >= 0]
    keys.sort(reverse=True)
    return [k[1] for k in keys]


def steal_victims(s: Any, p: int, off: int, n: int) -> list[int]:
    """Returns who a Steal Drug (``off`` = DR) or Steal Shank (SH) card drawn by ``p`` may rob
    (ruling SQK-12): the other players in this fight holding that good. An empty fist is "immune
    to anything that may occur" (Preparing to Fight); a passed fighter is still in the fight."""
    g = s.goods
    fl = s.inflight
    return [q for q in range(n) if q != p and fl >> q & 1 and g[q * GSIZE + off] + g[q * GSIZE + off + 1]
            + g[q * GSIZE + off + 2]]


def can_draw(s: Any) -> bool:
    return sum(s.fdeck) + sum(s.fdisc) > 0


# ---- legal actions -------------------------------------------------------------------------
def turn_actions(s: Any, p: int, n: int) -> list[int]:
    """Returns player ``p``'s options on their fighting turn (ruling SQK-8)."""
    committed = s.flags & F_COMMITTED
    out = [] if committed else [A.PASS]
    need = s.need if committed else ROUND_CARDS[s.rnd]
    g = s.goods
    o = p * GSIZE
    if need > 0:
        shanks = [A.SHANK0 + t for t in range(3) if g[o + SH + t]]
        if can_draw(s):
            out.append(A.DRAW)
        elif committed and not shanks:
            out.append(A.END_TURN)
        out += shanks
    else:
        out.append(A.END_TURN)
    if g[o + CHIPS] and not s.flags & F_BRIBED:
        out += bribe_actions(s, p, n)
    return out


def card_choice_actions(s: Any, p: int, ph: int, n: int) -> list[int]:
    """Returns the choices a drawn card asks for: keep or redraw, which piece, which victim."""
    if ph == P_DRAWN:
        return [A.KEEP, A.REDRAW]
    if ph == P_TOSOL or ph == P_PAROLE:
        f = p * PSIZE + FIGHT
        base = A.TOSOL0 if ph == P_TOSOL else A.PAROLE0
        return [base + t for t in range(3) if s.pieces[f + t]]
    if ph == P_VIC_DRUG or ph == P_VIC_SHANK:
        base = A.VICDRUG0 if ph == P_VIC_DRUG else A.VICSHANK0
        return [base + q for q in steal_victims(s, p, DR if ph == P_VIC_DRUG else SH, n)]
    return [A.PLAY_STOLEN, A.KEEP_STOLEN]  # P_STOLEN


def pick_actions(s: Any, p: int) -> list[int]:
    """Returns the New Arrival picks of placed player ``p``: a type still on the bus and in their court."""
    if s.need <= 0:
        return []
    o = p * PSIZE + COURT
    return [A.PICK0 + t for t in range(3) if s.market[M_BUS + t] and s.pieces[o + t]]


# ---- carrying them out ---------------------------------------------------------------------
def reveal(w: Work) -> None:
    """All fists open together; the chosen pieces stand in the fight areas."""
    pc = w.mut_pieces()
    inflight = 0
    for p, f in enumerate(w.fists):
        if f > 0:
            o = p * PSIZE
            c, sc, t = A.fist_counts(f)
            pc[o] -= c
            pc[o + 1] -= sc
            pc[o + 2] -= t
            pc[o + FIGHT] += c
            pc[o + FIGHT + 1] += sc
            pc[o + FIGHT + 2] += t
            inflight |= 1 << p
    w.fists = ()
    w.inflight = inflight
    w.passed = 0
    w.rnd = 1
    w.pos = 0
    w.need = 0
    w.flags = 0
    w.phase = P_TURN


def turn(w: Work, p: int, a: int) -> None:
    """Carries out action ``a`` of player ``p`` on their fighting turn."""
    if a == A.PASS:
        w.passed |= 1 << p
        end_turn(w)
        return
    if a == A.END_TURN:
        end_turn(w)
        return
    if a == A.DRAW or A.SHANK0 <= a < A.END_TURN:
        if not w.flags & F_COMMITTED:
            w.flags |= F_COMMITTED
            w.need = ROUND_CARDS[w.rnd]
        w.need -= 1
        if a == A.DRAW:
            w.queue = (*w.queue, _DRAW_TASK[p])
        else:
            t = a - A.SHANK0
            w.mut_goods()[p * GSIZE + SH + t] -= 1
            w.add_card(p, SHANK_CODE0 + t)
            shown(w, p, t, len(w.cards))
        return
    apply_bribe(w, p, a)


_DRAW_TASK = tuple(task(K_FIGHT, 0, p) for p in range(A.MAXP))  # player p draws a fight card


def card_choice(w: Work, p: int, a: int, ph: int) -> None:
    """Carries out a choice a drawn card asked for (see ``card_choice_actions``)."""
    if ph == P_DRAWN:
        k = w.pending
        w.pending = -1
        if a == A.KEEP:
            resolve(w, p, k, len(w.cards))
        else:
            redraw(w, p, k)
    elif ph == P_TOSOL:
        move_own(w, p, a - A.TOSOL0, SOL)
        w.phase = P_TURN
    elif ph == P_PAROLE:
        parole(w, p, a - A.PAROLE0)
        w.phase = P_TURN
    elif ph == P_VIC_DRUG:
        w.push_task(task(K_STEAL_DRUG, 0, p, a - A.VICDRUG0))
        w.phase = P_TURN
    elif ph == P_VIC_SHANK:
        w.push_task(task(K_STEAL_SHANK, 1, p, a - A.VICSHANK0))
        w.phase = P_TURN
    elif ph == P_STOLEN:
        t = w.pending % 3
        w.pending = -1
        if a == A.PLAY_STOLEN:
            w.mut_goods()[p * GSIZE + SH + t] -= 1
            w.add_card(p, SHANK_CODE0 + t)
            shown(w, p, t, len(w.cards))
        w.phase = P_TURN


def end_turn(w: Work) -> None:
    w.pos += 1
    w.flags &= F_GRAVE
    w.need = 0


def move_own(w: Work, p: int, t: int, zone: int) -> None:
    w.mut_pieces()[p * PSIZE + FIGHT + t] -= 1
    w.mut_pieces()[p * PSIZE + zone + t] += 1


def parole(w: Work, p: int, t: int) -> None:
    """Parole: the piece leaves the game (into the box) and its owner is owed one commissary."""
    w.mut_pieces()[p * PSIZE + FIGHT + t] -= 1
    w.mut_goods()[p * GSIZE + OWE_COMM] += 1
    give_commissary(w, p)


def after_draw(w: Work, p: int, k: int) -> None:
    """Lays fight card ``k`` just drawn by ``p``; offers the redraw bribe (SQK-9) or resolves it."""
    c = w.cards
    w.cards = (*c[:p], c[p] + (k,), *c[p + 1 :])  # w.add_card(p, k)
    if k == GRAVE:
        w.flags |= F_GRAVE
    if w.goods[p * GSIZE + CHIPS] and not w.flags & F_BRIBED:
        w.phase = P_DRAWN
        w.pending = k
        return
    resolve(w, p, k, len(w.cards))


def resolve(w: Work, p: int, k: int, n: int) -> None:
    """Carries out the effect of fight card ``k`` just drawn by ``p`` (Fight and Shank Cards)."""
    w.phase = P_TURN
    if k == GUARD or k == PAROLE:
        f = p * PSIZE + FIGHT
        types = [t for t in range(3) if w.pieces[f + t]]
        if len(types) == 1:
            if k == GUARD:
                move_own(w, p, types[0], SOL)
            else:
                parole(w, p, types[0])
        elif types:
            w.phase = P_TOSOL if k == GUARD else P_PAROLE
    elif k == STEAL_DRUG or k == STEAL_SHANK:
        victims = steal_victims(w, p, DR if k == STEAL_DRUG else SH, n)
        if len(victims) > 1:
            w.phase = P_VIC_DRUG if k == STEAL_DRUG else P_VIC_SHANK
        elif k == STEAL_DRUG:
            w.push_task(task(K_STEAL_DRUG, 0, p, victims[0]) if victims else task(K_DRUG, 1, p))
        else:
            w.push_task(task(K_STEAL_SHANK, 1, p, victims[0]) if victims else task(K_SHANK, 2, p))


def score(w: Work, n: int) -> list[int]:
    """Scoring Fight: fight points to the first place, and the goods each place takes; returns the placings."""
    placers = ranking(w, n)
    b = w.block
    w.phase = P_CLEANUP
    w.ranking = tuple(placers[: len(PAYOUT)])
    if not placers:
        return placers
    g = w.mut_goods()
    if b == RIOT:
        g[placers[0] * GSIZE + FP] += FP_RIOT
        return placers
    g[placers[0] * GSIZE + FP] += FP_FIRST
    if b == NEW_B:
        w.phase = P_PICK
        w.pos = 0
        w.need = PAYOUT[0]
        m = w.market
        w.market = (*m[:M_BUS], 2, 2, 2, *m[M_BUS + 3 :])
        return placers
    for i, p in enumerate(placers[: len(PAYOUT)]):
        k = PAYOUT[i]
        if b == COMM_B:
            g[p * GSIZE + OWE_COMM] += k
            give_commissary(w, p)
        elif b == SHANK_B:
            g[p * GSIZE + OWE_SH] += k
            w.push_task(task(K_SHANK, 0, p, k))
        else:  # DRUG_B
            g[p * GSIZE + OWE_DR] += k
            w.push_task(task(K_DRUG, 0, p, k))
    return placers


def pick(w: Work, a: int) -> None:
    """New Arrival: the placed player takes a piece from the bus to their yard."""
    p = w.ranking[w.pos]
    t = a - A.PICK0
    o = p * PSIZE
    w.add_market(M_BUS + t, -1)
    w.mut_pieces()[o + COURT + t] -= 1
    w.mut_pieces()[o + YARD + t] += 1
    w.need -= 1
