"""The Gangs of Green City team heuristic's rendezvous: cards brought to each district's collector.

``collectors`` names each district's collector (the player holding most of its cards);
``transfers`` lists the briefings that bring a card to one; ``_rendezvous`` picks a move
towards such a briefing, this turn or, waiting on the card's POI, next turn (Mayor Maple
dispatches teammates to it). Measured in docs/agents.md ("The heuristic's rendezvous").
``_far_meeting`` is the step of the ``meet`` styles (``bot.STYLES``): towards a meeting
that brings a collector its last card, however many turns away.
Split from ``bot.py``, which calls ``_rendezvous`` before it plans a move.
"""

from __future__ import annotations

from . import actions as A
from .assess import _district_counts, _gain_sum, _gains, _gains_table, _need, _routes
from .data import (
    DETECTIVE,
    DISTRICT,
    GHOST,
    MAYOR,
    NEIGHBOURS,
    NUM_GANGS,
    NUM_POIS,
    PARK,
    PROFESSOR,
)
from .state import SHIFT, State

# The rendezvous (``_rendezvous``): a transfer is planned to a collector holding at least
# RDV_MIN_HAVE cards of the district, who can reach the meeting POI in RDV_REACH moves next
# turn; a meeting to wait for counts RDV_WAIT of one made now, and either is taken when it is
# worth more than RDV_SCALE times the best battles in reach. Tuned on 1000 heuristic team
# games a player count (seeds 1000 * players + i; benchmarks/ggc_heuristic_team.py).
RDV_MIN_HAVE = 3
RDV_REACH = 3
RDV_WAIT = 0.4
RDV_SCALE = 0.8


def collectors(s: State) -> tuple[int, ...]:
    """Each district's collector, the player its cards should go to (-1: recruitment ended).

    The player holding most of its cards; ties go to Professor Vance (who needs fewer),
    then to anyone but Detective Ruiz (whose cards can be handed over anywhere), then to
    the lowest seat."""
    return _collectors(s, [_district_counts(h) for h in s.hands])


def _collectors(s: State, counts: list) -> tuple[int, ...]:
    """``collectors(s)`` from each hand's district counts ``counts``."""
    # the ties' order as a number: Vance 2 (or 3), anyone but Ruiz 1; the lowest seat wins a
    # tie left (a later seat must score strictly more)
    tie = [2 * (c == PROFESSOR) + (c != DETECTIVE) for c in s.cast]
    ended = s.ended
    out = []
    for g in range(NUM_GANGS):
        if ended >> g & 1:
            out.append(-1)
            continue
        best, best_k = 0, -1
        for q, row in enumerate(counts):
            k = 4 * row[g] + tie[q]
            if k > best_k:
                best, best_k = q, k
        out.append(best)
    return tuple(out)


def _battle_moves(s: State, p: int, me: int) -> int:
    """How many moves battling on ``p`` can take: one a sphere, or one a gang for Green Ghost
    and for a gang whose recruitment has ended (a battle then removes all its spheres)."""
    x = s.spheres[p] if p < NUM_POIS else 0  # (Center Park has no spheres)
    if not x:
        return 0
    ended = -1 if me == GHOST else s.ended
    return sum(1 if ended >> g & 1 else x >> sh & 3 for g, sh in enumerate(SHIFT) if x >> sh & 3)


def _can_stay(s: State, r: int, c: int, me: int) -> bool:
    """Can a hero reaching ``c`` with ``r`` moves left end the turn there? Every move must be
    taken (GGC-2): none left, an even number (a step out and back), or a battle there to
    take an odd one."""
    return r % 2 == 0 or _battle_moves(s, c, me) >= 1


def _wanted(s: State, giver: int, taker: int, col: tuple[int, ...], counts: list) -> list[tuple[int, int]]:
    """The cards ``giver`` holds that ``taker`` collects, as ``(taker's cards of the district,
    card)``: only to a collector holding at least ``RDV_MIN_HAVE`` of the district and fewer
    than the recruitment needs, from a player holding no more of it."""
    need = _need(s.cast[taker])
    out = []
    for c in s.hands[giver]:
        if c < NUM_POIS:
            g = DISTRICT[c]
            have = counts[taker][g]
            if col[g] == taker and RDV_MIN_HAVE <= have < need and counts[giver][g] <= have:
                out.append((have, c))
    return out


