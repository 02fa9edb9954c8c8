"""The Gangs of Green City team heuristic.

Co-operative with open hands, so it reads the whole (public) state. Moves are
chosen greedily: each legal move is applied and the result scored by
``evaluate`` (recruitments ended, sphere danger, riots, each player's progress
towards five cards of a district and their distance to a safe house).
Discards, respite targets and respite windows follow simple rules.

Cards go to each district's collector (``collectors``): before a move is planned, the
rendezvous (``_rendezvous``) looks for a briefing that brings a card to a collector
holding three or more of its district, this turn or, waiting on the card's POI, next
turn; Mayor Maple dispatches teammates to it. At the hand limit a respite is played
rather than discarded. Measured in docs/agents.md ("The heuristic's rendezvous").

Speed (the search rolls out with this bot, issue 16): the parts that depend on a
few state fields only are memoised by those fields (the draw odds, the safe
houses' spread and routes, a hand's district counts, the sphere danger, the
battle gains of a POI), so the choices are those of the plain computation
(``tests/games/gangs_of_green_city/test_ggc_bot_speed.py`` compares them with the
previous implementation on seeded random states). Field objects that are the very
ones of the last call (the same spheres, hands or gang piles) skip the memos'
hashing. A briefing, safe house or dispatch is scored without building the state
it leads to (``_special_value``: the same sums, in the same order, as ``evaluate``
of that state; compared with it on seeded positions).
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import TYPE_CHECKING

from . import actions as A
from .data import (
    CABBIE,
    DETECTIVE,
    DIST,
    DISTRICT,
    FUNDRAISER,
    GHOST,
    HAND_LIMIT,
    HERO_DRAWS,
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
from .state import (
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
    from .game import GangsOfGreenCity

_DANGER = (0.0, 1.0, 2.6, 6.0)
_last: list = [None, None]
# Memos keyed by the state fields a value depends on (each cleared when it grows past _MEMO_MAX,
# or _BIG_MEMO_MAX for those holding a table per entry: routes, options, places, gains; at most
# some 30 MB in all).
_MEMO_MAX = 10_000
_BIG_MEMO_MAX = 2_000
_odds_memo: dict = {}
_spread_memo: dict = {}
_routes_memo: dict = {}
_counts_memo: dict = {}
_danger_memo: dict = {}
_gains_memo: dict = {}
_places_memo: dict = {}
_poi_gains_memo: dict = {}
_lead_memo: dict = {}
_sphere_pois_memo: dict = {}


def _remember(memo: dict, key, value, big: bool = False):
    if len(memo) >= (_BIG_MEMO_MAX if big else _MEMO_MAX):
        memo.clear()
    memo[key] = value
    return value


def _flat(s: State) -> list[int]:
    """Returns the sphere counts flat, ``[poi * 4 + gang]`` (the last one is cached)."""
    if _last[0] is not s.spheres:
        _last[0] = s.spheres
        _last[1] = unpack_spheres(s.spheres)
    return _last[1]
RISK3 = 3.0  # weight of the chance that a POI at three riots next
RESPITE_VALUE = 3.0  # a respite card's worth in hand (``_card_value``)
SURPLUS_VALUE = 0.8  # a card of a district beyond the recruitment's need
# The rendezvous (``_rendezvous``): a transfer is planned to a collector holding at least
# RDV_MIN_HAVE cards of the district, who can reach the meeting POI in RDV_REACH moves next
# turn; a meeting to wait for counts RDV_WAIT of one made now, and either is taken when it is
# worth more than RDV_SCALE times the best battles in reach. Tuned on 1000 heuristic team
# games a player count (seeds 1000 * players + i; benchmarks/ggc_heuristic_team.py).
RDV_MIN_HAVE = 3
RDV_REACH = 3
RDV_WAIT = 0.4
RDV_SCALE = 0.8


def _need(cast: int) -> int:
    return PROFESSOR_RECRUIT_CARDS if cast == PROFESSOR else RECRUIT_CARDS


def _district_counts(hand: tuple[int, ...]) -> tuple[int, ...]:
    counts = _counts_memo.get(hand)
    if counts is None:
        out = [0] * NUM_GANGS
        for c in hand:
            if c < NUM_POIS:
                out[DISTRICT[c]] += 1
        counts = _remember(_counts_memo, hand, tuple(out))
    return counts


def _safe_dist(pos: int, safe: tuple[int, ...]) -> int:
    if pos == PARK:
        return 2
    row = DIST[pos]
    return min(row[x] for x in safe)


def draw_odds(s: State) -> tuple[float, ...]:
    """Returns, for each POI, the chance that its gang card comes up in the next Gang Leader phase.

    The known layers come first, top layer first; cards in the discard pile only come back
    after an ESCALATION! (they get a small weight, since the next one puts them on top).
    """
    last = _last_odds  # the same field objects as last time: the same odds
    if (s.gang_disc is last[1] and s.gang_layers is last[3] and s.gang_out is last[2]
            and s.esc == last[0]):
        return last[4]
    key = (s.esc, s.gang_disc, s.gang_out, s.gang_layers)
    odds = _odds_memo.get(key)
    if odds is None:
        odds = _remember(_odds_memo, key, tuple(_draw_odds(s)))
    last[:] = (*key, odds)
    return odds


_last_odds: list = [None] * 5  # draw_odds's last (esc, gang_disc, gang_out, gang_layers, odds)


def _draw_odds(s: State) -> list[float]:
    """``draw_odds`` worked out (the discards, the cards out of the game and each layer are
    disjoint sets of gang cards: the unseen rest is every other card)."""
    left = METER[s.esc]
    disc, out = s.gang_disc, s.gang_out
    known = len(disc) + len(out)
    layers = []
    for layer in s.gang_layers:
        known += len(layer)
        layers.append((layer, min(1.0, left / len(layer))))
        left = max(0, left - len(layer))
    rest = NUM_POIS - known
    p_rest = min(1.0, left / rest) if rest else 0.0
    odds = [max(p_rest, 0.02)] * NUM_POIS
    for c in out:
        odds[c] = 0.0
    for layer, p in layers:
        for c in layer:
            odds[c] = p
    for c in disc:
        odds[c] = 0.15
    return odds


def evaluate(s: State, odds: tuple[float, ...] | None = None) -> float:
    """Scores a state for the team: higher is better."""
    if s.result:
        return 1e6 if s.result == 1 else -1e6
    if odds is None:
        odds = draw_odds(s)
    return _tail(_head(s, odds), s.ended, s.hands, s.cast, s.pawns, s.safe)


def _head(s: State, odds: tuple[float, ...]) -> float:
    """``evaluate``'s first part: recruitments, defeats, riots and the spheres' danger."""
    ended = s.ended
    v = 120.0 * bin(ended).count("1") + 20.0 * bin(s.defeated).count("1") - 8.0 * s.war
    key = (s.spheres, ended, odds)
    danger = _danger_memo.get(key)
    if danger is None:
        danger = _remember(_danger_memo, key, _danger(s, odds))
    return v - danger


def _tail(v: float, ended: int, hands: tuple, cast: tuple, pawns: tuple, safe: tuple) -> float:
    """``evaluate``'s rest, added to ``v`` (``_head``) in the same order: the players' cards and
    distances, and the safe houses' spread."""
    memo = _counts_memo
    for q, hand in enumerate(hands):
        counts = memo.get(hand) or _district_counts(hand)
        need = PROFESSOR_RECRUIT_CARDS if cast[q] == PROFESSOR else RECRUIT_CARDS
        best = 0
        for g in range(NUM_GANGS):
            if not ended >> g & 1 and counts[g] > best:
                best = counts[g]
        v += 1.6 * best * best + 0.3 * len(hand)
        if best >= need:
            v += 25.0 - 3.0 * _safe_dist(pawns[q], safe)
    # safe houses spread over the city: the average distance to the nearest one
    spread = _spread_memo.get(safe)
    if spread is None:
        rows = [DIST[x] for x in safe]
        spread = _remember(_spread_memo, safe, 0.12 * sum(min(r[p] for r in rows) for p in range(NUM_POIS)))
    v -= spread
    return v


