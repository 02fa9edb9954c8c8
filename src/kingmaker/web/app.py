"""The ASGI app: the HTTP API, the WebSocket and the page (static files, no build step).

    app = create_app("sqlite:///tmp/km.sqlite3")   # or a postgresql:// URL, or None for the default file
    uvicorn.run(app)

See docs/web.md for the API and the WebSocket messages; ``/openapi.json`` describes the HTTP API.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
from pathlib import Path

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.gzip import GZipMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..core.errors import GameError
from .hub import BadRequestError, Hub, Subscriber, bot_levels, http_status
from .openapi import openapi_spec
from .storage import Storage, open_storage

__all__ = ["create_app"]

STATIC = Path(__file__).with_name("static")


def _error(err: GameError) -> JSONResponse:
    return JSONResponse({"error": err.to_dict()}, status_code=http_status(err))


def _token(request: Request | WebSocket, body: dict | None = None) -> str | None:
    auth = request.headers.get("authorization", "")
    if auth.lower().startswith("bearer "):
        return auth[7:].strip() or None
    if body and isinstance(body.get("token"), str):
        return body["token"]
    return request.query_params.get("token") or None


async def _body(request: Request) -> dict:
    raw = await request.body()
    if not raw:
        return {}
    try:
        data = json.loads(raw)
    except ValueError as e:
        raise BadRequestError(f"the body is not JSON: {e}") from None
    if not isinstance(data, dict):
        raise BadRequestError("the body must be a JSON object")
    return data


def _api(fn):
    async def endpoint(request: Request) -> Response:
        try:
            return JSONResponse(await fn(request))
        except GameError as e:
            return _error(e)

    return endpoint


def create_app(db: str | Storage | None = None, bot_delay: float = 0.4) -> Starlette:
    """Returns the app over the storage ``db`` (a URL, a Storage, or None for the default SQLite file)."""
    storage = db if isinstance(db, Storage) else open_storage(db)
    hub = Hub(storage, bot_delay=bot_delay)

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette):
        await hub.start()
        try:
            yield
        finally:
            await hub.close()
            if not isinstance(db, Storage):
                storage.close()

    async def games(request: Request) -> dict:
        return {"games": hub.games(), "bots": bot_levels()}

    async def create(request: Request) -> dict:
        out = hub.create(await _body(request))
        live = await hub.get(out["match"])
        hub.kick(live)
        out["summary"] = hub.summary(live)
        return out

    async def lobby(request: Request) -> dict:
        return {"matches": hub.lobby()}

    async def summary(request: Request) -> dict:
        live = await hub.get(request.path_params["mid"])
        return hub.summary(live)

    async def state(request: Request) -> dict:
        live = await hub.get(request.path_params["mid"])
        seat = hub.seat_of(live, _token(request))
        return hub.payload(live, seat)

    async def move(request: Request) -> dict:
        body = await _body(request)
        mid = request.path_params["mid"]
        out = await hub.move(mid, _token(request, body), body)
        live = await hub.get(mid)
        out["state"] = hub.payload(live, out["seat"])
        return out

    async def join(request: Request) -> dict:
        body = await _body(request)
        return await hub.join(request.path_params["mid"], body)

    async def leave(request: Request) -> dict:
        body = await _body(request)
        return await hub.leave(request.path_params["mid"], _token(request, body), body)

    async def replay(request: Request) -> dict:
        return await hub.replay(request.path_params["mid"], _token(request))

    async def errors(request: Request) -> dict:
        from ..core.errors import error_codes

        return {"codes": sorted(error_codes())}

    async def openapi(request: Request) -> Response:
        return JSONResponse(openapi_spec())

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})

    async def health(request: Request) -> dict:
        return {"ok": True, "storage": type(storage).__name__, "live": len(hub.live)}

    async def ws(websocket: WebSocket) -> None:
        await websocket.accept()
        mid = websocket.path_params["mid"]
        try:
            live = await hub.get(mid)
            seat = hub.seat_of(live, _token(websocket))
        except GameError as e:
            await websocket.send_json({"type": "error", "error": e.to_dict()})
            await websocket.close(code=4403 if http_status(e) == 403 else 4404)
            return
        send_lock = asyncio.Lock()

        async def send(msg: dict) -> None:
            async with send_lock:
                await websocket.send_json(msg)

        sub = Subscriber(seat, send)
        live.subscribers.append(sub)
        token = _token(websocket)
        try:
            first = hub.payload(live, seat, 0)
            sub.log_sent = first["log"]["total"]
            await send(first)
            await hub.broadcast_seats(live)
            while True:
                try:
                    msg = await websocket.receive_json()
                except (ValueError, KeyError):
                    await send({"type": "error", "error": BadRequestError("messages are JSON objects").to_dict()})
                    continue
                if not isinstance(msg, dict):
                    await send({"type": "error", "error": BadRequestError("messages are JSON objects").to_dict()})
                    continue
                kind = msg.get("type")
                ref = msg.get("ref")
                if kind == "move":
                    try:
                        out = await hub.move(mid, token, msg)
                        await send({"type": "ack", "ref": ref, "version": out["version"]})
                    except GameError as e:
                        await send({"type": "error", "ref": ref, "error": e.to_dict()})
                elif kind == "sync":
                    live = await hub.get(mid)
                    if sub not in live.subscribers:
                        live.subscribers.append(sub)
                    msg = hub.payload(live, seat, 0)
                    sub.log_sent = msg["log"]["total"]
                    msg["ref"] = ref
                    await send(msg)
                elif kind == "ping":
                    await send({"type": "pong", "ref": ref})
                else:
                    err = BadRequestError(f"unknown message type {kind!r}; expected move, sync or ping")
                    await send({"type": "error", "ref": ref, "error": err.to_dict()})
        except WebSocketDisconnect:
            pass
        finally:
            for lv in {id(live): live, id(hub.live.get(mid)): hub.live.get(mid)}.values():
                if lv is not None:
                    with contextlib.suppress(ValueError):
                        lv.subscribers.remove(sub)
            current = hub.live.get(mid)
            if current is not None:
                if current.over() and not current.subscribers and current.driver is None:
                    hub.live.pop(mid, None)  # finished and unwatched: reload from storage if asked
                else:
                    with contextlib.suppress(Exception):
                        await hub.broadcast_seats(current)

    routes = [
        Route("/api/games", _api(games)),
        Route("/api/matches", _api(lobby), methods=["GET"]),
        Route("/api/matches", _api(create), methods=["POST"]),
        Route("/api/matches/{mid}", _api(summary)),
        Route("/api/matches/{mid}/state", _api(state)),
        Route("/api/matches/{mid}/moves", _api(move), methods=["POST"]),
        Route("/api/matches/{mid}/join", _api(join), methods=["POST"]),
        Route("/api/matches/{mid}/leave", _api(leave), methods=["POST"]),
        Route("/api/matches/{mid}/replay", _api(replay)),
        Route("/api/errors", _api(errors)),
        Route("/api/health", _api(health)),
        Route("/openapi.json", openapi),
        WebSocketRoute("/ws/matches/{mid}", ws),
        Route("/", page),
        Route("/m/{mid}", page),
        Route("/r/{mid}", page),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # Replays of long games are megabytes of views; they compress about tenfold.
    app = Starlette(routes=routes, lifespan=lifespan, middleware=[Middleware(GZipMiddleware, minimum_size=2000)])
    app.state.hub = hub
    app.state.storage = storage
    return app
