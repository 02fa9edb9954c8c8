"""Load test: many concurrent games played by client-side bots over the WebSocket API.

    python -m kingmaker.web.loadtest --games 100 --game kings-kilt --players 3

Starts its own server (``python -m kingmaker.web``) on 127.0.0.1 with a fresh SQLite file
(or ``--db URL``), creates the games with every seat human, connects one WebSocket per
seat, and lets each seat play random legal moves until every game is over (or the time
limit passes). Reports moves per second and the move latency (from sending a move to its
acknowledgement, which comes after the move is stored) at the 50th and 99th percentiles.
Only loopback is used; the run ends by itself.

    python -m kingmaker.web.loadtest --games 100 --replays 50

also keeps 50 replay requests of the live games in flight all along (each one a new
version, so the replay cache rarely helps) and asks ``/api/health`` every 100 ms from a
process of its own,
reporting its latency (50th, 99th percentile and worst) and how many replays were
answered ``server/busy``. ``--server-src DIR`` runs the server from another source tree
(an older commit checked out with ``git worktree``) with this same client, for
before/after comparisons; the server's CPU time per move is reported too (Linux).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _cpu_seconds(pid: int) -> float | None:
    """CPU time (user + system) the process has used so far, from /proc (Linux); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_server(db: str, port: int, src: str | None = None) -> subprocess.Popen:
    src = src or str(Path(__file__).resolve().parents[2])
    env = dict(os.environ, PYTHONPATH=src + os.pathsep + os.environ.get("PYTHONPATH", ""))
    proc = subprocess.Popen(
        [sys.executable, "-m", "kingmaker.web", "--port", str(port), "--db", db, "--bot-delay", "0"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env,
    )
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/health", timeout=1):
                return proc
        except OSError:
            time.sleep(0.1)
    proc.kill()
    raise RuntimeError("the server did not start")


async def _seat(ws_url: str, mid: str, token: str, rng: random.Random, lat: list[float], done: asyncio.Event,
                stats: dict) -> None:
    import websockets

    async with websockets.connect(f"{ws_url}/ws/matches/{mid}?token={token}", max_size=2**24) as ws:
        latest = None
        pending = None
        sent_for = -1
        while True:
            if latest is not None and pending is None and latest["legal"] and latest["version"] > sent_for:
                a = rng.choice(latest["legal"])["action"]
                sent_for = latest["version"]
                pending = time.perf_counter()
                await ws.send(json.dumps({"type": "move", "action": a, "version": latest["version"]}))
            try:
                raw = await asyncio.wait_for(ws.recv(), 60)
            except TimeoutError:
                stats["stalled"] += 1
                return
            msg = json.loads(raw)
            stats["messages"] += 1
            if msg["type"] == "state":
                latest = msg
                if msg["status"] == "over":
                    done.set()
                    return
            elif msg["type"] == "ack":
                lat.append(time.perf_counter() - pending)
                pending = None
            elif msg["type"] == "error":
                stats["errors"] += 1
                pending = None


async def _replays(url: str, mids: list[str], n: int, stop: asyncio.Event, stats: dict) -> None:
    """Keeps ``n`` replay requests in flight until ``stop``."""
    import httpx

    async with httpx.AsyncClient(base_url=url, timeout=120, limits=httpx.Limits(max_connections=n + 5)) as c:
        async def one(k: int) -> None:
            i = k
            while not stop.is_set():
                r = await c.get(f"/api/matches/{mids[i % len(mids)]}/replay")
                stats["replays"] += 1
                if r.status_code == 503:
                    stats["replays_busy"] += 1
                elif r.status_code != 200:
                    stats["replay_errors"] += 1
                i += 7

        await asyncio.gather(*(one(k) for k in range(n)))


def _probe(url: str) -> None:
    """Asks ``url``/api/health every 100 ms until stdin closes; prints the latencies (seconds) as JSON.

    It runs in a process of its own, so that the load test's own event loop (300 sockets,
    replays) does not delay the measurement.
    """
    import selectors
    import urllib.request

    sel = selectors.DefaultSelector()
    sel.register(sys.stdin, selectors.EVENT_READ)
    out = []
    while True:
        t = time.perf_counter()
        try:
            with urllib.request.urlopen(url + "/api/health", timeout=60) as r:
                r.read()
                out.append(time.perf_counter() - t)
        except OSError:
            pass
        if sel.select(timeout=0.1) and not sys.stdin.read(1):
            break
    print(json.dumps(out))


async def _health(url: str, stop: asyncio.Event, samples: list[float]) -> None:
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-c", f"from kingmaker.web.loadtest import _probe; _probe({url!r})",
        stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE)
    await stop.wait()
    out, _ = await proc.communicate(b"")
    samples.extend(json.loads(out or b"[]"))


