"""Gangs of Green City rules (2-5 players, co-operative).

Rulebook: ``src/kingmaker/rulebooks/gangs-of-green-city.txt`` (sections quoted in the tests).
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
that composes them is in ``game.py``. How each move and chance outcome changes
the state, and the automatic steps after it, are in ``resolve.py``. This module
depends only on ``state``, ``actions``, ``data`` and ``resolve``.
"""

from __future__ import annotations

import random
from bisect import bisect_right
from typing import TYPE_CHECKING

from ...core.api import CHANCE, TERMINAL, node_name
from ...core.errors import GameOverError, IllegalActionError, InvalidActionError, InvalidStateError
from ...core.match import sample_chance
from . import actions as A
from .data import (
    CABBIE,
    DETECTIVE,
    DISTRICT,
    ESC_CARD0,
    FUNDRAISER,
    GANG_NAMES,
    MAX_ESCALATIONS,
    MAYOR,
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
    SPHERES_PER_GANG,
    START_SAFE_HOUSE,
    WAR_LOSS,
    WATCH,
    WITNESS,
)
from .resolve import (
    _ALL_GANGS,
    _apply_chance,
    _apply_move,
    _apply_target,
    _play_respite,
    _settle,
    _top_pile,
    _with,
    _without,
)
from .state import (
    DEFEAT,
    DRAW,
    ESC_BOTTOM,
    ESC_WINDOW,
    GANG,
    GANG_WINDOW,
    HANDS,
    HERO_DISC,
    OVER,
    PICK_LIMIT,
    PICK_N,
    PICK_RECRUIT,
    S_CAST,
    S_GANGS,
    S_HANDS,
    SHIFT,
    VICTORY,
    WINDOW,
    State,
    build,
    gang_total,
    unpack,
)
from .state import MOVES as MOVES_STAGE

if TYPE_CHECKING:
    from .game import GangsOfGreenCity

RESPITE_IDS = (ROOFTOP, FUNDRAISER, QUIET, WITNESS, WATCH)

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
        piles = s.piles
        i = _top_pile(piles)
        left = piles[i]
        esc = s.pile_esc[i]
        pool = s.hero_pool
        if left > esc:
            p = (left - esc) / left / len(pool)
            out = list(map(_row(p).__getitem__, pool))
        else:
            out = []
        if esc:
            esc_left = s.esc_left
            p = 1.0 / left / len(esc_left)
            out.extend(map(_row(p).__getitem__, [ESC_CARD0 + e for e in esc_left]))
        return out
    cards = _gang_cards(s, st)
    row = _GANG_ROWS.get(len(cards))
    if row is None:
        p = 1.0 / len(cards)
        row = _GANG_ROWS[len(cards)] = tuple((A.GDRAW0 + c, p) for c in range(NUM_POIS))
    return list(map(row.__getitem__, cards))


def _gang_cards(s: State, st: int) -> tuple[int, ...]:
    """The gang cards a gang draw comes from, each equally likely: the top layer first; the
    bottom card of an ESCALATION! from the unseen rest, or from the bottom layer once the
    rest is used up."""
    layers = s.gang_layers
    if st == ESC_BOTTOM:
        return tuple(_gang_rest(s)) or layers[-1]
    if layers:
        return layers[0]
    rest = s.gang_disc, s.gang_out
    cards = _REST.get(rest)
    if cards is None:
        if len(_REST) >= 10_000:
            _REST.clear()
        cards = _REST[rest] = tuple(_gang_rest(s))
    return cards


def sample_chance_outcome(game: GangsOfGreenCity, s: State, rng: random.Random) -> int:
    """Returns ``core.match.sample_chance(chance_outcomes(s), rng)`` without building the list
    (the search's sampler, ``agents.bound.bound_chance``).

    At a hero or gang draw the same single ``rng.random()`` is compared with the same running
    sums of the outcomes' chances, added one by one in the list's order as there (kept in
    ``_SUMS``), so the card and the stream after are the same (checked against the list in
    tests/games/gangs_of_green_city/test_ggc_chance_sampler.py). Other chance nodes (the
    set-up's) use the list."""
    st = s.stage
    if current_player(game, s) != CHANCE:
        return sample_chance(chance_outcomes(game, s), rng)  # (which raises: not a chance node)
    if st == DRAW:
        piles = s.piles
        i = _top_pile(piles)
        left = piles[i]
        esc = s.pile_esc[i]
        r = rng.random()
        acc = 0.0
        pool = s.hero_pool
        if left > esc:
            sums = _sums((left - esc) / left / len(pool), len(pool), 0.0)
            k = bisect_right(sums, r)
            if k < len(pool):
                return A.HDRAW0 + pool[k]
            acc = sums[-1]
        if esc:
            esc_left = s.esc_left
            sums = _sums(1.0 / left / len(esc_left), len(esc_left), acc)
            k = bisect_right(sums, r)
            return A.HDRAW0 + ESC_CARD0 + esc_left[k if k < len(esc_left) else -1]
        return A.HDRAW0 + pool[-1]
    if st == GANG or st == ESC_BOTTOM:
        cards = _gang_cards(s, st)
        n = len(cards)
        k = bisect_right(_sums(1.0 / n, n, 0.0), rng.random())
        return A.GDRAW0 + cards[k if k < n else -1]
    return sample_chance(chance_outcomes(game, s), rng)


