"""The Kingpin heuristic: one ply of search with a tactical evaluation.

For each legal action it looks at the position after it and scores material
(gangsters alive, weighted by their icons), the race to leave the board past
the enemy's area, No Man's Land, and the best attack the opponent could make
in reply (and, less, the best attack it keeps for itself). Nothing is hidden
in Kingpin, so it reads the state it is given; the draws still to come are
not looked at.

Speed (the search rolls out with this bot, issue 16): ``evaluate`` reads the
board in one pass (per-square values precomputed per tile set) and keeps only
the best attack of each side; the heuristic keeps the evaluations of each
position's moves (a position recurs often in a search), and draws the same
random tie-breaks, so its choices and its use of the random stream are those of
the plain computation. It evaluates the moves from the highest bound down (the
evaluation without the attacks, plus the most the player's own attack can add)
and skips, exactly, those whose bound cannot beat the best so far: most moves
are not looked at for attacks at all (``tests/games/kingpin/test_kingpin_bot_speed.py``
compares them with the previous implementation on seeded random positions).
"""

from __future__ import annotations

import math
import random
from typing import TYPE_CHECKING

from .state import CHOOSE, DRAW, END, START, State

if TYPE_CHECKING:
    from .game import Kingpin

WIN = 1_000_000.0
# Mafia preference when choosing (the designer's notes: 'the Russians are always the
# first choice'); see the balance table in docs/rulings/kingpin.md.
PREFERENCE = ("russian", "italian", "yakuza")


# How many positions' move evaluations the heuristic keeps per game (then it starts afresh).
MEMO_MAX = 5_000


def _tables(game: Kingpin) -> dict:
    cache = getattr(game, "_bot_tables", None)
    if cache is not None and cache["t"] is game.t:
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
    # A tile's contribution on a square (evaluate): value + 1, then + 1.5 on No Man's
    # Land or + 1 / (1 + distance to it) elsewhere, added in that order.
    on_sq = tuple(
        tuple((value[tl] + 1.0) + (1.5 if t.IN_NML[sq] else 1.0 / (1 + nml_dist[sq])) for sq in range(t.n_sq))
        for tl in range(len(value))
    )
    # The race on bit masks (square sq is bit sq), when the board is a full grid of rows of
    # ``cols`` squares: a step is a shift by 1 within a row or by ``cols``; else None.
    n = t.n_sq
    grid = all(
        t.NB[sq] == (sq + cols if sq + cols < n else -1, sq + 1 if sq % cols < cols - 1 else -1,
                     sq - cols if sq >= cols else -1, sq - 1 if sq % cols else -1)
        for sq in range(n)
    )
    masks = None
    if grid:
        full = (1 << n) - 1
        not_first = sum(1 << sq for sq in range(n) if sq % cols)
        not_last = sum(1 << sq for sq in range(n) if sq % cols < cols - 1)
        exits = tuple(sum(1 << sq for sq in t.EXIT_SQ[p]) for p in range(2))
        masks = (cols, full, not_first, not_last, exits)
    # A tile (id * 4 + facing) on a square: the squares its pistols aim at, and its raids
    # (direction, the free square it drives through, the square it attacks). None for a sniper.
    aims, raids = [], []
    for c in range(4 * len(value)):
        sniper = t.SNIPER[c >> 2]
        aims.append(None if sniper else tuple(
            tuple(t.NB[sq][d] for d in range(4) if t.AIM[c][d] and t.NB[sq][d] >= 0) for sq in range(n)))
        raids.append(None if sniper else tuple(
            tuple((d, t.NB[sq][d], t.NB[t.NB[sq][d]][d]) for d in range(4)
                  if t.CAR[c][d] and t.NB[sq][d] >= 0 and t.NB[t.NB[sq][d]][d] >= 0) for sq in range(n)))
    cache = {"t": t, "value": tuple(value), "exit": tuple(exit_dist), "nml": nml_dist, "on_sq": on_sq,
             "moves": {}, "masks": masks, "aims": tuple(aims), "raids": tuple(raids)}
    game._bot_tables = cache  # type: ignore[attr-defined]
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


