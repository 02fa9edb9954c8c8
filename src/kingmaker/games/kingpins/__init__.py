"""Kingpins (2-4 players): registers the game ``kingpins``.

Modules: ``state`` (the frozen state), ``data`` (the designed deck),
``actions`` (ints and notation), ``rules`` (the rules as functions of the game
and a state), ``view`` (views, sampling, log lines, outcome, the observation
tensor and its encoding table), ``bot`` (the heuristic and the search's
evaluation), ``render`` (text pictures) and ``game`` (the ``Game`` class).
"""

from .game import Kingpins

__all__ = ["Kingpins"]