def _special_value(s: State, player: int, a: int, head: float) -> float | None:
    """``evaluate(game.apply(s, a, player), odds)`` for a briefing, safe house or dispatch ``a``
    at a move of ``player``, from ``head = _head(s, odds)``, without building the state (None
    where the move may change the spheres: a dispatched Green Ghost). Those moves change only
    hands, safe houses or a pawn, and cost a move; the last move with fewer than two hero
    cards left ends the game (``resolve._settle``), unless a discard is asked first."""
    hands, safe, pawns = s.hands, s.safe, s.pawns
    limit_discard = False
    if a < A.RECRUIT0:  # a safe house on the hero's POI (``resolve._apply_move``)
        pos = pawns[player]
        if s.cast[player] != CABBIE:
            h = hands[player]
            i = h.index(pos)
            hands = hands[:player] + (h[:i] + h[i + 1 :],) + hands[player + 1 :]
        if a != A.SAFE_SUPPLY:
            i = safe.index(a - A.SAFE0)
            safe = safe[:i] + safe[i + 1 :]
        safe = tuple(sorted(safe + (pos,)))
    elif a < A.DISPATCH0:  # a briefing: card c changes hands
        q, c = divmod(a - A.SHARE0, NUM_POIS)
        giver, taker = (player, q) if c in hands[player] else (q, player)
        out = list(hands)
        h = out[giver]
        i = h.index(c)
        out[giver] = h[:i] + h[i + 1 :]
        out[taker] = tuple(sorted(out[taker] + (c,)))
        hands = tuple(out)
        limit_discard = len(out[taker]) > HAND_LIMIT
    else:
        q, dest = divmod(a - A.DISPATCH0, NUM_POIS)
        if s.cast[q] == GHOST:
            return None
        pawns = pawns[:q] + (dest,) + pawns[q + 1 :]
    if s.moves <= 1 and not limit_discard and sum(s.piles) < HERO_DRAWS:
        return -1e6  # the hero deck cannot be drawn: the team loses
    return _tail(head, s.ended, hands, s.cast, pawns, safe)


