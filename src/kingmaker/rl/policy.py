"""A small masked policy network in numpy, saved as ``.npz``.

The network reads a game's observation tensor and gives a probability for
every action of ``0..num_distinct_actions-1``; illegal actions get 0 (their
logits are masked before the softmax). A value head estimates the seat's
return (the training baseline)::

    x (observation_shape, flat) -> tanh(x W0 + b0) -> ... -> logits = h Wp + bp
                                                        \\-> value  = h Wv + bv

A file holds the weights (float32 arrays ``W0, b0, ..., Wp, bp, Wv, bv``) and
``meta``, a JSON text naming the game, its player count and options, the
observation size, the action count and how it was trained. ``policy:<file>``
(``kingmaker.agents.policy``) plays a file as an agent; shipped policies live
in ``kingmaker/rl/policies/`` and are named by their file stem
(``policy:kings-kilt-2p``).
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from ..core.api import Game
from ..core.errors import GameError
from .features import feature_transform

__all__ = ["FLUSH", "POLICY_DIR", "MaskedPolicy", "find_policy", "flush_tiny"]

POLICY_DIR = Path(__file__).parent / "policies"
NEG = -1e9  # the logit of a masked (illegal) action
# A read weight smaller than this is set to 0. Training leaves many such weights (columns of
# actions seldom seen drift toward 0), and their products are subnormal floats, which x86
# processors compute many times slower: Kingpins' policy head product, 68,000 of its 175,000
# weights below 1e-30, took some 50 times the CPU it takes without them, a whole pass 22 to 24
# times (benchmarks/net_flush.py). Nothing a float32 pass shows changes: a layer's outputs move by
# less than the inputs' sum times 1e-20.
FLUSH = 1e-20


class MaskedPolicy:
    """A tanh MLP with a masked softmax policy head and a value head.

    Args:
        params: the weights, ``W0, b0, W1, b1, ...`` then ``Wp, bp, Wv, bv``.
        meta: what the weights are for (``game``, ``players``, ``options``,
            ``obs_size``, ``num_actions``) and how they were trained.
    """

    def __init__(self, params: dict[str, np.ndarray], meta: dict[str, Any]) -> None:
        self.params = {k: np.asarray(v, dtype=np.float32) for k, v in params.items()}
        self.meta = dict(meta)
        self.layers = sum(1 for k in self.params if k.startswith("W") and k[1:].isdigit())
        self.transform, extra = feature_transform(self.meta.get("features"), int(self.meta.get("players") or 2))
        self.obs_size = int(self.params["W0"].shape[0]) - extra  # the game's tensor size
        self.num_actions = int(self.params["Wp"].shape[1])

    # ---- construction -----------------------------------------------------------------
    @classmethod
    def create(
        cls,
        obs_size: int,
        num_actions: int,
        hidden: Sequence[int] = (128,),
        seed: int = 0,
        meta: dict[str, Any] | None = None,
    ) -> MaskedPolicy:
        """Returns a freshly initialised network (scaled normal weights, small policy head)."""
        rng = np.random.default_rng(seed)
        params: dict[str, np.ndarray] = {}
        meta = dict(meta or {})
        _, extra = feature_transform(meta.get("features"), int(meta.get("players") or 2))
        size = obs_size + extra
        for i, h in enumerate(hidden):
            params[f"W{i}"] = rng.normal(0.0, 1.0 / np.sqrt(size), (size, h))
            params[f"b{i}"] = np.zeros(h)
            size = h
        params["Wp"] = rng.normal(0.0, 0.01 / np.sqrt(size), (size, num_actions))
        params["bp"] = np.zeros(num_actions)
        params["Wv"] = rng.normal(0.0, 1.0 / np.sqrt(size), (size, 1))
        params["bv"] = np.zeros(1)
        return cls(params, {"obs_size": obs_size, "num_actions": num_actions, "hidden": list(hidden), **meta})

    @classmethod
    def for_game(
        cls, game: Game, hidden: Sequence[int] = (128,), seed: int = 0, features: str | None = None, **meta: Any
    ) -> MaskedPolicy:
        """Returns a fresh network sized for ``game``, with the game (and a feature transform) in its meta."""
        info = game.info
        return cls.create(
            int(np.prod(info.observation_shape)),
            info.num_distinct_actions,
            hidden,
            seed,
            {"game": info.id, "players": game.num_players, "options": dict(game.option_values), "features": features, **meta},
        )

    # ---- inference --------------------------------------------------------------------
    def forward(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, list[np.ndarray]]:
        """Returns (logits, values, hidden activations) for a batch ``x`` of shape (B, obs_size)."""
        p = self.params
        if self.transform is not None:
            x = self.transform(x)
        h = x
        acts = [x]
        for i in range(self.layers):
            h = np.tanh(h @ p[f"W{i}"] + p[f"b{i}"])
            acts.append(h)
        return h @ p["Wp"] + p["bp"], (h @ p["Wv"] + p["bv"])[:, 0], acts

    @staticmethod
    def masked_probs(logits: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Returns the softmax of ``logits`` over the actions where ``mask`` is 1."""
        z = np.where(mask > 0, logits, NEG)
        z = z - z.max(axis=-1, keepdims=True)
        e = np.exp(z) * (mask > 0)
        return e / e.sum(axis=-1, keepdims=True)

    def probs(self, x: np.ndarray, mask: np.ndarray) -> np.ndarray:
        """Returns the action probabilities for one observation or a batch."""
        single = x.ndim == 1
        xb = x.reshape(1, -1) if single else x
        mb = mask.reshape(1, -1) if single else mask
        logits, _, _ = self.forward(xb.astype(np.float32, copy=False))
        pr = self.masked_probs(logits, mb)
        return pr[0] if single else pr

    def act(self, x: np.ndarray, legal: Sequence[int], rng: Any = None, greedy: bool = True) -> int:
        """Returns an action for one observation: the most probable legal one, or a sample.

        Args:
            x: the observation tensor (any shape; flattened).
            legal: the legal actions.
            rng: a ``random.Random`` (or numpy Generator) for sampling; unused when greedy.
            greedy: play the most probable action (ties: the lowest id).
        """
        if len(legal) == 1:
            return int(legal[0])
        mask = np.zeros(self.num_actions, dtype=np.int8)
        mask[list(legal)] = 1
        pr = self.probs(np.asarray(x, dtype=np.float32).reshape(-1), mask)
        if greedy:
            return int(np.argmax(pr))
        r = rng.random()
        c = np.cumsum(pr)
        return int(min(np.searchsorted(c, r * c[-1], side="right"), self.num_actions - 1))

    # ---- files ------------------------------------------------------------------------
    def save(self, path: str | Path) -> Path:
        """Writes the weights and meta to ``path`` (.npz, compressed); returns the path."""
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        arrays = {k: v.astype(np.float32) for k, v in self.params.items()}
        np.savez_compressed(path, meta=np.array(json.dumps(self.meta, sort_keys=True)), **arrays)
        return path if path.suffix == ".npz" else path.with_name(path.name + ".npz")

    @classmethod
    def load(cls, path: str | Path) -> MaskedPolicy:
        """Reads a policy file (no pickle); raises GameError for a missing or bad file."""
        try:
            with np.load(Path(path), allow_pickle=False) as data:
                meta = json.loads(str(data["meta"]))
                params = {k: data[k] for k in data.files if k != "meta"}
        except FileNotFoundError:
            raise GameError(f"no policy file {str(path)!r}") from None
        except (OSError, ValueError, KeyError) as e:
            raise GameError(f"{str(path)!r} is not a policy file: {e}") from None
        needed = {"W0", "b0", "Wp", "bp", "Wv", "bv"}
        if not needed <= set(params):
            raise GameError(f"{str(path)!r} is not a policy file: missing {sorted(needed - set(params))}")
        return cls({k: flush_tiny(v) for k, v in params.items()}, meta)

    def check_game(self, game: Game) -> None:
        """Raises GameError unless the policy was made for ``game`` (id, players, options, sizes)."""
        info = game.info
        m = self.meta
        size = int(np.prod(info.observation_shape))
        problems = []
        if m.get("game") != info.id:
            problems.append(f"it plays {m.get('game')!r}, not {info.id!r}")
        if m.get("players") not in (None, game.num_players):
            problems.append(f"it was trained for {m.get('players')} players, not {game.num_players}")
        opts = m.get("options")
        if opts is not None and dict(opts) != {k: v for k, v in game.option_values.items()}:
            problems.append(f"it was trained with options {opts}, not {dict(game.option_values)}")
        if self.obs_size != size or self.num_actions != info.num_distinct_actions:
            problems.append(
                f"its sizes ({self.obs_size} inputs, {self.num_actions} actions) differ from the game's "
                f"({size}, {info.num_distinct_actions})"
            )
        if problems:
            raise GameError(f"this policy does not fit {info.name}: " + "; ".join(problems), game=info.id)


def flush_tiny(a: np.ndarray) -> np.ndarray:
    """Returns ``a`` as float32 with the entries smaller than ``FLUSH`` in size set to 0."""
    a = np.array(a, dtype=np.float32)  # a copy: the caller's array is left as it was
    a[np.abs(a) < FLUSH] = 0.0
    return a


def find_policy(name: str) -> Path:
    """Returns the file a ``policy:<name>`` spec names: a path, or a shipped policy's stem.

    Raises:
        GameError: no such file (the message lists the shipped policies).
    """
    path = Path(name).expanduser()
    if path.suffix == ".npz" or path.exists() or "/" in name or "\\" in name:
        if not path.is_file():
            raise GameError(f"no policy file {name!r}")
        return path
    shipped = POLICY_DIR / f"{name}.npz"
    if shipped.is_file():
        return shipped
    known = sorted(p.stem for p in POLICY_DIR.glob("*.npz"))
    raise GameError(
        f"no policy {name!r}: give a .npz file or a shipped policy ({', '.join(known) or 'none'})",
        allowed=known,
    )
