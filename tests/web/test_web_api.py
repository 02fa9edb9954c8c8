"""Whole games through the HTTP and WebSocket API of a real server, checked against the engine.

Every payload a seat (or a spectator) receives is compared with ``game.view(state, seat)``,
the seat's legal moves and ``Match.log_for(seat)`` computed from an independent replay of
the stored record.
"""

from __future__ import annotations

import asyncio
import json
import time

import httpx
import pytest
import websockets
from webclient import call, check_payloads, create, play_over_ws, stored

import kingmaker
from kingmaker.core.match import Match


def _players(game_id: str) -> int:
    cls = kingmaker.game_class(game_id)
    return min(cls.max_players, max(cls.min_players, 3))


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_every_game_played_to_the_end_over_websockets_sends_only_views(shared_server, game_id):
    n = _players(game_id)
    out = create(shared_server, game=game_id, players=n, seats=[{"kind": "human"}] * n, seed=11)
    mid = out["match"]
    tokens = {int(k): v for k, v in out["tokens"].items()}
    assert sorted(tokens) == list(range(n))
    players = asyncio.run(play_over_ws(shared_server, mid, tokens, seed=3, timeout=150))
    assert all(p.payloads[-1]["status"] == "over" for p in players)
    checked = check_payloads(shared_server.db, mid, players)
    assert checked >= len(players)
    # The stored record replays to the same result the server announced.
    game, row, actions = stored(shared_server.db, mid)
    m = Match(game, seed=row.seed)
    for a in actions:
        if a.player == kingmaker.CHANCE:
            m.step_chance()
        else:
            m.play(a.action, a.player)
    assert m.is_over()
    assert players[0].payloads[-1]["result"] == list(m.returns()) == row.result
    # The replay, from seat 0's point of view and from a spectator's.
    for seat, token in ((0, tokens[0]), (None, None)):
        status, rep = call(shared_server, "GET", f"/api/matches/{mid}/replay", token=token)
        assert status == 200 and rep["seat"] == seat
        assert len(rep["frames"]) == len(actions) + 1
        r = Match(game, seed=row.seed)
        for k, f in enumerate(rep["frames"]):
            assert f["version"] == k
            assert f["view"] == json.loads(json.dumps(game.view(r.state, seat)))
            assert rep["log"][: f["log_total"]] == r.log_for(seat)
            if k < len(actions):
                a = actions[k]
                if a.player == kingmaker.CHANCE:
                    r.step_chance()
                else:
                    r.play(a.action, a.player)
        assert rep["log"] == r.log_for(seat)


def _wait_for_turn(server, mid, token, seat, tries=200):
    for _ in range(tries):
        status, st = call(server, "GET", f"/api/matches/{mid}/state", token=token)
        assert status == 200, st
        if st["legal"] or st["status"] == "over":
            return st
        time.sleep(0.05)
    raise AssertionError(f"seat {seat} never got a move")


def _first_to_move(server, mid):
    """Waits until the deal is over; returns the match summary (its to_move is a seat)."""
    for _ in range(400):
        _, s = call(server, "GET", f"/api/matches/{mid}")
        if isinstance(s["to_move"], int):
            return s
        time.sleep(0.05)
    raise AssertionError("nobody is to move")


