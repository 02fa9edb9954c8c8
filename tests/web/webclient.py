"""A small client for the web tests: HTTP calls, seats playing over WebSockets, payload checks."""

from __future__ import annotations

import asyncio
import json
import random
from dataclasses import dataclass, field
from typing import Any

import httpx
import websockets

import kingmaker
from kingmaker.core.match import Match
from kingmaker.web.models import StateOut
from kingmaker.web.storage import open_storage

PAYLOAD_KEYS = {
    "type", "match", "game", "players", "options", "version", "seat", "status", "to_move", "acting",
    "simultaneous", "view", "legal", "log", "result", "seats",
}
SEAT_KEYS = {"seat", "kind", "bot", "name", "claimed", "connected"}


def call(server, method: str, path: str, body: Any = None, token: str | None = None) -> tuple[int, dict]:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.request(method, server.url + path, json=body, headers=headers, timeout=30)
    return r.status_code, r.json()


def create(server, **body) -> dict:
    status, out = call(server, "POST", "/api/matches", body)
    assert status == 200, out
    return out


def _j(x: Any) -> Any:
    return json.loads(json.dumps(x))


@dataclass
class SeatPlayer:
    seat: int | None
    token: str | None
    rng: random.Random
    payloads: list[dict] = field(default_factory=list)
    errors: list[dict] = field(default_factory=list)
    log: list[str] = field(default_factory=list)
    log_at: dict[int, list[str]] = field(default_factory=dict)  # version -> log as this seat had it
    moves: int = 0


async def play_over_ws(server, mid: str, tokens: dict[int, str], seed: int = 0, spectator: bool = True,
                       timeout: float = 120, choose=None, stop_after: int | None = None,
                       where: dict | None = None, spectators: list | None = None) -> list[SeatPlayer]:
    """Plays every seat in ``tokens`` with random legal moves over WebSockets until the end.

    ``choose(player, payload, rng) -> action`` overrides the random choice; ``stop_after``
    stops once the match reaches that version. ``where`` maps a seat to the server it
    connects to (default ``server``); ``spectators`` lists the servers spectators watch
    through (default: one on ``server`` when ``spectator``).
    """
    players = [SeatPlayer(s, t, random.Random(f"{seed}/{s}")) for s, t in sorted(tokens.items())]
    servers = {id(p): (where or {}).get(p.seat, server) for p in players}
    for k, srv in enumerate(spectators if spectators is not None else ([server] if spectator else [])):
        p = SeatPlayer(None, None, random.Random(f"{seed}/spectator/{k}"))
        players.append(p)
        servers[id(p)] = srv

    async def run(p: SeatPlayer) -> None:
        srv = servers[id(p)]
        url = f"{srv.ws_url}/ws/matches/{mid}" + (f"?token={p.token}" if p.token else "")
        async with websockets.connect(url, max_size=2**24) as ws:
            pending = False
            latest: dict | None = None
            sent_for = -1

            async def act() -> None:
                nonlocal pending, sent_for
                if latest is None or pending or not latest["legal"] or latest["version"] <= sent_for:
                    return
                if choose is not None:
                    a = choose(p.seat, latest, p.rng)
                else:
                    a = p.rng.choice(latest["legal"])["action"]
                pending = True
                sent_for = latest["version"]
                p.moves += 1
                await ws.send(json.dumps({"type": "move", "action": a, "version": latest["version"], "ref": p.moves}))

            # Each seat reads until it has seen the end (or ``stop_after``) itself: every
            # change is sent to every seat, so all of them get there.
            while True:
                raw = await ws.recv()
                msg = json.loads(raw)
                if msg["type"] == "state":
                    start = msg["log"]["start"]
                    assert start == len(p.log) or start == 0, (start, len(p.log))
                    p.log = p.log[:start] + msg["log"]["lines"]
                    assert len(p.log) == msg["log"]["total"]
                    p.log_at[msg["version"]] = list(p.log)
                    p.payloads.append(msg)
                    latest = msg
                    if msg["status"] == "over" or (stop_after is not None and msg["version"] >= stop_after):
                        break
                    await act()
                elif msg["type"] in ("ack", "error"):
                    if msg["type"] == "error":
                        p.errors.append(msg["error"])
                    pending = False
                    await act()

    await asyncio.wait_for(asyncio.gather(*(run(p) for p in players)), timeout)
    return players


def stored(db: str, mid: str) -> tuple[Any, Any, list]:
    """Returns the game, the match row and the actions as stored (the authority's record)."""
    st = open_storage(db)
    try:
        row = st.get_match(mid)
        actions = st.get_actions(mid)
    finally:
        st.close()
    game = kingmaker.make(row.game, players=row.players, **row.options)
    return game, row, actions


def check_payloads(db: str, mid: str, players: list[SeatPlayer]) -> int:
    """Checks every payload each seat received against an independent replay; returns how many."""
    game, row, actions = stored(db, mid)
    wanted = {(p.seat, pl["version"]) for p in players for pl in p.payloads}
    versions = sorted({v for _, v in wanted})
    expect: dict[tuple[int | None, int], tuple[dict, list, list[str]]] = {}
    m = Match(game, seed=row.seed)
    seats = {p.seat for p in players}
    vi = 0
    for k in range(len(actions) + 1):
        if vi < len(versions) and versions[vi] == k:
            vi += 1
            s = m.state
            cp = game.current_player(s)
            acting = game.acting_players(s) if cp >= 0 or cp == kingmaker.SIMULTANEOUS else ()
            for seat in seats:
                legal = []
                if seat is not None and seat in acting and not game.is_terminal(s):
                    legal = [{"action": a, "text": game.action_to_str(s, a)} for a in game.legal_actions(s, seat)]
                expect[(seat, k)] = (_j(game.view(s, seat)), legal, m.log_for(seat))
        if k == len(actions):
            break
        a = actions[k]
        if a.player == kingmaker.CHANCE:
            assert m.step_chance() == a.action
        else:
            m.play(a.action, a.player)
    n = 0
    for p in players:
        for pl in p.payloads:
            assert set(pl) == PAYLOAD_KEYS
            StateOut.model_validate(pl)  # the message documented in docs/web.md and /openapi.json
            assert pl["seat"] == p.seat and pl["match"] == mid
            view, legal, log = expect[(p.seat, pl["version"])]
            assert pl["view"] == view, f"seat {p.seat} v{pl['version']}: payload view differs from game.view"
            assert pl["legal"] == legal
            assert p.log_at[pl["version"]] == log
            for s in pl["seats"]:
                assert set(s) == SEAT_KEYS
            n += 1
    return n
