"""REFERENCE for the speed tests (issue 16): the bot as it was before its speed-ups (commit a8a2608),
kept unchanged so that the fast bot's choices can be compared with it.

The Kingpin heuristic: one ply of search with a tactical evaluation.

For each legal action it looks at the position after it and scores material
(gangsters alive, weighted by their icons), the race to leave the board past
the enemy's area, No Man's Land, and the best attack the opponent could make
in reply (and, less, the best attack it keeps for itself). Nothing is hidden
in Kingpin, so it reads the state it is given; the draws still to come are
not looked at.
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from kingmaker.games.kingpin.state import CHOOSE, DRAW, END, START, State

if TYPE_CHECKING:
    from kingmaker.games.kingpin.game import Kingpin

WIN = 1_000_000.0
# Mafia preference when choosing (the designer's notes: 'the Russians are always the
# first choice'); see the balance table in docs/rulings/kingpin.md.
PREFERENCE = ("russian", "italian", "yakuza")


def _tables(game: Kingpin) -> dict:
    cache = getattr(game, "_bot_cache", None)
    if cache is not None:
        return cache
    t = game.t
    value = []
    for tile in t.tiles:
        pistols = [side[0] for side in tile.sides]
        cars = [side[1] for side in tile.sides]
        vests = sum(side[2] for side in tile.sides)
        pens = sum(1 for side in tile.sides if side[3])
        v = 3.0 + 1.5 * tile.toughness + 1.0 * max(pistols) + 0.5 * sum(pistols) + 0.6 * max(cars)
        v += 0.4 * vests + 0.8 * pens + (3.0 if tile.sniper else 0.0)
        value.append(v)
    cols = t.board.columns
    # Steps from each square to leave the board (reach a red triangle, then step off).
    exit_dist = []
    for p in range(2):
        exits = [sq for sq in range(t.n_sq) if t.EXIT[p][sq] >= 0]
        row = []
        for sq in range(t.n_sq):
            if exits:
                row.append(min(abs(sq % cols - e % cols) + abs(sq // cols - e // cols) for e in exits) + 1)
            else:
                row.append(99)
        exit_dist.append(tuple(row))
    nml_dist = tuple(
        min((abs(sq % cols - e % cols) + abs(sq // cols - e // cols) for e in t.NML), default=9)
        for sq in range(t.n_sq)
    )
    cache = {"value": tuple(value), "exit": tuple(exit_dist), "nml": nml_dist}
    game._bot_cache = cache  # type: ignore[attr-defined]
    return cache


def attacks(game: Kingpin, s: State, p: int) -> list[tuple[int, float]]:
    """Returns (action, material swing for p) for every legal attack of p in s."""
    t = game.t
    C = game.codec
    own = game.owners(s.mafia)
    value = _tables(game)["value"]
    board = s.board
    NB, AIM, CAR, SNIPER = t.NB, t.AIM, t.CAR, t.SNIPER
    out = []
    for sq in range(t.n_sq):
        c = board[sq]
        if c < 0 or own[c >> 2] != p or SNIPER[c >> 2]:
            continue
        for d in range(4):
            n = NB[sq][d]
            if n < 0:
                continue
            bn = board[n]
            if bn >= 0:
                if AIM[c][d] and own[bn >> 2] != p:
                    dead = game.resolve(board, own, sq, n, -1)
                    if n in dead:
                        out.append((C.shoot(sq, d), _swing(board, own, dead, p, value)))
            elif CAR[c][d]:
                n2 = NB[n][d]
                if n2 >= 0 and board[n2] >= 0 and own[board[n2] >> 2] != p:
                    moved = list(board)
                    moved[n] = c
                    moved[sq] = -1
                    dead = game.resolve(moved, own, n, n2, d)
                    if n2 in dead:
                        out.append((C.raid(sq, d), _swing(moved, own, dead, p, value)))
    return out


def _swing(board, own, dead, p: int, value) -> float:
    v = 0.0
    for x in dead:
        tl = board[x] >> 2
        v += value[tl] if own[tl] != p else -value[tl]
    return v


def race(game: Kingpin, board, own, p: int) -> int:
    """Returns the fewest movement actions any tile of ``p`` needs to leave the board past the
    enemy's area, walking through free squares (99 when no path is open)."""
    t = game.t
    NB = t.NB
    dist = [0] * t.n_sq
    frontier = []
    for sq in t.EXIT_SQ[p]:
        c = board[sq]
        if c < 0 or own[c >> 2] == p:
            dist[sq] = 1
            if c < 0:
                frontier.append(sq)
            else:
                return 1
    best = 99
    d = 1
    while frontier:
        d += 1
        nxt = []
        for x in frontier:
            for n in NB[x]:
                if n >= 0 and not dist[n]:
                    dist[n] = d
                    c = board[n]
                    if c < 0:
                        nxt.append(n)
                    elif own[c >> 2] == p and d < best:
                        best = d
        if best < 99:
            return best
        frontier = nxt
    return best


