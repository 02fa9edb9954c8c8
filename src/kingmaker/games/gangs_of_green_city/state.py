"""The Gangs of Green City state: a frozen value of ints and tuples.

Nothing in it is secret: hands are open (rulebook, "Sharing Information
About Cards") and neither deck's order is stored. The hero deck is kept as
its pile structure and the set of unseen cards; the gang deck as a stack of
layers known to lie on top (each ESCALATION!'s shuffled discards are one
layer, laid over the older ones) over the unseen rest. Which cards each layer
holds is public; their order within it is not stored. Both decks are dealt
lazily at chance nodes (a layer, or the rest, is drawn from uniformly).

Fields (n players)::

    stage       what happens next (the constants below)
    deal        set-up: cards dealt in this step; DRAW: hero cards still to draw;
                GANG: gang cards still to draw
    cast        n cast ids (-1 until dealt)
    pawns       n POIs (PARK = Center Park)
    hands       n sorted tuples of hero card ids
    spheres     48 packed counts: gang g's spheres on POI p are spheres[p] >> SHIFT[g] & 3
                (2 bits a gang, Tonys lowest), so a state stays small
    supply      4 counts: spheres of each gang left in the stock
    safe        sorted POIs holding a safe house
    ended       bitmask of gangs whose recruitment has ended
    defeated    bitmask of defeated gangs
    esc         ESCALATION! cards resolved so far (the meter's position)
    war         riots so far (the war meter)
    hero_pool   sorted unseen POI and respite cards (in the hero draw pile, any pile)
    piles       cards left in each pile of the hero draw pile, top pile first
    pile_esc    1 where that pile still holds its ESCALATION! card
    esc_left    sorted ESCALATION! cards not drawn yet
    hero_disc   sorted hero discard pile (ESCALATION! cards as 53 + e)
    gang_disc   sorted gang discard pile
    gang_layers layers of gang cards known to lie on top of the gang draw pile, top layer
                first; each a sorted tuple (one ESCALATION!'s shuffled discards), none empty
    gang_out    sorted gang cards removed from the game (Witness Protection)
    current     the active player
    moves       moves left this turn
    tired       n counts: moves each player loses on their next turn (Exhausted)
    quiet       1 when the next Gang Leader phase is skipped (Quiet Night)
    window      players still to decide in a respite window, in order
    pick_player player who must discard (-1: nobody)
    pick_n      cards still to discard
    pick_kind   PICK_LIMIT, PICK_ONE or PICK_RECRUIT
    pick_gang   for PICK_RECRUIT: the district whose cards are discarded
    resp        respite whose target is being chosen (-1: none)
    resp_player who plays it
    resp_pawn   Rooftop Chase: the pawn chosen (-1 until chosen)
    esc_card    the ESCALATION! card being resolved (-1: none)
    weak_next   (cast, POI) of a weakness still to apply once a pending discard is done, or ()
                (weaknesses apply one card after the other, GGC-12)
    result      0 in play, 1 victory, 2 defeat
    reason      why the game ended ('' in play)
"""

from __future__ import annotations

from dataclasses import fields
from itertools import chain

from ...core.api import frozen_state

# stages
S_CAST = 0  # chance: a cast card for player `deal`
S_GANGS = 1  # chance: set-up gang card number `deal` (3, 3, 3, 2, 2, 2, 1, 1, 1 spheres)
S_HANDS = 2  # chance: starting hands (option starting_hands), card number `deal`
MOVES = 3  # the active player takes moves
DRAW = 4  # chance: a hero card
ESC_BOTTOM = 5  # chance: the bottom gang card of an ESCALATION!
ESC_WINDOW = 6  # respite window inside an ESCALATION!, before the discards go on top
GANG_WINDOW = 7  # respite window before the Gang Leader phase
GANG = 8  # chance: a gang card of the Gang Leader phase
OVER = 9

STAGE_NAMES = {
    S_CAST: "deal cast",
    S_GANGS: "seed spheres",
    S_HANDS: "deal hands",
    MOVES: "moves",
    DRAW: "draw hero cards",
    ESC_BOTTOM: "escalation",
    ESC_WINDOW: "respite window (escalation)",
    GANG_WINDOW: "respite window (before the Gang Leader)",
    GANG: "gang leader",
    OVER: "over",
}

PICK_LIMIT = 0  # discard down to the hand limit
PICK_ONE = 1  # Absent-minded: discard one card
PICK_RECRUIT = 2  # choose which district cards end recruitment

PLAYING, VICTORY, DEFEAT = 0, 1, 2

SHIFT = (0, 2, 4, 6)  # bit offset of each gang's count in a packed POI


def sphere_count(spheres: tuple[int, ...], poi: int, gang: int) -> int:
    """Returns the spheres of ``gang`` on ``poi``."""
    return spheres[poi] >> SHIFT[gang] & 3


