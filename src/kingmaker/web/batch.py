"""Group commit: the moves that arrive in one turn of the event loop are stored in one transaction.

``GroupCommit.store(item)`` queues one match's new actions and returns a future; the
first item of a batch schedules ``flush`` for the next turn of the loop, so every move
handled in the current turn joins it. ``flush`` stores the whole batch with
``Storage.append_many`` (one transaction, one commit) and then resolves each future:
with the new version, or with the error of that item (``ConflictError``: the match had
moved on; nothing of it is stored), or with the error of the transaction (nothing of the
batch is stored). A move is acknowledged, and anyone told of it, only after its future
resolves: only after it is stored.
"""

from __future__ import annotations

import asyncio
import logging

from .storage import Append, Storage

log = logging.getLogger("kingmaker.web")

__all__ = ["GroupCommit"]


class GroupCommit:
    """Batches ``Storage.append_many`` calls per turn of the running event loop."""

    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self._batch: list[tuple[Append, asyncio.Future]] | None = None
        self.commits = 0  # transactions (for the load test's report)
        self.items = 0  # matches' moves stored in them

    def store(self, item: Append) -> asyncio.Future:
        """Queues ``item`` for the next commit; the future gives its new version (or raises)."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        if self._batch is None:
            self._batch = []
            loop.call_soon(self.flush)
        self._batch.append((item, fut))
        return fut

    def flush(self) -> None:
        """Stores the queued items in one transaction and resolves their futures."""
        batch, self._batch = self._batch, None
        if not batch:
            return
        try:
            results = self.storage.append_many([item for item, _ in batch])
        except Exception as e:  # the transaction failed: nothing of the batch is stored
            for _, fut in batch:
                if not fut.done():
                    fut.set_exception(e)
            return
        self.commits += 1
        self.items += len(batch)
        for (_, fut), res in zip(batch, results):
            if fut.done():  # its waiter was cancelled; the move is stored all the same
                continue
            if isinstance(res, Exception):
                fut.set_exception(res)
            else:
                fut.set_result(res)
