"""A digest of the Gangs of Green City heuristic team's every action, to check that a change keeps every decision.

    PYTHONPATH=<a checkout's src> python benchmarks/ggc_heuristic_digest.py [GAMES]

Plays GAMES (default 50) heuristic team games a cell, 2 to 5 players and 4 to 6 escalations,
game ``i`` of a cell with seed ``700000 + 1000 * players + 100 * escalations + i`` (seeds
the bot was not tuned on), and prints one digest of all their actions, the number of games
and the CPU seconds. Two checkouts that print the same digest chose the same actions.
"""

import hashlib
import random
import sys
import time

import kingmaker
from kingmaker.core.api import CHANCE
from kingmaker.core.match import sample_chance

n_games = int(sys.argv[1]) if len(sys.argv) > 1 else 50
out = []
t0 = time.process_time()
for players in (2, 3, 4, 5):
    for esc in (4, 5, 6):
        for i in range(n_games):
            seed = 700000 + 1000 * players + 100 * esc + i
            game = kingmaker.make("gangs-of-green-city", players=players, escalations=esc)
            rng = random.Random(seed)
            s = game.new_initial_state()
            acts = []
            while not game.is_terminal(s):
                cp = game.current_player(s)
                if cp == CHANCE:
                    s = game.apply(s, sample_chance(game.chance_outcomes(s), rng))
                    continue
                for p in [cp] if cp >= 0 else list(game.acting_players(s)):
                    a = game.heuristic_action(s, p, rng)
                    acts.append(a)
                    s = game.apply(s, a, p)
            out.append(hashlib.sha1(repr(acts).encode()).hexdigest()[:10])
print(hashlib.sha1(" ".join(out).encode()).hexdigest(), len(out), round(time.process_time() - t0, 2))
