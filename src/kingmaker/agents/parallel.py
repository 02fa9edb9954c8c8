"""Root-parallel IS-MCTS: several searches of one decision, merged at the root.

``SearchConfig(workers=k)`` (the ``hard`` level uses 2; ``ExpertConfig`` has the
same setting, which ``expert`` uses) runs k independent
searches of the same observation, each with the whole budget and its own
random stream, and adds up their root visit counts (and the returns behind
their values); the most visited action is played. The streams are seeded
from the agent's own stream, so with an iteration budget the decision depends
only on the view and that stream, as with one search.

The searches beyond the first run in forked child processes (the child
inherits the observation, so nothing is pickled but the root statistics it
sends back); the first runs in this process meanwhile. Where fork is not
available, or this process may not fork safely (it runs other threads, e.g.
a web server's worker) or have children (a daemonic pool worker), or a child
fails, the searches run one after the other here: the same result with an
iteration budget; a time budget is then shared out, so a move still takes
about the budget's time.
"""

from __future__ import annotations

import multiprocessing
import random
import threading
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from ..core.match import Observation
from .search import SearchStats

__all__ = ["PARALLEL", "can_fork", "root_parallel"]

# Run the extra searches in child processes when possible (tests set False to compare).
PARALLEL = True

# (iterations, nodes, visits, values) of one search's root.
Share = tuple[int, int, dict[int, int], dict[int, float]]
# Makes one search's agent from its config (an agent class, or a closure holding a network):
# the agent has ``search(obs)`` and leaves its root in ``last`` (a ``SearchStats``).
Build = Callable[[Any], Any]


def can_fork() -> bool:
    """Returns True when this process may fork children to search in.

    Only a single-threaded process forks (another thread could hold a lock the child
    would need), and not a daemonic one (it may not have children).
    """
    return (
        PARALLEL
        and "fork" in multiprocessing.get_all_start_methods()
        and not multiprocessing.current_process().daemon
        and threading.active_count() == 1
        and threading.current_thread() is threading.main_thread()
    )


def _share(cfg: Any, obs: Observation, seed: int, build: Build, agent: Any = None) -> Share:
    """Runs one search with its own stream (by ``agent``, if given, else a new one) and
    returns its root statistics."""
    own = Observation(obs.game, obs.player, obs.view, obs.legal_actions, obs.sample, random.Random(seed))
    if agent is None:
        agent = build(cfg)
    agent.search(own)
    st = agent.last
    return st.iterations, st.nodes, dict(st.visits or {}), dict(st.values or {})


def _child(conn: Any, cfg: Any, obs: Observation, seed: int, build: Build, agent: Any = None) -> None:
    try:
        share = _share(cfg, obs, seed, build, agent)
        # (with a kept agent: its table, for the worker's next search)
        conn.send((share, *(agent.kept() if agent is not None else (None, set()))))
    except BaseException:  # noqa: BLE001 - the parent runs this share itself instead
        conn.send(None)
    finally:
        conn.close()


def root_parallel(
    cfg: Any, workers: int, obs: Observation, build: Build, agents: list[Any] | None = None
) -> SearchStats:
    """Runs ``workers`` searches with ``cfg`` (one worker each) and returns their merged root.

    ``cfg`` is the config of one search (a ``SearchConfig`` or the expert's
    ``ExpertConfig``: a dataclass with ``seconds``); ``build(cfg)`` makes its agent
    (``ISMCTSAgent``, or a closure that holds the expert's network: a forked child
    inherits it, nothing is pickled). The seeds come from ``obs.rng``, one per
    search, in order.

    ``agents`` (the setting ``reuse``): the searches' agents, one a worker, kept by the
    caller from one decision to the next, each with the table its last search kept
    (``kept()``). A forked child inherits its agent and sends its new table back, which
    the parent's copy of that agent then keeps.
    """
    seeds = [obs.rng.getrandbits(64) for _ in range(workers)]
    mine = agents or [None] * workers
    start = time.perf_counter()
    shares: list[Share | None] = [None] * workers
    children = []
    try:
        if can_fork():
            ctx = multiprocessing.get_context("fork")
            for w in range(1, workers):
                recv, send = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_child, args=(send, cfg, obs, seeds[w], build, mine[w]), daemon=True)
                proc.start()
                send.close()
                children.append((w, proc, recv))
            shares[0] = _share(cfg, obs, seeds[0], build, mine[0])
            # A time budget bounds the wait for a child (then its share is run here).
            wait = None if cfg.seconds is None else 2.0 * cfg.seconds + 10.0
            for w, proc, recv in children:
                try:
                    got = recv.recv() if recv.poll(wait) else None
                except EOFError:
                    got = None
                if got is not None:
                    shares[w], table, touched = got
                    if mine[w] is not None:  # the child's table, for this worker's next search
                        mine[w].keep(obs.game, table, touched)
                if shares[w] is None and proc.is_alive():
                    proc.kill()
                proc.join()
        missing = [w for w in range(workers) if shares[w] is None]
        if missing:
            serial = cfg
            if cfg.seconds is not None:  # one after the other: the time budget is shared out
                left = max(cfg.seconds - (time.perf_counter() - start), 0.0)
                serial = replace(cfg, seconds=max(left / len(missing), 0.001))
            for w in missing:
                shares[w] = _share(serial, obs, seeds[w], build, mine[w])
    finally:
        for _, proc, recv in children:  # interrupted (e.g. out of CPU time): no orphan search
            if proc.is_alive():
                proc.kill()
                proc.join()
            recv.close()
    return _merge([s for s in shares if s is not None], time.perf_counter() - start)


def _merge(shares: list[Share], seconds: float) -> SearchStats:
    visits: dict[int, int] = {}
    totals: dict[int, float] = {}
    for _, _, v, q in shares:
        for a, n in v.items():
            visits[a] = visits.get(a, 0) + n
            totals[a] = totals.get(a, 0.0) + q.get(a, 0.0) * n
    values = {a: (totals[a] / n if n else 0.0) for a, n in visits.items()}
    return SearchStats(
        iterations=sum(s[0] for s in shares),
        seconds=seconds,
        nodes=sum(s[1] for s in shares),
        visits=visits,
        values=values,
    )