def _race_bits(masks, free: int, mine: int, p: int) -> int:
    """``race`` on bit masks: ``free`` the empty squares, ``mine`` the squares of p's tiles."""
    cols, full, not_first, not_last, exits = masks
    e = exits[p]
    if e & mine:
        return 1
    frontier = seen = e & free
    d = 1
    while frontier:
        d += 1
        nb = ((frontier << cols) | (frontier >> cols) | ((frontier << 1) & not_first)
              | ((frontier >> 1) & not_last)) & full & ~seen
        if nb & mine:
            return d
        seen |= nb
        frontier = nb & free
    return 99


def _best_attack(game: Kingpin, board, own, p: int, tiles: list[int], tb: dict) -> float | None:
    """Returns the best material swing among p's attacks (``attacks``), None if it has none.

    ``tiles`` are the squares of p's tiles; the attacks are those of ``attacks`` (a shot
    where a pistol aims at an enemy, a raid where a car drives through a free square
    at an enemy), the target liquidated, whatever their order."""
    value, aims, raids = tb["value"], tb["aims"], tb["raids"]
    best = None
    for sq in tiles:
        c = board[sq]
        at = aims[c]
        if at is None:  # a sniper
            continue
        for n in at[sq]:
            bn = board[n]
            if bn >= 0 and own[bn >> 2] != p:
                dead = game.resolve(board, own, sq, n, -1)
                if n in dead:
                    v = _swing(board, own, dead, p, value)
                    if best is None or v > best:
                        best = v
        for d, n, n2 in raids[c][sq]:
            if board[n] < 0 and board[n2] >= 0 and own[board[n2] >> 2] != p:
                moved = list(board)
                moved[n] = c
                moved[sq] = -1
                dead = game.resolve(moved, own, n, n2, d)
                if n2 in dead:
                    v = _swing(moved, own, dead, p, value)
                    if best is None or v > best:
                        best = v
    return best


def evaluate(game: Kingpin, s: State, p: int) -> float:
    """Returns how good ``s`` is for ``p`` (large and positive: a win)."""
    if s.phase == END:
        return WIN if s.winner == p else -WIN
    tb = _tables(game)
    score, tiles = _base(game, s, p, tb)
    if tiles is None:
        return score
    return _attacks_term(game, s.board, game.owners(s.mafia), p, score, tiles, tb)


def _base(game: Kingpin, s: State, p: int, tb: dict) -> tuple[float, tuple[list[int], list[int]] | None]:
    """``evaluate`` of a position not ended, up to the attacks: (score, each side's squares),
    or (the final evaluation, None) when the race decides it."""
    t = game.t
    q = 1 - p
    value, nml_d, on_sq = tb["value"], tb["nml"], tb["on_sq"]
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
    tiles: tuple[list[int], list[int]] = ([], [])
    bits = [0, 0]
    in_nml = t.IN_NML
    sq = -1
    for c in board:
        sq += 1
        if c < 0:
            continue
        tl = c >> 2
        o = own[tl]
        tiles[o].append(sq)
        bits[o] |= 1 << sq
        if in_nml[sq]:
            nml[o] += 1
        else:
            dn = nml_d[sq]
            if dn < closest[o]:
                closest[o] = dn
            if dn == 1:
                near_nml[o] += 1
        if o == p:
            score += on_sq[tl][sq]
        else:
            score -= on_sq[tl][sq]
    # The race to leave the board past the enemy's area; the opponent moves next.
    to_move = q if s.phase == DRAW else s.current
    masks = tb["masks"]
    if masks is not None:
        free = masks[1] & ~(bits[0] | bits[1])
        mine, theirs = _race_bits(masks, free, bits[p], p), _race_bits(masks, free, bits[q], q)
    else:
        mine, theirs = race(game, board, own, p), race(game, board, own, q)
    if to_move == q:
        if theirs <= 1:
            return -WIN / 2, None
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
    return score, tiles


