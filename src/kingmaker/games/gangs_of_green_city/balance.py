"""Win rates of the Gangs Of Green City team bot, for docs/rulings/gangs-of-green-city.md.

    python -m kingmaker.games.gangs_of_green_city.balance --games 1000
    python -m kingmaker.games.gangs_of_green_city.balance --games 1000 --players 4 --escalations 4

Plays seeded games (seed i uses ``random.Random(i)`` for chance and the bot) with
every seat played by the heuristic team bot, which may read the whole state
(hands are open and the decks' orders are not stored). With no --players the
games cycle through 2, 3, 4 and 5 players. Prints a Markdown table per
escalation option: win rate with a 95% Wilson interval, and how games were lost.
"""

from __future__ import annotations

import argparse
import math
import random
import time
from collections import Counter

import kingmaker
from kingmaker.core.api import CHANCE

from .state import VICTORY


def _sample(outcomes, rng: random.Random) -> int:
    r = rng.random()
    acc = 0.0
    for a, p in outcomes:
        acc += p
        if r < acc:
            return a
    return outcomes[-1][0]


def play_one(game, seed: int):
    """Plays one bot game; returns the final state."""
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        p = game.current_player(s)
        if p == CHANCE:
            s = game.apply(s, _sample(game.chance_outcomes(s), rng))
        else:
            s = game.apply(s, game.heuristic_action(s, p, rng), p)
    return s


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """Returns the 95% Wilson score interval of a win rate."""
    if n == 0:
        return (0.0, 0.0)
    p = wins / n
    d = 1 + z * z / n
    c = (p + z * z / (2 * n)) / d
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / d
    return (max(0.0, c - h), min(1.0, c + h))


def run(games: int, escalations: int, players: int | None, continue_fight: bool = False) -> dict:
    wins = 0
    reasons: Counter = Counter()
    by_players: Counter = Counter()
    wins_by_players: Counter = Counter()
    start = time.process_time()
    for i in range(games):
        n = players or 2 + i % 4
        g = kingmaker.make("gangs-of-green-city", players=n, escalations=escalations,
                           continue_the_fight=continue_fight)
        s = play_one(g, i)
        won = s.result == VICTORY
        wins += won
        by_players[n] += 1
        wins_by_players[n] += won
        reasons["victory" if won else s.reason] += 1
    return {
        "games": games,
        "wins": wins,
        "reasons": reasons,
        "by_players": by_players,
        "wins_by_players": wins_by_players,
        "cpu": time.process_time() - start,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--players", type=int, default=None)
    ap.add_argument("--escalations", type=int, nargs="*", default=[4, 5, 6])
    ap.add_argument("--continue-the-fight", action="store_true")
    args = ap.parse_args(argv)
    print("| escalations | games | team wins | win rate (95% CI) | by players | losses |")
    print("| --- | --- | --- | --- | --- | --- |")
    for e in args.escalations:
        r = run(args.games, e, args.players, args.continue_the_fight)
        lo, hi = wilson(r["wins"], r["games"])
        per = ", ".join(
            f"{n}p {r['wins_by_players'][n] / r['by_players'][n]:.1%}" for n in sorted(r["by_players"])
        )
        losses = ", ".join(f"{k}: {v}" for k, v in r["reasons"].most_common() if k != "victory")
        print(
            f"| {e} | {r['games']} | {r['wins']} | {r['wins'] / r['games']:.1%} ({lo:.1%}-{hi:.1%}) "
            f"| {per} | {losses} |"
        )
        print(f"<!-- {e} escalations: {r['cpu']:.1f} s CPU -->")


if __name__ == "__main__":
    main()