def _pct(xs: list[float], q: float) -> float | None:
    return 1000 * xs[min(len(xs) - 1, int(len(xs) * q))] if xs else None


async def _run(url: str, ws_url: str, games: int, game: str, players: int, seed: int, limit: float,
               replays: int = 0, server_pid: int | None = None) -> dict:
    rng = random.Random(seed)
    created = []
    for i in range(games):
        out = await asyncio.to_thread(
            _post, url + "/api/matches",
            {"game": game, "players": players, "seats": [{"kind": "human"}] * players, "seed": seed * 1000 + i},
        )
        created.append(out)
    lat: list[float] = []
    stats = {"messages": 0, "errors": 0, "stalled": 0}
    events = [asyncio.Event() for _ in created]
    tasks = []
    cpu0 = _cpu_seconds(server_pid) if server_pid else None
    t0 = time.perf_counter()
    for out, ev in zip(created, events):
        for tok in out["tokens"].values():
            tasks.append(asyncio.create_task(
                _seat(ws_url, out["match"], tok, random.Random(rng.random()), lat, ev, stats)))
    stop = asyncio.Event()
    health: list[float] = []
    extra = []
    if replays:
        stats.update(replays=0, replays_busy=0, replay_errors=0)
        extra = [asyncio.create_task(_replays(url, [o["match"] for o in created], replays, stop, stats)),
                 asyncio.create_task(_health(url, stop, health))]
    try:
        await asyncio.wait_for(asyncio.gather(*tasks), limit)
    except TimeoutError:
        for t in tasks:
            t.cancel()
    wall = time.perf_counter() - t0
    cpu1 = _cpu_seconds(server_pid) if server_pid else None
    if cpu0 is not None and cpu1 is not None:
        stats["server_cpu_s"] = cpu1 - cpu0
        stats["server_cpu_ms_per_move"] = 1000 * (cpu1 - cpu0) / max(1, len(lat))
    stop.set()
    for t in extra:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t, 120)
    if replays:
        health.sort()
        stats.update(health_samples=len(health), health_p50_ms=_pct(health, 0.5), health_p99_ms=_pct(health, 0.99),
                     health_max_ms=1000 * health[-1] if health else None)
    lat.sort()
    return {
        "games": games,
        "finished": sum(e.is_set() for e in events),
        "moves": len(lat),
        "seconds": wall,
        "moves_per_second": len(lat) / wall if wall else 0.0,
        "p50_ms": 1000 * lat[len(lat) // 2] if lat else None,
        "p99_ms": 1000 * lat[min(len(lat) - 1, int(len(lat) * 0.99))] if lat else None,
        "mean_ms": 1000 * statistics.fmean(lat) if lat else None,
        "connections": len(tasks),
        **stats,
    }


def main(argv: list[str] | None = None) -> dict:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=100)
    ap.add_argument("--game", default="kings-kilt")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--db", default=None, help="database URL (default: a fresh SQLite file)")
    ap.add_argument("--limit", type=float, default=600.0, help="seconds before the run gives up")
    ap.add_argument("--port", type=int, default=None, help="use a server already running on this loopback port")
    ap.add_argument("--replays", type=int, default=0, help="replay requests kept in flight, with /api/health timed")
    ap.add_argument("--server-src", default=None, metavar="DIR",
                    help="run the server from this source tree (e.g. an older commit's src/, from `git worktree`)")
    args = ap.parse_args(argv)
    if args.port:
        res = asyncio.run(_run(f"http://127.0.0.1:{args.port}", f"ws://127.0.0.1:{args.port}", args.games,
                               args.game, args.players, args.seed, args.limit, args.replays))
        print(json.dumps(res, indent=1))
        return res
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/load.sqlite3"
        proc = _start_server(db, port, args.server_src)
        try:
            res = asyncio.run(_run(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", args.games, args.game,
                                   args.players, args.seed, args.limit, args.replays, proc.pid))
        finally:
            proc.terminate()
            proc.wait(10)
    res["storage"] = "postgresql" if db.startswith("postgres") else "sqlite"
    res["server_src"] = args.server_src or "this tree"
    res["game"] = args.game
    res["players"] = args.players
    print(json.dumps(res, indent=1))
    return res


if __name__ == "__main__":
    main()
