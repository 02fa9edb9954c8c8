"""Where the lab's and the arena's games run: this process, a local process pool, or Ray.

    backend = make_backend(jobs=2)                       # a local process pool (default)
    backend = make_backend(jobs=2, ray=True)             # a local Ray instance with 2 CPUs
    backend = make_backend(ray_address="10.0.0.5:6379")  # a running Ray cluster
    with backend:
        for result in backend.map_unordered(fn, tasks):
            ...

``fn`` must be a module-level function of an installed module (``kingmaker...``)
so that worker processes and Ray workers can import it; each task is one tuple
of arguments. Results arrive in the order they finish; callers key them (a
game's cell and index), so the order never changes what is stored: every
backend gives the same rows. Ray is imported only when asked for (the ``lab``
extra installs it).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from ..core.errors import GameError

__all__ = ["Backend", "PoolBackend", "RayBackend", "SerialBackend", "make_backend"]


class Backend:
    """Runs tasks somewhere and yields their results as they finish."""

    name = "serial"
    workers = 1

    def map_unordered(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        raise NotImplementedError  # abstract

    def close(self) -> None:
        """Releases the workers (a no-op where there are none)."""

    def abandon(self) -> None:
        """Stops at once, dropping the tasks in flight (an interrupted run); then as ``close``."""
        self.close()

    def __enter__(self) -> Backend:
        return self

    def __exit__(self, exc_type: object, *exc: object) -> None:
        if exc_type is None:
            self.close()
        else:  # interrupted or failed: the work in flight is not waited for
            self.abandon()

    def describe(self) -> str:
        return f"{self.name} ({self.workers} worker{'s' if self.workers != 1 else ''})"


class SerialBackend(Backend):
    """Runs every task in this process, in order (``--jobs 1``)."""

    def map_unordered(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        for task in tasks:
            yield fn(*task)


class PoolBackend(Backend):
    """A local pool of ``jobs`` worker processes (concurrent.futures)."""

    name = "pool"

    def __init__(self, jobs: int) -> None:
        self.workers = jobs
        self._pool: ProcessPoolExecutor | None = None

    def map_unordered(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        if self._pool is None:
            self._pool = ProcessPoolExecutor(max_workers=self.workers)
        pending = set()
        todo = iter(tasks)
        # Keep a few tasks per worker in flight, so a long study never queues everything
        # up front and an interrupted run loses little.
        for task in todo:
            pending.add(self._pool.submit(fn, *task))
            if len(pending) >= 3 * self.workers:
                break
        while pending:
            done, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in done:
                for task in todo:
                    pending.add(self._pool.submit(fn, *task))
                    break
                yield fut.result()

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=True, cancel_futures=True)
            self._pool = None

    def abandon(self) -> None:
        """Terminates the workers, so an interrupted run does not wait for its chunks in flight.

        Their games are lost either way (a chunk's games are stored when it ends); a long
        study's chunk can take minutes of CPU.
        """
        pool, self._pool = self._pool, None
        if pool is None:
            return
        # Killed, not terminated: a worker inherits the CLI's SIGTERM handler (which raises
        # KeyboardInterrupt), survives it as a failed task and takes the next queued one.
        stop = getattr(pool, "kill_workers", None)  # Python 3.14 and later
        if stop is not None:
            stop()
            return
        # Before 3.14 the executor has no public way to stop a running task: its worker
        # processes are killed through its table of them.
        procs = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for proc in procs:
            proc.kill()
        for proc in procs:
            proc.join(5)


class RayBackend(Backend):
    """Ray: a local instance (``num_cpus`` CPUs) or a running cluster at ``address``.

    With ``ship_code`` the kingmaker package of this machine is sent to the
    cluster's workers (a Ray runtime environment), so the nodes need only
    Python and Ray; without it every node must have kingmaker installed.
    """

    name = "ray"

    def __init__(self, address: str | None = None, num_cpus: int | None = None, ship_code: bool = False) -> None:
        try:
            import ray
        except ModuleNotFoundError as e:  # pragma: no cover - depends on the install
            raise GameError("Ray is not installed: pip install 'kingmaker[lab]'") from e
        self._ray = ray
        self.address = address
        self._pending: list = []
        self._started = False
        kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": False}
        if ship_code:
            kwargs["runtime_env"] = {"py_modules": [str(Path(__file__).resolve().parent.parent)]}
        if not ray.is_initialized():
            if address:
                ray.init(address=address, **kwargs)
            else:
                ray.init(num_cpus=num_cpus or os.cpu_count() or 1, **kwargs)
            self._started = True
        self.workers = int(ray.cluster_resources().get("CPU", 1))
        self.name = f"ray {address}" if address else "ray (local)"

    def map_unordered(self, fn: Callable[..., Any], tasks: Iterable[tuple]) -> Iterator[Any]:
        ray = self._ray
        remote = ray.remote(num_cpus=1, max_retries=3)(fn)
        todo = iter(tasks)
        pending = self._pending = []
        for task in todo:
            pending.append(remote.remote(*task))
            if len(pending) >= 3 * self.workers:
                break
        while pending:
            done, rest = ray.wait(pending, num_returns=1)
            pending[:] = rest
            for ref in done:
                for task in todo:
                    pending.append(remote.remote(*task))
                    break
                yield ray.get(ref)

    def close(self) -> None:
        if self._started:
            self._ray.shutdown()
            self._started = False

    def abandon(self) -> None:
        """Cancels the tasks in flight (a cluster goes on running them otherwise), then closes."""
        for ref in self._pending:
            try:
                self._ray.cancel(ref, force=True)
            except Exception:  # noqa: BLE001 - a task that already ended cannot be cancelled
                pass
        self._pending = []
        self.close()


def make_backend(
    jobs: int | None = None,
    ray: bool = False,
    ray_address: str | None = None,
    ship_code: bool = False,
) -> Backend:
    """Returns the backend the flags ask for.

    Args:
        jobs: local workers (pool processes, or local Ray CPUs); default: every core.
            ``jobs=1`` without Ray plays in this process.
        ray: run on a local Ray instance.
        ray_address: run on the Ray cluster at this address (``auto``: the one this node joined).
        ship_code: send this kingmaker package to the cluster's workers.

    Raises:
        GameError: jobs below 1.
    """
    if jobs is not None and jobs < 1:
        raise GameError(f"jobs must be at least 1, not {jobs}")
    if ray or ray_address:
        return RayBackend(address=ray_address, num_cpus=jobs, ship_code=ship_code)
    n = jobs or os.cpu_count() or 1
    return SerialBackend() if n == 1 else PoolBackend(n)
