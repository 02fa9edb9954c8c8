"""Gymnasium spaces of the adapters (PettingZoo and Gymnasium envs share them)."""

from __future__ import annotations

import numpy as np
from gymnasium import spaces

from ..core.api import Game

__all__ = ["observation_space"]


def observation_space(game: Game) -> spaces.Dict:
    """Returns the Dict space of one seat's observations: the tensor and the action mask."""
    info = game.info
    return spaces.Dict(
        {
            "observation": spaces.Box(-np.inf, np.inf, shape=tuple(info.observation_shape), dtype=np.float32),
            "action_mask": spaces.Box(0, 1, shape=(info.num_distinct_actions,), dtype=np.int8),
        }
    )
