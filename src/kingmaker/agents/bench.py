"""``kingmaker bench --agents``: IS-MCTS speed per game and time per move at each level.

For each game (at its smallest player count) a seeded random game is played
and a few of its decision points with a real choice (two or more legal
actions) are kept, from the opening to the late game. At those positions:

- **iterations per second**: IS-MCTS with random rollouts and a time budget
  (``seconds`` split over the positions) counts its iterations;
- **time per move** at ``easy``, ``normal`` and ``hard``: each level decides
  once at every position with its real budget (iterations, capped by time) and
  the game's search hints, as ``make_agent`` builds it;
  the mean and the longest are reported, and for ``normal`` also its
  iterations per second of CPU time (heuristic rollouts and the game's hints:
  the rate issue 16 compares; ``benchmarks/search_speed.py`` measures it side
  by side with another checkout).
"""

from __future__ import annotations

import random
import time
from typing import Any

from ..core.api import CHANCE, SIMULTANEOUS, TERMINAL, Game
from ..core.match import Observation, sample_chance
from ..core.registry import make

__all__ = ["agent_bench", "decision_points", "format_agent_bench"]


def decision_points(game: Game, count: int, seed: int = 0) -> list[tuple[Any, int]]:
    """Returns up to ``count`` (state, player) pairs with a real choice, spread over a random game."""
    rng = random.Random(f"agent-bench/{game.id}/{seed}")
    s = game.new_initial_state()
    found: list[tuple[Any, int]] = []
    for _ in range(game.info.max_game_length + 1):
        cp = game.current_player(s)
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            continue
        p = cp if cp != SIMULTANEOUS else game.acting_players(s)[0]
        acts = game.legal_actions(s, p)
        if len(acts) > 1:
            found.append((s, p))
        s = game.apply(s, acts[rng.randrange(len(acts))], p)
    if len(found) <= count:
        return found
    step = len(found) / count
    return [found[int(i * step)] for i in range(count)]


def _observation(game: Game, s: Any, p: int, seed: str) -> Observation:
    return Observation(
        game,
        p,
        game.view(s, p),
        game.legal_actions(s, p),
        lambda rng: game.sample_hidden(s, p, rng),
        random.Random(seed),
    )


def agent_bench(game_ids: list[str], seconds: float = 2.0, positions: int = 3) -> list[dict]:
    """Returns one row per game: IS-MCTS iterations per second and time per move by level.

    Args:
        game_ids: the games (each at its smallest player count).
        seconds: the time spent on the iterations-per-second measurement per game.
        positions: decision points per game.

    Row keys: game, players, positions, iterations_per_second, and for each of
    easy, normal and hard: ``<level>_mean_s``, ``<level>_max_s`` and
    ``<level>_iterations`` (mean iterations per move); and
    ``normal_iterations_per_cpu_second``.
    """
    from .search import LEVELS, TEAM_LEVELS, ISMCTSAgent, SearchConfig, parse_level

    rows = []
    for gid in game_ids:
        game = make(gid)
        points = decision_points(game, positions)
        row: dict[str, Any] = {"game": game.id, "players": game.num_players, "positions": len(points)}
        if not points:
            rows.append(row)
            continue
        per = max(seconds / len(points), 0.01)
        agent = ISMCTSAgent(SearchConfig(iterations=None, seconds=per, rollout="random"))
        its = 0
        spent = 0.0
        for i, (s, p) in enumerate(points):
            agent.search(_observation(game, s, p, f"bench/{i}"))
            its += agent.last.iterations
            spent += agent.last.seconds
        row["iterations_per_second"] = its / spent if spent > 0 else 0.0
        levels = TEAM_LEVELS if game.info.cooperative else LEVELS
        for name in levels:
            agent = ISMCTSAgent(parse_level(name, levels, game.search_hints))  # as make_agent builds it
            times = []
            iters = []
            cpu = 0.0
            for i, (s, p) in enumerate(points):
                t0 = time.perf_counter()
                c0 = time.process_time()
                agent.act(_observation(game, s, p, f"bench/{name}/{i}"))
                cpu += time.process_time() - c0
                times.append(time.perf_counter() - t0)
                iters.append(agent.last.iterations)
            if name == "normal":
                row["normal_iterations_per_cpu_second"] = sum(iters) / cpu if cpu > 0 else 0.0
            row[f"{name}_mean_s"] = sum(times) / len(times)
            row[f"{name}_max_s"] = max(times)
            row[f"{name}_iterations"] = sum(iters) / len(iters)
        rows.append(row)
    return rows


def format_agent_bench(rows: list[dict]) -> str:
    """Returns the rows as a plain text table."""
    header = (
        f"{'game':<22} {'pl':>3} {'iter/s':>8} "
        f"{'easy s':>7} {'normal s':>9} {'(max)':>7} {'hard s':>7} {'normal it':>10}"
    )
    lines = ["IS-MCTS speed (random rollouts) and time per move by level", header, "-" * len(header)]
    for r in rows:
        if "iterations_per_second" not in r:
            lines.append(f"{r['game']:<22} {r['players']:>3}  (no decision with a choice found)")
            continue
        lines.append(
            f"{r['game']:<22} {r['players']:>3} {r['iterations_per_second']:>8.0f} "
            f"{r['easy_mean_s']:>7.3f} {r['normal_mean_s']:>9.3f} {r['normal_max_s']:>7.3f} "
            f"{r['hard_mean_s']:>7.3f} {r['normal_iterations']:>10.0f}"
        )
    rates = [r for r in rows if "normal_iterations_per_cpu_second" in r]
    if rates:
        lines += ["", "normal: iterations per second of CPU time (its rollouts and the game's hints)"]
        lines += [f"{r['game']:<22} {r['normal_iterations_per_cpu_second']:>8.0f}" for r in rates]
    return "\n".join(lines)
