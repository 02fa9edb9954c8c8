"""Secrecy when a seat changes hands (docs/web.md, "Seats and tokens"; issue 14 section 1).

A socket opened with a seat's token hears that seat's secrets only while the token
holds the seat: when the seat changes hands (its player leaves, a friend claims an
invite) every socket opened with the old token is closed with code 4401, and every
send checks the token first. Joining a seat gives a fresh token; the invite stops working.
"""

from __future__ import annotations

import asyncio
import json

import pytest
import websockets
from webclient import call, create

CLOSE_SEAT_CHANGED = 4401


async def _read_until_closed(ws, seconds: float = 10, most: int = 20) -> tuple[list[dict], int | None]:
    """Reads messages (asking for a sync after each) until the server closes the socket.

    Returns what was read and the close code (None: still open after ``most`` messages).
    """
    got: list[dict] = []
    try:
        while len(got) < most:
            got.append(json.loads(await asyncio.wait_for(ws.recv(), seconds)))
            await ws.send(json.dumps({"type": "sync", "ref": len(got)}))
    except websockets.ConnectionClosed as e:
        return got, (e.rcvd.code if e.rcvd is not None else None)
    return got, None


def test_web_a_seat_left_and_taken_by_a_stranger_closes_the_old_socket(shared_server):
    """Join seat 1, open a socket, leave, a stranger joins seat 1: the old socket hears nothing of them."""
    out = create(shared_server, game="kings-kilt", players=2, public=True, seed=51,
                 seats=[{"kind": "human", "name": "ann"}, {"kind": "human"}])
    mid = out["match"]
    status, bob = call(shared_server, "POST", f"/api/matches/{mid}/join", {"name": "bob"})
    assert status == 200 and bob["seat"] == 1

    async def run():
        url = f"{shared_server.ws_url}/ws/matches/{mid}?token={bob['token']}"
        async with websockets.connect(url) as ws:
            first = json.loads(await ws.recv())
            assert first["type"] == "state" and first["seat"] == 1
            status, _ = await asyncio.to_thread(call, shared_server, "POST", f"/api/matches/{mid}/leave", {},
                                                bob["token"])
            assert status == 200
            status, eve = await asyncio.to_thread(call, shared_server, "POST", f"/api/matches/{mid}/join",
                                                  {"name": "eve"})
            assert status == 200 and eve["seat"] == 1 and eve["token"] != bob["token"]
            got, code = await _read_until_closed(ws)
            return eve, got, code

    eve, got, code = asyncio.run(run())
    assert code == CLOSE_SEAT_CHANGED
    # Nothing of the stranger reached the old socket: no seat list naming her, no state after the leave.
    assert "eve" not in json.dumps(got)
    # The old token reads nothing; the stranger's reads seat 1.
    status, err = call(shared_server, "GET", f"/api/matches/{mid}/state", token=bob["token"])
    assert status == 403 and err["error"]["code"] == "seat/forbidden"
    status, st = call(shared_server, "GET", f"/api/matches/{mid}/state", token=eve["token"])
    assert status == 200 and st["seat"] == 1

    # A socket opened later with the old token is refused.
    async def late():
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}?token={bob['token']}") as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["error"]["code"] == "seat/forbidden"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()

    asyncio.run(late())


def test_web_an_invite_token_stops_working_once_the_friend_joins(shared_server):
    """The creator holds every invite token; once the friend joins, the invite reads nothing."""
    out = create(shared_server, game="kings-kilt", players=2, public=False, seed=52,
                 seats=[{"kind": "human", "name": "ann"}, {"kind": "human"}])
    mid, invite = out["match"], out["tokens"]["1"]

    async def run():
        # The creator opens a socket with the invite token before the friend comes.
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}?token={invite}") as spy:
            first = json.loads(await spy.recv())
            assert first["seat"] == 1
            status, dan = await asyncio.to_thread(call, shared_server, "POST", f"/api/matches/{mid}/join",
                                                  {"token": invite, "name": "dan"})
            assert status == 200 and dan["seat"] == 1
            assert dan["token"] != invite
            got, code = await _read_until_closed(spy)
            return dan, got, code

    dan, got, code = asyncio.run(run())
    assert code == CLOSE_SEAT_CHANGED
    assert "dan" not in json.dumps(got)
    for method, path, body in (("GET", "state", None), ("GET", "replay", None), ("POST", "join", {"token": invite})):
        status, err = call(shared_server, method, f"/api/matches/{mid}/{path}", body, token=invite)
        assert status == 403 and err["error"]["code"] == "seat/forbidden", path
    status, st = call(shared_server, "GET", f"/api/matches/{mid}/state", token=dan["token"])
    assert status == 200 and st["seat"] == 1 and st["view"]["you"] == 1
    # The friend may come back with their own token (a new name): same seat, same token.
    status, again = call(shared_server, "POST", f"/api/matches/{mid}/join", {"token": dan["token"], "name": "dan2"})
    assert status == 200 and (again["seat"], again["token"]) == (1, dan["token"])


def test_web_every_send_checks_the_token_still_holds_the_seat(tmp_path):
    """A subscriber whose token no longer holds its seat is sent nothing, and is closed."""
    from kingmaker.web.hub import CLOSE_SEAT_CHANGED as CODE
    from kingmaker.web.hub import Hub, Subscriber
    from kingmaker.web.storage import hash_token, open_storage

    async def run():
        store = open_storage(f"sqlite:///{tmp_path / 'h.sqlite3'}")
        hub = Hub(store, bot_delay=0, bot_workers=0, replay_workers=0)
        out = hub.create({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "human"}]})
        live = await hub.get(out["match"])
        sent: dict[str, list] = {"old": [], "now": []}
        closed: list[int] = []

        async def close(code, reason):
            closed.append(code)

        old = Subscriber(1, lambda m: _append(sent["old"], m), token_hash=hash_token("stolen"), close=close)
        now = Subscriber(1, lambda m: _append(sent["now"], m), token_hash=hash_token(out["tokens"]["1"]))
        live.subscribers += [old, now]
        await hub.broadcast(live)
        await hub.close()
        store.close()
        return sent, closed, live

    async def _append(box, m):
        box.append(json.loads(m) if isinstance(m, str) else m)

    sent, closed, live = asyncio.run(run())
    assert sent["old"] == [] and closed == [CODE]
    assert len(sent["now"]) == 1 and sent["now"][0]["seat"] == 1
    assert len(live.subscribers) == 1
