"""Gangs of Green City for learning agents: the observation tensor and the information state string.

Nothing is secret (hands are open, both discard piles may be examined, the decks'
orders are not stored), so both are built straight from the state: every field read
here is shown by the view (``view.py``). The tensor is seat-relative: the observer
is seat 0, the next player seat 1, and so on (seats past the player count are zero).

Observation tensor (``OBSERVATION_SIZE`` = 1148 floats), in this order::

    offset  size  what
    0       192   spheres: [poi * 4 + gang] = count / 3      (48 POIs x 4 gangs)
    192       4   supply of each gang / 24
    196      48   safe house on POI
    244       4   recruitment ended, per gang
    248       4   gang defeated, per gang
    252       7   escalation meter position, one-hot (0..6)
    259       9   war meter, one-hot (0..8)
    268     545   5 seats x 109, seat-relative:
                    +0 seat in play, +1..5 cast one-hot, +6..54 pawn place one-hot
                    (48 POIs, Center Park), +55..107 hand (53 POI and respite cards),
                    +108 moves lost next turn / 3
    813       5   active player (whose turn), seat-relative one-hot
    818       1   moves left / 5
    819      10   stage one-hot (state.py: S_CAST .. OVER)
    829       1   cards still to deal or draw in this stage / 9
    830      12   hero draw pile: 6 piles x (cards left / 11, ESCALATION! inside)
    842      59   hero discard pile (53 POI and respite cards, 6 ESCALATION! cards)
    901      48   gang discard pile
    949      48   gang cards removed from the game (Witness Protection)
    997      48   gang draw pile layers: 1 / (1 + layer index) for a card in a layer (top
                  layer 1.0), 0 for a card not in a layer (unseen, discarded or removed)
    1045      1   Quiet Night pending
    1046     10   respite window: seat-relative one-hot of the first to decide (5), and of
                  every seat still in the window (5)
    1056     13   pending discard: seat-relative player (5), count / 7, kind one-hot (3:
                  hand limit, Absent-minded, end recruitment), district one-hot (4)
    1069     15   respite target pending: respite one-hot (5), its player (5), Rooftop
                  Chase pawn (5), seat-relative
    1084      6   ESCALATION! card being resolved, one-hot
    1090     53   weakness waiting for a discard: cast one-hot (5), featured POI one-hot (48)
    1143      2   result: victory, defeat
    1145      3   options: continue_the_fight, weaknesses=every_card, escalations / 6
"""

from __future__ import annotations

from array import array
from operator import attrgetter
from typing import TYPE_CHECKING

from ...core.tensors import LastTensors
from .data import MAX_ESCALATIONS, NUM_CAST, NUM_GANGS, NUM_HERO, NUM_POIS, SPHERES_PER_GANG
from .state import FIELDS, OVER, SHIFT, State

if TYPE_CHECKING:
    from .game import GangsOfGreenCity

MAX_SEATS = 5
SEAT = 1 + NUM_CAST + (NUM_POIS + 1) + NUM_HERO + 1  # 109
O_SPHERES = 0
O_SUPPLY = O_SPHERES + NUM_POIS * NUM_GANGS
O_SAFE = O_SUPPLY + NUM_GANGS
O_ENDED = O_SAFE + NUM_POIS
O_DEFEATED = O_ENDED + NUM_GANGS
O_ESC = O_DEFEATED + NUM_GANGS
O_WAR = O_ESC + MAX_ESCALATIONS + 1
O_SEATS = O_WAR + 9
O_ACTIVE = O_SEATS + MAX_SEATS * SEAT
O_MOVES = O_ACTIVE + MAX_SEATS
O_STAGE = O_MOVES + 1
O_DEAL = O_STAGE + OVER + 1
O_PILES = O_DEAL + 1
O_HERO_DISC = O_PILES + 2 * MAX_ESCALATIONS
O_GANG_DISC = O_HERO_DISC + NUM_HERO + MAX_ESCALATIONS
O_GANG_OUT = O_GANG_DISC + NUM_POIS
O_LAYERS = O_GANG_OUT + NUM_POIS
O_QUIET = O_LAYERS + NUM_POIS
O_WINDOW = O_QUIET + 1
O_PICK = O_WINDOW + 2 * MAX_SEATS
O_RESP = O_PICK + MAX_SEATS + 1 + 3 + NUM_GANGS
O_ESC_CARD = O_RESP + 5 + 2 * MAX_SEATS
O_WEAK = O_ESC_CARD + MAX_ESCALATIONS
O_RESULT = O_WEAK + NUM_CAST + NUM_POIS
O_OPTIONS = O_RESULT + 2
OBSERVATION_SIZE = O_OPTIONS + 3

