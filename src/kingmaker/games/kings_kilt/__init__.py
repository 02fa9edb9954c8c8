"""King's Kilt (2-4 players): registers the game ``kings-kilt``."""

from .rules import KingsKilt

__all__ = ["KingsKilt"]
