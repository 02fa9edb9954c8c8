"""Kingpin (2 players): registers the game ``kingpin``.

Modules: ``state`` (the frozen state), ``data`` (tiles and boards), ``actions``
(ints and notation), ``rules`` (the rules as functions of the game and a
state), ``view`` (views, log lines, outcome, the observation tensor and its
encoding table), ``bot`` (the heuristic and the search's evaluation),
``render`` (text pictures) and ``game`` (the ``Game`` class).
"""

from .game import Kingpin

__all__ = ["Kingpin"]