def test_web_a_seat_token_cannot_act_for_another_seat_or_read_its_secrets(shared_server):
    out = create(shared_server, game="kings-kilt", players=2, seats=[{"kind": "human"}] * 2, seed=5)
    mid, t0, t1 = out["match"], out["tokens"]["0"], out["tokens"]["1"]
    st0 = _wait_for_turn(shared_server, mid, t0, 0)
    v = st0["version"]
    mover = st0["to_move"]
    other = 1 - mover
    tok = {0: t0, 1: t1}
    # Seat tokens are bound to their seat: the other seat's token cannot move for the mover.
    status, err = call(shared_server, "POST", f"/api/matches/{mid}/moves",
                       {"action": st0["legal"][0]["action"], "seat": mover, "version": v}, token=tok[other])
    assert status == 403 and err["error"]["code"] == "seat/forbidden"
    status, err = call(shared_server, "POST", f"/api/matches/{mid}/moves",
                       {"action": st0["legal"][0]["action"], "version": v}, token=tok[other])
    assert status == 400 and err["error"]["code"] == "action/not_your_turn"
    # No token, or a made-up one: no move and no seat's view.
    status, err = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"action": 0})
    assert status == 403 and err["error"]["code"] == "seat/forbidden"
    status, err = call(shared_server, "GET", f"/api/matches/{mid}/state", token="not-a-token")
    assert status == 403 and err["error"]["code"] == "seat/forbidden"
    status, err = call(shared_server, "GET", f"/api/matches/{mid}/replay", token="not-a-token")
    assert status == 403
    # Nothing changed.
    game, row, actions = stored(shared_server.db, mid)
    assert len(actions) == v
    # Each token reads exactly its own seat's view; the spectator reads the public one.
    m = Match(game, seed=row.seed)
    for a in actions:
        m.step_chance() if a.player == kingmaker.CHANCE else m.play(a.action, a.player)
    views = {}
    for seat, token in ((0, t0), (1, t1), (None, None)):
        status, st = call(shared_server, "GET", f"/api/matches/{mid}/state", token=token)
        assert status == 200 and st["seat"] == seat
        assert st["view"] == json.loads(json.dumps(game.view(m.state, seat)))
        views[seat] = st["view"]
    assert "family" in views[0] and "family" in views[1] and "family" not in views[None]
    assert views[0]["you"] == 0 and views[1]["you"] == 1
    # A WebSocket with a bad token is refused with a typed error.

    async def bad_ws():
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}?token=nope") as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "error" and msg["error"]["code"] == "seat/forbidden"
            with pytest.raises(websockets.ConnectionClosed):
                await ws.recv()

    asyncio.run(bad_ws())

    # A spectator's WebSocket gets the public view and cannot move.
    async def spectator_ws():
        async with websockets.connect(f"{shared_server.ws_url}/ws/matches/{mid}") as ws:
            msg = json.loads(await ws.recv())
            assert msg["type"] == "state" and msg["seat"] is None and msg["legal"] == []
            assert msg["view"] == json.loads(json.dumps(game.view(m.state, None)))
            await ws.send(json.dumps({"type": "move", "action": st0["legal"][0]["action"], "ref": 7}))
            while True:
                reply = json.loads(await ws.recv())
                if reply["type"] == "error":
                    break
            assert reply["ref"] == 7 and reply["error"]["code"] == "seat/forbidden"

    asyncio.run(spectator_ws())
    assert len(stored(shared_server.db, mid)[2]) == v


def test_web_racing_moves_for_one_version_give_one_success_and_one_conflict(shared_server):
    out = create(shared_server, game="kings-kilt", players=2, seats=[{"kind": "human"}] * 2, seed=9)
    mid = out["match"]
    s = _first_to_move(shared_server, mid)
    seat = s["to_move"]
    token = out["tokens"][str(seat)]
    st = _wait_for_turn(shared_server, mid, token, seat)
    v = st["version"]
    a, b = st["legal"][0]["action"], st["legal"][-1]["action"]

    async def race():
        async with httpx.AsyncClient(base_url=shared_server.url, timeout=30) as c:
            h = {"Authorization": f"Bearer {token}"}
            return await asyncio.gather(
                c.post(f"/api/matches/{mid}/moves", json={"action": a, "version": v}, headers=h),
                c.post(f"/api/matches/{mid}/moves", json={"action": b, "version": v}, headers=h),
            )

    r1, r2 = asyncio.run(race())
    assert sorted([r1.status_code, r2.status_code]) == [200, 409]
    lost = r1 if r1.status_code == 409 else r2
    won = r2 if lost is r1 else r1
    assert lost.json()["error"]["code"] == "match/conflict"
    # The answer's version counts the move and the chance outcomes drawn right after it.
    assert won.json()["version"] >= v + 1
    _, _, actions = stored(shared_server.db, mid)
    assert (actions[v].player, actions[v].action) == (seat, a if won is r1 else b)
    # Only chance (the next card turned up) may follow: the losing move was not stored.
    assert all(x.player == kingmaker.CHANCE for x in actions[v + 1:])


