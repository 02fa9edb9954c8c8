"""What each seat is sent: state messages built once per seat and change, and sent to every socket.

``Fanout`` is a part of ``Hub`` (a mixin: it uses the hub's ``holds``, ``seats_public``,
``evict`` and ``storage``). A state message is ``payload(live, seat, log_from)``; after a
change, ``_texts`` builds each seat's message once, as JSON text, with the parts every
seat shares (match, version, whose turn, seats) encoded once for all of them, while the
match's lock is held (so no message ever shows a move that is not stored yet), and
``_send`` sends the texts to every socket whose token still holds its seat.
"""

from __future__ import annotations

import contextlib
from typing import TYPE_CHECKING, Any

from pydantic_core import to_json

from ..core.api import CHANCE, SIMULTANEOUS, TERMINAL
from ..core.errors import GameError
from ..core.registry import game_class
from .policy import node_label

if TYPE_CHECKING:
    from .hub import LiveMatch, Subscriber

__all__ = ["Fanout", "encode"]


def encode(msg: dict) -> str:
    """A message as compact JSON text (pydantic-core's encoder: about twice as fast as json.dumps)."""
    return to_json(msg).decode()


class Fanout:
    """The hub's messages to seats and sockets (see the module's docstring)."""

    storage: Any

    def payload(self, live: LiveMatch, seat: int | None, log_from: int = 0) -> dict:
        """Returns the message for ``seat``: its view, its legal moves and its log from ``log_from``."""
        m = live.match
        game = live.game
        s = m.state
        cp = game.current_player(s)
        acting = list(game.acting_players(s)) if cp not in (CHANCE, TERMINAL) else []
        legal = []
        if seat is not None and seat in acting:
            legal = [{"action": a, "text": game.action_to_str(s, a)} for a in game.legal_actions(s, seat)]
        lines = m.log_for(seat)
        over = m.is_over()
        return {
            "type": "state", "match": live.id, "game": game.id, "players": game.num_players,
            "options": dict(game.option_values), "version": live.version, "seat": seat,
            "status": "over" if over else "playing", "to_move": node_label(cp), "acting": acting,
            "simultaneous": cp == SIMULTANEOUS, "view": game.view(s, seat), "legal": legal,
            "log": {"start": log_from, "lines": lines[log_from:], "total": len(lines)},
            "result": list(m.returns()) if over else None, "seats": self.seats_public(live),
        }

    async def broadcast(self, live: LiveMatch) -> None:
        """Sends each subscriber whose token still holds its seat that seat's state (built once per seat)."""
        async with live.lock:  # never a state whose move is not stored yet
            texts = self._texts(live)
        await self._send(live, texts)

    def _texts(self, live: LiveMatch) -> list[tuple[Subscriber, str | None]]:
        """The state message of each subscriber, as JSON text (None: its token lost the seat).

        Called with the match's lock held, right after a change is stored: each seat's
        view is built and encoded once for all its sockets, and the parts every seat
        shares are encoded once for all seats.
        """
        out: list[tuple[Subscriber, str | None]] = []
        cache: dict[tuple[int | None, int], tuple[int, str]] = {}
        shared = None
        for sub in live.subscribers:
            if not self.holds(live, sub):
                out.append((sub, None))
                continue
            key = (sub.seat, sub.log_sent)
            got = cache.get(key)
            if got is None:
                if shared is None:
                    shared = self._shared(live)
                got = cache[key] = self._state_text(live, sub.seat, sub.log_sent, shared)
            sub.log_sent = got[0]
            out.append((sub, got[1]))
        return out

    async def _send(self, live: LiveMatch, texts: list[tuple[Subscriber, str | None]]) -> None:
        if any(text is None for _, text in texts):
            await self.evict(live)
        for sub, text in texts:
            if text is None or not self.holds(live, sub):  # checked again: the seat may have changed hands
                continue
            try:
                await sub.send(text)
            except Exception:  # a closed socket: forget it
                with contextlib.suppress(ValueError):
                    live.subscribers.remove(sub)

    def _shared(self, live: LiveMatch) -> tuple[int, list[int], bytes, bytes, bytes]:
        """The parts of the state message that are the same for every seat, encoded once."""
        m = live.match
        game = live.game
        s = m.state
        cp = game.current_player(s)
        acting = list(game.acting_players(s)) if cp not in (CHANCE, TERMINAL) else []
        over = m.is_over()
        head = to_json({"type": "state", "match": live.id, "game": game.id, "players": game.num_players,
                        "options": dict(game.option_values), "version": live.version})[:-1]
        middle = to_json({"status": "over" if over else "playing", "to_move": node_label(cp), "acting": acting,
                          "simultaneous": cp == SIMULTANEOUS})[1:-1]
        tail = to_json({"result": list(m.returns()) if over else None, "seats": self.seats_public(live)})[1:]
        return cp, acting, head, middle, tail

    def _state_text(self, live: LiveMatch, seat: int | None, log_from: int,
                    shared: tuple[int, list[int], bytes, bytes, bytes]) -> tuple[int, str]:
        """``payload(live, seat, log_from)`` as JSON text (and the log's length), from the shared parts."""
        cp, acting, head, middle, tail = shared
        m = live.match
        game = live.game
        s = m.state
        legal = []
        if seat is not None and seat in acting:
            legal = [{"action": a, "text": game.action_to_str(s, a)} for a in game.legal_actions(s, seat)]
        lines = m.log_for(seat)
        own = to_json({"view": game.view(s, seat), "legal": legal,
                       "log": {"start": log_from, "lines": lines[log_from:], "total": len(lines)}})[1:-1]
        text = b"".join((head, b',"seat":', b"null" if seat is None else str(seat).encode(), b",", middle, b",",
                         own, b",", tail))
        return len(lines), text.decode()

    async def current(self, live: LiveMatch, seat: int | None, log_from: int = 0) -> dict:
        """``payload`` once no move is waiting to be stored (a move is heard of only once stored)."""
        async with live.lock:
            return self.payload(live, seat, log_from)

    async def broadcast_seats(self, live: LiveMatch) -> None:
        """Tells every subscriber who is seated and connected (no game data)."""
        msg = {"type": "seats", "match": live.id, "seats": self.seats_public(live)}
        for sub in list(live.subscribers):
            try:
                await sub.send(msg)
            except Exception:
                with contextlib.suppress(ValueError):
                    live.subscribers.remove(sub)

    def summary(self, live: LiveMatch) -> dict:
        r = live.row
        m = live.match
        over = m.is_over()
        return {
            "match": r.id, "game": r.game, "name": live.game.name, "players": r.players, "options": r.options,
            "version": live.version, "status": "over" if over else "playing",
            "to_move": node_label(m.current_player), "public": r.public,
            "result": list(m.returns()) if over else None, "seats": self.seats_public(live),
            "created": r.created, "updated": r.updated,
        }

    def lobby(self, limit: int = 50) -> list[dict]:
        out = []
        for r in self.storage.list_matches(limit=limit, public_only=True):
            live = self.live.get(r.id)
            if live is not None and not live.stale:
                out.append(self.summary(live))
                continue
            try:
                name = game_class(r.game).name
            except GameError:
                continue
            out.append({
                "match": r.id, "game": r.game, "name": name, "players": r.players, "options": r.options,
                "version": r.version, "status": r.status, "to_move": None, "public": r.public,
                "result": r.result,
                "seats": [{"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "claimed": s.claimed,
                           "connected": s.kind == "bot"} for s in self.storage.get_seats(r.id)],
                "created": r.created, "updated": r.updated,
            })
        return out

