"""The Gangs Of Green City team heuristic.

Co-operative with open hands, so it reads the whole (public) state. Moves are
chosen greedily: each legal move is applied and the result scored by
``evaluate`` (recruitments ended, sphere danger, riots, each player's progress
towards five cards of a district and their distance to a safe house).
Discards, respite targets and respite windows follow simple rules.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import actions as A
from .data import (
    DIST,
    DISTRICT,
    FUNDRAISER,
    GHOST,
    MAX_SPHERES,
    METER,
    NUM_GANGS,
    NUM_POIS,
    PARK,
    PROFESSOR,
    PROFESSOR_RECRUIT_CARDS,
    QUIET,
    RECRUIT_CARDS,
    RESPITE0,
    ROOFTOP,
    WATCH,
    WITNESS,
)
from .state import ESC_WINDOW, GANG_WINDOW, MOVES, PICK_RECRUIT, State

if TYPE_CHECKING:
    from .rules import GangsOfGreenCity

_DANGER = (0.0, 1.0, 2.6, 6.0)


def _need(cast: int) -> int:
    return PROFESSOR_RECRUIT_CARDS if cast == PROFESSOR else RECRUIT_CARDS


def _district_counts(hand: tuple[int, ...]) -> list[int]:
    counts = [0] * NUM_GANGS
    for c in hand:
        if c < NUM_POIS:
            counts[DISTRICT[c]] += 1
    return counts


def _safe_dist(pos: int, safe: tuple[int, ...]) -> int:
    if pos == PARK:
        return 2
    row = DIST[pos]
    return min(row[x] for x in safe)


def evaluate(s: State) -> float:
    """Scores a state for the team: higher is better."""
    if s.result:
        return 1e6 if s.result == 1 else -1e6
    ended = s.ended
    v = 120.0 * bin(ended).count("1") + 20.0 * bin(s.defeated).count("1") - 8.0 * s.war
    sph = s.spheres
    danger = 0.0
    for i in range(0, len(sph), NUM_GANGS):
        for g in range(NUM_GANGS):
            c = sph[i + g]
            if c:
                danger += _DANGER[c] * (0.5 if ended >> g & 1 else 1.0)
    v -= danger
    safe = s.safe
    for q, hand in enumerate(s.hands):
        counts = _district_counts(hand)
        need = _need(s.cast[q])
        best = 0
        for g in range(NUM_GANGS):
            if not ended >> g & 1 and counts[g] > best:
                best = counts[g]
        v += 1.6 * best * best + 0.3 * len(hand)
        if best >= need:
            v += 25.0 - 3.0 * _safe_dist(s.pawns[q], safe)
    # safe houses spread over the city
    v += 3.0 * len(safe)
    return v


def _threat_distance(s: State, pos: int) -> float:
    """Distance from ``pos`` to the nearest POI holding 2 or 3 spheres of a gang."""
    if pos == PARK:
        return 2.0
    sph = s.spheres
    row = DIST[pos]
    best = 9.0
    for p in range(NUM_POIS):
        b = p * NUM_GANGS
        m = max(sph[b], sph[b + 1], sph[b + 2], sph[b + 3])
        if m >= 2:
            d = row[p] - (0.5 if m == MAX_SPHERES else 0.0)
            if d < best:
                best = d
    return best


def _card_value(s: State, player: int, c: int) -> float:
    if c >= RESPITE0:
        return 6.0
    g = DISTRICT[c]
    if s.ended >> g & 1:
        return 0.5
    return 1.0 + _district_counts(s.hands[player])[g]


def _respite_wanted(s: State, player: int, r: int) -> bool:
    """Whether the team wants respite ``r`` played now (in a window or as a discard saver)."""
    sph = s.spheres
    if r == QUIET:
        threes = sum(1 for x in sph if x == MAX_SPHERES)
        return s.stage == GANG_WINDOW and (threes >= 3 or s.war >= 5) and METER[s.esc] >= 3 or (
            s.stage == GANG_WINDOW and s.war >= 6
        )
    if r == WATCH:
        return any(x == MAX_SPHERES for x in sph)
    if r == WITNESS:
        return s.stage == ESC_WINDOW and bool(s.gang_disc)
    if r == ROOFTOP:
        return _rooftop_target(s) is not None
    if r == FUNDRAISER:
        return len(s.safe) < 4
    return False


def _rooftop_target(s: State) -> tuple[int, int] | None:
    """A player ready to end a recruitment who is away from a safe house, and where to send them."""
    for q, hand in enumerate(s.hands):
        counts = _district_counts(hand)
        need = _need(s.cast[q])
        if any(counts[g] >= need and not s.ended >> g & 1 for g in range(NUM_GANGS)):
            if s.pawns[q] not in s.safe:
                return q, s.safe[0]
    return None


def _target(s: State, legal: list[int]) -> int:
    r = s.resp
    if r == ROOFTOP:
        t = _rooftop_target(s)
        if s.resp_pawn < 0:
            q = t[0] if t else s.current
            return A.PAWN0 + q if A.PAWN0 + q in legal else legal[0]
        if t and t[0] == s.resp_pawn and A.DEST0 + t[1] in legal:
            return A.DEST0 + t[1]
        return max(legal, key=lambda a: (_poi_heat(s, a - A.DEST0), -a))
    if r == FUNDRAISER:
        return max(legal, key=lambda a: (min(DIST[a - A.DEST0][x] for x in s.safe), -a))
    if r == WITNESS:
        return max(legal, key=lambda a: (_poi_heat(s, a - A.GCARD0), -a))
    return max(legal, key=lambda a: (s.spheres[a - A.WATCH0], -a))


def _poi_heat(s: State, p: int) -> int:
    b = p * NUM_GANGS
    return max(s.spheres[b : b + NUM_GANGS])


def heuristic_action(game: GangsOfGreenCity, s: State, player: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if s.resp >= 0:
        return _target(s, legal)
    plays = [a for a in legal if A.RESPITE0 <= a < A.PASS]
    for a in plays:
        if _respite_wanted(s, player, a - A.RESPITE0):
            return a
    if s.pick_n > 0:
        discards = [a for a in legal if a >= A.DISCARD0 and a < A.PAWN0]
        if s.pick_kind == PICK_RECRUIT:
            return discards[0]
        return min(discards, key=lambda a: (_card_value(s, player, a - A.DISCARD0), a))
    if s.stage != MOVES:
        return A.PASS
    moves = [a for a in legal if a < A.RESPITE0]
    for a in moves:
        if A.RECRUIT0 <= a < A.BATTLE0:
            return a
    best, best_v = moves[0], -1e18
    pos = s.pawns[player]
    me = s.cast[player]
    for a in moves:
        if A.PORTAL0 <= a < A.RIDE0:
            d = a - A.PORTAL0
            if d not in s.safe and _poi_heat(s, d) < MAX_SPHERES:
                continue  # a card spent to go anywhere: only to a safe house or a hot spot
        t = game.apply(s, a, player)
        v = evaluate(t)
        if t.resp < 0 and t.pick_n <= 0:
            v -= 0.8 * _threat_distance(t, t.pawns[player])
        if a >= A.DISPATCH0 and me != GHOST:
            v -= 0.5
        if pos == PARK and a < A.SAFE0:
            v += 0.1
        v += rng.random() * 1e-3
        if v > best_v:
            best, best_v = a, v
    return best
