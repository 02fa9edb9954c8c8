"""The registry of games: games register themselves when imported.

``kingmaker.games`` imports every game package below it, so ``available_games``
and ``make`` see all of them without a central list.
"""

from __future__ import annotations

from typing import Any

from .api import Game, check_options
from .errors import UnknownGameError

__all__ = ["available_games", "game_class", "make", "register"]

_GAMES: dict[str, type[Game]] = {}
_loaded = False


def register(cls: type[Game]) -> type[Game]:
    """Registers a game class under its ``id`` (use as a class decorator)."""
    if not cls.id:
        raise ValueError(f"{cls.__name__} has no id")
    other = _GAMES.get(cls.id)
    if other is not None and other is not cls and other.__qualname__ != cls.__qualname__:
        raise ValueError(f"game id {cls.id!r} is registered twice ({other.__name__}, {cls.__name__})")
    _GAMES[cls.id] = cls
    return cls


def _load() -> None:
    global _loaded
    if not _loaded:
        _loaded = True
        import kingmaker.games  # noqa: F401  (imports every game package)


def available_games() -> list[str]:
    """Returns the ids of every registered game, sorted."""
    _load()
    return sorted(_GAMES)


def game_class(game_id: str) -> type[Game]:
    """Returns the class registered under ``game_id``; raises UnknownGameError."""
    _load()
    cls = _GAMES.get(game_id)
    if cls is None:
        cls = _GAMES.get(game_id.strip().lower().replace("_", "-").replace(" ", "-").replace("'", ""))
    if cls is None:
        raise UnknownGameError(
            f"no game called {game_id!r}; available: {', '.join(sorted(_GAMES))}",
            game=game_id,
            allowed=sorted(_GAMES),
        )
    return cls


def make(game_id: str, players: int | None = None, **options: Any) -> Game:
    """Returns the game ``game_id`` for ``players`` players with the given options.

    Raises:
        UnknownGameError: no such game.
        InvalidPlayersError: the game does not allow that many players.
        InvalidOptionError: an unknown option or a value it does not allow.
    """
    cls = game_class(game_id)
    n, values = check_options(cls, players, options)
    return cls(n, **values)
