"""San Quentin Kings (3-5 players): registers the game ``san-quentin-kings``."""

from .rules import SanQuentinKings

__all__ = ["SanQuentinKings"]
