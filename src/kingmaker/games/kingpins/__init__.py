"""Kingpins (2-4 players): registers the game ``kingpins``."""

from .rules import Kingpins

__all__ = ["Kingpins"]
