"""The King's Kilt heuristic: push your own family's clans up, pull rivals' known clans down.

It reads only the acting player's family and influence cards and public
information, so it plays the same on any state consistent with its view.

In play (and when filling a vacuum) it scores every legal move by ``evaluate``
of the position after it. The score is computed incrementally, without applying
the move: an action only moves cards within the pyramid (an ascent or a fill
moves one card up, a betrayal removes one) and then lets the vacuum chain run
(a lone card beneath moves up, the draw pile's face-up top card fills a base
cell), and it spends at most one influence card; the families and the revealed
cards, hence the clan weights, do not change. So a move's score, less the
evaluation now (the same for every move), is the value of those few card moves
(``_chain``) and of the card spent. In play the moves are found here, in the
order of ``rules.legal_actions`` (a tiny random tie-break is drawn per move in
that order), rather than listed first and scored after. That gives the same
choice, and the same random draws, as applying each legal move and evaluating
the result (``tests/agents/test_fast_heuristics.py`` keeps that slow form as
the reference).
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

from . import actions as A
from .data import ASCEND, BELOW, CELLS, HEIGHT, NUM_CLANS, ROW
from .rules import ascents as open_ascents
from .rules import betray_targets
from .state import FILL, PLAY, REVEAL, State

if TYPE_CHECKING:
    from .game import KingsKilt

# Value of a clan's card by row (King, Guardians, Noblemen, then the commoners, who
# may still rise). The scoring rows carry the points; lower rows a little promise.
_ROW_VALUE = (3.0, 2.0, 1.0, 0.35, 0.15, 0.05)
_CELL_VALUE = tuple(_ROW_VALUE[ROW[i]] for i in range(CELLS))
_BETRAY0, _FILL0, _PASS = A.BETRAY0, A.FILL0, A.PASS


def _clan_weights(game: KingsKilt, s: State, player: int) -> list[float]:
    """Returns how much ``player`` wants each clan up: +1 per own family card, less for each
    rival's revealed one. Kept by the identity of the families and revealed tuples (a move
    passes them on unchanged), so a rollout computes them once per player (do not mutate)."""
    family, revealed = s.family, s.revealed
    key = (id(family), id(revealed), player)
    hit = _WEIGHTS.get(key)
    if hit is not None and hit[0] is family and hit[1] is revealed:
        return hit[2]
    w = _weights(game, s, player)
    if len(_WEIGHTS) >= 4096:
        _WEIGHTS.clear()
    _WEIGHTS[key] = (family, revealed, w)  # holding the tuples keeps their ids from being reused
    return w


_WEIGHTS: dict[tuple[int, int, int], tuple[tuple, tuple, list[float]]] = {}


def _weights(game: KingsKilt, s: State, player: int) -> list[float]:
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


def _chain(pyr: tuple[int, ...], v: int, w: list[float], top: int) -> float:
    """Returns the change of the evaluation when cell ``v`` empties and the vacuum chain runs.

    As ``rules.apply``: while exactly one card lies beneath the vacuum it moves up
    (two wait for the player's choice, none leave a hole); an empty base cell takes
    the draw pile's face-up top card, if any. Only cells below ``v`` are read, and
    a move never changes them, so the value holds for an ascent from ``v`` too.
    """
    delta = 0.0
    while True:
        below = BELOW[v]
        if not below:
            if top >= 0:
                delta += w[top & 7] * _CELL_VALUE[v]
            return delta
        a, b = below
        ka, kb = pyr[a], pyr[b]
        if ka >= 0:
            if kb >= 0:
                return delta
            delta += w[ka & 7] * (_CELL_VALUE[v] - _CELL_VALUE[a])
            v = a
        elif kb >= 0:
            delta += w[kb & 7] * (_CELL_VALUE[v] - _CELL_VALUE[b])
            v = b
        else:
            return delta


def heuristic_action(game: KingsKilt, s: State, player: int, rng: random.Random) -> int:
    if s.phase == PLAY and player == s.current and (s.top >= 0 or s.pile_n == 0):
        return _play(game, s, player, rng)
    legal = game.legal_actions(s, player)
    if len(legal) == 1:
        return legal[0]
    phase = s.phase
    if phase == REVEAL:
        # Turn up the family clan that stands lowest (tells rivals the least).
        w = [0.0] * NUM_CLANS
        for i in range(CELLS):
            if s.pyramid[i] >= 0:
                w[s.pyramid[i] & 7] += HEIGHT[i]
        return min(legal, key=lambda a: (w[a - A.REVEAL0], a))
    if phase == FILL:
        # Which card beneath moves up: scored as the change of evaluate() it makes (the
        # evaluation before is common to both, so it is left out).
        w = _clan_weights(game, s, player)
        pyr = s.pyramid
        top = s.top
        up = _CELL_VALUE[s.vacuum]
        noise = rng.random
        best, best_v = legal[0], -1e9
        for a in legal:
            src = a - _FILL0
            v = w[pyr[src] & 7] * (up - _CELL_VALUE[src]) + _chain(pyr, src, w, top) + noise() * 1e-6
            if v > best_v:
                best, best_v = a, v
        return best
    return rng.choice(legal)


def _play(game: KingsKilt, s: State, player: int, rng: random.Random) -> int:
    """The choice in play: the legal moves, found in ``rules.legal_actions``' order, each
    scored as evaluate() after it less evaluate() now (see the module's docstring)."""
    pyr = s.pyramid
    crowned = s.crowned
    ascents = [] if crowned else open_ascents(pyr)
    hand = s.hands[player]
    # (clan, cells it may betray): a card next to one of the clan's, or any when it holds the throne
    targets = betray_targets(pyr, hand) if any(hand) else []
    betrayals = sum(mask.bit_count() for _, mask in targets)
    if len(ascents) + betrayals + crowned <= 1:  # one legal move (passing when nothing else is)
        if ascents:
            return ascents[0]
        if betrayals:
            k, mask = targets[0]
            return _BETRAY0 + k * CELLS + mask.bit_length() - 1
        return _PASS
    w = _clan_weights(game, s, player)
    top = s.top
    chains: dict[int, float] = {}
    noise = rng.random
    best, best_v = -1, -1e9
    for a in ascents:
        src = a >> 1
        d = chains.get(src)
        if d is None:
            d = chains[src] = _chain(pyr, src, w, top)
        v = w[pyr[src] & 7] * (_CELL_VALUE[ASCEND[a][0]] - _CELL_VALUE[src]) + d + noise() * 1e-6
        if v > best_v:
            best, best_v = a, v
    if targets:
        cost = 0.05 if crowned else 0.1  # the card spent; before the crowning, the betrayal
        scores: dict[int, float] = {}  # a betrayal's score depends on its target cell only
        for k, mask in targets:
            base = _BETRAY0 + k * CELLS
            while mask:
                low = mask & -mask
                mask ^= low
                t = low.bit_length() - 1
                v = scores.get(t)
                if v is None:
                    d = chains.get(t)
                    if d is None:
                        d = chains[t] = _chain(pyr, t, w, top)
                    v = scores[t] = d - w[pyr[t] & 7] * _CELL_VALUE[t] - cost
                v += noise() * 1e-6
                if v > best_v:
                    best, best_v = base + t, v
    if crowned:  # passing keeps a card: it breaks ties, so betray only for a real gain
        if 0.12 + noise() * 1e-6 > best_v:
            best = _PASS
    return best
