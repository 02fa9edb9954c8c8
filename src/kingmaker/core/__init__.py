"""The core of Kingmaker: contract, errors, registry, matches, records, conformance."""

from .api import CHANCE, SIMULTANEOUS, TERMINAL, Game, GameInfo, Option, frozen_state, node_name
from .errors import (
    ActionError,
    ConflictError,
    GameError,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidPlayersError,
    InvalidStateError,
    NotYourTurnError,
    RecordError,
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
    "Match",
    "NotYourTurnError",
    "Observation",
    "Option",
    "Record",
    "RecordError",
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
