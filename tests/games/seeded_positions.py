"""Decision points of seeded games, mostly heuristic moves: where a fast bot is compared with its reference."""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from typing import Any

from kingmaker.core.api import CHANCE, TERMINAL, Game
from kingmaker.core.match import sample_chance


def positions(
    g: Game, seed: int, games: int, heuristic: Callable[..., int], share: float
) -> Iterator[tuple[Any, int]]:
    """Yields (state, player) for every acting player at every decision of ``games`` seeded games.

    Each move is ``heuristic(g, s, p, rng)`` with probability ``share``, else a random legal
    move; at a simultaneous node every acting player moves in turn.
    """
    rng = random.Random(seed)
    for _ in range(games):
        s = g.new_initial_state()
        while g.current_player(s) != TERMINAL:
            cp = g.current_player(s)
            if cp == CHANCE:
                s = g.apply(s, sample_chance(g.chance_outcomes(s), rng))
                continue
            ps = [cp] if cp >= 0 else list(g.acting_players(s))
            for p in ps:
                yield s, p
            for p in ps:
                legal = g.legal_actions(s, p)
                a = heuristic(g, s, p, random.Random(rng.random())) if rng.random() < share else rng.choice(legal)
                s = g.apply(s, a, p)