def _danger(s: State, odds: tuple[float, ...]) -> float:
    """The spheres' danger for the team (``evaluate``): chains of riots weigh most."""
    ended = s.ended
    sp = s.spheres  # packed: gang g's count on POI p is sp[p] >> SHIFT[g] & 3
    danger = 0.0
    p = -1
    for x in sp:
        p += 1
        if not x:
            continue
        home = DISTRICT[p]
        for g in range(NUM_GANGS):
            sh = SHIFT[g]
            c = x >> sh & 3
            if c:
                w = _DANGER[c] * (0.5 if ended >> g & 1 else 1.0)
                if g == home:
                    w *= 1.0 + RISK3 * odds[p] if c == MAX_SPHERES else 1.0 + odds[p]
                if c == MAX_SPHERES:
                    # a riot here sets off neighbours at three: chains are the real danger
                    w *= 1.0 + 0.7 * sum(1 for nb in NEIGHBOURS[p] if sp[nb] >> sh & 3 == MAX_SPHERES)
                danger += w
    return danger


def _card_value(s: State, player: int, c: int) -> float:
    """How much the team loses if ``player`` spends card ``c``: a card of a district they lead the
    team in collecting is precious (but not one beyond the cards a recruitment needs); others
    are fuel for moves and safe houses. A respite is worth about a card someone collects: at
    the hand limit the bot plays it rather than discard it (``heuristic_action``)."""
    if c >= RESPITE0:
        return RESPITE_VALUE
    g = DISTRICT[c]
    if s.ended >> g & 1:
        return 0.5
    hands = s.hands
    mine = _district_counts(hands[player])[g]
    if mine > _need(s.cast[player]):
        return SURPLUS_VALUE  # more than the recruitment needs: a spare
    last = _last_leads  # the same hands object as last time: the same leads
    if hands is last[0]:
        leads = last[1]
    else:
        leads = _lead_memo.get(hands)
        if leads is None:  # each district's most cards in one hand
            leads = _remember(_lead_memo, hands, tuple(map(max, *map(_district_counts, hands))))
        last[0], last[1] = hands, leads
    lead = leads[g]
    if mine >= lead:
        return 1.0 + 1.2 * mine
    return 0.6 + 0.3 * mine


