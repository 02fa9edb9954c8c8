"""The King's Kilt heuristic: push your own family's clans up, pull rivals' known clans down.

It reads only the acting player's family and influence cards and public
information, so it plays the same on any state consistent with its view.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import actions as A
from .data import CELLS, HEIGHT, NUM_CLANS, ROW
from .state import FILL, PLAY, REVEAL, State

if TYPE_CHECKING:
    from .game import KingsKilt

# Value of a clan's card by row (King, Guardians, Noblemen, then the commoners, who
# may still rise). The scoring rows carry the points; lower rows a little promise.
_ROW_VALUE = (3.0, 2.0, 1.0, 0.35, 0.15, 0.05)


def _clan_weights(game: KingsKilt, s: State, player: int) -> list[float]:
    w = [0.0] * NUM_CLANS
    for k in s.family[player]:
        w[k] += 1.0
    n = game.num_players
    for q in range(n):
        if q != player:
            for k in s.family[q]:
                if s.revealed[q] >> k & 1:
                    w[k] -= 0.6 / (n - 1) * 2
    return w


def evaluate(game: KingsKilt, s: State, player: int) -> float:
    w = _clan_weights(game, s, player)
    pyr = s.pyramid
    total = 0.0
    for i in range(CELLS):
        k = pyr[i]
        if k >= 0:
            total += w[k & 7] * _ROW_VALUE[ROW[i]]
    return total + 0.05 * sum(s.hands[player])


def heuristic_action(game: KingsKilt, s: State, player: int, rng: random.Random) -> int:
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    if s.phase == REVEAL:
        # Turn up the family clan that stands lowest (tells rivals the least).
        w = [0.0] * NUM_CLANS
        for i in range(CELLS):
            if s.pyramid[i] >= 0:
                w[s.pyramid[i] & 7] += HEIGHT[i]
        return min(legal, key=lambda a: (w[a - A.REVEAL0], a))
    if s.phase in (PLAY, FILL):
        base = evaluate(game, s, player)
        best, best_v = legal[0], -1e9
        for a in legal:
            if a == A.PASS:
                v = base + 0.12  # keeping a card breaks ties; betray only for a real gain
            else:
                v = evaluate(game, game.apply(s, a, player), player)
                if A.BETRAY0 <= a < A.FILL0 and not s.crowned:
                    v -= 0.05
            v += rng.random() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best
    return rng.choice(legal)
