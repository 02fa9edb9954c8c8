"""Gangs of Green City: how a move or a chance outcome changes the state (used by ``rules``).

The functions here edit ``w``, the state's fields as a list (``state.unpack``), and
``settle`` runs the automatic steps that follow (discards, windows, the Gang Leader,
the next turn) until a decision, a chance node or the end. ``notes``, where given,
collects what chance did for the log (``view.observe_action``). Depends only on
``state``, ``actions`` and ``data``.
"""

from __future__ import annotations

from bisect import bisect_left
from typing import TYPE_CHECKING

from . import actions as A
from .data import (
    CABBIE,
    DETECTIVE,
    DISTRICT,
    ESC_CARD0,
    ESC_FEATURED,
    FEATURED,
    FUNDRAISER,
    GANG_NAMES,
    GHOST,
    HAND_LIMIT,
    HEADQUARTERS,
    HERO_DRAWS,
    MAX_SPHERES,
    MAYOR,
    METER,
    MOVES,
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
    SETUP_SPHERES,
    SPHERES_PER_GANG,
    WAR_LOSS,
    WATCH,
    WITNESS,
)
from .state import (
    CAST,
    CURRENT,
    DEAL,
    DEFEAT,
    DEFEATED,
    DRAW,
    ENDED,
    ESC,
    ESC_BOTTOM,
    ESC_CARD,
    ESC_LEFT,
    ESC_WINDOW,
    GANG,
    GANG_DISC,
    GANG_LAYERS,
    GANG_OUT,
    GANG_WINDOW,
    HANDS,
    HERO_DISC,
    HERO_POOL,
    MOVES_LEFT,
    OVER,
    PAWNS,
    PICK_GANG,
    PICK_KIND,
    PICK_LIMIT,
    PICK_N,
    PICK_ONE,
    PICK_PLAYER,
    PICK_RECRUIT,
    PILE_ESC,
    PILES,
    REASON,
    RESP,
    RESP_PAWN,
    RESP_PLAYER,
    RESULT,
    S_CAST,
    S_GANGS,
    S_HANDS,
    SAFE,
    SHIFT,
    SPHERES,
    STAGE,
    SUPPLY,
    TIRED,
    VICTORY,
    WAR,
    WEAK_NEXT,
    WINDOW,
)
from .state import MOVES as MOVES_STAGE
from .state import (
    QUIET as QUIET_F,
)

if TYPE_CHECKING:
    from .game import GangsOfGreenCity

_ALL_GANGS = (1 << NUM_GANGS) - 1
RESPITE_IDS = (ROOFTOP, FUNDRAISER, QUIET, WITNESS, WATCH)
ABSENT_MINDED_HAND = 5  # Professor Vance discards only while holding this many (GGC-16, issue 12 bug 3)


def _without(t: tuple[int, ...], x: int) -> tuple[int, ...]:
    i = t.index(x)
    return t[:i] + t[i + 1 :]


def _with(t: tuple[int, ...], x: int) -> tuple[int, ...]:
    """``t`` (sorted) with ``x`` added in its place (as ``tuple(sorted(t + (x,)))``)."""
    i = bisect_left(t, x)
    return t[:i] + (x,) + t[i:]