_last_leads: list = [None, None]  # _card_value's last (hands, each district's lead)
_HOME_SHIFT = tuple(SHIFT[DISTRICT[p]] for p in range(NUM_POIS))  # where a POI's own gang is packed


def _respite_wanted(s: State, player: int, r: int) -> bool:
    """Whether the team wants respite ``r`` played now (in a window or as a discard saver)."""
    sp = s.spheres  # packed: gang g's count on POI p is sp[p] >> SHIFT[g] & 3
    if r == QUIET:
        if s.stage != GANG_WINDOW:
            return False
        # expected riots in the coming Gang Leader phase: POIs at three whose card may come up
        odds = draw_odds(s)
        risk = 0.0
        for p in range(NUM_POIS):
            if sp[p] >> _HOME_SHIFT[p] & 3 == MAX_SPHERES and not s.defeated >> DISTRICT[p] & 1:
                risk += odds[p]
        return risk >= 0.5 or (s.war >= 6 and risk >= 0.2)
    if r == WATCH:  # a gang at three somewhere: both bits of its count set
        return any(x & (x >> 1) & 0x55 for x in sp)
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


def _gains_table(s: State, odds: tuple[float, ...], me: int) -> list:
    """Returns the memo of ``_battle_gains`` for this sphere layout, odds and hero (None: not yet)."""
    last = _last_table  # the same spheres and odds objects as last time: the same table
    ghost = me == GHOST
    if s.spheres is last[0] and odds is last[2] and s.ended == last[1] and ghost == last[3]:
        return last[4]
    key = (s.spheres, s.ended, odds, ghost)
    table = _gains_memo.get(key)
    if table is None:
        table = _remember(_gains_memo, key, [None] * NUM_POIS, True)
    last[:] = (*key, table)
    return table


_last_table: list = [None] * 5  # _gains_table's last (spheres, ended, odds, ghost, table)


def _poi_gains(s: State, odds: tuple[float, ...], table: list, p: int, me: int) -> tuple[list, list]:
    """Returns ``(_battle_gains(s, odds, p, me), sums)`` for ``table[p]``, where ``sums[k]`` is
    ``sum(x for x, _ in gains[:k])`` for k up to the number of gains (``_prefix_sums``).

    Also memoised by what the gains on ``p`` depend on: its spheres, the ended
    recruitments, its draw odds, whether the hero is the Ghost, and (when a gang
    has three spheres there) the neighbours' spheres."""
    sp = s.spheres
    x = sp[p]
    nb = tuple(map(sp.__getitem__, NEIGHBOURS[p])) if x & (x >> 1) & 0x55 else None
    key = (p, x, s.ended, odds[p], me == GHOST, nb)
    entry = _poi_gains_memo.get(key)
    if entry is None:
        gains = _battle_gains(s, odds, p, me)
        entry = _remember(_poi_gains_memo, key, (gains, _prefix_sums(gains)))
    table[p] = entry
    return entry


def _prefix_sums(gains: list[tuple[float, int]]) -> list:
    """``[sum(x for x, _ in gains[:k]) for k in 0..len(gains)]``, each added up in the same order."""
    acc = 0
    out = [acc]
    for x, _ in gains:
        acc += x
        out.append(acc)
    return out


def _gains(s: State, odds: tuple[float, ...], table: list, p: int, me: int) -> list[tuple[float, int]]:
    """``_battle_gains`` through the memo ``table`` (``_gains_table``)."""
    entry = table[p]
    if entry is None:
        entry = _poi_gains(s, odds, table, p, me)
    return entry[0]


