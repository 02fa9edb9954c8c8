"""The San Quentin Kings state: a frozen value of ints and flat tuples.

Fields (n players)::

    phase      a phase constant below
    year       1-3, 4 = the riot
    initiator  the holder of the initiator disc
    used       bitmask of the action blocks played this year
    block      the block being played (0-6, 7 = riot), -1 between actions
    pos        position in the current order (from the initiator for payments and
               non-fight blocks, from the player to their left for fight turns;
               index into ``ranking`` for new-arrival picks)
    rnd        fight round 1-3 (0 outside fights)
    need       cards the fighting player must still play this turn; picks left
               for a new-arrival pick
    flags      F_COMMITTED (the player to move chose to fight this turn),
               F_BRIBED (they used their bribe chip this turn), F_GRAVE (the Grave
               card was drawn in this fight)
    pending    the fight card waiting for keep/redraw, or the stolen shank's type t waiting to be
               played: t from the deck, t + 3 * (victim + 1) from a victim (who saw it)
    pieces     n x 15: cell C,S,T | yard | solitary | court | own pieces in the fight
               area. Pieces in the box (killed, paroled) are 7 - everything else.
    goods      n x 13: shanks C,S,T | drugs green,white,brown | commissary | bribe
               chips | respect | fight points | owed shanks | owed commissary | owed drugs
    supply     14: shank deck C,S,T | shank discards | drug pile | used drugs |
               commissary | bribe chips at the guard influence block
    fdeck      11 counts: the fight deck by kind (its order is never stored)
    fdisc      11 counts: the fight discards by kind
    cards      n tuples of card codes lying in each fight area, in play order
    bribed     sorted (holder, owner, type) triples: bribed pieces in another's area
    fists      per player: -2 not taking part, -1 still to choose, >= 0 the committed
               fist code c*64+s*8+t; () outside the fist step
    inflight   bitmask of players in the fight (non-empty fist; all with pieces in the riot)
    passed     bitmask of fighting players who passed
    market     11: cafeteria shanks C,S,T | drugs G,W,B | bus C,S,T (the top row for
               the cafeteria, both rows for new arrivals) | 2-respect spot | 1-respect spots
    ranking    the placed players of the fight, strongest first (new-arrival picks)
    queue      pending chance tasks (see tasks.py), resolved first to last
    known      (n+1) x n x 6: known[o][q][i] = how many of good i (shank cards C,S,T, drug
               chips G,W,B) observer o knows that player q holds at least (recall.py); the
               last observer row n is the spectator's (public facts only); zero where o == q

``Work`` is the mutable copy of a state that ``rules.apply`` changes and freezes again.
"""

from __future__ import annotations

from ...core.api import frozen_state

P_BLOCK = 0
P_GYM = 1
P_CAFE = 2
P_GUARD = 3
P_DRUGPAY = 4
P_FISTS = 5
P_TURN = 6
P_DRAWN = 7
P_TOSOL = 8
P_PAROLE = 9
P_VIC_DRUG = 10
P_VIC_SHANK = 11
P_STOLEN = 12
P_PICK = 13
P_SCORE = 14  # internal: scoring a fight (never stored while waiting)
P_CLEANUP = 15  # continuation after the queue: collect and clean
P_END = 16

PHASE_NAMES = {
    P_BLOCK: "choose action block",
    P_GYM: "gym",
    P_CAFE: "cafeteria trade",
    P_GUARD: "guard influence",
    P_DRUGPAY: "drug payment",
    P_FISTS: "secret fists",
    P_TURN: "fight turn",
    P_DRAWN: "fight card drawn",
    P_TOSOL: "guard: piece to solitary",
    P_PAROLE: "parole: piece leaves",
    P_VIC_DRUG: "steal drug: choose player",
    P_VIC_SHANK: "steal shank: choose player",
    P_STOLEN: "stolen shank",
    P_PICK: "new arrival picks",
    P_SCORE: "scoring fight",
    P_CLEANUP: "collect and clean",
    P_END: "game over",
}

F_COMMITTED = 1
F_BRIBED = 2
F_GRAVE = 4

# Offsets inside one player's 15 piece counts.
CELL, YARD, SOL, COURT, FIGHT = 0, 3, 6, 9, 12
PSIZE = 15
# Offsets inside one player's 13 goods.
SH, DR, COMM, CHIPS, RESPECT, FP, OWE_SH, OWE_COMM, OWE_DR = 0, 3, 6, 7, 8, 9, 10, 11, 12
GSIZE = 13
# Offsets in the supply.
SDECK, SDISC, DPILE, DUSED, SCOMM, SCHIPS = 0, 3, 6, 9, 12, 13
# Offsets in the market.
M_SHANK, M_DRUG, M_BUS, M_R2, M_R1 = 0, 3, 6, 9, 10


