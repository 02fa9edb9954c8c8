"""The arena: many seeded games between agents, seats rotated, with statistics and ratings.

``run_arena`` plays G games of one game between the listed agents (one spec
per seat), rotating the seats so that every agent sits in every seat equally
often, in parallel worker processes. Each game is a ``Match`` with its own
seed (derived from the arena's seed and the game's number), so the whole run
is reproducible when the agents' budgets are iteration counts, and each
game's ``Record`` replays exactly.

``summarize`` turns the games into per-agent win rates with 95% Wilson
confidence intervals, mean returns, per-seat results, time per move and Elo
ratings (a Bradley-Terry maximum-likelihood fit over every pair of seats of
every game, on the Elo scale, mean 1500); ``format_summary`` prints them.
"""

from __future__ import annotations

import math
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core.api import CHANCE, TERMINAL
from ..core.errors import GameError
from ..core.match import Match
from ..core.registry import make
from ..lab.backends import Backend, make_backend
from ..lab.play import cpu_time
from ..lab.stats import wilson
from . import make_agent

__all__ = [
    "ArenaResult",
    "elo_ratings",
    "format_summary",
    "game_seed",
    "load_arena",
    "parse_agents",
    "play_game",
    "run_arena",
    "run_match",
    "seat_agents",
    "summarize",
    "wilson",
    "win_shares",
]

def parse_agents(text: str | Sequence[str], players: int) -> list[str]:
    """Returns one agent spec per seat from ``"ismcts:normal,random"``.

    A shorter list is completed with its last spec (``ismcts,random`` with 4
    players: one IS-MCTS and three random bots).

    Raises:
        GameError: an empty list or more specs than seats.
    """
    specs = [t.strip() for t in text.split(",")] if isinstance(text, str) else [t.strip() for t in text]
    specs = [t for t in specs if t]
    if not specs:
        raise GameError("no agents given; e.g. --agents ismcts:normal,random")
    if len(specs) > players:
        raise GameError(
            f"{len(specs)} agents for {players} seats; list at most one agent per seat",
            agents=specs,
            players=players,
        )
    return specs + [specs[-1]] * (players - len(specs))


def seat_agents(specs: Sequence[str], index: int) -> list[str]:
    """Returns the specs by seat for game ``index``: the list rotated by ``index`` seats."""
    n = len(specs)
    k = index % n
    return [specs[(seat - k) % n] for seat in range(n)]


def game_seed(seed: int, index: int) -> int:
    """Returns the match seed of game ``index`` of an arena run with ``seed``."""
    return random.Random(f"kingmaker-arena/{seed}/{index}").randrange(2**63)


def win_shares(returns: Sequence[float], cooperative: bool, max_return: float) -> list[float]:
    """Returns each seat's share of the win: 1/k for each of k players on the top return.

    Nobody wins when every player has the same return in a competitive game that
    gives nobody the maximal return; in a co-operative game all win or all lose.
    """
    n = len(returns)
    if cooperative:
        return [1.0 if r >= max_return - 1e-9 else 0.0 for r in returns]
    top = max(returns)
    winners = [i for i in range(n) if returns[i] >= top - 1e-9]
    if len(winners) == n and top < max_return / n - 1e-9:
        return [0.0] * n
    return [1.0 / len(winners) if i in winners else 0.0 for i in range(n)]


def run_match(game, seats: Sequence[str], seed: int) -> tuple[Match, dict]:
    """Plays one match between the agents ``seats``; returns it with per-seat statistics.

    The agents act through ``Match.observation`` only, and each move goes
    through the checked ``Match.play``. The statistics: moves, think (seconds),
    longest (seconds), cpu (seconds: this process's and, where the platform
    counts them, the searches it forked), iterations and searches per seat.

    Raises:
        GameError: the game did not end within its declared maximum length.
    """
    agents = [make_agent(spec, game) for spec in seats]
    match = Match(game, agents, seed=seed)
    n = game.num_players
    moves = [0] * n
    think = [0.0] * n
    cpu = [0.0] * n
    longest = [0.0] * n
    searched = [0] * n  # search iterations (agents that report them)
    searches = [0] * n  # moves decided by a search (not forced)
    limit = game.info.max_game_length + 1
    for _ in range(limit):
        cp = match.current_player
        if cp == TERMINAL:
            break
        if cp == CHANCE:
            match.step_chance()
            continue
        p = cp if cp >= 0 else match.acting_players[0]
        obs = match.observation(p)
        c0, t0 = cpu_time(), time.perf_counter()
        action = agents[p].act(obs)
        dt = time.perf_counter() - t0
        cpu[p] += cpu_time() - c0  # (one agent acts at a time: the delta is its own)
        match.play(action, p)
        moves[p] += 1
        think[p] += dt
        longest[p] = max(longest[p], dt)
        last = getattr(agents[p], "last", None)
        its = getattr(last, "iterations", 0) or 0
        searched[p] += its
        searches[p] += its > 0
    if not match.is_over():
        raise GameError(f"{game.name} did not end within {limit} actions (seed {seed})")
    stats = {"moves": moves, "think": think, "longest": longest, "cpu": cpu, "iterations": searched,
             "searches": searches}
    return match, stats