def _gain_sum(s: State, odds: tuple[float, ...], table: list, p: int, me: int, k: int) -> float:
    """``sum(x for x, _ in _battle_gains(s, odds, p, me)[:k])`` through the memo ``table``."""
    entry = table[p]
    if entry is None:
        entry = _poi_gains(s, odds, table, p, me)
    sums = entry[1]
    return sums[k] if k < len(sums) else sums[-1]


def _battle_gains(s: State, odds: tuple[float, ...], p: int, me: int) -> list[tuple[float, int]]:
    """Returns (danger removed, gang) for each battle move possible on ``p``, best first.

    Each danger is that of ``evaluate`` (the reference bot's ``_weight``), worked out with the
    same operations in the same order: ``_DANGER[k]``, times 0.5 for an ended recruitment,
    times the home gang's odds factor, times the riot chain's factor at three spheres."""
    out = []
    sp = s.spheres
    ended = s.ended
    home = DISTRICT[p]
    ghost = me == GHOST
    for g, sh, c in _PRESENT[sp[p]]:
        half = 0.5 if ended >> g & 1 else 1.0
        if g == home:
            o = odds[p]
            f1 = 1.0 + o  # the home factor below three spheres
            f3 = 1.0 + RISK3 * o  # at three
        else:
            f1 = f3 = 0.0  # (not used)
        if c == MAX_SPHERES:  # a riot here sets off neighbours at three
            n3 = 0
            for nb in NEIGHBOURS[p]:
                if sp[nb] >> sh & 3 == MAX_SPHERES:
                    n3 += 1
            chain = 1.0 + 0.7 * n3
        if ghost or half == 0.5:  # every sphere goes at once
            w = _DANGER[c] * half
            if g == home:
                w *= f3 if c == MAX_SPHERES else f1
            if c == MAX_SPHERES:
                w *= chain
            out.append((w, g))
            continue
        # one sphere a battle: the danger of k spheres less that of k - 1, k = c..1
        hi = 0.0
        for k in range(c, 0, -1):
            w = _DANGER[k] * half
            if g == home:
                w *= f3 if k == MAX_SPHERES else f1
            if k == MAX_SPHERES:
                w *= chain
            if k < c:
                out.append((hi - w, g))
            hi = w
        out.append((hi - 0.0, g))
    out.sort(reverse=True)
    return out


# _PRESENT[x]: (gang, bit offset, count) of each gang with spheres in the packed POI x.
_PRESENT = tuple(tuple((g, sh, x >> sh & 3) for g, sh in enumerate(SHIFT) if x >> sh & 3) for x in range(256))


def _routes(s: State, pos: int) -> dict[int, tuple[int, int]]:
    """Breadth-first routes from ``pos`` by travel and rides: place -> (moves, first action).

    The dict is memoised by (pos, safe houses): callers must not change it."""
    safe = s.safe
    key = (pos, safe)
    seen = _routes_memo.get(key)
    if seen is None:
        seen = _remember(_routes_memo, key, _bfs(pos, safe), True)
    return seen


def _places(s: State, pos: int) -> tuple[dict[int, tuple[int, int]], dict[int, int], list[int]]:
    """``_plan_move``'s places by travel and rides, ``(_routes(s, pos), each place's position
    in it, each place's moves away (99: no route))``, memoised by (pos, safe houses): callers
    must not change them."""
    key = (pos, s.safe)
    out = _places_memo.get(key)
    if out is None:
        routes = _routes(s, pos)
        dist = [99] * (PARK + 1)
        for t, (d, _) in routes.items():
            dist[t] = d
        out = _remember(_places_memo, key, (routes, {t: i for i, t in enumerate(routes)}, dist), True)
    return out


# The options of an escape to c and of a portal to t: one move, its first action, and a card
# cost worked out later (None).
_ESCAPE_OPTIONS = tuple((1, A.ESCAPE0 + c, None) for c in range(NUM_POIS))
_PORTAL_OPTIONS = tuple((1, A.PORTAL0 + t, None) for t in range(NUM_POIS))


