"""King's Kilt (2-4 players): registers the game ``kings-kilt``.

Modules: ``state`` (the frozen state), ``data`` (cards and the pyramid),
``actions`` (ints and notation), ``rules`` (the rules as functions), ``view``
(views, sampling, the observation tensor and its encoding table), ``bot``
(the heuristic), ``render`` (text pictures) and ``game`` (the ``Game`` class).
"""

from .game import KingsKilt

__all__ = ["KingsKilt"]
