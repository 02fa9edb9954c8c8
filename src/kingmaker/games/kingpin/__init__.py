"""Kingpin (2 players): registers the game ``kingpin``."""

from .rules import Kingpin

__all__ = ["Kingpin"]
