"""Several server processes over one PostgreSQL database (docs/web.md, "Several processes"; issue 14 §4).

Two ``kingmaker serve`` processes share the test database. Seat 0 plays through one,
seat 1 through the other (so the moves alternate between the processes), a bot holds
seat 2, and spectators watch through both. Every move stored by one process reaches
the sockets of the other (LISTEN/NOTIFY). Mid-game the process that drives the bots
(it holds the match's advisory lock) is killed; the other takes the bots over and
everyone finishes the game on it. Every payload is checked against an independent
replay of the stored record, so nothing was lost or invented.
"""

from __future__ import annotations

import asyncio
import time

import psycopg
from webclient import call, check_payloads, create, play_over_ws, stored

import kingmaker


def _lock_holders(pg_url: str) -> int:
    with psycopg.connect(pg_url) as c:
        return c.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted").fetchone()[0]


def test_web_two_processes_share_a_game_and_one_carries_on_when_the_other_dies(make_server, pg_url):
    a = make_server(db=pg_url)
    b = make_server(db=pg_url)
    try:
        _two_processes(a, b, pg_url)
    except BaseException:
        for s in (a, b):  # what the servers logged, to tell a failure's cause
            print(f"---- server log {s.log}:\n{s.log.read_text()[-3000:]}")
        raise


def _two_processes(a, b, pg_url: str) -> None:
    out = create(a, game="kings-kilt", players=3, seed=91,
                 seats=[{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}])
    mid = out["match"]
    tokens = {0: out["tokens"]["0"], 1: out["tokens"]["1"]}
    # The process that created the match drives its chance and bot.
    assert _lock_holders(pg_url) >= 1

    first = asyncio.run(play_over_ws(a, mid, tokens, seed=1, stop_after=60, where={0: a, 1: b},
                                     spectators=[a, b], timeout=120))
    for p in first:
        assert p.payloads and p.payloads[-1]["version"] >= 60, p.seat
    _, _, actions = stored(pg_url, mid)
    by = {a.player for a in actions}
    assert {0, 1, 2} <= by, "both humans and the bot moved"
    # The spectator on B saw the moves made through A (and the other way round): every
    # payload matches the stored record at its version.
    check_payloads(pg_url, mid, first)

    # Kill the driving process (no clean shutdown); B takes the bot over.
    killed_at = len(actions)
    a.kill()
    second = asyncio.run(play_over_ws(b, mid, tokens, seed=2, spectators=[b], timeout=150))
    assert all(p.payloads[-1]["status"] == "over" for p in second)
    check_payloads(pg_url, mid, second)
    game, row, actions = stored(pg_url, mid)
    assert row.status == "over" and len(actions) == row.version
    assert any(x.player == 2 for x in actions[killed_at:]), "the bot did not carry on after the kill"
    # Nothing was lost: the record replays to the end, and B reports what the store holds.
    m = kingmaker.Match(game, seed=row.seed)
    for x in actions:
        m.step_chance() if x.player == kingmaker.CHANCE else m.play(x.action, x.player)
    assert m.is_over() and list(m.returns()) == row.result
    _, s = call(b, "GET", f"/api/matches/{mid}")
    assert s["status"] == "over" and s["version"] == len(actions)


def test_web_a_bots_only_match_started_on_a_dead_process_is_finished_by_another(make_server, pg_url):
    a = make_server(db=pg_url, bot_delay=0.05)
    b = make_server(db=pg_url)
    mid = create(a, game="kings-kilt", players=2, you=None, seed=92,
                 seats=[{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}])["match"]
    time.sleep(0.5)
    a.kill()
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        status, s = call(b, "GET", f"/api/matches/{mid}")
        if status == 200 and s["status"] == "over":
            break
        time.sleep(0.3)
    assert s["status"] == "over"
