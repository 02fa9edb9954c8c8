"""Work the server does away from its event loop: bot moves and replays, in worker processes.

A bot move is asked for with the match's record (game, options, seed and every action so
far); a worker rebuilds the match (it keeps the last few it built, and replays only the
new actions) and asks the seat's agent, given only ``Match.observation(seat)``. Each move
is bounded in CPU time (``ITIMER_PROF``): a bot that thinks too long plays a random legal
move instead. A replay is built the same way and sent back already encoded as JSON.

``Workers(processes=0)`` runs the same work in threads of the server process: for tests
with games registered in the test process only (no CPU bound there).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import json
import logging
import multiprocessing
import os
import signal
import threading
import time
from collections import OrderedDict
from typing import Any

from ..core.api import CHANCE
from ..core.match import Match
from ..core.registry import make

log = logging.getLogger("kingmaker.web")

__all__ = ["MatchRecord", "Workers", "bot_move", "build_replay"]

# (match id, game id, players, options, seed, actions as (player, action) pairs)
MatchRecord = tuple[str, str, int, dict, int, tuple[tuple[int, int], ...]]

_MATCHES: OrderedDict[str, Match] = OrderedDict()  # per worker: the last matches it rebuilt
_AGENTS: dict[tuple[str, int, str], Any] = {}
_TOLD: dict[tuple[str, int, str], int] = {}  # how many of its match's actions each agent was told
_KEEP = 32


class _OutOfTime(BaseException):
    """Raised in a worker when a bot has used its CPU time for this move."""


def _on_prof(signum: int, frame: Any) -> None:
    raise _OutOfTime


def _node(cp: int) -> int | str:
    from ..core.api import node_name

    return cp if cp >= 0 else node_name(cp)


def _rebuild(rec: MatchRecord, cache: bool = True) -> Match:
    mid, game_id, players, options, seed, actions = rec
    m = _MATCHES.get(mid) if cache else None
    if m is not None:
        done = len(m.log)
        if done > len(actions) or any(
            (e.player, e.action) != tuple(actions[i]) for i, e in enumerate(m.log)
        ):
            m = None
    if m is None:
        m = Match(make(game_id, players=players, **options), seed=seed)
        for k in list(_AGENTS):
            if k[0] == mid:
                del _AGENTS[k]
                _TOLD.pop(k, None)
    for player, action in actions[len(m.log):]:
        m.replay_action(player, action)
    if cache:
        _MATCHES[mid] = m
        _MATCHES.move_to_end(mid)
        while len(_MATCHES) > _KEEP:
            old, _ = _MATCHES.popitem(last=False)
            for k in list(_AGENTS):
                if k[0] == old:
                    del _AGENTS[k]
                    _TOLD.pop(k, None)
    return m


def bot_move(rec: MatchRecord, seat: int, spec: str, cpu_seconds: float | None) -> tuple[int, str]:
    """Returns the action the bot ``spec`` of ``seat`` plays, and how: "agent", "timeout" or "error"."""
    from ..agents import make_agent

    m = _rebuild(rec)
    obs = m.observation(seat)
    key = (rec[0], seat, spec)
    how = "agent"
    limited = cpu_seconds is not None and cpu_seconds > 0
    if limited:
        old = signal.signal(signal.SIGPROF, _on_prof)
        signal.setitimer(signal.ITIMER_PROF, cpu_seconds)
    try:
        agent = _AGENTS.get(key)
        if agent is None:
            agent = _AGENTS[key] = make_agent(spec, m.game)
        # An agent that follows the play hears of the actions since it last moved (all of them
        # when it is new, e.g. after a restart).
        _TOLD[key] = m.tell(agent, seat, _TOLD.get(key, 0))
        action = agent.act(obs)
    except _OutOfTime:
        _AGENTS.pop(key, None)  # its search state may be half-updated
        _TOLD.pop(key, None)
        how, action = "timeout", obs.rng.choice(obs.legal_actions)
    except Exception:  # a bot's bug must not stall the match
        log.exception("match %s: bot %r of seat %d failed; it plays a random move", rec[0], spec, seat)
        _AGENTS.pop(key, None)
        _TOLD.pop(key, None)
        how, action = "error", obs.rng.choice(obs.legal_actions)
    finally:
        if limited:
            signal.setitimer(signal.ITIMER_PROF, 0)
            signal.signal(signal.SIGPROF, old)
    return int(action), how


def build_replay(rec: MatchRecord, seat: int | None) -> bytes:
    """Returns the replay body (without ``seats``) as JSON: every step as ``seat`` saw it."""
    mid, game_id, players, options, seed, actions = rec
    game = make(game_id, players=players, **options)
    m = Match(game, seed=seed)
    frames = []

    def frame(by: int | None) -> dict:
        s = m.state
        return {
            "version": len(m.log),
            "to_move": _node(game.current_player(s)),
            "view": game.view(s, seat),
            "log_total": len(m.log_for(seat)),
            "by": by,
        }

    frames.append(frame(None))
    for player, action in actions:
        if player == CHANCE:
            m.step_chance()
        else:
            m.play(action, player)
        frames.append(frame(player))
    over = m.is_over()
    body = {
        "match": mid,
        "game": game.id,
        "players": game.num_players,
        "seat": seat,
        "status": "over" if over else "playing",
        "result": list(m.returns()) if over else None,
        "frames": frames,
        "log": m.log_for(seat),
    }
    return json.dumps(body, separators=(",", ":")).encode()


def _init_worker(server_pid: int) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # the server stops its workers itself
    from ..core.registry import available_games

    available_games()

    def watch() -> None:  # a killed server cannot stop its workers: they stop themselves
        while True:
            time.sleep(1.0)
            try:
                os.kill(server_pid, 0)
            except ProcessLookupError:
                os._exit(0)
            except PermissionError:
                pass

    threading.Thread(target=watch, name="km-watch-server", daemon=True).start()


class Workers:
    """A pool of worker processes (or threads with ``processes=0``) for one kind of work.

    ``limit`` bounds how many jobs may wait; ``run`` raises ``ServerBusyError`` past it.
    Jobs start in the order they were asked for (asyncio's semaphore is first come,
    first served), and each match asks for one bot move at a time, so no match's bots
    can starve another's.

    Each worker process is a one-process executor of its own, so a job can be sent to a
    chosen one: a job with an ``affinity`` key (the match id, for bot moves) goes to the
    worker that ran that key's last job when that worker is free, so a bot finds there the
    match it rebuilt and the agent it made, with what its search kept from its last move
    (``reuse``: the expert level of King's Kilt keeps its tree from one decision to the
    next). When that worker is busy the job takes any free one rather than wait: a match
    never waits behind another while a worker is idle.
    """

    _REMEMBER = 4096  # affinity keys remembered (the oldest forgotten first)

    def __init__(self, processes: int, limit: int, name: str) -> None:
        self.processes = processes
        self.limit = limit
        self.name = name
        self.waiting = 0
        self._slots = asyncio.Semaphore(max(1, processes) if processes else 4)
        self._pool: concurrent.futures.Executor | None = None  # threads (processes=0)
        self._procs: list[concurrent.futures.Executor | None] = [None] * max(0, processes)
        self._free: list[int] = list(range(max(0, processes)))
        self._last: OrderedDict[str, int] = OrderedDict()

    def _executor(self) -> concurrent.futures.Executor:
        if self._pool is None:
            self._pool = concurrent.futures.ThreadPoolExecutor(4, thread_name_prefix=f"km-{self.name}")
        return self._pool

    def _process(self, i: int) -> concurrent.futures.Executor:
        ex = self._procs[i]
        if ex is None:
            ctx = multiprocessing.get_context("forkserver")
            ex = self._procs[i] = concurrent.futures.ProcessPoolExecutor(
                1, mp_context=ctx, initializer=_init_worker, initargs=(os.getpid(),))
        return ex

    def _take(self, affinity: str | None) -> int:
        """A free worker's index: the one that ran ``affinity``'s last job if it is free."""
        i = self._last.get(affinity) if affinity is not None else None
        if i is None or i not in self._free:
            i = self._free[0]
        self._free.remove(i)
        if affinity is not None:
            self._last[affinity] = i
            self._last.move_to_end(affinity)
            while len(self._last) > self._REMEMBER:
                self._last.popitem(last=False)
        return i

    def busy(self) -> bool:
        return self.waiting >= self.limit

    async def run(self, fn: Any, *args: Any, wall: float | None = None, bounded: bool = True,
                  affinity: str | None = None) -> Any:
        """Runs ``fn(*args)`` in a worker; with ``bounded``, refuses (server/busy) when the queue is full.

        ``affinity``: a key (a match id) whose jobs go to the same worker process when it is free.
        """
        from .models import ServerBusyError

        if bounded and self.waiting >= self.limit:
            raise ServerBusyError(f"the server is busy ({self.name}); try again in a moment", retry_after=5)
        self.waiting += 1
        try:
            await self._slots.acquire()
        finally:
            self.waiting -= 1
        i = self._take(affinity) if self.processes else None
        cf: concurrent.futures.Future | None = None
        later = False  # a cancelled submission releases the worker itself, when it is known
        try:
            if i is not None:
                # Submitting may start a worker (and, the first time, the fork server): that
                # blocks, so it is done in a thread, never on the event loop. Shielded: a
                # caller cancelled meanwhile must still learn of the job it submitted.
                submitting = asyncio.ensure_future(asyncio.to_thread(self._process(i).submit, fn, *args))
                try:
                    cf = await asyncio.shield(submitting)
                except asyncio.CancelledError:
                    later = True
                    submitting.add_done_callback(lambda t: self._release(
                        None if t.cancelled() or t.exception() is not None else t.result(), i))
                    raise
            else:
                cf = self._executor().submit(fn, *args)
            fut = asyncio.wrap_future(cf)
            return await (asyncio.wait_for(fut, wall) if wall else fut)
        except concurrent.futures.BrokenExecutor:
            log.error("a %s worker died; starting a new one", self.name)
            if i is not None:
                self._procs[i] = None
            raise
        finally:
            if not later:
                self._release(cf, i)

    def _release(self, cf: concurrent.futures.Future | None, i: int | None) -> None:
        """Gives the worker ``i`` and its slot back: at once when its job ``cf`` is over, never
        submitted or still cancellable; else when it ends. A job past its wall time (or whose
        caller is gone) still runs in a process that cannot be interrupted, so no other job may
        queue behind it while the pool counts its worker free."""
        if cf is None or cf.cancel() or cf.done():
            self._give_back(i)
            return
        log.warning("a %s job outlived its caller; its worker stays busy until it ends", self.name)
        loop = asyncio.get_running_loop()

        def done(_: concurrent.futures.Future) -> None:
            try:
                loop.call_soon_threadsafe(self._give_back, i)
            except RuntimeError:  # the server's loop is closed: nothing left to free
                pass

        cf.add_done_callback(done)

    def _give_back(self, i: int | None) -> None:
        if i is not None:
            self._free.append(i)
        self._slots.release()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        for i, ex in enumerate(self._procs):
            if ex is not None:
                ex.shutdown(wait=False, cancel_futures=True)
                self._procs[i] = None
