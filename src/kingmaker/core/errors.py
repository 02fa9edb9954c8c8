"""The error tree of Kingmaker.

Every error a game, the registry, a match or a record raises is a ``GameError``.
Each class has a stable ``code`` that the web API returns unchanged::

    GameError                      game/error
    ├── UnknownGameError           game/unknown          (also LookupError)
    ├── InvalidPlayersError        game/invalid_players  (also ValueError)
    ├── InvalidOptionError         game/invalid_option   (also ValueError)
    ├── InvalidStateError          state/invalid         (also ValueError)
    ├── RecordError                record/invalid        (also ValueError)
    ├── ConflictError              match/conflict
    ├── NotFoundError              match/not_found       (a match or seat the server lacks)
    ├── SeatForbiddenError         seat/forbidden        (a seat token without that right)
    ├── BadRequestError            request/invalid       (also ValueError; ill-formed request)
    ├── ServerBusyError            server/busy           (the web server's queues are full; retry)
    └── ActionError                action/error          (also ValueError)
        ├── InvalidActionError     action/invalid        text that does not parse
        └── IllegalActionError     action/illegal        well-formed, not legal now
            ├── NotYourTurnError   action/not_your_turn
            └── GameOverError      action/game_over

Messages are written for a person: they name the action, the player and what
would be accepted instead. They never name another player's secret.
"""

from __future__ import annotations

__all__ = [
    "ActionError",
    "BadRequestError",
    "NotFoundError",
    "SeatForbiddenError",
    "ServerBusyError",
    "ConflictError",
    "GameError",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidPlayersError",
    "InvalidStateError",
    "NotYourTurnError",
    "RecordError",
    "UnknownGameError",
    "error_codes",
]


class GameError(Exception):
    """Root of every error Kingmaker raises on purpose."""

    code = "game/error"

    def __init__(self, message: str, **details: object) -> None:
        super().__init__(message)
        self.message = message
        self.details = details

    def to_dict(self) -> dict:
        """Returns the JSON form the web API sends: code, message and details."""
        return {"code": self.code, "message": self.message, "details": _jsonable(self.details)}


class UnknownGameError(GameError, LookupError):
    """A game id that no registered game has."""

    code = "game/unknown"


class InvalidPlayersError(GameError, ValueError):
    """A player count the game does not allow."""

    code = "game/invalid_players"


class InvalidOptionError(GameError, ValueError):
    """An option the game does not know, or a value it does not allow."""

    code = "game/invalid_option"


class InvalidStateError(GameError, ValueError):
    """JSON that does not describe a valid state of the game."""

    code = "state/invalid"


class RecordError(GameError, ValueError):
    """A game record that cannot be read or replayed."""

    code = "record/invalid"


class ConflictError(GameError):
    """Two moves raced for the same version of a match; this one lost."""

    code = "match/conflict"


class NotFoundError(GameError, LookupError):
    """No match (or seat) with that id."""

    code = "match/not_found"


class SeatForbiddenError(GameError):
    """A seat token does not give the right the request asks for."""

    code = "seat/forbidden"


class BadRequestError(GameError, ValueError):
    """A request that is not well formed (missing or ill-typed fields)."""

    code = "request/invalid"


class ServerBusyError(GameError):
    """The server has too much work queued (bots or replays); try again later (HTTP 503)."""

    code = "server/busy"


class ActionError(GameError, ValueError):
    """Base of the errors about one action."""

    code = "action/error"


class InvalidActionError(ActionError):
    """Text that does not parse as an action of this game."""

    code = "action/invalid"


class IllegalActionError(ActionError):
    """A well-formed action that is not legal in this state."""

    code = "action/illegal"


class NotYourTurnError(IllegalActionError):
    """A player tried to act when it is not their turn."""

    code = "action/not_your_turn"


class GameOverError(IllegalActionError):
    """An action was tried on a finished game."""

    code = "action/game_over"


def error_codes() -> dict[str, type[GameError]]:
    """Returns every error code with its class."""
    out: dict[str, type[GameError]] = {}
    stack: list[type[GameError]] = [GameError]
    while stack:
        cls = stack.pop()
        out[cls.code] = cls
        stack.extend(cls.__subclasses__())
    return out


def _jsonable(value: object) -> object:
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)
