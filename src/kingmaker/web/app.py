"""The ASGI app (FastAPI): the HTTP API, the WebSocket and the page (static files, no build step).

    app = create_app("sqlite:///tmp/km.sqlite3")   # or a postgresql:// URL, or None for the default file
    uvicorn.run(app)

Every request body and answer is a pydantic model (``kingmaker.web.models``); FastAPI
validates them and writes ``/openapi.json`` from them. See docs/web.md for the API and
the WebSocket messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import gzip
import json
import logging
from pathlib import Path
from typing import Annotated, Any

from fastapi import Body, FastAPI, Header, Query, Request, WebSocket
from fastapi import Path as PathParam
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from pydantic import ValidationError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.websockets import WebSocketDisconnect, WebSocketState

from .. import __version__
from ..core.errors import BadRequestError, GameError, SeatForbiddenError, error_codes
from . import models as M
from .hub import (
    CLOSE_FORBIDDEN,
    CLOSE_NOT_FOUND,
    CLOSE_SEAT_CHANGED,
    Hub,
    Subscriber,
    bot_levels,
    encode,
    error_dict,
    http_status,
)
from .storage import Storage, hash_token, open_storage

__all__ = ["create_app"]

log = logging.getLogger("kingmaker.web")

STATIC = Path(__file__).with_name("static")
MAX_BODY = 64 * 1024  # bytes of a request body
MAX_WS_MESSAGE = 16 * 1024  # characters of a WebSocket message from a client

_ERR = {"model": M.ErrorOut}
_DESCRIPTION = (
    "Play Kingmaker's games over HTTP and a WebSocket (`/ws/matches/{mid}`, see docs/web.md). "
    "Everything a seat receives is built from `game.view(state, seat)`, `Match.log_for(seat)` and the "
    "seat's own legal moves. Errors: `{\"error\": {\"code\", \"message\", \"details\"}}`."
)


Tok = Annotated[str | None, Query(max_length=100, description="A seat token (or `Authorization: Bearer`)")]
Auth = Annotated[str | None, Header(max_length=200, include_in_schema=False)]
Mid = Annotated[str, PathParam(max_length=64, description="The match id")]


def _errors(*codes: int) -> dict[int | str, dict[str, Any]]:
    text = {
        400: "A bad request or an illegal move (request/invalid, action/*, game/*)",
        403: "The seat token does not allow this (seat/forbidden)",
        404: "No such match (match/not_found) or game (game/unknown)",
        409: "Another move won the race for this version (match/conflict)",
        413: "The body is too large (request/too_large)",
        503: "The server is busy (server/busy); try again",
    }
    return {c: {**_ERR, "description": text[c]} for c in (*codes, 400, 413)}


def _error_response(code: str, message: str, status: int, details: dict | None = None,
                    headers: dict | None = None) -> JSONResponse:
    return JSONResponse({"error": {"code": code, "message": M.safe_message(message), "details": details or {}}},
                        status_code=status, headers=headers)


def _game_error(err: GameError) -> JSONResponse:
    headers = {"Retry-After": "5"} if err.code == "server/busy" else None
    return JSONResponse({"error": error_dict(err)}, status_code=http_status(err), headers=headers)


class _BodyLimit:
    """Refuses request bodies over ``MAX_BODY`` bytes with 413 (request/too_large)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        for k, v in scope.get("headers", ()):
            if k == b"content-length" and (not v.isdigit() or int(v) > MAX_BODY):
                return await _too_large(scope, receive, send)
        seen = 0

        async def limited() -> dict:
            nonlocal seen
            msg = await receive()
            if msg["type"] == "http.request":
                seen += len(msg.get("body", b""))
                if seen > MAX_BODY:
                    raise _TooLarge
            return msg

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(scope, receive, send)


class _TooLarge(Exception):
    pass


async def _too_large(scope: dict, receive: Any, send: Any) -> None:
    resp = _error_response("request/too_large", f"the body is larger than {MAX_BODY} bytes", 413)
    await resp(scope, receive, send)