def _takers(s: State, col: tuple[int, ...], counts: list) -> list[bool]:
    """Who can take a card in ``_wanted``: the collector of a district holding at least
    ``RDV_MIN_HAVE`` of its cards and fewer than the recruitment needs."""
    out = [False] * len(counts)
    for g, q in enumerate(col):
        if q >= 0 and RDV_MIN_HAVE <= counts[q][g] < _need(s.cast[q]):
            out[q] = True
    return out


def transfers(s: State, player: int) -> list[tuple[int, int, int, bool]]:
    """The briefings ``player`` could take part in that bring a card to its district's
    collector (``_wanted``): ``(collector's cards of the district, card, teammate, the giver
    is Ruiz)``."""
    counts = [_district_counts(h) for h in s.hands]
    col = _collectors(s, counts)
    return _transfers(s, player, counts, col, _takers(s, col, counts))


def _transfers(s: State, player: int, counts: list, col: tuple[int, ...], takes: list[bool]) -> list:
    """``transfers(s, player)`` from the hands' district counts, the collectors and
    ``_takers``."""
    out = []
    for q in range(len(s.hands)):
        if q == player:
            continue
        for giver, taker in ((player, q), (q, player)):
            if not takes[taker]:
                continue  # (``_wanted`` would find nothing)
            ruiz = s.cast[giver] == DETECTIVE
            out += [(have, c, q, ruiz) for have, c in _wanted(s, giver, taker, col, counts)]
    return out


def _third_party(s: State, mayor: int, counts: list, col: tuple[int, ...], takes: list[bool]) -> list:
    """For Mayor Maple: the transfers between two teammates (``_wanted``) where one of them
    stands on the card's POI and the other does not, as ``(collector's cards of the
    district, card, the teammate to dispatch there, the one standing there)``; from the
    hands' district counts, the collectors and ``_takers``."""
    out = []
    n = len(s.hands)
    for giver in range(n):
        for taker in range(n):
            if giver == taker or mayor in (giver, taker) or not takes[taker]:
                continue
            pg, pt = s.pawns[giver], s.pawns[taker]
            for have, c in _wanted(s, giver, taker, col, counts):
                if pg == c and pt != c:
                    out.append((have, c, taker, giver))
                elif pt == c and pg != c:
                    out.append((have, c, giver, taker))
    return out


