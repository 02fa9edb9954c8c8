"""One game of a study as one row: what every backend runs.

``play_chunk(task)`` plays some games of one cell and returns their rows and
the CPU time it took. A row depends only on the study's definition, the cell
and the game's index (its seed is ``cell_seed``), never on the worker, the
chunk or the order, so every backend stores the same rows.

A row::

    cell, cell_key, players, index, seed      which game
    seats                                      the agent spec of each seat
    returns                                    per seat
    winners                                    the seats ``game.outcome`` names
    reason                                     ``game.outcome``'s end reason code
    length, decisions                          actions (chance included), players' actions
    opt_<name>                                 each option the cell sets
    fig_<name>                                 each per-seat figure ``game.figures`` gives

The random streams are those of a ``Match`` with the same seed (chance from
``Random(seed)``, seat i from ``Random(f"{seed}/agent/{i}")``).
"""

from __future__ import annotations

import random
import time
from collections.abc import Mapping, Sequence
from typing import Any

from ..core.api import CHANCE, TERMINAL

try:
    import resource
except ImportError:  # pragma: no cover - not on Windows
    resource = None
from ..core.errors import GameError
from ..core.match import sample_chance
from ..core.registry import make

__all__ = ["FAST_AGENTS", "chunk_task", "cpu_time", "play_chunk", "play_row"]

# Agents the lab may run on the true state (they read only their seat's view).
FAST_AGENTS = ("heuristic", "random")


def _direct(game: Any, seats: Sequence[str], seed: int) -> tuple[Any, int, int]:
    """Plays heuristic and random seats on the true state; returns (final state, length, decisions)."""
    chance = random.Random(seed)
    rngs = [random.Random(f"{seed}/agent/{i}") for i in range(game.num_players)]
    heuristic = [spec == "heuristic" for spec in seats]
    s = game.new_initial_state()
    length = decisions = 0
    limit = game.info.max_game_length + 1
    for _ in range(limit):
        cp = game.current_player(s)
        if cp == TERMINAL:
            return s, length, decisions
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), chance))
        else:
            p = cp if cp >= 0 else game.acting_players(s)[0]
            rng = rngs[p]
            a = game.heuristic_action(s, p, rng) if heuristic[p] else rng.choice(game.legal_actions(s, p))
            s = game.apply(s, a, p)
            decisions += 1
        length += 1
    if game.is_terminal(s):
        return s, length, decisions
    raise GameError(f"{game.name} did not end within {limit} actions (seed {seed})")


def play_row(
    game: Any,
    cell: int,
    cell_key: str,
    index: int,
    seats: Sequence[str],
    seed: int,
    fast: bool = True,
) -> dict:
    """Plays one game and returns its row (see the module docstring)."""
    if fast and all(spec in FAST_AGENTS for spec in seats):
        s, length, decisions = _direct(game, seats, seed)
    else:
        from ..agents.arena import run_match

        match, stats = run_match(game, seats, seed)
        s, length, decisions = match.state, len(match.log), sum(stats["moves"])
    outcome = game.outcome(s)
    row: dict[str, Any] = {
        "cell": cell,
        "cell_key": cell_key,
        "players": game.num_players,
        "index": index,
        "seed": seed,
        "seats": list(seats),
        "returns": [float(r) for r in game.returns(s)],
        "winners": sorted(int(w) for w in outcome.get("winners", [])),
        "reason": str(outcome.get("reason", "")),
        "length": length,
        "decisions": decisions,
    }
    for name, value in game.option_values.items():
        row[f"opt_{name}"] = value
    figures = game.figures(s) or {}
    for name in dict.fromkeys(list(game.info.figures) + list(figures)):
        values = figures.get(name)
        row[f"fig_{name}"] = None if values is None else [float(v) for v in values]
    return row


def chunk_task(study: Any, cell: Any, indices: Sequence[int]) -> tuple:
    """Returns the task tuple ``play_chunk`` takes for ``indices`` of ``cell`` (plain data, picklable)."""
    from ..agents.arena import parse_agents, seat_agents
    from .study import cell_seed

    specs = parse_agents(list(study.agents), cell.players)
    games = [(i, seat_agents(specs, i), cell_seed(study.seed, cell, i)) for i in indices]
    return (study.game, cell.players, dict(cell.options), cell.number, cell.key, games, study.fast)


def play_chunk(
    game_id: str,
    players: int,
    options: Mapping[str, Any],
    cell: int,
    cell_key: str,
    games: Sequence[tuple[int, Sequence[str], int]],
    fast: bool,
) -> dict:
    """Plays ``games`` (index, seats, seed) of one cell; returns {"rows", "cpu", "cell"}."""
    t0 = cpu_time()
    game = make(game_id, players=players, **options)
    rows = [play_row(game, cell, cell_key, i, seats, seed, fast) for i, seats, seed in games]
    return {"cell": cell, "rows": rows, "cpu": cpu_time() - t0}


def cpu_time() -> float:
    """CPU seconds of this process and of its children that have ended.

    The children count because a search may fork (``hard``'s root-parallel searches
    run in child processes where the worker may have children).
    """
    t = time.process_time()
    if resource is not None:
        ru = resource.getrusage(resource.RUSAGE_CHILDREN)
        t += ru.ru_utime + ru.ru_stime
    return t
