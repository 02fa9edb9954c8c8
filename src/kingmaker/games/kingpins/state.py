"""The Kingpins state: a frozen value of ints and tuples.

Fields (n players; card sets are bitmasks, see data.py)::

    phase       DEAL, DRAW, COLLECT (chance nodes), PLAY, RUB_OUT (decisions) or END
    round       0..4
    current     the player whose turn it is
    deal        set-up cards dealt this round (0 .. 5n+4); 5n+4 once play starts
    hands       n card sets
    unseen      the stockpile as a set: its order is never stored (cards are dealt lazily)
    stacks      8 tuples of card kinds, bottom first (N, E, S, W, NE, SE, SW, NW)
    discards    the set of cards discarded this round (face up, out of the round)
    played      True once the current player has played or moved this turn
    passes      turns in a row that ended without a play while the stockpile was empty
    no_draw     True when a Lookout (All Clear) was played this turn
    totals      n running scores
    history     one tuple of n round scores per finished round
    last_hands  n card sets: the hands revealed at the end of the previous round (0 before)
"""

from __future__ import annotations

from ...core.api import frozen_state

DEAL = 0  # chance: a set-up card (to a player, then to the recruitment stacks)
DRAW = 1  # chance: the current player draws at the end of their turn
COLLECT = 2  # chance: the Bookie's ability makes the next player draw
PLAY = 3  # the current player plays, moves or ends the turn
RUB_OUT = 4  # the current player chooses a card to discard (Enforcer) or keeps
END = 5

PHASE_NAMES = {
    DEAL: "deal",
    DRAW: "draw",
    COLLECT: "collect",
    PLAY: "play",
    RUB_OUT: "rub out",
    END: "end",
}


@frozen_state
class State:
    phase: int
    round: int
    current: int
    deal: int
    hands: tuple[int, ...]
    unseen: int
    stacks: tuple[tuple[int, ...], ...]
    discards: int
    played: bool
    passes: int
    no_draw: bool
    totals: tuple[int, ...]
    history: tuple[tuple[int, ...], ...]
    last_hands: tuple[int, ...]


# The mutable twin (core.api.frozen_state): ``make`` fills a new object as one of these with
# plain slot stores, then makes it a ``State``; about three times cheaper than the constructor.
_Filling = State._Filling


def make(phase: int, round: int, current: int, deal: int, hands: tuple[int, ...], unseen: int,
         stacks: tuple[tuple[int, ...], ...], discards: int, played: bool, passes: int, no_draw: bool,
         totals: tuple[int, ...], history: tuple[tuple[int, ...], ...], last_hands: tuple[int, ...]) -> State:
    """Returns ``State(phase, round, ...)``, built the cheap way (the rules' hot paths use it)."""
    o = _Filling()
    o.phase = phase
    o.round = round
    o.current = current
    o.deal = deal
    o.hands = hands
    o.unseen = unseen
    o.stacks = stacks
    o.discards = discards
    o.played = played
    o.passes = passes
    o.no_draw = no_draw
    o.totals = totals
    o.history = history
    o.last_hands = last_hands
    o.__class__ = State
    return o  # type: ignore[return-value]