def _rendezvous(s: State, player: int, legal: set[int], odds: tuple[float, ...]) -> int | None:
    """A move towards a briefing that brings a card to its collector (``transfers``), when it
    is worth more than ``RDV_SCALE`` times the best battles in reach.

    A briefing can be made now where the teammate stands: on the card's POI, or anywhere
    when the giver is Ruiz. Otherwise the hero may go to the card's POI and end the turn
    there (battling first, where that still lets them), for the teammate to come next turn:
    every teammate plays before the hero moves again. Mayor Maple can also dispatch the
    teammate to the spot and brief in the same turn, or dispatch one of two teammates to
    the other on a card's POI (``_third_party``). A card is worth what ``evaluate`` gains
    from the collector's next one, ``1.6 * (2 * have + 1)``; a meeting to wait for,
    ``RDV_WAIT`` of that."""
    counts = [_district_counts(h) for h in s.hands]
    if all(max(x) < RDV_MIN_HAVE for x in counts):
        return None  # no hand holds RDV_MIN_HAVE of a district: nothing to bring
    col = _collectors(s, counts)
    takes = _takers(s, col, counts)
    if True not in takes:
        return None  # no collector to bring a card to (no transfer, nor a third party's)
    options = _transfers(s, player, counts, col, takes)
    pos = s.pawns[player]
    me = s.cast[player]
    k = s.moves + (1 if pos == PARK else 0)
    best_v, best = -1e9, None
    if me == MAYOR:  # bring two teammates together on a card's POI, for one of them to brief
        for have, c, q, _ in _third_party(s, player, counts, col, takes):
            v = RDV_WAIT * 1.6 * (2 * have + 1)
            a = A.DISPATCH0 + q * NUM_POIS + c
            if v > best_v and a in legal:
                best_v, best = v, a
    if not options and best is None:
        return None
    routes = _routes(s, pos)
    for have, c, q, ruiz in options:
        qpos = s.pawns[q]
        gain = 1.6 * (2 * have + 1)
        for x in (c, qpos) if ruiz and qpos != c and qpos != PARK else (c,):
            if qpos == x and x in routes and routes[x][0] <= k - 1:  # brief this turn
                d, first = routes[x]
                v = gain - 0.3 * d
                if v > best_v:
                    best_v, best = v, (first if d else A.SHARE0 + q * NUM_POIS + c)
        if me == MAYOR:  # bring the teammate: reach the spot, dispatch them there, brief
            for x in (c, pos) if ruiz and pos != c and pos != PARK else (c,):
                if qpos != x and x in routes and routes[x][0] <= k - 2:
                    d, first = routes[x]
                    v = gain - 0.3 * (d + 1)
                    if v > best_v:
                        best_v, best = v, (first if d else A.DISPATCH0 + q * NUM_POIS + x)
        if qpos == c or c not in routes or routes[c][0] > k:
            continue
        dq = _routes(s, qpos).get(c, (99,))[0]
        if dq > RDV_REACH:
            continue
        d, first = routes[c]
        battles = 0  # battles here first, while the arrival still ends the turn at c
        here = _battle_moves(s, pos, me) if d else 0
        while battles < here and k - battles - 1 - d >= 0 and _can_stay(s, k - battles - 1 - d, c, me):
            battles += 1
        if not _can_stay(s, k - battles - d, c, me):
            continue
        v = RDV_WAIT * gain - 0.3 * d - 0.3 * dq
        if v > best_v:
            best_v, best = v, (first if d and not battles else -1)
    if best is None:
        return None
    table = _gains_table(s, odds, me)
    battle = 0.0
    for t, (d, _) in routes.items():
        if d < k and t != PARK and s.spheres[t]:
            battle = max(battle, _gain_sum(s, odds, table, t, me, k - d))
    if best_v * RDV_SCALE < battle:
        return None
    if best >= 0:
        return best if best in legal else None
    # stay: battle here, or step out to come back
    gains = _gains(s, odds, table, pos, me) if s.spheres[pos] else ()
    if gains and A.BATTLE0 + gains[0][1] in legal:
        return A.BATTLE0 + gains[0][1]
    if k >= 2:
        steps = [y for y in NEIGHBOURS[pos] if A.TRAVEL0 + y in legal]
        if steps:
            return A.TRAVEL0 + max(steps, key=lambda y: (_battle_moves(s, y, me), -y))
    return None


def _far_meeting(s: State, player: int, legal: set[int], reach: int, short: int = 1) -> int | None:
    """The first step towards the nearest meeting that brings a collector one of the last
    ``short`` cards of a recruitment, when ``player`` is the giver or the collector and both
    walks together take at most ``reach`` moves (by travel and rides); None when there is
    none, or the hero already stands on the card's POI. The ``meet`` styles of the heuristic take it before
    any battle (``bot.heuristic_action``): a turn spent walking, which a turn-level plan
    (``kingmaker.agents.plan``) takes only where its rollouts find it worth the battles."""
    counts = [_district_counts(h) for h in s.hands]
    col = _collectors(s, counts)
    best = None
    for g, q in enumerate(col):
        if q < 0 or not 1 <= _need(s.cast[q]) - counts[q][g] <= short:
            continue
        for giver in (player,) if player != q else range(len(s.hands)):
            if giver == q:
                continue
            for c in s.hands[giver]:
                if c >= NUM_POIS or DISTRICT[c] != g:
                    continue
                total = _routes(s, s.pawns[giver]).get(c, (99,))[0] + _routes(s, s.pawns[q]).get(c, (99,))[0]
                if total <= reach and (best is None or total < best[0]):
                    best = (total, c)
    if best is None or s.pawns[player] == best[1]:
        return None
    first = _routes(s, s.pawns[player])[best[1]][1]
    return first if first in legal else None
