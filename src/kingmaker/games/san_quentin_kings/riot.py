"""San Quentin Kings: the riot after the third year (The Riot; ruling SQK-17).

Every piece of every player stands in the riot; players with none are not in
it. The player with the fewest fight points initiates (ties: the first
clockwise from the holder of the initiator disc). It is fought as one more
fight with the riot's tie-breaker (SQK-3); the winner takes the riot's fight
points, then the game ends.
"""

from __future__ import annotations

from .data import RIOT
from .state import CELL, FIGHT, FP, GSIZE, P_TURN, PSIZE, SOL, YARD, Work


def start_riot(w: Work, n: int) -> None:
    """Sets the riot up: its initiator, every piece in the fight areas, round 1."""
    g = w.goods
    pc = w.mut_pieces()
    fps = [g[p * GSIZE + FP] for p in range(n)]
    low = min(fps)
    w.initiator = next(p for p in ((w.initiator + k) % n for k in range(n)) if fps[p] == low)
    inflight = 0
    for p in range(n):
        o = p * PSIZE
        for t in range(3):
            pc[o + FIGHT + t] = pc[o + CELL + t]
            pc[o + CELL + t] = 0
        if pc[o + FIGHT] + pc[o + FIGHT + 1] + pc[o + FIGHT + 2]:
            inflight |= 1 << p
    w.block = RIOT
    w.inflight = inflight
    w.passed = 0
    w.rnd = 1
    w.pos = 0
    w.need = 0
    w.flags = 0
    w.phase = P_TURN


def gather_after_riot(w: Work, n: int) -> None:
    """After the riot every remaining piece goes back to its owner's cell (for the Crew King)."""
    pc = w.mut_pieces()
    for p in range(n):
        o = p * PSIZE
        for t in range(3):
            pc[o + CELL + t] += pc[o + YARD + t] + pc[o + SOL + t]
            pc[o + YARD + t] = pc[o + SOL + t] = 0
    w.block = -1