def create_app(db: str | Storage | None = None, bot_delay: float = 0.4, **hub_options: Any) -> FastAPI:
    """Returns the app over the storage ``db`` (a URL, a Storage, or None for the default SQLite file).

    ``hub_options`` go to ``Hub`` (bot_workers, bot_cpu_seconds, bot_queue, custom_bots, replay_workers, ...).
    """
    storage = db if isinstance(db, Storage) else open_storage(db)
    hub = Hub(storage, bot_delay=bot_delay, **hub_options)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI):
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            if not isinstance(db, Storage):
                storage.close()

    app = FastAPI(title="Kingmaker web API", version=__version__, description=_DESCRIPTION, lifespan=lifespan,
                  docs_url="/docs", redoc_url=None)

    @app.exception_handler(GameError)
    async def on_game_error(request: Request, exc: GameError) -> JSONResponse:
        return _game_error(exc)

    @app.exception_handler(RequestValidationError)
    async def on_invalid(request: Request, exc: RequestValidationError) -> JSONResponse:
        errs = exc.errors()
        if any(e.get("type") == "json_invalid" for e in errs):
            return _error_response("request/invalid", "the body is not valid JSON (or is nested too deeply)", 400)
        if any(e.get("type") == "missing" and tuple(e.get("loc", ())) == ("body",) for e in errs):
            return _error_response("request/invalid", "the body must be a JSON object", 400)
        return _error_response("request/invalid", M.validation_message(errs), 400)

    @app.exception_handler(StarletteHTTPException)
    async def on_http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = {404: "match/not_found", 413: "request/too_large"}.get(exc.status_code, "request/invalid")
        message = exc.detail if isinstance(exc.detail, str) else "bad request"
        if exc.status_code == 400:
            message = "the body is not valid JSON (or nested too deeply)"
        headers = getattr(exc, "headers", None)
        if exc.status_code == 405:
            headers = {"Allow": ", ".join(_allowed(request.app, request.scope))}
        return _error_response(code, message, exc.status_code, headers=headers)

    def token_of(authorization: str | None, query: str | None, body_token: str | None = None) -> str | None:
        if authorization and authorization.lower().startswith("bearer "):
            return authorization[7:].strip() or None
        return body_token or query or None

    @app.get("/api/games", response_model=M.GamesOut, summary="The games (ids, player counts, options) and bots")
    async def games() -> dict:
        return {"games": hub.games(), "bots": bot_levels(hub.custom_bots), "custom_bots": hub.custom_bots}

    @app.get("/api/games/{game}/rules", response_model=M.RulesOut, responses=_errors(404),
             summary="A game's rulebook, rulings and card texts (for the page's rules panel)")
    async def rules(game: Annotated[str, PathParam(max_length=64)]) -> Response:
        from .rules_routes import rules_for

        return JSONResponse(rules_for(game), headers={"Cache-Control": "public, max-age=300"})

    @app.get("/api/matches", response_model=M.LobbyOut, summary="The lobby: public matches, most recent first")
    async def lobby() -> dict:
        return {"matches": hub.lobby()}

    @app.post("/api/matches", response_model=M.CreatedOut, responses=_errors(404, 503),
              summary="Create a match; returns every human seat's token (send invite links)")
    async def create(body: M.CreateMatch) -> dict:
        out = hub.create(body.model_dump(exclude_unset=True))
        live = await hub.get(out["match"])
        hub.kick(live)
        out["summary"] = hub.summary(live)
        return out

    @app.get("/api/matches/{mid}", response_model=M.SummaryOut, responses=_errors(404),
             summary="A match's public summary (game, seats, status)")
    async def summary(mid: Mid) -> dict:
        return hub.summary(await hub.get(mid))

    @app.get("/api/matches/{mid}/state", response_model=M.StateOut, response_model_exclude_none=False,
             responses=_errors(403, 404), summary="What the token's seat (or a spectator) may know now")
    async def state(mid: Mid, token: Tok = None, authorization: Auth = None) -> dict:
        live = await hub.get(mid)
        return await hub.current(live, hub.seat_of(live, token_of(authorization, token)))

    @app.post("/api/matches/{mid}/moves", response_model=M.MoveOut, responses=_errors(403, 404, 409),
              summary="Play a move for the token's seat")
    async def move(mid: Mid, body: M.MoveIn, token: Tok = None, authorization: Auth = None) -> dict:
        tok = token_of(authorization, token, body.token)
        out = await hub.move(mid, tok, body.model_dump())
        live = await hub.get(mid)
        out["state"] = await hub.current(live, out["seat"])
        return out

    @app.post("/api/matches/{mid}/join", response_model=M.JoinedOut, responses=_errors(403, 404),
              summary="Take a seat: with its invite token, or any open seat of a public match")
    async def join(mid: Mid, body: Annotated[M.JoinIn | None, Body()] = None) -> dict:
        return await hub.join(mid, (body or M.JoinIn()).model_dump())

    @app.post("/api/matches/{mid}/leave", response_model=M.LeftOut, responses=_errors(403, 404, 503),
              summary="Give up the token's seat: it opens again, or a bot takes it over")
    async def leave(mid: Mid, body: Annotated[M.LeaveIn | None, Body()] = None, token: Tok = None,
                    authorization: Auth = None) -> dict:
        body = body or M.LeaveIn()
        return await hub.leave(mid, token_of(authorization, token, body.token), body.model_dump())

    @app.get("/api/matches/{mid}/replay", responses={200: {"model": M.ReplayOut, "description": "The replay"},
                                                     **_errors(403, 404, 503)},
             summary="Every step of the match as the token's seat (or a spectator) saw it")
    async def replay(request: Request, mid: Mid, token: Tok = None, authorization: Auth = None) -> Response:
        body = await hub.replay(mid, token_of(authorization, token))
        if len(body) >= 2000 and "gzip" in request.headers.get("accept-encoding", ""):
            # Compressed in a thread (zlib lets go of the GIL), not on the event loop.
            gz = await asyncio.to_thread(gzip.compress, body, 5)
            return Response(gz, media_type="application/json",
                            headers={"Content-Encoding": "gzip", "Vary": "Accept-Encoding"})
        return Response(body, media_type="application/json")

    @app.get("/api/errors", response_model=M.ErrorsOut, summary="Every error code")
    async def errors() -> dict:
        return {"codes": sorted(set(error_codes()) | {"request/too_large"})}

    @app.get("/api/health", response_model=M.HealthOut, summary="Is the server up")
    async def health() -> dict:
        return {"ok": True, "storage": type(storage).__name__, "live": len(hub.live), "server": hub.server_id,
                "bot_queue": hub.bots.waiting}

    async def page() -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    for path in ("/", "/m/{mid}", "/r/{mid}"):
        app.add_api_route(path, page, include_in_schema=False)

    @app.websocket("/ws/matches/{mid}")
    async def ws(websocket: WebSocket, mid: str) -> None:
        await _serve_socket(hub, websocket, mid)

    app.mount("/static", StaticFiles(directory=STATIC), name="static")
    # Replays of long games are megabytes of views; they compress about tenfold.
    app.add_middleware(GZipMiddleware, minimum_size=2000)
    app.add_middleware(_BodyLimit)
    app.state.hub = hub
    app.state.storage = storage
    return app