def test_web_bad_requests_get_typed_errors_and_change_nothing(shared_server):
    cases = [
        ({"game": "no-such-game"}, 404, "game/unknown"),
        ({"game": "kings-kilt", "players": 9}, 400, "game/invalid_players"),
        ({"game": "kings-kilt", "options": {"colour": "red"}}, 400, "game/invalid_option"),
        ({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}]}, 400, "request/invalid"),
        ({"game": "kings-kilt", "players": 2, "seats": [{"kind": "human"}, {"kind": "bot", "bot": "oracle"}]},
         400, "request/invalid"),
        ({"players": 2}, 400, "request/invalid"),
    ]
    for body, code, err in cases:
        status, out = call(shared_server, "POST", "/api/matches", body)
        assert (status, out["error"]["code"]) == (code, err), body
        assert out["error"]["message"]
    status, out = call(shared_server, "GET", "/api/matches/nothing-here")
    assert (status, out["error"]["code"]) == (404, "match/not_found")
    r = httpx.post(shared_server.url + "/api/matches", content=b"{not json", timeout=10)
    assert r.status_code == 400 and r.json()["error"]["code"] == "request/invalid"

    out = create(shared_server, game="kings-kilt", players=2, seats=[{"kind": "human"}] * 2, seed=21)
    mid = out["match"]
    s = _first_to_move(shared_server, mid)
    seat = s["to_move"]
    token = out["tokens"][str(seat)]
    st = _wait_for_turn(shared_server, mid, token, seat)
    v = st["version"]
    game, row, actions = stored(shared_server.db, mid)
    m = Match(game, seed=row.seed)
    for a in actions:
        m.step_chance() if a.player == kingmaker.CHANCE else m.play(a.action, a.player)
    legal = {x["action"] for x in st["legal"]}
    illegal = next(a for a in range(1000) if a not in legal)
    try:
        game.play(m.state, illegal, seat)
        raise AssertionError("the engine accepted an illegal action")
    except kingmaker.GameError as e:
        engine_error = e.to_dict()
    status, out = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"action": illegal, "version": v},
                       token=token)
    assert status == 400 and out["error"] == engine_error
    status, out = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"text": "dance a jig"}, token=token)
    assert status == 400 and out["error"]["code"] == "action/invalid"
    status, out = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"action": "x1"}, token=token)
    assert status == 400 and out["error"]["code"] == "request/invalid"
    status, out = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"version": v}, token=token)
    assert status == 400 and out["error"]["code"] == "request/invalid"
    _, _, after = stored(shared_server.db, mid)
    assert len(after) == v
    # The move by its notation works.
    text = st["legal"][0]["text"]
    status, out = call(shared_server, "POST", f"/api/matches/{mid}/moves", {"text": text, "version": v}, token=token)
    assert status == 200 and out["version"] >= v + 1
    _, _, after = stored(shared_server.db, mid)
    assert (after[v].player, after[v].action) == (seat, st["legal"][0]["action"])
    assert len(after) == out["version"] and all(x.player == kingmaker.CHANCE for x in after[v + 1:])


