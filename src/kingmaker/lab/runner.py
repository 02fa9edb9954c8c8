"""Runs a study: plays the games its results directory lacks, on any backend.

``run_study(study, out)`` reads what ``out`` already holds, plays every
missing (cell, index) in chunks spread over the cells in turn (so a partial
run is a smaller whole study), writes the rows as they come (every few
seconds, atomically) and compacts them at the end. Run it again and it plays
nothing; kill it and run it again and it plays only what is missing; raise
``games`` and it plays only the new games.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from pathlib import Path

from .backends import Backend, make_backend
from .play import chunk_task, play_chunk
from .study import Study, _error

__all__ = ["RunResult", "default_out", "progress_bar", "run_study", "tasks_for", "verify_run"]


@dataclass
class RunResult:
    """What a run did: games played now, games stored in all, wall and worker CPU seconds."""

    out: Path
    played: int
    stored: int
    seconds: float
    cpu: float
    backend: str

    @property
    def games_per_second(self) -> float:
        return self.played / self.seconds if self.seconds > 0 else 0.0


def default_out(study: Study) -> Path:
    """Returns ``runs/lab/<study name>``: where a study's rows go unless told otherwise."""
    return Path("runs") / "lab" / study.name


def tasks_for(study: Study, done: set[tuple[int, int]], workers: int = 1,
              part: tuple[int, int] | None = None) -> list[tuple]:
    """Returns the chunk tasks of every missing game, cells taken in turn.

    ``part=(k, n)`` keeps the games whose index is k-1 modulo n: machine k of n
    plays its share, and ``kingmaker lab merge`` joins the shares.
    """
    k, n = part or (1, 1)
    per_cell = []
    for cell in study.cells():
        missing = [i for i in range(study.games) if (cell.number, i) not in done and i % n == k - 1]
        per_cell.append((cell, missing))
    most = max((len(m) for _, m in per_cell), default=0)
    size = study.chunk or max(1, min(50, math.ceil(most / (8 * max(1, workers)))))
    queues = [[chunk_task(study, cell, m[k:k + size]) for k in range(0, len(m), size)] for cell, m in per_cell]
    out = []
    for k in range(max((len(q) for q in queues), default=0)):
        out += [q[k] for q in queues if k < len(q)]
    return out


def run_study(
    study: Study,
    out: str | Path | None = None,
    backend: Backend | None = None,
    fresh: bool = False,
    flush_every: float = 5.0,
    on_games: Callable[[int, int], None] | None = None,
    part: tuple[int, int] | None = None,
) -> RunResult:
    """Plays the games of ``study`` that ``out`` lacks; returns what it did.

    Args:
        study: the study.
        out: its results directory (default ``runs/lab/<name>``).
        backend: where to play (default: a local process pool on every core).
        fresh: forget the stored games first.
        flush_every: seconds between writes of the finished rows.
        on_games: called with (games finished now, games to play) as chunks finish.
        part: (k, n): play only share k of n (see ``tasks_for``), e.g. one machine's.

    Raises:
        StoreError: ``out`` holds another study's games or games played by other code.
    """
    from .store import Store

    store = Store(out or default_out(study), study, fresh=fresh)
    own = backend is None
    backend = backend or make_backend()
    done = store.done()
    if part is not None and not (isinstance(part[0], int) and 1 <= part[0] <= part[1]):
        raise _error(f"part {part[0]}/{part[1]}: write K/N with 1 <= K <= N", "part")
    tasks = tasks_for(study, done, backend.workers, part)
    total = sum(len(t[5]) for t in tasks)
    if on_games:
        on_games(0, total)
    start = time.perf_counter()
    played = 0
    cpu = 0.0
    buffer: list[dict] = []
    last = time.monotonic()
    try:
        for res in backend.map_unordered(play_chunk, tasks):
            buffer += res["rows"]
            cpu += res["cpu"]
            played += len(res["rows"])
            if on_games:
                on_games(played, total)
            if time.monotonic() - last >= flush_every:
                store.append(buffer, cpu)
                buffer, cpu, last = [], 0.0, time.monotonic()
    except BaseException:
        if own:  # interrupted: do not wait for the chunks in flight
            backend.abandon()
        raise
    finally:
        store.append(buffer, cpu)  # an interrupted run keeps what it finished
        if own:
            backend.close()
    seconds = time.perf_counter() - start
    store.compact()
    table = store.table()
    return RunResult(
        out=store.out,
        played=played,
        stored=0 if table is None else table.num_rows,
        seconds=seconds,
        cpu=store.cpu_seconds(),
        backend=backend.describe(),
    )


