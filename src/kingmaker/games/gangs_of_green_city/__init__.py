"""Gangs Of Green City (2-5 players, co-operative): registers the game ``gangs-of-green-city``."""

from .game import GangsOfGreenCity

__all__ = ["GangsOfGreenCity"]
