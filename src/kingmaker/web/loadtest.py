"""Load test: many concurrent games played by client-side bots over the WebSocket API.

    python -m kingmaker.web.loadtest --games 100 --game kings-kilt --players 3

Starts its own server (``python -m kingmaker.web``) on 127.0.0.1 with a fresh SQLite file
(or ``--db URL``), creates the games with every seat human, connects one WebSocket per
seat, and lets each seat play random legal moves until every game is over (or the time
limit passes). Reports moves per second and the move latency (from sending a move to its
acknowledgement, which comes after the move is stored) at the 50th and 99th percentiles,
and the latency until the mover receives the new state (``state_p50_ms``, ``state_p99_ms``).
Only loopback is used; the run ends by itself.

The client is the measuring instrument, so it is made cheap: one process on uvloop, each
seat a minimal WebSocket client written on an asyncio protocol (``_Seat``: the handshake,
frames, masking, close and ping, and the player, all in the protocol's callbacks: no task,
future or library layer per message), every message parsed with pydantic-core's JSON
parser. It costs about 0.2 ms of CPU per move, against 0.5-1.1 ms for the server. The
same client runs every server compared, so a comparison stays fair.

    python -m kingmaker.web.loadtest --games 100 --replays 50

also keeps 50 replay requests of the live games in flight all along (each one a new
version, so the replay cache rarely helps) and asks ``/api/health`` every 100 ms from a
process of its own,
reporting its latency (50th, 99th percentile and worst) and how many replays were
answered ``server/busy``. ``--server-src DIR`` runs the server from another source tree
(an older commit checked out with ``git worktree``) with this same client, for
before/after comparisons; the server's CPU time per move (and its system part) and the
client's are reported too (Linux).

    python -m kingmaker.web.loadtest --games 100 --rate 200

is the open loop: the client offers a fixed total rate of moves instead of sending each
move as soon as its state arrives (the closed loop above, which measures the server at
saturation, where a move's latency is mostly its wait behind the other games' moves).
Send slots are evenly spaced, ``1 / rate`` apart from the start of play; they are given
in order, one move each, to the seats whose move is ready, first ready first served
(``_Pacer``). A move that is ready waits for the next free slot; a slot that comes while
no move is ready stays owed, and the next move ready takes it at once (as wrk2 does), so
a server that falls behind shows it in the latency counted from the slot
(``sched_p50_ms``, ``sched_p99_ms``: the delay a player would see, coordinated omission
included) and in ``behind_ms``, how late the schedule is when the run ends, while
``p50_ms``/``p99_ms`` count from the actual send to the ``ack``. Latencies count the moves
whose slot comes after ``--warmup`` seconds; the run stops after ``--duration`` more
seconds, or as soon as a tenth of the games are over (fewer games could not keep up with
the schedule by themselves), and reports the offered rate (``offered_rate``) and the rate
of acks in that window (``achieved_rate``).
"""

from __future__ import annotations

import argparse
import asyncio
import base64
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
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic_core import from_json, to_json


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _post(url: str, body: dict) -> dict:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=30) as r:
        return json.loads(r.read())


