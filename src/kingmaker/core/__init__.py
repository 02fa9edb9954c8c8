"""The core of Kingmaker: contract, errors, registry, matches, records, conformance.

``__all__`` below is the package's public list: ``kingmaker`` re-exports
exactly these names (and ``__version__``); tests/test_public_api.py guards it.
"""

from .api import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Option, frozen_state, node_name
from .errors import (
    ActionError,
    BadRequestError,
    ConflictError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidPlayersError,
    InvalidStateError,
    NotFoundError,
    NotYourTurnError,
    RecordError,
    SeatForbiddenError,
    UnknownGameError,
    error_codes,
)
from .match import Agent, LogEntry, Match, Observation, sample_chance
from .records import Record
from .registry import available_games, game_class, make, register

__all__ = [
    "CHANCE",
    "SIMULTANEOUS",
    "TERMINAL",
    "ActionError",
    "BadRequestError",
    "Agent",
    "ConflictError",
    "Game",
    "GameError",
    "GameInfo",
    "GameOverError",
    "IllegalActionError",
    "InvalidActionError",
    "InvalidOptionError",
    "InvalidPlayersError",
    "InvalidStateError",
    "LogEntry",
    "NotFoundError",
    "Match",
    "NotYourTurnError",
    "Observation",
    "Option",
    "Record",
    "RecordError",
    "SeatForbiddenError",
    "UnknownGameError",
    "available_games",
    "error_codes",
    "frozen_state",
    "game_class",
    "make",
    "node_name",
    "register",
    "sample_chance",
]
