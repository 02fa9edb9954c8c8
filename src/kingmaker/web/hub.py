"""The authority behind the web server: live matches, moves, bots and what each seat is sent.

The hub holds each live match in memory as a ``kingmaker.Match`` (the true
state, the seeded chance stream, the log) and stores every action before
anyone hears of it. Everything a seat is sent comes from
``game.view(state, seat)``, ``Match.log_for(seat)`` and the seat's own legal
actions; a spectator is ``seat=None``.

Several server processes may share one PostgreSQL database: each stored move is
announced to the others (``LISTEN/NOTIFY``), which apply it to their own copy and
tell their sockets; one process at a time drives a match's chance and bots (it holds
the match's advisory lock), and another takes over when it dies.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import random
import secrets
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

from ..agents import recommended_bot
from ..core.api import CHANCE, SIMULTANEOUS, TERMINAL, check_options
from ..core.errors import (
    BadRequestError,
    ConflictError,
    GameError,
    NotFoundError,
    RecordError,
    SeatForbiddenError,
)
from ..core.match import Match
from ..core.registry import available_games, game_class
from .batch import GroupCommit
from .fanout import Fanout, encode  # noqa: F401  (encode: re-exported for the app)
from .models import ServerBusyError, safe_message
from .policy import (  # noqa: F401  (re-exported: the app and tests import them from here)
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_SEAT_CHANGED,
    HTTP_STATUS,
    bot_levels,
    check_bot_spec,
    error_dict,
    expert_players,
    http_status,
    node_label,
)
from .storage import ActionRow, MatchRow, SeatRow, Storage, hash_token
from .workers import MatchRecord, Workers, bot_move, build_replay

log = logging.getLogger("kingmaker.web")


STATE_EVERY = 16  # the stored state (a check of the replay) is written every this many versions, and at the end


def stored_state(game: Any, state: Any, version: int) -> dict:
    """The state kept beside the actions as a check: ``game.to_json`` and the version it is at."""
    return {"checked_at": version, "json": game.to_json(state)}


__all__ = ["BadRequestError", "Hub", "LiveMatch", "NotFoundError", "SeatForbiddenError", "ServerBusyError"]

@dataclass(eq=False)
class Subscriber:
    """One WebSocket (or other listener): a seat (None: spectator), the token's hash, send and close.

    ``send`` takes a message as a dict, or already encoded as JSON text.
    """

    seat: int | None
    send: Callable[[dict], Any]
    log_sent: int = 0
    token_hash: str | None = None
    close: Callable[[int, str], Any] | None = None


@dataclass(eq=False)
class LiveMatch:
    row: MatchRow
    game: Any
    match: Match
    seats: list[SeatRow]
    bots: dict[int, str] = field(default_factory=dict)  # seat -> bot spec
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    driver: asyncio.Task | None = None
    stale: bool = False
    sim_since: int | None = None  # version at which the current simultaneous round began
    owned: bool = False  # this process holds the match's lock (drives chance and bots)
    checked_at: int | None = None  # the version of the stored state (None: unknown, store it next time)

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.match.log)

    def over(self) -> bool:
        return self.match.is_over()

    def record(self) -> MatchRecord:
        r = self.row
        return (r.id, r.game, r.players, dict(r.options), r.seed,
                tuple((e.player, e.action) for e in self.match.log))


class Hub(Fanout):
    """All live matches of one server process, over one storage.

    Args:
        storage: where matches are kept.
        bot_delay: seconds a bot waits before each move (so people can follow; 0 in tests).
        bot_workers: worker processes for bots (0: threads in this process, for tests).
        bot_cpu_seconds: CPU time a bot may think per move; then it plays a random legal move.
        bot_queue: bot moves that may wait for a worker before new bot matches are refused.
        custom_bots: accept any agent spec (e.g. ``ismcts:hard/iterations=5000``), not only named levels.
        replay_workers: worker processes that build replays (0: threads).
        replay_queue: replays that may wait before more are refused (server/busy).
    """

    def __init__(self, storage: Storage, bot_delay: float = 0.4, base_url: str = "", *, bot_workers: int = 2,
                 bot_cpu_seconds: float = 10.0, bot_queue: int = 200, custom_bots: bool = False,
                 replay_workers: int = 1, replay_queue: int = 16) -> None:
        self.storage = storage
        self.commits = GroupCommit(storage)
        self.bot_delay = bot_delay
        self.base_url = base_url
        self.custom_bots = custom_bots
        self.bot_cpu_seconds = bot_cpu_seconds
        self.bots = Workers(bot_workers, bot_queue, "bots")
        self.replays = Workers(replay_workers, replay_queue, "replays")
        self._replay_cache: OrderedDict[tuple, bytes] = OrderedDict()
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._closing = False
        self._tasks: set[asyncio.Task] = set()
        self._broken: set[str] = set()  # matches that cannot be replayed (logged once)
        self.server_id = secrets.token_hex(4)
        self.started = time.time()

    # ---- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Loads every unfinished match and lets its bots carry on (after a restart)."""
        loop = asyncio.get_running_loop()
        self.storage.origin = self.server_id

        def heard(mid: str, version: int, kind: str, origin: str) -> None:  # in the listening thread
            if origin != self.server_id:  # our own changes come back too: nothing to do for them
                loop.call_soon_threadsafe(self._spawn, self.on_notify(mid, version, kind, origin))

        self.storage.listen(heard)
        await self._resume_all()
        if self.storage.shared:
            self._spawn(self._watch())

    async def _resume_all(self) -> None:
        for mid in self.storage.match_ids("playing"):
            if mid in self.live or mid in self._broken:
                continue
            try:
                live = await self.get(mid)
            except Exception as e:  # a game whose rules changed must not stop the server
                log.error("cannot resume match %s: %s", mid, e)
                self._broken.add(mid)
                continue
            self.kick(live)

    async def _watch(self) -> None:
        """Several processes: takes over matches whose driving process died (its lock is free)."""
        rounds = 0
        while not self._closing:
            await asyncio.sleep(1.0)
            rounds += 1
            with contextlib.suppress(Exception):
                if rounds % 2 == 0:
                    await self._resume_all()
                for live in list(self.live.values()):
                    self.kick(live)

    def _spawn(self, coro: Any) -> None:
        if self._closing:
            coro.close()
            return
        t = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(t)
        t.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        self._closing = True
        tasks = [lv.driver for lv in self.live.values() if lv.driver is not None] + list(self._tasks)
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t
        self.storage.unlisten()
        self.bots.close()
        self.replays.close()

    # ---- games -----------------------------------------------------------------------------
    def games(self) -> list[dict]:
        out = []
        for gid in available_games():
            cls = game_class(gid)
            out.append({
                "id": gid, "name": cls.name, "min_players": cls.min_players, "max_players": cls.max_players,
                "summary": cls.summary, "cooperative": cls.cooperative, "has_simultaneous": cls.has_simultaneous,
                "perfect_information": cls.perfect_information, "options": [o.to_dict() for o in cls.options],
                "expert": expert_players(cls), "styles": list(cls.heuristic_styles), "bot": recommended_bot(cls),
            })
        return out

    # ---- creating and loading ----------------------------------------------------------
    def create(self, body: dict) -> dict:
        """Creates a match from a validated lobby request (models.CreateMatch as a dict)."""
        cls = game_class(body["game"])
        n, values = check_options(cls, body.get("players"), body.get("options") or {})
        game = cls(n, **values)
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (n - 1)
        if len(seats_in) != n:
            raise BadRequestError(f"'seats' must list {n} seats (one per player)", players=n)
        you = body.get("you", 0)
        if you is not None and not 0 <= you < n:
            raise BadRequestError(f"'you' must be a seat number from 0 to {n - 1}, or null")
        seed = body.get("seed")
        if seed is None:
            seed = random.randrange(2**62)
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats_in):
            kind, name = s.get("kind", "human"), s.get("name")
            if kind == "bot":
                spec = check_bot_spec(s.get("bot") or "heuristic", game, self.custom_bots)
                seats.append(SeatRow(i, "bot", bot=spec, name=name or f"bot ({spec})", claimed=True))
            else:
                tok = secrets.token_urlsafe(18)
                tokens[i] = tok
                claimed = you == i
                seats.append(SeatRow(i, "human", name=name or (f"player {i}" if claimed else None),
                                     token_hash=hash_token(tok), claimed=claimed))
        if you is not None and seats[you].kind != "human":
            raise BadRequestError(f"seat {you} ('you') must be a human seat")
        if any(s.kind == "bot" for s in seats) and self.bots.busy():
            raise ServerBusyError("the server's bots are busy; try again in a moment", retry_after=10)
        mid = secrets.token_hex(6)
        row = MatchRow(id=mid, game=game.id, players=n, options=dict(game.option_values), seed=seed,
                       public=body.get("public", True), state=stored_state(game, game.new_initial_state(), 0))
        self.storage.create_match(row, seats)
        return {"match": mid, "tokens": {str(k): v for k, v in tokens.items()}, "you": you}

    async def get(self, match_id: str) -> LiveMatch:
        """Returns the live match, loading (replaying) it from storage if needed."""
        if not isinstance(match_id, str) or len(match_id) > 64:
            raise NotFoundError("no such match")
        live = self.live.get(match_id)
        if live is not None and not live.stale:
            return live
        lock = self._loading.setdefault(match_id, asyncio.Lock())
        async with lock:
            live = self.live.get(match_id)
            if live is not None and not live.stale:
                return live
            try:
                live = self._load(match_id)
            finally:
                self._loading.pop(match_id, None)
            self.live[match_id] = live
            return live

    def _load(self, match_id: str) -> LiveMatch:
        row = self.storage.get_match(match_id)
        if row is None:
            raise NotFoundError(f"no match {safe_message(match_id, 64)!r}", match=match_id)
        seats = self.storage.get_seats(match_id)
        actions = self.storage.get_actions(match_id)
        cls = game_class(row.game)
        n, values = check_options(cls, row.players, row.options)
        game = cls(n, **values)
        m = Match(game, seed=row.seed)
        live = LiveMatch(row=row, game=game, match=m, seats=seats)
        # The stored state is a check, written every STATE_EVERY versions: replay up to its
        # version, compare, then replay the rest. (Servers before that wrote it at every
        # move, unwrapped: it is the state at row.version.)
        st = row.state
        at, want = (st["checked_at"], st["json"]) if isinstance(st, dict) and "checked_at" in st else (row.version, st)
        at = at if isinstance(at, int) and 0 <= at <= len(actions) else None
        simultaneous = self._apply(live, actions[:at] if at is not None else actions)
        if at is not None:
            if want is not None and game.to_json(m.state) != want:
                raise RecordError(f"match {match_id}: the replayed state differs from the stored one (version {at})")
            live.checked_at = at if isinstance(st, dict) and "checked_at" in st else None
            simultaneous += self._apply(live, actions[at:])
        if m.current_player == SIMULTANEOUS:
            # The round began after the last action that was not a simultaneous commitment.
            since = len(m.log)
            while since > 0 and simultaneous[since - 1]:
                since -= 1
            live.sim_since = since
        old = self.live.get(match_id)
        if old is not None:
            live.subscribers = old.subscribers
            live.owned = old.owned
        self._set_bots(live)
        return live

    def _apply(self, live: LiveMatch, actions: list[ActionRow]) -> list[bool]:
        """Plays stored actions on the live match (loading it, or moves stored by another process).

        Returns, for each action, whether it was a commitment at a SIMULTANEOUS node.
        """
        m = live.match
        simultaneous = []
        for a in actions:
            acting = m.acting_players if m.current_player == SIMULTANEOUS else None
            simultaneous.append(acting is not None)
            m.replay_action(a.player, a.action)
            self._note_round(live, acting)
        live.row.version = live.version
        if m.is_over():
            live.row.status, live.row.result = "over", list(m.returns())
        return simultaneous

    def _set_bots(self, live: LiveMatch) -> None:
        live.bots = {}
        for s in live.seats:
            if s.kind == "bot" and s.bot:
                spec = s.bot
                if not self.custom_bots:
                    try:
                        spec = check_bot_spec(spec, live.game)
                    except GameError:
                        log.warning("match %s seat %d: bot %r is not a named level here; heuristic plays",
                                    live.id, s.seat, safe_message(spec, 60))
                        spec = "heuristic"
                live.bots[s.seat] = spec

    # ---- seats and tokens --------------------------------------------------------------------
    def seat_of(self, live: LiveMatch, token: str | None) -> int | None:
        """Returns the seat a token belongs to; None for no token (a spectator)."""
        if not token:
            return None
        h = hash_token(token)
        for s in live.seats:
            if s.kind == "human" and s.token_hash is not None and secrets.compare_digest(s.token_hash, h):
                return s.seat
        raise SeatForbiddenError("this seat token is not valid for this match", match=live.id)

    def holds(self, live: LiveMatch, sub: Subscriber) -> bool:
        """True while the socket's token still holds its seat (always for a spectator)."""
        if sub.seat is None:
            return True
        s = live.seats[sub.seat]
        return s.kind == "human" and s.token_hash is not None and s.token_hash == sub.token_hash

    def seats_public(self, live: LiveMatch) -> list[dict]:
        conn = {sub.seat for sub in live.subscribers}
        return [
            {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name, "claimed": s.claimed,
             "connected": s.kind == "bot" or s.seat in conn}
            for s in live.seats
        ]

    async def evict(self, live: LiveMatch) -> None:
        """Closes every socket whose token no longer holds its seat (the seat changed hands)."""
        for sub in list(live.subscribers):
            if not self.holds(live, sub):
                with contextlib.suppress(ValueError):
                    live.subscribers.remove(sub)
                if sub.close is not None:
                    with contextlib.suppress(Exception):
                        await sub.close(CLOSE_SEAT_CHANGED, "this seat changed hands; its old token is no longer valid")

    async def join(self, match_id: str, body: dict) -> dict:
        """Claims a human seat: with its invite token, or any open seat of a public match.

        Claiming a seat always gives a fresh token: the invite token stops working (the
        creator who sent it can no longer read the seat), and sockets opened with it close.
        The holder of a claimed seat's token may join again (a new name); the token stays.
        """
        live = await self.get(match_id)
        name = body.get("name")
        token = body.get("token")
        if token:
            seat = self.seat_of(live, token)
            row = live.seats[seat]
            if row.claimed:
                if name:
                    row.name = name
                    self.storage.update_seat(live.id, row)
                    await self.broadcast_seats(live)
                return {"match": live.id, "seat": row.seat, "token": token}
        else:
            if not live.row.public:
                raise SeatForbiddenError("this match is private: join it with an invite link")
            want = body.get("seat")
            open_seats = [s for s in live.seats if s.kind == "human" and not s.claimed]
            if want is not None:
                open_seats = [s for s in open_seats if s.seat == want]
            if not open_seats:
                raise SeatForbiddenError("no open seat to join" + (f" (seat {want})" if want is not None else ""))
            row = open_seats[0]
        token = secrets.token_urlsafe(18)
        row.token_hash = hash_token(token)
        row.claimed = True
        row.name = name or row.name or f"player {row.seat}"
        self.storage.update_seat(live.id, row)
        await self.evict(live)
        await self.broadcast(live)
        return {"match": live.id, "seat": row.seat, "token": token}

    async def leave(self, match_id: str, token: str | None, body: dict) -> dict:
        """Gives up a seat: it opens for someone else (new token) or a bot takes it over."""
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise SeatForbiddenError("leaving needs the seat's token")
        row = live.seats[seat]
        bot = body.get("bot")
        if bot:
            spec = check_bot_spec(bot, live.game, self.custom_bots)
            if self.bots.busy():
                raise ServerBusyError("the server's bots are busy; try again in a moment", retry_after=10)
            row.kind, row.bot = "bot", spec
            row.name, row.token_hash, row.claimed = f"bot ({row.bot})", None, True
        else:
            row.claimed, row.name = False, None
            row.token_hash = hash_token(secrets.token_urlsafe(18))
        self.storage.update_seat(live.id, row)
        self._set_bots(live)
        await self.evict(live)
        await self.broadcast(live)
        self.kick(live)
        return {"match": live.id, "seat": seat, "left": True}

    async def seats_changed(self, live: LiveMatch) -> None:
        """Another process changed a seat: reload the seats, close what lost its seat, tell the rest."""
        live.seats = self.storage.get_seats(live.id)
        self._set_bots(live)
        await self.evict(live)
        await self.broadcast(live)
        self.kick(live)

    # ---- moves ---------------------------------------------------------------------------------
    async def move(self, match_id: str, token: str | None, body: dict,
                   ack: Callable[[int], Awaitable[Any]] | None = None) -> dict:
        """Plays a human move from a validated body ``{action | text, version?, seat?}``.

        ``ack(version)`` is awaited once the move is stored, before the new state is sent.
        """
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise SeatForbiddenError("a move needs a seat token; spectators cannot move")
        return await self.move_seat(live, seat, body.get("action"), body.get("text"), body.get("version"),
                                    body.get("seat"), ack)

    async def move_seat(self, live: LiveMatch, seat: int, action: int | None, text: str | None,
                        version: int | None, want: int | None = None,
                        ack: Callable[[int], Awaitable[Any]] | None = None) -> dict:
        """Plays a move for ``seat``, whose token the caller has checked (``seat_of`` or ``holds``)."""
        if want is not None and want != seat:
            raise SeatForbiddenError(f"this token is for seat {seat}; it cannot act for seat {want}", seat=seat)
        if live.seats[seat].kind != "human":
            raise SeatForbiddenError(f"seat {seat} is played by a bot")
        if action is None:
            if text is None:
                raise BadRequestError("a move needs 'action' (an int) or 'text' (its notation)")
            action = text  # type: ignore[assignment]
        new_version = await self._submit(live, seat, action, version, ack)
        self.kick(live)
        return {"match": live.id, "seat": seat, "version": new_version}

    async def _submit(self, live: LiveMatch, seat: int, action: int | str, version: int | None,
                      ack: Callable[[int], Awaitable[Any]] | None = None) -> int:
        async with live.lock:
            if live.stale:
                raise ConflictError("the match was reloaded; try again", match=live.id)
            if version is not None and version != live.version and not self._same_round(live, seat, version):
                raise ConflictError(
                    f"your move was for version {version} but the match is at version {live.version}; "
                    "the position changed, choose again",
                    version=version, current=live.version,
                )
            m = live.match
            before = live.version
            acting = m.acting_players if m.current_player == SIMULTANEOUS else None
            m.play(action, seat)  # validates; raises the game's errors and changes nothing
            # Chance outcomes that follow the move are drawn and stored with it: one
            # transaction and one broadcast per move, not two.
            drew = False
            while m.current_player == CHANCE:
                m.step_chance()
                drew = True
            # The lock is held until the move is stored (a group commit with the other
            # matches' moves of this turn of the loop): no one sees the new state before.
            await self._store(live, before)
            self._note_round(live, None if drew else acting)
            version = live.version
            texts = self._texts(live)
        if ack is not None:
            try:
                await ack(version)
            except Exception:  # the mover's socket is gone: the move is stored, the others are told
                log.debug("match %s: the ack of version %d could not be sent", live.id, version)
        await self._send(live, texts)
        return version

    def _same_round(self, live: LiveMatch, seat: int, version: int) -> bool:
        """True when a simultaneous choice made at ``version`` is still open for ``seat``."""
        return (
            live.sim_since is not None
            and live.sim_since <= version < live.version
            and live.match.current_player == SIMULTANEOUS
            and seat in live.match.acting_players
        )

    def _note_round(self, live: LiveMatch, acting_before: tuple[int, ...] | None) -> None:
        m = live.match
        if m.current_player != SIMULTANEOUS:
            live.sim_since = None
            return
        acting = set(m.acting_players)
        if live.sim_since is None or acting_before is None or not acting <= set(acting_before):
            live.sim_since = live.version

    async def _store(self, live: LiveMatch, before: int) -> None:
        """Stores the actions taken since ``before``; on failure the live copy is dropped and reloaded."""
        m = live.match
        rows = [ActionRow(e.player, e.action, e.text) for e in m.log[before:]]
        over = m.is_over()
        v = live.version
        state = None  # None: the stored state (a check) stays as it is
        if over or live.checked_at is None or v // STATE_EVERY != live.checked_at // STATE_EVERY:
            state = stored_state(live.game, m.state, v)
        try:
            await self.commits.store((live.id, before, rows, state, "over" if over else "playing",
                                      list(m.returns()) if over else None))
        except BaseException:
            live.stale = True
            if self.live.get(live.id) is live:
                self.live.pop(live.id, None)
            self._spawn(self._reload(live))
            raise
        live.row.version = v
        if state is not None:
            live.checked_at = v
        if over:
            live.row.status = "over"
            live.row.result = list(m.returns())

    async def _reload(self, old: LiveMatch) -> None:
        """After a lost race: loads the stored match and sends every socket the current state."""
        with contextlib.suppress(Exception):
            live = await self.get(old.id)
            for sub in old.subscribers:
                if sub not in live.subscribers:
                    live.subscribers.append(sub)
            for sub in live.subscribers:
                sub.log_sent = 0
            await self.broadcast(live)
            self.kick(live)

    async def on_notify(self, mid: str, version: int, kind: str, origin: str) -> None:
        """A move or seat change stored by another process: apply it here and tell the sockets."""
        if origin == self.server_id:
            return
        live = self.live.get(mid)
        if live is None or live.stale:
            return
        try:
            if kind == "seats":
                await self.seats_changed(live)
                return
            async with live.lock:
                if version <= live.version:
                    return
                actions = self.storage.get_actions(mid, since=live.version)
                self._apply(live, actions)
            await self.broadcast(live)
            self.kick(live)
        except Exception:  # our copy disagrees with the store: reload it
            log.exception("match %s: cannot apply a move from another process; reloading", mid)
            live.stale = True
            self.live.pop(mid, None)
            await self._reload(live)

    # ---- chance and bots ---------------------------------------------------------------------------
    def kick(self, live: LiveMatch) -> None:
        """Makes sure chance and bots move on when it is their turn (in the process that holds the match)."""
        if self._closing or live.stale or live.over() or live.driver is not None:
            return
        m = live.match
        cp = m.current_player
        if cp != CHANCE and not any(p in live.bots for p in m.acting_players):
            return
        if not live.owned:
            if not self.storage.try_lock(live.id):
                return  # another process drives this match
            live.owned = True
        live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    def _release(self, live: LiveMatch) -> None:
        if live.owned and live.over():
            self.storage.unlock(live.id)
            live.owned = False

    async def _drive(self, live: LiveMatch) -> None:
        try:
            while not self._closing:
                async with live.lock:
                    if live.stale:
                        return
                    m = live.match
                    cp = m.current_player
                    if cp == TERMINAL:
                        return
                    if cp == CHANCE:
                        before = live.version
                        while m.current_player == CHANCE:
                            m.step_chance()
                        await self._store(live, before)
                        self._note_round(live, None)
                        job, texts = None, self._texts(live)
                    else:
                        bots = [p for p in m.acting_players if p in live.bots]
                        if not bots:
                            return
                        p = bots[0]
                        job = (p, live.bots[p], live.record(), live.version)
                if job is None:
                    await self._send(live, texts)
                    continue
                p, spec, rec, version = job
                t0 = time.monotonic()
                action = await self._bot_action(live, p, spec, rec)
                wait = self.bot_delay - (time.monotonic() - t0)
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    await self._submit(live, p, action, version)
                except ConflictError:
                    if live.stale:
                        return
                    continue  # a human moved meanwhile (a simultaneous choice): think again
                except GameError:
                    log.exception("match %s: bot of seat %d chose an illegal move", live.id, p)
                    await asyncio.sleep(0.5)
        except asyncio.CancelledError:
            raise
        except Exception:  # the storage failed: log, and let a later move retry
            log.exception("match %s: the bot driver stopped", live.id)
        finally:
            live.driver = None
            self._release(live)

    async def _bot_action(self, live: LiveMatch, seat: int, spec: str, rec: MatchRecord) -> int:
        cpu = self.bot_cpu_seconds
        try:
            if self.bots.processes:
                action, how = await self.bots.run(bot_move, rec, seat, spec, cpu, wall=3 * cpu + 10, bounded=False,
                                                  affinity=live.id)
            else:
                action, how = await self.bots.run(self._bot_in_thread, live, seat, spec, bounded=False)
        except Exception:
            log.exception("match %s: the bot of seat %d could not move; it plays a random move", live.id, seat)
            obs = live.match.observation(seat)
            return obs.rng.choice(obs.legal_actions)
        if how != "agent":
            log.warning("match %s: the bot of seat %d played a random move (%s)", live.id, seat, how)
        return action

    def _bot_in_thread(self, live: LiveMatch, seat: int, spec: str) -> tuple[int, str]:
        from ..agents import make_agent

        obs = live.match.observation(seat)
        try:
            agent = make_agent(spec, live.game)
            live.match.tell(agent, seat)  # an agent that follows the play hears of it all first
            return agent.act(obs), "agent"
        except Exception:
            log.exception("match %s: bot of seat %d failed; it plays a random move", live.id, seat)
            return obs.rng.choice(obs.legal_actions), "error"

    # ---- replays -------------------------------------------------------------------------------------
    async def replay(self, match_id: str, token: str | None) -> bytes:
        """Returns (as JSON) every step of the match as ``seat`` saw it (or a spectator): views and log lines.

        A seat may replay only from its own point of view (its token); anyone may replay a
        match as a spectator. Replays are built in a worker, cached per match, version and
        seat, and only a few are built at once (past the queue: ``server/busy``).
        """
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        async with live.lock:  # only stored moves
            rec = live.record()
        key = (live.id, len(rec[5]), seat)
        body = self._replay_cache.get(key)
        if body is None:
            body = await self.replays.run(build_replay, rec, seat)
            self._replay_cache[key] = body
            while len(self._replay_cache) > 64:
                self._replay_cache.popitem(last=False)
        else:
            self._replay_cache.move_to_end(key)
        seats = json.dumps(self.seats_public(live), separators=(",", ":")).encode()
        return body[:-1] + b',"seats":' + seats + b"}"