def _apply_move(game: GangsOfGreenCity, w: list, p: int, a: int) -> None:
    pawns = w[PAWNS]
    pos = pawns[p]
    me = w[CAST][p]
    cost = 1
    if a < A.SAFE0:  # travel, the two escapes, a ride
        if a < A.ESCAPE0:
            dest = a
        elif a < A.PORTAL0:
            dest = a - A.ESCAPE0
            _discard(game, w, p, dest)
        elif a < A.RIDE0:
            dest = a - A.PORTAL0
            _discard(game, w, p, pos)
        else:
            dest = a - A.RIDE0
        if pos == PARK:
            cost = 0  # the first move out of Center Park is free
        w[PAWNS] = pawns[:p] + (dest,) + pawns[p + 1 :]
        if me == GHOST:
            _ghost_clear(game, w)
    elif a < A.RECRUIT0:
        if me != CABBIE:
            _discard(game, w, p, pos)
        safe = w[SAFE]
        if a != A.SAFE_SUPPLY:
            safe = _without(safe, a - A.SAFE0)
        w[SAFE] = _with(safe, pos)
    elif a < A.BATTLE0:
        g = a - A.RECRUIT0
        _end_recruitment(game, w, p, g)
    elif a < A.SHARE0:
        g = a - A.BATTLE0
        sph = w[SPHERES]
        have = sph[pos] >> SHIFT[g] & 3
        take = have if (me == GHOST or w[ENDED] >> g & 1) else 1
        w[SPHERES] = sph[:pos] + (sph[pos] - (take << SHIFT[g]),) + sph[pos + 1 :]
        sup = list(w[SUPPLY])
        sup[g] += take
        w[SUPPLY] = tuple(sup)
        _check_defeated(game, w, g)
    elif a < A.DISPATCH0:
        q, c = divmod(a - A.SHARE0, NUM_POIS)
        hands = list(w[HANDS])
        giver, taker = (p, q) if c in hands[p] else (q, p)
        hands[giver] = _without(hands[giver], c)
        hands[taker] = _with(hands[taker], c)
        w[HANDS] = tuple(hands)
        if len(hands[taker]) > HAND_LIMIT:
            _ask_discard(game, w, taker, len(hands[taker]) - HAND_LIMIT, PICK_LIMIT, -1)
    else:
        q, dest = divmod(a - A.DISPATCH0, NUM_POIS)
        w[PAWNS] = pawns[:q] + (dest,) + pawns[q + 1 :]
        if w[CAST][q] == GHOST:
            _ghost_clear(game, w)
    w[MOVES_LEFT] -= cost


def _end_recruitment(game: GangsOfGreenCity, w: list, p: int, g: int) -> None:
    need = PROFESSOR_RECRUIT_CARDS if w[CAST][p] == PROFESSOR else RECRUIT_CARDS
    w[ENDED] |= 1 << g
    if not game.continue_fight and w[ENDED] == _ALL_GANGS:
        _finish(game, w, VICTORY, "recruitment into all four gangs has ended")
        return
    _ghost_clear(game, w)
    _check_defeated(game, w, g)
    cards = [c for c in w[HANDS][p] if c < NUM_POIS and DISTRICT[c] == g]
    if len(cards) == need:
        for c in cards:
            _discard(game, w, p, c)
    else:
        _ask_discard(game, w, p, need, PICK_RECRUIT, g)


def _discard(game: GangsOfGreenCity, w: list, p: int, c: int) -> None:
    hands = w[HANDS]
    w[HANDS] = hands[:p] + (_without(hands[p], c),) + hands[p + 1 :]
    w[HERO_DISC] = _with(w[HERO_DISC], c)


def _ask_discard(game: GangsOfGreenCity, w: list, p: int, n: int, kind: int, gang: int) -> None:
    if w[PICK_N] > 0 and w[PICK_PLAYER] == p and w[PICK_KIND] == kind:
        n += w[PICK_N]
    w[PICK_PLAYER] = p
    w[PICK_N] = min(n, len(w[HANDS][p]))
    w[PICK_KIND] = kind
    w[PICK_GANG] = gang


def _play_respite(game: GangsOfGreenCity, w: list, p: int, r: int) -> None:
    _discard(game, w, p, RESPITE0 + r)
    if w[PICK_N] > 0 and w[PICK_PLAYER] == p:
        hand_n = len(w[HANDS][p])
        if w[PICK_KIND] == PICK_LIMIT:
            w[PICK_N] = max(0, hand_n - HAND_LIMIT)  # a respite played instead of a discard
        else:
            w[PICK_N] = min(w[PICK_N], hand_n)
    if r == QUIET:
        w[QUIET_F] = 1
        return
    w[RESP] = r
    w[RESP_PLAYER] = p
    w[RESP_PAWN] = -1


