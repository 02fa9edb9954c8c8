"""The Kingpin state: a frozen value of ints, strings and tuples.

Fields::

    phase      START (chance: who starts), CHOOSE (a player picks a mafia), DRAW
               (chance: the mover draws a face-down tile face up), PLAY or END
    current    the player to act (the drawer at a DRAW node; 0 at START)
    mafia      (m0, m1): index of each player's mafia in the game's tile set, -1 unchosen
    board      one entry per square: -1 empty, else tile * 4 + facing (N 0, E 1, S 2, W 3)
    hand       per player, the sorted ids of their face-up tiles not yet played
    deck       per player, the sorted ids of their face-down tiles. Which tiles
               they are is public (a mafia's eight tiles are known); their ORDER
               is never stored: a draw is a chance node over this set
    track      per player, the action track (movement actions left; with
               long_night, movement actions left before dawn)
    winner     -1 while the game goes on, else the winning player
    reason     why the game ended ('' while it goes on)
    last_dead  tile ids liquidated by the last action (for views and logs)
    exited     the tile that left the board past the enemy's area (-1: none)
"""

from __future__ import annotations

from ...core.api import frozen_state

CHOOSE = 0
DRAW = 1
PLAY = 2
END = 3
START = 4  # chance: "In any random way choose the player, who will start the game."

PHASE_NAMES = {START: "choose the starting player", CHOOSE: "choose mafia", DRAW: "draw", PLAY: "play", END: "end"}

# Reasons the game ended.
EXIT = "exit"                  # a tile left the board past the enemy's area
NO_MANS_LAND = "no-mans-land"  # three tiles on No Man's Land, none of the enemy's
LIQUIDATION = "liquidation"    # every enemy gangster liquidated
OUT_OF_ACTIONS = "out-of-actions"  # the loser's action token went below 1
STUCK = "no-action"            # the loser had no action to take (ruling KP-R7)
DAWN = "dawn"                  # A Very Long Night ended at dawn (ruling KP-R9)


@frozen_state
class State:
    phase: int
    current: int
    mafia: tuple[int, ...]
    board: tuple[int, ...]
    hand: tuple[tuple[int, ...], ...]
    deck: tuple[tuple[int, ...], ...]
    track: tuple[int, ...]
    winner: int
    reason: str
    last_dead: tuple[int, ...]
    exited: int = -1


# The mutable twin (core.api.frozen_state): ``State.__init__`` fills the new object as one of
# these with plain slot stores, then makes it a ``State`` again (several times cheaper than a
# frozen dataclass's ``object.__setattr__`` per field; the value is the same).
_Filling = State._Filling
_set = object.__setattr__


def _init(
    self: State, phase: int, current: int, mafia: tuple[int, ...], board: tuple[int, ...],
    hand: tuple[tuple[int, ...], ...], deck: tuple[tuple[int, ...], ...], track: tuple[int, ...],
    winner: int, reason: str, last_dead: tuple[int, ...], exited: int = -1,
) -> None:
    _set(self, "__class__", _Filling)
    self.phase = phase
    self.current = current
    self.mafia = mafia
    self.board = board
    self.hand = hand
    self.deck = deck
    self.track = track
    self.winner = winner
    self.reason = reason
    self.last_dead = last_dead
    self.exited = exited
    self.__class__ = State


_init.__qualname__ = "State.__init__"
State.__init__ = _init  # type: ignore[method-assign]
