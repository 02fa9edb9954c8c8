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

from operator import attrgetter
from typing import TYPE_CHECKING

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

_ZERO = [0.0] * OBSERVATION_SIZE
_THIRDS = (0.0, 1 / 3, 2 / 3, 1.0)


def observation_tensor(game: GangsOfGreenCity, s: State, player: int) -> list[float]:
    """Returns ``player``'s observation (the layout in the module docstring)."""
    n = game.num_players
    t = _ZERO[:]
    for p, x in enumerate(s.spheres):
        if x:
            b = O_SPHERES + p * NUM_GANGS
            for g in range(NUM_GANGS):
                t[b + g] = _THIRDS[x >> SHIFT[g] & 3]
    for g in range(NUM_GANGS):
        t[O_SUPPLY + g] = s.supply[g] / SPHERES_PER_GANG
        t[O_ENDED + g] = float(s.ended >> g & 1)
        t[O_DEFEATED + g] = float(s.defeated >> g & 1)
    for p in s.safe:
        t[O_SAFE + p] = 1.0
    t[O_ESC + s.esc] = 1.0
    t[O_WAR + min(s.war, 8)] = 1.0
    for i in range(n):
        q = (player + i) % n
        b = O_SEATS + i * SEAT
        t[b] = 1.0
        if s.cast[q] >= 0:
            t[b + 1 + s.cast[q]] = 1.0
        t[b + 1 + NUM_CAST + s.pawns[q]] = 1.0
        h = b + 1 + NUM_CAST + NUM_POIS + 1
        for c in s.hands[q]:
            t[h + c] = 1.0
        t[b + SEAT - 1] = s.tired[q] / 3
    t[O_ACTIVE + (s.current - player) % n] = 1.0
    t[O_MOVES] = s.moves / 5
    t[O_STAGE + s.stage] = 1.0
    t[O_DEAL] = s.deal / 9
    for i, (k, e) in enumerate(zip(s.piles, s.pile_esc)):
        t[O_PILES + 2 * i] = k / 11
        t[O_PILES + 2 * i + 1] = float(e)
    for c in s.hero_disc:
        t[O_HERO_DISC + c] = 1.0
    for c in s.gang_disc:
        t[O_GANG_DISC + c] = 1.0
    for c in s.gang_out:
        t[O_GANG_OUT + c] = 1.0
    for i, layer in enumerate(s.gang_layers):
        v = 1.0 / (1 + i)
        for c in layer:
            t[O_LAYERS + c] = v
    t[O_QUIET] = float(s.quiet)
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
    t[O_OPTIONS] = float(game.continue_fight)
    t[O_OPTIONS + 1] = float(game.every_card_weakness)
    t[O_OPTIONS + 2] = game.num_escalations / 6
    return t


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