def play_game(
    game_id: str,
    players: int,
    options: dict,
    seats: Sequence[str],
    seed: int,
    index: int = 0,
    save: str | None = None,
    meta: dict | None = None,
) -> dict:
    """Plays one match between the agents ``seats`` (one spec per seat); returns its data.

    The agents act through ``Match.observation`` only, and each move goes
    through the checked ``Match.play``. Returns a JSON-able dict: index, seed,
    seats, returns, decisions and thinking time per seat, length, and the
    record file when ``save`` names a directory.
    """
    game = make(game_id, players=players, **options)
    match, stats = run_match(game, seats, seed)
    moves, think, longest = stats["moves"], stats["think"], stats["longest"]
    searched, searches = stats["iterations"], stats["searches"]
    returns = list(match.returns())
    out = {
        "index": index,
        "seed": seed,
        "seats": list(seats),
        "returns": returns,
        "moves": moves,
        "think": think,
        "longest": longest,
        "iterations": searched,
        "searches": searches,
        "length": len(match.log),
        "record": None,
    }
    if save:
        path = Path(save) / f"{game.id}-{index:05d}.json"
        record = match.record(
            agents=list(seats),
            index=index,
            moves=moves,
            think=think,
            longest=longest,
            iterations=searched,
            searches=searches,
            **(meta or {}),
        )
        record.save(path)
        out["record"] = str(path)
    return out


def _play_task(*args: Any) -> dict:
    return play_game(*args)


@dataclass
class ArenaResult:
    """An arena run: its settings and the data of every game (sorted by index)."""

    game: str
    players: int
    options: dict
    agents: list[str]
    seed: int
    games: list[dict] = field(default_factory=list)
    seconds: float = 0.0
    cooperative: bool = False
    max_return: float = 1.0

    def summary(self) -> dict:
        return summarize(self)


def run_arena(
    game_id: str,
    players: int | None,
    agents: str | Sequence[str],
    games: int,
    jobs: int = 1,
    seed: int = 0,
    save: str | Path | None = None,
    options: dict | None = None,
    on_game: Callable[[dict], None] | None = None,
    backend: Backend | None = None,
    on_start: Callable[[], None] | None = None,
) -> ArenaResult:
    """Plays ``games`` games with seats rotated; returns every game's data.

    Args:
        game_id: the game.
        players: seats (the game's minimum if None).
        agents: specs, one per seat (a shorter list repeats its last spec).
        games: how many games.
        jobs: worker processes (1: play in this process).
        seed: the arena seed; game i is seeded with ``game_seed(seed, i)``.
        save: a directory for the records (created if missing).
        options: the game's options (text values are converted).
        on_game: called with each game's data as it finishes (a progress bar).
        on_start: called once everything has been checked, before the first game (where
            the command line adds its progress bar's task, so bad input shows none).
        backend: where the games run (``kingmaker.lab.backends``: a process pool,
            local Ray or a Ray cluster); by default ``jobs`` local processes.
            Every backend gives the same games.

    Raises:
        GameError: unknown game, player count, option or agent; games < 1.
    """
    options = dict(options or {})
    game = make(game_id, players=players, **options)  # validates everything up front
    n = game.num_players
    specs = parse_agents(agents, n)
    for spec in dict.fromkeys(specs):
        make_agent(spec, game)  # an unknown kind or level fails here, not in a worker
    if games < 1:
        raise GameError(f"the arena needs at least one game, not {games}")
    if jobs < 1:
        raise GameError(f"jobs must be at least 1, not {jobs}")
    if on_start is not None:
        on_start()
    save_dir = None
    if save is not None:
        Path(save).mkdir(parents=True, exist_ok=True)
        save_dir = str(save)
    opts = dict(game.option_values)
    meta = {"arena_seed": seed}
    tasks = [
        (game.id, n, opts, seat_agents(specs, i), game_seed(seed, i), i, save_dir, meta)
        for i in range(games)
    ]
    result = ArenaResult(
        game=game.id,
        players=n,
        options=opts,
        agents=specs,
        seed=seed,
        cooperative=game.info.cooperative,
        max_return=game.info.max_return,
    )
    start = time.perf_counter()
    own = backend is None
    backend = backend or make_backend(jobs=jobs)
    try:
        for data in backend.map_unordered(_play_task, tasks):
            result.games.append(data)
            if on_game:
                on_game(data)
    finally:
        if own:
            backend.close()
    result.seconds = time.perf_counter() - start
    result.games.sort(key=lambda d: d["index"])
    return result