# The encoder fills a fresh float32 array("f") (numpy views its buffer without a copy) from tables
# built once: a packed POI's four sphere counts, a 4-gang bit set, a pile's pair. States are
# immutable and a move replaces only the fields it changes (the others are the same objects),
# so each (game, player) keeps its last state and tensor, and the next tensor starts from a
# copy of that one and rewrites only the blocks whose fields changed (the small blocks of
# turn, stage and pending decisions are always rewritten). ``_full`` is the same encoding
# from zero; tests/rl/test_rl_encoders.py checks both against a plain reference.
_ZERO = array("f", bytes(4 * OBSERVATION_SIZE))
_SPHERES = [array("f", ((x >> SHIFT[g] & 3) / 3 for g in range(NUM_GANGS))) for x in range(256)]
_GANG_BITS = [array("f", (float(b >> g & 1) for g in range(NUM_GANGS))) for b in range(16)]
_SUPPLY = [x / SPHERES_PER_GANG for x in range(SPHERES_PER_GANG + 1)]
_PILE = [[array("f", (k / 11, float(e))) for e in range(2)] for k in range(12)]
_LAYER = [1.0 / (1 + i) for i in range(NUM_POIS + 1)]
_HAND = 1 + NUM_CAST + NUM_POIS + 1  # a hand's offset in a seat's block
_Z_SAFE = _ZERO[:NUM_POIS]
_Z_HAND = _ZERO[:NUM_HERO]
_Z_PAWN = _ZERO[:NUM_POIS + 1]
_Z_CAST = _ZERO[:NUM_CAST]
_Z_TURN = _ZERO[:O_PILES - O_ACTIVE]
_Z_PILES = _ZERO[:O_HERO_DISC - O_PILES]
_Z_HERO_DISC = _ZERO[:NUM_HERO + MAX_ESCALATIONS]
_Z_TAIL = _ZERO[:O_OPTIONS - O_QUIET]
_LAST = LastTensors()


def observation_tensor(game: GangsOfGreenCity, s: State, player: int) -> array:
    """Returns ``player``'s observation (the layout in the module docstring), an array("f") of floats."""
    return _LAST.tensor(game, s, player, _full, _update)


def _full(game: GangsOfGreenCity, s: State, player: int) -> array:
    """Returns ``player``'s observation built from zero."""
    n = game.num_players
    t = _ZERO[:]
    b = O_SPHERES
    for x in s.spheres:
        if x:
            t[b:b + 4] = _SPHERES[x]
        b += 4
    _supply(t, s.supply)
    t[O_ENDED:O_ENDED + 4] = _GANG_BITS[s.ended]
    t[O_DEFEATED:O_DEFEATED + 4] = _GANG_BITS[s.defeated]
    for p in s.safe:
        t[O_SAFE + p] = 1.0
    t[O_ESC + s.esc] = 1.0
    t[O_WAR + min(s.war, 8)] = 1.0
    cast, pawns, hands, tired = s.cast, s.pawns, s.hands, s.tired
    b = O_SEATS
    for i in range(n):
        q = player + i
        if q >= n:
            q -= n
        t[b] = 1.0
        if cast[q] >= 0:
            t[b + 1 + cast[q]] = 1.0
        t[b + 1 + NUM_CAST + pawns[q]] = 1.0
        h = b + _HAND
        for c in hands[q]:
            t[h + c] = 1.0
        t[b + SEAT - 1] = tired[q] / 3
        b += SEAT
    _turn(t, s, player, n)
    _piles(t, s)
    for c in s.hero_disc:
        t[O_HERO_DISC + c] = 1.0
    for c in s.gang_disc:
        t[O_GANG_DISC + c] = 1.0
    for c in s.gang_out:
        t[O_GANG_OUT + c] = 1.0
    _layers(t, s.gang_layers)
    _tail(t, s, player, n)
    t[O_OPTIONS] = game.continue_fight
    t[O_OPTIONS + 1] = game.every_card_weakness
    t[O_OPTIONS + 2] = game.num_escalations / 6
    return t


