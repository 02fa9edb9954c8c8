"""The authority behind the web server: live matches, moves, bots and what each seat is sent.

The hub holds each live match in memory as a ``kingmaker.Match`` (the true
state, the seeded chance stream, the log) and stores every action before
anyone hears of it. Everything a seat is sent comes from
``game.view(state, seat)``, ``Match.log_for(seat)`` and the seat's own legal
actions; a spectator is ``seat=None``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..core.api import CHANCE, SIMULTANEOUS, TERMINAL, node_name
from ..core.errors import (
    BadRequestError,
    ConflictError,
    GameError,
    NotFoundError,
    RecordError,
    SeatForbiddenError,
)
from ..core.match import Match
from ..core.registry import available_games, game_class, make
from .storage import ActionRow, MatchRow, SeatRow, Storage, hash_token

log = logging.getLogger("kingmaker.web")

__all__ = ["BadRequestError", "Hub", "LiveMatch", "NotFoundError", "SeatForbiddenError"]


# The web's typed errors live in the core error tree (kingmaker.core.errors).


HTTP_STATUS = {
    "match/not_found": 404,
    "seat/forbidden": 403,
    "match/conflict": 409,
    "game/unknown": 404,
}


def http_status(err: GameError) -> int:
    return HTTP_STATUS.get(err.code, 400)


def node_label(cp: int) -> int | str:
    return cp if cp >= 0 else node_name(cp)


def bot_levels() -> dict[str, list[str]]:
    """Returns the bot kinds the agents package offers, with their levels where known."""
    from ..agents import agent_kinds

    levels: list[str] = []
    try:
        from ..agents.search import LEVELS

        levels = list(LEVELS)
    except ImportError:  # the search agents are optional
        pass
    out: dict[str, list[str]] = {}
    for kind in agent_kinds():
        out[kind] = levels if kind in ("ismcts", "team") else []
    return out


def check_bot_spec(spec: Any, game: Any) -> str:
    from ..agents import make_agent

    if not isinstance(spec, str) or not spec.strip():
        raise BadRequestError("a bot seat needs a bot kind such as 'heuristic' or 'ismcts:normal'")
    spec = spec.strip()
    make_agent(spec, game)  # raises GameError for an unknown kind
    return spec


@dataclass
class Subscriber:
    """One WebSocket (or other listener): a seat (None: spectator) and a send coroutine."""

    seat: int | None
    send: Callable[[dict], Any]
    log_sent: int = 0


@dataclass
class LiveMatch:
    row: MatchRow
    game: Any
    match: Match
    seats: list[SeatRow]
    agents: dict[int, Any] = field(default_factory=dict)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subscribers: list[Subscriber] = field(default_factory=list)
    driver: asyncio.Task | None = None
    stale: bool = False
    sim_since: int | None = None  # version at which the current simultaneous round began

    @property
    def id(self) -> str:
        return self.row.id

    @property
    def version(self) -> int:
        return len(self.match.log)

    def over(self) -> bool:
        return self.match.is_over()


class Hub:
    """All live matches of one server, over one storage.

    Args:
        storage: where matches are kept.
        bot_delay: seconds a bot waits before each move (so people can follow; 0 in tests).
        base_url: prefix for invite links (the page builds its own from its address).
    """

    def __init__(self, storage: Storage, bot_delay: float = 0.4, base_url: str = "") -> None:
        self.storage = storage
        self.bot_delay = bot_delay
        self.base_url = base_url
        self.live: dict[str, LiveMatch] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self._closing = False
        self.started = time.time()

    # ---- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Loads every unfinished match and lets its bots carry on (after a restart)."""
        for row in self.storage.list_matches(status="playing", limit=100000):
            try:
                live = await self.get(row.id)
            except Exception as e:  # a game whose rules changed must not stop the server
                log.error("cannot resume match %s (%s): %s", row.id, row.game, e)
                continue
            self.kick(live)

    async def close(self) -> None:
        self._closing = True
        tasks = [lv.driver for lv in self.live.values() if lv.driver is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            with contextlib.suppress(BaseException):
                await t

    # ---- games -----------------------------------------------------------------------------
    def games(self) -> list[dict]:
        out = []
        for gid in available_games():
            cls = game_class(gid)
            out.append(
                {
                    "id": gid,
                    "name": cls.name,
                    "min_players": cls.min_players,
                    "max_players": cls.max_players,
                    "summary": cls.summary,
                    "cooperative": cls.cooperative,
                    "has_simultaneous": cls.has_simultaneous,
                    "perfect_information": cls.perfect_information,
                    "options": [o.to_dict() for o in cls.options],
                }
            )
        return out

    # ---- creating and loading ----------------------------------------------------------
    def create(self, body: dict) -> dict:
        """Creates a match from a lobby request; returns its summary and the human seats' tokens."""
        if not isinstance(body, dict):
            raise BadRequestError("the body must be a JSON object")
        game_id = body.get("game")
        if not isinstance(game_id, str):
            raise BadRequestError("'game' (a game id) is required", allowed=available_games())
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise BadRequestError("'options' must be an object of option names to values")
        game = make(game_id, players=body.get("players"), **options)
        n = game.num_players
        seats_in = body.get("seats")
        if seats_in is None:
            seats_in = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (n - 1)
        if not isinstance(seats_in, list) or len(seats_in) != n:
            raise BadRequestError(f"'seats' must list {n} seats (one per player)", players=n)
        you = body.get("you", 0)
        if you is not None and (not isinstance(you, int) or isinstance(you, bool) or not 0 <= you < n):
            raise BadRequestError(f"'you' must be a seat number from 0 to {n - 1}, or null")
        seed = body.get("seed")
        if seed is None:
            seed = random.randrange(2**62)
        if not isinstance(seed, int) or isinstance(seed, bool) or not 0 <= seed < 2**62:
            raise BadRequestError("'seed' must be an integer from 0 to 2**62 - 1")
        seats: list[SeatRow] = []
        tokens: dict[int, str] = {}
        for i, s in enumerate(seats_in):
            if not isinstance(s, dict):
                raise BadRequestError(f"seat {i} must be an object with 'kind'")
            kind = s.get("kind", "human")
            name = s.get("name")
            if name is not None and (not isinstance(name, str) or len(name) > 40):
                raise BadRequestError(f"seat {i}: a name is text of at most 40 characters")
            if kind == "bot":
                spec = check_bot_spec(s.get("bot", "heuristic"), game)
                seats.append(SeatRow(i, "bot", bot=spec, name=name or f"bot ({spec})", claimed=True))
            elif kind == "human":
                tok = secrets.token_urlsafe(18)
                tokens[i] = tok
                claimed = you == i
                seats.append(SeatRow(i, "human", name=name or (f"player {i}" if claimed else None),
                                     token_hash=hash_token(tok), claimed=claimed))
            else:
                raise BadRequestError(f"seat {i}: kind must be 'human' or 'bot', not {kind!r}")
        if you is not None and seats[you].kind != "human":
            raise BadRequestError(f"seat {you} ('you') must be a human seat")
        mid = secrets.token_hex(6)
        row = MatchRow(
            id=mid, game=game.id, players=n, options=dict(game.option_values), seed=seed,
            public=bool(body.get("public", True)), state=game.to_json(game.new_initial_state()),
        )
        self.storage.create_match(row, seats)
        return {"match": mid, "tokens": {str(k): v for k, v in tokens.items()}, "you": you}

    async def get(self, match_id: str) -> LiveMatch:
        """Returns the live match, loading (replaying) it from storage if needed."""
        if not isinstance(match_id, str):
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
            raise NotFoundError(f"no match {match_id!r}", match=match_id)
        seats = self.storage.get_seats(match_id)
        actions = self.storage.get_actions(match_id)
        game = make(row.game, players=row.players, **row.options)
        m = Match(game, seed=row.seed)
        simultaneous: list[bool] = []  # was action i a commitment at a SIMULTANEOUS node?
        for i, a in enumerate(actions):
            simultaneous.append(m.current_player == SIMULTANEOUS)
            if a.player == CHANCE:
                got = m.step_chance()
                if got != a.action:
                    raise RecordError(
                        f"match {match_id}: chance outcome {i} replays as {got}, stored {a.action}"
                    )
            else:
                m.play(a.action, a.player)
        if row.state is not None and game.to_json(m.state) != row.state:
            raise RecordError(f"match {match_id}: the replayed state differs from the stored one")
        live = LiveMatch(row=row, game=game, match=m, seats=seats)
        if m.current_player == SIMULTANEOUS:
            # The round began after the last action that was not a simultaneous commitment.
            since = len(m.log)
            while since > 0 and simultaneous[since - 1]:
                since -= 1
            live.sim_since = since
        old = self.live.get(match_id)
        if old is not None:
            live.subscribers = old.subscribers
        self._make_agents(live)
        return live

    def _make_agents(self, live: LiveMatch) -> None:
        from ..agents import make_agent

        live.agents = {}
        for s in live.seats:
            if s.kind == "bot" and s.bot:
                live.agents[s.seat] = make_agent(s.bot, live.game)

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

    def seats_public(self, live: LiveMatch) -> list[dict]:
        conn = {sub.seat for sub in live.subscribers}
        return [
            {
                "seat": s.seat,
                "kind": s.kind,
                "bot": s.bot,
                "name": s.name,
                "claimed": s.claimed,
                "connected": s.kind == "bot" or s.seat in conn,
            }
            for s in live.seats
        ]

    async def join(self, match_id: str, body: dict) -> dict:
        """Claims a human seat: with its invite token, or any open seat of a public match."""
        live = await self.get(match_id)
        name = body.get("name")
        if name is not None and (not isinstance(name, str) or len(name) > 40):
            raise BadRequestError("a name is text of at most 40 characters")
        token = body.get("token")
        if token:
            seat = self.seat_of(live, token)
            row = live.seats[seat]
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
            row.kind, row.bot = "bot", check_bot_spec(bot, live.game)
            row.name, row.token_hash, row.claimed = f"bot ({row.bot})", None, True
        else:
            row.claimed, row.name = False, None
            row.token_hash = hash_token(secrets.token_urlsafe(18))
        self.storage.update_seat(live.id, row)
        self._make_agents(live)
        await self.broadcast(live)
        self.kick(live)
        return {"match": live.id, "seat": seat, "left": True}

    # ---- moves ---------------------------------------------------------------------------------
    async def move(
        self, match_id: str, token: str | None, body: dict
    ) -> dict:
        """Plays a human move from a request body ``{action | text, version?, seat?}``."""
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        if seat is None:
            raise SeatForbiddenError("a move needs a seat token; spectators cannot move")
        want = body.get("seat", seat)
        if want != seat:
            raise SeatForbiddenError(f"this token is for seat {seat}; it cannot act for seat {want}",
                                     seat=seat)
        if live.seats[seat].kind != "human":
            raise SeatForbiddenError(f"seat {seat} is played by a bot")
        version = body.get("version")
        if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
            raise BadRequestError("'version' must be an integer")
        if "action" in body and body["action"] is not None:
            action = body["action"]
            if not isinstance(action, int) or isinstance(action, bool):
                raise BadRequestError("'action' must be an integer (or send 'text')")
        elif isinstance(body.get("text"), str):
            action = body["text"]
        else:
            raise BadRequestError("a move needs 'action' (an int) or 'text' (its notation)")
        new_version = await self._submit(live, seat, action, version)
        self.kick(live)
        return {"match": live.id, "seat": seat, "version": new_version}

    async def _submit(self, live: LiveMatch, seat: int, action: int | str, version: int | None) -> int:
        async with live.lock:
            live = await self._fresh(live)
            if version is not None and version != live.version and not self._same_round(live, seat, version):
                raise ConflictError(
                    f"your move was for version {version} but the match is at version {live.version}; "
                    "the position changed, choose again",
                    version=version,
                    current=live.version,
                )
            m = live.match
            before = live.version
            acting = m.acting_players if m.current_player == SIMULTANEOUS else None
            m.play(action, seat)  # validates; raises the game's errors and changes nothing
            self._store(live, before)
            self._note_round(live, acting)
        await self.broadcast(live)
        return live.version

    def _same_round(self, live: LiveMatch, seat: int, version: int) -> bool:
        """True when a simultaneous choice made at ``version`` is still open for ``seat``.

        At a SIMULTANEOUS node the seats commit in any order, so a choice made
        before another seat's commitment stays valid while the same round goes on
        and the seat has not committed yet.
        """
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

    async def _fresh(self, live: LiveMatch) -> LiveMatch:
        if live.stale:
            raise ConflictError("the match was reloaded; try again", match=live.id)
        return live

    def _store(self, live: LiveMatch, before: int) -> None:
        """Stores the actions taken since ``before``; on failure the live copy is dropped and reloaded."""
        m = live.match
        rows = [ActionRow(e.player, e.action, e.text) for e in m.log[before:]]
        over = m.is_over()
        try:
            self.storage.append(
                live.id, before, rows, live.game.to_json(m.state),
                "over" if over else "playing", list(m.returns()) if over else None,
            )
        except BaseException:
            live.stale = True
            self.live.pop(live.id, None)
            raise
        live.row.version = live.version
        if over:
            live.row.status = "over"
            live.row.result = list(m.returns())

    # ---- chance and bots ---------------------------------------------------------------------------
    def kick(self, live: LiveMatch) -> None:
        """Makes sure chance and bots move on when it is their turn."""
        if self._closing or live.stale or live.over():
            return
        if live.driver is None:
            live.driver = asyncio.get_running_loop().create_task(self._drive(live))

    async def _drive(self, live: LiveMatch) -> None:
        try:
            while not self._closing:
                async with live.lock:
                    if live.stale:
                        live.driver = None
                        return
                    m = live.match
                    cp = m.current_player
                    if cp == TERMINAL:
                        live.driver = None
                        return
                    if cp == CHANCE:
                        before = live.version
                        while m.current_player == CHANCE:
                            m.step_chance()
                        self._store(live, before)
                        self._note_round(live, None)
                        job = None
                    else:
                        acting = m.acting_players
                        bots = [p for p in acting if p in live.agents]
                        if not bots:
                            live.driver = None
                            return
                        p = bots[0]
                        job = (p, m.observation(p), live.version, live.agents[p])
                if job is None:
                    await self.broadcast(live)
                    continue
                p, obs, version, agent = job
                t0 = time.monotonic()
                try:
                    action = await asyncio.to_thread(agent.act, obs)
                except Exception:  # a bot's bug must not stall the match: play a random legal move
                    log.exception("match %s: bot of seat %d failed; it plays a random move", live.id, p)
                    action = obs.rng.choice(obs.legal_actions)
                wait = self.bot_delay - (time.monotonic() - t0)
                if wait > 0:
                    await asyncio.sleep(wait)
                try:
                    await self._submit(live, p, action, version)
                except ConflictError:
                    if live.stale:
                        live.driver = None
                        return
                    continue  # a human moved meanwhile (a simultaneous choice): think again
        except asyncio.CancelledError:
            live.driver = None
            raise
        except Exception:  # a bot or the storage failed: log, and let a later move retry
            log.exception("match %s: the bot driver stopped", live.id)
            live.driver = None

    # ---- what a seat is sent -----------------------------------------------------------------------
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
            "type": "state",
            "match": live.id,
            "game": game.id,
            "players": game.num_players,
            "options": dict(game.option_values),
            "version": live.version,
            "seat": seat,
            "status": "over" if over else "playing",
            "to_move": node_label(cp),
            "acting": acting,
            "simultaneous": cp == SIMULTANEOUS,
            "view": game.view(s, seat),
            "legal": legal,
            "log": {"start": log_from, "lines": lines[log_from:], "total": len(lines)},
            "result": list(m.returns()) if over else None,
            "seats": self.seats_public(live),
        }

    async def broadcast(self, live: LiveMatch) -> None:
        """Sends each subscriber its seat's payload (built once per seat)."""
        cache: dict[tuple[int | None, int], dict] = {}
        for sub in list(live.subscribers):
            key = (sub.seat, sub.log_sent)
            msg = cache.get(key)
            if msg is None:
                msg = cache[key] = self.payload(live, sub.seat, sub.log_sent)
            sub.log_sent = msg["log"]["total"]
            try:
                await sub.send(msg)
            except Exception:  # a closed socket: forget it
                with contextlib.suppress(ValueError):
                    live.subscribers.remove(sub)

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
        cp = m.current_player
        return {
            "match": r.id,
            "game": r.game,
            "name": live.game.name,
            "players": r.players,
            "options": r.options,
            "version": live.version,
            "status": "over" if m.is_over() else "playing",
            "to_move": node_label(cp),
            "public": r.public,
            "result": list(m.returns()) if m.is_over() else None,
            "seats": self.seats_public(live),
            "created": r.created,
            "updated": r.updated,
        }

    def lobby(self, limit: int = 50) -> list[dict]:
        out = []
        for r in self.storage.list_matches(limit=limit, public_only=True):
            live = self.live.get(r.id)
            if live is not None:
                out.append(self.summary(live))
                continue
            seats = self.storage.get_seats(r.id)
            try:
                name = game_class(r.game).name
            except GameError:
                continue
            out.append(
                {
                    "match": r.id, "game": r.game, "name": name, "players": r.players,
                    "options": r.options, "version": r.version, "status": r.status,
                    "to_move": None, "public": r.public, "result": r.result,
                    "seats": [
                        {"seat": s.seat, "kind": s.kind, "bot": s.bot, "name": s.name,
                         "claimed": s.claimed, "connected": s.kind == "bot"}
                        for s in seats
                    ],
                    "created": r.created, "updated": r.updated,
                }
            )
        return out

    # ---- replays -------------------------------------------------------------------------------------
    async def replay(self, match_id: str, token: str | None) -> dict:
        """Returns every step of the match as ``seat`` saw it (or a spectator): views and log lines.

        A seat may replay only from its own point of view (its token); anyone may
        replay a public match as a spectator.
        """
        live = await self.get(match_id)
        seat = self.seat_of(live, token)
        game = live.game
        m = Match(game, seed=live.row.seed)
        frames = []

        def frame(by: int | None) -> dict:
            s = m.state
            cp = game.current_player(s)
            return {
                "version": len(m.log),
                "to_move": node_label(cp),
                "view": game.view(s, seat),
                "log_total": len(m.log_for(seat)),
                "by": by,
            }
        frames.append(frame(None))
        for e in list(live.match.log):
            if e.player == CHANCE:
                m.step_chance()
            else:
                m.play(e.action, e.player)
            frames.append(frame(e.player))
        return {
            "match": live.id,
            "game": game.id,
            "players": game.num_players,
            "seat": seat,
            "status": "over" if m.is_over() else "playing",
            "result": list(m.returns()) if m.is_over() else None,
            "frames": frames,
            "log": m.log_for(seat),
            "seats": self.seats_public(live),
        }
