"""Game records: a JSON document of every action, chance included, and the result.

A record is the authoritative history of a game; it contains hidden parts
(the chance outcomes that dealt secret cards), so it is for the authority and
for finished games. Replays shown to a seat go through ``game.view``.

Format (version 1)::

    {"format": "kingmaker-record", "version": 1, "game": "kings-kilt",
     "players": 3, "options": {...}, "seed": 12,
     "actions": [[-1, 301], [0, 17], ...],      # [player, action]; -1 is chance
     "notation": ["deal Bruce", "ascend ...", ...],
     "result": [1.0, 0.0, 0.0], "meta": {...}}
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .errors import GameError, RecordError

__all__ = ["FORMAT", "VERSION", "Record"]

FORMAT = "kingmaker-record"
VERSION = 1


@dataclass(frozen=True)
class Record:
    """A finished (or unfinished) game, as data."""

    game: str
    players: int
    options: dict
    actions: tuple[tuple[int, int], ...]
    texts: tuple[str, ...] = ()
    result: tuple[float, ...] | None = None
    seed: int | None = None
    meta: dict = field(default_factory=dict)

    # ---- JSON ------------------------------------------------------------------
    def to_json(self) -> dict:
        return {
            "format": FORMAT,
            "version": VERSION,
            "game": self.game,
            "players": self.players,
            "options": dict(self.options),
            "seed": self.seed,
            "actions": [[p, a] for p, a in self.actions],
            "notation": list(self.texts),
            "result": list(self.result) if self.result is not None else None,
            "meta": dict(self.meta),
        }

    def dumps(self) -> str:
        return json.dumps(self.to_json(), indent=None, separators=(",", ":"))

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")

    @classmethod
    def from_json(cls, data: Any) -> Record:
        """Returns the record in ``data``; raises RecordError naming what is wrong."""
        if isinstance(data, (str, bytes)):
            try:
                data = json.loads(data)
            except ValueError as e:
                raise RecordError(f"record is not JSON: {e}") from None
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise RecordError(f"not a game record: expected 'format': {FORMAT!r}")
        if data.get("version") != VERSION:
            raise RecordError(f"record version {data.get('version')!r} is not supported; this reads version {VERSION}")
        try:
            actions = tuple((int(p), int(a)) for p, a in data["actions"])
            result = data.get("result")
            return cls(
                game=str(data["game"]),
                players=int(data["players"]),
                options=dict(data.get("options") or {}),
                actions=actions,
                texts=tuple(data.get("notation") or ()),
                result=tuple(float(x) for x in result) if result is not None else None,
                seed=data.get("seed"),
                meta=dict(data.get("meta") or {}),
            )
        except (KeyError, TypeError, ValueError) as e:
            raise RecordError(f"record is malformed: {e!r}") from None

    @classmethod
    def load(cls, path: str | Path) -> Record:
        try:
            text = Path(path).read_text()
        except OSError as e:
            raise RecordError(f"cannot read record {path}: {e.strerror}") from None
        return cls.from_json(text)

    # ---- replay ----------------------------------------------------------------
    def make_game(self):
        from .registry import make

        return make(self.game, players=self.players, **self.options)

    def states(self, game=None) -> Iterator[Any]:
        """Yields every state from the first to the last, replaying with checks."""
        game = game or self.make_game()
        s = game.new_initial_state()
        yield s
        for i, (p, a) in enumerate(self.actions):
            try:
                s = game.play(s, a, None if p < 0 else p)
            except GameError as e:
                raise RecordError(f"record action {i} ({p}, {a}) does not replay: {e}") from None
            yield s

    def replay(self, game=None) -> Any:
        """Returns the final state rebuilt from the actions; checks the result if recorded."""
        game = game or self.make_game()
        s = None
        for state in self.states(game):
            s = state
        if self.result is not None and game.is_terminal(s):
            got = tuple(game.returns(s))
            if any(abs(x - y) > 1e-9 for x, y in zip(got, self.result)):
                raise RecordError(f"record result {list(self.result)} differs from the replayed {list(got)}")
        return s
