"""CPU time a move of Kingpin's search levels, at the same decisions of heuristic games.

    python benchmarks/kingpin_hard_cost.py [SPEC ...]

Plays three seeded games of heuristic bots (seeds 0 to 2) and, at moves 5, 15, ..., 55 of
each (where the seat has a choice), asks each spec (default: ``normal`` and ``hard``, the time
cap removed) for a move from the same observation, each with a random stream of its own, so
that the games do not depend on which specs are measured; prints each spec's mean CPU time
(``time.process_time``: the machine's load changes it less than wall time) over those decisions.
"""

from __future__ import annotations

import random
import sys
import time

import kingmaker
from kingmaker import Match
from kingmaker.agents import make_agent
from kingmaker.core.match import Observation


def main(specs: list[str]) -> None:
    game = kingmaker.make("kingpin", players=2)
    bots = [make_agent("heuristic", game), make_agent("heuristic", game)]
    cpu = dict.fromkeys(specs, 0.0)
    # A game instance per spec: the game memoises pure functions of a position (Kingpin's
    # mafia owners), and specs searching the same determinisation on one instance would
    # find the first spec's entries; each keeps its own, warm as in a game of its own.
    games = {spec: kingmaker.make("kingpin", players=2) for spec in specs}
    n = 0
    for seed in range(3):
        m = Match(game, bots, seed=seed)
        k = 0
        while not m.is_over() and k < 60:
            cp = m.current_player
            if cp < 0:
                m.step_chance()
                continue
            obs = m.observation(cp)
            if k % 10 == 5 and len(obs.legal_actions) > 1:
                if n == 0:  # a move of each spec first, not counted: imports and the network's load
                    for spec in specs:
                        own = games[spec]
                        make_agent(spec, own).act(Observation(own, cp, obs.view, obs.legal_actions, obs.sample, random.Random(0)))
                n += 1
                for spec in specs:
                    # A stream of its own, so that the games (the bots' moves) and each
                    # spec's search do not depend on which specs are measured.
                    own = games[spec]
                    mine = Observation(own, cp, obs.view, obs.legal_actions, obs.sample, random.Random(n))
                    agent = make_agent(spec, own)
                    t = time.process_time()
                    agent.act(mine)
                    cpu[spec] += time.process_time() - t
            m.play(bots[cp].act(obs), cp)
            k += 1
    for spec in specs:
        print(f"{spec}: {cpu[spec] / n:.3f} CPU s a move over {n} decisions")


if __name__ == "__main__":
    main(sys.argv[1:] or ["ismcts:normal/seconds=none", "ismcts:hard/seconds=none"])
