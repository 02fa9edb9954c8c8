"""The server's worker processes (``kingmaker.web.workers.Workers``): a match's bot moves go
to the worker that played its last one when it is free (docs/web.md, "Bots"), so the agent
made there, with what its search kept, plays the match's next move; a busy worker never
makes a match wait while another is free."""

from __future__ import annotations

import asyncio
import os
import time

from kingmaker import make
from kingmaker.core.match import Match
from kingmaker.web.workers import Workers, bot_move


def _pid_after(seconds: float) -> int:
    time.sleep(seconds)
    return os.getpid()


def _agent_of(mid: str, seat: int, spec: str) -> int:
    """The id of the agent this worker keeps for the seat (0: none)."""
    from kingmaker.web import workers

    agent = workers._AGENTS.get((mid, seat, spec))
    return id(agent) if agent is not None else 0


def test_a_match_goes_back_to_its_worker_and_never_waits_for_it():
    async def main() -> None:
        w = Workers(2, 10, "test")
        try:
            first = await w.run(_pid_after, 0.0, affinity="a")
            others = {await w.run(_pid_after, 0.0, affinity="b") for _ in range(3)}
            again = [await w.run(_pid_after, 0.0, affinity="a") for _ in range(4)]
            assert again == [first] * 4  # "a" always found its worker free
            # Two jobs of one key at once: the second does not queue behind the first.
            both = await asyncio.gather(w.run(_pid_after, 1.0, affinity="a"), w.run(_pid_after, 0.0, affinity="a"))
            assert len(set(both)) == 2
            # Jobs without a key take any free worker.
            assert {await w.run(_pid_after, 0.0) for _ in range(2)} <= set(both)
            assert len(others) == 1
        finally:
            w.close()

    asyncio.run(main())


def test_a_bot_keeps_its_agent_from_one_move_to_the_next():
    """King's Kilt's expert keeps its tree between decisions: its agent must survive in the worker."""
    game = make("kings-kilt", players=2)
    m = Match(game, seed=5)
    spec = "ismcts:expert/iterations=60"
    mid = "m-affinity"

    async def main() -> None:
        w = Workers(2, 10, "test")
        try:
            seen = []
            while len(seen) < 3 and not m.is_over():
                cp = game.current_player(m.state)
                if cp < 0:
                    m.step_chance()
                    continue
                rec = (mid, game.id, 2, {}, 5, tuple((e.player, e.action) for e in m.log))
                if cp == 1:
                    action, how = await w.run(bot_move, rec, 1, spec, None, affinity=mid)
                    assert how == "agent"
                    seen.append(await w.run(_agent_of, mid, 1, spec, affinity=mid))
                else:
                    action = m.observation(0).legal_actions[0]
                m.play(action, cp)
            assert len(seen) == 3 and seen[0] != 0 and len(set(seen)) == 1
        finally:
            w.close()

    asyncio.run(main())


def test_a_job_past_its_wall_time_keeps_its_worker_until_it_ends():
    """A bot move past its wall time is abandoned, but its process still runs it: the worker stays
    taken, so the match's next move goes to the free worker instead of queueing behind it."""

    async def main() -> None:
        w = Workers(2, 10, "test")
        try:
            home = await w.run(_pid_after, 0.0, affinity="a")
            try:
                await w.run(_pid_after, 2.0, wall=0.2, affinity="a")
            except TimeoutError:
                pass
            else:
                raise AssertionError("the wall time did not stop the wait")
            assert w._free == [i for i in (0, 1) if w._last["a"] != i]  # its worker is still taken
            elsewhere = await w.run(_pid_after, 0.0, affinity="a")
            assert elsewhere != home
            # When the abandoned job ends, its worker is free again (and "a" goes back there).
            for _ in range(100):
                if len(w._free) == 2:
                    break
                await asyncio.sleep(0.05)
            assert sorted(w._free) == [0, 1]
        finally:
            w.close()

    asyncio.run(main())


class _SlowSubmit:
    """An executor whose ``submit`` takes a while, as the first one does while the fork server starts."""

    def __init__(self, ex) -> None:
        self.ex = ex

    def submit(self, *args):
        time.sleep(0.5)
        return self.ex.submit(*args)


def test_a_caller_cancelled_while_its_job_is_submitted_leaves_the_worker_busy_until_it_ends():
    async def main() -> None:
        w = Workers(1, 10, "test")
        real = w._process
        w._process = lambda i: _SlowSubmit(real(i))
        try:
            task = asyncio.create_task(w.run(_pid_after, 1.0, affinity="a"))
            await asyncio.sleep(0.1)  # the job is being submitted
            task.cancel()
            try:
                await task
            except asyncio.CancelledError:
                pass
            assert w._free == []  # the job was submitted all the same: its worker is taken
            for _ in range(200):
                if w._free:
                    break
                await asyncio.sleep(0.05)
            assert w._free == [0]
            # and the pool's one slot is free again: a new job runs
            assert await w.run(_pid_after, 0.0) > 0
        finally:
            w.close()

    asyncio.run(main())
