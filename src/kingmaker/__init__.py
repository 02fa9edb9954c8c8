"""Kingmaker: five crime-and-crown tabletop games behind one OpenSpiel-style contract.

    >>> import kingmaker
    >>> game = kingmaker.make("kings-kilt", players=3)
    >>> s = game.new_initial_state()
    >>> game.current_player(s) == kingmaker.CHANCE
    True
"""

from .core import (
    CHANCE,
    SIMULTANEOUS,
    TERMINAL,
    ActionError,
    Agent,
    ConflictError,
    Game,
    GameError,
    GameInfo,
    GameOverError,
    IllegalActionError,
    InvalidActionError,
    InvalidOptionError,
    InvalidPlayersError,
    InvalidStateError,
    LogEntry,
    Match,
    NotYourTurnError,
    Observation,
    Option,
    Record,
    RecordError,
    UnknownGameError,
    available_games,
    error_codes,
    frozen_state,
    game_class,
    make,
    node_name,
    register,
    sample_chance,
)

__version__ = "0.1.0"

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
    "__version__",
    "available_games",
    "error_codes",
    "frozen_state",
    "game_class",
    "make",
    "node_name",
    "register",
    "sample_chance",
]