@frozen_state
class State:
    phase: int
    year: int
    initiator: int
    used: int
    block: int
    pos: int
    rnd: int
    need: int
    flags: int
    pending: int
    pieces: tuple[int, ...]
    goods: tuple[int, ...]
    supply: tuple[int, ...]
    fdeck: tuple[int, ...]
    fdisc: tuple[int, ...]
    cards: tuple[tuple[int, ...], ...]
    bribed: tuple[tuple[int, int, int], ...]
    fists: tuple[int, ...]
    inflight: int
    passed: int
    market: tuple[int, ...]
    ranking: tuple[int, ...]
    queue: tuple[int, ...]
    known: tuple[int, ...]


# The phases of a fight turn (the player to move is counted from the initiator's left) and the
# phases where players take one turn each from the initiator.
FIGHT_PHASES = frozenset((P_TURN, P_DRAWN, P_TOSOL, P_PAROLE, P_VIC_DRUG, P_VIC_SHANK, P_STOLEN))
SEQ_PHASES = frozenset((P_GYM, P_CAFE, P_GUARD, P_DRUGPAY))


class Work(State):
    """A mutable working copy of a state, used inside ``rules.apply`` only.

    It starts sharing the state's tuples (copy on write): code that changes a
    tuple field first takes it as a list with ``mut_<field>()`` (e.g.
    ``w.mut_goods()[i] += 1``; a list taken so is this copy's own), or rebinds the
    field to a new value. ``freeze`` turns the lists back into tuples. A field read
    through a name bound before a ``mut_`` call may be stale: bind such names after it.
    The fields changed a few entries at a time (``fdeck``, ``fdisc``, ``cards``, ``fists``,
    ``market``, ``queue``) have no ``mut_``: they are always rebound to new tuples (``add_card``,
    ``put_fist``, ``add_market``, ``push_task``), so that ``freeze`` need not look at them.

    It is a subclass of ``State`` that adds no slot and allows assignment (``object``'s own
    ``__setattr__``, so that stores stay plain slot stores): turning it into a ``State``
    (``freeze``) then changes its class to its base, which Python checks faster than
    between two unrelated classes with the same slots.
    """

    __slots__ = ()
    __setattr__ = object.__setattr__
    __delattr__ = object.__delattr__

    def __init__(self, s: State) -> None:
        self.phase = s.phase
        self.year = s.year
        self.initiator = s.initiator
        self.used = s.used
        self.block = s.block
        self.pos = s.pos
        self.rnd = s.rnd
        self.need = s.need
        self.flags = s.flags
        self.pending = s.pending
        self.pieces = s.pieces
        self.goods = s.goods
        self.supply = s.supply
        self.fdeck = s.fdeck
        self.fdisc = s.fdisc
        self.cards = s.cards
        self.bribed = s.bribed
        self.fists = s.fists
        self.inflight = s.inflight
        self.passed = s.passed
        self.market = s.market
        self.ranking = s.ranking
        self.queue = s.queue
        self.known = s.known

    def mut_pieces(self) -> list[int]:
        x = self.pieces
        if type(x) is not list:
            x = self.pieces = list(x)
        return x

    def mut_goods(self) -> list[int]:
        x = self.goods
        if type(x) is not list:
            x = self.goods = list(x)
        return x

    def mut_supply(self) -> list[int]:
        x = self.supply
        if type(x) is not list:
            x = self.supply = list(x)
        return x

    def add_card(self, p: int, code: int) -> None:
        """Lays card ``code`` last in player ``p``'s fight area."""
        c = self.cards
        self.cards = (*c[:p], c[p] + (code,), *c[p + 1 :])

    def put_fist(self, p: int, fist: int) -> None:
        """Sets player ``p``'s entry in ``fists``."""
        f = self.fists
        self.fists = (*f[:p], fist, *f[p + 1 :])

    def push_task(self, task: int) -> None:
        """Queues a chance task last."""
        self.queue = (*self.queue, task)

    def add_market(self, i: int, k: int) -> None:
        """Adds ``k`` to entry ``i`` of the market."""
        m = self.market
        self.market = (*m[:i], m[i] + k, *m[i + 1 :])

    def mut_known(self) -> list[int]:
        x = self.known
        if type(x) is not list:
            x = self.known = list(x)
        return x

    def freeze(self) -> State:
        """Turns this working copy into the State itself (no new object): its lists become tuples
        and its class becomes its base ``State`` (it adds no slot)."""
        if type(self.pieces) is list:
            self.pieces = tuple(self.pieces)
        if type(self.goods) is list:
            self.goods = tuple(self.goods)
        if type(self.supply) is list:
            self.supply = tuple(self.supply)
        if type(self.known) is list:
            self.known = tuple(self.known)
        self.__class__ = State
        return self  # type: ignore[return-value]


if Work.__slots__ or Work.__basicsize__ != State.__basicsize__:  # freeze() changes the class to State
    raise TypeError("Work must add nothing to State's slots")
