"""No one can deny service (docs/web.md, "Bots" and "Bad requests"; issue 14 section 2).

Bots: only the named levels unless the server allows custom specs, each move bounded in
CPU time in a worker process, a bounded queue answered with ``server/busy``. Replays:
cached per match, version and seat, a bounded queue. Hostile bodies and WebSocket
messages: a typed 4xx (or an ``error`` message, or a close frame), a short message, and
nothing changed.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
import websockets
from webclient import call, create

from kingmaker.web.storage import open_storage

RUNAWAY = "ismcts:hard/seconds=none/iterations=1000000000"


def _count(db: str, mid: str | None = None) -> tuple[int, int, list]:
    """(matches, the match's actions, its seats) as stored: what bad requests must leave unchanged."""
    st = open_storage(db)
    try:
        rows = st.list_matches(limit=10**6)
        if mid is None:
            return len(rows), 0, []
        return len(rows), len(st.get_actions(mid)), st.get_seats(mid)
    finally:
        st.close()


def _dealt(server, mid: str) -> None:
    """Waits until the opening deal (chance, drawn by the server) is over: a seat is to move."""
    for _ in range(600):
        _, s = call(server, "GET", f"/api/matches/{mid}")
        if isinstance(s["to_move"], int):
            return
        time.sleep(0.05)
    raise AssertionError("the deal never ended")


def _raw(server, method: str, path: str, content: bytes, token: str | None = None) -> httpx.Response:
    headers = {"Content-Type": "application/json"}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    return httpx.request(method, server.url + path, content=content, headers=headers, timeout=30)


def test_web_only_named_bot_levels_by_default(shared_server):
    before = _count(shared_server.db)
    for spec in (RUNAWAY, "ismcts:easy/iterations=9", "ismcts:expert/iterations=100000", "heuristic:x", "oracle"):
        status, out = call(shared_server, "POST", "/api/matches",
                           {"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": spec}]})
        assert status == 400 and out["error"]["code"] == "request/invalid", spec
        assert "named bot levels" in out["error"]["message"]
    assert _count(shared_server.db) == before
    for spec in ("random", "heuristic", "ismcts:easy", "ismcts:normal", "ismcts:hard", "ismcts:expert"):
        status, out = call(shared_server, "POST", "/api/matches",
                           {"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": spec}]})
        assert status == 200, (spec, out)
    status, out = call(shared_server, "POST", "/api/matches",
                       {"game": "gangs-of-green-city", "players": 2,
                        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "team:easy"}]})
    assert status == 200, out
    # Leaving a seat to a bot is held to the same rule.
    mid = create(shared_server, game="kings-kilt", players=2, seats=[{"kind": "human"}] * 2)
    status, out = call(shared_server, "POST", f"/api/matches/{mid['match']}/leave", {"bot": RUNAWAY},
                       token=mid["tokens"]["0"])
    assert status == 400 and out["error"]["code"] == "request/invalid"
    _, g = call(shared_server, "GET", "/api/games")
    assert g["custom_bots"] is False and g["bots"]["ismcts"] == ["easy", "normal", "hard", "expert"]
    # the lobby is offered only what the server accepts (no "policy"... without custom bots)
    assert set(g["bots"]) == {"random", "heuristic", "ismcts", "team", "plan"}