def _cpu_seconds(pid: int) -> tuple[float, float] | None:
    """CPU time (user, system) the process has used so far, from /proc (Linux); None elsewhere."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    tick = os.sysconf("SC_CLK_TCK")
    return int(fields[11]) / tick, int(fields[12]) / tick


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


class _Pacer:
    """The open-loop schedule: slot ``k`` at ``t0 + k / rate``, each slot given to one ready move.

    Ready moves queue in the order they became ready; ``due(now)`` hands out every slot
    whose time has come, in order, to the moves waiting (a slot that passes while nobody
    waits stays owed: the schedule never slows down to the server's pace). ``ok`` tells
    whether a waiting move is still to be sent (its game may have ended meanwhile); one that
    is not leaves the queue without taking a slot.
    """

    def __init__(self, rate: float, t0: float) -> None:
        if rate <= 0:
            raise ValueError(f"the rate must be positive, not {rate}")
        self.interval = 1.0 / rate
        self.t0 = t0
        self.k = 0
        self.ready: deque = deque()

    def next_slot(self) -> float:
        return self.t0 + self.k * self.interval

    def add(self, item: Any) -> None:
        self.ready.append(item)

    def due(self, now: float, ok: Callable[[Any], bool] = lambda item: True) -> list[tuple[Any, float]]:
        out = []
        while self.ready:
            slot = self.next_slot()
            if slot > now:
                break
            item = self.ready.popleft()
            if ok(item):
                out.append((item, slot))
                self.k += 1
        return out

    def behind(self, now: float) -> float:
        """How late the schedule is at ``now`` (seconds; 0 if no slot is owed)."""
        return max(0.0, now - self.next_slot())


class _PacedSender:
    """Drives a ``_Pacer`` on the event loop: sends each ready seat's move at its slot.

    Seats offer their moves from the moment they connect; the schedule starts with ``start``.
    The event loop's timers count whole milliseconds (libuv), so a move may go up to
    ``EARLY`` before its slot; waiting for less would wake the loop over and over for nothing.
    """

    EARLY = 0.001

    def __init__(self, rate: float) -> None:
        self.pacer = _Pacer(rate, time.perf_counter())
        self.loop = asyncio.get_running_loop()
        self.timer: asyncio.TimerHandle | None = None
        self.started = False

    def start(self) -> None:
        self.pacer.t0 = time.perf_counter()
        self.started = True
        self.pump()

    def offer(self, seat: _Seat) -> None:
        seat.queued = True
        self.pacer.add(seat)
        self.pump()

    @staticmethod
    def _still_ready(seat: _Seat) -> bool:
        seat.queued = False
        return seat.can_move()

    def _wake(self) -> None:
        self.timer = None
        self.pump()

    def pump(self) -> None:
        if not self.started:
            return
        now = time.perf_counter()
        for seat, slot in self.pacer.due(now + self.EARLY, self._still_ready):
            seat.send_move(slot)
        if self.pacer.ready and self.timer is None:
            self.timer = self.loop.call_later(max(self.EARLY, self.pacer.next_slot() - now), self._wake)

    def stop(self) -> None:
        self.started = False
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None


class _Seat(asyncio.Protocol):
    """One seat's WebSocket, spoken directly over an asyncio transport: the load test's instrument.

    A minimal RFC 6455 client (handshake, unfragmented or fragmented frames from the server,
    masked text frames to it, close and ping answered) that plays from the protocol's own
    callbacks: no task, future or library layer per message, so that the client costs
    little CPU per move and the server is what is measured. Every message is parsed in
    full (pydantic-core's JSON parser); the seat plays a random legal move whenever its
    latest state lists moves for it and no move of its own is waiting for its ``ack``.
    """

    def __init__(self, path: str, rng: random.Random, run: _RunStats, game_done: Callable[[], None]) -> None:
        self.path = path
        self.rng = rng
        self.run = run
        self.game_done = game_done
        self.transport: asyncio.Transport | None = None
        self.buf = bytearray()
        self.frag: list[bytes] = []
        self.open = False
        self.opened: asyncio.Future = asyncio.get_running_loop().create_future()
        self.finished = False
        self.last = time.monotonic()
        self.latest: dict | None = None
        self.pending: float | None = None  # when our move was sent (until its ack)
        self.state_wait: float | None = None  # when our move was sent (until a newer state)
        self.sent_for = -1
        self.sender: _PacedSender | None = None  # the open loop (``--rate``), if any
        self.queued = False  # waiting for a slot of the open loop
        self.slot: float | None = None  # the slot our move was sent in (open loop)

    # ---- the transport -------------------------------------------------------------------
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]
        key = base64.b64encode(os.urandom(16)).decode()
        transport.write(  # type: ignore[attr-defined]
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            f"Sec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode())

    def connection_lost(self, exc: Exception | None) -> None:
        if not self.opened.done():
            self.opened.set_exception(ConnectionError(f"the server closed the connection: {exc}"))
        self.open = False

    def data_received(self, data: bytes) -> None:
        self.last = time.monotonic()
        buf = self.buf
        buf += data
        if not self.open:
            end = buf.find(b"\r\n\r\n")
            if end < 0:
                return
            if not buf.startswith(b"HTTP/1.1 101"):
                self.opened.set_exception(ConnectionError(bytes(buf[:end]).decode("latin-1")))
                self.transport.close()
                return
            self.open = True
            del buf[:end + 4]
            self.opened.set_result(None)
        pos, size = 0, len(buf)
        while size - pos >= 2:
            b0, b1 = buf[pos], buf[pos + 1]
            n, head = b1 & 0x7F, 2
            if n == 126:
                if size - pos < 4:
                    break
                n, head = int.from_bytes(buf[pos + 2:pos + 4], "big"), 4
            elif n == 127:
                if size - pos < 10:
                    break
                n, head = int.from_bytes(buf[pos + 2:pos + 10], "big"), 10
            if size - pos < head + n:
                break
            payload = bytes(buf[pos + head:pos + head + n])
            pos += head + n
            op = b0 & 0x0F
            if op == 0 or not b0 & 0x80:  # a fragment (the server may split long messages)
                self.frag.append(payload)
                if not b0 & 0x80:
                    continue
                payload, self.frag = b"".join(self.frag), []
                op = 1
            if op in (1, 2):
                self.on_message(payload)
            elif op == 8:  # close: answer it
                self._frame(8, payload[:2])
                self.transport.close()
                self.open = False
                break
            elif op == 9:  # ping
                self._frame(10, payload)
        del buf[:pos]

    def _frame(self, op: int, data: bytes) -> None:
        """Sends one frame, masked with a fresh key as RFC 6455 asks of clients."""
        n = len(data)
        if n < 126:
            head = bytes((0x80 | op, 0x80 | n))
        elif n < 65536:
            head = bytes((0x80 | op, 0xFE)) + n.to_bytes(2, "big")
        else:
            head = bytes((0x80 | op, 0xFF)) + n.to_bytes(8, "big")
        mask = os.urandom(4)
        key = int.from_bytes((mask * (n // 4 + 1))[:n], "big")
        masked = (int.from_bytes(data, "big") ^ key).to_bytes(n, "big") if n else b""
        self.transport.write(head + mask + masked)

    def send_json(self, msg: dict) -> None:
        self._frame(1, to_json(msg))

    def close(self) -> None:
        if self.open:
            self._frame(8, (1000).to_bytes(2, "big"))
            self.open = False
        if self.transport is not None:
            self.transport.close()

    # ---- the player ------------------------------------------------------------------------
    def on_message(self, raw: bytes) -> None:
        msg = from_json(raw)
        run = self.run
        run.messages += 1
        kind = msg["type"]
        if kind == "state":
            self.latest = msg
            if self.state_wait is not None and msg["version"] > self.sent_for:
                if self.slot is None or self.slot >= run.since:
                    run.state_lat.append(time.perf_counter() - self.state_wait)
                self.state_wait = None
            if msg["status"] == "over":
                self.finished = True
                self.game_done()
                self.close()
                return
        elif kind == "ack":
            if self.pending is not None:
                now = time.perf_counter()
                run.acks += 1
                if now >= run.since:
                    run.acked_since += 1
                if self.slot is None:
                    run.lat.append(now - self.pending)
                elif self.slot >= run.since:
                    run.lat.append(now - self.pending)
                    run.sched_lat.append(now - self.slot)
            self.pending = None
        elif kind == "error":
            run.errors += 1
            self.pending = self.state_wait = None
        self.act()

    def can_move(self) -> bool:
        latest = self.latest
        return (not self.finished and self.open and latest is not None and self.pending is None
                and bool(latest["legal"]) and latest["version"] > self.sent_for)

    def act(self) -> None:
        if self.queued or not self.can_move():
            return
        if self.sender is None:
            self.send_move(None)
        else:
            self.sender.offer(self)

    def send_move(self, slot: float | None) -> None:
        """Sends a random legal move of the latest state (``slot``: its time in the open loop's schedule)."""
        latest = self.latest
        self.sent_for = latest["version"]
        self.slot = slot
        self.pending = self.state_wait = time.perf_counter()
        self.send_json({"type": "move", "action": self.rng.choice(latest["legal"])["action"],
                        "version": latest["version"]})


@dataclass
class _RunStats:
    lat: list[float] = field(default_factory=list)  # send -> ack, of the moves measured
    state_lat: list[float] = field(default_factory=list)
    sched_lat: list[float] = field(default_factory=list)  # slot -> ack (open loop)
    messages: int = 0
    errors: int = 0
    acks: int = 0  # every move acknowledged
    acked_since: int = 0  # acks received after ``since``
    since: float = 0.0  # moves sent (open loop: whose slot is) before this are not measured


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


@dataclass
class _Pace:
    """The open loop's settings (``--rate``, ``--warmup``, ``--duration``)."""

    rate: float
    warmup: float = 2.0
    duration: float = 20.0


async def _run(url: str, ws_url: str, games: int, game: str, players: int, seed: int, limit: float,
               replays: int = 0, server_pid: int | None = None, pace: _Pace | None = None) -> dict:
    rng = random.Random(seed)
    created = []
    for i in range(games):
        out = await asyncio.to_thread(
            _post, url + "/api/matches",
            {"game": game, "players": players, "seats": [{"kind": "human"}] * players, "seed": seed * 1000 + i},
        )
        created.append(out)
    stats: dict = {"stalled": 0}
    cpu0 = _cpu_seconds(server_pid) if server_pid else None
    ccpu0 = time.process_time()
    t0 = time.perf_counter()
    stop = asyncio.Event()
    health: list[float] = []
    extra = []
    if replays:
        stats.update(replays=0, replays_busy=0, replay_errors=0)
        extra = [asyncio.create_task(_replays(url, [o["match"] for o in created], replays, stop, stats)),
                 asyncio.create_task(_health(url, stop, health))]
    run, seats, done = await _play(ws_url, created, rng, limit, stats, pace, server_pid)
    wall = time.perf_counter() - t0
    cpu1 = _cpu_seconds(server_pid) if server_pid else None
    ccpu1 = time.process_time()
    stop.set()
    for t in extra:
        with contextlib.suppress(Exception):
            await asyncio.wait_for(t, 120)
    if replays:
        health.sort()
        stats.update(health_samples=len(health), health_p50_ms=_pct(health, 0.5), health_p99_ms=_pct(health, 0.99),
                     health_max_ms=1000 * health[-1] if health else None)
    moves = max(1, run.acks)
    if cpu0 is not None and cpu1 is not None:
        user, system = cpu1[0] - cpu0[0], cpu1[1] - cpu0[1]
        stats["server_cpu_s"] = user + system
        stats["server_cpu_ms_per_move"] = 1000 * (user + system) / moves
        stats["server_system_ms_per_move"] = 1000 * system / moves
    stats["client_cpu_ms_per_move"] = 1000 * (ccpu1 - ccpu0) / moves
    return _results(games, done, run, wall, len(seats), stats)


async def _play(ws_url: str, created: list[dict], rng: random.Random, limit: float,
                stats: dict, pace: _Pace | None = None,
                server_pid: int | None = None) -> tuple[_RunStats, list[_Seat], int]:
    """Connects every seat and plays until every game is over (or ``limit`` seconds pass).

    With ``pace`` (the open loop) the moves go out on its schedule, and play stops after its
    warm-up and duration, or once a tenth of the games are over; the server's CPU time is
    then also taken over the measured window alone (``window_server_cpu_ms_per_move``).
    """
    loop = asyncio.get_running_loop()
    run = _RunStats()
    host, port = ws_url.removeprefix("ws://").rsplit(":", 1)
    all_over = loop.create_future()
    seats: list[_Seat] = []
    over: set[str] = set()

    def check() -> None:
        if not all_over.done() and (all(s.finished for s in seats)
                                    or (pace is not None and len(over) >= max(1, len(created) // 10))):
            all_over.set_result(None)

    sender = _PacedSender(pace.rate) if pace is not None else None
    for out in created:
        for tok in out["tokens"].values():
            def game_done(mid: str = out["match"]) -> None:
                over.add(mid)
                check()

            seat = _Seat(f"/ws/matches/{out['match']}?token={tok}", random.Random(rng.random()), run, game_done)
            seat.sender = sender
            seats.append(seat)
    t_connect = time.perf_counter()
    await asyncio.gather(*(loop.create_connection(lambda s=s: s, host, int(port)) for s in seats))
    await asyncio.gather(*(s.opened for s in seats))
    stats["connected_s"] = time.perf_counter() - t_connect
    cpu_since: list = []
    if sender is not None:
        sender.start()
        run.since = sender.pacer.t0 + pace.warmup
        limit = min(limit, pace.warmup + pace.duration)
        if server_pid:
            loop.call_later(pace.warmup, lambda: cpu_since.append((_cpu_seconds(server_pid), run.acked_since,
                                                                 time.process_time())))

    async def watchdog() -> None:  # a seat that hears nothing for 60 s, or loses its socket, has stalled
        while not all_over.done():
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for s in seats:
                if not s.finished and (now - s.last > 60 or (not s.open and s.transport.is_closing())):
                    s.finished = True
                    stats["stalled"] += 1
                    s.close()
            check()

    dog = asyncio.create_task(watchdog())
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(asyncio.shield(all_over), limit)
    dog.cancel()
    if sender is not None:
        now = time.perf_counter()
        sender.stop()
        window = now - run.since
        stats.update(offered_rate=pace.rate, achieved_rate=run.acked_since / window if window > 0 else None,
                     window_s=window, behind_ms=1000 * sender.pacer.behind(now), slots_used=sender.pacer.k)
        cpu_end = _cpu_seconds(server_pid) if server_pid else None
        if cpu_since and cpu_since[0][0] and cpu_end:
            cpu0, acked0, ccpu0 = cpu_since[0]
            n = max(1, run.acked_since - acked0)
            stats["window_server_cpu_ms_per_move"] = 1000 * (sum(cpu_end) - sum(cpu0)) / n
            stats["window_client_cpu_ms_per_move"] = 1000 * (time.process_time() - ccpu0) / n
        run.sched_lat.sort()
        stats.update(sched_p50_ms=_pct(run.sched_lat, 0.5), sched_p99_ms=_pct(run.sched_lat, 0.99),
                     sched_max_ms=1000 * run.sched_lat[-1] if run.sched_lat else None)
    for s in seats:
        s.close()
    return run, seats, len(over)


def _results(games: int, finished: int, run: _RunStats, wall: float, connections: int, stats: dict) -> dict:
    lat = sorted(run.lat)
    state_lat = sorted(run.state_lat)
    return {
        "games": games,
        "finished": finished,
        "moves": run.acks,
        "measured_moves": len(lat),
        "seconds": wall,
        "moves_per_second": run.acks / wall if wall else 0.0,
        "p50_ms": _pct(lat, 0.5),
        "p99_ms": _pct(lat, 0.99),
        "mean_ms": 1000 * statistics.fmean(lat) if lat else None,
        "state_p50_ms": _pct(state_lat, 0.5),
        "state_p99_ms": _pct(state_lat, 0.99),
        "connections": connections,
        "messages": run.messages,
        "errors": run.errors,
        **stats,
    }


def _arun(coro: Any) -> Any:
    """Runs the client on uvloop when it is installed (as the server does): a cheaper instrument."""
    try:
        import uvloop
    except ImportError:
        return asyncio.run(coro)
    with asyncio.Runner(loop_factory=uvloop.new_event_loop) as runner:
        return runner.run(coro)


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
    ap.add_argument("--rate", type=float, default=None, metavar="MOVES_PER_SECOND",
                    help="open loop: offer moves at this total rate (default: closed loop, as fast as acked)")
    ap.add_argument("--warmup", type=float, default=2.0, help="open loop: seconds of moves not measured")
    ap.add_argument("--duration", type=float, default=20.0,
                    help="open loop: seconds measured after the warm-up (less if a tenth of the games end)")
    args = ap.parse_args(argv)
    if args.rate is not None and args.rate <= 0:
        ap.error("--rate must be positive")
    pace = _Pace(args.rate, args.warmup, args.duration) if args.rate is not None else None
    if args.port:
        res = _arun(_run(f"http://127.0.0.1:{args.port}", f"ws://127.0.0.1:{args.port}", args.games,
                               args.game, args.players, args.seed, args.limit, args.replays, pace=pace))
        print(json.dumps(res, indent=1))
        return res
    port = _free_port()
    with tempfile.TemporaryDirectory() as tmp:
        db = args.db or f"sqlite:///{tmp}/load.sqlite3"
        proc = _start_server(db, port, args.server_src)
        try:
            res = _arun(_run(f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}", args.games, args.game,
                                   args.players, args.seed, args.limit, args.replays, proc.pid, pace))
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