def _sphere_pois(spheres: tuple[int, ...]) -> tuple[int, ...]:
    """The POIs holding any sphere."""
    last = _last_pois  # the same spheres object as last time: the same POIs
    if spheres is last[0]:
        return last[1]
    out = _sphere_pois_memo.get(spheres)
    if out is None:
        out = _remember(_sphere_pois_memo, spheres, tuple(p for p, x in enumerate(spheres) if x))
    last[0], last[1] = spheres, out
    return out


_last_pois: list = [None, None]  # _sphere_pois's last (spheres, POIs)


# Each place's travel steps: (neighbour, the travel action there).
_TRAVEL_STEPS = tuple(tuple((y, A.TRAVEL0 + y) for y in nbs) for nbs in NEIGHBOURS)


def _bfs(pos: int, safe: tuple[int, ...]) -> dict[int, tuple[int, int]]:
    seen = {pos: (0, -1)}
    frontier = [pos]
    while frontier:
        nxt = []
        for x in frontier:
            d, first = seen[x]
            steps = _TRAVEL_STEPS[x]
            if x in safe:
                steps = [*steps, *((y, A.RIDE0 + y) for y in safe if y != x)]
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
            if any_card:
                cards = [c for c in hands[giver] if c < NUM_POIS]
            else:  # only the card of the POI
                cards = (t,) if t < NUM_POIS and t in hands[giver] else ()
            for c in cards:
                g = DISTRICT[c]
                if s.ended >> g & 1:
                    continue
                have = _district_counts(hands[taker])[g]
                give = _district_counts(hands[giver])[g]
                if have >= give and have >= 2:
                    best = max(best, 4.0 + 3.0 * have)
    return best


def _plan_move(s: State, player: int, legal: set[int], odds: tuple[float, ...]) -> int | None:
    """Picks a target POI reachable this turn and returns the first move towards what it offers."""
    pos = s.pawns[player]
    me = s.cast[player]
    hand = s.hands[player]
    budget = s.moves + (1 if pos == PARK else 0)
    need = _need(me)
    counts = _district_counts(hand)
    ended = s.ended
    ready = max(counts) >= need and any(counts[g] >= need and not ended >> g & 1 for g in range(NUM_GANGS))
    safe = s.safe
    spheres = s.spheres
    # The options: each place's (moves, first action, card cost) by travel and rides (cost 0),
    # or by a wormhole escape or portal (one move and a card: its cost, 1.5 + the card's value,
    # is worked out below, for the places that can score: None until then). ``extra`` holds
    # those that replace a route, in the order they were found; ``base`` the routes.
    base, rank, dist = _places(s, pos)
    extra = {}
    for c in hand:
        if c < NUM_POIS and dist[c] > 1 and c != pos and A.ESCAPE0 + c in legal:
            extra[c] = _ESCAPE_OPTIONS[c]
    if pos < NUM_POIS and pos in hand:
        for t in range(NUM_POIS):
            # (a POI with 2 or 3 spheres of a gang: a high bit in its packed counts)
            if (spheres[t] & 0xAA or t in safe) and dist[t] > 1 and t not in extra:
                extra[t] = _PORTAL_OPTIONS[t]
    best_score, best_act = 0.05, None
    table = _gains_table(s, odds, me)
    # a briefing needs a teammate on the spot (else _meeting_gain is 0)
    pawns = s.pawns
    mates = set(pawns[:player] + pawns[player + 1 :])
    # Only a place with a gain can score above best_score (0.05): a safe house when ready, a
    # POI with spheres, a teammate's place (every other score is at most 0). They are taken
    # in the options' order, so that ties go as they would over all the options.
    if extra and not base.keys() >= extra.keys():
        new = [t for t in extra if t not in base]
        if new:  # places no route reaches, added by escapes or portals (after the routes)
            rank = dict(rank)
            for i, t in enumerate(new):
                rank[t] = len(base) + i
    # (a place d moves away leaves budget - d moves there: none left scores at most 0 too)
    # (a place in ``extra`` is one move away, else ``dist`` away)
    near = [t for t in _sphere_pois(spheres) if dist[t] < budget]
    if extra and budget > 1:
        near += [t for t in extra if spheres[t] and dist[t] >= budget]
    for t in (mates.union(safe) if ready else mates):
        if t != PARK and not spheres[t]:  # (the POIs with spheres are in already)
            if dist[t] < budget or (budget > 1 and t in extra):
                near.append(t)
    if len(near) > 1:
        near.sort(key=rank.__getitem__)
    for t in near:
        o = extra.get(t)
        if o is None:
            d, first = base[t]
            cost = 0.0
        else:
            d, first, cost = o
            # an escape spends card t, a portal the card of here
            cost = 1.5 + _card_value(s, player, t if first < A.PORTAL0 else pos)
        k = budget - d
        if ready and t in safe:
            gain = 150.0
        elif spheres[t]:
            entry = table[t]  # _gain_sum, inline
            if entry is None:
                entry = _poi_gains(s, odds, table, t, me)
            sums = entry[1]
            gain = sums[k] if k < len(sums) else sums[-1]
        else:
            gain = 0  # no sphere: no battle (the sum of no gains)
        if t in mates:
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
    gains = _gains(s, odds, table, pos, me)
    if gains and A.BATTLE0 + gains[0][1] in legal:
        return A.BATTLE0 + gains[0][1]
    return None


