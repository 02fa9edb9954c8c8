"""Side-by-side IS-MCTS speed at ``normal``: this tree against another checkout, in one run.

    python benchmarks/search_speed.py --base /tmp/base/src [--iterations 200] [--rounds 3] [--players N]

``/tmp/base`` is a ``git worktree`` of the commit to compare against (e.g.
``git worktree add /tmp/base fd17c50``). For every game at its smallest player
count, the ``normal`` level as ``make_agent`` builds it (the game's search
hints), with the time cap removed (``seconds=none``) and a fixed iteration
budget, decides at the same three decision points of a seeded random game (``--players``: at
that player count instead, for the games that allow it).
The figure is iterations per second of CPU time (``time.process_time``, so
the machine's load changes it little). The two trees run in alternating child
processes, ``--rounds`` times each, and the best round of each is kept.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys

CHILD = r"""
import json, random, sys, time
import kingmaker
from kingmaker.agents.bench import decision_points
from kingmaker.agents.search import ISMCTSAgent, LEVELS, TEAM_LEVELS, parse_level
from kingmaker.core.match import Observation
gid, iters, players = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) or None
g = kingmaker.make(gid, players)
levels = TEAM_LEVELS if g.info.cooperative else LEVELS
cfg = parse_level(f"normal/seconds=none/iterations={iters}", levels, g.search_hints)
total_it = 0
cpu = 0.0
for k, (s, p) in enumerate(decision_points(g, 3)):
    obs = Observation(g, p, g.view(s, p), g.legal_actions(s, p),
                      lambda rng, s=s, p=p: g.sample_hidden(s, p, rng), random.Random(k))
    agent = ISMCTSAgent(cfg)
    t0 = time.process_time()
    agent.search(obs)
    cpu += time.process_time() - t0
    total_it += agent.last.iterations
print(json.dumps({"game": gid, "iterations": total_it, "cpu": cpu}))
"""


def run(src: str, gid: str, iters: int, players: int = 0) -> dict:
    env = dict(os.environ, PYTHONPATH=src)
    out = subprocess.run([sys.executable, "-c", CHILD, gid, str(iters), str(players)], env=env, capture_output=True,
                         text=True, check=True)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base", required=True, help="the src/ folder of the checkout to compare against")
    ap.add_argument("--new", default=os.path.join(os.path.dirname(__file__), "..", "src"))
    ap.add_argument("--iterations", type=int, default=200)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--players", type=int, default=0, help="the player count (default: the game's smallest)")
    ap.add_argument("games", nargs="*")
    a = ap.parse_args()
    games = a.games or ["gangs-of-green-city", "kingpin", "kingpins", "kings-kilt", "san-quentin-kings"]
    print(f"{'game':<22} {'base it/s':>10} {'new it/s':>10} {'ratio':>6}")
    for gid in games:
        best = {"base": 0.0, "new": 0.0}
        for _ in range(a.rounds):
            for name, src in (("base", a.base), ("new", a.new)):
                r = run(src, gid, a.iterations, a.players)
                best[name] = max(best[name], r["iterations"] / r["cpu"])
        print(f"{gid:<22} {best['base']:>10.0f} {best['new']:>10.0f} {best['new'] / best['base']:>6.2f}")


if __name__ == "__main__":
    main()