def test_web_lobby_join_leave_and_invite_links(shared_server):
    out = create(shared_server, game="kings-kilt", players=3, public=True,
                 seats=[{"kind": "human", "name": "ann"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    mid = out["match"]
    status, lobby = call(shared_server, "GET", "/api/matches")
    entry = next(m for m in lobby["matches"] if m["match"] == mid)
    assert [(s["kind"], s["claimed"]) for s in entry["seats"]] == [("human", True), ("human", False), ("bot", True)]
    assert "token" not in json.dumps(entry) and out["tokens"]["1"] not in json.dumps(lobby)
    # Anyone may take the open seat of a public match; it gets a new token.
    status, j = call(shared_server, "POST", f"/api/matches/{mid}/join", {"name": "bob"})
    assert status == 200 and j["seat"] == 1 and j["token"] != out["tokens"]["1"]
    status, err = call(shared_server, "POST", f"/api/matches/{mid}/join", {"name": "cat"})
    assert status == 403 and err["error"]["code"] == "seat/forbidden"
    status, st = call(shared_server, "GET", f"/api/matches/{mid}/state", token=j["token"])
    assert st["seat"] == 1
    # Leaving hands the seat to a bot; the old token no longer works.
    status, _ = call(shared_server, "POST", f"/api/matches/{mid}/leave", {"bot": "random"}, token=j["token"])
    assert status == 200
    status, err = call(shared_server, "GET", f"/api/matches/{mid}/state", token=j["token"])
    assert status == 403
    _, s = call(shared_server, "GET", f"/api/matches/{mid}")
    assert s["seats"][1]["kind"] == "bot"
    # A private match: no joining without the invite token; with it, the seat is yours.
    out = create(shared_server, game="kings-kilt", players=2, public=False, seats=[{"kind": "human"}] * 2)
    mid = out["match"]
    assert mid not in [m["match"] for m in call(shared_server, "GET", "/api/matches")[1]["matches"]]
    status, err = call(shared_server, "POST", f"/api/matches/{mid}/join", {"name": "eve"})
    assert status == 403
    status, j = call(shared_server, "POST", f"/api/matches/{mid}/join", {"name": "dan", "token": out["tokens"]["1"]})
    assert status == 200 and j["seat"] == 1 and j["token"] != out["tokens"]["1"]
    _, s = call(shared_server, "GET", f"/api/matches/{mid}")
    assert s["seats"][1]["name"] == "dan" and s["seats"][1]["claimed"]


def test_web_a_restarted_server_resumes_matches_and_bots_carry_on(make_server):
    server = make_server(bot_delay=0.02)
    # A human against bots: move a little, kill the server, start it again, go on to the end.
    out = create(server, game="kings-kilt", players=3, seed=31,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}])
    mid, tok = out["match"], {0: out["tokens"]["0"]}
    # And a game of bots only, which must finish by itself across the restart.
    bots = create(server, game="kings-kilt", players=2, you=None,
                  seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}], seed=32)["match"]
    asyncio.run(play_over_ws(server, mid, tok, seed=1, spectator=False, stop_after=40))
    _, before = call(server, "GET", f"/api/matches/{mid}/state", token=tok[0])
    server.kill()
    server.start()
    _, after = call(server, "GET", f"/api/matches/{mid}/state", token=tok[0])
    assert after["version"] >= before["version"]
    _, _, actions = stored(server.db, mid)
    assert after["version"] == len(actions)
    players = asyncio.run(play_over_ws(server, mid, tok, seed=2, spectator=True))
    assert players[0].payloads[-1]["status"] == "over"
    check_payloads(server.db, mid, players)
    for _ in range(400):
        _, s = call(server, "GET", f"/api/matches/{bots}")
        if s["status"] == "over":
            break
        time.sleep(0.05)
    assert s["status"] == "over"


def test_web_postgresql_storage_plays_and_resumes_a_game(make_server, pg_url):
    server = make_server(db=pg_url)
    out = create(server, game="kings-kilt", players=2, seed=41,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "heuristic"}])
    mid, tok = out["match"], {0: out["tokens"]["0"]}
    first = asyncio.run(play_over_ws(server, mid, tok, seed=1, spectator=False, stop_after=30))
    server.restart()
    players = asyncio.run(play_over_ws(server, mid, tok, seed=2, spectator=True))
    assert players[0].payloads[-1]["status"] == "over"
    check_payloads(pg_url, mid, players)
    check_payloads(pg_url, mid, first)


