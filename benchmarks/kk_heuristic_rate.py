"""Heuristic vs random King's Kilt win share over N two-player games (seats alternate).

Usage: python benchmarks/kk_heuristic_rate.py 1000
"""

import sys

import kingmaker
from kingmaker.agents import HeuristicAgent, RandomAgent


def main(n: int) -> None:
    g = kingmaker.make("kings-kilt", players=2)
    wins = 0.0
    ties = 0
    for seed in range(n):
        h = seed % 2
        agents = [HeuristicAgent(), RandomAgent()] if h == 0 else [RandomAgent(), HeuristicAgent()]
        m = kingmaker.Match(g, agents, seed=seed)
        m.run()
        r = m.returns()
        wins += r[h]
        ties += r[h] == 0.5
    print(f"heuristic vs random, 2 players, {n} games (seats alternate): "
          f"win share {wins / n:.3f}, shared thrones {ties}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 1000)