def _update(game: GangsOfGreenCity, s: State, player: int, t: array, ps: State) -> None:
    """Turns ``t``, the observation of ``ps``, into the one of ``s`` (same game and player)."""
    n = game.num_players
    if s.spheres is not ps.spheres:
        b = O_SPHERES
        for x, px in zip(s.spheres, ps.spheres):
            if x != px:
                t[b:b + 4] = _SPHERES[x]
            b += 4
    if s.supply is not ps.supply:
        _supply(t, s.supply)
    if s.ended != ps.ended:
        t[O_ENDED:O_ENDED + 4] = _GANG_BITS[s.ended]
    if s.defeated != ps.defeated:
        t[O_DEFEATED:O_DEFEATED + 4] = _GANG_BITS[s.defeated]
    if s.safe is not ps.safe:
        t[O_SAFE:O_SAFE + NUM_POIS] = _Z_SAFE
        for p in s.safe:
            t[O_SAFE + p] = 1.0
    if s.esc != ps.esc:
        t[O_ESC + ps.esc] = 0.0
        t[O_ESC + s.esc] = 1.0
    if s.war != ps.war:
        t[O_WAR + min(ps.war, 8)] = 0.0
        t[O_WAR + min(s.war, 8)] = 1.0
    cast, pawns, hands, tired = s.cast, s.pawns, s.hands, s.tired
    pcast, ppawns, phands, ptired = ps.cast, ps.pawns, ps.hands, ps.tired
    if cast is not pcast or pawns is not ppawns or hands is not phands or tired is not ptired:
        b = O_SEATS
        for i in range(n):
            q = player + i
            if q >= n:
                q -= n
            if cast is not pcast and cast[q] != pcast[q]:
                t[b + 1:b + 1 + NUM_CAST] = _Z_CAST
                if cast[q] >= 0:
                    t[b + 1 + cast[q]] = 1.0
            if pawns is not ppawns and pawns[q] != ppawns[q]:
                t[b + 1 + NUM_CAST + ppawns[q]] = 0.0
                t[b + 1 + NUM_CAST + pawns[q]] = 1.0
            if hands is not phands and hands[q] is not phands[q]:
                h = b + _HAND
                t[h:h + NUM_HERO] = _Z_HAND
                for c in hands[q]:
                    t[h + c] = 1.0
            t[b + SEAT - 1] = tired[q] / 3
            b += SEAT
    t[O_ACTIVE:O_PILES] = _Z_TURN
    _turn(t, s, player, n)
    if s.piles is not ps.piles or s.pile_esc is not ps.pile_esc:
        t[O_PILES:O_HERO_DISC] = _Z_PILES
        _piles(t, s)
    if s.hero_disc is not ps.hero_disc:
        t[O_HERO_DISC:O_GANG_DISC] = _Z_HERO_DISC
        for c in s.hero_disc:
            t[O_HERO_DISC + c] = 1.0
    if s.gang_disc is not ps.gang_disc:
        t[O_GANG_DISC:O_GANG_OUT] = _Z_SAFE
        for c in s.gang_disc:
            t[O_GANG_DISC + c] = 1.0
    if s.gang_out is not ps.gang_out:
        t[O_GANG_OUT:O_LAYERS] = _Z_SAFE
        for c in s.gang_out:
            t[O_GANG_OUT + c] = 1.0
    if s.gang_layers is not ps.gang_layers:
        t[O_LAYERS:O_QUIET] = _Z_SAFE
        _layers(t, s.gang_layers)
    t[O_QUIET:O_OPTIONS] = _Z_TAIL
    _tail(t, s, player, n)