def _apply_target(game: GangsOfGreenCity, w: list, a: int) -> None:
    r = w[RESP]
    if r == ROOFTOP and w[RESP_PAWN] < 0:
        w[RESP_PAWN] = a - A.PAWN0
        return
    if r == ROOFTOP:
        q = w[RESP_PAWN]
        pawns = w[PAWNS]
        w[PAWNS] = pawns[:q] + (a - A.DEST0,) + pawns[q + 1 :]
        if w[CAST][q] == GHOST:
            _ghost_clear(game, w)
    elif r == FUNDRAISER:
        w[SAFE] = _with(w[SAFE], a - A.DEST0)
    elif r == WITNESS:
        c = a - A.GCARD0
        w[GANG_DISC] = _without(w[GANG_DISC], c)
        w[GANG_OUT] = _with(w[GANG_OUT], c)
    else:  # Neighbourhood Watch
        p, g = divmod(a - A.WATCH0, NUM_GANGS)
        sph = w[SPHERES]
        take = min(2, sph[p] >> SHIFT[g] & 3)
        w[SPHERES] = sph[:p] + (sph[p] - (take << SHIFT[g]),) + sph[p + 1 :]
        sup = list(w[SUPPLY])
        sup[g] += take
        w[SUPPLY] = tuple(sup)
        _check_defeated(game, w, g)
    w[RESP] = -1
    w[RESP_PLAYER] = -1
    w[RESP_PAWN] = -1


# ---- chance -------------------------------------------------------------------
def _apply_chance(game: GangsOfGreenCity, w: list, a: int, notes: list | None = None) -> None:
    st = w[STAGE]
    n = game.num_players
    if st == S_CAST:
        d = w[DEAL]
        cast = w[CAST]
        w[CAST] = cast[:d] + (a - A.CAST0,) + cast[d + 1 :]
        w[DEAL] = d + 1
        if d + 1 == n:
            w[STAGE], w[DEAL] = S_GANGS, 0
        return
    if st == S_GANGS:
        c = a - A.GDRAW0
        d = w[DEAL]
        k = SETUP_SPHERES[d]
        g = DISTRICT[c]
        sph = w[SPHERES]
        w[SPHERES] = sph[:c] + (sph[c] + (k << SHIFT[g]),) + sph[c + 1 :]
        sup = list(w[SUPPLY])
        sup[g] -= k
        w[SUPPLY] = tuple(sup)
        w[GANG_DISC] = _with(w[GANG_DISC], c)
        w[DEAL] = d + 1
        if d + 1 == len(SETUP_SPHERES):
            if game.hand_size:
                w[STAGE], w[DEAL] = S_HANDS, 0
            else:
                _build_piles(game, w)
        return
    if st == S_HANDS:
        c = a - A.HDRAW0
        d = w[DEAL]
        p = d % n
        hands = w[HANDS]
        w[HANDS] = hands[:p] + (_with(hands[p], c),) + hands[p + 1 :]
        w[HERO_POOL] = _without(w[HERO_POOL], c)
        w[DEAL] = d + 1
        if d + 1 == game.hand_size * n:
            _build_piles(game, w)
        return
    if st == DRAW:
        c = a - A.HDRAW0
        piles = w[PILES]
        i = _top_pile(piles)
        w[PILES] = piles[:i] + (piles[i] - 1,) + piles[i + 1 :]
        w[DEAL] -= 1
        if c >= ESC_CARD0:
            e = c - ESC_CARD0
            pe = w[PILE_ESC]
            w[PILE_ESC] = pe[:i] + (0,) + pe[i + 1 :]
            w[ESC_LEFT] = _without(w[ESC_LEFT], e)
            w[HERO_DISC] = _with(w[HERO_DISC], c)
            w[ESC] += 1
            w[ESC_CARD] = e
            w[STAGE] = ESC_BOTTOM
            return
        p = w[CURRENT]
        w[HERO_POOL] = _without(w[HERO_POOL], c)
        hands = w[HANDS]
        hand = _with(hands[p], c)
        w[HANDS] = hands[:p] + (hand,) + hands[p + 1 :]
        if len(hand) > HAND_LIMIT:
            _ask_discard(game, w, p, len(hand) - HAND_LIMIT, PICK_LIMIT, -1)
        return
    # a gang card: the bottom card of an ESCALATION!, or the Gang Leader's
    c = a - A.GDRAW0
    layers = w[GANG_LAYERS]
    if layers:
        i = 0 if st == GANG else len(layers) - 1
        if c in layers[i]:
            layer = _without(layers[i], c)
            w[GANG_LAYERS] = layers[:i] + ((layer,) if layer else ()) + layers[i + 1 :]
    w[GANG_DISC] = _with(w[GANG_DISC], c)
    g = DISTRICT[c]
    if st == ESC_BOTTOM:
        # a defeated gang's bottom card adds no sphere (its spheres are in the box), but both
        # featured weaknesses apply: Escalate has no exception (GGC-9, GGC-16)
        _place(game, w, c, g, MAX_SPHERES, notes)
        w[STAGE] = ESC_WINDOW
        w[WINDOW] = _holders(game, w)
        if not w[RESULT]:
            _weakness(game, w, ESC_FEATURED[w[ESC_CARD]], c, notes)
        if not w[RESULT]:
            # one card after the other (GGC-12): the bottom card's weakness waits for a
            # discard the ESCALATION! card's weakness asked for
            if w[PICK_N] > 0:
                w[WEAK_NEXT] = (FEATURED[c], c)
                if notes is not None and FEATURED[c] in w[CAST]:
                    notes.append(("waits", FEATURED[c], c))
            else:
                _weakness(game, w, FEATURED[c], c, notes)
        return
    w[DEAL] -= 1
    if w[DEFEATED] >> g & 1:
        return  # a defeated gang's card does nothing (GGC-9)
    _place(game, w, c, g, 1, notes)
    if game.every_card_weakness and not w[RESULT]:
        _weakness(game, w, FEATURED[c], c, notes)  # option weaknesses=every_card (GGC-16)