def _head_for(s: State, player: int, legal: set[int], odds: tuple[float, ...]) -> int | None:
    """Nothing worth doing within reach: take a step towards the best place further away."""
    pos = s.pawns[player]
    me = s.cast[player]
    need = _need(me)
    counts = _district_counts(s.hands[player])
    ready = any(counts[g] >= need and not s.ended >> g & 1 for g in range(NUM_GANGS))
    routes = _routes(s, pos)
    table = _gains_table(s, odds, me)
    best, best_v = None, -1e9
    safe, spheres = s.safe, s.spheres
    for t, (d, first) in routes.items():
        if t == pos or t == PARK or first not in legal:
            continue
        if ready:
            v = (50.0 if t in safe else 0.0) - d
        elif spheres[t]:
            entry = table[t]  # _gain_sum(s, odds, table, t, me, 3), inline
            if entry is None:
                entry = _poi_gains(s, odds, table, t, me)
            sums = entry[1]
            v = (sums[3] if len(sums) > 3 else sums[-1]) / (1.0 + d)
        else:
            v = 0.0  # (no sphere: no gain)
        if v > best_v:
            best, best_v = first, v
    return best


def _recruit_trip(s: State, player: int, legal: set[int]) -> int | None:
    """A player holding enough cards of a district heads for the nearest safe house."""
    pos = s.pawns[player]
    need = _need(s.cast[player])
    counts = _district_counts(s.hands[player])
    if max(counts) < need:  # (no district to end: nothing ready)
        return None
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


def collectors(s: State) -> tuple[int, ...]:
    """Each district's collector, the player its cards should go to (-1: recruitment ended).

    The player holding most of its cards; ties go to Professor Vance (who needs fewer),
    then to anyone but Detective Ruiz (whose cards can be handed over anywhere), then to
    the lowest seat."""
    return _collectors(s, [_district_counts(h) for h in s.hands])


def _collectors(s: State, counts: list) -> tuple[int, ...]:
    """``collectors(s)`` from each hand's district counts ``counts``."""
    cast = s.cast
    out = []
    for g in range(NUM_GANGS):
        if s.ended >> g & 1:
            out.append(-1)
            continue
        out.append(max(range(len(counts)), key=lambda q: (counts[q][g], cast[q] == PROFESSOR, cast[q] != DETECTIVE, -q)))
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


