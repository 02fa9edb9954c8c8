"""CPU time a move of four-player Kingpins' ``normal`` search: the heuristic prior against
``prior=breadth`` (the four-player hint), on the same positions of seat 0 from heuristic games.

Run: ``.venv/bin/python benchmarks/kingpins_prior_cost.py`` (each prior twice, alternating,
so that a change of load falls on both).
"""

from __future__ import annotations

import time

import kingmaker
from kingmaker.agents import make_agent
from kingmaker.core.match import Match


def positions(game, per_game: int = 40, games: int = 3) -> list:
    """Seat 0's observations with a choice, from heuristic games (seeds 0, 1, ...)."""
    found = []
    for seed in range(games):
        match = Match(game, [make_agent("heuristic", game) for _ in range(game.num_players)], seed=seed)
        taken = 0
        while not match.is_over():
            s = match.state
            if taken < per_game and game.current_player(s) == 0 and len(game.legal_actions(s, 0)) > 1:
                found.append(match.observation(0))
                taken += 1
            match.step()
    return found


def main() -> None:
    game = kingmaker.make("kingpins", players=4)
    obs = positions(game)
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