def _supply(t: array, sup: tuple[int, ...]) -> None:
    t[O_SUPPLY] = _SUPPLY[sup[0]]
    t[O_SUPPLY + 1] = _SUPPLY[sup[1]]
    t[O_SUPPLY + 2] = _SUPPLY[sup[2]]
    t[O_SUPPLY + 3] = _SUPPLY[sup[3]]


def _turn(t: array, s: State, player: int, n: int) -> None:
    """The active player, moves left, stage and cards to deal (O_ACTIVE..O_PILES, zero before)."""
    t[O_ACTIVE + (s.current - player) % n] = 1.0
    t[O_MOVES] = s.moves / 5
    t[O_STAGE + s.stage] = 1.0
    t[O_DEAL] = s.deal / 9


def _piles(t: array, s: State) -> None:
    b = O_PILES
    for k, e in zip(s.piles, s.pile_esc):
        t[b:b + 2] = _PILE[k][e]
        b += 2


def _layers(t: array, layers: tuple[tuple[int, ...], ...]) -> None:
    for i, layer in enumerate(layers):
        v = _LAYER[i]
        for c in layer:
            t[O_LAYERS + c] = v


def _tail(t: array, s: State, player: int, n: int) -> None:
    """Quiet Night, the respite window, pending choices and the result (O_QUIET..O_OPTIONS, zero before)."""
    if s.quiet:
        t[O_QUIET] = 1.0
    if s.window:
        t[O_WINDOW + (s.window[0] - player) % n] = 1.0
        for q in s.window:
            t[O_WINDOW + MAX_SEATS + (q - player) % n] = 1.0
    if s.pick_n > 0:
        t[O_PICK + (s.pick_player - player) % n] = 1.0
        t[O_PICK + MAX_SEATS] = s.pick_n / 7
        t[O_PICK + MAX_SEATS + 1 + s.pick_kind] = 1.0
        if s.pick_gang >= 0:
            t[O_PICK + MAX_SEATS + 4 + s.pick_gang] = 1.0
    if s.resp >= 0:
        t[O_RESP + s.resp] = 1.0
        t[O_RESP + 5 + (s.resp_player - player) % n] = 1.0
        if s.resp_pawn >= 0:
            t[O_RESP + 5 + MAX_SEATS + (s.resp_pawn - player) % n] = 1.0
    if s.esc_card >= 0:
        t[O_ESC_CARD + s.esc_card] = 1.0
    if s.weak_next:
        t[O_WEAK + s.weak_next[0]] = 1.0
        t[O_WEAK + NUM_CAST + s.weak_next[1]] = 1.0
    if s.result:
        t[O_RESULT + s.result - 1] = 1.0


# Every field but the unseen hero cards and ESCALATION! cards, which follow from the hands
# and the hero discard pile.
_PUBLIC = attrgetter(*(f for f in FIELDS if f not in ("hero_pool", "esc_left")))


def information_state_string(game: GangsOfGreenCity, s: State, player: int) -> str:
    """Returns a canonical string of all ``player`` knows: the whole state, and who they are.

    Every state field is shown by the view (hands are open; the decks are kept as
    public piles, layers and unseen sets), so equal views hold equal fields: the string
    is the observer's seat and the fields' ``repr`` (less the unseen hero cards, which
    the hands and the discard pile give), about 10x cheaper than JSON of the view.
    """
    return f"{player}|{_PUBLIC(s)!r}"