def _build_piles(game: GangsOfGreenCity, w: list) -> None:
    """Divides the hero deck into near-equal piles, the larger ones on top (GGC-3), each with
    its ESCALATION!, and starts the first turn."""
    rest = len(w[HERO_POOL])
    e = game.num_escalations
    base, extra = divmod(rest, e)
    w[PILES] = tuple(base + 1 + (i < extra) for i in range(e))
    w[PILE_ESC] = (1,) * e
    w[STAGE], w[DEAL] = MOVES_STAGE, 0
    w[CURRENT] = 0
    w[MOVES_LEFT] = MOVES


def _weakness(game: GangsOfGreenCity, w: list, k: int, poi: int, notes: list | None = None) -> None:
    """Applies cast member ``k``'s weakness for a card featuring them, if they are in play.

    By default (weaknesses only on ESCALATION!) Exhausted adds up (at least one move
    remains); with the option ``weaknesses=every_card`` it is the milder form tuned
    for that (GGC-16). Absent-minded takes a card while she holds five or more, in
    both settings: applied card after card, two cards featuring her take her from
    five cards to four, not three (issue 12 bug 3).
    """
    cast = w[CAST]
    if k not in cast:
        return
    q = cast.index(k)
    did = 1  # for the log: moves lost (Green Ghost), or whether anything happened
    if k == GHOST:
        tired = w[TIRED]
        did = 1 if game.every_card_weakness else min(tired[q] + 1, MOVES - 1)
        w[TIRED] = tired[:q] + (did,) + tired[q + 1 :]
    elif k == PROFESSOR:
        if len(w[HANDS][q]) >= ABSENT_MINDED_HAND:
            _ask_discard(game, w, q, 1, PICK_ONE, -1)
        else:
            did = 0
    elif k == DETECTIVE:
        pawns = w[PAWNS]
        w[PAWNS] = pawns[:q] + (HEADQUARTERS,) + pawns[q + 1 :]
    elif k == MAYOR:
        if poi in w[SAFE] and len(w[SAFE]) > 1:
            w[SAFE] = _without(w[SAFE], poi)
        else:
            did = 0
    else:  # Nell the Cabbie: towed to the featured POI
        pawns = w[PAWNS]
        w[PAWNS] = pawns[:q] + (poi,) + pawns[q + 1 :]
    if notes is not None:
        notes.append(("weakness", k, q, poi, did))


