"""Gangs of Green City (2-5 players, co-operative): registers the game ``gangs-of-green-city``.

The package composes as a tree: ``state``, ``actions`` and ``data`` at the bottom;
``resolve`` (how a move or chance outcome changes a state); ``rules`` (the rules
as functions of the game and a state, on ``resolve``); ``observe`` (the
observation tensor, 1148 seat-relative floats whose layout its docstring gives, and
the information state string); ``view`` (the view, the log text of every event, and
the two functions of ``observe``); ``bot`` (the team heuristic); ``render`` (the text
board with its legend); and ``game``, whose ``GangsOfGreenCity`` class binds them.
Rulings: ``docs/rulings/gangs-of-green-city.md``.
"""

from .game import GangsOfGreenCity

__all__ = ["GangsOfGreenCity"]
