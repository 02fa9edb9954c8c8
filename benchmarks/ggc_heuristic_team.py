"""The Gangs of Green City heuristic team's win rate, with its loss reasons.

    python benchmarks/ggc_heuristic_team.py [--games N] [--escalations 4,5,6] [--players 2,3,4,5]
                                            [--seed-base B] [-j JOBS]

Plays the game's heuristic bot on every seat (the game is co-operative: the team wins or
loses together), ``N`` games a cell (default 1000), game ``i`` of a ``p``-player cell with
seed ``B + 1000 * p + i`` (the same deals for any version of the bot, so two versions can be
compared side by side, deal by deal). Prints a Markdown table: games, team wins with the 95%
Wilson interval, losses by reason (hero deck exhausted, war track, spheres exhausted) and
the CPU time of the games (``time.process_time`` of the workers). The bot's rendezvous was
tuned on seeds ``1000 * p + i`` (``B = 0``); ``B = 500000`` was held out.
"""

from __future__ import annotations

import argparse
import random
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

import kingmaker
from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance
from kingmaker.lab.stats import wilson


def heuristic_game(players: int, escalations: int, seed: int, on_action=None):
    """Plays one heuristic team game from ``seed``; returns (game, final state). ``on_action(s,
    a)``, if given, sees each heuristic move before it is applied (the other scripts' hook)."""
    game = kingmaker.make("gangs-of-green-city", players=players, escalations=escalations)
    rng = random.Random(seed)
    s = game.new_initial_state()
    while not game.is_terminal(s):
        cp = game.current_player(s)
        if cp == CHANCE:
            s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
            continue
        for p in [cp] if cp >= 0 else list(game.acting_players(s)):
            a = game.heuristic_action(s, p, rng)
            if on_action is not None:
                on_action(s, a)
            s = game.apply(s, a, p)
    return game, s


def play(job: tuple[int, int, int]) -> tuple[int, int, float, str, float]:
    """Plays one heuristic team game: (players, escalations, return, reason, CPU s)."""
    players, escalations, seed = job
    t0 = time.process_time()
    game, s = heuristic_game(players, escalations, seed)
    r = game.returns(s)[0]
    return players, escalations, r, game.outcome(s).get("reason", ""), time.process_time() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000)
    ap.add_argument("--escalations", default="4")
    ap.add_argument("--players", default="2,3,4,5")
    ap.add_argument("--seed-base", type=int, default=500000)
    ap.add_argument("-j", "--jobs", type=int, default=2)
    a = ap.parse_args()
    escs = [int(x) for x in a.escalations.split(",")]
    counts = [int(x) for x in a.players.split(",")]
    jobs = [(p, e, a.seed_base + 1000 * p + i) for e in escs for p in counts for i in range(a.games)]
    with ProcessPoolExecutor(a.jobs) as pool:
        rows = list(pool.map(play, jobs, chunksize=25))
    print("| escalations | players | games | team won | 95% CI | losses by reason | CPU s |")
    print("|---|---|---|---|---|---|---|")
    for e in escs:
        for p in counts:
            cell = [r for r in rows if r[0] == p and r[1] == e]
            won = sum(r[2] for r in cell)
            lo, hi = wilson(won, len(cell))
            why = Counter(r[3] for r in cell if r[2] <= 0)
            reasons = ", ".join(f"{k} {v}" for k, v in why.most_common())
            cpu = sum(r[4] for r in cell)
            print(f"| {e} | {p} | {len(cell)} | {won:.0f} ({100 * won / len(cell):.1f}%) | "
                  f"{100 * lo:.1f}%–{100 * hi:.1f}% | {reasons} | {cpu:.1f} |")


if __name__ == "__main__":
    main()
