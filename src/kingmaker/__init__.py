"""Kingmaker: five crime-and-crown tabletop games behind one OpenSpiel-style contract.

    >>> import kingmaker
    >>> game = kingmaker.make("kings-kilt", players=3)
    >>> s = game.new_initial_state()
    >>> game.current_player(s) == kingmaker.CHANCE
    True
"""

from . import core
from .core import *  # noqa: F403  (the public names are core's: one list, in core/__init__.py)

__version__ = "0.1.0"

__all__ = [*core.__all__, "__version__"]
