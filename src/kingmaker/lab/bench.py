"""Measures the lab's backends side by side on one study (what benchmarks/lab.md reports).

    python -m kingmaker.lab.bench --game kings-kilt --players 3 --games 600 --rounds 2

Plays the same study (fresh each time, heuristic seats) in one process, on a
local process pool of ``--jobs`` workers and on local Ray with ``--jobs`` CPUs,
``--rounds`` times in turn, and prints games/s, the parallel efficiency
(pool games/s over jobs times one process's) and Ray's overhead against the
pool (its start-up apart). Checks that every backend stored the same rows.
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time
from pathlib import Path

from .backends import PoolBackend, RayBackend, SerialBackend
from .runner import run_study
from .store import read_rows
from .study import study_from_flags


def _rows(out: Path) -> list[dict]:
    table, _ = read_rows((out / "parts").glob("*.parquet"))
    return table.to_pylist()


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="kings-kilt")
    ap.add_argument("--players", type=int, default=3)
    ap.add_argument("--games", type=int, default=600)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--no-ray", action="store_true")
    args = ap.parse_args(argv)
    study = study_from_flags(args.game, [args.players], "heuristic", args.games, seed=1, name="bench")
    times: dict[str, list[float]] = {"one process": [], f"pool ({args.jobs})": [], f"ray ({args.jobs})": []}
    cpus: dict[str, list[float]] = {k: [] for k in times}  # CPU seconds: driver + workers' games
    print(f"load average before: {os.getloadavg()}")
    t0 = time.perf_counter()
    ray_backend = None if args.no_ray else RayBackend(num_cpus=args.jobs)
    ray_init = time.perf_counter() - t0
    reference = None
    with tempfile.TemporaryDirectory() as tmp:
        for r in range(args.rounds):
            backends = [("one process", SerialBackend()), (f"pool ({args.jobs})", PoolBackend(args.jobs))]
            if ray_backend is not None:
                backends.append((f"ray ({args.jobs})", ray_backend))
            for name, backend in backends:
                out = Path(tmp) / f"{r}-{name.split()[0]}"
                t = time.perf_counter()
                c = time.process_time()
                res = run_study(study, out, backend, fresh=True, flush_every=60)
                times[name].append(time.perf_counter() - t)
                driver = time.process_time() - c
                # One process: the games run in the driver, so its CPU time is all of it.
                cpus[name].append(driver if name == "one process" else driver + res.cpu)
                if backend is not ray_backend:
                    backend.close()
                rows = _rows(out)
                reference = reference or rows
                assert rows == reference, f"{name} stored other rows"
    if ray_backend is not None:
        ray_backend.close()
    print(f"load average after: {os.getloadavg()}")
    print(f"{args.game}, {args.players} players, heuristic seats, {args.games} games per run, "
          f"{args.rounds} rounds in turn; median wall time")
    print("| backend | median wall s | games/s (wall) | runs (s) | CPU ms a game (driver + workers) |")
    print("|---|---|---|---|---|")
    rate = {}
    for name, ts in times.items():
        if not ts:
            continue
        m = statistics.median(ts)
        rate[name] = args.games / m
        cpu = statistics.median(cpus[name]) / args.games * 1000
        print(f"| {name} | {m:.2f} | {rate[name]:.1f} | {', '.join(f'{t:.2f}' for t in ts)} | {cpu:.2f} |")
    pool = f"pool ({args.jobs})"
    print(f"\nparallel efficiency (wall): {rate[pool] / (args.jobs * rate['one process']):.0%} "
          f"(speed-up {rate[pool] / rate['one process']:.2f}x on {args.jobs} workers)")
    one_cpu = statistics.median(cpus["one process"])
    print(f"work efficiency (CPU): {one_cpu / statistics.median(cpus[pool]):.0%} "
          "(one process's CPU time over the pool's, driver included: the share of the pool's "
          "CPU spent on games; on idle cores the speed-up is this times the workers)")
    ray = f"ray ({args.jobs})"
    if ray in rate:
        print(f"ray start-up: {ray_init:.1f} s; ray per run against the pool: "
              f"{statistics.median(times[ray]) / statistics.median(times[pool]):.2f}x the time")
    print("every backend stored the same rows")


if __name__ == "__main__":
    main()
