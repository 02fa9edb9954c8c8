"""The game's hot functions as the search calls them: looked up once, bound to the game.

The ``Game`` base class forwards ``heuristic_action``, ``evaluate`` and
``information_state_string`` to the game's ``bot`` and ``views`` modules; the
search calls the module's function directly (one call fewer per use) unless the
game's class or the instance replaces the method. A game may also give the search
its own chance sampler and heuristic rollout (Kingpins does, issue 16 §1).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any

from ..core.api import Game

__all__ = [
    "bound_chance",
    "bound_evaluate",
    "bound_heuristic",
    "bound_info_key",
    "bound_rollout",
    "win_shares",
]


def _delegated(game: Game, method: str, module: Any, name: str) -> Callable[..., Any] | None:
    """Returns ``module.<name>`` bound to ``game`` when ``game.<method>`` only forwards to it, else None.

    The ``Game`` base class forwards ``heuristic_action``, ``evaluate`` and
    ``information_state_string`` to the game's ``bot`` and ``views`` modules; the
    search calls the module's function directly (one call fewer per use) unless
    the game's class or the instance replaces the method.
    """
    if method in vars(game) or getattr(type(game), method) is not getattr(Game, method):
        return None
    fn = getattr(module, name, None)
    return None if fn is None else partial(fn, game)


def bound_heuristic(game: Game) -> Callable[[Any, int, random.Random], int]:
    """Returns ``game.heuristic_action`` as the fastest callable ``(state, player, rng) -> action``."""
    return _delegated(game, "heuristic_action", game.bot, "heuristic_action") or game.heuristic_action


def win_shares(returns: Sequence[float]) -> list[float]:
    """Returns each player's share of the win: 1/k to each of the k greatest returns, else 0."""
    top = max(returns)
    k = sum(1 for x in returns if x == top)
    return [1.0 / k if x == top else 0.0 for x in returns]


def bound_evaluate(game: Game, win: bool = False) -> Callable[[Any], tuple[float, ...] | None] | None:
    """Returns ``game.evaluate`` as the fastest callable, or None when the game judges no state.

    With ``win`` (the ``win`` goal), the game's ``bot.win_chances(game, s)`` when it has
    one: each player's chance of winning, in the game's return units (lo to hi)."""
    if win:
        fn = getattr(game.bot, "win_chances", None)
        if fn is not None:
            return partial(fn, game)
    if "evaluate" not in vars(game) and type(game).evaluate is Game.evaluate:
        fn = getattr(game.bot, "evaluate_state", None)
        return None if fn is None else partial(fn, game)
    return game.evaluate


def bound_chance(game: Game) -> Callable[[Any, random.Random], int] | None:
    """Returns the game's own ``sample_chance_outcome(s, rng)`` or None. It must draw as
    ``sample_chance(game.chance_outcomes(s), rng)`` does (same outcome, same stream after)."""
    return getattr(game, "sample_chance_outcome", None)


def bound_rollout(game: Game) -> Callable[..., tuple[Any, int, int, Any]] | None:
    """Returns the game's own heuristic rollout ``bot.rollout`` bound to ``game``, or None.

    ``bot.rollout(game, s, rng, rolled, steps, overrun, cut, evaluate, deadline, clock)``
    returns ``(state, cp, steps, estimate)`` after the steps of the rollout loop of
    ``_search_one`` with the heuristic policy (the same moves, draws, cut and stops; cp is
    TERMINAL where the game ended); used only where the game overrides neither
    ``heuristic_action`` nor ``evaluate``."""
    fn = getattr(game.bot, "rollout", None)
    if fn is None or _delegated(game, "heuristic_action", game.bot, "heuristic_action") is None:
        return None
    if "evaluate" in vars(game) or type(game).evaluate is not Game.evaluate:
        return None
    return partial(fn, game)


def bound_info_key(game: Game) -> Callable[[Any, int | None], str]:
    """Returns ``game.information_state_string`` as the fastest callable."""
    return (
        _delegated(game, "information_state_string", game.views, "information_state_string")
        or game.information_state_string
    )
