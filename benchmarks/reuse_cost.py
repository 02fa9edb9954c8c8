"""What a search that keeps its tree (``reuse``) costs a move, beside another spec.

    python benchmarks/reuse_cost.py GAME [--players 2] [--games 4] SPEC [SPEC ...]

Each spec plays seat 0 of ``--games`` matches against the heuristic bot on the other seats
(match seeds 100, 101, ...). For every searched decision (more than one legal move) it
records the iterations the search ran (``last.iterations``: with ``reuse=2``, only what the
kept root lacked of the budget; with workers, all of them) and the CPU time of the move,
this process's and its forked searches' (``resource.getrusage`` of the children), and its
wall time (which a forked search shortens on an idle machine with free cores). Prints a
Markdown row a spec: searched moves, mean iterations a move, mean CPU s and wall s a
move. Specs are run one after the other in this process, so compare them in one run.
"""

from __future__ import annotations

import argparse
import resource
import time

import kingmaker
from kingmaker import Match
from kingmaker.agents import make_agent


def cpu() -> float:
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("game")
    ap.add_argument("specs", nargs="+")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--games", type=int, default=4)
    a = ap.parse_args()
    game = kingmaker.make(a.game, players=a.players)
    print("| spec | searched moves | iterations a move | CPU s a move | wall s a move |")
    print("|---|---|---|---|---|")
    for spec in a.specs:
        moves = its = 0
        spent = wall = 0.0
        for g in range(a.games):
            bot = make_agent(spec, game)
            m = Match(game, [bot] + [make_agent("heuristic", game) for _ in range(a.players - 1)], seed=100 + g)
            while not m.is_over():
                if m.current_player == 0 and len(m.legal_actions(0)) > 1:
                    t, w = cpu(), time.perf_counter()
                    action = bot.act(m.observation(0))
                    spent += cpu() - t
                    wall += time.perf_counter() - w
                    moves += 1
                    its += bot.last.iterations
                    m.play(action)
                else:
                    m.step()
        print(f"| `{spec}` | {moves} | {its / moves:.0f} | {spent / moves:.3f} | {wall / moves:.3f} |",
              flush=True)


if __name__ == "__main__":
    main()
