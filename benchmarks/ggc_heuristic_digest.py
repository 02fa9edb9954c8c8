"""A digest of the Gangs of Green City heuristic team's every action, to check that a change keeps every decision.

    PYTHONPATH=<a checkout's src> python benchmarks/ggc_heuristic_digest.py [GAMES]

Plays GAMES (default 50) heuristic team games a cell, 2 to 5 players and 4 to 6 escalations,
game ``i`` of a cell with seed ``700000 + 1000 * players + 100 * escalations + i`` (seeds
the bot was not tuned on), and prints one digest of all their actions, the number of games
and the CPU seconds. Two checkouts that print the same digest chose the same actions.
"""

import hashlib
import sys
import time

from ggc_heuristic_team import heuristic_game

n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
out = []
t0 = time.process_time()
for players in (2, 3, 4, 5):
    for esc in (4, 5, 6):
        for i in range(n_games):
            acts: list[int] = []
            heuristic_game(players, esc, 700000 + 1000 * players + 100 * esc + i, lambda _s, a, acts=acts: acts.append(a))
            out.append(hashlib.sha1(repr(acts).encode()).hexdigest()[:10])
print(hashlib.sha1(" ".join(out).encode()).hexdigest(), len(out), round(time.process_time() - t0, 2))
