"""The Gangs of Green City team heuristic's scoring: ``evaluate`` and its memoised parts.

``evaluate`` scores a state for the team (recruitments ended, sphere danger, riots, each
player's progress towards five cards of a district and their distance to a safe house);
``_card_value`` is what the team loses when a card is spent; the battle gains, routes and
draw odds are what the move planning (``bot.py``) and the rendezvous (``rendezvous.py``)
read. Split from ``bot.py``, which imports this module (never the other way).

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

from typing import TYPE_CHECKING

from . import actions as A
from .data import (
    CABBIE,
    DIST,
    DISTRICT,
    GHOST,
    HAND_LIMIT,
    HERO_DRAWS,
    MAX_SPHERES,
    METER,
    NEIGHBOURS,
    NUM_GANGS,
    NUM_POIS,
    PARK,
    PROFESSOR,
    PROFESSOR_RECRUIT_CARDS,
    RECRUIT_CARDS,
    RESPITE0,
)
from .state import (
    SHIFT,
    State,
    unpack_spheres,
)

if TYPE_CHECKING:
    pass

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


def _ready_seats(s: State) -> tuple[bool, ...]:
    """Whose term in ``_tail`` counts their distance to a safe house: the players holding
    enough cards of a district whose recruitment goes on. Dispatching anyone else leaves
    ``_tail`` exactly as it was."""
    ended = s.ended
    out = []
    for hand, cast in zip(s.hands, s.cast):
        counts, need = _district_counts(hand), _need(cast)
        out.append(any(counts[g] >= need and not ended >> g & 1 for g in range(NUM_GANGS)))
    return tuple(out)


def _ghost_clears(s: State, dest: int) -> bool:
    """Does Green Ghost, sent to ``dest``, clear spheres there (``resolve._ghost_clear``: the
    spheres of a gang whose recruitment has ended)?"""
    ended = s.ended
    if not ended or dest >= NUM_POIS:  # (Center Park holds no spheres)
        return False
    x = s.spheres[dest]
    return any(ended >> g & 1 and x >> sh & 3 for g, sh in enumerate(SHIFT))


def _may_gain(s: State, player: int, a: int, ready: tuple[bool, ...]) -> bool:
    """Can the briefing or dispatch ``a`` of ``player`` score more than the evaluation before it
    (``_special_value``), given ``ready = _ready_seats(s)``? A dispatch moves one pawn, which
    counts only for a ready player, unless Green Ghost clears spheres where he lands. A
    briefing moves one card: the giver's term can only fall (a card fewer, 0.3, and perhaps
    a smaller best district or the readiness lost, which outweighs its distance term: 25 -
    3 * 8 at most), the taker's rises by the same 0.3 unless the card raises its best count
    in a district still recruiting. Where False, the move scores at most the evaluation
    before it (give or take rounding), and the heuristic, which wants a gain of 2, skips it."""
    if a >= A.DISPATCH0:
        q, dest = divmod(a - A.DISPATCH0, NUM_POIS)
        return ready[q] or (s.cast[q] == GHOST and _ghost_clears(s, dest))
    q, c = divmod(a - A.SHARE0, NUM_POIS)
    taker = q if c in s.hands[player] else player
    g = DISTRICT[c]
    ended = s.ended
    if ended >> g & 1:
        return False
    counts = _district_counts(s.hands[taker])
    have = counts[g]
    return all(have >= counts[x] for x in range(NUM_GANGS) if not ended >> x & 1)


def _special_value(s: State, player: int, a: int, head: float) -> float | None:
    """``evaluate(game.apply(s, a, player), odds)`` for a briefing, safe house or dispatch ``a``
    at a move of ``player``, from ``head = _head(s, odds)``, without building the state (None
    where the move may change the spheres: Green Ghost dispatched where he clears some). Those moves change only
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
        if s.cast[q] == GHOST and _ghost_clears(s, dest):
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

