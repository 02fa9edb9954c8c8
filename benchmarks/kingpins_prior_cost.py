"""CPU time a move of four-player Kingpins' ``normal`` search: the heuristic prior against
``prior=breadth`` (the four-player hint), on the same 120 decision points of three random
games (``kingmaker.agents.bench.decision_points``, as ``kingmaker bench --agents`` takes them).

Run: ``.venv/bin/python benchmarks/kingpins_prior_cost.py`` (each prior twice, alternating,
so that a change of load falls on both).
"""

from __future__ import annotations

import random
import time

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.agents.bench import decision_points
from kingmaker.core.match import Observation


def main() -> None:
    game = kingmaker.make("kingpins", players=4)
    points = [sp for seed in range(3) for sp in decision_points(game, 40, seed)]
    obs = [Observation(game, p, game.view(s, p), game.legal_actions(s, p),
                       lambda rng, s=s, p=p: game.sample_hidden(s, p, rng), random.Random(i))
           for i, (s, p) in enumerate(points)]
    print(f"{len(obs)} positions")
    for spec in ("normal/prior=heuristic", "normal", "normal/prior=heuristic", "normal"):
        agent = make_agent(f"ismcts:{spec}/seconds=none", game)
        start = time.process_time()
        for o in obs:
            agent.act(o)
        cost = (time.process_time() - start) / len(obs)
        print(f"ismcts:{spec:<24} prior={agent.config.prior:<10} {cost:.4f} CPU s a move")


if __name__ == "__main__":
    main()