def load_arena(directory: str | Path) -> ArenaResult:
    """Returns the arena run saved in ``directory`` (its records), e.g. to summarise a partial run.

    Raises:
        GameError: no arena record in the directory, or records of different games.
    """
    from ..core.records import Record

    paths = sorted(Path(directory).glob("*.json"))
    records = [Record.load(path) for path in paths]
    records = [r for r in records if "agents" in r.meta and r.result is not None]
    if not records:
        raise GameError(f"no finished arena game in {directory}")
    first = records[0]
    if any(r.game != first.game or r.players != first.players for r in records):
        raise GameError(f"{directory} holds records of different games or player counts")
    n = first.players
    game = make(first.game, players=n, **first.options)
    games = []
    for r in records:
        m = r.meta
        games.append(
            {
                "index": m.get("index", len(games)),
                "seed": r.seed,
                "seats": list(m["agents"]),
                "returns": list(r.result),
                "moves": m.get("moves", [0] * n),
                "think": m.get("think", [0.0] * n),
                "longest": m.get("longest", [0.0] * n),
                "iterations": m.get("iterations", [0] * n),
                "searches": m.get("searches", [0] * n),
                "length": len(r.actions),
                "record": None,
            }
        )
    games.sort(key=lambda d: d["index"])
    # The listed agents: the seats of the first game of the rotation, else of any game.
    zero = [g for g in games if g["index"] == 0]
    agents = list(zero[0]["seats"]) if zero else list(dict.fromkeys(s for g in games for s in g["seats"]))
    return ArenaResult(
        game=first.game,
        players=n,
        options=dict(first.options),
        agents=agents,
        seed=first.meta.get("arena_seed", 0),
        games=games,
        cooperative=game.info.cooperative,
        max_return=game.info.max_return,
    )


def elo_ratings(games: Sequence[dict], iterations: int = 2000) -> dict[str, float]:
    """Returns an Elo rating per agent fitted to every pair of seats of every game.

    Each pair of seats held by different agents is one comparison (the higher
    return wins, equal returns draw). The ratings maximise the Bradley-Terry
    likelihood (Hunter's MM algorithm) with one virtual draw per pair of agents
    that met, which keeps ratings finite when one agent wins every game. The
    scale is Elo's (400 points: 10 to 1 odds) with the mean at 1500.
    """
    labels = sorted({spec for g in games for spec in g["seats"]})
    if len(labels) < 2:
        return {label: 1500.0 for label in labels}
    idx = {label: i for i, label in enumerate(labels)}
    k = len(labels)
    wins = [[0.0] * k for _ in range(k)]
    for g in games:
        seats, ret = g["seats"], g["returns"]
        for i in range(len(seats)):
            for j in range(i + 1, len(seats)):
                a, b = idx[seats[i]], idx[seats[j]]
                if a == b:
                    continue
                if ret[i] > ret[j] + 1e-9:
                    wins[a][b] += 1.0
                elif ret[j] > ret[i] + 1e-9:
                    wins[b][a] += 1.0
                else:
                    wins[a][b] += 0.5
                    wins[b][a] += 0.5
    for a in range(k):
        for b in range(k):
            if a != b and (wins[a][b] + wins[b][a]) > 0:
                wins[a][b] += 0.5
    gamma = [1.0] * k
    for _ in range(iterations):
        new = []
        for a in range(k):
            w = sum(wins[a])
            denom = sum(
                (wins[a][b] + wins[b][a]) / (gamma[a] + gamma[b]) for b in range(k) if b != a
            )
            new.append(w / denom if denom > 0 and w > 0 else gamma[a])
        mean_log = sum(math.log(x) for x in new) / k
        new = [x / math.exp(mean_log) for x in new]
        if max(abs(x - y) for x, y in zip(new, gamma)) < 1e-10:
            gamma = new
            break
        gamma = new
    return {label: 1500.0 + 400.0 * math.log10(gamma[idx[label]]) for label in labels}


