"""What a seat may infer from its rivals' play: a belief for the search's determinisations.

The view is a snapshot: it shows the stacks and the hand sizes, not how the
rivals played. But every play and every end of turn is public, and a rival who
ends a turn while holding a card that fits a stack has passed up a play that
sheds points. The heuristic bot never does: it ends a turn only when no card
but a Femme Fatale fits a stack or an empty space, and no stack can be moved
(it would move one, then fill the space). Most players rarely do.

So when a rival ends a turn, this module notes the kinds that would have fitted
then (``belief_update``); until the rival's next decision, its hand holds none
of them except the cards it has received since (the draw that ends the turn, a
Bookie's Collect). ``belief_sample`` deals the hidden cards again with those
notes: each noted rival's free cards first (any card), then cards it could not
have played, in the order of a shuffled pool, so that among the allowed cards
the deal is uniform; the other rivals and the stockpile take the rest. Where
the cards that remain cannot meet a note (a rival that does not play like the
model), that rival is dealt without it.

The notes are a tuple of one entry per seat: None, or ``(forbidden, free)`` with
``forbidden`` a bit set of kinds (bit k: kind k) and ``free`` the cards received
since. Both functions read only public parts of the state they are given (any
determinisation of the seat's view), so they never use hidden information.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from ...core.fastrand import shuffle
from . import actions as A
from .bot import _find_moves
from .data import KIND_BITS, KINGPIN_BITS, NOT_FF_BITS, ONTO_BITS, from_kinds, kinds
from .state import COLLECT, DEAL, DRAW, END, PLAY, State, make

if TYPE_CHECKING:
    from .game import Kingpins

Notes = tuple  # one entry per seat: None or (forbidden kinds as bits, cards received since)


def _takes(stacks: tuple[tuple[int, ...], ...]) -> int:
    """Returns the kinds (as bits) that some stack takes: one lower in the opposite colour than
    its top card; an empty original space any card, an empty corner a kingpin."""
    fits = 0
    for t, st in enumerate(stacks):
        if st:
            fits |= ONTO_BITS[st[-1]]
        else:
            fits |= KIND_BITS if t < 4 else KINGPIN_BITS
    return fits


def forbidden_at_end(s: State) -> int:
    """Returns the kinds (as bits) a player who ends the turn in ``s`` would have played:
    every card but a Femme Fatale that fits a stack, and every such card when a stack can be
    moved (the heuristic moves it, then fills the space it leaves)."""
    if _find_moves(s.stacks):
        return NOT_FF_BITS
    return _takes(s.stacks) & NOT_FF_BITS


def belief_update(game: Kingpins, notes: Notes | None, s: State, observer: int, player: int,
                  action: int | None) -> Notes:
    """Returns the notes after ``player`` took ``action`` in ``s`` (as ``observer`` saw it).

    ``s`` is any determinisation of the observer's view before the action; ``action`` is
    None where the observer does not see it (chance draws). Only public facts are read:
    the phase, whose turn it is, the stacks.
    """
    n = game.num_players
    if notes is None or len(notes) != n or s.phase == DEAL or s.phase == END:
        notes = (None,) * n  # a new round: nothing known yet
    if player >= 0:
        if player == observer:
            return notes
        if s.phase == PLAY and action == A.END_TURN:
            entry: tuple[int, int] | None = (forbidden_at_end(s), 0)
        else:
            entry = None  # the rival plays again: what it held at its last end of turn is stale
        return notes[:player] + (entry,) + notes[player + 1:]
    # Chance: a card drawn to the player at the end of its turn, or to the next one (Collect).
    if s.phase == DRAW:
        q = s.current
    elif s.phase == COLLECT:
        q = (s.current + 1) % n
    else:
        return notes
    old = notes[q]
    if old is None or q == observer:
        return notes
    return notes[:q] + ((old[0], old[1] + 1),) + notes[q + 1:]


def belief_sample(game: Kingpins, s: State, observer: int, notes: Notes | None, rng: random.Random) -> State:
    """Deals the cards ``observer`` cannot see again, following the notes (see the module).

    ``s`` is a determinisation of the observer's view; the result has the same view (the
    same hand sizes, stockpile size and public cards) and depends only on it, the notes
    and ``rng``.
    """
    if s.phase == END or not notes or not any(notes):
        return s
    n = len(s.hands)
    hands = list(s.hands)
    pool = kinds(s.unseen)
    for q in range(n):
        if q != observer:
            pool += kinds(hands[q])
    pool.sort()
    shuffle(pool, rng)
    left = pool
    order = [q for q in range(n) if q != observer and notes[q] is not None]
    order += [q for q in range(n) if q != observer and notes[q] is None]
    for q in order:
        size = hands[q].bit_count()
        note = notes[q]
        if note is None:
            hands[q] = from_kinds(left[:size])
            left = left[size:]
            continue
        forbidden, free = note
        free = min(free, size)
        took = left[:free]
        rest = left[free:]
        need = size - free
        allowed = [i for i, k in enumerate(rest) if not forbidden >> k & 1][:need]
        if len(allowed) < need:  # the note cannot be met: deal this rival without it
            took = left[:size]
            left = left[size:]
        else:
            chosen = set(allowed)
            took = took + [rest[i] for i in allowed]
            left = [k for i, k in enumerate(rest) if i not in chosen]
        hands[q] = from_kinds(took)
    return make(s.phase, s.round, s.current, s.deal, tuple(hands), from_kinds(left), s.stacks,
                s.discards, s.played, s.passes, s.no_draw, s.totals, s.history, s.last_hands)