def _place(game: GangsOfGreenCity, w: list, poi: int, g: int, k: int, notes: list | None = None) -> None:
    """Adds ``k`` spheres of gang ``g`` to ``poi``; a fourth sphere starts a riot chain.

    ``notes`` (for the log) gets ("place", poi, g, added) or ("blocked", poi, g, why) and
    ("riot", poi, war) for each riot of the chain, in order.
    """
    if w[DEFEATED] >> g & 1:
        if notes is not None:
            notes.append(("blocked", poi, g, "defeated"))
        return
    ended = w[ENDED] >> g & 1
    cast = w[CAST]
    ghost_at = w[PAWNS][cast.index(GHOST)] if (ended and GHOST in cast) else -1
    if poi == ghost_at:
        if notes is not None:
            notes.append(("blocked", poi, g, "ghost"))
        return
    sph = list(w[SPHERES])
    sup = list(w[SUPPLY])
    sh = SHIFT[g]
    have = sph[poi] >> sh & 3
    add = min(k, MAX_SPHERES - have)
    riot = have + k > MAX_SPHERES
    if sup[g] < add:
        _finish(game, w, DEFEAT, f"{_gang(g)} ran out of spheres")
        return
    sph[poi] += add << sh
    sup[g] -= add
    if notes is not None:
        notes.append(("place", poi, g, add))
    if riot:
        rioted = {poi}
        queue = [poi]
        war = w[WAR]
        one = 1 << sh
        while queue:
            p = queue.pop(0)
            war += 1
            if notes is not None:
                notes.append(("riot", p, war))
            if war >= WAR_LOSS:
                w[WAR] = war
                w[SPHERES], w[SUPPLY] = tuple(sph), tuple(sup)
                _finish(game, w, DEFEAT, "the eighth gang riot: all-out war")
                return
            for nb in NEIGHBOURS[p]:
                if nb == ghost_at:
                    continue
                if sph[nb] >> sh & 3 < MAX_SPHERES:
                    if sup[g] == 0:
                        w[WAR] = war
                        w[SPHERES], w[SUPPLY] = tuple(sph), tuple(sup)
                        _finish(game, w, DEFEAT, f"{_gang(g)} ran out of spheres")
                        return
                    sph[nb] += one
                    sup[g] -= 1
                elif nb not in rioted:
                    rioted.add(nb)
                    queue.append(nb)
        w[WAR] = war
    w[SPHERES], w[SUPPLY] = tuple(sph), tuple(sup)


def _ghost_clear(game: GangsOfGreenCity, w: list) -> None:
    """Green Ghost clears the spheres of gangs whose recruitment has ended from his POI."""
    cast = w[CAST]
    ended = w[ENDED]
    if not ended or GHOST not in cast:
        return
    pos = w[PAWNS][cast.index(GHOST)]
    if pos == PARK:
        return
    for g in range(NUM_GANGS):
        sph = w[SPHERES]
        have = sph[pos] >> SHIFT[g] & 3
        if ended >> g & 1 and have:
            sup = w[SUPPLY]
            w[SUPPLY] = sup[:g] + (sup[g] + have,) + sup[g + 1 :]
            w[SPHERES] = sph[:pos] + (sph[pos] - (have << SHIFT[g]),) + sph[pos + 1 :]
            _check_defeated(game, w, g)


def _check_defeated(game: GangsOfGreenCity, w: list, g: int) -> None:
    """A gang whose recruitment has ended and whose spheres are all gone is defeated."""
    if not w[ENDED] >> g & 1 or w[DEFEATED] >> g & 1:
        return
    if w[SUPPLY][g] != SPHERES_PER_GANG:
        return
    w[DEFEATED] |= 1 << g
    if game.continue_fight and w[DEFEATED] == _ALL_GANGS:
        _finish(game, w, VICTORY, "all four gangs are defeated")