def summarize(result: ArenaResult) -> dict:
    """Returns the statistics of an arena run as JSON-able data.

    Keys: game, players, options, games, seconds, cooperative, agents (per
    agent: seat-games, wins, win_rate, ci95, mean_return, fair_share, elo,
    time_per_move, longest_move, iterations_per_move: mean search iterations of the moves
    that were searched), seats (per seat and agent: games, win_rate,
    mean_return) and, in a co-operative game, team (win_rate, ci95).
    """
    n = result.players
    games = result.games
    per: dict[str, dict] = {}
    seats: dict[tuple[int, str], dict] = {}
    team_wins = 0.0
    for g in games:
        shares = win_shares(g["returns"], result.cooperative, result.max_return)
        if result.cooperative:
            team_wins += shares[0]
        for seat, spec in enumerate(g["seats"]):
            a = per.setdefault(
                spec,
                {"games": 0, "wins": 0.0, "ret": 0.0, "moves": 0, "think": 0.0, "longest": 0.0, "its": 0, "searches": 0},
            )
            a["games"] += 1
            a["wins"] += shares[seat]
            a["ret"] += g["returns"][seat]
            a["moves"] += g["moves"][seat]
            a["think"] += g["think"][seat]
            a["its"] += g.get("iterations", [0] * n)[seat]
            a["searches"] += g.get("searches", [0] * n)[seat]
            a["longest"] = max(a["longest"], g["longest"][seat])
            s = seats.setdefault((seat, spec), {"games": 0, "wins": 0.0, "ret": 0.0})
            s["games"] += 1
            s["wins"] += shares[seat]
            s["ret"] += g["returns"][seat]
    elo = {} if result.cooperative else elo_ratings(games)
    agents = []
    for spec in dict.fromkeys(result.agents):
        a = per.get(spec)
        if a is None:
            continue
        lo, hi = wilson(a["wins"], a["games"])
        agents.append(
            {
                "agent": spec,
                "games": a["games"],
                "wins": a["wins"],
                "win_rate": a["wins"] / a["games"],
                "ci95": [lo, hi],
                "mean_return": a["ret"] / a["games"],
                "fair_share": 1.0 / n,
                "elo": elo.get(spec),
                "time_per_move": a["think"] / a["moves"] if a["moves"] else 0.0,
                "longest_move": a["longest"],
                "iterations_per_move": a["its"] / a["searches"] if a["searches"] else 0.0,
            }
        )
    seat_rows = [
        {
            "seat": seat,
            "agent": spec,
            "games": s["games"],
            "win_rate": s["wins"] / s["games"],
            "mean_return": s["ret"] / s["games"],
        }
        for (seat, spec), s in sorted(seats.items(), key=lambda kv: (kv[0][0], result.agents.index(kv[0][1])))
    ]
    out = {
        "game": result.game,
        "players": n,
        "options": dict(result.options),
        "agents_by_seat": list(result.agents),
        "seed": result.seed,
        "games": len(games),
        "seconds": result.seconds,
        "cooperative": result.cooperative,
        "agents": agents,
        "seats": seat_rows,
    }
    if result.cooperative and games:
        lo, hi = wilson(team_wins, len(games))
        out["team"] = {"wins": team_wins, "win_rate": team_wins / len(games), "ci95": [lo, hi]}
    return out


def format_summary(summary: dict) -> str:
    """Returns the summary as plain text tables (what ``kingmaker arena`` prints)."""
    opts = ", ".join(f"{k}={v}" for k, v in summary["options"].items())
    lines = [
        f"{summary['game']} · {summary['players']} players"
        + (f" · {opts}" if opts else "")
        + f" · {summary['games']} games · seed {summary['seed']} · {summary['seconds']:.1f} s",
        "",
    ]
    if summary.get("team"):
        t = summary["team"]
        lines.append(
            f"team win rate {t['win_rate']:.1%} (95% CI {t['ci95'][0]:.1%}-{t['ci95'][1]:.1%}),"
            f" {t['wins']:g} of {summary['games']} games"
        )
        lines.append("")
    header = f"{'agent':<28} {'games':>6} {'win rate':>9} {'95% CI':>15} {'mean ret':>9} {'fair':>6} {'Elo':>7} {'s/move':>7} {'it/move':>8}"
    lines.append(header)
    lines.append("-" * len(header))
    for a in summary["agents"]:
        elo = f"{a['elo']:.0f}" if a.get("elo") is not None else "-"
        ci = f"{a['ci95'][0]:.1%}-{a['ci95'][1]:.1%}"
        lines.append(
            f"{a['agent']:<28} {a['games']:>6} {a['win_rate']:>9.1%} {ci:>15} {a['mean_return']:>9.3f}"
            f" {a['fair_share']:>6.1%} {elo:>7} {a['time_per_move']:>7.3f} {a['iterations_per_move']:>8.0f}"
        )
    lines.append("")
    lines.append("per seat")
    header = f"{'seat':>4}  {'agent':<28} {'games':>6} {'win rate':>9} {'mean ret':>9}"
    lines.append(header)
    lines.append("-" * len(header))
    for s in summary["seats"]:
        lines.append(
            f"{s['seat']:>4}  {s['agent']:<28} {s['games']:>6} {s['win_rate']:>9.1%} {s['mean_return']:>9.3f}"
        )
    return "\n".join(lines)