def test_web_error_codes_are_listed(shared_server):
    status, codes = call(shared_server, "GET", "/api/errors")
    assert {"match/conflict", "action/illegal", "seat/forbidden", "match/not_found", "server/busy",
            "request/too_large"} <= set(codes["codes"])


@pytest.mark.parametrize("game_id", kingmaker.available_games())
def test_web_every_game_against_server_side_bots_to_the_end(shared_server, game_id):
    """One human seat over the WebSocket, heuristic bots on the server for the others."""
    n = _players(game_id)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "heuristic"}] * (n - 1)
    out = create(shared_server, game=game_id, players=n, seats=seats, seed=17)
    mid = out["match"]
    players = asyncio.run(play_over_ws(shared_server, mid, {0: out["tokens"]["0"]}, seed=5, timeout=150))
    assert players[0].payloads[-1]["status"] == "over"
    assert check_payloads(shared_server.db, mid, players) >= 2
    _, _, actions = stored(shared_server.db, mid)
    assert {a.player for a in actions if a.player >= 0} == set(range(n))


def test_web_serve_prints_the_address_to_open(make_server):
    server = make_server()
    text = server.log.read_text()
    assert f"http://localhost:{server.port}/" in text
    status, health = call(server, "GET", "/api/health")
    assert status == 200 and health["storage"] == "SQLiteStorage"
    r = httpx.get(server.url + "/", timeout=10)
    assert r.status_code == 200 and "/static/app.js" in r.text
    for game_id in kingmaker.available_games():
        r = httpx.get(f"{server.url}/static/boards/{game_id}.js", timeout=10)
        assert r.status_code == 200 and "KM.boards" in r.text


def test_web_search_bots_play_on_the_server(shared_server):
    """An IS-MCTS seat (a tiny budget, to stay quick) plays a whole game against a human seat."""
    status, g = call(shared_server, "GET", "/api/games")
    assert "ismcts" in g["bots"] and "normal" in g["bots"]["ismcts"]
    out = create(shared_server, game="kings-kilt", players=2, seed=3,
                 seats=[{"kind": "human"}, {"kind": "bot", "bot": "ismcts:easy"}])
    mid = out["match"]
    players = asyncio.run(play_over_ws(shared_server, mid, {0: out["tokens"]["0"]}, seed=9, timeout=150))
    assert players[0].payloads[-1]["status"] == "over"
    check_payloads(shared_server.db, mid, players)
    _, _, actions = stored(shared_server.db, mid)
    assert any(a.player == 1 for a in actions)


def test_web_large_answers_are_compressed(shared_server):
    out = create(shared_server, game="kings-kilt", players=2, you=None, seed=8,
                 seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])
    for _ in range(400):
        _, s = call(shared_server, "GET", f"/api/matches/{out['match']}")
        if s["status"] == "over":
            break
        time.sleep(0.05)
    r = httpx.get(f"{shared_server.url}/api/matches/{out['match']}/replay", headers={"Accept-Encoding": "gzip"})
    assert r.status_code == 200 and r.headers.get("content-encoding") == "gzip"
    assert len(r.json()["frames"]) == s["version"] + 1


def test_web_load_test_runs_and_ends_by_itself(capsys):
    from kingmaker.web.loadtest import main

    res = main(["--games", "3", "--players", "2", "--limit", "120"])
    assert res["finished"] == 3 and res["errors"] == 0 and res["stalled"] == 0
    assert res["moves"] > 0 and res["p50_ms"] is not None and res["p99_ms"] >= res["p50_ms"]
    assert '"moves_per_second"' in capsys.readouterr().out