def _attacks_term(game: Kingpin, board, own, p: int, score: float, tiles, tb: dict) -> float:
    """``evaluate``'s last terms, from ``_base``'s score: the attacks (the opponent moves next)."""
    q = 1 - p
    opp = _best_attack(game, board, own, q, tiles[q], tb)
    if opp is not None:
        score -= max(0.0, opp)
    mine_att = _best_attack(game, board, own, p, tiles[p], tb)
    if mine_att is not None:
        score += 0.3 * max(0.0, mine_att)
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
    # Every move's evaluation, or a bound above it, kept: positions recur in a search.
    tb = _tables(game)
    memo = tb["moves"]
    key = (s, player)
    entry = memo.get(key)
    known = None
    if entry is None:
        if len(memo) >= MEMO_MAX:
            memo.clear()
        entry, known = _bounds(game, s, player, legal, tb)
        memo[key] = entry
    ubs, vals = entry
    # The plain computation draws one tie-break per move, in order, and keeps the first
    # move of the highest evaluation + tie-break. The moves are looked at from the highest
    # bound down; a move whose bound + tie-break is below the best so far is not evaluated.
    noise = [rng.random() * 1e-3 for _ in legal]
    keys = [u + r for u, r in zip(ubs, noise)]
    best_i, best_v = -1, -float("inf")
    for i in sorted(range(len(legal)), key=keys.__getitem__, reverse=True):
        if keys[i] < best_v:
            break
        e = vals[i]
        if e is None:
            if known is not None and known[i] is not None:
                c, score, tiles = known[i]
            else:
                c = game.apply(s, legal[i], player)
                score, tiles = _base(game, c, player, tb)
            board, own = c.board, game.owners(c.mafia)
            mine = _best_attack(game, board, own, player, tiles[player], tb)
            ub = score + 0.3 * max(0.0, mine) + BOUND_MARGIN if mine is not None else score + BOUND_MARGIN
            if ub + noise[i] < best_v:
                ubs[i] = ub
                continue
            opp = _best_attack(game, board, own, 1 - player, tiles[1 - player], tb)
            if opp is not None:
                score -= max(0.0, opp)
            if mine is not None:
                score += 0.3 * max(0.0, mine)
            e = vals[i] = ubs[i] = score
        v = e + noise[i]
        if v > best_v or (v == best_v and i < best_i):
            best_i, best_v = i, v
    return legal[best_i]


# Added to the bounds above the evaluations: covers the rounding of sums taken in another order.
BOUND_MARGIN = 1e-6


def _bounds(game: Kingpin, s: State, player: int, legal: list[int], tb: dict):
    """Returns ([a bound above each move's evaluation], [its evaluation or None]) and, for the
    moves not evaluated, (child, ``_base`` score, squares) to finish them in this call.

    The bound leaves out the opponent's best attack (a loss) and counts 0.3 of every enemy
    tile on the board for the player's own best attack (it liquidates at most those)."""
    value = tb["value"]
    q = 1 - player
    ubs, vals, known = [], [], []
    for a in legal:
        c = game.apply(s, a, player)
        if c.phase == END:
            e = WIN if c.winner == player else -WIN
        else:
            score, tiles = _base(game, c, player, tb)
            if tiles is not None:
                board = c.board
                m = 0.0
                for sq in tiles[q]:
                    m += value[board[sq] >> 2]
                ubs.append(score + 0.3 * m + BOUND_MARGIN)
                vals.append(None)
                known.append((c, score, tiles))
                continue
            e = score
        ubs.append(e)
        vals.append(e)
        known.append(None)
    return (ubs, vals), known
