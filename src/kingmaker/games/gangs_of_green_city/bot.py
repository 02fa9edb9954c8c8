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

Three modules, a tree: ``assess.py`` scores (``evaluate``, ``draw_odds``, a card's value,
the battle gains and routes, memoised for the search's rollouts, issue 16),
``rendezvous.py`` brings cards to collectors, and this one chooses the action.
"""

from __future__ import annotations

import random
from bisect import bisect_left
from typing import TYPE_CHECKING

from . import actions as A
from .assess import (  # the scoring: evaluate, draw_odds and their parts
    _card_value,
    _district_counts,
    _flat,
    _gains,
    _gains_table,
    _head,
    _may_gain,
    _need,
    _places,
    _poi_gains,
    _ready_seats,
    _routes,
    _special_value,
    _sphere_pois,
    _tail,
    draw_odds,
    evaluate,
)
from .data import (
    CABBIE,
    DETECTIVE,
    DIST,
    DISTRICT,
    FUNDRAISER,
    MAX_SPHERES,
    NUM_GANGS,
    NUM_POIS,
    PARK,
    QUIET,
    RESPITE0,
    ROOFTOP,
    WATCH,
    WITNESS,
)
from .rendezvous import _far_meeting, _rendezvous, collectors, transfers
from .state import (
    ESC_WINDOW,
    GANG_WINDOW,
    MOVES,
    PICK_LIMIT,
    PICK_RECRUIT,
    SHIFT,
    State,
)

if TYPE_CHECKING:
    from .game import GangsOfGreenCity

__all__ = ["STYLES", "collectors", "draw_odds", "evaluate", "heuristic_action", "progress", "progress_cards",
           "transfers"]

# The heuristic's styles (the contract's ``heuristic_styles``; the first is the bot as it
# plays by default). ``meet``: before any battle, walk towards a meeting that brings a
# collector the last card of a recruitment, both walks together at most 8 moves
# (``rendezvous._far_meeting``); ``meet2``: the same for either of the last two cards;
# ``fight``: skips the rendezvous and the briefings, safe houses and dispatches the default
# weighs first, and makes the move the default makes when none is worth it (the trip that
# ends a recruitment, else the best battle in reach): the turn the war track needs where the
# default would walk or brief; ``guard``: the default, but first a move towards (or a battle
# on) the POI at three spheres of its own gang whose card most likely comes up in the next
# Gang Leader phase (``_guard``). Played every turn, the meetings' walks lose the city to the
# gangs and ``fight`` gives up the meetings (docs/agents.md, "Three more trials of the team
# heuristic"); chosen turn by turn by the planner's rollouts (``kingmaker.agents.plan``) the
# styles win more games (docs/agents.md, "The turn planner", which also gives the styles
# tried and left out).
STYLES = ("default", "meet", "meet2", "fight", "guard")
MEET_REACH = 8
_SHORT = {"meet": 1, "meet2": 2}  # a style's cards short of a recruitment it walks for

_HOME_SHIFT = tuple(SHIFT[DISTRICT[p]] for p in range(NUM_POIS))  # where a POI's own gang is packed

# The options of an escape to c and of a portal to t: one move, its first action, and a card
# cost worked out later (None).
_ESCAPE_OPTIONS = tuple((1, A.ESCAPE0 + c, None) for c in range(NUM_POIS))
_PORTAL_OPTIONS = tuple((1, A.PORTAL0 + t, None) for t in range(NUM_POIS))


def _respite_wanted(s: State, player: int, r: int) -> bool:
    """Whether the team wants respite ``r`` played now (in a window or as a discard saver)."""
    sp = s.spheres  # packed: gang g's count on POI p is sp[p] >> SHIFT[g] & 3
    if r == QUIET:
        if s.stage != GANG_WINDOW:
            return False
        # expected riots in the coming Gang Leader phase: POIs at three whose card may come up
        odds = draw_odds(s)
        risk = 0.0
        for p in _riot_pois(s):
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


def _riot_pois(s: State) -> list[int]:
    """The POIs where the next card of their own gang riots: three of its spheres there, the
    gang not defeated (``_respite_wanted``'s Quiet Night risk, the ``guard`` style)."""
    sp, defeated = s.spheres, s.defeated
    return [p for p in range(NUM_POIS)
            if sp[p] >> _HOME_SHIFT[p] & 3 == MAX_SPHERES and not defeated >> DISTRICT[p] & 1]


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


GUARD_ODDS = 0.25  # ``guard``: a POI at three whose card comes up next at least this likely


def _guard(s: State, player: int, legal: set[int], odds: tuple[float, ...]) -> int | None:
    """The ``guard`` style's first move: towards (or a battle on) the POI at three spheres of its
    own gang whose card most likely comes up in the next Gang Leader phase (at least
    ``GUARD_ODDS``) and that the player can reach with a move left to battle there."""
    hot = [p for p in _riot_pois(s) if odds[p] >= GUARD_ODDS]
    if not hot:
        return None
    pos = s.pawns[player]
    routes = _routes(s, pos)
    budget = s.moves + (1 if pos == PARK else 0)
    best, best_key = None, None
    for p in hot:
        if p == pos:
            d, first = 0, A.BATTLE0 + DISTRICT[p]
        elif p in routes:
            d, first = routes[p]
        else:
            continue
        if d < budget and first in legal:
            key = (odds[p], -d, -p)
            if best_key is None or key > best_key:
                best, best_key = first, key
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



def progress(game: GangsOfGreenCity, s: State) -> float:
    """The team's way to the win, 0 to 1: the share of the gangs whose recruitment has ended
    (the search's ``progress`` credit for a lost game)."""
    return bin(s.ended).count("1") / NUM_GANGS


def progress_cards(game: GangsOfGreenCity, s: State) -> float:
    """``progress`` made finer, 0 to 1: an ended recruitment counts 1, each other gang half the
    share of the cards it needs that its best-placed player holds (a collector with 4 of 5
    adds 0.4); the sum divided by the gangs. It tells apart games lost with the last
    recruitment near and far (the planner's ``credit=cards``)."""
    ended = s.ended
    total = bin(ended).count("1")
    open_gangs = [g for g in range(NUM_GANGS) if not ended >> g & 1]
    if open_gangs:
        best = [0.0] * NUM_GANGS
        for q, hand in enumerate(s.hands):
            counts = _district_counts(hand)
            need = _need(s.cast[q])
            for g in open_gangs:
                share = min(counts[g], need) / need
                if share > best[g]:
                    best[g] = share
        total += 0.5 * sum(best)
    return total / NUM_GANGS


def heuristic_action(game: GangsOfGreenCity, s: State, player: int, rng: random.Random,
                     style: str | None = None) -> int:
    """The team heuristic's action for ``player`` (module docstring), in one of ``STYLES``
    (None: the first)."""
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
    fight = style == "fight"
    act = _guard(s, player, legal_set, odds) if style == "guard" else None
    if act is None and not fight:
        act = _rendezvous(s, player, legal_set, odds)
    if act is not None:
        return act
    # briefing, a safe house or a dispatch when it helps the team's cards or reach
    base = None  # the evaluation now, once a briefing or safe house is open
    special, special_v = None, 2.0
    # (only the briefings and dispatches that can gain are scored: ``_may_gain``)
    ready = None
    # (moves are sorted: the safe houses SAFE0..RECRUIT0 come before the briefings SHARE0..)
    for a in () if fight else moves[bisect_left(moves, A.SAFE0) : i] + moves[bisect_left(moves, A.SHARE0, i) :]:
        if A.SHARE0 <= a < A.RESPITE0 or A.SAFE0 <= a < A.RECRUIT0:
            if a >= A.SHARE0:
                if ready is None:
                    ready = _ready_seats(s)
                if not _may_gain(s, player, a, ready):
                    continue
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
    if act is None and style in _SHORT:
        act = _far_meeting(s, player, legal_set, MEET_REACH, _SHORT[style])
    if act is None:
        act = _plan_move(s, player, legal_set, odds)
    if act is None:
        act = _head_for(s, player, legal_set, odds)
    if act is not None and act in legal_set:
        return act
    return rng.choice(moves)
