"""Random-play speed of every game: ``kingmaker bench``.

For each game and player count, seeded random games run on one core for a
while; the loop asks ``current_player``, then ``legal_actions`` (or
``chance_outcomes``, sampled with their probabilities), picks uniformly and
``apply``s. *Decisions* are the non-chance actions; *actions* count chance
too. Each figure is the median of three runs. Time is the process's CPU
time (``time.process_time``), which on an idle machine equals the wall time of
this single-threaded loop and stays honest when other work shares the cores.
"""

from __future__ import annotations

import platform
import random
import statistics
import time
from dataclasses import asdict, dataclass

from .core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from .core.registry import available_games, game_class, make

__all__ = ["BenchRow", "machine", "random_play_rate", "run_bench"]


@dataclass
class BenchRow:
    game: str
    players: int
    games_per_s: float
    decisions_per_s: float
    actions_per_s: float
    mean_length: float


def random_play_rate(game: Game, seconds: float = 1.0, seed: int = 0) -> tuple[float, float, float, float]:
    """Plays random games for about ``seconds``; returns (games/s, decisions/s, actions/s, mean length)."""
    rng = random.Random(seed)
    cur = game.current_player
    legal = game.legal_actions
    chance = game.chance_outcomes
    apply = game.apply
    acting = game.acting_players
    games = decisions = actions = 0
    start = time.process_time()
    deadline = start + seconds
    while True:
        s = game.new_initial_state()
        while True:
            p = cur(s)
            if p >= 0:
                acts = legal(s, p)
                s = apply(s, acts[rng.randrange(len(acts))], p)
                decisions += 1
            elif p == CHANCE:
                outs = chance(s)
                r = rng.random()
                pick = outs[-1][0]
                for out, pr in outs:
                    r -= pr
                    if r < 0:
                        pick = out
                        break
                s = apply(s, pick)
            elif p == SIMULTANEOUS:
                ps = acting(s)
                q = ps[rng.randrange(len(ps))]
                acts = legal(s, q)
                s = apply(s, acts[rng.randrange(len(acts))], q)
                decisions += 1
            else:
                assert p == TERMINAL
                break
            actions += 1
        games += 1
        now = time.process_time()
        if now >= deadline:
            break
    elapsed = now - start
    return games / elapsed, decisions / elapsed, actions / elapsed, actions / games


def run_bench(game_ids: list[str] | None = None, seconds: float = 1.0, runs: int = 3) -> list[BenchRow]:
    """Returns one row per game and player count: the median of ``runs`` runs."""
    rows = []
    for gid in game_ids or available_games():
        cls = game_class(gid)
        for n in range(cls.min_players, cls.max_players + 1):
            game = make(gid, players=n)
            results = [random_play_rate(game, seconds, seed=i) for i in range(runs)]
            med = [statistics.median(r[i] for r in results) for i in range(4)]
            rows.append(BenchRow(cls.id, n, *med))
    return rows


def machine() -> dict:
    """Returns what the figures were measured on."""
    cpu = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    cpu = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    return {"python": platform.python_version(), "implementation": platform.python_implementation(),
            "cpu": cpu, "system": platform.system()}


def rows_as_dicts(rows: list[BenchRow]) -> list[dict]:
    return [asdict(r) for r in rows]
