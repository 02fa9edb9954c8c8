"""The last observation tensor per (game, seat), for encoders that rewrite only what changed.

A learning loop asks for the observation of one seat after every step, and a step changes
a few fields of the state. An encoder with a ``full`` form (from zero) and an ``update``
form (the previous state's tensor turned into this state's) keeps one ``LastTensors`` and
asks it; it answers with a fresh copy every time, so callers may change what they get.
"""

from __future__ import annotations

from array import array
from collections.abc import Callable
from typing import Any

__all__ = ["LastTensors"]


class LastTensors:
    """The last (state, tensor) per (game, seat), at most ``limit`` of them.

    Safe to share between threads: an entry is one tuple, read once, and a game is held
    by its entry, so its ``id`` is not reused while the entry lives.
    """

    __slots__ = ("_last", "_limit")

    def __init__(self, limit: int = 256) -> None:
        self._last: dict[tuple[int, int], tuple[Any, Any, array]] = {}
        self._limit = limit

    def tensor(
        self,
        game: Any,
        s: Any,
        player: int,
        full: Callable[[Any, Any, int], array],
        update: Callable[[Any, Any, int, array, Any], None],
        same: Callable[[Any, Any], bool] | None = None,
    ) -> array:
        """Returns ``player``'s tensor of ``s``: ``update(game, s, player, t, prev)`` on a copy of
        the last one when there is one for this game and seat (and ``same(prev, s)`` holds,
        when given), else ``full(game, s, player)``."""
        key = (id(game), player)
        last = self._last.get(key)
        if last is not None and last[0] is game and (same is None or same(last[1], s)):
            out = last[2][:]
            if last[1] is not s:
                update(game, s, player, out, last[1])
        else:
            out = full(game, s, player)
        if len(self._last) >= self._limit:
            self._last.clear()
        self._last[key] = (game, s, out[:])  # a copy: the caller may change the one returned
        return out