def test_web_a_runaway_bot_is_cut_off_by_its_cpu_bound_and_others_go_on(make_server):
    """With custom specs allowed, a bot that would think for ever plays within its CPU bound."""
    server = make_server(args=("--custom-bots", "--bot-cpu-seconds", "0.1", "--bot-workers", "2"))
    runaway = create(server, game="kings-kilt", players=2, you=None, seed=61,
                     seats=[{"kind": "bot", "bot": RUNAWAY}, {"kind": "bot", "bot": "random"}])["match"]
    quick = create(server, game="kings-kilt", players=2, you=None, seed=62,
                   seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["match"]
    st = open_storage(server.db)
    deadline = time.monotonic() + 120
    try:
        while time.monotonic() < deadline:
            _, q = call(server, "GET", f"/api/matches/{quick}")
            moved = sum(a.player == 0 for a in st.get_actions(runaway))
            if q["status"] == "over" and moved >= 3:
                break
            time.sleep(0.2)
    finally:
        st.close()
    assert q["status"] == "over", "a runaway bot starved another match's bots"
    assert moved >= 3, "the runaway bot never finished a move"
    _, h = call(server, "GET", "/api/health")
    assert h["ok"] is True


def test_web_a_full_bot_queue_answers_server_busy(make_server):
    server = make_server(args=("--bot-queue", "0"))
    before = _count(server.db)
    status, out = call(server, "POST", "/api/matches",
                       {"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "random"}]})
    assert status == 503 and out["error"]["code"] == "server/busy" and "busy" in out["error"]["message"]
    assert _count(server.db) == before
    status, out = call(server, "POST", "/api/matches", {"game": "kings-kilt", "players": 2,
                                                        "seats": [{"kind": "human"}, {"kind": "human"}]})
    assert status == 200
    # Handing a seat to a bot waits in the same queue.
    status, err = call(server, "POST", f"/api/matches/{out['match']}/leave", {"bot": "random"},
                       token=out["tokens"]["1"])
    assert status == 503 and err["error"]["code"] == "server/busy"
    _, s = call(server, "GET", f"/api/matches/{out['match']}")
    assert s["seats"][1]["kind"] == "human"


DEEP = b"[" * 20000 + b"]" * 20000  # under the body limit: the parser must refuse it
HUGE_DEEP = b"[" * 100000 + b"]" * 100000  # over the body limit


def _bad_bodies(token: str) -> list[tuple[str, str, bytes, int, str]]:
    kk = {"game": "kings-kilt", "players": 2}
    j = json.dumps
    return [
        ("POST", "/api/matches", DEEP, 400, "request/invalid"),
        ("POST", "/api/matches", HUGE_DEEP, 413, "request/too_large"),
        ("POST", "/api/matches", j({"game": "\ud800"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({**kk, "options": {"players": 3}}).encode(), 400, "game/invalid_option"),
        ("POST", "/api/matches", j({**kk, "options": {"game_id": "kingpin"}}).encode(), 400, "game/invalid_option"),
        ("POST", "/api/matches", j({**kk, "public": "false"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({**kk, "seats": [{"name": "a\x00b"}, {}]}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({**kk, "seats": [{"name": "ann\u202egnp.exe"}, {}]}).encode(), 400,
         "request/invalid"),
        ("POST", "/api/matches", j({**kk, "seats": [{"name": "\ud800"}, {}]}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({"game": "x" * 1_000_000}).encode(), 413, "request/too_large"),
        ("POST", "/api/matches", j({"game": "x" * 60_000}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({**kk, "players": True}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", j({**kk, "seats": "two"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches", b"[]", 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/moves", DEEP, 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/moves", HUGE_DEEP, 413, "request/too_large"),
        ("POST", "/api/matches/{mid}/moves", j({"text": "\ud800"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/moves", j({"text": "x" * 60_000}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/moves", j({"action": 2**80}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/join", DEEP, 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/join", HUGE_DEEP, 413, "request/too_large"),
        ("POST", "/api/matches/{mid}/join", j({"name": "bob\x00"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/join", j({"name": "\u202ebob"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/join", j({"token": "\ud800"}).encode(), 400, "request/invalid"),
        ("POST", "/api/matches/{mid}/leave", j({"bot": "\ud800"}).encode(), 400, "request/invalid"),
    ]


def test_web_hostile_bodies_get_a_typed_4xx_a_short_message_and_change_nothing(shared_server):
    out = create(shared_server, game="kings-kilt", players=3, public=True, seed=71,
                 seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "human"}])
    mid, token = out["match"], out["tokens"]["0"]
    _dealt(shared_server, mid)
    before = _count(shared_server.db, mid)
    for method, path, body, status, code in _bad_bodies(token):
        r = _raw(shared_server, method, path.format(mid=mid), body, token)
        assert r.status_code == status, (path, body[:60], r.text[:200])
        assert len(r.content) < 2000, (path, "the error repeats the input")
        err = r.json()["error"]
        assert err["code"] == code and err["message"], (path, body[:60], err)
    assert _count(shared_server.db, mid) == before
    _, s = call(shared_server, "GET", f"/api/matches/{mid}")
    assert [x["name"] for x in s["seats"]][1:] == [None, None]  # nobody joined


def test_web_hostile_websocket_messages_get_an_error_or_a_close_frame_never_a_drop(shared_server):
    out = create(shared_server, game="kings-kilt", players=2, seed=72, seats=[{"kind": "human"}] * 2)
    mid, token = out["match"], out["tokens"]["0"]
    _dealt(shared_server, mid)
    before = _count(shared_server.db, mid)
    bad = [
        "[" * 5000 + "]" * 5000,
        json.dumps({"type": "move", "text": "\ud800", "ref": 1}),
        json.dumps({"type": "move", "action": "x1", "ref": 2}),
        json.dumps({"type": "dance", "ref": 3}),
        json.dumps([1, 2, 3]),
        "not json at all",
        json.dumps({"type": "move", "text": "y" * 30_000}),
        b"\x00\xff binary",
    ]

    async def run():
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}?token={token}") as ws:
            replies = []
            for k, msg in enumerate(bad):
                await ws.send(msg)
                await ws.send(json.dumps({"type": "ping", "ref": f"p{k}"}))
                while True:
                    reply = json.loads(await asyncio.wait_for(ws.recv(), 10))
                    if reply["type"] == "error":
                        replies.append(reply)
                    if reply["type"] == "pong":
                        assert reply["ref"] == f"p{k}"
                        break
            return replies

    replies = asyncio.run(run())
    assert len(replies) == len(bad)
    for r in replies:
        assert r["error"]["code"] == "request/invalid" and 0 < len(r["error"]["message"]) <= 500
    assert [r["ref"] for r in replies[1:4]] == [1, 2, 3]

    # A frame over the server's size limit: a close frame (1009), not a dropped connection.
    async def huge():
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}?token={token}") as ws:
            await ws.recv()
            await ws.send("[" * 100000 + "]" * 100000)
            with pytest.raises(websockets.ConnectionClosed) as info:
                while True:
                    await asyncio.wait_for(ws.recv(), 10)
            return info.value.rcvd

    rcvd = asyncio.run(huge())
    assert rcvd is not None and rcvd.code == 1009
    assert _count(shared_server.db, mid) == before


def test_web_replays_are_cached_per_match_version_and_seat_and_their_queue_is_bounded(tmp_path, monkeypatch):
    from kingmaker.web import hub as hub_mod
    from kingmaker.web.models import ServerBusyError

    built = []
    real = hub_mod.build_replay

    def counting(rec, seat):
        built.append((rec[0], len(rec[5]), seat))
        return real(rec, seat)

    monkeypatch.setattr(hub_mod, "build_replay", counting)

    async def run():
        store = open_storage(f"sqlite:///{tmp_path / 'r.sqlite3'}")
        hub = hub_mod.Hub(store, bot_delay=0, bot_workers=0, replay_workers=0)
        out = hub.create({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        mid = out["match"]
        live = await hub.get(mid)
        a = await hub.replay(mid, None)
        b = await hub.replay(mid, None)
        c = await hub.replay(mid, out["tokens"]["1"])
        hub.replays.limit = 0  # nothing may wait: a replay not in the cache is refused
        d = await hub.replay(mid, None)
        with pytest.raises(ServerBusyError):
            await hub.replay(mid, out["tokens"]["0"])
        await hub.close()
        store.close()
        return live, a, b, c, d

    live, a, b, c, d = asyncio.run(run())
    assert a == b == d and json.loads(a)["seat"] is None and json.loads(c)["seat"] == 1
    assert built == [(live.id, 0, None), (live.id, 0, 1)]