def verify_run(out: str | Path, games: int = 20, backend: Backend | None = None, adopt: bool = False,
               specs: dict[str, str] | None = None) -> dict:
    """Replays the first ``games`` stored games of every cell with this code; compares the rows.

    Rows are deterministic, so equal rows mean the stored results still hold for
    the code as it is now (after a refactor, say); a difference means the rules,
    a bot or the lab's player changed what happens.

    With ``adopt``, when the code's hash changed but every replayed game (at least
    one) equals its stored row, the results are stamped with this code's hash, so
    that ``lab run`` goes on from them; ``study.json`` keeps the record
    (``adopted``: the hashes, the games checked, when).

    ``specs`` maps an agent spec of the study to the spec that plays its seats in the
    replays (a level whose meaning changed since, spelt out as it was: ``{"plan:hard":
    "plan:hard/styles=default+meet+meet2+fight"}``); each replayed row's seats are named
    back before the comparison. Such a check says how the games were played, not that the
    study's own specs still play them, so it adopts nothing.

    Raises:
        GameError: ``specs`` names an agent the study does not have (code ``request/invalid``).

    Returns:
        {"checked": games replayed, "differ": [(cell, index), ...], "same_code": bool,
        "adopted": bool}.
    """
    from .store import code_hash, load_run, read_rows

    study, meta = load_run(out)
    specs = dict(specs or {})
    unknown = sorted(set(specs) - set(study.agents))
    if unknown:
        from ..core.errors import BadRequestError

        raise BadRequestError(f"the study has no agent {unknown[0]!r} to replay as another spec; its agents: "
                              f"{', '.join(study.agents)}", allowed=list(study.agents))
    back = {new: old for old, new in specs.items()}
    played = replace(study, agents=tuple(specs.get(a, a) for a in study.agents))  # its agents under ``specs``
    table, _ = read_rows((Path(out) / "parts").glob("*.parquet"))
    stored = {} if table is None else {(r["cell"], r["index"]): r for r in table.to_pylist()}
    wanted = {(c, i) for (c, i) in stored if i < games}
    # Every other game of the study counts as done, stored or not: only the wanted are replayed.
    done = {(cell.number, i) for cell in study.cells() for i in range(study.games)} - wanted
    tasks = tasks_for(played, done, getattr(backend, "workers", 1))
    own = backend is None
    backend = backend or make_backend()
    differ = []
    checked = 0
    try:
        for res in backend.map_unordered(play_chunk, tasks):
            for row in res["rows"]:
                key = (row["cell"], row["index"])
                if key not in wanted:
                    continue
                checked += 1
                if back:
                    row = {**row, "seats": [back.get(s, s) for s in row["seats"]]}
                if row != stored[key]:
                    differ.append(key)
    except BaseException:
        if own:  # interrupted: do not wait for the replays in flight
            backend.abandon()
        raise
    finally:
        if own:
            backend.close()
    from .play import FAST_AGENTS

    now = code_hash(study.game, agents=not (study.fast and set(study.agents) <= set(FAST_AGENTS)))
    same = now == meta.get("code")
    adopted = adopt and not specs and not same and checked > 0 and not differ
    if adopted:
        from .store import adopt_code

        adopt_code(out, now, checked)
    return {"checked": checked, "differ": sorted(differ), "same_code": same, "adopted": adopted}


def progress_bar(description: str = "games"):
    """Returns a rich Progress showing games done, games/s and the time left."""
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        ProgressColumn,
        TextColumn,
        TimeElapsedColumn,
        TimeRemainingColumn,
    )
    from rich.text import Text

    class Rate(ProgressColumn):
        def render(self, task):  # noqa: ANN001 - rich's signature
            speed = task.finished_speed or task.speed
            return Text("-- games/s" if speed is None else f"{speed:,.1f} games/s", style="cyan")

    return Progress(
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        Rate(),
        TimeElapsedColumn(),
        TextColumn("left"),
        TimeRemainingColumn(),
        transient=False,
        speed_estimate_period=60.0,
    )
