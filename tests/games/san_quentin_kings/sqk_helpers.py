"""Position builders for the San Quentin Kings tests: states are built directly, kept valid."""

from __future__ import annotations

from dataclasses import replace

import kingmaker
from kingmaker.games.san_quentin_kings import actions as A
from kingmaker.games.san_quentin_kings.data import SHANK_CODE0
from kingmaker.games.san_quentin_kings.state import (
    CHIPS,
    COMM,
    DPILE,
    DR,
    FP,
    GSIZE,
    P_TURN,
    PSIZE,
    RESPECT,
    SCHIPS,
    SCOMM,
    SDECK,
    SH,
)

COBRA, SCORPION, TARANTULA = 0, 1, 2
GREEN, WHITE, BROWN = 0, 1, 2
ZONES = {"cell": 0, "yard": 3, "sol": 6, "court": 9, "fight": 12}


def game(n: int = 4, **options):
    return kingmaker.make("san-quentin-kings", players=n, **options)


def start(g, initiator: int = 0, shanks=None):
    """The state after set-up: ``initiator`` holds the disc; player p's shank is of type shanks[p] (Cobra)."""
    s = g.new_initial_state()
    s = g.apply(s, A.CH_PLAYER0 + initiator)
    for p in range(g.num_players):
        s = g.apply(s, A.CH_SHANK0 + (shanks[p] if shanks else COBRA))
    return s


def pieces(s, p: int, **zones):
    """Sets player p's piece counts, e.g. pieces(s, 0, cell=[1, 2, 3], court=[4, 4, 4])."""
    pc = list(s.pieces)
    for zone, counts in zones.items():
        o = p * PSIZE + ZONES[zone]
        pc[o : o + 3] = counts
    return replace(s, pieces=tuple(pc))


def goods(s, p: int, shanks=None, drugs=None, comm=None, chips=None, respect=None, fp=None):
    """Sets player p's goods, taking from or returning to the supply so that every count adds up."""
    g = list(s.goods)
    sup = list(s.supply)
    o = p * GSIZE
    if shanks is not None:
        for t in range(3):
            sup[SDECK + t] -= shanks[t] - g[o + SH + t]
            g[o + SH + t] = shanks[t]
    if drugs is not None:
        for d in range(3):
            sup[DPILE + d] -= drugs[d] - g[o + DR + d]
            g[o + DR + d] = drugs[d]
    if comm is not None:
        sup[SCOMM] -= comm - g[o + COMM]
        g[o + COMM] = comm
    if chips is not None:
        sup[SCHIPS] -= chips - g[o + CHIPS]
        g[o + CHIPS] = chips
    if respect is not None:
        g[o + RESPECT] = respect
    if fp is not None:
        g[o + FP] = fp
    assert min(sup) >= 0, "the supply ran out while building the position"
    return replace(s, goods=tuple(g), supply=tuple(sup))


def fight(g, s, block: int, areas: dict, cards: dict | None = None, rnd: int = 1, pos: int = 0, passed=()):
    """A fight turn: areas = {player: [c, s, t] pieces in the fight} (taken from the cell and then
    the court); cards = {player: card codes already lying there} (taken from the decks)."""
    n = g.num_players
    inflight = 0
    for p, counts in areas.items():
        o = p * PSIZE
        pc = list(s.pieces)
        for t in range(3):
            k = counts[t]
            from_cell = min(k, pc[o + t])
            pc[o + t] -= from_cell
            pc[o + 9 + t] -= k - from_cell
            pc[o + 12 + t] = k
        s = replace(s, pieces=tuple(pc))
        inflight |= 1 << p
    deck = list(s.fdeck)
    sup = list(s.supply)
    laid = [()] * n
    for p, codes in (cards or {}).items():
        for c in codes:
            if c >= SHANK_CODE0:
                sup[SDECK + c - SHANK_CODE0] -= 1
            else:
                deck[c] -= 1
        laid[p] = tuple(codes)
    pmask = 0
    for p in passed:
        pmask |= 1 << p
    s = replace(
        s, phase=P_TURN, block=block, rnd=rnd, pos=pos, need=0, flags=0, inflight=inflight,
        passed=pmask, fdeck=tuple(deck), supply=tuple(sup), cards=tuple(laid), fists=(),
    )
    g.validate_state(s)
    return s


def turn_player(g, s) -> int:
    return g.current_player(s)


def get_goods(s, p: int, what: str):
    o = p * GSIZE
    if what == "shanks":
        return list(s.goods[o + SH : o + SH + 3])
    if what == "drugs":
        return list(s.goods[o + DR : o + DR + 3])
    return s.goods[o + {"comm": COMM, "chips": CHIPS, "respect": RESPECT, "fp": FP}[what]]


def get_pieces(s, p: int, zone: str):
    o = p * PSIZE + ZONES[zone]
    return list(s.pieces[o : o + 3])


def chance(g, s, action: int):
    """Applies a chance outcome, checking that it is one."""
    assert action in [a for a, _ in g.chance_outcomes(s)], (A.to_str(action), g.chance_outcomes(s))
    return g.apply(s, action)
