"""Measures the Kingpin heuristic: against the random bot, and mafia against mafia.

    python -m kingmaker.games.kingpin.balance vs-random --games 1000
    python -m kingmaker.games.kingpin.balance pairings --games 200

Each game is seeded (game i uses seed i); seats alternate so that each side
plays first in half the games. Chance follows its probabilities.
"""

from __future__ import annotations

import argparse
import random
import time

from ...core.api import CHANCE, TERMINAL
from ...core.match import sample_chance
from ...core.registry import make
from .bot import heuristic_action
from .data import MAFIA_KEYS


def play(game, kinds: tuple[str, str], seed: int) -> tuple[int, str, int]:
    """Plays one game; kinds[p] is 'heuristic' or 'random'. Returns (winner, reason, length)."""
    rng = random.Random(seed)
    bots = [random.Random(f"{seed}/{p}") for p in range(2)]
    s = game.new_initial_state()
    n = 0
    while True:
        cp = game.current_player(s)
        if cp == TERMINAL:
            return s.winner, s.reason, n
        if cp == CHANCE:
            a = sample_chance(game.chance_outcomes(s), rng)
        elif kinds[cp] == "heuristic":
            a = heuristic_action(game, s, cp, bots[cp])
        else:
            a = bots[cp].choice(game.legal_actions(s, cp))
        s = game.apply(s, a, None if cp == CHANCE else cp)
        n += 1


def vs_random(games: int, **options) -> dict:
    """Heuristic against random, seats alternating; returns the heuristic's wins."""
    wins = {0: 0, 1: 0}
    played = {0: 0, 1: 0}
    reasons: dict[str, int] = {}
    for i in range(games):
        seat = i % 2
        mafias = options.get("mafias")
        game = make("kingpin", **({**options, "mafias": mafias} if mafias else options))
        kinds = ("heuristic", "random") if seat == 0 else ("random", "heuristic")
        w, reason, _ = play(game, kinds, i)
        played[seat] += 1
        if w == seat:
            wins[seat] += 1
            reasons[reason] = reasons.get(reason, 0) + 1
    return {"games": games, "wins": wins[0] + wins[1], "by_seat": wins, "played": played, "reasons": reasons}


def pairings(games: int, board: str = "A") -> list[dict]:
    """Equal heuristic bots for every ordered mafia pairing (player 0's mafia first)."""
    out = []
    for a in MAFIA_KEYS:
        for b in MAFIA_KEYS:
            if a == b:
                continue
            game = make("kingpin", mafias=f"{a}-{b}", board=board)
            w0 = 0
            reasons: dict[str, int] = {}
            for i in range(games):
                w, reason, _ = play(game, ("heuristic", "heuristic"), i)
                w0 += w == 0
                reasons[reason] = reasons.get(reason, 0) + 1
            out.append({"p0": a, "p1": b, "games": games, "p0_wins": w0, "reasons": reasons})
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("what", choices=("vs-random", "pairings"))
    ap.add_argument("--games", type=int, default=200)
    ap.add_argument("--board", default="A")
    ap.add_argument("--goodfellas", action="store_true")
    ap.add_argument("--long-night", action="store_true")
    args = ap.parse_args()
    t0 = time.perf_counter()
    if args.what == "vs-random":
        r = vs_random(args.games, board=args.board, goodfellas=args.goodfellas, long_night=args.long_night)
        print(f"heuristic beat random in {r['wins']}/{r['games']} games "
              f"({100 * r['wins'] / r['games']:.1f}%); by seat {r['by_seat']} of {r['played']}; "
              f"wins by {r['reasons']}")
    else:
        print("| player 0 (starts) | player 1 | games | player 0 wins | player 1 wins | how the games ended |")
        print("|---|---|---|---|---|---|")
        for row in pairings(args.games, args.board):
            g, w = row["games"], row["p0_wins"]
            how = ", ".join(f"{k} {v}" for k, v in sorted(row["reasons"].items()))
            print(f"| {row['p0']} | {row['p1']} | {g} | {100 * w / g:.1f}% | {100 * (g - w) / g:.1f}% | {how} |")
    print(f"({time.perf_counter() - t0:.0f} s)")


if __name__ == "__main__":
    main()
