"""Optional feature crosses a policy computes from an observation tensor (never from a state).

A flat MLP finds products of two parts of a tensor slowly. A policy may name a
transform in its meta (``"features": "kings-kilt-cross"``) that appends such
products, computed from the tensor alone, so the policy stays a function of
the seat's view.

``kings-kilt-cross`` (King's Kilt, the layout in ``games/kings_kilt/view.py``)
appends 3 x 21 values, one per pyramid cell: the cell's clan is one of the
observer's family clans; the observer holds an influence card of the cell's
clan (/5); the cell's clan is a family card another seat turned face up.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

__all__ = ["TRANSFORMS", "feature_transform"]

CELLS = 21
CLANS = 8


def _kings_kilt_cross(players: int) -> tuple[Callable[[np.ndarray], np.ndarray], int]:
    n = players
    pyr = 8 + 2 * n
    family = 263 + 16 * n
    influence = 271 + 16 * n
    revealed = 262 + 8 * n  # seat-major, clan one-hot; seat 0 is the observer

    def transform(x: np.ndarray) -> np.ndarray:
        cells = x[:, pyr : pyr + CELLS * 9].reshape(-1, CELLS, 9)[:, :, :CLANS]  # (B, 21, 8)
        fam = x[:, family : family + CLANS]
        inf = x[:, influence : influence + CLANS]
        rivals = x[:, revealed + CLANS : revealed + CLANS * n].reshape(-1, n - 1, CLANS).max(axis=1)
        crosses = [np.einsum("bck,bk->bc", cells, v) for v in (fam, inf, rivals)]
        return np.concatenate([x, *crosses], axis=1).astype(np.float32, copy=False)

    return transform, 3 * CELLS


TRANSFORMS = {"kings-kilt-cross": _kings_kilt_cross}


def feature_transform(name: str | None, players: int) -> tuple[Callable[[np.ndarray], np.ndarray] | None, int]:
    """Returns (transform of a (B, size) batch, the number of values it appends); (None, 0) for no name."""
    if not name:
        return None, 0
    try:
        return TRANSFORMS[name](players)
    except KeyError:
        raise ValueError(f"no feature transform {name!r}; known: {', '.join(TRANSFORMS)}") from None
