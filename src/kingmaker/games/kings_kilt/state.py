"""The King's Kilt state: a frozen value of ints and tuples.

Fields (n players)::

    phase       SETUP_FAMILY, SETUP_INFLUENCE, SETUP_ROW, PLAY, FILL, REVEAL or END
    deal        how many cards of the current set-up step are dealt
    pyramid     21 card kinds (-1 empty), cells numbered as in data.py
    top         the face-up top card of the draw pile, -1 if unknown or none
    unseen      16 counts: cards in the draw pile under its top (during set-up,
                the undealt members too); their order is never stored
    pile_n      sum(unseen), kept for speed
    discards    8 counts: influence cards discarded (face up, by clan)
    removed     16 counts: betrayed cards, out of the game
    family      n sorted tuples of clans (3 each once dealt); in deal order with
                family_deal=one-per-clan (the first two came from its pile)
    revealed    n bitmasks over clans: family cards turned face up
    hands       n tuples of 8 counts: influence cards by clan
    current     the active player
    vacuum      the empty cell being filled, -1 if none
    crowned     1 once a card has reached the top
    noblemen    player who won the Noblemen reward, -1 if nobody yet
    guardians   player who won the Guardians reward, -1 if nobody yet
    pending     players who must each turn one family card face up, in order
    passed      bitmask of players who have passed (they are out)
"""

from __future__ import annotations

from ...core.api import frozen_state

SETUP_FAMILY = 0
SETUP_INFLUENCE = 1
SETUP_ROW = 2
PLAY = 3
FILL = 4
REVEAL = 5
AFTER = 6  # internal: an action is complete, not yet handed on (never stored)
END = 7

PHASE_NAMES = {
    SETUP_FAMILY: "deal family",
    SETUP_INFLUENCE: "deal influence",
    SETUP_ROW: "lay base row",
    PLAY: "play",
    FILL: "fill vacuum",
    REVEAL: "reveal family",
    END: "end",
}


@frozen_state
class State:
    phase: int
    deal: int
    pyramid: tuple[int, ...]
    top: int
    unseen: tuple[int, ...]
    pile_n: int
    discards: tuple[int, ...]
    removed: tuple[int, ...]
    family: tuple[tuple[int, ...], ...]
    revealed: tuple[int, ...]
    hands: tuple[tuple[int, ...], ...]
    current: int
    vacuum: int
    crowned: int
    noblemen: int
    guardians: int
    pending: tuple[int, ...]
    passed: int