def _sums(p: float, n: int, start: float) -> tuple[float, ...]:
    """The running sums ``start + p, start + p + p, ...`` (``n`` of them), added one by one as
    ``sample_chance`` adds them."""
    key = (p, n, start)
    sums = _SUMS.get(key)
    if sums is None:
        if len(_SUMS) >= 10_000:
            _SUMS.clear()
        out = []
        acc = start
        for _ in range(n):
            acc += p
            out.append(acc)
        sums = _SUMS[key] = tuple(out)
    return sums


_SUMS: dict[tuple[float, int, float], tuple[float, ...]] = {}


def _row(p: float) -> tuple[tuple[int, float], ...]:
    """The hero draws ``(action, p)`` of every hero card, ESCALATION! cards included, at one
    probability ``p`` (built once per ``p``; chance lists pick from them, with no new pair)."""
    row = _HERO_ROWS.get(p)
    if row is None:
        if len(_HERO_ROWS) >= 10_000:
            _HERO_ROWS.clear()
        row = _HERO_ROWS[p] = tuple((A.HDRAW0 + c, p) for c in range(ESC_CARD0 + MAX_ESCALATIONS))
    return row


_HERO_ROWS: dict[float, tuple[tuple[int, float], ...]] = {}
# Each number of gang cards drawn from (each equally likely): every gang draw at that chance.
_GANG_ROWS: dict[int, tuple[tuple[int, float], ...]] = {}
# The unseen gang cards where no layer lies on top, by (discards, cards out of the game).
_REST: dict[tuple, tuple[int, ...]] = {}
# The gang draws offered when ``cards`` are drawn from (each equally likely), by those cards.
_GANG_DRAWS: dict[tuple[int, ...], tuple[tuple[int, float], ...]] = {}


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
    if not hand or hand[-1] < RESPITE0:  # (a hand is sorted: its respites come last)
        return out
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


# Per POI: the travel actions to its neighbours, and the portal actions to every other POI.
_TRAVELS = tuple(tuple(A.TRAVEL0 + d for d in NEIGHBOURS[pos]) for pos in range(len(NEIGHBOURS)))
# The battle actions on a POI, by its packed sphere counts (one for each gang there).
_BATTLES = tuple(tuple(A.BATTLE0 + g for g in range(NUM_GANGS) if x >> SHIFT[g] & 3) for x in range(256))
_PORTALS = tuple(tuple(A.PORTAL0 + d for d in range(NUM_POIS) if d != pos) for pos in range(len(NEIGHBOURS)))


def _move_actions(game: GangsOfGreenCity, s: State, p: int, hand: tuple[int, ...]) -> list[int]:
    pos = s.pawns[p]
    me = s.cast[p]
    out = list(_TRAVELS[pos])
    out += [A.ESCAPE0 + c for c in hand if c < NUM_POIS and c != pos]
    pawns = s.pawns
    if pos != PARK:
        safe = s.safe
        holds_here = pos in hand
        if holds_here:
            out += _PORTALS[pos]
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
            out += _BATTLES[here]
        hands = s.hands
        for q in range(game.num_players) if pawns.count(pos) > 1 else ():
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
    if hand and hand[-1] >= RESPITE0:  # (a hand is sorted: its respites come last)
        out += _respite_plays(game, s, hand)
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
    return build(w)


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
    if not 0 <= c < NUM_POIS:
        return False
    layers = s.gang_layers
    if st == GANG and layers:
        return c in layers[0]  # (a layer's cards are neither discarded nor out of the game)
    if c in s.gang_disc or c in s.gang_out:
        return False
    if st == S_GANGS:
        return True
    if st == ESC_BOTTOM and layers and len(s.gang_disc) + len(s.gang_out) + sum(map(len, layers)) == NUM_POIS:
        return c in layers[-1]  # no unseen card left under the layers
    return not any(c in layer for layer in layers)

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
            raise InvalidStateError(f"{GANG_NAMES[g]}: spheres on the board and in the supply must make 24")
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

_ALL_POIS = frozenset(range(NUM_POIS))


def _gang_rest(s: State) -> list[int]:
    """The gang cards of unknown place in the draw pile (under the known layers)."""
    return sorted(_ALL_POIS.difference(s.gang_disc, s.gang_out, *s.gang_layers))
