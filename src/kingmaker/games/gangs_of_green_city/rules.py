"""Gangs Of Green City rules (2-5 players, co-operative).

Rulebook: ``shared/rulebooks/gangs-of-green-city.txt`` (sections quoted in the tests).
Rulings and designed components: ``docs/rulings/gangs-of-green-city.md`` (GGC-1 ...).

A turn as a chain of nodes::

    MOVES        the active player takes four moves (the move out of Center Park
                 is free); respites may be played at any decision
    DRAW         chance, twice: a hero card from the top pile; an ESCALATION! runs
                 ESC_BOTTOM (chance: the bottom gang card gets three spheres),
                 ESC_WINDOW (respite holders may act) and puts the shuffled gang
                 discards on top of the gang draw pile as a known set
    GANG_WINDOW  respite holders, from the active player round the table, may act
    GANG         chance, meter times: a gang card adds a sphere; riots spread
    interrupts   a discard (hand limit, Absent-minded, which cards end a
                 recruitment) or a respite's target comes before all of these

Every player sees the whole state (hands are open, deck orders are never
stored), so the game declares perfect information: the decks' unknowns are
chance nodes, as in backgammon.

These are functions of the game (its options) and a state; the ``Game`` class
that composes them is in ``game.py``. This module depends only on ``state``,
``actions`` and ``data``.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.api import CHANCE, TERMINAL, node_name
from ...core.errors import GameOverError, IllegalActionError, InvalidActionError, InvalidStateError
from . import actions as A
from .data import (
    CABBIE,
    DETECTIVE,
    DISTRICT,
    ESC_CARD0,
    ESC_FEATURED,
    FEATURED,
    FUNDRAISER,
    GHOST,
    HAND_LIMIT,
    HEADQUARTERS,
    HERO_DRAWS,
    MAX_SPHERES,
    MAYOR,
    METER,
    MOVES,
    NEIGHBOURS,
    NUM_CAST,
    NUM_GANGS,
    NUM_HERO,
    NUM_POIS,
    PARK,
    PROFESSOR,
    PROFESSOR_RECRUIT_CARDS,
    QUIET,
    RECRUIT_CARDS,
    RESPITE0,
    ROOFTOP,
    SAFE_HOUSES,
    SETUP_SPHERES,
    SPHERES_PER_GANG,
    START_SAFE_HOUSE,
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
    State,
    gang_total,
    unpack,
)
from .state import MOVES as MOVES_STAGE
from .state import (
    QUIET as QUIET_F,
)

if TYPE_CHECKING:
    from .game import GangsOfGreenCity

_ALL_GANGS = (1 << NUM_GANGS) - 1
RESPITE_IDS = (ROOFTOP, FUNDRAISER, QUIET, WITNESS, WATCH)
ABSENT_MINDED_HAND = 5  # weaknesses=every_card: Professor Vance discards only holding this many


def _without(t: tuple[int, ...], x: int) -> tuple[int, ...]:
    i = t.index(x)
    return t[:i] + t[i + 1 :]


def _with(t: tuple[int, ...], x: int) -> tuple[int, ...]:
    return tuple(sorted(t + (x,)))


# ---- set-up ---------------------------------------------------------------
def new_initial_state(game: GangsOfGreenCity) -> State:
    n = game.num_players
    return State(
        S_CAST, 0, (-1,) * n, (PARK,) * n, ((),) * n, (0,) * NUM_POIS,
        (SPHERES_PER_GANG,) * NUM_GANGS, (START_SAFE_HOUSE,), 0, 0, 0, 0,
        tuple(range(NUM_HERO)), (), (), tuple(range(game.num_escalations)), (), (), (), (),
        0, 0, (0,) * n, 0, (), -1, 0, PICK_LIMIT, -1, -1, -1, -1, -1, (), 0, "",
    )


# ---- whose turn -------------------------------------------------------------
def current_player(game: GangsOfGreenCity, s: State) -> int:
    if s.result:
        return TERMINAL
    if s.resp >= 0:
        return s.resp_player
    if s.pick_n > 0:
        return s.pick_player
    st = s.stage
    if st == MOVES_STAGE:
        return s.current
    if st == ESC_WINDOW or st == GANG_WINDOW:
        return s.window[0]
    return CHANCE


def is_terminal(game: GangsOfGreenCity, s: State) -> bool:
    return s.result != 0


# ---- chance -----------------------------------------------------------------
def chance_outcomes(game: GangsOfGreenCity, s: State) -> list[tuple[int, float]]:
    if current_player(game, s) != CHANCE:
        raise IllegalActionError(
            f"{game.name}: chance_outcomes called at a {node_name(current_player(game, s))} node"
        )
    st = s.stage
    if st == S_CAST:
        left = [k for k in range(NUM_CAST) if k not in s.cast]
        p = 1.0 / len(left)
        return [(A.CAST0 + k, p) for k in left]
    if st == S_HANDS:
        pool = s.hero_pool
        p = 1.0 / len(pool)
        return [(A.HDRAW0 + c, p) for c in pool]
    if st == DRAW:
        i = _top_pile(s.piles)
        left = s.piles[i]
        esc = s.pile_esc[i]
        out = []
        if left > esc:
            p = (left - esc) / left / len(s.hero_pool)
            out = [(A.HDRAW0 + c, p) for c in s.hero_pool]
        if esc:
            p = 1.0 / left / len(s.esc_left)
            out.extend((A.HDRAW0 + ESC_CARD0 + e, p) for e in s.esc_left)
        return out
    # gang cards: the top layer first (any of its cards equally); the bottom card comes
    # from the unseen rest, or from the bottom layer once the rest is used up
    layers = s.gang_layers
    if st == ESC_BOTTOM:
        cards = _gang_rest(s) or layers[-1]
    else:
        cards = layers[0] if layers else _gang_rest(s)
    p = 1.0 / len(cards)
    return [(A.GDRAW0 + c, p) for c in cards]


# ---- legal actions ----------------------------------------------------------
def legal_actions(game: GangsOfGreenCity, s: State, player: int | None = None) -> list[int]:
    cp = current_player(game, s)
    if cp < 0:
        return [a for a, _ in chance_outcomes(game, s)] if cp == CHANCE and player is None else []
    if player is not None and player != cp:
        return []
    if s.resp >= 0:
        return _target_actions(game, s)
    hand = s.hands[cp]
    if s.pick_n > 0:
        if s.pick_kind == PICK_RECRUIT:
            g = s.pick_gang
            out = [A.DISCARD0 + c for c in hand if c < NUM_POIS and DISTRICT[c] == g]
        else:
            out = [A.DISCARD0 + c for c in hand]
        out.extend(_respite_plays(game, s, hand))
        out.sort()
        return out
    if s.stage == MOVES_STAGE:
        return _move_actions(game, s, cp, hand)
    out = _respite_plays(game, s, hand)
    out.append(A.PASS)
    return out


def _respite_plays(game: GangsOfGreenCity, s: State, hand: tuple[int, ...]) -> list[int]:
    out = []
    for c in hand:
        if c >= RESPITE0:
            r = c - RESPITE0
            if r == FUNDRAISER and len(s.safe) >= SAFE_HOUSES:
                continue
            if r == QUIET and s.quiet:
                continue
            if r == WITNESS and not s.gang_disc:
                continue
            if r == WATCH and not any(s.spheres):
                continue
            out.append(A.RESPITE0 + r)
    return out


def _target_actions(game: GangsOfGreenCity, s: State) -> list[int]:
    r = s.resp
    if r == ROOFTOP:
        if s.resp_pawn < 0:
            return [A.PAWN0 + q for q in range(game.num_players)]
        here = s.pawns[s.resp_pawn]
        return [A.DEST0 + d for d in range(NUM_POIS) if d != here]
    if r == FUNDRAISER:
        safe = s.safe
        return [A.DEST0 + d for d in range(NUM_POIS) if d not in safe]
    if r == WITNESS:
        return [A.GCARD0 + c for c in s.gang_disc]
    return [
        A.WATCH0 + p * NUM_GANGS + g
        for p, x in enumerate(s.spheres)
        if x
        for g in range(NUM_GANGS)
        if x >> SHIFT[g] & 3
    ]


def _move_actions(game: GangsOfGreenCity, s: State, p: int, hand: tuple[int, ...]) -> list[int]:
    pos = s.pawns[p]
    me = s.cast[p]
    out = [A.TRAVEL0 + d for d in NEIGHBOURS[pos]]
    for c in hand:
        if c < NUM_POIS and c != pos:
            out.append(A.ESCAPE0 + c)
    pawns = s.pawns
    if pos != PARK:
        safe = s.safe
        holds_here = pos in hand
        if holds_here:
            out.extend(A.PORTAL0 + d for d in range(NUM_POIS) if d != pos)
        at_safe = pos in safe
        if at_safe:
            out.extend(A.RIDE0 + d for d in safe if d != pos)
        elif holds_here or me == CABBIE:
            if len(safe) < SAFE_HOUSES:
                out.append(A.SAFE_SUPPLY)
            else:
                out.extend(A.SAFE0 + d for d in safe)
        if at_safe:
            need = PROFESSOR_RECRUIT_CARDS if me == PROFESSOR else RECRUIT_CARDS
            counts = [0] * NUM_GANGS
            for c in hand:
                if c < NUM_POIS:
                    counts[DISTRICT[c]] += 1
            for g in range(NUM_GANGS):
                if counts[g] >= need and not s.ended >> g & 1:
                    out.append(A.RECRUIT0 + g)
        here = s.spheres[pos]
        if here:
            for g in range(NUM_GANGS):
                if here >> SHIFT[g] & 3:
                    out.append(A.BATTLE0 + g)
        hands = s.hands
        for q in range(game.num_players):
            if q != p and pawns[q] == pos:
                shares = set()
                if holds_here or pos in hands[q]:
                    shares.add(pos)
                if me == DETECTIVE:
                    shares.update(c for c in hand if c < NUM_POIS)
                if s.cast[q] == DETECTIVE:
                    shares.update(c for c in hands[q] if c < NUM_POIS)
                out.extend(A.SHARE0 + q * NUM_POIS + c for c in shares)
    if me == MAYOR:
        occupied = {x for x in pawns if x != PARK}
        for q in range(game.num_players):
            if q != p:
                qpos = pawns[q]
                dests = occupied.union(NEIGHBOURS[qpos])
                dests.discard(qpos)
                out.extend(A.DISPATCH0 + q * NUM_POIS + d for d in dests)
    out.extend(_respite_plays(game, s, hand))
    out.sort()
    return out


def explain_illegal(game: GangsOfGreenCity, s: State, action: int, player: int) -> str:
    if s.resp >= 0:
        return "a respite card is being played: choose its target first"
    if s.pick_n > 0:
        return f"player {s.pick_player} must first discard {s.pick_n} card(s)"
    if A.RESPITE0 <= action < A.PASS:
        if RESPITE0 + action - A.RESPITE0 not in s.hands[player]:
            return "you do not hold that respite card"
        return "that respite card would have no effect now"
    if s.stage != MOVES_STAGE:
        return "this is a respite window: play a respite card or pass"
    pos = s.pawns[player]
    if action < A.ESCAPE0:
        return "you can only travel along a white line to an adjacent POI"
    if action < A.PORTAL0:
        return "escaping to a POI takes that POI's card from your hand"
    if action < A.RIDE0:
        return "escaping anywhere takes the card of the POI you stand on"
    if action < A.SAFE0:
        return "bumming a ride goes from a safe house to another safe house"
    if action < A.RECRUIT0:
        return "a safe house needs the card of your POI, and none there yet"
    if action < A.BATTLE0:
        return "ending recruitment needs a safe house and five cards of that district (still recruiting)"
    if action < A.SHARE0:
        return "there is no sphere of that gang on your POI"
    if action < A.DISPATCH0:
        if pos == PARK:
            return "Center Park is not a POI: nobody can be briefed there"
        return "briefing needs both pawns on the same POI and that POI's card"
    if action < A.RESPITE0:
        return "only Mayor Maple dispatches pawns: to an adjacent POI or one holding a pawn"
    return "it is your move: travel, escape, ride, build, recruit, battle or brief"


# ---- apply ------------------------------------------------------------------
def apply(game: GangsOfGreenCity, s: State, action: int, player: int | None = None, notes: list | None = None) -> State:
    """Returns the state after ``action``; ``notes``, if given, collects what chance did
    (spheres, riots, weaknesses) as tuples, for the log text (``view.observe_action``)."""
    if s.result:
        raise GameOverError(f"{game.name} is over ({s.reason}); no move is accepted")
    cp = current_player(game, s)
    if cp == CHANCE:
        if not _offered(s, action):
            raise InvalidActionError(f"{action!r} is not a chance outcome offered here", text=str(action))
    elif type(action) is not int or not 0 <= action < A.CAST0:
        raise InvalidActionError(f"action {action!r} is outside 0..{A.CAST0 - 1}", text=str(action))
    w = unpack(s)
    if cp == CHANCE:
        _apply_chance(game, w, action, notes)
    elif s.resp >= 0:
        _apply_target(game, w, action)
    elif A.RESPITE0 <= action < A.PASS:
        _play_respite(game, w, cp, action - A.RESPITE0)
    elif s.pick_n > 0:
        c = action - A.DISCARD0
        q = s.pick_player
        hands = w[HANDS]
        w[HANDS] = hands[:q] + (_without(hands[q], c),) + hands[q + 1 :]
        w[HERO_DISC] = _with(w[HERO_DISC], c)
        w[PICK_N] -= 1
    elif s.stage == MOVES_STAGE:
        _apply_move(game, w, cp, action)
    else:  # PASS in a window
        w[WINDOW] = w[WINDOW][1:]
    _settle(game, w, notes)
    return State(*w)


def _offered(s: State, a: int) -> bool:
    """True when ``a`` is one of ``chance_outcomes(s)`` (without building the list)."""
    if type(a) is not int:
        return False
    st = s.stage
    if st == S_CAST:
        return A.CAST0 <= a < A.GDRAW0 and a - A.CAST0 not in s.cast
    if st == DRAW or st == S_HANDS:
        c = a - A.HDRAW0
        if c < 0:
            return False
        if st == S_HANDS or c < ESC_CARD0:
            if c not in s.hero_pool:
                return False
            if st == S_HANDS:
                return True
            i = _top_pile(s.piles)
            return s.piles[i] > s.pile_esc[i]
        return c - ESC_CARD0 in s.esc_left and s.pile_esc[_top_pile(s.piles)] == 1
    c = a - A.GDRAW0
    if not 0 <= c < NUM_POIS or c in s.gang_disc or c in s.gang_out:
        return False
    if st == S_GANGS:
        return True
    layers = s.gang_layers
    if st == GANG and layers:
        return c in layers[0]
    if st == ESC_BOTTOM and layers and len(s.gang_disc) + len(s.gang_out) + sum(map(len, layers)) == NUM_POIS:
        return c in layers[-1]  # no unseen card left under the layers
    return not any(c in layer for layer in layers)


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
    remains) and Absent-minded takes a card whatever the hand; with the option
    ``weaknesses=every_card`` they are the milder forms tuned for that (GGC-16).
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
        if len(w[HANDS][q]) >= (ABSENT_MINDED_HAND if game.every_card_weakness else 1):
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


# ---- the end ------------------------------------------------------------------
def returns(game: GangsOfGreenCity, s: State) -> tuple[float, ...]:
    v = 1.0 if s.result == VICTORY else 0.0
    return (v,) * game.num_players


# reason codes of ``outcome`` (for the lab's table of end reasons)
WIN_RECRUITMENT = "recruitment_ended"
WIN_DEFEATED = "all_gangs_defeated"
LOSS_WAR = "war_track"
LOSS_SPHERES = "spheres_exhausted"
LOSS_DECK = "deck_exhausted"
FIGURE_NAMES = (
    "cards_in_hand",  # per seat: hero cards the seat holds at the end
    "recruitments_ended",  # team figures, the same for every seat:
    "gangs_defeated",
    "war",  # riots so far (8 loses)
    "escalations",  # ESCALATION! cards drawn
    "hero_cards_left",  # cards left in the hero draw pile
    "spheres_on_board",
)


def _team(n: int) -> str:
    seats = [f"{q}" for q in range(n)]
    return "players " + ", ".join(seats[:-1]) + " and " + seats[-1]


def reason_code(s: State) -> str:
    """Returns the short code of how the game ended ('' while it is in play)."""
    if s.result == VICTORY:
        return WIN_DEFEATED if s.defeated == _ALL_GANGS else WIN_RECRUITMENT
    if s.result == DEFEAT:
        if s.war >= WAR_LOSS:
            return LOSS_WAR
        if "spheres" in s.reason:
            return LOSS_SPHERES
        return LOSS_DECK
    return ""


def outcome(game: GangsOfGreenCity, s: State) -> dict:
    """Returns how the game ended: the whole team wins or loses together, and why."""
    n = game.num_players
    if not s.result:
        return {"winners": [], "reason": "in_play", "text": "the game is still in play"}
    done = f"{bin(s.ended).count('1')} of {NUM_GANGS} recruitments ended"
    if s.result == VICTORY:
        text = f"the team ({_team(n)}) wins: {s.reason}"
        if s.defeated != _ALL_GANGS:
            beaten = bin(s.defeated).count("1")
            text += f" ({beaten} gang{'' if beaten == 1 else 's'} defeated, war meter {s.war}/{WAR_LOSS})"
        return {"winners": list(range(n)), "reason": reason_code(s), "text": text}
    why = s.reason.replace("The ", "the ", 1)
    if s.war >= WAR_LOSS:
        why += f" (war meter {s.war}/{WAR_LOSS})"
    return {"winners": [], "reason": reason_code(s), "text": f"the team ({_team(n)}) loses: {why}, with {done}"}


def figures(game: GangsOfGreenCity, s: State) -> dict[str, tuple[float, ...]]:
    """Returns the figures of ``FIGURE_NAMES``: hand sizes per seat, team figures repeated."""
    n = game.num_players
    team = {
        "recruitments_ended": bin(s.ended).count("1"),
        "gangs_defeated": bin(s.defeated).count("1"),
        "war": s.war,
        "escalations": s.esc,
        "hero_cards_left": sum(s.piles),
        "spheres_on_board": NUM_GANGS * SPHERES_PER_GANG - sum(s.supply),
    }
    out = {"cards_in_hand": tuple(float(len(h)) for h in s.hands)}
    out.update({k: (float(v),) * n for k, v in team.items()})
    return out


def sample_hero_deck(s: State, rng: random.Random) -> list[int]:
    """Returns a hero draw pile order consistent with ``s``, top card first.

    Unseen POI and respite cards are shuffled over all remaining places; each pile
    that still holds its ESCALATION! gets one (a random one of those undrawn) at a
    uniformly random position within the pile.
    """
    pool = list(s.hero_pool)
    rng.shuffle(pool)
    escs = list(s.esc_left)
    rng.shuffle(escs)
    out: list[int] = []
    for size, has_esc in zip(s.piles, s.pile_esc):
        plain = size - has_esc
        pile = pool[:plain]
        del pool[:plain]
        if has_esc:
            pile.insert(rng.randrange(size), ESC_CARD0 + escs.pop())
        out.extend(pile)
    return out


def sample_gang_deck(s: State, rng: random.Random) -> list[int]:
    """Returns a gang draw pile order consistent with ``s``, top card first.

    Each layer (an ESCALATION!'s shuffled discards) is shuffled only within itself and
    stays above the older layers; the unseen rest is shuffled below them all.
    """
    out: list[int] = []
    for layer in s.gang_layers:
        cards = list(layer)
        rng.shuffle(cards)
        out.extend(cards)
    rest = _gang_rest(s)
    rng.shuffle(rest)
    out.extend(rest)
    return out


# ---- notation -----------------------------------------------------------------
def action_to_str(game: GangsOfGreenCity, s: State, action: int) -> str:
    if A.SHARE0 <= action < A.DISPATCH0:
        q, c = divmod(action - A.SHARE0, NUM_POIS)
        return A.to_str(action, giver_is_active=c not in s.hands[q])
    return A.to_str(action)


# ---- checks -------------------------------------------------------------------
def validate_state(game: GangsOfGreenCity, s: State) -> None:
    n = game.num_players
    if len(s.cast) != n or len(s.pawns) != n or len(s.hands) != n or len(s.tired) != n:
        raise InvalidStateError(f"cast, pawns, hands and tired need one entry per player ({n})")
    if len(s.spheres) != NUM_POIS or len(s.supply) != NUM_GANGS:
        raise InvalidStateError("spheres need 48 packed counts and supply 4")
    if any(not 0 <= x < 1 << 2 * NUM_GANGS for x in s.spheres):
        raise InvalidStateError("a POI holds 0 to 3 spheres of each gang (2 bits each)")
    for g in range(NUM_GANGS):
        if gang_total(s.spheres, g) + s.supply[g] != SPHERES_PER_GANG:
            raise InvalidStateError(f"{_gang(g)}: spheres on the board and in the supply must make 24")
    cards = [c for h in s.hands for c in h] + list(s.hero_pool) + [
        c for c in s.hero_disc if c < NUM_HERO
    ]
    if sorted(cards) != list(range(NUM_HERO)):
        raise InvalidStateError("the POI and respite cards must each be in one hand, the pool or the discards")
    esc = [c - ESC_CARD0 for c in s.hero_disc if c >= ESC_CARD0] + list(s.esc_left)
    if sorted(esc) != list(range(game.num_escalations)):
        raise InvalidStateError("every ESCALATION! card must be drawn or still in a pile")
    if s.stage > S_HANDS and (
        len(s.piles) != game.num_escalations
        or sum(s.piles) != len(s.hero_pool) + sum(s.pile_esc)
        or sum(s.pile_esc) != len(s.esc_left)
        or any(p < e for p, e in zip(s.piles, s.pile_esc))
    ):
        raise InvalidStateError("the hero piles do not match the unseen cards")
    if any(not layer for layer in s.gang_layers):
        raise InvalidStateError("a gang deck layer is never empty")
    gang = list(s.gang_disc) + [c for layer in s.gang_layers for c in layer] + list(s.gang_out)
    if len(set(gang)) != len(gang) or any(not 0 <= c < NUM_POIS for c in gang):
        raise InvalidStateError("a gang card is in two places")
    if any(list(t) != sorted(t) for t in (s.safe, s.hero_pool, s.hero_disc, s.gang_disc, s.gang_out, *s.gang_layers, *s.hands)):
        raise InvalidStateError("card sets must be sorted")
    if not 1 <= len(s.safe) <= SAFE_HOUSES or any(not 0 <= p < NUM_POIS for p in s.safe):
        raise InvalidStateError("one to six safe houses, on POIs")
    if any(not 0 <= p <= PARK for p in s.pawns) or not 0 <= s.current < n:
        raise InvalidStateError("pawns must stand on a POI or Center Park; current player in range")
    if not S_CAST <= s.stage <= OVER or s.result not in (0, VICTORY, DEFEAT) or (s.stage == OVER) != bool(s.result):
        raise InvalidStateError("stage and result out of range or inconsistent")
    if not 0 <= s.esc <= game.num_escalations or not 0 <= s.war <= WAR_LOSS or not 0 <= s.moves <= MOVES + 1:
        raise InvalidStateError("escalation meter, war meter or moves out of range")
    if s.cast.count(-1) and s.stage != S_CAST or any(not -1 <= k < NUM_CAST for k in s.cast):
        raise InvalidStateError("every player holds one cast card once they are dealt")
    if len(set(k for k in s.cast if k >= 0)) != sum(1 for k in s.cast if k >= 0):
        raise InvalidStateError("cast cards are dealt once each")
    if s.resp >= 0 and (s.resp >= len(RESPITE_IDS) or not 0 <= s.resp_player < n):
        raise InvalidStateError("a respite target needs a respite and its player")
    if s.pick_n > 0 and (not 0 <= s.pick_player < n or s.pick_n > len(s.hands[s.pick_player])):
        raise InvalidStateError("a pending discard needs a player holding enough cards")
    if s.weak_next and (len(s.weak_next) != 2 or not 0 <= s.weak_next[0] < NUM_CAST
                        or not 0 <= s.weak_next[1] < NUM_POIS or s.pick_n <= 0):
        raise InvalidStateError("a weakness waits (cast, POI) only behind a pending discard")
    if any(not 0 <= q < n for q in s.window):
        raise InvalidStateError("window players out of range")
    if s.stage in (ESC_WINDOW, GANG_WINDOW) and s.resp < 0 and s.pick_n <= 0 and not s.window:
        raise InvalidStateError("a respite window needs a player")


def _top_pile(piles: tuple[int, ...]) -> int:
    for i, k in enumerate(piles):
        if k:
            return i
    raise ValueError("the hero draw pile is empty")


_ALL_POIS = frozenset(range(NUM_POIS))


def _gang_rest(s: State) -> list[int]:
    """The gang cards of unknown place in the draw pile (under the known layers)."""
    return sorted(_ALL_POIS.difference(s.gang_disc, s.gang_out, *s.gang_layers))


def _gang(g: int) -> str:
    from .data import GANG_NAMES

    return GANG_NAMES[g]