def transfers(s: State, player: int) -> list[tuple[int, int, int, bool]]:
    """The briefings ``player`` could take part in that bring a card to its district's
    collector (``_wanted``): ``(collector's cards of the district, card, teammate, the giver
    is Ruiz)``."""
    counts = [_district_counts(h) for h in s.hands]
    col = _collectors(s, counts)
    out = []
    for q in range(len(s.hands)):
        if q == player:
            continue
        for giver, taker in ((player, q), (q, player)):
            ruiz = s.cast[giver] == DETECTIVE
            out += [(have, c, q, ruiz) for have, c in _wanted(s, giver, taker, col, counts)]
    return out


def _third_party(s: State, mayor: int) -> list[tuple[int, int, int, int]]:
    """For Mayor Maple: the transfers between two teammates (``_wanted``) where one of them
    stands on the card's POI and the other does not, as ``(collector's cards of the
    district, card, the teammate to dispatch there, the one standing there)``."""
    counts = [_district_counts(h) for h in s.hands]
    col = _collectors(s, counts)
    out = []
    n = len(s.hands)
    for giver in range(n):
        for taker in range(n):
            if giver == taker or mayor in (giver, taker):
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
    if all(max(_district_counts(h)) < RDV_MIN_HAVE for h in s.hands):
        return None  # no hand holds RDV_MIN_HAVE of a district: nothing to bring
    options = transfers(s, player)
    pos = s.pawns[player]
    me = s.cast[player]
    k = s.moves + (1 if pos == PARK else 0)
    best_v, best = -1e9, None
    if me == MAYOR:  # bring two teammates together on a card's POI, for one of them to brief
        for have, c, q, _ in _third_party(s, player):
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


def progress(game: GangsOfGreenCity, s: State) -> float:
    """The team's way to the win, 0 to 1: the share of the gangs whose recruitment has ended
    (the search's ``progress`` credit for a lost game)."""
    return bin(s.ended).count("1") / NUM_GANGS


def heuristic_action(game: GangsOfGreenCity, s: State, player: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if s.resp >= 0:
        return _target(s, legal)
    moving = s.pick_n <= 0 and s.stage == MOVES  # then legal is the sorted list of moves and plays
    if moving:
        r0 = bisect_left(legal, A.RESPITE0)
        plays = legal[r0 : bisect_left(legal, A.PASS, r0)]
    else:
        plays = [a for a in legal if A.RESPITE0 <= a < A.PASS]
    for a in plays:
        if _respite_wanted(s, player, a - A.RESPITE0):
            return a
    if s.pick_n > 0:
        discards = [a for a in legal if a >= A.DISCARD0 and a < A.PAWN0]
        if s.pick_kind == PICK_RECRUIT:
            return discards[0]
        a = min(discards, key=lambda a: (_card_value(s, player, a - A.DISCARD0), a))
        play = A.RESPITE0 + a - A.DISCARD0 - RESPITE0  # (a respite card's play)
        if play >= A.RESPITE0 and s.pick_kind == PICK_LIMIT and play in plays:
            return play  # played rather than discarded
        return a
    if s.stage != MOVES:
        return A.PASS
    moves = legal[:r0]
    i = bisect_left(moves, A.RECRUIT0)
    if i < len(moves) and moves[i] < A.BATTLE0:
        return moves[i]
    odds = draw_odds(s)
    legal_set = set(moves)
    act = _rendezvous(s, player, legal_set, odds)
    if act is not None:
        return act
    # briefing, a safe house or a dispatch when it helps the team's cards or reach
    base = None  # the evaluation now, once a briefing or safe house is open
    special, special_v = None, 2.0
    # (moves are sorted: the safe houses SAFE0..RECRUIT0 come before the briefings SHARE0..)
    for a in moves[bisect_left(moves, A.SAFE0) : i] + moves[bisect_left(moves, A.SHARE0, i) :]:
        if A.SHARE0 <= a < A.RESPITE0 or A.SAFE0 <= a < A.RECRUIT0:
            if base is None:
                head = _head(s, odds)
                base = _tail(head, s.ended, s.hands, s.cast, s.pawns, s.safe)
            after = _special_value(s, player, a, head)
            if after is None:
                after = evaluate(game.apply(s, a, player), odds)
            v = after - base
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