async def _serve_socket(hub: Hub, websocket: WebSocket, mid: str) -> None:
    """One WebSocket: the seat's state after every change; moves, sync and ping from the client.

    A bad message gets an ``error`` message, never a dropped connection. When the seat
    changes hands, the socket is closed with code 4401.
    """
    await websocket.accept()
    token = websocket.query_params.get("token") or None
    if token is not None and len(token) > 100:
        token = "!"  # no seat has such a token
    try:
        live = await hub.get(mid)
        seat = hub.seat_of(live, token)
    except GameError as e:
        if http_status(e) not in (403, 404):
            log.warning("match %s: a socket could not load the match: %s: %s", mid, type(e).__name__, e)
        await websocket.send_json({"type": "error", "error": error_dict(e)})
        await websocket.close(code=CLOSE_FORBIDDEN if http_status(e) == 403 else CLOSE_NOT_FOUND)
        return
    send_lock = asyncio.Lock()
    closed = False

    async def send(msg: dict | str) -> None:
        text = msg if isinstance(msg, str) else encode(msg)
        async with send_lock:
            if not closed:
                await websocket.send_text(text)

    async def close(code: int, reason: str) -> None:
        nonlocal closed
        async with send_lock:
            if not closed:
                closed = True
                if websocket.application_state != WebSocketState.DISCONNECTED:
                    await websocket.close(code=code, reason=reason)

    async def error(err: GameError, ref: Any = None) -> None:
        await send({"type": "error", "ref": ref, "error": error_dict(err)})

    sub = Subscriber(seat, send, token_hash=hash_token(token) if token else None, close=close)
    live.subscribers.append(sub)
    try:
        first = await hub.current(live, seat, 0)
        sub.log_sent = first["log"]["total"]
        await send(first)
        await hub.broadcast_seats(live)
        while not closed:
            raw = await websocket.receive()
            if raw["type"] == "websocket.disconnect":
                break
            text = raw.get("text")
            if text is None:
                text = (raw.get("bytes") or b"").decode("utf-8", "replace")
            if len(text) > MAX_WS_MESSAGE:
                await error(BadRequestError(f"a message is at most {MAX_WS_MESSAGE} characters"))
                continue
            try:
                msg = M.CLIENT_MESSAGE.validate_json(text)
            except ValidationError as e:
                errs = e.errors(include_input=False)
                if any(x.get("type") == "json_invalid" for x in errs):
                    text_msg = "messages are JSON objects (valid JSON, not nested too deeply)"
                else:
                    text_msg = M.validation_message(errs)
                await error(BadRequestError(text_msg), _ref_of(text))
                continue
            live = await hub.get(mid)
            if closed:
                break
            if not hub.holds(live, sub):
                await hub.evict(live)
                await close(CLOSE_SEAT_CHANGED, "this seat changed hands; its old token is no longer valid")
                break
            if msg.type == "move":
                async def ack(version: int, ref: Any = msg.ref) -> None:  # once stored, before the new states
                    await send(encode({"type": "ack", "ref": ref, "version": version}))

                try:
                    if seat is None:
                        raise SeatForbiddenError("a move needs a seat token; spectators cannot move")
                    await hub.move_seat(live, seat, msg.action, msg.text, msg.version, msg.seat, ack)
                except GameError as e:
                    await error(e, msg.ref)
            elif msg.type == "sync":
                if sub not in live.subscribers:
                    live.subscribers.append(sub)
                out = await hub.current(live, seat, 0)
                sub.log_sent = out["log"]["total"]
                out["ref"] = msg.ref
                await send(out)
            else:
                await send({"type": "pong", "ref": msg.ref})
    except WebSocketDisconnect:
        pass
    except RuntimeError:  # the socket was closed under us (the seat changed hands)
        pass
    finally:
        current = hub.live.get(mid)
        for lv in {id(live): live, id(current): current}.values():
            if lv is not None:
                with contextlib.suppress(ValueError):
                    lv.subscribers.remove(sub)
        if current is not None:
            if current.over() and not current.subscribers and current.driver is None:
                hub.live.pop(mid, None)  # finished and unwatched: reload from storage if asked
            else:
                with contextlib.suppress(Exception):
                    await hub.broadcast_seats(current)


def _allowed(app: Any, scope: dict) -> list[str]:
    """The methods of every route that matches the request's path (for a 405's ``Allow``)."""
    from starlette.routing import Match

    methods: set[str] = set()
    for r in app.router.routes:
        match, _ = r.matches({**scope, "method": "GET"})
        if match != Match.NONE and getattr(r, "methods", None):
            methods |= set(r.methods)
        match, _ = r.matches({**scope, "method": "POST"})
        if match == Match.FULL and getattr(r, "methods", None):
            methods |= set(r.methods)
    return sorted(methods)


def _ref_of(text: str) -> Any:
    """The ``ref`` of a message that failed validation, when it can be read safely (else None)."""
    if len(text) > 4096 or text.count("[") + text.count("{") > 64:
        return None
    try:
        d = json.loads(text)
    except (ValueError, RecursionError):
        return None
    ref = d.get("ref") if isinstance(d, dict) else None
    if isinstance(ref, int) and not isinstance(ref, bool) and abs(ref) < 2**53:
        return ref
    if isinstance(ref, str) and len(ref) <= 64:
        return M.safe_message(ref, 64)
    return None

