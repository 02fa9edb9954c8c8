"""REFERENCE for the speed tests (issue 16): the bot as it was before its speed-ups (commit a8a2608),
so that the fast bot's choices can be compared with it; since then changed only by the
strategy of 2026-12-02 (a respite's value and its play at the hand limit, a surplus card's
value, the rendezvous), written here plainly, without memos.

The Gangs of Green City team heuristic.

Co-operative with open hands, so it reads the whole (public) state. Moves are
chosen greedily: each legal move is applied and the result scored by
``evaluate`` (recruitments ended, sphere danger, riots, each player's progress
towards five cards of a district and their distance to a safe house).
Discards, respite targets and respite windows follow simple rules.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from kingmaker.games.gangs_of_green_city import actions as A
from kingmaker.games.gangs_of_green_city.data import (
    CABBIE,
    DETECTIVE,
    DIST,
    DISTRICT,
    FUNDRAISER,
    GHOST,
    MAX_SPHERES,
    MAYOR,
    METER,
    NEIGHBOURS,
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
from kingmaker.games.gangs_of_green_city.state import (
    ESC_WINDOW,
    GANG_WINDOW,
    MOVES,
    PICK_LIMIT,
    PICK_RECRUIT,
    SHIFT,
    State,
    unpack_spheres,
)

if TYPE_CHECKING:
    from kingmaker.games.gangs_of_green_city.game import GangsOfGreenCity

_DANGER = (0.0, 1.0, 2.6, 6.0)
_last: list = [None, None]


def _flat(s: State) -> list[int]:
    """Returns the sphere counts flat, ``[poi * 4 + gang]`` (the last one is cached)."""
    if _last[0] is not s.spheres:
        _last[0] = s.spheres
        _last[1] = unpack_spheres(s.spheres)
    return _last[1]
RISK3 = 3.0  # weight of the chance that a POI at three riots next


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


def draw_odds(s: State) -> list[float]:
    """Returns, for each POI, the chance that its gang card comes up in the next Gang Leader phase.

    The known layers come first, top layer first; cards in the discard pile only come back
    after an ESCALATION! (they get a small weight, since the next one puts them on top).
    """
    left = METER[s.esc]
    odds = [0.0] * NUM_POIS
    known = set(s.gang_disc)
    known.update(s.gang_out)
    for layer in s.gang_layers:
        known.update(layer)
        p = min(1.0, left / len(layer))
        for c in layer:
            odds[c] = p
        left = max(0, left - len(layer))
    rest = NUM_POIS - len(known)
    p_rest = min(1.0, left / rest) if rest else 0.0
    disc = set(s.gang_disc)
    for c in range(NUM_POIS):
        if c in disc:
            odds[c] = 0.15
        elif c not in known:
            odds[c] = max(p_rest, 0.02)
    return odds


def evaluate(s: State, odds: list[float] | None = None) -> float:
    """Scores a state for the team: higher is better."""
    if s.result:
        return 1e6 if s.result == 1 else -1e6
    if odds is None:
        odds = draw_odds(s)
    ended = s.ended
    v = 120.0 * bin(ended).count("1") + 20.0 * bin(s.defeated).count("1") - 8.0 * s.war
    sph = _flat(s)
    danger = 0.0
    for p in range(NUM_POIS):
        i = p * NUM_GANGS
        home = DISTRICT[p]
        for g in range(NUM_GANGS):
            c = sph[i + g]
            if c:
                w = _DANGER[c] * (0.5 if ended >> g & 1 else 1.0)
                if g == home:
                    w *= 1.0 + RISK3 * odds[p] if c == MAX_SPHERES else 1.0 + odds[p]
                if c == MAX_SPHERES:
                    # a riot here sets off neighbours at three: chains are the real danger
                    w *= 1.0 + 0.7 * sum(1 for nb in NEIGHBOURS[p] if sph[nb * NUM_GANGS + g] == MAX_SPHERES)
                danger += w
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
    # safe houses spread over the city: the average distance to the nearest one
    rows = [DIST[x] for x in safe]
    v -= 0.12 * sum(min(r[p] for r in rows) for p in range(NUM_POIS))
    return v


def _threat_distance(s: State, pos: int) -> float:
    """Distance from ``pos`` to the nearest POI holding 2 or 3 spheres of a gang."""
    if pos == PARK:
        return 2.0
    sph = _flat(s)
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
    """How much the team loses if ``player`` spends card ``c``: a card of a district they lead the
    team in collecting is precious; others are fuel for moves and safe houses."""
    if c >= RESPITE0:
        return 3.0
    g = DISTRICT[c]
    if s.ended >> g & 1:
        return 0.5
    mine = _district_counts(s.hands[player])[g]
    if mine > _need(s.cast[player]):
        return 0.8
    lead = max(_district_counts(h)[g] for h in s.hands)
    if mine >= lead:
        return 1.0 + 1.2 * mine
    return 0.6 + 0.3 * mine


def _respite_wanted(s: State, player: int, r: int) -> bool:
    """Whether the team wants respite ``r`` played now (in a window or as a discard saver)."""
    sph = _flat(s)
    if r == QUIET:
        if s.stage != GANG_WINDOW:
            return False
        # expected riots in the coming Gang Leader phase: POIs at three whose card may come up
        odds = draw_odds(s)
        risk = 0.0
        for p in range(NUM_POIS):
            if sph[p * NUM_GANGS + DISTRICT[p]] == MAX_SPHERES and not s.defeated >> DISTRICT[p] & 1:
                risk += odds[p]
        return risk >= 0.5 or (s.war >= 6 and risk >= 0.2)
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
    return max(legal, key=lambda a: (_flat(s)[a - A.WATCH0], -a))


def _poi_heat(s: State, p: int) -> int:
    b = p * NUM_GANGS
    return max(_flat(s)[b : b + NUM_GANGS])


def _weight(s: State, odds: list[float], p: int, g: int, c: int) -> float:
    """Danger of ``c`` spheres of gang ``g`` on POI ``p`` (as in ``evaluate``)."""
    if c <= 0:
        return 0.0
    w = _DANGER[c] * (0.5 if s.ended >> g & 1 else 1.0)
    if g == DISTRICT[p]:
        w *= 1.0 + RISK3 * odds[p] if c == MAX_SPHERES else 1.0 + odds[p]
    if c == MAX_SPHERES:
        sph = _flat(s)
        w *= 1.0 + 0.7 * sum(1 for nb in NEIGHBOURS[p] if sph[nb * NUM_GANGS + g] == MAX_SPHERES)
    return w


def _battle_gains(s: State, odds: list[float], p: int, me: int) -> list[tuple[float, int]]:
    """Returns (danger removed, gang) for each battle move possible on ``p``, best first."""
    out = []
    b = p * NUM_GANGS
    for g in range(NUM_GANGS):
        c = _flat(s)[b + g]
        if not c:
            continue
        if me == GHOST or s.ended >> g & 1:
            out.append((_weight(s, odds, p, g, c), g))
        else:
            for k in range(c, 0, -1):
                out.append((_weight(s, odds, p, g, k) - _weight(s, odds, p, g, k - 1), g))
    out.sort(reverse=True)
    return out


def _routes(s: State, pos: int) -> dict[int, tuple[int, int]]:
    """Breadth-first routes from ``pos`` by travel and rides: place -> (moves, first action)."""
    safe = s.safe
    seen = {pos: (0, -1)}
    frontier = [pos]
    while frontier:
        nxt = []
        for x in frontier:
            d, first = seen[x]
            steps = [(y, A.TRAVEL0 + y) for y in NEIGHBOURS[x]]
            if x in safe:
                steps.extend((y, A.RIDE0 + y) for y in safe if y != x)
            for y, act in steps:
                if y not in seen:
                    seen[y] = (d + 1, act if first < 0 else first)
                    nxt.append(y)
        frontier = nxt
    return seen


def _meeting_gain(s: State, player: int, t: int) -> float:
    """Value of briefing on POI ``t`` with a teammate who stands there: a card moves to the
    player who leads the team in its district."""
    best = 0.0
    hands = s.hands
    ruiz_me = s.cast[player] == DETECTIVE
    for q, pos in enumerate(s.pawns):
        if q == player or pos != t:
            continue
        ruiz_q = s.cast[q] == DETECTIVE
        for giver, taker, any_card in ((player, q, ruiz_me), (q, player, ruiz_q)):
            cards = [c for c in hands[giver] if c < NUM_POIS and (c == t or any_card)]
            for c in cards:
                g = DISTRICT[c]
                if s.ended >> g & 1:
                    continue
                have = _district_counts(hands[taker])[g]
                give = _district_counts(hands[giver])[g]
                if have >= give and have >= 2:
                    best = max(best, 4.0 + 3.0 * have)
    return best


def _plan_move(s: State, player: int, legal: set[int], odds: list[float]) -> int | None:
    """Picks a target POI reachable this turn and returns the first move towards what it offers."""
    pos = s.pawns[player]
    me = s.cast[player]
    hand = s.hands[player]
    budget = s.moves + (1 if pos == PARK else 0)
    need = _need(me)
    counts = _district_counts(hand)
    ready = any(counts[g] >= need and not s.ended >> g & 1 for g in range(NUM_GANGS))
    routes = _routes(s, pos)
    options: dict[int, tuple[int, int, float]] = {t: (d, a, 0.0) for t, (d, a) in routes.items()}
    # wormhole escapes: one move and a card
    for c in hand:
        if c < NUM_POIS and c != pos and A.ESCAPE0 + c in legal:
            cost = 1.5 + _card_value(s, player, c)
            if c not in options or options[c][0] > 1:
                options[c] = (1, A.ESCAPE0 + c, cost)
    if pos < NUM_POIS and pos in hand:
        cost = 1.5 + _card_value(s, player, pos)
        for t in range(NUM_POIS):
            if (t not in options or options[t][0] > 1) and (t in s.safe or _poi_heat(s, t) >= 2):
                options[t] = (1, A.PORTAL0 + t, cost)
    best_score, best_act = 0.05, None
    for t, (d, first, cost) in options.items():
        if t == PARK or d > budget:
            continue
        k = budget - d
        gain = 0.0
        if k >= 1 and ready and t in s.safe:
            gain = 150.0
        elif k >= 1:
            gains = _battle_gains(s, odds, t, me)
            gain = sum(x for x, _ in gains[:k])
        if k >= 1:
            gain += _meeting_gain(s, player, t)
        score = gain - cost - 0.05 * d
        if score > best_score:
            best_score, best_act = score, (first if t != pos else -1)
    if best_act is None:
        return None
    if best_act >= 0:
        return best_act
    # act here
    for g in range(NUM_GANGS):
        if A.RECRUIT0 + g in legal:
            return A.RECRUIT0 + g
    gains = _battle_gains(s, odds, pos, me)
    if gains and A.BATTLE0 + gains[0][1] in legal:
        return A.BATTLE0 + gains[0][1]
    return None


def _head_for(s: State, player: int, legal: set[int], odds: list[float]) -> int | None:
    """Nothing worth doing within reach: take a step towards the best place further away."""
    pos = s.pawns[player]
    me = s.cast[player]
    need = _need(me)
    counts = _district_counts(s.hands[player])
    ready = any(counts[g] >= need and not s.ended >> g & 1 for g in range(NUM_GANGS))
    routes = _routes(s, pos)
    best, best_v = None, -1e9
    for t, (d, first) in routes.items():
        if t == pos or t == PARK or first not in legal:
            continue
        if ready:
            v = (50.0 if t in s.safe else 0.0) - d
        else:
            v = sum(x for x, _ in _battle_gains(s, odds, t, me)[:3]) / (1.0 + d)
        if v > best_v:
            best, best_v = first, v
    return best


def _recruit_trip(s: State, player: int, legal: set[int]) -> int | None:
    """A player holding enough cards of a district heads for the nearest safe house."""
    pos = s.pawns[player]
    need = _need(s.cast[player])
    counts = _district_counts(s.hands[player])
    ready = [g for g in range(NUM_GANGS) if counts[g] >= need and not s.ended >> g & 1]
    if not ready:
        return None
    routes = _routes(s, pos)
    reach = [(d, t, first) for t, (d, first) in routes.items() if t in s.safe and t != pos]
    best = min(reach, default=None)
    # a card spent on an escape: only one outside the districts being collected
    spare = [c for c in s.hands[player] if c < NUM_POIS and counts[DISTRICT[c]] < need - 1]
    if best is not None and best[0] > 2:
        for c in spare:
            if c in s.safe and A.ESCAPE0 + c in legal:
                return A.ESCAPE0 + c
    if pos < NUM_POIS and pos not in s.safe and A.SAFE_SUPPLY in legal and (
        s.cast[player] == CABBIE or counts[DISTRICT[pos]] < need or DISTRICT[pos] not in ready
    ):
        if best is None or best[0] > s.moves - 1:
            return A.SAFE_SUPPLY
    if best is not None and best[2] in legal:
        return best[2]
    return None


def _collectors(s: State) -> list[int]:
    out = []
    for g in range(NUM_GANGS):
        if s.ended >> g & 1:
            out.append(-1)
            continue
        best = None
        for q in range(len(s.hands)):
            key = (_district_counts(s.hands[q])[g], s.cast[q] == PROFESSOR, s.cast[q] != DETECTIVE, -q)
            if best is None or key > best[0]:
                best = (key, q)
        out.append(best[1])
    return out


def _battle_moves(s: State, p: int, me: int) -> int:
    n = 0
    for g in range(NUM_GANGS if p < NUM_POIS else 0):
        c = s.spheres[p] >> SHIFT[g] & 3
        if c:
            n += 1 if me == GHOST or s.ended >> g & 1 else c
    return n


def _rendezvous(s: State, player: int, legal: set[int], odds: list[float]) -> int | None:
    col = _collectors(s)
    options = []
    for q in range(len(s.hands)):
        if q == player:
            continue
        for giver, taker in ((player, q), (q, player)):
            for c in s.hands[giver]:
                if c >= NUM_POIS:
                    continue
                g = DISTRICT[c]
                have = _district_counts(s.hands[taker])[g]
                give = _district_counts(s.hands[giver])[g]
                if col[g] == taker and 3 <= have < _need(s.cast[taker]) and give <= have:
                    options.append((have, c, q, s.cast[giver] == DETECTIVE))
    pos = s.pawns[player]
    me = s.cast[player]
    k = s.moves + (1 if pos == PARK else 0)

    def can_stay(r: int, c: int) -> bool:
        return r % 2 == 0 or _battle_moves(s, c, me) >= 1

    best_v, best = -1e9, None
    if me == MAYOR:
        for giver in range(len(s.hands)):
            for taker in range(len(s.hands)):
                if giver == taker or player in (giver, taker):
                    continue
                for c in s.hands[giver]:
                    if c >= NUM_POIS:
                        continue
                    g = DISTRICT[c]
                    have = _district_counts(s.hands[taker])[g]
                    give = _district_counts(s.hands[giver])[g]
                    if col[g] != taker or not 3 <= have < _need(s.cast[taker]) or give > have:
                        continue
                    pg, pt = s.pawns[giver], s.pawns[taker]
                    if pg == c and pt != c:
                        a = A.DISPATCH0 + taker * NUM_POIS + c
                    elif pt == c and pg != c:
                        a = A.DISPATCH0 + giver * NUM_POIS + c
                    else:
                        continue
                    v = 0.4 * 1.6 * (2 * have + 1)
                    if v > best_v and a in legal:
                        best_v, best = v, a
    if not options and best is None:
        return None
    routes = _routes(s, pos)
    for have, c, q, ruiz in options:
        qpos = s.pawns[q]
        gain = 1.6 * (2 * have + 1)
        places = [c]
        if ruiz and qpos != c and qpos != PARK:
            places.append(qpos)
        for x in places:
            if qpos == x and x in routes and routes[x][0] <= k - 1:
                d, first = routes[x]
                if gain - 0.3 * d > best_v:
                    best_v = gain - 0.3 * d
                    best = first if d > 0 else A.SHARE0 + q * NUM_POIS + c
        if me == MAYOR:
            spots = [c]
            if ruiz and pos != c and pos != PARK:
                spots.append(pos)
            for x in spots:
                if qpos != x and x in routes and routes[x][0] <= k - 2:
                    d, first = routes[x]
                    if gain - 0.3 * (d + 1) > best_v:
                        best_v = gain - 0.3 * (d + 1)
                        best = first if d > 0 else A.DISPATCH0 + q * NUM_POIS + x
        if qpos == c or c not in routes or routes[c][0] > k:
            continue
        dq = _routes(s, qpos)[c][0] if c in _routes(s, qpos) else 99
        if dq > 3:
            continue
        d, first = routes[c]
        battles = 0
        here = _battle_moves(s, pos, me) if d > 0 else 0
        while battles < here and k - battles - 1 - d >= 0 and can_stay(k - battles - 1 - d, c):
            battles += 1
        if not can_stay(k - battles - d, c):
            continue
        v = 0.4 * gain - 0.3 * d - 0.3 * dq
        if v > best_v:
            best_v = v
            best = first if d > 0 and battles == 0 else -1
    if best is None:
        return None
    battle = 0.0
    for t, (d, _) in routes.items():
        if d < k and t != PARK and s.spheres[t]:
            battle = max(battle, sum(x for x, _ in _battle_gains(s, odds, t, me)[: k - d]))
    if best_v * 0.8 < battle:
        return None
    if best >= 0:
        return best if best in legal else None
    gains = _battle_gains(s, odds, pos, me) if s.spheres[pos] else []
    if gains and A.BATTLE0 + gains[0][1] in legal:
        return A.BATTLE0 + gains[0][1]
    if k >= 2:
        steps = [y for y in NEIGHBOURS[pos] if A.TRAVEL0 + y in legal]
        if steps:
            return A.TRAVEL0 + max(steps, key=lambda y: (_battle_moves(s, y, me), -y))
    return None


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
        a = min(discards, key=lambda a: (_card_value(s, player, a - A.DISCARD0), a))
        r = a - A.DISCARD0 - RESPITE0
        if r >= 0 and s.pick_kind == PICK_LIMIT and A.RESPITE0 + r in plays:
            return A.RESPITE0 + r
        return a
    if s.stage != MOVES:
        return A.PASS
    moves = [a for a in legal if a < A.RESPITE0]
    for a in moves:
        if A.RECRUIT0 <= a < A.BATTLE0:
            return a
    odds = draw_odds(s)
    legal_set = set(moves)
    act = _rendezvous(s, player, legal_set, odds)
    if act is not None:
        return act
    # briefing, a safe house or a dispatch when it helps the team's cards or reach
    base = evaluate(s, odds)
    special, special_v = None, 2.0
    for a in moves:
        if A.SHARE0 <= a < A.RESPITE0 or A.SAFE0 <= a < A.RECRUIT0:
            v = evaluate(game.apply(s, a, player), odds) - base
            if v > special_v:
                special, special_v = a, v
    if special is not None:
        return special
    act = _recruit_trip(s, player, legal_set)
    if act is None:
        act = _plan_move(s, player, legal_set, odds)
    if act is None:
        act = _head_for(s, player, legal_set, odds)
    if act is not None and act in legal_set:
        return act
    return rng.choice(moves)
