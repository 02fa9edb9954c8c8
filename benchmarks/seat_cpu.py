"""Each agent's iterations, CPU and wall time a move in a study's own games, played again.

    python benchmarks/seat_cpu.py STUDY.toml [--games N] [--cell 0]

Plays the first ``N`` games of a cell of a lab study with its seeds and seat rotation
(``lab.study.cell_seed``, ``arena.seat_agents``) through ``arena.run_match``, as ``kingmaker
lab run`` plays them, so with iteration budgets they are the stored games move for move,
and sums each seat's statistics: searched moves (those whose search ran an iteration or more; a kept root already holding the budget is not counted, a move of almost no cost), the iterations
its searches ran (with ``reuse=2`` only what a kept root lacked of the budget), its CPU time
(this process's and its forked searches') and its wall time. Prints a Markdown row an
agent spec, a move meaning a searched move, with each agent's CPU a move over the first
spec's. Two seats of one study play the same positions, so this is how their time a move
compares; the wall time depends on free cores (a forked search runs beside).
"""

from __future__ import annotations

import argparse

from kingmaker import make
from kingmaker.agents.arena import parse_agents, run_match, seat_agents
from kingmaker.lab.study import cell_seed, load_study


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("study")
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--cell", type=int, default=0)
    a = ap.parse_args()
    study = load_study(a.study)
    cell = study.cells()[a.cell]
    specs = parse_agents(list(study.agents), cell.players)
    game = make(study.game, players=cell.players, **dict(cell.options))
    sums = {spec: [0, 0, 0.0, 0.0] for spec in specs}  # searches, iterations, CPU, wall
    for i in range(a.games):
        seats = seat_agents(specs, i)
        _, st = run_match(game, seats, cell_seed(study.seed, cell, i))
        for p, spec in enumerate(seats):
            row = sums[spec]
            row[0] += st["searches"][p]
            row[1] += st["iterations"][p]
            row[2] += st["cpu"][p]
            row[3] += st["think"][p]
    base = sums[specs[0]][2] / max(sums[specs[0]][0], 1)
    print(f"{study.name}, cell {cell.key}, {a.games} games")
    print("| agent | searched moves | iterations a move | CPU s a move | wall s a move | CPU a move / the first's |")
    print("|---|---|---|---|---|---|")
    for spec, (n, its, cpu, wall) in sums.items():
        n = max(n, 1)
        print(f"| `{spec}` | {n} | {its / n:.0f} | {cpu / n:.3f} | {wall / n:.3f} | {cpu / n / base:.2f} |")


if __name__ == "__main__":
    main()