def gang_total(spheres: tuple[int, ...], gang: int) -> int:
    """Returns the spheres of ``gang`` on the whole board."""
    sh = SHIFT[gang]
    return sum(x >> sh & 3 for x in spheres)


def pack(counts: list[int]) -> tuple[int, ...]:
    """Packs flat counts ``counts[poi * 4 + gang]`` into the state's form."""
    return tuple(
        sum(counts[p * 4 + g] << SHIFT[g] for g in range(4)) for p in range(len(counts) // 4)
    )


def unpack_spheres(spheres: tuple[int, ...]) -> list[int]:
    """Returns flat counts ``[poi * 4 + gang]`` of packed spheres."""
    return list(_chain(map(_UNPACKED.__getitem__, spheres)))


# _UNPACKED[x] = the four gangs' counts of one packed POI x (2 bits each).
_UNPACKED = tuple(tuple(x >> sh & 3 for sh in SHIFT) for x in range(256))
_chain = chain.from_iterable


@frozen_state
class State:
    stage: int
    deal: int
    cast: tuple[int, ...]
    pawns: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    spheres: tuple[int, ...]
    supply: tuple[int, ...]
    safe: tuple[int, ...]
    ended: int
    defeated: int
    esc: int
    war: int
    hero_pool: tuple[int, ...]
    piles: tuple[int, ...]
    pile_esc: tuple[int, ...]
    esc_left: tuple[int, ...]
    hero_disc: tuple[int, ...]
    gang_disc: tuple[int, ...]
    gang_layers: tuple[tuple[int, ...], ...]
    gang_out: tuple[int, ...]
    current: int
    moves: int
    tired: tuple[int, ...]
    quiet: int
    window: tuple[int, ...]
    pick_player: int
    pick_n: int
    pick_kind: int
    pick_gang: int
    resp: int
    resp_player: int
    resp_pawn: int
    esc_card: int
    weak_next: tuple[int, ...]
    result: int
    reason: str


FIELDS: tuple[str, ...] = tuple(f.name for f in fields(State))
# Index of each field in the list ``unpack`` returns (for fast building of the next state).
(
    STAGE, DEAL, CAST, PAWNS, HANDS, SPHERES, SUPPLY, SAFE, ENDED, DEFEATED, ESC, WAR,
    HERO_POOL, PILES, PILE_ESC, ESC_LEFT, HERO_DISC, GANG_DISC, GANG_LAYERS, GANG_OUT, CURRENT,
    MOVES_LEFT, TIRED, QUIET, WINDOW, PICK_PLAYER, PICK_N, PICK_KIND, PICK_GANG, RESP,
    RESP_PLAYER, RESP_PAWN, ESC_CARD, WEAK_NEXT, RESULT, REASON,
) = range(len(FIELDS))
# The mutable twin (core.api.frozen_state): ``State.__init__`` and ``build`` fill a new object
# as one of these with plain slot stores, then make it a ``State``.
_Filling = State._Filling


def _make_init() -> object:
    if tuple(State.__slots__) != FIELDS:
        raise TypeError("State's slots must be its fields in order")
    args = ", ".join(FIELDS)
    body = "".join(f"    self.{n} = {n}\n" for n in FIELDS)
    env = {"_set": object.__setattr__, "_Filling": _Filling, "State": State}
    src = f"def __init__(self, {args}):\n    _set(self, '__class__', _Filling)\n{body}    self.__class__ = State\n"
    exec(src, env)  # noqa: S102 - generated from the field names only
    init = env["__init__"]
    init.__qualname__ = "State.__init__"
    init.__doc__ = f"Creates a State ({args})."
    return init


State.__init__ = _make_init()  # type: ignore[method-assign]


def _make_list_functions() -> tuple:
    """``unpack`` and ``build``, generated from the field names: plain slot reads into a list,
    and plain slot stores into a ``_Filling`` that then becomes a ``State`` (no call of
    ``State`` with 36 arguments)."""
    reads = ", ".join(f"s.{n}" for n in FIELDS)
    names = ", ".join(FIELDS)
    stores = "".join(f"    o.{n} = {n}\n" for n in FIELDS)
    src = (
        f"def unpack(s):\n    return [{reads}]\n"
        f"def build(w):\n    ({names},) = w\n    o = _new(_Filling)\n{stores}"
        "    o.__class__ = State\n    return o\n"
    )
    env = {"_new": object.__new__, "_Filling": _Filling, "State": State}
    exec(src, env)  # noqa: S102 - generated from the field names only
    unpack, build = env["unpack"], env["build"]
    unpack.__doc__ = "Returns the fields of ``s`` as a list, to edit and rebuild with ``build(w)``."
    build.__doc__ = "Returns the State of the field values ``w`` (as ``State(*w)``, faster)."
    return unpack, build


unpack, build = _make_list_functions()
