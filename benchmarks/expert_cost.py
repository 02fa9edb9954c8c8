"""CPU time a move: the expert's search against hard's, on the same positions (issue 16 §3).

Both levels run two root-parallel searches of their budget, so one search of each
(``workers=1``) on the same decision points compares their time a move, in CPU time of
this process (a busy machine changes it little). Decision points: every fourth choice of
a seeded heuristic game, the first ``--positions`` of them.

    python benchmarks/expert_cost.py kings-kilt 2
    python benchmarks/expert_cost.py kingpins 2 --specs "ismcts:expert/workers=1,ismcts:hard/seconds=none/workers=1"
"""

from __future__ import annotations

import argparse
import time

from kingmaker.agents import make_agent
from kingmaker.core.match import Match
from kingmaker.core.registry import make


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("players", type=int)
    ap.add_argument("--positions", type=int, default=16)
    ap.add_argument("--seed", type=int, default=5)
    ap.add_argument("--specs", default="ismcts:expert/workers=1,ismcts:hard/seconds=none/workers=1")
    args = ap.parse_args()
    game = make(args.game, players=args.players)
    m = Match(game, [make_agent("heuristic", game) for _ in range(game.num_players)], seed=args.seed)
    points = []
    k = 0
    while not m.is_over():
        cp = m.current_player
        if cp >= 0 and len(m.legal_actions(cp)) > 1:
            k += 1
            if k % 4 == 1:
                points.append((m.state, cp))
        m.step()
    points = points[: args.positions]
    print(f"{game.name}, {game.num_players} players: {len(points)} decision points")
    for spec in args.specs.split(","):
        agent = make_agent(spec, game)
        start = time.process_time()
        its = 0
        for s, p in points:
            snap = Match(game, None, seed=1)
            snap._state = s  # the authority's copy; the agent is given the observation only
            agent.act(snap.observation(p))
            its += agent.last.iterations
        cpu = time.process_time() - start
        print(f"  {spec:<45} {cpu / len(points):.3f} CPU s a move, {its} iterations, "
              f"{1e3 * cpu / max(its, 1):.3f} ms an iteration")


if __name__ == "__main__":
    main()