def _holders(game: GangsOfGreenCity, w: list) -> tuple[int, ...]:
    """Players holding a respite card, from the active player round the table."""
    n = game.num_players
    hands = w[HANDS]
    cur = w[CURRENT]
    out = []
    for i in range(n):
        q = (cur + i) % n
        h = hands[q]
        if h and h[-1] >= RESPITE0:
            out.append(q)
    return tuple(out)


def _finish(game: GangsOfGreenCity, w: list, result: int, reason: str) -> None:
    if not w[RESULT]:
        w[RESULT] = result
        w[REASON] = reason


def _settle(game: GangsOfGreenCity, w: list, notes: list | None = None) -> None:
    """Runs the automatic steps until a decision, a chance node or the end."""
    n = game.num_players
    while True:
        if w[RESULT]:
            w[STAGE] = OVER
            w[RESP], w[RESP_PLAYER], w[RESP_PAWN] = -1, -1, -1
            w[PICK_PLAYER], w[PICK_N], w[WINDOW] = -1, 0, ()
            w[WEAK_NEXT] = ()
            return
        if w[PICK_N] <= 0 and w[PICK_PLAYER] >= 0:
            w[PICK_PLAYER], w[PICK_N], w[PICK_KIND], w[PICK_GANG] = -1, 0, PICK_LIMIT, -1
        if w[RESP] >= 0 or w[PICK_N] > 0:
            return
        if w[WEAK_NEXT]:
            k, poi = w[WEAK_NEXT]
            w[WEAK_NEXT] = ()
            _weakness(game, w, k, poi, notes)
            continue
        st = w[STAGE]
        if st == MOVES_STAGE:
            if w[MOVES_LEFT] > 0:
                return
            if sum(w[PILES]) < HERO_DRAWS:
                _finish(game, w, DEFEAT, "the hero deck cannot be drawn")
                continue
            w[STAGE], w[DEAL] = DRAW, HERO_DRAWS
            return
        if st == DRAW:
            if w[DEAL] > 0:
                return
            w[STAGE] = GANG_WINDOW
            w[WINDOW] = _holders(game, w)
            continue
        if st == ESC_WINDOW or st == GANG_WINDOW:
            win = w[WINDOW]
            hands = w[HANDS]
            while win and not (hands[win[0]] and hands[win[0]][-1] >= RESPITE0):
                win = win[1:]
            w[WINDOW] = win
            if win:
                return
            if st == ESC_WINDOW:
                # intensify: the shuffled gang discards go on top as a new layer, over
                # (not into) what is left of the draw pile, earlier layers included
                if w[GANG_DISC]:
                    w[GANG_LAYERS] = (w[GANG_DISC],) + w[GANG_LAYERS]
                    w[GANG_DISC] = ()
                w[ESC_CARD] = -1
                w[STAGE] = DRAW
                continue
            if w[QUIET_F]:
                w[QUIET_F] = 0  # Quiet Night: this Gang Leader phase is skipped
                w[DEAL] = 0
            else:
                w[DEAL] = METER[w[ESC]]
            w[STAGE] = GANG
            continue
        if st == GANG:
            if w[DEAL] > 0:
                _refill_gang_deck(game, w)
                return
            cur = (w[CURRENT] + 1) % n
            tired = w[TIRED]
            w[CURRENT] = cur
            w[MOVES_LEFT] = MOVES - tired[cur]
            w[TIRED] = tired[:cur] + (0,) + tired[cur + 1 :]
            w[STAGE] = MOVES_STAGE
            continue
        if st == ESC_BOTTOM:
            _refill_gang_deck(game, w)
        return


def _refill_gang_deck(game: GangsOfGreenCity, w: list) -> None:
    """An empty gang draw pile takes its shuffled discards (GGC-10), as one layer."""
    if not w[GANG_LAYERS] and len(w[GANG_DISC]) + len(w[GANG_OUT]) == NUM_POIS:
        w[GANG_LAYERS] = (w[GANG_DISC],)
        w[GANG_DISC] = ()


def _top_pile(piles: tuple[int, ...]) -> int:
    for i, k in enumerate(piles):
        if k:
            return i
    raise ValueError("the hero draw pile is empty")


def _gang(g: int) -> str:
    return GANG_NAMES[g]