def evaluate(game: Kingpin, s: State, p: int) -> float:
    """Returns how good ``s`` is for ``p`` (large and positive: a win)."""
    if s.phase == END:
        return WIN if s.winner == p else -WIN
    t = game.t
    q = 1 - p
    tb = _tables(game)
    value, nml_d = tb["value"], tb["nml"]
    own = game.owners(s.mafia)
    board = s.board
    score = 0.0
    for x in s.hand[p] + s.deck[p]:
        score += value[x]
    for x in s.hand[q] + s.deck[q]:
        score -= value[x]
    nml = [0, 0]
    near_nml = [0, 0]
    closest = [9, 9]  # each player's tile nearest No Man's Land, not on it
    for sq in range(t.n_sq):
        c = board[sq]
        if c < 0:
            continue
        tl = c >> 2
        o = own[tl]
        v = value[tl] + 1.0
        if t.IN_NML[sq]:
            nml[o] += 1
            v += 1.5
        else:
            if nml_d[sq] < closest[o]:
                closest[o] = nml_d[sq]
            if nml_d[sq] == 1:
                near_nml[o] += 1
            v += 1.0 / (1 + nml_d[sq])
        score += v if o == p else -v
    # The race to leave the board past the enemy's area; the opponent moves next.
    to_move = q if s.phase == DRAW else s.current
    mine, theirs = race(game, board, own, p), race(game, board, own, q)
    if to_move == q:
        if theirs <= 1:
            return -WIN / 2
        if theirs <= mine and theirs <= 3:
            score -= 120.0 / theirs
        if mine < theirs and mine <= 2:
            score += 60.0
    score += 25.0 / mine - 40.0 / theirs
    # No Man's Land: three there and none of the enemy's wins.
    if nml[p] == 0 and nml[q] == 2 and near_nml[q]:
        score -= 60.0
    if nml[q] == 0 and nml[p] >= 2:
        score += 12.0 * nml[p] + 20.0 / closest[p]
    if nml[p] == 0 and nml[q] >= 2:
        score -= 12.0 * nml[q]
    # Attacks: the opponent moves next.
    opp = attacks(game, s, q)
    if opp:
        score -= max(0.0, max(v for _, v in opp))
    mine_att = attacks(game, s, p)
    if mine_att:
        score += 0.3 * max(0.0, max(v for _, v in mine_att))
    return score


# The evaluation's scale on the logistic curve: fitted (maximum likelihood) on the
# outcomes of 160 heuristic games with 10% random moves, 6921 positions
# (benchmarks/search_fits.py).
WIN_SCALE = 15.0


def win_chance(game: Kingpin, s: State) -> tuple[float, float] | None:
    """Returns each player's estimated chance to win from ``s`` (None before the starting
    player and the mafias are chosen): the evaluation from both sides on a logistic curve,
    averaged."""
    if s.phase == END:
        return (1.0, 0.0) if s.winner == 0 else (0.0, 1.0)
    if s.phase == CHOOSE or s.phase == START:
        return None
    e0 = max(-40.0, min(40.0, evaluate(game, s, 0) / WIN_SCALE))
    e1 = max(-40.0, min(40.0, evaluate(game, s, 1) / WIN_SCALE))
    v = (1.0 / (1.0 + math.exp(-e0)) + 1.0 - 1.0 / (1.0 + math.exp(-e1))) / 2
    return (v, 1.0 - v)


def evaluate_state(game: Kingpin, s: State) -> tuple[float, float] | None:
    """The search's evaluation (``Game.evaluate``): ``win_chance``."""
    return win_chance(game, s)


def heuristic_action(game: Kingpin, s: State, player: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if s.phase == CHOOSE:
        C = game.codec
        for key in PREFERENCE:
            if key in game.t.mafias:
                a = C.choose(game.t.mafias.index(key))
                if a in legal:
                    return a
        return legal[0]
    best, best_v = legal[0], -float("inf")
    for a in legal:
        v = evaluate(game, game.apply(s, a, player), player) + rng.random() * 1e-3
        if v > best_v:
            best, best_v = a, v
    return best
