"""The public conformance suite (see ``kingmaker.core.conformance``)."""

from .core.conformance import (
    ConformanceError,
    GameReport,
    HypothesisChooser,
    SeededChooser,
    check_game,
    play_checked_game,
)

__all__ = [
    "ConformanceError",
    "GameReport",
    "HypothesisChooser",
    "SeededChooser",
    "check_game",
    "play_checked_game",
]
