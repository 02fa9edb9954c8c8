"""Each agent's CPU and wall time a move in a study's own games, played again.

    python benchmarks/seat_cpu.py STUDY.toml [--games N] [--cell 0]

Plays the first ``N`` games of a cell of a lab study with its seeds and seat rotation
(``lab.study.cell_seed``, ``arena.seat_agents``), as ``kingmaker lab run`` plays them, so
with iteration budgets they are the stored games move for move, and times every agent's
moves: the CPU time of this process and of the searches it forked (``resource.getrusage``
of the children: only one agent acts at a time, so each delta is that agent's) and the wall
time. Prints a Markdown row an agent spec: searched moves (more than one legal move), CPU
s and wall s a searched move, and the ratio of each agent's CPU a move to the first spec's.
Where two specs play the same positions (two seats of one study), this is how their time
a move compares; the wall time depends on free cores (a forked search runs beside).
"""

from __future__ import annotations

import argparse
import resource
import time

from kingmaker import Match, make
from kingmaker.agents import make_agent
from kingmaker.agents.arena import parse_agents, seat_agents
from kingmaker.core.api import CHANCE, TERMINAL
from kingmaker.lab.study import cell_seed, load_study


def cpu() -> float:
    c = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + c.ru_utime + c.ru_stime


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
    moves = dict.fromkeys(specs, 0)
    spent = dict.fromkeys(specs, 0.0)
    wall = dict.fromkeys(specs, 0.0)
    for i in range(a.games):
        seats = seat_agents(specs, i)
        agents = [make_agent(spec, game) for spec in seats]
        match = Match(game, agents, seed=cell_seed(study.seed, cell, i))
        for _ in range(game.info.max_game_length + 1):
            cp = match.current_player
            if cp == TERMINAL:
                break
            if cp == CHANCE:
                match.step_chance()
                continue
            p = cp if cp >= 0 else match.acting_players[0]
            obs = match.observation(p)
            t, w = cpu(), time.perf_counter()
            action = agents[p].act(obs)
            if len(obs.legal_actions) > 1:
                spec = seats[p]
                spent[spec] += cpu() - t
                wall[spec] += time.perf_counter() - w
                moves[spec] += 1
            match.play(action, p)
    first = specs[0]
    base = spent[first] / max(moves[first], 1)
    print(f"{study.name}, cell {cell.key}, {a.games} games")
    print("| agent | searched moves | CPU s a move | wall s a move | CPU a move / the first's |")
    print("|---|---|---|---|---|")
    for spec in dict.fromkeys(specs):
        n = max(moves[spec], 1)
        print(f"| `{spec}` | {moves[spec]} | {spent[spec] / n:.3f} | {wall[spec] / n:.3f} | "
              f"{spent[spec] / n / base:.2f} |")


if __name__ == "__main__":
    main()
